//! From parsed flags to the library's typed configurations: every check of what the user typed
//! happens here, and every message names the flag it is about. The library below never sees a
//! flag; its own errors say what went wrong with the value, and this layer says where it came
//! from.

use std::collections::BTreeSet;
use std::path::Path;

use crate::core::spec::{OptionError, PositionError, Token, name_value, split_digit_runs};
use crate::games::GameKind;
use crate::gui::api::Offered;
use crate::gui::{GuiConfig, builtin_engines};
use crate::referee::conn::MANCALA_BOT_PREFIX;
use crate::referee::{
    Config, EngineConfig, EngineLimits, EngineSpec, Format, MoveLimits, Openings, RecordsTarget,
    Shard, Sprt, parse_tc,
};
use crate::tune::spsa::Param;
use crate::tune::{TuneConfig, TuneOut, TuneSettings};

use super::cli::{ClassArgs, GameFlags, LearnArgs, MatchArgs, TournamentArgs, TuneArgs};

/// A position error of `--fen`/`--moves`, naming the flag it is about.
pub fn position_error(e: &PositionError) -> String {
    match e {
        PositionError::Move { .. } => format!("--moves: {e}"),
        PositionError::Fen(_) | PositionError::UnknownStart { .. } => format!("--fen: {e}"),
    }
}

/// A variant option error of `--set`.
pub fn option_error(e: &OptionError) -> String {
    format!("--set {e}")
}

/// The `--moves` words as tokens; for Connect Four a word of several digits is a Pons move
/// string (`4455`).
pub fn move_tokens(kind: GameKind, moves: &[String]) -> Vec<Token> {
    let words = Token::words(moves);
    if kind == GameKind::Connect4 {
        split_digit_runs(words)
    } else {
        words
    }
}

/// Reads a position file of `kind`'s course simulator for one `G`.
struct ReadFile<'a>(&'a str);

impl crate::games::GameVisitor for ReadFile<'_> {
    type Output = Result<crate::core::spec::FilePosition, crate::core::spec::FileError>;
    fn visit<G: crate::core::game::Game>(self) -> Self::Output {
        crate::core::spec::position_file::<G>(self.0)
    }
}

/// `--file PATH` (a board file of the game's course simulator, 5-en-Raya's `-file`) as the
/// `--fen` and `--set` settings it stands for, so that a command takes it as any position: the
/// file's variant options join `set` (one the user also sets to another value is an error, not
/// a silent choice), its position becomes the state string. Without a file, `fen` and `set` as
/// they are.
pub fn with_file(
    kind: GameKind,
    fen: Option<String>,
    file: Option<&Path>,
    mut set: Vec<String>,
) -> Result<(Option<String>, Vec<String>), String> {
    let Some(path) = file else {
        return Ok((fen, set));
    };
    if fen.is_some() {
        return Err("--file and --fen both give the start position: give one".into());
    }
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("--file {}: {e}", path.display()))?;
    let (options, state) = crate::games::dispatch(kind, ReadFile(&text))
        .map_err(|e| format!("--file {}: {e}", path.display()))?;
    for (name, value) in options {
        let given = set_values(&set)?
            .into_iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name));
        match given {
            Some((n, v)) if v.trim().parse::<i64>() != Ok(value) => {
                return Err(format!(
                    "--set {n}={v}: the board file {} has {name} {value}; drop the --set or use another file",
                    path.display()
                ));
            }
            Some(_) => {}
            None => set.push(format!("{name}={value}")),
        }
    }
    Ok((Some(state), set))
}

/// `--set NAME=VALUE` settings, split.
pub fn set_values(set: &[String]) -> Result<Vec<(String, String)>, String> {
    set.iter()
        .map(|s| {
            s.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.to_string()))
                .ok_or_else(|| format!("--set '{s}': expected NAME=VALUE"))
        })
        .collect()
}

/// `NAME=VALUE` of `flag`, trimmed.
pub fn name_value_of(flag: &str, s: &str) -> Result<(String, String), String> {
    name_value(s).ok_or_else(|| format!("{flag}: expected NAME=VALUE, got '{s}'"))
}

