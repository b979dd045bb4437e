//! Records: one format for matches and tournaments, its crash-safe writer, `resume`, and the
//! reader that merges the records files of one match or tournament (`tablero report`).
//!
//! A records file is JSON lines. The first is a header, `{"kind": "match"|"tournament",
//! "version": 1, "fingerprint": F, "shard": "K/N"|null, "settings": {…}}` ([`Settings`] and their
//! fingerprint); then one line per game in schedule order: the game line of
//! [`GameRecord::to_json_named`] plus `"kind": "match-game"|"tournament-game"`, the fingerprint
//! and the round. Files merge when their settings are equal.
//!
//! Older files stay readable: a match used to write one self-contained line per game (records
//! versions 1 and 2, the second with the settings in every line). `tablero report` reads and
//! merges them with newer files of the same match, and `resume` rewrites such a file in the
//! current format (to a temporary file, then renamed over it) before it continues.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};

use super::config::{EngineSettings, Settings};
use super::error::{Error, GameLineError, ResumeError, SettingsError};
use super::game::{GameOutcome, GameRecord, MoveRecord, Reason};
use super::schedule::{Schedule, Scheduled, Shard};
use super::stats::Sprt;
use crate::core::game::Side;
use crate::games::GameKind;

/// The version of the header format (the same since tournaments introduced it).
pub const HEADER_VERSION: u64 = 1;

