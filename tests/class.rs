//! `tablero class` on submissions of our own (no course code, no student's code): the BOOM
//! bridge's mock checkout and mock player (`tests/bridge_boom_mock/`), a player file that does
//! not compile, a Mancala bot in C++ and a copy of it that aborts (`tests/class_mock/`), and
//! the referee's misbehaving mock engines (`tests/mock/`) as ready programs. A build that fails, hangs or makes nothing costs its student a build line; an
//! engine that crashes, hangs, prints junk or plays illegal moves costs its student games; the
//! tournament, its records, shards, resume and pages go on. The real proof (the course's code
//! and real students' players of the three games) is in docs/class-tournament.md.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder for one test.
fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("class-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
}

/// A ready program: a shell script running `body`.
fn program(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `tablero ARGS` (C++ built without optimisation: quicker, the same engines).
fn tablero(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("CXXFLAGS", "-O0")
        .output()
        .unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Compiles `sources` (with the headers of `include`) into the program `out`, as a student
/// hands in a compiled bot.
fn gxx(out: &Path, sources: &[PathBuf], include: &Path) {
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let o = Command::new("g++")
        .arg("-O0")
        .arg("-I")
        .arg(include)
        .arg("-o")
        .arg(out)
        .args(sources)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The game lines of a records file.
fn games(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] == "tournament-game")
        .collect()
}

/// The games `name` played, and the reasons of those it lost.
fn played_by(games: &[Value], name: &str) -> (usize, Vec<String>) {
    let mine: Vec<&Value> = games
        .iter()
        .filter(|g| g["first"] == name || g["second"] == name)
        .collect();
    let lost = mine
        .iter()
        .filter(|g| {
            let w = g["winner"].as_u64();
            // Engine 1 and 2 of the game: first_engine says which of them moved first.
            let first_is_1 = g["first_engine"] == 1;
            let me_is_1 = (g["first"] == name) == first_is_1;
            matches!(w, Some(1) if !me_is_1) || matches!(w, Some(2) if me_is_1)
        })
        .map(|g| g["reason"].as_str().unwrap().to_string())
        .collect();
    (mine.len(), lost)
}

fn manifest(out: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("class.json")).unwrap()).unwrap()
}

fn status_of(m: &Value, name: &str) -> (String, String) {
    let s = m["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no student {name} in {m}"));
    (
        s["status"].as_str().unwrap().to_string(),
        s["error"].as_str().unwrap_or("").to_string(),
    )
}

