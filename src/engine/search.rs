//! One game's engine: its position, searcher, exact solvers and search thread. Generic over
//! `Game`, so the search is monomorphised per game; [`super::Engine`] only sees the object-safe
//! [`GameEngine`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::error::{Error, JobError};
use super::time::{self, MOVE_OVERHEAD_MS};
use super::{GoParams, Info, Job, Listener, Score};
use crate::core::game::{Game, Side, WeightOverrides};
use crate::core::perft::perft_until;
use crate::core::score::plies_to_end;
use crate::core::search::reference::terminal_value;
use crate::core::search::{Iteration, Limits, SearchOptions, Searcher, WinProbe};
use crate::core::spec::{self, StartSpec, Token, clip};
use crate::solver::Budget;
use crate::solver::exact::{self, Exact, Mode, Proof};

/// What the engine needs from a game's engine.
pub trait GameEngine: Send {
    /// Sets the position; on error the previous position is kept.
    fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> Result<(), Error>;
    /// Starts a search in the background (first the exact solver when `solver` says so);
    /// `listener` hears it.
    fn go(
        &mut self,
        params: &GoParams,
        options: SearchOptions,
        solver: Mode,
        listener: Arc<dyn Listener>,
    ) -> Result<(), Error>;
    /// Asks a running search to stop (no effect when none runs).
    fn stop(&mut self);
    /// Waits for the running search (if any) to finish and reclaims the searcher.
    fn wait(&mut self);
    /// Is a search running?
    fn searching(&mut self) -> bool;
    /// Waits, when idle, for the search table being prepared in the background, and builds
    /// what the evaluation with `weights` builds on first use (`isready`'s promise: after it,
    /// a `go`/`stop` never waits for set-up).
    fn prepare(&mut self, weights: &WeightOverrides);
    /// Is a `go infinite` search running (it only ends on `stop`)?
    fn searching_infinite(&mut self) -> bool;
    /// Is a search without any depth, node or time limit running (`go infinite` or a bare
    /// `go`: it would not end by itself in any reasonable time)?
    fn searching_unbounded(&mut self) -> bool;
    /// Perft of the current position as a job for a background thread: a divide line per root
    /// move as each is counted, then `nodes <total>`; stopped, an error saying how far it got.
    fn perft_job(&self, depth: u32) -> Job;
    /// Legal moves in notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Human-readable board plus state string and side to move.
    fn display(&self) -> String;
    /// The position as the game's simulator writes its position files, if it has them.
    fn position_file(&self) -> Option<String>;
    /// Evaluation terms of heuristic `h` (with `weights` for the default heuristic) for the
    /// side to move, then every move's depth-1 score.
    fn eval(&self, h: usize, weights: &WeightOverrides) -> Vec<String>;
    /// Forgets what earlier searches learnt.
    fn new_game(&mut self) -> Result<(), Error>;
    /// Resizes the transposition table.
    fn set_hash(&mut self, mib: usize) -> Result<(), Error>;
    /// Sets the time, ms, kept off every clock budget for what the engine does not see.
    fn set_move_overhead(&mut self, ms: u64);
}

/// The engine of game `G`.
pub struct EngineOf<G: Game> {
    config: G::Config,
    position: G,
    searcher: Option<Searcher<G>>,
    /// The exact solvers (`None` while a search thread has them).
    exact: Option<Exact>,
    hash_mib: usize,
    /// `Move Overhead`, ms.
    move_overhead: u64,
    worker: Option<JoinHandle<(Searcher<G>, Exact)>>,
    stop: Arc<AtomicBool>,
    infinite: bool,
    /// The running search has no depth, node or time limit.
    unbounded: bool,
}

impl<G: Game> EngineOf<G> {
    /// An engine at the start position of the variant `config`.
    pub fn new(config: G::Config, hash_mib: usize) -> Self {
        EngineOf {
            config,
            position: G::start(&config),
            searcher: Some(Searcher::new(hash_mib)),
            exact: Some(Exact::new(hash_mib)),
            hash_mib,
            move_overhead: MOVE_OVERHEAD_MS,
            worker: None,
            stop: Arc::new(AtomicBool::new(false)),
            infinite: false,
            unbounded: false,
        }
    }

