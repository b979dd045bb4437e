//! Spawns the `tablero` binary and drives it through stdin/stdout: full sessions per game, every
//! error case of protocol.md (its table of errors run row by row, its `uci` block compared with
//! `uci`), `isready` and `stop` during `go infinite`, end of input.

use crate::common;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

/// Runs a whole script through a pipe (end of input = quit) and returns stdout lines.
fn script(game: &str, input: &str) -> Vec<String> {
    run_with(&["--game", game], input)
}

/// Runs a whole script through `tablero ARGS` and returns stdout lines.
fn run_with(args: &[&str], input: &str) -> Vec<String> {
    String::from_utf8(common::piped(args, &[], input).stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// An interactive engine process.
struct Engine {
    child: Child,
    /// `None` once closed (end of input).
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(game: &str) -> Engine {
        let mut child = Command::new(BIN)
            .args(["--game", game])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn tablero");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes the engine's standard input: end of input.
    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Next line within a generous timeout (a failure, never a hang).
    fn recv(&mut self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("engine did not answer in 30 s")
    }

    fn recv_until(&mut self, prefix: &str) -> Vec<String> {
        let mut v = Vec::new();
        loop {
            let l = self.recv();
            let done = l.starts_with(prefix);
            v.push(l);
            if done {
                return v;
            }
        }
    }

    /// True if no line arrives within `ms`.
    fn silent_for(&mut self, ms: u64) -> bool {
        self.lines.recv_timeout(Duration::from_millis(ms)).is_err()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

#[test]
fn uci_handshake_lists_options_and_ends_with_uciok() {
    let out = script("connect4", "uci\nisready\n");
    assert_eq!(
        out[0],
        format!("id name tablero {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(out[1].starts_with("id author "));
    for opt in [
        "UCI_Variant",
        "Hash",
        "Algorithm",
        "Heuristic",
        "Pits",
        "Seeds",
    ] {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option name {opt} type "))),
            "missing option {opt}: {out:?}"
        );
    }
    assert!(
        out.iter()
            .any(|l| l.contains("var connect4boom") && l.contains("var mancala"))
    );
    assert_eq!(out[out.len() - 2], "uciok");
    assert_eq!(out[out.len() - 1], "readyok");
}

fn check_search_output(out: &[String], expect_best: Option<&str>) {
    let infos: Vec<_> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty(), "no info lines: {out:?}");
    let mut last_depth = 0;
    for l in &infos {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(w[1], "depth");
        // Iterations keep one parity: 1 or 2 first, then steps of 2 (protocol.md, `go`);
        // without a depth limit, 1 then the even depths.
        let d: u32 = w[2].parse().expect("depth number");
        let ok = match last_depth {
            0 => d == 1 || d == 2,
            1 => d == 2 || d == 3,
            p => d == p + 2,
        };
        assert!(ok, "depth {d} after {last_depth}: {l}");
        last_depth = d;
        assert_eq!(w[3], "score");
        assert!(w[4] == "cp" || w[4] == "mate", "{l}");
        w[5].parse::<i64>().expect("score value");
        for key in ["nodes", "nps", "time", "pv"] {
            assert!(w.contains(&key), "{key} missing in {l}");
        }
    }
    let best: Vec<_> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "exactly one bestmove: {out:?}");
    if let Some(b) = expect_best {
        assert_eq!(best[0], &format!("bestmove {b}"));
    }
    // The bestmove is the first move of the last pv.
    let last = infos.last().unwrap();
    let pv_first = last
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(best[0], &format!("bestmove {pv_first}"));
}

#[test]
fn full_connect4_session_from_a_pipe() {
    let out = script(
        "parchis",
        "setoption name UCI_Variant value connect4\nposition startpos moves 4 4 4 4 4\nmoves\ngo depth 6\n",
    );
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(out[0], "moves 1 2 3 4 5 6 7");
    check_search_output(&out[1..], None);
}

#[test]
fn connect4_finds_the_immediate_win_and_reports_mate() {
    let out = script(
        "connect4",
        "position startpos moves 1 7 2 7 3 7\ngo depth 5\n",
    );
    check_search_output(&out, Some("4"));
    let last = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains("score mate 1 "), "{last}");
}

#[test]
fn full_mancala_session_with_extra_turn_and_eval() {
    let out = script(
        "mancala",
        "position startpos moves 4\nd\nmoves\neval\nsetoption name Heuristic value test\neval\ngo depth 7\n",
    );
    assert!(errors(&out).is_empty(), "{out:?}");
    // Pit 4 with 4 seeds ends in the own store: the first player moves again.
    assert!(out.iter().any(|l| l == "side to move: first"), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("fen: ")));
    assert!(out.iter().any(|l| l.starts_with("moves ")));
    assert!(
        out.iter()
            .any(|l| l.starts_with("total (default heuristic"))
    );
    assert!(out.iter().any(|l| l.starts_with("total (test heuristic")));
    check_search_output(&out, None);
}

#[test]
fn full_boom_session() {
    let out = script(
        "connect4boom",
        "position startpos moves 4 3 3\nmoves\nd\ngo depth 6\n",
    );
    assert!(errors(&out).is_empty(), "{out:?}");
    check_search_output(&out, None);
}

#[test]
fn boom_win_probe_reports_what_it_did_and_plays_a_proven_win() {
    // The depth-8 search scores cp 15384 here; the probe proves `1` a win in 14 plies, which a
    // plain depth-13 search after it confirms (the same side moves again: its turn's second
    // movement).
    let won = script(
        "connect4boom",
        "position startpos moves 3 3 5 2 4\ngo depth 8\n",
    );
    assert!(errors(&won).is_empty(), "{won:?}");
    let tail: Vec<&str> = won.iter().rev().take(4).rev().map(String::as_str).collect();
    assert!(
        tail[0].starts_with("info depth 8 score cp 15384 nodes 129956 "),
        "{won:?}"
    );
    assert!(
        tail[1].starts_with("info depth 14 score mate 14 nodes 192203 "),
        "{won:?}"
    );
    assert_eq!(
        tail[2..],
        [
            "info string win probe: a forced win at depth 14, 62247 nodes",
            "bestmove 1"
        ]
    );
    let plain = script(
        "connect4boom",
        "position startpos moves 3 3 5 2 4 1\ngo depth 13\n",
    );
    let last = plain
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains("score mate 13 "), "{last}");
    // No win: the search's own move, and the probe's nodes said once.
    let start = script("connect4boom", "position startpos\ngo depth 8\n");
    let tail: Vec<&str> = start
        .iter()
        .rev()
        .take(3)
        .rev()
        .map(String::as_str)
        .collect();
    assert!(
        tail[0].starts_with("info depth 8 score cp 1801 nodes 834154 "),
        "{start:?}"
    );
    assert_eq!(
        tail[1..],
        [
            "info string win probe: no forced win within depth 16, 449748 nodes",
            "bestmove 4"
        ]
    );
    // Other heuristics and limits never probe.
    for (setup, go) in [
        ("setoption name Heuristic value seed\n", "go depth 8"),
        ("", "go nodes 900000"),
        ("", "go depth 8 searchmoves 4 3"),
    ] {
        let out = script(
            "connect4boom",
            &format!("{setup}position startpos moves 3 3 5 2 4\n{go}\n"),
        );
        assert!(errors(&out).is_empty(), "{out:?}");
        assert!(
            !out.iter().any(|l| l.contains("win probe")),
            "{go}: {out:?}"
        );
    }
}

#[test]
fn perft_prints_divide_and_total() {
    let out = script("connect4", "perft 3\n");
    assert_eq!(out.len(), 8);
    for (i, l) in out[..7].iter().enumerate() {
        assert_eq!(l, &format!("{}: 49", i + 1));
    }
    assert_eq!(out[7], "nodes 343");
}

#[test]
fn every_error_case_gets_one_line_and_the_engine_stays_usable() {
    let long = "x".repeat(100 * 1024);
    let cases: Vec<(String, &str)> = vec![
        (
            "frobnicate".into(),
            "unknown command 'frobnicate' (character 1)",
        ),
        ("go depth x".into(), "got 'x' (character 10)"),
        (
            "go depth 99999999999999999999999".into(),
            "non-negative integer",
        ),
        ("go depth".into(), "needs a number"),
        ("go depth 0".into(), "at least 1"),
        ("go fast".into(), "unknown limit 'fast'"),
        ("isready now".into(), "takes no arguments"),
        ("perft x".into(), "non-negative integer"),
        (
            "position startpos moves 4 4 9".into(),
            "move 3 '9' (character 29) is illegal",
        ),
        ("position fen nonsense".into(), "invalid state string"),
        ("position nowhere".into(), "unknown start 'nowhere'"),
        ("setoption name Foo value 1".into(), "unknown option 'Foo'"),
        ("setoption name Hash value 0".into(), "outside"),
        ("setoption name Hash value lots".into(), "not an integer"),
        (
            "setoption name Algorithm value magic".into(),
            "unknown value 'magic'",
        ),
        (
            "setoption name Heuristic value magic".into(),
            "unknown heuristic 'magic'",
        ),
        (
            "setoption name UCI_Variant value chess".into(),
            "unknown game 'chess'",
        ),
        ("setoption name Pits value 99".into(), "outside"),
        (long, "line too long"),
    ];
    let mut input = String::from("position startpos moves 4 4\n");
    for (line, _) in &cases {
        input.push_str(line);
        input.push('\n');
    }
    // After the refused positions there is no position until a legal one.
    input.push_str("moves\nposition startpos moves 4 4\nmoves\n");
    let out = script("connect4", &input);
    let errs = errors(&out);
    assert_eq!(errs.len(), cases.len() + 1, "{out:?}");
    for (e, (_, want)) in errs.iter().zip(&cases) {
        assert!(e.contains(want), "expected '{want}' in '{e}'");
        assert!(e.len() < 400, "error lines stay short: {e}");
    }
    assert_eq!(
        errs[cases.len()],
        "info string error: no position: the last 'position' was refused (unknown start 'nowhere' \
         for connect4 (use 'startpos' or 'fen <state>')); send a legal 'position' or 'ucinewgame'"
    );
    // The game is still connect4, and a legal position is taken at once.
    assert_eq!(out.last().unwrap(), "moves 1 2 3 4 5 6 7");
}

/// protocol.md, read whole.
fn protocol_md() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md")
}

