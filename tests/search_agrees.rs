//! Differential tests of the search on every game: iterative-deepening alpha-beta with the
//! transposition table, plain alpha-beta and the `minimax` algorithm all return exactly the
//! plain-minimax value at the same depth, on many random positions, for every heuristic; the
//! chosen move achieves that value; repeated searches are identical. Where a game extends
//! sharp leaves (the `default` of Conecta-4 BOOM, Mancala, 5-en-Raya and Parchís' endgames), the
//! plain searches extend the same leaves.

use std::sync::atomic::AtomicBool;

use tablero::core::game::Game;
use tablero::core::score::{WIN_BASE, is_decisive};
use tablero::core::search::{Algorithm, Limits, SearchOptions, SearchResult, Searcher, reference};
use tablero::games::{GameKind, GameVisitor, dispatch};

/// A small deterministic generator (xorshift64*), so the positions are the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random positions reached by random playouts from the start (finished ones skipped).
fn random_positions<G: Game>(rng: &mut Rng, count: usize, max_plies: usize) -> Vec<G> {
    let cfg = G::configure(&G::OPTIONS.iter().map(|o| o.default).collect::<Vec<_>>()).unwrap();
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = G::start(&cfg);
        let plies = rng.below(max_plies + 1);
        for _ in 0..plies {
            let mut ms = G::Moves::default();
            s.legal_moves(&mut ms);
            if ms.as_ref().is_empty() {
                break;
            }
            s = s.apply(ms.as_ref()[rng.below(ms.as_ref().len())]);
        }
        if s.outcome().is_none() {
            out.push(s);
        }
    }
    out
}

struct Agree {
    positions: usize,
    max_plies: usize,
    max_depth: u32,
}

impl GameVisitor for Agree {
    type Output = usize;
    fn visit<G: Game>(self) -> usize {
        let mut rng = Rng(0x5eed ^ G::NAME.len() as u64);
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::<G>::new(4);
        let mut checked = 0;
        for s in random_positions::<G>(&mut rng, self.positions, self.max_plies) {
            let side = s.side_to_move();
            for h in 0..G::HEURISTICS.len() {
                // An extending heuristic (`default`, in the games that extend) searches sharp
                // lines `EXTENSION_PLIES` further, and plain minimax pays for every one of
                // them: a shallower root keeps the test fast.
                let extends = G::EXTENSION_PLIES > 0 && h == 0;
                let max_depth = if extends { 2 } else { self.max_depth };
                for depth in 1..=max_depth {
                    let mut n = 0;
                    let mm = reference::minimax(&s, depth, 0, h, side, &mut n);
                    assert_eq!(
                        reference::root_value(&s, depth, h),
                        mm,
                        "{}: plain alpha-beta differs at depth {depth}, heuristic {h}, fen {}",
                        G::NAME,
                        s.format_fen()
                    );
                    for algorithm in [Algorithm::AlphaBeta, Algorithm::Minimax] {
                        let opts = SearchOptions {
                            algorithm,
                            heuristic: h,
                            ..SearchOptions::default()
                        };
                        let limits = Limits {
                            depth: Some(depth),
                            ..Limits::default()
                        };
                        let r = searcher.search(&s, opts, limits, &stop, |_| {});
                        assert_eq!(
                            r.score,
                            mm,
                            "{}: {algorithm:?} differs at depth {depth}, heuristic {h}, fen {}",
                            G::NAME,
                            s.format_fen()
                        );
                        // The search may stop early on a proven result; the move must still
                        // achieve the value.
                        let child = s.apply(r.best_move.unwrap());
                        let mut n = 0;
                        let v = reference::minimax(&child, depth - 1, 1, h, side, &mut n);
                        assert_eq!(v, mm, "{}: bestmove misses the value", G::NAME);
                        let again = searcher.search(&s, opts, limits, &stop, |_| {});
                        assert_eq!((again.best_move, again.nodes), (r.best_move, r.nodes));
                    }
                    checked += 1;
                }
            }
        }
        checked
    }
}

fn agree(kind: GameKind, positions: usize, max_plies: usize, max_depth: u32) {
    let n = dispatch(
        kind,
        Agree {
            positions,
            max_plies,
            max_depth,
        },
    );
    assert!(n > 0);
}

#[test]
fn connect4_alphabeta_equals_minimax() {
    agree(GameKind::Connect4, 60, 30, 5);
}

#[test]
fn boom_alphabeta_equals_minimax() {
    agree(GameKind::Connect4Boom, 60, 40, 4);
}

#[test]
fn mancala_alphabeta_equals_minimax() {
    agree(GameKind::Mancala, 60, 40, 5);
}

#[test]
fn parchis_alphabeta_equals_minimax() {
    agree(GameKind::Parchis, 25, 80, 3);
}

/// An extending search's later iterations: at depth 3 (and 4) the search runs an iteration of
/// 1 (2) first, whose table entries hold other extension limits. Their moves order the next
/// iteration; their values must not stand in for it. The value equals plain alpha-beta's (which
/// extends the same leaves) and the chosen move achieves it — unless the game's win probe found
/// a deeper win, which plain alpha-beta then proves.
struct DeepAgree<'a> {
    positions: usize,
    max_plies: usize,
    fens: &'a [&'a str],
    max_depth: u32,
}

