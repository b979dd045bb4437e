//! The review as the pages read it, shared by the report (`crate::report`) and the browser
//! board (`crate::gui`): a game's review read back from its records line, a move's judgement
//! and a game's figures in the pages' short JSON, and `review.js`, which draws them.

use serde_json::{Value as Json, json};

use super::annotation::{PlayerStats, PlyReview};

/// The pages' script that shows a review: the per-engine table, the marks, the evaluation graph
/// and the words about a move.
pub const REVIEW_JS: &str = include_str!("review.js");

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
