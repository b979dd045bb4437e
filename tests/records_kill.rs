//! Crash consistency of the referee's records: a match killed with SIGKILL and continued with
//! `--resume` (after a torn last line, as a power cut leaves) ends with every game exactly once
//! and the same moves, results and table as an uninterrupted run; a records file damaged
//! anywhere but its last line is refused and left untouched. (`scripts/killtest.sh` does the
//! same with 20 kills.)

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use common::{BIN, fresh as tmp};

/// Deterministic engines (fixed depths), so two runs play the same games.
const MATCH: &[&str] = &[
    "match",
    "--json",
    "--game",
    "mancala",
    "--engine1",
    "builtin:ninja2",
    "--engine2",
    "builtin:ninja1",
    "--games",
    "60",
    "--openings",
    "random:4",
    "--seed",
    "7",
    "--concurrency",
    "2",
];

fn lines(p: &Path) -> usize {
    std::fs::read_to_string(p).map_or(0, |s| s.lines().count())
}

/// Per game: number, moves (without their times), result and how it ended (the header line
/// skipped).
fn games(p: &Path) -> Vec<(u64, Vec<Value>, Value, Value)> {
    let text = std::fs::read_to_string(p).unwrap();
    assert!(text.ends_with('\n'), "the records end with a whole line");
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["kind"], "match",
        "the records start with their header"
    );
    text.lines()
        .skip(1)
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("every line is a whole record");
            let moves = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].clone())
                .collect();
            (
                v["game"].as_u64().unwrap(),
                moves,
                v["result"].clone(),
                v["reason"].clone(),
            )
        })
        .collect()
}

fn report(p: &Path) -> String {
    let out = Command::new(BIN).arg("report").arg(p).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_killed_match_resumes_without_losing_or_repeating_games() {
    let reference = tmp("reference.jsonl");
    let st = Command::new(BIN)
        .args(MATCH)
        .arg("--records")
        .arg(&reference)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(lines(&reference), 61, "a header and 60 games");

    let rec = tmp("killed.jsonl");
    let mut child = Command::new(BIN)
        .args(MATCH)
        .arg("--records")
        .arg(&rec)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it (SIGKILL) as soon as a few games are recorded.
    let t0 = Instant::now();
    while lines(&rec) < 4 && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = lines(&rec);
    assert!(kept >= 4, "the match recorded no game in a minute");
    // What a power cut can leave on top: half a line.
    let mut bytes = std::fs::read(&rec).unwrap();
    bytes.extend_from_slice(b"{\"game\":99,\"pai");
    std::fs::write(&rec, bytes).unwrap();

    let out = Command::new(BIN)
        .args(MATCH)
        .arg("--resume")
        .arg(&rec)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("dropped its torn last line"),
        "a clear notice about the torn line: {err}"
    );
    let report_json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report_json["games"], 60);
    let got = games(&rec);
    assert_eq!(got.len(), 60, "killed after {kept} games");
    for (i, g) in got.iter().enumerate() {
        assert_eq!(g.0, i as u64, "each game once, in order");
    }
    assert_eq!(got, games(&reference));
    assert_eq!(report(&rec), report(&reference));
}

/// The records of a finished 6-game match, and their lines.
fn recorded(name: &str) -> (std::path::PathBuf, Vec<String>) {
    let rec = tmp(name);
    let mut args = MATCH.to_vec();
    args[9] = "6";
    let st = Command::new(BIN)
        .args(&args)
        .arg("--records")
        .arg(&rec)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    let text = std::fs::read_to_string(&rec).unwrap();
    (rec, text.lines().map(str::to_string).collect())
}

/// Writes `lines` with line 3 (game 1's, after the header and game 0) replaced by `line3`,
/// resumes the match to 8 games, and checks that it is refused in one line with exit code 2
/// and the file left as written: the error line.
fn resume_refused(rec: &Path, lines: &[String], line3: &str) -> String {
    let mut edited = lines.to_vec();
    edited[2] = line3.to_string();
    let damaged = edited.join("\n") + "\n";
    std::fs::write(rec, &damaged).unwrap();
    let mut args = MATCH.to_vec();
    args[9] = "8";
    let out = Command::new(BIN)
        .args(&args)
        .arg("--resume")
        .arg(rec)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(rec).unwrap(), damaged);
    err
}

#[test]
fn a_damaged_line_before_the_last_is_refused_and_the_file_kept() {
    let (rec, lines) = recorded("damaged.jsonl");
    let err = resume_refused(&rec, &lines, "{\"game\":1,");
    assert!(
        err.contains("line 3") && err.contains("left as it is"),
        "{err}"
    );
}

/// A whole, well-formed game line that does not fit the header's schedule (its engines seated
/// the other way round, or another game's number) is refused with the reason, not dropped.
#[test]
fn a_game_line_off_the_schedule_is_refused_with_its_reason() {
    let (rec, lines) = recorded("off-schedule.jsonl");
    let game1: Value = serde_json::from_str(&lines[2]).unwrap();
    let (first, second) = (game1["first"].clone(), game1["second"].clone());
    let mut swapped = game1.clone();
    swapped["first"] = second.clone();
    swapped["second"] = first.clone();
    let mut other = game1.clone();
    other["game"] = 41.into();
    let cases = [
        (
            swapped,
            format!(
                "line 3: game 1 is {} - {}, the schedule says {} - {}; the file is left as it is",
                second.as_str().unwrap(),
                first.as_str().unwrap(),
                first.as_str().unwrap(),
                second.as_str().unwrap()
            ),
        ),
        (
            other,
            "line 3 holds game 41 where game 1 was expected; the file is left as it is".to_string(),
        ),
    ];
    for (line, want) in cases {
        let err = resume_refused(&rec, &lines, &line.to_string());
        assert!(err.trim_end().ends_with(&want), "{err}\nwanted: {want}");
    }
}
