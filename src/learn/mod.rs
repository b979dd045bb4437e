//! `tablero learn`: fits the `default` heuristic's weights to data instead of guessing them.
//!
//! One run, a function of its seed: self-play at a fixed depth ([`play`]), labels, a fit
//! ([`fit`]), a report. Two kinds of labels:
//! - **exact** (Kalah, Connect Four): the searches' evaluated leaves are sampled (the positions
//!   the evaluation is really asked about, [`probe`]) and labelled by the solvers ([`label`]):
//!   Kalah's exact final margin (fitted by least squares, in seeds), Connect Four's
//!   win/draw/loss (fitted by logistic regression);
//! - **result** (BOOM, Parchís): the positions of self-play games, each labelled with the
//!   game's result from both sides' views (Texel's tuning: logistic regression of the result on
//!   the evaluation).
//!
//! The data can be written to a file and fitted again later (`--data`). Everything generic is
//! over the `Game` trait; only the exact labels know their game.

pub mod error;
pub mod fit;
pub mod label;
pub mod play;
pub mod probe;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::core::game::{Game, Side, WeightOverrides};
use crate::core::spec;
use crate::games::connect4::Connect4;
use crate::games::mancala::Mancala;
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::solver::kalahdb::{self, KalahDb, Rules};

pub use error::Error;
use fit::{FitConfig, Loss, Sample};
use play::{PlayConfig, Player};
use probe::splitmix;

use crate::core::game::LearnPlan;
pub use crate::core::game::{LabelKind, Positions};

/// Everything a `learn` run needs (the command line fills it).
#[derive(Clone, Debug)]
pub struct Config {
    pub kind: GameKind,
    pub seed: u64,
    /// Games of self-play (split evenly over `opponents`).
    pub games: usize,
    pub depth: u32,
    /// Heuristic names of the learner's opponents (`default` = self-play).
    pub opponents: Vec<String>,
    /// Random opening plies, drawn per pair from this range.
    pub opening: (u32, u32),
    /// Probability that an evaluation of the learner's searches is sampled.
    pub rate: f64,
    pub labels: Option<LabelKind>,
    pub positions: Option<Positions>,
    /// Weights of the learner (and the fit's start) other than the defaults, by name.
    pub weights: Vec<(String, i32)>,
    /// Names of the weights fitted (`None`: the game's plan).
    pub fit: Option<Vec<String>>,
    /// Newton steps.
    pub iterations: usize,
    pub threads: usize,
    /// Write the labelled data here.
    pub data_out: Option<PathBuf>,
    /// Fit these data files instead of playing.
    pub data_in: Vec<PathBuf>,
    /// Kalah: the probability that a leaf with more seeds in its pits than the database
    /// covers is solved (and weighted by its inverse); the endgame database's seeds and cache.
    pub above_db: f64,
    pub db_seeds: usize,
    pub db_dir: Option<PathBuf>,
    /// The most the label database may take, bytes (a larger `db_seeds` is refused).
    pub db_max_bytes: Option<u64>,
    /// Connect Four: node budget of one solve.
    pub c4_nodes: u64,
    /// Adjudicate a draw after this many plies.
    pub max_plies: usize,
    /// Logistic fits: evaluation units per logit (`None`: Texel's K of the start weights).
    pub unit: Option<f64>,
    /// Exact margins (Kalah): fit who wins (the margin's sign, by logistic regression) instead
    /// of the margin itself (by least squares).
    pub margin_sign: bool,
}

/// The game's choices (its `Profile::learn`): labels, positions, loss and which weights stay
/// fixed.
fn plan(kind: GameKind) -> LearnPlan {
    struct Of;
    impl GameVisitor for Of {
        type Output = LearnPlan;
        fn visit<G: Game>(self) -> LearnPlan {
            G::PROFILE.learn
        }
    }
    dispatch(kind, Of)
}

