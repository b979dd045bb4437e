//! What every exact solver shares, below the registry and `go`'s use of them: the trait a
//! game's solver implements ([`ExactSolver`]), what it proves ([`Proof`] for `go`, [`Verdict`]
//! for reviews, [`Solved`] for the protocol's `solve`) and the limits `go` tries them within.
//! The solvers import only this, the registry imports the solvers: no circle between them.

use super::{Budget, Wdl};
use crate::core::game::Game;

/// Connect Four positions with more empty cells than this are not tried (hopeless within a
/// move's budget: the 7×6 board needs at least 8 stones).
pub const C4_MAX_EMPTY: u32 = 34;

/// Kalah positions with more seeds in pits than this are not tried (Kalah(6,3) from the start,
/// 36 seeds, takes about a second; Kalah(6,4), 48 seeds, a minute without the endgame
/// database and still 20 CPU-seconds with the 20-seed one).
pub const KALAH_MAX_SEEDS: u32 = 40;

/// The same limit where the endgame database of the board is cached (`tablero solve` built
/// it): every Kalah(6,4) position. Measured on the positions right after a 4-movement opening
/// where tablero's 2-second search lost the game's value (docs/players.md, "No lost value"):
/// 0.1 to 1.2 CPU-seconds each, within the solver's part of a move.
pub const KALAH_MAX_SEEDS_WITH_DB: u32 = 48;

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

/// The budget of the walk along the principal variation once the value is proven: no node
/// limit (the walk is cheap once solved, and a node-limited solve must stay reproducible), but
/// `stop` and the deadline still hold, so that `go` keeps its time (a walk cut short leaves the
/// pv shorter, the value proven).
pub fn pv_budget(budget: &Budget) -> Budget {
    Budget {
        stop: budget.stop.clone(),
        deadline: budget.deadline,
        ..Budget::default()
    }
}

/// A proven value for the side to move, as reviews use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub wdl: Wdl,
    /// Plies to the end with both sides perfect (the winner as soon as it can, the loser as
    /// late as it can), when the solver knows them.
    pub plies: Option<u32>,
    /// An optimal move, in the game's notation.
    pub best: String,
}

/// A position's value known without a search (see [`ExactSolver::known`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub proof: Proof,
    /// Every move that keeps the proof's result, when known (the proof's best among them).
    pub keeping: Option<Vec<String>>,
    pub verdict: Verdict,
}

/// What the protocol's `solve` prints on its `solved` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The game's score (protocol.md, "Exact solving: `solve`").
    pub score: i32,
    /// An optimal move in the game's notation (`None`: the game is over).
    pub best: Option<String>,
    pub nodes: u64,
}

/// A game's exact solver.
pub trait ExactSolver: Sized + Send + 'static {
    /// The game it solves.
    type G: Game;
    /// What one built solver serves (a board size, a seed count): a position with another key
    /// gets another solver.
    type Key: Copy + PartialEq + Send + 'static;

    fn key(root: &Self::G) -> Self::Key;
    /// A solver for `key` with `hash_mib` MiB of table (and what else it loads); `None` when
    /// the size is beyond it.
    fn build(key: Self::Key, hash_mib: usize) -> Option<Self>;
    /// Is `root` worth trying inside `go`? `any_size`: under `Solver exact`, every size the
    /// solver handles; else only positions it proves within a move's budget.
    fn worth_trying(root: &Self::G, any_size: bool) -> bool;
    /// Worth trying inside `go` beyond [`Self::worth_trying`]'s sizes, because something
    /// cached (Kalah's endgame database) brings such positions within a move's budget. Not
    /// for reviews: a review's every unproven position costs its whole node budget.
    fn worth_trying_in_play(_root: &Self::G) -> bool {
        false
    }
    /// The part of a move's time, `(numerator, denominator)`, that `go` gives the solver before
    /// the search takes over (`Solver auto` and `always`): a third, unless something cached
    /// makes a proof of `root` likely with more.
    fn time_share(_root: &Self::G) -> (u32, u32) {
        (1, 3)
    }
    /// What is known of `root` without a search (an opening book), before the solver is even
    /// built: a proof, every move that keeps its result if known, and a review's verdict.
    fn known(_root: &Self::G) -> Option<Known> {
        None
    }
    /// `go`'s proof: the value and the principal variation within `budget` (`fresh`: from an
    /// empty table). `None`: the budget ran out.
    fn prove(&mut self, root: &Self::G, budget: &Budget, fresh: bool) -> Option<Proof>;
    /// After `prove` gave `proof` for `root`: every move that keeps its result (a win, a draw
    /// or a loss; not necessarily its margin or distance), in the game's notation, proven
    /// within `budget`. `None`: out of budget, or the solver cannot tell (only `proof.best` is
    /// known to keep it).
    fn keeping_moves(
        &mut self,
        _root: &Self::G,
        _proof: &Proof,
        _budget: &Budget,
    ) -> Option<Vec<String>> {
        None
    }
    /// A review's proof: the value and an optimal move within `budget`, a function of `root`
    /// alone (whatever was solved before). `None` when out of budget or not worth trying.
    fn verdict(&mut self, root: &Self::G, budget: &Budget) -> Option<Verdict>;
    /// The protocol's `solve`: solves `root` to the end (only `budget`'s stop ends it) with
    /// `hash_mib` MiB, printing its progress through `line` (`info string …`).
    /// `Ok(None)`: stopped.
    fn solve_reporting(
        root: &Self::G,
        hash_mib: usize,
        budget: Budget,
        line: &(dyn Fn(&str) + Sync),
    ) -> Result<Option<Solved>, super::SolveError>;
}
