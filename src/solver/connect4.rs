//! Exact Connect Four solver (any size the game supports): Pascal Pons' bitboard negamax with
//! null-window probes, improved by a two-bound exact-key table (work-preferred replacement,
//! a cache-resident near region for positions close to the leaves, prefetched probes),
//! mirror symmetry, table move and threat-based ordering, forced moves played through,
//! "no line left" and Allis' claimeven bounds, optional dead-stone keys, and ABDADA over a shared table for several threads. Scores follow Pons' convention (see the golden README): for the side
//! to move, a win on ply `n` (stones on the board after the winning stone) is worth
//! `floor((W*H + 2 - n) / 2)`, a loss the negation, a draw 0.
//!
//! Search invariant (as in Pons' solver): `negamax` is only called on positions where the side
//! to move cannot win at once; the root handles immediate wins itself and every recursion only
//! plays "non-losing" moves, which never leave the opponent an immediate win.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::Instant;

use super::proven::{C4_MAX_EMPTY, Proof, pv_budget};
use super::proven::{ExactSolver, Known, Solved, Verdict};
use super::{Budget, PROTOCOL_THREADS, Wdl};

use super::c4book;
use super::c4table::C4Table;
use crate::core::game::{Game, Outcome};
use crate::games::connect4::{Connect4, bits};

/// Enhanced transposition cutoffs are tried only with more empty cells than this. Since
/// fresh solves keep the table in cache the probes are cheap: on Pons' Test_L2_R2, 8 instead
/// of 14 saves 9 % of the nodes and 3 % of the instructions; lower values cost more probes
/// than they save near the leaves.
const ETC_MIN_EMPTY: i32 = 8;
/// Once the table region outgrows the caches (this many buckets, 1 MiB), each ETC probe is
/// a cache and TLB miss; ETC is then only tried with more empty cells than this.
const ETC_BIG_BUCKETS: u64 = 1 << 16;
const ETC_MIN_EMPTY_BIG: i32 = 14;

/// Positions with at most this many empty cells keep their entries in the table's near region
/// (cache-resident, see `c4table::NEAR_BITS`). "4444", one thread, 1 GiB: 16.2 s without,
/// 12 s with 18 to 24 (nodes +11 %); empty board, two threads: 61 -> 53 s.
const NEAR_MAX_EMPTY: i32 = 20;

/// The root's bisection jumps to the probe at 0 (then the one next to it) once its next probe
/// would be this close to 0: values near 0 are where probes cost most, and proving the bound at
/// 0 first serves every later probe. Farther out, Pons' outside-in order is cheaper (decisive
/// positions: Test_L1_R1 nodes x8 when probing 0 first).
const ZERO_PROBE_FROM: i32 = 5;

/// ABDADA (see `negamax`) is used with at least this many empty cells: below, subtrees are
/// too small for the shared marks to pay. Empty 7×6 board, two threads, 1 GiB: 20 → 54 s,
/// 24 → 51–53 s, 28 → 43–44 s, 32 → 52 s, 36 → 54 s; plain Lazy SMP (both threads racing
/// through the same tree) took 120 s.
const BUSY_MIN_EMPTY: i32 = 28;

/// Slots (log2) of the table of positions being searched.
const BUSY_BITS: u32 = 14;

/// A subtree's size as stored for replacement: `log2(nodes) + 1`, at most 63.
#[inline]
fn work(nodes: u64) -> u32 {
    (64 - nodes.leading_zeros()).min(63)
}

/// Board geometry, computed once per solve.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub w: u32,
    pub h: u32,
    /// Column stride `h + 1`.
    pub s: u32,
    bottom: u64,
    board: u64,
    /// Columns in search order: centre first.
    order: [u8; 7],
    cols: [u64; 7],
    upper: u64,
    starts: [u64; 4],
}

impl Geometry {
    pub fn new(w: u32, h: u32) -> Self {
        let s = h + 1;
        Geometry {
            w,
            h,
            s,
            bottom: bits::bottom_mask(w, s),
            board: bits::board_mask(w, h),
            order: centre_order(w),
            cols: column_masks(w, h),
            upper: upper_rows(w, h),
            starts: bits::window_starts(bits::board_mask(w, h), s),
        }
    }

    /// Bits a key can span.
    pub fn key_bits(&self) -> u32 {
        self.w * self.s
    }
}

/// Pons' column order for a board `w` wide: centre, then left/right alternately outwards.
const fn centre_order(w: u32) -> [u8; 7] {
    let mut order = [0u8; 7];
    let mut i = 0;
    while i < w as i32 {
        order[i as usize] = (w as i32 / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2) as u8;
        i += 1;
    }
    order
}

/// The cells of Allis' even rows (the 2nd, 4th, … from the bottom; 0-based odd rows).
const fn upper_rows(w: u32, h: u32) -> u64 {
    let bottom = bits::bottom_mask(w, h + 1);
    let mut m = 0;
    let mut r = 1;
    while r < h {
        m |= bottom << r;
        r += 2;
    }
    m
}

/// The cells of each column.
const fn column_masks(w: u32, h: u32) -> [u64; 7] {
    let mut cols = [0u64; 7];
    let mut c = 0;
    while c < w {
        cols[c as usize] = bits::column_mask(c, h);
        c += 1;
    }
    cols
}

/// Board geometry as the search sees it: the run-time [`Geometry`] (any size), or [`Fixed`]
/// for the usual sizes, whose constants let the compiler turn every shift and mask of the
/// win-cell computations into immediates (they are about a third of the work per node).
pub trait Geo: Copy + Send + Sync {
    fn w(&self) -> u32;
    /// Column stride `h + 1`.
    fn s(&self) -> u32;
    fn bottom(&self) -> u64;
    fn board(&self) -> u64;
    /// Columns in search order: centre first.
    fn order(&self) -> &[u8; 7];
    /// The cells of column `c`.
    fn col(&self, c: u8) -> u64;
    /// The cells of Allis' even rows (see [`upper_rows`]).
    fn upper(&self) -> u64;
    /// Start cells of the windows of four, per direction (see `bits::window_starts`).
    fn starts(&self) -> &[u64; 4];

