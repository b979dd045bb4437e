//! Parchís heuristics (`default`, `test`, `seed`), their per-term breakdown for the `eval`
//! command, the move-ordering hint and the endgame leaves `default` searches further
//! ([`endgame_unquiet`]). All values are integers from the evaluating player's
//! point of view, far inside ±`EVAL_LIMIT`; a finished game evaluates to ±99,000,000.
//!
//! * `test` (index 1): per piece of the player's colours +1 on one of the twelve safe track
//!   boxes, else +5 in the goal; minus the same for the opponent.
//! * `seed` (index 2): the student report's heuristic, ×10 so the weights are integers. Per
//!   colour: Σ(100 − distance to goal) + 50 per piece in the goal − 50 per piece at home ± 15 for
//!   the piece the last move captured (if made by this colour: + rival, − own player's) ± 15 per
//!   piece the last move sent home otherwise (− own player's, + rival's). Per player: 1.8 × better
//!   colour + 0.5 × other + item values (star 35, boo 30, bullet 40, red shell 25, blue shell 35,
//!   mushroom 8, megamushroom 35, shock 30, horn 20, banana 5). Result: mine − opponent's.
//! * `default` (index 0; each weight is the default of a `ParchisW_*` option, see [`WEIGHTS`]):
//!   per colour Σ 10·p with p = 74 − distance to goal (progress, linear),
//!   plus 150 per piece in the goal, minus 374 per piece at home, minus danger (each own piece
//!   on a non-safe track box that an opponent piece can hit exactly with one of the opponent's
//!   remaining dice or pending bonus: 10·p + 128, doubled when the opponent moves next), plus
//!   piece states (star +60, mega +53, boo +30, mini −42, bananed −31). Per player: (1.5 ×
//!   better colour + 0.4 × other) + held items (star 662, boo 774, bullet 935, red shell 626,
//!   blue shell 887, mushroom 246, megamushroom 517, shock 582, horn 502, banana 127) + pending
//!   bonus dice (+20 → 433, +10 → 172). Result: mine − opponent's.
//!
//!   In 2021-22 (`Year`) the same terms apply, with each colour's own dice (1 to 6) and pending
//!   bonus for the danger; there are no items or piece states. In 2023-24 the terms are
//!   2022-23's with no items held; the power bar is not read (the special die moves no box, so
//!   the danger term leaves it out). The weights were tuned on 2022-23 only.
//!
//!   Tuned 2026-11-26 by SPSA (`tablero tune`, 1,500 iterations of 4 colour-swapped pairs,
//!   self-play at depth 4; docs/tuning.md) from the hand-set weights below (goal 250,
//!   home 300, danger 200, colours 1.8 / 0.5, states 60/50/30/−40/−30, items
//!   750/625/950/550/750/225/700/625/450/150, bonus 400/200), and adopted after an SPRT at depth
//!   6 (elo0 = 0, elo1 = 10) against them accepted: +94.4 ± 34.0 Elo in 460 games
//!   (`--openings random:8 --seed 99`). The history of the hand-set weights:
//!
//!   Measured with the engine's search at depth 6 (`tablero match`, colour-swapped pairs,
//!   `--openings random:8`). History: the first weights (items 300/250/380/…, bonus 200/100,
//!   progress 10·p + p²/8) scored 52.5–55 % against `seed` (110/200 with `--seed 1`); items ×2
//!   with bonus 400/200 scored 63.7 % on fresh openings (`--seed 2`, 255/400, Elo +98 ± 35).
//!   Screening from those weights, 160 games each against `seed`, `--seed 1` (all runs see
//!   the same openings; ±7 % noise):
//!   `tablero match --engine1 B --engine2 B --option1 Heuristic=default
//!   --option2 Heuristic=seed --game parchis --depth 6 --games 160 --openings random:8 --seed 1
//!   --concurrency 1` with a temporary build reading the weights from the environment:
//!   items ×2 / p²/8 (the weights before this change) 70.0 % (112/160, so these openings
//!   favour `default` more than `--seed 2`'s); linear progress 70.6 %; p²/16 69.4 %;
//!   items ×2.5 71.9 %; linear progress and items ×2.5 together 78.1 % (125/160, adopted);
//!   danger never doubled 60.6 %, always doubled 60.0 % (the turn-dependent factor helps);
//!   goal bonus 400 58.8 %.
//!   Verification of the adopted weights on fresh openings (`--seed 3`, depth 6, 2026-11-26):
//!   against `seed` 74.8 % (299 wins, 101 losses, 0 draws of 400; Elo +188.5 ± 40.7,
//!   pentanomial pairs 0/1/2 points 15/71/114); against `test` 100 % (200 of 200, and 200 of
//!   200 more with `--seed 4 --concurrency 2`: 400 of 400). Commands:
//!   `tablero match --engine1 target/release/tablero --engine2 target/release/tablero
//!   --option1 Heuristic=default --option2 Heuristic=seed --game parchis --depth 6 --games 400
//!   --openings random:8 --seed 3 --concurrency 1`, and the same with `Heuristic=test` and
//!   `--games 200`. The previous weights (items ×2, p²/8) on the same 400 openings: 64.2 %
//!   (257/400, Elo +101.8 ± 34.3), so the gain holds on openings not used for screening.
//!   Tried earlier without gain (depth 6 against `seed`, older weights): a term for the pips
//!   of the remaining normal dice (20 per pip: 54.2 % of 120), halving the danger term (55 % of
//!   83), dropping it (52 % of 27), goal/home weights 500/500 (53 % of 169), items ×3 (62.5 %
//!   of 120). At equal plain alpha-beta depth the first weights beat `seed` in about 84 %
//!   (depth 2), 77 % (depth 3) and 68 % (depth 4) of games (`tests/parchis_strength.rs`).

