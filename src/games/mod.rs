//! The games. Each lives in its own module and knows nothing of search or protocol; this module
//! only names them and dispatches a generic piece of work to the right monomorphised `Game`.

pub mod boom;
pub mod connect4;
pub mod mancala;
pub mod names;
pub mod parchis;

pub use names::lookup;

use crate::core::game::Game;

/// The games tablero plays, by their `UCI_Variant` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Parchis,
    Connect4Boom,
    Connect4,
    Mancala,
}

impl GameKind {
    /// Every game, in the order `uci` lists them.
    pub const ALL: [GameKind; 4] = [
        GameKind::Parchis,
        GameKind::Connect4Boom,
        GameKind::Connect4,
        GameKind::Mancala,
    ];

    /// The `UCI_Variant` / `--game` name.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Parchis => "parchis",
            GameKind::Connect4Boom => "connect4boom",
            GameKind::Connect4 => "connect4",
            GameKind::Mancala => "mancala",
        }
    }

    /// Parses a game name (case-insensitive).
    pub fn from_name(name: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<_> = GameKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown game '{}' (known: {})",
                    crate::core::spec::clip(name),
                    names.join(", ")
                )
            })
    }
}

/// A piece of work generic over the game, run by [`dispatch`] with the right type.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// Runs `v` with the `Game` type of `kind`. (`Result` so that a build may leave a game out.)
pub fn dispatch<V: GameVisitor>(kind: GameKind, v: V) -> Result<V::Output, String> {
    Ok(match kind {
        GameKind::Parchis => v.visit::<parchis::Parchis>(),
        GameKind::Connect4Boom => v.visit::<boom::Boom>(),
        GameKind::Connect4 => v.visit::<connect4::Connect4>(),
        GameKind::Mancala => v.visit::<mancala::Mancala>(),
    })
}
