//! Kalah exact solver: published first-player margins from the start, and the golden
//! Kalah(6,4) positions.

use crate::common;

use tablero::core::game::Game;
use tablero::games::mancala::Mancala;
use tablero::solver::kalah::{Solver, solve_start};

/// (pits, seeds, first-player margin) — values listed in the issue (course rules). Kalah(6,4)
/// (+8) takes minutes; `scripts/solve_bench.sh` checks it.
const FAST: &[(u8, u8, i32)] = &[
    (1, 1, 0),
    (2, 2, -2),
    (3, 3, 2),
    (4, 3, 6),
    (4, 4, 2),
    (5, 3, 6),
    (6, 2, 6),
    (6, 3, 2),
    (4, 6, 0),
    (5, 4, 10),
];

#[test]
fn start_margins_small_boards() {
    for &(m, n, want) in FAST {
        let (sol, secs) = solve_start(m, n, 256).unwrap();
        eprintln!(
            "Kalah({m},{n}) = {} ({} nodes, {secs:.2} s)",
            sol.score, sol.nodes
        );
        assert_eq!(sol.score, want, "Kalah({m},{n})");
    }
}

#[test]
fn golden_kalah64_positions() {
    let text = common::golden("kalah/kalah64_positions.txt");
    let mut solver = Solver::new(6, 48, 512).unwrap();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 16, "line {}", i + 1);
        if i == 0 {
            continue; // the opening: the slow script checks it (+8)
        }
        let fen = format!(
            "{}:{}/{}:{} {}",
            f[0..6].join(","),
            f[6],
            f[7..13].join(","),
            f[13],
            f[14]
        );
        let want: i32 = f[15].parse().unwrap();
        let s = Mancala::parse_fen(&fen, &Default::default()).unwrap();
        let sol = solver.solve(&s).unwrap();
        // The file gives South minus North; the solver the mover's margin.
        let got = if f[14] == "S" { sol.score } else { -sol.score };
        assert_eq!(got, want, "line {} ({fen})", i + 1);
        n += 1;
    }
    assert_eq!(n, 300);
}

/// The golden positions again, now with a bottom-up database of all positions with at most
/// 12 seeds in pits (2.7 M bytes, built in about a second with two threads) built through the
/// disk cache in a temporary directory, so the search's use of it and the cache path are both
/// exercised.
#[test]
fn golden_kalah64_positions_with_built_database() {
    use std::sync::Arc;
    use tablero::solver::kalahdb::{KalahDb, Rules};
    let dir = std::env::temp_dir().join(format!("tablero-solve-kalah-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = KalahDb::load_or_build(&dir, 6, Rules::Course, 12, 2, &|l| eprintln!("{l}"));
    assert_eq!(db.seeds(), 12);
    let db = Arc::new(db);
    let text = common::golden("kalah/kalah64_positions.txt");
    let mut solver = Solver::with_database(6, 48, 64, Rules::Course, Some(db)).unwrap();
    let mut n = 0;
    for (i, line) in text.lines().enumerate().skip(1) {
        let (fen, want) = tablero::solver::kalah_golden_line(line).unwrap();
        let s = Mancala::parse_fen(&fen, &Default::default()).unwrap();
        let sol = solver.solve(&s).unwrap();
        let got = if fen.ends_with('S') {
            sol.score
        } else {
            -sol.score
        };
        assert_eq!(got, want, "line {} ({fen})", i + 1);
        n += 1;
    }
    assert_eq!(n, 300);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database shallower than the run-time one (a cache file with few intact layers) is used
/// below the run-time database, not instead of it: values stay exact.
#[test]
fn shallow_built_database_keeps_values() {
    use std::sync::Arc;
    use tablero::solver::kalahdb::{KalahDb, Rules};
    let db = Arc::new(KalahDb::build(5, Rules::Course, 5, 1, &|_| {}));
    let cfg = Mancala::configure(&[5, 3]).unwrap();
    let mut solver = Solver::with_database(5, 30, 64, Rules::Course, Some(db)).unwrap();
    let sol = solver.solve(&Mancala::start(&cfg)).unwrap();
    assert_eq!(sol.score, 6, "Kalah(5,3)");
    assert!(sol.db_seeds >= 12, "{}", sol.db_seeds);
}

/// A `--batch` line that does not read stops the batch with one line naming the file, the line
/// (blank lines count) and what was wrong, in Kalah's golden format and Connect Four's Pons
/// format alike.
#[test]
fn a_bad_batch_line_names_the_file_and_the_line() {
    for (game, text, why) in [
        (
            "mancala",
            "\n4 4 4 0 S\n",
            "line 2: '4 4 4 0 S': expected s1..sm S n1..nm N side value",
        ),
        ("connect4", "\n44 x\n", "line 2: bad score 'x'"),
    ] {
        let file = common::tmp(&format!("solve_bad_{game}_batch.txt"));
        std::fs::write(&file, text).unwrap();
        let path = file.to_string_lossy().to_string();
        let o = std::process::Command::new(common::BIN)
            .args(["--game", game, "solve", "--batch", &path])
            .output()
            .expect("tablero runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{game}: {err}");
        assert!(
            err.contains(&format!("--batch {path}: {why}")),
            "{game}: {err}"
        );
        assert!(!err.contains("panicked"), "{game}: {err}");
    }
}
