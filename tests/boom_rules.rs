//! Conecta-4 BOOM against a deliberately naive implementation: a 7×7 array with the handout's
//! cell codes (0 empty, 1/2 pieces, 4/5 bombs), the movement schedule found by walking the turns
//! one by one, lines found cell by cell, explosions and gravity done cell by cell. Random games
//! compare every movement; perft compares whole trees from random positions.

use proptest::prelude::*;
use tablero::core::game::{Game, MoveError, Outcome, Side, try_play};
use tablero::core::perft::perft;
use tablero::games::boom::{Boom, BoomMove, Config, Moves, Year};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone, Debug)]
struct Naive {
    /// cells[c][r], r = 0 at the bottom.
    cells: [[u8; 7]; 7],
    movement: u32,
    /// 0 running, 1/2 winner (BOOM has no draws).
    status: u8,
}

/// (player 1 or 2, that player's turn number) of movement `n`, by walking the schedule.
fn schedule(n: u32) -> (u8, u32) {
    let mut player = 1u8;
    let mut turns = [0u32; 3];
    let mut m = 0;
    loop {
        turns[player as usize] += 1;
        let count = if player == 1 && turns[1] == 1 { 1 } else { 2 };
        for _ in 0..count {
            m += 1;
            if m == n {
                return (player, turns[player as usize]);
            }
        }
        player = 3 - player;
    }
}

impl Naive {
    fn new() -> Self {
        Naive {
            cells: [[0; 7]; 7],
            movement: 1,
            status: 0,
        }
    }
    fn mover(&self) -> u8 {
        schedule(self.movement).0
    }
    fn bomb_of(&self, p: u8) -> Option<(usize, usize)> {
        for c in 0..7 {
            for r in 0..7 {
                if self.cells[c][r] == p + 3 {
                    return Some((c, r));
                }
            }
        }
        None
    }
    fn legal(&self) -> Vec<BoomMove> {
        if self.status != 0 {
            return vec![];
        }
        let mut v: Vec<BoomMove> = (0..7)
            .filter(|&c| self.cells[c][6] == 0)
            .map(|c| BoomMove::Put(c as u8))
            .collect();
        if self.bomb_of(self.mover()).is_some() {
            v.push(BoomMove::Boom);
        }
        v
    }
    fn owner(v: u8) -> u8 {
        match v {
            1 | 4 => 1,
            2 | 5 => 2,
            _ => 0,
        }
    }
    fn four(&self, p: u8) -> bool {
        for c in 0..7i32 {
            for r in 0..7i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..4).all(|k| {
                        let (cc, rr) = (c + k * dc, r + k * dr);
                        (0..7).contains(&cc)
                            && (0..7).contains(&rr)
                            && Self::owner(self.cells[cc as usize][rr as usize]) == p
                    }) {
                        return true;
                    }
                }
            }
        }
        false
    }
    fn full(&self) -> bool {
        (0..7).all(|c| self.cells[c][6] != 0)
    }
    fn play(&mut self, m: BoomMove) {
        let (p, turn) = schedule(self.movement);
        let o = 3 - p;
        match m {
            BoomMove::Put(c) => {
                let c = c as usize;
                let r = (0..7).find(|&r| self.cells[c][r] == 0).unwrap();
                let bomb = turn % 4 == 0 && self.bomb_of(p).is_none();
                self.cells[c][r] = if bomb { p + 3 } else { p };
                self.status = if self.four(p) { p } else { 0 };
            }
            BoomMove::Boom => {
                let (bc, br) = self.bomb_of(p).unwrap();
                self.cells[bc][br] = 0;
                for c in 0..7 {
                    if Self::owner(self.cells[c][br]) == o {
                        self.cells[c][br] = 0;
                    }
                }
                for c in 0..7 {
                    let kept: Vec<u8> = self.cells[c].iter().copied().filter(|&v| v != 0).collect();
                    self.cells[c] = [0; 7];
                    for (r, v) in kept.into_iter().enumerate() {
                        self.cells[c][r] = v;
                    }
                }
                self.status = if self.four(p) {
                    p
                } else if self.four(o) {
                    o
                } else {
                    0
                };
            }
        }
        self.movement += 1;
        // A full board without a line: whoever moves next plays BOOM if it can; if it has no
        // bomb it cannot move, and loses.
        if self.status == 0 && self.full() && self.bomb_of(self.mover()).is_none() {
            self.status = 3 - self.mover();
        }
    }
    fn perft(&self, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|m| {
                let mut n = self.clone();
                n.play(m);
                n.perft(d - 1)
            })
            .sum()
    }
}

fn moves_of(s: &Boom) -> Vec<BoomMove> {
    let mut m = Moves::default();
    s.legal_moves(&mut m);
    m.to_vec()
}

