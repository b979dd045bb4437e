//! Search speed: the engine's own search (iterative deepening, table, ordering) to a fixed
//! depth from fixed positions of every game, and the plain reference alpha-beta the course
//! uses. Criterion's element throughput is nodes per second; the node counts themselves are
//! the bench signature's business (`tablero bench`), not this file's.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tablero::core::game::Game;
use tablero::core::score::INFINITY;
use tablero::core::search::reference::alphabeta;
use tablero::core::search::{Limits, SearchOptions, Searcher};
use tablero::games::boom::{Boom, Config as BoomConfig};
use tablero::games::connect4::{Config, Connect4};
use tablero::games::mancala::{Mancala, MancalaConfig};
use tablero::games::parchis::{Parchis, ParchisConfig};

/// The engine's search of `s` to `depth` with heuristic `h`, from a cleared 64 MiB table
/// (every iteration searches the same tree).
fn engine<G: Game>(c: &mut Criterion, group: &str, name: &str, s: &G, depth: u32, h: usize) {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::<G>::new(64);
    let opts = SearchOptions {
        heuristic: h,
        ..Default::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let nodes = searcher.search(s, opts, limits, &stop, |_| {}).nodes;
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(nodes));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.bench_with_input(
        BenchmarkId::new(format!("{name}/{}", G::HEURISTICS[h]), depth),
        s,
        |b, s| {
            b.iter(|| {
                searcher.clear();
                searcher.search(std::hint::black_box(s), opts, limits, &stop, |_| {})
            })
        },
    );
    g.finish();
}

/// The course's plain alpha-beta (generation order, no table) of `s` to `depth`.
fn reference<G: Game>(c: &mut Criterion, group: &str, name: &str, s: &G, depth: u32, h: usize) {
    let me = s.side_to_move();
    let run = |s: &G| {
        let mut nodes = 0;
        let v = alphabeta(s, depth, 0, -INFINITY, INFINITY, h, me, &mut nodes);
        (v, nodes)
    };
    let (_, nodes) = run(s);
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(nodes));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.bench_with_input(
        BenchmarkId::new(format!("{name}/{}", G::HEURISTICS[h]), depth),
        s,
        |b, s| b.iter(|| run(std::hint::black_box(s))),
    );
    g.finish();
}

fn connect4(c: &mut Criterion) {
    let s = Connect4::start(&Config::default());
    engine(c, "connect4_search", "start", &s, 10, 0);
    reference(c, "connect4_reference", "start", &s, 7, 0);
}

fn boom(c: &mut Criterion) {
    let s = Boom::start(&BoomConfig::default());
    engine(c, "connect4boom_search", "start", &s, 7, 0);
    reference(c, "connect4boom_reference", "start", &s, 5, 0);
}

fn mancala(c: &mut Criterion) {
    let g = Mancala::parse_fen("1,3,2,3,3,6:11/2,6,0,2,1,1:7 S", &MancalaConfig::default())
        .expect("fen");
    engine(c, "mancala_search", "middle", &g, 14, 0);
    for h in 0..Mancala::HEURISTICS.len() {
        reference(c, "mancala_reference", "middle", &g, 12, h);
    }
}

/// perft.md's search anchors: the start and positions A, B, C.
const ANCHORS: [(&str, &str); 4] = [
    (
        "start",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
    ),
    (
        "A",
        "n 0 42 n10:i1,n28:i1,n17:i1/h:i1,n40:i1,n49/n58,n6,n18/h:i1,n12:i1,n5 12456:-:- 126:kh:- 085f4c 42,34,18 0,0,0,0 - - b/-/-",
    ),
    (
        "B",
        "n 0 81 n21,n13,n64/h,h,h/n55,h,n17/h,n36:s1,n61:o1 12456:a:- 12456:-:- c1bb10 32,61 0,0,0,0 - - g/-/-",
    ),
    (
        "C",
        "n 0 61 n17:m2,n20,h/n38:i3,n34:i3,n67:b1/h:i3,n6:o3,h:i3/n4:i3,n21:i3,n64:i3 12456:m:- 125:-:- 86bd0c - 0,0,0,0 b - b/-/-",
    ),
];

fn parchis(c: &mut Criterion) {
    for (name, fen) in ANCHORS {
        let s = Parchis::parse_fen(fen, &ParchisConfig::default()).expect("anchor");
        engine(c, "parchis_search", name, &s, 6, 1);
        reference(c, "parchis_reference", name, &s, 4, 1);
    }
}

criterion_group!(benches, connect4, boom, mancala, parchis);
criterion_main!(benches);
