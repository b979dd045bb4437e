//! Parchís "con un twist" (UGR AI course 2022-23): the state, its `Game` implementation and the
//! glue between the rules engine (`rules`), the text formats (`text`) and the heuristics
//! (`eval`). The behaviour is the reference simulator's, quirks included
//! (`docs/rules/parchis.md`).
//!
//! # Years
//! The `Year` option picks the course year whose simulator is played ([`Year`]): `2022-23` (the
//! default, described below) or `2021-22`, the course's first Parchís (docs/parchis-2021-22.md):
//! four pieces a colour (one at home at the start), no items, the colours move in turn (yellow,
//! blue, red, green), each colour with its own dice 1 to 6; or `2023-24`, "Parchís BOOM"
//! (docs/parchis-2023-24.md): 2022-23's board, players and turns without the board's items, each
//! player's dice `1 2 4 5 6` and a special die whose effect (a mushroom run, a shell, a boom, a
//! bullet, a star, ...) the mover's power bar picks, a bar its own moves fill; or `2024-25`, the yin-yang year
//! (docs/parchis-2024-25.md): two pieces a colour (none at home at the start), no items, a player
//! owns yellow and green or blue and red, the colours take turns (so a player moves twice in a
//! row), each player's dice `1 2 4 5 6` and the yin-yang die, normal values counting double and
//! the yin-yang one box, and a player wins with both its colours in the goal. The years share
//! the board, the moves, the captures and bonuses, and most of the code; a 2021-22 or 2024-25
//! position has its own state string (mode `c` or `y`, below; a 2023-24 one mode `b`), so the
//! year is part of the position as well as of the configuration.
//!
//! # Move notation
//! `<piece>:<die>` with piece = colour letter (`y`, `b`, `r`, `g`) + index (`y0`, `g3`) and die =
//! `1 2 4 5 6 10 20`, `power` (2023-24's special die), `yinyang` (2024-25) or an item name (`star boo bullet redshell blueshell mushroom megamushroom
//! shock horn banana`); a pass is `pass:<die>`.
//!
//! # FEN (state string)
//! Twelve space-separated fields:
//!
//! 1. mode: `n` (normal game) or `p` (playground); `c` for a 2021-22 game, `b` for a 2023-24
//!    one, `y` for a 2024-25 one.
//! 2. player to move: `0` or `1`; in a 2021-22 or 2024-25 game the colour to move, `y` `b` `r`
//!    `g` (its player: in 2021-22 yellow and red 0, blue and green 1; in 2024-25 yellow and green
//!    0, blue and red 1).
//! 3. turn counter (decimal, starts at 1).
//! 4. pieces: four `/`-separated colour groups in the order yellow, blue, red, green, each a
//!    `,`-separated list (3 or 4 pieces, 2 in 2024-25, the same count for every colour) of boxes `h` (home),
//!    `g` (goal), `n<1..68>` (track), `q<1..7>` (own queue), optionally followed by
//!    `:<type><counter>` with type `s` star, `o` boo, `m` mega, `i` mini, `b` bananed, `n` normal
//!    (omitted for a normal piece with counter 0), e.g. `n17:m2`.
//! 5. and 6. dice of player 0 and player 1: `<normal>:<items>:<forced>` where normal = the
//!    remaining normal dice as digits (`12456`), items = held items in acquisition order as
//!    letters (`s` star, `o` boo, `u` bullet, `r` redshell, `l` blueshell, `m` mushroom,
//!    `M` megamushroom, `k` shock, `h` horn, `a` banana) or `-`, forced = pending bonus layers
//!    bottom-to-top `+`-separated (`20`, `20+10`) or `-`. In a 2021-22 game the dice are a
//!    colour's: field 5 is yellow's and red's, field 6 blue's and green's, each
//!    `<normal>:-:<forced>` (normal dice from `123456`), the two `/`-separated. In a 2024-25 game
//!    field 5 is player 0's dice, field 6 player 1's, `<normal>:-:<forced>` with normal dice from
//!    `12456Y` (`Y` the yin-yang die). In a 2023-24 game (players as in 2022-23) each player's
//!    dice are `<normal>:<power>:<forced>`: normal dice from `12456P` (`P` the special die) and
//!    the player's power bar, 0 to 100, where 2022-23 has items (`12456P:0:-`).
//! 7. items on the board: 6 hex digits, bit i set iff item i of the start position's 24-item
//!    list (rules §2, in that order) is still on the board.
//! 8. banana traps in placement order: `,`-separated box numbers, or `-`.
//! 9. bounce counters y,b,r,g: `0,0,0,0`.
//! 10. flags: any of `e` eating_move, `g` goal_move, `r` remember_6, `b` bananed, or `-`.
//! 11. outcome: `-` (running), `G<c>` (colour c completed: its player won; in 2024-25 `Gy` or
//!     `Gb`, the player of yellow or blue completed both its colours), `B<p>` (player p won
//!     because the other bounced more than 30 times).
//! 12. last-move record for the `seed` heuristic: `<mover>/<eaten>/<destroyed>` with mover and
//!     eaten a colour letter or `-`, destroyed the colours of the pieces sent home by the last
//!     move other than a normal capture (one letter per piece) or `-`, e.g. `y/b/-`.
//!
//! Start position: `n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 12456:-:- 12456:-:-
//! ffffff - 0,0,0,0 - - -/-/-` (one line). In 2021-22: `c y 1
//! h,n4,n13,n17/h,n21,n30,n34/h,n38,n47,n51/h,n55,n64,n68 123456:-:-/123456:-:-
//! 123456:-:-/123456:-:- 000000 - 0,0,0,0 - - -/-/-` (one line; board items always `000000`,
//! traps `-`, no piece types, flags without `b`, the destroyed list `-`). In 2024-25: `y y 1
//! n4,n13/n21,n30/n38,n47/n55,n64 12456Y:-:- 12456Y:-:- 000000 - 0,0,0,0 - - -/-/-` (the same
//! restrictions as 2021-22's). In 2023-24: `b 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68
//! 12456P:0:- 12456P:0:- 000000 - 0,0,0,0 - - -/-/-` (one line; no items, traps or bananed flag;
//! piece types only star and normal).

