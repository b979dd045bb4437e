//! Conecta-4 BOOM (`connect4boom`): the course's 7×7 Connect Four with two movements per turn
//! and bomb pieces. Rules: `docs/rules/connect4boom.md` (binding, clarifications included).
//!
//! # Years
//! The `Year` option picks the course year whose simulator is played ([`Year`]): `2020-21`
//! (the default, described below) or `2018-19`, **DesConecta-4 BOOM** (docs/boom-2018-19.md),
//! where four in a row *loses*, a turn is one movement, a bomb comes every fifth round and blows
//! away the bomber's *own* pieces of its row, and a full board ends the game (a draw without a
//! line). Both share the board, the moves, the notation and the state string; the year is part of
//! the configuration, not of the state string.
//!
//! # Turns
//! Movement numbers: P1 plays movement 1; then P2 plays 2–3, P1 4–5, P2 6–7, … A turn is two
//! movements of one player (P1's first turn: one). The state stores the number of the *next*
//! movement; side to move, turn number and "first or second movement of the turn" derive from
//! it, so `side_to_move` follows the two-movement turns. On a player's 4k-th turn a `PUT` places
//! a bomb when that player has none on the board (normally movements 12 and 14).
//!
//! # Board representation
//! Pons-style bitboards (see [`crate::games::connect4::bits`]) with stride 8: cell (column `c`,
//! row `r`), 0-based from the bottom-left, is bit `8c + r`; bit `8c + 7` is the sentinel.
//!
//! ```text
//!   row 7 (sentinel)  7 15 23 31 39 47 55
//!   row 6             6 14 22 30 38 46 54
//!   …
//!   row 0             0  8 16 24 32 40 48
//! ```
//!
//! `pieces[s]` holds every piece of side `s` (its bomb included, since bombs count for lines),
//! `bombs[s]` the cell of its bomb (0 or 1 bit). A `BOOM` empties cells of one row only, so
//! gravity is a single branch-free step: the cells above a hole in its column all move down one
//! bit (`(x & above) >> 1`); see [`Boom::apply`].
//!
//! # Moves
//! [`BoomMove::Put`] with a 0-based column (notation `1`..`7`) or [`BoomMove::Boom`] (notation
//! `boom`, case-insensitive on input).
//!
//! # Fen
//! `<rows> <side> <movement>`: the 7 rows from top to bottom separated by `/`, each written left
//! to right with `x`/`o` (normal piece of P1/P2), `X`/`O` (bomb of P1/P2) and digits `1`..`7` for
//! runs of empty cells; the side to move (`x` = P1, `o` = P2), which must agree with the
//! movement number; the number of the next movement (1..=65535). The start position is
//! `7/7/7/7/7/7/7 x 1`. Stones must rest on stones, each side has at most one bomb; the outcome
//! is derived: four in a row of the side that made the previous movement wins, else four in a
//! row of the other side (only a `BOOM` can give the opponent a line), else a full board decides
//! by the course core's rule (below). Lines at movement 1 are rejected. Piece counts are not checked: explosions make any
//! count reachable.
//!
//! # Full board
//! As in the 2020-21 simulator's core (`docs/rules/connect4boom.md`, "End of the game"), a full
//! board without a line is not a draw: the player to move (after the movement that filled it,
//! possibly the same player) plays `BOOM`, its only legal movement, when it holds a bomb, and
//! otherwise cannot move and loses. Conecta-4 BOOM has no draws.

pub mod eval;

use arrayvec::ArrayVec;

use crate::core::game::{
    BenchPosition, FenError, Game, Ink, MoveError, Outcome, Profile, ReviewCalibration, Side,
    VariantOption,
};
use crate::games::connect4::bits;

/// Board width and height.
pub const SIZE: u32 = 7;
/// Column stride in bits (height + sentinel).
pub const STRIDE: u32 = 8;
/// Every playable cell.
pub const BOARD: u64 = bits::board_mask(SIZE, SIZE);
/// The bottom cell of every column.
pub const BOTTOM: u64 = bits::bottom_mask(SIZE, STRIDE);

/// A movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoomMove {
    /// Drop a piece into a 0-based column.
    Put(u8),
    /// Detonate the mover's bomb.
    Boom,
}

/// Move list: at most one `PUT` per column (7) plus `BOOM` = 8.
pub type Moves = ArrayVec<BoomMove, 8>;

