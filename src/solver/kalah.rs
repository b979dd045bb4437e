//! Exact Kalah solver (the game's own rules, via `Mancala::apply`): the value of a position is
//! the final store margin for the side to move with both sides perfect.
//!
//! What is searched is the *future* net gain `v` of the side to move (final margin minus the
//! current store difference): it depends only on the seeds in the pits, not on the stores, so
//! the table key is the pits alone, oriented from the mover's side (the rules are symmetric, so
//! a position and its colour-swapped twin share an entry).
//!
//! - Root: MTD(f) null-window probes with fail-soft bounds; the move that made the last
//!   probe fail high is the optimal move reported (no extra search for it).
//! - Inner nodes: alpha-beta over a two-bound table (one 8-byte atomic word per entry, eight
//!   to a cache line) whose exact keys are the combinatorial ranks of the pit vectors, ordered
//!   by the table's best move, then extra turns, then captures; children that end the game or
//!   lie in the database count with their exact values before any is searched, and near the
//!   root the table's bounds of the children are used too (enhanced transposition cutoffs).
//! - Endgame database built at run time: positions with at most `K` seeds in pits get a dense
//!   array indexed by the combinatorial rank of their pit vector, filled lazily with exact
//!   values (a full-window search that only ever reaches smaller-or-equal seed counts, since
//!   seeds never leave the stores). `K` is the largest count whose array fits the budget.
//! - Threads: Lazy SMP. Every probe runs on all threads over the shared table and database;
//!   the first to finish gives the result and the others give up on it. One thread gives
//!   reproducible node counts and moves; more give the same values. (ABDADA, deferring a child
//!   another thread is searching, was measured against it on Kalah(6,5) and lost: 7 % more
//!   nodes on the busiest thread and 10 % more CPU.)
//! - The search is compiled apart for the standard six pits a side (`Worker<6>`: the loops,
//!   masks and shifts of sowing and ranking are constants); other sizes share `Worker<0>`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use super::kalahdb::{self, KalahDb};
use super::proven::{ExactSolver, Solved, Verdict};
use super::proven::{KALAH_MAX_SEEDS, KALAH_MAX_SEEDS_WITH_DB, Proof, pv_budget};
use super::{Budget, PROTOCOL_THREADS, SolveError, Wdl};
use crate::core::game::{Game, Side};
use crate::games::mancala::Mancala;
use crate::games::mancala::endgame::board_of;
use crate::games::mancala::kalah_board::{Board, Next, Played, Ranker, Rules};

/// Largest number of pits per side the solver handles (two rows must pack into a `u128`).
pub const MAX_SOLVER_PITS: usize = 7;

/// The lazily filled endgame database: one byte per pit vector with at most `k` seeds, shared
/// by the solving threads (relaxed atomics: every value written is exact, so a race can only
/// make two threads compute the same value).
struct Database {
    k: usize,
    /// Value + 128, or `UNKNOWN` (0).
    values: Vec<AtomicU8>,
}

const UNKNOWN: u8 = 0;

/// Nodes between two checks of the budget and of the other threads' progress.
const POLL: u64 = 4096;

/// Time between two progress lines of a long probe.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Largest seed count the database covers. It is filled by exhaustive (full-window) search,
/// which nearly fills it (2.61 M of the 2.70 M positions with at most 12 seeds on Kalah(6,4)),
/// so the right size depends on the search it serves. Measured (CPU time, one thread): 12 seeds
/// is fastest up to 40 seeds in all ((6,3) takes twice as long with 14); Kalah(6,4) searches
/// 122 M nodes with 14 seeds against 141 M with 12 (73 s against 80 s of CPU); 16 seeds (30 MB,
/// beyond the cache) was slower when measured with ETC at every node.
fn db_max_seeds(total: usize) -> usize {
    if total >= 48 { 14 } else { 12 }
}

/// Enhanced transposition cutoffs are tried only at nodes with at least this many seeds more
/// than the database covers. Probing the children costs one cache miss each, far more than the
/// small subtrees near the database save. Kalah(6,4) with a 12-seed database (paired runs, CPU
/// time): ETC at every node 81.6 M nodes in 128 s; from 22 seeds on (threshold 10) 132 M in
/// 94 s; from 26 (14) 139 M in 83 s; from 32 (20) 141 M in 80 s. On Kalah(5,4) ETC beyond the
/// root region no longer changed the time at all.
const ETC_SEEDS: usize = 20;

impl Database {
    /// The largest `k <= db_max_seeds(total)` (and at most `total`) whose table fits `budget`
    /// bytes.
    fn new(ranker: &Ranker, total: usize, budget: usize) -> Self {
        let mut k = 0;
        while k < total.min(db_max_seeds(total)).min(ranker.t)
            && ranker.count(k + 1) as usize <= budget
        {
            k += 1;
        }
        let mut values = Vec::new();
        values.resize_with(ranker.count(k) as usize, || AtomicU8::new(UNKNOWN));
        Database { k, values }
    }

    fn bytes(&self) -> usize {
        self.values.len()
    }
}

/// Entries per bucket: eight 8-byte words, one 64-byte cache line, so a probe costs at most one
/// cache miss.
const WAYS: usize = 8;

