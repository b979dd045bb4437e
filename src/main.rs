//! The `tablero` binary: parses the command line, starts logging on stderr and dispatches.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use tablero::cli::{Cli, Command};
use tablero::core::game::Game;
use tablero::core::perft::divide;
use tablero::core::spec;
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
        let s: G = spec::from_args(self.fen.as_deref(), &self.moves)?;
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

/// `learn`'s flags as the library's configuration.
fn learn_config(
    kind: GameKind,
    a: tablero::cli::LearnArgs,
) -> Result<tablero::learn::Config, String> {
    use tablero::learn::{LabelKind, Positions};
    let (lo, hi) = a
        .opening
        .split_once("..")
        .and_then(|(l, h)| Some((l.trim().parse().ok()?, h.trim().parse().ok()?)))
        .ok_or("--opening: expected MIN..MAX, e.g. 4..8")?;
    Ok(tablero::learn::Config {
        kind,
        seed: a.seed,
        games: a.games,
        depth: a.depth,
        opponents: a.opponent,
        opening: (lo, hi),
        rate: a.rate,
        labels: match a.labels.as_deref() {
            None => None,
            Some("exact") => Some(LabelKind::Exact),
            Some("result") => Some(LabelKind::Result),
            Some(x) => return Err(format!("--labels: '{x}' is not exact or result")),
        },
        positions: match a.positions.as_deref() {
            None => None,
            Some("leaves") => Some(Positions::Leaves),
            Some("roots") => Some(Positions::Roots),
            Some(x) => return Err(format!("--positions: '{x}' is not leaves or roots")),
        },
        weights: a.weight,
        fit: a.fit,
        iterations: a.iterations,
        threads: a.threads,
        data_out: a.out,
        data_in: a.data,
        above_db: a.above_db,
        db_seeds: a.db_seeds,
        db_dir: a.db_dir,
        c4_nodes: a.c4_nodes,
        max_plies: a.max_plies,
        unit: a.unit,
    })
}

fn run(cli: Cli) -> Result<(), String> {
    let kind = GameKind::from_name(&cli.game).map_err(|e| format!("--game: {e}"))?;
    match cli.command {
        None if cli.player.is_some() => {
            let p = tablero::players::Player::from_name(cli.player.as_deref().unwrap_or(""))
                .map_err(|e| format!("--player: {e}"))?;
            tablero::players::run(
                p,
                kind,
                std::io::BufReader::new(std::io::stdin()),
                Out::stdout(),
            );
            Ok(())
        }
        Some(Command::Match(args)) => {
            let cfg = tablero::referee::config_from_args(kind, &args)?;
            let summary = tablero::referee::run_match(&cfg)?;
            if args.json {
                println!("{}", tablero::referee::report_json(&cfg, &summary));
            } else {
                print!("{}", tablero::referee::report_text(&cfg, &summary));
            }
            Ok(())
        }
        Some(Command::Tune(args)) => tablero::tune::run(kind, &args),
        Some(Command::Learn(args)) => {
            print!("{}", tablero::learn::run(&learn_config(kind, *args)?)?);
            Ok(())
        }
        Some(Command::Play {
            vs,
            first: _,
            second,
        }) => {
            use std::io::IsTerminal;
            let cfg = tablero::referee::play::PlayConfig {
                kind,
                vs: tablero::players::Player::from_name(&vs).map_err(|e| format!("--vs: {e}"))?,
                human: if second {
                    tablero::core::game::Side::Second
                } else {
                    tablero::core::game::Side::First
                },
                color: std::io::stdout().is_terminal(),
            };
            tablero::referee::play::play(&cfg, std::io::stdin().lock(), std::io::stdout().lock())
        }
        Some(Command::Serve {
            listen,
            player,
            max_connections,
            max_hash,
            idle_timeout,
            max_sessions,
        }) => {
            tablero::protocol::limit_hash(max_hash);
            if max_connections == 0 {
                return Err("--max-connections: at least 1".into());
            }
            let limits = tablero::referee::serve::Limits {
                max_connections,
                idle: (idle_timeout > 0).then(|| std::time::Duration::from_secs(idle_timeout)),
            };
            let player = player
                .as_deref()
                .map(tablero::players::Player::from_name)
                .transpose()
                .map_err(|e| format!("--player: {e}"))?;
            let l = tablero::referee::serve::bind(&listen)?;
            let addr = l.local_addr().map_err(|e| e.to_string())?;
            // The bound address on stdout (port 0 picks one): scripts and tests read it.
            println!("listening {addr}");
            use std::io::Write;
            let _ = std::io::stdout().flush();
            tablero::referee::serve::serve(l, kind, player, max_sessions, limits);
            Ok(())
        }
        None => {
            protocol::run(
                kind,
                std::io::BufReader::new(std::io::stdin()),
                Out::stdout(),
            );
            Ok(())
        }
        Some(Command::Gui {
            max_connections: 0, ..
        }) => Err("--max-connections: at least 1".into()),
        Some(Command::Gui {
            listen,
            engine,
            allow_remote,
            max_connections,
        }) => tablero::gui::run(&tablero::gui::GuiOptions {
            listen,
            engines: engine,
            allow_remote,
            game: kind,
            max_connections,
        }),
        Some(Command::Report {
            records,
            html,
            json,
            anchor,
        }) => tablero::report::run_any(&records, html.as_deref(), json, anchor.as_deref()),
        Some(Command::Tournament(args)) => {
            let cfg = tablero::referee::tournament::config_from_args(kind, &args)?;
            if args.schedule {
                return tablero::referee::tournament::write_stdout(
                    &tablero::referee::tournament::schedule_text(&cfg),
                );
            }
            let played = tablero::referee::tournament::run_tournament(&cfg)?;
            tablero::referee::tournament::print_played(&played, &cfg, args.json)
        }
        Some(Command::Perft { depth, fen, moves }) => dispatch(kind, Perft { depth, fen, moves })?,
        Some(Command::Render {
            fen,
            moves,
            set,
            size,
            output,
        }) => {
            let svg = tablero::view::render::render(
                kind,
                &tablero::view::render::RenderArgs {
                    fen,
                    moves,
                    set,
                    size,
                },
            )?;
            match output {
                Some(path) => {
                    std::fs::write(&path, svg).map_err(|e| format!("-o {}: {e}", path.display()))
                }
                None => {
                    use std::io::Write;
                    let mut out = std::io::stdout().lock();
                    out.write_all(svg.as_bytes())
                        .and_then(|()| out.flush())
                        .map_err(|e| format!("stdout: {e}"))
                }
            }
        }
        Some(Command::Solve {
            fen,
            moves,
            batch,
            set,
            hash,
            threads,
            db_seeds,
            db_dir,
            keep_table,
        }) => tablero::solver::cli::run(&tablero::solver::cli::SolveArgs {
            game: cli.game.clone(),
            fen,
            moves,
            batch,
            set,
            hash_mib: hash,
            threads,
            db_seeds,
            db_dir,
            keep_table,
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
    // Usage errors are one line and exit code 2 (help and version still print normally).
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if e.use_stderr() => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("bad arguments");
            eprintln!("tablero: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tablero: error: {e}");
            ExitCode::from(2)
        }
    }
}