mod eval;
mod rules;
mod text;

use arrayvec::ArrayVec;

use crate::core::game::{
    BenchPosition, FenError, Game, Hue, Ink, LabelKind, LearnPlan, MoveError, Outcome, Positions,
    Profile, ReviewCalibration, Side,
};

/// Box codes: home 0, track 1..=68, own queue q1..q7 = 69..=75, goal 76.
pub(crate) const HOME: u8 = 0;
pub(crate) const GOAL: u8 = 76;

/// Piece types (low 3 bits of the per-piece state byte; the counter is in the high bits).
pub(crate) const T_NORMAL: u8 = 0;
pub(crate) const T_STAR: u8 = 1;
pub(crate) const T_BOO: u8 = 2;
pub(crate) const T_MEGA: u8 = 3;
pub(crate) const T_MINI: u8 = 4;
pub(crate) const T_BANANED: u8 = 5;

/// Item kinds (reference code − 101).
pub(crate) const STAR: u8 = 0;
pub(crate) const BOO: u8 = 1;
pub(crate) const BULLET: u8 = 2;
pub(crate) const REDSHELL: u8 = 3;
pub(crate) const BLUESHELL: u8 = 4;
pub(crate) const MUSHROOM: u8 = 5;
pub(crate) const MEGAMUSHROOM: u8 = 6;
pub(crate) const SHOCK: u8 = 7;
pub(crate) const HORN: u8 = 8;
pub(crate) const BANANA: u8 = 9;

/// Flag bits.
pub(crate) const F_EATING: u8 = 1;
pub(crate) const F_GOAL: u8 = 2;
pub(crate) const F_REMEMBER6: u8 = 4;
pub(crate) const F_BANANED: u8 = 8;

/// Capacity of the banana-trap list. A normal game has at most 4 bananas in total (the 4 board
/// items), so at most 4 traps; playground games place unlimited bananas (the traces peak at 10).
/// Beyond this capacity new traps are dropped (playground only) rather than growing the state.
pub(crate) const MAX_TRAPS: usize = 24;

/// Capacity of a hand: 2 in a normal game (pick-ups and boo steals stop at 2), 5 in the
/// playground start (which never grows: there are no board items and boo steals nothing).
pub(crate) const MAX_HAND: usize = 5;

/// A move: piece id (`4 * colour + index`, colours y b r g) or [`Move::PASS`], and the die:
/// 1..=20 for number dice, 101..=110 for items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub piece: u8,
    pub die: u8,
}

impl Move {
    pub const PASS: u8 = 0xFF;
    #[inline]
    pub fn new(piece: u8, die: u8) -> Move {
        Move { piece, die }
    }
    #[inline]
    pub fn pass(die: u8) -> Move {
        Move {
            piece: Move::PASS,
            die,
        }
    }
    #[inline]
    pub fn is_pass(self) -> bool {
        self.piece == Move::PASS
    }
}

/// The move list (2021-22 needs at most 4 pieces × 6 dice = 24). Capacity 80: the mover has 2 colours × at most 4 pieces = 8 pieces, and at
/// most 10 usable dice kinds (5 normal dice + at most 5 held items in a playground hand; with a
/// pending bonus only 1). Each die kind yields either up to 8 piece moves or a single pass, so
/// 8 × 10 = 80 bounds every position. A normal game needs at most 6 × (5 + 2) = 42.
pub type Moves = ArrayVec<Move, 80>;

/// Boxes of the mover's closest colour per ply it still plays ([`Game::moves_left`]): 49 plies
/// at the start, as self-play games last about 120 plies (60 a side; see docs/matches.md,
/// "Clock play"). With 8 (25 plies) the clock drained too fast at 1+0.01.
const MOVES_LEFT_STEPS: u32 = 4;

