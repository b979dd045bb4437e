//! Move generation and application: perft leaves per second (criterion's element throughput is
//! leaves), from the start and from middle-game positions of every game. Each count is checked
//! before it is timed, so a wrong move generator fails here instead of measuring.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tablero::core::game::Game;
use tablero::core::perft::perft;
use tablero::games::boom::{Boom, Config as BoomConfig};
use tablero::games::connect4::{Config, Connect4};
use tablero::games::mancala::{Mancala, MancalaConfig};
use tablero::games::parchis::{Parchis, ParchisConfig};

/// Times `perft(s, depth)` as benchmark `name`, after checking its count when one is known.
fn bench<G: Game>(
    c: &mut Criterion,
    group: &str,
    name: &str,
    s: &G,
    depth: u32,
    want: Option<u64>,
) {
    let leaves = perft(s, depth);
    if let Some(w) = want {
        assert_eq!(leaves, w, "{group} {name}: perft({depth})");
    }
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(leaves));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.bench_with_input(BenchmarkId::new(name, depth), s, |b, s| {
        b.iter(|| perft(std::hint::black_box(s), depth))
    });
    g.finish();
}

fn connect4(c: &mut Criterion) {
    let cfg = Config::default();
    bench(
        c,
        "connect4_perft",
        "start",
        &Connect4::start(&cfg),
        8,
        None,
    );
    let mid = Connect4::from_moves("4453432352", &cfg).expect("a Pons move string");
    bench(c, "connect4_perft", "4453432352", &mid, 7, None);
}

fn boom(c: &mut Criterion) {
    bench(
        c,
        "connect4boom_perft",
        "start",
        &Boom::start(&BoomConfig::default()),
        6,
        None,
    );
}

fn mancala(c: &mut Criterion) {
    let cfg = MancalaConfig::default();
    bench(c, "mancala_perft", "start", &Mancala::start(&cfg), 9, None);
    for (name, fen, depth) in [
        ("middle", "1,3,2,3,3,6:11/2,6,0,2,1,1:7 S", 10),
        ("late", "0,0,3,0,1,3:19/2,0,0,0,5,1:14 N", 13),
    ] {
        let g = Mancala::parse_fen(fen, &cfg).expect("fen");
        bench(c, "mancala_perft", name, &g, depth, None);
    }
    let big = Mancala::start(&Mancala::configure(&[12, 10]).expect("Kalah(12,10)"));
    bench(c, "mancala_perft", "kalah12x10", &big, 6, None);
}

fn parchis(c: &mut Criterion) {
    let start = Parchis::start(&ParchisConfig::default());
    // perft.md: 14,690,108 at depth 5 (too long to repeat here); depth 4 is timed.
    bench(c, "parchis_perft", "start", &start, 4, None);
    // perft.md's position A (game 256 ply 41 of the golden traces): 4,445,862 at depth 5.
    let a = Parchis::parse_fen(
        "n 0 42 n10:i1,n28:i1,n17:i1/h:i1,n40:i1,n49/n58,n6,n18/h:i1,n12:i1,n5 12456:-:- 126:kh:- 085f4c 42,34,18 0,0,0,0 - - b/-/-",
        &ParchisConfig::default(),
    )
    .expect("position A");
    bench(c, "parchis_perft", "A", &a, 5, Some(4_445_862));
}

criterion_group!(benches, connect4, boom, mancala, parchis);
criterion_main!(benches);
