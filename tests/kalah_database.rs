//! The Kalah endgame database is built on the user's disk (more than 1 GB for Kalah(6,4) at the
//! default size): before a build starts, tablero says how much it writes and about how long it
//! takes, shows each layer's progress against the whole, and keeps to `--db-max-mb` (`solve`:
//! fewer seeds, the same result; `learn`: refused, since fewer seeds would change its labels).

use crate::common;

use std::process::Command;

use common::{BIN, fresh_dir};

#[test]
fn a_build_says_its_size_and_time_first_and_keeps_to_the_limit() {
    let dir = fresh_dir("kalah-db");
    let o = Command::new(BIN)
        .args([
            "solve", "--game", "mancala", "--set", "Pits=6", "--set", "Seeds=2",
        ])
        .args([
            "--db-seeds",
            "18",
            "--db-max-mb",
            "10",
            "--hash",
            "16",
            "--db-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no '{needle}' in:\n{err}"))
    };
    let capped = at("18 seeds take 82 MB, over --db-max-mb 10: 14 seeds (9 MB) instead");
    let said = at(
        "0 intact layers, building up to 14 seeds with 2 thread(s): 9 MB more on disk (9 MB in all), about ",
    );
    let first_layer = at("layer 10 of 14: ");
    let last_layer = at("layer 14 of 14: 4457400 positions in ");
    assert!(
        capped < said && said < first_layer && first_layer < last_layer,
        "{err}"
    );
    assert!(lines[last_layer].ends_with("(9 of 9 MB)"), "{err}");
    let size = std::fs::metadata(dir.join("kalah-m6-course.db"))
        .unwrap()
        .len();
    assert!(size <= 10 << 20, "{size} bytes");
    // The limit costs speed, never the result: Kalah(6,2) is a win by 6 for the first player.
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("solved score 6 best "),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn learn_refuses_a_label_database_over_the_limit_before_building_it() {
    let dir = fresh_dir("kalah-db-learn");
    let o = Command::new(BIN)
        .args([
            "learn",
            "--game",
            "mancala",
            "--games",
            "2",
            "--db-seeds",
            "24",
        ])
        .args(["--db-max-mb", "100", "--db-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    common::refused(&o, "24 seeds take 1193 MB, over the 100 MB allowed");
    assert!(!dir.join("kalah-m6-course.db").exists(), "nothing built");
    let _ = std::fs::remove_dir_all(dir);
}

/// `tablero --game mancala` with `XDG_CACHE_HOME` set to `cache`: sends `input`, reads until
/// `bestmove` (a `quit` sooner would stop the search), then quits; what it printed.
fn mancala_session(cache: &std::path::Path, input: &str) -> String {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut child = Command::new(BIN)
        .args(["--game", "mancala"])
        .env("XDG_CACHE_HOME", cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    let mut out = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        out += &line;
        out.push('\n');
        if line.starts_with("bestmove") {
            break;
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    out
}

#[test]
fn go_tries_every_kalah_6_4_position_where_the_database_is_cached() {
    // 44 seeds in pits, over the 40 that go tries without a database: South's only seed goes
    // home, its pits are empty, North banks 43 and wins by 38.
    let fen = "0,0,0,0,0,1:4/8,7,7,7,7,7:0 S";
    let cache = fresh_dir("kalah-db-go");
    let session =
        format!("setoption name Solver value always\nposition fen {fen}\ngo nodes 200000\n");
    let without = mancala_session(&cache, &session);
    assert!(!without.contains("exact solver"), "{without}");
    assert!(without.contains("bestmove 1"), "{without}");
    // A small database (10 seeds) built by `tablero solve` where go looks for it.
    let o = Command::new(BIN)
        .args([
            "solve",
            "--game",
            "mancala",
            "--fen",
            fen,
            "--db-seeds",
            "10",
        ])
        .args(["--hash", "16", "--db-dir"])
        .arg(cache.join("tablero"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        common::stdout(&o).contains("solved score -38 best 1"),
        "{}",
        common::stdout(&o)
    );
    let with = mancala_session(&cache, &session);
    assert!(
        with.contains("score mate -1 ") && with.contains("string exact solver, final margin -38"),
        "{with}"
    );
    assert!(with.contains("bestmove 1"), "{with}");
    // On a clock the solver gets three quarters of the move where the database is cached, a
    // third elsewhere (the engine says so on stderr at the debug level).
    let timed = format!("position fen {fen}\ngo movetime 400\n");
    let said = |cache: &std::path::Path| {
        let o = Command::new(BIN)
            .args(["--game", "mancala"])
            .env("XDG_CACHE_HOME", cache)
            .env("RUST_LOG", "debug")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(timed.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        assert!(
            common::stdout(&o).contains("bestmove 1"),
            "{}",
            common::stdout(&o)
        );
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let with_db = said(&cache);
    assert!(
        with_db.contains("exact solver: 3/4 of the move's time before the search"),
        "{with_db}"
    );
    let empty = fresh_dir("kalah-db-go-none");
    let without_db = said(&empty);
    assert!(!without_db.contains("exact solver:"), "{without_db}");
    let _ = std::fs::remove_dir_all(empty);
    let _ = std::fs::remove_dir_all(cache);
}
