//! Mancala speed measurements (ignored by default: they print machine-dependent figures).
//! Run: `cargo test --release --test mancala_speed -- --ignored --nocapture --test-threads=1`.
//!
//! Besides wall time, each figure is also given per second of this thread's CPU time (Linux
//! `/proc/thread-self/schedstat`), which stays meaningful on a loaded machine. Each measurement
//! is the best of three runs.

use std::time::Instant;

use tablero::core::perft::perft;
use tablero::core::score::INFINITY;
use tablero::core::search::reference::alphabeta;
use tablero::core::{Game, Side};
use tablero::games::mancala::{Mancala, MancalaConfig};

/// Nanoseconds this thread has run on a CPU, when the platform tells.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Runs `f` three times; returns its result and the best wall and CPU seconds.
fn best_of_3<T>(mut f: impl FnMut() -> T) -> (T, f64, Option<f64>) {
    let mut best_wall = f64::INFINITY;
    let mut best_cpu: Option<f64> = None;
    let mut out = None;
    for _ in 0..3 {
        let c0 = thread_cpu_ns();
        let t = Instant::now();
        let v = f();
        let wall = t.elapsed().as_secs_f64();
        if let (Some(a), Some(b)) = (c0, thread_cpu_ns()) {
            let cpu = (b - a) as f64 / 1e9;
            best_cpu = Some(best_cpu.map_or(cpu, |x: f64| x.min(cpu)));
        }
        best_wall = best_wall.min(wall);
        out = Some(v);
    }
    (out.expect("three runs"), best_wall, best_cpu)
}

fn rate(name: &str, g: &Mancala, depth: u32) -> f64 {
    let (leaves, wall, cpu) = best_of_3(|| perft(g, depth));
    let w = leaves as f64 / wall / 1e6;
    let c = cpu.map_or(f64::NAN, |c| leaves as f64 / c / 1e6);
    println!(
        "{name:<36} d{depth:>2} {leaves:>10} leaves  wall {w:>6.1} M/s  cpu {c:>6.1} M leaves/s"
    );
    if c.is_nan() { w } else { c }
}

#[test]
#[ignore = "speed measurement; run in release with --ignored --nocapture"]
fn perft_leaf_rate() {
    let cfg = MancalaConfig::default();
    let start = Mancala::start(&cfg);
    let mut rates = vec![rate("Kalah(6,4) start", &start, 11)];
    for (fen, depth) in [
        ("1,3,2,3,3,6:11/2,6,0,2,1,1:7 S", 12),
        ("0,0,3,0,1,3:19/2,0,0,0,5,1:14 N", 16),
        ("3,0,0,0,11,0:10/10,0,0,3,0,1:10 S", 13),
    ] {
        let g = Mancala::parse_fen(fen, &cfg).unwrap();
        rates.push(rate(fen, &g, depth));
    }
    let big = Mancala::start(&Mancala::configure(&[12, 10]).unwrap());
    rates.push(rate("Kalah(12,10) start (long laps)", &big, 7));
    let min = rates.iter().cloned().fold(f64::INFINITY, f64::min);
    println!("slowest: {min:.1} M leaves/s");
}

#[test]
#[ignore = "speed measurement; run in release with --ignored --nocapture"]
fn search_and_evaluate_rate() {
    let cfg = MancalaConfig::default();
    let g = Mancala::parse_fen("1,3,2,3,3,6:11/2,6,0,2,1,1:7 S", &cfg).unwrap();
    for (h, name) in Mancala::HEURISTICS.iter().enumerate() {
        let ((v, nodes), wall, cpu) = best_of_3(|| {
            let mut nodes = 0;
            let v = alphabeta(&g, 16, 0, -INFINITY, INFINITY, h, Side::First, &mut nodes);
            (v, nodes)
        });
        let secs = cpu.filter(|&c| c > 0.0).unwrap_or(wall);
        println!(
            "alpha-beta d16 heuristic {name:<8} value {v:>6} nodes {nodes:>9} {:.1} M nodes/s",
            nodes as f64 / secs / 1e6
        );
    }
    let n = 10_000_000u32;
    for (h, name) in Mancala::HEURISTICS.iter().enumerate() {
        let (acc, wall, cpu) = best_of_3(|| {
            let mut acc = 0i64;
            for _ in 0..n {
                acc += i64::from(std::hint::black_box(&g).evaluate(h, Side::First));
            }
            acc
        });
        let secs = cpu.filter(|&c| c > 0.0).unwrap_or(wall);
        println!(
            "evaluate {name:<8}: {:.1} ns/call (checksum {acc})",
            secs * 1e9 / f64::from(n)
        );
    }
}
