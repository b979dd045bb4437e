//! The pictures of Connect Four, Conecta-4 BOOM, Kalah and 5-en-Raya along many games: every SVG
//! parses as XML, every piece (stone, bomb, seed) is drawn exactly once under its key, keys are
//! unique, the winning lines appear exactly when the game is won and lie on the winner's stones,
//! the last move is marked, and every legal move has a unique (target, choice) whose target is
//! clickable.

use crate::common;

use std::collections::{HashMap, HashSet};

use tablero::core::game::{Game, Outcome, Side};
use tablero::games::boom::{self, Boom, BoomMove};
use tablero::games::connect4::{Config, Connect4};
use tablero::games::enraya::{self, Enraya, Special};
use tablero::games::mancala::{Mancala, MancalaConfig};
use tablero::view::{Draw, Item, Scene, Shape, picture, svg};

/// xorshift64*: a small seeded generator so that every run draws the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn legal<G: Game>(s: &G) -> Vec<G::Move> {
    let mut ms = G::Moves::default();
    s.legal_moves(&mut ms);
    ms.as_ref().to_vec()
}

/// Checks shared by every game; returns the picture's marks for game-specific checks.
fn check_common<G: Draw>(s: &G, last: Option<(&G, G::Move)>, what: &str) -> Vec<Item> {
    let scene: Scene = picture(s, last);
    let doc = svg::document(&scene, 640, what);
    let xml = roxmltree::Document::parse(&doc)
        .unwrap_or_else(|e| panic!("{what}: SVG is not XML: {e}\n{doc}"));
    let root = xml.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{what}");
    assert_eq!(root.attribute("width"), Some("640"), "{what}");
    let marks = s.marks(last);
    // Every mark is keyed, keys are unique, and the SVG carries each key exactly once.
    let mut keys = HashSet::new();
    for m in &marks {
        assert!(!m.key.is_empty(), "{what}: unkeyed mark {m:?}");
        assert!(
            keys.insert(m.key.clone()),
            "{what}: duplicate key {}",
            m.key
        );
    }
    let svg_keys: Vec<&str> = xml
        .descendants()
        .filter_map(|n| n.attribute("data-k"))
        .collect();
    assert_eq!(svg_keys.len(), marks.len(), "{what}: data-k count");
    // Coordinates stay on the canvas.
    for it in &scene.items {
        let pts: Vec<(f32, f32)> = match &it.shape {
            Shape::Rect { x, y, w, h, .. } => vec![(*x, *y), (x + w, y + h)],
            Shape::Circle { x, y, r } => vec![(x - r, y - r), (x + r, y + r)],
            Shape::Text { x, y, .. } => vec![(*x, *y)],
            Shape::Line { x1, y1, x2, y2 } => vec![(*x1, *y1), (*x2, *y2)],
            Shape::Ellipse { x, y, rx, ry } => vec![(x - rx, y - ry), (x + rx, y + ry)],
            Shape::Polygon { pts } | Shape::Polyline { pts } => {
                pts.chunks(2).map(|p| (p[0], p[1])).collect()
            }
        };
        for (x, y) in pts {
            assert!(
                (-0.5..=scene.width + 0.5).contains(&x) && (-0.5..=scene.height + 0.5).contains(&y),
                "{what}: item off the canvas {it:?}"
            );
        }
    }
    // Move targets: unique pairs, each target clickable.
    let targets: HashSet<&str> = scene
        .items
        .iter()
        .filter(|i| !i.target.is_empty())
        .map(|i| i.target.as_str())
        .collect();
    let mut pairs = HashSet::new();
    for m in legal(s) {
        let t = s.move_target(m);
        assert!(
            targets.contains(t.target.as_str()),
            "{what}: move {} has target '{}' that no item offers",
            s.format_move(m),
            t.target
        );
        assert!(
            pairs.insert((t.target.clone(), t.choice.clone())),
            "{what}: two moves share target {t:?}"
        );
    }
    // The last-move highlight is there exactly when a last move is given.
    let has_last = marks.iter().any(|i| i.class == "last");
    assert_eq!(has_last, last.is_some(), "{what}: last-move highlight");
    marks
}

