//! Why a report cannot be made ([`ReportError`]): records that cannot be read or merged, flags
//! that do not fit the records, a game whose record the rules refuse, an output that cannot be
//! written. The texts are the one-line errors `tablero report` prints.

use std::path::PathBuf;

use crate::core::game::{ConfigError, FenError, MoveError};
use crate::review::game::ReplayError;
use crate::review::run::ReviewError;

/// Why `tablero report` (or a class's pages) could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The records files cannot be read or merged (the referee's error names file and line).
    #[error("{0}")]
    Records(crate::referee::Error),
    /// A match's view (a page with `-o`, `--times`) of a tournament's records.
    #[error(
        "tournament records: their report is the standings (tablero report without -o, or with --json)"
    )]
    Tournament,
    #[error("a match's records name two engines")]
    NotTwoEngines,
    #[error(
        "--times adds a table to the text report; leave out -o (the page shows each move's time with the move)"
    )]
    TimesWithPage,
    #[error("--json and --anchor are for tournament records")]
    TournamentFlags,
    #[error("--times is for match records (a tournament's games have many engines)")]
    TimesOfTournament,
    #[error("tournament records without settings")]
    NoSettings,
    #[error("tournament records of an unknown format")]
    UnknownFormat,
    #[error("--anchor: no engine named '{0}'")]
    Anchor(String),
    /// The standings cannot be computed from the records.
    #[error("{0}")]
    Standings(crate::referee::Error),
    /// The recorded variant options do not configure the game.
    #[error("recorded variant options: {0}")]
    Variant(ConfigError),
    /// A game's record the rules refuse where the report cannot go on without it (`--times`).
    #[error("{file}: game {index}: {why}")]
    Game {
        /// Where the game was read (file and line).
        file: String,
        index: usize,
        why: GameWhy,
    },
    /// The review lines of the records cannot be read again.
    #[error("{0}")]
    Review(ReviewError),
    #[error("-o {}: {error}", path.display())]
    Output {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("stdout: {0}")]
    Stdout(std::io::Error),
    /// Compressing a page's games failed (an allocation or encoder error).
    #[error("compressing the games: {0}")]
    Compress(std::io::Error),
    /// A thread that built part of a page stopped without its result.
    #[error("a report worker failed")]
    Worker,
}

/// What is wrong with one game's record ([`ReportError::Game`]).
#[derive(Debug, thiserror::Error)]
pub enum GameWhy {
    #[error("{0}")]
    Start(ReplayError),
    #[error("opening move '{text}': {error}")]
    OpeningMove { text: String, error: MoveError },
}

/// Why a game's replay for the page could not start; the page shows it in the game's place.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("opening fen: {0}")]
    Fen(FenError),
    #[error("the board: {0}")]
    Board(serde_json::Error),
}

// The class pages and the front end still carry errors as text; this lets `?` bring a typed
// report error into them.
impl From<ReportError> for String {
    fn from(e: ReportError) -> String {
        e.to_string()
    }
}
