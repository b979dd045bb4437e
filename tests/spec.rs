//! Position specifications (core::spec): starts, move lists and the errors they give.

use tablero::core::game::Game;
use tablero::core::spec::{PositionError, StartSpec, Token, default_config, position};
use tablero::games::connect4::Connect4;
use tablero::games::parchis::Parchis;

#[test]
fn builds_positions_with_the_rules_and_names_the_bad_move() {
    let cfg = default_config::<Connect4>().unwrap();
    let s: Connect4 = position(&cfg, &StartSpec::StartPos, &Token::words(&["4 4", "3"])).unwrap();
    let mut by_hand = Connect4::start(&cfg);
    for m in ["4", "4", "3"] {
        by_hand = by_hand.apply(by_hand.parse_move(m).unwrap());
    }
    assert_eq!(s, by_hand);
    let again: Connect4 = position(&cfg, &StartSpec::Fen(s.format_fen()), &[]).unwrap();
    assert_eq!(again, s);

    let err =
        position::<Connect4>(&cfg, &StartSpec::StartPos, &Token::words(&["4", "9"])).unwrap_err();
    assert!(
        matches!(err, PositionError::Move { index: 2, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().starts_with("move 2 '9' is illegal: "),
        "{err}"
    );
    let err = position::<Connect4>(&cfg, &StartSpec::Named("nope".into()), &[]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown start 'nope' for connect4 (use 'startpos' or 'fen <state>')"
    );
    assert!(matches!(
        position::<Connect4>(&cfg, &StartSpec::Fen("x".into()), &[]),
        Err(PositionError::Fen(_))
    ));
}

#[test]
fn named_starts_come_from_the_game() {
    let cfg = default_config::<Parchis>().unwrap();
    let p: Parchis = position(&cfg, &StartSpec::Named("playground".into()), &[]).unwrap();
    assert_eq!(p, Parchis::playground_start());
}

/// A library caller's option map keyed `"Year"` (the protocol's spelling) instead of `"year"`
/// is refused, naming the key to use, instead of silently configuring the default year; a
/// lower-case key configures, and another game's key is left to that game.
#[test]
fn configure_refuses_option_keys_that_are_not_lower_case() {
    use std::collections::BTreeMap;
    use tablero::core::game::ConfigError;
    use tablero::core::spec::configure;
    let map = |k: &str| BTreeMap::from([(k.to_string(), 2021_i64)]);
    let cfg = configure::<Parchis>(&map("year")).unwrap();
    let s = Parchis::start(&cfg);
    assert!(
        s.format_fen().starts_with("c y 1 "),
        "2021-22: {}",
        s.format_fen()
    );
    let default = configure::<Parchis>(&map("columns")).unwrap();
    assert_eq!(default, default_config::<Parchis>().unwrap());
    let e = configure::<Parchis>(&map("Year")).unwrap_err();
    assert_eq!(
        e,
        ConfigError::KeyCase {
            key: "Year".into(),
            lower: "year".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "option key Year is not lower-case: option values are keyed by lower-case names (year)"
    );
}
