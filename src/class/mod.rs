//! `tablero class`: a class tournament for a teacher. A folder of submissions, one per student,
//! becomes engines ([`build`]: the course bridges' `build.sh` for Parchís and Conecta-4 BOOM
//! player files, `make`/g++ for Mancala bots, ready programs as they are), every build under a
//! time limit and logged; the engines that built play a round-robin, or a gauntlet against the
//! built-in players, through the referee's one pipeline (records, resume, shards); and the
//! report is a folder of pages: the tournament's page and one page per student
//! ([`crate::report::tournament`]).
//!
//! The output folder holds everything: `bridge/` (the bridge sources this binary carries,
//! [`bridges`]), `engines/`, `students/NAME/` (build log and cached build), `class.json` (the
//! submissions and their builds), `records/` (`all.jsonl`, or `shard-K-of-N.jsonl` per shard),
//! `logs/` (with `log`), `index.html` and `students/NAME.html`. A student who does not build, or
//! whose engine crashes, hangs, prints junk or plays an illegal move, loses a build line or games
//! (the referee scores those), never the tournament.

pub mod bridges;
pub mod build;
mod error;
pub mod infer;
pub mod submissions;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::games::GameKind;
use crate::players::Player;
use crate::referee::ratings::standings;
use crate::referee::records::read_whole;
use crate::referee::{self, Config, EngineConfig, EngineSpec, Format, Notice, RecordsTarget};
use build::{Builder, Built, Status};
pub use error::{BuildError, ClassError};
use submissions::Source;

/// What a run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Build, play (the whole tournament or a shard) and, unsharded, write the report.
    All,
    /// Build only (before a cluster's shards start).
    BuildOnly,
    /// Write the report from the records in the output folder (after the shards).
    ReportOnly,
}

/// A class tournament.
#[derive(Clone, Debug)]
pub struct ClassConfig {
    /// The submissions' folder (not needed for [`Stage::ReportOnly`]).
    pub submissions: Option<PathBuf>,
    /// The course checkout (Parchís, BOOM) or course bot folder (Mancala, optional).
    pub course: Option<PathBuf>,
    /// The output folder.
    pub out: PathBuf,
    /// The built-in players that take part.
    pub builtins: Vec<Player>,
    /// A gauntlet (every student against every built-in) instead of a round-robin.
    pub gauntlet: bool,
    pub rounds: usize,
    /// Every student's engine options (`tablero.options` in a submission adds and overrides).
    pub student_options: Vec<(String, String)>,
    pub build_timeout: Duration,
    pub stage: Stage,
    /// Continue the records in the output folder.
    pub resume: bool,
    /// Report records that are not the whole tournament (shards missing, a line cut off).
    pub partial: bool,
    /// How the game was told when `--game` was not given (`mancala: 5 of 5 submissions hold
    /// Mancala bot sources`), for the first line of the run.
    pub game_told: Option<String>,
    /// Keep every engine's I/O per game under `logs/`.
    pub log: bool,
    /// The referee's settings (game, limits, openings, seed, concurrency, shard, variant); its
    /// engines, format and records are filled in here.
    pub play: Config,
}

/// `class.json`: the class's submissions and their builds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub game: String,
    pub submissions: String,
    pub course: Option<String>,
    pub builtins: Vec<String>,
    pub students: Vec<Student>,
    /// Entries of the submissions' folder that are not folders.
    pub ignored: Vec<String>,
}

/// One student: the submission's folder, its engine's options and its build.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Student {
    pub folder: String,
    pub options: Vec<(String, String)>,
    #[serde(flatten)]
    pub build: Built,
}

const MANIFEST: &str = "class.json";

