//! One test per Mancala rule, on hand-built Kalah(6, 4) positions whose results were worked out
//! by hand. Fen reminder: `s1..s6:S/n1..n6:N side`, ring order, so South's pit k is `s(7-k)`
//! and North's pit k is `n(7-k)`.

use tablero::core::game::MoveError;
use tablero::core::perft::perft;
use tablero::core::{Game, Outcome, Side, try_play};
use tablero::games::mancala::{MAX_PITS, Mancala, MancalaConfig, MancalaMoves, MoveKind};

fn pos(fen: &str) -> Mancala {
    Mancala::parse_fen(fen, &MancalaConfig::default()).unwrap()
}

fn play(fen: &str, pit: &str) -> Mancala {
    try_play(&pos(fen), pit).unwrap()
}

#[test]
fn start_position_and_options() {
    let g = Mancala::start(&MancalaConfig::default());
    assert_eq!(g.format_fen(), "4,4,4,4,4,4:0/4,4,4,4,4,4:0 S");
    assert_eq!(g.side_to_move(), Side::First);
    assert_eq!(g.total_seeds(), 48);
    let cfg = Mancala::configure(&[3, 7]).unwrap();
    assert_eq!(
        Mancala::start(&cfg).format_fen(),
        "7,7,7:0/7,7,7:0 S",
        "Kalah(3, 7)"
    );
    assert!(Mancala::configure(&[0, 4]).is_err());
    assert!(Mancala::configure(&[13, 4]).is_err());
    assert!(Mancala::configure(&[6, 11]).is_err());
    assert!(Mancala::configure(&[6]).is_err());
    // The largest variant still fits a u8 in every pit: 2 * 12 * 10 = 240 seeds.
    let big = Mancala::start(&Mancala::configure(&[12, 10]).unwrap());
    assert_eq!(big.total_seeds(), 240);
}

#[test]
fn sowing_order_and_turn_passing() {
    // South pit 3 (s4) with 4 seeds: pits 2, 1, store, North pit 6 (n1). Not an extra turn.
    let g = play("4,4,4,4,4,4:0/4,4,4,4,4,4:0 S", "3");
    assert_eq!(g.format_fen(), "4,4,4,0,5,5:1/5,4,4,4,4,4:0 N");
    // North pit 6 (n1) with 5 seeds: North pits 5..2, ... (n2..n5) and pit 1 (n6).
    let g = try_play(&g, "6").unwrap();
    assert_eq!(g.format_fen(), "4,4,4,0,5,5:1/0,5,5,5,5,5:0 S");
}

#[test]
fn extra_turn_when_last_seed_in_own_store() {
    // South pit 4 with 4 seeds: pits 3, 2, 1, store.
    let g = play("4,4,4,4,4,4:0/4,4,4,4,4,4:0 S", "4");
    assert_eq!(g.format_fen(), "4,4,0,5,5,5:1/4,4,4,4,4,4:0 S");
    assert_eq!(g.side_to_move(), Side::First);
    assert_eq!(
        pos("4,4,4,4,4,4:0/4,4,4,4,4,4:0 S").move_kind(4),
        MoveKind::ExtraTurn
    );
    // North too: North pit 2 (n5) with 2 seeds.
    let g = play("1,1,1,1,1,1:0/1,1,1,1,2,1:0 N", "2");
    assert_eq!(g.format_fen(), "1,1,1,1,1,1:0/1,1,1,1,0,2:1 N");
}

#[test]
fn capture_with_non_empty_facing_pit() {
    // South pit 3 (s4) with 2 seeds ends in the empty pit 1 (s6), which faces North's pit 6
    // (n1) holding 5: 1 + 5 go to South's store.
    let fen = "1,1,1,2,0,0:0/5,1,1,1,1,1:0 S";
    assert_eq!(pos(fen).move_kind(3), MoveKind::Capture(6));
    let g = play(fen, "3");
    assert_eq!(g.format_fen(), "1,1,1,0,1,0:6/0,1,1,1,1,1:0 N");
}

