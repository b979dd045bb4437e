//! The game review in the report pages (docs/review.md): what `tablero analyse` added to the
//! records, read back from the lines of the games the report shows, and put in the page's data
//! — per move its judgement (the page marks the move list and draws the evaluation graph), the
//! better move as marks of the board (`view::Draw::suggestion`), per game each player's figures,
//! per engine the totals (a table beside the referee's table or the standings).

use serde_json::{Value as Json, json};

use crate::referee::Merged;
use crate::referee::records::ReadGame;
use crate::review::run::{Settings, raw_lines_of, totals};
use crate::review::{PlayerStats, PlyReview, Totals};
use crate::view::svg::escape;

/// What a review says of one game.
#[derive(Clone, Debug, Default)]
pub struct Annotated {
    /// Per engine move, its judgement (when reviewed).
    pub plies: Vec<Option<PlyReview>>,
    /// The first and second player's figures.
    pub players: Option<[PlayerStats; 2]>,
    /// Why the review skipped the game.
    pub error: Option<String>,
}

/// The review of every game (`None` for a game without one), in the order of `games`.
pub fn annotations(games: &[ReadGame]) -> Result<Vec<Option<Annotated>>, String> {
    let raws = raw_lines_of(games)?;
    Ok(raws.iter().map(annotated).collect())
}

/// The review of one game line.
pub fn annotated(raw: &Json) -> Option<Annotated> {
    let r = raw.get("review")?;
    let plies = raw
        .get("moves")
        .and_then(Json::as_array)
        .map(|ms| {
            ms.iter()
                .map(|m| m.get("review").and_then(PlyReview::from_json))
                .collect()
        })
        .unwrap_or_default();
    let players = r.get("players").and_then(Json::as_array).and_then(|p| {
        Some([
            PlayerStats::from_json(p.first()?)?,
            PlayerStats::from_json(p.get(1)?)?,
        ])
    });
    Some(Annotated {
        plies,
        players,
        error: r.get("error").and_then(Json::as_str).map(str::to_string),
    })
}

/// The review's settings from the header of the first file that has them.
pub fn settings(files: &[std::path::PathBuf]) -> Option<Settings> {
    files.iter().find_map(|f| {
        let text = std::fs::read_to_string(f).ok()?;
        let first: Json = serde_json::from_str(text.lines().next()?).ok()?;
        Settings::from_header(&first)
    })
}

/// A move's judgement as the page reads it: `v` value, `b` best move, `p` played value, `e`
/// expected scores (best, played; the mover's), `l` loss, `m` mark, `x` verdict, `f` forced,
/// `d` depth, `t` the turn's `[moves, loss, mark]`.
pub fn ply_json(p: &PlyReview) -> Json {
    let mut v = json!({
        "v": p.value.to_string(),
        "b": p.best,
        "p": p.played.to_string(),
        "e": [crate::review::annotation::r4(p.expected), crate::review::annotation::r4(p.expected_played)],
        "l": crate::review::annotation::r4(p.loss),
    });
    if let Some(m) = p.mark {
        v["m"] = json!(m.symbol());
    }
    if let Some(x) = p.verdict {
        v["x"] = json!(x.name());
    }
    if p.forced {
        v["f"] = json!(1);
    }
    if let Some(d) = p.depth {
        v["d"] = json!(d);
    }
    if let Some(t) = &p.turn {
        v["t"] = json!([
            t.plies,
            crate::review::annotation::r4(t.loss),
            t.mark.map(|m| m.symbol())
        ]);
    }
    v
}

/// A game's figures as the page reads them: per player `[accuracy, mean loss, ?!, ?, ??]`.
pub fn players_json(a: &Annotated) -> Json {
    match (&a.players, &a.error) {
        (_, Some(e)) => json!({"err": e}),
        (Some(p), None) => json!({"p": p.iter().map(|s| json!([
            s.accuracy.map(|x| (x * 10.0).round() / 10.0),
            s.mean_loss().map(|x| (x * 100.0).round() / 100.0),
            s.marks[0], s.marks[1], s.marks[2]
        ])).collect::<Vec<_>>()}),
        (None, None) => Json::Null,
    }
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
            }))
            .collect::<Vec<_>>()
    )
}

/// The page's `review` data: the engine and limits, the thresholds, and per engine the totals
/// of the reviewed games among `games`. `None` when no game was reviewed.
pub fn page_json(files: &[std::path::PathBuf], games: &[ReadGame]) -> Result<Option<Json>, String> {
    let raws = raw_lines_of(games)?;
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

/// The tournament page's review table (HTML, after the standings), or `None` when no game of
/// the records was reviewed.
pub fn standings_table(merged: &Merged) -> Result<Option<String>, String> {
    let raws = raw_lines_of(&merged.games)?;
    if !raws.iter().any(|r| r.get("review").is_some()) {
        return Ok(None);
    }
    let t = totals(&raws);
    let mut rows = String::new();
    for x in &t {
        let f = |v: Option<f64>, d: usize| v.map_or("-".to_string(), |v| format!("{v:.d$}"));
        rows += &format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape(&x.stats.name),
            x.games,
            x.stats.moves,
            f(x.accuracy(), 1),
            f(x.stats.mean_loss(), 2),
            x.stats.marks[0],
            x.stats.marks[1],
            x.stats.marks[2],
        );
    }
    let caption = settings(&merged.files).map_or(String::new(), |s| {
        // Words in spans the page translates; names and numbers as they are.
        let mut c = format!(
            "<p class=\"cap\"><span data-i18n=\"review.by_label\">analysed by</span> {}",
            escape(&s.engine)
        );
        for (key, word, v) in [
            ("review.word.depth", "depth", s.depth.map(u64::from)),
            ("review.word.nodes", "nodes", s.nodes),
            ("review.word.movetime", "ms per position", s.movetime_ms),
        ] {
            if let Some(v) = v {
                c += &format!(", <span data-i18n=\"{key}\">{word}</span> {v}");
            }
        }
        c + "</p>\n"
    });
    Ok(Some(format!(
        "<h2 data-i18n=\"review.title\">Game review</h2>\n{caption}<table class=\"standings review\" id=\"review\">\n<tr><th data-i18n=\"report.table.engine\">engine</th><th data-i18n=\"report.st.games\">games</th><th data-i18n=\"review.moves\">moves</th><th data-i18n=\"review.accuracy\">accuracy</th><th data-i18n=\"review.loss\">mean loss</th><th title=\"inaccuracies\" data-i18n-title=\"review.kind.inaccuracies\">?!</th><th title=\"mistakes\" data-i18n-title=\"review.kind.mistakes\">?</th><th title=\"blunders\" data-i18n-title=\"review.kind.blunders\">??</th></tr>\n{rows}</table>\n"
    )))
}
