//! Heuristics of 5-en-Raya, the move-ordering hint and the length estimate.
//!
//! Values are from `perspective`'s point of view ("own" = perspective, "opp" = the other side).
//! A *window* is a line of N cells lying wholly on the board, in one of the four directions of
//! the core's scan; it is *open* for a player when it holds none of the opponent's pieces.
//!
//! * `test` (index 1): the course's `heuristicaPrueba` (AgenteEstudiante.cpp) exactly: every
//!   piece at (f, c) is worth `(F - |f - F/2|) + (C - |c - C/2|)` (integer division, as in C++);
//!   own pieces minus the opponent's.
//! * `default` (index 0), ours, own minus opponent's for each term (weights: [`WEIGHTS`]):
//!   - `windows`: live windows (open, and without an empty cell the owner cannot use: a red
//!     cell, or a yellow one for a row or column line) holding N - 1, N - 2 and N - 3 own
//!     pieces (`EnrayaW_window1`, `_window2`, `_window3` each; emptier windows are not counted);
//!   - `threats`: empty cells that would complete a live window (`EnrayaW_threat` each);
//!   - `live`: threats on the owner's next Trinity residue (ninja mode: the residue of its
//!     next placement, `phase mod 3` for the side to move, `phase + 1` for the other),
//!     `EnrayaW_live` each; 0 on other boards, which have no Trinity;
//!   - `green`: the side to move can place on a green cell now, one more placement
//!     (`EnrayaW_green`);
//!   - the race, the Trinity rhythm: a side's turns fall on the residues r, r + 2, r + 1, …
//!     and the other side's in between on r + 1, r, r + 2, so the cells of a residue are
//!     played by the two sides in turn, and a line whose missing cells lie on the residues of
//!     one's next turn(s) cannot be blocked by the other side, whose turn is on another
//!     residue. Decided in this order, each term only when none before it holds:
//!     `tempo`, the side to move completes a live window at this turn (its missing cells on
//!     this turn's residue, no more than its placements left; `EnrayaW_tempo`); `next`, the
//!     other side completes one at its next turn (`EnrayaW_next` per window, at most 2; a
//!     quarter when a legal yellow cell of the mover's empties it: a yellow placement empties
//!     its row and column, the one defence); `two` (mover), the mover completes one over its
//!     next two turns (this residue, then r + 2: the other side's turn between them is on
//!     r + 1; `EnrayaW_two_mover` per window, at most 3; a quarter when an empty yellow cell of
//!     r + 1 next to a piece clears it); `forced`, the other side completes one
//!     over its next two turns (r + 1, then r) whatever cells of r the mover takes with its
//!     placements left (`EnrayaW_forced`); `two` (waiting), the other side's two-turn
//!     windows, which the mover must block now (`EnrayaW_two_waiting` each, at most 3).
//!     Legality (a placement next to a piece) is not checked for the cells a window misses.
//!
//!   The weights are set by hand (docs/enraya.md); `tablero learn` has not fitted them yet.
//!
//! The windows are counted with bitboards: per direction, the N shifted copies of each
//! player's pieces are added into a bit-sliced counter (bit `b` of every window's piece count
//! in one bitboard), so a position costs a few hundred word operations whatever N is.

use arrayvec::ArrayVec;

use super::bits::{self, Bits, GREEN, RED, RESIDUE, WORDS, YELLOW};
use super::{Enraya, Move};
use crate::core::game::{
    EVAL_LIMIT, EvalTerm, Evaluation, Game, Side, WeightSpec, default_values, values_or_defaults,
};

/// The weights of `default` (the `EnrayaW_*` options), in [`WEIGHTS`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per open window missing one own piece.
    pub window1: i32,
    /// Per open window missing two.
    pub window2: i32,
    /// Per open window missing three.
    pub window3: i32,
    /// Per threat cell.
    pub threat: i32,
    /// Per threat cell on the owner's next residue (ninja mode), on top of `threat`.
    pub live: i32,
    /// The side to move can complete a line now.
    pub tempo: i32,
    /// The side to move can place on a green cell now.
    pub green: i32,
    /// Per window the side not to move can complete at its next turn (at most 2 counted).
    pub next: i32,
    /// Per window the side to move can complete over its next two turns (at most 3).
    pub two_mover: i32,
    /// Per window the side not to move can complete over its next two turns (at most 3).
    pub two_waiting: i32,
    /// The side not to move completes a line over its next two turns whatever the mover
    /// blocks now.
    pub forced: i32,
}

