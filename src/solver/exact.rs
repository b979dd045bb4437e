//! `go`'s use of the exact solvers (protocol.md, "Exact results in `go`"): for Connect Four
//! (any size) and Kalah (up to 7 pits) `go` may first try to solve the position within a
//! budget; a proven value is reported as `score mate ±N` (or the exact draw score) and the
//! solver's move is played.

use std::any::Any;
use std::thread::JoinHandle;
use std::time::Duration;

use super::kalahdb::{self, Rules};
use super::{Budget, connect4, kalah};
use crate::core::game::{Game, Side};
use crate::games::connect4::Connect4;
use crate::games::mancala::Mancala;

/// Node budget of a solve inside `go` when neither `nodes` nor a time limit bounds it
/// (`go depth N` under `Solver always`, `go infinite`, `go` without limits).
pub const DEFAULT_NODES: u64 = 10_000_000;

/// Connect Four positions with more empty cells than this are not tried (hopeless within a
/// move's budget: the 7×6 board needs at least 8 stones).
pub const C4_MAX_EMPTY: u32 = 34;

/// Kalah positions with more seeds in pits than this are not tried (Kalah(6,3) from the start,
/// 36 seeds, takes about a second; Kalah(6,4), 48 seeds, a minute without the endgame
/// database and still 20 CPU-seconds with the 20-seed one).
pub const KALAH_MAX_SEEDS: u32 = 40;

/// The `Solver` option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Never solve inside `go`.
    Off,
    /// Solve first when `go` has no `depth` and no `nodes` limit (play under a clock, `movetime`,
    /// analysis); `go depth`/`go nodes` stay the plain heuristic search.
    #[default]
    Auto,
    /// Solve first on every `go` (within the budget its limits give).
    Always,
    /// Solve every `go` to the end, whatever its limits and the position's size (only `stop`
    /// ends it): perfect play, at the solver's speed. The `solver` built-in player.
    Exact,
}

impl Mode {
    /// Parses an option value (case-insensitive).
    pub fn parse(v: &str) -> Result<Mode, String> {
        match v.trim().to_ascii_lowercase().as_str() {
            "off" => Ok(Mode::Off),
            "auto" => Ok(Mode::Auto),
            "always" => Ok(Mode::Always),
            "exact" => Ok(Mode::Exact),
            _ => Err(format!(
                "unknown value '{}' (auto, off, always or exact)",
                crate::core::spec::clip(v)
            )),
        }
    }

    /// Does this mode solve before a `go` with these limits?
    pub fn applies(self, depth_or_nodes: bool) -> bool {
        match self {
            Mode::Off => false,
            Mode::Auto => !depth_or_nodes,
            Mode::Always | Mode::Exact => true,
        }
    }
}

/// A proven result for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// `Some(n)`: a win `n` plies from now (`-n`: a loss) along `pv`; `None`: a draw, or a
    /// Kalah result whose line could not be completed (then `cp` is its exact value).
    pub mate: Option<i32>,
    /// The exact value in the engine's score units: 0 for a draw; Kalah: 100 per seed of final
    /// margin.
    pub cp: i32,
    /// What the solver proved, for `info string`.
    pub detail: String,
    /// The move to play.
    pub best: String,
    /// Optimal moves for both sides to the end of the game (at least `best`).
    pub pv: Vec<String>,
    pub nodes: u64,
}

/// The solvers of one engine, created at first use and kept between searches (their tables
/// help the next move's solve), each with `hash_mib` MiB.
pub struct Exact {
    hash_mib: usize,
    c4: Built<(u32, u32), connect4::Solver>,
    kalah: Built<(usize, u32), kalah::Solver>,
}

/// A solver for one board size, built on a thread of its own: building zeroes `Hash` MiB of
/// table (hundreds of milliseconds on a loaded machine), and `stop` must not wait for that.
struct Built<K, S> {
    ready: Option<(K, S)>,
    pending: Option<(K, JoinHandle<Option<S>>)>,
}

