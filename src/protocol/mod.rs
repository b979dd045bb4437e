//! The text protocol (see protocol.md): a thin adapter between lines and the
//! [`Engine`](crate::engine::Engine). One reader thread feeds lines into a channel; the loop
//! parses each line into a `Command`, applies it to the engine and formats what comes back
//! (`info`, `bestmove`, option lists); every error becomes one `info string error: …` line and
//! the loop goes on. End of input means `quit`, after letting a finite search finish. A
//! [`Filter`] in front of the session (the built-in players) sees each command as it is read.

pub mod command;
pub mod error;
pub mod input;
pub mod output;
pub mod parse;
pub mod pipe;

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;

use command::Command;
pub use error::{Error, FileReadError, LineError};
pub use output::Out;

use crate::engine::options::OptionType;
use crate::engine::{Engine, EngineConfig, Info, Job, JobError, Listener};
use crate::games::GameKind;

pub use crate::engine::{DEFAULT_HASH_MIB, MAX_HASH_MIB, MAX_MULTIPV};

/// Most commands that may wait behind a running finite search (see protocol.md).
pub const MAX_PENDING: usize = 1024;

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Something in front of the session that sees every command as it is read, before it waits
/// behind a running search: the built-in players, which pin options, rewrite `go` and may
/// answer commands themselves.
pub trait Filter: Send {
    /// The commands applied before the first input line.
    fn start(&mut self) -> Vec<Command>;
    /// One command as read: what the session gets instead (nothing, the command, or others);
    /// lines the filter answers itself go to `out` at once.
    fn filter(&mut self, cmd: Command, out: &Out) -> Vec<Command>;
}

/// Prints a search's events as protocol lines.
struct Printer(Out);

impl Listener for Printer {
    fn info(&self, info: &Info) {
        self.0.line(&info_line(info));
    }
    fn bestmove(&self, best: Option<&str>) {
        self.0
            .line(&format!("bestmove {}", best.unwrap_or("(none)")));
    }
}

/// The `info` line of an event.
pub fn info_line(info: &Info) -> String {
    match info {
        Info::Iteration {
            depth,
            multipv,
            score,
            nodes,
            nps,
            time_ms,
            hashfull,
            pv,
        } => {
            let mut line = format!("info depth {depth}");
            if let Some(i) = multipv {
                line.push_str(&format!(" multipv {i}"));
            }
            line.push_str(&format!(
                " score {score} nodes {nodes} nps {nps} time {time_ms} hashfull {hashfull}"
            ));
            if !pv.is_empty() {
                line.push_str(" pv ");
                line.push_str(&pv.join(" "));
            }
            line
        }
        Info::Proof {
            score,
            nodes,
            nps,
            time_ms,
            pv,
            detail,
        } => format!(
            "info depth {} score {score} nodes {nodes} nps {nps} time {time_ms} pv {} string {detail}",
            pv.len(),
            pv.join(" ")
        ),
        Info::Text(t) => format!("info string {t}"),
    }
}

/// The protocol session: the engine, the output and a running `perft` or `solve`.
pub struct Session {
    out: Out,
    engine: Engine,
    /// `position file` may read files ([`EngineConfig::files`]).
    files: bool,
    /// A running `perft` or `solve` (a background thread, so `stop`, `quit` and `isready` are
    /// answered while it runs) and its stop flag.
    job: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
}

const HELP: &[&str] = &[
    "commands (one per line; see protocol.md):",
    "  uci | isready | ucinewgame | quit | stop | help",
    "  setoption name <name> [value <value>]   options: UCI_Variant Hash Algorithm Heuristic Solver MultiPV 'Move Overhead' + variant and weight options ('uci' lists them)",
    "  position startpos|fen <state>|file <path>|<start name> [moves <m1> <m2> ...]",
    "  file    (enraya: the position as the simulator's board file, for its -file)",
    "  go [depth N] [nodes N] [movetime MS] [infinite] [wtime MS btime MS winc MS binc MS movestogo N] [searchmoves M1 M2 ...]",
    "  perft N | moves | d | eval   (eval: the heuristic's terms, then every move's depth-1 score)",
    "  solve   (connect4, mancala: exact value of the current position)",
];

/// The largest position file read (a 19 × 19 board file is under 1 KiB).
const MAX_FILE_BYTES: u64 = 64 * 1024;

