//! Heuristics of Conecta-4 BOOM. Values are from `perspective`'s view ("own") against the other
//! side ("opp"); bombs count as their owner's pieces everywhere (they do for lines). A window is
//! a line of four cells on the 7×7 board (88 of them); it is *open* for a side when it holds no
//! piece of the other side.
//!
//! * `test` (index 1), the course's `ValoracionTest` exactly (its `Puntuacion`): per *normal*
//!   piece of `perspective` (the core's `See_Casilla(i, j) == jugador` never matches a bomb),
//!   the column's distance from the nearer edge, 0 1 2 3 2 1 0; the opponent's pieces do not
//!   count, so it is not antisymmetric (the search keeps the root player's view, as the course's
//!   alpha-beta does). A full board scores 0.
//! * `seed` (index 2): the student report's heuristic, bombs included (see
//!   [`crate::games::connect4::eval::seed_terms`] for the exact formula and the typos fixed).
//!   Doubled to stay in integers. A full board scores 0, as in the report's `Valoracion`.
//!
//! # Year 2018-19 (DesConecta-4 BOOM)
//! `test` is that year's `ValoracionTest` too (the same `Puntuacion`, a full board 0); `seed` is
//! the 2020-21 report's and is kept as it is. `default` is another one, since four in a row
//! *loses* ([`desconecta_terms`]); its weights are hand-set, not fitted, and not options.
//!
//! A full board is never a leaf the game ends on unless the player to move has no bomb (the
//! core's rule, see [`super`]); with a bomb it is an ordinary position whose only movement is
//! `BOOM`, and both course heuristics value it 0 ("se ha rellenado completamente el tablero").
//! * `default` (index 0), ours. Its weights (the defaults of the `BoomW_*` options, see
//!   [`WEIGHTS`]) are fitted by Texel's method — logistic regression of the game result on the
//!   evaluation, 1 250 units per logit — to the positions of 30 000 self-play games at depth 6,
//!   as `tablero learn` does (docs/learned-evaluations.md). The terms, own minus opp unless
//!   said otherwise:
//!   - `windows`: per own piece in an open window (fitted slightly negative: the other terms
//!     say what matters about windows);
//!   - `centre` / `near`: per piece in column 4 / columns 3 and 5;
//!   - `threats`: per empty cell that would complete four (no odd/even rule here: two
//!     movements per turn and explosions break Connect Four's zugzwang parity);
//!   - `bomb`: a bomb on the board, plus per opponent piece in its row (what a `BOOM` would
//!     remove);
//!   - `hot`: per open window with exactly two own pieces whose two empty cells are each
//!     playable or directly above a playable cell (one turn of two movements fills them when
//!     both are playable or stacked; an approximation otherwise);
//!   - `tempo`: for the side to move when it can complete four with `PUT`s in the movements
//!     left in its turn (checked exactly: a playable winning cell, or — with two movements left
//!     — any first `PUT` after which a winning cell is playable), or, failing that, against it
//!     when the other side has more playable winning cells than the mover has movements left
//!     to block them; `doom` / `doom_hot` against it when blocking them takes more movements
//!     than it has (a cell right above a playable one takes two; `doom_hot` counts the other
//!     side's `hot` windows as one more each);
//!   - `near threats`: per playable winning cell and per winning cell right above a playable
//!     one, for the side to move and for the side waiting (four weights);
//!   - `boom win` / `boom threat`: the side to move can complete four with its `BOOM` this turn
//!     (the explosion itself, or a winning cell it makes playable), the side waiting could in
//!     its next turn;
//!   - `full-board parity`: per (occupied cells)² / 49 against the side that would be to move
//!     on a board filled without explosions (who cannot move there loses);
//!   - `bomb soon`: a side with no bomb whose next turn places one (the side to move's turn
//!     now, with both movements left; the side waiting's next) can put it and explode it at
//!     once: per opponent piece in the fullest row a `PUT` can reach (hand-set at 250 after the fit, not fitted: docs/boom-strength.md, "A bomb on the way").
//!
//!   The hand-set weights before the fit (window 3, centre 3, near 1, threat 20, bomb 15 + 8,
//!   hot 10, tempo 3000, the newer terms at 0) scored 71.2 % against `seed` at depth 6 (2,000
//!   games, random:4 openings); the fitted ones 79.2 %.

