//! `tablero gui` in a real browser: one complete game of each game against `builtin:random`
//! (Parchís and 5-en-Raya: their last part, from a position set through the page), played only by clicking what the page marks as legal (board items, then choice or pass
//! buttons). The result and the final state string the page shows must equal the engine's own
//! (`position startpos moves …` + `d` through the protocol). Screenshots of each board go to
//! `target/screenshots/gui-<game>.png`. The page's own probe measures the overhead per engine
//! move: click → engine reply drawn, minus the engine's think time (`go` → `bestmove`).

use crate::browser;
use crate::gui_support;

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

/// The first plies of a seeded random game of `G`, stopping `before_end` plies before that
/// game ended: a start from which a game by clicks still has a real end to reach, without the
/// hundreds of clicks (minutes of CI) a whole Parchís game costs. The early plies are what the
/// whole games by clicks of Connect Four, BOOM and Mancala already cover.
fn random_prefix<G: tablero::core::game::Game>(before_end: usize) -> String {
    let config = tablero::core::spec::default_config::<G>().unwrap();
    let mut s = G::start(&config);
    let mut line = Vec::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    while s.outcome().is_none() {
        let mut moves = G::Moves::default();
        s.legal_moves(&mut moves);
        let moves = moves.as_ref();
        x = tablero::core::rng::splitmix64(x);
        let m = moves[(x % moves.len() as u64) as usize];
        line.push(s.format_move(m));
        s = s.apply(m);
    }
    line.truncate(line.len().saturating_sub(before_end));
    line.join(" ")
}

/// Plays one game against `random` by clicks, from the start or after `prefix` (a move list set
/// through the page's own position box); returns the overhead samples (ms).
fn play_one(game: &str, max_plies: usize, prefix: &str) -> Vec<f64> {
    let server = Server::start(game, &[]);
    let b = Browser::launch_sized(1280, 860);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.querySelector('#board svg [data-g]')",
        LONG,
        "the board",
    );
    // The second seat is the random player (the page's own control), taken before any position
    // is set: the page shows the state the server confirms, so no look can see a human to move
    // where the random player is about to.
    b.eval("(() => { const s = document.getElementById('seat1'); s.value = 'random'; s.dispatchEvent(new Event('change')); })()");
    server.wait_for(30, "the random seat", |s| s["seats"][1] == "random");
    b.wait_until(
        "document.getElementById('status').textContent.includes('human')",
        LONG,
        "the seats",
    );
    if !prefix.is_empty() {
        b.eval(&format!(
            "(() => {{ document.getElementById('posinput').value = {}; }})()",
            js(prefix)
        ));
        b.click("#setpos");
        // The random player may answer at once: the moves start with the prefix.
        b.wait_until(
            &format!(
                "document.getElementById('moves').textContent.startsWith({})",
                js(prefix)
            ),
            LONG,
            "the position",
        );
    }
    let mut clicks = 0usize;
    loop {
        // One evaluation per look (each costs the DevTools round trip, ~0.1 s here).
        let look = |b: &Browser| {
            b.eval(
                "(() => ({ result: document.getElementById('result').textContent, \
                 moves: document.getElementById('moves').textContent, \
                 targets: [...new Set([...document.querySelectorAll('#board .legal')].map(e => e.getAttribute('data-g')))], \
                 pass: !!document.querySelector('#choices button.pass'), \
                 choice: !!document.querySelector('#choices button.choice.legal'), \
                 other: !!document.querySelector('#choices button.other') }))()",
            )
        };
        let wait = |b: &Browser, what: &str, ok: &dyn Fn(&serde_json::Value) -> bool| {
            let t = std::time::Instant::now();
            loop {
                let v = look(b);
                if ok(&v) {
                    return v;
                }
                assert!(
                    t.elapsed() < LONG,
                    "{game}: timed out waiting for {what}: {v}"
                );
            }
        };
        let v = wait(&b, "the human's turn or the end", &|v| {
            v["result"] != ""
                || v["pass"] == true
                || v["other"] == true
                || !v["targets"].as_array().unwrap().is_empty()
        });
        if v["result"] != "" {
            break;
        }
        assert!(
            clicks < max_plies,
            "{game}: no result after {clicks} clicks"
        );
        let before = v["moves"].clone();
        let targets = v["targets"].as_array().unwrap();
        if v["pass"] == true {
            b.tap("#choices button.pass");
        } else if !targets.is_empty() {
            // Vary the targets: the k-th distinct legal target, k from the click count.
            let t = targets[(clicks * 5 + 3) % targets.len()].as_str().unwrap();
            b.tap(&format!("#board [data-g={}].legal", js(t)));
            let v = wait(&b, "the move or its choices", &|v| {
                v["moves"] != before || v["choice"] == true
            });
            if v["moves"] == before {
                b.tap("#choices button.choice.legal");
            }
        } else {
            b.tap("#choices button.other");
        }
        clicks += 1;
        wait(&b, "the move to be played", &|v| v["moves"] != before);
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
}

