//! The course's Mancala bots inside tablero (`mancala-bot:` engines) and tablero inside the
//! course's referee (`tablero mancala-bot`), checked against two games recorded from the
//! course's own referee, `MancalaNoGUI.jar` (tests/mancala_bot_session/, see its README), and
//! against our mock bot (tests/mancala_bot_mock.py):
//!
//! - replaying both seats of each recorded game through tablero's referee reproduces the jar's
//!   game move for move, with the jar's result, while every line the adapter sends a bot is
//!   the line the jar sent (the mock checks); tablero's rules agree with every board the jar
//!   printed;
//! - `tablero mancala-bot` answers every request of the recorded sessions: the handshake as
//!   recorded, each move as tablero's own search does on the board the jar sent;
//! - bots that crash, leave, hang, flood their output, print junk or play illegal moves lose
//!   their own games, each with its reason, and the tournament goes on; no bot process outlives it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use tablero::core::Game;
use tablero::games::mancala::{Mancala, MancalaConfig};

use crate::common;
use common::{BIN, tmp};

/// The depth `tablero mancala-bot` played the recorded sessions at.
const RECORDED_DEPTH: &str = "10";
const SESSIONS: [&str; 2] = ["tablero-vs-velabot", "velabot-vs-tablero"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn session(name: &str) -> PathBuf {
    root().join("tests/mancala_bot_session").join(name)
}

/// A `mancala-bot:` spec running our mock with `args`.
fn mock(args: &str) -> String {
    format!(
        "mancala-bot:python3 {} {args}",
        root().join("tests/mancala_bot_mock.py").display()
    )
}

/// What the jar printed about its game: the moves (mover 0/1, pit), the board after each
/// (`[player][store, pits 1..6]`) and the final points.
struct JarGame {
    moves: Vec<(usize, String)>,
    boards: Vec<[[u32; 7]; 2]>,
    points: [u32; 2],
}

fn parse_jar(text: &str) -> JarGame {
    let mut g = JarGame {
        moves: Vec::new(),
        boards: Vec::new(),
        points: [0, 0],
    };
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if let Some(rest) = l.strip_prefix("[Simulador]: El jugador ") {
            let w: Vec<&str> = rest.split_whitespace().collect();
            let player: usize = w[0].parse().unwrap();
            let pit = w[4].trim_end_matches('.').to_string();
            g.moves.push((player - 1, pit));
            assert_eq!(
                lines.next(),
                Some("[Simulador]: Estado actual del tablero:")
            );
            let mut board = [[0u32; 7]; 2];
            for row in &mut board {
                let l = lines.next().unwrap();
                for (k, f) in l.split_whitespace().skip(1).enumerate() {
                    row[k] = f.split('=').nth(1).unwrap().parse().unwrap();
                }
            }
            g.boards.push(board);
        }
        if let Some(rest) = l.strip_prefix("Puntos del jugador ") {
            let p: usize = rest[..1].parse().unwrap();
            g.points[p - 1] = rest.rsplit(' ').next().unwrap().parse().unwrap();
        }
    }
    assert!(!g.moves.is_empty() && g.points[0] + g.points[1] == 48);
    g
}

/// The board as the course's `GameState` holds it.
fn board_of(s: &Mancala) -> [[u32; 7]; 2] {
    let mut b = [[0u32; 7]; 2];
    for (p, side) in [tablero::core::Side::First, tablero::core::Side::Second]
        .into_iter()
        .enumerate()
    {
        b[p][0] = u32::from(s.store(side));
        for (k, cell) in b[p].iter_mut().enumerate().skip(1) {
            *cell = u32::from(s.seeds_at(side, k));
        }
    }
    b
}

#[test]
fn tablero_rules_agree_with_every_board_the_jar_printed() {
    for name in SESSIONS {
        let jar = parse_jar(&std::fs::read_to_string(session(name).join("jar.txt")).unwrap());
        let mut s = Mancala::start(&MancalaConfig::default());
        for (i, ((player, pit), board)) in jar.moves.iter().zip(&jar.boards).enumerate() {
            assert_eq!(s.side_to_move().index(), *player, "{name}: ply {i}");
            s = s.apply(s.parse_move(pit).unwrap());
            assert_eq!(&board_of(&s), board, "{name}: board after ply {i} ({pit})");
        }
        assert!(s.outcome().is_some(), "{name}: the jar's game is over");
        assert_eq!(
            [
                u32::from(s.store(tablero::core::Side::First)),
                u32::from(s.store(tablero::core::Side::Second))
            ],
            jar.points,
            "{name}"
        );
    }
}

