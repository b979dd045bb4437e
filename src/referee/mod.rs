//! The referee (`tablero match`): plays two engines against each other over colour-swapped
//! pairs of openings, `--concurrency` games at a time, validates every move with the rules,
//! writes one JSON record per game as results come in, and reports W/D/L, Elo (pentanomial and
//! trinomial), LOS, an optional SPRT and how the games ended.
//!
//! Reproducibility: game `i` belongs to pair `i / 2`; the pair's opening is a pure function of
//! `--seed` and the pair number, and engine 1 moves first in even games. Results are committed
//! (recorded, counted, tested by the SPRT) strictly in game order, so the records, the report
//! and the SPRT stopping point do not depend on `--concurrency` or on timing (given engines that
//! are deterministic themselves, e.g. depth- or node-limited).

pub mod engine;
pub mod game;
pub mod ratings;
pub mod stats;
pub mod tournament;

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::game::{Game, Side, try_play};
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::players::splitmix64;
use engine::EngineSpec;
pub use game::EngineLimits;
use game::{GameOutcome, MoveLimits, Reason, Slot, Start};
use stats::{Sprt, SprtDecision};

/// One engine of the match.
#[derive(Clone, Debug)]
pub struct EngineConf {
    pub spec: EngineSpec,
    pub name: String,
    /// `setoption` name/value pairs.
    pub options: Vec<(String, String)>,
    /// Its own limits in place of the shared ones (`--limits1/--limits2`).
    pub limits: Option<EngineLimits>,
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every pair starts from the start position.
    Start,
    /// `P` seeded random plies from the start position.
    Random(usize),
    /// Lines of a file (`fen <state> [moves …]` or a move list), used in order, cycling.
    Lines(Vec<String>),
}

impl Openings {
    /// `start`, `random:P` or `lines:<count>:<fingerprint>`: how records name the openings.
    pub fn label(&self) -> String {
        match self {
            Openings::Start => "start".to_string(),
            Openings::Random(p) => format!("random:{p}"),
            Openings::Lines(lines) => {
                format!(
                    "lines:{}:{:016x}",
                    lines.len(),
                    fnv1a(lines.join("\n").as_bytes())
                )
            }
        }
    }

    /// Parses `--openings`: `random:P` or a file of opening lines (`#` comments).
    pub fn from_arg(o: Option<&str>) -> Result<Openings, String> {
        let Some(o) = o else {
            return Ok(Openings::Start);
        };
        if let Some(p) = o.strip_prefix("random:") {
            return Ok(Openings::Random(p.parse().map_err(|_| {
                format!("--openings: random:P needs a number of plies, got '{p}'")
            })?));
        }
        let text = std::fs::read_to_string(o).map_err(|e| format!("--openings {o}: {e}"))?;
        let lines: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        if lines.is_empty() {
            return Err(format!("--openings {o}: no openings in the file"));
        }
        Ok(Openings::Lines(lines))
    }
}

/// FNV-1a: a stable fingerprint (std's hasher is seeded per process).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The first top-level field in which two settings (any serialisable struct) differ, as
/// `name A vs B`.
pub fn first_difference<T: Serialize>(a: &T, b: &T) -> Option<String> {
    let (a, b) = (json!(a), json!(b));
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return None;
    };
    a.iter()
        .find(|(k, v)| b.get(*k) != Some(*v))
        .map(|(k, v)| format!("{k} {v} vs {}", b.get(k).unwrap_or(&Value::Null)))
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub kind: GameKind,
    pub engines: [EngineConf; 2],
    /// Variant options (`--option`), sent to both engines and used by the referee's rules.
    pub variant: Vec<(String, String)>,
    pub games: usize,
    pub concurrency: usize,
    pub seed: u64,
    pub openings: Openings,
    pub limits: MoveLimits,
    pub max_plies: usize,
    pub sprt: Option<Sprt>,
    /// Records file (JSON lines); with `resume` it is read first and continued.
    pub records: Option<PathBuf>,
    pub resume: bool,
    pub log_dir: Option<PathBuf>,
    pub progress: bool,
}

/// The version of the records format this referee writes: 1 had no `version` field and no
/// `settings`; 2 adds both (readers accept either).
pub const RECORDS_VERSION: u64 = 2;

/// What a match is played under, written into every record (records version 2). Records can be
/// continued (`--resume`) or merged (`tablero report`) only under equal settings. The number of
/// games, the concurrency and the referee's patience (`--margin`, `--timeout`) are not settings:
/// they change how much is played or how hostile engines are caught, not the games themselves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub variant: String,
    /// Every variant option of the game with its value (defaults included), in the game's order.
    pub options: Vec<(String, i64)>,
    pub engines: [EngineSettings; 2],
    pub seed: u64,
    /// `start`, `random:P` or `lines:<count>:<hash of the lines>` for an openings file.
    pub openings: String,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    /// Base and increment per player, ms.
    pub tc_ms: Option<(u64, u64)>,
    pub max_plies: usize,
    /// The SPRT the match stops on, `null` when it ran without one.
    pub sprt: Option<Sprt>,
}