/// Ranges: symmetric around 0, chosen so that the worst case below stays inside `EVAL_LIMIT`
/// whatever the settings.
pub const WEIGHTS: &[WeightSpec] = &[
    WeightSpec::symmetric("EnrayaW_window1", 60, 10_000),
    WeightSpec::symmetric("EnrayaW_window2", 15, 10_000),
    WeightSpec::symmetric("EnrayaW_window3", 4, 10_000),
    WeightSpec::symmetric("EnrayaW_threat", 40, 20_000),
    WeightSpec::symmetric("EnrayaW_live", 80, 20_000),
    WeightSpec::symmetric("EnrayaW_tempo", 50_000, 5_000_000),
    WeightSpec::symmetric("EnrayaW_green", 30, 100_000),
    WeightSpec::symmetric("EnrayaW_next", 20_000, 5_000_000),
    WeightSpec::symmetric("EnrayaW_two_mover", 5_000, 1_000_000),
    WeightSpec::symmetric("EnrayaW_two_waiting", 1_000, 1_000_000),
    WeightSpec::symmetric("EnrayaW_forced", 10_000, 5_000_000),
];

/// The defaults of [`WEIGHTS`].
pub const DEFAULT_WEIGHTS: Weights = weights_of(default_values(WEIGHTS));

const fn weights_of(v: [i32; 11]) -> Weights {
    Weights {
        window1: v[0],
        window2: v[1],
        window3: v[2],
        threat: v[3],
        live: v[4],
        tempo: v[5],
        green: v[6],
        next: v[7],
        two_mover: v[8],
        two_waiting: v[9],
        forced: v[10],
    }
}

impl Evaluation<Enraya> for Weights {
    const SPECS: &'static [WeightSpec] = WEIGHTS;
    const DEFAULT: Self = DEFAULT_WEIGHTS;

    fn from_values(values: &[i32]) -> Self {
        weights_of(values_or_defaults(WEIGHTS, values))
    }

    fn evaluate(&self, s: &Enraya, heuristic: usize, perspective: Side) -> i32 {
        evaluate(s, heuristic, self, perspective)
    }

    fn terms(&self, s: &Enraya, heuristic: usize, perspective: Side) -> Vec<EvalTerm> {
        eval_terms(s, heuristic, self, perspective)
    }
}

/// The worst case of `default` over every board (at most 361 cells, so at most 4 × 361 windows
/// a side, each counted in one of the three window terms, and 361 threat cells, each also
/// live) and every weight setting; both sides, plus tempo and green.
const WORST_CASE: i64 = {
    let w = max(
        WEIGHTS[0].magnitude(),
        max(WEIGHTS[1].magnitude(), WEIGHTS[2].magnitude()),
    );
    let side = 4 * 361 * w + 361 * (WEIGHTS[3].magnitude() + WEIGHTS[4].magnitude());
    2 * side
        + WEIGHTS[5].magnitude()
        + WEIGHTS[6].magnitude()
        + NEXT_CAP as i64 * WEIGHTS[7].magnitude()
        + TWO_CAP as i64 * (WEIGHTS[8].magnitude() + WEIGHTS[9].magnitude())
        + WEIGHTS[10].magnitude()
};
const _: () = assert!(WORST_CASE < EVAL_LIMIT as i64);

const fn max(a: i64, b: i64) -> i64 {
    if a > b { a } else { b }
}

/// Windows of the 9 × 9, N = 5 board (computed at compile time; other sizes compute theirs).
static NINJA_STARTS: [Bits; 4] = bits::window_starts(9, 9, 5);

