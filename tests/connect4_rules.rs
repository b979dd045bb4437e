//! Classic Connect Four: known counts from the empty board, and differential tests against a
//! deliberately naive implementation (a 2-D array, lines found by walking every cell in every
//! direction) on random games of several board sizes.

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use tablero::core::game::{Game, MoveError, Outcome, Side, try_play};
use tablero::core::perft::perft;
use tablero::games::connect4::{Config, Connect4, Moves};

/// xorshift64*: a tiny deterministic generator so the tests need no extra crate.
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

/// The naive reference: `cells[c][r]` = 0 empty, 1 first, 2 second.
#[derive(Clone, PartialEq, Debug)]
struct Naive {
    w: usize,
    h: usize,
    cells: Vec<Vec<u8>>,
    to_move: u8,
    winner: u8,
    over: bool,
}

impl Naive {
    fn new(w: usize, h: usize) -> Self {
        Naive {
            w,
            h,
            cells: vec![vec![0; h]; w],
            to_move: 1,
            winner: 0,
            over: false,
        }
    }
    fn legal(&self) -> Vec<usize> {
        if self.over {
            return vec![];
        }
        (0..self.w)
            .filter(|&c| self.cells[c][self.h - 1] == 0)
            .collect()
    }
    fn has_four(&self, p: u8) -> bool {
        let dirs = [(1i32, 0i32), (0, 1), (1, 1), (1, -1)];
        for c in 0..self.w as i32 {
            for r in 0..self.h as i32 {
                for (dc, dr) in dirs {
                    let ok = (0..4).all(|k| {
                        let (cc, rr) = (c + k * dc, r + k * dr);
                        cc >= 0
                            && rr >= 0
                            && cc < self.w as i32
                            && rr < self.h as i32
                            && self.cells[cc as usize][rr as usize] == p
                    });
                    if ok {
                        return true;
                    }
                }
            }
        }
        false
    }
    fn play(&mut self, c: usize) {
        let r = (0..self.h).find(|&r| self.cells[c][r] == 0).unwrap();
        self.cells[c][r] = self.to_move;
        if self.has_four(self.to_move) {
            self.winner = self.to_move;
            self.over = true;
        } else if (0..self.w).all(|c| self.cells[c][self.h - 1] != 0) {
            self.over = true;
        }
        self.to_move = 3 - self.to_move;
    }
    fn perft(&self, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|c| {
                let mut n = self.clone();
                n.play(c);
                n.perft(d - 1)
            })
            .sum()
    }
}

fn moves_of(s: &Connect4) -> Vec<usize> {
    let mut m = Moves::default();
    s.legal_moves(&mut m);
    m.as_ref().iter().map(|&c| c as usize).collect()
}

fn assert_same(s: &Connect4, n: &Naive) {
    assert_eq!(
        moves_of(s),
        n.legal(),
        "legal moves differ\n{}",
        s.display()
    );
    let expected = if !n.over {
        None
    } else if n.winner == 0 {
        Some(Outcome::Draw)
    } else {
        Some(Outcome::Win(Side::from_index(n.winner as usize - 1)))
    };
    assert_eq!(s.outcome(), expected, "outcome differs\n{}", s.display());
    assert_eq!(s.side_to_move().index() as u8, n.to_move - 1);
    for c in 0..n.w {
        for r in 0..n.h {
            let got = s
                .cell(c as u32, r as u32)
                .map_or(0, |x| x.index() as u8 + 1);
            assert_eq!(
                got,
                n.cells[c][r],
                "cell ({c},{r}) differs\n{}",
                s.display()
            );
        }
    }
}

const SIZES: [(u8, u8); 5] = [(7, 6), (7, 7), (7, 8), (4, 4), (5, 6)];

#[test]
fn distinct_positions_by_ply() {
    let expected = [1u64, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];
    let mut level: Vec<Connect4> = vec![Connect4::start(&Config::default())];
    let mut hashes_seen: HashMap<u64, u64> = HashMap::new();
    for (ply, &want) in expected.iter().enumerate() {
        assert_eq!(
            level.len() as u64,
            want,
            "distinct positions after {ply} plies"
        );
        // The hash must separate every distinct position (it is a bijection of Pons' key).
        for s in &level {
            assert!(hashes_seen.insert(s.hash(), s.key()).is_none());
        }
        let mut next = HashSet::new();
        let mut out = Vec::new();
        for s in &level {
            if s.outcome().is_some() {
                continue;
            }
            for &m in moves_of(s).iter() {
                let t = s.apply(m as u8);
                if next.insert(t.key()) {
                    out.push(t);
                }
            }
        }
        level = out;
    }
}

