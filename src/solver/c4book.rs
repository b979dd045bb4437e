//! Connect Four 7×6's opening book: the exact value and an optimal move of every position with
//! 4 or 5 stones, and of the positions two moves past a 4-, 5-, 6- or 7-stone one along the
//! book's move (2,784 with 6 stones, 10,083 with 7, 12,505 with 8, 43,181 with 9), solved once
//! by this crate's own solver (`scripts/connect4/book.py` around `tablero solve`) and embedded
//! in the binary (`c4book.txt`). Such positions take the solver up to seconds each from an
//! empty table, more than a move at the course's 1 s, and the heuristic search alone lost the
//! game's value there (docs/players.md, "No lost value"); with the book `go` answers them at
//! once with a proven value.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::core::game::Game;
use crate::core::spec::PositionError;
use crate::games::connect4::{Config, Connect4};

/// The book's text: `#` comments, then one line per mirror-distinct position,
/// `<Pons moves> <score> <best column, 1-based>` (the empty board's moves are `-`).
pub const TEXT: &str = include_str!("c4book.txt");

/// What the book knows of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Pons-convention score (see [`super::connect4::Solution::score`]).
    pub score: i8,
    /// An optimal column, 0-based, in the position's own orientation.
    pub best: u8,
}

/// One parsed line: the position and its entry.
#[derive(Clone, Debug)]
pub struct Line {
    pub moves: String,
    pub game: Connect4,
    pub entry: Entry,
}

/// A line of the book's text that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("c4book.txt line {line}: {why}: '{text}'")]
pub struct BookLineError {
    /// Counted from 1.
    pub line: usize,
    pub text: String,
    pub why: BookWhy,
}

/// What is wrong with a line of the book.
#[derive(Debug, thiserror::Error)]
pub enum BookWhy {
    #[error("expected '<moves> <score> <best>'")]
    Fields,
    #[error("{0}")]
    Moves(PositionError),
    #[error("bad score")]
    Score,
    #[error("bad column")]
    Column,
    #[error("the best column cannot be played")]
    Unplayable,
}

/// Parses the book's text.
pub fn parse(text: &str) -> Result<Vec<Line>, BookLineError> {
    let cfg = Config::default();
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let err = |why| BookLineError {
            line: i + 1,
            text: l.to_string(),
            why,
        };
        let mut it = l.split_whitespace();
        let (Some(moves), Some(score), Some(best), None) =
            (it.next(), it.next(), it.next(), it.next())
        else {
            return Err(err(BookWhy::Fields));
        };
        let moves = if moves == "-" { "" } else { moves };
        let game = Connect4::from_moves(moves, &cfg).map_err(|e| err(BookWhy::Moves(e)))?;
        let score: i8 = score.parse().map_err(|_| err(BookWhy::Score))?;
        let best: u8 = best.parse().map_err(|_| err(BookWhy::Column))?;
        if !(1..=7).contains(&best) || !game.can_play(best - 1) {
            return Err(err(BookWhy::Unplayable));
        }
        out.push(Line {
            moves: moves.to_string(),
            game,
            entry: Entry {
                score,
                best: best - 1,
            },
        });
    }
    Ok(out)
}

/// The key the book files a position under: Pons' `current + mask` of its mirror-canonical
/// orientation, and whether the position is that orientation's mirror image.
fn canonical(game: &Connect4) -> (u64, bool) {
    // Pons' bitboards: 7 bits a column (6 cells and the one above), so a column's part of the
    // key stays within its own bits and columns move independently.
    let key = game.current() + game.mask();
    let mut m = 0;
    for c in 0..7 {
        m |= ((key >> (c * 7)) & 0x7f) << ((6 - c) * 7);
    }
    if m < key { (m, true) } else { (key, false) }
}

fn table() -> &'static HashMap<u64, Entry> {
    static TABLE: OnceLock<HashMap<u64, Entry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // tests check that the embedded text parses in full; a broken line here would only
        // make the book smaller, never wrong.
        let lines = parse(TEXT).unwrap_or_else(|e| {
            log::error!("{e}; the Connect Four opening book is not used");
            Vec::new()
        });
        lines
            .into_iter()
            .map(|l| {
                let (key, mirrored) = canonical(&l.game);
                let best = if mirrored {
                    6 - l.entry.best
                } else {
                    l.entry.best
                };
                (key, Entry { best, ..l.entry })
            })
            .collect()
    })
}

/// The book's entry for `game` (7×6, running), in `game`'s orientation; `None` when the book
/// does not hold it.
pub fn lookup(game: &Connect4) -> Option<Entry> {
    if game.width() != 7 || game.height() != 6 || game.outcome().is_some() {
        return None;
    }
    let (key, mirrored) = canonical(game);
    table().get(&key).map(|e| Entry {
        best: if mirrored { 6 - e.best } else { e.best },
        ..*e
    })
}

/// The number of positions in the book.
pub fn len() -> usize {
    table().len()
}