/// One side's counts for `default`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// Live windows (open, and no empty cell the owner cannot use) missing 1, 2, 3 own pieces.
    pub windows: [u32; 3],
    /// Threat cells (see the module doc).
    pub threats: Bits,
    /// Windows the side can complete at its next turn: every missing cell on that turn's
    /// residue, no more of them than its placements then.
    pub now: u32,
    /// Windows it can complete over its next two turns (not at the first alone): the missing
    /// cells on the residues of those two turns, at most the placements of each.
    pub two: u32,
    /// The first cells of those two-turn windows, per direction (`bits::directions` order).
    pub two_starts: [Bits; 4],
}

/// What the counts need to know of a side's next two turns: the cells of the residue of each
/// (every cell off the ninja board) and its placements at the first.
#[derive(Clone, Copy)]
struct Turns<T> {
    first: T,
    second: T,
    placements: u32,
}

/// The set operations the window count needs, so that one algorithm runs on the 9 × 9 board
/// as a native `u128` and on other boards as the six-word [`Bits`] with `W` words shifted.
trait Set: Copy {
    const EMPTY: Self;
    fn of(b: Bits) -> Self;
    fn bits(self) -> Bits;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    fn and_not(self, o: Self) -> Self;
    fn shr(self, k: u32) -> Self;
    fn shl(self, k: u32) -> Self;
    fn count(self) -> u32;
    fn is_empty(self) -> bool;
}

impl Set for u128 {
    const EMPTY: u128 = 0;
    #[inline(always)]
    fn of(b: Bits) -> u128 {
        bits::low(b)
    }
    #[inline(always)]
    fn bits(self) -> Bits {
        bits::from_low(self)
    }
    #[inline(always)]
    fn and(self, o: u128) -> u128 {
        self & o
    }
    #[inline(always)]
    fn or(self, o: u128) -> u128 {
        self | o
    }
    #[inline(always)]
    fn xor(self, o: u128) -> u128 {
        self ^ o
    }
    #[inline(always)]
    fn and_not(self, o: u128) -> u128 {
        self & !o
    }
    #[inline(always)]
    fn shr(self, k: u32) -> u128 {
        self >> k
    }
    #[inline(always)]
    fn shl(self, k: u32) -> u128 {
        self << k
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
}

/// [`Bits`] whose shifts touch the first `W` words only.
#[derive(Clone, Copy)]
struct Wide<const W: usize>(Bits);

impl<const W: usize> Set for Wide<W> {
    const EMPTY: Self = Wide(Bits::EMPTY);
    #[inline(always)]
    fn of(b: Bits) -> Self {
        Wide(b)
    }
    #[inline(always)]
    fn bits(self) -> Bits {
        self.0
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Wide(self.0.and(o.0))
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Wide(self.0.or(o.0))
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Wide(self.0.xor(o.0))
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        Wide(self.0.and_not(o.0))
    }
    #[inline(always)]
    fn shr(self, k: u32) -> Self {
        Wide(self.0.shr::<W>(k))
    }
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        Wide(self.0.shl::<W>(k))
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.count()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.is_empty()
    }
}

/// Adds the one-bit numbers `x` into the bit-sliced counter `c` (its `nb` low bits).
#[inline(always)]
fn add<T: Set>(c: &mut [T; 5], mut x: T, nb: usize) {
    for b in c.iter_mut().take(nb) {
        let carry = b.and(x);
        *b = b.xor(x);
        x = carry;
    }
}

/// The cells of `within` whose counter `c` equals `v`.
#[inline(always)]
fn equals<T: Set>(c: &[T; 5], v: usize, nb: usize, within: T) -> T {
    let mut acc = within;
    for (b, bits) in c.iter().enumerate().take(nb) {
        acc = if v >> b & 1 == 1 {
            acc.and(*bits)
        } else {
            acc.and_not(*bits)
        };
    }
    acc
}

/// The cells of `within` whose counter `c` is at least `v` (and at most `n`).
#[inline(always)]
fn at_least<T: Set>(c: &[T; 5], v: usize, n: usize, nb: usize, within: T) -> T {
    let mut acc = T::EMPTY;
    for k in v..=n {
        acc = acc.or(equals(c, k, nb, within));
    }
    acc
}

