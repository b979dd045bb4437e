//! The notations of 5-en-Raya: moves (`f,c`, `pass`), the state string (fen), the course
//! simulator's board files (`-file`, `Tablero::cargarDesdeFichero`) and the board for `d`.
//! Every refusal is a typed error whose message is one line that names what is wrong and what
//! is expected; the `Game` trait turns them into strings at its boundary.
//!
//! # Fen
//! `<grid> <x|o> <left> <phase> <turn>`: the rows from top to bottom separated by `/`, each
//! written left to right with `x` (player 1), `o` (player 2) and decimal numbers (`1`..`19`)
//! for runs of empty cells; the player to move; the placements left in the turn; the Trinity
//! phase; the core's turn counter. The 9 × 9 start is `4x4/9/9/9/x7o/9/9/9/4o4 x 1 2 4`.
//!
//! Accepted: any grid of the configured size (piece counts are free: red and yellow cells make
//! any count reachable), `left` in 0..=999, `phase` and `turn` in 0..=2^31 - 1 (the core's
//! `int`). A grid with a line is a finished game, won by the first line of the core's scan; a
//! full grid is finished too (ninja tie-break or draw). Refused: a grid whose size is not the
//! configured `Rows` × `Columns`, unknown characters, a run of `0` or with a leading zero,
//! a player other than `x`/`o`, counters that are not whole numbers in range (negative ones
//! included: the core would take a negative phase, with which no cell is ever legal, C++'s `%`
//! being negative), missing or extra fields.
//!
//! # Board files
//! What the simulator's `-file` reads: `F C N` on line 1; `phase player left turn` on line 2
//! (missing trailing fields default to 2, 1, 2, 0 as in the core); then F × C values 0 (empty),
//! 1 (x), 2 (o), row by row (any spacing and line breaks, as the core reads them with `>>`).
//! [`parse_board_file`] refuses what the core would misread or choke on: non-numbers (the core
//! reads a 0 and stops), values other than 0/1/2, missing cells (the core reads garbage),
//! sizes outside 1..=19, more than three numbers on line 1 or four on line 2, and text after
//! the last cell (the core ignores it: most likely a wrong size).

use crate::core::game::{Game, Outcome, Side};
use crate::core::spec::clip;

use super::{Config, Enraya, MAX_COUNTER, MAX_LEFT, MAX_SIDE, Move, Special, side_char};

/// Why a move text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("'{0}' is not a move: write a cell as 'row,col' (from 0, e.g. '4,5') or 'pass'")]
    Syntax(String),
    #[error("the game is over: no move is legal")]
    GameOver,
    #[error(
        "cell {row},{col} is off the {rows}x{cols} board (rows 0..={}, columns 0..={})",
        rows - 1,
        cols - 1
    )]
    OffBoard {
        row: usize,
        col: usize,
        rows: u8,
        cols: u8,
    },
    #[error("cell {row},{col} is taken by {owner}: choose an empty cell")]
    Occupied { row: usize, col: usize, owner: char },
    #[error(
        "cell {row},{col} breaks the Trinity rule: ({row}+{col}) mod 3 = {got}, phase {phase} needs (row+col) mod 3 = {need}"
    )]
    Trinity {
        row: usize,
        col: usize,
        got: usize,
        phase: u32,
        need: u32,
    },
    #[error("cell {row},{col} touches no piece: a placement needs a piece among its 8 neighbours")]
    Adjacency { row: usize, col: usize },
    #[error("'pass' is legal only when no cell is: {example} is legal here")]
    PassNotAllowed { example: String },
}

impl From<MoveError> for crate::core::game::MoveError {
    fn from(e: MoveError) -> Self {
        use crate::core::game::MoveError as M;
        let text = e.to_string();
        match e {
            MoveError::Syntax(_) | MoveError::OffBoard { .. } => M::Notation(text),
            MoveError::GameOver => M::Over(text),
            _ => M::Illegal(text),
        }
    }
}

