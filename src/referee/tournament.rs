//! `tablero tournament`: many engines, a deterministic schedule of colour-swapped game pairs
//! (round-robin or gauntlet), shards of that schedule, their records, and the standings
//! (ratings from [`super::ratings`], points, W/D/L, a crosstable).
//!
//! The schedule is a pure function of the number of engines, the format and the rounds: round
//! `r` plays every pairing `(a, b)` (`a < b` in the engine list; round-robin: every pair in
//! lexicographic order, gauntlet: the first engine against each other one) as one pair of games
//! from opening number `r` (so every engine meets the same openings), engine `a` moving first in
//! the first game of the pair and `b` in the second. Pair `p` holds games `2p` and `2p + 1`;
//! pairs are numbered round by round. Shard `K/N` plays the pairs `p` with `p mod N = K - 1`:
//! every shard gets every N-th pair, so shards are within one pair of each other in size and
//! each mixes all pairings and rounds. The games themselves are played by the match code
//! ([`super::play_game`]); results are committed in schedule order, so records do not depend on
//! `--concurrency`.
//!
//! Records: the first line of a records file is a header (`"kind": "tournament"`) with the
//! settings (engines with their options, format, rounds, variant, openings, seed, limits; not
//! the shard) and their fingerprint; every game line (`"kind": "tournament-game"`) is a match
//! record line plus the fingerprint and the round. Files merge (`tablero report`) when their
//! settings are equal.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::engine::EngineSpec;
use super::game::{MoveLimits, Reason, Slot};
use super::ratings::{self, Anchor, PairResult};
use super::{
    EngineConf, EngineSettings, GameContext, GameRecord, Openings, check_openings,
    first_difference, fnv1a, name_value, opening_number, play_game, variant_config,
};
use crate::core::game::Game;
use crate::games::{GameKind, GameVisitor, dispatch};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    Gauntlet,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }

    pub fn from_name(s: &str) -> Result<Format, String> {
        match s {
            "round-robin" | "roundrobin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!(
                "--format: '{s}' is not a format (round-robin, gauntlet)"
            )),
        }
    }
}

/// The deterministic schedule (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub engines: usize,
    pub format: Format,
    pub rounds: usize,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub index: usize,
    pub round: usize,
    /// Engine 1 and engine 2 of the game (indices in the engine list, engine 1 first).
    pub engines: [usize; 2],
    /// 0 when engine 1 moves first, 1 when engine 2 does.
    pub first: usize,
}

impl Schedule {
    /// Pairings per round.
    pub fn pairings(&self) -> usize {
        let n = self.engines;
        match self.format {
            Format::RoundRobin => n * n.saturating_sub(1) / 2,
            Format::Gauntlet => n.saturating_sub(1),
        }
    }

    pub fn pairs(&self) -> usize {
        self.pairings() * self.rounds
    }

    pub fn games(&self) -> usize {
        2 * self.pairs()
    }

    /// Pairing `k` of a round (`k < pairings()`).
    fn pairing(&self, k: usize) -> [usize; 2] {
        match self.format {
            Format::Gauntlet => [0, k + 1],
            Format::RoundRobin => {
                // Row a holds the pairings (a, a+1..n): n-1-a of them.
                let n = self.engines;
                let mut a = 0;
                let mut k = k;
                while k >= n - 1 - a {
                    k -= n - 1 - a;
                    a += 1;
                }
                [a, a + 1 + k]
            }
        }
    }

    /// Game `i` (`i < games()`).
    pub fn game(&self, i: usize) -> Scheduled {
        let p = i / 2;
        let per = self.pairings().max(1);
        Scheduled {
            index: i,
            round: p / per,
            engines: self.pairing(p % per),
            first: i % 2,
        }
    }

    /// The games of shard `k` of `n` (1-based `k`), in order: pairs `p ≡ k - 1 (mod n)`.
    pub fn shard_games(&self, shard: Option<(usize, usize)>) -> Vec<usize> {
        let (k, n) = shard.unwrap_or((1, 1));
        (k - 1..self.pairs())
            .step_by(n)
            .flat_map(|p| [2 * p, 2 * p + 1])
            .collect()
    }
}

/// Parses `K/N` (1 ≤ K ≤ N).
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard: expected K/N with 1 <= K <= N (e.g. 2/3), got '{s}'");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Everything a tournament needs.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    pub kind: GameKind,
    pub engines: Vec<EngineConf>,
    pub format: Format,
    pub rounds: usize,
    /// `--option`: sent to every engine; variant options also set the referee's rules.
    pub variant: Vec<(String, String)>,
    pub concurrency: usize,
    pub seed: u64,
    pub openings: Openings,
    pub limits: MoveLimits,
    pub max_plies: usize,
    pub records: Option<PathBuf>,
    pub resume: bool,
    pub log_dir: Option<PathBuf>,
    pub shard: Option<(usize, usize)>,
    pub anchor: Option<(String, f64)>,
    pub progress: bool,
}

impl TournamentConfig {
    pub fn schedule(&self) -> Schedule {
        Schedule {
            engines: self.engines.len(),
            format: self.format,
            rounds: self.rounds,
        }
    }
}