impl GameRecord {
    /// The record line of this game in `variant` between engines named `names` (engine 1,
    /// engine 2): every field of a game, without the settings.
    pub fn to_json_named(&self, variant: &str, names: [&str; 2]) -> Value {
        let result = self.result();
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

    /// Reads back a game line (of any records version): the game, its opening, moves and
    /// result. `None` when a field the statistics need is missing or mistyped.
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
                Some(MoveRecord {
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

    /// Do two records of one game number tell the same game (moves, opening and result)?
    pub fn same_game(&self, other: &GameRecord) -> bool {
        self.winner_engine() == other.winner_engine()
            && self.outcome.reason == other.outcome.reason
            && self.opening_moves == other.opening_moves
            && self.outcome.moves.iter().map(|m| &m.mv).eq(other
                .outcome
                .moves
                .iter()
                .map(|m| &m.mv))
    }
}

/// `match` or `tournament`: the header's kind (game lines add `-game`).
fn kind_of(settings: &Settings) -> &'static str {
    if settings.is_match() {
        "match"
    } else {
        "tournament"
    }
}

/// The header line of a records file; `games`: how many games a match will play (not a
/// setting, but what the file promises: records with fewer games were cut short, unless an
/// SPRT stopped the match).
pub fn header_json(settings: &Settings, shard: Option<Shard>, games: Option<usize>) -> Value {
    let mut h = json!({
        "kind": kind_of(settings),
        "version": HEADER_VERSION,
        "fingerprint": settings.fingerprint(),
        "shard": shard.map(Shard::label),
        "settings": settings,
    });
    if let Some(g) = games {
        h["games"] = json!(g);
    }
    h
}

/// The line of game `r` (scheduled as `s`) under `settings` (whose fingerprint is `fp`).
pub fn game_json(r: &GameRecord, s: &Scheduled, settings: &Settings, fp: &str) -> Value {
    let names = [
        settings.engines[s.engines[0]].name.as_str(),
        settings.engines[s.engines[1]].name.as_str(),
    ];
    let mut v = r.to_json_named(&settings.variant, names);
    v["kind"] = json!(format!("{}-game", kind_of(settings)));
    v["fingerprint"] = json!(fp);
    v["round"] = json!(s.round);
    v
}

/// Is `v` a records header? Its settings when it is (`Err` when they are unreadable).
fn header_settings(v: &Value) -> Option<Result<Settings, SettingsError>> {
    let kind = v.get("kind").and_then(Value::as_str)?;
    if kind != "match" && kind != "tournament" {
        return None;
    }
    Some(
        v.get("settings")
            .and_then(|s| serde_json::from_value::<Settings>(s.clone()).ok())
            .ok_or_else(|| SettingsError::Header {
                kind: kind.to_string(),
            }),
    )
}

/// Is `v` a game line of the current format?
fn is_game_line(v: &Value) -> bool {
    v.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k == "match-game" || k == "tournament-game")
}

/// Reads a game line of the current format and checks it against the schedule.
fn parse_game_line(
    v: &Value,
    settings: &Settings,
    sched: &Schedule,
) -> Result<GameRecord, GameLineError> {
    let r = GameRecord::from_json(v).ok_or(GameLineError::Fields)?;
    if let Some(n) = sched.games()
        && r.index >= n
    {
        return Err(GameLineError::NotScheduled {
            game: r.index,
            games: n,
        });
    }
    let s = sched.game(r.index);
    let first = v.get("first").and_then(Value::as_str).unwrap_or("");
    let second = v.get("second").and_then(Value::as_str).unwrap_or("");
    let want = [
        settings.engines[s.engines[s.first]].name.as_str(),
        settings.engines[s.engines[1 - s.first]].name.as_str(),
    ];
    if r.first != s.first || [first, second] != want {
        return Err(GameLineError::OtherSeats {
            game: r.index,
            seats: [first.to_string(), second.to_string()],
            scheduled: want.map(str::to_string),
        });
    }
    Ok(r)
}

/// The settings a match wrote into every line from records version 2 to the header format.
#[derive(Deserialize)]
struct LineSettings {
    variant: String,
    options: Vec<(String, i64)>,
    engines: [EngineSettings; 2],
    seed: u64,
    openings: String,
    depth: Option<u64>,
    nodes: Option<u64>,
    movetime_ms: Option<u64>,
    tc_ms: Option<(u64, u64)>,
    max_plies: usize,
    sprt: Option<Sprt>,
}

/// The settings of an older match line: `None` for records version 1 (no `settings`),
/// `Some(Err)` when the field is there but unreadable.
pub fn line_settings(v: &Value) -> Option<Result<Settings, SettingsError>> {
    let s = v.get("settings")?;
    Some(
        serde_json::from_value::<LineSettings>(s.clone())
            .map(|l| Settings {
                variant: l.variant,
                options: l.options,
                engines: l.engines.to_vec(),
                format: "match".into(),
                rounds: None,
                heads: None,
                seed: l.seed,
                openings: l.openings,
                depth: l.depth,
                nodes: l.nodes,
                movetime_ms: l.movetime_ms,
                tc_ms: l.tc_ms,
                max_plies: l.max_plies,
                sprt: l.sprt,
            })
            .map_err(SettingsError::Line),
    )
}

/// The records file being written. Each record is one `write` of the whole line (a killed
/// referee leaves whole lines, or at worst one torn last line that `resume` drops), and the
/// data reaches the disk (`fdatasync`) at most every [`SYNC_EVERY`], so a power cut loses at
/// most the games of that last moment, which `resume` plays again. Every failure to write or
/// sync is an error. A file that exists is never overwritten unless asked
/// ([`Opening::Replace`]), and then only once the new one is whole.
pub struct RecordsFile {
    file: std::fs::File,
    /// Where the records belong.
    path: PathBuf,
    /// Where they are written meanwhile (`path`, or beside it when it is replaced).
    writing: PathBuf,
    last_sync: Instant,
    unsynced: bool,
}

/// How a records file is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// A new file: one that exists is refused ([`Error::RecordsExist`]).
    Fresh,
    /// A new file in place of one that may exist: written to [`replacement`] beside it and
    /// renamed over it by [`RecordsFile::finish`], so that a run stopped before leaves the old
    /// file whole.
    Replace,
    /// Continue the file from its first `kept` bytes (what `resume` kept); 0: start it afresh.
    Continue(u64),
}

/// Where a replacing run writes its records until it ends: `FILE.partial` beside `FILE`.
pub fn replacement(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".partial");
    PathBuf::from(p)
}

/// How often written records are forced to the disk (an `fdatasync` costs milliseconds; once per
/// game would cap fast matches at a few hundred games per second).
pub const SYNC_EVERY: Duration = Duration::from_millis(100);

