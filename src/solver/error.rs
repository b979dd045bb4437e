//! What an exact solver refuses or cannot finish, as values: each says in one line what was
//! wrong. The protocol's `solve` prints them as `info string error: …`, `tablero solve` as its
//! error line; a batch of positions says which line.

use crate::core::game::ConfigError;
use crate::core::spec::PositionError;

use super::enraya::Unproven;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The protocol's `solve` in a game without an exact solver.
    #[error("solve supports {supported}, not {game}")]
    Unsupported {
        game: &'static str,
        supported: String,
    },
    /// `stop` (or the budget) ended the solve before it proved the position.
    #[error("solve stopped after {ms} ms, no result")]
    Stopped { ms: u128 },
    /// The variant options make no game.
    #[error("{0}")]
    Options(ConfigError),
    /// The position asked about is refused by the rules.
    #[error("{0}")]
    Position(PositionError),
    /// A Kalah board with more pits a side than the solver ranks.
    #[error("the Kalah solver handles 1..={max} pits per side, not {pits}")]
    Pits { pits: usize, max: usize },
    /// More seeds than a Kalah position's counts hold.
    #[error("the Kalah solver handles up to 255 seeds, not {0}")]
    Seeds(usize),
    /// A Kalah board whose positions cannot be ranked in 64 bits.
    #[error("too many positions to rank: {seeds} seeds in {pits} pits")]
    TooManyPositions { seeds: usize, pits: usize },
    /// A table that does not fit the address space (or its keys the table's division).
    #[error("the Kalah table is too large for this machine ({0})")]
    TableTooLarge(&'static str),
    /// A loaded endgame database of another board size or rules than the position's.
    #[error("the Kalah database is for another board size or rules")]
    WrongDatabase,
    /// The endgame database's cache file could not be read (then it is rebuilt) or written
    /// (the database in memory stays usable): the path and the reason.
    #[error("{path}: {why}")]
    Cache { path: String, why: String },
    /// 5-en-Raya positions whose game graph the search cannot close.
    #[error("{0}")]
    Unproven(Unproven),
    /// A line of a batch of positions that does not read (the caller names the file).
    #[error("line {line}: {why}")]
    Line { line: usize, why: String },
}

impl From<ConfigError> for SolveError {
    fn from(e: ConfigError) -> SolveError {
        SolveError::Options(e)
    }
}

impl From<PositionError> for SolveError {
    fn from(e: PositionError) -> SolveError {
        SolveError::Position(e)
    }
}

/// Front ends print errors as text.
impl From<SolveError> for String {
    fn from(e: SolveError) -> String {
        e.to_string()
    }
}