use super::{BOARD, BOTTOM, Boom, STRIDE, Year};
use crate::core::game::{
    EVAL_LIMIT, EvalTerm, Evaluation, Game, Side, WeightSpec, default_values, values_or_defaults,
};
use crate::games::connect4::bits;
use crate::games::connect4::eval::{
    SeedTerms, seed_mid_columns, seed_term_list, seed_terms, window_stones,
};

const STARTS: [u64; 4] = bits::window_starts(BOARD, STRIDE);
const CENTRE: u64 = bits::column_mask(3, 7);
const NEAR: u64 = bits::column_mask(2, 7) | bits::column_mask(4, 7);

/// The weights of `default` (the `BoomW_*` options), in [`WEIGHTS`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per own piece in an open window.
    pub window: i32,
    /// Per piece in column 4.
    pub centre: i32,
    /// Per piece in columns 3 and 5.
    pub near: i32,
    /// Per empty cell that would complete four.
    pub threat: i32,
    /// A bomb on the board.
    pub bomb: i32,
    /// Per opponent piece in the bomb's row.
    pub bomb_victim: i32,
    /// Per open window of two own pieces whose empty cells one turn can fill.
    pub hot: i32,
    /// The side to move wins this turn / cannot block.
    pub tempo: i32,
    /// Per playable winning cell of the side to move / one right above a playable cell.
    pub mover_t0: i32,
    pub mover_t1: i32,
    /// The same for the side waiting (subtracted: a positive weight is good for that side).
    pub waiting_t0: i32,
    pub waiting_t1: i32,
    /// Per (occupied cells)² / 49 for the side that would not be the one to move on a full
    /// board filled without explosions (who cannot move there loses).
    pub parity: i32,
    /// The side to move cannot win this turn and cannot block the waiting side's winning cells
    /// in the movements it has left (one per playable cell, two per cell right above one).
    pub doom: i32,
    /// The same, counting the waiting side's two-movement windows (`hot`) as one more each.
    pub doom_hot: i32,
    /// The side to move can complete four this turn with its `BOOM` (the explosion itself, or
    /// a winning cell it makes playable when a movement is left).
    pub boom_win: i32,
    /// The side waiting could do so in its next turn (subtracted).
    pub boom_threat: i32,
    /// Per opponent piece in the fullest row a `PUT` reaches, for a side with no bomb whose next
    /// turn places one (the side to move's now, the side waiting's next; subtracted for it).
    pub bomb_soon: i32,
}

/// Ranges: symmetric around 0, with the worst case over every position and setting checked
/// below to stay inside `EVAL_LIMIT` (and `i32`) before the final clamp, so no setting can
/// reach the win scores (`core::score::WIN_BASE` is ten times `EVAL_LIMIT`).
pub const WEIGHTS: &[WeightSpec] = &[
    WeightSpec::symmetric("BoomW_window", -27, 10_000),
    WeightSpec::symmetric("BoomW_centre", 632, 100_000),
    WeightSpec::symmetric("BoomW_near", 214, 100_000),
    WeightSpec::symmetric("BoomW_threat", -160, 100_000),
    WeightSpec::symmetric("BoomW_bomb", 452, 100_000),
    WeightSpec::symmetric("BoomW_bomb_victim", 189, 100_000),
    WeightSpec::symmetric("BoomW_hot", 213, 100_000),
    WeightSpec::symmetric("BoomW_tempo", 9280, 1_000_000),
    WeightSpec::symmetric("BoomW_mover_t0", 7134, 100_000),
    WeightSpec::symmetric("BoomW_mover_t1", 968, 100_000),
    WeightSpec::symmetric("BoomW_waiting_t0", 573, 100_000),
    WeightSpec::symmetric("BoomW_waiting_t1", 982, 100_000),
    WeightSpec::symmetric("BoomW_parity", 41, 100_000),
    WeightSpec::symmetric("BoomW_doom", 1896, 1_000_000),
    WeightSpec::symmetric("BoomW_doom_hot", 382, 1_000_000),
    WeightSpec::symmetric("BoomW_boom_win", 19_605, 1_000_000),
    WeightSpec::symmetric("BoomW_boom_threat", 885, 1_000_000),
    WeightSpec::symmetric("BoomW_bomb_soon", 250, 100_000),
];