#[test]
fn connect4_by_clicks() {
    report("connect4", play_one("connect4", 60, ""));
}

#[test]
fn connect4boom_by_clicks() {
    report("connect4boom", play_one("connect4boom", 120, ""));
}

#[test]
fn parchis_by_clicks() {
    type P = tablero::games::parchis::Parchis;
    report(
        "parchis",
        play_one("parchis", 1500, &random_prefix::<P>(40)),
    );
}

/// 5-en-Raya on the course's board, its last 30 plies by clicks (a human's turn may hold two
/// placements, a green cell one more).
#[test]
fn enraya_by_clicks() {
    type E = tablero::games::enraya::Enraya;
    report("enraya", play_one("enraya", 200, &random_prefix::<E>(30)));
}

/// 5-en-Raya's board files (the course simulator's `-file`): opened through the page's file
/// input, the position is the file's (the state string the engine reads from the same file);
/// pasted into the Position box, the same; a file of another board size is refused, saying
/// both sizes; an analysing engine's first pv move is highlighted on its cell. Screenshots
/// `gui-enraya-file.png`, `gui-enraya-analysis.png`, `gui-enraya-flipped.png`.
#[test]
fn enraya_board_file() {
    use tablero::core::game::Game;
    use tablero::games::enraya::Enraya;
    let server = Server::start("enraya", &[]);
    let b = Browser::launch_sized(1280, 1000);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.querySelector('#board svg [data-g]') && !document.getElementById('boardfilebox').hidden",
        LONG,
        "the board and its file input",
    );
    // A position of a seeded game, as the simulator would save it.
    let moves = random_prefix::<Enraya>(12);
    let cfg = tablero::core::spec::default_config::<Enraya>().unwrap();
    let mut s = Enraya::start(&cfg);
    for m in moves.split_whitespace() {
        s = s.apply(s.parse_move(m).unwrap());
    }
    let file = s.format_position_file().unwrap();
    let want = s.format_fen();
    b.eval(&format!(
        "(() => {{ const dt = new DataTransfer(); dt.items.add(new File([{}], 'tablero.txt', {{type: 'text/plain'}})); \
         const i = document.getElementById('boardfile'); i.files = dt.files; i.dispatchEvent(new Event('change')); }})()",
        js(&file)
    ));
    b.wait_until(
        &format!(
            "document.getElementById('fen').textContent === {}",
            js(&want)
        ),
        LONG,
        "the file's position",
    );
    assert_eq!(server.state()["base"], format!("fen {want}").as_str());
    assert_eq!(server.state()["moves"], serde_json::json!([]));
    let shot = b.screenshot("gui-enraya-file");
    eprintln!("screenshot {}", shot.display());
    // Analysis of the file's position: the pv's first move is highlighted on its cell.
    pick(&b, "analysis", "ninja2");
    b.wait_until(
        "document.querySelector('#board .pv')",
        LONG,
        "the pv highlight",
    );
    // One script reads both: lines still streaming in would re-render between two reads.
    let seen = b.eval(
        "[document.querySelector('#lines tbody tr td:last-child').textContent.split(' ')[0], \
          document.querySelector('#board .pv').getAttribute('data-g')]",
    );
    assert_eq!(
        seen[1], seen[0],
        "5-en-Raya targets are the cells, named as moves: {seen}"
    );
    b.screenshot("gui-enraya-analysis");
    // Turned for the other side: rotated, the texts upright.
    b.click("#flip");
    let t = b.eval("document.querySelector('#board svg g').getAttribute('transform')");
    assert!(t.as_str().unwrap_or("").starts_with("rotate(180"), "{t}");
    b.screenshot("gui-enraya-flipped");
    b.click("#flip");
    pick(&b, "analysis", "");
    b.wait_until(
        "!document.querySelector('#board .pv')",
        LONG,
        "analysis off",
    );
    // The same text pasted, after another position.
    set_position(&b, "startpos");
    b.wait_until(
        &format!(
            "document.getElementById('fen').textContent !== {}",
            js(&want)
        ),
        LONG,
        "the start",
    );
    set_position(&b, &file);
    b.wait_until(
        &format!(
            "document.getElementById('fen').textContent === {}",
            js(&want)
        ),
        LONG,
        "the pasted file's position",
    );
    // Another size: refused, naming both; the position stays.
    set_position(&b, "3 3 3\n0 1 2 0\n0 0 0\n0 1 0\n0 0 0\n");
    b.wait_until(
        "document.getElementById('error').textContent.includes('Rows=3 Columns=3 InARow=3')",
        LONG,
        "the refusal",
    );
    assert_eq!(
        b.text("#error"),
        "the board file is for Rows=3 Columns=3 InARow=3, but the board page plays Rows=9 Columns=9 InARow=5"
    );
    assert_eq!(b.text("#fen"), want);
    // A broken file: the reader's message.
    set_position(&b, "9 9 5\n2 1 1 4\n0 0 7\n");
    b.wait_until(
        "document.getElementById('error').textContent.startsWith('invalid board file: line 3')",
        LONG,
        "the file error",
    );
    // Connect Four has no board files: no file input.
    pick(&b, "game", "connect4");
    server.wait_for(20, "Connect Four", |s| s["game"] == "connect4");
    b.wait_until(
        "document.getElementById('boardfilebox').hidden",
        LONG,
        "no file input",
    );
}

