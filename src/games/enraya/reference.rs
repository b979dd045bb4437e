//! A slow, obviously correct model of the course core's `Tablero` for the tests: a grid of
//! numbers, every rule written out as the core applies it (placement, specials, the change of
//! player, the pass, the full scan for lines after every placement, the tie-break), nothing
//! incremental. The fast [`Enraya`] must agree with it move by move.

use super::{Enraya, Move};
use crate::core::game::{Game, Outcome, Side};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Normal,
    Red,
    Yellow,
    Green,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub rows: usize,
    pub cols: usize,
    pub n: usize,
    /// 0 empty, 1, 2.
    pub grid: Vec<Vec<u8>>,
    pub kinds: Vec<Vec<Kind>>,
    /// 1 or 2.
    pub player: u8,
    pub left: i64,
    pub phase: i64,
    pub turn: i64,
}

const STEPS: [(i64, i64); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl Reference {
    pub fn new(rows: usize, cols: usize, n: usize) -> Reference {
        let ninja = rows == 9 && cols == 9 && n == 5;
        let mut r = Reference {
            rows,
            cols,
            n,
            grid: vec![vec![0; cols]; rows],
            kinds: vec![vec![Kind::Normal; cols]; rows],
            player: 1,
            left: 1,
            phase: if ninja { 2 } else { 0 },
            turn: if ninja { 4 } else { 0 },
        };
        if ninja {
            r.grid[4][0] = 1;
            r.grid[0][4] = 1;
            r.grid[4][8] = 2;
            r.grid[8][4] = 2;
            for (f, c) in [(4, 4), (3, 4), (5, 4), (4, 3), (4, 5)] {
                r.kinds[f][c] = Kind::Red;
            }
            for (f, c) in [(2, 4), (6, 4), (4, 2), (4, 6)] {
                r.kinds[f][c] = Kind::Yellow;
            }
            for (f, c) in [(1, 1), (1, 7), (7, 1), (7, 7)] {
                r.kinds[f][c] = Kind::Green;
            }
        }
        r
    }

    /// The same position as `s`, read cell by cell through its accessors.
    pub fn of(s: &Enraya) -> Reference {
        let mut r = Reference::new(s.rows() as usize, s.cols() as usize, s.in_a_row() as usize);
        for f in 0..r.rows {
            for c in 0..r.cols {
                r.grid[f][c] = match s.cell(f, c) {
                    None => 0,
                    Some(Side::First) => 1,
                    Some(Side::Second) => 2,
                };
            }
        }
        r.player = s.side_to_move().index() as u8 + 1;
        r.left = s.left() as i64;
        r.phase = s.phase() as i64;
        r.turn = s.turn() as i64;
        r
    }

    pub fn ninja(&self) -> bool {
        self.rows == 9 && self.cols == 9 && self.n == 5
    }

    fn at(&self, f: i64, c: i64) -> Option<u8> {
        if f < 0 || c < 0 || f >= self.rows as i64 || c >= self.cols as i64 {
            None
        } else {
            Some(self.grid[f as usize][c as usize])
        }
    }

    fn full(&self) -> bool {
        self.grid.iter().flatten().all(|&v| v != 0)
    }

    fn empty(&self) -> bool {
        self.grid.iter().flatten().all(|&v| v == 0)
    }

    /// Run of `len` cells of `who` starting at (f, c) in direction `k`.
    fn run(&self, f: usize, c: usize, k: usize, len: usize, who: u8) -> bool {
        let (df, dc) = STEPS[k];
        (0..len as i64).all(|i| self.at(f as i64 + df * i, c as i64 + dc * i) == Some(who))
    }

    pub fn windows(&self, len: usize, who: u8) -> usize {
        let mut n = 0;
        for f in 0..self.rows {
            for c in 0..self.cols {
                for k in 0..4 {
                    if self.run(f, c, k, len, who) {
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// The core's verdict: 0 running, 1 or 2 a winner, -1 a draw; and the winning line.
    pub fn winner(&self) -> (i32, Vec<(u8, u8)>) {
        for f in 0..self.rows {
            for c in 0..self.cols {
                let who = self.grid[f][c];
                if who == 0 {
                    continue;
                }
                for (k, &(df, dc)) in STEPS.iter().enumerate() {
                    if self.run(f, c, k, self.n, who) {
                        let line = (0..self.n as i64)
                            .map(|i| ((f as i64 + df * i) as u8, (c as i64 + dc * i) as u8))
                            .collect();
                        return (who as i32, line);
                    }
                }
            }
        }
        if !self.full() {
            return (0, vec![]);
        }
        if !self.ninja() {
            return (-1, vec![]);
        }
        let (a, b) = (self.windows(4, 1), self.windows(4, 2));
        (
            match a.cmp(&b) {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => -1,
            },
            vec![],
        )
    }

    fn adjacent(&self, f: usize, c: usize) -> bool {
        for df in -1..=1 {
            for dc in -1..=1 {
                if (df, dc) != (0, 0)
                    && matches!(self.at(f as i64 + df, c as i64 + dc), Some(v) if v != 0)
                {
                    return true;
                }
            }
        }
        false
    }

    /// The placements, row-major.
    pub fn placements(&self) -> Vec<(usize, usize)> {
        if self.winner().0 != 0 {
            return vec![];
        }
        let empty = self.empty();
        let mut out = vec![];
        for f in 0..self.rows {
            for c in 0..self.cols {
                if self.grid[f][c] != 0 {
                    continue;
                }
                if self.ninja()
                    && ((f + c) as i64 % 3 != self.phase % 3 || !(empty || self.adjacent(f, c)))
                {
                    continue;
                }
                out.push((f, c));
            }
        }
        out
    }

    /// The legal moves in the core's order: the placements, or a pass alone when there is none
    /// and the game goes on.
    pub fn legal(&self) -> Vec<Move> {
        if self.winner().0 != 0 {
            return vec![];
        }
        let p = self.placements();
        if p.is_empty() {
            return vec![Move::Pass];
        }
        p.into_iter()
            .map(|(f, c)| Move::Place {
                row: f as u8,
                col: c as u8,
            })
            .collect()
    }

    pub fn play(&self, m: Move) -> Reference {
        let mut r = self.clone();
        match m {
            Move::Pass => {
                r.turn += 1;
                if r.player == 2 {
                    r.phase += 1;
                }
                r.player = 3 - r.player;
            }
            Move::Place { row, col } => {
                let (f, c) = (row as usize, col as usize);
                let kind = r.kinds[f][c];
                r.grid[f][c] = if kind == Kind::Red {
                    3 - r.player
                } else {
                    r.player
                };
                if kind == Kind::Yellow {
                    for i in 0..r.rows {
                        if i != f {
                            r.grid[i][c] = 0;
                        }
                    }
                    for j in 0..r.cols {
                        if j != c {
                            r.grid[f][j] = 0;
                        }
                    }
                }
                r.turn += 1;
                r.left -= 1;
                if kind == Kind::Green {
                    r.left += 1;
                }
                if r.left <= 0 || r.winner().0 != 0 {
                    r.player = 3 - r.player;
                    r.left = if r.ninja() { 2 } else { 1 };
                    r.phase += 1;
                }
            }
        }
        r
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.winner().0 {
            0 => None,
            1 => Some(Outcome::Win(Side::First)),
            2 => Some(Outcome::Win(Side::Second)),
            _ => Some(Outcome::Draw),
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }
}

/// Panics with `what` unless the fast position and the model agree on everything the core
/// shows: grid, counters, result, winning line and the legal moves in order.
pub fn assert_same(s: &Enraya, r: &Reference, what: &str) {
    let fast = Reference::of(s);
    assert_eq!(fast.grid, r.grid, "{what}: grid");
    assert_eq!(
        (fast.player, fast.left, fast.phase, fast.turn),
        (r.player, r.left, r.phase, r.turn),
        "{what}: player, left, phase, turn"
    );
    assert_eq!(s.outcome(), r.outcome(), "{what}: result");
    let (_, line) = r.winner();
    assert_eq!(
        s.winning_line().map(|(_, l)| l).unwrap_or_default(),
        line,
        "{what}: winning line"
    );
    let mut moves = super::Moves::new();
    s.legal_moves(&mut moves);
    assert_eq!(moves.to_vec(), r.legal(), "{what}: legal moves");
}
