//! `tablero analyse`: reviews every game of one match's or tournament's records (several files
//! merge as `tablero report` merges them) and writes the annotated records: the same lines with
//! a `review` field added to every judged move and to every game, and the review's settings
//! added to the header. Games go to `concurrency` workers, each with its own analysing engine;
//! results are written strictly in game order as they come, so an interrupted run leaves a
//! prefix that `--resume` continues, and the output does not depend on the concurrency.
//!
//! A game that breaks the rules is written unannotated with the reason (`review.error`) and
//! reported; a failing engine stops the run after the games before it are written.

use std::collections::{BTreeMap, HashMap};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};

use super::analyst::{Analyst, AnalystError, InProcess, Prover, QueryLimits, Remote};
use super::annotation::{GameReview, PlayerStats};
use super::game::{GameError, replay, review};
use super::judge::{Calibration, Thresholds, calibration};
use super::value::Curve;
use crate::core::game::{ConfigError, Game, WeightOverrides};
use crate::core::rng::fnv1a;
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::referee::config::first_difference;
use crate::referee::conn::EngineSpec;
use crate::referee::records::{ReadGame, read_whole};

/// Why a review could not start, or stopped. Each text is one line that names the file or
/// option at fault and, where there is one, what to do.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The records cannot be read or merged.
    #[error("{0}")]
    Records(#[from] crate::referee::Error),
    /// A records line the reader kept cannot be read again (`source` is `path:line`).
    #[error("{at}: {why}")]
    Reread { at: String, why: RereadError },
    /// The records' first line cannot be read again for the output's header.
    #[error("{path}:1: {why}")]
    Header { path: String, why: RereadError },
    /// The variant options the records were played with are not a variant of the game.
    #[error("recorded variant options: {0}")]
    Variant(ConfigError),
    /// An in-process `--option` tablero does not take.
    #[error("{0}")]
    Option(#[from] OptionError),
    /// `--resume FILE` is not a continuation of this review; the file is left as it is.
    #[error("--resume {path}: {why}")]
    Resume { path: String, why: ResumeWhy },
    /// The output exists and neither `--resume` nor `--overwrite` was given.
    #[error(
        "-o {path}: the file exists; --resume {path} continues that review, --overwrite replaces it when the review ends, or choose another file"
    )]
    Exists { path: String },
    /// Writing the output failed (`doing`: "", "cannot write: " or "cannot sync: ").
    #[error("-o {path}: {doing}{why}")]
    Output {
        path: String,
        doing: &'static str,
        why: std::io::Error,
    },
    /// `--fit` found too few evaluated positions to fit a curve.
    #[error("--fit: fewer than two evaluated positions in games the rules ended")]
    FitTooFew,
    /// `--fit`: the results fall, or stay flat, as the values rise (the slope).
    #[error("--fit: the results do not rise with the values (slope {0:.3e}): no curve")]
    FitFlat(f64),
    /// The analysing engine failed; the games before it are written.
    #[error("{0}")]
    Engine(Box<EngineFailure>),
}

/// Where the analysing engine failed, why, and what of the review is written.
#[derive(Debug, thiserror::Error)]
#[error(
    "engine '{engine}' failed at game {game} ply {ply}: {error}; {done} of {total} games are in {path} (continue with --resume {path})"
)]
pub struct EngineFailure {
    pub engine: String,
    pub game: usize,
    pub ply: usize,
    pub error: AnalystError,
    pub done: usize,
    pub total: usize,
    pub path: String,
}

/// Why a line of the records could not be read again.
#[derive(Debug, thiserror::Error)]
pub enum RereadError {
    #[error("no line number")]
    NoLineNumber,
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("changed while being read")]
    Changed,
    #[error("{0}")]
    Json(#[from] serde_json::Error),
}

/// Why an in-process `--option` is refused.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    #[error("--option Heuristic: unknown heuristic '{value}' for {game} (known: {known})")]
    Heuristic {
        value: String,
        game: &'static str,
        known: String,
    },
    #[error("--option {name}: '{value}' is not an integer in {min}..={max}")]
    Weight {
        name: String,
        value: String,
        min: i32,
        max: i32,
    },
    #[error(
        "--option {name}: the in-process tablero takes Heuristic and {game}'s weight options; give --engine a command line for other options"
    )]
    Unknown { name: String, game: &'static str },
}

