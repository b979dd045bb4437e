//! A course Mancala bot binary as a tablero engine: tablero's protocol on one side (the part a
//! referee or the browser board uses: `uci`, `isready`, `setoption`, `ucinewgame`,
//! `position`, `go`, `stop`, `quit`), the course's line protocol to the bot on the other,
//! exactly as `MancalaNoGUI.jar` speaks it: one request at a time, each answered by the next
//! line the bot prints; a first process only for `GETNAME`, then a fresh process per game
//! (`PING`, `TIMEOUT`, `SETPLAYER`, `GETMOVE`…, `END`).
//!
//! A game's process is started at its first `go`, seated on the side to move, and kept while
//! each new position continues the last one by the opponent's moves (which `GETMOVE` then
//! carries); any other position (a new game, a take-back, the other side to move) ends it and
//! starts another. The bot's misdeeds become tablero answers the referee already judges: a
//! reply that is not a number is sent on as `bestmove <reply>` (visible: `␣` for a space), a
//! bad `PONG`/`OK` as `bestmove PING:<reply>`/`SETPLAYER:<reply>` — illegal moves — each after
//! an `info string mancala-bot:` line saying what happened (not `info string error`, which is
//! a refused command); a bot that exits while it owes an answer
//! ends this engine's output (a crash); one that never answers is the referee's timeout. The
//! bot's stderr becomes `info string bot:` lines (at most [`STDERR_LINES`] a process).
//!
//! Every bot process is killed when it is done with (after a short grace period for `END`),
//! when the adapter ends, and when its owner is dropped.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{Board, PositionWhy, SpawnError, is_course_position, java_parse_int, shown};
use crate::core::game::{Game, Side, try_play};
use crate::games::mancala::{Mancala, MancalaConfig};

/// Bot stderr lines forwarded per process; the rest are counted, not sent.
pub const STDERR_LINES: usize = 1000;
/// Lines a bot may print that no request asked for (the jar would read them as the next
/// answers); more and the process is given up.
pub const UNREAD_LINES: usize = 1000;
/// How long a bot may take to exit after `END` before it is killed.
const END_GRACE: Duration = Duration::from_millis(500);

/// What the adapter's loop reacts to.
enum Ev {
    /// A line from the tablero side.
    Cmd(String),
    /// The tablero side closed its input.
    CmdEnd,
    /// A stdout line of bot process `id`.
    Out(u64, String),
    /// A stderr line of bot process `id`.
    Err(u64, String),
    /// Bot process `id` closed its stdout.
    Eof(u64),
}

/// Which request a bot's next line answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Pong,
    Name,
    TimeoutEcho,
    SetPlayerOk,
    Move,
}

impl Expect {
    fn request(self) -> &'static str {
        match self {
            Expect::Pong => "PING",
            Expect::Name => "GETNAME",
            Expect::TimeoutEcho => "TIMEOUT",
            Expect::SetPlayerOk => "SETPLAYER",
            Expect::Move => "GETMOVE",
        }
    }
}

/// One running bot process.
struct Proc {
    id: u64,
    child: Child,
    stdin: Option<ChildStdin>,
    /// Requests not sent yet: the lines and what the answer is.
    outbox: VecDeque<(Vec<String>, Expect)>,
    /// The request sent and not yet answered.
    inflight: Option<Expect>,
    /// Lines printed while no request was pending: the next request's answer, as in the jar.
    unread: VecDeque<String>,
    stderr_lines: usize,
    /// `SETPLAYER` was sent: the process belongs to a game.
    seated: bool,
}

