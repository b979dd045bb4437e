//! The solver against plain minimax (small boards, ninja endgames) and against retrograde
//! analysis (small graphs with cycles, where a table that kept values proven under a
//! repetition would go wrong).

use super::*;
use crate::core::rng::splitmix64;
use crate::games::enraya::Config;

fn cfg(rows: u8, cols: u8, n: u8) -> Config {
    Config { rows, cols, n }
}

fn fen(text: &str) -> Enraya {
    Enraya::parse_fen(text, &Config::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = splitmix64(self.0);
        (self.0 % n as u64) as usize
    }
}

fn legal(s: &Enraya) -> Vec<Move> {
    let mut m = Moves::default();
    s.legal_moves(&mut m);
    m.to_vec()
}

/// Exact value by full minimax without pruning (boards without cycles): `WIN - plies` for a
/// win of the side to move, the negation for a loss, 0 for a draw; plies from `s`.
fn full_minimax(s: &Enraya, ply: i32) -> i32 {
    if let Some(o) = s.outcome() {
        return terminal(o, s.side_to_move(), ply as u32);
    }
    let mut best = -WIN;
    for m in legal(s) {
        let c = s.apply(m);
        let v = full_minimax(&c, ply + 1);
        let v = if c.side_to_move() == s.side_to_move() {
            v
        } else {
            -v
        };
        best = best.max(v);
    }
    best
}

/// The solver's value, distance and move agree with full minimax; the move keeps the value.
fn check_exact(solver: &mut Solver, s: &Enraya) {
    let sol = solver
        .solve(s)
        .unwrap_or_else(|e| panic!("{}: {e}", s.format_fen()));
    let want = full_minimax(s, 0);
    assert_eq!(sol.score(), want, "{}", s.format_fen());
    if let Some(m) = sol.best {
        let c = s.apply(m);
        let v = full_minimax(&c, 1);
        let v = if c.side_to_move() == s.side_to_move() {
            v
        } else {
            -v
        };
        assert_eq!(v, want, "{} best {m:?}", s.format_fen());
    }
    if let Some(p) = sol.plies {
        assert_eq!(
            sol.pv.len(),
            p as usize,
            "{} pv {:?}",
            s.format_fen(),
            sol.pv
        );
        let mut t = *s;
        for &m in &sol.pv {
            assert!(t.is_legal(m));
            t = t.apply(m);
        }
        assert_eq!(
            t.outcome().map(|o| Wdl::of_outcome(o, s.side_to_move())),
            Some(sol.verdict)
        );
    }
}

#[test]
fn small_boards_match_full_minimax() {
    // 3 × 3, N = 3 is a draw from the start; 3 × 4 and 4 × 3 are wins; N = 2 on 2 × 2.
    let mut solver = Solver::new(4);
    let start = Enraya::new(&cfg(3, 3, 3));
    let sol = solver.solve(&start).unwrap();
    assert_eq!(sol.verdict, Wdl::Draw);
    assert_eq!(full_minimax(&start, 0), 0);
    let mut rng = Rng(1);
    for (rows, cols, n, plies) in [
        (3, 3, 3, 0..6),
        (2, 2, 2, 0..3),
        (3, 4, 3, 2..7),
        (4, 3, 3, 3..7),
        (4, 4, 3, 6..10),
        (1, 7, 3, 0..4),
    ] {
        for _ in 0..30 {
            let mut s = Enraya::new(&cfg(rows, cols, n));
            let k = plies.start + rng.below(plies.len());
            for _ in 0..k {
                let ms = legal(&s);
                if ms.is_empty() {
                    break;
                }
                s = s.apply(ms[rng.below(ms.len())]);
            }
            solver.clear();
            check_exact(&mut solver, &s);
            // Again with the table of the solve before: the same answer.
            check_exact(&mut solver, &s);
        }
    }
}

#[test]
fn plain_status_agrees_on_small_boards() {
    let mut solver = Solver::new(4);
    let mut rng = Rng(2);
    for (rows, cols, n) in [(3, 3, 3), (3, 4, 3), (4, 4, 3)] {
        for _ in 0..20 {
            let mut s = Enraya::new(&cfg(rows, cols, n));
            for _ in 0..(rows * cols) as usize / 2 + rng.below(3) {
                let ms = legal(&s);
                if ms.is_empty() {
                    break;
                }
                s = s.apply(ms[rng.below(ms.len())]);
            }
            let Some((v, m, _)) = plain_status(&s, 5_000_000) else {
                continue;
            };
            let sol = solver.solve(&s).unwrap();
            assert_eq!(sol.verdict, v, "{}", s.format_fen());
            assert_eq!(m.is_none(), sol.best.is_none());
        }
    }
}

