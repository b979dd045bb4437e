//! Engine connections for the referee and `play`: a child process, a built-in player running
//! in-process, or a TCP peer. Every transport is reduced to a line writer plus a reader thread
//! that feeds a channel, so reading with a deadline is one `recv_timeout` and a dead engine
//! (exit, crash, dropped connection) shows up as a closed channel. Optional raw I/O logging.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::error::ParseError;
use crate::games::GameKind;
use crate::players::{self, Player};
use crate::protocol::Out;
use crate::protocol::pipe::{ChannelReader, ChannelWriter};

/// How to reach an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// A command line (program and arguments).
    Command(Vec<String>),
    /// A built-in player, run in-process.
    Builtin(Player),
    /// `HOST:PORT` of a `tablero serve`.
    Tcp(String),
    /// A course Mancala bot (program and arguments), run through [`crate::mancala_bot::adapter`].
    MancalaBot(Vec<String>),
}

impl EngineSpec {
    /// Parses `builtin:<player>`, `tcp:HOST:PORT`, `mancala-bot:<command line>` or a command
    /// line split like a shell.
    pub fn parse(s: &str) -> Result<EngineSpec, ParseError> {
        if let Some(c) = s.strip_prefix(MANCALA_BOT_PREFIX) {
            let words = shlex::split(c)
                .ok_or_else(|| ParseError::Engine(format!("'{s}': unbalanced quotes")))?;
            if words.is_empty() {
                return Err(ParseError::Engine(format!(
                    "'{s}': expected {MANCALA_BOT_PREFIX}PATH [ARGS]"
                )));
            }
            return Ok(EngineSpec::MancalaBot(words));
        }
        if let Some(p) = s.strip_prefix("builtin:") {
            return Ok(EngineSpec::Builtin(
                Player::from_name(p).map_err(|e| ParseError::Engine(e.to_string()))?,
            ));
        }
        if let Some(a) = s.strip_prefix("tcp:") {
            if !a.contains(':') {
                return Err(ParseError::Engine(format!("'{s}': expected tcp:HOST:PORT")));
            }
            return Ok(EngineSpec::Tcp(a.to_string()));
        }
        let words = shlex::split(s)
            .ok_or_else(|| ParseError::Engine(format!("'{s}': unbalanced quotes")))?;
        if words.is_empty() {
            return Err(ParseError::Engine("empty engine command".into()));
        }
        Ok(EngineSpec::Command(words))
    }

    /// A short default display name.
    pub fn default_name(&self) -> String {
        match self {
            // The program's file name plus its arguments: `tablero --player ninja2`.
            EngineSpec::Command(w) => {
                let prog = std::path::Path::new(&w[0])
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_else(|| w[0].clone());
                std::iter::once(prog)
                    .chain(w[1..].iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            EngineSpec::Builtin(p) => p.name().to_string(),
            EngineSpec::Tcp(a) => format!("tcp:{a}"),
            EngineSpec::MancalaBot(w) => std::path::Path::new(&w[0])
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| w[0].clone()),
        }
    }
}

/// The spec prefix of a course Mancala bot binary.
pub const MANCALA_BOT_PREFIX: &str = "mancala-bot:";

/// `now + d`, saturating far in the future instead of overflowing (huge `--timeout` values).
pub fn deadline_after(d: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(d)
        .or_else(|| now.checked_add(Duration::from_secs(365 * 86_400)))
        .unwrap_or(now)
}

/// What a read with a deadline returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recv {
    Line(String),
    Timeout,
    Closed,
}

/// What a wait for an answer returned, with an engine's refusal told apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The line awaited.
    Line(String),
    /// An `info string error …` line came first: the engine refused a command sent before
    /// (protocol.md: one such line per refused command). The engine's own line.
    Refused(String),
    Timeout,
    Closed,
}

/// `line` when it is an engine's refusal of a command (`info string error…`), trimmed.
pub fn refusal(line: &str) -> Option<&str> {
    let t = line.trim();
    t.starts_with("info string error").then_some(t)
}

/// Raw I/O log of one engine, shared with its reader threads.
pub type Log = Arc<Mutex<Option<(File, Instant)>>>;

fn log_line(log: &Log, dir: &str, line: &str) {
    if let Ok(mut g) = log.lock()
        && let Some((f, t0)) = g.as_mut()
    {
        let _ = writeln!(f, "{:>8} {dir} {line}", t0.elapsed().as_millis());
    }
}

