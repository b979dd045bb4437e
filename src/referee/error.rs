//! What can go wrong in the referee, as values. Each error says what failed with which value in
//! one line and names no command-line flag: the front end knows where a value came from and
//! says so (`--records`, `--resume`, `--openings`, …) when it prints the error.

use std::path::PathBuf;

/// A value given as text that does not parse. The message says why; the variant says what it
/// was meant to be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A clock `BASE+INC` in seconds.
    #[error("{0}")]
    Tc(String),
    /// An engine's own limits `KEY=VALUE[,…]`.
    #[error("{0}")]
    Limits(String),
    /// An SPRT `elo0=… elo1=… alpha=… beta=…`.
    #[error("{0}")]
    Sprt(String),
    /// How to reach an engine: a command line, `builtin:<player>` or `tcp:HOST:PORT`.
    #[error("{0}")]
    Engine(String),
    /// A shard `K/N`.
    #[error("{0}")]
    Shard(String),
}

/// Why a records file cannot be continued. The file is left as it is in every case.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("{0}")]
    Read(std::io::Error),
    /// A line that is not a record, with more lines after it (not a torn last line).
    #[error(
        "line {line} is not a {variant} record of this referee, and more lines follow (not a torn last line); the file is left as it is"
    )]
    NotARecord { line: usize, variant: String },
    /// A gzip-compressed file: a run appends to its records, so it continues only a plain one.
    #[error(
        "the file is gzip-compressed and a run appends to its records; continue a plain copy (gunzip -k it); the file is left as it is"
    )]
    Compressed,
    /// The first line is not a records header.
    #[error("line {line}: not a records header")]
    NotAHeader { line: usize },
    /// The file was written under other settings.
    #[error("recorded with other settings (recorded vs now: {difference}); use the same flags")]
    OtherSettings { difference: String },
    /// A game line of other settings than its file's header.
    #[error("line {line}: a game of other settings")]
    OtherFingerprint { line: usize },
    /// A game line that does not fit the schedule.
    #[error("line {line}: {why}; the file is left as it is")]
    OffSchedule {
        line: usize,
        why: Box<GameLineError>,
    },
    /// A game out of order.
    #[error(
        "line {line} holds game {found} where game {expected} was expected; the file is left as it is"
    )]
    OutOfOrder {
        line: usize,
        found: usize,
        expected: String,
    },
    /// A game (of records without settings) played from another opening.
    #[error("game {game} was played from another opening; use the same seed and openings")]
    OtherOpening { game: usize },
    /// Rewriting older records into the current format failed.
    #[error("cannot rewrite the records in the current format: {0}")]
    Rewrite(std::io::Error),
}

/// Why a game line of a records file is not a game of its header's schedule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameLineError {
    #[error("not a game record (missing fields)")]
    Fields,
    #[error("game {game} is not in the schedule ({games} games)")]
    NotScheduled { game: usize, games: usize },
    /// The engines' names as recorded (first, second) and as the schedule seats them.
    #[error(
        "game {game} is {} - {}, the schedule says {} - {}",
        seats[0], seats[1], scheduled[0], scheduled[1]
    )]
    OtherSeats {
        game: usize,
        seats: [String; 2],
        scheduled: [String; 2],
    },
}

/// Why the settings a records file holds cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// A header line (`kind` `match` or `tournament`) whose settings do not parse.
    #[error("unreadable {kind} settings")]
    Header { kind: String },
    /// The settings of an older match line.
    #[error("settings: {0}")]
    Line(serde_json::Error),
}

/// What an engine refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Its settings: `UCI_Variant` and the options (checked before the first game).
    Settings,
    /// The position (or the `go`) of a move of game N.
    Position(usize),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Settings => write!(f, "its settings (UCI_Variant and the options)"),
            Refused::Position(g) => write!(f, "a position of game {g}"),
        }
    }
}

/// Why `--openings` names no openings.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsFileError {
    #[error("{0}")]
    Read(#[from] std::io::Error),
    #[error("no openings in the file")]
    Empty,
    /// `random:P` whose `P` is not a number (the text after `random:`).
    #[error("random:P needs a number of plies, got '{0}'")]
    RandomPlies(String),
}

/// Why a match or tournament could not be played (or its records not read).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A variant option whose value is not an integer.
    #[error("option {name}: '{value}' is not an integer")]
    OptionValue { name: String, value: String },
    /// A variant option setting that names no option of the game.
    #[error("{0}")]
    Option(crate::core::spec::OptionError),
    /// The variant options do not make a game (the game's own message).
    #[error("{0}")]
    Rules(#[from] crate::core::game::ConfigError),
    /// An opening line the rules refuse (1-based line of the openings).
    #[error("openings line {line}: {error}")]
    OpeningLine {
        line: usize,
        error: crate::core::spec::PositionError,
    },
    /// An openings file that cannot be read or holds no opening.
    #[error("openings {}: {why}", path.display())]
    OpeningsFile {
        path: PathBuf,
        why: OpeningsFileError,
    },
    /// An engine's own option sets a variant option to another value than the referee plays
    /// (`referee`: the referee's value, by its name for a combo).
    #[error(
        "engine '{engine}': its option {name}={value} sets the rules, but the referee plays \
         {name} {referee}: set variant options once, for the referee and every engine"
    )]
    EngineVariant {
        engine: String,
        name: String,
        value: String,
        referee: String,
    },
    /// An engine of a match that cannot even start a game (the pre-flight handshake failed).
    #[error("engine '{engine}' cannot play: {error}")]
    EngineStart { engine: String, error: String },
    /// An engine answered `info string error` to what it was sent: it is not playing what was
    /// asked. The engine's own line.
    #[error("engine '{engine}' refused {what}: {line}")]
    EngineRefused {
        engine: String,
        what: Refused,
        line: String,
    },
    /// The directory of raw I/O logs, or a log file in it.
    #[error("log {}: {source}", path.display())]
    Log {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The records file given for a new run exists (neither continued nor replaced).
    #[error("records {}: the file exists", path.display())]
    RecordsExist { path: PathBuf },
    /// The records file cannot be created or opened.
    #[error("records {}: {source}", path.display())]
    RecordsOpen {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A record cannot be written.
    #[error("records {}: cannot write: {source}", path.display())]
    RecordsWrite {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Written records cannot be forced to the disk.
    #[error("records {}: cannot sync: {source}", path.display())]
    RecordsSync {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The records file given to continue cannot be continued.
    #[error("resume {}: {problem}", path.display())]
    Resume { path: PathBuf, problem: ResumeError },
    /// Records files that cannot be read or merged (`file:line: why`).
    #[error("{0}")]
    Records(String),
    /// Records that are not the whole run they promise (games missing, a last line cut off),
    /// read without `--partial`.
    #[error(
        "{files}: {why}: not the whole run (cut short, or shards missing); --partial uses the games there are"
    )]
    CutShort { files: String, why: String },
    /// The anchor of the ratings names no engine.
    #[error("anchor: no engine named '{0}'")]
    Anchor(String),
}
