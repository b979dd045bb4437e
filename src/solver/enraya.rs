//! The exact solver of 5-en-Raya Táctico (`enraya`), every board size: null-window alpha-beta
//! over proven bounds with a transposition table, iterative deepening on a horizon, mate
//! distances, and a sound treatment of the ninja board's cycles (docs/solvers.md, "5-en-Raya").
//!
//! # What is solved
//! The value of a position for the side to move: a win, a draw or a loss with both sides
//! perfect, the plies to the end of the game (a win as soon as possible, a loss as late as
//! possible), a move that keeps the value and the principal variation. A game that never ends
//! (yellow cells empty rows and columns, so the 9 × 9 board's positions can recur, and the core
//! has no move limit) is a draw: no one wins.
//!
//! # Values and bounds
//! Scores are from the side to move's view, counted from the root: a win whose last placement is
//! ply `p` of the line is `WIN - p`, a loss `-(WIN - p)`, a draw 0. Every search of a node
//! answers one question, "is the value at least `t`?", and returns an interval `lo..=hi` that
//! holds the value: decided when `lo >= t` or `hi < t`, unknown otherwise. A node the search
//! does not open (the horizon, a budget stop) answers its widest interval, so every interval is
//! true whatever was cut; a proof is an interval that decides the question at the root.
//!
//! # Cycles, and why the table stays sound
//! A position that repeats one of its ancestors on the current line scores 0 (the line can go
//! round for ever). That value depends on the line, not only on the position (graph history
//! interaction): the same position reached by another line may be won. So every result carries
//! the smallest ply of an ancestor that a repetition below it went back to, and the table keeps:
//! - every bound of a result that went back to no ancestor above the node (then the search below
//!   was the search of that node as a root, which is exact: see below);
//! - otherwise only a proven win (`lo > 0`) and a proven loss (`hi < 0`): a win is a strategy
//!   that reaches a line on every reply, and it never relied on a repetition (those score 0), so
//!   it wins from that position whatever the line to it; a loss likewise.
//!
//! At the root the value with repetitions as draws is the game's value: from a won position the
//! winner's shortest win never repeats a position (the plies to the win fall at every move), and
//! from a drawn one each side keeps out of the other's winning positions for ever, repetitions
//! included. A proven root value is therefore exact, with or without cycles. The solver proves a
//! draw only when the search closes (every line ends or repeats) before the horizon: positions
//! whose lines can cycle for long (a yellow cell still playable) may stay "not proven".
//!
//! Only the 9 × 9 board has cycles (elsewhere every placement adds a piece), so only there are
//! repetitions looked for.

use thiserror::Error;

use super::proven::Proof;
use super::proven::{ExactSolver, Solved, Verdict};
use super::{Budget, Wdl};
use crate::core::game::{Game, Outcome, Side};
use crate::games::enraya::bits::{self, NINJA_STRIDE, RED, YELLOW};
use crate::games::enraya::{Enraya, Move, Moves};

/// A win on the ply the search starts from.
pub const WIN: i32 = 1 << 20;
/// Scores at least this far from 0 are wins or losses.
const MATE_ZONE: i32 = WIN - 100_000;
/// The deepest ply any line is searched to (the last horizon).
pub const MAX_PLY: u32 = 400;
/// The horizons of the iterative deepening, in plies; the last is [`MAX_PLY`].
const HORIZONS: [u32; 13] = [4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, MAX_PLY];
/// Plies the principal variation of a draw is followed at most (it may go round for ever).
const DRAW_PV_PLIES: usize = 40;
/// No ancestor: a result that depends on no position above it.
const NONE: u32 = u32::MAX;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// The course's word for a result (its `Resultado`): `VICTORIA`, `EMPATE` or `DERROTA`.
pub fn course_word(v: Wdl) -> &'static str {
    match v {
        Wdl::Win => "VICTORIA",
        Wdl::Draw => "EMPATE",
        Wdl::Loss => "DERROTA",
    }
}

