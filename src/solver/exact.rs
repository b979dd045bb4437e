//! `go`'s use of the exact solvers (protocol.md, "Exact results in `go`"): for every game of
//! the registry (Connect Four of any size, Kalah up to 7 pits, 5-en-Raya) `go` may first try to
//! solve the position within a budget; a proven value is reported as `score mate ±N` (or the exact draw score) and the
//! solver's move is played.

use super::Budget;
pub use super::proven::{C4_MAX_EMPTY, KALAH_MAX_SEEDS, Proof, pv_budget};
use super::registry::{self, Solvers};
use crate::core::game::Game;

/// Node budget of a solve inside `go` when neither `nodes` nor a time limit bounds it
/// (`go depth N` under `Solver always`, `go infinite`, `go` without limits).
pub const DEFAULT_NODES: u64 = 10_000_000;

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

/// A `Solver` option value that is no [`Mode`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown value '{}' (auto, off, always or exact)", crate::core::spec::clip(.0))]
pub struct UnknownMode(pub String);

impl Mode {
    /// Parses an option value (case-insensitive).
    pub fn parse(v: &str) -> Result<Mode, UnknownMode> {
        match v.trim().to_ascii_lowercase().as_str() {
            "off" => Ok(Mode::Off),
            "auto" => Ok(Mode::Auto),
            "always" => Ok(Mode::Always),
            "exact" => Ok(Mode::Exact),
            _ => Err(UnknownMode(v.to_string())),
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

/// The solvers of one engine, created at first use and kept between searches (their tables
/// help the next move's solve), each with `hash_mib` MiB: every game of
/// [`super::registry::REGISTRY`].
pub struct Exact {
    solvers: Solvers,
}

impl Exact {
    pub fn new(hash_mib: usize) -> Self {
        Exact {
            solvers: Solvers::new(hash_mib),
        }
    }

    /// Is `root` worth trying: a game with a registered solver, and small enough for it (see
    /// [`C4_MAX_EMPTY`], [`KALAH_MAX_SEEDS`]; under [`Mode::Exact`] any size it handles)?
    pub fn worth_trying<G: Game>(root: &G, mode: Mode) -> bool {
        registry::worth_trying(root, mode == Mode::Exact)
    }

    /// The part of a move's time the solver gets on `root` before the search (see
    /// [`super::proven::ExactSolver::time_share`]).
    pub fn time_share<G: Game>(root: &G) -> (u32, u32) {
        registry::time_share(root)
    }

    /// The moves of `root` that keep the result `proof` proved, within `budget` (see
    /// [`super::proven::ExactSolver::keeping_moves`]).
    pub fn keeping_moves<G: Game>(
        &mut self,
        root: &G,
        proof: &Proof,
        budget: &Budget,
    ) -> Option<Vec<String>> {
        self.solvers.keeping_moves(root, proof, budget)
    }

    /// Tries to solve `root` within `budget`; `fresh` clears the tables first (for searches
    /// that must be reproducible). `None`: unsupported, or the budget ran out. The principal
    /// variation is walked within `budget`'s stop flag and deadline only (it is cheap once
    /// solved).
    pub fn prove<G: Game>(&mut self, root: &G, budget: &Budget, fresh: bool) -> Option<Proof> {
        self.solvers.prove(root, budget, fresh)
    }
}

#[cfg(test)]
mod mode_tests {
    use super::*;

    #[test]
    fn modes_parse_and_an_unknown_one_is_named() {
        assert_eq!(Mode::parse(" Exact "), Ok(Mode::Exact));
        assert_eq!(Mode::parse("OFF"), Ok(Mode::Off));
        let e = Mode::parse("sometimes").unwrap_err();
        assert_eq!(e, UnknownMode("sometimes".into()));
        assert_eq!(
            e.to_string(),
            "unknown value 'sometimes' (auto, off, always or exact)"
        );
    }
}
