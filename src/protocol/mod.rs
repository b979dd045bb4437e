//! The text protocol (see protocol.md): owns input, output and the search thread. One reader
//! thread feeds lines into a channel; the loop parses each line into a `Command` and applies it
//! to the `Session`; every error becomes one `info string error: …` line and the loop goes on.
//! End of input means `quit`, after letting a finite search finish.

pub mod command;
pub mod engine;
pub mod input;
pub mod output;
pub mod parse;

use std::collections::{BTreeMap, VecDeque};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;

use command::{Command, GoParams};
use engine::{Engine, GameEngine, Job};
pub use output::Out;

use crate::core::game::{Game, VariantOption, WeightOverrides, WeightSpec};
use crate::core::search::{Algorithm, SearchOptions};
use crate::games::{GameKind, GameVisitor, dispatch};

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;
/// Largest accepted `Hash`, in MiB.
pub const MAX_HASH_MIB: i64 = 16384;
/// Largest accepted `MultiPV`: more than any position of any game has moves (the search's
/// move lists hold at most 256), so "every move" is always reachable.
pub const MAX_MULTIPV: i64 = 256;

/// The largest `Hash` a session of this process accepts: [`MAX_HASH_MIB`], or less when a
/// server lets strangers open sessions (`serve --max-hash`) and must bound its memory.
static HASH_LIMIT: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(MAX_HASH_MIB);

/// Lowers the largest `Hash` sessions accept (clamped to 1..=[`MAX_HASH_MIB`]).
pub fn limit_hash(mib: i64) {
    HASH_LIMIT.store(mib.clamp(1, MAX_HASH_MIB), Ordering::Relaxed);
}

pub fn hash_limit() -> i64 {
    HASH_LIMIT.load(Ordering::Relaxed)
}

/// Most commands that may wait behind a running finite search (see protocol.md).
pub const MAX_PENDING: usize = 1024;

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

struct MakeEngine<'a> {
    values: &'a BTreeMap<String, i64>,
    hash_mib: usize,
}

impl GameVisitor for MakeEngine<'_> {
    type Output = Result<Box<dyn Engine>, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let vals: Vec<i64> = G::OPTIONS
            .iter()
            .map(|o| {
                self.values
                    .get(&o.name.to_ascii_lowercase())
                    .copied()
                    .unwrap_or(o.default)
            })
            .collect();
        Ok(Box::new(GameEngine::<G>::new(&vals, self.hash_mib)?))
    }
}

struct OptionsOf;
impl GameVisitor for OptionsOf {
    type Output = &'static [VariantOption];
    fn visit<G: Game>(self) -> Self::Output {
        G::OPTIONS
    }
}

struct HeuristicsOf;
impl GameVisitor for HeuristicsOf {
    type Output = &'static [&'static str];
    fn visit<G: Game>(self) -> Self::Output {
        G::HEURISTICS
    }
}

struct WeightsOf;
impl GameVisitor for WeightsOf {
    type Output = &'static [WeightSpec];
    fn visit<G: Game>(self) -> Self::Output {
        G::WEIGHTS
    }
}

/// The heuristic weight options (`<Game>W_<term>`) of every available game.
pub fn all_weight_options() -> Vec<WeightSpec> {
    GameKind::ALL
        .iter()
        .flat_map(|&k| dispatch(k, WeightsOf).unwrap_or(&[]).iter().copied())
        .collect()
}

/// Is `name` a heuristic weight option of some game (any case)?
pub fn is_weight_option(name: &str) -> bool {
    all_weight_options()
        .iter()
        .any(|w| w.name.eq_ignore_ascii_case(name))
}

/// The variant options of every available game (name, spec), deduplicated by name.
pub fn all_variant_options() -> Vec<VariantOption> {
    let mut out: Vec<VariantOption> = Vec::new();
    for k in GameKind::ALL {
        for o in dispatch(k, OptionsOf).unwrap_or(&[]) {
            if !out.iter().any(|x| x.name.eq_ignore_ascii_case(o.name)) {
                out.push(*o);
            }
        }
    }
    out
}

