//! The HTML match report in a real headless Chromium: a report built from a real short match
//! opens from disk, a recorded game steps with buttons, keys and clicks on the move list, the
//! state string shown at each ply is the one the rules give when the recorded moves are replayed
//! here, and the result filter shows what it says. Screenshots go to
//! `target/screenshots/report-*.png`.
//!
//! The ignored test `thousand_parchis_games` is the size and speed benchmark (1,000 Parchís games,
//! page size, first view, one ply step); run it alone with
//! `cargo test --test all report_browser::thousand -- --ignored --nocapture`.

use crate::browser;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use browser::Browser;
use serde_json::{Value, json};
use tablero::core::game::{Game, try_play};
use tablero::games::connect4::Connect4;
use tablero::games::parchis::Parchis;
use tablero::view::Draw;

use crate::common;
use common::{BIN, tmp};

fn run(args: &[&str], paths: &[&Path]) {
    let out = Command::new(BIN).args(args).args(paths).output().unwrap();
    assert!(
        out.status.success(),
        "tablero {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes `games` as the game lines of the records file at `path`, after its header line.
fn rewrite_games(path: &Path, games: &[Value]) {
    let header = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let lines: Vec<String> = games.iter().map(Value::to_string).collect();
    std::fs::write(path, format!("{header}\n{}\n", lines.join("\n"))).unwrap();
}

/// The game lines of a records file (its header line skipped).
fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] != "match")
        .collect()
}

/// The moves of a recorded game (opening moves included) and every position, from the rules
/// (default variant options, start position).
fn replay_as<G: Game>(rec: &Value) -> (Vec<String>, Vec<G>) {
    let defaults: Vec<i64> = G::OPTIONS.iter().map(|o| o.default).collect();
    replay_with(rec, &G::configure(&defaults).unwrap())
}

/// [`replay_as`] under the variant configuration `cfg`.
fn replay_with<G: Game>(rec: &Value, cfg: &G::Config) -> (Vec<String>, Vec<G>) {
    assert_eq!(rec["opening"]["base"], "startpos");
    let book = rec["opening"]["moves"].as_array().unwrap().iter();
    let played = rec["moves"].as_array().unwrap().iter().map(|m| &m["move"]);
    let moves: Vec<String> = book
        .chain(played)
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let mut s = G::start(cfg);
    let mut out = vec![s];
    for m in &moves {
        s = try_play(&s, m).unwrap();
        out.push(s);
    }
    (moves, out)
}

fn replay(rec: &Value) -> (Vec<String>, Vec<Connect4>) {
    replay_as::<Connect4>(rec)
}

/// The state string after every ply of a recorded game.
fn expected_fens(rec: &Value) -> Vec<String> {
    replay(rec).1.iter().map(|s| s.format_fen()).collect()
}

/// The keys of the marks Rust draws at `ply` of a recorded game (keyless marks as the page keys
/// them), in drawing order.
fn mark_keys<G: Draw>(rec: &Value, ply: usize) -> Vec<String> {
    let defaults: Vec<i64> = G::OPTIONS.iter().map(|o| o.default).collect();
    mark_keys_with::<G>(rec, &G::configure(&defaults).unwrap(), ply)
}

/// [`mark_keys`] under the variant configuration `cfg`.
fn mark_keys_with<G: Draw>(rec: &Value, cfg: &G::Config, ply: usize) -> Vec<String> {
    let (moves, pos) = replay_with::<G>(rec, cfg);
    let last = (ply > 0).then(|| {
        (
            &pos[ply - 1],
            pos[ply - 1].parse_move(&moves[ply - 1]).unwrap(),
        )
    });
    pos[ply]
        .marks(last)
        .iter()
        .enumerate()
        .map(|(i, it)| {
            if it.key.is_empty() {
                format!("#{i}")
            } else {
                it.key.clone()
            }
        })
        .collect()
}

/// The keys of the marks on the page's board now, in drawing order.
fn dom_keys(b: &Browser) -> Value {
    b.eval("[...document.querySelectorAll('#board svg > g:nth-of-type(2) > *')].map(e => e.getAttribute('data-k'))")
}

fn url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

fn fen(b: &Browser) -> String {
    b.eval("document.getElementById('fen').value")
        .as_str()
        .unwrap()
        .to_string()
}

fn ply(b: &Browser) -> u64 {
    b.eval("tableroReport.state().ply").as_u64().unwrap()
}

