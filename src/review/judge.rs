//! Judging moves: the loss of a move in expected score, its mark (`?!` inaccuracy, `?` mistake,
//! `??` blunder), what a proven loss means in game terms, and accuracy (lichess's formulas).
//!
//! Per game, a [`Calibration`] holds the curve from heuristic values to expected score and the
//! three thresholds of expected-score loss. Both were chosen from data; docs/review.md says how
//! and shows the figures. A move's loss is `E(best) − E(played)` for the side that made it, with
//! `E` the expected score of a value: 1, ½ or 0 for a proven win, draw or loss, the curve for a
//! heuristic value. Between two proven values the loss is therefore 0 (the result did not
//! change: a slower win is not a mistake, nor is any move of a lost position) or ½ or 1 (a won
//! position drawn or lost, a drawn one lost), which every threshold marks as a blunder: proven
//! values speak in game terms and never guess.

use super::value::{Curve, Value, Wdl};
use crate::core::game::{Game, ReviewCalibration};
use crate::games::{GameKind, GameVisitor, dispatch};

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// Inverse of [`Mark::symbol`].
    pub fn from_symbol(s: &str) -> Option<Mark> {
        Mark::ALL.into_iter().find(|m| m.symbol() == s)
    }

    /// `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// 0, 1, 2: the index of the mark's counter.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The least expected-score loss (0..1) of each mark.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
}

impl Thresholds {
    /// The mark of a loss, if it reaches one.
    pub fn mark(&self, loss: f64) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    pub fn as_array(&self) -> [f64; 3] {
        [self.inaccuracy, self.mistake, self.blunder]
    }
}

/// A game's curve and thresholds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    pub curve: Curve,
    pub thresholds: Thresholds,
}

/// The calibration of each game for tablero's `default` heuristic searched to `depth` (`None`:
/// a node or time limit, whose iterations are even), docs/review.md "Calibration":
/// - the curve is the maximum-likelihood fit of the results of tablero's self-play games to its
///   evaluations (`tablero analyse --fit`), one per parity of the depth, because every game's
///   evaluation leans towards the side that moved last at the leaves (Connect Four's by more
///   than a quarter of its scale, and with the opposite sign at odd depths);
/// - the thresholds keep lichess's proportions (1 : 2 : 3): an inaccuracy from the smallest loss
///   (of 0.02, 0.03, … 0.15) at which fewer than 5 % of the moves that a review two plies deeper
///   finds best get a mark (`scripts/review_thresholds.py` on the built-in ladder's games).
pub fn calibration(kind: GameKind, depth: Option<u32>) -> Calibration {
    struct Of;
    impl GameVisitor for Of {
        type Output = ReviewCalibration;
        fn visit<G: Game>(self) -> ReviewCalibration {
            G::PROFILE.review
        }
    }
    let c = dispatch(kind, Of);
    let odd = depth.is_some_and(|d| d % 2 == 1);
    let (scale, offset) = if odd { c.odd } else { c.even };
    let t = c.inaccuracy;
    Calibration {
        curve: Curve { scale, offset },
        thresholds: Thresholds {
            inaccuracy: t,
            mistake: 2.0 * t,
            blunder: 3.0 * t,
        },
    }
}

/// What a move did to a proven result, when both values are proven and the result got worse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub before: Wdl,
    pub after: Wdl,
}

impl Verdict {
    /// `won-lost`, `won-drawn` or `drawn-lost`.
    pub fn name(&self) -> String {
        format!("{}-{}", self.before.word(), self.after.word())
    }

    /// Inverse of [`Verdict::name`].
    pub fn from_name(s: &str) -> Option<Verdict> {
        let (a, b) = s.split_once('-')?;
        let w = |x: &str| {
            [Wdl::Win, Wdl::Draw, Wdl::Loss]
                .into_iter()
                .find(|w| w.word() == x)
        };
        let v = Verdict {
            before: w(a)?,
            after: w(b)?,
        };
        (v.after < v.before).then_some(v)
    }

    /// The verdict of a move from `best` to `played` (both for the mover), if both are proven
    /// and the result got worse.
    pub fn of(best: Value, played: Value) -> Option<Verdict> {
        let (b, p) = (best.wdl()?, played.wdl()?);
        (p < b).then_some(Verdict {
            before: b,
            after: p,
        })
    }
}