/// One engine's part of [`Settings`]: its name, `setoption`s and own limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSettings {
    pub name: String,
    pub options: Vec<(String, String)>,
    /// The engine's own limits (`--limits1/--limits2`), absent when it plays under the shared
    /// ones (so older records read the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<EngineLimits>,
}

impl Settings {
    /// The settings of `cfg` with the resolved variant option values `options`.
    fn of(cfg: &MatchConfig, options: Vec<(String, i64)>) -> Settings {
        let openings = cfg.openings.label();
        let eng = |e: &EngineConf| EngineSettings {
            name: e.name.clone(),
            options: e.options.clone(),
            limits: e.limits,
        };
        Settings {
            variant: cfg.kind.name().to_string(),
            options,
            engines: [eng(&cfg.engines[0]), eng(&cfg.engines[1])],
            seed: cfg.seed,
            openings,
            depth: cfg.limits.depth,
            nodes: cfg.limits.nodes,
            movetime_ms: cfg.limits.movetime_ms,
            tc_ms: cfg.limits.tc_ms,
            max_plies: cfg.max_plies,
            sprt: cfg.sprt,
        }
    }

    /// The first setting in which `other` differs from `self`, as `name A vs B` (A `self`'s).
    pub fn difference(&self, other: &Settings) -> Option<String> {
        first_difference(self, other)
    }
}

/// One finished game as recorded.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub index: usize,
    /// Engine (0 or 1) that played `Side::First`.
    pub first: usize,
    pub opening_base: String,
    pub opening_moves: Vec<String>,
    pub outcome: GameOutcome,
}

impl GameRecord {
    /// The winning engine (0 or 1), `None` for a draw.
    pub fn winner_engine(&self) -> Option<usize> {
        self.outcome.winner.map(|s| match s {
            Side::First => self.first,
            Side::Second => 1 - self.first,
        })
    }

    fn to_json(&self, cfg: &MatchConfig, settings: &Settings) -> Value {
        let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
        let mut v = self.to_json_named(cfg.kind.name(), names);
        v["version"] = json!(RECORDS_VERSION);
        v["settings"] = json!(settings);
        v
    }

    /// The record line of this game in `variant` between engines named `names` (engine 1,
    /// engine 2): the `--records` schema without the match settings.
    pub fn to_json_named(&self, variant: &str, names: [&str; 2]) -> Value {
        let result = match self.outcome.winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        };
        let moves: Vec<Value> = self
            .outcome
            .moves
            .iter()
            .map(|m| json!({"move": m.mv, "ms": m.time_ms, "depth": m.depth, "score": m.score}))
            .collect();
        json!({
            "game": self.index,
            "pair": self.index / 2,
            "variant": variant,
            "first": names[self.first],
            "second": names[1 - self.first],
            "first_engine": self.first + 1,
            "opening": {"base": self.opening_base, "moves": self.opening_moves},
            "moves": moves,
            "result": result,
            "winner": self.winner_engine().map(|e| e + 1),
            "reason": self.outcome.reason.name(),
            "detail": self.outcome.detail,
            "junk_lines": self.outcome.junk,
        })
    }

    /// Reads back a record line (any records version): the game, its opening, moves and result.
    /// `None` when a field the statistics need is missing or mistyped.
    pub fn from_json(v: &Value) -> Option<GameRecord> {
        let index = v.get("game")?.as_u64()? as usize;
        // Engines are 1 and 2: anything else would index past the two names.
        let engine = |n: u64| match n {
            1 | 2 => Some(n as usize - 1),
            _ => None,
        };
        let first = engine(v.get("first_engine")?.as_u64()?)?;
        let op = v.get("opening")?;
        let base = op.get("base")?.as_str()?.to_string();
        let om: Vec<String> = op
            .get("moves")?
            .as_array()?
            .iter()
            .filter_map(|m| m.as_str().map(str::to_string))
            .collect();
        let winner = match v.get("winner")? {
            Value::Null => None,
            w => Some(engine(w.as_u64()?)?),
        };
        let reason = Reason::from_name(v.get("reason")?.as_str()?)?;
        let moves = v
            .get("moves")?
            .as_array()?
            .iter()
            .filter_map(|m| {
                Some(game::MoveRecord {
                    mv: m.get("move")?.as_str()?.to_string(),
                    time_ms: m.get("ms")?.as_u64()?,
                    depth: m.get("depth").and_then(Value::as_u64),
                    score: m.get("score").and_then(|s| s.as_str().map(str::to_string)),
                })
            })
            .collect();
        Some(GameRecord {
            index,
            first,
            opening_base: base,
            opening_moves: om,
            outcome: GameOutcome {
                winner: winner.map(|w| {
                    if w == first {
                        Side::First
                    } else {
                        Side::Second
                    }
                }),
                reason,
                detail: v.get("detail")?.as_str()?.to_string(),
                moves,
                junk: v.get("junk_lines").and_then(Value::as_u64).unwrap_or(0),
            },
        })
    }
}

