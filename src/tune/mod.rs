//! `tablero tune`: SPSA over an engine's integer `spin` options, the fishtest way. Each
//! iteration plays colour-swapped pairs of θ+ against θ− through the referee (the same engine
//! twice, the parameters sent as `setoption`), updates θ ([`spsa::step`]) and appends one JSON
//! line to the `-o` file, which `--resume` continues after a crash. `--plot` draws the paths.

pub mod plot;
pub mod spsa;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::rng::splitmix64;
use crate::core::spec::name_value;
use crate::games::GameKind;
use crate::referee::conn::{Conn, Recv, StartError, deadline_after};
use crate::referee::{
    self, Config, EngineConfig, EngineSpec, Format, MoveLimits, Openings, parse_tc,
};
use spsa::{Gains, Param, Step, Wdl};

/// Why a tuning run could not start, continue or go on. Each text is one line naming the file
/// or flag at fault.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The file is not a `tablero tune` log (or cannot be read).
    #[error("{path}: {why}")]
    Log { path: String, why: LogError },
    /// The recorded engine is not an engine spec.
    #[error("engine: {0}")]
    Engine(referee::ParseError),
    /// A recorded variant option is not `NAME=VALUE`.
    #[error("option: expected NAME=VALUE, got '{0}'")]
    Option(String),
    /// The recorded openings cannot be used.
    #[error("{0}")]
    Openings(referee::Error),
    /// The recorded time control is not one.
    #[error("tc: {0}")]
    Tc(referee::ParseError),
    /// The engine could not be started.
    #[error("--engine: {0}")]
    Start(StartError),
    /// The engine did not finish answering `uci`.
    #[error("--engine {0}: no `uciok` answer to `uci`")]
    NoUciok(String),
    /// A `--param` the engine does not declare as a `spin` option.
    #[error("--param {0}: the engine has no spin option of that name")]
    NoSuchOption(String),
    /// A `--param` range wider than the engine's.
    #[error("--param {name}: range {min}..{max} exceeds the engine's {lo}..{hi}")]
    Range {
        name: String,
        min: f64,
        max: f64,
        lo: f64,
        hi: f64,
    },
    /// `--resume` of a file written under other settings (the first difference).
    #[error("--resume {path}: the file was written under other settings ({diff})")]
    OtherSettings { path: String, diff: String },
    /// `--resume` of a file that cannot be cut back to its whole lines.
    #[error("--resume {path}: {why}")]
    Resume { path: String, why: std::io::Error },
    /// `--resume` of a file whose iteration `k` another run with these settings would not
    /// have played.
    #[error("--resume {path}: iteration {k} does not follow from the settings")]
    NotFollowing { path: String, k: usize },
    /// `-o` names a file that holds something.
    #[error("-o {path}: the file exists (continue it with --resume, or remove it)")]
    Exists { path: String },
    /// Creating or starting `-o` failed.
    #[error("-o {path}: {why}")]
    Create { path: String, why: std::io::Error },
    /// Appending an iteration failed.
    #[error("{path}: {why}")]
    Append { path: String, why: std::io::Error },
    /// An iteration's match failed.
    #[error("iteration {k}: {why}")]
    Iteration { k: usize, why: referee::Error },
    /// An iteration's match ended without a summary.
    #[error("a match without a summary")]
    NoSummary,
}

/// Why a file is not a `tablero tune` log.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("{0}")]
    Read(std::io::Error),
    #[error("line 1 is not a tune header: {0}")]
    NotHeader(serde_json::Error),
    #[error("no header line (not a `tablero tune` file)")]
    NoHeader,
    #[error("format version {0} (this tablero writes {TUNE_VERSION})")]
    Version(u64),
    #[error("line {line}: not an iteration: {why}")]
    NotIteration { line: usize, why: serde_json::Error },
    #[error("line {line}: iteration {k} where {want} was expected")]
    OutOfOrder { line: usize, k: usize, want: usize },
    #[error("line {line}: expected {params} parameters")]
    Params { line: usize, params: usize },
}

/// Version of the `-o` format.
pub const TUNE_VERSION: u64 = 1;

