//! The typed form of every protocol input line.

pub use crate::core::spec::{StartSpec, Token};
pub use crate::engine::GoParams;

impl Command {
    /// The command's keyword, for messages about it.
    pub fn keyword(&self) -> &'static str {
        match self {
            Command::Empty => "",
            Command::Uci => "uci",
            Command::IsReady => "isready",
            Command::UciNewGame => "ucinewgame",
            Command::SetOption { .. } => "setoption",
            Command::Position { .. }
            | Command::PositionFile { .. }
            | Command::RefusedPosition(_) => "position",
            Command::File => "file",
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
    /// `position file <path> [moves …]`: the position of a file of the game's simulator
    /// (5-en-Raya's `-file` boards), which also sets the variant options it names.
    PositionFile {
        path: String,
        moves: Vec<Token>,
    },
    /// `file`: the position as a file of the game's simulator.
    File,
    /// A `position` line that could not be read, with the reason: as for a position the rules
    /// refuse, there is no position until a legal one.
    RefusedPosition(super::error::LineError),
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
