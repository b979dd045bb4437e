//! What can go wrong in a `learn` run, one line each; the front end adds which flag a value
//! came from.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no weight '{name}' in {game} (known: {known})")]
    UnknownWeight {
        game: &'static str,
        name: String,
        known: String,
    },
    #[error("{name}: {value} outside {min}..={max}")]
    WeightRange {
        name: &'static str,
        value: i32,
        min: i32,
        max: i32,
    },
    #[error("no heuristic '{name}' in {game} (known: {known})")]
    UnknownHeuristic {
        game: &'static str,
        name: String,
        known: String,
    },
    #[error("exact labels exist for mancala and connect4, not {game}")]
    NoExactLabels { game: &'static str },
    #[error("no training rows (too few games, or every row left out)")]
    NoTrainingRows,
    #[error("{}: {source}", path.display())]
    DataFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: line {line}: {why}", path.display())]
    DataLine {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error("{}: cannot write: {source}", path.display())]
    WriteData {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("Kalah endgame database: {0}")]
    Database(String),
    #[error("solver: {0}")]
    Solver(#[from] crate::solver::SolveError),
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Config(#[from] crate::core::game::ConfigError),
}
