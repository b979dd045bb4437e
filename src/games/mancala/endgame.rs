//! Kalah endgame table built bottom-up in memory: the exact future gain of the side to move
//! for every pit vector of one board size with at most `K` seeds in pits, a byte per position.
//! The exact solver reads it below its search, `tablero solve` caches it on disk
//! (`solver::kalahdb`), and the `default` evaluation answers from a small one
//! ([`exact_margin`]): a leaf with few seeds left is scored by its exact final margin.
//!
//! Layers: layer `s` holds the vectors with exactly `s` seeds, indexed by the lexicographic
//! rank of their first `2m - 1` pits (the last pit is implied), so the table for `K` seeds
//! is a prefix of the one for `K + 1`.
//! Seeds never return from the stores, so a move leads to a lower layer (a seed reached a
//! store, or a capture) or stays in the layer only by moving seeds forward on the mover's own
//! row; the sum over all seeds of their distance to their owner's store then drops, so the
//! dependencies inside a layer have no cycles and a memoised depth-first fill of each layer is
//! exact, in any order. The order is chosen for the cache (see `Filler::tile`): tiles of a run
//! of opponent rows against every mover row, both threads taking tiles.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::Mancala;
use super::kalah_board::{Board, Next, ONES, Ranker, Rules, sow};
use crate::core::game::{Game, Side};

const UNKNOWN: u8 = 0;

/// Saves a table built so far (the disk cache's), with the error to log.
pub(crate) type SaveHook<'a, E> = &'a dyn Fn(&KalahDb) -> Result<(), E>;

/// Asks for huge pages on a layer's allocation before its first touch: searches and fills
/// probe the layers at random, a TLB miss per probe on 4 KiB pages.
pub(crate) fn huge_pages<T>(start: *const T, bytes: usize) {
    crate::core::mem::advise_huge_pages(start as usize, bytes);
}

/// The database: layers `0..=k` for boards of `m` pits per side.
pub struct KalahDb {
    pub(crate) m: usize,
    pub(crate) rules: Rules,
    /// Ranks the first `2m - 1` pits of a vector with budget `s` (its layer).
    pub(crate) ranker: Ranker,
    /// Value + 128 per position; positions with an empty row are never read (they end the
    /// game) and hold 0.
    pub(crate) layers: Vec<Box<[u8]>>,
}

/// Positions of layer `s`: vectors of `2m` pits with exactly `s` seeds.
pub(crate) fn layer_len(ranker: &Ranker, s: usize) -> usize {
    ranker.count(s) as usize
}

/// Largest seed count a database may cover (values are stored as `v + 128` in a byte).
pub const MAX_DB_SEEDS: usize = 100;

impl KalahDb {
    pub(crate) fn empty(m: usize, rules: Rules, k: usize) -> Self {
        KalahDb {
            m,
            rules,
            ranker: Ranker::new(2 * m - 1, k.max(1)),
            layers: Vec::new(),
        }
    }

    /// Largest seed count covered (`None` before layer 0 exists, which never happens once
    /// built).
    pub fn seeds(&self) -> usize {
        self.layers.len().saturating_sub(1)
    }

    pub fn pits(&self) -> usize {
        self.m
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.layers.iter().map(|l| l.len()).sum()
    }

    /// The index of pit vector `p` in layer `s`, compiled for `M` pits a side (0: any size).
    #[inline(always)]
    fn index_in<const M: usize>(&self, p: &[u8; 16], s: usize) -> usize {
        if M == 6 {
            self.ranker.rank_in::<11>(p, s) as usize
        } else {
            self.ranker.rank(&p[..2 * self.m - 1], s) as usize
        }
    }

    /// Exact future gain of the side to move on running board `b` with `s <= seeds()` seeds
    /// (both rows non-empty), compiled for `M` pits a side (0: any size; 6 only for 6).
    #[inline(always)]
    pub(crate) fn value_in<const M: usize>(&self, b: &Board, s: usize) -> i32 {
        self.layers[s][self.index_in::<M>(&b.p, s)] as i32 - 128
    }

