//! One refereed game: the handshake, then per ply `position … moves …` + `go …`, every
//! `bestmove` validated against the referee's own copy of the game (the fallible `try_play`),
//! clocks kept by the referee. Every way a game can end has a named reason; the engine at fault
//! loses. Engines that crashed or overstepped their time are closed so that the next game gets a
//! fresh process (a late `bestmove` must never leak into the next game).

use std::fs::File;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::core::game::{Game, Outcome, Side, try_play};
use crate::core::spec::clip;
use crate::games::GameKind;

use super::conn::{Answer, Conn, EngineSpec, Recv, deadline_after, refusal};
use super::error::{Error, ParseError, Refused};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The rules ended the game (win or draw).
    Normal,
    /// An illegal, unparsable or missing move.
    Illegal,
    /// A move arrived after the limit plus the margin, or never.
    Time,
    /// The engine exited, could not be started or the connection dropped.
    Crash,
    /// The game was adjudicated a draw after `--max-plies` plies.
    MaxPlies,
}

impl Reason {
    pub const ALL: [Reason; 5] = [
        Reason::Normal,
        Reason::Illegal,
        Reason::Time,
        Reason::Crash,
        Reason::MaxPlies,
    ];

    /// The name used in records, JSON and the table.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Normal => "normal",
            Reason::Illegal => "illegal",
            Reason::Time => "time",
            Reason::Crash => "crash",
            Reason::MaxPlies => "max_plies",
        }
    }

    /// Inverse of [`Reason::name`].
    pub fn from_name(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == s)
    }
}

/// Per-move limits and the referee's patience.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    /// Base time and increment per player, milliseconds.
    pub tc_ms: Option<(u64, u64)>,
    /// Lateness tolerated beyond a time limit (transport, process start-up).
    pub margin_ms: u64,
    /// Longest wait for any answer when no time limit applies (depth/nodes only, handshake).
    pub timeout_ms: u64,
}

/// One engine's own limits (`match --limits1/--limits2`): they replace the shared `--depth`,
/// `--nodes`, `--movetime` and `--tc` for that engine; the margin and timeout stay shared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineLimits {
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    /// Base and increment, ms.
    pub tc_ms: Option<(u64, u64)>,
}

impl EngineLimits {
    /// Parses `KEY=VALUE[,KEY=VALUE…]` with keys `depth`, `nodes`, `movetime` (ms) and `tc`
    /// (BASE+INC seconds), e.g. `depth=8` or `tc=10+0.1`.
    pub fn parse(s: &str) -> Result<EngineLimits, ParseError> {
        let mut l = EngineLimits::default();
        let shown = clip(s);
        let bad = |why: String| ParseError::Limits(why);
        if s.trim().is_empty() {
            return Err(bad("empty; expected e.g. depth=8 or tc=10+0.1".into()));
        }
        for part in s.split(',') {
            let Some((k, v)) = part.split_once('=') else {
                return Err(bad(format!(
                    "'{shown}': '{}' is not KEY=VALUE (keys: depth, nodes, movetime, tc)",
                    clip(part)
                )));
            };
            let (k, v) = (k.trim(), v.trim());
            let number = |what: &str| -> Result<u64, ParseError> {
                v.parse::<u64>().map_err(|_| {
                    bad(format!(
                        "'{shown}': {what} '{}' is not a whole number",
                        clip(v)
                    ))
                })
            };
            match k {
                "depth" => {
                    let d = number("depth")?;
                    if d == 0 {
                        return Err(bad(format!("'{shown}': depth must be at least 1")));
                    }
                    l.depth = Some(d);
                }
                "nodes" => l.nodes = Some(number("nodes")?),
                "movetime" => l.movetime_ms = Some(number("movetime")?),
                "tc" => l.tc_ms = Some(parse_tc(v).map_err(|e| bad(format!("'{shown}': {e}")))?),
                _ => {
                    return Err(bad(format!(
                        "'{shown}': unknown key '{}' (keys: depth, nodes, movetime, tc)",
                        clip(k)
                    )));
                }
            }
        }
        Ok(l)
    }
}

/// Parses `BASE+INC` (seconds, decimals allowed) into milliseconds.
pub fn parse_tc(s: &str) -> Result<(u64, u64), ParseError> {
    let (b, i) = s.split_once('+').unwrap_or((s, "0"));
    let secs = |t: &str| -> Result<u64, ParseError> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| ParseError::Tc(format!("'{t}' is not a number of seconds (BASE+INC)")))?;
        if !(0.0..=1e7).contains(&v) {
            return Err(ParseError::Tc(format!("'{t}' is out of range")));
        }
        Ok((v * 1000.0).round() as u64)
    };
    let (b, i) = (secs(b)?, secs(i)?);
    if b == 0 {
        return Err(ParseError::Tc("the base time must be positive".into()));
    }
    Ok((b, i))
}

