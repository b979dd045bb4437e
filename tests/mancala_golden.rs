//! The Kalah(6, 4) golden positions (`tests/golden/kalah/kalah64_positions.txt`, read in
//! full). Every line is parsed into a
//! position through the engine's fen; lines with few seeds left in pits are solved exactly here
//! with a memoised minimax over the engine's own moves and compared with the file's value, which
//! came from OpenSpiel's rules and an independent solver.
//!
//! Line format: `s1..s6 S n1..n6 N side value` — ring order, South first; `value` is the final
//! store difference South minus North under perfect play.

use crate::common;

use std::collections::HashMap;

use tablero::core::{Game, Side};
use tablero::games::mancala::{Mancala, MancalaConfig, MancalaMoves};

fn golden() -> String {
    common::golden("kalah/kalah64_positions.txt")
}

struct Line {
    fen: String,
    side: Side,
    value: i32,
    pit_seeds: u32,
}

/// Converts a golden line into the engine's fen (`s1,…,s6:S/n1,…,n6:N side`).
fn parse_line(line: &str) -> Line {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(f.len(), 16, "line '{line}'");
    let nums: Vec<u32> = f[..14].iter().map(|x| x.parse().unwrap()).collect();
    assert_eq!(nums.iter().sum::<u32>(), 48, "line '{line}'");
    let fen = format!(
        "{}:{}/{}:{} {}",
        f[..6].join(","),
        f[6],
        f[7..13].join(","),
        f[13],
        f[14]
    );
    let side = match f[14] {
        "S" => Side::First,
        "N" => Side::Second,
        other => panic!("bad side {other}"),
    };
    let pit_seeds = nums[..6].iter().sum::<u32>() + nums[7..13].iter().sum::<u32>();
    Line {
        fen,
        side,
        value: f[15].parse().unwrap(),
        pit_seeds,
    }
}

/// Exact value (final South store minus North store) by memoised minimax: South maximises,
/// North minimises, whoever is to move (extra turns included).
fn solve(g: &Mancala, memo: &mut HashMap<Mancala, i32>) -> i32 {
    if g.outcome().is_some() {
        return i32::from(g.store(Side::First)) - i32::from(g.store(Side::Second));
    }
    if let Some(&v) = memo.get(g) {
        return v;
    }
    let mut moves = MancalaMoves::new();
    g.legal_moves(&mut moves);
    let values = moves.as_ref().iter().map(|&m| solve(&g.apply(m), memo));
    let v = if g.side_to_move() == Side::First {
        values.max()
    } else {
        values.min()
    }
    .expect("a position that is not over has moves");
    memo.insert(*g, v);
    v
}

#[test]
fn every_golden_line_parses_into_a_position() {
    let lines: Vec<Line> = golden().lines().map(parse_line).collect();
    assert_eq!(lines.len(), 301);
    for l in &lines {
        let g = Mancala::parse_fen(&l.fen, &MancalaConfig::default()).unwrap();
        assert_eq!(g.format_fen(), l.fen, "round trip");
        assert_eq!(g.side_to_move(), l.side);
        assert_eq!(g.total_seeds(), 48);
        assert_eq!(g.pits(), 6);
        assert!(g.outcome().is_none(), "{} is not over", l.fen);
    }
    // The first line is the opening.
    assert_eq!(
        lines[0].fen,
        Mancala::start(&MancalaConfig::default()).format_fen()
    );
}

/// Solves every line with at most `max_pit_seeds` seeds in pits; returns how many were solved.
fn check_values(max_pit_seeds: u32) -> usize {
    let mut memo = HashMap::new();
    let mut solved = 0;
    for l in golden().lines().map(parse_line) {
        if l.pit_seeds > max_pit_seeds {
            continue;
        }
        let g = Mancala::parse_fen(&l.fen, &MancalaConfig::default()).unwrap();
        // The memo is keyed by the full state, stores included, so it is valid across lines.
        assert_eq!(solve(&g, &mut memo), l.value, "{}", l.fen);
        solved += 1;
    }
    solved
}

#[test]
fn golden_values_of_small_positions_match_an_exact_solve() {
    // The 80 lines with at most 12 seeds in pits: about a second.
    assert_eq!(check_values(12), 80);
}

#[test]
#[ignore = "about a minute; run with --ignored"]
fn golden_values_up_to_15_pit_seeds_match_an_exact_solve() {
    assert_eq!(check_values(15), 135);
}