#[test]
fn perft_from_empty_board() {
    let s = Connect4::start(&Config::default());
    for d in 0..=6u32 {
        assert_eq!(perft(&s, d), 7u64.pow(d), "perft {d}");
    }
    // 7 games end by a vertical four on ply 7 (the first player's 4th stone).
    assert_eq!(perft(&s, 7), 823_536);
}

#[test]
fn random_games_match_naive() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for game in 0..2000 {
        let (w, h) = SIZES[game % SIZES.len()];
        let cfg = Config {
            rows: h,
            columns: w,
        };
        let mut s = Connect4::start(&cfg);
        let mut n = Naive::new(w as usize, h as usize);
        assert_same(&s, &n);
        while s.outcome().is_none() {
            let legal = n.legal();
            let c = legal[rng.below(legal.len())];
            // Also through the text interface once in a while.
            s = if game % 7 == 0 {
                try_play(&s, &(c + 1).to_string()).unwrap()
            } else {
                s.apply(c as u8)
            };
            n.play(c);
            assert_same(&s, &n);
            let back = Connect4::parse_fen(&s.format_fen(), &cfg).unwrap();
            assert_eq!(back, s, "fen round trip of {}", s.format_fen());
        }
        assert!(moves_of(&s).is_empty());
    }
}

#[test]
fn perft_on_random_positions_matches_naive() {
    let mut rng = Rng(42);
    for i in 0..200 {
        let (w, h) = SIZES[i % SIZES.len()];
        let cfg = Config {
            rows: h,
            columns: w,
        };
        let mut s = Connect4::start(&cfg);
        let mut n = Naive::new(w as usize, h as usize);
        let plies = rng.below((w as usize) * (h as usize));
        for _ in 0..plies {
            let legal = n.legal();
            if legal.is_empty() {
                break;
            }
            let c = legal[rng.below(legal.len())];
            s = s.apply(c as u8);
            n.play(c);
        }
        assert_eq!(perft(&s, 4), n.perft(4), "perft 4 of {}", s.format_fen());
    }
}

#[test]
fn fen_examples_and_errors() {
    let cfg = Config::default();
    let s = Connect4::start(&cfg);
    assert_eq!(s.format_fen(), "7/7/7/7/7/7 x");
    let s = Connect4::from_moves("4455", &cfg).unwrap();
    assert_eq!(s.format_fen(), "7/7/7/7/3oo2/3xx2 x");
    let won = Connect4::from_moves("1212121", &cfg).unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Win(Side::First)));
    assert_eq!(Connect4::parse_fen(&won.format_fen(), &cfg).unwrap(), won);
    assert!(Connect4::from_moves("12121212", &cfg).is_err());
    for bad in [
        "",
        "7/7/7/7/7/7",
        "7/7/7/7/7/7 y",
        "7/7/7/7/7/7 o",
        "7/7/7/7/7 x",
        "7/7/7/7/7/8 x",
        "7/7/7/7/7/6 x",
        "7/7/7/7/x6/7 o",
        "7/7/7/7/7/xx5 o",
        "7/7/7/7/7/07 x",
        "7/7/7/7/7/7 x extra",
        "7/7/7/7/7/7x x",
        "7/7/o6/o6/o6/o6 o",
        "7/7/7/7/7/xxxxooo x",
        // The side to move cannot already have four in a row.
        "7/7/7/7/ooo4/xxxx2o x",
    ] {
        assert!(Connect4::parse_fen(bad, &cfg).is_err(), "accepted '{bad}'");
    }
    // The side that just moved may have four: the game is over.
    let o_won = Connect4::parse_fen("7/7/7/7/xxx4/oooo2x x", &cfg).unwrap();
    assert_eq!(o_won.outcome(), Some(Outcome::Win(Side::Second)));
    assert!(moves_of(&o_won).is_empty());
    // A full board without a line is a draw.
    let full = "xxoxxox/ooxooxo/xxoxxox/ooxooxo/xxoxxox/ooxooxo x";
    let d = Connect4::parse_fen(full, &cfg).unwrap();
    assert_eq!(d.outcome(), Some(Outcome::Draw));
    // A fen for another size is rejected under the default config.
    assert!(Connect4::parse_fen("7/7/7/7/7/7/7 x", &cfg).is_err());
    let seven = Config {
        rows: 7,
        columns: 7,
    };
    assert!(Connect4::parse_fen("7/7/7/7/7/7/7 x", &seven).is_ok());
}

