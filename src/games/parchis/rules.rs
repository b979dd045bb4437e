//! The rules engine of Parchís: board geometry, per-position occupancy tables, move legality,
//! move generation and move execution. It reproduces the reference simulator bit for bit
//! (`docs/rules/parchis.md`), including the quirks listed there; every quirk is marked
//! with a `QUIRK` comment so nobody "fixes" it. The 2021-22, 2023-24 and 2024-25 simulators
//! (docs/parchis-2021-22.md, docs/parchis-2023-24.md, docs/parchis-2024-25.md) share this code:
//! where their rules differ, the code asks the position's `year`.

use super::{
    BANANA, BLUESHELL, BOO, BULLET, GOAL, HOME, HORN, MEGAMUSHROOM, MUSHROOM, Move, Moves, Parchis,
    REDSHELL, SHOCK, STAR, T_BANANED, T_BOO, T_MEGA, T_MINI, T_NORMAL, T_STAR,
};
use super::{F_BANANED, F_EATING, F_GOAL, F_REMEMBER6, PowerEffect, Year};

/// Last normal track box before each colour's queue (y, b, r, g).
pub const ENTRANCE: [u8; 4] = [68, 17, 34, 51];
/// Box where each colour's pieces leave home.
pub const START: [u8; 4] = [4, 21, 38, 55];
/// The twelve safe track boxes, as a bit mask over boxes 1..=68.
pub const SAFE_MASK: u128 = bit(4)
    | bit(13)
    | bit(17)
    | bit(21)
    | bit(30)
    | bit(34)
    | bit(38)
    | bit(47)
    | bit(51)
    | bit(55)
    | bit(64)
    | bit(68);

/// Board items in the reference's internal order: (item code, box).
pub const BOARD_ITEMS: [(u8, u8); 24] = [
    (STAR, 5),
    (MEGAMUSHROOM, 6),
    (STAR, 22),
    (MEGAMUSHROOM, 23),
    (BOO, 39),
    (SHOCK, 40),
    (BOO, 56),
    (SHOCK, 57),
    (BULLET, 14),
    (BLUESHELL, 15),
    (BULLET, 31),
    (BLUESHELL, 32),
    (REDSHELL, 48),
    (HORN, 49),
    (REDSHELL, 65),
    (HORN, 66),
    (MUSHROOM, 18),
    (BANANA, 19),
    (MUSHROOM, 35),
    (BANANA, 36),
    (MUSHROOM, 52),
    (BANANA, 53),
    (MUSHROOM, 1),
    (BANANA, 2),
];

/// Index into [`BOARD_ITEMS`] of the item starting on each box code (every box holds at most
/// one), or [`NO_ITEM`].
const ITEM_AT: [u8; 77] = {
    let mut t = [NO_ITEM; 77];
    let mut i = 0;
    while i < BOARD_ITEMS.len() {
        t[BOARD_ITEMS[i].1 as usize] = i as u8;
        i += 1;
    }
    t
};
const NO_ITEM: u8 = 0xFF;

/// Normal dice values in bit order of the per-player dice mask.
pub const NORMAL_DICE: [u8; 5] = [1, 2, 4, 5, 6];
/// The full normal dice mask (refill value).
pub const ALL_DICE: u8 = 0b1_1111;
/// 2021-22: each colour's dice, 1 to 6 (the 2022-23 core dropped the 3), in mask bit order.
pub const DICE_2021: [u8; 6] = [1, 2, 3, 4, 5, 6];
/// 2021-22: the full mask of [`DICE_2021`].
pub const ALL_DICE_2021: u8 = 0b11_1111;

/// 2024-25: the yin-yang face, as a move's die (the course core's own code for it, 69). It moves
/// a piece one box, where every other die moves it twice its value.
pub const YINYANG: u8 = 69;
/// 2024-25: each player's dice, `1 2 4 5 6` and the yin-yang face, in mask bit order (the order
/// the core lists them in).
pub const DICE_2024: [u8; 6] = [1, 2, 4, 5, 6, YINYANG];
/// 2024-25: the full mask of [`DICE_2024`].
pub const ALL_DICE_2024: u8 = 0b11_1111;

/// 2023-24: the special die (the core's `power`, 100), whose effect the mover's power bar picks.
pub const POWER: u8 = 100;
/// 2023-24: each player's dice, `1 2 4 5 6` and the special die, in mask bit order (the order
/// the core lists them in).
pub const DICE_2023: [u8; 6] = [1, 2, 4, 5, 6, POWER];
/// 2023-24: the full mask of [`DICE_2023`].
pub const ALL_DICE_2023: u8 = 0b11_1111;
/// 2023-24: the mask bit of the special die in [`DICE_2023`].
const POWER_BIT: u8 = 1 << 5;

/// What the special die does with power bar `p` (2023-24; the core's `movePiece`).
pub fn power_effect(p: u8) -> PowerEffect {
    match p {
        0..=49 => PowerEffect::Mushroom(7 + p / 7),
        50..=59 | 70..=74 => PowerEffect::RedShell,
        60..=64 => PowerEffect::Boom,
        65..=69 => PowerEffect::Mushroom(25),
        75..=79 => PowerEffect::Bullet,
        80..=84 => PowerEffect::Catapum,
        85..=89 => PowerEffect::BlueShell,
        90..=94 => PowerEffect::BoomBoom,
        95..=99 => PowerEffect::Star,
        _ => PowerEffect::CatapumChimpum,
    }
}

/// The normal dice values of `year`, in the dice masks' bit order (ascending).
#[inline]
pub fn dice_values(year: Year) -> &'static [u8] {
    match year {
        Year::Y2021 => &DICE_2021,
        Year::Y2022 => &NORMAL_DICE,
        Year::Y2023 => &DICE_2023,
        Year::Y2024 => &DICE_2024,
    }
}

const fn bit(k: u8) -> u128 {
    1u128 << k
}

/// Bits `a..=b` (both in 1..=68); empty when `a > b`.
#[inline]
fn range_mask(a: u8, b: u8) -> u128 {
    if a > b {
        return 0;
    }
    let hi = if b >= 127 {
        u128::MAX
    } else {
        (1u128 << (b + 1)) - 1
    };
    let lo = (1u128 << a) - 1;
    hi & !lo
}

/// Is `p` a normal track box?
#[inline]
pub const fn is_track(p: u8) -> bool {
    p >= 1 && p <= 68
}

/// Is `p` a final-queue box (q1..q7 are 69..=75)?
#[inline]
pub const fn is_queue(p: u8) -> bool {
    p >= 69 && p <= 75
}

/// Player owning colour `c` (yellow/red → 0, blue/green → 1).
#[inline]
pub fn player_of(c: usize) -> usize {
    c & 1
}

/// Distance to the goal of a piece of colour `c` on box `p` (rules §1).
pub const fn distance_to_goal(c: usize, p: u8) -> i32 {
    let e = ENTRANCE[c] as i32;
    match p {
        HOME => 74,
        GOAL => 0,
        _ if is_queue(p) => 8 - (p as i32 - 68),
        _ => {
            let k = p as i32;
            if k <= e { e - k + 8 } else { 68 - k + e + 8 }
        }
    }
}

/// Maps an "overshoot" count `c` beyond the entrance to a box (rules §5.2), with the bounce flag.
#[inline]
fn from_queue_count(colour: usize, c: i32) -> (u8, bool) {
    if c <= 7 {
        (68 + c.max(1) as u8, false)
    } else if c == 8 {
        (GOAL, false)
    } else {
        let r = 16 - c;
        if r > 0 {
            (68 + r as u8, true)
        } else {
            // Only absurdly long moves could leave the board here; wrap instead of panicking.
            let b = (ENTRANCE[colour] as i32 + r - 1).rem_euclid(68) + 1;
            (b as u8, true)
        }
    }
}

/// Destination of a piece of colour `c` on box `p` moving `d` steps, and whether it bounced.
/// The common case (a track piece that stays on the shared track) is answered inline.
#[inline(always)]
pub fn destination(c: usize, p: u8, d: u8) -> (u8, bool) {
    if is_track(p) {
        let e = ENTRANCE[c];
        let to_entrance = if p <= e { e - p } else { 68 - p + e };
        if d <= to_entrance {
            // p + d <= 68 + 67: no overflow.
            let n = p + d;
            return (if n > 68 { n - 68 } else { n }, false);
        }
    }
    destination_general(c, p, d)
}

/// [`destination`] for every case (rules §5.2).
#[inline(never)]
fn destination_general(c: usize, p: u8, d: u8) -> (u8, bool) {
    let e = ENTRANCE[c] as i32;
    let d = d as i32;
    match p {
        HOME => (START[c], false),
        GOAL => (GOAL, false),
        _ if is_queue(p) => from_queue_count(c, p as i32 - 68 + d),
        _ => {
            let k = p as i32;
            if k <= e && k + d > e {
                from_queue_count(c, k + d - e)
            } else if k + d > 68 && k + d - 68 > e {
                from_queue_count(c, k + d - 68 - e)
            } else if k + d <= 68 {
                ((k + d) as u8, false)
            } else {
                ((1 + (k + d - 1) % 68) as u8, false)
            }
        }
    }
}

