//! The `Year` option of `connect4boom` end to end: `uci` lists it as a combo, `setoption` takes
//! its names and refuses others, DesConecta-4 BOOM (2018-19) is played once it is set (four in a
//! row loses), and `match --option Year=2018-19` sets the referee's rules as well as the
//! engines'. The rules themselves are checked against the 2018-19 core in `core_traces.rs`.

use crate::common;

use std::process::Command;

use common::BIN;
use serde_json::Value;
use tablero::core::game::{Game, Outcome, Side};
use tablero::games::boom::{self, Boom, Year};

/// A whole protocol script through `tablero --game connect4boom`; stdout.
fn script(input: &str) -> String {
    common::script("connect4boom", input)
}

#[test]
fn uci_lists_the_year_and_setoption_takes_only_its_names() {
    let out = script("uci\nsetoption name Year value 2019-20\n");
    assert!(
        out.lines()
            .any(|l| l == "option name Year type combo default 2020-21 var 2018-19 var 2020-21"),
        "{out}"
    );
    assert!(
        out.contains("setoption Year: unknown value '2019-20': Year takes one of 2018-19, 2020-21"),
        "{out}"
    );
}

#[test]
fn in_2018_19_four_in_a_row_loses_and_the_engine_avoids_it() {
    // x to move at movement 7 (x plays the odd movements in 2018-19): column 4 completes x's
    // four, which loses.
    let out = script(
        "setoption name Year value 2018-19\nposition fen 7/7/7/7/7/7/xxx1ooo x 7 moves 4\nd\n\
         position fen 7/7/7/7/7/7/xxx1ooo x 7\ngo depth 6\n",
    );
    assert!(out.contains("o has won: x has four in a row"), "{out}");
    assert!(out.contains("game over: second player wins"), "{out}");
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    assert_ne!(best, "4", "{out}");
    // The same position is no 2020-21 position: movement 7 is o's there.
    let out = script("position fen 7/7/7/7/7/7/xxx1ooo x 7\n");
    assert!(out.contains("movement 7 is played by 'o'"), "{out}");
}

#[test]
fn match_option_year_sets_the_referees_rules() {
    let records = common::fresh("year-match.jsonl");
    let o = Command::new(BIN)
        .args([
            "match",
            "--game",
            "connect4boom",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:random",
            "--option",
            "Year=2018-19",
            "--games",
            "4",
            "--records",
        ])
        .arg(&records)
        .output()
        .expect("run match");
    common::stdout(&o);
    let text = std::fs::read_to_string(&records).expect("records");
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    assert!(header.contains(r#""options":[["Year",2018]]"#), "{header}");
    // Every game, replayed under 2018-19's rules, ends where the referee ended it, with the
    // referee's result.
    let config = boom::Config::of(Year::Y2018);
    let mut n = 0;
    for line in lines {
        let g: Value = serde_json::from_str(line).expect("a game record");
        assert_eq!(g["reason"], "normal", "{line}");
        let mut s = Boom::start(&config);
        let opening = g["opening"]["moves"].as_array().expect("opening moves");
        let played = g["moves"].as_array().expect("moves");
        let moves = opening.iter().chain(played.iter().map(|m| &m["move"]));
        for m in moves {
            assert!(s.outcome().is_none(), "a move after the end: {line}");
            let m = s
                .parse_move(m.as_str().expect("a move"))
                .expect("a legal move");
            s = s.apply(m);
        }
        let result = match s.outcome() {
            Some(Outcome::Win(Side::First)) => "1-0",
            Some(Outcome::Win(Side::Second)) => "0-1",
            Some(Outcome::Draw) => "1/2-1/2",
            None => panic!("the game did not end: {line}"),
        };
        assert_eq!(g["result"], result, "{line}");
        n += 1;
    }
    assert_eq!(n, 4, "{text}");
    let o = Command::new(BIN)
        .args([
            "match",
            "--game",
            "connect4boom",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:random",
            "--option",
            "Year=1999",
            "--games",
            "2",
        ])
        .output()
        .expect("run match");
    common::refused(&o, "Year");
}
