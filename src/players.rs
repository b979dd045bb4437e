//! Built-in players: engines of fixed, documented strength for ladders, tests and humans to play
//! against (`tablero --player P`, the referee's `builtin:P`, `tablero play --vs P`).
//!
//! A player is the ordinary protocol loop ([`crate::protocol::run`]) behind a thin filter that
//! owns the strength: every `go` is rewritten to the player's fixed depth (other limits are
//! dropped, `infinite` is kept), `Heuristic`, `Algorithm` and `Solver` are pinned (`solver`
//! solves every position exactly where a solver exists), and `random` answers
//! `go` itself with a seeded pseudo-random legal move. Everything else (`uci`, `isready`,
//! `position`, `d`, `moves`, errors…) is answered by the real protocol, so a player speaks the
//! whole of protocol.md. The filter tracks the position with the same rules so that `random`
//! knows the legal moves; it accepts one extra option, `Seed` (an integer), which only `random`
//! uses.

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, Read};
use std::sync::{Arc, Condvar, Mutex, mpsc};

use crate::core::game::Game;
use crate::core::rng::splitmix64;
use crate::core::spec::{self, StartSpec, Token};
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::protocol::command::{Command, GoParams};
use crate::protocol::{self, Out, parse};

/// The built-in players, weakest first. Depths are plies (single movements); Parchís, whose
/// tree is far bushier (four pieces × dice choices), gets shallower searches so that every
/// level still plays a game in seconds.
///
/// | player | Connect Four, BOOM, Mancala | Parchís |
/// |---|---|---|
/// | `random` | pseudo-random legal move | same |
/// | `greedy` | depth 1, `test` heuristic | depth 1, `test` |
/// | `ninja1` | depth 3, `test` | depth 3, `test` |
/// | `ninja2` | depth 5, `default` | depth 4, `default` |
/// | `ninja3` | depth 9, `default` | depth 5, `default` |
/// | `solver` | Connect Four, Kalah: perfect play (`Solver exact`); BOOM: as `ninja3` | as `ninja3` |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A pseudo-random legal move, a function of the position and the `Seed` option.
    Random,
    /// Depth 1 with the `test` heuristic: grabs what is there now.
    Greedy,
    Ninja1,
    Ninja2,
    Ninja3,
    /// Perfect play where an exact solver exists (Connect Four of any size, Kalah up to 7
    /// pits): every `go` is solved to the end. Elsewhere (BOOM, Parchís) it plays as `ninja3`.
    Solver,
}

impl Player {
    /// Every player, weakest first.
    pub const ALL: [Player; 6] = [
        Player::Random,
        Player::Greedy,
        Player::Ninja1,
        Player::Ninja2,
        Player::Ninja3,
        Player::Solver,
    ];

    /// The name used by `--player`, `builtin:` and `--vs`.
    pub fn name(self) -> &'static str {
        match self {
            Player::Random => "random",
            Player::Greedy => "greedy",
            Player::Ninja1 => "ninja1",
            Player::Ninja2 => "ninja2",
            Player::Ninja3 => "ninja3",
            Player::Solver => "solver",
        }
    }

    /// Parses a player name (case-insensitive).
    pub fn from_name(name: &str) -> Result<Player, String> {
        Player::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<_> = Player::ALL.iter().map(|p| p.name()).collect();
                format!(
                    "unknown player '{}' (known: {})",
                    spec::clip(name),
                    names.join(", ")
                )
            })
    }

    /// The fixed search of the player in game `kind`: (depth in plies, heuristic); `None` for
    /// `random`. See the table on [`Player`].
    pub fn recipe(self, kind: GameKind) -> Option<(u64, &'static str)> {
        let parchis = kind == GameKind::Parchis;
        match self {
            Player::Random => None,
            Player::Greedy => Some((1, "test")),
            Player::Ninja1 => Some((3, "test")),
            Player::Ninja2 => Some((if parchis { 4 } else { 5 }, "default")),
            Player::Ninja3 | Player::Solver => Some((if parchis { 5 } else { 9 }, "default")),
        }
    }

    /// The `Solver` option the player is pinned to: `exact` for `solver` (its `go depth` is
    /// then only the fallback for games without a solver), `off` for the others so that their
    /// strength is their search alone whatever `go` they are sent.
    pub fn solver_mode(self) -> &'static str {
        match self {
            Player::Solver => "exact",
            _ => "off",
        }
    }

    /// `Hash` MiB: a small table is plenty for the fixed shallow searches and makes start-up and
    /// game changes (which reallocate the table) fast; the solver needs room for a whole
    /// game's solves.
    pub fn hash_mib(self) -> i64 {
        match self {
            Player::Solver => 256,
            _ => 16,
        }
    }
}

