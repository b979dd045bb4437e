//! Exact solvers: strong solutions of Connect Four (Pons-style bitboard negamax) and Kalah
//! (alpha-beta with a bounds table and run-time endgame databases), used by the `solve`
//! command and by `go` for positions small enough to prove.

pub mod c4table;
pub mod connect4;
pub mod exact;
pub mod kalah;
pub mod kalahdb;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::core::game::Game;
use crate::core::spec::{self, StartSpec, Token};
use crate::games::GameKind;
use crate::games::connect4::Connect4;
use crate::games::mancala::Mancala;

/// Threads the protocol's `solve` uses (Connect Four: ABDADA; Kalah: Lazy SMP).
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

/// Builds the session's position of game `G` from its variant values and last `position`.
fn replay<G: Game>(
    values: &BTreeMap<String, i64>,
    position: Option<&(StartSpec, Vec<Token>)>,
) -> Result<G, String> {
    let cfg = spec::configure::<G>(values)?;
    let Some((start, moves)) = position else {
        return Ok(G::start(&cfg));
    };
    spec::position(&cfg, start, moves).map_err(|e| e.to_string())
}

/// The protocol's `solve`: solves the position of a session (its variant values and last
/// `position`) synchronously and reports `info string …` then
/// `solved score <s> best <move> nodes <n> time <ms>` through `line`.
pub fn solve_position(
    kind: GameKind,
    values: &BTreeMap<String, i64>,
    position: Option<&(StartSpec, Vec<Token>)>,
    hash_mib: usize,
    stop: Arc<AtomicBool>,
    line: &(dyn Fn(&str) + Sync),
) -> Result<(), String> {
    let budget = Budget {
        stop: Some(stop),
        ..Budget::default()
    };
    let stopped = |t: Instant| {
        format!(
            "solve stopped after {} ms, no result",
            t.elapsed().as_millis()
        )
    };
    let t = Instant::now();
    let (score, best, nodes) = match kind {
        GameKind::Connect4 => {
            let s: Connect4 = replay(values, position)?;
            line(&format!(
                "info string solving connect4 {}x{} with {hash_mib} MiB",
                s.width(),
                s.height()
            ));
            let settings = connect4::Settings {
                hash_mib,
                threads: PROTOCOL_THREADS,
            };
            let sol =
                connect4::solve_reporting(&s, settings, budget, line).ok_or_else(|| stopped(t))?;
            (sol.score, sol.best.map(|c| s.format_move(c)), sol.nodes)
        }
        GameKind::Mancala => {
            let s: Mancala = replay(values, position)?;
            let mut solver = kalah::Solver::new(s.pits(), s.total_seeds() as usize, hash_mib)?;
            solver.set_threads(PROTOCOL_THREADS);
            solver.set_budget(budget);
            line(&format!(
                "info string solving kalah with {hash_mib} MiB, endgame database up to {} seeds",
                solver.db_seeds()
            ));
            let sol = solver.solve(&s).ok_or_else(|| stopped(t))?;
            (sol.score, sol.best.map(|m| s.format_move(m)), sol.nodes)
        }
        other => {
            return Err(format!(
                "solve supports connect4 and mancala, not {}",
                other.name()
            ));
        }
    };
    line(&format!(
        "solved score {score} best {} nodes {nodes} time {}",
        best.as_deref().unwrap_or("none"),
        t.elapsed().as_millis()
    ));
    Ok(())
}

/// Reads a golden Kalah line (`s1..sm S n1..nm N side value`) as a fen and South's margin.
pub fn kalah_golden_line(line: &str) -> Result<(String, i32), String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 6 || !f.len().is_multiple_of(2) {
        return Err(format!("'{line}': expected s1..sm S n1..nm N side value"));
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
        .map_err(|_| format!("'{}' is not a value", f[2 * m + 3]))?;
    Ok((fen, v))
}
