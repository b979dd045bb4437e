//! What a user has is never lost: `match --records`, `tournament --records` and `analyse -o`
//! refuse a file that exists (a 20-game record became 3 lines), unless told `--resume` or
//! `--overwrite`; `--overwrite` writes beside the file and renames over it when the run ends, so
//! a run killed before leaves the old file whole.

use crate::common;

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

/// The first `keep` lines of `from` (the header and `keep - 1` games) into `to`, then `tail`.
fn cut(from: &std::path::Path, to: &std::path::Path, keep: usize, tail: &str) {
    let text = std::fs::read_to_string(from).unwrap();
    let mut out: String = text.lines().take(keep).map(|l| format!("{l}\n")).collect();
    out += tail;
    std::fs::write(to, out).unwrap();
}

fn tablero(args: &[&str], files: &[&std::path::Path]) -> std::process::Output {
    Command::new(BIN).args(args).args(files).output().unwrap()
}

/// A records file cut short (a header that promises 20 games, 3 game lines) is reported as
/// "3 of 20 games" and refused by report and analyse unless `--partial`; a cut-off last line
/// is named, never skipped in silence.
#[test]
fn records_cut_short_are_named_and_refused_without_partial() {
    let whole = fresh("short-whole.jsonl");
    let o = quick_match(&whole, "20", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = tablero(&["report"], &[&whole]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let short = fresh("short-3.jsonl");
    cut(&whole, &short, 4, "");
    let o = tablero(&["report"], &[&short]);
    common::refused(&o, "3 of 20 games, missing 3-19 (17)");
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--partial"), "{err}");
    let o = tablero(&["report", "--partial"], &[&short]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(all.contains("records: 1 file, 3 of 20 games"), "{all}");
    assert!(all.contains("missing games: 3-19 (17)"), "{all}");
    // analyse: the same refusal, and a review of the three games with --partial.
    let out = fresh("short-review.jsonl");
    let o = Command::new(BIN)
        .arg("analyse")
        .arg(&short)
        .arg("-o")
        .arg(&out)
        .args(["--depth", "1"])
        .output()
        .unwrap();
    common::refused(&o, "3 of 20 games");
    assert!(!out.exists(), "nothing written");
    let o = Command::new(BIN)
        .arg("analyse")
        .arg(&short)
        .arg("-o")
        .arg(&out)
        .args(["--depth", "1", "--partial"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A last line cut off: named, with its line number, and read around with --partial.
    let torn = fresh("short-torn.jsonl");
    cut(&whole, &torn, 4, "{\"game\": 3, \"pa");
    let o = tablero(&["report"], &[&torn]);
    common::refused(
        &o,
        "short-torn.jsonl:5: the last line is cut off (15 bytes, no newline)",
    );
    let o = tablero(&["report", "--partial"], &[&torn]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        all.contains(
            "short-torn.jsonl:5: the last line is cut off (15 bytes, no newline): not read"
        ),
        "{all}"
    );
    // A damaged line with more after it is an error even with --partial.
    let bad = fresh("short-bad.jsonl");
    let text = std::fs::read_to_string(&whole).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{\"game\": 1, \"pa";
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let o = tablero(&["report", "--partial"], &[&bad]);
    common::refused(&o, "short-bad.jsonl:3: not a JSON record");
}

/// A match an SPRT stopped is whole with fewer games than it was given; a resumed match with
/// more games promises the new number.
#[test]
fn an_sprt_stop_is_whole_and_a_resume_promises_its_own_number() {
    let rec = fresh("short-sprt.jsonl");
    let o = Command::new(BIN)
        .args(["match", "--game", "connect4", "--engine1", "builtin:ninja2"])
        .args([
            "--engine2",
            "builtin:random",
            "--games",
            "200",
            "--openings",
            "random:2",
        ])
        .args(["--sprt", "elo0=0", "elo1=200", "--records"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let n = std::fs::read_to_string(&rec).unwrap().lines().count() - 1;
    assert!(n < 200, "the SPRT stopped it ({n} games)");
    let o = tablero(&["report"], &[&rec]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // 4 games recorded, resumed to 6.
    let rec = fresh("short-resume.jsonl");
    let o = quick_match(&rec, "4", &[]);
    assert!(o.status.success());
    let o = Command::new(BIN)
        .args(["match", "--game", "connect4", "--engine1", "builtin:random"])
        .args(["--engine2", "builtin:greedy", "--games", "6", "--resume"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(
        text.lines().next().unwrap().contains("\"games\":6"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 7);
    let o = tablero(&["report"], &[&rec]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Tournament shards merged with one missing: refused without --partial, named with it.
#[test]
fn a_tournament_merge_with_a_shard_missing_needs_partial() {
    let shard = fresh("short-shard1.jsonl");
    let o = Command::new(BIN)
        .args([
            "tournament",
            "--game",
            "connect4",
            "--engine",
            "a=builtin:random",
        ])
        .args([
            "--engine",
            "b=builtin:greedy",
            "--engine",
            "c=builtin:ninja1",
        ])
        .args(["--shard", "1/2", "--records"])
        .arg(&shard)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = tablero(&["report"], &[&shard]);
    common::refused(&o, "of 6 games, missing");
    let o = tablero(&["report", "--partial"], &[&shard]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("; in shard 2/2"), "{err}");
}
