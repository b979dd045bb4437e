//! Parchís speed measurement (not run by default): perft leaves per second, single thread.
//! Run with `cargo test --release --test parchis_bench -- --ignored --nocapture`.

use std::time::Instant;

use tablero::core::game::Game;
use tablero::core::perft::perft;
use tablero::games::parchis::{Parchis, ParchisConfig};

fn measure(name: &str, s: &Parchis, depth: u32) -> u64 {
    let t = Instant::now();
    let n = perft(s, depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{name} perft({depth}) = {n} leaves in {secs:.3} s: {:.2} M leaves/s",
        n as f64 / secs / 1e6
    );
    n
}

#[test]
#[ignore = "benchmark; run explicitly with --ignored"]
fn perft_speed() {
    let start = Parchis::start(&ParchisConfig);
    assert_eq!(
        measure("start", &start, 5),
        14_690_108,
        "perft.md start, depth 5"
    );
    let pg = Parchis::named_start("playground", &ParchisConfig).expect("playground");
    measure("playground", &pg, 4);
    // A mid-game position (game 256 ply 41 of the golden traces, perft.md position A).
    let a = Parchis::parse_fen(
        "n 0 42 n10:i1,n28:i1,n17:i1/h:i1,n40:i1,n49/n58,n6,n18/h:i1,n12:i1,n5 12456:-:- 126:kh:- 085f4c 42,34,18 0,0,0,0 - - b/-/-",
        &ParchisConfig,
    )
    .expect("position A fen");
    assert_eq!(
        measure("A", &a, 5),
        4_445_862,
        "perft.md position A, depth 5"
    );
}
