//! Plain reference searches: textbook minimax and fail-hard alpha-beta with no table, no ordering
//! and no iterative deepening. They define the value every optimised search must reproduce, and
//! back `setoption name Algorithm value minimax`.
//!
//! Values are from `perspective`'s point of view. A node is MAX when `perspective` is to move
//! there and MIN otherwise — never by depth parity. Finished games score `±(WIN - ply)` or 0;
//! depth-0 nodes score the heuristic.

use crate::core::game::{Game, Outcome, Side};
use crate::core::score::{INFINITY, WIN};

/// The value of a finished game `ply` plies below the root, for `perspective`.
#[inline]
pub fn terminal_value(outcome: Outcome, perspective: Side, ply: i32) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(s) if s == perspective => WIN - ply,
        Outcome::Win(_) => -(WIN - ply),
    }
}

/// The deepest ply a selective extension may reach in a search of `depth` plies (the game's
/// `EXTENSION_PLIES` past it, never past its `EXTENSION_HORIZON` unless `depth` is deeper).
pub fn extension_limit<G: Game>(depth: u32) -> usize {
    (depth + G::EXTENSION_PLIES)
        .min(depth.max(G::EXTENSION_HORIZON))
        .min(super::MAX_DEPTH) as usize
}

/// The depth left at a node: `depth`, or 1 at a horizon node the game extends (unquiet and
/// below `limit`), or `None` where the heuristic is the value.
#[inline]
pub(super) fn depth_here<G: Game>(
    state: &G,
    depth: u32,
    ply: usize,
    limit: usize,
    heuristic: usize,
) -> Option<u32> {
    if depth > 0 {
        Some(depth)
    } else if G::EXTENSION_PLIES > 0 && ply < limit && state.unquiet(heuristic) {
        Some(1)
    } else {
        None
    }
}

/// Plain minimax to `depth` plies (the root of the search `ply` plies above, so a search of
/// `depth + ply`, whose sharp leaves the game extends). `nodes` counts every visited position.
pub fn minimax<G: Game>(
    state: &G,
    depth: u32,
    ply: i32,
    heuristic: usize,
    perspective: Side,
    nodes: &mut u64,
) -> i32 {
    let limit = extension_limit::<G>(depth + ply as u32);
    minimax_to(state, depth, ply, limit, heuristic, perspective, nodes)
}

fn minimax_to<G: Game>(
    state: &G,
    depth: u32,
    ply: i32,
    limit: usize,
    heuristic: usize,
    perspective: Side,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(o) = state.outcome() {
        return terminal_value(o, perspective, ply);
    }
    let Some(depth) = depth_here(state, depth, ply as usize, limit, heuristic) else {
        return state.evaluate(heuristic, perspective);
    };
    let mut moves = G::Moves::default();
    state.legal_moves(&mut moves);
    let maximizing = state.side_to_move() == perspective;
    let mut best = if maximizing { -INFINITY } else { INFINITY };
    for &m in moves.as_ref() {
        let v = minimax_to(
            &state.apply(m),
            depth - 1,
            ply + 1,
            limit,
            heuristic,
            perspective,
            nodes,
        );
        best = if maximizing { best.max(v) } else { best.min(v) };
    }
    best
}

/// Plain alpha-beta to `depth` plies inside the window (`alpha`, `beta`), extended as
/// [`minimax`] is. Returns the exact minimax value when it lies strictly inside the window, a
/// bound on the right side otherwise.
#[allow(clippy::too_many_arguments)]
pub fn alphabeta<G: Game>(
    state: &G,
    depth: u32,
    ply: i32,
    alpha: i32,
    beta: i32,
    heuristic: usize,
    perspective: Side,
    nodes: &mut u64,
) -> i32 {
    let limit = extension_limit::<G>(depth + ply as u32);
    alphabeta_to(
        state,
        depth,
        ply,
        limit,
        alpha,
        beta,
        heuristic,
        perspective,
        nodes,
    )
}

#[allow(clippy::too_many_arguments)]
fn alphabeta_to<G: Game>(
    state: &G,
    depth: u32,
    ply: i32,
    limit: usize,
    mut alpha: i32,
    mut beta: i32,
    heuristic: usize,
    perspective: Side,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(o) = state.outcome() {
        return terminal_value(o, perspective, ply);
    }
    let Some(depth) = depth_here(state, depth, ply as usize, limit, heuristic) else {
        return state.evaluate(heuristic, perspective);
    };
    let mut moves = G::Moves::default();
    state.legal_moves(&mut moves);
    let maximizing = state.side_to_move() == perspective;
    if maximizing {
        let mut best = -INFINITY;
        for &m in moves.as_ref() {
            let v = alphabeta_to(
                &state.apply(m),
                depth - 1,
                ply + 1,
                limit,
                alpha,
                beta,
                heuristic,
                perspective,
                nodes,
            );
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    } else {
        let mut best = INFINITY;
        for &m in moves.as_ref() {
            let v = alphabeta_to(
                &state.apply(m),
                depth - 1,
                ply + 1,
                limit,
                alpha,
                beta,
                heuristic,
                perspective,
                nodes,
            );
            best = best.min(v);
            beta = beta.min(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The root value of plain alpha-beta for the side to move at the root.
pub fn root_value<G: Game>(state: &G, depth: u32, heuristic: usize) -> i32 {
    let mut nodes = 0;
    alphabeta(
        state,
        depth,
        0,
        -INFINITY,
        INFINITY,
        heuristic,
        state.side_to_move(),
        &mut nodes,
    )
}
