//! Connect Four exact solver against Pons' benchmark sets and the 7×7 golden file.

use crate::common;

use std::collections::HashMap;

use tablero::solver::connect4::{Settings, run_batch_with};

fn golden(name: &str) -> String {
    common::golden(&format!("connect4/{name}"))
}

fn check(name: &str, w: u32, h: u32) {
    check_mode(name, w, h, true);
}

fn check_mode(name: &str, w: u32, h: u32, fresh: bool) {
    let text = golden(name);
    let mut bad = Vec::new();
    let mut n = 0;
    let (mut nodes, mut micros) = (0u64, 0u128);
    run_batch_with(
        &text,
        w,
        h,
        Settings {
            hash_mib: 64,
            threads: 1,
        },
        fresh,
        |line, moves, want, sol, us| {
            n += 1;
            nodes += sol.nodes;
            micros += us;
            if sol.score != want {
                bad.push(format!(
                    "line {line} {moves}: want {want} got {}",
                    sol.score
                ));
            }
        },
    )
    .unwrap();
    eprintln!(
        "{name}: {n} positions, mean {} nodes, {} us",
        nodes / n.max(1) as u64,
        micros / n.max(1) as u128
    );
    assert!(n > 0, "{name}: no positions");
    assert!(
        bad.is_empty(),
        "{name}: {} mismatches: {:?}",
        bad.len(),
        &bad[..bad.len().min(10)]
    );
}

#[test]
fn pons_end_easy() {
    check("Test_L3_R1", 7, 6);
}

#[test]
fn pons_middle_easy() {
    check("Test_L2_R1", 7, 6);
}

#[test]
fn pons_middle_medium() {
    check("Test_L2_R2", 7, 6);
}

#[test]
fn pons_begin_easy() {
    check("Test_L1_R1", 7, 6);
}

#[test]
#[ignore = "about 3-4 CPU-minutes, too slow for CI: scripts/solve_bench.sh checks this set in full"]
fn pons_begin_medium() {
    check("Test_L1_R2", 7, 6);
}

/// `solve --batch --keep-table`: every position starts from the previous one's table.
#[test]
fn pons_kept_table() {
    check_mode("Test_L2_R1", 7, 6, false);
    check_mode("Test_L1_R1", 7, 6, false);
}

/// Plain memoised minimax on a 7×6 bitboard (Pons' layout): the exact Pons score, with no
/// pruning, bound or key trick of the solver's.
fn brute(cur: u64, mask: u64, moves: i32, memo: &mut HashMap<(u64, u64), i32>) -> i32 {
    fn line(p: u64) -> bool {
        [1, 7, 6, 8].iter().any(|&d| {
            let m = p & (p >> d);
            m & (m >> (2 * d)) != 0
        })
    }
    if moves == 42 {
        return 0;
    }
    if let Some(&v) = memo.get(&(cur, mask)) {
        return v;
    }
    let mut best = i32::MIN;
    for c in 0..7 {
        let col = 0x3fu64 << (7 * c);
        if mask & col == col {
            continue;
        }
        let mv = (mask + (1u64 << (7 * c))) & col;
        let v = if line(cur | mv) {
            (44 - (moves + 1)) / 2
        } else {
            -brute(cur ^ mask, mask | mv, moves + 1, memo)
        };
        best = best.max(v);
    }
    memo.insert((cur, mask), best);
    best
}

/// A xorshift generator: `rnd(n)` is a pseudo-random number below `n`, the same sequence for
/// the same seed.
fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

/// A random 7×6 game played until `empty` cells are left, never filling a full column nor
/// ending the game, with its moves as a Pons string; `None` when it gets stuck before.
fn random_position(
    empty: u32,
    rnd: &mut impl FnMut(u64) -> u64,
) -> Option<(String, tablero::games::connect4::Connect4)> {
    use tablero::core::game::Game;
    use tablero::games::connect4::{Config, Connect4};
    let cfg = Config {
        rows: 6,
        columns: 7,
    };
    let mut game = Connect4::from_moves("", &cfg).unwrap();
    let mut moves = String::new();
    while 42 - game.moves_played() > empty {
        let cols: Vec<u8> = (0..7u8)
            .filter(|&c| game.can_play(c) && game.apply(c).outcome().is_none())
            .collect();
        if cols.is_empty() {
            return None;
        }
        let c = cols[rnd(cols.len() as u64) as usize];
        moves.push(char::from(b'1' + c));
        game = game.apply(c);
    }
    Some((moves, game))
}

/// Random late positions (8 to 14 empty cells) solved by the solver, one table kept across
/// all of them, against [`brute`]: checks the static bounds (claimeven, no line left) and the
/// dead-stone keys on positions the golden sets may not reach.
#[test]
fn late_positions_match_brute_force() {
    let solver = tablero::solver::connect4::Solver::new(
        7,
        6,
        Settings {
            hash_mib: 16,
            threads: 1,
        },
    );
    let mut rnd = xorshift(0x2545_f491_4f6c_dd1d);
    let mut checked = 0;
    while checked < 150 {
        let empty = 8 + rnd(7) as u32;
        let Some((moves, game)) = random_position(empty, &mut rnd) else {
            continue;
        };
        let want = brute(
            game.current(),
            game.mask(),
            game.moves_played() as i32,
            &mut HashMap::new(),
        );
        let got = solver.solve(&game).unwrap();
        assert_eq!(got.score, want, "{moves}");
        checked += 1;
    }
}