/// The transposition table: one `AtomicU64` per entry, shared lock-free by the solving threads.
///
/// Keys are exact: the rank `r` of the pit vector picks bucket `r % P` and the entry stores the
/// quotient `r / P`, so (bucket, quotient) determines the position (Pons' trick). Packing of one
/// entry, low bits first: `lo + T`, `hi + T` (`vbits` each), `best + 1` (3 bits), seeds in pits
/// (`sbits`; 0 marks an empty slot), quotient (the rest). A whole entry is one atomic word, so a
/// concurrent write can only replace one valid entry by another: every bound read was proved.
struct Table {
    slots: Vec<AtomicU64>,
    /// First slot of the first 64-byte-aligned bucket.
    base: usize,
    buckets: u64,
    /// `key / buckets` is `(key * magic) >> shift` for every key (see `Table::new`).
    magic: u64,
    shift: u32,
    /// Offset of stored bounds (the largest seed total).
    off: i32,
    vbits: u32,
    sbits: u32,
}

/// A stored entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    lo: i32,
    hi: i32,
    /// Best move (relative index), `u8::MAX` if none.
    best: u8,
}

fn is_prime(n: u64) -> bool {
    n >= 2
        && (2..)
            .take_while(|d| d * d <= n)
            .all(|d| !n.is_multiple_of(d))
}

fn bits_for(x: u64) -> u32 {
    64 - x.leading_zeros()
}

impl Table {
    /// About `bytes` bytes for ranks below `keys`, bounds in `-t..=t`. The bucket count is the
    /// largest prime that fits, but never so small that the quotient would not fit its bits.
    fn new(bytes: usize, keys: u64, t: usize) -> Result<Self, SolveError> {
        let vbits = bits_for(2 * t as u64);
        let sbits = bits_for(t as u64);
        let qbits = 64 - 2 * vbits - 3 - sbits;
        let need = if qbits >= 64 { 1 } else { (keys >> qbits) + 1 };
        let want = (bytes / (8 * WAYS)).max(1) as u64;
        let mut p = want.max(need + 1);
        while p > need && !is_prime(p) {
            p -= 1;
        }
        if p <= need {
            p = need + 1;
            while !is_prime(p) {
                p += 1;
            }
        }
        let n = usize::try_from(p)
            .ok()
            .and_then(|p| p.checked_mul(WAYS))
            .ok_or(SolveError::TableTooLarge(
                "its slots overflow the address space",
            ))?;
        let mut slots: Vec<AtomicU64> = Vec::with_capacity(n + WAYS);
        // Huge pages before the first touch: zeroing a 1 GiB table page by page cost up to
        // 5 s of kernel time on this VM (Kalah(6,4) took 4.3-8.1 s instead of 3.5 s), and
        // random probes over 4 KiB pages miss the TLB.
        crate::core::mem::advise_huge_pages(slots.as_ptr() as usize, (n + WAYS) * 8);
        slots.resize_with(n + WAYS, || AtomicU64::new(0));
        let base = (slots.as_ptr() as usize).wrapping_neg() % 64 / 8;
        // Division by the constant P as a multiplication (Granlund-Montgomery): with keys
        // below 2^N, 2^s >= P and magic = ceil(2^(N+s) / P) < 2^64, floor(key * magic /
        // 2^(N+s)) = floor(key / P), since the error key * (magic * P - 2^(N+s)) / (P *
        // 2^(N+s)) stays below 2^N * P / (P * 2^(N+s)) = 2^-s <= 1/P.
        let kbits = bits_for(keys);
        let s = bits_for(p - 1).max(1);
        let shift = kbits + s;
        let magic = (1u128 << shift).div_ceil(p as u128);
        let magic = u64::try_from(magic)
            .map_err(|_| SolveError::TableTooLarge("its keys overflow the division"))?;
        Ok(Table {
            slots,
            base,
            buckets: p,
            magic,
            shift,
            off: t as i32,
            vbits,
            sbits,
        })
    }

    /// Where `key` lives: its bucket's first slot and the quotient stored for it.
    #[inline]
    fn slot(&self, key: u64) -> (usize, u64) {
        let q = ((key as u128 * self.magic as u128) >> self.shift) as u64;
        debug_assert_eq!(q, key / self.buckets);
        let r = key - q * self.buckets;
        (self.base + r as usize * WAYS, q)
    }

    #[inline]
    fn qshift(&self) -> u32 {
        2 * self.vbits + 3 + self.sbits
    }

    #[inline]
    fn seeds_of(&self, w: u64) -> u64 {
        (w >> (2 * self.vbits + 3)) & ((1 << self.sbits) - 1)
    }

    #[inline]
    fn get(&self, (i, q): (usize, u64)) -> Option<Entry> {
        let qs = self.qshift();
        for s in &self.slots[i..i + WAYS] {
            let w = s.load(Ordering::Relaxed);
            if w >> qs == q && self.seeds_of(w) != 0 {
                let vm = (1u64 << self.vbits) - 1;
                return Some(Entry {
                    lo: (w & vm) as i32 - self.off,
                    hi: ((w >> self.vbits) & vm) as i32 - self.off,
                    best: (((w >> (2 * self.vbits)) & 7) as u8).wrapping_sub(1),
                });
            }
        }
        None
    }

    /// Stores bounds for `key`, merged with any stored ones. A new key replaces the entry with
    /// the fewest seeds in its bucket (a proxy for the smallest subtree).
    #[inline]
    fn put(&self, (i, q): (usize, u64), seeds: usize, mut lo: i32, mut hi: i32, best: u8) {
        debug_assert!(-self.off <= lo && lo <= hi && hi <= self.off, "{lo} {hi}");
        let qs = self.qshift();
        let line = &self.slots[i..i + WAYS];
        let mut victim = 0;
        let mut fewest = u64::MAX;
        for (j, s) in line.iter().enumerate() {
            let w = s.load(Ordering::Relaxed);
            let ws = self.seeds_of(w);
            if w >> qs == q && ws != 0 {
                let vm = (1u64 << self.vbits) - 1;
                lo = lo.max((w & vm) as i32 - self.off);
                hi = hi.min(((w >> self.vbits) & vm) as i32 - self.off);
                victim = j;
                break;
            }
            if ws < fewest {
                fewest = ws;
                victim = j;
            }
        }
        let w = (lo + self.off) as u64
            | ((hi + self.off) as u64) << self.vbits
            | (best.wrapping_add(1) as u64 & 7) << (2 * self.vbits)
            | (seeds.max(1) as u64) << (2 * self.vbits + 3)
            | q << qs;
        line[victim].store(w, Ordering::Relaxed);
    }

