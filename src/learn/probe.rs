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

use crate::core::game::{
    ConfigError, EvalTerm, Evaluation, FenError, Game, MoveError, Side, WeightSpec,
};

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

/// `G`'s weights as the wrapper's: the same values, evaluating through the wrapper so that
/// every evaluation is offered to the sampler.
pub struct Probed<G: Game>(pub G::Weights);

impl<G: Game> Clone for Probed<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Game> Copy for Probed<G> {}
impl<G: Game> std::fmt::Debug for Probed<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
impl<G: Game> PartialEq for Probed<G> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<G: Game> Evaluation<Probe<G>> for Probed<G> {
    const SPECS: &'static [WeightSpec] = G::WEIGHTS;
    const DEFAULT: Self = Probed(G::DEFAULT_WEIGHTS);

    fn from_values(values: &[i32]) -> Self {
        Probed(G::weights(values))
    }

    fn evaluate(&self, s: &Probe<G>, heuristic: usize, perspective: Side) -> i32 {
        s.offer(perspective);
        s.0.evaluate_with(heuristic, &self.0, perspective)
    }

    fn terms(&self, s: &Probe<G>, heuristic: usize, perspective: Side) -> Vec<EvalTerm> {
        s.0.eval_terms_with(heuristic, &self.0, perspective)
    }

    fn prepare(&self, s: &Probe<G>) {
        s.0.prepare_eval(&self.0);
    }
}

impl<G: Game> Game for Probe<G> {
    type Move = G::Move;
    type Moves = G::Moves;
    type Config = G::Config;
    type Weights = Probed<G>;

    const NAME: &'static str = G::NAME;
    const TITLE: &'static str = G::TITLE;
    const OPTIONS: &'static [crate::core::game::VariantOption] = G::OPTIONS;
    const HEURISTICS: &'static [&'static str] = G::HEURISTICS;
    const KILLERS_BEFORE_HINTS: bool = G::KILLERS_BEFORE_HINTS;
    const HINT_MIN_DEPTH: u32 = G::HINT_MIN_DEPTH;
    const EXTENSION_PLIES: u32 = G::EXTENSION_PLIES;
    const EXTENSION_HORIZON: u32 = G::EXTENSION_HORIZON;

    fn configure(values: &[i64]) -> Result<Self::Config, ConfigError> {
        G::configure(values)
    }
    fn config_of(values: &[i64]) -> Self::Config {
        G::config_of(values)
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
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        self.0.parse_move(text)
    }
    fn format_move(&self, m: Self::Move) -> String {
        self.0.format_move(m)
    }
    fn format_fen(&self) -> String {
        self.0.format_fen()
    }
    fn parse_fen(text: &str, config: &Self::Config) -> Result<Self, FenError> {
        G::parse_fen(text, config).map(Probe)
    }
    fn display(&self) -> String {
        self.0.display()
    }
    fn unquiet(&self, heuristic: usize) -> bool {
        self.0.unquiet(heuristic)
    }
    fn win_probe_plies(&self, heuristic: usize) -> u32 {
        self.0.win_probe_plies(heuristic)
    }
    fn move_order_hint(&self, m: Self::Move) -> i32 {
        self.0.move_order_hint(m)
    }
    fn moves_left(&self) -> u32 {
        self.0.moves_left()
    }
}