/// Reads the course's word (any case).
pub fn from_course_word(w: &str) -> Option<Wdl> {
    match w.trim().to_ascii_uppercase().as_str() {
        "VICTORIA" => Some(Wdl::Win),
        "EMPATE" => Some(Wdl::Draw),
        "DERROTA" => Some(Wdl::Loss),
        _ => None,
    }
}

/// A proven result (moves `M`: [`Move`] for 5-en-Raya).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M = Move> {
    pub verdict: Wdl,
    /// Plies to the end of the game with both sides perfect (the winner wins as soon as it can,
    /// the loser holds out as long as it can); `None` for a draw. 0 for a finished game.
    pub plies: Option<u32>,
    /// A move that keeps the value (`None` only when the game is over).
    pub best: Option<M>,
    /// Optimal moves for both sides from here: to the end of the game for a win or a loss, the
    /// first [`DRAW_PV_PLIES`] at most (or to a repetition) for a draw. At least `best`.
    pub pv: Vec<M>,
    pub nodes: u64,
}

impl<M> Solution<M> {
    /// The score in the solver's units: `WIN - plies`, `-(WIN - plies)`, or 0.
    pub fn score(&self) -> i32 {
        match (self.verdict, self.plies) {
            (Wdl::Win, Some(p)) => WIN - p as i32,
            (Wdl::Loss, Some(p)) => -(WIN - p as i32),
            _ => 0,
        }
    }
}

/// Why no result was proven.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Unproven {
    /// The node budget, the deadline or the stop flag ended the search first.
    #[error("not proven: the budget ran out after {nodes} nodes")]
    Budget { nodes: u64 },
    /// Lines longer than the deepest horizon stay open (yellow cells can keep emptying the
    /// board: the search cannot close the game graph this deep).
    #[error(
        "not proven: lines longer than {plies} plies stay open (yellow cells keep emptying rows and columns), after {nodes} nodes"
    )]
    Horizon { plies: u32, nodes: u64 },
}

/// The interval a search proved for a node's value, and the smallest ply of an ancestor that a
/// repetition below it went back to ([`NONE`]: none).
#[derive(Clone, Copy, Debug)]
struct Bound {
    lo: i32,
    hi: i32,
    dep: u32,
}

/// What the search needs of a game. [`Enraya`] implements it; the tests also give it small
/// graphs with cycles, whose values retrograde analysis knows.
pub trait Position: Copy {
    type Move: Copy + Eq + std::fmt::Debug;
    /// The table key (everything that changes the future).
    fn key(&self) -> u64;
    fn mover(&self) -> Side;
    fn result(&self) -> Option<Outcome>;
    /// The legal moves (never none while the game runs), each with an ordering hint (larger
    /// first), appended to `out` in a fixed order.
    fn moves_hinted(&self, out: &mut Vec<(i32, Self::Move)>);
    fn play(&self, m: Self::Move) -> Self;
    /// Can a line come back to a position it has been through?
    fn may_repeat(&self) -> bool;
    /// Is `other` the same position for the rest of the game?
    fn same(&self, other: &Self) -> bool;
    /// The first of the moves that end the game at once with the mover's win, when such moves
    /// are cheap to find (the search finds the others).
    fn win_now(&self) -> Option<Self::Move> {
        None
    }
    /// The move as 16 bits (not 0) for the table, and back.
    fn encode(m: Self::Move) -> u16;
    fn decode(code: u16) -> Option<Self::Move>;
}