/// Running totals from engine 1's point of view.
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

    /// The Elo estimate the report leads with: pentanomial once a pair is complete.
    pub fn headline(&self) -> Option<stats::EloEstimate> {
        stats::pentanomial(self.pairs)
            .or_else(|| stats::trinomial(self.wins, self.draws, self.losses))
    }

    /// Score of engine 1 in 0..1.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
    }
}

/// The result of a match.
#[derive(Clone, Debug)]
pub struct Summary {
    pub tally: Tally,
    /// LLR, bounds and decision when `--sprt` was given.
    pub sprt: Option<(f64, (f64, f64), SprtDecision)>,
}

/// Parses one opening line into (base, moves) and checks it with the rules: `fen <state>
/// [moves …]`, `[startpos] [moves] m1 m2 …`, or a bare state string.
pub(crate) fn parse_opening<G: Game>(line: &str, cfg: &G::Config) -> Result<Start<G>, String> {
    let line = line.trim();
    let play = |state: G, base: String, rest: &str| -> Result<Start<G>, String> {
        let mut s = state;
        let mut moves = Vec::new();
        for (i, m) in rest.split_whitespace().enumerate() {
            s = try_play(&s, m).map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
            moves.push(m.to_string());
        }
        Ok(Start {
            state: s,
            base,
            moves,
        })
    };
    if let Some(f) = line.strip_prefix("fen ") {
        let (fen, rest) = match f.find(" moves") {
            Some(i) => (f[..i].trim(), &f[i + 6..]),
            None => (f.trim(), ""),
        };
        return play(G::parse_fen(fen, cfg)?, format!("fen {fen}"), rest);
    }
    let rest = line.strip_prefix("startpos").unwrap_or(line).trim_start();
    let rest = rest.strip_prefix("moves").unwrap_or(rest);
    play(G::start(cfg), "startpos".to_string(), rest).or_else(|e| {
        // Not a move list: perhaps a bare state string.
        G::parse_fen(line, cfg)
            .map(|state| Start {
                state,
                base: format!("fen {line}"),
                moves: vec![],
            })
            .map_err(|_| e)
    })
}

/// The opening of pair `k`.
fn opening<G: Game>(cfg: &MatchConfig, gcfg: &G::Config, k: usize) -> Result<Start<G>, String> {
    opening_number(&cfg.openings, cfg.seed, gcfg, k)
}

/// Opening number `k` of `openings` under `seed` (a pure function of the three).
pub(crate) fn opening_number<G: Game>(
    openings: &Openings,
    seed: u64,
    gcfg: &G::Config,
    k: usize,
) -> Result<Start<G>, String> {
    match openings {
        Openings::Start => Ok(Start {
            state: G::start(gcfg),
            base: "startpos".into(),
            moves: vec![],
        }),
        Openings::Lines(lines) => parse_opening(&lines[k % lines.len()], gcfg),
        Openings::Random(plies) => {
            let mut rng = splitmix64(seed ^ splitmix64(k as u64 + 1));
            let mut best = None;
            // A random walk may end the game early; a few retries find an open position.
            for _ in 0..64 {
                let mut s = G::start(gcfg);
                let mut moves = Vec::new();
                for _ in 0..*plies {
                    let mut ms = G::Moves::default();
                    s.legal_moves(&mut ms);
                    let ms = ms.as_ref();
                    if ms.is_empty() {
                        break;
                    }
                    rng = splitmix64(rng);
                    let m = ms[(rng % ms.len() as u64) as usize];
                    moves.push(s.format_move(m));
                    s = s.apply(m);
                }
                let open = s.outcome().is_none();
                best = Some(Start {
                    state: s,
                    base: "startpos".into(),
                    moves,
                });
                if open {
                    break;
                }
            }
            best.ok_or_else(|| "no opening".to_string())
        }
    }
}

/// What `--resume` keeps of a records file.
struct Kept {
    /// The records of games 0, 1, 2, … in order, each with its line.
    records: Vec<(GameRecord, String)>,
    /// Length in bytes of the kept prefix (whole lines, newline included).
    len: u64,
    /// Why the bytes after `len` were dropped: a torn last line.
    dropped: Option<String>,
}

