//! The command line (clap derive): every flag and subcommand with its help text. The only
//! module of the crate that knows clap; [`super::args`] turns what it parses into the library's
//! typed configurations. No subcommand runs the protocol loop.

use clap::{Parser, Subcommand};

/// The command line's root: the protocol loop's game and player, or a command.
#[derive(Parser, Debug)]
#[command(
    version,
    about = about(),
    after_help = "Without a command, tablero reads the protocol on stdin and answers on stdout: \
                  try `printf 'position startpos\\ngo depth 6\\n' | tablero --game connect4` \
                  (every command: protocol.md)."
)]
pub struct Cli {
    // The help lists the registry's games (`games_help`).
    #[arg(long, value_name = "GAME", help = format!(
        "The game of the protocol loop (default {}): {}; `setoption name UCI_Variant` changes it. Given before a command, that command's --game",
        crate::games::GameKind::ALL[0].name(),
        games_help()
    ))]
    pub game: Option<String>,
    /// Run a built-in player instead of the full engine: random, greedy, ninja1, ninja2,
    /// ninja3, solver (fixed strength; docs/players.md).
    #[arg(long)]
    pub player: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `tablero --help`'s first line: the registry's games by their titles.
fn about() -> String {
    use crate::games::GameKind;
    let titles: Vec<&str> = GameKind::ALL.iter().map(|k| k.title()).collect();
    let (last, first) = titles.split_last().expect("the registry lists games");
    format!(
        "tablero: a headless engine for {} and {last} speaking a UCI-like protocol on \
         stdin/stdout (see protocol.md)",
        first.join(", ")
    )
}

/// `analyse --depth`'s defaults, game by game ("6 parchis, 8 connect4boom, …").
fn review_depths_help() -> String {
    use crate::games::GameKind;
    let depths: Vec<String> = GameKind::ALL
        .iter()
        .map(|&k| format!("{} {}", crate::review::run::default_depth(k), k.name()))
        .collect();
    depths.join(", ")
}

/// The games of the registry and their first other names, for `--game`'s help.
fn games_help() -> String {
    use crate::games::GameKind;
    let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    let also: Vec<&str> = GameKind::ALL
        .iter()
        .filter_map(|k| k.aliases().first().copied())
        .collect();
    format!(
        "{} (also Parchís, {}, …)",
        names.join(", "),
        also.join(", ")
    )
}

/// `--game` of a command that plays one game and cannot tell which by itself: it asks for it.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct GameArg {
    // The help lists the registry's games (`games_help`).
    #[arg(long = "game", value_name = "GAME", help = format!("The game: {}; required", games_help()))]
    pub game: Option<String>,
}

/// `--game` of a command whose engines are told the game at the start (`serve`, `gui`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct StartGameArg {
    #[arg(long = "game", value_name = "GAME", help = format!(
        "The game at the start (default {}): {}; a client's `setoption name UCI_Variant` (the page's game menu) changes it",
        crate::games::GameKind::ALL[0].name(),
        games_help()
    ))]
    pub game: Option<String>,
}

/// The flags every refereed command shares (`match`, `tournament`, `tune`): options sent to
/// the engines, limits, clock, openings, seed, concurrency and adjudication.
#[derive(clap::Args, Debug, Clone)]
pub struct GameFlags {
    /// NAME=VALUE sent to every engine as setoption; variant options (Pits, Seeds, Rows,
    /// Columns, InARow, Year) also set the referee's rules (repeatable; `tune`: fixed, not tuned).
    #[arg(long)]
    pub option: Vec<String>,
    /// Games played in parallel (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seed of everything random (openings; `tune`: also the perturbation signs).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// random:P (P seeded random plies) or a FILE with one opening per line
    /// (`fen <state> [moves …]` or a move list).
    #[arg(long)]
    pub openings: Option<String>,
    /// go depth D for every move.
    #[arg(long)]
    pub depth: Option<u64>,
    /// go nodes N for every move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// go movetime MS for every move.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Clock per player, BASE+INC in seconds (e.g. 10+0.1).
    #[arg(long)]
    pub tc: Option<String>,
    /// Lateness tolerated beyond a time limit, ms.
    #[arg(long, default_value_t = 200)]
    pub margin: u64,
    /// Longest wait for a reply when no time limit applies (depth/nodes, handshake), ms.
    #[arg(long, default_value_t = 30000)]
    pub timeout: u64,
    /// How long a freshly started engine has to answer `uci` with `uciok`, ms (a program that
    /// is not an engine, or is stuck, is reported at once instead of after --timeout).
    #[arg(long, default_value_t = 10_000)]
    pub startup_timeout: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 2000)]
    pub max_plies: usize,
}