/// Lines of the engine's stderr kept to explain a failure, and their longest length.
const STDERR_TAIL_LINES: usize = 4;
const STDERR_TAIL_CHARS: usize = 160;

/// What went over one connection, for failure reports and the `RUST_LOG=info` summary: lines
/// sent, received on stdout, received on stderr, and the last stderr lines.
#[derive(Default)]
pub struct Traffic {
    sent: AtomicU64,
    received: AtomicU64,
    stderr: AtomicU64,
    tail: Mutex<VecDeque<String>>,
}

impl Traffic {
    /// (sent, received, stderr) line counts.
    pub fn counts(&self) -> (u64, u64, u64) {
        (
            self.sent.load(Ordering::Relaxed),
            self.received.load(Ordering::Relaxed),
            self.stderr.load(Ordering::Relaxed),
        )
    }

    /// The last stderr lines, joined by ` | ` (empty when the engine wrote none).
    pub fn stderr_tail(&self) -> String {
        self.tail
            .lock()
            .map(|t| t.iter().cloned().collect::<Vec<_>>().join(" | "))
            .unwrap_or_default()
    }
}

/// A live connection to an engine.
pub struct Conn {
    writer: Option<Box<dyn Write + Send>>,
    rx: mpsc::Receiver<String>,
    child: Option<Child>,
    tcp: Option<TcpStream>,
    builtin: Option<JoinHandle<()>>,
    log: Log,
    traffic: Arc<Traffic>,
}

/// Which stream a reader thread copies.
#[derive(Clone, Copy)]
enum Stream {
    Stdout,
    Stderr,
}