/// Ninja positions a few placements before the end of seeded random games: the solver's verdict
/// is plain minimax's (repetitions as draws), and its move reaches it.
#[test]
fn ninja_endgames_match_plain_minimax() {
    // Plain minimax recurses once per ply, and lines that empty rows and columns are long.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(ninja_endgames)
        .unwrap()
        .join()
        .unwrap();
}

fn ninja_endgames() {
    let mut solver = Solver::new(16);
    let mut rng = Rng(3);
    let (mut compared, mut games, mut moves_checked) = (0, 0, 0);
    while compared < 15 && games < 2000 {
        games += 1;
        let mut line = vec![Enraya::new(&Config::default())];
        while line.last().unwrap().outcome().is_none() && line.len() < 300 {
            let s = *line.last().unwrap();
            let ms = legal(&s);
            line.push(s.apply(ms[rng.below(ms.len())]));
        }
        let back = 2 + rng.below(5);
        let Some(&s) = line.len().checked_sub(back + 1).map(|i| &line[i]) else {
            continue;
        };
        if s.outcome().is_some() {
            continue;
        }
        // The endgames compared take plain minimax at most 3,078 nodes; the ones it cannot
        // finish in 50,000 are skipped (at 500,000 the skipped ones cost 54 s, nearly all of
        // the test, and added none).
        let Some((v, _, _)) = plain_status(&s, 50_000) else {
            continue;
        };
        solver.clear();
        let sol = solver
            .solve(&s)
            .unwrap_or_else(|e| panic!("{}: {e}", s.format_fen()));
        assert_eq!(sol.verdict, v, "{}", s.format_fen());
        let best = sol.best.unwrap();
        let c = s.apply(best);
        // The child's value (without the root behind it: the game's value, which the root's
        // move must keep).
        if let Some((cv, _, _)) = plain_status(&c, 1_000_000) {
            let cv = if c.side_to_move() == s.side_to_move() {
                cv
            } else {
                cv.flip()
            };
            assert_eq!(cv, v, "{} best {best:?}", s.format_fen());
            moves_checked += 1;
        }
        compared += 1;
    }
    assert!(
        compared >= 15 && moves_checked >= 10,
        "only {compared} endgames compared, {moves_checked} moves checked"
    );
}

/// A yellow cell that completes a diagonal wins at once (its row and column are emptied, the
/// diagonal stays).
#[test]
fn ninja_wins_now_knows_yellow_diagonals() {
    // x places on yellow (2,4) between (0,2), (1,3) and (3,5), (4,6).
    let s = fen("2x6/3x5/9/5x3/6x2/9/9/9/o1o1o1o2 x 2 0 20");
    let wins = ninja_wins_now(&s);
    assert_ne!(wins & bits::low(YELLOW), 0, "{}", s.format_fen());
    let sol = Solver::new(4).solve(&s).unwrap();
    assert_eq!(sol.verdict, Wdl::Win);
    assert_eq!(sol.plies, Some(1));
}

/// A game given as a graph: node `i`'s mover, its result (for finished nodes) and its moves
/// (successor nodes). Cycles allowed.
#[derive(Clone, Copy, Debug)]
struct Node<'a> {
    g: &'a Graph,
    i: usize,
}

#[derive(Debug)]
struct Graph {
    mover: Vec<Side>,
    result: Vec<Option<Outcome>>,
    succ: Vec<Vec<usize>>,
}

impl Position for Node<'_> {
    type Move = usize;
    fn key(&self) -> u64 {
        splitmix64(self.i as u64 + 1)
    }
    fn mover(&self) -> Side {
        self.g.mover[self.i]
    }
    fn result(&self) -> Option<Outcome> {
        self.g.result[self.i]
    }
    fn moves_hinted(&self, out: &mut Vec<(i32, usize)>) {
        out.extend(self.g.succ[self.i].iter().map(|&j| (0, j)));
    }
    fn play(&self, m: usize) -> Self {
        Node { g: self.g, i: m }
    }
    fn may_repeat(&self) -> bool {
        true
    }
    fn same(&self, other: &Self) -> bool {
        self.i == other.i
    }
    fn encode(m: usize) -> u16 {
        m as u16 + 1
    }
    fn decode(code: u16) -> Option<usize> {
        (code != 0).then(|| code as usize - 1)
    }
}

