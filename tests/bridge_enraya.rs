//! The 5-en-Raya Táctico course bridge (`scripts/bridge/enraya/`) checked without the course
//! code: `build.sh` builds the MOCK checkout in `tests/bridge_enraya_mock/` (our own Tablero.hpp,
//! Agente.hpp, AgenteEstudiante.hpp/.cpp and GUI.hpp with the course's declarations; made-up
//! rules and a mock student whose heuristic id picks a behaviour), so the test covers the scratch
//! copy (the course's include path, the GLUT stub, the student's own headers and whole copies),
//! the protocol front end (options, errors, `position startpos|fen` replayed in the core, the pass
//! answered without asking, illegal cells, the time limit and `stop` reaching `interrumpir()`,
//! crashes), the live cross-check against a tablero process, and AgenteTablero inside a mock of
//! the simulator's loop. The real proof, against the course's core and real students' agents, is
//! in docs/bridge-enraya.md.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn mock_dir() -> PathBuf {
    root().join("tests/bridge_enraya_mock")
}

fn build_script() -> PathBuf {
    root().join("scripts/bridge/enraya/build.sh")
}

fn tmp() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
}

/// Runs build.sh (C++ at -O0: quicker, the same engine) and returns its output.
fn build(args: &[&Path], out: &Path) -> std::process::Output {
    Command::new("bash")
        .arg(build_script())
        .args(args)
        .arg("-o")
        .arg(out)
        .env("CXXFLAGS", "-O0")
        .output()
        .expect("bash runs")
}

/// The engine build.sh makes of the mock checkout (built once), and build.sh's stderr.
fn mock_engine() -> &'static (PathBuf, String) {
    static ENGINE: OnceLock<(PathBuf, String)> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let out = tmp().join("bridge_enraya_mock_engine");
        let res = build(&[&mock_dir()], &out);
        let err = String::from_utf8_lossy(&res.stderr).into_owned();
        assert!(res.status.success(), "build.sh failed:\n{err}");
        (out, err)
    })
}

/// The mock checkout's board options, 2 rows x 3 columns, 3 in a row.
const SMALL: &str =
    "setoption name Rows value 2\nsetoption name Columns value 3\nsetoption name InARow value 3\n";

/// A whole session fed at once (only searches that end by themselves), its stdout lines without
/// the timing lines, and its stderr.
fn session(input: &str) -> (Vec<String>, String) {
    let mut c = Command::new(&mock_engine().0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = c.wait_with_output().unwrap();
    assert!(out.status.success());
    (
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with("info string bridge ") && !l.starts_with("info depth "))
            .map(str::to_string)
            .collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An engine driven line by line, for what happens while a search runs.
struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
}

impl Live {
    fn start(program: &Path, env: &[(&str, &str)]) -> Live {
        let mut child = Command::new(program)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("engine starts");
        let (tx, lines) = channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr) = channel();
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut BufReader::new(err), &mut s);
            let _ = etx.send(s);
        });
        Live {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
        }
    }

    fn send(&mut self, text: &str) {
        let w = self.stdin.as_mut().expect("input open");
        w.write_all(text.as_bytes()).unwrap();
        w.flush().unwrap();
    }

    /// Lines up to and including the first one `pred` accepts; panics after `secs` seconds.
    fn until(&mut self, pred: impl Fn(&str) -> bool, secs: u64) -> Vec<String> {
        let end = Instant::now() + Duration::from_secs(secs);
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = pred(&l);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(e) => panic!(
                    "no awaited line within {secs} s ({e}); got:\n{}",
                    got.join("\n")
                ),
            }
        }
    }

    /// The lines that arrive within `ms` milliseconds.
    fn within(&mut self, ms: u64) -> Vec<String> {
        let end = Instant::now() + Duration::from_millis(ms);
        let mut got = Vec::new();
        while let Ok(l) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            got.push(l);
        }
        got
    }

    /// Waits up to `secs` seconds for the engine to exit by itself, its input still open.
    fn exits_within(&mut self, secs: u64) -> Option<ExitStatus> {
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            if let Some(st) = self.child.try_wait().unwrap() {
                return Some(st);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }

    /// Closes the input and waits for the exit: the status, the remaining lines and stderr.
    fn finish(mut self) -> (ExitStatus, Vec<String>, String) {
        self.stdin.take();
        let status = self.child.wait().unwrap();
        let rest: Vec<String> = self.lines.iter().collect();
        let err = self
            .stderr
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_default();
        (status, rest, err)
    }
}

