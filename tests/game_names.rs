//! `--game`: never a silent guess. A command that plays one game and cannot tell which asks for
//! it; `class` tells it from the output folder, the course checkout or the submissions, and says
//! so (a Mancala class ran as Parchís: every build "missing", exit 0); a checkout of another
//! course names the game it looks like; the names people type (`kalah`, `boom`, `conecta4`,
//! `Parchís`) work, and a typo gets a "did you mean"; a command the game does not apply to
//! refuses `--game`.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use common::{BIN, fresh_dir, refused};

fn tablero(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("CXXFLAGS", "-O0")
        .output()
        .expect("tablero runs")
}

#[test]
fn commands_that_cannot_tell_the_game_ask_for_it() {
    refused(
        &tablero(&["perft", "--depth", "2"]),
        "perft: which game? Give --game parchis,",
    );
    refused(
        &tablero(&[
            "match",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:greedy",
        ]),
        "match: which game?",
    );
    refused(
        &tablero(&[
            "tournament",
            "--engine",
            "a=builtin:random",
            "--engine",
            "b=builtin:greedy",
        ]),
        "tournament: which game?",
    );
    refused(&tablero(&["render"]), "render: which game?");
    refused(&tablero(&["solve"]), "solve: which game?");
    refused(&tablero(&["learn", "--games", "2"]), "learn: which game?");
    // Given before or after the command, the same; both must agree.
    let before = tablero(&["--game", "connect4", "perft", "--depth", "2"]);
    let after = tablero(&["perft", "--game", "connect4", "--depth", "2"]);
    assert_eq!(common::stdout(&before), common::stdout(&after));
    refused(
        &tablero(&[
            "--game", "connect4", "perft", "--game", "mancala", "--depth", "2",
        ]),
        "--game connect4 before the command and --game mancala after it: give one",
    );
}

#[test]
fn the_names_people_type() {
    let perft = |g: &str| common::stdout(&tablero(&["perft", "--game", g, "--depth", "2"]));
    let mancala = perft("mancala");
    assert!(mancala.ends_with("nodes 35\n"), "{mancala}");
    assert_eq!(perft("kalah"), mancala);
    assert_eq!(perft("Mancala"), mancala);
    assert_eq!(perft("Parchís"), perft("parchis"));
    assert_eq!(perft("boom"), perft("connect4boom"));
    assert_eq!(perft("conecta4"), perft("connect4"));
    refused(
        &tablero(&["perft", "--game", "mancla", "--depth", "1"]),
        "--game: unknown game 'mancla'; did you mean 'mancala'?",
    );
    refused(
        &tablero(&["perft", "--game", "kalha", "--depth", "1"]),
        "did you mean 'mancala' (kalah)?",
    );
    refused(
        &tablero(&["bench", "--only", "conect4"]),
        "--only: unknown game 'conect4'; did you mean 'connect4'?",
    );
}

#[test]
fn commands_without_a_game_refuse_one() {
    refused(
        &tablero(&["--game", "connect4", "report", "x.jsonl"]),
        "--game connect4: `report` takes no --game (the records say it)",
    );
    refused(
        &tablero(&["--game", "mancala", "bench"]),
        "`bench` takes no --game (it searches every game; --only picks one)",
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// The class: Mancala bots handed in, `class SUBMISSIONS -o OUT` without `--game`. It
/// was a Parchís class (every build "missing"); now the submissions tell the game and the
/// first line says so.
#[test]
fn a_class_tells_its_game_from_the_submissions_and_says_so() {
    let d = fresh_dir("class-infer");
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class_mock/mancala_bot");
    for s in ["ana", "ben"] {
        copy_dir(&bot, &d.join("subs").join(s));
    }
    let subs = d.join("subs");
    let out = d.join("out");
    let o = tablero(&[
        "class",
        subs.to_str().unwrap(),
        "--build-only",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("(mancala: 2 of 2 submissions hold Mancala bot sources; --game sets it)"),
        "{stderr}"
    );
    assert!(
        stdout.starts_with("builds: 2 of 2 submissions built\n"),
        "{stdout}"
    );
    // Then the output folder tells it (a report of the builds, no games yet).
    let o = tablero(&["class", "--report-only", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A class of ready programs only: nothing tells, so it asks.
    let progs = d.join("progs/ana");
    std::fs::create_dir_all(&progs).unwrap();
    std::fs::write(progs.join("engine"), "#!/bin/sh\n").unwrap();
    let o = tablero(&[
        "class",
        d.join("progs").to_str().unwrap(),
        "-o",
        d.join("out2").to_str().unwrap(),
    ]);
    refused(&o, "class: which game?");
}
