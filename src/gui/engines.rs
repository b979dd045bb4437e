//! The page's engines: one worker thread per role (first seat, second seat, analysis), each
//! owning at most one [`Conn`] — the referee's connection layer, so the page reaches engines
//! only through the protocol. A worker takes `Think` jobs (position + `go`), forwards every
//! `info` line and the `bestmove` as [`Event`]s, and reports a crash (exit, dropped connection,
//! no handshake) as an event instead of dying: the next job starts the engine again.
//!
//! Jobs carry an id; the session ignores events of ids it no longer waits for, so a job that is
//! superseded (new position, take-back) is simply stopped and its `bestmove` dropped here.

use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use crate::games::GameKind;
use crate::referee::conn::{Answer, Conn, EngineSpec, Recv, StartError, refusal};

/// Which worker.
pub const SEATS_AND_ANALYSIS: usize = 3;
/// The analysis worker's index (seats are 0 and 1).
pub const ANALYSIS: usize = 2;

/// How an engine is set up: restarting happens whenever any of this changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub name: String,
    pub spec: EngineSpec,
    pub kind: GameKind,
    /// `setoption` name/value pairs sent after `UCI_Variant`.
    pub options: Vec<(String, String)>,
}

/// One search request.
#[derive(Clone, Debug)]
pub struct Think {
    pub id: u64,
    pub setup: Setup,
    /// The `position …` line.
    pub position: String,
    /// The `go …` line.
    pub go: String,
    /// Hold the `bestmove` until this long after `go` (watching engine-vs-engine games).
    pub min_time: Duration,
    /// Send `stop` when the search runs longer than this (`None`: only on request).
    pub max_time: Option<Duration>,
}

/// A request to a worker.
#[derive(Clone, Debug)]
pub enum Job {
    Think(Think),
    /// `stop` the search with this id (its `bestmove` is still reported).
    Stop(u64),
}

/// Why a worker's engine stopped serving a job; the page's message says it after the engine's
/// name.
#[derive(Debug, thiserror::Error)]
pub enum EngineFailure {
    #[error("cannot start: {0}")]
    Start(StartError),
    /// No `uciok`/`readyok` within [`HANDSHAKE`].
    #[error("cannot start: no '{0}' within {secs} s", secs = HANDSHAKE.as_secs())]
    Silent(&'static str),
    #[error("cannot start: exited before '{0}'")]
    ExitedBefore(&'static str),
    #[error("cannot start: input closed")]
    StartInputClosed,
    /// It answered its settings with `info string error …` (the line).
    #[error("refused its settings: {0}")]
    RefusedSettings(String),
    /// It answered the position or the `go` with `info string error …` (the line).
    #[error("refused the position: {0}")]
    RefusedPosition(String),
    #[error("input closed (engine gone)")]
    InputClosed,
    #[error("did not answer 'stop' within {} s; killed", STOP_GRACE.as_secs())]
    NoStop,
    #[error("exited or dropped the connection while thinking")]
    Exited,
}

impl EngineFailure {
    /// The engine answered with a refusal: starting it again would get the same answer.
    pub fn refused(&self) -> bool {
        matches!(
            self,
            EngineFailure::RefusedSettings(_) | EngineFailure::RefusedPosition(_)
        )
    }
}

/// What a worker reports.
#[derive(Debug)]
pub enum Event {
    /// An `info` line (not `info string`).
    Info { role: usize, id: u64, line: String },
    /// An `info string …` line: engine diagnostics for the message log.
    Note { role: usize, id: u64, text: String },
    /// The search ended. `think` is `go` sent → `bestmove` received, as seen by the worker.
    Best {
        role: usize,
        id: u64,
        mv: String,
        think: Duration,
        depth: Option<u64>,
        score: Option<String>,
    },
    /// The engine could not start, lost its connection, did not answer or refused the job.
    Failed {
        role: usize,
        id: u64,
        failure: EngineFailure,
    },
    /// The game review (`super::review`) of job `id`.
    Reviewed {
        id: u64,
        result: Result<crate::review::GameReview, super::error::ReviewFailure>,
    },
}

/// Longest wait for `uciok`/`readyok`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Longest wait for `bestmove` after `stop` before the engine is killed.
const STOP_GRACE: Duration = Duration::from_secs(5);
/// How often a thinking worker looks for new jobs.
const POLL: Duration = Duration::from_millis(20);

fn handshake(c: &mut Conn, s: &Setup) -> Result<(), EngineFailure> {
    let wait = |c: &mut Conn, word| match c.wait_for(word, Instant::now() + HANDSHAKE) {
        Recv::Line(_) => Ok(()),
        Recv::Timeout => Err(EngineFailure::Silent(word)),
        Recv::Closed => Err(EngineFailure::ExitedBefore(word)),
    };
    if !c.send("uci") {
        return Err(EngineFailure::StartInputClosed);
    }
    wait(c, "uciok")?;
    let mut ok = c.send(&format!(
        "setoption name UCI_Variant value {}",
        s.kind.name()
    ));
    for (n, v) in &s.options {
        ok &= c.send(&format!("setoption name {n} value {v}"));
    }
    ok &= c.send("ucinewgame") && c.send("isready");
    if !ok {
        return Err(EngineFailure::StartInputClosed);
    }
    match c.answer("readyok", Instant::now() + HANDSHAKE) {
        Answer::Line(_) => Ok(()),
        Answer::Refused(line) => Err(EngineFailure::RefusedSettings(line)),
        Answer::Timeout => Err(EngineFailure::Silent("readyok")),
        Answer::Closed => Err(EngineFailure::ExitedBefore("readyok")),
    }
}

fn field<'a>(tokens: &[&'a str], key: &str) -> Option<&'a str> {
    let i = tokens.iter().position(|t| *t == key)?;
    tokens.get(i + 1).copied()
}