    /// Is the number of rows even (Allis' claimeven needs it)?
    #[inline(always)]
    fn even_height(&self) -> bool {
        self.s() % 2 == 1
    }

    /// Occupied cells no window of four with an empty cell passes through: their colour can
    /// no longer matter to any line, so keys may treat them as the mover's.
    #[inline(always)]
    fn dead(&self, mask: u64) -> u64 {
        let empty = self.board() & !mask;
        let mut live = 0;
        for (i, d) in bits::directions(self.s()).into_iter().enumerate() {
            let st =
                self.starts()[i] & (empty | (empty >> d) | (empty >> (2 * d)) | (empty >> (3 * d)));
            live |= st | (st << d) | (st << (2 * d)) | (st << (3 * d));
        }
        mask & !live
    }

    /// Allis' claimeven as a static bound. With an even number of rows and an even number of
    /// stones (the first player to move), the opponent can answer every move in a column whose
    /// next cell is odd by playing right on top of it, and pair the columns whose next cell is
    /// even (there is an even number of them): the opponent then gets at least its stones plus
    /// every empty even cell not playable now, the mover at most the rest. If the mover has no
    /// line in the rest it cannot win (at best a draw), nor if each of its lines there lies
    /// right above one of the opponent's (see [`Geo::shadowed`]); if the opponent moreover has
    /// a line in its part, the mover loses, and a line low on the board loses earlier than with
    /// the last cell (Test_L1_R3: -2 % nodes against always -1). Returns the upper
    /// bound for the side to move, or `None` when it does not apply or proves nothing.
    #[inline(always)]
    fn claimeven(&self, current: u64, mask: u64) -> Option<i32> {
        let stones = current ^ mask;
        let evens = self.upper() & !mask & !self.possible(mask);
        let opp = stones | evens;
        let rest = self.board() & !opp;
        if self.has_line(rest) && !self.shadowed(rest, opp) {
            return None;
        }
        if !self.has_line(opp) {
            return Some(0);
        }
        // The opponent wins once the last empty cell of one of its lines fills; the mover can
        // delay that at most until the board is full but for the cells above that last cell.
        // With every empty cell of some line at row `k` or lower, at least the `h - k` cells
        // above the highest of them are still empty when the line completes.
        let h = self.s() - 1;
        let mut k = 2;
        while k < h {
            let low = (self.bottom() << k) - self.bottom();
            if self.has_line(stones | (evens & low)) {
                return Some(-(((h - k + 2) / 2) as i32));
            }
            k += 2;
        }
        Some(-1)
    }

    /// Does every line of four in `mine` lie right above one in `theirs` (same direction,
    /// same columns, some rows lower)? Each cell of the lower line is then filled before the
    /// cell above it, so `theirs` completes a line before `mine` can. Vertical lines never are.
    #[inline(always)]
    fn shadowed(&self, mine: u64, theirs: u64) -> bool {
        let dirs = bits::directions(self.s());
        let starts = |p: u64, d: u32| {
            let m = p & (p >> d);
            m & (m >> (2 * d))
        };
        if starts(mine, dirs[0]) != 0 {
            return false;
        }
        dirs[1..].iter().all(|&d| {
            let a = starts(mine, d);
            if a == 0 {
                return true;
            }
            // Every cell above a start of theirs, in its column.
            let (mut t, mut above) = (starts(theirs, d), 0u64);
            while t != 0 {
                t = (t << 1) & self.board();
                above |= t;
            }
            a & !above == 0
        })
    }

    /// Number of cells.
    #[inline(always)]
    fn cells(&self) -> i32 {
        (self.w() * (self.s() - 1)) as i32
    }

    #[inline(always)]
    fn winning(&self, p: u64, mask: u64) -> u64 {
        bits::winning_cells(p, mask, self.board(), self.s())
    }

    #[inline(always)]
    fn has_line(&self, p: u64) -> bool {
        bits::has_line(p, self.s())
    }

    #[inline(always)]
    fn possible(&self, mask: u64) -> u64 {
        (mask + self.bottom()) & self.board()
    }

    /// The mirror image of a key (columns reversed). Each column's part of `current + mask`
    /// stays within its own `s` bits, so columns can be moved independently.
    #[inline(always)]
    fn mirror(&self, key: u64) -> u64 {
        let s = self.s();
        let colbits = (1u64 << s) - 1;
        let mut m = 0;
        for c in 0..self.w() {
            m |= ((key >> (c * s)) & colbits) << ((self.w() - 1 - c) * s);
        }
        m
    }
}

impl Geo for Geometry {
    #[inline(always)]
    fn w(&self) -> u32 {
        self.w
    }
    #[inline(always)]
    fn s(&self) -> u32 {
        self.s
    }
    #[inline(always)]
    fn bottom(&self) -> u64 {
        self.bottom
    }
    #[inline(always)]
    fn board(&self) -> u64 {
        self.board
    }
    #[inline(always)]
    fn order(&self) -> &[u8; 7] {
        &self.order
    }
    #[inline(always)]
    fn col(&self, c: u8) -> u64 {
        self.cols[c as usize]
    }
    #[inline(always)]
    fn upper(&self) -> u64 {
        self.upper
    }
    #[inline(always)]
    fn starts(&self) -> &[u64; 4] {
        &self.starts
    }
}

/// A compile-time board size (see [`Geo`]).
#[derive(Clone, Copy, Debug)]
pub struct Fixed<const W: u32, const H: u32>;