use super::rules::{
    ENTRANCE, POWER, SAFE_MASK, destination, distance_to_goal, is_track, player_of,
};
use super::{
    BANANA, BLUESHELL, BOO, BULLET, GOAL, HOME, HORN, MAX_HAND, MEGAMUSHROOM, MUSHROOM, Move,
    Parchis, REDSHELL, SHOCK, STAR, T_BANANED, T_BOO, T_MEGA, T_MINI, T_STAR, Year,
};
use crate::core::game::{
    EVAL_LIMIT, EvalTerm, Evaluation, Side, WeightSpec, default_values, values_or_defaults,
};

/// Value of a finished game (the search handles wins itself; this is only a bounded fallback).
const DECIDED: i32 = EVAL_LIMIT - 1_000_000;

pub fn evaluate(s: &Parchis, heuristic: usize, w: &Weights, me: usize) -> i32 {
    if let Some(v) = decided(s, me) {
        return v;
    }
    match heuristic {
        1 => test_difference(s, me),
        2 => seed_difference(s, me),
        _ => default_difference(s, w, me),
    }
}

// The two larger heuristics stay out of line: inlined, their register pressure would make
// every call (the `test` leaves included) save and restore the lot.
#[inline(never)]
fn seed_difference(s: &Parchis, me: usize) -> i32 {
    seed_player(s, me).total() - seed_player(s, 1 - me).total()
}

#[inline(never)]
fn default_difference(s: &Parchis, w: &Weights, me: usize) -> i32 {
    default_player(s, w, me).total(w) - default_player(s, w, 1 - me).total(w)
}

fn decided(s: &Parchis, me: usize) -> Option<i32> {
    match s.outcome {
        0 => None,
        1..=4 => Some(if player_of(s.outcome as usize - 1) == me {
            DECIDED
        } else {
            -DECIDED
        }),
        o => Some(if (o - 5) as usize == me {
            DECIDED
        } else {
            -DECIDED
        }),
    }
}

// ------------------------------------------------------------------------------------------
// `test`: the course's test heuristic.
// ------------------------------------------------------------------------------------------

/// +1 per piece on one of the twelve safe track boxes, else +5 per piece in the goal.
fn test_score(s: &Parchis, pl: usize) -> i32 {
    let mut v = 0;
    for c in s.colours_of(pl) {
        for &p in &s.pos[4 * c..4 * c + s.npieces as usize] {
            v += i32::from(TEST_VALUE[p as usize & 127]);
        }
    }
    v
}

/// `test_score(me) - test_score(opponent)`: one table lookup per piece in play (this runs
/// at every leaf of the course's reference searches).
#[inline]
fn test_difference(s: &Parchis, me: usize) -> i32 {
    let t = |i: usize| i32::from(TEST_VALUE[s.pos[i] as usize & 127]);
    // Colours y, r (ids 0-3, 8-11) belong to player 0; b, g (4-7, 12-15) to player 1.
    // Every colour has 3 pieces in play, or 4 (the playground).
    let mut d = 0;
    for i in 0..3 {
        d += t(i) + t(8 + i) - t(4 + i) - t(12 + i);
    }
    if s.npieces == 4 {
        d += t(3) + t(11) - t(7) - t(15);
    }
    if me == 0 { d } else { -d }
}

