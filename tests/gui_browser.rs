//! `tablero gui` in a real browser: one complete game of each game against `builtin:random`,
//! played only by clicking what the page marks as legal (board items, then choice or pass
//! buttons). The result and the final state string the page shows must equal the engine's own
//! (`position startpos moves …` + `d` through the protocol). Screenshots of each board go to
//! `target/screenshots/gui-<game>.png`. The page's own probe measures the overhead per engine
//! move: click → engine reply drawn, minus the engine's think time (`go` → `bestmove`).

mod browser;
mod gui_support;

use std::time::Duration;

use browser::Browser;
use gui_support::Server;
use tablero::games::GameKind;

const LONG: Duration = Duration::from_secs(30);

fn js(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// The engine's own view of the final position: (state string, result line of `d`).
fn engine_view(game: &str, moves: &str) -> (String, String) {
    let kind = GameKind::from_name(game).unwrap();
    let lines =
        tablero::protocol::run_script(kind, &format!("position startpos moves {moves}\nd\n"));
    let fen = lines
        .iter()
        .find_map(|l| l.strip_prefix("fen: "))
        .unwrap_or_else(|| panic!("no fen in {lines:?}"))
        .to_string();
    let over = lines
        .iter()
        .find_map(|l| l.strip_prefix("game over: "))
        .unwrap_or_else(|| panic!("the engine says the game is not over: {lines:?}"))
        .to_string();
    (fen, over)
}

/// Plays one game against `random` by clicks; returns the overhead samples (ms).
fn play_one(game: &str, max_plies: usize) -> Vec<f64> {
    let server = Server::start(game, &[]);
    let b = Browser::launch_sized(1280, 860);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.querySelector('#board svg [data-g]')",
        LONG,
        "the board",
    );
    // The second seat is the random player (the page's own control).
    b.eval("(() => { const s = document.getElementById('seat1'); s.value = 'random'; s.dispatchEvent(new Event('change')); })()");
    b.wait_until(
        "document.getElementById('seat1').value === 'random' && document.getElementById('status').textContent.includes('human')",
        LONG,
        "the seats",
    );
    let mut clicks = 0usize;
    loop {
        b.wait_until(
            "document.getElementById('result').textContent !== '' || document.querySelector('#board .legal, #choices button.legal')",
            LONG,
            "the human's turn or the end",
        );
        if !b.text("#result").is_empty() {
            break;
        }
        assert!(
            clicks < max_plies,
            "{game}: no result after {clicks} clicks"
        );
        let before = b.text("#moves");
        if b.count("#choices button.pass") > 0 {
            b.click("#choices button.pass");
        } else if b.count("#board .legal") > 0 {
            // Vary the targets: the k-th distinct legal target, k from the click count.
            let targets = b.eval(
                "[...new Set([...document.querySelectorAll('#board .legal')].map(e => e.getAttribute('data-g')))]",
            );
            let targets: Vec<String> = targets
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            let t = &targets[(clicks * 5 + 3) % targets.len()];
            b.click(&format!("#board [data-g={}].legal", js(t)));
            b.wait_until(
                &format!(
                    "document.getElementById('moves').textContent !== {} || document.querySelector('#choices button.choice.legal')",
                    js(&before)
                ),
                LONG,
                "the move or its choices",
            );
            if b.count("#choices button.choice.legal") > 0 {
                b.click("#choices button.choice.legal");
            }
        } else {
            b.click("#choices button.legal");
        }
        clicks += 1;
        b.wait_until(
            &format!(
                "document.getElementById('moves').textContent !== {}",
                js(&before)
            ),
            LONG,
            "the move to be played",
        );
    }
    let result = b.text("#result");
    let fen = b.text("#fen");
    let moves = b.text("#moves");
    let (engine_fen, over) = engine_view(game, &moves);
    assert_eq!(fen, engine_fen, "{game}: state string after {moves}");
    let expected = match over.as_str() {
        "first player wins" => "result 1-0",
        "second player wins" => "result 0-1",
        _ => "result 1/2-1/2",
    };
    assert_eq!(result, expected, "{game}: engine says '{over}'");
    // The server's own copy agrees with what the page shows.
    let st = server.state();
    assert_eq!(st["fen"], fen.as_str());
    let shot = b.screenshot(&format!("gui-{game}"));
    eprintln!(
        "{game}: {clicks} clicks, {result}, screenshot {}",
        shot.display()
    );
    let t = b.eval("window.tableroTimings");
    t.as_array()
        .unwrap()
        .iter()
        .map(|x| x["total_ms"].as_f64().unwrap() - x["think_ms"].as_f64().unwrap())
        .collect()
}

fn report(game: &str, mut ov: Vec<f64>) {
    assert!(!ov.is_empty(), "{game}: no engine reply was timed");
    ov.sort_by(|a, b| a.total_cmp(b));
    let med = ov[ov.len() / 2];
    let mean = ov.iter().sum::<f64>() / ov.len() as f64;
    eprintln!(
        "{game}: gui overhead per engine move over {} replies: median {med:.1} ms, mean {mean:.1} ms, max {:.1} ms",
        ov.len(),
        ov[ov.len() - 1]
    );
    // Page → server → engine → server → page on loopback is a few milliseconds; half a second
    // would mean a stall (a missed wake-up of the long poll, a polling delay).
    assert!(med < 500.0, "{game}: median overhead {med:.1} ms");
}

#[test]
fn connect4_by_clicks() {
    report("connect4", play_one("connect4", 60));
}

#[test]
fn connect4boom_by_clicks() {
    report("connect4boom", play_one("connect4boom", 120));
}

#[test]
fn mancala_by_clicks() {
    report("mancala", play_one("mancala", 200));
}