/// "The box after" `p` for colour `c`: one step of a plain piece. QUIRK: after the goal comes
/// normal box 1; after home, the start box.
#[inline]
pub fn box_after(c: usize, p: u8) -> u8 {
    if p == GOAL { 1 } else { destination(c, p, 1).0 }
}

/// The target number T of Path(origin, dest) for colour `c`, or `None` when the path is empty.
#[inline]
fn path_target(c: usize, origin: u8, dest: u8) -> Option<u8> {
    if !is_track(origin) {
        return None;
    }
    let t = if is_track(dest) { dest } else { ENTRANCE[c] };
    if t == origin { None } else { Some(t) }
}

/// Bit mask of Path(origin, dest) (rules §5.3), wrapping 68 → 1.
#[inline]
fn path_mask(c: usize, origin: u8, dest: u8) -> u128 {
    match path_target(c, origin, dest) {
        None => 0,
        Some(t) if t > origin => range_mask(origin + 1, t),
        Some(t) => range_mask(origin + 1, 68) | range_mask(1, t),
    }
}

/// How many steps a piece on track box `p` can go along the track before its path meets a
/// box of `wall` (track boxes, bits 1..=68): the path of s steps is boxes p+1..=p+s (wrapping
/// 68 → 1), so it crosses `wall` iff s > `free_run(p, wall)`.
#[inline]
fn free_run(p: u8, wall: u128) -> u8 {
    if wall == 0 {
        return u8::MAX;
    }
    const RING: u128 = (1 << 68) - 1;
    // Bit i of w = box i + 1; rotating the 68-box ring right by p puts box p + 1 + j at bit j.
    let w = (wall >> 1) & RING;
    let r = (w >> p) | ((w << (68 - u32::from(p))) & RING);
    r.trailing_zeros() as u8
}

/// Bit mask of the star-interaction scan of Path(origin, dest). QUIRK: from origin 68 the scan
/// starts at box 2 (box 1 is skipped), and if T is 1 it walks the whole circle.
#[inline]
fn star_scan_mask(c: usize, origin: u8, dest: u8) -> u128 {
    match path_target(c, origin, dest) {
        None => 0,
        Some(t) if origin == 68 => {
            if t == 1 {
                range_mask(1, 68)
            } else {
                range_mask(2, t)
            }
        }
        Some(t) if t > origin => range_mask(origin + 1, t),
        Some(t) => range_mask(origin + 1, 68) | range_mask(1, t),
    }
}

/// The first box of Path(origin, dest), in path order (wrapping 68 → 1), whose bit is set in
/// `mask`.
fn first_on_path(c: usize, origin: u8, dest: u8, mask: u128) -> Option<u8> {
    let t = path_target(c, origin, dest)?;
    let m = path_mask(c, origin, dest) & mask;
    if m == 0 {
        return None;
    }
    if t > origin {
        return Some(m.trailing_zeros() as u8);
    }
    let first = m & range_mask(origin + 1, 68);
    if first != 0 {
        Some(first.trailing_zeros() as u8)
    } else {
        Some(m.trailing_zeros() as u8)
    }
}

/// Derived tables for one move generation, built once per node in one pass over the pieces:
/// what the (piece, die) legality tests need, so that each test is a table look-up instead of
/// an occupancy query. Boxes are named by *slot*: track boxes 1..=68 are shared by all colours,
/// while queue boxes belong to one colour, so q1..q7 of colour c are slots 69 + 7c ..= 75 + 7c
/// (see [`slot`]). Home and goal never enter these tables (unlimited capacity, never
/// barriers).
pub(crate) struct Board {
    /// Per slot, rules §5.4 item 4: bit 0 set iff a non-star mover may not land there (exactly
    /// two pieces, or one lone mega piece), bit 1 the same for a star mover (two stars, or one
    /// lone mega piece). A box may hold more than two pieces: "full" means exactly two.
    block: [u8; 128],
    /// Per colour of the player to move (index `c >> 1`: only its pieces are tested): slots
    /// holding a barrier of that colour (track or queue; item 8), and track boxes holding a
    /// barrier (item 5) or a mega barrier (item 6) of some other colour.
    barrier: [u128; 2],
    others_barrier: [u128; 2],
    others_mega: [u128; 2],
    /// Whether any colour has a barrier or a mega barrier (rarely).
    walls: bool,
    /// Ids (in play) of the pieces at home and in the goal.
    home_ids: u16,
    goal_ids: u16,
}

impl Board {
    /// May a mover (a star iff `star`) land on slot `s`? (Rules §5.4 item 4.)
    #[inline(always)]
    fn blocked(&self, s: u32, star: bool) -> bool {
        self.block[s as usize & 127] >> (star as u8) & 1 != 0
    }
}

/// Slot (index in [`Board`] tables) of box `p` (track or queue) seen by colour `c`.
#[inline(always)]
fn slot(c: usize, p: u8) -> u32 {
    if p > 68 {
        p as u32 + 7 * c as u32
    } else {
        p as u32
    }
}

/// Step count (rules §5.1) by `[type][6 counts 7][die]`: the die, 6 → 7 when the colour has no
/// piece at home, then star +2, mini halved, bananed 0. Dice are 1..=20 (32 entries so that a
/// die indexes it without a bounds check).
const STEPS: [[[u8; 32]; 2]; 8] = {
    let mut t = [[[0u8; 32]; 2]; 8];
    let mut ty = 0;
    while ty < 8 {
        let mut h = 0;
        while h < 2 {
            let mut d = 0;
            while d < 32 {
                let s = if d == 6 && h == 1 { 7 } else { d as u8 };
                t[ty][h][d] = match ty as u8 {
                    T_STAR => s + 2,
                    T_MINI => s / 2,
                    T_BANANED => 0,
                    _ => s,
                };
                d += 1;
            }
            h += 1;
        }
        ty += 1;
    }
    t
};

/// 0x01 in every byte.
const BYTES_LO: u128 = u128::MAX / 255;

/// Bit i set iff byte i of `v` equals `x` (a branch-free SWAR compare of 16 bytes: exact zero-byte
/// detection, then the 16 flag bits gathered with one multiplication per 8 bytes).
#[inline]
fn byte_eq_mask(v: u128, x: u8) -> u16 {
    zero_bytes(v ^ (BYTES_LO * u128::from(x)))
}

/// Bit i set iff byte i of `z` is zero.
#[inline]
fn zero_bytes(z: u128) -> u16 {
    let low7 = BYTES_LO * 0x7F;
    // High bit of each byte set iff that byte of z is zero (no borrows cross bytes).
    let flags = !(((z & low7) + low7) | z | low7);
    // Bytes' flags at bits 8k → bit k of the top byte (the partial products never collide).
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let lo = ((flags as u64) >> 7).wrapping_mul(GATHER) >> 56;
    let hi = (((flags >> 64) as u64) >> 7).wrapping_mul(GATHER) >> 56;
    (lo | hi << 8) as u16
}

/// Legality of number move `m` given which pieces may move: a piece move needs its piece among
/// `candidates` and `can(piece)`; a pass needs no candidate to be able to move.
#[inline(always)]
fn legal_by(m: Move, candidates: u16, can: impl Fn(usize) -> bool) -> bool {
    if m.is_pass() {
        let mut c = candidates;
        while c != 0 {
            let id = c.trailing_zeros() as usize;
            c &= c - 1;
            if can(id) {
                return false;
            }
        }
        return true;
    }
    let id = m.piece as usize;
    id < 16 && candidates & (1 << id) != 0 && can(id)
}

/// Piece-id mask of colour `c`.
#[inline]
fn colour_ids(c: usize) -> u16 {
    0xF << (4 * c)
}

/// Iterates piece ids of an occupancy mask in the reference's box order: blue, red, green,
/// yellow, then index.
#[inline]
fn ordered(mask: u16) -> impl Iterator<Item = usize> {
    let mut m = mask.rotate_right(4);
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some((i + 4) & 15)
        }
    })
}

impl Parchis {
    #[inline]
    pub(crate) fn typ(&self, id: usize) -> u8 {
        self.st[id] & 7
    }
    #[inline]
    pub(crate) fn counter(&self, id: usize) -> u8 {
        self.st[id] >> 3
    }
    #[inline]
    fn set_state(&mut self, id: usize, t: u8, counter: u8) {
        self.st[id] = t | (counter << 3);
    }

    /// Mask of the piece ids in play (3 or 4 per colour).
    #[inline]
    pub(crate) fn id_mask(&self) -> u16 {
        ((1u16 << self.npieces) - 1).wrapping_mul(0x1111)
    }

    /// Ids (in play) of all pieces whose box code is `p`, whatever their colour. The loop
    /// compiles to one 16-byte compare and a byte-mask extraction.
    #[inline]
    pub(crate) fn at(&self, p: u8) -> u16 {
        byte_eq_mask(u128::from_le_bytes(self.pos), p) & self.id_mask()
    }