impl MoveLimits {
    /// These limits with `own`'s in place of the depth, nodes, movetime and clock.
    pub fn with(&self, own: Option<&EngineLimits>) -> MoveLimits {
        match own {
            None => *self,
            Some(o) => MoveLimits {
                depth: o.depth,
                nodes: o.nodes,
                movetime_ms: o.movetime_ms,
                tc_ms: o.tc_ms,
                ..*self
            },
        }
    }

    /// The `go` line for a move under these limits (the mover's) with the clocks `clocks`
    /// (ms left and increment, by seat; `None` for a seat without a clock). A clock is sent
    /// only to an engine playing on one: its own, and its opponent's when that has one.
    fn go_line(&self, clocks: [Option<(u64, u64)>; 2]) -> String {
        let mut s = "go".to_string();
        if let Some(d) = self.depth {
            s += &format!(" depth {d}");
        }
        if let Some(n) = self.nodes {
            s += &format!(" nodes {n}");
        }
        if let Some(m) = self.movetime_ms {
            s += &format!(" movetime {m}");
        }
        if self.tc_ms.is_some() {
            for (key, c) in [("wtime", clocks[0]), ("btime", clocks[1])] {
                if let Some((left, _)) = c {
                    s += &format!(" {key} {left}");
                }
            }
            for (key, c) in [("winc", clocks[0]), ("binc", clocks[1])] {
                if let Some((_, inc)) = c {
                    s += &format!(" {key} {inc}");
                }
            }
        }
        s
    }

    /// How long the side to move may take (its clock or the movetime, plus the margin).
    fn allowance(&self, clock: u64) -> Duration {
        let limit = match (self.tc_ms, self.movetime_ms) {
            (Some(_), Some(m)) => Some(clock.min(m)),
            (Some(_), None) => Some(clock),
            (None, Some(m)) => Some(m),
            (None, None) => None,
        };
        Duration::from_millis(match limit {
            Some(l) => l.saturating_add(self.margin_ms),
            None => self.timeout_ms,
        })
    }
}

/// What the referee does when an engine answers what it was sent (`setoption`, `position`,
/// `go`) with `info string error`: the engine is not playing what was asked, so nothing it plays
/// measures it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Refusals {
    /// The run stops with the engine's line (`match`, `tournament`, `tune`): checked on every
    /// engine before the first game, and a refused position stops it where it happens.
    #[default]
    Stop,
    /// The run goes on without the engine (`class`: one student's engine must not stop the
    /// class): an engine that refuses its settings is out, every game of it lost by `crash`
    /// with its line as the detail; a refused position loses that game as `illegal`.
    Forfeit,
}

/// Why a seat could not be made ready for a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    /// It did not start, exited or did not answer in time: it loses the game for `reason`.
    #[error("{1}")]
    Lost(Reason, String),
    /// It answered its settings (`UCI_Variant`, the options) with `info string error`: it would
    /// play something else than what was asked. The engine's own line.
    #[error("refused its settings: {0}")]
    Refused(String),
}

/// One engine seat of the referee: how to reach it, its options and the live connection.
pub struct Slot {
    pub spec: EngineSpec,
    pub options: Vec<(String, String)>,
    pub conn: Option<Conn>,
}

impl Slot {
    /// A slot that starts its engine on first use.
    pub fn new(spec: EngineSpec, options: Vec<(String, String)>) -> Slot {
        Slot {
            spec,
            options,
            conn: None,
        }
    }