const N_WEIGHTS: usize = 18;
const _: () = assert!(WEIGHTS.len() == N_WEIGHTS);

const fn weights_of(v: [i32; N_WEIGHTS]) -> Weights {
    Weights {
        window: v[0],
        centre: v[1],
        near: v[2],
        threat: v[3],
        bomb: v[4],
        bomb_victim: v[5],
        hot: v[6],
        tempo: v[7],
        mover_t0: v[8],
        mover_t1: v[9],
        waiting_t0: v[10],
        waiting_t1: v[11],
        parity: v[12],
        doom: v[13],
        doom_hot: v[14],
        boom_win: v[15],
        boom_threat: v[16],
        bomb_soon: v[17],
    }
}

/// The defaults of [`WEIGHTS`].
pub const DEFAULT_WEIGHTS: Weights = weights_of(default_values(WEIGHTS));

impl Evaluation<Boom> for Weights {
    const SPECS: &'static [WeightSpec] = WEIGHTS;
    const DEFAULT: Self = DEFAULT_WEIGHTS;

    fn from_values(values: &[i32]) -> Self {
        weights_of(values_or_defaults(WEIGHTS, values))
    }

    fn evaluate(&self, s: &Boom, heuristic: usize, perspective: Side) -> i32 {
        evaluate(s, heuristic, self, perspective)
    }

    fn terms(&self, s: &Boom, heuristic: usize, perspective: Side) -> Vec<EvalTerm> {
        eval_terms(s, heuristic, self, perspective)
    }
}

/// The worst case of `default` over every position and weight setting: per side at most 49
/// cells × 16 windows of own pieces in open windows, 7 pieces in column 4 and 14 next to it, 49
/// threat cells, one bomb with 7 pieces in its row, 88 hot windows; both sides, plus tempo,
/// and a bomb on the way with 7 victims for each side.
const WORST_CASE: i64 = {
    const fn m(i: usize) -> i64 {
        WEIGHTS[i].magnitude()
    }
    let side = 49 * 16 * m(0) + 7 * m(1) + 14 * m(2) + 49 * m(3) + m(4) + 7 * m(5) + 88 * m(6);
    2 * side
        + m(7)
        + 49 * (m(8) + m(9) + m(10) + m(11))
        + 49 * m(12)
        + m(13)
        + m(14)
        + m(15)
        + m(16)
        + 2 * 7 * m(17)
};
const _: () = assert!(WORST_CASE < EVAL_LIMIT as i64);

#[derive(Clone, Copy, Debug, Default)]
struct DefaultTerms {
    windows: (i32, i32),
    centre: (i32, i32),
    threats: (i32, i32),
    bomb: (i32, i32),
    hot: (i32, i32),
    tempo: i32,
    /// Mover's minus waiting side's weighted playable / next-up winning cells, for the
    /// perspective.
    near_threats: i32,
    parity: i32,
    /// [`bomb_soon`], for the perspective.
    bomb_soon: i32,
}

