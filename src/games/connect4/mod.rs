//! Classic Connect Four (`connect4`): 7 columns × 6 rows by default, one stone per move, four
//! in a row wins, a full board is a draw.
//!
//! # Board representation
//! Pascal Pons' bitboard (see [`bits`]): `current` holds the stones of the side to move, `mask`
//! every stone; each column has `rows + 1` bits, the top one an always-empty sentinel, so cell
//! (column `c`, row `r`), 0-based from the bottom-left, is bit `c * (rows + 1) + r`:
//!
//! ```text
//!   7×6:  .  .  .  .  .  .  .    <- sentinel row (bits 6 13 20 27 34 41 48)
//!         5 12 19 26 33 40 47
//!         4 11 18 25 32 39 46
//!         3 10 17 24 31 38 45
//!         2  9 16 23 30 37 44
//!         1  8 15 22 29 36 43
//!         0  7 14 21 28 35 42
//! ```
//!
//! Playing column `c` is `mask |= mask + bottom(c)`; `current + mask` is a unique key of the
//! position (Pons). The future exact solver reuses [`Connect4::current`], [`Connect4::mask`],
//! [`Connect4::bottom_mask`], [`Connect4::board_mask`] and the functions of [`bits`].
//!
//! The board size is part of the [`Config`]: options `Rows` (4..=8, default 6) and `Columns`
//! (4..=7, default 7); 7 × (8 + 1) = 63 bits is the largest layout that fits a `u64`.
//!
//! # Moves
//! A move is a 0-based column index (`u8`); its notation is the 1-based column number `1`..`7`.
//!
//! # Fen
//! `<rows> <side>`: the rows from top to bottom separated by `/`, each written left to right
//! with `x` (first player's stone), `o` (second player's stone) and digits `1`..`9` for runs of
//! empty cells; then the side to move, `x` or `o`. The start position of 7×6 is
//! `7/7/7/7/7/7 x`. The number of rows and columns must match the configured `Rows`/`Columns`,
//! stones must rest on stones (gravity), the side to move must agree with the stone counts
//! (`x` count = `o` count → `x` to move; `x` = `o` + 1 → `o` to move), and only the side that
//! just moved may have four in a row (then the game is over). Pons' move strings (`4455`) are
//! read with [`Connect4::from_moves`].

pub mod bits;
pub mod eval;

use crate::core::spec::{PositionError, Token, play_moves};
use arrayvec::ArrayVec;

use crate::core::game::{
    BenchPosition, FenError, Game, Hue, Ink, LabelKind, LearnPlan, MoveError, Outcome, Positions,
    Profile, ReviewCalibration, Side, VariantOption,
};

/// Largest supported width; the move list needs one slot per column, so its capacity is 7.
pub const MAX_COLUMNS: usize = 7;

/// Variant parameters: the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub rows: u8,
    pub columns: u8,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rows: 6,
            columns: 7,
        }
    }
}

/// A classic Connect Four position (see the module doc for the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4 {
    /// Stones of the side to move.
    current: u64,
    /// Every stone on the board.
    mask: u64,
    /// Bottom cell of every column (depends only on the size; kept here so hot paths need no
    /// table look-up).
    bottom: u64,
    /// Every playable cell.
    board: u64,
    /// Stones on the board.
    moves: u8,
    width: u8,
    height: u8,
    /// 0 = running, 1 = the side that just moved has won, 2 = draw (board full).
    status: u8,
}

const RUNNING: u8 = 0;
const LAST_MOVER_WON: u8 = 1;
const DRAW: u8 = 2;

/// Move list: one entry per non-full column, at most [`MAX_COLUMNS`] = 7.
pub type Moves = ArrayVec<u8, MAX_COLUMNS>;

