//! The HTML match report: one self-contained page (CSS, JavaScript and data inline; nothing is
//! fetched) with the referee's table, plots of the running score, Elo interval and SPRT LLR, and a
//! replay of every game.
//!
//! Rust replays every game with the rules (the fallible tier: a record with an illegal move
//! becomes an error shown for that game) and computes the picture of every ply through
//! [`Draw`]; the page only places what Rust prepared (`scene.js`). To keep the page small and
//! its first view fast, the board is shipped once per distinct board, and the games go in
//! gzip-compressed, base64-encoded chunks of [`CHUNK`] games holding per ply only the state string
//! and the marks that changed (see [`ChunkWriter`]); the page inflates a chunk with the browser's
//! `DecompressionStream` when the user opens one of its games.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::{Value, json};

use super::review::Annotated;
use super::{Records, ReportError, StartError};
use crate::core::game::{Game, MoveError, Side};
use crate::games::GameKind;
use crate::referee::{GameRecord, Settings};
use crate::view::render::{DrawVisitor, dispatch};
use crate::view::{Draw, Item};

pub(super) const SCENE_JS: &str = include_str!("../view/scene.js");
pub(super) const REPORT_JS: &str = include_str!("report.js");
/// The game review's part of the pages (shared with the browser board).
pub use crate::review::page::REVIEW_JS;
pub(super) const REPORT_CSS: &str = include_str!("report.css");

/// Everything the page shows of the games.
pub(super) struct Games {
    /// Distinct boards (JSON scenes).
    pub boards: Vec<String>,
    /// Per game: what the list shows.
    pub meta: Vec<Value>,
    /// Per chunk of [`CHUNK`] games: base64 of the gzip of its JSON.
    pub blobs: Vec<String>,
}

/// Games per compressed blob. Marks repeat across games (the same cell, die or highlight), so
/// games compressed together share one item dictionary and gzip window: on 20 Parchís games,
/// chunks of 10 made the data 35 % smaller than one blob per game. The page inflates a whole
/// chunk when one of its games is opened (a few milliseconds).
const CHUNK: usize = 20;

/// The game's variant configuration from the recorded settings (defaults for older records).
pub(super) fn game_config<G: Game>(settings: Option<&Settings>) -> Result<G::Config, ReportError> {
    let vals: Vec<i64> = G::OPTIONS
        .iter()
        .map(|o| {
            settings
                .and_then(|s| {
                    s.options
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(o.name))
                })
                .map_or(o.default, |(_, v)| *v)
        })
        .collect();
    G::configure(&vals).map_err(ReportError::Variant)
}

/// One replayed game: per ply the state string and its marks, per move who made it and how.
struct Replay {
    /// Ply 0 (the starting position) and one entry per move played: state string and marks
    /// (every mark keyed; keyless ones get `#<index>` as `scene.js` would key them).
    plies: Vec<(String, Vec<Item>)>,
    /// Per move: `[text, engine (1, 2; 0 for an opening move), ms, depth, score]`.
    moves: Vec<Value>,
    board: String,
    /// Why the replay stopped early (an illegal or unparsable recorded move).
    error: Option<String>,
}

fn keyed(items: Vec<Item>) -> Vec<Item> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, mut it)| {
            if it.key.is_empty() {
                it.key = format!("#{i}");
            }
            it
        })
        .collect()
}

