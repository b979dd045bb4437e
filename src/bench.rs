//! The `bench` suite: fixed positions per game searched to fixed depths with the default
//! options. The total node count is the regression signature quoted in the README; any change
//! to move generation, ordering, evaluation or search shows up in it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::core::game::{Game, try_play};
use crate::core::search::{Limits, SearchOptions, Searcher};
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

/// The suite. Changing it changes the signature: update the README in the same commit.
pub const SUITE: &[BenchCase] = &[];

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
    let cfg = G::configure(&G::OPTIONS.iter().map(|o| o.default).collect::<Vec<_>>())?;
    let mut s = if case.start == "startpos" {
        G::start(&cfg)
    } else if let Some(f) = case.start.strip_prefix("fen ") {
        G::parse_fen(f, &cfg)?
    } else {
        G::named_start(case.start, &cfg).ok_or_else(|| format!("unknown start {}", case.start))?
    };
    for m in case.moves.split_whitespace() {
        s = try_play(&s, m)?;
    }
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
        let line = dispatch(case.game, RunCase(*case, hash_mib))??;
        total += line.nodes;
        search_time += line.elapsed;
        each(&line);
    }
    let _ = start;
    Ok((total, search_time))
}
