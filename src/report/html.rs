//! The HTML match report: one self-contained page (CSS, JavaScript and data inline; nothing is
//! fetched) with the referee's table, plots of the running score, Elo interval and SPRT LLR, and a
//! replay of every game.
//!
//! Rust replays every game with the rules (the fallible tier: a record with an illegal move
//! becomes an error shown for that game) and computes the picture of every ply through
//! [`Draw`]; the page only places what Rust prepared (`scene.js`). To keep the page small and
//! its first view fast, the board is shipped once per distinct board, and each game is one
//! gzip-compressed, base64-encoded JSON blob holding per ply only the state string and the marks
//! whose content changed (plus the keys that disappeared); the page inflates a game with the
//! browser's `DecompressionStream` when the user opens it.

use std::collections::HashMap;
use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::{Value, json};

use super::Records;
use crate::core::game::{Game, Side};
use crate::games::GameKind;
use crate::referee::GameRecord;
use crate::view::{Draw, Item};

const SCENE_JS: &str = include_str!("../view/scene.js");
const REPORT_JS: &str = include_str!("report.js");
const REPORT_CSS: &str = include_str!("report.css");

/// A piece of work generic over a game that can be drawn (the [`crate::games::GameVisitor`]
/// of pictures).
trait DrawVisitor {
    type Output;
    fn visit<G: Draw>(self) -> Self::Output;
}

/// Runs `v` with the drawable `Game` type of `kind`; an error for a game without pictures yet.
fn dispatch_draw<V: DrawVisitor>(kind: GameKind, v: V) -> Result<V::Output, String> {
    match kind {
        _ => {
            let _ = v;
            Err(format!(
                "the HTML report cannot draw {} positions yet (no pictures for this game)",
                kind.name()
            ))
        }
    }
}

/// Everything the page shows of the games.
struct Games {
    /// Distinct boards (JSON scenes).
    boards: Vec<String>,
    /// Per game: what the list shows.
    meta: Vec<Value>,
    /// Per game: base64 of the gzip of its plies' JSON.
    blobs: Vec<String>,
}

/// The game's variant configuration from the recorded settings (defaults for older records).
fn game_config<G: Game>(records: &Records) -> Result<G::Config, String> {
    let vals: Vec<i64> = G::OPTIONS
        .iter()
        .map(|o| {
            records
                .settings
                .as_ref()
                .and_then(|s| {
                    s.options
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(o.name))
                })
                .map_or(o.default, |(_, v)| *v)
        })
        .collect();
    G::configure(&vals).map_err(|e| format!("recorded variant options: {e}"))
}

/// One replayed game: per ply the state string and marks, per move who made it and how.
struct Replay {
    /// Ply 0 (the starting position) and one entry per move played.
    plies: Vec<Value>,
    /// Per move: `[text, engine (1, 2; 0 for an opening move), ms, depth, score]`.
    moves: Vec<Value>,
    board: String,
    /// Why the replay stopped early (an illegal or unparsable recorded move).
    error: Option<String>,
}

/// The marks of a position with a key on every item (keyless marks get their index, as
/// `scene.js` keys them), each with its JSON text.
fn keyed(items: Vec<Item>) -> Vec<(String, String, Item)> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, mut it)| {
            if it.key.is_empty() {
                it.key = format!("#{i}");
            }
            let j = serde_json::to_string(&it).unwrap_or_default();
            (it.key.clone(), j, it)
        })
        .collect()
}

