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

use super::Budget;
use crate::core::game::{Game, Side};
use crate::games::mancala::Mancala;

/// Largest number of pits per side the solver handles (two rows must pack into a `u128`).
pub const MAX_SOLVER_PITS: usize = 7;

/// What follows a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// The game ended (pits swept).
    Over,
    /// The mover moves again (last seed in its store).
    Again,
    /// The turn passes.
    Other,
}

/// A mover-relative board: `p[0..m]` the mover's pits in sowing order (`p[m-1]` next to its
/// store), `p[m..2m]` the opponent's. Stores are not kept: the search only needs gains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Board {
    p: [u8; 16],
}

/// A played move: the child board (oriented for whoever moves next), the mover's net gain,
/// the seeds left in pits and what follows.
#[derive(Clone, Copy, Debug)]
struct Played {
    board: Board,
    gain: i32,
    seeds: usize,
    next: Next,
}

impl Played {
    const NONE: Played = Played {
        board: Board { p: [0; 16] },
        gain: 0,
        seeds: 0,
        next: Next::Over,
    };
}

impl Board {
    #[inline]
    fn key(&self) -> [u64; 2] {
        let mut lo = [0u8; 8];
        let mut hi = [0u8; 8];
        lo.copy_from_slice(&self.p[..8]);
        hi.copy_from_slice(&self.p[8..]);
        [u64::from_le_bytes(lo), u64::from_le_bytes(hi)]
    }

    #[inline]
    fn seeds(&self, m: usize) -> usize {
        self.p[..2 * m].iter().map(|&x| x as usize).sum()
    }

    /// Plays the mover's pit at relative index `t0` (course pit `m - t0`), with the game's
    /// rules (see `Mancala::apply`, which a test checks this against): sow skipping the
    /// opponent's store (the origin is sown into again on long laps); last seed in the own
    /// store moves again; last seed in an own empty pit captures it with a non-empty facing pit;
    /// once either row is empty both sides bank their own pits.
    #[inline]
    fn play(&self, m: usize, t0: usize) -> Played {
        let lap = 2 * m + 1;
        let mut p = self.p;
        let s = p[t0] as usize;
        p[t0] = 0;
        let q = s / lap;
        let r = s % lap;
        let mut gain = q as i32;
        if q > 0 {
            for x in &mut p[..2 * m] {
                *x += q as u8;
            }
        }
        // Relative ring: 0..m own pits, m own store, m+1..=2m the opponent's pits (p[i - 1]).
        for t in t0 + 1..=t0 + r {
            let t = if t >= lap { t - lap } else { t };
            if t < m {
                p[t] += 1;
            } else if t == m {
                gain += 1;
            } else {
                p[t - 1] += 1;
            }
        }
        let tl = (t0 + r) % lap;
        let mut next = Next::Other;
        if tl == m {
            next = Next::Again;
        } else if tl < m && p[tl] == 1 {
            // The facing pit of own pit t is opponent ring position 2m - t, i.e. p[2m - 1 - t].
            let f = 2 * m - 1 - tl;
            if p[f] > 0 {
                gain += 1 + p[f] as i32;
                p[tl] = 0;
                p[f] = 0;
            }
        }
        let own: usize = p[..m].iter().map(|&x| x as usize).sum();
        let opp: usize = p[m..2 * m].iter().map(|&x| x as usize).sum();
        if own == 0 || opp == 0 {
            return Played {
                board: Board { p: [0; 16] },
                gain: gain + own as i32 - opp as i32,
                seeds: 0,
                next: Next::Over,
            };
        }
        let board = if next == Next::Again {
            Board { p }
        } else {
            let mut c = [0u8; 16];
            c[..m].copy_from_slice(&p[m..2 * m]);
            c[m..2 * m].copy_from_slice(&p[..m]);
            Board { p: c }
        };
        Played {
            board,
            gain,
            seeds: own + opp,
            next,
        }
    }
}

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

/// Nodes between two checks of the budget.
const POLL: u64 = 4096;

/// Largest seed count the database covers. It is filled by exhaustive (full-window) search,
/// which beats alpha-beta only on small counts: measured on Kalah(4,4), (5,4) and (6,3), 10..12
/// seeds was fastest, 16 two to six times slower (see the README's solver section).
const DB_MAX_SEEDS: usize = 12;