/// `tablero match`: the referee.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Engine 1: a command line (split like a shell), builtin:<player>, tcp:HOST:PORT or
    /// mancala-bot:PATH [ARGS] (a course Mancala bot).
    #[arg(long)]
    pub engine1: String,
    /// Engine 2 (same forms as --engine1).
    #[arg(long)]
    pub engine2: String,
    /// Display name of engine 1.
    #[arg(long)]
    pub name1: Option<String>,
    /// Display name of engine 2.
    #[arg(long)]
    pub name2: Option<String>,
    /// NAME=VALUE sent to engine 1 as setoption (repeatable; a variant option only with the
    /// referee's value: the rules are set with --option).
    #[arg(long)]
    pub option1: Vec<String>,
    /// NAME=VALUE sent to engine 2 as setoption (repeatable).
    #[arg(long)]
    pub option2: Vec<String>,
    /// Engine 1's own limits, replacing the shared --depth/--nodes/--movetime/--tc for it:
    /// KEY=VALUE[,…] with keys depth, nodes, movetime (ms), tc (BASE+INC s), e.g. tc=10+0.1.
    #[arg(long)]
    pub limits1: Option<String>,
    /// Engine 2's own limits (as --limits1), e.g. depth=8.
    #[arg(long)]
    pub limits2: Option<String>,
    /// Engines' limits, clock, openings and the rest shared with `match`/`tournament`/`tune`.
    #[command(flatten)]
    pub play: GameFlags,
    /// Number of games (default 2).
    #[arg(long, conflicts_with = "rounds")]
    pub games: Option<usize>,
    /// Number of colour-swapped pairs (2 games each).
    #[arg(long)]
    pub rounds: Option<usize>,
    /// SPRT: elo0=0 elo1=10 alpha=0.05 beta=0.05; the match stops on a decision.
    #[arg(long, num_args = 1..)]
    pub sprt: Vec<String>,
    /// Write the records (a header line, then one JSON line per game) to FILE; an existing
    /// FILE is refused (see --resume, --overwrite).
    #[arg(long)]
    pub records: Option<std::path::PathBuf>,
    /// Continue an interrupted match from its records FILE (and append to it).
    #[arg(long, conflicts_with = "records")]
    pub resume: Option<std::path::PathBuf>,
    /// Replace an existing --records FILE: the new records are written beside it and take its
    /// place when the match ends (a run stopped before leaves it whole).
    #[arg(long, requires = "records")]
    pub overwrite: bool,
    /// Keep every engine's raw I/O per game in DIR.
    #[arg(long)]
    pub log: Option<std::path::PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// `tablero tournament`: many engines, one schedule, standings from all games.
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// NAME=SPEC, repeatable: SPEC as --engine1 of `match` (a command line split like a shell,
    /// builtin:<player>, tcp:HOST:PORT, mancala-bot:PATH [ARGS]); words option.NAME=VALUE are
    /// this engine's setoptions.
    #[arg(long)]
    pub engine: Vec<String>,
    /// FILE with one engine per line: `NAME SPEC… [option.NAME=VALUE…]`; `#` comment lines.
    #[arg(long)]
    pub engines: Option<std::path::PathBuf>,
    /// round-robin (every pair) or gauntlet (the first engine against each other one).
    #[arg(long, default_value = "round-robin")]
    pub format: String,
    /// Rounds: each plays every pairing once as a colour-swapped pair of games from opening
    /// number `round`.
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// K/N: play only shard K of N of the schedule (the pairs p with p mod N = K-1).
    #[arg(long)]
    pub shard: Option<String>,
    /// Print the games of the shard (game, round, first, second, opening) and exit.
    #[arg(long)]
    pub schedule: bool,
    /// NAME=ELO: this engine's rating is fixed (default: the mean rating is 0).
    #[arg(long)]
    pub anchor: Option<String>,
    /// Engines' limits, clock, openings and the rest shared with `match`/`tournament`/`tune`.
    #[command(flatten)]
    pub play: GameFlags,
    /// Write the records (a header line, then one JSON line per game) to FILE; an existing
    /// FILE is refused (see --resume, --overwrite).
    #[arg(long)]
    pub records: Option<std::path::PathBuf>,
    /// Continue an interrupted tournament (or shard) from its records FILE.
    #[arg(long, conflicts_with = "records")]
    pub resume: Option<std::path::PathBuf>,
    /// Replace an existing --records FILE: the new records are written beside it and take its
    /// place when the tournament ends (a run stopped before leaves it whole).
    #[arg(long, requires = "records")]
    pub overwrite: bool,
    /// Keep every engine's raw I/O per game in DIR.
    #[arg(long)]
    pub log: Option<std::path::PathBuf>,
    /// Print the standings as one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// `tablero class`: a class tournament of students' submissions (docs/class-tournament.md).
