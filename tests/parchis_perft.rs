//! Parchís perft and search anchors from `tests/golden/parchis/perft.md`: the "unique"
//! perft column at every listed depth for the start position and positions A, B, C, the depth-2
//! divide of the start position, and the depth-6 plain alpha-beta root values with the `test`
//! heuristic. Every expected number is read from perft.md; positions A–C are rebuilt by
//! replaying `traces.jsonl` and checked against the STATE printed in perft.md.

use crate::common;

use std::time::Instant;

use serde_json::Value;
use tablero::core::game::Game;
use tablero::core::perft::{divide, perft};
use tablero::core::search::reference;
use tablero::games::parchis::{Parchis, ParchisConfig};

fn read(name: &str) -> String {
    common::golden(&format!("parchis/{name}"))
}

/// One position section of perft.md.
struct Section {
    /// `None` for the start position, else (game, ply).
    source: Option<(u64, u64)>,
    state: Option<Value>,
    /// (depth, unique leaves).
    perft: Vec<(u32, u64)>,
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().replace(',', ""))
        .collect()
}

/// Named rows of a table: (first cell, number).
type Rows<T> = Vec<(String, T)>;
/// A named position with its (depth, unique leaves) rows.
type Position = (String, Parchis, Vec<(u32, u64)>);

fn parse_perft_md(md: &str) -> (Vec<Section>, Rows<u64>, Rows<i32>) {
    let mut sections: Vec<Section> = Vec::new();
    let mut divide_rows = Vec::new();
    let mut anchors = Vec::new();
    let mut mode = "";
    for line in md.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            mode = if h.starts_with("Start position") {
                sections.push(Section {
                    source: None,
                    state: None,
                    perft: vec![],
                });
                "perft"
            } else if h.starts_with("Position ") {
                // "Position A: `traces.jsonl` game 256, state after ply 41"
                let nums: Vec<u64> = h
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|t| t.parse().ok())
                    .collect();
                assert!(nums.len() >= 2, "cannot read game/ply from '{h}'");
                sections.push(Section {
                    source: Some((nums[0], nums[1])),
                    state: None,
                    perft: vec![],
                });
                "perft"
            } else if h.starts_with("Divide") {
                "divide"
            } else if h.starts_with("Search speed") {
                "anchors"
            } else {
                ""
            };
            continue;
        }
        if line.starts_with("{\"turn\"") {
            if let Some(s) = sections.last_mut() {
                s.state = Some(serde_json::from_str(line).expect("perft.md state JSON"));
            }
            continue;
        }
        if !line.starts_with('|') {
            continue;
        }
        let c = cells(line);
        match mode {
            "perft" if c.len() >= 3 => {
                if let (Ok(d), Ok(u)) = (c[0].parse(), c[2].parse()) {
                    sections.last_mut().expect("section").perft.push((d, u));
                }
            }
            "divide" if c.len() >= 2 => {
                if let Ok(n) = c[1].parse() {
                    divide_rows.push((c[0].clone(), n));
                }
            }
            "anchors" if c.len() >= 3 => {
                if let Ok(v) = c[2].parse() {
                    anchors.push((c[0].clone(), v));
                }
            }
            _ => {}
        }
    }
    (sections, divide_rows, anchors)
}

/// The position after `ply` moves of game `game` of traces.jsonl.
fn replay_to(traces: &str, game: u64, ply: u64) -> Parchis {
    let mut s = Parchis::start(&ParchisConfig::default());
    let prefix = format!("{{\"game\":{game},");
    for line in traces.lines().filter(|l| l.starts_with(&prefix)) {
        let v: Value = serde_json::from_str(line).expect("trace JSON");
        let k = v["ply"].as_u64().expect("ply");
        if k == 0 || k > ply {
            continue;
        }
        let mv = v["move"].as_str().expect("move");
        s = tablero::core::game::try_play(&s, mv)
            .unwrap_or_else(|e| panic!("game {game} ply {k}: {e}"));
    }
    s
}

fn positions() -> (Vec<Position>, Rows<u64>, Rows<i32>) {
    let md = read("perft.md");
    let traces = read("traces.jsonl");
    let (sections, div, anchors) = parse_perft_md(&md);
    assert_eq!(
        sections.len(),
        4,
        "perft.md should list the start position and A, B, C"
    );
    let mut out = Vec::new();
    for (k, sec) in sections.into_iter().enumerate() {
        let (name, s) = match sec.source {
            None => (
                "start".to_string(),
                Parchis::start(&ParchisConfig::default()),
            ),
            Some((g, p)) => (
                format!("{} (game {g} ply {p})", ["A", "B", "C"][k - 1]),
                replay_to(&traces, g, p),
            ),
        };
        if let Some(st) = &sec.state {
            let ours: Value = serde_json::from_str(&s.trace_state_json()).expect("our JSON");
            assert_eq!(
                &ours, st,
                "position {name} does not match the STATE printed in perft.md"
            );
        }
        assert!(!sec.perft.is_empty(), "no perft rows for {name}");
        println!("{name}: fen {}", s.format_fen());
        out.push((name, s, sec.perft));
    }
    (out, div, anchors)
}

#[test]
fn perft_unique_counts_match_reference() {
    let (positions, _, _) = positions();
    for (name, s, rows) in &positions {
        for &(depth, unique) in rows {
            let t = Instant::now();
            let n = perft(s, depth);
            let secs = t.elapsed().as_secs_f64();
            println!(
                "{name} depth {depth}: {n} leaves in {secs:.3}s ({:.2} M leaves/s)",
                n as f64 / secs.max(1e-9) / 1e6
            );
            assert_eq!(n, unique, "perft mismatch at {name} depth {depth}");
        }
    }
}

#[test]
fn divide_depth2_from_start_matches_reference() {
    let (_, rows, _) = positions();
    assert_eq!(rows.len(), 30, "perft.md divide table should have 30 rows");
    let mut ours = divide(&Parchis::start(&ParchisConfig::default()), 2);
    ours.sort();
    let mut theirs = rows;
    theirs.sort();
    assert_eq!(ours, theirs);
}

#[test]
fn alphabeta_depth6_test_heuristic_root_values() {
    let (positions, _, anchors) = positions();
    assert_eq!(anchors.len(), 4, "perft.md should list 4 search anchors");
    for ((name, s, _), (anchor, value)) in positions.iter().zip(anchors) {
        let t = Instant::now();
        let v = reference::root_value(s, 6, 1);
        println!(
            "{name} ({anchor}): root value {v} in {:.3}s",
            t.elapsed().as_secs_f64()
        );
        assert_eq!(
            v, value,
            "depth-6 alpha-beta value (test heuristic) at {name}"
        );
    }
}