#[test]
fn no_capture_with_empty_facing_pit() {
    let fen = "1,1,1,2,0,0:0/0,1,1,1,1,6:0 S";
    assert_eq!(pos(fen).move_kind(3), MoveKind::Quiet);
    let g = play(fen, "3");
    assert_eq!(g.format_fen(), "1,1,1,0,1,1:0/0,1,1,1,1,6:0 N");
}

#[test]
fn no_capture_in_a_non_empty_own_pit_or_opponent_pit() {
    // Last seed in own pit 1 that already held a seed.
    let g = play("1,1,1,2,0,1:0/5,1,1,1,1,1:0 S", "3");
    assert_eq!(g.format_fen(), "1,1,1,0,1,2:0/5,1,1,1,1,1:0 N");
    // Last seed in an empty opponent pit: South pit 1 (2 seeds) sows its store and North's
    // empty pit 6 (n1); the opponent's pits never capture for the mover.
    let g = play("1,1,1,1,1,2:0/0,1,1,1,1,1:0 S", "1");
    assert_eq!(g.format_fen(), "1,1,1,1,1,0:1/1,1,1,1,1,1:0 N");
}

#[test]
fn capture_by_north() {
    // North pit 4 (n3) with 3 seeds ends in its empty pit 1 (n6), facing South pit 6 (s1) = 7.
    let fen = "7,1,1,1,1,1:0/1,1,3,1,1,0:0 N";
    let g = play(fen, "4");
    assert_eq!(g.format_fen(), "0,1,1,1,1,1:0/1,1,0,2,2,0:8 S");
}

#[test]
fn origin_pit_is_sown_again_on_a_long_lap() {
    // South pit 6 (s1) with 13 seeds: pits 5..1 (5), store (1), North's six pits (6) and the
    // 13th back into the emptied origin, which then holds exactly 1 and faces North's pit 1
    // (n6): 0 + 1 seed sown there, so 1 + 1 are captured.
    let fen = "13,0,0,0,0,0:0/1,0,0,0,0,0:34 S";
    let start = pos(fen);
    assert_eq!(start.move_kind(6), MoveKind::Capture(2));
    let g = play(fen, "6");
    assert_eq!(g.format_fen(), "0,1,1,1,1,1:3/2,1,1,1,1,0:34 N");
    // 20 seeds from South pit 6: one full lap of 13 (origin gets 1), then pits 5..1, the store
    // and North pit 6 (n1) again.
    let fen = "20,0,0,0,0,0:0/1,0,0,0,0,0:27 S";
    let g = play(fen, "6");
    assert_eq!(g.format_fen(), "1,2,2,2,2,2:2/3,1,1,1,1,1:27 N");
    // Two full laps (26) add 2 to every pit and South's store, the 27th seed goes to pit 5 (s2).
    let fen = "27,0,0,0,0,0:0/1,0,0,0,0,0:20 S";
    let g = play(fen, "6");
    assert_eq!(g.format_fen(), "2,3,2,2,2,2:2/3,2,2,2,2,2:20 N");
}

#[test]
fn game_ends_when_a_row_is_empty_and_both_sides_bank_their_own_pits() {
    // South's last seed goes into its store (an extra turn), but South's row is now empty: the
    // game ends at once and North banks its own pits.
    let g = play("0,0,0,0,0,1:20/1,2,3,4,5,6:6 S", "1");
    assert_eq!(g.format_fen(), "0,0,0,0,0,0:21/0,0,0,0,0,0:27 S");
    assert_eq!(g.outcome(), Some(Outcome::Win(Side::Second)));
    let mut moves = MancalaMoves::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(try_play(&g, "1").is_err());
}

