//! Kalah board types shared by the exact solver (`kalah`) and the endgame database
//! (`kalahdb`): the rules variant, the mover-relative board and its sowing, and the
//! combinatorial ranking of pit vectors that keys the solver's table and indexes the database.

/// Rules the database (and the solver) plays by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rules {
    /// The course's rules (rules page `mancala.md`): a last seed in an own empty pit captures
    /// only if the facing pit has seeds.
    #[default]
    Course,
    /// Irving, Donkers & Uiterwijk's Kalah: a last seed in an own empty pit is captured even
    /// when the facing pit is empty. Used to cross-check the solver against the published
    /// values; no game in the engine plays it.
    EmptyCapture,
}

impl Rules {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Rules::Course => "course",
            Rules::EmptyCapture => "empty-capture",
        }
    }

    pub(crate) fn code(self) -> u32 {
        match self {
            Rules::Course => 0,
            Rules::EmptyCapture => 1,
        }
    }
}

/// What follows a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// The game ended (pits swept).
    Over,
    /// The mover moves again (last seed in its store).
    Again,
    /// The turn passes.
    Other,
}

/// A mover-relative board: `p[0..m]` the mover's pits in sowing order (`p[m-1]` next to its
/// store), `p[m..2m]` the opponent's. Stores are not kept: the search only needs gains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    pub(crate) p: [u8; 16],
}

/// A played move: the child board (oriented for whoever moves next), the mover's net gain,
/// the seeds left in pits and what follows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    pub(crate) board: Board,
    pub(crate) gain: i32,
    pub(crate) seeds: usize,
    pub(crate) next: Next,
}

impl Played {
    pub(crate) const NONE: Played = Played {
        board: Board { p: [0; 16] },
        gain: 0,
        seeds: 0,
        next: Next::Over,
    };
}

/// A byte of 1 in each of the 8 bytes.
pub(crate) const ONES: u64 = u64::MAX / 255;

/// A mask of the low `n < 8` bytes.
#[inline]
fn low_bytes(n: usize) -> u64 {
    (1u64 << (8 * n)) - 1
}

/// The sum of the bytes of `x` (their sum below 256).
#[inline]
pub(crate) fn byte_sum(x: u64) -> usize {
    (x.wrapping_mul(ONES) >> 56) as usize
}

impl Board {
    #[inline]
    pub(crate) fn seeds(&self, m: usize) -> usize {
        self.p[..2 * m].iter().map(|&x| x as usize).sum()
    }

    /// Plays the mover's pit at relative index `t0` (course pit `m - t0`), with the game's
    /// rules (see `Mancala::apply`, which a test checks this against): sow skipping the
    /// opponent's store (the origin is sown into again on long laps); last seed in the own
    /// store moves again; last seed in an own empty pit captures it with a non-empty facing pit;
    /// once either row is empty both sides bank their own pits. `ec`: Irving's empty capture
    /// (a last seed in an own empty pit is captured even against an empty facing pit).
    ///
    /// Each row is sown as one 64-bit word, a byte per pit: a lap adds one to every pit, the
    /// rest of the seeds one to a run of pits on each row. The database fill and the search
    /// spend most of their instructions here (a loop over the holes cost about 130 a move).
    #[inline]
    pub(crate) fn play(&self, m: usize, t0: usize, ec: bool) -> Played {
        self.play_in::<0>(m, t0, ec)
    }