impl<const W: u32, const H: u32> Fixed<W, H> {
    const BOTTOM: u64 = bits::bottom_mask(W, H + 1);
    const BOARD: u64 = bits::board_mask(W, H);
    const ORDER: [u8; 7] = centre_order(W);
    const COLS: [u64; 7] = column_masks(W, H);
    const UPPER: u64 = upper_rows(W, H);
    const STARTS: [u64; 4] = bits::window_starts(bits::board_mask(W, H), H + 1);
}

impl<const W: u32, const H: u32> Geo for Fixed<W, H> {
    #[inline(always)]
    fn w(&self) -> u32 {
        W
    }
    #[inline(always)]
    fn s(&self) -> u32 {
        H + 1
    }
    #[inline(always)]
    fn bottom(&self) -> u64 {
        Self::BOTTOM
    }
    #[inline(always)]
    fn board(&self) -> u64 {
        Self::BOARD
    }
    #[inline(always)]
    fn order(&self) -> &[u8; 7] {
        &Self::ORDER
    }
    #[inline(always)]
    fn col(&self, c: u8) -> u64 {
        Self::COLS[c as usize]
    }
    #[inline(always)]
    fn upper(&self) -> u64 {
        Self::UPPER
    }
    #[inline(always)]
    fn starts(&self) -> &[u64; 4] {
        &Self::STARTS
    }
}

/// Runs `$body` with `$g` bound to the fastest [`Geo`] for the run-time geometry `$geo`: the
/// body is compiled once per listed size.
macro_rules! with_geo {
    ($geo:expr, |$g:ident| $body:expr) => {
        match ($geo.w, $geo.h) {
            (7, 6) => {
                let $g = Fixed::<7, 6>;
                $body
            }
            (7, 7) => {
                let $g = Fixed::<7, 7>;
                $body
            }
            _ => {
                let $g = $geo;
                $body
            }
        }
    };
}

/// A solver position: Pons' `current` (stones of the side to move), `mask` and stone count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub current: u64,
    pub mask: u64,
    pub moves: u32,
}

impl Pos {
    pub fn from_game(g: &Connect4) -> Self {
        Pos {
            current: g.current(),
            mask: g.mask(),
            moves: g.moves_played(),
        }
    }
    #[inline]
    fn play(&self, mv: u64) -> Pos {
        Pos {
            current: self.current ^ self.mask,
            mask: self.mask | mv,
            moves: self.moves + 1,
        }
    }
    #[inline]
    fn key(&self) -> u64 {
        self.current + self.mask
    }
}

/// Shared state of one solve: the table, the stop flag and the node counter.
pub struct Shared {
    pub table: C4Table,
    pub stop: AtomicBool,
    pub nodes: AtomicU64,
    /// Positions some thread is searching right now (key + 1, 0 = free), by hash slot.
    busy: Vec<AtomicU64>,
}

