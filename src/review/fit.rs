//! Fitting a game's curve from data (`tablero analyse --fit`): the scale `s` and offset `b` of
//! `E(v) = 1 / (1 + e^(−(v + b)/s))` that best predict the results of recorded games from the
//! evaluations of their positions, by maximum likelihood (the results 1, ½, 0 of the side to
//! move as targets of a logistic regression; Newton's method, which converges because the
//! log-loss is convex). The offset is the evaluation's bias against the side to move at the
//! search's depth (at an even depth the leaves have the root player to move, and every game's
//! evaluation favours the side that just moved).
//!
//! The values are the review's own (`review.value` of annotated records) when the records
//! carry them, else the engine's reported scores (`score cp …` of each move); proven values and
//! mate scores are left out, and so are games the rules did not end (time, crash, adjudication).

use serde_json::Value as Json;

use super::game::replay;
use super::run::{ReviewError, config_of};
use super::value::Value;
use crate::core::game::{Game, Outcome};
use crate::games::{GameVisitor, dispatch};
use crate::referee::game::Reason;
use crate::referee::records::read_whole;

/// The result of a fit.
#[derive(Clone, Debug)]
pub struct Fit {
    pub variant: String,
    pub games: usize,
    /// (value for the side to move, its result: 1, ½ or 0).
    pub points: Vec<(f64, f64)>,
    /// Where the values came from: `review` or `score`.
    pub source: &'static str,
    pub scale: f64,
    /// The evaluation's bias against the side to move, in its units: `E(v) = σ((v + offset) /
    /// scale)`.
    pub offset: f64,
    /// Mean log-loss per position at the fitted curve.
    pub log_loss: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The maximum-likelihood `(a, c)` of `p = σ(a·v + c)` for `points` (Newton's method; the
/// log-loss is convex in both).
pub fn fit_line(points: &[(f64, f64)]) -> (f64, f64) {
    let (mut a, mut c) = (0.0f64, 0.0f64);
    for _ in 0..100 {
        let (mut ga, mut gc, mut haa, mut hac, mut hcc) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(v, y) in points {
            let p = sigmoid(a * v + c);
            let w = p * (1.0 - p);
            ga += (p - y) * v;
            gc += p - y;
            haa += w * v * v;
            hac += w * v;
            hcc += w;
        }
        let det = haa * hcc - hac * hac;
        if det <= 0.0 {
            break;
        }
        let da = (hcc * ga - hac * gc) / det;
        let dc = (haa * gc - hac * ga) / det;
        a -= da;
        c -= dc;
        if da.abs() <= 1e-12 * a.abs().max(1e-12) && dc.abs() <= 1e-9 {
            break;
        }
    }
    (a, c)
}

fn log_loss(points: &[(f64, f64)], a: f64, c: f64) -> f64 {
    let eps = 1e-12;
    let sum: f64 = points
        .iter()
        .map(|&(v, y)| {
            let p = sigmoid(a * v + c).clamp(eps, 1.0 - eps);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / points.len().max(1) as f64
}

impl Fit {
    /// The calibration table: per tenth of the predicted expected score, the positions, the
    /// mean prediction and the mean result (a well-fitted curve has them close).
    pub fn bins(&self) -> Vec<(usize, f64, f64)> {
        let mut b = vec![(0usize, 0.0, 0.0); 10];
        for &(v, y) in &self.points {
            let p = sigmoid((v + self.offset) / self.scale);
            let i = ((p * 10.0) as usize).min(9);
            b[i].0 += 1;
            b[i].1 += p;
            b[i].2 += y;
        }
        b.into_iter()
            .map(|(n, p, y)| {
                let d = n.max(1) as f64;
                (n, p / d, y / d)
            })
            .collect()
    }

    /// The text `tablero analyse --fit` prints.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{}: {} games, {} positions (values: {}), scale {:.1}, offset {:.1}, log-loss {:.4}\n",
            self.variant,
            self.games,
            self.points.len(),
            self.source,
            self.scale,
            self.offset,
            self.log_loss
        );
        s += "predicted  positions  mean predicted  mean result\n";
        for (i, (n, p, y)) in self.bins().into_iter().enumerate() {
            if n > 0 {
                s += &format!(
                    "{:>3}-{:<3}%  {:>9}  {:>14.3}  {:>11.3}\n",
                    i * 10,
                    i * 10 + 10,
                    n,
                    p,
                    y
                );
            }
        }
        s
    }
}

struct Collect<'a> {
    merged: &'a crate::referee::Merged,
    raws: &'a [Json],
}

impl GameVisitor for Collect<'_> {
    type Output = Result<Fit, ReviewError>;
    fn visit<G: Game>(self) -> Self::Output {
        let variant: Vec<(String, i64)> = self
            .merged
            .settings
            .as_ref()
            .map(|s| s.options.clone())
            .unwrap_or_default();
        let cfg = config_of::<G>(&variant)?;
        let reviewed = self.raws.iter().any(|r| {
            r.get("moves")
                .and_then(Json::as_array)
                .is_some_and(|m| m.iter().any(|x| x.get("review").is_some()))
        });
        let mut points = Vec::new();
        let mut games = 0;
        for (g, raw) in self.merged.games.iter().zip(self.raws) {
            if g.record.outcome.reason != Reason::Normal {
                continue;
            }
            let Ok(rp) = replay::<G>(&g.record, &cfg) else {
                continue;
            };
            let Some(end) = rp.states.last().and_then(|s| s.outcome()) else {
                continue;
            };
            games += 1;
            let empty = Vec::new();
            let ms = raw.get("moves").and_then(Json::as_array).unwrap_or(&empty);
            for (k, m) in ms.iter().enumerate() {
                let Some(s) = rp.states.get(k) else { break };
                let text = if reviewed {
                    m.get("review").and_then(|r| r.get("value"))
                } else {
                    m.get("score")
                };
                let v = text.and_then(Json::as_str).and_then(|t| {
                    if reviewed {
                        Value::parse(t).ok()
                    } else {
                        let (a, b) = t.split_once(' ')?;
                        Value::from_protocol(a, b)
                    }
                });
                let Some(Value::Cp(cp)) = v else { continue };
                let me = s.side_to_move();
                let y = match end {
                    Outcome::Draw => 0.5,
                    Outcome::Win(w) if w == me => 1.0,
                    Outcome::Win(_) => 0.0,
                };
                points.push((cp as f64, y));
            }
        }
        if points.len() < 2 {
            return Err(ReviewError::FitTooFew);
        }
        let (a, c) = fit_line(&points);
        if a <= 0.0 {
            return Err(ReviewError::FitFlat(a));
        }
        Ok(Fit {
            variant: G::NAME.to_string(),
            games,
            log_loss: log_loss(&points, a, c),
            points,
            source: if reviewed { "review" } else { "score" },
            scale: 1.0 / a,
            offset: c / a,
        })
    }
}