/// Accuracy of one move (0..100) from its expected-score loss: lichess's
/// `103.1668 · e^(−0.04354 · Δ) − 3.1669 + 1` with Δ the loss in percentage points, clamped to
/// 0..100 (a move without loss is 100).
pub fn move_accuracy(loss: f64) -> f64 {
    if loss <= 0.0 {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * loss * 100.0).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Game accuracy of each side (lichess's): `series` is the first player's expected score before
/// each judged move and after the last (`moves + 1` values), `movers[i]` the side (0 or 1) that
/// made move `i`, `losses[i]` its loss and `counted[i]` whether it counts (forced moves do not).
/// Each move's accuracy is weighted by the volatility of the game around it (the standard
/// deviation, in percentage points clamped to 0.5..12, of a window of `moves / 10` positions,
/// 2..8); a side's accuracy is the mean of the weighted mean and the harmonic mean (each move's
/// accuracy at least 1) of its counted moves; `None` for a side without a counted move.
pub fn game_accuracy(
    series: &[f64],
    movers: &[usize],
    losses: &[f64],
    counted: &[bool],
) -> [Option<f64>; 2] {
    let n = movers.len();
    if series.len() != n + 1 || losses.len() != n || counted.len() != n || n == 0 {
        return [None, None];
    }
    let pct: Vec<f64> = series.iter().map(|v| v * 100.0).collect();
    let size = (n / 10).clamp(2, 8).min(pct.len());
    let mut windows: Vec<&[f64]> = Vec::with_capacity(n);
    for _ in 0..size.saturating_sub(2) {
        windows.push(&pct[..size]);
    }
    for w in pct.windows(size) {
        windows.push(w);
    }
    let weight = |w: &[f64]| {
        let m = w.iter().sum::<f64>() / w.len() as f64;
        let var = w.iter().map(|x| (x - m).powi(2)).sum::<f64>() / w.len() as f64;
        var.sqrt().clamp(0.5, 12.0)
    };
    let mut out = [None, None];
    for (side, slot) in out.iter_mut().enumerate() {
        let (mut wsum, mut wacc, mut inv, mut k) = (0.0, 0.0, 0.0, 0usize);
        for i in 0..n {
            if movers[i] != side || !counted[i] {
                continue;
            }
            let a = move_accuracy(losses[i]);
            let w = windows.get(i).map_or(0.5, |w| weight(w));
            wsum += w;
            wacc += w * a;
            inv += 1.0 / a.max(1.0);
            k += 1;
        }
        if k > 0 {
            *slot = Some((wacc / wsum + k as f64 / inv) / 2.0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds() {
        let t = Thresholds {
            inaccuracy: 0.05,
            mistake: 0.1,
            blunder: 0.15,
        };
        assert_eq!(t.mark(0.0), None);
        assert_eq!(t.mark(0.049), None);
        assert_eq!(t.mark(0.05), Some(Mark::Inaccuracy));
        assert_eq!(t.mark(0.12), Some(Mark::Mistake));
        assert_eq!(t.mark(0.5), Some(Mark::Blunder));
        for m in Mark::ALL {
            assert_eq!(Mark::from_symbol(m.symbol()), Some(m));
        }
        for (k, d) in GameKind::ALL
            .into_iter()
            .flat_map(|k| [(k, None), (k, Some(5))])
        {
            let c = calibration(k, d);
            let [a, b, c3] = c.thresholds.as_array();
            // Proven results that change always reach a blunder.
            assert!(0.0 < a && a < b && b < c3 && c3 <= 0.5, "{k:?}");
            assert!(
                c.curve.scale > 0.0 && c.curve.offset.abs() < c.curve.scale,
                "{k:?}"
            );
        }
    }

    #[test]
    fn verdicts_only_for_worse_proven_results() {
        let win = Value::parse("win 5").unwrap();
        let draw = Value::parse("draw").unwrap();
        let loss = Value::parse("loss 2").unwrap();
        assert_eq!(Verdict::of(win, draw).unwrap().name(), "won-drawn");
        assert_eq!(Verdict::of(win, loss).unwrap().name(), "won-lost");
        assert_eq!(Verdict::of(draw, loss).unwrap().name(), "drawn-lost");
        assert_eq!(Verdict::of(win, Value::parse("win 9").unwrap()), None);
        assert_eq!(Verdict::of(loss, loss), None);
        assert_eq!(Verdict::of(win, Value::Cp(-5)), None);
        for n in ["won-drawn", "won-lost", "drawn-lost"] {
            assert_eq!(Verdict::from_name(n).unwrap().name(), n);
        }
        assert_eq!(Verdict::from_name("lost-won"), None);
    }

    #[test]
    fn accuracy_is_lichess() {
        assert_eq!(move_accuracy(0.0), 100.0);
        assert_eq!(move_accuracy(-0.1), 100.0);
        // 10 points of win% lost: 103.1668 e^-0.4354 - 2.1669 = 64.58.
        let a = move_accuracy(0.10);
        assert!((a - 64.58).abs() < 0.01, "{a}");
        assert!(move_accuracy(1.0) < 2.0);
        assert!(move_accuracy(0.02) > move_accuracy(0.03));
        // A perfect player scores 100; a side with a blunder less.
        let series = [0.5, 0.5, 0.5, 0.2, 0.2, 0.2];
        let movers = [0, 1, 0, 1, 0];
        let losses = [0.0, 0.0, 0.3, 0.0, 0.0];
        let counted = [true; 5];
        let [a, b] = game_accuracy(&series, &movers, &losses, &counted);
        assert_eq!(b, Some(100.0));
        assert!(a.unwrap() < 80.0, "{a:?}");
        // Forced moves do not count; a side with none counted has no accuracy.
        let [a, b] = game_accuracy(
            &series,
            &movers,
            &losses,
            &[false, true, false, true, false],
        );
        assert_eq!((a, b), (None, Some(100.0)));
        assert_eq!(game_accuracy(&[0.5], &[], &[], &[]), [None, None]);
    }
}
