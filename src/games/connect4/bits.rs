//! Bitboard primitives shared by classic Connect Four and Conecta-4 BOOM.
//!
//! Layout (Pascal Pons' convention): a board `W` columns wide and `H` rows high uses one bit per
//! cell, column-major, with one extra *sentinel* bit on top of every column, so a column spans
//! `S = H + 1` bits. Cell (column `c`, row `r`), both 0-based from the bottom-left, is bit
//! `c * S + r`; bit `c * S + H` is the always-empty sentinel. Shifting by `1`, `S`, `S - 1` and
//! `S + 1` steps vertically, horizontally and along both diagonals; the sentinel row (and the
//! unused bits above the last column) stop lines from wrapping from one column into the next.
//! For 7×6 this is `S = 7` (49 bits); for BOOM's 7×7 `S = 8` (56 bits); the largest allowed
//! board, 7×8, needs 63 bits.
//!
//! Every function here is branch-free shifting and masking so that move generation, win checks
//! and window-counting evaluations stay in the nanosecond range.

use crate::core::game::FenError;

/// The four line directions as bit shifts for column stride `s`: vertical, horizontal, and the
/// two diagonals (`s - 1` goes down-right, `s + 1` goes up-right).
#[inline(always)]
pub const fn directions(s: u32) -> [u32; 4] {
    [1, s, s - 1, s + 1]
}

/// One bit at the bottom cell of each of the `w` columns.
pub const fn bottom_mask(w: u32, s: u32) -> u64 {
    let mut m = 0u64;
    let mut c = 0;
    while c < w {
        m |= 1u64 << (c * s);
        c += 1;
    }
    m
}

/// Every playable cell of a `w`×`h` board (sentinels excluded).
pub const fn board_mask(w: u32, h: u32) -> u64 {
    bottom_mask(w, h + 1) * ((1u64 << h) - 1)
}

/// All cells of column `c` (sentinel excluded).
#[inline(always)]
pub const fn column_mask(c: u32, h: u32) -> u64 {
    ((1u64 << h) - 1) << (c * (h + 1))
}

/// Does `p` contain four in a row? `s` is the column stride.
#[inline(always)]
pub fn has_line(p: u64, s: u32) -> bool {
    let mut found = 0u64;
    for d in directions(s) {
        let m = p & (p >> d);
        found |= m & (m >> (2 * d));
    }
    found != 0
}

/// The cells (inside `board`, not in `occupied`) that would complete four in a row for `p`.
/// This is Pons' `compute_winning_position`, generalised to any stride.
#[inline(always)]
pub fn winning_cells(p: u64, occupied: u64, board: u64, s: u32) -> u64 {
    // Vertical: only the cell right above three stacked stones.
    let mut r = (p << 1) & (p << 2) & (p << 3);
    for d in [s, s - 1, s + 1] {
        let pair = (p << d) & (p << (2 * d));
        r |= pair & (p << (3 * d));
        r |= pair & (p >> d);
        let pair = (p >> d) & (p >> (2 * d));
        r |= pair & (p << d);
        r |= pair & (p >> (3 * d));
    }
    r & board & !occupied
}

/// The cell where a stone dropped now would land, for every column that is not full.
#[inline(always)]
pub fn playable_cells(occupied: u64, bottom: u64, board: u64) -> u64 {
    (occupied + bottom) & board
}

/// Start cells of every window of four that lies wholly on the board, per direction.
pub const fn window_starts(board: u64, s: u32) -> [u64; 4] {
    let d = [1, s, s - 1, s + 1];
    let mut out = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let k = d[i];
        out[i] = board & (board >> k) & (board >> (2 * k)) & (board >> (3 * k));
        i += 1;
    }
    out
}

/// Number of windows of four that hold no stone of `opp`.
#[inline(always)]
pub fn open_windows(opp: u64, starts: &[u64; 4], s: u32) -> u32 {
    let mut n = 0;
    for (i, d) in directions(s).into_iter().enumerate() {
        n += (starts[i] & !(opp | (opp >> d) | (opp >> (2 * d)) | (opp >> (3 * d)))).count_ones();
    }
    n
}