fn replay<G: Draw>(
    rec: &GameRecord,
    gcfg: &G::Config,
    review: Option<&Annotated>,
) -> Result<Replay, StartError> {
    let mut state = match rec.opening_base.strip_prefix("fen ") {
        Some(f) => G::parse_fen(f, gcfg).map_err(StartError::Fen)?,
        None => G::start(gcfg),
    };
    let board = serde_json::to_string(&state.board()).map_err(StartError::Board)?;
    let mut plies = vec![(state.format_fen(), keyed(state.marks(None)))];
    let mut moves = Vec::new();
    let book = rec.opening_moves.iter().map(|m| (m.as_str(), None));
    let played = rec.outcome.moves.iter().map(|m| (m.mv.as_str(), Some(m)));
    let mut error = None;
    for (ply, (text, info)) in book.chain(played).enumerate() {
        // The fallible tier, as the referee validated the move: over, unparsable or illegal.
        let m = if state.outcome().is_some() {
            Err(MoveError::Over("the game is already over".into()))
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
        let engine = match state.side_to_move() {
            Side::First => rec.first + 1,
            Side::Second => 2 - rec.first,
        };
        let next = state.apply(m);
        let mut marks = next.marks(Some((&state, m)));
        // The review's judgement of an engine move, and its better move on the board.
        let judged = ply
            .checked_sub(rec.opening_moves.len())
            .and_then(|k| review?.plies.get(k)?.as_ref());
        if let Some(p) = judged
            && p.mark.is_some()
            && let Ok(b) = state.parse_move(&p.best)
            && b != m
        {
            marks.extend(state.suggestion(b));
        }
        plies.push((next.format_fen(), keyed(marks)));
        moves.push(match (info, judged) {
            (None, _) => json!([text, 0]),
            (Some(i), None) => json!([text, engine, i.time_ms, i.depth, i.score]),
            (Some(i), Some(p)) => {
                json!([
                    text,
                    engine,
                    i.time_ms,
                    i.depth,
                    i.score,
                    super::review::ply_json(p)
                ])
            }
        });
        state = next;
    }
    Ok(Replay {
        plies,
        moves,
        board,
        error,
    })
}

/// The first elements (indices into `cur`) of a longest subsequence of `seq` = (index in
/// `cur`, position in the old order) whose old positions increase: the marks that keep their
/// relative order (patience sorting, O(n log n)).
fn longest_increasing(seq: &[(usize, usize)]) -> HashSet<usize> {
    let mut tails: Vec<usize> = Vec::new(); // index into seq of the smallest tail per length
    let mut parent: Vec<Option<usize>> = vec![None; seq.len()];
    for (i, &(_, p)) in seq.iter().enumerate() {
        let l = tails.partition_point(|&t| seq[t].1 < p);
        parent[i] = if l > 0 { Some(tails[l - 1]) } else { None };
        if l == tails.len() {
            tails.push(i);
        } else {
            tails[l] = i;
        }
    }
    let mut out = HashSet::new();
    let mut at = tails.last().copied();
    while let Some(i) = at {
        out.insert(seq[i].0);
        at = parent[i];
    }
    out
}

/// Writes the games of one chunk as compact JSON: `[{"p": plies, "m": moves}, …]`.
///
/// Per ply only what changed since the previous ply: `f` the state string, `c` the marks that
/// are new or different, `r` the keys that vanished, `n` the `[key, predecessor]` pairs (`null`:
/// first) of the keys that are new or out of place, to be (re)inserted in that order, and `o` the
/// full key order only when those rules do not rebuild it (never, by construction; kept as a
/// safety net). An item already written in this chunk is written as its number (items are numbered in
/// the order they are first written), so a piece that returns to a cell costs a few bytes.
struct ChunkWriter {
    dict: HashMap<String, usize>,
    out: String,
}

impl ChunkWriter {
    fn ply(&mut self, prev: &[Item], cur: &[Item], fen: &str) {
        let before: HashMap<&str, &Item> = prev.iter().map(|it| (it.key.as_str(), it)).collect();
        let now: HashSet<&str> = cur.iter().map(|it| it.key.as_str()).collect();
        let o = &mut self.out;
        o.push_str("{\"f\":");
        o.push_str(&Value::from(fen).to_string());
        let mut c = Vec::new();
        for it in cur {
            if before.get(it.key.as_str()) != Some(&it) {
                let text = compact_json(it);
                let n = self.dict.len();
                c.push(match self.dict.entry(text) {
                    std::collections::hash_map::Entry::Occupied(e) => e.get().to_string(),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let t = e.key().clone();
                        e.insert(n);
                        t
                    }
                });
            }
        }
        if !c.is_empty() {
            o.push_str(",\"c\":[");
            o.push_str(&c.join(","));
            o.push(']');
        }
        let removed: Vec<&str> = prev
            .iter()
            .map(|it| it.key.as_str())
            .filter(|k| !now.contains(k))
            .collect();
        if !removed.is_empty() {
            o.push_str(",\"r\":");
            o.push_str(&json!(removed).to_string());
        }
        // What the page will rebuild: the old order without the removed keys, then each key
        // listed in `n` (new, or out of place) taken out and put back after its predecessor.
        // Kept in place: the longest run of old keys still in the same relative order.
        let old_pos: HashMap<&str, usize> = prev
            .iter()
            .map(|it| it.key.as_str())
            .filter(|k| now.contains(k))
            .enumerate()
            .map(|(i, k)| (k, i))
            .collect();
        let seq: Vec<(usize, usize)> = cur
            .iter()
            .enumerate()
            .filter_map(|(i, it)| old_pos.get(it.key.as_str()).map(|&p| (i, p)))
            .collect();
        let kept = longest_increasing(&seq);
        let mut order: Vec<&str> = prev
            .iter()
            .map(|it| it.key.as_str())
            .filter(|k| now.contains(k))
            .collect();
        let mut moved: Vec<(&str, Option<&str>)> = Vec::new();
        for (i, it) in cur.iter().enumerate() {
            if kept.contains(&i) {
                continue;
            }
            let pred = (i > 0).then(|| cur[i - 1].key.as_str());
            moved.push((it.key.as_str(), pred));
            if let Some(j) = order.iter().position(|k| *k == it.key) {
                order.remove(j);
            }
            let at = pred
                .and_then(|p| order.iter().position(|k| *k == p))
                .map_or(0, |j| j + 1);
            order.insert(at, it.key.as_str());
        }
        if !moved.is_empty() {
            o.push_str(",\"n\":");
            o.push_str(&json!(moved).to_string());
        }
        if order.len() != cur.len() || order.iter().zip(cur).any(|(k, it)| *k != it.key) {
            let keys: Vec<&str> = cur.iter().map(|it| it.key.as_str()).collect();
            o.push_str(",\"o\":");
            o.push_str(&json!(keys).to_string());
        }
        o.push('}');
    }

    fn game(&mut self, r: &Replay) {
        self.out.push_str("{\"p\":[");
        let mut prev: &[Item] = &[];
        for (i, (fen, marks)) in r.plies.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.ply(prev, marks, fen);
            prev = marks;
        }
        self.out.push_str("],\"m\":");
        self.out.push_str(&Value::from(r.moves.clone()).to_string());
        self.out.push('}');
    }
}

