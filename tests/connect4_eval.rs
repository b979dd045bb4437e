//! The heuristics of `connect4` and `connect4boom` against naive re-implementations on a 2-D
//! grid (every window of four enumerated cell by cell; the student report's loops translated
//! literally), over positions of random games.

use tablero::core::game::{EVAL_LIMIT, Game, Side};
use tablero::games::boom::{Boom, Config as BoomConfig, Moves as BoomMoves};
use tablero::games::connect4::{Config, Connect4, Moves};

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

/// `g[c][r]` with the handout's codes: 0 empty, 1/2 pieces, 4/5 bombs of player 1/2.
struct Grid {
    w: i32,
    h: i32,
    g: Vec<Vec<u8>>,
    /// Every window of four on the board, as its four (column, row) cells.
    wins: Vec<[(i32, i32); 4]>,
}

impl Grid {
    fn of_c4(s: &Connect4) -> Grid {
        let (w, h) = (s.width() as i32, s.height() as i32);
        let g = (0..w)
            .map(|c| {
                (0..h)
                    .map(|r| {
                        s.cell(c as u32, r as u32)
                            .map_or(0, |x| x.index() as u8 + 1)
                    })
                    .collect()
            })
            .collect();
        Grid::new(w, h, g)
    }
    fn new(w: i32, h: i32, g: Vec<Vec<u8>>) -> Grid {
        let mut wins = Vec::new();
        for c in 0..w {
            for r in 0..h {
                for (dc, dr) in [(0, 1), (1, 0), (1, -1), (1, 1)] {
                    let cells = [0, 1, 2, 3].map(|k| (c + k * dc, r + k * dr));
                    if cells
                        .iter()
                        .all(|&(x, y)| x >= 0 && y >= 0 && x < w && y < h)
                    {
                        wins.push(cells);
                    }
                }
            }
        }
        Grid { w, h, g, wins }
    }
    fn of_boom(s: &Boom) -> Grid {
        let g = (0..7)
            .map(|c| {
                (0..7)
                    .map(|r| match s.cell(c, r) {
                        None => 0,
                        Some((x, b)) => x.index() as u8 + 1 + if b { 3 } else { 0 },
                    })
                    .collect()
            })
            .collect();
        Grid::new(7, 7, g)
    }
    /// The report's `See_Casilla(row, col)`; off the board reads as empty.
    fn see(&self, i: i32, j: i32) -> u8 {
        if i < 0 || j < 0 || i >= self.h || j >= self.w {
            0
        } else {
            self.g[j as usize][i as usize]
        }
    }
    fn owner(v: u8) -> u8 {
        match v {
            1 | 4 => 1,
            2 | 5 => 2,
            _ => 0,
        }
    }
    fn windows(&self) -> &[[(i32, i32); 4]] {
        &self.wins
    }
    /// Open windows of `p` by number of `p`'s pieces.
    fn open_by_count(&self, p: u8) -> [i32; 5] {
        let mut n = [0; 5];
        for w in self.windows() {
            let owners: Vec<u8> = w
                .iter()
                .map(|&(c, r)| Self::owner(self.see(r, c)))
                .collect();
            if owners.iter().all(|&o| o != 3 - p) {
                n[owners.iter().filter(|&&o| o == p).count()] += 1;
            }
        }
        n
    }
    fn four(&self, p: u8) -> bool {
        self.windows()
            .iter()
            .any(|w| w.iter().all(|&(c, r)| Self::owner(self.see(r, c)) == p))
    }
    /// Empty cells (anywhere, floating or not) where a piece of `p` would make four.
    fn threats(&mut self, p: u8) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for c in 0..self.w {
            for r in 0..self.h {
                if self.g[c as usize][r as usize] == 0 {
                    self.g[c as usize][r as usize] = p;
                    if self.four(p) {
                        out.push((c, r));
                    }
                    self.g[c as usize][r as usize] = 0;
                }
            }
        }
        out
    }
    /// The student report's `eval(estado, jugador)`, literally (with `cEspacio` = `mid`).
    fn report_eval(&self, jugador: u8) -> f64 {
        let otro = 3 - jugador;
        let mine = |v: u8| v == jugador || v == jugador + 3;
        let theirs = |v: u8| v == otro || v == otro + 3;
        let (mut ch, mut cv, mut d1, mut d2, mut mid, mut bomba, mut enem) = (0, 0, 0, 0, 0, 0, 0);
        for i in 0..self.h {
            for j in 0..self.w {
                let v = self.see(i, j);
                if mine(v) {
                    if mine(self.see(i, j + 1)) {
                        ch += 5;
                        if mine(self.see(i, j + 2)) {
                            ch += 15;
                        }
                    }
                    if mine(self.see(i + 1, j)) {
                        cv += 5;
                        if mine(self.see(i + 2, j)) {
                            cv += 15;
                        }
                    }
                    if mine(self.see(i + 1, j + 1)) {
                        d1 += 5;
                        if mine(self.see(i + 2, j + 2)) {
                            d1 += 15;
                        }
                    }
                    if mine(self.see(i + 1, j - 1)) {
                        d2 += 5;
                        if mine(self.see(i + 2, j - 2)) {
                            d2 += 15;
                        }
                    }
                    if v == jugador && j > 2 && j < 5 {
                        mid += 1;
                    }
                    if v == jugador + 3 {
                        bomba += 25;
                    }
                } else if theirs(v) {
                    if theirs(self.see(i, j + 1)) && self.see(i, j + 2) == jugador {
                        enem += 20;
                    }
                    if theirs(self.see(i + 1, j)) && self.see(i + 2, j) == jugador {
                        enem += 20;
                    }
                    if theirs(self.see(i + 1, j + 1)) && self.see(i + 2, j + 2) == jugador {
                        enem += 10;
                    }
                    if theirs(self.see(i + 1, j - 1)) && self.see(i + 2, j - 2) == jugador {
                        enem += 10;
                    }
                }
            }
        }
        (5 * (cv + ch) + mid + enem + bomba) as f64 + (d1 + d2) as f64 * 0.5
    }
}