fn is_best(l: &str) -> bool {
    l.starts_with("bestmove ")
}

#[test]
fn build_script_uses_the_courses_include_path_and_leaves_the_checkout_as_it_was() {
    let err = &mock_engine().1;
    let agent = mock_dir().join("Comportamiento_Agente/AgenteEstudiante.cpp");
    for line in [
        format!("build.sh: the agent is {}", agent.display()),
        format!("build.sh: built {}", mock_engine().0.display()),
    ] {
        assert!(
            err.lines().any(|l| l == line),
            "missing '{line}' in:\n{err}"
        );
    }
    assert!(!err.contains("note:"), "{err}");
    // The checkout is only read: it holds its own files and nothing the build made.
    let mut files = Vec::new();
    let mut stack = vec![mock_dir()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p.strip_prefix(mock_dir()).unwrap().display().to_string());
            }
        }
    }
    files.sort();
    assert_eq!(
        files,
        [
            "Comportamiento_Agente/AgenteEstudiante.cpp",
            "Comportamiento_Agente/AgenteEstudiante.hpp",
            "include/Agente.hpp",
            "include/GUI.hpp",
            "include/Tablero.hpp",
            "liar_tablero.sh",
            "simulator_driver.cpp",
            "src/Tablero.cpp",
        ]
    );
}

