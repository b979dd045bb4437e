//! `tablero analyse` (docs/review.md): every engine move of real recorded games judged, values
//! consistent with the search and the solver, proven results marked in game terms, the output a
//! records file `report` reads, the same annotations for any concurrency and from a protocol
//! engine as in-process, bad records reported and skipped, a broken engine stopping the run and
//! `--resume` continuing it to the same file as an uninterrupted run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tablero::core::game::{Game, try_play};
use tablero::core::search::{Limits, SearchOptions, Searcher};
use tablero::core::spec::default_config;
use tablero::games::boom::Boom;
use tablero::games::connect4::Connect4;
use tablero::review::Value as RValue;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tablero-review-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn tablero(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn ok(o: Output) -> Output {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn lines(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn games(p: &Path) -> Vec<Value> {
    lines(p)
        .into_iter()
        .filter(|v| v.get("game").is_some())
        .collect()
}

/// A Connect Four match of weak built-in players (blunders guaranteed), `n` games from openings
/// of `plies` random plies.
fn c4_records_from(name: &str, n: usize, plies: usize) -> PathBuf {
    let p = tmp(name);
    ok(tablero(&[
        "match",
        "--game",
        "connect4",
        "--engine1",
        "builtin:ninja1",
        "--engine2",
        "builtin:random",
        "--games",
        &n.to_string(),
        "--openings",
        &format!("random:{plies}"),
        "--records",
        p.to_str().unwrap(),
    ]));
    p
}

fn c4_records(name: &str, n: usize) -> PathBuf {
    c4_records_from(name, n, 2)
}

fn analyse(input: &Path, output: &Path, extra: &[&str]) -> Output {
    let mut a = vec![
        "analyse",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
    ];
    a.extend_from_slice(extra);
    tablero(&a)
}

/// The moves of a game line from its start (opening included), and the positions.
fn positions<G: Game>(g: &Value) -> (Vec<G>, usize) {
    let cfg = default_config::<G>().unwrap();
    let mut s = G::start(&cfg);
    let book: Vec<&str> = g["opening"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    for m in &book {
        s = try_play(&s, m).unwrap();
    }
    let mut out = vec![s];
    for m in g["moves"].as_array().unwrap() {
        s = try_play(&s, m["move"].as_str().unwrap()).unwrap();
        out.push(s);
    }
    (out, book.len())
}

#[test]
fn every_move_is_judged_consistently_and_report_reads_the_output() {
    // Openings of 8 stones: from the first engine move on, the solver proves most positions.
    let rec = c4_records_from("judged.jsonl", 6, 8);
    let out = tmp("judged-out.jsonl");
    let o = ok(analyse(
        &rec,
        &out,
        &["--depth", "6", "--solver-nodes", "300000"],
    ));
    let table = String::from_utf8(o.stdout).unwrap();
    assert!(
        table.starts_with("engine  games  moves accuracy"),
        "{table}"
    );
    assert!(table.contains("ninja1") && table.contains("random"));
    let all = lines(&out);
    let input = lines(&rec);
    // The header is the input's, with the review's settings added.
    let mut h = all[0].clone();
    assert_eq!(h["review"]["depth"], 6);
    h.as_object_mut().unwrap().remove("review");
    assert_eq!(h, input[0]);
    let mut verdicts = 0;
    let mut searched = 0;
    for (g, orig) in games(&out).iter().zip(&input[1..]) {
        // Nothing of the record changed but the added reviews.
        let mut stripped = g.clone();
        stripped.as_object_mut().unwrap().remove("review");
        for m in stripped["moves"].as_array_mut().unwrap() {
            m.as_object_mut().unwrap().remove("review");
        }
        assert_eq!(&stripped, orig);
        let (states, _) = positions::<Connect4>(g);
        let mut searcher = Searcher::<Connect4>::new(16);
        let stop = std::sync::atomic::AtomicBool::new(false);
        for (k, m) in g["moves"].as_array().unwrap().iter().enumerate() {
            let r = &m["review"];
            let value = RValue::parse(r["value"].as_str().unwrap()).unwrap();
            let played = RValue::parse(r["played"].as_str().unwrap()).unwrap();
            let es = r["es"].as_array().unwrap();
            let loss = r["loss"].as_f64().unwrap();
            assert!(loss >= 0.0);
            assert!(
                (loss - (es[0].as_f64().unwrap() - es[1].as_f64().unwrap()).max(0.0)).abs() < 2e-4
            );
            let s = &states[k];
            assert!(s.parse_move(r["best"].as_str().unwrap()).is_ok(), "{r}");
            // Proven on both sides: the mark is in game terms.
            if let (Some(a), Some(b)) = (value.wdl(), played.wdl()) {
                if b < a {
                    assert_eq!(r["mark"], "??", "{r}");
                    let v = r["verdict"].as_str().unwrap();
                    assert_eq!(v, format!("{}-{}", a.word(), b.word()));
                    verdicts += 1;
                } else {
                    assert!(r.get("mark").is_none() && r.get("verdict").is_none(), "{r}");
                    assert_eq!(loss, 0.0);
                }
            }
            // A searched value is the search's own, for the position and for the move played.
            if r["depth"] == 6 && matches!(value, RValue::Cp(_)) && r.get("forced").is_none() {
                searched += 1;
                let lim = Limits {
                    depth: Some(6),
                    ..Limits::default()
                };
                let full = searcher.search(s, SearchOptions::default(), lim, &stop, |_| {});
                assert_eq!(RValue::from_score(full.score, full.proven), value, "{r}");
                let mv = s.parse_move(m["move"].as_str().unwrap()).unwrap();
                if matches!(played, RValue::Cp(_)) {
                    let only = searcher.search_moves(
                        s,
                        Some(&[mv]),
                        SearchOptions::default(),
                        lim,
                        &stop,
                        |_| {},
                    );
                    assert_eq!(RValue::from_score(only.score, only.proven), played, "{r}");
                }
            }
        }
        // Each player's figures count its judged moves.
        let players = g["review"]["players"].as_array().unwrap();
        let judged: usize = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["review"].get("forced").is_none())
            .count();
        assert_eq!(
            players[0]["moves"].as_u64().unwrap() + players[1]["moves"].as_u64().unwrap(),
            judged as u64
        );
        assert_eq!(players[0]["name"], g["first"]);
    }
    assert!(verdicts > 0, "random throws proven results away");
    assert!(searched > 0, "some positions were searched, not proven");
    // `report` reads the annotated records: the same table as from the input, then the
    // review's.
    let a = ok(tablero(&["report", rec.to_str().unwrap()]));
    let b = ok(tablero(&["report", out.to_str().unwrap()]));
    let (a, b) = (
        String::from_utf8_lossy(&a.stdout),
        String::from_utf8_lossy(&b.stdout),
    );
    let review = b.strip_prefix(&*a).unwrap_or_else(|| panic!("{a}\n{b}"));
    assert!(
        review.starts_with("review (tablero analyse) of "),
        "{review}"
    );
    let html = tmp("judged.html");
    ok(tablero(&[
        "report",
        out.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("\"review\":{") && page.contains("TableroReview"));
}

#[test]
fn same_annotations_for_any_concurrency_and_from_a_protocol_engine() {
    let rec = c4_records("det.jsonl", 4);
    let a = tmp("det-a.jsonl");
    let b = tmp("det-b.jsonl");
    let c = tmp("det-c.jsonl");
    let d = tmp("det-d.jsonl");
    ok(analyse(&rec, &a, &["--depth", "5", "--solver-nodes", "0"]));
    ok(analyse(
        &rec,
        &b,
        &["--depth", "5", "--solver-nodes", "0", "--concurrency", "3"],
    ));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // tablero through the protocol gives the same values and best moves as in-process; only
    // the engine's name in the settings differs.
    ok(analyse(
        &rec,
        &c,
        &[
            "--depth",
            "5",
            "--solver-nodes",
            "0",
            "--engine",
            BIN,
            "--option",
            "Hash=16",
        ],
    ));
    // (A protocol engine proves wins and losses, `mate N`; a proven draw is `cp 0` there.)
    let strip = |p: &Path| -> Vec<Value> {
        games(p)
            .into_iter()
            .map(|mut g| {
                g.as_object_mut().unwrap().remove("review");
                for m in g["moves"].as_array_mut().unwrap() {
                    for k in ["value", "played"] {
                        if m["review"][k] == "draw" {
                            m["review"][k] = Value::from("cp 0");
                        }
                    }
                }
                g
            })
            .collect()
    };
    assert_eq!(strip(&a), strip(&c));
    // With the solver the annotations are reproducible too.
    ok(analyse(&rec, &d, &["--depth", "5", "--concurrency", "2"]));
    let e = tmp("det-e.jsonl");
    ok(analyse(&rec, &e, &["--depth", "5"]));
    assert_eq!(std::fs::read(&d).unwrap(), std::fs::read(&e).unwrap());
}

/// Same records, options and limits: the same annotations, byte for byte, run after run; and a
/// game is judged alike whatever was analysed before it (alone, or last of a file): every
/// position is searched from an empty table (src/review/analyst.rs).
#[test]
fn same_records_same_annotations_whatever_came_before() {
    let rec = c4_records_from("order.jsonl", 4, 4);
    let args = ["--depth", "7", "--solver-nodes", "0"];
    let a = tmp("order-a.jsonl");
    let b = tmp("order-b.jsonl");
    ok(analyse(&rec, &a, &args));
    ok(analyse(&rec, &b, &args));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let ls = lines(&rec);
    let last = tmp("order-last.jsonl");
    std::fs::write(&last, format!("{}\n{}\n", ls[0], ls[ls.len() - 1])).unwrap();
    let c = tmp("order-c.jsonl");
    ok(analyse(&last, &c, &[&args[..], &["--partial"]].concat()));
    let (all, alone) = (games(&a), games(&c));
    assert_eq!(alone.len(), 1);
    assert_eq!(all[all.len() - 1], alone[0]);
}

#[test]
fn bad_records_are_reported_and_skipped_and_nothing_else_is_lost() {
    let rec = c4_records("bad.jsonl", 4);
    let mut ls: Vec<Value> = lines(&rec);
    // Game 1: an illegal move (a full column) at its third engine move.
    let (states, book) = positions::<Connect4>(&ls[2]);
    let full = (1..=7)
        .find(|c| states[2].parse_move(&c.to_string()).is_err())
        .map(|c| c.to_string());
    let bad_move = full.unwrap_or_else(|| "9".into());
    ls[2]["moves"][2]["move"] = Value::from(bad_move.clone());
    // Game 2: the result the rules do not give.
    let flipped = if ls[3]["result"] == "1-0" {
        "0-1"
    } else {
        "1-0"
    };
    ls[3]["result"] = Value::from(flipped);
    ls[3]["winner"] = Value::from(if ls[3]["winner"] == 1 { 2 } else { 1 });
    let text: String = ls.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&rec, text).unwrap();
    let out = tmp("bad-out.jsonl");
    let o = ok(analyse(
        &rec,
        &out,
        &["--depth", "4", "--solver-nodes", "0"],
    ));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("game 1 (") && err.contains(&format!("ply {} (move '{bad_move}')", book + 3)),
        "{err}"
    );
    assert!(
        err.contains("game 2 (") && err.contains("the rules give"),
        "{err}"
    );
    let gs = games(&out);
    assert_eq!(gs.len(), 4, "every game is in the output");
    assert!(gs[1]["review"]["error"].as_str().unwrap().contains("ply"));
    assert!(
        gs[2]["review"]["error"]
            .as_str()
            .unwrap()
            .contains("the rules give")
    );
    for g in [&gs[0], &gs[3]] {
        assert!(g["review"]["players"].is_array());
        assert!(g["moves"][0]["review"]["value"].is_string());
    }
    assert!(gs[1]["moves"][0].get("review").is_none());
}

#[test]
fn a_broken_engine_stops_the_run_and_resume_finishes_it() {
    let rec = c4_records("crash.jsonl", 4);
    let counter = tmp("crash-counter");
    let _ = std::fs::remove_file(&counter);
    let mock = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mock/crash_after.sh");
    let engine = format!("{} {} 40 {BIN}", mock.display(), counter.display());
    let out = tmp("crash-out.jsonl");
    let args = ["--depth", "4", "--engine", engine.as_str()];
    let o = analyse(&rec, &out, &args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("failed at game") && err.contains("ply") && err.contains("--resume"),
        "{err}"
    );
    let before = games(&out).len();
    assert!(before < 4, "the run stopped early");
    // A torn last line, as a kill would leave, is dropped too.
    let mut bytes = std::fs::read(&out).unwrap();
    bytes.extend_from_slice(b"{\"game\": 3, \"tor");
    std::fs::write(&out, bytes).unwrap();
    let mut resume = vec![
        "analyse",
        rec.to_str().unwrap(),
        "--resume",
        out.to_str().unwrap(),
    ];
    resume.extend_from_slice(&args);
    let o = ok(tablero(&resume));
    assert!(String::from_utf8_lossy(&o.stderr).contains("torn last line"));
    // The same file as a run that never failed (the real engine throughout).
    let fresh = tmp("crash-fresh.jsonl");
    ok(analyse(&rec, &fresh, &args));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&fresh).unwrap());
    // Other settings: refused, the file left as it is.
    let o = tablero(&[
        "analyse",
        rec.to_str().unwrap(),
        "--resume",
        out.to_str().unwrap(),
        "--depth",
        "5",
        "--engine",
        engine.as_str(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("other settings") && err.contains("depth"),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&fresh).unwrap());
}

#[test]
fn gzip_records_review_as_the_plain_ones_and_a_compressed_output_is_not_continued() {
    let rec = c4_records("gz-input.jsonl", 2);
    let gz = tmp("gz-input.jsonl.gz");
    std::fs::write(&gz, crate::common::gzip(&std::fs::read(&rec).unwrap())).unwrap();
    let (plain_out, gz_out) = (tmp("gz-plain-out.jsonl"), tmp("gz-gz-out.jsonl"));
    ok(analyse(&rec, &plain_out, &["--depth", "4"]));
    ok(analyse(&gz, &gz_out, &["--depth", "4"]));
    assert_eq!(games(&plain_out), games(&gz_out));
    // The review appends to its output: a compressed one is refused and left as it is.
    let before = std::fs::read(&gz).unwrap();
    let o = tablero(&[
        "analyse",
        rec.to_str().unwrap(),
        "--resume",
        gz.to_str().unwrap(),
        "--depth",
        "4",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is gzip-compressed"), "{err}");
    assert_eq!(std::fs::read(&gz).unwrap(), before);
}

#[test]
fn multi_move_turns_are_judged_as_turns() {
    let rec = tmp("boom.jsonl");
    ok(tablero(&[
        "match",
        "--game",
        "connect4boom",
        "--engine1",
        "builtin:greedy",
        "--engine2",
        "builtin:random",
        "--games",
        "2",
        "--records",
        rec.to_str().unwrap(),
    ]));
    let out = tmp("boom-out.jsonl");
    ok(analyse(&rec, &out, &["--depth", "2"]));
    let mut turns = 0;
    for g in games(&out) {
        let (states, _) = positions::<Boom>(&g);
        let ms = g["moves"].as_array().unwrap();
        for (k, m) in ms.iter().enumerate() {
            let t = &m["review"]["turn"];
            // The last move of a run of moves by one side carries the turn's judgement.
            let side = states[k].side_to_move();
            let run_ends = k + 1 == ms.len() || states[k + 1].side_to_move() != side;
            let run_len = (0..=k)
                .rev()
                .take_while(|&j| states[j].side_to_move() == side)
                .count();
            if run_ends && run_len > 1 {
                turns += 1;
                assert_eq!(t["plies"].as_u64(), Some(run_len as u64), "{m}");
                let first = &ms[k + 1 - run_len]["review"]["es"][0];
                let last = &m["review"]["es"][1];
                let want = (first.as_f64().unwrap() - last.as_f64().unwrap()).max(0.0);
                assert!((t["loss"].as_f64().unwrap() - want).abs() < 2e-4, "{m}");
            } else {
                assert!(t.is_null(), "{m}");
            }
        }
    }
    assert!(turns > 0, "BOOM has turns of two movements");
}

#[test]
fn bad_command_lines_are_one_line() {
    let rec = c4_records("cli.jsonl", 2);
    for (args, needle) in [
        (vec!["--depth", "0"], "--depth"),
        (vec!["--engine", "builtin:nobody"], "--engine"),
        (vec!["--option", "Hash=5"], "--option Hash"),
        (vec!["--option", "Heuristic=nope"], "unknown heuristic"),
        (vec!["--concurrency", "0"], "--concurrency"),
    ] {
        let o = analyse(&rec, &tmp("cli-out.jsonl"), &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let o = tablero(&["analyse", "/nonexistent/records.jsonl", "-o", "x.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
}

/// The panels of one of `scripts/review_accuracy.py`'s figures: (title, its lines).
fn figure_panels(svg: &str) -> Vec<(String, String)> {
    svg.split("<g class=\"panel\" data-title=\"")
        .skip(1)
        .map(|p| {
            let (title, rest) = p.split_once('"').unwrap();
            let body = &rest[..rest.find("</g>").unwrap()];
            (title.to_string(), body.to_string())
        })
        .collect()
}

/// docs/review.md's figures: `--update` draws only the games given and keeps every other panel
/// exactly as it was, in its place; a file with no panels of the script is refused in one line.
#[test]
fn accuracy_figure_update_keeps_the_other_panels() {
    // The script rates engines with `tablero report`, which rates a tournament's records.
    let rec = tmp("fig.jsonl");
    ok(tablero(&[
        "tournament",
        "--game",
        "connect4",
        "--engine",
        "random=builtin:random",
        "--engine",
        "greedy=builtin:greedy",
        "--engine",
        "ninja1=builtin:ninja1",
        "--rounds",
        "2",
        "--openings",
        "random:2",
        "--seed",
        "3",
        "--records",
        rec.to_str().unwrap(),
    ]));
    let ann = tmp("fig-ann.jsonl");
    ok(analyse(&rec, &ann, &["--depth", "2"]));
    let deeper = tmp("fig-deeper.jsonl");
    ok(analyse(&rec, &deeper, &["--depth", "4"]));
    let svg = tmp("fig.svg");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/review_accuracy.py");
    let run = |extra: &[&str], specs: &[String]| {
        let mut c = Command::new("python3");
        c.args([script, "--tablero", BIN, "--svg", svg.to_str().unwrap()]);
        c.args(extra).args(specs);
        c.output().unwrap()
    };
    let spec = |title: &str, a: &Path| format!("{title}:{}:{}", rec.display(), a.display());
    ok(run(&[], &[spec("Alpha", &ann), spec("Beta", &ann)]));
    let first = figure_panels(&std::fs::read_to_string(&svg).unwrap());
    assert_eq!(
        first.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
        ["Alpha", "Beta"]
    );
    // Alpha again with a deeper review beside it: Beta untouched, Alpha redrawn in place with
    // the second series; a new game takes the next place.
    let deep_spec = format!("{}:{}", spec("Alpha", &ann), deeper.display());
    let o = ok(run(&["--update"], &[deep_spec, spec("Gamma", &ann)]));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Spearman"));
    let text = std::fs::read_to_string(&svg).unwrap();
    let second = figure_panels(&text);
    assert_eq!(
        second.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
        ["Alpha", "Beta", "Gamma"]
    );
    assert_eq!(second[1], first[1]);
    assert_ne!(second[0], first[0]);
    assert!(second[0].1.contains("#D55E00") && !first[0].1.contains("#D55E00"));
    assert!(text.contains("two plies deeper"));
    // Gamma sits in the third place: the second row, left.
    assert!(
        second[2].1.contains("<rect x=\"40\" y=\"262\""),
        "{}",
        second[2].1
    );
    // Nothing to keep: refused, the file as it was.
    std::fs::write(&svg, "<svg></svg>\n").unwrap();
    let o = run(&["--update"], &[spec("Alpha", &ann)]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.trim().lines().count() == 1 && err.contains("without --update"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), "<svg></svg>\n");
    // No tablero to rate with, or records it cannot read: one line naming the fix, nothing drawn.
    let missing = tmp("no-such-tablero");
    let o = Command::new("python3")
        .args([script, "--tablero", missing.to_str().unwrap(), "--svg"])
        .arg(&svg)
        .arg(spec("Alpha", &ann))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.trim().lines().count() == 1 && err.contains("pass --tablero BIN"),
        "{err}"
    );
    let gone = tmp("no-such-records.jsonl");
    let o = run(
        &[],
        &[format!("Alpha:{}:{}", gone.display(), ann.display())],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.trim().lines().count() == 1
            && err.contains("report")
            && err.contains("no-such-records"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), "<svg></svg>\n");
}
