//! The course's Mancala bot protocol (the 2017-18 simulator `MancalaNoGUI.jar` and its C++
//! `SimulatorLink`): how a board and a move look on that line protocol, and the two bridges
//! built on it — [`adapter`] runs a course bot binary as a tablero engine (the referee's
//! `mancala-bot:` spec), [`bot`] plays tablero as a course bot (`tablero mancala-bot`).
//!
//! The protocol, as the jar speaks it (one process per game; a separate first process only
//! answers the name):
//!
//! | referee sends | bot answers |
//! |---|---|
//! | `PING` | `PONG` |
//! | `GETNAME` | its name |
//! | `TIMEOUT` ⏎ `<ms>` | one line, ignored (the C++ link repeats its previous answer) |
//! | `SETPLAYER` ⏎ `<0 or 1>` | `OK` (0 is J1, who moves first) |
//! | `GETMOVE` ⏎ `<n> <m1>…<mn> <turn> <J1 store> <J1 pits 1..6> <J2 store> <J2 pits 1..6>` | a pit `1`..`6` |
//! | `END` | `OK`, then it exits |
//!
//! `m1…mn` are the opponent's moves since the bot's previous move (several after extra
//! turns), `turn` is 0 for J1 and 1 for J2, and pit 1 is the one next to its owner's store —
//! the numbering of tablero's Mancala moves. The jar reads a reply as one whole line with
//! Java's `Integer.parseInt`; anything else costs the game.

pub mod adapter;
pub mod bot;
mod error;

pub use error::{BotError, FlagError, PositionWhy, SpawnError};

use crate::core::game::{FenError, Game, Side};
use crate::games::mancala::{Mancala, MancalaConfig};

/// Pits per side in the course's game.
pub const PITS: usize = 6;
/// Seeds on the board in the course's game (Kalah(6, 4)); the course's `GameState` treats any
/// other total as an invalid state.
pub const SEEDS: u32 = 48;

/// A board as the protocol carries it: `rows[p][0]` is player `p`'s store, `rows[p][k]` its
/// pit `k` (1 next to the store); `turn` is the player to move (0 = J1 = South).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub turn: u8,
    pub rows: [[u32; PITS + 1]; 2],
}

impl Board {
    /// The board of a tablero position (which must have [`PITS`] pits per side).
    pub fn from_state(s: &Mancala) -> Board {
        let mut rows = [[0u32; PITS + 1]; 2];
        for (p, side) in [Side::First, Side::Second].into_iter().enumerate() {
            rows[p][0] = u32::from(s.store(side));
            for (k, cell) in rows[p].iter_mut().enumerate().skip(1) {
                *cell = u32::from(s.seeds_at(side, k));
            }
        }
        Board {
            turn: s.side_to_move().index() as u8,
            rows,
        }
    }

    /// tablero's state string for this board: each side's pits 6..1, `:` its store.
    pub fn fen(&self) -> String {
        let half = |r: &[u32; PITS + 1]| {
            let pits: Vec<String> = (1..=PITS).rev().map(|k| r[k].to_string()).collect();
            format!("{}:{}", pits.join(","), r[0])
        };
        format!(
            "{}/{} {}",
            half(&self.rows[0]),
            half(&self.rows[1]),
            if self.turn == 0 { 'S' } else { 'N' }
        )
    }

    /// The tablero position of this board.
    pub fn to_state(&self) -> Result<Mancala, FenError> {
        Mancala::parse_fen(&self.fen(), &MancalaConfig::default())
    }

    /// `<turn> <J1 store> <J1 pits 1..6> <J2 store> <J2 pits 1..6>`, the tail of a `GETMOVE`.
    pub fn encode(&self) -> String {
        let mut words = vec![self.turn.to_string()];
        for r in &self.rows {
            words.extend(r.iter().map(u32::to_string));
        }
        words.join(" ")
    }

    /// Reads the 15 numbers of [`Board::encode`].
    pub fn decode(words: &[&str]) -> Result<Board, BoardError> {
        if words.len() != BOARD_WORDS {
            return Err(BoardError::Count(words.len()));
        }
        let clip = crate::core::spec::clip;
        let num = |w: &str| w.parse::<u32>().map_err(|_| BoardError::Seeds(clip(w)));
        let turn = match words[0] {
            "0" => 0,
            "1" => 1,
            t => return Err(BoardError::Turn(clip(t))),
        };
        let mut rows = [[0u32; PITS + 1]; 2];
        for (i, w) in words[1..].iter().enumerate() {
            rows[i / (PITS + 1)][i % (PITS + 1)] = num(w)?;
        }
        let total: u64 = rows.iter().flatten().map(|&x| u64::from(x)).sum();
        if total != u64::from(SEEDS) {
            return Err(BoardError::Total(total));
        }
        Ok(Board { turn, rows })
    }
}

