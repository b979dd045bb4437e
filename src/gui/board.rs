//! The authoritative game of the page: a start position plus the moves played, kept with the
//! Rust rules (`Game::parse_move`/`apply`). Generic over [`Draw`] + [`Game`] behind the
//! object-safe [`Board`], so the session and the HTTP layer name no game; the page only ever
//! receives what this module computes (scene, marks, legal moves with their click targets).

use serde::Serialize;
use serde_json::{Value, json};

use crate::core::game::{ConfigError, FenError, MoveError, Outcome};
use crate::core::spec::{self, OptionError};
use crate::games::GameKind;
use crate::view::render::{DrawVisitor, dispatch};
use crate::view::{Draw, MoveTarget};

/// Why the board refuses a position ([`Board::set`]) or a move ([`Board::play`]); the page
/// shows the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A position file's text the game refuses.
    #[error("invalid board file: {0}")]
    File(FenError),
    /// A position file whose variant options are out of the game's ranges.
    #[error("invalid board file: {0}")]
    FileOptions(ConfigError),
    /// A position file of another variant than the page's (each as `Name=value …`).
    #[error("the board file is for {file}, but the board page plays {page}")]
    OtherVariant { file: String, page: String },
    #[error("invalid state string: {0}")]
    Fen(FenError),
    /// Text that reads as neither a move list nor a state string.
    #[error("neither a move list ({moves}) nor a state string ({fen})")]
    Neither {
        moves: Box<BoardError>,
        fen: FenError,
    },
    /// Move number `index` (1-based) of a move list.
    #[error("move {index} '{}': {error}", clip(text))]
    ListMove {
        index: usize,
        text: String,
        error: MoveError,
    },
    /// A move the rules refuse here.
    #[error("{0}")]
    Move(MoveError),
    #[error("the game is over")]
    Over,
}

// The HTTP layer answers errors as text; this lets `?` bring a board's refusal into it.
impl From<BoardError> for String {
    fn from(e: BoardError) -> String {
        e.to_string()
    }
}

/// One game being played or watched, whatever the game.
pub trait Board: Send {
    fn kind(&self) -> GameKind;
    /// [`Draw::MIRROR`]: the page mirrors the board instead of turning it.
    fn mirror(&self) -> bool;
    /// Heuristic names of the game (index 0 is the default).
    fn heuristics(&self) -> &'static [&'static str];
    /// The game's variant options the page offers (named values: Parchís' `Year`), each with
    /// its value in this game and every value it may take.
    fn variant(&self) -> Vec<Variant>;
    /// The variant options of this game that differ from their defaults, as `setoption` names
    /// and values for the engines (`Year`, `2021-22`): every engine plays the page's rules.
    fn variant_settings(&self) -> Vec<(String, String)>;
    /// Sets the position: empty or `startpos`, a named start, `fen <state> [moves …]`,
    /// `[startpos] [moves] m1 m2 …`, a bare state string or, for a game whose simulator has
    /// them, a position file's text (more than one line: [`Game::parse_position_file`]) of the
    /// page's variant. On error nothing changes.
    ///
    /// [`Game::parse_position_file`]: crate::core::game::Game::parse_position_file
    fn set(&mut self, text: &str) -> Result<(), BoardError>;
    /// Does the game's simulator have position files (the page offers to open one)?
    fn position_files(&self) -> bool;
    /// Plays a move given as text (validated); returns its canonical notation.
    fn play(&mut self, text: &str) -> Result<String, BoardError>;
    /// Takes back the last move; `false` at the start position.
    fn undo(&mut self) -> bool;
    /// Moves since the start position (the ones given by [`Board::set`] included).
    fn plies(&self) -> usize;
    /// How many of the moves were given by [`Board::set`] (the record's opening).
    fn opening_len(&self) -> usize;
    /// 0 when the first player is to move, else 1.
    fn side(&self) -> usize;
    fn outcome(&self) -> Option<Outcome>;
    /// `startpos` or `fen <state>`: where the move list starts.
    fn base(&self) -> &str;
    /// Every move from the base, in protocol notation.
    fn moves(&self) -> &[String];
    /// The state string of the current position.
    fn fen(&self) -> String;
    /// Where `mv` (text, legal here) is offered on the board, `None` if it is not legal.
    fn target_of(&self, mv: &str) -> Option<MoveTarget>;
    /// The picture and the legal moves: `marks`, `legal` (`[{m, g, c}]`) and, when
    /// `with_board`, the static `board` scene.
    fn view(&self, with_board: bool) -> Value;
    /// The picture of the position after `ply` moves (a game review's browsing): its marks,
    /// with `better` — a move of the position before it, in notation — drawn as the better move
    /// (`view::Draw::suggestion`); no legal moves (nothing can be played there).
    fn view_at(&self, ply: usize, better: Option<&str>, with_board: bool) -> Value;
    /// Declares the first `n` moves the opening (a loaded record's).
    fn set_opening_len(&mut self, n: usize);
    /// The side (0, 1) that made each move.
    fn sides(&self) -> Vec<usize>;
}