/// One labelled row of the data: the game it comes from and the sample.
struct Row<G> {
    game: usize,
    sample: Sample<G>,
}

fn weight_index<G: Game>(name: &str) -> Result<usize, Error> {
    G::WEIGHTS
        .iter()
        .position(|w| w.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| Error::UnknownWeight {
            game: G::NAME,
            name: spec::clip(name),
            known: G::WEIGHTS
                .iter()
                .map(|w| w.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The learner's weights: defaults with overrides (checked against the ranges).
fn start_weights<G: Game>(set: &[(String, i32)]) -> Result<Vec<i32>, Error> {
    let mut v: Vec<i32> = G::WEIGHTS.iter().map(|w| w.default).collect();
    for (k, x) in set {
        let i = weight_index::<G>(k.trim())?;
        let w = &G::WEIGHTS[i];
        if *x < w.min || *x > w.max {
            return Err(Error::WeightRange {
                name: w.name,
                value: *x,
                min: w.min,
                max: w.max,
            });
        }
        v[i] = *x;
    }
    Ok(v)
}

fn overrides<G: Game>(values: &[i32]) -> WeightOverrides {
    let mut o = WeightOverrides::default();
    for (i, (&v, w)) in values.iter().zip(G::WEIGHTS).enumerate() {
        if v != w.default {
            o.set(i, v);
        }
    }
    o
}

fn heuristic_index<G: Game>(name: &str) -> Result<usize, Error> {
    G::HEURISTICS
        .iter()
        .position(|h| h.eq_ignore_ascii_case(name))
        .ok_or_else(|| Error::UnknownHeuristic {
            game: G::NAME,
            name: spec::clip(name),
            known: G::HEURISTICS.join(", "),
        })
}

/// Labels positions of game `G` (one per thread).
trait Labeler<G>: Send {
    /// The label and importance weight of `pos` for `perspective`; `None` to leave it out.
    fn label(&mut self, pos: &G, perspective: Side) -> Option<(f64, f64)>;
    /// How many positions this labeler left out because its solver gave up (as opposed to
    /// those it was not asked to solve, like Kalah's unsampled leaves above the database).
    fn failures(&self) -> usize;
}

/// Makes a labeler per thread.
type LabelerFactory<G> = dyn Fn() -> Result<Box<dyn Labeler<G>>, Error> + Sync;

/// Counts of what labelling did, for the report.
#[derive(Default)]
struct LabelStats {
    offered: AtomicUsize,
    labelled: AtomicUsize,
    failed: AtomicUsize,
}

struct KalahLabels {
    inner: label::KalahLabeler,
    above: f64,
    salt: u64,
    failed: usize,
}

impl Labeler<Mancala> for KalahLabels {
    fn label(&mut self, pos: &Mancala, perspective: Side) -> Option<(f64, f64)> {
        let weight = if label::pit_seeds(pos) <= self.inner.db_seeds() {
            1.0
        } else {
            // Solved with probability `above` (a function of the position and the seed, so
            // independent of the thread that labels it), counted 1/above times.
            let mut x = pos.hash() ^ self.salt;
            if (splitmix(&mut x) >> 11) as f64 / (1u64 << 53) as f64 >= self.above {
                return None;
            }
            1.0 / self.above
        };
        match self.inner.margin(pos, perspective) {
            Some(v) => Some((v, weight)),
            None => {
                self.failed += 1;
                None
            }
        }
    }

    fn failures(&self) -> usize {
        self.failed
    }
}

struct Connect4Labels {
    inner: label::Connect4Labeler,
    failed: usize,
}

impl Labeler<Connect4> for Connect4Labels {
    fn label(&mut self, pos: &Connect4, perspective: Side) -> Option<(f64, f64)> {
        match self.inner.result(pos, perspective) {
            Some(v) => Some((v, 1.0)),
            None => {
                self.failed += 1;
                None
            }
        }
    }

    fn failures(&self) -> usize {
        self.failed
    }
}

fn log(line: &str) {
    eprintln!("{line}");
}

/// Plays and labels: the rows in game order.
fn generate<G: Game>(
    cfg: &Config,
    plan: &LearnPlan,
    learner: &[i32],
    labeler: Option<&LabelerFactory<G>>,
    stats: &LabelStats,
) -> Result<Vec<Row<G>>, Error> {
    let config = spec::default_config::<G>()?;
    let start = G::start(&config);
    let labels = cfg.labels.unwrap_or(plan.labels);
    let positions = cfg.positions.unwrap_or(plan.positions);
    let me = Player {
        heuristic: 0,
        weights: overrides::<G>(learner),
        depth: cfg.depth,
        sampled: positions == Positions::Leaves,
    };
    let mut rows = Vec::new();
    let n_opp = cfg.opponents.len().max(1);
    let t0 = Instant::now();
    for (k, opp) in cfg.opponents.iter().enumerate() {
        let h = heuristic_index::<G>(opp)?;
        let games = cfg.games / n_opp + usize::from(k < cfg.games % n_opp);
        let them = Player {
            heuristic: h,
            sampled: me.sampled && h == 0,
            ..me
        };
        let pc = PlayConfig {
            players: [me, them],
            games,
            seed: cfg.seed ^ (k as u64).wrapping_mul(0x51_7cc1_b727_220a),
            opening_plies: cfg.opening,
            rate: cfg.rate,
            max_plies: cfg.max_plies,
            hash_mib: 16,
            threads: cfg.threads,
        };
        let every = (games / 20).max(1);
        let played = play::play(&pc, &start, &|done| {
            if done % every == 0 || done == games {
                log(&format!(
                    "learn: {opp}: {done}/{games} games played ({:.0} s)",
                    t0.elapsed().as_secs_f64()
                ));
            }
        });
        let base = rows.len();
        // Game numbers are global over the opponents, for the train/validation split.
        let offset = k * 1_000_000;
        let evaluations: u64 = played.iter().map(|p| p.evaluations).sum();
        let leaves: usize = played.iter().map(|p| p.leaves.len()).sum();
        let roots: usize = played.iter().map(|p| p.roots.len()).sum();
        log(&format!(
            "learn: {opp}: {games} games, {roots} positions, {evaluations} evaluations sampled \
             into {leaves} leaves"
        ));
        let mut wanted: Vec<Wanted<G>> = Vec::new();
        for p in &played {
            match positions {
                Positions::Leaves => {
                    for &(g, side) in &p.leaves {
                        let r = play::result_for(p, side);
                        wanted.push((offset + p.index, g, side, Some(r)));
                    }
                }
                Positions::Roots => {
                    for &g in &p.roots {
                        for side in [Side::First, Side::Second] {
                            wanted.push((
                                offset + p.index,
                                g,
                                side,
                                Some(play::result_for(p, side)),
                            ));
                        }
                    }
                }
            }
        }
        match labels {
            LabelKind::Result => {
                for (game, pos, perspective, r) in wanted {
                    rows.push(Row {
                        game,
                        sample: Sample {
                            pos,
                            perspective,
                            target: r.unwrap_or(0.5),
                            weight: 1.0,
                        },
                    });
                }
            }
            LabelKind::Exact => {
                let make = labeler.ok_or(Error::NoExactLabels { game: G::NAME })?;
                rows.extend(label_all(&wanted, make, cfg.threads, stats, &t0)?);
            }
        }
        log(&format!("learn: {opp}: {} rows", rows.len() - base));
    }
    Ok(rows)
}

/// A position to label: its game's number, the position, the perspective, the game's result
/// for that perspective.
type Wanted<G> = (usize, G, Side, Option<f64>);

/// Labels `wanted` on `threads` threads (fixed chunks, results in order).
fn label_all<G: Game>(
    wanted: &[Wanted<G>],
    make: &LabelerFactory<G>,
    threads: usize,
    stats: &LabelStats,
    t0: &Instant,
) -> Result<Vec<Row<G>>, Error> {
    const CHUNK: usize = 256;
    let chunks: Vec<&[Wanted<G>]> = wanted.chunks(CHUNK).collect();
    let next = AtomicUsize::new(0);
    let out: std::sync::Mutex<Vec<(usize, Vec<Row<G>>)>> = std::sync::Mutex::new(Vec::new());
    let errors: std::sync::Mutex<Option<Error>> = std::sync::Mutex::new(None);
    let every = (chunks.len() / 50).max(1);
    let work = || {
        let mut lab = match make() {
            Ok(l) => l,
            Err(e) => {
                *errors.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                return;
            }
        };
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= chunks.len() {
                break;
            }
            let mut rows = Vec::new();
            for &(game, pos, perspective, _) in chunks[i] {
                stats.offered.fetch_add(1, Ordering::Relaxed);
                if let Some((target, weight)) = lab.label(&pos, perspective) {
                    stats.labelled.fetch_add(1, Ordering::Relaxed);
                    rows.push(Row {
                        game,
                        sample: Sample {
                            pos,
                            perspective,
                            target,
                            weight,
                        },
                    });
                }
            }
            out.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((i, rows));
            if i.is_multiple_of(every) {
                log(&format!(
                    "learn: labelled {} of {} chunks ({} rows so far, {:.0} s)",
                    i + 1,
                    chunks.len(),
                    stats.labelled.load(Ordering::Relaxed),
                    t0.elapsed().as_secs_f64()
                ));
            }
        }
        stats.failed.fetch_add(lab.failures(), Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(work);
        }
        work();
    });
    if let Some(e) = errors.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut v = out.into_inner().unwrap_or_else(|p| p.into_inner());
    v.sort_by_key(|(i, _)| *i);
    Ok(v.into_iter().flat_map(|(_, r)| r).collect())
}

const DATA_HEADER: &str = "# tablero learn data v1: game\tperspective\ttarget\tweight\tfen";

fn write_data<G: Game>(path: &Path, rows: &[Row<G>], about: &str) -> Result<(), Error> {
    let err = |source: std::io::Error| Error::WriteData {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).map_err(err)?);
    writeln!(f, "{DATA_HEADER}").map_err(err)?;
    writeln!(f, "# {about}").map_err(err)?;
    for r in rows {
        writeln!(
            f,
            "{}\t{}\t{}\t{}\t{}",
            r.game,
            r.sample.perspective.index(),
            r.sample.target,
            r.sample.weight,
            r.sample.pos.format_fen()
        )
        .map_err(err)?;
    }
    f.flush().map_err(err)
}

fn read_data<G: Game>(path: &Path) -> Result<Vec<Row<G>>, Error> {
    let io = |source: std::io::Error| Error::DataFile {
        path: path.to_path_buf(),
        source,
    };
    let f = std::fs::File::open(path).map_err(io)?;
    let config = spec::default_config::<G>()?;
    let mut rows = Vec::new();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.map_err(io)?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |what: &str| Error::DataLine {
            path: path.to_path_buf(),
            line: i + 1,
            why: what.to_string(),
        };
        let mut it = line.splitn(5, '\t');
        let mut field = |name: &str| it.next().ok_or_else(|| bad(&format!("no {name} field")));
        let game: usize = field("game")?.parse().map_err(|_| bad("bad game number"))?;
        let perspective = match field("perspective")? {
            "0" => Side::First,
            "1" => Side::Second,
            _ => return Err(bad("perspective is not 0 or 1")),
        };
        let target: f64 = field("target")?.parse().map_err(|_| bad("bad target"))?;
        let weight: f64 = field("weight")?.parse().map_err(|_| bad("bad weight"))?;
        if !target.is_finite() || !weight.is_finite() || weight < 0.0 {
            return Err(bad("target and weight must be finite, weight >= 0"));
        }
        let pos = G::parse_fen(field("fen")?, &config).map_err(|e| bad(&e.to_string()))?;
        rows.push(Row {
            game,
            sample: Sample {
                pos,
                perspective,
                target,
                weight,
            },
        });
    }
    Ok(rows)
}

