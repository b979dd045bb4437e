//! Position specifications: where a position starts (`startpos`, a state string, a named start)
//! and the moves played from there, plus the one function that turns them into a position with
//! the rules. These are shared value types below every user of them: the protocol's `position`
//! command, the solver, the built-in players, the referee's openings, the command line
//! (`--fen`/`--moves`) and the picture front ends all build positions through here.

use std::collections::BTreeMap;
use std::fmt;

use super::game::{ConfigError, FenError, Game, MoveError, ValueError, try_move};

/// Where a position starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSpec {
    /// `startpos`: the variant's start position.
    StartPos,
    /// `fen <state>`: a state string (tokens re-joined with single spaces).
    Fen(String),
    /// Another named start, e.g. Parchís' `playground`.
    Named(String),
}

/// A word of input with its 1-based column, for error messages (0 when it did not come from a
/// line, e.g. a command-line argument).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub column: usize,
}

impl Token {
    /// The words of `texts` (each split at whitespace) as tokens without columns.
    pub fn words<S: AsRef<str>>(texts: &[S]) -> Vec<Token> {
        texts
            .iter()
            .flat_map(|t| t.as_ref().split_whitespace())
            .map(|w| Token {
                text: w.to_string(),
                column: 0,
            })
            .collect()
    }
}

/// Shortens a word for an error message so a huge token cannot make a huge line.
pub fn clip(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        let head: String = s.chars().take(40).collect();
        format!("{head}…")
    }
}

/// `NAME=VALUE` (both trimmed, the name not empty), as option settings are written on command
/// lines and in records.
pub fn name_value(s: &str) -> Option<(String, String)> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Some((n.trim().to_string(), v.trim().to_string())),
        _ => None,
    }
}

/// Why a position specification does not give a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The state string does not parse (the game's message).
    Fen(FenError),
    /// No start of that name in this game.
    UnknownStart { name: String, game: &'static str },
    /// Move number `index` (1-based) is not legal where it is played.
    Move {
        index: usize,
        token: Token,
        error: MoveError,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "invalid state string: {e}"),
            PositionError::UnknownStart { name, game } => write!(
                f,
                "unknown start '{}' for {game} (use 'startpos' or 'fen <state>')",
                clip(name)
            ),
            PositionError::Move {
                index,
                token,
                error,
            } => {
                write!(f, "move {index} '{}'", clip(&token.text))?;
                if token.column > 0 {
                    write!(f, " (character {})", token.column)?;
                }
                write!(f, " is illegal: {error}")
            }
        }
    }
}

/// Why a position file gives no position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The game's simulator has no position files.
    #[error("{game} has no position files; use a state string ('fen')")]
    NoFiles { game: &'static str },
    /// The file's text is not such a file (the game's message).
    #[error("{0}")]
    Text(FenError),
    /// The variant option values the file sets are out of the game's ranges.
    #[error("{0}")]
    Options(ConfigError),
}