/// Reads bytes sent through a channel: the input side of an in-process pipe. The sender
/// dropping is end of input.
pub struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl ChannelReader {
    /// A reader over `rx`.
    pub fn new(rx: mpsc::Receiver<Vec<u8>>) -> Self {
        ChannelReader {
            rx,
            buf: Vec::new(),
            pos: 0,
        }
    }
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(b) => {
                    self.buf = b;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The writing side of an in-process pipe: each write is sent as one chunk.
pub struct ChannelWriter(pub mpsc::Sender<Vec<u8>>);

impl std::io::Write for ChannelWriter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .send(b.to_vec())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "pipe closed"))?;
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The position as the filter sees it (same rules as the engine), for `random`.
trait Tracker: Send {
    fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> Result<(), String>;
    fn reset(&mut self);
    /// A pseudo-random legal move, a function of the position and `seed`.
    fn random_move(&self, seed: u64) -> Option<String>;
}

struct GameTracker<G: Game> {
    config: G::Config,
    state: G,
}

impl<G: Game> Tracker for GameTracker<G> {
    fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> Result<(), String> {
        self.state = spec::position(&self.config, start, moves).map_err(|e| e.to_string())?;
        Ok(())
    }
    fn reset(&mut self) {
        self.state = G::start(&self.config);
    }
    fn random_move(&self, seed: u64) -> Option<String> {
        let mut ms = G::Moves::default();
        self.state.legal_moves(&mut ms);
        let ms = ms.as_ref();
        if ms.is_empty() {
            return None;
        }
        let r = splitmix64(self.state.hash() ^ splitmix64(seed));
        Some(self.state.format_move(ms[(r % ms.len() as u64) as usize]))
    }
}

struct MakeTracker<'a>(&'a BTreeMap<String, i64>);
impl GameVisitor for MakeTracker<'_> {
    type Output = Result<Box<dyn Tracker>, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let vals: Vec<i64> = G::OPTIONS
            .iter()
            .map(|o| {
                self.0
                    .get(&o.name.to_ascii_lowercase())
                    .copied()
                    .unwrap_or(o.default)
            })
            .collect();
        let config = G::configure(&vals)?;
        Ok(Box::new(GameTracker::<G> {
            config,
            state: G::start(&config),
        }))
    }
}

/// Is `name` (lower case) a variant option of the game?
struct HasOption<'a>(&'a str);
impl GameVisitor for HasOption<'_> {
    type Output = bool;
    fn visit<G: Game>(self) -> bool {
        G::OPTIONS
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(self.0))
    }
}

/// The filter's state.
struct Filter {
    player: Player,
    kind: GameKind,
    values: BTreeMap<String, i64>,
    tracker: Option<Box<dyn Tracker>>,
    seed: u64,
    /// `random`'s answer to a `go infinite`, printed on `stop`.
    pending: Option<String>,
    /// `random`'s answer to the last `go` (move, infinite), printed by the loop once the engine
    /// has answered everything sent before it.
    emit: Option<(String, bool)>,
}

impl Filter {
    fn rebuild(&mut self) {
        self.tracker = dispatch(self.kind, MakeTracker(&self.values))
            .and_then(|t| t)
            .ok();
    }

    /// Handles one input line: returns the lines to forward to the protocol loop.
    fn filter(&mut self, line: &str, out: &Out) -> Vec<String> {
        let Ok(cmd) = parse::parse_line(line) else {
            // The protocol loop reports the error itself.
            return vec![line.to_string()];
        };
        match cmd {
            Command::SetOption { name, value } => {
                let lower = name.to_ascii_lowercase();
                match lower.as_str() {
                    // The heuristic's weights and the number of lines are part of the pinned
                    // strength too.
                    "heuristic" | "algorithm" | "solver" | "multipv" => {
                        out.line(&format!(
                            "info string {name} is fixed for player {}; ignored",
                            self.player.name()
                        ));
                        return vec![];
                    }
                    _ if crate::protocol::is_weight_option(&lower) => {
                        out.line(&format!(
                            "info string {name} is fixed for player {}; ignored",
                            self.player.name()
                        ));
                        return vec![];
                    }
                    "seed" => {
                        match value.as_deref().map(|v| v.trim().parse::<u64>()) {
                            Some(Ok(n)) => self.seed = n,
                            _ => out.error("setoption Seed: expects a non-negative integer"),
                        }
                        return vec![];
                    }
                    "uci_variant" => {
                        if let Some(k) = value.as_deref().and_then(|v| GameKind::from_name(v).ok())
                        {
                            self.kind = k;
                            self.rebuild();
                        }
                    }
                    // A variant option of the current game resets it, as in the engine; other
                    // options (Hash…) leave the position alone.
                    _ if dispatch(self.kind, HasOption(&lower)).unwrap_or(false) => {
                        if let Some(n) = value.as_deref().and_then(|v| v.trim().parse().ok()) {
                            let old = self.values.insert(lower.clone(), n);
                            self.rebuild();
                            if self.tracker.is_none() {
                                match old {
                                    Some(v) => self.values.insert(lower, v),
                                    None => self.values.remove(&lower),
                                };
                                self.rebuild();
                            }
                        }
                    }
                    _ => {}
                }
                vec![line.to_string()]
            }
            Command::Position { start, moves } => {
                if let Some(t) = self.tracker.as_mut() {
                    let _ = t.set_position(&start, &moves);
                }
                vec![line.to_string()]
            }
            Command::UciNewGame => {
                if let Some(t) = self.tracker.as_mut() {
                    t.reset();
                }
                vec![line.to_string()]
            }
            Command::Stop => {
                if let Some(m) = self.pending.take() {
                    out.line(&format!("bestmove {m}"));
                }
                vec![line.to_string()]
            }
            Command::Go(p) => match self.player.recipe(self.kind) {
                Some((depth, _)) => vec![go_line(depth, &p)],
                None => {
                    let m = self
                        .tracker
                        .as_ref()
                        .and_then(|t| t.random_move(self.seed))
                        .unwrap_or_else(|| "(none)".to_string());
                    self.emit = Some((m, p.infinite));
                    vec![]
                }
            },
            _ => vec![line.to_string()],
        }
    }
}

