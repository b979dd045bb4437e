//! The typed form of every protocol input line.

pub use crate::core::spec::{StartSpec, Token};

/// Limits of `go`. Times are milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
}

/// One input line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty or blank line: ignored.
    Empty,
    Uci,
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: StartSpec,
        moves: Vec<Token>,
    },
    Go(GoParams),
    Stop,
    Quit,
    Perft(u32),
    Moves,
    Display,
    Eval,
    Help,
    /// `solve`: exact value of the current position (Connect Four, Mancala).
    Solve,
}