/// `test` value of each box code: 1 on a safe track box, 5 in the goal, else 0 (a table, as
/// this runs at every leaf of the course's reference searches).
const TEST_VALUE: [u8; 128] = {
    let mut t = [0; 128];
    let mut p = 1;
    while p <= 68 {
        if SAFE_MASK >> p & 1 == 1 {
            t[p] = 1;
        }
        p += 1;
    }
    t[GOAL as usize] = 5;
    t
};

// ------------------------------------------------------------------------------------------
// `seed`: the student report's heuristic, scaled ×10 so that the 1.8 / 0.5 weights are exact.
// ------------------------------------------------------------------------------------------

/// Item values of the report (stated intent). FIX: the printed switch lacks a `break` after the
/// boo case (102), which would score a boo as 30 + 40; the report states 30.
const SEED_ITEM: [i32; 10] = [35, 30, 40, 25, 35, 8, 35, 30, 20, 5];

struct SeedPlayer {
    items: i32,
    colours: [SeedColour; 2],
}

#[derive(Default)]
struct SeedColour {
    distance: i32,
    goal: i32,
    home: i32,
    eat: i32,
    destroyed: i32,
}

impl SeedColour {
    fn total(&self) -> i32 {
        self.distance + self.goal - self.home + self.eat + self.destroyed
    }
}

impl SeedPlayer {
    /// ×10: items ×10, better colour ×18, worse colour ×5.
    fn total(&self) -> i32 {
        let (a, b) = (self.colours[0].total(), self.colours[1].total());
        let w = if a > b {
            18 * a + 5 * b
        } else {
            5 * a + 18 * b
        };
        10 * self.items + w
    }
}

fn seed_colour(s: &Parchis, c: usize) -> SeedColour {
    let mut v = SeedColour::default();
    for i in 0..s.npieces as usize {
        let p = s.pos[4 * c + i];
        v.distance += 100 - distance_to_goal(c, p);
        if p == GOAL {
            v.goal += 50;
        }
        if p == HOME {
            v.home += 50;
        }
    }
    // FIX: the printed code adds ±15 to every colour whatever it is (so it cancels out in the
    // player difference); the report's stated intent is "if the last move was made with a piece
    // of THIS colour and it ate a rival piece, +15; if it ate one of my own colours, −15".
    if s.last_mover as usize == c && s.last_eaten != 0xFF {
        v.eat = if s.player_of_colour(s.last_eaten as usize) != s.player_of_colour(c) {
            15
        } else {
            -15
        };
    }
    for (dc, &n) in s.destroyed.iter().enumerate() {
        let sign = if s.player_of_colour(dc) == s.player_of_colour(c) {
            -15
        } else {
            15
        };
        v.destroyed += sign * n as i32;
    }
    v
}

fn seed_player(s: &Parchis, pl: usize) -> SeedPlayer {
    let items = s.hand[pl][..s.hand_len[pl] as usize]
        .iter()
        .map(|&i| SEED_ITEM[i as usize])
        .sum();
    SeedPlayer {
        items,
        colours: s.colours_of(pl).map(|c| seed_colour(s, c)),
    }
}

// ------------------------------------------------------------------------------------------
// `default`: our own heuristic.
// ------------------------------------------------------------------------------------------

/// The weights of `default` (the `ParchisW_*` options), in the form the evaluation reads them:
/// the tables it indexes per piece are derived from the weights once, when they are set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The option values, in [`WEIGHTS`] order.
    pub values: [i32; N_WEIGHTS],
    /// `progress` × (74 − distance to goal) per colour and box code.
    progress: [[i32; 128]; 4],
    /// The goal bonus / home penalty by box code.
    goal_home: [i32; 128],
    /// Value of each piece type (normal, star, boo, mega, mini, bananed).
    state: [i32; 8],
    /// Value of holding each item, by item number.
    item: [i32; 10],
    danger: i32,
    danger_next: i32,
    danger_later: i32,
    colour_best: i32,
    colour_other: i32,
    bonus20: i32,
    bonus10: i32,
}

const N_WEIGHTS: usize = 25;

