//! Heuristics of classic Connect Four (and the window/seed building blocks BOOM reuses).
//!
//! All values are from `perspective`'s point of view ("own" = perspective, "opp" = the other
//! side). A *window* is a line of four cells lying wholly on the board (69 on 7×6); it is *open*
//! for a player when it holds no opponent stone.
//!
//! * `test` (index 1), the course's simple baseline: `open(own) - open(opp)`, where `open(p)` is
//!   the number of windows holding no stone of `p`'s opponent (empty windows count for both and
//!   cancel out).
//! * `seed` (index 2): the BOOM student report's heuristic (see [`seed_terms`]) with the bomb
//!   term dropped (classic Connect Four has no bombs; everything else is the report's formula).
//! * `default` (index 0), ours (each weight below is the default of a `Connect4W_*` option,
//!   see [`WEIGHTS`]):
//!   - `windows`: open windows weighted by own stones, 44 / 88 / 132 for 1 / 2 / 3 stones, own
//!     minus opponent's;
//!   - `centre`: 29 per stone in the centre column, 10 per stone in the two next to it, own
//!     minus opponent's (centre stones belong to most windows);
//!   - `threats`: empty cells that would complete four (Pons' winning cells). A threat on a row
//!     of the owner's parity (odd rows 1, 3, 5 for the first player, even rows for the second:
//!     the zugzwang rule that decides most end games) is worth 652, any other threat 24;
//!   - `tempo`: ±44,824 when the game is decided in the next two plies unless the horizon hides
//!     something: the side to move has a playable winning cell (it wins now), or it has none and
//!     the other side has two or more playable winning cells (it cannot block both).
//!
//!   The weights were tuned by SPSA (`tablero tune`, self-play at depth 8; docs/tuning.md) from the hand-set 3 / 3 / 1 / 60 / 25 / 5000 scaled ×10, and adopted after an
//!   SPRT (elo0 = 0, elo1 = 10) against those accepted: +48.7 ± 23.3 Elo in 574 games.

use super::Connect4;
use super::bits;
use crate::core::game::{
    EVAL_LIMIT, EvalTerm, Evaluation, Game, Side, WeightSpec, default_values, values_or_defaults,
};

/// The weights of `default` (the `Connect4W_*` options), in [`WEIGHTS`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per own stone in an open window (so 1 / 2 / 3 stones weigh 1× / 2× / 3× this).
    pub window: i32,
    /// Per stone in the centre column.
    pub centre: i32,
    /// Per stone in the two columns next to the centre.
    pub near: i32,
    /// Per threat on a row of the owner's parity.
    pub good_threat: i32,
    /// Per other threat.
    pub threat: i32,
    /// The side to move wins now / cannot stop a double threat.
    pub tempo: i32,
}

/// Ranges: every weight is symmetric around 0 and the worst case over all boards (up to
/// 8 × 7 = 56 cells) is checked below to stay inside `EVAL_LIMIT` (and inside `i32` before the
/// final clamp), so no setting can make an evaluation look like a win score
/// (`core::score::WIN_BASE` is ten times `EVAL_LIMIT`).
pub const WEIGHTS: &[WeightSpec] = &[
    spec("Connect4W_window", 44, 10_000),
    spec("Connect4W_centre", 29, 100_000),
    spec("Connect4W_near", 10, 100_000),
    spec("Connect4W_good_threat", 652, 100_000),
    spec("Connect4W_threat", 24, 100_000),
    spec("Connect4W_tempo", 44_824, 1_000_000),
];

const fn spec(name: &'static str, default: i32, bound: i32) -> WeightSpec {
    WeightSpec::symmetric(name, default, bound)
}

/// The defaults of [`WEIGHTS`].
pub const DEFAULT_WEIGHTS: Weights = weights_of(default_values(WEIGHTS));

const fn weights_of(v: [i32; 6]) -> Weights {
    Weights {
        window: v[0],
        centre: v[1],
        near: v[2],
        good_threat: v[3],
        threat: v[4],
        tempo: v[5],
    }
}

impl Evaluation<Connect4> for Weights {
    const SPECS: &'static [WeightSpec] = WEIGHTS;
    const DEFAULT: Self = DEFAULT_WEIGHTS;

    fn from_values(values: &[i32]) -> Self {
        weights_of(values_or_defaults(WEIGHTS, values))
    }