fn name_values(flag: &str, v: &[String]) -> Result<Vec<(String, String)>, String> {
    v.iter().map(|s| name_value_of(flag, s)).collect()
}

/// The move limits of the flags `match`, `tournament` and `tune` share, after checking them
/// (`--concurrency` and `--depth` at least 1, a well-formed `--tc`).
pub fn move_limits(f: &GameFlags) -> Result<MoveLimits, String> {
    if f.concurrency == 0 {
        return Err("--concurrency: at least 1".into());
    }
    if f.depth == Some(0) {
        return Err("--depth: at least 1".into());
    }
    Ok(MoveLimits {
        depth: f.depth,
        nodes: f.nodes,
        movetime_ms: f.movetime,
        tc_ms: f
            .tc
            .as_deref()
            .map(|t| parse_tc(t).map_err(|e| format!("--tc: {e}")))
            .transpose()?,
        margin_ms: f.margin,
        timeout_ms: f.timeout,
    })
}

/// `--openings`: `random:P` or a file of opening lines.
fn openings(o: Option<&str>) -> Result<Openings, String> {
    let Some(o) = o else {
        return Ok(Openings::Start);
    };
    if let Some(p) = o.strip_prefix("random:") {
        return p
            .parse()
            .map(Openings::Random)
            .map_err(|_| format!("--openings: random:P needs a number of plies, got '{p}'"));
    }
    Openings::from_file(Path::new(o)).map_err(|e| match e {
        crate::referee::Error::OpeningsFile { why, .. } => format!("--openings {o}: {why}"),
        e => format!("--openings {o}: {e}"),
    })
}

/// An engine's own limits flag, parsed.
fn own_limits(flag: &str, v: Option<&str>) -> Result<Option<EngineLimits>, String> {
    v.map(|s| EngineLimits::parse(s).map_err(|e| format!("{flag}: {e}")))
        .transpose()
}

/// Where the records go: `--records FILE` afresh (replacing a file only with `--overwrite`)
/// or `--resume FILE` continued.
fn records(
    records: &Option<std::path::PathBuf>,
    resume: &Option<std::path::PathBuf>,
    overwrite: bool,
) -> Result<Option<RecordsTarget>, String> {
    Ok(match (records, resume) {
        (_, Some(r)) => Some(RecordsTarget {
            path: r.clone(),
            resume: true,
            overwrite: false,
        }),
        (Some(path), None) => Some(RecordsTarget {
            path: path.clone(),
            resume: false,
            overwrite,
        }),
        (None, None) if overwrite => return Err("--overwrite: it is for --records FILE".into()),
        (None, None) => None,
    })
}

/// `tablero match`.
pub fn match_config(kind: GameKind, a: &MatchArgs) -> Result<Config, String> {
    let spec1 = EngineSpec::parse(&a.engine1).map_err(|e| format!("--engine1: {e}"))?;
    let spec2 = EngineSpec::parse(&a.engine2).map_err(|e| format!("--engine2: {e}"))?;
    let mut name1 = a.name1.clone().unwrap_or_else(|| spec1.default_name());
    let name2 = a.name2.clone().unwrap_or_else(|| spec2.default_name());
    if name1 == name2 && a.name1.is_none() {
        name1 = format!("{name1}-1");
    }
    let games = match (a.games, a.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => r * 2,
        (None, None) => 2,
    };
    if games == 0 {
        return Err("--games: at least one game".into());
    }
    let openings = openings(a.play.openings.as_deref())?;
    let sprt = if a.sprt.is_empty() {
        None
    } else {
        Some(Sprt::parse(&a.sprt).map_err(|e| format!("--sprt: {e}"))?)
    };
    Ok(Config {
        kind,
        engines: vec![
            EngineConfig {
                spec: spec1,
                name: name1,
                options: name_values("--option1", &a.option1)?,
                limits: own_limits("--limits1", a.limits1.as_deref())?,
            },
            EngineConfig {
                spec: spec2,
                name: name2,
                options: name_values("--option2", &a.option2)?,
                limits: own_limits("--limits2", a.limits2.as_deref())?,
            },
        ],
        format: Format::Match { games },
        variant: name_values("--option", &a.play.option)?,
        concurrency: a.play.concurrency,
        seed: a.play.seed,
        openings,
        limits: move_limits(&a.play)?,
        max_plies: a.play.max_plies,
        sprt,
        records: records(&a.records, &a.resume, a.overwrite)?,
        log_dir: a.log.clone(),
        shard: None,
        progress: progress_wanted(),
        startup_ms: a.play.startup_timeout,
        refusals: crate::referee::Refusals::Stop,
    })
}