/// Reads the records of an interrupted match: the records of games 0, 1, 2, … in order. Only a
/// torn last line (no newline, or not a whole record: what a killed referee or a power cut
/// leaves) is dropped; an unreadable or out-of-order line with more lines after it, or a
/// record of other settings, is an error and the file is left as it is.
fn read_records<G: Game>(
    cfg: &MatchConfig,
    gcfg: &G::Config,
    settings: &Settings,
    path: &PathBuf,
) -> Result<Kept, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Kept {
                records: vec![],
                len: 0,
                dropped: None,
            });
        }
        Err(e) => return Err(format!("--resume {}: {e}", path.display())),
    };
    let mut out = Vec::new();
    let mut pos = 0usize;
    let mut dropped = None;
    let mut line_no = 0usize;
    while pos < bytes.len() {
        line_no += 1;
        let (end, complete) = match bytes[pos..].iter().position(|&b| b == b'\n') {
            Some(i) => (pos + i, true),
            None => (bytes.len(), false),
        };
        let is_last = bytes[end..].iter().all(|b| b.is_ascii_whitespace());
        let text = std::str::from_utf8(&bytes[pos..end]).ok();
        let parsed = text.and_then(|line| {
            let v = serde_json::from_str::<Value>(line).ok()?;
            (v.get("variant")?.as_str()? == cfg.kind.name()).then_some(())?;
            Some((GameRecord::from_json(&v)?, record_settings(&v), line))
        });
        let Some((r, theirs, line)) = parsed.filter(|_| complete) else {
            if is_last {
                dropped = Some(format!(
                    "dropped its torn last line {line_no} ({} bytes{}); game {} is played again",
                    end - pos,
                    if complete { "" } else { ", no newline" },
                    out.len()
                ));
                break;
            }
            return Err(format!(
                "--resume {}: line {line_no} is not a {} record of this referee, and more lines follow (not a torn last line); the file is left as it is",
                path.display(),
                cfg.kind.name()
            ));
        };
        // Records of version 2 carry their settings; older ones are checked by their openings.
        if let Some(d) = theirs
            .and_then(|t| t.ok())
            .and_then(|t| t.difference(settings))
        {
            return Err(format!(
                "--resume {}: game {} was played with other settings (recorded vs now: {d}); use the same flags",
                path.display(),
                r.index
            ));
        }
        if r.index != out.len() || r.first != r.index % 2 {
            return Err(format!(
                "--resume {}: line {line_no} holds game {} where game {} was expected; the file is left as it is",
                path.display(),
                r.index,
                out.len()
            ));
        }
        let op = opening::<G>(cfg, gcfg, r.index / 2)?;
        if op.base != r.opening_base || op.moves != r.opening_moves {
            return Err(format!(
                "--resume {}: game {} was played from another opening; use the same --seed and --openings",
                path.display(),
                r.index
            ));
        }
        out.push((r, line.to_string()));
        pos = end + 1;
    }
    Ok(Kept {
        records: out,
        len: pos.min(bytes.len()) as u64,
        dropped,
    })
}

/// The records file being written. Each record is one `write` of the whole line (a killed
/// referee leaves whole lines, or at worst one torn last line that `--resume` drops), and the
/// data reaches the disk (`fdatasync`) at most every `SYNC_EVERY`, so a power cut loses at
/// most the games of that last moment, which `--resume` plays again.
struct RecordsFile {
    file: std::fs::File,
    path: PathBuf,
    last_sync: std::time::Instant,
    unsynced: bool,
}

/// How often written records are forced to the disk (an `fdatasync` costs milliseconds; once per
/// game would cap fast matches at a few hundred games per second).
const SYNC_EVERY: Duration = Duration::from_millis(100);

impl RecordsFile {
    fn new(file: std::fs::File, path: PathBuf) -> RecordsFile {
        RecordsFile {
            file,
            path,
            last_sync: std::time::Instant::now(),
            unsynced: false,
        }
    }

    fn append(&mut self, record: &Value) -> Result<(), String> {
        let mut line = record.to_string();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| format!("--records {}: cannot write: {e}", self.path.display()))?;
        self.unsynced = true;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    fn sync(&mut self) -> Result<(), String> {
        if self.unsynced {
            self.file
                .sync_data()
                .map_err(|e| format!("--records {}: cannot sync: {e}", self.path.display()))?;
            self.unsynced = false;
            self.last_sync = std::time::Instant::now();
        }
        Ok(())
    }
}

/// The settings of a record line: `None` for records older than version 2 (no `settings`),
/// `Some(Err)` when the field is there but unreadable.
pub fn record_settings(v: &Value) -> Option<Result<Settings, String>> {
    let s = v.get("settings")?;
    Some(serde_json::from_value(s.clone()).map_err(|e| format!("settings: {e}")))
}

