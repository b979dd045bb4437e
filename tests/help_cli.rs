//! `--help` agrees with docs/commands.md: every command of the help has its row in the page's
//! table and the table names no other; every flag a row shows is one its command takes; no help
//! offers `--game … [default: parchis]` (commands that cannot tell the game ask for it, the
//! others take it from their input or take none); every engine flag names all the engine
//! forms, `mancala-bot:PATH` included; every help that takes `--game` names every registered
//! game, and the first line names them all by title; and a file a command writes is `-o, --output` everywhere,
//! the old spellings kept as aliases.

use crate::common;

use std::collections::BTreeSet;
use std::process::Command;

use common::BIN;

fn help(args: &[&str]) -> String {
    let o = Command::new(BIN)
        .args(args)
        .arg("--help")
        .output()
        .expect("tablero runs");
    assert!(o.status.success(), "{args:?} --help");
    String::from_utf8(o.stdout).expect("UTF-8 help")
}

/// The commands `tablero --help` lists (without `help`).
fn commands() -> Vec<String> {
    let text = help(&[]);
    let list = text
        .split("Commands:\n")
        .nth(1)
        .and_then(|t| t.split("\n\n").next())
        .expect("a Commands: section");
    list.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The first cells of docs/commands.md's table of commands.
fn table_rows() -> Vec<String> {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands.md"))
        .expect("docs/commands.md");
    page.lines()
        .filter(|l| l.starts_with("| `tablero"))
        .map(|l| {
            let cell = l.trim_start_matches("| `").split('`').next().unwrap_or("");
            cell.to_string()
        })
        .collect()
}

/// The command a row is about (`tablero --game G solve …` is `solve`; the protocol loop is "").
fn command_of(row: &str) -> String {
    let mut words = row.split_whitespace().skip(1);
    let mut c = String::new();
    while let Some(w) = words.next() {
        if w == "--game" || w == "--player" {
            words.next();
            continue;
        }
        if w.starts_with('-') || w.starts_with('[') {
            break;
        }
        c = w.to_string();
        break;
    }
    c
}

#[test]
fn every_command_has_its_row_and_every_row_its_command() {
    let helped: BTreeSet<String> = commands().into_iter().collect();
    let rows = table_rows();
    let documented: BTreeSet<String> = rows
        .iter()
        .map(|r| command_of(r))
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        helped, documented,
        "commands in --help vs docs/commands.md's table"
    );
    assert!(helped.contains("mancala-bot-adapter"));
}

#[test]
fn every_flag_a_row_shows_is_one_its_command_takes() {
    for row in table_rows() {
        let cmd = command_of(&row);
        let text = if cmd.is_empty() {
            help(&[])
        } else {
            help(&[cmd.as_str()])
        };
        for w in row.split(|c: char| c.is_whitespace() || "[]|`\\".contains(c)) {
            let flag = w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
            if !flag.starts_with('-') || flag.len() < 2 {
                continue;
            }
            // The flag as a whole word of the help (not the start of a longer one).
            let listed = text.match_indices(flag).any(|(i, _)| {
                !text[i + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
            });
            assert!(
                listed,
                "docs/commands.md shows `{flag}` for `{row}`, which `tablero {cmd} --help` does not list"
            );
        }
    }
}

#[test]
fn no_help_offers_a_game_by_default() {
    let mut all = vec![help(&[])];
    for c in commands() {
        let text = help(&[c.as_str()]);
        assert!(
            !text.contains("[default: parchis]"),
            "tablero {c} --help:\n{text}"
        );
        if [
            "bench",
            "report",
            "analyse",
            "mancala-bot",
            "mancala-bot-adapter",
        ]
        .contains(&c.as_str())
        {
            assert!(!text.contains("--game"), "`{c}` takes no --game:\n{text}");
        }
        all.push(text);
    }
    assert!(!all[0].contains("[default: parchis]"));
}

#[test]
fn every_game_flag_names_every_registered_game() {
    use tablero::games::GameKind;
    let top = help(&[]);
    let first = top.lines().next().unwrap_or("");
    for k in GameKind::ALL {
        assert!(first.contains(k.title()), "{} in: {first}", k.title());
    }
    let mut checked = 0;
    for c in std::iter::once(String::new()).chain(commands()) {
        let args: Vec<&str> = if c.is_empty() {
            vec![]
        } else {
            vec![c.as_str()]
        };
        let text = help(&args);
        // The flag's help runs from its line to the next flag's.
        let Some(at) = text.find("--game <GAME>") else {
            continue;
        };
        let flag = text[at..].split("\n  -").next().unwrap_or("");
        for k in GameKind::ALL {
            assert!(
                flag.contains(k.name()),
                "tablero {c} --help's --game lacks {}:\n{flag}",
                k.name()
            );
        }
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} helps take --game");
    let analyse = help(&["analyse"]);
    let depth = analyse[analyse.find("--depth <DEPTH>").expect("analyse --depth")..]
        .split("\n  -")
        .next()
        .unwrap_or("");
    for k in GameKind::ALL {
        assert!(
            depth.contains(k.name()),
            "analyse --depth's defaults lack {}:\n{depth}",
            k.name()
        );
    }
}

#[test]
fn every_engine_flag_names_every_engine_form() {
    for (cmd, flag) in [
        ("match", "--engine1"),
        ("tournament", "--engine"),
        ("tune", "--engine"),
        ("analyse", "--engine"),
        ("gui", "--engine"),
    ] {
        let text = help(&[cmd]);
        // The option's entry: its line under Options (and the next two, if it wraps).
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("  ") && l.trim_start().starts_with(&format!("{flag} <")))
            .unwrap_or_else(|| panic!("{cmd} --help has {flag}"));
        let entry = lines[at..(at + 3).min(lines.len())].join(" ");
        for form in ["builtin:", "tcp:HOST:PORT", "mancala-bot:PATH"] {
            assert!(entry.contains(form), "{cmd} {flag}: no {form} in: {entry}");
        }
    }
}

#[test]
fn files_written_are_dash_o_everywhere_and_the_old_spellings_still_work() {
    for cmd in ["class", "analyse", "render", "report", "tune", "learn"] {
        let text = help(&[cmd]);
        assert!(text.contains("  -o, --output <"), "{cmd} --help:\n{text}");
    }
    assert!(help(&["report"]).contains("[alias: --html]"));
    assert!(help(&["tune"]).contains("[alias: --out]"));
    assert!(help(&["learn"]).contains("[alias: --out]"));
    // The old spellings parse (a missing value, not an unknown flag).
    for (cmd, old) in [("report", "--html"), ("tune", "--out"), ("learn", "--out")] {
        let o = Command::new(BIN).args([cmd, old]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("unexpected argument"), "{cmd} {old}: {err}");
    }
}