/// The weights and their defaults. Held items are valued in the units of the player total,
/// where a box of progress of the better colour is worth 18: shells, mega and star can swing a
/// race, the bullet is a long free move; the first guesses (300, 250, 380, …) ×2.5, as held
/// items are worth more than an immediate small gain, which the search otherwise takes by
/// spending them (×2 lifted the depth-6 score against `seed` from 55 % to 65 %, ×2.5 with
/// linear progress to 78 %, see the module doc). A pending +20 / +10 is a certain free move of
/// 20 / 10 boxes (outside the colour weighting, so about 20 / 10 boxes at 20 units each).
///
/// Ranges: symmetric around 0, with the worst case over every position and setting checked
/// below ([`WORST_CASE`]) to stay below the finished-game value `DECIDED` (so an evaluation
/// never looks like a decided game, nor like a win score: `core::score::WIN_BASE` is ten times
/// `EVAL_LIMIT`) and inside `i32` at every step.
pub const WEIGHTS: &[WeightSpec] = &[
    WeightSpec::symmetric("ParchisW_progress", 10, 1_000),
    WeightSpec::symmetric("ParchisW_goal", 150, 100_000),
    WeightSpec::symmetric("ParchisW_home", 374, 100_000),
    WeightSpec::symmetric("ParchisW_danger", 128, 100_000),
    WeightSpec::symmetric("ParchisW_danger_next", 2, 4),
    WeightSpec::symmetric("ParchisW_danger_later", 1, 4),
    WeightSpec::symmetric("ParchisW_colour_best", 15, 50),
    WeightSpec::symmetric("ParchisW_colour_other", 4, 50),
    WeightSpec::symmetric("ParchisW_state_star", 60, 10_000),
    WeightSpec::symmetric("ParchisW_state_boo", 30, 10_000),
    WeightSpec::symmetric("ParchisW_state_mega", 53, 10_000),
    WeightSpec::symmetric("ParchisW_state_mini", -42, 10_000),
    WeightSpec::symmetric("ParchisW_state_bananed", -31, 10_000),
    WeightSpec::symmetric("ParchisW_item_star", 662, 100_000),
    WeightSpec::symmetric("ParchisW_item_boo", 774, 100_000),
    WeightSpec::symmetric("ParchisW_item_bullet", 935, 100_000),
    WeightSpec::symmetric("ParchisW_item_redshell", 626, 100_000),
    WeightSpec::symmetric("ParchisW_item_blueshell", 887, 100_000),
    WeightSpec::symmetric("ParchisW_item_mushroom", 246, 100_000),
    WeightSpec::symmetric("ParchisW_item_megamushroom", 517, 100_000),
    WeightSpec::symmetric("ParchisW_item_shock", 582, 100_000),
    WeightSpec::symmetric("ParchisW_item_horn", 502, 100_000),
    WeightSpec::symmetric("ParchisW_item_banana", 127, 100_000),
    WeightSpec::symmetric("ParchisW_bonus20", 433, 100_000),
    WeightSpec::symmetric("ParchisW_bonus10", 172, 100_000),
];

const _: () = assert!(WEIGHTS.len() == N_WEIGHTS);
// The item weights follow the item numbers.
const _: () = assert!(STAR == 0 && BANANA == 9);

/// Index of the first item weight in [`WEIGHTS`].
const W_ITEM0: usize = 13;

/// The worst case of `default` over every position and setting: per colour at most 4 pieces,
/// each with |74 − distance| ≤ 75 boxes of progress, a goal/home value, a danger of
/// urgency × (its progress + `danger`) and a state value; per player the colour weights over
/// tenths of two colours, 5 held items and 16 pending bonus layers; mine minus theirs.
const WORST_CASE: i64 = {
    const fn m(i: usize) -> i64 {
        WEIGHTS[i].magnitude()
    }
    const fn max(a: i64, b: i64) -> i64 {
        if a > b { a } else { b }
    }
    let progress = 75 * m(0);
    let mut states = 0;
    let mut i = 8;
    while i < 13 {
        states = max(states, m(i));
        i += 1;
    }
    let mut items = 0;
    while i < 23 {
        items = max(items, m(i));
        i += 1;
    }
    let piece = progress + max(m(1), m(2)) + max(m(4), m(5)) * (progress + m(3)) + states;
    let colour = 4 * piece;
    // The numerator of the colour weighting must fit in `i32` too.
    assert!((m(6) + m(7)) * colour < i32::MAX as i64);
    let player = (m(6) + m(7)) * colour / 10 + MAX_HAND as i64 * items + 16 * max(m(23), m(24));
    2 * player
};
const _: () = assert!(WORST_CASE < DECIDED as i64);