/// One Parchís position (see the module doc for the field meanings via the FEN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parchis {
    /// Box of each piece id (`4 * colour + index`); ids with index ≥ `npieces` are unused.
    pos: [u8; 16],
    /// Type (bits 0..3) and counter (bits 3..8) of each piece.
    st: [u8; 16],
    /// Pieces per colour (3, or 4 in the playground).
    npieces: u8,
    playground: bool,
    /// Player to move (0 or 1).
    player: u8,
    /// The core's current colour, which owns the dice in play: in 2022-23 yellow or blue, i.e.
    /// always equal to `player`; in 2021-22 the colour to move (y b r g in turn).
    colour: u8,
    flags: u8,
    /// Normal dice per owner (`colour`: players 0 and 1 in 2022-23, the four colours in 2021-22),
    /// bit k ↔ the year's `rules::dice_values()[k]`. In 2022-23 entries 2 and 3 stay 0.
    dice: [u8; 4],
    /// Held items per player, in acquisition order.
    hand: [[u8; MAX_HAND]; 2],
    hand_len: [u8; 2],
    /// Pending bonus layers per dice owner: count and values (bit i set = layer i is a 20).
    forced_len: [u8; 4],
    forced_bits: [u16; 4],
    /// Bit i set iff `rules::BOARD_ITEMS[i]` is still on the board.
    board_items: u32,
    traps: [u8; MAX_TRAPS],
    ntraps: u8,
    bounces: [u8; 4],
    /// 0 running; 1..=4 colour c+1 completed (its player won); 5/6 player 0/1 won by bounces.
    outcome: u8,
    turn: u32,
    /// What the last move did, for the `seed` heuristic: mover colour (0xFF none), colour of a
    /// normally captured piece (0xFF none), pieces sent home otherwise per colour.
    last_mover: u8,
    last_eaten: u8,
    destroyed: [u8; 4],
    /// Whose rules.
    year: Year,
    /// 2023-24: each player's power bar (0 to 100), which picks what its special die does; 0 in
    /// the other years.
    power: [u8; 2],
}

/// The course year whose simulator's rules are played (the `Year` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Year {
    /// The course's first Parchís (2021-22): no items, four pieces a colour, colours in turn,
    /// dice per colour (docs/parchis-2021-22.md).
    Y2021,
    /// Parchís "con un twist" (2022-23): the module's rules above.
    #[default]
    Y2022,
    /// "Parchís BOOM" (2023-24): 2022-23 without board items, a special die whose effect the
    /// mover's power bar picks (docs/parchis-2023-24.md).
    Y2023,
    /// The yin-yang year (2024-25): no items, two pieces a colour, partners yellow–green and
    /// blue–red, colours in turn, the player's dice with a yin-yang face, normal values doubled
    /// (docs/parchis-2024-25.md).
    Y2024,
}

impl Year {
    /// The `Year` option's value of this year (the calendar year the course started).
    pub const fn value(self) -> i64 {
        match self {
            Year::Y2021 => 2021,
            Year::Y2022 => 2022,
            Year::Y2023 => 2023,
            Year::Y2024 => 2024,
        }
    }

    /// The year of a checked `Year` value.
    pub const fn of_value(v: i64) -> Year {
        match v {
            2021 => Year::Y2021,
            2023 => Year::Y2023,
            2024 => Year::Y2024,
            _ => Year::Y2022,
        }
    }
}

/// Variant configuration: the course year.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParchisConfig {
    pub year: Year,
}

impl ParchisConfig {
    /// The configuration of `year`.
    pub const fn of(year: Year) -> ParchisConfig {
        ParchisConfig { year }
    }
}

impl Parchis {
    fn empty() -> Parchis {
        Parchis {
            pos: [0; 16],
            st: [0; 16],
            npieces: 3,
            playground: false,
            player: 0,
            colour: 0,
            flags: 0,
            dice: [rules::ALL_DICE, rules::ALL_DICE, 0, 0],
            hand: [[0; MAX_HAND]; 2],
            hand_len: [0; 2],
            forced_len: [0; 4],
            forced_bits: [0; 4],
            board_items: 0,
            traps: [0; MAX_TRAPS],
            ntraps: 0,
            bounces: [0; 4],
            outcome: 0,
            turn: 1,
            last_mover: 0xFF,
            last_eaten: 0xFF,
            destroyed: [0; 4],
            year: Year::Y2022,
            power: [0; 2],
        }
    }

    /// The 2021-22 start (the course's `GROUPED` board): piece 0 of each colour at home, pieces
    /// 1 to 3 on the colour's three safe boxes; every colour holds the dice 1 to 6; no items.
    pub fn start_2021() -> Parchis {
        let mut s = Parchis::empty();
        s.year = Year::Y2021;
        s.npieces = 4;
        let boxes: [[u8; 4]; 4] = [
            [HOME, 4, 13, 17],
            [HOME, 21, 30, 34],
            [HOME, 38, 47, 51],
            [HOME, 55, 64, 68],
        ];
        for (c, bs) in boxes.iter().enumerate() {
            for (i, &b) in bs.iter().enumerate() {
                s.pos[4 * c + i] = b;
            }
        }
        s.dice = [rules::ALL_DICE_2021; 4];
        s
    }