/// The `code` spans of a markdown table cell, in order.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// Does `line` read as `pattern`, where `<…>` placeholders and `…` stand for any text?
fn matches_example(pattern: &str, line: &str) -> bool {
    let mut pieces = Vec::new();
    let mut rest = pattern;
    loop {
        let next = [rest.find('<'), rest.find('…')].into_iter().flatten().min();
        let Some(at) = next else {
            pieces.push(rest);
            break;
        };
        pieces.push(&rest[..at]);
        rest = if rest[at..].starts_with('…') {
            &rest[at + '…'.len_utf8()..]
        } else {
            match rest[at..].find('>') {
                Some(end) => &rest[at + end + 1..],
                None => "",
            }
        };
    }
    if pieces.len() == 1 {
        return line == pattern;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !line.starts_with(first) || !line.ends_with(last) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut at = first.len();
    let end = line.len() - last.len();
    for piece in &pieces[1..pieces.len() - 1] {
        match line[at..end].find(piece) {
            Some(i) => at += i + piece.len(),
            None => return false,
        }
    }
    true
}

/// Every row of protocol.md's table of errors, run as its example says in a fresh engine:
/// the engine's last error line reads as the row's (the table cannot drift from the engine).
#[test]
fn protocol_md_error_table_is_what_the_engine_says() {
    let page = protocol_md();
    let table = page
        .split("| input | example (`tablero --game connect4`) | error line |\n|---|---|---|\n")
        .nth(1)
        .and_then(|t| t.split("\n\n").next())
        .expect("protocol.md's table of errors");
    let mut ran = 0;
    for row in table.lines() {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 3, "a row of three cells: {row}");
        let (label, example, reply) = (cells[0], cells[1], cells[2]);
        let Some(want) = code_spans(reply).first().copied() else {
            assert!(
                label == "invalid UTF-8",
                "a row without an error line: {row}"
            );
            continue;
        };
        let mut input = String::new();
        if label.starts_with("line longer than") {
            assert!(example.starts_with("a line of 102400 bytes"), "{row}");
            input.push_str(&"x".repeat(102399));
            input.push('\n');
        } else {
            // `line`, then `line` × N, …
            for part in example.split(", then ") {
                let line = code_spans(part)
                    .first()
                    .copied()
                    .unwrap_or_else(|| panic!("an example line in: {row}"));
                let times = match part.split(" × ").nth(1) {
                    Some(n) => n.trim().parse().expect("a count after ×"),
                    None => 1,
                };
                for _ in 0..times {
                    input.push_str(line);
                    input.push('\n');
                }
            }
        }
        input.push_str("stop\n");
        let out = script("connect4", &input);
        let errs = errors(&out);
        let got = errs
            .last()
            .unwrap_or_else(|| panic!("no error for row '{label}': {out:?}"));
        assert!(
            matches_example(want, got),
            "protocol.md's row '{label}' says\n  {want}\nthe engine says\n  {got}"
        );
        ran += 1;
    }
    assert!(ran >= 19, "only {ran} rows ran");
    assert!(matches_example("a <x> b … c", "a 1 b 2 c"));
    assert!(!matches_example("a <x> b", "a 1 c"));
    assert!(!matches_example("a b", "a b c"));
}

