//! tablero as a course Mancala bot (`tablero mancala-bot`): the course's line protocol on
//! stdin/stdout, read word by word as the course's C++ link reads it (`cin >>`), so that the
//! course's own referee (`MancalaNoGUI.jar`) can seat tablero against a student's bot. Every
//! `GETMOVE` board becomes `position fen …` + `go …` for tablero's ordinary protocol session
//! (or a built-in player's) running in this process; its `bestmove` is the answer. One line on
//! stderr per move says what the search saw (the jar shows bot stderr in its log).

use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::time::Instant;

use super::{Board, BotError, FlagError};
use crate::core::game::Game;
use crate::games::GameKind;
use crate::players::{self, Player};
use crate::protocol::pipe::{ChannelReader, ChannelWriter};
use crate::protocol::{self, Out};

/// Time kept off the referee's `TIMEOUT` when thinking to it (process, pipes, the jar's
/// 50 ms polling); the jar itself allows 500 ms more than it announces.
pub const TIMEOUT_RESERVE_MS: u64 = 100;
/// Depth searched when neither a depth, a move time nor a referee `TIMEOUT` says otherwise.
pub const DEFAULT_DEPTH: u64 = 14;

/// How tablero plays as a bot.
#[derive(Clone, Debug, Default)]
pub struct BotConfig {
    /// The answer to `GETNAME`.
    pub name: String,
    /// A built-in player instead of the full engine (it fixes depth and heuristic).
    pub player: Option<Player>,
    /// `go depth N` for every move.
    pub depth: Option<u64>,
    /// `go movetime MS` for every move.
    pub movetime: Option<u64>,
    /// `setoption` name/value pairs for the engine (`Heuristic`, weights, `Hash`…).
    pub options: Vec<(String, String)>,
}

impl BotConfig {
    /// The configuration from command-line values: `player` a built-in player's name,
    /// `heuristic` one of Mancala's heuristics, `options` `NAME=VALUE` words.
    pub fn from_flags(
        name: &str,
        player: Option<&str>,
        depth: Option<u64>,
        movetime: Option<u64>,
        heuristic: Option<&str>,
        options: &[String],
    ) -> Result<BotConfig, FlagError> {
        if name.trim().is_empty() || name.chars().any(char::is_whitespace) {
            return Err(FlagError::Name(name.to_string()));
        }
        let player = player
            .map(Player::from_name)
            .transpose()
            .map_err(FlagError::Player)?;
        if depth == Some(0) {
            return Err(FlagError::Depth);
        }
        if movetime == Some(0) {
            return Err(FlagError::Movetime);
        }
        let mut opts = Vec::new();
        if let Some(h) = heuristic {
            let known = <crate::games::mancala::Mancala as Game>::HEURISTICS;
            if !known.iter().any(|k| k.eq_ignore_ascii_case(h)) {
                return Err(FlagError::Heuristic {
                    given: h.to_string(),
                    known: known.join(", "),
                });
            }
            opts.push(("Heuristic".to_string(), h.to_string()));
        }
        for o in options {
            let (n, v) = o
                .split_once('=')
                .ok_or_else(|| FlagError::Option(o.clone()))?;
            opts.push((n.trim().to_string(), v.trim().to_string()));
        }
        Ok(BotConfig {
            name: name.to_string(),
            player,
            depth,
            movetime,
            options: opts,
        })
    }
}

/// The in-process engine session.
struct Engine {
    tx: mpsc::Sender<Vec<u8>>,
    rx: BufReader<ChannelReader>,
}

impl Engine {
    fn start(player: Option<Player>) -> Engine {
        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        let (out_tx, out_rx) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            let input = BufReader::new(ChannelReader::new(in_rx));
            let out = Out::new(Box::new(ChannelWriter(out_tx)));
            match player {
                Some(p) => players::run(p, GameKind::Mancala, input, out),
                None => protocol::run(GameKind::Mancala, input, out),
            }
        });
        Engine {
            tx: in_tx,
            rx: BufReader::new(ChannelReader::new(out_rx)),
        }
    }

    fn send(&self, line: &str) -> Result<(), BotError> {
        self.tx
            .send(format!("{line}\n").into_bytes())
            .map_err(|_| BotError::EngineEnded)
    }

    /// Lines until one starts with `word` (returned); `info string error` lines are errors.
    fn until(&mut self, word: &str, mut seen: impl FnMut(&str)) -> Result<String, BotError> {
        let mut line = String::new();
        loop {
            line.clear();
            match self.rx.read_line(&mut line) {
                Ok(0) | Err(_) => return Err(BotError::EngineEnded),
                Ok(_) => {}
            }
            let l = line.trim_end();
            if let Some(e) = l.strip_prefix("info string error: ") {
                return Err(BotError::Engine(e.to_string()));
            }
            if l.split_whitespace().next() == Some(word) {
                return Ok(l.to_string());
            }
            seen(l);
        }
    }
}

