//! The `Year` option of `parchis` end to end: `uci` lists it as a combo, `setoption` takes its
//! names and refuses others, Parchís 2021-22 is played once it is set (four pieces a colour,
//! colours in turn, a die 3), and so are 2023-24 (the special die whose effect the power bar
//! picks) and 2024-25 (two pieces a colour, a player's two colours in turn, doubled dice and the
//! yin-yang die), a state string of one year is refused under the others, and `match --option
//! Year=2021-22` (`2023-24`, `2024-25`) sets the referee's rules as well as the engines'. The
//! rules themselves are checked against the 2021-22, 2023-24 and 2024-25 cores in
//! `core_traces.rs`.

use crate::common;

use std::process::Command;

use common::BIN;
use serde_json::Value;
use tablero::core::game::{FenError, Game, Outcome, Side};
use tablero::games::parchis::{Parchis, ParchisConfig, Year};

/// A whole protocol script through `tablero --game parchis`; stdout.
fn script(input: &str) -> String {
    common::script("parchis", input)
}

const START_2021: &str = "c y 1 h,n4,n13,n17/h,n21,n30,n34/h,n38,n47,n51/h,n55,n64,n68 \
    123456:-:-/123456:-:- 123456:-:-/123456:-:- 000000 - 0,0,0,0 - - -/-/-";

#[test]
fn uci_lists_the_year_and_setoption_takes_only_its_names() {
    let out = script("uci\nsetoption name Year value 2020-21\n");
    assert!(
        out.lines().any(|l| l
            == "option name Year type combo default 2022-23 var 2021-22 var 2022-23 var 2023-24 var 2024-25"),
        "{out}"
    );
    assert!(
        out.contains(
            "setoption Year: unknown value '2020-21': Year takes one of 2021-22, 2022-23, 2023-24, 2024-25"
        ),
        "{out}"
    );
}

#[test]
fn in_2021_22_the_colours_move_in_turn_with_their_own_dice() {
    // Yellow plays a 3 (no 3 in 2022-23), then it is blue's turn with all of blue's dice.
    let out = script("setoption name Year value 2021-22\nposition startpos moves y1:3\nd\nmoves\n");
    assert!(
        out.contains("Parchís 2021-22 — turn 2, blue to move (player 1)"),
        "{out}"
    );
    assert!(out.contains("  yellow dice [12456]"), "{out}");
    assert!(
        out.contains(
            "fen: c b 2 h,n7,n13,n17/h,n21,n30,n34/h,n38,n47,n51/h,n55,n64,n68 \
             12456:-:-/123456:-:- 123456:-:-/123456:-:- 000000 - 0,0,0,0 - - y/-/-"
        ),
        "{out}"
    );
    let moves = out
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap_or_else(|| panic!("no moves line: {out}"));
    // Only blue's pieces, every die 1 to 6, the piece at home only with a 5.
    assert!(moves.split(' ').all(|m| m.starts_with('b')), "{moves}");
    assert_eq!(moves.split(' ').count(), 19, "{moves}");
    assert!(moves.contains("b0:5") && moves.contains("b2:3"), "{moves}");
    // A search answers with one of them.
    let out =
        script("setoption name Year value 2021-22\nposition startpos moves y1:3\ngo depth 3\n");
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    assert!(moves.split(' ').any(|m| m == best), "{best} not in {moves}");
}

const START_2023: &str = "b 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456P:0:- \
    12456P:0:- 000000 - 0,0,0,0 - - -/-/-";