    fn clear(&self) {
        for s in &self.slots {
            s.store(0, Ordering::Relaxed);
        }
    }

    fn bytes(&self) -> usize {
        self.slots.len() * 8
    }
}

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final store margin for the side to move (own store minus the opponent's).
    pub score: i32,
    /// An optimal pit (course numbering); `None` when the game is over.
    pub best: Option<u8>,
    pub nodes: u64,
    /// Largest seed count the endgame database covered.
    pub db_seeds: usize,
}

/// What the solving threads share.
struct Shared {
    m: usize,
    /// Largest seed total (bounds the keys and the stored values).
    total: usize,
    ranker: Ranker,
    table: Table,
    /// The lazily filled database (a single entry when `full` is given).
    db: Database,
    /// The database built bottom-up (`kalahdb`), if any.
    full: Option<Arc<KalahDb>>,
    /// Largest seed count either database covers.
    dbk: usize,
    /// Irving's empty capture instead of the course rules.
    ec: bool,
}

/// A Kalah solver for one board size; keeps its table and database between solves.
pub struct Solver {
    sh: Shared,
    threads: usize,
    budget: Budget,
    /// Nodes of the last `solve` or `principal_variation`, all threads.
    nodes: u64,
    /// Of those, the nodes of the thread that searched most in each root probe: the length of
    /// the critical path when the threads run side by side (what two threads save).
    span: u64,
    filled: u64,
    /// The last solve's root board, future value and move, so that a principal variation of
    /// that position starts with the move `solve` reported.
    last: Option<(Board, i32, usize)>,
    /// Progress lines on stderr (probes, and every 10 s within a probe).
    progress: bool,
}

/// One searching thread.
struct Worker<'a, const M: usize> {
    sh: &'a Shared,
    budget: &'a Budget,
    /// Raised when some thread finished the current probe (the others then give up on it).
    done: &'a AtomicBool,
    /// 0 for the main thread; Lazy-SMP helpers (1, 2, ...) perturb the move order.
    id: usize,
    nodes: u64,
    filled: u64,
    /// Node count at which the budget is checked next.
    next_poll: u64,
    /// Node count at which a database fill checks `stop`, the deadline and the other threads
    /// next. Its own counter: the node budget is only checked by `search` (at the same node
    /// counts as ever, so budgeted solves stay reproducible), but one fill of an empty
    /// database can take seconds, and `stop` must not wait for it.
    next_fill_poll: u64,
    aborted: bool,
    /// Best move of the root found by the last probe that failed high.
    root_best: Option<u8>,
    /// Progress lines on stderr (main thread of a `tablero solve`): when the probe started and
    /// when the next line is due.
    progress: Option<(Instant, Instant)>,
}

impl<'a, const M: usize> Worker<'a, M> {
    /// The value of move `mv` from the mover's view, searched with window `(alpha, beta)`.
    #[inline]
    fn child(&mut self, mv: &Played, alpha: i32, beta: i32) -> i32 {
        let g = mv.gain;
        match mv.next {
            Next::Over => g,
            Next::Again => g + self.search::<false>(&mv.board, mv.seeds, alpha - g, beta - g),
            Next::Other => g - self.search::<false>(&mv.board, mv.seeds, g - beta, g - alpha),
        }
    }

    fn new(sh: &'a Shared, budget: &'a Budget, done: &'a AtomicBool, id: usize) -> Self {
        Worker {
            sh,
            budget,
            done,
            id,
            nodes: 0,
            filled: 0,
            next_poll: POLL,
            next_fill_poll: POLL,
            aborted: false,
            root_best: None,
            progress: None,
        }
    }

    #[inline]
    fn key(&self, b: &Board) -> u64 {
        if M == 6 {
            self.sh.ranker.rank_in::<12>(&b.p, self.sh.total)
        } else {
            self.sh.ranker.rank(&b.p, self.sh.total)
        }
    }