impl Connect4 {
    /// The empty board of the given size. `configure` validates sizes; a hand-built `Config`
    /// out of range is clamped into 4..=7 columns and 4..=8 rows rather than overflowing a shift.
    pub fn empty(config: &Config) -> Self {
        let config = Config {
            rows: config.rows.clamp(4, 8),
            columns: config.columns.clamp(4, MAX_COLUMNS as u8),
        };
        let (w, h) = (config.columns as u32, config.rows as u32);
        Connect4 {
            current: 0,
            mask: 0,
            bottom: bits::bottom_mask(w, h + 1),
            board: bits::board_mask(w, h),
            moves: 0,
            width: config.columns,
            height: config.rows,
            status: RUNNING,
        }
    }

    /// Plays a Pons move string (column digits `1`..`9`, first player first) from the empty
    /// board. Errors on a full column, a bad digit, or a move after the game ended.
    pub fn from_moves(moves: &str, config: &Config) -> Result<Self, PositionError> {
        let moves: Vec<Token> = moves
            .chars()
            .map(|c| Token {
                text: c.to_string(),
                column: 0,
            })
            .collect();
        play_moves(Self::empty(config), &moves)
    }

    /// Stones of the side to move (Pons' `current_position`).
    pub fn current(&self) -> u64 {
        self.current
    }
    /// Every stone on the board.
    pub fn mask(&self) -> u64 {
        self.mask
    }
    /// Bottom cell of every column.
    pub fn bottom_mask(&self) -> u64 {
        self.bottom
    }
    /// Every playable cell (no sentinels).
    pub fn board_mask(&self) -> u64 {
        self.board
    }
    /// Column stride in bits (`rows + 1`).
    pub fn stride(&self) -> u32 {
        self.height as u32 + 1
    }
    /// Number of stones on the board.
    pub fn moves_played(&self) -> u32 {
        self.moves as u32
    }
    /// Number of columns.
    pub fn width(&self) -> u32 {
        self.width as u32
    }
    /// Number of rows.
    pub fn height(&self) -> u32 {
        self.height as u32
    }
    /// Pons' unique position key `current + mask`.
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }
    /// Stones of `side`.
    pub fn stones(&self, side: Side) -> u64 {
        if side == self.side_to_move() {
            self.current
        } else {
            self.current ^ self.mask
        }
    }
    /// Who owns cell (column `c`, row `r`), 0-based from the bottom-left; `None` if empty or off
    /// the board.
    pub fn cell(&self, c: u32, r: u32) -> Option<Side> {
        if c >= self.width() || r >= self.height() {
            return None;
        }
        let bit = 1u64 << (c * self.stride() + r);
        if self.mask & bit == 0 {
            None
        } else if self.stones(Side::First) & bit != 0 {
            Some(Side::First)
        } else {
            Some(Side::Second)
        }
    }
    /// Cells where a stone would land, one per non-full column.
    #[inline]
    pub fn playable(&self) -> u64 {
        bits::playable_cells(self.mask, self.bottom, self.board)
    }
    /// Cells that would complete four in a row for the side to move.
    #[inline]
    pub fn winning_cells(&self) -> u64 {
        bits::winning_cells(self.current, self.mask, self.board, self.stride())
    }
    /// Cells that would complete four in a row for the side not to move.
    #[inline]
    pub fn opponent_winning_cells(&self) -> u64 {
        bits::winning_cells(
            self.current ^ self.mask,
            self.mask,
            self.board,
            self.stride(),
        )
    }
    /// Does playing column `col` (0-based, must be legal) win at once for the side to move?
    #[inline]
    pub fn is_winning_move(&self, col: u8) -> bool {
        self.winning_cells() & self.playable() & self.column(col) != 0
    }
    #[inline]
    fn column(&self, col: u8) -> u64 {
        bits::column_mask(col as u32, self.height as u32)
    }
    /// Does the side to move have a playable winning cell (Pons' `canWinNext`)?
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.playable() != 0
    }

    /// Pons' `possibleNonLosingMoves`: the playable cells after which the opponent cannot win
    /// at once (empty when it has two playable winning cells). Meaningful when the side to move
    /// cannot win at once itself (check [`Connect4::can_win_next`] first).
    #[inline]
    pub fn non_losing_cells(&self) -> u64 {
        let mut possible = self.playable();
        let opp_win = self.opponent_winning_cells();
        let forced = possible & opp_win;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        // Never play right below an opponent's winning cell.
        possible & !(opp_win >> 1)
    }

    /// The column (0-based) of a single-cell bitmap on this board.
    #[inline]
    pub fn column_of(&self, cell: u64) -> u8 {
        (cell.trailing_zeros() / self.stride()) as u8
    }

    /// Plays the stone given as a one-bit bitmap (a cell of [`Connect4::playable`]), the form
    /// a solver works with; `apply(col)` is `play_cell(playable() & column(col))`.
    #[inline]
    pub fn play_cell(&self, cell: u64) -> Self {
        debug_assert!(cell.count_ones() == 1 && cell & self.playable() == cell);
        let stride = self.stride();
        let new_mask = self.mask | cell;
        let mover = self.current | cell;
        let status = if bits::has_line(mover, stride) {
            LAST_MOVER_WON
        } else if new_mask == self.board {
            DRAW
        } else {
            RUNNING
        };
        let next = Connect4 {
            current: mover ^ new_mask,
            mask: new_mask,
            moves: self.moves + 1,
            status,
            ..*self
        };
        // Gravity and board bounds, checked in debug builds (the tests run with them on).
        debug_assert!(
            new_mask & !self.board == 0 && new_mask & !((new_mask << 1) | self.bottom) == 0,
            "{next:?}"
        );
        next
    }

    /// Is column `col` (0-based) on the board and not full?
    #[inline]
    pub fn can_play(&self, col: u8) -> bool {
        col < self.width
            && self.mask & (1u64 << (col as u32 * self.stride() + self.height as u32 - 1)) == 0
    }

    /// Builds a position from owner-per-cell rows (bottom first; 0 empty, 1 first, 2 second) and
    /// the side to move, validating gravity, counts and lines.
    fn from_cells(cells: &[Vec<u8>], side: Side, config: &Config) -> Result<Self, FenError> {
        let mut s = Self::empty(config);
        let stride = s.stride();
        let (mut first, mut second) = (0u64, 0u64);
        for c in 0..s.width() {
            let mut seen_empty = false;
            for r in 0..s.height() {
                let code = cells[r as usize][c as usize];
                let bit = 1u64 << (c * stride + r);
                match code {
                    0 => seen_empty = true,
                    _ if seen_empty => {
                        return Err(FenError::Rules(format!(
                            "column {}: a stone floats above an empty cell at row {}",
                            c + 1,
                            r
                        )));
                    }
                    1 => first |= bit,
                    _ => second |= bit,
                }
            }
        }
        let (nf, ns) = (first.count_ones(), second.count_ones());
        let expected = if nf == ns {
            Side::First
        } else if nf == ns + 1 {
            Side::Second
        } else {
            return Err(FenError::Rules(format!(
                "stone counts x={nf}, o={ns} are impossible (x must equal o or o + 1)"
            )));
        };
        if side != expected {
            return Err(FenError::Rules(format!(
                "side to move must be '{}' with x={nf}, o={ns}",
                side_char(expected)
            )));
        }
        let (mover, other) = match side {
            Side::First => (first, second),
            Side::Second => (second, first),
        };
        if bits::has_line(mover, stride) {
            return Err(FenError::Rules(
                "the side to move already has four in a row".into(),
            ));
        }
        s.current = mover;
        s.mask = first | second;
        s.moves = (nf + ns) as u8;
        s.status = if bits::has_line(other, stride) {
            LAST_MOVER_WON
        } else if s.mask == s.board {
            DRAW
        } else {
            RUNNING
        };
        Ok(s)
    }
}

