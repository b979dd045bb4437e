//! The game-agnostic core: the `Game` trait (and the check of its variant options), scores,
//! perft, the generic search, position specifications (`spec`: every position built from text
//! goes through it), stable pseudo-random numbers (`rng`) and the huge-page hint for large
//! tables (`mem`). Names no game and does no I/O.

pub mod game;
pub mod mem;
pub mod perft;
pub mod rng;
pub mod score;
pub mod search;
pub mod spec;

pub use game::{
    EVAL_LIMIT, EvalTerm, Game, MAX_WEIGHTS, MoveList, Outcome, Side, VariantOption,
    WeightOverrides, WeightSpec, try_play,
};