impl GameVisitor for DeepAgree<'_> {
    /// Positions and depths checked, and how many of them the win probe decided.
    type Output = (usize, usize);
    fn visit<G: Game>(self) -> (usize, usize) {
        use tablero::core::score::INFINITY;
        assert!(G::EXTENSION_PLIES > 0, "{} does not extend", G::NAME);
        let cfg = G::configure(&G::OPTIONS.iter().map(|o| o.default).collect::<Vec<_>>()).unwrap();
        let mut rng = Rng(0xdee9 ^ G::NAME.len() as u64);
        let mut positions = random_positions::<G>(&mut rng, self.positions, self.max_plies);
        positions.extend(
            self.fens
                .iter()
                .map(|f| G::parse_fen(f, &cfg).expect("fen")),
        );
        let (mut checked, mut probed) = (0, 0);
        for s in positions {
            let side = s.side_to_move();
            // Plain alpha-beta in a full window, `default` (heuristic 0), from `side`'s view.
            let ab = |s: &G, depth: u32, ply: i32, n: &mut u64| {
                reference::alphabeta(s, depth, ply, -INFINITY, INFINITY, 0, side, n)
            };
            for depth in 3..=self.max_depth {
                let mut n = 0;
                let exact = ab(&s, depth, 0, &mut n);
                let r = search_to(&s, 0, depth);
                let what = format!("{} depth {depth} at {}", G::NAME, s.format_fen());
                let child = s.apply(r.best_move.expect("a move"));
                if r.probe.is_some_and(|p| p.won) {
                    // The win probe (Game::win_probe_plies) looked deeper and replaced the
                    // move: only by one plain alpha-beta proves winning at the probe's depth
                    // (a null window at the win bound), where `depth` saw no win.
                    assert!(!is_decisive(exact), "{what}: decided at depth");
                    assert!(r.score >= WIN_BASE && r.depth > depth, "{what}: {r:?}");
                    let (lo, hi) = (WIN_BASE - 1, WIN_BASE);
                    let v = reference::alphabeta(&child, r.depth - 1, 1, lo, hi, 0, side, &mut n);
                    assert!(v >= WIN_BASE, "{what}: the probe's move does not win");
                    probed += 1;
                } else {
                    assert_eq!(r.score, exact, "{what}");
                    assert_eq!(ab(&child, depth - 1, 1, &mut n), exact, "{what}: the move");
                }
                checked += 1;
            }
        }
        (checked, probed)
    }
}

/// Checks `positions` random positions (and `fens`) at depths 3 to `max_depth`; returns how
/// many of them the win probe decided.
fn deep_agree(
    kind: GameKind,
    positions: usize,
    max_plies: usize,
    fens: &[&str],
    max_depth: u32,
) -> usize {
    let (n, probed) = dispatch(
        kind,
        DeepAgree {
            positions,
            max_plies,
            fens,
            max_depth,
        },
    );
    assert!(n > 0);
    probed
}

#[test]
fn boom_agrees_after_earlier_iterations() {
    // BOOM's default probes for deeper wins; among these positions it finds at least one.
    let probed = deep_agree(GameKind::Connect4Boom, 12, 30, &[], 4);
    assert!(probed > 0, "the win probe decided none");
}

#[test]
fn mancala_agrees_after_earlier_iterations() {
    deep_agree(GameKind::Mancala, 20, 40, &[], 4);
}

#[test]
fn enraya_agrees_after_earlier_iterations() {
    // Depth 4 extends to ply 8 here, and plain alpha-beta takes minutes.
    deep_agree(GameKind::Enraya, 8, 40, &[], 3);
}

#[test]
fn parchis_endgames_agree_after_earlier_iterations() {
    let fens: Vec<&str> = PARCHIS_ENDGAMES.iter().map(|e| e.0).collect();
    deep_agree(GameKind::Parchis, 0, 0, &fens, 4);
}