impl RecordsFile {
    /// Opens `path` for the games to come, as `how` says: a new file starts with `header`; a
    /// continued one is cut to its first `kept` bytes (what `resume` kept) and appended to, so
    /// that a kill during a resume never loses what was recorded.
    pub fn open(path: &Path, how: Opening, header: &Value) -> Result<RecordsFile, Error> {
        let writing = match how {
            Opening::Replace => replacement(path),
            _ => path.to_path_buf(),
        };
        let open_err = |source| Error::RecordsOpen {
            path: writing.clone(),
            source,
        };
        let new = |f: std::io::Result<std::fs::File>| -> Result<std::fs::File, Error> {
            let mut f = f.map_err(open_err)?;
            f.write_all(format!("{header}\n").as_bytes())
                .map_err(|source| Error::RecordsWrite {
                    path: writing.clone(),
                    source,
                })?;
            Ok(f)
        };
        let mut file = match how {
            Opening::Fresh => {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path);
                if matches!(&f, Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists) {
                    return Err(Error::RecordsExist {
                        path: path.to_path_buf(),
                    });
                }
                new(f)?
            }
            Opening::Replace | Opening::Continue(0) => new(std::fs::File::create(&writing))?,
            Opening::Continue(kept) => {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(open_err)?;
                if f.metadata().map_err(open_err)?.len() != kept {
                    f.set_len(kept).map_err(open_err)?;
                    f.sync_all().map_err(open_err)?;
                }
                f
            }
        };
        file.seek(SeekFrom::End(0)).map_err(open_err)?;
        Ok(RecordsFile {
            file,
            path: path.to_path_buf(),
            writing,
            last_sync: Instant::now(),
            unsynced: !matches!(how, Opening::Continue(k) if k > 0),
        })
    }

    /// Ends the writing: everything synced, and a replacement renamed over the file it
    /// replaces. (A run that fails does not call it: a replaced file stays as it was.)
    pub fn finish(mut self) -> Result<(), Error> {
        self.sync()?;
        if self.writing != self.path {
            std::fs::rename(&self.writing, &self.path).map_err(|source| Error::RecordsWrite {
                path: self.path.clone(),
                source,
            })?;
        }
        Ok(())
    }

    /// Appends one record line.
    pub fn append(&mut self, record: &Value) -> Result<(), Error> {
        let mut line = record.to_string();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .map_err(|source| Error::RecordsWrite {
                path: self.writing.clone(),
                source,
            })?;
        self.unsynced = true;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Forces what was written to the disk.
    pub fn sync(&mut self) -> Result<(), Error> {
        if self.unsynced {
            self.file.sync_data().map_err(|source| Error::RecordsSync {
                path: self.writing.clone(),
                source,
            })?;
            self.unsynced = false;
            self.last_sync = Instant::now();
        }
        Ok(())
    }
}

/// A torn last line that `resume` dropped (what a killed referee or a power cut leaves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TornLine {
    /// 1-based line number.
    pub line: usize,
    pub bytes: usize,
    /// It ended with a newline (a whole line that is not a whole record).
    pub newline: bool,
}

/// What `resume` keeps of a records file.
#[derive(Debug, Default)]
pub struct Kept {
    /// The games kept, in the order of the run's games.
    pub games: Vec<GameRecord>,
    /// Bytes of the kept prefix (the header and whole game lines); 0: start the file afresh.
    pub len: u64,
    pub dropped: Option<TornLine>,
    /// The file was written in an older format (and must be rewritten before it grows).
    pub older: bool,
    /// The header line as it is in the file (`None` for older records).
    pub header: Option<Value>,
}

/// What `resume` checks every kept game against.
pub struct Expected<'a> {
    pub kind: GameKind,
    pub settings: &'a Settings,
    pub schedule: &'a Schedule,
    /// The run's games, in order: the file must hold a prefix of them.
    pub games: &'a [usize],
}

