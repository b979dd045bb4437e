//! 5-en-Raya Táctico (`enraya`), the 2025-26 course game: F rows × C columns, N pieces in a line
//! win. This module owns the rules as the course core (`Tablero`, github:ugr-ccia-IA/practica3)
//! plays them, and the position type; [`text`] owns its notations (moves, fen, the simulator's
//! board files), [`eval`] its heuristics, [`bits`] the bitboard. docs/enraya.md is the user's
//! side of all this.
//!
//! # Rules, in the core's words
//! Only the 9 × 9 board with N = 5 (*ninja mode*) has the special rules: a start with four
//! pieces, the turn counter at 4, the phase at 2 and player 1 with one placement; two
//! placements per turn afterwards; a placement must touch a piece (8 neighbours) unless the
//! board is empty and must have `(f + c) mod 3 == phase mod 3` (Trinity); red cells place the
//! opponent's piece, yellow cells empty the rest of their row and column, green cells give one
//! more placement; a full board without a line is decided by counting windows of 4. A player
//! to move with no placement passes (a ply: `pass`). Every other size starts empty with one
//! placement per turn and no special rule, and a full board without a line is a draw — but the
//! core still counts phases, and a position loaded with more than one placement left keeps it
//! for that turn (the core's board files default to 2).
//!
//! # Representation
//! Two bitboards (one per player, layout in [`bits`]), the Zobrist key of the grid kept
//! incrementally, and the core's counters: player to move, placements left (`left`, signed as
//! in the core, so that a loaded 0 behaves as the core's 0), phase and turn counter. The game
//! result is computed when a placement is made (only a line through the placed cell can be new:
//! a placement adds one piece and a yellow cell only removes pieces) and kept in `status`.
//! 128 bytes, copied at every move. The 9 × 9 board's hot paths (move generation, the line and
//! full-board checks, the evaluation's windows) view its two words as one `u128`.
//!
//! # Moves
//! [`Move::Place`] a cell, written `f,c` (row from the top, column from the left, from 0: the
//! pair a student's `think()` returns), or [`Move::Pass`], written `pass`, legal only when the
//! player to move has no placement.

pub mod bits;
pub mod eval;
pub mod text;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;

use crate::core::game::{
    BenchPosition, FenError as GameFenError, Game, MoveError as GameMoveError, Outcome, Profile,
    ReviewCalibration, Side, VariantOption,
};
use bits::{
    BOARD_MASKS, BOARD9, Bits, GREEN, NINJA_STRIDE, RED, RESIDUE9, SPECIAL, YELLOW, ZOBRIST,
};

/// Largest number of rows, columns and pieces in a line ([`bits::MAX_SIDE`]): 19 × 19 is the
/// largest board the bitboard holds (six words) and a Go board's size, far above the course's
/// 9 × 9; the move list's capacity follows from it.
pub const MAX_SIDE: u8 = bits::MAX_SIDE as u8;
/// Largest `left` (placements left in the turn) a fen or board file may give: the core plays
/// 1 or 2, a board file may write any number; more than the cells of any board is a typo.
pub const MAX_LEFT: i32 = 999;
/// Largest phase and turn counter a fen or board file may give: the core's `int`.
pub const MAX_COUNTER: u32 = i32::MAX as u32;

/// Variant parameters: the simulator's `-f`, `-c`, `-n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// F: rows, 1..=19.
    pub rows: u8,
    /// C: columns, 1..=19.
    pub cols: u8,
    /// N: pieces in a line to win, 1..=19.
    pub n: u8,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rows: 9,
            cols: 9,
            n: 5,
        }
    }
}

impl Config {
    /// The course's board, 9 × 9 with N = 5, the only one with the special rules.
    pub fn is_ninja(&self) -> bool {
        self.rows == 9 && self.cols == 9 && self.n == 5
    }

    /// Is every field in 1..=[`MAX_SIDE`]?
    pub fn is_valid(&self) -> bool {
        [self.rows, self.cols, self.n]
            .iter()
            .all(|&v| (1..=MAX_SIDE).contains(&v))
    }
}

/// A move: place a piece on a cell, or pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place at row `row` (from the top) and column `col` (from the left), both from 0.
    Place { row: u8, col: u8 },
    /// No placement is legal: the turn goes to the other player.
    Pass,
}