#[test]
fn a_recorded_game_steps_through_the_rules_fens_and_filters_work() {
    let rec = tmp("c4.jsonl");
    let page = tmp("c4.html");
    // greedy vs ninja1: engine 1 loses most games, so every result filter has something to do.
    run(
        &[
            "match",
            "--game",
            "connect4",
            "--engine1",
            "builtin:greedy",
            "--engine2",
            "builtin:ninja1",
            "--depth",
            "2",
            "--openings",
            "random:2",
            "--games",
            "6",
            "--sprt",
            "elo0=0 elo1=20",
            "--records",
        ],
        &[&rec],
    );
    run(&["report", "--html"], &[&page, &rec]);
    let recs = records(&rec);
    let html = std::fs::read_to_string(&page).unwrap();
    for banned in ["http://", "https://", "<link", " src="] {
        // The only URL in the page is the SVG namespace (an identifier, never fetched).
        let n = html.matches(banned).count();
        let ns = html.matches("http://www.w3.org/2000/svg").count();
        assert!(
            n == 0 || (banned == "http://" && n == ns),
            "the page refers to something outside it: {banned}"
        );
    }

    let b = Browser::launch_sized(1280, 1000);
    b.goto(&url(&page));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(10),
        "the first view",
    );
    assert!(
        b.text("#table")
            .contains("Match greedy vs ninja1 (connect4), 6 games")
    );
    assert_eq!(b.count("#plots svg"), 3, "Elo, score and LLR plots");
    // Losses of engine 1 first.
    let first_row = b.eval("document.querySelector('#rows .row .res').textContent");
    let any_loss = recs.iter().any(|r| r["winner"] == 2);
    if any_loss {
        assert_eq!(first_row, "L");
    }
    b.screenshot("report-overview");

    // Open game 3 by clicking its row; step with buttons, keys and the move list.
    let g = 3;
    let fens = expected_fens(&recs[g]);
    let last = fens.len() as u64 - 1;
    assert!(last >= 6, "game {g} is long enough to step through");
    b.click(&format!(".row[data-game='{g}']"));
    b.wait_until(
        &format!("tableroReport.state() && tableroReport.state().game === {g}"),
        Duration::from_secs(5),
        "game 3 open",
    );
    assert_eq!((ply(&b), fen(&b)), (0, fens[0].clone()));
    for k in 1..=3 {
        b.click("#b-next");
        assert_eq!((ply(&b), fen(&b)), (k, fens[k as usize].clone()));
    }
    b.press("ArrowRight");
    assert_eq!((ply(&b), fen(&b)), (4, fens[4].clone()));
    b.press("ArrowLeft");
    b.press("ArrowLeft");
    assert_eq!((ply(&b), fen(&b)), (2, fens[2].clone()));
    b.press("End");
    assert_eq!((ply(&b), fen(&b)), (last, fens[last as usize].clone()));
    b.press("ArrowRight");
    assert_eq!(ply(&b), last, "no step past the end");
    b.press("Home");
    assert_eq!((ply(&b), fen(&b)), (0, fens[0].clone()));
    b.press("ArrowDown");
    assert_eq!(ply(&b), last);
    b.press("ArrowUp");
    assert_eq!(ply(&b), 0);
    b.click("#b-end");
    assert_eq!(fen(&b), fens[last as usize]);
    b.click("#b-start");
    assert_eq!(fen(&b), fens[0]);
    b.click("#moves .mv[data-ply='5']");
    assert_eq!((ply(&b), fen(&b)), (5, fens[5].clone()));
    assert!(b.text("#plyinfo").starts_with(&format!("ply 5 / {last}")));
    b.click("#b-prev");
    assert_eq!((ply(&b), fen(&b)), (4, fens[4].clone()));
    // The board's mark layer holds exactly the marks Rust draws for ply 4, in order.
    assert_eq!(dom_keys(&b), json!(mark_keys::<Connect4>(&recs[g], 4)));
    // The page times its own steps (reported by the benchmark below; no timing assertion here).
    let step = b.eval("window.tableroLastStepMs").as_f64().unwrap();
    assert!(step >= 0.0, "the page measured its step");
    b.screenshot("report-game");

    // Every other game also replays to the rules' final state string.
    for (i, r) in recs.iter().enumerate() {
        let f = expected_fens(r);
        b.eval(&format!("tableroReport.open({i})"));
        b.wait_until(
            &format!("tableroReport.state() && tableroReport.state().game === {i}"),
            Duration::from_secs(5),
            "game open",
        );
        b.press("End");
        assert_eq!(fen(&b), *f.last().unwrap(), "game {i}");
        assert_eq!(dom_keys(&b), json!(mark_keys::<Connect4>(r, f.len() - 1)));
    }

    // Filter: only engine 1's losses, then only its wins and draws.
    let count = |w: Value| recs.iter().filter(|r| r["winner"] == w).count();
    let (wins, losses, draws) = (count(json!(1)), count(json!(2)), count(Value::Null));
    b.click("#f-W");
    b.click("#f-D");
    assert_eq!(b.count("#rows .row"), losses);
    assert_eq!(b.count("#rows .row .res.L"), losses);
    b.screenshot("report-losses");
    b.click("#f-L");
    b.click("#f-W");
    b.click("#f-D");
    assert_eq!(b.count("#rows .row"), wins + draws);
    assert_eq!(b.count("#rows .row .res.L"), 0);
    // By reason: every game here ended normally.
    b.eval("(() => { const s = document.getElementById('f-why'); s.value = 'normal'; s.dispatchEvent(new Event('change')); })()");
    assert_eq!(b.count("#rows .row"), wins + draws);
}