    fn evaluate(&self, s: &Connect4, heuristic: usize, perspective: Side) -> i32 {
        evaluate(s, heuristic, self, perspective)
    }

    fn terms(&self, s: &Connect4, heuristic: usize, perspective: Side) -> Vec<EvalTerm> {
        eval_terms(s, heuristic, self, perspective)
    }
}

/// The worst case of `default` over every board and every weight setting, before the clamp:
/// per side at most 56 cells × 16 windows through a cell of own stones in open windows, 8
/// stones in the centre column and 16 next to it, 56 threat cells; both sides, plus tempo.
const WORST_CASE: i64 = {
    let side = 56 * 16 * WEIGHTS[0].magnitude()
        + 8 * WEIGHTS[1].magnitude()
        + 16 * WEIGHTS[2].magnitude()
        + 56 * max(WEIGHTS[3].magnitude(), WEIGHTS[4].magnitude());
    2 * side + WEIGHTS[5].magnitude()
};
const _: () = assert!(WORST_CASE < EVAL_LIMIT as i64);

const fn max(a: i64, b: i64) -> i64 {
    if a > b { a } else { b }
}

/// The `test` heuristic: open windows of `own` minus open windows of `opp`.
#[inline]
pub fn test_score(own: u64, opp: u64, starts: &[u64; 4], stride: u32) -> (i32, i32) {
    (
        bits::open_windows(opp, starts, stride) as i32,
        bits::open_windows(own, starts, stride) as i32,
    )
}

/// Own stones in open windows of `own`, summed over the windows (a window with 2 own stones
/// counts 2): `default` weighs open windows in proportion to their own stones, so the window
/// term is this count times one weight. Two population counts per direction (the bit-sliced
/// count's low bits) instead of three. Population counts are the cost here: the crate is built
/// for baseline x86-64, where `count_ones` is a dozen instructions.
#[inline]
pub fn window_stones(own: u64, opp: u64, starts: &[u64; 4], stride: u32) -> i32 {
    let mut stones = 0;
    for (i, d) in bits::directions(stride).into_iter().enumerate() {
        let free = starts[i] & !(opp | (opp >> d) | (opp >> (2 * d)) | (opp >> (3 * d)));
        let (a, b, c, e) = (own, own >> d, own >> (2 * d), own >> (3 * d));
        let bit0 = a ^ b ^ c ^ e;
        let bit1 = (a & b) ^ (c & e) ^ ((a ^ b) & (c ^ e));
        // A window with four own stones (bit2) only exists once the game is over.
        stones += (free & bit0).count_ones() + 2 * (free & bit1).count_ones();
    }
    stones as i32
}

/// The terms of the student report's `eval(estado, jugador)` for one player, on any bitboard of
/// column stride `stride`. `own` are all the player's pieces (bombs included), `own_normal` its
/// normal pieces, `own_bombs` its bombs, `opp` all the other player's pieces; `mid_cols` the
/// cells of the report's "middle" columns.
///
/// The report loops over every cell (`i` = row from the bottom, `j` = column) and, for a cell of
/// the player (bomb or not), adds 5 when the next cell to the right / above / up-right / up-left
/// is also the player's and 15 more when the one after that is too (`cHoriz`, `cVert`,
/// `cDiago1`, `cDiago2`); 1 per *normal* piece in columns `j > 2 && j < 5` (`mid`); 25 per own
/// bomb (`cBomba`). For a cell of the opponent followed by another opponent cell to the right
/// or above and then a *normal* piece of the player, it adds 20 (`cEnem`), 10 for the two
/// diagonals. Cells off the board count as empty.
///
/// Its return is `5 * (cVert + cHoriz) + cEspacio + cEnem + cBomba + (cDiago1 + cDiago2) * 0.5`.
/// Typos fixed: `cEspacio` is never computed in the report while `mid` is computed and never
/// used, and the report's stated aim is to reward centre pieces, so `cEspacio` is read as `mid`;
/// `cDiagol`/`cDiago1` and `estados`/`estado` are the same variables. To stay in integers the
/// whole value is doubled (the `0.5` becomes 1, everything else ×2); only the scale changes.
pub fn seed_terms(
    own: u64,
    own_normal: u64,
    own_bombs: u64,
    opp: u64,
    mid_cols: u64,
    stride: u32,
) -> SeedTerms {
    let pair_up = |p: u64, d: u32| {
        let two = p & (p >> d);
        5 * two.count_ones() as i32 + 15 * (two & (p >> (2 * d))).count_ones() as i32
    };
    // Up-left goes to a lower bit index: shift the other way.
    let pair_down = |p: u64, d: u32| {
        let two = p & (p << d);
        5 * two.count_ones() as i32 + 15 * (two & (p << (2 * d))).count_ones() as i32
    };
    let s = stride;
    let enem_up = |d: u32| (opp & (opp >> d) & (own_normal >> (2 * d))).count_ones() as i32;
    let enem_down = (opp & (opp << (s - 1)) & (own_normal << (2 * (s - 1)))).count_ones() as i32;
    SeedTerms {
        horiz: pair_up(own, s),
        vert: pair_up(own, 1),
        diag1: pair_up(own, s + 1),
        diag2: pair_down(own, s - 1),
        mid: (own_normal & mid_cols).count_ones() as i32,
        bomb: 25 * own_bombs.count_ones() as i32,
        enem: 20 * enem_up(s) + 20 * enem_up(1) + 10 * enem_up(s + 1) + 10 * enem_down,
    }
}

