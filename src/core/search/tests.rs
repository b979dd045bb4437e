//! Search tests on a toy game with extra turns and transpositions, and a pseudo-random
//! evaluation that differs per perspective (so a perspective mix-up cannot cancel out).

use super::*;
use crate::core::game::{
    EvalTerm, Evaluation, FenError, MoveError, Outcome, VariantOption, WeightSpec,
};
use crate::core::search::reference;

/// Take 1, 2 or 3 tokens; taking exactly 2 keeps the turn; taking the last token wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Toy {
    pile: u8,
    side: Side,
    salt: u64,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The toy's evaluation: no weights.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ToyEval;

impl Evaluation<Toy> for ToyEval {
    const SPECS: &'static [WeightSpec] = &[];
    const DEFAULT: Self = ToyEval;
    fn from_values(_: &[i32]) -> Self {
        ToyEval
    }
    fn evaluate(&self, s: &Toy, _: usize, p: Side) -> i32 {
        (mix(s.hash() ^ ((p.index() as u64 + 1) * 0x1234_5678)) % 2001) as i32 - 1000
    }
    fn terms(&self, _: &Toy, _: usize, _: Side) -> Vec<EvalTerm> {
        Vec::new()
    }
}

impl Game for Toy {
    type Move = u8;
    type Moves = ArrayVec<u8, 3>;
    type Config = ();
    type Weights = ToyEval;
    const NAME: &'static str = "toy";
    const TITLE: &'static str = "Toy";
    const OPTIONS: &'static [VariantOption] = &[];
    const HEURISTICS: &'static [&'static str] = &["default"];
    fn config_of(_: &[i64]) {}
    fn start(_: &()) -> Self {
        Toy {
            pile: 21,
            side: Side::First,
            salt: 0,
        }
    }
    fn side_to_move(&self) -> Side {
        self.side
    }
    fn legal_moves(&self, out: &mut Self::Moves) {
        for t in 1..=3u8.min(self.pile) {
            out.push(t);
        }
    }
    fn apply(&self, m: u8) -> Self {
        let pile = self.pile - m;
        let side = if m == 2 && pile > 0 {
            self.side
        } else {
            self.side.other()
        };
        Toy {
            pile,
            side,
            salt: self.salt,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        // The side that took the last token is the one not to move.
        (self.pile == 0).then(|| Outcome::Win(self.side.other()))
    }
    fn hash(&self) -> u64 {
        mix(u64::from(self.pile) * 2 + self.side.index() as u64 + (self.salt << 8))
    }
    fn parse_move(&self, t: &str) -> Result<u8, MoveError> {
        t.parse().map_err(|_| MoveError::Notation("bad".into()))
    }
    fn format_move(&self, m: u8) -> String {
        m.to_string()
    }
    fn format_fen(&self) -> String {
        self.pile.to_string()
    }
    fn parse_fen(t: &str, _: &()) -> Result<Self, FenError> {
        Ok(Toy {
            pile: t.parse().map_err(|_| FenError::Syntax("bad".into()))?,
            side: Side::First,
            salt: 0,
        })
    }
    fn display(&self) -> String {
        self.format_fen()
    }
    fn move_order_hint(&self, m: u8) -> i32 {
        // Deliberately odd order, to exercise sorting.
        (mix(self.hash() ^ u64::from(m)) % 7) as i32
    }
    fn win_probe_plies(&self, _: usize) -> u32 {
        // Only the win-probe test's salts probe: every other test checks the plain search.
        if self.salt >= PROBE_SALTS { 6 } else { 0 }
    }
}

/// Toy positions with a salt this large or larger get a win probe of 6 plies.
const PROBE_SALTS: u64 = 1000;

fn run(s: &Toy, algorithm: Algorithm, depth: u32) -> SearchResult<u8> {
    let mut searcher = Searcher::<Toy>::new(1);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher.search(
        s,
        SearchOptions {
            algorithm,
            heuristic: 0,
            ..SearchOptions::default()
        },
        limits,
        &stop,
        |_| {},
    )
}