/// The arguments of the bridge's build script that the tournament's variant options call for:
/// BOOM players built for the 2018-19 simulator when `Year` is 2018-19 (`--option
/// Year=2018-19`), Parchís players for the 2021-22, 2023-24 or 2024-25 one when it is that year, so that each engine
/// takes the referee's `setoption name Year`.
pub fn bridge_args(kind: GameKind, variant: &[(String, String)]) -> Vec<String> {
    use crate::core::game::Game;
    use crate::games::boom::{Boom, Year};
    use crate::games::parchis::{Parchis, Year as ParchisYear};
    let value = |options: &[crate::core::game::VariantOption]| {
        variant
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case("Year"))
            .and_then(|(_, v)| options.first().and_then(|o| o.parse_value(v).ok()))
    };
    let year = match kind {
        GameKind::Connect4Boom => match value(Boom::OPTIONS).map(Year::of_value) {
            Some(Year::Y2018) => "2018-19",
            _ => return Vec::new(),
        },
        GameKind::Parchis => match value(Parchis::OPTIONS).map(ParchisYear::of_value) {
            Some(ParchisYear::Y2021) => "2021-22",
            Some(ParchisYear::Y2023) => "2023-24",
            Some(ParchisYear::Y2024) => "2024-25",
            _ => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    vec!["--year".into(), year.into()]
}

/// The options of every student's engine in `kind`: the course's defaults
/// (`Course::student_options`, e.g. Parchís' `PlayerId` 1, the first of the student's own
/// heuristics; docs/bridge-parchis.md) that the user did not set, then the user's.
pub fn default_student_options(
    kind: GameKind,
    given: &[(String, String)],
) -> Vec<(String, String)> {
    let defaults = bridges::course(kind).map_or(&[][..], |c| c.student_options);
    let mut out: Vec<(String, String)> = defaults
        .iter()
        .filter(|(n, _)| !given.iter().any(|(g, _)| g.eq_ignore_ascii_case(n)))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    out.extend(given.iter().cloned());
    out
}

/// An I/O error of the class's file or folder `p`.
pub(super) fn io(p: &Path) -> impl Fn(std::io::Error) -> ClassError + '_ {
    move |error| ClassError::Io {
        path: p.to_path_buf(),
        error,
    }
}

/// Does `course` look like what `kind`'s builds need?
fn check_course(kind: GameKind, course: Option<&Path>, needed: bool) -> Result<(), ClassError> {
    let others = bridges::course(kind).map_or(&[][..], |c| c.other_markers);
    let Some((want, what)) = bridges::course(kind).and_then(|c| c.checkout) else {
        return match course {
            Some(c) if !c.is_dir() => Err(ClassError::CourseNotFolder(c.to_path_buf())),
            Some(c) => match infer::course_game(c) {
                Some((found, shows)) if found != kind => Err(ClassError::OtherCourse {
                    path: c.to_path_buf(),
                    want: kind,
                    found,
                    shows,
                }),
                _ => Ok(()),
            },
            None => Ok(()),
        };
    };
    match course {
        None if needed => Err(ClassError::CourseNeeded { what }),
        Some(c) if !c.join(want).is_file() && !others.iter().any(|m| c.join(m).is_file()) => {
            Err(ClassError::NotCheckout {
                path: c.to_path_buf(),
                what,
                want,
                looks: infer::course_game(c),
            })
        }
        _ => Ok(()),
    }
}

/// The line of one build, for the progress on stderr and the summary.
fn build_line(b: &Built, width: usize) -> String {
    let what = match b.status {
        Status::Built => format!(
            "{}{}",
            b.what,
            if b.cached {
                " (built before)".to_string()
            } else {
                format!(" ({:.1} s)", b.seconds)
            }
        ),
        _ => b.error.clone().unwrap_or_default(),
    };
    format!("  {:<width$}  {:<7}  {what}", b.name, b.status.name())
}

/// The engine of a built student.
fn student_engine(kind: GameKind, out: &Path, s: &Student) -> Option<EngineConfig> {
    let path = out.join(s.build.engine.as_ref()?);
    let words = vec![path.display().to_string()];
    Some(EngineConfig {
        spec: if bridges::course(kind).is_some_and(|c| c.bot_protocol) {
            EngineSpec::MancalaBot(words)
        } else {
            EngineSpec::Command(words)
        },
        name: s.build.name.clone(),
        options: s.options.clone(),
        limits: None,
    })
}

