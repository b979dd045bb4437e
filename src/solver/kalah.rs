//! Exact Kalah solver (the game's own rules, via `Mancala::apply`): the value of a position is
//! the final store margin for the side to move with both sides perfect.
//!
//! What is searched is the *future* net gain `v` of the side to move (final margin minus the
//! current store difference): it depends only on the seeds in the pits, not on the stores, so
//! the table key is the pits alone, oriented from the mover's side (the rules are symmetric, so
//! a position and its colour-swapped twin share an entry).
//!
//! - Root: MTD(f) null-window probes with fail-soft bounds.
//! - Inner nodes: alpha-beta over a two-bound table with exact keys (the pits packed into a
//!   `u128`), ordered by the table's best move, then extra turns, then captures.
//! - Endgame database built at run time: positions with at most `K` seeds in pits get a dense
//!   array indexed by the combinatorial rank of their pit vector, filled lazily with exact
//!   values (a full-window search that only ever reaches smaller-or-equal seed counts, since
//!   seeds never leave the stores). `K` is the largest count whose array fits the budget.

use std::time::Instant;

use crate::core::game::{Game, Side};
use crate::games::mancala::{Mancala, MancalaMoves, MoveKind};

/// Largest number of pits per side the solver handles (two rows must pack into a `u128`).
pub const MAX_SOLVER_PITS: usize = 7;

/// Binomial coefficients up to what the database rank needs.
struct Binom {
    c: Vec<Vec<u64>>,
}

impl Binom {
    fn new(n: usize) -> Self {
        let mut c = vec![vec![0u64; n + 1]; n + 1];
        for i in 0..=n {
            c[i][0] = 1;
            for j in 1..=i {
                c[i][j] = c[i - 1][j - 1].saturating_add(c[i - 1][j]);
            }
        }
        Binom { c }
    }
    #[inline]
    fn get(&self, n: usize, k: usize) -> u64 {
        if k > n { 0 } else { self.c[n][k] }
    }
}

/// The lazily filled endgame database: one `i8` per pit vector with at most `k` seeds.
struct Database {
    k: usize,
    /// Number of pits in all (2m).
    n: usize,
    binom: Binom,
    /// Value + 128, or `UNKNOWN` (0): zero means "not computed yet", so the array can come
    /// from lazily zeroed memory and only the pages actually reached cost anything.
    values: Vec<u8>,
    filled: u64,
}

const UNKNOWN: u8 = 0;

impl Database {
    /// The largest `k` whose table (C(k + n, n) bytes) fits `budget` bytes; values must fit an
    /// `i8`, so `k <= 127`.
    fn new(n: usize, total: usize, budget: usize) -> Self {
        let binom = Binom::new(200);
        let mut k = 0;
        let cap: usize = std::env::var("TABLERO_DB_K")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(126);
        while k < total.min(cap) && (binom.get(k + 1 + n, n) as usize) <= budget {
            k += 1;
        }
        let size = binom.get(k + n, n) as usize;
        Database {
            k,
            n,
            binom,
            values: vec![0u8; size],
            filled: 0,
        }
    }

    /// Rank of a pit vector with at most `k` seeds among all such vectors (lexicographic).
    #[inline]
    fn rank(&self, pits: &[u8]) -> usize {
        let mut budget = self.k;
        let mut r = 0u64;
        for (i, &x) in pits.iter().enumerate() {
            let x = x as usize;
            let rest = self.n - i - 1;
            // Vectors whose pit i holds fewer than x seeds: sum over j < x of C(budget-j+rest,
            // rest) = C(budget+rest+1, rest+1) - C(budget-x+rest+1, rest+1) (hockey stick).
            r += self.binom.get(budget + rest + 1, rest + 1)
                - self.binom.get(budget - x + rest + 1, rest + 1);
            budget -= x;
        }
        r as usize
    }
}

/// One table entry: exact key, both bounds, best move.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: [u64; 2],
    lo: i16,
    hi: i16,
    /// Best move (pit number), 0 = none.
    best: u8,
    /// Seeds in pits (a proxy for subtree size, for replacement); 0 = empty slot.
    seeds: u8,
}

struct Table {
    slots: Vec<Entry>,
    buckets: usize,
}

impl Table {
    fn new(bytes: usize) -> Self {
        let n = (bytes / std::mem::size_of::<Entry>()).max(2) & !1;
        Table {
            slots: vec![Entry::default(); n],
            buckets: n / 2,
        }
    }
    #[inline]
    fn bucket(&self, key: [u64; 2]) -> usize {
        let h = mix(key[0] ^ mix(key[1]));
        2 * (((h as u128 * self.buckets as u128) >> 64) as usize)
    }
    #[inline]
    fn get(&self, key: [u64; 2]) -> Option<Entry> {
        let i = self.bucket(key);
        self.slots[i..i + 2]
            .iter()
            .find(|e| e.seeds != 0 && e.key == key)
            .copied()
    }
    #[inline]
    fn put(&mut self, key: [u64; 2], seeds: u8, lo: i32, hi: i32, best: u8) {
        let i = self.bucket(key);
        let mut e = Entry {
            key,
            lo: lo as i16,
            hi: hi as i16,
            best,
            seeds: seeds.max(1),
        };
        for j in i..i + 2 {
            if self.slots[j].seeds != 0 && self.slots[j].key == key {
                e.lo = e.lo.max(self.slots[j].lo);
                e.hi = e.hi.min(self.slots[j].hi);
                self.slots[j] = e;
                return;
            }
        }
        if self.slots[i].seeds <= e.seeds {
            self.slots[i + 1] = self.slots[i];
            self.slots[i] = e;
        } else {
            self.slots[i + 1] = e;
        }
    }
}

