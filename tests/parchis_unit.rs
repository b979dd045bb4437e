//! Parchís unit and property tests: FEN robustness (random strings and mutations never panic,
//! accepted strings round-trip), move parsing errors, hash sensitivity, evaluation bounds, the
//! state size budget and a few hand-checked rules.

use proptest::prelude::*;
use tablero::core::game::{EVAL_LIMIT, Game, Side};
use tablero::games::parchis::{Moves, Parchis, ParchisConfig};

const START_FEN: &str = "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-";

fn start() -> Parchis {
    Parchis::start(&ParchisConfig::default())
}

fn fen(s: &str) -> Parchis {
    Parchis::parse_fen(s, &ParchisConfig::default())
        .unwrap_or_else(|e| panic!("fen '{s}' rejected: {e}"))
}

/// A few positions reached by always playing the `k`-th legal move.
fn walk(seed: usize, plies: usize) -> Vec<Parchis> {
    let mut s = if seed.is_multiple_of(3) {
        Parchis::named_start("playground", &ParchisConfig::default()).expect("playground")
    } else {
        start()
    };
    let mut out = vec![s];
    for k in 0..plies {
        let mut moves = Moves::default();
        s.legal_moves(&mut moves);
        let ms = moves.as_ref();
        if ms.is_empty() {
            break;
        }
        s = s.apply(ms[(seed * 7919 + k * 104_729) % ms.len()]);
        out.push(s);
    }
    out
}

#[test]
fn start_fen_is_documented_one() {
    assert_eq!(start().format_fen(), START_FEN);
    assert_eq!(fen(START_FEN), start());
    let pg =
        Parchis::named_start("playground", &ParchisConfig::default()).expect("playground start");
    assert_eq!(fen(&pg.format_fen()), pg);
    assert!(Parchis::named_start("nonsense", &ParchisConfig::default()).is_none());
}

#[test]
fn state_is_small() {
    assert!(
        std::mem::size_of::<Parchis>() <= 128,
        "{} bytes",
        std::mem::size_of::<Parchis>()
    );
}

#[test]
fn move_notation_round_trips_and_rejects_garbage() {
    let s = start();
    let mut moves = Moves::default();
    s.legal_moves(&mut moves);
    for &m in moves.as_ref() {
        assert_eq!(s.parse_move(&s.format_move(m)), Ok(m));
    }
    for bad in [
        "", "y0", "y0:3", "y3:5", "x0:5", "y0:7", "pass:5", "b0:5", "y0:star", "y:5", "y00:5",
        "pass", ":", "y0:5:5",
    ] {
        let e = s.parse_move(bad);
        assert!(e.is_err(), "'{bad}' accepted");
        assert!(!e.unwrap_err().to_string().is_empty());
    }
}

#[test]
fn hash_sees_every_future_relevant_field() {
    let base = fen(START_FEN);
    let variants = [
        "n 1 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
        "n 0 1 n5,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
        "n 0 1 n4:s3,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
        "n 0 1 n4:s2,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 1245:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:s:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:s:- ffffff - 0,0,0,0 - - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:20 12456:-:- ffffff - 0,0,0,0 e - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- fffffe - 0,0,0,0 - - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff 19 0,0,0,0 - - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,1,0,0 - - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 r - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 b - -/-/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - y/b/-",
        "n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - y/-/g",
        "p 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
    ];
    for v in variants {
        let s = fen(v);
        assert_ne!(s, base, "{v}");
        assert_ne!(s.hash(), base.hash(), "hash ignores the change in {v}");
    }
    // The turn counter never affects the future, so it is left out of the hash.
    let later = fen(&START_FEN.replacen(" 1 n4", " 9 n4", 1));
    assert_eq!(later.hash(), base.hash());
}

#[test]
fn evaluations_stay_bounded_and_antisymmetric_for_test() {
    for seed in 0..12 {
        for s in walk(seed, 400) {
            for h in 0..Parchis::HEURISTICS.len() {
                let a = s.evaluate(h, Side::First);
                let b = s.evaluate(h, Side::Second);
                assert!(a.abs() < EVAL_LIMIT && b.abs() < EVAL_LIMIT);
                assert_eq!(a, -b, "heuristic {h} should be zero-sum");
                assert!(!s.eval_terms(h, Side::First).is_empty());
            }
        }
    }
}