/// Runs `tablero match --json --records R` with `args`; the records and the engine logs.
fn run_match(tag: &str, args: &[&str]) -> (Vec<Value>, String) {
    let rec = tmp(&format!("{tag}.jsonl"));
    let logs = tmp(&format!("{tag}-logs"));
    let _ = std::fs::remove_file(&rec);
    let _ = std::fs::remove_dir_all(&logs);
    std::fs::create_dir_all(&logs).unwrap();
    let out = Command::new(BIN)
        .args(["--game", "mancala", "match", "--json", "--records"])
        .arg(&rec)
        .arg("--log")
        .arg(&logs)
        .args(args)
        .output()
        .unwrap();
    let mut log_text = String::new();
    let mut files: Vec<_> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        log_text += &format!("--- {}\n", f.display());
        log_text += &std::fs::read_to_string(f).unwrap();
    }
    assert!(
        out.status.success(),
        "match failed: {}\n{log_text}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The game lines (the records' header line skipped).
    let records = std::fs::read_to_string(&rec)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] != "match")
        .collect();
    (records, log_text)
}

#[test]
fn the_recorded_jar_games_replay_through_the_referee() {
    for name in SESSIONS {
        let dir = session(name);
        let jar = parse_jar(&std::fs::read_to_string(dir.join("jar.txt")).unwrap());
        let e1 = mock(&format!("replay {}", dir.join("j1.txt").display()));
        let e2 = mock(&format!("replay {}", dir.join("j2.txt").display()));
        // The jar ran with -t 2: a TIMEOUT of 2000 ms, which `go movetime 2000` gives.
        let (records, logs) = run_match(
            name,
            &[
                "--engine1",
                &e1,
                "--engine2",
                &e2,
                "--games",
                "1",
                "--movetime",
                "2000",
                "--margin",
                "500",
            ],
        );
        assert_eq!(records.len(), 1, "{name}");
        let r = &records[0];
        assert_eq!(r["reason"], "normal", "{name}: {r}\n{logs}");
        let moves: Vec<&str> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        let want: Vec<&str> = jar.moves.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(moves, want, "{name}\n{logs}");
        let result = match jar.points[0].cmp(&jar.points[1]) {
            std::cmp::Ordering::Greater => "1-0",
            std::cmp::Ordering::Less => "0-1",
            std::cmp::Ordering::Equal => "1/2-1/2",
        };
        assert_eq!(r["result"], result, "{name}");
        // The names are the bots' answers to GETNAME.
        assert!(logs.contains("id name VelaBot") && logs.contains("id name tablero"));
    }
}

/// The recorded processes of one seat: per process, the requests (the lines the jar sent
/// before each answer) and the recorded answer.
fn transcript(path: &Path) -> Vec<Vec<(Vec<String>, String)>> {
    let mut procs: Vec<Vec<(Vec<String>, String)>> = Vec::new();
    let mut req = Vec::new();
    for l in std::fs::read_to_string(path).unwrap().lines() {
        if l.starts_with("== process") {
            procs.push(Vec::new());
        } else if let Some(x) = l.strip_prefix("> ") {
            req.push(x.to_string());
        } else if let Some(x) = l.strip_prefix("< ") {
            procs
                .last_mut()
                .unwrap()
                .push((std::mem::take(&mut req), x.to_string()));
        }
    }
    procs
}

