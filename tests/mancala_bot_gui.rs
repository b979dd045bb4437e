//! A course Mancala bot (our mock, tests/mancala_bot_mock.py) offered in `tablero gui` as a
//! `mancala-bot:` engine: it answers a human's moves (its process restarted when a take-back
//! leaves the game it knew) and plays a whole game against a built-in player, saved as a
//! record the referee reads.

use crate::gui_support;

use std::path::PathBuf;

use gui_support::Server;
use serde_json::Value;

fn mock_spec() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mancala_bot_mock.py");
    format!("mockbot=mancala-bot:python3 {} play", p.display())
}

fn moves(st: &Value) -> Vec<String> {
    st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_course_bot_plays_in_the_browser_board() {
    let spec = mock_spec();
    let s = Server::start("mancala", &["--engine", &spec]);
    // The human plays South; the bot answers with its lowest non-empty pit.
    let (c, b) = s.post(
        "/api/settings",
        r#"{"seats": [null, "mockbot"], "pace": 0}"#,
    );
    assert_eq!(c, 200, "{b}");
    let (c, b) = s.post("/api/move", r#"{"move": "1"}"#);
    assert_eq!(c, 200, "{b}");
    let st = s.wait_for(30, "the bot's first move", |st| moves(st).len() == 2);
    assert_eq!(moves(&st), ["1", "1"]);
    // Take back to the human's turn and play another pit: the bot starts over on a position
    // that does not continue what it saw, and answers it.
    let (c, b) = s.post("/api/undo", "{}");
    assert_eq!(c, 200, "{b}");
    let (c, b) = s.post("/api/move", r#"{"move": "2"}"#);
    assert_eq!(c, 200, "{b}");
    let st = s.wait_for(30, "the bot's move after the take-back", |st| {
        moves(st).len() == 2
    });
    assert_eq!(moves(&st), ["2", "1"]);
    // A whole game against a built-in player.
    let (c, b) = s.post("/api/new", r#"{"game": "mancala"}"#);
    assert_eq!(c, 200, "{b}");
    let (c, b) = s.post(
        "/api/settings",
        r#"{"seats": ["mockbot", "greedy"], "pace": 0}"#,
    );
    assert_eq!(c, 200, "{b}");
    let st = s.wait_for(60, "the end of the game", |st| !st["result"].is_null());
    let (c, line) = s.get("/api/record");
    assert_eq!(c, 200, "{line}");
    let rec: Value = serde_json::from_str(line.trim()).expect("one JSON line");
    assert_eq!(rec["first"], "mockbot");
    assert_eq!(rec["reason"], "normal", "{rec}");
    assert_eq!(rec["result"], st["result"]);
    let played: Vec<&str> = rec["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(played, moves(&st));
    assert!(played.len() > 4);
}