/// Conecta-4 BOOM: a player file built by the bridge against the mock checkout, one that does
/// not compile, a folder with nothing to build, and ready programs that crash, hang, print junk
/// or play illegal moves, in a gauntlet against `ninja1`. Then the same command with `--resume`
/// builds nothing again and plays nothing again; without it, the recorded tournament is kept.
#[test]
fn boom_submissions_that_fail_in_every_way_cost_only_their_own_lines_and_games() {
    let d = tmp("boom");
    let subs = d.join("subs");
    let mock = root().join("tests/bridge_boom_mock");
    copy(&mock.join("player.cpp"), &subs.join("alice/player.cpp"));
    copy(&mock.join("player.h"), &subs.join("alice/player.h"));
    copy(
        &root().join("tests/class_mock/boom_broken/player.cpp"),
        &subs.join("broken/src/player.cpp"),
    );
    std::fs::create_dir_all(subs.join("empty")).unwrap();
    std::fs::write(subs.join("empty/notes.txt"), "nothing here\n").unwrap();
    let m = root().join("tests/mock");
    program(
        &subs.join("crasher/engine"),
        &format!("exec bash {}", m.join("crash.sh").display()),
    );
    program(
        &subs.join("sleeper/engine"),
        &format!("exec bash {}", m.join("silent.sh").display()),
    );
    program(
        &subs.join("illegal/engine"),
        &format!("exec bash {}", m.join("illegal.sh").display()),
    );
    program(
        &subs.join("junky/engine"),
        &format!("exec bash {} {BIN}", m.join("junk.sh").display()),
    );
    let out = d.join("out");
    let args = [
        "--game",
        "connect4boom",
        "class",
        subs.to_str().unwrap(),
        "--course",
        mock.to_str().unwrap(),
        "--format",
        "gauntlet",
        "--builtins",
        "ninja1",
        "--depth",
        "1",
        "--timeout",
        "1500",
        "-o",
        out.to_str().unwrap(),
    ];
    let o = tablero(&args);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("builds: 5 of 7 submissions built\n"),
        "{stdout}"
    );
    let m = manifest(&out);
    assert_eq!(status_of(&m, "alice").0, "built");
    let (st, err) = status_of(&m, "broken");
    assert_eq!(st, "failed");
    assert!(
        err.starts_with("player.cpp:")
            && err.ends_with("error: 'best_column_ever' was not declared in this scope"),
        "the compiler's first error: {err}"
    );
    assert!(
        stdout.contains(&format!("  broken   failed   {err}\n")),
        "{stdout}"
    );
    assert_eq!(
        status_of(&m, "empty"),
        (
            "missing".into(),
            "no player.cpp and no program in the folder".into()
        )
    );
    let log = std::fs::read_to_string(out.join("students/broken/build.log")).unwrap();
    assert!(log.contains("best_column_ever"), "{log}");

    // The gauntlet: ninja1 against each of the five engines that built, one colour-swapped pair.
    let recs = out.join("records/all.jsonl");
    let g = games(&recs);
    assert_eq!(g.len(), 10);
    for (name, reason) in [
        ("crasher", "crash"),
        ("sleeper", "time"),
        ("illegal", "illegal"),
    ] {
        assert_eq!(
            played_by(&g, name),
            (2, vec![reason.to_string(), reason.to_string()]),
            "{name}"
        );
    }
    // Junk lines cost nothing by themselves: junky's games end on the board.
    let junky: Vec<&Value> = g
        .iter()
        .filter(|x| x["first"] == "junky" || x["second"] == "junky")
        .collect();
    assert_eq!(junky.len(), 2);
    for x in junky {
        assert_eq!(x["reason"], "normal", "{x}");
        assert!(x["junk_lines"].as_u64().unwrap() > 0, "{x}");
    }
    assert_eq!(played_by(&g, "alice").0, 2);
    assert!(stdout.contains("Tournament gauntlet of 6 engines (connect4boom), 1 round, 10 games"));
    assert!(stdout.contains("lost off the board: "));
    // The pages: the class's and one per student, the failed ones too.
    for p in [
        "index.html",
        "students/alice.html",
        "students/broken.html",
        "students/empty.html",
        "students/sleeper.html",
    ] {
        assert!(out.join(p).is_file(), "{p}");
    }
    assert!(stdout.contains(" and 7 student pages ("), "{stdout}");

    // Again with --resume: the builds are reused, every game is recorded already. A reused
    // failure's line is read again from its log (as an older tablero might have read it
    // differently: here a stale line planted in the cache).
    let before = std::fs::read(&recs).unwrap();
    let cache = out.join("students/broken/build.json");
    let planted = std::fs::read_to_string(&cache)
        .unwrap()
        .replace(&err, "collect2: error: ld returned 1 exit status");
    assert!(planted.contains("collect2"), "{planted}");
    std::fs::write(&cache, planted).unwrap();
    let mut again = args.to_vec();
    again.push("--resume");
    let o = tablero(&again);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("  alice    built    player.cpp (built before)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("  broken   failed   {err}\n")),
        "{stdout}"
    );
    assert!(
        std::fs::read_to_string(&cache)
            .unwrap()
            .contains("collect2"),
        "the failed build was reused, not built again"
    );
    assert_eq!(
        std::fs::read(&recs).unwrap(),
        before,
        "nothing played again"
    );
    // Without it, the tournament already recorded is not overwritten.
    let o = tablero(&args);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr.contains("records/all.jsonl exists: --resume continues it"),
        "{stderr}"
    );
}

