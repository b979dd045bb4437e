//! `tablero tournament` and `tablero report` on tournament records, as separate processes: three
//! shards merge into exactly the standings of the unsharded run (text and JSON), a rerun shard's
//! games are dropped as duplicates, a missing shard is listed, files of other settings are
//! refused, an engine that cannot start loses its games by `crash` while the tournament goes
//! on, an interrupted shard resumes, and bad input is one line with exit code 2.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;
use common::{BIN, refused, tmp};

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Five deterministic engines on Connect Four (built-in players and the engine itself at the
/// referee's depth 2, one with another heuristic), 2 rounds: 10 pairings, 40 games.
fn tournament_args(seed: &str) -> Vec<String> {
    let mut a: Vec<String> = [
        "--game",
        "connect4",
        "tournament",
        "--engine",
        "random=builtin:random",
        "--engine",
        "greedy=builtin:greedy",
        "--engine",
        "ninja1=builtin:ninja1",
        "--rounds",
        "2",
        "--depth",
        "2",
        "--openings",
        "random:2",
        "--seed",
        seed,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.push("--engine".into());
    a.push(format!("engine={BIN} option.Hash=4"));
    a.push("--engine".into());
    a.push(format!("seedh={BIN} option.Hash=4 option.Heuristic=seed"));
    a
}

fn run(extra: &[&str]) -> Output {
    run_seed("7", extra)
}

fn run_seed(seed: &str, extra: &[&str]) -> Output {
    Command::new(BIN)
        .args(tournament_args(seed))
        .args(extra)
        .output()
        .unwrap()
}

fn report(args: &[&str], files: &[&PathBuf]) -> Output {
    Command::new(BIN)
        .arg("report")
        .args(args)
        .args(files)
        .output()
        .unwrap()
}

#[test]
fn shards_merge_into_the_unsharded_standings() {
    let full = tmp("full.jsonl");
    let unsharded = ok(&run(&["--records", full.to_str().unwrap()]));
    assert!(
        unsharded
            .starts_with("Tournament round-robin of 5 engines (connect4), 2 rounds, 40 games\n"),
        "{unsharded}"
    );
    let json_full = ok(&run(&["--json"]));
    // Three shards as three processes at once.
    let shards: Vec<PathBuf> = (1..=3).map(|k| tmp(&format!("s{k}.jsonl"))).collect();
    let children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(k, p)| {
            Command::new(BIN)
                .args(tournament_args("7"))
                .args(["--shard", &format!("{}/3", k + 1), "--records"])
                .arg(p)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let sizes: Vec<usize> = shards
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap().lines().count() - 1)
        .collect();
    assert_eq!(sizes, vec![14, 14, 12], "pairs 0,3,6,… / 1,4,7,… / 2,5,8,…");
    let [a, b, c] = [&shards[0], &shards[1], &shards[2]];
    let merged = report(&[], &[b, c, a]);
    assert_eq!(
        ok(&merged),
        unsharded,
        "merged shards == unsharded, byte for byte"
    );
    assert!(stderr(&merged).contains("records: 3 files, 40 of 40 games"));
    assert_eq!(ok(&report(&["--json"], &[a, b, c])), json_full);
    assert_eq!(ok(&report(&[], &[&full])), unsharded);
    refused(
        &report(&["--times"], &[&full]),
        "--times is for match records",
    );
    let v: Value = serde_json::from_str(&json_full).unwrap();
    assert_eq!(v["games"], 40);
    let st = v["standings"].as_array().unwrap();
    assert_eq!(st.len(), 5);
    let points: f64 = st.iter().map(|e| e["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 40.0);
    let mean: f64 = st.iter().map(|e| e["elo"].as_f64().unwrap()).sum::<f64>() / 5.0;
    assert!(mean.abs() < 1e-6);
    for e in st {
        assert!(
            e["error"].as_f64().unwrap().is_finite() && e["games"] == 16,
            "{e}"
        );
    }

    // A rerun shard: its games are duplicates, dropped; the standings do not change.
    let rerun = report(&[], &[a, b, c, b]);
    assert_eq!(ok(&rerun), unsharded);
    assert!(
        stderr(&rerun).contains("duplicates dropped: 14 lines"),
        "{}",
        stderr(&rerun)
    );
    // A missing shard: refused as a merge that is not the whole tournament; with --partial,
    // listed with its shard, and the standings of the games there are printed.
    refused(&report(&[], &[a, c]), "26 of 40 games, missing 2-3, 8-9");
    let partial = report(&["--partial"], &[a, c]);
    let text = ok(&partial);
    assert!(text.contains(", 26 games\n"), "{text}");
    let err = stderr(&partial);
    assert!(
        err.contains(
            "missing games: 2-3, 8-9, 14-15, 20-21, 26-27, 32-33, 38-39 (14); in shard 2/3"
        ),
        "{err}"
    );
    // Other settings (another seed) are refused, naming the setting.
    let other = tmp("other.jsonl");
    ok(&run_seed(
        "8",
        &["--shard", "2/3", "--records", other.to_str().unwrap()],
    ));
    refused(&report(&[], &[a, &other]), "seed 7 vs 8");
    // Match records do not mix with tournament records.
    let m = tmp("match.jsonl");
    ok(&Command::new(BIN)
        .args(["--game", "connect4", "match", "--engine1", "builtin:random"])
        .args(["--engine2", "builtin:greedy", "--records"])
        .arg(&m)
        .output()
        .unwrap());
    refused(&report(&[], &[a, &m]), "do not mix");
    refused(&report(&[], &[&m, a]), "do not mix");
    // The anchor moves every rating by the same amount.
    let anchored = ok(&report(&["--json", "--anchor", "random=1000"], &[&full]));
    let av: Value = serde_json::from_str(&anchored).unwrap();
    let elo = |v: &Value, n: &str| {
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == n)
            .unwrap()["elo"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(elo(&av, "random"), 1000.0);
    let shift = 1000.0 - elo(&v, "random");
    assert!((elo(&av, "ninja1") - elo(&v, "ninja1") - shift).abs() < 1e-6);
    // The HTML page of tournament records holds the merged standings (its script draws them;
    // tests/report_browser.rs looks at the drawn page).
    let html = tmp("t.html");
    ok(&report(&["--html", html.to_str().unwrap()], &[a, b, c]));
    let page = std::fs::read_to_string(&html).unwrap();
    let data = page
        .split("<script type=\"application/json\" id=\"data\">")
        .nth(1)
        .and_then(|r| r.split("</script>").next())
        .expect("the page's data");
    let d: Value = serde_json::from_str(data).unwrap();
    assert_eq!(d["mode"], "tournament");
    assert_eq!(d["standings"].as_array().unwrap().len(), 5);
    assert!(d["names"].as_array().unwrap().iter().any(|n| n == "ninja1"));
    assert_eq!(d["played"], v["games"]);
}

#[test]
fn an_engine_that_cannot_start_loses_by_crash() {
    let out = Command::new(BIN)
        .args(["--game", "connect4", "tournament", "--format", "gauntlet"])
        .args([
            "--engine",
            "greedy=builtin:greedy",
            "--engine",
            "random=builtin:random",
        ])
        .args(["--engine", "ghost=/nonexistent/engine --flag", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&ok(&out)).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(v["reasons"]["crash"], 2, "{v}");
    let ghost = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "ghost")
        .unwrap()
        .clone();
    assert_eq!(ghost["losses"], 2);
    assert_eq!(ghost["lost_by"]["crash"], 2);
    assert_eq!(
        ghost["prior_only"], true,
        "lost everything: rated by the prior"
    );
    assert!(ghost["elo"].as_f64().unwrap().is_finite());
}

#[test]
fn an_interrupted_shard_resumes() {
    let whole = tmp("resume-whole.jsonl");
    let expect = ok(&run(&[
        "--shard",
        "1/2",
        "--records",
        whole.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 21);
    // Header, 7 games and a torn eighth line, as a killed process leaves it.
    let cut = tmp("resume-cut.jsonl");
    let torn = &lines[8][..lines[8].len() / 2];
    std::fs::write(&cut, format!("{}\n{torn}", lines[..8].join("\n"))).unwrap();
    let resumed = run(&["--shard", "1/2", "--resume", cut.to_str().unwrap()]);
    assert_eq!(ok(&resumed), expect);
    // The kept lines stay as they were; the rest is played again (same games, other times).
    let again = std::fs::read_to_string(&cut).unwrap();
    let again: Vec<&str> = again.lines().collect();
    assert_eq!(again.len(), 21);
    assert!(again[..8] == lines[..8]);
    let game = |l: &str| {
        let v: Value = serde_json::from_str(l).unwrap();
        (
            v["game"].clone(),
            v["result"].clone(),
            v["moves"].as_array().unwrap().len(),
        )
    };
    for (a, b) in again[1..].iter().zip(&lines[1..]) {
        assert_eq!(game(a), game(b));
    }
    // Damage before the last line is refused and the file left as it is.
    let damaged = tmp("resume-damaged.jsonl");
    let body = format!(
        "{}\n{{\"not a record\n{}\n",
        lines[..4].join("\n"),
        lines[4]
    );
    std::fs::write(&damaged, &body).unwrap();
    refused(
        &run(&["--shard", "1/2", "--resume", damaged.to_str().unwrap()]),
        "line 5 is not a connect4 record",
    );
    assert_eq!(std::fs::read_to_string(&damaged).unwrap(), body);
    // Resuming with other flags is refused.
    refused(
        &run(&[
            "--shard",
            "1/2",
            "--depth",
            "3",
            "--resume",
            cut.to_str().unwrap(),
        ]),
        "depth",
    );
}

#[test]
fn schedules_and_engine_files() {
    let file = tmp("engines.txt");
    std::fs::write(
        &file,
        "# name spec… option.NAME=VALUE…\n\nrandom builtin:random option.Seed=3\n  greedy builtin:greedy\n# done\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .args([
            "tournament",
            "--game",
            "connect4",
            "--engines",
            file.to_str().unwrap(),
        ])
        .args(["--engine", "n1=builtin:ninja1", "--format", "gauntlet"])
        .args(["--rounds", "3", "--shard", "2/2", "--schedule"])
        .output()
        .unwrap();
    assert_eq!(
        ok(&out),
        "# shard 2/2: 6 of 12 games (pairs p with p mod 2 = 1); game round first second opening\n\
         2 0 random n1 0\n3 0 n1 random 0\n6 1 random n1 1\n7 1 n1 random 1\n\
         10 2 random n1 2\n11 2 n1 random 2\n"
    );
    let t = |args: &[&str]| {
        Command::new(BIN)
            .args(["tournament", "--game", "connect4"])
            .args(args)
            .output()
            .unwrap()
    };
    let two = [
        "--engine",
        "a=builtin:random",
        "--engine",
        "b=builtin:greedy",
    ];
    refused(&t(&[&two[..], &["--shard", "4/3"]].concat()), "--shard");
    refused(&t(&two[..2]), "at least two engines");
    refused(
        &t(&[&two[..], &["--engine", "a=builtin:ninja1"]].concat()),
        "used twice",
    );
    refused(&t(&[&two[..], &["--format", "swiss"]].concat()), "--format");
    refused(&t(&["--engine", "a"]), "NAME=SPEC");
    refused(&t(&[&two[..], &["--anchor", "c=0"]].concat()), "--anchor");
    refused(&t(&[&two[..], &["--rounds", "0"]].concat()), "--rounds");
    refused(&t(&["--engines", "/nonexistent/engines.txt"]), "--engines");
    let bad = tmp("bad-records.jsonl");
    std::fs::write(&bad, "{\"kind\":\"tournament\",\"settings\":{}}\n").unwrap();
    refused(&report(&[], &[&bad]), "settings");
}
