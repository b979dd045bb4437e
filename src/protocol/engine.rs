//! One game's engine behind a trait object: the current position, the searcher and the search
//! thread. Generic over `Game`, so the search is monomorphised per game; the protocol loop only
//! sees `dyn Engine`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::command::{GoParams, StartSpec, Token};
use super::output::Out;
use crate::core::game::{Game, Side, WeightOverrides};
use crate::core::perft::perft_until;
use crate::core::score::plies_to_end;
use crate::core::search::reference::terminal_value;
use crate::core::search::{Iteration, Limits, SearchOptions, Searcher};
use crate::core::spec::{self, PositionError};
use crate::solver::Budget;
use crate::solver::exact::{self, Exact, Proof};

/// Work for a background thread of the protocol loop (perft, solve): it runs until done or until
/// the flag is raised, printing its own lines.
pub type Job = Box<dyn FnOnce(Arc<AtomicBool>, &Out) + Send>;

/// What the protocol loop needs from a game's engine.
pub trait Engine: Send {
    /// `UCI_Variant` name of the game.
    fn game_name(&self) -> &'static str;
    /// Heuristic names of the game (index 0 is the default).
    fn heuristics(&self) -> &'static [&'static str];
    /// Sets the position; on error the previous position is kept.
    fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> Result<(), String>;
    /// Starts a search in the background (first the exact solver when `solver` says so);
    /// replies go to `out`.
    fn go(
        &mut self,
        params: &GoParams,
        options: SearchOptions,
        solver: exact::Mode,
        out: Out,
    ) -> Result<(), String>;
    /// Asks a running search to stop (no effect when none runs).
    fn stop(&mut self);
    /// Waits for the running search (if any) to finish and reclaims the searcher.
    fn wait(&mut self);
    /// Is a search running?
    fn searching(&mut self) -> bool;
    /// Waits, when idle, for the search table being prepared in the background (`isready`'s
    /// promise: after it, a `go`/`stop` never waits for set-up).
    fn prepare(&mut self);
    /// Is a `go infinite` search running (it only ends on `stop`)?
    fn searching_infinite(&mut self) -> bool;
    /// Is a search without any depth, node or time limit running (`go infinite` or a bare
    /// `go`: it would not end by itself in any reasonable time)?
    fn searching_unbounded(&mut self) -> bool;
    /// Perft of the current position as a job for a background thread: it prints a divide
    /// line per root move as each is counted, then `nodes <total>`; stopped, it prints
    /// `info string perft stopped: …` instead of the total.
    fn perft_job(&self, depth: u32) -> Job;
    /// Legal moves in notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Human-readable board plus state string and side to move.
    fn display(&self) -> String;
    /// Evaluation terms of heuristic `h` (with `weights` for the default heuristic) for the
    /// side to move.
    fn eval(&self, h: usize, weights: &WeightOverrides) -> Vec<String>;
    /// Forgets what earlier searches learnt.
    fn new_game(&mut self) -> Result<(), String>;
    /// Resizes the transposition table.
    fn set_hash(&mut self, mib: usize) -> Result<(), String>;
    /// Sets the time, ms, kept off every clock budget for what the engine does not see
    /// (the `Move Overhead` option; default [`MOVE_OVERHEAD_MS`]).
    fn set_move_overhead(&mut self, ms: u64);
}

/// The `Engine` of game `G`.
pub struct GameEngine<G: Game> {
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

impl<G: Game> GameEngine<G> {
    /// An engine at the start position of the variant `option_values` (one per `G::OPTIONS`).
    pub fn new(option_values: &[i64], hash_mib: usize) -> Result<Self, String> {
        let config = G::configure(option_values)?;
        Ok(GameEngine {
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
        })
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

    fn busy_error(&self) -> String {
        "a search is running; send 'stop' first".to_string()
    }
}

/// Formats a score from the side to move's point of view.
pub fn format_score(score: i32) -> String {
    match plies_to_end(score) {
        Some(p) => format!("mate {p}"),
        None => format!("cp {score}"),
    }
}

/// Formats a line of moves, playing them from `state`.
pub fn format_line<G: Game>(state: &G, line: &[G::Move]) -> String {
    let mut s = *state;
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        out.push(s.format_move(m));
        s = s.apply(m);
    }
    out.join(" ")
}

/// The `info` line of line `index` (0-based) of an iteration; `multipv`: the `MultiPV` option
/// is above 1, so the line carries its number (UCI's `multipv <i>`, 1-based).
fn info_line<G: Game>(root: &G, it: &Iteration<G::Move>, index: usize, multipv: bool) -> String {
    let ms = it.elapsed.as_millis();
    let nps = (it.nodes as u128 * 1000) / ms.max(1);
    let (score, pv) = match it.lines.get(index) {
        Some(l) => (l.score, &l.pv),
        None => (it.score, &it.pv),
    };
    let mut line = format!("info depth {}", it.depth);
    if multipv {
        line.push_str(&format!(" multipv {}", index + 1));
    }
    line.push_str(&format!(
        " score {} nodes {} nps {} time {} hashfull {}",
        format_score(score),
        it.nodes,
        nps,
        ms,
        it.hashfull
    ));
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&format_line(root, pv));
    }
    line
}