/// What a tuning run is played under: the header of the `-o` file. A file is continued only
/// under equal settings. `--concurrency` and the referee's patience are not settings (they do
/// not change the games of deterministic engines).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneSettings {
    pub game: String,
    pub engine: String,
    pub params: Vec<Param>,
    pub iterations: usize,
    pub pairs_per_iteration: usize,
    pub seed: u64,
    /// Fixed `setoption`s sent to both sides (`--option`).
    pub options: Vec<String>,
    pub openings: Option<String>,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub tc: Option<String>,
    pub max_plies: usize,
}

impl TuneSettings {
    /// The first setting that differs from `other`, as `name: ours vs theirs`.
    fn difference(&self, other: &TuneSettings) -> Option<String> {
        let (a, b) = (json!(self), json!(other));
        let (Value::Object(a), Value::Object(b)) = (a, b) else {
            return Some("settings".into());
        };
        a.iter()
            .find(|(k, v)| b.get(*k) != Some(v))
            .map(|(k, v)| format!("{k}: {v} vs {}", b.get(k).unwrap_or(&Value::Null)))
    }
}

/// The header line of the `-o` file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Header {
    tune_version: u64,
    settings: TuneSettings,
    /// Schedule constants per parameter (derived from the settings; for readers).
    gains: Vec<Gains>,
}

/// A run read back from an `-o` file.
#[derive(Clone, Debug)]
pub struct TuneLog {
    pub settings: TuneSettings,
    pub steps: Vec<Step>,
    /// Byte length of the complete lines (a torn last line lies beyond it).
    good_len: u64,
    /// Whether a torn last line was dropped.
    pub torn: bool,
}

/// Reads an `-o` file: the header, then iterations 1, 2, … in order. A last line without
/// its newline or that does not parse is a torn write and is dropped; anything else malformed
/// is an error.
pub fn read_log(path: &Path) -> Result<TuneLog, TuneError> {
    let fail = |why: LogError| TuneError::Log {
        path: path.display().to_string(),
        why,
    };
    let bytes = std::fs::read(path).map_err(|e| fail(LogError::Read(e)))?;
    let mut lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    let mut torn = false;
    let parse_last =
        |l: &[u8]| -> bool { l.ends_with(b"\n") && serde_json::from_slice::<Value>(l).is_ok() };
    if let Some(last) = lines.last()
        && !parse_last(last)
    {
        lines.pop();
        torn = true;
    }
    let good_len: usize = lines.iter().map(|l| l.len()).sum();
    let mut it = lines.into_iter().enumerate();
    let header: Header = match it.next() {
        Some((_, l)) => serde_json::from_slice(l).map_err(|e| fail(LogError::NotHeader(e)))?,
        None => return Err(fail(LogError::NoHeader)),
    };
    if header.tune_version != TUNE_VERSION {
        return Err(fail(LogError::Version(header.tune_version)));
    }
    let np = header.settings.params.len();
    let mut steps: Vec<Step> = Vec::new();
    for (i, l) in it {
        let s: Step = serde_json::from_slice(l)
            .map_err(|why| fail(LogError::NotIteration { line: i + 1, why }))?;
        if s.k != steps.len() + 1 {
            return Err(fail(LogError::OutOfOrder {
                line: i + 1,
                k: s.k,
                want: steps.len() + 1,
            }));
        }
        if [
            s.theta_before.len(),
            s.theta_after.len(),
            s.delta.len(),
            s.plus.len(),
            s.minus.len(),
        ]
        .iter()
        .any(|&n| n != np)
        {
            return Err(fail(LogError::Params {
                line: i + 1,
                params: np,
            }));
        }
        steps.push(s);
    }
    Ok(TuneLog {
        settings: header.settings,
        steps,
        good_len: good_len as u64,
        torn,
    })
}

/// Where the run is written: a new `-o` file or a `--resume`d one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuneOut {
    New(PathBuf),
    Resume(PathBuf),
}

/// Everything a tuning run needs: its recorded settings plus what is not recorded (the
/// concurrency and the referee's patience, which do not change the games).
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub kind: GameKind,
    pub settings: TuneSettings,
    pub concurrency: usize,
    /// Lateness tolerated beyond a time limit, ms.
    pub margin_ms: u64,
    /// Longest wait for a reply without a time limit, ms.
    pub timeout_ms: u64,
    pub out: TuneOut,
}