#[test]
fn in_2023_24_the_power_bar_picks_what_the_special_die_does() {
    // From the start the bar is empty: the special die is a mushroom of 7 boxes (y0 4 -> 11) and
    // passes the turn; player 1 then lists its special die first, for each of its pieces.
    let out =
        script("setoption name Year value 2023-24\nposition startpos moves y0:power\nd\nmoves\n");
    assert!(
        out.contains("Parchís 2023-24 — turn 2, player 1 to move (blue+green)"),
        "{out}"
    );
    assert!(
        out.contains("  player 0: dice [12456]  power 0 (mushroom 7)"),
        "{out}"
    );
    assert!(
        out.contains(
            "fen: b 1 2 n11,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:0:- 12456P:0:- \
             000000 - 0,0,0,0 - - y/-/-"
        ),
        "{out}"
    );
    let moves = out
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap_or_else(|| panic!("no moves line: {out}"));
    assert!(
        moves.starts_with("b0:power b1:power b2:power g0:power g1:power g2:power b0:6 "),
        "{moves}"
    );
    // Player 0's three moves fill its bar to 55 (y1:4 onto a safe box and a barrier, y0:1
    // capturing g2, the bonus y1:20): its special die is now a red shell, which sends home
    // green's g0, the nearest piece ahead of r0 (game 84 of the core's traces).
    let opening = "y1:4 b0:6 g2:5 y0:1 y1:20 g0:4";
    let out = script(&format!(
        "setoption name Year value 2023-24\nposition startpos moves {opening}\nd\n\
         position startpos moves {opening} r0:power\nd\n"
    ));
    assert!(
        out.contains("  player 0: dice [256P]  power 55 (redshell)"),
        "{out}"
    );
    assert!(
        out.contains(
            "fen: b 1 8 n5,n37,n17/n28,n30,n34/n38,n47,n51/h,n64,h 256:0:- 12P:15:- 000000 - \
             0,0,0,0 - - r/-/g"
        ),
        "{out}"
    );
    // A search answers with a legal move; the special die is another year's move elsewhere.
    let out = script(
        "setoption name Year value 2023-24\nposition startpos moves y0:power\ngo depth 3\n\
         setoption name Year value 2022-23\nposition startpos moves y0:power\n",
    );
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    assert!(moves.split(' ').any(|m| m == best), "{best} not in {moves}");
    assert!(out.contains("illegal move 'y0:power'"), "{out}");
}

/// A year's state string (`start`, mode `mode`) is refused with the reason under `other` and
/// read under its own year (`name`); that year has no playground and refuses a 2022-23 string.
fn stays_in_its_year(start: &str, year: Year, name: &str, other: &str, mode: char) {
    let out = script(&format!(
        "position fen {start}\nsetoption name Year value {other}\nposition fen {start}\n\
         setoption name Year value {name}\nposition fen {start}\nd\nposition playground\n"
    ));
    let refused = format!("a {name} state string (mode {mode}): set the option Year to {name}");
    assert_eq!(out.matches(&refused).count(), 2, "{out}");
    assert!(out.contains(&format!("fen: {start}")), "{out}");
    let config = ParchisConfig::of(year);
    assert!(Parchis::named_start("playground", &config).is_none());
    assert_eq!(Parchis::start(&config).format_fen(), start);
    let normal = Parchis::start(&ParchisConfig::default()).format_fen();
    let e = Parchis::parse_fen(&normal, &config).expect_err("a 2022-23 string");
    let why = format!("a 2022-23 state string (mode n or p): with Year {name} the mode is {mode}");
    assert!(e.to_string().contains(&why), "{e}");
}

#[test]
fn a_2023_24_state_string_is_refused_under_the_other_years() {
    stays_in_its_year(START_2023, Year::Y2023, "2023-24", "2024-25", 'b');
    let config = ParchisConfig::of(Year::Y2023);
    // What 2023-24 never has is refused in its strings, with the reason; a star is allowed.
    for (bad, why) in [
        (
            START_2023.replace("n4,n13,n17/", "n4,n13,n17,h/"),
            "every colour needs the same number",
        ),
        (
            START_2023.replace(
                "n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68",
                "n4,n13,n17,h/n21,n30,n34,h/n38,n47,n51,h/n55,n64,n68,h",
            ),
            "a 2023-24 position has 3 pieces a colour",
        ),
        (
            START_2023.replace("n4,n13,", "n4:o2,n13,"),
            "a 2023-24 position has no items",
        ),
        (
            START_2023.replace("12456P:0:- 000000", "12456P:s:- 000000"),
            "bad power bar 's'",
        ),
        (
            START_2023.replace("12456P:0:- 000000", "12456P:101:- 000000"),
            "(0 to 100)",
        ),
        (
            START_2023.replace("12456P:0:- 000000", "12456P:0:20+10 000000"),
            "at most one pending bonus",
        ),
        (
            START_2023.replace(" 000000 ", " 000001 "),
            "a 2023-24 position has no items",
        ),
    ] {
        let e = Parchis::parse_fen(&bad, &config).expect_err(&bad);
        assert!(e.to_string().contains(why), "{bad}: {e}");
        assert_eq!(
            matches!(e, FenError::Rules(_)),
            year_limit(why),
            "{bad}: {e:?}"
        );
    }
    let star = START_2023.replace("n4,n13,", "n4:s5,n13,");
    let s = Parchis::parse_fen(&star, &config).expect("a star is a 2023-24 piece");
    assert_eq!(s.format_fen(), star);
}

