//! What a user has is never lost: `match --records`, `tournament --records` and `analyse -o`
//! refuse a file that exists (a 20-game record became 3 lines), unless told `--resume` or
//! `--overwrite`; `--overwrite` writes beside the file and renames over it when the run ends, so
//! a run killed before leaves the old file whole.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, fresh};

/// A quick deterministic match of `games` games into `records` (`extra` flags after).
fn quick_match(records: &std::path::Path, games: &str, extra: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .args(["match", "--game", "connect4", "--engine1", "builtin:random"])
        .args(["--engine2", "builtin:greedy", "--games", games, "--records"])
        .arg(records)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn an_existing_records_file_is_refused_and_left_as_it_was() {
    let rec = fresh("safety-existing.jsonl");
    let o = quick_match(&rec, "20", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = std::fs::read(&rec).unwrap();
    assert_eq!(before.iter().filter(|&&b| b == b'\n').count(), 21);
    let o = quick_match(&rec, "3", &[]);
    common::refused(&o, "the file exists; --resume");
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read(&rec).unwrap(), before, "untouched");
    // The same for a tournament.
    let o = Command::new(BIN)
        .args([
            "tournament",
            "--game",
            "connect4",
            "--engine",
            "a=builtin:random",
        ])
        .args(["--engine", "b=builtin:greedy", "--records"])
        .arg(&rec)
        .output()
        .unwrap();
    common::refused(&o, "the file exists");
    assert_eq!(std::fs::read(&rec).unwrap(), before, "untouched");
    // --overwrite replaces it, once the new records are whole.
    let o = quick_match(&rec, "3", &["--overwrite"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(after.lines().count(), 4, "{after}");
    let partial = rec.with_extension("jsonl.partial");
    assert!(!partial.exists(), "renamed over the old file");
}

/// A match killed while it replaces a file leaves the old file whole (the new games are in
/// `FILE.partial`).
#[test]
fn a_killed_overwrite_leaves_the_old_file_whole() {
    let rec = fresh("safety-killed.jsonl");
    let o = quick_match(&rec, "6", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = std::fs::read(&rec).unwrap();
    let partial = rec.with_extension("jsonl.partial");
    let _ = std::fs::remove_file(&partial);
    let mut child = Command::new(BIN)
        .args(["match", "--game", "connect4", "--engine1", BIN])
        .args([
            "--engine2",
            "builtin:greedy",
            "--games",
            "40",
            "--movetime",
            "20",
        ])
        .arg("--records")
        .arg(&rec)
        .arg("--overwrite")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while std::fs::read_to_string(&partial).map_or(0, |s| s.lines().count()) < 2 {
        assert!(t0.elapsed() < Duration::from_secs(30), "no game recorded");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        std::fs::read(&rec).unwrap(),
        before,
        "the old file is whole"
    );
    assert!(partial.exists());
}

#[test]
fn analyse_refuses_an_existing_output() {
    let rec = fresh("safety-analyse-games.jsonl");
    let o = quick_match(&rec, "2", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = fresh("safety-analyse.jsonl");
    std::fs::write(&out, "a review worth keeping\n").unwrap();
    let analyse = |extra: &[&str]| {
        Command::new(BIN)
            .arg("analyse")
            .arg(&rec)
            .arg("-o")
            .arg(&out)
            .args(["--depth", "2"])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = analyse(&[]);
    common::refused(&o, "the file exists; --resume");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "a review worth keeping\n"
    );
    let o = analyse(&["--overwrite"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 3);
    // Reviewing a file into itself (--overwrite) keeps the games: it is read first.
    let o = Command::new(BIN)
        .arg("analyse")
        .arg(&rec)
        .arg("-o")
        .arg(&rec)
        .args(["--depth", "2", "--overwrite"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&rec).unwrap().lines().count(), 3);
}
