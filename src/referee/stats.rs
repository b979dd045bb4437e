//! Match statistics: Elo difference with a 95 % interval from the plain trinomial (win/draw/loss
//! per game) and from the pentanomial (the five possible scores of a colour-swapped pair, as
//! fastchess does), likelihood of superiority, and the sequential probability ratio test.
//!
//! Conventions (fastchess's): the score `s` is a mean in 0..1; Elo is `-400·log10(1/s − 1)`;
//! the interval maps `s ± 1.959963984540054·σ` through that function and the reported error is
//! half its width. σ is the standard error of the mean: per game (trinomial) or per pair
//! (pentanomial, pair scores normalised to 0, ¼, ½, ¾, 1), so the pentanomial one accounts for
//! the correlation between the two games of an opening.
//!
//! The SPRT is the generalised SPRT of fishtest and fastchess (Michel Van den Bergh) with
//! logistic Elo bounds: with `s0 = L(elo0)`, `s1 = L(elo1)`, each hypothesis' distribution is the
//! maximum-likelihood distribution over the observed outcomes whose mean is `s0` (resp. `s1`),
//! `LLR = Σ nᵢ·ln(p1ᵢ/p0ᵢ)`, and the test stops when the LLR leaves
//! `(ln(β/(1−α)), ln((1−β)/α))`. Its normal approximation
//! `(s1 − s0)·(2s − s0 − s1) / (2σ²)` (σ² the variance of the mean) is kept as a cross-check and
//! as the fallback when the maximum-likelihood problem is degenerate (e.g. only one outcome seen).

use std::collections::BTreeMap;

use super::error::ParseError;
use super::game::{GameRecord, Reason};

/// 95 % two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference of a score in 0..1 (infinite at 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of an Elo difference (inverse of [`elo_of_score`]).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score (0..1).
    pub score: f64,
    pub elo: f64,
    /// Half the width of the 95 % interval (Elo).
    pub error: f64,
    /// Standard error of the mean score.
    pub stderr: f64,
    /// Likelihood of superiority (0..1) from the same normal model.
    pub los: f64,
}

/// Estimate from outcomes `values[i]` (in 0..1) observed `counts[i]` times each.
fn estimate(values: &[f64], counts: &[u64]) -> Option<EloEstimate> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mean: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / nf;
    let var: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| c as f64 * (v - mean).powi(2))
        .sum::<f64>()
        / nf;
    let stderr = (var / nf).sqrt();
    let hi = elo_of_score(mean + Z95 * stderr);
    let lo = elo_of_score(mean - Z95 * stderr);
    let los = if stderr > 0.0 {
        0.5 * (1.0 + erf((mean - 0.5) / (stderr * std::f64::consts::SQRT_2)))
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(EloEstimate {
        score: mean,
        // `+ 0.0` turns the -0.0 of an even score into 0.0 for display.
        elo: elo_of_score(mean) + 0.0,
        error: (hi - lo) / 2.0,
        stderr,
        los,
    })
}

/// Trinomial estimate from wins, draws and losses (one engine's view).
pub fn trinomial(wins: u64, draws: u64, losses: u64) -> Option<EloEstimate> {
    estimate(&[1.0, 0.5, 0.0], &[wins, draws, losses])
}

/// Pentanomial estimate from pair counts: `pairs[k]` = pairs in which the engine scored `k/2`
/// points (k = 0 for two losses … 4 for two wins).
pub fn pentanomial(pairs: [u64; 5]) -> Option<EloEstimate> {
    estimate(&[0.0, 0.25, 0.5, 0.75, 1.0], &pairs)
}

