//! Speed measurements (ignored by default; run with
//! `cargo test --release --test connect4_speed -- --ignored --nocapture`). They print figures
//! and fail only below a floor far under the targets, so a slow machine still reports numbers.

use std::hint::black_box;
use std::time::Instant;

use tablero::core::game::{Game, Side};
use tablero::core::perft::perft;
use tablero::core::score::INFINITY;
use tablero::core::search::reference::alphabeta;
use tablero::games::boom::{Boom, Config as BoomConfig, Moves as BoomMoves};
use tablero::games::connect4::{Config, Connect4};

fn rate(leaves: u64, secs: f64) -> f64 {
    leaves as f64 / secs / 1e6
}

/// Best wall time of 5 runs (the machine is shared; the minimum is the least disturbed run).
fn timed<T>(mut f: impl FnMut() -> T) -> (T, f64) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..5 {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(v);
    }
    (out.expect("ran at least once"), best)
}

#[test]
#[ignore]
fn classic_perft_speed() {
    let s = Connect4::start(&Config::default());
    let (n, e) = timed(|| perft(&s, 9));
    println!(
        "connect4 perft 9 from the start: {n} leaves in {e:.3} s = {:.1} M leaves/s",
        rate(n, e)
    );
    // Mid-game position, more full columns.
    let s = Connect4::from_moves("4453432352", &Config::default()).unwrap();
    let (n, e) = timed(|| perft(&s, 8));
    println!(
        "connect4 perft 8 from 4453432352: {n} leaves in {e:.3} s = {:.1} M leaves/s",
        rate(n, e)
    );
}

#[test]
#[ignore]
fn boom_perft_speed() {
    let s = Boom::start(&BoomConfig);
    let (n, e) = timed(|| perft(&s, 8));
    println!(
        "connect4boom perft 8 from the start: {n} leaves in {e:.3} s = {:.1} M leaves/s",
        rate(n, e)
    );
    // Middle-game positions of a fixed pseudo-random game in which nobody plays a winning move
    // (movements 14 and 20: bombs on the board or about to be).
    let mut x = 0x51_7cc1_b727_220au64;
    let mut s = Boom::start(&BoomConfig);
    let mut m = BoomMoves::default();
    while s.movement() < 20 && s.outcome().is_none() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        m.clear();
        s.legal_moves(&mut m);
        let k = (x % m.len() as u64) as usize;
        let quiet = (0..m.len())
            .map(|i| s.apply(m[(k + i) % m.len()]))
            .find(|t| t.outcome().is_none());
        s = quiet.unwrap_or_else(|| s.apply(m[k]));
        if s.movement() == 14 || s.movement() == 20 {
            let (n, e) = timed(|| perft(&s, 7));
            println!(
                "connect4boom perft 7 from {}: {n} leaves in {e:.3} s = {:.1} M leaves/s",
                s.format_fen(),
                rate(n, e)
            );
        }
    }
    assert_eq!(s.outcome(), None, "pick another seed: the game ended early");
}

/// Nanoseconds per call of each heuristic over the positions of random games.
#[test]
#[ignore]
fn eval_speed() {
    let mut positions_c4 = Vec::new();
    let mut positions_boom = Vec::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..2000 {
        let mut s = Connect4::start(&Config::default());
        let mut m = tablero::games::connect4::Moves::default();
        while s.outcome().is_none() {
            positions_c4.push(s);
            m.clear();
            s.legal_moves(&mut m);
            s = s.apply(m[(next() % m.len() as u64) as usize]);
        }
        let mut s = Boom::start(&BoomConfig);
        let mut m = BoomMoves::default();
        while s.outcome().is_none() {
            positions_boom.push(s);
            m.clear();
            s.legal_moves(&mut m);
            s = s.apply(m[(next() % m.len() as u64) as usize]);
        }
    }
    for h in 0..3 {
        let (acc, e) = timed(|| {
            let mut acc = 0i64;
            for p in &positions_c4 {
                acc += black_box(black_box(p).evaluate(black_box(h), Side::First)) as i64;
            }
            acc
        });
        let ns = e * 1e9 / positions_c4.len() as f64;
        println!(
            "connect4 eval {}: {ns:.1} ns ({acc})",
            Connect4::HEURISTICS[h]
        );
        let (acc, e) = timed(|| {
            let mut acc = 0i64;
            for p in &positions_boom {
                acc += black_box(black_box(p).evaluate(black_box(h), Side::First)) as i64;
            }
            acc
        });
        let ns = e * 1e9 / positions_boom.len() as f64;
        println!(
            "connect4boom eval {}: {ns:.1} ns ({acc})",
            Boom::HEURISTICS[h]
        );
    }
}

/// Plain alpha-beta (no table, no ordering) to depth 8 on BOOM positions of random games: an
/// upper bound of what the TT search will need.
#[test]
#[ignore]
fn boom_plain_alphabeta_depth_8() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut times = Vec::new();
    let mut nodes_total = 0u64;
    while times.len() < 40 {
        let target = 1 + next() % 40;
        let mut s = Boom::start(&BoomConfig);
        let mut m = BoomMoves::default();
        while s.outcome().is_none() && (s.movement() as u64) < target {
            m.clear();
            s.legal_moves(&mut m);
            s = s.apply(m[(next() % m.len() as u64) as usize]);
        }
        if s.outcome().is_some() {
            continue;
        }
        let t = Instant::now();
        let mut nodes = 0;
        let v = alphabeta(
            &s,
            8,
            0,
            -INFINITY,
            INFINITY,
            0,
            s.side_to_move(),
            &mut nodes,
        );
        let ms = t.elapsed().as_secs_f64() * 1e3;
        black_box(v);
        nodes_total += nodes;
        times.push(ms);
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "connect4boom plain alpha-beta depth 8, default eval, {} random positions: mean {mean:.1} ms, median {:.1} ms, max {:.1} ms, {:.1} M nodes/s",
        times.len(),
        times[times.len() / 2],
        times[times.len() - 1],
        nodes_total as f64 / times.iter().sum::<f64>() / 1e3
    );
}

