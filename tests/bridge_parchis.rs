//! The course simulator bridge (`scripts/bridge/parchis/`) checked without the course code: the
//! adapter is compiled with g++ against the MOCK course API in `tests/bridge_parchis_mock/`
//! (our own headers mirroring only the signatures the adapter calls; mock rules, not Parchís).
//! Checked: the notation tables against tablero's own move notation for every move kind, and the
//! protocol front end. The real proof, against the real course core, is in the README.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tablero::core::game::Game;
use tablero::games::parchis::{Move, Parchis, ParchisConfig, Year};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `sources` (relative to the crate root) with the mock API into `name`.
fn compile(name: &str, sources: &[&str], defines: &[&str]) -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let mut cmd = Command::new("g++");
    cmd.args([
        "-std=c++14",
        "-O0",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-DTABLERO_BRIDGE_MOCK",
    ])
    .args(defines)
    .arg(format!(
        "-I{}",
        root().join("tests/bridge_parchis_mock").display()
    ))
    .arg(format!(
        "-I{}",
        root().join("scripts/bridge/parchis").display()
    ))
    .arg(format!(
        "-I{}",
        root().join("scripts/bridge/common").display()
    ))
    .args(sources.iter().map(|s| root().join(s)))
    .arg("-o")
    .arg(&out);
    let res = cmd
        .output()
        .expect("g++ runs (CI installs build-essential)");
    assert!(
        res.status.success(),
        "g++ failed for {name}:\n{}",
        String::from_utf8_lossy(&res.stderr)
    );
    out
}

/// Course colour enum values (blue, red, green, yellow = 0..3) of tablero's colour order y, b, r, g.
const COURSE_COLOUR: [i32; 4] = [3, 0, 1, 2];
const SKIP_TURN: i32 = -9999;

#[test]
fn notation_tables_match_tablero_for_every_move_kind() {
    let dice: Vec<u8> = [1, 2, 4, 5, 6, 10, 20]
        .into_iter()
        .chain(101..=110)
        .collect();
    check_notation(
        "bridge_notation_table",
        &[],
        ParchisConfig::default(),
        &dice,
    );
}

#[test]
fn notation_tables_of_2023_24_match_tablero() {
    // build.sh --year 2023-24: no items; the special die is the course's `power` (100).
    check_notation(
        "bridge_notation_table_2023",
        &["-DTABLERO_BRIDGE_2023"],
        ParchisConfig::of(Year::Y2023),
        &[1, 2, 4, 5, 6, 10, 20, 100],
    );
}

/// Builds the notation table driver with `defines` and checks its rows against tablero's
/// notation (under `config`) for every piece and pass with each of `dice`: the same course
/// colour, piece id and dice code, back to the same text, and nothing more; every spelling the
/// bridge rejects, tablero rejects too.
fn check_notation(name: &str, defines: &[&str], config: ParchisConfig, dice: &[u8]) {
    let bin = compile(
        name,
        &[
            "tests/bridge_parchis_mock/notation_table.cpp",
            "scripts/bridge/parchis/notation.cpp",
            "tests/bridge_parchis_mock/mock_course_api.cpp",
        ],
        defines,
    );
    let out = Command::new(&bin).output().expect("table driver runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    // text -> (course colour, id, dice, formatted back); passes keyed by pass colour too.
    let mut rows: HashMap<(String, i32), (i32, i32, i32, String)> = HashMap::new();
    let mut bad = Vec::new();
    let mut unformattable = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        match f.as_slice() {
            ["bad", t] => bad.push(t.to_string()),
            ["unformattable"] => unformattable += 1,
            [t, c, id, d, back] => {
                let (c, id, d): (i32, i32, i32) =
                    (c.parse().unwrap(), id.parse().unwrap(), d.parse().unwrap());
                let key_colour = if t.starts_with("pass") { c } else { -1 };
                rows.insert((t.to_string(), key_colour), (c, id, d, back.to_string()));
            }
            _ => panic!("unexpected driver line '{line}'"),
        }
    }
    let s = Parchis::start(&config);
    let mut checked = 0;
    for &d in dice {
        for piece in 0..16u8 {
            let m = Move::new(piece, d);
            let t = s.format_move(m);
            let (c, id, cd, back) = rows
                .get(&(t.clone(), -1))
                .unwrap_or_else(|| panic!("the bridge has no row for '{t}'"));
            assert_eq!(*c, COURSE_COLOUR[(piece >> 2) as usize], "{t}: colour");
            assert_eq!(*id, (piece & 3) as i32, "{t}: piece id");
            assert_eq!(*cd, d as i32, "{t}: dice / item code");
            assert_eq!(back, &t, "{t}: course -> tablero");
            checked += 1;
        }
        for pass_colour in [3, 0] {
            let t = s.format_move(Move::pass(d));
            let (c, id, cd, back) = rows.get(&(t.clone(), pass_colour)).unwrap_or_else(|| {
                panic!("the bridge has no row for '{t}' (colour {pass_colour})")
            });
            assert_eq!((*c, *id, *cd), (pass_colour, SKIP_TURN, d as i32), "{t}");
            assert_eq!(back, &t);
            checked += 1;
        }
    }
    assert_eq!(checked, dice.len() * (16 + 2));
    assert_eq!(
        rows.len(),
        checked,
        "the bridge converts moves tablero never writes"
    );
    // Every spelling the bridge rejects, tablero's parser rejects as well.
    assert_eq!(bad.len(), 10, "{bad:?}");
    for t in &bad {
        assert!(s.parse_move(t).is_err(), "tablero accepts '{t}'");
    }
    assert_eq!(
        unformattable, 3,
        "course values without a tablero spelling must be refused"
    );
}