#[test]
fn protocol_front_end_with_the_mock_core() {
    let script = format!(
        "uci\nisready\nfoo\nisready now\n\
         setoption name UCI_Variant value chess\nsetoption name Depth value 0\n\
         setoption name Mode value sabio\nsetoption name HeuristicId value -3\nsetoption name Nope value 1\n\
         {SMALL}d\nmoves\ngo searchmoves 0,0\ngo depth x\ngo depth 0\ngo fast\n\
         position startpos moves 0,0 0,1 1,1 0,2 1,0\nd\ngo\n\
         position startpos moves 0,0 0,1 1,1 0,2 1,0 pass\nd\ngo depth 3\n\
         setoption name HeuristicId value 2\ngo movetime 5000\n\
         setoption name HeuristicId value 3\ngo\n\
         setoption name HeuristicId value 1\nsetoption name Mode value aleatorio\ngo\n\
         position startpos moves 0,0 0,1 1,1 0,2 1,0 pass 1,2\nd\nmoves\ngo\n\
         position startpos moves 0,0 0,1 1,1 0,2 1,0 pass 1,2 0,0\ngo\n\
         position startpos moves 0,0 0,1 1,1 1,1\nd\n\
         position startpos moves 0,0 pass\nposition startpos moves 0,0 0,1 x\nposition start\n\
         ucinewgame\nd\nhelp\n"
    );
    let (out, err) = session(&script);
    let expected = [
        "id name course AgenteEstudiante (tablero bridge)",
        "id author the tablero developers (bridge); the agent's authors (AgenteEstudiante)",
        "option name UCI_Variant type combo default enraya var enraya",
        "option name Mode type combo default inteligente var aleatorio var minimax var inteligente var status",
        "option name HeuristicId type spin default 1 min 0 max 1000000",
        "option name Depth type spin default 4 min 1 max 64",
        "option name TimeLimit type spin default 100000 min 1 max 86400000",
        "option name Rows type spin default 9 min 1 max 30",
        "option name Columns type spin default 9 min 1 max 30",
        "option name InARow type spin default 5 min 1 max 30",
        "option name CrossCheck type string default <empty>",
        "uciok",
        "readyok",
        "info string error: unknown command 'foo' (character 1); 'help' lists the commands",
        "info string error: 'isready' takes no arguments, got 'now' (character 9)",
        "info string error: setoption UCI_Variant: unknown game 'chess' (the course bridge plays only enraya)",
        "info string error: setoption Depth: value '0' is outside 1..=64",
        "info string error: setoption Mode: unknown mode 'sabio' (aleatorio, minimax, inteligente, status)",
        "info string error: setoption HeuristicId: value '-3' is outside 0..=1000000",
        "info string error: setoption: unknown option 'Nope'; 'uci' lists the options",
        "fen: 3/3 x 1 0 0",
        "course 3/3 x 1 0 0 legal=0,0;0,2;1,0;1,2 over=0 result=-",
        "moves 0,0 0,2 1,0 1,2",
        "info string error: go searchmoves (character 4) is not supported by the course bridge: the student's search chooses among all moves",
        "info string error: go depth expects a non-negative integer, got 'x' (character 10)",
        "info string error: go: depth must be at least 1",
        "info string error: go: unknown limit 'fast' (character 4); expected depth, nodes, movetime, infinite, wtime, btime, winc, binc, movestogo",
        // The player to move has no placement: the controller passes without asking the agent.
        "fen: xox/xo1 o 2 3 5",
        "course xox/xo1 o 2 3 5 legal=pass over=0 result=-",
        "info string no placement for the player to move: the course's controller passes without asking the agent",
        "bestmove pass",
        "fen: xox/xo1 x 2 4 6",
        "course xox/xo1 x 2 4 6 legal=1,2 over=0 result=-",
        "bestmove 1,2",
        // (-1, -1) and an occupied cell: reported, and written so that a referee scores them.
        "info string player fault: the player's think() returned (-1, -1), which the course core refuses (off the 2x3 board); course fen xox/xo1 x 2 4 6 legal 1,2",
        "bestmove -1,-1",
        "info string player fault: the player's think() returned (0, 0), which the course core refuses (the cell is occupied); course fen xox/xo1 x 2 4 6 legal 1,2",
        "bestmove 0,0",
        "bestmove 1,2",
        // The end of the game: a full board, a draw.
        "fen: xox/xox o 2 5 7",
        "course xox/xox o 2 5 7 legal=- over=1 result=draw",
        "moves",
        "bestmove (none)",
        "info string error: position: move 8 '0,0' (character 54) comes after the end of the game in the course core (result draw; rule disagreement: tablero still plays on); no position until a legal 'position' or 'ucinewgame'",
        "info string error: no position: the last 'position' was refused (move 8 '0,0' (character 54) comes after the end of the game in the course core (result draw; rule disagreement: tablero still plays on)); send a legal 'position' or 'ucinewgame'",
        "info string error: position: move 4 '1,1' (character 37) is illegal in the course core (the cell is occupied; rule disagreement, course fen xo1/1o1 x 2 2 3); no position until a legal 'position' or 'ucinewgame'",
        "info string error: no position: the last 'position' was refused (move 4 '1,1' (character 37) is illegal in the course core (the cell is occupied; rule disagreement, course fen xo1/1o1 x 2 2 3)); send a legal 'position' or 'ucinewgame'",
        "info string error: position: move 2 'pass' (character 29) is a pass, but the course core has placements for the player to move (0,1 1,1; rule disagreement); no position until a legal 'position' or 'ucinewgame'",
        "info string error: position: move 3 'x' (character 33): bad move: expected 'f,c' (row,column from 0) or 'pass'; no position until a legal 'position' or 'ucinewgame'",
        "info string error: position: unknown start 'start' for enraya (use 'startpos' or 'fen <state>'); no position until a legal 'position' or 'ucinewgame'",
        "fen: 3/3 x 1 0 0",
        "course 3/3 x 1 0 0 legal=0,0;0,2;1,0;1,2 over=0 result=-",
        "info string commands: uci isready ucinewgame setoption position go d moves stop quit",
    ];
    assert_eq!(out, expected, "whole output:\n{}", out.join("\n"));
    // What the agents' constructor got, as the simulator's crearAgente passes it: the seat, the
    // depth (Depth or go depth), the time limit in seconds (TimeLimit or movetime), the heuristic
    // and the mode. The pass and the finished game never asked the agent. The student's output
    // stayed off the protocol stream.
    let asked: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("mock agent thinking"))
        .collect();
    assert_eq!(
        asked,
        [
            "mock agent thinking: id 1 depth 3 seconds 100 heuristic 1 mode 2 call 1",
            "mock agent thinking: id 1 depth 4 seconds 5 heuristic 2 mode 2 call 1",
            "mock agent thinking: id 1 depth 4 seconds 100 heuristic 3 mode 2 call 1",
            "mock agent thinking: id 1 depth 4 seconds 100 heuristic 1 mode 0 call 1",
        ],
        "{err}"
    );
    assert!(!out.iter().any(|l| l.contains("mock agent")));
}

