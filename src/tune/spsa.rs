//! The SPSA core of `tablero tune`: fishtest's gain schedules and one iteration's perturbation
//! and update, as pure functions over a pluggable objective (the referee in `tablero tune`, a
//! synthetic noisy function in the tests). θ is kept as reals; the objective receives rounded
//! integers clamped to each parameter's range.

use serde::{Deserialize, Serialize};

use crate::core::rng::splitmix64;

/// Exponent of the step size decay, a_k = a / (A + k)^ALPHA (Spall's and fishtest's value).
pub const ALPHA: f64 = 0.602;
/// Exponent of the perturbation decay, c_k = c / k^GAMMA.
pub const GAMMA: f64 = 0.101;
/// A as a fraction of the number of iterations (fishtest's default `A = 0.1 N`).
pub const A_RATIO: f64 = 0.1;

/// One tuned parameter: `NAME=START,MIN,MAX,C_END,R_END`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration (a_end = r_end · c_end²).
    pub r_end: f64,
}

/// A `--param` text that is not `NAME=START,MIN,MAX,C_END,R_END`: the text, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}': {why} (expected NAME=START,MIN,MAX,C_END,R_END)")]
pub struct ParamError {
    pub text: String,
    pub why: ParamWhy,
}

/// What is wrong with a `--param`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamWhy {
    #[error("no '='")]
    NoEquals,
    #[error("bad name")]
    BadName,
    #[error("'{0}' is not a number")]
    NotANumber(String),
    #[error("{0} numbers instead of 5")]
    Count(usize),
    #[error("numbers must be finite")]
    NotFinite,
    #[error("needs MIN <= START <= MAX")]
    Order,
    #[error("C_END and R_END must be positive")]
    NotPositive,
}

impl Param {
    /// Parses `NAME=START,MIN,MAX,C_END,R_END`.
    pub fn parse(s: &str) -> Result<Param, ParamError> {
        let err = |why: ParamWhy| ParamError {
            text: s.to_string(),
            why,
        };
        let (name, rest) = s.split_once('=').ok_or_else(|| err(ParamWhy::NoEquals))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(err(ParamWhy::BadName));
        }
        let v: Vec<f64> = rest
            .split(',')
            .map(|t| {
                t.trim()
                    .parse::<f64>()
                    .map_err(|_| err(ParamWhy::NotANumber(t.to_string())))
            })
            .collect::<Result<_, _>>()?;
        let [start, min, max, c_end, r_end] = v[..] else {
            return Err(err(ParamWhy::Count(v.len())));
        };
        if v.iter().any(|x| !x.is_finite() || x.abs() > 1e15) {
            return Err(err(ParamWhy::NotFinite));
        }
        if min > max || start < min || start > max {
            return Err(err(ParamWhy::Order));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(err(ParamWhy::NotPositive));
        }
        Ok(Param {
            name: name.to_string(),
            start,
            min,
            max,
            c_end,
            r_end,
        })
    }

    /// The constants of the schedules for a run of `n` iterations.
    pub fn gains(&self, n: usize) -> Gains {
        let n = n as f64;
        let big_a = A_RATIO * n;
        let a_end = self.r_end * self.c_end * self.c_end;
        Gains {
            a: a_end * (big_a + n).powf(ALPHA),
            big_a,
            c: self.c_end * n.powf(GAMMA),
        }
    }

    fn clamp(&self, x: f64) -> f64 {
        x.clamp(self.min, self.max)
    }

    /// The integer an engine receives for the real value `x`.
    pub fn send(&self, x: f64) -> i64 {
        self.clamp(x).round() as i64
    }
}

/// Schedule constants of one parameter: a_k = a / (A + k)^0.602, c_k = c / k^0.101.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    pub a: f64,
    #[serde(rename = "A")]
    pub big_a: f64,
    pub c: f64,
}

impl Gains {
    /// Step size of iteration `k` (1-based).
    pub fn a_k(&self, k: usize) -> f64 {
        self.a / (self.big_a + k as f64).powf(ALPHA)
    }
    /// Perturbation of iteration `k` (1-based).
    pub fn c_k(&self, k: usize) -> f64 {
        self.c / (k as f64).powf(GAMMA)
    }
}

/// The Bernoulli ±1 signs of iteration `k`: a pure function of the seed and `k`, so that a
/// resumed run draws the same signs without keeping generator state.
pub fn signs(seed: u64, k: usize, n: usize) -> Vec<i8> {
    let base = splitmix64(seed ^ 0x5350_5341_0000_0000 ^ (k as u64).wrapping_mul(0x9e37_79b9));
    (0..n)
        .map(|i| {
            if splitmix64(base.wrapping_add(i as u64)) >> 63 == 0 {
                1
            } else {
                -1
            }
        })
        .collect()
}