    /// [`Board::play`] compiled for `M` pits (0: `m`), so that the masks and the division by
    /// the lap are constants.
    #[inline(always)]
    pub(crate) fn play_in<const M: usize>(&self, m: usize, t0: usize, ec: bool) -> Played {
        let m = if M > 0 { M } else { m };
        let row = low_bytes(m);
        let own = u64::from_le_bytes(self.p[..8].try_into().unwrap_or([0; 8])) & row;
        let opp = u64::from_le_bytes(self.p[m..m + 8].try_into().unwrap_or([0; 8])) & row;
        let w = sow::<M>(m, own, opp, t0, ec);
        if w.own_n == 0 || w.opp_n == 0 {
            return Played {
                board: Board { p: [0; 16] },
                gain: w.gain + w.own_n as i32 - w.opp_n as i32,
                seeds: 0,
                next: Next::Over,
            };
        }
        let (first, second) = if w.next == Next::Again {
            (w.own, w.opp)
        } else {
            (w.opp, w.own)
        };
        // The second row's bytes overwrite the first's unused top bytes (zero).
        let mut p = [0u8; 16];
        p[..8].copy_from_slice(&first.to_le_bytes());
        p[m..m + 8].copy_from_slice(&second.to_le_bytes());
        Played {
            board: Board { p },
            gain: w.gain,
            seeds: w.own_n + w.opp_n,
            next: w.next,
        }
    }
}

/// A move sown on the two rows of a board, each a 64-bit word with pit `i` in byte `i`, before
/// the board is turned for the next mover or swept at the end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sown {
    /// The mover's row and the opponent's after the move.
    pub(crate) own: u64,
    pub(crate) opp: u64,
    /// The seeds in each row: the game ends (`Next::Over`, both rows swept into their stores)
    /// when either is 0.
    pub(crate) own_n: usize,
    pub(crate) opp_n: usize,
    /// The mover's net gain so far (seeds sown into its store, captures).
    pub(crate) gain: i32,
    /// `Again` or `Other`; see `own_n` for the end of the game.
    pub(crate) next: Next,
}

/// Sows the mover's pit `t0` of a board of `m` pits a side given as rows (see [`Board::play`]
/// for the rules), compiled for `M` pits (0: `m`). A lap adds one to every pit, the rest of the
/// seeds one to a run of pits on each row.
#[inline(always)]
pub(crate) fn sow<const M: usize>(m: usize, own: u64, opp: u64, t0: usize, ec: bool) -> Sown {
    let m = if M > 0 { M } else { m };
    debug_assert!(m <= 7 && t0 < m);
    let lap = 2 * m + 1;
    let row = low_bytes(m);
    let s = (own >> (8 * t0)) as u8 as usize;
    let mut own = own & !(0xff << (8 * t0));
    let mut opp = opp;
    let (q, r) = if s < lap { (0, s) } else { (s / lap, s % lap) };
    let mut gain = q as i32;
    if q > 0 {
        own += q as u64 * (ONES & row);
        opp += q as u64 * (ONES & row);
    }
    // The rest: own pits t0+1.., the store, the opponent's pits, own pits again from 0.
    let end = t0 + r;
    own += ONES & low_bytes(end.min(m - 1) + 1) & !low_bytes(t0 + 1);
    let mut tl = end;
    if end >= m {
        gain += 1;
        opp += ONES & low_bytes((end - m).min(m));
        if end >= lap {
            tl = end - lap;
            own += ONES & low_bytes(tl + 1);
        }
    }
    let mut next = Next::Other;
    if tl == m {
        next = Next::Again;
    } else if tl < m && (own >> (8 * tl)) as u8 == 1 {
        // The facing pit of own pit t is the opponent's pit m - 1 - t.
        let f = m - 1 - tl;
        let fv = (opp >> (8 * f)) as u8;
        if fv > 0 || ec {
            gain += 1 + fv as i32;
            own &= !(0xff << (8 * tl));
            opp &= !(0xff << (8 * f));
        }
    }
    Sown {
        own,
        opp,
        own_n: byte_sum(own),
        opp_n: byte_sum(opp),
        gain,
        next,
    }
}

