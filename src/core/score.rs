//! Score encoding: heuristic values, win/loss-in-n scores and their transposition-table form.
//!
//! Scores are `i32` from a fixed perspective (the root player's). A win reached `n` plies from
//! the root is `WIN - n`; a loss is `-(WIN - n)`. Heuristic values stay within `EVAL_LIMIT`.

use super::game::EVAL_LIMIT;

/// The score of a win at the root itself (0 plies).
pub const WIN: i32 = 1_000_000_000;
/// Scores at or beyond this magnitude are wins/losses.
pub const WIN_BASE: i32 = WIN - 100_000;
/// Larger than any score; the initial alpha-beta window.
pub const INFINITY: i32 = WIN + 1;

const _: () = assert!(EVAL_LIMIT < WIN_BASE);

/// Is `s` a proven win or loss?
#[inline]
pub fn is_decisive(s: i32) -> bool {
    s.abs() >= WIN_BASE
}

/// Plies to the end for a decisive score (positive: win, negative: loss), `None` otherwise.
pub fn plies_to_end(s: i32) -> Option<i32> {
    if s >= WIN_BASE {
        Some(WIN - s)
    } else if s <= -WIN_BASE {
        Some(-(WIN + s))
    } else {
        None
    }
}

/// Converts a score found `ply` plies below the root into its node-relative TT form, so that a
/// stored win distance stays right when the entry is read at another ply.
#[inline]
pub fn to_tt(s: i32, ply: i32) -> i32 {
    if s >= WIN_BASE {
        s + ply
    } else if s <= -WIN_BASE {
        s - ply
    } else {
        s
    }
}

/// Inverse of [`to_tt`].
#[inline]
pub fn from_tt(s: i32, ply: i32) -> i32 {
    if s >= WIN_BASE {
        s - ply
    } else if s <= -WIN_BASE {
        s + ply
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_round_trip_keeps_every_kind_of_score() {
        for &s in &[
            0,
            17,
            -17,
            EVAL_LIMIT,
            -EVAL_LIMIT,
            WIN - 5,
            -(WIN - 5),
            WIN_BASE,
            -WIN_BASE,
        ] {
            for ply in 0..50 {
                assert_eq!(from_tt(to_tt(s, ply), ply), s, "score {s} ply {ply}");
            }
        }
        // A win 7 plies below the root seen at ply 3 is a win in 4 from that node.
        assert_eq!(to_tt(WIN - 7, 3), WIN - 4);
        assert_eq!(plies_to_end(WIN - 7), Some(7));
        assert_eq!(plies_to_end(-(WIN - 7)), Some(-7));
        assert_eq!(plies_to_end(123), None);
    }
}