impl Position for Enraya {
    type Move = Move;
    #[inline]
    fn key(&self) -> u64 {
        self.hash()
    }
    #[inline]
    fn mover(&self) -> Side {
        self.side_to_move()
    }
    #[inline]
    fn result(&self) -> Option<Outcome> {
        self.outcome()
    }
    fn moves_hinted(&self, out: &mut Vec<(i32, Move)>) {
        let mut moves = Moves::default();
        self.legal_moves(&mut moves);
        out.extend(moves.iter().map(|&m| (self.move_order_hint(m), m)));
    }
    #[inline]
    fn play(&self, m: Move) -> Self {
        self.apply(m)
    }
    #[inline]
    fn may_repeat(&self) -> bool {
        self.is_ninja()
    }
    fn same(&self, other: &Self) -> bool {
        same_position(self, other)
    }
    #[inline]
    fn win_now(&self) -> Option<Move> {
        if !self.is_ninja() || self.outcome().is_some() {
            return None;
        }
        let wins = ninja_wins_now(self);
        (wins != 0).then(|| ninja_move(wins.trailing_zeros()))
    }
    fn encode(m: Move) -> u16 {
        match m {
            Move::Pass => 1,
            Move::Place { row, col } => 2 + row as u16 * 32 + col as u16,
        }
    }
    fn decode(code: u16) -> Option<Move> {
        match code {
            0 => None,
            1 => Some(Move::Pass),
            c => Some(Move::Place {
                row: ((c - 2) / 32) as u8,
                col: ((c - 2) % 32) as u8,
            }),
        }
    }
}

/// One table entry: bounds relative to the node (a win in `k` plies from it is `WIN - k`), an
/// "unknown" mark (the threshold and the plies to the horizon of a search that could not decide
/// it), and the move that refuted or kept the value.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    lo: i32,
    hi: i32,
    unknown_t: i32,
    unknown_left: u16,
    /// The move: 0 none, 1 a pass, `2 + row * 32 + col` a placement.
    mv: u16,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    lo: -WIN,
    hi: WIN,
    unknown_t: 0,
    unknown_left: 0,
    mv: 0,
};

/// A score at `ply` as the table keeps it (relative to the node).
fn to_table(v: i32, ply: u32) -> i32 {
    let p = ply as i32;
    if v >= MATE_ZONE {
        v + p
    } else if v <= -MATE_ZONE {
        v - p
    } else {
        v
    }
}

/// A table score as a score at `ply`.
fn from_table(v: i32, ply: u32) -> i32 {
    let p = ply as i32;
    if v >= MATE_ZONE {
        v - p
    } else if v <= -MATE_ZONE {
        v + p
    } else {
        v
    }
}

/// The value of a finished game at `ply` for `side`.
fn terminal(o: Outcome, side: Side, ply: u32) -> i32 {
    match Wdl::of_outcome(o, side) {
        Wdl::Win => WIN - ply as i32,
        Wdl::Loss => -(WIN - ply as i32),
        Wdl::Draw => 0,
    }
}

/// Is `a` the same position as `b` for the rest of the game (pieces, player, placements left,
/// the Trinity residue; not the turn counter)?
fn same_position(a: &Enraya, b: &Enraya) -> bool {
    a.pieces(Side::First) == b.pieces(Side::First)
        && a.pieces(Side::Second) == b.pieces(Side::Second)
        && a.side_to_move() == b.side_to_move()
        && a.left() == b.left()
        && a.residue() == b.residue()
        && a.outcome() == b.outcome()
}

/// The cells of `cand` where a piece of `own` would make five in a line along step `d` (9 × 9
/// board in 128 bits, one sentinel column: a window that crosses a row's end holds a sentinel).
#[inline(always)]
fn fives(own: u128, cand: u128, d: u32) -> u128 {
    let s = [
        own,
        own >> d,
        own >> (2 * d),
        own >> (3 * d),
        own >> (4 * d),
    ];
    let mut out = 0;
    for j in 0..5 {
        let mut a = !0u128;
        for (i, x) in s.iter().enumerate() {
            if i != j {
                a &= x;
            }
        }
        out |= (a << (j as u32 * d)) & cand;
    }
    out
}

/// The placements that win the 9 × 9 game at once for the side to move: a normal or green cell
/// that completes five of its own, or a yellow cell that does so on a diagonal (its row and
/// column are emptied). A red cell places the opponent's piece: never a win for the mover.
#[inline]
fn ninja_wins_now(s: &Enraya) -> u128 {
    let legal = bits::low(s.placements()) & !bits::low(RED);
    if legal == 0 {
        return 0;
    }
    let own = bits::low(s.pieces(s.side_to_move()));
    let yellow = bits::low(YELLOW);
    let stride = NINJA_STRIDE as u32;
    let straight = fives(own, legal & !yellow, 1) | fives(own, legal & !yellow, stride);
    let diagonal = fives(own, legal, stride + 1) | fives(own, legal, stride - 1);
    straight | diagonal
}