/// The records files in `out/records` (sorted).
fn records_files(out: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(out.join("records"))
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Runs a class tournament (or one of its stages). Progress goes to stderr; the builds, the
/// standings and where the report is are returned as the text for stdout.
pub fn run(cfg: &ClassConfig) -> Result<String, ClassError> {
    let kind = cfg.play.kind;
    if cfg.out.exists() && !cfg.out.is_dir() {
        return Err(ClassError::OutputNotFolder(cfg.out.clone()));
    }
    std::fs::create_dir_all(&cfg.out).map_err(io(&cfg.out))?;
    let out = cfg.out.canonicalize().map_err(io(&cfg.out))?;
    if cfg.stage == Stage::ReportOnly {
        let m = read_manifest(&out)?;
        if m.game != kind.name() {
            return Err(ClassError::OtherGame {
                manifest: out.join(MANIFEST),
                found: m.game,
                want: kind,
            });
        }
        let mut text = String::new();
        report(&out, &cfg.out, &m, cfg.partial, &mut text)?;
        return Ok(text);
    }
    let subs_dir = cfg
        .submissions
        .as_ref()
        .ok_or(ClassError::NoSubmissionsFolder)?;
    let defaults = default_student_options(kind, &cfg.student_options);
    let shown_dir = subs_dir;
    let subs_dir = &subs_dir.canonicalize().map_err(io(subs_dir))?;
    let (subs, ignored) = submissions::scan(kind, subs_dir, Some(&out), &defaults)?;
    if subs.is_empty() {
        return Err(ClassError::NoSubmissions(subs_dir.clone()));
    }
    for s in &subs {
        if cfg.builtins.iter().any(|b| b.name() == s.name) {
            return Err(ClassError::BuiltinName(s.name.clone()));
        }
    }
    if cfg.gauntlet && cfg.builtins.is_empty() && cfg.stage == Stage::All {
        return Err(ClassError::GauntletWithoutBuiltins);
    }
    let needs_course = subs.iter().any(|s| matches!(s.source, Source::Player(_)));
    check_course(kind, cfg.course.as_deref(), needs_course)?;
    let course = cfg
        .course
        .as_ref()
        .map(|c| c.canonicalize().map_err(io(c)))
        .transpose()?;
    let script = bridges::write(kind, &out.join("bridge"))?;
    eprintln!(
        "class: {} submission{} in {} ({}){}",
        subs.len(),
        if subs.len() == 1 { "" } else { "s" },
        shown_dir.display(),
        match &cfg.game_told {
            Some(t) => format!("{t}; --game sets it"),
            None => kind.name().to_string(),
        },
        if ignored.is_empty() {
            String::new()
        } else {
            format!("; not folders, ignored: {}", ignored.join(", "))
        }
    );
    let builder = Builder {
        kind,
        course: course.as_deref(),
        out: &out,
        script: script.as_deref(),
        script_args: bridge_args(kind, &cfg.play.variant),
        timeout: cfg.build_timeout,
    };
    let width = subs.iter().map(|s| s.name.len()).max().unwrap_or(4);
    let mut students = Vec::new();
    for s in &subs {
        let b = builder.build(s)?;
        eprintln!("{}", build_line(&b, width));
        students.push(Student {
            folder: s
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            options: s.options.clone(),
            build: b,
        });
    }
    let manifest = Manifest {
        game: kind.name().to_string(),
        submissions: subs_dir.display().to_string(),
        course: course.as_ref().map(|c| c.display().to_string()),
        builtins: cfg.builtins.iter().map(|b| b.name().to_string()).collect(),
        students,
        ignored,
    };
    write_manifest(&out, &manifest)?;
    let mut text = builds_text(&manifest);
    if cfg.stage == Stage::BuildOnly {
        return Ok(text);
    }

    // The tournament: the students that built, then the built-ins (a gauntlet's heads come
    // first: the built-ins, each against every student).
    let students: Vec<EngineConfig> = manifest
        .students
        .iter()
        .filter_map(|s| student_engine(kind, &out, s))
        .collect();
    let builtins: Vec<EngineConfig> = cfg
        .builtins
        .iter()
        .map(|b| EngineConfig {
            spec: EngineSpec::Builtin(*b),
            name: b.name().to_string(),
            options: Vec::new(),
            limits: None,
        })
        .collect();
    let (engines, format) = if cfg.gauntlet {
        let heads = builtins.len();
        (
            builtins.into_iter().chain(students).collect::<Vec<_>>(),
            Format::Gauntlet {
                rounds: cfg.rounds,
                heads,
            },
        )
    } else {
        (
            students.into_iter().chain(builtins).collect(),
            Format::RoundRobin { rounds: cfg.rounds },
        )
    };
    let playing_students = manifest
        .students
        .iter()
        .filter(|s| s.build.status == Status::Built)
        .count();
    if playing_students == 0 || engines.len() < 2 {
        report(&out, &cfg.out, &manifest, false, &mut String::new())?;
        return Err(ClassError::NoTournament {
            students: playing_students,
            builtins: cfg.builtins.len(),
            report: cfg.out.join("index.html"),
        });
    }
    let records_rel = match cfg.play.shard {
        Some(sh) => format!("records/shard-{}-of-{}.jsonl", sh.k, sh.n),
        None => "records/all.jsonl".to_string(),
    };
    let records = out.join(&records_rel);
    std::fs::create_dir_all(out.join("records")).map_err(io(&out))?;
    if !cfg.resume && records.exists() {
        return Err(ClassError::RecordsExist(cfg.out.join(&records_rel)));
    }
    let mut rcfg = cfg.play.clone();
    rcfg.engines = engines;
    rcfg.format = format;
    rcfg.records = Some(RecordsTarget {
        path: records.clone(),
        resume: cfg.resume,
        overwrite: false,
    });
    rcfg.log_dir = cfg.log.then(|| out.join("logs"));
    let mut notice = |n: Notice| match n {
        Notice::TornLineDropped { path, torn, .. } => eprintln!(
            "tablero class: {}: dropped its torn last line {} ({} bytes); that game is played again",
            path.display(),
            torn.line,
            torn.bytes
        ),
        Notice::Rewritten { path, games } => eprintln!(
            "tablero class: {}: records of an older tablero rewritten ({games} games kept)",
            path.display()
        ),
        Notice::EngineLost {
            game,
            engine,
            reason,
            detail,
        } => eprintln!(
            "tablero class: game {game}: {engine} lost by {}: {detail}",
            reason.name()
        ),
        Notice::EngineOut { engine, line } => eprintln!(
            "tablero class: {engine} is out: its engine refused its settings: {line}; every game of it is lost"
        ),
        Notice::GameDone { done, total, line } => {
            eprintln!("tablero class: {done}/{total}: {line}")
        }
    };
    let played = referee::run(&rcfg, &mut notice).map_err(|e| match &e {
        referee::Error::Resume { .. } => ClassError::Resume(e),
        _ => ClassError::Referee(e),
    })?;
    let st = standings(&played.settings, &played.games, None).map_err(ClassError::Referee)?;
    match cfg.play.shard {
        Some(sh) => {
            text += &st.text();
            text += &format!(
                "shard {}/{}: {} of {} games in {}; when every shard is done: tablero --game {} class --report-only -o {}\n",
                sh.k,
                sh.n,
                played.games.len(),
                rcfg.schedule().games().unwrap_or(played.games.len()),
                cfg.out.join(&records_rel).display(),
                kind.name(),
                cfg.out.display()
            );
        }
        None => report(&out, &cfg.out, &manifest, false, &mut text)?,
    }
    Ok(text)
}

/// The builds, as the summary prints them.
fn builds_text(m: &Manifest) -> String {
    let width = m
        .students
        .iter()
        .map(|s| s.build.name.len())
        .max()
        .unwrap_or(4);
    let built = m
        .students
        .iter()
        .filter(|s| s.build.status == Status::Built)
        .count();
    let mut t = format!(
        "builds: {built} of {} submission{} built\n",
        m.students.len(),
        if m.students.len() == 1 { "" } else { "s" }
    );
    for s in &m.students {
        t += &build_line(&s.build, width);
        t.push('\n');
    }
    t
}

fn write_manifest(out: &Path, m: &Manifest) -> Result<(), ClassError> {
    let path = out.join(MANIFEST);
    let tmp = out.join(format!(".{MANIFEST}.{}", std::process::id()));
    let text = serde_json::to_string_pretty(m).map_err(|error| ClassError::Manifest {
        path: path.clone(),
        error,
    })? + "\n";
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, &path).map_err(io(&path))
}

