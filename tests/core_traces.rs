//! The course simulators' own game cores, reproduced line by line: every game of
//! `tests/golden/boom/core_traces.jsonl` (the 2020-21 Conecta-4 BOOM core),
//! `tests/traces/boom/core_traces_2018.jsonl` (measured with our driver; the 2018-19 DesConecta-4 BOOM core, `Year`
//! 2018-19), `tests/traces/parchis/core_traces_2021.jsonl` (measured with our driver; the 2021-22
//! Parchís core, `Year` 2021-22), `tests/traces/parchis/core_traces_2024.jsonl` (the 2024-25
//! Parchís core, `Year` 2024-25) and `tests/golden/mancala/core_traces.jsonl` (the course's Mancala core) is replayed through
//! the engine from the start, and after every movement the engine's view must equal the core's:
//! state string, legal movements in the core's order, game over, result, and for BOOM the bombs
//! held, the core's turn counter and the bomb-now flag. Each state string must also parse back
//! into the same position. Every line of the files is compared; none is sampled. The 2018-19
//! core's perft counts (`tests/traces/boom/perft_2018.txt`) and the 2021-22 Parchís core's
//! (`tests/traces/parchis/perft_2021.txt`) and the 2024-25 one's (`perft_2024.txt`) are tablero's
//! too.

use crate::common;

use serde_json::Value;
use tablero::core::game::{Game, Outcome, Side};
use tablero::core::perft::perft;
use tablero::games::boom::{Boom, Config as BoomConfig, Year};
use tablero::games::mancala::{Mancala, MancalaConfig};
use tablero::games::parchis::{Parchis, ParchisConfig, PowerEffect, Year as ParchisYear};

fn read_lines(rel: &str) -> Vec<Value> {
    lines_of(&format!("tests/golden/{rel}"), &common::golden(rel))
}

/// The JSON lines of `text` (read from `path`, named in errors).
fn lines_of(path: &str, text: &str) -> Vec<Value> {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}:{}: bad JSON: {e}", i + 1))
        })
        .collect()
}

fn field<'a>(v: &'a Value, name: &str) -> &'a str {
    v[name]
        .as_str()
        .unwrap_or_else(|| panic!("line {v}: field '{name}' is not a string"))
}

/// How many trace lines `f` holds for (the per-year tests count what each file exercises).
fn count(lines: &[Value], f: impl Fn(&Value) -> bool) -> usize {
    lines.iter().filter(|v| f(v)).count()
}

/// A trace line's move, "" on the first line of a game.
fn mv(v: &Value) -> &str {
    v["move"].as_str().unwrap_or("")
}

/// Field `k` (0-based, space-separated) of a trace line's state string.
fn fen_field(v: &Value, k: usize) -> &str {
    field(v, "fen").split(' ').nth(k).unwrap_or("")
}

fn result_of(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "-",
        Some(Outcome::Win(Side::First)) => "first",
        Some(Outcome::Win(Side::Second)) => "second",
        Some(Outcome::Draw) => "draw",
    }
}

/// The core's legal list as it appears in the trace.
fn core_legal(v: &Value) -> Vec<String> {
    v["legal"]
        .as_array()
        .unwrap_or_else(|| panic!("line {v}: 'legal' is not a list"))
        .iter()
        .map(|m| m.as_str().expect("legal move is a string").to_string())
        .collect()
}

/// Replays every game of a trace file with `check` comparing each line with the engine's state;
/// returns (games, lines) so the caller can assert the whole file was read.
fn replay<G: Game>(
    lines: &[Value],
    start: G,
    parse_fen: impl Fn(&str) -> Result<G, String>,
    check: impl Fn(&G, &Value),
) -> (usize, usize) {
    let mut state = start;
    let mut games = 0;
    let mut expected_ply = 0;
    for v in lines {
        let ply = v["ply"].as_u64().expect("ply") as usize;
        if ply == 0 {
            state = start;
            games += 1;
            expected_ply = 0;
            assert!(v["move"].is_null(), "line {v}: ply 0 has a move");
        } else {
            let m = field(v, "move");
            let mv = state
                .parse_move(m)
                .unwrap_or_else(|e| panic!("line {v}: the engine refuses the core's move: {e}"));
            state = state.apply(mv);
        }
        assert_eq!(ply, expected_ply, "line {v}: plies out of order");
        expected_ply += 1;
        let fen = field(v, "fen");
        assert_eq!(state.format_fen(), fen, "line {v}: state string differs");
        let parsed = parse_fen(fen).unwrap_or_else(|e| panic!("line {v}: fen refused: {e}"));
        assert_eq!(
            parsed.format_fen(),
            fen,
            "line {v}: fen does not round-trip"
        );
        assert_eq!(
            parsed.outcome(),
            state.outcome(),
            "line {v}: the parsed fen has another outcome"
        );
        let mut legal = G::Moves::default();
        state.legal_moves(&mut legal);
        let legal: Vec<String> = legal
            .as_ref()
            .iter()
            .map(|&m| state.format_move(m))
            .collect();
        assert_eq!(legal, core_legal(v), "line {v}: legal movements differ");
        assert_eq!(
            state.outcome().is_some(),
            v["over"].as_bool().expect("over"),
            "line {v}: game-over differs"
        );
        assert_eq!(
            result_of(state.outcome()),
            field(v, "result"),
            "line {v}: result differs"
        );
        check(&state, v);
    }
    (games, lines.len())
}

