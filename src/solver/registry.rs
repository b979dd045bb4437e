//! The exact solvers by game: a game's solver implements [`ExactSolver`] and is one line of
//! [`REGISTRY`]. From that line alone `go` tries it (`exact.rs`, the `Solver` option), the
//! protocol's `solve` runs it ([`super::solve_position`]), reviews and `tablero analyse` prove
//! positions with it (`review/analyst.rs`, through [`Solvers`]), and `tablero solve` solves a
//! position of its game (`front/solve.rs`; a game may add its own batch formats there).
//!
//! The layers keep the rules below the solvers (docs/architecture.md), so a game cannot name
//! its solver in `games/`: the registration lives here, one layer up, keyed by the game's
//! `Game::NAME`.

use std::any::Any;
use std::collections::BTreeMap;
use std::thread::JoinHandle;
use std::time::Duration;

use super::proven::Proof;
pub use super::proven::{ExactSolver, Known, Solved, Verdict};
use super::{Budget, SolveError, connect4, enraya, kalah};
use crate::core::game::Game;
use crate::core::spec::{self, StartSpec, Token};

/// One line of the registry: a game's name and its solver's functions, type-erased.
pub struct Registered {
    /// `Game::NAME` of the game solved.
    pub game: &'static str,
    worth_trying: fn(&dyn Any, bool) -> Option<bool>,
    time_share: fn(&dyn Any) -> Option<(u32, u32)>,
    slot: fn(usize) -> Box<dyn Slot>,
    solve: SolveFn,
}

type SolveFn = fn(
    &BTreeMap<String, i64>,
    Option<&(StartSpec, Vec<Token>)>,
    usize,
    Budget,
    &(dyn Fn(&str) + Sync),
) -> Result<Option<Solved>, SolveError>;

impl Registered {
    /// The line of solver `S`.
    pub const fn of<S: ExactSolver>() -> Registered {
        Registered {
            game: <S::G as Game>::NAME,
            worth_trying: worth_trying_of::<S>,
            time_share: time_share_of::<S>,
            slot: slot::<S>,
            solve: solve::<S>,
        }
    }
}

/// The exact solvers: one line per game that has one.
pub const REGISTRY: &[Registered] = &[
    Registered::of::<connect4::Solver>(),
    Registered::of::<kalah::Solver>(),
    Registered::of::<enraya::Solver>(),
];

/// The registry's line for the game called `name` (`Game::NAME`).
pub fn find(name: &str) -> Option<&'static Registered> {
    REGISTRY.iter().find(|r| r.game == name)
}

/// The names of the games with an exact solver.
pub fn games() -> Vec<&'static str> {
    REGISTRY.iter().map(|r| r.game).collect()
}

/// Is `root` worth trying inside `go` (see [`ExactSolver::worth_trying`] and
/// [`ExactSolver::worth_trying_in_play`])? False for a game without solver.
pub fn worth_trying<G: Game>(root: &G, any_size: bool) -> bool {
    find(G::NAME).is_some_and(|r| (r.worth_trying)(root as &dyn Any, any_size) == Some(true))
}

/// The part of a move's time `go` gives the solver on `root` (see
/// [`ExactSolver::time_share`]); a third for a game without solver.
pub fn time_share<G: Game>(root: &G) -> (u32, u32) {
    find(G::NAME)
        .and_then(|r| (r.time_share)(root as &dyn Any))
        .unwrap_or((1, 3))
}

fn time_share_of<S: ExactSolver>(root: &dyn Any) -> Option<(u32, u32)> {
    Some(S::time_share(root.downcast_ref::<S::G>()?))
}

fn worth_trying_of<S: ExactSolver>(root: &dyn Any, any_size: bool) -> Option<bool> {
    let root = root.downcast_ref::<S::G>()?;
    Some(S::worth_trying(root, any_size) || S::worth_trying_in_play(root))
}

fn solve<S: ExactSolver>(
    values: &BTreeMap<String, i64>,
    position: Option<&(StartSpec, Vec<Token>)>,
    hash_mib: usize,
    budget: Budget,
    line: &(dyn Fn(&str) + Sync),
) -> Result<Option<Solved>, SolveError> {
    let cfg = spec::configure::<S::G>(values)?;
    let root = match position {
        None => S::G::start(&cfg),
        Some((start, moves)) => spec::position(&cfg, start, moves)?,
    };
    S::solve_reporting(&root, hash_mib, budget, line)
}

/// The protocol's `solve` for the game called `name` (`Ok(None)`: stopped); `None` when it has
/// no solver.
pub fn solve_by_name(
    name: &str,
    values: &BTreeMap<String, i64>,
    position: Option<&(StartSpec, Vec<Token>)>,
    hash_mib: usize,
    budget: Budget,
    line: &(dyn Fn(&str) + Sync),
) -> Option<Result<Option<Solved>, SolveError>> {
    Some((find(name)?.solve)(
        values, position, hash_mib, budget, line,
    ))
}