/// Why an output cannot be continued.
#[derive(Debug, thiserror::Error)]
pub enum ResumeWhy {
    #[error("{0}")]
    Io(std::io::Error),
    #[error(
        "the file is gzip-compressed and the review appends to it; continue a plain copy (gunzip -k it); the file is left as it is"
    )]
    Compressed,
    #[error("line {0} is not a JSON record")]
    NotJson(usize),
    #[error("line 1 is not an annotated records header")]
    NoHeader,
    #[error("reviewed with other settings ({0})")]
    OtherSettings(String),
    #[error("line {0} is not a game reviewed with these settings")]
    OtherReview(usize),
    #[error("line {line} holds game {got}, expected {want}")]
    OtherGame {
        line: usize,
        got: String,
        want: String,
    },
}

/// The engine of a review.
#[derive(Clone, Debug, PartialEq)]
pub enum Engine {
    /// tablero's own search and solvers, in-process.
    Tablero,
    /// Anything the referee can run (`--engine SPEC` as in `match`).
    Spec(EngineSpec),
}

/// What `tablero analyse` is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub inputs: Vec<PathBuf>,
    pub output: PathBuf,
    /// Continue `output` (its games are kept, the others reviewed) instead of starting it.
    pub resume: bool,
    /// Replace an `output` that exists (written beside it, renamed over it when the review
    /// ends); without it (or `resume`) an existing output is refused.
    pub overwrite: bool,
    /// Review records that are not the whole run (games missing, a last line cut off).
    pub partial: bool,
    pub engine: Engine,
    /// How the engine is named in the settings (`tablero`, or the spec as given).
    pub engine_name: String,
    /// `setoption`s (in-process: `Heuristic` and the weight options only).
    pub options: Vec<(String, String)>,
    /// Unset limits take the game's default depth ([`default_depth`]).
    pub limits: QueryLimits,
    /// Node budget of each solve (the registry's solvers); 0: no solver.
    pub solver_nodes: u64,
    /// Try the solvers on every position, not only those `go` tries within a move's budget.
    pub solver_all: bool,
    /// Table size of the in-process search and of each solver, MiB.
    pub hash_mib: usize,
    pub concurrency: usize,
    /// Longest wait for an engine's answer without a movetime limit.
    pub timeout: Duration,
    /// A progress bar on stderr when it is a terminal.
    pub progress: bool,
}

/// The depth a review searches when no limit is given: the game's `Profile::review_depth`
/// (the course's depth for Parchís, 6; the bridges' for BOOM, 8; 12 for Connect Four and Kalah,
/// whose positions the solvers mostly prove anyway).
pub fn default_depth(kind: GameKind) -> u32 {
    struct Depth;
    impl GameVisitor for Depth {
        type Output = u32;
        fn visit<G: Game>(self) -> u32 {
            G::PROFILE.review_depth
        }
    }
    dispatch(kind, Depth)
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Default node budget of a solve.
pub const SOLVER_NODES: u64 = 2_000_000;

/// What a review was made with: written into the header (`review`) and fingerprinted into every
/// reviewed game (`review.settings`). A resume continues only under equal settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub version: u32,
    pub variant: String,
    pub engine: String,
    pub options: Vec<(String, String)>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub solver_nodes: u64,
    /// `--solver-all`: positions beyond `go`'s size caps were tried too. Left out of the JSON
    /// when false, so the fingerprints of reviews made before it stay the same.
    #[serde(default, skip_serializing_if = "is_false")]
    pub solver_all: bool,
    pub hash_mib: usize,
    /// Seeds of the Kalah endgame database the solver used (0: none).
    pub kalah_db: usize,
    /// The curve's scale and offset, and the thresholds of `?!`, `?`, `??` (expected-score
    /// loss).
    pub scale: f64,
    pub offset: f64,
    pub thresholds: [f64; 3],
}