/// Ranks pit vectors: the position of a vector of `n` pits holding at most `k` seeds in all
/// among all such vectors, in lexicographic order. It is a bijection onto `0..C(k + n, n)`,
/// so a rank is an exact key (the table's, with `k` = all seeds) and a dense index (the
/// database's, with `k` = its seed limit).
///
/// With `V(j, b) = C(b + j, j)` the number of vectors of `j` pits holding at most `b` seeds and
/// `b_i` the budget left after pit `i`, the vectors before `x` are `sum_i V(n-i, b_{i-1}) -
/// V(n-i, b_i)`; Pascal's rule `V(j, b) = V(j-1, b) + V(j, b-1)` telescopes that to
/// `V(n, k) - 1 - sum_i V(n-i, b_i - 1)`: one table load per pit.
pub(crate) struct Ranker {
    n: usize,
    /// Largest `k` the tables cover.
    pub(crate) t: usize,
    /// `h[i * (t + 2) + c] = V(n - i, c - 1)` (0 for `c = 0`), saturating.
    h: Vec<u64>,
    /// `V(n, k)` for `k <= t`, saturating.
    counts: Vec<u64>,
}

impl Ranker {
    pub(crate) fn new(n: usize, t: usize) -> Self {
        // v[j][b] = V(j, b) for j <= n, b <= t, by Pascal's rule.
        let w = t + 1;
        let mut v = vec![1u64; (n + 1) * w];
        for j in 1..=n {
            for b in 1..=t {
                v[j * w + b] = v[(j - 1) * w + b].saturating_add(v[j * w + b - 1]);
            }
        }
        let mut h = vec![0u64; n * (t + 2)];
        for i in 0..n {
            for c in 1..t + 2 {
                h[i * (t + 2) + c] = v[(n - i) * w + c - 1];
            }
        }
        let counts = (0..=t).map(|b| v[n * w + b]).collect();
        Ranker { n, t, h, counts }
    }

    /// The term of pit `i` with `c` seeds left after it (see the type's note): the vectors
    /// `rank` subtracts; 0 beyond the table.
    pub(crate) fn term(&self, i: usize, c: usize) -> u64 {
        if i < self.n && c < self.t + 2 {
            self.h[i * (self.t + 2) + c]
        } else {
            0
        }
    }

    /// The number of vectors with at most `k` seeds, `C(k + n, n)`; `u64::MAX` if it does not
    /// fit (then ranks with this `k` are not exact).
    pub(crate) fn count(&self, k: usize) -> u64 {
        self.counts[k]
    }

    /// Rank of `pits` (whose sum is at most `k <= t`) among vectors with at most `k` seeds.
    #[inline]
    pub(crate) fn rank(&self, pits: &[u8], k: usize) -> u64 {
        self.rank_in::<0>(pits, k)
    }

    /// [`Ranker::rank`] compiled for `N` pits (0: `n`), so that the loop unrolls.
    #[inline(always)]
    pub(crate) fn rank_in<const N: usize>(&self, pits: &[u8], k: usize) -> u64 {
        let n = if N > 0 { N } else { self.n };
        debug_assert_eq!(n, self.n);
        let w = self.t + 2;
        let mut b = k;
        let mut r = self.counts[k].wrapping_sub(1);
        let mut row = 0;
        for &x in &pits[..n] {
            b -= x as usize;
            r = r.wrapping_sub(self.h[row + b]);
            row += w;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranks are a bijection onto `0..C(k + n, n)` in lexicographic order (so keys are exact and
    /// database indices dense): the vectors of 4 pits with at most 6 seeds, enumerated in
    /// lexicographic order, get the ranks 0, 1, 2, ... up to the count.
    #[test]
    fn ranks_are_dense_and_lexicographic() {
        let r = Ranker::new(4, 9);
        let k = 6;
        let mut next = 0u64;
        for a in 0..=k as u8 {
            for b in 0..=k as u8 - a {
                for c in 0..=k as u8 - a - b {
                    for d in 0..=k as u8 - a - b - c {
                        assert_eq!(r.rank(&[a, b, c, d], k), next, "{a} {b} {c} {d}");
                        next += 1;
                    }
                }
            }
        }
        assert_eq!(next, r.count(k));
        assert_eq!(r.count(k), 210); // C(10, 4)
    }
}