#[derive(clap::Args, Debug)]
pub struct ClassArgs {
    #[arg(long = "game", value_name = "GAME", help = format!(
        "The game: {}. Told by the output folder of an earlier run, the --course checkout or the submissions when not given (and then said on stderr); asked for when none of them tells",
        crate::class::bridges::COURSES.iter().map(|c| c.game.name()).collect::<Vec<_>>().join(", ")
    ))]
    pub game: Option<String>,
    /// Folder of submissions, one sub-folder per student: Parchís `AIPlayer.cpp` (+ .h), BOOM
    /// `player.cpp` (+ .h), 5-en-Raya `AgenteEstudiante.cpp` (+ .hpp), Mancala bot sources (a
    /// makefile or .cpp files), a whole copy of the course's code, or a ready program.
    #[arg(required_unless_present = "report_only")]
    pub submissions: Option<std::path::PathBuf>,
    /// The course checkout the players are built with (Parchís: the 2022-23 simulator; BOOM:
    /// the 2020-21 one; 5-en-Raya: ugr-ccia-IA/practica3); Mancala: optional, the course's bot
    /// folder, for files a submission lacks.
    #[arg(long)]
    pub course: Option<std::path::PathBuf>,
    /// round-robin (everyone against everyone) or gauntlet (every student against every
    /// built-in player).
    #[arg(long, default_value = "round-robin")]
    pub format: String,
    /// Built-in players that take part, comma-separated (`none` for none).
    #[arg(long, default_value = "ninja1,ninja2")]
    pub builtins: String,
    /// Rounds: each plays every pairing once as a colour-swapped pair of games.
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// K/N: play only shard K of N of the schedule (then `--report-only` merges the shards).
    #[arg(long)]
    pub shard: Option<String>,
    /// NAME=VALUE sent to every student's engine as setoption (repeatable); a submission's
    /// `tablero.options` file adds its own. Parchís: PlayerId=1 unless set.
    #[arg(long)]
    pub student_option: Vec<String>,
    /// Longest build of one submission, seconds (then it is stopped and reported).
    #[arg(long, default_value_t = 600)]
    pub build_timeout: u64,
    /// Build the submissions and stop (before a cluster's shards).
    #[arg(long, conflicts_with = "report_only")]
    pub build_only: bool,
    /// Write the report from the records already in the output folder (after the shards).
    #[arg(long)]
    pub report_only: bool,
    /// Continue the tournament (or shard) recorded in the output folder.
    #[arg(long)]
    pub resume: bool,
    /// With --report-only: report records that are not the whole tournament (shards missing,
    /// a last line cut off); without it they are refused.
    #[arg(long)]
    pub partial: bool,
    /// Keep every engine's raw I/O per game under OUTPUT/logs.
    #[arg(long)]
    pub log: bool,
    /// Engines' limits, clock, openings and the rest shared with `match`/`tournament`/`tune`.
    #[command(flatten)]
    pub play: GameFlags,
    /// The output folder: engines, build logs, records and the report (index.html and one page
    /// per student).
    #[arg(short = 'o', long = "output")]
    pub output: std::path::PathBuf,
}