/// The classic likelihood of superiority from wins and losses only (draws carry no
/// information): `½·(1 + erf((W − L)/√(2(W + L))))`.
pub fn los_wl(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// The error function (Abramowitz–Stegun 7.1.26, absolute error below 1.5e-7: plenty for
/// percentages, and no dependency).
pub fn erf(x: f64) -> f64 {
    if x == 0.0 {
        // The approximation is 1e-9 off at 0; an even score must give a LOS of exactly 50 %.
        return 0.0;
    }
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// The maximum-likelihood distribution over the outcomes of `support` (value, empirical
/// probability) whose mean is `s`: `pᵢ = qᵢ / (1 + λ(xᵢ − s))` with λ solving
/// `Σ qᵢ(xᵢ − s)/(1 + λ(xᵢ − s)) = 0` (decreasing in λ; found by bisection inside the interval
/// that keeps every `pᵢ` positive). `None` when `s` is not strictly inside the observed range.
fn mle_expected(support: &[(f64, f64)], s: f64) -> Option<Vec<f64>> {
    let lo_x = support.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let hi_x = support
        .iter()
        .map(|p| p.0)
        .fold(f64::NEG_INFINITY, f64::max);
    if !(lo_x < s && s < hi_x) {
        return None;
    }
    let f = |l: f64| -> f64 {
        support
            .iter()
            .map(|(x, q)| q * (x - s) / (1.0 + l * (x - s)))
            .sum()
    };
    // 1 + λ(x − s) > 0 for every x: λ ∈ (−1/(hi − s), 1/(s − lo)).
    let (mut a, mut b) = (-1.0 / (hi_x - s), 1.0 / (s - lo_x));
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if f(m) > 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    let l = 0.5 * (a + b);
    Some(
        support
            .iter()
            .map(|(x, q)| q / (1.0 + l * (x - s)))
            .collect(),
    )
}

/// SPRT parameters (Elo bounds in logistic Elo, error rates).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 accepted (the engine is not `elo1` better).
    H0,
    /// H1 accepted.
    H1,
    Continue,
}

impl SprtDecision {
    pub fn name(self) -> &'static str {
        match self {
            SprtDecision::H0 => "H0",
            SprtDecision::H1 => "H1",
            SprtDecision::Continue => "continue",
        }
    }
}

impl Sprt {
    /// Parses `elo0=0 elo1=10 alpha=0.05 beta=0.05` (any order; missing alpha/beta = 0.05).
    pub fn parse(words: &[String]) -> Result<Sprt, ParseError> {
        let bad = |why: String| ParseError::Sprt(why);
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for w in words.iter().flat_map(|w| w.split_whitespace()) {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| bad(format!("expected NAME=VALUE, got '{w}'")))?;
            let v: f64 = v
                .parse()
                .map_err(|_| bad(format!("'{k}' needs a number, got '{v}'")))?;
            match k {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                _ => return Err(bad(format!("unknown parameter '{k}'"))),
            }
        }
        if !s.elo0.is_finite() || !s.elo1.is_finite() {
            return Err(bad("elo0 and elo1 are required".into()));
        }
        if s.elo0 >= s.elo1 {
            return Err(bad("elo0 must be below elo1".into()));
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err(bad("alpha and beta must be in (0, 0.5)".into()));
        }
        Ok(s)
    }

    /// `(lower, upper)` LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The GSPRT log-likelihood ratio of outcomes `values[i]` (0..1) seen `counts[i]` times.
    /// Like fishtest, an outcome never seen counts as 0.001 of a game, so that a one-sided
    /// result (e.g. every pair won) still yields a finite, growing LLR.
    pub fn llr_counts(&self, values: &[f64], counts: &[u64]) -> f64 {
        let Some(e) = estimate(values, counts) else {
            return 0.0;
        };
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        let reg: Vec<f64> = counts.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let total: f64 = reg.iter().sum();
        let support: Vec<(f64, f64)> = values
            .iter()
            .zip(&reg)
            .map(|(v, c)| (*v, c / total))
            .collect();
        match (mle_expected(&support, s0), mle_expected(&support, s1)) {
            (Some(p0), Some(p1)) => {
                total
                    * support
                        .iter()
                        .zip(p0.iter().zip(&p1))
                        .map(|((_, q), (a, b))| q * (b / a).ln())
                        .sum::<f64>()
            }
            _ => self.llr(&e),
        }
    }

    /// The GSPRT LLR of pentanomial pair counts (see [`pentanomial`]).
    pub fn llr_pairs(&self, pairs: [u64; 5]) -> f64 {
        self.llr_counts(&[0.0, 0.25, 0.5, 0.75, 1.0], &pairs)
    }

    /// The GSPRT LLR of wins, draws and losses.
    pub fn llr_wdl(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        self.llr_counts(&[1.0, 0.5, 0.0], &[wins, draws, losses])
    }

    /// The normal approximation of the LLR of an estimate (0 while the variance is zero).
    pub fn llr(&self, e: &EloEstimate) -> f64 {
        let var = e.stderr * e.stderr;
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        (s1 - s0) * (2.0 * e.score - s0 - s1) / (2.0 * var)
    }

    /// The decision for an LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::H1
        } else if llr <= lo {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Running totals of a match from engine 1's point of view.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Complete pairs by engine 1's points in half-points (0 = lost both … 4 = won both).
    pub pairs: [u64; 5],
    pub reasons: BTreeMap<Reason, u64>,
    /// Pair number and half-points of engine 1 in the first game of the current, unfinished
    /// pair (a pair counts only when both its games are added, one after the other).
    open_pair: Option<(usize, u64)>,
}