impl Settings {
    /// The settings as the output's header holds them. Serialising plain strings, integers,
    /// floats and lists cannot fail (a NaN becomes `null`), as in [`Settings::fingerprint`].
    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_default()
    }

    pub fn fingerprint(&self) -> String {
        format!(
            "{:016x}",
            fnv1a(serde_json::to_string(self).unwrap_or_default().as_bytes())
        )
    }

    pub fn calibration(&self) -> Calibration {
        Calibration {
            curve: Curve {
                scale: self.scale,
                offset: self.offset,
            },
            thresholds: Thresholds {
                inaccuracy: self.thresholds[0],
                mistake: self.thresholds[1],
                blunder: self.thresholds[2],
            },
        }
    }

    /// The settings of a header's `review` field.
    pub fn from_header(v: &Json) -> Option<Settings> {
        serde_json::from_value(v.get("review")?.clone()).ok()
    }
}

/// One engine's figures over the games of a review.
#[derive(Clone, Debug, PartialEq)]
pub struct Totals {
    pub stats: PlayerStats,
    /// Games with a judged move of this engine.
    pub games: usize,
    /// Sum of their game accuracies.
    pub accuracy_sum: f64,
}

impl Totals {
    /// Mean game accuracy (each game counts once).
    pub fn accuracy(&self) -> Option<f64> {
        (self.games > 0).then(|| self.accuracy_sum / self.games as f64)
    }
}

/// Per engine (by name, in order of first appearance) the figures of the reviewed game lines
/// among `lines`.
pub fn totals<'a>(lines: impl IntoIterator<Item = &'a Json>) -> Vec<Totals> {
    let mut out: Vec<Totals> = Vec::new();
    for l in lines {
        let Some(players) = l
            .get("review")
            .and_then(|r| r.get("players"))
            .and_then(Json::as_array)
        else {
            continue;
        };
        for p in players.iter().filter_map(PlayerStats::from_json) {
            let t = match out.iter_mut().find(|t| t.stats.name == p.name) {
                Some(t) => t,
                None => {
                    out.push(Totals {
                        stats: PlayerStats::new(&p.name),
                        games: 0,
                        accuracy_sum: 0.0,
                    });
                    out.last_mut().expect("just pushed")
                }
            };
            t.stats.moves += p.moves;
            t.stats.loss_sum += p.loss_sum;
            t.stats.proven += p.proven;
            t.stats.value_lost += p.value_lost;
            t.stats.counted &= p.counted;
            for i in 0..3 {
                t.stats.marks[i] += p.marks[i];
                t.stats.turn_marks[i] += p.turn_marks[i];
            }
            if let Some(a) = p.accuracy {
                t.games += 1;
                t.accuracy_sum += a;
            }
        }
    }
    out
}

/// The table `tablero analyse` prints: per engine games, judged moves, accuracy, mean loss (in
/// points of expected score per move), the marks, the judged moves made from a proven value
/// and how many of them threw it away (won → drawn or lost, drawn → lost).
pub fn totals_text(t: &[Totals]) -> String {
    let w = t
        .iter()
        .map(|x| x.stats.name.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut s = format!(
        "{:<w$}  {:>5} {:>6} {:>8} {:>6} {:>4} {:>4} {:>4} {:>6} {:>5}\n",
        "engine", "games", "moves", "accuracy", "loss", "?!", "?", "??", "proven", "lost"
    );
    for x in t {
        s += &format!(
            "{:<w$}  {:>5} {:>6} {:>8} {:>6} {:>4} {:>4} {:>4} {:>6} {:>5}\n",
            x.stats.name,
            x.games,
            x.stats.moves,
            x.accuracy().map_or("-".into(), |a| format!("{a:.1}")),
            x.stats
                .mean_loss()
                .map_or("-".into(), |l| format!("{l:.2}")),
            x.stats.marks[0],
            x.stats.marks[1],
            x.stats.marks[2],
            counted(&x.stats, x.stats.proven),
            counted(&x.stats, x.stats.value_lost),
        );
    }
    s
}

/// A count of the exact columns, `-` where some review did not count it.
fn counted(s: &PlayerStats, n: usize) -> String {
    if s.counted { n.to_string() } else { "-".into() }
}

/// A game not reviewed because its record breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub game: usize,
    pub source: String,
    pub why: String,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub settings: Settings,
    /// Games in the records.
    pub games: usize,
    /// Games found already reviewed in the output (`--resume`).
    pub kept: usize,
    /// Games reviewed by this run.
    pub reviewed: usize,
    pub skipped: Vec<Skipped>,
    /// Per engine, every reviewed game of the output counted.
    pub totals: Vec<Totals>,
    pub elapsed: Duration,
    /// Engine moves judged by this run.
    pub moves: usize,
}