/// tablero's own protocol: the best move at `depth` for the state string `fen`.
struct Engine {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(BIN)
            .args(["--game", "mancala"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        Engine { child, out }
    }

    fn best(&mut self, fen: &str, depth: &str) -> String {
        let w = self.child.stdin.as_mut().unwrap();
        writeln!(w, "ucinewgame\nposition fen {fen}\ngo depth {depth}").unwrap();
        w.flush().unwrap();
        let mut l = String::new();
        loop {
            l.clear();
            assert!(self.out.read_line(&mut l).unwrap() > 0, "engine ended");
            if let Some(m) = l.strip_prefix("bestmove ") {
                return m.trim().to_string();
            }
        }
    }
}

/// tablero's state string of a `GETMOVE` board (`turn`, then store and pits 1..6 of J1 and
/// J2), written out here independently of the crate's conversion.
fn fen_of(words: &[u32]) -> String {
    let half = |r: &[u32]| {
        let pits: Vec<String> = (1..=6).rev().map(|k| r[k].to_string()).collect();
        format!("{}:{}", pits.join(","), r[0])
    };
    format!(
        "{}/{} {}",
        half(&words[1..8]),
        half(&words[8..15]),
        if words[0] == 0 { "S" } else { "N" }
    )
}

#[test]
fn tablero_as_a_bot_answers_the_recorded_jar() {
    let mut engine = Engine::start();
    let mut moves = 0;
    for (name, seat) in [
        ("tablero-vs-velabot", "j1.txt"),
        ("velabot-vs-tablero", "j2.txt"),
    ] {
        for (pi, process) in transcript(&session(name).join(seat))
            .into_iter()
            .enumerate()
        {
            let mut bot = Command::new(BIN)
                .args(["mancala-bot", "--depth", RECORDED_DEPTH])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut out = BufReader::new(bot.stdout.take().unwrap());
            for (request, recorded) in &process {
                let w = bot.stdin.as_mut().unwrap();
                for l in request {
                    writeln!(w, "{l}").unwrap();
                }
                w.flush().unwrap();
                let mut reply = String::new();
                out.read_line(&mut reply).unwrap();
                let reply = reply.trim_end();
                let what = format!("{name} {seat} process {pi}: {request:?}");
                if request[0] == "GETMOVE" {
                    let nums: Vec<u32> = request[1]
                        .split_whitespace()
                        .map(|x| x.parse().unwrap())
                        .collect();
                    let board = &nums[1 + nums[0] as usize..];
                    assert_eq!(board.len(), 15, "{what}");
                    assert_eq!(reply, engine.best(&fen_of(board), RECORDED_DEPTH), "{what}");
                    moves += 1;
                } else {
                    assert_eq!(reply, recorded, "{what}");
                }
            }
            let status = bot.wait().unwrap();
            assert!(status.success(), "{name} {seat} process {pi}: {status}");
        }
    }
    assert!(moves >= 20, "{moves} moves checked");
    let _ = engine.child.kill();
}

/// Is a process whose command line contains `marker` still running?
fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().any(|e| {
        let p = e.unwrap().path().join("cmdline");
        std::fs::read(p)
            .map(|c| {
                String::from_utf8_lossy(&c)
                    .replace('\0', " ")
                    .contains(marker)
            })
            .unwrap_or(false)
    })
}

#[test]
fn misbehaving_bots_lose_their_own_games_and_the_tournament_goes_on() {
    let marker = format!("hang-{}", std::process::id());
    // NAME, mock arguments, reason of each of its games (None: played out), text in the detail.
    let cases: Vec<(&str, String, Option<&str>, &str)> = vec![
        ("ok", "play".into(), None, ""),
        ("noisy", "play --fault stderr --at 2".into(), None, ""),
        (
            "crash",
            "play --fault crash --at 2".into(),
            Some("crash"),
            "",
        ),
        // Exits after a move, in the middle of its game.
        (
            "leave",
            "play --fault leave --at 2".into(),
            Some("crash"),
            "",
        ),
        // Floods its output after a move: the next GETMOVE reads the first line (junk), or the
        // flood is over the limit first and the process is given up.
        (
            "flood",
            "play --fault flood --at 2".into(),
            Some("illegal|crash"),
            "spam",
        ),
        (
            "hang",
            format!("play --name {marker} --fault hang --at 2"),
            Some("time"),
            "no bestmove",
        ),
        (
            "junk",
            "play --fault junk --at 2".into(),
            Some("illegal"),
            "banana",
        ),
        (
            "spaced",
            "play --fault spaced --at 2".into(),
            Some("illegal"),
            "␣",
        ),
        (
            "empty",
            "play --fault empty --at 2".into(),
            Some("illegal"),
            "is empty",
        ),
        (
            "range",
            "play --fault range --at 2".into(),
            Some("illegal"),
            "out of range",
        ),
        (
            "chatty",
            "play --fault chatty --at 2".into(),
            Some("illegal"),
            "hello",
        ),
        // The jar refuses to start such a bot; here it cannot finish the handshake.
        (
            "badping",
            "play --fault badping".into(),
            Some("crash"),
            "uciok",
        ),
        (
            "badsetplayer",
            "play --fault badsetplayer".into(),
            Some("illegal"),
            "SETPLAYER:NO",
        ),
    ];
    let rec = tmp("faults.jsonl");
    let _ = std::fs::remove_file(&rec);
    let mut cmd = Command::new(BIN);
    cmd.args([
        "--game",
        "mancala",
        "tournament",
        "--format",
        "gauntlet",
        "--movetime",
        "300",
        "--margin",
        "300",
        "--concurrency",
        "2",
        "--json",
        "--engine",
        "greedy=builtin:greedy",
        "--engine",
        "missing=mancala-bot:/nonexistent/bot",
    ]);
    cmd.arg("--records").arg(&rec);
    for (name, args, _, _) in &cases {
        cmd.arg("--engine").arg(format!("{name}={}", mock(args)));
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records: Vec<Value> = std::fs::read_to_string(&rec)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v.get("result").is_some())
        .collect();
    assert_eq!(records.len(), 2 * (cases.len() + 1));
    let games_of = |name: &str| -> Vec<&Value> {
        records
            .iter()
            .filter(|r| r["first"] == name || r["second"] == name)
            .collect()
    };
    let lost_by = |r: &Value, name: &str| {
        let (first, second) = (r["first"] == name, r["second"] == name);
        (first && r["result"] == "0-1") || (second && r["result"] == "1-0")
    };
    let missing = games_of("missing");
    assert_eq!(missing.len(), 2);
    for r in missing {
        assert_eq!(r["reason"], "crash", "{r}");
        assert!(lost_by(r, "missing"), "{r}");
        assert!(
            r["detail"].as_str().unwrap().contains("cannot start"),
            "{r}"
        );
    }
    for (name, _, reason, detail) in &cases {
        let games = games_of(name);
        assert_eq!(games.len(), 2, "{name}");
        for r in games {
            match reason {
                None => {
                    assert_eq!(r["reason"], "normal", "{name}: {r}");
                    assert!(r["moves"].as_array().unwrap().len() > 4, "{name}: {r}");
                }
                Some(reasons) => {
                    let got = r["reason"].as_str().unwrap();
                    assert!(reasons.split('|').any(|x| x == got), "{name}: {r}");
                    assert!(lost_by(r, name), "{name}: {r}");
                    // A crash's detail is the referee's own.
                    assert!(
                        (got == "crash" && reasons.contains('|'))
                            || r["detail"].as_str().unwrap().contains(detail),
                        "{name}: {r}"
                    );
                }
            }
        }
    }
    // The hung bots were killed with their games.
    assert!(!running(&marker), "a hung bot outlived the tournament");
}