/// `tablero tune`: SPSA over an engine's integer spin options (see docs/tuning.md).
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// The engine tuned: a command line (split like a shell), builtin:<player>, tcp:HOST:PORT
    /// or mancala-bot:PATH [ARGS]; it plays against itself, θ+ against θ−.
    #[arg(long)]
    pub engine: Option<String>,
    /// NAME=START,MIN,MAX,C_END,R_END: a spin option to tune (repeatable).
    #[arg(long)]
    pub param: Vec<String>,
    /// Number of SPSA iterations N.
    #[arg(long)]
    pub iterations: Option<usize>,
    /// Colour-swapped pairs of θ+ against θ− per iteration.
    #[arg(long, default_value_t = 1)]
    pub pairs_per_iteration: usize,
    /// Engines' limits, clock, openings and the rest shared with `match`/`tournament`/`tune`.
    #[command(flatten)]
    pub play: GameFlags,
    /// Write the run to FILE (which must not exist yet): a header and one JSON line per
    /// iteration; with --plot, the SVG.
    #[arg(
        short = 'o',
        long = "output",
        visible_alias = "out",
        value_name = "FILE"
    )]
    pub output: Option<std::path::PathBuf>,
    /// Continue the run of FILE (same settings) after its last complete iteration.
    #[arg(long, conflicts_with = "output")]
    pub resume: Option<std::path::PathBuf>,
    /// Draw the parameter paths of a tune FILE as SVG (to -o) instead of tuning.
    #[arg(long, conflicts_with = "resume")]
    pub plot: Option<std::path::PathBuf>,
}