impl Database {
    /// The largest `k <= DB_MAX_SEEDS` whose table (C(k + n, n) bytes) fits `budget` bytes.
    fn new(n: usize, total: usize, budget: usize) -> Self {
        let binom = Binom::new(200);
        let mut k = 0;
        while k < total.min(DB_MAX_SEEDS) && (binom.get(k + 1 + n, n) as usize) <= budget {
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
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Entry {
    key: [u64; 2],
    lo: i16,
    hi: i16,
    /// Best move (pit number), 0 = none.
    best: u8,
    /// Seeds in pits (a proxy for subtree size, for replacement); 0 = empty slot.
    seeds: u8,
}

/// Two entries per bucket, stored as three words each (`key0, key1, data`) so that the table
/// can come from zeroed memory (an all-zero entry is empty: `seeds` is never 0 in a stored one).
struct Table {
    slots: Vec<[u64; 3]>,
    buckets: usize,
}

impl Entry {
    fn pack(&self) -> [u64; 3] {
        let data = (self.lo as u16 as u64)
            | ((self.hi as u16 as u64) << 16)
            | ((self.best as u64) << 32)
            | ((self.seeds as u64) << 40);
        [self.key[0], self.key[1], data]
    }
    fn unpack(w: &[u64; 3]) -> Entry {
        Entry {
            key: [w[0], w[1]],
            lo: w[2] as u16 as i16,
            hi: (w[2] >> 16) as u16 as i16,
            best: (w[2] >> 32) as u8,
            seeds: (w[2] >> 40) as u8,
        }
    }
}

impl Table {
    fn new(bytes: usize) -> Self {
        let n = (bytes / 24).max(2) & !1;
        Table {
            slots: vec![[0u64; 3]; n],
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
            .find(|w| w[0] == key[0] && w[1] == key[1] && w[2] >> 40 != 0)
            .map(Entry::unpack)
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
            let old = Entry::unpack(&self.slots[j]);
            if old.seeds != 0 && old.key == key {
                e.lo = e.lo.max(old.lo);
                e.hi = e.hi.min(old.hi);
                self.slots[j] = e.pack();
                return;
            }
        }
        if Entry::unpack(&self.slots[i]).seeds <= e.seeds {
            self.slots[i + 1] = self.slots[i];
            self.slots[i] = e.pack();
        } else {
            self.slots[i + 1] = e.pack();
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
    budget: Budget,
    /// Node count at which the budget is checked next.
    next_poll: u64,
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
            budget: Budget::default(),
            next_poll: POLL,
            aborted: false,
        })
    }

    /// Limits the next solves (node budget per solve, deadline, external stop flag); a solve
    /// that hits one returns `None`.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Forgets the table and the database (so that the next solve's node count and budget use
    /// do not depend on earlier solves).
    pub fn clear(&mut self) {
        self.table.slots.fill([0; 3]);
        self.db.values.fill(UNKNOWN);
        self.db.filled = 0;
    }

    /// Pits per side this solver handles.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// The mover-oriented board of `s`: mover's pits, then the opponent's, ring order.
    fn board_of(&self, s: &Mancala) -> Board {
        let m = self.pits;
        let ring = s.ring();
        let (a, b) = match s.side_to_move() {
            Side::First => (0, m + 1),
            Side::Second => (m + 1, 0),
        };
        let mut p = [0u8; 16];
        p[..m].copy_from_slice(&ring[a..a + m]);
        p[m..2 * m].copy_from_slice(&ring[b..b + m]);
        Board { p }
    }

    /// Exact future value of a position with at most `db.k` seeds in pits, memoised.
    fn db_value(&mut self, b: &Board, seeds: usize) -> i32 {
        if seeds == 0 {
            return 0;
        }
        let m = self.pits;
        let idx = self.db.rank(&b.p[..2 * m]);
        let v = self.db.values[idx];
        if v != UNKNOWN {
            return v as i32 - 128;
        }
        self.nodes += 1;
        let mut best = i32::MIN;
        for t0 in 0..m {
            if b.p[t0] == 0 {
                continue;
            }
            let mv = b.play(m, t0);
            let v = match mv.next {
                Next::Over => mv.gain,
                Next::Again => mv.gain + self.db_value(&mv.board, mv.seeds),
                Next::Other => mv.gain - self.db_value(&mv.board, mv.seeds),
            };
            best = best.max(v);
        }
        self.db.values[idx] = (best + 128) as u8;
        self.db.filled += 1;
        best
    }

    /// Fail-soft alpha-beta on the future value of a running position (mover to play).
    fn search(&mut self, b: &Board, seeds: usize, mut alpha: i32, mut beta: i32) -> i32 {
        if seeds <= self.db.k {
            return self.db_value(b, seeds);
        }
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            // Database fills count nodes too, so poll by threshold, not by exact multiples.
            self.next_poll = self.nodes + POLL;
            if self.budget.nodes.is_some_and(|n| self.nodes >= n) || self.budget.expired() {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        let m = self.pits;
        // The future gain can never exceed the seeds still in pits.
        let mut lo = -(seeds as i32);
        let mut hi = seeds as i32;
        let key = b.key();
        let mut tt_best = u8::MAX;
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

        // Play every move first (cheap), then order: table move, extra turns (nearest the
        // store first, so the others keep theirs), then by immediate gain.
        let mut kids: [(i32, u8, Played); MAX_SOLVER_PITS] =
            [(0, 0, Played::NONE); MAX_SOLVER_PITS];
        let mut n = 0;
        for t0 in (0..m).rev() {
            if b.p[t0] == 0 {
                continue;
            }
            let mv = b.play(m, t0);
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
        // Enhanced transposition cutoff: a child whose stored bound already refutes this node
        // saves its search; probing all children first also overlaps their cache misses.
        // The children's stored upper bounds (from this node's view) are kept: a move whose
        // bound cannot beat alpha is not searched (its bound still counts for `best`).
        let mut ub = [i32::MAX; MAX_SOLVER_PITS];
        for (i, (_, t0, mv)) in kids[..n].iter().enumerate() {
            if mv.next == Next::Over || mv.seeds <= self.db.k {
                continue;
            }
            if let Some(e) = self.table.get(mv.board.key()) {
                let (v, u) = if mv.next == Next::Again {
                    (mv.gain + e.lo as i32, mv.gain + e.hi as i32)
                } else {
                    (mv.gain - e.hi as i32, mv.gain - e.lo as i32)
                };
                ub[i] = u;
                if v >= beta {
                    self.table.put(key, seeds.min(255) as u8, v, hi, *t0);
                    return v;
                }
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
            let g = mv.gain;
            let v = match mv.next {
                Next::Over => g,
                Next::Again => g + self.search(&mv.board, mv.seeds, alpha - g, beta - g),
                Next::Other => g - self.search(&mv.board, mv.seeds, g - beta, g - alpha),
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
            (best, hi)
        } else if best <= alpha0 {
            (lo, best)
        } else {
            (best, best)
        };
        self.table
            .put(key, seeds.min(255) as u8, slo.max(lo), shi.min(hi), best_t);
        best
    }

    /// Solves `s`: the exact final margin for the side to move and an optimal pit. `None` if
    /// stopped or the position does not fit this solver.
    pub fn solve(&mut self, s: &Mancala) -> Option<Solution> {
        if s.pits() != self.pits {
            return None;
        }
        self.nodes = 0;
        self.next_poll = POLL;
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
        let b = self.board_of(s);
        let seeds = b.seeds(self.pits);
        let v = self.value(&b, seeds)?;
        let best = self.best_given(&b, v)?;
        Some(Solution {
            score: base + v,
            best: best.map(|t0| (self.pits - t0) as u8),
            nodes: self.nodes,
            db_seeds: self.db.k,
        })
    }

    /// An optimal move (relative index) of a running board whose future value is known to be
    /// `v`: the first in pit order 1..m whose child provably reaches `v`. `None` if stopped.
    fn best_given(&mut self, b: &Board, v: i32) -> Option<Option<usize>> {
        let m = self.pits;
        for pit in 1..=m {
            let t0 = m - pit;
            if b.p[t0] == 0 {
                continue;
            }
            let mv = b.play(m, t0);
            let g = mv.gain;
            let ok = match mv.next {
                Next::Over => g >= v,
                Next::Again => g + self.search(&mv.board, mv.seeds, v - g - 1, v - g) >= v,
                Next::Other => g - self.search(&mv.board, mv.seeds, g - v, g - v + 1) >= v,
            };
            if self.aborted {
                return None;
            }
            if ok {
                return Some(Some(t0));
            }
        }
        Some(None)
    }

    /// A principal variation from `s` whose value is `score` (as `solve` returned it): moves
    /// (course pit numbers) for both sides, each optimal for the final margin, to the end of
    /// the game. Kalah is solved for the margin, not the distance, so its length is one optimal
    /// line's, not the shortest win. `None` if stopped; the nodes spent are added to `nodes`.
    pub fn principal_variation(
        &mut self,
        s: &Mancala,
        score: i32,
        nodes: &mut u64,
    ) -> Option<Vec<u8>> {
        if s.pits() != self.pits {
            return None;
        }
        self.nodes = 0;
        self.next_poll = POLL;
        self.aborted = false;
        let m = self.pits;
        let me = s.side_to_move();
        let mut v = score - (s.store(me) as i32 - s.store(me.other()) as i32);
        let mut b = self.board_of(s);
        let mut line = Vec::new();
        let result = loop {
            let Some(best) = self.best_given(&b, v) else {
                break None;
            };
            let Some(t0) = best else {
                break Some(line);
            };
            line.push((m - t0) as u8);
            let mv = b.play(m, t0);
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

    /// MTD(f): null-window probes from a first guess of 0 until the bounds meet.
    fn value(&mut self, b: &Board, seeds: usize) -> Option<i32> {
        let (mut lo, mut hi) = (-(seeds as i32), seeds as i32);
        let mut g = 0;
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            let r = self.search(b, seeds, beta - 1, beta);
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

#[cfg(test)]
mod tests {
    use super::*;

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
                let solver = Solver::new(m as usize, 0, 1).unwrap();
                for _ in 0..30 {
                    let mut s = Mancala::start(&Mancala::configure(&[m as i64, n as i64]).unwrap());
                    while s.outcome().is_none() {
                        let mut moves = crate::games::mancala::MancalaMoves::new();
                        s.legal_moves(&mut moves);
                        let pit = moves[(next() % moves.len() as u64) as usize];
                        let c = s.apply(pit);
                        let me = s.side_to_move();
                        let b = solver.board_of(&s);
                        let mv = b.play(m as usize, m as usize - pit as usize);
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
                            assert_eq!(mv.board, solver.board_of(&c), "{}", s.format_fen());
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