/// What a position file sets: the variant options (name, value) and the state string.
pub type FilePosition = (Vec<(&'static str, i64)>, String);

/// A position file of `G`'s course simulator ([`Game::parse_position_file`]): the variant
/// option settings it makes (name, value, in `OPTIONS` order) and its position as a state
/// string of that variant, so that every user of positions (a `position fen`, `--fen`) takes it
/// as it takes any position.
pub fn position_file<G: Game>(text: &str) -> Result<FilePosition, FileError> {
    let (values, state) = G::parse_position_file(text)
        .ok_or(FileError::NoFiles { game: G::NAME })?
        .map_err(FileError::Text)?;
    G::configure(&values).map_err(FileError::Options)?;
    let names = G::OPTIONS.iter().map(|o| o.name);
    Ok((names.zip(values).collect(), state.format_fen()))
}

/// The start position of a spec, before any move.
pub fn start_position<G: Game>(cfg: &G::Config, start: &StartSpec) -> Result<G, PositionError> {
    match start {
        StartSpec::StartPos => Ok(G::start(cfg)),
        StartSpec::Fen(f) => G::parse_fen(f, cfg).map_err(PositionError::Fen),
        StartSpec::Named(n) => G::named_start(n, cfg).ok_or_else(|| PositionError::UnknownStart {
            name: n.clone(),
            game: G::NAME,
        }),
    }
}

/// The position a spec describes: its start, then every move checked with the rules (the
/// fallible tier, so nothing untrusted is applied unchecked).
pub fn position<G: Game>(
    cfg: &G::Config,
    start: &StartSpec,
    moves: &[Token],
) -> Result<G, PositionError> {
    play_moves(start_position::<G>(cfg, start)?, moves)
}

/// `state` after `moves`, each checked with the rules.
pub fn play_moves<G: Game>(s: G, moves: &[Token]) -> Result<G, PositionError> {
    play_moves_marking_last(s, moves).map(|(s, _)| s)
}

/// [`play_moves`], also giving the last move played with the position it was played from (a
/// picture marks it).
#[allow(clippy::type_complexity)]
pub fn play_moves_marking_last<G: Game>(
    mut s: G,
    moves: &[Token],
) -> Result<(G, Option<(G, G::Move)>), PositionError> {
    let mut last = None;
    for (i, t) in moves.iter().enumerate() {
        let m = try_move(&s, &t.text).map_err(|error| PositionError::Move {
            index: i + 1,
            token: t.clone(),
            error,
        })?;
        last = Some((s, m));
        s = s.apply(m);
    }
    Ok((s, last))
}

/// The position of a state string (else the start position) and moves from there: what the
/// command line's `--fen`/`--moves` describe. The error says which of the two is wrong.
pub fn position_from<G: Game>(
    cfg: &G::Config,
    fen: Option<&str>,
    moves: &[Token],
) -> Result<G, PositionError> {
    let start = fen.map_or(StartSpec::StartPos, |f| StartSpec::Fen(f.to_string()));
    position::<G>(cfg, &start, moves)
}

/// `tokens` with every run of several digits split into one token per digit: Pons' Connect
/// Four move strings (`4455` = `4 4 5 5`), which the command line accepts for Connect Four.
pub fn split_digit_runs(tokens: Vec<Token>) -> Vec<Token> {
    tokens
        .into_iter()
        .flat_map(|t| {
            if t.text.len() > 1 && t.text.bytes().all(|b| b.is_ascii_digit()) {
                t.text
                    .chars()
                    .map(|c| Token {
                        text: c.to_string(),
                        column: t.column,
                    })
                    .collect()
            } else {
                vec![t]
            }
        })
        .collect()
}

/// Why variant option settings (`NAME=VALUE`) give no values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The value of one of the game's options is not an integer.
    NotInteger { name: String, value: String },
    /// The value of a combo option (`Year`) is none of its names.
    NotNamed {
        name: String,
        value: String,
        names: String,
    },
    /// No option of the game has that name (when unknown names are refused).
    Unknown {
        name: String,
        game: &'static str,
        known: Vec<&'static str>,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::NotInteger { name, value } => {
                write!(f, "{name}: '{}' is not an integer", clip(value))
            }
            OptionError::NotNamed { name, value, names } => {
                write!(f, "{name}: '{}' is not one of {names}", clip(value))
            }
            OptionError::Unknown { name, game, known } if known.is_empty() => {
                write!(f, "{}: {game} has no options", clip(name))
            }
            OptionError::Unknown { name, game, known } => {
                write!(f, "{}: {game} options are {}", clip(name), known.join(", "))
            }
        }
    }
}

/// The values (by lower-case name) of `G`'s variant options that `settings` set (names any
/// case). Names that are not `G`'s options are refused when `strict`, else skipped (they may be
/// another game's options, or an engine's).
pub fn variant_values<G: Game>(
    settings: &[(String, String)],
    strict: bool,
) -> Result<BTreeMap<String, i64>, OptionError> {
    let mut out = BTreeMap::new();
    for (name, value) in settings {
        let Some(o) = G::OPTIONS
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
        else {
            if strict {
                return Err(OptionError::Unknown {
                    name: name.clone(),
                    game: G::NAME,
                    known: G::OPTIONS.iter().map(|o| o.name).collect(),
                });
            }
            continue;
        };
        let v = o.parse_value(value).map_err(|e| match e {
            ValueError::Integer { .. } => OptionError::NotInteger {
                name: name.clone(),
                value: value.clone(),
            },
            ValueError::Name { names, .. } => OptionError::NotNamed {
                name: name.clone(),
                value: value.clone(),
                names,
            },
        })?;
        out.insert(o.name.to_ascii_lowercase(), v);
    }
    Ok(out)
}

/// The configuration of `G` with every variant option at its default.
pub fn default_config<G: Game>() -> Result<G::Config, ConfigError> {
    G::configure(&G::OPTIONS.iter().map(|o| o.default).collect::<Vec<_>>())
}

/// The values of `G`'s variant options: those set in `values` (by lower-case name; names of
/// other games' options are ignored), the others at their defaults, in `G::OPTIONS` order.
pub fn option_values<G: Game>(values: &BTreeMap<String, i64>) -> Vec<i64> {
    G::OPTIONS
        .iter()
        .map(|o| {
            values
                .get(&o.name.to_ascii_lowercase())
                .copied()
                .unwrap_or(o.default)
        })
        .collect()
}

/// The configuration of `G` under the variant option `values` (see [`option_values`]). A key
/// that is not lower-case (`"Year"`) is refused rather than ignored: no parser makes one, so it
/// is a caller's mistake that would otherwise configure the default silently.
pub fn configure<G: Game>(values: &BTreeMap<String, i64>) -> Result<G::Config, ConfigError> {
    if let Some(key) = values.keys().find(|k| **k != k.to_ascii_lowercase()) {
        return Err(ConfigError::KeyCase {
            key: key.clone(),
            lower: key.to_ascii_lowercase(),
        });
    }
    G::configure(&option_values::<G>(values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_shortens_long_words() {
        assert_eq!(clip("abc"), "abc");
        assert_eq!(clip(&"x".repeat(50)), format!("{}…", "x".repeat(40)));
    }

    #[test]
    fn words_split_every_argument() {
        let t = Token::words(&["4 4", " 3 "]);
        let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["4", "4", "3"]);
    }
}
