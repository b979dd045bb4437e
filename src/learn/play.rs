//! Self-play for the data: games between two configured searchers from seeded random openings,
//! keeping the positions of the game record (the roots of the searches) and a sample of the
//! leaves the searches evaluated (through [`super::probe`]).
//!
//! Everything is a function of the seed and the game number: games are split over threads by
//! number and returned in number order, so the data does not depend on the thread count.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::core::game::{Game, MoveList, Outcome, Side, WeightOverrides};
use crate::core::search::{Limits, SearchOptions, Searcher};

use super::probe::{self, Probe, splitmix};

/// One side's searcher.
#[derive(Clone, Copy, Debug)]
pub struct Player {
    /// Index into `Game::HEURISTICS`.
    pub heuristic: usize,
    /// The `default` heuristic's weights (unset ones at their defaults).
    pub weights: WeightOverrides,
    /// Fixed search depth (plies).
    pub depth: u32,
    /// Are this player's evaluations sampled?
    pub sampled: bool,
}

/// What to play.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// `players[0]` moves first in even-numbered games, `players[1]` in odd ones; games `2k`
    /// and `2k + 1` start from the same opening (a colour-swapped pair) unless the players are
    /// the same (then the pair would play the same game twice: every game gets its own).
    pub players: [Player; 2],
    pub games: usize,
    pub seed: u64,
    /// Random plies before the searchers take over: drawn uniformly from this range per pair.
    pub opening_plies: (u32, u32),
    /// Probability that a sampled player's evaluation is kept.
    pub rate: f64,
    /// A game still running after this many plies is adjudicated a draw.
    pub max_plies: usize,
    pub hash_mib: usize,
    pub threads: usize,
}

/// One played game.
#[derive(Clone, Debug)]
pub struct Played<G> {
    pub index: usize,
    /// Is `players[0]` the first player in this game?
    pub first_is_0: bool,
    /// The positions where a searcher moved (not the random opening), in order.
    pub roots: Vec<G>,
    /// The sampled leaves with the evaluating perspective.
    pub leaves: Vec<(G, Side)>,
    /// Evaluations seen by the sampler (sampled players only).
    pub evaluations: u64,
    /// `None`: adjudicated a draw at `max_plies`.
    pub outcome: Option<Outcome>,
}

/// A random opening of `plies` plies from `start` (retried a few times when a line ends the
/// game; the last try is cut before its end).
pub fn opening<G: Game>(start: &G, plies: u32, rng: &mut u64) -> G {
    let mut moves = G::Moves::default();
    for _ in 0..8 {
        let mut s = *start;
        let mut ok = true;
        for _ in 0..plies {
            moves.clear_moves();
            s.legal_moves(&mut moves);
            let ms = moves.as_ref();
            if ms.is_empty() {
                ok = false;
                break;
            }
            s = s.apply(ms[(splitmix(rng) % ms.len() as u64) as usize]);
            if s.outcome().is_some() {
                ok = false;
                break;
            }
        }
        if ok {
            return s;
        }
    }
    *start
}

/// Seed of pair `k`'s opening and of game `g`'s sample stream.
fn stream(seed: u64, tag: u64, n: u64) -> u64 {
    let mut x =
        seed ^ tag.wrapping_mul(0xd1b5_4a32_d192_ed03) ^ n.wrapping_mul(0x8cb9_2ba7_2f3d_8dd7);
    splitmix(&mut x)
}

fn play_one<G: Game>(
    cfg: &PlayConfig,
    start: &G,
    index: usize,
    searchers: &mut [Searcher<Probe<G>>; 2],
) -> Played<G> {
    let same = cfg.players[0].heuristic == cfg.players[1].heuristic
        && cfg.players[0].weights == cfg.players[1].weights
        && cfg.players[0].depth == cfg.players[1].depth;
    let pair = if same { index } else { index / 2 } as u64;
    let mut rng = stream(cfg.seed, 1, pair);
    let (lo, hi) = cfg.opening_plies;
    let plies = lo + (splitmix(&mut rng) % u64::from(hi.saturating_sub(lo) + 1)) as u32;
    let mut s = opening(start, plies, &mut rng);
    let first_is_0 = index.is_multiple_of(2);
    // Which configured player has each seat.
    let seat = |side: Side| -> usize {
        match (side, first_is_0) {
            (Side::First, true) | (Side::Second, false) => 0,
            _ => 1,
        }
    };
    for sr in searchers.iter_mut() {
        sr.clear();
    }
    let stop = AtomicBool::new(false);
    let mut roots = Vec::new();
    let mut leaves = Vec::new();
    let mut evaluations = 0;
    let mut sample_seed = stream(cfg.seed, 2, index as u64);
    let mut outcome = s.outcome();
    let mut ply = plies as usize;
    while outcome.is_none() && ply < cfg.max_plies {
        let p = seat(s.side_to_move());
        let pl = &cfg.players[p];
        roots.push(s);
        if pl.sampled {
            probe::start(cfg.rate, splitmix(&mut sample_seed));
        }
        let opts = SearchOptions {
            heuristic: pl.heuristic,
            weights: pl.weights,
            ..SearchOptions::default()
        };
        let limits = Limits {
            depth: Some(pl.depth),
            ..Limits::default()
        };
        let r = searchers[p].search(&Probe(s), opts, limits, &stop, |_| {});
        if pl.sampled {
            let (kept, seen) = probe::finish::<G>();
            leaves.extend(kept);
            evaluations += seen;
        }
        let Some(m) = r.best_move else { break };
        s = s.apply(m);
        outcome = s.outcome();
        ply += 1;
    }
    Played {
        index,
        first_is_0,
        roots,
        leaves,
        evaluations,
        outcome,
    }
}

/// Plays `cfg.games` games from `start`, calling `progress(done)` after each; returns them in
/// game order.
pub fn play<G: Game>(
    cfg: &PlayConfig,
    start: &G,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Played<G>> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let out: Mutex<Vec<Played<G>>> = Mutex::new(Vec::with_capacity(cfg.games));
    let work = || {
        let mut searchers = [
            Searcher::<Probe<G>>::new(cfg.hash_mib),
            Searcher::<Probe<G>>::new(cfg.hash_mib),
        ];
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= cfg.games {
                break;
            }
            let g = play_one(cfg, start, i, &mut searchers);
            out.lock().unwrap_or_else(|e| e.into_inner()).push(g);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..cfg.threads.max(1) {
            scope.spawn(work);
        }
        work();
    });
    let mut v = out.into_inner().unwrap_or_else(|e| e.into_inner());
    v.sort_by_key(|g| g.index);
    v
}

/// The result of `played` for `side`: 1 win, 0.5 draw (or adjudicated), 0 loss.
pub fn result_for<G>(played: &Played<G>, side: Side) -> f64 {
    match played.outcome {
        Some(Outcome::Win(w)) if w == side => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        _ => 0.5,
    }
}