/// Grid checks: one body per stone under key `c<col>r<row>` (a circle, or a polygon for a bomb)
/// and one letter `c<col>r<row>.l`; winning lines exactly when won, on the winner's stones.
fn check_grid(
    marks: &[Item],
    cols: u32,
    rows: u32,
    cell: &dyn Fn(u32, u32) -> Option<(Side, bool)>,
    outcome: Option<Outcome>,
    what: &str,
) {
    let by_key: HashMap<&str, &Item> = marks.iter().map(|i| (i.key.as_str(), i)).collect();
    let mut stones = 0;
    for c in 0..cols {
        for r in 0..rows {
            let key = format!("c{}r{}", c + 1, r + 1);
            match cell(c, r) {
                Some((side, bomb)) => {
                    stones += 1;
                    let body = by_key
                        .get(key.as_str())
                        .unwrap_or_else(|| panic!("{what}: stone {key} not drawn"));
                    match (&body.shape, bomb) {
                        (Shape::Circle { .. }, false) | (Shape::Polygon { .. }, true) => {}
                        (sh, _) => panic!("{what}: {key} bomb={bomb} drawn as {sh:?}"),
                    }
                    let letter = by_key
                        .get(format!("{key}.l").as_str())
                        .unwrap_or_else(|| panic!("{what}: {key} has no letter"));
                    let want = match (side, bomb) {
                        (Side::First, false) => "x",
                        (Side::Second, false) => "o",
                        (Side::First, true) => "X",
                        (Side::Second, true) => "O",
                    };
                    assert!(
                        matches!(&letter.shape, Shape::Text { txt, .. } if txt == want),
                        "{what}: {key} letter"
                    );
                }
                None => assert!(!by_key.contains_key(key.as_str()), "{what}: {key} is empty"),
            }
        }
    }
    let drawn = marks
        .iter()
        .filter(|i| {
            let k = &i.key;
            k.starts_with('c') && !k.contains('.') && k[1..].split('r').count() == 2
        })
        .count();
    assert_eq!(drawn, stones, "{what}: stones drawn once each");
    let lines: Vec<&Item> = marks
        .iter()
        .filter(|i| i.class == "win" && matches!(i.shape, Shape::Line { .. }))
        .collect();
    match outcome {
        Some(Outcome::Win(w)) => {
            assert!(!lines.is_empty(), "{what}: won but no winning line");
            for l in &lines {
                // Key win.<c0>.<r0>.<c1>.<r1>[.under]: every cell on it is the winner's.
                let v: Vec<i32> = l
                    .key
                    .split('.')
                    .skip(1)
                    .take(4)
                    .map(|t| t.parse().unwrap())
                    .collect();
                let (dc, dr) = ((v[2] - v[0]).signum(), (v[3] - v[1]).signum());
                let n = (v[2] - v[0]).abs().max((v[3] - v[1]).abs()) + 1;
                assert!(n >= 4, "{what}: line {} shorter than four", l.key);
                for i in 0..n {
                    let (c, r) = (v[0] + i * dc - 1, v[1] + i * dr - 1);
                    assert_eq!(
                        cell(c as u32, r as u32).map(|x| x.0),
                        Some(w),
                        "{what}: line {} crosses a cell not of the winner",
                        l.key
                    );
                }
            }
        }
        _ => assert!(
            marks.iter().all(|i| i.class != "win"),
            "{what}: a winning line without a win"
        ),
    }
}

fn check_connect4(s: &Connect4, last: Option<(&Connect4, u8)>, what: &str) {
    let marks = check_common(s, last, what);
    let cell = |c: u32, r: u32| s.cell(c, r).map(|x| (x, false));
    check_grid(&marks, s.width(), s.height(), &cell, s.outcome(), what);
}

