//! `tablero report`: a front end over the referee's records (`tablero match --records`, one JSON
//! line per game). It reads one or more records files (runs or shards of one match), refuses
//! files played under different settings, drops duplicate game numbers, names the missing ones,
//! and then either prints the referee's own result table or writes one self-contained HTML page
//! with plots and a replay of every game ([`html`] for a match, [`tournament`] for a tournament,
//! which also makes a class's pages).
//!
//! Statistics are never computed here: games go through the referee's [`Tally`] and the table
//! through [`table_text`], exactly as `tablero match` prints them.

mod error;
pub mod html;
pub mod review;
pub mod times;
pub mod tournament;

use std::io::Write;
use std::path::{Path, PathBuf};

pub use error::{GameWhy, ReportError, StartError};

use crate::games::GameKind;
use crate::referee::output::{match_text, notes};
use crate::referee::ratings::standings;
use crate::referee::records::{ReadGame, read_files, read_whole};
use crate::referee::stats::{self, EloEstimate, Sprt, sprt_status};
use crate::referee::{Merged, Settings, Summary, Tally};

/// One game as read from a records file.
pub type Game = ReadGame;

/// The merged records of one match.
#[derive(Clone, Debug)]
pub struct Records {
    pub kind: GameKind,
    /// Engine 1 and engine 2.
    pub names: [String; 2],
    /// The match settings; `None` when every file is of records version 1.
    pub settings: Option<Settings>,
    /// Games by game number, each number once.
    pub games: Vec<Game>,
    /// Lines dropped because their game number was already read.
    pub duplicates: usize,
    /// Of those, the ones whose moves or result differ from the game kept (the first read).
    pub conflicting: usize,
    /// Game numbers below the highest one read that no file holds, as inclusive ranges: a
    /// record may carry any game number, so the gaps are counted, never listed one by one.
    pub missing: Vec<(usize, usize)>,
    pub files: Vec<PathBuf>,
    merged: Merged,
}

impl Records {
    /// The match view of merged records (`Err` for a tournament's).
    fn of(merged: Merged) -> Result<Records, ReportError> {
        if !merged.is_match() {
            return Err(ReportError::Tournament);
        }
        let [a, b] = <[String; 2]>::try_from(merged.names.clone())
            .map_err(|_| ReportError::NotTwoEngines)?;
        Ok(Records {
            kind: merged.kind,
            names: [a, b],
            settings: merged.settings.clone(),
            games: merged.games.clone(),
            duplicates: merged.duplicates,
            conflicting: merged.conflicting,
            missing: merged.missing.clone(),
            files: merged.files.clone(),
            merged,
        })
    }
}

/// Reads and merges the records files of one match. Errors are one line naming the file (and
/// line).
pub fn load(paths: &[PathBuf]) -> Result<Records, ReportError> {
    Records::of(read_files(paths).map_err(ReportError::Records)?)
}

/// The match after each game (in game order): what the plots draw.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Game number of each point.
    pub game: Vec<usize>,
    /// Engine 1's score so far, 0..1.
    pub score: Vec<f64>,
    /// Headline Elo estimate so far and its 95 % interval (NaN while undefined or infinite).
    pub elo: Vec<f64>,
    pub elo_lo: Vec<f64>,
    pub elo_hi: Vec<f64>,
    /// The SPRT's LLR so far (empty without an SPRT).
    pub llr: Vec<f64>,
}

fn finite(v: f64) -> f64 {
    if v.is_finite() { v } else { f64::NAN }
}

impl Records {
    /// The SPRT the match ran, if its records say so.
    pub fn sprt(&self) -> Option<Sprt> {
        self.settings.as_ref().and_then(|s| s.sprt)
    }

    /// The referee's tally of every game and the SPRT state, plus the running series.
    pub fn summary(&self) -> (Summary, Series) {
        let mut tally = Tally::default();
        let mut series = Series::default();
        let sprt = self.sprt();
        for g in &self.games {
            tally.add(&g.record);
            series.game.push(g.record.index);
            series.score.push(tally.score());
            let e: Option<EloEstimate> = tally.headline();
            let (elo, lo, hi) = match e {
                Some(e) => (
                    finite(e.elo),
                    finite(stats::elo_of_score(e.score - stats::Z95 * e.stderr)),
                    finite(stats::elo_of_score(e.score + stats::Z95 * e.stderr)),
                ),
                None => (f64::NAN, f64::NAN, f64::NAN),
            };
            series.elo.push(elo);
            series.elo_lo.push(lo);
            series.elo_hi.push(hi);
            if let Some(s) = &sprt {
                series.llr.push(sprt_status(s, &tally).0);
            }
        }
        let sprt_now = sprt.map(|s| sprt_status(&s, &tally));
        (
            Summary {
                tally,
                sprt: sprt_now,
            },
            series,
        )
    }

    /// Lines about the files themselves: how many, duplicates, missing games.
    pub fn notes(&self) -> Vec<String> {
        notes(&self.merged)
    }