#[test]
fn finished_games_have_no_moves_and_bounded_values() {
    let mut finished = 0;
    for seed in 1..40 {
        let s = *walk(seed, 3000).last().expect("non-empty");
        if s.outcome().is_some() {
            finished += 1;
            let mut moves = Moves::default();
            s.legal_moves(&mut moves);
            assert!(moves.as_ref().is_empty());
            assert!(s.parse_move("y0:5").is_err());
            let w = s.evaluate(0, Side::First);
            assert!(w.abs() > 1_000_000 && w.abs() < EVAL_LIMIT);
        }
    }
    assert!(finished > 0, "no walk finished a game");
}

#[test]
fn rules_spot_checks() {
    // A 6 with every piece out counts 7: y0 goes 4 -> 11 and player 0 moves again.
    let s = start().apply(start().parse_move("y0:6").expect("legal"));
    assert!(
        s.format_fen().starts_with("n 0 2 n11,"),
        "{}",
        s.format_fen()
    );
    // A capture gives a forced +20 and only 20-moves (or a pass) are legal next.
    let s = fen(
        "n 0 5 n10,n13,n17/n12,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
    );
    let after = s.apply(s.parse_move("y0:2").expect("legal"));
    let f = after.format_fen();
    assert!(
        f.contains("/h,n30,n34/") && f.contains("1456:-:20 ") && f.contains(" e "),
        "{f}"
    );
    let mut moves = Moves::default();
    after.legal_moves(&mut moves);
    assert!(
        moves
            .as_ref()
            .iter()
            .all(|&m| after.format_move(m).ends_with(":20"))
    );
    // Leaving home needs a 5.
    let s = fen(
        "n 0 5 h,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
    );
    assert!(s.parse_move("y0:5").is_ok());
    assert!(s.parse_move("y0:4").is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn parse_fen_never_panics_on_random_text(text in "\\PC{0,200}") {
        let _ = Parchis::parse_fen(&text, &ParchisConfig::default());
    }

    #[test]
    fn parse_fen_never_panics_on_plausible_tokens(
        toks in proptest::collection::vec(
            "(n|p|0|1|-|[0-9]{1,4}|[nqhg][0-9]{0,3}(:[nsomib][0-9]{0,3})?(,[nqhg][0-9]{0,3}){0,4}(/[nqhg0-9,:]{0,20}){0,4}|[0-9]{0,6}:[souorlmMkha-]{0,7}:[0-9+-]{0,9}|[0-9a-f]{5,7}|[0-9,]{0,12}|[egrbx-]{0,5}|G[ybrgx]|B[0-3]|[ybrg-]/[ybrg-]/[ybrg-]{0,4})",
            0..14)
    ) {
        let text = toks.join(" ");
        if let Ok(s) = Parchis::parse_fen(&text, &ParchisConfig::default()) {
            // Whatever is accepted must be usable without panicking and round-trip.
            prop_assert_eq!(Parchis::parse_fen(&s.format_fen(), &ParchisConfig::default()), Ok(s));
            let mut moves = Moves::default();
            s.legal_moves(&mut moves);
            for &m in moves.as_ref() {
                let _ = s.apply(m).hash();
            }
            let _ = s.display();
            let _ = s.evaluate(0, Side::First);
        }
    }

    #[test]
    fn mutated_real_fens_never_panic(seed in 0usize..60, plies in 0usize..300, pos in 0usize..400, byte in 0u8..128, mode in 0u8..3) {
        let states = walk(seed, plies);
        let s = states.last().expect("non-empty");
        let mut b = s.format_fen().into_bytes();
        let i = pos % (b.len() + 1);
        match mode {
            0 => b.insert(i, byte),
            1 if i < b.len() => { b.remove(i); }
            _ if i < b.len() => b[i] = byte,
            _ => b.push(byte),
        }
        let text = String::from_utf8_lossy(&b).into_owned();
        if let Ok(t) = Parchis::parse_fen(&text, &ParchisConfig::default()) {
            prop_assert_eq!(Parchis::parse_fen(&t.format_fen(), &ParchisConfig::default()), Ok(t));
            let mut moves = Moves::default();
            t.legal_moves(&mut moves);
            for &m in moves.as_ref() {
                let _ = t.apply(m);
            }
            let _ = t.display();
        }
    }

    #[test]
    fn walked_states_round_trip(seed in 0usize..200, plies in 0usize..400) {
        let states = walk(seed, plies);
        let s = states.last().expect("non-empty");
        prop_assert_eq!(Parchis::parse_fen(&s.format_fen(), &ParchisConfig::default()), Ok(*s));
    }
}

#[test]
fn display_and_eval_terms_describe_the_position() {
    let s = fen(
        "n 0 61 n17:m2,n20,h/n38:i3,n34:i3,n67:b1/h:i3,n6:o3,h:i3/n4:i3,n21:i3,n64:i3 12456:m:- 125:-:- 86bd0c 19,19 0,3,0,0 b - b/-/-",
    );
    let d = s.display();
    println!("{d}");
    for needle in [
        "turn 61",
        "y0=17* MEGA(2)",
        "home",
        "mushroom",
        "banana traps: 19 19",
        "bananed",
    ] {
        assert!(d.contains(needle), "display lacks '{needle}':\n{d}");
    }
    for h in 0..3 {
        let terms = s.eval_terms(h, Side::First);
        println!("{}: {terms:?}", Parchis::HEURISTICS[h]);
        let last = terms.last().expect("terms");
        assert_eq!(last.value, s.evaluate(h, Side::First).to_string());
    }
}

/// Plays `mv` in `before` and checks the resulting FEN.
fn check_move(before: &str, mv: &str, after: &str) {
    let s = fen(before);
    let m = s
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} in {before}: {e}"));
    assert_eq!(s.apply(m).format_fen(), after, "after {mv} from {before}");
}