/// Start cells of the windows in direction `d` (valid starts `starts`) holding exactly two
/// pieces of `own` and no cell of `blocked`.
#[inline(always)]
fn two_own(own: u64, blocked: u64, starts: u64, d: u32) -> u64 {
    let free = starts & !(blocked | (blocked >> d) | (blocked >> (2 * d)) | (blocked >> (3 * d)));
    let (a, b, c, e) = (own, own >> d, own >> (2 * d), own >> (3 * d));
    let bit0 = a ^ b ^ c ^ e;
    let bit1 = (a & b) ^ (c & e) ^ ((a ^ b) & (c ^ e));
    free & !bit0 & bit1
}

/// Can the side to move (pieces `own`, winning cells `threats`) complete four with `PUT`s in
/// the `left` movements of its turn? Exact for `PUT`s (a `BOOM` win is left to the search),
/// without trying moves:
/// - one movement: a winning cell is playable;
/// - two movements: a winning cell is playable or right above a playable cell (fill below,
///   then win), or a window holds two own pieces and two empty cells that two `PUT`s fill. In
///   a vertical window the empty cells are stacked, so the lower one must be playable; in any
///   other window the four cells are in four columns, and a first `PUT` only changes its own
///   column, so both empty cells must be playable now.
#[inline]
fn wins_this_turn(own: u64, playable: u64, reach2: u64, left: u32, threats: u64) -> bool {
    if left < 2 {
        return threats & playable != 0;
    }
    if threats & reach2 != 0 {
        return true;
    }
    let not_reach2 = !(own | reach2) & BOARD;
    let not_playable = !(own | playable) & BOARD;
    let [v, h, d1, d2] = bits::directions(STRIDE);
    two_own(own, not_reach2, STARTS[0], v)
        | two_own(own, not_playable, STARTS[1], h)
        | two_own(own, not_playable, STARTS[2], d1)
        | two_own(own, not_playable, STARTS[3], d2)
        != 0
}

/// Does the side with pieces `own` and bomb `bomb` complete four by exploding it (against
/// `opp`), or — when `then_put` — by a `PUT` on a winning cell the explosion leaves playable?
/// False when the explosion gives only the opponent a line. The explosion as [`Boom::apply`]
/// plays it: the bomb and the opponent's pieces of its row go, the cells above fall one row.
#[inline]
fn boom_wins(own: u64, opp: u64, bomb: u64, then_put: bool) -> bool {
    if bomb == 0 {
        return false;
    }
    let r = bomb.trailing_zeros() % STRIDE;
    let row = BOTTOM << r;
    let holes = (opp & row) | bomb;
    let cols = (holes >> r) * 0xFF;
    let above = cols & BOARD & !(BOTTOM * ((2u64 << r) - 1));
    let fall = |x: u64| (x & !above) | ((x & above) >> 1);
    let (o, p) = (fall(own & !bomb), fall(opp & !row));
    if bits::has_line(o, STRIDE) {
        return true;
    }
    if !then_put || bits::has_line(p, STRIDE) {
        return false;
    }
    let occ = o | p;
    bits::winning_cells(o, occ, BOARD, STRIDE) & bits::playable_cells(occ, BOTTOM, BOARD) != 0
}

#[inline]
fn bomb_value(bomb: u64, opp: u64, w: &Weights) -> i32 {
    if bomb == 0 {
        return 0;
    }
    let row = BOTTOM << (bomb.trailing_zeros() % STRIDE);
    w.bomb + w.bomb_victim * (opp & row).count_ones() as i32
}

