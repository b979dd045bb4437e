//! The 2025-26 course core's own games of 5-en-Raya, replayed line by line:
//! `tests/golden/enraya/core_traces.jsonl` (300 games, every ply a line, the core's view after
//! the move; its README explains the fields), or the file `ENRAYA_TRACES` names (games on other
//! seeds from scripts/enraya/differential.sh, checked line by line the same way). Every game starts from the start position
//! of its size; every ply's move is read with `parse_move` (so the rules must find it legal)
//! and applied; then the engine's view must equal the core's: grid, player to move, placements
//! left, phase, turn counter, game over, result, and the legal moves in the core's order. The
//! state string built from the line's own fields must parse into the very same position. Every
//! line is compared; none is sampled. The counts printed at the end (and asserted) say what the
//! file exercised: passes, each special cell's effect, every kind of result.

use crate::common;

use serde_json::Value;
use tablero::core::game::{Game, Outcome, Side};
use tablero::games::enraya::{Config, Enraya, Move, Moves, Special};

fn text<'a>(v: &'a Value, name: &str, line: usize) -> &'a str {
    v[name]
        .as_str()
        .unwrap_or_else(|| panic!("line {line}: field '{name}' is not a string"))
}

fn int(v: &Value, name: &str, line: usize) -> i64 {
    v[name]
        .as_i64()
        .unwrap_or_else(|| panic!("line {line}: field '{name}' is not an integer"))
}