impl Shared {
    #[inline]
    fn busy_slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUSY_BITS)) as usize]
    }
    #[inline]
    fn is_busy(&self, key: u64) -> bool {
        self.busy_slot(key).load(Ordering::Relaxed) == key + 1
    }
    #[inline]
    fn set_busy(&self, key: u64) {
        self.busy_slot(key).store(key + 1, Ordering::Relaxed);
    }
    #[inline]
    fn clear_busy(&self, key: u64) {
        let _ =
            self.busy_slot(key)
                .compare_exchange(key + 1, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Search refinements that can be switched to measure them: `TABLERO_C4_OFF`, a comma list of
/// `claimeven`, `children` (both on by default), turns them off; `TABLERO_C4_DEAD=1` turns the
/// dead-stone keys on (off by default: on Test_L1_R3's first lines they save 2 % of the nodes
/// but cost 17 % more time, a dead-cell mask per key and per ETC probe).
#[derive(Clone, Copy, Debug)]
struct Flags {
    claimeven: bool,
    claim_children: bool,
    dead: bool,
}

impl Flags {
    fn from_env() -> Self {
        let off = std::env::var("TABLERO_C4_OFF").unwrap_or_default();
        let on = |name: &str| !off.split(',').any(|t| t.trim() == name);
        Flags {
            claimeven: on("claimeven"),
            claim_children: on("children"),
            dead: std::env::var_os("TABLERO_C4_DEAD").is_some_and(|v| v == "1"),
        }
    }
}

/// One searching thread.
struct Worker<'a, G: Geo> {
    flags: Flags,
    g: G,
    sh: &'a Shared,
    nodes: u64,
    /// Use canonical (mirror-min) keys. Only worth it while mirrored transpositions are
    /// likely; it is always correct.
    symmetry: bool,
    /// Probe the children's table entries before searching (enhanced transposition cutoffs).
    etc: bool,
    /// More than one thread searches (see ABDADA in `negamax`).
    parallel: bool,
    /// Set when the stop flag was seen: every value after that is meaningless.
    aborted: bool,
    /// Abort once `nodes` reaches this (checked every 1024 nodes, so deterministically).
    node_limit: u64,
    /// The caller's limits (deadline, external stop flag).
    budget: &'a Budget,
    /// Where the root loop reports each probe's result (one thread only), and since when.
    report: Option<(&'a Sender<String>, Instant)>,
}

impl<G: Geo> Worker<'_, G> {
    /// Moves that do not lose at once (Pons' `possibleNonLosingMoves`): if the opponent
    /// threatens two playable cells every move loses; one threat must be blocked; never play
    /// right under an opponent's winning cell.
    #[inline]
    fn non_losing(&self, p: &Pos) -> u64 {
        self.non_losing_threats(p).0
    }

    /// [`Self::non_losing`] and the opponent's winning cells.
    #[inline]
    fn non_losing_threats(&self, p: &Pos) -> (u64, u64) {
        let g = &self.g;
        let mut possible = g.possible(p.mask);
        let opp_win = g.winning(p.current ^ p.mask, p.mask);
        let forced = possible & opp_win;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return (0, opp_win);
            }
            possible = forced;
        }
        (possible & !(opp_win >> 1), opp_win)
    }

    /// Negamax with alpha-beta on a position where the side to move cannot win at once.
    /// Returns a value `v` with the usual fail-soft guarantees: `v <= alpha` means the value is
    /// at most `v`, `v >= beta` that it is at least `v`, otherwise exact.
    fn negamax(&mut self, p: &Pos, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && (self.sh.stop.load(Ordering::Relaxed)
                || self.nodes >= self.node_limit
                || self.budget.expired())
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let g = self.g;
        let cells = g.cells();
        let (next, opp_win) = self.non_losing_threats(p);
        if next == 0 {
            // Every move lets the opponent win on the next ply.
            return -(cells - p.moves as i32) / 2;
        }
        if p.moves as i32 >= cells - 2 {
            // At most two cells left, and neither side can win with them.
            return 0;
        }
        if next & (next - 1) == 0 {
            // A single move (usually a forced block): its value is ours. Skipping this node's
            // table probe and store costs a few nodes (its entry is never reused) but saves
            // two memory accesses on about a third of all nodes: -15 % time.
            return -self.negamax(&p.play(next), -beta, -alpha);
        }
        let raw = self.raw_key(p);
        // Canonical key: the smaller of the key and its mirror image.
        let (key, mirrored) = if self.symmetry {
            let m = g.mirror(raw);
            if m < raw { (m, true) } else { (raw, false) }
        } else {
            (raw, false)
        };
        // The entry is needed after the bounds below: start loading it now (in a large table it
        // is a DRAM access, the main cost of a node).
        let near = cells - (p.moves as i32) <= NEAR_MAX_EMPTY;
        self.sh.table.prefetch(key, near);
        let n0 = self.nodes;
        // The opponent cannot win with its next stone (we play non-losing moves), so we lose at
        // the earliest two plies later; we cannot win at once, so at best one ply later still.
        let mut lo = -(cells - 2 - p.moves as i32) / 2;
        let mut hi = (cells - 1 - p.moves as i32) / 2;
        // A side with no four-cell line left among its stones and the empty cells cannot win.
        let free = g.board() & !p.mask;
        let claim = self.flags.claimeven && g.even_height();
        if claim && p.moves.is_multiple_of(2) {
            // Claimeven subsumes the test for the mover.
            if let Some(b) = g.claimeven(p.current, p.mask) {
                hi = hi.min(b);
            }
        } else if !g.has_line(p.current | free) {
            hi = hi.min(0);
        }
        if !g.has_line((p.current ^ p.mask) | free) {
            lo = lo.max(0);
        }
        if claim && self.flags.claim_children && p.moves % 2 == 1 {
            // Every child has the first player to move: a move after which claimeven bounds
            // the opponent gives us at least the negation (computed while the entry loads).
            let opp = p.current ^ p.mask;
            let mut rest = next;
            while rest != 0 {
                let mv = rest & rest.wrapping_neg();
                rest ^= mv;
                if let Some(b) = g.claimeven(opp, p.mask | mv) {
                    lo = lo.max(-b);
                }
            }
        }
        if lo >= hi || lo >= beta {
            return lo;
        }
        let mut tt_best = None;
        if let Some(b) = self.g_table().get(key, near) {
            lo = lo.max(b.lo);
            hi = hi.min(b.hi);
            tt_best = b.best;
        }
        if lo >= hi {
            return lo;
        }
        if lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);

        // Order the non-losing moves: the table's best move, then by the threats each leaves,
        // then centre first.
        let mut list = [(0i32, 0u64, 0u8); 7];
        // ETC costs a probe per child; it only pays where subtrees are still large.
        let empty = cells - p.moves as i32;
        let far_from_leaves = empty > ETC_MIN_EMPTY
            && (empty > ETC_MIN_EMPTY_BIG || self.sh.table.buckets() < ETC_BIG_BUCKETS);
        let mut n = 0;
        for &col in &g.order()[..g.w() as usize] {
            let mv = next & g.col(col);
            if mv == 0 {
                continue;
            }
            if self.etc && far_from_leaves {
                // Enhanced transposition cutoff: a child already known to be bad enough for the
                // opponent refutes this node without a search. Loading every child's bucket
                // here also overlaps their cache misses instead of paying them one by one.
                let ck = self.canonical(self.raw_key(&p.play(mv)));
                if let Some(b) = self.sh.table.get(ck, empty - 1 <= NEAR_MAX_EMPTY)
                    && -b.hi >= beta
                {
                    let v = -b.hi;
                    self.sh.table.put(
                        key,
                        near,
                        1,
                        v.max(lo),
                        hi,
                        Some(if mirrored { g.w() as u8 - 1 - col } else { col }),
                    );
                    return v;
                }
            }
            // Threats the move leaves us, minus those right above an opponent's threat (we
            // could never play them); those right above a playable cell count half again (the
            // opponent can no longer play under them); the table's move is worth a little more
            // than one threat. On Test_L1_R3's first ten lines this order needs 11 % fewer
            // nodes than one that also counted the useless threats and always tried the table's
            // move first (and 8 % fewer on Test_L2_R2); counting threats two above a playable
            // cell, or by row parity, did not help.
            let m2 = p.mask | mv;
            let threats = g.winning(p.current | mv, m2) & !(opp_win << 1);
            let above = (g.possible(m2) << 1) & g.board();
            let mut score =
                12 * threats.count_ones() as i32 + 6 * (threats & above).count_ones() as i32;
            let canon_col = if mirrored { g.w() as u8 - 1 - col } else { col };
            if tt_best == Some(canon_col) {
                score += 13;
            }
            // Insertion sort, stable for equal scores (keeps centre-first).
            let mut j = n;
            while j > 0 && list[j - 1].0 < score {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = (score, mv, col);
            n += 1;
        }

        let alpha0 = alpha;
        let mut best = -cells;
        let mut best_col = list[0].2;
        // With several threads, near the root (ABDADA): after the first move, a child another
        // thread is searching right now is deferred to a second pass, by when its entry may
        // settle it. Without this the threads search the same tree in lock step.
        let share = self.parallel && empty >= BUSY_MIN_EMPTY;
        let mut deferred = 0u8;
        let mut second_pass = false;
        'passes: loop {
            for (k, &(_, mv, col)) in list[..n].iter().enumerate() {
                if second_pass && deferred & (1 << k) == 0 {
                    continue;
                }
                let child = p.play(mv);
                let ck = if share {
                    let ck = self.canonical(self.raw_key(&child));
                    if !second_pass && k > 0 && self.sh.is_busy(ck) {
                        deferred |= 1 << k;
                        continue;
                    }
                    self.sh.set_busy(ck);
                    ck
                } else {
                    0
                };
                let v = -self.negamax(&child, -beta, -alpha);
                if share {
                    self.sh.clear_busy(ck);
                }
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_col = col;
                }
                if v >= beta {
                    break 'passes;
                }
                if v > alpha {
                    alpha = v;
                }
            }
            if second_pass || deferred == 0 {
                break;
            }
            second_pass = true;
        }
        let canon_best = if mirrored {
            g.w() as u8 - 1 - best_col
        } else {
            best_col
        };
        // Store what this search proved: a lower bound on a cut-off, an upper bound on a
        // fail-low, the exact value in between.
        let (slo, shi) = if best >= beta {
            (best, hi)
        } else if best <= alpha0 {
            (lo, best)
        } else {
            (best, best)
        };
        self.sh.table.put(
            key,
            near,
            work(self.nodes - n0),
            slo.max(lo),
            shi.min(hi),
            Some(canon_best),
        );
        best
    }

    /// A position's table key before symmetry: Pons' `current + mask`, with the dead stones
    /// (see [`Geo::dead`]) counted as the mover's, so positions that differ only in their
    /// colours share an entry (their values are equal: no line through them can still form).
    #[inline(always)]
    fn raw_key(&self, p: &Pos) -> u64 {
        if self.flags.dead {
            (p.current | self.g.dead(p.mask)) + p.mask
        } else {
            p.key()
        }
    }

    /// The table key of a position key: its mirror-canonical form when symmetry is on.
    #[inline]
    fn canonical(&self, key: u64) -> u64 {
        if self.symmetry {
            key.min(self.g.mirror(key))
        } else {
            key
        }
    }

    #[inline]
    fn g_table(&self) -> &C4Table {
        &self.sh.table
    }

    /// The root loop: narrow `[min, max]` with null-window probes. Pons' order (outside in:
    /// halfway towards 0 from either bound, where probes are cheap) until the next probe comes
    /// within `ZERO_PROBE_FROM` of 0; then the probe at 0 and, from the bound it proves, the
    /// probe next to it (the empty board: 0 then 1, done), then Pons' order again.
    fn solve_score(&mut self, p: &Pos) -> Option<i32> {
        let cells = self.g.cells();
        let mut min = -(cells - p.moves as i32) / 2;
        let mut max = (cells + 1 - p.moves as i32) / 2;
        // 0: the probe at 0 not made yet; 1: just made; 2: done with it.
        let mut zero = 0;
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            if zero == 0 && med.abs() <= ZERO_PROBE_FROM && min <= 0 && 0 < max {
                med = 0;
                zero = 1;
            } else if zero == 1 {
                if min > 0 {
                    med = min;
                } else if max <= 0 {
                    med = max - 1;
                }
                zero = 2;
            }
            let r = self.negamax(p, med, med + 1);
            if self.aborted {
                return None;
            }
            if let Some((tx, t0)) = self.report {
                let bound = if r <= med { "<=" } else { ">=" };
                // A closed receiver only means nobody listens any more.
                let _ = tx.send(format!(
                    "info string probe {med}: score {bound} {r} nodes {} time {}",
                    self.nodes,
                    t0.elapsed().as_millis()
                ));
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        Some(min)
    }
}

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Pons-convention score for the side to move.
    pub score: i32,
    /// An optimal column (0-based); `None` when the game is over.
    pub best: Option<u8>,
    pub nodes: u64,
}