#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
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

/// A Kalah solver for one board size; keeps its table and database between solves.
pub struct Solver {
    pits: usize,
    table: Table,
    db: Database,
    nodes: u64,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    aborted: bool,
}

impl Solver {
    /// A solver for `pits` pits per side and at most `total` seeds, using about `mib` MiB,
    /// split between the table and the database.
    pub fn new(pits: usize, total: usize, mib: usize) -> Result<Self, String> {
        if pits == 0 || pits > MAX_SOLVER_PITS {
            return Err(format!(
                "the Kalah solver handles 1..={MAX_SOLVER_PITS} pits per side, not {pits}"
            ));
        }
        let bytes = mib.max(1) << 20;
        Ok(Solver {
            pits,
            table: Table::new(bytes / 2),
            db: Database::new(2 * pits, total, bytes / 2),
            nodes: 0,
            stop: None,
            aborted: false,
        })
    }

    /// Polls `flag` during the search; a set flag makes `solve` return `None`.
    pub fn set_stop(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.stop = Some(flag);
    }

    /// The mover-oriented pit vector of `s`: mover's pits, then the opponent's, ring order.
    #[inline]
    fn pits_of(&self, s: &Mancala, out: &mut [u8; 2 * MAX_SOLVER_PITS]) -> usize {
        let m = self.pits;
        let ring = s.ring();
        let (a, b) = match s.side_to_move() {
            Side::First => (0, m + 1),
            Side::Second => (m + 1, 0),
        };
        out[..m].copy_from_slice(&ring[a..a + m]);
        out[m..2 * m].copy_from_slice(&ring[b..b + m]);
        out[..2 * m].iter().map(|&x| x as usize).sum()
    }

    /// Net store gain of `side` from `s` to `t`.
    #[inline]
    fn gain(s: &Mancala, t: &Mancala, side: Side) -> i32 {
        (t.store(side) as i32 - s.store(side) as i32)
            - (t.store(side.other()) as i32 - s.store(side.other()) as i32)
    }

    /// Value of a child: the net gain of the move plus the child's future value, seen from the
    /// mover (negated when the turn passes).
    #[inline]
    fn child_frame(s: &Mancala, c: &Mancala) -> (i32, bool) {
        let me = s.side_to_move();
        (Self::gain(s, c, me), c.side_to_move() == me)
    }

    /// Exact future value of a position with at most `db.k` seeds in pits, memoised.
    fn db_value(&mut self, s: &Mancala, pits: &[u8], seeds: usize) -> i32 {
        if seeds == 0 || s.outcome().is_some() {
            return 0;
        }
        let idx = self.db.rank(pits);
        let v = self.db.values[idx];
        if v != UNKNOWN {
            return v as i32 - 128;
        }
        self.nodes += 1;
        let mut moves = MancalaMoves::new();
        s.legal_moves(&mut moves);
        let mut best = i32::MIN;
        let mut buf = [0u8; 2 * MAX_SOLVER_PITS];
        for &m in &moves {
            let c = s.apply(m);
            let (g, same) = Self::child_frame(s, &c);
            let v = if c.outcome().is_some() {
                g
            } else {
                let cs = self.pits_of(&c, &mut buf);
                let cp = buf;
                let cv = self.db_value(&c, &cp[..2 * self.pits], cs);
                if same { g + cv } else { g - cv }
            };
            best = best.max(v);
        }
        self.db.values[idx] = (best + 128) as u8;
        self.db.filled += 1;
        best
    }

    #[inline]
    fn key_of(pits: &[u8]) -> [u64; 2] {
        let mut b = [0u8; 16];
        b[..pits.len()].copy_from_slice(pits);
        let mut lo = [0u8; 8];
        let mut hi = [0u8; 8];
        lo.copy_from_slice(&b[..8]);
        hi.copy_from_slice(&b[8..]);
        [u64::from_le_bytes(lo), u64::from_le_bytes(hi)]
    }

