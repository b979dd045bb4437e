//! Heuristic matches (ignored by default: `cargo test --release --test all connect4_strength::
//! -- --ignored --nocapture`). Each pair of heuristics plays every two-movement opening with both
//! colours, choosing moves with the plain reference alpha-beta at a fixed depth; the result is
//! printed, and `default` must score more than half against both baselines.

use tablero::core::game::{Game, Outcome, Side};
use tablero::core::score::INFINITY;
use tablero::core::search::reference::alphabeta;
use tablero::games::boom::{Boom, Config as BoomConfig};
use tablero::games::connect4::{Config, Connect4};

/// The first best root move of plain alpha-beta to `depth` with heuristic `h`.
fn best_move<G: Game>(s: &G, depth: u32, h: usize) -> G::Move {
    let me = s.side_to_move();
    let mut moves = G::Moves::default();
    s.legal_moves(&mut moves);
    let mut best = None;
    let mut alpha = -INFINITY;
    for &m in moves.as_ref() {
        let mut nodes = 0;
        let v = alphabeta(
            &s.apply(m),
            depth - 1,
            1,
            alpha,
            INFINITY,
            h,
            me,
            &mut nodes,
        );
        if best.is_none() || v > alpha {
            alpha = alpha.max(v);
            best = Some(m);
        }
    }
    best.expect("a running game has a move")
}

/// Points (win 2, draw 1) of heuristic `a` against `b` over all two-movement openings, both
/// colours.
fn match_points<G: Game>(start: G, depth: u32, a: usize, b: usize) -> (u32, u32) {
    let mut points = 0;
    let mut games = 0;
    let mut first = G::Moves::default();
    start.legal_moves(&mut first);
    for &m1 in first.as_ref() {
        let s1 = start.apply(m1);
        let mut second = G::Moves::default();
        s1.legal_moves(&mut second);
        for &m2 in second.as_ref() {
            let opening = s1.apply(m2);
            for a_side in [Side::First, Side::Second] {
                let mut s = opening;
                while s.outcome().is_none() {
                    let h = if s.side_to_move() == a_side { a } else { b };
                    s = s.apply(best_move(&s, depth, h));
                }
                games += 1;
                points += match s.outcome() {
                    Some(Outcome::Win(w)) if w == a_side => 2,
                    Some(Outcome::Draw) => 1,
                    _ => 0,
                };
            }
        }
    }
    (points, 2 * games)
}

fn report<G: Game>(start: G, depth: u32) {
    let mut default_ok = true;
    for (a, b) in [(0, 1), (0, 2), (2, 1)] {
        let (p, max) = match_points(start, depth, a, b);
        println!(
            "{} depth {depth}: {} vs {}: {p}/{max} points ({:.0}%)",
            G::NAME,
            G::HEURISTICS[a],
            G::HEURISTICS[b],
            100.0 * p as f64 / max as f64
        );
        if a == 0 {
            default_ok &= 2 * p > max;
        }
    }
    assert!(default_ok, "default does not beat both baselines");
}

#[test]
#[ignore]
fn connect4_heuristic_match() {
    report(Connect4::start(&Config::default()), 6);
}

#[test]
#[ignore]
fn boom_heuristic_match() {
    report(Boom::start(&BoomConfig::default()), 6);
}