/// Mancala: a bot built by its makefile, the same sources without one (g++), the same bot as a
/// ready program and a copy of it that crashes at its second move, against `greedy`; the
/// schedule cut into two shards (the second run as a Slurm array task by
/// `scripts/cluster/class.sbatch`) and merged by `--report-only` gives the unsharded standings.
#[test]
fn mancala_bots_from_sources_and_programs_and_shards_merged() {
    let d = tmp("mancala");
    let subs = d.join("subs");
    let bot = root().join("tests/class_mock/mancala_bot");
    for f in ["protocol.cpp", "richest.cpp", "richest.h", "makefile"] {
        copy(&bot.join(f), &subs.join("richest-make").join(f));
    }
    for f in ["protocol.cpp", "richest.cpp", "richest.h"] {
        copy(&bot.join(f), &subs.join("richest-gxx/src").join(f));
    }
    // Ready programs: the same bot compiled beforehand, and a copy that aborts at its second
    // move (C++ rather than our Python bot mock: a Python start costs this test seconds).
    gxx(
        &subs.join("ready/bot"),
        &[bot.join("protocol.cpp"), bot.join("richest.cpp")],
        &bot,
    );
    gxx(
        &subs.join("crashy/bot"),
        &[
            bot.join("protocol.cpp"),
            root().join("tests/class_mock/mancala_bot_crash/richest.cpp"),
        ],
        &bot,
    );
    std::fs::create_dir_all(subs.join("nothing")).unwrap();
    std::fs::write(
        subs.join("nothing/makefile"),
        "all:\n\t@echo nothing to do\n",
    )
    .unwrap();
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "--game",
            "mancala",
            "class",
            subs.to_str().unwrap(),
            "--builtins",
            "greedy",
            "--openings",
            "random:2",
            "--seed",
            "7",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = tablero(&args);
        let (stdout, stderr) = text(&o);
        assert!(o.status.success(), "{args:?}\n{stdout}\n{stderr}");
        stdout
    };
    let whole = d.join("whole");
    let stdout = run(&whole, &[]);
    assert!(
        stdout.starts_with("builds: 4 of 5 submissions built\n"),
        "{stdout}"
    );
    for line in [
        "  crashy        built    program bot (",
        "  nothing       failed   the build made no program\n",
        "  ready         built    program bot (",
        "  richest-gxx   built    g++ of 2 .cpp files (",
        "  richest-make  built    make (",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
    let g = games(&whole.join("records/all.jsonl"));
    assert_eq!(g.len(), 20, "5 engines, 10 pairs");
    let (n, lost) = played_by(&g, "crashy");
    assert_eq!((n, lost.len()), (8, 8));
    assert!(lost.iter().all(|r| r == "crash"), "{lost:?}");
    for name in ["richest-make", "richest-gxx", "ready", "greedy"] {
        let (n, lost) = played_by(&g, name);
        assert_eq!(n, 8, "{name}");
        assert!(lost.iter().all(|r| r == "normal"), "{name}: {lost:?}");
    }
    // The two builds of the same bot play the same moves (a deterministic bot).
    let standings = |s: &str| {
        s.lines()
            .skip_while(|l| !l.starts_with("Tournament "))
            .take_while(|l| !l.starts_with("report: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // Two shards in another folder, then the merge.
    let sharded = d.join("sharded");
    let s1 = run(&sharded, &["--shard", "1/2"]);
    assert!(s1.contains("shard 1/2: 10 of 20 games in "), "{s1}");
    assert!(
        !sharded.join("index.html").exists(),
        "a shard writes no report"
    );
    // Shard 2 as a Slurm array task would run it (scripts/cluster/class.sbatch).
    let class_args = format!(
        "--game mancala class {} --builtins greedy --openings random:2 --seed 7 -o {}",
        subs.display(),
        sharded.display()
    );
    let o = Command::new("bash")
        .arg(root().join("scripts/cluster/class.sbatch"))
        .env("TABLERO", BIN)
        .env("CLASS_ARGS", &class_args)
        .env("SLURM_ARRAY_TASK_ID", "2")
        .env("SLURM_ARRAY_TASK_COUNT", "2")
        .env_remove("SLURM_JOB_ID")
        .env_remove("SLURM_ARRAY_TASK_MIN")
        .env_remove("SLURM_ARRAY_TASK_MAX")
        .env("CXXFLAGS", "-O0")
        .output()
        .unwrap();
    let (s2, stderr) = text(&o);
    assert!(o.status.success(), "{s2}\n{stderr}");
    assert!(
        s2.contains("  richest-make  built    make (built before)\n"),
        "{s2}"
    );
    assert!(s2.contains("shard 2/2: 10 of 20 games in "), "{s2}");
    let o = tablero(&[
        "--game",
        "mancala",
        "class",
        "--report-only",
        "-o",
        sharded.to_str().unwrap(),
    ]);
    let (merged, stderr) = text(&o);
    assert!(o.status.success(), "{merged}\n{stderr}");
    assert!(
        stderr.contains("records: 2 files, 20 of 20 games"),
        "{stderr}"
    );
    assert_eq!(standings(&merged), standings(&stdout));
    assert!(sharded.join("students/crashy.html").is_file());
}

/// A build that does not end is stopped at `--build-timeout` with everything it started, and
/// says so.
#[test]
fn a_hanging_build_is_stopped_and_reported() {
    let d = tmp("hang");
    let subs = d.join("subs");
    std::fs::create_dir_all(subs.join("forever")).unwrap();
    // A marker argument to find the build's processes by.
    std::fs::write(
        subs.join("forever/makefile"),
        "all:\n\tsleep 2473 & sleep 2474\n",
    )
    .unwrap();
    let out = d.join("out");
    let o = tablero(&[
        "--game",
        "mancala",
        "class",
        subs.to_str().unwrap(),
        "--build-only",
        "--build-timeout",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert_eq!(
        stdout,
        "builds: 0 of 1 submission built\n  forever  timeout  the build did not finish in 1 s and was stopped\n"
    );
    let log = std::fs::read_to_string(out.join("students/forever/build.log")).unwrap();
    assert!(
        log.ends_with("tablero class: the build did not finish in 1 s and was stopped\n"),
        "{log}"
    );
    // Nothing of it is left running.
    std::thread::sleep(std::time::Duration::from_millis(200));
    for p in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let cmd = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        assert!(
            !cmd.contains("sleep 2473") && !cmd.contains("sleep 2474"),
            "left running: {cmd}"
        );
    }
}

/// Bad input: one line naming what is wrong, exit code 2, before anything is built (clap's own
/// usage errors are its whole message, as for every command).
#[test]
fn usage_errors_are_one_line() {
    let d = tmp("usage");
    let subs = d.join("subs");
    std::fs::create_dir_all(subs.join("ana")).unwrap();
    std::fs::write(subs.join("ana/AIPlayer.cpp"), "").unwrap();
    let s = subs.to_str().unwrap();
    let out = d.join("out");
    let o = out.to_str().unwrap();
    let boom = root().join("tests/bridge_boom_mock");
    let file = d.join("a-file");
    std::fs::write(&file, "").unwrap();
    let s_file = file.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["class", s, "-o", o],
            "tablero: error: --course: the players are built with the 2022-23 Parchís simulator's checkout (e.g. rbnuria/ParchisIA-23; with --option Year=2021-22 the 2021-22 one, e.g. pabloxeo/practica3; with --option Year=2023-24 the 2023-24 one, e.g. rbnuria/ParchisBoom; with --option Year=2024-25 the 2024-25 one, e.g. sechedUGR/practica3); give its folder (the game is parchis: 1 of 1 submissions hold Parchís AIPlayer.cpp files; --game sets it)",
        ),
        (
            vec![
                "class",
                s,
                "--game",
                "parchis",
                "--course",
                boom.to_str().unwrap(),
                "-o",
                o,
            ],
            "not the 2022-23 Parchís simulator's checkout (e.g. rbnuria/ParchisIA-23; with --option Year=2021-22 the 2021-22 one, e.g. pabloxeo/practica3; with --option Year=2023-24 the 2023-24 one, e.g. rbnuria/ParchisBoom; with --option Year=2024-25 the 2024-25 one, e.g. sechedUGR/practica3) (no include/Parchis.h); it looks like the connect4boom course (environment.h): --game connect4boom?",
        ),
        (
            // The checkout says BOOM, the submissions Parchís: asked.
            vec!["class", s, "--course", boom.to_str().unwrap(), "-o", o],
            "(connect4boom), but 1 of 1 submissions hold Parchís AIPlayer.cpp files (parchis): give --game",
        ),
        (
            vec!["class", s, "--builtins", "ninja1,ninja9", "-o", o],
            "tablero: error: --builtins: ",
        ),
        (
            vec!["class", s, "--format", "swiss", "-o", o],
            "tablero: error: --format: 'swiss' is not a format (round-robin, gauntlet)",
        ),
        (vec!["class", "--report-only", "-o", o], "class.json: "),
        (
            vec!["--game", "mancala", "class", s, "-o", s_file],
            "a-file: not a folder",
        ),
    ];
    for (args, want) in cases {
        let o = tablero(&args);
        let (stdout, stderr) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
    // clap's own message (the whole of it, as for every command) names the missing flag.
    let o2 = tablero(&["class", s]);
    let (_, stderr) = text(&o2);
    assert_eq!(o2.status.code(), Some(2));
    assert!(
        stderr.starts_with(
            "error: the following required arguments were not provided:\n  --output <OUTPUT>\n"
        ),
        "{stderr}"
    );
    // A submission named like a built-in player, and a gauntlet without built-ins.
    std::fs::create_dir_all(subs.join("ninja1")).unwrap();
    let o2 = tablero(&["--game", "mancala", "class", s, "-o", o]);
    let (_, stderr) = text(&o2);
    assert!(
        stderr.contains(
            "the submission 'ninja1' has the name of a built-in player; rename its folder"
        ),
        "{stderr}"
    );
    std::fs::remove_dir_all(subs.join("ninja1")).unwrap();
    let o3 = tablero(&[
        "--game",
        "mancala",
        "class",
        s,
        "--format",
        "gauntlet",
        "--builtins",
        "none",
        "-o",
        o,
    ]);
    let (_, stderr) = text(&o3);
    assert!(
        stderr.contains(
            "--format gauntlet: the students play the built-ins; name some with --builtins"
        ),
        "{stderr}"
    );
}

/// Copies the folder `from` into `to`, whole.
fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            copy(&p, &dest);
        }
    }
}