/// The move of bit `i` of the 9 × 9 board.
fn ninja_move(i: u32) -> Move {
    Move::Place {
        row: (i as usize / NINJA_STRIDE) as u8,
        col: (i as usize % NINJA_STRIDE) as u8,
    }
}

/// Counters of one solve, for the figures of docs/solvers.md.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited (each call of the search, table hits included).
    pub nodes: u64,
    /// The horizon that proved the verdict (the last one searched when none did).
    pub horizon: u32,
    /// Repetitions met (lines that went back to a position of their own).
    pub repetitions: u64,
}

/// The solver of positions `P` ([`Enraya`] unless a test says otherwise): its table (kept
/// between solves unless cleared), a budget and counters.
pub struct Solver<P: Position = Enraya> {
    table: Vec<Entry>,
    mask: usize,
    budget: Budget,
    stopped: bool,
    nodes: u64,
    horizon: u32,
    repetitions: u64,
    /// The positions of the current line (keys and positions) when they may repeat.
    path: Vec<(u64, P)>,
    /// Move lists per ply (on the heap: lines can be hundreds of plies long).
    lists: Vec<Vec<(i32, P::Move)>>,
    /// The root move that decided the last root search, and its threshold.
    root_best: Option<(P::Move, i32)>,
    /// Does the root's game have cycles (then the line is kept and repetitions looked for)?
    cycles: bool,
}