/// Counts of the windows of four that hold no stone of `opp`, split by how many stones of
/// `own` they hold: index `k` = windows with exactly `k` own stones (index 4 only occurs once
/// `own` has a line).
#[inline(always)]
pub fn window_counts(own: u64, opp: u64, starts: &[u64; 4], s: u32) -> [u32; 5] {
    let mut n = [0u32; 5];
    for (i, d) in directions(s).into_iter().enumerate() {
        let free = starts[i] & !(opp | (opp >> d) | (opp >> (2 * d)) | (opp >> (3 * d)));
        let (a, b, c, e) = (own, own >> d, own >> (2 * d), own >> (3 * d));
        // Bit-sliced 4-input population count: bit0 and bit1 of the number of own stones.
        let bit0 = a ^ b ^ c ^ e;
        let bit1 = (a & b) ^ (c & e) ^ ((a ^ b) & (c ^ e));
        let all4 = a & b & c & e;
        n[0] += (free & !(a | b | c | e)).count_ones();
        n[1] += (free & bit0 & !bit1).count_ones();
        n[2] += (free & !bit0 & bit1 & !all4).count_ones();
        n[3] += (free & bit0 & bit1).count_ones();
        n[4] += (free & all4).count_ones();
    }
    n
}

/// A strong 64-bit mixer (the splitmix64 finaliser). It is a bijection, so distinct keys keep
/// distinct hashes.
#[inline(always)]
pub const fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Parses the board part of a fen: rows from top to bottom separated by `/`, each row made of
/// cell letters (looked up with `cell`) and digits `1`..`9` for runs of empty cells. Returns, per
/// row from the bottom, the cell codes (`0` = empty) of a `w`-wide, `h`-high board.
pub fn parse_rows(
    text: &str,
    w: usize,
    h: usize,
    cell: impl Fn(char) -> Option<u8>,
) -> Result<Vec<Vec<u8>>, FenError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != h {
        return Err(FenError::Syntax(format!(
            "board has {} rows, expected {h} (rows are separated by '/')",
            rows.len()
        )));
    }
    let mut out = vec![vec![0u8; w]; h];
    for (i, row) in rows.iter().enumerate() {
        let r = h - 1 - i;
        let mut c = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 {
                    return Err(FenError::Syntax(format!(
                        "row {} (from the bottom): '0' is not a run",
                        r + 1
                    )));
                }
                c += d as usize;
            } else if let Some(code) = cell(ch) {
                if c < w {
                    out[r][c] = code;
                }
                c += 1;
            } else {
                return Err(FenError::Syntax(format!(
                    "row {}: unexpected character '{ch}'",
                    r + 1
                )));
            }
            if c > w {
                return Err(FenError::Syntax(format!(
                    "row {} has more than {w} cells",
                    r + 1
                )));
            }
        }
        if c != w {
            return Err(FenError::Syntax(format!(
                "row {} has {c} cells, expected {w}",
                r + 1
            )));
        }
    }
    Ok(out)
}

/// Formats one fen row from its cell letters (`None` = empty), compressing empty runs to digits.
pub fn format_row(cells: impl Iterator<Item = Option<char>>) -> String {
    let mut s = String::new();
    let mut run = 0;
    for c in cells {
        match c {
            None => run += 1,
            Some(ch) => {
                if run > 0 {
                    s.push_str(&run.to_string());
                    run = 0;
                }
                s.push(ch);
            }
        }
    }
    if run > 0 {
        s.push_str(&run.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_7x6() {
        assert_eq!(bottom_mask(7, 7), 0x0000_0408_1020_4081);
        assert_eq!(board_mask(7, 6).count_ones(), 42);
        assert_eq!(board_mask(7, 7), 0x007f_7f7f_7f7f_7f7f);
        assert_eq!(board_mask(7, 8).count_ones(), 56);
        assert!(board_mask(7, 8) < (1u64 << 63));
    }

    #[test]
    fn window_starts_count() {
        // 7×6 has 69 windows of four: 21 vertical, 24 horizontal, 12 + 12 diagonal.
        let st = window_starts(board_mask(7, 6), 7);
        let n: Vec<u32> = st.iter().map(|m| m.count_ones()).collect();
        assert_eq!(n, vec![21, 24, 12, 12]);
        // 7×7: 28 vertical, 28 horizontal, 16 + 16 diagonal.
        let st = window_starts(board_mask(7, 7), 8);
        let n: Vec<u32> = st.iter().map(|m| m.count_ones()).collect();
        assert_eq!(n, vec![28, 28, 16, 16]);
    }

    #[test]
    fn lines_do_not_wrap() {
        // Stones at the top of column 0 and bottom of column 1 are not vertical neighbours.
        let s = 7;
        let p = (1 << 4) | (1 << 5) | (1 << 7) | (1 << 8);
        assert!(!has_line(p, s));
        let p = 0b1111 << 1;
        assert!(has_line(p, s));
    }
}