/// Both sides' counts (index = `Side::index`) with the set type `T`, for lines of `n` (N,
/// passed in so that the ninja board's call unrolls every loop on its constant 5); `turns` are
/// each side's next two turns.
#[inline(always)]
fn counts<T: Set>(
    s: &Enraya,
    starts: &[Bits; 4],
    n: usize,
    turns: [Turns<T>; 2],
) -> [SideCounts; 2] {
    // Bits of a counter that holds 0..=n.
    let nb = (usize::BITS - n.leading_zeros()) as usize;
    let p = [T::of(s.pieces(Side::First)), T::of(s.pieces(Side::Second))];
    let empty = T::of(s.board()).and_not(p[0].or(p[1]));
    // Empty cells no one can fill with an own piece in a line: red ones (the piece placed is
    // the opponent's), and yellow ones for a row or column line (placing there empties the
    // rest of its row and column). A window holding one is dead for both sides.
    let (no_threat, no_straight_threat) = if s.is_ninja() {
        (T::of(RED), T::of(RED.or(YELLOW)))
    } else {
        (T::EMPTY, T::EMPTY)
    };
    let mut windows = [[0u32; 3]; 2];
    let mut threats = [T::EMPTY; 2];
    let mut now = [0u32; 2];
    let mut two = [0u32; 2];
    let mut two_starts = [[Bits::EMPTY; 4]; 2];
    for (k, d) in bits::directions(s.cols() as usize + 1)
        .into_iter()
        .enumerate()
    {
        let exclude = if k < 2 { no_straight_threat } else { no_threat };
        let usable = empty.and_not(exclude);
        let blocked = empty.and(exclude);
        // Per side: its pieces, its pieces and usable cells of its first turn's residue, and
        // those and the second turn's.
        let first = [0, 1].map(|side| p[side].or(usable.and(turns[side].first)));
        let both = [0, 1].map(|side| first[side].or(usable.and(turns[side].second)));
        let mut shifted = p;
        let mut sf = first;
        let mut sb = both;
        let mut sx = blocked;
        let mut any = p;
        let mut dead = blocked;
        let mut cnt = [[T::EMPTY; 5]; 2];
        let mut cf = [[T::EMPTY; 5]; 2];
        let mut cb = [[T::EMPTY; 5]; 2];
        for side in 0..2 {
            add(&mut cnt[side], p[side], nb);
            add(&mut cf[side], first[side], nb);
            add(&mut cb[side], both[side], nb);
        }
        for _ in 1..n {
            sx = sx.shr(d);
            dead = dead.or(sx);
            for side in 0..2 {
                shifted[side] = shifted[side].shr(d);
                any[side] = any[side].or(shifted[side]);
                add(&mut cnt[side], shifted[side], nb);
                sf[side] = sf[side].shr(d);
                add(&mut cf[side], sf[side], nb);
                sb[side] = sb[side].shr(d);
                add(&mut cb[side], sb[side], nb);
            }
        }
        let start = T::of(starts[k]);
        for side in 0..2 {
            let open = start.and_not(any[1 - side]).and_not(dead);
            for (j, w) in windows[side].iter_mut().enumerate() {
                if n > j + 1 {
                    *w += equals(&cnt[side], n - j - 1, nb, open).count();
                }
            }
            let near = equals(&cnt[side], n - 1, nb, open);
            if !near.is_empty() {
                // The one cell of each such window that is not the owner's (it is empty and
                // usable: the window is open and live).
                let mut cells = near;
                let mut t = near;
                for _ in 1..n {
                    t = t.shl(d);
                    cells = cells.or(t);
                }
                threats[side] = threats[side].or(cells.and(empty));
            }
            // At its next turn: every missing cell on the first residue, at most `placements`.
            let pl = turns[side].placements as usize;
            let full_first = equals(&cf[side], n, nb, open);
            if !full_first.is_empty() {
                now[side] += at_least(&cnt[side], n.saturating_sub(pl), n, nb, full_first).count();
            }
            // Over its next two turns: the rest on the second residue, at most two of them.
            let full_both = equals(&cb[side], n, nb, open).and_not(full_first);
            if !full_both.is_empty() {
                let mut ok = T::EMPTY;
                for f in n.saturating_sub(2)..n {
                    // `f` cells of the window are its pieces or first-turn cells; f - own of
                    // them are to be placed at the first turn.
                    let with = equals(&cf[side], f, nb, full_both);
                    if !with.is_empty() {
                        ok = ok.or(at_least(&cnt[side], f.saturating_sub(pl), n, nb, with));
                    }
                }
                two[side] += ok.count();
                two_starts[side][k] = ok.bits();
            }
        }
    }
    [0, 1].map(|side| SideCounts {
        windows: windows[side],
        threats: threats[side].bits(),
        now: now[side],
        two: two[side],
        two_starts: two_starts[side],
    })
}

