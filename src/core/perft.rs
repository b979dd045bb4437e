//! Generic perft (leaf count of the legal-move tree) and divide, for every `Game`.

use super::game::Game;

/// Number of leaves of the legal-move tree of `state` at `depth` plies. A finished game is a
/// leaf at any depth (it contributes 1 only at depth 0, like chess perft: no moves, no leaves).
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = G::Moves::default();
    state.legal_moves(&mut moves);
    if depth == 1 {
        return moves.as_ref().len() as u64;
    }
    moves
        .as_ref()
        .iter()
        .map(|&m| perft(&state.apply(m), depth - 1))
        .sum()
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