/// What a run tells the front end as it goes.
pub enum Notice {
    /// A game breaks the rules: written unannotated.
    Skipped(Skipped),
    /// `--resume` dropped the output's torn last line.
    TornLine { line: usize },
}

struct Input {
    record: ReadGame,
    raw: Json,
    names: [String; 2],
}

/// The raw JSON of every game the referee's reader kept (first occurrence of each number).
pub fn raw_lines_of(games: &[ReadGame]) -> Result<Vec<Json>, ReviewError> {
    let mut files: HashMap<String, Vec<String>> = HashMap::new();
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        let fail = |why: RereadError| ReviewError::Reread {
            at: g.source.clone(),
            why,
        };
        let (path, line) = g
            .source
            .rsplit_once(':')
            .and_then(|(p, l)| Some((p, l.parse::<usize>().ok().filter(|&l| l > 0)?)))
            .ok_or_else(|| fail(RereadError::NoLineNumber))?;
        if !files.contains_key(path) {
            let text = crate::referee::records::read_text(Path::new(path)).map_err(|e| {
                ReviewError::Reread {
                    at: path.to_string(),
                    why: e.into(),
                }
            })?;
            files.insert(path.to_string(), text.lines().map(str::to_string).collect());
        }
        let text = files[path]
            .get(line - 1)
            .ok_or_else(|| fail(RereadError::Changed))?;
        out.push(serde_json::from_str(text).map_err(|e| fail(e.into()))?);
    }
    Ok(out)
}

/// The resumable part of an output file: its length in bytes, the games kept.
struct Kept {
    len: u64,
    lines: Vec<Json>,
    torn: Option<usize>,
}

/// Reads an interrupted output: a header (when the records have one) with equal review
/// settings, then reviewed game lines in the run's order; a torn last line is dropped; anything
/// else is an error and the file is left as it is.
fn read_output(
    path: &Path,
    header: bool,
    settings: &Settings,
    order: &[usize],
) -> Result<Kept, ReviewError> {
    let fail = |why: ResumeWhy| ReviewError::Resume {
        path: path.display().to_string(),
        why,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Kept {
                len: 0,
                lines: vec![],
                torn: None,
            });
        }
        Err(e) => return Err(fail(ResumeWhy::Io(e))),
    };
    if crate::referee::records::is_gzip(&bytes) {
        return Err(fail(ResumeWhy::Compressed));
    }
    let fp = settings.fingerprint();
    let mut kept = Kept {
        len: 0,
        lines: vec![],
        torn: None,
    };
    let mut pos = 0;
    let mut line_no = 0;
    while pos < bytes.len() {
        line_no += 1;
        let (end, complete) = match bytes[pos..].iter().position(|&b| b == b'\n') {
            Some(i) => (pos + i, true),
            None => (bytes.len(), false),
        };
        let last = bytes[end..].iter().all(u8::is_ascii_whitespace);
        let v = std::str::from_utf8(&bytes[pos..end])
            .ok()
            .filter(|_| complete)
            .and_then(|l| serde_json::from_str::<Json>(l).ok());
        match v {
            None if last => {
                kept.torn = Some(line_no);
                break;
            }
            None => return Err(fail(ResumeWhy::NotJson(line_no))),
            Some(v) if header && line_no == 1 => {
                let theirs = Settings::from_header(&v).ok_or_else(|| fail(ResumeWhy::NoHeader))?;
                if let Some(d) = first_difference(&theirs, settings) {
                    return Err(fail(ResumeWhy::OtherSettings(d)));
                }
            }
            Some(v) => {
                let want = order.get(kept.lines.len());
                let game = v.get("game").and_then(Json::as_u64).map(|g| g as usize);
                let by = v
                    .get("review")
                    .and_then(|r| r.get("settings"))
                    .and_then(Json::as_str);
                if by != Some(fp.as_str()) {
                    return Err(fail(ResumeWhy::OtherReview(line_no)));
                }
                if game.is_none() || game != want.copied() {
                    return Err(fail(ResumeWhy::OtherGame {
                        line: line_no,
                        got: game.map_or("none".into(), |g| g.to_string()),
                        want: want.map_or("none".into(), |g| g.to_string()),
                    }));
                }
                kept.lines.push(v);
            }
        }
        pos = end + 1;
        kept.len = pos.min(bytes.len()) as u64;
    }
    if header && kept.len == 0 {
        kept.lines.clear();
    }
    Ok(kept)
}

