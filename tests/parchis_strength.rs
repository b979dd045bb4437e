//! Parchís strength measurements (not run by default): heuristic matches with plain alpha-beta
//! (`heuristic_matches`) and with the engine's own search (`engine_match`, one line per game so
//! long runs can be cut short). Speed figures are benchmarks (docs/benchmarks.md).
//! Run with `cargo test --release --test all parchis_strength::[name] -- --ignored --nocapture`.

use std::time::Instant;

use tablero::core::game::Game;
use tablero::games::parchis::{Parchis, ParchisConfig};

/// Picks the move of plain alpha-beta at `depth` with heuristic `h` (first best in generation
/// order).
fn best_move(s: &Parchis, depth: u32, h: usize) -> <Parchis as Game>::Move {
    use tablero::core::search::reference::alphabeta;
    let me = s.side_to_move();
    let mut moves = <Parchis as Game>::Moves::default();
    s.legal_moves(&mut moves);
    let mut best = moves[0];
    let mut alpha = -2_000_000_000;
    let mut nodes = 0;
    for &m in moves.iter() {
        let v = alphabeta(
            &s.apply(m),
            depth - 1,
            1,
            alpha,
            2_000_000_000,
            h,
            me,
            &mut nodes,
        );
        if v > alpha {
            alpha = v;
            best = m;
        }
    }
    best
}

/// One xorshift step of `rng`, then the move it picks: the random opening plies of the matches.
fn random_move(rng: &mut u64, moves: &<Parchis as Game>::Moves) -> <Parchis as Game>::Move {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    moves[(*rng % moves.len() as u64) as usize]
}

/// Plays `games` pairs of games (both seatings) between heuristics `a` and `b` after a few
/// random opening plies; returns the wins of `a`.
fn play_match(a: usize, b: usize, depth: u32, games: u64) -> (u64, u64) {
    let mut wins_a = 0;
    let mut played = 0;
    for g in 0..games {
        for seat in 0..2 {
            let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ g.wrapping_mul(0x2545_f491_4f6c_dd1d);
            let mut s = Parchis::start(&ParchisConfig::default());
            let mut ply = 0;
            while s.outcome().is_none() && ply < 1000 {
                let mut moves = <Parchis as Game>::Moves::default();
                s.legal_moves(&mut moves);
                let m = if ply < 8 {
                    random_move(&mut rng, &moves)
                } else {
                    let h = if s.side_to_move().index() == seat {
                        a
                    } else {
                        b
                    };
                    best_move(&s, depth, h)
                };
                s = s.apply(m);
                ply += 1;
            }
            if let Some(tablero::core::game::Outcome::Win(w)) = s.outcome() {
                played += 1;
                if w.index() == seat {
                    wins_a += 1;
                }
            }
        }
    }
    (wins_a, played)
}

#[test]
#[ignore = "heuristic strength match; run explicitly with --ignored"]
fn heuristic_matches() {
    let depth: u32 = std::env::var("PARCHIS_MATCH_DEPTH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let games: u64 = std::env::var("PARCHIS_MATCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let pairs: &[(usize, usize)] = if std::env::var("PARCHIS_MATCH_ALL").is_ok() {
        &[(0, 2), (0, 1), (2, 1)]
    } else {
        &[(0, 2)]
    };
    for &(a, b) in pairs {
        let t = Instant::now();
        let (w, n) = play_match(a, b, depth, games);
        println!(
            "{} vs {} at depth {depth}: {w}/{n} wins for {} ({:.1}s)",
            Parchis::HEURISTICS[a],
            Parchis::HEURISTICS[b],
            Parchis::HEURISTICS[a],
            t.elapsed().as_secs_f64()
        );
    }
}

/// Picks the move of the engine's own search (iterative-deepening alpha-beta with the table) at
/// `depth` with heuristic `h`. The searcher is reused within one game (the search is still
/// deterministic: each search starts from an empty table in effect).
fn engine_move(
    searcher: &mut tablero::core::search::Searcher<Parchis>,
    s: &Parchis,
    depth: u32,
    h: usize,
) -> <Parchis as Game>::Move {
    use tablero::core::search::{Algorithm, Limits, SearchOptions};
    let stop = std::sync::atomic::AtomicBool::new(false);
    let r = searcher.search(
        s,
        SearchOptions {
            algorithm: Algorithm::AlphaBeta,
            heuristic: h,
            ..SearchOptions::default()
        },
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &stop,
        |_| {},
    );
    r.best_move.expect("a running game has a move")
}

/// One game of a colour-swapped pair: `a` sits in seat `seat`, the opening is `opening` random
/// plies drawn from a generator seeded by the game number. Returns 1 (a won), 0 (b won) or
/// `None` (no result within 1000 plies).
fn engine_game(a: usize, b: usize, depth: u32, g: u64, seat: usize) -> Option<u32> {
    let mut searcher = tablero::core::search::Searcher::<Parchis>::new(16);
    let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ (g + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let mut s = Parchis::start(&ParchisConfig::default());
    let mut ply = 0;
    while s.outcome().is_none() && ply < 1000 {
        let mut moves = <Parchis as Game>::Moves::default();
        s.legal_moves(&mut moves);
        let m = if ply < 8 {
            random_move(&mut rng, &moves)
        } else {
            let h = if s.side_to_move().index() == seat {
                a
            } else {
                b
            };
            engine_move(&mut searcher, &s, depth, h)
        };
        s = s.apply(m);
        ply += 1;
    }
    match s.outcome() {
        Some(tablero::core::game::Outcome::Win(w)) => Some(u32::from(w.index() == seat)),
        _ => None,
    }
}

/// Depth-N match with the engine's search, colour-swapped pairs, printing one line per game so
/// that a long run can be stopped at any time. Environment: `PARCHIS_MATCH_DEPTH` (6),
/// `PARCHIS_MATCH_FIRST` / `PARCHIS_MATCH_GAMES` (pair numbers `first..first+games`, so two
/// processes can split a range), `PARCHIS_MATCH_OPP` (heuristic index of the opponent, 2 = seed).
#[test]
#[ignore = "long heuristic strength match; run explicitly with --ignored"]
fn engine_match() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let depth = env("PARCHIS_MATCH_DEPTH", 6) as u32;
    let first = env("PARCHIS_MATCH_FIRST", 0);
    let games = env("PARCHIS_MATCH_GAMES", 10);
    let opp = env("PARCHIS_MATCH_OPP", 2) as usize;
    let (mut wins, mut played) = (0, 0);
    for g in first..first + games {
        for seat in 0..2 {
            let t = Instant::now();
            let r = engine_game(0, opp, depth, g, seat);
            if let Some(w) = r {
                wins += w;
                played += 1;
            }
            println!(
                "game {g} seat {seat}: {} ({:.1}s) total default {wins}/{played} vs {}",
                match r {
                    Some(1) => "default wins",
                    Some(_) => "default loses",
                    None => "no result",
                },
                t.elapsed().as_secs_f64(),
                Parchis::HEURISTICS[opp]
            );
        }
    }
}