#[test]
fn one_agent_per_seat_for_the_whole_game_as_in_the_simulator() {
    // 3x3, 3 in a line (row or column, mock rules): the first player moves at plies 0, 3, 4.
    let script = "setoption name Rows value 3\nsetoption name Columns value 3\nsetoption name InARow value 3\n\
                  position startpos\ngo depth 2\n\
                  position startpos moves 0,0\ngo depth 2\nposition startpos moves 0,0 0,1\ngo depth 2\n\
                  position startpos moves 0,0 0,1 1,1\ngo depth 2\nposition startpos moves 0,0 0,1 1,1 0,2\ngo depth 2\n\
                  position startpos moves 0,0 0,1 1,1 0,2 1,0\nd\ngo depth 2\n\
                  position startpos moves 0,0 0,1 1,1 0,2 1,0 2,1\nd\ngo depth 2\n\
                  position startpos\ngo depth 2\n";
    let (out, err) = session(script);
    let best: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(
        best,
        ["0,0", "0,1", "1,1", "0,2", "1,0", "2,1", "(none)", "0,0"]
    );
    assert!(
        out.contains(&"course xox/xo1/1o1 x 2 4 6 legal=- over=1 result=2".to_string()),
        "the second player's column: {out:?}"
    );
    let calls: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("mock agent thinking: "))
        .collect();
    assert_eq!(
        calls,
        [
            "id 1 depth 2 seconds 100 heuristic 1 mode 2 call 1",
            "id 2 depth 2 seconds 100 heuristic 1 mode 2 call 1",
            "id 2 depth 2 seconds 100 heuristic 1 mode 2 call 2",
            "id 1 depth 2 seconds 100 heuristic 1 mode 2 call 2",
            "id 1 depth 2 seconds 100 heuristic 1 mode 2 call 3",
            "id 2 depth 2 seconds 100 heuristic 1 mode 2 call 3",
            // A new game: new agents.
            "id 1 depth 2 seconds 100 heuristic 1 mode 2 call 1",
        ]
    );
}

#[test]
fn position_fen_goes_through_the_courses_board_loader() {
    let script = format!(
        "{SMALL}position fen xo1/1o1 x 1 2 3\nd\nposition fen xo1/1o1 x 1 2 3 moves 1,0\nd\n\
         position fen xo1/1o1/3 x 1 2 3\nposition fen xo1/1o x 1 2 3\nposition fen xo1/1o1 z 1 2 3\n\
         position fen xo1/1p1 x 1 2 3\nposition fen xo1/1o1 x -1 2 3\nposition fen xo1/1o1 x 1 2\n\
         setoption name Rows value 12\nsetoption name Columns value 12\nsetoption name InARow value 5\n\
         position fen 12/x10o/12/12/12/12/12/12/12/12/12/1o10 o 2 7 41\nd\n"
    );
    let (out, _) = session(&script);
    let suffix = "; no position until a legal 'position' or 'ucinewgame'";
    let bad =
        |why: &str| format!("info string error: position fen: invalid state string: {why}{suffix}");
    assert_eq!(
        out,
        [
            "fen: xo1/1o1 x 1 2 3".to_string(),
            "course xo1/1o1 x 1 2 3 legal=0,2;1,0;1,2 over=0 result=-".into(),
            "fen: xo1/xo1 o 2 3 4".into(),
            "course xo1/xo1 o 2 3 4 legal=pass over=0 result=-".into(),
            bad("the grid is 3x3 but Rows and Columns are 2x3 (set them first)"),
            bad("row 2 has 2 cells, row 1 has 3"),
            bad("the player to move is 'z', expected x or o"),
            bad("unexpected 'p' in the grid (character 6); expected x, o, a number of empty cells or /"),
            bad("the placements left field is '-1', expected a non-negative integer"),
            bad("expected 5 fields '<grid> <x|o> <left> <phase> <turn>', got 4"),
            // Runs of more than nine empty cells, read back from the core's getters.
            "fen: 12/x10o/12/12/12/12/12/12/12/12/12/1o10 o 2 7 41".into(),
            "course 12/x10o/12/12/12/12/12/12/12/12/12/1o10 o 2 7 41 legal=0,1;0,3;0,5;0,7;0,9;0,11;1,1;1,3;1,5;1,7;1,9;2,1;2,3;2,5;2,7;2,9;2,11;3,1;3,3;3,5;3,7;3,9;3,11;4,1;4,3;4,5;4,7;4,9;4,11;5,1;5,3;5,5;5,7;5,9;5,11;6,1;6,3;6,5;6,7;6,9;6,11;7,1;7,3;7,5;7,7;7,9;7,11;8,1;8,3;8,5;8,7;8,9;8,11;9,1;9,3;9,5;9,7;9,9;9,11;10,1;10,3;10,5;10,7;10,9;10,11;11,3;11,5;11,7;11,9;11,11 over=0 result=-".into(),
        ]
    );
}