impl<K: PartialEq + Copy, S: Send + 'static> Built<K, S> {
    fn new() -> Self {
        Built {
            ready: None,
            pending: None,
        }
    }

    /// The solver for `key`, building it with `make` if needed; `None` when `budget` expires
    /// first (the build goes on and is picked up by the next call) or `make` fails.
    fn get(
        &mut self,
        key: K,
        budget: &Budget,
        make: impl FnOnce() -> Option<S> + Send + 'static,
    ) -> Option<&mut S> {
        if self.ready.as_ref().is_some_and(|(k, _)| *k == key) {
            return self.ready.as_mut().map(|(_, s)| s);
        }
        // Another size's solver is dropped first: its memory is needed for the new one.
        self.ready = None;
        if self.pending.as_ref().is_none_or(|(k, _)| *k != key) {
            let handle = std::thread::Builder::new()
                .name("solver-alloc".into())
                .spawn(make)
                .ok()?;
            self.pending = Some((key, handle));
        }
        loop {
            let (_, h) = self.pending.as_ref()?;
            if h.is_finished() {
                let (_, h) = self.pending.take()?;
                let solver = h.join().ok()??;
                self.ready = Some((key, solver));
                return self.ready.as_mut().map(|(_, s)| s);
            }
            if budget.expired() {
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// The budget of the walk along the principal variation once the value is proven: no node
/// limit (the walk is cheap once solved, and a node-limited solve must stay reproducible), but
/// `stop` and the deadline still hold, so that `go` keeps its time (a walk cut short leaves the
/// pv shorter, the value proven).
fn pv_budget(budget: &Budget) -> Budget {
    Budget {
        stop: budget.stop.clone(),
        deadline: budget.deadline,
        ..Budget::default()
    }
}

impl Exact {
    pub fn new(hash_mib: usize) -> Self {
        Exact {
            hash_mib,
            c4: Built::new(),
            kalah: Built::new(),
        }
    }

    /// Is `root` worth trying: a game and size the solvers support, and small enough (see
    /// [`C4_MAX_EMPTY`], [`KALAH_MAX_SEEDS`]; under [`Mode::Exact`] any size is tried)?
    pub fn worth_trying<G: Game>(root: &G, mode: Mode) -> bool {
        let any_size = mode == Mode::Exact;
        let any = root as &dyn Any;
        if let Some(c) = any.downcast_ref::<Connect4>() {
            return any_size || c.width() * c.height() - c.moves_played() <= C4_MAX_EMPTY;
        }
        any.downcast_ref::<Mancala>().is_some_and(|m| {
            m.pits() <= kalah::MAX_SOLVER_PITS
                && (any_size
                    || m.pit_seeds(Side::First) + m.pit_seeds(Side::Second) <= KALAH_MAX_SEEDS)
        })
    }

    /// Tries to solve `root` within `budget`; `fresh` clears the tables first (for searches
    /// that must be reproducible). `None`: unsupported, or the budget ran out. The principal
    /// variation is walked within `budget`'s stop flag and deadline only (it is cheap once
    /// solved).
    pub fn prove<G: Game>(&mut self, root: &G, budget: &Budget, fresh: bool) -> Option<Proof> {
        let any = root as &dyn Any;
        if let Some(c) = any.downcast_ref::<Connect4>() {
            return self.prove_connect4(c, budget, fresh);
        }
        if let Some(m) = any.downcast_ref::<Mancala>() {
            return self.prove_kalah(m, budget, fresh);
        }
        None
    }

    fn prove_connect4(&mut self, s: &Connect4, budget: &Budget, fresh: bool) -> Option<Proof> {
        let size = (s.width(), s.height());
        let settings = connect4::Settings {
            hash_mib: self.hash_mib,
            threads: 1,
        };
        let solver = self.c4.get(size, budget, move || {
            Some(connect4::Solver::new(size.0, size.1, settings))
        })?;
        if fresh {
            solver.clear();
        }
        solver.set_budget(budget.clone());
        let sol = solver.solve(s)?;
        let best = sol.best?;
        let mut nodes = sol.nodes;
        solver.set_budget(pv_budget(budget));
        let line = solver.principal_variation(s, sol.score, &mut nodes);
        // Pons' score gives the winning ply: a win on stone `n` (counting all stones) scores
        // floor((cells + 2 - n) / 2); the winner's stones have the parity of its next move.
        let cells = (size.0 * size.1) as i32;
        let played = s.moves_played() as i32;
        let mate = match sol.score {
            0 => None,
            v if v > 0 => {
                let n = cells + 2 - 2 * v;
                let n = if (n - played) % 2 == 1 { n } else { n - 1 };
                Some(n - played)
            }
            v => {
                let n = cells + 2 + 2 * v;
                let n = if (n - played) % 2 == 0 { n } else { n - 1 };
                Some(-(n - played))
            }
        };
        if let (Some(l), Some(m)) = (&line, mate) {
            debug_assert_eq!(l.len() as i32, m.abs(), "pv length vs Pons score");
        }
        let pv = match line {
            Some(l) if !l.is_empty() => l.iter().map(|&c| s.format_move(c)).collect(),
            _ => vec![s.format_move(best)],
        };
        Some(Proof {
            mate,
            cp: 0,
            detail: format!("exact solver, Pons value {}", sol.score),
            best: s.format_move(best),
            pv,
            nodes,
        })
    }

    fn prove_kalah(&mut self, s: &Mancala, budget: &Budget, fresh: bool) -> Option<Proof> {
        let size = (s.pits(), s.total_seeds());
        let mib = self.hash_mib;
        // The database from the cache (see `kalahdb::cached`) is loaded on the solver's
        // set-up thread too: reading it takes a while, and `stop` must not wait.
        let solver = self.kalah.get(size, budget, move || {
            let total = size.1 as usize;
            let db = kalahdb::cached(size.0, total, Rules::Course);
            kalah::Solver::with_database(size.0, total, mib, Rules::Course, db).ok()
        })?;
        if fresh {
            solver.clear();
        }
        solver.set_budget(budget.clone());
        let sol = solver.solve(s)?;
        let best = sol.best?;
        let mut nodes = sol.nodes;
        solver.set_budget(pv_budget(budget));
        let line = solver.principal_variation(s, sol.score, &mut nodes);
        let mate = match (&line, sol.score) {
            (_, 0) | (None, _) => None,
            (Some(l), v) => Some(if v > 0 {
                l.len() as i32
            } else {
                -(l.len() as i32)
            }),
        };
        let pv = match line {
            Some(l) if !l.is_empty() => l.iter().map(|&p| s.format_move(p)).collect(),
            _ => vec![s.format_move(best)],
        };
        Some(Proof {
            mate,
            cp: 100 * sol.score,
            detail: format!("exact solver, final margin {:+}", sol.score),
            best: s.format_move(best),
            pv,
            nodes,
        })
    }
}