/// protocol.md's `uci` block is what `uci` prints, a `…` line standing for one line or more.
#[test]
fn protocol_md_uci_block_is_what_uci_prints() {
    let page = protocol_md();
    let block = page
        .split("### `uci`")
        .nth(1)
        .and_then(|t| t.split("```\n").nth(1))
        .expect("protocol.md's uci block");
    let out = script("parchis", "uci\n");
    let mut at = 0;
    let mut skipping = false;
    for want in block.lines() {
        if want == "…" {
            skipping = true;
            at += 1;
            continue;
        }
        let found = if skipping {
            out[at..].iter().position(|l| l == want).map(|i| at + i)
        } else {
            (out.get(at).map(String::as_str) == Some(want)).then_some(at)
        };
        let Some(i) = found else {
            panic!(
                "protocol.md's uci block has '{want}' where uci prints {:?}",
                out.get(at)
            );
        };
        at = i + 1;
        skipping = false;
    }
    assert_eq!(
        at,
        out.len(),
        "uci prints more than the block: {:?}",
        &out[at..]
    );
}

/// A refused `position` leaves no position: nothing answers for the position before it (a GUI
/// that sent a move the engine refused must not get a move for another position).
#[test]
fn a_refused_position_leaves_no_position_until_a_legal_one() {
    const NONE: &str = "info string error: no position: the last 'position' was refused";
    for refusal in [
        "position startpos moves 4 4 9",
        "position startpos mvoes 4",
        "position fen nonsense",
        "position nowhere",
    ] {
        let input = format!(
            "position startpos moves 4\n{refusal}\ngo depth 2\nmoves\nd\neval\nperft 1\nsolve\n\
             isready\nucinewgame\nmoves\n{refusal}\nposition startpos moves 1\ngo depth 1\n"
        );
        let out = script("connect4", &input);
        let errs = errors(&out);
        assert_eq!(errs.len(), 8, "{refusal}: {out:?}");
        assert!(
            errs[0].ends_with("; no position until a legal 'position' or 'ucinewgame'"),
            "{}",
            errs[0]
        );
        for e in &errs[1..7] {
            assert!(e.starts_with(NONE), "{refusal}: {e}");
            assert!(
                e.ends_with("; send a legal 'position' or 'ucinewgame'"),
                "{e}"
            );
        }
        // Only the last `go` (after a legal position) searched.
        let searched = out.iter().filter(|l| l.starts_with("info depth")).count();
        assert_eq!(searched, 1, "{out:?}");
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        assert!(out.contains(&"readyok".to_string()));
        // `ucinewgame` is the start position; a legal `position` after a refusal is taken.
        assert!(out.contains(&"moves 1 2 3 4 5 6 7".to_string()), "{out:?}");
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    }
    // The built-in players follow the same rule, `random` (which answers `go` itself) too.
    for player in ["random", "ninja1"] {
        let out = run_with(
            &["--game", "connect4", "--player", player],
            "position startpos moves 4 4 9\ngo depth 1\nposition startpos\ngo depth 1\n",
        );
        let errs = errors(&out);
        assert_eq!(errs.len(), 2, "{player}: {out:?}");
        assert!(errs[1].starts_with(NONE), "{player}: {}", errs[1]);
        assert_eq!(
            out.iter().filter(|l| l.starts_with("bestmove")).count(),
            1,
            "{player}: {out:?}"
        );
    }
}