/// Texel's K: the unit (evaluation per logit) that fits `values` best, by golden-section search
/// on its logarithm.
fn best_unit<G: Game>(samples: &[Sample<G>], values: &[i32], threads: usize) -> f64 {
    let loss =
        |lu: f64| fit::mean_loss(samples, values, Loss::Logistic { unit: lu.exp() }, threads);
    let (mut a, mut b) = (0.0f64, 25.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - r * (b - a), a + r * (b - a));
    let (mut fc, mut fd) = (loss(c), loss(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = loss(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The fitted report of `rows`: losses, weights, the options to set.
fn fit_rows<G: Game>(
    cfg: &Config,
    plan: &LearnPlan,
    start: &[i32],
    rows: &[Row<G>],
) -> Result<String, Error> {
    let fitted: Vec<usize> = match &cfg.fit {
        Some(names) => names
            .iter()
            .map(|n| weight_index::<G>(n))
            .collect::<Result<_, _>>()?,
        None => (0..G::WEIGHTS.len())
            .filter(|&i| {
                let n = G::WEIGHTS[i].name;
                !plan.exclude.contains(&n) && !plan.fixed.contains(&n)
            })
            .collect(),
    };
    // Rows where an excluded term contributes are left out.
    let excluded: Vec<usize> = plan
        .exclude
        .iter()
        .filter_map(|n| weight_index::<G>(n).ok())
        .collect();
    let base_w = G::weights(start);
    let zeroed: Vec<G::Weights> = excluded
        .iter()
        .map(|&j| {
            let mut v = start.to_vec();
            v[j] = 0;
            G::weights(&v)
        })
        .collect();
    let keep = |s: &Sample<G>| {
        let e = s.pos.evaluate_with(0, &base_w, s.perspective);
        zeroed
            .iter()
            .all(|z| s.pos.evaluate_with(0, z, s.perspective) == e)
    };
    let squares_unit = plan.squares_unit.filter(|_| !cfg.margin_sign);
    let mut train = Vec::new();
    let mut valid = Vec::new();
    let mut dropped = 0;
    for r in rows {
        if !keep(&r.sample) {
            dropped += 1;
            continue;
        }
        let mut r = Row {
            game: r.game,
            sample: r.sample,
        };
        if plan.squares_unit.is_some() && cfg.margin_sign {
            r.sample.target = match r.sample.target.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            };
        }
        // Pairs (games 2k, 2k+1 share an opening) whose number ends in 9 validate.
        if (r.game / 2) % 10 == 9 {
            valid.push(r.sample);
        } else {
            train.push(r.sample);
        }
    }
    if train.is_empty() {
        return Err(Error::NoTrainingRows);
    }
    let loss = match squares_unit {
        Some(u) => Loss::Squares { unit: u },
        None => Loss::Logistic {
            unit: cfg
                .unit
                .unwrap_or_else(|| best_unit(&train, start, cfg.threads)),
        },
    };
    let fc = FitConfig {
        start: start.to_vec(),
        fitted: fitted.clone(),
        loss,
        iterations: cfg.iterations,
        threads: cfg.threads,
    };
    let t = Instant::now();
    let out = fit::fit(&train, &fc, &log);
    let before_t = fit::mean_loss(&train, start, loss, cfg.threads);
    let after_t = fit::mean_loss(&train, &out.weights, loss, cfg.threads);
    let before_v = fit::mean_loss(&valid, start, loss, cfg.threads);
    let after_v = fit::mean_loss(&valid, &out.weights, loss, cfg.threads);
    // `+ 0.0`: the float sum of nothing is -0.0, which the report would print as "-0".
    let weight_sum = |v: &[Sample<G>]| v.iter().map(|s| s.weight).sum::<f64>() + 0.0;
    let mut r = String::new();
    use std::fmt::Write as _;
    let _ = writeln!(
        r,
        "rows: {} train ({:.0} weighted), {} validation ({:.0} weighted), {dropped} left out",
        train.len(),
        weight_sum(&train),
        valid.len(),
        weight_sum(&valid)
    );
    let _ = writeln!(
        r,
        "loss: {loss:?}; train {before_t:.6} -> {after_t:.6}; validation {before_v:.6} -> {after_v:.6} \
         ({} steps)",
        out.history.len() - 1
    );
    // The time goes to the log: the report is a function of the data and the settings.
    log(&format!("fit: {:.1} s", t.elapsed().as_secs_f64()));
    if let Loss::Squares { .. } = loss {
        let var = |v: &[Sample<G>]| {
            let n = weight_sum(v).max(1e-300);
            let m = v.iter().map(|s| s.weight * s.target).sum::<f64>() / n;
            v.iter()
                .map(|s| s.weight * (s.target - m).powi(2))
                .sum::<f64>()
                / n
        };
        let _ = writeln!(
            r,
            "R^2: train {:.4}, validation {:.4}",
            1.0 - after_t / var(&train).max(1e-300),
            1.0 - after_v / var(&valid).max(1e-300)
        );
    }
    for (i, w) in G::WEIGHTS.iter().enumerate() {
        let mark = if fitted.contains(&i) {
            "fitted"
        } else {
            "kept"
        };
        let _ = writeln!(
            r,
            "{:<32} {:>9} -> {:>9}  ({mark})",
            w.name, start[i], out.weights[i]
        );
    }
    let opts: Vec<String> = G::WEIGHTS
        .iter()
        .zip(&out.weights)
        .map(|(w, v)| format!("--option {}={v}", w.name))
        .collect();
    let _ = writeln!(r, "options: {}", opts.join(" "));
    Ok(r)
}

fn run_game<G: Game>(cfg: &Config, labeler: Option<&LabelerFactory<G>>) -> Result<String, Error> {
    let plan = plan(cfg.kind);
    let start = start_weights::<G>(&cfg.weights)?;
    let stats = LabelStats::default();
    let mut rows = Vec::new();
    for p in &cfg.data_in {
        rows.extend(read_data::<G>(p)?);
    }
    let mut report = String::new();
    if cfg.data_in.is_empty() {
        rows = generate::<G>(cfg, &plan, &start, labeler, &stats)?;
        report.push_str(&format!(
            "data: {} games at depth {} against {}; {} rows; labels offered {}, labelled {}, \
             failed {}\n",
            cfg.games,
            cfg.depth,
            cfg.opponents.join(", "),
            rows.len(),
            stats.offered.load(Ordering::Relaxed),
            stats.labelled.load(Ordering::Relaxed),
            stats.failed.load(Ordering::Relaxed)
        ));
        if let Some(p) = &cfg.data_out {
            let about = format!(
                "game {} seed {} games {} depth {} opponents {} opening {}..{} rate {} weights {}",
                G::NAME,
                cfg.seed,
                cfg.games,
                cfg.depth,
                cfg.opponents.join(","),
                cfg.opening.0,
                cfg.opening.1,
                cfg.rate,
                start
                    .iter()
                    .map(i32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            write_data(p, &rows, &about)?;
        }
    }
    report.push_str(&fit_rows(cfg, &plan, &start, &rows)?);
    Ok(report)
}

/// Runs `learn`: the report (data, losses, weights).
///
/// # Errors
/// Out-of-range settings, unknown weight or heuristic names, unreadable or malformed data
/// files, an unwritable output, the solvers' failures.
pub fn run(cfg: &Config) -> Result<String, Error> {
    if !((0.0..=1.0).contains(&cfg.rate) && cfg.above_db > 0.0 && cfg.above_db <= 1.0) {
        return Err(Error::Invalid(
            "the sampling rate must be in 0..=1 and the above-database rate in (0, 1]".into(),
        ));
    }
    if cfg.depth == 0 || cfg.threads == 0 {
        return Err(Error::Invalid("depth and threads: at least 1".into()));
    }
    if cfg.opening.0 > cfg.opening.1 {
        return Err(Error::Invalid(
            "opening plies: MIN..MAX with MIN <= MAX".into(),
        ));
    }
    let plan_labels = cfg.labels.unwrap_or(plan(cfg.kind).labels);
    let need_labels = cfg.data_in.is_empty() && plan_labels == LabelKind::Exact;
    // Names and ranges first: before a database loads or a game is played.
    struct Check<'a>(&'a Config);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), Error>;
        fn visit<G: Game>(self) -> Self::Output {
            start_weights::<G>(&self.0.weights)?;
            for o in &self.0.opponents {
                heuristic_index::<G>(o)?;
            }
            for n in self.0.fit.iter().flatten() {
                weight_index::<G>(n)?;
            }
            Ok(())
        }
    }
    dispatch(cfg.kind, Check(cfg))?;
    if need_labels && !matches!(cfg.kind, GameKind::Mancala | GameKind::Connect4) {
        return Err(Error::NoExactLabels {
            game: cfg.kind.name(),
        });
    }
    match cfg.kind {
        GameKind::Mancala => {
            let db: Option<Arc<KalahDb>> = if need_labels && cfg.db_seeds > 0 {
                let dir = cfg
                    .db_dir
                    .clone()
                    .or_else(kalahdb::default_dir)
                    .ok_or_else(|| {
                        Error::Database("no cache directory (no HOME or XDG_CACHE_HOME)".into())
                    })?;
                let threads = cfg.threads;
                let size = kalahdb::layers_bytes(6, 0, cfg.db_seeds);
                if let Some(max) = cfg.db_max_bytes
                    && size > max
                {
                    return Err(Error::Database(format!(
                        "{} seeds take {} MB, over the {} MB allowed; fewer seeds (--db-seeds {}) \
                         label fewer positions exactly",
                        cfg.db_seeds,
                        size >> 20,
                        max >> 20,
                        kalahdb::seeds_within(6, cfg.db_seeds, max).unwrap_or(0)
                    )));
                }
                Some(Arc::new(KalahDb::load_or_build(
                    &dir,
                    6,
                    Rules::Course,
                    cfg.db_seeds,
                    threads,
                    &|l| eprintln!("{l}"),
                )))
            } else {
                None
            };
            let above = cfg.above_db;
            let salt = cfg.seed ^ 0x006b_616c_6168;
            let make = move || -> Result<Box<dyn Labeler<Mancala>>, Error> {
                Ok(Box::new(KalahLabels {
                    inner: label::KalahLabeler::new(6, 48, db.clone(), 64)
                        .map_err(Error::Solver)?,
                    above,
                    salt,
                    failed: 0,
                }))
            };
            run_game::<Mancala>(cfg, Some(&make))
        }
        GameKind::Connect4 => {
            let nodes = cfg.c4_nodes;
            let make = move || -> Result<Box<dyn Labeler<Connect4>>, Error> {
                Ok(Box::new(Connect4Labels {
                    inner: label::Connect4Labeler::new(7, 6, 64, nodes),
                    failed: 0,
                }))
            };
            run_game::<Connect4>(cfg, Some(&make))
        }
        k => {
            struct NoLabels<'a>(&'a Config);
            impl GameVisitor for NoLabels<'_> {
                type Output = Result<String, Error>;
                fn visit<G: Game>(self) -> Self::Output {
                    run_game::<G>(self.0, None)
                }
            }
            dispatch(k, NoLabels(cfg))
        }
    }
}