/// Per ply only what changed: `c` the marks that are new or different, `r` the keys that
/// vanished, and `o` the full key order only when it is not "the previous order without the
/// removed keys, new keys appended" (the page rebuilds the order that way).
fn ply_delta(
    prev: &[(String, String, Item)],
    cur: &[(String, String, Item)],
    fen: String,
) -> Value {
    let before: HashMap<&str, &str> = prev
        .iter()
        .map(|(k, j, _)| (k.as_str(), j.as_str()))
        .collect();
    let now: HashMap<&str, ()> = cur.iter().map(|(k, _, _)| (k.as_str(), ())).collect();
    let changed: Vec<&Item> = cur
        .iter()
        .filter(|(k, j, _)| before.get(k.as_str()) != Some(&j.as_str()))
        .map(|(_, _, it)| it)
        .collect();
    let removed: Vec<&str> = prev
        .iter()
        .filter(|(k, _, _)| !now.contains_key(k.as_str()))
        .map(|(k, _, _)| k.as_str())
        .collect();
    let mut order: Vec<&str> = prev
        .iter()
        .map(|(k, _, _)| k.as_str())
        .filter(|k| now.contains_key(k))
        .collect();
    order.extend(
        cur.iter()
            .map(|(k, _, _)| k.as_str())
            .filter(|k| !before.contains_key(k)),
    );
    let actual: Vec<&str> = cur.iter().map(|(k, _, _)| k.as_str()).collect();
    let mut v = json!({ "f": fen });
    if !changed.is_empty() {
        v["c"] = json!(changed);
    }
    if !removed.is_empty() {
        v["r"] = json!(removed);
    }
    if order != actual {
        v["o"] = json!(actual);
    }
    v
}

fn replay<G: Draw>(rec: &GameRecord, gcfg: &G::Config) -> Result<Replay, String> {
    let mut state = match rec.opening_base.strip_prefix("fen ") {
        Some(f) => G::parse_fen(f, gcfg).map_err(|e| format!("opening fen: {e}"))?,
        None => G::start(gcfg),
    };
    let board = serde_json::to_string(&state.board()).map_err(|e| e.to_string())?;
    let mut prev = keyed(state.marks(None));
    let mut plies = vec![ply_delta(&[], &prev, state.format_fen())];
    let mut moves = Vec::new();
    let book = rec.opening_moves.iter().map(|m| (m.as_str(), None));
    let played = rec.outcome.moves.iter().map(|m| (m.mv.as_str(), Some(m)));
    let mut error = None;
    for (ply, (text, info)) in book.chain(played).enumerate() {
        // The fallible tier, as the referee validated the move: over, unparsable or illegal.
        let m = if state.outcome().is_some() {
            Err("the game is already over".to_string())
        } else {
            state.parse_move(text)
        };
        let m = match m {
            Ok(m) => m,
            Err(e) => {
                error = Some(format!("ply {} (move '{text}'): {e}", ply + 1));
                break;
            }
        };
        let engine = match (info, state.side_to_move()) {
            (None, _) => 0,
            (Some(_), Side::First) => rec.first + 1,
            (Some(_), Side::Second) => 2 - rec.first,
        };
        let next = state.apply(m);
        let cur = keyed(next.marks(Some((&state, m))));
        plies.push(ply_delta(&prev, &cur, next.format_fen()));
        moves.push(match info {
            None => json!([text, 0]),
            Some(i) => json!([text, engine, i.time_ms, i.depth, i.score]),
        });
        prev = cur;
        state = next;
    }
    Ok(Replay {
        plies,
        moves,
        board,
        error,
    })
}

/// Standard base64 (RFC 4648, with padding): the page decodes it with `atob`.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for (k, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            out.push(if k <= c.len() {
                A[(n >> shift) as usize & 63] as char
            } else {
                '='
            });
        }
    }
    out
}

fn gzip(text: &str) -> Result<Vec<u8>, String> {
    let mut e = GzEncoder::new(Vec::new(), Compression::new(9));
    e.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    e.finish().map_err(|e| e.to_string())
}

struct Build<'a>(&'a Records);

impl DrawVisitor for Build<'_> {
    type Output = Result<Games, String>;
    fn visit<G: Draw>(self) -> Self::Output {
        let records = self.0;
        let gcfg = game_config::<G>(records)?;
        let mut out = Games {
            boards: Vec::new(),
            meta: Vec::new(),
            blobs: Vec::new(),
        };
        for g in &records.games {
            let rec = &g.record;
            let result = match rec.winner_engine() {
                Some(0) => "W",
                Some(_) => "L",
                None => "D",
            };
            let mut meta = json!({
                "i": rec.index,
                "first": rec.first + 1,
                "res": result,
                "why": rec.outcome.reason.name(),
                "d": rec.outcome.detail,
                "book": rec.opening_moves.len(),
                "n": rec.outcome.moves.len(),
            });
            let blob = match replay::<G>(rec, &gcfg) {
                Ok(r) => {
                    let b = match out.boards.iter().position(|b| *b == r.board) {
                        Some(i) => i,
                        None => {
                            out.boards.push(r.board);
                            out.boards.len() - 1
                        }
                    };
                    meta["b"] = json!(b);
                    if let Some(e) = r.error {
                        meta["err"] = json!(e);
                    }
                    let data = json!({"p": r.plies, "m": r.moves}).to_string();
                    base64(&gzip(&data)?)
                }
                Err(e) => {
                    meta["err"] = json!(e);
                    String::new()
                }
            };
            out.meta.push(meta);
            out.blobs.push(blob);
        }
        Ok(out)
    }
}

