//! Built-in players, `serve` over loopback and `play` with piped stdin, through the binary.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn session(args: &[&str], input: &str) -> Vec<String> {
    let mut c = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = c.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn players_answer_the_protocol_and_ignore_strength_changes() {
    let script = "uci\nsetoption name UCI_Variant value connect4\nsetoption name Heuristic value seed\nposition startpos moves 4 4\ngo movetime 5000\nisready\nmoves\n";
    let out = session(&["--player", "ninja1"], script);
    assert!(out.iter().any(|l| l == "uciok"));
    assert!(out.iter().any(|l| l == "readyok"));
    assert!(out.iter().any(|l| l.contains("Heuristic is fixed")));
    // ninja1 = depth 3: the last info line is depth 3 whatever the go limits said.
    let last_info = out.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.starts_with("info depth 3 "), "{last_info}");
    assert!(out.iter().any(|l| l.starts_with("bestmove ")));
    assert!(out.iter().any(|l| l.starts_with("moves 1 2 3 4 5 6 7")));
}

/// `solver` plays perfectly where a solver exists (its `Solver exact` cannot be changed) and
/// as `ninja3` elsewhere.
#[test]
fn solver_player_plays_proven_moves() {
    let golden = common::golden("connect4/Test_L2_R1");
    for line in golden.lines().step_by(97).take(4) {
        let (moves, score) = line.split_once(' ').unwrap();
        let score: i32 = score.parse().unwrap();
        let spaced: Vec<String> = moves.chars().map(String::from).collect();
        let spaced = spaced.join(" ");
        let script = format!(
            "setoption name Solver value off\nposition startpos moves {spaced}\ngo depth 2\n"
        );
        let out = session(&["--player", "solver", "--game", "connect4"], &script);
        assert!(out.iter().any(|l| l.contains("Solver is fixed")), "{out:?}");
        let info = out
            .iter()
            .find(|l| l.contains("exact solver"))
            .unwrap_or_else(|| panic!("{line}: {out:?}"));
        assert!(
            info.ends_with(&format!("Pons value {score}")),
            "{line}: {info}"
        );
        // The move played keeps the value: the opponent's value after it is the negation.
        let best = out
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap()
            .to_string();
        let after = session(
            &["--game", "connect4"],
            &format!("position startpos moves {spaced} {best}\nsolve\n"),
        );
        let solved = after.iter().find(|l| l.starts_with("solved ")).unwrap();
        let v: Vec<&str> = solved.split_whitespace().collect();
        let i = v.iter().position(|w| *w == "score").unwrap();
        assert_eq!(v[i + 1].parse::<i32>().unwrap(), -score, "{line}: {best}");
    }
    // BOOM has no solver: ninja3's depth-9 search (whatever depth `go` asks for; a time limit
    // would be kept).
    let out = session(
        &["--player", "solver", "--game", "connect4boom"],
        "position startpos\ngo depth 1\n",
    );
    let last_info = out.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.starts_with("info depth 9 "), "{last_info}");
}

#[test]
fn random_is_seeded_and_legal() {
    let pick = |seed: u64| -> Vec<String> {
        let mut script = format!("setoption name Seed value {seed}\n");
        for moves in ["", "1", "1 2", "3 3 3", "7 7 7 7 7 7"] {
            script += &format!("position startpos moves {moves}\ngo depth 9\n");
        }
        let out = session(&["--player", "random", "--game", "connect4"], &script);
        out.into_iter()
            .filter(|l| l.starts_with("bestmove"))
            .collect()
    };
    let a = pick(1);
    assert_eq!(a.len(), 5);
    assert_eq!(a, pick(1), "same seed, same moves");
    assert!(
        (2..40).any(|s| pick(s) != a),
        "another seed changes some move"
    );
    // Column 7 is full in the last position: never chosen.
    assert_ne!(a[4], "bestmove 7");
    // Replies stay in command order although `random` answers `go` itself.
    let out = session(
        &["--player", "random", "--game", "connect4"],
        "position startpos moves 7 7 7 7 7 7\nmoves\ngo\nisready\nmoves\ngo\n",
    );
    assert_eq!(out.len(), 7, "{out:?}");
    assert_eq!(out[0], "moves 1 2 3 4 5 6");
    assert!(
        out[1].starts_with("info depth 0 string random move "),
        "{out:?}"
    );
    assert!(out[2].starts_with("bestmove "), "{out:?}");
    assert_eq!(out[3], "readyok");
    assert_eq!(out[4], "moves 1 2 3 4 5 6");
}

#[test]
fn serve_over_loopback_plays_a_match_and_a_dropped_connection_is_a_crash() {
    let mut server = Command::new(BIN)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--game",
            "connect4",
            "--player",
            "greedy",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first.trim().strip_prefix("listening ").unwrap().to_string();
    // A raw protocol session.
    let s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    (&s).write_all(
        b"setoption name UCI_Variant value connect4\nposition startpos moves 4\ngo\nquit\n",
    )
    .unwrap();
    let lines: Vec<String> = BufReader::new(&s).lines().map_while(Result::ok).collect();
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    // A match against the served engine.
    let out = Command::new(BIN)
        .args([
            "match",
            "--json",
            "--game",
            "connect4",
            "--engine2",
            "builtin:random",
            "--games",
            "2",
        ])
        .arg("--engine1")
        .arg(format!("tcp:{addr}"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["reasons"]["normal"], 2, "{v}");
    // A peer that hangs up mid-game: a crash.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let flaky = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for c in l.incoming() {
            let Ok(c) = c else { continue };
            let mut w = c.try_clone().unwrap();
            for line in BufReader::new(c).lines() {
                let line = line.unwrap_or_default();
                let reply = match line.as_str() {
                    "uci" => "uciok\n",
                    "isready" => "readyok\n",
                    l if l.starts_with("go") => break,
                    _ => "",
                };
                let _ = w.write_all(reply.as_bytes());
            }
            // Dropping both halves closes the connection.
        }
    });
    let out = Command::new(BIN)
        .args([
            "match",
            "--json",
            "--game",
            "connect4",
            "--engine1",
            "builtin:random",
            "--games",
            "2",
        ])
        .arg("--engine2")
        .arg(format!("tcp:{flaky}"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reasons"]["crash"], 2, "{v}");
    assert_eq!(v["wins1"], 2);
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn play_with_piped_stdin() {
    // The human (first) plays column 4 again and again; "9" and "x" are rejected with reasons.
    let mut input = String::from("9\nx\n");
    for _ in 0..30 {
        input += "4\n1\n2\n3\n5\n6\n7\n";
    }
    let out = session(&["play", "--game", "connect4", "--vs", "random"], &input);
    let text = out.join("\n");
    assert!(text.contains("move '9' rejected"), "{text}");
    assert!(text.contains("move 'x' rejected"), "{text}");
    assert!(text.contains("legal moves: 1 2 3 4 5 6 7"), "{text}");
    assert!(text.contains("random thinks:"), "{text}");
    assert!(text.contains("random plays"), "{text}");
    assert!(out.iter().any(|l| l.starts_with("result: ")), "{text}");
    // The final board stays until the user leaves (here: end of input).
    assert!(text.contains("game over: press Enter to leave>"), "{text}");
    assert!(!text.contains('\x1b'), "no colour codes on a pipe");
    // Resigning on end of input.
    let out = session(
        &["play", "--game", "mancala", "--vs", "greedy", "--second"],
        "",
    );
    assert!(
        out.iter().any(|l| l == "result: greedy wins (resignation)"),
        "{out:?}"
    );
}
