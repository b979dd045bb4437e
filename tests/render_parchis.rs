//! Draws every golden Parchís position (`tests/golden/parchis/*.jsonl`, all plies, with
//! the traced move as the last move) and checks the picture: every piece in play is drawn by
//! exactly one mark keyed `piece-<piece>` (and, written out for every eighth position and every
//! whole picture, the SVG parses as XML with those keyed elements), no two piece discs overlap,
//! mark keys are unique, everything lies on the canvas, and every legal move has a click target
//! in the marks with a (target, choice) pair that no other legal move shares. The 2021-22
//! core's traces (`Year` 2021-22) are drawn the same way, and a 2021-22 picture shows that
//! year's panel: each colour's dice 1 to 6, no items, the colour to move marked.

use crate::common;

use std::collections::HashSet;

use serde_json::Value;
use tablero::core::game::Game;
use tablero::games::parchis::{Move, Moves, Parchis, ParchisConfig, Year};
use tablero::view::{Draw, Scene, Shape, picture, svg};

fn piece_key(id: usize) -> String {
    format!("piece-{}{}", ['y', 'b', 'r', 'g'][id >> 2], id & 3)
}

/// The piece id named by a `piece-<piece>` key; `None` for every other key.
fn piece_of_key(k: &str) -> Option<usize> {
    let rest = k.strip_prefix("piece-")?.as_bytes();
    let c = [b'y', b'b', b'r', b'g']
        .iter()
        .position(|&l| rest.first() == Some(&l))?;
    match rest.get(1..) {
        Some([d @ b'0'..=b'3']) => Some(4 * c + (d - b'0') as usize),
        _ => panic!("malformed piece key '{k}'"),
    }
}

#[derive(Default)]
struct Stats {
    states: usize,
    moves: usize,
    games: usize,
    skipped: usize,
    /// The board's canvas size.
    canvas: (f32, f32),
}

