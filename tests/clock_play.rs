//! Clock play end to end: the real engine on short clocks answers every `go wtime …` within its
//! budget and never loses on time, a forced move is answered from one ply, and the referee's
//! per-engine limits (`--limits1/--limits2`) give each engine its own `go` line, and the
//! `Move Overhead` option is listed and range-checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use common::{BIN, tmp};

/// Sends `setup` then `go_line` to a fresh engine of `game`; returns the `info`/`bestmove`
/// lines of that search and how long the `bestmove` took from the `go`.
fn search(game: &str, setup: &[&str], go_line: &str) -> (Vec<String>, Duration) {
    let mut child = Command::new(BIN)
        .args(["--game", game])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for l in setup.iter().chain(&["isready"]) {
        writeln!(stdin, "{l}").unwrap();
    }
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "engine exited");
        if line.trim() == "readyok" {
            break;
        }
    }
    let t0 = Instant::now();
    writeln!(stdin, "{go_line}").unwrap();
    let mut lines = Vec::new();
    let took = loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "engine exited");
        lines.push(line.trim().to_string());
        if line.starts_with("bestmove") {
            break t0.elapsed();
        }
    };
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    (lines, took)
}

#[test]
fn a_clock_move_stays_within_its_budget() {
    // 2 s left, no increment, Parchís (a long game): the budget is a small share of the clock,
    // so the answer must come well before the clock could fall (generous: half the clock).
    let (lines, took) = search(
        "parchis",
        &["position startpos"],
        "go wtime 2000 btime 2000",
    );
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    assert!(
        took < Duration::from_millis(1000),
        "{took:?} of a 2 s clock"
    );
    // Almost no time left: still a legal move (from the first, cheap iteration), not a flag.
    let (lines, took) = search("connect4", &["position startpos"], "go wtime 15 btime 15");
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove (none)",
        "{lines:?}"
    );
    assert!(
        took < Duration::from_millis(500),
        "{took:?} of a 15 ms clock"
    );
}