/// Reads the records of an interrupted run: its games, a prefix of the run's games in order.
/// Only a torn last line (no newline, or not a whole record: what a killed referee or a power
/// cut leaves) is dropped; any other damage, a game out of order or other settings is an
/// error and the file is left as it is. `opening_of(i)` is game `i`'s opening (base, moves),
/// which games of older records without settings are checked against.
pub fn read_resume(
    path: &Path,
    want: &Expected,
    opening_of: impl Fn(usize) -> Result<(String, Vec<String>), Error>,
) -> Result<Kept, Error> {
    let fail = |problem| Error::Resume {
        path: path.to_path_buf(),
        problem,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Kept::default()),
        Err(e) => return Err(fail(ResumeError::Read(e))),
    };
    if is_gzip(&bytes) {
        return Err(fail(ResumeError::Compressed));
    }
    let fp = want.settings.fingerprint();
    let mut kept = Kept::default();
    let mut pos = 0usize;
    let mut line_no = 0usize;
    let mut header_seen = false;
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
        let torn = || TornLine {
            line: line_no,
            bytes: end - pos,
            newline: complete,
        };
        let next_game = want.games.get(kept.games.len()).copied();
        // The first line says the format: a header, or (older records) a match's game line.
        let record = match v {
            Some(v) if line_no == 1 && header_settings(&v).is_some() => {
                let theirs = header_settings(&v)
                    .and_then(Result::ok)
                    .ok_or(fail(ResumeError::NotAHeader { line: 1 }))?;
                if let Some(difference) = theirs.difference(want.settings) {
                    return Err(fail(ResumeError::OtherSettings { difference }));
                }
                header_seen = true;
                kept.header = Some(v);
                None
            }
            Some(v) if header_seen => {
                if v.get("fingerprint").and_then(Value::as_str) != Some(fp.as_str()) {
                    return Err(fail(ResumeError::OtherFingerprint { line: line_no }));
                }
                let r = parse_game_line(&v, want.settings, want.schedule).map_err(|why| {
                    fail(ResumeError::OffSchedule {
                        line: line_no,
                        why: Box::new(why),
                    })
                })?;
                Some(r)
            }
            Some(v) if !is_game_line(&v) && want.settings.is_match() => {
                // A match line of records version 1 or 2.
                match older_line(&v, want) {
                    Some(r) => {
                        if let Some(Ok(theirs)) = line_settings(&v)
                            && let Some(difference) = theirs.difference(want.settings)
                        {
                            return Err(fail(ResumeError::OtherSettings { difference }));
                        }
                        let (base, moves) = opening_of(r.index)?;
                        if Some(r.index) == next_game
                            && r.first == r.index % 2
                            && (base != r.opening_base || moves != r.opening_moves)
                        {
                            return Err(fail(ResumeError::OtherOpening { game: r.index }));
                        }
                        kept.older = true;
                        Some(r)
                    }
                    None if is_last => {
                        kept.dropped = Some(torn());
                        break;
                    }
                    None => {
                        return Err(fail(ResumeError::NotARecord {
                            line: line_no,
                            variant: want.kind.name().to_string(),
                        }));
                    }
                }
            }
            _ if is_last => {
                kept.dropped = Some(torn());
                break;
            }
            _ if line_no == 1 && !want.settings.is_match() => {
                return Err(fail(ResumeError::NotAHeader { line: 1 }));
            }
            _ => {
                return Err(fail(ResumeError::NotARecord {
                    line: line_no,
                    variant: want.kind.name().to_string(),
                }));
            }
        };
        if let Some(r) = record {
            if Some(r.index) != next_game || r.first != r.index % 2 {
                return Err(fail(ResumeError::OutOfOrder {
                    line: line_no,
                    found: r.index,
                    expected: next_game.map_or("none".to_string(), |i| i.to_string()),
                }));
            }
            kept.games.push(r);
        }
        pos = end + 1;
        kept.len = pos.min(bytes.len()) as u64;
    }
    if kept.older {
        // The kept games are rewritten into the current format before the file grows.
        kept.len = 0;
    }
    Ok(kept)
}

/// A game line of an older match file, if it is one of this variant.
fn older_line(v: &Value, want: &Expected) -> Option<GameRecord> {
    (v.get("variant")?.as_str()? == want.kind.name()).then_some(())?;
    GameRecord::from_json(v)
}

/// Rewrites `games` (kept from an older file) as a records file of the current format at
/// `path`: written to a temporary file beside it, synced, then renamed over it, so that the
/// old file stays whole until the new one is.
pub fn rewrite(
    path: &Path,
    header: &Value,
    settings: &Settings,
    schedule: &Schedule,
    games: &[GameRecord],
) -> Result<u64, Error> {
    let fail = |e| Error::Resume {
        path: path.to_path_buf(),
        problem: ResumeError::Rewrite(e),
    };
    let fp = settings.fingerprint();
    let mut text = format!("{header}\n");
    for r in games {
        text += &format!("{}\n", game_json(r, &schedule.game(r.index), settings, &fp));
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".rewrite");
    let tmp = PathBuf::from(tmp);
    let mut f = std::fs::File::create(&tmp).map_err(fail)?;
    f.write_all(text.as_bytes()).map_err(fail)?;
    f.sync_all().map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)?;
    Ok(text.len() as u64)
}

/// One game as read from a records file, with where it came from (`file:line`).
#[derive(Clone, Debug)]
pub struct ReadGame {
    pub record: GameRecord,
    pub source: String,
}