/// What a tournament is played under (records header). Shards of one tournament have equal
/// settings; the shard, the concurrency and the referee's patience are not settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSettings {
    pub variant: String,
    pub options: Vec<(String, i64)>,
    pub engines: Vec<EngineSettings>,
    pub format: String,
    pub rounds: usize,
    pub seed: u64,
    pub openings: String,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub tc_ms: Option<(u64, u64)>,
    pub max_plies: usize,
}

impl TournamentSettings {
    fn of(cfg: &TournamentConfig, options: Vec<(String, i64)>) -> TournamentSettings {
        TournamentSettings {
            variant: cfg.kind.name().to_string(),
            options,
            engines: cfg
                .engines
                .iter()
                .map(|e| EngineSettings {
                    name: e.name.clone(),
                    options: e.options.clone(),
                    limits: e.limits,
                })
                .collect(),
            format: cfg.format.name().to_string(),
            rounds: cfg.rounds,
            seed: cfg.seed,
            openings: cfg.openings.label(),
            depth: cfg.limits.depth,
            nodes: cfg.limits.nodes,
            movetime_ms: cfg.limits.movetime_ms,
            tc_ms: cfg.limits.tc_ms,
            max_plies: cfg.max_plies,
        }
    }

    /// A stable fingerprint of the settings, carried by every game line.
    pub fn fingerprint(&self) -> String {
        format!(
            "{:016x}",
            fnv1a(serde_json::to_string(self).unwrap_or_default().as_bytes())
        )
    }

    pub fn schedule(&self) -> Result<Schedule, String> {
        Ok(Schedule {
            engines: self.engines.len(),
            format: Format::from_name(&self.format)?,
            rounds: self.rounds,
        })
    }

    fn names(&self) -> Vec<&str> {
        self.engines.iter().map(|e| e.name.as_str()).collect()
    }
}

/// The header line of a records file.
fn header_json(settings: &TournamentSettings, shard: Option<(usize, usize)>) -> Value {
    json!({
        "kind": "tournament",
        "version": 1,
        "fingerprint": settings.fingerprint(),
        "shard": shard.map(|(k, n)| format!("{k}/{n}")),
        "settings": settings,
    })
}

fn game_json(
    r: &GameRecord,
    s: &Scheduled,
    settings: &TournamentSettings,
    fingerprint: &str,
) -> Value {
    let names = [
        settings.engines[s.engines[0]].name.as_str(),
        settings.engines[s.engines[1]].name.as_str(),
    ];
    let mut v = r.to_json_named(&settings.variant, names);
    v["kind"] = json!("tournament-game");
    v["fingerprint"] = json!(fingerprint);
    v["round"] = json!(s.round);
    v
}

/// Reads a game line of a tournament records file and checks it against the schedule.
fn parse_game_line(
    v: &Value,
    settings: &TournamentSettings,
    sched: &Schedule,
) -> Result<GameRecord, String> {
    let r = GameRecord::from_json(v).ok_or("not a game record (missing fields)")?;
    if r.index >= sched.games() {
        return Err(format!(
            "game {} is not in the schedule ({} games)",
            r.index,
            sched.games()
        ));
    }
    let s = sched.game(r.index);
    let first = v.get("first").and_then(Value::as_str).unwrap_or("");
    let second = v.get("second").and_then(Value::as_str).unwrap_or("");
    let want = [
        settings.engines[s.engines[s.first]].name.as_str(),
        settings.engines[s.engines[1 - s.first]].name.as_str(),
    ];
    if r.first != s.first || [first, second] != want {
        return Err(format!(
            "game {} is {first} - {second}, the schedule says {} - {}",
            r.index, want[0], want[1]
        ));
    }
    Ok(r)
}

/// Parses one engine: `NAME=SPEC` (`--engine`) or the words after the name (`--engines`
/// file). Words `option.NAME=VALUE` are that engine's `setoption`s; the rest is the spec.
pub fn parse_engine(name: &str, words: &[String], what: &str) -> Result<EngineConf, String> {
    if name.is_empty() || name.chars().any(char::is_whitespace) || name.contains('=') {
        return Err(format!(
            "{what}: '{name}' is not an engine name (no spaces or '=')"
        ));
    }
    let mut options = Vec::new();
    let mut spec_words = Vec::new();
    for w in words {
        match w.strip_prefix("option.") {
            Some(o) => options.push(name_value(&format!("{what} {name}: option."), o)?),
            None => spec_words.push(w.clone()),
        }
    }
    let spec = match spec_words.as_slice() {
        [] => return Err(format!("{what} {name}: no engine command")),
        // A course bot's arguments are the words after its path.
        [w, rest @ ..] if w.starts_with(super::engine::MANCALA_BOT_PREFIX) => {
            let path = &w[super::engine::MANCALA_BOT_PREFIX.len()..];
            if path.is_empty() {
                return Err(format!("{what} {name}: expected mancala-bot:PATH [ARGS]"));
            }
            EngineSpec::MancalaBot(
                std::iter::once(path.to_string())
                    .chain(rest.iter().cloned())
                    .collect(),
            )
        }
        [w] if w.starts_with("builtin:") || w.starts_with("tcp:") => {
            EngineSpec::parse(w).map_err(|e| format!("{what} {name}: {e}"))?
        }
        ws if ws[0].starts_with("builtin:") || ws[0].starts_with("tcp:") => {
            return Err(format!(
                "{what} {name}: '{}' takes no arguments (options are option.NAME=VALUE)",
                ws[0]
            ));
        }
        ws => EngineSpec::Command(ws.to_vec()),
    };
    Ok(EngineConf {
        spec,
        name: name.to_string(),
        options,
        limits: None,
    })
}