#[test]
fn the_adapter_subcommand_speaks_tablero_protocol() {
    let mut child = Command::new(BIN)
        .arg("mancala-bot-adapter")
        .arg("python3")
        .arg(root().join("tests/mancala_bot_mock.py"))
        .args(["play", "--name", "solo"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"uci\n\
              setoption name UCI_Variant value connect4\n\
              ucinewgame\n\
              isready\n\
              position startpos moves 1 2\n\
              go movetime 1000\n\
              position fen 0,0,0,0,0,0:24/4,4,4,4,4,4:0 N\n\
              go\n\
              position fen 1,1,1,1,1,1:0/1,1,1,1,1,1:0 S\n\
              go\n\
              position startpos moves 9\n\
              foo\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want = "id name solo
id author a course Mancala bot, through tablero's mancala-bot adapter
option name UCI_Variant type combo default mancala var mancala
uciok
info string error: setoption UCI_Variant: a course bot plays mancala only, not 'connect4'
readyok
bestmove 2
bestmove (none)
info string error: mancala-bot: a course bot plays Kalah(6,4) positions only (6 pits a side, 48 seeds), not 1,1,1,1,1,1:0/1,1,1,1,1,1:0 S
bestmove (none)
info string error: position: move 1 '9' is illegal: pit 9 is out of range 1..=6; no position until a legal 'position' or 'ucinewgame'
info string error: unknown command 'foo' (a course bot takes uci, isready, setoption, ucinewgame, position, go, stop, quit)
";
    assert_eq!(text, want);
}

#[test]
fn tablero_as_a_bot_refuses_bad_input_in_one_line() {
    for (input, args, err) in [
        (
            "GETMOVE 0 0 0 4 4 4 4 4 4 0 4 4 4 4 4 5\n",
            vec![],
            "GETMOVE: the board holds 49 seeds; the course's game has 48",
        ),
        ("SETPLAYER 2\n", vec![], "SETPLAYER 2: the player is 0 or 1"),
        (
            "GETMOVE 0 0 0 4\n",
            vec![],
            "input ended inside a GETMOVE board",
        ),
        ("", vec!["--heuristic", "best"], "--heuristic 'best'"),
        ("", vec!["--player", "god"], "--player"),
        ("", vec!["--name", "two words"], "--name"),
    ] {
        let mut child = Command::new(BIN)
            .arg("mancala-bot")
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{input:?} {args:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(err), "{input:?} {args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}
