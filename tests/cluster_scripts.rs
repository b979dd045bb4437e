//! The scheduler scripts of scripts/cluster without a scheduler: every script parses
//! (`bash -n`), the Slurm array script runs shard by shard with SLURM_ARRAY_TASK_ID/COUNT set by
//! hand as Slurm would, a rerun task resumes its records instead of replaying them, the merge
//! script ranks the shards, and that ranking equals the table of the same tournament played
//! unsharded and `tablero report` of its records, byte for byte. (slurm-selftest.sh does the
//! same under a real single-node Slurm; it is too slow for CI.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::fresh_dir;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scripts() -> PathBuf {
    root().join("scripts/cluster")
}

/// Cheap deterministic engines: built-in players and the engine as a process with a
/// per-engine option, all at depth 1 on Connect Four.
const ENGINES: &str = "random=builtin:random\ngreedy=builtin:greedy\nninja1=builtin:ninja1\n\
                       tablero-test=TABLERO option.Heuristic=test";

fn settings<'a>(cmd: &'a mut Command, dir: &Path) -> &'a mut Command {
    cmd.env("TABLERO", BIN)
        .env("TOURNAMENT_DIR", dir)
        .env("TOURNAMENT_ENGINES", ENGINES)
        .env("TOURNAMENT_GAME", "connect4")
        .env("TOURNAMENT_ROUNDS", "1")
        .env("TOURNAMENT_LIMITS", "--depth 1")
        .env("TOURNAMENT_SEED", "7")
        .env("TOURNAMENT_OPENINGS", "random:2")
        .env_remove("TOURNAMENT_ENGINES_FILE")
        .env_remove("TOURNAMENT_EXTRA")
        .env_remove("TOURNAMENT_SCRIPTS")
        .env_remove("SLURM_JOB_ID")
        .env_remove("SLURM_ARRAY_TASK_MIN")
        .env_remove("SLURM_ARRAY_TASK_MAX")
}

fn ok(out: Output, what: &str) -> Output {
    assert!(
        out.status.success(),
        "{what} failed: {}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn array_task(dir: &Path, task: usize, count: usize) -> Output {
    let out = settings(&mut Command::new("bash"), dir)
        .arg(scripts().join("tournament.sbatch"))
        .env("SLURM_ARRAY_TASK_ID", task.to_string())
        .env("SLURM_ARRAY_TASK_COUNT", count.to_string())
        .output()
        .unwrap();
    ok(out, &format!("array task {task}/{count}"))
}

#[test]
fn every_script_parses() {
    let mut n = 0;
    for e in std::fs::read_dir(scripts()).unwrap() {
        let p = e.unwrap().path();
        let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
        if ext == "sh" || ext == "sbatch" {
            let out = Command::new("bash").arg("-n").arg(&p).output().unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                p.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            n += 1;
        }
    }
    // tournament.sbatch, tournament-merge.sbatch, shard.sh, slurm-submit.sh,
    // slurm-selftest.sh, ssh-hosts.sh, ssh-selftest.sh, k8s-submit.sh, validate-k8s.sh
    assert!(n >= 9, "only {n} scripts found in scripts/cluster");
}

#[test]
fn array_tasks_merged_equal_the_unsharded_report() {
    let dir = fresh_dir("array");
    let shards = 3;
    for k in 1..=shards {
        array_task(&dir, k, shards);
    }
    let files: Vec<PathBuf> = (1..=shards)
        .map(|k| dir.join(format!("shard-{k}-of-{shards}.jsonl")))
        .collect();
    for f in &files {
        assert!(f.exists(), "{} was not written", f.display());
    }

    // A requeued task finds its records and resumes: nothing is replayed or lost.
    let before = std::fs::read(&files[1]).unwrap();
    let rerun = array_task(&dir, 2, shards);
    assert_eq!(
        std::fs::read(&files[1]).unwrap(),
        before,
        "a rerun task changed its records"
    );
    let note = String::from_utf8_lossy(&rerun.stderr);
    assert!(note.contains("shard 2/3"), "{note}");

    let merge = settings(&mut Command::new("bash"), &dir)
        .arg(scripts().join("tournament-merge.sbatch"))
        .env("TOURNAMENT_SHARDS", shards.to_string())
        .output()
        .unwrap();
    let merge = ok(merge, "tournament-merge.sbatch");
    let merged = std::fs::read(dir.join("standings.txt")).unwrap();
    assert_eq!(
        merge.stdout, merged,
        "the merge job's output is not standings.txt"
    );

    // The same tournament, unsharded, written straight with the CLI (not through shard.sh).
    let full = dir.join("unsharded.jsonl");
    let mut cmd = Command::new(BIN);
    cmd.args([
        "tournament",
        "--game",
        "connect4",
        "--rounds",
        "1",
        "--depth",
        "1",
    ])
    .args([
        "--seed",
        "7",
        "--openings",
        "random:2",
        "--concurrency",
        "2",
    ]);
    for e in ENGINES.lines() {
        cmd.arg("--engine").arg(e.replace("TABLERO", BIN));
    }
    let played = ok(
        cmd.arg("--records").arg(&full).output().unwrap(),
        "unsharded tournament",
    );
    assert_eq!(
        String::from_utf8_lossy(&played.stdout),
        String::from_utf8_lossy(&merged),
        "the merged standings differ from the unsharded tournament's own table"
    );
    for (flag, file) in [(None, "standings.txt"), (Some("--json"), "standings.json")] {
        let mut report = Command::new(BIN);
        report.arg("report");
        if let Some(f) = flag {
            report.arg(f);
        }
        let unsharded = ok(report.arg(&full).output().unwrap(), "report").stdout;
        let merged = std::fs::read(dir.join(file)).unwrap();
        assert!(!merged.is_empty(), "{file} is empty");
        assert_eq!(
            String::from_utf8_lossy(&merged),
            String::from_utf8_lossy(&unsharded),
            "{file} of the merged shards differs from the unsharded report"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_array_settings_are_one_line_errors() {
    let dir = fresh_dir("bad");
    let run = |envs: &[(&str, &str)]| {
        let mut cmd = Command::new("bash");
        settings(&mut cmd, &dir).arg(scripts().join("tournament.sbatch"));
        cmd.env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("SLURM_ARRAY_TASK_COUNT");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    let not_array = run(&[]);
    assert!(!not_array.status.success());
    assert!(String::from_utf8_lossy(&not_array.stderr).contains("not an array task"));
    let gap = run(&[
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "2"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "5"),
    ]);
    assert_eq!(gap.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&gap.stderr).contains("contiguous range"));
    let shard = Command::new("bash")
        .arg(scripts().join("shard.sh"))
        .args(["4", "3"])
        .output()
        .unwrap();
    assert_eq!(shard.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&shard.stderr).contains("usage"));
    let merge = settings(&mut Command::new("bash"), &dir)
        .arg(scripts().join("tournament-merge.sbatch"))
        .env("TOURNAMENT_SHARDS", "2")
        .output()
        .unwrap();
    assert!(!merge.status.success(), "merging no records succeeded");
    assert!(String::from_utf8_lossy(&merge.stderr).contains("no shard records"));
    let _ = std::fs::remove_dir_all(&dir);
}