    /// Reclaims the searcher of a finished search thread. A stopped search is as good as
    /// finished (it prints its bestmove and ends at once), so it is waited for: a command sent
    /// right after the `bestmove` of a stopped search must not find the engine busy.
    fn reap(&mut self) {
        let stopped = self.stop.load(Ordering::Relaxed);
        if self
            .worker
            .as_ref()
            .is_some_and(|w| stopped || w.is_finished())
        {
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(w) = self.worker.take() {
            match w.join() {
                Ok((s, e)) => {
                    self.searcher = Some(s);
                    self.exact = Some(e);
                }
                // A panicking search loses its tables; make fresh ones rather than die.
                Err(_) => {
                    self.searcher = Some(Searcher::new(self.hash_mib));
                    self.exact = Some(Exact::new(self.hash_mib));
                }
            }
        }
    }
}

/// The root moves of `go searchmoves`, checked against the position (`None`: no restriction).
fn search_moves<G: Game>(root: &G, tokens: &[Token]) -> Result<Option<Vec<G::Move>>, Error> {
    if tokens.is_empty() {
        return Ok(None);
    }
    if root.outcome().is_some() {
        return Err(Error::SearchMoves(
            "the game is over, there is no move to search".to_string(),
        ));
    }
    let mut moves = Vec::with_capacity(tokens.len());
    for t in tokens {
        let m = root.parse_move(&t.text).map_err(|e| {
            Error::SearchMoves(format!(
                "move '{}' (character {}) is illegal: {e}",
                clip(&t.text),
                t.column
            ))
        })?;
        if !moves.contains(&m) {
            moves.push(m);
        }
    }
    Ok(Some(moves))
}

impl Score {
    /// The score of a search value (a win or loss in `n` plies is `Mate(±n)`).
    pub fn of(v: i32) -> Score {
        match plies_to_end(v) {
            Some(p) => Score::Mate(p),
            None => Score::Cp(v),
        }
    }
}

impl std::fmt::Display for Score {
    /// `cp <v>` or `mate <n>`, as the protocol writes scores.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// A line of moves in notation, played from `state`.
pub fn notation<G: Game>(state: &G, line: &[G::Move]) -> Vec<String> {
    let mut s = *state;
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        out.push(s.format_move(m));
        s = s.apply(m);
    }
    out
}

/// The event of line `index` (0-based) of an iteration; `multipv`: more than one line is
/// reported, so the line carries its number.
/// The `info string` that says what the win probe after a `go depth` search did (its nodes
/// are in no `info depth` line unless it found a win).
fn probe_text(p: &WinProbe) -> String {
    match (p.won, p.depth) {
        (true, d) => format!("win probe: a forced win at depth {d}, {} nodes", p.nodes),
        (false, 0) => format!("win probe: no answer within its budget, {} nodes", p.nodes),
        (false, d) => format!(
            "win probe: no forced win within depth {d}, {} nodes",
            p.nodes
        ),
    }
}

fn iteration_info<G: Game>(root: &G, it: &Iteration<G::Move>, index: usize, multipv: bool) -> Info {
    let ms = it.elapsed.as_millis();
    let (score, pv) = match it.lines.get(index) {
        Some(l) => (l.score, &l.pv),
        None => (it.score, &it.pv),
    };
    Info::Iteration {
        depth: it.depth,
        multipv: multipv.then_some(index + 1),
        score: Score::of(score),
        nodes: it.nodes,
        nps: (it.nodes as u128 * 1000) / ms.max(1),
        time_ms: ms,
        hashfull: it.hashfull,
        pv: notation(root, pv),
    }
}

/// The event of a proven result.
fn proof_info(p: &Proof, elapsed: Duration) -> Info {
    let ms = elapsed.as_millis();
    Info::Proof {
        score: match p.mate {
            Some(n) => Score::Mate(n),
            None => Score::Cp(p.cp),
        },
        nodes: p.nodes,
        nps: (p.nodes as u128 * 1000) / ms.max(1),
        time_ms: ms,
        pv: p.pv.clone(),
        detail: p.detail.clone(),
    }
}

/// What the exact solver may spend before the search takes over. `Solver auto`/`always`:
/// half of a node limit, `share` of a time limit (of the clock's target; a third unless the
/// game's solver asks for more, see `Exact::time_share`), else a fixed node count.
/// `Solver exact`: without limits the solve runs to the end (only `stop` ends it); with a
/// node or time limit it gets half the nodes or two thirds of the time, so that `go` still
/// answers in time (with the search's move when the solver did not finish).
fn solver_budget(
    limits: &Limits,
    exact_mode: bool,
    (num, den): (u32, u32),
    start: Instant,
    stop: &Arc<AtomicBool>,
) -> Budget {
    let nodes = match (limits.nodes, limits.movetime) {
        (Some(n), _) => Some(n / 2),
        _ if exact_mode => None,
        (None, Some(_)) => None,
        (None, None) => Some(exact::DEFAULT_NODES),
    };
    let time = limits.soft.or(limits.movetime);
    Budget {
        nodes,
        deadline: time.map(|t| start + if exact_mode { t * 2 / 3 } else { t * num / den }),
        stop: Some(Arc::clone(stop)),
    }
}

impl<G: Game> GameEngine for EngineOf<G> {
    fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> Result<(), Error> {
        self.position = spec::position::<G>(&self.config, start, moves)?;
        Ok(())
    }

