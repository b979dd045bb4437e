//! Game review (`tablero analyse`): where did a player go wrong. Every engine move of recorded
//! games is valued by an analysing engine — tablero's own search in-process, with the exact
//! solvers of the registry (Connect Four, Kalah, 5-en-Raya) where they prove a position within
//! a budget, or any engine speaking the protocol — and judged: the position's value, the best move and its value, the
//! value of the move played, the loss in expected score and a mark (`?!`, `?`, `??`), per turn
//! of several moves as well; per player the accuracy, the mean loss and the count of each mark.
//!
//! By concern: `value` (proven and heuristic values, the curve to expected score), `judge`
//! (marks, thresholds and curves per game, accuracy), `annotation` (what is added to the
//! records and its JSON), `analyst` (the analysing engines), `game` (one game: replay with the
//! rules, values, judgements), `run` (the command: files, workers, resume), `fit` (fitting a
//! curve from records), `live` (a game reviewed as it grows, for the browser board), `page` (the review as the
//! report and the board read it, and `review.js`). docs/review.md is the user's side.

pub mod analyst;
pub mod annotation;
pub mod fit;
pub mod game;
pub mod judge;
pub mod live;
pub mod page;
pub mod run;
pub mod value;

pub use annotation::{GameReview, PlayerStats, PlyReview, TurnReview};
pub use judge::{Calibration, Mark, Thresholds, Verdict, calibration};
pub use run::{Config, Engine, Outcome, Settings, Totals, run, totals, totals_text};
pub use value::{Curve, Value, Wdl};
