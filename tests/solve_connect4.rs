//! Connect Four exact solver against Pons' benchmark sets and the 7×7 golden file.

use tablero::solver::connect4::{Settings, run_batch};

fn golden(name: &str) -> String {
    let path = format!(
        "{}/../shared/golden/connect4/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("golden file {path} is missing or unreadable: {e}"))
}

fn check(name: &str, w: u32, h: u32) {
    let text = golden(name);
    let mut bad = Vec::new();
    let mut n = 0;
    let (mut nodes, mut micros) = (0u64, 0u128);
    run_batch(
        &text,
        w,
        h,
        Settings {
            hash_mib: 64,
            threads: 1,
        },
        |line, moves, want, sol, us| {
            n += 1;
            nodes += sol.nodes;
            micros += us;
            if sol.score != want {
                bad.push(format!(
                    "line {line} {moves}: want {want} got {}",
                    sol.score
                ));
            }
        },
    )
    .unwrap();
    eprintln!(
        "{name}: {n} positions, mean {} nodes, {} us",
        nodes / n.max(1) as u64,
        micros / n.max(1) as u128
    );
    assert!(n > 0, "{name}: no positions");
    assert!(
        bad.is_empty(),
        "{name}: {} mismatches: {:?}",
        bad.len(),
        &bad[..bad.len().min(10)]
    );
}

#[test]
fn pons_end_easy() {
    check("Test_L3_R1", 7, 6);
}

#[test]
fn pons_middle_easy() {
    check("Test_L2_R1", 7, 6);
}

#[test]
fn pons_middle_medium() {
    check("Test_L2_R2", 7, 6);
}

#[test]
fn pons_begin_easy() {
    check("Test_L1_R1", 7, 6);
}

#[test]
#[ignore = "about 3-4 CPU-minutes, too slow for CI: scripts/solve_bench.sh checks this set in full"]
fn pons_begin_medium() {
    check("Test_L1_R2", 7, 6);
}

#[test]
fn board_7x7() {
    check("7x7_positions.txt", 7, 7);
}

/// The progress lines of `solve` (one per root probe) state true bounds, and with one thread
/// (every probe reported) the last ones pin the score.
#[test]
fn probe_reports_are_true_bounds() {
    use tablero::games::connect4::{Config, Connect4};
    let cfg = Config {
        rows: 6,
        columns: 7,
    };
    let mut reported = 0;
    for name in ["Test_L1_R1", "Test_L2_R2"] {
        for line in golden(name).lines().take(15) {
            let mut it = line.split_whitespace();
            let (moves, want) = (
                it.next().unwrap(),
                it.next().unwrap().parse::<i32>().unwrap(),
            );
            let game = Connect4::from_moves(moves, &cfg).unwrap();
            for threads in [1, 2] {
                let mut lines = Vec::new();
                let settings = Settings {
                    hash_mib: 16,
                    threads,
                };
                let sol = tablero::solver::connect4::solve_reporting(
                    &game,
                    settings,
                    tablero::solver::Budget::default(),
                    |l| lines.push(l.to_string()),
                )
                .unwrap();
                assert_eq!(sol.score, want, "{moves}");
                let (mut lo, mut hi) = (i32::MIN, i32::MAX);
                for l in &lines {
                    let f: Vec<&str> = l.split_whitespace().collect();
                    assert_eq!(&f[..3], ["info", "string", "probe"], "{l}");
                    assert_eq!((f[4], f[7], f[9]), ("score", "nodes", "time"), "{l}");
                    let r: i32 = f[6].parse().unwrap();
                    match f[5] {
                        ">=" => lo = lo.max(r),
                        "<=" => hi = hi.min(r),
                        other => panic!("bad relation {other} in {l}"),
                    }
                }
                assert!(lo <= want && want <= hi, "{moves}: {lines:?}");
                if threads == 1 && !lines.is_empty() {
                    assert!(lo == want || hi == want, "{moves}: {lines:?}");
                }
                reported += lines.len();
            }
        }
    }
    assert!(reported > 0);
}