/// Every position along every golden line, then the game played on at random to its end (the
/// golden positions themselves are never won).
#[test]
fn connect4_golden_games() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = 0;
    for (file, rows) in [
        ("Test_L3_R1", 6),
        ("Test_L2_R1", 6),
        ("Test_L2_R2", 6),
        ("Test_L1_R1", 6),
        ("Test_L1_R2", 6),
        ("Test_L1_R3", 6),
        ("7x7_positions.txt", 7),
    ] {
        let cfg = Config { rows, columns: 7 };
        let text = common::golden(&format!("connect4/{file}"));
        // Every 10th line of each set: all six sets and every game length at a tenth of the
        // cost (the full sets make ~200,000 pictures with their continuations).
        for (n, line) in text.lines().enumerate().filter(|(n, _)| n % 10 == 0) {
            let moves = line.split_whitespace().next().unwrap();
            let mut s = Connect4::start(&cfg);
            let mut prev: Option<(Connect4, u8)>;
            let what = |i: usize| format!("{file}:{} after {} moves", n + 1, i);
            check_connect4(&s, None, &what(0));
            let mut i = 0;
            for ch in moves.chars() {
                let m = s.parse_move(&ch.to_string()).unwrap();
                prev = Some((s, m));
                s = s.apply(m);
                i += 1;
                check_connect4(&s, prev.as_ref().map(|(p, m)| (p, *m)), &what(i));
                positions += 1;
            }
            while s.outcome().is_none() {
                let ms = legal(&s);
                let m = ms[rng.below(ms.len())];
                prev = Some((s, m));
                s = s.apply(m);
                i += 1;
                check_connect4(&s, prev.as_ref().map(|(p, m)| (p, *m)), &what(i));
                positions += 1;
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
}

/// Random games on every board size.
#[test]
fn connect4_every_size() {
    let mut rng = Rng(12345);
    let mut wins = 0;
    let mut draws = 0;
    for rows in 4..=8u8 {
        for columns in 4..=7u8 {
            let cfg = Config { rows, columns };
            for g in 0..30 {
                let mut s = Connect4::start(&cfg);
                check_connect4(&s, None, &format!("{columns}x{rows} game {g} start"));
                while s.outcome().is_none() {
                    let ms = legal(&s);
                    let m = ms[rng.below(ms.len())];
                    let p = s;
                    s = s.apply(m);
                    check_connect4(&s, Some((&p, m)), &format!("{columns}x{rows} game {g}"));
                }
                match s.outcome() {
                    Some(Outcome::Draw) => draws += 1,
                    _ => wins += 1,
                }
            }
        }
    }
    assert!(wins > 100 && draws > 0, "wins {wins} draws {draws}");
}

fn check_boom(s: &Boom, last: Option<(&Boom, BoomMove)>, what: &str) {
    let marks = check_common(s, last, what);
    let cell = |c: u32, r: u32| s.cell(c, r);
    check_grid(&marks, boom::SIZE, boom::SIZE, &cell, s.outcome(), what);
    // BOOM is clickable on the mover's bomb whenever it is legal.
    if legal(s).contains(&BoomMove::Boom) {
        let b = s.bomb(s.side_to_move()).trailing_zeros();
        let key = format!("c{}r{}", b / boom::STRIDE + 1, b % boom::STRIDE + 1);
        assert!(
            marks.iter().any(|i| i.key == key && i.target == "boom"),
            "{what}: the bomb {key} is not a BOOM target"
        );
    }
}

/// Random BOOM games that detonate bombs often.
#[test]
fn boom_random_games() {
    let mut rng = Rng(777);
    let (mut booms, mut bombs_seen, mut wins) = (0, 0, 0);
    for g in 0..400 {
        let mut s = Boom::start(&boom::Config::default());
        check_boom(&s, None, &format!("boom game {g} start"));
        let mut ply = 0;
        while s.outcome().is_none() {
            let ms = legal(&s);
            let m = if ms.contains(&BoomMove::Boom) && rng.below(3) == 0 {
                booms += 1;
                BoomMove::Boom
            } else {
                ms[rng.below(ms.len())]
            };
            let p = s;
            s = s.apply(m);
            ply += 1;
            if s.bomb(Side::First) | s.bomb(Side::Second) != 0 {
                bombs_seen += 1;
            }
            check_boom(&s, Some((&p, m)), &format!("boom game {g} ply {ply}"));
        }
        if matches!(s.outcome(), Some(Outcome::Win(_))) {
            wins += 1;
        }
    }
    assert!(
        booms > 50 && bombs_seen > 500 && wins > 100,
        "booms {booms} bombs {bombs_seen} wins {wins}"
    );
}

fn check_mancala(s: &Mancala, last: Option<(&Mancala, u8)>, what: &str) {
    let marks = check_common(s, last, what);
    let by_key: HashMap<&str, &Item> = marks.iter().map(|i| (i.key.as_str(), i)).collect();
    let text_of = |k: &str| match by_key.get(k).map(|i| &i.shape) {
        Some(Shape::Text { txt, .. }) => txt.clone(),
        other => panic!("{what}: {k} is {other:?}"),
    };
    let mut seeds_drawn = 0;
    for side in [Side::First, Side::Second] {
        let l = if side == Side::First { "S" } else { "N" };
        assert_eq!(
            text_of(&format!("{l}store.n")),
            s.store(side).to_string(),
            "{what}: {l} store"
        );
        for k in 1..=s.pits() {
            let n = s.seeds_at(side, k) as usize;
            assert_eq!(
                text_of(&format!("{l}{k}.n")),
                n.to_string(),
                "{what}: {l}{k}"
            );
            let dots = marks
                .iter()
                .filter(|i| i.key.starts_with(&format!("{l}{k}.d")))
                .count();
            if n <= 19 {
                assert_eq!(dots, n, "{what}: {l}{k} dots");
                seeds_drawn += dots;
            } else {
                assert_eq!(dots, 0, "{what}: {l}{k} dots");
                assert_eq!(text_of(&format!("{l}{k}.big")), n.to_string());
                seeds_drawn += n;
            }
            // Only the side to move's pits are clickable, and only while the game runs.
            let hit = by_key.get(format!("{l}{k}.hit").as_str());
            let clickable = s.outcome().is_none() && side == s.side_to_move();
            assert_eq!(hit.is_some(), clickable, "{what}: {l}{k} click area");
            if let Some(h) = hit {
                assert_eq!(h.target, k.to_string());
            }
        }
    }
    let in_pits = (s.pit_seeds(Side::First) + s.pit_seeds(Side::Second)) as usize;
    assert_eq!(
        seeds_drawn, in_pits,
        "{what}: every seed in a pit drawn once"
    );
}

/// Random games of Kalah(m, n) for many m and n.
#[test]
fn mancala_random_games() {
    let mut rng = Rng(4242);
    let mut ends = [0usize; 3];
    for pits in 1..=12u8 {
        for seeds in [1u8, 3, 4, 6, 10] {
            let cfg = MancalaConfig { pits, seeds };
            for g in 0..3 {
                let mut s = Mancala::start(&cfg);
                let what = |ply: usize| format!("Kalah({pits}, {seeds}) game {g} ply {ply}");
                check_mancala(&s, None, &what(0));
                let mut ply = 0;
                while s.outcome().is_none() {
                    let ms = legal(&s);
                    let m = ms[rng.below(ms.len())];
                    let p = s;
                    s = s.apply(m);
                    ply += 1;
                    check_mancala(&s, Some((&p, m)), &what(ply));
                }
                ends[match s.outcome() {
                    Some(Outcome::Win(Side::First)) => 0,
                    Some(Outcome::Win(Side::Second)) => 1,
                    _ => 2,
                }] += 1;
            }
        }
    }
    assert!(ends[0] > 0 && ends[1] > 0, "{ends:?}");
}

/// The final result is in the status line.
#[test]
fn mancala_final_result_is_written() {
    let cfg = MancalaConfig::default();
    let p = Mancala::parse_fen("0,0,0,0,0,1:30/0,0,0,0,0,1:16 S", &cfg).unwrap();
    let s = p.apply(1);
    assert!(s.outcome().is_some());
    let marks = s.marks(Some((&p, 1)));
    let status = marks.iter().find(|i| i.key == "status").unwrap();
    match &status.shape {
        Shape::Text { txt, .. } => assert_eq!(txt, "South wins 31–17"),
        sh => panic!("{sh:?}"),
    }
}

/// 5-en-Raya: every piece drawn once under `p<f>.<c>` with its letter; in ninja mode the empty
/// cells of the phase's residue dotted (blue exactly when legal, a grey dot otherwise) and no
/// other dot; the special cells in their tints on the board; the winning line exactly when the
/// game is won by a line, on the winner's pieces; the pass button exactly when pass is legal.
fn check_enraya(s: &Enraya, last: Option<(&Enraya, enraya::Move)>, what: &str) {
    let marks = check_common(s, last, what);
    let by_key: HashMap<&str, &Item> = marks.iter().map(|i| (i.key.as_str(), i)).collect();
    let (rows, cols) = (s.rows() as usize, s.cols() as usize);
    let mut pieces = 0;
    for f in 0..rows {
        for c in 0..cols {
            let key = format!("p{f}.{c}");
            match s.cell(f, c) {
                Some(side) => {
                    pieces += 1;
                    assert!(
                        matches!(
                            by_key.get(key.as_str()).map(|i| &i.shape),
                            Some(Shape::Circle { .. })
                        ),
                        "{what}: piece {key} not drawn"
                    );
                    let want = if side == Side::First { "x" } else { "o" };
                    assert!(
                        matches!(by_key.get(format!("{key}.l").as_str()).map(|i| &i.shape),
                            Some(Shape::Text { txt, .. }) if txt == want),
                        "{what}: {key} letter"
                    );
                    assert!(
                        !by_key.contains_key(format!("t{f}.{c}").as_str()),
                        "{what}: dot under {key}"
                    );
                }
                None => {
                    assert!(!by_key.contains_key(key.as_str()), "{what}: {key} is empty");
                    let dot = by_key.get(format!("t{f}.{c}").as_str());
                    let in_phase = s.outcome().is_none() && s.in_residue(f, c);
                    assert_eq!(dot.is_some(), in_phase, "{what}: dot on {f},{c}");
                    if let Some(d) = dot {
                        let legal = s.is_legal(enraya::Move::Place {
                            row: f as u8,
                            col: c as u8,
                        });
                        assert_eq!(d.tip.contains("legal now"), legal, "{what}: dot {f},{c}");
                    }
                }
            }
        }
    }
    let drawn = marks
        .iter()
        .filter(|i| {
            i.key
                .strip_prefix('p')
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
                && !i.key.ends_with(".l")
        })
        .count();
    assert_eq!(drawn, pieces, "{what}: pieces drawn once each");
    let lines: Vec<&Item> = marks
        .iter()
        .filter(|i| i.class == "win" && !i.key.ends_with(".under"))
        .collect();
    match (s.outcome(), s.winning_line()) {
        (Some(Outcome::Win(w)), Some((side, cells))) => {
            assert_eq!(side, w, "{what}");
            assert_eq!(cells.len(), s.in_a_row() as usize, "{what}");
            assert!(
                cells
                    .iter()
                    .all(|&(f, c)| s.cell(f as usize, c as usize) == Some(w))
            );
            let (a, b) = (cells[0], cells[cells.len() - 1]);
            assert_eq!(lines.len(), 1, "{what}: one winning line");
            assert_eq!(
                lines[0].key,
                format!("win.{}.{}.{}.{}", a.0, a.1, b.0, b.1),
                "{what}"
            );
        }
        _ => assert!(
            lines.is_empty(),
            "{what}: a winning line without a line won"
        ),
    }
    let pass = s.outcome().is_none() && s.is_legal(enraya::Move::Pass);
    assert_eq!(
        by_key.get("pass.button").map(|i| i.target.as_str()),
        pass.then_some("pass"),
        "{what}: pass button"
    );
}

/// The special cells of the 9 × 9 board are drawn in three tints, each cell with its sign, and
/// no cell of another board is.
#[test]
fn enraya_special_cells_are_tinted() {
    for (rows, cols, n) in [(9, 9, 5), (9, 9, 4), (6, 7, 4)] {
        let s = Enraya::start(&enraya::Config { rows, cols, n });
        let scene = Draw::board(&s);
        let mut tints = HashMap::new();
        for f in 0..rows as usize {
            for c in 0..cols as usize {
                let rect = scene
                    .items
                    .iter()
                    .find(|i| {
                        i.target == format!("{f},{c}") && matches!(i.shape, Shape::Rect { .. })
                    })
                    .unwrap_or_else(|| panic!("{rows}x{cols}: cell {f},{c}"));
                let signs = scene
                    .items
                    .iter()
                    .filter(|i| i.target == format!("{f},{c}"))
                    .count()
                    - 1;
                let special = s.special(f, c);
                assert_eq!(signs > 0, special != Special::Normal, "{f},{c} sign");
                tints
                    .entry(format!("{special:?}"))
                    .or_insert_with(HashSet::new)
                    .insert(rect.paint.fill.clone());
            }
        }
        if s.is_ninja() {
            assert_eq!(tints.len(), 4, "{tints:?}");
            assert!(tints.values().all(|t| t.len() == 1), "{tints:?}");
            let all: HashSet<_> = tints.values().flatten().collect();
            assert_eq!(all.len(), 4, "four different tints {tints:?}");
        } else {
            assert_eq!(tints.len(), 1, "{rows}x{cols}: {tints:?}");
        }
    }
}

/// Random games on the course's board and on other sizes (no special cells, no Trinity rule).
#[test]
fn enraya_random_games() {
    let mut rng = Rng(5150);
    let (mut ends, mut passes, mut yellows) = ([0usize; 3], 0, 0);
    for (rows, cols, n, games) in [
        (9, 9, 5, 40),
        (6, 7, 4, 10),
        (3, 3, 3, 10),
        (1, 1, 1, 1),
        (19, 19, 5, 1),
        (4, 9, 3, 5),
    ] {
        let cfg = enraya::Config { rows, cols, n };
        for g in 0..games {
            let mut s = Enraya::start(&cfg);
            let what = |ply: usize| format!("{rows}x{cols} N={n} game {g} ply {ply}");
            check_enraya(&s, None, &what(0));
            let mut ply = 0;
            while s.outcome().is_none() {
                let ms = legal(&s);
                let m = ms[rng.below(ms.len())];
                match m {
                    enraya::Move::Pass => passes += 1,
                    enraya::Move::Place { row, col } => {
                        if s.special(row as usize, col as usize) == Special::Yellow {
                            yellows += 1;
                        }
                    }
                }
                let p = s;
                s = s.apply(m);
                ply += 1;
                check_enraya(&s, Some((&p, m)), &what(ply));
            }
            ends[match s.outcome() {
                Some(Outcome::Win(Side::First)) => 0,
                Some(Outcome::Win(Side::Second)) => 1,
                _ => 2,
            }] += 1;
        }
    }
    assert!(
        ends[0] > 0 && ends[1] > 0 && yellows > 0,
        "ends {ends:?} passes {passes} yellows {yellows}"
    );
}

/// A position where no cell is legal (no empty cell of the phase touches a piece): the picture
/// offers `pass` as a button, and after the pass names it in the status line as the last move.
#[test]
fn enraya_pass_is_a_button_then_the_last_move() {
    let cfg = enraya::Config::default();
    let s = Enraya::parse_fen("x8/9/9/9/9/9/9/9/9 o 1 3 10", &cfg).unwrap();
    assert_eq!(legal(&s), [enraya::Move::Pass]);
    check_enraya(&s, None, "before the pass");
    let after = s.apply(enraya::Move::Pass);
    check_enraya(&after, Some((&s, enraya::Move::Pass)), "after the pass");
    let marks = after.marks(Some((&s, enraya::Move::Pass)));
    let last = marks.iter().find(|i| i.key == "last").unwrap();
    assert!(matches!(&last.shape, Shape::Text { txt, .. } if txt == "last move: pass"));
    assert!(marks.iter().all(|i| i.key != "pass.button"));
}