/// The SPRT's LLR, bounds and decision after the games of `t`: pentanomial once a pair is
/// complete (as fastchess), trinomial before.
pub fn sprt_status(s: &Sprt, t: &Tally) -> (f64, (f64, f64), SprtDecision) {
    let llr = if t.pairs.iter().sum::<u64>() > 0 {
        s.llr_pairs(t.pairs)
    } else {
        s.llr_wdl(t.wins, t.draws, t.losses)
    };
    (llr, s.bounds(), s.decide(llr))
}

/// The rules' configuration and every variant option with its value.
pub(crate) type VariantConfig<C> = (C, Vec<(String, i64)>);

/// The rules' configuration from the variant options (`--option`; the others are ignored here)
/// and every variant option with its value, defaults included, in the game's order.
pub(crate) fn variant_config<G: Game>(
    variant: &[(String, String)],
) -> Result<VariantConfig<G::Config>, String> {
    let vals: Vec<i64> = G::OPTIONS
        .iter()
        .map(|o| {
            variant
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(o.name))
                .map_or(Ok(o.default), |(n, v)| {
                    v.parse::<i64>()
                        .map_err(|_| format!("--option {n}: '{v}' is not an integer"))
                })
        })
        .collect::<Result<_, _>>()?;
    let gcfg = G::configure(&vals).map_err(|e| format!("--option: {e}"))?;
    let options = G::OPTIONS
        .iter()
        .zip(&vals)
        .map(|(o, v)| (o.name.to_string(), *v))
        .collect();
    Ok((gcfg, options))
}

/// Bad opening lines are a usage error, found before any game is played.
pub(crate) fn check_openings<G: Game>(openings: &Openings, gcfg: &G::Config) -> Result<(), String> {
    if let Openings::Lines(lines) = openings {
        for (i, l) in lines.iter().enumerate() {
            parse_opening::<G>(l, gcfg).map_err(|e| format!("--openings line {}: {e}", i + 1))?;
        }
    }
    Ok(())
}

struct Runner<'a>(&'a MatchConfig);

impl GameVisitor for Runner<'_> {
    type Output = Result<Summary, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let cfg = self.0;
        let (gcfg, options) = variant_config::<G>(&cfg.variant)?;
        let settings = Settings::of(cfg, options);
        check_openings::<G>(&cfg.openings, &gcfg)?;
        // Pre-flight: an engine that cannot even be started is a usage error, not a game loss
        // (later failures to restart it are crashes that lose games).
        for e in &cfg.engines {
            engine::Conn::start(&e.spec, cfg.kind)
                .map_err(|err| format!("{}: {err}", e.name))?
                .close();
        }
        if let Some(d) = &cfg.log_dir {
            std::fs::create_dir_all(d).map_err(|e| format!("--log {}: {e}", d.display()))?;
        }
        let mut tally = Tally::default();
        let mut done = 0usize;
        let mut records = None;
        if let Some(path) = &cfg.records {
            let open_err = |e: std::io::Error| format!("--records {}: {e}", path.display());
            let f = if cfg.resume {
                let kept = read_records::<G>(cfg, &gcfg, &settings, path)?;
                // The file is never rewritten: a kill at any moment leaves every whole
                // record in place. Only a torn last line is cut off, in one truncation.
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(open_err)?;
                if let Some(why) = &kept.dropped {
                    f.set_len(kept.len).map_err(open_err)?;
                    f.sync_all().map_err(open_err)?;
                    eprintln!("tablero match: --resume {}: {why}", path.display());
                }
                for (r, _) in &kept.records {
                    tally.add(r);
                }
                done = kept.records.len();
                f
            } else {
                std::fs::File::create(path).map_err(open_err)?
            };
            records = Some(RecordsFile::new(f, path.clone()));
        }
        let mut sprt_state = None;
        let check_sprt = |t: &Tally| cfg.sprt.map(|s| sprt_status(&s, t));
        if done > 0 {
            sprt_state = check_sprt(&tally);
        }
        let total = cfg.games;
        let bar = if cfg.progress && std::io::stderr().is_terminal() {
            indicatif::ProgressBar::new(total as u64)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  ETA {eta}  {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(done as u64);
        let decided = matches!(sprt_state, Some((_, _, d)) if d != SprtDecision::Continue);
        let next = AtomicUsize::new(done);
        let stop = AtomicBool::new(decided || done >= total);
        let (tx, rx) = mpsc::channel::<Result<GameRecord, String>>();
        let workers = cfg.concurrency.clamp(1, total.max(1));
        let mut first_error = None;
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (next, stop, gcfg) = (&next, &stop, &gcfg);
                scope.spawn(move || {
                    let mut slots = [
                        Slot::new(cfg.engines[0].spec.clone(), cfg.engines[0].options.clone()),
                        Slot::new(cfg.engines[1].spec.clone(), cfg.engines[1].options.clone()),
                    ];
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        let r = play_one::<G>(cfg, gcfg, i, &mut slots);
                        if tx.send(r).is_err() {
                            break;
                        }
                    }
                    for s in &mut slots {
                        s.reset();
                    }
                });
            }
            drop(tx);
            let mut buffer: BTreeMap<usize, GameRecord> = BTreeMap::new();
            for r in rx {
                let r = match r {
                    Ok(r) => r,
                    Err(e) => {
                        first_error.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                        continue;
                    }
                };
                buffer.insert(r.index, r);
                while let Some(r) = buffer.remove(&done) {
                    if stop.load(Ordering::Relaxed)
                        && sprt_state.is_some_and(|s| s.2 != SprtDecision::Continue)
                    {
                        break;
                    }
                    if let Some(f) = records.as_mut()
                        && let Err(e) = f.append(&r.to_json(cfg, &settings))
                    {
                        first_error.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    tally.add(&r);
                    done += 1;
                    bar.set_position(done as u64);
                    sprt_state = check_sprt(&tally);
                    let e = tally.headline();
                    bar.set_message(format!(
                        "{}: +{} ={} -{} ({:.1}%){}{}",
                        cfg.engines[0].name,
                        tally.wins,
                        tally.draws,
                        tally.losses,
                        tally.score() * 100.0,
                        e.filter(|e| e.elo.is_finite() && e.error.is_finite())
                            .map_or(String::new(), |e| format!(
                                ", Elo {:+.1} ± {:.1}",
                                e.elo, e.error
                            )),
                        sprt_state.map_or(String::new(), |(llr, (lo, hi), _)| format!(
                            ", LLR {llr:.2} ({lo:.2}, {hi:.2})"
                        ))
                    ));
                    if matches!(sprt_state, Some((_, _, d)) if d != SprtDecision::Continue) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        });
        bar.finish_and_clear();
        if let Some(f) = records.as_mut()
            && let Err(e) = f.sync()
        {
            first_error.get_or_insert(e);
        }
        if let Some(e) = first_error {
            return Err(e);
        }
        Ok(Summary {
            tally,
            sprt: sprt_state,
        })
    }
}