/// `--engine NAME=SPEC`.
pub fn parse_engine_arg(s: &str) -> Result<EngineConf, String> {
    let (name, spec) = s
        .split_once('=')
        .ok_or_else(|| format!("--engine: expected NAME=SPEC, got '{s}'"))?;
    let words = shlex::split(spec).ok_or_else(|| format!("--engine {name}: unbalanced quotes"))?;
    parse_engine(name.trim(), &words, "--engine")
}

/// An `--engines` file: one `NAME SPEC… [option.NAME=VALUE…]` per line, `#` comment lines.
pub fn parse_engines_file(path: &Path) -> Result<Vec<EngineConf>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("--engines {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let what = format!("--engines {} line {}", path.display(), n + 1);
        let words = shlex::split(line).ok_or_else(|| format!("{what}: unbalanced quotes"))?;
        let (name, rest) = words
            .split_first()
            .ok_or_else(|| format!("{what}: empty"))?;
        out.push(parse_engine(name, rest, &what)?);
    }
    Ok(out)
}

/// Builds a tournament configuration from the command line.
pub fn config_from_args(
    kind: GameKind,
    a: &crate::cli::TournamentArgs,
) -> Result<TournamentConfig, String> {
    let mut engines = Vec::new();
    if let Some(f) = &a.engines {
        engines.extend(parse_engines_file(f)?);
    }
    for e in &a.engine {
        engines.push(parse_engine_arg(e)?);
    }
    let mut seen = BTreeSet::new();
    for e in &engines {
        if !seen.insert(e.name.as_str()) {
            return Err(format!("engine name '{}' is used twice", e.name));
        }
    }
    if engines.len() < 2 {
        return Err(
            "a tournament needs at least two engines (--engine NAME=SPEC, --engines FILE)".into(),
        );
    }
    if a.rounds == 0 {
        return Err("--rounds: at least 1".into());
    }
    let anchor = a
        .anchor
        .as_deref()
        .map(|s| parse_anchor(s, engines.iter().map(|e| e.name.as_str())))
        .transpose()?;
    let (records, resume) = match (&a.records, &a.resume) {
        (_, Some(r)) => (Some(r.clone()), true),
        (r, None) => (r.clone(), false),
    };
    Ok(TournamentConfig {
        kind,
        engines,
        format: Format::from_name(&a.format)?,
        rounds: a.rounds,
        variant: a
            .play
            .option
            .iter()
            .map(|s| name_value("--option", s))
            .collect::<Result<_, _>>()?,
        concurrency: a.play.concurrency,
        seed: a.play.seed,
        openings: Openings::from_arg(a.play.openings.as_deref())?,
        limits: super::move_limits(&a.play)?,
        max_plies: a.play.max_plies,
        records,
        resume,
        log_dir: a.log.clone(),
        shard: a.shard.as_deref().map(parse_shard).transpose()?,
        anchor: anchor.map(|(n, e)| (n.to_string(), e)),
        progress: true,
    })
}

/// `--anchor NAME=ELO` checked against the engine names.
pub fn parse_anchor<'a>(
    s: &str,
    mut names: impl Iterator<Item = &'a str>,
) -> Result<(String, f64), String> {
    let (n, e) = name_value("--anchor", s)?;
    let elo: f64 = e
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite() && x.abs() < 1e6)
        .ok_or_else(|| format!("--anchor: '{e}' is not a rating"))?;
    if !names.any(|x| x == n) {
        return Err(format!("--anchor: no engine named '{n}'"));
    }
    Ok((n, elo))
}

/// The result of a tournament run (or shard): its settings and games, in schedule order.
pub struct Played {
    pub settings: TournamentSettings,
    pub games: Vec<GameRecord>,
}

/// The games of this shard, one line each (`--schedule`), without playing them.
pub fn schedule_text(cfg: &TournamentConfig) -> String {
    let sched = cfg.schedule();
    let games = sched.shard_games(cfg.shard);
    let (k, n) = cfg.shard.unwrap_or((1, 1));
    let mut o = format!(
        "# shard {k}/{n}: {} of {} games (pairs p with p mod {n} = {}); game round first second opening\n",
        games.len(),
        sched.games(),
        k - 1
    );
    for i in games {
        let s = sched.game(i);
        let e = |k: usize| cfg.engines[s.engines[k]].name.as_str();
        o += &format!(
            "{i} {} {} {} {}\n",
            s.round,
            e(s.first),
            e(1 - s.first),
            s.round
        );
    }
    o
}

/// Runs a tournament (or its shard).
pub fn run_tournament(cfg: &TournamentConfig) -> Result<Played, String> {
    dispatch(cfg.kind, Run(cfg))?
}

struct Run<'a>(&'a TournamentConfig);

/// What `--resume` keeps of a records file.
struct Kept {
    games: Vec<GameRecord>,
    /// Bytes of the kept prefix (the header and whole game lines); 0 = start the file afresh.
    len: u64,
    /// Why bytes after `len` were dropped (a torn last line).
    dropped: Option<String>,
}