#[test]
fn the_time_limit_and_stop_reach_interrumpir_as_in_the_simulator() {
    let mut e = Live::start(&mock_engine().0, &[]);
    // Heuristic 4 thinks until interrumpir(): at go movetime's limit, as the simulator's -t.
    e.send(&format!(
        "{SMALL}setoption name HeuristicId value 4\nposition startpos\n"
    ));
    let t0 = Instant::now();
    e.send("go movetime 300\n");
    let got = e.until(is_best, 30);
    let ms = t0.elapsed().as_millis();
    assert!(ms >= 290, "answered after {ms} ms, before the limit");
    assert_eq!(
        got[0],
        "info string time limit of 300 ms reached: interrumpir() called, as the simulator does; the move is what think() then returns"
    );
    assert!(got[1].ends_with(" interrupted 1"), "{got:?}");
    assert_eq!(
        got.last().unwrap(),
        "bestmove 1,2",
        "the last legal placement"
    );
    // TimeLimit is the limit of a go without one.
    e.send("setoption name TimeLimit value 200\ngo depth 3\n");
    let got = e.until(is_best, 30);
    assert!(got[0].starts_with("info string time limit of 200 ms reached"));
    // A clock: a share of the mover's time (here 2 s: 1940 / 20 = 97 ms).
    e.send("go wtime 2000 btime 2000\n");
    let got = e.until(is_best, 30);
    assert!(
        got[0].starts_with("info string time limit of 97 ms reached"),
        "{got:?}"
    );
    // go infinite: no limit; isready answers at once; stop interrupts.
    e.send("go infinite\n");
    assert_eq!(e.within(400), Vec::<String>::new());
    e.send("isready\n");
    assert_eq!(e.until(|l| l == "readyok", 10), ["readyok"]);
    e.send("d\n");
    assert!(
        e.within(200)
            .iter()
            .any(|l| l == "info string error: a search is running; send 'stop' first")
    );
    e.send("stop\n");
    let got = e.until(is_best, 10);
    assert!(got[0].ends_with(" interrupted 1"), "{got:?}");
    // A finite search: other commands wait for it, in order; quit ends it and answers them.
    e.send("setoption name TimeLimit value 100000\ngo depth 2\nd\nquit\n");
    let got = e.until(|l| l.starts_with("info string error: quit"), 10);
    assert_eq!(
        got.last().unwrap(),
        "info string error: quit: 'd' was not carried out (it was waiting for the search to finish)"
    );
    assert!(got.iter().any(|l| l == "bestmove 1,2"), "{got:?}");
    let (status, rest, _) = e.finish();
    assert!(status.success());
    assert_eq!(rest, Vec::<String>::new());

    // go infinite whose think() ends by itself: bestmove only after stop.
    let mut e = Live::start(&mock_engine().0, &[]);
    e.send(&format!(
        "{SMALL}setoption name HeuristicId value 8\nposition startpos\ngo infinite\n"
    ));
    assert_eq!(e.within(800), Vec::<String>::new());
    e.send("stop\n");
    let got = e.until(is_best, 10);
    assert!(got[0].ends_with(" interrupted 0"), "{got:?}");
    assert_eq!(got.last().unwrap(), "bestmove 0,0");
    // The end of input stops an infinite search and exits.
    e.send("go infinite\n");
    let (status, rest, _) = e.finish();
    assert!(status.success());
    assert_eq!(rest.last().map(String::as_str), Some("bestmove 0,0"));
}

#[test]
fn quit_ends_the_engine_while_its_input_stays_open() {
    // As a referee or crosscheck.py quits: `quit`, then wait for the exit without closing the
    // pipe (the input reader is then blocked in a read of stdin).
    for script in ["isready\nquit\n", "position startpos\ngo depth 2\nquit\n"] {
        let mut e = Live::start(&mock_engine().0, &[]);
        e.send(script);
        let st = e.exits_within(20);
        assert!(st.is_some_and(|s| s.success()), "'{script}': {st:?}");
    }
}

