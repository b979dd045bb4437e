//! The bitboard of 5-en-Raya: one fixed-size bit set for every board size up to 19 × 19, the
//! masks that depend only on the size (the board, the ninja board's special cells and Trinity
//! residues) and the Zobrist keys.
//!
//! # Layout
//! Cell (row `f` from the top, column `c` from the left, both from 0) is bit `f * S + c` with
//! the row stride `S = C + 1`: every row carries one always-empty *sentinel* bit after its last
//! cell, so a horizontal or diagonal step off the edge of a row lands on a sentinel (empty)
//! instead of wrapping into the next row. The four line directions of the core's scan are the
//! index steps `1` (right), `S` (down), `S + 1` (down-right) and `S - 1` (down-left). Bits at
//! and above `F * S` are always zero, so vertical steps off the board read empty cells too.
//!
//! ```text
//!   9 × 9 (S = 10):   0  1  2  3  4  5  6  7  8 | 9      <- bit 9 is row 0's sentinel
//!                    10 11 12 13 14 15 16 17 18 | 19
//!                     …
//!                    80 81 82 83 84 85 86 87 88 | 89
//! ```
//!
//! The largest board, 19 × 19, uses `19 * 20 = 380` bits: six 64-bit words. Shifts take the
//! number of words in use as a const parameter `W` (2 for 9 × 9), so that the code for the
//! course's board touches two words, not six.

/// Largest number of rows or columns.
pub const MAX_SIDE: usize = 19;
/// Words of a bit set: `MAX_SIDE * (MAX_SIDE + 1) = 380` bits fit in 6 × 64.
pub const WORDS: usize = 6;
/// Number of bit positions of a set.
pub const BITS: usize = WORDS * 64;

const _: () = assert!(MAX_SIDE * (MAX_SIDE + 1) <= BITS);

/// A set of cells (see the module doc for the layout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; WORDS]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// The set of one bit.
    #[inline(always)]
    pub const fn one(i: usize) -> Bits {
        let mut w = [0u64; WORDS];
        w[i / 64] = 1u64 << (i % 64);
        Bits(w)
    }

    /// Is bit `i` set? (`i` below [`BITS`].)
    #[inline(always)]
    pub const fn test(&self, i: usize) -> bool {
        (self.0[i / 64] >> (i % 64)) & 1 != 0
    }

    /// Sets bit `i`.
    #[inline(always)]
    pub const fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1u64 << (i % 64);
    }

    /// Clears bit `i`.
    #[inline(always)]
    pub fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1u64 << (i % 64));
    }

    /// [`Bits::and`] for constant evaluation.
    pub const fn const_and(self, o: Bits) -> Bits {
        let mut out = [0u64; WORDS];
        let mut i = 0;
        while i < WORDS {
            out[i] = self.0[i] & o.0[i];
            i += 1;
        }
        Bits(out)
    }

    #[inline(always)]
    pub fn and(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    #[inline(always)]
    pub fn or(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    #[inline(always)]
    pub fn xor(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }

    /// `self` without the cells of `o`.
    #[inline(always)]
    pub fn and_not(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Number of cells.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Every bit moved `k` places up (towards higher indices: a step right/down), for
    /// `0 < k < 64`, within the first `W` words (the others must be zero and stay zero; bits
    /// leaving word `W - 1` are dropped, which is off every board that uses `W` words).
    #[inline(always)]
    pub const fn shl<const W: usize>(self, k: u32) -> Bits {
        debug_assert!(k > 0 && k < 64);
        let mut out = [0u64; WORDS];
        let mut i = 0;
        while i < W {
            let carry = if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 };
            out[i] = (self.0[i] << k) | carry;
            i += 1;
        }
        Bits(out)
    }

    /// Every bit moved `k` places down (towards lower indices: a step left/up), `0 < k < 64`,
    /// within the first `W` words.
    #[inline(always)]
    pub const fn shr<const W: usize>(self, k: u32) -> Bits {
        debug_assert!(k > 0 && k < 64);
        let mut out = [0u64; WORDS];
        let mut i = 0;
        while i < W {
            let carry = if i + 1 < W {
                self.0[i + 1] << (64 - k)
            } else {
                0
            };
            out[i] = (self.0[i] >> k) | carry;
            i += 1;
        }
        Bits(out)
    }

    /// The set bits in increasing order (row-major cell order).
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(i, mut w)| {
            std::iter::from_fn(move || {
                if w == 0 {
                    None
                } else {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(i * 64 + b)
                }
            })
        })
    }

    /// The `len` (at most 32) bits starting at bit `start`, as the low bits of a word: one row
    /// of the board when `start = f * S`, `len = C`.
    #[inline(always)]
    pub fn extract(&self, start: usize, len: usize) -> u32 {
        let (w, off) = (start / 64, start % 64);
        let mut v = self.0[w] >> off;
        if off > 0 && w + 1 < WORDS {
            v |= self.0[w + 1] << (64 - off);
        }
        (v & ((1u64 << len) - 1)) as u32
    }
}