/// The protocol session: current game, its engine and the options.
pub struct Session {
    out: Out,
    kind: GameKind,
    engine: Result<Box<dyn Engine>, String>,
    hash_mib: usize,
    algorithm: Algorithm,
    heuristic: String,
    /// The `MultiPV` option: root moves reported with exact scores by `go`.
    multipv: u32,
    /// The `Move Overhead` option, ms.
    move_overhead: u64,
    /// The `Solver` option: when `go` tries the exact solver first.
    solver: crate::solver::exact::Mode,
    /// Variant option values by lower-case name (shared by the games that have the option).
    variant_values: BTreeMap<String, i64>,
    /// Heuristic weights set by `setoption`, by lower-case option name (each game has its
    /// own names, so a value set for one game waits there until that game is selected).
    weight_values: BTreeMap<String, i32>,
    /// The last accepted `position` command (`None`: the start position), which `solve`
    /// replays to get the position it solves.
    solve_position: Option<(command::StartSpec, Vec<command::Token>)>,
    /// A running `perft` or `solve` (a background thread, so `stop`, `quit` and `isready` are
    /// answered while it runs) and its stop flag.
    job: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
}

const HELP: &[&str] = &[
    "commands (one per line; see protocol.md):",
    "  uci | isready | ucinewgame | quit | stop | help",
    "  setoption name <name> [value <value>]   options: UCI_Variant Hash Algorithm Heuristic Solver MultiPV 'Move Overhead' + variant and weight options ('uci' lists them)",
    "  position startpos|fen <state>|<start name> [moves <m1> <m2> ...]",
    "  go [depth N] [nodes N] [movetime MS] [infinite] [wtime MS btime MS winc MS binc MS movestogo N] [searchmoves M1 M2 ...]",
    "  perft N | moves | d | eval   (eval: the heuristic's terms, then every move's depth-1 score)",
    "  solve   (connect4, mancala: exact value of the current position)",
];

impl Session {
    /// A session playing `kind`, writing to `out`.
    pub fn new(kind: GameKind, out: Out) -> Self {
        Self::with_hash(kind, out, DEFAULT_HASH_MIB)
    }

    /// A session whose tables start at `hash_mib` MiB instead of [`DEFAULT_HASH_MIB`] (the fuzz
    /// targets use 1 MiB: a 64 MiB table per run would cost more than the run itself).
    pub fn with_hash(kind: GameKind, out: Out, hash_mib: usize) -> Self {
        let values = BTreeMap::new();
        let engine = dispatch(
            kind,
            MakeEngine {
                values: &values,
                hash_mib: hash_mib.min(hash_limit() as usize),
            },
        )
        .and_then(|e| e);
        Session {
            out,
            kind,
            engine,
            hash_mib: hash_mib.min(hash_limit() as usize),
            algorithm: Algorithm::AlphaBeta,
            heuristic: "default".to_string(),
            multipv: 1,
            move_overhead: engine::MOVE_OVERHEAD_MS,
            solver: crate::solver::exact::Mode::default(),
            variant_values: values,
            weight_values: BTreeMap::new(),
            solve_position: None,
            job: None,
        }
    }

    fn engine(&mut self) -> Result<&mut Box<dyn Engine>, String> {
        self.engine.as_mut().map_err(|e| e.clone())
    }

    /// Rebuilds the engine for the current game and variant values (start position).
    fn rebuild(&mut self) -> Result<(), String> {
        if self.engine.as_mut().is_ok_and(|e| e.searching()) {
            return Err("a search is running; send 'stop' first".to_string());
        }
        let new = dispatch(
            self.kind,
            MakeEngine {
                values: &self.variant_values,
                hash_mib: self.hash_mib,
            },
        )
        .and_then(|e| e)?;
        self.engine = Ok(new);
        if let Ok(e) = self.engine.as_mut() {
            e.set_move_overhead(self.move_overhead);
        }
        self.solve_position = None;
        Ok(())
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match parse::parse_line(line) {
            Ok(cmd) => self.apply(cmd),
            Err(e) => {
                self.out.error(&e);
                Flow::Continue
            }
        }
    }