    /// Exact future value of a position with at most `db.k` seeds, memoised.
    fn db_value(&mut self, b: &Board, seeds: usize) -> i32 {
        if seeds == 0 {
            return 0;
        }
        if let Some(f) = &self.sh.full
            && seeds <= f.seeds()
        {
            return f.value_in::<M>(b, seeds);
        }
        let m = if M > 0 { M } else { self.sh.m };
        let idx = self.sh.ranker.rank(&b.p, self.sh.db.k) as usize;
        let v = self.sh.db.values[idx].load(Ordering::Relaxed);
        if v != UNKNOWN {
            return v as i32 - 128;
        }
        self.nodes += 1;
        if self.nodes >= self.next_fill_poll {
            self.next_fill_poll = self.nodes + POLL;
            if self.budget.expired() || self.done.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        if self.aborted {
            // Nothing is stored: an aborted fill's value is not exact.
            return 0;
        }
        // Look all children up before recursing into any: the loads are independent, so their
        // cache misses overlap.
        let mut kids = [(Played::NONE, UNKNOWN); MAX_SOLVER_PITS];
        let mut n = 0;
        for t0 in 0..m {
            if b.p[t0] == 0 {
                continue;
            }
            let mv = b.play_in::<M>(m, t0, self.sh.ec);
            let v = if mv.next == Next::Over {
                UNKNOWN
            } else {
                let i = self.sh.ranker.rank(&mv.board.p, self.sh.db.k) as usize;
                self.sh.db.values[i].load(Ordering::Relaxed)
            };
            kids[n] = (mv, v);
            n += 1;
        }
        let mut best = i32::MIN;
        for &(mv, v) in &kids[..n] {
            let c = if v != UNKNOWN {
                v as i32 - 128
            } else if mv.next == Next::Over {
                0
            } else {
                let c = self.db_value(&mv.board, mv.seeds);
                if self.aborted {
                    return 0;
                }
                c
            };
            let v = match mv.next {
                Next::Over => mv.gain,
                Next::Again => mv.gain + c,
                Next::Other => mv.gain - c,
            };
            best = best.max(v);
        }
        self.sh.db.values[idx].store((best + 128) as u8, Ordering::Relaxed);
        self.filled += 1;
        best
    }

    /// Fail-soft alpha-beta on the future value of a running position (mover to play). At the
    /// root (`ROOT`) the table's and children's bounds are not allowed to end the search, so
    /// that a fail high names the move that proved it (`root_best`).
    fn search<const ROOT: bool>(
        &mut self,
        b: &Board,
        seeds: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if !ROOT && seeds <= self.sh.dbk {
            return self.db_value(b, seeds);
        }
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            // Database fills count nodes too, so poll by threshold, not by exact multiples.
            self.next_poll = self.nodes + POLL;
            if self.budget.nodes.is_some_and(|n| self.nodes >= n)
                || self.budget.expired()
                || self.done.load(Ordering::Relaxed)
            {
                self.aborted = true;
            }
            if let Some((start, due)) = self.progress
                && Instant::now() >= due
            {
                self.progress = Some((start, Instant::now() + PROGRESS_EVERY));
                eprintln!(
                    "info string kalah probe running: {} nodes on this thread, {:.0} s",
                    self.nodes,
                    start.elapsed().as_secs_f64()
                );
            }
        }
        if self.aborted {
            return 0;
        }
        let m = if M > 0 { M } else { self.sh.m };
        let table = &self.sh.table;
        // The future gain can never exceed the seeds still in pits.
        let mut lo = -(seeds as i32);
        let mut hi = seeds as i32;
        let key = table.slot(self.key(b));
        let mut tt_best = u8::MAX;
        if let Some(e) = table.get(key) {
            tt_best = e.best;
            if !ROOT {
                lo = lo.max(e.lo);
                hi = hi.min(e.hi);
            }
        }
        if lo >= hi || lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);

        // Play every move first (cheap), then order: table move, extra turns (nearest the
        // store first, so the others keep theirs), then by immediate gain.
        let mut kids: [(i32, u8, Played); MAX_SOLVER_PITS] =
            [(0, 0, Played::NONE); MAX_SOLVER_PITS];
        let mut n = 0;
        for t0 in (0..m).rev() {
            if b.p[t0] == 0 {
                continue;
            }
            let mv = b.play_in::<M>(m, t0, self.sh.ec);
            let k = if t0 as u8 == tt_best {
                1 << 20
            } else {
                (if mv.next == Next::Again { 1 << 16 } else { 0 }) + mv.gain * 8
            };
            let mut j = n;
            while j > 0 && kids[j - 1].0 < k {
                kids[j] = kids[j - 1];
                j -= 1;
            }
            kids[j] = (k, t0 as u8, mv);
            n += 1;
        }
        if self.id > 0 && n > 2 && (seeds + self.id).is_multiple_of(3) {
            // Lazy SMP: a helper takes a different second move here and there, so that it
            // reaches other parts of the tree first and fills the table for the main thread.
            kids.swap(1, 2);
        }
        // Children whose values are known without a search: those that end the game or lie
        // in the database are exact, and near the root the table bounds the others (enhanced
        // transposition cutoff, ETC). A child already refuting this node saves its search; a
        // move whose upper bound (from this node's view) cannot beat alpha is not searched (it
        // still counts for `best`); an exact one needs no search at all. The table part costs
        // a cache miss per child, which only pays where subtrees are large (see `ETC_SEEDS`).
        let db = &self.sh.db;
        let etc = seeds >= self.sh.dbk + ETC_SEEDS;
        let mut ub = [i32::MAX; MAX_SOLVER_PITS];
        let mut exact = [false; MAX_SOLVER_PITS];
        for (i, (_, t0, mv)) in kids[..n].iter().enumerate() {
            let (v, u) = if mv.next == Next::Over {
                exact[i] = true;
                (mv.gain, mv.gain)
            } else if mv.seeds <= self.sh.dbk {
                let c = match &self.sh.full {
                    Some(f) if mv.seeds <= f.seeds() => f.value_in::<M>(&mv.board, mv.seeds),
                    _ => {
                        let idx = self.sh.ranker.rank(&mv.board.p, db.k) as usize;
                        let c = db.values[idx].load(Ordering::Relaxed);
                        if c == UNKNOWN {
                            continue;
                        }
                        c as i32 - 128
                    }
                };
                exact[i] = true;
                let v = if mv.next == Next::Again {
                    mv.gain + c
                } else {
                    mv.gain - c
                };
                (v, v)
            } else if !etc {
                continue;
            } else if let Some(e) = table.get(table.slot(self.key(&mv.board))) {
                if mv.next == Next::Again {
                    (mv.gain + e.lo, mv.gain + e.hi)
                } else {
                    (mv.gain - e.hi, mv.gain - e.lo)
                }
            } else {
                continue;
            };
            ub[i] = u;
            if v >= beta && !ROOT {
                table.put(key, seeds, v, hi, *t0);
                return v;
            }
        }
        let alpha0 = alpha;
        let mut best = i32::MIN;
        let mut best_t = kids[0].1;
        for (i, (_, t0, mv)) in kids[..n].iter().enumerate() {
            if ub[i] <= alpha {
                if ub[i] > best {
                    best = ub[i];
                    best_t = *t0;
                }
                continue;
            }
            let v = if exact[i] {
                ub[i]
            } else {
                self.child(mv, alpha, beta)
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_t = *t0;
            }
            if v >= beta {
                break;
            }
            alpha = alpha.max(v);
        }
        let (slo, shi) = if best >= beta {
            if ROOT {
                self.root_best = Some(best_t);
            }
            (best, hi)
        } else if best <= alpha0 {
            (lo, best)
        } else {
            (best, best)
        };
        table.put(key, seeds, slo.max(lo), shi.min(hi), best_t);
        best
    }
}