#[test]
fn a_record_with_an_illegal_move_is_an_error_for_that_game_only() {
    let rec = tmp("c4-tampered.jsonl");
    let page = tmp("c4-tampered.html");
    run(
        &[
            "match",
            "--game",
            "connect4",
            "--engine1",
            "builtin:ninja1",
            "--engine2",
            "builtin:greedy",
            "--depth",
            "2",
            "--openings",
            "random:2",
            "--games",
            "2",
            "--records",
        ],
        &[&rec],
    );
    // Game 1's third move becomes a column the board does not have.
    let mut recs = records(&rec);
    recs[1]["moves"][2]["move"] = json!("9");
    rewrite_games(&rec, &recs);
    run(&["report", "--html"], &[&page, &rec]);

    let b = Browser::launch();
    b.goto(&url(&page));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(10),
        "the first view",
    );
    assert_eq!(b.count(".row .det.err"), 1);
    assert_eq!(b.count(".row[data-game='1'] .det.err"), 1);
    b.click(".row[data-game='1']");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().game === 1",
        Duration::from_secs(5),
        "game 1 open",
    );
    // The opening's two plies and the two good moves are still shown.
    assert_eq!(b.eval("tableroReport.state().plies"), json!(5));
    assert!(
        b.text("#vhead").contains("replay error: ply 5 (move '9')"),
        "{}",
        b.text("#vhead")
    );
    b.press("End");
    assert_eq!(fen(&b), expected_fens(&records_prefix(&recs[1], 2))[4]);
    b.screenshot("report-replay-error");
    // The other game is whole.
    b.click(".row[data-game='0']");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().game === 0",
        Duration::from_secs(5),
        "game 0 open",
    );
    b.press("End");
    assert_eq!(fen(&b), *expected_fens(&recs[0]).last().unwrap());
}

/// A record cut to its first `n` played moves.
fn records_prefix(rec: &Value, n: usize) -> Value {
    let mut r = rec.clone();
    let moves: Vec<Value> = rec["moves"].as_array().unwrap()[..n].to_vec();
    r["moves"] = json!(moves);
    r
}

/// The report in Spanish and English (issue 23): a browser that prefers Spanish gets the
/// Spanish report (title, the referee's table line by line, plots, filters, game rows, viewer,
/// the picture, a replay error), with nothing left in English (`audit_spanish`); the switch
/// shows English where the user was (same game, same ply) and the table then is exactly what
/// `tablero report` prints. Screenshots `report-es.png`, `report-en.png`. (The tournament and
/// class pages: `tournament_and_class_pages`.)
#[test]
fn spanish_and_english() {
    use browser::i18n::{audit_spanish, switch_to};
    let rec = tmp("mancala-i18n.jsonl");
    let page = tmp("mancala-i18n.html");
    run(
        &[
            "match",
            "--game",
            "mancala",
            "--engine1",
            "builtin:greedy",
            "--engine2",
            "builtin:ninja1",
            "--depth",
            "2",
            "--openings",
            "random:2",
            "--games",
            "4",
            "--sprt",
            "elo0=0 elo1=20",
            "--records",
        ],
        &[&rec],
    );
    // Game 2's third move becomes a pit the board does not have: a replay error to show.
    let mut recs = records(&rec);
    recs[2]["moves"][2]["move"] = json!("9");
    rewrite_games(&rec, &recs);
    run(&["report", "--html"], &[&page, &rec]);
    let out = Command::new(BIN).arg("report").arg(&rec).output().unwrap();
    let table = String::from_utf8(out.stdout).unwrap();

    let b = Browser::launch_lang("es-ES,es", 1280, 1000);
    b.goto(&url(&page));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(10),
        "the first view",
    );
    assert_eq!(
        b.content("h1"),
        "greedy contra ninja1 (Mancala), 4 partidas"
    );
    let es = b.content("#table");
    assert!(
        es.starts_with("Enfrentamiento greedy contra ninja1 (Mancala), 4 partidas\nmotor "),
        "{es}"
    );
    assert!(
        es.contains("partidas terminadas por: normal 4, ilegal 0,"),
        "{es}"
    );
    b.eval("tableroReport.open(2)");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().game === 2",
        Duration::from_secs(5),
        "game 2 open",
    );
    assert!(
        b.content("#vhead")
            .contains("error al reproducir: movimiento 5 ('9'): la casilla 9"),
        "{}",
        b.content("#vhead")
    );
    b.eval("tableroReport.open(1)");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().game === 1",
        Duration::from_secs(5),
        "game 1 open",
    );
    b.eval("tableroReport.show(5)");
    assert!(b.content("#plyinfo").starts_with("movimiento 5 / "));
    let problems = audit_spanish(&b);
    assert!(
        problems.is_empty(),
        "Spanish report:\n{}",
        problems.join("\n")
    );
    b.screenshot("report-es");

    switch_to(&b, "en");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().ply === 5",
        Duration::from_secs(5),
        "the same ply",
    );
    assert_eq!(b.eval("tableroReport.state().game"), json!(1));
    assert_eq!(
        b.content("#table"),
        table,
        "the table as the command prints it"
    );
    assert!(b.content("#plyinfo").starts_with("ply 5 / "));
    assert_eq!(b.content("h1"), "greedy vs ninja1 (Mancala), 4 games");
    assert_eq!(b.eval("localStorage.getItem('tablero.lang')"), "en");
    b.screenshot("report-en");
}