impl Session {
    /// The text of a position file: a regular file of at most [`MAX_FILE_BYTES`], in UTF-8,
    /// where this session may read files.
    fn read_position_file(&self, path: &str) -> Result<String, FileReadError> {
        use std::io::Read;
        if !self.files {
            return Err(FileReadError::NotAllowed);
        }
        let f = std::fs::File::open(path).map_err(FileReadError::Open)?;
        let meta = f.metadata().map_err(FileReadError::Open)?;
        if !meta.is_file() {
            return Err(FileReadError::NotRegular);
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(FileReadError::TooLarge {
                bytes: meta.len(),
                max: MAX_FILE_BYTES,
            });
        }
        let mut text = String::new();
        f.take(MAX_FILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(FileReadError::NotText)?;
        Ok(text)
    }
}

/// Parses a line; a `position` line that cannot be read still counts as a `position` (a refused
/// one), so that what follows is not searched on the position before it.
fn read(line: &str) -> Result<Command, LineError> {
    parse::parse_line(line).or_else(|e| {
        let first = line.split_whitespace().next().unwrap_or("");
        if first == "position" {
            Ok(Command::RefusedPosition(e))
        } else {
            Err(e)
        }
    })
}

impl Session {
    /// A session playing `kind`, writing to `out`.
    pub fn new(kind: GameKind, out: Out, cfg: EngineConfig) -> Self {
        Session {
            out,
            engine: Engine::new(kind, cfg),
            files: cfg.files,
            job: None,
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match read(line) {
            Ok(cmd) => self.apply(cmd),
            Err(e) => {
                self.out.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    /// Applies one command, reporting an error as one line.
    pub fn apply(&mut self, cmd: Command) -> Flow {
        match self.handle(cmd) {
            Ok(flow) => flow,
            Err(e) => {
                self.out.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    /// Is a search with a natural end (not `go infinite`), a `perft` or a `solve` running?
    pub fn busy_finite(&mut self) -> bool {
        self.job_running() || (self.engine.searching() && !self.engine.searching_infinite())
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

    /// Runs `job` on a background thread: its lines as they come, then its failure (a stopped
    /// job's is a remark, not an error).
    fn start_job(&mut self, name: &str, job: Job) -> Result<(), Error> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let out = self.out.clone();
        let h = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                let print = |l: &str| out.line(l);
                match job(Arc::clone(&flag), &print) {
                    Err(JobError::Stopped(l)) if flag.load(Ordering::Relaxed) => {
                        out.line(&format!("info string {l}"))
                    }
                    Err(e) => out.error(&e.to_string()),
                    Ok(()) => {}
                }
            })
            .map_err(|why| Error::Thread {
                job: name.to_string(),
                why,
            })?;
        self.job = Some((h, stop));
        Ok(())
    }

    /// Waits for a finite search, `perft` or `solve` to end (an infinite search is left alone).
    pub fn wait_search(&mut self) {
        self.join_job();
        if !self.engine.searching_infinite() {
            self.engine.wait();
        }
    }

    /// End of input: a search that would never end by itself (`go infinite`, or `go` without
    /// any limit) is stopped, so a shell pipe always ends; everything else may finish.
    pub fn end_of_input(&mut self) {
        if self.engine.searching_unbounded() {
            self.engine.stop();
        }
    }

    /// `stop`: ends the running search, `perft` or `solve`.
    fn stop(&mut self) {
        self.engine.stop();
        if let Some((_, flag)) = &self.job {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Applies one command.
    pub fn handle(&mut self, cmd: Command) -> Result<Flow, Error> {
        match cmd {
            Command::Empty => {}
            Command::Uci => self.uci(),
            Command::IsReady => {
                self.engine.prepare();
                self.out.line("readyok")
            }
            Command::UciNewGame => self.engine.new_game()?,
            Command::SetOption { name, value } => {
                self.engine.set_option(&name, value.as_deref())?
            }
            Command::Position { start, moves } => self.engine.set_position(&start, &moves)?,
            Command::PositionFile { path, moves } => {
                let text = match self.read_position_file(&path) {
                    Ok(t) => t,
                    Err(why) => {
                        let path = crate::core::spec::clip(&path);
                        self.engine
                            .refuse_position(&format!("position file {path}: {why}"));
                        return Err(Error::PositionFile { path, why });
                    }
                };
                let changed = self.engine.set_position_file(&text, &moves)?;
                if !changed.is_empty() {
                    let set: Vec<String> =
                        changed.iter().map(|(n, v)| format!("{n} {v}")).collect();
                    self.out.line(&format!(
                        "info string position file: set {} from the file",
                        set.join(", ")
                    ));
                }
            }
            Command::File => {
                for l in self.engine.position_file()?.lines() {
                    self.out.line(l);
                }
            }
            Command::RefusedPosition(why) => {
                self.engine.refuse_position(&why.to_string());
                return Err(Error::RefusedPosition(why));
            }
            Command::Go(p) => self.engine.go(&p, Arc::new(Printer(self.out.clone())))?,
            Command::Stop => self.stop(),
            Command::Quit => {
                self.finish(true);
                return Ok(Flow::Quit);
            }
            Command::Perft(d) => {
                self.idle()?;
                let job = self.engine.perft_job(d)?;
                self.start_job("perft", job)?;
            }
            Command::Moves => {
                let ms = self.engine.legal_moves()?;
                let mut line = "moves".to_string();
                for m in ms {
                    line.push(' ');
                    line.push_str(&m);
                }
                self.out.line(&line);
            }
            Command::Display => {
                for l in self.engine.display()?.lines() {
                    self.out.line(l);
                }
            }
            Command::Eval => {
                for l in self.engine.eval()? {
                    self.out.line(&l);
                }
            }
            Command::Solve => {
                self.idle()?;
                let job = self.engine.solve_job()?;
                self.start_job("solve", job)?;
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
    fn idle(&mut self) -> Result<(), Error> {
        if let Some(why) = self.engine.broken() {
            return Err(Error::Broken(why.clone()));
        }
        if self.job_running() || self.engine.searching() {
            return Err(crate::engine::Error::Busy.into());
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
        self.engine.finish(stop_now);
    }

    fn uci(&mut self) {
        let o = &self.out;
        o.line(&format!("id name tablero {}", env!("CARGO_PKG_VERSION")));
        o.line("id author the tablero developers");
        for spec in self.engine.options() {
            o.line(&match spec.kind {
                OptionType::Spin { default, min, max } => format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    spec.name
                ),
                OptionType::Combo { default, vars } => {
                    let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                    format!(
                        "option name {} type combo default {default} {}",
                        spec.name,
                        vars.join(" ")
                    )
                }
            });
        }
        o.line("uciok");
    }
}

/// Runs the protocol loop until `quit` or end of input. Reads `input` on its own thread so that
/// `stop` and `isready` are seen while a search runs.
pub fn run(kind: GameKind, input: impl BufRead + Send + 'static, out: Out) {
    run_with(kind, input, out, EngineConfig::default(), None);
}

/// [`run`] with the engine set up by `cfg` (a server bounds `Hash`; the fuzz targets, which run
/// thousands of sessions a second, start with a small table) and an optional `filter` in front
/// of the session.
pub fn run_with(
    kind: GameKind,
    input: impl BufRead + Send + 'static,
    out: Out,
    cfg: EngineConfig,
    mut filter: Option<Box<dyn Filter>>,
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
    let mut session = Session::new(kind, out.clone(), cfg);
    if let Some(e) = session.engine.broken() {
        log::warn!("{e}");
    }
    if let Some(f) = filter.as_mut() {
        for cmd in f.start() {
            session.apply(cmd);
        }
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
    'session: loop {
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
        let cmds = match msg {
            Ok(Some(input::Line::TooLong(n))) => {
                out.error(
                    &LineError::TooLong {
                        bytes: n,
                        limit: parse::MAX_LINE,
                    }
                    .to_string(),
                );
                continue;
            }
            Ok(Some(input::Line::Text(line))) => match read(&line) {
                Err(e) => {
                    out.error(&e.to_string());
                    continue;
                }
                Ok(cmd) => match filter.as_mut() {
                    Some(f) => f.filter(cmd, &out),
                    None => vec![cmd],
                },
            },
            Ok(Some(input::Line::End)) | Ok(None) | Err(()) => {
                eof = true;
                continue;
            }
        };
        for cmd in cmds {
            let immediate = matches!(
                cmd,
                Command::IsReady | Command::Stop | Command::Quit | Command::Empty
            );
            if !immediate && (session.busy_finite() || !pending.is_empty()) {
                // The queue is capped so that a peer streaming commands behind a long search
                // cannot grow the memory without bound.
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
                break 'session;
            }
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