/// Wins, draws and losses of θ+ against θ−.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Everything one iteration did (one line of the `-o` file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub k: usize,
    pub theta_before: Vec<f64>,
    /// The signs Δ_i.
    pub delta: Vec<i8>,
    pub c_k: Vec<f64>,
    pub a_k: Vec<f64>,
    /// The integers sent as θ+ and θ−.
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
    pub result: Wdl,
    pub theta_after: Vec<f64>,
}

/// Plays iteration `k` (1-based) of an `n`-iteration run from `theta`: perturbs every parameter
/// by ±c_k, asks `objective(θ+, θ−)` for the W/D/L of θ+, and moves θ by
/// a_k / c_k · (W − L) · Δ_i (fishtest's update: R_k · c_k · result · flip with R_k = a_k / c_k²),
/// clamped to the range.
pub fn step<F, E>(
    params: &[Param],
    n: usize,
    seed: u64,
    k: usize,
    theta: &[f64],
    objective: F,
) -> Result<Step, E>
where
    F: FnOnce(&[i64], &[i64]) -> Result<Wdl, E>,
{
    let delta = signs(seed, k, params.len());
    let gains: Vec<Gains> = params.iter().map(|p| p.gains(n)).collect();
    let c_k: Vec<f64> = gains.iter().map(|g| g.c_k(k)).collect();
    let a_k: Vec<f64> = gains.iter().map(|g| g.a_k(k)).collect();
    let shifted = |sign: f64| -> Vec<i64> {
        params
            .iter()
            .enumerate()
            .map(|(i, p)| p.send(theta[i] + sign * c_k[i] * f64::from(delta[i])))
            .collect()
    };
    let (plus, minus) = (shifted(1.0), shifted(-1.0));
    let result = objective(&plus, &minus)?;
    let diff = result.wins as f64 - result.losses as f64;
    let theta_after = params
        .iter()
        .enumerate()
        .map(|(i, p)| p.clamp(theta[i] + a_k[i] / c_k[i] * diff * f64::from(delta[i])))
        .collect();
    Ok(Step {
        k,
        theta_before: theta.to_vec(),
        delta,
        c_k,
        a_k,
        plus,
        minus,
        result,
        theta_after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn gains_by_hand() {
        // N = 100, C_END = 4, R_END = 0.002: c = 4·100^0.101, A = 10,
        // a_end = 0.002·16 = 0.032, a = 0.032·110^0.602.
        let p = Param::parse("x=50,0,100,4,0.002").unwrap();
        let g = p.gains(100);
        // 100^0.101 = e^(0.101·ln 100) = e^0.465129… = 1.592208727…
        assert!((g.c - 4.0 * 1.592_208_727).abs() < 1e-8, "{}", g.c);
        assert!(close(g.big_a, 10.0));
        // 110^0.602 = e^(0.602·4.700480…) = e^2.829689… = 16.940194658…
        assert!((g.a - 0.032 * 16.940_194_658).abs() < 1e-8, "{}", g.a);
        // k = 1: c_1 = c, a_1 = a / 11^0.602.
        assert!(close(g.c_k(1), g.c));
        assert!(
            (g.a_k(1) - 0.032 * 16.939_2 / 4.236_6).abs() < 1e-4,
            "{}",
            g.a_k(1)
        );
        // k = N: the schedules end at C_END and a_end = R_END·C_END².
        assert!(close(g.c_k(100), 4.0));
        assert!(close(g.a_k(100), 0.032));
        assert!(close(g.a_k(100) / (g.c_k(100) * g.c_k(100)), 0.002));
    }

    #[test]
    fn one_step_by_hand() {
        let p = vec![
            Param::parse("x=50,0,100,4,0.002").unwrap(),
            Param::parse("y=1,0,10,1,0.5").unwrap(),
        ];
        let n = 100;
        let k = n;
        let s = step(&p, n, 7, k, &[50.0, 1.0], |_, _| {
            Ok::<_, std::convert::Infallible>(Wdl {
                wins: 5,
                draws: 2,
                losses: 1,
            })
        })
        .unwrap();
        // At k = N: c_k = C_END, a_k = R_END·C_END², the step is R_END·C_END·(W−L)·Δ.
        let d = [f64::from(s.delta[0]), f64::from(s.delta[1])];
        assert_eq!(
            s.plus,
            vec![(50.0 + 4.0 * d[0]) as i64, (1.0 + d[1]) as i64]
        );
        assert_eq!(
            s.minus,
            vec![(50.0 - 4.0 * d[0]) as i64, (1.0 - d[1]).max(0.0) as i64]
        );
        assert!(close(s.theta_after[0], 50.0 + 0.002 * 4.0 * 4.0 * d[0]));
        // y: 1 + 0.5·1·4·Δ = 3 or −1 → clamped to 0.
        assert!(close(s.theta_after[1], (1.0 + 2.0 * d[1]).max(0.0)));
    }

    #[test]
    fn signs_are_balanced_and_seeded() {
        let all: Vec<i8> = (1..=500).flat_map(|k| signs(3, k, 4)).collect();
        let plus = all.iter().filter(|&&s| s == 1).count();
        assert!((900..1100).contains(&plus), "{plus} of 2000");
        assert_eq!(signs(3, 9, 4), signs(3, 9, 4));
        assert_ne!(
            (1..20).map(|k| signs(3, k, 4)).collect::<Vec<_>>(),
            (1..20).map(|k| signs(4, k, 4)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn param_parsing() {
        assert!(Param::parse("a=1,0,2,1,0.1").is_ok());
        let why = |s: &str| Param::parse(s).unwrap_err().why;
        assert_eq!(why("a"), ParamWhy::NoEquals);
        assert_eq!(why("=1,0,2,1,1"), ParamWhy::BadName);
        assert_eq!(why("a=1,0,2,1"), ParamWhy::Count(4));
        assert_eq!(why("a=3,0,2,1,1"), ParamWhy::Order);
        assert_eq!(why("a=1,2,0,1,1"), ParamWhy::Order);
        assert_eq!(why("a=1,0,2,0,1"), ParamWhy::NotPositive);
        assert_eq!(why("a=1,0,2,1,-1"), ParamWhy::NotPositive);
        assert_eq!(why("a=x,0,2,1,1"), ParamWhy::NotANumber("x".into()));
        assert_eq!(why("a=nan,0,2,1,1"), ParamWhy::NotFinite);
        assert_eq!(
            Param::parse("a=1,0,2").unwrap_err().to_string(),
            "'a=1,0,2': 3 numbers instead of 5 (expected NAME=START,MIN,MAX,C_END,R_END)"
        );
    }

    /// A noisy match simulator: θ's strength is −Σ w·(x − opt)² Elo; every pair of games is
    /// drawn from the logistic expected score of the Elo difference.
    fn synthetic(
        opt: &[f64],
        weight: f64,
        pairs: u64,
        rng: &mut u64,
    ) -> impl FnMut(&[i64], &[i64]) -> Result<Wdl, std::convert::Infallible> {
        let opt = opt.to_vec();
        let mut state = *rng;
        move |plus: &[i64], minus: &[i64]| {
            let strength = |x: &[i64]| -> f64 {
                -x.iter()
                    .zip(&opt)
                    .map(|(&v, o)| weight * (v as f64 - o).powi(2))
                    .sum::<f64>()
            };
            let elo = strength(plus) - strength(minus);
            let p = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
            let mut r = Wdl::default();
            for _ in 0..2 * pairs {
                state = splitmix64(state);
                let u = (state >> 11) as f64 / (1u64 << 53) as f64;
                // A draw band of 20 % around the expected score keeps it at p.
                if u < p - 0.1 {
                    r.wins += 1;
                } else if u < p + 0.1 {
                    r.draws += 1;
                } else {
                    r.losses += 1;
                }
            }
            Ok(r)
        }
    }

    #[test]
    fn converges_on_a_noisy_quadratic() {
        let params = vec![
            Param::parse("a=20,0,100,4,0.002").unwrap(),
            Param::parse("b=80,0,100,4,0.002").unwrap(),
        ];
        let opt = [60.0, 35.0];
        let n = 3000;
        let mut theta: Vec<f64> = params.iter().map(|p| p.start).collect();
        let mut rng = 11u64;
        let mut obj = synthetic(&opt, 0.5, 4, &mut rng);
        for k in 1..=n {
            let s = step(&params, n, 5, k, &theta, &mut obj).unwrap();
            theta = s.theta_after;
        }
        for (t, o) in theta.iter().zip(opt) {
            assert!((t - o).abs() < 5.0, "θ {theta:?} vs optimum {opt:?}");
        }
    }
}