/// The root moves of `go searchmoves`, checked against the position (`None`: no restriction).
fn search_moves<G: Game>(root: &G, tokens: &[Token]) -> Result<Option<Vec<G::Move>>, String> {
    if tokens.is_empty() {
        return Ok(None);
    }
    if root.outcome().is_some() {
        return Err("go searchmoves: the game is over, there is no move to search".to_string());
    }
    let mut moves = Vec::with_capacity(tokens.len());
    for t in tokens {
        let m = root.parse_move(&t.text).map_err(|e| {
            format!(
                "go searchmoves: move '{}' (column {}) is illegal: {e}",
                crate::core::spec::clip(&t.text),
                t.column
            )
        })?;
        if !moves.contains(&m) {
            moves.push(m);
        }
    }
    Ok(Some(moves))
}

/// The `info` line of a proven result: `depth` is the length of the pv, which runs to the end
/// of the game.
fn proof_line(p: &Proof, elapsed: Duration) -> String {
    let ms = elapsed.as_millis();
    let nps = (p.nodes as u128 * 1000) / ms.max(1);
    let score = match p.mate {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", p.cp),
    };
    format!(
        "info depth {} score {score} nodes {} nps {nps} time {ms} pv {} string {}",
        p.pv.len(),
        p.nodes,
        p.pv.join(" "),
        p.detail
    )
}

/// Time the engine loses per move outside its search (reading `go`, starting the search thread,
/// printing `bestmove`, the pipe to the referee and the scheduler), ms: kept off every budget.
/// The default of the `Move Overhead` option: a loaded machine or a slow link needs more.
pub const MOVE_OVERHEAD_MS: u64 = 10;

/// Largest `Move Overhead`, ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The hard limit in targets. First 4; lowered to 2 as a precaution after Parchís clocks at
/// 1+0.01 drained on a machine at load 20 (see README, "Clock play": the previous single-target
/// budget lost as many games on time there).
const HARD_TARGETS: u64 = 2;

/// Fewest and most moves a clock is shared between when `go` gives no `movestogo`.
const MOVES_LEFT_MIN: u64 = 5;
const MOVES_LEFT_MAX: u64 = 100;

/// The time budget of one move on a clock, ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockBudget {
    /// The time the move should take; the search ends between iterations around it.
    pub soft: u64,
    /// The time it may never exceed: the search aborts there.
    pub hard: u64,
}

/// The budget of a move with `time_left` on the clock, increment `inc`, `movestogo` moves to
/// the next time control (if the clock says so), the game's estimate `moves_left` of the
/// mover's remaining moves ([`Game::moves_left`]) and the move overhead `overhead`, all times
/// in ms.
///
/// A reserve never spent — the move overhead plus min(50 ms, a tenth of the clock) — covers
/// latency; of the rest, the target is an equal share over the moves to come plus 3/4 of the
/// increment, and the hard limit [`HARD_TARGETS`] targets, without `movestogo` at most 2/5 of the clock (plus
/// 3/4 of the increment), so one long search never ruins the next moves.
pub fn clock_budget(
    time_left: u64,
    inc: u64,
    movestogo: Option<u64>,
    moves_left: u32,
    overhead: u64,
) -> ClockBudget {
    let reserve = overhead.saturating_add((time_left / 10).min(50));
    let available = time_left.saturating_sub(reserve);
    let moves = match movestogo {
        Some(m) => m.clamp(1, 60),
        None => u64::from(moves_left).clamp(MOVES_LEFT_MIN, MOVES_LEFT_MAX),
    };
    let inc_share = inc.saturating_mul(3) / 4;
    let soft = (available / moves).saturating_add(inc_share);
    // Sudden death: no move may take more than 2/5 of the clock. With a control ahead the
    // clock is refilled after `movestogo` moves, so the last ones may use it all.
    let cap = match movestogo {
        None => (available / 5 * 2).saturating_add(inc_share),
        Some(_) => available,
    };
    let hard = soft.saturating_mul(HARD_TARGETS).min(cap).min(available);
    ClockBudget {
        soft: soft.min(hard).max(1),
        hard: hard.max(1),
    }
}