/// The referee's configuration for every iteration (the options are set per iteration), from
/// the recorded settings, so that a resumed run plays exactly what the file says.
fn match_config(cfg: &TuneConfig) -> Result<Config, TuneError> {
    let s = &cfg.settings;
    let spec = EngineSpec::parse(&s.engine).map_err(TuneError::Engine)?;
    let engine = |name: &str| EngineConfig {
        spec: spec.clone(),
        name: name.to_string(),
        options: Vec::new(),
        limits: None,
    };
    let variant = s
        .options
        .iter()
        .map(|o| name_value(o).ok_or_else(|| TuneError::Option(o.clone())))
        .collect::<Result<_, _>>()?;
    Ok(Config {
        kind: cfg.kind,
        engines: vec![engine("plus"), engine("minus")],
        format: Format::Match {
            games: 2 * s.pairs_per_iteration,
        },
        variant,
        concurrency: cfg.concurrency,
        seed: s.seed,
        openings: Openings::from_spec(s.openings.as_deref()).map_err(TuneError::Openings)?,
        limits: MoveLimits {
            depth: s.depth,
            nodes: s.nodes,
            movetime_ms: s.movetime,
            tc_ms: s
                .tc
                .as_deref()
                .map(parse_tc)
                .transpose()
                .map_err(TuneError::Tc)?,
            margin_ms: cfg.margin_ms,
            timeout_ms: cfg.timeout_ms,
        },
        max_plies: s.max_plies,
        sprt: None,
        records: None,
        log_dir: None,
        shard: None,
        progress: false,
        startup_ms: cfg.timeout_ms.min(crate::referee::config::STARTUP_MS),
        refusals: crate::referee::Refusals::Stop,
    })
}

/// Runs `tablero tune`: iterations until the settings' count, each appended to the out file.
pub fn run(tune: &TuneConfig) -> Result<(), TuneError> {
    let settings = &tune.settings;
    let cfg = match_config(tune)?;
    check_params(&cfg, &settings.params)?;
    let (path, mut theta, mut done, file) = open_out(&tune.out, settings)?;
    let mut out = std::io::BufWriter::new(file);
    let n = settings.iterations;
    let names: Vec<String> = settings.params.iter().map(|p| p.name.clone()).collect();
    let started = std::time::Instant::now();
    while done < n {
        let k = done + 1;
        let step = spsa::step(
            &settings.params,
            n,
            settings.seed,
            k,
            &theta,
            |plus, minus| play_iteration(&cfg, &names, k, plus, minus),
        )?;
        writeln!(out, "{}", json_line(&step))
            .and_then(|()| out.flush())
            .map_err(|why| TuneError::Append {
                path: path.display().to_string(),
                why,
            })?;
        // Progress only: a closed stderr must not end a run whose iterations are on disk.
        let _ = writeln!(
            std::io::stderr(),
            "tune {k}/{n}: +{}-{}={} θ {} ({:.0} s)",
            step.result.wins,
            step.result.losses,
            step.result.draws,
            fmt_theta(&names, &step.theta_after),
            started.elapsed().as_secs_f64()
        );
        theta = step.theta_after;
        done = k;
    }
    let _ = writeln!(std::io::stdout(), "{}", fmt_theta(&names, &theta));
    Ok(())
}