/// The merged records files of one match or tournament.
#[derive(Clone, Debug)]
pub struct Merged {
    pub kind: GameKind,
    /// The engines' names, in the order of the settings (engine 1, engine 2 for a match).
    pub names: Vec<String>,
    /// `None` only when every file is a match's of records version 1.
    pub settings: Option<Settings>,
    /// Games by game number, each number once.
    pub games: Vec<ReadGame>,
    /// Lines dropped because their game number was already read.
    pub duplicates: usize,
    /// Of those, the ones whose moves or result differ from the game kept (the first read).
    pub conflicting: usize,
    /// Game numbers not read, as inclusive ranges: below the highest one read for a match (a
    /// record may carry any game number, so the gaps are counted, never listed one by one),
    /// the schedule's other games for a tournament.
    pub missing: Vec<(usize, usize)>,
    /// How many games the records promise: a tournament's schedule, a match's header (`None`
    /// for a match whose records do not say).
    pub total: Option<usize>,
    /// Last lines that are not whole records (a killed run's), not read.
    pub torn: Vec<Torn>,
    /// N of the shards when every tournament header names the same N.
    pub shards: Option<usize>,
    pub files: Vec<PathBuf>,
}

/// A last line of a records file that is not a whole record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Torn {
    /// `file:line`.
    pub source: String,
    pub bytes: usize,
    /// It ended with a newline.
    pub newline: bool,
}

impl std::fmt::Display for Torn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: the last line is cut off ({} bytes{})",
            self.source,
            self.bytes,
            if self.newline { "" } else { ", no newline" }
        )
    }
}

impl Merged {
    /// Is this a match's records (or a tournament's)?
    pub fn is_match(&self) -> bool {
        self.settings.as_ref().is_none_or(Settings::is_match)
    }

    /// Number of missing games.
    pub fn missing_count(&self) -> usize {
        self.missing.iter().fold(0usize, |n, (a, b)| {
            n.saturating_add(b - a).saturating_add(1)
        })
    }

    /// Why these records are not the whole run, in one line (`None` when they are): games the
    /// files promise and do not hold, or a last line cut off. What is computed from them is
    /// then not the run's result, and the front ends refuse it unless told `--partial`.
    pub fn shortfall(&self) -> Option<String> {
        let mut why = Vec::new();
        if !self.missing.is_empty() {
            let of = match self.total {
                Some(t) => format!("{} of {t} games", self.games.len()),
                None => format!("{} games", self.games.len()),
            };
            why.push(format!(
                "{of}, missing {} ({})",
                super::records::ranges(&self.missing),
                self.missing_count()
            ));
        }
        why.extend(self.torn.iter().map(Torn::to_string));
        (!why.is_empty()).then(|| why.join("; "))
    }
}

/// What every file of one merge must agree on, with the line that set it.
struct Identity {
    kind: GameKind,
    names: Vec<String>,
    settings: Option<Settings>,
    source: String,
}

fn names_of(v: &Value) -> Option<Vec<String>> {
    let first = v.get("first")?.as_str()?.to_string();
    let second = v.get("second")?.as_str()?.to_string();
    Some(match v.get("first_engine")?.as_u64()? {
        1 => vec![first, second],
        _ => vec![second, first],
    })
}

/// Does `bytes` start as a gzip file does (RFC 1952's magic bytes)?
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The whole content of a gzip file (every member: `cat a.gz b.gz` is one file to gzip).
fn gunzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| std::io::Error::new(e.kind(), format!("not a whole gzip file: {e}")))?;
    Ok(out)
}

/// A records file's bytes, gunzipped when it is compressed.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path).and_then(|b| if is_gzip(&b) { gunzip(&b) } else { Ok(b) })
}

/// A records file's text, gunzipped when it is compressed.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_bytes(path)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()))
}