/// Each side's next two turns in `s` (index = `Side::index`): on the ninja board the side to
/// move plays its `left` placements on residue `phase`, then two on `phase + 2`; the other side
/// two on `phase + 1`, then two on `phase + 3`. Elsewhere every cell is of every turn, the
/// side to move has `left` placements and the other one.
fn turns_of<T: Set>(s: &Enraya) -> [Turns<T>; 2] {
    let mover = s.side_to_move().index();
    let left = s.left().max(1) as u32;
    let mut t = [Turns {
        first: T::of(s.board()),
        second: T::of(s.board()),
        placements: 1,
    }; 2];
    t[mover].placements = left;
    if s.is_ninja() {
        let ph = s.phase() % 3;
        let r = |k: u32| T::of(RESIDUE[((ph + k) % 3) as usize]);
        t[mover] = Turns {
            first: r(0),
            second: r(2),
            placements: left,
        };
        t[1 - mover] = Turns {
            first: r(1),
            second: r(0),
            placements: 2,
        };
    }
    t
}

/// Both sides' counts of `default` in `s`.
pub fn side_counts(s: &Enraya) -> [SideCounts; 2] {
    if s.is_ninja() {
        return counts::<u128>(s, &NINJA_STARTS, 5, turns_of(s));
    }
    let n = s.in_a_row() as usize;
    let starts = bits::window_starts(s.rows() as usize, s.cols() as usize, n);
    match bits::words_for(s.rows() as usize, s.cols() as usize) {
        1 => counts::<Wide<1>>(s, &starts, n, turns_of(s)),
        2 => counts::<Wide<2>>(s, &starts, n, turns_of(s)),
        3 => counts::<Wide<3>>(s, &starts, n, turns_of(s)),
        4 => counts::<Wide<4>>(s, &starts, n, turns_of(s)),
        5 => counts::<Wide<5>>(s, &starts, n, turns_of(s)),
        _ => counts::<Wide<WORDS>>(s, &starts, n, turns_of(s)),
    }
}

/// A leaf the search should not evaluate statically: a side completes a line at its next
/// turn (the mover now, or the other side after the mover's placements left), so what the
/// mover does with those placements (complete, block, or clear with a yellow cell) decides.
/// The ninja board only: its Trinity residues keep a turn to a third of the cells, while on a
/// plain board of up to 19 × 19 every cell is a move and an extension would multiply by
/// hundreds.
pub fn unquiet(s: &Enraya) -> bool {
    if !s.is_ninja() {
        return false;
    }
    let c = side_counts(s);
    c[0].now > 0 || c[1].now > 0 || c[0].two > 0 || c[1].two > 0
}

/// The terms of `default` for `perspective`: (own, opp) pairs and the mover's bonuses.
#[derive(Clone, Copy, Debug, Default)]
struct DefaultTerms {
    windows: (i32, i32),
    threats: (i32, i32),
    live: (i32, i32),
    tempo: i32,
    green: i32,
    /// The side not to move: windows it completes at its next turn.
    next: i32,
    /// Windows completed over two turns: the mover's, the other side's.
    two: (i32, i32),
    /// The other side's two-turn line the mover cannot block.
    forced: i32,
}