/// 5-en-Raya's match and tournament reports (issue 32): a short match of greedy against ninja1,
/// reviewed by `analyse`, in Spanish (title, table, review, viewer, nothing left in English), every game replayed to the
/// rules' state string with exactly the marks Rust draws; then in English; a small tournament
/// page, a game replayed ply by ply in its viewer. Screenshots `report-enraya-es.png`,
/// `report-enraya-en.png`, `tournament-enraya.png`. About 10 s.
#[test]
fn enraya_match_and_tournament() {
    use browser::i18n::{audit_spanish, switch_to};
    use tablero::games::enraya::Enraya;
    let rec = tmp("enraya.jsonl");
    let page = tmp("enraya.html");
    run(
        &[
            "match",
            "--game",
            "enraya",
            "--engine1",
            "builtin:greedy",
            "--engine2",
            "builtin:ninja1",
            "--depth",
            "2",
            "--openings",
            "random:2",
            "--games",
            "4",
            "--records",
        ],
        &[&rec],
    );
    // Reviewed by `analyse`, so the page shows the review's marks too: shallow and with the
    // course's `test` heuristic, for time (`default` extends sharp leaves to ply 8, which
    // made this review take about 100 s of the test's 110).
    let reviewed = tmp("enraya-reviewed.jsonl");
    let _ = std::fs::remove_file(&reviewed);
    run(
        &[
            "analyse",
            "--depth",
            "4",
            "--option",
            "Heuristic=test",
            "-o",
        ],
        &[&reviewed, &rec],
    );
    let rec = reviewed;
    run(&["report", "--html"], &[&page, &rec]);
    let recs = records(&rec);
    let out = Command::new(BIN).arg("report").arg(&rec).output().unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("review (tablero analyse) of 4 games"),
        "{table}"
    );

    let b = Browser::launch_lang("es-ES,es", 1280, 1100);
    b.goto(&url(&page));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(10),
        "the first view",
    );
    assert_eq!(
        b.content("h1"),
        "greedy contra ninja1 (5-en-Raya Táctico), 4 partidas"
    );
    for (i, r) in recs.iter().enumerate() {
        let (_, pos) = replay_as::<Enraya>(r);
        let last = pos.len() - 1;
        b.eval(&format!("tableroReport.open({i})"));
        b.wait_until(
            &format!("tableroReport.state() && tableroReport.state().game === {i}"),
            Duration::from_secs(5),
            "game open",
        );
        b.press("End");
        assert_eq!(fen(&b), pos[last].format_fen(), "game {i}");
        assert_eq!(
            dom_keys(&b),
            json!(mark_keys::<Enraya>(r, last)),
            "game {i}"
        );
    }
    b.eval("tableroReport.open(1)");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().game === 1",
        Duration::from_secs(5),
        "game 1 open",
    );
    b.eval("tableroReport.show(7)");
    assert!(b.content("#plyinfo").starts_with("movimiento 7 / "));
    let problems = audit_spanish(&b);
    assert!(
        problems.is_empty(),
        "Spanish report:\n{}",
        problems.join("\n")
    );
    b.screenshot("report-enraya-es");
    switch_to(&b, "en");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().ply === 7",
        Duration::from_secs(5),
        "the same ply",
    );
    assert_eq!(b.content("#table"), table);
    assert_eq!(
        b.content("h1"),
        "greedy vs ninja1 (5-en-Raya Táctico), 4 games"
    );
    b.screenshot("report-enraya-en");

    let rec = tmp("enraya-tournament.jsonl");
    let page = tmp("enraya-tournament.html");
    run(
        &[
            "tournament",
            "--game",
            "enraya",
            "--engine",
            "random=builtin:random",
            "--engine",
            "greedy=builtin:greedy",
            "--engine",
            "ninja1=builtin:ninja1",
            "--depth",
            "1",
            "--rounds",
            "1",
            "--openings",
            "random:2",
            "--records",
        ],
        &[&rec],
    );
    run(&["report", "--html"], &[&page, &rec]);
    let recs = tournament_records(&rec);
    assert_eq!(recs.len(), 6);
    b.goto(&url(&page));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(10),
        "the first view",
    );
    assert_eq!(
        b.content("h1"),
        "Tournament round-robin of 3 engines (5-en-Raya Táctico), 6 games"
    );
    let g = 2;
    let (_, pos) = replay_as::<Enraya>(&recs[g]);
    b.eval(&format!("tableroReport.open({g})"));
    b.wait_until(
        &format!("tableroReport.state() && tableroReport.state().game === {g}"),
        Duration::from_secs(5),
        "game open",
    );
    let shown = b.eval(&format!(
        "[...Array({}).keys()].map(k => {{ tableroReport.show(k); return document.getElementById('fen').value; }})",
        pos.len()
    ));
    for (k, p) in pos.iter().enumerate() {
        assert_eq!(shown[k], json!(p.format_fen()), "ply {k}");
    }
    b.eval("tableroReport.show(9)");
    b.screenshot("tournament-enraya");
}