/// Replaces `from` by `to` in the file `p` (which must contain it).
fn edit(p: &Path, from: &str, to: &str) {
    let t = std::fs::read_to_string(p).unwrap();
    assert!(t.contains(from), "{} has no '{from}'", p.display());
    std::fs::write(p, t.replacen(from, to, 1)).unwrap();
}

/// A submission that is a whole copy of the course repository builds with its own headers, for
/// every game with a bridge. Parchís (our mock checkout, `tests/class_mock/parchis_course/`): a
/// copy's `src/AIPlayer.cpp` calls a search its own `include/AIPlayer.h` declares, as real
/// students' copies do (`'Poda_AlfaBeta' was not declared in this scope` when built with the
/// course's header); its own extra header is used, and a change in its header is a new build.
/// Conecta-4 BOOM: a copy of the (flat) simulator with its own `player.h`.
#[test]
fn whole_copies_of_the_course_repository_build_with_their_own_headers() {
    let d = tmp("copies");
    let course = root().join("tests/class_mock/parchis_course");
    let subs = d.join("parchis");
    copy(
        &course.join("src/AIPlayer.cpp"),
        &subs.join("ana/AIPlayer.cpp"),
    );
    copy(
        &course.join("include/AIPlayer.h"),
        &subs.join("ana/AIPlayer.h"),
    );
    let ben = subs.join("ben/practica3");
    copy_tree(&course, &ben);
    edit(
        &ben.join("include/AIPlayer.h"),
        "    virtual void think(",
        "    double Poda_AlfaBeta(int profundidad) const;\n    virtual void think(",
    );
    edit(
        &ben.join("src/AIPlayer.cpp"),
        "    dice = 1;\n}",
        "    dice = Poda_AlfaBeta(6) > 0 ? 1 : 2;\n}\n\n\
         double AIPlayer::Poda_AlfaBeta(int profundidad) const { return profundidad; }",
    );
    // cleo's copy adds a header of its own.
    let cleo = subs.join("cleo/P3");
    copy_tree(&course, &cleo);
    std::fs::write(
        cleo.join("include/Pesos.h"),
        "#pragma once\nconst int PROFUNDIDAD_ALFABETA = 6;\n",
    )
    .unwrap();
    edit(
        &cleo.join("src/AIPlayer.cpp"),
        "    dice = 1;",
        "    dice = PROFUNDIDAD_ALFABETA > 0 ? 1 : 2;",
    );
    edit(
        &cleo.join("src/AIPlayer.cpp"),
        "#include \"AIPlayer.h\"",
        "#include \"AIPlayer.h\"\n#include \"Pesos.h\"",
    );
    let out = d.join("parchis-out");
    let args = [
        "--game",
        "parchis",
        "class",
        subs.to_str().unwrap(),
        "--course",
        course.to_str().unwrap(),
        "--build-only",
        "-o",
        out.to_str().unwrap(),
    ];
    let o = tablero(&args);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let log = |n: &str| {
        std::fs::read_to_string(out.join(format!("students/{n}/build.log"))).unwrap_or_default()
    };
    assert_eq!(
        lines[0],
        "builds: 3 of 3 submissions built",
        "{stdout}\n{}\n{}",
        log("ben"),
        log("cleo")
    );
    assert!(
        lines[1].starts_with("  ana   built    AIPlayer.cpp ("),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with("  ben   built    practica3/src/AIPlayer.cpp ("),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with("  cleo  built    P3/src/AIPlayer.cpp ("),
        "{stdout}"
    );
    // Another header in the copy is another build; the unchanged submission is reused.
    edit(
        &ben.join("include/AIPlayer.h"),
        "class AIPlayer",
        "// the student's last change\nclass AIPlayer",
    );
    let o = tablero(&args);
    let (stdout, _) = text(&o);
    assert!(
        stdout.contains("  ana   built    AIPlayer.cpp (built before)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  ben   built    practica3/src/AIPlayer.cpp (")
            && !stdout.contains("practica3/src/AIPlayer.cpp (built before)"),
        "{stdout}"
    );

    // Conecta-4 BOOM: the simulator is one folder, so a copy's player.h sits next to its player.
    let boom = root().join("tests/bridge_boom_mock");
    let subs = d.join("boom");
    let carl = subs.join("carl/Conecta4Boom_linux");
    copy_tree(&boom, &carl);
    edit(
        &carl.join("player.h"),
        "    void Perceive(",
        "    int Valoracion() const;\n    void Perceive(",
    );
    edit(
        &carl.join("player.cpp"),
        "void Player::Perceive(",
        "int Player::Valoracion() const { return jugador_; }\n\nvoid Player::Perceive(",
    );
    let out = d.join("boom-out");
    let o = tablero(&[
        "--game",
        "connect4boom",
        "class",
        subs.to_str().unwrap(),
        "--course",
        boom.to_str().unwrap(),
        "--build-only",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with(
            "builds: 1 of 1 submission built\n  carl  built    Conecta4Boom_linux/player.cpp ("
        ),
        "{stdout}"
    );
}

/// 5-en-Raya: the two files, a whole copy of the course checkout, and a file that does not
/// compile, built against the bridge's MOCK checkout (`tests/bridge_enraya_mock/`: made-up
/// rules, not the game); the class is told its game by the checkout's `include/Tablero.hpp`. Then a round with a built-in: where the mock core and tablero's rules part, the game
/// ends as the student's loss with the bridge's "rule disagreement" line in the report, never a
/// silent result.
#[test]
fn enraya_submissions_build_and_a_rule_disagreement_is_said() {
    let d = tmp("enraya");
    let mock = root().join("tests/bridge_enraya_mock");
    let subs = d.join("subs");
    for f in ["AgenteEstudiante.cpp", "AgenteEstudiante.hpp"] {
        copy(
            &mock.join("Comportamiento_Agente").join(f),
            &subs.join("ana").join(f),
        );
    }
    copy_tree(&mock, &subs.join("ben/practica3"));
    std::fs::create_dir_all(subs.join("cleo")).unwrap();
    std::fs::write(subs.join("cleo/AgenteEstudiante.cpp"), "int broken(\n").unwrap();
    let out = d.join("out");
    let o = tablero(&[
        "class",
        subs.to_str().unwrap(),
        "--course",
        mock.to_str().unwrap(),
        "--build-only",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("(enraya: the checkout ") && stderr.contains(" has include/Tablero.hpp; "),
        "{stderr}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "builds: 2 of 3 submissions built", "{stdout}");
    assert!(
        lines[1].starts_with("  ana   built    AgenteEstudiante.cpp ("),
        "{stdout}"
    );
    assert!(
        lines[2]
            .starts_with("  ben   built    practica3/Comportamiento_Agente/AgenteEstudiante.cpp ("),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with("  cleo  failed   AgenteEstudiante.cpp:1:"),
        "{stdout}"
    );
    // One round against a built-in on 3 x 3, N = 3: the mock's rules are not the game's, so
    // the students' games end where the two part, each loss saying so (the bridge's refusal of
    // a position, or its `bestmove (none)` in a game its core has ended).
    let o = tablero(&[
        "class",
        subs.to_str().unwrap(),
        "--course",
        mock.to_str().unwrap(),
        "--builtins",
        "random",
        "--rounds",
        "1",
        "--depth",
        "2",
        "--option",
        "Rows=3",
        "--option",
        "Columns=3",
        "--option",
        "InARow=3",
        "--resume",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Tournament round-robin of 3 engines (enraya), 1 round, 6 games"),
        "{stdout}"
    );
    assert!(stderr.contains(" lost by illegal: "), "{stderr}");
    for l in stderr.lines().filter(|l| l.contains(" lost by ")) {
        assert!(l.contains("rule disagreement"), "{l}\n{stderr}");
    }
    let games = games(&out.join("records/all.jsonl"));
    assert_eq!(games.len(), 6, "{stdout}");
}
