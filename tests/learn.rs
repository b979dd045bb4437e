//! `tablero learn` and its fit: the fit recovers weights that generated the labels (least
//! squares exactly, logistic closely), the data a run writes fits again to the same weights, a
//! run is a function of its seed (and not of its thread count), the positions the Connect Four
//! solver gives up on are counted as failed, and bad input is one line.
//! Small on purpose: a few seconds in all.

use std::process::Command;

use tablero::core::game::{Game, MoveList, Side};
use tablero::core::spec;
use tablero::games::boom::Boom;
use tablero::games::mancala::Mancala;
use tablero::learn::fit::{FitConfig, Loss, Sample, fit, mean_loss};

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `n` positions of random games (each `plies` long at most, stopping before the end).
fn random_positions<G: Game>(n: usize, plies: usize, seed: u64) -> Vec<G> {
    let config = spec::default_config::<G>().unwrap();
    let mut rng = seed;
    let mut out = Vec::new();
    let mut moves = G::Moves::default();
    while out.len() < n {
        let mut s = G::start(&config);
        let len = (splitmix(&mut rng) % plies as u64) as usize + 1;
        for _ in 0..len {
            moves.clear_moves();
            s.legal_moves(&mut moves);
            let ms = moves.as_ref();
            if ms.is_empty() {
                break;
            }
            let next = s.apply(ms[(splitmix(&mut rng) % ms.len() as u64) as usize]);
            if next.outcome().is_some() {
                break;
            }
            s = next;
        }
        out.push(s);
    }
    out
}

fn defaults<G: Game>() -> Vec<i32> {
    G::WEIGHTS.iter().map(|w| w.default).collect()
}

#[test]
fn least_squares_recovers_the_weights_that_made_the_labels() {
    // Labels: the evaluation itself under known weights (in seeds). A linear evaluation fitted
    // by Gauss-Newton lands on them up to the rounding of the labels' units.
    let truth: Vec<i32> = {
        let mut v = defaults::<Mancala>();
        v[0] = 120; // store
        v[2] = 30; // side
        v[3] = 150; // extra_mover
        v[5] = 80; // capture_mover
        v
    };
    let w = Mancala::weights(&truth);
    let samples: Vec<Sample<Mancala>> = random_positions::<Mancala>(3000, 30, 7)
        .into_iter()
        .enumerate()
        .map(|(i, pos)| {
            let perspective = if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            Sample {
                pos,
                perspective,
                target: f64::from(pos.evaluate_with(0, &w, perspective)) / 100.0,
                weight: 1.0,
            }
        })
        // Decided positions carry the ±1 000 000 term, which the fit leaves alone.
        .filter(|s| s.target.abs() < 1000.0)
        .collect();
    let fitted = [0, 2, 3, 5];
    let cfg = FitConfig {
        start: defaults::<Mancala>(),
        fitted: fitted.to_vec(),
        loss: Loss::Squares { unit: 100.0 },
        iterations: 10,
        threads: 2,
    };
    let out = fit(&samples, &cfg, &|_| {});
    for &i in &fitted {
        assert!(
            (out.weights[i] - truth[i]).abs() <= 1,
            "{}: fitted {} but the labels were made with {}",
            Mancala::WEIGHTS[i].name,
            out.weights[i],
            truth[i]
        );
    }
    // The weights not fitted keep their start values.
    for i in (0..truth.len()).filter(|i| !fitted.contains(i)) {
        assert_eq!(out.weights[i], cfg.start[i]);
    }
    assert!(mean_loss(&samples, &out.weights, cfg.loss, 1) < 1e-3);
    // The loss history only goes down.
    assert!(out.history.windows(2).all(|p| p[1] < p[0]));
}

#[test]
fn logistic_fit_finds_the_weights_of_soft_labels_and_ignores_threads() {
    // Labels: the win probability sigmoid(eval / unit) under known weights; cross-entropy is
    // minimal there, so Newton's steps come back to them from the hand-set start.
    let truth: Vec<i32> = {
        let mut v = defaults::<Boom>();
        v[1] = 40; // centre
        v[3] = 120; // threat
        v
    };
    let unit = 300.0;
    let w = Boom::weights(&truth);
    let samples: Vec<Sample<Boom>> = random_positions::<Boom>(3000, 30, 11)
        .into_iter()
        .enumerate()
        .map(|(i, pos)| {
            let perspective = if i % 3 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let z = f64::from(pos.evaluate_with(0, &w, perspective)) / unit;
            Sample {
                pos,
                perspective,
                target: 1.0 / (1.0 + (-z).exp()),
                weight: 1.0,
            }
        })
        .collect();
    let mut start = truth.clone();
    start[1] = 3;
    start[3] = 20;
    let cfg = |threads| FitConfig {
        start: start.clone(),
        fitted: vec![1, 3],
        loss: Loss::Logistic { unit },
        iterations: 30,
        threads,
    };
    let one = fit(&samples, &cfg(1), &|_| {});
    for i in [1, 3] {
        let err = (one.weights[i] - truth[i]).abs();
        assert!(
            err <= truth[i] / 20 + 1,
            "{}: fitted {} for {}",
            Boom::WEIGHTS[i].name,
            one.weights[i],
            truth[i]
        );
    }
    let two = fit(&samples, &cfg(2), &|_| {});
    assert_eq!(one.weights, two.weights);
    assert_eq!(one.history, two.history);
}

