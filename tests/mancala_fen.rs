//! Mancala fen: round trips, validation messages, and `parse_fen` never panicking on arbitrary
//! or near-valid input (proptest). Also hash and display sanity.

use proptest::prelude::*;
use tablero::core::{Game, Side};
use tablero::games::mancala::{Mancala, MancalaConfig};

fn parse(s: &str) -> Result<Mancala, tablero::core::game::FenError> {
    Mancala::parse_fen(s, &MancalaConfig::default())
}

#[test]
fn round_trips_of_hand_written_fens() {
    for fen in [
        "4,4,4,4,4,4:0/4,4,4,4,4,4:0 S",
        "0,1,0,0,0,1:17/0,0,1,0,0,2:26 N",
        "1:0/1:0 S",
        "254:0/1:0 S",
        "1,2,3,4,5,6,7,8,9,10,11,12:13/1,1,1,1,1,1,1,1,1,1,1,1:0 N",
        "0,0,0,0,0,0:24/0,0,0,0,0,0:24 S",
    ] {
        let g = parse(fen).unwrap();
        assert_eq!(g.format_fen(), fen);
        assert_eq!(parse(&g.format_fen()).unwrap(), g);
    }
    // Surrounding and repeated whitespace is tolerated; the output is canonical.
    let g = parse("  1,1:0/1,1:0   N \n").unwrap();
    assert_eq!(g.format_fen(), "1,1:0/1,1:0 N");
    assert_eq!(g.pits(), 2);
    assert_eq!(g.side_to_move(), Side::Second);
}

#[test]
fn an_unswept_finished_position_is_banked() {
    // South's row is empty: the game is over and North banks its own pits.
    let g = parse("0,0,0,0,0,0:20/1,2,3,4,5,6:7 N").unwrap();
    assert_eq!(g.format_fen(), "0,0,0,0,0,0:20/0,0,0,0,0,0:28 N");
    assert!(g.outcome().is_some());
}

#[test]
fn invalid_fens_are_rejected_with_a_reason() {
    let cases = [
        ("", "empty"),
        ("4,4,4,4,4,4:0/4,4,4,4,4,4:0", "side"),
        ("4,4,4,4,4,4:0/4,4,4,4,4,4:0 X", "not S or N"),
        ("4,4,4,4,4,4:0/4,4,4,4,4,4:0 S moves", "unexpected"),
        ("4,4,4,4,4,4:0 S", "'/'"),
        ("4,4,4,4,4,4/4,4,4,4,4,4:0 S", "':'"),
        ("4,4,4,4,4:0/4,4,4,4,4,4:0 S", "5 pits but North has 6"),
        ("4,4,4,4,4,4:0/4,4,4,4,4,4:0/1 S", "not a seed count"),
        ("4,4,,4,4,4:0/4,4,4,4,4,4:0 S", "not a seed count"),
        ("4,4,-4,4,4,4:0/4,4,4,4,4,4:0 S", "not a seed count"),
        ("4,4,4,4,4,4:+0/4,4,4,4,4,4:0 S", "not a seed count"),
        ("4,4,4,4,4,256:0/4,4,4,4,4,4:0 S", "more than 255"),
        ("200:0/100:0 S", "at most 255"),
        (":0/:0 S", "not a seed count"),
        (
            "1,1,1,1,1,1,1,1,1,1,1,1,1:0/1,1,1,1,1,1,1,1,1,1,1,1,1:0 S",
            "more than 12 pits",
        ),
    ];
    for (fen, why) in cases {
        let e = parse(fen).unwrap_err().to_string();
        assert!(e.contains(why), "'{fen}': error '{e}' lacks '{why}'");
    }
}

#[test]
fn hash_covers_side_stores_and_pit_count() {
    let a = parse("4,4,4,4,4,4:0/4,4,4,4,4,4:0 S").unwrap();
    let b = parse("4,4,4,4,4,4:0/4,4,4,4,4,4:0 N").unwrap();
    let c = parse("4,4,4,4,4,4:1/4,4,4,4,4,4:0 S").unwrap();
    let d = parse("4,4,4,4,4,4:0/4,4,4,4,4,4:1 S").unwrap();
    let e = parse("4,4,4,4,4,4,0:0/4,4,4,4,4,4,0:0 S").unwrap();
    let f = parse("4,4,4,4,4,4:0/4,4,4,4,4,5:0 S").unwrap();
    let hs = [a, b, c, d, e, f].map(|g| g.hash());
    for i in 0..hs.len() {
        for j in i + 1..hs.len() {
            assert_ne!(hs[i], hs[j], "{i} vs {j}");
        }
    }
}

#[test]
fn display_shows_both_rows_stores_and_side() {
    let g = parse("1,2,3,4,5,6:7/8,9,10,11,12,13:14 N").unwrap();
    let d = g.display();
    let lines: Vec<&str> = d.lines().collect();
    // North's row is listed from its pit 1 (n6 = 13) to pit 6 (n1 = 8).
    let north: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(north, ["13", "12", "11", "10", "9", "8"]);
    let stores: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(stores, ["N", "store", "14", "7", "S", "store"]);
    // South's row left to right is s1..s6 (pit 6 .. pit 1).
    let south: Vec<&str> = lines[3].split_whitespace().collect();
    assert_eq!(south, ["1", "2", "3", "4", "5", "6"]);
    assert!(d.contains("North (J2) to move"));
    assert!(d.contains(&g.format_fen()));
}

/// A valid fen from raw numbers (trimmed so that the total stays within 255).
fn fen_from(m: usize, nums: &[u8], north: bool) -> String {
    let mut v: Vec<u32> = nums.iter().take(2 * m + 2).map(|&x| u32::from(x)).collect();
    v.resize(2 * m + 2, 0);
    while v.iter().sum::<u32>() > 255 {
        let i = v.iter().position(|&x| x > 0).unwrap();
        v[i] /= 2;
    }
    let join = |s: &[u32]| s.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    format!(
        "{}:{}/{}:{} {}",
        join(&v[..m]),
        v[m],
        join(&v[m + 1..2 * m + 1]),
        v[2 * m + 1],
        if north { "N" } else { "S" }
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parse_fen_never_panics_on_arbitrary_text(s in "\\PC{0,80}") {
        if let Ok(g) = parse(&s) {
            prop_assert_eq!(parse(&g.format_fen()).unwrap(), g);
        }
    }

    #[test]
    fn parse_fen_never_panics_on_near_valid_text(s in "[0-9,:/ SN]{0,70}") {
        if let Ok(g) = parse(&s) {
            let fen = g.format_fen();
            prop_assert_eq!(parse(&fen).unwrap(), g);
            prop_assert!(g.total_seeds() <= 255);
        }
    }

    #[test]
    fn valid_fens_round_trip(m in 1usize..=12, nums in prop::collection::vec(0u8..=30, 26), north: bool) {
        let fen = fen_from(m, &nums, north);
        let g = parse(&fen).unwrap();
        prop_assert_eq!(g.pits(), m);
        prop_assert_eq!(parse(&g.format_fen()).unwrap(), g);
        if g.outcome().is_none() {
            // Not banked: the text comes back unchanged.
            prop_assert_eq!(g.format_fen(), fen);
        }
    }
}