fn assert_same(s: &Boom, n: &Naive) {
    let ctx = || format!("{}\n{}", s.format_fen(), s.display());
    assert_eq!(moves_of(s), n.legal(), "legal moves differ\n{}", ctx());
    assert_eq!(s.movement() as u32, n.movement);
    assert_eq!(s.side_to_move().index() as u8 + 1, n.mover());
    assert_eq!(s.turn() as u32, schedule(n.movement).1);
    let expected = match n.status {
        0 => None,
        w => Some(Outcome::Win(Side::from_index(w as usize - 1))),
    };
    assert_eq!(s.outcome(), expected, "outcome differs\n{}", ctx());
    for c in 0..7 {
        for r in 0..7 {
            let got = match s.cell(c as u32, r as u32) {
                None => 0,
                Some((side, bomb)) => side.index() as u8 + 1 + if bomb { 3 } else { 0 },
            };
            assert_eq!(got, n.cells[c][r], "cell ({c},{r}) differs\n{}", ctx());
        }
    }
}

/// Plays `len` random movements (or until the end), preferring `BOOM` when legal with
/// probability 1/3 so that explosions are frequent.
fn random_position(rng: &mut Rng, len: usize) -> (Boom, Naive) {
    let mut s = Boom::start(&Config::default());
    let mut n = Naive::new();
    for _ in 0..len {
        let legal = n.legal();
        if legal.is_empty() {
            break;
        }
        let m = pick(rng, &legal);
        s = s.apply(m);
        n.play(m);
    }
    (s, n)
}

fn pick(rng: &mut Rng, legal: &[BoomMove]) -> BoomMove {
    if legal.contains(&BoomMove::Boom) && rng.below(3) == 0 {
        BoomMove::Boom
    } else {
        legal[rng.below(legal.len())]
    }
}

/// Like [`pick`], but prefers movements after which the game goes on (when there is one), so
/// games run long and fill the board.
fn pick_long(rng: &mut Rng, n: &Naive, legal: &[BoomMove]) -> BoomMove {
    let going_on: Vec<BoomMove> = legal
        .iter()
        .copied()
        .filter(|&m| {
            let mut next = n.clone();
            next.play(m);
            next.status == 0
        })
        .collect();
    if going_on.is_empty() {
        pick(rng, legal)
    } else {
        going_on[rng.below(going_on.len())]
    }
}

#[test]
fn schedule_and_sides() {
    let sides: String = (1..=15)
        .map(|n| match tablero::games::boom::side_of_movement(n) {
            Side::First => 'x',
            Side::Second => 'o',
        })
        .collect();
    assert_eq!(sides, "xooxxooxxooxxoo");
    for n in 1..2000u32 {
        let (p, t) = schedule(n);
        assert_eq!(
            tablero::games::boom::side_of_movement(n as u16).index() as u8 + 1,
            p
        );
        assert_eq!(tablero::games::boom::turn_of_movement(n as u16) as u32, t);
    }
}

#[test]
fn random_games_match_naive() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut booms = 0;
    let mut results = [0u32; 3];
    // Games decided by an explosion: won by the mover, won by the opponent.
    let mut boom_wins = [0u32; 2];
    // Full boards without a line: BOOM the only movement; a loss for want of a bomb.
    let (mut boom_only, mut full_losses) = (0, 0);
    // The move list capacity (8 = 7 columns + BOOM) must be reached: it is tight.
    let mut longest = 0;
    for game in 0..2000 {
        let mut s = Boom::start(&Config::default());
        let mut n = Naive::new();
        assert_same(&s, &n);
        while s.outcome().is_none() {
            let legal = n.legal();
            longest = longest.max(legal.len());
            if legal == [BoomMove::Boom] && n.full() {
                boom_only += 1;
            }
            // Odd games run long, to fill the board.
            let m = if game % 2 == 1 {
                pick_long(&mut rng, &n, &legal)
            } else {
                pick(&mut rng, &legal)
            };
            if m == BoomMove::Boom {
                booms += 1;
            }
            // Through the text interface every other movement.
            s = if n.movement.is_multiple_of(2) {
                try_play(&s, &s.format_move(m)).unwrap()
            } else {
                s.apply(m)
            };
            let mover = n.mover();
            n.play(m);
            if m == BoomMove::Boom && (n.status == 1 || n.status == 2) {
                boom_wins[usize::from(n.status != mover)] += 1;
            }
            assert_same(&s, &n);
            let back = Boom::parse_fen(&s.format_fen(), &Config::default()).unwrap();
            assert_eq!(back, s, "fen round trip of {}", s.format_fen());
            assert_eq!(back.hash(), s.hash());
        }
        if n.full() && !n.four(1) && !n.four(2) {
            full_losses += 1;
        }
        results[n.status as usize] += 1;
    }
    // The random games must actually exercise explosions, wins of both sides and both
    // full-board endings.
    assert!(booms > 2000, "only {booms} explosions");
    assert!(results[1] > 0 && results[2] > 0, "{results:?}");
    assert!(
        boom_only > 0 && full_losses > 0,
        "{boom_only} boom-only positions, {full_losses} full-board losses"
    );
    assert!(boom_wins[0] > 0 && boom_wins[1] > 0, "{boom_wins:?}");
    assert_eq!(longest, 8);
}

