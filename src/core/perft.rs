//! Generic perft (leaf count of the legal-move tree) and divide, for every `Game`.

use std::sync::atomic::{AtomicBool, Ordering};

use super::game::Game;

/// Number of leaves of the legal-move tree of `state` at `depth` plies. A finished game is a
/// leaf at any depth (it contributes 1 only at depth 0, like chess perft: no moves, no leaves).
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    static NEVER: AtomicBool = AtomicBool::new(false);
    perft_until(state, depth, &NEVER).unwrap_or(0)
}

/// [`perft`] that gives up (`None`) soon after `stop` is raised: the flag is read at every node
/// two or more plies above the leaves, so a stop is seen within microseconds at any depth.
pub fn perft_until<G: Game>(state: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let mut moves = G::Moves::default();
    state.legal_moves(&mut moves);
    if depth == 1 {
        return Some(moves.as_ref().len() as u64);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for &m in moves.as_ref() {
        total += perft_until(&state.apply(m), depth - 1, stop)?;
    }
    Some(total)
}

/// Perft split by root move, in generation order: `(move notation, leaves)`.
pub fn divide<G: Game>(state: &G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = G::Moves::default();
    state.legal_moves(&mut moves);
    moves
        .as_ref()
        .iter()
        .map(|&m| {
            let n = if depth == 0 {
                1
            } else {
                perft(&state.apply(m), depth - 1)
            };
            (state.format_move(m), n)
        })
        .collect()
}
