//! The `bench` suite: fixed positions per game searched to fixed depths with the default
//! options. The total node count is the regression signature quoted in docs/commands.md; any
//! change to move generation, ordering, evaluation or search shows up in it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::core::game::Game;
use crate::core::search::{Limits, SearchOptions, Searcher};
use crate::core::spec::{self, StartSpec, Token};
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
pub fn case_position<G: Game>(case: &BenchCase) -> Result<G, String> {
    let cfg = spec::default_config::<G>()?;
    let start = if case.start == "startpos" {
        StartSpec::StartPos
    } else if let Some(f) = case.start.strip_prefix("fen ") {
        StartSpec::Fen(f.to_string())
    } else {
        StartSpec::Named(case.start.to_string())
    };
    let s =
        spec::position(&cfg, &start, &Token::words(&[case.moves])).map_err(|e| e.to_string())?;
    Ok(s)
}

impl GameVisitor for RunCase {
    type Output = Result<BenchLine, String>;
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
) -> Result<(u64, Duration), String> {
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