impl<P: Position> Solver<P> {
    /// A solver with a table of about `hash_mib` MiB (at least 1 MiB).
    pub fn new(hash_mib: usize) -> Solver<P> {
        let bytes = hash_mib.clamp(1, 1 << 20) << 20;
        let entries = (bytes / std::mem::size_of::<Entry>()).next_power_of_two() / 2;
        let entries = entries.max(1024);
        Solver {
            table: vec![EMPTY_ENTRY; entries],
            mask: entries - 1,
            budget: Budget::default(),
            stopped: false,
            nodes: 0,
            horizon: 0,
            repetitions: 0,
            path: Vec::new(),
            lists: Vec::new(),
            root_best: None,
            cycles: false,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.table.fill(EMPTY_ENTRY);
    }

    /// The limits of the next solves.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// The counters of the last solve.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            horizon: self.horizon,
            repetitions: self.repetitions,
        }
    }

    fn check_budget(&mut self) {
        if self.budget.nodes.is_some_and(|n| self.nodes >= n) || self.budget.expired() {
            self.stopped = true;
        }
    }

    fn out_of_budget(&self) -> Unproven {
        Unproven::Budget { nodes: self.nodes }
    }

    /// Solves `root`: its verdict, distance, best move and principal variation.
    ///
    /// # Errors
    /// [`Unproven`] when the budget runs out or lines stay open past [`MAX_PLY`] plies.
    pub fn solve(&mut self, root: &P) -> Result<Solution<P::Move>, Unproven> {
        self.nodes = 0;
        self.repetitions = 0;
        self.stopped = false;
        self.cycles = root.may_repeat();
        if let Some(o) = root.result() {
            return Ok(Solution {
                verdict: Wdl::of_outcome(o, root.mover()),
                plies: (o != Outcome::Draw).then_some(0),
                best: None,
                pv: Vec::new(),
                nodes: 0,
            });
        }
        // The verdict: "a win?" (value >= 1), then, if not, "a draw?" (value >= 0), at growing
        // horizons until one is proven.
        let (mut lo, mut hi) = (-(WIN - 1), WIN - 1);
        let mut decided = false;
        for h in HORIZONS {
            self.horizon = h;
            if lo < 1 && hi >= 1 {
                let r = self.root_search(root, 1);
                (lo, hi) = (lo.max(r.lo), hi.min(r.hi));
            }
            if hi < 1 && lo < 0 && hi >= 0 {
                let r = self.root_search(root, 0);
                (lo, hi) = (lo.max(r.lo), hi.min(r.hi));
            }
            if lo >= 1 || hi < 0 || (lo >= 0 && hi <= 0) {
                decided = true;
                break;
            }
            if self.stopped {
                return Err(self.out_of_budget());
            }
        }
        if !decided {
            return Err(Unproven::Horizon {
                plies: MAX_PLY,
                nodes: self.nodes,
            });
        }
        let proof_horizon = self.horizon;
        // The distance: probes above a proven win ("a win sooner?"), below a proven loss ("a
        // loss later?"), each answered exactly: mate distances bound the search.
        if lo >= 1 || hi < 0 {
            self.horizon = MAX_PLY;
            while lo < hi {
                let t = if lo >= 1 { lo + 1 } else { hi };
                let r = self.root_search(root, t);
                if self.stopped {
                    return Err(self.out_of_budget());
                }
                if r.lo < t && r.hi >= t {
                    // Only a line past MAX_PLY could leave it open.
                    return Err(Unproven::Horizon {
                        plies: MAX_PLY,
                        nodes: self.nodes,
                    });
                }
                (lo, hi) = (lo.max(r.lo), hi.min(r.hi));
            }
        } else {
            (lo, hi) = (0, 0);
        }
        debug_assert_eq!(lo, hi);
        let value = lo;
        // A move proven to keep the value (a draw's at the horizon that proved it, or deeper).
        let mut h = self.horizon;
        while self.root_best.is_none_or(|(_, t)| t != value) && h <= MAX_PLY {
            self.horizon = h;
            self.root_search(root, value);
            if self.stopped {
                return Err(self.out_of_budget());
            }
            h *= 2;
        }
        let best = match self.root_best {
            Some((m, t)) if t == value => m,
            _ => return Err(self.out_of_budget()),
        };
        let verdict = match value {
            v if v > 0 => Wdl::Win,
            0 => Wdl::Draw,
            _ => Wdl::Loss,
        };
        let plies = (value != 0).then(|| (WIN - value.abs()) as u32);
        let pv = self.principal_variation(root, best, value);
        // The counters say the horizon that proved the verdict.
        self.horizon = proof_horizon;
        Ok(Solution {
            verdict,
            plies,
            best: Some(best),
            pv,
            nodes: self.nodes,
        })
    }

    /// Does `m` keep the value `value` (from the root's mover's view) of `s`, the last
    /// position of `line` (from the root), at ply `ply`? A search of the child with `line`
    /// as its history.
    fn keeps(&mut self, line: &[P], s: &P, m: P::Move, value: i32, ply: u32) -> bool {
        let child = s.play(m);
        self.path.clear();
        if self.cycles {
            self.path.extend(line.iter().map(|a| (a.key(), *a)));
        }
        let same = child.mover() == s.mover();
        let t = if same { value } else { 1 - value };
        let r = self.search(&child, t, ply + 1);
        self.path.clear();
        let clo = if same { r.lo } else { -r.hi };
        clo >= value
    }

    /// The line from `root` where every move keeps `value` (each found by a probe of the
    /// children; a stop, a repetition or the draw's limit cuts it short). Starts with `best`.
    fn principal_variation(&mut self, root: &P, best: P::Move, value: i32) -> Vec<P::Move> {
        let mut pv = vec![best];
        let mut s = root.play(best);
        let mut line = vec![*root];
        let limit = if value == 0 {
            DRAW_PV_PLIES
        } else {
            MAX_PLY as usize
        };
        let mut list = Vec::new();
        while s.result().is_none() && pv.len() < limit && !self.stopped {
            if self.cycles && line.iter().any(|a| a.same(&s)) {
                break;
            }
            line.push(s);
            let ply = pv.len() as u32;
            // The value for the side to move at `s`.
            let v = if s.mover() == root.mover() {
                value
            } else {
                -value
            };
            list.clear();
            s.moves_hinted(&mut list);
            list.sort_by_key(|b| std::cmp::Reverse(b.0));
            let mut next = None;
            for &(_, m) in &list {
                if self.keeps(&line, &s, m, v, ply) {
                    next = Some(m);
                    break;
                }
            }
            let Some(m) = next else { break };
            pv.push(m);
            s = s.play(m);
        }
        pv
    }

    /// A search of the root with threshold `t` (the root's move is kept in `root_best`).
    fn root_search(&mut self, root: &P, t: i32) -> Bound {
        self.path.clear();
        self.root_best = None;
        self.search(root, t, 0)
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// Is `s` (key `key`) a position of the current line? The ply of the first such ancestor.
    fn repetition(&self, key: u64, s: &P) -> Option<u32> {
        self.path
            .iter()
            .position(|(k, a)| *k == key && a.same(s))
            .map(|i| i as u32)
    }

    fn store(&mut self, key: u64, ply: u32, lo: Option<i32>, hi: Option<i32>, mv: Option<P::Move>) {
        let i = self.slot(key);
        let e = &mut self.table[i];
        if e.key != key {
            *e = EMPTY_ENTRY;
            e.key = key;
        }
        if let Some(lo) = lo {
            e.lo = e.lo.max(to_table(lo, ply));
        }
        if let Some(hi) = hi {
            e.hi = e.hi.min(to_table(hi, ply));
        }
        if let Some(m) = mv {
            e.mv = P::encode(m);
        }
    }

    /// Is the value of `s` (at `ply` of the current line) at least `t`? See the module doc.
    fn search(&mut self, s: &P, t: i32, ply: u32) -> Bound {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_budget();
        }
        let p = ply as i32;
        if let Some(o) = s.result() {
            let v = terminal(o, s.mover(), ply);
            return Bound {
                lo: v,
                hi: v,
                dep: NONE,
            };
        }
        let (mut lo, mut hi) = (-(WIN - p - 1), WIN - p - 1);
        if self.stopped {
            return Bound { lo, hi, dep: NONE };
        }
        let key = s.key();
        if self.cycles
            && let Some(i) = self.repetition(key, s)
        {
            self.repetitions += 1;
            return Bound {
                lo: 0,
                hi: 0,
                dep: i,
            };
        }
        // Decided by the distance alone (not at the root, which must find its move).
        if ply > 0 && (t > hi || t <= lo) {
            return Bound { lo, hi, dep: NONE };
        }
        let mut table_move = None;
        let slot = self.slot(key);
        let e = self.table[slot];
        if e.key == key {
            lo = lo.max(from_table(e.lo, ply));
            hi = hi.min(from_table(e.hi, ply));
            table_move = P::decode(e.mv);
            if ply > 0 {
                if lo >= t || hi < t {
                    return Bound { lo, hi, dep: NONE };
                }
                let left = self.horizon.saturating_sub(ply);
                if !self.cycles
                    && e.unknown_left > 0
                    && u32::from(e.unknown_left) >= left
                    && from_table(e.unknown_t, ply) == t
                {
                    return Bound { lo, hi, dep: NONE };
                }
            }
        }
        // A placement that wins at once is the best there is.
        if let Some(m) = s.win_now() {
            let v = WIN - p - 1;
            self.store(key, ply, Some(v), Some(v), Some(m));
            if ply == 0 {
                self.root_best = Some((m, t));
            }
            return Bound {
                lo: v,
                hi: v,
                dep: NONE,
            };
        }
        if ply >= self.horizon {
            return Bound { lo, hi, dep: NONE };
        }
        // The moves, best first: the table's move, then the game's hint.
        let mut list = self.lists.pop().unwrap_or_default();
        list.clear();
        s.moves_hinted(&mut list);
        for (hint, m) in list.iter_mut() {
            if Some(*m) == table_move {
                *hint = i32::MAX;
            }
        }
        // Stable: equal hints keep the game's order, so solves are reproducible.
        list.sort_by_key(|b| std::cmp::Reverse(b.0));
        let mover = s.mover();
        if self.cycles {
            self.path.push((key, *s));
        }
        let (mut best_lo, mut best_hi) = (-WIN, -WIN);
        let mut dep = NONE;
        let mut cut_move = None;
        let mut best_hi_move = None;
        for &(_, m) in &list {
            let child = s.play(m);
            let same = child.mover() == mover;
            let r = self.search(&child, if same { t } else { 1 - t }, ply + 1);
            let (clo, chi) = if same { (r.lo, r.hi) } else { (-r.hi, -r.lo) };
            dep = dep.min(r.dep);
            if chi > best_hi {
                best_hi = chi;
                best_hi_move = Some(m);
            }
            best_lo = best_lo.max(clo);
            if clo >= t {
                cut_move = Some(m);
                if ply == 0 {
                    self.root_best = Some((m, t));
                }
                break;
            }
            if self.stopped {
                break;
            }
        }
        if self.cycles {
            self.path.pop();
        }
        self.lists.push(list);
        let cut = cut_move.is_some();
        lo = lo.max(best_lo);
        if !cut && !self.stopped {
            hi = hi.min(best_hi);
        }
        // What the table may keep (module doc): everything when no repetition went back above
        // this node, else only a proven win or loss.
        let independent = dep == NONE || dep >= ply;
        let keep_lo = (independent || lo > 0).then_some(lo);
        let keep_hi = (independent || hi < 0).then_some(hi);
        self.store(key, ply, keep_lo, keep_hi, cut_move.or(best_hi_move));
        if independent && lo < t && hi >= t && !self.stopped {
            let i = self.slot(key);
            let e = &mut self.table[i];
            e.unknown_t = to_table(t, ply);
            e.unknown_left = self.horizon.saturating_sub(ply).min(u16::MAX as u32) as u16;
        }
        Bound { lo, hi, dep }
    }
}