/// Capacity of the move list: one entry per cell of the largest board, 19 × 19 = 361 (an
/// empty 19 × 19 board lists them all). `Pass` is listed only when no placement is, so it never
/// needs a 362nd slot (`tests::move_list_capacity`).
pub const MAX_MOVES: usize = bits::MAX_SIDE * bits::MAX_SIDE;
/// The move list.
pub type Moves = ArrayVec<Move, MAX_MOVES>;
// The search orders a node's moves in an array of this many (and indexes them in 16 bits).
const _: () = assert!(MAX_MOVES <= crate::core::search::MAX_ORDERED);

/// The kind of a cell (only the ninja board has special cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    Normal,
    /// The piece placed is the opponent's.
    Red,
    /// Every other cell of the row and the column is emptied.
    Yellow,
    /// One more placement this turn.
    Green,
}

const RUNNING: u8 = 0;
const WON_X: u8 = 1;
const WON_O: u8 = 2;
const DRAW: u8 = 3;

/// A position (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enraya {
    /// Pieces of x (player 1) and o (player 2).
    pieces: [Bits; 2],
    /// Zobrist key of the grid (both players' pieces).
    key: u64,
    /// The core's turn counter (`turnoActual`): +1 per ply. Affects nothing.
    turn: u32,
    /// The Trinity phase (`faseActual`).
    phase: u32,
    /// Placements left in this turn (`movimientosRestantes`).
    left: i32,
    rows: u8,
    cols: u8,
    n: u8,
    ninja: bool,
    /// 0 = x (player 1) to move, 1 = o.
    player: u8,
    status: u8,
}

fn side_char(s: Side) -> char {
    match s {
        Side::First => 'x',
        Side::Second => 'o',
    }
}