    /// Makes the engine ready for a new game: starts it (with `uci`, variant and options) if
    /// needed, then `ucinewgame` + `isready`/`readyok`. A fresh engine has `startup` to answer
    /// `uci` (a program that is not an engine of this protocol fails fast), then `timeout` for
    /// `readyok`. Errors say why, with the engine's exit status and last stderr lines; an
    /// `info string error` before `readyok` is [`SeatError::Refused`] (the engine is closed).
    pub fn prepare(
        &mut self,
        kind: GameKind,
        variant: &[(String, String)],
        timeout: Duration,
        startup: Duration,
        log: Option<File>,
    ) -> Result<(), SeatError> {
        let lost = SeatError::Lost;
        if self.conn.is_none() {
            let c =
                Conn::start(&self.spec, kind).map_err(|e| lost(Reason::Crash, e.to_string()))?;
            c.set_log(log.as_ref().and_then(|f| f.try_clone().ok()));
            self.conn = Some(c);
            let c = self
                .conn
                .as_mut()
                .ok_or(lost(Reason::Crash, String::new()))?;
            c.send("uci");
            match c.wait_for("uciok", deadline_after(startup)) {
                Recv::Line(_) => {}
                Recv::Timeout => {
                    return Err(lost(
                        Reason::Time,
                        format!(
                            "did not answer 'uci' with 'uciok' within {} ms (is it an engine of \
                             this protocol?){}",
                            startup.as_millis(),
                            c.why_gone()
                        ),
                    ));
                }
                Recv::Closed => {
                    return Err(lost(
                        Reason::Crash,
                        format!("exited before 'uciok'{}", c.why_gone()),
                    ));
                }
            }
            c.send(&format!("setoption name UCI_Variant value {}", kind.name()));
            for (n, v) in variant.iter().chain(&self.options) {
                c.send(&format!("setoption name {n} value {v}"));
            }
        } else if let Some(c) = self.conn.as_ref() {
            c.set_log(log);
        }
        let c = self
            .conn
            .as_mut()
            .ok_or(lost(Reason::Crash, String::new()))?;
        c.send("ucinewgame");
        c.send("isready");
        match c.answer("readyok", deadline_after(timeout)) {
            Answer::Line(_) => Ok(()),
            Answer::Refused(line) => {
                self.reset();
                Err(SeatError::Refused(line))
            }
            Answer::Timeout => Err(lost(
                Reason::Time,
                format!(
                    "no 'readyok' within {} ms{}",
                    timeout.as_millis(),
                    c.why_gone()
                ),
            )),
            Answer::Closed => Err(lost(
                Reason::Crash,
                format!("exited before 'readyok'{}", c.why_gone()),
            )),
        }
    }

    /// The `RUST_LOG=info` line of this seat's traffic so far.
    fn log_traffic(&self, game: usize, name: &str) {
        if let Some(c) = &self.conn {
            let (sent, received, stderr) = c.traffic().counts();
            log::info!(
                "game {game}: {name}: {sent} lines sent, {received} received, {stderr} on stderr since it started"
            );
        }
    }

    /// Closes the engine; the next game starts a fresh one.
    pub fn reset(&mut self) {
        if let Some(c) = self.conn.take() {
            c.close();
        }
    }
}

/// One ply as recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub mv: String,
    pub time_ms: u64,
    /// Depth and score of the engine's last `info` line before its `bestmove`.
    pub depth: Option<u64>,
    pub score: Option<String>,
}

/// How a game ended, from the seats' point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// The winning seat, `None` for a draw.
    pub winner: Option<Side>,
    pub reason: Reason,
    /// Free text: the illegal move and why, the crash, …
    pub detail: String,
    pub moves: Vec<MoveRecord>,
    /// Output lines that were neither protocol replies nor expected (logged, not fatal).
    pub junk: u64,
}

/// Where the game starts: the referee's state and the `position` prefix engines get.
pub struct Start<G> {
    pub state: G,
    /// `startpos` or `fen <state>`.
    pub base: String,
    /// Opening moves played from `base`.
    pub moves: Vec<String>,
}