/// `go` tries the solver on boards other than 9 × 9 with at most this many empty cells (a
/// 4 × 4 board with N = 3 from the start: 16), and on the 9 × 9 board at most
/// [`NINJA_MAX_EMPTY`]: beyond, a move's budget rarely proves anything (docs/solvers.md).
pub const MAX_EMPTY: u32 = 16;
/// See [`MAX_EMPTY`].
pub const NINJA_MAX_EMPTY: u32 = 12;
/// The protocol's `solve` score of a win in 0 plies (a win in `p` plies is `SCORE_WIN - p`, a
/// loss in `p` plies `-(SCORE_WIN - p)`, a draw 0).
pub const SCORE_WIN: i32 = 1000;

impl<M> Solution<M> {
    /// The protocol's `solve` score (see [`SCORE_WIN`]).
    pub fn protocol_score(&self) -> i32 {
        match (self.verdict, self.plies) {
            (Wdl::Win, Some(p)) => SCORE_WIN - p as i32,
            (Wdl::Loss, Some(p)) => -(SCORE_WIN - p as i32),
            _ => 0,
        }
    }
}

/// The empty cells of `s`.
pub fn empty_cells(s: &Enraya) -> u32 {
    s.board().and_not(s.occupied()).count()
}

impl ExactSolver for Solver {
    type G = Enraya;
    /// One table serves every size (the key hashes the size).
    type Key = ();