#[test]
fn parse_move_errors() {
    let cfg = Config::default();
    let s = Connect4::from_moves("111111", &cfg).unwrap();
    assert!(matches!(s.parse_move("1"), Err(MoveError::Illegal(m)) if m.contains("full")));
    for bad in ["0", "8", "", "a", "-1", "boom", "99999999999999999999"] {
        assert!(
            matches!(s.parse_move(bad), Err(MoveError::Notation(_))),
            "accepted '{bad}'"
        );
    }
    assert_eq!(s.parse_move(" 4 "), Ok(3));
    let won = Connect4::from_moves("1212121", &cfg).unwrap();
    assert!(matches!(won.parse_move("3"), Err(MoveError::Over(_))));
}

#[test]
fn configure_checks_ranges() {
    assert_eq!(Connect4::configure(&[6, 7]), Ok(Config::default()));
    assert!(Connect4::configure(&[3, 7]).is_err());
    assert!(Connect4::configure(&[9, 7]).is_err());
    assert!(Connect4::configure(&[6, 8]).is_err());
    assert!(Connect4::configure(&[6]).is_err());
    let c = Connect4::configure(&[8, 7]).unwrap();
    assert_eq!(perft(&Connect4::start(&c), 2), 49);
    // A hand-built config out of range neither panics nor yields an oversized board.
    let bad = Config {
        rows: 0,
        columns: 200,
    };
    let s = Connect4::start(&bad);
    assert!(s.width() <= 7 && s.height() >= 4);
    assert!(Connect4::parse_fen("7/7/7/7/7/7 x", &bad).is_err());
}

proptest! {
    #[test]
    fn parse_fen_never_panics(s in "\\PC{0,40}") {
        let _ = Connect4::parse_fen(&s, &Config::default());
    }

    #[test]
    fn parse_fen_never_panics_on_fen_alphabet(s in "[xo0-9/ ]{0,40}") {
        if let Ok(p) = Connect4::parse_fen(&s, &Config::default()) {
            prop_assert_eq!(Connect4::parse_fen(&p.format_fen(), &Config::default()), Ok(p));
        }
    }

    #[test]
    fn parse_move_never_panics(s in "\\PC{0,10}") {
        let _ = Connect4::start(&Config::default()).parse_move(&s);
    }
}

/// The solver helpers (Pons' `canWinNext`, `isWinningMove`, `possibleNonLosingMoves`) against
/// trying every move and every reply on the naive board.
#[test]
fn solver_helpers_match_naive() {
    let mut rng = Rng(0x5eed);
    let mut checked = 0;
    for game in 0..400 {
        let (w, h) = SIZES[game % SIZES.len()];
        let cfg = Config {
            rows: h,
            columns: w,
        };
        let mut s = Connect4::start(&cfg);
        let mut n = Naive::new(w as usize, h as usize);
        while s.outcome().is_none() {
            let legal = n.legal();
            let wins = |b: &Naive, c: usize| {
                let mut t = b.clone();
                t.play(c);
                t.winner != 0
            };
            let winning: Vec<usize> = legal.iter().copied().filter(|&c| wins(&n, c)).collect();
            assert_eq!(s.can_win_next(), !winning.is_empty());
            for &c in &legal {
                assert_eq!(s.is_winning_move(c as u8), winning.contains(&c));
            }
            if winning.is_empty() {
                let safe: Vec<usize> = legal
                    .iter()
                    .copied()
                    .filter(|&c| {
                        let mut t = n.clone();
                        t.play(c);
                        !t.legal().into_iter().any(|r| wins(&t, r))
                    })
                    .collect();
                let mut cells = s.non_losing_cells();
                let mut cols = Vec::new();
                while cells != 0 {
                    let cell = cells & cells.wrapping_neg();
                    cells ^= cell;
                    cols.push(s.column_of(cell) as usize);
                    assert_eq!(s.play_cell(cell), s.apply(s.column_of(cell)));
                }
                cols.sort();
                assert_eq!(cols, safe, "\n{}", s.display());
                checked += 1;
            }
            let c = legal[rng.below(legal.len())];
            s = s.apply(c as u8);
            n.play(c);
        }
    }
    assert!(checked > 1000);
}