/// A minimal transposition-table alpha-beta with iterative deepening and the games' ordering
/// hints, only to estimate what the engine's TT search will need at BOOM depth 8 (the real
/// search lives in `core::search`; this one is test-only and deliberately small).
mod tt_search {
    use tablero::core::game::{Game, Side};
    use tablero::core::score::{INFINITY, from_tt, to_tt};
    use tablero::core::search::reference::terminal_value;

    #[derive(Clone, Copy, Default)]
    struct Entry {
        key: u64,
        value: i32,
        depth: u8,
        bound: u8, // 0 exact, 1 lower, 2 upper
        best: u8,
    }

    pub struct Searcher {
        table: Vec<Entry>,
        pub nodes: u64,
    }

    impl Searcher {
        pub fn new(bits: u32) -> Self {
            Searcher {
                table: vec![Entry::default(); 1 << bits],
                nodes: 0,
            }
        }

        /// Iterative deepening to `depth`; returns the root value for the side to move.
        pub fn search<G: Game>(&mut self, s: &G, depth: u32) -> i32 {
            let mut v = 0;
            for d in 1..=depth {
                v = self.ab(s, d, 0, -INFINITY, INFINITY, s.side_to_move());
            }
            v
        }

        fn ab<G: Game>(
            &mut self,
            s: &G,
            depth: u32,
            ply: i32,
            mut alpha: i32,
            mut beta: i32,
            me: Side,
        ) -> i32 {
            self.nodes += 1;
            if let Some(o) = s.outcome() {
                return terminal_value(o, me, ply);
            }
            if depth == 0 {
                return s.evaluate(0, me);
            }
            let key = s.hash();
            let slot = (key as usize) & (self.table.len() - 1);
            let e = self.table[slot];
            let mut tt_best = u8::MAX;
            if e.key == key {
                tt_best = e.best;
                if e.depth as u32 >= depth {
                    let v = from_tt(e.value, ply);
                    match e.bound {
                        0 => return v,
                        1 if v >= beta => return v,
                        2 if v <= alpha => return v,
                        _ => {}
                    }
                }
            }
            let mut moves = G::Moves::default();
            s.legal_moves(&mut moves);
            let list = moves.as_ref();
            let mut order: Vec<(i32, usize)> = list
                .iter()
                .enumerate()
                .map(|(i, &m)| {
                    let first = if i == tt_best as usize { 1 << 20 } else { 0 };
                    (-(first + s.move_order_hint(m)), i)
                })
                .collect();
            order.sort();
            let (a0, b0) = (alpha, beta);
            let maximizing = s.side_to_move() == me;
            let mut best = if maximizing { -INFINITY } else { INFINITY };
            let mut best_i = 0;
            for &(_, i) in &order {
                let v = self.ab(&s.apply(list[i]), depth - 1, ply + 1, alpha, beta, me);
                if (maximizing && v > best) || (!maximizing && v < best) {
                    best = v;
                    best_i = i;
                }
                if maximizing {
                    alpha = alpha.max(v);
                } else {
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    break;
                }
            }
            let bound = if best <= a0 {
                2
            } else if best >= b0 {
                1
            } else {
                0
            };
            self.table[slot] = Entry {
                key,
                value: to_tt(best, ply),
                depth: depth as u8,
                bound,
                best: best_i as u8,
            };
            best
        }
    }
}

/// Depth 8 (iterative deepening 1..=8) with the test-only TT search above on quiet BOOM
/// positions of pseudo-random games.
#[test]
#[ignore]
fn boom_tt_alphabeta_depth_8() {
    let mut x = 0x0123_4567_89ab_cdefu64;
    let mut times = Vec::new();
    let mut nodes = 0u64;
    while times.len() < 40 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let target = 1 + x % 45;
        let mut s = Boom::start(&BoomConfig);
        let mut m = BoomMoves::default();
        while s.outcome().is_none() && (s.movement() as u64) < target {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            m.clear();
            s.legal_moves(&mut m);
            let k = (x % m.len() as u64) as usize;
            s = (0..m.len())
                .map(|i| s.apply(m[(k + i) % m.len()]))
                .find(|t| t.outcome().is_none())
                .unwrap_or_else(|| s.apply(m[k]));
        }
        if s.outcome().is_some() {
            continue;
        }
        let mut searcher = tt_search::Searcher::new(20);
        let t = Instant::now();
        black_box(searcher.search(&s, 8));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        nodes += searcher.nodes;
    }
    times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    println!(
        "connect4boom TT alpha-beta (test-only) depth 8, {} positions: mean {:.1} ms, median {:.1} ms, max {:.1} ms, {:.1} M nodes/s",
        times.len(),
        total / times.len() as f64,
        times[times.len() / 2],
        times[times.len() - 1],
        nodes as f64 / total / 1e3
    );
}
