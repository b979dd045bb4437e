//! `tablero tune` end to end: a 2-iteration tune of `tablero` itself at depth 1 on Connect Four
//! with one `Connect4W_` weight; the JSONL lines, `--resume` after a torn last line reproducing
//! the same file, refusal of other settings, and the plot.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;
use common::fresh_dir;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn tune(file_flag: &str, file: &Path, extra: &[&str]) -> Output {
    let mut c = Command::new(BIN);
    c.args([
        "tune",
        "--game",
        "connect4",
        "--engine",
        BIN,
        "--param",
        "Connect4W_centre=3,0,40,2,0.05",
        "--iterations",
        "2",
        "--pairs-per-iteration",
        "2",
        "--depth",
        "1",
        "--openings",
        "random:4",
        "--seed",
        "9",
    ]);
    c.arg(file_flag).arg(file).args(extra);
    c.output().unwrap()
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn tune_writes_resumes_and_plots() {
    let d = fresh_dir("run");
    let out = d.join("t.jsonl");
    let o = tune("--out", &out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = lines(&out);
    assert_eq!(v.len(), 3, "header + 2 iterations");
    assert_eq!(v[0]["settings"]["params"][0]["name"], "Connect4W_centre");
    assert_eq!(v[0]["settings"]["iterations"], 2);
    for (i, s) in v[1..].iter().enumerate() {
        assert_eq!(s["k"], i + 1);
        let r = &s["result"];
        let games = r["wins"].as_u64().unwrap()
            + r["draws"].as_u64().unwrap()
            + r["losses"].as_u64().unwrap();
        assert_eq!(games, 4, "2 pairs per iteration");
        let d = s["delta"][0].as_i64().unwrap();
        assert!(d == 1 || d == -1);
        // θ± = round(θ ± c_k·Δ) inside the range.
        let theta = s["theta_before"][0].as_f64().unwrap();
        let c = s["c_k"][0].as_f64().unwrap();
        let plus = s["plus"][0].as_i64().unwrap();
        let minus = s["minus"][0].as_i64().unwrap();
        assert_eq!(plus, (theta + c * d as f64).clamp(0.0, 40.0).round() as i64);
        assert_eq!(
            minus,
            (theta - c * d as f64).clamp(0.0, 40.0).round() as i64
        );
        // θ += a_k/c_k·(W − L)·Δ.
        let a = s["a_k"][0].as_f64().unwrap();
        let wl = r["wins"].as_f64().unwrap() - r["losses"].as_f64().unwrap();
        let after = s["theta_after"][0].as_f64().unwrap();
        assert!((after - (theta + a / c * wl * d as f64).clamp(0.0, 40.0)).abs() < 1e-9);
    }
    assert_eq!(v[1]["theta_after"], v[2]["theta_before"]);
    let full = std::fs::read(&out).unwrap();

    // A torn last line (killed mid-write): resume drops it, replays iteration 2, same file.
    let cut = full.len() - 25;
    std::fs::write(&out, &full[..cut]).unwrap();
    let o = tune("--resume", &out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("torn"));
    assert_eq!(std::fs::read(&out).unwrap(), full);

    // Resuming a finished run plays nothing; other settings are refused.
    let o = tune("--resume", &out, &[]);
    assert!(o.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), full);
    let o = tune("--resume", &out, &["--max-plies", "100"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("other settings") && err.contains("max_plies"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // --out never overwrites a run.
    let o = tune("--out", &out, &[]);
    assert!(!o.status.success());

    // The plot: one chart with labelled axes.
    let svg = d.join("t.svg");
    let o = Command::new(BIN)
        .args(["tune", "--plot"])
        .arg(&out)
        .arg("-o")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let polylines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .count();
    assert_eq!(polylines, 1);
    assert!(text.contains("iteration k") && text.contains("Connect4W_centre"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tune_refuses_options_the_engine_lacks() {
    let d = fresh_dir("lacks");
    for (param, want) in [
        ("Connect4W_centr=3,0,40,2,0.05", "no spin option"),
        ("Connect4W_centre=3,0,200000,2,0.05", "exceeds the engine's"),
    ] {
        let o = Command::new(BIN)
            .args([
                "tune", "--game", "connect4", "--engine", BIN, "--param", param,
            ])
            .args(["--iterations", "2", "--depth", "1", "--out"])
            .arg(d.join("x.jsonl"))
            .output()
            .unwrap();
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(want) && err.lines().count() == 1,
            "{param}: {err}"
        );
        assert!(
            !d.join("x.jsonl").exists(),
            "nothing written before the check"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tune_bad_input_is_one_line() {
    let d = fresh_dir("bad");
    for (args, want) in [
        (vec!["--param", "X=1,0"], "5"),
        (vec!["--param", "X=9,0,5,1,1"], "MIN <= START <= MAX"),
        (
            vec!["--iterations", "0", "--param", "X=1,0,5,1,1"],
            "iterations",
        ),
    ] {
        let mut c = Command::new(BIN);
        c.args(["tune", "--game", "connect4", "--engine", "builtin:random"]);
        if !args.contains(&"--iterations") {
            c.args(["--iterations", "3"]);
        }
        let o = c
            .args(&args)
            .arg("--out")
            .arg(d.join("x.jsonl"))
            .output()
            .unwrap();
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(want) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}