#[test]
fn perft_matches_naive() {
    let start = Boom::start(&Config::default());
    let naive = Naive::new();
    for d in 0..=5 {
        assert_eq!(perft(&start, d), naive.perft(d), "perft {d} from the start");
    }
    let mut rng = Rng(7);
    for _ in 0..150 {
        let len = 10 + rng.below(40);
        let (s, n) = random_position(&mut rng, len);
        assert_eq!(perft(&s, 4), n.perft(4), "perft 4 of {}", s.format_fen());
    }
}

#[test]
fn perft_from_start_is_seven_to_the_n_until_a_four_can_exist() {
    // After 6 movements each side has 3 pieces; the 7th movement is P2's fourth piece, which
    // may end the game but is still a leaf. No bomb exists before movement 12.
    let s = Boom::start(&Config::default());
    for d in 0..=7 {
        assert_eq!(perft(&s, d), 7u64.pow(d), "perft {d}");
    }
    assert!(perft(&s, 8) < 7u64.pow(8));
}

#[test]
fn hash_separates_movement_number_and_bombs() {
    let a = Boom::parse_fen("7/7/7/7/7/7/xo5 x 4", &Config::default()).unwrap();
    let b = Boom::parse_fen("7/7/7/7/7/7/xo5 x 5", &Config::default()).unwrap();
    let c = Boom::parse_fen("7/7/7/7/7/7/Xo5 x 4", &Config::default()).unwrap();
    let d = Boom::parse_fen("7/7/7/7/7/7/xo5 o 6", &Config::default()).unwrap();
    let hs = [a.hash(), b.hash(), c.hash(), d.hash()];
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(hs[i], hs[j]);
        }
    }
}

#[test]
fn default_extends_leaves_in_the_middle_of_a_turn() {
    // The same quiet board (no threat, no two-movement window, no bomb) at each movement of a
    // turn: only the turn's second movement is unquiet, and only for `default` in 2020-21.
    let board = "7/7/7/7/7/7/2o1x2";
    let at = |side: &str, movement: u32, year: Year| {
        Boom::parse_fen(&format!("{board} {side} {movement}"), &Config::of(year)).unwrap()
    };
    for (side, movement, unquiet) in [
        ("x", 4, false),
        ("x", 5, true),
        ("o", 6, false),
        ("o", 7, true),
    ] {
        let s = at(side, movement, Year::Y2020);
        assert_eq!(s.unquiet(0), unquiet, "default at movement {movement}");
        assert!(
            !s.unquiet(1) && !s.unquiet(2),
            "test/seed at movement {movement}"
        );
    }
    let first = Boom::parse_fen("7/7/7/7/7/7/7 x 1", &Config::default()).unwrap();
    assert!(!first.unquiet(0), "P1's one-movement first turn");
    let y2018 = at("x", 3, Year::Y2018);
    assert!(!y2018.unquiet(0), "2018-19 turns are one movement");
}

#[test]
fn fen_examples_and_errors() {
    let s = Boom::start(&Config::default());
    assert_eq!(s.format_fen(), "7/7/7/7/7/7/7 x 1");
    assert_eq!(
        Boom::parse_fen("7/7/7/7/7/7/7 x 1", &Config::default()),
        Ok(s)
    );
    for bad in [
        "",
        "7/7/7/7/7/7/7",
        "7/7/7/7/7/7/7 x",
        "7/7/7/7/7/7/7 o 1",
        "7/7/7/7/7/7/7 x 2",
        "7/7/7/7/7/7/7 x 0",
        "7/7/7/7/7/7/7 x 65536",
        "7/7/7/7/7/7/7 x -3",
        "7/7/7/7/7/7 x 1",
        "7/7/7/7/7/7/7/7 x 1",
        "7/7/7/7/7/7/8 x 1",
        "7/7/7/7/7/x6/7 x 4",
        "7/7/7/7/7/7/XX5 x 4",
        "7/7/7/7/7/7/OxO4 x 4",
        "7/7/7/7/7/7/xxxx3 x 1",
        "7/7/7/7/7/7/7 x 1 extra",
        "7/7/7/7/7/7/7b x 1",
    ] {
        assert!(
            Boom::parse_fen(bad, &Config::default()).is_err(),
            "accepted '{bad}'"
        );
    }
}

