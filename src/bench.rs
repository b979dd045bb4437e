//! The `bench` suite: fixed positions per game searched to fixed depths with the default
//! options. The total node count is the regression signature quoted in docs/commands.md; any
//! change to move generation, ordering, evaluation or search shows up in it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::core::game::{ConfigError, Game};
use crate::core::search::{Limits, SearchOptions, Searcher};
use crate::core::spec::{self, PositionError, StartSpec, Token};
use crate::games::{GameKind, GameVisitor, dispatch};

/// One bench position: the game, where it starts (`startpos`, a start name or
/// `fen <state>`), moves from it, and the search depth.
#[derive(Clone, Copy, Debug)]
pub struct BenchCase {
    pub game: GameKind,
    pub start: &'static str,
    pub moves: &'static str,
    pub depth: u32,
}

/// The suite: every game's `Profile::bench` positions, in the registry's order. Changing it
/// changes the signature: update docs/commands.md in the same commit.
pub fn suite() -> Vec<BenchCase> {
    struct Positions(GameKind);
    impl GameVisitor for Positions {
        type Output = Vec<BenchCase>;
        fn visit<G: Game>(self) -> Vec<BenchCase> {
            G::PROFILE
                .bench
                .iter()
                .map(|p| BenchCase {
                    game: self.0,
                    start: p.start,
                    moves: p.moves,
                    depth: p.depth,
                })
                .collect()
        }
    }
    GameKind::ALL
        .into_iter()
        .flat_map(|k| dispatch(k, Positions(k)))
        .collect()
}

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub case: BenchCase,
    pub bestmove: String,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
}

struct RunCase(BenchCase, usize);

/// Builds the position of a case for game `G`.
pub fn case_position<G: Game>(case: &BenchCase) -> Result<G, BenchError> {
    let cfg = spec::default_config::<G>().map_err(BenchError::Config)?;
    let start = if case.start == "startpos" {
        StartSpec::StartPos
    } else if let Some(f) = case.start.strip_prefix("fen ") {
        StartSpec::Fen(f.to_string())
    } else {
        StartSpec::Named(case.start.to_string())
    };
    spec::position(&cfg, &start, &Token::words(&[case.moves])).map_err(|error| {
        BenchError::Position {
            game: G::NAME,
            start: case.start,
            error,
        }
    })
}

/// Why a case of the suite cannot be searched (a suite that does not fit its games' rules).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BenchError {
    #[error("{0}")]
    Config(ConfigError),
    #[error("bench {game} '{start}': {error}")]
    Position {
        game: &'static str,
        start: &'static str,
        error: PositionError,
    },
}

impl From<BenchError> for String {
    fn from(e: BenchError) -> String {
        e.to_string()
    }
}

impl GameVisitor for RunCase {
    type Output = Result<BenchLine, BenchError>;
    fn visit<G: Game>(self) -> Self::Output {
        let RunCase(case, hash) = self;
        let s: G = case_position(&case)?;
        let mut searcher = Searcher::<G>::new(hash);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(case.depth),
            ..Limits::default()
        };
        // As an engine at `isready`: what the evaluation builds once is not timed.
        s.prepare_eval(&G::DEFAULT_WEIGHTS);
        let r = searcher.search(&s, SearchOptions::default(), limits, &stop, |_| {});
        Ok(BenchLine {
            case,
            bestmove: r
                .best_move
                .map_or("(none)".to_string(), |m| s.format_move(m)),
            score: r.score,
            nodes: r.nodes,
            elapsed: r.elapsed,
        })
    }
}

/// Runs the suite (optionally one game only) with a table of `hash_mib` MiB, calling `each` per
/// position. Returns (total nodes, total time).
pub fn run(
    game: Option<GameKind>,
    hash_mib: usize,
    mut each: impl FnMut(&BenchLine),
) -> Result<(u64, Duration), BenchError> {
    let start = Instant::now();
    let mut total = 0;
    let mut search_time = Duration::ZERO;
    for case in suite().iter().filter(|c| game.is_none_or(|g| g == c.game)) {
        let line = dispatch(case.game, RunCase(*case, hash_mib))?;
        total += line.nodes;
        search_time += line.elapsed;
        each(&line);
    }
    let _ = start;
    Ok((total, search_time))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mancala::Mancala;

    #[test]
    fn every_case_of_the_suite_is_a_position_and_a_bad_one_is_named() {
        for case in suite() {
            let r: Result<(), BenchError> = dispatch(case.game, Check(case));
            r.unwrap_or_else(|e| panic!("{e}"));
        }
        let bad = BenchCase {
            game: GameKind::Mancala,
            start: "startpos",
            moves: "4 9",
            depth: 1,
        };
        let e = case_position::<Mancala>(&bad).unwrap_err();
        assert!(
            matches!(
                &e,
                BenchError::Position {
                    game: "mancala",
                    start: "startpos",
                    error: PositionError::Move { index: 2, .. }
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("bench mancala 'startpos': move 2 '9'"),
            "{e}"
        );
    }

    struct Check(BenchCase);
    impl GameVisitor for Check {
        type Output = Result<(), BenchError>;
        fn visit<G: Game>(self) -> Self::Output {
            case_position::<G>(&self.0).map(|_| ())
        }
    }
}