/// One player's terms of the report's heuristic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeedTerms {
    pub horiz: i32,
    pub vert: i32,
    pub diag1: i32,
    pub diag2: i32,
    pub mid: i32,
    pub bomb: i32,
    pub enem: i32,
}

impl SeedTerms {
    /// Twice the report's `eval` value (see [`seed_terms`]).
    pub fn doubled(&self) -> i32 {
        10 * (self.vert + self.horiz)
            + 2 * self.mid
            + 2 * self.enem
            + 2 * self.bomb
            + (self.diag1 + self.diag2)
    }
}

/// The report's "middle" columns `j > 2 && j < 5` (0-based 3 and 4) of a `w`-wide board.
pub fn seed_mid_columns(w: u32, h: u32) -> u64 {
    (3..5.min(w))
        .map(|c| bits::column_mask(c, h))
        .fold(0, |a, b| a | b)
}

/// Cells of rows with 0-based index of parity `parity` (0 = rows 1, 3, 5… counted from 1).
#[inline]
fn parity_rows(bottom: u64, h: u32, parity: u32) -> u64 {
    let pattern = (0x5555_5555u64 << parity) & ((1u64 << h) - 1);
    bottom * pattern
}

/// The default heuristic's terms for `perspective`.
#[derive(Clone, Copy, Debug, Default)]
struct DefaultTerms {
    windows: (i32, i32),
    centre: (i32, i32),
    threats: (i32, i32),
    tempo: i32,
}

#[inline]
fn default_terms<const STRIDE: u32>(s: &Connect4, w: &Weights, perspective: Side) -> DefaultTerms {
    let stride = STRIDE;
    let (h, width) = (s.height(), s.width());
    let own = s.stones(perspective);
    let opp = s.mask ^ own;
    let starts = bits::window_starts(s.board, stride);
    let centre_col = (width - 1) / 2;
    let centre = bits::column_mask(centre_col, h);
    let near = bits::column_mask(centre_col.saturating_sub(1), h)
        | if centre_col + 1 < width {
            bits::column_mask(centre_col + 1, h)
        } else {
            0
        };
    let centre_score = |p: u64| {
        w.centre * (p & centre).count_ones() as i32
            + w.near * (p & near & !centre).count_ones() as i32
    };
    let own_threats = bits::winning_cells(own, s.mask, s.board, stride);
    let opp_threats = bits::winning_cells(opp, s.mask, s.board, stride);
    // First player (x) likes rows 1, 3, 5 (0-based even), the second player rows 2, 4, 6.
    let good = |side: Side| parity_rows(s.bottom, h, side.index() as u32);
    let threat_score = |t: u64, side: Side| {
        let g = good(side);
        w.good_threat * (t & g).count_ones() as i32 + w.threat * (t & !g).count_ones() as i32
    };
    let playable = s.playable();
    let mover = s.side_to_move();
    let (mover_t, other_t) = if mover == perspective {
        (own_threats, opp_threats)
    } else {
        (opp_threats, own_threats)
    };
    let tempo_for_mover = if mover_t & playable != 0 {
        w.tempo
    } else if (other_t & playable).count_ones() >= 2 {
        -w.tempo
    } else {
        0
    };
    DefaultTerms {
        windows: (
            w.window * window_stones(own, opp, &starts, stride),
            w.window * window_stones(opp, own, &starts, stride),
        ),
        centre: (centre_score(own), centre_score(opp)),
        threats: (
            threat_score(own_threats, perspective),
            threat_score(opp_threats, perspective.other()),
        ),
        tempo: if mover == perspective {
            tempo_for_mover
        } else {
            -tempo_for_mover
        },
    }
}