/// The value of the term `name` for perspective ("own - opp = diff" → diff).
fn term<G: Game>(s: &G, h: usize, p: Side, name: &str) -> (i32, i32) {
    let t = s
        .eval_terms(h, p)
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no term {name}"));
    let (lhs, diff) = t.value.split_once(" = ").unwrap();
    let (own, opp) = lhs.split_once(" - ").unwrap();
    let parts: Vec<i32> = [own, opp, diff]
        .iter()
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(parts[0] - parts[1], parts[2]);
    (parts[0], parts[1])
}

fn c4_positions() -> Vec<Connect4> {
    let mut rng = Rng(99);
    let mut out = Vec::new();
    for g in 0..150 {
        let cfg = [
            Config::default(),
            Config {
                rows: 7,
                columns: 7,
            },
            Config {
                rows: 4,
                columns: 5,
            },
        ][g % 3];
        let mut s = Connect4::start(&cfg);
        let mut m = Moves::default();
        while s.outcome().is_none() {
            out.push(s);
            m.clear();
            s.legal_moves(&mut m);
            s = s.apply(m[rng.below(m.len())]);
        }
    }
    out
}

fn boom_positions() -> Vec<Boom> {
    let mut rng = Rng(77);
    let mut out = Vec::new();
    for game in 0..150 {
        let mut s = Boom::start(&BoomConfig::default());
        let mut m = BoomMoves::default();
        while s.outcome().is_none() {
            out.push(s);
            m.clear();
            s.legal_moves(&mut m);
            // Odd games avoid movements that end the game, so they run long and fill the board.
            let going_on: Vec<_> = m
                .iter()
                .filter(|&&x| s.apply(x).outcome().is_none())
                .collect();
            s = if game % 2 == 1 && !going_on.is_empty() {
                s.apply(*going_on[rng.below(going_on.len())])
            } else if m.len() > 1 && rng.below(4) == 0 {
                s.apply(m[m.len() - 1]) // BOOM when legal, else the last column
            } else {
                s.apply(m[rng.below(m.len())])
            };
        }
    }
    let full = out
        .iter()
        .filter(|s| s.occupied() == tablero::games::boom::BOARD)
        .count();
    assert!(full > 0, "no full board among the positions");
    out
}