#[test]
fn game_ends_when_a_capture_empties_the_opponent_row() {
    // South's capture takes North's last seeds (n1 = 5 facing South pit 1): North's row is empty,
    // South banks its remaining pits.
    let g = play("1,1,1,2,0,0:0/5,0,0,0,0,0:30 S", "3");
    assert_eq!(g.format_fen(), "0,0,0,0,0,0:10/0,0,0,0,0,0:30 N");
    assert_eq!(g.outcome(), Some(Outcome::Win(Side::Second)));
}

#[test]
fn draw_24_24() {
    // South empties its row into its store (24); North banks its last seed (23 + 1 = 24).
    let g = play("0,0,0,0,0,1:23/0,0,0,1,0,0:23 S", "1");
    assert_eq!(g.format_fen(), "0,0,0,0,0,0:24/0,0,0,0,0,0:24 S");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    // One seed more for South instead is a South win.
    let g = play("0,0,0,0,0,1:24/0,0,0,1,0,0:22 S", "1");
    assert_eq!(g.outcome(), Some(Outcome::Win(Side::First)));
}

#[test]
fn parse_move_errors() {
    let g = pos("1,0,1,1,1,1:0/1,1,1,1,1,1:0 S");
    assert_eq!(g.parse_move("1"), Ok(1));
    assert_eq!(g.parse_move(" 6 "), Ok(6));
    for bad in [
        "",
        "x",
        "-1",
        "+1",
        "1.0",
        "0",
        "7",
        "99999999999999999999",
        "5",
    ] {
        let e = g.parse_move(bad).unwrap_err();
        assert!(!e.to_string().is_empty(), "{bad}");
    }
    assert!(matches!(g.parse_move("5"), Err(MoveError::Illegal(m)) if m.contains("empty")));
    assert!(matches!(g.parse_move("7"), Err(MoveError::Notation(m)) if m.contains("range")));
    assert!(matches!(g.parse_move("x"), Err(MoveError::Notation(m)) if m.contains("not a pit")));
    for p in 1..=6u8 {
        assert_eq!(g.format_move(p), p.to_string());
    }
}

#[test]
fn move_list_capacity_holds_the_largest_variant() {
    assert_eq!(MancalaMoves::new().capacity(), MAX_PITS);
    let g = Mancala::start(&Mancala::configure(&[MAX_PITS as i64, 10]).unwrap());
    let mut moves = MancalaMoves::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), MAX_PITS);
    // Every move of the biggest board (many laps with 240 seeds) keeps working.
    // Pit 10 (10 seeds) ends in the store: South moves again with 11 pits; the 11 other moves
    // hand over to North's 12 full pits.
    assert_eq!(perft(&g, 2), 11 * 12 + 11);
    // A single pit holding nearly every seed sows many laps without overflow.
    let g = pos("230,1,1,1,1,1,1,1,1,1,1,1:0/1,1,1,1,1,1,1,1,1,1,1,1:0 S");
    let n = try_play(&g, "12").unwrap();
    // 230 = 9 laps of 25 + 5: every position but North's store gets 9, then s2..s6 one more.
    assert_eq!(
        n.format_fen(),
        "9,11,11,11,11,11,10,10,10,10,10,10:9/10,10,10,10,10,10,10,10,10,10,10,10:0 N"
    );
}

#[test]
fn move_order_hint_prefers_extra_turns_then_captures() {
    let g = pos("1,1,1,2,0,0:0/5,1,1,1,1,1:0 S");
    // Pit 3 captures 6, pit 6 (1 seed) is quiet, pit 4 (1 seed to pit 3) quiet.
    assert!(g.move_order_hint(3) > g.move_order_hint(6));
    let g = pos("4,4,4,4,4,4:0/4,4,4,4,4,4:0 S");
    assert!(g.move_order_hint(4) > g.move_order_hint(3));
    let g = pos("0,0,0,1,2,0:0/5,1,1,1,1,1:0 S");
    // Pit 2 (2 seeds) ends in the store; pit 3 (1 seed) lands on pit 2's 2 seeds.
    assert_eq!(g.move_kind(2), MoveKind::ExtraTurn);
    assert_eq!(g.move_kind(3), MoveKind::Quiet);
}
