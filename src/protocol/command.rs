//! The typed form of every protocol input line.

pub use crate::core::spec::{StartSpec, Token};

/// Limits of `go`. Times are milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `searchmoves m1 m2 …`: only these root moves are searched (checked by the engine,
    /// which knows the position); empty: all.
    pub searchmoves: Vec<Token>,
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

impl Command {
    /// The command's keyword, for messages about it.
    pub fn keyword(&self) -> &'static str {
        match self {
            Command::Empty => "",
            Command::Uci => "uci",
            Command::IsReady => "isready",
            Command::UciNewGame => "ucinewgame",
            Command::SetOption { .. } => "setoption",
            Command::Position { .. } => "position",
            Command::Go(_) => "go",
            Command::Stop => "stop",
            Command::Quit => "quit",
            Command::Perft(_) => "perft",
            Command::Moves => "moves",
            Command::Display => "d",
            Command::Eval => "eval",
            Command::Help => "help",
            Command::Solve => "solve",
        }
    }
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