#[test]
fn quirk_star_scan_from_68_skips_box_1() {
    // Blue star on 68 moves 1+2 = 3 boxes to 3: the scan starts at 2, so yellow on 1 survives
    // and yellow on 2 is sent home (no +20).
    check_move(
        "n 1 30 n1,n2,n13/n68:s3,n30,n34/n38,n47,n51/n55,n64,n60 12456:-:- 12456:-:- 000000 - 0,0,0,0 - - -/-/-",
        "b0:1",
        "n 0 31 n1,h,n13/n3:s2,n30,n34/n38,n47,n51/n55,n64,n60 12456:-:- 2456:-:- 000000 - 0,0,0,0 - - b/-/y",
    );
}

#[test]
fn quirk_mega_entering_goal_crushes_box_1() {
    // Yellow mega on q6 moves to q7; the box after q7 is the goal, so it enters the goal,
    // becomes normal (counter kept, then decremented) and crushes blue on box 1.
    check_move(
        "n 0 30 q6:m3,n13,n17/n1,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:- 000000 - 0,0,0,0 - - -/-/-",
        "y0:1",
        "n 0 31 g:n2,n13,n17/h,n30,n34/n38,n47,n51/n55,n64,n68 2456:-:10 12456:-:- 000000 - 0,0,0,0 g - y/-/b",
    );
}

#[test]
fn sticky_bananed_flag_ends_turn_after_a_pass_with_6() {
    // The bananed flag survives passes: a pass with 6 does not keep the turn while it is set.
    let s = fen(
        "n 0 30 h,h,h/n21,n30,n34/h,h,h/n55,n64,n68 6:-:- 12456:-:- 000000 - 0,0,0,0 b - -/-/-",
    );
    let after = s.apply(s.parse_move("pass:6").expect("only a pass is legal"));
    assert!(
        after.format_fen().starts_with("n 1 31 "),
        "{}",
        after.format_fen()
    );
}

/// The `test` heuristic recomputed from the state string alone, as the issue states it: per
/// piece of the evaluating player's colours +1 on one of the twelve safe track boxes (rules:
/// 4, 13, 17, 21, 30, 34, 38, 47, 51, 55, 64, 68), else +5 in the goal; minus the same for the
/// opponent (players: y and r = 0, b and g = 1).
fn test_heuristic_from_fen(fen: &str, me: usize) -> i32 {
    const SAFE: [u32; 12] = [4, 13, 17, 21, 30, 34, 38, 47, 51, 55, 64, 68];
    let pieces = fen.split(' ').nth(3).expect("pieces field");
    let mut v = 0;
    for (c, group) in pieces.split('/').enumerate() {
        let sign = if c % 2 == me { 1 } else { -1 };
        for piece in group.split(',') {
            let bx = piece.split(':').next().expect("box");
            let value = if bx == "g" {
                5
            } else if let Some(n) = bx.strip_prefix('n') {
                i32::from(SAFE.contains(&n.parse::<u32>().expect("track box")))
            } else {
                0
            };
            v += sign * value;
        }
    }
    v
}