/// Asks the engine for its options (`uci`) and refuses a parameter it does not declare as a
/// `spin` option or whose range exceeds the engine's: a misspelt name would otherwise be tuned
/// with no effect at all.
fn check_params(cfg: &Config, params: &[Param]) -> Result<(), TuneError> {
    let e = &cfg.engines[0];
    let mut conn = Conn::start(&e.spec, cfg.kind).map_err(TuneError::Start)?;
    let deadline = deadline_after(Duration::from_millis(cfg.limits.timeout_ms));
    let mut spins: Vec<(String, Option<f64>, Option<f64>)> = Vec::new();
    let answered = conn.send("uci")
        && loop {
            match conn.recv(deadline) {
                Recv::Line(l) if l.trim() == "uciok" => break true,
                Recv::Line(l) => {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    if w.len() > 4 && w[0] == "option" && w[1] == "name" {
                        let Some(t) = w.iter().position(|&x| x == "type") else {
                            continue;
                        };
                        if w.get(t + 1) != Some(&"spin") {
                            continue;
                        }
                        let after = |key: &str| {
                            w.iter()
                                .position(|&x| x == key)
                                .and_then(|i| w.get(i + 1))
                                .and_then(|v| v.parse::<f64>().ok())
                        };
                        spins.push((w[2..t].join(" "), after("min"), after("max")));
                    }
                }
                _ => break false,
            }
        };
    conn.close();
    if !answered {
        return Err(TuneError::NoUciok(e.name.clone()));
    }
    for p in params {
        match spins.iter().find(|(n, _, _)| *n == p.name) {
            None => return Err(TuneError::NoSuchOption(p.name.clone())),
            Some((_, lo, hi)) => {
                if lo.is_some_and(|lo| p.min < lo) || hi.is_some_and(|hi| p.max > hi) {
                    return Err(TuneError::Range {
                        name: p.name.clone(),
                        min: p.min,
                        max: p.max,
                        lo: lo.unwrap_or(f64::NEG_INFINITY),
                        hi: hi.unwrap_or(f64::INFINITY),
                    });
                }
            }
        }
    }
    Ok(())
}

