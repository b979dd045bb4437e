//! `tablero render`: the picture of one position (the start or a state string, then moves) as
//! SVG text, for any game that implements [`Draw`]. The last of the moves is highlighted. The
//! position is built through [`crate::core::spec`]; file output is the caller's; this module
//! only builds the text.

use crate::core::game::ConfigError;
use crate::core::spec::{self, OptionError, PositionError, Token};
use crate::games::GameKind;

use super::{Draw, picture, svg};

/// A piece of work generic over a drawable game, run by [`dispatch`] with the right type.
pub trait DrawVisitor {
    type Output;
    fn visit<G: Draw>(self) -> Self::Output;
}

/// Defines [`dispatch`] from the games' registry.
macro_rules! draw_dispatch {
    ($($variant:ident => $game:ty,)*) => {
        /// Runs `v` with the [`Draw`] type of `kind` (like [`crate::games::dispatch`], with the
        /// extra bound: every registered game draws).
        pub fn dispatch<V: DrawVisitor>(kind: GameKind, v: V) -> V::Output {
            match kind {
                $(GameKind::$variant => v.visit::<$game>(),)*
            }
        }
    };
}
crate::games::registry!(draw_dispatch);

/// Smallest and largest accepted `--size` (pixels of width).
pub const MIN_SIZE: u32 = 50;
pub const MAX_SIZE: u32 = 20_000;

/// What to draw.
#[derive(Clone, Debug, Default)]
pub struct Picture {
    /// Variant option settings (`Rows`, `Columns`, `Pits`, `Seeds`), names any case; a name the
    /// game does not have is an error.
    pub options: Vec<(String, String)>,
    /// The state string to start from (else the start position).
    pub fen: Option<String>,
    /// Moves played from there, in notation; the last one is marked.
    pub moves: Vec<Token>,
    /// Width of the SVG in pixels.
    pub size: u32,
}

/// Why a picture cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("size {0} is outside {MIN_SIZE}..={MAX_SIZE} pixels")]
    Size(u32),
    /// A variant option that is not the game's, or not an integer.
    #[error("{0}")]
    Option(OptionError),
    /// Option values the rules refuse.
    #[error("{0}")]
    Rules(#[from] ConfigError),
    #[error("{0}")]
    Position(PositionError),
}

struct Render<'a>(&'a Picture);

impl DrawVisitor for Render<'_> {
    type Output = Result<String, RenderError>;
    fn visit<G: Draw>(self) -> Self::Output {
        let a = self.0;
        if !(MIN_SIZE..=MAX_SIZE).contains(&a.size) {
            return Err(RenderError::Size(a.size));
        }
        let values = spec::variant_values::<G>(&a.options, true).map_err(RenderError::Option)?;
        let cfg = spec::configure::<G>(&values)?;
        let start =
            spec::position_from::<G>(&cfg, a.fen.as_deref(), &[]).map_err(RenderError::Position)?;
        let (s, last) =
            spec::play_moves_marking_last(start, &a.moves).map_err(RenderError::Position)?;
        let scene = picture(&s, last.as_ref().map(|(p, m)| (p, *m)));
        let title = format!("{} {}", G::NAME, s.format_fen());
        Ok(svg::document(&scene, a.size, &title))
    }
}

/// The SVG text of the position `pic` describes, for game `kind`.
pub fn render(kind: GameKind, pic: &Picture) -> Result<String, RenderError> {
    dispatch(kind, Render(pic))
}