#[test]
fn a_crash_or_exception_in_think_ends_the_engine_with_one_error_line() {
    use std::os::unix::process::ExitStatusExt;
    for (h, line, signal) in [
        (
            5,
            "info string error: the player's think() threw an exception: mock failure in think(); the engine stops (in the simulator the exception ends the program)",
            None,
        ),
        (
            6,
            "info string error: the engine crashed (signal 11, SIGSEGV) while the player's think() ran; the engine stops",
            Some(11),
        ),
        (
            7,
            "info string error: the engine crashed (signal 11, SIGSEGV) while the player's think() ran; the engine stops",
            Some(11),
        ),
    ] {
        let mut e = Live::start(&mock_engine().0, &[]);
        e.send(&format!(
            "{SMALL}setoption name HeuristicId value {h}\nposition startpos\ngo depth 2\n"
        ));
        let (status, rest, _) = e.finish();
        assert_eq!(rest, [line], "heuristic {h}");
        assert_eq!(status.signal(), signal, "heuristic {h}: {status:?}");
        if signal.is_none() {
            assert_eq!(status.code(), Some(3));
        }
    }
}

#[test]
fn the_cross_check_with_tablero_stops_a_game_it_disagrees_with() {
    // The mock engine itself stands in for tablero: the same core, so no disagreement.
    let engine = mock_engine().0.display().to_string();
    let script = format!(
        "{SMALL}setoption name CrossCheck value {engine}\nposition startpos moves 0,0 0,1\ngo\n\
         position startpos moves 0,0 0,1 1,1 0,2 1,0 pass 1,2\nd\n\
         setoption name CrossCheck value /nonexistent/tablero\nsetoption name CrossCheck value\n"
    );
    let (out, _) = session(&script);
    assert_eq!(
        out,
        [
            "bestmove 1,1",
            "fen: xox/xox o 2 5 7",
            "course xox/xox o 2 5 7 legal=- over=1 result=draw",
            "info string error: setoption CrossCheck: '/nonexistent/tablero' exited before answering isready (the value is a tablero command, e.g. /usr/local/bin/tablero)",
        ]
    );
    // A tablero that does not know the game is refused at once (the command cut to 40
    // characters, as every quoted token).
    let liar = mock_dir().join("liar_tablero.sh");
    let refusing = format!("LIAR_REFUSE=1 {}", liar.display());
    let (out, _) = session(&format!("setoption name CrossCheck value {refusing}\n"));
    let shown: String = refusing.chars().take(40).collect();
    assert_eq!(
        out,
        [format!(
            "info string error: setoption CrossCheck: '{shown}' refused the game: setoption UCI_Variant: unknown game 'enraya' (known: parchis, connect4boom, connect4, mancala)"
        )]
    );
    // A tablero that sees other positions: the position is refused with both views, so the
    // game cannot go on.
    let script = format!(
        "{SMALL}setoption name CrossCheck value {}\nposition startpos moves 0,0\ngo\n",
        liar.display()
    );
    let (out, _) = session(&script);
    let why = "rule disagreement at the start (cross-check): tablero: fen 3/3/3 o 2 9 9 legal 0,0; course: fen 3/3 x 1 0 0 legal 0,0 0,2 1,0 1,2";
    assert_eq!(
        out,
        [
            format!(
                "info string error: position: {why}; no position until a legal 'position' or 'ucinewgame'"
            ),
            format!(
                "info string error: no position: the last 'position' was refused ({why}); send a legal 'position' or 'ucinewgame'"
            ),
        ]
    );
}

/// The mock simulator loop with AgenteTablero, compiled once.
fn simulator_driver() -> &'static PathBuf {
    static DRIVER: OnceLock<PathBuf> = OnceLock::new();
    DRIVER.get_or_init(|| {
        let out = tmp().join("bridge_enraya_simulator_driver");
        let res = Command::new("g++")
            .args([
                "-std=c++17",
                "-O0",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pthread",
            ])
            .arg(format!("-I{}", mock_dir().join("include").display()))
            .arg(format!(
                "-I{}",
                root().join("scripts/bridge/enraya").display()
            ))
            .arg(mock_dir().join("simulator_driver.cpp"))
            .arg(root().join("scripts/bridge/enraya/AgenteTablero.cpp"))
            .arg(mock_dir().join("src/Tablero.cpp"))
            .arg("-o")
            .arg(&out)
            .output()
            .expect("g++ runs (CI installs build-essential)");
        assert!(
            res.status.success(),
            "g++ failed:\n{}",
            String::from_utf8_lossy(&res.stderr)
        );
        out
    })
}

