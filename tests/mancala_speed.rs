//! Mancala speed measurements (ignored by default; they print figures rather than assert a
//! machine-dependent rate). Run: `cargo test --release --test mancala_speed -- --ignored --nocapture`.

use std::time::Instant;

use tablero::core::perft::perft;
use tablero::core::search::reference::root_value;
use tablero::core::{Game, Side};
use tablero::games::mancala::{Mancala, MancalaConfig};

fn rate(name: &str, g: &Mancala, depth: u32) -> f64 {
    let t = Instant::now();
    let leaves = perft(g, depth);
    let s = t.elapsed().as_secs_f64();
    let r = leaves as f64 / s / 1e6;
    println!("{name:<44} depth {depth:>2}: {leaves:>12} leaves {s:>7.3} s {r:>7.1} M leaves/s");
    r
}

#[test]
#[ignore = "speed measurement; run in release with --ignored --nocapture"]
fn perft_leaf_rate() {
    let cfg = MancalaConfig::default();
    let start = Mancala::start(&cfg);
    let mut rates = vec![rate("Kalah(6,4) start", &start, 11)];
    for fen in [
        "1,3,2,3,3,6:11/2,6,0,2,1,1:7 S",
        "0,0,3,0,1,3:19/2,0,0,0,5,1:14 N",
        "3,0,0,0,11,0:10/10,0,0,3,0,1:10 S",
    ] {
        let g = Mancala::parse_fen(fen, &cfg).unwrap();
        rates.push(rate(fen, &g, 11));
    }
    let big = Mancala::start(&Mancala::configure(&[12, 10]).unwrap());
    rates.push(rate("Kalah(12,10) start (many laps later)", &big, 6));
    let min = rates.iter().cloned().fold(f64::INFINITY, f64::min);
    println!("slowest: {min:.1} M leaves/s");
}

#[test]
#[ignore = "speed measurement; run in release with --ignored --nocapture"]
fn evaluate_rate() {
    let g =
        Mancala::parse_fen("1,3,2,3,3,6:11/2,6,0,2,1,1:7 S", &MancalaConfig::default()).unwrap();
    for h in 0..Mancala::HEURISTICS.len() {
        let t = Instant::now();
        let mut nodes = 0;
        let v = root_value(&g, 9, h);
        nodes += 1;
        let s = t.elapsed().as_secs_f64();
        println!(
            "alpha-beta depth 9 with heuristic {:<8} value {v:>8} in {s:.3} s ({nodes})",
            Mancala::HEURISTICS[h]
        );
    }
    let t = Instant::now();
    let mut acc = 0i64;
    let n = 10_000_000;
    for i in 0..n {
        let side = if i & 1 == 0 {
            Side::First
        } else {
            Side::Second
        };
        acc += i64::from(std::hint::black_box(&g).evaluate(0, side));
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "default evaluate: {:.1} ns/call ({acc})",
        s * 1e9 / n as f64
    );
}
