//! Mancala rules checked against a deliberately simple, independent model: a `Vec`-based board in
//! the course's numbering (pit 1 next to the own store) that walks the sowing order of the rules
//! page literally, one seed at a time. The engine is compared with it on random playouts and
//! random positions of many Kalah(m, n) variants: legal moves, the resulting state (via the fen),
//! the outcome, the move classification used for ordering, and perft.

use tablero::core::perft::perft;
use tablero::core::{Game, Outcome, Side};
use tablero::games::mancala::{Mancala, MancalaConfig, MancalaMoves, MoveKind};

/// splitmix64: a small deterministic generator, so every run checks the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A position of the reference model. `pits[p][k - 1]` is player `p`'s pit `k`.
#[derive(Clone, Debug, PartialEq)]
struct Ref {
    m: usize,
    pits: [Vec<u32>; 2],
    stores: [u32; 2],
    side: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Pos {
    Pit(usize, usize),
    Store(usize),
}

impl Ref {
    fn start(m: usize, n: u32) -> Ref {
        Ref {
            m,
            pits: [vec![n; m], vec![n; m]],
            stores: [0, 0],
            side: 0,
        }
    }

    /// Parses the engine's fen format independently (ring order: pit m first, pit 1 last).
    fn from_fen(fen: &str) -> Ref {
        let (board, side) = fen.split_once(' ').unwrap();
        let (south, north) = board.split_once('/').unwrap();
        let half = |h: &str| -> (Vec<u32>, u32) {
            let (p, s) = h.split_once(':').unwrap();
            let mut ring: Vec<u32> = p.split(',').map(|x| x.parse().unwrap()).collect();
            ring.reverse(); // ring order s1..sm is pit m..1
            (ring, s.parse().unwrap())
        };
        let (sp, ss) = half(south);
        let (np, ns) = half(north);
        Ref {
            m: sp.len(),
            pits: [sp, np],
            stores: [ss, ns],
            side: if side == "S" { 0 } else { 1 },
        }
    }

    fn fen(&self) -> String {
        let half = |p: usize| {
            let ring: Vec<String> = self.pits[p].iter().rev().map(|x| x.to_string()).collect();
            format!("{}:{}", ring.join(","), self.stores[p])
        };
        format!(
            "{}/{} {}",
            half(0),
            half(1),
            if self.side == 0 { "S" } else { "N" }
        )
    }

    fn over(&self) -> bool {
        self.pits.iter().any(|row| row.iter().all(|&x| x == 0))
    }

    fn legal(&self) -> Vec<u8> {
        if self.over() {
            return vec![];
        }
        (1..=self.m)
            .filter(|&k| self.pits[self.side][k - 1] > 0)
            .map(|k| k as u8)
            .collect()
    }

    /// The next sowing position for `mover`, exactly as the rules page lists them.
    fn next(&self, pos: Pos, mover: usize) -> Pos {
        match pos {
            Pos::Pit(p, k) if k > 1 => Pos::Pit(p, k - 1),
            Pos::Pit(p, _) if p == mover => Pos::Store(mover),
            Pos::Pit(_, _) => Pos::Pit(mover, self.m),
            Pos::Store(_) => Pos::Pit(1 - mover, self.m),
        }
    }