/// The course year whose simulator's rules are played (the `Year` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Year {
    /// DesConecta-4 BOOM (2018-19): one movement a turn, four in a row loses, a bomb every
    /// fifth round that removes the bomber's own pieces of its row, a full board ends the game.
    Y2018,
    /// Conecta-4 BOOM (2020-21): the module's rules above.
    #[default]
    Y2020,
}

impl Year {
    /// The `Year` option's value of this year (the calendar year the course started).
    pub const fn value(self) -> i64 {
        match self {
            Year::Y2018 => 2018,
            Year::Y2020 => 2020,
        }
    }

    /// The year of a checked `Year` value.
    pub const fn of_value(v: i64) -> Year {
        if v == 2018 { Year::Y2018 } else { Year::Y2020 }
    }

    /// The side making movement `n` (1-based) in this year.
    #[inline]
    pub fn side_of(self, n: u16) -> Side {
        match self {
            Year::Y2018 => {
                if n % 2 == 1 {
                    Side::First
                } else {
                    Side::Second
                }
            }
            Year::Y2020 => side_of_movement(n),
        }
    }
}

/// The variant: the course year.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Config {
    pub year: Year,
}

impl Config {
    /// The configuration of `year`.
    pub const fn of(year: Year) -> Config {
        Config { year }
    }
}

/// The 2018-19 simulator's bomb period: a `PUT` places a bomb in every fifth round (`n_veces`).
pub const BOMB_ROUNDS_2018: u16 = 5;

/// How many plies past `go depth` the win probe of `default` (2020-21) looks. 8 reaches 16
/// at the course's depth 8 and costs at most the main search's own nodes (the start position:
/// 834,154 + 449,748 nodes); 10 spends the whole budget there without an answer, and of the two
/// wins tablero threw away at depth 8 (docs/boom-strength.md) it reaches game 71's (proven at
/// depth 14), not game 109's (18 movements).
pub const WIN_PROBE_PLIES: u32 = 8;

/// A Conecta-4 BOOM position (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boom {
    pieces: [u64; 2],
    bombs: [u64; 2],
    /// Number of the next movement (1-based).
    movement: u16,
    /// 0 running, 1 P1 won, 2 P2 won, 3 draw (2018-19 only: a full board without a line).
    status: u8,
    /// Whose rules (the configuration's year).
    year: Year,
}

const RUNNING: u8 = 0;
const DRAWN: u8 = 3;

/// The four line directions as bit steps: up a column, along a row, diagonally up and down.
const DIRECTIONS: [u32; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

/// The side whose line the 2018-19 core's scan finds first (`RevisarTablero`: cells row by row
/// from the bottom, left to right in a row, the first piece that starts four of its own upwards,
/// rightwards or diagonally right up or down): that side has four in a row and loses.
fn first_line_2018(pieces: &[u64; 2]) -> Option<Side> {
    let mut best: Option<(u32, Side)> = None;
    for (i, &p) in pieces.iter().enumerate() {
        let mut starts = 0;
        for d in DIRECTIONS {
            starts |= p & (p >> d) & (p >> (2 * d)) & (p >> (3 * d));
        }
        while starts != 0 {
            let bit = starts.trailing_zeros();
            let key = (bit % STRIDE) * SIZE + bit / STRIDE;
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, Side::from_index(i)));
            }
            starts &= starts - 1;
        }
    }
    best.map(|(_, s)| s)
}

/// The 2018-19 status of a board: the side with the first line the core finds loses, else a
/// full board is a draw.
fn status_2018(pieces: &[u64; 2]) -> u8 {
    match first_line_2018(pieces) {
        Some(loser) => loser.other().index() as u8 + 1,
        None if pieces[0] | pieces[1] == BOARD => DRAWN,
        None => RUNNING,
    }
}

/// Side making movement `n` (1-based).
#[inline]
pub fn side_of_movement(n: u16) -> Side {
    // Movement 1 is P1's; from movement 2 on, pairs (2,3), (4,5), … alternate P2, P1, …
    if n <= 1 || ((n - 2) / 2) % 2 == 1 {
        Side::First
    } else {
        Side::Second
    }
}

/// The mover's turn number (1-based, counted per player) of movement `n`.
#[inline]
pub fn turn_of_movement(n: u16) -> u16 {
    if n <= 1 {
        return 1;
    }
    let k = (n - 2) / 2;
    if k.is_multiple_of(2) {
        k / 2 + 1
    } else {
        k.div_ceil(2) + 1
    }
}