/// The words of a `GETMOVE` board: the turn, then each player's store and pits 1..6.
const BOARD_WORDS: usize = 1 + 2 * (PITS + 1);

/// Why the tail of a `GETMOVE` is not a board of the course's game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error(
        "a board is {BOARD_WORDS} numbers (turn, then store and pits 1..6 of each player), got {0}"
    )]
    Count(usize),
    #[error("'{0}' is not a seed count")]
    Seeds(String),
    #[error("turn '{0}' is not 0 or 1")]
    Turn(String),
    #[error("the board holds {0} seeds; the course's game has {SEEDS}")]
    Total(u64),
}

/// Is `s` a position of the course's game (6 pits a side, 48 seeds)? Course bots reject any
/// other board as invalid.
pub fn is_course_position(s: &Mancala) -> bool {
    s.pits() == PITS && s.total_seeds() == SEEDS
}

/// Java's `Integer.parseInt` on an ASCII line: an optional sign, then decimal digits, within
/// `i32`. This is how the jar reads a move, so `+4` and `04` are pit 4 and ` 4` is junk.
pub fn java_parse_int(s: &str) -> Option<i32> {
    // Rust's integer syntax is Java's for ASCII input: one optional sign, digits, no spaces.
    s.parse::<i32>().ok()
}

/// A reply shown as one token: whitespace and control characters made visible, at most 40
/// characters (for `bestmove` tokens and error lines).
pub fn shown(reply: &str) -> String {
    if reply.is_empty() {
        return "(empty)".into();
    }
    let s: String = reply
        .chars()
        .map(|c| match c {
            ' ' => '␣',
            '\t' => '⇥',
            c if c.is_control() => '�',
            c => c,
        })
        .collect();
    crate::core::spec::clip(&s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Game;

    #[test]
    fn board_and_fen_agree_with_the_golden_layout() {
        // The course core's first move of golden game 0: J1 plays pit 3 from the start.
        let b = Board::decode(
            &"1 1 5 5 0 4 4 4 0 4 4 4 4 4 5"
                .split(' ')
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(b.fen(), "4,4,4,0,5,5:1/5,4,4,4,4,4:0 N");
        let s = b.to_state().unwrap();
        let start = Mancala::start(&MancalaConfig::default());
        assert_eq!(s, start.apply(3));
        assert_eq!(Board::from_state(&s), b);
        assert_eq!(b.encode(), "1 1 5 5 0 4 4 4 0 4 4 4 4 4 5");
        assert_eq!(
            Board::from_state(&start).encode(),
            "0 0 4 4 4 4 4 4 0 4 4 4 4 4 4"
        );
        assert!(is_course_position(&s));
    }

    #[test]
    fn bad_boards_are_refused() {
        for (text, why, want) in [
            (
                "0 0 4 4 4 4 4 4 0 4 4 4 4 4",
                "15 numbers",
                BoardError::Count(14),
            ),
            (
                "2 0 4 4 4 4 4 4 0 4 4 4 4 4 4",
                "not 0 or 1",
                BoardError::Turn("2".into()),
            ),
            (
                "0 0 4 4 4 4 4 x 0 4 4 4 4 4 4",
                "not a seed count",
                BoardError::Seeds("x".into()),
            ),
            (
                "0 0 4 4 4 4 4 5 0 4 4 4 4 4 4",
                "49 seeds",
                BoardError::Total(49),
            ),
        ] {
            let e = Board::decode(&text.split(' ').collect::<Vec<_>>()).unwrap_err();
            assert!(e.to_string().contains(why), "{text}: {e}");
            assert_eq!(e, want, "{text}");
        }
    }

    #[test]
    fn replies_are_read_like_java_parse_int() {
        assert_eq!(java_parse_int("4"), Some(4));
        assert_eq!(java_parse_int("+4"), Some(4));
        assert_eq!(java_parse_int("004"), Some(4));
        assert_eq!(java_parse_int("-0"), Some(0));
        assert_eq!(java_parse_int("7"), Some(7));
        assert_eq!(java_parse_int("2147483647"), Some(i32::MAX));
        assert_eq!(java_parse_int("-2147483648"), Some(i32::MIN));
        assert_eq!(
            java_parse_int("000000000000000000000000000000000003"),
            Some(3)
        );
        for junk in [
            "",
            " 4",
            "4 ",
            "4\r",
            "+",
            "-",
            "4.0",
            "0x4",
            "banana",
            "2147483648",
            "++4",
        ] {
            assert_eq!(java_parse_int(junk), None, "{junk:?}");
        }
        assert_eq!(shown(" 4"), "␣4");
        assert_eq!(shown(""), "(empty)");
    }
}