/// `tablero analyse`: game review of recorded games (docs/review.md).
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// Records files of one match or tournament (JSON lines; several files merge as in
    /// `report`).
    #[arg(required = true)]
    pub records: Vec<std::path::PathBuf>,
    /// Write the annotated records to FILE.
    #[arg(short = 'o', long = "output", value_name = "FILE", required_unless_present_any = ["resume", "fit"])]
    pub output: Option<std::path::PathBuf>,
    /// Continue an interrupted review in FILE (same records and flags).
    #[arg(long, value_name = "FILE", conflicts_with = "output")]
    pub resume: Option<std::path::PathBuf>,
    /// Replace an existing -o FILE: the review is written beside it and takes its place when
    /// it ends (a review stopped before leaves it whole).
    #[arg(long, requires = "output")]
    pub overwrite: bool,
    /// Review records that are not the whole run (fewer games than their header promises, a
    /// last line cut off); without it they are refused.
    #[arg(long)]
    pub partial: bool,
    /// The analysing engine: `tablero` (in-process, the default), a command line (split like a
    /// shell), builtin:<player>, tcp:HOST:PORT or mancala-bot:PATH.
    #[arg(long, default_value = "tablero")]
    pub engine: String,
    /// NAME=VALUE sent to the engine as setoption (repeatable; in-process: Heuristic and the
    /// weight options).
    #[arg(long)]
    pub option: Vec<String>,
    // The help lists each registered game's review depth (`review_depths_help`).
    #[arg(long, help = format!("go depth D for every position (default: {})", review_depths_help()))]
    pub depth: Option<u32>,
    /// go nodes N for every position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// go movetime MS for every position (not reproducible).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Node budget of each exact solve (Connect Four, Kalah; in-process only); 0: no solver.
    #[arg(long, default_value_t = crate::review::run::SOLVER_NODES)]
    pub solver_nodes: u64,
    /// Try the solver on every position, also those beyond go's caps (Connect Four: more than
    /// 34 empty cells; Kalah: more than 40 seeds in pits); with a large --solver-nodes a review
    /// proves whole Kalah(6,4) games.
    #[arg(long)]
    pub solver_all: bool,
    /// Table size of the in-process search and of each solver, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Games analysed at once (each with its own engine).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Longest wait for an engine's answer without a movetime limit, ms.
    #[arg(long, default_value_t = 60000)]
    pub timeout: u64,
    /// Print the curve from evaluations to expected score fitted to the records' results
    /// (their review values, else their engines' scores) instead of analysing.
    #[arg(long, conflicts_with_all = ["output", "resume"])]
    pub fit: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Counts the leaves of the legal-move tree, split by root move.
    Perft {
        #[command(flatten)]
        game: GameArg,
        /// Plies to count.
        #[arg(long)]
        depth: u32,
        /// Start from this state string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Start from this board file of the course's simulator (5-en-Raya's `-file`), which
        /// also sets the board's options.
        #[arg(long, value_name = "PATH")]
        file: Option<std::path::PathBuf>,
        /// Moves played from the start (or the fen) first, space-separated or repeated.
        #[arg(long, num_args = 1.., allow_hyphen_values = false)]
        moves: Vec<String>,
        /// Variant option, repeatable: `--set Pits=4 --set Seeds=3`, `--set Rows=7`.
        #[arg(long = "set")]
        set: Vec<String>,
    },
    /// Searches a fixed suite of positions per game; prints total nodes (the regression
    /// signature) and nodes per second.
    Bench {
        /// Only this game's positions (default: every game).
        #[arg(long = "only")]
        only: Option<String>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Plays a match between two engines and reports W/D/L, Elo, LOS and optional SPRT.
    Match(Box<MatchArgs>),
    /// Tunes an engine's spin options by SPSA over self-play matches (fishtest's schedules).
    Tune(Box<TuneArgs>),
    /// Fits the default heuristic's weights to self-play data labelled by the solvers or by
    /// the results (see docs/learned-evaluations.md).
    Learn(Box<LearnArgs>),
    /// Plays a tournament of many engines (or one shard of it) and prints the standings:
    /// maximum-likelihood ratings with 95 % intervals, points, W/D/L and a crosstable.
    Tournament(Box<TournamentArgs>),
    /// A class tournament: builds every student's submission, plays them against each other
    /// and the built-in players, and writes the report with a page per student.
    Class(Box<ClassArgs>),
    /// Play against a built-in player at the terminal (moves in protocol notation).
    Play {
        #[command(flatten)]
        game: GameArg,
        /// The opponent: random, greedy, ninja1, ninja2, ninja3, solver.
        #[arg(long, default_value = "ninja2")]
        vs: String,
        /// You move first (the default).
        #[arg(long, conflicts_with = "second")]
        first: bool,
        /// You move second.
        #[arg(long)]
        second: bool,
    },
    /// Serves the protocol over TCP, one session per connection.
    Serve {
        #[command(flatten)]
        game: StartGameArg,
        /// Address to listen on, e.g. 127.0.0.1:7000 (port 0 picks a free port).
        #[arg(long)]
        listen: String,
        /// Serve a built-in player instead of the full engine.
        #[arg(long)]
        player: Option<String>,
        /// Sessions served at once; one more gets an error line and is closed.
        #[arg(long, default_value_t = super::serve::DEFAULT_MAX_CONNECTIONS)]
        max_connections: usize,
        /// Largest `Hash` (MiB) a session may set; the memory bound is about
        /// max-connections × (max-hash + 10 MiB).
        #[arg(long, default_value_t = crate::protocol::DEFAULT_HASH_MIB as i64, value_parser = clap::value_parser!(i64).range(1..=crate::protocol::MAX_HASH_MIB))]
        max_hash: i64,
        /// Close a session that sent nothing for this many seconds (0: never).
        #[arg(long, default_value_t = super::serve::DEFAULT_IDLE_SECS)]
        idle_timeout: u64,
        /// Stop accepting after this many sessions (tests).
        #[arg(long, hide = true)]
        max_sessions: Option<usize>,
    },
    /// A local web page to play and watch the games against the offered engines (docs/gui.md).
    Gui {
        #[command(flatten)]
        game: StartGameArg,
        /// Address to serve the page on (loopback only unless --allow-remote; port 0 picks one).
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
        /// NAME=SPEC: an engine the page may pick, SPEC as in `match` (a command line,
        /// builtin:<player>, tcp:HOST:PORT or mancala-bot:PATH [ARGS]); repeatable. `tablero`
        /// and the built-in players are always offered.
        #[arg(long)]
        engine: Vec<String>,
        /// Allow a --listen address other than loopback (anyone who reaches it can run the
        /// offered engines).
        #[arg(long)]
        allow_remote: bool,
        /// Connections served at once; more are answered 503 and closed.
        #[arg(long, default_value_t = crate::gui::MAX_CONNECTIONS)]
        max_connections: usize,
    },
    /// Reads referee records (`match --records`, several files are merged) and prints the
    /// result table, or with -o writes one self-contained page with plots and every game.
    Report {
        /// Records files (JSON lines), e.g. the runs or shards of one match.
        #[arg(required = true)]
        records: Vec<std::path::PathBuf>,
        /// Write the HTML report to FILE (opens from disk, nothing fetched) instead of printing
        /// the table.
        #[arg(
            short = 'o',
            long = "output",
            visible_alias = "html",
            value_name = "FILE"
        )]
        html: Option<std::path::PathBuf>,
        /// Tournament records: print the standings as JSON.
        #[arg(long)]
        json: bool,
        /// Tournament records: NAME=ELO fixes this engine's rating (default: mean 0).
        #[arg(long)]
        anchor: Option<String>,
        /// Report records that are not the whole run (fewer games than their header promises,
        /// shards missing, a last line cut off); without it they are refused.
        #[arg(long)]
        partial: bool,
        /// Match records: also print each engine's move times (median, 90th and 99th
        /// percentile, slowest; every move given to the engine that made it).
        #[arg(long)]
        times: bool,
    },
    /// Reviews recorded games: every engine move valued by an analysing engine and marked
    /// (?! inaccuracy, ? mistake, ?? blunder), accuracy per player; writes annotated records
    /// that `report` and `gui` show (docs/review.md).
    Analyse(Box<AnalyseArgs>),
    /// Draws a position as SVG (the start, or --fen, after --moves; the last move highlighted).
    Render {
        #[command(flatten)]
        game: GameArg,
        /// Start from this state string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Start from this board file of the course's simulator (5-en-Raya's `-file`), which
        /// also sets the board's options.
        #[arg(long, value_name = "PATH")]
        file: Option<std::path::PathBuf>,
        /// Moves played first (space-separated or repeated; Connect Four also takes Pons
        /// strings `4455`).
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Variant option, repeatable: `--set Rows=5`, `--set Pits=4 --set Seeds=3`.
        #[arg(long = "set")]
        set: Vec<String>,
        /// Width of the picture in pixels (the height follows the board's proportions).
        #[arg(long, default_value_t = 800)]
        size: u32,
        /// Write the SVG to FILE instead of stdout.
        #[arg(short = 'o', long = "output")]
        output: Option<std::path::PathBuf>,
    },
    /// Plays as a bot of the course's Mancala simulator (MancalaNoGUI.jar): the course's line
    /// protocol on stdin/stdout (docs/bridge-mancala.md).
    MancalaBot(MancalaBotArgs),
    /// Runs a course Mancala bot (BOT [ARGS]) as a tablero engine on stdin/stdout, as the
    /// referee's `mancala-bot:` spec does (docs/bridge-mancala.md).
    MancalaBotAdapter {
        /// The bot's program and its arguments.
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        bot: Vec<String>,
    },
    /// Solves a Connect Four, Kalah or 5-en-Raya position exactly (or a batch file: golden
    /// lines; 5-en-Raya: positions with Status answers to check): prints `info` lines and
    /// `solved score <s> best <move> nodes <n> time <ms>`.
    Solve {
        #[command(flatten)]
        game: GameArg,
        /// Start from this state string instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Start from this board file of the course's simulator (5-en-Raya's `-file`), which
        /// also sets the board's options.
        #[arg(long, value_name = "PATH")]
        file: Option<std::path::PathBuf>,
        /// Moves played first (space-separated; Connect Four also takes Pons strings `4455`).
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Solve every line of this golden file and report mismatches, mean nodes and time
        /// (enraya: `<state string> [VICTORIA|EMPATE|DERROTA [move]]` per line).
        #[arg(long)]
        batch: Option<String>,
        /// Variant option, repeatable: `--set Rows=7`, `--set Pits=4 --set Seeds=3`.
        #[arg(long = "set")]
        set: Vec<String>,
        /// Table size in MiB (default: 1024 for Connect Four, 256 for Kalah, whose endgame
        /// database already holds most of what a table would, 64 for 5-en-Raya).
        #[arg(long)]
        hash: Option<usize>,
        /// Search threads sharing one table (Connect Four: ABDADA, Kalah: Lazy SMP); node
        /// counts vary between runs above 1, the score never does.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Kalah: endgame database of all positions with at most N seeds in pits, built
        /// bottom-up once and cached on disk (default: chosen from the board size; 0: none,
        /// only the small database filled during the search).
        #[arg(long = "db-seeds")]
        db_seeds: Option<usize>,
        /// Kalah: directory of the database cache (default `$XDG_CACHE_HOME/tablero`, else
        /// `$HOME/.cache/tablero`).
        #[arg(long = "db-dir")]
        db_dir: Option<std::path::PathBuf>,
        /// Kalah: the most the database may take on disk (and in memory), MB: a larger one is
        /// built with fewer seeds, which slows the search, never changes its result.
        #[arg(long = "db-max-mb", value_name = "MB")]
        db_max_mb: Option<u64>,
        /// 5-en-Raya: the most nodes a position's solve may visit (default: no limit); a position
        /// not proven within it is reported unproven.
        #[arg(long)]
        nodes: Option<u64>,
        /// Connect Four `--batch`: keep the table from one position to the next (default: every
        /// position starts from an empty table, as in Pons' benchmark).
        #[arg(long)]
        keep_table: bool,
    },
}