const START_2024: &str =
    "y y 1 n4,n13/n21,n30/n38,n47/n55,n64 12456Y:-:- 12456Y:-:- 000000 - 0,0,0,0 - - -/-/-";

#[test]
fn in_2024_25_a_player_moves_its_two_colours_with_doubled_dice() {
    // Yellow's 6 counts 7 (no piece at home), doubled: 13 -> 27, and yellow keeps the turn; the
    // yin-yang die moves one box (4 -> 5); then blue's turn, player 1's, whose 5 moves b0 ten
    // boxes; then red's, player 1's again.
    let out = script(
        "setoption name Year value 2024-25\nposition startpos moves y1:6 y0:yinyang b0:5\nd\nmoves\n",
    );
    assert!(
        out.contains("Parchís 2024-25 — turn 4, red to move (player 1)"),
        "{out}"
    );
    assert!(out.contains("  player 1 (blue+red) dice [1246Y]"), "{out}");
    assert!(
        out.contains(
            "fen: y r 4 n5,n27/n31,n30/n38,n47/n55,n64 1245:-:- 1246Y:-:- 000000 - 0,0,0,0 - - b/-/-"
        ),
        "{out}"
    );
    let moves = out
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap_or_else(|| panic!("no moves line: {out}"));
    // The core's order: the dice from the yin-yang down, blue's pieces then red's for each.
    assert_eq!(
        moves,
        "b0:yinyang b1:yinyang r0:yinyang r1:yinyang b0:6 b1:6 r0:6 r1:6 b0:4 b1:4 r0:4 r1:4 \
         b0:2 b1:2 r0:2 r1:2 b0:1 b1:1 r0:1 r1:1"
    );
    // A search answers with one of them; the yin-yang die is another year's move elsewhere.
    let out = script(
        "setoption name Year value 2024-25\nposition startpos moves y1:6 y0:yinyang b0:5\ngo depth 3\n\
         setoption name Year value 2022-23\nposition startpos moves y0:yinyang\n",
    );
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    assert!(moves.split(' ').any(|m| m == best), "{best} not in {moves}");
    assert!(out.contains("illegal move 'y0:yinyang'"), "{out}");
}

#[test]
fn a_2024_25_state_string_is_refused_under_the_other_years() {
    stays_in_its_year(START_2024, Year::Y2024, "2024-25", "2021-22", 'y');
    let config = ParchisConfig::of(Year::Y2024);
    // What 2024-25 never has is refused in its strings, with the reason.
    for (bad, why) in [
        (
            START_2024.replace("n4,n13/", "n4,n13,n17/"),
            "a 2024-25 position has 2 pieces a colour",
        ),
        (
            START_2024.replace("n4,n13/", "n4:s2,n13/"),
            "a 2024-25 position has no items",
        ),
        (
            START_2024.replace("12456Y:-:- 000000", "12456Y:s:- 000000"),
            "a 2024-25 position has no items",
        ),
        (
            START_2024.replace("12456Y:-:- 000000", "12456Y:-:20+10 000000"),
            "at most one pending bonus",
        ),
        (
            START_2024.replace(" - -/-/-", " Gr -/-/-"),
            "a 2024-25 game ends Gy, Gb, B0 or B1",
        ),
    ] {
        let e = Parchis::parse_fen(&bad, &config).expect_err(&bad);
        assert!(e.to_string().contains(why), "{bad}: {e}");
        assert_eq!(
            matches!(e, FenError::Rules(_)),
            year_limit(why),
            "{bad}: {e:?}"
        );
    }
}