/// The core's scan directions: right, down, down-right, down-left, as (row, column) steps.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl Enraya {
    /// The start position of `config`, as the core's constructor builds it. A `Config` out of
    /// range (only a hand-built one can be) is clamped into 1..=19.
    pub fn new(config: &Config) -> Enraya {
        let c = clamp_config(config);
        let mut s = Enraya {
            pieces: [Bits::EMPTY; 2],
            key: 0,
            turn: 0,
            phase: 0,
            left: 1,
            rows: c.rows,
            cols: c.cols,
            n: c.n,
            ninja: c.is_ninja(),
            player: 0,
            status: RUNNING,
        };
        if s.ninja {
            s.pieces = [bits::NINJA_START_X, bits::NINJA_START_O];
            s.turn = 4;
            s.phase = 2;
        }
        s.key = s.grid_key();
        s
    }

    /// A position from its parts: `grid[f][c]` is 0 (empty), 1 (x) or 2 (o); the counters as
    /// the core keeps them. The result is the core's verdict on the grid (a line, found in the
    /// core's scan order, or a full board); the caller has checked the ranges ([`text`] does).
    pub(crate) fn from_parts(
        config: &Config,
        grid: &[Vec<u8>],
        player: Side,
        left: i32,
        phase: u32,
        turn: u32,
    ) -> Enraya {
        let mut s = Enraya::new(config);
        s.pieces = [Bits::EMPTY; 2];
        for (f, row) in grid.iter().enumerate().take(s.rows as usize) {
            for (c, &v) in row.iter().enumerate().take(s.cols as usize) {
                if v == 1 || v == 2 {
                    s.pieces[v as usize - 1].set(s.index(f, c));
                }
            }
        }
        s.player = player.index() as u8;
        s.left = left;
        s.phase = phase;
        s.turn = turn;
        s.key = s.grid_key();
        s.status = s.scan_status();
        s
    }

    /// Row stride of the bitboard.
    #[inline(always)]
    fn stride(&self) -> usize {
        self.cols as usize + 1
    }

    #[inline(always)]
    fn index(&self, f: usize, c: usize) -> usize {
        f * self.stride() + c
    }

    /// The cells of this board.
    #[inline(always)]
    pub fn board(&self) -> Bits {
        BOARD_MASKS[self.rows as usize][self.cols as usize]
    }

    fn grid_key(&self) -> u64 {
        bits::key_of(0, self.pieces[0]) ^ bits::key_of(1, self.pieces[1])
    }

    /// The variant this position is played in.
    pub fn config(&self) -> Config {
        Config {
            rows: self.rows,
            cols: self.cols,
            n: self.n,
        }
    }
    /// F.
    pub fn rows(&self) -> u8 {
        self.rows
    }
    /// C.
    pub fn cols(&self) -> u8 {
        self.cols
    }
    /// N.
    pub fn in_a_row(&self) -> u8 {
        self.n
    }
    /// Is this the course's 9 × 9, N = 5 board (special cells, Trinity, adjacency, two
    /// placements a turn, the tie-break)?
    pub fn is_ninja(&self) -> bool {
        self.ninja
    }
    /// The Trinity phase (`getFaseActual`): a legal cell has `(f + c) mod 3 == phase mod 3`
    /// (ninja mode only).
    pub fn phase(&self) -> u32 {
        self.phase
    }
    /// Placements left in this turn (`getMovimientosRestantes`).
    pub fn left(&self) -> i32 {
        self.left
    }
    /// The core's turn counter (`getTurnoActual`).
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// Pieces of `side` as a bitboard (layout in [`bits`]).
    pub fn pieces(&self, side: Side) -> Bits {
        self.pieces[side.index()]
    }
    /// Every piece.
    #[inline(always)]
    pub fn occupied(&self) -> Bits {
        self.pieces[0].or(self.pieces[1])
    }

    /// Who holds cell (`f`, `c`); `None` when it is empty or off the board.
    pub fn cell(&self, f: usize, c: usize) -> Option<Side> {
        if f >= self.rows as usize || c >= self.cols as usize {
            return None;
        }
        let i = self.index(f, c);
        if self.pieces[0].test(i) {
            Some(Side::First)
        } else if self.pieces[1].test(i) {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The kind of cell (`f`, `c`): special cells exist only in ninja mode.
    pub fn special(&self, f: usize, c: usize) -> Special {
        if !self.ninja || f >= 9 || c >= 9 {
            return Special::Normal;
        }
        let i = f * NINJA_STRIDE + c;
        if RED.test(i) {
            Special::Red
        } else if YELLOW.test(i) {
            Special::Yellow
        } else if GREEN.test(i) {
            Special::Green
        } else {
            Special::Normal
        }
    }

    /// Is (`f`, `c`) a cell of the current Trinity residue (`(f + c) mod 3 == phase mod 3`)?
    /// Always false off ninja mode, which has no Trinity rule.
    pub fn in_residue(&self, f: usize, c: usize) -> bool {
        self.ninja && f < 9 && c < 9 && (f + c) % 3 == (self.phase % 3) as usize
    }

    /// The residue of the Trinity rule now (`phase mod 3`), in ninja mode.
    pub fn residue(&self) -> Option<u32> {
        self.ninja.then_some(self.phase % 3)
    }

    /// The winning line as the core's `comprobarGanador` finds it (its `lineaGanadora`): the
    /// first cell in row-major order from which N pieces of one player follow in one of the
    /// directions right, down, down-right, down-left (tried in that order); its N cells from
    /// that first cell on. `None` while no player has a line (also after a tie-break).
    pub fn winning_line(&self) -> Option<(Side, Vec<(u8, u8)>)> {
        let (rows, cols, n) = (self.rows as isize, self.cols as isize, self.n as isize);
        for f in 0..rows {
            for c in 0..cols {
                let Some(who) = self.cell(f as usize, c as usize) else {
                    continue;
                };
                for (df, dc) in DIRECTIONS {
                    let run = (0..n).take_while(|&k| {
                        let (g, h) = (f + df * k, c + dc * k);
                        (0..rows).contains(&g)
                            && (0..cols).contains(&h)
                            && self.cell(g as usize, h as usize) == Some(who)
                    });
                    if run.count() as isize == n {
                        let cells = (0..n)
                            .map(|k| ((f + df * k) as u8, (c + dc * k) as u8))
                            .collect();
                        return Some((who, cells));
                    }
                }
            }
        }
        None
    }

    /// The core's tie-break count (`contarCombinaciones(4, player)`): pairs of a cell and a
    /// direction whose 4 consecutive cells all hold `side`'s pieces (overlapping windows each
    /// count). Decides a full 9 × 9 board without a line.
    pub fn windows_of_four(&self, side: Side) -> u32 {
        let p = self.pieces[side.index()];
        let s = self.stride() as u32;
        [1, s, s + 1, s - 1]
            .into_iter()
            .map(|d| {
                let p1 = p.and(p.shr::<{ bits::WORDS }>(d));
                p1.and(p1.shr::<{ bits::WORDS }>(2 * d)).count()
            })
            .sum()
    }

    /// The result of the grid as the core's `comprobarGanador` gives it, for positions not
    /// reached by a placement (start, fen, board file).
    fn scan_status(&self) -> u8 {
        match self.winning_line() {
            Some((Side::First, _)) => WON_X,
            Some((Side::Second, _)) => WON_O,
            None if self.occupied() == self.board() => self.full_board_status(),
            None => RUNNING,
        }
    }

    /// A full board without a line: in ninja mode more windows of four win, else a draw.
    fn full_board_status(&self) -> u8 {
        if !self.ninja {
            return DRAW;
        }
        let (x, o) = (
            self.windows_of_four(Side::First),
            self.windows_of_four(Side::Second),
        );
        match x.cmp(&o) {
            std::cmp::Ordering::Greater => WON_X,
            std::cmp::Ordering::Less => WON_O,
            std::cmp::Ordering::Equal => DRAW,
        }
    }

    /// Does `p` hold N in a line through bit `i`? Steps cell by cell both ways along each
    /// direction; a step off a row's end lands on a sentinel bit, a step off the top or the
    /// bottom leaves `0..rows * S`.
    #[inline(always)]
    fn line_through(&self, p: &Bits, i: usize) -> bool {
        let n = self.n as usize;
        let s = self.stride();
        let limit = self.rows as usize * s;
        for d in [1, s, s + 1, s - 1] {
            let mut count = 1;
            let mut j = i;
            while count < n {
                j += d;
                if j >= limit || !p.test(j) {
                    break;
                }
                count += 1;
            }
            let mut j = i;
            while count < n && j >= d {
                j -= d;
                if !p.test(j) {
                    break;
                }
                count += 1;
            }
            if count >= n {
                return true;
            }
        }
        false
    }

    /// The cells where the player to move may place now, as a bitboard (the Trinity residue,
    /// adjacency, empty cells); empty when the game is over.
    #[inline]
    pub fn placements(&self) -> Bits {
        if self.status != RUNNING {
            return Bits::EMPTY;
        }
        if self.ninja {
            return bits::from_low(self.ninja_placements());
        }
        self.board().and_not(self.occupied())
    }

    /// [`Enraya::placements`] of a running ninja position, in 128 bits.
    #[inline(always)]
    fn ninja_placements(&self) -> u128 {
        let occ = bits::low(self.pieces[0]) | bits::low(self.pieces[1]);
        let mut cand = BOARD9 & !occ & RESIDUE9[(self.phase % 3) as usize];
        if occ != 0 {
            // The 8 neighbours; bits that spill onto sentinels or past the board are masked
            // off by `BOARD9` above.
            let h = occ | occ << 1 | occ >> 1;
            cand &= h | h << NINJA_STRIDE | h >> NINJA_STRIDE;
        }
        cand
    }

    /// Does `p` (the 9 × 9 board in 128 bits) hold five in a line? Whole-board shifts, no
    /// branch: after a placement any line is new, so where it lies need not be asked.
    #[inline(always)]
    fn ninja_has_line(p: u128) -> bool {
        let mut found = 0;
        for d in [1, NINJA_STRIDE, NINJA_STRIDE + 1, NINJA_STRIDE - 1] {
            let two = p & p >> d;
            let four = two & two >> (2 * d);
            found |= four & p >> (4 * d);
        }
        found != 0
    }

    /// The placements as moves, in the core's order (row-major).
    #[inline]
    fn push_placements(&self, cand: Bits, out: &mut Moves) {
        let (rows, cols, s) = (self.rows as usize, self.cols as usize, self.stride());
        for f in 0..rows {
            let mut row = cand.extract(f * s, cols);
            while row != 0 {
                let c = row.trailing_zeros();
                out.push(Move::Place {
                    row: f as u8,
                    col: c as u8,
                });
                row &= row - 1;
            }
        }
    }

    /// The position after a placement at bit `i` (row `f`, column `c`), legal here.
    #[inline]
    fn place(&self, f: usize, c: usize) -> Enraya {
        let i = self.index(f, c);
        let mut next = *self;
        let mover = self.player as usize;
        let mut owner = mover;
        next.left = self.left - 1;
        if self.ninja && SPECIAL.test(i) {
            if RED.test(i) {
                owner = 1 - mover;
            } else if GREEN.test(i) {
                next.left += 1;
            } else {
                // Yellow: the rest of the row and the column is emptied, both players' pieces.
                let mut clear = bits::cross(f, c, 9, 9);
                clear.clear(i);
                for side in 0..2 {
                    let gone = next.pieces[side].and(clear);
                    if !gone.is_empty() {
                        next.key ^= bits::key_of(side, gone);
                        next.pieces[side] = next.pieces[side].and_not(gone);
                    }
                }
            }
        }
        next.pieces[owner].set(i);
        next.key ^= ZOBRIST[owner][i];
        next.turn = self.turn.wrapping_add(1);
        // Only a line through the new piece can be new (see the module doc), and only for the
        // piece's owner, who may be the opponent of the mover (a red cell).
        let (line, full) = if self.ninja {
            let occ = bits::low(next.pieces[0]) | bits::low(next.pieces[1]);
            (
                Self::ninja_has_line(bits::low(next.pieces[owner])),
                occ == BOARD9,
            )
        } else {
            (
                next.line_through(&next.pieces[owner], i),
                next.occupied() == next.board(),
            )
        };
        next.status = if line {
            WON_X + owner as u8
        } else if full {
            next.full_board_status()
        } else {
            RUNNING
        };
        if next.left <= 0 || next.status != RUNNING {
            next.player = 1 - self.player;
            next.left = if self.ninja { 2 } else { 1 };
            next.phase = self.phase.wrapping_add(1);
        }
        debug_assert_eq!(next.key, next.grid_key());
        debug_assert_eq!(next.status, next.scan_status(), "{next:?}");
        next
    }

    /// The position after a pass (the controller's `pasarTurno`): the turn counter grows, the
    /// phase grows only when player 2 passes, the placements left stay as they were.
    fn pass(&self) -> Enraya {
        let mut next = *self;
        next.turn = self.turn.wrapping_add(1);
        if self.player == 1 {
            next.phase = self.phase.wrapping_add(1);
        }
        next.player = 1 - self.player;
        next
    }

    /// Is the placement at (`f`, `c`) legal? (The checks of `parse_move`, without messages.)
    pub fn can_place(&self, f: usize, c: usize) -> bool {
        f < self.rows as usize && c < self.cols as usize && {
            self.placements().test(self.index(f, c))
        }
    }
}

fn clamp_config(c: &Config) -> Config {
    Config {
        rows: c.rows.clamp(1, MAX_SIDE),
        cols: c.cols.clamp(1, MAX_SIDE),
        n: c.n.clamp(1, MAX_SIDE),
    }
}

/// Keys of the fields beside the grid that change the future: the player to move, the phase's
/// residue (ninja mode only: elsewhere the phase changes nothing) and the placements left.
/// The turn counter changes nothing and is not hashed.
const SIDE_KEY: u64 = bits::mix(0x0e11_0a7a_5100_0001);
const PHASE_KEYS: [u64; 3] = [
    bits::mix(0x0e11_0a7a_5100_0010),
    bits::mix(0x0e11_0a7a_5100_0011),
    bits::mix(0x0e11_0a7a_5100_0012),
];

impl Game for Enraya {
    type Move = Move;
    type Moves = Moves;
    type Config = Config;
    type Weights = eval::Weights;

    const NAME: &'static str = "enraya";
    const TITLE: &'static str = "5-en-Raya Táctico";
    const ALIASES: &'static [&'static str] =
        &["5enraya", "enrayatactico", "5enrayatactico", "cincoenraya"];
    const OPTIONS: &'static [VariantOption] = &[
        VariantOption::spin("Rows", 9, 1, MAX_SIDE as i64),
        VariantOption::spin("Columns", 9, 1, MAX_SIDE as i64),
        VariantOption::spin("InARow", 5, 1, MAX_SIDE as i64),
    ];
    const HEURISTICS: &'static [&'static str] = &["default", "test"];
    /// Races decide this game: a leaf where a side completes a line at its next turn (or over
    /// its next two) is searched on, up to 4 plies more and never past ply 8, so a search at
    /// the course's depth 4 sees what depth 8 sees in its sharp lines and the deep searches
    /// (the bench's, `ninja3`'s) cost what they did (docs/enraya.md, "Search").
    const EXTENSION_PLIES: u32 = 4;
    const EXTENSION_HORIZON: u32 = 8;
    /// The bench searches the 9 × 9 start and two positions of a golden game (game 0 of the
    /// core's traces after 20 and 30 plies) 8 plies deep; reviews with the curve fitted to its
    /// self-play; the ladder keeps the default depths (docs/players.md, docs/review.md).
    const PROFILE: Profile = Profile {
        bench: &[
            BenchPosition {
                start: "startpos",
                moves: "",
                depth: 8,
            },
            BenchPosition {
                start: "startpos",
                moves: "0,5 5,7 0,6 6,7 3,7 2,6 3,8 7,5 5,1 7,6 8,5 8,6 5,6 6,0 3,0 4,6 7,0 5,0 4,7 1,5",
                depth: 8,
            },
            BenchPosition {
                start: "startpos",
                moves: "0,5 5,7 0,6 6,7 3,7 2,6 3,8 7,5 5,1 7,6 8,5 8,6 5,6 6,0 3,0 4,6 7,0 5,0 4,7 1,5 2,7 7,3 3,1 7,4 8,0 4,2 7,8 5,8 4,3 8,3",
                depth: 8,
            },
        ],
        // Fitted to tablero's self-play (the race evaluation, random:4 openings): 120 games at
        // depth 8 (1,806 positions), 60 at depth 7 (994); docs/review.md. The thresholds keep
        // the default until scripts/review_thresholds.py is run for this game.
        review: ReviewCalibration {
            even: (5399.7, 1604.2),
            odd: (5193.7, -767.2),
            inaccuracy: Profile::DEFAULT.review.inaccuracy,
        },
        ..Profile::DEFAULT
    };

    fn config_of(values: &[i64]) -> Config {
        Config {
            rows: values[0] as u8,
            cols: values[1] as u8,
            n: values[2] as u8,
        }
    }

    fn start(config: &Config) -> Self {
        Enraya::new(config)
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        Side::from_index(self.player as usize)
    }

    #[inline]
    fn legal_moves(&self, out: &mut Moves) {
        if self.status != RUNNING {
            return;
        }
        if self.ninja {
            let mut cand = self.ninja_placements();
            if cand == 0 {
                out.push(Move::Pass);
            }
            while cand != 0 {
                let i = cand.trailing_zeros() as usize;
                out.push(Move::Place {
                    row: (i / NINJA_STRIDE) as u8,
                    col: (i % NINJA_STRIDE) as u8,
                });
                cand &= cand - 1;
            }
            return;
        }
        let cand = self.placements();
        if cand.is_empty() {
            // Unreachable off the ninja board (an empty cell is always legal there, and a full
            // board is over), but the controller would pass on any board.
            out.push(Move::Pass);
        } else {
            self.push_placements(cand, out);
        }
    }

    fn is_legal(&self, m: Move) -> bool {
        match m {
            Move::Place { row, col } => self.can_place(row as usize, col as usize),
            Move::Pass => self.status == RUNNING && self.placements().is_empty(),
        }
    }

    #[inline]
    fn apply(&self, m: Move) -> Self {
        match m {
            Move::Place { row, col } => self.place(row as usize, col as usize),
            Move::Pass => self.pass(),
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.status {
            RUNNING => None,
            WON_X => Some(Outcome::Win(Side::First)),
            WON_O => Some(Outcome::Win(Side::Second)),
            _ => Some(Outcome::Draw),
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        let mut h = self.key ^ bits::mix(self.left as u32 as u64 ^ 0x1ef7_0000);
        if self.player == 1 {
            h ^= SIDE_KEY;
        }
        if self.ninja {
            h ^= PHASE_KEYS[(self.phase % 3) as usize];
        }
        // The size, so that tables shared across sizes cannot confuse positions.
        h ^ bits::mix(((self.rows as u64) << 16) | ((self.cols as u64) << 8) | self.n as u64)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameMoveError> {
        text::parse_move(self, text).map_err(GameMoveError::from)
    }

    fn format_move(&self, m: Move) -> String {
        text::format_move(m)
    }

    fn format_fen(&self) -> String {
        text::format_fen(self)
    }

    fn parse_fen(s: &str, config: &Config) -> Result<Self, GameFenError> {
        text::parse_fen(s, config).map_err(GameFenError::from)
    }

    fn display(&self) -> String {
        text::display(self)
    }

    /// The simulator's `-file` boards: `F C N`, `phase player left turn`, the grid of 0/1/2.
    fn parse_position_file(text: &str) -> Option<Result<(Vec<i64>, Self), GameFenError>> {
        Some(
            text::parse_board_file(text)
                .map(|(c, s)| (vec![c.rows as i64, c.cols as i64, c.n as i64], s))
                .map_err(|e| GameFenError::Syntax(e.to_string())),
        )
    }

    fn format_position_file(&self) -> Option<String> {
        Some(text::format_board_file(self))
    }

    fn move_order_hint(&self, m: Move) -> i32 {
        eval::move_order_hint(self, m)
    }

    /// `default` only: `test` is the course's heuristic in the course's plain alpha-beta.
    fn unquiet(&self, heuristic: usize) -> bool {
        heuristic == 0 && eval::unquiet(self)
    }
    fn moves_left(&self) -> u32 {
        eval::moves_left(self)
    }
}