#[test]
fn invalid_utf8_and_binary_junk_do_not_kill_the_engine() {
    let mut child = Command::new(BIN)
        .args(["--game", "connect4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"\xff\xfe\x00junk\n\x01\x02\nisready\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        2
    );
    assert_eq!(text.lines().last(), Some("readyok"));
}

#[test]
fn isready_and_stop_during_go_infinite() {
    let mut e = Engine::start("connect4");
    e.send("position startpos");
    e.send("go infinite");
    assert_eq!(e.recv_until("info depth 1 ").len(), 1);
    e.send("isready");
    let lines = e.recv_until("readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    // No bestmove before stop.
    while !e.silent_for(300) {}
    e.send("stop");
    let lines = e.recv_until("bestmove");
    assert!(lines.last().unwrap().starts_with("bestmove "));
    // A late stop does not leak into the next search.
    e.send("stop");
    e.send("go depth 3");
    let lines = e.recv_until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn go_infinite_on_a_solved_position_still_waits_for_stop() {
    let mut e = Engine::start("connect4");
    e.send("position startpos moves 1 7 2 7 3 7");
    e.send("go infinite");
    e.recv_until("info depth");
    assert!(e.silent_for(500), "bestmove must wait for stop");
    e.send("stop");
    assert_eq!(e.recv_until("bestmove").last().unwrap(), "bestmove 4");
}

#[test]
fn commands_during_a_search_are_refused_or_answered() {
    let mut e = Engine::start("connect4");
    e.send("go infinite");
    e.recv_until("info depth 1 ");
    e.send("go depth 2");
    let l = e.recv_until("info string error");
    assert!(l.last().unwrap().contains("search is running"));
    e.send("setoption name Hash value 8");
    let l = e.recv_until("info string error");
    assert!(l.last().unwrap().contains("search is running"));
    e.send("stop");
    e.recv_until("bestmove");
    e.send("setoption name Hash value 8");
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
}

#[test]
fn commands_after_a_finite_go_wait_for_its_bestmove() {
    let out = script(
        "connect4",
        "go depth 6\nposition startpos moves 1 7 2 7 3 7\nisready\ngo depth 4\nmoves\n",
    );
    assert!(errors(&out).is_empty(), "{out:?}");
    let best: Vec<_> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 2, "{out:?}");
    assert_eq!(best[1], "bestmove 4");
    assert_eq!(out.last().unwrap(), "moves 1 2 3 4 5 6 7");
    assert!(out.iter().any(|l| l == "readyok"));
}

#[test]
fn finished_game_gives_bestmove_none() {
    let out = script(
        "connect4",
        "position startpos moves 1 7 2 7 3 7 4\nmoves\ngo depth 3\n",
    );
    assert_eq!(out[0], "moves");
    assert_eq!(out.last().unwrap(), "bestmove (none)");
}

#[test]
fn same_search_twice_gives_identical_output() {
    let strip = |out: Vec<String>| -> Vec<String> {
        out.into_iter()
            .map(|l| {
                // Drop the timing fields, keep everything else.
                let w: Vec<&str> = l.split_whitespace().collect();
                let mut keep = Vec::new();
                let mut i = 0;
                while i < w.len() {
                    if w[i] == "nps" || w[i] == "time" {
                        i += 2;
                    } else {
                        keep.push(w[i]);
                        i += 1;
                    }
                }
                keep.join(" ")
            })
            .collect()
    };
    for game in ["connect4", "mancala", "connect4boom"] {
        let input = "position startpos\ngo depth 7\nucinewgame\nposition startpos\ngo depth 7\n";
        let out = strip(script(game, input));
        let n = out.len() / 2;
        assert_eq!(out[..n], out[n..], "{game}: {out:?}");
    }
}

#[test]
fn end_of_input_lets_a_finite_search_finish() {
    let out = script("mancala", "go depth 9");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}

#[test]
fn cli_perft_and_bad_cli_input() {
    let out = Command::new(BIN)
        .args([
            "perft", "--game", "connect4", "--depth", "2", "--moves", "4", "4",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().last(), Some("nodes 49"));
    let out = Command::new(BIN)
        .args(["perft", "--game", "chess", "--depth", "2"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown game 'chess'"));
    let out = Command::new(BIN)
        .args([
            "perft", "--game", "connect4", "--depth", "2", "--moves", "9",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("move 1 '9'")
    );
}

/// Waits for the process to exit (a hang guard, not a timing assertion).
fn exits_within(child: &mut Child, secs: u64) -> bool {
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    while std::time::Instant::now() < end {
        if let Ok(Some(status)) = child.try_wait() {
            return status.success();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn stop_ends_perft_with_a_partial_line_and_no_total() {
    let mut e = Engine::start("parchis");
    // Depth 7 from the start takes minutes: only `stop` can end it here.
    e.send("perft 7");
    e.send("isready");
    assert_eq!(e.recv_until("readyok"), ["readyok"]);
    e.send("stop");
    let lines = e.recv_until("info string perft stopped");
    assert!(
        lines.iter().all(|l| !l.starts_with("nodes ")),
        "a stopped perft must not print a total: {lines:?}"
    );
    assert!(
        lines.last().unwrap().contains("root moves counted"),
        "{lines:?}"
    );
    // The engine is idle and usable again.
    e.send("perft 1");
    let lines = e.recv_until("nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 30", "{lines:?}");
    e.send("quit");
    assert!(exits_within(&mut e.child, 30));
}

#[test]
fn quit_ends_a_running_perft_and_solve() {
    for (game, cmd) in [("parchis", "perft 7"), ("connect4", "solve")] {
        let mut e = Engine::start(game);
        e.send(cmd);
        e.send("isready");
        e.recv_until("readyok");
        e.send("quit");
        assert!(exits_within(&mut e.child, 30), "{game} {cmd}: no exit");
    }
}

#[test]
fn a_refused_solve_is_an_error_even_when_quit_follows_at_once() {
    // `quit` raises the job's stop flag before the refusal arrives; a refusal is not a stop.
    let lines = script("parchis", "position startpos\nsolve\nquit\n");
    assert_eq!(
        errors(&lines),
        ["info string error: solve supports connect4, mancala, enraya, not parchis"],
        "{lines:?}"
    );
}

#[test]
fn stop_ends_solve_and_the_engine_stays_usable() {
    let mut e = Engine::start("connect4");
    // The empty board needs tens of seconds: only `stop` ends it here.
    e.send("solve");
    e.recv_until("info string solving connect4");
    e.send("stop");
    let lines = e.recv_until("info string solve stopped");
    assert!(lines.iter().all(|l| !l.starts_with("solved ")), "{lines:?}");
    e.send("position startpos moves 4 4 4 4 4 3 3 3 3 2 2 2 2");
    e.send("solve");
    let lines = e.recv_until("solved ");
    assert!(
        lines.last().unwrap().starts_with("solved score "),
        "{lines:?}"
    );
    e.send("quit");
    assert!(exits_within(&mut e.child, 30));
}

#[test]
fn quit_names_every_command_still_waiting_for_the_search() {
    let mut e = Engine::start("connect4");
    // Depth 40 from the start runs far longer than this test: the next three lines queue.
    e.send("go depth 40");
    e.send("eval");
    e.send("moves");
    e.send("help");
    e.send("quit");
    let mut lines = Vec::new();
    while let Ok(l) = e.lines.recv_timeout(Duration::from_secs(30)) {
        lines.push(l);
    }
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {lines:?}"));
    let after: Vec<&String> = lines[best + 1..].iter().collect();
    assert_eq!(after.len(), 3, "{lines:?}");
    for (l, word) in after.iter().zip(["eval", "moves", "help"]) {
        assert_eq!(
            l.as_str(),
            format!(
                "info string error: quit: '{word}' was not carried out (it was waiting for the search to finish)"
            )
        );
    }
    assert!(exits_within(&mut e.child, 30));
}

#[test]
fn end_of_input_stops_a_go_without_limits() {
    // `go` without limits would search to depth 64; end of input must end it like `go infinite`.
    for game in ["connect4", "parchis", "mancala", "connect4boom"] {
        let mut e = Engine::start(game);
        e.send("position startpos");
        e.send("go");
        e.recv_until("info depth 1 ");
        e.close_input();
        let lines = e.recv_until("bestmove");
        assert!(
            lines.last().unwrap().starts_with("bestmove "),
            "{game}: {lines:?}"
        );
        assert!(
            exits_within(&mut e.child, 30),
            "{game}: no exit after end of input"
        );
    }
}

/// 5-en-Raya's board files (the course simulator's `-file`): `position file` reads one, sets
/// the board size it names and says so; `file` writes the position back in the same format;
/// what cannot be read is one error line and no position until a legal one; other games have
/// no such files.
#[test]
fn enraya_position_files_in_and_out() {
    let dir = std::env::temp_dir().join(format!("tablero-e2e-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("board 7x7.txt");
    std::fs::write(
        &board,
        "7 7 4\n3 2 1 0\n0 0 0 0 0 0 0\n0 1 0 0 0 0 0\n0 0 2 0 0 0 0\n0 0 0 1 0 0 0\n0 0 0 0 0 0 0\n0 0 0 0 0 0 0\n0 0 0 0 0 0 0\n",
    )
    .unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "9 9 5\n2 1 1 4\n0 0 3\n").unwrap();
    let input = format!(
        "position file {} moves 0,0\nd\nfile\ngo depth 2\nposition file {}\nd\nposition file {}\nmoves\n",
        board.display(),
        bad.display(),
        dir.join("missing.txt").display()
    );
    let out = script("enraya", &input);
    let text = out.join("\n");
    assert!(
        out.iter().any(
            |l| l == "info string position file: set Rows 7, Columns 7, InARow 4 from the file"
        ),
        "{text}"
    );
    // The file's position (o to move with 1 placement left, phase 3, turn 0), then 0,0 by o.
    assert!(
        out.iter().any(|l| l == "fen: o6/1x5/2o4/3x3/7/7/7 x 1 4 1"),
        "{text}"
    );
    let i = out.iter().position(|l| l == "7 7 4").expect("file output");
    assert_eq!(out[i + 1], "4 1 1 1");
    assert_eq!(out[i + 2], "2 0 0 0 0 0 0");
    assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{text}");
    let errs = errors(&out);
    assert_eq!(errs.len(), 4, "{text}");
    assert!(
        errs[0].contains("line 3: '3' is not a cell value"),
        "{}",
        errs[0]
    );
    assert!(
        errs[1].starts_with("info string error: no position"),
        "{}",
        errs[1]
    );
    assert!(errs[2].contains("missing.txt"), "{}", errs[2]);
    assert!(
        errs[3].starts_with("info string error: no position"),
        "{}",
        errs[3]
    );
    let out = script(
        "connect4",
        &format!(
            "position file {}\nposition startpos\nfile\n",
            board.display()
        ),
    );
    let errs = errors(&out);
    assert_eq!(errs.len(), 2, "{out:?}");
    assert!(
        errs[0].contains("connect4 has no position files"),
        "{}",
        errs[0]
    );
    assert!(
        errs[1].contains("file: connect4 has no position files"),
        "{}",
        errs[1]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