impl Solver {
    /// A solver for `pits` pits per side and at most `total` seeds, using about `mib` MiB,
    /// split between the table and the database.
    ///
    /// # Errors
    /// Unsupported pit counts, or seed totals whose positions cannot be ranked in 64 bits.
    pub fn new(pits: usize, total: usize, mib: usize) -> Result<Self, SolveError> {
        Self::with_database(pits, total, mib, Rules::Course, None)
    }

    /// A solver playing by `rules` that uses the bottom-up database `full` (same board size
    /// and rules) for the positions it covers; the table then gets all `mib` MiB (unless the
    /// database is shallower than the run-time one would be, which then fills above it).
    ///
    /// # Errors
    /// As [`Solver::new`], and a database of another board size or rules.
    pub fn with_database(
        pits: usize,
        total: usize,
        mib: usize,
        rules: Rules,
        full: Option<Arc<KalahDb>>,
    ) -> Result<Self, SolveError> {
        if let Some(f) = &full
            && (f.pits() != pits || f.rules() != rules)
        {
            return Err(SolveError::WrongDatabase);
        }
        if pits == 0 || pits > MAX_SOLVER_PITS {
            return Err(SolveError::Pits {
                pits,
                max: MAX_SOLVER_PITS,
            });
        }
        let total = total.max(1);
        if total > u8::MAX as usize {
            return Err(SolveError::Seeds(total));
        }
        let ranker = Ranker::new(2 * pits, total);
        let keys = ranker.count(total);
        if keys == u64::MAX {
            return Err(SolveError::TooManyPositions {
                seeds: total,
                pits: 2 * pits,
            });
        }
        let bytes = mib.max(1) << 20;
        // A bottom-up database at least as deep as the run-time one replaces it (a cache
        // file with few intact layers does not).
        let deep = full
            .as_ref()
            .is_some_and(|f| f.seeds() >= db_max_seeds(total).min(total));
        let db = Database::new(&ranker, total, if deep { 0 } else { bytes / 2 });
        let table = Table::new(bytes.saturating_sub(db.bytes()), keys, total)?;
        let dbk = db.k.max(full.as_ref().map_or(0, |f| f.seeds()));
        Ok(Solver {
            sh: Shared {
                m: pits,
                total,
                ranker,
                table,
                db,
                full,
                dbk,
                ec: rules == Rules::EmptyCapture,
            },
            threads: 1,
            budget: Budget::default(),
            nodes: 0,
            span: 0,
            filled: 0,
            last: None,
            progress: false,
        })
    }

    /// Limits the next solves (node budget per solve and thread, deadline, external stop
    /// flag); a solve that hits one returns `None`.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Progress lines on stderr during solves (each MTD(f) probe, and every 10 s within one).
    pub fn set_progress(&mut self, on: bool) {
        self.progress = on;
    }

    /// Threads for the next solves (Lazy SMP over the shared table; 1, the default, gives
    /// reproducible node counts and moves, more only the same scores).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Forgets the table and the database (so that the next solve's node count and budget use
    /// do not depend on earlier solves).
    pub fn clear(&mut self) {
        self.sh.table.clear();
        for v in &self.sh.db.values {
            v.store(UNKNOWN, Ordering::Relaxed);
        }
        self.filled = 0;
        self.last = None;
    }

    /// Pits per side this solver handles.
    pub fn pits(&self) -> usize {
        self.sh.m
    }

    /// Bytes held by the table and the database.
    pub fn memory(&self) -> usize {
        self.sh.table.bytes() + self.sh.db.bytes()
    }

    /// Solves `s`: the exact final margin for the side to move and an optimal pit. `None` if
    /// stopped or the position does not fit this solver.
    pub fn solve(&mut self, s: &Mancala) -> Option<Solution> {
        if s.pits() != self.sh.m || s.total_seeds() as usize > self.sh.total {
            return None;
        }
        self.nodes = 0;
        self.span = 0;
        let me = s.side_to_move();
        let base = s.store(me) as i32 - s.store(me.other()) as i32;
        if s.outcome().is_some() {
            return Some(Solution {
                score: base,
                best: None,
                nodes: 1,
                db_seeds: self.sh.dbk,
            });
        }
        let b = board_of(s);
        let seeds = b.seeds(self.sh.m);
        let (v, t0) = self.value(&b, seeds)?;
        self.last = Some((b, v, t0));
        Some(Solution {
            score: base + v,
            best: Some((self.sh.m - t0) as u8),
            nodes: self.nodes,
            db_seeds: self.sh.dbk,
        })
    }