#[inline]
fn default_terms(s: &Boom, w: &Weights, perspective: Side) -> DefaultTerms {
    let own = s.pieces(perspective);
    let opp = s.pieces(perspective.other());
    let occ = own | opp;
    let own_t = bits::winning_cells(own, occ, BOARD, STRIDE);
    let opp_t = bits::winning_cells(opp, occ, BOARD, STRIDE);
    let centre = |p: u64| {
        w.centre * (p & CENTRE).count_ones() as i32 + w.near * (p & NEAR).count_ones() as i32
    };
    let playable = s.playable();
    let left = s.movements_left();
    let mover = s.side_to_move();
    let (mover_t, other_t) = if mover == perspective {
        (own_t, opp_t)
    } else {
        (opp_t, own_t)
    };
    // Cells a side can fill within one turn of two movements: the playable cells and the ones
    // right above them. A window of two own pieces whose two empty cells are all such cells is
    // a two-movement threat (exactly so when both are playable or stacked).
    let reach2 = playable | ((playable << 1) & BOARD);
    let hot_count = |p: u64| -> u32 {
        let blocked = !(p | reach2) & BOARD;
        (0..4)
            .map(|i| two_own(p, blocked, STARTS[i], bits::directions(STRIDE)[i]).count_ones())
            .sum()
    };
    // Each side's count once: `doom_hot` needs the waiting side's too.
    let (hot_own, hot_opp) = (hot_count(own), hot_count(opp));
    let above = (playable << 1) & BOARD;
    let tempo = if wins_this_turn(s.pieces(mover), playable, reach2, left, mover_t) {
        w.tempo
    } else if (other_t & playable).count_ones() > left {
        -w.tempo
    } else {
        let need = (other_t & playable).count_ones() + 2 * (other_t & above).count_ones();
        if need > left {
            -w.doom
        } else if need
            + if mover == perspective {
                hot_opp
            } else {
                hot_own
            }
            > left
        {
            -w.doom_hot
        } else {
            0
        }
    };
    let near_threats = w.mover_t0 * (mover_t & playable).count_ones() as i32
        + w.mover_t1 * (mover_t & above).count_ones() as i32
        - w.waiting_t0 * (other_t & playable).count_ones() as i32
        - w.waiting_t1 * (other_t & above).count_ones() as i32;
    let mover_p = s.pieces(mover);
    let other_p = s.pieces(mover.other());
    let booms =
        if w.boom_win != 0 && boom_wins(mover_p, other_p, s.bomb(mover), left == 2) {
            w.boom_win
        } else {
            0
        } - if w.boom_threat != 0 && boom_wins(other_p, mover_p, s.bomb(mover.other()), true) {
            w.boom_threat
        } else {
            0
        };
    let near_threats = near_threats + booms;
    let soon = bomb_soon(s, w, mover, playable);
    let fill = occ.count_ones() as i32;
    let full_mover = super::side_of_movement(s.movement().saturating_add((49 - fill) as u16));
    let parity = w.parity * fill * fill / 49;
    DefaultTerms {
        near_threats: if mover == perspective {
            near_threats
        } else {
            -near_threats
        },
        parity: if full_mover == perspective {
            -parity
        } else {
            parity
        },
        windows: (
            w.window * window_stones(own, opp, &STARTS, STRIDE),
            w.window * window_stones(opp, own, &STARTS, STRIDE),
        ),
        centre: (centre(own), centre(opp)),
        hot: (w.hot * hot_own as i32, w.hot * hot_opp as i32),
        threats: (
            w.threat * own_t.count_ones() as i32,
            w.threat * opp_t.count_ones() as i32,
        ),
        bomb: (
            bomb_value(s.bomb(perspective), opp, w),
            bomb_value(s.bomb(perspective.other()), own, w),
        ),
        tempo: if mover == perspective { tempo } else { -tempo },
        bomb_soon: if mover == perspective { soon } else { -soon },
    }
}

/// The `bomb soon` term, for the side to move: a side with no bomb whose next turn places one
/// can put it and explode it in that turn, taking every opponent piece of the bomb's row (the
/// fullest row a `PUT` reaches). The side to move counts only with both movements left (with
/// one, its bomb could not go off this turn); the side waiting's next turn follows this one.
#[inline]
fn bomb_soon(s: &Boom, w: &Weights, mover: Side, playable: u64) -> i32 {
    if w.bomb_soon == 0 || s.year() != Year::Y2020 {
        return 0;
    }
    let victims = |side: Side| -> i32 {
        let opp = s.pieces(side.other());
        let mut most = 0;
        let mut p = playable;
        while p != 0 {
            let row = BOTTOM << (p.trailing_zeros() % STRIDE);
            p &= p - 1;
            most = most.max((opp & row).count_ones() as i32);
        }
        most
    };
    let left = s.movements_left() as u16;
    let bomb_turn = |side: Side, movement: u16| {
        s.bomb(side) == 0 && super::turn_of_movement(movement).is_multiple_of(4)
    };
    let mut v = 0;
    if left == 2 && bomb_turn(mover, s.movement()) {
        v += victims(mover);
    }
    if bomb_turn(mover.other(), s.movement() + left) {
        v -= victims(mover.other());
    }
    w.bomb_soon * v
}

