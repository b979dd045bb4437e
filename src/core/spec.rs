//! Position specifications: where a position starts (`startpos`, a state string, a named start)
//! and the moves played from there, plus the one function that turns them into a position with
//! the rules. These are shared value types below every user of them: the protocol's `position`
//! command, the solver, the built-in players, the referee's openings, the command line
//! (`--fen`/`--moves`) and the picture front ends all build positions through here.

use std::fmt;

use super::game::{Game, try_play};

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
    Fen(String),
    /// No start of that name in this game.
    UnknownStart { name: String, game: &'static str },
    /// Move number `index` (1-based) is not legal where it is played.
    Move {
        index: usize,
        token: Token,
        error: String,
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
                    write!(f, " (column {})", token.column)?;
                }
                write!(f, " is illegal: {error}")
            }
        }
    }
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
pub fn play_moves<G: Game>(mut s: G, moves: &[Token]) -> Result<G, PositionError> {
    for (i, t) in moves.iter().enumerate() {
        s = try_play(&s, &t.text).map_err(|error| PositionError::Move {
            index: i + 1,
            token: t.clone(),
            error,
        })?;
    }
    Ok(s)
}

/// The position of command-line arguments `--fen S` (else the start position) and `--moves M…`
/// (each argument may hold several space-separated moves), with the variant's default options.
/// Errors name the flag: `--fen: …`, `--moves: move 3 'x' is illegal: …`.
pub fn from_args<G: Game>(fen: Option<&str>, moves: &[String]) -> Result<G, String> {
    from_args_with::<G>(&default_config::<G>()?, fen, moves)
}

/// [`from_args`] with a given configuration.
pub fn from_args_with<G: Game>(
    cfg: &G::Config,
    fen: Option<&str>,
    moves: &[String],
) -> Result<G, String> {
    let start = fen.map_or(StartSpec::StartPos, |f| StartSpec::Fen(f.to_string()));
    let s = start_position::<G>(cfg, &start).map_err(|e| format!("--fen: {e}"))?;
    play_moves(s, &Token::words(moves)).map_err(|e| format!("--moves: {e}"))
}

/// The configuration of `G` with every variant option at its default.
pub fn default_config<G: Game>() -> Result<G::Config, String> {
    G::configure(&G::OPTIONS.iter().map(|o| o.default).collect::<Vec<_>>())
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