/// The weights of the option values `v` (one per [`WEIGHTS`] entry).
const fn weights_of(v: [i32; N_WEIGHTS]) -> Weights {
    let mut progress = [[0; 128]; 4];
    let mut c = 0;
    while c < 4 {
        let mut p = 0;
        // Every code up to GOAL is a box: home, track, queue, goal.
        while p <= GOAL as usize {
            progress[c][p] = v[0] * (74 - distance_to_goal(c, p as u8));
            p += 1;
        }
        c += 1;
    }
    let mut goal_home = [0; 128];
    goal_home[GOAL as usize] = v[1];
    goal_home[HOME as usize] = -v[2];
    let mut state = [0; 8];
    state[T_STAR as usize] = v[8];
    state[T_BOO as usize] = v[9];
    state[T_MEGA as usize] = v[10];
    state[T_MINI as usize] = v[11];
    state[T_BANANED as usize] = v[12];
    let mut item = [0; 10];
    let mut i = 0;
    while i < 10 {
        item[i] = v[W_ITEM0 + i];
        i += 1;
    }
    Weights {
        values: v,
        progress,
        goal_home,
        state,
        item,
        danger: v[3],
        danger_next: v[4],
        danger_later: v[5],
        colour_best: v[6],
        colour_other: v[7],
        bonus20: v[23],
        bonus10: v[24],
    }
}

/// The defaults of [`WEIGHTS`].
pub const DEFAULT_WEIGHTS: Weights = weights_of(default_values(WEIGHTS));

impl Evaluation<Parchis> for Weights {
    const SPECS: &'static [WeightSpec] = WEIGHTS;
    const DEFAULT: Self = DEFAULT_WEIGHTS;

    fn from_values(values: &[i32]) -> Self {
        weights_of(values_or_defaults(WEIGHTS, values))
    }

    fn evaluate(&self, s: &Parchis, heuristic: usize, perspective: Side) -> i32 {
        evaluate(s, heuristic, self, perspective.index())
    }

    fn terms(&self, s: &Parchis, heuristic: usize, perspective: Side) -> Vec<EvalTerm> {
        eval_terms(s, heuristic, self, perspective.index())
    }
}

struct DefaultPlayer {
    /// Per colour: progress (74 − distance to goal, × `progress`) of each piece, summed.
    progress: [i32; 2],
    /// Per colour: bonus per piece in the goal (completing a colour wins), penalty per piece at
    /// home (it needs a 5 to come out and has no progress).
    goal: [i32; 2],
    /// Per colour: pieces on a non-safe track box that an opponent piece can land on exactly
    /// with one of the opponent's remaining dice (or pending bonus): its progress plus the
    /// +20 it would hand over, doubled when the opponent moves next (we cannot react first).
    danger: [i32; 2],
    /// Per colour: active special states (star/boo/mega good, mini/bananed bad).
    states: [i32; 2],
    /// Items in hand.
    items: i32,
    /// Pending bonus moves (+20 / +10) of this player.
    bonus: i32,
}

impl DefaultPlayer {
    fn colour(&self, k: usize) -> i32 {
        self.progress[k] + self.goal[k] - self.danger[k] + self.states[k]
    }
    /// The better colour decides the race (one complete colour wins), the other still helps.
    fn total(&self, w: &Weights) -> i32 {
        let (a, b) = (self.colour(0), self.colour(1));
        let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
        (w.colour_best * hi + w.colour_other * lo) / 10 + self.items + self.bonus
    }
}