#[test]
fn mancala_by_clicks() {
    report("mancala", play_one("mancala", 200, ""));
}

/// The other controls, by clicks: set a position, analysis with the pv's first move highlighted
/// on the board, flip, take back, and saving an unfinished game refused with a message.
#[test]
fn controls_by_clicks() {
    let server = Server::start("connect4", &[]);
    let b = Browser::launch_sized(1280, 860);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.querySelector('#board svg [data-g]')",
        LONG,
        "the board",
    );
    b.eval("(() => { document.getElementById('posinput').value = '4 4 3'; })()");
    b.click("#setpos");
    b.wait_until(
        "document.getElementById('moves').textContent === '4 4 3'",
        LONG,
        "the position",
    );
    assert_eq!(b.text("#fen"), engine_fen("connect4", "4 4 3"));
    // Analysis: ninja2 searches (depth 5) and its lines stream in; the first pv move's target
    // is highlighted on the board.
    b.eval("(() => { const s = document.getElementById('analysis'); s.value = 'ninja2'; s.dispatchEvent(new Event('change')); })()");
    b.wait_until(
        "document.querySelectorAll('#lines tbody tr').length > 0",
        LONG,
        "analysis lines",
    );
    b.wait_until(
        "document.querySelector('#board .pv')",
        LONG,
        "the pv highlight",
    );
    // Read in one script: the lines keep streaming in, and a render between separate reads
    // would pair one line's move with the next line's highlight.
    let seen = b.eval(
        "[document.getElementById('best').textContent, \
          document.querySelector('#lines tbody tr td:last-child').textContent.split(' ')[0], \
          document.querySelector('#board .pv').getAttribute('data-g')]",
    );
    let seen: Vec<&str> = seen
        .as_array()
        .expect("three strings")
        .iter()
        .map(|v| v.as_str().expect("a string"))
        .collect();
    let (best, first, pv_target) = (seen[0], seen[1], seen[2]);
    assert_eq!(best, format!("best {first}"));
    assert_eq!(pv_target, first, "Connect Four targets are columns");
    b.screenshot("gui-analysis");
    b.click("#flip");
    let t = b.eval("document.querySelector('#board svg g').getAttribute('transform')");
    assert!(t.as_str().unwrap_or("").contains("scale(-1,1)"), "{t}");
    b.screenshot("gui-flipped");
    b.click("#flip");
    // A human move, then take it back.
    b.click("#board [data-g=\"1\"].legal");
    b.wait_until(
        "document.getElementById('moves').textContent === '4 4 3 1'",
        LONG,
        "the move",
    );
    b.click("#undo");
    b.wait_until(
        "document.getElementById('moves').textContent === '4 4 3'",
        LONG,
        "the take-back",
    );
    b.click("#save");
    b.wait_until(
        "document.getElementById('error').textContent.includes('not finished')",
        LONG,
        "the refusal",
    );
    b.eval("(() => { const s = document.getElementById('analysis'); s.value = ''; s.dispatchEvent(new Event('change')); })()");
    b.wait_until(
        "!document.querySelector('#board .pv')",
        LONG,
        "analysis off",
    );
}

fn engine_fen(game: &str, moves: &str) -> String {
    let kind = GameKind::from_name(game).unwrap();
    tablero::protocol::run_script(kind, &format!("position startpos moves {moves}\nd\n"))
        .iter()
        .find_map(|l| l.strip_prefix("fen: ").map(str::to_string))
        .unwrap()
}

