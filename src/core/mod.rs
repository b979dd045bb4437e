//! The game-agnostic core: the `Game` trait, scores, perft and the generic search. Names no game
//! and does no I/O.

pub mod game;
pub mod perft;
pub mod rng;
pub mod score;
pub mod search;
pub mod spec;

pub use game::{
    EVAL_LIMIT, EvalTerm, Game, MAX_WEIGHTS, MoveList, Outcome, Side, VariantOption,
    WeightOverrides, WeightSpec, try_play,
};