/// Cells of row `r` (0-based).
#[inline]
const fn row_mask(r: u32) -> u64 {
    BOTTOM << r
}

fn piece_char(side: Side, bomb: bool) -> char {
    match (side, bomb) {
        (Side::First, false) => 'x',
        (Side::Second, false) => 'o',
        (Side::First, true) => 'X',
        (Side::Second, true) => 'O',
    }
}

impl Boom {
    /// Number of the next movement.
    pub fn movement(&self) -> u16 {
        self.movement
    }
    /// The rules' year.
    pub fn year(&self) -> Year {
        self.year
    }
    /// The side to move's turn number (1-based, per player); in 2018-19 the round, shared by
    /// both players (the core's `n_jugada`).
    pub fn turn(&self) -> u16 {
        match self.year {
            Year::Y2018 => self.movement.div_ceil(2),
            Year::Y2020 => turn_of_movement(self.movement),
        }
    }
    /// Movements the side to move has left in this turn, this one included (1 or 2; always 1
    /// in 2018-19).
    pub fn movements_left(&self) -> u32 {
        if self.year == Year::Y2018 || self.movement <= 1 || self.movement % 2 == 1 {
            1
        } else {
            2
        }
    }
    /// All pieces of `side` (bomb included).
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }
    /// The bomb cell of `side` (0 when it has none).
    pub fn bomb(&self, side: Side) -> u64 {
        self.bombs[side.index()]
    }
    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }
    /// Cells where a `PUT` would land, one per non-full column.
    #[inline]
    pub fn playable(&self) -> u64 {
        bits::playable_cells(self.occupied(), BOTTOM, BOARD)
    }
    /// Would a `PUT` now place a bomb?
    #[inline]
    pub fn put_places_bomb(&self) -> bool {
        let every = match self.year {
            Year::Y2018 => BOMB_ROUNDS_2018,
            Year::Y2020 => 4,
        };
        self.turn().is_multiple_of(every) && self.bombs[self.side_to_move().index()] == 0
    }
    /// Owner and bomb flag of cell (column `c`, row `r`), 0-based from the bottom-left.
    pub fn cell(&self, c: u32, r: u32) -> Option<(Side, bool)> {
        if c >= SIZE || r >= SIZE {
            return None;
        }
        let bit = 1u64 << (c * STRIDE + r);
        for side in [Side::First, Side::Second] {
            if self.pieces[side.index()] & bit != 0 {
                return Some((side, self.bombs[side.index()] & bit != 0));
            }
        }
        None
    }

    /// Structural invariants, checked after every movement in debug builds: no cell owned
    /// twice, nothing off the board, each bomb one cell of its owner's pieces, and every column
    /// filled from the bottom without gaps (gravity, the part explosions could break).
    pub fn invariants_hold(&self) -> bool {
        let occ = self.occupied();
        self.pieces[0] & self.pieces[1] == 0
            && occ & !BOARD == 0
            && (0..2)
                .all(|i| self.bombs[i].count_ones() <= 1 && self.bombs[i] & !self.pieces[i] == 0)
            && occ & !((occ << 1) | BOTTOM) == 0
    }

    /// In 2018-19, the side whose four in a row the core finds first (it loses).
    pub fn first_line_2018(&self) -> Option<Side> {
        first_line_2018(&self.pieces)
    }

    /// Does either side have four in a row?
    pub fn has_line(&self) -> bool {
        bits::has_line(self.pieces[0], STRIDE) || bits::has_line(self.pieces[1], STRIDE)
    }

    /// A movement under the 2018-19 rules (DesConecta-4 BOOM): a `PUT` places a bomb in every
    /// fifth round when the mover holds none; a `BOOM` empties the bomb and every other piece of
    /// the mover in its row (the opponent's pieces stay), the cells above falling; then the first
    /// line the core's scan finds loses for its owner, and a full board is a draw.
    fn apply_2018(&self, m: BoomMove) -> Self {
        let i = self.side_to_move().index();
        let mut next = *self;
        match m {
            BoomMove::Put(c) => {
                let occ = self.occupied();
                let cell = (occ + (1u64 << (c as u32 * STRIDE))) & !occ;
                next.pieces[i] |= cell;
                if self.put_places_bomb() {
                    next.bombs[i] = cell;
                }
            }
            BoomMove::Boom => {
                let r = self.bombs[i].trailing_zeros() % STRIDE;
                let holes = self.pieces[i] & row_mask(r);
                next.pieces[i] &= !holes;
                next.bombs[i] = 0;
                let cols = (holes >> r) * 0xFF;
                let above = cols & BOARD & !(BOTTOM * ((2u64 << r) - 1));
                let fall = |x: u64| (x & !above) | ((x & above) >> 1);
                next.pieces = [fall(next.pieces[0]), fall(next.pieces[1])];
                next.bombs = [fall(next.bombs[0]), fall(next.bombs[1])];
            }
        }
        next.status = status_2018(&next.pieces);
        next.movement = self.movement.saturating_add(1);
        debug_assert!(next.invariants_hold(), "{next:?}");
        next
    }

    /// The move-ordering hint of DesConecta-4 BOOM: a `PUT` that completes four of the mover's
    /// (it loses) last, one that fills a cell the other side must avoid late (it frees that
    /// side), else the edges first (fewer lines go through them); a `BOOM` early when it removes
    /// several of the mover's pieces.
    fn hint_2018(&self, m: BoomMove) -> i32 {
        let i = self.side_to_move().index();
        match m {
            BoomMove::Put(c) => {
                let cell = self.playable() & bits::column_mask(c as u32, SIZE);
                let occ = self.occupied();
                let mut hint = (c as i32 - 3).abs();
                if bits::winning_cells(self.pieces[i], occ, BOARD, STRIDE) & cell != 0 {
                    hint -= 1000;
                } else if bits::winning_cells(self.pieces[1 - i], occ, BOARD, STRIDE) & cell != 0 {
                    hint -= 500;
                }
                hint
            }
            BoomMove::Boom => {
                let r = self.bombs[i].trailing_zeros() % STRIDE;
                2 * (self.pieces[i] & row_mask(r)).count_ones() as i32 - 3
            }
        }
    }

    /// The status of a line-free board with `next` to move: running unless the board is full
    /// and `next` holds no bomb, which then cannot move and loses (the core's full-board rule).
    #[inline]
    fn status_without_line(occupied: u64, bombs: &[u64; 2], next: Side) -> u8 {
        if occupied == BOARD && bombs[next.index()] == 0 {
            next.other().index() as u8 + 1
        } else {
            RUNNING
        }
    }

    /// The status of a board reached by a movement of `mover` (the mover-first rule for lines),
    /// with `next` to move.
    #[inline]
    fn status_after(pieces: &[u64; 2], bombs: &[u64; 2], mover: Side, next: Side) -> u8 {
        let m = mover.index();
        if bits::has_line(pieces[m], STRIDE) {
            m as u8 + 1
        } else if bits::has_line(pieces[1 - m], STRIDE) {
            (1 - m) as u8 + 1
        } else {
            Self::status_without_line(pieces[0] | pieces[1], bombs, next)
        }
    }
}

