//! Inputs the fuzz targets (fuzz/, `scripts/fuzz.sh`) found to crash or hang tablero, kept
//! inline; each test fails (panics or never ends) without its fix.

use std::path::PathBuf;

use serde_json::{Value, json};
use tablero::games::GameKind;
use tablero::players::{self, Player};
use tablero::protocol::Out;
use tablero::report;

use crate::common;
use common::Sink;

/// A one-game connect4 record line (the `--records` schema, version 1: no settings).
fn record(game: u64, first_engine: u64, winner: Value) -> Value {
    let (first, second) = if first_engine == 2 {
        ("b", "a")
    } else {
        ("a", "b")
    };
    json!({
        "game": game, "pair": game / 2, "variant": "connect4",
        "first": first, "second": second, "first_engine": first_engine,
        "opening": {"base": "startpos", "moves": []},
        "moves": [{"move": "4", "ms": 1, "depth": 1, "score": "cp 0"}],
        "result": "1-0", "winner": winner, "reason": "normal", "detail": "x", "junk_lines": 0
    })
}

fn write(name: &str, lines: &[Value]) -> PathBuf {
    let p = std::env::temp_dir().join(format!(
        "tablero-fuzzreg-{}-{name}.jsonl",
        std::process::id()
    ));
    let text: String = lines.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&p, text).expect("temp file");
    p
}

/// records: a game number of 10^15 made `tablero report` list every missing game below it
/// (a hang, then out of memory). The gaps are now ranges.
#[test]
fn huge_game_numbers_are_counted_not_listed() {
    let p = write(
        "huge",
        &[
            record(1_000_000_000_000_000, 1, json!(1)),
            record(3, 2, json!(null)),
        ],
    );
    let r = report::load(std::slice::from_ref(&p)).expect("loads");
    assert_eq!(
        r.missing,
        vec![(0, 2), (4, 999_999_999_999_999)],
        "gaps as ranges"
    );
    let text = r.notes().join("\n");
    assert!(
        text.contains("missing games: 0-2, 4-999999999999999 (999999999999999)"),
        "{text}"
    );
    let top = write("max", &[record(u64::MAX, 1, json!(1))]);
    let r = report::load(std::slice::from_ref(&top)).expect("loads");
    assert_eq!(r.missing, vec![(0, u64::MAX as usize - 1)]);
    let notes = r.notes().join("\n");
    assert!(notes.contains(&format!("({})", u64::MAX)), "{notes}");
    let _ = std::fs::remove_file(p);
    let _ = std::fs::remove_file(top);
}

/// records: `first_engine` 3 (or a winner 3) was taken as engine index 2 of two, and the tally
/// computed `1 - 2` (an overflow panic). Such a line is now refused with one clear line.
#[test]
fn engine_numbers_other_than_1_and_2_are_refused() {
    for (i, bad) in [
        record(0, 3, json!(1)),
        record(0, 1, json!(3)),
        record(0, 0, json!(1)),
    ]
    .into_iter()
    .enumerate()
    {
        let p = write(&format!("engine{i}"), &[bad]);
        let e = report::load(std::slice::from_ref(&p)).expect_err("refused");
        assert!(matches!(e, report::ReportError::Records(_)), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("not a game record") && !e.contains('\n'), "{e}");
        let _ = std::fs::remove_file(p);
    }
}

/// protocol (`fuzz/fuzz_targets/protocol.rs`, input
/// `protocol-timeout-1.bin`, found outside CI and kept below byte for byte):
/// the `solver` player (byte 0xBF: Mancala, a player, player 5) answered `go movetime 10` only
/// after solving the start of Kalah(6,4) to the end (over a minute under the fuzzer), so the
/// session waited at end of input and libFuzzer timed out. A `go` with a node or time limit is
/// now answered within it, with the search's move when the solver did not finish, and the
/// player says so.
#[test]
fn the_solver_player_keeps_the_time_of_go() {
    // The input as found: the selector byte, 116 more 0xBF bytes and a NUL before a garbled
    // `position`, then the commands.
    let data: Vec<u8> = [
        &[0xbf; 117][..],
        b"\x00position ves y1:2\ngo nodes 500\nstop\nisready\ngo infinite\nisready\nstop\n\
          ucinewgame\ngo movetime 10\n",
    ]
    .concat();
    // What the fuzz target does with it (its taming changes none of these lines).
    let (&sel, rest) = data.split_first().unwrap();
    let kind =
        GameKind::ALL[((sel & 3) as usize | ((sel >> 5) as usize) << 2) % GameKind::ALL.len()];
    let player = Player::ALL[((sel >> 3) as usize) % Player::ALL.len()];
    assert_eq!((kind, player), (GameKind::Mancala, Player::Solver));
    let script: String = String::from_utf8_lossy(rest)
        .split('\n')
        .map(|l| format!("{l}\n"))
        .collect();
    let sink = Sink::default();
    players::run(
        player,
        kind,
        std::io::Cursor::new(script.into_bytes()),
        Out::new(Box::new(sink.clone())),
    );
    let out = sink.text();
    let lines: Vec<&str> = out.lines().collect();
    let count = |p: &str| lines.iter().filter(|l| l.starts_with(p)).count();
    assert_eq!(count("readyok"), 2, "{out}");
    assert_eq!(count("bestmove"), 3, "every go is answered\n{out}");
    // The last go's answer: the search's move, said to be one (the start of Kalah(6,4) cannot
    // be proven in a few milliseconds), not a proof.
    let second = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("bestmove"))
        .nth(1);
    let last_go = &lines[second.unwrap().0 + 1..];
    assert!(
        last_go.contains(
            &"info string exact solver: no proof within the limits; the move is the search's"
        ),
        "{out}"
    );
    assert!(
        !last_go
            .iter()
            .any(|l| l.contains("string exact solver, final margin")),
        "{out}"
    );
    assert!(last_go.last().unwrap().starts_with("bestmove "), "{out}");
}

/// Found by `protocol` (2026-12-05, a long run): 5-en-Raya on a board of more than 256 cells
/// (`Rows` 17, `Columns` 19: 323 moves on the empty board) panicked the search thread — its
/// move ordering held 256 moves, indexed in 8 bits (the table's move index too), so the engine
/// gave no `bestmove` and searched no more. Every size up to 19 × 19 is searched now.
#[test]
fn enraya_boards_of_more_than_256_cells_are_searched() {
    for (rows, columns) in [(17, 19), (19, 19)] {
        let script = format!(
            "setoption name Rows value {rows}\nsetoption name Columns value {columns}\n\
             position startpos\ngo depth 3\nisready\nposition startpos moves 10,10 1,1\n\
             go depth 3\nisready\n"
        );
        let sink = Sink::default();
        tablero::protocol::run(
            GameKind::Enraya,
            std::io::Cursor::new(script.into_bytes()),
            Out::new(Box::new(sink.clone())),
        );
        let out = sink.text();
        let best: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .collect();
        assert_eq!(best.len(), 2, "{rows}x{columns}\n{out}");
        assert_eq!(out.matches("readyok").count(), 2, "{out}");
        for b in best {
            let (r, c) = b.split_once(',').unwrap_or_else(|| panic!("'{b}'\n{out}"));
            let (r, c): (u32, u32) = (r.parse().unwrap(), c.parse().unwrap());
            assert!((1..=rows).contains(&r) && (1..=columns).contains(&c), "{b}");
        }
    }
}