/// Values by retrograde analysis, for each node's mover: `WIN - d` a win in `d` plies (as
/// soon as possible), `-(WIN - d)` a loss (as late as possible), 0 a draw (finished drawn, or
/// the play goes on for ever).
fn retrograde(g: &Graph) -> Vec<i32> {
    let n = g.mover.len();
    let mut val: Vec<Option<i32>> = (0..n)
        .map(|i| g.result[i].map(|o| terminal(o, g.mover[i], 0)))
        .collect();
    // The value of child j for the mover of i, one ply further.
    let seen = |val: &Vec<Option<i32>>, i: usize, j: usize| -> Option<i32> {
        let v = val[j]?;
        let v = if g.mover[j] == g.mover[i] { v } else { -v };
        Some(match v {
            v if v > 0 => v - 1,
            v if v < 0 => v + 1,
            _ => 0,
        })
    };
    loop {
        let mut next = val.clone();
        let mut changed = false;
        for i in 0..n {
            if val[i].is_some() {
                continue;
            }
            let vs: Vec<Option<i32>> = g.succ[i].iter().map(|&j| seen(&val, i, j)).collect();
            // A win as soon as one is known (rounds go by distance), a loss or draw when all
            // children are known.
            let best_win = vs.iter().flatten().filter(|&&v| v > 0).max();
            if let Some(&w) = best_win {
                next[i] = Some(w);
                changed = true;
            } else if vs.iter().all(|v| v.is_some()) {
                next[i] = vs.iter().flatten().max().copied();
                changed = true;
            }
        }
        val = next;
        if !changed {
            break;
        }
    }
    val.into_iter().map(|v| v.unwrap_or(0)).collect()
}

fn random_graph(rng: &mut Rng, n: usize) -> Graph {
    let mut g = Graph {
        mover: Vec::new(),
        result: Vec::new(),
        succ: Vec::new(),
    };
    for i in 0..n {
        g.mover.push(if rng.below(5) == 0 {
            // Sometimes the same mover twice (a green cell's second placement).
            if i > 0 { g.mover[i - 1] } else { Side::First }
        } else if rng.below(2) == 0 {
            Side::First
        } else {
            Side::Second
        });
        let r = rng.below(10);
        g.result.push(match r {
            0 => Some(Outcome::Win(Side::First)),
            1 => Some(Outcome::Win(Side::Second)),
            2 if rng.below(3) == 0 => Some(Outcome::Draw),
            _ => None,
        });
        let k = 1 + rng.below(3);
        g.succ.push((0..k).map(|_| rng.below(n)).collect());
    }
    g
}

#[test]
fn graphs_with_cycles_match_retrograde_analysis() {
    let mut rng = Rng(4);
    let (mut draws, mut wins) = (0, 0);
    for round in 0..400 {
        let n = 4 + rng.below(16);
        let g = random_graph(&mut rng, n);
        let want = retrograde(&g);
        let mut solver: Solver<Node> = Solver::new(1);
        // A table shared by every root of the graph (the case where values proven under a
        // repetition would leak from one root's search into another's), then fresh tables.
        for fresh in [false, true] {
            if !fresh {
                solver.clear();
            }
            for (root, &value) in want.iter().enumerate() {
                if fresh {
                    solver.clear();
                }
                let node = Node { g: &g, i: root };
                let sol = solver
                    .solve(&node)
                    .unwrap_or_else(|e| panic!("round {round} root {root}: {e} {g:?}"));
                assert_eq!(
                    sol.score(),
                    value,
                    "round {round} root {root} fresh {fresh}: {g:?}"
                );
                let (v, _, _) = plain_status(&node, u64::MAX).unwrap();
                assert_eq!(v, sol.verdict, "plain, round {round} root {root}: {g:?}");
                if g.result[root].is_none() {
                    match sol.verdict {
                        Wdl::Draw => draws += 1,
                        _ => wins += 1,
                    }
                }
            }
        }
    }
    // The graphs must exercise both kinds of value.
    assert!(
        draws > 200 && wins > 200,
        "draws {draws} wins/losses {wins}"
    );
}
