//! The HTML tournament report: one self-contained page with everything the match report has —
//! a list of the games with filters, each game replayed on the board, plots — plus the
//! standings as a table, the crosstable as a table whose cells open that pair's games, and the
//! standings text exactly as `tablero tournament` prints it.
//!
//! A class run (`tablero class`) makes one such page for the class and one per student: the
//! same page with the student as its focus (only their games, their results, their row of the
//! crosstable) and their build, from the class's build data ([`View::class`]).
//!
//! The games go in as in the match report ([`super::html`]: replayed by the rules here, drawn by
//! `scene.js`); `tournament.js` builds the tournament's own parts, `report.js` the list and the
//! viewer.

use serde_json::{Value, json};

use super::ReportError;
use super::html::{build_games, shell};
use crate::games::GameKind;
use crate::referee::Merged;
use crate::referee::ratings::Standings;

const TOURNAMENT_JS: &str = include_str!("tournament.js");

/// What a page shows beyond the tournament itself.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The engine the page is about (a student's page): only its games, its results.
    pub focus: Option<usize>,
    /// A class's submissions and builds (`tablero class`).
    pub class: Option<Value>,
    /// The student of a student's page: name, build status, what was built, first error, the
    /// build log (cut when huge) and the link back to the class's page.
    pub student: Option<Value>,
}

/// A tournament's merged records and their standings.
pub struct Tournament<'a> {
    pub merged: &'a Merged,
    pub standings: &'a Standings,
}

/// The standings for the page, best first: each engine's index, rank, rating, interval, points,
/// results and losses off the board.
fn standings_json(st: &Standings) -> Value {
    let names = st.settings.names();
    let rows: Vec<Value> = st
        .order
        .iter()
        .enumerate()
        .map(|(rank, &e)| {
            let l = &st.lines[e];
            let lost: serde_json::Map<String, Value> = l
                .lost_by
                .iter()
                .map(|(r, c)| (r.name().to_string(), json!(c)))
                .collect();
            json!({
                "e": e,
                "name": names[e],
                "rank": rank + 1,
                "elo": st.fit.elo[e],
                "error": st.fit.error[e],
                "anchor": st.is_anchor(e),
                "star": st.unbounded(e),
                "points": l.half_points() as f64 / 2.0,
                "games": l.games(),
                "wins": l.wins,
                "draws": l.draws,
                "losses": l.losses,
                "lost_by": lost,
            })
        })
        .collect();
    json!(rows)
}

/// The crosstable by engine index: `[half-points of the row engine, games]`, `null` where two
/// engines did not meet (and on the diagonal).
fn crosstable_json(st: &Standings) -> Value {
    let n = st.settings.engines.len();
    let rows: Vec<Value> = (0..n)
        .map(|a| {
            json!(
                (0..n)
                    .map(|b| {
                        (a != b)
                            .then(|| st.cell(a, b))
                            .flatten()
                            .map(|(h, g)| json!([h, g]))
                            .unwrap_or(Value::Null)
                    })
                    .collect::<Vec<_>>()
            )
        })
        .collect();
    json!(rows)
}

/// The page of a tournament (`None`: no games recorded yet, e.g. a class whose builds all
/// failed) of game `kind`, as `view` asks.
pub fn page(kind: GameKind, t: Option<&Tournament>, view: &View) -> Result<String, ReportError> {
    let mut data = json!({
        "mode": "tournament",
        "variant": kind.name(),
        "names": [],
        "games": [],
        "boards": [],
        "focus": view.focus,
        "class": view.class,
        "student": view.student,
    });
    let mut blobs = Vec::new();
    let mut title = format!("Class tournament ({})", kind.name());
    if let Some(t) = t {
        let st = t.standings;
        let s = &st.settings;
        let sched = s.schedule().ok_or(ReportError::UnknownFormat)?;
        // A student's page holds the student's games only.
        let games: Vec<super::Game> = t
            .merged
            .games
            .iter()
            .filter(|g| {
                view.focus
                    .is_none_or(|f| sched.game(g.record.index).engines.contains(&f))
            })
            .cloned()
            .collect();
        let built = build_games(kind, Some(s), &games)?;
        let mut meta = built.meta;
        for (m, g) in meta.iter_mut().zip(&games) {
            m["e"] = json!(sched.game(g.record.index).engines);
        }
        let boards: Vec<Value> = built
            .boards
            .iter()
            .map(|b| serde_json::from_str(b).unwrap_or(Value::Null))
            .collect();
        title = format!(
            "Tournament {} of {} engines ({}), {} games",
            s.format,
            s.engines.len(),
            s.variant,
            st.games
        );
        data["names"] = json!(s.names());
        data["format"] = json!(s.format);
        data["rounds"] = json!(s.rounds);
        data["played"] = json!(st.games);
        data["scheduled"] = json!(sched.games());
        data["table"] = json!(st.text());
        data["notes"] = json!(crate::referee::output::notes(t.merged));
        data["standings"] = standings_json(st);
        data["prior"] = json!(st.fit.prior);
        data["cross"] = crosstable_json(st);
        data["games"] = json!(meta);
        data["review"] = json!(super::review::page_json(&t.merged.files, &games)?);
        data["boards"] = json!(boards);
        blobs = built.blobs;
    }
    if let Some(name) = view.student.as_ref().and_then(|s| s["name"].as_str()) {
        title = format!("{name}: {title}");
    }
    Ok(shell(&title, &data, &blobs, &[TOURNAMENT_JS]))
}