fn session(bin: &Path, input: &str) -> (Vec<String>, String) {
    let mut c = Command::new(bin)
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
fn protocol_front_end_with_the_mock_course_api() {
    let bin = compile(
        "bridge_mock_engine",
        &[
            "scripts/bridge/parchis/main.cpp",
            "scripts/bridge/parchis/frontend.cpp",
            "scripts/bridge/parchis/notation.cpp",
            "tests/bridge_parchis_mock/mock_course_api.cpp",
        ],
        &["-DTABLERO_BRIDGE_DEPTH_VAR=PROFUNDIDAD_ALFABETA"],
    );
    let script = "\
uci
isready
foo bar
isready now
setoption name UCI_Variant value parchis
position startpos moves y0:5 b1:star pass:4
go depth 5
position startpos moves y0:1 y2:5
position startpos moves zz
position fen n 0 1
go
position startpos moves y0:5 b1:star pass:4
go
setoption name Depth value 2
go wtime 1000 btime 1000
setoption name PlayerId value 3
go
setoption name PlayerId value 1
go
setoption name PlayerId value 2
go
setoption name PlayerId value 4
go
setoption name UCI_Variant value chess
setoption name Hash value 3
setoption name Depth value 0
go depth x
go fast
go depth 0
ucinewgame
position startpos moves y0:1 b0:1 y0:1 b0:1 y0:1 b0:1 y0:1 b0:1 y0:1 b0:1
go
position startpos moves y0:1 b0:1 y0:1 b0:1 y0:1 b0:1 y0:1 b0:1 y0:1 b0:1 y0:1
quit
go
";
    let (out, err) = session(&bin, script);
    let expect_in_order = [
        "id name course AIPlayer (tablero bridge)",
        "option name UCI_Variant type combo default parchis var parchis",
        "option name PlayerId type spin default 0 min 0 max 1000000",
        "option name Depth type spin default 6 min 1 max 64",
        "uciok",
        "readyok",
        "info string error: unknown command 'foo' (character 1); 'help' lists the commands",
        "info string error: 'isready' takes no arguments, got 'now' (character 9)",
        // Three replayed moves: blue (player 1) to move; `go depth 5` sets the student's depth.
        "info depth 5 time 0",
        "bestmove b0:5",
        "info string error: position: move 2 'y2:5' (character 30) is illegal in the course simulator (rule disagreement, course move 3 2 5, player 1 to move); no position until a legal 'position' or 'ucinewgame'",
        "info string error: position: move 1 'zz' (character 25): bad move 'zz': expected <piece>:<die>, e.g. y0:5; no position until a legal 'position' or 'ucinewgame'",
        "info string error: position fen: the course core cannot load a state string; use 'position startpos moves …'; no position until a legal 'position' or 'ucinewgame'",
        // Nothing answers for the position before a refused one.
        "info string error: no position: the last 'position' was refused (position fen: the course core cannot load a state string; use 'position startpos moves …'); send a legal 'position' or 'ucinewgame'",
        // The position given again (blue to move), at the default depth 6.
        "bestmove b0:6",
        "bestmove b0:2",
        "bestmove b1:star",
        "bestmove pass:4",
        "info string player fault: the player's move cannot be written in tablero notation: dice value 3 has no tablero spelling",
        "bestmove (none)",
        "info string player fault: the player chose b2:5 (course move 0 2 5), which the course core calls illegal",
        "bestmove b2:5",
        "info string error: setoption UCI_Variant: unknown game 'chess' (the course bridge plays only parchis)",
        "info string error: setoption: unknown option 'Hash'; 'uci' lists the options",
        "info string error: setoption Depth: value '0' is outside 1..=64",
        "info string error: go depth expects a non-negative integer, got 'x' (character 10)",
        "info string error: go: unknown limit 'fast' (character 4); expected depth, nodes, movetime, infinite, wtime, btime, winc, binc, movestogo",
        "info string error: go: depth must be at least 1",
        // The mock game is over after 10 moves.
        "bestmove (none)",
        "info string error: position: move 11 'y0:1' (character 75) comes after the end of the game in the course simulator (rule disagreement: tablero still plays on); no position until a legal 'position' or 'ucinewgame'",
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
    assert!(out.iter().all(|l| !l.contains("mock AIPlayer thinking")));
    assert!(err.contains("mock AIPlayer thinking"));
    let bestmoves = out.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(
        bestmoves,
        8,
        "one bestmove per accepted go:\n{}",
        out.join("\n")
    );
    // Every go reports the bridge's own timings.
    let timings = out
        .iter()
        .filter(|l| l.starts_with("info string bridge replay_ms "))
        .count();
    assert_eq!(timings, 7);
}

/// g++ on `tests/bridge_parchis_mock/header_player.cpp` with `gui_dir` holding GUIPlayer.h and the
/// mock course headers behind it; the player includes only "AIPlayer.h" and "Parchis.h".
fn compile_header_player(name: &str, gui_dir: &Path) -> std::process::Output {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    Command::new("g++")
        .env("LC_ALL", "C")
        .args(["-std=c++14", "-O0", "-Wall", "-Wextra", "-Werror"])
        .arg(format!("-I{}", gui_dir.display()))
        .arg(format!(
            "-I{}",
            root()
                .join("tests/bridge_parchis_mock/stub_chain")
                .display()
        ))
        .arg(root().join("tests/bridge_parchis_mock/header_player.cpp"))
        .arg("-o")
        .arg(&out)
        .output()
        .expect("g++ runs (CI installs build-essential)")
}

#[test]
fn stub_provides_the_standard_headers_of_the_simulators_gui_chain() {
    // With the bridge's stub in the GUIPlayer.h seat, a player that calls sqrt without <cmath>
    // and uses list, queue, fstream, set, cstdio, cstdlib, iterator and locale names without
    // including them compiles, as it does inside the simulator, and computes what it should.
    let res = compile_header_player(
        "bridge_header_player",
        &root().join("scripts/bridge/parchis/stub"),
    );
    assert!(
        res.status.success(),
        "the stub lacks a header of the simulator's GUI chain:\n{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let run = Command::new(dir.join("bridge_header_player"))
        .current_dir(dir)
        .output()
        .expect("the header player runs");
    assert!(run.status.success());
    // sqrt 3, 4, 5 -> three pending, best 5 read back from the file, 3 distinct values.
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "think: colour 3 piece 3 dice 8\n"
    );

    // Control: the same player against a GUIPlayer.h that includes only the course headers does
    // not compile, so the file really relies on what the stub provides.
    let bare = dir.join("bridge_bare_gui");
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::write(
        bare.join("GUIPlayer.h"),
        "#ifndef __GUI_PLAYER_H__\n#define __GUI_PLAYER_H__\n#include \"AIPlayer.h\"\n#include \"Attributes.h\"\n#endif\n",
    )
    .unwrap();
    let res = compile_header_player("bridge_header_player_bare", &bare);
    assert!(!res.status.success(), "the control compiled");
    let err = String::from_utf8_lossy(&res.stderr);
    for name in ["sqrt", "pow", "list", "queue", "priority_queue", "set"] {
        assert!(
            err.contains(&format!("'{name}' was not declared")),
            "no error for '{name}':\n{err}"
        );
    }
    assert!(
        err.contains("'std::ofstream log' has initializer but incomplete type"),
        "no error for ofstream:\n{err}"
    );
}

#[test]
fn build_script_refuses_what_is_not_a_course_checkout() {
    let script = root().join("scripts/bridge/parchis/build.sh");
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let out = Command::new("bash")
        .arg(&script)
        .arg(tmp)
        .args(["-o", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not look like a course Parchís checkout (missing include/Parchis.h)"),
        "{err}"
    );
    let out = Command::new("bash").arg(&script).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("usage: "));
}