    /// An optimal move (relative index) of a running board whose future value is known to be
    /// `v`: the first in pit order 1..m whose child provably reaches `v`. `None` if stopped.
    fn best_given(&mut self, b: &Board, v: i32) -> Option<Option<usize>> {
        if self.sh.m == 6 {
            self.best_given_in::<6>(b, v)
        } else {
            self.best_given_in::<0>(b, v)
        }
    }

    /// [`Solver::best_given`] compiled for `M` pits a side (0: any).
    fn best_given_in<const M: usize>(&mut self, b: &Board, v: i32) -> Option<Option<usize>> {
        Some(self.reaching_in::<M>(b, v, true)?.first().copied())
    }

    /// The moves (relative indices, in pit order 1..m) of a running board whose child provably
    /// reaches at least `v` (future value): the first only when `first`. `None` if stopped.
    fn reaching(&mut self, b: &Board, v: i32) -> Option<Vec<usize>> {
        if self.sh.m == 6 {
            self.reaching_in::<6>(b, v, false)
        } else {
            self.reaching_in::<0>(b, v, false)
        }
    }

    /// [`Solver::reaching`] compiled for `M` pits a side (0: any).
    fn reaching_in<const M: usize>(
        &mut self,
        b: &Board,
        v: i32,
        first: bool,
    ) -> Option<Vec<usize>> {
        let m = self.sh.m;
        let done = AtomicBool::new(false);
        let mut w = Worker::<M>::new(&self.sh, &self.budget, &done, 0);
        let mut found = Vec::new();
        for pit in 1..=m {
            let t0 = m - pit;
            if b.p[t0] == 0 {
                continue;
            }
            let mv = b.play(m, t0, self.sh.ec);
            let g = mv.gain;
            let ok = match mv.next {
                Next::Over => g >= v,
                Next::Again => g + w.search::<false>(&mv.board, mv.seeds, v - g - 1, v - g) >= v,
                Next::Other => g - w.search::<false>(&mv.board, mv.seeds, g - v, g - v + 1) >= v,
            };
            if w.aborted {
                break;
            }
            if ok {
                found.push(t0);
                if first {
                    break;
                }
            }
        }
        self.nodes += w.nodes;
        self.filled += w.filled;
        if w.aborted { None } else { Some(found) }
    }

    /// A principal variation from `s` whose value is `score` (as `solve` returned it): moves
    /// (course pit numbers) for both sides, each optimal for the final margin, to the end of
    /// the game; it starts with the move `solve` gave for `s`. Kalah is solved for the margin,
    /// not the distance, so its length is one optimal line's, not the shortest win. `None` if
    /// stopped; the nodes spent are added to `nodes`.
    pub fn principal_variation(
        &mut self,
        s: &Mancala,
        score: i32,
        nodes: &mut u64,
    ) -> Option<Vec<u8>> {
        if s.pits() != self.sh.m || s.total_seeds() as usize > self.sh.total {
            return None;
        }
        self.nodes = 0;
        let m = self.sh.m;
        let me = s.side_to_move();
        let mut v = score - (s.store(me) as i32 - s.store(me.other()) as i32);
        let mut b = board_of(s);
        let mut first = self.last.filter(|l| l.0 == b && l.1 == v).map(|l| l.2);
        let mut line = Vec::new();
        let result = loop {
            let best = match first.take() {
                Some(t0) => Some(t0),
                None => match self.best_given(&b, v) {
                    None => break None,
                    Some(t) => t,
                },
            };
            let Some(t0) = best else {
                break Some(line);
            };
            line.push((m - t0) as u8);
            let mv = b.play(m, t0, self.sh.ec);
            match mv.next {
                Next::Over => break Some(line),
                Next::Again => v -= mv.gain,
                Next::Other => v = mv.gain - v,
            }
            b = mv.board;
        };
        *nodes += self.nodes;
        result
    }

    /// One null-window probe of the root (value `>= beta`?) on every thread; the first thread
    /// to finish gives the (fail-soft) result and, on a fail high, the move that proved it.
    /// `None` if stopped.
    fn probe(&mut self, b: &Board, seeds: usize, beta: i32) -> Option<(i32, Option<u8>)> {
        let done = AtomicBool::new(false);
        let progress = self.progress;
        let (sh, budget, done) = (&self.sh, &self.budget, &done);
        // The standard board's search compiled for its size (masks and loops constant).
        let run = |id: usize| {
            if sh.m == 6 {
                probe_on::<6>(sh, budget, done, id, progress, b, seeds, beta)
            } else {
                probe_on::<0>(sh, budget, done, id, progress, b, seeds, beta)
            }
        };
        let results: Vec<_> = if self.threads <= 1 {
            vec![run(0)]
        } else {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..self.threads)
                    .map(|id| scope.spawn(move || run(id)))
                    .collect();
                let mut out = vec![run(0)];
                out.extend(
                    helpers
                        .into_iter()
                        .map(|h| h.join().expect("solver thread")),
                );
                out
            })
        };
        let mut answer = None;
        self.span += results.iter().map(|x| x.3).max().unwrap_or(0);
        for (r, best, aborted, nodes, filled) in results {
            self.nodes += nodes;
            self.filled += filled;
            if !aborted && answer.is_none() {
                answer = Some((r, best));
            }
        }
        answer
    }

    /// MTD(f): null-window probes from a first guess of 0 until the bounds meet. Returns the
    /// future value and an optimal move (relative index). `None` if stopped.
    fn value(&mut self, b: &Board, seeds: usize) -> Option<(i32, usize)> {
        let (mut lo, mut hi) = (-(seeds as i32), seeds as i32);
        let mut g = 0;
        let mut best = None;
        let t = Instant::now();
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            let (r, t0) = self.probe(b, seeds, beta)?;
            if r < beta {
                hi = r;
            } else {
                lo = r;
                best = t0;
            }
            g = r;
            if self.progress {
                eprintln!(
                    "info string kalah probe {} {beta}: {r}, future gain in {lo}..={hi}, {} \
                     nodes ({} on the busiest thread), {:.1} s",
                    if r < beta {
                        "fails low at"
                    } else {
                        "fails high at"
                    },
                    self.nodes,
                    self.span,
                    t.elapsed().as_secs_f64()
                );
            }
        }
        // No probe failed high only if every move is worth the minimum, -seeds: any will do.
        let m = self.sh.m;
        let t0 = best.map_or_else(
            || (0..m).rev().find(|&t| b.p[t] > 0).unwrap_or(0),
            usize::from,
        );
        Some((lo, t0))
    }

    /// Largest seed count the endgame database covers.
    pub fn db_seeds(&self) -> usize {
        self.sh.dbk
    }

    /// Positions the database holds so far.
    pub fn db_filled(&self) -> u64 {
        self.filled
    }
}