/// Runs one worker until its job channel closes.
pub fn worker(role: usize, jobs: Receiver<Job>, events: Sender<Event>) {
    let mut conn: Option<(Conn, Setup)> = None;
    let mut next: Option<Think> = None;
    loop {
        let job = match next.take() {
            Some(t) => t,
            None => match jobs.recv() {
                Ok(Job::Think(t)) => t,
                Ok(Job::Stop(_)) => continue,
                Err(_) => break,
            },
        };
        let id = job.id;
        let fail = |failure| Event::Failed { role, id, failure };
        if conn.as_ref().is_some_and(|(_, s)| *s != job.setup)
            && let Some((c, _)) = conn.take()
        {
            c.close();
        }
        if conn.is_none() {
            let started = Conn::start(&job.setup.spec, job.setup.kind)
                .map_err(EngineFailure::Start)
                .and_then(|mut c| match handshake(&mut c, &job.setup) {
                    Ok(()) => Ok(c),
                    Err(e) => {
                        c.close();
                        Err(e)
                    }
                });
            match started {
                Ok(c) => conn = Some((c, job.setup.clone())),
                Err(e) => {
                    let _ = events.send(fail(e));
                    continue;
                }
            }
        }
        let Some((c, _)) = conn.as_mut() else {
            continue;
        };
        let t0 = Instant::now();
        if !(c.send(&job.position) && c.send(&job.go)) {
            conn = None;
            let _ = events.send(fail(EngineFailure::InputClosed));
            continue;
        }
        let (mut depth, mut score) = (None, None);
        // Some(deadline) once `stop` was sent; `discard` when a newer job replaced this one.
        let mut stopping: Option<Instant> = None;
        let mut discard = false;
        let mut dead = None;
        loop {
            match c.recv(Instant::now() + POLL) {
                Recv::Line(l) if !discard && refusal(&l).is_some() => {
                    // It refused the position (or the go): no move of it would be for this
                    // position. The engine is closed; the page says why and pauses.
                    dead = Some(EngineFailure::RefusedPosition(l.trim().to_string()));
                    break;
                }
                Recv::Line(l) => {
                    let tokens: Vec<&str> = l.split_whitespace().collect();
                    match tokens.first().copied() {
                        Some("bestmove") => {
                            let think = t0.elapsed();
                            if discard {
                                break;
                            }
                            if let Some(rest) = job.min_time.checked_sub(think) {
                                std::thread::sleep(rest);
                            }
                            let mv = tokens.get(1).copied().unwrap_or("").to_string();
                            let _ = events.send(Event::Best {
                                role,
                                id,
                                mv,
                                think,
                                depth,
                                score,
                            });
                            break;
                        }
                        Some("info") if tokens.get(1) == Some(&"string") && !discard => {
                            let text = l.splitn(3, ' ').nth(2).unwrap_or("").to_string();
                            let _ = events.send(Event::Note { role, id, text });
                        }
                        Some("info") if tokens.get(1) == Some(&"string") => {}
                        Some("info") => {
                            if let Some(d) = field(&tokens, "depth").and_then(|d| d.parse().ok()) {
                                depth = Some(d);
                            }
                            if let Some(i) = tokens.iter().position(|t| *t == "score")
                                && let (Some(a), Some(b)) = (tokens.get(i + 1), tokens.get(i + 2))
                            {
                                score = Some(format!("{a} {b}"));
                            }
                            if !discard {
                                let _ = events.send(Event::Info { role, id, line: l });
                            }
                        }
                        _ => {}
                    }
                }
                Recv::Timeout => {
                    if let Some(d) = stopping {
                        if Instant::now() > d {
                            dead = Some(EngineFailure::NoStop);
                            break;
                        }
                    } else if job.max_time.is_some_and(|m| t0.elapsed() > m) {
                        c.send("stop");
                        stopping = Some(Instant::now() + STOP_GRACE);
                    }
                    match jobs.try_recv() {
                        Ok(Job::Think(t)) => {
                            next = Some(t);
                            discard = true;
                            if stopping.is_none() {
                                c.send("stop");
                                stopping = Some(Instant::now() + STOP_GRACE);
                            }
                        }
                        Ok(Job::Stop(s)) if s == id && stopping.is_none() => {
                            c.send("stop");
                            stopping = Some(Instant::now() + STOP_GRACE);
                        }
                        Ok(Job::Stop(_)) | Err(TryRecvError::Empty) => {}
                        Err(TryRecvError::Disconnected) => {
                            discard = true;
                            if stopping.is_none() {
                                c.send("stop");
                                stopping = Some(Instant::now() + STOP_GRACE);
                            }
                        }
                    }
                }
                Recv::Closed => {
                    dead = Some(EngineFailure::Exited);
                    break;
                }
            }
        }
        if let Some(failure) = dead {
            if let Some((c, _)) = conn.take() {
                c.close();
            }
            if !discard {
                let _ = events.send(fail(failure));
            }
        }
    }
    if let Some((c, _)) = conn.take() {
        c.close();
    }
}