    /// Applies one command, reporting an error as one line.
    pub fn apply(&mut self, cmd: Command) -> Flow {
        match self.handle(cmd) {
            Ok(flow) => flow,
            Err(e) => {
                self.out.error(&e);
                Flow::Continue
            }
        }
    }

    /// Is a search with a natural end (not `go infinite`), a `perft` or a `solve` running?
    pub fn busy_finite(&mut self) -> bool {
        self.job_running()
            || self
                .engine
                .as_mut()
                .is_ok_and(|e| e.searching() && !e.searching_infinite())
    }

    /// Is a `perft` or `solve` running? (Reaps a finished one.)
    fn job_running(&mut self) -> bool {
        if self.job.as_ref().is_some_and(|(h, _)| h.is_finished()) {
            self.join_job();
        }
        self.job.is_some()
    }

    fn join_job(&mut self) {
        if let Some((h, _)) = self.job.take() {
            // The job prints its own lines; a panic in it has already been reported by the
            // panic hook, and the session stays usable.
            let _ = h.join();
        }
    }

    /// Runs `job` on a background thread.
    fn start_job(&mut self, name: &str, job: Job) -> Result<(), String> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let out = self.out.clone();
        let h = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || job(flag, &out))
            .map_err(|e| format!("{name}: cannot start a thread: {e}"))?;
        self.job = Some((h, stop));
        Ok(())
    }

    /// Waits for a finite search, `perft` or `solve` to end (an infinite search is left alone).
    pub fn wait_search(&mut self) {
        self.join_job();
        if let Ok(e) = self.engine.as_mut()
            && !e.searching_infinite()
        {
            e.wait();
        }
    }

    /// End of input: a search that would never end by itself (`go infinite`, or `go` without
    /// any limit) is stopped, so a shell pipe always ends; everything else may finish.
    pub fn end_of_input(&mut self) {
        if let Ok(e) = self.engine.as_mut()
            && e.searching_unbounded()
        {
            e.stop();
        }
    }

    /// `stop`: ends the running search, `perft` or `solve`.
    fn stop(&mut self) {
        if let Ok(e) = self.engine.as_mut() {
            e.stop();
        }
        if let Some((_, flag)) = &self.job {
            flag.store(true, Ordering::Relaxed);
        }
    }

    fn heuristic_index(&self, names: &[&str]) -> usize {
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(&self.heuristic))
            .unwrap_or(0)
    }

    /// Applies one command.
    pub fn handle(&mut self, cmd: Command) -> Result<Flow, String> {
        match cmd {
            Command::Empty => {}
            Command::Uci => self.uci(),
            Command::IsReady => {
                if let Ok(e) = self.engine.as_mut() {
                    e.prepare();
                }
                self.out.line("readyok")
            }
            Command::UciNewGame => self.engine()?.new_game()?,
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::Position { start, moves } => {
                self.engine()?.set_position(&start, &moves)?;
                self.solve_position = Some((start, moves));
            }
            Command::Go(p) => self.go(&p)?,
            Command::Stop => self.stop(),
            Command::Quit => {
                self.finish(true);
                return Ok(Flow::Quit);
            }
            Command::Perft(d) => {
                self.idle()?;
                let job = self.engine()?.perft_job(d);
                self.start_job("perft", job)?;
            }
            Command::Moves => {
                let ms = self.engine()?.legal_moves();
                let mut line = "moves".to_string();
                for m in ms {
                    line.push(' ');
                    line.push_str(&m);
                }
                self.out.line(&line);
            }
            Command::Display => {
                let d = self.engine()?.display();
                for l in d.lines() {
                    self.out.line(l);
                }
            }
            Command::Eval => {
                let names = self.engine()?.heuristics();
                let h = self.heuristic_index(names);
                let weights = self.weight_overrides();
                for l in self.engine()?.eval(h, &weights) {
                    self.out.line(&l);
                }
            }
            Command::Solve => {
                self.idle()?;
                let (kind, values, position, hash) = (
                    self.kind,
                    self.variant_values.clone(),
                    self.solve_position.clone(),
                    self.hash_mib,
                );
                self.start_job(
                    "solve",
                    Box::new(move |stop: Arc<AtomicBool>, out: &Out| {
                        let r = crate::solver::protocol_solve(
                            kind,
                            &values,
                            position.as_ref(),
                            hash,
                            Arc::clone(&stop),
                            |l| out.line(l),
                        );
                        match r {
                            // Stopped: the partial result is the probe lines already printed.
                            Err(e) if stop.load(Ordering::Relaxed) => {
                                out.line(&format!("info string {e}"))
                            }
                            Err(e) => out.error(&e),
                            Ok(()) => {}
                        }
                    }),
                )?;
            }
            Command::Help => {
                for l in HELP {
                    self.out.line(l);
                }
            }
        }
        Ok(Flow::Continue)
    }

    /// Fails when a search, `perft` or `solve` is running (commands that need an idle engine).
    fn idle(&mut self) -> Result<(), String> {
        if self.job_running() || self.engine()?.searching() {
            return Err("a search is running; send 'stop' first".to_string());
        }
        Ok(())
    }

    /// Ends the session: `stop_now` stops any search, `perft` or `solve`; otherwise a finite
    /// one may finish (an infinite search is stopped). Waits for the search thread and its
    /// `bestmove`.
    pub fn finish(&mut self, stop_now: bool) {
        if stop_now {
            self.stop();
        }
        self.join_job();
        if let Ok(e) = self.engine.as_mut() {
            if stop_now || e.searching_unbounded() {
                e.stop();
            }
            e.wait();
        }
    }

    /// The weights set for the current game, by index into its `Game::WEIGHTS`.
    fn weight_overrides(&self) -> WeightOverrides {
        let mut o = WeightOverrides::default();
        for (i, w) in dispatch(self.kind, WeightsOf)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            if let Some(&v) = self.weight_values.get(&w.name.to_ascii_lowercase()) {
                o.set(i, v);
            }
        }
        o
    }

    fn go(&mut self, p: &GoParams) -> Result<(), String> {
        let names = self.engine()?.heuristics();
        let options = SearchOptions {
            algorithm: self.algorithm,
            heuristic: self.heuristic_index(names),
            weights: self.weight_overrides(),
            multipv: self.multipv,
        };
        let out = self.out.clone();
        let solver = self.solver;
        self.engine()?.go(p, options, solver, out)
    }

    fn uci(&mut self) {
        let o = &self.out;
        o.line(&format!("id name tablero {}", env!("CARGO_PKG_VERSION")));
        o.line("id author the tablero developers");
        let vars: Vec<String> = GameKind::ALL
            .iter()
            .map(|k| format!("var {}", k.name()))
            .collect();
        o.line(&format!(
            "option name UCI_Variant type combo default {} {}",
            self.kind.name(),
            vars.join(" ")
        ));
        o.line(&format!(
            "option name Hash type spin default {} min 1 max {}",
            (DEFAULT_HASH_MIB as i64).min(hash_limit()),
            hash_limit()
        ));
        o.line("option name Algorithm type combo default alphabeta var alphabeta var minimax");
        let heur = dispatch(self.kind, HeuristicsOf).unwrap_or(&["default"]);
        let hv: Vec<String> = heur.iter().map(|h| format!("var {h}")).collect();
        o.line(&format!(
            "option name Heuristic type combo default {} {}",
            heur[0],
            hv.join(" ")
        ));
        o.line("option name Solver type combo default auto var auto var off var always var exact");
        o.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        o.line(&format!(
            "option name Move Overhead type spin default {} min 0 max {}",
            engine::MOVE_OVERHEAD_MS,
            engine::MAX_MOVE_OVERHEAD_MS
        ));
        for v in all_variant_options() {
            o.line(&format!(
                "option name {} type spin default {} min {} max {}",
                v.name, v.default, v.min, v.max
            ));
        }
        for w in all_weight_options() {
            o.line(&format!(
                "option name {} type spin default {} min {} max {}",
                w.name, w.default, w.min, w.max
            ));
        }
        o.line("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value_of = |what: &str| -> Result<&str, String> {
            value.ok_or_else(|| format!("setoption {what}: missing 'value <...>'"))
        };
        let int_in = |v: &str, what: &str, min: i64, max: i64| -> Result<i64, String> {
            let n: i64 = v.trim().parse().map_err(|_| {
                format!(
                    "setoption {what}: value '{}' is not an integer",
                    parse::clip(v)
                )
            })?;
            if n < min || n > max {
                return Err(format!(
                    "setoption {what}: value {n} is outside {min}..={max}"
                ));
            }
            Ok(n)
        };
        let busy = self.engine.as_mut().is_ok_and(|e| e.searching());
        if busy {
            return Err(format!(
                "setoption {}: a search is running; send 'stop' first",
                parse::clip(name)
            ));
        }
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let kind = GameKind::from_name(value_of("UCI_Variant")?)?;
                let old = self.kind;
                self.kind = kind;
                if let Err(e) = self.rebuild() {
                    self.kind = old;
                    let _ = self.rebuild();
                    return Err(format!("setoption UCI_Variant: {e}"));
                }
            }
            "hash" => {
                let n = int_in(value_of("Hash")?, "Hash", 1, hash_limit())?;
                self.hash_mib = n as usize;
                if let Ok(e) = self.engine.as_mut() {
                    e.set_hash(self.hash_mib)?;
                }
            }
            "algorithm" => {
                self.algorithm = match value_of("Algorithm")?.to_ascii_lowercase().as_str() {
                    "alphabeta" => Algorithm::AlphaBeta,
                    "minimax" => Algorithm::Minimax,
                    v => {
                        return Err(format!(
                            "setoption Algorithm: unknown value '{}' (alphabeta or minimax)",
                            parse::clip(v)
                        ));
                    }
                }
            }
            "solver" => {
                self.solver = crate::solver::exact::Mode::parse(value_of("Solver")?)?;
            }
            "multipv" => {
                self.multipv = int_in(value_of("MultiPV")?, "MultiPV", 1, MAX_MULTIPV)? as u32;
            }
            "move overhead" => {
                let ms = int_in(
                    value_of("Move Overhead")?,
                    "Move Overhead",
                    0,
                    engine::MAX_MOVE_OVERHEAD_MS as i64,
                )? as u64;
                self.move_overhead = ms;
                if let Ok(e) = self.engine.as_mut() {
                    e.set_move_overhead(ms);
                }
            }
            "heuristic" => {
                let v = value_of("Heuristic")?;
                let names = dispatch(self.kind, HeuristicsOf).unwrap_or(&["default"]);
                if !names.iter().any(|n| n.eq_ignore_ascii_case(v)) {
                    return Err(format!(
                        "setoption Heuristic: unknown heuristic '{}' for {} (known: {})",
                        parse::clip(v),
                        self.kind.name(),
                        names.join(", ")
                    ));
                }
                self.heuristic = v.to_ascii_lowercase();
            }
            lower if is_weight_option(lower) => {
                let spec = all_weight_options()
                    .into_iter()
                    .find(|w| w.name.eq_ignore_ascii_case(lower))
                    .expect("checked by the guard");
                let n = int_in(
                    value_of(spec.name)?,
                    spec.name,
                    i64::from(spec.min),
                    i64::from(spec.max),
                )?;
                self.weight_values.insert(lower.to_string(), n as i32);
            }
            lower => {
                let Some(spec) = all_variant_options()
                    .into_iter()
                    .find(|o| o.name.eq_ignore_ascii_case(lower))
                else {
                    return Err(format!(
                        "setoption: unknown option '{}'; 'uci' lists the options",
                        parse::clip(name)
                    ));
                };
                let n = int_in(value_of(spec.name)?, spec.name, spec.min, spec.max)?;
                let key = spec.name.to_ascii_lowercase();
                let old = self.variant_values.insert(key.clone(), n);
                let applies = dispatch(self.kind, OptionsOf)
                    .unwrap_or(&[])
                    .iter()
                    .any(|o| o.name.eq_ignore_ascii_case(spec.name));
                if applies && let Err(e) = self.rebuild() {
                    {
                        match old {
                            Some(v) => self.variant_values.insert(key, v),
                            None => self.variant_values.remove(&key),
                        };
                        return Err(format!("setoption {}: {e}", spec.name));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Runs the protocol loop until `quit` or end of input. Reads `input` on its own thread so that
/// `stop` and `isready` are seen while a search runs.
pub fn run(kind: GameKind, input: impl BufRead + Send + 'static, out: Out) {
    run_with_hash(kind, input, out, DEFAULT_HASH_MIB);
}

/// [`run`] with tables of `hash_mib` MiB at the start; exists for the fuzz targets (fuzz/),
/// which run thousands of sessions a second.
pub fn run_with_hash(
    kind: GameKind,
    input: impl BufRead + Send + 'static,
    out: Out,
    hash_mib: usize,
) {
    let (tx, rx) = mpsc::channel::<Option<input::Line>>();
    let reader = std::thread::spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            // Invalid UTF-8 becomes U+FFFD and then a normal parse error; an over-long line
            // is skipped without being kept.
            match input::read_line(&mut input, &mut buf) {
                input::Line::End => {
                    let _ = tx.send(None);
                    break;
                }
                line => {
                    if tx.send(Some(line)).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut session = Session::with_hash(kind, out.clone(), hash_mib);
    if let Err(e) = &session.engine {
        log::warn!("{e}");
    }
    // Commands that need an idle engine, received while a finite search runs, wait here in
    // order (a shell pipe may send `go` after `go`); `isready`, `stop` and `quit` never wait.
    let mut pending: VecDeque<Command> = VecDeque::new();
    // `quit` ends the session at once; what still waited for the search is named, not dropped
    // in silence.
    let drop_pending = |pending: &mut VecDeque<Command>| {
        for cmd in pending.drain(..) {
            out.error(&format!(
                "quit: '{}' was not carried out (it was waiting for the search to finish)",
                cmd.keyword()
            ));
        }
    };
    let mut eof = false;
    loop {
        while !pending.is_empty() && !session.busy_finite() {
            let cmd = pending.pop_front().expect("non-empty");
            if session.apply(cmd) == Flow::Quit {
                drop_pending(&mut pending);
                return;
            }
        }
        if eof {
            session.end_of_input();
            if pending.is_empty() {
                session.finish(false);
                break;
            }
            session.wait_search();
            continue;
        }
        let msg = if pending.is_empty() {
            rx.recv().map_err(|_| ())
        } else {
            match rx.recv_timeout(std::time::Duration::from_millis(2)) {
                Ok(m) => Ok(m),
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => Err(()),
            }
        };
        match msg {
            Ok(Some(input::Line::TooLong(n))) => out.error(&input::too_long(n)),
            Ok(Some(input::Line::End)) => eof = true,
            Ok(Some(input::Line::Text(line))) => match parse::parse_line(&line) {
                Err(e) => out.error(&e),
                Ok(cmd) => {
                    let immediate = matches!(
                        cmd,
                        Command::IsReady | Command::Stop | Command::Quit | Command::Empty
                    );
                    if !immediate && (session.busy_finite() || !pending.is_empty()) {
                        // The queue is capped so that a peer streaming commands behind a long
                        // search cannot grow the memory without bound.
                        if pending.len() >= MAX_PENDING {
                            out.error(&format!(
                                "'{}' ignored: {MAX_PENDING} commands are already waiting for the search to finish",
                                cmd.keyword()
                            ));
                        } else {
                            pending.push_back(cmd);
                        }
                    } else if session.apply(cmd) == Flow::Quit {
                        drop_pending(&mut pending);
                        break;
                    }
                }
            },
            Ok(None) | Err(()) => eof = true,
        }
    }
    drop(rx);
    // The reader may be blocked on input after `quit`; it ends with the process.
    drop(reader);
}

/// Convenience for tests: runs a whole script and returns the output lines.
pub fn run_script(kind: GameKind, script: &str) -> Vec<String> {
    let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
    struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let out = Out::new(Box::new(Sink(buf.clone())));
    run(
        kind,
        std::io::Cursor::new(script.to_string().into_bytes()),
        out,
    );
    let bytes = buf.lock().map(|b| b.clone()).unwrap_or_default();
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::to_string)
        .collect()
}