fn read_manifest(out: &Path) -> Result<Manifest, ClassError> {
    let path = out.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|error| ClassError::NoManifest {
        path: path.clone(),
        error,
    })?;
    serde_json::from_str(&text).map_err(|error| ClassError::Manifest { path, error })
}

/// The pages: `index.html` and one page per student, from the records in `out/records` and the
/// builds; the standings (or why there are none) and where the pages are go to `text`.
fn report(
    out: &Path,
    shown: &Path,
    m: &Manifest,
    partial: bool,
    text: &mut String,
) -> Result<(), ClassError> {
    let files = records_files(out);
    let tournament = if files.is_empty() {
        None
    } else {
        let merged = read_whole(&files, partial).map_err(ClassError::Referee)?;
        let settings = merged.settings.clone().ok_or(ClassError::NoSettings)?;
        if settings.is_match() || settings.variant != m.game {
            return Err(ClassError::NotThisClass(out.join("records")));
        }
        let games: Vec<_> = merged.games.iter().map(|g| g.record.clone()).collect();
        let st = standings(&settings, &games, None).map_err(ClassError::Referee)?;
        if m.students.iter().all(|s| s.build.status != Status::Built) {
            return Err(ClassError::NoneBuilt);
        }
        Some((merged, st))
    };
    let class = class_json(m);
    let kind = GameKind::from_name(&m.game).map_err(ClassError::UnknownGame)?;
    let mut pages: Vec<(String, String)> = Vec::new();
    let view = |focus, student| crate::report::tournament::View {
        focus,
        class: Some(class.clone()),
        student,
    };
    let t = tournament
        .as_ref()
        .map(|(merged, st)| crate::report::tournament::Tournament {
            merged,
            standings: st,
        });
    pages.push((
        "index.html".into(),
        crate::report::tournament::page(kind, t.as_ref(), &view(None, None))?,
    ));
    for s in &m.students {
        let focus = t.as_ref().and_then(|t| {
            t.standings
                .settings
                .engines
                .iter()
                .position(|e| e.name == s.build.name)
        });
        let (log, cut) = log_for_page(out, s);
        let student = json!({
            "name": s.build.name,
            "folder": s.folder,
            "status": s.build.status.name(),
            "what": s.build.what,
            "error": s.build.error,
            "seconds": s.build.seconds,
            "options": s.options.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
            "log": log,
            "log_cut": cut,
            "log_path": format!("{}/build.log", s.build.name),
            "home": "../index.html",
        });
        pages.push((
            format!("students/{}.html", s.build.name),
            crate::report::tournament::page(
                kind,
                t.as_ref().filter(|_| focus.is_some()),
                &view(focus, Some(student)),
            )?,
        ));
    }
    std::fs::create_dir_all(out.join("students")).map_err(io(out))?;
    let mut bytes = 0usize;
    for (rel, html) in &pages {
        let path = out.join(rel);
        let tmp = path.with_extension(format!("html.{}", std::process::id()));
        std::fs::write(&tmp, html).map_err(io(&tmp))?;
        std::fs::rename(&tmp, &path).map_err(io(&path))?;
        bytes += html.len();
    }
    match &tournament {
        Some((merged, st)) => {
            *text += &st.text();
            for n in crate::referee::output::notes(merged) {
                eprintln!("{n}");
            }
        }
        None => *text += "no games recorded yet\n",
    }
    *text += &format!(
        "report: {} and {} student page{} ({:.1} MB)\n",
        shown.join("index.html").display(),
        pages.len() - 1,
        if pages.len() == 2 { "" } else { "s" },
        bytes as f64 / 1e6
    );
    Ok(())
}

