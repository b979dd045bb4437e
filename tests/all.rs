//! Every integration test, as the modules of one test binary: one link of the crate instead of
//! one per file (the CI build's largest cost), and the files' tests share the harness's threads,
//! so a slow file no longer waits alone. Run one file with `cargo test --test all <file>::`,
//! e.g. `cargo test --test all layers::`.

// Shared helpers, used by most files as `crate::common`, `crate::browser`, `crate::gui_support`.
mod browser;
mod common;
mod gui_support;

mod analysis;
mod bench_signature;
mod boom_clarifications;
mod boom_rules;
mod boom_years;
mod bridge_boom;
mod bridge_enraya;
mod bridge_parchis;
mod browser_harness;
mod class;
mod clock_play;
mod cluster_scripts;
mod connect4_eval;
mod connect4_golden;
mod connect4_rules;
mod connect4_strength;
mod core_traces;
mod doc_examples;
mod enraya_traces;
mod fuzz_regressions;
mod game_names;
mod glossary;
mod go_solver;
mod golden_data;
mod gui_browser;
mod gui_http;
mod gui_limits;
mod help_cli;
mod kalah_database;
mod layers;
mod learn;
mod mancala_bot;
mod mancala_bot_gui;
mod mancala_eval;
mod mancala_fen;
mod mancala_golden;
mod mancala_match;
mod mancala_reference;
mod mancala_rules;
mod parchis_perft;
mod parchis_strength;
mod parchis_traces;
mod parchis_unit;
mod parchis_years;
mod players_e2e;
mod position_files;
mod protocol_e2e;
mod readme_pictures;
mod records_kill;
mod records_safety;
mod referee_e2e;
mod referee_stats;
mod refusals;
mod render_cli;
mod render_parchis;
mod report_browser;
mod report_cli;
mod report_output;
mod review;
mod review_browser;
mod scene_js;
mod search_agrees;
mod serve_limits;
mod solve_connect4;
mod solve_enraya;
mod solve_kalah;
mod solve_protocol;
mod spec;
mod storm_short;
mod terminal;
mod tournament_cli;
mod tune_cli;
mod view_pictures;

/// With `autotests = false` a file in tests/ that is not named above would never run: every
/// `tests/*.rs` is a module here (and every module line names a file).
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".rs")?;
            (stem != "all").then(|| stem.to_string())
        })
        .collect();
    files.sort();
    let text = std::fs::read_to_string(dir.join("all.rs")).expect("tests/all.rs");
    let mut mods: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .filter(|m| !["browser", "common", "gui_support"].contains(m))
        .map(str::to_string)
        .collect();
    mods.sort();
    assert_eq!(
        mods, files,
        "tests/all.rs must name every file in tests/ with `mod NAME;`"
    );
}