    /// Is any piece (in play or not: unused slots are normal) of a type other than normal?
    /// A cheap pre-test for [`Parchis::of_type`].
    #[inline]
    fn any_special(&self) -> bool {
        u128::from_le_bytes(self.st) & (BYTES_LO * 7) != 0
    }

    /// Ids of the pieces of type `t`.
    #[inline]
    pub(crate) fn of_type(&self, t: u8) -> u16 {
        byte_eq_mask(u128::from_le_bytes(self.st) & (BYTES_LO * 7), t) & self.id_mask()
    }

    /// Track boxes (bit mask) holding a piece among `ids`.
    #[inline]
    fn track_boxes(&self, mut ids: u16) -> u128 {
        let mut b = 0u128;
        while ids != 0 {
            let id = ids.trailing_zeros() as usize;
            ids &= ids - 1;
            let p = self.pos[id];
            if is_track(p) {
                b |= bit(p);
            }
        }
        b
    }

    /// Builds the per-generation tables of this position (see [`Board`]).
    pub(crate) fn board(&self) -> Board {
        let n = self.npieces as usize;
        let mut count = [0u8; 128];
        let (mut home_ids, mut goal_ids) = (0u16, 0u16);
        // Bit t set iff some piece on a track or queue box has type t.
        let mut types = 0u8;
        for c in 0..4 {
            for i in 0..n {
                let id = 4 * c + i;
                let p = self.pos[id];
                if p == HOME {
                    home_ids |= 1 << id;
                } else if p == GOAL {
                    goal_ids |= 1 << id;
                } else {
                    count[slot(c, p) as usize & 127] += 1;
                    types |= 1 << self.typ(id);
                }
            }
        }
        let mut b = Board {
            // Full boxes (a vectorised compare): closed to all but stars. Boxes of two stars
            // and lone megas are added below.
            block: count.map(|k| u8::from(k == 2)),
            barrier: [0; 2],
            others_barrier: [0; 2],
            others_mega: [0; 2],
            walls: false,
            home_ids,
            goal_ids,
        };
        let on_board = self.id_mask() & !(home_ids | goal_ids);
        // A barrier: a box with exactly two pieces, both of one colour, neither boo nor mini.
        // It needs two pieces of one colour on one track or queue box (rare): compare the
        // colour's pairs (unrolled), and look closer only when some pair matches.
        let mut barrier = [0u128; 4];
        let on = |x: u8| x != HOME && x != GOAL;
        for (c, bar) in barrier.iter_mut().enumerate() {
            let q = [
                self.pos[4 * c],
                self.pos[4 * c + 1],
                self.pos[4 * c + 2],
                self.pos[4 * c + 3],
            ];
            let mut pair = (q[0] == q[1] && on(q[0]))
                | (q[0] == q[2] && on(q[0]))
                | (q[1] == q[2] && on(q[1]));
            if n == 4 {
                pair |= (q[3] == q[0] || q[3] == q[1] || q[3] == q[2]) && on(q[3]);
            }
            if !pair {
                continue;
            }
            for i in 0..n {
                for j in i + 1..n {
                    let (a, z) = (4 * c + i, 4 * c + j);
                    if q[i] == q[j] && on(q[i]) {
                        let s = slot(c, q[i]);
                        if count[s as usize & 127] == 2
                            && !matches!(self.typ(a), T_BOO | T_MINI)
                            && !matches!(self.typ(z), T_BOO | T_MINI)
                        {
                            *bar |= 1 << s;
                            b.walls = true;
                        }
                    }
                }
            }
        }
        let mut mega = [0u128; 4];
        if types & (1 << T_MEGA) != 0 {
            let mut m = self.of_type(T_MEGA) & on_board;
            while m != 0 {
                let id = m.trailing_zeros() as usize;
                m &= m - 1;
                let (c, p) = (id >> 2, self.pos[id]);
                let s = slot(c, p);
                if count[s as usize & 127] == 1 {
                    b.block[s as usize & 127] = 3;
                    if is_track(p) {
                        mega[c] |= 1 << s;
                        b.walls = true;
                    }
                }
            }
        }
        if types & (1 << T_STAR) != 0 {
            // A star may enter a full box unless both occupants are stars.
            let mut seen = 0u128;
            let mut m = self.of_type(T_STAR) & on_board;
            while m != 0 {
                let id = m.trailing_zeros() as usize;
                m &= m - 1;
                let s = slot(id >> 2, self.pos[id]);
                if count[s as usize & 127] == 2 {
                    if seen >> s & 1 != 0 {
                        b.block[s as usize & 127] |= 2;
                    }
                    seen |= 1 << s;
                }
            }
        }
        if b.walls {
            // Different colours' barriers (mega barriers) never share a box, so "every other
            // colour's" is the union minus one's own.
            let track = ((1u128 << 69) - 1) & !1;
            let all_barrier = (barrier[0] | barrier[1] | barrier[2] | barrier[3]) & track;
            let all_mega = mega[0] | mega[1] | mega[2] | mega[3];
            let pl = self.player as usize;
            for (k, c) in self.colours_of(pl).into_iter().enumerate() {
                b.barrier[k] = barrier[c];
                b.others_barrier[k] = all_barrier & !barrier[c];
                b.others_mega[k] = all_mega & !mega[c];
            }
        }
        b
    }

    /// Piece ids on box `p` as seen by colour `c` (home/goal/queue boxes belong to `c`).
    #[inline]
    pub(crate) fn occupants(&self, c: usize, p: u8) -> u16 {
        let m = self.at(p);
        if is_track(p) { m } else { m & colour_ids(c) }
    }

    #[inline]
    fn is_mega_barrier(&self, c: usize, p: u8) -> bool {
        let o = self.occupants(c, p);
        o.count_ones() == 1 && self.typ(o.trailing_zeros() as usize) == T_MEGA
    }

    /// Does box `p` (seen by colour `c`) hold a piece of colour `c` or a star piece?
    #[inline]
    fn has_own_or_star(&self, c: usize, p: u8) -> bool {
        let o = self.occupants(c, p);
        o & colour_ids(c) != 0 || o & self.of_type(T_STAR) != 0
    }

    /// Does colour `c` have a piece at home?
    #[inline]
    fn has_home(&self, c: usize) -> bool {
        self.pos[4 * c..4 * c + self.npieces as usize].contains(&HOME)
    }

    /// The two colours of player `pl`, its main colour first: yellow and red, blue and green;
    /// in 2024-25 yellow and green, blue and red.
    #[inline]
    pub(crate) fn colours_of(&self, pl: usize) -> [usize; 2] {
        let pl = pl & 1;
        match self.year {
            Year::Y2024 => [pl, 3 - pl],
            Year::Y2021 | Year::Y2022 | Year::Y2023 => [pl, pl + 2],
        }
    }

    /// The player who owns colour `c`.
    #[inline]
    pub fn player_of_colour(&self, c: usize) -> usize {
        match self.year {
            // Yellow and green are player 0's, blue and red player 1's.
            Year::Y2024 => usize::from(c & 3 == 1 || c & 3 == 2),
            Year::Y2021 | Year::Y2022 | Year::Y2023 => player_of(c),
        }
    }

    /// Whose dice are in play: the player's (2022-23, 2023-24, 2024-25) or the colour to move's
    /// (2021-22).
    #[inline]
    fn dice_owner(&self) -> usize {
        match self.year {
            Year::Y2024 => self.player as usize,
            Year::Y2021 | Year::Y2022 | Year::Y2023 => self.colour as usize,
        }
    }

    /// How many boxes piece `id` moves with number die `d` (a 6 counts 7 when none of its
    /// colour's pieces is at home).
    #[inline]
    pub(crate) fn move_steps(&self, id: usize, d: u8) -> u8 {
        let home = d == 6 && self.has_home(id >> 2);
        self.steps(home, id, d)
    }

    /// Step count of piece `id` with number die `d` (rules §5.1). In 2024-25 every die but the
    /// yin-yang counts double (a 6 that counts 7 moves 14), the yin-yang one box.
    #[inline]
    fn steps(&self, home: bool, id: usize, d: u8) -> u8 {
        if self.year == Year::Y2024 {
            return match d {
                YINYANG => 1,
                6 if !home => 14,
                _ => d.saturating_mul(2),
            };
        }
        let mut s = if d == 6 && !home { 7 } else { d };
        match self.typ(id) {
            T_STAR => s += 2,
            T_MINI => s /= 2,
            T_BANANED => s = 0,
            _ => {}
        }
        s
    }

