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
//!   - `windows`: open windows holding N - 1, N - 2 and N - 3 own pieces (`EnrayaW_window1`,
//!     `_window2`, `_window3` each; emptier windows are not counted);
//!   - `threats`: empty cells that would complete a line of the owner (`EnrayaW_threat` each).
//!     Red cells are no threat (the piece placed there is the opponent's), nor is a yellow cell
//!     for a row or column line (placing there empties the rest of its row and column);
//!   - `live`: threats on the owner's next Trinity residue (ninja mode: the residue of its
//!     next placement, `phase mod 3` for the side to move, `phase + 1` for the other), playable
//!     at its next turn, `EnrayaW_live` each; 0 on other boards, which have no Trinity;
//!   - `tempo`: the side to move can complete a line with one of its legal placements now
//!     (`EnrayaW_tempo`, for the side to move, against the other);
//!   - `green`: the side to move can place on a green cell now, one more placement
//!     (`EnrayaW_green`).
//!
//!   The weights are a first hand-set guess; `tablero learn` is to fit them.
//!
//! The windows are counted with bitboards: per direction, the N shifted copies of each
//! player's pieces are added into a bit-sliced counter (bit `b` of every window's piece count
//! in one bitboard), so a position costs a few hundred word operations whatever N is.

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
}

/// Ranges: symmetric around 0, chosen so that the worst case below stays inside `EVAL_LIMIT`
/// whatever the settings.
pub const WEIGHTS: &[WeightSpec] = &[
    WeightSpec::symmetric("EnrayaW_window1", 60, 10_000),
    WeightSpec::symmetric("EnrayaW_window2", 15, 10_000),
    WeightSpec::symmetric("EnrayaW_window3", 4, 10_000),
    WeightSpec::symmetric("EnrayaW_threat", 40, 20_000),
    WeightSpec::symmetric("EnrayaW_live", 80, 20_000),
    WeightSpec::symmetric("EnrayaW_tempo", 3_000, 1_000_000),
    WeightSpec::symmetric("EnrayaW_green", 30, 100_000),
];

/// The defaults of [`WEIGHTS`].
pub const DEFAULT_WEIGHTS: Weights = weights_of(default_values(WEIGHTS));

const fn weights_of(v: [i32; 7]) -> Weights {
    Weights {
        window1: v[0],
        window2: v[1],
        window3: v[2],
        threat: v[3],
        live: v[4],
        tempo: v[5],
        green: v[6],
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
    2 * side + WEIGHTS[5].magnitude() + WEIGHTS[6].magnitude()
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
    /// Open windows missing 1, 2, 3 own pieces.
    pub windows: [u32; 3],
    /// Threat cells (see the module doc).
    pub threats: Bits,
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

/// Both sides' counts (index = `Side::index`) with the set type `T`, for lines of `n` (N,
/// passed in so that the ninja board's call unrolls every loop on its constant 5).
#[inline(always)]
fn counts<T: Set>(s: &Enraya, starts: &[Bits; 4], n: usize) -> [SideCounts; 2] {
    // Bits of a counter that holds 0..=n.
    let nb = (usize::BITS - n.leading_zeros()) as usize;
    let p = [T::of(s.pieces(Side::First)), T::of(s.pieces(Side::Second))];
    let empty = T::of(s.board()).and_not(p[0].or(p[1]));
    // A red cell is no threat; a yellow one only for a diagonal line.
    let (no_threat, no_straight_threat) = if s.is_ninja() {
        (T::of(RED), T::of(RED.or(YELLOW)))
    } else {
        (T::EMPTY, T::EMPTY)
    };
    let mut windows = [[0u32; 3]; 2];
    let mut threats = [T::EMPTY; 2];
    for (k, d) in bits::directions(s.cols() as usize + 1)
        .into_iter()
        .enumerate()
    {
        let mut shifted = p;
        let mut any = p;
        let mut cnt = [[T::EMPTY; 5]; 2];
        add(&mut cnt[0], p[0], nb);
        add(&mut cnt[1], p[1], nb);
        for _ in 1..n {
            for side in 0..2 {
                shifted[side] = shifted[side].shr(d);
                any[side] = any[side].or(shifted[side]);
                add(&mut cnt[side], shifted[side], nb);
            }
        }
        let exclude = if k < 2 { no_straight_threat } else { no_threat };
        let start = T::of(starts[k]);
        for side in 0..2 {
            let open = start.and_not(any[1 - side]);
            for (j, w) in windows[side].iter_mut().enumerate() {
                if n > j + 1 {
                    *w += equals(&cnt[side], n - j - 1, nb, open).count();
                }
            }
            let near = equals(&cnt[side], n - 1, nb, open);
            if !near.is_empty() {
                // The one cell of each such window that is not the owner's (it is empty: the
                // window is open).
                let mut cells = near;
                let mut t = near;
                for _ in 1..n {
                    t = t.shl(d);
                    cells = cells.or(t);
                }
                threats[side] = threats[side].or(cells.and(empty).and_not(exclude));
            }
        }
    }
    [0, 1].map(|side| SideCounts {
        windows: windows[side],
        threats: threats[side].bits(),
    })
}

/// Both sides' counts of `default` in `s`.
pub fn side_counts(s: &Enraya) -> [SideCounts; 2] {
    if s.is_ninja() {
        return counts::<u128>(s, &NINJA_STARTS, 5);
    }
    let n = s.in_a_row() as usize;
    let starts = bits::window_starts(s.rows() as usize, s.cols() as usize, n);
    match bits::words_for(s.rows() as usize, s.cols() as usize) {
        1 => counts::<Wide<1>>(s, &starts, n),
        2 => counts::<Wide<2>>(s, &starts, n),
        3 => counts::<Wide<3>>(s, &starts, n),
        4 => counts::<Wide<4>>(s, &starts, n),
        5 => counts::<Wide<5>>(s, &starts, n),
        _ => counts::<Wide<WORDS>>(s, &starts, n),
    }
}

/// The terms of `default` for `perspective`: (own, opp) pairs and the mover's bonuses.
#[derive(Clone, Copy, Debug, Default)]
struct DefaultTerms {
    windows: (i32, i32),
    threats: (i32, i32),
    live: (i32, i32),
    tempo: i32,
    green: i32,
}

fn default_terms(s: &Enraya, w: &Weights, perspective: Side) -> DefaultTerms {
    let c = side_counts(s);
    let mover = s.side_to_move();
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
    let legal = s.placements();
    let sign = if mover == perspective { 1 } else { -1 };
    let tempo = if legal.and(c[mover.index()].threats).is_empty() {
        0
    } else {
        w.tempo
    };
    let green = if s.is_ninja() && !legal.and(GREEN).is_empty() {
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
    }
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