/// A variant option as the page shows it: a select named `name` with `values`, `value` chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variant {
    pub name: &'static str,
    pub value: String,
    pub values: Vec<&'static str>,
}

/// Why a game cannot start with the variant options asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// An option the game does not have, or a value it does not name.
    #[error("{0}")]
    Option(OptionError),
    /// Values the rules refuse together.
    #[error("{0}")]
    Rules(#[from] ConfigError),
    /// A spin option (board sizes): the page plays every game at its default size.
    #[error("the board page plays {game} with {name} at its default")]
    NotOffered { game: &'static str, name: String },
}

/// A legal move as the page sees it.
#[derive(Serialize)]
struct Legal {
    /// Move text, sent back as is when the user picks it.
    m: String,
    /// Click target (`data-g` of a board item).
    g: String,
    /// Choice label when several moves share the target.
    c: String,
}

struct Track<G: Draw> {
    config: G::Config,
    /// The variant option values of `config`, in `G::OPTIONS` order.
    values: Vec<i64>,
    base: String,
    base_state: G,
    /// `states[i]` is the position before `moves[i]`; the last entry is the current position.
    states: Vec<G>,
    moves: Vec<G::Move>,
    texts: Vec<String>,
    opening_len: usize,
}

impl<G: Draw> Track<G> {
    fn new() -> Self {
        // The default config is the options' defaults (core::spec checks it for every game).
        let config = G::Config::default();
        let s = G::start(&config);
        Track {
            config,
            values: G::OPTIONS.iter().map(|o| o.default).collect(),
            base: "startpos".into(),
            base_state: s,
            states: vec![s],
            moves: vec![],
            texts: vec![],
            opening_len: 0,
        }
    }

    /// A game under the variant option `values` (`G::OPTIONS` order).
    fn with_values(values: Vec<i64>) -> Result<Self, ConfigError> {
        let config = G::configure(&values)?;
        let s = G::start(&config);
        Ok(Track {
            config,
            values,
            base: "startpos".into(),
            base_state: s,
            states: vec![s],
            moves: vec![],
            texts: vec![],
            opening_len: 0,
        })
    }

    fn current(&self) -> &G {
        self.states.last().unwrap_or(&self.base_state)
    }

    /// Replays `list` from `state`: the states, moves and canonical texts.
    #[allow(clippy::type_complexity)]
    fn replay(state: G, list: &str) -> Result<(Vec<G>, Vec<G::Move>, Vec<String>), BoardError> {
        let mut states = vec![state];
        let (mut moves, mut texts) = (vec![], vec![]);
        for (i, t) in list.split_whitespace().enumerate() {
            let s = states[states.len() - 1];
            let at = |error| BoardError::ListMove {
                index: i + 1,
                text: t.to_string(),
                error,
            };
            if s.outcome().is_some() {
                return Err(at(MoveError::Over("the game is already over".into())));
            }
            let m = s.parse_move(t).map_err(at)?;
            texts.push(s.format_move(m));
            moves.push(m);
            states.push(s.apply(m));
        }
        Ok((states, moves, texts))
    }

    fn legal(&self) -> Vec<G::Move> {
        let mut ms = G::Moves::default();
        self.current().legal_moves(&mut ms);
        ms.as_ref().to_vec()
    }
}

fn clip(s: &str) -> String {
    crate::core::spec::clip(s).to_string()
}

impl<G: Draw> Board for Track<G> {
    fn kind(&self) -> GameKind {
        GameKind::from_name(G::NAME).unwrap_or(GameKind::Connect4)
    }

    fn mirror(&self) -> bool {
        G::MIRROR
    }

    fn heuristics(&self) -> &'static [&'static str] {
        G::HEURISTICS
    }

    fn variant(&self) -> Vec<Variant> {
        G::OPTIONS
            .iter()
            .zip(&self.values)
            .filter(|(o, _)| o.is_combo())
            .map(|(o, &v)| Variant {
                name: o.name,
                value: o.format_value(v),
                values: o.names.iter().map(|&(n, _)| n).collect(),
            })
            .collect()
    }

    fn variant_settings(&self) -> Vec<(String, String)> {
        G::OPTIONS
            .iter()
            .zip(&self.values)
            .filter(|(o, v)| **v != o.default)
            .map(|(o, &v)| (o.name.to_string(), o.format_value(v)))
            .collect()
    }

    fn set(&mut self, text: &str) -> Result<(), BoardError> {
        let text = text.trim();
        let (base, state, list) = if text.is_empty() || text == "startpos" {
            ("startpos".to_string(), G::start(&self.config), "")
        } else if let Some(s) = G::named_start(text, &self.config) {
            (text.to_string(), s, "")
        } else if text.contains('\n')
            && let Some(file) = G::parse_position_file(text)
        {
            // A board file: no state string or move list spans lines.
            let (values, s) = file.map_err(BoardError::File)?;
            let config = G::configure(&values).map_err(BoardError::FileOptions)?;
            if config != self.config {
                let settings = |vs: &[i64]| {
                    G::OPTIONS
                        .iter()
                        .zip(vs)
                        .map(|(o, v)| format!("{}={v}", o.name))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let defaults: Vec<i64> = G::OPTIONS.iter().map(|o| o.default).collect();
                return Err(BoardError::OtherVariant {
                    file: settings(&values),
                    page: settings(&defaults),
                });
            }
            (format!("fen {}", s.format_fen()), s, "")
        } else if let Some(f) = text.strip_prefix("fen ") {
            let (fen, rest) = match f.find(" moves") {
                Some(i) => (f[..i].trim(), &f[i + 6..]),
                None => (f.trim(), ""),
            };
            let s = G::parse_fen(fen, &self.config).map_err(BoardError::Fen)?;
            (format!("fen {}", s.format_fen()), s, rest)
        } else {
            let rest = text.strip_prefix("startpos").unwrap_or(text).trim_start();
            let rest = rest.strip_prefix("moves").unwrap_or(rest);
            match Self::replay(G::start(&self.config), rest) {
                Ok(_) => ("startpos".to_string(), G::start(&self.config), rest),
                Err(move_err) => match G::parse_fen(text, &self.config) {
                    Ok(s) => (format!("fen {}", s.format_fen()), s, ""),
                    Err(fen) => {
                        return Err(BoardError::Neither {
                            moves: Box::new(move_err),
                            fen,
                        });
                    }
                },
            }
        };
        let (states, moves, texts) = Self::replay(state, list)?;
        self.opening_len = moves.len();
        self.base = base;
        self.base_state = state;
        self.states = states;
        self.moves = moves;
        self.texts = texts;
        Ok(())
    }

    fn position_files(&self) -> bool {
        G::parse_position_file("").is_some()
    }

    fn play(&mut self, text: &str) -> Result<String, BoardError> {
        let s = *self.current();
        if s.outcome().is_some() {
            return Err(BoardError::Over);
        }
        let m = s.parse_move(text.trim()).map_err(BoardError::Move)?;
        let t = s.format_move(m);
        self.states.push(s.apply(m));
        self.moves.push(m);
        self.texts.push(t.clone());
        Ok(t)
    }

    fn undo(&mut self) -> bool {
        if self.moves.is_empty() {
            return false;
        }
        self.moves.pop();
        self.texts.pop();
        self.states.pop();
        self.opening_len = self.opening_len.min(self.moves.len());
        true
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    fn opening_len(&self) -> usize {
        self.opening_len
    }

    fn side(&self) -> usize {
        self.current().side_to_move().index()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.current().outcome()
    }

    fn base(&self) -> &str {
        &self.base
    }

    fn moves(&self) -> &[String] {
        &self.texts
    }

    fn fen(&self) -> String {
        self.current().format_fen()
    }

    fn target_of(&self, mv: &str) -> Option<MoveTarget> {
        let s = self.current();
        if s.outcome().is_some() {
            return None;
        }
        s.parse_move(mv).ok().map(|m| s.move_target(m))
    }

    fn view(&self, with_board: bool) -> Value {
        let s = self.current();
        let n = self.moves.len();
        let last = (n > 0).then(|| (&self.states[n - 1], self.moves[n - 1]));
        let marks = s.marks(last);
        let legal: Vec<Legal> = self
            .legal()
            .into_iter()
            .map(|m| {
                let MoveTarget { target, choice } = s.move_target(m);
                Legal {
                    m: s.format_move(m),
                    g: target,
                    c: choice,
                }
            })
            .collect();
        let mut v = json!({ "marks": marks, "legal": legal });
        if with_board {
            v["board"] = serde_json::to_value(s.board()).unwrap_or(Value::Null);
        }
        v
    }

    fn view_at(&self, ply: usize, better: Option<&str>, with_board: bool) -> Value {
        let ply = ply.min(self.moves.len());
        let s = &self.states[ply];
        let mut marks = match ply {
            0 => s.marks(None),
            k => s.marks(Some((&self.states[k - 1], self.moves[k - 1]))),
        };
        if ply > 0
            && let Some(b) = better
        {
            let before = &self.states[ply - 1];
            if let Ok(m) = before.parse_move(b)
                && m != self.moves[ply - 1]
            {
                marks.extend(before.suggestion(m));
            }
        }
        let mut v = json!({ "marks": marks, "legal": [] });
        if with_board {
            v["board"] = serde_json::to_value(s.board()).unwrap_or(Value::Null);
        }
        v
    }

    fn set_opening_len(&mut self, n: usize) {
        self.opening_len = n.min(self.moves.len());
    }

    fn sides(&self) -> Vec<usize> {
        self.states[..self.moves.len()]
            .iter()
            .map(|s| s.side_to_move().index())
            .collect()
    }
}

/// The result text of an outcome: `1-0`, `0-1` or `1/2-1/2`.
pub fn result_text(o: Option<Outcome>) -> &'static str {
    o.map_or("*", Outcome::result_text)
}

struct Make<'a>(&'a [(String, String)]);

