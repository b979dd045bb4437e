//! Mancala heuristics: exact values of `test` and `seed`, symmetry and bounds of every heuristic,
//! the default's terms, and the `eval` term listing.

use tablero::core::{EVAL_LIMIT, Game, Side};
use tablero::games::mancala::{Mancala, MancalaConfig, MancalaMoves};

fn pos(fen: &str) -> Mancala {
    Mancala::parse_fen(fen, &MancalaConfig::default()).unwrap()
}

/// `g` after a legal move drawn from the xorshift stream `x`.
fn random_child(g: &Mancala, x: &mut u64) -> Mancala {
    let mut moves = MancalaMoves::new();
    g.legal_moves(&mut moves);
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    g.apply(moves[(*x % moves.len() as u64) as usize])
}

/// Positions along a few deterministic playouts of several variants.
fn sample_positions() -> Vec<Mancala> {
    let mut out = Vec::new();
    let mut x: u64 = 99;
    for (m, n) in [(6, 4), (6, 6), (3, 3), (12, 10), (1, 5), (8, 2)] {
        for _ in 0..20 {
            let mut g = Mancala::start(&Mancala::configure(&[m, n]).unwrap());
            while g.outcome().is_none() {
                out.push(g);
                g = random_child(&g, &mut x);
            }
        }
    }
    out
}

#[test]
fn heuristic_names_and_default_index() {
    assert_eq!(Mancala::HEURISTICS, &["default", "test", "seed"]);
    assert_eq!(
        Mancala::configure(
            &Mancala::OPTIONS
                .iter()
                .map(|o| o.default)
                .collect::<Vec<_>>()
        ),
        Ok(MancalaConfig::default())
    );
}

#[test]
fn test_and_seed_are_the_store_difference() {
    let g = pos("1,2,3,4,5,6:7/8,0,0,0,0,1:12 N");
    for h in [1, 2] {
        assert_eq!(g.evaluate(h, Side::First), 7 - 12);
        assert_eq!(g.evaluate(h, Side::Second), 12 - 7);
    }
    for g in sample_positions() {
        let d = i32::from(g.store(Side::First)) - i32::from(g.store(Side::Second));
        assert_eq!(g.evaluate(1, Side::First), d);
        assert_eq!(g.evaluate(2, Side::Second), -d);
    }
}

#[test]
fn every_heuristic_is_antisymmetric_and_bounded() {
    for g in sample_positions() {
        for h in 0..Mancala::HEURISTICS.len() {
            let a = g.evaluate(h, Side::First);
            let b = g.evaluate(h, Side::Second);
            assert_eq!(a, -b, "{} heuristic {h}", g.format_fen());
            assert!(a.abs() < EVAL_LIMIT);
        }
    }
}

#[test]
fn default_rewards_store_seeds_most() {
    // One seed moved from South's pits to South's store is worth more than keeping it in a pit.
    let a = pos("4,4,4,4,4,4:0/4,4,4,4,4,4:0 N");
    let b = pos("4,4,4,4,4,3:1/4,4,4,4,4,4:0 N");
    assert!(b.evaluate(0, Side::First) > a.evaluate(0, Side::First));
    // More seeds on one's own side (with equal stores) is better.
    let c = pos("4,4,4,4,4,5:0/4,4,4,4,4,3:0 N");
    assert!(c.evaluate(0, Side::First) > a.evaluate(0, Side::First));
}

#[test]
fn default_sees_a_decided_game() {
    // South holds 25 of 48 seeds: the game is won whatever happens.
    let won = pos("0,0,0,1,1,1:25/5,5,5,5,0,0:0 N");
    let close = pos("0,0,0,1,1,1:24/5,5,5,5,0,1:0 N");
    assert!(won.evaluate(0, Side::First) > close.evaluate(0, Side::First) + 100_000);
}

#[test]
fn default_values_an_available_extra_turn_and_a_bigger_capture_for_the_mover() {
    // Same material and stores; in the first South's pit 4 (4 seeds) ends in its store, in the
    // second no South move does (and neither has a capture: all South pits hold seeds).
    let extra = pos("1,1,4,1,3,2:0/2,2,2,2,2,2:0 S");
    let none = pos("1,1,3,2,3,2:0/2,2,2,2,2,2:0 S");
    assert!(extra.evaluate(0, Side::First) > none.evaluate(0, Side::First));
    // South's pit 3 (1 seed) lands in the empty pit 2 facing North's pit 5 (n2 = 6): 7 seeds.
    // In the second position South's best capture is pit 5 into pit 3, facing n3 = 2: 3 seeds.
    let capture = pos("2,2,2,1,0,3:0/2,6,2,2,2,2:0 S");
    let quiet = pos("2,2,2,0,1,3:0/2,6,2,2,2,2:0 S");
    assert!(capture.evaluate(0, Side::First) > quiet.evaluate(0, Side::First));
}