/// Parchís: clicking a piece shows every die of the turn as a button, the ones that piece can
/// use highlighted and the others disabled; clicking a highlighted one plays `<piece>:<die>`.
#[test]
fn parchis_choices_are_buttons() {
    let server = Server::start("parchis", &[]);
    let b = Browser::launch_sized(1280, 860);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.querySelector('#board .legal')",
        LONG,
        "a legal piece",
    );
    let piece = b.eval("document.querySelector('#board .legal').getAttribute('data-g')");
    let piece = piece.as_str().unwrap().to_string();
    b.tap(&format!("#board [data-g={}].legal", js(&piece)));
    b.wait_until(
        "document.querySelector('#choices button.choice.legal')",
        LONG,
        "the choices",
    );
    let st = server.state();
    let legal = st["view"]["legal"].as_array().unwrap();
    let usable: Vec<&str> = legal
        .iter()
        .filter(|l| l["g"] == piece.as_str())
        .map(|l| l["c"].as_str().unwrap())
        .collect();
    let shown = b.eval("[...document.querySelectorAll('#choices button.choice')].map(e => [e.textContent, e.classList.contains('legal'), e.disabled])");
    let shown = shown.as_array().unwrap();
    // Every choice of the position is a button, in the order of the legal moves.
    let mut all: Vec<&str> = vec![];
    for l in legal {
        let c = l["c"].as_str().unwrap();
        if !all.contains(&c) {
            all.push(c);
        }
    }
    let labels: Vec<&str> = shown.iter().map(|s| s[0].as_str().unwrap()).collect();
    assert_eq!(labels, all);
    for s in shown {
        let (label, hl, disabled) = (s[0].as_str().unwrap(), s[1] == true, s[2] == true);
        assert_eq!(hl, usable.contains(&label), "{label}: {shown:?}");
        assert_eq!(disabled, !hl);
    }
    b.screenshot("gui-parchis-choices");
    let before = st["moves"].as_array().unwrap().len();
    b.tap("#choices button.choice.legal");
    let st = server.wait_for(20, "the move", |s| {
        s["moves"].as_array().unwrap().len() > before
    });
    let played = st["moves"][before].as_str().unwrap();
    assert_eq!(played, format!("{piece}:{}", usable[0]));
}

/// Parchís 2021-22 on the page: the Year select starts a 2021-22 game, twelve human moves by
/// clicks against `random` (told the year) give the state string the engine gives for the same
/// moves under 2021-22, and the picture is that year's. Screenshot `gui-parchis-2021.png`.
#[test]
fn parchis_2021_22_by_clicks() {
    let server = Server::start("parchis", &[]);
    let b = Browser::launch_sized(1280, 1000);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.getElementById('variant-Year')",
        LONG,
        "the Year select",
    );
    pick(&b, "variant-Year", "2021-22");
    b.wait_until(
        "document.getElementById('fen').textContent.startsWith('c y 1 ')",
        LONG,
        "a 2021-22 game",
    );
    pick(&b, "seat1", "random");
    let mut humans = 0;
    while humans < 12 {
        b.wait_until(
            "document.getElementById('result').textContent !== '' || document.querySelector('#board .legal') || document.querySelector('#choices button.pass')",
            LONG,
            "the human's turn",
        );
        if !b.text("#result").is_empty() {
            break;
        }
        let before = b.text("#moves");
        if b.count("#choices button.pass") > 0 {
            b.tap("#choices button.pass");
        } else {
            b.tap("#board .legal");
            b.wait_until(
                &format!(
                    "document.getElementById('moves').textContent !== {} || document.querySelector('#choices button.choice.legal')",
                    js(&before)
                ),
                LONG,
                "the move or its choices",
            );
            if b.text("#moves") == before {
                b.tap("#choices button.choice.legal");
            }
        }
        b.wait_until(
            &format!(
                "document.getElementById('moves').textContent !== {}",
                js(&before)
            ),
            LONG,
            "the move",
        );
        humans += 1;
    }
    // Let random answer the last move before reading the position.
    b.wait_until(
        "document.getElementById('result').textContent !== '' || document.querySelector('#board .legal') || document.querySelector('#choices button.pass')",
        LONG,
        "the human's turn",
    );
    let moves = b.text("#moves");
    let lines = tablero::protocol::run_script(
        GameKind::Parchis,
        &format!("setoption name Year value 2021-22\nposition startpos moves {moves}\nd\n"),
    );
    let fen = lines
        .iter()
        .find_map(|l| l.strip_prefix("fen: "))
        .unwrap_or_else(|| panic!("no fen in {lines:?}"));
    assert_eq!(b.text("#fen"), fen, "after {moves}");
    assert!(fen.starts_with("c "), "{fen}");
    assert_eq!(b.count("#board [data-k^='die-'][data-k$='-t']"), 24);
    assert_eq!(
        b.count("#board [data-k^='die-p'], #board [data-k^='item-']"),
        0
    );
    assert_eq!(b.count("#board [data-k='turn-row']"), 1);
    b.screenshot("gui-parchis-2021");
}