/// Checks one position; `last` is the position before and the move that led here.
///
/// The board part of a picture is the same for every position (checked once per game through
/// `picture`); the per-position scene holds the marks on the board's canvas. Every mark of
/// every position is checked as data; every eighth position's also goes through the SVG writer
/// and the XML parser.
fn check(s: &Parchis, last: Option<(&Parchis, Move)>, full: bool, at: &str, st: &mut Stats) {
    st.states += 1;
    let marks = s.marks(last);
    let scene = if full {
        let scene = picture(s, last);
        assert_eq!(&scene.items[scene.items.len() - marks.len()..], &marks[..]);
        scene
    } else {
        Scene {
            width: st.canvas.0,
            height: st.canvas.1,
            items: marks.clone(),
        }
    };
    // Mark keys: present and unique.
    let mut keys = HashSet::new();
    for m in &marks {
        assert!(!m.key.is_empty(), "{at}: a mark without key: {m:?}");
        assert!(
            keys.insert(m.key.as_str()),
            "{at}: duplicate mark key {}",
            m.key
        );
    }
    // Everything on the canvas.
    for it in &scene.items {
        let pts: Vec<(f32, f32)> = match &it.shape {
            Shape::Rect { x, y, w, h, .. } => vec![(*x, *y), (x + w, y + h)],
            Shape::Circle { x, y, r } => vec![(x - r, y - r), (x + r, y + r)],
            Shape::Ellipse { x, y, rx, ry } => vec![(x - rx, y - ry), (x + rx, y + ry)],
            Shape::Line { x1, y1, x2, y2 } => vec![(*x1, *y1), (*x2, *y2)],
            Shape::Polygon { pts } | Shape::Polyline { pts } => {
                pts.chunks(2).map(|p| (p[0], p[1])).collect()
            }
            Shape::Text { x, y, .. } => vec![(*x, *y)],
        };
        for (x, y) in pts {
            assert!(
                x.is_finite()
                    && y.is_finite()
                    && (-1.0..=scene.width + 1.0).contains(&x)
                    && (-1.0..=scene.height + 1.0).contains(&y),
                "{at}: item off the canvas: {it:?}"
            );
        }
    }
    // Each piece in play is exactly one keyed mark.
    let mut counts = [0usize; 16];
    for m in &marks {
        if let Some(id) = piece_of_key(&m.key) {
            counts[id] += 1;
        }
    }
    for (id, &n) in counts.iter().enumerate() {
        let want = usize::from(s.piece_in_play(id));
        assert_eq!(n, want, "{at}: {} drawn {n} times", piece_key(id));
    }
    // The SVG is well-formed XML with those pieces as keyed elements: written and parsed for
    // every whole picture and every eighth position. Writing and parsing were three quarters
    // of the run's time, and the writer is the same code for every mark.
    if full || st.states.is_multiple_of(8) {
        let doc = svg::document(&scene, 800, "parchis");
        let xml = roxmltree::Document::parse(&doc).unwrap_or_else(|e| panic!("{at}: bad SVG: {e}"));
        let mut drawn = [0usize; 16];
        for n in xml.descendants() {
            if let Some(k) = n.attribute("data-k")
                && let Some(id) = piece_of_key(k)
            {
                drawn[id] += 1;
            }
        }
        assert_eq!(drawn, counts, "{at}: the SVG's pieces are not the marks'");
    }
    // Piece discs never overlap (several pieces on one box or in a home sit side by side).
    let discs: Vec<(f32, f32, f32, &str)> = marks
        .iter()
        .filter(|m| m.key.starts_with("piece-"))
        .filter_map(|m| match m.shape {
            Shape::Circle { x, y, r } => Some((x, y, r, m.key.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(discs.len(), (0..16).filter(|&i| s.piece_in_play(i)).count());
    for (i, a) in discs.iter().enumerate() {
        for b in &discs[i + 1..] {
            let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
            assert!(
                d >= 0.95 * (a.2 + b.2),
                "{at}: {} and {} overlap ({d} apart)\n  fen {}",
                a.3,
                b.3,
                s.format_fen()
            );
        }
    }
    // Click targets: every legal move is reachable and identified by (target, choice).
    let targets: HashSet<&str> = marks
        .iter()
        .filter(|m| !m.target.is_empty())
        .map(|m| m.target.as_str())
        .collect();
    let mut moves = Moves::default();
    s.legal_moves(&mut moves);
    let mut pairs = HashSet::new();
    for &m in moves.as_ref() {
        st.moves += 1;
        let t = s.move_target(m);
        assert!(
            t.target == "pass" || targets.contains(t.target.as_str()),
            "{at}: move {} targets '{}', which no mark offers",
            s.format_move(m),
            t.target
        );
        assert!(
            !t.choice.is_empty(),
            "{at}: move {} has no choice",
            s.format_move(m)
        );
        assert!(
            pairs.insert((t.target.clone(), t.choice.clone())),
            "{at}: move {} shares its click path {t:?} with another move",
            s.format_move(m)
        );
    }
}

/// Checks every position of the games numbered in `games` of `file`; returns the counts and
/// the number of trace lines of those games.
fn run(file: &str, games: std::ops::Range<u64>) -> (Stats, usize) {
    let text = common::golden(&format!("parchis/{file}"));
    run_text(
        &format!("tests/golden/parchis/{file}"),
        &text,
        ParchisConfig::default(),
        games,
    )
}

/// [`run`] over the lines `text` of `path`, played under `cfg`.
fn run_text(
    path: &str,
    text: &str,
    cfg: ParchisConfig,
    games: std::ops::Range<u64>,
) -> (Stats, usize) {
    let file = path.rsplit('/').next().unwrap_or(path);
    let board = Parchis::start(&cfg).board();
    let mut st = Stats {
        canvas: (board.width, board.height),
        ..Stats::default()
    };
    let mut state: Option<Parchis> = None;
    let mut lines = 0;
    for (i, line) in text.lines().enumerate() {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1));
        let game = v["game"].as_u64().unwrap_or(u64::MAX);
        let ply = v["ply"].as_u64().unwrap_or(u64::MAX);
        if !games.contains(&game) {
            continue;
        }
        lines += 1;
        let at = format!("{file} game {game} ply {ply}");
        if ply == 0 {
            st.games += 1;
            let s = match v["config"].as_str() {
                Some("playground") => Parchis::named_start("playground", &cfg),
                _ => Some(Parchis::start(&cfg)),
            }
            .expect("start position");
            check(&s, None, true, &at, &mut st);
            state = Some(s);
            continue;
        }
        let Some(s) = state else {
            st.skipped += 1;
            continue;
        };
        let m = s
            .parse_move(v["move"].as_str().unwrap_or(""))
            .unwrap_or_else(|e| panic!("{at}: traced move rejected: {e}"));
        let next = s.apply(m);
        check(&next, Some((&s, m)), ply.is_multiple_of(50), &at, &mut st);
        state = Some(next);
    }
    (st, lines)
}

// The 275 normal games are split in two tests so that they run on two threads.
#[test]
fn traced_positions_of_games_0_to_137_draw_cleanly() {
    let (st, lines) = run("traces.jsonl", 0..138);
    assert_eq!(st.games, 138);
    assert_eq!(st.skipped, 0, "normal games are replayed in full");
    assert_eq!(st.states, lines);
    assert!(st.moves > 200_000, "only {} moves checked", st.moves);
}

#[test]
fn traced_positions_of_games_138_to_274_draw_cleanly() {
    let (st, lines) = run("traces.jsonl", 138..275);
    assert_eq!(st.games, 137);
    assert_eq!(st.skipped, 0, "normal games are replayed in full");
    assert_eq!(st.states, lines);
    assert!(st.moves > 200_000, "only {} moves checked", st.moves);
}

#[test]
fn every_playground_position_draws_cleanly() {
    let (st, lines) = run("playground_traces.jsonl", 0..40);
    assert_eq!(st.games, 40);
    assert_eq!(st.skipped, 0, "playground games are replayed in full");
    assert_eq!((st.states, lines), (5_440, 5_440));
}

#[test]
fn marks_keep_their_keys_from_ply_to_ply() {
    // The same piece keeps its key wherever it stands: a piece's disc moves, it is not renamed.
    let cfg = ParchisConfig::default();
    let s = Parchis::start(&cfg);
    let m = s.parse_move("y0:5").expect("legal");
    let t = s.apply(m);
    let find = |st: &Parchis, last| {
        st.marks(last)
            .into_iter()
            .find(|i| i.key == "piece-y0")
            .map(|i| i.shape)
    };
    let (a, b) = (find(&s, None), find(&t, Some((&s, m))));
    assert!(a.is_some() && b.is_some() && a != b, "{a:?} {b:?}");
    // The board does not depend on the position.
    assert_eq!(s.board(), t.board());
    assert_eq!(
        s.board(),
        Parchis::named_start("playground", &cfg).unwrap().board()
    );
}

#[test]
fn positions_of_2021_22_games_draw_cleanly() {
    // The first 60 of the 2021-22 core's 300 games (about 20,000 positions; the year's panel,
    // four pieces a colour, dice 1 to 6 in every click path).
    let rel = "parchis/core_traces_2021.jsonl";
    let text = common::traces(rel);
    let (st, lines) = run_text(rel, &text, ParchisConfig::of(Year::Y2021), 0..60);
    assert_eq!(st.games, 60);
    assert_eq!(st.skipped, 0);
    assert_eq!(st.states, lines);
    assert!(st.moves > 100_000, "only {} moves checked", st.moves);
}

/// The text of every text item of `items` whose key is `key`.
fn text_of(items: &[tablero::view::Item], key: &str) -> Option<String> {
    items
        .iter()
        .find(|i| i.key == key)
        .and_then(|i| match &i.shape {
            Shape::Text { txt, .. } => Some(txt.clone()),
            _ => None,
        })
}

#[test]
fn a_2021_22_picture_shows_each_colours_dice_no_items_and_the_colour_to_move() {
    let cfg = ParchisConfig::of(Year::Y2021);
    let s = Parchis::start(&cfg);
    // Yellow moves y1 with a 3 (a die 2022-23 does not have); blue is to move.
    let m = s.parse_move("y1:3").expect("legal in 2021-22");
    let t = s.apply(m);
    let marks = t.marks(Some((&s, m)));
    let keys: HashSet<&str> = marks.iter().map(|i| i.key.as_str()).collect();
    for (c, colour) in ["yellow", "blue", "red", "green"].iter().enumerate() {
        let l = ['y', 'b', 'r', 'g'][c];
        for d in 1..=6 {
            let die = marks
                .iter()
                .find(|i| i.key == format!("die-{l}-{d}"))
                .unwrap_or_else(|| panic!("no die {d} of {colour}"));
            let used = c == 0 && d == 3;
            let state = if used { "used" } else { "available" };
            assert_eq!(die.tip, format!("{colour}: die {d} {state}"));
            assert_eq!(
                text_of(&marks, &format!("die-{l}-{d}-t")),
                Some(d.to_string())
            );
        }
    }
    // No 2022-23 panel: no player dice, hand slots or item chips.
    for k in &keys {
        assert!(
            !["die-p", "hand-", "item-", "bonus-p", "trap-"]
                .iter()
                .any(|p| k.starts_with(p)),
            "2022-23 mark {k} in a 2021-22 picture"
        );
    }
    // The colour to move: the status line, its row of dice and its home alone.
    assert_eq!(
        text_of(&marks, "status").as_deref(),
        Some("Turn 2 · blue to move (player 1)")
    );
    let row = marks
        .iter()
        .find(|i| i.key == "turn-row")
        .expect("turn row");
    assert_eq!(row.tip, "blue to move");
    assert!(keys.contains("turn-home-0") && !keys.contains("turn-home-1"));
    let home = |c: usize| {
        let mut turned = t;
        while turned.colour_to_move() != c {
            let mut ms = Moves::default();
            turned.legal_moves(&mut ms);
            turned = turned.apply(ms.as_ref()[0]);
        }
        turned
            .marks(None)
            .into_iter()
            .find(|i| i.key == "turn-home-0")
            .map(|i| i.shape)
    };
    // Each colour's home gets the frame in its turn: four different frames.
    let frames: Vec<_> = (0..4).map(home).collect();
    for (i, a) in frames.iter().enumerate() {
        assert!(a.is_some());
        assert!(
            frames[i + 1..].iter().all(|b| b != a),
            "colour {i} shares a frame"
        );
    }
    // The board (the legend) names no items or piece states; the whole SVG has no item glyph.
    let doc = svg::document(&picture(&t, Some((&s, m))), 800, "parchis");
    for word in [
        ">items:",
        ">no items<",
        ">banana trap<",
        ">star<",
        ">mega (2 boxes)<",
    ] {
        assert!(!doc.contains(word), "'{word}' in the 2021-22 SVG");
    }
    assert!(doc.contains(">TO MOVE<"));
    assert!(doc.contains("2021-22 rules: no items"));
    // The 2022-23 picture keeps its five dice a player and its items.
    let old = Parchis::start(&ParchisConfig::default());
    let old_keys: Vec<String> = old.marks(None).into_iter().map(|i| i.key).collect();
    assert!(old_keys.iter().any(|k| k == "die-p0-4"));
    assert!(
        !old_keys
            .iter()
            .any(|k| k.starts_with("die-y-") || k == "turn-row")
    );
    assert!(old_keys.iter().any(|k| k.starts_with("item-")));
    assert_ne!(old.board(), t.board());
}

#[test]
fn a_2021_22_bonus_is_its_colours() {
    // Blue to move with +20 then +10 pending, green with +20: each on its own row.
    let cfg = ParchisConfig::of(Year::Y2021);
    let fen = "c b 5 h,n7,n13,n17/h,n21,n30,n34/h,n38,n47,n51/h,n55,n64,n68 \
               12456:-:-/123456:-:- 1256:-:20+10/123456:-:20 000000 - 0,0,0,3 e - y/-/-";
    let fen = fen.split_whitespace().collect::<Vec<_>>().join(" ");
    let s = Parchis::parse_fen(&fen, &cfg).expect("a 2021-22 state string");
    let marks = s.marks(None);
    assert_eq!(text_of(&marks, "bonus-b-t").as_deref(), Some("+10 +20"));
    assert_eq!(text_of(&marks, "bonus-g-t").as_deref(), Some("+20"));
    assert!(text_of(&marks, "bonus-y-t").is_none() && text_of(&marks, "bonus-r-t").is_none());
    let used: Vec<String> = marks
        .iter()
        .filter(|i| i.tip.starts_with("blue: die") && i.tip.ends_with("used"))
        .map(|i| i.tip.clone())
        .collect();
    assert_eq!(used, ["blue: die 3 used", "blue: die 4 used"]);
}

#[test]
fn positions_of_2024_25_games_draw_cleanly() {
    // The first 150 of the 2024-25 core's 600 games (about 17,000 positions; two pieces a
    // colour, the yin-yang die in every click path).
    let rel = "parchis/core_traces_2024.jsonl";
    let text = common::traces(rel);
    let (st, lines) = run_text(rel, &text, ParchisConfig::of(Year::Y2024), 0..150);
    assert_eq!(st.games, 150);
    assert_eq!(st.skipped, 0);
    assert_eq!(st.states, lines);
    assert!(st.moves > 100_000, "only {} moves checked", st.moves);
}

#[test]
fn a_2024_25_picture_shows_the_players_dice_with_the_yin_yang_and_whose_turn() {
    let cfg = ParchisConfig::of(Year::Y2024);
    let mut s = Parchis::start(&cfg);
    let mut last = None;
    for m in ["y1:6", "y0:yinyang", "b0:5"] {
        let m = s.parse_move(m).expect("legal in 2024-25");
        let t = s.apply(m);
        last = Some((s, m));
        s = t;
    }
    let (prev, m) = last.expect("three moves");
    let marks = s.marks(Some((&prev, m)));
    let keys: HashSet<&str> = marks.iter().map(|i| i.key.as_str()).collect();
    // Each player's six dice, the yin-yang last and drawn ☯; player 0 spent 6 and the yin-yang,
    // player 1 its 5.
    let faces = ["1", "2", "4", "5", "6", "☯"];
    let names = [
        "1 (2 boxes)",
        "2 (4 boxes)",
        "4 (8 boxes)",
        "5 (10 boxes)",
        "6 (12 boxes)",
        "yin-yang (one box)",
    ];
    for p in 0..2 {
        for k in 0..6 {
            let die = marks
                .iter()
                .find(|i| i.key == format!("die-p{p}-{k}"))
                .unwrap_or_else(|| panic!("no die {k} of player {p}"));
            let used = (p == 0 && (k == 4 || k == 5)) || (p == 1 && k == 3);
            let state = if used { "used" } else { "available" };
            assert_eq!(die.tip, format!("player {p}: die {} {state}", names[k]));
            assert_eq!(
                text_of(&marks, &format!("die-p{p}-{k}-t")).as_deref(),
                Some(faces[k])
            );
        }
    }
    // No items: no hand slots, item chips or traps.
    for k in &keys {
        assert!(
            !["hand-", "item-", "trap-", "die-y-", "turn-row"]
                .iter()
                .any(|p| k.starts_with(p)),
            "mark {k} in a 2024-25 picture"
        );
    }
    assert_eq!(
        text_of(&marks, "status").as_deref(),
        Some("Turn 4 · red's turn: player 1 to move (blue + red)")
    );
    // The mover's homes are its two colours': blue's and red's, not green's.
    let frames: Vec<_> = marks
        .iter()
        .filter(|i| i.key.starts_with("turn-home-"))
        .map(|i| i.shape.clone())
        .collect();
    let blue_red = Parchis::parse_fen(
        "y b 2 n4,n13/n21,n30/n38,n47/n55,n64 12456Y:-:- 12456Y:-:- 000000 - 0,0,0,0 - - -/-/-",
        &cfg,
    )
    .expect("a 2024-25 state string");
    let expected: Vec<_> = blue_red
        .marks(None)
        .into_iter()
        .filter(|i| i.key.starts_with("turn-home-"))
        .map(|i| i.shape)
        .collect();
    assert_eq!(frames.len(), 2);
    assert_eq!(frames, expected);
    let yellow_green = Parchis::start(&cfg).marks(None);
    assert!(
        yellow_green
            .iter()
            .filter(|i| i.key.starts_with("turn-home-"))
            .all(|i| !frames.contains(&i.shape))
    );
    assert_eq!(
        text_of(&marks, "bounces-p1").as_deref(),
        Some("bounces: b 0 · r 0")
    );
    let doc = svg::document(&picture(&s, Some((&prev, m))), 800, "parchis");
    assert!(doc.contains("2024-25: no items"));
    // The homes name their players: green is player 0's, red player 1's.
    assert!(doc.contains(">red · player 1<") && doc.contains(">green · player 0<"));
    assert!(!doc.contains(">no items<") && !doc.contains(">star<"));
    // A pending bonus shows beside the six dice.
    let fen = "y y 9 n4,n13/n21,n30/h,n47/n55,n64 1245:-:20 12456Y:-:- 000000 - 0,0,0,0 e - y/r/-";
    let b = Parchis::parse_fen(fen, &cfg).expect("a 2024-25 state string with a bonus");
    assert_eq!(
        text_of(&b.marks(None), "bonus-p0-t").as_deref(),
        Some("+20")
    );
}

#[test]
fn positions_of_2023_24_games_draw_cleanly() {
    // The first 100 of the 2023-24 core's 400 games (about 16,000 positions; every effect of
    // the special die, stars and pieces sent home by booms in the click paths and pictures).
    let rel = "parchis/core_traces_2023.jsonl";
    let text = common::traces(rel);
    let (st, lines) = run_text(rel, &text, ParchisConfig::of(Year::Y2023), 0..100);
    assert_eq!(st.games, 100);
    assert_eq!(st.skipped, 0);
    assert_eq!(st.states, lines);
    assert!(st.moves > 100_000, "only {} moves checked", st.moves);
}

#[test]
fn a_2023_24_picture_shows_the_special_die_and_the_power_bar() {
    let cfg = ParchisConfig::of(Year::Y2023);
    // Game 84 of the core's traces: player 0's three moves fill its bar to 55 (a red shell).
    let mut s = Parchis::start(&cfg);
    let mut last = None;
    for m in ["y1:4", "b0:6", "g2:5", "y0:1", "y1:20", "g0:4"] {
        let m = s.parse_move(m).expect("legal in 2023-24");
        let t = s.apply(m);
        last = Some((s, m));
        s = t;
    }
    let (prev, m) = last.expect("six moves");
    let marks = s.marks(Some((&prev, m)));
    let keys: HashSet<&str> = marks.iter().map(|i| i.key.as_str()).collect();
    // Each player's six dice, the special die last and drawn P; player 0 holds 2 5 6 and P.
    let faces = ["1", "2", "4", "5", "6", "P"];
    for p in 0..2 {
        for (k, face) in faces.iter().enumerate() {
            let die = marks
                .iter()
                .find(|i| i.key == format!("die-p{p}-{k}"))
                .unwrap_or_else(|| panic!("no die {k} of player {p}"));
            assert_eq!(
                text_of(&marks, &format!("die-p{p}-{k}-t")).as_deref(),
                Some(*face)
            );
            if p == 0 {
                let used = k == 0 || k == 2;
                assert_eq!(die.tip.ends_with("used"), used, "{}", die.tip);
            }
        }
    }
    let special = marks
        .iter()
        .find(|i| i.key == "die-p0-5")
        .expect("player 0's special die");
    assert_eq!(
        special.tip,
        "player 0: die P, the special die (now: red shell) available"
    );
    // The bars: player 0's at 55 (filled to 55 %), player 1's at 15 (a mushroom of 9 boxes).
    assert_eq!(
        text_of(&marks, "power-p0-t").as_deref(),
        Some("power 55 · P: red shell")
    );
    assert_eq!(
        text_of(&marks, "power-p1-t").as_deref(),
        Some("power 15 · P: mushroom (9 boxes)")
    );
    let frame = marks.iter().find(|i| i.key == "power-p0").expect("bar");
    let fill = marks
        .iter()
        .find(|i| i.key == "power-p0-fill")
        .expect("fill");
    let width = |i: &tablero::view::Item| match &i.shape {
        tablero::view::Shape::Rect { w, .. } => *w,
        other => panic!("not a rectangle: {other:?}"),
    };
    assert!((width(fill) / width(frame) - 0.55).abs() < 1e-3);
    assert_eq!(
        (0..9)
            .filter(|k| keys.contains(format!("power-p1-tick{k}").as_str()))
            .count(),
        9
    );
    // No items: no hand slots, item chips or traps; 2022-23's status line.
    for k in &keys {
        assert!(
            !["hand-", "item-", "trap-", "die-y-", "turn-row"]
                .iter()
                .any(|p| k.starts_with(p)),
            "mark {k} in a 2023-24 picture"
        );
    }
    assert_eq!(
        text_of(&marks, "status").as_deref(),
        Some("Turn 7 · player 0 to move (yellow + red)")
    );
    let doc = svg::document(&picture(&s, Some((&prev, m))), 800, "parchis");
    assert!(doc.contains("2023-24: no items"));
    assert!(doc.contains("100 catapumchimpum"));
    assert!(!doc.contains(">no items<"));
    // After the red shell: green's g0 sent home (a dashed ring), the bar empty.
    let shell = s.parse_move("r0:power").expect("legal");
    let t = s.apply(shell);
    let after = t.marks(Some((&s, shell)));
    assert!(after.iter().any(|i| i.key == "gone-g0"));
    assert!(!after.iter().any(|i| i.key == "power-p0-fill"));
    assert_eq!(
        text_of(&after, "power-p0-t").as_deref(),
        Some("power 0 · P: mushroom (7 boxes)")
    );
    // A star piece is drawn as one.
    let fen = "b 0 9 n5:s5,n37,n17/n28,n30,n34/n38,n47,n51/h,n64,h 256:0:- 12P:15:- 000000 - \
               0,0,0,0 - - r/-/g";
    let star = Parchis::parse_fen(fen, &cfg).expect("a 2023-24 state string with a star");
    let tip = star
        .marks(None)
        .into_iter()
        .find(|i| i.key == "piece-y0")
        .expect("y0")
        .tip;
    assert!(tip.contains("star (5 turns left)"), "{tip}");
}