/// JSON text safe inside a `<script>` element.
fn script_json(v: &Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
}

fn nums(v: &[f64]) -> Value {
    // NaN has no JSON form: the plots draw gaps where the value is null.
    json!(
        v.iter()
            .map(|x| if x.is_finite() { Some(*x) } else { None })
            .collect::<Vec<_>>()
    )
}

/// The whole page for `records`.
pub fn page(records: &Records) -> Result<String, String> {
    let games = dispatch_draw(records.kind, Build(records))??;
    let (summary, series) = records.summary();
    let sprt = records.sprt().map(|s| {
        let (lo, hi) = s.bounds();
        json!({"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
               "lower": lo, "upper": hi})
    });
    let boards: Vec<Value> = games
        .boards
        .iter()
        .map(|b| serde_json::from_str(b).unwrap_or(Value::Null))
        .collect();
    let title = format!(
        "{} vs {} ({}), {} games",
        records.names[0],
        records.names[1],
        records.kind.name(),
        summary.tally.games
    );
    let data = json!({
        "title": title,
        "variant": records.kind.name(),
        "names": records.names,
        "table": records.text(),
        "series": {
            "game": series.game,
            "score": nums(&series.score),
            "elo": nums(&series.elo),
            "lo": nums(&series.elo_lo),
            "hi": nums(&series.elo_hi),
            "llr": nums(&series.llr),
        },
        "sprt": sprt,
        "boards": boards,
        "games": games.meta,
    });
    let mut html =
        String::with_capacity(games.blobs.iter().map(|b| b.len() + 1).sum::<usize>() + 65536);
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    html += &format!(
        "<title>{}</title>\n<style>\n{REPORT_CSS}</style>\n</head>\n<body>\n",
        crate::view::svg::escape(&title)
    );
    html += "<script type=\"application/json\" id=\"data\">";
    html += &script_json(&data);
    html += "</script>\n<script type=\"text/plain\" id=\"blobs\">\n";
    for b in &games.blobs {
        html += b;
        html.push('\n');
    }
    html += "</script>\n<script>\n";
    html += SCENE_JS;
    html += "\n</script>\n<script>\n";
    html += REPORT_JS;
    html += "\n</script>\n</body>\n</html>\n";
    Ok(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xff, 0xfe]), "//4=");
    }

    #[test]
    fn deltas_send_only_changes() {
        let it = |k: &str, x: f32| {
            Item::filled(crate::view::Shape::Circle { x, y: 0.0, r: 1.0 }, "#000").key(k)
        };
        let a = keyed(vec![it("a", 1.0), it("b", 2.0), it("c", 3.0)]);
        let first = ply_delta(&[], &a, "s0".into());
        assert_eq!(first["c"].as_array().map(Vec::len), Some(3));
        assert!(first.get("o").is_none());
        // b moves, c disappears, d appears at the end: no order needed.
        let b = keyed(vec![it("a", 1.0), it("b", 5.0), it("d", 4.0)]);
        let d = ply_delta(&a, &b, "s1".into());
        assert_eq!(d["c"], json!([b[1].2, b[2].2]));
        assert_eq!(d["r"], json!(["c"]));
        assert!(d.get("o").is_none());
        // Reordered without change: only the order is sent.
        let c = keyed(vec![it("b", 5.0), it("a", 1.0), it("d", 4.0)]);
        let d = ply_delta(&b, &c, "s2".into());
        assert!(d.get("c").is_none() && d.get("r").is_none());
        assert_eq!(d["o"], json!(["b", "a", "d"]));
    }
}
