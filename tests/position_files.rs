//! `--file PATH`: a board file of the course's simulator (5-en-Raya's `-file`: `F C N`, then
//! `phase player left turn`, then the grid of 0/1/2) wherever the command line takes a position
//! (`perft`, `render`, `solve`): the file's board options are set from it, its position is the
//! start; a `--set` that contradicts the file, a `--fen` beside it, a missing file and a game
//! without such files are one-line errors.

use crate::common;

use std::process::{Command, Output};

use common::{BIN, fresh_dir, refused};

fn tablero(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("tablero runs")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// x at 0,0 and o at 3,3 on 7x7 N=4: x to move, one placement left, phase 2, turn 2.
const BOARD: &str = "7 7 4\n2 1 1 2\n1 0 0 0 0 0 0\n0 0 0 0 0 0 0\n0 0 0 0 0 0 0\n0 0 0 2 0 0 0\n0 0 0 0 0 0 0\n0 0 0 0 0 0 0\n0 0 0 0 0 0 0\n";
const FEN: &str = "x6/7/7/3o3/7/7/7 x 1 2 2";

#[test]
fn a_board_file_is_a_position_on_the_command_line() {
    let d = fresh_dir("files");
    let board = d.join("board.txt");
    std::fs::write(&board, BOARD).unwrap();
    let b = board.to_str().unwrap();
    // perft from the file equals perft from its state string on the file's board size.
    let from_file = stdout(&tablero(&[
        "perft", "--game", "enraya", "--file", b, "--depth", "2",
    ]));
    let from_fen = stdout(&tablero(&[
        "perft",
        "--game",
        "enraya",
        "--fen",
        FEN,
        "--set",
        "Rows=7",
        "--set",
        "Columns=7",
        "--set",
        "InARow=4",
        "--depth",
        "2",
    ]));
    assert_eq!(from_file, from_fen);
    assert!(from_file.ends_with("nodes 2162\n"), "{from_file}");
    // A --set the file agrees with is fine; one it contradicts is refused.
    stdout(&tablero(&[
        "perft", "--game", "enraya", "--file", b, "--set", "InARow=4", "--depth", "1",
    ]));
    refused(
        &tablero(&[
            "perft", "--game", "enraya", "--file", b, "--set", "InARow=5", "--depth", "1",
        ]),
        "--set InARow=5: the board file",
    );
    refused(
        &tablero(&[
            "perft", "--game", "enraya", "--file", b, "--fen", FEN, "--depth", "1",
        ]),
        "--file and --fen both give the start position",
    );
    refused(
        &tablero(&[
            "perft",
            "--game",
            "enraya",
            "--file",
            "no-such.txt",
            "--depth",
            "1",
        ]),
        "--file no-such.txt: ",
    );
    refused(
        &tablero(&["perft", "--game", "connect4", "--file", b, "--depth", "1"]),
        "connect4 has no position files",
    );
    // render draws the file's position (its state string is the picture's title).
    let svg = stdout(&tablero(&["render", "--game", "enraya", "--file", b]));
    assert!(
        svg.contains(&format!("<title>enraya {FEN}</title>")),
        "{svg}"
    );
    // A file that is not a board file names its line.
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "9 9 5\n2 1 1 4\n0 0 3\n").unwrap();
    refused(
        &tablero(&[
            "render",
            "--game",
            "enraya",
            "--file",
            bad.to_str().unwrap(),
        ]),
        "line 3: '3' is not a cell value",
    );
    let _ = std::fs::remove_dir_all(d);
}