#[test]
fn a_forced_move_on_a_clock_is_answered_from_one_ply() {
    // Connect Four with one column open (two cells): one legal move, then the opponent's.
    let fen = "position fen xoxoxo1/xoxoxo1/oxoxoxo/oxoxoxo/xoxoxox/xoxoxox x";
    let setup = ["setoption name Solver value off", fen];
    let (lines, _) = search("connect4", &setup, "go wtime 60000 btime 60000");
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(depths.len(), 1, "{lines:?}");
    assert!(depths[0].starts_with("info depth 1 "), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove 7");
    // Without a clock the same position is searched as deep as asked (to the end: 2 plies).
    let (lines, _) = search("connect4", &setup, "go depth 4");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
}

/// Runs `tablero match --json` with `args` and returns the report.
fn run_match(args: &[&str]) -> Value {
    let out = Command::new(BIN)
        .args(["match", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "match failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object on stdout")
}

#[test]
fn short_clock_games_end_without_time_losses() {
    // Four Connect Four games at 0.5 s + 10 ms a side; the referee tolerates its default
    // 200 ms of lateness, far more than the engine's latency even on a loaded machine.
    let report = run_match(&[
        "--game",
        "connect4",
        "--engine1",
        BIN,
        "--engine2",
        BIN,
        "--games",
        "4",
        "--tc",
        "0.5+0.01",
        "--openings",
        "random:4",
    ]);
    assert_eq!(report["games"], 4, "{report}");
    let reasons = &report["reasons"];
    assert!(reasons.get("time").is_none_or(|t| t == 0), "{report}");
    assert!(reasons.get("crash").is_none_or(|t| t == 0), "{report}");
    assert!(reasons.get("illegal").is_none_or(|t| t == 0), "{report}");
}

#[test]
fn each_engine_gets_its_own_limits() {
    let logs = tmp("own-limits");
    let _ = std::fs::remove_dir_all(&logs);
    std::fs::create_dir_all(&logs).unwrap();
    let report = run_match(&[
        "--game",
        "mancala",
        "--engine1",
        BIN,
        "--engine2",
        BIN,
        "--name1",
        "clock",
        "--name2",
        "deep",
        "--games",
        "2",
        "--depth",
        "3",
        "--limits1",
        "tc=2+0.05",
        "--limits2",
        "depth=2",
        "--log",
        logs.to_str().unwrap(),
    ]);
    assert_eq!(report["games"], 2, "{report}");
    // Game 0: engine 1 moves first ("w"); only its clock exists.
    let clock = std::fs::read_to_string(logs.join("game00000-e1-clock.log")).unwrap();
    assert!(clock.contains("> go wtime 2000 winc 50\n"), "{clock}");
    // The clock side never gets the match's `--depth 3` (its own `info depth …` lines, e.g. an
    // endgame solved from a cached Kalah database, are not what is checked).
    assert!(!clock.contains("> go depth"), "{clock}");
    let deep = std::fs::read_to_string(logs.join("game00000-e2-deep.log")).unwrap();
    assert!(deep.contains("> go depth 2\n"), "{deep}");
    assert!(!deep.contains("wtime"), "{deep}");
    // Game 1: colours swapped, the clock is "b".
    let clock = std::fs::read_to_string(logs.join("game00001-e1-clock.log")).unwrap();
    assert!(clock.contains("> go btime 2000 binc 50\n"), "{clock}");
    // A bad spec is one clear line.
    let out = Command::new(BIN)
        .args([
            "match",
            "--game",
            "connect4",
            "--engine1",
            BIN,
            "--engine2",
            BIN,
            "--limits2",
            "depht=8",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--limits2") && err.contains("unknown key 'depht'"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn moves_left_fits_each_game() {
    use tablero::core::game::Game;
    use tablero::games::{boom::Boom, connect4::Connect4, mancala::Mancala, parchis::Parchis};
    let c4 = Connect4::start(&Default::default());
    assert_eq!(c4.moves_left(), 21);
    let mut ms = Default::default();
    c4.legal_moves(&mut ms);
    assert_eq!(
        c4.apply(ms[3]).moves_left(),
        21,
        "41 empty cells: 21 for the second player"
    );
    assert_eq!(Boom::start(&Default::default()).moves_left(), 25);
    assert_eq!(Mancala::start(&Default::default()).moves_left(), 16);
    assert_eq!(Parchis::start(&Default::default()).moves_left(), 49);
    // Shorter games as they progress: a nearly full board, a late Kalah position.
    let late = Connect4::parse_fen(
        "xoxoxo1/xoxoxo1/oxoxoxo/oxoxoxo/xoxoxox/xoxoxox x",
        &Default::default(),
    )
    .unwrap();
    assert_eq!(late.moves_left(), 1);
}

#[test]
fn move_overhead_is_an_option_with_checked_values() {
    let mut child = Command::new(BIN)
        .args(["--game", "connect4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "uci\nsetoption name Move Overhead value 5001\nsetoption name move overhead value -1\n\
                  setoption name Move Overhead value soon\nsetoption name Move Overhead\n\
                  setoption name Move Overhead value 300\nsetoption name UCI_Variant value mancala\n\
                  isready\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let out: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert!(
        out.iter()
            .any(|l| l == "option name Move Overhead type spin default 10 min 0 max 5000"),
        "{out:#?}"
    );
    let errors: Vec<&String> = out.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(
        errors,
        [
            "info string error: setoption Move Overhead: value 5001 is outside 0..=5000",
            "info string error: setoption Move Overhead: value -1 is outside 0..=5000",
            "info string error: setoption Move Overhead: value 'soon' is not an integer",
            "info string error: setoption Move Overhead: missing 'value <...>'",
        ],
        "{out:#?}"
    );
    assert_eq!(out.last().unwrap(), "readyok");
    // With 300 ms kept off a 1 s clock the engine still answers with a legal move.
    let (lines, _) = search(
        "mancala",
        &[
            "setoption name Move Overhead value 300",
            "position startpos",
        ],
        "go wtime 1000 btime 1000",
    );
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove (none)",
        "{lines:?}"
    );
}