/// A leaf too sharp for a static value, where the search looks further:
/// * the middle of a turn (the side to move has made the first of its two movements): `default`
///   values a turn's two movements by guesses (`tempo`, `doom`, the near threats), so its value
///   there swings from the value at the turn's end (thousands of units on consecutive moves of
///   one game); one more ply ends the turn. A depth-8 search from a turn's second movement has
///   every leaf in the middle of a turn, yet the steadier values cut enough that the search
///   costs what it did without this (docs/boom-strength.md, "Leaves at the end of a turn");
/// * a side can complete four within its next turn of two movements — a winning cell playable
///   or right above a playable cell, a window of two own pieces whose two empty cells one turn
///   fills (`hot`), or its `BOOM` (then a `PUT`) — so what the side to move does with its
///   movements decides.
pub fn unquiet(s: &Boom) -> bool {
    if s.year() == Year::Y2020 && s.movements_left() == 1 && s.movement() > 1 {
        return true;
    }
    let (a, b) = (s.pieces(Side::First), s.pieces(Side::Second));
    let occ = a | b;
    let playable = s.playable();
    let reach2 = playable | ((playable << 1) & BOARD);
    let threats =
        bits::winning_cells(a, occ, BOARD, STRIDE) | bits::winning_cells(b, occ, BOARD, STRIDE);
    if threats & reach2 != 0 {
        return true;
    }
    let dirs = bits::directions(STRIDE);
    let hot = |p: u64| {
        let blocked = !(p | reach2) & BOARD;
        (0..4).any(|i| two_own(p, blocked, STARTS[i], dirs[i]) != 0)
    };
    hot(a)
        || hot(b)
        || boom_wins(a, b, s.bomb(Side::First), true)
        || boom_wins(b, a, s.bomb(Side::Second), true)
}

/// The terms of `default` in DesConecta-4 BOOM (`Year` 2018-19), own minus opp, where four in
/// a row loses: a side is squeezed when its `PUT`s run out of cells that do not complete its
/// own four.
/// * `safe columns`: per column where that side's `PUT` would not complete its four (16 each:
///   the side with fewer is the one forced into a line first);
/// * `poison cells`: per empty cell that would complete its four, playable or not (−4 each);
/// * `bomb`: a bomb on the board (8: a `BOOM` clears that side's own row).
#[derive(Clone, Copy, Debug, Default)]
pub struct DesconectaTerms {
    pub safe: (i32, i32),
    pub poison: (i32, i32),
    pub bomb: (i32, i32),
}

/// [`DesconectaTerms`] of `s` from `perspective`'s view.
pub fn desconecta_terms(s: &Boom, perspective: Side) -> DesconectaTerms {
    let occ = s.occupied();
    let playable = s.playable();
    let one = |side: Side| {
        let poison = bits::winning_cells(s.pieces(side), occ, BOARD, STRIDE);
        let safe = (playable & !poison).count_ones() as i32;
        (
            16 * safe,
            -4 * poison.count_ones() as i32,
            8 * (s.bomb(side) != 0) as i32,
        )
    };
    let (a, b) = (one(perspective), one(perspective.other()));
    DesconectaTerms {
        safe: (a.0, b.0),
        poison: (a.1, b.1),
        bomb: (a.2, b.2),
    }
}