/// A refusal of something well formed that the year's rules do not have (`FenError::Rules`);
/// every other refusal is of the string's form (`FenError::Syntax`).
fn year_limit(why: &str) -> bool {
    (why.starts_with("a 20") && why.contains(" position has ")) || why.contains("pending bonus")
}

#[test]
fn a_state_string_belongs_to_its_year() {
    let out = script(&format!("position fen {START_2021}\n"));
    assert!(
        out.contains("a 2021-22 state string (mode c): set the option Year to 2021-22"),
        "{out}"
    );
    let out = script(&format!(
        "setoption name Year value 2021-22\nposition fen {START_2021}\nd\nposition startpos moves y1:2\n\
         setoption name Year value 2022-23\nposition startpos moves y1:3\nposition playground\n"
    ));
    assert!(out.contains(&format!("fen: {START_2021}")), "{out}");
    // Back in 2022-23 there is no die 3 (the move is illegal, not unknown).
    assert!(out.contains("illegal move 'y1:3'"), "{out}");
    let config = ParchisConfig::of(Year::Y2021);
    assert!(Parchis::named_start("playground", &config).is_none());
    let s = Parchis::start(&config);
    assert_eq!(s.format_fen(), START_2021);
    let normal = Parchis::start(&ParchisConfig::default()).format_fen();
    assert!(Parchis::parse_fen(&normal, &config).is_err());
}

#[test]
fn match_option_year_sets_the_referees_rules() {
    match_under("2021-22", Year::Y2021);
}

#[test]
fn match_option_year_2023_24_sets_the_referees_rules() {
    match_under("2023-24", Year::Y2023);
}

#[test]
fn match_option_year_2024_25_sets_the_referees_rules() {
    match_under("2024-25", Year::Y2024);
}

/// Two games of random against random with `--option Year=NAME`: the records say the year and
/// every game replays under `year`'s rules to the referee's result.
fn match_under(name: &str, year: Year) {
    let records = common::fresh(&format!("parchis-year-match-{name}.jsonl"));
    let o = Command::new(BIN)
        .args([
            "match",
            "--game",
            "parchis",
            "--engine1",
            "builtin:random",
            "--engine2",
            "builtin:random",
            "--option",
            &format!("Year={name}"),
            "--games",
            "2",
            "--records",
        ])
        .arg(&records)
        .output()
        .expect("run match");
    common::stdout(&o);
    let text = std::fs::read_to_string(&records).expect("records");
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    assert!(
        header.contains(&format!(r#""options":[["Year",{}]]"#, year.value())),
        "{header}"
    );
    // Every game, replayed under the year's rules, ends where the referee ended it, with the
    // referee's result.
    let config = ParchisConfig::of(year);
    let mut n = 0;
    for line in lines {
        let g: Value = serde_json::from_str(line).expect("a game record");
        assert_eq!(g["reason"], "normal", "{line}");
        let mut s = Parchis::start(&config);
        let opening = g["opening"]["moves"].as_array().expect("opening moves");
        let played = g["moves"].as_array().expect("moves");
        for m in opening.iter().chain(played.iter().map(|m| &m["move"])) {
            assert!(s.outcome().is_none(), "a move after the end: {line}");
            let m = s
                .parse_move(m.as_str().expect("a move"))
                .expect("a legal move");
            s = s.apply(m);
        }
        let result = match s.outcome() {
            Some(Outcome::Win(Side::First)) => "1-0",
            Some(Outcome::Win(Side::Second)) => "0-1",
            _ => panic!("the game did not end with a winner: {line}"),
        };
        assert_eq!(g["result"], result, "{line}");
        n += 1;
    }
    assert_eq!(n, 2, "{text}");
}