/// One engine of a tournament: `NAME=SPEC` (`--engine`) or the words after the name (an
/// `--engines` file line). Words `option.NAME=VALUE` are that engine's `setoption`s; the rest is
/// the spec.
pub fn tournament_engine(name: &str, words: &[String], what: &str) -> Result<EngineConfig, String> {
    if name.is_empty() || name.chars().any(char::is_whitespace) || name.contains('=') {
        return Err(format!(
            "{what}: '{name}' is not an engine name (no spaces or '=')"
        ));
    }
    let mut options = Vec::new();
    let mut spec_words = Vec::new();
    for w in words {
        match w.strip_prefix("option.") {
            Some(o) => options.push(name_value_of(&format!("{what} {name}: option."), o)?),
            None => spec_words.push(w.clone()),
        }
    }
    let spec = match spec_words.as_slice() {
        [] => return Err(format!("{what} {name}: no engine command")),
        // A course bot's arguments are the words after its path.
        [w, rest @ ..] if w.starts_with(MANCALA_BOT_PREFIX) => {
            let path = &w[MANCALA_BOT_PREFIX.len()..];
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
    Ok(EngineConfig {
        spec,
        name: name.to_string(),
        options,
        limits: None,
    })
}

/// `--engine NAME=SPEC` of `tournament`.
pub fn tournament_engine_arg(s: &str) -> Result<EngineConfig, String> {
    let (name, spec) = s
        .split_once('=')
        .ok_or_else(|| format!("--engine: expected NAME=SPEC, got '{s}'"))?;
    let words = shlex::split(spec).ok_or_else(|| format!("--engine {name}: unbalanced quotes"))?;
    tournament_engine(name.trim(), &words, "--engine")
}

/// An `--engines` file: one `NAME SPEC… [option.NAME=VALUE…]` per line, `#` comment lines.
pub fn engines_file(path: &Path) -> Result<Vec<EngineConfig>, String> {
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
        out.push(tournament_engine(name, rest, &what)?);
    }
    Ok(out)
}

/// `--anchor NAME=ELO`: the name and the rating (the name is checked against the engines by
/// whoever knows them).
pub fn anchor(s: &str) -> Result<(String, f64), String> {
    let (n, e) = name_value_of("--anchor", s)?;
    let elo: f64 = e
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite() && x.abs() < 1e6)
        .ok_or_else(|| format!("--anchor: '{e}' is not a rating"))?;
    Ok((n, elo))
}