    /// The 2024-25 start (the course's `GROUPED2` board, which its `main` always plays): two
    /// pieces a colour on the colour's first two safe boxes, none at home; each player holds the
    /// dice 1, 2, 4, 5, 6 and yin-yang; no items.
    pub fn start_2024() -> Parchis {
        let mut s = Parchis::empty();
        s.year = Year::Y2024;
        s.npieces = 2;
        let boxes: [[u8; 2]; 4] = [[4, 13], [21, 30], [38, 47], [55, 64]];
        for (c, bs) in boxes.iter().enumerate() {
            for (i, &b) in bs.iter().enumerate() {
                s.pos[4 * c + i] = b;
            }
        }
        s.dice = [rules::ALL_DICE_2024, rules::ALL_DICE_2024, 0, 0];
        s
    }

    /// The 2023-24 start (the course's `GROUPED` board, its `main`'s default): 2022-23's pieces
    /// without the board's items; each player holds the dice 1, 2, 4, 5, 6 and the special die,
    /// its power bar empty.
    pub fn start_2023() -> Parchis {
        let mut s = Parchis::normal_start();
        s.year = Year::Y2023;
        s.board_items = 0;
        s.dice = [rules::ALL_DICE_2023, rules::ALL_DICE_2023, 0, 0];
        s
    }

    /// Whose rules this position follows.
    pub fn year(&self) -> Year {
        self.year
    }

    /// The normal start position (rules §2).
    pub fn normal_start() -> Parchis {
        let mut s = Parchis::empty();
        let boxes: [[u8; 3]; 4] = [[4, 13, 17], [21, 30, 34], [38, 47, 51], [55, 64, 68]];
        for (c, bs) in boxes.iter().enumerate() {
            for (i, &b) in bs.iter().enumerate() {
                s.pos[4 * c + i] = b;
            }
        }
        s.board_items = (1 << 24) - 1;
        s
    }

    /// The playground start position (rules §11).
    pub fn playground_start() -> Parchis {
        let mut s = Parchis::empty();
        s.npieces = 4;
        s.playground = true;
        let boxes: [[u8; 4]; 4] = [
            [13, 14, 15, 16],
            [18, 19, 20, 20],
            [24, 24, 25, 25],
            [21, 21, 22, 23],
        ];
        for (c, bs) in boxes.iter().enumerate() {
            for (i, &b) in bs.iter().enumerate() {
                s.pos[4 * c + i] = b;
            }
        }
        s.hand = [
            [BANANA, REDSHELL, BULLET, BOO, STAR],
            [MUSHROOM, HORN, BLUESHELL, SHOCK, MEGAMUSHROOM],
        ];
        s.hand_len = [5, 5];
        s
    }

    /// Pieces per colour.
    pub fn pieces_per_colour(&self) -> usize {
        self.npieces as usize
    }
}

