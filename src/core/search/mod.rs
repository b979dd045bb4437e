//! Generic adversarial search over any `Game`: iterative deepening over alpha-beta with a
//! transposition table and move ordering, or plain minimax; limits, stop flag and per-iteration
//! reports. The recursive functions do no I/O: they count nodes and poll one `AtomicBool`;
//! results leave at iteration boundaries through a callback.
//!
//! Values are minimax values from the root player's point of view (`perspective` = side to move
//! at the root). A node is MAX when the root player is to move there, MIN otherwise — decided
//! by the side to move, never by depth parity, because one side often moves several plies in a
//! row (BOOM's two movements, Kalah's extra turns, Parchís' 6/+10/+20).
//!
//! Exactness: the transposition table only cuts off with entries searched to exactly the
//! remaining depth, so alpha-beta returns exactly the minimax value of the same depth; each
//! search starts with an empty table in effect (see `tt`), so the same position, options and
//! depth always give the same bestmove and node count.
//!
//! MultiPV (`SearchOptions::multipv` = K lines): one pass over the root moves per iteration,
//! keeping the K best moves with exact values. A move is searched with the window
//! (K-th best exact value so far, +∞) — a null window first once K moves have values, as the
//! single-line search does with its best value — so it gets an exact value exactly when it
//! enters the top K; moves that fail low are proven no better than the K-th line. While fewer
//! than K moves have values, moves get the full window. Every reported score is therefore the
//! exact minimax value of its move at the iteration's depth, independent of the other root
//! moves (the table only cuts with same-depth entries whose bounds are true bounds), so it
//! equals a search restricted to that move alone (`search_moves`). Cost: with K lines the
//! first K moves are searched with open windows (≈ K single-line searches of a best move);
//! with K = all moves, every root move is.

pub mod reference;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;

use crate::core::game::{Game, MoveList, Side, WeightOverrides};
use crate::core::score::{INFINITY, WIN_BASE, from_tt, is_decisive, plies_to_end, to_tt};
use reference::terminal_value;
use tt::{Bound, TranspositionTable, TtEntry};

/// Deepest iteration ever searched (`go infinite`, long time limits).
pub const MAX_DEPTH: u32 = 64;

/// Which tree search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Plain minimax, no pruning, no table: the course's reference.
    Minimax,
    /// Alpha-beta with transposition table and move ordering.
    #[default]
    AlphaBeta,
}

/// Limits of one search. Unset fields do not limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Wall time for this move: the search aborts when it runs out (mid-iteration).
    pub movetime: Option<Duration>,
    /// Time management (a clock): the time this move should take. Set, the search also ends
    /// between iterations — when this target (stretched while the best move keeps changing,
    /// shrunk while it holds) is spent, or when the next iteration is not expected to finish
    /// within `movetime` — and a partially searched iteration's move is used where it is
    /// proven better than the last completed one's (see [`Searcher::search_moves`]). Unset
    /// (`go depth/nodes/movetime`), only the hard limits end the search.
    pub soft: Option<Duration>,
    /// Search until stopped (the result is still returned when the search ends by itself).
    pub infinite: bool,
}

/// One reported root move of an iteration: its exact value and its principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine<M> {
    /// Value from the root player's point of view.
    pub score: i32,
    /// Principal variation, starting with the root move.
    pub pv: Vec<M>,
}

/// One finished iteration of iterative deepening.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    pub depth: u32,
    /// Value from the root player's point of view (the first line's).
    pub score: i32,
    /// Nodes searched so far in this search (all iterations).
    pub nodes: u64,
    pub elapsed: Duration,
    /// Principal variation, starting with the best move (the first line's).
    pub pv: Vec<M>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// The best root moves, best first (ties in search order), as many as `multipv` asked
    /// for and the root has; `lines[0]` is `score`/`pv`.
    pub lines: Vec<PvLine<M>>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move (finished game).
    pub best_move: Option<M>,
    /// Value of the last completed iteration (root player's view).
    pub score: i32,
    /// Depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
    /// True when the value is exact for the whole game (no horizon reached).
    pub proven: bool,
    /// The win probe after the search ([`Game::win_probe_plies`]), when one ran.
    pub probe: Option<WinProbe>,
}