/// Plays game `i` with the two engine slots of a worker.
fn play_one<G: Game>(
    cfg: &MatchConfig,
    gcfg: &G::Config,
    i: usize,
    slots: &mut [Slot; 2],
) -> Result<GameRecord, String> {
    let start = opening::<G>(cfg, gcfg, i / 2)?;
    let ctx = GameContext {
        kind: cfg.kind,
        variant: &cfg.variant,
        limits: [
            cfg.limits.with(cfg.engines[0].limits.as_ref()),
            cfg.limits.with(cfg.engines[1].limits.as_ref()),
        ],
        max_plies: cfg.max_plies,
        log_dir: cfg.log_dir.as_deref(),
    };
    let [a, b] = slots;
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    play_game(&ctx, names, i, i % 2, start, [a, b])
}

/// What every game of a match or tournament shares.
pub(crate) struct GameContext<'a> {
    pub kind: GameKind,
    pub variant: &'a [(String, String)],
    /// The limits of engine 1 and engine 2.
    pub limits: [MoveLimits; 2],
    pub max_plies: usize,
    pub log_dir: Option<&'a std::path::Path>,
}

/// Plays game number `i` from `start` between the engines of `slots` (engine 1, engine 2,
/// named `names`); engine `first` (0 or 1) moves first. An engine that cannot be made ready
/// loses the game (`crash` or `time`) without a move played.
pub(crate) fn play_game<G: Game>(
    ctx: &GameContext,
    names: [&str; 2],
    i: usize,
    first: usize,
    start: Start<G>,
    slots: [&mut Slot; 2],
) -> Result<GameRecord, String> {
    let timeout = Duration::from_millis(ctx.limits[0].timeout_ms);
    let mut outcome = None;
    for (seat, e) in [(Side::First, first), (Side::Second, 1 - first)] {
        let log = match ctx.log_dir {
            Some(d) => {
                let name: String = names[e]
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                let p = d.join(format!("game{:05}-e{}-{name}.log", i, e + 1));
                Some(
                    std::fs::File::create(&p)
                        .map_err(|err| format!("--log {}: {err}", p.display()))?,
                )
            }
            None => None,
        };
        if let Err((reason, detail)) = slots[e].prepare(ctx.kind, ctx.variant, timeout, log) {
            slots[e].reset();
            outcome.get_or_insert(GameOutcome {
                winner: Some(seat.other()),
                reason,
                detail: format!("{}: {detail}", names[e]),
                moves: vec![],
                junk: 0,
            });
        }
    }
    let outcome = match outcome {
        Some(o) => o,
        None => {
            let [a, b] = slots;
            let seats = if first == 0 { [a, b] } else { [b, a] };
            let [l1, l2] = &ctx.limits;
            let limits = if first == 0 { [l1, l2] } else { [l2, l1] };
            game::play(&start, seats, limits, ctx.max_plies)
        }
    };
    Ok(GameRecord {
        index: i,
        first,
        opening_base: start.base,
        opening_moves: start.moves,
        outcome,
    })
}