    /// The database for boards of `m` pits with layers `0..=k`, built with `threads` threads
    /// (no cache). `log` gets progress lines.
    pub fn build(
        m: usize,
        rules: Rules,
        k: usize,
        threads: usize,
        log: &(dyn Fn(&str) + Sync),
    ) -> Self {
        let mut db = KalahDb::empty(m, rules, k);
        db.extend(
            k,
            threads,
            None::<SaveHook<'_, std::convert::Infallible>>,
            log,
        );
        db
    }

    /// Builds the layers above the current top up to `k`. With `save`, it is called after
    /// every layer that took more than half a minute (the cache then keeps the layers built so
    /// far, so that an interrupted build of a large table resumes from there).
    pub(crate) fn extend<E: std::fmt::Display>(
        &mut self,
        k: usize,
        threads: usize,
        save: Option<SaveHook<'_, E>>,
        log: &(dyn Fn(&str) + Sync),
    ) {
        if self.ranker.t < k {
            self.ranker = Ranker::new(2 * self.m - 1, k);
        }
        let total: usize = (0..=k).map(|s| layer_len(&self.ranker, s)).sum();
        while self.layers.len() <= k {
            let s = self.layers.len();
            let t = Instant::now();
            let layer = self.build_layer(s, threads, log);
            self.layers.push(layer);
            if s >= 10 {
                log(&format!(
                    "info string kalah database layer {s} of {k}: {} positions in {:.1} s ({} of \
                     {} MB)",
                    layer_len(&self.ranker, s),
                    t.elapsed().as_secs_f64(),
                    self.bytes() >> 20,
                    total >> 20
                ));
            }
            if let Some(save) = save
                && s < k
                && t.elapsed() >= Duration::from_secs(30)
                && let Err(e) = save(self)
            {
                log(&format!("info string kalah database not saved: {e}"));
            }
        }
    }

    fn build_layer(&self, s: usize, threads: usize, log: &(dyn Fn(&str) + Sync)) -> Box<[u8]> {
        let n = layer_len(&self.ranker, s);
        let mut cur: Vec<AtomicU8> = Vec::with_capacity(n);
        huge_pages(cur.as_ptr(), n);
        cur.resize_with(n, || AtomicU8::new(UNKNOWN));
        if s < 2 {
            return cur.into_iter().map(AtomicU8::into_inner).collect();
        }
        let m = self.m;
        // Every row of m pits with b seeds (b < s), in lexicographic order, a byte per pit.
        let rows: Vec<Vec<u64>> = (0..s).map(|b| rows_with(m, b)).collect();
        // Tiles: a run of opponent rows (all with b seeds) against every mover row with the
        // other s - b seeds (see `Filler::tile`). A run is as long as keeps its children's
        // blocks in the cache.
        let mut tiles = Vec::new();
        for b in 1..s {
            let block = rows[s - b].len();
            let w = (TILE_BYTES / block).clamp(1, 1024);
            let len = rows[b].len();
            for j in (0..len).step_by(w) {
                tiles.push((b, j, (j + w).min(len)));
            }
        }
        let next = AtomicUsize::new(0);
        let started = Instant::now();
        let last_report = Mutex::new(Instant::now());
        let ranks = RowRanks::new(&self.ranker);
        let work = || {
            let fill = Filler {
                db: self,
                cur: &cur,
                s,
                ranks: &ranks,
                ec: self.rules == Rules::EmptyCapture,
            };
            let mut opp_ranks = Vec::new();
            loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(b, j0, j1)) = tiles.get(c) else {
                    break;
                };
                let (movers, opps) = (&rows[s - b], &rows[b][j0..j1]);
                // Compiled for each board size: the masks, shifts and loops are constants.
                match m {
                    1 => fill.tile::<1>(movers, opps, &mut opp_ranks),
                    2 => fill.tile::<2>(movers, opps, &mut opp_ranks),
                    3 => fill.tile::<3>(movers, opps, &mut opp_ranks),
                    4 => fill.tile::<4>(movers, opps, &mut opp_ranks),
                    5 => fill.tile::<5>(movers, opps, &mut opp_ranks),
                    6 => fill.tile::<6>(movers, opps, &mut opp_ranks),
                    _ => fill.tile::<7>(movers, opps, &mut opp_ranks),
                }
                if let Ok(mut last) = last_report.try_lock()
                    && last.elapsed().as_secs() >= 10
                {
                    *last = Instant::now();
                    log(&format!(
                        "info string kalah database layer {s}: {:.0} % after {:.0} s",
                        100.0 * (c + 1) as f64 / tiles.len() as f64,
                        started.elapsed().as_secs_f64()
                    ));
                }
            }
        };
        if threads <= 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    scope.spawn(work);
                }
                work();
            });
        }
        cur.into_iter().map(AtomicU8::into_inner).collect()
    }

    /// The exact final margin (own store minus the other's, with best play by both) for the
    /// side to move of `s`, if the table covers it: same board size, a running game and at
    /// most [`KalahDb::seeds`] seeds in pits. Course rules only (the game's).
    pub fn exact(&self, s: &Mancala) -> Option<i32> {
        let m = self.m;
        let seeds = (s.pit_seeds(Side::First) + s.pit_seeds(Side::Second)) as usize;
        if s.pits() != m || seeds > self.seeds() || self.rules != Rules::Course {
            return None;
        }
        if s.outcome().is_some() {
            return None;
        }
        let me = s.side_to_move();
        let base = i32::from(s.store(me)) - i32::from(s.store(me.other()));
        let b = board_of(s);
        Some(
            base + if m == 6 {
                self.value_in::<6>(&b, seeds)
            } else {
                self.value_in::<0>(&b, seeds)
            },
        )
    }
}