/// Solver settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub hash_mib: usize,
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mib: 64,
            threads: 1,
        }
    }
}

/// A reusable solver for one board size (the table is kept between solves).
pub struct Solver {
    g: Geometry,
    shared: Arc<Shared>,
    threads: usize,
    budget: Budget,
    /// Progress lines (`info string …`) of the root loop, if wanted.
    progress: Option<Sender<String>>,
    /// Start every solve from an empty table (see `set_fresh`).
    fresh: bool,
    flags: Flags,
}

impl Solver {
    pub fn new(w: u32, h: u32, settings: Settings) -> Self {
        let g = Geometry::new(w, h);
        Solver {
            g,
            shared: Arc::new(Shared {
                table: C4Table::new(settings.hash_mib, g.key_bits()),
                stop: AtomicBool::new(false),
                nodes: AtomicU64::new(0),
                busy: (0..1 << BUSY_BITS).map(|_| AtomicU64::new(0)).collect(),
            }),
            threads: settings.threads.max(1),
            budget: Budget::default(),
            fresh: false,
            flags: Flags::from_env(),
            progress: None,
        }
    }

    /// With `true`, every `solve` starts from an empty table, as in Pons' benchmark protocol
    /// (by default the table is kept between solves, which helps a game's successive
    /// positions). A fresh single-threaded solve then starts on a 16 KiB region of the table
    /// that quadruples whenever half of it is used: easy positions never leave the CPU
    /// caches, hard ones end up with the whole table. With several threads the table is kept
    /// (clearing a large shared table per position would cost more than it saves).
    pub fn set_fresh(&mut self, fresh: bool) {
        self.fresh = fresh;
    }