/// Bounds and the `eval` command's total for every heuristic; zero-sum for all but those in
/// `one_sided` (BOOM's course `test` scores the asking player's pieces only).
fn common_checks<G: Game>(s: &G, one_sided: &[usize]) {
    for h in 0..G::HEURISTICS.len() {
        let a = s.evaluate(h, Side::First);
        let b = s.evaluate(h, Side::Second);
        if !one_sided.contains(&h) {
            assert_eq!(a, -b, "heuristic {h} is not zero-sum");
        }
        assert!(b.abs() < EVAL_LIMIT);
        assert!(a.abs() < EVAL_LIMIT);
        let terms = s.eval_terms(h, Side::First);
        let total = terms.iter().find(|t| t.name == "total").unwrap();
        assert_eq!(total.value, a.to_string());
    }
}

#[test]
fn connect4_heuristics_match_naive() {
    for s in c4_positions() {
        common_checks(&s, &[]);
        let mut grid = Grid::of_c4(&s);
        for p in [Side::First, Side::Second] {
            let (me, them) = (p.index() as u8 + 1, 2 - p.index() as u8);
            let open = |x: u8| grid.open_by_count(x).iter().sum::<i32>();
            assert_eq!(
                s.evaluate(1, p),
                open(me) - open(them),
                "test\n{}",
                s.display()
            );
            let seed = 2.0 * (grid.report_eval(me) - grid.report_eval(them));
            assert_eq!(s.evaluate(2, p) as f64, seed, "seed\n{}", s.display());
            let w = tablero::games::connect4::eval::DEFAULT_WEIGHTS;
            let weighted = |x: u8| {
                let n = grid.open_by_count(x);
                w.window * (n[1] + 2 * n[2] + 3 * n[3])
            };
            assert_eq!(term(&s, 0, p, "windows"), (weighted(me), weighted(them)));
            // Threats: good_threat on the owner's rows (odd rows from 1 for x, even for o),
            // else threat.
            let mut threat = |x: u8| {
                grid.threats(x)
                    .iter()
                    .map(|&(_, r)| {
                        if r % 2 == (x as i32 - 1) {
                            w.good_threat
                        } else {
                            w.threat
                        }
                    })
                    .sum::<i32>()
            };
            let want = (threat(me), threat(them));
            assert_eq!(term(&s, 0, p, "threats"), want, "\n{}", s.display());
        }
    }
}

