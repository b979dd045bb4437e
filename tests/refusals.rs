//! An engine that answers `info string error` to what it is sent (a misspelt option, a bad
//! value, a variant it does not play, a position it cannot take) is not playing what is being
//! measured: `match`, `tournament`, `tune` and `analyse` stop with the engine's own line and exit
//! code 2 before any game; a refused position stops a match where it happens; a class goes on
//! without the student's engine, which is out and said to be; the browser board's worker reports
//! the refusal as one that restarting will not cure. Every command here takes well under a
//! second with the refusal (a refused position used to cost `--timeout` per game).

use crate::common;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{BIN, fresh, fresh_dir};

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("tablero runs")
}

/// Exit code 2, nothing on stdout, one line on stderr holding every `needle`.
fn stopped(o: &Output, needles: &[&str]) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(
        o.stdout.is_empty(),
        "no result from a refused run: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "'{n}' in: {err}");
    }
    err
}

/// The command: a misspelt option of engine 1 printed a normal table and exit 0.
#[test]
fn a_match_with_a_misspelt_option_stops_before_its_first_game() {
    let o = run(&[
        "match",
        "--game",
        "connect4",
        "--engine1",
        BIN,
        "--engine2",
        "builtin:greedy",
        "--depth",
        "4",
        "--option1",
        "Hsah=16",
    ]);
    stopped(
        &o,
        &[
            "engine 'tablero' refused its settings",
            "info string error: setoption: unknown option 'Hsah'",
        ],
    );
    // A bad value, and a variant the engine does not play (a course Mancala bot in Connect
    // Four), the same.
    let o = run(&[
        "match",
        "--game",
        "connect4",
        "--engine1",
        BIN,
        "--engine2",
        "builtin:random",
        "--option",
        "Heuristic=nope",
    ]);
    stopped(&o, &["refused its settings", "unknown heuristic 'nope'"]);
    let o = run(&[
        "match",
        "--game",
        "connect4",
        "--engine1",
        "builtin:random",
        "--engine2",
        &format!("{BIN} --player greedy"),
        "--option2",
        "Threads=2",
    ]);
    stopped(&o, &["'tablero --player greedy' refused", "'Threads'"]);
}

