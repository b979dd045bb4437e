//! The referee against deliberately broken mock engines (tests/mock/*.sh) and real built-in
//! players: every game must end with the right winner and reason, the records file must hold
//! one complete JSON line per game, and the match must finish.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::common;
use common::{BIN, tmp};

fn mock(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mock")
        .join(name);
    format!("bash {}", p.display())
}

/// Runs `tablero match --json` with `args`; returns the report and the game records (after the
/// records' header line, checked here).
fn run_match(records: &str, args: &[&str]) -> (Value, Vec<Value>) {
    let rec = tmp(records);
    let _ = std::fs::remove_file(&rec);
    let out = Command::new(BIN)
        .args(["match", "--json", "--records"])
        .arg(&rec)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "match failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON object on stdout");
    let mut lines: Vec<Value> = std::fs::read_to_string(&rec)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every record line is complete JSON"))
        .collect();
    let header = lines.remove(0);
    assert_eq!(header["kind"], "match", "{header}");
    assert_eq!(header["settings"]["format"], "match", "{header}");
    for g in &lines {
        assert_eq!(g["kind"], "match-game", "{g}");
        assert_eq!(g["fingerprint"], header["fingerprint"], "{g}");
    }
    (report, lines)
}

/// Checks that every game was lost by the mock (engine 2) for `reason`.
fn all_lost_by_engine2(report: &Value, records: &[Value], games: u64, reason: &str) {
    assert_eq!(report["games"], games);
    assert_eq!(report["wins1"], games, "{report}");
    assert_eq!(report["losses1"], 0);
    assert_eq!(report["score1"], 1.0);
    assert_eq!(report["reasons"][reason], games, "{report}");
    assert_eq!(records.len() as u64, games);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["game"], i as u64);
        assert_eq!(r["winner"], 1, "{r}");
        assert_eq!(r["reason"], reason, "{r}");
        // Engine 1 moved first in even games and always got to move before the mock failed.
        let first_moves = r["moves"].as_array().unwrap().len();
        assert_eq!(first_moves > 0, i % 2 == 0, "{r}");
    }
}

#[test]
fn crashing_engine_loses_every_game_and_is_restarted() {
    let (report, recs) = run_match(
        "crash.jsonl",
        &[
            "--game",
            "connect4",
            "--engine1",
            "builtin:greedy",
            "--engine2",
            &mock("crash.sh"),
            "--games",
            "4",
            "--depth",
            "2",
        ],
    );
    all_lost_by_engine2(&report, &recs, 4, "crash");
}

#[test]
fn a_crashed_engine_is_restarted_for_the_next_game() {
    let marker = tmp("crash_once.count");
    let _ = std::fs::remove_file(&marker);
    // Life 1 is the referee's pre-flight start, life 2 plays game 0 and crashes, life 3 must
    // be started for game 1 and plays on.
    let engine = format!("{} {} {BIN}", mock("crash_once.sh"), marker.display());
    let (report, recs) = run_match(
        "crash_once.jsonl",
        &[
            "--game",
            "connect4",
            "--engine1",
            "builtin:greedy",
            "--engine2",
            &engine,
            "--games",
            "4",
        ],
    );
    assert_eq!(report["games"], 4);
    let reasons: Vec<&str> = recs.iter().map(|r| r["reason"].as_str().unwrap()).collect();
    assert_eq!(reasons, ["crash", "normal", "normal", "normal"]);
    assert_eq!(recs[0]["winner"], 1);
    let lives = std::fs::read_to_string(&marker).unwrap().lines().count();
    assert_eq!(
        lives, 3,
        "one restart after the crash, then the same process for every game"
    );
}