fn default_player(s: &Parchis, w: &Weights, pl: usize) -> DefaultPlayer {
    let opp = 1 - pl;
    let mut v = DefaultPlayer {
        progress: [0; 2],
        goal: [0; 2],
        danger: [0; 2],
        states: [0; 2],
        items: s.hand[pl][..s.hand_len[pl] as usize]
            .iter()
            .map(|&i| w.item[i as usize])
            .sum(),
        bonus: 0,
    };
    // The pending bonus is the player's in 2022-23 and 2024-25, a colour's in 2021-22 (red's and
    // green's entries are empty but in 2021-22).
    for o in [pl, pl + 2] {
        for k in 0..s.forced_len[o] {
            v.bonus += if s.forced_bits[o] >> k & 1 == 1 {
                w.bonus20
            } else {
                w.bonus10
            };
        }
    }
    // Non-safe threatened boxes, as two words so that testing box p is one plain shift.
    let exposed = threat_mask(s, opp) & !SAFE_MASK;
    let exposed = [exposed as u64, (exposed >> 64) as u64];
    // Threats bite fully when the opponent moves next, half when we can still react.
    let urgency = if s.player as usize == opp {
        w.danger_next
    } else {
        w.danger_later
    };
    for (k, c) in s.colours_of(pl).into_iter().enumerate() {
        for i in 0..s.npieces as usize {
            let id = 4 * c + i;
            let p = s.pos[id];
            // Linear: with items ×2.5, adding p²/8 scored 71.9 % against `seed`, linear 78.1 %.
            let prog10 = w.progress[c][p as usize & 127];
            v.progress[k] += prog10;
            v.goal[k] += w.goal_home[p as usize & 127];
            let t = s.typ(id);
            v.states[k] += w.state[t as usize & 7];
            // Capturable: on a non-safe track box some opponent piece can land on exactly.
            if exposed[usize::from(p >> 6) & 1] >> (p & 63) & 1 == 1 && !matches!(t, T_BOO | T_STAR)
            {
                v.danger[k] += urgency * (prog10 + w.danger);
            }
        }
    }
    v
}

/// Track boxes (bit mask) that some piece of player `opp` can land on exactly with one of its
/// next number dice, without turning into its own queue first. Boo, mini and bananed pieces
/// cannot capture and are left out. Branch-free over tables: this runs twice per leaf.
fn threat_mask(s: &Parchis, opp: usize) -> u128 {
    // Step counts (bit k = k steps) of the next number die: the pending bonus, or every
    // remaining normal die (a 6 counts 7 when none of the colour's pieces is at home).
    let at_home = s.at(HOME);
    let mut threat = 0u128;
    for oc in s.colours_of(opp) {
        let all_out = usize::from(at_home >> (4 * oc) & 0xF == 0);
        let steps: u64 = match s.year() {
            Year::Y2022 | Year::Y2023 if s.forced_len[opp] == 1 => 1u64 << s.forced_top(opp),
            // 2023-24's special die (mask bit 5) moves no box by itself: left out.
            Year::Y2022 | Year::Y2023 => {
                u64::from(DICE_STEPS[all_out][usize::from(s.dice[opp]) & 31])
            }
            // Each colour throws its own dice, 1 to 6.
            Year::Y2021 if s.forced_len[oc] > 0 => 1u64 << s.forced_top(oc),
            Year::Y2021 => u64::from(DICE_STEPS_2021[all_out][usize::from(s.dice[oc]) & 63]),
            // The player's dice count double (a bonus of 20 moves 40), the yin-yang one box.
            Year::Y2024 if s.forced_len[opp] > 0 => 1u64 << (2 * s.forced_top(opp)),
            Year::Y2024 => DICE_STEPS_2024[all_out][usize::from(s.dice[opp]) & 63],
        };
        for j in 0..s.npieces as usize {
            let a = 4 * oc + j;
            let q = s.pos[a];
            let t = usize::from(s.typ(a));
            // Steps up to the colour's entrance only (nothing off the track); a star goes 2
            // further; boo, mini and bananed pieces capture nothing.
            let st = (steps << STAR_SHIFT[t] & CAPTURER[t]) & REACH[oc][q as usize & 127];
            let m = u128::from(st) << q;
            // Boxes past 68 wrap to 1.. (bit 68 also lands on bit 0, removed below).
            threat |= m | (m >> 68);
        }
    }
    // Only track boxes: bit 0 is the home code, bits above 68 queue codes.
    threat & TRACK_BITS
}

/// Per piece type: how far the step mask shifts (a star moves 2 more) ...
const STAR_SHIFT: [u32; 8] = [0, 2, 0, 0, 0, 0, 0, 0];
/// ... and whether the piece captures at all (not boo, mini or bananed).
const CAPTURER: [u64; 8] = {
    let mut t = [u64::MAX; 8];
    t[T_BOO as usize] = 0;
    t[T_MINI as usize] = 0;
    t[T_BANANED as usize] = 0;
    t
};

