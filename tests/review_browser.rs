//! The browser board's game review (docs/review.md, "On the browser board") in a real browser:
//! a Connect Four game played by clicks with "every move as it is played" on is reviewed as it
//! grows, and its marks, best moves and losses equal `tablero analyse`'s on the page's own saved
//! record; the evaluation graph has a dot per marked move; clicking a marked move or the graph
//! shows that position with the better move drawn, and "Back to the game" returns; a loaded
//! annotated file shows its review as it is (names from the file, nothing searched), a loaded
//! plain record is reviewed on request (about 13 s at load 12, 2.6 s of CPU); the review's
//! endpoints refuse bad input in one line, and a loaded record's names last until a new game (no
//! browser; milliseconds).

use crate::browser;
use crate::gui_support;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use browser::Browser;
use gui_support::{BIN, Server};
use serde_json::Value;

const LONG: Duration = Duration::from_secs(60);

/// A fresh path in the test's scratch folder: what an earlier run left there is removed (the
/// review refuses to write over an existing file).
fn tmp(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("review_browser");
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn js(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// Plays column `c` by clicking it, and waits for the page to show `moves`.
fn play(b: &Browser, c: &str, moves: &str) {
    b.tap(&format!("#board [data-g=\"{c}\"].legal"));
    b.wait_until(
        &format!(
            "document.getElementById('moves').textContent === {}",
            js(moves)
        ),
        LONG,
        "the move",
    );
}

/// The page's move list of the review: (move text, mark) per move.
fn page_marks(b: &Browser) -> Vec<(String, Option<String>)> {
    let v = b.eval(
        "[...document.querySelectorAll('#reviewmoves .rmove')].map((e) => \
         [e.firstChild.textContent.trim(), (e.querySelector('.mk') || {}).textContent || null])",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// Loads `text` as a file through the page's file input.
fn load_file(b: &Browser, text: &str) {
    b.eval(&format!(
        "(() => {{ const dt = new DataTransfer(); \
         dt.items.add(new File([{}], 'games.jsonl', {{type: 'application/json'}})); \
         const i = document.getElementById('loadfile'); i.files = dt.files; \
         i.dispatchEvent(new Event('change')); }})()",
        js(text)
    ));
}

#[test]
fn the_board_reviews_the_game_played_and_loaded_records() {
    let server = Server::start("connect4", &[]);
    let b = Browser::launch_sized(1280, 1000);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.querySelector('#board svg [data-g]')",
        LONG,
        "the board",
    );
    b.eval("(() => { document.getElementById('posinput').value = '4 4'; })()");
    b.tap("#setpos");
    b.wait_until(
        "document.getElementById('moves').textContent === '4 4'",
        LONG,
        "the position",
    );
    b.tap("#reviewauto");
    b.wait_until(
        "document.getElementById('reviewauto').checked",
        LONG,
        "auto review on",
    );
    // First builds 3-4-5 on the bottom row; second's 1 lets it, and first wins at 6.
    let mut moves = String::from("4 4");
    for c in ["3", "1", "5", "1", "6"] {
        moves += " ";
        moves += c;
        play(&b, c, &moves);
    }
    b.wait_until(
        "document.querySelectorAll('#reviewmoves .rmove').length === 7 && \
         !document.getElementById('reviewstatus').textContent.includes('reviewing') && \
         document.getElementById('reviewstatus').textContent.includes('5 moves judged')",
        LONG,
        "the review of every move",
    );
    let marks = page_marks(&b);
    // The page's own record, reviewed by `tablero analyse` with its defaults.
    let record = b.eval("fetch('/api/record').then((r) => r.text())");
    let record = record.as_str().unwrap().trim().to_string();
    let rec = tmp("played.jsonl");
    std::fs::write(&rec, format!("{record}\n")).unwrap();
    let out = tmp("played-annotated.jsonl");
    let o = Command::new(BIN)
        .args([
            "analyse",
            rec.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let annotated = std::fs::read_to_string(&out).unwrap();
    let game: Value = annotated
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["moves"].is_array())
        .unwrap();
    let cli: Vec<&Value> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["review"])
        .collect();
    assert_eq!(cli.len(), 5);
    let state = server.state();
    let page = state["review"]["plies"].as_array().unwrap();
    assert_eq!(page.len(), 5);
    for (k, (p, c)) in page.iter().zip(&cli).enumerate() {
        assert_eq!(p["b"], c["best"], "ply {k}: best move");
        assert_eq!(p["v"], c["value"], "ply {k}: value");
        assert_eq!(p["p"], c["played"], "ply {k}: played value");
        assert_eq!(p["l"], c["loss"], "ply {k}: loss");
        assert_eq!(
            p.get("m").and_then(Value::as_str),
            c.get("mark").and_then(Value::as_str),
            "ply {k}: mark"
        );
        // The move list shows the same marks (the opening's two moves have none).
        assert_eq!(
            marks[k + 2].1.as_deref(),
            c.get("mark").and_then(Value::as_str),
            "ply {k}"
        );
    }
    assert!(marks[..2].iter().all(|(_, m)| m.is_none()));
    let marked: Vec<usize> = (0..5).filter(|&k| cli[k].get("mark").is_some()).collect();
    assert!(
        !marked.is_empty(),
        "second's 1 lets first win: at least one mark, got {marks:?}"
    );
    // A dot on the graph per marked move, at the position after it.
    let dots = b.eval(
        "[...document.querySelectorAll('#evalgraph circle.evalmark')].map((c) => Number(c.getAttribute('data-ply')))",
    );
    let want: Vec<Value> = marked.iter().map(|k| Value::from(k + 3)).collect();
    assert_eq!(dots.as_array().unwrap(), &want);
    b.eval("document.getElementById('evalgraph').scrollIntoView()");
    b.screenshot("review-board");
    // A marked move clicked: its position, the words about it and the better move on the board.
    let k = marked[0];
    b.tap(&format!("#reviewmoves .rmove[data-ply=\"{}\"]", k + 3));
    b.wait_until(
        &format!(
            "!document.getElementById('reviewlive').hidden && \
             document.querySelector('#reviewmoves .rmove.now').getAttribute('data-ply') === '{}'",
            k + 3
        ),
        LONG,
        "the marked move shown",
    );
    let words = b.text("#reviewply");
    let mark = cli[k]["mark"].as_str().unwrap();
    assert!(words.starts_with(mark), "{words}");
    let best = cli[k]["best"].as_str().unwrap();
    assert!(words.contains(&format!("Best: {best}")), "{words}");
    b.wait_until(
        "document.querySelector('#board .best')",
        LONG,
        "the better move drawn",
    );
    assert_eq!(b.count("#board .legal"), 0, "no moves while browsing");
    b.screenshot("review-board-better");
    // The graph clicked at its left end: the start position.
    b.eval(
        "(() => { const s = document.querySelector('#evalgraph svg'); const r = s.getBoundingClientRect(); \
         s.dispatchEvent(new MouseEvent('click', {clientX: r.left + 35 * r.width / 520, clientY: r.top + 40, bubbles: true})); })()",
    );
    b.wait_until(
        "!document.querySelector('#reviewmoves .rmove.now') && !document.querySelector('#board .best')",
        LONG,
        "the start shown",
    );
    assert_eq!(server.state()["review"]["view"], 0);
    b.tap("#reviewlive");
    b.wait_until(
        "document.getElementById('reviewlive').hidden && \
         document.querySelector('#reviewmoves .rmove.now').getAttribute('data-ply') === '7'",
        LONG,
        "back to the game",
    );
    // The annotated file loaded: its review as it is, under its players' names, at once.
    b.tap("#reviewauto");
    b.wait_until(
        "!document.getElementById('reviewauto').checked",
        LONG,
        "auto review off",
    );
    let renamed = annotated.replace("\"human\"", "\"ann\"");
    load_file(&b, &renamed);
    b.wait_until(
        "document.getElementById('reviewline').textContent.startsWith('ann: accuracy')",
        LONG,
        "the loaded review",
    );
    assert!(!server.state()["review"]["running"].as_bool().unwrap());
    assert_eq!(page_marks(&b), marks);
    // A plain record and a second game in one file: the list offers both; the plain one is
    // reviewed on request, to the same marks.
    let two = format!("{record}\n{}\n", record.replace("\"game\":0", "\"game\":1"));
    load_file(&b, &two);
    b.wait_until(
        "document.getElementById('loadgame').options.length === 2 && \
         !document.getElementById('loadgame').hidden && \
         document.querySelectorAll('#reviewmoves .mk').length === 0",
        LONG,
        "the plain record",
    );
    b.tap("#reviewrun");
    b.wait_until(
        "document.getElementById('reviewstatus').textContent.includes('5 moves judged')",
        LONG,
        "the review on request",
    );
    assert_eq!(page_marks(&b), marks);
    // A file without a game: one clear line.
    load_file(&b, "{\"not\": \"a record\"}\n");
    b.wait_until(
        "document.getElementById('error').textContent.includes('no game record')",
        LONG,
        "the refusal",
    );
}

/// The review's endpoints refuse bad input with one clear line (HTTP 400) and change nothing.
#[test]
fn review_endpoints_refuse_bad_input_in_one_line() {
    let server = Server::start("connect4", &[]);
    let cases: [(&str, &str, &str); 6] = [
        (
            "/api/load",
            r#"{"record": "nope"}"#,
            "the record is not a JSON line",
        ),
        (
            "/api/load",
            r#"{"record": "{\"a\": 1}"}"#,
            "not a game record",
        ),
        ("/api/load", r#"{}"#, "'record' is missing"),
        (
            "/api/view",
            r#"{"ply": 3}"#,
            "'ply' must be a move number in 0..=0",
        ),
        (
            "/api/review",
            r#"{"auto": 3}"#,
            "'auto' must be true or false",
        ),
        (
            "/api/review",
            r#"{"run": "yes"}"#,
            "'run' must be true or false",
        ),
    ];
    for (path, body, want) in cases {
        let (code, text) = server.post(path, body);
        assert_eq!(code, 400, "{path} {body}: {text}");
        assert_eq!(text.trim().lines().count(), 1, "{text}");
        assert!(text.contains(want), "{path} {body}: {text}");
    }
    // A record whose moves the rules refuse (column 4 played a seventh time).
    let mv = |m: &str| serde_json::json!({"move": m, "ms": 0, "depth": 1, "score": null});
    let moves: Vec<serde_json::Value> = ["4"; 7].into_iter().map(mv).collect();
    let bad = serde_json::json!({
        "game": 0, "variant": "connect4", "first": "a", "second": "b", "first_engine": 1,
        "result": "1-0", "winner": 1, "reason": "normal", "detail": "",
        "opening": {"base": "startpos", "moves": []},
        "moves": moves,
    })
    .to_string();
    let (code, text) = server.post(
        "/api/load",
        &serde_json::json!({ "record": bad }).to_string(),
    );
    assert_eq!(code, 400, "{text}");
    assert!(
        text.contains("the record's moves") && text.contains('7'),
        "{text}"
    );
    let s = server.state();
    assert_eq!(s["moves"].as_array().unwrap().len(), 0, "nothing loaded");
    assert!(s["review"]["plies"].as_array().unwrap().is_empty());
    // A good record: its players' names, until a new game.
    let mut good: serde_json::Value = serde_json::from_str(&bad).unwrap();
    good["moves"] = serde_json::json!([mv("4"), mv("3")]);
    let (code, text) = server.post(
        "/api/load",
        &serde_json::json!({ "record": good.to_string() }).to_string(),
    );
    assert_eq!(code, 200, "{text}");
    let s = server.state();
    assert_eq!(s["moves"], serde_json::json!(["4", "3"]));
    assert_eq!(s["review"]["names"], serde_json::json!(["a", "b"]));
    let (code, text) = server.post("/api/new", "{}");
    assert_eq!(code, 200, "{text}");
    assert_eq!(
        server.state()["review"]["names"],
        serde_json::json!(["human", "human"])
    );
}
