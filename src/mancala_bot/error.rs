//! Why the course-bot bridges stop or refuse: [`SpawnError`] (a bot binary that cannot be
//! started), [`PositionWhy`] (a `position` the adapter cannot give a course bot), [`FlagError`]
//! (`tablero mancala-bot`'s flags) and [`BotError`] (what the course's referee or the engine
//! session did wrong while tablero plays as a bot). The texts are the lines the user sees.

use crate::core::game::{FenError, MoveError};
use crate::core::spec::clip;
use crate::players::UnknownPlayer;

use super::BoardError;

/// Why a course bot's process could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("mancala-bot: no bot program given")]
    NoProgram,
    #[error("cannot start '{program}': {error}")]
    Start {
        program: String,
        error: std::io::Error,
    },
    /// The started process has no pipe for `stream` (stdout or stderr).
    #[error("no {0} pipe")]
    NoPipe(&'static str),
}

/// Why a `position` command gives the adapter no position.
#[derive(Debug, thiserror::Error)]
pub enum PositionWhy {
    #[error("expected 'startpos' or 'fen <state>', then 'moves …'")]
    Form,
    #[error("invalid state string: {0}")]
    Fen(FenError),
    /// Move number `index` (1-based) is not legal where it is played.
    #[error("move {index} '{}' is illegal: {error}", clip(text))]
    Move {
        index: usize,
        text: String,
        error: MoveError,
    },
}

/// Why `tablero mancala-bot`'s flags give no bot.
#[derive(Debug, thiserror::Error)]
pub enum FlagError {
    #[error("--name '{0}': one word, as the course's referee reads it")]
    Name(String),
    #[error("--player: {0}")]
    Player(UnknownPlayer),
    #[error("--depth: at least 1")]
    Depth,
    #[error("--movetime: at least 1 ms")]
    Movetime,
    #[error("--heuristic '{given}': Mancala's are {known}")]
    Heuristic { given: String, known: String },
    #[error("--option '{0}': expected NAME=VALUE")]
    Option(String),
}

/// Why tablero stopped playing as a course bot: the referee broke the protocol, or the engine
/// session could not answer.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("the engine session ended")]
    EngineEnded,
    /// The engine refused a command (`info string error: …`, its own words).
    #[error("{0}")]
    Engine(String),
    #[error("cannot write to the referee: {0}")]
    Write(std::io::Error),
    #[error("the referee refused the name '{0}'")]
    BadName(String),
    #[error("input ended where {0} was expected")]
    InputEnded(&'static str),
    #[error("{what}: '{}' is not a number", clip(word))]
    NotNumber { what: &'static str, word: String },
    #[error("SETPLAYER {0}: the player is 0 or 1")]
    Seat(i64),
    #[error("GETMOVE: {0} opponent moves is not a count")]
    Count(i64),
    #[error("input ended inside a GETMOVE board")]
    BoardCut,
    #[error("GETMOVE: {0}")]
    Board(BoardError),
    /// A board of the protocol that is no position of the course's game.
    #[error("{0}")]
    State(FenError),
    #[error("GETMOVE: the game is over at {0}")]
    Over(String),
    #[error("the engine's bestmove '{text}' is not playable: {error}")]
    BestMove { text: String, error: MoveError },
}

// The front end carries errors as text; these let `?` bring them into it.
impl From<FlagError> for String {
    fn from(e: FlagError) -> String {
        e.to_string()
    }
}
impl From<BotError> for String {
    fn from(e: BotError) -> String {
        e.to_string()
    }
}
impl From<SpawnError> for String {
    fn from(e: SpawnError) -> String {
        e.to_string()
    }
}