/// Most positions of a table the evaluation builds on boards other than six pits: as many as
/// the default 14-seed table of six pits (9.7 M positions, a byte each, 0.4 s of CPU).
pub const EVAL_TABLE_POSITIONS: u64 = 9_657_700;

/// Largest seed count the evaluation's table may be asked for (`MancalaW_endgame`): 20 seeds
/// of six pits is 226 MB and 12 s of CPU to build (16: 30 MB, 1.5 s).
pub const EVAL_MAX_SEEDS: usize = 20;

/// Largest board the table handles (a row is one 64-bit word, and the fill is compiled for
/// up to seven pits).
const TABLE_MAX_PITS: usize = 7;

/// The seed count of the evaluation's table for boards of `m` pits asked for `k` seeds (at
/// most [`EVAL_MAX_SEEDS`]): on six pits, the course's board, `k`; on other sizes `k` if the
/// table fits in [`EVAL_TABLE_POSITIONS`] positions, else the largest count that does; 0 (no
/// table) beyond seven pits.
pub fn eval_seeds(m: usize, k: usize) -> usize {
    if m == 0 || m > TABLE_MAX_PITS {
        return 0;
    }
    let k = k
        .min(EVAL_MAX_SEEDS)
        .min(EVAL_SEEDS_CAP.load(Ordering::Relaxed));
    let cap = if m == 6 {
        u64::MAX
    } else {
        EVAL_TABLE_POSITIONS
    };
    let r = Ranker::new(2 * m, k);
    (0..=k).rev().find(|&j| r.count(j) <= cap).unwrap_or(0)
}

/// A process-wide ceiling on the evaluation's tables, below every `MancalaW_endgame`: set once,
/// before any table is built, by a harness whose build is far slower than a release (the fuzz
/// targets: with coverage instrumentation and no optimisation the 14-seed table takes over two
/// minutes, and libFuzzer counts it against one input). Positions above the ceiling are
/// estimated, as beyond any table.
static EVAL_SEEDS_CAP: AtomicUsize = AtomicUsize::new(EVAL_MAX_SEEDS);

/// Lowers the ceiling of every evaluation table built from now on to `seeds` (see
/// `EVAL_SEEDS_CAP`); a table already built keeps its size.
pub fn cap_eval_seeds(seeds: usize) {
    EVAL_SEEDS_CAP.store(seeds.min(EVAL_MAX_SEEDS), Ordering::Relaxed);
}