/// What a win probe did: how deep it proved its answer and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinProbe {
    /// The probe's iteration that proved a win, or the deepest one that proved there is none
    /// (0 when its node budget ran out before the first one ended).
    pub depth: u32,
    /// Did it find a win (and so choose `best_move`)?
    pub won: bool,
    /// Nodes it searched (included in the result's `nodes`).
    pub nodes: u64,
}

/// Search options that change the tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    pub algorithm: Algorithm,
    /// Index into `Game::HEURISTICS`.
    pub heuristic: usize,
    /// Weights of the `default` heuristic set away from their defaults.
    pub weights: WeightOverrides,
    /// How many best root moves get exact scores and lines (MultiPV); 0 and 1 both mean one.
    pub multipv: u32,
}

/// Keeps the transposition table between searches and runs them.
pub struct Searcher<G: Game> {
    tt: TranspositionTable,
    _game: std::marker::PhantomData<G>,
}

/// Most root/inner moves any game produces; the ordering scratch array is this big (a game
/// with more asserts it cannot: 5-en-Raya's 19×19 board has 361).
pub const MAX_ORDERED: usize = 384;

struct Run<'a, G: Game> {
    tt: &'a mut TranspositionTable,
    stop: &'a AtomicBool,
    heuristic: usize,
    /// The weights of the `default` heuristic, resolved once per search.
    weights: G::Weights,
    perspective: Side,
    /// XOR-ed into hashes: stored scores are from the root player's point of view.
    key_salt: u64,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// The best line so far of an aborted single-line iteration (its root moves searched in
    /// full, the previous iteration's best first).
    partial: Option<(usize, PvLine<G::Move>)>,
    /// Set when a depth-0 node was evaluated (or a table hit may hide one): the value is not
    /// proven for the whole game.
    horizon: bool,
    pv: Vec<Vec<G::Move>>,
    root_pv: Vec<G::Move>,
    /// Two moves per ply that caused the latest cutoffs there, tried right after the table move.
    killers: Vec<[Option<G::Move>; 2]>,
    /// The deepest ply a selective extension may reach in this iteration.
    ply_limit: usize,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Self {
        Searcher {
            tt: TranspositionTable::new(hash_mib),
            _game: std::marker::PhantomData,
        }
    }

    /// Waits for the table's background allocation (a no-op once done).
    pub fn ready(&mut self) {
        self.tt.ready();
    }

    /// Reallocates the table.
    pub fn resize(&mut self, hash_mib: usize) {
        self.tt = TranspositionTable::new(hash_mib);
    }

    /// Forgets everything learnt (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches `root` within `limits`, calling `on_iteration` after each completed depth.
    /// `stop` aborts the search (the last completed iteration's move is returned).
    pub fn search(
        &mut self,
        root: &G,
        options: SearchOptions,
        limits: Limits,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        self.search_moves(root, None, options, limits, stop, on_iteration)
    }

    /// [`Searcher::search`] with the root restricted to `root_moves` (`go searchmoves`): only
    /// these moves are searched at the root (each must be legal; generation order is kept).
    /// `Some(&[])` is treated like `None`.
    pub fn search_moves(
        &mut self,
        root: &G,
        root_moves: Option<&[G::Move]>,
        options: SearchOptions,
        limits: Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        // Before the clock starts: this may wait for the table's background allocation.
        self.tt.new_search();
        let start = Instant::now();
        let perspective = root.side_to_move();
        let mut run = Run::<G> {
            tt: &mut self.tt,
            stop,
            heuristic: options.heuristic,
            weights: options.weights.resolve::<G>(),
            perspective,
            key_salt: if perspective == Side::First {
                0
            } else {
                0x9e37_79b9_7f4a_7c15
            },
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.movetime.map(|t| start + t),
            aborted: false,
            partial: None,
            horizon: false,
            pv: vec![Vec::with_capacity(MAX_DEPTH as usize + 1); MAX_DEPTH as usize + 2],
            root_pv: Vec::new(),
            killers: vec![[None; 2]; MAX_DEPTH as usize + 2],
            ply_limit: 0,
        };
        let mut moves = G::Moves::default();
        root.legal_moves(&mut moves);
        // A restricted root is not the position's own value: it is not stored in the table.
        let restricted = root_moves.is_some_and(|r| !r.is_empty());
        if let Some(keep) = root_moves.filter(|r| !r.is_empty()) {
            let all = moves.clone();
            moves.clear_moves();
            for &m in all.as_ref() {
                if keep.contains(&m) {
                    moves.push_move(m);
                }
            }
        }
        let multipv = (options.multipv.max(1) as usize).min(moves.as_ref().len().max(1));
        let mut result = SearchResult {
            best_move: moves.as_ref().first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            proven: false,
            probe: None,
        };
        if moves.as_ref().is_empty() {
            result.proven = root.outcome().is_some();
            result.nodes = 1;
            if let Some(o) = root.outcome() {
                result.score = terminal_value(o, perspective, 0);
            }
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // Root move order carried between iterations: best move of the last one first.
        let mut order: Vec<usize> = (0..moves.as_ref().len()).collect();
        // Before the first iteration: the game's hint (stable, so ties keep generation order).
        order.sort_by_key(|&i| std::cmp::Reverse(root.move_order_hint(moves.as_ref()[i])));
        // Iterations of the target depth's parity only: every game here evaluates with a
        // strong odd/even swing (whose turn it is at the leaves), so a table filled by a
        // same-parity iteration orders the next one much better; skipping the other parity
        // saved 10-40 % of the nodes in almost every bench case. Without a depth limit: depth
        // 1 (a cheap first answer for tiny time budgets), then the even depths.
        let schedule = (1..=max_depth).filter(|&d| match limits.depth {
            Some(target) => d % 2 == target % 2,
            None => d == 1 || d % 2 == 0,
        });
        // Time management: when the previous iterations ended (elapsed) and their node counts,
        // and for how many iterations the best move has not changed.
        let mut clock = IterationClock::default();
        for depth in schedule {
            run.horizon = false;
            run.ply_limit = reference::extension_limit::<G>(depth);
            let outcome = match options.algorithm {
                Algorithm::AlphaBeta => {
                    run.root_alphabeta(root, moves.as_ref(), &order, depth, multipv, !restricted)
                }
                Algorithm::Minimax => run.root_minimax(root, moves.as_ref(), depth, multipv),
            };
            let Some(ranked) = outcome else {
                // A move proven better than the previous best at the deeper depth is a safe
                // answer (the previous best was searched in full first), and any searched move
                // beats none; not under a node limit, whose result must not depend on where
                // the count ran out.
                if let Some((i, line)) = run.partial.take()
                    && limits.nodes.is_none()
                    && (result.depth == 0 || i != order[0])
                {
                    result.best_move = Some(moves.as_ref()[i]);
                    result.score = line.score;
                    result.pv = line.pv;
                    result.proven = false;
                }
                break;
            };
            let (best_idx, score) = (ranked[0].0, ranked[0].1.score);
            let pv = ranked[0].1.pv.clone();
            result.best_move = Some(moves.as_ref()[best_idx]);
            result.score = score;
            result.depth = depth;
            result.pv = pv.clone();
            result.proven = !run.horizon;
            // The next iteration tries the lines first, in rank order, then the other moves in
            // their previous order (for one line: the best move moved to the front).
            let first: Vec<usize> = ranked.iter().map(|(i, _)| *i).collect();
            order.retain(|i| !first.contains(i));
            order.splice(0..0, first);
            let lines: Vec<PvLine<G::Move>> = ranked.into_iter().map(|(_, l)| l).collect();
            // Deeper iterations cannot change a value that no horizon touched, nor find a
            // faster win than one proven within the current depth (for every line).
            let settled = lines.iter().all(|l| {
                is_decisive(l.score)
                    && plies_to_end(l.score).is_some_and(|p| p.unsigned_abs() <= depth)
            });
            on_iteration(&Iteration {
                depth,
                score,
                nodes: run.nodes,
                elapsed: start.elapsed(),
                pv,
                hashfull: run.tt.hashfull(),
                lines,
            });
            if result.proven || settled {
                break;
            }
            if run.node_limit <= run.nodes || run.time_up() || stop.load(Ordering::Relaxed) {
                break;
            }
            if let Some(soft) = limits.soft
                && !clock.next_iteration(
                    result.best_move,
                    run.nodes,
                    start.elapsed(),
                    soft,
                    limits.movetime,
                )
            {
                break;
            }
        }
        let probe = root.win_probe_plies(options.heuristic);
        if probe > 0
            && options.algorithm == Algorithm::AlphaBeta
            && multipv == 1
            && !restricted
            && limits.depth.is_some_and(|d| d == result.depth)
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.soft.is_none()
            && !limits.infinite
            && !result.proven
            && !is_decisive(result.score)
            && !stop.load(Ordering::Relaxed)
        {
            // The budget is the main search's own node count: at most twice the nodes in all,
            // and the same count on every run.
            let before = run.nodes;
            run.node_limit = run.nodes.saturating_mul(2);
            let last = (max_depth + probe).min(MAX_DEPTH);
            let mut report = WinProbe {
                depth: 0,
                won: false,
                nodes: 0,
            };
            for depth in (max_depth + 2..=last).step_by(2) {
                run.horizon = false;
                run.ply_limit = reference::extension_limit::<G>(depth);
                let Some((i, line)) = run.root_win_probe(root, moves.as_ref(), &order, depth)
                else {
                    if run.aborted {
                        break;
                    }
                    report.depth = depth;
                    continue;
                };
                report.depth = depth;
                report.won = true;
                result.best_move = Some(moves.as_ref()[i]);
                result.score = line.score;
                result.depth = depth;
                result.pv = line.pv.clone();
                on_iteration(&Iteration {
                    depth,
                    score: line.score,
                    nodes: run.nodes,
                    elapsed: start.elapsed(),
                    pv: line.pv.clone(),
                    hashfull: run.tt.hashfull(),
                    lines: vec![line],
                });
                break;
            }
            report.nodes = run.nodes - before;
            result.probe = Some(report);
        }
        result.nodes = run.nodes;
        result.elapsed = start.elapsed();
        result
    }
}