fn info_field<'a>(tokens: &'a [&'a str], key: &str) -> Option<&'a [&'a str]> {
    tokens
        .iter()
        .position(|t| *t == key)
        .map(|i| &tokens[i + 1..])
}

const KNOWN: &[&str] = &["info", "bestmove", "readyok", "uciok", "id", "option"];

/// How the wait for a move ended.
enum Reply {
    Move(Option<String>),
    /// `info string error …`: the engine refused the `position` or the `go`.
    Refused(String),
    /// Time or crash.
    Gone(Reason),
}

/// A game's record, and the refusal that ended it, if one did: the side whose engine answered
/// `info string error` to its `position` or `go`, and the engine's line.
pub type Refereed = (GameOutcome, Option<(Side, String)>);

/// Plays one game. `seats[0]` plays `Side::First`, under `limits[0]`. An engine that answers a
/// `position` or `go` with `info string error` loses the game as `illegal` (it was not playing
/// the referee's game), and the refusal is returned beside the record.
pub fn play<G: Game>(
    start: &Start<G>,
    seats: [&mut Slot; 2],
    limits: [&MoveLimits; 2],
    max_plies: usize,
) -> Refereed {
    let mut state = start.state;
    let mut history: Vec<String> = start.moves.clone();
    let mut rec = GameOutcome {
        winner: None,
        reason: Reason::Normal,
        detail: String::new(),
        moves: Vec::new(),
        junk: 0,
    };
    // Left and increment of each seat playing on a clock, ms.
    let mut clocks = [limits[0].tc_ms, limits[1].tc_ms];
    let lose = |mut rec: GameOutcome, side: Side, reason: Reason, detail: String| {
        rec.winner = Some(side.other());
        rec.reason = reason;
        rec.detail = detail;
        (rec, None)
    };
    loop {
        if let Some(o) = state.outcome() {
            rec.winner = match o {
                Outcome::Win(s) => Some(s),
                Outcome::Draw => None,
            };
            return (rec, None);
        }
        if rec.moves.len() >= max_plies {
            rec.reason = Reason::MaxPlies;
            rec.detail = format!("no result after {max_plies} plies");
            return (rec, None);
        }
        let side = state.side_to_move();
        let slot = &mut *seats[side.index()];
        let Some(conn) = slot.conn.as_mut() else {
            return lose(rec, side, Reason::Crash, "engine not running".into());
        };
        let mut pos = format!("position {}", start.base);
        if !history.is_empty() {
            pos += " moves ";
            pos += &history.join(" ");
        }
        let mine = limits[side.index()];
        let go = mine.go_line(clocks);
        let t0 = Instant::now();
        let deadline = deadline_after(mine.allowance(clocks[side.index()].map_or(0, |c| c.0)));
        if !(conn.send(&pos) && conn.send(&go)) {
            let why = conn.why_gone();
            slot.reset();
            return lose(
                rec,
                side,
                Reason::Crash,
                format!("input closed (engine gone){why}"),
            );
        }
        let (mut depth, mut score) = (None, None);
        // A bridge's `info string player fault: …` (protocol.md, Errors): the student's player
        // failed while thinking; it names why the move that follows is illegal.
        let mut fault: Option<String> = None;
        let reply = loop {
            match conn.recv(deadline) {
                Recv::Line(l) => {
                    if let Some(r) = refusal(&l) {
                        break Reply::Refused(r.to_string());
                    }
                    let tokens: Vec<&str> = l.split_whitespace().collect();
                    match tokens.first().copied() {
                        Some("bestmove") => {
                            break Reply::Move(tokens.get(1).map(|s| s.to_string()));
                        }
                        Some("info") => {
                            if let Some(f) = l.trim().strip_prefix("info string player fault: ") {
                                fault = Some(f.to_string());
                            }
                            if let Some(d) = info_field(&tokens, "depth")
                                .and_then(|r| r.first())
                                .and_then(|d| d.parse().ok())
                            {
                                depth = Some(d);
                            }
                            if let Some(r) = info_field(&tokens, "score")
                                && r.len() >= 2
                            {
                                score = Some(format!("{} {}", r[0], r[1]));
                            }
                        }
                        Some(w) if KNOWN.contains(&w) => {}
                        _ => {
                            if !l.trim().is_empty() {
                                log::debug!("junk from the engine: {l}");
                                rec.junk += 1;
                            }
                        }
                    }
                }
                Recv::Timeout => break Reply::Gone(Reason::Time),
                Recv::Closed => break Reply::Gone(Reason::Crash),
            }
        };
        let elapsed = t0.elapsed();
        let ms = elapsed.as_millis() as u64;
        let mv = match reply {
            Reply::Refused(line) => {
                // What it would answer now was computed from another position (or none): the
                // game ends here, and the engine is closed so that the next game starts clean.
                slot.reset();
                let (rec, _) = lose(
                    rec,
                    side,
                    Reason::Illegal,
                    format!("refused the position: {line}"),
                );
                return (rec, Some((side, line)));
            }
            Reply::Gone(Reason::Time) => {
                slot.reset();
                return lose(
                    rec,
                    side,
                    Reason::Time,
                    format!("no bestmove within {} ms", (deadline - t0).as_millis()),
                );
            }
            Reply::Gone(r) => {
                let why = conn.why_gone();
                slot.reset();
                return lose(rec, side, r, format!("engine exited or disconnected{why}"));
            }
            Reply::Move(None) => return lose(rec, side, Reason::Illegal, "empty bestmove".into()),
            // The protocol's answer when the engine's rules say the game is over: the referee's
            // rules play on, so the two differ here (a bridge's course core, another engine).
            Reply::Move(Some(m)) if m == "(none)" && fault.is_some() => {
                let why = fault.unwrap_or_default();
                return lose(rec, side, Reason::Illegal, format!("no move: {why}"));
            }
            Reply::Move(Some(m)) if m == "(none)" => {
                return lose(
                    rec,
                    side,
                    Reason::Illegal,
                    "'bestmove (none)': the engine's rules say the game is over, the referee's \
                     play on (a rule disagreement)"
                        .into(),
                );
            }
            Reply::Move(Some(m)) => m,
        };
        state = match try_play(&state, &mv) {
            Ok(s) => s,
            Err(e) => {
                let shown: String = mv.chars().take(40).collect();
                let why = fault
                    .map(|f| format!(" (the bridge: {f})"))
                    .unwrap_or_default();
                return lose(rec, side, Reason::Illegal, format!("'{shown}': {e}{why}"));
            }
        };
        if let Some((left, inc)) = &mut clocks[side.index()] {
            *left = left.saturating_sub(ms).saturating_add(*inc);
        }
        history.push(mv.clone());
        rec.moves.push(MoveRecord {
            mv,
            time_ms: ms,
            depth,
            score,
        });
    }
}

/// What every game of a match or tournament shares.
pub struct GameContext<'a> {
    pub kind: GameKind,
    /// How long a fresh engine has to answer `uci`.
    pub startup: Duration,
    pub variant: &'a [(String, String)],
    pub max_plies: usize,
    pub log_dir: Option<&'a std::path::Path>,
    /// What an engine's `info string error` does: stop the run, or lose the game.
    pub refusals: Refusals,
}

