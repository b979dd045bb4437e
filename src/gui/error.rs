//! Why `tablero gui` cannot start ([`GuiError`]), why the server refuses a request's bytes or
//! origin ([`RequestError`]), why the session refuses a request of the page ([`ApiError`]) and
//! why a game review failed ([`ReviewFailure`]).
//! The HTTP layer answers a refusal with its `status()` and its text as the one-line body; the
//! texts are the page's messages.

use std::io;
use std::net::IpAddr;

use super::board::{BoardError, VariantError};
use super::{MAX_BODY, MAX_HEADER};
use crate::core::game::ConfigError;
use crate::core::spec::clip;
use crate::games::UnknownGame;
use crate::review::game::GameError;

/// Why the page's server did not start.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// `current_exe` failed: the page offers this binary as the engine `tablero`.
    #[error("cannot locate this binary: {0}")]
    Locate(io::Error),
    #[error("--listen {listen}: {why}")]
    Listen { listen: String, why: ListenWhy },
    /// A thread of the session (an engine worker, the review, the event loop).
    #[error("cannot start the {what} thread: {error}")]
    Thread {
        what: &'static str,
        error: io::Error,
    },
}

/// Why `--listen` cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum ListenWhy {
    #[error("{0}")]
    Resolve(io::Error),
    #[error("no address")]
    NoAddress,
    #[error(
        "{0} is not a loopback address; the page lets anyone who reaches it run engines on this \
         machine, so add --allow-remote to mean it"
    )]
    NotLoopback(IpAddr),
    #[error("{0}")]
    Bind(io::Error),
}

// The front end prints errors as text.
impl From<GuiError> for String {
    fn from(e: GuiError) -> String {
        e.to_string()
    }
}