/// Words of the input, read like `cin >> word`.
struct Words<R> {
    input: R,
    pending: std::collections::VecDeque<String>,
}

impl<R: BufRead> Words<R> {
    fn next(&mut self) -> Option<String> {
        loop {
            if let Some(w) = self.pending.pop_front() {
                return Some(w);
            }
            let mut line = String::new();
            match self.input.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => self
                    .pending
                    .extend(line.split_whitespace().map(str::to_string)),
            }
        }
    }

    fn number(&mut self, what: &'static str) -> Result<i64, BotError> {
        let w = self.next().ok_or(BotError::InputEnded(what))?;
        w.parse().map_err(|_| BotError::NotNumber { what, word: w })
    }
}

/// Plays the course's protocol on `input`/`out` until `END` or the end of input; `log` gets
/// one line per move. Errors are protocol violations by the referee (the bot then stops).
pub fn run(
    cfg: &BotConfig,
    input: impl BufRead,
    mut out: impl Write,
    mut log: impl Write,
) -> Result<(), BotError> {
    let mut engine = Engine::start(cfg.player);
    engine.send("uci")?;
    engine.until("uciok", |_| {})?;
    for (n, v) in &cfg.options {
        engine.send(&format!("setoption name {n} value {v}"))?;
    }
    engine.send("isready")?;
    engine.until("readyok", |_| {})?;
    let mut words = Words {
        input,
        pending: Default::default(),
    };
    let reply = |out: &mut dyn Write, text: &str| -> Result<(), BotError> {
        writeln!(out, "{text}")
            .and_then(|_| out.flush())
            .map_err(BotError::Write)
    };
    let mut timeout_ms = 0u64;
    let mut player = None;
    while let Some(w) = words.next() {
        match w.as_str() {
            "PING" => reply(&mut out, "PONG")?,
            "GETNAME" => reply(&mut out, &cfg.name)?,
            "BADNAME" => {
                reply(&mut out, "OK")?;
                return Err(BotError::BadName(cfg.name.clone()));
            }
            "TIMEOUT" => {
                let t = words.number("TIMEOUT's milliseconds")?;
                timeout_ms = u64::try_from(t).unwrap_or(0);
                reply(&mut out, "OK")?;
            }
            "SETPLAYER" => {
                let p = words.number("SETPLAYER's player")?;
                if !(0..=1).contains(&p) {
                    return Err(BotError::Seat(p));
                }
                player = Some(p);
                engine.send("ucinewgame")?;
                reply(&mut out, "OK")?;
            }
            "GETMOVE" => {
                let n = words.number("GETMOVE's number of moves")?;
                if !(0..=1000).contains(&n) {
                    return Err(BotError::Count(n));
                }
                for _ in 0..n {
                    words.number("an opponent's move")?;
                }
                let mut b = Vec::new();
                for _ in 0..15 {
                    b.push(words.next().ok_or(BotError::BoardCut)?);
                }
                let refs: Vec<&str> = b.iter().map(String::as_str).collect();
                let board = Board::decode(&refs).map_err(BotError::Board)?;
                if player.is_some_and(|p| p != i64::from(board.turn)) {
                    let _ = writeln!(
                        log,
                        "tablero: asked to move for player {} although seated as {}",
                        board.turn,
                        player.unwrap_or(0)
                    );
                }
                let state = board.to_state().map_err(BotError::State)?;
                if state.outcome().is_some() {
                    return Err(BotError::Over(board.fen()));
                }
                let go = match (cfg.depth, cfg.movetime) {
                    (Some(d), _) => format!("go depth {d}"),
                    (None, Some(ms)) => format!("go movetime {ms}"),
                    (None, None) if timeout_ms > 0 => format!(
                        "go movetime {}",
                        timeout_ms.saturating_sub(TIMEOUT_RESERVE_MS).max(1)
                    ),
                    (None, None) => format!("go depth {DEFAULT_DEPTH}"),
                };
                let t0 = Instant::now();
                engine.send(&format!("position fen {}", state.format_fen()))?;
                engine.send(&go)?;
                let mut last_info = String::new();
                let best = engine.until("bestmove", |l| {
                    if l.starts_with("info depth") {
                        last_info = l.to_string();
                    }
                })?;
                let mv = best.split_whitespace().nth(1).unwrap_or("").to_string();
                state.parse_move(&mv).map_err(|error| BotError::BestMove {
                    text: mv.clone(),
                    error,
                })?;
                let summary: Vec<&str> = last_info
                    .split_whitespace()
                    .skip(1)
                    .take_while(|w| *w != "nodes")
                    .collect();
                let _ = writeln!(
                    log,
                    "tablero: {} → {mv} ({}, {} ms)",
                    board.fen(),
                    summary.join(" "),
                    t0.elapsed().as_millis()
                );
                reply(&mut out, &mv)?;
            }
            "END" => {
                reply(&mut out, "OK")?;
                break;
            }
            other => {
                let _ = writeln!(
                    log,
                    "tablero: ignored '{}' (not a course protocol command)",
                    crate::core::spec::clip(other)
                );
            }
        }
    }
    let _ = engine.send("quit");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::BoardError;
    use super::*;

    fn flags(
        name: &str,
        player: Option<&str>,
        heuristic: Option<&str>,
        options: &[&str],
    ) -> FlagError {
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        BotConfig::from_flags(name, player, None, None, heuristic, &options).unwrap_err()
    }

    #[test]
    fn each_flag_refusal_is_its_own_kind() {
        assert!(
            matches!(flags("two words", None, None, &[]), FlagError::Name(n) if n == "two words")
        );
        assert!(matches!(flags("", None, None, &[]), FlagError::Name(_)));
        assert!(matches!(
            flags("t", Some("god"), None, &[]),
            FlagError::Player(_)
        ));
        assert!(matches!(
            flags("t", None, Some("best"), &[]),
            FlagError::Heuristic { given, .. } if given == "best"
        ));
        assert!(matches!(flags("t", None, None, &["Depth"]), FlagError::Option(o) if o == "Depth"));
        let e = BotConfig::from_flags("t", None, Some(0), None, None, &[]).unwrap_err();
        assert!(matches!(e, FlagError::Depth));
        let e = BotConfig::from_flags("t", None, None, Some(0), None, &[]).unwrap_err();
        assert!(matches!(e, FlagError::Movetime));
        let ok = BotConfig::from_flags(
            "t",
            Some("greedy"),
            Some(3),
            None,
            None,
            &["Hash = 4".into()],
        );
        assert_eq!(
            ok.unwrap().options,
            vec![("Hash".to_string(), "4".to_string())]
        );
    }

    /// The referee's protocol violations stop the bot, each with its own kind, after the
    /// answers it owed before them.
    #[test]
    fn each_protocol_violation_is_its_own_kind() {
        let cfg = BotConfig {
            name: "tablero".into(),
            player: Some(Player::Greedy),
            ..Default::default()
        };
        let play = |input: &str| {
            let mut out = Vec::new();
            let r = run(&cfg, input.as_bytes(), &mut out, std::io::sink());
            (r, String::from_utf8(out).unwrap())
        };
        let start = "0 0 4 4 4 4 4 4 0 4 4 4 4 4 4";
        let (r, out) = play(&format!("PING\nGETNAME\nGETMOVE 0 {start}\nEND\n"));
        assert!(r.is_ok(), "{r:?}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[..2], ["PONG", "tablero"]);
        assert!(
            matches!(lines[2], "1" | "2" | "3" | "4" | "5" | "6"),
            "{out}"
        );
        assert_eq!(lines[3], "OK");

        let (r, out) = play("BADNAME\n");
        assert!(matches!(r, Err(BotError::BadName(n)) if n == "tablero"));
        assert_eq!(out, "OK\n");
        assert!(matches!(play("TIMEOUT\n").0, Err(BotError::InputEnded(_))));
        assert!(matches!(
            play("TIMEOUT soon\n").0,
            Err(BotError::NotNumber { word, .. }) if word == "soon"
        ));
        assert!(matches!(play("SETPLAYER 2\n").0, Err(BotError::Seat(2))));
        assert!(matches!(play("GETMOVE -1\n").0, Err(BotError::Count(-1))));
        assert!(matches!(play("GETMOVE 0 0 4\n").0, Err(BotError::BoardCut)));
        let e = play("GETMOVE 0 0 0 4 4 4 4 4 4 0 4 4 4 4 4 5\n")
            .0
            .unwrap_err();
        assert!(matches!(e, BotError::Board(BoardError::Total(49))), "{e:?}");
        assert!(e.to_string().starts_with("GETMOVE: "), "{e}");
        let over = "0 24 0 0 0 0 0 0 24 0 0 0 0 0 0";
        assert!(matches!(
            play(&format!("GETMOVE 0 {over}\n")).0,
            Err(BotError::Over(_))
        ));
    }
}