/// Step mask of the normal dice left (`[all pieces out][dice mask]`, bit k = k steps).
const DICE_STEPS: [[u32; 32]; 2] = {
    let mut t = [[0; 32]; 2];
    let mut out = 0;
    while out < 2 {
        let mut mask = 0;
        while mask < 32 {
            let mut k = 0;
            while k < 5 {
                if mask >> k & 1 != 0 {
                    let d = super::rules::NORMAL_DICE[k];
                    t[out][mask] |= 1 << if d == 6 && out == 1 { 7 } else { d };
                }
                k += 1;
            }
            mask += 1;
        }
        out += 1;
    }
    t
};

/// [`DICE_STEPS`] for 2021-22's dice 1 to 6 (`[all pieces out][dice mask]`).
const DICE_STEPS_2021: [[u32; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut out = 0;
    while out < 2 {
        let mut mask = 0;
        while mask < 64 {
            let mut k = 0;
            while k < 6 {
                if mask >> k & 1 != 0 {
                    let d = super::rules::DICE_2021[k];
                    t[out][mask] |= 1 << if d == 6 && out == 1 { 7 } else { d };
                }
                k += 1;
            }
            mask += 1;
        }
        out += 1;
    }
    t
};

/// [`DICE_STEPS`] for 2024-25's dice (`[all pieces out][dice mask]`): each die twice its value,
/// a 6 that counts 7 fourteen boxes, the yin-yang one box.
const DICE_STEPS_2024: [[u64; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut out = 0;
    while out < 2 {
        let mut mask = 0;
        while mask < 64 {
            let mut k = 0;
            while k < 6 {
                if mask >> k & 1 != 0 {
                    let d = super::rules::DICE_2024[k];
                    t[out][mask] |= 1
                        << if d == super::rules::YINYANG {
                            1
                        } else if d == 6 && out == 1 {
                            14
                        } else {
                            2 * d
                        };
                }
                k += 1;
            }
            mask += 1;
        }
        out += 1;
    }
    t
};

/// Per colour and box code: the steps (bit k = k steps) that stay on the shared track, up to
/// the colour's entrance; none off the track.
const REACH: [[u64; 128]; 4] = {
    let mut t = [[0; 128]; 4];
    let mut c = 0;
    while c < 4 {
        let mut q = 1;
        while q <= 68 {
            let to_entrance = (ENTRANCE[c] as i32 - q as i32).rem_euclid(68) as u32;
            t[c][q] = if to_entrance < 63 {
                (1u64 << (to_entrance + 1)) - 1
            } else {
                u64::MAX
            };
            q += 1;
        }
        c += 1;
    }
    t
};

/// Bits 1..=68.
const TRACK_BITS: u128 = ((1u128 << 69) - 1) & !1;

pub fn eval_terms(s: &Parchis, heuristic: usize, w: &Weights, me: usize) -> Vec<EvalTerm> {
    let term = |name: &str, a: i32, b: i32| EvalTerm {
        name: name.to_string(),
        value: format!("{a} - {b} = {}", a - b),
    };
    let mut out = Vec::new();
    if let Some(v) = decided(s, me) {
        out.push(EvalTerm {
            name: "game over".into(),
            value: v.to_string(),
        });
        return out;
    }
    match heuristic {
        1 => out.push(term(
            "safe boxes +1 / goal +5",
            test_score(s, me),
            test_score(s, 1 - me),
        )),
        2 => {
            let (a, b) = (seed_player(s, me), seed_player(s, 1 - me));
            let sum =
                |p: &SeedPlayer, f: fn(&SeedColour) -> i32| p.colours.iter().map(f).sum::<i32>();
            out.push(term("items x10", 10 * a.items, 10 * b.items));
            out.push(term(
                "distance (100-d, raw)",
                sum(&a, |c| c.distance),
                sum(&b, |c| c.distance),
            ));
            out.push(term(
                "goal 50 (raw)",
                sum(&a, |c| c.goal),
                sum(&b, |c| c.goal),
            ));
            out.push(term(
                "home -50 (raw)",
                -sum(&a, |c| c.home),
                -sum(&b, |c| c.home),
            ));
            out.push(term(
                "eaten last move (raw)",
                sum(&a, |c| c.eat),
                sum(&b, |c| c.eat),
            ));
            out.push(term(
                "destroyed last move (raw)",
                sum(&a, |c| c.destroyed),
                sum(&b, |c| c.destroyed),
            ));
            out.push(term(
                "colours 1.8 best + 0.5 other (x10)",
                a.total() - 10 * a.items,
                b.total() - 10 * b.items,
            ));
        }
        _ => {
            let (a, b) = (default_player(s, w, me), default_player(s, w, 1 - me));
            let both = |x: [i32; 2]| x[0] + x[1];
            out.push(term("progress", both(a.progress), both(b.progress)));
            out.push(term(
                &format!("goal +{} / home -{}", w.values[1], w.values[2]),
                both(a.goal),
                both(b.goal),
            ));
            out.push(term("danger", -both(a.danger), -both(b.danger)));
            out.push(term("piece states", both(a.states), both(b.states)));
            out.push(term("items", a.items, b.items));
            out.push(term("pending bonus", a.bonus, b.bonus));
            out.push(term(
                &format!(
                    "total (best colour x{} + other x{} tenths, items, bonus)",
                    w.colour_best, w.colour_other
                ),
                a.total(w),
                b.total(w),
            ));
        }
    }
    out.push(EvalTerm {
        name: "evaluation".into(),
        value: evaluate(s, heuristic, w, me).to_string(),
    });
    out
}

/// Has some colour reached the goal with a piece and at most two pieces left outside it? The
/// race is then decided by exact dice a few moves ahead (which die brings a piece in, which one
/// bounces, which capture sends the leader home), what a depth-6 leaf cannot see and depth 8
/// does: in 10 of 31 games `default` lost to `seed` at depth 6 (`--openings random:8 --seed
/// 7`), a depth-8 search found one of its moves turning a position not yet lost (in 5, one it
/// scored ahead) into a forced loss within 8 moves, each time with a colour one piece from
/// finishing. Extending from one piece from finishing took the score against `seed` from 85.8 %
/// (800 games) to 89.4 % (2,800 games); from two (with three pieces a colour: from its first
/// piece in the goal) to 95.1 % on the same 2,800 openings (docs/players.md). So `default`
/// follows such leaves further ([`crate::core::game::Game::unquiet`]).
pub fn endgame_unquiet(s: &Parchis) -> bool {
    let goal = s.at(GOAL);
    let n = u32::from(s.npieces);
    (0..4).any(|c| {
        let in_goal = (goal >> (4 * c) & 0xF).count_ones();
        in_goal >= 1 && in_goal + 2 >= n
    })
}

/// Cheap ordering: goal entries, likely captures and leaving home first, then by die size;
/// a move leaving a safe box for an unsafe one a little later; items after most die moves
/// (they rarely cut off at once). Tuned by node counts of depth-6 searches with `test` and
/// `default` from the start and positions A, B, C.
pub fn move_order_hint(s: &Parchis, m: Move) -> i32 {
    if m.is_pass() {
        return -100;
    }
    let id = m.piece as usize;
    // 2023-24's special die: what it does depends on the bar; ranked with the shells.
    if m.die == POWER && s.year() == Year::Y2023 {
        return 10;
    }
    if m.die > 100 {
        return match m.die - 101 {
            BLUESHELL | REDSHELL | HORN | MEGAMUSHROOM => 10,
            BULLET | STAR => 8,
            MUSHROOM | SHOCK | BOO => 5,
            BANANA => 1,
            _ => 0,
        };
    }
    let c = id >> 2;
    let p = s.pos[id];
    let t = s.typ(id);
    // 2024-25's dice count double and its yin-yang one box: rank by the boxes moved.
    let d = match t {
        _ if s.year() == Year::Y2024 => s.move_steps(id, m.die),
        T_STAR => m.die + 2,
        T_MINI => m.die / 2,
        T_BANANED => 0,
        _ => m.die,
    };
    let (dst, _) = destination(c, p, d);
    let mut h = if s.year() == Year::Y2024 {
        d as i32
    } else {
        m.die as i32
    };
    if dst == GOAL {
        h += 200;
    } else if p == HOME {
        h += 60;
    } else if is_track(dst) && SAFE_MASK >> dst & 1 == 0 {
        let others = s.at(dst) & !(0xF << (4 * c));
        if others != 0
            && others & !s.of_type(T_BOO) != 0
            && !matches!(t, T_BOO | T_MINI | T_BANANED)
        {
            h += 150;
        }
        if is_track(p) && SAFE_MASK >> p & 1 == 1 {
            h -= 20;
        }
    }
    h
}