fn side_char(s: Side) -> char {
    match s {
        Side::First => 'x',
        Side::Second => 'o',
    }
}

/// [`Game::display_inked`] of a grid board (Connect Four and Conecta-4 BOOM): `x`/`X` red,
/// `o`/`O` yellow, empty cells dim; the last move is the highest piece of its column (a BOOM
/// marks nothing). Board rows are the lines before the column numbers, top row first; cell `c`
/// of a row is at byte 2c + 1.
pub(crate) fn ink_grid(
    text: &str,
    last: Option<&str>,
    ink: &dyn Fn(&str, Ink) -> String,
) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let rows = lines
        .iter()
        .position(|l| l.trim_start().starts_with('1'))
        .unwrap_or(0);
    let col = last.and_then(|m| m.parse::<usize>().ok()).map(|c| c - 1);
    let top = col.and_then(|c| {
        (0..rows).find(|&r| {
            lines[r]
                .as_bytes()
                .get(2 * c + 1)
                .is_some_and(|&b| b != b'.')
        })
    });
    let out: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(r, l)| {
            if r >= rows {
                return l.to_string();
            }
            l.char_indices()
                .map(|(i, ch)| {
                    let hue = match ch {
                        'x' | 'X' => Hue::Red,
                        'o' | 'O' => Hue::Yellow,
                        '.' => Hue::Dim,
                        _ => return ch.to_string(),
                    };
                    let marked = top == Some(r) && col.map(|c| 2 * c + 1) == Some(i);
                    ink(ch.encode_utf8(&mut [0; 4]), Ink { hue, marked })
                })
                .collect()
        })
        .collect();
    out.join("\n")
}