#[test]
fn boom_heuristics_match_naive() {
    let mut soon_seen = [0usize; 2];
    for s in boom_positions() {
        common_checks(&s, &[1]);
        let mut grid = Grid::of_boom(&s);
        // Tempo, by trying every PUT (and PUT pair when two movements are left).
        let lowest: Vec<i32> = (0..7)
            .map(|c| (0..7).find(|&r| grid.see(r, c) == 0).unwrap_or(9))
            .collect();
        let mover = s.side_to_move();
        let left = s.movements_left();
        let mut can_win = false;
        for c1 in 0..7 {
            let r1 = lowest[c1 as usize];
            if r1 >= 7 {
                continue;
            }
            let mut g1 = Grid::of_boom(&s);
            g1.g[c1 as usize][r1 as usize] = mover.index() as u8 + 1;
            can_win |= g1.four(mover.index() as u8 + 1);
            if left == 2 {
                for c2 in 0..7 {
                    if let Some(r2) = (0..7).find(|&r| g1.see(r, c2) == 0) {
                        let mut g2 = Grid::new(7, 7, g1.g.clone());
                        g2.g[c2 as usize][r2 as usize] = mover.index() as u8 + 1;
                        can_win |= g2.four(mover.index() as u8 + 1);
                    }
                }
            }
        }
        let other = 2 - mover.index() as u8;
        let other_playable = grid
            .threats(other)
            .iter()
            .filter(|&&(c, r)| r == lowest[c as usize])
            .count() as u32;
        let w = tablero::games::boom::eval::DEFAULT_WEIGHTS;
        // Movements the mover needs to block every winning cell of the other side: one per
        // playable cell, two per cell right above one.
        let other_above = grid
            .threats(other)
            .iter()
            .filter(|&&(c, r)| r == lowest[c as usize] + 1)
            .count() as u32;
        let need = other_playable + 2 * other_above;
        // The other side's two-movement windows (as `hot` below counts them).
        let other_hot = grid
            .windows()
            .iter()
            .filter(|win| {
                let reachable =
                    |c: i32, r: i32| r == lowest[c as usize] || r == lowest[c as usize] + 1;
                let own = win
                    .iter()
                    .filter(|&&(c, r)| Grid::owner(grid.see(r, c)) == other);
                let empty_ok = win.iter().all(|&(c, r)| {
                    let o = Grid::owner(grid.see(r, c));
                    o == other || (o == 0 && reachable(c, r))
                });
                own.count() == 2 && empty_ok
            })
            .count() as u32;
        let for_mover = if can_win {
            w.tempo
        } else if other_playable > left {
            -w.tempo
        } else if need > left {
            -w.doom
        } else if need + other_hot > left {
            -w.doom_hot
        } else {
            0
        };
        // A bomb on the way: a side with no bomb whose next turn is its 4th, 8th, … can put
        // it and explode it at once, taking the opponent's pieces of the fullest row a `PUT`
        // reaches (the side to move only with both movements left).
        let has_bomb = |x: u8| (0..7).any(|c| (0..7).any(|r| grid.see(r, c) == x + 3));
        let victims = |x: u8| {
            (0..7)
                .filter(|&c| lowest[c as usize] < 7)
                .map(|c| {
                    (0..7)
                        .filter(|&c2| Grid::owner(grid.see(lowest[c as usize], c2)) == 3 - x)
                        .count() as i32
                })
                .max()
                .unwrap_or(0)
        };
        let me_now = mover.index() as u8 + 1;
        let n = s.movement();
        let mut soon = 0;
        if left == 2 && !has_bomb(me_now) && naive_turn(n).is_multiple_of(4) {
            soon += victims(me_now);
        }
        if !has_bomb(3 - me_now) && naive_turn(n + left as u16).is_multiple_of(4) {
            soon -= victims(3 - me_now);
        }
        let soon = w.bomb_soon * soon;
        for p in [Side::First, Side::Second] {
            let (me, them) = (p.index() as u8 + 1, 2 - p.index() as u8);
            // The course's ValoracionTest: Puntuacion(jugador), or 0 on a full board; the
            // core's See_Casilla(i, j) == jugador never matches a bomb (codes 4 and 5).
            let full = (0..7).all(|c| grid.see(6, c) != 0);
            let puntuacion: i32 = (0..7)
                .flat_map(|i| (0..7).map(move |j| (i, j)))
                .filter(|&(i, j)| grid.see(i, j) == me)
                .map(|(_, j)| if j < 3 { j } else { 6 - j })
                .sum();
            let test = if full { 0 } else { puntuacion };
            assert_eq!(s.evaluate(1, p), test, "test\n{}", s.display());
            let seed = if full {
                0.0
            } else {
                2.0 * (grid.report_eval(me) - grid.report_eval(them))
            };
            assert_eq!(s.evaluate(2, p) as f64, seed, "seed\n{}", s.display());
            let w = tablero::games::boom::eval::DEFAULT_WEIGHTS;
            let weighted = |x: u8| {
                let n = grid.open_by_count(x);
                w.window * (n[1] + 2 * n[2] + 3 * n[3])
            };
            assert_eq!(term(&s, 0, p, "windows"), (weighted(me), weighted(them)));
            let mut threat = |x: u8| w.threat * grid.threats(x).len() as i32;
            let want = (threat(me), threat(them));
            assert_eq!(term(&s, 0, p, "threats"), want, "\n{}", s.display());
            // Bomb: `bomb` + `bomb_victim` per opponent piece in the bomb's row.
            let bomb = |x: u8| {
                (0..7)
                    .flat_map(|c| (0..7).map(move |r| (c, r)))
                    .find(|&(c, r)| grid.see(r, c) == x + 3)
                    .map_or(0, |(_, r)| {
                        w.bomb
                            + w.bomb_victim
                                * (0..7)
                                    .filter(|&c| Grid::owner(grid.see(r, c)) == 3 - x)
                                    .count() as i32
                    })
            };
            assert_eq!(term(&s, 0, p, "bomb"), (bomb(me), bomb(them)));
            // Hot: `hot` per open window with two own pieces and both empty cells playable or
            // right above a playable cell.
            let lowest: Vec<i32> = (0..7)
                .map(|c| (0..7).find(|&r| grid.see(r, c) == 0).unwrap_or(9))
                .collect();
            let reachable = |c: i32, r: i32| r == lowest[c as usize] || r == lowest[c as usize] + 1;
            let hot = |x: u8| {
                w.hot
                    * grid
                        .windows()
                        .iter()
                        .filter(|w| {
                            let own = w.iter().filter(|&&(c, r)| Grid::owner(grid.see(r, c)) == x);
                            let empty_ok = w.iter().all(|&(c, r)| {
                                let o = Grid::owner(grid.see(r, c));
                                o == x || (o == 0 && reachable(c, r))
                            });
                            own.count() == 2 && empty_ok
                        })
                        .count() as i32
            };
            assert_eq!(term(&s, 0, p, "hot"), (hot(me), hot(them)));
            let want = if mover == p { for_mover } else { -for_mover };
            let got = s
                .eval_terms(0, p)
                .into_iter()
                .find(|t| t.name == "tempo")
                .unwrap()
                .value;
            assert_eq!(got, want.to_string(), "tempo\n{}", s.display());
            let want = if mover == p { soon } else { -soon };
            let got = s
                .eval_terms(0, p)
                .into_iter()
                .find(|t| t.name == "bomb soon")
                .unwrap()
                .value;
            assert_eq!(got, want.to_string(), "bomb soon\n{}", s.display());
        }
        soon_seen[usize::from(soon > 0)] += usize::from(soon != 0);
    }
    // Both signs met: the side to move's own bomb on the way and the waiting side's.
    assert!(soon_seen[0] > 0 && soon_seen[1] > 0, "{soon_seen:?}");
}