/// The output being written: whole lines, synced every so often (a killed run leaves whole
/// lines or one torn last line, which `--resume` drops).
struct Output {
    file: std::fs::File,
    path: PathBuf,
    /// Where the review is written until it ends (`path`, or beside it when it replaces it).
    writing: PathBuf,
    last_sync: Instant,
}

impl Output {
    /// Opens `path` after its first `kept` bytes (0: a new file; `replace`: written beside it
    /// and renamed over it by [`Output::finish`]).
    fn open(
        path: &Path,
        kept: u64,
        replace: bool,
        header: Option<&Json>,
    ) -> Result<Output, ReviewError> {
        let writing = if replace {
            crate::referee::records::replacement(path)
        } else {
            path.to_path_buf()
        };
        let err = |why| output_error(&writing, "", why);
        let file = if kept == 0 {
            let mut f = std::fs::File::create(&writing).map_err(err)?;
            if let Some(h) = header {
                f.write_all(format!("{h}\n").as_bytes()).map_err(err)?;
            }
            f
        } else {
            let f = std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(err)?;
            f.set_len(kept).map_err(err)?;
            f
        };
        Ok(Output {
            file,
            path: path.to_path_buf(),
            writing,
            last_sync: Instant::now(),
        })
    }

    /// Synced, and a replacement renamed over the file it replaces.
    fn finish(mut self) -> Result<(), ReviewError> {
        self.sync()?;
        if self.writing != self.path {
            std::fs::rename(&self.writing, &self.path)
                .map_err(|e| output_error(&self.path, "", e))?;
        }
        Ok(())
    }

    fn append(&mut self, v: &Json) -> Result<(), ReviewError> {
        self.file
            .write_all(format!("{v}\n").as_bytes())
            .map_err(|e| output_error(&self.path, "cannot write: ", e))?;
        if self.last_sync.elapsed() >= Duration::from_millis(200) {
            self.sync()?;
        }
        Ok(())
    }

    fn sync(&mut self) -> Result<(), ReviewError> {
        self.last_sync = Instant::now();
        self.file
            .sync_data()
            .map_err(|e| output_error(&self.path, "cannot sync: ", e))
    }
}

fn output_error(path: &Path, doing: &'static str, why: std::io::Error) -> ReviewError {
    ReviewError::Output {
        path: path.display().to_string(),
        doing,
        why,
    }
}

/// The variant's rule configuration from the records' settings (defaults without them).
pub fn config_of<G: Game>(options: &[(String, i64)]) -> Result<G::Config, ReviewError> {
    let vals: Vec<i64> = G::OPTIONS
        .iter()
        .map(|o| {
            options
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(o.name))
                .map_or(o.default, |(_, v)| *v)
        })
        .collect();
    G::configure(&vals).map_err(ReviewError::Variant)
}

/// The in-process engine's heuristic and weights from `--option`s.
fn in_process_options<G: Game>(
    options: &[(String, String)],
) -> Result<(usize, WeightOverrides), OptionError> {
    let mut heuristic = 0;
    let mut weights = WeightOverrides::default();
    for (n, v) in options {
        if n.eq_ignore_ascii_case("Heuristic") {
            heuristic = G::HEURISTICS
                .iter()
                .position(|h| h.eq_ignore_ascii_case(v))
                .ok_or_else(|| OptionError::Heuristic {
                    value: v.clone(),
                    game: G::NAME,
                    known: G::HEURISTICS.join(", "),
                })?;
        } else if let Some(i) = G::WEIGHTS
            .iter()
            .position(|w| w.name.eq_ignore_ascii_case(n))
        {
            let w = &G::WEIGHTS[i];
            let x: i32 = v
                .parse()
                .ok()
                .filter(|x| (w.min..=w.max).contains(x))
                .ok_or_else(|| OptionError::Weight {
                    name: n.clone(),
                    value: v.clone(),
                    min: w.min,
                    max: w.max,
                })?;
            weights.set(i, x);
        } else {
            return Err(OptionError::Unknown {
                name: n.clone(),
                game: G::NAME,
            });
        }
    }
    Ok((heuristic, weights))
}

