//! The dispatcher: one function per subcommand turns the parsed command line into a typed
//! configuration ([`super::args`]), runs the library and prints the result; every failure
//! becomes one line on stderr and exit code 2.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;

use crate::core::game::Game;
use crate::core::perft::divide;
use crate::core::spec;
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::protocol::{self, Out};

use super::args;
use super::cli::{Cli, Command};
use crate::referee::ratings::standings;
use crate::referee::{self, Notice, Played, output};
use crate::report::write_stdout;

/// The message of a referee error, naming the flag its value came from.
pub fn referee_message(e: &referee::Error) -> String {
    use referee::Error as E;
    match e {
        E::OptionValue { name, value } => format!("--option {name}: '{value}' is not an integer"),
        E::Rules(e) => format!("--option: {e}"),
        E::Option(e) => format!("--option {e}"),
        E::OpeningLine { line, error } => format!("--openings line {line}: {error}"),
        E::OpeningsFile { path, why } => format!("--openings {}: {why}", path.display()),
        E::EngineVariant { name, value, .. } => {
            format!("{e} (--option {name}={value}; nothing was played)")
        }
        E::EngineStart { engine, error } => format!(
            "engine '{engine}' cannot play: {error}; check its command line by running it and typing 'uci'"
        ),
        E::EngineRefused {
            what: referee::Refused::Settings,
            ..
        } => format!(
            "{e}; nothing was played (check the options given to it: --option, --option1/--option2, option.NAME=VALUE)"
        ),
        E::EngineRefused { .. } => {
            format!("{e}; stopped there (the games before it are in the records)")
        }
        E::Log { path, source } => format!("--log {}: {source}", path.display()),
        E::RecordsExist { path } => format!(
            "--records {}: the file exists; --resume {} continues it, --overwrite replaces it when the run ends, or choose another file",
            path.display(),
            path.display()
        ),
        E::RecordsOpen { path, source } => format!("--records {}: {source}", path.display()),
        E::RecordsWrite { path, source } => {
            format!("--records {}: cannot write: {source}", path.display())
        }
        E::RecordsSync { path, source } => {
            format!("--records {}: cannot sync: {source}", path.display())
        }
        E::Resume { path, problem } => format!("--resume {}: {problem}", path.display()),
        E::Records(why) => why.clone(),
        E::CutShort { .. } => e.to_string(),
        E::Anchor(name) => format!("--anchor: no engine named '{name}'"),
    }
}

/// The message of a `learn` error, naming the flag its value came from.
fn learn_message(e: &crate::learn::Error) -> String {
    use crate::learn::Error as E;
    match e {
        E::UnknownWeight { .. } | E::WeightRange { .. } => format!("--weight/--fit: {e}"),
        E::UnknownHeuristic { .. } => format!("--opponent: {e}"),
        E::NoExactLabels { .. } => format!("--labels: {e}"),
        E::DataFile { .. } | E::DataLine { .. } => format!("--data: {e}"),
        E::WriteData { .. } => format!("-o: {e}"),
        E::Database(_) => format!("--db-seeds/--db-dir: {e}"),
        _ => e.to_string(),
    }
}

/// Plays a match or tournament, telling the user on stderr what a resume found.
fn referee_run(cfg: &referee::Config, what: &str) -> Result<Played, String> {
    let mut notice = |n: Notice| match n {
        Notice::TornLineDropped { path, torn, next } => eprintln!(
            "tablero {what}: --resume {}: dropped its torn last line {} ({} bytes{}); {}",
            path.display(),
            torn.line,
            torn.bytes,
            if torn.newline { "" } else { ", no newline" },
            match next {
                Some(g) => format!("game {g} is played again"),
                None => "every game is recorded".to_string(),
            }
        ),
        Notice::EngineLost {
            game,
            engine,
            reason,
            detail,
        } => eprintln!(
            "tablero {what}: game {game}: {engine} lost by {}: {detail}",
            reason.name()
        ),
        Notice::Rewritten { path, games } => eprintln!(
            "tablero {what}: --resume {}: records of an older tablero rewritten in the current format ({games} games kept)",
            path.display()
        ),
        Notice::EngineOut { engine, line } => eprintln!(
            "tablero {what}: {engine} is out: it refused its settings: {line}; every game of it is lost"
        ),
        Notice::GameDone { done, total, line } => {
            eprintln!("tablero {what}: {done}/{total}: {line}")
        }
    };
    referee::run(cfg, &mut notice).map_err(|e| referee_message(&e))
}