/// What the pages show of the class: the game, the course, the built-ins and every student's
/// build, with the page and log of each.
fn class_json(m: &Manifest) -> Value {
    let students: Vec<Value> = m
        .students
        .iter()
        .map(|s| {
            json!({
                "name": s.build.name,
                "folder": s.folder,
                "status": s.build.status.name(),
                "what": s.build.what,
                "error": s.build.error,
                "seconds": s.build.seconds,
                "options": s.options.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
                "log": s.build.log,
            })
        })
        .collect();
    json!({
        "game": m.game,
        "course": m.course,
        "builtins": m.builtins,
        "students": students,
    })
}

/// The build log of a student, cut for a page (the whole file stays in the folder).
pub fn log_for_page(out: &Path, s: &Student) -> (String, bool) {
    const MAX: usize = 200_000;
    let text = std::fs::read_to_string(out.join(&s.build.log)).unwrap_or_default();
    if text.len() <= MAX {
        (text, false)
    } else {
        let mut end = MAX;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        (text[..end].to_string(), true)
    }
}

#[cfg(test)]
mod year_tests {
    use super::*;

    fn v(name: &str, value: &str) -> Vec<(String, String)> {
        vec![(name.to_string(), value.to_string())]
    }

    #[test]
    fn boom_players_are_built_for_the_year_played() {
        let boom = GameKind::Connect4Boom;
        assert_eq!(
            bridge_args(boom, &v("year", "2018-19")),
            ["--year", "2018-19"]
        );
        assert_eq!(bridge_args(boom, &v("Year", "2018")), ["--year", "2018-19"]);
        assert!(bridge_args(boom, &v("Year", "2020-21")).is_empty());
        assert!(bridge_args(boom, &v("Hash", "16")).is_empty());
        assert!(bridge_args(boom, &[]).is_empty());
        assert!(bridge_args(GameKind::Mancala, &v("Year", "2018-19")).is_empty());
    }