/// An item's JSON with every number rounded to two decimals and integers written without `.0`:
/// both renderers round to two decimals anyway (`svg.rs` `num`, `scene.js` `r2`), and an f32
/// such as 18.4 would otherwise be written as 18.399999618530273.
fn compact_json(it: &Item) -> String {
    fn walk(v: &mut Value) {
        match v {
            Value::Number(n) => {
                if let Some(f) = n.as_f64().filter(|_| !n.is_i64() && !n.is_u64()) {
                    let r = (f * 100.0).round() / 100.0;
                    *v = if r.fract() == 0.0 && r.abs() < 1e15 {
                        json!(r as i64)
                    } else {
                        json!(r)
                    };
                }
            }
            Value::Array(a) => a.iter_mut().for_each(walk),
            Value::Object(o) => o.values_mut().for_each(walk),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(it).unwrap_or(Value::Null);
    walk(&mut v);
    v.to_string()
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

fn gzip(text: &str) -> Result<Vec<u8>, ReportError> {
    let mut e = GzEncoder::new(Vec::new(), Compression::new(9));
    e.write_all(text.as_bytes())
        .map_err(ReportError::Compress)?;
    e.finish().map_err(ReportError::Compress)
}

/// One chunk built: per game its list entry and its board's JSON (none when the replay could
/// not start), then the chunk's blob.
struct Chunk {
    games: Vec<(Value, Option<String>)>,
    blob: String,
}

fn build_chunk<G: Draw>(
    games: &[super::Game],
    reviews: &[Option<Annotated>],
    gcfg: &G::Config,
    chunk: usize,
) -> Result<Chunk, ReportError> {
    let mut w = ChunkWriter {
        dict: HashMap::new(),
        out: String::from("["),
    };
    let mut meta = Vec::new();
    let mut written = 0;
    for (gi, g) in games.iter().enumerate() {
        let rec = &g.record;
        let review = reviews.get(gi).and_then(Option::as_ref);
        let result = match rec.winner_engine() {
            Some(0) => "W",
            Some(_) => "L",
            None => "D",
        };
        let mut m = json!({
            "i": rec.index,
            "first": rec.first + 1,
            "res": result,
            "why": rec.outcome.reason.name(),
            "d": rec.outcome.detail,
            "book": rec.opening_moves.len(),
            "n": rec.outcome.moves.len(),
        });
        if let Some(a) = review {
            m["rv"] = super::review::players_json(a);
        }
        let board = match replay::<G>(rec, gcfg, review) {
            Ok(r) => {
                if let Some(e) = &r.error {
                    m["err"] = json!(e);
                }
                if written > 0 {
                    w.out.push(',');
                }
                w.game(&r);
                m["z"] = json!(chunk);
                m["zi"] = json!(written);
                written += 1;
                Some(r.board)
            }
            Err(e) => {
                m["err"] = json!(e.to_string());
                None
            }
        };
        meta.push((m, board));
    }
    w.out.push(']');
    Ok(Chunk {
        games: meta,
        blob: base64(&gzip(&w.out)?),
    })
}

/// The games of a page, replayed: records of one match or tournament played under `settings`,
/// with their reviews where the records carry one.
struct Build<'a> {
    settings: Option<&'a Settings>,
    games: &'a [super::Game],
    reviews: &'a [Option<Annotated>],
}

/// Replays `games` (of `kind`, played under `settings`) for a page: boards, list entries,
/// reviews and compressed plies.
pub(super) fn build_games(
    kind: GameKind,
    settings: Option<&Settings>,
    games: &[super::Game],
) -> Result<Games, ReportError> {
    let reviews = super::review::annotations(games)?;
    dispatch(
        kind,
        Build {
            settings,
            games,
            reviews: &reviews,
        },
    )
}

impl DrawVisitor for Build<'_> {
    type Output = Result<Games, ReportError>;
    fn visit<G: Draw>(self) -> Self::Output {
        let gcfg = game_config::<G>(self.settings)?;
        let chunks: Vec<&[super::Game]> = self.games.chunks(CHUNK).collect();
        let reviews: Vec<&[Option<Annotated>]> = self.reviews.chunks(CHUNK).collect();
        // Chunks are independent: build them on every core, keep their order.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let next = std::sync::atomic::AtomicUsize::new(0);
        let mut done: Vec<Option<Result<_, ReportError>>> =
            (0..chunks.len()).map(|_| None).collect();
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads.min(chunks.len()).max(1))
                .map(|_| {
                    s.spawn(|| {
                        let mut mine = Vec::new();
                        loop {
                            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(c) = chunks.get(k) else { break };
                            let r = reviews.get(k).copied().unwrap_or(&[]);
                            mine.push((k, build_chunk::<G>(c, r, &gcfg, k)));
                        }
                        mine
                    })
                })
                .collect();
            for w in workers {
                for (k, r) in w.join().unwrap_or_default() {
                    done[k] = Some(r);
                }
            }
        });
        let mut out = Games {
            boards: Vec::new(),
            meta: Vec::new(),
            blobs: Vec::new(),
        };
        for r in done {
            let Chunk { games, blob } = r.ok_or(ReportError::Worker)??;
            for (mut m, board) in games {
                if let Some(b) = board {
                    let i = match out.boards.iter().position(|x| *x == b) {
                        Some(i) => i,
                        None => {
                            out.boards.push(b);
                            out.boards.len() - 1
                        }
                    };
                    m["b"] = json!(i);
                }
                out.meta.push(m);
            }
            out.blobs.push(blob);
        }
        Ok(out)
    }
}