/// One thread's share of a root probe (see `Solver::probe`): the fail-soft result, the move
/// that proved a fail high, whether it gave up, its nodes and database fills.
#[allow(clippy::too_many_arguments)]
fn probe_on<const M: usize>(
    sh: &Shared,
    budget: &Budget,
    done: &AtomicBool,
    id: usize,
    progress: bool,
    b: &Board,
    seeds: usize,
    beta: i32,
) -> (i32, Option<u8>, bool, u64, u64) {
    let mut w = Worker::<M>::new(sh, budget, done, id);
    if progress && id == 0 {
        w.progress = Some((Instant::now(), Instant::now() + PROGRESS_EVERY));
    }
    let r = w.search::<true>(b, seeds, beta - 1, beta);
    if !w.aborted {
        done.store(true, Ordering::Relaxed);
    }
    (r, w.root_best, w.aborted, w.nodes, w.filled)
}

/// Solves the start position of Kalah(`pits`, `seeds`), returning the solution and the time.
pub fn solve_start(pits: u8, seeds: u8, mib: usize) -> Result<(Solution, f64), SolveError> {
    let cfg = Mancala::configure(&[pits as i64, seeds as i64])?;
    let s = Mancala::start(&cfg);
    let t = Instant::now();
    let mut solver = Solver::new(pits as usize, 2 * pits as usize * seeds as usize, mib)?;
    let sol = solver.solve(&s).ok_or(SolveError::Stopped {
        ms: t.elapsed().as_millis(),
    })?;
    Ok((sol, t.elapsed().as_secs_f64()))
}

impl ExactSolver for Solver {
    type G = Mancala;
    /// Pits per side and seeds in all.
    type Key = (usize, u32);

    fn key(root: &Mancala) -> (usize, u32) {
        (root.pits(), root.total_seeds())
    }

    /// The course's rules, with the endgame database of the cache when there is one (see
    /// `kalahdb::cached`).
    fn build((pits, total): (usize, u32), hash_mib: usize) -> Option<Solver> {
        let db = kalahdb::cached(pits, total as usize, Rules::Course);
        Solver::with_database(pits, total as usize, hash_mib, Rules::Course, db).ok()
    }

    fn worth_trying(m: &Mancala, any_size: bool) -> bool {
        m.pits() <= MAX_SOLVER_PITS
            && (any_size || m.pit_seeds(Side::First) + m.pit_seeds(Side::Second) <= KALAH_MAX_SEEDS)
    }

    fn worth_trying_in_play(m: &Mancala) -> bool {
        m.pits() <= MAX_SOLVER_PITS
            && m.pit_seeds(Side::First) + m.pit_seeds(Side::Second) <= KALAH_MAX_SEEDS_WITH_DB
            && kalahdb::is_cached(m.pits(), m.total_seeds() as usize, Rules::Course)
    }

    /// Three quarters where the database is cached: of the 299 positions (39 to 47 seeds in
    /// pits) where tablero's 2 s moves against the course bots had not been proven in a third,
    /// 46 % are proven within 1.5 s and the search's 0.5 s moves lose no value the 2 s ones
    /// kept (docs/players.md, "No lost value").
    fn time_share(m: &Mancala) -> (u32, u32) {
        if Self::worth_trying_in_play(m) {
            (3, 4)
        } else {
            (1, 3)
        }
    }