impl From<FenError> for crate::core::game::FenError {
    fn from(e: FenError) -> Self {
        use crate::core::game::FenError as F;
        let text = e.to_string();
        match e {
            FenError::Rows { .. } | FenError::RowLength { .. } => F::Rules(text),
            _ => F::Syntax(text),
        }
    }
}

/// Why a state string is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error(
        "a state string has 5 fields '<grid> <x|o> <left> <phase> <turn>' (e.g. '4x4/9/9/9/x7o/9/9/9/4o4 x 1 2 4'), got {0}"
    )]
    Fields(usize),
    #[error("the grid has {got} rows but the board has Rows={rows} (rows are separated by '/')")]
    Rows { got: usize, rows: u8 },
    #[error("grid row {row} (from 0 at the top) has {got} cells but the board has Columns={cols}")]
    RowLength { row: usize, got: usize, cols: u8 },
    #[error(
        "grid row {row} (from 0 at the top): '{ch}' is not a cell (x, o, or a number of empty cells)"
    )]
    Char { row: usize, ch: String },
    #[error(
        "grid row {row} (from 0 at the top): '{run}' is not a number of empty cells (1 to 19, no leading 0)"
    )]
    Run { row: usize, run: String },
    #[error("the player to move must be 'x' or 'o', got '{0}'")]
    Player(String),
    #[error("{field} must be a whole number in 0..={max}, got '{text}'")]
    Number {
        field: &'static str,
        text: String,
        max: u64,
    },
}

/// Why a board file is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardFileError {
    #[error(
        "line 1 must be 'F C N' (rows, columns, pieces in a line to win: three whole numbers), got '{0}'"
    )]
    Header(String),
    #[error("line 1: {name} = {value} is outside 1..=19")]
    Size { name: &'static str, value: String },
    #[error(
        "line 2 must be 'phase player left turn' (at most 4 whole numbers; missing ones default to 2 1 2 0), got '{0}'"
    )]
    State(String),
    #[error("line 2: {field} must be a whole number in 0..={max}, got '{text}'")]
    StateValue {
        field: &'static str,
        text: String,
        max: u64,
    },
    #[error("line 2: the player must be 1 or 2, got '{0}'")]
    Player(String),
    #[error("line {line}: '{text}' is not a cell value: 0 (empty), 1 (player 1) or 2 (player 2)")]
    Cell { line: usize, text: String },
    #[error(
        "the file has {got} cell values but a {rows}x{cols} board needs {}: add the missing ones, row by row (0 for an empty cell)",
        *rows as usize * *cols as usize
    )]
    MissingCells { got: usize, rows: u8, cols: u8 },
    #[error(
        "line {line}: '{text}' comes after the {rows}x{cols} cells: remove it or fix the size on line 1"
    )]
    Extra {
        line: usize,
        text: String,
        rows: u8,
        cols: u8,
    },
}

/// Text of the input to echo in an error: at most 40 characters, control characters escaped,
/// so that a message stays one line whatever it quotes.
fn shown(t: &str) -> String {
    let escaped: String = t
        .chars()
        .flat_map(|c| {
            let e: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            e
        })
        .collect();
    clip(&escaped)
}

// ---------------------------------------------------------------------------------------------
// Moves.