/// The cells of a `rows` × `cols` board (no sentinels).
pub const fn board_mask(rows: usize, cols: usize) -> Bits {
    let mut b = Bits::EMPTY;
    let s = cols + 1;
    let mut f = 0;
    while f < rows {
        let mut c = 0;
        while c < cols {
            b.set(f * s + c);
            c += 1;
        }
        f += 1;
    }
    b
}

/// [`board_mask`] of every size, `BOARD_MASKS[rows][cols]`; computed at compile time so that
/// the state need not carry its board (48 bytes more to copy at every move).
pub static BOARD_MASKS: [[Bits; MAX_SIDE + 1]; MAX_SIDE + 1] = {
    let mut t = [[Bits::EMPTY; MAX_SIDE + 1]; MAX_SIDE + 1];
    let mut r = 1;
    while r <= MAX_SIDE {
        let mut c = 1;
        while c <= MAX_SIDE {
            t[r][c] = board_mask(r, c);
            c += 1;
        }
        r += 1;
    }
    t
};

/// Words a board of `rows` × `cols` uses.
pub const fn words_for(rows: usize, cols: usize) -> usize {
    (rows * (cols + 1)).div_ceil(64)
}

/// The four line directions of the core's scan as index steps for row stride `s`: right, down,
/// down-right, down-left.
#[inline(always)]
pub const fn directions(s: usize) -> [u32; 4] {
    let s = s as u32;
    [1, s, s + 1, s - 1]
}

