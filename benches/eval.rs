//! Evaluation speed: each heuristic of each game over the positions of pseudo-random games
//! (a fixed generator, so every run evaluates the same positions). Criterion's element
//! throughput is evaluations per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tablero::core::game::{Game, Side};
use tablero::core::rng::splitmix64;
use tablero::games::boom::{Boom, Config as BoomConfig};
use tablero::games::connect4::{Config, Connect4};
use tablero::games::mancala::{Mancala, MancalaConfig};
use tablero::games::parchis::{Parchis, ParchisConfig};

/// Every position of `games` pseudo-random games from `start` (at most `plies` plies each).
fn positions<G: Game>(start: G, games: usize, plies: usize) -> Vec<G> {
    let mut out = Vec::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..games {
        let mut s = start;
        for _ in 0..plies {
            if s.outcome().is_some() {
                break;
            }
            out.push(s);
            let mut ms = G::Moves::default();
            s.legal_moves(&mut ms);
            let ms = ms.as_ref();
            x = splitmix64(x);
            s = s.apply(ms[(x % ms.len() as u64) as usize]);
        }
    }
    out
}

fn bench<G: Game>(c: &mut Criterion, group: &str, ps: &[G]) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(ps.len() as u64));
    for (h, name) in G::HEURISTICS.iter().enumerate() {
        g.bench_with_input(BenchmarkId::new(*name, ps.len()), ps, |b, ps| {
            b.iter(|| {
                ps.iter()
                    .map(|p| i64::from(std::hint::black_box(p).evaluate(h, Side::First)))
                    .sum::<i64>()
            })
        });
    }
    g.finish();
}

fn all(c: &mut Criterion) {
    bench(
        c,
        "connect4_eval",
        &positions(Connect4::start(&Config::default()), 200, 42),
    );
    bench(
        c,
        "connect4boom_eval",
        &positions(Boom::start(&BoomConfig::default()), 200, 60),
    );
    bench(
        c,
        "mancala_eval",
        &positions(Mancala::start(&MancalaConfig::default()), 200, 80),
    );
    bench(
        c,
        "parchis_eval",
        &positions(Parchis::start(&ParchisConfig::default()), 20, 200),
    );
}

criterion_group!(benches, all);
criterion_main!(benches);