#[test]
fn parchis_2021_22_match_report() {
    // A match played with `--option Year=2021-22`: the report replays it under that year's
    // rules (its settings say so) and draws that year's panel, in Spanish and English.
    use browser::i18n::{audit_spanish, switch_to};
    use tablero::games::parchis::{ParchisConfig, Year};
    let cfg = ParchisConfig::of(Year::Y2021);
    let rec = tmp("parchis-2021.jsonl");
    let page = tmp("parchis-2021.html");
    let _ = std::fs::remove_file(&rec);
    run(
        &[
            "match",
            "--game",
            "parchis",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:greedy",
            "--option",
            "Year=2021-22",
            "--games",
            "2",
            "--records",
        ],
        &[&rec],
    );
    run(&["report", "--html"], &[&page, &rec]);
    let recs = records(&rec);
    let b = Browser::launch_lang("es-ES,es", 1280, 1300);
    b.goto(&url(&page));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(10),
        "the first view",
    );
    let mut threes = 0;
    for (i, r) in recs.iter().enumerate() {
        let (moves, pos) = replay_with::<Parchis>(r, &cfg);
        threes += moves.iter().filter(|m| m.ends_with(":3")).count();
        let last = pos.len() - 1;
        b.eval(&format!("tableroReport.open({i})"));
        b.wait_until(
            &format!("tableroReport.state() && tableroReport.state().game === {i}"),
            Duration::from_secs(5),
            "game open",
        );
        for k in [1, last / 2, last] {
            b.eval(&format!("tableroReport.show({k})"));
            assert_eq!(fen(&b), pos[k].format_fen(), "game {i} ply {k}");
            assert_eq!(
                dom_keys(&b),
                json!(mark_keys_with::<Parchis>(r, &cfg, k)),
                "game {i} ply {k}"
            );
        }
        // Each colour's six dice, no player dice, hand slots or item chips.
        let n = |css: &str| b.count(&format!("#board [data-k{css}]"));
        assert_eq!(n("^='die-'][data-k$='-t'"), 24, "game {i}");
        assert_eq!(n("='die-g-3'") + n("='die-y-3'"), 2, "game {i}");
        assert_eq!(
            n("^='die-p'") + n("^='hand-'") + n("^='item-'"),
            0,
            "game {i}"
        );
        assert_eq!(n("='turn-row'"), usize::from(pos[last].outcome().is_none()));
    }
    assert!(threes > 0, "no die 3 was played in the two games");
    b.eval("tableroReport.open(0)");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().game === 0",
        Duration::from_secs(5),
        "game 0 open",
    );
    b.eval("tableroReport.show(9)");
    let problems = audit_spanish(&b);
    assert!(
        problems.is_empty(),
        "Spanish report:\n{}",
        problems.join("\n")
    );
    b.screenshot("report-parchis-2021-es");
    switch_to(&b, "en");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().ply === 9",
        Duration::from_secs(5),
        "the same ply",
    );
    b.screenshot("report-parchis-2021-en");
}

/// The game lines of a tournament's records file, and the engine names of its settings.
fn tournament_records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] == "tournament-game")
        .collect()
}

