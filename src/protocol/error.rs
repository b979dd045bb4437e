//! What the protocol refuses, as values: a line that does not parse ([`LineError`]), a
//! position file it cannot read ([`FileReadError`]), and the session's own errors ([`Error`],
//! which also carries the engine's). Each prints as the one line the session sends after
//! `info string error: `; the texts are protocol.md's.

use crate::engine::error::NO_POSITION_UNTIL;

/// Why an input line is not a command. Tokens are clipped ([`crate::core::spec::clip`]) and
/// columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("line too long ({bytes} bytes, the limit is {limit}); ignored")]
    TooLong { bytes: usize, limit: usize },
    #[error("unknown command '{command}' (character {column}); 'help' lists the commands")]
    UnknownCommand { command: String, column: usize },
    #[error("'{command}' takes no arguments, got '{token}' (character {column})")]
    NoArguments {
        command: String,
        token: String,
        column: usize,
    },
    /// `what` is the command (and limit) the number was for: `perft`, `go depth`, …
    #[error("{what} expects a non-negative integer, got '{token}' (character {column})")]
    NotANumber {
        what: String,
        token: String,
        column: usize,
    },
    #[error("setoption expects 'name <option> [value <value>]'")]
    SetOptionEmpty,
    #[error("setoption expects 'name', got '{token}' (character {column})")]
    SetOptionNotName { token: String, column: usize },
    #[error("setoption: missing option name after 'name'")]
    SetOptionNoName,
    #[error("setoption: 'value' needs a value (character {column})")]
    SetOptionNoValue { column: usize },
    #[error("position expects 'startpos', 'fen <state>', 'file <path>' or a start name")]
    PositionEmpty,
    /// `start` is `startpos` or a start's name.
    #[error("position {start}: expected 'moves', got '{token}' (character {column})")]
    PositionNotMoves {
        start: String,
        token: String,
        column: usize,
    },
    #[error("position fen: missing state string (character {column})")]
    PositionNoFen { column: usize },
    #[error("position file: missing the file's path (character {column})")]
    PositionNoPath { column: usize },
    #[error(
        "position: missing start ('startpos', 'fen <state>' or a start name) before 'moves' (character {column})"
    )]
    PositionMovesFirst { column: usize },
    #[error("position: {count} moves given, at most {max} are accepted")]
    TooManyMoves { count: usize, max: usize },
    #[error(
        "go: unknown limit '{word}' (character {column}); expected depth, nodes, movetime, infinite, wtime, btime, winc, binc, movestogo or searchmoves"
    )]
    GoUnknownLimit { word: String, column: usize },
    #[error("go: '{limit}' needs a number (character {column})")]
    GoNoNumber { limit: String, column: usize },
    #[error("go: 'searchmoves' needs at least one move (character {column})")]
    GoNoSearchMoves { column: usize },
    #[error("go: depth must be at least 1")]
    GoDepthZero,
    #[error("perft expects a depth, e.g. 'perft 5'")]
    PerftNoDepth,
    #[error("perft takes one number, got extra '{token}' (character {column})")]
    PerftExtra { token: String, column: usize },
    #[error("perft depth {depth} is too deep (at most {max})")]
    PerftTooDeep { depth: u64, max: u64 },
}

/// Why `position file <path>` read no text (the file's position is the engine's to judge).
#[derive(Debug, thiserror::Error)]
pub enum FileReadError {
    /// `tablero serve` sessions do not read the server's files.
    #[error("this session reads no files (tablero serve); send 'position fen …'")]
    NotAllowed,
    #[error("{0}")]
    Open(std::io::Error),
    #[error("not a regular file")]
    NotRegular,
    #[error("{bytes} bytes; a position file has at most {max}")]
    TooLarge { bytes: u64, max: u64 },
    #[error("cannot read it as text: {0}")]
    NotText(std::io::Error),
}

/// A command the session refused; the engine and the session stay usable.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Line(#[from] LineError),
    /// A `position` line that did not parse: it still replaces the position, by none.
    #[error("{0}; {NO_POSITION_UNTIL}")]
    RefusedPosition(LineError),
    /// `path` is clipped.
    #[error("position file {path}: {why}; {NO_POSITION_UNTIL}")]
    PositionFile { path: String, why: FileReadError },
    #[error(transparent)]
    Engine(#[from] crate::engine::Error),
    /// A command the engine cannot take since the variant options make no game.
    #[error("{0}")]
    Broken(crate::core::game::ConfigError),
    /// `perft` or `solve` could not start its thread.
    #[error("{job}: cannot start a thread: {why}")]
    Thread { job: String, why: std::io::Error },
}