/// One finished game as recorded: which engine played first, from where, and how it went.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub index: usize,
    /// Engine (0 or 1 of the game's two) that played `Side::First`.
    pub first: usize,
    pub opening_base: String,
    pub opening_moves: Vec<String>,
    pub outcome: GameOutcome,
}

impl GameRecord {
    /// The result as the records write it: `1-0` (the first seat won), `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.outcome.winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The winning engine (0 or 1), `None` for a draw.
    pub fn winner_engine(&self) -> Option<usize> {
        self.outcome.winner.map(|s| match s {
            Side::First => self.first,
            Side::Second => 1 - self.first,
        })
    }
}

/// Plays game number `i` from `start` between the engines of `slots` (engine 1, engine 2,
/// named `names`, under `limits`); engine `first` (0 or 1) moves first. An engine that cannot be
/// made ready loses the game (`crash` or `time`) without a move played. An engine that refuses
/// its settings or a position (`info string error`) is [`Error::EngineRefused`] under
/// [`Refusals::Stop`]; under [`Refusals::Forfeit`] it loses the game (`crash` for its settings,
/// `illegal` for a position), the engine's line in the detail.
#[allow(clippy::too_many_arguments)]
pub fn play_game<G: Game>(
    ctx: &GameContext,
    names: [&str; 2],
    limits: [MoveLimits; 2],
    i: usize,
    first: usize,
    start: Start<G>,
    mut slots: [&mut Slot; 2],
) -> Result<GameRecord, Error> {
    let timeout = Duration::from_millis(limits[0].timeout_ms);
    let mut outcome = None;
    for (seat, e) in [(Side::First, first), (Side::Second, 1 - first)] {
        let log = match ctx.log_dir {
            Some(d) => {
                let name: String = names[e]
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                let p = d.join(format!("game{:05}-e{}-{name}.log", i, e + 1));
                Some(File::create(&p).map_err(|source| Error::Log { path: p, source })?)
            }
            None => None,
        };
        if let Err(err) = slots[e].prepare(ctx.kind, ctx.variant, timeout, ctx.startup, log) {
            slots[e].reset();
            let reason = match (&err, ctx.refusals) {
                (SeatError::Refused(line), Refusals::Stop) => {
                    return Err(Error::EngineRefused {
                        engine: names[e].to_string(),
                        what: Refused::Settings,
                        line: line.clone(),
                    });
                }
                (SeatError::Refused(_), Refusals::Forfeit) => Reason::Crash,
                (SeatError::Lost(reason, _), _) => *reason,
            };
            outcome.get_or_insert(GameOutcome {
                winner: Some(seat.other()),
                reason,
                detail: format!("{}: {err}", names[e]),
                moves: vec![],
                junk: 0,
            });
        }
    }
    let outcome = match outcome {
        Some(o) => o,
        None => {
            let [a, b] = &mut slots;
            let (a, b) = (&mut **a, &mut **b);
            let seats = if first == 0 { [a, b] } else { [b, a] };
            let [l1, l2] = &limits;
            let limits = if first == 0 { [l1, l2] } else { [l2, l1] };
            let (outcome, refused) = play(&start, seats, limits, ctx.max_plies);
            if let (Some((side, line)), Refusals::Stop) = (refused, ctx.refusals) {
                let e = if side == Side::First {
                    first
                } else {
                    1 - first
                };
                return Err(Error::EngineRefused {
                    engine: names[e].to_string(),
                    what: Refused::Position(i),
                    line,
                });
            }
            outcome
        }
    };
    for e in 0..2 {
        slots[e].log_traffic(i, names[e]);
    }
    Ok(GameRecord {
        index: i,
        first,
        opening_base: start.base,
        opening_moves: start.moves,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_line_and_allowance() {
        let l = MoveLimits {
            depth: Some(4),
            tc_ms: Some((1000, 50)),
            margin_ms: 20,
            timeout_ms: 9999,
            ..MoveLimits::default()
        };
        assert_eq!(
            l.go_line([Some((700, 50)), Some((900, 50))]),
            "go depth 4 wtime 700 btime 900 winc 50 binc 50"
        );
        // Own limits: a clock against a fixed depth sends only the clock that exists.
        let own = EngineLimits::parse("tc=10+0.1").unwrap();
        let clocked = m_with(&l, &own);
        assert_eq!(clocked.depth, None);
        assert_eq!(
            clocked.go_line([None, Some((10_000, 100))]),
            "go btime 10000 binc 100"
        );
        let deep = l.with(Some(&EngineLimits::parse("depth=8").unwrap()));
        assert_eq!(deep.go_line([None, Some((10_000, 100))]), "go depth 8");
        assert_eq!(deep.allowance(0), Duration::from_millis(9999));
        assert_eq!(l.with(None), l);
        assert_eq!(l.allowance(700), Duration::from_millis(720));
        let m = MoveLimits {
            movetime_ms: Some(100),
            margin_ms: 5,
            timeout_ms: 9999,
            ..MoveLimits::default()
        };
        assert_eq!(m.go_line([None, None]), "go movetime 100");
        assert_eq!(m.allowance(0), Duration::from_millis(105));
        let d = MoveLimits {
            nodes: Some(1000),
            margin_ms: u64::MAX,
            timeout_ms: 321,
            ..MoveLimits::default()
        };
        assert_eq!(d.go_line([None, None]), "go nodes 1000");
        assert_eq!(d.allowance(0), Duration::from_millis(321));
        let huge = MoveLimits {
            movetime_ms: Some(u64::MAX),
            margin_ms: u64::MAX,
            ..MoveLimits::default()
        };
        assert_eq!(huge.allowance(0), Duration::from_millis(u64::MAX));
        let _ = deadline_after(huge.allowance(0));
    }

    fn m_with(l: &MoveLimits, own: &EngineLimits) -> MoveLimits {
        l.with(Some(own))
    }

    #[test]
    fn engine_limits_parse() {
        assert_eq!(
            EngineLimits::parse("depth=8").unwrap(),
            EngineLimits {
                depth: Some(8),
                ..EngineLimits::default()
            }
        );
        assert_eq!(
            EngineLimits::parse("tc=1+0.01, nodes=500,movetime=20").unwrap(),
            EngineLimits {
                nodes: Some(500),
                movetime_ms: Some(20),
                tc_ms: Some((1000, 10)),
                ..EngineLimits::default()
            }
        );
        for bad in [
            "", "depth", "depth=0", "depth=x", "speed=3", "tc=0+1", "depth=8,",
        ] {
            let e = EngineLimits::parse(bad).unwrap_err().to_string();
            assert!(!e.is_empty() && !e.contains('\n'), "{bad}: {e}");
        }
    }

    #[test]
    fn tc_parsing() {
        assert_eq!(parse_tc("10+0.1"), Ok((10_000, 100)));
        assert_eq!(parse_tc("0.5"), Ok((500, 0)));
        assert!(parse_tc("0+1").is_err());
        assert!(parse_tc("x+1").is_err());
        assert!(parse_tc("1e400").is_err());
        assert!(parse_tc("-3").is_err());
    }

    #[test]
    fn reason_names_round_trip() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_name(r.name()), Some(r));
        }
        assert_eq!(Reason::from_name("resign"), None);
    }
}