/// Counts of the race terms are capped: past these more of them say nothing more.
const NEXT_CAP: u32 = 2;
/// A race term the opponent escapes with a yellow cell counts a quarter.
const ESCAPED: i32 = 4;
const TWO_CAP: u32 = 3;

fn default_terms(s: &Enraya, w: &Weights, perspective: Side) -> DefaultTerms {
    let c = side_counts(s);
    let mover = s.side_to_move();
    let waiting = mover.other();
    let window_score = |k: &SideCounts| {
        w.window1 * k.windows[0] as i32
            + w.window2 * k.windows[1] as i32
            + w.window3 * k.windows[2] as i32
    };
    let live_cells = |side: Side| -> i32 {
        if !s.is_ninja() {
            return 0;
        }
        let next = if side == mover {
            s.phase() % 3
        } else {
            (s.phase() + 1) % 3
        };
        c[side.index()].threats.and(RESIDUE[next as usize]).count() as i32
    };
    let sign = if mover == perspective { 1 } else { -1 };
    let (mi, wi) = (mover.index(), waiting.index());
    // The race, decided in this order (each later term only when no earlier one holds): the
    // mover completes a line now; the other side completes one at its next turn, on a residue
    // the mover cannot place on now; the mover completes one over its next two turns, whose
    // cells the other side cannot reach in between (its turn is on the third residue).
    // A yellow cell is the one defence against a line the opponent completes at a turn one
    // cannot place on: it empties its row and column. The mover escapes the other side's next
    // turn when one of its legal yellow cells leaves that side nothing to complete; the other
    // side escapes the mover's two-turn line when a yellow cell of its own turn's residue
    // (empty now) clears it.
    // An escape is no refutation (the other side may answer with a yellow cell of its own and
    // build again): it divides the term by ESCAPED.
    let mover_now = c[mi].now > 0;
    let waiting_now = !mover_now && c[wi].now > 0;
    let next_div = if waiting_now && mover_clears(s, wi) {
        ESCAPED
    } else {
        1
    };
    let mover_two = !mover_now && !waiting_now && c[mi].two > 0;
    let two_div = if mover_two && waiting_clears(s, mi) {
        ESCAPED
    } else {
        1
    };
    let waiting_forced = !mover_now
        && !waiting_now
        && !mover_two
        && c[wi].two > 0
        && unblockable(s, &c[wi].two_starts);
    let tempo = if mover_now { w.tempo } else { 0 };
    let green = if s.is_ninja() && !s.placements().and(GREEN).is_empty() {
        w.green
    } else {
        0
    };
    let (own, opp) = (perspective.index(), 1 - perspective.index());
    DefaultTerms {
        windows: (window_score(&c[own]), window_score(&c[opp])),
        threats: (
            w.threat * c[own].threats.count() as i32,
            w.threat * c[opp].threats.count() as i32,
        ),
        live: (
            w.live * live_cells(perspective),
            w.live * live_cells(perspective.other()),
        ),
        tempo: sign * tempo,
        green: sign * green,
        next: if waiting_now {
            -sign * w.next * c[wi].now.min(NEXT_CAP) as i32 / next_div
        } else {
            0
        },
        two: (
            if mover_two {
                sign * w.two_mover * c[mi].two.min(TWO_CAP) as i32 / two_div
            } else {
                0
            },
            if mover_now || waiting_now {
                0
            } else {
                -sign * w.two_waiting * c[wi].two.min(TWO_CAP) as i32
            },
        ),
        forced: if waiting_forced { -sign * w.forced } else { 0 },
    }
}

/// Windows examined at most by [`unblockable`]; past them it answers no.
const BLOCK_WINDOWS: usize = 16;