/// The time-management decision between two iterations (see [`Limits::soft`]).
#[derive(Debug)]
struct IterationClock<M> {
    best: Option<M>,
    /// Consecutive completed iterations that kept the best move (0 after a change).
    stable: u32,
    iterations: u32,
    elapsed: Duration,
    nodes: u64,
    /// Nodes of the previous iteration alone.
    last_nodes: u64,
}

impl<M> Default for IterationClock<M> {
    fn default() -> Self {
        IterationClock {
            best: None,
            stable: 0,
            iterations: 0,
            elapsed: Duration::ZERO,
            nodes: 0,
            last_nodes: 0,
        }
    }
}

/// Bounds of the assumed cost ratio of two successive iterations (the schedule steps two plies:
/// roughly the square of the effective branching factor).
const GROWTH_MIN: f64 = 2.0;
const GROWTH_MAX: f64 = 16.0;
/// The assumed ratio before two iterations have been measured.
const GROWTH_DEFAULT: f64 = 6.0;

impl<M: PartialEq + Copy> IterationClock<M> {
    /// Records a completed iteration (best move `best`, `nodes` and `elapsed` since the search
    /// began) and says whether to start the next one within the target `soft` and the hard
    /// limit `hard`.
    fn next_iteration(
        &mut self,
        best: Option<M>,
        nodes: u64,
        elapsed: Duration,
        soft: Duration,
        hard: Option<Duration>,
    ) -> bool {
        let changed = self.iterations > 0 && best != self.best;
        self.stable = if changed || self.iterations == 0 {
            0
        } else {
            self.stable + 1
        };
        let iter_nodes = nodes - self.nodes;
        let iter_time = elapsed.saturating_sub(self.elapsed);
        // Node counts, unlike times of a few microseconds, measure small iterations well.
        let growth = if self.last_nodes > 0 && self.iterations >= 2 {
            (iter_nodes as f64 / self.last_nodes as f64).clamp(GROWTH_MIN, GROWTH_MAX)
        } else {
            GROWTH_DEFAULT
        };
        self.iterations += 1;
        self.best = best;
        self.elapsed = elapsed;
        self.nodes = nodes;
        self.last_nodes = iter_nodes;
        // A best move that just changed deserves a deeper look; one that held over several
        // iterations will most likely hold again.
        let factor = match (changed, self.stable) {
            (true, _) => 1.3,
            (false, 0 | 1) => 1.0,
            (false, 2) => 0.8,
            (false, _) => 0.6,
        };
        let target = soft.mul_f64(factor);
        if elapsed >= target {
            return false;
        }
        let predicted = iter_time.mul_f64(growth);
        // Expected to end well past the target, or unable to finish before the hard limit
        // aborts it: the time is better kept for later moves.
        if elapsed + predicted / 2 > target {
            return false;
        }
        hard.is_none_or(|h| elapsed + predicted <= h)
    }
}