/// Parchís 2023-24 on the page in Spanish: a position with the power bars filled (a seeded
/// random 2023-24 game, set through the Position box under the Year select) shows the special
/// die, the bars and the year's legend in Spanish, with no English left and no text the page
/// could not recognise. Screenshot `gui-es-parchis-2023.png`.
#[test]
fn parchis_2023_24_in_spanish() {
    use browser::i18n::audit_spanish;
    use tablero::core::game::Game;
    type P = tablero::games::parchis::Parchis;
    let values = std::collections::BTreeMap::from([("year".to_string(), 2023)]);
    let cfg = tablero::core::spec::configure::<P>(&values).unwrap();
    let mut s = P::start(&cfg);
    let mut moves = Vec::new();
    let mut x = 0x2023_2024u64;
    while moves.len() < 60 && s.outcome().is_none() {
        let mut ms = <P as Game>::Moves::default();
        s.legal_moves(&mut ms);
        let ms = ms.as_ref();
        x = tablero::core::rng::splitmix64(x);
        let m = ms[(x % ms.len() as u64) as usize];
        moves.push(s.format_move(m));
        s = s.apply(m);
    }
    let lines = tablero::protocol::run_script(
        GameKind::Parchis,
        &format!(
            "setoption name Year value 2023-24\nposition startpos moves {}\nd\n",
            moves.join(" ")
        ),
    );
    let fen = lines
        .iter()
        .find_map(|l| l.strip_prefix("fen: "))
        .unwrap_or_else(|| panic!("no fen in {lines:?}"))
        .to_string();
    assert!(fen.starts_with("b "), "{fen}");

    let server = Server::start("parchis", &[]);
    let b = Browser::launch_lang("es-ES,es", 1280, 1250);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.getElementById('variant-Year')",
        LONG,
        "the Year select",
    );
    pick(&b, "variant-Year", "2023-24");
    b.wait_until(
        "document.getElementById('fen').textContent.startsWith('b ')",
        LONG,
        "a 2023-24 game",
    );
    set_position(&b, &fen);
    b.wait_until(
        &format!(
            "document.getElementById('fen').textContent === {}",
            js(&fen)
        ),
        LONG,
        "the position",
    );
    assert_eq!(b.count("#board [data-k^='power-p'][data-k$='-fill']"), 2);
    let board = b.text("#board");
    for spanish in ["dado especial", "energía", "caparazón rojo"] {
        assert!(board.contains(spanish), "no '{spanish}' in {board}");
    }
    let problems = audit_spanish(&b);
    assert!(problems.is_empty(), "{problems:#?}");
    b.screenshot("gui-es-parchis-2023");
}

/// Sets a position through the page's own Position box and waits for it.
fn set_position(b: &Browser, text: &str) {
    b.eval(&format!(
        "(() => {{ document.getElementById('posinput').value = {}; }})()",
        js(text)
    ));
    b.tap("#setpos");
}

/// Picks `value` in the page's select `id` as a user would.
fn pick(b: &Browser, id: &str, value: &str) {
    b.eval(&format!(
        "(() => {{ const s = document.getElementById({}); s.value = {}; s.dispatchEvent(new Event('change')); }})()",
        js(id),
        js(value)
    ));
}