#[test]
fn boom_core_traces_reproduced_in_full() {
    let lines = read_lines("boom/core_traces.jsonl");
    let (games, n) = replay(
        &lines,
        Boom::start(&BoomConfig::default()),
        |f| Boom::parse_fen(f, &BoomConfig::default()).map_err(|e| e.to_string()),
        check_boom_counters,
    );
    assert_eq!((games, n), (600, 24_689), "the whole file was replayed");
    // The endings the full-board rule decides are in the file and were checked above.
    let full = |v: &&Value| {
        let board = field(v, "fen").split(' ').next().unwrap_or("");
        !board.chars().any(|c| c.is_ascii_digit())
    };
    let boom_only = lines
        .iter()
        .filter(full)
        .filter(|v| core_legal(v) == ["boom"])
        .count();
    let full_endings: Vec<&Value> = lines
        .iter()
        .filter(full)
        .filter(|v| v["over"].as_bool() == Some(true))
        .collect();
    let without_line = full_endings
        .iter()
        .filter(|v| {
            !Boom::parse_fen(field(v, "fen"), &BoomConfig::default())
                .unwrap()
                .has_line()
        })
        .count();
    // 14 positions where `boom` is the only movement; 13 games ending on a full board, 5 of them
    // without any line (the player to move has no bomb and loses), all checked above.
    assert_eq!(
        (boom_only, full_endings.len(), without_line),
        (14, 13, 5),
        "boom-only positions, full-board endings, full-board endings without a line"
    );
}

/// The bombs held, the round counter and the bomb-now flag of a BOOM position, as a trace has them.
fn check_boom_counters(s: &Boom, v: &Value) {
    let bombs = format!(
        "{},{}",
        (s.bomb(Side::First) != 0) as u8,
        (s.bomb(Side::Second) != 0) as u8
    );
    assert_eq!(bombs, field(v, "bombs"), "line {v}: bombs differ");
    assert_eq!(
        s.turn().to_string(),
        field(v, "turn"),
        "line {v}: turn differs"
    );
    assert_eq!(
        (s.put_places_bomb() as u8).to_string(),
        field(v, "bombnow"),
        "line {v}: bomb-now flag differs"
    );
}

#[test]
fn boom_2018_core_traces_reproduced_in_full() {
    let lines = lines_of(
        "tests/traces/boom/core_traces_2018.jsonl",
        &common::traces("boom/core_traces_2018.jsonl"),
    );
    let config = BoomConfig::of(Year::Y2018);
    let (games, n) = replay(
        &lines,
        Boom::start(&config),
        |f| Boom::parse_fen(f, &config).map_err(|e| e.to_string()),
        |s: &Boom, v| {
            check_boom_counters(s, v);
            let free = 49
                - (0..7)
                    .flat_map(|c| (0..7).map(move |r| (c, r)))
                    .filter(|&(c, r)| s.cell(c, r).is_some())
                    .count();
            assert_eq!(
                Some(free as u64),
                v["free"].as_u64(),
                "line {v}: free cells differ"
            );
        },
    );
    assert_eq!((games, n), (600, 31_104), "the whole file was replayed");
    // What the file holds beyond plain play, all checked above: full boards (draws without a
    // line), booms, and boards where both sides have four in a row (the core's scan decides who
    // loses).
    let position = |v: &Value| Boom::parse_fen(field(v, "fen"), &config).unwrap();
    let booms = lines.iter().filter(|v| v["move"] == "boom").count();
    let full: Vec<&Value> = lines.iter().filter(|v| v["free"] == 0).collect();
    let full_draws = full.iter().filter(|v| field(v, "result") == "draw").count();
    let both_lines = lines
        .iter()
        .filter(|v| {
            let s = position(v);
            let line = |side| {
                let p = (0..7)
                    .flat_map(|c| (0..7).map(move |r| (c, r)))
                    .filter(|&(c, r)| s.cell(c, r).map(|(o, _)| o) == Some(side));
                let cells: std::collections::HashSet<(i32, i32)> =
                    p.map(|(c, r)| (c as i32, r as i32)).collect();
                cells.iter().any(|&(c, r)| {
                    [(0, 1), (1, 0), (1, 1), (1, -1)]
                        .iter()
                        .any(|&(dc, dr)| (1..4).all(|k| cells.contains(&(c + k * dc, r + k * dr))))
                })
            };
            line(Side::First) && line(Side::Second)
        })
        .count();
    let draws = lines
        .iter()
        .filter(|v| field(v, "result") == "draw")
        .count();
    assert_eq!(
        (booms, full.len(), full_draws, draws, both_lines),
        (3751, 16, 12, 12, 26),
        "booms, full boards, full-board draws, draws, boards with two losers"
    );
}

