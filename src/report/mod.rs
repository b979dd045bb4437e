//! `tablero report`: a front end over the referee's records (`tablero match --records`, one JSON
//! line per game). It reads one or more records files (runs or shards of one match), refuses
//! files played under different settings, drops duplicate game numbers, names the missing ones,
//! and then either prints the referee's own result table or writes one self-contained HTML page
//! ([`html`]) with plots and a replay of every game.
//!
//! Statistics are never computed here: games go through the referee's [`Tally`] and the table
//! through [`table_text`], exactly as `tablero match` prints them.

pub mod html;

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::games::GameKind;
use crate::referee::stats::{self, EloEstimate, Sprt};
use crate::referee::{
    GameRecord, Settings, Summary, Tally, record_settings, sprt_status, table_text,
};
use crate::referee::{duplicates_note, ranges};

/// One game as read from a records file.
#[derive(Clone, Debug)]
pub struct Game {
    pub record: GameRecord,
    /// Where it came from (`file:line`), for messages.
    pub source: String,
}

/// The merged records of one match.
#[derive(Clone, Debug)]
pub struct Records {
    pub kind: GameKind,
    /// Engine 1 and engine 2.
    pub names: [String; 2],
    /// The match settings (records version 2); `None` when every file is older.
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
}

/// What every line of a match must agree on, with the line that set it.
struct Identity {
    kind: GameKind,
    names: [String; 2],
    settings: Option<Settings>,
    source: String,
}

fn names_of(v: &Value) -> Option<[String; 2]> {
    let first = v.get("first")?.as_str()?.to_string();
    let second = v.get("second")?.as_str()?.to_string();
    Some(match v.get("first_engine")?.as_u64()? {
        1 => [first, second],
        _ => [second, first],
    })
}

/// Reads and merges records files. Errors are one line naming the file (and line).
pub fn load(paths: &[PathBuf]) -> Result<Records, String> {
    if paths.is_empty() {
        return Err("no records files given".into());
    }
    let mut id: Option<Identity> = None;
    let mut by_index: BTreeMap<usize, Game> = BTreeMap::new();
    let mut duplicates = 0;
    let mut conflicting = 0;
    for path in paths {
        let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = 0;
        for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
            let source = format!("{}:{}", path.display(), n + 1);
            let line = line.map_err(|e| format!("{source}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            lines += 1;
            let v: Value = serde_json::from_str(&line)
                .map_err(|e| format!("{source}: not a JSON record ({e}); a torn last line?"))?;
            let bad = |what: &str| format!("{source}: not a game record ({what})");
            if v.get("kind").is_some() {
                return Err(format!(
                    "{source}: a tournament record among match records (list a tournament's files first, and only them)"
                ));
            }
            let record =
                GameRecord::from_json(&v).ok_or_else(|| bad("missing or mistyped fields"))?;
            let variant = v
                .get("variant")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("no variant"))?;
            let kind = GameKind::from_name(variant).map_err(|e| format!("{source}: {e}"))?;
            let names = names_of(&v).ok_or_else(|| bad("no engine names"))?;
            let settings = record_settings(&v)
                .transpose()
                .map_err(|e| format!("{source}: {e}"))?;
            match &mut id {
                None => {
                    id = Some(Identity {
                        kind,
                        names,
                        settings,
                        source: source.clone(),
                    })
                }
                Some(first) => {
                    let differ = if first.kind != kind {
                        Some(format!("variant {} vs {}", first.kind.name(), kind.name()))
                    } else if first.names != names {
                        Some(format!(
                            "engines {} - {} vs {} - {}",
                            first.names[0], first.names[1], names[0], names[1]
                        ))
                    } else {
                        // The referee's own settings comparison (as `--resume` uses); records
                        // older than version 2 carry none and are matched by variant and names.
                        match (&first.settings, &settings) {
                            (Some(a), Some(b)) => a.difference(b),
                            (None, Some(_)) => {
                                first.settings = settings.clone();
                                None
                            }
                            _ => None,
                        }
                    };
                    if let Some(d) = differ {
                        return Err(format!(
                            "{source}: played with other settings than {} ({d}); report one match at a time",
                            first.source
                        ));
                    }
                }
            }
            if let Some(kept) = by_index.get(&record.index) {
                duplicates += 1;
                let same = |a: &GameRecord, b: &GameRecord| {
                    a.winner_engine() == b.winner_engine()
                        && a.outcome.reason == b.outcome.reason
                        && a.opening_moves == b.opening_moves
                        && a.outcome.moves.iter().map(|m| &m.mv).eq(b
                            .outcome
                            .moves
                            .iter()
                            .map(|m| &m.mv))
                };
                if !same(&kept.record, &record) {
                    conflicting += 1;
                }
                continue;
            }
            by_index.insert(record.index, Game { record, source });
        }
        if lines == 0 {
            return Err(format!("{}: no records in the file", path.display()));
        }
    }
    let id = id.ok_or("no records")?;
    let mut missing = Vec::new();
    let mut next = 0usize;
    for &i in by_index.keys() {
        if i > next {
            missing.push((next, i - 1));
        }
        next = i.saturating_add(1);
    }
    Ok(Records {
        kind: id.kind,
        names: id.names,
        settings: id.settings,
        games: by_index.into_values().collect(),
        duplicates,
        conflicting,
        missing,
        files: paths.to_vec(),
    })
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
        let mut out = vec![format!(
            "records: {} file{}, {} games{}",
            self.files.len(),
            if self.files.len() == 1 { "" } else { "s" },
            self.games.len(),
            if self.settings.is_none() {
                " (records without settings: older referee)"
            } else {
                ""
            }
        )];
        out.extend(duplicates_note(self.duplicates, self.conflicting));
        if !self.missing.is_empty() {
            out.push(format!(
                "missing games: {} ({})",
                ranges(&self.missing),
                self.missing.iter().fold(0usize, |n, (a, b)| n
                    .saturating_add(b - a)
                    .saturating_add(1))
            ));
        }
        out
    }

    /// The text report: the referee's table, then the notes.
    pub fn text(&self) -> String {
        let (summary, _) = self.summary();
        let mut o = table_text(
            self.kind.name(),
            [&self.names[0], &self.names[1]],
            self.sprt(),
            &summary,
        );
        for n in self.notes() {
            o += &n;
            o.push('\n');
        }
        o
    }
}