/// Every column of `game` whose child the book holds, with the child's score for its own side
/// to move; `None` unless the book holds every legal child.
pub fn children(game: &Connect4) -> Option<Vec<(u8, i8)>> {
    let mut out = Vec::new();
    for col in 0..game.width() as u8 {
        if !game.can_play(col) {
            continue;
        }
        let child = game.apply(col);
        let score = match child.outcome() {
            // A finished child: the mover just won (from 7 stones on), a value the book does
            // not list, so the book knows no result for every child.
            Some(_) => return None,
            None => lookup(&child)?.score,
        };
        out.push((col, score));
    }
    Some(out)
}

/// The stone counts the book holds every position of, from its `# complete:` header line.
pub fn complete_stones(text: &str) -> Vec<u32> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# complete:"))
        .flat_map(|r| r.split_whitespace().filter_map(|w| w.parse().ok()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every running position reachable with exactly `n` stones, one per mirror pair.
    fn positions(n: u32) -> Vec<Connect4> {
        fn rec(g: Connect4, n: u32, seen: &mut HashSet<u64>, out: &mut Vec<Connect4>) {
            if g.outcome().is_some() {
                return;
            }
            if g.moves_played() == n {
                if seen.insert(canonical(&g).0) {
                    out.push(g);
                }
                return;
            }
            for c in 0..7 {
                if g.can_play(c) {
                    rec(g.apply(c), n, seen, out);
                }
            }
        }
        let mut out = Vec::new();
        rec(
            Connect4::start(&Config::default()),
            n,
            &mut HashSet::new(),
            &mut out,
        );
        out
    }

    #[test]
    fn the_embedded_book_parses_in_full_without_duplicates() {
        let lines = parse(TEXT).expect("c4book.txt parses");
        assert!(!lines.is_empty());
        let keys: HashSet<u64> = lines.iter().map(|l| canonical(&l.game).0).collect();
        assert_eq!(
            keys.len(),
            lines.len(),
            "a position (or its mirror) listed twice"
        );
        assert_eq!(len(), lines.len());
    }

    #[test]
    fn the_book_holds_every_position_of_its_complete_stone_counts() {
        let complete = complete_stones(TEXT);
        assert!(complete.contains(&4), "{complete:?}");
        let lines = parse(TEXT).unwrap();
        for n in complete {
            let all = positions(n);
            let missing: Vec<_> = all.iter().filter(|g| lookup(g).is_none()).collect();
            assert!(
                missing.is_empty(),
                "{} of {} positions with {n} stones missing",
                missing.len(),
                all.len()
            );
            let listed = lines.iter().filter(|l| l.game.moves_played() == n).count();
            assert_eq!(listed, all.len(), "{n} stones");
        }
    }

    /// Negamax on the book itself: where the book holds every child of a position, the
    /// position's score is the best of its children's, negated, and its best move reaches it
    /// (a position with a move that wins at once, from 7 stones on, has no such check).
    /// Mirrored lookups give mirrored moves.
    #[test]
    fn every_entry_agrees_with_its_children() {
        let mut checked = 0;
        for l in parse(TEXT).unwrap() {
            let e = lookup(&l.game).unwrap();
            assert_eq!(e, l.entry, "{}", l.moves);
            let Some(kids) = children(&l.game) else {
                continue;
            };
            let best = kids.iter().map(|&(_, v)| -i32::from(v)).max().unwrap();
            assert_eq!(i32::from(e.score), best, "{}", l.moves);
            let via = kids.iter().find(|&&(c, _)| c == e.best).unwrap().1;
            assert_eq!(
                -i32::from(via),
                best,
                "{}: best column {}",
                l.moves,
                e.best + 1
            );
            let mirror = Connect4::from_moves(
                &l.moves
                    .chars()
                    .map(|c| char::from(b'8' - (c as u8 - b'0')))
                    .collect::<String>(),
                &Config::default(),
            )
            .unwrap();
            let m = lookup(&mirror).unwrap();
            assert_eq!(m.score, e.score, "{}", l.moves);
            if canonical(&mirror) != canonical(&l.game) {
                assert_eq!(m.best, 6 - e.best, "{}", l.moves);
            }
            checked += 1;
        }
        assert!(checked > 0);
    }

    #[test]
    fn other_sizes_and_finished_games_are_not_looked_up() {
        let cfg = Config {
            rows: 7,
            columns: 7,
        };
        assert_eq!(lookup(&Connect4::start(&cfg)), None);
        assert_eq!(complete_stones("# complete: 4 5\n# x\n"), vec![4, 5]);
        let why = |text: &str| parse(text).map(|_| ()).unwrap_err().why;
        assert!(matches!(why("44 1 8\n"), BookWhy::Unplayable));
        assert!(matches!(why("44 x 4\n"), BookWhy::Score));
        assert!(matches!(why("4 4 4 4\n"), BookWhy::Fields));
        assert!(matches!(why("44 1 y\n"), BookWhy::Column));
        assert!(matches!(why("48 1 4\n"), BookWhy::Moves(_)));
        let e = parse("# a comment\n\n444444 0 4\n")
            .map(|_| ())
            .unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(
            e.to_string(),
            "c4book.txt line 3: the best column cannot be played: '444444 0 4'"
        );
    }
}