/// The evaluation's tables, one per board size and seed count, built on first use and kept
/// for the life of the process (a pure function of the rules: every thread, search and game
/// reads the same values, whoever built them).
static TABLES: [[OnceLock<KalahDb>; EVAL_MAX_SEEDS + 1]; TABLE_MAX_PITS + 1] =
    [const { [const { OnceLock::new() }; EVAL_MAX_SEEDS + 1] }; TABLE_MAX_PITS + 1];

/// The table of the `default` evaluation for boards of `m` pits asked for `k` seeds: it holds
/// [`eval_seeds`]`(m, k)` (`None` when that is 0), built on the first call (two threads).
/// Kept under the seeds asked for, so that a probe costs one load, not a size computation.
#[inline]
pub fn eval_table(m: usize, k: usize) -> Option<&'static KalahDb> {
    if k == 0 || m == 0 || m > TABLE_MAX_PITS {
        return None;
    }
    let k = k.min(EVAL_MAX_SEEDS);
    Some(
        TABLES[m][k].get_or_init(|| KalahDb::build(m, Rules::Course, eval_seeds(m, k), 2, &|_| {})),
    )
}

/// The exact final margin of `s` for its side to move from the evaluation's table of `k`
/// seeds, when `s` has at most that many seeds in pits (`None` otherwise, and for finished
/// games).
#[inline]
pub fn exact_margin(s: &Mancala, k: usize) -> Option<i32> {
    let seeds = (s.pit_seeds(Side::First) + s.pit_seeds(Side::Second)) as usize;
    if k == 0 || seeds > k {
        return None;
    }
    eval_table(s.pits(), k)?.exact(s)
}

/// The mover-oriented board of `s`: the mover's pits, then the opponent's, in sowing order.
pub(crate) fn board_of(s: &Mancala) -> Board {
    let m = s.pits();
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

/// Bytes of the same-layer child blocks one tile touches: about the L2 cache of a core. (On
/// layer 21 single-threaded, under load: 128 KiB 15.7 s of CPU, 512 KiB 13.6 s, 2 MiB 13.1 s,
/// 8 MiB 14.6 s.)
const TILE_BYTES: usize = 1 << 20;

/// Every row of `m` pits holding `b` seeds in all, in lexicographic order, pit `i` in byte `i`.
fn rows_with(m: usize, b: usize) -> Vec<u64> {
    let mut out = Vec::new();
    let mut p = [0u8; 8];
    p[m - 1] = b as u8;
    loop {
        out.push(u64::from_le_bytes(p));
        // Next composition: raise the last of the first m - 1 pits that can be raised, empty
        // the ones after it; the last pit takes the rest.
        let mut head: usize = p[..m - 1].iter().map(|&x| x as usize).sum();
        let mut j = m - 1;
        loop {
            if j == 0 {
                return out;
            }
            j -= 1;
            if head < b {
                p[j] += 1;
                break;
            }
            head -= p[j] as usize;
            p[j] = 0;
        }
        let head: usize = p[..m - 1].iter().map(|&x| x as usize).sum();
        p[m - 1] = (b - head) as u8;
    }
}

/// Ranks the positions of a layer from their two rows (`u64`, pit `i` in byte `i`), as
/// [`Ranker::rank`] does from the pits: with `P(a, s)` the terms of the mover's pits (which
/// depend on the layer `s`) and `Q(b)` those of the opponent's (which do not), the index is
/// `C(s) - P(a, s) - Q(b)`. The fill keeps `P` and `Q` of a tile's opponent rows: the children
/// that pass the turn without a capture start with the parent's opponent row, and those that
/// move again end with it, so most children cost one row's terms, not both.
struct RowRanks {
    /// `terms[i][c]`: [`Ranker::term`] (at most `MAX_DB_SEEDS` seeds, so `c < 128`).
    terms: Box<[[u64; 128]; 13]>,
    /// `C(s)`: the count of the layers up to `s` less one.
    c: Box<[u64; 128]>,
}

impl RowRanks {
    fn new(r: &Ranker) -> Self {
        let mut terms = Box::new([[0u64; 128]; 13]);
        for (i, row) in terms.iter_mut().enumerate() {
            for (c, t) in row.iter_mut().enumerate() {
                *t = r.term(i, c);
            }
        }
        let mut c = Box::new([0u64; 128]);
        for (s, x) in c.iter_mut().enumerate().take(r.t + 1) {
            *x = r.count(s).wrapping_sub(1);
        }
        RowRanks { terms, c }
    }

    /// `P(a, s)`: the terms of the mover's row `a` of a position with `s` seeds.
    #[inline(always)]
    fn p<const M: usize>(&self, a: u64, s: usize) -> u64 {
        let pre = a.wrapping_mul(ONES);
        let mut r = 0u64;
        for i in 0..M {
            let left = s.wrapping_sub((pre >> (8 * i)) as u8 as usize);
            r = r.wrapping_add(self.terms[i][left & 127]);
        }
        r
    }

    /// `Q(b)`: the terms of the opponent's row `b` (its last pit is implied).
    #[inline(always)]
    fn q<const M: usize>(&self, b: u64) -> u64 {
        let pre = b.wrapping_mul(ONES);
        let total = (pre >> 56) as usize;
        let mut r = 0u64;
        for j in 0..M - 1 {
            let left = total.wrapping_sub((pre >> (8 * j)) as u8 as usize);
            r = r.wrapping_add(self.terms[M + j][left & 127]);
        }
        r
    }

    #[inline(always)]
    fn index(&self, s: usize, p: u64, q: u64) -> usize {
        self.c[s & 127].wrapping_sub(p).wrapping_sub(q) as usize
    }
}

/// One thread's fill of one layer.
struct Filler<'a> {
    db: &'a KalahDb,
    cur: &'a [AtomicU8],
    s: usize,
    ranks: &'a RowRanks,
    ec: bool,
}