    fn prove(&mut self, s: &Mancala, budget: &Budget, fresh: bool) -> Option<Proof> {
        if fresh {
            self.clear();
        }
        self.set_budget(budget.clone());
        let sol = self.solve(s)?;
        let best = sol.best?;
        let mut nodes = sol.nodes;
        self.set_budget(pv_budget(budget));
        let line = self.principal_variation(s, sol.score, &mut nodes);
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

    /// The moves that keep the proven result: each child tested with a null window at the
    /// result's edge (a final margin of 1 for a win, 0 for a draw), on the table the proof
    /// filled; in a lost position every move keeps it.
    fn keeping_moves(
        &mut self,
        s: &Mancala,
        proof: &Proof,
        budget: &Budget,
    ) -> Option<Vec<String>> {
        let mut legal = <Mancala as Game>::Moves::default();
        s.legal_moves(&mut legal);
        let all = || legal.iter().map(|&m| s.format_move(m)).collect::<Vec<_>>();
        if proof.cp < 0 {
            return Some(all());
        }
        let me = s.side_to_move();
        let base = s.store(me) as i32 - s.store(me.other()) as i32;
        let edge = if proof.cp > 0 { 1 } else { 0 };
        self.set_budget(budget.clone());
        let b = board_of(s);
        let found = self.reaching(&b, edge - base)?;
        Some(
            found
                .into_iter()
                .map(|t0| s.format_move((self.sh.m - t0) as u8))
                .collect(),
        )
    }

    /// An empty table for every solve: a position's proof never depends on the ones before.
    /// No distance: the solver maximises the margin, not the speed of the win.
    fn verdict(&mut self, s: &Mancala, budget: &Budget) -> Option<Verdict> {
        self.clear();
        self.set_budget(budget.clone());
        let sol = self.solve(s)?;
        let best = sol.best?;
        Some(Verdict {
            wdl: match sol.score {
                0 => Wdl::Draw,
                v if v > 0 => Wdl::Win,
                _ => Wdl::Loss,
            },
            plies: None,
            best: s.format_move(best),
        })
    }

    fn solve_reporting(
        s: &Mancala,
        hash_mib: usize,
        budget: Budget,
        line: &(dyn Fn(&str) + Sync),
    ) -> Result<Option<Solved>, SolveError> {
        let mut solver = Solver::new(s.pits(), s.total_seeds() as usize, hash_mib)?;
        solver.set_threads(PROTOCOL_THREADS);
        solver.set_budget(budget);
        line(&format!(
            "info string solving kalah with {hash_mib} MiB, endgame database up to {} seeds",
            solver.db_seeds()
        ));
        Ok(solver.solve(s).map(|sol| Solved {
            score: sol.score,
            best: sol.best.map(|m| s.format_move(m)),
            nodes: sol.nodes,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boards the solver cannot rank, and a database of another size, are refused as values
    /// that say why; the accepted boards still build.
    #[test]
    fn refused_boards_say_why() {
        let err = |r: Result<Solver, SolveError>| r.err().expect("refused");
        assert_eq!(
            err(Solver::new(8, 16, 1)),
            SolveError::Pits { pits: 8, max: 7 }
        );
        assert_eq!(
            err(Solver::new(8, 16, 1)).to_string(),
            "the Kalah solver handles 1..=7 pits per side, not 8"
        );
        assert_eq!(
            err(Solver::new(0, 16, 1)),
            SolveError::Pits { pits: 0, max: 7 }
        );
        assert_eq!(err(Solver::new(6, 300, 1)), SolveError::Seeds(300));
        let db = Arc::new(KalahDb::build(4, Rules::Course, 2, 1, &|_| {}));
        assert_eq!(
            err(Solver::with_database(
                5,
                20,
                1,
                Rules::Course,
                Some(db.clone())
            )),
            SolveError::WrongDatabase
        );
        assert!(Solver::with_database(4, 16, 1, Rules::Course, Some(db)).is_ok());
        assert!(Solver::new(7, 16, 1).is_ok());
    }

    /// The table's multiply-shift division agrees with `/` and `%` for keys up to the largest
    /// rank, and bounds, moves and seeds survive packing.
    #[test]
    fn table_slots_and_entries_round_trip() {
        let ranker = Ranker::new(12, 48);
        let keys = ranker.count(48);
        let t = Table::new(1 << 20, keys, 48).unwrap();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let key = x % keys;
            let (i, q) = t.slot(key);
            assert_eq!(q, key / t.buckets);
            assert_eq!((i - t.base) / WAYS, (key % t.buckets) as usize);
        }
        let (i, q) = t.slot(keys - 1);
        assert_eq!(
            (q, (i - t.base) / WAYS),
            ((keys - 1) / t.buckets, ((keys - 1) % t.buckets) as usize)
        );
        t.put(t.slot(12345), 48, -48, 48, 5);
        t.put(t.slot(12345), 30, -3, 7, 2);
        assert_eq!(
            t.get(t.slot(12345)),
            Some(Entry {
                lo: -3,
                hi: 7,
                best: 2
            })
        );
        assert_eq!(t.get(t.slot(12346)), None);
    }

    /// The solver's relative sowing must agree with `Mancala::apply` move by move: same child
    /// pits (oriented for the next mover), same net gain, same turn handling, same end.
    #[test]
    fn relative_play_matches_the_game() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut checked = 0;
        for m in 1..=7u8 {
            for n in 1..=10u8 {
                for _ in 0..30 {
                    let mut s = Mancala::start(&Mancala::configure(&[m as i64, n as i64]).unwrap());
                    while s.outcome().is_none() {
                        let mut moves = crate::games::mancala::MancalaMoves::new();
                        s.legal_moves(&mut moves);
                        let pit = moves[(next() % moves.len() as u64) as usize];
                        let c = s.apply(pit);
                        let me = s.side_to_move();
                        let b = board_of(&s);
                        let mv = b.play(m as usize, m as usize - pit as usize, false);
                        let gain = (c.store(me) as i32 - s.store(me) as i32)
                            - (c.store(me.other()) as i32 - s.store(me.other()) as i32);
                        assert_eq!(mv.gain, gain, "gain of pit {pit} in {}", s.format_fen());
                        if c.outcome().is_some() {
                            assert_eq!(mv.next, Next::Over, "{}", s.format_fen());
                        } else {
                            let want = if c.side_to_move() == me {
                                Next::Again
                            } else {
                                Next::Other
                            };
                            assert_eq!(mv.next, want, "{}", s.format_fen());
                            assert_eq!(mv.board, board_of(&c), "{}", s.format_fen());
                            assert_eq!(mv.seeds, mv.board.seeds(m as usize));
                        }
                        checked += 1;
                        s = c;
                    }
                }
            }
        }
        assert!(checked > 10_000);
    }
}