/// Reads the records of an interrupted shard: the header, then its games in schedule order.
/// Only a torn last line (no newline, or not a whole record: what a killed process leaves) is
/// dropped; any other damage, a game out of order or other settings is an error and the file
/// is left as it is (the same rules as `match --resume`).
fn read_resume(
    path: &Path,
    settings: &TournamentSettings,
    sched: &Schedule,
    mine: &[usize],
) -> Result<Kept, String> {
    let fresh = Kept {
        games: vec![],
        len: 0,
        dropped: None,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(fresh),
        Err(e) => return Err(format!("--resume {}: {e}", path.display())),
    };
    let fp = settings.fingerprint();
    let mut kept = fresh;
    let mut pos = 0usize;
    let mut line_no = 0usize;
    while pos < bytes.len() {
        line_no += 1;
        let (end, complete) = match bytes[pos..].iter().position(|&b| b == b'\n') {
            Some(i) => (pos + i, true),
            None => (bytes.len(), false),
        };
        let is_last = bytes[end..].iter().all(u8::is_ascii_whitespace);
        let v = std::str::from_utf8(&bytes[pos..end])
            .ok()
            .filter(|_| complete)
            .and_then(|l| serde_json::from_str::<Value>(l).ok());
        let here = format!("--resume {}: line {line_no}", path.display());
        let outcome: Result<Option<GameRecord>, String> = match v {
            None => Err(format!("{here}: not a whole record")),
            Some(v) if line_no == 1 => {
                let theirs: TournamentSettings = v
                    .get("settings")
                    .filter(|_| v.get("kind").and_then(Value::as_str) == Some("tournament"))
                    .and_then(|s| serde_json::from_value(s.clone()).ok())
                    .ok_or_else(|| format!("{here}: not a tournament records header"))?;
                if let Some(d) = first_difference(&theirs, settings) {
                    return Err(format!(
                        "--resume {}: recorded with other settings (recorded vs now: {d}); use the same flags",
                        path.display()
                    ));
                }
                Ok(None)
            }
            Some(v) => {
                if v.get("fingerprint").and_then(Value::as_str) != Some(fp.as_str()) {
                    return Err(format!("{here}: a game of other settings"));
                }
                let r = parse_game_line(&v, settings, sched).map_err(|e| format!("{here}: {e}"))?;
                match mine.get(kept.games.len()) {
                    Some(&i) if i == r.index => Ok(Some(r)),
                    want => {
                        return Err(format!(
                            "{here}: game {} where this shard's next game is {}; the file is left as it is",
                            r.index,
                            want.map_or("none".to_string(), |i| i.to_string())
                        ));
                    }
                }
            }
        };
        match outcome {
            Ok(r) => {
                kept.games.extend(r);
                pos = end + 1;
                kept.len = pos as u64;
            }
            Err(e) if is_last => {
                kept.dropped = Some(e);
                break;
            }
            Err(e) => return Err(format!("{e}; the file is left as it is")),
        }
    }
    Ok(kept)
}

/// Opens the records file: afresh with its header, or (resuming) cut to the kept prefix and
/// appended to, so that a kill during a resume never loses what was recorded.
fn open_records(
    path: &Path,
    kept_len: u64,
    header: &Value,
) -> Result<std::fs::File, std::io::Error> {
    use std::io::{Seek, SeekFrom};
    if kept_len == 0 {
        let mut f = std::fs::File::create(path)?;
        f.write_all(format!("{header}\n").as_bytes())?;
        return Ok(f);
    }
    let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
    f.set_len(kept_len)?;
    f.seek(SeekFrom::End(0))?;
    Ok(f)
}