impl Proc {
    fn spawn(cmd: &[String], id: u64, tx: &Sender<Ev>) -> Result<Proc, SpawnError> {
        let mut child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| SpawnError::Start {
                program: cmd[0].clone(),
                error,
            })?;
        let stdout = child.stdout.take().ok_or(SpawnError::NoPipe("stdout"))?;
        let stderr = child.stderr.take().ok_or(SpawnError::NoPipe("stderr"))?;
        let t = tx.clone();
        read_lines(stdout, move |l| t.send(Ev::Out(id, l)).is_ok(), {
            let t = tx.clone();
            move || {
                let _ = t.send(Ev::Eof(id));
            }
        });
        let t = tx.clone();
        read_lines(stderr, move |l| t.send(Ev::Err(id, l)).is_ok(), || {});
        Ok(Proc {
            id,
            stdin: child.stdin.take(),
            child,
            outbox: VecDeque::new(),
            inflight: None,
            unread: VecDeque::new(),
            stderr_lines: 0,
            seated: false,
        })
    }

    fn queue(&mut self, lines: &[String], e: Expect) {
        self.outbox.push_back((lines.to_vec(), e));
    }

    fn write(&mut self, lines: &[String]) {
        if let Some(w) = self.stdin.as_mut() {
            let mut text = lines.join("\n");
            text.push('\n');
            if w.write_all(text.as_bytes())
                .and_then(|_| w.flush())
                .is_err()
            {
                // The bot is gone; its end of output reports it.
                self.stdin = None;
            }
        }
    }

    /// How the process ended, waiting a moment for it to finish exiting.
    fn exit_status(&mut self) -> String {
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(200) {
            if let Ok(Some(s)) = self.child.try_wait() {
                return s.to_string();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        "still running, output closed".into()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `r` line by line (a trailing `\r` dropped, as Java's `readLine` does) into `line`
/// until it returns `false` or the stream ends, then calls `end`.
fn read_lines(
    r: impl Read + Send + 'static,
    mut line: impl FnMut(String) -> bool + Send + 'static,
    end: impl FnOnce() + Send + 'static,
) {
    std::thread::spawn(move || {
        let mut r = BufReader::new(r);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if buf.last() == Some(&b'\n') {
                        buf.pop();
                    }
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                    if !line(String::from_utf8_lossy(&buf).into_owned()) {
                        break;
                    }
                }
            }
        }
        end();
    });
}

/// The game a bot process plays: its seat and the history it has seen (its own last move
/// included).
struct Seat {
    side: Side,
    base: String,
    known: Vec<String>,
}

/// A position as set by `position`: where it starts, the moves, who played each.
#[derive(Clone)]
struct Position {
    base: String,
    moves: Vec<String>,
    movers: Vec<Side>,
    state: Mancala,
}

/// The adapter's state.
struct Adapter {
    cmd: Vec<String>,
    out: Box<dyn Write + Send>,
    tx: Sender<Ev>,
    rx: Option<Receiver<Ev>>,
    next_id: u64,
    /// The name probe before `uciok`, then the current game's process.
    proc: Option<Proc>,
    retired: Vec<JoinHandle<()>>,
    name: Option<String>,
    /// `uci` was received and waits for the name.
    uci_waiting: bool,
    /// `isready` was received and waits for the next game's process to answer `PING`.
    ready_waiting: bool,
    config: MancalaConfig,
    pos: Position,
    /// Why the last `position` was refused while no legal one followed: `go` is refused, as
    /// the engine refuses it.
    refused: Option<String>,
    seat: Option<Seat>,
    /// The seated process is gone between two moves of its game (why).
    seat_gone: Option<String>,
    /// The position a pending `go` asked about.
    thinking: Option<Position>,
    /// Commands that arrived while `uci` or `go` was being answered.
    queued: VecDeque<String>,
    /// The tablero side is gone or the bot crashed: stop.
    done: bool,
}

/// Starts the adapter for the bot command line `cmd` in its own thread, reading tablero
/// commands from `input` and writing the replies to `out`. Fails when the bot cannot be
/// started; the name probe (`PING`, `GETNAME`) is sent at once.
pub fn spawn(
    cmd: Vec<String>,
    input: impl BufRead + Send + 'static,
    out: impl Write + Send + 'static,
) -> Result<JoinHandle<()>, SpawnError> {
    let a = Adapter::new(cmd, Box::new(out), input)?;
    Ok(std::thread::spawn(move || a.run()))
}

/// Runs the adapter on this thread until `quit` or the end of `input`.
pub fn run(
    cmd: Vec<String>,
    input: impl BufRead + Send + 'static,
    out: impl Write + Send + 'static,
) -> Result<(), SpawnError> {
    Adapter::new(cmd, Box::new(out), input)?.run();
    Ok(())
}

impl Adapter {
    /// An adapter with no bot process yet, at the start position.
    fn idle(
        cmd: Vec<String>,
        out: Box<dyn Write + Send>,
        tx: Sender<Ev>,
        rx: Receiver<Ev>,
    ) -> Adapter {
        let config = MancalaConfig::default();
        Adapter {
            cmd,
            out,
            tx,
            rx: Some(rx),
            next_id: 0,
            proc: None,
            retired: Vec::new(),
            name: None,
            uci_waiting: false,
            ready_waiting: false,
            config,
            pos: Position {
                base: "startpos".into(),
                moves: Vec::new(),
                movers: Vec::new(),
                state: Mancala::start(&config),
            },
            refused: None,
            seat: None,
            seat_gone: None,
            thinking: None,
            queued: VecDeque::new(),
            done: false,
        }
    }

    fn new(
        cmd: Vec<String>,
        out: Box<dyn Write + Send>,
        input: impl BufRead + Send + 'static,
    ) -> Result<Adapter, SpawnError> {
        if cmd.is_empty() || cmd[0].is_empty() {
            return Err(SpawnError::NoProgram);
        }
        let (tx, rx) = mpsc::channel();
        let mut a = Adapter::idle(cmd, out, tx.clone(), rx);
        let mut p = a.start_proc()?;
        p.queue(&["PING".into()], Expect::Pong);
        p.queue(&["GETNAME".into()], Expect::Name);
        a.proc = Some(p);
        a.pump();
        let t = tx;
        read_lines(input, move |l| t.send(Ev::Cmd(l)).is_ok(), {
            let t = a.tx.clone();
            move || {
                let _ = t.send(Ev::CmdEnd);
            }
        });
        Ok(a)
    }

    fn start_proc(&mut self) -> Result<Proc, SpawnError> {
        self.next_id += 1;
        Proc::spawn(&self.cmd, self.next_id, &self.tx)
    }

    /// The event loop.
    fn run(mut self) {
        let Some(rx) = self.rx.take() else {
            return;
        };
        while !self.done {
            let Ok(ev) = rx.recv() else {
                break;
            };
            match ev {
                Ev::Cmd(line) => self.command(line),
                // End of input is `quit` once the waiting commands are carried out.
                Ev::CmdEnd if self.busy() => self.queued.push_back("quit".into()),
                Ev::CmdEnd => self.quit(),
                Ev::Out(id, line) => {
                    if let Some(p) = self.proc.as_mut().filter(|p| p.id == id) {
                        p.unread.push_back(line);
                        if p.unread.len() > UNREAD_LINES {
                            self.flooded();
                        } else {
                            self.pump();
                        }
                    }
                }
                Ev::Err(id, line) => {
                    if let Some(p) = self.proc.as_mut().filter(|p| p.id == id) {
                        p.stderr_lines += 1;
                        let n = p.stderr_lines;
                        if n <= STDERR_LINES {
                            self.say(&format!("info string bot: {line}"));
                        } else if n == STDERR_LINES + 1 {
                            self.say(&format!(
                                "info string bot: (more than {STDERR_LINES} stderr lines; \
                                 the rest are not forwarded)"
                            ));
                        }
                    }
                }
                Ev::Eof(id) => self.bot_ended(id),
            }
        }
        self.shutdown();
    }

    /// Writes one line to the tablero side.
    fn say(&mut self, line: &str) {
        if self
            .out
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| self.out.flush())
            .is_err()
        {
            self.done = true;
        }
    }

    /// A command of the tablero side refused (protocol.md: one `info string error` line per
    /// refused command).
    fn error(&mut self, what: &str) {
        self.say(&format!("info string error: mancala-bot: {what}"));
    }

    /// What the bot did wrong, for the log: not a refusal of a command (a referee would read
    /// `info string error` as one), followed by the `bestmove` it amounts to or by the end of
    /// this engine's output (a crash).
    fn report(&mut self, what: &str) {
        self.say(&format!("info string mancala-bot: {what}"));
    }

    /// Sends requests and matches answers while both are there.
    fn pump(&mut self) {
        loop {
            let Some(p) = self.proc.as_mut() else {
                return;
            };
            if p.inflight.is_none() {
                match p.outbox.pop_front() {
                    Some((lines, e)) => {
                        p.write(&lines);
                        p.inflight = Some(e);
                    }
                    None => return,
                }
            }
            let Some(line) = p.unread.pop_front() else {
                return;
            };
            let Some(e) = p.inflight.take() else {
                return;
            };
            self.answer(e, line);
            if self.done {
                return;
            }
        }
    }

    /// The bot answered request `e` with `line`.
    fn answer(&mut self, e: Expect, line: String) {
        match e {
            Expect::Pong | Expect::SetPlayerOk => {
                let want = if e == Expect::Pong { "PONG" } else { "OK" };
                if !line.eq_ignore_ascii_case(want) {
                    let what = format!(
                        "the bot answered '{}' to {} (expected {want})",
                        shown(&line),
                        e.request()
                    );
                    self.broken(&what, &format!("{}:{}", e.request(), shown(&line)));
                }
                if e == Expect::Pong {
                    self.ready();
                }
            }
            Expect::Name => {
                let name = if line.trim().is_empty() {
                    std::path::Path::new(&self.cmd[0])
                        .file_name()
                        .map(|f| f.to_string_lossy().into_owned())
                        .unwrap_or_else(|| self.cmd[0].clone())
                } else {
                    line.trim().to_string()
                };
                self.name = Some(name);
                // The name probe is done with, as in the jar.
                if let Some(p) = self.proc.take() {
                    self.retire(p);
                }
                if self.uci_waiting {
                    self.uci_waiting = false;
                    self.send_id();
                    self.drain_queue();
                }
            }
            Expect::TimeoutEcho => {}
            Expect::Move => {
                let Some(pos) = self.thinking.take() else {
                    return;
                };
                match java_parse_int(&line) {
                    Some(v) => {
                        let mv = v.to_string();
                        if let Some(seat) = self.seat.as_mut()
                            && try_play(&pos.state, &mv).is_ok()
                        {
                            seat.known = pos.moves.clone();
                            seat.known.push(mv.clone());
                        }
                        self.say(&format!("bestmove {mv}"));
                    }
                    None => {
                        let what = format!(
                            "the bot answered '{}' to GETMOVE, which is not a pit number",
                            shown(&line)
                        );
                        self.report(&what);
                        self.say(&format!("bestmove {}", shown(&line)));
                    }
                }
                self.drain_queue();
            }
        }
    }

    /// Answers a waiting `isready`.
    fn ready(&mut self) {
        if self.ready_waiting {
            self.ready_waiting = false;
            self.say("readyok");
            self.drain_queue();
        }
    }

    /// The bot broke the protocol: `what` for the log, `token` as the move if one is owed.
    fn broken(&mut self, what: &str, token: &str) {
        self.report(what);
        if let Some(p) = self.proc.take() {
            self.retire_now(p);
        }
        self.seat = None;
        if self.thinking.take().is_some() {
            self.say(&format!("bestmove {token}"));
            self.drain_queue();
        } else if self.uci_waiting {
            // No name, no engine: end, as the jar refuses to start such a bot.
            self.done = true;
        }
    }

    /// The bot printed more than [`UNREAD_LINES`] lines nobody asked for (only possible while
    /// no request waits: a waiting request takes the first one at once).
    fn flooded(&mut self) {
        let Some(p) = self.proc.take() else {
            return;
        };
        let what = format!("the bot printed more than {UNREAD_LINES} lines nobody asked for");
        self.report(&what);
        if p.seated {
            self.seat_gone = Some(what);
        } else {
            self.seat = None;
        }
        self.retire_now(p);
        if self.uci_waiting {
            // No name: no engine.
            self.done = true;
        }
        self.ready();
    }

    /// Bot process `id` closed its output.
    fn bot_ended(&mut self, id: u64) {
        let Some(mut p) = self.proc.take_if(|p| p.id == id) else {
            return;
        };
        // Lines still unread were matched already; what is owed now is never coming.
        let owed = p.inflight.or_else(|| p.outbox.front().map(|(_, e)| *e));
        if let Some(e) = owed {
            let status = p.exit_status();
            let what = format!(
                "the bot exited ({status}) without answering {}",
                e.request()
            );
            self.report(&what);
            if self.thinking.is_some() || self.uci_waiting {
                // A crash: the referee sees this engine's output end.
                self.done = true;
            }
        } else if p.seated {
            // Gone in the middle of its game, between two moves: that game's next move is
            // never coming (the jar ends the game there).
            let status = p.exit_status();
            self.seat_gone = Some(format!(
                "the bot exited ({status}) in the middle of its game"
            ));
            drop(p);
            return;
        }
        self.seat = None;
        drop(p);
        // A game's process that died before its game: the next `go` starts another.
        self.ready();
    }

    fn send_id(&mut self) {
        let name = self.name.clone().unwrap_or_default();
        self.say(&format!("id name {name}"));
        self.say("id author a course Mancala bot, through tablero's mancala-bot adapter");
        self.say("option name UCI_Variant type combo default mancala var mancala");
        self.say("uciok");
    }

    /// Runs the commands that waited behind `uci` or `go`, until one has to wait again.
    fn drain_queue(&mut self) {
        while !self.busy() && !self.done {
            let Some(c) = self.queued.pop_front() else {
                return;
            };
            self.command(c);
        }
    }

    fn busy(&self) -> bool {
        self.uci_waiting || self.ready_waiting || self.thinking.is_some()
    }

    fn command(&mut self, line: String) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return;
        };
        match first {
            "quit" => return self.quit(),
            // Ready at once while the bot thinks (as tablero's own protocol); otherwise in
            // turn, once the next game's process (if one is starting) answered PING.
            "isready" if self.thinking.is_some() => return self.say("readyok"),
            "isready" if !self.busy() && self.starting() => {
                self.ready_waiting = true;
                return;
            }
            "isready" if !self.busy() => return self.say("readyok"),
            // A course bot cannot be interrupted; its move comes when it comes.
            "stop" => return,
            _ => {}
        }
        if self.busy() {
            self.queued.push_back(line);
            return;
        }
        match first {
            "uci" => {
                if self.name.is_some() {
                    self.send_id();
                } else {
                    self.uci_waiting = true;
                    if self.proc.is_none() {
                        // The first probe failed or was ended early: ask again.
                        match self.start_proc() {
                            Ok(mut p) => {
                                p.queue(&["PING".into()], Expect::Pong);
                                p.queue(&["GETNAME".into()], Expect::Name);
                                self.proc = Some(p);
                                self.pump();
                            }
                            Err(e) => {
                                self.report(&e.to_string());
                                self.done = true;
                            }
                        }
                    }
                }
            }
            "setoption" => self.setoption(&words[1..]),
            "ucinewgame" => {
                if let Some(p) = self.proc.take() {
                    self.retire(p);
                }
                self.seat = None;
                self.seat_gone = None;
                self.refused = None;
                // The next game's process starts now, as the jar starts it before the game:
                // its start-up is not the first move's time.
                match self.start_proc() {
                    Ok(mut p) => {
                        p.queue(&["PING".into()], Expect::Pong);
                        self.proc = Some(p);
                        self.pump();
                    }
                    Err(e) => {
                        self.report(&e.to_string());
                        self.done = true;
                    }
                }
            }
            "position" => match self.parse_position(&words[1..]) {
                Ok(p) => {
                    self.pos = p;
                    self.refused = None;
                }
                Err(e) => {
                    self.say(&format!(
                        "info string error: position: {e}; {}",
                        crate::engine::error::NO_POSITION_UNTIL
                    ));
                    self.refused = Some(e.to_string());
                }
            },
            "go" => match &self.refused {
                Some(why) => {
                    let e = crate::engine::Error::NoPosition(why.clone());
                    self.say(&format!("info string error: {e}"));
                }
                None => self.go(&words[1..]),
            },
            other => {
                let what = format!(
                    "unknown command '{}' (a course bot takes uci, isready, setoption, \
                     ucinewgame, position, go, stop, quit)",
                    crate::core::spec::clip(other)
                );
                self.say(&format!("info string error: {what}"));
            }
        }
    }

    fn setoption(&mut self, words: &[&str]) {
        let (name, value) = match words {
            ["name", rest @ ..] => match rest.iter().position(|w| *w == "value") {
                Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
                None => (rest.join(" "), String::new()),
            },
            _ => {
                return self
                    .say("info string error: setoption: expected 'name <name> [value <value>]'");
            }
        };
        let lower = name.to_ascii_lowercase();
        let number = value.parse::<u8>();
        match (lower.as_str(), number) {
            ("uci_variant", _) if value.eq_ignore_ascii_case("mancala") => {}
            ("uci_variant", _) => self.say(&format!(
                "info string error: setoption UCI_Variant: a course bot plays mancala only, not '{}'",
                crate::core::spec::clip(&value)
            )),
            ("pits", Ok(v)) if (1..=12).contains(&v) => self.config.pits = v,
            ("seeds", Ok(v)) if (1..=10).contains(&v) => self.config.seeds = v,
            ("pits" | "seeds", _) => self.say(&format!(
                "info string error: setoption {name}: value '{}' is not a valid count",
                crate::core::spec::clip(&value)
            )),
            _ => self.say(&format!(
                "info string error: setoption: a course bot has no option '{}'",
                crate::core::spec::clip(&name)
            )),
        }
        if lower == "pits" || lower == "seeds" {
            self.pos = Position {
                base: "startpos".into(),
                moves: Vec::new(),
                movers: Vec::new(),
                state: Mancala::start(&self.config),
            };
        }
    }

    fn parse_position(&self, words: &[&str]) -> Result<Position, PositionWhy> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let (base, mut state) = match head {
            ["startpos"] => ("startpos".to_string(), Mancala::start(&self.config)),
            ["fen", fen @ ..] if !fen.is_empty() => {
                let text = fen.join(" ");
                let s = Mancala::parse_fen(&text, &self.config).map_err(PositionWhy::Fen)?;
                (format!("fen {text}"), s)
            }
            _ => return Err(PositionWhy::Form),
        };
        let mut out_moves = Vec::new();
        let mut movers = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let mover = state.side_to_move();
            state = try_play(&state, m).map_err(|error| PositionWhy::Move {
                index: i + 1,
                text: (*m).to_string(),
                error,
            })?;
            out_moves.push((*m).to_string());
            movers.push(mover);
        }
        Ok(Position {
            base,
            moves: out_moves,
            movers,
            state,
        })
    }

    fn go(&mut self, words: &[&str]) {
        let pos = self.pos.clone();
        if pos.state.outcome().is_some() {
            return self.say("bestmove (none)");
        }
        if !is_course_position(&pos.state) {
            self.error(&format!(
                "a course bot plays Kalah(6,4) positions only (6 pits a side, 48 seeds), not {}",
                pos.state.format_fen()
            ));
            return self.say("bestmove (none)");
        }
        let side = pos.state.side_to_move();
        if let Some(what) = self.seat_gone.take()
            && let Some(seat) = &self.seat
            && continues(seat, &pos, side).is_some()
        {
            // Its game cannot go on: a crash, as the jar ends the game there.
            self.report(&format!("{what}; no answer to this GETMOVE"));
            self.done = true;
            return;
        }
        let adversary = match (&self.seat, &self.proc) {
            (Some(seat), Some(_)) => continues(seat, &pos, side),
            _ => None,
        };
        let adversary = match adversary {
            Some(a) => a,
            None => {
                // A new game for the bot: a fresh process (the one started by `ucinewgame`
                // if it is still unused), seated on the side to move.
                let fresh = self.proc.take_if(|p| {
                    !p.seated && self.name.is_some() && p.inflight != Some(Expect::Name)
                });
                let mut p = match fresh {
                    Some(p) => p,
                    None => {
                        if let Some(p) = self.proc.take() {
                            self.retire(p);
                        }
                        match self.start_proc() {
                            Ok(mut p) => {
                                p.queue(&["PING".into()], Expect::Pong);
                                p
                            }
                            Err(e) => {
                                // It started once (the name probe): treat this like a crash.
                                self.report(&e.to_string());
                                self.done = true;
                                return;
                            }
                        }
                    }
                };
                let timeout = words
                    .iter()
                    .position(|w| *w == "movetime")
                    .and_then(|i| words.get(i + 1))
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
                p.queue(
                    &["TIMEOUT".into(), timeout.to_string()],
                    Expect::TimeoutEcho,
                );
                p.queue(
                    &["SETPLAYER".into(), side.index().to_string()],
                    Expect::SetPlayerOk,
                );
                p.seated = true;
                self.proc = Some(p);
                self.seat = Some(Seat {
                    side,
                    base: pos.base.clone(),
                    known: Vec::new(),
                });
                trailing_opponent_moves(&pos, side)
            }
        };
        let mut words = vec![adversary.len().to_string()];
        words.extend(adversary);
        words.push(Board::from_state(&pos.state).encode());
        if let Some(p) = self.proc.as_mut() {
            p.queue(&["GETMOVE".into(), words.join(" ")], Expect::Move);
        }
        self.thinking = Some(pos);
        self.pump();
    }

    /// Is a game's process starting (its `PING` not answered yet)?
    fn starting(&self) -> bool {
        self.proc.as_ref().is_some_and(|p| {
            !p.seated
                && (p.inflight == Some(Expect::Pong)
                    || p.outbox.iter().any(|(_, e)| *e == Expect::Pong))
        })
    }

    /// Sends `END` and lets the process go within the grace period.
    fn retire(&mut self, mut p: Proc) {
        p.write(&["END".into()]);
        p.stdin = None;
        self.retired.push(std::thread::spawn(move || {
            let t = Instant::now();
            while t.elapsed() < END_GRACE {
                if matches!(p.child.try_wait(), Ok(Some(_))) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(p);
        }));
        self.retired.retain(|h| !h.is_finished());
    }

    /// Kills a process that broke the protocol (it may not even read any more).
    fn retire_now(&mut self, p: Proc) {
        drop(p);
    }

    fn quit(&mut self) {
        if let Some(p) = self.proc.take() {
            if p.inflight == Some(Expect::Move) {
                // It is thinking (or hung): no point waiting for an END it cannot read.
                self.retire_now(p);
            } else {
                self.retire(p);
            }
        }
        self.done = true;
    }

    fn shutdown(&mut self) {
        if let Some(p) = self.proc.take() {
            self.retire_now(p);
        }
        for h in self.retired.drain(..) {
            let _ = h.join();
        }
    }
}