impl Filler<'_> {
    /// Fills the positions whose mover row is any of `movers` and whose opponent row is one of
    /// `opps` (a run of consecutive rows of one seed count), for boards of `M` pits a side.
    ///
    /// Positions of one mover row and consecutive opponent rows have consecutive ranks, so the
    /// stores run along a few cache lines; the children that pass the turn (most of them) are
    /// ranked with the opponent row first, so they all fall in the blocks of the run's rows,
    /// which stay in the cache while every mover row is tried against them. (Walking the
    /// layer in rank order instead sent every such child to a far block: a cache miss each.)
    fn tile<const M: usize>(&self, movers: &[u64], opps: &[u64], opp_ranks: &mut Vec<(u64, u64)>) {
        let s = self.s;
        let rr = self.ranks;
        opp_ranks.clear();
        opp_ranks.extend(opps.iter().map(|&y| (rr.p::<M>(y, s), rr.q::<M>(y))));
        let Some(&(_, q0)) = opp_ranks.first() else {
            return;
        };
        for &x in movers {
            let px = rr.p::<M>(x, s);
            let idx0 = rr.index(s, px, q0);
            for (j, (&y, &(py, qy))) in opps.iter().zip(opp_ranks.iter()).enumerate() {
                let idx = idx0 + j;
                debug_assert_eq!(idx, rr.index(s, px, qy));
                if self.cur[idx].load(Ordering::Relaxed) == UNKNOWN {
                    self.fill::<M>(x, y, idx, py, qy);
                }
            }
        }
    }

    /// Computes, stores and returns the value of the running position with mover row `a` and
    /// opponent row `b` (layer `s`, index `idx`); `pb` and `qb` are `P(b, s)` and `Q(b)`.
    fn fill<const M: usize>(&self, a: u64, b: u64, idx: usize, pb: u64, qb: u64) -> i32 {
        let s = self.s;
        let rr = self.ranks;
        let mut best = i32::MIN;
        // Children of this layer not filled yet, by pit: searched after the others, so that
        // the loads of all children are issued before any recursion.
        let mut later = 0u32;
        for t0 in 0..M {
            if (a >> (8 * t0)) as u8 == 0 {
                continue;
            }
            let w = sow::<M>(M, a, b, t0, self.ec);
            if w.own_n == 0 || w.opp_n == 0 {
                best = best.max(w.gain + w.own_n as i32 - w.opp_n as i32);
                continue;
            }
            let s1 = w.own_n + w.opp_n;
            let again = w.next == Next::Again;
            let i = if again {
                // A seed reached the store: a lower layer; the opponent's row is unchanged
                // unless a lap sowed it.
                let q = if w.opp == b { qb } else { rr.q::<M>(w.opp) };
                rr.index(s1, rr.p::<M>(w.own, s1), q)
            } else {
                // Same layer only if nothing reached a store, so the opponent row is `b`.
                let p = if s1 == s { pb } else { rr.p::<M>(w.opp, s1) };
                rr.index(s1, p, rr.q::<M>(w.own))
            };
            let c = if s1 < s {
                self.db.layers[s1][i]
            } else {
                self.cur[i].load(Ordering::Relaxed)
            };
            if c == UNKNOWN {
                // Same layer (a lower one is complete), so the turn passed.
                later |= 1 << t0;
                continue;
            }
            let c = c as i32 - 128;
            best = best.max(if again { w.gain + c } else { w.gain - c });
        }
        while later != 0 {
            // Its potential is lower (seeds moved forward on the mover's row): no cycle.
            // Sown again rather than kept: this is the rare case.
            let t0 = later.trailing_zeros() as usize;
            later &= later - 1;
            let w = sow::<M>(M, a, b, t0, self.ec);
            debug_assert!(w.next == Next::Other && w.opp == b && w.gain == 0);
            let q = rr.q::<M>(w.own);
            let i = rr.index(s, pb, q);
            let c = match self.cur[i].load(Ordering::Relaxed) {
                UNKNOWN => self.fill::<M>(w.opp, w.own, i, rr.p::<M>(w.own, s), q),
                c => c as i32 - 128,
            };
            best = best.max(w.gain - c);
        }
        self.cur[idx].store((best + 128) as u8, Ordering::Relaxed);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bottom-up database agrees with a plain memo-less minimax on every running position
    /// of small seed counts on every board size, under both rules.
    #[test]
    fn database_matches_brute_force() {
        fn minimax(b: &Board, m: usize, ec: bool) -> i32 {
            (0..m)
                .filter(|&t| b.p[t] > 0)
                .map(|t| {
                    let mv = b.play(m, t, ec);
                    match mv.next {
                        Next::Over => mv.gain,
                        Next::Again => mv.gain + minimax(&mv.board, m, ec),
                        Next::Other => mv.gain - minimax(&mv.board, m, ec),
                    }
                })
                .max()
                .unwrap_or(0)
        }
        // Every board size (each is compiled apart), both rules, as many seeds as a memo-less
        // minimax affords.
        let mut checked = 0;
        for (m, k) in [(1, 10), (2, 8), (3, 7), (4, 6), (5, 5), (6, 5), (7, 4)] {
            for rules in [Rules::Course, Rules::EmptyCapture] {
                let db = KalahDb::build(m, rules, k, 2, &|_| {});
                for s in 2..=k {
                    for a in 1..s {
                        for &x in &rows_with(m, a) {
                            for &y in &rows_with(m, s - a) {
                                let mut p = [0u8; 16];
                                p[..8].copy_from_slice(&x.to_le_bytes());
                                p[m..m + 8].copy_from_slice(&y.to_le_bytes());
                                let b = Board { p };
                                let v = db.value_in::<0>(&b, s);
                                assert_eq!(
                                    v,
                                    minimax(&b, m, rules == Rules::EmptyCapture),
                                    "{rules:?} {:?}",
                                    &p[..2 * m]
                                );
                                if m == 6 {
                                    // The six-pit search reads through its own index.
                                    assert_eq!(db.value_in::<6>(&b, s), v, "{:?}", &p[..12]);
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
