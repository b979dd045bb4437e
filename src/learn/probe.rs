//! Leaf sampling: [`Probe`] wraps any game and records a seeded sample of the positions the
//! search evaluates, so that an evaluation is fitted on the positions it is actually asked
//! about (the leaves of a depth-6 tree), not on the positions of the game record.
//!
//! The wrapper plays exactly like the game it wraps (same moves, order, hashes, evaluations):
//! a `Searcher<Probe<G>>` builds the same tree as a `Searcher<G>`. Samples go to a thread-local
//! buffer; each evaluation is kept with probability `rate`, decided by a counter-based random
//! stream, so the same searches on the same thread keep the same positions.

use std::any::Any;
use std::cell::RefCell;

use crate::core::game::{EvalTerm, Game, Side};

/// A game whose `evaluate_with` also offers its position to the thread's sampler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe<G>(pub G);

struct Sampler {
    /// Keep an evaluation when the next random word is below this (0: sampling off).
    threshold: u64,
    state: u64,
    kept: Vec<Box<dyn Any>>,
    /// Evaluations seen while sampling was on.
    seen: u64,
}

thread_local! {
    static SAMPLER: RefCell<Sampler> = const {
        RefCell::new(Sampler { threshold: 0, state: 0, kept: Vec::new(), seen: 0 })
    };
}

/// SplitMix64, the sample stream (and the seeding of the other streams in `learn`).
pub fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Starts sampling on this thread: every evaluation is kept with probability `rate` (0..=1),
/// the choices drawn from a stream seeded by `seed`. Drops anything kept before.
pub fn start(rate: f64, seed: u64) {
    SAMPLER.with(|s| {
        let mut s = s.borrow_mut();
        s.threshold = (rate.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
        s.state = seed;
        s.kept.clear();
        s.seen = 0;
    });
}

/// Stops sampling and returns the positions kept (with the evaluating perspective) and the
/// number of evaluations seen. Entries of another game type than `G` are dropped.
pub fn finish<G: Game>() -> (Vec<(G, Side)>, u64) {
    SAMPLER.with(|s| {
        let mut s = s.borrow_mut();
        s.threshold = 0;
        let kept = std::mem::take(&mut s.kept)
            .into_iter()
            .filter_map(|b| b.downcast::<(G, Side)>().ok().map(|b| *b))
            .collect();
        (kept, s.seen)
    })
}

impl<G: Game> Probe<G> {
    #[inline]
    fn offer(&self, perspective: Side) {
        SAMPLER.with(|s| {
            let mut s = s.borrow_mut();
            if s.threshold == 0 {
                return;
            }
            s.seen += 1;
            let r = splitmix(&mut s.state);
            if r < s.threshold {
                s.kept.push(Box::new((self.0, perspective)));
            }
        });
    }
}

impl<G: Game> Game for Probe<G> {
    type Move = G::Move;
    type Moves = G::Moves;
    type Config = G::Config;
    type Weights = G::Weights;

    const NAME: &'static str = G::NAME;
    const OPTIONS: &'static [crate::core::game::VariantOption] = G::OPTIONS;
    const HEURISTICS: &'static [&'static str] = G::HEURISTICS;
    const WEIGHTS: &'static [crate::core::game::WeightSpec] = G::WEIGHTS;
    const DEFAULT_WEIGHTS: Self::Weights = G::DEFAULT_WEIGHTS;
    const KILLERS_BEFORE_HINTS: bool = G::KILLERS_BEFORE_HINTS;
    const HINT_MIN_DEPTH: u32 = G::HINT_MIN_DEPTH;

    fn configure(values: &[i64]) -> Result<Self::Config, String> {
        G::configure(values)
    }
    fn start(config: &Self::Config) -> Self {
        Probe(G::start(config))
    }
    fn named_start(name: &str, config: &Self::Config) -> Option<Self> {
        G::named_start(name, config).map(Probe)
    }
    fn side_to_move(&self) -> Side {
        self.0.side_to_move()
    }
    fn legal_moves(&self, out: &mut Self::Moves) {
        self.0.legal_moves(out)
    }
    fn is_legal(&self, m: Self::Move) -> bool {
        self.0.is_legal(m)
    }
    fn apply(&self, m: Self::Move) -> Self {
        Probe(self.0.apply(m))
    }
    fn outcome(&self) -> Option<crate::core::game::Outcome> {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, String> {
        self.0.parse_move(text)
    }
    fn format_move(&self, m: Self::Move) -> String {
        self.0.format_move(m)
    }
    fn format_fen(&self) -> String {
        self.0.format_fen()
    }
    fn parse_fen(text: &str, config: &Self::Config) -> Result<Self, String> {
        G::parse_fen(text, config).map(Probe)
    }
    fn display(&self) -> String {
        self.0.display()
    }
    fn weights(values: &[i32]) -> Self::Weights {
        G::weights(values)
    }
    fn prepare_eval(&self, weights: &Self::Weights) {
        self.0.prepare_eval(weights);
    }

    fn evaluate_with(&self, heuristic: usize, weights: &Self::Weights, perspective: Side) -> i32 {
        self.offer(perspective);
        self.0.evaluate_with(heuristic, weights, perspective)
    }
    fn eval_terms_with(
        &self,
        heuristic: usize,
        weights: &Self::Weights,
        perspective: Side,
    ) -> Vec<EvalTerm> {
        self.0.eval_terms_with(heuristic, weights, perspective)
    }
    fn move_order_hint(&self, m: Self::Move) -> i32 {
        self.0.move_order_hint(m)
    }
    fn moves_left(&self) -> u32 {
        self.0.moves_left()
    }
}