/// SplitMix64 finaliser: a strong 64-bit mixer for the state hash.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Game for Parchis {
    type Move = Move;
    type Moves = Moves;
    type Config = ParchisConfig;
    type Weights = eval::Weights;

    const NAME: &'static str = "parchis";
    const TITLE: &'static str = "Parchís with items";
    const ALIASES: &'static [&'static str] = &["parcheesi"];
    const OPTIONS: &'static [crate::core::game::VariantOption] =
        &[crate::core::game::VariantOption::combo(
            "Year",
            2022,
            &[
                ("2021-22", 2021),
                ("2022-23", 2022),
                ("2023-24", 2023),
                ("2024-25", 2024),
            ],
        )];
    const HEURISTICS: &'static [&'static str] = &["default", "test", "seed"];
    /// Parchís' tree is far bushier (four pieces × dice choices): shallower built-in players, so that every level still plays a game in seconds; reviews at the course's depth 6. The review's curves are fitted on 200 self-play games at the default depth and
    /// 100 one ply shallower (docs/review.md, "Calibration").
    const PROFILE: Profile = Profile {
        bench: &[
            BenchPosition {
                start: "startpos",
                moves: "",
                depth: 6,
            },
            BenchPosition {
                start: "startpos",
                moves: "r1:6 y1:1 b1:1 y1:bullet b2:6 b2:bullet y1:2 b2:4 y2:4 b2:5 y1:5 g0:2 y1:6 y0:boo b2:6 \
         b2:4 g1:10 y1:1 b0:megamushroom r0:2 b1:1 y0:shock b0:2 y0:shock",
                depth: 6,
            },
            BenchPosition {
                start: "startpos",
                moves: "r1:6 y1:1 g1:6 b1:1 y1:bullet g2:2 y1:boo b1:bullet y2:5 g2:4 y0:2 r2:20 y1:20 y2:10 \
         b0:5 y2:star b1:1 b2:20 b1:20 y2:4 b2:6 b2:5 y2:6 y2:5 b2:4 r2:1 b2:2 y2:banana b1:1 \
         b0:10 y2:banana b0:6 g1:5 r2:2 b2:2 b2:20 pass:4 b0:4 pass:6 y0:5 g0:6 b2:1 b0:10 y0:4 \
         b0:megamushroom y0:2 b0:4 y0:1 b0:shock y0:6 y0:2 b0:star y0:4 b0:5 y0:5 b0:2 y0:1 b0:6 \
         g1:5 y0:6",
                depth: 6,
            },
        ],
        ladder: [1, 3, 4, 5],
        review_depth: 6,
        review: ReviewCalibration {
            even: (1153.3, -25.7),
            odd: (863.2, -31.0),
            inaccuracy: 0.04,
        },
        learn: LearnPlan {
            labels: LabelKind::Result,
            positions: Positions::Roots,
            squares_unit: None,
            exclude: &[],
            fixed: &[
                "ParchisW_danger_next",
                "ParchisW_danger_later",
                "ParchisW_colour_best",
                "ParchisW_colour_other",
            ],
        },
    };
    const KILLERS_BEFORE_HINTS: bool = true;
    const HINT_MIN_DEPTH: u32 = 2;
    /// `default` follows a leaf where a colour has a piece in the goal and at most two outside
    /// it up to 2 plies further, never past ply 8: against `seed` at the course's depth 6 it went
    /// from 85.8 % (no extension) and 89.4 % (one piece outside) to 95.1 % (docs/players.md,
    /// "Parchís against `seed` at depth 6").
    const EXTENSION_PLIES: u32 = 2;
    const EXTENSION_HORIZON: u32 = 8;

    fn config_of(values: &[i64]) -> ParchisConfig {
        ParchisConfig::of(Year::of_value(values.first().copied().unwrap_or(2022)))
    }

    fn start(config: &ParchisConfig) -> Parchis {
        match config.year {
            Year::Y2021 => Parchis::start_2021(),
            Year::Y2022 => Parchis::normal_start(),
            Year::Y2023 => Parchis::start_2023(),
            Year::Y2024 => Parchis::start_2024(),
        }
    }

    fn named_start(name: &str, config: &ParchisConfig) -> Option<Parchis> {
        match (name, config.year) {
            // 2021-22, 2023-24 and 2024-25 have no playground.
            ("playground", Year::Y2022) => Some(Parchis::playground_start()),
            ("start" | "startpos" | "normal", _) => Some(Parchis::start(config)),
            _ => None,
        }
    }

    fn side_to_move(&self) -> Side {
        Side::from_index(self.player as usize)
    }

    fn legal_moves(&self, out: &mut Moves) {
        self.gen_moves(out);
    }

    fn is_legal(&self, m: Move) -> bool {
        Parchis::is_legal(self, m)
    }

    fn apply(&self, m: Move) -> Parchis {
        let mut s = *self;
        s.play(m);
        s
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.outcome {
            0 => None,
            1..=4 => Some(Outcome::Win(Side::from_index(rules::player_of(
                self.outcome as usize - 1,
            )))),
            o => Some(Outcome::Win(Side::from_index((o - 5) as usize))),
        }
    }

    fn hash(&self) -> u64 {
        // Every field except the turn counter (which never affects the future), each word
        // mixed before being folded in so that no two fields can cancel.
        let mut words = [0u64; 12];
        words[0] = u64::from_le_bytes(self.pos[..8].try_into().unwrap_or_default());
        words[1] = u64::from_le_bytes(self.pos[8..].try_into().unwrap_or_default());
        words[2] = u64::from_le_bytes(self.st[..8].try_into().unwrap_or_default());
        words[3] = u64::from_le_bytes(self.st[8..].try_into().unwrap_or_default());
        let mut h0 = 0u64;
        for k in 0..MAX_HAND {
            h0 = h0 << 4 | self.hand[0][k] as u64;
            h0 = h0 << 4 | self.hand[1][k] as u64;
        }
        words[4] = h0 << 8 | (self.hand_len[0] as u64) << 4 | self.hand_len[1] as u64;
        words[5] = (self.dice[0] as u64)
            | (self.dice[1] as u64) << 8
            | (self.forced_len[0] as u64) << 16
            | (self.forced_len[1] as u64) << 24
            | (self.forced_bits[0] as u64) << 32
            | (self.forced_bits[1] as u64) << 48;
        words[6] = self.board_items as u64
            | (self.player as u64) << 32
            | (self.flags as u64) << 40
            | (self.outcome as u64) << 48
            | (self.npieces as u64) << 56
            | (self.playground as u64) << 60;
        words[7] = u32::from_le_bytes(self.bounces) as u64
            | (self.last_mover as u64) << 32
            | (self.last_eaten as u64) << 40
            | (self.ntraps as u64) << 48;
        // What only 2021-22 uses (the red and green dice, the colour beyond the player, the year)
        // is folded into the free high bits: all zero in 2022-23, whose hash stays as it was.
        words[8] = u32::from_le_bytes(self.destroyed) as u64
            | (self.dice[2] as u64) << 32
            | (self.dice[3] as u64) << 40
            | (self.forced_len[2] as u64 & 0xF) << 48
            | (self.forced_len[3] as u64 & 0xF) << 52
            | ((self.colour ^ self.player) as u64) << 56
            | ((self.year == Year::Y2021) as u64) << 60
            | ((self.year == Year::Y2024) as u64) << 61
            | ((self.year == Year::Y2023) as u64) << 62;
        // 2023-24's power bars, in bits free (zero) in every other year's words.
        words[6] |= (self.power[1] as u64) << 24;
        words[7] |= (self.power[0] as u64) << 56;
        words[8] ^= (self.forced_bits[2] as u64 | (self.forced_bits[3] as u64) << 16) << 8;
        for (k, chunk) in self.traps.chunks(8).enumerate() {
            let mut w = 0u64;
            for &t in chunk {
                w = w << 8 | t as u64;
            }
            words[9 + k] = w;
        }
        // Each word is spread by an odd multiplier and a rotation that differ per position
        // (so equal words in different fields cannot cancel), then one strong final mix.
        let mut h = 0x9e37_79b9_7f4a_7c15u64;
        for (k, &w) in words.iter().enumerate() {
            h = (h ^ w)
                .wrapping_mul(0xbf58_476d_1ce4_e5b9 ^ ((k as u64) << 1))
                .rotate_left(23 + k as u32);
        }
        mix(h)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = text::parse_move_text(text.trim())?;
        let mut moves = Moves::new();
        self.gen_moves(&mut moves);
        if moves.contains(&m) {
            Ok(m)
        } else if self.outcome != 0 {
            Err(MoveError::Over(format!(
                "illegal move '{text}': the game is over"
            )))
        } else {
            let list: Vec<String> = moves.iter().map(|&m| text::format_move(m)).collect();
            Err(MoveError::Illegal(format!(
                "illegal move '{text}' in this position; legal moves: {}",
                list.join(" ")
            )))
        }
    }

    fn format_move(&self, m: Move) -> String {
        text::format_move(m)
    }

    fn format_fen(&self) -> String {
        text::format_fen(self)
    }

    fn parse_fen(text: &str, config: &ParchisConfig) -> Result<Parchis, FenError> {
        // Its form and ranges are `Syntax`; what its own year's rules do not have, `Rules`.
        let s = text::parse_fen(text)?;
        // A state string says its year (mode `c`); the rules played are the configuration's.
        let refused = match (s.year, config.year) {
            (found, wanted) if found == wanted => return Ok(s),
            (Year::Y2021, _) => "a 2021-22 state string (mode c): set the option Year to 2021-22",
            (Year::Y2023, _) => "a 2023-24 state string (mode b): set the option Year to 2023-24",
            (Year::Y2024, _) => "a 2024-25 state string (mode y): set the option Year to 2024-25",
            (Year::Y2022, Year::Y2021) => {
                "a 2022-23 state string (mode n or p): with Year 2021-22 the mode is c"
            }
            (Year::Y2022, Year::Y2023) => {
                "a 2022-23 state string (mode n or p): with Year 2023-24 the mode is b"
            }
            (Year::Y2022, _) => {
                "a 2022-23 state string (mode n or p): with Year 2024-25 the mode is y"
            }
        };
        Err(FenError::Rules(refused.into()))
    }

    fn display(&self) -> String {
        text::display(self)
    }

    /// One line per colour in its colour; the piece moved (`y0:5` moves y0) is marked where
    /// listed.
    fn display_inked(
        &self,
        last: Option<(&str, Side)>,
        ink: &dyn Fn(&str, Ink) -> String,
    ) -> String {
        let text = self.display();
        let piece = last.and_then(|(m, _)| m.split(':').next()).unwrap_or("");
        let out: Vec<String> = text
            .trim_end()
            .lines()
            .map(|l| {
                let hue = match l.split_whitespace().next() {
                    Some("yellow") => Hue::Yellow,
                    Some("blue") => Hue::Blue,
                    Some("red") => Hue::Red,
                    Some("green") => Hue::Green,
                    _ => return l.to_string(),
                };
                let token = format!(" {piece}=");
                match l.find(&token).filter(|_| !piece.is_empty()) {
                    Some(at) => {
                        let start = at + 1;
                        let end = l[start..].find(' ').map_or(l.len(), |e| start + e);
                        ink(&l[..start], Ink::of(hue))
                            + &ink(&l[start..end], Ink { hue, marked: true })
                            + &ink(&l[end..], Ink::of(hue))
                    }
                    None => ink(l, Ink::of(hue)),
                }
            })
            .collect();
        out.join("\n")
    }

    /// `default` only: `test` and `seed` stay the course's plain minimax.
    fn unquiet(&self, heuristic: usize) -> bool {
        heuristic == 0 && eval::endgame_unquiet(self)
    }

    fn move_order_hint(&self, m: Move) -> i32 {
        eval::move_order_hint(self, m)
    }

    /// The mover's closest colour decides the game: its pieces' total distance to the goal,
    /// at about MOVES_LEFT_STEPS boxes per ply of the mover (dice, bonus counts, items).
    fn moves_left(&self) -> u32 {
        let me = self.player as usize;
        let closest = (0..4)
            .filter(|&c| self.player_of_colour(c) == me)
            .map(|c| {
                (0..self.npieces as usize)
                    .map(|i| rules::distance_to_goal(c, self.pos[4 * c + i]))
                    .sum::<i32>()
            })
            .min()
            .unwrap_or(0);
        (closest.max(0) as u32).div_ceil(MOVES_LEFT_STEPS).max(1)
    }
}