/// Allis' claimeven bound is an upper bound on the exact value wherever it applies, its
/// loss bounds (below -1: the opponent's line is low and must complete early) included:
/// random positions with 10 to 16 empty cells against [`brute`].
#[test]
fn claimeven_bounds_hold() {
    let mut rnd = xorshift(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut deep, mut tight) = (0, 0, 0);
    let mut memo = HashMap::new();
    let mut tries = 0;
    while checked < 400 || deep < 20 {
        tries += 1;
        assert!(
            tries < 200_000,
            "too few applicable positions: {checked} checked, {deep} deep"
        );
        let empty = 10 + 2 * rnd(4) as u32;
        let Some((moves, game)) = random_position(empty, &mut rnd) else {
            continue;
        };
        let Some(bound) = tablero::solver::connect4::claimeven_bound(&game) else {
            continue;
        };
        let exact = brute(
            game.current(),
            game.mask(),
            game.moves_played() as i32,
            &mut memo,
        );
        assert!(
            exact <= bound,
            "{moves}: exact {exact} above the claimeven bound {bound}"
        );
        checked += 1;
        deep += usize::from(bound < -1);
        tight += usize::from(bound < -1 && exact == bound);
    }
    // The deep loss bounds are not only sound but reached.
    assert!(tight > 0, "no deep loss bound was exact in {deep}");
}

#[test]
fn board_7x7() {
    check("7x7_positions.txt", 7, 7);
}

/// The progress lines of `solve` (one per root probe) state true bounds, and with one thread
/// (every probe reported) the last ones pin the score.
#[test]
fn probe_reports_are_true_bounds() {
    use tablero::games::connect4::{Config, Connect4};
    let cfg = Config {
        rows: 6,
        columns: 7,
    };
    let mut reported = 0;
    for name in ["Test_L1_R1", "Test_L2_R2"] {
        for line in golden(name).lines().take(15) {
            let mut it = line.split_whitespace();
            let (moves, want) = (
                it.next().unwrap(),
                it.next().unwrap().parse::<i32>().unwrap(),
            );
            let game = Connect4::from_moves(moves, &cfg).unwrap();
            for threads in [1, 2] {
                let mut lines = Vec::new();
                let settings = Settings {
                    hash_mib: 16,
                    threads,
                };
                let sol = tablero::solver::connect4::solve_reporting(
                    &game,
                    settings,
                    tablero::solver::Budget::default(),
                    |l| lines.push(l.to_string()),
                )
                .unwrap();
                assert_eq!(sol.score, want, "{moves}");
                let (mut lo, mut hi) = (i32::MIN, i32::MAX);
                for l in &lines {
                    let f: Vec<&str> = l.split_whitespace().collect();
                    assert_eq!(&f[..3], ["info", "string", "probe"], "{l}");
                    assert_eq!((f[4], f[7], f[9]), ("score", "nodes", "time"), "{l}");
                    let r: i32 = f[6].parse().unwrap();
                    match f[5] {
                        ">=" => lo = lo.max(r),
                        "<=" => hi = hi.min(r),
                        other => panic!("bad relation {other} in {l}"),
                    }
                }
                assert!(lo <= want && want <= hi, "{moves}: {lines:?}");
                if threads == 1 && !lines.is_empty() {
                    assert!(lo == want || hi == want, "{moves}: {lines:?}");
                }
                reported += lines.len();
            }
        }
    }
    assert!(reported > 0);
}

/// The opening book (`solver::c4book`, built once by scripts/connect4/book.py) against the
/// solver itself, on a few of its cheaper positions (a win, a draw and a loss of each stone
/// count): the book's score is the solve's, and its move keeps it (the child's solve is the
/// score negated). The rest of the book is checked against itself (src/solver/c4book.rs:
/// every position whose children it holds against them).
#[test]
fn opening_book_agrees_with_the_solver() {
    use tablero::core::game::Game;
    use tablero::games::connect4::{Config, Connect4};
    use tablero::solver::c4book;
    use tablero::solver::connect4::solve;
    let settings = Settings {
        hash_mib: 256,
        threads: 1,
    };
    for moves in BOOK_SAMPLE {
        let game = Connect4::from_moves(moves, &Config::default()).unwrap();
        let e = c4book::lookup(&game).unwrap_or_else(|| panic!("{moves} not in the book"));
        let sol = solve(&game, settings).unwrap();
        assert_eq!(sol.score, i32::from(e.score), "{moves}");
        let child = solve(&game.apply(e.best), settings).unwrap();
        assert_eq!(child.score, -sol.score, "{moves}: book move {}", e.best + 1);
    }
}

// 4 and 5 stones, then 6 stones past the book's move (a win at once, and one of 0.5 s), then
// 7 stones past the book's move (a loss of 0.4 s).
const BOOK_SAMPLE: &[&str] = &["2236", "2255", "1446", "163344", "277426", "1115451"];