fn test_pair<const STRIDE: u32>(s: &Connect4, perspective: Side) -> (i32, i32) {
    let own = s.stones(perspective);
    test_score(
        own,
        s.mask ^ own,
        &bits::window_starts(s.board, STRIDE),
        STRIDE,
    )
}

fn seed_pair<const STRIDE: u32>(s: &Connect4, perspective: Side) -> (SeedTerms, SeedTerms) {
    let own = s.stones(perspective);
    let opp = s.mask ^ own;
    let mid = seed_mid_columns(s.width(), s.height());
    let st = STRIDE;
    (
        seed_terms(own, own, 0, opp, mid, st),
        seed_terms(opp, opp, 0, own, mid, st),
    )
}

/// Calls `$f::<stride>(args)` with the position's column stride as a constant, so that every
/// shift of the bitboard code is an immediate (about twice as fast as run-time shifts).
macro_rules! by_stride {
    ($s:expr, $f:ident ( $($a:expr),* )) => {
        match $s.stride() {
            5 => $f::<5>($($a),*),
            6 => $f::<6>($($a),*),
            7 => $f::<7>($($a),*),
            8 => $f::<8>($($a),*),
            _ => $f::<9>($($a),*),
        }
    };
}

/// `evaluate_with` of [`Connect4`]; `heuristic` out of range falls back to the default.
pub fn evaluate(s: &Connect4, heuristic: usize, w: &Weights, perspective: Side) -> i32 {
    let v = match heuristic {
        1 => {
            let (a, b) = by_stride!(s, test_pair(s, perspective));
            a - b
        }
        2 => {
            let (a, b) = by_stride!(s, seed_pair(s, perspective));
            a.doubled() - b.doubled()
        }
        _ => {
            let t = by_stride!(s, default_terms(s, w, perspective));
            t.windows.0 - t.windows.1 + t.centre.0 - t.centre.1 + t.threats.0 - t.threats.1
                + t.tempo
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

/// `eval_terms_with` of [`Connect4`].
pub fn eval_terms(s: &Connect4, heuristic: usize, w: &Weights, perspective: Side) -> Vec<EvalTerm> {
    let total = EvalTerm {
        name: "total".into(),
        value: evaluate(s, heuristic, w, perspective).to_string(),
    };
    let mut v = match heuristic {
        1 => {
            let (a, b) = by_stride!(s, test_pair(s, perspective));
            vec![term("open windows", a, b)]
        }
        2 => seed_term_list(&by_stride!(s, seed_pair(s, perspective))),
        _ => {
            let t = by_stride!(s, default_terms(s, w, perspective));
            vec![
                term("windows", t.windows.0, t.windows.1),
                term("centre", t.centre.0, t.centre.1),
                term("threats", t.threats.0, t.threats.1),
                EvalTerm {
                    name: "tempo".into(),
                    value: t.tempo.to_string(),
                },
            ]
        }
    };
    v.push(total);
    v
}

/// The report's terms, own vs opponent, for `eval_terms` (values as in the report, undoubled
/// except `total`).
pub fn seed_term_list((a, b): &(SeedTerms, SeedTerms)) -> Vec<EvalTerm> {
    vec![
        term("cHoriz", a.horiz, b.horiz),
        term("cVert", a.vert, b.vert),
        term("cDiago1", a.diag1, b.diag1),
        term("cDiago2", a.diag2, b.diag2),
        term("cEspacio (mid)", a.mid, b.mid),
        term("cEnem", a.enem, b.enem),
        term("cBomba", a.bomb, b.bomb),
        term("2 x eval", a.doubled(), b.doubled()),
    ]
}
