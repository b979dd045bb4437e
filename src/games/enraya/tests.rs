//! The rules of 5-en-Raya, checked on positions built by hand and against the slow model of
//! the core ([`super::reference`]): specials, passes, the scan order, the tie-break, every
//! board size, the notations and their refusals, perft.

use super::reference::{Reference, assert_same};
use super::text::{BoardFileError, FenError, format_board_file, parse_board_file};
use super::*;
use crate::core::game::{Game, Outcome, Side};
use crate::core::perft::perft;

fn cfg(rows: u8, cols: u8, n: u8) -> Config {
    Config { rows, cols, n }
}

fn fen(text: &str) -> Enraya {
    Enraya::parse_fen(text, &Config::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn fen_in(text: &str, c: Config) -> Enraya {
    Enraya::parse_fen(text, &c).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn legal(s: &Enraya) -> Vec<String> {
    let mut m = Moves::new();
    s.legal_moves(&mut m);
    m.iter().map(|&m| s.format_move(m)).collect()
}

fn play(s: &Enraya, text: &str) -> Enraya {
    let m = s
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", s.format_fen()));
    s.apply(m)
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A full 9 × 9 grid with no two-in-a-row longer than 2 in any direction: cell (f, c) is x when
/// `(c + 2f) mod 4 < 2` (the steps of the four directions change `c + 2f` by 1, 2, 3 and 1, so
/// no direction keeps its value mod 4 for more than two cells).
fn striped() -> Vec<Vec<u8>> {
    (0..9)
        .map(|f| {
            (0..9)
                .map(|c| if (c + 2 * f) % 4 < 2 { 1 } else { 2 })
                .collect()
        })
        .collect()
}

fn grid_fen(grid: &[Vec<u8>], rest: &str) -> String {
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut run = 0;
            for &v in row {
                if v == 0 {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    out.push_str(&run.to_string());
                    run = 0;
                }
                out.push(if v == 1 { 'x' } else { 'o' });
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            out
        })
        .collect();
    format!("{} {rest}", rows.join("/"))
}

#[test]
fn ninja_start() {
    let s = Enraya::start(&Config::default());
    assert_eq!(s.format_fen(), "4x4/9/9/9/x7o/9/9/9/4o4 x 1 2 4");
    assert!(s.is_ninja());
    assert_eq!(
        legal(&s),
        ["0,5", "1,4", "3,8", "4,1", "4,7", "5,0", "7,4", "8,3"]
    );
    assert_eq!(s.outcome(), None);
    assert_eq!(s.special(4, 4), Special::Red);
    assert_eq!(s.special(2, 4), Special::Yellow);
    assert_eq!(s.special(7, 7), Special::Green);
    assert_eq!(s.special(0, 0), Special::Normal);
    assert!(s.in_residue(0, 2) && !s.in_residue(0, 0));
    // One placement: then o with two.
    let s = play(&s, "0,5");
    assert_eq!(s.format_fen(), "4xx3/9/9/9/x7o/9/9/9/4o4 o 2 3 5");
    let s = play(&s, "5,7");
    assert_eq!(
        (s.side_to_move(), s.left(), s.phase(), s.turn()),
        (Side::Second, 1, 3, 6)
    );
}

#[test]
fn other_boards_start_empty() {
    for (r, c, n) in [
        (3, 3, 3),
        (7, 7, 4),
        (15, 15, 5),
        (19, 19, 19),
        (1, 1, 1),
        (9, 9, 4),
    ] {
        let s = Enraya::start(&cfg(r, c, n));
        assert!(!s.is_ninja());
        assert_eq!(s.occupied(), bits::Bits::EMPTY);
        assert_eq!((s.left(), s.phase(), s.turn()), (1, 0, 0));
        assert_eq!(legal(&s).len(), r as usize * c as usize);
        assert_eq!(s.special(1, 1), Special::Normal);
        assert!(!s.in_residue(0, 0));
    }
    // 9 × 9 with N = 4 is not ninja: empty, every cell legal, no specials.
    let s = Enraya::start(&cfg(9, 9, 4));
    let s = play(&s, "4,4");
    assert_eq!(
        s.cell(4, 4),
        Some(Side::First),
        "no red cell off ninja mode"
    );
    assert_eq!(
        (s.side_to_move(), s.left(), s.phase()),
        (Side::Second, 1, 1)
    );
}

#[test]
fn move_list_capacity() {
    // The largest list: the empty 19 × 19 board, every cell. Pass is only ever alone.
    let s = Enraya::start(&cfg(19, 19, 5));
    let mut m = Moves::new();
    s.legal_moves(&mut m);
    assert_eq!(m.len(), MAX_MOVES);
    assert_eq!(m.last(), Some(&Move::Place { row: 18, col: 18 }));
}

#[test]
fn state_is_small() {
    assert!(std::mem::size_of::<Enraya>() <= 128);
    assert!(std::mem::size_of::<Move>() <= 3);
}

#[test]
fn tic_tac_toe_perft() {
    // 3 × 3, N = 3 is tic-tac-toe: the known numbers of move sequences by length, games
    // stopping at a line (255,168 games in all).
    let s = Enraya::start(&cfg(3, 3, 3));
    let got: Vec<u64> = (1..=9).map(|d| perft(&s, d)).collect();
    assert_eq!(
        got,
        [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    );
}

#[test]
fn one_by_one() {
    let s = Enraya::start(&cfg(1, 1, 1));
    assert_eq!(legal(&s), ["0,0"]);
    let t = play(&s, "0,0");
    assert_eq!(t.outcome(), Some(Outcome::Win(Side::First)));
    assert_eq!(t.winning_line(), Some((Side::First, vec![(0, 0)])));
    assert_eq!(t.format_fen(), "x o 1 1 1");
    let s = Enraya::start(&cfg(1, 1, 2));
    let t = play(&s, "0,0");
    assert_eq!(
        t.outcome(),
        Some(Outcome::Draw),
        "full board, no line: a draw"
    );
    assert!(legal(&t).is_empty());
}

#[test]
fn red_cell_completes_the_opponents_line() {
    // o holds (3,0)..(3,3); x must place with residue 1: (3,4) is red and gives o its fifth.
    let s = fen("4x4/9/9/oooo5/x7o/9/9/9/4o4 x 2 4 20");
    assert!(legal(&s).contains(&"3,4".to_string()));
    let t = play(&s, "3,4");
    assert_eq!(t.cell(3, 4), Some(Side::Second));
    assert_eq!(t.outcome(), Some(Outcome::Win(Side::Second)));
    assert_eq!(
        t.winning_line(),
        Some((Side::Second, vec![(3, 0), (3, 1), (3, 2), (3, 3), (3, 4)]))
    );
    // The game is over: the other player is to move with 2, the phase moved on.
    assert_eq!(t.format_fen(), "4x4/9/9/ooooo4/x7o/9/9/9/4o4 o 2 5 21");
    assert!(legal(&t).is_empty());
    assert_eq!(
        t.parse_move("0,0").unwrap_err().to_string(),
        "the game is over: no move is legal"
    );
}

#[test]
fn first_line_of_the_scan_wins() {
    // Both have a line: o's starts at (0,0), x's at (8,0): the scan meets o's first.
    let s = fen("ooooo4/9/9/9/9/9/9/9/xxxxx4 x 2 2 0");
    assert_eq!(s.outcome(), Some(Outcome::Win(Side::Second)));
    // x's line starts at (0,5), o's vertical one at (1,0): row-major order puts x first.
    let s = fen("4xxxxx/o8/o8/o8/o8/o8/9/9/9 o 2 2 0");
    assert_eq!(s.outcome(), Some(Outcome::Win(Side::First)));
    assert_eq!(s.winning_line().unwrap().1[0], (0, 4));
    // From one cell, right comes before down before the diagonals; a longer run reports N cells.
    let s = fen("xxxxxx3/x8/x8/x8/x8/9/9/9/9 o 2 2 0");
    assert_eq!(
        s.winning_line(),
        Some((Side::First, vec![(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]))
    );
    // Down-left: from its top-right end.
    let s = fen("8x/7x1/6x2/5x3/4x4/9/9/9/9 o 2 2 0");
    assert_eq!(
        s.winning_line(),
        Some((Side::First, vec![(0, 8), (1, 7), (2, 6), (3, 5), (4, 4)]))
    );
    assert_eq!(s.outcome(), Some(Outcome::Win(Side::First)));
}

#[test]
fn green_gives_one_more_placement() {
    // x to move with residue 2 ((1,1) is green): left stays.
    let s = fen("x8/9/9/9/9/9/9/9/8o x 2 2 9");
    let t = play(&s, "1,1");
    assert_eq!(
        (t.side_to_move(), t.left(), t.phase(), t.turn()),
        (Side::First, 2, 2, 10)
    );
    let t = play(&t, "2,0");
    assert_eq!((t.side_to_move(), t.left(), t.phase()), (Side::First, 1, 2));
    let t = play(&t, "0,2");
    assert_eq!(
        (t.side_to_move(), t.left(), t.phase()),
        (Side::Second, 2, 3)
    );
    // With one placement left, a green cell keeps it at one.
    let s = fen("x8/9/9/9/9/9/9/9/8o x 1 2 9");
    let t = play(&s, "1,1");
    assert_eq!((t.side_to_move(), t.left()), (Side::First, 1));
}

#[test]
fn yellow_clears_its_row_and_column() {
    // (2,4) is yellow with residue 0. Pieces of both players in row 2 and column 4 go; the
    // placed piece stays; the rest stays.
    let s = fen("4o4/1x2x4/xo1o1xo1x/4o4/x7o/4x4/9/9/4o4 x 2 3 30");
    let t = play(&s, "2,4");
    assert_eq!(t.format_fen(), "9/1x7/4x4/9/x7o/9/9/9/9 x 1 3 31");
    assert_eq!(
        t.hash(),
        fen(&t.format_fen()).hash(),
        "the grid key follows the clearing"
    );
    assert_eq!(t, fen(&t.format_fen()));
}

#[test]
fn passes() {
    // x alone at (0,0): with residue 0 no neighbour is legal, for either player.
    let s = fen("x8/9/9/9/9/9/9/9/9 x 2 3 10");
    assert_eq!(legal(&s), ["pass"]);
    assert_eq!(
        s.parse_move("0,1").unwrap_err().to_string(),
        "cell 0,1 breaks the Trinity rule: (0+1) mod 3 = 1, phase 3 needs (row+col) mod 3 = 0"
    );
    // Player 1 passes: the phase stays, left stays, the turn counter moves.
    let t = play(&s, "pass");
    assert_eq!(t.format_fen(), "x8/9/9/9/9/9/9/9/9 o 2 3 11");
    assert_eq!(legal(&t), ["pass"]);
    // Player 2 passes: now the phase moves on.
    let u = play(&t, "PASS");
    assert_eq!(u.format_fen(), "x8/9/9/9/9/9/9/9/9 x 2 4 12");
    assert_eq!(legal(&u), ["0,1", "1,0"]);
    assert_eq!(
        u.parse_move("pass").unwrap_err().to_string(),
        "'pass' is legal only when no cell is: 0,1 is legal here"
    );
    // Left is not reset by a pass: x with one placement left passes, so does o, and x is back
    // with the one placement it had.
    let s = fen("x8/9/9/9/9/9/9/9/9 x 1 3 10");
    let t = play(&play(&s, "pass"), "pass");
    assert_eq!(t.format_fen(), "x8/9/9/9/9/9/9/9/9 x 1 4 12");
    let u = play(&t, "0,1");
    assert_eq!(u.format_fen(), "xx7/9/9/9/9/9/9/9/9 o 2 5 13");
}

#[test]
fn empty_ninja_board_waives_adjacency() {
    let s = fen("9/9/9/9/9/9/9/9/9 x 2 2 0");
    assert_eq!(legal(&s).len(), 27);
    let t = play(&s, "0,2");
    assert_eq!(legal(&t), ["1,1"], "then adjacency holds");
    assert_eq!(
        t.parse_move("8,6").unwrap_err().to_string(),
        "cell 8,6 touches no piece: a placement needs a piece among its 8 neighbours"
    );
}

#[test]
fn tie_break() {
    let draw = striped();
    let s = Enraya::from_parts(&Config::default(), &draw, Side::First, 2, 0, 0);
    assert_eq!(s.winning_line(), None);
    assert_eq!(
        (
            s.windows_of_four(Side::First),
            s.windows_of_four(Side::Second)
        ),
        (0, 0)
    );
    assert_eq!(s.outcome(), Some(Outcome::Draw));
    // x gets (0,0)..(0,3) with an o at (0,4): windows of four for x only.
    let mut xwin = striped();
    xwin[0][..4].copy_from_slice(&[1, 1, 1, 1]);
    xwin[0][4] = 2;
    let s = Enraya::from_parts(&Config::default(), &xwin, Side::First, 2, 0, 0);
    assert_eq!(s.winning_line(), None);
    let r = Reference::of(&s);
    assert_eq!(
        (
            s.windows_of_four(Side::First) as usize,
            s.windows_of_four(Side::Second) as usize
        ),
        (r.windows(4, 1), r.windows(4, 2))
    );
    assert!(s.windows_of_four(Side::First) > s.windows_of_four(Side::Second));
    assert_eq!(s.outcome(), Some(Outcome::Win(Side::First)));
    // The same boards reached by the placement that fills them. (8,8) is x's in both grids,
    // residue 1; (8,7) is o's, residue 0: o filling x's winning board loses on the tie-break.
    for (grid, cell, phase, expect) in [
        (&draw, (8, 8), 4, Outcome::Draw),
        (&xwin, (8, 8), 4, Outcome::Win(Side::First)),
        (&xwin, (8, 7), 3, Outcome::Win(Side::First)),
    ] {
        let mut g = grid.clone();
        let (f, c) = cell;
        let mover = if g[f][c] == 1 { 'x' } else { 'o' };
        g[f][c] = 0;
        let s = fen(&grid_fen(&g, &format!("{mover} 2 {phase} 70")));
        assert_eq!(s.outcome(), None);
        let t = play(&s, &format!("{f},{c}"));
        assert_eq!(t.outcome(), Some(expect), "{cell:?}");
        assert_eq!(t.left(), 2);
        assert_eq!(
            t.phase(),
            phase + 1,
            "over: the player changes, the phase moves on"
        );
        let m = Move::Place {
            row: f as u8,
            col: c as u8,
        };
        assert_same(&t, &Reference::of(&s).play(m), "fill");
    }
    // o wins by windows, the colours swapped.
    let owin: Vec<Vec<u8>> = xwin
        .iter()
        .map(|r| r.iter().map(|&v| 3 - v).collect())
        .collect();
    let s = Enraya::from_parts(&Config::default(), &owin, Side::First, 2, 0, 0);
    assert_eq!(s.outcome(), Some(Outcome::Win(Side::Second)));
    assert!(s.display().contains("o has won on the tie-break"));
    // Other boards: a full board without a line is a draw, windows or not.
    let s = fen_in("xxo/oox/xxo x 1 0 9", cfg(3, 3, 3));
    assert_eq!(s.outcome(), Some(Outcome::Draw));
}

#[test]
fn left_from_a_file_is_kept_off_ninja_mode() {
    // The core's board-file defaults give left = 2 to a 3 × 3 board: player 1 places twice.
    let (c, s) = parse_board_file("3 3 3\n\n0 0 0\n0 0 0\n0 0 0\n").unwrap();
    assert_eq!(c, cfg(3, 3, 3));
    assert_eq!(s.format_fen(), "3/3/3 x 2 2 0");
    let t = play(&s, "0,0");
    assert_eq!(t.format_fen(), "x2/3/3 x 1 2 1");
    let t = play(&t, "1,1");
    assert_eq!(
        t.format_fen(),
        "x2/1x1/3 o 1 3 2",
        "then back to one placement a turn"
    );
    // left = 0 acts as one placement (the core's decrement goes below 0 and resets).
    let s = fen_in("3/3/3 o 0 5 0", cfg(3, 3, 3));
    let t = play(&s, "2,2");
    assert_eq!(t.format_fen(), "3/3/2o x 1 6 1");
}

#[test]
fn board_files() {
    let s = Enraya::start(&Config::default());
    let text = format_board_file(&s);
    assert_eq!(
        text,
        "9 9 5\n2 1 1 4\n0 0 0 0 1 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n\
         0 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 0 0 2\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n\
         0 0 0 0 0 0 0 0 0\n0 0 0 0 2 0 0 0 0\n"
    );
    assert_eq!(parse_board_file(&text), Ok((Config::default(), s)));
    // Both ways, on positions of every size from random games.
    let mut rng = Rng(7);
    for c in [
        cfg(9, 9, 5),
        cfg(3, 3, 3),
        cfg(6, 7, 4),
        cfg(19, 19, 5),
        cfg(1, 1, 1),
    ] {
        let mut s = Enraya::start(&c);
        for _ in 0..40 {
            let text = format_board_file(&s);
            let (c2, t) = parse_board_file(&text).unwrap();
            assert_eq!((c2, t), (c, s));
            assert_eq!(format_board_file(&t), text);
            let mut m = Moves::new();
            s.legal_moves(&mut m);
            if m.is_empty() {
                break;
            }
            s = s.apply(m[rng.below(m.len())]);
        }
    }
    // Missing fields of line 2 take the core's defaults 2 1 2 0; any spacing of the cells.
    let (_, s) = parse_board_file("2 2 2\n7\n1 0\n0 2").unwrap();
    assert_eq!(s.format_fen(), "x1/1o x 2 7 0");
    let (_, s) = parse_board_file("2 2 2\r\n7 2\r\n1 0 0 2\r\n").unwrap();
    assert_eq!(s.format_fen(), "x1/1o o 2 7 0");
    let (_, s) = parse_board_file("2 2 2\n1 2 1 5\n1 0 0 2").unwrap();
    assert_eq!(s.format_fen(), "x1/1o o 1 1 5");
    // The special cells come from the size, not the file.
    let (_, s) = parse_board_file(&format!("9 9 5\n\n{}", "0 ".repeat(81))).unwrap();
    assert_eq!(s.special(4, 4), Special::Red);
    assert_eq!(s.format_fen(), "9/9/9/9/9/9/9/9/9 x 2 2 0");
}

#[test]
fn board_file_refusals() {
    let cells = "0 0 0 0";
    let err = |t: &str| parse_board_file(t).unwrap_err();
    assert!(matches!(err(""), BoardFileError::Header(_)));
    assert!(matches!(err("2 2\n\n0 0 0 0"), BoardFileError::Header(_)));
    assert!(matches!(
        err("2 2 2 2\n\n0 0 0 0"),
        BoardFileError::Header(_)
    ));
    assert!(matches!(
        err("2 two 2\n\n0 0 0 0"),
        BoardFileError::Header(_)
    ));
    assert_eq!(
        err(&format!("20 2 2\n\n{cells}")).to_string(),
        "line 1: F = 20 is outside 1..=19"
    );
    assert!(matches!(
        err(&format!("2 0 2\n\n{cells}")),
        BoardFileError::Size { name: "C", .. }
    ));
    assert!(matches!(
        err(&format!("2 2 -1\n\n{cells}")),
        BoardFileError::Size { name: "N", .. }
    ));
    assert!(matches!(
        err(&format!("2 2 2\n1 1 1 1 1\n{cells}")),
        BoardFileError::State(_)
    ));
    assert_eq!(
        err(&format!("2 2 2\n-1\n{cells}")).to_string(),
        "line 2: phase must be a whole number in 0..=2147483647, got '-1'"
    );
    assert!(matches!(
        err(&format!("2 2 2\n0 3\n{cells}")),
        BoardFileError::Player(_)
    ));
    assert!(matches!(
        err(&format!("2 2 2\n0 x\n{cells}")),
        BoardFileError::Player(_)
    ));
    assert!(matches!(
        err(&format!("2 2 2\n0 1 1000\n{cells}")),
        BoardFileError::StateValue { field: "left", .. }
    ));
    assert!(matches!(
        err(&format!("2 2 2\n0 1 1 2147483648\n{cells}")),
        BoardFileError::StateValue { field: "turn", .. }
    ));
    assert_eq!(
        err("2 2 2\n\n0 0\n0 3").to_string(),
        "line 4: '3' is not a cell value: 0 (empty), 1 (player 1) or 2 (player 2)"
    );
    assert!(matches!(
        err("2 2 2\n\n0 0\n0 x"),
        BoardFileError::Cell { line: 4, .. }
    ));
    assert_eq!(
        err("2 2 2\n\n0 0\n0").to_string(),
        "the file has 3 cell values but a 2x2 board needs 4: add the missing ones, row by row (0 for an empty cell)"
    );
    assert_eq!(
        err("2 2 2\n\n0 0\n0 0\n0").to_string(),
        "line 5: '0' comes after the 2x2 cells: remove it or fix the size on line 1"
    );
    // The grid straight on line 2 (no state line) is caught, not misread.
    assert!(matches!(
        err("3 3 3\n0 0 0\n0 0 0\n0 0 0\n"),
        BoardFileError::Player(_)
    ));
    // Every message is one line.
    for t in ["", "1 1 1\n\n\n", "x", "1 1 1\n9 9 9 9 9 9\n0"] {
        assert!(!err(t).to_string().contains('\n'));
    }
}

#[test]
fn fen_round_trips_and_refusals() {
    let c = Config::default();
    for t in [
        "4x4/9/9/9/x7o/9/9/9/4o4 x 1 2 4",
        "9/9/9/9/9/9/9/9/9 o 0 0 0",
        "xoxoxoxox/9/9/9/9/9/9/9/9 o 999 2147483647 2147483647",
    ] {
        assert_eq!(fen(t).format_fen(), t);
    }
    let big = cfg(19, 19, 5);
    let t = "19/19/19/19/19/19/19/19/19/9x9/19/19/19/19/19/19/19/19/18o o 1 7 2";
    assert_eq!(fen_in(t, big).format_fen(), t);
    let err = |t: &str| Enraya::parse_fen(t, &c).unwrap_err().to_string();
    assert_eq!(
        err("4x4/9/9/9/x7o/9/9/9/4o4 x 1 2"),
        "a state string has 5 fields '<grid> <x|o> <left> <phase> <turn>' (e.g. '4x4/9/9/9/x7o/9/9/9/4o4 x 1 2 4'), got 4"
    );
    assert_eq!(
        err("9/9/9 x 1 2 4"),
        "the grid has 3 rows but the board has Rows=9 (rows are separated by '/')"
    );
    assert_eq!(
        err("4x4/9/9/9/x7o/9/9/9/4o3 x 1 2 4"),
        "grid row 8 (from 0 at the top) has 8 cells but the board has Columns=9"
    );
    assert_eq!(
        err("4x5/9/9/9/x7o/9/9/9/4o4 x 1 2 4"),
        "grid row 0 (from 0 at the top) has 10 cells but the board has Columns=9"
    );
    assert!(err("4X4/9/9/9/x7o/9/9/9/4o4 x 1 2 4").contains("'X' is not a cell"));
    assert!(err("04x4/9/9/9/x7o/9/9/9/4o4 x 1 2 4").contains("'04' is not a number"));
    assert!(err("0x8/9/9/9/x7o/9/9/9/4o4 x 1 2 4").contains("'0' is not a number"));
    assert!(err("99999999999999999999999/9/9/9/x7o/9/9/9/4o4 x 1 2 4").contains("not a number"));
    assert_eq!(
        err("4x4/9/9/9/x7o/9/9/9/4o4 1 1 2 4"),
        "the player to move must be 'x' or 'o', got '1'"
    );
    assert_eq!(
        err("4x4/9/9/9/x7o/9/9/9/4o4 x -1 2 4"),
        "left must be a whole number in 0..=999, got '-1'"
    );
    assert!(err("4x4/9/9/9/x7o/9/9/9/4o4 x 1 2147483648 4").starts_with("phase must"));
    assert!(err("4x4/9/9/9/x7o/9/9/9/4o4 x 1 2 +4").starts_with("turn must"));
    assert!(err("").starts_with("a state string has 5 fields"));
    // Too big for a 9 × 9 board, right for 19 × 19.
    assert!(err("19/9/9/9/9/9/9/9/9 x 1 2 4").contains("has 19 cells"));
    // Errors are typed inside the module.
    assert_eq!(
        text::parse_fen("9/9 x 1 2 4", &c),
        Err(FenError::Rows { got: 2, rows: 9 })
    );
}

#[test]
fn move_text() {
    let s = Enraya::start(&Config::default());
    assert_eq!(s.parse_move(" 0,5 "), Ok(Move::Place { row: 0, col: 5 }));
    assert_eq!(s.parse_move("0, 5"), Ok(Move::Place { row: 0, col: 5 }));
    for bad in ["", "05", "0;5", "a,b", "-1,5", "0,5,1", "(0,5)", "0,"] {
        let e = s.parse_move(bad).unwrap_err().to_string();
        assert!(e.contains("is not a move"), "{bad}: {e}");
    }
    assert_eq!(
        s.parse_move("9,0").unwrap_err().to_string(),
        "cell 9,0 is off the 9x9 board (rows 0..=8, columns 0..=8)"
    );
    assert!(
        s.parse_move("99999999999999999999999,0")
            .unwrap_err()
            .to_string()
            .contains("off the")
    );
    assert_eq!(
        s.parse_move("4,0").unwrap_err().to_string(),
        "cell 4,0 is taken by x: choose an empty cell"
    );
    assert_eq!(
        s.parse_move("2,0").unwrap_err().to_string(),
        "cell 2,0 touches no piece: a placement needs a piece among its 8 neighbours"
    );
    assert!(
        s.parse_move("0,3")
            .unwrap_err()
            .to_string()
            .contains("Trinity")
    );
    assert_eq!(s.format_move(Move::Pass), "pass");
    assert_eq!(s.format_move(Move::Place { row: 12, col: 3 }), "12,3");
}

#[test]
fn hash_covers_the_future_only() {
    let s = Enraya::start(&Config::default());
    // A transposition: the same placements in another order.
    let a = play(&play(&play(&s, "0,5"), "5,7"), "0,6");
    let b = play(&play(&play(&s, "0,5"), "0,6"), "5,7");
    assert_eq!(a.format_fen(), b.format_fen());
    assert_eq!(a.hash(), b.hash());
    let h = |t: &str| fen(t).hash();
    let base = h("4x4/9/9/9/x7o/9/9/9/4o4 x 1 2 4");
    assert_eq!(base, s.hash());
    assert_eq!(
        base,
        h("4x4/9/9/9/x7o/9/9/9/4o4 x 1 5 99"),
        "phase mod 3 and turn"
    );
    assert_ne!(base, h("4x4/9/9/9/x7o/9/9/9/4o4 o 1 2 4"));
    assert_ne!(base, h("4x4/9/9/9/x7o/9/9/9/4o4 x 2 2 4"));
    assert_ne!(base, h("4x4/9/9/9/x7o/9/9/9/4o4 x 1 3 4"));
    assert_ne!(base, h("4x4/9/9/9/x7o/9/9/9/4o3x x 1 2 4"));
    // Off ninja mode the phase changes nothing.
    let c = cfg(3, 3, 3);
    assert_eq!(
        fen_in("x2/3/3 o 1 1 1", c).hash(),
        fen_in("x2/3/3 o 1 7 3", c).hash()
    );
}

#[test]
fn display_shows_specials_and_state() {
    let s = Enraya::start(&Config::default());
    let d = s.display();
    assert!(
        d.starts_with("     0  1  2  3  4  5  6  7  8\n  0  .  .  .  .  x"),
        "{d}"
    );
    assert!(d.contains("  1  .  g  ."));
    assert!(d.contains("  4  x  .  y  r  r  r  y  .  o"));
    assert!(d.ends_with(
        "x to move, 1 placement left, phase 2 (cells with (row+col) mod 3 = 2), turn 4\n"
    ));
    let t = fen("ooooo4/9/9/9/9/9/9/9/9 x 2 2 0");
    assert!(
        t.display()
            .ends_with("o has won: line 0,0 0,1 0,2 0,3 0,4\n")
    );
}

#[test]
fn test_heuristic_is_the_courses() {
    let s = Enraya::start(&Config::default());
    // Every start piece is worth (9 - 4) + (9 - 0) = 14 or (9 - 0) + (9 - 4) = 14: 28 - 28.
    assert_eq!(s.evaluate(1, Side::First), 0);
    let t = play(&s, "0,5");
    // (0,5): 9 - 4 + 9 - 1 = 13.
    assert_eq!(t.evaluate(1, Side::First), 13);
    assert_eq!(t.evaluate(1, Side::Second), -13);
    // Integer division on an even size: 6 × 7, cell (5,6): 6 - |5 - 3| + 7 - |6 - 3| = 8.
    let u = fen_in("7/7/7/7/7/6x o 1 1 1", cfg(6, 7, 4));
    assert_eq!(u.evaluate(1, Side::First), 8);
}

#[test]
fn default_heuristic_terms() {
    // x has four in (3,0)..(3,3): (3,4) completes it but is red, so no threat there.
    let s = fen("4x4/9/9/xxxx5/9/9/9/9/4o4 o 2 3 20");
    let c = eval::side_counts(&s);
    assert_eq!(c[0].threats.count(), 0, "the only completing cell is red");
    assert_eq!(
        c[0].windows[0], 0,
        "a window with a red cell is dead, not counted"
    );
    // Move it one row up: (2,4) is yellow, which breaks a row line: no threat either.
    let s = fen("4x4/9/xxxx5/9/9/9/9/9/4o4 o 2 3 20");
    assert_eq!(eval::side_counts(&s)[0].threats.count(), 0);
    // Row 1: (1,4) is a plain cell: one threat, live for x (next residue (3 + 1) mod 3 = 2?
    // no: (1 + 4) mod 3 = 2 = (phase + 1) mod 3 with phase 4).
    let s = fen("4x4/xxxx5/9/9/9/9/9/9/4o4 o 2 4 20");
    let c = eval::side_counts(&s);
    assert_eq!(c[0].threats.count(), 1);
    let terms = s.eval_terms(0, Side::First);
    let names: Vec<&str> = terms.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "windows",
            "threats",
            "live",
            "tempo",
            "green",
            "next",
            "two (mover, waiting)",
            "forced",
            "total"
        ]
    );
    assert_eq!(terms[2].value, "80 - 0 = 80");
    // x to move could now complete it: the tempo term.
    let s = fen("4x4/xxxx5/9/9/9/9/9/9/4o4 x 2 2 20");
    assert_eq!(s.eval_terms(0, Side::First)[3].value, "50000");
    assert_eq!(s.eval_terms(0, Side::Second)[3].value, "-50000");
    // The rest of the default heuristic's race terms are checked in `race_terms`.
    let _ = &names;
    // The evaluation stays within bounds at extreme weights on the largest board.
    let w: Vec<i32> = eval::WEIGHTS.iter().map(|w| w.max).collect();
    let w = Enraya::weights(&w);
    let mut rng = Rng(3);
    let mut s = Enraya::start(&cfg(19, 19, 4));
    for _ in 0..200 {
        let v = s.evaluate_with(0, &w, Side::First);
        assert!(v.abs() < crate::core::game::EVAL_LIMIT);
        let mut m = Moves::new();
        s.legal_moves(&mut m);
        if m.is_empty() {
            break;
        }
        s = s.apply(m[rng.below(m.len())]);
    }
}

/// The value of the term `name` of `default` from `side`'s point of view.
fn term_value(s: &Enraya, side: Side, name: &str) -> String {
    s.eval_terms(0, side)
        .into_iter()
        .find(|t| t.name == name)
        .map(|t| t.value)
        .unwrap()
}

#[test]
fn race_terms() {
    // x holds (3,8), (4,7), (5,6) of the anti-diagonal window down to (7,4): the two cells
    // missing, (6,5) and (7,4), are on residue 2, x's next turn; o, to move at phase 4, places
    // on residue 1 and cannot block them. (4,6) holds o, so no yellow cell of o's clears them:
    // (6,4) empties row 6 and column 4, not a piece of the window.
    let s = fen("4x4/9/9/8x/x5oxo/6x2/9/9/4o4 o 2 4 20");
    assert_eq!(eval::side_counts(&s)[0].now, 1);
    assert_eq!(term_value(&s, Side::First, "next"), "20000");
    assert_eq!(term_value(&s, Side::Second, "next"), "-20000");
    // (4,6) empty: o places there (yellow, residue 1, next to (4,7)) and empties row 4, (4,7)
    // with it: an escape, so `next` counts a quarter.
    let s = fen("4x4/9/9/8x/x6xo/6x2/9/9/4o4 o 2 4 20");
    assert_eq!(eval::side_counts(&s)[0].now, 1);
    assert_eq!(term_value(&s, Side::First, "next"), "5000");
    // Row 1, columns 0..=4, residues 1 2 0 1 2: x holds (1,2), the one cell of residue 0. x to
    // move at phase 2 places (1,1) and (1,4) now (residue 2), o answers on residue 0, and x
    // completes with (1,0) and (1,3) (residue 1): a two-turn line o cannot block. Its yellow
    // cells of residue 0, (2,4) and (4,2), touch no piece and so are not o's to play.
    let s = fen("9/2x6/9/9/9/9/9/9/8o x 2 2 10");
    assert!(eval::side_counts(&s)[0].two >= 1);
    assert_eq!(
        term_value(&s, Side::First, "two (mover, waiting)"),
        "5000 + 0"
    );
    // The same for o, not to move: x (mover, residue 2) blocks o's window on (1,1) or (1,4)
    // unless o's two-turn windows need more cells than x has placements.
    let s = fen("9/2o6/9/9/9/9/9/9/8x x 1 1 10");
    assert!(eval::side_counts(&s)[1].two >= 1);
    assert_eq!(term_value(&s, Side::First, "forced"), "0");
    // A second such window in row 7: x's one placement cannot block both (it needs one of
    // (1,0), (1,3) and one of (7,0), (7,3)); with two placements it can.
    let s = fen("9/2o6/9/9/9/9/9/2o6/8x x 1 1 10");
    assert_eq!(term_value(&s, Side::First, "forced"), "-10000");
    assert_eq!(term_value(&s, Side::Second, "forced"), "10000");
    let s = fen("9/2o6/9/9/9/9/9/2o6/8x x 2 1 10");
    assert_eq!(term_value(&s, Side::First, "forced"), "0");
}

#[test]
fn hints_prefer_wins_and_blocks() {
    let s = fen("4x4/xxxx5/9/9/9/9/ooo6/9/4o4 x 2 2 20");
    let win = s.move_order_hint(Move::Place { row: 1, col: 4 });
    let other = s.move_order_hint(Move::Place { row: 8, col: 0 });
    assert!(win > other);
    let s = fen("4x4/oooo5/9/9/9/9/9/9/4o4 x 2 2 20");
    let block = s.move_order_hint(Move::Place { row: 1, col: 4 });
    assert!(block > s.move_order_hint(Move::Place { row: 7, col: 7 }));
    assert!(s.moves_left() >= 4);
}

#[test]
fn perft_matches_the_reference() {
    let starts = [
        (Config::default(), None),
        (Config::default(), Some("x8/9/9/9/9/9/9/9/9 x 2 3 10")),
        (Config::default(), Some("9/9/9/9/9/9/9/9/9 x 2 2 0")),
        (
            Config::default(),
            Some("4o4/1x2x4/xo1o1xo1x/4o4/x7o/4x4/9/9/4o4 x 2 3 30"),
        ),
        (Config::default(), Some("x1xo5/9/9/oooo5/9/9/9/9/9 o 1 1 9")),
        (cfg(3, 3, 3), None),
        (cfg(4, 4, 3), None),
        (cfg(6, 7, 4), None),
        (cfg(2, 5, 2), Some("5/5 x 2 2 0")),
    ];
    for (c, f) in starts {
        let s = match f {
            Some(t) => fen_in(t, c),
            None => Enraya::start(&c),
        };
        let r = Reference::of(&s);
        let depth = if c.rows as usize * c.cols as usize > 20 {
            3
        } else {
            4
        };
        for d in 1..=depth {
            assert_eq!(perft(&s, d), r.perft(d), "{} depth {d}", s.format_fen());
        }
    }
}

#[test]
fn perft_from_the_ninja_start() {
    let s = Enraya::start(&Config::default());
    let got: Vec<u64> = (1..=4).map(|d| perft(&s, d)).collect();
    let want: Vec<u64> = (1..=4).map(|d| Reference::of(&s).perft(d)).collect();
    assert_eq!(got, want);
    // The figure of the issue, confirmed with the core (scripts/enraya/core_perft.cpp).
    assert_eq!(perft(&s, 7), 4_801_748);
}

/// Plays random games on every size with the fast position and the model side by side; also
/// from random loaded positions (any grid, counters at their corners).
#[test]
fn random_playouts_match_the_reference() {
    let sizes = [
        cfg(9, 9, 5),
        cfg(3, 3, 3),
        cfg(7, 7, 4),
        cfg(6, 7, 4),
        cfg(15, 15, 5),
        cfg(19, 19, 5),
        cfg(19, 19, 19),
        cfg(1, 1, 1),
        cfg(1, 1, 2),
        cfg(2, 3, 2),
        cfg(4, 1, 3),
        cfg(1, 12, 4),
        cfg(5, 5, 1),
        cfg(9, 9, 6),
        cfg(10, 9, 5),
    ];
    let mut rng = Rng(0x5e5e);
    for c in sizes {
        let games = if c.is_ninja() { 60 } else { 8 };
        for g in 0..games {
            let (mut s, mut r) = if g % 2 == 0 {
                let s = Enraya::start(&c);
                (
                    s,
                    Reference::new(c.rows as usize, c.cols as usize, c.n as usize),
                )
            } else {
                // A random grid (sparse, so that the game goes on), counters at corners.
                let density = 2 + rng.below(6);
                let grid: Vec<Vec<u8>> = (0..c.rows)
                    .map(|_| {
                        (0..c.cols)
                            .map(|_| {
                                if rng.below(density) == 0 {
                                    1 + rng.below(2) as u8
                                } else {
                                    0
                                }
                            })
                            .collect()
                    })
                    .collect();
                let left = [0, 1, 2, 3, 5][rng.below(5)];
                let phase = rng.below(7) as u32;
                let side = Side::from_index(rng.below(2));
                let s = Enraya::from_parts(&c, &grid, side, left, phase, rng.below(50) as u32);
                let mut r = Reference::new(c.rows as usize, c.cols as usize, c.n as usize);
                r.grid = grid;
                r.player = side.index() as u8 + 1;
                r.left = left as i64;
                r.phase = phase as i64;
                r.turn = s.turn() as i64;
                (s, r)
            };
            for ply in 0..400 {
                let what = format!("{c:?} game {g} ply {ply}: {}", s.format_fen());
                assert_same(&s, &r, &what);
                assert_eq!(Enraya::parse_fen(&s.format_fen(), &c), Ok(s), "{what}");
                let mut m = Moves::new();
                s.legal_moves(&mut m);
                if m.is_empty() {
                    break;
                }
                let mv = m[rng.below(m.len())];
                assert!(s.is_legal(mv));
                s = s.apply(mv);
                r = r.play(mv);
            }
        }
    }
}

#[test]
fn is_legal_agrees_with_generation() {
    let mut rng = Rng(11);
    let mut s = Enraya::start(&Config::default());
    for _ in 0..300 {
        let mut m = Moves::new();
        s.legal_moves(&mut m);
        for f in 0..9u8 {
            for c in 0..9u8 {
                let mv = Move::Place { row: f, col: c };
                assert_eq!(s.is_legal(mv), m.contains(&mv), "{}", s.format_fen());
                assert_eq!(s.parse_move(&format!("{f},{c}")).is_ok(), m.contains(&mv));
            }
        }
        assert_eq!(s.is_legal(Move::Pass), m.as_slice() == [Move::Pass]);
        if m.is_empty() {
            s = Enraya::start(&Config::default());
            continue;
        }
        s = s.apply(m[rng.below(m.len())]);
    }
}

#[test]
fn configure_checks_ranges() {
    assert_eq!(Enraya::configure(&[9, 9, 5]), Ok(Config::default()));
    assert_eq!(Enraya::configure(&[19, 1, 19]), Ok(cfg(19, 1, 19)));
    assert!(Enraya::configure(&[20, 9, 5]).is_err());
    assert!(Enraya::configure(&[9, 0, 5]).is_err());
    assert!(Enraya::configure(&[9, 9]).is_err());
    // A hand-built config out of range is clamped, not a panic.
    let s = Enraya::start(&cfg(0, 40, 0));
    assert_eq!((s.rows(), s.cols(), s.in_a_row()), (1, 19, 1));
}

/// Texts near valid ones (random edits of fens, board files and moves): the parsers never
/// panic, refuse in one line, and what they accept writes back to an equal position.
#[test]
fn parsers_survive_edited_text() {
    let alphabet: Vec<char> = "0123456789xoXO/.,- \n\r\tpassé+".chars().collect();
    let mut rng = Rng(0xfe11);
    let configs = [
        Config::default(),
        cfg(3, 3, 3),
        cfg(19, 19, 5),
        cfg(1, 1, 1),
    ];
    let mut accepted = 0;
    for round in 0..3000 {
        let c = configs[round % configs.len()];
        let mut s = Enraya::start(&c);
        for _ in 0..rng.below(12) {
            let mut m = Moves::new();
            s.legal_moves(&mut m);
            if m.is_empty() {
                break;
            }
            s = s.apply(m[rng.below(m.len())]);
        }
        let texts = [
            s.format_fen(),
            format_board_file(&s),
            format!("{},{}", rng.below(20), rng.below(20)),
        ];
        for (kind, text) in texts.iter().enumerate() {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(chars.len() + 1);
                match rng.below(3) {
                    0 if at < chars.len() => {
                        chars.remove(at);
                    }
                    1 if at < chars.len() => chars[at] = alphabet[rng.below(alphabet.len())],
                    _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                }
            }
            let edited: String = chars.into_iter().collect();
            let one_line = |e: String| assert!(!e.contains('\n') && !e.is_empty(), "{e:?}");
            match kind {
                0 => match Enraya::parse_fen(&edited, &c) {
                    Ok(t) => {
                        accepted += 1;
                        assert_eq!(Enraya::parse_fen(&t.format_fen(), &c), Ok(t));
                    }
                    Err(e) => one_line(e.to_string()),
                },
                1 => match Enraya::parse_board_file(&edited) {
                    Ok((c2, t)) => {
                        accepted += 1;
                        assert_eq!(parse_board_file(&format_board_file(&t)), Ok((c2, t)));
                    }
                    Err(e) => one_line(e.to_string()),
                },
                _ => match s.parse_move(&edited) {
                    Ok(m) => assert!(s.is_legal(m), "{edited}"),
                    Err(e) => one_line(e.to_string()),
                },
            }
        }
    }
    assert!(
        accepted > 100,
        "the edits should leave some texts valid: {accepted}"
    );
}

#[test]
fn evaluations_are_antisymmetric() {
    let mut rng = Rng(5);
    for c in [Config::default(), cfg(7, 7, 4), cfg(15, 15, 5)] {
        let mut s = Enraya::start(&c);
        for _ in 0..120 {
            if s.outcome().is_none() {
                for h in 0..2 {
                    assert_eq!(
                        s.evaluate(h, Side::First),
                        -s.evaluate(h, Side::Second),
                        "{}",
                        s.format_fen()
                    );
                }
            }
            let mut m = Moves::new();
            s.legal_moves(&mut m);
            if m.is_empty() {
                break;
            }
            s = s.apply(m[rng.below(m.len())]);
        }
    }
}

/// The search on this game: alpha-beta with the transposition table (so the hash), the
/// move-ordering hint and the extensions must return plain minimax's value (plain alpha-beta's,
/// which extends the same leaves), on random positions of the 9 × 9 board
/// (passes included) and of 7 × 7 with N = 4, for both heuristics; the move found achieves it.
#[test]
fn search_agrees_with_minimax() {
    use crate::core::score::INFINITY;
    use crate::core::search::{Algorithm, Limits, SearchOptions, Searcher, reference};
    use std::sync::atomic::AtomicBool;
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<Enraya>::new(4);
    let mut rng = Rng(0xa9ee);
    let mut positions = vec![fen("x8/9/9/9/9/9/9/9/9 x 2 3 10")];
    for (c, plies) in [(Config::default(), 60), (cfg(7, 7, 4), 20)] {
        while positions.len() < 12 || (c != Config::default() && positions.len() < 18) {
            let mut s = Enraya::start(&c);
            for _ in 0..rng.below(plies) {
                let mut m = Moves::new();
                s.legal_moves(&mut m);
                if m.is_empty() {
                    break;
                }
                s = s.apply(m[rng.below(m.len())]);
            }
            if s.outcome().is_none() {
                positions.push(s);
            }
        }
    }
    for s in positions {
        let side = s.side_to_move();
        for h in 0..2 {
            // `default` extends sharp leaves to ply 5 at depth 1 and to 6 at depth 2: deeper,
            // plain alpha-beta's check takes minutes.
            for depth in 1..=(if h == 0 { 2 } else { 3 }) {
                let mut n = 0;
                // Plain alpha-beta (exact in a full window): minimax itself, through the
                // extended leaves of `default`, takes minutes.
                let mm = reference::alphabeta(&s, depth, 0, -INFINITY, INFINITY, h, side, &mut n);
                let opts = SearchOptions {
                    algorithm: Algorithm::AlphaBeta,
                    heuristic: h,
                    ..SearchOptions::default()
                };
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                let r = searcher.search(&s, opts, limits, &stop, |_| {});
                let what = format!("{} depth {depth} heuristic {h}", s.format_fen());
                assert_eq!(r.score, mm, "{what}");
                let child = s.apply(r.best_move.expect("a move"));
                let v = reference::alphabeta(
                    &child,
                    depth - 1,
                    1,
                    -INFINITY,
                    INFINITY,
                    h,
                    side,
                    &mut n,
                );
                assert_eq!(v, mm, "{what}: the move misses the value");
            }
        }
    }
}

/// The default heuristic's search extends sharp leaves (a line completed at a side's next
/// turns): at depth 4 it proves a win six plies deep that the plain search only scores, and
/// the course's `test` heuristic is searched plainly (the course's alpha-beta has no
/// extension). From a game against a student's player (docs/enraya.md, "Search").
#[test]
fn depth_four_follows_the_race_past_its_horizon() {
    use crate::core::score::{is_decisive, plies_to_end};
    use crate::core::search::{Limits, SearchOptions, Searcher};
    use std::sync::atomic::AtomicBool;
    let mut s = Enraya::start(&Config::default());
    for m in "1,4 3,0 5,1 8,5 3,1 3,8 7,4 4,2 2,4 3,7 4,6".split(' ') {
        s = crate::core::game::try_play(&s, m).expect("legal");
    }
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let search = |heuristic: usize| {
        let opts = SearchOptions {
            heuristic,
            ..SearchOptions::default()
        };
        Searcher::<Enraya>::new(4).search(&s, opts, limits, &stop, |_| {})
    };
    let default = search(0);
    assert!(
        is_decisive(default.score) && default.score > 0,
        "default at depth 4: {}",
        default.score
    );
    assert_eq!(plies_to_end(default.score), Some(6), "a win in 6 plies");
    assert_eq!(s.format_move(default.best_move.expect("a move")), "2,3");
    let test = search(1);
    assert!(!is_decisive(test.score), "test at depth 4: {}", test.score);
}