/// If `pos` continues what `seat` has seen by the opponent's moves only, with `side` (the
/// bot's seat) to move: those moves.
fn continues(seat: &Seat, pos: &Position, side: Side) -> Option<Vec<String>> {
    let k = seat.known.len();
    (seat.side == side
        && seat.base == pos.base
        && pos.moves.len() >= k
        && pos.moves[..k] == seat.known[..]
        && pos.movers[k..].iter().all(|&m| m != side))
    .then(|| pos.moves[k..].to_vec())
}

/// The opponent's moves at the end of the history (since `side`'s last move), which the jar
/// sends a bot that comes to move.
fn trailing_opponent_moves(pos: &Position, side: Side) -> Vec<String> {
    let n = pos.movers.iter().rev().take_while(|&&m| m != side).count();
    pos.moves[pos.moves.len() - n..].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(moves: &[&str]) -> Position {
        let mut state = Mancala::start(&MancalaConfig::default());
        let mut movers = Vec::new();
        for m in moves {
            movers.push(state.side_to_move());
            state = try_play(&state, m).unwrap();
        }
        Position {
            base: "startpos".into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            movers,
            state,
        }
    }

    #[test]
    fn the_opponent_moves_are_those_since_the_bots_last_move() {
        // J1 plays 4 (last seed in its store: again), then 1; J2 to move.
        let p = position(&["4", "1"]);
        assert_eq!(p.state.side_to_move(), Side::Second);
        assert_eq!(trailing_opponent_moves(&p, Side::Second), ["4", "1"]);
        // J2 answers 2; J1 to move sees only that.
        let q = position(&["4", "1", "2"]);
        assert_eq!(trailing_opponent_moves(&q, Side::First), ["2"]);
        let seat = Seat {
            side: Side::First,
            base: "startpos".into(),
            known: vec!["4".into(), "1".into()],
        };
        assert_eq!(continues(&seat, &q, Side::First), Some(vec!["2".into()]));
        // Not a continuation: another history, another seat, another start.
        let other = position(&["4", "2", "2"]);
        assert_eq!(continues(&seat, &other, other.state.side_to_move()), None);
        let j2 = Seat {
            side: Side::Second,
            ..seat
        };
        assert_eq!(continues(&j2, &q, Side::First), None);
        let mut fen = q.clone();
        fen.base = "fen 4,4,4,4,4,4:0/4,4,4,4,4,4:0 S".into();
        let seat = Seat {
            side: Side::First,
            base: "startpos".into(),
            known: vec!["4".into(), "1".into()],
        };
        assert_eq!(continues(&seat, &fen, Side::First), None);
        // An extra turn: the bot moves again and has seen everything.
        let seat = Seat {
            side: Side::First,
            base: "startpos".into(),
            known: vec!["4".into()],
        };
        let again = position(&["4"]);
        assert_eq!(continues(&seat, &again, Side::First), Some(vec![]));
    }
}