    #[test]
    fn parchis_players_are_built_for_the_year_played() {
        let parchis = GameKind::Parchis;
        assert_eq!(
            bridge_args(parchis, &v("Year", "2021-22")),
            ["--year", "2021-22"]
        );
        assert_eq!(
            bridge_args(parchis, &v("Year", "2024-25")),
            ["--year", "2024-25"]
        );
        assert_eq!(
            bridge_args(parchis, &v("Year", "2023-24")),
            ["--year", "2023-24"]
        );
        assert!(bridge_args(parchis, &v("Year", "2022-23")).is_empty());
        assert!(bridge_args(parchis, &v("Year", "2018-19")).is_empty());
        assert!(bridge_args(parchis, &[]).is_empty());
    }
}

#[cfg(test)]
mod refusal_tests {
    use super::*;
    use crate::referee::{MoveLimits, Openings, Refusals};

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tablero-class-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn config(kind: GameKind, out: PathBuf) -> ClassConfig {
        ClassConfig {
            submissions: None,
            course: None,
            out,
            builtins: Vec::new(),
            gauntlet: false,
            rounds: 1,
            student_options: Vec::new(),
            build_timeout: Duration::from_secs(60),
            stage: Stage::All,
            resume: false,
            partial: false,
            game_told: None,
            log: false,
            play: Config {
                kind,
                engines: Vec::new(),
                format: Format::RoundRobin { rounds: 1 },
                variant: Vec::new(),
                concurrency: 1,
                seed: 1,
                openings: Openings::Start,
                limits: MoveLimits::default(),
                max_plies: 100,
                sprt: None,
                records: None,
                log_dir: None,
                shard: None,
                progress: false,
                startup_ms: 1000,
                refusals: Refusals::Stop,
            },
        }
    }