fn drive(args: &[&str], env: &[(&str, &str)]) -> (Vec<String>, String) {
    let out = Command::new(simulator_driver())
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with("AgenteTablero (J"))
            .map(str::to_string)
            .collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn agente_tablero_plays_inside_the_simulators_loop_and_reports_disagreements() {
    // The "tablero" here is the bridged mock engine: it speaks the protocol with the same core.
    let engine = mock_engine().0.display().to_string();
    let env = [("TABLERO_CMD", engine.as_str())];
    let (out, err) = drive(&["game", "2", "3", "3"], &env);
    assert_eq!(
        out,
        [
            "J1 0,0",
            "J2 0,1",
            "J2 1,1",
            "J1 0,2",
            "J1 1,0",
            "J2 pass",
            "J1 1,2",
            "result draw fen xox/xox o 2 5 7 disagreements 0"
        ],
        "{err}"
    );
    assert!(!err.contains("RULE DISAGREEMENT"), "{err}");
    // TABLERO_GO and interrumpir(): `go infinite` answers only at the simulator's time limit.
    let (out, _) = drive(
        &["interrupt"],
        &[
            ("TABLERO_CMD", engine.as_str()),
            ("TABLERO_GO", "go infinite"),
        ],
    );
    assert_eq!(out.len(), 1);
    let ms: u64 = out[0]
        .strip_prefix("returned 0,0 after ")
        .and_then(|r| r.strip_suffix(" ms"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!((290..10_000).contains(&ms), "{ms} ms");
    // A tablero that disagrees: every position and every move it plays is reported, and the
    // core's first legal placement keeps the game going.
    let liar = mock_dir().join("liar_tablero.sh").display().to_string();
    let (out, err) = drive(&["game", "2", "3", "3"], &[("TABLERO_CMD", liar.as_str())]);
    assert_eq!(
        out.last().unwrap(),
        "result draw fen xox/xox o 2 5 7 disagreements 11"
    );
    assert!(
        err.lines().any(|l| l
            == "AgenteTablero: RULE DISAGREEMENT: course: fen 3/3 x 1 0 0 moves 0,0 0,2 1,0 1,2; tablero: fen 3/3/3 o 2 9 9 moves 0,0"),
        "{err}"
    );
    assert!(
        err.lines().any(|l| l
            == "AgenteTablero: RULE DISAGREEMENT: tablero played '0,0' in fen x2/3 o 2 1 1, which the course core refuses (legal: 0,1 1,1); the core's first legal placement is played instead"),
        "{err}"
    );
}

/// Copies the mock checkout to `to` (a student's whole copy of the course repository).
fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

#[test]
fn a_whole_copy_builds_with_its_own_headers_and_the_courses_core() {
    let d = tmp().join("bridge_enraya_copy");
    let _ = std::fs::remove_dir_all(&d);
    let copy = d.join("student");
    std::fs::create_dir_all(&copy).unwrap();
    copy_tree(&mock_dir(), &copy);
    // The student's own: a header next to the agent, a header in include/ the course does not
    // have, and a method the course's AgenteEstudiante.hpp does not declare. The copy's core
    // differs (an old version, say): not used.
    let agent = copy.join("Comportamiento_Agente");
    std::fs::write(
        agent.join("Pesos.hpp"),
        "#pragma once\nconst int PESO_PROPIO = 7;\n",
    )
    .unwrap();
    std::fs::write(
        copy.join("include/Util.hpp"),
        "#pragma once\ninline int doble(int x) { return 2 * x; }\n",
    )
    .unwrap();
    let hpp = std::fs::read_to_string(agent.join("AgenteEstudiante.hpp")).unwrap();
    std::fs::write(
        agent.join("AgenteEstudiante.hpp"),
        hpp.replace(
            "    int llamadas;",
            "    int llamadas;\n    int miHeuristica() const;",
        ),
    )
    .unwrap();
    let cpp = std::fs::read_to_string(agent.join("AgenteEstudiante.cpp")).unwrap();
    std::fs::write(
        agent.join("AgenteEstudiante.cpp"),
        format!(
            "#include \"Pesos.hpp\"\n#include \"Util.hpp\"\n{cpp}\nint AgenteEstudiante::miHeuristica() const {{ return doble(PESO_PROPIO); }}\n"
        ),
    )
    .unwrap();
    let core = std::fs::read_to_string(copy.join("src/Tablero.cpp")).unwrap();
    std::fs::write(copy.join("src/Tablero.cpp"), core + "// an older core\n").unwrap();
    let tab = std::fs::read_to_string(copy.join("include/Tablero.hpp")).unwrap();
    std::fs::write(copy.join("include/Tablero.hpp"), tab + "// an older core\n").unwrap();

    let out = d.join("engine");
    let res = build(&[&mock_dir(), &copy], &out);
    let err = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "{err}");
    for line in [
        format!(
            "build.sh: {} is a whole copy of the course repository: its Comportamiento_Agente/ is the student's, the core is {}'s",
            copy.display(),
            mock_dir().display()
        ),
        "build.sh: note: the copy's include/Tablero.hpp differs from the course's; the course's is used".into(),
        "build.sh: the copy's own include/Util.hpp is used".into(),
        "build.sh: note: the copy's src/Tablero.cpp differs from the course's; the course's is used".into(),
    ] {
        assert!(err.lines().any(|l| l == line), "missing '{line}' in:\n{err}");
    }
    // The same copy given by its agent file builds too.
    let res = build(&[&mock_dir(), &agent.join("AgenteEstudiante.cpp")], &out);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );

    // A folder with only the .cpp: the course's AgenteEstudiante.hpp, said so.
    let only = d.join("only-cpp");
    std::fs::create_dir_all(&only).unwrap();
    std::fs::copy(
        mock_dir().join("Comportamiento_Agente/AgenteEstudiante.cpp"),
        only.join("AgenteEstudiante.cpp"),
    )
    .unwrap();
    let res = build(&[&mock_dir(), &only], &out);
    let err = String::from_utf8_lossy(&res.stderr);
    assert!(res.status.success(), "{err}");
    assert!(err.contains(
        "build.sh: note: no AgenteEstudiante.hpp next to the agent: the course's is used"
    ));

    // A student's file that includes the course's GUI.hpp (and so <GL/glut.h>) builds without GL.
    let gui = d.join("gui");
    std::fs::create_dir_all(&gui).unwrap();
    std::fs::write(
        gui.join("AgenteEstudiante.cpp"),
        format!(
            "#include \"GUI.hpp\"\n{}",
            std::fs::read_to_string(mock_dir().join("Comportamiento_Agente/AgenteEstudiante.cpp"))
                .unwrap()
        ),
    )
    .unwrap();
    let res = build(&[&mock_dir(), &gui], &out);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
}