/// `f,c` or `pass`, checked against the position's rules.
pub fn parse_move(s: &Enraya, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let syntax = || MoveError::Syntax(shown(t));
    let m = if t.eq_ignore_ascii_case("pass") {
        Move::Pass
    } else {
        let (a, b) = t.split_once(',').ok_or_else(syntax)?;
        let num = |x: &str| -> Result<usize, MoveError> {
            let x = x.trim();
            if x.is_empty() || !x.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // Any digit string is a number; a huge one is simply off the board.
            Ok(x.parse::<usize>().unwrap_or(usize::MAX))
        };
        let (row, col) = (num(a)?, num(b)?);
        if row >= s.rows() as usize || col >= s.cols() as usize {
            return Err(MoveError::OffBoard {
                row,
                col,
                rows: s.rows(),
                cols: s.cols(),
            });
        }
        Move::Place {
            row: row as u8,
            col: col as u8,
        }
    };
    if s.outcome().is_some() {
        return Err(MoveError::GameOver);
    }
    let placements = s.placements();
    match m {
        Move::Pass if placements.is_empty() => Ok(m),
        Move::Pass => {
            let mut moves = super::Moves::new();
            s.legal_moves(&mut moves);
            Err(MoveError::PassNotAllowed {
                example: moves.first().map_or(String::new(), |&m| format_move(m)),
            })
        }
        Move::Place { row, col } => {
            let (row, col) = (row as usize, col as usize);
            if let Some(owner) = s.cell(row, col) {
                return Err(MoveError::Occupied {
                    row,
                    col,
                    owner: side_char(owner),
                });
            }
            if s.is_ninja() {
                let need = s.phase() % 3;
                if (row + col) % 3 != need as usize {
                    return Err(MoveError::Trinity {
                        row,
                        col,
                        got: (row + col) % 3,
                        phase: s.phase(),
                        need,
                    });
                }
                if !s.can_place(row, col) {
                    return Err(MoveError::Adjacency { row, col });
                }
            }
            debug_assert!(s.can_place(row, col));
            Ok(m)
        }
    }
}

/// `f,c` or `pass`.
pub fn format_move(m: Move) -> String {
    match m {
        Move::Place { row, col } => format!("{row},{col}"),
        Move::Pass => "pass".into(),
    }
}

// ---------------------------------------------------------------------------------------------
// Fen.

/// The state string (see the module doc).
pub fn format_fen(s: &Enraya) -> String {
    let rows: Vec<String> = (0..s.rows() as usize)
        .map(|f| {
            let mut out = String::new();
            let mut run = 0;
            for c in 0..s.cols() as usize {
                match s.cell(f, c) {
                    None => run += 1,
                    Some(side) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(side_char(side));
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            out
        })
        .collect();
    format!(
        "{} {} {} {} {}",
        rows.join("/"),
        side_char(s.side_to_move()),
        s.left(),
        s.phase(),
        s.turn()
    )
}

/// A whole number in `0..=max` (digits only: no sign, no spaces).
fn number(t: &str, max: u64) -> Option<u64> {
    if t.is_empty() || t.len() > 20 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse::<u64>().ok().filter(|&v| v <= max)
}

/// Parses a state string for a board of `config`'s size (see the module doc).
pub fn parse_fen(text: &str, config: &Config) -> Result<Enraya, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [grid, player, left, phase, turn] = fields[..] else {
        return Err(FenError::Fields(fields.len()));
    };
    let config = super::clamp_config(config);
    let grid = parse_grid(grid, &config)?;
    let player = match player {
        "x" => Side::First,
        "o" => Side::Second,
        t => return Err(FenError::Player(shown(t))),
    };
    let num = |field: &'static str, t: &str, max: u64| {
        number(t, max).ok_or_else(|| FenError::Number {
            field,
            text: shown(t),
            max,
        })
    };
    let left = num("left", left, MAX_LEFT as u64)? as i32;
    let phase = num("phase", phase, MAX_COUNTER as u64)? as u32;
    let turn = num("turn", turn, MAX_COUNTER as u64)? as u32;
    Ok(Enraya::from_parts(
        &config, &grid, player, left, phase, turn,
    ))
}