impl<G: Game> Engine for GameEngine<G> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn heuristics(&self) -> &'static [&'static str] {
        G::HEURISTICS
    }

    fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> Result<(), String> {
        self.position = spec::position::<G>(&self.config, start, moves).map_err(|e| match e {
            PositionError::Fen(_) => format!("position fen: {e}"),
            PositionError::Move { .. } => format!("position: {e}; position unchanged"),
            PositionError::UnknownStart { .. } => format!("position: {e}"),
        })?;
        Ok(())
    }

    fn go(
        &mut self,
        params: &GoParams,
        options: SearchOptions,
        solver: exact::Mode,
        out: Out,
    ) -> Result<(), String> {
        // The clock runs from the moment `go` arrives.
        let received = Instant::now();
        self.reap();
        if self.worker.is_some() {
            return Err(self.busy_error());
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
        let (clock, inc) = match root.side_to_move() {
            Side::First => (params.wtime, params.winc),
            Side::Second => (params.btime, params.binc),
        };
        let mut movetime = params.movetime;
        let mut soft = None;
        if let Some(c) = clock
            && !params.infinite
        {
            let b = clock_budget(
                c,
                inc.unwrap_or(0),
                params.movestogo,
                root.moves_left(),
                self.move_overhead,
            );
            movetime = Some(movetime.map_or(b.hard, |m| m.min(b.hard)));
            soft = Some(b.soft.min(b.hard));
        }
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
        let exact_mode = solver == exact::Mode::Exact;
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
                if use_solver {
                    // Budget: half of a node limit, a third of a time limit (of the clock's
                    // target), else a fixed node count; `stop` always (`Solver exact`: no
                    // budget but `stop`).
                    let budget = Budget {
                        nodes: match (limits.nodes, limits.movetime) {
                            _ if exact_mode => None,
                            (Some(n), _) => Some(n / 2),
                            (None, Some(_)) => None,
                            (None, None) => Some(exact::DEFAULT_NODES),
                        },
                        deadline: limits
                            .soft
                            .or(limits.movetime)
                            .filter(|_| !exact_mode)
                            .map(|t| start + t / 3),
                        stop: Some(Arc::clone(&stop)),
                    };
                    proof = exact.prove(&root, &budget, reproducible);
                    if proof.is_none()
                        && let Some(n) = limits.nodes
                    {
                        // The search gets what the solver left (node counts of a budgeted
                        // solve from a cleared table are deterministic).
                        limits.nodes = Some(n - n / 2);
                    }
                }
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
                        out.line(&proof_line(p, start.elapsed()));
                        Some(p.best.clone())
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
                                    out.line(&info_line(&root, it, i, multipv));
                                }
                            },
                        );
                        result.best_move.map(|m| root.format_move(m))
                    }
                };
                if infinite {
                    // `go infinite` never answers before `stop`.
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                match best {
                    Some(m) => out.line(&format!("bestmove {m}")),
                    None => out.line("bestmove (none)"),
                }
                (searcher, exact)
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.worker = Some(handle);
        Ok(())
    }

    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn wait(&mut self) {
        self.join();
    }

    fn prepare(&mut self) {
        self.reap();
        if self.worker.is_none()
            && let Some(s) = self.searcher.as_mut()
        {
            s.ready();
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
        Box::new(move |stop: Arc<AtomicBool>, out: &Out| {
            let start = Instant::now();
            if depth == 0 {
                out.line("nodes 1");
                return;
            }
            let mut moves = G::Moves::default();
            root.legal_moves(&mut moves);
            let moves = moves.as_ref();
            let mut total = 0;
            for (k, &m) in moves.iter().enumerate() {
                match perft_until(&root.apply(m), depth - 1, &stop) {
                    Some(n) => {
                        out.line(&format!("{}: {n}", root.format_move(m)));
                        total += n;
                    }
                    None => {
                        out.line(&format!(
                            "info string perft stopped: {k} of {} root moves counted ({total} leaves), no total; time {}",
                            moves.len(),
                            start.elapsed().as_millis()
                        ));
                        return;
                    }
                }
            }
            out.line(&format!("nodes {total}"));
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
                    format_score(v)
                ));
            }
        }
        lines
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.reap();
        if self.worker.is_some() {
            return Err(self.busy_error());
        }
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        // The solvers' tables are dropped (re-made at their next use).
        self.exact = Some(Exact::new(self.hash_mib));
        self.position = G::start(&self.config);
        Ok(())
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.reap();
        if self.worker.is_some() {
            return Err(self.busy_error());
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

impl<G: Game> Drop for GameEngine<G> {
    fn drop(&mut self) {
        self.stop();
        self.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_shares_the_clock_over_the_moves_left() {
        // 10 s + 0.1 s, 21 moves left (Connect Four's start): reserve 10 + 50 ms.
        let b = clock_budget(10_000, 100, None, 21, MOVE_OVERHEAD_MS);
        assert_eq!(b.soft, 9_940 / 21 + 75);
        assert_eq!(b.hard, b.soft * HARD_TARGETS);
        // More moves left, smaller share; the estimate is clamped to 5..=100.
        assert!(clock_budget(10_000, 100, None, 80, MOVE_OVERHEAD_MS).soft < b.soft);
        assert_eq!(
            clock_budget(10_000, 0, None, 1, MOVE_OVERHEAD_MS),
            clock_budget(10_000, 0, None, 5, MOVE_OVERHEAD_MS)
        );
        assert_eq!(
            clock_budget(10_000, 0, None, 1000, MOVE_OVERHEAD_MS),
            clock_budget(10_000, 0, None, 100, MOVE_OVERHEAD_MS)
        );
        // movestogo wins over the estimate (clamped to 1..=60, as before).
        assert_eq!(
            clock_budget(10_000, 0, Some(10), 50, MOVE_OVERHEAD_MS),
            clock_budget(10_000, 0, Some(10), 3, MOVE_OVERHEAD_MS)
        );
        let last = clock_budget(10_000, 0, Some(1), 50, MOVE_OVERHEAD_MS);
        assert_eq!((last.soft, last.hard), (9_940, 9_940));
    }

    #[test]
    fn clock_budget_never_reaches_the_flag() {
        for overhead in [0, MOVE_OVERHEAD_MS, 300, MAX_MOVE_OVERHEAD_MS] {
            for time_left in [0, 1, 5, 10, 11, 30, 60, 100, 1_000, 10_000, 1_000_000] {
                for inc in [0, 10, 100, 5_000] {
                    for moves_left in [1, 5, 21, 200] {
                        for mtg in [None, Some(1), Some(30)] {
                            let b = clock_budget(time_left, inc, mtg, moves_left, overhead);
                            assert!(1 <= b.soft && b.soft <= b.hard, "{b:?}");
                            // Never past the clock minus the reserve (1 ms, the least a search
                            // gets, only when there is nothing else).
                            let reserve = overhead + (time_left / 10).min(50);
                            assert!(
                                b.hard <= time_left.saturating_sub(reserve).max(1),
                                "{overhead} {time_left} {inc} {moves_left} {mtg:?}: {b:?}"
                            );
                            // In sudden death one move never takes more than 2/5 of the clock
                            // plus most of the increment.
                            if mtg.is_none() {
                                assert!(b.hard <= (time_left * 2 / 5 + inc * 3 / 4).max(1));
                            }
                        }
                    }
                }
            }
        }
        // Huge values do not overflow.
        let b = clock_budget(u64::MAX, u64::MAX, None, u32::MAX, u64::MAX);
        assert!(b.soft <= b.hard);
    }

    #[test]
    fn move_overhead_comes_off_the_budget() {
        // 1 s, no increment, 20 moves left: the reserve is the overhead + 50 ms.
        let default = clock_budget(1_000, 0, None, 20, MOVE_OVERHEAD_MS);
        assert_eq!(default.soft, (1_000 - 10 - 50) / 20);
        let slow_link = clock_budget(1_000, 0, None, 20, 300);
        assert_eq!(slow_link.soft, (1_000 - 300 - 50) / 20);
        assert_eq!(slow_link.hard, slow_link.soft * HARD_TARGETS);
        // An overhead above the clock leaves the 1 ms minimum.
        let b = clock_budget(1_000, 0, None, 20, 2_000);
        assert_eq!((b.soft, b.hard), (1, 1));
    }
}