    fn go(
        &mut self,
        params: &GoParams,
        options: SearchOptions,
        solver: Mode,
        listener: Arc<dyn Listener>,
    ) -> Result<(), Error> {
        // The clock runs from the moment `go` arrives.
        let received = Instant::now();
        self.reap();
        if self.worker.is_some() {
            return Err(Error::Busy);
        }
        // Checked before anything changes: a bad move is one error line and no search.
        let root_moves = search_moves(&self.position, &params.searchmoves)?;
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.hash_mib));
        let mut exact = self
            .exact
            .take()
            .unwrap_or_else(|| Exact::new(self.hash_mib));
        let root = self.position;
        let (movetime, soft) = time::move_limits(
            params,
            root.side_to_move(),
            root.moves_left(),
            self.move_overhead,
        );
        let mut depth = params.depth.map(|d| d.min(u64::from(u32::MAX)) as u32);
        let forced = soft.is_some() && root_moves.is_none() && self.legal_moves().len() == 1;
        if forced {
            // A forced move on a clock: nothing to think about, the clock is worth more. One
            // ply still gives the usual info line.
            depth = Some(1);
        }
        let mut limits = Limits {
            depth,
            nodes: params.nodes,
            movetime: if params.infinite {
                None
            } else {
                movetime.map(Duration::from_millis)
            },
            soft: soft.map(Duration::from_millis),
            infinite: params.infinite,
        };
        // The exact solver goes first when the mode asks for it (see protocol.md).
        let exact_mode = solver == Mode::Exact;
        // Under `Solver exact` the solver keeps its tables between moves whatever the limits:
        // its moves and values are exact either way, and a game's solves share most positions.
        let reproducible = (params.depth.is_some() || params.nodes.is_some()) && !exact_mode;
        // The solver answers for the whole root with one line: not for MultiPV or searchmoves.
        let use_solver = solver.applies(reproducible)
            && options.multipv <= 1
            && root_moves.is_none()
            && root.outcome().is_none()
            && !forced
            && Exact::worth_trying(&root, solver);
        // Only where the solver runs: Kalah's answer looks for its database on disk.
        let share = if use_solver {
            Exact::time_share(&root)
        } else {
            (1, 3)
        };
        if use_solver && share != (1, 3) && !exact_mode && (soft.is_some() || movetime.is_some()) {
            log::debug!(
                "exact solver: {}/{} of the move's time before the search",
                share.0,
                share.1
            );
        }
        // A fresh flag per search: a late `stop` can never reach the next search.
        self.stop = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&self.stop);
        self.infinite = params.infinite;
        self.unbounded =
            limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none();
        let infinite = params.infinite;
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let start = received;
                let mut proof = None;
                let budget = solver_budget(&limits, exact_mode, share, start, &stop);
                if use_solver {
                    proof = exact.prove(&root, &budget, reproducible);
                    if proof.is_none()
                        && let Some(n) = limits.nodes
                    {
                        // The search gets what the solver left (node counts of a budgeted
                        // solve from a cleared table are deterministic).
                        limits.nodes = Some(n - n / 2);
                    }
                    if proof.is_none() && exact_mode {
                        // `Solver exact` promises perfect play; say when the move is not.
                        listener.info(&Info::Text(
                            "exact solver: no proof within the limits; the move is the search's"
                                .to_string(),
                        ));
                    }
                }
                // On a clock, a proven result need not be played with the solver's move:
                // every move that keeps it is as good against perfect play, and the search
                // picks among them the one its evaluation likes best against a fallible one.
                let time = limits.soft.or(limits.movetime);
                let timed = time.is_some();
                let keeping = match &proof {
                    Some(p) if timed && !exact_mode => {
                        exact
                            .keeping_moves(&root, p, &budget)
                            .map(|k| {
                                k.iter()
                                    .filter_map(|t| root.parse_move(t).ok())
                                    .collect::<Vec<_>>()
                            })
                            .filter(|k| k.len() > 1)
                    }
                    _ => None,
                };
                // Time limits count from `go`: the search gets what the solver (and the
                // thread's start) left.
                let left = |t: Duration| {
                    t.saturating_sub(start.elapsed())
                        .max(Duration::from_millis(1))
                };
                limits.movetime = limits.movetime.map(left);
                limits.soft = limits.soft.map(left);
                let best = match &proof {
                    Some(p) => {
                        listener.info(&proof_info(p, start.elapsed()));
                        match keeping {
                            Some(moves) => {
                                // A short look (a tenth of the move, ended between
                                // iterations) is enough to choose among equals; its lines stay
                                // unsaid, since the proven value is the position's.
                                let tenth = time.map(|t| t / 10);
                                let limits = Limits {
                                    soft: limits.soft.zip(tenth).map(|(s, t)| s.min(t)).or(tenth),
                                    ..limits
                                };
                                let r = searcher.search_moves(
                                    &root,
                                    Some(&moves),
                                    options,
                                    limits,
                                    &stop,
                                    |_| {},
                                );
                                let pick = r.best_move.map(|m| root.format_move(m));
                                // A Connect Four proof carries its result in `mate`
                                // (`cp` 0), a Kalah one in `cp`.
                                let result = match p.mate.map_or(p.cp.signum(), i32::signum) {
                                    1 => "win",
                                    0 => "draw",
                                    _ => "loss",
                                };
                                listener.info(&Info::Text(format!(
                                    "exact solver: {} moves keep the {result}; the search picked {}",
                                    moves.len(),
                                    pick.as_deref().unwrap_or(&p.best)
                                )));
                                pick.or_else(|| Some(p.best.clone()))
                            }
                            None => Some(p.best.clone()),
                        }
                    }
                    None => {
                        let multipv = options.multipv > 1;
                        let result = searcher.search_moves(
                            &root,
                            root_moves.as_deref(),
                            options,
                            limits,
                            &stop,
                            |it| {
                                for i in 0..it.lines.len().max(1) {
                                    listener.info(&iteration_info(&root, it, i, multipv));
                                }
                            },
                        );
                        if let Some(p) = result.probe {
                            listener.info(&Info::Text(probe_text(&p)));
                        }
                        result.best_move.map(|m| root.format_move(m))
                    }
                };
                if infinite {
                    // `go infinite` never answers before `stop`.
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                listener.bestmove(best.as_deref());
                (searcher, exact)
            })
            .map_err(|e| Error::Thread(e.to_string()))?;
        self.worker = Some(handle);
        Ok(())
    }

    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn wait(&mut self) {
        self.join();
    }

    fn prepare(&mut self, weights: &WeightOverrides) {
        self.reap();
        if self.worker.is_none()
            && let Some(s) = self.searcher.as_mut()
        {
            s.ready();
            self.position.prepare_eval(&weights.resolve::<G>());
        }
    }

    fn searching(&mut self) -> bool {
        self.reap();
        self.worker.is_some()
    }

    fn searching_infinite(&mut self) -> bool {
        self.searching() && self.infinite
    }

    fn searching_unbounded(&mut self) -> bool {
        self.searching() && (self.infinite || self.unbounded)
    }

    fn perft_job(&self, depth: u32) -> Job {
        let root = self.position;
        Box::new(move |stop: Arc<AtomicBool>, out| {
            let start = Instant::now();
            if depth == 0 {
                out("nodes 1");
                return Ok(());
            }
            let mut moves = G::Moves::default();
            root.legal_moves(&mut moves);
            let moves = moves.as_ref();
            let mut total = 0;
            for (k, &m) in moves.iter().enumerate() {
                match perft_until(&root.apply(m), depth - 1, &stop) {
                    Some(n) => {
                        out(&format!("{}: {n}", root.format_move(m)));
                        total += n;
                    }
                    None => {
                        return Err(JobError::Stopped(format!(
                            "perft stopped: {k} of {} root moves counted ({total} leaves), no total; time {}",
                            moves.len(),
                            start.elapsed().as_millis()
                        )));
                    }
                }
            }
            out(&format!("nodes {total}"));
            Ok(())
        })
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut ms = G::Moves::default();
        self.position.legal_moves(&mut ms);
        ms.as_ref()
            .iter()
            .map(|&m| self.position.format_move(m))
            .collect()
    }

    fn position_file(&self) -> Option<String> {
        self.position.format_position_file()
    }

    fn display(&self) -> String {
        let side = match self.position.side_to_move() {
            Side::First => "first",
            Side::Second => "second",
        };
        let status = match self.position.outcome() {
            None => format!("side to move: {side}"),
            Some(crate::core::game::Outcome::Draw) => "game over: draw".to_string(),
            Some(crate::core::game::Outcome::Win(s)) => format!(
                "game over: {} player wins",
                if s == Side::First { "first" } else { "second" }
            ),
        };
        let board = self.position.display();
        // Some boards already show their state string; print it once.
        let board: Vec<&str> = board.lines().filter(|l| !l.starts_with("fen: ")).collect();
        format!(
            "{}\nfen: {}\n{}",
            board.join("\n").trim_end(),
            self.position.format_fen(),
            status
        )
    }

    fn eval(&self, h: usize, weights: &WeightOverrides) -> Vec<String> {
        let p = self.position.side_to_move();
        let w = weights.resolve::<G>();
        let mut lines: Vec<String> = Vec::new();
        if h == 0 && !G::WEIGHTS.is_empty() {
            // Only the default heuristic has weights; the others are fixed formulas.
            let list: Vec<String> = G::WEIGHTS
                .iter()
                .zip(weights.values::<G>())
                .map(|(spec, v)| format!("{}={v}", spec.name))
                .collect();
            lines.push(format!("weights: {}", list.join(" ")));
        }
        lines.extend(
            self.position
                .eval_terms_with(h, &w, p)
                .into_iter()
                .map(|t| format!("{}: {}", t.name, t.value)),
        );
        if self.position.outcome().is_some() {
            lines.push("game over: no static evaluation".to_string());
        } else {
            lines.push(format!(
                "total ({} heuristic, side to move's view): {}",
                G::HEURISTICS.get(h).copied().unwrap_or("?"),
                self.position.evaluate_with(h, &w, p)
            ));
            // A depth-1 search, move by move: each child valued for the side choosing here
            // (`p`), whoever moves next there (extra turns, second movements, bonus moves).
            let mut ms = G::Moves::default();
            self.position.legal_moves(&mut ms);
            for &m in ms.as_ref() {
                let child = self.position.apply(m);
                let v = match child.outcome() {
                    Some(o) => terminal_value(o, p, 1),
                    None => child.evaluate_with(h, &w, p),
                };
                lines.push(format!(
                    "move {} score {}",
                    self.position.format_move(m),
                    Score::of(v)
                ));
            }
        }
        lines
    }

    fn new_game(&mut self) -> Result<(), Error> {
        self.reap();
        if self.worker.is_some() {
            return Err(Error::Busy);
        }
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        // The solvers' tables are dropped (re-made at their next use).
        self.exact = Some(Exact::new(self.hash_mib));
        self.position = G::start(&self.config);
        Ok(())
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), Error> {
        self.reap();
        if self.worker.is_some() {
            return Err(Error::Busy);
        }
        self.hash_mib = mib;
        self.searcher = None;
        self.searcher = Some(Searcher::new(mib));
        self.exact = Some(Exact::new(mib));
        Ok(())
    }

    fn set_move_overhead(&mut self, ms: u64) {
        self.move_overhead = ms;
    }
}

impl<G: Game> Drop for EngineOf<G> {
    fn drop(&mut self) {
        self.stop();
        self.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The solver's deadline is its share of a move's time: a third by default, what the
    /// game's solver asks for (three quarters for Kalah with a cached database), two thirds
    /// under `Solver exact` whatever the share; a node limit is halved either way.
    #[test]
    fn the_solver_gets_its_share_of_the_move() {
        let stop = Arc::new(AtomicBool::new(false));
        let start = Instant::now();
        let limits = Limits {
            movetime: Some(Duration::from_millis(2000)),
            ..Limits::default()
        };
        let deadline = |exact, share| {
            solver_budget(&limits, exact, share, start, &stop)
                .deadline
                .map(|d| d - start)
        };
        assert_eq!(
            deadline(false, (1, 3)),
            Some(Duration::from_nanos(666_666_666))
        );
        assert_eq!(deadline(false, (3, 4)), Some(Duration::from_millis(1500)));
        assert_eq!(
            deadline(true, (3, 4)),
            Some(Duration::from_nanos(1_333_333_333))
        );
        let nodes = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        let b = solver_budget(&nodes, false, (3, 4), start, &stop);
        assert_eq!((b.nodes, b.deadline), (Some(500), None));
    }
}