impl Game for Boom {
    type Move = BoomMove;
    type Moves = Moves;
    type Config = Config;
    type Weights = eval::Weights;

    const NAME: &'static str = "connect4boom";
    const TITLE: &'static str = "Conecta-4 BOOM";
    const ALIASES: &'static [&'static str] = &["boom", "conecta4boom", "c4boom"];
    const OPTIONS: &'static [VariantOption] = &[VariantOption::combo(
        "Year",
        2020,
        &[("2018-19", 2018), ("2020-21", 2020)],
    )];
    const HEURISTICS: &'static [&'static str] = &["default", "test", "seed"];
    /// A depth-8 search (the course's) follows its pending threats, and leaves in the middle of
    /// a turn, to ply 13: at equal depth the students' players, whose horizon is exact, won the
    /// positions tablero's static evaluation misjudged there (docs/boom-strength.md).
    const EXTENSION_PLIES: u32 = 5;
    const EXTENSION_HORIZON: u32 = 13;
    /// Reviews at the course bridges' depth 8. The review's curves are fitted on 200 self-play games at the default depth and
    /// 100 one ply shallower (docs/review.md, "Calibration").
    const PROFILE: Profile = Profile {
        bench: &[
            BenchPosition {
                start: "startpos",
                moves: "",
                depth: 8,
            },
            BenchPosition {
                start: "startpos",
                moves: "4 4 4 4 3 1 5 4 4 4 5 3 5 3",
                depth: 8,
            },
            BenchPosition {
                start: "startpos",
                moves: "4 4 4 4 3 1 5 4 4 4 5 3 5 3 1 3 1 3 5 5 6 5 6 7 boom 3",
                depth: 8,
            },
        ],
        ladder: [1, 3, 5, 9],
        review_depth: 8,
        review: ReviewCalibration {
            even: (384.7, -247.2),
            odd: (705.1, 313.1),
            inaccuracy: 0.02,
        },
        learn: Profile::DEFAULT.learn,
    };

    fn config_of(values: &[i64]) -> Config {
        Config::of(Year::of_value(values.first().copied().unwrap_or(2020)))
    }

    fn start(config: &Config) -> Self {
        Boom {
            pieces: [0; 2],
            bombs: [0; 2],
            movement: 1,
            status: RUNNING,
            year: config.year,
        }
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.year.side_of(self.movement)
    }

    #[inline]
    fn legal_moves(&self, out: &mut Moves) {
        if self.status != RUNNING {
            return;
        }
        let occ = self.occupied();
        // A column is open while its top cell (row 6) is empty.
        for c in 0..SIZE as u8 {
            if occ & (1u64 << (c as u32 * STRIDE + SIZE - 1)) == 0 {
                out.push(BoomMove::Put(c));
            }
        }
        if self.bombs[self.side_to_move().index()] != 0 {
            out.push(BoomMove::Boom);
        }
    }

    #[inline]
    fn apply(&self, m: BoomMove) -> Self {
        let mover = self.side_to_move();
        let (i, o) = (mover.index(), mover.other().index());
        let mut next = *self;
        if self.year == Year::Y2018 {
            return self.apply_2018(m);
        }
        match m {
            BoomMove::Put(c) => {
                let occ = self.occupied();
                let cell = (occ + (1u64 << (c as u32 * STRIDE))) & !occ;
                next.pieces[i] |= cell;
                if self.put_places_bomb() {
                    next.bombs[i] = cell;
                }
                // A PUT only adds a piece of the mover: only the mover can have a new line.
                next.status = if bits::has_line(next.pieces[i], STRIDE) {
                    i as u8 + 1
                } else {
                    let to_move = side_of_movement(self.movement.saturating_add(1));
                    Self::status_without_line(occ | cell, &next.bombs, to_move)
                };
            }
            BoomMove::Boom => {
                let bomb = self.bombs[i];
                let r = bomb.trailing_zeros() % STRIDE;
                let row = row_mask(r);
                // The emptied cells: the bomb and every opponent piece of its row (the
                // opponent's bomb included, which is then lost).
                let holes = (self.pieces[o] & row) | bomb;
                next.pieces[i] &= !bomb;
                next.pieces[o] &= !row;
                next.bombs[i] = 0;
                next.bombs[o] &= !row;
                // Columns with a hole: spread each hole's row-0 image over its whole byte.
                let cols = (holes >> r) * 0xFF;
                let above = cols & BOARD & !(BOTTOM * ((2u64 << r) - 1));
                // Every hole is in row `r`, so closing the gaps is one shift down of the cells
                // above the holes, for each bitboard.
                let fall = |x: u64| (x & !above) | ((x & above) >> 1);
                next.pieces = [fall(next.pieces[0]), fall(next.pieces[1])];
                next.bombs = [fall(next.bombs[0]), fall(next.bombs[1])];
                let to_move = side_of_movement(self.movement.saturating_add(1));
                next.status = Self::status_after(&next.pieces, &next.bombs, mover, to_move);
            }
        }
        // A game cannot last 65535 movements (pieces only leave through bombs, at most two per
        // four turns); saturate rather than wrap anyway.
        next.movement = self.movement.saturating_add(1);
        debug_assert!(next.invariants_hold(), "{next:?}");
        next
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.status {
            RUNNING => None,
            1 => Some(Outcome::Win(Side::First)),
            DRAWN => Some(Outcome::Draw),
            _ => Some(Outcome::Win(Side::Second)),
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        let idx = |b: u64| {
            if b == 0 {
                63
            } else {
                b.trailing_zeros() as u64
            }
        };
        // The whole movement number goes in: it fixes the side, the movement within the turn
        // and the bomb schedule.
        let mut k = idx(self.bombs[0]) | (idx(self.bombs[1]) << 6) | ((self.movement as u64) << 12);
        if self.year == Year::Y2018 {
            k ^= 1 << 40;
        }
        bits::mix(self.pieces[0] ^ bits::mix(self.pieces[1] ^ bits::mix(k ^ 0x9e37_79b9_7f4a_7c15)))
    }

    fn parse_move(&self, text: &str) -> Result<BoomMove, MoveError> {
        let t = text.trim();
        let m = if t.eq_ignore_ascii_case("boom") {
            BoomMove::Boom
        } else {
            match t.parse::<u32>() {
                Ok(n @ 1..=7) => BoomMove::Put((n - 1) as u8),
                _ => {
                    return Err(MoveError::Notation(format!(
                        "'{t}' is not a movement (1..7 or boom)"
                    )));
                }
            }
        };
        if self.status != RUNNING {
            return Err(MoveError::Over(
                "the game is over: no movement is legal".into(),
            ));
        }
        let mut legal = Moves::new();
        self.legal_moves(&mut legal);
        if legal.contains(&m) {
            Ok(m)
        } else if m == BoomMove::Boom {
            Err(MoveError::Illegal(format!(
                "boom is illegal: {} has no bomb on the board",
                piece_char(self.side_to_move(), false)
            )))
        } else {
            Err(MoveError::Illegal(format!("column {t} is full")))
        }
    }

    fn format_move(&self, m: BoomMove) -> String {
        match m {
            BoomMove::Put(c) => (c + 1).to_string(),
            BoomMove::Boom => "boom".into(),
        }
    }

    fn format_fen(&self) -> String {
        let rows: Vec<String> = (0..SIZE)
            .rev()
            .map(|r| {
                bits::format_row((0..SIZE).map(|c| self.cell(c, r).map(|(s, b)| piece_char(s, b))))
            })
            .collect();
        format!(
            "{} {} {}",
            rows.join("/"),
            piece_char(self.side_to_move(), false),
            self.movement
        )
    }

    fn parse_fen(text: &str, config: &Config) -> Result<Self, FenError> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [board, side, movement] = parts[..] else {
            return Err(FenError::Syntax(format!(
                "fen needs 3 fields '<rows> <side> <movement>', got {}",
                parts.len()
            )));
        };
        let movement: u16 = movement.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
            FenError::Syntax(format!(
                "movement must be a number in 1..=65535, got '{movement}'"
            ))
        })?;
        let side = match side {
            "x" => Side::First,
            "o" => Side::Second,
            t => {
                return Err(FenError::Syntax(format!(
                    "side to move must be 'x' or 'o', got '{t}'"
                )));
            }
        };
        let expected = config.year.side_of(movement);
        if side != expected {
            return Err(FenError::Rules(format!(
                "movement {movement} is played by '{}', not '{}'",
                piece_char(expected, false),
                piece_char(side, false)
            )));
        }
        let cells = bits::parse_rows(board, SIZE as usize, SIZE as usize, |ch| match ch {
            'x' => Some(1),
            'o' => Some(2),
            'X' => Some(4),
            'O' => Some(5),
            _ => None,
        })?;
        let mut s = Self::start(config);
        s.movement = movement;
        for c in 0..SIZE {
            let mut seen_empty = false;
            for r in 0..SIZE {
                let code = cells[r as usize][c as usize];
                let bit = 1u64 << (c * STRIDE + r);
                if code == 0 {
                    seen_empty = true;
                    continue;
                }
                if seen_empty {
                    return Err(FenError::Rules(format!(
                        "column {}: a piece floats above an empty cell at row {r}",
                        c + 1
                    )));
                }
                let who = if code == 1 || code == 4 { 0 } else { 1 };
                s.pieces[who] |= bit;
                if code >= 4 {
                    if s.bombs[who] != 0 {
                        return Err(FenError::Rules(format!(
                            "'{}' has more than one bomb",
                            piece_char(Side::from_index(who), false)
                        )));
                    }
                    s.bombs[who] = bit;
                }
            }
        }
        if movement == 1 && s.has_line() {
            return Err(FenError::Rules(
                "four in a row at movement 1, before any movement".into(),
            ));
        }
        if config.year == Year::Y2018 {
            s.status = status_2018(&s.pieces);
        } else if movement == 1 {
            s.status = Self::status_without_line(s.occupied(), &s.bombs, side);
        } else {
            let mover = config.year.side_of(movement - 1);
            s.status = Self::status_after(&s.pieces, &s.bombs, mover, side);
        }
        Ok(s)
    }

    fn display(&self) -> String {
        let mut s = String::new();
        for r in (0..SIZE).rev() {
            for c in 0..SIZE {
                s.push(' ');
                s.push(self.cell(c, r).map_or('.', |(side, b)| piece_char(side, b)));
            }
            s.push('\n');
        }
        s.push_str(" 1 2 3 4 5 6 7\n");
        let bomb = |side: Side| {
            let b = self.bombs[side.index()];
            if b == 0 {
                "none".to_string()
            } else {
                let i = b.trailing_zeros();
                format!("column {} row {}", i / STRIDE + 1, i % STRIDE + 1)
            }
        };
        s.push_str(&format!(
            "bombs: x {}, o {}\n",
            bomb(Side::First),
            bomb(Side::Second)
        ));
        let state = match self.outcome() {
            None if self.year == Year::Y2018 => format!(
                "{} to move: movement {}, round {}{}",
                piece_char(self.side_to_move(), false),
                self.movement,
                self.turn(),
                if self.put_places_bomb() {
                    "; a PUT places a bomb"
                } else {
                    ""
                }
            ),
            Some(Outcome::Win(w)) if self.year == Year::Y2018 => format!(
                "{} has won: {} has four in a row",
                piece_char(w, false),
                piece_char(w.other(), false)
            ),
            Some(Outcome::Draw) => "draw: the board is full without four in a row".into(),
            None => format!(
                "{} to move: movement {}, turn {}, {} movement(s) left in the turn{}",
                piece_char(self.side_to_move(), false),
                self.movement,
                self.turn(),
                self.movements_left(),
                if self.put_places_bomb() {
                    "; a PUT places a bomb"
                } else {
                    ""
                }
            ),
            Some(Outcome::Win(w)) if self.occupied() == BOARD && !self.has_line() => format!(
                "{} has won: the board is full and {} has no bomb to explode",
                piece_char(w, false),
                piece_char(w.other(), false)
            ),
            Some(Outcome::Win(w)) => format!("{} has won", piece_char(w, false)),
        };
        s.push_str(&state);
        s.push('\n');
        s
    }

    fn display_inked(
        &self,
        last: Option<(&str, Side)>,
        ink: &dyn Fn(&str, Ink) -> String,
    ) -> String {
        crate::games::connect4::ink_grid(self.display().trim_end(), last.map(|(m, _)| m), ink)
    }

    /// Half the empty cells: a side's share of the puts that can still fill the board (a
    /// `BOOM` empties cells again, but rarely more than a few).
    fn moves_left(&self) -> u32 {
        (BOARD & !self.occupied()).count_ones().div_ceil(2)
    }

    /// `default` in 2020-21 only: `test` and `seed` stay the course's plain alpha-beta, and
    /// DesConecta-4's threats are the other way round.
    fn unquiet(&self, heuristic: usize) -> bool {
        heuristic == 0 && self.year == Year::Y2020 && eval::unquiet(self)
    }

    /// `default` in 2020-21 only, as `unquiet`: at the course's depth 8 tablero threw away
    /// won games whose win a search of 13 to 18 movements proves (docs/boom-strength.md).
    /// [`WIN_PROBE_PLIES`] says why 8 plies and not more.
    fn win_probe_plies(&self, heuristic: usize) -> u32 {
        if heuristic == 0 && self.year == Year::Y2020 {
            WIN_PROBE_PLIES
        } else {
            0
        }
    }

    #[inline]
    fn move_order_hint(&self, m: BoomMove) -> i32 {
        let mover = self.side_to_move();
        let (i, o) = (mover.index(), mover.other().index());
        if self.year == Year::Y2018 {
            return self.hint_2018(m);
        }
        match m {
            BoomMove::Put(c) => {
                // Immediate wins, then blocks, then centre first.
                let cell = self.playable() & bits::column_mask(c as u32, SIZE);
                let occ = self.occupied();
                let mut hint = -(c as i32 - 3).abs();
                if bits::winning_cells(self.pieces[i], occ, BOARD, STRIDE) & cell != 0 {
                    hint += 1000;
                } else if bits::winning_cells(self.pieces[o], occ, BOARD, STRIDE) & cell != 0 {
                    hint += 500;
                }
                hint
            }
            BoomMove::Boom => {
                // Worth trying early when it removes several opponent pieces.
                let r = self.bombs[i].trailing_zeros() % STRIDE;
                2 * (self.pieces[o] & row_mask(r)).count_ones() as i32 - 3
            }
        }
    }
}
