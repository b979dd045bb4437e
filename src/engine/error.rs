//! What the engine refuses, as values: each says in one line what was wrong and leaves the
//! engine as it was. The protocol prints them as `info string error: …`.

use crate::core::game::ConfigError;
use crate::core::spec::PositionError;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A command that needs an idle engine arrived while a search runs.
    #[error("a search is running; send 'stop' first")]
    Busy,
    /// An option set while a search runs.
    #[error("setoption {0}: a search is running; send 'stop' first")]
    BusyOption(String),
    /// The current variant options make no game (the game's message).
    #[error("{0}")]
    NoGame(ConfigError),
    /// The variant options refused by the game's rules.
    #[error("{0}")]
    Rules(ConfigError),
    /// `UCI_Variant` names no game.
    #[error("{0}")]
    UnknownGame(crate::games::UnknownGame),
    /// No option of that name.
    #[error("setoption: unknown option '{0}'; 'uci' lists the options")]
    UnknownOption(String),
    /// An option that needs a value got none.
    #[error("setoption {0}: missing 'value <...>'")]
    MissingValue(String),
    /// A `spin` option's value that is not an integer.
    #[error("setoption {option}: value '{value}' is not an integer")]
    NotInteger { option: String, value: String },
    /// A `spin` option's value outside its range.
    #[error("setoption {option}: value {value} is outside {min}..={max}")]
    OutOfRange {
        option: String,
        value: i64,
        min: i64,
        max: i64,
    },
    /// Any other refused option value.
    #[error("setoption {option}: {why}")]
    Option { option: String, why: String },
    /// A position the rules refuse: the engine has no position until a legal one.
    #[error("{}", position_message(.0))]
    Position(PositionError),
    /// A `position file` whose text gives no position (or a game without files): as for any
    /// refused position, the engine has none until a legal one.
    #[error("position file: {0}; {NO_POSITION_UNTIL}")]
    File(crate::core::spec::FileError),
    /// `file` in a game whose simulator has no position files.
    #[error(
        "file: {game} has no position files (5-en-Raya's -file boards); 'd' prints the state string"
    )]
    NoFileFormat { game: &'static str },
    /// A command that needs a position after a refused `position` (the refusal's words).
    #[error(
        "no position: the last 'position' was refused ({0}); send a legal 'position' or 'ucinewgame'"
    )]
    NoPosition(String),
    /// `go` limits that do not fit the position (`searchmoves`).
    #[error("go searchmoves: {0}")]
    SearchMoves(String),
    /// The search thread could not be started.
    #[error("cannot start the search thread: {0}")]
    Thread(String),
}

/// How a background job (`perft`, `solve`) ended without its result.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// It stopped before its result (`stop`, `quit`, or the solver's own budget); the line says
    /// how far it got.
    #[error("{0}")]
    Stopped(String),
    /// The solver refused the question (a game without a solver, a board it cannot hold, …).
    #[error(transparent)]
    Solve(crate::solver::SolveError),
}

impl From<crate::solver::SolveError> for JobError {
    fn from(e: crate::solver::SolveError) -> JobError {
        match e {
            crate::solver::SolveError::Stopped { .. } => JobError::Stopped(e.to_string()),
            e => JobError::Solve(e),
        }
    }
}

/// What follows every refused `position`: searching the position before it would answer a
/// question nobody asked, so the engine has none until it is given a legal one.
pub const NO_POSITION_UNTIL: &str = "no position until a legal 'position' or 'ucinewgame'";

fn position_message(e: &PositionError) -> String {
    match e {
        PositionError::Fen(_) => format!("position fen: {e}; {NO_POSITION_UNTIL}"),
        PositionError::Move { .. } | PositionError::UnknownStart { .. } => {
            format!("position: {e}; {NO_POSITION_UNTIL}")
        }
    }
}

impl From<PositionError> for Error {
    fn from(e: PositionError) -> Error {
        Error::Position(e)
    }
}