#[cfg(test)]
mod refusal_tests {
    use super::*;

    #[test]
    fn a_bot_that_cannot_start_is_its_own_kind() {
        let e = spawn(Vec::new(), std::io::empty(), std::io::sink()).unwrap_err();
        assert!(matches!(e, SpawnError::NoProgram), "{e:?}");
        let missing = "/nonexistent/course-bot".to_string();
        let e = spawn(vec![missing.clone()], std::io::empty(), std::io::sink()).unwrap_err();
        assert!(
            matches!(&e, SpawnError::Start { program, .. } if *program == missing),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("cannot start '/nonexistent/course-bot': "),
            "{e}"
        );
    }

    /// A `position` the adapter cannot give a course bot: each kind, in the words a `position`
    /// error says.
    #[test]
    fn each_position_refusal_is_its_own_kind() {
        // An adapter without a bot process: only its position parsing is used.
        let (tx, rx) = mpsc::channel();
        let a = Adapter::idle(vec!["unused".into()], Box::new(std::io::sink()), tx, rx);
        let p = |t: &str| a.parse_position(&t.split_whitespace().collect::<Vec<_>>());
        assert!(matches!(p("somewhere"), Err(PositionWhy::Form)));
        assert!(matches!(p("fen"), Err(PositionWhy::Form)));
        assert!(matches!(p("fen 1 2 3"), Err(PositionWhy::Fen(_))));
        let Err(e) = p("startpos moves 4 9") else {
            panic!("move 9 played")
        };
        assert!(
            matches!(&e, PositionWhy::Move { index: 2, text, .. } if text == "9"),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("move 2 '9' is illegal: "), "{e}");
        let ok = p("startpos moves 4 1").unwrap();
        assert_eq!(ok.moves, ["4", "1"]);
    }
}