/// A built solver behind its game's name: the positions come as `&dyn Any`.
trait Slot: Send {
    fn prove(&mut self, root: &dyn Any, budget: &Budget, fresh: bool) -> Option<Proof>;
    fn verdict(&mut self, root: &dyn Any, budget: &Budget, any_size: bool) -> Option<Verdict>;
    fn keeping_moves(
        &mut self,
        root: &dyn Any,
        proof: &Proof,
        budget: &Budget,
    ) -> Option<Vec<String>>;
}

fn slot<S: ExactSolver>(hash_mib: usize) -> Box<dyn Slot> {
    Box::new(Built::<S> {
        hash_mib,
        ready: None,
        pending: None,
    })
}

/// A solver for one key, built on a thread of its own: building zeroes `Hash` MiB of table
/// (hundreds of milliseconds on a loaded machine) and may load a database, and `stop` must not
/// wait for that.
struct Built<S: ExactSolver> {
    hash_mib: usize,
    ready: Option<(S::Key, S)>,
    pending: Option<(S::Key, JoinHandle<Option<S>>)>,
}

impl<S: ExactSolver> Built<S> {
    /// The solver for `key`, building it if needed; `None` when `budget` expires first (the
    /// build goes on and is picked up by the next call) or the build fails.
    fn get(&mut self, key: S::Key, budget: &Budget) -> Option<&mut S> {
        if self.ready.as_ref().is_some_and(|(k, _)| *k == key) {
            return self.ready.as_mut().map(|(_, s)| s);
        }
        // Another size's solver is dropped first: its memory is needed for the new one.
        self.ready = None;
        if self.pending.as_ref().is_none_or(|(k, _)| *k != key) {
            let mib = self.hash_mib;
            let handle = std::thread::Builder::new()
                .name("solver-alloc".into())
                .spawn(move || S::build(key, mib))
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

impl<S: ExactSolver> Slot for Built<S> {
    fn prove(&mut self, root: &dyn Any, budget: &Budget, fresh: bool) -> Option<Proof> {
        let root = root.downcast_ref::<S::G>()?;
        if let Some(k) = S::known(root) {
            return Some(k.proof);
        }
        self.get(S::key(root), budget)?.prove(root, budget, fresh)
    }

    fn verdict(&mut self, root: &dyn Any, budget: &Budget, any_size: bool) -> Option<Verdict> {
        let root = root.downcast_ref::<S::G>()?;
        if let Some(k) = S::known(root) {
            return Some(k.verdict);
        }
        if !S::worth_trying(root, any_size) {
            return None;
        }
        self.get(S::key(root), budget)?.verdict(root, budget)
    }

    fn keeping_moves(
        &mut self,
        root: &dyn Any,
        proof: &Proof,
        budget: &Budget,
    ) -> Option<Vec<String>> {
        let root = root.downcast_ref::<S::G>()?;
        if let Some(k) = S::known(root)
            && k.proof == *proof
        {
            return k.keeping;
        }
        self.get(S::key(root), budget)?
            .keeping_moves(root, proof, budget)
    }
}

/// The solvers of one user (an engine's `go`, a review), created at first use and kept: one
/// per game, each with `hash_mib` MiB.
pub struct Solvers {
    hash_mib: usize,
    slots: Vec<(&'static str, Box<dyn Slot>)>,
}

impl Solvers {
    pub fn new(hash_mib: usize) -> Solvers {
        Solvers {
            hash_mib,
            slots: Vec::new(),
        }
    }

    fn slot<G: Game>(&mut self) -> Option<&mut Box<dyn Slot>> {
        let i = match self.slots.iter().position(|(n, _)| *n == G::NAME) {
            Some(i) => i,
            None => {
                let r = find(G::NAME)?;
                self.slots.push((r.game, (r.slot)(self.hash_mib)));
                self.slots.len() - 1
            }
        };
        self.slots.get_mut(i).map(|(_, s)| s)
    }

    /// `go`'s proof of `root` (see [`ExactSolver::prove`]); `None` for a game without solver.
    pub fn prove<G: Game>(&mut self, root: &G, budget: &Budget, fresh: bool) -> Option<Proof> {
        self.slot::<G>()?.prove(root as &dyn Any, budget, fresh)
    }

    /// The moves of `root` that keep the result `proof` proved (see
    /// [`ExactSolver::keeping_moves`]); `None` for a game without solver or out of budget.
    pub fn keeping_moves<G: Game>(
        &mut self,
        root: &G,
        proof: &Proof,
        budget: &Budget,
    ) -> Option<Vec<String>> {
        self.slot::<G>()?
            .keeping_moves(root as &dyn Any, proof, budget)
    }

    /// A review's proof of `root` (see [`ExactSolver::verdict`]); `None` for a game without
    /// solver, a position too large (beyond `go`'s caps unless `any_size`), or out of budget.
    pub fn verdict<G: Game>(
        &mut self,
        root: &G,
        budget: &Budget,
        any_size: bool,
    ) -> Option<Verdict> {
        self.slot::<G>()?
            .verdict(root as &dyn Any, budget, any_size)
    }
}
