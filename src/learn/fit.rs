//! Fitting the `default` heuristic's integer weights to labelled positions, generic over
//! `Game`: Gauss–Newton (least squares) or Newton/IRLS (logistic, Texel's loss) steps on the
//! weights, with the derivatives of the evaluation taken by central differences of
//! `evaluate_with` itself. Where the evaluation is linear in its weights (Kalah, Connect Four,
//! BOOM) the differences are exact and one step reaches the optimum; where it is not (Parchís'
//! colour weighting and danger factors) the steps iterate, with a line search on the rounded
//! weights, like any damped Newton method.
//!
//! Sums run over fixed chunks of the samples and are added in chunk order, so a fit gives the
//! same weights whatever the thread count.

use crate::core::game::{Game, Side};

/// A labelled position.
#[derive(Clone, Copy, Debug)]
pub struct Sample<G> {
    pub pos: G,
    /// The side whose view the evaluation and the target take.
    pub perspective: Side,
    /// Squares: the value (e.g. the exact final margin in seeds); logistic: the score in
    /// `0..=1` (1 win, 0.5 draw, 0 loss).
    pub target: f64,
    /// How much the sample counts (an importance weight; 1 normally).
    pub weight: f64,
}

/// What the fit minimises.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Loss {
    /// Mean squared error of `evaluation / unit` against the target.
    Squares { unit: f64 },
    /// Cross-entropy of `sigmoid(evaluation / unit)` against the target (Texel).
    Logistic { unit: f64 },
}

impl Loss {
    fn unit(self) -> f64 {
        match self {
            Loss::Squares { unit } | Loss::Logistic { unit } => unit,
        }
    }
}

/// The settings of one fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Starting values of every weight (`Game::WEIGHTS` order).
    pub start: Vec<i32>,
    /// Indices of the weights fitted; the others keep their start values.
    pub fitted: Vec<usize>,
    pub loss: Loss,
    /// Most Newton steps.
    pub iterations: usize,
    pub threads: usize,
}

/// The outcome of a fit.
#[derive(Clone, Debug)]
pub struct Fitted {
    pub weights: Vec<i32>,
    /// Training loss before the fit and after each accepted step.
    pub history: Vec<f64>,
}

const CHUNK: usize = 4096;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Loss of one sample whose evaluation over `unit` is `z`.
#[inline]
fn sample_loss(loss: Loss, z: f64, y: f64) -> f64 {
    match loss {
        Loss::Squares { .. } => (z - y) * (z - y),
        Loss::Logistic { .. } => {
            // log(1 + e^z) - y z, stable for large |z|.
            let soft = if z > 0.0 {
                z + (-z).exp().ln_1p()
            } else {
                z.exp().ln_1p()
            };
            soft - y * z
        }
    }
}

/// Runs `f` over fixed chunks of `samples` on `threads` threads and returns the per-chunk
/// results in chunk order.
fn chunked<G: Sync, R: Send>(
    samples: &[G],
    threads: usize,
    f: &(dyn Fn(&[G]) -> R + Sync),
) -> Vec<R> {
    let chunks: Vec<&[G]> = samples.chunks(CHUNK).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out: std::sync::Mutex<Vec<(usize, R)>> = std::sync::Mutex::new(Vec::new());
    let work = || {
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if i >= chunks.len() {
                break;
            }
            let r = f(chunks[i]);
            out.lock().unwrap_or_else(|e| e.into_inner()).push((i, r));
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(work);
        }
        work();
    });
    let mut v = out.into_inner().unwrap_or_else(|e| e.into_inner());
    v.sort_by_key(|(i, _)| *i);
    v.into_iter().map(|(_, r)| r).collect()
}

/// The weights `values` clamped into their ranges.
pub fn clamp_weights<G: Game>(values: &[f64]) -> Vec<i32> {
    G::WEIGHTS
        .iter()
        .zip(values)
        .map(|(w, &v)| (v.round() as i64).clamp(w.min as i64, w.max as i64) as i32)
        .collect()
}

/// Mean loss of `samples` with the weights `values` (weighted by the samples' weights).
pub fn mean_loss<G: Game>(
    samples: &[Sample<G>],
    values: &[i32],
    loss: Loss,
    threads: usize,
) -> f64 {
    let w = G::weights(values);
    let unit = loss.unit();
    let parts = chunked(samples, threads, &|c: &[Sample<G>]| {
        let (mut l, mut n) = (0.0, 0.0);
        for s in c {
            let z = f64::from(s.pos.evaluate_with(0, &w, s.perspective)) / unit;
            l += s.weight * sample_loss(loss, z, s.target);
            n += s.weight;
        }
        (l, n)
    });
    let (l, n) = parts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    if n > 0.0 { l / n } else { 0.0 }
}

/// Solves `a x = b` (symmetric positive semi-definite `a`, `n`×`n`) by Gaussian elimination
/// with partial pivoting; a singular direction gets 0.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Vec<f64> {
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))
            .unwrap_or(col);
        if a[piv * n + col].abs() < 1e-300 {
            continue;
        }
        if piv != col {
            for k in 0..n {
                a.swap(col * n + k, piv * n + k);
            }
            b.swap(col, piv);
        }
        for i in col + 1..n {
            let f = a[i * n + col] / a[col * n + col];
            if f != 0.0 {
                for k in col..n {
                    a[i * n + k] -= f * a[col * n + k];
                }
                b[i] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        if a[i * n + i].abs() < 1e-300 {
            continue;
        }
        let mut s = b[i];
        for k in i + 1..n {
            s -= a[i * n + k] * x[k];
        }
        x[i] = s / a[i * n + i];
    }
    x
}

