//! `tablero gui` over plain HTTP, without a browser: hostile and broken requests get a 4xx with
//! a one-line reason and the server keeps serving; the page can only name offered engines; an
//! engine that crashes mid-game is reported, restarted, and the game goes on.

use crate::gui_support;

use gui_support::{Server, mock};
use serde_json::Value;

/// A 4xx with exactly one line of reason.
fn one_line_4xx(code: u16, body: &str, expect: u16, needle: &str) {
    assert_eq!(code, expect, "{body}");
    assert_eq!(body.trim_end().lines().count(), 1, "one line: {body:?}");
    assert!(body.contains(needle), "'{needle}' not in {body:?}");
}

fn still_serving(s: &Server) {
    let (c, b) = s.get("/");
    assert_eq!(c, 200);
    assert!(b.contains("<title>tablero</title>"));
}

#[test]
fn malformed_and_oversized_requests() {
    let s = Server::start("connect4", &[]);
    let (c, _, b) = s.raw(b"GARBAGE\r\n\r\n");
    one_line_4xx(c, &b, 400, "malformed request");
    let (c, _, b) = s.raw(b"GET / HTTP/1.1\r\n\r\n");
    one_line_4xx(c, &b, 400, "missing Host");
    // Header bigger than the cap.
    let big = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Big: {}\r\n\r\n",
        s.addr,
        "a".repeat(40_000)
    );
    let (c, _, b) = s.raw(big.as_bytes());
    one_line_4xx(c, &b, 431, "request head larger");
    // Declared body bigger than the cap: refused before reading it.
    let (c, _, b) = s.raw(
        format!(
            "POST /api/move HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{{}}",
            s.addr
        )
        .as_bytes(),
    );
    one_line_4xx(c, &b, 413, "limit");
    let (c, _, b) = s.raw(
        format!(
            "POST /api/move HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{{}}\r\n0\r\n\r\n",
            s.addr
        )
        .as_bytes(),
    );
    one_line_4xx(c, &b, 411, "Content-Length");
    let (c, b) = s.post("/api/move", "{not json");
    one_line_4xx(c, &b, 400, "bad JSON");
    let (c, b) = s.post("/api/move", "[1,2]");
    one_line_4xx(c, &b, 400, "JSON object");
    let (c, b) = s.post("/api/move", r#"{"move": 12}"#);
    one_line_4xx(c, &b, 400, "must be a string");
    let (c, b) = s.post("/api/move", r#"{"move": "9"}"#);
    assert_eq!(c, 400, "{b}");
    let (c, b) = s.post("/api/position", r#"{"position": "7/7/nonsense x"}"#);
    one_line_4xx(c, &b, 400, "neither a move list");
    let (c, b) = s.post("/api/new", r#"{"game": "chess"}"#);
    one_line_4xx(c, &b, 400, "unknown game");
    let (c, b) = s.post("/api/settings", r#"{"limit": {"depth": 0}}"#);
    one_line_4xx(c, &b, 400, "depth");
    let (c, b) = s.post("/api/nothing", "{}");
    one_line_4xx(c, &b, 404, "no such endpoint");
    let (c, b) = s.get("/api/move");
    assert_eq!(c, 405, "{b}");
    let (c, b) = s.get("/api/state?since=x");
    one_line_4xx(c, &b, 400, "since");
    let (c, b) = s.get("/api/record");
    one_line_4xx(c, &b, 409, "not finished");
    // Well-formed requests the game's state refuses now are conflicts, not bad requests.
    let (c, b) = s.post("/api/undo", "{}");
    one_line_4xx(c, &b, 409, "nothing to take back");
    let (c, b) = s.post("/api/stop", "{}");
    one_line_4xx(c, &b, 409, "no engine is thinking");
    let (c, b) = s.post("/api/settings", r#"{"pace": 10001}"#);
    one_line_4xx(c, &b, 400, "'pace' must be an integer in 0..=10000 (ms)");
    let (c, b) = s.post("/api/review", r#"{"auto": 1}"#);
    one_line_4xx(c, &b, 400, "'auto' must be true or false");
    let (c, b) = s.post("/api/view", r#"{"ply": 1}"#);
    one_line_4xx(c, &b, 400, "'ply' must be a move number in 0..=0");
    let (c, b) = s.post("/api/load", r#"{"record": "{\"a\": 1}"}"#);
    one_line_4xx(c, &b, 400, "not a game record");
    // A client that connects and sends nothing is cut off; a half request too.
    let (c, _, _) = s.raw(b"GET / HTTP/1.1\r\nHost: x");
    assert!(c == 400 || c == 408, "{c}");
    still_serving(&s);
    // The rejected requests changed nothing.
    let st = s.state();
    assert_eq!(st["moves"].as_array().unwrap().len(), 0);
    assert_eq!(st["game"], "connect4");
}

#[test]
fn wrong_host_and_cross_site_posts() {
    let s = Server::start("connect4", &[]);
    let port = s.addr.rsplit(':').next().unwrap().to_string();
    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.1:{}", port.parse::<u32>().unwrap() + 1),
        "localhost".to_string(),
        format!("10.0.0.1:{port}"),
    ] {
        let (c, _, b) = s.raw(format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes());
        one_line_4xx(c, &b, 403, "is not this server");
    }
    let (c, _, _) = s.raw(format!("GET / HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n").as_bytes());
    assert_eq!(c, 200);
    let body = r#"{"move":"4"}"#;
    let post = |extra: &str, ctype: &str| {
        s.raw(
            format!(
                "POST /api/move HTTP/1.1\r\nHost: {}\r\n{extra}Content-Type: {ctype}\r\nContent-Length: {}\r\n\r\n{body}",
                s.addr,
                body.len()
            )
            .as_bytes(),
        )
    };
    let (c, _, b) = post("Origin: http://evil.example\r\n", "application/json");
    one_line_4xx(c, &b, 403, "cross-site");
    let (c, _, b) = post("Origin: null\r\n", "application/json");
    one_line_4xx(c, &b, 403, "cross-site");
    let (c, _, b) = post("Sec-Fetch-Site: cross-site\r\n", "application/json");
    one_line_4xx(c, &b, 403, "cross-site");
    let (c, _, b) = post("Sec-Fetch-Site: same-site\r\n", "application/json");
    one_line_4xx(c, &b, 403, "cross-site");
    // A form post (what a foreign page can send without a preflight).
    let (c, _, b) = post("", "application/x-www-form-urlencoded");
    one_line_4xx(c, &b, 403, "application/json");
    let (c, _, b) = post("", "text/plain");
    one_line_4xx(c, &b, 403, "application/json");
    assert_eq!(
        s.state()["moves"].as_array().unwrap().len(),
        0,
        "nothing was played"
    );
    // The same request from the page itself is accepted.
    let (c, b) = s.post("/api/move", body);
    assert_eq!(c, 200, "{b}");
    assert_eq!(s.state()["moves"][0], "4");
}

#[test]
fn only_offered_engines_can_be_named() {
    let secret = mock("crash.sh", &[]);
    let s = Server::start("connect4", &["--engine", &format!("mine={secret}")]);
    let st = s.state();
    let engines: Vec<&str> = st["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(
        engines,
        [
            "tablero", "random", "greedy", "ninja1", "ninja2", "ninja3", "solver", "mine"
        ]
    );
    assert!(
        !st.to_string().contains("crash.sh"),
        "the page never sees a command line"
    );
    for body in [
        r#"{"seats": ["bash -c 'touch /tmp/x'", null]}"#,
        r#"{"seats": [null, "builtin:random"]}"#,
        r#"{"seats": [null, "tcp:127.0.0.1:1"]}"#,
        r#"{"seats": ["Random", null]}"#,
    ] {
        let (c, b) = s.post("/api/settings", body);
        one_line_4xx(c, &b, 400, "unknown engine");
    }
    let (c, b) = s.post("/api/analysis", r#"{"engine": "/bin/sh"}"#);
    one_line_4xx(c, &b, 400, "unknown engine");
    let (c, b) = s.post("/api/settings", r#"{"seats": [null, 7]}"#);
    one_line_4xx(c, &b, 400, "seat");
    assert_eq!(s.state()["seats"], serde_json::json!([null, null]));
    // Bad command lines are refused at start-up, before anything listens.
    let out = std::process::Command::new(gui_support::BIN)
        .args([
            "gui",
            "--listen",
            "127.0.0.1:0",
            "--engine",
            "x=builtin:god",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown player"));
    let out = std::process::Command::new(gui_support::BIN)
        .args(["gui", "--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--allow-remote"));
}

fn messages(st: &Value) -> String {
    st["messages"].to_string()
}

#[test]
fn engine_crashing_mid_game_is_restarted() {
    let dir = std::env::temp_dir().join(format!("tablero-gui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let counter = dir.join("crash_mid.count");
    let _ = std::fs::remove_file(&counter);
    let spec = mock(
        "crash_mid.sh",
        &[counter.to_str().unwrap(), gui_support::BIN],
    );
    let s = Server::start(
        "connect4",
        &[
            "--engine",
            &format!("mid={spec}"),
            "--engine",
            &format!("dead={}", mock("crash.sh", &[])),
        ],
    );
    let (c, b) = s.post("/api/settings", r#"{"seats": [null, "mid"]}"#);
    assert_eq!(c, 200, "{b}");
    // Three human moves; the engine's third `go` kills its first life.
    for (i, m) in ["4", "4", "4"].iter().enumerate() {
        let st = s.wait_for(20, "the human's turn", |st| {
            st["side"] == 0
                && st["thinking"].is_null()
                && st["moves"].as_array().unwrap().len() == 2 * i
        });
        assert!(st["result"].is_null());
        // Column 4 may fill up; take any legal move then.
        let mv = st["view"]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["m"].as_str().unwrap().to_string())
            .find(|l| l == m)
            .unwrap_or_else(|| st["view"]["legal"][0]["m"].as_str().unwrap().to_string());
        let (c, b) = s.post("/api/move", &format!(r#"{{"move": "{mv}"}}"#));
        assert_eq!(c, 200, "{b}");
    }
    let st = s.wait_for(30, "the restarted engine's move", |st| {
        st["moves"].as_array().unwrap().len() == 6
    });
    assert!(messages(&st).contains("restarting it"), "{}", messages(&st));
    assert!(!st["paused"].as_bool().unwrap());
    let starts = std::fs::read_to_string(&counter).unwrap().lines().count();
    assert_eq!(starts, 2, "one crash, one restart");

    // An engine that crashes on every `go`: one restart, then the game pauses with a message;
    // the server keeps answering and another engine can take the seat.
    let (c, b) = s.post("/api/settings", r#"{"seats": [null, "dead"]}"#);
    assert_eq!(c, 200, "{b}");
    let legal = st["view"]["legal"][0]["m"].as_str().unwrap().to_string();
    let (c, b) = s.post("/api/move", &format!(r#"{{"move": "{legal}"}}"#));
    assert_eq!(c, 200, "{b}");
    let st = s.wait_for(30, "the pause after two crashes", |st| st["paused"] == true);
    assert!(messages(&st).contains("failed again"), "{}", messages(&st));
    assert_eq!(st["moves"].as_array().unwrap().len(), 7);
    still_serving(&s);
    let (c, b) = s.post(
        "/api/settings",
        r#"{"seats": [null, "random"], "paused": false}"#,
    );
    assert_eq!(c, 200, "{b}");
    s.wait_for(20, "random's move", |st| {
        st["moves"].as_array().unwrap().len() == 8 || !st["result"].is_null()
    });
}

#[test]
fn engine_vs_engine_game_is_saved_as_a_record() {
    let s = Server::start("connect4", &[]);
    let (c, b) = s.post(
        "/api/settings",
        r#"{"seats": ["random", "greedy"], "pace": 0}"#,
    );
    assert_eq!(c, 200, "{b}");
    let st = s.wait_for(60, "the end of the game", |st| !st["result"].is_null());
    let (c, line) = s.get("/api/record");
    assert_eq!(c, 200, "{line}");
    let rec: Value = serde_json::from_str(line.trim()).expect("one JSON line");
    let parsed = tablero::referee::GameRecord::from_json(&rec).expect("the referee reads it");
    assert_eq!(rec["variant"], "connect4");
    assert_eq!(rec["first"], "random");
    assert_eq!(rec["second"], "greedy");
    assert_eq!(rec["result"], st["result"]);
    assert_eq!(rec["reason"], "normal");
    let moves: Vec<&str> = rec["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let shown: Vec<&str> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves, shown);
    assert_eq!(parsed.outcome.moves.len(), shown.len());
    // `tablero report` reads the saved line like a match's records.
    let file =
        std::env::temp_dir().join(format!("tablero-gui-record-{}.jsonl", std::process::id()));
    std::fs::write(&file, &line).unwrap();
    let out = std::process::Command::new(gui_support::BIN)
        .arg("report")
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Match random vs greedy (connect4), 1 games"),
        "{text}"
    );
    // Take back one ply of an engine game: it pauses instead of replaying at once.
    let (c, b) = s.post("/api/undo", "{}");
    assert_eq!(c, 200, "{b}");
    let st2 = s.state();
    assert_eq!(st2["paused"], true);
    assert_eq!(st2["moves"].as_array().unwrap().len(), shown.len() - 1);
}

#[test]
fn connections_are_capped() {
    let s = Server::start("connect4", &["--max-connections", "8"]);
    // Idle connections hold their slots (until they send or the 10 s read timeout)…
    let idle: Vec<std::net::TcpStream> = (0..8)
        .map(|_| std::net::TcpStream::connect(&s.addr).unwrap())
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    // …so the next one is refused at once, with a reason.
    let (c, _, b) = s.raw(format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes());
    one_line_4xx_or_5xx(c, &b, 503, "too many connections");
    drop(idle);
    std::thread::sleep(std::time::Duration::from_millis(300));
    still_serving(&s);
}

fn one_line_4xx_or_5xx(code: u16, body: &str, expect: u16, needle: &str) {
    assert_eq!(code, expect, "{body}");
    assert!(body.contains(needle), "{body:?}");
}

#[test]
fn a_2021_22_parchis_game_is_played_by_engines_under_its_rules() {
    use tablero::core::game::{Game, try_play};
    use tablero::games::parchis::{Parchis, ParchisConfig, Year};
    let s = Server::start("parchis", &[]);
    // A value the option does not name, and a board size the page does not offer, are refused.
    let (c, b) = s.post(
        "/api/new",
        r#"{"game": "parchis", "options": {"Year": "1999"}}"#,
    );
    assert_eq!(c, 400, "{b}");
    assert!(
        b.contains("Year: '1999' is not one of 2021-22, 2022-23, 2023-24, 2024-25"),
        "{b}"
    );
    let (c, b) = s.post(
        "/api/new",
        r#"{"game": "connect4", "options": {"Rows": "5"}}"#,
    );
    assert_eq!(c, 400, "{b}");
    assert!(b.contains("with Rows at its default"), "{b}");
    let (c, b) = s.post(
        "/api/new",
        r#"{"game": "parchis", "options": {"Year": "2021-22"}}"#,
    );
    assert_eq!(c, 200, "{b}");
    let st = s.state();
    assert_eq!(
        st["variant"],
        serde_json::json!([{"name": "Year", "value": "2021-22", "values": ["2021-22", "2022-23", "2023-24", "2024-25"]}])
    );
    assert!(st["fen"].as_str().unwrap().starts_with("c y 1 "), "{st}");
    // "New game" without options keeps the year.
    let (c, b) = s.post("/api/new", r#"{"game": "parchis"}"#);
    assert_eq!(c, 200, "{b}");
    assert_eq!(s.state()["variant"][0]["value"], "2021-22");
    // Two engines play 40 plies: each is told the year (setoption Year), or its moves would be
    // 2022-23's and the board would refuse them.
    let (c, b) = s.post(
        "/api/settings",
        r#"{"seats": ["random", "greedy"], "pace": 0}"#,
    );
    assert_eq!(c, 200, "{b}");
    let st = s.wait_for(60, "40 plies", |st| {
        st["moves"].as_array().unwrap().len() >= 40 || !st["result"].is_null()
    });
    assert!(!messages(&st).contains("refused"), "{}", messages(&st));
    let cfg = ParchisConfig::of(Year::Y2021);
    let mut p = Parchis::start(&cfg);
    let moves: Vec<&str> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(moves.len() >= 40, "{moves:?}");
    for m in &moves {
        p = try_play(&p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    assert!(
        moves.iter().any(|m| m.ends_with(":3")),
        "no die 3 in {moves:?}"
    );
    // The page's picture is 2021-22's: each colour's dice, no item chips.
    let view = &st["view"];
    let keys: Vec<&str> = view["marks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["k"].as_str())
        .collect();
    assert!(
        keys.contains(&"die-g-3") && keys.contains(&"die-r-6"),
        "{keys:?}"
    );
    assert!(
        !keys
            .iter()
            .any(|k| k.starts_with("item-") || k.starts_with("die-p"))
    );
}