/// Copies lines of `r` into the log and, when `tx` is given, into the channel (stderr is only
/// logged and kept as the failure tail: it must not keep the channel open after the engine's
/// stdout closed).
fn spawn_reader(
    r: impl Read + Send + 'static,
    tx: Option<mpsc::Sender<String>>,
    log: Log,
    traffic: Arc<Traffic>,
    stream: Stream,
) {
    std::thread::spawn(move || {
        let mut r = BufReader::new(r);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let l = String::from_utf8_lossy(&buf);
                    let l = l.trim_end_matches(['\n', '\r']).to_string();
                    match stream {
                        Stream::Stdout => {
                            log_line(&log, "<", &l);
                            traffic.received.fetch_add(1, Ordering::Relaxed);
                        }
                        Stream::Stderr => {
                            log_line(&log, "!", &l);
                            traffic.stderr.fetch_add(1, Ordering::Relaxed);
                            if !l.trim().is_empty()
                                && let Ok(mut t) = traffic.tail.lock()
                            {
                                if t.len() == STDERR_TAIL_LINES {
                                    t.pop_front();
                                }
                                t.push_back(l.trim().chars().take(STDERR_TAIL_CHARS).collect());
                            }
                        }
                    }
                    if let Some(tx) = &tx
                        && tx.send(l).is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
}

/// Why an engine could not be started or reached.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot start '{program}': {why}")]
    Spawn {
        program: String,
        why: std::io::Error,
    },
    #[error("no {0} pipe")]
    NoPipe(&'static str),
    #[error("{MANCALA_BOT_PREFIX}{program}: a course bot plays mancala, not {game}")]
    NotMancala { program: String, game: &'static str },
    /// The course bot's adapter refused to start (its words).
    #[error("{0}")]
    MancalaBot(crate::mancala_bot::SpawnError),
    #[error("tcp:{addr}: {why}")]
    Tcp { addr: String, why: std::io::Error },
    #[error("tcp:{addr}: no address")]
    NoAddress { addr: String },
}

impl Conn {
    /// An engine that runs in a thread of this process (a built-in player, the Mancala bot's
    /// adapter), speaking over two channels: `spawn` gets the engine's ends and starts it.
    fn in_process(
        tx: mpsc::Sender<String>,
        rx: mpsc::Receiver<String>,
        log: Log,
        traffic: Arc<Traffic>,
        spawn: impl FnOnce(
            BufReader<ChannelReader>,
            ChannelWriter,
        ) -> Result<JoinHandle<()>, StartError>,
    ) -> Result<Conn, StartError> {
        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>();
        let handle = spawn(
            BufReader::new(ChannelReader::new(in_rx)),
            ChannelWriter(out_tx),
        )?;
        spawn_reader(
            ChannelReader::new(out_rx),
            Some(tx),
            log.clone(),
            traffic.clone(),
            Stream::Stdout,
        );
        Ok(Conn {
            writer: Some(Box::new(ChannelWriter(in_tx))),
            rx,
            child: None,
            tcp: None,
            builtin: Some(handle),
            log,
            traffic,
        })
    }

    /// Starts (spawns, connects to) the engine. `kind` is the game a built-in player starts in.
    pub fn start(spec: &EngineSpec, kind: GameKind) -> Result<Conn, StartError> {
        let log: Log = Arc::new(Mutex::new(None));
        let traffic = Arc::new(Traffic::default());
        let (tx, rx) = mpsc::channel();
        match spec {
            EngineSpec::Command(words) => {
                let mut child = Command::new(&words[0])
                    .args(&words[1..])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .map_err(|why| StartError::Spawn {
                        program: words[0].clone(),
                        why,
                    })?;
                let stdin = child.stdin.take().ok_or(StartError::NoPipe("stdin"))?;
                let stdout = child.stdout.take().ok_or(StartError::NoPipe("stdout"))?;
                if let Some(err) = child.stderr.take() {
                    // stderr is diagnostics: logged, never parsed.
                    spawn_reader(err, None, log.clone(), traffic.clone(), Stream::Stderr);
                }
                spawn_reader(
                    stdout,
                    Some(tx),
                    log.clone(),
                    traffic.clone(),
                    Stream::Stdout,
                );
                Ok(Conn {
                    writer: Some(Box::new(stdin)),
                    rx,
                    child: Some(child),
                    tcp: None,
                    builtin: None,
                    log,
                    traffic,
                })
            }
            EngineSpec::Builtin(p) => {
                let p = *p;
                Conn::in_process(tx, rx, log, traffic, |input, out| {
                    Ok(std::thread::spawn(move || {
                        players::run(p, kind, input, Out::new(Box::new(out)))
                    }))
                })
            }
            EngineSpec::MancalaBot(words) => {
                if kind != GameKind::Mancala {
                    return Err(StartError::NotMancala {
                        program: words[0].clone(),
                        game: kind.name(),
                    });
                }
                Conn::in_process(tx, rx, log, traffic, |input, out| {
                    crate::mancala_bot::adapter::spawn(words.clone(), input, out)
                        .map_err(StartError::MancalaBot)
                })
            }
            EngineSpec::Tcp(addr) => {
                let tcp = |why| StartError::Tcp {
                    addr: addr.clone(),
                    why,
                };
                let sa = addr
                    .to_socket_addrs()
                    .map_err(tcp)?
                    .next()
                    .ok_or_else(|| StartError::NoAddress { addr: addr.clone() })?;
                let s = TcpStream::connect_timeout(&sa, Duration::from_secs(5)).map_err(tcp)?;
                let _ = s.set_nodelay(true);
                let r = s.try_clone().map_err(tcp)?;
                let w = s.try_clone().map_err(tcp)?;
                spawn_reader(r, Some(tx), log.clone(), traffic.clone(), Stream::Stdout);
                Ok(Conn {
                    writer: Some(Box::new(w)),
                    rx,
                    child: None,
                    tcp: Some(s),
                    builtin: None,
                    log,
                    traffic,
                })
            }
        }
    }

    /// Starts logging raw I/O to `file` (replacing any previous log).
    pub fn set_log(&self, file: Option<File>) {
        if let Ok(mut g) = self.log.lock() {
            *g = file.map(|f| (f, Instant::now()));
        }
    }

    /// What went over this connection so far.
    pub fn traffic(&self) -> &Traffic {
        &self.traffic
    }

    /// Why the engine is gone, for a failure report: its exit status (waiting briefly for a
    /// process that is exiting) and the last lines it wrote on stderr, e.g.
    /// ` (exit code 2; stderr: error: unexpected argument '--palyer' found)`; empty when there is
    /// nothing to say.
    pub fn why_gone(&mut self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = self.child.as_mut() {
            let t = Instant::now();
            let status = loop {
                match c.try_wait() {
                    Ok(Some(s)) => break Some(s),
                    Ok(None) if t.elapsed() < Duration::from_millis(200) => {
                        std::thread::sleep(Duration::from_millis(5))
                    }
                    _ => break None,
                }
            };
            if let Some(s) = status {
                parts.push(match s.code() {
                    Some(code) => format!("exit code {code}"),
                    None => format!("killed ({s})"),
                });
            }
        }
        // The stderr reader may still be draining the last lines of a process that just exited.
        std::thread::sleep(Duration::from_millis(20));
        let tail = self.traffic.stderr_tail();
        if !tail.is_empty() {
            parts.push(format!("stderr: {tail}"));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }

    /// Sends one line. `false` when the engine is gone.
    pub fn send(&mut self, line: &str) -> bool {
        log_line(&self.log, ">", line);
        self.traffic.sent.fetch_add(1, Ordering::Relaxed);
        let Some(w) = self.writer.as_mut() else {
            return false;
        };
        let ok = w
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| w.flush())
            .is_ok();
        if !ok {
            self.writer = None;
        }
        ok
    }

    /// The next line, waiting at most until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(l) => Recv::Line(l),
            Err(mpsc::RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(mpsc::RecvTimeoutError::Disconnected) => Recv::Closed,
        }
    }

    /// Reads until a line starting with `word` (other lines are skipped; they are in the log).
    pub fn wait_for(&mut self, word: &str, deadline: Instant) -> Recv {
        loop {
            match self.recv(deadline) {
                Recv::Line(l) if l.split_whitespace().next() == Some(word) => {
                    return Recv::Line(l);
                }
                Recv::Line(_) => {}
                other => return other,
            }
        }
    }

    /// Reads until a line starting with `word`, as [`Conn::wait_for`], but an `info string
    /// error` line on the way ends the wait as [`Answer::Refused`]: what the engine was sent
    /// before (`setoption`, `position`) was refused, and whatever it answers next was computed
    /// without it.
    pub fn answer(&mut self, word: &str, deadline: Instant) -> Answer {
        loop {
            match self.recv(deadline) {
                Recv::Line(l) if l.split_whitespace().next() == Some(word) => {
                    return Answer::Line(l);
                }
                Recv::Line(l) => {
                    if let Some(r) = refusal(&l) {
                        return Answer::Refused(r.to_string());
                    }
                }
                Recv::Timeout => return Answer::Timeout,
                Recv::Closed => return Answer::Closed,
            }
        }
    }

    /// Ends the engine: `quit`, a short grace period, then kill.
    pub fn close(mut self) {
        self.send("quit");
        self.writer = None;
        if let Some(s) = self.tcp.take() {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
        if let Some(mut c) = self.child.take() {
            let t = Instant::now();
            while t.elapsed() < Duration::from_millis(300) {
                if matches!(c.try_wait(), Ok(Some(_))) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
        // A built-in player ends on end of input once its (depth-limited) search is done;
        // it is not joined so that closing never blocks.
        drop(self.builtin.take());
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        assert_eq!(
            EngineSpec::parse("builtin:Ninja2"),
            Ok(EngineSpec::Builtin(Player::Ninja2))
        );
        assert_eq!(
            EngineSpec::parse("tcp:127.0.0.1:7000"),
            Ok(EngineSpec::Tcp("127.0.0.1:7000".into()))
        );
        assert_eq!(
            EngineSpec::parse("'my engine' --x \"a b\""),
            Ok(EngineSpec::Command(vec![
                "my engine".into(),
                "--x".into(),
                "a b".into()
            ]))
        );
        assert!(EngineSpec::parse("tcp:nohost").is_err());
        assert!(EngineSpec::parse("  ").is_err());
        assert!(EngineSpec::parse("'unclosed").is_err());
        assert!(EngineSpec::parse("builtin:god").is_err());
    }

    #[test]
    fn the_engine_spec_names_a_bot_and_its_arguments() {
        assert_eq!(
            EngineSpec::parse("mancala-bot:./bots/Vela --fast 'a b'"),
            Ok(EngineSpec::MancalaBot(vec![
                "./bots/Vela".into(),
                "--fast".into(),
                "a b".into()
            ]))
        );
        assert_eq!(
            EngineSpec::parse("mancala-bot:/x/VelaBot")
                .unwrap()
                .default_name(),
            "VelaBot"
        );
        assert!(EngineSpec::parse("mancala-bot:").is_err());
        assert!(EngineSpec::parse("mancala-bot:'open").is_err());
    }
}