    /// Limits the next solves (node budget per solve, deadline, external stop flag); a solve
    /// that hits one returns `None`.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Sends an `info string probe <v>: score <=|>= <r> nodes <n> time <ms>` line to `tx` after
    /// each root probe (`nodes`: the reporting thread's).
    pub fn set_progress(&mut self, tx: Sender<String>) {
        self.progress = Some(tx);
    }

    /// The shared state (its `stop` flag aborts a running solve).
    pub fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// Forgets the table.
    pub fn clear(&self) {
        self.shared.table.clear();
    }

    fn worker<G: Geo>(&self, g: G, symmetry: bool) -> Worker<'_, G> {
        let used = self.shared.nodes.load(Ordering::Relaxed);
        Worker {
            flags: self.flags,
            g,
            sh: &self.shared,
            nodes: 0,
            symmetry,
            parallel: self.threads > 1,
            etc: true,
            aborted: false,
            node_limit: self
                .budget
                .nodes
                .map_or(u64::MAX, |n| n.saturating_sub(used).max(1)),
            budget: &self.budget,
            report: None,
        }
    }

    /// Solves `game` (which must have this solver's size). `None` if stopped.
    pub fn solve(&self, game: &Connect4) -> Option<Solution> {
        let g = self.g;
        let p = Pos::from_game(game);
        let cells = g.cells();
        if game.outcome().is_some() {
            return Some(Solution {
                score: game_over_score(game, cells),
                best: None,
                nodes: 1,
            });
        }
        // An immediate win (the search invariant excludes it).
        let win = g.winning(p.current, p.mask) & g.possible(p.mask);
        if win != 0 {
            let col = g.order[..g.w as usize]
                .iter()
                .copied()
                .find(|&c| win & g.cols[c as usize] != 0);
            return Some(Solution {
                score: (cells + 1 - p.moves as i32) / 2,
                best: col,
                nodes: 1,
            });
        }
        // Mirror canonicalisation only pays when mirrored positions can both occur below the
        // root, i.e. when the root is itself symmetric (the empty board, `4`, `44`, …); for
        // other roots it would cost a mirror per node for nothing. Mixing modes across solves
        // is sound: a mirrored entry states a true bound of the mirrored position (same
        // value), and its best column is only an ordering hint.
        let symmetry = g.mirror(p.key()) == p.key();
        self.shared.nodes.store(0, Ordering::Relaxed);
        if self.fresh && self.threads == 1 {
            self.shared.table.reset_small();
        }
        let score = match self.parallel_score(&p, symmetry) {
            Some(v) => v,
            None => {
                self.shared.nodes.store(0, Ordering::Relaxed);
                return None;
            }
        };
        let best = self.best_given(game, score, symmetry);
        let nodes = self.shared.nodes.swap(0, Ordering::Relaxed);
        Some(Solution {
            score,
            best: best?,
            nodes,
        })
    }

    /// An optimal column of `game` (running, no immediate win), whose value is known to be
    /// `score`: the first in centre order whose child provably scores `-score`. `None` if
    /// stopped. Adds its nodes to the shared counter.
    fn best_given(&self, game: &Connect4, score: i32, symmetry: bool) -> Option<Option<u8>> {
        with_geo!(self.g, |g| self.best_given_in(g, game, score, symmetry))
    }

    fn best_given_in<G: Geo>(
        &self,
        geo: G,
        game: &Connect4,
        score: i32,
        symmetry: bool,
    ) -> Option<Option<u8>> {
        let g = self.g;
        let p = Pos::from_game(game);
        let mut w = self.worker(geo, symmetry);
        let next = w.non_losing(&p);
        let mut best = None;
        for &col in &g.order[..g.w as usize] {
            if !game.can_play(col) {
                continue;
            }
            let mv = g.possible(p.mask) & g.cols[col as usize];
            if next & mv == 0 {
                // A losing move; only right when every move loses at once.
                if next == 0 && best.is_none() {
                    best = Some(col);
                }
                continue;
            }
            let child = p.play(mv);
            // child value <= -score  <=>  our value via col >= score.
            let v = -w.negamax(&child, -score, -score + 1);
            if w.aborted {
                self.shared.nodes.fetch_add(w.nodes, Ordering::Relaxed);
                return None;
            }
            if v >= score {
                best = Some(col);
                break;
            }
        }
        self.shared.nodes.fetch_add(w.nodes, Ordering::Relaxed);
        Some(best)
    }

    /// A principal variation from `game`, whose value is known to be `score` (as `solve`
    /// returned it): optimal moves for both sides to the end of the game (the fastest win, the
    /// slowest loss). `None` if stopped; the nodes spent are added to `nodes`.
    pub fn principal_variation(
        &self,
        game: &Connect4,
        mut score: i32,
        nodes: &mut u64,
    ) -> Option<Vec<u8>> {
        let g = self.g;
        let mut s = *game;
        let mut line = Vec::new();
        while s.outcome().is_none() {
            let p = Pos::from_game(&s);
            let win = g.winning(p.current, p.mask) & g.possible(p.mask);
            let col = if win != 0 {
                g.order[..g.w as usize]
                    .iter()
                    .copied()
                    .find(|&c| win & g.cols[c as usize] != 0)
            } else {
                let symmetry = g.mirror(p.key()) == p.key();
                let r = self.best_given(&s, score, symmetry);
                *nodes += self.shared.nodes.swap(0, Ordering::Relaxed);
                r?
            };
            let col = col?;
            line.push(col);
            s = s.apply(col);
            score = -score;
        }
        Some(line)
    }

    /// Runs the root loop on `threads` threads: all share the table and split the work near
    /// the root through ABDADA's busy marks (see `negamax`); the first to finish stops the
    /// others. Scores are exact either way.
    fn parallel_score(&self, p: &Pos, symmetry: bool) -> Option<i32> {
        with_geo!(self.g, |g| self.parallel_score_in(g, p, symmetry))
    }

    fn parallel_score_in<G: Geo>(&self, g: G, p: &Pos, symmetry: bool) -> Option<i32> {
        let sh = &*self.shared;
        let started = Instant::now();
        if self.threads <= 1 {
            let mut w = self.worker(g, symmetry);
            w.report = self.progress.as_ref().map(|tx| (tx, started));
            let r = w.solve_score(p);
            sh.nodes.fetch_add(w.nodes, Ordering::Relaxed);
            return r;
        }
        let result = std::sync::Mutex::new(None);
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            for t in 0..self.threads {
                let result = &result;
                let done = &done;
                let mut w = self.worker(g, symmetry);
                if t == 0 {
                    w.report = self.progress.as_ref().map(|tx| (tx, started));
                }
                scope.spawn(move || {
                    let r = w.solve_score(p);
                    sh.nodes.fetch_add(w.nodes, Ordering::Relaxed);
                    if let Some(v) = r {
                        if let Ok(mut g) = result.lock()
                            && g.is_none()
                        {
                            *g = Some(v);
                        }
                        done.store(true, Ordering::Relaxed);
                        // Stop the others (the caller's stop flag is reset below).
                        w.sh.stop.store(true, Ordering::Relaxed);
                    }
                });
            }
        });
        let r = result.into_inner().ok().flatten();
        if done.load(Ordering::Relaxed) {
            sh.stop.store(false, Ordering::Relaxed);
        }
        r
    }
}

