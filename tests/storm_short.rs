//! A short `go infinite`/`stop` storm (scripts/storm.py, 4 s): random positions of all four
//! games, `stop` after 0–50 ms, every `stop` answered by exactly one `bestmove`, `isready`
//! answered, no error line. The hang limit is generous (30 s) so a loaded CI machine cannot
//! fail it by slowness alone; the 1-hour run is in the README.

use std::process::Command;

#[test]
fn every_stop_gets_exactly_one_bestmove() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{dir}/scripts/storm.py"))
        .args(["4", "--seed", "7", "--timeout", "30", "--tablero"])
        .arg(env!("CARGO_BIN_EXE_tablero"))
        .output()
        .expect("python3 runs scripts/storm.py");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("hangs 0, missing bestmoves 0, extra bestmoves 0"),
        "{text}"
    );
    let words: Vec<&str> = text.split_whitespace().collect();
    let cycles: u64 = words
        .windows(2)
        .find(|w| w[1] == "cycles")
        .and_then(|w| w[0].parse().ok())
        .unwrap_or(0);
    assert!(cycles > 0, "{text}");
}