#[test]
fn alphabeta_with_table_equals_plain_minimax_at_every_depth() {
    for salt in 0..40u64 {
        for pile in 1..=24u8 {
            for side in [Side::First, Side::Second] {
                let s = Toy { pile, side, salt };
                for depth in 1..=7 {
                    let mut n = 0;
                    let mm = reference::minimax(&s, depth, 0, 0, side, &mut n);
                    let ab = reference::root_value(&s, depth, 0);
                    assert_eq!(ab, mm, "plain alpha-beta, pile {pile} depth {depth}");
                    let r = run(&s, Algorithm::AlphaBeta, depth);
                    assert_eq!(
                        r.score, mm,
                        "searcher, salt {salt} pile {pile} {side:?} depth {depth}"
                    );
                    let r2 = run(&s, Algorithm::Minimax, depth);
                    assert_eq!(r2.score, mm);
                    // The best move really achieves the value.
                    let child = s.apply(r.best_move.unwrap());
                    let mut n = 0;
                    let v = reference::minimax(&child, depth - 1, 1, 0, side, &mut n);
                    assert_eq!(v, mm, "bestmove does not achieve the root value");
                }
            }
        }
    }
}

#[test]
fn same_search_twice_gives_same_move_and_nodes() {
    let s = Toy {
        pile: 24,
        side: Side::First,
        salt: 3,
    };
    let mut searcher = Searcher::<Toy>::new(1);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(9),
        ..Limits::default()
    };
    let o = SearchOptions::default();
    let a = searcher.search(&s, o, limits, &stop, |_| {});
    let b = searcher.search(&s, o, limits, &stop, |_| {});
    assert_eq!(
        (a.best_move, a.nodes, a.score),
        (b.best_move, b.nodes, b.score)
    );
}

#[test]
fn proven_results_stop_deepening_and_report_the_win_distance() {
    // Pile 1: the side to move takes it and wins in one ply.
    let s = Toy {
        pile: 1,
        side: Side::Second,
        salt: 0,
    };
    let mut depths = Vec::new();
    let mut searcher = Searcher::<Toy>::new(1);
    let stop = AtomicBool::new(false);
    let r = searcher.search(
        &s,
        SearchOptions::default(),
        Limits::default(),
        &stop,
        |it| depths.push(it.depth),
    );
    assert_eq!(r.score, crate::core::score::WIN - 1);
    assert!(r.proven);
    assert_eq!(depths, vec![1]);
}

#[test]
fn node_limit_and_stop_flag_abort() {
    let s = Toy {
        pile: 60,
        side: Side::First,
        salt: 1,
    };
    let mut searcher = Searcher::<Toy>::new(1);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(5000),
        ..Limits::default()
    };
    let r = searcher.search(&s, SearchOptions::default(), limits, &stop, |_| {});
    assert!(r.nodes <= 5000);
    assert!(r.best_move.is_some());
    let stop = AtomicBool::new(true);
    let r = searcher.search(
        &s,
        SearchOptions::default(),
        Limits::default(),
        &stop,
        |_| {},
    );
    assert!(
        r.best_move.is_some(),
        "a stopped search still names a legal move"
    );
}

#[test]
fn finished_game_has_no_best_move() {
    let s = Toy {
        pile: 0,
        side: Side::First,
        salt: 0,
    };
    let r = run(&s, Algorithm::AlphaBeta, 3);
    assert_eq!(r.best_move, None);
    assert!(r.proven);
}

