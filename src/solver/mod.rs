//! Exact solvers: strong solutions of Connect Four (Pons-style bitboard negamax), Kalah
//! (alpha-beta with a bounds table and run-time endgame databases) and 5-en-Raya (null-window
//! alpha-beta with sound cycles), used by the `solve` command, by `go` for positions small
//! enough to prove and by reviews. Each is one line of [`registry::REGISTRY`].

pub mod c4book;
pub mod c4table;
pub mod connect4;
pub mod enraya;
pub mod error;
pub mod exact;
pub mod kalah;
pub mod kalahdb;
pub mod proven;
pub mod registry;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::core::game::{Outcome, Side};
use crate::core::spec::{StartSpec, Token};
use crate::games::GameKind;
pub use error::SolveError;

/// Threads the protocol's `solve` uses (Connect Four: ABDADA; Kalah: Lazy SMP; 5-en-Raya: one).
pub const PROTOCOL_THREADS: usize = 2;

/// Limits of a solve: a node budget, a deadline and an external stop flag (unset: none). A
/// solve that reaches one gives up (returns `None`); node budgets are checked at fixed node
/// counts, so a budgeted solve from a cleared table is deterministic.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// Has the deadline passed or the stop flag been raised?
    #[inline]
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// A proven result for the side to move: a win, a draw or a loss with both sides perfect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

impl Wdl {
    /// The result for the other player.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }

    /// Loss 0, draw 1, win 2: larger is better for the side it belongs to.
    pub fn rank(self) -> u8 {
        match self {
            Wdl::Win => 2,
            Wdl::Draw => 1,
            Wdl::Loss => 0,
        }
    }

    /// The result of a finished game for `side`.
    pub fn of_outcome(o: Outcome, side: Side) -> Wdl {
        match o {
            Outcome::Draw => Wdl::Draw,
            Outcome::Win(w) if w == side => Wdl::Win,
            Outcome::Win(_) => Wdl::Loss,
        }
    }
}

/// The protocol's `solve`: solves the position of a session (its variant values and last
/// `position`) synchronously with the game's registered solver ([`registry`]) and reports
/// `info string …` then `solved score <s> best <move> nodes <n> time <ms>` through `line`.
pub fn solve_position(
    kind: GameKind,
    values: &BTreeMap<String, i64>,
    position: Option<&(StartSpec, Vec<Token>)>,
    hash_mib: usize,
    stop: Arc<AtomicBool>,
    line: &(dyn Fn(&str) + Sync),
) -> Result<(), SolveError> {
    let budget = Budget {
        stop: Some(stop),
        ..Budget::default()
    };
    let t = Instant::now();
    let solved = registry::solve_by_name(kind.name(), values, position, hash_mib, budget, line)
        .ok_or_else(|| SolveError::Unsupported {
        game: kind.name(),
        supported: registry::games().join(", "),
    })??;
    let Some(sol) = solved else {
        return Err(SolveError::Stopped {
            ms: t.elapsed().as_millis(),
        });
    };
    line(&format!(
        "solved score {} best {} nodes {} time {}",
        sol.score,
        sol.best.as_deref().unwrap_or("none"),
        sol.nodes,
        t.elapsed().as_millis()
    ));
    Ok(())
}

/// Reads a golden Kalah line (`s1..sm S n1..nm N side value`) as a fen and South's margin.
pub fn kalah_golden_line(line: &str) -> Result<(String, i32), GoldenLineError> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 6 || !f.len().is_multiple_of(2) {
        return Err(GoldenLineError::Form(line.to_string()));
    }
    let m = (f.len() - 4) / 2;
    let fen = format!(
        "{}:{}/{}:{} {}",
        f[0..m].join(","),
        f[m],
        f[m + 1..2 * m + 1].join(","),
        f[2 * m + 1],
        f[2 * m + 2]
    );
    let v = f[2 * m + 3]
        .parse()
        .map_err(|_| GoldenLineError::Value(f[2 * m + 3].to_string()))?;
    Ok((fen, v))
}

/// Why a line is no golden Kalah line ([`kalah_golden_line`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoldenLineError {
    #[error("'{0}': expected s1..sm S n1..nm N side value")]
    Form(String),
    #[error("'{0}' is not a value")]
    Value(String),
}

#[cfg(test)]
mod golden_line_tests {
    use super::*;

    #[test]
    fn a_golden_line_reads_and_a_bad_one_is_named() {
        assert_eq!(
            kalah_golden_line("1 2 0 3 4 0 S -2").unwrap(),
            ("1,2:0/3,4:0 S".to_string(), -2)
        );
        assert_eq!(
            kalah_golden_line("1 2 0 3 4 0 S"),
            Err(GoldenLineError::Form("1 2 0 3 4 0 S".into()))
        );
        assert_eq!(
            kalah_golden_line("1 2 0 3 4 0 S x"),
            Err(GoldenLineError::Value("x".into()))
        );
    }
}
