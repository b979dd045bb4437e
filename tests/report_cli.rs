//! `tablero report` from the command line: the table equals the one `tablero match` printed,
//! records files are merged (duplicates dropped, missing games named), the records a match wrote
//! before records had a header (versions 1 and 2) still load, merge and resume, gzip-compressed
//! records read as the plain ones (a run does not continue them), and bad input is one line on
//! stderr with exit code 2 (and a typed `ReportError` of its own kind from the library).

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;
use common::{BIN, gzip, refused, stdout, tmp};

fn tablero(args: &[&str], paths: &[&PathBuf]) -> Output {
    Command::new(BIN).args(args).args(paths).output().unwrap()
}

/// A successful command's stdout, then its stderr (the notes about the files).
fn both(o: &Output) -> String {
    format!("{}{}", stdout(o), String::from_utf8_lossy(&o.stderr))
}

const MATCH: &[&str] = &[
    "match",
    "--game",
    "mancala",
    "--engine1",
    "builtin:random",
    "--engine2",
    "builtin:greedy",
    "--openings",
    "random:3",
    "--games",
    "8",
    "--sprt",
    "elo0=0 elo1=50",
    "--records",
];

/// The game lines of new-format records as the lines a match wrote before the records had a
/// header: version 2 (the settings in every line, no format) or version 1 (no settings).
fn older_lines(header: &Value, games: &[&str], version: u64) -> String {
    let mut settings = header["settings"].clone();
    settings.as_object_mut().unwrap().remove("format");
    if settings.get("sprt").is_none() {
        settings["sprt"] = Value::Null;
    }
    games
        .iter()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            for k in ["kind", "fingerprint", "round"] {
                o.remove(k);
            }
            if version == 2 {
                o.insert("version".into(), 2.into());
                o.insert("settings".into(), settings.clone());
            }
            format!("{v}\n")
        })
        .collect()
}

#[test]
fn the_table_is_the_referees_and_files_merge() {
    let rec = tmp("all.jsonl");
    let played = stdout(&tablero(MATCH, &[&rec]));
    let all = std::fs::read_to_string(&rec).unwrap();
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 9, "a header and 8 games");
    let header: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(header["kind"], "match");
    assert_eq!(header["version"], 1);
    assert_eq!(header["settings"]["format"], "match");
    assert_eq!(header["settings"]["sprt"]["elo1"], 50.0);
    assert_eq!(header["settings"]["options"][0][0], "Pits");
    let first: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(first["kind"], "match-game");
    assert_eq!(first["fingerprint"], header["fingerprint"]);

    let o = tablero(&["report"], &[&rec]);
    let report = stdout(&o);
    assert!(
        report.starts_with(&played),
        "report:\n{report}\nmatch:\n{played}"
    );
    // --times: each engine's move times under the same table; every recorded move is counted
    // once (Mancala's extra turns give a side several moves in a row).
    let timed = stdout(&tablero(&["report", "--times"], &[&rec]));
    let table = timed
        .strip_prefix(report.as_str())
        .unwrap_or_else(|| panic!("the table first:\n{timed}"));
    assert!(
        table.starts_with("move times in ms over 8 games (nearest rank):\nengine  "),
        "{table}"
    );
    let recorded: usize = lines[1..]
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["moves"]
                .as_array()
                .unwrap()
                .len()
        })
        .sum();
    let counted: usize = table
        .lines()
        .skip(2)
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(counted, recorded, "{table}");
    refused(
        &tablero(&["report", "--times", "-o", "x.html"], &[&rec]),
        "--times adds a table to the text report; leave out -o",
    );
    // What is said about the files is on stderr (docs/commands.md, "Output").
    assert!(String::from_utf8_lossy(&o.stderr).contains("records: 1 file, 8 games"));
    assert!(report.contains("SPRT elo0=0 elo1=50"));

    // Two shards overlapping in game 3 and missing games 5 and 6.
    let a = tmp("a.jsonl");
    let b = tmp("b.jsonl");
    std::fs::write(&a, lines[..5].join("\n") + "\n").unwrap();
    std::fs::write(
        &b,
        format!("{}\n{}\n{}\n{}\n", lines[0], lines[4], lines[5], lines[8]),
    )
    .unwrap();
    // Games missing: refused as records cut short, reported with --partial.
    refused(
        &tablero(&["report"], &[&a, &b]),
        "6 of 8 games, missing 5-6 (2)",
    );
    let merged = both(&tablero(&["report", "--partial"], &[&a, &b]));
    assert!(merged.contains(", 6 games\n"), "{merged}");
    assert!(merged.contains("duplicates dropped: 1 line repeating a game number already read\n"));
    // A duplicate that disagrees with the game kept is pointed out.
    let c = tmp("c.jsonl");
    let mut other: Value = serde_json::from_str(lines[3]).unwrap();
    other["moves"].as_array_mut().unwrap().pop();
    std::fs::write(&c, format!("{}\n{other}\n", lines[0])).unwrap();
    let conflict = both(&tablero(&["report", "--partial"], &[&a, &c]));
    assert!(
        conflict.contains("(1 with other moves or result than the one kept, the first read)"),
        "{conflict}"
    );
    assert!(merged.contains("missing games: 5-6 (2)"), "{merged}");
    // Pairs 0 and 1 are complete; games 4 and 7 lack their partners.
    let pairs: Vec<u64> = {
        let l = merged.lines().find(|l| l.starts_with("pairs by")).unwrap();
        let inner = &l[l.find('[').unwrap() + 1..l.find(']').unwrap()];
        inner.split(", ").map(|x| x.parse().unwrap()).collect()
    };
    assert_eq!(pairs.iter().sum::<u64>(), 2);

    // Version 2 records (the settings in every line) read as the same match, alone or merged
    // with the current format.
    let v2 = tmp("v2.jsonl");
    std::fs::write(&v2, older_lines(&header, &lines[1..], 2)).unwrap();
    assert_eq!(stdout(&tablero(&["report"], &[&v2])), report);
    let merged = both(&tablero(&["report"], &[&v2, &a]));
    assert!(merged.contains("records: 2 files, 8 games"), "{merged}");

    // Version 1 records (no version, no settings) still load, and resume: the file is
    // rewritten in the current format and continued.
    let old = tmp("old.jsonl");
    std::fs::write(&old, older_lines(&header, &lines[1..5], 1)).unwrap();
    let r = both(&tablero(&["report"], &[&old]));
    assert!(r.contains("older referee"), "{r}");
    assert!(
        !r.contains("SPRT"),
        "an old record does not say an SPRT ran"
    );
    let mut resume: Vec<&str> = MATCH[..MATCH.len() - 1].to_vec();
    resume.push("--resume");
    let out = tablero(&resume, &[&old]);
    let resumed = stdout(&out);
    assert!(resumed.starts_with(&played), "{resumed}");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("rewritten in the current format (4 games kept)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let now = std::fs::read_to_string(&old).unwrap();
    assert_eq!(now.lines().next(), Some(lines[0]), "the same header");
    assert_eq!(now.lines().count(), 9);
    // ... and can be merged with the other records of the same match.
    stdout(&tablero(&["report"], &[&a, &old]));
}