/// Do the other side's two-turn windows (first cells `starts`, per direction) survive every
/// choice of the mover's placements left? The mover can block a window only on its cells of
/// the mover's residue (the other side's first turn is on the next one); it blocks all of them
/// when one cell, or with two placements two cells, meet every window. Ninja board only.
fn unblockable(s: &Enraya, starts: &[Bits; 4]) -> bool {
    if !s.is_ninja() {
        return false;
    }
    let free =
        bits::low(s.board().and_not(s.occupied())) & bits::low(RESIDUE[(s.phase() % 3) as usize]);
    let mut windows: ArrayVec<u128, BLOCK_WINDOWS> = ArrayVec::new();
    for (k, d) in bits::directions(10).into_iter().enumerate() {
        let mut b = bits::low(starts[k]);
        while b != 0 {
            let i = b.trailing_zeros();
            b &= b - 1;
            let mut cells = 0u128;
            for j in 0..5 {
                cells |= 1u128 << (i + j * d);
            }
            if windows.try_push(cells & free).is_err() {
                return false;
            }
        }
    }
    if windows.contains(&0) {
        return true;
    }
    let all = windows.iter().fold(0u128, |a, &w| a | w);
    let hits = |m: u128| windows.iter().all(|&w| w & m != 0);
    let mut a = all;
    while a != 0 {
        let x = a & a.wrapping_neg();
        a &= a - 1;
        if hits(x) {
            return false;
        }
        if s.left() >= 2 {
            let mut b = a;
            while b != 0 {
                let y = b & b.wrapping_neg();
                b &= b - 1;
                if hits(x | y) {
                    return false;
                }
            }
        }
    }
    true
}

/// Can the mover, with one of its legal yellow placements, leave side `wi` (the other side)
/// no line to complete at its next turn?
fn mover_clears(s: &Enraya, wi: usize) -> bool {
    if !s.is_ninja() {
        return false;
    }
    let stride = s.cols() as usize + 1;
    s.placements().and(YELLOW).iter().any(|i| {
        let t = s.place(i / stride, i % stride);
        t.status == super::RUNNING && side_counts(&t)[wi].now == 0
    })
}

/// Is there an empty yellow cell on the residue of the other side's next turn, next to a piece
/// now, whose row and column hold pieces of the mover (`mi`) without which it has no two-turn
/// line?
fn waiting_clears(s: &Enraya, mi: usize) -> bool {
    if !s.is_ninja() {
        return false;
    }
    let residue = RESIDUE[((s.phase() + 1) % 3) as usize];
    let stride = s.cols() as usize + 1;
    let occ = bits::low(s.occupied());
    let h = occ | occ << 1 | occ >> 1;
    let near = bits::from_low(h | h << stride | h >> stride);
    YELLOW
        .and(residue)
        .and(near)
        .and_not(s.occupied())
        .iter()
        .any(|i| {
            let mut clear = bits::cross(i / stride, i % stride, 9, 9);
            clear.clear(i);
            let mut t = *s;
            t.pieces[mi] = t.pieces[mi].and_not(clear);
            t.pieces[mi] != s.pieces[mi] && side_counts(&t)[mi].two == 0
        })
}

/// The course's `heuristicaPrueba` value of one side's pieces.
fn test_score(s: &Enraya, side: Side) -> i32 {
    let (rows, cols) = (s.rows() as i32, s.cols() as i32);
    let stride = cols as usize + 1;
    s.pieces(side)
        .iter()
        .map(|i| {
            let (f, c) = ((i / stride) as i32, (i % stride) as i32);
            rows - (f - rows / 2).abs() + cols - (c - cols / 2).abs()
        })
        .sum()
}

/// `evaluate_with` of [`Enraya`]; `heuristic` out of range falls back to the default.
pub fn evaluate(s: &Enraya, heuristic: usize, w: &Weights, perspective: Side) -> i32 {
    let v = match heuristic {
        1 => test_score(s, perspective) - test_score(s, perspective.other()),
        _ => {
            let t = default_terms(s, w, perspective);
            t.windows.0 - t.windows.1 + t.threats.0 - t.threats.1 + t.live.0 - t.live.1
                + t.tempo
                + t.green
                + t.next
                + t.two.0
                + t.two.1
                + t.forced
        }
    };
    v.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
}

fn term(name: &str, own: i32, opp: i32) -> EvalTerm {
    EvalTerm {
        name: name.into(),
        value: format!("{own} - {opp} = {}", own - opp),
    }
}

