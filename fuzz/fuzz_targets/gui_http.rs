//! Fuzz target: the HTTP request handling of `tablero gui` without sockets: the request head
//! parser (`gui::parse_head`: httparse, the caps, Content-Length) and the router with every API
//! handler (`gui::route`) on one shared GUI session whose engine workers are the built-in
//! players.
//!
//! Input: the bytes a client sends (head, blank line, body). A `since=` long-poll parameter is
//! dropped before routing so that `/api/state` answers at once instead of waiting 25 s for a
//! change. Every answer must be a well-formed HTTP/1.1 response with a known status.

#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use tablero::games::GameKind;
use tablero::gui::{self, Shared};

const PORT: u16 = 8080;

/// Mancala's evaluation table ceiling in this build (see `init`).
const FUZZ_TABLE_SEEDS: usize = 8;

fn shared() -> &'static Arc<Shared> {
    static S: OnceLock<Arc<Shared>> = OnceLock::new();
    S.get_or_init(|| {
        let offered = gui::builtin_engines().expect("built-in engines");
        gui::start(offered, GameKind::Connect4, PORT, false).expect("gui session")
    })
}

fn check(answer: &[u8]) {
    let text = String::from_utf8_lossy(answer);
    let status: u16 = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|s| s.get(..3))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {text:.200}"));
    assert!((200..600).contains(&status), "status {status}");
    assert!(text.contains("\r\n\r\n"), "answer without a head end");
}

fuzz_target!(
    init: {
        // Mancala's endgame table is 9.7 M positions by default: over two minutes in this
        // instrumented, unoptimised build (0.4 s in a release), against libFuzzer's per-input
        // timeout. A small ceiling keeps the table's code under test at a size this build fills
        // in about a second.
        tablero::games::mancala::endgame::cap_eval_seeds(FUZZ_TABLE_SEEDS);
    },
    |data: &[u8]| one_input(data)
);

/// One fuzz input, checked.
fn one_input(data: &[u8]) {
    let shared = shared();
    let Some(end) = data
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
    else {
        return;
    };
    match gui::parse_head(&data[..end]) {
        Ok((mut r, len)) => {
            let body = &data[end..];
            if body.len() < len {
                return;
            }
            r.body = body[..len].to_vec();
            r.query = r
                .query
                .split('&')
                .filter(|kv| !kv.starts_with("since=") || kv[6..].parse::<u64>().is_err())
                .collect::<Vec<_>>()
                .join("&");
            check(&gui::route(&r, shared));
        }
        Err(e) => {
            let (code, reason) = (e.status(), e.to_string());
            assert!((400..600).contains(&code), "error status {code}");
            assert!(!reason.contains('\n'), "multi-line error: {reason}");
        }
    }
}