struct Perft {
    depth: u32,
    fen: Option<String>,
    moves: Vec<String>,
    set: Vec<String>,
}

impl GameVisitor for Perft {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Self::Output {
        let settings = args::set_values(&self.set)?;
        let values =
            spec::variant_values::<G>(&settings, true).map_err(|e| args::option_error(&e))?;
        let cfg = spec::configure::<G>(&values).map_err(|e| format!("--set: {e}"))?;
        let moves = spec::Token::words(&self.moves);
        let s: G = spec::position_from(&cfg, self.fen.as_deref(), &moves)
            .map_err(|e| args::position_error(&e))?;
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

/// `--game` given before the command (`top`) or after it (`own`): they must agree.
fn game_given(top: &Option<String>, own: &Option<String>) -> Result<Option<GameKind>, String> {
    let parse = |s: &String| crate::games::lookup(s).map_err(|e| format!("--game: {e}"));
    match (top, own) {
        (Some(a), Some(b)) => {
            let (x, y) = (parse(a)?, parse(b)?);
            if x != y {
                return Err(format!(
                    "--game {a} before the command and --game {b} after it: give one"
                ));
            }
            Ok(Some(x))
        }
        (Some(a), None) | (None, Some(a)) => parse(a).map(Some),
        (None, None) => Ok(None),
    }
}

/// The game of a command that plays one and cannot tell which by itself: a default would be a
/// guess (a Parchís match of Mancala engines measures nothing), so it is asked for.
fn game_needed(cmd: &str, top: &Option<String>, own: &Option<String>) -> Result<GameKind, String> {
    game_given(top, own)?.ok_or_else(|| {
        format!(
            "{cmd}: which game? Give --game {}",
            GameKind::ALL.map(GameKind::name).join(", --game ")
        )
    })
}

/// A command that takes no `--game` (the game is in its input, or it plays every game).
fn no_game(top: &Option<String>, cmd: &str, why: &str) -> Result<(), String> {
    match top {
        Some(g) => Err(format!("--game {g}: `{cmd}` takes no --game ({why})")),
        None => Ok(()),
    }
}

/// A person who starts the protocol loop at a terminal is told what it is and how to get
/// help: one line on stderr, as engines do. In a pipe (a referee, a GUI, a script) nothing.
fn greet(kind: GameKind, player: Option<&str>) {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        eprintln!(
            "tablero {}: the engine, reading protocol commands{} in {} ('help' lists them, 'quit' \
             leaves); `tablero --help` lists the program's commands",
            env!("CARGO_PKG_VERSION"),
            player.map_or(String::new(), |p| format!(" as the built-in player {p}")),
            kind.name()
        );
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let top = &cli.game;
    // The protocol loop and the servers start in a game a client changes: Parchís by default.
    let start_game = |own: &Option<String>| -> Result<GameKind, String> {
        Ok(game_given(top, own)?.unwrap_or(GameKind::Parchis))
    };
    match cli.command {
        None if cli.player.is_some() => {
            let kind = start_game(&None)?;
            greet(kind, cli.player.as_deref());
            let p = crate::players::Player::from_name(cli.player.as_deref().unwrap_or(""))
                .map_err(|e| format!("--player: {e}"))?;
            crate::players::run(
                p,
                kind,
                std::io::BufReader::new(std::io::stdin()),
                Out::stdout(),
            );
            Ok(())
        }
        Some(Command::Match(a)) => {
            let kind = game_needed("match", top, &a.game.game)?;
            let cfg = args::match_config(kind, &a)?;
            let played = referee_run(&cfg, "match")?;
            let summary = played.summary.ok_or("a match without a summary")?;
            let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
            if a.json {
                println!(
                    "{}",
                    output::match_json(kind.name(), names, cfg.sprt, &summary)
                );
            } else {
                print!(
                    "{}",
                    output::match_text(kind.name(), names, cfg.sprt, &summary)
                );
            }
            Ok(())
        }
        Some(Command::Tune(a)) => match &a.plot {
            Some(plot_in) => {
                no_game(top, "tune --plot", "the tune file says it")?;
                let out = a.output.as_ref().ok_or("--plot needs -o OUT.svg")?;
                let log = crate::tune::read_log(plot_in).map_err(|e| e.to_string())?;
                let svg = crate::tune::plot::svg(&log.settings, &log.steps);
                std::fs::write(out, svg).map_err(|e| format!("-o {}: {e}", out.display()))
            }
            None => crate::tune::run(&args::tune_config(
                game_needed("tune", top, &a.game.game)?,
                &a,
            )?)
            .map_err(|e| e.to_string()),
        },
        Some(Command::Learn(a)) => {
            let kind = game_needed("learn", top, &a.game.game)?;
            let cfg = args::learn_config(kind, &a)?;
            let report = crate::learn::run(&cfg).map_err(|e| learn_message(&e))?;
            Ok(write_stdout(&report)?)
        }
        Some(Command::Play {
            game,
            vs,
            first: _,
            second,
        }) => {
            use std::io::IsTerminal;
            let kind = game_needed("play", top, &game.game)?;
            let cfg = super::play::PlayConfig {
                kind,
                vs: crate::players::Player::from_name(&vs).map_err(|e| format!("--vs: {e}"))?,
                human: if second {
                    crate::core::game::Side::Second
                } else {
                    crate::core::game::Side::First
                },
                color: std::io::stdout().is_terminal(),
            };
            super::play::play(&cfg, std::io::stdin().lock(), std::io::stdout().lock())
        }
        Some(Command::Serve {
            game,
            listen,
            player,
            max_connections,
            max_hash,
            idle_timeout,
            max_sessions,
        }) => {
            let kind = start_game(&game.game)?;
            if max_connections == 0 {
                return Err("--max-connections: at least 1".into());
            }
            let limits = super::serve::Limits {
                max_connections,
                idle: (idle_timeout > 0).then(|| std::time::Duration::from_secs(idle_timeout)),
                engine: crate::engine::EngineConfig {
                    max_hash_mib: max_hash,
                    files: false,
                    ..Default::default()
                },
            };
            let player = player
                .as_deref()
                .map(crate::players::Player::from_name)
                .transpose()
                .map_err(|e| format!("--player: {e}"))?;
            let l = super::serve::bind(&listen)?;
            let addr = l.local_addr().map_err(|e| e.to_string())?;
            // The bound address on stdout (port 0 picks one): scripts and tests read it.
            println!("listening {addr}");
            use std::io::Write;
            let _ = std::io::stdout().flush();
            super::serve::serve(l, kind, player, max_sessions, limits);
            Ok(())
        }
        None => {
            let kind = start_game(&None)?;
            greet(kind, None);
            protocol::run(
                kind,
                std::io::BufReader::new(std::io::stdin()),
                Out::stdout(),
            );
            Ok(())
        }
        Some(Command::Gui {
            game,
            listen,
            engine,
            allow_remote,
            max_connections,
        }) => Ok(crate::gui::run(&args::gui_config(
            start_game(&game.game)?,
            &listen,
            &engine,
            allow_remote,
            max_connections,
        )?)?),
        Some(Command::Analyse(a)) => {
            no_game(top, "analyse", "the records say it")?;
            super::analyse::run(&a)
        }
        Some(Command::Report {
            records,
            html,
            json,
            anchor,
            partial,
            times,
        }) => {
            no_game(top, "report", "the records say it")?;
            Ok(crate::report::run_any(
                &records,
                html.as_deref(),
                json,
                anchor.as_deref().map(args::anchor).transpose()?,
                partial,
                times,
            )?)
        }
        Some(Command::Tournament(a)) => {
            let kind = game_needed("tournament", top, &a.game.game)?;
            let (cfg, anchor) = args::tournament_config(kind, &a)?;
            if a.schedule {
                return Ok(write_stdout(&output::schedule_text(&cfg))?);
            }
            let played = referee_run(&cfg, "tournament")?;
            let s = standings(&played.settings, &played.games, anchor)
                .map_err(|e| referee_message(&e))?;
            if let Some(sh) = cfg.shard {
                eprintln!(
                    "shard {}/{}: {} of {} games; merge the shards' records with tablero report",
                    sh.k,
                    sh.n,
                    played.games.len(),
                    cfg.schedule().games().unwrap_or(played.games.len())
                );
            }
            if a.json {
                Ok(write_stdout(&format!("{}\n", s.json()))?)
            } else {
                Ok(write_stdout(&s.text())?)
            }
        }
        Some(Command::Class(a)) => {
            // The game: --game, else what the output folder, the checkout or the submissions
            // tell (said in the class's first line, and beside any error).
            let (kind, told) = match game_given(top, &a.game)? {
                Some(k) => (k, None),
                None => {
                    let t = crate::class::infer::game(
                        a.course.as_deref(),
                        a.submissions.as_deref(),
                        &a.output,
                    )?;
                    (t.kind, Some(format!("{}: {}", t.kind.name(), t.why)))
                }
            };
            let mut cfg = args::class_config(kind, &a)?;
            cfg.game_told.clone_from(&told);
            let text = crate::class::run(&cfg).map_err(|e| match &told {
                Some(t) => format!("{e} (the game is {t}; --game sets it)"),
                None => e.to_string(),
            })?;
            Ok(write_stdout(&text)?)
        }
        Some(Command::Perft {
            game,
            depth,
            fen,
            file,
            moves,
            set,
        }) => {
            let kind = game_needed("perft", top, &game.game)?;
            let (fen, set) = args::with_file(kind, fen, file.as_deref(), set)?;
            dispatch(
                kind,
                Perft {
                    depth,
                    fen,
                    moves,
                    set,
                },
            )
        }
        Some(Command::Render {
            game,
            fen,
            file,
            moves,
            set,
            size,
            output,
        }) => {
            use crate::view::render::{Picture, RenderError, render};
            let kind = game_needed("render", top, &game.game)?;
            let (fen, set) = args::with_file(kind, fen, file.as_deref(), set)?;
            let pic = Picture {
                options: args::set_values(&set)?,
                fen,
                moves: args::move_tokens(kind, &moves),
                size,
            };
            let svg = render(kind, &pic).map_err(|e| match &e {
                RenderError::Size(_) => format!("--{e}"),
                RenderError::Option(o) => args::option_error(o),
                RenderError::Rules(_) => format!("--set: {e}"),
                RenderError::Position(p) => args::position_error(p),
            })?;
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
            game,
            fen,
            file,
            moves,
            batch,
            set,
            hash,
            threads,
            db_seeds,
            db_dir,
            db_max_mb,
            keep_table,
            nodes,
        }) => {
            let kind = game_needed("solve", top, &game.game)?;
            let (fen, set) = args::with_file(kind, fen, file.as_deref(), set)?;
            super::solve::run(&super::solve::SolveArgs {
                game: kind.name().to_string(),
                fen,
                moves,
                batch,
                set,
                hash_mib: hash,
                threads,
                db_seeds,
                db_dir,
                db_max_mb,
                keep_table,
                nodes,
            })
        }
        Some(Command::MancalaBot(a)) => {
            no_game(top, "mancala-bot", "it plays the course's Mancala")?;
            let cfg = crate::mancala_bot::bot::BotConfig::from_flags(
                &a.name,
                a.player.as_deref(),
                a.depth,
                a.movetime,
                a.heuristic.as_deref(),
                &a.option,
            )?;
            let stdin = std::io::stdin();
            Ok(crate::mancala_bot::bot::run(
                &cfg,
                stdin.lock(),
                std::io::stdout(),
                std::io::stderr(),
            )?)
        }
        Some(Command::MancalaBotAdapter { bot }) => {
            no_game(top, "mancala-bot-adapter", "a course bot plays Mancala")?;
            Ok(crate::mancala_bot::adapter::run(
                bot,
                std::io::BufReader::new(std::io::stdin()),
                std::io::stdout(),
            )?)
        }
        Some(Command::Bench { only, hash }) => {
            no_game(top, "bench", "it searches every game; --only picks one")?;
            let game = only
                .as_deref()
                .map(crate::games::lookup)
                .transpose()
                .map_err(|e| format!("--only: {e}"))?;
            let (total, time) = crate::bench::run(game, hash, |l| {
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

/// The binary's `main`: parses the command line, starts logging on stderr and dispatches.
/// Commands that only print (`tablero bench | head`) end as other Unix tools do when the reader
/// leaves: killed by SIGPIPE, without a panic. Only for them: commands that talk to engines,
/// bots or sockets must see a closed pipe as an error (Rust's default), never die of it.
#[allow(unsafe_code)]
fn die_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

pub fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // Usage errors are clap's whole message: what is wrong (the missing argument's name, a
    // "did you mean"), the usage line and where to get help; exit code 2.
    let cli = Cli::try_parse().unwrap_or_else(|e| e.exit());
    if matches!(
        cli.command,
        Some(
            Command::Bench { .. }
                | Command::Perft { .. }
                | Command::Render { .. }
                | Command::Report { .. }
                | Command::Solve { .. }
        )
    ) {
        die_quietly_on_a_closed_pipe();
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tablero: error: {e}");
            ExitCode::from(2)
        }
    }
}