/// Score of a finished game for the side to move: it lost (the last mover won), or a draw.
fn game_over_score(game: &Connect4, cells: i32) -> i32 {
    if matches!(game.outcome(), Some(Outcome::Win(_))) {
        -((cells + 2 - game.moves_played() as i32) / 2)
    } else {
        0
    }
}

/// Solves `game` with fresh settings within `budget` (`None` when it runs out), handing each
/// progress line (see [`Solver::set_progress`]) to `line` on the caller's thread as it comes.
pub fn solve_reporting(
    game: &Connect4,
    settings: Settings,
    budget: Budget,
    mut line: impl FnMut(&str),
) -> Option<Solution> {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut solver = Solver::new(game.width(), game.height(), settings);
    solver.set_budget(budget);
    solver.set_progress(tx);
    std::thread::scope(|scope| {
        // The solver (and with it the sender) is dropped when the solve ends, which ends the
        // loop below.
        let h = scope.spawn(move || solver.solve(game));
        for msg in rx {
            line(&msg);
        }
        h.join().ok().flatten()
    })
}

/// Allis' claimeven bound (see [`Geo::claimeven`]) for the side to move in `game`: an upper
/// bound on its exact score, `None` where it does not apply (odd number of rows or stones) or
/// proves nothing. Public so that tests can check it against brute force.
pub fn claimeven_bound(game: &Connect4) -> Option<i32> {
    let g = Geometry::new(game.width(), game.height());
    let p = Pos::from_game(game);
    if !g.even_height() || p.moves % 2 == 1 {
        return None;
    }
    g.claimeven(p.current, p.mask)
}

/// Convenience: solve one position with fresh settings.
pub fn solve(game: &Connect4, settings: Settings) -> Option<Solution> {
    Solver::new(game.width(), game.height(), settings).solve(game)
}

/// Times and solves every `<moves> <score>` line of `text` (Pons' file format) on a `w`×`h`
/// board, calling `on_line(line_no, moves, expected, solution, micros)`. Errors on a malformed
/// line.
pub fn run_batch(
    text: &str,
    w: u32,
    h: u32,
    settings: Settings,
    on_line: impl FnMut(usize, &str, i32, &Solution, u128),
) -> Result<(), super::SolveError> {
    run_batch_with(text, w, h, settings, true, on_line)
}

/// [`run_batch`], with `fresh == false` keeping the table from one position to the next (as
/// solvers that serve a whole game do; Pons' protocol starts each position from an empty
/// table).
pub fn run_batch_with(
    text: &str,
    w: u32,
    h: u32,
    settings: Settings,
    fresh: bool,
    mut on_line: impl FnMut(usize, &str, i32, &Solution, u128),
) -> Result<(), super::SolveError> {
    let bad = |i: usize, why: String| super::SolveError::Line { line: i + 1, why };
    let cfg = crate::games::connect4::Config {
        rows: h as u8,
        columns: w as u8,
    };
    let mut solver = Solver::new(w, h, settings);
    solver.set_fresh(fresh);
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut it = line.split_whitespace();
        let (Some(moves), Some(score), None) = (it.next(), it.next(), it.next()) else {
            return Err(bad(i, "expected '<moves> <score>'".into()));
        };
        let expected: i32 = score
            .parse()
            .map_err(|_| bad(i, format!("bad score '{score}'")))?;
        let game = Connect4::from_moves(moves, &cfg).map_err(|e| bad(i, e.to_string()))?;
        let t = Instant::now();
        let sol = solver
            .solve(&game)
            .ok_or_else(|| bad(i, "stopped".into()))?;
        on_line(i + 1, moves, expected, &sol, t.elapsed().as_micros());
    }
    Ok(())
}

/// The result a Pons score stands for.
fn wdl_of(score: i32) -> Wdl {
    match score {
        0 => Wdl::Draw,
        v if v > 0 => Wdl::Win,
        _ => Wdl::Loss,
    }
}