    /// Plays pit `k`; returns the new position and the seeds captured (0 if none).
    fn play(&self, k: usize) -> (Ref, u32) {
        let mut r = self.clone();
        let me = r.side;
        let op = 1 - me;
        let mut seeds = r.pits[me][k - 1];
        r.pits[me][k - 1] = 0;
        let mut pos = Pos::Pit(me, k);
        while seeds > 0 {
            pos = r.next(pos, me);
            match pos {
                Pos::Pit(p, j) => r.pits[p][j - 1] += 1,
                Pos::Store(p) => r.stores[p] += 1,
            }
            seeds -= 1;
        }
        let mut captured = 0;
        match pos {
            Pos::Store(_) => {} // extra turn: same side
            Pos::Pit(p, j) => {
                let facing = r.m + 1 - j;
                if p == me && r.pits[me][j - 1] == 1 && r.pits[op][facing - 1] > 0 {
                    captured = 1 + r.pits[op][facing - 1];
                    r.pits[me][j - 1] = 0;
                    r.pits[op][facing - 1] = 0;
                    r.stores[me] += captured;
                }
                r.side = op;
            }
        }
        if r.over() {
            for p in 0..2 {
                let left: u32 = r.pits[p].iter().sum();
                r.stores[p] += left;
                r.pits[p].iter_mut().for_each(|x| *x = 0);
            }
        }
        (r, captured)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let a = self.stores[0] + self.pits[0].iter().sum::<u32>();
        let b = self.stores[1] + self.pits[1].iter().sum::<u32>();
        Some(if a > b {
            Outcome::Win(Side::First)
        } else if b > a {
            Outcome::Win(Side::Second)
        } else {
            Outcome::Draw
        })
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .iter()
            .map(|&k| self.play(k as usize).0.perft(depth - 1))
            .sum()
    }
}

fn config(m: usize, n: usize) -> MancalaConfig {
    Mancala::configure(&[m as i64, n as i64]).unwrap()
}

fn engine_moves(g: &Mancala) -> Vec<u8> {
    let mut moves = MancalaMoves::new();
    g.legal_moves(&mut moves);
    moves.to_vec()
}

/// Compares every legal move of `g` with the model: the successor state (fen), outcome, the
/// move classification and hash consistency.
fn check_position(g: &Mancala) {
    let r = Ref::from_fen(&g.format_fen());
    assert_eq!(r.fen(), g.format_fen());
    assert_eq!(engine_moves(g), r.legal(), "legal moves of {}", r.fen());
    assert_eq!(g.outcome(), r.outcome(), "outcome of {}", r.fen());
    for k in r.legal() {
        let next = g.apply(k);
        let (rn, captured) = r.play(k as usize);
        assert_eq!(next.format_fen(), rn.fen(), "{} after pit {k}", r.fen());
        assert_eq!(next.outcome(), rn.outcome());
        let expect = if captured > 0 {
            MoveKind::Capture(captured)
        } else if rn.side == r.side {
            MoveKind::ExtraTurn
        } else {
            MoveKind::Quiet
        };
        assert_eq!(g.move_kind(k), expect, "{} pit {k}", r.fen());
        // Seeds are conserved.
        assert_eq!(next.total_seeds(), g.total_seeds());
    }
}

/// A random position: `total` seeds scattered over the pits and stores of Kalah(m), both rows
/// kept non-empty so the game is not over.
fn random_position(rng: &mut Rng, m: usize, total: usize) -> Mancala {
    let mut pits = [vec![0u32; m], vec![0u32; m]];
    let mut stores = [0u32; 2];
    pits[0][rng.below(m)] += 1;
    pits[1][rng.below(m)] += 1;
    // Spread the rest, favouring pits so that big pits (several laps) appear.
    for _ in 2..total {
        let side = rng.below(2);
        if rng.below(5) == 0 {
            stores[side] += 1;
        } else {
            pits[side][rng.below(m)] += 1;
        }
    }
    // Sometimes pile many seeds into one pit to force long laps.
    if rng.below(3) == 0 {
        let side = rng.below(2);
        let from = rng.below(m);
        let to = rng.below(m);
        // Within one row, so the row stays non-empty.
        let moved = std::mem::take(&mut pits[side][from]);
        pits[side][to] += moved;
    }
    let r = Ref {
        m,
        pits,
        stores,
        side: rng.below(2),
    };
    Mancala::parse_fen(&r.fen(), &MancalaConfig::default()).unwrap()
}

#[test]
fn random_playouts_match_the_model() {
    let mut rng = Rng(1);
    let mut moves_checked = 0u64;
    for game in 0..3000 {
        let m = 1 + game % 12;
        let n = 1 + rng.below(10);
        let cfg = config(m, n);
        let mut g = Mancala::start(&cfg);
        let mut r = Ref::start(m, n as u32);
        assert_eq!(g.format_fen(), r.fen());
        loop {
            check_position(&g);
            let legal = r.legal();
            if legal.is_empty() {
                assert!(g.outcome().is_some());
                break;
            }
            let k = legal[rng.below(legal.len())];
            g = g.apply(k);
            r = r.play(k as usize).0;
            moves_checked += 1;
        }
    }
    assert!(moves_checked > 50_000, "only {moves_checked} moves");
}

#[test]
fn random_positions_match_the_model() {
    let mut rng = Rng(2);
    for i in 0..20_000 {
        let m = 1 + i % 12;
        let total = 2 + rng.below(254);
        let g = random_position(&mut rng, m, total);
        check_position(&g);
    }
}

#[test]
fn perft_matches_the_model() {
    let mut rng = Rng(3);
    // Start positions of several variants.
    for (m, n, depth) in [
        (6, 4, 5),
        (1, 1, 6),
        (2, 3, 6),
        (3, 10, 5),
        (12, 10, 3),
        (4, 4, 5),
    ] {
        let g = Mancala::start(&config(m, n));
        let r = Ref::start(m, n as u32);
        assert_eq!(
            perft(&g, depth),
            r.perft(depth),
            "Kalah({m},{n}) depth {depth}"
        );
    }
    // Random positions.
    for i in 0..300 {
        let m = 1 + i % 12;
        let total = 2 + rng.below(200);
        let g = random_position(&mut rng, m, total);
        let r = Ref::from_fen(&g.format_fen());
        let depth = if m > 8 { 3 } else { 4 };
        assert_eq!(perft(&g, depth), r.perft(depth), "{}", r.fen());
    }
}

#[test]
fn start_perft_kalah64() {
    // Counted by the model above; pins the opening tree of the course's variant.
    let g = Mancala::start(&MancalaConfig::default());
    let r = Ref::start(6, 4);
    for d in 0..=6 {
        assert_eq!(perft(&g, d), r.perft(d), "depth {d}");
    }
}

#[test]
fn hash_separates_positions() {
    let mut rng = Rng(4);
    let mut seen = std::collections::HashMap::new();
    for i in 0..50_000 {
        let m = 1 + i % 12;
        let total = 2 + rng.below(100);
        let g = random_position(&mut rng, m, total);
        let h = g.hash();
        if let Some(other) = seen.insert(h, g) {
            assert_eq!(other, g, "hash collision");
        }
        // Equal states hash equally, whatever their history.
        let again = Mancala::parse_fen(&g.format_fen(), &MancalaConfig::default()).unwrap();
        assert_eq!(again.hash(), h);
    }
    assert!(seen.len() > 40_000);
}