/// Reviews the records of `cfg` into its output. `notice` hears skipped games as they come.
pub fn run(cfg: &Config, notice: &mut dyn FnMut(Notice)) -> Result<Outcome, ReviewError> {
    let merged = read_whole(&cfg.inputs, cfg.partial)?;
    dispatch(
        merged.kind,
        Job {
            cfg,
            merged,
            notice,
        },
    )
}

struct Job<'a> {
    cfg: &'a Config,
    merged: crate::referee::Merged,
    notice: &'a mut dyn FnMut(Notice),
}

impl GameVisitor for Job<'_> {
    type Output = Result<Outcome, ReviewError>;
    fn visit<G: Game>(self) -> Self::Output {
        run_game::<G>(self.cfg, self.merged, self.notice)
    }
}

fn run_game<G: Game>(
    cfg: &Config,
    merged: crate::referee::Merged,
    notice: &mut dyn FnMut(Notice),
) -> Result<Outcome, ReviewError> {
    let t0 = Instant::now();
    let kind = merged.kind;
    let variant: Vec<(String, i64)> = merged
        .settings
        .as_ref()
        .map(|s| s.options.clone())
        .unwrap_or_default();
    let gcfg = config_of::<G>(&variant)?;
    if cfg.engine == Engine::Tablero {
        in_process_options::<G>(&cfg.options)?;
    }
    let mut limits = cfg.limits;
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime_ms.is_none() {
        limits.depth = Some(default_depth(kind));
    }
    let cal = calibration(kind, limits.depth);
    let in_process = cfg.engine == Engine::Tablero;
    let settings = Settings {
        version: 1,
        variant: kind.name().to_string(),
        engine: cfg.engine_name.clone(),
        options: cfg.options.clone(),
        depth: limits.depth,
        nodes: limits.nodes,
        movetime_ms: limits.movetime_ms,
        solver_nodes: if in_process { cfg.solver_nodes } else { 0 },
        solver_all: in_process && cfg.solver_nodes > 0 && cfg.solver_all,
        hash_mib: cfg.hash_mib,
        kalah_db: if in_process && cfg.solver_nodes > 0 {
            Prover::kalah_db_seeds(kind, &variant)
        } else {
            0
        },
        scale: cal.curve.scale,
        offset: cal.curve.offset,
        thresholds: cal.thresholds.as_array(),
    };
    let fp = settings.fingerprint();
    let raws = raw_lines_of(&merged.games)?;
    let inputs: Vec<Input> = merged
        .games
        .iter()
        .cloned()
        .zip(raws)
        .map(|(record, raw)| {
            let name = |k: &str| raw.get(k).and_then(Json::as_str).unwrap_or("?").to_string();
            let names = [name("first"), name("second")];
            Input { record, raw, names }
        })
        .collect();
    let order: Vec<usize> = inputs.iter().map(|i| i.record.record.index).collect();
    // The header: the file's own when there is one file, else the merged settings'.
    let header = match &merged.settings {
        None => None,
        Some(s) => {
            let mut h = if cfg.inputs.len() == 1 {
                let fail = |why: RereadError| ReviewError::Header {
                    path: cfg.inputs[0].display().to_string(),
                    why,
                };
                let text = crate::referee::records::read_text(&cfg.inputs[0])
                    .map_err(|e| fail(e.into()))?;
                serde_json::from_str::<Json>(text.lines().next().unwrap_or(""))
                    .map_err(|e| fail(e.into()))?
            } else {
                crate::referee::records::header_json(s, None, merged.total.filter(|_| s.is_match()))
            };
            h["review"] = settings.to_json();
            Some(h)
        }
    };
    let kept = if cfg.resume {
        read_output(&cfg.output, header.is_some(), &settings, &order)?
    } else {
        Kept {
            len: 0,
            lines: vec![],
            torn: None,
        }
    };
    if let Some(line) = kept.torn {
        notice(Notice::TornLine { line });
    }
    if !cfg.resume && !cfg.overwrite && cfg.output.exists() {
        return Err(ReviewError::Exists {
            path: cfg.output.display().to_string(),
        });
    }
    let mut out = Output::open(
        &cfg.output,
        kept.len,
        cfg.overwrite && !cfg.resume,
        header.as_ref(),
    )?;
    let start = kept.lines.len();
    let mut written: Vec<Json> = kept.lines;
    let todo = &inputs[start..];
    let bar = if cfg.progress && std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(inputs.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  ETA {eta}  {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_position(start as u64);
    let next = AtomicUsize::new(0);
    // Jobs at or past this index are not started (an engine failed at it).
    let stop_at = AtomicUsize::new(usize::MAX);
    let (tx, rx) = mpsc::channel::<(usize, Result<GameReview, GameError>)>();
    let workers = cfg.concurrency.clamp(1, todo.len().max(1));
    let spec_options: Vec<(String, String)> = {
        let mut o: Vec<(String, String)> = variant
            .iter()
            .zip(G::OPTIONS)
            .filter(|((_, v), opt)| *v != opt.default)
            .map(|((n, v), _)| (n.clone(), v.to_string()))
            .collect();
        o.extend(cfg.options.iter().cloned());
        o
    };
    let mut skipped = Vec::new();
    let mut failure: Option<(usize, usize, AnalystError)> = None;
    let mut moves = 0usize;
    let mut reviewed = 0usize;
    std::thread::scope(|scope| -> Result<(), ReviewError> {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop_at, gcfg, cal) = (&next, &stop_at, &gcfg, &cal);
            let spec_options = spec_options.clone();
            scope.spawn(move || {
                let mut analyst: Box<dyn Analyst<G>> = match &cfg.engine {
                    Engine::Tablero => {
                        let (h, w) = in_process_options::<G>(&cfg.options).unwrap_or_default();
                        Box::new(InProcess::<G>::new(
                            h,
                            w,
                            limits,
                            cfg.hash_mib,
                            cfg.solver_nodes,
                            cfg.solver_all,
                        ))
                    }
                    Engine::Spec(spec) => Box::new(Remote::new(
                        spec.clone(),
                        kind,
                        spec_options,
                        limits,
                        cfg.timeout,
                    )),
                };
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    if j >= todo.len() || j >= stop_at.load(Ordering::Relaxed) {
                        break;
                    }
                    let inp = &todo[j];
                    let names = [inp.names[0].as_str(), inp.names[1].as_str()];
                    let r = replay::<G>(&inp.record.record, gcfg)
                        .map_err(GameError::Record)
                        .and_then(|g| review(&g, analyst.as_mut(), cal, names));
                    if let Err(GameError::Engine { .. }) = &r {
                        stop_at.fetch_min(j, Ordering::Relaxed);
                    }
                    if tx.send((j, r)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // The reorder buffer: results are written in game order.
        let mut pending: BTreeMap<usize, Result<GameReview, GameError>> = BTreeMap::new();
        let mut commit = 0usize;
        for (j, r) in rx {
            pending.insert(j, r);
            while let Some(r) = pending.remove(&commit) {
                let inp = &todo[commit];
                let mut line = inp.raw.clone();
                match r {
                    Ok(g) => {
                        if let Some(ms) = line.get_mut("moves").and_then(Json::as_array_mut) {
                            for (m, p) in ms.iter_mut().zip(&g.plies) {
                                m["review"] = p.to_json();
                            }
                        }
                        line["review"] = g.to_json(&fp);
                        moves += g.plies.len();
                        reviewed += 1;
                    }
                    Err(GameError::Record(why)) => {
                        let why = why.to_string();
                        line["review"] = json!({"settings": fp, "error": why});
                        let s = Skipped {
                            game: inp.record.record.index,
                            source: inp.record.source.clone(),
                            why,
                        };
                        bar.suspend(|| notice(Notice::Skipped(s.clone())));
                        skipped.push(s);
                    }
                    Err(GameError::Engine { ply, error }) => {
                        failure = Some((inp.record.record.index, ply, error));
                        break;
                    }
                }
                out.append(&line)?;
                written.push(line);
                commit += 1;
                bar.set_position((start + commit) as u64);
                let secs = t0.elapsed().as_secs_f64().max(1e-3);
                bar.set_message(format!("{:.0} moves/s", moves as f64 / secs));
            }
            if failure.is_some() {
                break;
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let written_to = out.writing.clone();
    if failure.is_some() {
        out.sync()?;
    } else {
        out.finish()?;
    }
    if let Some((game, ply, error)) = failure {
        return Err(ReviewError::Engine(Box::new(EngineFailure {
            engine: cfg.engine_name.clone(),
            game,
            ply,
            error,
            done: start + reviewed + skipped.len(),
            total: inputs.len(),
            path: written_to.display().to_string(),
        })));
    }
    let lines: Vec<&Json> = written.iter().collect();
    Ok(Outcome {
        totals: totals(lines),
        settings,
        games: inputs.len(),
        kept: start,
        reviewed,
        skipped,
        elapsed: t0.elapsed(),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;

    fn settings(depth: u32) -> Settings {
        Settings {
            version: 1,
            variant: "connect4".into(),
            engine: "tablero".into(),
            options: vec![],
            depth: Some(depth),
            nodes: None,
            movetime_ms: None,
            solver_nodes: 0,
            solver_all: false,
            hash_mib: 16,
            kalah_db: 0,
            scale: 200.0,
            offset: 0.0,
            thresholds: [0.05, 0.1, 0.2],
        }
    }

    /// `--resume` of a file holding `text`, reviewed with `settings(4)`, games 0 and 1 in order.
    fn resume(name: &str, text: &[u8]) -> Result<Kept, ReviewError> {
        let dir = std::env::temp_dir().join(format!("tablero-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let r = read_output(&path, true, &settings(4), &[0, 1]);
        // The file is left as it is, whatever the answer.
        assert_eq!(std::fs::read(&path).unwrap(), text);
        r
    }

    #[test]
    fn a_resume_that_does_not_continue_this_review_is_told_apart_by_kind() {
        let header = |d: u32| json!({"review": settings(d).to_json()}).to_string();
        let fp = settings(4).fingerprint();
        let game = |g: usize, by: &str| json!({"game": g, "review": {"settings": by}}).to_string();
        let ok = format!("{}\n{}\n{}", header(4), game(0, &fp), "{\"game\": 1, \"tor");
        let kept = resume("ok.jsonl", ok.as_bytes()).unwrap();
        assert_eq!((kept.lines.len(), kept.torn), (1, Some(3)));
        let cases: [(&str, String, &str); 5] = [
            (
                "a.jsonl",
                format!("{}\nnot json\n{}\n", header(4), game(0, &fp)),
                "line 2 is not a JSON record",
            ),
            (
                "b.jsonl",
                format!("{{}}\n{}\n", game(0, &fp)),
                "line 1 is not an annotated records header",
            ),
            (
                "c.jsonl",
                format!("{}\n", header(6)),
                "reviewed with other settings",
            ),
            (
                "d.jsonl",
                format!("{}\n{}\n", header(4), game(0, "0123")),
                "line 2 is not a game reviewed with these settings",
            ),
            (
                "e.jsonl",
                format!("{}\n{}\n", header(4), game(1, &fp)),
                "line 2 holds game 1, expected 0",
            ),
        ];
        for (name, text, want) in cases {
            let e = resume(name, text.as_bytes()).err().unwrap();
            let path = std::env::temp_dir()
                .join(format!("tablero-run-{}", std::process::id()))
                .join(name);
            let start = format!("--resume {}: {want}", path.display());
            assert!(e.to_string().starts_with(&start), "{e}");
        }
        let gz = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
        let e = resume("f.jsonl.gz", &gz).err().unwrap();
        assert!(
            matches!(
                e,
                ReviewError::Resume {
                    why: ResumeWhy::Compressed,
                    ..
                }
            ),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("(gunzip -k it); the file is left as it is"),
            "{e}"
        );
    }

    #[test]
    fn in_process_options_name_what_is_wrong() {
        let opts = |n: &str, v: &str| in_process_options::<Connect4>(&[(n.into(), v.into())]);
        assert!(opts("Heuristic", "default").is_ok());
        let e = opts("Heuristic", "nope").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("--option Heuristic: unknown heuristic 'nope' for connect4 (known: "),
            "{e}"
        );
        let w = &Connect4::WEIGHTS[0];
        let e = opts(w.name, "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "--option {}: 'x' is not an integer in {}..={}",
                w.name, w.min, w.max
            )
        );
        let e = opts("Hash", "16").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--option Hash: the in-process tablero takes Heuristic and connect4's weight options; give --engine a command line for other options"
        );
    }
}