fn go_line(depth: u64, p: &GoParams) -> String {
    if p.infinite {
        format!("go depth {depth} infinite")
    } else {
        format!("go depth {depth}")
    }
}

/// `readyok`s expected from the engine, oldest first: `true` for the filter's own `isready`
/// (used to wait until the engine has answered everything sent before), `false` for the
/// user's; plus a count of the filter's ones seen.
type Syncs = Arc<(Mutex<(VecDeque<bool>, u64)>, Condvar)>;

/// The engine's output on its way out: swallows the `readyok`s the filter asked for itself.
struct Tap {
    out: Out,
    syncs: Syncs,
    partial: Vec<u8>,
}

impl std::io::Write for Tap {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(b);
        while let Some(i) = self.partial.iter().position(|&c| c == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line[..i]).into_owned();
            if text == "readyok" {
                let (lock, cv) = &*self.syncs;
                let mut g = lock.lock().unwrap_or_else(|p| p.into_inner());
                if g.0.pop_front() == Some(true) {
                    g.1 += 1;
                    cv.notify_all();
                    continue;
                }
            }
            self.out.line(&text);
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs player `player` as a protocol engine for game `kind` until `quit` or end of input.
pub fn run(player: Player, kind: GameKind, input: impl BufRead + Send + 'static, out: Out) {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let syncs: Syncs = Arc::new((Mutex::new((VecDeque::new(), 0)), Condvar::new()));
    let engine_out = Out::new(Box::new(Tap {
        out: out.clone(),
        syncs: syncs.clone(),
        partial: Vec::new(),
    }));
    let mut synced = 0u64;
    let engine = std::thread::spawn(move || {
        protocol::run(
            kind,
            std::io::BufReader::new(ChannelReader::new(rx)),
            engine_out,
        )
    });
    let mut filter = Filter {
        player,
        kind,
        values: BTreeMap::new(),
        tracker: None,
        seed: 0,
        pending: None,
        emit: None,
    };
    filter.rebuild();
    let send = |l: &str| tx.send(format!("{l}\n").into_bytes()).is_ok();
    // The strength is pinned; `Heuristic`/`Algorithm` from outside are refused. The heuristic
    // is set again whenever the game changes (it may differ per game).
    send(&format!(
        "setoption name Hash value {}",
        protocol::hash_limit().min(player.hash_mib())
    ));
    let pin = |kind: GameKind| {
        if let Some((_, h)) = player.recipe(kind) {
            send(&format!("setoption name Heuristic value {h}"));
            send("setoption name Algorithm value alphabeta");
            send(&format!(
                "setoption name Solver value {}",
                player.solver_mode()
            ));
        }
    };
    pin(kind);
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        let line = match protocol::input::read_line(&mut input, &mut buf) {
            protocol::input::Line::End => break,
            protocol::input::Line::TooLong(n) => {
                out.error(&protocol::input::too_long(n));
                continue;
            }
            protocol::input::Line::Text(t) => t,
        };
        let line = line.trim_end_matches(['\n', '\r']);
        let parsed = parse::parse_line(line);
        let quit = matches!(parsed, Ok(Command::Quit));
        if matches!(parsed, Ok(Command::IsReady)) {
            let mut g = syncs.0.lock().unwrap_or_else(|p| p.into_inner());
            g.0.push_back(false);
        }
        let before = filter.kind;
        for l in filter.filter(line, &out) {
            if !send(&l) {
                break;
            }
        }
        if let Some((m, infinite)) = filter.emit.take() {
            // `random` answers `go` itself; it waits until the engine has replied to every
            // earlier command (its own `isready` comes back) so that replies stay in order.
            // No search ever runs behind `random`, so nothing is queued in front of `isready`.
            syncs
                .0
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .0
                .push_back(true);
            synced += 1;
            if send("isready") {
                let (lock, cv) = &*syncs;
                let g = lock.lock().unwrap_or_else(|p| p.into_inner());
                let _ =
                    cv.wait_timeout_while(g, std::time::Duration::from_secs(10), |g| g.1 < synced);
            }
            out.line(&format!("info depth 0 string random move {m}"));
            if infinite {
                filter.pending = Some(m);
            } else {
                out.line(&format!("bestmove {m}"));
            }
        }
        if filter.kind != before {
            pin(filter.kind);
        }
        if quit {
            break;
        }
    }
    drop(tx);
    let _ = engine.join();
}