/// Gradient and Gauss–Newton matrix of the loss at `values` over the fitted weights.
fn derivatives<G: Game>(
    samples: &[Sample<G>],
    values: &[i32],
    cfg: &FitConfig,
) -> (Vec<f64>, Vec<f64>, f64) {
    let f = cfg.fitted.len();
    let unit = cfg.loss.unit();
    let base = G::weights(values);
    // Central differences with a step of about 1/16 of the weight (at least 1), one-sided at
    // the ends of a range.
    let probes: Vec<(G::Weights, G::Weights, f64)> = cfg
        .fitted
        .iter()
        .map(|&j| {
            let spec = &G::WEIGHTS[j];
            let h = (values[j].unsigned_abs() / 16).max(1) as i64;
            let v = values[j] as i64;
            let hi = (v + h).min(spec.max as i64);
            let lo = (v - h).max(spec.min as i64);
            let mut up = values.to_vec();
            up[j] = hi as i32;
            let mut down = values.to_vec();
            down[j] = lo as i32;
            (
                G::weights(&up),
                G::weights(&down),
                ((hi - lo) as f64).max(1.0),
            )
        })
        .collect();
    let parts = chunked(samples, cfg.threads, &|c: &[Sample<G>]| {
        let mut g = vec![0.0; f];
        let mut a = vec![0.0; f * f];
        let mut l = 0.0;
        let mut n = 0.0;
        let mut jac = vec![0.0; f];
        for s in c {
            let e = f64::from(s.pos.evaluate_with(0, &base, s.perspective));
            for (k, (up, down, span)) in probes.iter().enumerate() {
                let eu = f64::from(s.pos.evaluate_with(0, up, s.perspective));
                let ed = f64::from(s.pos.evaluate_with(0, down, s.perspective));
                jac[k] = (eu - ed) / span / unit;
            }
            let z = e / unit;
            let (r, curv) = match cfg.loss {
                Loss::Squares { .. } => (z - s.target, 1.0),
                Loss::Logistic { .. } => {
                    let p = sigmoid(z);
                    (p - s.target, p * (1.0 - p))
                }
            };
            l += s.weight * sample_loss(cfg.loss, z, s.target);
            n += s.weight;
            for i in 0..f {
                if jac[i] == 0.0 {
                    continue;
                }
                g[i] += s.weight * r * jac[i];
                let ci = s.weight * curv * jac[i];
                for k in 0..f {
                    a[i * f + k] += ci * jac[k];
                }
            }
        }
        (g, a, l, n)
    });
    let mut g = vec![0.0; f];
    let mut a = vec![0.0; f * f];
    let (mut l, mut n) = (0.0, 0.0);
    for (pg, pa, pl, pn) in parts {
        for i in 0..f {
            g[i] += pg[i];
        }
        for i in 0..f * f {
            a[i] += pa[i];
        }
        l += pl;
        n += pn;
    }
    let n = n.max(1e-300);
    for x in &mut g {
        *x /= n;
    }
    for x in &mut a {
        *x /= n;
    }
    (g, a, l / n)
}

/// Fits `cfg.fitted` to `samples`. `log` gets a line per step.
pub fn fit<G: Game>(samples: &[Sample<G>], cfg: &FitConfig, log: &dyn Fn(&str)) -> Fitted {
    let f = cfg.fitted.len();
    let mut theta: Vec<f64> = cfg.start.iter().map(|&v| f64::from(v)).collect();
    let mut values = clamp_weights::<G>(&theta);
    let mut current = mean_loss(samples, &values, cfg.loss, cfg.threads);
    let mut history = vec![current];
    log(&format!("fit: start loss {current:.6}"));
    for it in 0..cfg.iterations {
        if f == 0 {
            break;
        }
        let (g, mut a, _) = derivatives(samples, &values, cfg);
        // Levenberg–Marquardt damping: a little of the diagonal keeps flat directions (terms
        // that are almost never non-zero) from running off.
        for i in 0..f {
            a[i * f + i] = a[i * f + i] * 1.0001 + 1e-12;
        }
        let step = solve(a, g.iter().map(|x| -x).collect(), f);
        if std::env::var_os("LEARN_DEBUG").is_some() {
            log(&format!("fit: gradient {g:?}\nfit: step {step:?}"));
        }
        let mut accepted = false;
        let mut alpha = 1.0;
        for _ in 0..12 {
            let mut t = theta.clone();
            for (k, &j) in cfg.fitted.iter().enumerate() {
                t[j] += alpha * step[k];
            }
            let v = clamp_weights::<G>(&t);
            let l = mean_loss(samples, &v, cfg.loss, cfg.threads);
            if l < current {
                // Stay on the lattice the evaluation sees: a clamped weight stays clamped.
                theta = t
                    .iter()
                    .zip(G::WEIGHTS)
                    .map(|(&x, w)| x.clamp(f64::from(w.min), f64::from(w.max)))
                    .collect();
                values = v;
                log(&format!(
                    "fit: step {} (x{alpha}) loss {current:.6} -> {l:.6}",
                    it + 1
                ));
                let gain = (current - l) / current.abs().max(1e-300);
                current = l;
                history.push(l);
                accepted = true;
                if gain < 1e-7 {
                    return Fitted {
                        weights: values,
                        history,
                    };
                }
                break;
            }
            alpha /= 2.0;
        }
        if !accepted {
            break;
        }
    }
    Fitted {
        weights: values,
        history,
    }
}
