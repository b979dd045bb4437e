//! Who plays whom, in which order, from which opening: a pure function of the number of engines,
//! the format and the rounds.
//!
//! Every format plays colour-swapped pairs of games: pair `p` holds games `2p` and `2p + 1`, is
//! played from opening number `round`, and engine `a` of the pairing `(a, b)` moves first in
//! the first game of the pair, `b` in the second. Round `r` plays every pairing once as one pair:
//! round-robin every `(a, b)` with `a < b` in lexicographic order, gauntlet each of the first
//! `heads` engines (usually one) against each other one, head by head; pairs are numbered round
//! by round. A match is the round-robin of two
//! engines without a fixed number of rounds (it plays as many games as it is asked to, and a
//! resumed match may play more). Shard `K/N` plays the pairs `p` with `p mod N = K - 1`: every
//! shard gets every N-th pair, so shards are within one pair of each other in size and each
//! mixes all pairings and rounds.

use super::error::ParseError;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Two engines, as many pairs as wanted.
    Match,
    /// Every pair of engines.
    RoundRobin,
    /// Each of the first engines (the schedule's `heads`) against each other one.
    Gauntlet,
}

impl Pairing {
    /// The name in records (`settings.format`).
    pub fn name(self) -> &'static str {
        match self {
            Pairing::Match => "match",
            Pairing::RoundRobin => "round-robin",
            Pairing::Gauntlet => "gauntlet",
        }
    }

    /// Inverse of [`Pairing::name`] (also `roundrobin`).
    pub fn from_name(s: &str) -> Option<Pairing> {
        match s {
            "match" => Some(Pairing::Match),
            "round-robin" | "roundrobin" => Some(Pairing::RoundRobin),
            "gauntlet" => Some(Pairing::Gauntlet),
            _ => None,
        }
    }
}

/// The deterministic schedule (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub engines: usize,
    pub pairing: Pairing,
    /// `None`: open-ended (a match).
    pub rounds: Option<usize>,
    /// A gauntlet's heads: the first `heads` engines each play every engine after them (1: the
    /// classic gauntlet of one engine; a class plays its built-ins against every student).
    /// Ignored by the other pairings.
    pub heads: usize,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub index: usize,
    pub round: usize,
    /// Engine 1 and engine 2 of the game (indices in the engine list, engine 1 first).
    pub engines: [usize; 2],
    /// 0 when engine 1 moves first, 1 when engine 2 does.
    pub first: usize,
}