#[test]
fn build_script_refuses_bad_usage() {
    let out = build(&[tmp()], Path::new("/dev/null"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not look like a checkout of the course's 5-en-Raya simulator (missing include/Tablero.hpp)"),
        "{err}"
    );
    let out = build(
        &[&mock_dir(), Path::new("/nonexistent/student")],
        Path::new("/dev/null"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("error: student source '/nonexistent/student' not found")
    );
    let out = build(
        &[&mock_dir(), &mock_dir().join("src")],
        Path::new("/dev/null"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: no AgenteEstudiante.cpp in "));
    let out = Command::new("bash").arg(build_script()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("usage: "));
}

#[test]
fn the_adapter_compiles_without_warnings() {
    // build.sh silences warnings (-w: students' code has plenty); our own adapter has none.
    let b = root().join("scripts/bridge/enraya");
    let res = Command::new("g++")
        .args([
            "-std=gnu++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pthread",
            "-fsyntax-only",
        ])
        .arg(format!("-I{}", mock_dir().join("include").display()))
        .arg(format!(
            "-I{}",
            mock_dir().join("Comportamiento_Agente").display()
        ))
        .arg(format!("-I{}", b.join("stub").display()))
        .arg(format!("-I{}", b.display()))
        .arg(format!(
            "-I{}",
            root().join("scripts/bridge/common").display()
        ))
        .arg(b.join("frontend.cpp"))
        .arg(b.join("main.cpp"))
        .arg(b.join("AgenteTablero.cpp"))
        .output()
        .expect("g++ runs");
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
}