/// `eval_terms_with` of [`Enraya`].
pub fn eval_terms(s: &Enraya, heuristic: usize, w: &Weights, perspective: Side) -> Vec<EvalTerm> {
    let mut v = match heuristic {
        1 => vec![term(
            "centrality (heuristicaPrueba)",
            test_score(s, perspective),
            test_score(s, perspective.other()),
        )],
        _ => {
            let t = default_terms(s, w, perspective);
            vec![
                term("windows", t.windows.0, t.windows.1),
                term("threats", t.threats.0, t.threats.1),
                term("live", t.live.0, t.live.1),
                EvalTerm {
                    name: "tempo".into(),
                    value: t.tempo.to_string(),
                },
                EvalTerm {
                    name: "green".into(),
                    value: t.green.to_string(),
                },
                EvalTerm {
                    name: "next".into(),
                    value: t.next.to_string(),
                },
                EvalTerm {
                    name: "two (mover, waiting)".into(),
                    value: format!("{} + {}", t.two.0, t.two.1),
                },
                EvalTerm {
                    name: "forced".into(),
                    value: t.forced.to_string(),
                },
            ]
        }
    };
    v.push(EvalTerm {
        name: "total".into(),
        value: evaluate(s, heuristic, w, perspective).to_string(),
    });
    v
}

/// Move ordering: a placement that completes the mover's line first, then one that takes a
/// cell completing the opponent's line, then cells that extend the mover's runs, green cells,
/// cells near the centre; a red cell that would complete the opponent's line last. Looks only
/// at the cell's neighbourhood (four directions, up to N - 1 cells each way).
pub fn move_order_hint(s: &Enraya, m: Move) -> i32 {
    let Move::Place { row, col } = m else {
        return 0;
    };
    let (f, c) = (row as usize, col as usize);
    let mover = s.side_to_move();
    let special = s.special(f, c);
    let owner = if special == super::Special::Red {
        mover.other()
    } else {
        mover
    };
    let run_own = longest_run(s, f, c, owner);
    let run_other = longest_run(s, f, c, owner.other());
    let n = s.in_a_row() as i32;
    let mut hint =
        -((f as i32 - s.rows() as i32 / 2).abs() + (c as i32 - s.cols() as i32 / 2).abs());
    if run_own >= n {
        hint += if owner == mover { 10_000 } else { -10_000 };
    } else if run_other >= n && owner == mover {
        hint += 5_000;
    } else {
        hint += 10 * if owner == mover { run_own } else { -run_own };
    }
    match special {
        super::Special::Green => hint += 50,
        super::Special::Red => hint -= 50,
        _ => {}
    }
    hint
}

/// The longest line of `side`'s pieces through (`f`, `c`) if it held one of them, counted up
/// to N (bit steps as in the line check: a step off a row's end lands on a sentinel).
fn longest_run(s: &Enraya, f: usize, c: usize, side: Side) -> i32 {
    let p = s.pieces(side);
    let n = s.in_a_row() as usize;
    let stride = s.cols() as usize + 1;
    let limit = s.rows() as usize * stride;
    let i = f * stride + c;
    let mut best = 0;
    for d in bits::directions(stride) {
        let d = d as usize;
        let mut run = 1;
        let mut j = i;
        while run < n && j + d < limit && p.test(j + d) {
            j += d;
            run += 1;
        }
        let mut j = i;
        while run < n && j >= d && p.test(j - d) {
            j -= d;
            run += 1;
        }
        best = best.max(run);
    }
    best as i32
}

/// About how many placements the side to move still has to make. On other boards a side makes
/// at most half the empty cells. On the ninja board a turn is two placements and yellow cells
/// empty rows and columns again, so the empty cells say little; a quarter of them, between 4
/// and 30, is the right size for sharing a clock.
pub fn moves_left(s: &Enraya) -> u32 {
    let empty = s.board().and_not(s.occupied()).count();
    if s.is_ninja() {
        (empty / 4).clamp(4, 30)
    } else {
        empty.div_ceil(2).max(1)
    }
}
