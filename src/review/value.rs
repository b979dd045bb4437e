//! Values of positions and moves as a game review speaks of them: proven results (a solver's, or
//! a search that reached the end of the game) in game terms, heuristic values in the engine's
//! units, and the map of both to an expected score (a per-game logistic curve).

use std::fmt;

use crate::core::score::{is_decisive, plies_to_end};

/// A proven result for the side a value is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// The same result seen by the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// The expected score of the result: 1, ½ or 0.
    pub fn score(self) -> f64 {
        match self {
            Wdl::Loss => 0.0,
            Wdl::Draw => 0.5,
            Wdl::Win => 1.0,
        }
    }

    /// `won`, `drawn` or `lost`: the position's result in words.
    pub fn word(self) -> &'static str {
        match self {
            Wdl::Loss => "lost",
            Wdl::Draw => "drawn",
            Wdl::Win => "won",
        }
    }
}

/// The value of a position (or of a move: the position it leads to) for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Proven: the result with best play from here, and how many plies it takes when known
    /// (a Kalah solve proves the margin, not the distance).
    Exact { wdl: Wdl, plies: Option<u32> },
    /// A heuristic value in the engine's units (`cp` in the protocol), higher is better.
    Cp(i32),
}

impl Value {
    /// A proven result without a distance.
    pub fn exact(wdl: Wdl) -> Value {
        Value::Exact { wdl, plies: None }
    }

    /// The value of a search score (the root player's view, see `core::score`): a decisive
    /// score is a proven win or loss; a score no horizon touched (`proven`) is a proven draw
    /// (every leaf was a finished game, so a non-decisive value is 0); anything else is a
    /// heuristic value.
    pub fn from_score(score: i32, proven: bool) -> Value {
        if is_decisive(score) {
            let p = plies_to_end(score).unwrap_or(0);
            Value::Exact {
                wdl: if p > 0 { Wdl::Win } else { Wdl::Loss },
                plies: Some(p.unsigned_abs()),
            }
        } else if proven && score == 0 {
            Value::exact(Wdl::Draw)
        } else {
            Value::Cp(score)
        }
    }

    /// The value of a protocol score (`cp 12`, `mate 5`, `mate -3`: the side to move's view).
    pub fn from_protocol(kind: &str, n: &str) -> Option<Value> {
        let n: i64 = n.parse().ok()?;
        match kind {
            "cp" => Some(Value::Cp(n.clamp(i32::MIN as i64, i32::MAX as i64) as i32)),
            "mate" => Some(Value::Exact {
                wdl: if n > 0 { Wdl::Win } else { Wdl::Loss },
                plies: u32::try_from(n.unsigned_abs()).ok(),
            }),
            _ => None,
        }
    }

    /// The same position's value for the other side (heuristic values negated: the review
    /// assumes an evaluation that is zero-sum, which every `default` heuristic is).
    pub fn flip(self) -> Value {
        match self {
            Value::Exact { wdl, plies } => Value::Exact {
                wdl: wdl.flip(),
                plies,
            },
            Value::Cp(v) => Value::Cp(v.saturating_neg()),
        }
    }

    /// The value one ply earlier on the same line (a proven result one ply further away).
    pub fn earlier(self) -> Value {
        match self {
            Value::Exact { wdl, plies } => Value::Exact {
                wdl,
                plies: plies.map(|p| p + 1),
            },
            v => v,
        }
    }

    /// The proven result, if any.
    pub fn wdl(self) -> Option<Wdl> {
        match self {
            Value::Exact { wdl, .. } => Some(wdl),
            Value::Cp(_) => None,
        }
    }

