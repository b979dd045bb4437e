//! Pons' benchmark positions (`tests/golden/connect4/`): every line must replay legally through
//! `Connect4::from_moves` on its board size, leave a running game in which the side to move has
//! no immediate win (as the README states for every file), round-trip through the fen, and carry
//! a score within the bounds the README's formula allows. The exact scores are for the solver.

use crate::common;

use tablero::core::game::Game;
use tablero::games::connect4::{Config, Connect4, Moves};

fn check_file(name: &str, cfg: Config, expected_lines: usize) {
    let text = common::golden(&format!("connect4/{name}"));
    let cells = cfg.rows as i32 * cfg.columns as i32;
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let (moves, score) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{name}:{}: no score", i + 1));
        let score: i32 = score.parse().unwrap();
        let s =
            Connect4::from_moves(moves, &cfg).unwrap_or_else(|e| panic!("{name}:{}: {e}", i + 1));
        assert_eq!(s.outcome(), None, "{name}:{}", i + 1);
        assert_eq!(s.moves_played() as usize, moves.len());
        let mut legal = Moves::default();
        s.legal_moves(&mut legal);
        for &m in legal.as_ref() {
            assert!(!s.is_winning_move(m), "{name}:{}: immediate win", i + 1);
            assert!(
                s.apply(m)
                    .outcome()
                    .is_none_or(|o| o == tablero::core::game::Outcome::Draw)
            );
        }
        assert_eq!(Connect4::parse_fen(&s.format_fen(), &cfg), Ok(s));
        // No immediate win: the earliest win is the opponent's next stone (ply m + 2).
        let m = moves.len() as i32;
        assert!(
            score.abs() <= (cells + 2 - (m + 2)) / 2,
            "{name}:{}: score",
            i + 1
        );
        n += 1;
    }
    assert_eq!(n, expected_lines, "{name}");
}

#[test]
fn pons_benchmark_positions_replay() {
    for f in [
        "Test_L1_R1",
        "Test_L1_R2",
        "Test_L1_R3",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L3_R1",
    ] {
        check_file(f, Config::default(), 1000);
    }
}

#[test]
fn seven_by_seven_positions_replay() {
    check_file(
        "7x7_positions.txt",
        Config {
            rows: 7,
            columns: 7,
        },
        408,
    );
}

#[test]
fn pons_examples() {
    let cfg = Config::default();
    // The tutorial's example "44455554221", placed by hand stone by stone.
    let s = Connect4::from_moves("44455554221", &cfg).unwrap();
    assert_eq!(s.moves_played(), 11);
    assert_eq!(s.format_fen(), "7/7/3ox2/3xo2/1o1ox2/xx1xo2 o");
    // Pons' key: current + mask, unique per position.
    assert_eq!(s.key(), s.current() + s.mask());
}