#[test]
fn gzip_records_read_as_the_plain_ones_and_a_run_does_not_continue_them() {
    let rec = tmp("plain.jsonl");
    stdout(&tablero(MATCH, &[&rec]));
    let plain = std::fs::read(&rec).unwrap();
    let report = stdout(&tablero(&["report"], &[&rec]));

    let gz = tmp("records.jsonl.gz");
    std::fs::write(&gz, gzip(&plain)).unwrap();
    assert_eq!(stdout(&tablero(&["report"], &[&gz])), report);
    // Two members, as `cat a.gz b.gz` makes them, are one file.
    let cut = plain.len() / 2;
    let two = tmp("two-members.jsonl.gz");
    std::fs::write(&two, [gzip(&plain[..cut]), gzip(&plain[cut..])].concat()).unwrap();
    assert_eq!(stdout(&tablero(&["report"], &[&two])), report);

    // A gzip file cut short is refused, not read as the games before the cut.
    let torn = tmp("torn.jsonl.gz");
    let whole = gzip(&plain);
    std::fs::write(&torn, &whole[..whole.len() - 20]).unwrap();
    refused(
        &tablero(&["report", "--partial"], &[&torn]),
        "torn.jsonl.gz: not a whole gzip file",
    );

    // A run appends to its records: it does not continue a compressed file, and leaves it.
    let mut resume: Vec<&str> = MATCH[..MATCH.len() - 1].to_vec();
    resume.push("--resume");
    refused(&tablero(&resume, &[&gz]), "is gzip-compressed");
    assert_eq!(std::fs::read(&gz).unwrap(), gzip(&plain));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let rec = tmp("bad.jsonl");
    stdout(&tablero(MATCH, &[&rec]));
    let all = std::fs::read_to_string(&rec).unwrap();
    let missing = tmp("does-not-exist.jsonl");
    refused(&tablero(&["report"], &[&missing]), "does-not-exist.jsonl");

    let torn = tmp("torn.jsonl");
    let two: Vec<&str> = all.lines().take(3).collect();
    std::fs::write(
        &torn,
        format!("{}\n{}\n{}\n{{\"game\":2,\"pa", two[0], two[1], two[2]),
    )
    .unwrap();
    refused(&tablero(&["report"], &[&torn]), "torn.jsonl:4");

    let junk = tmp("junk.jsonl");
    std::fs::write(&junk, "{\"hello\": 1}\n").unwrap();
    refused(&tablero(&["report"], &[&junk]), "junk.jsonl:1");

    let empty = tmp("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    refused(&tablero(&["report"], &[&empty]), "no records");

    // Another seed is another match.
    let other = tmp("other.jsonl");
    let mut args = MATCH.to_vec();
    args.splice(1..1, ["--seed", "9"]);
    stdout(&tablero(&args, &[&other]));
    refused(&tablero(&["report"], &[&rec, &other]), "seed 1 vs 9");

    let out = PathBuf::from("/nonexistent-dir/report.html");
    refused(
        &tablero(&["report", "--html", out.to_str().unwrap()], &[&rec]),
        "-o /nonexistent-dir/report.html",
    );
}

/// The library's report refuses each wrong request with its own [`ReportError`] kind, and a
/// page that cannot be written leaves nothing behind.
#[test]
fn each_refusal_is_its_own_kind() {
    use tablero::report::{self, GameWhy, ReportError};
    let rec = tmp("kinds.jsonl");
    stdout(&tablero(MATCH, &[&rec]));
    let recs = std::slice::from_ref(&rec);
    let page = tmp("kinds.html");
    let _ = std::fs::remove_file(&page);

    let e = report::run_any(recs, Some(&page), false, None, false, true).unwrap_err();
    assert!(matches!(e, ReportError::TimesWithPage), "{e:?}");
    assert!(!page.exists(), "refused before any file is made");
    let e = report::run_any(recs, None, true, None, false, false).unwrap_err();
    assert!(matches!(e, ReportError::TournamentFlags), "{e:?}");
    let e = report::run_any(recs, None, false, Some(("x".into(), 0.0)), false, false).unwrap_err();
    assert!(matches!(e, ReportError::TournamentFlags), "{e:?}");
    let nowhere = PathBuf::from("/nonexistent-dir/kinds.html");
    let e = report::run_any(recs, Some(&nowhere), false, None, false, false).unwrap_err();
    assert!(
        matches!(&e, ReportError::Output { path, .. } if *path == nowhere),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("-o /nonexistent-dir/kinds.html: "),
        "{e}"
    );
    let e = report::load(&[tmp("kinds-missing.jsonl")]).unwrap_err();
    assert!(matches!(e, ReportError::Records(_)), "{e:?}");

    // Recorded options this game cannot take, and openings the rules refuse.
    let good = report::load(recs).unwrap();
    let mut r = good.clone();
    r.settings.as_mut().unwrap().options = vec![("Pits".into(), 99)];
    let e = report::times::move_times(&r).unwrap_err();
    assert!(matches!(e, ReportError::Variant(_)), "{e:?}");
    assert!(
        e.to_string().starts_with("recorded variant options: "),
        "{e}"
    );
    let mut r = good.clone();
    r.games[1].record.opening_moves = vec!["9".into()];
    let e = report::times::move_times(&r).unwrap_err();
    match &e {
        ReportError::Game {
            file,
            index,
            why: GameWhy::OpeningMove { text, .. },
        } => {
            assert_eq!(
                (file.as_str(), *index, text.as_str()),
                (r.games[1].source.as_str(), 1, "9")
            );
        }
        e => panic!("{e:?}"),
    }
    let mut r = good.clone();
    r.games[0].record.opening_base = "fen not a board".into();
    let e = report::times::move_times(&r).unwrap_err();
    assert!(
        matches!(
            e,
            ReportError::Game {
                why: GameWhy::Start(_),
                index: 0,
                ..
            }
        ),
        "{e:?}"
    );
    // The page shows such a game's error in its place and the other games as they are.
    let html = report::html::page(&r).expect("a page");
    assert!(
        html.contains("opening fen: "),
        "the game's error is on the page"
    );

    // A tournament's records: the standings, not a match's views.
    let tour = tmp("kinds-tournament.jsonl");
    let o = Command::new(BIN)
        .args([
            "--game",
            "connect4",
            "tournament",
            "--engine",
            "a=builtin:random",
            "--engine",
            "b=builtin:greedy",
            "--rounds",
            "1",
            "--records",
        ])
        .arg(&tour)
        .output()
        .unwrap();
    stdout(&o);
    let tours = std::slice::from_ref(&tour);
    let e = report::load(tours).unwrap_err();
    assert!(matches!(e, ReportError::Tournament), "{e:?}");
    let e = report::run_any(tours, None, false, None, false, true).unwrap_err();
    assert!(matches!(e, ReportError::TimesOfTournament), "{e:?}");
    let e = report::run_any(
        tours,
        None,
        false,
        Some(("nobody".into(), 0.0)),
        false,
        false,
    )
    .unwrap_err();
    assert!(
        matches!(&e, ReportError::Anchor(n) if n == "nobody"),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "--anchor: no engine named 'nobody'");
}
