//! `tablero solve --game enraya`: one position (verdict, distance, line) and `--batch` with
//! Status answers to check, right and wrong; the protocol's `solve` for 5-en-Raya.

use crate::common;

use std::process::Command;

use common::{BIN, stdout, tmp};
use tablero::games::GameKind;
use tablero::protocol::run_script;

fn solve(args: &[&str]) -> String {
    let o = Command::new(BIN)
        .args(["--game", "enraya", "solve"])
        .args(args)
        .output()
        .expect("tablero runs");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout(&o)
}

const TIC_TAC_TOE: [&str; 6] = ["--set", "Rows=3", "--set", "Columns=3", "--set", "InARow=3"];

#[test]
fn tic_tac_toe_is_a_draw_and_4x4_n3_a_first_player_win() {
    let out = solve(&TIC_TAC_TOE);
    assert!(out.contains("info string EMPATE plies - "), "{out}");
    assert!(out.contains("solved score 0 best "), "{out}");
    let out = solve(&["--set", "Rows=4", "--set", "Columns=4", "--set", "InARow=3"]);
    assert!(out.contains("info string VICTORIA plies "), "{out}");
}

#[test]
fn a_win_in_one_and_a_loss_in_two() {
    let mut args = TIC_TAC_TOE.to_vec();
    args.extend(["--fen", "xx1/oo1/3 x 1 0 4"]);
    let out = solve(&args);
    assert!(out.contains("info string VICTORIA plies 1 "), "{out}");
    assert!(out.contains("solved score 999 best 0,2 "), "{out}");
    let mut args = TIC_TAC_TOE.to_vec();
    args.extend(["--fen", "xx1/ox1/o2 o 1 0 5"]);
    let out = solve(&args);
    assert!(out.contains("info string DERROTA plies 2 "), "{out}");
    assert!(out.contains("solved score -998 "), "{out}");
}

#[test]
fn batch_checks_status_answers() {
    let file = tmp("enraya_status_batch.txt");
    std::fs::write(
        &file,
        "# tic-tac-toe positions and answers\n\
         3/3/3 x 1 0 0 EMPATE 1,1\n\
         xx1/oo1/3 x 1 0 4 VICTORIA 0,2\n\
         xx1/oo1/3 x 1 0 4 VICTORIA 2,2\n\
         xx1/ox1/o2 o 1 0 5 EMPATE\n\
         xx1/ox1/o2 o 1 0 5 derrota 2,2\n\
         xx1/ox1/o2 o 1 0 5 DERROTA 0,0\n\
         xx1/ox1/o2 o 1 0 5\n",
    )
    .unwrap();
    let mut args = TIC_TAC_TOE.to_vec();
    let path = file.to_string_lossy().to_string();
    args.extend(["--batch", &path]);
    let out = solve(&args);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert!(
        lines[0].starts_with("line 2: EMPATE plies - best ") && lines[0].ends_with("claim right"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("line 3: VICTORIA plies 1 best 0,2 ")
            && lines[1].ends_with("claim right"),
        "{out}"
    );
    assert!(
        lines[2].ends_with("MISMATCH: move 2,2 gives DERROTA"),
        "{out}"
    );
    assert!(
        lines[3].ends_with("MISMATCH: verdict EMPATE is wrong"),
        "{out}"
    );
    assert!(
        lines[4].starts_with("line 6: DERROTA plies 2 ") && lines[4].ends_with("claim right"),
        "{out}"
    );
    assert!(lines[5].contains("MISMATCH: move 0,0 is illegal"), "{out}");
    assert!(
        lines[6].starts_with("line 8: DERROTA plies 2 ") && !lines[6].contains("claim"),
        "{out}"
    );
    assert!(
        lines[7].starts_with(
            "batch positions 7 claims 6 wrong_verdicts 1 wrong_moves 2 unchecked_moves 0 unproven 0 "
        ),
        "{out}"
    );
}

#[test]
fn a_node_budget_leaves_a_position_unproven() {
    // The 9 × 9 start is far beyond 100 nodes.
    let o = Command::new(BIN)
        .args(["--game", "enraya", "solve", "--nodes", "100"])
        .output()
        .expect("tablero runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not proven: the budget ran out after "),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&o.stdout).contains("solved"));
}

#[test]
fn protocol_solve_and_go_use_the_registry() {
    let out = run_script(
        GameKind::Enraya,
        "setoption name Rows value 3\nsetoption name Columns value 3\nsetoption name InARow value 3\n\
         position fen xx1/oo1/3 x 1 0 4\nsolve\ngo depth 1\n",
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("solved score 999 best 0,2 ")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l == "bestmove 0,2"), "{out:?}");
}