/// Per direction (in [`directions`] order), the first cells of the windows of `n` cells that
/// lie wholly on a `rows` × `cols` board.
pub const fn window_starts(rows: usize, cols: usize, n: usize) -> [Bits; 4] {
    let board = board_mask(rows, cols);
    let d = directions(cols + 1);
    let mut out = [Bits::EMPTY; 4];
    let mut i = 0;
    while i < 4 {
        let mut acc = board;
        let mut sh = board;
        let mut k = 1;
        while k < n {
            sh = sh.shr::<WORDS>(d[i]);
            acc = acc.const_and(sh);
            k += 1;
        }
        out[i] = acc;
        i += 1;
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The ninja board: 9 × 9, N = 5, stride 10.

/// Row stride of the 9 × 9 board.
pub const NINJA_STRIDE: usize = 10;

const fn ninja_cells(cells: &[(usize, usize)]) -> Bits {
    let mut b = Bits::EMPTY;
    let mut i = 0;
    while i < cells.len() {
        b.set(cells[i].0 * NINJA_STRIDE + cells[i].1);
        i += 1;
    }
    b
}

/// Red cells: the piece placed is the opponent's.
pub const RED: Bits = ninja_cells(&[(4, 4), (3, 4), (5, 4), (4, 3), (4, 5)]);
/// Yellow cells: every other cell of the row and the column is emptied.
pub const YELLOW: Bits = ninja_cells(&[(2, 4), (6, 4), (4, 2), (4, 6)]);
/// Green cells: one more placement this turn.
pub const GREEN: Bits = ninja_cells(&[(1, 1), (1, 7), (7, 1), (7, 7)]);
/// Every special cell: `apply` tests this one mask on the common path.
pub const SPECIAL: Bits = Bits([
    RED.0[0] | YELLOW.0[0] | GREEN.0[0],
    RED.0[1] | YELLOW.0[1] | GREEN.0[1],
    0,
    0,
    0,
    0,
]);
/// The 9 × 9 cells of the core's start: x at (4,0), (0,4); o at (4,8), (8,4).
pub const NINJA_START_X: Bits = ninja_cells(&[(4, 0), (0, 4)]);
pub const NINJA_START_O: Bits = ninja_cells(&[(4, 8), (8, 4)]);

/// `RESIDUE[r]`: the 9 × 9 cells with `(f + c) mod 3 == r` (the Trinity rule).
pub const RESIDUE: [Bits; 3] = {
    let mut t = [Bits::EMPTY; 3];
    let mut f = 0;
    while f < 9 {
        let mut c = 0;
        while c < 9 {
            t[(f + c) % 3].set(f * NINJA_STRIDE + c);
            c += 1;
        }
        f += 1;
    }
    t
};

/// The first two words of a set as one `u128`: the whole 9 × 9 board (90 bits), on which the
/// ninja board's hot paths (move generation, the line check) work with native 128-bit shifts.
#[inline(always)]
pub const fn low(b: Bits) -> u128 {
    b.0[0] as u128 | (b.0[1] as u128) << 64
}

/// The inverse of [`low`].
#[inline(always)]
pub const fn from_low(x: u128) -> Bits {
    Bits([x as u64, (x >> 64) as u64, 0, 0, 0, 0])
}

/// [`low`] of the 9 × 9 board, its residues and its special cells.
pub const BOARD9: u128 = low(board_mask(9, 9));
pub const RESIDUE9: [u128; 3] = [low(RESIDUE[0]), low(RESIDUE[1]), low(RESIDUE[2])];
pub const RED9: u128 = low(RED);
pub const GREEN9: u128 = low(GREEN);
pub const SPECIAL9: u128 = low(SPECIAL);

/// Row `f` and column `c` of a board with stride `s` and `rows` rows, `cols` columns.
pub const fn cross(f: usize, c: usize, rows: usize, cols: usize) -> Bits {
    let s = cols + 1;
    let mut b = Bits::EMPTY;
    let mut i = 0;
    while i < cols {
        b.set(f * s + i);
        i += 1;
    }
    let mut i = 0;
    while i < rows {
        b.set(i * s + c);
        i += 1;
    }
    b
}

// ---------------------------------------------------------------------------------------------
// Zobrist keys.

/// The splitmix64 step: a bijective mixer, used for the key tables and for small fields.
#[inline(always)]
pub const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// `ZOBRIST[side][bit]`: the key of a piece of `side` (0 = x, 1 = o) on bit `bit`.
pub static ZOBRIST: [[u64; BITS]; 2] = {
    let mut t = [[0u64; BITS]; 2];
    let mut s = 0;
    while s < 2 {
        let mut i = 0;
        while i < BITS {
            t[s][i] = mix(seed(s * BITS + i));
            i += 1;
        }
        s += 1;
    }
    t
};

/// The seed of key number `n` (a fixed odd multiplier spreads consecutive numbers).
const fn seed(n: usize) -> u64 {
    (n as u64).wrapping_mul(0xd1b5_4a32_d192_ed03) ^ 0x5e5e_5e5e_0000_0005
}

/// Zobrist key of a set of `side`'s pieces.
pub fn key_of(side: usize, b: Bits) -> u64 {
    b.iter().fold(0, |k, i| k ^ ZOBRIST[side][i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(BOARD_MASKS[9][9].count(), 81);
        assert_eq!(BOARD_MASKS[19][19].count(), 361);
        assert!(
            !BOARD_MASKS[19][19].test(19),
            "the sentinel of row 0 is not a cell"
        );
        assert_eq!(words_for(9, 9), 2);
        assert_eq!(words_for(19, 19), 6);
        assert_eq!(words_for(1, 1), 1);
        assert_eq!(RED.count() + YELLOW.count() + GREEN.count(), 13);
        assert_eq!(SPECIAL.count(), 13);
        assert_eq!(
            RESIDUE.iter().map(Bits::count).collect::<Vec<_>>(),
            [27, 27, 27]
        );
        assert_eq!(cross(4, 2, 9, 9).count(), 17);
    }

    #[test]
    fn shifts_cross_words() {
        let b = Bits::one(63);
        assert_eq!(b.shl::<2>(1), Bits::one(64));
        assert_eq!(Bits::one(64).shr::<2>(1), Bits::one(63));
        assert_eq!(
            Bits::one(127).shl::<2>(1),
            Bits::EMPTY,
            "dropped off word W - 1"
        );
        assert_eq!(Bits::one(300).shr::<6>(21), Bits::one(279));
        let mut x = Bits::EMPTY;
        x.set(5);
        x.set(200);
        assert_eq!(x.iter().collect::<Vec<_>>(), [5, 200]);
        assert_eq!(x.extract(195, 10), 1 << 5);
    }

    #[test]
    fn windows() {
        // 9 × 9, N = 5: 45 per direction horizontally and vertically, 25 per diagonal.
        let n: Vec<u32> = window_starts(9, 9, 5).iter().map(Bits::count).collect();
        assert_eq!(n, [45, 45, 25, 25]);
        let n: Vec<u32> = window_starts(3, 3, 3).iter().map(Bits::count).collect();
        assert_eq!(n, [3, 3, 1, 1]);
        let n: Vec<u32> = window_starts(1, 1, 1).iter().map(Bits::count).collect();
        assert_eq!(n, [1, 1, 1, 1]);
    }

    #[test]
    fn zobrist_keys_differ() {
        let mut all: Vec<u64> = ZOBRIST.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * BITS);
    }
}