fn learn(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The weights part of a report (the lines after `loss:` / `R^2:`).
fn weights_part(report: &str) -> String {
    report
        .lines()
        .filter(|l| l.contains("(fitted)") || l.contains("(kept)") || l.starts_with("options:"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_run_is_a_function_of_its_seed_and_its_data_fits_again_to_the_same_weights() {
    let dir = std::env::temp_dir().join(format!("tablero-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("boom.tsv");
    let data_s = data.to_str().unwrap();
    let base = [
        "--game",
        "connect4boom",
        "learn",
        "--games",
        "40",
        "--depth",
        "2",
        "--seed",
        "5",
        "--unit",
        "1250",
    ];
    let mut with_out = base.to_vec();
    with_out.extend(["--out", data_s, "--threads", "2"]);
    let (ok, first, err) = learn(&with_out);
    assert!(ok, "{err}");
    assert!(
        first.starts_with("data: 40 games at depth 2 against default; "),
        "{first}"
    );
    assert!(first.contains("BoomW_centre"), "{first}");
    let written = std::fs::read_to_string(&data).unwrap();
    assert!(written.starts_with("# tablero learn data v1"));
    let rows = written.lines().filter(|l| !l.starts_with('#')).count();
    assert!(first.contains(&format!("; {rows} rows;")), "{first}");

    // Same seed, one thread: the same report.
    let mut again = base.to_vec();
    again.extend(["--threads", "1"]);
    let (ok, second, err) = learn(&again);
    assert!(ok, "{err}");
    assert_eq!(first, second);

    // Another seed: other games.
    let mut other = base.to_vec();
    other[8] = "6";
    let (ok, third, err) = learn(&other);
    assert!(ok, "{err}");
    assert_ne!(first, third);

    // The data file fits to the same weights as the run that wrote it.
    let (ok, refit, err) = learn(&[
        "--game",
        "connect4boom",
        "learn",
        "--data",
        data_s,
        "--unit",
        "1250",
    ]);
    assert!(ok, "{err}");
    assert_eq!(weights_part(&first), weights_part(&refit));
    assert!(!weights_part(&first).is_empty());

    // A damaged data file: its line named.
    let bad = dir.join("bad.tsv");
    std::fs::write(&bad, format!("{written}7\t0\t1\t1\tnot a position\n")).unwrap();
    let (ok, out, err) = learn(&[
        "--game",
        "connect4boom",
        "learn",
        "--data",
        bad.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("tablero: error: --data: ")
            && err.contains(&format!("line {}:", written.lines().count() + 1)),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_flags_are_one_line_naming_the_flag() {
    for (args, want) in [
        (
            vec!["--game", "mancala", "learn", "--weight", "MancalaW_nope=3"],
            "--weight/--fit: no weight 'MancalaW_nope' in mancala",
        ),
        (
            vec![
                "--game",
                "mancala",
                "learn",
                "--weight",
                "MancalaW_store=abc",
            ],
            "--weight MancalaW_store: 'abc' is not an integer",
        ),
        (
            vec![
                "--game",
                "mancala",
                "learn",
                "--weight",
                "MancalaW_store=999999999",
            ],
            "--weight/--fit: MancalaW_store: 999999999 outside -100000..=100000",
        ),
        (
            vec!["--game", "mancala", "learn", "--opponent", "nobody"],
            "--opponent: no heuristic 'nobody' in mancala",
        ),
        (
            vec!["--game", "mancala", "learn", "--opening", "8..4"],
            "--opening: MIN..MAX with MIN <= MAX, got '8..4'",
        ),
        (
            vec!["--game", "mancala", "learn", "--rate", "2"],
            "--rate: a probability in 0..=1, got 2",
        ),
        (
            vec![
                "--game", "parchis", "learn", "--labels", "exact", "--games", "2",
            ],
            "--labels: exact labels exist for mancala and connect4, not parchis",
        ),
        (
            vec![
                "--game",
                "mancala",
                "learn",
                "--data",
                "/nonexistent/learn.tsv",
            ],
            "--data: /nonexistent/learn.tsv: ",
        ),
    ] {
        let (ok, out, err) = learn(&args);
        assert!(!ok, "{args:?} succeeded");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("tablero: error: {want}")),
            "{args:?}: {err}"
        );
    }
}

/// The numbers of the report's `data:` line after `offered`, `labelled` and `failed`.
fn label_counts(report: &str) -> (usize, usize, usize) {
    let line = report.lines().next().unwrap_or_default();
    let after = |key: &str| -> usize {
        let at = line.find(key).unwrap_or_else(|| panic!("{key} in {line}"));
        line[at + key.len()..]
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a number after {key} in {line}"))
    };
    (after("offered"), after("labelled"), after("failed"))
}

#[test]
fn connect_four_leaves_over_the_node_budget_are_reported_as_failed() {
    // Depth 2 from the start: the early leaves need far more than 2,000 nodes to solve, the late
    // ones fewer, so the run has both; every leaf offered is either labelled or failed.
    let (ok, report, err) = learn(&[
        "--game",
        "connect4",
        "learn",
        "--games",
        "2",
        "--depth",
        "2",
        "--opening",
        "0..0",
        "--rate",
        "0.2",
        "--c4-nodes",
        "2000",
    ]);
    assert!(ok, "{err}");
    let (offered, labelled, failed) = label_counts(&report);
    assert!(labelled > 0 && failed > 0, "{report}");
    assert_eq!(offered, labelled + failed, "{report}");
    assert!(report.contains(&format!("; {labelled} rows;")), "{report}");
    // Two games are one pair, a training pair: no validation rows, weighing 0 (not "-0").
    assert!(
        report.contains(&format!(
            "rows: {labelled} train ({labelled} weighted), 0 validation (0 weighted)"
        )),
        "{report}"
    );
}

/// The exact final margin for the side to move by plain minimax (small positions only).
fn margin(g: &Mancala) -> i32 {
    let me = g.side_to_move();
    if g.outcome().is_some() {
        return i32::from(g.store(me)) - i32::from(g.store(me.other()));
    }
    let mut moves = <Mancala as Game>::Moves::default();
    g.legal_moves(&mut moves);
    moves
        .as_ref()
        .iter()
        .map(|&m| {
            let c = g.apply(m);
            if c.side_to_move() == me && c.outcome().is_none() {
                margin(&c)
            } else {
                let v = margin(&c);
                if c.outcome().is_some() {
                    // A finished game's margin is from its own side to move's view.
                    if c.side_to_move() == me { v } else { -v }
                } else {
                    -v
                }
            }
        })
        .max()
        .unwrap()
}

#[test]
fn kalah_labels_are_the_exact_final_margins() {
    use tablero::learn::label::{KalahLabeler, pit_seeds};
    let config = spec::default_config::<Mancala>().unwrap();
    let mut lab = KalahLabeler::new(6, 48, None, 16).unwrap();
    let mut checked = 0;
    for pos in random_positions::<Mancala>(4000, 120, 3) {
        if pit_seeds(&pos) > 9 {
            continue;
        }
        let want = margin(&pos);
        for perspective in [Side::First, Side::Second] {
            let got = lab.margin(&pos, perspective).unwrap();
            let sign = if perspective == pos.side_to_move() {
                1
            } else {
                -1
            };
            assert_eq!(got, f64::from(sign * want), "{}", pos.format_fen());
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} small positions");
    let _ = config;
}

#[test]
fn the_sampling_wrapper_searches_the_same_tree_as_the_game() {
    use std::sync::atomic::AtomicBool;
    use tablero::core::search::{Limits, SearchOptions, Searcher};
    use tablero::learn::probe::{self, Probe};
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    for pos in random_positions::<Boom>(6, 12, 21) {
        let plain =
            Searcher::<Boom>::new(4).search(&pos, SearchOptions::default(), limits, &stop, |_| {});
        probe::start(0.5, 9);
        let wrapped = Searcher::<Probe<Boom>>::new(4).search(
            &Probe(pos),
            SearchOptions::default(),
            limits,
            &stop,
            |_| {},
        );
        let (kept, seen) = probe::finish::<Boom>();
        assert_eq!(plain.best_move, wrapped.best_move, "{}", pos.format_fen());
        assert_eq!(plain.score, wrapped.score);
        assert_eq!(plain.nodes, wrapped.nodes);
        assert_eq!(plain.pv, wrapped.pv);
        // About half of the evaluations were kept.
        assert!(seen > 0 && kept.len() as u64 * 4 > seen && (kept.len() as u64) * 4 < 3 * seen);
    }
}
