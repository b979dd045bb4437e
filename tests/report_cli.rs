//! `tablero report` from the command line: the table equals the one `tablero match` printed,
//! records files are merged (duplicates dropped, missing games named), records without settings
//! (version 1) still load, and bad input is one line on stderr with exit code 2.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tablero-report-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn tablero(args: &[&str], paths: &[&PathBuf]) -> Output {
    Command::new(BIN).args(args).args(paths).output().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A one-line error and exit code 2, mentioning `needle`.
fn refused(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{needle}' in: {err}");
    assert!(!err.contains("panicked"));
}

const MATCH: &[&str] = &[
    "match",
    "--game",
    "mancala",
    "--engine1",
    "builtin:random",
    "--engine2",
    "builtin:greedy",
    "--openings",
    "random:3",
    "--games",
    "8",
    "--sprt",
    "elo0=0 elo1=50",
    "--records",
];

#[test]
fn the_table_is_the_referees_and_files_merge() {
    let rec = tmp("all.jsonl");
    let played = stdout(&tablero(MATCH, &[&rec]));
    let all = std::fs::read_to_string(&rec).unwrap();
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 8);
    let first: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["version"], 2);
    assert_eq!(first["settings"]["sprt"]["elo1"], 50.0);
    assert_eq!(first["settings"]["options"][0][0], "Pits");

    let report = stdout(&tablero(&["report"], &[&rec]));
    assert!(
        report.starts_with(&played),
        "report:\n{report}\nmatch:\n{played}"
    );
    assert!(report.contains("records: 1 file, 8 games"));
    assert!(report.contains("SPRT elo0=0 elo1=50"));

    // Two shards overlapping in game 3 and missing games 5 and 6.
    let a = tmp("a.jsonl");
    let b = tmp("b.jsonl");
    std::fs::write(&a, lines[..4].join("\n") + "\n").unwrap();
    std::fs::write(&b, format!("{}\n{}\n{}\n", lines[3], lines[4], lines[7])).unwrap();
    let merged = stdout(&tablero(&["report"], &[&a, &b]));
    assert!(merged.contains(", 6 games\n"), "{merged}");
    assert!(merged.contains("duplicates dropped: 1 line repeating a game number already read\n"));
    // A duplicate that disagrees with the game kept is pointed out.
    let c = tmp("c.jsonl");
    let mut other: Value = serde_json::from_str(lines[2]).unwrap();
    other["moves"].as_array_mut().unwrap().pop();
    std::fs::write(&c, format!("{other}\n")).unwrap();
    let conflict = stdout(&tablero(&["report"], &[&a, &c]));
    assert!(
        conflict.contains("(1 with other moves or result than the one kept, the first read)"),
        "{conflict}"
    );
    assert!(merged.contains("missing games: 5-6 (2)"), "{merged}");
    // Pairs 0 and 1 are complete; games 4 and 7 lack their partners.
    let pairs: Vec<u64> = {
        let l = merged.lines().find(|l| l.starts_with("pairs by")).unwrap();
        let inner = &l[l.find('[').unwrap() + 1..l.find(']').unwrap()];
        inner.split(", ").map(|x| x.parse().unwrap()).collect()
    };
    assert_eq!(pairs.iter().sum::<u64>(), 2);

    // Version 1 records (no version, no settings) still load, and resume.
    let old = tmp("old.jsonl");
    let stripped: Vec<String> = lines[..4]
        .iter()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("version");
            o.remove("settings");
            v.to_string()
        })
        .collect();
    std::fs::write(&old, stripped.join("\n") + "\n").unwrap();
    let r = stdout(&tablero(&["report"], &[&old]));
    assert!(r.contains("older referee"), "{r}");
    assert!(
        !r.contains("SPRT"),
        "an old record does not say an SPRT ran"
    );
    let mut resume: Vec<&str> = MATCH[..MATCH.len() - 1].to_vec();
    resume.push("--resume");
    let resumed = stdout(&tablero(&resume, &[&old]));
    assert!(resumed.starts_with(&played), "{resumed}");
    // ... and can be merged with version 2 records of the same match.
    stdout(&tablero(&["report"], &[&a, &old]));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let rec = tmp("bad.jsonl");
    stdout(&tablero(MATCH, &[&rec]));
    let all = std::fs::read_to_string(&rec).unwrap();
    let missing = tmp("does-not-exist.jsonl");
    refused(&tablero(&["report"], &[&missing]), "does-not-exist.jsonl");

    let torn = tmp("torn.jsonl");
    let two: Vec<&str> = all.lines().take(2).collect();
    std::fs::write(&torn, format!("{}\n{}\n{{\"game\":2,\"pa", two[0], two[1])).unwrap();
    refused(&tablero(&["report"], &[&torn]), "torn.jsonl:3");

    let junk = tmp("junk.jsonl");
    std::fs::write(&junk, "{\"hello\": 1}\n").unwrap();
    refused(&tablero(&["report"], &[&junk]), "junk.jsonl:1");

    let empty = tmp("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    refused(&tablero(&["report"], &[&empty]), "no records");

    // Another seed is another match.
    let other = tmp("other.jsonl");
    let mut args = MATCH.to_vec();
    args.splice(1..1, ["--seed", "9"]);
    stdout(&tablero(&args, &[&other]));
    refused(&tablero(&["report"], &[&rec, &other]), "seed 1 vs 9");

    let out = PathBuf::from("/nonexistent-dir/report.html");
    refused(
        &tablero(&["report", "--html", out.to_str().unwrap()], &[&rec]),
        "--html /nonexistent-dir/report.html",
    );
}