/// Fits the curve of the game of `paths` (records of one match or tournament).
pub fn fit(paths: &[std::path::PathBuf], partial: bool) -> Result<Fit, ReviewError> {
    let merged = read_whole(paths, partial)?;
    let raws = super::run::raw_lines_of(&merged.games)?;
    dispatch(
        merged.kind,
        Collect {
            merged: &merged,
            raws: &raws,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_known_scale() {
        // Results drawn deterministically from a scale of 200: fractions of wins per value.
        let mut pts = Vec::new();
        for v in (-800..=800).step_by(50) {
            let p = sigmoid(v as f64 / 200.0);
            let wins = (p * 1000.0).round() as usize;
            for i in 0..1000 {
                pts.push((v as f64, if i < wins { 1.0 } else { 0.0 }));
            }
        }
        let (a, c) = fit_line(&pts);
        assert!((1.0 / a - 200.0).abs() < 1.0, "{}", 1.0 / a);
        assert!(c.abs() < 1e-3, "{c}");
        assert!(log_loss(&pts, a, c) <= log_loss(&pts, a * 1.1, c));
        // Values biased by -50 (against the side to move): the offset finds it.
        let shifted: Vec<(f64, f64)> = pts.iter().map(|&(v, y)| (v - 50.0, y)).collect();
        let (a2, c2) = fit_line(&shifted);
        assert!((c2 / a2 - 50.0).abs() < 1.0, "{}", c2 / a2);
    }
}
