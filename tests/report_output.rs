//! `tablero report`'s two streams and the review: stdout carries the result (the table or the
//! standings, and the review's table when the games were reviewed), stderr what is said about
//! the files (`records: …`), the same for a match and a tournament (docs/commands.md, "Output").

use crate::common;

use std::process::{Command, Output};

use common::{BIN, fresh};

fn run(args: &[&str], files: &[&std::path::Path]) -> Output {
    Command::new(BIN).args(args).args(files).output().unwrap()
}

fn streams(o: &Output) -> (String, String) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn results_on_stdout_notes_on_stderr_for_matches_and_tournaments() {
    let m = fresh("output-match.jsonl");
    let o = Command::new(BIN)
        .args(["match", "--game", "connect4", "--engine1", "builtin:random"])
        .args(["--engine2", "builtin:greedy", "--games", "4", "--records"])
        .arg(&m)
        .output()
        .unwrap();
    streams(&o);
    let t = fresh("output-tournament.jsonl");
    let o = Command::new(BIN)
        .args([
            "tournament",
            "--game",
            "connect4",
            "--engine",
            "a=builtin:random",
        ])
        .args(["--engine", "b=builtin:greedy", "--records"])
        .arg(&t)
        .output()
        .unwrap();
    streams(&o);
    for (file, first) in [
        (&m, "Match random vs greedy"),
        (&t, "Tournament round-robin"),
    ] {
        let (out, err) = streams(&run(&["report"], &[file]));
        assert!(out.starts_with(first), "{out}");
        assert!(
            !out.contains("records:"),
            "stdout holds the result only:\n{out}"
        );
        assert!(err.starts_with("records: 1 file, "), "{err}");
    }
}

/// docs/review.md: the review's table appears in `tablero report`'s output.
#[test]
fn report_prints_the_review_table_of_reviewed_records() {
    let rec = fresh("output-games.jsonl");
    let o = Command::new(BIN)
        .args(["match", "--game", "connect4", "--engine1", "builtin:ninja1"])
        .args(["--engine2", "builtin:greedy", "--games", "2", "--records"])
        .arg(&rec)
        .output()
        .unwrap();
    streams(&o);
    let reviewed = fresh("output-reviewed.jsonl");
    let o = Command::new(BIN)
        .arg("analyse")
        .arg(&rec)
        .arg("-o")
        .arg(&reviewed)
        .args(["--depth", "4"])
        .output()
        .unwrap();
    let (table, _) = streams(&o);
    let (out, _) = streams(&run(&["report"], &[&reviewed]));
    assert!(
        out.contains(&format!("review (tablero analyse) of 2 games:\n{table}")),
        "report:\n{out}\nanalyse:\n{table}"
    );
    // Records that were not reviewed have no such table.
    let (plain, _) = streams(&run(&["report"], &[&rec]));
    assert!(!plain.contains("review"), "{plain}");
}