    /// Fail-soft alpha-beta on the future value of a running position.
    fn search(&mut self, s: &Mancala, mut alpha: i32, mut beta: i32) -> i32 {
        let mut buf = [0u8; 2 * MAX_SOLVER_PITS];
        let seeds = self.pits_of(s, &mut buf);
        let pits = &buf[..2 * self.pits];
        if seeds <= self.db.k {
            let p = buf;
            return self.db_value(s, &p[..2 * self.pits], seeds);
        }
        self.nodes += 1;
        if self.nodes & 4095 == 0
            && let Some(f) = &self.stop
            && f.load(std::sync::atomic::Ordering::Relaxed)
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        // The future gain can never exceed the seeds still in pits.
        let mut lo = -(seeds as i32);
        let mut hi = seeds as i32;
        let key = Self::key_of(pits);
        let mut tt_best = 0u8;
        if let Some(e) = self.table.get(key) {
            lo = lo.max(e.lo as i32);
            hi = hi.min(e.hi as i32);
            tt_best = e.best;
        }
        if lo >= hi || lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);

        let mut moves = MancalaMoves::new();
        s.legal_moves(&mut moves);
        // Order: table move, extra turns (nearest the store first, so the others keep theirs),
        // captures by size, then the rest nearest the store first.
        let mut order = [(0i32, 0u8); crate::games::mancala::MAX_PITS];
        let n = moves.len();
        for (i, &m) in moves.iter().enumerate() {
            let k = if m == tt_best {
                1 << 20
            } else {
                match s.move_kind(m) {
                    MoveKind::ExtraTurn => 1 << 16,
                    MoveKind::Capture(c) => 1 << 8 | c as i32,
                    MoveKind::Quiet => 0,
                }
            } - m as i32;
            let mut j = i;
            while j > 0 && order[j - 1].0 < k {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = (k, m);
        }
        let alpha0 = alpha;
        let mut best = i32::MIN;
        let mut best_move = order[0].1;
        for &(_, m) in &order[..n] {
            let c = s.apply(m);
            let (g, same) = Self::child_frame(s, &c);
            let v = if c.outcome().is_some() {
                g
            } else if same {
                g + self.search(&c, alpha - g, beta - g)
            } else {
                g - self.search(&c, g - beta, g - alpha)
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m;
            }
            if v >= beta {
                break;
            }
            alpha = alpha.max(v);
        }
        let (slo, shi) = if best >= beta {
            (best, hi)
        } else if best <= alpha0 {
            (lo, best)
        } else {
            (best, best)
        };
        self.table.put(
            key,
            seeds.min(255) as u8,
            slo.max(lo),
            shi.min(hi),
            best_move,
        );
        best
    }

    /// Solves `s`: the exact final margin for the side to move and an optimal pit. `None` if
    /// stopped or the position does not fit this solver.
    pub fn solve(&mut self, s: &Mancala) -> Option<Solution> {
        if s.pits() != self.pits {
            return None;
        }
        self.nodes = 0;
        self.aborted = false;
        let me = s.side_to_move();
        let base = s.store(me) as i32 - s.store(me.other()) as i32;
        if s.outcome().is_some() {
            return Some(Solution {
                score: base,
                best: None,
                nodes: 1,
                db_seeds: self.db.k,
            });
        }
        let v = self.value(s)?;
        // An optimal move: the first (in pit order) whose child provably reaches `v`.
        let mut moves = MancalaMoves::new();
        s.legal_moves(&mut moves);
        let mut best = moves.first().copied();
        for &m in &moves {
            let c = s.apply(m);
            let (g, same) = Self::child_frame(s, &c);
            let ok = if c.outcome().is_some() {
                g >= v
            } else if same {
                g + self.search(&c, v - g - 1, v - g) >= v
            } else {
                g - self.search(&c, g - v, g - v + 1) >= v
            };
            if self.aborted {
                return None;
            }
            if ok {
                best = Some(m);
                break;
            }
        }
        Some(Solution {
            score: base + v,
            best,
            nodes: self.nodes,
            db_seeds: self.db.k,
        })
    }

    /// MTD(f): null-window probes from a first guess of 0 until the bounds meet.
    fn value(&mut self, s: &Mancala) -> Option<i32> {
        let mut buf = [0u8; 2 * MAX_SOLVER_PITS];
        let seeds = self.pits_of(s, &mut buf) as i32;
        let (mut lo, mut hi) = (-seeds, seeds);
        let mut g = 0;
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            let r = self.search(s, beta - 1, beta);
            if self.aborted {
                return None;
            }
            if r < beta {
                hi = r;
            } else {
                lo = r;
            }
            g = r;
        }
        Some(lo)
    }

    /// Largest seed count the endgame database covers.
    pub fn db_seeds(&self) -> usize {
        self.db.k
    }

    /// Positions the database holds so far.
    pub fn db_filled(&self) -> u64 {
        self.db.filled
    }
}

/// Solves the start position of Kalah(`pits`, `seeds`), returning the solution and the time.
pub fn solve_start(pits: u8, seeds: u8, mib: usize) -> Result<(Solution, f64), String> {
    let cfg = Mancala::configure(&[pits as i64, seeds as i64])?;
    let s = Mancala::start(&cfg);
    let t = Instant::now();
    let mut solver = Solver::new(pits as usize, 2 * pits as usize * seeds as usize, mib)?;
    let sol = solver.solve(&s).ok_or("stopped")?;
    Ok((sol, t.elapsed().as_secs_f64()))
}