/// Runs a match.
pub fn run_match(cfg: &MatchConfig) -> Result<Summary, String> {
    dispatch(cfg.kind, Runner(cfg))?
}

fn fmt_elo(e: Option<stats::EloEstimate>) -> String {
    match e {
        Some(e) if e.elo.is_finite() && e.error.is_finite() => {
            format!(
                "{:+.1} ± {:.1} (95%), LOS {:.1}%",
                e.elo,
                e.error,
                e.los * 100.0
            )
        }
        Some(e) if e.elo.is_finite() => format!("{:+.1} (interval unbounded)", e.elo),
        Some(e) => format!(
            "{} (score {:.3})",
            if e.score > 0.5 { "+inf" } else { "-inf" },
            e.score
        ),
        None => "n/a".into(),
    }
}

/// The final table for humans.
pub fn report_text(cfg: &MatchConfig, s: &Summary) -> String {
    table_text(
        cfg.kind.name(),
        [&cfg.engines[0].name, &cfg.engines[1].name],
        cfg.sprt,
        s,
    )
}

/// The result table of a match of `variant` between engines named `names` (also what
/// `tablero report` prints for records).
pub fn table_text(variant: &str, names: [&str; 2], sprt: Option<Sprt>, s: &Summary) -> String {
    let t = &s.tally;
    let [n1, n2] = names;
    let mut o = String::new();
    o += &format!("Match {n1} vs {n2} ({variant}), {} games\n", t.games);
    let w = n1.len().max(n2.len()).max(6);
    o += &format!(
        "{:<w$}  {:>6} {:>6} {:>6} {:>7}\n",
        "engine", "wins", "draws", "losses", "score"
    );
    o += &format!(
        "{:<w$}  {:>6} {:>6} {:>6} {:>6.1}%\n",
        n1,
        t.wins,
        t.draws,
        t.losses,
        t.score() * 100.0
    );
    o += &format!(
        "{:<w$}  {:>6} {:>6} {:>6} {:>6.1}%\n",
        n2,
        t.losses,
        t.draws,
        t.wins,
        (1.0 - t.score()) * 100.0
    );
    o += &format!(
        "Elo {} - {}, pentanomial: {}\n",
        n1,
        n2,
        fmt_elo(stats::pentanomial(t.pairs))
    );
    o += &format!(
        "Elo {} - {}, trinomial:   {}\n",
        n1,
        n2,
        fmt_elo(stats::trinomial(t.wins, t.draws, t.losses))
    );
    o += &format!(
        "pairs by {}'s points (0, 0.5, 1, 1.5, 2): {:?}; LOS from W/L {:.1}%\n",
        n1,
        t.pairs,
        stats::los_wl(t.wins, t.losses) * 100.0
    );
    let reasons: Vec<String> = Reason::ALL
        .iter()
        .map(|r| format!("{} {}", r.name(), t.reasons.get(r).copied().unwrap_or(0)))
        .collect();
    o += &format!("games ended by: {}\n", reasons.join(", "));
    if let (Some(p), Some((llr, (lo, hi), d))) = (sprt, s.sprt) {
        o += &format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) {}\n",
            p.elo0,
            p.elo1,
            p.alpha,
            p.beta,
            llr,
            lo,
            hi,
            d.name()
        );
    }
    o
}

fn est_json(e: Option<stats::EloEstimate>) -> Value {
    match e {
        Some(e) => json!({"score": e.score, "elo": e.elo, "elo_error": e.error, "los": e.los}),
        None => Value::Null,
    }
}