impl GameVisitor for Run<'_> {
    type Output = Result<Played, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let cfg = self.0;
        let (gcfg, options) = variant_config::<G>(&cfg.variant)?;
        check_openings::<G>(&cfg.openings, &gcfg)?;
        let settings = TournamentSettings::of(cfg, options);
        let fp = settings.fingerprint();
        let sched = cfg.schedule();
        let mine = sched.shard_games(cfg.shard);
        if let Some(d) = &cfg.log_dir {
            std::fs::create_dir_all(d).map_err(|e| format!("--log {}: {e}", d.display()))?;
        }
        let mut games: Vec<GameRecord> = Vec::with_capacity(mine.len());
        let mut records = None;
        if let Some(path) = &cfg.records {
            let kept = if cfg.resume {
                read_resume(path, &settings, &sched, &mine)?
            } else {
                Kept {
                    games: vec![],
                    len: 0,
                    dropped: None,
                }
            };
            if let Some(why) = &kept.dropped {
                eprintln!(
                    "{why}: dropped (a torn last line); resuming after game {}",
                    kept.games.len()
                );
            }
            let f = open_records(path, kept.len, &header_json(&settings, cfg.shard))
                .map_err(|e| format!("--records {}: {e}", path.display()))?;
            games.extend(kept.games);
            records = Some(f);
        }
        let done0 = games.len();
        // Work units: the remaining games grouped by pair, so a worker keeps both engines
        // running for the two games of a pair.
        let mut units: Vec<Vec<(usize, usize)>> = Vec::new();
        for (seq, &i) in mine.iter().enumerate().skip(done0) {
            match units.last_mut() {
                Some(u) if u[0].1 / 2 == i / 2 => u.push((seq, i)),
                _ => units.push(vec![(seq, i)]),
            }
        }
        let bar = if cfg.progress && std::io::stderr().is_terminal() {
            indicatif::ProgressBar::new(mine.len() as u64)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  ETA {eta}  {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(done0 as u64);
        let ctx = GameContext {
            kind: cfg.kind,
            variant: &cfg.variant,
            limits: [cfg.limits; 2],
            max_plies: cfg.max_plies,
            log_dir: cfg.log_dir.as_deref(),
        };
        let next = AtomicUsize::new(0);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(usize, Result<GameRecord, String>)>();
        let workers = cfg.concurrency.clamp(1, units.len().max(1));
        let mut first_error = None;
        let mut write_error = None;
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (next, stop, gcfg, units, ctx, sched) =
                    (&next, &stop, &gcfg, &units, &ctx, &sched);
                scope.spawn(move || {
                    // The engines of the last pair, kept running when the next pair shares one.
                    let mut cache: Vec<(usize, Slot)> = Vec::new();
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let u = next.fetch_add(1, Ordering::Relaxed);
                        let Some(unit) = units.get(u) else { break };
                        let [a, b] = sched.game(unit[0].1).engines;
                        let mut take = |e: usize| match cache.iter().position(|(x, _)| *x == e) {
                            Some(k) => cache.swap_remove(k).1,
                            None => Slot::new(
                                cfg.engines[e].spec.clone(),
                                cfg.engines[e].options.clone(),
                            ),
                        };
                        let (mut sa, mut sb) = (take(a), take(b));
                        for (_, mut s) in cache.drain(..) {
                            s.reset();
                        }
                        let names = [cfg.engines[a].name.as_str(), cfg.engines[b].name.as_str()];
                        for &(seq, i) in unit {
                            let s = sched.game(i);
                            let r = opening_number::<G>(&cfg.openings, cfg.seed, gcfg, s.round)
                                .and_then(|start| {
                                    play_game(ctx, names, i, s.first, start, [&mut sa, &mut sb])
                                });
                            if tx.send((seq, r)).is_err() {
                                break;
                            }
                        }
                        cache.push((a, sa));
                        cache.push((b, sb));
                    }
                    for (_, mut s) in cache {
                        s.reset();
                    }
                });
            }
            drop(tx);
            let mut buffer: BTreeMap<usize, GameRecord> = BTreeMap::new();
            let mut done = done0;
            let mut last_sync = std::time::Instant::now();
            for (seq, r) in rx {
                match r {
                    Ok(r) => {
                        buffer.insert(seq, r);
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                        continue;
                    }
                }
                while let Some(r) = buffer.remove(&done) {
                    if let Some(f) = records.as_mut() {
                        // One write per record (a kill leaves at most a torn last line), and
                        // the data on disk at most every 100 ms (a power cut loses little).
                        let s = sched.game(r.index);
                        let line = format!("{}\n", game_json(&r, &s, &settings, &fp));
                        if let Err(e) = f.write_all(line.as_bytes()) {
                            write_error.get_or_insert(e.to_string());
                        }
                        if last_sync.elapsed() >= std::time::Duration::from_millis(100) {
                            let _ = f.sync_data();
                            last_sync = std::time::Instant::now();
                        }
                    }
                    games.push(r);
                    done += 1;
                    bar.set_position(done as u64);
                }
            }
        });
        bar.finish_and_clear();
        if let Some(f) = &records {
            let _ = f.sync_data();
        }
        if let Some(e) = first_error {
            return Err(e);
        }
        if let (Some(e), Some(p)) = (write_error, &cfg.records) {
            return Err(format!("--records {}: {e}", p.display()));
        }
        Ok(Played { settings, games })
    }
}

/// Per engine totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineLine {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Losses by reason other than `normal` (illegal, time, crash).
    pub lost_by: BTreeMap<Reason, u64>,
}

impl EngineLine {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Points in half-points.
    pub fn half_points(&self) -> u64 {
        2 * self.wins + self.draws
    }
}

/// The standings of a set of tournament games.
#[derive(Clone, Debug)]
pub struct Standings {
    pub settings: TournamentSettings,
    pub games: u64,
    pub lines: Vec<EngineLine>,
    /// Per ordered pair (a < b): the games between them.
    pub pairs: BTreeMap<(usize, usize), PairResult>,
    pub fit: ratings::Fit,
    pub anchor: Option<(String, f64)>,
    /// Engine indices, best first.
    pub order: Vec<usize>,
    pub reasons: BTreeMap<Reason, u64>,
}