/// `tablero tournament`, and its `--anchor` (checked against the engines).
pub fn tournament_config(
    kind: GameKind,
    a: &TournamentArgs,
) -> Result<(Config, Option<(String, f64)>), String> {
    let mut engines = Vec::new();
    if let Some(f) = &a.engines {
        engines.extend(engines_file(f)?);
    }
    for e in &a.engine {
        engines.push(tournament_engine_arg(e)?);
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
    let anchor = a.anchor.as_deref().map(anchor).transpose()?;
    if let Some((n, _)) = &anchor
        && !engines.iter().any(|e| &e.name == n)
    {
        return Err(format!("--anchor: no engine named '{n}'"));
    }
    let format = match a.format.as_str() {
        "round-robin" | "roundrobin" => Format::RoundRobin { rounds: a.rounds },
        "gauntlet" => Format::Gauntlet {
            rounds: a.rounds,
            heads: 1,
        },
        s => {
            return Err(format!(
                "--format: '{s}' is not a format (round-robin, gauntlet)"
            ));
        }
    };
    let shard = a
        .shard
        .as_deref()
        .map(|s| Shard::parse(s).map_err(|e| format!("--shard: {e}")))
        .transpose()?;
    let cfg = Config {
        kind,
        engines,
        format,
        variant: name_values("--option", &a.play.option)?,
        concurrency: a.play.concurrency,
        seed: a.play.seed,
        openings: openings(a.play.openings.as_deref())?,
        limits: move_limits(&a.play)?,
        max_plies: a.play.max_plies,
        sprt: None,
        records: records(&a.records, &a.resume, a.overwrite)?,
        log_dir: a.log.clone(),
        shard,
        progress: progress_wanted(),
        startup_ms: a.play.startup_timeout,
        refusals: crate::referee::Refusals::Stop,
    };
    Ok((cfg, anchor))
}

/// `tablero class`.
pub fn class_config(kind: GameKind, a: &ClassArgs) -> Result<crate::class::ClassConfig, String> {
    use crate::class::{ClassConfig, Stage};
    let builtins = if a.builtins.trim() == "none" {
        Vec::new()
    } else {
        let mut v: Vec<crate::players::Player> = Vec::new();
        for b in a
            .builtins
            .split(',')
            .map(str::trim)
            .filter(|b| !b.is_empty())
        {
            let p = crate::players::Player::from_name(b).map_err(|e| format!("--builtins: {e}"))?;
            if v.contains(&p) {
                return Err(format!("--builtins: {b} given twice"));
            }
            v.push(p);
        }
        v
    };
    let gauntlet = match a.format.as_str() {
        "round-robin" | "roundrobin" => false,
        "gauntlet" => true,
        s => {
            return Err(format!(
                "--format: '{s}' is not a format (round-robin, gauntlet)"
            ));
        }
    };
    if a.rounds == 0 {
        return Err("--rounds: at least 1".into());
    }
    if a.build_timeout == 0 {
        return Err("--build-timeout: at least 1 second".into());
    }
    let shard = a
        .shard
        .as_deref()
        .map(|s| Shard::parse(s).map_err(|e| format!("--shard: {e}")))
        .transpose()?;
    let stage = if a.report_only {
        Stage::ReportOnly
    } else if a.build_only {
        Stage::BuildOnly
    } else {
        Stage::All
    };
    Ok(ClassConfig {
        submissions: a.submissions.clone(),
        course: a.course.clone(),
        out: a.output.clone(),
        builtins,
        gauntlet,
        rounds: a.rounds,
        student_options: name_values("--student-option", &a.student_option)?,
        build_timeout: std::time::Duration::from_secs(a.build_timeout),
        stage,
        resume: a.resume,
        partial: a.partial,
        game_told: None,
        log: a.log,
        play: Config {
            kind,
            engines: Vec::new(),
            format: Format::RoundRobin { rounds: a.rounds },
            variant: name_values("--option", &a.play.option)?,
            concurrency: a.play.concurrency,
            seed: a.play.seed,
            openings: openings(a.play.openings.as_deref())?,
            limits: move_limits(&a.play)?,
            max_plies: a.play.max_plies,
            startup_ms: a.play.startup_timeout,
            // One student's engine that refuses its options is out; the class goes on.
            refusals: crate::referee::Refusals::Forfeit,
            sprt: None,
            records: None,
            log_dir: None,
            shard,
            progress: progress_wanted(),
        },
    })
}

/// `tablero tune` (not `--plot`, which the dispatcher handles itself).
pub fn tune_config(kind: GameKind, a: &TuneArgs) -> Result<TuneConfig, String> {
    let engine = a.engine.as_deref().ok_or("--engine: required")?;
    let params: Vec<Param> = a
        .param
        .iter()
        .map(|p| Param::parse(p).map_err(|e| format!("--param {e}")))
        .collect::<Result<_, _>>()?;
    if params.is_empty() {
        return Err("--param: at least one parameter to tune".into());
    }
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("--param: {} given twice", p.name));
        }
    }
    let iterations = a.iterations.ok_or("--iterations: required")?;
    if iterations == 0 {
        return Err("--iterations: at least 1".into());
    }
    if a.pairs_per_iteration == 0 {
        return Err("--pairs-per-iteration: at least 1".into());
    }
    // Checked here so that a bad flag is named; the run parses the recorded values again.
    move_limits(&a.play)?;
    name_values("--option", &a.play.option)?;
    openings(a.play.openings.as_deref())?;
    EngineSpec::parse(engine).map_err(|e| format!("--engine: {e}"))?;
    let out = match (&a.output, &a.resume) {
        (_, Some(p)) => TuneOut::Resume(p.clone()),
        (Some(p), None) => TuneOut::New(p.clone()),
        (None, None) => return Err("-o FILE (or --resume FILE) is required".into()),
    };
    Ok(TuneConfig {
        kind,
        settings: TuneSettings {
            game: kind.name().to_string(),
            engine: engine.to_string(),
            params,
            iterations,
            pairs_per_iteration: a.pairs_per_iteration,
            seed: a.play.seed,
            options: a.play.option.clone(),
            openings: a.play.openings.clone(),
            depth: a.play.depth,
            nodes: a.play.nodes,
            movetime: a.play.movetime,
            tc: a.play.tc.clone(),
            max_plies: a.play.max_plies,
        },
        concurrency: a.play.concurrency,
        margin_ms: a.play.margin,
        timeout_ms: a.play.timeout,
        out,
    })
}