    fn key(_: &Enraya) {}

    fn build((): (), hash_mib: usize) -> Option<Solver> {
        Some(Solver::new(hash_mib))
    }

    fn worth_trying(root: &Enraya, any_size: bool) -> bool {
        let limit = if root.is_ninja() {
            NINJA_MAX_EMPTY
        } else {
            MAX_EMPTY
        };
        any_size || empty_cells(root) <= limit
    }

    fn prove(&mut self, s: &Enraya, budget: &Budget, fresh: bool) -> Option<Proof> {
        if fresh {
            self.clear();
        }
        self.set_budget(budget.clone());
        let sol = self.solve(s).ok()?;
        let best = sol.best?;
        let mate = sol.plies.map(|p| {
            if sol.verdict == Wdl::Win {
                p as i32
            } else {
                -(p as i32)
            }
        });
        let detail = match (sol.verdict, sol.plies) {
            (Wdl::Draw, _) => "exact solver, a draw".to_string(),
            (v, Some(p)) => format!("exact solver, {} in {p} plies", course_word(v)),
            (v, None) => format!("exact solver, {}", course_word(v)),
        };
        Some(Proof {
            mate,
            cp: 0,
            detail,
            best: s.format_move(best),
            pv: sol.pv.iter().map(|&m| s.format_move(m)).collect(),
            nodes: sol.nodes,
        })
    }

