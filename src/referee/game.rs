//! One refereed game: the handshake, then per ply `position … moves …` + `go …`, every
//! `bestmove` validated against the referee's own copy of the game (the fallible `try_play`),
//! clocks kept by the referee. Every way a game can end has a named reason; the engine at fault
//! loses. Engines that crashed or overstepped their time are closed so that the next game gets a
//! fresh process (a late `bestmove` must never leak into the next game).

use std::fs::File;
use std::time::{Duration, Instant};

use crate::core::game::{Game, Outcome, Side, try_play};
use crate::games::GameKind;

use super::engine::{Conn, EngineSpec, Recv, deadline_after};

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

impl MoveLimits {
    /// The `go` line for a move with clocks `clocks` (ms left, by seat).
    fn go_line(&self, clocks: [u64; 2]) -> String {
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
        if let Some((_, inc)) = self.tc_ms {
            s += &format!(
                " wtime {} btime {} winc {inc} binc {inc}",
                clocks[0], clocks[1]
            );
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
    /// needed, then `ucinewgame` + `isready`/`readyok`.
    pub fn prepare(
        &mut self,
        kind: GameKind,
        variant: &[(String, String)],
        timeout: Duration,
        log: Option<File>,
    ) -> Result<(), (Reason, String)> {
        if self.conn.is_none() {
            let c = Conn::start(&self.spec, kind).map_err(|e| (Reason::Crash, e))?;
            c.set_log(log.as_ref().and_then(|f| f.try_clone().ok()));
            self.conn = Some(c);
            let c = self.conn.as_mut().ok_or((Reason::Crash, String::new()))?;
            c.send("uci");
            match c.wait_for("uciok", deadline_after(timeout)) {
                Recv::Line(_) => {}
                Recv::Timeout => return Err((Reason::Time, "no 'uciok' in time".into())),
                Recv::Closed => return Err((Reason::Crash, "exited before 'uciok'".into())),
            }
            c.send(&format!("setoption name UCI_Variant value {}", kind.name()));
            for (n, v) in variant.iter().chain(&self.options) {
                c.send(&format!("setoption name {n} value {v}"));
            }
        } else if let Some(c) = self.conn.as_ref() {
            c.set_log(log);
        }
        let c = self.conn.as_mut().ok_or((Reason::Crash, String::new()))?;
        c.send("ucinewgame");
        c.send("isready");
        match c.wait_for("readyok", deadline_after(timeout)) {
            Recv::Line(_) => Ok(()),
            Recv::Timeout => Err((Reason::Time, "no 'readyok' in time".into())),
            Recv::Closed => Err((Reason::Crash, "exited before 'readyok'".into())),
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

/// Plays one game. `seats[0]` plays `Side::First`.
pub fn play<G: Game>(
    start: &Start<G>,
    seats: [&mut Slot; 2],
    limits: &MoveLimits,
    max_plies: usize,
) -> GameOutcome {
    let mut state = start.state;
    let mut history: Vec<String> = start.moves.clone();
    let mut rec = GameOutcome {
        winner: None,
        reason: Reason::Normal,
        detail: String::new(),
        moves: Vec::new(),
        junk: 0,
    };
    let mut clocks = [limits.tc_ms.map_or(0, |t| t.0); 2];
    let lose = |mut rec: GameOutcome, side: Side, reason: Reason, detail: String| {
        rec.winner = Some(side.other());
        rec.reason = reason;
        rec.detail = detail;
        rec
    };
    loop {
        if let Some(o) = state.outcome() {
            rec.winner = match o {
                Outcome::Win(s) => Some(s),
                Outcome::Draw => None,
            };
            return rec;
        }
        if rec.moves.len() >= max_plies {
            rec.reason = Reason::MaxPlies;
            rec.detail = format!("no result after {max_plies} plies");
            return rec;
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
        let go = limits.go_line(clocks);
        let t0 = Instant::now();
        let deadline = deadline_after(limits.allowance(clocks[side.index()]));
        if !(conn.send(&pos) && conn.send(&go)) {
            slot.reset();
            return lose(
                rec,
                side,
                Reason::Crash,
                "input closed (engine gone)".into(),
            );
        }
        let (mut depth, mut score) = (None, None);
        let reply = loop {
            match conn.recv(deadline) {
                Recv::Line(l) => {
                    let tokens: Vec<&str> = l.split_whitespace().collect();
                    match tokens.first().copied() {
                        Some("bestmove") => break Ok(tokens.get(1).map(|s| s.to_string())),
                        Some("info") => {
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
                                rec.junk += 1;
                            }
                        }
                    }
                }
                Recv::Timeout => break Err(Reason::Time),
                Recv::Closed => break Err(Reason::Crash),
            }
        };
        let elapsed = t0.elapsed();
        let ms = elapsed.as_millis() as u64;
        let mv = match reply {
            Err(Reason::Time) => {
                slot.reset();
                return lose(
                    rec,
                    side,
                    Reason::Time,
                    format!("no bestmove within {} ms", (deadline - t0).as_millis()),
                );
            }
            Err(r) => {
                slot.reset();
                return lose(rec, side, r, "engine exited or disconnected".into());
            }
            Ok(None) => return lose(rec, side, Reason::Illegal, "empty bestmove".into()),
            Ok(Some(m)) => m,
        };
        state = match try_play(&state, &mv) {
            Ok(s) => s,
            Err(e) => {
                let shown: String = mv.chars().take(40).collect();
                return lose(rec, side, Reason::Illegal, format!("'{shown}': {e}"));
            }
        };
        if let Some((_, inc)) = limits.tc_ms {
            let c = &mut clocks[side.index()];
            *c = c.saturating_sub(ms).saturating_add(inc);
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
            l.go_line([700, 900]),
            "go depth 4 wtime 700 btime 900 winc 50 binc 50"
        );
        assert_eq!(l.allowance(700), Duration::from_millis(720));
        let m = MoveLimits {
            movetime_ms: Some(100),
            margin_ms: 5,
            timeout_ms: 9999,
            ..MoveLimits::default()
        };
        assert_eq!(m.go_line([0, 0]), "go movetime 100");
        assert_eq!(m.allowance(0), Duration::from_millis(105));
        let d = MoveLimits {
            nodes: Some(1000),
            margin_ms: u64::MAX,
            timeout_ms: 321,
            ..MoveLimits::default()
        };
        assert_eq!(d.go_line([0, 0]), "go nodes 1000");
        assert_eq!(d.allowance(0), Duration::from_millis(321));
        let huge = MoveLimits {
            movetime_ms: Some(u64::MAX),
            margin_ms: u64::MAX,
            ..MoveLimits::default()
        };
        assert_eq!(huge.allowance(0), Duration::from_millis(u64::MAX));
        let _ = deadline_after(huge.allowance(0));
    }

    #[test]
    fn reason_names_round_trip() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_name(r.name()), Some(r));
        }
        assert_eq!(Reason::from_name("resign"), None);
    }
}