/// One JSON line of the log. The header and the steps are plain numbers, strings and lists,
/// which serialise without fail (a NaN would become `null`, and `read_log` would refuse it).
fn json_line<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn fmt_theta(names: &[String], theta: &[f64]) -> String {
    names
        .iter()
        .zip(theta)
        .map(|(n, t)| format!("{n}={t:.2}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Opens (or continues) the `-o` file: its path, the current θ, the iterations done and the
/// file positioned for appending.
fn open_out(
    out: &TuneOut,
    settings: &TuneSettings,
) -> Result<(PathBuf, Vec<f64>, usize, std::fs::File), TuneError> {
    let start: Vec<f64> = settings.params.iter().map(|p| p.start).collect();
    match out {
        TuneOut::Resume(path) => {
            let log = read_log(path)?;
            if let Some(d) = log.settings.difference(settings) {
                return Err(TuneError::OtherSettings {
                    path: path.display().to_string(),
                    diff: d,
                });
            }
            if log.torn {
                eprintln!(
                    "tablero: notice: {}: dropped a torn last line (partial write)",
                    path.display()
                );
            }
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(log.good_len).map(|()| f))
                .and_then(|mut f| {
                    use std::io::Seek;
                    f.seek(std::io::SeekFrom::End(0)).map(|_| f)
                })
                .map_err(|why| TuneError::Resume {
                    path: path.display().to_string(),
                    why,
                })?;
            // θ is recomputed from the recorded results rather than parsed back: decimal
            // floats do not always parse to the same bits, and a resumed run must continue
            // from exactly the θ an uninterrupted run would have had.
            let mut theta = start;
            for s in &log.steps {
                let r = spsa::step(
                    &settings.params,
                    settings.iterations,
                    settings.seed,
                    s.k,
                    &theta,
                    |_, _| Ok::<_, std::convert::Infallible>(s.result),
                )
                .unwrap_or_else(|never| match never {});
                let near = r
                    .theta_after
                    .iter()
                    .zip(&s.theta_after)
                    .all(|(a, b)| (a - b).abs() <= 1e-9 * a.abs().max(1.0));
                if r.delta != s.delta || r.plus != s.plus || r.minus != s.minus || !near {
                    return Err(TuneError::NotFollowing {
                        path: path.display().to_string(),
                        k: s.k,
                    });
                }
                theta = r.theta_after;
            }
            Ok((path.clone(), theta, log.steps.len(), file))
        }
        TuneOut::New(path) => {
            if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
                return Err(TuneError::Exists {
                    path: path.display().to_string(),
                });
            }
            let create = |why| TuneError::Create {
                path: path.display().to_string(),
                why,
            };
            let mut file = std::fs::File::create(path).map_err(create)?;
            let header = Header {
                tune_version: TUNE_VERSION,
                settings: settings.clone(),
                gains: settings
                    .params
                    .iter()
                    .map(|p| p.gains(settings.iterations))
                    .collect(),
            };
            writeln!(file, "{}", json_line(&header)).map_err(create)?;
            Ok((path.clone(), start, 0, file))
        }
    }
}

/// Plays iteration `k`'s pairs: engine 1 is θ+, engine 2 θ−; the openings are seeded by the
/// run's seed and `k`, so every iteration sees fresh openings and a rerun the same ones.
fn play_iteration(
    base: &Config,
    names: &[String],
    k: usize,
    plus: &[i64],
    minus: &[i64],
) -> Result<Wdl, TuneError> {
    let mut cfg = base.clone();
    cfg.seed = splitmix64(base.seed ^ (k as u64).wrapping_mul(0xa076_1d64_78bd_642f));
    let opts = |v: &[i64]| -> Vec<(String, String)> {
        names
            .iter()
            .zip(v)
            .map(|(n, x)| (n.clone(), x.to_string()))
            .collect()
    };
    let (p, m) = (opts(plus), opts(minus));
    cfg.engines[0].options.extend(p);
    cfg.engines[1].options.extend(m);
    let played = referee::run(&cfg, &mut |_| {}).map_err(|why| TuneError::Iteration { k, why })?;
    let s = played.summary.ok_or(TuneError::NoSummary)?;
    Ok(Wdl {
        wins: s.tally.wins,
        draws: s.tally.draws,
        losses: s.tally.losses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header line of a one-parameter log.
    fn header(version: u64) -> String {
        let settings = TuneSettings {
            game: "connect4".into(),
            engine: "builtin:ninja1".into(),
            params: vec![Param::parse("x=5,0,10,1,0.1").unwrap()],
            iterations: 4,
            pairs_per_iteration: 1,
            seed: 1,
            options: vec![],
            openings: None,
            depth: Some(2),
            nodes: None,
            movetime: None,
            tc: None,
            max_plies: 100,
        };
        json!({"tune_version": version, "settings": settings, "gains": [settings.params[0].gains(4)]})
            .to_string()
    }

    fn step_line(k: usize, params: usize) -> String {
        let v = vec![1.0; params];
        json!({"k": k, "theta_before": v, "delta": vec![1; params], "c_k": v, "a_k": v,
               "plus": vec![1; params], "minus": vec![1; params],
               "result": {"wins": 1, "draws": 0, "losses": 1}, "theta_after": v})
        .to_string()
    }

    fn log_error(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("tablero-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let e = read_log(&path).map(|_| ()).unwrap_err();
        assert!(matches!(e, TuneError::Log { .. }), "{e}");
        let text = e.to_string();
        let prefix = format!("{}: ", path.display());
        text.strip_prefix(&prefix).unwrap_or(&text).to_string()
    }

    #[test]
    fn a_file_that_is_not_a_tune_log_is_told_apart_by_kind() {
        let h = header(TUNE_VERSION);
        let dir = std::env::temp_dir().join(format!("tablero-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.jsonl");
        std::fs::write(
            &good,
            format!("{h}\n{}\n{{\"k\": 2, \"tor", step_line(1, 1)),
        )
        .unwrap();
        let log = read_log(&good).unwrap();
        assert_eq!((log.steps.len(), log.torn), (1, true));
        assert_eq!(
            log_error("empty.jsonl", ""),
            "no header line (not a `tablero tune` file)"
        );
        assert!(log_error("h.jsonl", "[]\n").starts_with("line 1 is not a tune header: "));
        assert_eq!(
            log_error("v.jsonl", &format!("{}\n", header(9))),
            format!("format version 9 (this tablero writes {TUNE_VERSION})")
        );
        assert!(
            log_error("i.jsonl", &format!("{h}\n{{}}\n{}\n", step_line(1, 1)))
                .starts_with("line 2: not an iteration: ")
        );
        assert_eq!(
            log_error("o.jsonl", &format!("{h}\n{}\n", step_line(2, 1))),
            "line 2: iteration 2 where 1 was expected"
        );
        assert_eq!(
            log_error("p.jsonl", &format!("{h}\n{}\n", step_line(1, 2))),
            "line 2: expected 1 parameters"
        );
        let e = read_log(&dir.join("absent.jsonl")).map(|_| ()).unwrap_err();
        assert!(
            matches!(
                e,
                TuneError::Log {
                    why: LogError::Read(_),
                    ..
                }
            ),
            "{e}"
        );
    }
}