/// `tablero report`: match records as [`run`] does; tournament records (their files start with
/// a tournament header) merged into the standings the unsharded `tablero tournament` prints, on
/// stdout (text or `--json`), with the notes about the files (duplicates, missing games) on
/// stderr so that stdout is byte for byte what the tournament printed.
pub fn run_any(
    paths: &[PathBuf],
    html_out: Option<&Path>,
    json_out: bool,
    anchor: Option<(String, f64)>,
) -> Result<(), String> {
    use crate::referee::tournament;
    if !paths
        .first()
        .is_some_and(|p| tournament::is_tournament_file(p))
    {
        if json_out || anchor.is_some() {
            return Err("--json and --anchor are for tournament records".into());
        }
        return run(paths, html_out);
    }
    let merged = tournament::merge(paths)?;
    let standings = tournament::standings(&merged.settings, &merged.games, anchor)?;
    for n in merged.notes() {
        eprintln!("{n}");
    }
    if let Some(out) = html_out {
        let page = html::standings_page(&standings);
        std::fs::write(out, &page).map_err(|e| format!("--html {}: {e}", out.display()))?;
        eprintln!(
            "wrote {} ({} games, {:.1} MB)",
            out.display(),
            merged.games.len(),
            page.len() as f64 / 1e6
        );
    } else if json_out {
        tournament::write_stdout(&format!("{}\n", standings.json()))?;
    } else {
        tournament::write_stdout(&standings.text())?;
    }
    Ok(())
}

/// `tablero report`: the table on stdout, or the page written to `html`.
pub fn run(paths: &[PathBuf], html_out: Option<&Path>) -> Result<(), String> {
    let records = load(paths)?;
    match html_out {
        None => {
            print!("{}", records.text());
            Ok(())
        }
        Some(out) => {
            // Opened first so that an unwritable path fails before the games are replayed.
            let mut f =
                std::fs::File::create(out).map_err(|e| format!("--html {}: {e}", out.display()))?;
            let page = match html::page(&records) {
                Ok(p) => p,
                Err(e) => {
                    drop(f);
                    let _ = std::fs::remove_file(out);
                    return Err(e);
                }
            };
            f.write_all(page.as_bytes())
                .map_err(|e| format!("--html {}: {e}", out.display()))?;
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