#[test]
fn test_heuristic_matches_its_definition() {
    let mut checked = 0;
    for seed in 0..12 {
        for s in walk(seed, 400) {
            if s.outcome().is_some() {
                continue;
            }
            let fen = s.format_fen();
            for (me, side) in [(0, Side::First), (1, Side::Second)] {
                assert_eq!(
                    s.evaluate(1, side),
                    test_heuristic_from_fen(&fen, me),
                    "test heuristic for player {me} at {fen}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

/// The one-move legality check the search uses for killer moves agrees with full generation on
/// random walks (both starts; the playground's items bring megas, stars and barriers), for every
/// piece and pass × every die, item code and a few impossible dice.
#[test]
fn is_legal_agrees_with_generation_on_walks() {
    let mut checked = 0;
    for seed in 0..24 {
        for s in walk(seed, 300) {
            let mut moves = Moves::default();
            s.legal_moves(&mut moves);
            for piece in (0..16u8).chain([tablero::games::parchis::Move::PASS]) {
                for die in [0u8, 1, 2, 3, 4, 5, 6, 7, 10, 20]
                    .into_iter()
                    .chain(101..=111)
                {
                    let m = tablero::games::parchis::Move { piece, die };
                    assert_eq!(
                        s.is_legal(m),
                        moves.as_ref().contains(&m),
                        "is_legal({}) at {}",
                        s.format_move(m),
                        s.format_fen()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000, "only {checked} checks");
}

/// Landing rules around stars (rules §5.4 item 4), which random walks rarely reach: a box of
/// two stars is closed even to a star; a box of a star and a plain piece admits a star only.
/// Checked through generation and through the killer legality check alike.
#[test]
fn star_landing_rules() {
    // y0 is a star on 8 (steps = die + 2), y1 plain on 9; box 11 holds two stars (blue and
    // green), box 15 a blue star and a plain green piece.
    let s = fen(
        "n 0 5 n8:s3,n9,h/n11:s3,n30,n15:s3/n38,n47,n51/n11:s3,n15,n68 12456:-:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-",
    );
    let mut moves = Moves::default();
    s.legal_moves(&mut moves);
    use tablero::games::parchis::Move;
    for (piece, die, legal) in [
        (0, 1, false), // star onto two stars
        (0, 2, true),  // star onto an empty box
        (0, 5, true),  // star onto a star and a plain piece
        (1, 6, false), // plain piece onto a box of two
        (1, 1, true),  // plain piece onto an empty box
    ] {
        let m = Move { piece, die };
        let mv = s.format_move(m);
        assert_eq!(moves.as_ref().contains(&m), legal, "{mv} generated");
        assert_eq!(s.is_legal(m), legal, "{mv} is_legal");
    }
}

/// `default` follows a leaf further exactly when some colour has a piece in the goal and at most
/// two outside it (the race then hinges on exact dice a few moves on); `test` and `seed` never.
#[test]
fn default_extends_only_endgame_leaves() {
    let cases = [
        // The start: nothing in any goal.
        (START_FEN, false),
        // Yellow has two of three in the goal, one at q1 (game 13 of the measurement).
        (
            "n 1 157 g,g,q1/n34,n21,h/h,h,n38/n23,g,g 24:M:- 1246:ma:- 020000 - 0,0,0,0 - - y/-/-",
            true,
        ),
        // Green alone is one piece from finishing.
        (
            "n 0 91 n42,n11,h/h,n2,g/h,h,h/g,h,g 24:-:- 1:-:- 220801 - 0,0,0,0 - - y/-/-",
            true,
        ),
        // One piece in each of three goals: two pieces left outside them.
        (
            "n 0 60 g,n11,h/h,n2,g/g,h,h/g,h,n20 24:-:- 1:-:- 220801 - 0,0,0,0 - - y/-/-",
            true,
        ),
        // Late in the race, but no piece in any goal.
        (
            "n 0 60 q3,n11,h/h,n2,q5/q1,h,h/n60,h,n20 24:-:- 1:-:- 220801 - 0,0,0,0 - - y/-/-",
            false,
        ),
    ];
    for (f, endgame) in cases {
        let s = fen(f);
        assert_eq!(s.unquiet(0), endgame, "default at {f}");
        assert!(!s.unquiet(1) && !s.unquiet(2), "test/seed at {f}");
    }
    // 2021-22 has four pieces a colour: one in the goal leaves three outside, two leave two.
    let config = ParchisConfig::of(tablero::games::parchis::Year::Y2021);
    for (yellow, endgame) in [("g,n4,n13,n17", false), ("g,g,n13,n17", true)] {
        let f = format!(
            "c y 1 {yellow}/h,n21,n30,n34/h,n38,n47,n51/h,n55,n64,n68 \
             123456:-:-/123456:-:- 123456:-:-/123456:-:- 000000 - 0,0,0,0 - - -/-/-"
        );
        let s = Parchis::parse_fen(&f, &config).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(s.unquiet(0), endgame, "2021-22 default at {f}");
    }
}
