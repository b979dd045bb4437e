//! The Conecta-4 BOOM course bridge (`scripts/bridge/boom/`) checked without the course code:
//! `build.sh` builds the MOCK checkout in `tests/bridge_boom_mock/` (our own environment.h/.cpp
//! and player.h/.cpp with the course's declarations and made-up rules), so the test covers the
//! scratch copy (the GL stub, the `operator=` fix, the depth constant made an option), the
//! notation against tablero's own and the protocol front end. The real proof, against the real
//! course core and real students' players, is in docs/bridge-boom.md.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use tablero::core::game::Game;
use tablero::games::boom::{Boom, BoomMove, Config};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn build_script() -> PathBuf {
    root().join("scripts/bridge/boom/build.sh")
}

/// The engine build.sh makes of the mock checkout (built once), and build.sh's stderr.
fn mock_engine() -> &'static (PathBuf, String) {
    static ENGINE: OnceLock<(PathBuf, String)> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bridge_boom_mock_engine");
        let res = Command::new("bash")
            .arg(build_script())
            .arg(root().join("tests/bridge_boom_mock"))
            .arg("-o")
            .arg(&out)
            .env("CXXFLAGS", "-O0")
            .output()
            .expect("bash runs");
        let err = String::from_utf8_lossy(&res.stderr).into_owned();
        assert!(res.status.success(), "build.sh failed:\n{err}");
        (out, err)
    })
}

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
            .map(str::to_string)
            .collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn build_script_patches_the_scratch_copy_and_says_so() {
    let err = &mock_engine().1;
    for line in [
        "build.sh: environment.cpp: Environment::operator= ends without 'return *this;' (undefined behaviour); the scratch copy adds it",
        "build.sh: 'PROFUNDIDAD_ALFABETA' of the player (8) is exposed as the Depth option (and go depth)",
    ] {
        assert!(
            err.lines().any(|l| l == line),
            "missing '{line}' in:\n{err}"
        );
    }
    // The checkout itself is only read.
    let src =
        std::fs::read_to_string(root().join("tests/bridge_boom_mock/environment.cpp")).unwrap();
    assert!(!src.contains("added by tablero"));
}

#[test]
fn build_script_year_names_the_simulator_the_player_was_built_on() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bridge_boom_mock_engine_2018");
    let build = |year: &str| {
        Command::new("bash")
            .arg(build_script())
            .arg(root().join("tests/bridge_boom_mock"))
            .args(["-o"])
            .arg(&out)
            .args(["--year", year])
            .env("CXXFLAGS", "-O0")
            .output()
            .expect("bash runs")
    };
    let refused = build("2019-20");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("--year '2019-20' is not a course year of Conecta-4 BOOM (2020-21, 2018-19)")
    );
    let built = build("2018-19");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut c = Command::new(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    c.stdin
        .take()
        .unwrap()
        .write_all(b"uci\nsetoption name Year value 2018-19\nsetoption name Year value 2020-21\n")
        .unwrap();
    let o = c.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(&"option name Year type combo default 2018-19 var 2018-19"),
        "{text}"
    );
    let errors: Vec<&&str> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(
        errors,
        [
            &"info string error: setoption Year: this player was built on the 2018-19 simulator (build.sh --year) and cannot play '2020-21'"
        ],
        "{text}"
    );
}

#[test]
fn every_course_action_is_spelled_as_tablero_spells_it() {
    // After 1 2 3 4 (mock rules) the first player holds a bomb and every action is legal; the
    // mock Think() answers action depth-1, so `go depth d` shows the bridge's spelling of each.
    let mut script = String::from("position startpos moves 1 2 3 4\n");
    for d in 1..=8 {
        script += &format!("go depth {d}\n");
    }
    let (out, _) = session(&script);
    let best: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best, ["1", "2", "3", "4", "5", "6", "7", "boom"]);
    let s = Boom::start(&Config::default());
    let expected: Vec<BoomMove> = (0..7).map(BoomMove::Put).chain([BoomMove::Boom]).collect();
    for (text, m) in best.iter().zip(expected) {
        assert_eq!(s.format_move(m), *text, "tablero spells {m:?} otherwise");
    }
    // tablero's parser reads them back, and BOOM in any case as the bridge does, once the mover
    // holds a bomb (movement 12 placed the first player's).
    let mut g = s;
    for text in ["1", "2", "3", "4", "5", "6", "7", "1", "2", "3", "4", "5"] {
        let m = g.parse_move(text).expect("legal in tablero");
        assert_eq!(g.format_move(m), text);
        g = g.apply(m);
    }
    assert_eq!(g.parse_move("boom"), Ok(BoomMove::Boom));
    assert_eq!(g.parse_move("BOOM"), Ok(BoomMove::Boom));
}