    /// Rules §5.4 items 3–8 for piece `id` and number die `d` (items 1–2 are checked per die).
    #[inline]
    fn can_move(&self, b: &Board, id: usize, d: u8) -> bool {
        let c = id >> 2;
        let p = self.pos[id];
        if p == GOAL || (p == HOME && d != 5) {
            return false;
        }
        let t = self.typ(id);
        let (dst, _) = destination(c, p, self.steps(b.home_ids & colour_ids(c) != 0, id, d));
        if dst != p && dst != GOAL {
            // Full box: only a star may enter, and not a box of two stars. A lone mega piece
            // cannot be joined.
            if b.blocked(slot(c, dst), t == T_STAR) {
                return false;
            }
        }
        // Barriers are rare: skip the path mask when there is none to cross.
        let path = if b.others_barrier[c >> 1] | b.others_mega[c >> 1] != 0 {
            self.wall_path(c, p, dst)
        } else {
            0
        };
        if path != 0 {
            if !matches!(t, T_BOO | T_STAR | T_MEGA) && path & b.others_barrier[c >> 1] != 0 {
                return false;
            }
            if t != T_BOO && path & b.others_mega[c >> 1] != 0 {
                return false;
            }
        }
        if t == T_MEGA {
            let after = box_after(c, dst);
            if self.is_mega_barrier(c, after)
                || self.has_own_or_star(c, dst)
                || self.has_own_or_star(c, after)
            {
                return false;
            }
        }
        if d == 6 && self.six_barriers(b, c) != 0 {
            // The mover must break one of its barriers: P must stand on one of colour C.
            if p == HOME || p == GOAL || b.barrier[c >> 1] >> slot(c, p) & 1 == 0 {
                return false;
            }
        }
        true
    }

    /// The boxes a barrier may not stand on for a move of colour `c` from `origin` to `dest`.
    /// QUIRK (2021-22): that core's barrier scan is the star scan of 2022-23, which from box 68
    /// skips box 1 (and walks the whole circle when the move ends on box 1).
    #[inline]
    fn wall_path(&self, c: usize, origin: u8, dest: u8) -> u128 {
        match self.year {
            Year::Y2021 => star_scan_mask(c, origin, dest),
            Year::Y2022 | Year::Y2023 | Year::Y2024 => path_mask(c, origin, dest),
        }
    }

    /// The barriers (slots) that oblige a 6 to break one when colour `c` moves: in 2022-23 and
    /// 2024-25 those of either of the player's colours, in 2021-22 the moving colour's own.
    #[inline]
    fn six_barriers(&self, b: &Board, c: usize) -> u128 {
        match self.year {
            Year::Y2021 => b.barrier[c >> 1],
            Year::Y2022 | Year::Y2023 | Year::Y2024 => b.barrier[0] | b.barrier[1],
        }
    }

    /// The pieces (ids in play) the side to move may move: both of the player's colours in
    /// 2022-23 and 2024-25, the colour to move in 2021-22.
    #[inline]
    fn movers(&self) -> u16 {
        let ids = match self.year {
            Year::Y2021 => colour_ids(self.colour as usize),
            Year::Y2022 | Year::Y2023 => {
                colour_ids(self.player as usize) | colour_ids(self.player as usize + 2)
            }
            Year::Y2024 => colour_ids(self.player as usize) | colour_ids(3 - self.player as usize),
        };
        ids & self.id_mask()
    }