/// The turn number (counted per player) of movement `n`, by walking the turn order: movement
/// 1 is the first player's first turn, then two movements a turn, the players alternating.
fn naive_turn(n: u16) -> u16 {
    let mut turns = [1u16, 0];
    let (mut side, mut left) = (0usize, 1u16);
    for _ in 1..n {
        left -= 1;
        if left == 0 {
            side = 1 - side;
            turns[side] += 1;
            left = 2;
        }
    }
    turns[side]
}

#[test]
fn heuristics_see_an_obvious_advantage() {
    // x has three in a row on the bottom, open on the right; o has scattered stones.
    let s = Connect4::parse_fen("7/7/7/7/7/oxxx2o o", &Config::default()).unwrap();
    for h in 0..3 {
        assert!(s.evaluate(h, Side::First) > 0, "heuristic {h}");
    }
    // x to move with a playable winning cell: the default heuristic's tempo term sees it.
    let s = Connect4::parse_fen("7/7/7/7/5o1/1xxx1oo x", &Config::default()).unwrap();
    assert!(s.evaluate(0, Side::First) >= tablero::games::connect4::eval::DEFAULT_WEIGHTS.tempo);
    let b = Boom::parse_fen("7/7/7/7/7/5o1/1xxx1oo x 8", &BoomConfig::default()).unwrap();
    assert!(b.evaluate(0, Side::First) >= tablero::games::boom::eval::DEFAULT_WEIGHTS.tempo);
}