impl Game for Connect4 {
    type Move = u8;
    type Moves = Moves;
    type Config = Config;
    type Weights = eval::Weights;

    const NAME: &'static str = "connect4";
    const TITLE: &'static str = "Connect Four";
    const ALIASES: &'static [&'static str] = &["conecta4", "connectfour", "c4"];
    const OPTIONS: &'static [VariantOption] = &[
        VariantOption::spin("Rows", 6, 4, 8),
        VariantOption::spin("Columns", 7, 4, 7),
    ];
    const HEURISTICS: &'static [&'static str] = &["default", "test", "seed"];
    /// Reviews at depth 12 (a few milliseconds a position; most are proven by the solver anyway); `learn` labels the searches' leaves with the solver's results. The review's curves are fitted on 200 self-play games at the default depth and
    /// 100 one ply shallower (docs/review.md, "Calibration").
    const PROFILE: Profile = Profile {
        bench: &[
            BenchPosition {
                start: "startpos",
                moves: "",
                depth: 12,
            },
            BenchPosition {
                start: "startpos",
                moves: "4 3 3 3 3 6 4 6 6 4",
                depth: 12,
            },
        ],
        ladder: [1, 3, 5, 9],
        review_depth: 12,
        review: ReviewCalibration {
            even: (500.1, 126.6),
            odd: (461.7, -264.0),
            inaccuracy: 0.02,
        },
        learn: LearnPlan {
            labels: LabelKind::Exact,
            positions: Positions::Leaves,
            squares_unit: None,
            exclude: &[],
            fixed: &[],
        },
    };

    fn config_of(values: &[i64]) -> Config {
        Config {
            rows: values[0] as u8,
            columns: values[1] as u8,
        }
    }

    fn start(config: &Config) -> Self {
        Self::empty(config)
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        Side::from_index((self.moves & 1) as usize)
    }

    #[inline]
    fn legal_moves(&self, out: &mut Moves) {
        if self.status != RUNNING {
            return;
        }
        // A column is open while its top cell is empty.
        let stride = self.stride();
        let mut top = 1u64 << (self.height - 1);
        for c in 0..self.width {
            if self.mask & top == 0 {
                out.push(c);
            }
            top <<= stride;
        }
    }

    #[inline]
    fn apply(&self, col: u8) -> Self {
        let cell = self.playable() & self.column(col);
        self.play_cell(cell)
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.status {
            RUNNING => None,
            LAST_MOVER_WON => Some(Outcome::Win(self.side_to_move().other())),
            _ => Some(Outcome::Draw),
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        // `current + mask` identifies the position for a given size; the size goes in too so
        // that tables shared across sizes cannot confuse positions.
        bits::mix(self.key() ^ ((self.width as u64) << 59) ^ ((self.height as u64) << 55))
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let t = text.trim();
        let n: u32 = t.parse().map_err(|_| {
            MoveError::Notation(format!("'{t}' is not a column number 1..{}", self.width))
        })?;
        if n < 1 || n > self.width() {
            return Err(MoveError::Notation(format!(
                "column {n} is not in 1..{}",
                self.width
            )));
        }
        if self.status != RUNNING {
            return Err(MoveError::Over("the game is over: no move is legal".into()));
        }
        let col = (n - 1) as u8;
        if !self.can_play(col) {
            return Err(MoveError::Illegal(format!("column {n} is full")));
        }
        Ok(col)
    }

    fn format_move(&self, m: u8) -> String {
        (m as u32 + 1).to_string()
    }

    fn format_fen(&self) -> String {
        let rows: Vec<String> = (0..self.height())
            .rev()
            .map(|r| bits::format_row((0..self.width()).map(|c| self.cell(c, r).map(side_char))))
            .collect();
        format!("{} {}", rows.join("/"), side_char(self.side_to_move()))
    }

    fn parse_fen(text: &str, config: &Config) -> Result<Self, FenError> {
        let syntax = |m: String| FenError::Syntax(m);
        let mut parts = text.split_whitespace();
        let board = parts.next().ok_or_else(|| syntax("empty fen".into()))?;
        let side = match parts.next() {
            Some("x") => Side::First,
            Some("o") => Side::Second,
            Some(t) => {
                return Err(syntax(format!(
                    "side to move must be 'x' or 'o', got '{t}'"
                )));
            }
            None => return Err(syntax("fen lacks the side to move ('x' or 'o')".into())),
        };
        if let Some(t) = parts.next() {
            return Err(syntax(format!("unexpected trailing text '{t}'")));
        }
        let cells =
            bits::parse_rows(
                board,
                config.columns as usize,
                config.rows as usize,
                |ch| match ch {
                    'x' => Some(1),
                    'o' => Some(2),
                    _ => None,
                },
            )?;
        Self::from_cells(&cells, side, config)
    }

    fn display(&self) -> String {
        let mut s = String::new();
        for r in (0..self.height()).rev() {
            for c in 0..self.width() {
                s.push(' ');
                s.push(self.cell(c, r).map_or('.', side_char));
            }
            s.push('\n');
        }
        for c in 1..=self.width() {
            s.push_str(&format!(" {c}"));
        }
        s.push('\n');
        let state = match self.outcome() {
            None => format!(
                "{} to move, {} stone{} played",
                side_char(self.side_to_move()),
                self.moves,
                if self.moves == 1 { "" } else { "s" }
            ),
            Some(Outcome::Win(w)) => format!("{} has won", side_char(w)),
            Some(Outcome::Draw) => "draw (board full)".into(),
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
        ink_grid(self.display().trim_end(), last.map(|(m, _)| m), ink)
    }

    #[inline]
    /// Half the empty cells (rounded up): a side never has more moves than that left.
    fn moves_left(&self) -> u32 {
        (self.board.count_ones() - u32::from(self.moves)).div_ceil(2)
    }

    fn move_order_hint(&self, col: u8) -> i32 {
        // Immediate wins, then blocks of the opponent's immediate wins, then centre first.
        let cell = self.playable() & self.column(col);
        let centre = (self.width as i32 - 1) / 2;
        let mut hint = -(col as i32 - centre).abs();
        if self.winning_cells() & cell != 0 {
            hint += 1000;
        } else if self.opponent_winning_cells() & cell != 0 {
            hint += 500;
        }
        hint
    }
}