    /// Parses [`Value`]'s text form (`cp -35`, `win 7`, `win`, `draw`, `loss 12`).
    pub fn parse(s: &str) -> Result<Value, NotAValue> {
        let not = || NotAValue(s.to_string());
        let mut w = s.split_whitespace();
        let kind = w.next().unwrap_or("");
        let n = w.next();
        if w.next().is_some() {
            return Err(not());
        }
        let plies = |n: Option<&str>| -> Result<Option<u32>, NotAValue> {
            n.map(|x| x.parse::<u32>().map_err(|_| not())).transpose()
        };
        match kind {
            "cp" => n
                .and_then(|x| x.parse().ok())
                .map(Value::Cp)
                .ok_or_else(not),
            "win" => Ok(Value::Exact {
                wdl: Wdl::Win,
                plies: plies(n)?,
            }),
            "loss" => Ok(Value::Exact {
                wdl: Wdl::Loss,
                plies: plies(n)?,
            }),
            "draw" if n.is_none() => Ok(Value::exact(Wdl::Draw)),
            _ => Err(not()),
        }
    }
}

/// A text that is not a [`Value`]'s text form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a value")]
pub struct NotAValue(pub String);

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Cp(v) => write!(f, "cp {v}"),
            Value::Exact {
                wdl: Wdl::Draw,
                plies: _,
            } => write!(f, "draw"),
            Value::Exact { wdl, plies } => {
                let w = if *wdl == Wdl::Win { "win" } else { "loss" };
                match plies {
                    Some(p) => write!(f, "{w} {p}"),
                    None => write!(f, "{w}"),
                }
            }
        }
    }
}

/// The map from a heuristic value to an expected score: `1 / (1 + e^(-(v + offset) / scale))`,
/// fitted per game from self-play records (see `review::fit` and docs/review.md). Both are in
/// the evaluation's units: `offset` corrects the evaluation's bias against the side to move at
/// the search's depth, and a corrected value of `scale` means an expected score of 73 %.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    pub scale: f64,
    pub offset: f64,
}

impl Curve {
    /// The expected score (0..1) of a value for the side it is for.
    pub fn expected(&self, v: Value) -> f64 {
        match v {
            Value::Exact { wdl, .. } => wdl.score(),
            Value::Cp(cp) => 1.0 / (1.0 + (-(cp as f64 + self.offset) / self.scale).exp()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::score::WIN;

    #[test]
    fn text_round_trips() {
        for s in ["cp 0", "cp -35", "win 7", "win", "loss 12", "loss", "draw"] {
            assert_eq!(Value::parse(s).unwrap().to_string(), s);
        }
        for bad in ["", "cp", "cp x", "mate 3", "draw 2", "win 3 4", "win -1"] {
            assert_eq!(Value::parse(bad), Err(NotAValue(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn scores_become_values() {
        assert_eq!(
            Value::from_score(WIN - 5, false),
            Value::Exact {
                wdl: Wdl::Win,
                plies: Some(5)
            }
        );
        assert_eq!(
            Value::from_score(-(WIN - 4), false).to_string(),
            "loss 4".to_string()
        );
        assert_eq!(Value::from_score(0, true), Value::exact(Wdl::Draw));
        assert_eq!(Value::from_score(0, false), Value::Cp(0));
        assert_eq!(Value::from_score(35, true), Value::Cp(35));
        assert_eq!(
            Value::from_protocol("mate", "-3").unwrap().to_string(),
            "loss 3"
        );
        assert_eq!(Value::from_protocol("cp", "12"), Some(Value::Cp(12)));
        assert_eq!(Value::from_protocol("lowerbound", "12"), None);
    }

    #[test]
    fn flips_and_curves() {
        let v = Value::parse("win 3").unwrap();
        assert_eq!(v.flip().to_string(), "loss 3");
        assert_eq!(v.earlier().to_string(), "win 4");
        assert_eq!(Value::Cp(i32::MIN).flip(), Value::Cp(i32::MAX));
        let c = Curve {
            scale: 100.0,
            offset: 0.0,
        };
        assert_eq!(c.expected(Value::Cp(0)), 0.5);
        assert!((c.expected(Value::Cp(100)) - 0.731_058_6).abs() < 1e-6);
        assert!((c.expected(Value::Cp(-100)) + c.expected(Value::Cp(100)) - 1.0).abs() < 1e-12);
        assert_eq!(c.expected(v), 1.0);
        assert_eq!(c.expected(Value::exact(Wdl::Draw)), 0.5);
    }
}