/// An engine of a match that cannot even start a game stops the match at once (exit code 2,
/// one line) with the reason: its exit status and the last lines of its stderr, or that it did
/// not answer `uci` within the start-up limit, instead of losing every game in silence.
#[test]
fn an_engine_that_cannot_start_a_game_stops_the_match_with_the_reason() {
    for (engine, extra, wanted) in [
        ("/bin/true", vec![], "exited before 'uciok' (exit code 0)"),
        (
            "sh -c 'echo \"unknown flag --palyer\" >&2; exit 3'",
            vec![],
            "exited before 'uciok' (exit code 3; stderr: unknown flag --palyer)",
        ),
        (
            "sleep 30",
            vec!["--startup-timeout", "300"],
            "did not answer 'uci' with 'uciok' within 300 ms",
        ),
    ] {
        let t0 = std::time::Instant::now();
        let out = Command::new(BIN)
            .args(["match", "--game", "connect4", "--engine1", "builtin:random"])
            .args(["--engine2", engine, "--games", "4"])
            .args(&extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{engine}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{engine}: {err}");
        assert!(err.starts_with("tablero: error: engine '"), "{err}");
        assert!(err.contains("cannot play: "), "{err}");
        assert!(err.contains(wanted), "{engine}: no '{wanted}' in {err}");
        assert!(
            out.stdout.is_empty(),
            "no table for a match that did not start"
        );
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "{engine}: the start-up limit, not --timeout, bounds the wait"
        );
    }
}