/// Reads and merges records files (any version), plain or gzip-compressed (`.jsonl.gz`: large
/// runs kept or shipped compressed read as they are). Errors are one line naming the file (and
/// line). A last line that is not a whole record (what a killed run leaves) is not an error
/// here: it is named in [`Merged::torn`], and [`Merged::shortfall`] says the records are not
/// whole, as it does for games the files promise and do not hold.
pub fn read_files(paths: &[PathBuf]) -> Result<Merged, Error> {
    let err = |s: String| Error::Records(s);
    if paths.is_empty() {
        return Err(err("no records files given".into()));
    }
    let mut id: Option<Identity> = None;
    let mut by_index: BTreeMap<usize, ReadGame> = BTreeMap::new();
    let (mut duplicates, mut conflicting) = (0, 0);
    let mut shard_ns = BTreeSet::new();
    let mut torn = Vec::new();
    let mut promised: Option<usize> = None;
    for path in paths {
        let bytes = read_bytes(path).map_err(|e| err(format!("{}: {e}", path.display())))?;
        // The file's own header: its settings, fingerprint and schedule.
        let mut header: Option<(Settings, String, Schedule)> = None;
        let mut lines = 0;
        let all: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        // The last line with something on it: the only one a killed writer can have cut.
        let last = all
            .iter()
            .rposition(|l| !l.iter().all(u8::is_ascii_whitespace));
        for (n, raw) in all.iter().enumerate() {
            let source = format!("{}:{}", path.display(), n + 1);
            if raw.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let parsed = std::str::from_utf8(raw)
                .map_err(|e| e.to_string())
                .and_then(|l| serde_json::from_str::<Value>(l).map_err(|e| e.to_string()));
            let v = match parsed {
                Ok(v) => v,
                Err(_) if Some(n) == last => {
                    torn.push(Torn {
                        source,
                        bytes: raw.len(),
                        newline: n + 1 < all.len(),
                    });
                    continue;
                }
                Err(e) => {
                    return Err(err(format!(
                        "{source}: not a JSON record ({e}), and more lines follow"
                    )));
                }
            };
            lines += 1;
            if let Some(s) = header_settings(&v) {
                if lines > 1 {
                    return Err(err(format!(
                        "{source}: a header in the middle of a records file"
                    )));
                }
                let s = s.map_err(|e| err(format!("{source}: {e}")))?;
                let sched = s
                    .schedule()
                    .ok_or_else(|| err(format!("{source}: unknown format '{}'", s.format)))?;
                let kind =
                    GameKind::from_name(&s.variant).map_err(|e| err(format!("{source}: {e}")))?;
                if sched.rounds.is_some() {
                    match v.get("shard").and_then(Value::as_str).map(Shard::parse) {
                        Some(Ok(sh)) => shard_ns.insert(sh.n),
                        _ => shard_ns.insert(1),
                    };
                }
                if let Some(g) = v.get("games").and_then(Value::as_u64) {
                    promised = Some(promised.unwrap_or(0).max(g as usize));
                }
                let names = s.names().iter().map(|n| n.to_string()).collect();
                identify(&mut id, kind, names, Some(s.clone()), &source)?;
                let fp = s.fingerprint();
                header = Some((s, fp, sched));
                continue;
            }
            let record = match &header {
                Some((settings, fp, sched)) => {
                    if !is_game_line(&v) {
                        return Err(err(format!(
                            "{source}: not a game line of its file's {} records",
                            kind_of(settings)
                        )));
                    }
                    if v.get("fingerprint").and_then(Value::as_str) != Some(fp.as_str()) {
                        return Err(err(format!(
                            "{source}: the game's settings fingerprint differs from its file's header"
                        )));
                    }
                    parse_game_line(&v, settings, sched)
                        .map_err(|e| err(format!("{source}: {e}")))?
                }
                None => {
                    if v.get("kind").is_some() {
                        return Err(err(format!(
                            "{source}: a game line without its file's header line (a records file starts with its header)"
                        )));
                    }
                    let bad = |what: &str| err(format!("{source}: not a game record ({what})"));
                    let record = GameRecord::from_json(&v)
                        .ok_or_else(|| bad("missing or mistyped fields"))?;
                    let variant = v
                        .get("variant")
                        .and_then(Value::as_str)
                        .ok_or_else(|| bad("no variant"))?;
                    let kind =
                        GameKind::from_name(variant).map_err(|e| err(format!("{source}: {e}")))?;
                    let names = names_of(&v).ok_or_else(|| bad("no engine names"))?;
                    let settings = line_settings(&v)
                        .transpose()
                        .map_err(|e| err(format!("{source}: {e}")))?;
                    identify(&mut id, kind, names, settings, &source)?;
                    record
                }
            };
            if let Some(kept) = by_index.get(&record.index) {
                duplicates += 1;
                if !kept.record.same_game(&record) {
                    conflicting += 1;
                }
                continue;
            }
            by_index.insert(record.index, ReadGame { record, source });
        }
        if lines == 0 {
            return Err(err(match torn.last() {
                Some(t) if t.source.starts_with(&format!("{}:", path.display())) => format!(
                    "{}: no records in the file, only a line cut off ({} bytes)",
                    path.display(),
                    t.bytes
                ),
                _ => format!("{}: no records in the file", path.display()),
            }));
        }
    }
    let id = id.ok_or_else(|| err("no records".into()))?;
    let is_match = id.settings.as_ref().is_none_or(Settings::is_match);
    // How many games the records promise: a tournament's schedule, a match's header (a match
    // that an SPRT stopped ends where the SPRT decided, which is what it promised).
    let mut total = id
        .settings
        .as_ref()
        .and_then(Settings::schedule)
        .and_then(|s| s.games());
    if is_match {
        total = promised;
        if let Some(sprt) = id.settings.as_ref().and_then(|s| s.sprt) {
            let mut tally = super::stats::Tally::default();
            for g in by_index.values() {
                tally.add(&g.record);
            }
            let (_, _, decision) = super::stats::sprt_status(&sprt, &tally);
            if decision != super::stats::SprtDecision::Continue {
                let read = by_index.keys().next_back().map_or(0, |&i| i + 1);
                total = total.map(|t| t.min(read));
            }
        }
    }
    let mut missing = Vec::new();
    let mut next = 0usize;
    for &i in by_index.keys() {
        if i > next {
            missing.push((next, i - 1));
        }
        next = i.saturating_add(1);
    }
    if let Some(t) = total
        && next < t
    {
        missing.push((next, t - 1));
    }
    Ok(Merged {
        kind: id.kind,
        names: id.names,
        settings: id.settings,
        games: by_index.into_values().collect(),
        duplicates,
        conflicting,
        missing,
        total,
        torn,
        shards: (shard_ns.len() == 1).then(|| shard_ns.first().copied().unwrap_or(1)),
        files: paths.to_vec(),
    })
}