impl<G: Game> Run<'_, G> {
    #[inline]
    fn time_up(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Counts a node and polls the limits every 1024 nodes. Returns true when aborting.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes & 1023 == 0 && (self.stop.load(Ordering::Relaxed) || self.time_up()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Root of one alpha-beta iteration: the `k` best moves (indices into `moves`) with their
    /// exact values and lines, best first; `None` if aborted before completion. `store`: the
    /// root's value is the position's own (no `searchmoves` restriction) and goes to the table.
    fn root_alphabeta(
        &mut self,
        root: &G,
        moves: &[G::Move],
        order: &[usize],
        depth: u32,
        k: usize,
        store: bool,
    ) -> Option<Vec<(usize, PvLine<G::Move>)>> {
        if self.tick() {
            return None;
        }
        // The lines found so far, best first; `alpha` is the k-th one's value once there are
        // k (a move must beat it to be reported), -∞ before.
        let mut lines: Vec<(usize, PvLine<G::Move>)> = Vec::with_capacity(k + 1);
        let mut alpha = -INFINITY;
        for &i in order {
            let child = root.apply(moves[i]);
            let v = if lines.len() < k {
                self.alphabeta(&child, depth - 1, 1, alpha, INFINITY)
            } else {
                // Null window first: most root moves are only proven no better.
                let v = self.alphabeta(&child, depth - 1, 1, alpha, alpha + 1);
                if v > alpha && !self.aborted {
                    self.alphabeta(&child, depth - 1, 1, v, INFINITY)
                } else {
                    v
                }
            };
            if self.aborted {
                if k == 1 {
                    self.partial = lines.first().cloned();
                }
                return None;
            }
            if v > alpha {
                // Exact (fail-soft with an open upper bound): it enters the top k, after the
                // lines of equal value found earlier.
                self.set_root_pv(moves[i]);
                let at = lines.partition_point(|(_, l)| l.score >= v);
                lines.insert(
                    at,
                    (
                        i,
                        PvLine {
                            score: v,
                            pv: self.root_pv.clone(),
                        },
                    ),
                );
                lines.truncate(k);
                if lines.len() == k {
                    alpha = lines[k - 1].1.score;
                }
            }
        }
        let (i, best) = lines.first()?;
        self.root_pv.clone_from(&best.pv);
        if store {
            self.tt.store(
                self.key(root),
                TtEntry {
                    score: to_tt(best.score, 0),
                    depth: depth as u8,
                    bound: Bound::Exact,
                    move_index: Some(*i as u16),
                    left: self.ext_left(0),
                },
            );
        }
        Some(lines)
    }

    /// Root of one win-probe iteration ([`Game::win_probe_plies`]): the first root move, in
    /// `order`, whose value at `depth` is proven a win (a null window at the win bound: every
    /// line that reaches the horizon fails low at once), with that lower bound on its value
    /// and its line; `None` when no move wins within `depth` or the search was aborted.
    fn root_win_probe(
        &mut self,
        root: &G,
        moves: &[G::Move],
        order: &[usize],
        depth: u32,
    ) -> Option<(usize, PvLine<G::Move>)> {
        if self.tick() {
            return None;
        }
        for &i in order {
            let child = root.apply(moves[i]);
            let v = self.alphabeta(&child, depth - 1, 1, WIN_BASE - 1, WIN_BASE);
            if self.aborted {
                return None;
            }
            if v >= WIN_BASE {
                self.set_root_pv(moves[i]);
                return Some((
                    i,
                    PvLine {
                        score: v,
                        pv: self.root_pv.clone(),
                    },
                ));
            }
        }
        None
    }

    fn set_root_pv(&mut self, m: G::Move) {
        self.root_pv.clear();
        self.root_pv.push(m);
        self.root_pv.extend_from_slice(&self.pv[1]);
    }

    #[inline]
    fn key(&self, s: &G) -> u64 {
        s.hash() ^ self.key_salt
    }

    /// The extension plies left at a node `ply` plies below the root (0 where the game does
    /// not extend). A stored value depends on them as well as on the depth, so one iteration
    /// must not reuse another's value at a node where they differ; the move, though, is the
    /// next iteration's best first try, which is why they are stored beside the key rather
    /// than mixed into it.
    #[inline]
    fn ext_left(&self, ply: usize) -> u8 {
        if G::EXTENSION_PLIES > 0 {
            self.ply_limit.saturating_sub(ply).min(usize::from(u8::MAX)) as u8
        } else {
            0
        }
    }

    /// Fail-soft alpha-beta. Returns the exact minimax value of `state` at `depth` when it lies
    /// strictly inside (`alpha`, `beta`); otherwise a bound on the failing side (≤ alpha or
    /// ≥ beta). Leaves the principal variation below this node in `self.pv[ply]`.
    fn alphabeta(
        &mut self,
        state: &G,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        if let Some(o) = state.outcome() {
            return terminal_value(o, self.perspective, ply as i32);
        }
        let Some(depth) = reference::depth_here(state, depth, ply, self.ply_limit, self.heuristic)
        else {
            self.horizon = true;
            return state.evaluate_with(self.heuristic, &self.weights, self.perspective);
        };
        let key = self.key(state);
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.move_index;
            if u32::from(e.depth) == depth && e.left == self.ext_left(ply) {
                let s = from_tt(e.score, ply as i32);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    // The stored subtree may have reached the horizon.
                    self.horizon = true;
                    if let (Bound::Exact, Some(mi)) = (e.bound, e.move_index) {
                        {
                            let mut ms = G::Moves::default();
                            state.legal_moves(&mut ms);
                            if let Some(&m) = ms.as_ref().get(mi as usize) {
                                self.pv[ply].push(m);
                            }
                        }
                    }
                    return s;
                }
            }
        }
        let maximizing = state.side_to_move() == self.perspective;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximizing { -INFINITY } else { INFINITY };
        // The best move so far; its index in the generated list is found once there is one.
        let mut best_move: Option<G::Move> = None;
        let mut searched = 0u32;
        // Killers tried before generation (when there is no table move to locate).
        let mut tried: ArrayVec<G::Move, 2> = ArrayVec::new();
        if G::KILLERS_BEFORE_HINTS && tt_move.is_none() {
            // Most cutoffs at the frontier come from a killer: checking its legality alone
            // spares generating (and ordering) the whole list.
            for k in 0..2 {
                let Some(km) = self.killers[ply][k] else {
                    continue;
                };
                if tried.contains(&km) || !state.is_legal(km) {
                    continue;
                }
                tried.push(km);
                let v = self.search_child(state, km, depth, ply, alpha, beta, searched, maximizing);
                searched += 1;
                if self.aborted {
                    return 0;
                }
                if self.improve(maximizing, v, &mut best, km, ply) {
                    best_move = Some(km);
                }
                if maximizing {
                    alpha = alpha.max(v);
                } else {
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    // Stored without a move: its index is unknown (the killer is tried first
                    // next time anyway).
                    self.store(key, best, alpha0, beta0, depth, ply, None);
                    return best;
                }
            }
        }
        let mut moves = G::Moves::default();
        state.legal_moves(&mut moves);
        let moves = moves.as_ref();
        // Order: the table move first (before any hint is computed: it often cuts off alone),
        // then the killers (when they go before every hint: found by a plain scan, so a cutoff
        // there costs no hint at all), then the rest by the game's hint, picked lazily; ties
        // keep generation order.
        let tt_idx = tt_move.filter(|&i| usize::from(i) < moves.len());
        let mut early: ArrayVec<u16, 3> = ArrayVec::new();
        for &km in &tried {
            if let Some(p) = moves.iter().position(|&x| x == km) {
                early.push(p as u16);
            }
        }
        let mut keyed: ArrayVec<(i64, u16), MAX_ORDERED> = ArrayVec::new();
        let mut keyed_built = false;
        let mut next = 0;
        // Stages: 0 the table move, 1-2 the killers, 3 the rest by hint.
        let mut stage = if tried.is_empty() { 0u8 } else { 3 };
        loop {
            let picked = loop {
                match stage {
                    0 => {
                        stage = 1;
                        if let Some(t) = tt_idx {
                            early.push(t);
                            break Some(t);
                        }
                    }
                    1 | 2 => {
                        let k = usize::from(stage - 1);
                        stage += 1;
                        if G::KILLERS_BEFORE_HINTS
                            && let Some(km) = self.killers[ply][k]
                            && let Some(p) = moves.iter().position(|&x| x == km)
                            && !early.contains(&(p as u16))
                        {
                            early.push(p as u16);
                            break Some(p as u16);
                        }
                    }
                    _ if G::KILLERS_BEFORE_HINTS && depth < G::HINT_MIN_DEPTH => {
                        // No hints here and the killers already went first: generation order.
                        while next < moves.len() && early.contains(&(next as u16)) {
                            next += 1;
                        }
                        if next >= moves.len() {
                            break None;
                        }
                        next += 1;
                        break Some((next - 1) as u16);
                    }
                    _ => {
                        if !keyed_built {
                            keyed_built = true;
                            for (i, &m) in moves.iter().enumerate() {
                                if early.contains(&(i as u16)) {
                                    continue;
                                }
                                let killer = if self.killers[ply][0] == Some(m) {
                                    2
                                } else if self.killers[ply][1] == Some(m) {
                                    1
                                } else {
                                    0
                                };
                                // Killers not tried above only break ties between equal hints.
                                keyed.push((
                                    (if depth >= G::HINT_MIN_DEPTH {
                                        i64::from(state.move_order_hint(m)) << 2
                                    } else {
                                        0
                                    }) | killer,
                                    i as u16,
                                ));
                            }
                        }
                        if next >= keyed.len() {
                            break None;
                        }
                        let mut b = next;
                        for j in next + 1..keyed.len() {
                            if keyed[j].0 > keyed[b].0 {
                                b = j;
                            }
                        }
                        // Rotate rather than swap so the remaining moves keep their order.
                        keyed[next..=b].rotate_right(1);
                        next += 1;
                        break Some(keyed[next - 1].1);
                    }
                }
            };
            let Some(i) = picked else {
                break;
            };
            let m = moves[i as usize];
            let v = self.search_child(state, m, depth, ply, alpha, beta, searched, maximizing);
            searched += 1;
            if self.aborted {
                return 0;
            }
            if self.improve(maximizing, v, &mut best, m, ply) {
                best_move = Some(m);
            }
            if maximizing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                if Some(i) != tt_idx && self.killers[ply][0] != Some(m) {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = Some(m);
                }
                break;
            }
        }
        let best_idx =
            best_move.and_then(|bm| moves.iter().position(|&x| x == bm).map(|p| p as u16));
        self.store(key, best, alpha0, beta0, depth, ply, best_idx);
        best
    }

    /// Searches child `m` of `state`: the first move with the full window, later ones with a
    /// null window first and the full window only when that fails (principal variation search).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_child(
        &mut self,
        state: &G,
        m: G::Move,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        searched: u32,
        maximizing: bool,
    ) -> i32 {
        let child = state.apply(m);
        if G::EXTENSION_PLIES > 0
            && depth == 1
            && ply + 1 < self.ply_limit
            && child.outcome().is_none()
            && child.unquiet(self.heuristic)
        {
            // A sharp leaf: one more ply, with the full window.
            return self.alphabeta(&child, 1, ply + 1, alpha, beta);
        }
        if depth == 1 {
            // A leaf, evaluated here rather than through `alphabeta` (whose frame is large):
            // its value is exact whatever the window, so no null-window probe either.
            self.pv[ply + 1].clear();
            if self.tick() {
                return 0;
            }
            if let Some(o) = child.outcome() {
                return terminal_value(o, self.perspective, ply as i32 + 1);
            }
            self.horizon = true;
            return child.evaluate_with(self.heuristic, &self.weights, self.perspective);
        }
        if searched == 0 || beta - alpha <= 1 {
            return self.alphabeta(&child, depth - 1, ply + 1, alpha, beta);
        }
        if maximizing {
            let v = self.alphabeta(&child, depth - 1, ply + 1, alpha, alpha + 1);
            if v > alpha && v < beta && !self.aborted {
                self.alphabeta(&child, depth - 1, ply + 1, v, beta)
            } else {
                v
            }
        } else {
            let v = self.alphabeta(&child, depth - 1, ply + 1, beta - 1, beta);
            if v < beta && v > alpha && !self.aborted {
                self.alphabeta(&child, depth - 1, ply + 1, alpha, v)
            } else {
                v
            }
        }
    }

    /// Takes `v` as the new best if it improves on `best`, copying the child's line into this
    /// ply's principal variation.
    #[inline]
    fn improve(
        &mut self,
        maximizing: bool,
        v: i32,
        best: &mut i32,
        m: G::Move,
        ply: usize,
    ) -> bool {
        let better = if maximizing { v > *best } else { v < *best };
        if better {
            *best = v;
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            let line = &mut head[ply];
            line.clear();
            line.push(m);
            line.extend_from_slice(&tail[0]);
        }
        better
    }

    /// Stores a node's result with the bound its window implies.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(
        &mut self,
        key: u64,
        best: i32,
        alpha0: i32,
        beta0: i32,
        depth: u32,
        ply: usize,
        best_idx: Option<u16>,
    ) {
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(
            key,
            TtEntry {
                score: to_tt(best, ply as i32),
                depth: depth as u8,
                bound,
                // A fail-low's best move is only the least refuted one: no ordering signal.
                move_index: if bound == Bound::Upper {
                    None
                } else {
                    best_idx
                },
                left: self.ext_left(ply),
            },
        );
    }

    /// Root of one plain minimax iteration (no table, generation order, first best wins): the
    /// `k` best moves with their values and lines, best first.
    fn root_minimax(
        &mut self,
        root: &G,
        moves: &[G::Move],
        depth: u32,
        k: usize,
    ) -> Option<Vec<(usize, PvLine<G::Move>)>> {
        if self.tick() {
            return None;
        }
        let mut lines: Vec<(usize, PvLine<G::Move>)> = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            let v = self.minimax(&root.apply(m), depth - 1, 1);
            if self.aborted {
                return None;
            }
            self.set_root_pv(m);
            lines.push((
                i,
                PvLine {
                    score: v,
                    pv: self.root_pv.clone(),
                },
            ));
        }
        // Stable: equal values keep generation order.
        lines.sort_by_key(|(_, l)| std::cmp::Reverse(l.score));
        lines.truncate(k);
        self.root_pv.clone_from(&lines.first()?.1.pv);
        Some(lines)
    }

    fn minimax(&mut self, state: &G, depth: u32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        if let Some(o) = state.outcome() {
            return terminal_value(o, self.perspective, ply as i32);
        }
        let Some(depth) = reference::depth_here(state, depth, ply, self.ply_limit, self.heuristic)
        else {
            self.horizon = true;
            return state.evaluate_with(self.heuristic, &self.weights, self.perspective);
        };
        let mut moves = G::Moves::default();
        state.legal_moves(&mut moves);
        let maximizing = state.side_to_move() == self.perspective;
        let mut best = if maximizing { -INFINITY } else { INFINITY };
        for &m in moves.as_ref() {
            let v = self.minimax(&state.apply(m), depth - 1, ply + 1);
            if self.aborted {
                return 0;
            }
            if (maximizing && v > best) || (!maximizing && v < best) {
                best = v;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(m);
                head[ply].extend_from_slice(&tail[0]);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests;