impl Tally {
    /// Counts one game. Games come in index order; a pair whose partner is missing (merged
    /// records with gaps) counts in W/D/L but not in the pentanomial.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        let half = match r.winner_engine() {
            Some(0) => {
                self.wins += 1;
                2
            }
            Some(_) => {
                self.losses += 1;
                0
            }
            None => {
                self.draws += 1;
                1
            }
        };
        *self.reasons.entry(r.outcome.reason).or_default() += 1;
        let pair = r.index / 2;
        if r.index.is_multiple_of(2) {
            self.open_pair = Some((pair, half));
        } else if let Some((p, h)) = self.open_pair.take()
            && p == pair
        {
            self.pairs[(h + half) as usize] += 1;
        }
    }

    /// The Elo estimate a report leads with: pentanomial once a pair is complete.
    pub fn headline(&self) -> Option<EloEstimate> {
        pentanomial(self.pairs).or_else(|| trinomial(self.wins, self.draws, self.losses))
    }

    /// Score of engine 1 in 0..1.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
    }
}

/// An SPRT's LLR, bounds and decision.
pub type SprtStatus = (f64, (f64, f64), SprtDecision);

/// The result of a match.
#[derive(Clone, Debug)]
pub struct Summary {
    pub tally: Tally,
    /// LLR, bounds and decision when the match ran an SPRT.
    pub sprt: Option<SprtStatus>,
}

/// The SPRT's LLR, bounds and decision after the games of `t`: pentanomial once a pair is
/// complete (as fastchess), trinomial before.
pub fn sprt_status(s: &Sprt, t: &Tally) -> SprtStatus {
    let llr = if t.pairs.iter().sum::<u64>() > 0 {
        s.llr_pairs(t.pairs)
    } else {
        s.llr_wdl(t.wins, t.draws, t.losses)
    };
    (llr, s.bounds(), s.decide(llr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_known_values() {
        assert!((erf(0.0)).abs() < 1e-7);
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 2e-7);
    }

    #[test]
    fn elo_score_round_trip() {
        for e in [-300.0, -10.0, 0.0, 35.5, 400.0] {
            assert!((elo_of_score(score_of_elo(e)) - e).abs() < 1e-9);
        }
        assert!((elo_of_score(0.75) - 190.848_501_887_864_9).abs() < 1e-9);
    }

    #[test]
    fn tally_counts_pairs() {
        use super::super::game::GameOutcome;
        use crate::core::game::Side;
        let mk = |index: usize, winner: Option<Side>| GameRecord {
            index,
            first: index % 2,
            opening_base: "startpos".into(),
            opening_moves: vec![],
            outcome: GameOutcome {
                winner,
                reason: Reason::Normal,
                detail: String::new(),
                moves: vec![],
                junk: 0,
            },
        };
        let mut t = Tally::default();
        // Pair 0: engine 1 wins as first, then draws: 1.5 points. Pair 1: the second seat wins
        // both games, i.e. engine 2 in game 2 and engine 1 in game 3: 1 point. Game 4 opens
        // pair 2, which is incomplete and so not in the pentanomial.
        for r in [
            mk(0, Some(Side::First)),
            mk(1, None),
            mk(2, Some(Side::Second)),
            mk(3, Some(Side::Second)),
            mk(4, Some(Side::First)),
        ] {
            t.add(&r);
        }
        assert_eq!((t.wins, t.draws, t.losses), (3, 1, 1));
        assert_eq!(t.pairs, [0, 0, 1, 1, 0]);
        assert_eq!(t.games, 5);
    }

    #[test]
    fn empty_is_none() {
        assert!(trinomial(0, 0, 0).is_none());
        assert!(pentanomial([0; 5]).is_none());
    }

    #[test]
    fn sprt_bounds_are_wald() {
        let s = Sprt::parse(&["elo0=0 elo1=10 alpha=0.05 beta=0.05".to_string()]).unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-8);
        assert!((hi - 2.944_438_979).abs() < 1e-8);
        assert!(Sprt::parse(&["elo0=5 elo1=1".to_string()]).is_err());
        assert!(Sprt::parse(&["elo1=1".to_string()]).is_err());
        assert!(Sprt::parse(&["elo0=0 elo1=x".to_string()]).is_err());
    }
}
