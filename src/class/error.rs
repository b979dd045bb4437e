//! Why a class run stops ([`ClassError`]) and why one student's build could not run
//! ([`BuildError`], kept as that student's error in the report while the class goes on). The
//! texts are the one-line errors `tablero class` prints.

use std::path::PathBuf;

use super::bridges::COURSES;
use crate::games::{GameKind, UnknownGame};
use crate::report::ReportError;

/// Why `tablero class` (or one of its stages) stopped.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    /// A file or folder of the class cannot be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("--output {}: not a folder", .0.display())]
    OutputNotFolder(PathBuf),
    /// `class.json` is missing or unreadable: the folder is no class's output.
    #[error("{}: {error} (not the output folder of a class run?)", path.display())]
    NoManifest {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}: {error}", path.display())]
    Manifest {
        path: PathBuf,
        error: serde_json::Error,
    },
    #[error("{}: a class of {found}, not {} (--game)", manifest.display(), want.name())]
    OtherGame {
        manifest: PathBuf,
        found: String,
        want: GameKind,
    },
    #[error("{0}")]
    UnknownGame(UnknownGame),
    #[error("the submissions' folder is required")]
    NoSubmissionsFolder,
    #[error("{}: no submissions (one folder per student)", .0.display())]
    NoSubmissions(PathBuf),
    #[error("{} line {line}: expected NAME=VALUE, got '{text}'", path.display())]
    OptionsLine {
        path: PathBuf,
        line: usize,
        text: String,
    },
    #[error("two submissions are both named '{0}' (folder names with spaces or '=' read as '_')")]
    SameName(String),
    #[error("the submission '{0}' has the name of a built-in player; rename its folder")]
    BuiltinName(String),
    #[error("--format gauntlet: the students play the built-ins; name some with --builtins")]
    GauntletWithoutBuiltins,
    #[error("--course {}: not a folder", .0.display())]
    CourseNotFolder(PathBuf),
    /// A checkout of another game's course (`shows`: what gives it away).
    #[error(
        "--course {}: not a {} course folder; it looks like the {} course ({shows}): --game {}?",
        path.display(), want.name(), found.name(), found.name()
    )]
    OtherCourse {
        path: PathBuf,
        want: GameKind,
        found: GameKind,
        shows: &'static str,
    },
    /// The players need the course's checkout (`what`) and none was given.
    #[error("--course: the players are built with {what}; give its folder")]
    CourseNeeded { what: &'static str },
    /// The folder lacks the checkout's file `want`; `looks` names the game it may be of.
    #[error("--course {}: not {what} (no {want}){}", path.display(), looks_like(looks))]
    NotCheckout {
        path: PathBuf,
        what: &'static str,
        want: &'static str,
        looks: Option<(GameKind, &'static str)>,
    },
    /// Neither the checkout nor the submissions tell the game.
    #[error(
        "class: which game? Neither {} nor the submissions tell (no {}): give {}",
        match course { Some(c) => format!("the checkout {}", c.display()), None => "a --course checkout".to_string() },
        player_files(), game_flags()
    )]
    WhichGame { course: Option<PathBuf> },
    /// The checkout and the submissions tell different games.
    #[error("which game? {why_a} ({}), but {why_b} ({}): give --game", a.name(), b.name())]
    GamesDisagree {
        a: GameKind,
        why_a: String,
        b: GameKind,
        why_b: String,
    },
    #[error(
        "no tournament: {students} student{} built and {builtins} built-in player{} take part; the report of the builds is {}",
        if *students == 1 { "" } else { "s" },
        if *builtins == 1 { "" } else { "s" },
        report.display()
    )]
    NoTournament {
        students: usize,
        builtins: usize,
        report: PathBuf,
    },
    #[error(
        "{} exists: --resume continues it (same flags), or choose another output folder",
        .0.display()
    )]
    RecordsExist(PathBuf),
    #[error("--resume: {0}")]
    Resume(crate::referee::Error),
    /// The tournament or its standings.
    #[error("{0}")]
    Referee(crate::referee::Error),
    #[error("class records without settings")]
    NoSettings,
    #[error("{}: not the records of this class", .0.display())]
    NotThisClass(PathBuf),
    #[error("no student built")]
    NoneBuilt,
    #[error("{0}")]
    Report(ReportError),
}

fn looks_like(looks: &Option<(GameKind, &'static str)>) -> String {
    match looks {
        Some((k, shows)) => format!(
            "; it looks like the {} course ({shows}): --game {}?",
            k.name(),
            k.name()
        ),
        None => String::new(),
    }
}

fn player_files() -> String {
    COURSES
        .iter()
        .map(|c| c.player_file.unwrap_or("bot sources"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn game_flags() -> String {
    COURSES
        .iter()
        .map(|c| format!("--game {}", c.game.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a student's build could not run: the student's build fails with this text, the class
/// goes on.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot run {program}: {error}")]
    Run {
        program: String,
        error: std::io::Error,
    },
    #[error("waiting for the build: {0}")]
    Wait(std::io::Error),
    #[error("no bridge for this game")]
    NoBridge,
    #[error("no course checkout given (--course)")]
    NoCourse,
}

// The front end carries errors as text; this lets `?` bring a class error into it.
impl From<ClassError> for String {
    fn from(e: ClassError) -> String {
        e.to_string()
    }
}

impl From<ReportError> for ClassError {
    fn from(e: ReportError) -> ClassError {
        ClassError::Report(e)
    }
}
