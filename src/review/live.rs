//! Reviewing a game as it grows (the browser board's review): the same review as
//! `tablero analyse` with its default settings (tablero in-process, the default depth, the
//! solvers), of a game given as a start and its moves, with every query remembered — each
//! answer is a pure function of the position and the settings, so a game reviewed again after
//! one more move only searches the new positions, and the result equals a review from scratch.

use std::collections::HashMap;

use super::analyst::{Analyst, AnalystError, Found, InProcess, QueryLimits};
use super::annotation::GameReview;
use super::game::{GameError, ReplayError, Replayed, review, start_of};
use super::judge::calibration;
use super::run::{SOLVER_NODES, default_depth};
use super::value::Value;
use crate::core::game::{ConfigError, Game, MoveError, WeightOverrides};
use crate::core::spec::default_config;
use crate::games::{GameKind, GameVisitor, dispatch};

/// Answers of an analyst, remembered by position (its state string) and query.
struct Cached<G: Game, A: Analyst<G>> {
    inner: A,
    proofs: HashMap<String, Option<(Value, G::Move)>>,
    searches: HashMap<(String, Option<String>), Found<G::Move>>,
}

/// Entries kept before the memory is cleared (a few MB).
const CACHE_MAX: usize = 200_000;

impl<G: Game, A: Analyst<G>> Analyst<G> for Cached<G, A> {
    fn new_game(&mut self) -> Result<(), AnalystError> {
        self.inner.new_game()
    }

    fn prove(&mut self, s: &G) -> Option<(Value, G::Move)> {
        let key = s.format_fen();
        if let Some(p) = self.proofs.get(&key) {
            return *p;
        }
        if self.proofs.len() >= CACHE_MAX {
            self.proofs.clear();
        }
        let p = self.inner.prove(s);
        self.proofs.insert(key, p);
        p
    }

    fn search(
        &mut self,
        s: &G,
        position: &str,
        only: Option<G::Move>,
    ) -> Result<Found<G::Move>, AnalystError> {
        let key = (s.format_fen(), only.map(|m| s.format_move(m)));
        if let Some(f) = self.searches.get(&key) {
            return Ok(f.clone());
        }
        if self.searches.len() >= CACHE_MAX {
            self.searches.clear();
        }
        let f = self.inner.search(s, position, only)?;
        self.searches.insert(key, f.clone());
        Ok(f)
    }
}

/// A game's reviewer, whatever the game.
pub trait LiveReviewer: Send {
    /// Reviews the game from `base` (`startpos` or `fen …`) after `moves`, the first `opening`
    /// of which are not judged; `names` are the first and second player's.
    fn review(
        &mut self,
        base: &str,
        moves: &[String],
        opening: usize,
        names: [&str; 2],
    ) -> Result<GameReview, GameError>;
}

struct Live<G: Game> {
    config: G::Config,
    analyst: Cached<G, InProcess<G>>,
    kind: GameKind,
}

impl<G: Game> LiveReviewer for Live<G> {
    fn review(
        &mut self,
        base: &str,
        moves: &[String],
        opening: usize,
        names: [&str; 2],
    ) -> Result<GameReview, GameError> {
        let mut t = start_of::<G>(base, &self.config).map_err(GameError::Record)?;
        let mut before: Vec<G> = Vec::with_capacity(moves.len() + 1);
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = if t.outcome().is_some() {
                Err(MoveError::Over("the game is already over".into()))
            } else {
                t.parse_move(text)
            }
            .map_err(|why| {
                GameError::Record(ReplayError::Move {
                    ply: i + 1,
                    text: crate::core::spec::clip(text),
                    why,
                })
            })?;
            if i >= opening {
                before.push(t);
                played.push(m);
            }
            t = t.apply(m);
        }
        before.push(t);
        let g = Replayed {
            states: before,
            moves: played,
            opening: moves[..opening.min(moves.len())].to_vec(),
            base: base.to_string(),
        };
        let cal = calibration(self.kind, Some(default_depth(self.kind)));
        review(&g, &mut self.analyst, &cal, names)
    }
}

struct Make(GameKind);

impl GameVisitor for Make {
    type Output = Result<Box<dyn LiveReviewer>, ConfigError>;
    fn visit<G: Game>(self) -> Self::Output {
        let depth = default_depth(self.0);
        Ok(Box::new(Live::<G> {
            config: default_config::<G>()?,
            analyst: Cached {
                inner: InProcess::new(
                    0,
                    WeightOverrides::default(),
                    QueryLimits {
                        depth: Some(depth),
                        ..QueryLimits::default()
                    },
                    16,
                    SOLVER_NODES,
                    false,
                ),
                proofs: HashMap::new(),
                searches: HashMap::new(),
            },
            kind: self.0,
        }))
    }
}

/// The reviewer of `kind` (the default variant), with `tablero analyse`'s default settings.
pub fn reviewer(kind: GameKind) -> Result<Box<dyn LiveReviewer>, ConfigError> {
    dispatch(kind, Make(kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game reviewed after every move, its answers remembered, ends with the review a fresh
    /// reviewer makes of the whole game (Connect Four: solver proofs and searches both).
    #[test]
    fn reviewed_move_by_move_equals_reviewed_at_once() {
        let moves: Vec<String> = "4 4 4 4 3 5 6 2 3 3 2 7"
            .split(' ')
            .map(String::from)
            .collect();
        let mut live = reviewer(GameKind::Connect4).unwrap();
        let mut last = None;
        for k in 3..=moves.len() {
            last = Some(live.review("startpos", &moves[..k], 2, ["a", "b"]).unwrap());
        }
        let fresh = reviewer(GameKind::Connect4)
            .unwrap()
            .review("startpos", &moves, 2, ["a", "b"])
            .unwrap();
        assert_eq!(last.unwrap(), fresh);
        assert_eq!(fresh.plies.len(), moves.len() - 2);
        // A move the rules refuse: its ply and text.
        let mut bad = moves.clone();
        bad.push("9".into());
        let e = live.review("startpos", &bad, 2, ["a", "b"]).unwrap_err();
        assert!(
            matches!(e, GameError::Record(ReplayError::Move { ply: 13, .. })),
            "{e}"
        );
        assert!(e.to_string().starts_with("ply 13 (move '9')"), "{e}");
    }
}