/// An engine's own option that sets the rules (`--option1 Rows=19`, `option.InARow=4`) to
/// other values than the referee's: every game used to end in "illegal moves" that were the
/// setting's (a table of 0-2 losses). Now nothing is played and no records are written; the
/// same value as the referee's, by number or by name, is accepted.
#[test]
fn an_engine_of_other_rules_than_the_referee_is_refused() {
    let records = fresh("variant-refused.jsonl");
    let r = records.to_str().unwrap();
    let o = run(&[
        "match",
        "--game",
        "enraya",
        "--engine1",
        BIN,
        "--engine2",
        "builtin:ninja1",
        "--option1",
        "Rows=19",
        "--depth",
        "1",
        "--games",
        "2",
        "--records",
        r,
    ]);
    stopped(
        &o,
        &[
            "engine 'tablero': its option Rows=19 sets the rules, but the referee plays Rows 9",
            "(--option Rows=19; nothing was played)",
        ],
    );
    assert!(!records.exists(), "no records from a refused match");
    // Two games of Parchís between two `random` players, with `options`.
    let parchis = |options: &[&str]| {
        let mut args = vec![
            "match",
            "--game",
            "parchis",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:random",
            "--games",
            "2",
        ];
        args.extend_from_slice(options);
        run(&args)
    };
    let o = parchis(&["--option2", "year=2021-22"]);
    stopped(
        &o,
        &["its option Year=2021-22", "the referee plays Year 2022-23"],
    );
    let o = run(&[
        "tournament",
        "--game",
        "enraya",
        "--engine",
        "a=builtin:random",
        "--engine",
        "b=builtin:random option.InARow=4",
        "--depth",
        "1",
    ]);
    stopped(
        &o,
        &["engine 'b': its option InARow=4", "referee plays InARow 5"],
    );
    for (shared, own) in [
        ("Year=2021-22", "YEAR=2021-22"),
        ("Year=2021-22", "Year=2021"),
    ] {
        let o = parchis(&["--option", shared, "--option2", own]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// A position the engine refuses (here: engine 1 plays a 5-column board, the referee 7
/// columns) stops the match at that game; the records keep what was played before it. The
/// engine narrows its own board after the handshake (tests/mock/narrow.sh): told to the
/// referee, a per-engine variant option is refused before any game
/// (`an_engine_of_other_rules_than_the_referee_is_refused`).
#[test]
fn a_refused_position_stops_the_match_where_it_happens() {
    let rec = fresh("refused-position.jsonl");
    let narrow = format!("{}/tests/mock/narrow.sh {BIN}", env!("CARGO_MANIFEST_DIR"));
    let t0 = Instant::now();
    let o = Command::new(BIN)
        .args([
            "match",
            "--game",
            "connect4",
            "--engine1",
            &narrow,
            "--name1",
            "tablero",
        ])
        .args([
            "--engine2",
            "builtin:random",
            "--depth",
            "1",
            "--games",
            "4",
        ])
        .args(["--openings", "random:4", "--seed", "1"])
        .args(["--timeout", "3000", "--records"])
        .arg(&rec)
        .output()
        .unwrap();
    stopped(
        &o,
        &[
            "engine 'tablero' refused a position of game 0",
            "info string error: position:",
            "is not in 1..5",
        ],
    );
    assert!(
        t0.elapsed() < Duration::from_secs(3),
        "no wait for --timeout"
    );
    let text = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(text.lines().count(), 1, "the header, no game: {text}");
}

#[test]
fn a_tournament_with_a_refusing_engine_stops_before_its_first_game() {
    let o = run(&[
        "tournament",
        "--game",
        "connect4",
        "--engine",
        "a=builtin:random",
        "--engine",
        &format!("b={BIN} option.Heuristic=nope"),
        "--engine",
        "c=builtin:greedy",
        "--depth",
        "1",
    ]);
    stopped(
        &o,
        &[
            "engine 'b' refused its settings",
            "unknown heuristic 'nope'",
        ],
    );
}

#[test]
fn tune_with_a_refused_option_stops_before_its_first_game() {
    let out = fresh("refused-tune.jsonl");
    let o = Command::new(BIN)
        .args(["tune", "--game", "connect4", "--engine", BIN])
        .args(["--param", "Connect4W_centre=29,0,100,3,0.05"])
        .args(["--option", "Hsah=16", "--iterations", "2", "--depth", "1"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    stopped(&o, &["refused its settings", "unknown option 'Hsah'"]);
}

#[test]
fn analyse_with_an_engine_that_refuses_its_options_stops() {
    let rec = fresh("refused-analyse-games.jsonl");
    let o = Command::new(BIN)
        .args(["match", "--game", "connect4", "--engine1", "builtin:random"])
        .args(["--engine2", "builtin:greedy", "--games", "2", "--records"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = fresh("refused-analyse.jsonl");
    let o = Command::new(BIN)
        .arg("analyse")
        .arg(&rec)
        .arg("-o")
        .arg(&out)
        .args(["--engine", BIN, "--option", "Hsah=16", "--depth", "2"])
        .output()
        .unwrap();
    stopped(&o, &["refused its settings", "unknown option 'Hsah'"]);
}

/// A class goes on without a student whose engine refuses its options (`tablero.options`):
/// the student is out, told once on stderr, every game of it lost, and the standings say why.
#[test]
fn a_class_goes_on_without_a_student_whose_engine_refuses_its_options() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fresh_dir("refused-class");
    let subs = dir.join("submissions");
    for (name, options) in [("ana", None), ("bea", Some("Hsah=16\n"))] {
        let d = subs.join(name);
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join("engine");
        std::fs::write(&p, format!("#!/bin/sh\nexec {BIN} \"$@\"\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        if let Some(o) = options {
            std::fs::write(d.join("tablero.options"), o).unwrap();
        }
    }
    let o = Command::new(BIN)
        .args(["class", "--game", "connect4"])
        .arg(&subs)
        .args(["--builtins", "random", "--depth", "1", "-o"])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{err}");
    let told: Vec<&str> = err.lines().filter(|l| l.contains("bea is out")).collect();
    assert_eq!(told.len(), 1, "told once: {err}");
    assert!(told[0].contains("unknown option 'Hsah'"), "{err}");
    assert!(
        out.contains(
            "out: bea (refused its settings: info string error: setoption: unknown option 'Hsah'"
        ),
        "{out}"
    );
    let bea = out
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("bea"))
        .unwrap_or_else(|| panic!("{out}"));
    // rank, name, elo, ±, points 0, games 4, wins 0, draws 0, losses 4
    let cols: Vec<&str> = bea.split_whitespace().collect();
    assert_eq!(&cols[4..9], ["0", "4", "0", "0", "4"], "{bea}");
}

/// The browser board's worker: an engine that refuses its options is reported as refused (the
/// page pauses instead of starting it again and again).
#[test]
fn the_board_worker_reports_a_refusal_as_such() {
    use tablero::games::GameKind;
    use tablero::gui::engines::{EngineFailure, Event, Job, Setup, Think, worker};
    use tablero::referee::EngineSpec;
    let (jobs_tx, jobs_rx) = std::sync::mpsc::channel();
    let (events_tx, events_rx) = std::sync::mpsc::channel();
    let w = std::thread::spawn(move || worker(0, jobs_rx, events_tx));
    jobs_tx
        .send(Job::Think(Think {
            id: 1,
            setup: Setup {
                name: "me".into(),
                spec: EngineSpec::Command(vec![BIN.into()]),
                kind: GameKind::Connect4,
                options: vec![("Hsah".into(), "16".into())],
            },
            position: "position startpos".into(),
            go: "go depth 1".into(),
            min_time: Duration::ZERO,
            max_time: None,
        }))
        .unwrap();
    let ev = events_rx
        .recv_timeout(Duration::from_secs(20))
        .expect("an event");
    match ev {
        Event::Failed { failure, .. } => {
            let msg = failure.to_string();
            assert!(
                matches!(failure, EngineFailure::RefusedSettings(_)),
                "{msg}"
            );
            assert!(failure.refused(), "{msg}");
            assert!(msg.contains("unknown option 'Hsah'"), "{msg}");
        }
        e => panic!("expected a refusal, got {e:?}"),
    }
    drop(jobs_tx);
    w.join().unwrap();
}