/// Games lost off the board are told on stderr as they end (not only in the records): which
/// game, which engine, how and why.
#[test]
fn engine_losses_are_told_on_stderr_as_they_happen() {
    let out = Command::new(BIN)
        .args(["match", "--game", "connect4", "--engine1", "builtin:greedy"])
        .args(["--engine2", &mock("crash.sh"), "--name2", "crasher"])
        .args(["--games", "2", "--depth", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    for g in 0..2 {
        assert!(
            err.contains(&format!(
                "tablero match: game {g}: crasher lost by crash: engine exited or disconnected (exit code 3)"
            )),
            "{err}"
        );
    }
    // A tournament goes on without an engine that cannot start; each of its losses is told.
    let out = Command::new(BIN)
        .args([
            "--game",
            "connect4",
            "tournament",
            "--engine",
            "a=builtin:random",
        ])
        .args([
            "--engine",
            "b=/bin/true",
            "--engine",
            "c=builtin:greedy",
            "--depth",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let told: Vec<&str> = err.lines().filter(|l| l.contains(" lost by ")).collect();
    assert_eq!(told.len(), 4, "{err}");
    assert!(
        told.iter()
            .all(|l| l.ends_with("b lost by crash: exited before 'uciok' (exit code 0)")),
        "{err}"
    );
}

#[test]
fn a_run_without_a_terminal_tells_each_game_on_stderr() {
    // stderr is a pipe here, as under nohup: no bar, a line a game in the records' order.
    let (dir, rec) = (tmp("progress-lines"), "m.jsonl");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(BIN)
        .current_dir(&dir)
        .args(["match", "--game", "mancala", "--engine1", "builtin:ninja2"])
        .args([
            "--engine2",
            "builtin:ninja1",
            "--depth",
            "4",
            "--games",
            "4",
        ])
        .args([
            "--openings",
            "random:4",
            "--seed",
            "3",
            "--json",
            "--records",
            rec,
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let records: Vec<Value> = std::fs::read_to_string(dir.join(rec))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (mut w, mut d, mut l) = (0, 0, 0);
    for (k, (line, g)) in lines.iter().zip(&records).enumerate() {
        let result = g["result"].as_str().unwrap();
        let first = g["first"].as_str().unwrap();
        let second = if first == "ninja2" {
            "ninja1"
        } else {
            "ninja2"
        };
        match (result, first == "ninja2") {
            ("1/2-1/2", _) => d += 1,
            ("1-0", true) | ("0-1", false) => w += 1,
            _ => l += 1,
        }
        let score = 100.0 * (w as f64 + d as f64 / 2.0) / (k + 1) as f64;
        let want = format!(
            "tablero match: {}/4: game {k}: {first} {result} {second} ({}); ninja2: +{w} ={d} -{l} ({score:.1}%)",
            k + 1,
            g["reason"].as_str().unwrap(),
        );
        assert!(line.starts_with(&want), "{line}\nwanted {want}…");
    }
    assert_eq!(
        (report["wins1"].as_u64(), report["losses1"].as_u64()),
        (Some(w), Some(l))
    );
    assert!(!err.contains('\r'), "no bar is drawn into a pipe: {err:?}");
}

#[test]
fn illegal_move_loses_with_the_move_named() {
    let (report, recs) = run_match(
        "illegal.jsonl",
        &[
            "--game",
            "connect4",
            "--engine1",
            "builtin:random",
            "--engine2",
            &mock("illegal.sh"),
            "--games",
            "2",
        ],
    );
    all_lost_by_engine2(&report, &recs, 2, "illegal");
    assert!(recs[0]["detail"].as_str().unwrap().contains("zz9"));
}

#[test]
fn silent_engine_loses_on_time() {
    let (report, recs) = run_match(
        "silent.jsonl",
        &[
            "--game",
            "mancala",
            "--engine1",
            "builtin:random",
            "--engine2",
            &mock("silent.sh"),
            "--games",
            "2",
            "--movetime",
            "50",
            "--margin",
            "400",
        ],
    );
    all_lost_by_engine2(&report, &recs, 2, "time");
}

#[test]
fn junk_output_is_logged_not_fatal() {
    let logdir = tmp("junklogs");
    let (report, recs) = run_match(
        "junk.jsonl",
        &[
            "--game",
            "connect4",
            "--engine1",
            "builtin:greedy",
            "--engine2",
            &format!("{} {BIN}", mock("junk.sh")),
            "--name2",
            "junk",
            "--games",
            "2",
            "--log",
            logdir.to_str().unwrap(),
            "--option1",
            "Hash=8",
        ],
    );
    assert_eq!(report["games"], 2);
    assert_eq!(report["reasons"]["normal"], 2, "{report}");
    for r in &recs {
        assert!(r["junk_lines"].as_u64().unwrap() > 0, "{r}");
    }
    let log = std::fs::read_to_string(logdir.join("game00000-e2-junk.log")).unwrap();
    assert!(log.contains("garbage: ###"));
    assert!(log.contains("> go"));
    let log1 = std::fs::read_to_string(logdir.join("game00000-e1-greedy.log")).unwrap();
    assert!(
        log1.contains("> setoption name UCI_Variant value connect4"),
        "{log1}"
    );
    assert!(log1.contains("> setoption name Hash value 8"), "{log1}");
    assert!(log1.contains("< bestmove"), "{log1}");
}

#[test]
fn stderr_is_never_parsed() {
    let (report, _) = run_match(
        "stderr.jsonl",
        &[
            "--game",
            "connect4",
            "--engine1",
            &format!("{} {BIN}", mock("noisy_stderr.sh")),
            "--engine2",
            "builtin:random",
            "--games",
            "2",
        ],
    );
    assert_eq!(report["reasons"]["normal"], 2, "{report}");
}

#[test]
fn time_control_clock_forfeits_a_slow_engine() {
    // 0.3 s + 0.01 s per move and a 100 ms margin: the silent engine is forfeited after 400 ms
    // (generous for the random player on a loaded machine).
    let (report, recs) = run_match(
        "tc.jsonl",
        &[
            "--game",
            "connect4",
            "--engine1",
            "builtin:random",
            "--engine2",
            &mock("silent.sh"),
            "--games",
            "2",
            "--tc",
            "0.3+0.01",
            "--margin",
            "100",
            "--log",
            tmp("tclogs").to_str().unwrap(),
        ],
    );
    all_lost_by_engine2(&report, &recs, 2, "time");
    // The clocks reach the engines in milliseconds, "w" being the first mover's.
    let log = std::fs::read_to_string(tmp("tclogs").join("game00000-e1-random.log")).unwrap();
    assert!(
        log.contains("> go wtime 300 btime 300 winc 10 binc 10"),
        "{log}"
    );
    assert!(
        recs[0]["detail"]
            .as_str()
            .unwrap()
            .contains("within 400 ms"),
        "{}",
        recs[0]
    );
}

#[test]
fn self_match_is_complete_and_reproducible_across_concurrency() {
    let args = |c: &'static str| {
        vec![
            "--game",
            "connect4boom",
            "--engine1",
            "builtin:greedy",
            "--engine2",
            "builtin:ninja1",
            "--games",
            "6",
            "--openings",
            "random:4",
            "--seed",
            "7",
            "--concurrency",
            c,
        ]
    };
    let (r1, recs1) = run_match("self1.jsonl", &args("1"));
    let (r2, recs2) = run_match("self2.jsonl", &args("3"));
    assert_eq!(r1["games"], 6);
    assert_eq!(r1["reasons"]["crash"], 0);
    assert_eq!(r1["reasons"]["illegal"], 0);
    assert_eq!(r1["reasons"]["time"], 0);
    let strip = |recs: &[Value]| -> Vec<(Value, Value, Value)> {
        recs.iter()
            .map(|r| {
                let moves: Vec<Value> = r["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["move"].clone())
                    .collect();
                (
                    r["opening"].clone(),
                    Value::from(moves),
                    r["winner"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(strip(&recs1), strip(&recs2));
    assert_eq!(r1["wins1"], r2["wins1"]);
    // Colour-swapped pairs: games 2k and 2k+1 share the opening, engine 1 first in even games.
    for k in 0..3 {
        assert_eq!(recs1[2 * k]["opening"], recs1[2 * k + 1]["opening"]);
        assert_eq!(recs1[2 * k]["first_engine"], 1);
        assert_eq!(recs1[2 * k + 1]["first_engine"], 2);
        assert_eq!(
            recs1[2 * k]["opening"]["moves"].as_array().unwrap().len(),
            4
        );
    }
    assert_ne!(recs1[0]["opening"], recs1[2]["opening"]);
}

#[test]
fn resume_continues_from_the_records() {
    let rec = tmp("resume.jsonl");
    let _ = std::fs::remove_file(&rec);
    let base = [
        "match",
        "--json",
        "--game",
        "mancala",
        "--engine1",
        "builtin:random",
        "--engine2",
        "builtin:greedy",
        "--openings",
        "random:3",
        "--seed",
        "3",
    ];
    let full = Command::new(BIN)
        .args(base)
        .args(["--games", "6", "--records"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(full.status.success());
    let full_report: Value = serde_json::from_slice(&full.stdout).unwrap();
    let all = std::fs::read_to_string(&rec).unwrap();
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 7, "a header and 6 games");
    // An interrupted match: three games written, the fourth torn mid-line.
    std::fs::write(
        &rec,
        format!(
            "{}\n{}\n{}\n{}\n{{\"game\":3,\"pa",
            lines[0], lines[1], lines[2], lines[3]
        ),
    )
    .unwrap();
    let resumed = Command::new(BIN)
        .args(base)
        .args(["--games", "6", "--resume"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let report: Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(report["games"], 6);
    assert_eq!(report["wins1"], full_report["wins1"]);
    assert_eq!(report["draws"], full_report["draws"]);
    let again = std::fs::read_to_string(&rec).unwrap();
    let strip_ms = |s: &str| -> Vec<(Value, Value)> {
        s.lines()
            .skip(1)
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (
                    v["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m["move"].clone())
                        .collect(),
                    v["reason"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(strip_ms(&again), strip_ms(&all));
    // Resuming with another seed is refused (the openings would differ).
    let wrong = Command::new(BIN)
        .args([
            "match",
            "--game",
            "mancala",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:greedy",
        ])
        .args([
            "--openings",
            "random:3",
            "--seed",
            "4",
            "--games",
            "8",
            "--resume",
        ])
        .arg(&rec)
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let (report, recs) = run_match(
        "sprt.jsonl",
        &[
            "--game",
            "connect4",
            "--engine1",
            "builtin:ninja1",
            "--engine2",
            "builtin:random",
            "--games",
            "400",
            "--openings",
            "random:2",
            "--sprt",
            "elo0=0",
            "elo1=50",
            "alpha=0.05",
            "beta=0.05",
            "--concurrency",
            "2",
        ],
    );
    assert_eq!(report["sprt"]["decision"], "H1", "{report}");
    let g = report["games"].as_u64().unwrap();
    assert!(g < 400, "{report}");
    assert_eq!(recs.len() as u64, g);
    assert!(report["sprt"]["llr"].as_f64().unwrap() >= report["sprt"]["upper"].as_f64().unwrap());
}

#[test]
fn openings_file_is_used_and_checked() {
    let f = tmp("openings.txt");
    // A bad line is a usage error before any game: exit code 2, one line naming the line and
    // why (its state string, or its move the rules refuse).
    let refused = |text: &str| {
        std::fs::write(&f, text).unwrap();
        let out = Command::new(BIN)
            .args([
                "match",
                "--game",
                "connect4",
                "--engine1",
                "builtin:random",
                "--engine2",
                "builtin:random",
                "--openings",
            ])
            .arg(&f)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).trim().to_string()
    };
    assert_eq!(
        refused("# comment\n4 4 3\nfen 1213 moves 5\n"),
        "tablero: error: --openings line 2: invalid state string: fen lacks the side to move ('x' or 'o')"
    );
    assert_eq!(
        refused("4 4 3\n4 9\n"),
        "tablero: error: --openings line 2: move 2 '9' is illegal: column 9 is not in 1..7"
    );
    std::fs::write(&f, "4 4 3\nstartpos moves 1 7\n").unwrap();
    let (report, recs) = run_match(
        "openings.jsonl",
        &[
            "--game",
            "connect4",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:greedy",
            "--games",
            "4",
            "--openings",
            f.to_str().unwrap(),
        ],
    );
    assert_eq!(report["games"], 4);
    assert_eq!(
        recs[0]["opening"]["moves"],
        serde_json::json!(["4", "4", "3"])
    );
    assert_eq!(recs[3]["opening"]["moves"], serde_json::json!(["1", "7"]));
}

#[test]
fn bad_values_are_one_line_errors_with_exit_code_2() {
    for args in [
        vec![
            "match",
            "--engine1",
            "builtin:nobody",
            "--engine2",
            "builtin:random",
        ],
        vec![
            "match",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:random",
            "--tc",
            "fast",
        ],
        vec![
            "match",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:random",
            "--sprt",
            "elo0=5",
            "elo1=1",
        ],
        vec![
            "match",
            "--engine1",
            "/nonexistent/engine",
            "--engine2",
            "builtin:random",
            "--game",
            "connect4",
        ],
        vec!["--player", "grandmaster"],
        vec!["play", "--vs", "nobody"],
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("tablero: error: "), "{args:?}: {err}");
    }
}

/// Command-line syntax errors are clap's whole message: what is wrong (the missing argument by
/// name, a "did you mean" for a misspelt command or flag), the usage line and where to get
/// help; exit code 2.
#[test]
fn usage_errors_are_whole_with_the_usage_line() {
    for (args, wanted) in [
        (
            vec!["match", "--engine1", "builtin:random"],
            vec![
                "required arguments were not provided",
                "--engine2 <ENGINE2>",
            ],
        ),
        (vec!["perft"], vec!["--depth <DEPTH>"]),
        (vec!["serve"], vec!["--listen <LISTEN>"]),
        (
            vec!["mach"],
            vec![
                "unrecognized subcommand 'mach'",
                "similar subcommand exists: 'match'",
            ],
        ),
        (
            vec!["--palyer", "x"],
            vec![
                "unexpected argument '--palyer'",
                "similar argument exists: '--player'",
            ],
        ),
        (
            vec![
                "match",
                "--engine1",
                "builtin:random",
                "--engine2",
                "builtin:random",
                "--games",
                "x",
            ],
            vec!["invalid value 'x' for '--games <GAMES>'"],
        ),
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        for w in wanted {
            assert!(err.contains(w), "{args:?}: no '{w}' in\n{err}");
        }
        assert!(err.contains("try '--help'"), "{args:?}: {err}");
        if args[0] != "match" || args.len() < 4 {
            assert!(err.contains("Usage: tablero"), "{args:?}: {err}");
        }
    }
}

#[test]
fn scripts_compare_and_analyse() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("scripts/compare.sh"))
        .args(["builtin:greedy", "builtin:random", "mancala", "4"])
        .env("TABLERO", BIN)
        .env("EXTRA", "--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(v["variant"], "mancala");
    let usage = Command::new("bash")
        .arg(root.join("scripts/compare.sh"))
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));

    let f = tmp("positions.txt");
    std::fs::write(
        &f,
        "# two positions and a bad one\n4 4\n\n4 4 4 4 4 4 4\n1 2 1 2 1 2\n",
    )
    .unwrap();
    let out = Command::new("bash")
        .arg(root.join("scripts/analyse.sh"))
        .args(["connect4", f.to_str().unwrap()])
        .env("TABLERO", BIN)
        .env("DEPTH", "5")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("4 4\tbestmove "), "{text}");
    assert!(lines[0].ends_with("\tdepth 5"), "{text}");
    assert!(lines[1].starts_with("4 4 4 4 4 4 4\terror: "), "{text}");
    // x to move with three in column 1: the win is found at once.
    assert_eq!(
        lines[2], "1 2 1 2 1 2\tbestmove 1\tscore mate 1\tdepth 1",
        "{text}"
    );
}
