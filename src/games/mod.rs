//! The games, and their registry. Each game lives in its own module and knows nothing of search
//! or protocol; this module only lists them ([`registry!`]) and dispatches a generic piece of
//! work to the right monomorphised `Game`.

pub mod boom;
pub mod connect4;
pub mod enraya;
pub mod mancala;
pub mod names;
pub mod parchis;

pub use names::lookup;

use crate::core::game::Game;

/// The registry: every game tablero plays, one line each (`Variant => type`), in the order
/// `uci` lists them. A new game is its folder plus one line here; every dispatch over the games
/// ([`dispatch`], the pictures' `view::render::dispatch`) is generated from this list by
/// `registry!(some_macro)`, so a game that lacks a layer's trait fails to compile, naming it.
/// (OpenSpiel's `REGISTER_SPIEL_GAME` is the model; a macro rather than run-time registration
/// because every use is monomorphised.)
macro_rules! registry {
    ($then:ident) => {
        $then! {
            Parchis => $crate::games::parchis::Parchis,
            Connect4Boom => $crate::games::boom::Boom,
            Connect4 => $crate::games::connect4::Connect4,
            Mancala => $crate::games::mancala::Mancala,
            Enraya => $crate::games::enraya::Enraya,
        }
    };
}
pub(crate) use registry;

/// Defines [`GameKind`] and [`dispatch`] from the registry's lines.
macro_rules! kinds {
    ($($variant:ident => $game:ty,)*) => {
        /// The games tablero plays, by their `UCI_Variant` names (the registry's order).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($variant,)*
        }

        impl GameKind {
            /// Every game, in the order `uci` lists them.
            pub const ALL: [GameKind; [$(stringify!($variant),)*].len()] = [$(GameKind::$variant,)*];

            /// The `UCI_Variant` / `--game` name (`Game::NAME`).
            pub fn name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <$game as Game>::NAME,)*
                }
            }

            /// The game's name for people (`Game::TITLE`).
            pub fn title(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <$game as Game>::TITLE,)*
                }
            }

            /// Other names people type for the game (`Game::ALIASES`).
            pub fn aliases(self) -> &'static [&'static str] {
                match self {
                    $(GameKind::$variant => <$game as Game>::ALIASES,)*
                }
            }
        }

        /// Runs `v` with the `Game` type of `kind`.
        pub fn dispatch<V: GameVisitor>(kind: GameKind, v: V) -> V::Output {
            match kind {
                $(GameKind::$variant => v.visit::<$game>(),)*
            }
        }
    };
}
registry!(kinds);

impl GameKind {
    /// Parses a game name (case-insensitive).
    pub fn from_name(name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<_> = GameKind::ALL.iter().map(|k| k.name()).collect();
                UnknownGame {
                    name: crate::core::spec::clip(name),
                    hint: String::new(),
                    known: names.join(", "),
                }
            })
    }
}

/// A name that names no game: the name (clipped), a suggestion (`; did you mean …?`, or
/// empty) and the names known, as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{name}'{hint} (known: {known})")]
pub struct UnknownGame {
    pub name: String,
    pub hint: String,
    pub known: String,
}

impl From<UnknownGame> for String {
    fn from(e: UnknownGame) -> String {
        e.to_string()
    }
}

/// A piece of work generic over the game, run by [`dispatch`] with the right type.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game's `Config::default()` is its options' defaults (the pages start from it).
    #[test]
    fn default_config_is_the_options_defaults() {
        struct Check;
        impl GameVisitor for Check {
            type Output = ();
            fn visit<G: Game>(self) {
                let defaults: Vec<i64> = G::OPTIONS.iter().map(|o| o.default).collect();
                assert_eq!(
                    G::configure(&defaults).ok(),
                    Some(G::Config::default()),
                    "{}",
                    G::NAME
                );
            }
        }
        for k in GameKind::ALL {
            dispatch(k, Check);
        }
    }
}