/// A fresh alpha-beta search of `s` to `depth` with `heuristic` (16 MiB table).
fn search_to<G: Game>(s: &G, heuristic: usize, depth: u32) -> SearchResult<G::Move> {
    let opts = SearchOptions {
        heuristic,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Searcher::<G>::new(16).search(s, opts, limits, &AtomicBool::new(false), |_| {})
}

/// Conecta-4 BOOM's `default` at the course's depth 8 follows pending threats to ply 13: here
/// it finds a win in 10 movements that a plain depth-8 search (the course's `test`, never
/// extended) does not see.
#[test]
fn boom_depth_eight_follows_threats_past_its_horizon() {
    use tablero::core::score::plies_to_end;
    use tablero::games::boom::Boom;
    let cfg = Boom::configure(&[2020]).unwrap();
    let mut s = Boom::start(&cfg);
    for m in "2 1 3 1 3".split(' ') {
        s = tablero::core::game::try_play(&s, m).expect("legal");
    }
    let search = |heuristic: usize, depth: u32| search_to(&s, heuristic, depth);
    let d8 = search(0, 8);
    assert!(
        is_decisive(d8.score) && d8.score > 0,
        "default at depth 8: {}",
        d8.score
    );
    assert_eq!(plies_to_end(d8.score), Some(10), "a win in 10 movements");
    assert_eq!(s.format_move(d8.best_move.expect("a move")), "4");
    let test = search(1, 8);
    assert!(!is_decisive(test.score), "test at depth 8: {}", test.score);
}

/// Parchís endgames `default` lost to `seed` at depth 6 before it searched them further
/// (`--openings random:8 --seed 7`, docs/players.md): a colour is one piece from finishing, the
/// move a plain depth-6 search played, and the move depth 8 plays instead.
const PARCHIS_ENDGAMES: [(&str, &str, &str); 10] = [
    (
        "n 1 157 g,g,q1/n34,n21,h/h,h,n38/n23,g,g 24:M:- 1246:ma:- 020000 - 0,0,0,0 - - y/-/-",
        "b1:6",
        "b1:4",
    ),
    (
        "n 0 91 n42,n11,g/g,n2,g/h,h,h/h,h,n66 24:uM:20 1:ah:- 220801 - 0,1,0,0 e - y/r/-",
        "y1:20",
        "y0:20",
    ),
    (
        "n 0 83 h,h,h/h,n22,h/n18,g,q1/n45,g,g 12456:sr:- 12456:hM:- aa82a3 - 0,0,0,2 - - g/-/-",
        "r0:4",
        "y0:5",
    ),
    (
        "n 1 112 h,h,h/n38,h,h/g,g,n27/g,n62,g 12456:a:- 245:m:20 0a0000 - 0,0,0,0 er - g/b/-",
        "g1:20",
        "b0:20",
    ),
    (
        "n 0 143 g,n21,g/n26,h,n21/n38,n38,h/g,n35,g 4:or:- 12456:-:- 680000 - 1,0,0,0 - - g/-/-",
        "r0:4",
        "y1:4",
    ),
    (
        "n 0 134 n47,h,h/h,n36,n21/n57,g,n47/n43,g,g 12456:Mm:- 12456:la:- 200000 - 0,0,3,0 - - g/-/-",
        "r2:4",
        "y0:6",
    ),
    (
        "n 1 91 g,g,q1/n22,h,h/n40,n40,n38/n21,g,n28 24:ak:- 12456:Ma:- 880001 - 0,0,0,0 - - r/-/-",
        "g2:6",
        "g2:megamushroom",
    ),
    (
        "n 1 119 n4,h,n21/n23,h,n30/n23:b1,g,g/g,n14,g 12456:ma:- 12456:M:- 080000 - 0,0,0,1 r - g/-/-",
        "g1:5",
        "g1:6",
    ),
    (
        "n 0 93 h,h,h/n37,n21,h/n38,q3,n2/g,g,n25 1:ma:- 12456:-:- 2a0000 - 0,0,0,1 - - g/-/-",
        "r2:1",
        "r0:banana",
    ),
    (
        "n 1 151 n20,n19,n18/n51,n35,n21/n20,g,g/g,n15,g 12456:-:- 145:r:- 980000 - 0,0,1,1 - - y/-/-",
        "g1:4",
        "b1:1",
    ),
];

/// In those endgames `default` at the course's depth 6 now plays what depth 8 plays, and the
/// move the unextended search played is lost by force; the plain searches extend the same
/// leaves as the reference minimax.
#[test]
fn parchis_default_searches_endgames_further() {
    use tablero::games::parchis::{Parchis, ParchisConfig};
    let search = search_to::<Parchis>;
    for (fen, unextended, deep) in PARCHIS_ENDGAMES {
        let s = Parchis::parse_fen(fen, &ParchisConfig::default()).expect("fen");
        assert!(s.unquiet(0), "an endgame: {fen}");
        let d6 = search(&s, 0, 6);
        let d8 = search(&s, 0, 8);
        let mv = |r: &SearchResult<_>| s.format_move(r.best_move.unwrap());
        assert_eq!(mv(&d8), deep, "depth 8 at {fen}");
        assert_eq!(mv(&d6), deep, "depth 6 at {fen}");
        assert!(!is_decisive(d6.score), "depth 6 at {fen}: {}", d6.score);
        // The opponent of the unextended move wins by force within the 7 plies left of 8.
        let after = s.apply(s.parse_move(unextended).expect("legal"));
        let reply = search(&after, 0, 7);
        let sign = if after.side_to_move() == s.side_to_move() {
            -1
        } else {
            1
        };
        assert!(
            is_decisive(reply.score) && sign * reply.score > 0,
            "{unextended} at {fen}: {}",
            reply.score
        );
        for depth in 1..=2 {
            let mut n = 0;
            let mm = reference::minimax(&s, depth, 0, 0, s.side_to_move(), &mut n);
            assert_eq!(search(&s, 0, depth).score, mm, "depth {depth} at {fen}");
        }
    }
}