/// The page in Spanish and English (issue 23): a browser that prefers Spanish gets Spanish
/// (labels, status, messages, errors, every game's picture, checked by `audit_spanish`; every
/// text the pictures can draw has its translation), the switch changes the language at once and
/// is remembered, and a browser that prefers English gets English. Screenshots
/// `gui-es-<game>.png` and `gui-en-parchis.png`.
#[test]
fn spanish_and_english() {
    use browser::i18n::{audit_spanish, switch_to};
    let texts = std::thread::spawn(|| (picture_texts(), reader_errors()));
    // `dead` exits before `uciok`: its failure messages come from the server.
    let server = Server::start("parchis", &["--engine", "dead=true"]);
    let b = Browser::launch_lang("es-ES,es", 1280, 1250);
    b.goto(&server.url("/"));
    b.wait_until(
        "document.querySelector('#board svg [data-g]')",
        LONG,
        "the board",
    );
    assert_eq!(b.eval("document.documentElement.lang"), "es");
    assert_eq!(b.content("#newgame"), "Nueva partida");
    assert_eq!(
        b.eval("document.querySelector('.lang-switch [aria-pressed=true]').dataset.lang"),
        "es"
    );
    assert_eq!(b.content("#status"), "turno del primer jugador (humano)");
    let (pictures, errors) = texts.join().unwrap();
    check_picture_texts(&b, &pictures);
    check_picture_texts(&b, &errors);
    let mut problems = Vec::new();
    let mut audit = |b: &Browser, what: &str| {
        problems.extend(audit_spanish(b).into_iter().map(|p| format!("{what}: {p}")));
    };
    audit(&b, "parchis start");
    // Each game in a position whose picture says something: Parchís' playground (items in the
    // hands and on the board), a BOOM game with bombs, a Mancala extra turn, a Connect Four win.
    let moves_are = |m: &str| format!("document.getElementById('moves').textContent === {}", js(m));
    // 5-en-Raya in the middle of a game: special cells taken, the phase's cells dotted.
    let enraya_moves = random_prefix::<tablero::games::enraya::Enraya>(20);
    let games = [
        (
            "parchis",
            "playground",
            "document.getElementById('fen').textContent.startsWith('p ')".to_string(),
        ),
        (
            "connect4boom",
            "1 2 3 4 5 6 7 1 2 3 4 5 6 7 1 2",
            moves_are("1 2 3 4 5 6 7 1 2 3 4 5 6 7 1 2"),
        ),
        ("mancala", "3", moves_are("3")),
        ("enraya", enraya_moves.as_str(), moves_are(&enraya_moves)),
        ("connect4", "4 4 5 5 6 6 7", moves_are("4 4 5 5 6 6 7")),
    ];
    for (game, position, ready) in games {
        pick(&b, "game", game);
        server.wait_for(20, "the game", |s| s["game"] == game);
        set_position(&b, position);
        b.wait_until(&ready, LONG, "the position");
        audit(&b, game);
        b.screenshot(&format!("gui-es-{game}"));
    }
    assert_eq!(b.content("#result"), "resultado 1-0");
    assert_eq!(b.content("#status"), "1-0 — gana el primer jugador");
    // Errors from the server, in Spanish.
    pick(&b, "game", "connect4");
    server.wait_for(20, "a new game", |s| s["moves"] == serde_json::json!([]));
    b.wait_until(&moves_are(""), LONG, "a new game");
    b.tap("#undo");
    b.wait_until(
        "document.getElementById('error').textContent === 'no hay nada que deshacer'",
        LONG,
        "the take-back refusal",
    );
    b.tap("#save");
    b.wait_until(
        "document.getElementById('error').textContent === 'la partida no ha terminado'",
        LONG,
        "the save refusal",
    );
    set_position(&b, "zz");
    b.wait_until(
        "document.getElementById('error').textContent.startsWith('ni una lista de movimientos')",
        LONG,
        "the position error",
    );
    audit(&b, "errors");
    // An engine that dies: the server's messages, in Spanish.
    pick(&b, "seat0", "dead");
    b.wait_until(
        "document.querySelectorAll('#messages li').length >= 2",
        LONG,
        "the failure messages",
    );
    assert!(
        b.content("#messages")
            .contains("el motor 'dead' volvió a fallar"),
        "{}",
        b.content("#messages")
    );
    audit(&b, "messages");
    assert!(
        problems.is_empty(),
        "Spanish page:\n{}",
        problems.join("\n")
    );

    // The switch: English at once, remembered over a reload although the browser prefers
    // Spanish; then back.
    switch_to(&b, "en");
    assert_eq!(b.content("#newgame"), "New game");
    assert_eq!(b.eval("localStorage.getItem('tablero.lang')"), "en");
    let english = server.state();
    let last = english["messages"].as_array().unwrap().last().unwrap()["text"].clone();
    assert_eq!(
        b.eval("document.querySelector('#messages li').textContent"),
        last,
        "the server's own words"
    );
    assert_eq!(b.content("#status"), "first to move (dead, paused)");
    b.reload_until(
        "document.getElementById('status').textContent.includes('first')",
        "the page",
    );
    assert_eq!(b.eval("document.documentElement.lang"), "en");
    assert_eq!(b.content("#movenow"), "Move now");
    pick(&b, "game", "parchis");
    server.wait_for(20, "Parchís", |s| s["game"] == "parchis");
    b.wait_until(
        "[...document.querySelectorAll('#board text')].some(e => e.textContent === 'GOAL')",
        LONG,
        "the English picture",
    );
    b.screenshot("gui-en-parchis");
    switch_to(&b, "es");
    assert!(
        b.eval("[...document.querySelectorAll('#board text')].some(e => e.textContent === 'META')")
            == true
    );
    assert_eq!(b.eval("localStorage.getItem('tablero.lang')"), "es");

    // No choice remembered: the browser's language decides (navigator.languages).
    b.eval("localStorage.clear()");
    b.set_languages("en-US,en");
    b.reload_until(
        "document.getElementById('game').options.length > 0",
        "the page",
    );
    assert_eq!(b.eval("document.documentElement.lang"), "en");
    assert_eq!(b.content("#undo"), "Take back");
    b.set_languages("es-MX,es");
    b.reload_until(
        "document.getElementById('game').options.length > 0",
        "the page",
    );
    assert_eq!(b.eval("document.documentElement.lang"), "es");
    assert_eq!(b.content("#undo"), "Deshacer");
}