/// Shard `k` of `n` (`1 <= k <= n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// Parses `K/N` (1 ≤ K ≤ N).
    pub fn parse(s: &str) -> Result<Shard, ParseError> {
        let bad = || {
            ParseError::Shard(format!(
                "expected K/N with 1 <= K <= N (e.g. 2/3), got '{s}'"
            ))
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// `K/N`.
    pub fn label(self) -> String {
        format!("{}/{}", self.k, self.n)
    }
}

impl Schedule {
    /// Pairings per round.
    pub fn pairings(&self) -> usize {
        let n = self.engines;
        match self.pairing {
            Pairing::RoundRobin | Pairing::Match => n * n.saturating_sub(1) / 2,
            Pairing::Gauntlet => {
                let h = self.heads.clamp(1, n.max(1));
                h * n.saturating_sub(h)
            }
        }
    }

    /// Pairs in all (`None`: open-ended).
    pub fn pairs(&self) -> Option<usize> {
        self.rounds.map(|r| self.pairings() * r)
    }

    /// Games in all (`None`: open-ended).
    pub fn games(&self) -> Option<usize> {
        self.pairs().map(|p| 2 * p)
    }

    /// Pairing `k` of a round (`k < pairings()`).
    fn pairing(&self, k: usize) -> [usize; 2] {
        match self.pairing {
            Pairing::Gauntlet => {
                let h = self.heads.clamp(1, self.engines.max(1));
                let others = self.engines.saturating_sub(h).max(1);
                [k / others, h + k % others]
            }
            Pairing::RoundRobin | Pairing::Match => {
                // Row a holds the pairings (a, a+1..n): n-1-a of them.
                let n = self.engines;
                let mut a = 0;
                let mut k = k;
                while k >= n - 1 - a {
                    k -= n - 1 - a;
                    a += 1;
                }
                [a, a + 1 + k]
            }
        }
    }

    /// Game `i` (below `games()` when the schedule is closed).
    pub fn game(&self, i: usize) -> Scheduled {
        let p = i / 2;
        let per = self.pairings().max(1);
        Scheduled {
            index: i,
            round: p / per,
            engines: self.pairing(p % per),
            first: i % 2,
        }
    }

    /// The games of `shard` (all when `None`), in order, below `limit` (which an open-ended
    /// schedule needs): pairs `p ≡ k - 1 (mod n)`.
    pub fn shard_games(&self, shard: Option<Shard>, limit: Option<usize>) -> Vec<usize> {
        let Shard { k, n } = shard.unwrap_or(Shard { k: 1, n: 1 });
        let games = match (self.games(), limit) {
            (Some(g), Some(l)) => g.min(l),
            (Some(g), None) => g,
            (None, Some(l)) => l,
            (None, None) => 0,
        };
        (k - 1..games.div_ceil(2))
            .step_by(n)
            .flat_map(|p| [2 * p, 2 * p + 1])
            .filter(|&i| i < games)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_schedule() {
        let s = Schedule {
            engines: 4,
            pairing: Pairing::RoundRobin,
            rounds: Some(2),
            heads: 1,
        };
        assert_eq!((s.pairings(), s.games()), (6, Some(24)));
        let first_round: Vec<[usize; 2]> = (0..6).map(|p| s.game(2 * p).engines).collect();
        assert_eq!(
            first_round,
            vec![[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        let g = s.game(13);
        assert_eq!((g.round, g.engines, g.first), (1, [0, 1], 1));
        let g = Schedule {
            engines: 4,
            pairing: Pairing::Gauntlet,
            rounds: Some(1),
            heads: 1,
        };
        assert_eq!(g.games(), Some(6));
        assert_eq!(g.game(5).engines, [0, 3]);
        // Two heads (a class's built-ins) against three students, head by head.
        let g = Schedule {
            engines: 5,
            pairing: Pairing::Gauntlet,
            rounds: Some(2),
            heads: 2,
        };
        assert_eq!((g.pairings(), g.games()), (6, Some(24)));
        let round: Vec<[usize; 2]> = (0..6).map(|p| g.game(2 * p).engines).collect();
        assert_eq!(round, vec![[0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4]]);
        assert_eq!(g.game(13).engines, [0, 2]);
    }

    #[test]
    fn a_match_is_an_open_round_robin_of_two() {
        let m = Schedule {
            engines: 2,
            pairing: Pairing::Match,
            rounds: None,
            heads: 1,
        };
        assert_eq!(m.games(), None);
        assert_eq!(m.shard_games(None, Some(5)), vec![0, 1, 2, 3, 4]);
        for i in 0..9 {
            let g = m.game(i);
            assert_eq!((g.round, g.engines, g.first), (i / 2, [0, 1], i % 2));
        }
    }

    #[test]
    fn shards_partition_the_schedule() {
        let s = Schedule {
            engines: 7,
            pairing: Pairing::RoundRobin,
            rounds: Some(3),
            heads: 1,
        };
        let mut all = Vec::new();
        let mut sizes = Vec::new();
        for k in 1..=4 {
            let g = s.shard_games(Some(Shard { k, n: 4 }), None);
            sizes.push(g.len());
            all.extend(g);
        }
        all.sort();
        assert_eq!(all, (0..s.games().unwrap()).collect::<Vec<_>>());
        assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 2);
        assert_eq!(Shard::parse("2/3"), Ok(Shard { k: 2, n: 3 }));
        for bad in ["0/3", "4/3", "x", "1/0", "2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