/// The type of a piece (what its state letter in the FEN says).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceKind {
    Normal,
    Star,
    Boo,
    Mega,
    Mini,
    Bananed,
}

impl PieceKind {
    /// The name used in the traces' STATE JSON (`star`, `mega`, …).
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::Normal => "normal",
            PieceKind::Star => "star",
            PieceKind::Boo => "boo",
            PieceKind::Mega => "mega",
            PieceKind::Mini => "mini",
            PieceKind::Bananed => "bananed",
        }
    }
}

/// What 2023-24's special die does, as the mover's power bar picks it (the core's `movePiece`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerEffect {
    /// Runs the piece `n` boxes on (to the goal when that is as near), then on to a free box:
    /// 7 + bar/7 below 50, 25 from 65 to 69.
    Mushroom(u8),
    /// Sends home the nearest pieces of other colours ahead of the piece (50–59, 70–74).
    RedShell,
    /// Sends home the player's piece farthest from the goal and every piece within two boxes
    /// of it (60–64).
    Boom,
    /// Runs the piece 40 boxes on (75–79).
    Bullet,
    /// Sends home the player's piece nearest the goal and every piece within two boxes (80–84).
    Catapum,
    /// Sends home the other colours' pieces nearest their goals (85–89).
    BlueShell,
    /// Sends home the piece of the player's first colour nearest the goal (of its second colour
    /// when the first is all in the goal) and every piece within two boxes (90–94).
    BoomBoom,
    /// Makes the piece a star for 6 turns (95–99).
    Star,
    /// Sends home the pieces of the player's colour nearer the goal, and every piece within
    /// two boxes of them (100).
    CatapumChimpum,
}