#[test]
fn boom_2018_perft_agrees_with_the_core() {
    // `DEPTH [MOVE …]`, a tab, the 2018-19 core's leaf count (scripts/boom/perft_2018.sh).
    let text = common::traces("boom/perft_2018.txt");
    let config = BoomConfig::of(Year::Y2018);
    let n = perft_file::<Boom>(&text, &config);
    assert_eq!(n, 59, "the whole file was checked");
}

/// Replays a Parchís year's core traces in full (`replay`), checking at every line the player
/// to move and that every move the engine lists is legal by its one-move test too: (games,
/// lines).
fn replay_parchis(lines: &[Value], year: ParchisYear) -> (usize, usize) {
    let config = ParchisConfig::of(year);
    replay(
        lines,
        Parchis::start(&config),
        |f| Parchis::parse_fen(f, &config).map_err(|e| e.to_string()),
        |s: &Parchis, v| {
            assert_eq!(
                Some(s.player() as u64),
                v["player"].as_u64(),
                "line {v}: player to move differs"
            );
            let mut moves = <Parchis as Game>::Moves::default();
            s.legal_moves(&mut moves);
            for &m in &moves {
                assert!(
                    Game::is_legal(s, m),
                    "line {v}: is_legal refuses a listed move"
                );
            }
        },
    )
}

#[test]
fn parchis_2021_core_traces_reproduced_in_full() {
    let lines = lines_of(
        "tests/traces/parchis/core_traces_2021.jsonl",
        &common::traces("parchis/core_traces_2021.jsonl"),
    );
    let (games, n) = replay_parchis(&lines, ParchisYear::Y2021);
    assert_eq!((games, n), (300, 100_027), "the whole file was replayed");
    // What the file holds beyond plain moves, all checked above: passes, captures (+20), pieces
    // reaching the goal (+10), moves of die 3 (2021-22 only), games ended by over-bouncing.
    let passes = count(&lines, |v| mv(v).starts_with("pass:"));
    let captures = count(&lines, |v| fen_field(v, 9).contains('e'));
    let goals = count(&lines, |v| fen_field(v, 9).contains('g'));
    let threes = count(&lines, |v| mv(v).ends_with(":3"));
    let bounced_out = count(&lines, |v| fen_field(v, 10).starts_with('B'));
    assert_eq!(
        (passes, captures, goals, threes, bounced_out),
        (5291, 4041, 2710, 15392, 2),
        "passes, captures, goal entries, moves of a 3, over-bounce endings"
    );
}

#[test]
fn parchis_2021_perft_agrees_with_the_core() {
    // `DEPTH [MOVE …]`, a tab, the 2021-22 core's leaf count (scripts/parchis/core_2021.sh perft).
    let text = common::traces("parchis/perft_2021.txt");
    let config = ParchisConfig::of(ParchisYear::Y2021);
    let n = perft_file::<Parchis>(&text, &config);
    assert_eq!(n, 187, "the whole file was checked");
}

#[test]
fn parchis_2023_core_traces_reproduced_in_full() {
    let lines = lines_of(
        "tests/traces/parchis/core_traces_2023.jsonl",
        &common::traces("parchis/core_traces_2023.jsonl"),
    );
    let (games, n) = replay_parchis(&lines, ParchisYear::Y2023);
    assert_eq!((games, n), (400, 62_909), "the whole file was replayed");
    // What the file holds beyond plain moves, all checked above: passes, captures, pieces
    // reaching the goal, and the special die fired at every effect its power bar picks (read
    // from the bar of the mover before the move), stars, pieces sent home by the effects.
    let passes = count(&lines, |v| mv(v).starts_with("pass:"));
    let captures = count(&lines, |v| fen_field(v, 9).contains('e'));
    let goals = count(&lines, |v| fen_field(v, 9).contains('g'));
    let stars = count(&lines, |v| fen_field(v, 3).contains(":s"));
    let blasted = count(&lines, |v| !fen_field(v, 11).ends_with("/-"));
    let mut effects = std::collections::BTreeMap::new();
    for w in lines.windows(2) {
        let m = mv(&w[1]);
        if m.ends_with(":power") && !m.starts_with("pass:") {
            let mover = w[0]["player"].as_u64().expect("player") as usize;
            let dice = fen_field(&w[0], 4 + mover);
            let bar: u8 = dice
                .split(':')
                .nth(1)
                .and_then(|b| b.parse().ok())
                .expect("bar");
            let effect = match Parchis::power_effect(bar) {
                PowerEffect::Mushroom(25) => "mushroom25",
                e => e.name(),
            };
            *effects.entry(effect).or_insert(0) += 1;
        }
    }
    assert_eq!(
        (passes, captures, goals, stars, blasted),
        (1744, 2586, 1192, 273, 1149),
        "passes, captures, goal entries, positions with a star, moves sending pieces home"
    );
    assert_eq!(
        effects.into_iter().collect::<Vec<_>>(),
        [
            ("blueshell", 91),
            ("boom", 179),
            ("boomboom", 50),
            ("bullet", 152),
            ("catapum", 66),
            ("catapumchimpum", 267),
            ("mushroom", 7949),
            ("mushroom25", 325),
            ("redshell", 710),
            ("star", 27),
        ],
        "special die moves by effect"
    );
}