/// The standings of `games` (each once; any order) under `settings`.
pub fn standings(
    settings: &TournamentSettings,
    games: &[GameRecord],
    anchor: Option<(String, f64)>,
) -> Result<Standings, String> {
    let sched = settings.schedule()?;
    let n = settings.engines.len();
    let mut lines = vec![EngineLine::default(); n];
    let mut pairs: BTreeMap<(usize, usize), PairResult> = BTreeMap::new();
    let mut reasons = BTreeMap::new();
    for r in games {
        let s = sched.game(r.index);
        let [a, b] = s.engines;
        let p = pairs.entry((a, b)).or_insert(PairResult {
            a,
            b,
            wins_a: 0,
            draws: 0,
            wins_b: 0,
        });
        *reasons.entry(r.outcome.reason).or_insert(0) += 1;
        match r.winner_engine() {
            None => {
                p.draws += 1;
                lines[a].draws += 1;
                lines[b].draws += 1;
            }
            Some(w) => {
                let (win, lose) = if w == 0 { (a, b) } else { (b, a) };
                if w == 0 {
                    p.wins_a += 1;
                } else {
                    p.wins_b += 1;
                }
                lines[win].wins += 1;
                lines[lose].losses += 1;
                if r.outcome.reason != Reason::Normal {
                    *lines[lose].lost_by.entry(r.outcome.reason).or_insert(0) += 1;
                }
            }
        }
    }
    let anchor_idx = match &anchor {
        Some((name, elo)) => Anchor::Engine(
            settings
                .engines
                .iter()
                .position(|e| &e.name == name)
                .ok_or_else(|| format!("--anchor: no engine named '{name}'"))?,
            *elo,
        ),
        None => Anchor::Mean(0.0),
    };
    let list: Vec<PairResult> = pairs.values().copied().collect();
    let fit = ratings::fit(n, &list, anchor_idx);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| {
        fit.elo[y]
            .total_cmp(&fit.elo[x])
            .then(lines[y].half_points().cmp(&lines[x].half_points()))
            .then(x.cmp(&y))
    });
    Ok(Standings {
        settings: settings.clone(),
        games: games.len() as u64,
        lines,
        pairs,
        fit,
        anchor,
        order,
        reasons,
    })
}

fn half(h: u64) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else {
        format!("{}.5", h / 2)
    }
}

impl Standings {
    /// Whether an engine's rating rests on the prior (it won or lost every game, or played
    /// none): marked in the table.
    fn unbounded(&self, e: usize) -> bool {
        let l = &self.lines[e];
        self.fit.prior && (l.games() == 0 || l.wins == l.games() || l.losses == l.games())
    }

    fn is_anchor(&self, e: usize) -> bool {
        matches!(&self.anchor, Some((n, _)) if *n == self.settings.engines[e].name)
    }

    /// Points of `a` against `b` in half-points and the games between them.
    fn cell(&self, a: usize, b: usize) -> Option<(u64, u64)> {
        let (x, y) = (a.min(b), a.max(b));
        let p = self.pairs.get(&(x, y))?;
        let mine = if a == x { p.wins_a } else { p.wins_b };
        Some((2 * mine + p.draws, p.wins_a + p.draws + p.wins_b))
    }

    /// The standings for humans.
    pub fn text(&self) -> String {
        let s = &self.settings;
        let names = s.names();
        let mut o = format!(
            "Tournament {} of {} engines ({}), {} round{}, {} games\n",
            s.format,
            names.len(),
            s.variant,
            s.rounds,
            if s.rounds == 1 { "" } else { "s" },
            self.games
        );
        let w = names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
        o += &format!(
            "{:>4}  {:<w$}  {:>8}  {:>7}  {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
            "rank", "engine", "elo", "95%", "points", "games", "wins", "draws", "losses", "score"
        );
        for (rank, &e) in self.order.iter().enumerate() {
            let l = &self.lines[e];
            let err = if self.is_anchor(e) {
                "anchor".to_string()
            } else {
                format!("±{:.1}", self.fit.error[e])
            };
            let score = if l.games() == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 50.0 * l.half_points() as f64 / l.games() as f64)
            };
            o += &format!(
                "{:>4}  {:<w$}  {:>+8.1}{} {:>7}  {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
                rank + 1,
                names[e],
                self.fit.elo[e],
                if self.unbounded(e) { "*" } else { " " },
                err,
                half(l.half_points()),
                l.games(),
                l.wins,
                l.draws,
                l.losses,
                score
            );
        }
        o += &format!(
            "ratings: maximum likelihood, logistic Elo with a draw as half a win (as Ordo); {}; 95% intervals from the likelihood's curvature\n",
            match &self.anchor {
                Some((n, e)) => format!("{n} anchored at {e}"),
                None => "mean 0".to_string(),
            }
        );
        if self.fit.prior {
            o += "prior: the games alone leave ratings unbounded (* = won or lost every game, or no games); one virtual draw added per pair of engines that met\n";
        }
        o += "crosstable: points of the row engine against the column engine / games\n";
        let cells: Vec<Vec<String>> = self
            .order
            .iter()
            .map(|&a| {
                self.order
                    .iter()
                    .map(|&b| {
                        if a == b {
                            "x".to_string()
                        } else {
                            self.cell(a, b)
                                .map_or("-".to_string(), |(h, g)| format!("{}/{g}", half(h)))
                        }
                    })
                    .collect()
            })
            .collect();
        let cw = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(self.order.len().to_string().len());
        o += &format!("{:>4}  {:<w$}", "", "");
        for k in 1..=self.order.len() {
            o += &format!(" {k:>cw$}");
        }
        o.push('\n');
        for (rank, (&e, row)) in self.order.iter().zip(&cells).enumerate() {
            o += &format!("{:>4}  {:<w$}", rank + 1, names[e]);
            for c in row {
                o += &format!(" {c:>cw$}");
            }
            o.push('\n');
        }
        let reasons: Vec<String> = Reason::ALL
            .iter()
            .map(|r| format!("{} {}", r.name(), self.reasons.get(r).copied().unwrap_or(0)))
            .collect();
        o += &format!("games ended by: {}\n", reasons.join(", "));
        let faults: Vec<String> = self
            .order
            .iter()
            .filter(|&&e| !self.lines[e].lost_by.is_empty())
            .map(|&e| {
                let by: Vec<String> = self.lines[e]
                    .lost_by
                    .iter()
                    .map(|(r, c)| format!("{} {c}", r.name()))
                    .collect();
                format!("{} ({})", names[e], by.join(", "))
            })
            .collect();
        if !faults.is_empty() {
            o += &format!("lost off the board: {}\n", faults.join("; "));
        }
        o
    }

    /// The standings as one JSON object.
    pub fn json(&self) -> Value {
        let s = &self.settings;
        let names = s.names();
        let engines: Vec<Value> = self
            .order
            .iter()
            .enumerate()
            .map(|(rank, &e)| {
                let l = &self.lines[e];
                let (elo, err) = (self.fit.elo[e], self.fit.error[e]);
                let lost_by: serde_json::Map<String, Value> = l
                    .lost_by
                    .iter()
                    .map(|(r, c)| (r.name().to_string(), json!(c)))
                    .collect();
                json!({
                    "rank": rank + 1,
                    "name": names[e],
                    "elo": elo,
                    "error": err,
                    "lower": elo - err,
                    "upper": elo + err,
                    "anchor": self.is_anchor(e),
                    "prior_only": self.unbounded(e),
                    "points": l.half_points() as f64 / 2.0,
                    "games": l.games(),
                    "wins": l.wins,
                    "draws": l.draws,
                    "losses": l.losses,
                    "score": if l.games() == 0 { Value::Null } else {
                        json!(l.half_points() as f64 / 2.0 / l.games() as f64)
                    },
                    "lost_by": lost_by,
                })
            })
            .collect();
        let crosstable: Vec<Value> = self
            .pairs
            .values()
            .map(|p| {
                json!({"engine1": names[p.a], "engine2": names[p.b], "wins1": p.wins_a,
                       "draws": p.draws, "wins2": p.wins_b})
            })
            .collect();
        let reasons: serde_json::Map<String, Value> = Reason::ALL
            .iter()
            .map(|r| {
                (
                    r.name().to_string(),
                    json!(self.reasons.get(r).copied().unwrap_or(0)),
                )
            })
            .collect();
        json!({
            "variant": s.variant,
            "format": s.format,
            "rounds": s.rounds,
            "games": self.games,
            "model": "logistic Elo, draw = half a win (Ordo), maximum likelihood; 95% from curvature",
            "anchor": self.anchor.as_ref().map(|(n, e)| json!({"name": n, "elo": e})),
            "prior": self.fit.prior,
            "standings": engines,
            "crosstable": crosstable,
            "reasons": reasons,
        })
    }
}

