//! The game review in the report pages (docs/review.md): what `tablero analyse` added to the
//! records, read back from the lines of the games the report shows, and put in the page's data
//! — per move its judgement (the page marks the move list and draws the evaluation graph), the
//! better move as marks of the board (`view::Draw::suggestion`), per game each player's figures,
//! per engine the totals (a table beside the referee's table or the standings).

use serde_json::{Value as Json, json};

use super::ReportError;
use crate::referee::records::ReadGame;
use crate::review::Totals;
pub use crate::review::page::{Annotated, annotated, players_json, ply_json};
use crate::review::run::{Settings, raw_lines_of, totals};

/// The review of every game (`None` for a game without one), in the order of `games`.
pub fn annotations(games: &[ReadGame]) -> Result<Vec<Option<Annotated>>, ReportError> {
    let raws = raw_lines_of(games).map_err(ReportError::Review)?;
    Ok(raws.iter().map(annotated).collect())
}

/// The review's settings from the header of the first file that has them.
pub fn settings(files: &[std::path::PathBuf]) -> Option<Settings> {
    files.iter().find_map(|f| {
        let text = std::fs::read_to_string(f).ok()?;
        let first: Json = serde_json::from_str(text.lines().next()?).ok()?;
        Settings::from_header(&first)
    })
}

fn totals_json(t: &[Totals]) -> Json {
    json!(
        t.iter()
            .map(|x| json!({
                "name": x.stats.name,
                "games": x.games,
                "moves": x.stats.moves,
                "accuracy": x.accuracy().map(|a| (a * 10.0).round() / 10.0),
                "loss": x.stats.mean_loss().map(|l| (l * 100.0).round() / 100.0),
                "marks": x.stats.marks,
                "proven": x.stats.counted.then_some(x.stats.proven),
                "value_lost": x.stats.counted.then_some(x.stats.value_lost),
            }))
            .collect::<Vec<_>>()
    )
}

/// The page's `review` data: the engine and limits, the thresholds, and per engine the totals
/// of the reviewed games among `games`. `None` when no game was reviewed.
pub fn page_json(
    files: &[std::path::PathBuf],
    games: &[ReadGame],
) -> Result<Option<Json>, ReportError> {
    let raws = raw_lines_of(games).map_err(ReportError::Review)?;
    if !raws.iter().any(|r| r.get("review").is_some()) {
        return Ok(None);
    }
    let s = settings(files);
    Ok(Some(json!({
        "settings": s.as_ref().map(|s| json!({
            "engine": s.engine, "depth": s.depth, "nodes": s.nodes, "movetime": s.movetime_ms,
        })),
        "thresholds": s.as_ref().map(|s| s.thresholds),
        "engines": totals_json(&totals(&raws)),
    })))
}