/// JSON text safe inside a `<script>` element.
pub(super) fn script_json(v: &Value) -> String {
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
pub fn page(records: &Records) -> Result<String, ReportError> {
    let games = build_games(records.kind, records.settings.as_ref(), &records.games)?;
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
        "review": super::review::page_json(&records.files, &records.games)?,
    });
    Ok(shell(&title, &data, &games.blobs, &[]))
}

/// A self-contained page: `title`, the page's `data` and compressed `blobs`, then the scripts
/// (i18n, scenes, the page's own `scripts`, the review, the report) that draw it.
pub(super) fn shell(title: &str, data: &Value, blobs: &[String], scripts: &[&str]) -> String {
    let mut html = String::with_capacity(blobs.iter().map(|b| b.len() + 1).sum::<usize>() + 65536);
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    html += &format!(
        "<title>{}</title>\n<style>\n{REPORT_CSS}</style>\n</head>\n<body>\n",
        crate::view::svg::escape(title)
    );
    html += "<script type=\"application/json\" id=\"data\">";
    html += &script_json(data);
    html += "</script>\n<script type=\"text/plain\" id=\"blobs\">\n";
    for b in blobs {
        html += b;
        html.push('\n');
    }
    html += "</script>";
    for js in [crate::i18n::SCRIPT, SCENE_JS]
        .iter()
        .chain(scripts)
        .chain(&[REVIEW_JS, REPORT_JS])
    {
        html += "\n<script>\n";
        html += js;
        html += "\n</script>";
    }
    html += "\n</body>\n</html>\n";
    html
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

    fn circle(k: &str, x: f32) -> Item {
        Item::filled(crate::view::Shape::Circle { x, y: 0.0, r: 1.0 }, "#000").key(k)
    }

    fn ply_json(w: &mut ChunkWriter, prev: &[Item], cur: &[Item]) -> Value {
        w.out.clear();
        w.ply(prev, cur, "s");
        serde_json::from_str(&w.out).unwrap()
    }

    #[test]
    fn deltas_send_only_changes_and_repeat_items_by_number() {
        let mut w = ChunkWriter {
            dict: HashMap::new(),
            out: String::new(),
        };
        let a = vec![circle("a", 1.0), circle("b", 2.0), circle("c", 3.0)];
        let first = ply_json(&mut w, &[], &a);
        assert_eq!(first["c"].as_array().map(Vec::len), Some(3));
        assert_eq!(first["n"], json!([["a", null], ["b", "a"], ["c", "b"]]));
        assert!(first.get("o").is_none());
        // b moves, c disappears, d appears after b: no full order needed.
        let b = vec![circle("a", 1.0), circle("b", 5.0), circle("d", 4.0)];
        let d = ply_json(&mut w, &a, &b);
        let sent: Vec<Item> = serde_json::from_value(d["c"].clone()).unwrap();
        assert_eq!(sent, vec![b[1].clone(), b[2].clone()]);
        assert_eq!(d["r"], json!(["c"]));
        assert_eq!(d["n"], json!([["d", "b"]]));
        assert!(d.get("o").is_none());
        // A new key in the middle goes after its predecessor.
        let c = vec![
            circle("a", 1.0),
            circle("e", 9.0),
            circle("b", 5.0),
            circle("d", 4.0),
        ];
        let d = ply_json(&mut w, &b, &c);
        assert_eq!(d["n"], json!([["e", "a"]]));
        assert!(d.get("o").is_none());
        // Reordered without change: only the mark out of place is moved.
        let e = vec![
            circle("b", 5.0),
            circle("a", 1.0),
            circle("e", 9.0),
            circle("d", 4.0),
        ];
        let d = ply_json(&mut w, &c, &e);
        assert!(d.get("c").is_none() && d.get("r").is_none() && d.get("o").is_none());
        assert_eq!(d["n"], json!([["b", null]]));
        // b back where it was at the start: written as its number (item 1 of the chunk).
        let f = vec![
            circle("b", 2.0),
            circle("a", 1.0),
            circle("e", 9.0),
            circle("d", 4.0),
        ];
        let d = ply_json(&mut w, &e, &f);
        assert_eq!(d["c"], json!([1]));
    }

    /// The page's decoder (report.js `inflateChunk`), ported: applies one ply's JSON.
    fn decode(
        dict: &mut Vec<Item>,
        items: &mut HashMap<String, Item>,
        keys: &mut Vec<String>,
        p: &Value,
    ) {
        if let Some(r) = p.get("r").and_then(Value::as_array) {
            for k in r {
                let k = k.as_str().unwrap();
                keys.retain(|x| x != k);
                items.remove(k);
            }
        }
        for x in p.get("c").and_then(Value::as_array).into_iter().flatten() {
            let it: Item = match x.as_u64() {
                Some(n) => dict[n as usize].clone(),
                None => {
                    let it: Item = serde_json::from_value(x.clone()).unwrap();
                    dict.push(it.clone());
                    it
                }
            };
            items.insert(it.key.clone(), it);
        }
        for pair in p.get("n").and_then(Value::as_array).into_iter().flatten() {
            let k = pair[0].as_str().unwrap().to_string();
            if let Some(j) = keys.iter().position(|x| *x == k) {
                keys.remove(j);
            }
            let at = match pair[1].as_str() {
                None => 0,
                Some(pred) => keys.iter().position(|x| x == pred).unwrap() + 1,
            };
            keys.insert(at, k);
        }
        if let Some(o) = p.get("o").and_then(Value::as_array) {
            *keys = o.iter().map(|k| k.as_str().unwrap().to_string()).collect();
        }
    }

    #[test]
    fn random_mark_lists_survive_the_round_trip() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (rng >> 33) % n
        };
        let mut w = ChunkWriter {
            dict: HashMap::new(),
            out: String::new(),
        };
        let (mut dict, mut items, mut keys) = (Vec::new(), HashMap::new(), Vec::new());
        let mut prev: Vec<Item> = Vec::new();
        let mut sent_o = 0;
        for _ in 0..2000 {
            // Drop, move, change and add a few marks (keys stay unique).
            let mut cur = prev.clone();
            for _ in 0..next(3) {
                if !cur.is_empty() {
                    cur.remove(next(cur.len() as u64) as usize);
                }
            }
            for _ in 0..next(3) {
                if cur.len() > 1 {
                    let it = cur.remove(next(cur.len() as u64) as usize);
                    let at = next(cur.len() as u64 + 1) as usize;
                    cur.insert(at, it);
                }
            }
            for _ in 0..next(3) {
                if !cur.is_empty() {
                    let j = next(cur.len() as u64) as usize;
                    cur[j] = circle(&cur[j].key.clone(), next(8) as f32);
                }
            }
            for _ in 0..next(4) {
                let k = format!("k{}", next(60));
                if cur.iter().all(|it| it.key != k) {
                    let at = next(cur.len() as u64 + 1) as usize;
                    cur.insert(at, circle(&k, next(8) as f32 + 0.25));
                }
            }
            let p = ply_json(&mut w, &prev, &cur);
            sent_o += usize::from(p.get("o").is_some());
            decode(&mut dict, &mut items, &mut keys, &p);
            let got: Vec<Item> = keys.iter().map(|k| items[k].clone()).collect();
            assert_eq!(got, cur);
            prev = cur;
        }
        assert_eq!(sent_o, 0, "the moves always rebuild the order");
    }
}