/// 1, 0.5 or 0: what `name` scored in game `g` (a tournament record line).
fn points_of(g: &Value, name: &str) -> f64 {
    let engine1 = if g["first_engine"] == 1 {
        &g["first"]
    } else {
        &g["second"]
    };
    let mine = if engine1 == name { 1 } else { 2 };
    match g["winner"].as_u64() {
        None => 0.5,
        Some(w) if w == mine => 1.0,
        Some(_) => 0.0,
    }
}

/// The numbers of the games listed now.
fn listed(b: &Browser) -> Vec<u64> {
    let v = b.eval("[...document.querySelectorAll('#rows .row')].map(r => Number(r.dataset.game))");
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// The tournament report (issue 25): a round-robin's page has the standings as a table, the
/// crosstable as a table whose cell lists exactly that pair's games, three plots, the game list
/// filtered by engine and result from that engine's side, a game replayed to the rules' state
/// strings, and the standings text exactly as `tablero report` prints it; all of it in Spanish
/// with nothing left in English, and after the switch the same game and ply. Then a class's
/// pages (`tablero class`): the builds, a student's page (their games only, their summary,
/// row of the crosstable and build log) and the page of a submission that did not build, in
/// both languages. One browser for all. Screenshots `tournament-en.png`, `tournament-es.png`,
/// `class-es.png`, `class-student-en.png`, `class-student-es.png`, `class-missing-es.png`.
#[test]
fn tournament_and_class_pages() {
    use browser::i18n::{audit_spanish, switch_to};
    let rec = tmp("tournament.jsonl");
    let page = tmp("tournament.html");
    run(
        &[
            "tournament",
            "--game",
            "connect4",
            "--engine",
            "random=builtin:random",
            "--engine",
            "greedy=builtin:greedy",
            "--engine",
            "ninja1=builtin:ninja1",
            "--depth",
            "1",
            "--rounds",
            "2",
            "--openings",
            "random:2",
            "--records",
        ],
        &[&rec],
    );
    run(&["report", "--html"], &[&page, &rec]);
    let out = Command::new(BIN).arg("report").arg(&rec).output().unwrap();
    let standings = String::from_utf8(out.stdout).unwrap();
    let recs = tournament_records(&rec);
    assert_eq!(recs.len(), 12);

    let b = Browser::launch_lang("en-US", 1280, 1000);
    b.goto(&url(&page));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(10),
        "the first view",
    );
    assert_eq!(
        b.content("h1"),
        "Tournament round-robin of 3 engines (Connect Four), 12 games"
    );
    assert_eq!(
        b.content("#table"),
        standings,
        "the text as the command prints it"
    );
    assert_eq!(b.count("#standings tr[data-engine]"), 3);
    assert_eq!(b.count("#cross td.cell"), 6);
    assert_eq!(b.count("#plots svg"), 3, "ratings, score, results");
    assert_eq!(listed(&b).len(), 12);
    // Each crosstable cell: points as the records say, and a click lists that pair's games.
    let names = ["random", "greedy", "ninja1"];
    for (a, na) in names.iter().enumerate() {
        for (c, nc) in names.iter().enumerate() {
            if a == c {
                continue;
            }
            let pair: Vec<&Value> = recs
                .iter()
                .filter(|g| {
                    (g["first"] == *na && g["second"] == *nc)
                        || (g["first"] == *nc && g["second"] == *na)
                })
                .collect();
            let pts: f64 = pair.iter().map(|g| points_of(g, na)).sum();
            let cell = format!("#cross td.cell[data-a='{a}'][data-b='{c}']");
            assert_eq!(
                b.content(&cell),
                format!("{pts}/{}", pair.len()),
                "{na} vs {nc}"
            );
            b.tap(&cell);
            let mut want: Vec<u64> = pair.iter().map(|g| g["game"].as_u64().unwrap()).collect();
            want.sort();
            let mut got = listed(&b);
            got.sort();
            assert_eq!(got, want, "{na} vs {nc}");
            assert_eq!(
                b.eval("document.getElementById('f-engine').value"),
                json!(a.to_string())
            );
            // The badges read from the row engine's side (read in one evaluation: each costs
            // a round trip to the browser).
            let badges = b.eval(
                "Object.fromEntries([...document.querySelectorAll('#rows .row')].map(r => [r.dataset.game, r.querySelector('.res').textContent]))",
            );
            for g in &pair {
                let want = match points_of(g, na) {
                    1.0 => "W",
                    0.5 => "D",
                    _ => "L",
                };
                assert_eq!(badges[g["game"].to_string()], want, "game {}", g["game"]);
            }
        }
    }
    b.screenshot("tournament-cell");
    // Only greedy's losses: the engine alone, its wins and draws unticked.
    b.eval("(() => { const s = document.getElementById('f-engine'); s.value = '1'; s.dispatchEvent(new Event('change')); const o = document.getElementById('f-opp'); o.value = ''; o.dispatchEvent(new Event('change')); })()");
    b.tap("#f-W");
    b.tap("#f-D");
    let mut want: Vec<u64> = recs
        .iter()
        .filter(|g| {
            (g["first"] == "greedy" || g["second"] == "greedy") && points_of(g, "greedy") == 0.0
        })
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    want.sort();
    assert_eq!(listed(&b), want, "greedy's losses, in game order");
    b.tap("#f-W");
    b.tap("#f-D");
    // A game replayed: every ply's state string is the rules' one.
    let g = 5;
    let fens = expected_fens(&recs[g]);
    b.eval(&format!("tableroReport.open({g})"));
    b.wait_until(
        &format!("tableroReport.state() && tableroReport.state().game === {g}"),
        Duration::from_secs(5),
        "game 5 open",
    );
    let shown = b.eval(&format!(
        "[...Array({}).keys()].map(k => {{ tableroReport.show(k); return document.getElementById('fen').value; }})",
        fens.len()
    ));
    for (k, f) in fens.iter().enumerate() {
        assert_eq!(shown[k], json!(f), "ply {k}");
    }
    b.eval("tableroReport.show(3)");
    b.screenshot("tournament-en");
    switch_to(&b, "es");
    b.wait_until(
        "tableroReport.state() && tableroReport.state().ply === 3",
        Duration::from_secs(5),
        "the same ply",
    );
    assert_eq!(b.eval("tableroReport.state().game"), json!(g));
    assert_eq!(
        b.content("h1"),
        "Torneo todos contra todos de 3 motores (Conecta 4), 12 partidas"
    );
    b.eval("document.getElementById('textbox').open = true");
    let problems = audit_spanish(&b);
    assert!(
        problems.is_empty(),
        "Spanish tournament page:\n{}",
        problems.join("\n")
    );
    b.screenshot("tournament-es");

    // A class (Mancala): our C++ bot mock (tests/class_mock/) as two ready programs, one of
    // which aborts at its second move, and a folder with nothing to build, against greedy.
    let class = tmp("class");
    let _ = std::fs::remove_dir_all(&class);
    let subs = class.join("subs");
    let mocks = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/class_mock");
    for (name, choice) in [
        ("richest", "mancala_bot/richest.cpp"),
        ("crashy", "mancala_bot_crash/richest.cpp"),
    ] {
        let p = subs.join(name).join("bot");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let o = Command::new("g++")
            .arg("-O0")
            .arg("-I")
            .arg(mocks.join("mancala_bot"))
            .arg("-o")
            .arg(&p)
            .arg(mocks.join("mancala_bot/protocol.cpp"))
            .arg(mocks.join(choice))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    std::fs::create_dir_all(subs.join("nothing")).unwrap();
    std::fs::write(subs.join("nothing/notes.txt"), "to do\n").unwrap();
    let out = class.join("out");
    run(
        &[
            "--game",
            "mancala",
            "class",
            subs.to_str().unwrap(),
            "--builtins",
            "greedy",
            "--openings",
            "random:2",
            "-o",
        ],
        &[&out],
    );
    let crecs = tournament_records(&out.join("records/all.jsonl"));
    b.goto(&url(&out.join("index.html")));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(10),
        "the class page",
    );
    assert_eq!(b.content("h1"), "Torneo de clase de Mancala, 3 alumnos");
    assert_eq!(b.count("#builds tr[data-student]"), 3);
    assert!(
        b.content("#builds")
            .contains("la carpeta no tiene makefile, ni ficheros .cpp, ni ningún programa")
    );
    assert_eq!(listed(&b).len(), 6);
    let problems = audit_spanish(&b);
    assert!(
        problems.is_empty(),
        "Spanish class page:\n{}",
        problems.join("\n")
    );
    b.screenshot("class-es");
    // A student's page: their games only, their results.
    // The student's link leads to their page.
    let student_page = out.join("students/crashy.html");
    assert_eq!(
        b.eval("document.querySelector(\"#builds tr[data-student='crashy'] a\").href"),
        json!(url(&student_page))
    );
    b.goto(&url(&student_page));
    b.wait_until(
        "document.body.dataset.ready === '1' && document.getElementById('summary')",
        Duration::from_secs(10),
        "crashy's page",
    );
    assert!(
        b.content("h1")
            .starts_with("crashy: torneo de clase de Mancala")
    );
    let mine: Vec<&Value> = crecs
        .iter()
        .filter(|g| g["first"] == "crashy" || g["second"] == "crashy")
        .collect();
    assert_eq!(listed(&b).len(), mine.len());
    assert!(
        b.content("#summary")
            .contains(&format!("0 puntos en {} partidas", mine.len())),
        "{}",
        b.content("#summary")
    );
    assert!(
        b.content("#summary")
            .contains(&format!("perdidas fuera del tablero: fallo {}", mine.len()))
    );
    assert_eq!(
        b.count("#cross td.cell"),
        2,
        "crashy's row: richest and greedy"
    );
    assert!(
        b.content("#buildlog pre")
            .contains("is a ready program, used as it is")
    );
    let problems = audit_spanish(&b);
    assert!(
        problems.is_empty(),
        "Spanish student page:\n{}",
        problems.join("\n")
    );
    b.screenshot("class-student-es");
    switch_to(&b, "en");
    assert!(
        b.content("#summary")
            .starts_with("Rank 3 of 3: 0 points in 4 games (0 won, 0 drawn, 4 lost)"),
        "{}",
        b.content("#summary")
    );
    b.screenshot("class-student-en");
    switch_to(&b, "es");
    b.goto(&url(&out.join("students/nothing.html")));
    // The page itself, built and in the language remembered from crashy's page: once CI audited
    // it in English right after its Spanish text had been read, so the audit waits for both.
    b.wait_until(
        "location.pathname.endsWith('/students/nothing.html') && document.getElementById('home') \
         && document.documentElement.lang === 'es' && document.title.includes('torneo de clase')",
        Duration::from_secs(10),
        "nothing's page, in Spanish",
    );
    assert!(
        b.content("body")
            .contains("Esta entrega no compiló, así que no juega ninguna partida.")
    );
    assert_eq!(b.count("#rows .row"), 0);
    let problems = audit_spanish(&b);
    assert!(
        problems.is_empty(),
        "Spanish page of a missing submission:\n{}",
        problems.join("\n")
    );
    b.screenshot("class-missing-es");
}