/// The trace's grid (`.`, `x`, `o`, rows joined by `/`) in the fen's run-length form.
fn fen_grid(grid: &str) -> String {
    let rows: Vec<String> = grid
        .split('/')
        .map(|row| {
            let mut out = String::new();
            let mut run = 0;
            for ch in row.chars() {
                if ch == '.' {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    out.push_str(&run.to_string());
                    run = 0;
                }
                out.push(ch);
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            out
        })
        .collect();
    rows.join("/")
}

/// The engine's grid in the trace's form.
fn trace_grid(s: &Enraya) -> String {
    (0..s.rows() as usize)
        .map(|f| {
            (0..s.cols() as usize)
                .map(|c| match s.cell(f, c) {
                    None => '.',
                    Some(Side::First) => 'x',
                    Some(Side::Second) => 'o',
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn result_of(o: Option<Outcome>) -> &'static str {
    match o {
        None => "-",
        Some(Outcome::Win(Side::First)) => "1",
        Some(Outcome::Win(Side::Second)) => "2",
        Some(Outcome::Draw) => "draw",
    }
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    passes: usize,
    red: usize,
    yellow: usize,
    yellow_cleared: usize,
    green: usize,
    red_gave_the_game: usize,
    by_size: std::collections::BTreeMap<String, usize>,
    results: std::collections::BTreeMap<String, usize>,
}

#[test]
fn every_line_of_the_core_traces() {
    let started = std::time::Instant::now();
    let other = std::env::var_os("ENRAYA_TRACES");
    let data = match &other {
        Some(path) => std::fs::read_to_string(path).unwrap_or_else(|e| {
            panic!(
                "ENRAYA_TRACES={}: {e}",
                std::path::Path::new(path).display()
            )
        }),
        None => common::golden("enraya/core_traces.jsonl"),
    };
    let mut t = Tally::default();
    let mut state: Option<Enraya> = None;
    let mut expected_ply = 0;
    for (k, l) in data.lines().enumerate() {
        let line = k + 1;
        let v: Value =
            serde_json::from_str(l).unwrap_or_else(|e| panic!("line {line}: bad JSON: {e}"));
        let size: Vec<u8> = v["size"]
            .as_array()
            .unwrap_or_else(|| panic!("line {line}: no size"))
            .iter()
            .map(|x| x.as_u64().expect("size is numbers") as u8)
            .collect();
        let config = Config {
            rows: size[0],
            cols: size[1],
            n: size[2],
        };
        let ply = int(&v, "ply", line) as usize;
        let s = if ply == 0 {
            assert!(v["move"].is_null(), "line {line}: ply 0 has a move");
            let values = [config.rows as i64, config.cols as i64, config.n as i64];
            let c = Enraya::configure(&values)
                .unwrap_or_else(|e| panic!("line {line}: size refused: {e}"));
            t.games += 1;
            *t.by_size
                .entry(format!("{}x{} N={}", c.rows, c.cols, c.n))
                .or_default() += 1;
            expected_ply = 0;
            Enraya::start(&c)
        } else {
            let prev = state.unwrap_or_else(|| panic!("line {line}: a game without ply 0"));
            assert_eq!(
                prev.config(),
                config,
                "line {line}: the size changed mid-game"
            );
            let m = text(&v, "move", line);
            let mv = prev.parse_move(m).unwrap_or_else(|e| {
                panic!("line {line}: the engine refuses the core's '{m}': {e}")
            });
            let next = prev.apply(mv);
            t.plies += 1;
            match mv {
                Move::Pass => t.passes += 1,
                Move::Place { row, col } => {
                    let (f, c) = (row as usize, col as usize);
                    match prev.special(f, c) {
                        Special::Red => {
                            t.red += 1;
                            assert_eq!(
                                next.cell(f, c),
                                Some(prev.side_to_move().other()),
                                "line {line}: red"
                            );
                            if next.outcome() == Some(Outcome::Win(prev.side_to_move().other())) {
                                t.red_gave_the_game += 1;
                            }
                        }
                        Special::Yellow => {
                            t.yellow += 1;
                            if next.occupied().count() < prev.occupied().count() + 1 {
                                t.yellow_cleared += 1;
                            }
                        }
                        Special::Green => t.green += 1,
                        Special::Normal => {}
                    }
                }
            }
            next
        };
        assert_eq!(ply, expected_ply, "line {line}: plies out of order");
        expected_ply += 1;
        let what = format!("line {line} (game {}, ply {ply})", v["game"]);
        let grid = text(&v, "grid", line);
        assert_eq!(trace_grid(&s), grid, "{what}: grid");
        let player = int(&v, "player", line);
        assert_eq!(
            s.side_to_move().index() as i64 + 1,
            player,
            "{what}: player"
        );
        let (left, phase, turn) = (
            int(&v, "left", line),
            int(&v, "phase", line),
            int(&v, "turn", line),
        );
        assert_eq!(s.left() as i64, left, "{what}: left");
        assert_eq!(s.phase() as i64, phase, "{what}: phase");
        assert_eq!(s.turn() as i64, turn, "{what}: turn");
        let over = v["over"].as_bool().expect("over is a bool");
        assert_eq!(s.outcome().is_some(), over, "{what}: over");
        assert_eq!(
            result_of(s.outcome()),
            text(&v, "result", line),
            "{what}: result"
        );
        let mut moves = Moves::new();
        s.legal_moves(&mut moves);
        let ours: Vec<String> = moves.iter().map(|&m| s.format_move(m)).collect();
        let core: Vec<&str> = v["legal"]
            .as_array()
            .expect("legal is a list")
            .iter()
            .map(|m| m.as_str().expect("a legal move is a string"))
            .collect();
        assert_eq!(ours, core, "{what}: legal moves");
        // The same position from the line's own fields.
        let fen = format!(
            "{} {} {left} {phase} {turn}",
            fen_grid(grid),
            if player == 1 { 'x' } else { 'o' }
        );
        let parsed = Enraya::parse_fen(&fen, &config)
            .unwrap_or_else(|e| panic!("{what}: the trace's state '{fen}' is refused: {e}"));
        assert_eq!(parsed, s, "{what}: '{fen}' parses into another position");
        assert_eq!(s.format_fen(), fen, "{what}: state string");
        if over {
            *t.results
                .entry(text(&v, "result", line).into())
                .or_default() += 1;
        }
        state = Some(s);
    }
    eprintln!(
        "enraya core traces: {} games, {} plies ({} lines) in {:.2?}",
        t.games,
        t.plies,
        t.games + t.plies,
        started.elapsed()
    );
    eprintln!("  boards: {:?}", t.by_size);
    eprintln!(
        "  passes {}, red {} ({} gave the opponent the game), yellow {} ({} cleared pieces), green {}",
        t.passes, t.red, t.red_gave_the_game, t.yellow, t.yellow_cleared, t.green
    );
    eprintln!("  finished games by result: {:?}", t.results);
    assert!(t.games > 0, "no games in the traces");
    if other.is_some() {
        return;
    }
    // The whole golden file, and everything it is there to exercise.
    assert_eq!(t.games, 300);
    assert_eq!(t.games + t.plies, 39_635);
    assert_eq!(t.passes, 30, "the README counts 30 passes");
    assert!(t.red > 0 && t.yellow_cleared > 0 && t.green > 0, "{t:?}");
    assert!(
        t.red_gave_the_game >= 68,
        "the rules page counts 68 such games: {t:?}"
    );
    assert!(
        t.results.contains_key("1") && t.results.contains_key("2"),
        "{t:?}"
    );
}