#[test]
fn iteration_clock_stops_between_iterations() {
    let ms = Duration::from_millis;
    let soft = ms(100);
    // Cheap iterations well inside the target: go on (the third is predicted from the node
    // growth of the second: 60 → 360 nodes, 6 times its 7 ms).
    let mut c = IterationClock::<u8>::default();
    assert!(c.next_iteration(Some(1), 10, ms(1), soft, Some(ms(400))));
    assert!(c.next_iteration(Some(1), 70, ms(3), soft, Some(ms(400))));
    assert!(c.next_iteration(Some(1), 430, ms(10), soft, Some(ms(400))));
    // Target spent: stop.
    let mut c = IterationClock::<u8>::default();
    assert!(!c.next_iteration(Some(1), 10, ms(150), soft, None));
    // The next iteration (≈ 6 × 40 ms) cannot finish before a hard limit of 200 ms: not
    // started, even with a target far away; with 400 ms it is.
    let mut c = IterationClock::<u8>::default();
    assert!(!c.next_iteration(Some(1), 10, ms(40), ms(1000), Some(ms(200))));
    let mut c = IterationClock::<u8>::default();
    assert!(c.next_iteration(Some(1), 10, ms(40), ms(1000), Some(ms(400))));
    // Expected to end far past the target (40 + 240 ms against 100): not started.
    let mut c = IterationClock::<u8>::default();
    assert!(!c.next_iteration(Some(1), 10, ms(40), soft, None));
    // A best move that held for three iterations shrinks the target to 60 ms; one that just
    // changed stretches it to 130 ms (the next iteration, 2 × 62 ms, would end at 127 ms).
    let after = |last: u8| {
        let mut c = IterationClock::<u8>::default();
        for k in 1..=3 {
            c.next_iteration(Some(1), 10 * k, ms(k), soft, None);
        }
        c.next_iteration(Some(last), 40, ms(65), soft, None)
    };
    assert!(!after(1));
    assert!(after(2));
}

#[test]
fn a_clock_search_is_the_depth_search_it_completed() {
    // With a generous hard limit the soft target ends the search between iterations: its value
    // is exactly that of a fixed-depth search of the depth it reached.
    let s = Toy::start(&());
    let mut searcher = Searcher::<Toy>::new(1);
    let stop = AtomicBool::new(false);
    let clock = Limits {
        movetime: Some(Duration::from_secs(60)),
        soft: Some(Duration::from_millis(5)),
        ..Limits::default()
    };
    let a = searcher.search(&s, SearchOptions::default(), clock, &stop, |_| {});
    assert!(a.depth >= 1);
    let fixed = Limits {
        depth: Some(a.depth),
        ..Limits::default()
    };
    let b = searcher.search(&s, SearchOptions::default(), fixed, &stop, |_| {});
    assert_eq!((a.score, a.depth), (b.score, b.depth));
}

#[test]
fn win_probe_plays_only_proven_wins_and_otherwise_leaves_the_search_alone() {
    use crate::core::score::{WIN_BASE, is_decisive};
    let (mut found, mut unchanged) = (0, 0);
    for salt in PROBE_SALTS..PROBE_SALTS + 20 {
        for pile in 1..=40u8 {
            for side in [Side::First, Side::Second] {
                let s = Toy { pile, side, salt };
                for depth in 1..=5 {
                    let r = run(&s, Algorithm::AlphaBeta, depth);
                    let plain = reference::root_value(&s, depth, 0);
                    if r.depth <= depth {
                        // No win proven deeper (a decided root also ends before `depth`):
                        // exactly the fixed-depth search.
                        assert_eq!(r.score, plain, "salt {salt} pile {pile} depth {depth}");
                        unchanged += 1;
                        continue;
                    }
                    // The probe only runs where the search found no decisive value, only
                    // returns a win, and only one the move really has within its depth.
                    assert!(!is_decisive(plain), "probed a decided root: pile {pile}");
                    assert!(r.score >= WIN_BASE, "a probe result that is no win");
                    assert!(r.depth > depth && r.depth <= depth + 6);
                    let child = s.apply(r.best_move.unwrap());
                    let mut n = 0;
                    let v = reference::minimax(&child, r.depth - 1, 1, 0, side, &mut n);
                    assert!(v >= r.score, "salt {salt} pile {pile}: {v} < {}", r.score);
                    assert_eq!(r.pv.first(), r.best_move.as_ref());
                    found += 1;
                }
            }
        }
    }
    assert!(
        found > 0 && unchanged > 0,
        "found {found}, unchanged {unchanged}"
    );
}
