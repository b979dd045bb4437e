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