/// [`read_files`], refusing records that are not the whole run ([`Merged::shortfall`]: games
/// missing, a last line cut off) unless `partial`: a table, a review or standings computed
/// from them would look like the run's result and not be.
pub fn read_whole(paths: &[PathBuf], partial: bool) -> Result<Merged, Error> {
    let merged = read_files(paths)?;
    match merged.shortfall() {
        Some(why) if !partial => Err(Error::CutShort {
            files: paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            why,
        }),
        _ => Ok(merged),
    }
}

/// Checks that a file (its header, or an older match line) belongs with what was read before.
fn identify(
    id: &mut Option<Identity>,
    kind: GameKind,
    names: Vec<String>,
    settings: Option<Settings>,
    source: &str,
) -> Result<(), Error> {
    let Some(first) = id else {
        *id = Some(Identity {
            kind,
            names,
            settings,
            source: source.to_string(),
        });
        return Ok(());
    };
    let is_match = |s: &Option<Settings>| s.as_ref().is_none_or(Settings::is_match);
    if is_match(&first.settings) != is_match(&settings) {
        return Err(Error::Records(format!(
            "{source}: match records and tournament records do not mix (with {}); report one match or one tournament at a time",
            first.source
        )));
    }
    let what = if is_match(&settings) {
        "match"
    } else {
        "tournament"
    };
    let differ = if first.kind != kind {
        Some(format!("variant {} vs {}", first.kind.name(), kind.name()))
    } else if first.names != names {
        Some(if names.len() == 2 && first.names.len() == 2 {
            format!(
                "engines {} - {} vs {} - {}",
                first.names[0], first.names[1], names[0], names[1]
            )
        } else {
            format!("engines {} vs {}", first.names.join(", "), names.join(", "))
        })
    } else {
        // Records of a match older than version 2 carry no settings and are matched by variant
        // and names.
        match (&first.settings, &settings) {
            (Some(a), Some(b)) => a.difference(b),
            (None, Some(_)) => {
                first.settings = settings.clone();
                None
            }
            _ => None,
        }
    };
    match differ {
        Some(d) => Err(Error::Records(format!(
            "{source}: played with other settings than {} ({d}); report one {what} at a time",
            first.source
        ))),
        None => Ok(()),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_compact() {
        assert_eq!(ranges(&[]), "");
        assert_eq!(ranges(&[(3, 3)]), "3");
        assert_eq!(ranges(&[(3, 3), (7, 9), (12, 12)]), "3, 7-9, 12");
    }
}