/// Merged tournament records (`tablero report`).
pub struct Merged {
    pub settings: TournamentSettings,
    /// Games by index, each once.
    pub games: Vec<GameRecord>,
    pub duplicates: usize,
    pub conflicting: usize,
    pub missing: Vec<usize>,
    /// N of the shards when every file names the same N.
    pub shards: Option<usize>,
    pub files: usize,
}

/// Whether the first record line of `path` is a tournament header.
pub fn is_tournament_file(path: &Path) -> bool {
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    std::io::BufReader::new(f)
        .lines()
        .map_while(Result::ok)
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(&l).ok())
        .is_some_and(|v| v.get("kind").and_then(Value::as_str) == Some("tournament"))
}

/// Reads and merges tournament records files. Errors are one line naming the file (and line).
pub fn merge(paths: &[PathBuf]) -> Result<Merged, String> {
    let mut first: Option<(TournamentSettings, String, Schedule)> = None;
    let mut fingerprint = String::new();
    let mut by_index: BTreeMap<usize, GameRecord> = BTreeMap::new();
    let (mut duplicates, mut conflicting) = (0, 0);
    let mut shard_ns = BTreeSet::new();
    for path in paths {
        let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut header_seen = false;
        for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
            let source = format!("{}:{}", path.display(), n + 1);
            let line = line.map_err(|e| format!("{source}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(&line)
                .map_err(|e| format!("{source}: not a JSON record ({e}); a torn last line?"))?;
            match v.get("kind").and_then(Value::as_str) {
                Some("tournament") => {
                    let s: TournamentSettings = v
                        .get("settings")
                        .and_then(|s| serde_json::from_value(s.clone()).ok())
                        .ok_or_else(|| format!("{source}: unreadable tournament settings"))?;
                    match v.get("shard").and_then(Value::as_str).map(parse_shard) {
                        Some(Ok((_, n))) => shard_ns.insert(n),
                        _ => shard_ns.insert(1),
                    };
                    match &first {
                        None => {
                            let sched = s.schedule().map_err(|e| format!("{source}: {e}"))?;
                            fingerprint = s.fingerprint();
                            first = Some((s, source.clone(), sched));
                        }
                        Some((f, src, _)) => {
                            if let Some(d) = first_difference(f, &s) {
                                return Err(format!(
                                    "{source}: played with other settings than {src} ({d}); report one tournament at a time"
                                ));
                            }
                        }
                    }
                    header_seen = true;
                }
                Some("tournament-game") if header_seen => {
                    let Some((settings, _, sched)) = &first else {
                        continue;
                    };
                    if v.get("fingerprint").and_then(Value::as_str) != Some(fingerprint.as_str()) {
                        return Err(format!(
                            "{source}: the game's settings fingerprint differs from its file's header"
                        ));
                    }
                    let r = parse_game_line(&v, settings, sched)
                        .map_err(|e| format!("{source}: {e}"))?;
                    if let Some(kept) = by_index.get(&r.index) {
                        duplicates += 1;
                        if kept.winner_engine() != r.winner_engine()
                            || kept.outcome.reason != r.outcome.reason
                            || !kept.outcome.moves.iter().map(|m| &m.mv).eq(r
                                .outcome
                                .moves
                                .iter()
                                .map(|m| &m.mv))
                        {
                            conflicting += 1;
                        }
                        continue;
                    }
                    by_index.insert(r.index, r);
                }
                _ => {
                    return Err(format!(
                        "{source}: not a tournament record (match records and tournament records do not mix; a tournament file starts with its header line)"
                    ));
                }
            }
        }
        if !header_seen {
            return Err(format!("{}: no tournament header", path.display()));
        }
    }
    let (settings, _, sched) = first.ok_or("no records files given")?;
    let missing = (0..sched.games())
        .filter(|i| !by_index.contains_key(i))
        .collect();
    Ok(Merged {
        settings,
        games: by_index.into_values().collect(),
        duplicates,
        conflicting,
        missing,
        shards: (shard_ns.len() == 1).then(|| shard_ns.first().copied().unwrap_or(1)),
        files: paths.len(),
    })
}

impl Merged {
    /// Lines about the files: how many, duplicates, missing games (and their shards).
    pub fn notes(&self) -> Vec<String> {
        let mut out = vec![format!(
            "records: {} file{}, {} of {} games",
            self.files,
            if self.files == 1 { "" } else { "s" },
            self.games.len(),
            self.games.len() + self.missing.len()
        )];
        out.extend(super::duplicates_note(self.duplicates, self.conflicting));
        if !self.missing.is_empty() {
            let mut line = format!(
                "missing games: {} ({})",
                super::ranges(&runs(&self.missing)),
                self.missing.len()
            );
            if let Some(n) = self.shards.filter(|&n| n > 1) {
                let shards: BTreeSet<usize> = self.missing.iter().map(|i| i / 2 % n + 1).collect();
                let list: Vec<String> = shards.iter().map(|k| format!("{k}/{n}")).collect();
                line += &format!(
                    "; in shard{} {}",
                    if list.len() == 1 { "" } else { "s" },
                    list.join(", ")
                );
            }
            out.push(line);
        }
        out
    }
}

/// Prints the standings after a run, like `report` does after a merge.
pub fn print_played(p: &Played, cfg: &TournamentConfig, json_out: bool) -> Result<(), String> {
    let s = standings(&p.settings, &p.games, cfg.anchor.clone())?;
    if let Some((k, n)) = cfg.shard {
        eprintln!(
            "shard {k}/{n}: {} of {} games; merge the shards' records with tablero report",
            p.games.len(),
            cfg.schedule().games()
        );
    }
    if json_out {
        write_stdout(&format!("{}\n", s.json()))
    } else {
        write_stdout(&s.text())
    }
}

/// Writes `text` to stdout; a closed pipe (`| head`) is not an error.
pub fn write_stdout(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}

/// Sorted numbers as inclusive runs `(first, last)` (for [`crate::report::ranges`]).
fn runs(v: &[usize]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &x in v {
        match out.last_mut() {
            Some((_, b)) if *b + 1 == x => *b = x,
            _ => out.push((x, x)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_schedule() {
        let s = Schedule {
            engines: 4,
            format: Format::RoundRobin,
            rounds: 2,
        };
        assert_eq!((s.pairings(), s.games()), (6, 24));
        let first_round: Vec<[usize; 2]> = (0..6).map(|p| s.game(2 * p).engines).collect();
        assert_eq!(
            first_round,
            vec![[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        let g = s.game(13);
        assert_eq!((g.round, g.engines, g.first), (1, [0, 1], 1));
        let g = Schedule {
            engines: 4,
            format: Format::Gauntlet,
            rounds: 1,
        };
        assert_eq!(g.games(), 6);
        assert_eq!(g.game(5).engines, [0, 3]);
    }

    #[test]
    fn shards_partition_the_schedule() {
        let s = Schedule {
            engines: 7,
            format: Format::RoundRobin,
            rounds: 3,
        };
        let mut all = Vec::new();
        let mut sizes = Vec::new();
        for k in 1..=4 {
            let g = s.shard_games(Some((k, 4)));
            sizes.push(g.len());
            all.extend(g);
        }
        all.sort();
        assert_eq!(all, (0..s.games()).collect::<Vec<_>>());
        assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 2);
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        for bad in ["0/3", "4/3", "x", "1/0", "2"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_lines() {
        let e = parse_engine_arg("t=tablero --game connect4 option.Heuristic=seed").unwrap();
        assert_eq!(
            e.spec,
            EngineSpec::Command(vec!["tablero".into(), "--game".into(), "connect4".into()])
        );
        assert_eq!(e.options, vec![("Heuristic".into(), "seed".into())]);
        let b = parse_engine_arg("r=builtin:random option.Seed=3").unwrap();
        assert_eq!(b.options, vec![("Seed".into(), "3".into())]);
        assert!(parse_engine_arg("noequals").is_err());
        assert!(parse_engine_arg("x=builtin:random extra").is_err());
        assert!(parse_engine_arg("x=").is_err());
        assert!(parse_engine_arg("x=builtin:nobody").is_err());
        assert!(parse_engine_arg("x=prog option.bad").is_err());
    }
}
