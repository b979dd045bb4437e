//! Inputs the fuzz targets (fuzz/, `scripts/fuzz.sh`) found to crash or hang tablero, kept
//! inline; each test fails (panics or never ends) without its fix.

use std::path::PathBuf;

use serde_json::{Value, json};
use tablero::report;

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
    let text = r.text();
    assert!(
        text.contains("missing games: 0-2, 4-999999999999999 (999999999999999)"),
        "{text}"
    );
    let top = write("max", &[record(u64::MAX, 1, json!(1))]);
    let r = report::load(std::slice::from_ref(&top)).expect("loads");
    assert_eq!(r.missing, vec![(0, u64::MAX as usize - 1)]);
    assert!(
        r.text().contains(&format!("({})", u64::MAX)),
        "{}",
        r.text()
    );
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
        assert!(e.contains("not a game record") && !e.contains('\n'), "{e}");
        let _ = std::fs::remove_file(p);
    }
}