    /// Each way a class run is refused before anything is built is its own kind, and leaves
    /// the folders it was given as they were.
    #[test]
    fn each_refusal_is_its_own_kind() {
        let d = dir("refusals");
        let kind = GameKind::Connect4;
        let file = d.join("a-file");
        std::fs::write(&file, "kept").unwrap();
        let e = run(&config(kind, file.clone())).unwrap_err();
        assert!(
            matches!(&e, ClassError::OutputNotFolder(p) if *p == file),
            "{e:?}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");

        let out = d.join("out");
        let mut c = config(kind, out.clone());
        c.stage = Stage::ReportOnly;
        let e = run(&c).unwrap_err();
        assert!(matches!(e, ClassError::NoManifest { .. }), "{e:?}");
        assert!(
            e.to_string()
                .ends_with("(not the output folder of a class run?)"),
            "{e}"
        );
        std::fs::write(out.join(MANIFEST), "{not json").unwrap();
        assert!(matches!(run(&c), Err(ClassError::Manifest { .. })));
        let m = Manifest {
            game: "mancala".into(),
            submissions: String::new(),
            course: None,
            builtins: Vec::new(),
            students: Vec::new(),
            ignored: Vec::new(),
        };
        write_manifest(&out.canonicalize().unwrap(), &m).unwrap();
        let e = run(&c).unwrap_err();
        assert!(
            matches!(&e, ClassError::OtherGame { found, want: GameKind::Connect4, .. } if found == "mancala"),
            "{e:?}"
        );

        let c = config(kind, out.clone());
        assert!(matches!(run(&c), Err(ClassError::NoSubmissionsFolder)));
        let subs = d.join("subs");
        std::fs::create_dir_all(&subs).unwrap();
        let mut c = config(kind, out.clone());
        c.submissions = Some(subs.clone());
        assert!(matches!(run(&c), Err(ClassError::NoSubmissions(_))));
        std::fs::create_dir_all(subs.join("greedy")).unwrap();
        c.builtins = vec![Player::Greedy];
        let e = run(&c).unwrap_err();
        assert!(
            matches!(&e, ClassError::BuiltinName(n) if n == "greedy"),
            "{e:?}"
        );
        std::fs::rename(subs.join("greedy"), subs.join("ana")).unwrap();
        c.builtins.clear();
        c.gauntlet = true;
        assert!(matches!(run(&c), Err(ClassError::GauntletWithoutBuiltins)));
        c.gauntlet = false;
        c.course = Some(file.clone());
        let e = run(&c).unwrap_err();
        assert!(
            matches!(&e, ClassError::CourseNotFolder(p) if *p == file),
            "{e:?}"
        );
    }

    /// A course folder that is not the checkout the builds need names what it lacks, and what
    /// game it looks like when it tells.
    #[test]
    fn a_wrong_course_is_named() {
        let boom = GameKind::Connect4Boom;
        let e = check_course(boom, None, true).unwrap_err();
        assert!(matches!(e, ClassError::CourseNeeded { .. }), "{e:?}");
        assert!(check_course(boom, None, false).is_ok());
        let d = dir("course");
        let e = check_course(boom, Some(&d), false).unwrap_err();
        assert!(
            matches!(&e, ClassError::NotCheckout { path, looks: None, .. } if *path == d),
            "{e:?}"
        );
    }
}