/// The final report as one JSON object (engine 1's view).
pub fn report_json(cfg: &MatchConfig, s: &Summary) -> Value {
    let t = &s.tally;
    let head = t.headline();
    let reasons: serde_json::Map<String, Value> = Reason::ALL
        .iter()
        .map(|r| {
            (
                r.name().to_string(),
                json!(t.reasons.get(r).copied().unwrap_or(0)),
            )
        })
        .collect();
    let mut v = json!({
        "variant": cfg.kind.name(),
        "engine1": cfg.engines[0].name,
        "engine2": cfg.engines[1].name,
        "games": t.games,
        "wins1": t.wins,
        "draws": t.draws,
        "losses1": t.losses,
        "score1": t.score(),
        "elo": head.map(|e| e.elo),
        "elo_error": head.map(|e| e.error),
        "los": head.map(|e| e.los),
        "pentanomial": {"pairs": t.pairs, "estimate": est_json(stats::pentanomial(t.pairs))},
        "trinomial": est_json(stats::trinomial(t.wins, t.draws, t.losses)),
        "reasons": reasons,
    });
    if let (Some(p), Some((llr, (lo, hi), d))) = (cfg.sprt, s.sprt) {
        v["sprt"] = json!({
            "elo0": p.elo0, "elo1": p.elo1, "alpha": p.alpha, "beta": p.beta,
            "llr": llr, "lower": lo, "upper": hi, "decision": d.name(),
        });
    }
    v
}

/// Parses `BASE+INC` (seconds, decimals allowed) into milliseconds.
pub fn parse_tc(s: &str) -> Result<(u64, u64), String> {
    let (b, i) = s.split_once('+').unwrap_or((s, "0"));
    let secs = |t: &str| -> Result<u64, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("--tc: '{t}' is not a number of seconds (BASE+INC)"))?;
        if !(0.0..=1e7).contains(&v) {
            return Err(format!("--tc: '{t}' is out of range"));
        }
        Ok((v * 1000.0).round() as u64)
    };
    let (b, i) = (secs(b)?, secs(i)?);
    if b == 0 {
        return Err("--tc: the base time must be positive".into());
    }
    Ok((b, i))
}

/// `3, 7-9, 12` for sorted, disjoint inclusive ranges.
pub fn ranges(v: &[(usize, usize)]) -> String {
    let out: Vec<String> = v
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    out.join(", ")
}

/// The line about dropped duplicate games of merged records (match and tournament reports).
pub fn duplicates_note(duplicates: usize, conflicting: usize) -> Option<String> {
    (duplicates > 0).then(|| {
        format!(
            "duplicates dropped: {} line{} repeating a game number already read{}",
            duplicates,
            if duplicates == 1 { "" } else { "s" },
            if conflicting > 0 {
                format!(
                    " ({conflicting} with other moves or result than the one kept, the first read)"
                )
            } else {
                String::new()
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;

    #[test]
    fn tc_parsing() {
        assert_eq!(parse_tc("10+0.1"), Ok((10_000, 100)));
        assert_eq!(parse_tc("0.5"), Ok((500, 0)));
        assert!(parse_tc("0+1").is_err());
        assert!(parse_tc("x+1").is_err());
        assert!(parse_tc("1e400").is_err());
        assert!(parse_tc("-3").is_err());
    }

    #[test]
    fn engine_specs() {
        assert_eq!(
            EngineSpec::parse("builtin:Ninja2"),
            Ok(EngineSpec::Builtin(crate::players::Player::Ninja2))
        );
        assert_eq!(
            EngineSpec::parse("tcp:127.0.0.1:7000"),
            Ok(EngineSpec::Tcp("127.0.0.1:7000".into()))
        );
        assert_eq!(
            EngineSpec::parse("'my engine' --x \"a b\""),
            Ok(EngineSpec::Command(vec![
                "my engine".into(),
                "--x".into(),
                "a b".into()
            ]))
        );
        assert!(EngineSpec::parse("tcp:nohost").is_err());
        assert!(EngineSpec::parse("  ").is_err());
        assert!(EngineSpec::parse("'unclosed").is_err());
        assert!(EngineSpec::parse("builtin:god").is_err());
    }

    #[test]
    fn opening_lines() {
        let cfg = <Connect4 as Game>::configure(&[6, 7]).unwrap();
        let o = parse_opening::<Connect4>("4 4 3", &cfg).unwrap();
        assert_eq!((o.base.as_str(), o.moves.len()), ("startpos", 3));
        let o = parse_opening::<Connect4>("startpos moves 1", &cfg).unwrap();
        assert_eq!(o.moves, vec!["1".to_string()]);
        let fen = o.state.format_fen();
        let f = parse_opening::<Connect4>(&format!("fen {fen} moves 2"), &cfg).unwrap();
        assert_eq!(f.base, format!("fen {fen}"));
        assert_eq!(f.moves, vec!["2".to_string()]);
        assert!(parse_opening::<Connect4>("4 9", &cfg).is_err());
        let bare = parse_opening::<Connect4>(&fen, &cfg).unwrap();
        assert_eq!(bare.base, format!("fen {fen}"));
        assert_eq!(bare.state, o.state);
        assert!(parse_opening::<Connect4>("fen nonsense", &cfg).is_err());
    }

    #[test]
    fn tally_counts_pairs() {
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
}
