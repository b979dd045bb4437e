//! Fuzz target: each game's state-string parser (`parse_fen`) and move parser (`parse_move`),
//! generic over the `Game` trait.
//!
//! Input: byte 0 picks the game, bytes 1..5 the variant option values (0 = the default), then
//! text: its first line is parsed as a state string and every further line as a move (in the
//! parsed state, else in the start position). Arbitrary text must give `Ok` or an error, never
//! a panic. The same bytes then drive a walk from the start position (each byte picks one legal
//! move); in every state reached, `parse_fen(format_fen(s)) == s` and, for every legal move,
//! `parse_move(format_move(m)) == m`. States are compared by their `Debug` form (every field).

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero::core::game::Game;
use tablero::games::{GameKind, GameVisitor, dispatch};

/// At most this many plies are walked per input (the walk is cheap; long games stay reachable
/// from a parsed state string).
const MAX_PLIES: usize = 400;

struct Run<'a> {
    options: &'a [u8],
    text: &'a str,
    choices: &'a [u8],
}

fn same<G: Game>(a: &G, b: &G) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// The round trips every state must pass, and every legal move.
fn check_state<G: Game>(s: &G, cfg: &G::Config) {
    let fen = s.format_fen();
    match G::parse_fen(&fen, cfg) {
        Ok(back) => assert!(
            same(s, &back),
            "fen round trip changed the state: {fen}\n{s:?}\n{back:?}"
        ),
        Err(e) => panic!("own state string rejected: {fen}: {e}"),
    }
    let mut moves = G::Moves::default();
    s.legal_moves(&mut moves);
    if s.outcome().is_some() {
        assert!(moves.as_ref().is_empty(), "finished game has moves: {fen}");
    }
    for &m in moves.as_ref() {
        let text = s.format_move(m);
        match s.parse_move(&text) {
            Ok(back) => assert_eq!(back, m, "move round trip: '{text}' in {fen}"),
            Err(e) => panic!("own move '{text}' rejected in {fen}: {e}"),
        }
        assert!(
            s.is_legal(m),
            "generated move '{text}' not is_legal in {fen}"
        );
    }
}

/// Plays the moves picked by `choices` from `s`, checking every state reached.
fn walk<G: Game>(mut s: G, cfg: &G::Config, choices: &[u8]) {
    for &b in choices.iter().take(MAX_PLIES) {
        check_state(&s, cfg);
        let mut moves = G::Moves::default();
        s.legal_moves(&mut moves);
        let ms = moves.as_ref();
        if ms.is_empty() {
            return;
        }
        s = s.apply(ms[b as usize % ms.len()]);
    }
    check_state(&s, cfg);
}

impl GameVisitor for Run<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let values: Vec<i64> = G::OPTIONS
            .iter()
            .enumerate()
            .map(
                |(i, o)| match (self.options.get(i).copied().unwrap_or(0), o.names) {
                    (0, _) => o.default,
                    // A spin takes any value of its range, a combo only the values it names
                    // (BOOM's `Year` is 2018 or 2020, not 2019).
                    (b, []) => o.min + i64::from(b - 1) % (o.max - o.min + 1),
                    (b, names) => names[usize::from(b - 1) % names.len()].1,
                },
            )
            .collect();
        let cfg = G::configure(&values).expect("option values within their bounds");
        let start = G::start(&cfg);
        let mut lines = self.text.split('\n');
        let fen = lines.next().unwrap_or("");
        let parsed = G::parse_fen(fen, &cfg).ok();
        let here = parsed.unwrap_or(start);
        for line in lines {
            if let Ok(m) = here.parse_move(line) {
                // A parsed move is legal: it formats and parses back to itself.
                assert!(
                    here.is_legal(m),
                    "parse_move accepted an illegal move '{line}'"
                );
                let text = here.format_move(m);
                assert_eq!(here.parse_move(&text), Ok(m), "'{line}' -> '{text}'");
                let _ = here.apply(m);
            }
        }
        if let Some(p) = parsed {
            // An accepted state string must behave like any other state: its own round trips,
            // and a walk from it.
            walk(p, &cfg, self.choices);
        }
        walk(start, &cfg, self.choices);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&g, rest)) = data.split_first() else {
        return;
    };
    // As the protocol target reads its byte 0 (bits 0-1, then 5-7), so that one seed byte
    // names one game in both.
    let n = (g & 3) as usize | ((g >> 5) as usize) << 2;
    let kind = GameKind::ALL[n % GameKind::ALL.len()];
    let (options, rest) = rest.split_at(rest.len().min(4));
    let text = String::from_utf8_lossy(rest);
    let _ = dispatch(
        kind,
        Run {
            options,
            text: &text,
            choices: rest,
        },
    );
});