#[test]
fn protocol_front_end_with_the_mock_course_core() {
    let script = "\
uci
isready
foo
isready now
setoption name UCI_Variant value connect4boom
position startpos moves 1 2 3 4
d
go
go depth 3
setoption name Depth value 9
go wtime 1000 btime 1000
setoption name Depth value 1
position startpos moves 1 1
go
position startpos moves 1 1 1
position startpos moves 1 2 BOOM
go
d
position startpos moves 1 2 3 4 BOOM
d
position startpos moves 8
position fen 7/7/7/7/7/7/7 x 1
position playground
setoption name UCI_Variant value connect4
setoption name PlayerId value 1
setoption name Depth value 0
setoption name Year value 2020-21
setoption name Year value 2018-19
go depth x
go fast
go depth 0
ucinewgame
d
position startpos moves 1 2 3 4 5 6 7 1 2 3
d
go
position startpos moves 1 2 3 4 5 6 7 1 2 3 4
quit
go
";
    let (out, err) = session(script);
    let expect_in_order = [
        "id name course Player (tablero bridge)",
        "option name UCI_Variant type combo default connect4boom var connect4boom",
        "option name Depth type spin default 8 min 1 max 64",
        // build.sh --year: the simulator the player was built on (here the default).
        "option name Year type combo default 2020-21 var 2020-21",
        "uciok",
        "readyok",
        "info string error: unknown command 'foo' (character 1); 'help' lists the commands",
        "info string error: 'isready' takes no arguments, got 'now' (character 9)",
        // The course state in the fields of the core traces.
        "course 7/7/7/7/7/7/xoxo3 x 5 legal=1,2,3,4,5,6,7,boom over=0 result=- bombs=1,1 turn=3 bombnow=1",
        // The student's depth 8 (mock: BOOM), then `go depth 3` for one search.
        "info depth 8 time 0",
        "bestmove boom",
        "info depth 3 time 0",
        "bestmove 3",
        // Depth 9: the mock Think() returns 12, no course action.
        "info string player fault: the player's Think() returned action 12, which is no course action (0..7 = PUT1..PUT7, BOOM)",
        "bestmove (none)",
        // Column 1 is full (mock: 2 pieces) and the player still picks it.
        "info string player fault: the player chose 1 (course action 0), which the course core calls illegal",
        "bestmove 1",
        "info string error: position: move 3 '1' (character 29) is illegal in the course simulator (rule disagreement, course action 0, player 1 to move); no position until a legal 'position' or 'ucinewgame'",
        "info string error: position: move 3 'BOOM' (character 29) is illegal in the course simulator (rule disagreement, course action 7, player 1 to move); no position until a legal 'position' or 'ucinewgame'",
        // Nothing answers for the position before a refused one.
        "info string error: no position: the last 'position' was refused (move 3 'BOOM' (character 29) is illegal in the course simulator (rule disagreement, course action 7, player 1 to move)); send a legal 'position' or 'ucinewgame'",
        "info string error: no position: the last 'position' was refused (move 3 'BOOM' (character 29) is illegal in the course simulator (rule disagreement, course action 7, player 1 to move)); send a legal 'position' or 'ucinewgame'",
        // `boom` in any case; the bomb is gone afterwards.
        "course 7/7/7/7/7/7/xoxo3 o 6 legal=1,2,3,4,5,6,7,boom over=0 result=- bombs=0,1 turn=3 bombnow=1",
        "info string error: position: move 1 '8' (character 25): bad move '8': expected a column 1..7 or boom; no position until a legal 'position' or 'ucinewgame'",
        "info string error: position fen: the course core cannot load a state string; use 'position startpos moves …'; no position until a legal 'position' or 'ucinewgame'",
        "info string error: position: unknown start 'playground' for connect4boom (use 'startpos'); no position until a legal 'position' or 'ucinewgame'",
        "info string error: setoption UCI_Variant: unknown game 'connect4' (the course bridge plays only connect4boom)",
        "info string error: setoption: unknown option 'PlayerId'; 'uci' lists the options",
        "info string error: setoption Depth: value '0' is outside 1..=64",
        // Its own year is taken silently, another refused.
        "info string error: setoption Year: this player was built on the 2020-21 simulator (build.sh --year) and cannot play '2018-19'",
        "info string error: go depth expects a non-negative integer, got 'x' (character 10)",
        "info string error: go: unknown limit 'fast' (character 4); expected depth, nodes, movetime, infinite, wtime, btime, winc, binc, movestogo",
        "info string error: go: depth must be at least 1",
        "course 7/7/7/7/7/7/7 x 1 legal=1,2,3,4,5,6,7 over=0 result=- bombs=0,0 turn=1 bombnow=0",
        // The mock game ends after 10 movements, won by the first player.
        "course 7/7/7/7/7/oxo4/xoxoxox x 11 legal=- over=1 result=first bombs=1,1 turn=6 bombnow=1",
        "bestmove (none)",
        "info string error: position: move 11 '4' (character 45) comes after the end of the game in the course simulator (rule disagreement: tablero still plays on); no position until a legal 'position' or 'ucinewgame'",
    ];
    // A search's time is the machine's, not the bridge's: `time N` matches any N.
    let untimed = |l: &str| {
        let w: Vec<&str> = l.split(' ').collect();
        w.iter()
            .enumerate()
            .map(|(i, x)| {
                if i > 0 && w[i - 1] == "time" && x.parse::<u64>().is_ok() {
                    "N"
                } else {
                    x
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut at = 0;
    for e in expect_in_order {
        match out[at..].iter().position(|l| untimed(l) == untimed(e)) {
            Some(i) => at += i + 1,
            None => panic!("missing (in order) '{e}'\nsession:\n{}", out.join("\n")),
        }
    }
    // Nothing after quit; the student's prints went to stderr, never to the protocol stream.
    assert_eq!(
        out.last().map(String::as_str),
        Some(expect_in_order[expect_in_order.len() - 1])
    );
    assert!(out.iter().all(|l| !l.contains("mock Player")));
    assert!(err.contains("mock Player 1 thinking at depth 8"));
    assert_eq!(
        out.iter().filter(|l| l.starts_with("bestmove")).count(),
        5,
        "one bestmove per accepted go:\n{}",
        out.join("\n")
    );
    assert_eq!(
        out.iter()
            .filter(|l| l.starts_with("info string bridge replay_ms "))
            .count(),
        4,
        "bridge timings for every go that ran the player"
    );
}

#[test]
fn build_script_refuses_bad_usage() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let out = Command::new("bash")
        .arg(build_script())
        .arg(tmp)
        .args(["-o", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not look like a course Conecta-4 BOOM checkout (missing environment.h)"),
        "{err}"
    );
    let out = Command::new("bash")
        .arg(build_script())
        .arg(root().join("tests/bridge_boom_mock"))
        .arg("/nonexistent/player.cpp")
        .args(["-o", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("error: player source '/nonexistent/player.cpp' not found")
    );
    let out = Command::new("bash").arg(build_script()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("usage: "));
}

/// A player whose `Think()` returns no course action loses that game as an illegal move, and
/// the match goes on: the bridge's `info string player fault` line is not a refused command
/// (an `info string error` would stop the match), and the record names the player's fault.
#[test]
fn a_player_fault_loses_the_game_and_the_match_goes_on() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bridge_boom_fault");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("fault.jsonl");
    let o = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["match", "--game", "connect4boom", "--engine1"])
        .arg(&mock_engine().0)
        .args([
            "--engine2",
            "builtin:random",
            "--depth",
            "1",
            "--games",
            "2",
        ])
        // Depth 9: the mock Think() returns 12, no course action.
        .args(["--limits1", "depth=9", "--records"])
        .arg(&rec)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "the match goes on: {err}");
    let text = std::fs::read_to_string(&rec).unwrap();
    let games: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(games.len(), 2, "both games played: {text}");
    for g in games {
        assert!(g.contains(r#""reason":"illegal""#), "{g}");
        assert!(
            g.contains(
                "no move: the player's Think() returned action 12, which is no course action"
            ),
            "{g}"
        );
    }
}
