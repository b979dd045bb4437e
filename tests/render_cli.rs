//! `tablero render` through the built binary: the SVG parses as XML and draws the position asked
//! for, `--size` sets the width, `-o` writes a file, and bad input is one line on stderr with
//! exit code 2.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("spawn tablero")
}

fn svg_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}, stderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The `data-k` keys of an SVG document (parsing it as XML on the way).
fn keys(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter_map(|n| n.attribute("data-k").map(str::to_string))
        .collect()
}

fn width(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.root_element().attribute("width").unwrap().to_string()
}

#[test]
fn connect4_position_with_last_move_and_win() {
    let svg = svg_of(&run(&[
        "--game", "connect4", "render", "--moves", "4455667",
    ]));
    let k = keys(&svg);
    for key in [
        "c4r1",
        "c5r1",
        "c6r1",
        "c7r1",
        "c4r2",
        "last",
        "win.4.1.7.1",
    ] {
        assert!(k.iter().any(|x| x == key), "{key} missing from {k:?}");
    }
    assert_eq!(width(&svg), "800", "default width");
    // Moves as separate tokens and a smaller board through --set.
    let svg = svg_of(&run(&[
        "--game",
        "connect4",
        "render",
        "--set",
        "Rows=4",
        "--set",
        "Columns=5",
        "--moves",
        "1",
        "5",
        "--size",
        "400",
    ]));
    let k = keys(&svg);
    assert!(k.iter().any(|x| x == "c5r1") && !k.iter().any(|x| x.starts_with("win")));
    assert_eq!(width(&svg), "400");
    assert!(svg.contains("<title>connect4 5/5/5/x3o x</title>"), "{svg}");
}

#[test]
fn every_drawable_game_renders_its_start_and_a_fen() {
    for (game, fen) in [
        ("connect4", "7/7/7/7/7/3x3 o"),
        ("connect4boom", "7/7/7/7/7/7/X5O x 16"),
        ("mancala", "4,4,4,4,4,4:0/4,4,4,4,4,4:0 N"),
        (
            "parchis",
            "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
        ),
    ] {
        let svg = svg_of(&run(&["--game", game, "render", "--size", "1600"]));
        assert!(!keys(&svg).is_empty());
        assert_eq!(width(&svg), "1600");
        let svg = svg_of(&run(&["--game", game, "render", "--fen", fen]));
        assert!(
            svg.contains(&format!("<title>{game} {fen}</title>")),
            "{svg}"
        );
    }
}

#[test]
fn boom_and_mancala_moves() {
    let svg = svg_of(&run(&[
        "--game",
        "connect4boom",
        "render",
        "--fen",
        "7/7/7/7/7/o1x4/Xox1Oo1 x 16",
        "--moves",
        "boom",
    ]));
    let k = keys(&svg);
    // The explosion cleared o's pieces of the bottom row; o's piece above column 1 fell.
    assert!(k.iter().any(|x| x == "c1r1") && !k.iter().any(|x| x == "c1r2"));
    assert!(!k.iter().any(|x| x == "c2r1" || x == "c5r1" || x == "c6r1"));
    assert!(k.iter().any(|x| x == "last"));
    let svg = svg_of(&run(&[
        "--game", "mancala", "render", "--set", "Pits=4", "--set", "Seeds=2", "--moves", "3 1",
    ]));
    let k = keys(&svg);
    assert!(k.iter().any(|x| x == "last") && k.iter().any(|x| x == "S4.n"));
}

#[test]
fn output_file_is_written() {
    let dir = std::env::temp_dir().join(format!("tablero-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pos.svg");
    let out = run(&[
        "--game",
        "mancala",
        "render",
        "--moves",
        "3",
        "-o",
        path.to_str().unwrap(),
        "--size",
        "500",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "-o leaves stdout empty");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(width(&svg), "500");
    assert!(keys(&svg).iter().any(|x| x == "last"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        &["--game", "connect4", "render", "--fen", "7/7/7 x"][..],
        &["--game", "connect4", "render", "--moves", "4", "9"],
        &["--game", "connect4", "render", "--moves", "4455667", "1"],
        &["--game", "connect4boom", "render", "--moves", "boom"],
        &["--game", "mancala", "render", "--moves", "0"],
        &["--game", "mancala", "render", "--set", "Pits=13"],
        &["--game", "mancala", "render", "--set", "Colour=3"],
        &["--game", "connect4", "render", "--size", "0"],
        &["--game", "connect4", "render", "--size", "big"],
        &["--game", "connect4", "render", "--size", "100000"],
        &[
            "--game",
            "connect4",
            "render",
            "-o",
            "/nonexistent-dir/x/y.svg",
        ],
        &["--game", "nosuchgame", "render"],
        &["--game", "parchis", "render", "--moves", "y0:3"],
        &["--game", "parchis", "render", "--fen", "n 0 1"],
    ] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        // A value clap refuses is clap's whole message (with where to get help); the rest is
        // one line.
        if err.starts_with("error: ") {
            assert!(err.contains("try '--help'"), "{args:?}: {err}");
        } else {
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn parchis_moves_move_the_piece_and_mark_the_last_move() {
    let start = svg_of(&run(&["--game", "parchis", "render"]));
    let after = svg_of(&run(&["--game", "parchis", "render", "--moves", "y0:5"]));
    for svg in [&start, &after] {
        let k = keys(svg);
        for piece in ["y0", "y2", "b0", "r1", "g2"] {
            let n = k.iter().filter(|x| **x == format!("piece-{piece}")).count();
            assert_eq!(n, 1, "piece {piece} drawn once");
        }
    }
    let y0 = |svg: &str| -> String {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let n = doc
            .descendants()
            .find(|n| n.attribute("data-k") == Some("piece-y0"))
            .unwrap();
        format!("{:?},{:?}", n.attribute("cx"), n.attribute("cy"))
    };
    assert_ne!(y0(&start), y0(&after), "y0 moved from box 4 to box 9");
    assert!(
        !start.contains("class=\"last\""),
        "no last move at the start"
    );
    assert!(
        after.contains("class=\"last\""),
        "the last move is highlighted"
    );
    assert!(after.contains("y0:5"), "the last move is named");
}

/// `tablero bench | head -1` ends as Unix tools end when the reader leaves: by SIGPIPE, with no
/// panic message (it used to panic in `println!`).
#[cfg(unix)]
#[test]
fn printing_commands_end_quietly_when_the_reader_leaves() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    // `bench` prints a line per search for seconds, so the reader is gone long before the end
    // (a command that prints everything at its end, as perft's divide does, could fill the
    // pipe's buffer and exit before the reader leaves).
    {
        let args = ["bench"];
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tablero"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?}");
        // The reader is gone: the next line it prints meets a closed pipe.
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{args:?}: {err}");
    }
}