#[test]
fn eval_terms_list_the_evaluation() {
    let g = pos("1,2,3,4,5,6:7/8,0,0,0,0,1:12 N");
    for h in 0..Mancala::HEURISTICS.len() {
        let terms = g.eval_terms(h, Side::First);
        assert!(!terms.is_empty());
        assert!(terms[0].value.contains("7 - 12"), "{terms:?}");
    }
    let terms = g.eval_terms(0, Side::Second);
    let total = terms.iter().find(|t| t.name == "total").unwrap();
    assert_eq!(total.value, g.evaluate(0, Side::Second).to_string());
    let names: Vec<&str> = terms.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "store",
            "decided",
            "side",
            "extra turns",
            "capture",
            "pits (mover-weighted)",
            "empty pits",
            "overflow",
            "total"
        ]
    );
}

/// Positions of the variant `(pits, seeds)` with at most `k` seeds left in pits, from seeded
/// random playouts (the first such position of each playout that is still running).
fn endgame_positions(pits: i64, seeds: i64, k: u32, games: usize) -> Vec<Mancala> {
    let mut out = Vec::new();
    let mut x: u64 = 2026;
    for _ in 0..games {
        let mut g = Mancala::start(&Mancala::configure(&[pits, seeds]).unwrap());
        while g.outcome().is_none() {
            if g.pit_seeds(Side::First) + g.pit_seeds(Side::Second) <= k {
                out.push(g);
                break;
            }
            g = random_child(&g, &mut x);
        }
    }
    out
}

/// With the default `MancalaW_endgame` (14), a position with at most 14 seeds in pits is
/// scored by its exact final margin (the exact solver's) at the store weight, plus the
/// `decided` bonus for the side that wins it; with the table off it gets the heuristic terms.
#[test]
fn default_scores_an_endgame_by_its_exact_margin() {
    use tablero::solver::kalah::Solver;
    let spec = |name: &str| {
        Mancala::WEIGHTS
            .iter()
            .position(|w| w.name == name)
            .unwrap()
    };
    let store = Mancala::WEIGHTS[spec("MancalaW_store")].default;
    let decided = Mancala::WEIGHTS[spec("MancalaW_decided")].default;
    assert_eq!(Mancala::WEIGHTS[spec("MancalaW_endgame")].default, 14);
    let mut off: Vec<i32> = Mancala::WEIGHTS.iter().map(|w| w.default).collect();
    off[spec("MancalaW_endgame")] = 0;
    let off = Mancala::weights(&off);
    let mut differ = 0;
    let mut checked = 0;
    for (pits, seeds) in [(6, 4), (4, 3), (3, 3)] {
        let mut solver = Solver::new(pits as usize, (2 * pits * seeds) as usize, 16).unwrap();
        for g in endgame_positions(pits, seeds, 14, 150) {
            let margin = solver.solve(&g).unwrap().score;
            for side in [Side::First, Side::Second] {
                let m = if side == g.side_to_move() {
                    margin
                } else {
                    -margin
                };
                let want = store * m + m.signum() * decided;
                assert_eq!(g.evaluate(0, side), want, "{}", g.format_fen());
                differ += usize::from(g.evaluate_with(0, &off, side) != want);
                checked += 1;
            }
        }
    }
    assert!(checked >= 600, "{checked}");
    assert!(differ > checked / 2, "{differ} of {checked}");
    // One seed more than the table holds: the heuristic, the same as with the table off.
    for g in endgame_positions(6, 4, 15, 100) {
        if g.pit_seeds(Side::First) + g.pit_seeds(Side::Second) == 15 {
            assert_eq!(
                g.evaluate(0, Side::First),
                g.evaluate_with(0, &off, Side::First)
            );
        }
    }
    let g = endgame_positions(6, 4, 14, 1)[0];
    let names: Vec<String> = g
        .eval_terms(0, Side::First)
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["endgame table", "total"]);
}

/// The table's size per board: the weight's seeds on six pits, as many positions as the
/// six-pit default on other sizes up to seven pits, none beyond (the table's rows are 64-bit
/// words); building it ahead (`isready`) makes it available.
#[test]
fn endgame_table_sizes_per_board() {
    use tablero::games::mancala::endgame::{eval_seeds, eval_table};
    assert_eq!(eval_seeds(6, 14), 14);
    assert_eq!(eval_seeds(6, 20), 20);
    assert_eq!(eval_seeds(6, 99), 20);
    assert_eq!(eval_seeds(6, 0), 0);
    // 7 pits: C(k + 14, 14) <= C(26, 12) positions.
    assert_eq!(eval_seeds(7, 14), 12);
    assert_eq!(eval_seeds(3, 14), 14);
    assert_eq!(eval_seeds(8, 14), 0);
    assert_eq!(eval_seeds(12, 14), 0);
    let g = Mancala::start(&Mancala::configure(&[5, 4]).unwrap());
    let w = Mancala::weights(&[]);
    g.prepare_eval(&w);
    let t = eval_table(5, 14).unwrap();
    assert_eq!((t.pits(), t.seeds()), (5, eval_seeds(5, 14)));
}