/// Why the server refused a request before the session saw it: its bytes, its caps, its
/// origin. [`RequestError::status`] is the HTTP answer's status.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error("request head larger than {MAX_HEADER} bytes")]
    HeadTooLarge,
    #[error("more than {0} header fields")]
    TooManyHeaders(usize),
    #[error("incomplete request head")]
    Incomplete,
    #[error("malformed request: {0}")]
    Malformed(httparse::Error),
    /// The client closed before its head (`false`) or its body (`true`) ended.
    #[error("connection closed before the {} ended", if *.0 { "body" } else { "request" })]
    Closed(bool),
    /// The head (`false`) or the body (`true`) did not arrive in time.
    #[error("request{} not received in time", if *.0 { " body" } else { "" })]
    Slow(bool),
    #[error("chunked bodies are not accepted; send Content-Length")]
    Chunked,
    #[error("bad Content-Length '{}'", clip(.0))]
    BadLength(String),
    #[error("body of {0} bytes; the limit is {MAX_BODY}")]
    BodyTooLarge(usize),
    /// A `POST` that another site sent (`header`: what says so, `value`: what it says).
    #[error("cross-site request refused ({header}: {})", clip(.value))]
    CrossSite { header: &'static str, value: String },
    #[error("POST bodies must be Content-Type: application/json")]
    NotJson,
    /// A query parameter that must be a number.
    #[error("'{0}' must be a non-negative integer")]
    Query(&'static str),
}

impl RequestError {
    pub fn status(&self) -> u16 {
        match self {
            RequestError::HeadTooLarge | RequestError::TooManyHeaders(_) => 431,
            RequestError::Slow(_) => 408,
            RequestError::Chunked => 411,
            RequestError::BodyTooLarge(_) => 413,
            RequestError::CrossSite { .. } | RequestError::NotJson => 403,
            RequestError::Incomplete
            | RequestError::Malformed(_)
            | RequestError::Closed(_)
            | RequestError::BadLength(_)
            | RequestError::Query(_) => 400,
        }
    }
}

/// Why a review of the page's game failed (the page shows the text in the review box).
#[derive(Debug, thiserror::Error)]
pub enum ReviewFailure {
    /// The game's default settings do not make a reviewer.
    #[error("{0}")]
    Reviewer(ConfigError),
    /// The game's moves or a search of them.
    #[error("{0}")]
    Game(GameError),
}

/// Why the session refused a request of the page (`POST /api/…`, `GET /api/record`).
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A field that must be a string is another JSON value.
    #[error("'{0}' must be a string")]
    NotString(&'static str),
    #[error("'{0}' is missing")]
    Missing(&'static str),
    /// A field that must be `true` or `false`.
    #[error("'{0}' must be true or false")]
    NotBool(&'static str),
    /// A number outside its range (`depth`, `movetime`, `pace` in ms).
    #[error("'{field}' must be an integer in {lo}..={hi}{unit}")]
    Range {
        field: &'static str,
        lo: u64,
        hi: u64,
        unit: &'static str,
    },
    /// `ply` past the game's moves (`.0`, the number played).
    #[error("'ply' must be a move number in 0..={0}")]
    Ply(usize),
    #[error("option '{}' must be a string", clip(.0))]
    OptionNotString(String),
    #[error("'options' must be an object of strings")]
    OptionsNotObject,
    #[error("{0}")]
    Game(#[from] UnknownGame),
    #[error("{0}")]
    Variant(#[from] VariantError),
    /// A position or move the board refuses.
    #[error("{0}")]
    Board(#[from] BoardError),
    #[error("position text longer than {0} bytes")]
    PositionTooLong(usize),
    #[error("unknown engine '{}' (offered: {offered})", clip(.name))]
    UnknownEngine { name: String, offered: String },
    #[error("'seats' must be a list of two")]
    Seats,
    #[error("a seat is an engine name or null (human)")]
    Seat,
    #[error("'limit' is {{\"depth\": D}} or {{\"movetime\": MS}}")]
    Limit,
    #[error("unknown heuristic '{}' (known: {known})", clip(.name))]
    UnknownHeuristic { name: String, known: String },
    #[error("the record is not a JSON line: {0}")]
    RecordJson(serde_json::Error),
    #[error("not a game record (a line of tablero match --records)")]
    NotARecord,
    #[error("the record's moves: {0}")]
    RecordMoves(BoardError),
    /// A human move while the seat's engine thinks (`who` names it).
    #[error("{who} is thinking; wait or press Move now")]
    Thinking { who: String },
    #[error("it is an engine's turn (pause the game to move for it)")]
    EnginesTurn,
    #[error("nothing to take back")]
    NothingToUndo,
    #[error("no engine is thinking")]
    NotThinking,
    #[error("the game is not finished")]
    NotFinished,
}

impl ApiError {
    /// The HTTP status: 409 Conflict for a request that is well formed but that the game's
    /// state refuses now (it may succeed later), 400 for one that is wrong in itself.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::Thinking { .. }
            | ApiError::EnginesTurn
            | ApiError::NothingToUndo
            | ApiError::NotThinking
            | ApiError::NotFinished => 409,
            _ => 400,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_conflicts_are_409_and_bad_requests_400() {
        let conflicts = [
            ApiError::Thinking {
                who: "engine 'x'".into(),
            },
            ApiError::EnginesTurn,
            ApiError::NothingToUndo,
            ApiError::NotThinking,
            ApiError::NotFinished,
        ];
        for e in &conflicts {
            assert_eq!(e.status(), 409, "{e}");
        }
        let bad = [
            ApiError::NotString("move"),
            ApiError::Missing("move"),
            ApiError::NotBool("auto"),
            ApiError::Seats,
            ApiError::Seat,
            ApiError::Limit,
            ApiError::NotARecord,
            ApiError::PositionTooLong(4096),
            ApiError::Ply(3),
            ApiError::OptionsNotObject,
        ];
        for e in &bad {
            assert_eq!(e.status(), 400, "{e}");
        }
    }

    #[test]
    fn texts_are_one_line_and_clip_what_the_client_sent() {
        let long = "x".repeat(5000);
        let e = ApiError::UnknownEngine {
            name: long.clone(),
            offered: "tablero, random".into(),
        };
        let t = e.to_string();
        assert!(t.len() < 400 && !t.contains('\n'), "{t}");
        assert!(t.ends_with("(offered: tablero, random)"), "{t}");
        let t = ApiError::Range {
            field: "pace",
            lo: 0,
            hi: 10_000,
            unit: " (ms)",
        }
        .to_string();
        assert_eq!(t, "'pace' must be an integer in 0..=10000 (ms)");
        assert_eq!(
            ApiError::Limit.to_string(),
            r#"'limit' is {"depth": D} or {"movetime": MS}"#
        );
    }
}