fn parse_grid(text: &str, config: &Config) -> Result<Vec<Vec<u8>>, FenError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != config.rows as usize {
        return Err(FenError::Rows {
            got: rows.len(),
            rows: config.rows,
        });
    }
    let cols = config.cols as usize;
    rows.iter()
        .enumerate()
        .map(|(f, row)| {
            let mut cells = Vec::with_capacity(cols);
            let mut chars = row.char_indices().peekable();
            while let Some((start, ch)) = chars.next() {
                match ch {
                    'x' => cells.push(1),
                    'o' => cells.push(2),
                    '0'..='9' => {
                        let mut end = start + 1;
                        while let Some(&(i, d)) = chars.peek() {
                            if !d.is_ascii_digit() {
                                break;
                            }
                            end = i + 1;
                            chars.next();
                        }
                        let run = &row[start..end];
                        let n = match run.parse::<usize>() {
                            Ok(n) if !run.starts_with('0') && n <= MAX_SIDE as usize => n,
                            _ => {
                                return Err(FenError::Run {
                                    row: f,
                                    run: shown(run),
                                });
                            }
                        };
                        cells.extend(std::iter::repeat_n(0, n));
                    }
                    _ => {
                        return Err(FenError::Char {
                            row: f,
                            ch: shown(&ch.to_string()),
                        });
                    }
                }
                if cells.len() > cols {
                    break;
                }
            }
            if cells.len() != cols {
                return Err(FenError::RowLength {
                    row: f,
                    got: cells.len(),
                    cols: config.cols,
                });
            }
            Ok(cells)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Board files.

/// The core's defaults for line 2's fields (`int fase = 2, jugador = 1, movs_rest = 2,
/// turno_actual = 0`), used when the line stops early.
const FILE_DEFAULTS: [u64; 4] = [2, 1, 2, 0];

/// Reads a simulator board file (see the module doc): the size it carries and the position.
pub fn parse_board_file(text: &str) -> Result<(Config, Enraya), BoardFileError> {
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let header: Vec<&str> = first.split_whitespace().collect();
    let [f, c, n] = header[..] else {
        return Err(BoardFileError::Header(shown(first.trim())));
    };
    let size = |name: &'static str, t: &str| -> Result<u8, BoardFileError> {
        if !is_integer(t) {
            return Err(BoardFileError::Header(shown(first.trim())));
        }
        match number(t, MAX_SIDE as u64) {
            Some(v) if v >= 1 => Ok(v as u8),
            _ => Err(BoardFileError::Size {
                name,
                value: shown(t),
            }),
        }
    };
    let config = Config {
        rows: size("F", f)?,
        cols: size("C", c)?,
        n: size("N", n)?,
    };
    let second = lines.next().unwrap_or("");
    let state: Vec<&str> = second.split_whitespace().collect();
    if state.len() > 4 {
        return Err(BoardFileError::State(shown(second.trim())));
    }
    let mut values = FILE_DEFAULTS;
    const NAMES: [&str; 4] = ["phase", "player", "left", "turn"];
    let maxima = [MAX_COUNTER as u64, 2, MAX_LEFT as u64, MAX_COUNTER as u64];
    for (k, t) in state.iter().enumerate() {
        if k == 1 {
            values[k] = match *t {
                "1" => 1,
                "2" => 2,
                _ => return Err(BoardFileError::Player(shown(t))),
            };
            continue;
        }
        values[k] = number(t, maxima[k]).ok_or_else(|| BoardFileError::StateValue {
            field: NAMES[k],
            text: shown(t),
            max: maxima[k],
        })?;
    }
    let need = config.rows as usize * config.cols as usize;
    let mut cells = Vec::with_capacity(need);
    for (k, line) in lines.enumerate() {
        for t in line.split_whitespace() {
            let line = k + 3;
            if cells.len() == need {
                return Err(BoardFileError::Extra {
                    line,
                    text: shown(t),
                    rows: config.rows,
                    cols: config.cols,
                });
            }
            cells.push(match t {
                "0" => 0,
                "1" => 1,
                "2" => 2,
                _ => {
                    return Err(BoardFileError::Cell {
                        line,
                        text: shown(t),
                    });
                }
            });
        }
    }
    if cells.len() < need {
        return Err(BoardFileError::MissingCells {
            got: cells.len(),
            rows: config.rows,
            cols: config.cols,
        });
    }
    let grid: Vec<Vec<u8>> = cells
        .chunks(config.cols as usize)
        .map(<[u8]>::to_vec)
        .collect();
    let player = Side::from_index(values[1] as usize - 1);
    let s = Enraya::from_parts(
        &config,
        &grid,
        player,
        values[2] as i32,
        values[0] as u32,
        values[3] as u32,
    );
    Ok((config, s))
}

/// An optionally signed run of digits: a number, though maybe out of range (`-3` is a size
/// out of range, `abc` is no size at all).
fn is_integer(t: &str) -> bool {
    let d = t.strip_prefix(['-', '+']).unwrap_or(t);
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
}

/// The board file the core's `cargarDesdeFichero` reads back as this position: every field of
/// line 2 written out, the cells row by row.
pub fn format_board_file(s: &Enraya) -> String {
    let mut out = format!(
        "{} {} {}\n{} {} {} {}\n",
        s.rows(),
        s.cols(),
        s.in_a_row(),
        s.phase(),
        s.side_to_move().index() + 1,
        s.left(),
        s.turn()
    );
    for f in 0..s.rows() as usize {
        let row: Vec<&str> = (0..s.cols() as usize)
            .map(|c| match s.cell(f, c) {
                None => "0",
                Some(Side::First) => "1",
                Some(Side::Second) => "2",
            })
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

impl Enraya {
    /// [`parse_board_file`].
    pub fn parse_board_file(text: &str) -> Result<(Config, Enraya), BoardFileError> {
        parse_board_file(text)
    }

    /// [`format_board_file`].
    pub fn format_board_file(&self) -> String {
        format_board_file(self)
    }
}

// ---------------------------------------------------------------------------------------------
// The board for `d`.

/// The board, row and column numbers from 0, `x`/`o` pieces, empty special cells as `r`
/// (red), `y` (yellow), `g` (green); then who is to move and the counters, or the result.
pub fn display(s: &Enraya) -> String {
    let (rows, cols) = (s.rows() as usize, s.cols() as usize);
    let mut out = String::from("   ");
    for c in 0..cols {
        out.push_str(&format!("{c:>3}"));
    }
    out.push('\n');
    for f in 0..rows {
        out.push_str(&format!("{f:>3}"));
        for c in 0..cols {
            let ch = match (s.cell(f, c), s.special(f, c)) {
                (Some(side), _) => side_char(side),
                (None, Special::Red) => 'r',
                (None, Special::Yellow) => 'y',
                (None, Special::Green) => 'g',
                (None, Special::Normal) => '.',
            };
            out.push_str(&format!("{ch:>3}"));
        }
        out.push('\n');
    }
    if s.is_ninja() {
        out.push_str("special cells: r red (the opponent's piece), y yellow (clears its row and column), g green (one more placement)\n");
    }
    let line = match s.outcome() {
        None => {
            let left = s.left();
            let mut t = format!(
                "{} to move, {left} placement{} left",
                side_char(s.side_to_move()),
                if left == 1 { "" } else { "s" }
            );
            if let Some(r) = s.residue() {
                t.push_str(&format!(
                    ", phase {} (cells with (row+col) mod 3 = {r})",
                    s.phase()
                ));
            } else {
                t.push_str(&format!(", phase {}", s.phase()));
            }
            t.push_str(&format!(", turn {}", s.turn()));
            t
        }
        Some(Outcome::Win(w)) => match s.winning_line() {
            Some((_, cells)) => {
                let cells: Vec<String> = cells.iter().map(|(f, c)| format!("{f},{c}")).collect();
                format!("{} has won: line {}", side_char(w), cells.join(" "))
            }
            None => format!(
                "{} has won on the tie-break: the board is full, windows of 4: x {}, o {}",
                side_char(w),
                s.windows_of_four(Side::First),
                s.windows_of_four(Side::Second)
            ),
        },
        Some(Outcome::Draw) if s.is_ninja() => format!(
            "draw: the board is full, windows of 4: x {}, o {}",
            s.windows_of_four(Side::First),
            s.windows_of_four(Side::Second)
        ),
        Some(Outcome::Draw) => "draw: the board is full".into(),
    };
    out.push_str(&line);
    out.push('\n');
    out
}