/// Every text the pictures of the five games draw (labels, tooltips, status lines) along seeded
/// random games, Parchís' playground, its 2021-22, 2023-24 and 2024-25 games and a 6 × 7
/// 5-en-Raya included.
fn picture_texts() -> Vec<String> {
    use std::collections::BTreeSet;
    use tablero::core::game::Game;
    use tablero::view::{Draw, Item, Shape};

    fn texts(items: &[Item], out: &mut BTreeSet<String>) {
        let line_of_label = |k: &str| {
            k.rsplit_once("-t")
                .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        for (i, it) in items.iter().enumerate() {
            if let Shape::Text { txt, .. } = &it.shape {
                // A label drawn over several lines (keys K-t, K-t1, …) is read as one.
                let mut whole = txt.clone();
                if it.key.ends_with("-t") {
                    for (j, next) in items[i + 1..].iter().enumerate() {
                        match &next.shape {
                            Shape::Text { txt, .. }
                                if next.key == format!("{}{}", it.key, j + 1) =>
                            {
                                whole += txt
                            }
                            _ => break,
                        }
                    }
                }
                if !line_of_label(&it.key) {
                    out.insert(whole);
                }
            }
            if !it.tip.is_empty() {
                out.insert(it.tip.clone());
            }
        }
    }
    fn games<G: Draw>(starts: &[G], n: usize, out: &mut BTreeSet<String>) {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        texts(&starts[0].board().items, out);
        for k in 0..n {
            let mut s = starts[k % starts.len()];
            texts(&s.marks(None), out);
            for _ in 0..2000 {
                if s.outcome().is_some() {
                    break;
                }
                let mut ms = G::Moves::default();
                s.legal_moves(&mut ms);
                let ms = ms.as_ref();
                x = tablero::core::rng::splitmix64(x);
                let m = ms[(x % ms.len() as u64) as usize];
                let next = s.apply(m);
                texts(&next.marks(Some((&s, m))), out);
                s = next;
            }
        }
    }
    fn start<G: Game>() -> G {
        G::start(&tablero::core::spec::default_config::<G>().unwrap())
    }
    let mut all = BTreeSet::new();
    games(
        &[start::<tablero::games::connect4::Connect4>()],
        40,
        &mut all,
    );
    games(&[start::<tablero::games::boom::Boom>()], 40, &mut all);
    games(&[start::<tablero::games::mancala::Mancala>()], 40, &mut all);
    type E = tablero::games::enraya::Enraya;
    let small = tablero::games::enraya::Config {
        rows: 6,
        cols: 7,
        n: 4,
    };
    games(&[start::<E>(), E::start(&small)], 40, &mut all);
    type P = tablero::games::parchis::Parchis;
    let cfg = tablero::core::spec::default_config::<P>().unwrap();
    let playground = P::named_start("playground", &cfg).unwrap();
    games(&[start::<P>(), playground], 24, &mut all);
    // The other years draw their own panels, dice and legends.
    for year in [2021, 2023, 2024] {
        let values = std::collections::BTreeMap::from([("year".to_string(), year)]);
        let cfg = tablero::core::spec::configure::<P>(&values).unwrap();
        games(&[P::start(&cfg)], 8, &mut all);
    }

    all.into_iter().collect()
}

/// The errors of the games' move and state-string readers, as the Position box reports them:
/// random edits (a character changed, dropped or doubled, a field dropped or doubled) of the
/// state strings met along seeded random games, and move words tried on those positions.
fn reader_errors() -> Vec<String> {
    use std::collections::BTreeSet;
    use tablero::core::game::Game;

    fn errors<G: Game>(n_games: usize, words: &[&str], out: &mut BTreeSet<String>) {
        let cfg = tablero::core::spec::default_config::<G>().unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            x = tablero::core::rng::splitmix64(x);
            (x % n as u64) as usize
        };
        let mut states = vec![G::start(&cfg)];
        if let Some(p) = G::named_start("playground", &cfg) {
            states.push(p);
        }
        for _ in 0..n_games {
            let mut s = states[0];
            for _ in 0..400 {
                if s.outcome().is_some() {
                    break;
                }
                let mut ms = G::Moves::default();
                s.legal_moves(&mut ms);
                let ms = ms.as_ref();
                s = s.apply(ms[next(ms.len())]);
                if next(8) == 0 {
                    states.push(s);
                }
            }
            states.push(s);
        }
        const CHARS: &[u8] = b"0123456789xoXOSNnpqghbrgy/,:- +*abcdefz";
        for s in &states {
            let fen = s.format_fen();
            for _ in 0..60 {
                let mut t: Vec<u8> = fen.clone().into_bytes();
                match next(5) {
                    0 if !t.is_empty() => {
                        let i = next(t.len());
                        t[i] = CHARS[next(CHARS.len())];
                    }
                    1 if !t.is_empty() => {
                        t.remove(next(t.len()));
                    }
                    2 if !t.is_empty() => {
                        let i = next(t.len());
                        t.insert(i, t[i]);
                    }
                    _ => {
                        let mut f: Vec<&str> = fen.split(' ').collect();
                        let i = next(f.len());
                        if next(2) == 0 {
                            f.remove(i);
                        } else {
                            f.insert(i, f[i]);
                        }
                        t = f.join(" ").into_bytes();
                    }
                }
                if let Err(e) = G::parse_fen(&String::from_utf8_lossy(&t), &cfg) {
                    out.insert(e.to_string());
                }
            }
            for w in words {
                if let Err(e) = s.parse_move(w) {
                    out.insert(e.to_string());
                }
            }
        }
    }
    let mut all = BTreeSet::new();
    let c4 = ["0", "8", "x", "4", "1", "7"];
    errors::<tablero::games::connect4::Connect4>(6, &c4, &mut all);
    let boom = ["0", "9", "boom", "x", "4"];
    errors::<tablero::games::boom::Boom>(6, &boom, &mut all);
    let mancala = ["0", "7", "x", "3", "6", "-1"];
    errors::<tablero::games::mancala::Mancala>(6, &mancala, &mut all);
    let parchis = [
        "y0:5",
        "y0:3",
        "b9:5",
        "q0:5",
        "y0",
        "pass:1",
        "r1:7",
        "g2:banana",
        "y0:redshell",
        "x:5",
    ];
    errors::<tablero::games::parchis::Parchis>(4, &parchis, &mut all);
    let enraya = [
        "0,0", "9,9", "4,44", "x", "4,4", "pass", "4,5,", "-1,2", "4", "3,3", "0,4",
    ];
    errors::<tablero::games::enraya::Enraya>(6, &enraya, &mut all);
    board_file_errors(&mut all);
    all.into_iter().collect()
}

