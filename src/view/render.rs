//! `tablero render`: the picture of one position (start or `--fen`, then `--moves`) as SVG text,
//! for any game that implements [`Draw`]. The last of the moves is highlighted. File output is
//! the caller's (the binary's); this module only builds the text.

use crate::core::game::Game;
use crate::games::{GameKind, connect4, mancala};

use super::{Draw, picture, svg};

/// A piece of work generic over a drawable game, run by [`dispatch`] with the right type.
pub trait DrawVisitor {
    type Output;
    fn visit<G: Draw>(self) -> Self::Output;
}

/// Runs `v` with the [`Draw`] type of `kind` (like [`crate::games::dispatch`], with the extra
/// bound). `Result` so that a build may leave a game out.
pub fn dispatch<V: DrawVisitor>(kind: GameKind, v: V) -> Result<V::Output, String> {
    Ok(match kind {
        GameKind::Parchis => v.visit::<crate::games::parchis::Parchis>(),
        GameKind::Connect4Boom => v.visit::<crate::games::boom::Boom>(),
        GameKind::Connect4 => v.visit::<connect4::Connect4>(),
        GameKind::Mancala => v.visit::<mancala::Mancala>(),
    })
}

/// Smallest and largest accepted `--size` (pixels of width).
pub const MIN_SIZE: u32 = 50;
pub const MAX_SIZE: u32 = 20_000;

/// What to draw.
#[derive(Clone, Debug, Default)]
pub struct RenderArgs {
    pub fen: Option<String>,
    /// Moves in protocol notation, space-separated or repeated; for Connect Four a token of
    /// several digits is a Pons move string (`4455`), as `solve` reads it.
    pub moves: Vec<String>,
    /// `NAME=VALUE` variant options (Rows, Columns, Pits, Seeds).
    pub set: Vec<String>,
    /// Width of the SVG in pixels.
    pub size: u32,
}

/// The variant option values of `G` with the `--set` overrides; unknown names are errors.
pub fn option_values<G: Game>(set: &[String]) -> Result<Vec<i64>, String> {
    let mut values: Vec<i64> = G::OPTIONS.iter().map(|o| o.default).collect();
    for s in set {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| format!("--set '{s}': expected NAME=VALUE"))?;
        let i = G::OPTIONS
            .iter()
            .position(|o| o.name.eq_ignore_ascii_case(k.trim()))
            .ok_or_else(|| {
                let names: Vec<_> = G::OPTIONS.iter().map(|o| o.name).collect();
                if names.is_empty() {
                    format!("--set {k}: {} has no options", G::NAME)
                } else {
                    format!("--set {k}: {} options are {}", G::NAME, names.join(", "))
                }
            })?;
        values[i] = v
            .trim()
            .parse()
            .map_err(|_| format!("--set {k}: '{v}' is not an integer"))?;
    }
    Ok(values)
}

/// The move `text` names, checked as `try_play` checks it (game over, then the game's parser).
fn play_checked<G: Game>(s: &G, text: &str) -> Result<G::Move, String> {
    if s.outcome().is_some() {
        return Err(format!("game is over, no move '{text}' possible"));
    }
    s.parse_move(text)
}

struct Render<'a>(&'a RenderArgs);

impl DrawVisitor for Render<'_> {
    type Output = Result<String, String>;
    fn visit<G: Draw>(self) -> Self::Output {
        let a = self.0;
        if !(MIN_SIZE..=MAX_SIZE).contains(&a.size) {
            return Err(format!(
                "--size {} is outside {MIN_SIZE}..={MAX_SIZE} pixels",
                a.size
            ));
        }
        let cfg = G::configure(&option_values::<G>(&a.set)?).map_err(|e| format!("--set: {e}"))?;
        let mut s = match &a.fen {
            Some(f) => G::parse_fen(f, &cfg).map_err(|e| format!("--fen: {e}"))?,
            None => G::start(&cfg),
        };
        let mut toks: Vec<String> = Vec::new();
        for t in a.moves.iter().flat_map(|m| m.split_whitespace()) {
            if G::NAME == "connect4" && t.len() > 1 && t.bytes().all(|b| b.is_ascii_digit()) {
                toks.extend(t.chars().map(|c| c.to_string()));
            } else {
                toks.push(t.to_string());
            }
        }
        let mut last: Option<(G, G::Move)> = None;
        for (i, t) in toks.iter().enumerate() {
            let m =
                play_checked(&s, t).map_err(|e| format!("--moves: move {} '{t}': {e}", i + 1))?;
            last = Some((s, m));
            s = s.apply(m);
        }
        let scene = picture(&s, last.as_ref().map(|(p, m)| (p, *m)));
        let title = format!("{} {}", G::NAME, s.format_fen());
        Ok(svg::document(&scene, a.size, &title))
    }
}

/// The SVG text of the position `args` describes, for game `kind`.
pub fn render(kind: GameKind, args: &RenderArgs) -> Result<String, String> {
    dispatch(kind, Render(args))?
}