    /// The text report (stdout): the referee's table, then the review's table when the games
    /// were reviewed (`tablero analyse`). The notes about the files are [`Records::notes`]
    /// (stderr).
    pub fn text(&self) -> String {
        let (summary, _) = self.summary();
        let mut o = match_text(
            self.kind.name(),
            [&self.names[0], &self.names[1]],
            self.sprt(),
            &summary,
        );
        o += &review_text(&self.games).unwrap_or_default();
        o
    }
}

/// The review's table of reviewed `games` (what `tablero analyse` printed), under a line that
/// says so; `None` when no game was reviewed (or the records cannot be read again).
pub fn review_text(games: &[ReadGame]) -> Option<String> {
    let raws = crate::review::run::raw_lines_of(games).ok()?;
    let reviewed = raws.iter().filter(|r| r.get("review").is_some()).count();
    if reviewed == 0 {
        return None;
    }
    Some(format!(
        "review (tablero analyse) of {reviewed} game{}:\n{}",
        if reviewed == 1 { "" } else { "s" },
        crate::review::totals_text(&crate::review::run::totals(&raws))
    ))
}

/// `tablero report`: match records as [`run`] does; tournament records merged into the
/// standings the unsharded `tablero tournament` prints, on stdout (text or `--json`), with the
/// notes about the files (duplicates, missing games) on stderr so that stdout is byte for byte
/// what the tournament printed.
pub fn run_any(
    paths: &[PathBuf],
    html_out: Option<&Path>,
    json_out: bool,
    anchor: Option<(String, f64)>,
    partial: bool,
    times: bool,
) -> Result<(), ReportError> {
    if times && html_out.is_some() {
        return Err(ReportError::TimesWithPage);
    }
    let merged = read_whole(paths, partial).map_err(ReportError::Records)?;
    if merged.is_match() {
        if json_out || anchor.is_some() {
            return Err(ReportError::TournamentFlags);
        }
        return run(Records::of(merged)?, html_out, times);
    }
    if times {
        return Err(ReportError::TimesOfTournament);
    }
    let settings = merged.settings.clone().ok_or(ReportError::NoSettings)?;
    let games: Vec<_> = merged.games.iter().map(|g| g.record.clone()).collect();
    let standings = standings(&settings, &games, anchor).map_err(|e| match e {
        crate::referee::Error::Anchor(n) => ReportError::Anchor(n),
        e => ReportError::Standings(e),
    })?;
    for n in notes(&merged) {
        eprintln!("{n}");
    }
    if let Some(out) = html_out {
        // Opened first so that an unwritable path fails before the games are replayed.
        let mut f = create(out)?;
        let t = tournament::Tournament {
            merged: &merged,
            standings: &standings,
        };
        let page = match tournament::page(merged.kind, Some(&t), &tournament::View::default()) {
            Ok(p) => p,
            Err(e) => {
                drop(f);
                let _ = std::fs::remove_file(out);
                return Err(e);
            }
        };
        f.write_all(page.as_bytes())
            .map_err(|error| output(out, error))?;
        eprintln!(
            "wrote {} ({} games, {:.1} MB)",
            out.display(),
            merged.games.len(),
            page.len() as f64 / 1e6
        );
    } else if json_out {
        write_stdout(&format!("{}\n", standings.json()))?;
    } else {
        let review = review_text(&merged.games).unwrap_or_default();
        write_stdout(&format!("{}{review}", standings.text()))?;
    }
    Ok(())
}

fn output(path: &Path, error: std::io::Error) -> ReportError {
    ReportError::Output {
        path: path.to_path_buf(),
        error,
    }
}

/// Creates the page's file `-o path`.
fn create(path: &Path) -> Result<std::fs::File, ReportError> {
    std::fs::File::create(path).map_err(|e| output(path, e))
}

/// Writes `text` to stdout; a closed pipe (`| head`) is not an error.
pub fn write_stdout(text: &str) -> Result<(), ReportError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(ReportError::Stdout(e)),
        _ => Ok(()),
    }
}

/// `tablero report` of a match: the table on stdout (with each engine's move times when
/// `times`), or the page written to `html`.
pub fn run(records: Records, html_out: Option<&Path>, times: bool) -> Result<(), ReportError> {
    match html_out {
        None => {
            let mut text = records.text();
            if times {
                let rows = times::move_times(&records)?;
                text += &times::times_text(&rows, records.games.len());
            }
            // Results on stdout, what is said about the files on stderr (docs/commands.md).
            write_stdout(&text)?;
            for n in records.notes() {
                eprintln!("{n}");
            }
            Ok(())
        }
        Some(out) => {
            // Opened first so that an unwritable path fails before the games are replayed.
            let mut f = create(out)?;
            let page = match html::page(&records) {
                Ok(p) => p,
                Err(e) => {
                    drop(f);
                    let _ = std::fs::remove_file(out);
                    return Err(e);
                }
            };
            f.write_all(page.as_bytes())
                .map_err(|error| output(out, error))?;
            eprintln!(
                "wrote {} ({} games, {:.1} MB)",
                out.display(),
                records.games.len(),
                page.len() as f64 / 1e6
            );
            Ok(())
        }
    }
}