/// The errors of 5-en-Raya's board-file reader, as the Position box reports them: random edits
/// (a character changed, dropped or doubled, a line dropped or doubled) of the files of
/// positions met along seeded random games, on boards of several sizes.
fn board_file_errors(out: &mut std::collections::BTreeSet<String>) {
    use tablero::core::game::Game;
    use tablero::games::enraya::{Config, Enraya};
    let mut x = 0x5851_f42d_4c95_7f2du64;
    let mut next = |n: usize| {
        x = tablero::core::rng::splitmix64(x);
        (x % n as u64) as usize
    };
    const CHARS: &[u8] = b"0123456789 -\nxa";
    for cfg in [
        Config::default(),
        Config {
            rows: 3,
            cols: 4,
            n: 3,
        },
    ] {
        let mut s = Enraya::start(&cfg);
        for _ in 0..12 {
            let file = s.format_position_file().unwrap();
            for _ in 0..80 {
                let mut t: Vec<u8> = file.clone().into_bytes();
                match next(4) {
                    0 => {
                        let i = next(t.len());
                        t[i] = CHARS[next(CHARS.len())];
                    }
                    1 => {
                        t.remove(next(t.len()));
                    }
                    2 => {
                        let i = next(t.len());
                        t.insert(i, t[i]);
                    }
                    _ => {
                        let mut l: Vec<&str> = file.split('\n').collect();
                        let i = next(l.len());
                        if next(2) == 0 {
                            l.remove(i);
                        } else {
                            l.insert(i, l[i]);
                        }
                        t = l.join("\n").into_bytes();
                    }
                }
                if let Some(Err(e)) = Enraya::parse_position_file(&String::from_utf8_lossy(&t)) {
                    out.insert(e.to_string());
                    out.insert(format!("invalid board file: {e}"));
                }
            }
            if s.outcome().is_some() {
                break;
            }
            let mut ms = <Enraya as Game>::Moves::default();
            s.legal_moves(&mut ms);
            let ms = ms.as_ref();
            s = s.apply(ms[next(ms.len())]);
        }
    }
    out.insert(
        "the board file is for Rows=3 Columns=3 InARow=3, but the board page plays Rows=9 Columns=9 InARow=5"
            .into(),
    );
}

/// Each text (made by Rust in English) is recognised by the page (one of the English templates
/// of the string table) and so shown in Spanish: none is left in English.
fn check_picture_texts(b: &Browser, all: &[String]) {
    let shown = b.eval(&format!(
        "(() => {{ const all = {}; return all.map((s) => TableroI18n.rust(s)); }})()",
        serde_json::to_string(&all).unwrap()
    ));
    let missed = b.eval("[...TableroI18n.misses]");
    assert_eq!(missed, serde_json::json!([]), "texts not recognised");
    let shown = shown.as_array().unwrap();
    let same: Vec<&String> = all
        .iter()
        .zip(shown)
        .filter(|(a, s)| {
            s.as_str() == Some(a.as_str())
                && a.chars().filter(|c| c.is_ascii_alphabetic()).count() > 2
        })
        .map(|(a, _)| a)
        .collect();
    eprintln!(
        "{} texts, all recognised; shown unchanged in Spanish: {same:?}",
        all.len()
    );
}