/// Size and speed of a 1,000-game Parchís report (ignored: about a minute on two cores).
#[test]
#[ignore]
fn thousand_parchis_games() {
    let rec = tmp("parchis1000.jsonl");
    let page = tmp("parchis1000.html");
    let t = Instant::now();
    run(
        &[
            "match",
            "--game",
            "parchis",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:greedy",
            "--openings",
            "random:6",
            "--games",
            "1000",
            "--concurrency",
            "2",
            "--records",
        ],
        &[&rec],
    );
    let played = t.elapsed();
    let t = Instant::now();
    run(&["report", "--html"], &[&page, &rec]);
    let built = t.elapsed();
    let size = std::fs::metadata(&page).unwrap().len();
    let plies: usize = records(&rec)
        .iter()
        .map(|r| r["moves"].as_array().unwrap().len())
        .sum();

    let b = Browser::launch_sized(1280, 1000);
    b.goto(&url(&page));
    b.wait_until(
        "document.body.dataset.ready === '1'",
        Duration::from_secs(30),
        "the first view",
    );
    let first_view = b.eval("window.tableroReady").as_f64().unwrap();
    let nav = b.eval("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd");
    // Step through a whole game with the key, then measure steps one by one.
    b.press("End");
    b.press("Home");
    let mut worst: f64 = 0.0;
    let mut total = 0.0;
    let n = b
        .eval("tableroReport.state().plies")
        .as_u64()
        .unwrap()
        .min(200);
    for _ in 1..n {
        b.press("ArrowRight");
        let ms = b.eval("window.tableroLastStepMs").as_f64().unwrap();
        worst = worst.max(ms);
        total += ms;
    }
    // The board after this walk, and at a few plies shown by number, is the one Rust draws.
    let recs = records(&rec);
    let game = b.eval("tableroReport.state().game").as_u64().unwrap() as usize;
    let shown = b.eval("tableroReport.state().plies").as_u64().unwrap() as usize;
    let here = ply(&b) as usize;
    assert_eq!(dom_keys(&b), json!(mark_keys::<Parchis>(&recs[game], here)));
    for k in [0, 1, shown / 3, shown / 2, shown - 1] {
        b.eval(&format!("tableroReport.show({k})"));
        assert_eq!(
            dom_keys(&b),
            json!(mark_keys::<Parchis>(&recs[game], k)),
            "game {game} ply {k}"
        );
        assert_eq!(fen(&b), replay_as::<Parchis>(&recs[game]).1[k].format_fen());
    }
    b.screenshot("report-parchis1000");
    println!(
        "1000 Parchís games ({plies} plies): played in {:.1} s, report built in {:.1} s, {:.2} MB; \
         first view {first_view:.0} ms (DOMContentLoaded {nav}); ply step mean {:.2} ms, worst {worst:.2} ms over {} steps",
        played.as_secs_f64(),
        built.as_secs_f64(),
        size as f64 / 1e6,
        total / (n - 1) as f64,
        n - 1
    );
    assert!(size < 20_000_000, "page of {size} bytes");
}