    /// Rules §7 general legality of item `item` on piece `id`.
    fn can_use_item(&self, id: usize, item: u8) -> bool {
        let c = id >> 2;
        let p = self.pos[id];
        if p == GOAL {
            return false;
        }
        if p == HOME && !matches!(item, BULLET | REDSHELL | BLUESHELL | SHOCK) {
            return false;
        }
        if item == BANANA && !is_track(p) {
            return false;
        }
        if self.typ(id) == T_MEGA || item == MEGAMUSHROOM {
            let after = box_after(c, p);
            if self.is_mega_barrier(c, after) || self.has_own_or_star(c, after) {
                return false;
            }
            if item == MEGAMUSHROOM {
                let o = self.occupants(c, p);
                if o.count_ones() >= 2 {
                    let mut it = ordered(o);
                    let (x, y) = (it.next().unwrap_or(id), it.next().unwrap_or(id));
                    let (cx, cy) = (x >> 2, y >> 2);
                    if (cx == c && (cy == c || self.typ(y) == T_STAR))
                        || (cy == c && self.typ(x) == T_STAR)
                    {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The dice the mover may use (rules §3): (normal dice mask over `NORMAL_DICE`, pending
    /// bonus value or 0, whether items are usable).
    #[inline]
    pub(crate) fn available(&self) -> (u8, u8, bool) {
        // The dice belong to the current colour (in 2022-23 the player's, as colour == player);
        // in 2024-25 to the player.
        let o = self.dice_owner();
        // 2023-24 and 2024-25 have no items: no hand to use.
        let items = !matches!(self.year, Year::Y2023 | Year::Y2024);
        match self.forced_len[o] {
            0 => (self.dice[o], 0, items),
            1 => (0, self.forced_top(o), false),
            // 2021-22's dice offer their top layer, however many there are (2024-25 never
            // stacks two).
            _ if !matches!(self.year, Year::Y2022 | Year::Y2023) => (0, self.forced_top(o), false),
            // QUIRK (playground only; 2023-24's core never stacks two): with two or more stacked
            // bonus layers the reference falls back to the normal dice and allows no item.
            _ => (self.dice[o], 0, false),
        }
    }

    #[inline]
    pub(crate) fn forced_top(&self, pl: usize) -> u8 {
        let n = self.forced_len[pl];
        if n == 0 {
            0
        } else if self.forced_bits[pl] >> (n - 1) & 1 == 1 {
            20
        } else {
            10
        }
    }

    /// Does the flag state (rules §5.4 item 2) allow number die `d`?
    #[inline]
    fn flags_allow(&self, d: u8) -> bool {
        (self.flags & F_EATING == 0 || d == 20) && (self.flags & F_GOAL == 0 || d == 10)
    }

    pub(crate) fn gen_moves(&self, out: &mut Moves) {
        out.clear();
        if self.outcome != 0 {
            return;
        }
        let b = self.board();
        let pl = self.player as usize;
        let (mask, bonus, items_ok) = self.available();
        // The mover's pieces that may move at all: not in the goal. Ascending ids = the
        // reference order (colour `pl` first, then index).
        let movable = self.movers() & !b.goal_ids;
        // The number dice in the reference order: the pending bonus, else the normal dice.
        let mut dice = [0u8; 7];
        let mut nd = 0;
        if bonus != 0 {
            dice[0] = bonus;
            nd = 1;
        }
        // 2023-24's special die is not a number: its moves are listed apart (below).
        let special = self.year == Year::Y2023 && mask & POWER_BIT != 0;
        let numbers = if self.year == Year::Y2023 {
            mask & !POWER_BIT
        } else {
            mask
        };
        for (k, &d) in dice_values(self.year).iter().enumerate() {
            if numbers & (1 << k) != 0 {
                dice[nd] = d;
                nd += 1;
            }
        }
        // The 2023-24 and 2024-25 cores list their children die by die from the last (the
        // special die or yin-yang, 6, 5, ...).
        if matches!(self.year, Year::Y2023 | Year::Y2024) {
            dice[..nd].reverse();
        }
        let dice = &dice[..nd];
        if special {
            // The special die moves no box: any of the mover's pieces off home and goal may
            // take it, whatever the bar will make of it; a pass when none can.
            // Ascending ids: the main colour's pieces, then the partner's (getAvailablePieces).
            let mut l = movable & !b.home_ids;
            if l == 0 {
                out.push(Move::pass(POWER));
            }
            while l != 0 {
                out.push(Move::new(l.trailing_zeros() as u8, POWER));
                l &= l - 1;
            }
        }
        // legal[k] = the mover's pieces that may move with dice[k] as far as rules §5.4 items
        // 3–7 go, filled piece by piece (what depends only on the piece is worked out once);
        // items 2 (flags) and 8 (a 6 must break a barrier) are applied per die below.
        let mut legal = [0u16; 7];
        if dice.iter().any(|&d| self.flags_allow(d)) {
            let mut m = movable;
            while m != 0 {
                let id = m.trailing_zeros() as usize;
                m &= m - 1;
                self.piece_moves(&b, id, dice, &mut legal);
            }
        }
        // Item 8: with a 6, a player with a barrier of either colour (2021-22: a colour with a
        // barrier) must move a piece that stands on a barrier of its own colour.
        let mut six_ok = movable;
        if self.six_barriers(&b, self.colour as usize) != 0 {
            let mut m = movable;
            while m != 0 {
                let id = m.trailing_zeros() as usize;
                m &= m - 1;
                let p = self.pos[id];
                if p == HOME || b.barrier[id >> 3] >> slot(id >> 2, p) & 1 == 0 {
                    six_ok &= !(1 << id);
                }
            }
        }
        for (&d, &l) in dice.iter().zip(&legal) {
            let mut l = if self.flags_allow(d) { l } else { 0 };
            if d == 6 {
                l &= six_ok;
            }
            if l == 0 {
                out.push(Move::pass(d));
            }
            while l != 0 {
                out.push(Move::new(l.trailing_zeros() as u8, d));
                l &= l - 1;
            }
        }
        if items_ok {
            let mut seen = 0u16;
            for k in 0..self.hand_len[pl] as usize {
                let item = self.hand[pl][k];
                if seen & (1 << item) != 0 {
                    continue;
                }
                seen |= 1 << item;
                let code = 101 + item;
                let before = out.len();
                if self.flags & (F_EATING | F_GOAL) == 0 {
                    let mut m = movable;
                    while m != 0 {
                        let id = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if self.can_use_item(id, item) {
                            out.push(Move::new(id as u8, code));
                        }
                    }
                }
                if out.len() == before {
                    out.push(Move::pass(code));
                }
            }
        }
    }

    /// Exactly `gen_moves(..).contains(&m)`, checking only `m`'s die (the search asks this of
    /// killer moves at most nodes; the traces test checks it against full generation).
    pub(crate) fn is_legal(&self, m: Move) -> bool {
        if self.outcome != 0 {
            return false;
        }
        let pl = self.player as usize;
        let mine = self.movers();
        let (mask, bonus, items_ok) = self.available();
        if m.die > 100 {
            let item = m.die - 101;
            if !items_ok || !self.hand[pl][..self.hand_len[pl] as usize].contains(&item) {
                return false;
            }
            let free = self.flags & (F_EATING | F_GOAL) == 0;
            if m.is_pass() {
                return !free
                    || !(0..16).any(|id| mine & (1 << id) != 0 && self.can_use_item(id, item));
            }
            let id = m.piece as usize;
            return id < 16 && mine & (1 << id) != 0 && free && self.can_use_item(id, item);
        }
        let d = m.die;
        if d == POWER && self.year == Year::Y2023 {
            if bonus != 0 || mask & POWER_BIT == 0 {
                return false;
            }
            let candidates = mine & !self.at(GOAL) & !self.at(HOME);
            if m.is_pass() {
                return candidates == 0;
            }
            return (m.piece as usize) < 16 && candidates >> m.piece & 1 != 0;
        }
        let available = if bonus != 0 {
            d == bonus
        } else {
            dice_values(self.year)
                .iter()
                .position(|&x| x == d)
                .is_some_and(|k| mask & (1 << k) != 0)
        };
        if !available {
            return false;
        }
        let movable = mine & !self.at(GOAL);
        let candidates = if d == 5 {
            movable
        } else {
            movable & !self.at(HOME)
        };
        if !self.flags_allow(d) {
            return m.is_pass();
        }
        if let Some(bar) = self.lite_barriers() {
            // Most positions (no mega piece): no tables, only the boxes involved are looked at.
            return legal_by(m, candidates, |id| self.can_move_lite(&bar, id, d));
        }
        let b = self.board();
        legal_by(m, candidates, |id| self.can_move(&b, id, d))
    }

    /// Without a mega piece in play (the usual case), the per-colour barrier slots: boxes
    /// holding exactly two pieces, both of that colour, neither boo nor mini (rules §5.4; the
    /// same definition as in [`Parchis::board`]); `None` when some piece is mega. With these
    /// [`Parchis::can_move_lite`] decides one move from the positions alone, without the
    /// [`Board`] tables.
    #[inline]
    fn lite_barriers(&self) -> Option<[u128; 4]> {
        if self.any_special() && self.of_type(T_MEGA) != 0 {
            return None;
        }
        let v = u128::from_le_bytes(self.pos);
        // Pieces in play off home and goal.
        let on = self.id_mask() & !(byte_eq_mask(v, HOME) | byte_eq_mask(v, GOAL));
        // Within each colour's four bytes (one 32-bit lane), piece i against piece i + 1 and
        // i + 2 (mod 4): the six pairs, as bit masks over ids.
        const LANE_HI: u128 = u128::MAX / 0xFFFF_FFFF * 0xFF00_0000;
        let rot1 = ((v >> 8) & !LANE_HI) | ((v << 24) & LANE_HI);
        let rot2 = ((v >> 16) & (u128::MAX / 0xFFFF_FFFF * 0xFFFF))
            | ((v << 16) & !(u128::MAX / 0xFFFF_FFFF * 0xFFFF));
        let nib1 = |m: u16| ((m >> 1) & 0x7777) | ((m << 3) & 0x8888);
        let nib2 = |m: u16| ((m >> 2) & 0x3333) | ((m << 2) & 0xCCCC);
        let pairs = (zero_bytes(v ^ rot1) & on & nib1(on)) | (zero_bytes(v ^ rot2) & on & nib2(on));
        let mut bar = [0u128; 4];
        if pairs == 0 {
            return Some(bar);
        }
        let n = self.npieces as usize;
        for (c, bar) in bar.iter_mut().enumerate() {
            if pairs & colour_ids(c) == 0 {
                continue;
            }
            let q = &self.pos[4 * c..4 * c + 4];
            for i in 0..n {
                for j in i + 1..n {
                    if q[i] == q[j]
                        && on >> (4 * c + i) & 1 != 0
                        && self.occupants(c, q[i]).count_ones() == 2
                        && !matches!(self.typ(4 * c + i), T_BOO | T_MINI)
                        && !matches!(self.typ(4 * c + j), T_BOO | T_MINI)
                    {
                        *bar |= 1 << slot(c, q[i]);
                    }
                }
            }
        }
        Some(bar)
    }

    /// [`Parchis::can_move`] for a position without mega pieces, given its
    /// [`Parchis::lite_barriers`]: the destination's occupancy is read directly.
    #[inline]
    fn can_move_lite(&self, bar: &[u128; 4], id: usize, d: u8) -> bool {
        let c = id >> 2;
        let p = self.pos[id];
        if p == GOAL || (p == HOME && d != 5) {
            return false;
        }
        let t = self.typ(id);
        let (dst, _) = destination(c, p, self.steps(self.has_home(c), id, d));
        if dst != p && dst != GOAL {
            // A box of exactly two pieces admits only a star, and not when both are stars.
            let o = self.occupants(c, dst);
            if o.count_ones() == 2 && (t != T_STAR || o & !self.of_type(T_STAR) == 0) {
                return false;
            }
        }
        let all = bar[0] | bar[1] | bar[2] | bar[3];
        if all == 0 {
            return true;
        }
        if !matches!(t, T_BOO | T_STAR) {
            // Other colours' barriers on the track (different colours never share one).
            let track = ((1u128 << 69) - 1) & !1;
            if self.wall_path(c, p, dst) & all & !bar[c] & track != 0 {
                return false;
            }
        }
        let pl = self.player as usize;
        let own = match self.year {
            Year::Y2021 => bar[c],
            Year::Y2022 | Year::Y2023 => bar[pl] | bar[pl + 2],
            Year::Y2024 => bar[pl] | bar[3 - pl],
        };
        if d == 6 && own != 0 {
            // The mover must break one of its barriers.
            if p == HOME || p == GOAL || bar[c] >> slot(c, p) & 1 == 0 {
                return false;
            }
        }
        true
    }

    /// Sets bit `id` of `legal[k]` iff piece `id` (not in the goal) passes rules §5.4 items 3–7
    /// with die `dice[k]`. The common case, a track piece that is not mega and does not reach
    /// its queue, is decided here with the piece's data worked out once; everything else goes
    /// through [`Parchis::can_move`].
    #[inline(always)]
    fn piece_moves(&self, b: &Board, id: usize, dice: &[u8], legal: &mut [u16; 7]) {
        let c = id >> 2;
        let p = self.pos[id];
        let t = self.typ(id);
        // From box 68 the 2021-22 barrier scan is not the free run below (`wall_path`); the
        // table of steps below is not 2024-25's (doubled dice).
        if !is_track(p)
            || t == T_MEGA
            || (p == 68 && self.year == Year::Y2021)
            || self.year == Year::Y2024
        {
            for (k, &d) in dice.iter().enumerate() {
                legal[k] |= u16::from(self.can_move(b, id, d)) << id;
            }
            return;
        }
        let steps = &STEPS[t as usize & 7][usize::from(b.home_ids & colour_ids(c) == 0)];
        let e = ENTRANCE[c];
        let to_entrance = if p <= e { e - p } else { 68 - p + e };
        let star = t == T_STAR;
        // Barriers (items 5, 6) this piece may not cross, and how many steps it can go before
        // meeting one.
        let wall = if !b.walls || t == T_BOO {
            0
        } else if t == T_STAR {
            b.others_mega[c >> 1]
        } else {
            b.others_barrier[c >> 1] | b.others_mega[c >> 1]
        };
        let free = free_run(p, wall);
        for (k, &d) in dice.iter().enumerate() {
            // Dice are 1..=20.
            let s = steps[d as usize & 31];
            let ok = if s == 0 {
                // A bananed piece "moves" zero boxes: nothing to check.
                true
            } else if s <= to_entrance {
                let n = p + s;
                let dst = if n > 68 { n - 68 } else { n };
                s <= free && !b.blocked(dst as u32, star)
            } else {
                self.can_move(b, id, d)
            };
            legal[k] |= u16::from(ok) << id;
        }
    }

    // ----------------------------------------------------------------------------------------
    // Execution
    // ----------------------------------------------------------------------------------------

    /// Sends piece `id` home (it keeps its type and counter) and records it for the `seed`
    /// heuristic.
    fn destroy(&mut self, id: usize) {
        // 2023-24's booms may pick a piece already at home: it stays, and is not counted.
        if self.year == Year::Y2023 && self.pos[id] == HOME {
            return;
        }
        self.pos[id] = HOME;
        let c = id >> 2;
        self.destroyed[c] = self.destroyed[c].saturating_add(1);
    }

    /// Picks up board items lying on `boxes` (rules §5.5 item 8): in board order, while the
    /// mover holds fewer than two items. Every box holds at most one item (items never return
    /// to the board), so scanning in index order reproduces the reference's erase-and-slide loop.
    fn pickup(&mut self, pl: usize, boxes: &[u8]) {
        // Only items still on the board and lying on one of `boxes` matter (usually none).
        let mut m = 0u32;
        for &p in boxes {
            if let Some(&i) = ITEM_AT.get(p as usize)
                && i != NO_ITEM
            {
                m |= 1 << i;
            }
        }
        m &= self.board_items;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if boxes.contains(&BOARD_ITEMS[i].1) && self.hand_len[pl] < 2 {
                self.push_item(pl, BOARD_ITEMS[i].0);
                self.board_items &= !(1 << i);
            }
        }
    }

    /// [`Parchis::pickup`] for one box: usually there is no item on it.
    #[inline]
    fn pickup_one(&mut self, pl: usize, p: u8) {
        if let Some(&i) = ITEM_AT.get(p as usize)
            && i != NO_ITEM
            && self.board_items >> i & 1 != 0
            && self.hand_len[pl] < 2
        {
            self.push_item(pl, BOARD_ITEMS[i as usize].0);
            self.board_items &= !(1 << i);
        }
    }

    #[inline]
    fn push_item(&mut self, pl: usize, item: u8) {
        let n = self.hand_len[pl] as usize;
        if n < self.hand[pl].len() {
            self.hand[pl][n] = item;
            self.hand_len[pl] += 1;
        }
    }

    /// Removes the first held item of kind `item`; returns whether one was held.
    fn remove_item(&mut self, pl: usize, item: u8) -> bool {
        let n = self.hand_len[pl] as usize;
        if let Some(k) = self.hand[pl][..n].iter().position(|&x| x == item) {
            self.hand[pl].copy_within(k + 1..n, k);
            self.hand[pl][n - 1] = 0;
            self.hand_len[pl] -= 1;
            true
        } else {
            false
        }
    }

    fn remove_last_item(&mut self, pl: usize) -> Option<u8> {
        let n = self.hand_len[pl] as usize;
        if n == 0 {
            return None;
        }
        let it = self.hand[pl][n - 1];
        self.hand[pl][n - 1] = 0;
        self.hand_len[pl] -= 1;
        Some(it)
    }

    fn push_forced(&mut self, pl: usize, v: u8) {
        let n = self.forced_len[pl];
        if (n as u32) < u16::BITS {
            if v == 20 {
                self.forced_bits[pl] |= 1 << n;
            } else {
                self.forced_bits[pl] &= !(1 << n);
            }
            self.forced_len[pl] = n + 1;
        }
    }

    /// Spends number die `d` of dice owner `pl` (rules §5.5 item 9). Nothing is spent in
    /// playground mode.
    fn spend_number(&mut self, pl: usize, d: u8) {
        if self.playground {
            return;
        }
        if self.forced_len[pl] > 0 {
            let n = self.forced_len[pl] - 1;
            self.forced_bits[pl] &= !(1 << n);
            self.forced_len[pl] = n;
        } else if let Some(k) = dice_values(self.year).iter().position(|&x| x == d) {
            self.dice[pl] &= !(1 << k);
            if self.dice[pl] == 0 {
                self.dice[pl] = match self.year {
                    Year::Y2021 => ALL_DICE_2021,
                    Year::Y2022 => ALL_DICE,
                    Year::Y2023 => ALL_DICE_2023,
                    Year::Y2024 => ALL_DICE_2024,
                };
            }
        }
    }

    fn add_trap(&mut self, p: u8) {
        let n = self.ntraps as usize;
        if n < self.traps.len() {
            self.traps[n] = p;
            self.ntraps += 1;
        }
    }

    fn remove_trap(&mut self, p: u8) {
        let n = self.ntraps as usize;
        if let Some(k) = self.traps[..n].iter().position(|&x| x == p) {
            self.traps.copy_within(k + 1..n, k);
            self.traps[n - 1] = 0;
            self.ntraps -= 1;
        }
    }

    fn trap_mask(&self) -> u128 {
        self.traps[..self.ntraps as usize]
            .iter()
            .fold(0, |m, &p| if is_track(p) { m | bit(p) } else { m })
    }

    /// Win check after a move (rules §10): over-bounce first, then complete colours.
    fn check_over(&mut self, mover: usize) {
        if self.bounces.iter().any(|&b| b > 30) {
            // The mover loses.
            self.outcome = 5 + (1 - mover) as u8;
            return;
        }
        // Box codes are at most GOAL = 76, so a byte reaches 128 when 52 is added iff it is
        // GOAL (no carries between bytes): a cheap test for the common "nobody in the goal".
        if (u128::from_le_bytes(self.pos) + BYTES_LO * 52) & (BYTES_LO * 0x80) == 0 {
            return;
        }
        let goal = self.at(GOAL);
        let per = (1u16 << self.npieces) - 1;
        if self.year == Year::Y2024 {
            // A player wins with both its colours complete (recorded as its main colour).
            for pl in 0..2 {
                let [a, b] = self.colours_of(pl);
                if goal >> (4 * a) & per == per && goal >> (4 * b) & per == per {
                    self.outcome = 1 + pl as u8;
                    return;
                }
            }
            return;
        }
        for c in [0usize, 1, 2, 3] {
            if goal >> (4 * c) & per == per {
                self.outcome = 1 + c as u8;
                return;
            }
        }
    }

    /// End of move (rules §4): counters, turn order.
    fn end_move(&mut self, d: u8) {
        let pl = self.player as usize;
        // Counters live in bits 3..8 of each state byte: skip the loop when all are zero.
        let counters = u128::from_le_bytes(self.st) & (BYTES_LO * 0xF8);
        // The state bytes of colours pl and pl + 2.
        const MINE: [u128; 2] = [
            u32::MAX as u128 | (u32::MAX as u128) << 64,
            (u32::MAX as u128) << 32 | (u32::MAX as u128) << 96,
        ];
        let mine = MINE[pl & 1];
        for c in [pl, pl + 2] {
            if counters & mine == 0 {
                break;
            }
            for i in 0..self.npieces as usize {
                let id = 4 * c + i;
                let n = self.counter(id);
                if n > 0 {
                    let t = if n == 1 { T_NORMAL } else { self.typ(id) };
                    self.set_state(id, t, n - 1);
                }
            }
        }
        let keep = self.flags & F_BANANED == 0
            && (d == 6 || self.flags & (F_EATING | F_GOAL | F_REMEMBER6) != 0);
        if !keep {
            match self.year {
                // The colours move in turn: yellow, blue, red, green.
                Year::Y2021 => {
                    self.colour = (self.colour + 1) & 3;
                    self.player = self.colour & 1;
                }
                Year::Y2022 | Year::Y2023 => {
                    self.player ^= 1;
                    self.colour = self.player;
                }
                // The colours move in turn and each belongs to its player: yellow (0), blue (1),
                // red (1), green (0), so a player moves twice in a row.
                Year::Y2024 => {
                    self.colour = (self.colour + 1) & 3;
                    self.player = self.player_of_colour(self.colour as usize) as u8;
                }
            }
        }
        self.turn = self.turn.wrapping_add(1);
    }

    #[inline]
    fn remember6(&self, d: u8) -> bool {
        d == 6 || (self.flags & F_REMEMBER6 != 0 && (d == 10 || d == 20))
    }

    pub(crate) fn play(&mut self, m: Move) {
        let pl = self.player as usize;
        self.last_mover = 0xFF;
        self.last_eaten = 0xFF;
        self.destroyed = [0; 4];
        let d = m.die;
        if m.is_pass() {
            let r6 = self.remember6(d);
            self.flags &= !(F_EATING | F_GOAL | F_REMEMBER6);
            if r6 {
                self.flags |= F_REMEMBER6;
            }
            if d > 100 {
                if !self.playground {
                    self.remove_item(pl, d - 101);
                }
            } else {
                self.spend_number(self.dice_owner(), d);
            }
            self.end_move(d);
            return;
        }
        let id = m.piece as usize;
        self.last_mover = (id >> 2) as u8;
        if d == POWER && self.year == Year::Y2023 {
            self.play_power(id);
            self.end_move(d);
        } else if d > 100 {
            self.play_item(id, d - 101);
            self.end_move(d);
        } else {
            self.play_number(id, d);
            self.end_move(d);
        }
    }

    fn play_number(&mut self, id: usize, d: u8) {
        let pl = self.player as usize;
        let c = id >> 2;
        let origin = self.pos[id];
        // Only a 6 looks at home (it counts 7 when none of the colour's pieces is there).
        let home = d == 6 && self.has_home(c);
        let (mut dst, bounce) = destination(c, origin, self.steps(home, id, d));
        let r6 = self.remember6(d);
        self.flags &= !(F_EATING | F_GOAL | F_BANANED | F_REMEMBER6);
        if r6 {
            self.flags |= F_REMEMBER6;
        }
        let mut t = self.typ(id);
        // 2. Traps.
        if !matches!(t, T_STAR | T_BOO | T_MEGA)
            && self.ntraps > 0
            && let Some(trap) = first_on_path(c, origin, dst, self.trap_mask())
        {
            dst = trap;
            self.remove_trap(trap);
            self.set_state(id, T_BANANED, 2);
            t = T_BANANED;
            self.flags |= F_BANANED;
            self.flags &= !F_REMEMBER6;
        }
        let mut picked = false;
        if t == T_STAR {
            // 3. A moving star destroys other-colour non-boo non-star pieces on its scan. The
            // 2023-24 core ("un poco de compasión") scans a bouncing star only up to its queue.
            let scan = if bounce && self.year == Year::Y2023 {
                star_scan_mask(c, origin, GOAL)
            } else {
                star_scan_mask(c, origin, dst)
            };
            if scan != 0 {
                for v in 0..16 {
                    if v >> 2 != c
                        && self.id_mask() & (1 << v) != 0
                        && is_track(self.pos[v])
                        && scan & bit(self.pos[v]) != 0
                        && !matches!(self.typ(v), T_BOO | T_STAR)
                    {
                        self.destroy(v);
                    }
                }
            }
            self.pos[id] = dst;
            self.charge(pl, d);
        } else if t == T_MEGA {
            // 4. Mega mover.
            let victims_d = self.occupants(c, dst);
            let mut after = box_after(c, dst);
            if after == GOAL {
                dst = GOAL;
                after = box_after(c, dst);
            }
            if bounce {
                self.bounces[c] = self.bounces[c].saturating_add(1);
            }
            let victims_a = self.occupants(c, after);
            for v in ordered(victims_d | victims_a) {
                if v >> 2 != c && self.typ(v) != T_BOO && v != id {
                    self.destroy(v);
                }
            }
            self.pickup(pl, &[dst, after]);
            picked = true;
            if dst == GOAL {
                let n = self.counter(id);
                self.set_state(id, T_NORMAL, n);
            } else if self.counter(id) == 1 {
                dst = after;
            }
            self.pos[id] = dst;
        } else {
            // 5. Other movers: destroyed by a star on the scan, else maybe capture.
            // The mover's own type may just have become bananed: only other colours' stars
            // matter, so that does not change this set.
            let other_stars = if self.any_special() {
                self.of_type(T_STAR) & !colour_ids(c)
            } else {
                0
            };
            if t != T_BOO
                && other_stars != 0
                && star_scan_mask(c, origin, dst) & self.track_boxes(other_stars) != 0
            {
                self.destroy(id);
                dst = HOME;
            } else {
                // Capture: the first occupant of a normal non-safe box (the box is looked at
                // only when the mover and the box allow a capture at all).
                if is_track(dst)
                    && SAFE_MASK & bit(dst) == 0
                    && !matches!(t, T_BOO | T_MINI | T_BANANED)
                    && let Some(v) = ordered(self.occupants(c, dst) & !(1 << id)).next()
                    && v >> 2 != c
                    && self.typ(v) != T_BOO
                {
                    self.pos[v] = HOME;
                    self.last_eaten = (v >> 2) as u8;
                    self.flags |= F_EATING;
                }
                self.pos[id] = dst;
                self.charge(pl, d);
                if self.flags & F_EATING != 0 {
                    self.charge(pl, 15);
                }
                if bounce {
                    self.bounces[c] = self.bounces[c].saturating_add(1);
                }
            }
        }
        // 2023-24: a barrier on the box the move ends on fills the bar by 10, a safe box by 5.
        if self.year == Year::Y2023 && (is_track(dst) || is_queue(dst)) {
            let o = self.occupants(c, dst);
            if o.count_ones() == 2 {
                let mut it = ordered(o);
                let (x, y) = (it.next().unwrap_or(id), it.next().unwrap_or(id));
                if x >> 2 == y >> 2
                    && !matches!(self.typ(x), T_BOO | T_MINI)
                    && !matches!(self.typ(y), T_BOO | T_MINI)
                {
                    self.charge(pl, 10);
                }
            }
            if is_track(dst) && SAFE_MASK & bit(dst) != 0 {
                self.charge(pl, 5);
            }
        }
        // 6/7. End of game, goal bonus.
        self.check_over(pl);
        if dst == GOAL && self.outcome == 0 {
            self.flags |= F_GOAL;
        }
        // 8. Item pickup on the final box.
        if !picked && is_track(dst) {
            self.pickup_one(pl, dst);
        }
        // 9/10. Dice (the current colour's: the player's in 2022-23 and 2024-25).
        let o = self.dice_owner();
        self.spend_number(o, d);
        if self.flags & F_EATING != 0 {
            self.push_forced(o, 20);
        }
        if self.flags & F_GOAL != 0 {
            self.push_forced(o, 10);
        }
    }

    /// Mushroom / bullet run: goal if close enough, else `n` steps then +1 while occupied.
    fn rush(&mut self, id: usize, n: u8) {
        let c = id >> 2;
        let p = self.pos[id];
        let dst = if distance_to_goal(c, p) <= n as i32 {
            GOAL
        } else {
            let mut k = n;
            loop {
                let (d, _) = destination(c, p, k);
                if self.occupants(c, d) == 0 || k == u8::MAX {
                    break d;
                }
                k += 1;
            }
        };
        self.pos[id] = dst;
        if is_track(dst) {
            self.pickup_one(self.player as usize, dst);
        }
    }

    /// Shell/horn victim with horn protection (not in playground).
    fn shell_hit(&mut self, v: usize, immune: bool) {
        let vp = player_of(v >> 2);
        if !self.playground && self.remove_item(vp, HORN) {
            return;
        }
        if !immune {
            self.destroy(v);
        }
    }

    /// Red shell from piece `id`: the nearest pieces of other colours ahead of it (boxes by
    /// rules §7.1, ties all hit) go home, stars and mega pieces excepted.
    fn red_shell(&mut self, id: usize) {
        let c = id >> 2;
        let ids = self.id_mask();
        let others = || (0..16).filter(move |&v| v >> 2 != c && ids & (1 << v) != 0);
        let a = self.pos[id];
        let mut best = i32::MAX;
        let mut targets = 0u16;
        for v in others() {
            if self.typ(v) == T_BOO {
                continue;
            }
            let dist = box_distance(c, a, v >> 2, self.pos[v]);
            if dist > 0 {
                if dist < best {
                    best = dist;
                    targets = 0;
                }
                if dist == best {
                    targets |= 1 << v;
                }
            }
        }
        for v in 0..16 {
            if targets & (1 << v) != 0 {
                let immune = matches!(self.typ(v), T_STAR | T_MEGA);
                self.shell_hit(v, immune);
            }
        }
    }

    /// Blue shell: the pieces of other colours than `id`'s nearest their goals (ties all hit) go
    /// home, stars excepted.
    fn blue_shell(&mut self, id: usize) {
        let c = id >> 2;
        let ids = self.id_mask();
        let others = || (0..16).filter(move |&v| v >> 2 != c && ids & (1 << v) != 0);
        let mut best = i32::MAX;
        let mut targets = 0u16;
        for v in others() {
            if self.typ(v) == T_BOO {
                continue;
            }
            let dist = distance_to_goal(v >> 2, self.pos[v]);
            if dist > 0 {
                if dist < best {
                    best = dist;
                    targets = 0;
                }
                if dist == best {
                    targets |= 1 << v;
                }
            }
        }
        for v in 0..16 {
            if targets & (1 << v) != 0 {
                let immune = self.typ(v) == T_STAR;
                self.shell_hit(v, immune);
            }
        }
    }

    /// 2023-24: fills player `pl`'s power bar by `e`, up to 100 (the core's `increasePower`).
    #[inline]
    fn charge(&mut self, pl: usize, e: u8) {
        if self.year == Year::Y2023 {
            self.power[pl] = self.power[pl].saturating_add(e).min(100);
        }
    }

    /// 2023-24's special die on piece `id`: the mover's power bar picks the effect and empties
    /// (the core's `movePiece` with die 100). No box is moved by the die itself, nothing fills the
    /// bar, no bonus is earned, and the turn passes.
    fn play_power(&mut self, id: usize) {
        let pl = self.player as usize;
        let bar = self.power[pl];
        self.power[pl] = 0;
        self.spend_number(pl, POWER);
        self.flags &= !F_REMEMBER6;
        match power_effect(bar) {
            PowerEffect::Mushroom(n) => self.rush(id, n),
            PowerEffect::RedShell => self.red_shell(id),
            // QUIRK: unlike 2022-23's bullet, the 2023-24 core keeps the piece's type (its
            // reset is commented out); the piece is never at home (the die needs it out).
            PowerEffect::Bullet => self.rush(id, 40),
            PowerEffect::BlueShell => self.blue_shell(id),
            PowerEffect::Star => self.set_state(id, T_STAR, 6),
            PowerEffect::Boom => self.boom(id, pl),
            PowerEffect::Catapum => {
                let [a, b] = self.colours_of(pl);
                let (sel, found) = self.nearest_of(id, &[a, b]);
                if found {
                    let mut hit = vec![sel];
                    self.around(sel, &mut hit);
                    self.send_home(&hit);
                }
            }
            PowerEffect::BoomBoom => {
                // The core runs catapum's search once per colour of the player, with the piece
                // it picked carried over: the first colour's pick has just been sent home, so
                // the second colour picks only when the first had every piece in the goal.
                let mut hit = Vec::new();
                let mut sel = id;
                for c in self.colours_of(pl) {
                    let (s, found) = self.nearest_of(sel, &[c]);
                    sel = s;
                    if found {
                        hit.push(sel);
                        self.around(sel, &mut hit);
                    }
                    self.send_home(&hit);
                }
            }
            PowerEffect::CatapumChimpum => {
                // The colour nearer the goal (all its pieces counted, home and goal ones too;
                // ties go to the second colour): its pieces out on the board and every piece
                // within two boxes of any of its pieces, all found before any goes home.
                let [a, b] = self.colours_of(pl);
                let total = |c: usize| -> i32 {
                    (0..self.npieces as usize)
                        .map(|i| distance_to_goal(c, self.pos[4 * c + i]))
                        .sum()
                };
                let c = if total(a) < total(b) { a } else { b };
                let mut hit = Vec::new();
                for i in 0..self.npieces as usize {
                    let v = 4 * c + i;
                    if self.pos[v] != GOAL && self.pos[v] != HOME {
                        hit.push(v);
                    }
                    self.around(v, &mut hit);
                }
                self.send_home(&hit);
            }
        }
        self.check_over(pl);
    }

    /// 2023-24's boom: the player's piece farthest from the goal (not at home; the first found
    /// in the core's order, colours then indices) and every piece within two boxes of it go home.
    fn boom(&mut self, id: usize, pl: usize) {
        let mut sel = id;
        let mut far = 0;
        for c in self.colours_of(pl) {
            for i in 0..self.npieces as usize {
                let v = 4 * c + i;
                let d = distance_to_goal(c, self.pos[v]);
                // QUIRK: the core also asks that the piece picked so far be off home, which the
                // special die's piece and every pick are.
                if d > far && self.pos[v] != HOME && self.pos[sel] != HOME {
                    sel = v;
                    far = d;
                }
            }
        }
        if far > 0 {
            let mut hit = vec![sel];
            self.around(sel, &mut hit);
            self.send_home(&hit);
        }
    }

    /// The core's search for catapum and boomboom: among colours `cs`' pieces not in the goal,
    /// the first nearest the goal, starting from `sel`. QUIRK: a piece is picked only while the
    /// piece picked so far is off home, so once a piece at home is picked (it may be: home
    /// counts 74, a track box up to 75) nothing else is. Returns the pick and whether one was
    /// made.
    fn nearest_of(&self, mut sel: usize, cs: &[usize]) -> (usize, bool) {
        let mut near = 1000;
        for &c in cs {
            for i in 0..self.npieces as usize {
                let v = 4 * c + i;
                let d = distance_to_goal(c, self.pos[v]);
                if d < near && self.pos[v] != GOAL && self.pos[sel] != HOME {
                    sel = v;
                    near = d;
                }
            }
        }
        (sel, near < 1000)
    }

    /// Appends to `hit` every piece on the board (any colour, the blast's own included; not at
    /// home or in the goal, not a star, boo or mega piece) within two boxes of piece `v`, either
    /// way (rules §7.1's distance, as the 2022-23 horn measures it), in the core's order.
    fn around(&self, v: usize, hit: &mut Vec<usize>) {
        let (vc, vp) = (v >> 2, self.pos[v]);
        for w in 0..16 {
            if self.id_mask() & (1 << w) == 0 {
                continue;
            }
            let (wc, wp) = (w >> 2, self.pos[w]);
            if wp == GOAL || wp == HOME || matches!(self.typ(w), T_BOO | T_MEGA | T_STAR) {
                continue;
            }
            let d1 = box_distance(vc, vp, wc, wp);
            let d2 = box_distance(wc, wp, vc, vp);
            if (0..=2).contains(&d1) || (0..=2).contains(&d2) {
                hit.push(w);
            }
        }
    }

    /// Sends the pieces of `hit` home (each once; one already at home stays). QUIRK: the piece
    /// a blast picked is first in `hit` and goes home whatever its type, a star too (`around`
    /// spares stars only among the pieces around it).
    fn send_home(&mut self, hit: &[usize]) {
        let mut done = 0u16;
        for &v in hit {
            if done & (1 << v) == 0 {
                done |= 1 << v;
                self.destroy(v);
            }
        }
    }

    fn play_item(&mut self, id: usize, item: u8) {
        let pl = self.player as usize;
        let opp = 1 - pl;
        let c = id >> 2;
        if !self.playground {
            self.remove_item(pl, item);
        }
        self.flags &= !F_REMEMBER6;
        let ids = self.id_mask();
        let others = || (0..16).filter(move |&v| v >> 2 != c && ids & (1 << v) != 0);
        match item {
            STAR => self.set_state(id, T_STAR, 4),
            BOO => {
                self.set_state(id, T_BOO, 6);
                if !self.playground
                    && self.hand_len[opp] > 0
                    && self.hand_len[pl] < 2
                    && let Some(it) = self.remove_last_item(opp)
                {
                    self.push_item(pl, it);
                }
            }
            MEGAMUSHROOM => {
                self.set_state(id, T_MEGA, 4);
                let p = self.pos[id];
                let after = box_after(c, p);
                let victims = self.occupants(c, p) | self.occupants(c, after);
                for v in ordered(victims) {
                    if v >> 2 != c && self.typ(v) != T_BOO {
                        self.destroy(v);
                    }
                }
                self.pickup(pl, &[p, after]);
            }
            MUSHROOM => self.rush(id, 8),
            BULLET => {
                let n = self.counter(id);
                self.set_state(id, T_NORMAL, n);
                if self.pos[id] == HOME {
                    self.pos[id] = START[c];
                }
                self.rush(id, 40);
            }
            REDSHELL => self.red_shell(id),
            BLUESHELL => self.blue_shell(id),
            SHOCK => {
                for v in others() {
                    match self.typ(v) {
                        T_MEGA => self.set_state(v, T_NORMAL, 4),
                        T_STAR | T_BOO => {}
                        _ => self.set_state(v, T_MINI, 4),
                    }
                }
                if !self.playground {
                    self.remove_last_item(opp);
                }
            }
            HORN => {
                let a = self.pos[id];
                let mut victims = 0u16;
                for v in others() {
                    let vp = self.pos[v];
                    if vp == GOAL || matches!(self.typ(v), T_BOO | T_MEGA | T_STAR) {
                        continue;
                    }
                    let d1 = box_distance(c, a, v >> 2, vp);
                    let d2 = box_distance(v >> 2, vp, c, a);
                    if (0..=2).contains(&d1) || (0..=2).contains(&d2) {
                        victims |= 1 << v;
                    }
                }
                for v in 0..16 {
                    if victims & (1 << v) != 0 {
                        self.destroy(v);
                    }
                }
            }
            BANANA => {
                let p = self.pos[id];
                self.add_trap(p);
            }
            _ => {}
        }
        self.check_over(pl);
    }
}

/// Reference number of a box for BoxDistance (rules §7.1 step 1).
#[inline]
fn ref_number(colour: usize, p: u8) -> i32 {
    match p {
        HOME => START[colour] as i32,
        GOAL => ENTRANCE[colour] as i32,
        _ if is_queue(p) => ENTRANCE[colour] as i32,
        _ => p as i32,
    }
}

/// Raw box number (home and goal 0, queue boxes their index).
#[inline]
fn raw_number(p: u8) -> i32 {
    match p {
        HOME | GOAL => 0,
        _ if is_queue(p) => p as i32 - 68,
        _ => p as i32,
    }
}

/// BoxDistance(C, A, B) of rules §7.1: `A` is box `a` seen by colour `c`, `B` is box `bx`
/// belonging to colour `bc` (only meaningful for home/queue/goal). −1 means unreachable.
pub fn box_distance(c: usize, a: u8, bc: usize, bx: u8) -> i32 {
    let ra = ref_number(c, a);
    let rb = ref_number(bc, bx);
    if !is_track(bx) && bc != c {
        return -1;
    }
    let e = ENTRANCE[c] as i32;
    if (ra <= e && e < rb) || (ra > rb && (ra <= e || e < rb)) {
        return -1;
    }
    let mut dist = if rb >= ra {
        rb - ra
    } else {
        // QUIRK: raw numbers here (only differs when A is a home box).
        68 - raw_number(a) + raw_number(bx)
    };
    match a {
        HOME => dist += 1,
        GOAL => dist -= 8,
        _ if is_queue(a) => dist -= a as i32 - 68,
        _ => {}
    }
    match bx {
        HOME => dist -= 1,
        GOAL => dist += 8,
        _ if is_queue(bx) => dist += bx as i32 - 68,
        _ => {}
    }
    if dist < 0 { -1 } else { dist }
}
