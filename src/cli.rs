//! The command line (clap derive). No subcommand runs the protocol loop.

use clap::{Parser, Subcommand};

/// tablero: a headless engine for Parchís with items, Conecta-4 BOOM, Connect Four and Mancala
/// speaking a UCI-like protocol on stdin/stdout (see protocol.md).
#[derive(Parser, Debug)]
#[command(version, about)]
pub struct Cli {
    /// Game played at start-up (the protocol's `UCI_Variant` can change it).
    #[arg(long, default_value = "parchis", global = true)]
    pub game: String,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Counts the leaves of the legal-move tree, split by root move.
    Perft {
        /// Plies to count.
        #[arg(long)]
        depth: u32,
        /// Start from this state string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the start (or the fen) first, space-separated or repeated.
        #[arg(long, num_args = 1.., allow_hyphen_values = false)]
        moves: Vec<String>,
    },
    /// Searches a fixed suite of positions per game; prints total nodes (the regression
    /// signature) and nodes per second.
    Bench {
        /// Only this game's positions (default: every game).
        #[arg(long = "only")]
        only: Option<String>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Solves a Connect Four or Kalah position exactly (or a batch file of golden lines):
    /// prints `info` lines and `solved score <s> best <move> nodes <n> time <ms>`.
    Solve {
        /// Start from this state string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves played first (space-separated; Connect Four also takes Pons strings `4455`).
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Solve every line of this golden file and report mismatches, mean nodes and time.
        #[arg(long)]
        batch: Option<String>,
        /// Variant option, repeatable: `--set Rows=7`, `--set Pits=4 --set Seeds=3`.
        #[arg(long = "set")]
        set: Vec<String>,
        /// Table size in MiB (the `solve` command uses more than the protocol's default).
        #[arg(long, default_value_t = 1024)]
        hash: usize,
        /// Search threads (Connect Four: Lazy SMP over a shared table).
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
}