    /// An empty table for every solve: a position's proof never depends on the ones before.
    fn verdict(&mut self, s: &Enraya, budget: &Budget) -> Option<Verdict> {
        self.clear();
        self.set_budget(budget.clone());
        let sol = self.solve(s).ok()?;
        Some(Verdict {
            wdl: sol.verdict,
            plies: sol.plies,
            best: s.format_move(sol.best?),
        })
    }

    fn solve_reporting(
        s: &Enraya,
        hash_mib: usize,
        budget: Budget,
        line: &(dyn Fn(&str) + Sync),
    ) -> Result<Option<Solved>, super::SolveError> {
        line(&format!(
            "info string solving enraya {}x{} N={} with {hash_mib} MiB",
            s.rows(),
            s.cols(),
            s.in_a_row()
        ));
        let mut solver = Solver::new(hash_mib);
        solver.set_budget(budget);
        match solver.solve(s) {
            Ok(sol) => {
                let st = solver.stats();
                line(&format!(
                    "info string {} plies {} horizon {} repetitions {} pv {}",
                    course_word(sol.verdict),
                    sol.plies.map_or("-".to_string(), |p| p.to_string()),
                    st.horizon,
                    st.repetitions,
                    sol.pv
                        .iter()
                        .map(|&m| s.format_move(m))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
                Ok(Some(Solved {
                    score: sol.protocol_score(),
                    best: sol.best.map(|m| s.format_move(m)),
                    nodes: sol.nodes,
                }))
            }
            Err(Unproven::Budget { .. }) => Ok(None),
            Err(e) => Err(super::SolveError::Unproven(e)),
        }
    }
}

/// The longest line [`plain_status`] follows (it recurses once per ply).
pub const PLAIN_MAX_DEPTH: usize = 1000;

/// The course's `Status` as a student writes it, the tests' reference: plain minimax over
/// win, draw and loss, without table or move ordering, over every legal move (passes included)
/// in the game's order, stopping at the first win of the side choosing; a position that
/// repeats one of its line is a draw. The verdict for the side to move, a move that reaches it
/// (`None` when the game is over) and the nodes visited; `None` past `max_nodes` nodes or
/// [`PLAIN_MAX_DEPTH`] plies.
pub fn plain_status<P: Position>(s: &P, max_nodes: u64) -> Option<(Wdl, Option<P::Move>, u64)> {
    fn go<P: Position>(
        s: &P,
        line: &mut Vec<P>,
        nodes: &mut u64,
        max: u64,
    ) -> Option<(Wdl, Option<P::Move>)> {
        *nodes += 1;
        if *nodes > max || line.len() > PLAIN_MAX_DEPTH {
            return None;
        }
        if let Some(o) = s.result() {
            return Some((Wdl::of_outcome(o, s.mover()), None));
        }
        if s.may_repeat() && line.iter().any(|a| a.same(s)) {
            return Some((Wdl::Draw, None));
        }
        let mut moves = Vec::new();
        s.moves_hinted(&mut moves);
        line.push(*s);
        let mut best: Option<(Wdl, P::Move)> = None;
        for &(_, m) in &moves {
            let child = s.play(m);
            let (v, _) = go(&child, line, nodes, max)?;
            let v = if child.mover() == s.mover() {
                v
            } else {
                v.flip()
            };
            if best.is_none_or(|(b, _)| v.rank() > b.rank()) {
                best = Some((v, m));
            }
            if v == Wdl::Win {
                break;
            }
        }
        line.pop();
        best.map(|(v, m)| (v, Some(m)))
    }
    let mut nodes = 0;
    let mut line = Vec::new();
    let (v, m) = go(s, &mut line, &mut nodes, max_nodes)?;
    Some((v, m, nodes))
}

#[cfg(test)]
mod tests;