impl DrawVisitor for Make<'_> {
    type Output = Result<Box<dyn Board>, VariantError>;
    fn visit<G: Draw>(self) -> Self::Output {
        let set = spec::variant_values::<G>(self.0, true).map_err(VariantError::Option)?;
        // Only named values are offered: a board size other than the default would leave the
        // page's own assumptions (5-en-Raya's 9 × 9 board files) behind.
        if let Some(o) = G::OPTIONS
            .iter()
            .find(|o| !o.is_combo() && set.contains_key(&o.name.to_ascii_lowercase()))
        {
            return Err(VariantError::NotOffered {
                game: G::NAME,
                name: o.name.to_string(),
            });
        }
        let values = spec::option_values::<G>(&set);
        Ok(Box::new(Track::<G>::with_values(values)?))
    }
}

/// A new game of `kind` at its start position with every variant option at its default,
/// through the view layer's dispatch (every game draws).
pub fn new_board(kind: GameKind) -> Box<dyn Board> {
    dispatch(kind, MakeDefault)
}

struct MakeDefault;

impl DrawVisitor for MakeDefault {
    type Output = Box<dyn Board>;
    fn visit<G: Draw>(self) -> Self::Output {
        Box::new(Track::<G>::new())
    }
}

/// A new game of `kind` with the variant options `options` (`("Year", "2021-22")`; the others
/// at their defaults). Only named-value options are offered ([`VariantError::NotOffered`]).
pub fn new_board_with(
    kind: GameKind,
    options: &[(String, String)],
) -> Result<Box<dyn Board>, VariantError> {
    dispatch(kind, Make(options))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5-en-Raya board file sets its position as `fen <state>`; one of another size is
    /// refused naming both, and nothing changes; a game without board files reads several lines
    /// as before (a move list).
    #[test]
    fn board_files_set_the_position() {
        let mut b = new_board(GameKind::Enraya);
        b.set("0,5 5,7").unwrap();
        let file = "9 9 5\n3 2 1 6\n0 0 0 0 1 1 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n\
                    0 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 0 0 2\n0 0 0 0 0 0 0 2 0\n0 0 0 0 0 0 0 0 0\n\
                    0 0 0 0 0 0 0 0 0\n0 0 0 0 2 0 0 0 0\n";
        let before = b.fen();
        b.set(file).unwrap();
        assert_eq!(b.fen(), before, "the file of the same position");
        assert_eq!(b.base(), format!("fen {before}"));
        assert!(b.moves().is_empty());
        assert!(b.position_files());
        let err = b.set("3 3 3\n0 1 2 0\n0 0 0\n0 1 0\n0 0 0\n").unwrap_err();
        assert!(matches!(err, BoardError::OtherVariant { .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            "the board file is for Rows=3 Columns=3 InARow=3, but the board page plays Rows=9 Columns=9 InARow=5"
        );
        let err = b.set("9 9 5\n2 1 1 4\n0 0 7\n").unwrap_err();
        assert!(
            matches!(err, BoardError::File(FenError::Syntax(_))),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(err.starts_with("invalid board file: line 3: '7'"), "{err}");
        assert_eq!(b.base(), format!("fen {before}"), "nothing changed");

        let mut c4 = new_board(GameKind::Connect4);
        assert!(!c4.position_files());
        c4.set("4 4\n3").unwrap();
        assert_eq!(c4.moves(), ["4", "4", "3"]);
    }

    /// Each refusal of a position or a move is its own kind, and leaves the board as it was.
    #[test]
    fn each_refusal_is_its_own_kind() {
        let mut b = new_board(GameKind::Connect4);
        b.set("4 4").unwrap();
        let fen = b.fen();
        let e = b.set("fen nonsense").unwrap_err();
        assert!(matches!(e, BoardError::Fen(_)), "{e:?}");
        assert!(e.to_string().starts_with("invalid state string: "), "{e}");
        let e = b.set("4 9").unwrap_err();
        match &e {
            BoardError::Neither { moves, .. } => assert!(
                matches!(**moves, BoardError::ListMove { index: 2, ref text, .. } if text == "9"),
                "{moves:?}"
            ),
            e => panic!("{e:?}"),
        }
        assert!(
            e.to_string()
                .starts_with("neither a move list (move 2 '9': "),
            "{e}"
        );
        let e = b.set(&format!("fen {fen} moves 3 9")).unwrap_err();
        assert!(
            matches!(&e, BoardError::ListMove { index: 2, text, .. } if text == "9"),
            "{e:?}"
        );
        b.set("1 2 1 2 1 2 1").unwrap();
        assert!(b.outcome().is_some());
        assert_eq!(b.play("3"), Err(BoardError::Over));
        let e = b.set("1 2 1 2 1 2 1 2").unwrap_err();
        assert!(
            e.to_string()
                .contains("move 8 '2': the game is already over"),
            "{e}"
        );
    }
}
