//! The rules engine of Parchís: board geometry, per-position occupancy tables, move legality,
//! move generation and move execution. It reproduces the reference simulator bit for bit
//! (`/work/shared/rules/parchis.md`), including the quirks listed there; every quirk is marked
//! with a `QUIRK` comment so nobody "fixes" it.

use super::{
    BANANA, BLUESHELL, BOO, BULLET, GOAL, HOME, HORN, MEGAMUSHROOM, MUSHROOM, Move, Moves, Parchis,
    REDSHELL, SHOCK, STAR, T_BANANED, T_BOO, T_MEGA, T_MINI, T_NORMAL, T_STAR,
};
use super::{F_BANANED, F_EATING, F_GOAL, F_REMEMBER6};

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
pub fn is_track(p: u8) -> bool {
    (1..=68).contains(&p)
}

/// Is `p` a final-queue box (q1..q7 are 69..=75)?
#[inline]
pub fn is_queue(p: u8) -> bool {
    (69..=75).contains(&p)
}

/// Player owning colour `c` (yellow/red → 0, blue/green → 1).
#[inline]
pub fn player_of(c: usize) -> usize {
    c & 1
}

/// Distance to the goal of a piece of colour `c` on box `p` (rules §1).
pub fn distance_to_goal(c: usize, p: u8) -> i32 {
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

/// Derived tables for one move generation: only what is needed over and over for every
/// (piece, die) pair. Occupancy itself is not tabulated: [`Parchis::at`] answers "who is on
/// box p" in a few instructions (one vector compare over the 16 piece boxes), which is cheaper
/// than building a 97-slot table for every node.
pub(crate) struct Board {
    /// Per colour: track boxes that are a barrier or a mega barrier of some OTHER colour
    /// (`barrier`, rules §5.4 item 5) and a mega barrier of another colour (`mega`, item 6).
    others_barrier: [u128; 4],
    others_mega: [u128; 4],
    /// Per colour: does it have a piece at home?
    home: [bool; 4],
    /// Per colour: does it stand on a barrier of its own colour somewhere (track or queue)?
    own_barrier: [bool; 4],
}

/// 0x01 in every byte.
const BYTES_LO: u128 = u128::MAX / 255;

/// Bit i set iff byte i of `v` equals `x` (a branch-free SWAR compare of 16 bytes: exact zero-byte
/// detection, then the 16 flag bits gathered with one multiplication per 8 bytes).
#[inline]
fn byte_eq_mask(v: u128, x: u8) -> u16 {
    let z = v ^ (BYTES_LO * u128::from(x));
    let low7 = BYTES_LO * 0x7F;
    // High bit of each byte set iff that byte of z is zero (no borrows cross bytes).
    let flags = !(((z & low7) + low7) | z | low7);
    // Bytes' flags at bits 8k → bit k of the top byte (the partial products never collide).
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let lo = ((flags as u64) >> 7).wrapping_mul(GATHER) >> 56;
    let hi = (((flags >> 64) as u64) >> 7).wrapping_mul(GATHER) >> 56;
    (lo | hi << 8) as u16
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

    /// Builds the per-generation tables of this position.
    pub(crate) fn board(&self) -> Board {
        let mut b = Board {
            others_barrier: [0; 4],
            others_mega: [0; 4],
            home: [false; 4],
            own_barrier: [false; 4],
        };
        let home = self.at(HOME);
        let mut barrier = [0u128; 4];
        let mut mega = [0u128; 4];
        let n = self.npieces as usize;
        for (c, bar) in barrier.iter_mut().enumerate() {
            b.home[c] = home & colour_ids(c) != 0;
            // A barrier needs two pieces of colour c on one box: check the pairs of c's pieces.
            for i in 0..n {
                let a = 4 * c + i;
                let p = self.pos[a];
                if p == HOME || p == GOAL {
                    continue;
                }
                for j in i + 1..n {
                    if self.pos[4 * c + j] == p {
                        let o = self.occupants(c, p);
                        if self.is_barrier_mask(o) {
                            if is_track(p) {
                                *bar |= bit(p);
                            }
                            b.own_barrier[c] = true;
                        }
                    }
                }
            }
        }
        let mut megas = self.of_type(T_MEGA);
        while megas != 0 {
            let id = megas.trailing_zeros() as usize;
            megas &= megas - 1;
            let p = self.pos[id];
            if is_track(p) && self.at(p).count_ones() == 1 {
                mega[id >> 2] |= bit(p);
            }
        }
        for c in 0..4 {
            for oc in 0..4 {
                if oc != c {
                    b.others_barrier[c] |= barrier[oc];
                    b.others_mega[c] |= mega[oc];
                }
            }
        }
        b
    }

    /// Two pieces of the same colour, neither boo nor mini.
    #[inline]
    fn is_barrier_mask(&self, o: u16) -> bool {
        if o.count_ones() != 2 {
            return false;
        }
        let a = o.trailing_zeros() as usize;
        let b = 15 - o.leading_zeros() as usize;
        a >> 2 == b >> 2
            && [a, b]
                .iter()
                .all(|&i| !matches!(self.typ(i), T_BOO | T_MINI))
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
        self.at(HOME) & colour_ids(c) != 0
    }

    /// Step count of piece `id` with number die `d` (rules §5.1).
    #[inline]
    fn steps(&self, home: bool, id: usize, d: u8) -> u8 {
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
    fn can_move(&self, b: &Board, id: usize, d: u8) -> bool {
        let c = id >> 2;
        let p = self.pos[id];
        if p == GOAL || (p == HOME && d != 5) {
            return false;
        }
        let t = self.typ(id);
        let (dst, _) = destination(c, p, self.steps(b.home[c], id, d));
        if dst != p && dst != GOAL {
            let o = self.occupants(c, dst);
            let n = o.count_ones();
            // Full box: only a star may enter, and not a box of two stars. A lone mega piece
            // cannot be joined.
            let blocked = (n == 2 && (t != T_STAR || o & !self.of_type(T_STAR) == 0))
                || (n == 1 && self.typ(o.trailing_zeros() as usize) == T_MEGA);
            if blocked {
                return false;
            }
        }
        // Barriers are rare: skip the path mask when there is none to cross.
        let path = if b.others_barrier[c] | b.others_mega[c] != 0 {
            path_mask(c, p, dst)
        } else {
            0
        };
        if path != 0 {
            if !matches!(t, T_BOO | T_STAR | T_MEGA) && path & b.others_barrier[c] != 0 {
                return false;
            }
            if t != T_BOO && path & b.others_mega[c] != 0 {
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
        if d == 6 && (b.own_barrier[c] || b.own_barrier[c ^ 2]) {
            if p == HOME || p == GOAL {
                return false;
            }
            let o = self.occupants(c, p);
            if !self.is_barrier_mask(o) || o & colour_ids(c) != o {
                return false;
            }
        }
        true
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
        let pl = self.player as usize;
        match self.forced_len[pl] {
            0 => (self.dice[pl], 0, true),
            // QUIRK (playground only): with two or more stacked bonus layers the reference falls
            // back to the normal dice and allows no item.
            1 => (0, self.forced_top(pl), false),
            _ => (self.dice[pl], 0, false),
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
        let ids = self.id_mask();
        let mine: [usize; 2] = [pl, pl + 2];
        let (mask, bonus, items_ok) = self.available();
        // The mover's pieces that may move with some number die: not in the goal; those at home
        // only with a 5. Ascending ids = the reference order (colour `pl` first, then index).
        let movable = (colour_ids(pl) | colour_ids(pl + 2)) & ids & !self.at(GOAL);
        let at_home = movable & self.at(HOME);
        let number = |d: u8, out: &mut Moves| {
            let before = out.len();
            if self.flags_allow(d) {
                let mut m = if d == 5 { movable } else { movable & !at_home };
                while m != 0 {
                    let id = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if self.can_move(&b, id, d) {
                        out.push(Move::new(id as u8, d));
                    }
                }
            }
            if out.len() == before {
                out.push(Move::pass(d));
            }
        };
        if bonus != 0 {
            number(bonus, out);
        }
        for (k, &d) in NORMAL_DICE.iter().enumerate() {
            if mask & (1 << k) != 0 {
                number(d, out);
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
                    for &c in &mine {
                        for i in 0..self.npieces as usize {
                            let id = 4 * c + i;
                            if ids & (1 << id) != 0 && self.can_use_item(id, item) {
                                out.push(Move::new(id as u8, code));
                            }
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
        let ids = self.id_mask();
        let mine = (colour_ids(pl) | colour_ids(pl + 2)) & ids;
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
        let available = if bonus != 0 {
            d == bonus
        } else {
            NORMAL_DICE
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
        let b = self.board();
        if m.is_pass() {
            let mut c = candidates;
            while c != 0 {
                let id = c.trailing_zeros() as usize;
                c &= c - 1;
                if self.can_move(&b, id, d) {
                    return false;
                }
            }
            return true;
        }
        let id = m.piece as usize;
        id < 16 && candidates & (1 << id) != 0 && self.can_move(&b, id, d)
    }

    // ----------------------------------------------------------------------------------------
    // Execution
    // ----------------------------------------------------------------------------------------

    /// Sends piece `id` home (it keeps its type and counter) and records it for the `seed`
    /// heuristic.
    fn destroy(&mut self, id: usize) {
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

    /// Spends number die `d` (rules §5.5 item 9). Nothing is spent in playground mode.
    fn spend_number(&mut self, pl: usize, d: u8) {
        if self.playground {
            return;
        }
        if self.forced_len[pl] > 0 {
            let n = self.forced_len[pl] - 1;
            self.forced_bits[pl] &= !(1 << n);
            self.forced_len[pl] = n;
        } else if let Some(k) = NORMAL_DICE.iter().position(|&x| x == d) {
            self.dice[pl] &= !(1 << k);
            if self.dice[pl] == 0 {
                self.dice[pl] = ALL_DICE;
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
        for c in 0..4 {
            if self.bounces[c] > 30 {
                // The mover loses.
                self.outcome = 5 + (1 - mover) as u8;
                return;
            }
        }
        let goal = self.at(GOAL);
        let per = (1u16 << self.npieces) - 1;
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
        let mine = (u128::from(u32::MAX) << (32 * pl)) | (u128::from(u32::MAX) << (32 * (pl + 2)));
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
            self.player ^= 1;
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
                self.spend_number(pl, d);
            }
            self.end_move(d);
            return;
        }
        let id = m.piece as usize;
        self.last_mover = (id >> 2) as u8;
        if d > 100 {
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
        let (mut dst, bounce) = destination(c, origin, self.steps(self.has_home(c), id, d));
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
            // 3. A moving star destroys other-colour non-boo non-star pieces on its scan.
            let scan = star_scan_mask(c, origin, dst);
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
            let other_stars = self.of_type(T_STAR) & !colour_ids(c);
            if t != T_BOO
                && other_stars != 0
                && star_scan_mask(c, origin, dst) & self.track_boxes(other_stars) != 0
            {
                self.destroy(id);
                dst = HOME;
            } else {
                let o = self.occupants(c, dst) & !(1 << id);
                if let Some(v) = ordered(o).next()
                    && v >> 2 != c
                    && is_track(dst)
                    && SAFE_MASK & bit(dst) == 0
                    && self.typ(v) != T_BOO
                    && !matches!(t, T_BOO | T_MINI | T_BANANED)
                {
                    self.pos[v] = HOME;
                    self.last_eaten = (v >> 2) as u8;
                    self.flags |= F_EATING;
                }
                self.pos[id] = dst;
                if bounce {
                    self.bounces[c] = self.bounces[c].saturating_add(1);
                }
            }
        }
        // 6/7. End of game, goal bonus.
        self.check_over(pl);
        if dst == GOAL && self.outcome == 0 {
            self.flags |= F_GOAL;
        }
        // 8. Item pickup on the final box.
        if !picked && is_track(dst) {
            self.pickup(pl, &[dst]);
        }
        // 9/10. Dice.
        self.spend_number(pl, d);
        if self.flags & F_EATING != 0 {
            self.push_forced(pl, 20);
        }
        if self.flags & F_GOAL != 0 {
            self.push_forced(pl, 10);
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
            self.pickup(self.player as usize, &[dst]);
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
            REDSHELL => {
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
            BLUESHELL => {
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