#[test]
fn parse_move_errors() {
    let s = Boom::start(&Config::default());
    assert!(matches!(s.parse_move("boom"), Err(MoveError::Illegal(m)) if m.contains("no bomb")));
    for bad in ["0", "8", "", "bom", "put 1", "-1"] {
        assert!(s.parse_move(bad).is_err(), "accepted '{bad}'");
    }
    assert_eq!(s.parse_move(" 7 "), Ok(BoomMove::Put(6)));
    let full = Boom::parse_fen("x6/o6/x6/o6/x6/o6/X6 x 20", &Config::default()).unwrap();
    assert!(matches!(full.parse_move("1"), Err(MoveError::Illegal(m)) if m.contains("full")));
    assert_eq!(full.parse_move("BOOM"), Ok(BoomMove::Boom));
}

proptest! {
    #[test]
    fn parse_fen_never_panics(s in "\\PC{0,60}") {
        let _ = Boom::parse_fen(&s, &Config::default());
    }

    #[test]
    fn parse_fen_alphabet_round_trips(s in "[xoXO1-8/]{0,40} [xo] [0-9]{1,6}") {
        if let Ok(p) = Boom::parse_fen(&s, &Config::default()) {
            prop_assert!(p.invariants_hold());
            prop_assert_eq!(Boom::parse_fen(&p.format_fen(), &Config::default()), Ok(p));
        }
    }

    #[test]
    fn parse_move_never_panics(s in "\\PC{0,10}") {
        let _ = Boom::start(&Config::default()).parse_move(&s);
    }

    /// Canonical fens of arbitrary gravity-respecting boards (any piece mix, lines included,
    /// up to one bomb each) parse, satisfy the invariants and print back identically.
    #[test]
    fn canonical_fens_round_trip(
        heights in proptest::collection::vec(0usize..=7, 7),
        owners in proptest::collection::vec(0u8..2, 49),
        bombs in (0usize..60, 0usize..60),
        movement in 2u16..400,
    ) {
        let mut grid = [['.'; 7]; 7]; // grid[r][c]
        for c in 0..7 {
            for r in 0..heights[c] {
                grid[r][c] = if owners[c * 7 + r] == 0 { 'x' } else { 'o' };
            }
        }
        // Turn the bombs.0-th x (and bombs.1-th o), if any, into a bomb.
        for (target, who, bomb) in [(bombs.0, 'x', 'X'), (bombs.1, 'o', 'O')] {
            let cells: Vec<(usize, usize)> = (0..7)
                .flat_map(|r| (0..7).map(move |c| (r, c)))
                .filter(|&(r, c)| grid[r][c] == who)
                .collect();
            if let Some(&(r, c)) = cells.get(target) {
                grid[r][c] = bomb;
            }
        }
        let rows: Vec<String> = (0..7)
            .rev()
            .map(|r| {
                let mut out = String::new();
                let mut run = 0;
                for &ch in &grid[r] {
                    if ch == '.' {
                        run += 1;
                    } else {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(ch);
                    }
                }
                if run > 0 {
                    out.push_str(&run.to_string());
                }
                out
            })
            .collect();
        let side = match tablero::games::boom::side_of_movement(movement) {
            Side::First => 'x',
            Side::Second => 'o',
        };
        let fen = format!("{} {side} {movement}", rows.join("/"));
        let p = Boom::parse_fen(&fen, &Config::default());
        prop_assert!(p.is_ok(), "{}: {:?}", fen, p);
        let p = p.unwrap();
        prop_assert!(p.invariants_hold());
        prop_assert_eq!(p.format_fen(), fen);
    }
}

/// The reference searches decide MAX/MIN by side to move; with BOOM's two-movement turns,
/// minimax and alpha-beta must still agree for every heuristic (a cheap consistency check of
/// `side_to_move`, `outcome` and the evaluations' perspective handling).
#[test]
fn minimax_equals_alphabeta_on_random_positions() {
    use tablero::core::search::reference::{minimax, root_value};
    let mut rng = Rng(2024);
    for _ in 0..30 {
        let len = rng.below(40);
        let (s, _) = random_position(&mut rng, len);
        for h in 0..Boom::HEURISTICS.len() {
            let mut nodes = 0;
            let mm = minimax(&s, 3, 0, h, s.side_to_move(), &mut nodes);
            assert_eq!(root_value(&s, 3, h), mm, "{} heuristic {h}", s.format_fen());
        }
    }
}