/// Plies to the end of a game from a solver's score (Pons' convention: a win on stone `n`,
/// counting every stone, scores ⌊(cells + 2 − n) / 2⌋, and the winner's stones have the parity
/// of its next move), signed: a win in `n` plies is `n`, a loss `-n`; `None` for a draw.
pub fn mate_plies(score: i32, cells: i32, played: i32) -> Option<i32> {
    match score {
        0 => None,
        v if v > 0 => {
            let n = cells + 2 - 2 * v;
            let n = if (n - played) % 2 == 1 { n } else { n - 1 };
            Some(n - played)
        }
        v => {
            let n = cells + 2 + 2 * v;
            let n = if (n - played) % 2 == 0 { n } else { n - 1 };
            Some(-(n - played))
        }
    }
}

impl ExactSolver for Solver {
    type G = Connect4;
    type Key = (u32, u32);

    fn key(root: &Connect4) -> (u32, u32) {
        (root.width(), root.height())
    }

    fn build((w, h): (u32, u32), hash_mib: usize) -> Option<Solver> {
        Some(Solver::new(
            w,
            h,
            Settings {
                hash_mib,
                threads: 1,
            },
        ))
    }

    fn worth_trying(root: &Connect4, any_size: bool) -> bool {
        any_size
            || root.width() * root.height() - root.moves_played() <= C4_MAX_EMPTY
            || c4book::lookup(root).is_some()
    }

    /// Three quarters where the solver is tried by size (at most `C4_MAX_EMPTY` empty cells):
    /// such positions are mostly proven within that at 1 s a move (docs/players.md, "No lost
    /// value").
    fn time_share(root: &Connect4) -> (u32, u32) {
        if root.width() * root.height() - root.moves_played() <= C4_MAX_EMPTY {
            (3, 4)
        } else {
            (1, 3)
        }
    }

    /// The opening book (`c4book`): the position's value and optimal move, and where the book
    /// holds every child too, the moves whose child has the opposite result. Among those, when
    /// the book also holds every reply to its own move, only the moves it holds every reply
    /// to: the next move is then answered from the book as well, where another keeping move
    /// leaves a position the solver cannot prove within a move (docs/players.md, "No lost
    /// value").
    fn known(s: &Connect4) -> Option<Known> {
        let e = c4book::lookup(s)?;
        let cells = (s.width() * s.height()) as i32;
        let mate = mate_plies(i32::from(e.score), cells, s.moves_played() as i32);
        let wdl = wdl_of(i32::from(e.score));
        let best = s.format_move(e.best);
        let keeping = c4book::children(s).map(|kids| {
            let keep: Vec<u8> = kids
                .into_iter()
                .filter(|&(_, v)| wdl_of(i32::from(v)) == wdl.flip())
                .map(|(c, _)| c)
                .collect();
            let covered: Vec<u8> = keep
                .iter()
                .copied()
                .filter(|&c| c4book::children(&s.apply(c)).is_some())
                .collect();
            let chosen = if covered.contains(&e.best) {
                covered
            } else {
                keep
            };
            chosen
                .into_iter()
                .map(|c| s.format_move(c))
                .collect::<Vec<_>>()
        });
        Some(Known {
            proof: Proof {
                mate,
                cp: 0,
                detail: format!("exact solver, opening book, Pons value {}", e.score),
                best: best.clone(),
                pv: vec![best.clone()],
                nodes: 0,
            },
            keeping: keeping.filter(|k| k.contains(&best)),
            verdict: Verdict {
                wdl,
                plies: mate.and_then(|m| u32::try_from(m.abs()).ok()),
                best,
            },
        })
    }

    fn prove(&mut self, s: &Connect4, budget: &Budget, fresh: bool) -> Option<Proof> {
        if fresh {
            self.clear();
        }
        self.set_budget(budget.clone());
        let sol = self.solve(s)?;
        let best = sol.best?;
        let mut nodes = sol.nodes;
        self.set_budget(pv_budget(budget));
        let line = self.principal_variation(s, sol.score, &mut nodes);
        let cells = (s.width() * s.height()) as i32;
        let mate = mate_plies(sol.score, cells, s.moves_played() as i32);
        if let (Some(l), Some(m)) = (&line, mate) {
            debug_assert_eq!(l.len() as i32, m.abs(), "pv length vs Pons score");
        }
        let pv = match line {
            Some(l) if !l.is_empty() => l.iter().map(|&c| s.format_move(c)).collect(),
            _ => vec![s.format_move(best)],
        };
        Some(Proof {
            mate,
            cp: 0,
            detail: format!("exact solver, Pons value {}", sol.score),
            best: s.format_move(best),
            pv,
            nodes,
        })
    }

    /// Every solve from an empty table (`set_fresh`): a position's proof never depends on the
    /// ones solved before it.
    fn verdict(&mut self, s: &Connect4, budget: &Budget) -> Option<Verdict> {
        self.set_fresh(true);
        self.set_budget(budget.clone());
        let sol = self.solve(s)?;
        let best = sol.best?;
        let cells = (s.width() * s.height()) as i32;
        let mate = mate_plies(sol.score, cells, s.moves_played() as i32);
        Some(Verdict {
            wdl: wdl_of(sol.score),
            plies: mate.and_then(|m| u32::try_from(m.abs()).ok()),
            best: s.format_move(best),
        })
    }

    fn solve_reporting(
        s: &Connect4,
        hash_mib: usize,
        budget: Budget,
        line: &(dyn Fn(&str) + Sync),
    ) -> Result<Option<Solved>, super::SolveError> {
        line(&format!(
            "info string solving connect4 {}x{} with {hash_mib} MiB",
            s.width(),
            s.height()
        ));
        let settings = Settings {
            hash_mib,
            threads: PROTOCOL_THREADS,
        };
        Ok(
            solve_reporting(s, settings, budget, line).map(|sol| Solved {
                score: sol.score,
                best: sol.best.map(|c| s.format_move(c)),
                nodes: sol.nodes,
            }),
        )
    }
}
