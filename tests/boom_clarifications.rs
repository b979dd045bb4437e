//! One test per rule choice of `docs/rules/connect4boom.md` that a random differential test
//! could miss: the bomb schedule, BOOM-then-PUT, losing a bomb to an explosion, lines made by
//! falling pieces (mover, opponent, both), the full-board rule (explode or lose), and the absence
//! of a 25-piece supply.

use tablero::core::game::{Game, MoveError, Outcome, Side};
use tablero::games::boom::{Boom, BoomMove, Config, Moves};

fn fen(text: &str) -> Boom {
    Boom::parse_fen(text, &Config).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(s: &Boom, text: &str) -> Boom {
    let m = s
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", s.format_fen()));
    s.apply(m)
}

fn legal(s: &Boom) -> Vec<BoomMove> {
    let mut m = Moves::default();
    s.legal_moves(&mut m);
    m.to_vec()
}

/// Cells holding a bomb, as (column, row) 1-based.
fn bomb_cell(s: &Boom, side: Side) -> Option<(u32, u32)> {
    let b = s.bomb(side);
    (b != 0).then(|| (b.trailing_zeros() / 8 + 1, b.trailing_zeros() % 8 + 1))
}

#[test]
fn bombs_at_movements_12_and_14() {
    // Columns cycling 1..7 give no four in a row through movement 15.
    let mut s = Boom::start(&Config);
    for n in 1..=15u16 {
        assert_eq!(s.movement(), n);
        let col = (n - 1) % 7 + 1;
        let mover = s.side_to_move();
        s = play(&s, &col.to_string());
        assert_eq!(s.outcome(), None);
        let placed_bomb = s.bomb(mover) != 0 && bomb_cell(&s, mover).unwrap().0 == col as u32;
        let expect = n == 12 || n == 14;
        assert_eq!(placed_bomb, expect, "movement {n}\n{}", s.display());
        if n < 12 {
            assert_eq!(s.bomb(Side::First) | s.bomb(Side::Second), 0);
        }
    }
    // Movement 12 is P1's, movement 14 P2's; 13 and 15 were normal pieces.
    assert_eq!(bomb_cell(&s, Side::First), Some((5, 2)));
    assert_eq!(bomb_cell(&s, Side::Second), Some((7, 2)));
    assert!(legal(&s).contains(&BoomMove::Boom));
}

#[test]
fn boom_then_put_places_a_new_bomb() {
    // P1's 8th turn (movements 28-29), still holding the bomb of its 4th turn.
    let s = fen("7/7/7/7/7/7/Xo5 x 28");
    assert_eq!(s.turn(), 8);
    // Without exploding, a PUT is a normal piece: one bomb at most.
    let t = play(&s, "4");
    assert_eq!(bomb_cell(&t, Side::First), Some((1, 1)));
    // BOOM first: the bomb and the o of row 1 go; the PUT of the same turn places a new bomb.
    let t = play(&s, "boom");
    assert_eq!(t.format_fen(), "7/7/7/7/7/7/7 x 29");
    assert!(t.put_places_bomb());
    let t = play(&t, "4");
    assert_eq!(bomb_cell(&t, Side::First), Some((4, 1)));
    assert_eq!(t.side_to_move(), Side::Second);
    // Not on a turn that is not a multiple of 4 (P1's 7th turn, movement 24).
    let u = play(&fen("7/7/7/7/7/7/Xo5 x 24"), "boom");
    assert!(!u.put_places_bomb());
    assert_eq!(play(&u, "4").bomb(Side::First), 0);
}

#[test]
fn put_bomb_then_boom_in_the_same_turn() {
    let s = fen("7/7/7/7/7/7/1oo1o2 x 12");
    let t = play(&s, "1");
    assert_eq!(bomb_cell(&t, Side::First), Some((1, 1)));
    let t = play(&t, "boom");
    assert_eq!(t.format_fen(), "7/7/7/7/7/7/7 o 14");
}

#[test]
fn opponent_bomb_lost_when_blown_up() {
    // Both bombs in row 1; P1 explodes and takes P2's bomb with it.
    let s = fen("7/7/7/7/7/7/XO5 x 20");
    assert!(legal(&s).contains(&BoomMove::Boom));
    let t = play(&s, "boom");
    assert_eq!(t.format_fen(), "7/7/7/7/7/7/7 x 21");
    assert_eq!(t.bomb(Side::Second), 0);
    let t = play(&t, "4");
    assert_eq!(t.side_to_move(), Side::Second);
    assert!(!legal(&t).contains(&BoomMove::Boom));
    assert!(t.parse_move("boom").is_err());
    // P2 gets a new bomb only on its next 4k-th turn: movement 22 is its 6th turn, 30 its 8th.
    let t = play(&t, "4");
    assert_eq!(t.bomb(Side::Second), 0);
    let u = play(&fen("7/7/7/7/7/7/7 o 30"), "4");
    assert_eq!(bomb_cell(&u, Side::Second), Some((4, 1)));
}

#[test]
fn falling_pieces_line_for_the_mover() {
    // Row 1: x x x o . X . ; an x above the o falls into x x x x.
    let s = fen("7/7/7/7/7/3x3/xxxo1X1 x 20");
    assert_eq!(s.outcome(), None);
    let t = play(&s, "boom");
    assert_eq!(t.format_fen(), "7/7/7/7/7/7/xxxx3 x 21");
    assert_eq!(t.outcome(), Some(Outcome::Win(Side::First)));
    assert!(legal(&t).is_empty());
}

#[test]
fn falling_pieces_line_for_the_opponent_only() {
    // Column 1 (bottom up): o o X o o; removing P1's bomb stacks four o. P1 explodes, P2 wins.
    let s = fen("7/7/o6/o6/X6/o6/o1x4 x 20");
    assert_eq!(s.outcome(), None);
    let t = play(&s, "boom");
    assert_eq!(t.outcome(), Some(Outcome::Win(Side::Second)));
    assert_eq!(t.format_fen(), "7/7/7/o6/o6/o6/o1x4 x 21");
    assert!(legal(&t).is_empty());
}

#[test]
fn falling_pieces_line_for_both_mover_wins() {
    // Column 1: o o X o o (P2 gets four); column 2: x x o x x (the o shares the bomb's row and
    // goes, P1 gets four). Both lines appear at once: the mover, P1, wins.
    let s = fen("7/7/ox5/ox5/Xo5/ox5/ox5 x 20");
    assert_eq!(s.outcome(), None);
    let t = play(&s, "boom");
    assert_eq!(t.format_fen(), "7/7/7/ox5/ox5/ox5/ox5 x 21");
    assert_eq!(t.outcome(), Some(Outcome::Win(Side::First)));
    // The same board reached by P2's explosion would be P2's win: the rule is "mover first".
    let mirrored = fen("7/7/xo5/xo5/Ox5/xo5/xo5 o 22");
    let t = play(&mirrored, "boom");
    assert_eq!(t.outcome(), Some(Outcome::Win(Side::Second)));
}

/// A full line-free board: columns alternate A = x x o o x x o and B = o o x x o o x (bottom
/// up), written as fen rows.
fn full_pattern() -> Vec<Vec<char>> {
    let a = ['x', 'x', 'o', 'o', 'x', 'x', 'o'];
    let b = ['o', 'o', 'x', 'x', 'o', 'o', 'x'];
    // rows[r][c], r = 0 at the bottom.
    (0..7)
        .map(|r| {
            (0..7)
                .map(|c| if c % 2 == 0 { a[r] } else { b[r] })
                .collect()
        })
        .collect()
}

fn to_fen(rows: &[Vec<char>], tail: &str) -> String {
    let text: Vec<String> = rows
        .iter()
        .rev()
        .map(|row| {
            let mut s = String::new();
            let mut run = 0;
            for &ch in row {
                if ch == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push(ch);
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            s
        })
        .collect();
    format!("{} {tail}", text.join("/"))
}

/// The course core's full-board rule: a full board without a line is no draw. The player to
/// move next — the same player when the first movement of its turn filled the board — must play
/// BOOM (its only movement) if it holds a bomb; without one it cannot move and loses.
#[test]
fn full_board_same_player_explodes_or_loses() {
    let mut rows = full_pattern();
    rows[6][0] = '.'; // the last free cell, an o in the pattern
    rows[0][1] = 'O'; // P2's bomb
    rows[0][2] = 'X'; // P1's bomb
    // Movement 50 is P2's first of the turn: P2 fills the board and is still to move.
    let s = fen(&to_fen(&rows, "o 50"));
    assert_eq!(s.outcome(), None);
    assert_eq!(legal(&s), vec![BoomMove::Put(0), BoomMove::Boom]);
    let t = play(&s, "1");
    assert_eq!(t.outcome(), None, "P2 holds a bomb: the game goes on");
    assert_eq!(t.side_to_move(), Side::Second);
    assert_eq!(legal(&t), vec![BoomMove::Boom], "BOOM is the only movement");
    assert!(matches!(t.parse_move("1"), Err(MoveError::Illegal(m)) if m.contains("full")));
    let u = play(&t, "boom");
    assert_eq!(u.bomb(Side::Second), 0);
    let occupied = u.pieces(Side::First) | u.pieces(Side::Second);
    assert!(
        occupied.count_ones() < 49,
        "the explosion opened cells again"
    );
    // Without P2's bomb, P2 cannot move after filling the board, and loses.
    rows[0][1] = 'o';
    let t = play(&fen(&to_fen(&rows, "o 50")), "1");
    assert_eq!(t.outcome(), Some(Outcome::Win(Side::First)));
    assert!(legal(&t).is_empty());
}

#[test]
fn full_board_next_player_explodes_or_loses() {
    let mut rows = full_pattern();
    rows[6][0] = '.';
    rows[0][1] = 'O';
    rows[0][2] = 'X';
    // Movement 51 is P2's second: P1 moves next, with its bomb it must explode it.
    let t = play(&fen(&to_fen(&rows, "o 51")), "1");
    assert_eq!(t.outcome(), None);
    assert_eq!(t.side_to_move(), Side::First);
    assert_eq!(legal(&t), vec![BoomMove::Boom]);
    // P1 without a bomb loses, although P2 still holds one.
    rows[0][2] = 'x';
    let t = play(&fen(&to_fen(&rows, "o 51")), "1");
    assert_eq!(t.outcome(), Some(Outcome::Win(Side::Second)));
    assert_ne!(t.bomb(Side::Second), 0);
}

#[test]
fn full_board_fen_is_decided_by_the_player_to_move() {
    let mut rows = full_pattern();
    rows[0][1] = 'O';
    // P1 to move at movement 52, no bomb: lost. P2 to move at 51 with its bomb: BOOM only.
    assert_eq!(
        fen(&to_fen(&rows, "x 52")).outcome(),
        Some(Outcome::Win(Side::Second))
    );
    let s = fen(&to_fen(&rows, "o 51"));
    assert_eq!(s.outcome(), None);
    assert_eq!(legal(&s), vec![BoomMove::Boom]);
    // Nobody can ever draw: the full board without bombs is lost by the player to move.
    rows[0][1] = 'o';
    assert_eq!(
        fen(&to_fen(&rows, "o 51")).outcome(),
        Some(Outcome::Win(Side::First))
    );
}

#[test]
fn no_25_piece_supply_limit() {
    // P1 already has 25 pieces on the board and still plays a 26th.
    let mut rows = full_pattern();
    rows[6][0] = '.';
    rows[6][2] = '.';
    rows[6][4] = '.';
    let s = fen(&to_fen(&rows, "x 44"));
    let count = |s: &Boom| s.pieces(Side::First).count_ones();
    assert_eq!(count(&s), 25);
    let t = play(&s, "1");
    assert_eq!(count(&t), 26);
    assert_eq!(t.outcome(), None);
    let t = play(&t, "5");
    assert_eq!(count(&t), 27);
    assert_eq!(t.outcome(), None);
}