#[test]
fn parchis_2023_perft_agrees_with_the_core() {
    // `DEPTH [MOVE …]`, a tab, the 2023-24 core's leaf count (scripts/parchis/core_2023.sh perft).
    let text = common::traces("parchis/perft_2023.txt");
    let config = ParchisConfig::of(ParchisYear::Y2023);
    let n = perft_file::<Parchis>(&text, &config);
    assert_eq!(n, 218, "the whole file was checked");
}

#[test]
fn parchis_2024_core_traces_reproduced_in_full() {
    let lines = lines_of(
        "tests/traces/parchis/core_traces_2024.jsonl",
        &common::traces("parchis/core_traces_2024.jsonl"),
    );
    let (games, n) = replay_parchis(&lines, ParchisYear::Y2024);
    assert_eq!((games, n), (600, 69_193), "the whole file was replayed");
    // What the file holds beyond plain moves, all checked above: passes, captures (+20, which
    // moves 40 boxes), pieces reaching the goal (+10: 20 boxes), moves of the yin-yang die (one
    // box), games ended by over-bouncing and by a player's two colours in the goal.
    let passes = count(&lines, |v| mv(v).starts_with("pass:"));
    let captures = count(&lines, |v| fen_field(v, 9).contains('e'));
    let goals = count(&lines, |v| fen_field(v, 9).contains('g'));
    let yinyangs = count(&lines, |v| mv(v).ends_with(":yinyang"));
    let bounced_out = count(&lines, |v| fen_field(v, 10).starts_with('B'));
    let completed = count(&lines, |v| fen_field(v, 10).starts_with('G'));
    assert_eq!(
        (passes, captures, goals, yinyangs, bounced_out, completed),
        (1416, 1921, 3044, 10_707, 7, 593),
        "passes, captures, goal entries, yin-yang moves, over-bounce endings, goal endings"
    );
}

#[test]
fn parchis_2024_perft_agrees_with_the_core() {
    // `DEPTH [MOVE …]`, a tab, the 2024-25 core's leaf count (scripts/parchis/core_2024.sh perft).
    let text = common::traces("parchis/perft_2024.txt");
    let config = ParchisConfig::of(ParchisYear::Y2024);
    let n = perft_file::<Parchis>(&text, &config);
    assert_eq!(n, 184, "the whole file was checked");
}

#[test]
fn mancala_core_traces_reproduced_in_full() {
    let lines = read_lines("mancala/core_traces.jsonl");
    let config = MancalaConfig::default();
    let (games, n) = replay(
        &lines,
        Mancala::start(&config),
        |f| Mancala::parse_fen(f, &config).map_err(|e| e.to_string()),
        |_: &Mancala, _| {},
    );
    assert_eq!((games, n), (400, 17_774), "the whole file was replayed");
}

/// Checks every line of a perft file (`DEPTH [MOVE …]`, a tab, the core's leaf count) from the
/// start of `config`; returns how many lines it checked.
fn perft_file<G: Game>(text: &str, config: &G::Config) -> usize {
    let mut n = 0;
    for line in text.lines() {
        let (input, count) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("{line}: no tab"));
        let mut words = input.split(' ');
        let depth: u32 = words.next().and_then(|d| d.parse().ok()).expect("depth");
        let mut s = G::start(config);
        for m in words {
            let mv = s
                .parse_move(m)
                .unwrap_or_else(|e| panic!("{line}: {m}: {e}"));
            s = s.apply(mv);
        }
        assert_eq!(
            perft(&s, depth).to_string(),
            count,
            "{line}: tablero's perft differs from the core's"
        );
        n += 1;
    }
    n
}