fn seed_pair(s: &Boom, perspective: Side) -> (SeedTerms, SeedTerms) {
    let mid = seed_mid_columns(7, 7);
    let one = |me: Side| {
        let own = s.pieces(me);
        let bomb = s.bomb(me);
        seed_terms(own, own & !bomb, bomb, s.pieces(me.other()), mid, STRIDE)
    };
    (one(perspective), one(perspective.other()))
}

/// The course's `Puntuacion(jugador)`: per normal piece of `side`, its column's distance from
/// the nearer edge (columns 1..7 score 0 1 2 3 2 1 0).
fn course_test(s: &Boom, side: Side) -> i32 {
    let normal = s.pieces(side) & !s.bomb(side);
    (NEAR_EDGE_1 & normal).count_ones() as i32
        + 2 * (NEAR_EDGE_2 & normal).count_ones() as i32
        + 3 * (CENTRE & normal).count_ones() as i32
}

/// Columns 2 and 6, 3 and 5 (0-based 1 and 5, 2 and 4).
const NEAR_EDGE_1: u64 = bits::column_mask(1, 7) | bits::column_mask(5, 7);
const NEAR_EDGE_2: u64 = NEAR;

fn full(s: &Boom) -> bool {
    s.occupied() == BOARD
}

/// `evaluate_with` of [`Boom`]; a `heuristic` out of range falls back to the default.
pub fn evaluate(s: &Boom, heuristic: usize, w: &Weights, perspective: Side) -> i32 {
    let v = match heuristic {
        1 | 2 if full(s) => 0,
        0 if s.year() == Year::Y2018 => {
            let t = desconecta_terms(s, perspective);
            t.safe.0 - t.safe.1 + t.poison.0 - t.poison.1 + t.bomb.0 - t.bomb.1
        }
        1 => course_test(s, perspective),
        2 => {
            let (a, b) = seed_pair(s, perspective);
            a.doubled() - b.doubled()
        }
        _ => {
            let t = default_terms(s, w, perspective);
            t.windows.0 - t.windows.1 + t.centre.0 - t.centre.1 + t.threats.0 - t.threats.1
                + t.bomb.0
                - t.bomb.1
                + t.hot.0
                - t.hot.1
                + t.tempo
                + t.near_threats
                + t.parity
                + t.bomb_soon
        }
    };
    v.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
}

fn term(name: &str, (own, opp): (i32, i32)) -> EvalTerm {
    EvalTerm {
        name: name.into(),
        value: format!("{own} - {opp} = {}", own - opp),
    }
}

/// `eval_terms_with` of [`Boom`].
pub fn eval_terms(s: &Boom, heuristic: usize, w: &Weights, perspective: Side) -> Vec<EvalTerm> {
    let mut v = match heuristic {
        1 | 2 if full(s) => vec![EvalTerm {
            name: "full board".into(),
            value: "0".into(),
        }],
        1 => vec![EvalTerm {
            name: "centrality".into(),
            value: course_test(s, perspective).to_string(),
        }],
        2 => seed_term_list(&seed_pair(s, perspective)),
        0 if s.year() == Year::Y2018 => {
            let t = desconecta_terms(s, perspective);
            vec![
                term("safe columns", t.safe),
                term("poison cells", t.poison),
                term("bomb", t.bomb),
            ]
        }
        _ => {
            let t = default_terms(s, w, perspective);
            vec![
                term("windows", t.windows),
                term("centre", t.centre),
                term("threats", t.threats),
                term("bomb", t.bomb),
                term("hot", t.hot),
                EvalTerm {
                    name: "tempo".into(),
                    value: t.tempo.to_string(),
                },
                EvalTerm {
                    name: "near threats".into(),
                    value: t.near_threats.to_string(),
                },
                EvalTerm {
                    name: "full-board parity".into(),
                    value: t.parity.to_string(),
                },
                EvalTerm {
                    name: "bomb soon".into(),
                    value: t.bomb_soon.to_string(),
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
