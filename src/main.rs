//! The `tablero` binary: parses the command line, starts logging on stderr and dispatches.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use tablero::cli::{Cli, Command};
use tablero::core::game::{Game, try_play};
use tablero::core::perft::divide;
use tablero::games::{GameKind, GameVisitor, dispatch};
use tablero::protocol::{self, Out};

struct Perft {
    depth: u32,
    fen: Option<String>,
    moves: Vec<String>,
}

impl GameVisitor for Perft {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Self::Output {
        let cfg = G::configure(&G::OPTIONS.iter().map(|o| o.default).collect::<Vec<_>>())?;
        let mut s = match &self.fen {
            Some(f) => G::parse_fen(f, &cfg).map_err(|e| format!("--fen: {e}"))?,
            None => G::start(&cfg),
        };
        let moves: Vec<&str> = self
            .moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .collect();
        for (i, m) in moves.iter().enumerate() {
            s = try_play(&s, m).map_err(|e| format!("--moves: move {} '{m}': {e}", i + 1))?;
        }
        let t = Instant::now();
        let mut total = 0u64;
        for (m, n) in divide(&s, self.depth) {
            println!("{m}: {n}");
            total += n;
        }
        if self.depth == 0 {
            total = 1;
        }
        println!("nodes {total}");
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "time {:.3} s, {:.1} M leaves/s",
            secs,
            total as f64 / secs.max(1e-9) / 1e6
        );
        Ok(())
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let kind = GameKind::from_name(&cli.game).map_err(|e| format!("--game: {e}"))?;
    match cli.command {
        None => {
            protocol::run(
                kind,
                std::io::BufReader::new(std::io::stdin()),
                Out::stdout(),
            );
            Ok(())
        }
        Some(Command::Perft { depth, fen, moves }) => dispatch(kind, Perft { depth, fen, moves })?,
        Some(Command::Solve {
            fen,
            moves,
            batch,
            set,
            hash,
            threads,
        }) => tablero::solver::cli::run(&tablero::solver::cli::SolveArgs {
            game: cli.game.clone(),
            fen,
            moves,
            batch,
            set,
            hash_mib: hash,
            threads,
        }),
        Some(Command::Bench { only, hash }) => {
            let game = only.as_deref().map(GameKind::from_name).transpose()?;
            let (total, time) = tablero::bench::run(game, hash, |l| {
                println!(
                    "{:<13} depth {:>2} bestmove {:<10} score {:>8} nodes {:>10} time {:>6} ms  {} {}",
                    l.case.game.name(),
                    l.case.depth,
                    l.bestmove,
                    l.score,
                    l.nodes,
                    l.elapsed.as_millis(),
                    l.case.start,
                    l.case.moves
                );
            })?;
            let secs = time.as_secs_f64();
            println!("total nodes {total}");
            println!("time {:.0} ms", secs * 1000.0);
            println!("nps {:.0}", total as f64 / secs.max(1e-9));
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tablero: error: {e}");
            ExitCode::from(2)
        }
    }
}