/// `tablero learn` (see `tablero::learn`): self-play, labels, fit, report.
#[derive(clap::Args, Debug)]
pub struct LearnArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// Seed of the openings and of the leaf sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games of self-play, split evenly over the opponents.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Search depth of both sides (the course's is 6).
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Heuristic of the learner's opponent, repeatable (`default` = self-play).
    #[arg(long, default_values_t = ["default".to_string()])]
    pub opponent: Vec<String>,
    /// Random opening plies, MIN..MAX (drawn per colour-swapped pair).
    #[arg(long, default_value = "4..4")]
    pub opening: String,
    /// Probability that an evaluation of the learner's search is sampled (exact labels).
    #[arg(long, default_value_t = 0.01)]
    pub rate: f64,
    /// Labels: exact (solvers: mancala, connect4) or result (of the game); default per game.
    #[arg(long)]
    pub labels: Option<String>,
    /// Samples: leaves (of the searches) or roots (positions of the games); default per game.
    #[arg(long)]
    pub positions: Option<String>,
    /// NAME=VALUE: a weight of the learner and of the fit's start (repeatable).
    #[arg(long)]
    pub weight: Vec<String>,
    /// The weights fitted, comma-separated (default: the game's plan).
    #[arg(long, value_delimiter = ',')]
    pub fit: Option<Vec<String>>,
    /// Most Newton steps of the fit.
    #[arg(long, default_value_t = 30)]
    pub iterations: usize,
    /// Threads for play, labels and fit (results do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Write the labelled data to FILE.
    #[arg(
        short = 'o',
        long = "output",
        visible_alias = "out",
        value_name = "FILE"
    )]
    pub out: Option<std::path::PathBuf>,
    /// Fit these data files (written by -o) instead of playing; repeatable.
    #[arg(long, conflicts_with = "out")]
    pub data: Vec<std::path::PathBuf>,
    /// Kalah: probability that a leaf above the endgame database is solved (weighted by its
    /// inverse).
    #[arg(long, default_value_t = 0.05)]
    pub above_db: f64,
    /// Kalah: seeds of the endgame database used for labels (built and cached if missing).
    #[arg(long, default_value_t = 24)]
    pub db_seeds: usize,
    /// Kalah: directory of the database cache (as `solve --db-dir`).
    #[arg(long)]
    pub db_dir: Option<std::path::PathBuf>,
    /// Kalah: the most the label database may take, MB; a --db-seeds database larger than
    /// that is refused (fewer seeds would change the labels).
    #[arg(long = "db-max-mb", value_name = "MB")]
    pub db_max_mb: Option<u64>,
    /// Connect Four: node budget of one exact solve (positions over it are left out).
    #[arg(long, default_value_t = 20_000_000)]
    pub c4_nodes: u64,
    /// Adjudicate a self-play game a draw after this many plies.
    #[arg(long, default_value_t = 2000)]
    pub max_plies: usize,
    /// Logistic fits: evaluation units per logit (default: the one that fits the start
    /// weights best, Texel's K).
    #[arg(long)]
    pub unit: Option<f64>,
    /// Kalah: fit who wins (the sign of the exact margin, logistic) instead of the margin.
    #[arg(long)]
    pub margin_sign: bool,
}

/// `tablero mancala-bot`: how tablero plays inside the course's Mancala referee.
#[derive(clap::Args, Debug)]
pub struct MancalaBotArgs {
    /// The name answered to GETNAME.
    #[arg(long, default_value = "tablero")]
    pub name: String,
    /// Play as a built-in player (random, greedy, ninja1, ninja2, ninja3, solver).
    #[arg(long, conflicts_with_all = ["depth", "movetime", "heuristic"])]
    pub player: Option<String>,
    /// Search every move to this depth (default: the referee's TIMEOUT, else depth 14).
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u64>,
    /// Search every move this many milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Evaluation: default, test or seed.
    #[arg(long)]
    pub heuristic: Option<String>,
    /// NAME=VALUE sent to the engine as setoption (repeatable), e.g. Hash=16.
    #[arg(long)]
    pub option: Vec<String>,
}