/// `tablero learn`: the flags as [`crate::learn::Config`].
pub fn learn_config(kind: GameKind, a: &LearnArgs) -> Result<crate::learn::Config, String> {
    use crate::learn::{LabelKind, Positions};
    let (lo, hi) = a
        .opening
        .split_once("..")
        .and_then(|(l, h)| Some((l.trim().parse().ok()?, h.trim().parse().ok()?)))
        .ok_or_else(|| {
            format!(
                "--opening: expected MIN..MAX, e.g. 4..8, got '{}'",
                a.opening
            )
        })?;
    if lo > hi {
        return Err(format!(
            "--opening: MIN..MAX with MIN <= MAX, got '{}'",
            a.opening
        ));
    }
    if !(0.0..=1.0).contains(&a.rate) {
        return Err(format!("--rate: a probability in 0..=1, got {}", a.rate));
    }
    if !(a.above_db > 0.0 && a.above_db <= 1.0) {
        return Err(format!(
            "--above-db: a probability in (0, 1], got {}",
            a.above_db
        ));
    }
    if a.depth == 0 {
        return Err("--depth: at least 1".into());
    }
    if a.threads == 0 {
        return Err("--threads: at least 1".into());
    }
    if let Some(u) = a.unit
        && !(u.is_finite() && u > 0.0)
    {
        return Err(format!("--unit: a positive number, got {u}"));
    }
    if a.data.is_empty() && a.games == 0 {
        return Err("--games: at least 1 (or fit files given with --data)".into());
    }
    let weights = a
        .weight
        .iter()
        .map(|s| {
            let (k, v) = name_value_of("--weight", s)?;
            let x: i32 = v
                .parse()
                .map_err(|_| format!("--weight {k}: '{v}' is not an integer"))?;
            Ok((k, x))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(crate::learn::Config {
        kind,
        seed: a.seed,
        games: a.games,
        depth: a.depth,
        opponents: a.opponent.clone(),
        opening: (lo, hi),
        rate: a.rate,
        labels: match a.labels.as_deref() {
            None => None,
            Some("exact") => Some(LabelKind::Exact),
            Some("result") => Some(LabelKind::Result),
            Some(x) => return Err(format!("--labels: '{x}' is not exact or result")),
        },
        positions: match a.positions.as_deref() {
            None => None,
            Some("leaves") => Some(Positions::Leaves),
            Some("roots") => Some(Positions::Roots),
            Some(x) => return Err(format!("--positions: '{x}' is not leaves or roots")),
        },
        weights,
        fit: a.fit.clone(),
        iterations: a.iterations,
        threads: a.threads,
        data_out: a.out.clone(),
        data_in: a.data.clone(),
        above_db: a.above_db,
        db_seeds: a.db_seeds,
        db_dir: a.db_dir.clone(),
        db_max_bytes: a.db_max_mb.map(|mb| mb << 20),
        c4_nodes: a.c4_nodes,
        max_plies: a.max_plies,
        unit: a.unit,
        margin_sign: a.margin_sign,
    })
}

/// `tablero gui`: the engines the page may pick (the full engine, the built-in players, then
/// the `--engine NAME=SPEC` entries; names unique).
pub fn gui_config(
    kind: GameKind,
    listen: &str,
    extra: &[String],
    allow_remote: bool,
    max_connections: usize,
) -> Result<GuiConfig, String> {
    if max_connections == 0 {
        return Err("--max-connections: at least 1".into());
    }
    let mut engines = builtin_engines()?;
    for e in extra {
        let (name, spec) = e
            .split_once('=')
            .ok_or_else(|| format!("--engine '{e}': expected NAME=SPEC"))?;
        let name = name.trim();
        if name.is_empty()
            || name.len() > 40
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
        {
            return Err(format!(
                "--engine '{e}': NAME must be 1-40 letters, digits or - _ . +"
            ));
        }
        if name == "human" || engines.iter().any(|o| o.name == name) {
            return Err(format!("--engine: the name '{name}' is already taken"));
        }
        let spec = EngineSpec::parse(spec).map_err(|err| format!("--engine {name}: {err}"))?;
        engines.push(Offered {
            name: name.to_string(),
            spec,
        });
    }
    Ok(GuiConfig {
        listen: listen.to_string(),
        engines,
        allow_remote,
        game: kind,
        max_connections,
    })
}

/// Does the user want a run's progress on stderr (the bar on a terminal, a line a game
/// elsewhere)? `TABLERO_PROGRESS=off` says no: the output is then what a terminal keeps once the
/// bar is cleared, as the documentation's examples show it.
fn progress_wanted() -> bool {
    std::env::var_os("TABLERO_PROGRESS").is_none_or(|v| v != "off")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tournament_engine_lines() {
        let e = tournament_engine_arg("t=tablero --game connect4 option.Heuristic=seed").unwrap();
        assert_eq!(
            e.spec,
            EngineSpec::Command(vec!["tablero".into(), "--game".into(), "connect4".into()])
        );
        assert_eq!(e.options, vec![("Heuristic".into(), "seed".into())]);
        let b = tournament_engine_arg("r=builtin:random option.Seed=3").unwrap();
        assert_eq!(b.options, vec![("Seed".into(), "3".into())]);
        assert!(tournament_engine_arg("noequals").is_err());
        assert!(tournament_engine_arg("x=builtin:random extra").is_err());
        assert!(tournament_engine_arg("x=").is_err());
        assert!(tournament_engine_arg("x=builtin:nobody").is_err());
        assert!(tournament_engine_arg("x=prog option.bad").is_err());
    }

    #[test]
    fn gui_engine_names() {
        let g = |e: &str| {
            gui_config(
                GameKind::Connect4,
                "127.0.0.1:0",
                &[e.to_string()],
                false,
                1,
            )
        };
        let o = g("mine=builtin:greedy").unwrap();
        assert!(o.engines.iter().any(|e| e.name == "mine"));
        assert!(g("random=builtin:greedy").is_err());
        assert!(g("no spec").is_err());
        assert!(g("a b=builtin:greedy").is_err());
        assert!(g("x=builtin:god").is_err());
    }

    #[test]
    fn anchors() {
        assert_eq!(anchor("a=100"), Ok(("a".into(), 100.0)));
        assert!(anchor("a=x").is_err());
        assert!(anchor("a").is_err());
        assert!(anchor("a=1e9").is_err());
    }
}