impl PowerEffect {
    /// The name of the effect (the core's item name).
    pub fn name(self) -> &'static str {
        match self {
            PowerEffect::Mushroom(_) => "mushroom",
            PowerEffect::RedShell => "redshell",
            PowerEffect::Boom => "boom",
            PowerEffect::Bullet => "bullet",
            PowerEffect::Catapum => "catapum",
            PowerEffect::BlueShell => "blueshell",
            PowerEffect::BoomBoom => "boomboom",
            PowerEffect::Star => "star",
            PowerEffect::CatapumChimpum => "catapumchimpum",
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Colour `colour` (0..4, y b r g) got all its pieces to the goal: its player won.
    Goal { colour: usize },
    /// `winner` won because the other player bounced more than 30 times.
    Bounces { winner: usize },
}

/// Read-only geometry and accessors for front ends (pictures, pages). Box codes are those of
/// the module doc: home 0, track 1..=68, own queue q1..q7 = 69..=75, goal 76. Piece ids are
/// `4 * colour + index`, colours y b r g.
impl Parchis {
    /// Box code of the home.
    pub const HOME: u8 = HOME;
    /// Box code of the goal.
    pub const GOAL: u8 = GOAL;

    /// Track box where colour `c`'s pieces leave home.
    pub fn start_box(c: usize) -> u8 {
        rules::START[c & 3]
    }
    /// Last track box before colour `c`'s queue.
    pub fn entrance_box(c: usize) -> u8 {
        rules::ENTRANCE[c & 3]
    }
    /// Is track box `b` safe?
    pub fn is_safe(b: u8) -> bool {
        rules::is_track(b) && rules::SAFE_MASK >> b & 1 == 1
    }
    /// The name of item kind `k` (0..10 in the order star boo bullet redshell blueshell mushroom
    /// megamushroom shock horn banana; a move's die is `101 + k`).
    pub fn item_name(k: u8) -> &'static str {
        text::item_name(k)
    }
    /// Is piece id `id` in play (its index is below the pieces per colour)?
    pub fn piece_in_play(&self, id: usize) -> bool {
        id < 16 && id & 3 < self.npieces as usize
    }
    /// Box code of piece `id`.
    pub fn piece_box(&self, id: usize) -> u8 {
        self.pos[id & 15]
    }
    /// Type of piece `id`.
    pub fn piece_kind(&self, id: usize) -> PieceKind {
        match self.typ(id & 15) {
            T_STAR => PieceKind::Star,
            T_BOO => PieceKind::Boo,
            T_MEGA => PieceKind::Mega,
            T_MINI => PieceKind::Mini,
            T_BANANED => PieceKind::Bananed,
            _ => PieceKind::Normal,
        }
    }
    /// Turns-left counter of piece `id`.
    pub fn piece_counter(&self, id: usize) -> u8 {
        self.counter(id & 15)
    }
    /// Player to move (0 = yellow + red, 1 = blue + green).
    pub fn player(&self) -> usize {
        self.player as usize
    }
    /// The move counter (starts at 1, +1 after every move).
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// Is this a playground position (4 pieces a colour, rules §11)?
    pub fn is_playground(&self) -> bool {
        self.playground
    }
    /// The colour to move: in 2022-23 the player's first colour (yellow or blue; either of its
    /// colours may move), in 2021-22 the only colour that moves.
    pub fn colour_to_move(&self) -> usize {
        self.colour as usize
    }
    /// Whose dice player `pl` plays next: the player in 2022-23; in 2021-22 its colour to move,
    /// or for the player not to move the colour after the current one.
    fn dice_owner_of(&self, pl: usize) -> usize {
        match self.year {
            Year::Y2022 | Year::Y2023 | Year::Y2024 => pl & 1,
            Year::Y2021 if pl & 1 == self.player as usize => self.colour as usize,
            Year::Y2021 => (self.colour as usize + 1) & 3,
        }
    }
    /// Normal dice player `pl` still holds (in 2021-22: its next colour, see
    /// [`Parchis::dice_owner_of`]), ascending (a subset of 1 2 4 5 6; of 1 to 6 in 2021-22).
    pub fn normal_dice(&self, pl: usize) -> ArrayVec<u8, 6> {
        self.dice_of(self.dice_owner_of(pl))
    }
    /// Normal dice colour `c` still holds in a 2021-22 position, where each colour has its own
    /// dice (ascending, a subset of 1 to 6); in 2022-23, its player's ([`Parchis::normal_dice`]).
    pub fn colour_dice(&self, c: usize) -> ArrayVec<u8, 6> {
        let owner = match self.year {
            Year::Y2021 => c & 3,
            Year::Y2022 | Year::Y2023 => c & 1,
            Year::Y2024 => self.player_of_colour(c & 3),
        };
        self.dice_of(owner)
    }
    /// Pending bonus moves of colour `c` in a 2021-22 position (its own +10/+20 layers, bottom
    /// to top); in 2022-23, its player's ([`Parchis::pending`]).
    pub fn colour_pending(&self, c: usize) -> ArrayVec<u8, 16> {
        let owner = match self.year {
            Year::Y2021 => c & 3,
            Year::Y2022 | Year::Y2023 => c & 1,
            Year::Y2024 => self.player_of_colour(c & 3),
        };
        self.pending_of(owner)
    }
    /// The normal dice of dice owner `owner` (a player in 2022-23, a colour in 2021-22).
    fn dice_of(&self, owner: usize) -> ArrayVec<u8, 6> {
        rules::dice_values(self.year)
            .iter()
            .enumerate()
            .filter(|(k, _)| self.dice[owner] >> k & 1 == 1)
            .map(|(_, &d)| d)
            .collect()
    }
    /// The pending bonus layers of dice owner `owner`, bottom to top.
    fn pending_of(&self, owner: usize) -> ArrayVec<u8, 16> {
        (0..self.forced_len[owner])
            .map(|i| {
                if self.forced_bits[owner] >> i & 1 == 1 {
                    20
                } else {
                    10
                }
            })
            .collect()
    }
    /// Items player `pl` holds, in acquisition order (kinds as in [`Parchis::item_name`]).
    pub fn hand(&self, pl: usize) -> &[u8] {
        &self.hand[pl & 1][..self.hand_len[pl & 1] as usize]
    }
    /// Pending bonus moves of player `pl`, bottom to top (10 or 20; the last one is due next).
    pub fn pending(&self, pl: usize) -> ArrayVec<u8, 16> {
        self.pending_of(self.dice_owner_of(pl))
    }
    /// Items still lying on the board as (kind, track box), in the start list's order.
    pub fn board_items(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        rules::BOARD_ITEMS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.board_items >> i & 1 == 1)
            .map(|(_, &it)| it)
    }
    /// Banana traps: track boxes in placement order (a box may repeat).
    pub fn traps(&self) -> &[u8] {
        &self.traps[..self.ntraps as usize]
    }
    /// Power bar of player `pl` (2023-24, 0 to 100; 0 in other years): what its special die
    /// does next ([`Parchis::power_effect`]).
    pub fn power(&self, pl: usize) -> u8 {
        self.power[pl & 1]
    }
    /// What the special die does with power bar `p` (2023-24).
    pub fn power_effect(p: u8) -> PowerEffect {
        rules::power_effect(p)
    }
    /// Goal-bounce counter of colour `c`.
    pub fn bounces(&self, c: usize) -> u8 {
        self.bounces[c & 3]
    }
    /// How the game ended, or `None` while it runs.
    pub fn ending(&self) -> Option<Ending> {
        match self.outcome {
            0 => None,
            o @ 1..=4 => Some(Ending::Goal {
                colour: o as usize - 1,
            }),
            o => Some(Ending::Bounces {
                winner: (o - 5) as usize & 1,
            }),
        }
    }
}

impl Parchis {
    /// The position in the golden traces' STATE JSON form (README §2.2), keys in trace order.
    pub fn trace_state_json(&self) -> String {
        text::trace_state_json(self)
    }
}
