//! The `bench` suite: fixed positions per game searched to fixed depths with the default
//! options. The total node count is the regression signature quoted in docs/commands.md; any
//! change to move generation, ordering, evaluation or search shows up in it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::core::game::Game;
use crate::core::search::{Limits, SearchOptions, Searcher};
use crate::core::spec::{self, StartSpec, Token};
use crate::games::{GameKind, GameVisitor, dispatch};

/// One bench position: a start (`startpos`, a start name or `fen <state>`), moves from it, and
/// the search depth.
#[derive(Clone, Copy, Debug)]
pub struct BenchCase {
    pub game: GameKind,
    pub start: &'static str,
    pub moves: &'static str,
    pub depth: u32,
}

/// The suite. Changing it changes the signature: update docs/commands.md in the same commit.
pub const SUITE: &[BenchCase] = &[
    case(GameKind::Parchis, "startpos", "", 6),
    case(
        GameKind::Parchis,
        "startpos",
        "r1:6 y1:1 b1:1 y1:bullet b2:6 b2:bullet y1:2 b2:4 y2:4 b2:5 y1:5 g0:2 y1:6 y0:boo b2:6 \
         b2:4 g1:10 y1:1 b0:megamushroom r0:2 b1:1 y0:shock b0:2 y0:shock",
        6,
    ),
    case(
        GameKind::Parchis,
        "startpos",
        "r1:6 y1:1 g1:6 b1:1 y1:bullet g2:2 y1:boo b1:bullet y2:5 g2:4 y0:2 r2:20 y1:20 y2:10 \
         b0:5 y2:star b1:1 b2:20 b1:20 y2:4 b2:6 b2:5 y2:6 y2:5 b2:4 r2:1 b2:2 y2:banana b1:1 \
         b0:10 y2:banana b0:6 g1:5 r2:2 b2:2 b2:20 pass:4 b0:4 pass:6 y0:5 g0:6 b2:1 b0:10 y0:4 \
         b0:megamushroom y0:2 b0:4 y0:1 b0:shock y0:6 y0:2 b0:star y0:4 b0:5 y0:5 b0:2 y0:1 b0:6 \
         g1:5 y0:6",
        6,
    ),
    case(GameKind::Connect4Boom, "startpos", "", 8),
    case(
        GameKind::Connect4Boom,
        "startpos",
        "4 4 4 4 3 1 5 4 4 4 5 3 5 3",
        8,
    ),
    case(
        GameKind::Connect4Boom,
        "startpos",
        "4 4 4 4 3 1 5 4 4 4 5 3 5 3 1 3 1 3 5 5 6 5 6 7 boom 3",
        8,
    ),
    case(GameKind::Connect4, "startpos", "", 12),
    case(GameKind::Connect4, "startpos", "4 3 3 3 3 6 4 6 6 4", 12),
    case(GameKind::Mancala, "startpos", "", 12),
    case(GameKind::Mancala, "startpos", "1 5 6 4 1 2 4 1", 12),
    case(
        GameKind::Mancala,
        "startpos",
        "1 5 6 4 1 2 4 1 5 1 6 5 2 1 4 3 1 2 1 6",
        14,
    ),
];

const fn case(game: GameKind, start: &'static str, moves: &'static str, depth: u32) -> BenchCase {
    BenchCase {
        game,
        start,
        moves,
        depth,
    }
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
    for case in SUITE.iter().filter(|c| game.is_none_or(|g| g == c.game)) {
        let line = dispatch(case.game, RunCase(*case, hash_mib))?;
        total += line.nodes;
        search_time += line.elapsed;
        each(&line);
    }
    let _ = start;
    Ok((total, search_time))
}
