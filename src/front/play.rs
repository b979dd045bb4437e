//! `tablero play`: a human at the terminal against a built-in player. Shows the board after
//! every move, lists the legal moves, validates input with the rules (saying why a move is
//! rejected), shows the engine's thinking line and ends with the result. Reads lines, so it works
//! with a pipe as well as a terminal; ANSI colour only when asked (stdout is a terminal).

use std::io::{BufRead, Write};
use std::time::Duration;

use crate::core::game::{Game, Outcome, Side, try_play};
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::players::Player;

use crate::referee::conn::{EngineSpec, Recv, deadline_after};
use crate::referee::game::Slot;

/// How a `play` session is set up.
pub struct PlayConfig {
    pub kind: GameKind,
    pub vs: Player,
    pub human: Side,
    pub color: bool,
}

struct Paint(bool);
impl Paint {
    fn p(&self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

struct PlayRun<'a, R, W> {
    cfg: &'a PlayConfig,
    input: R,
    out: W,
}

impl<R: BufRead, W: Write> GameVisitor for PlayRun<'_, R, W> {
    type Output = Result<(), String>;
    fn visit<G: Game>(mut self) -> Self::Output {
        let cfg = self.cfg;
        let paint = Paint(cfg.color);
        let io = |e: std::io::Error| e.to_string();
        let defaults: Vec<i64> = G::OPTIONS.iter().map(|o| o.default).collect();
        let mut state = G::start(&G::configure(&defaults)?);
        let mut slot = Slot::new(EngineSpec::Builtin(cfg.vs), vec![]);
        slot.prepare(
            cfg.kind,
            &[],
            Duration::from_secs(10),
            Duration::from_secs(10),
            None,
        )
        .map_err(|(_, e)| format!("engine: {e}"))?;
        let mut history: Vec<String> = Vec::new();
        let name = cfg.vs.name();
        writeln!(
            self.out,
            "{} — you play {} against {name}. Type a move, 'moves', or 'quit'.",
            paint.p("1", cfg.kind.name()),
            if cfg.human == Side::First {
                "first"
            } else {
                "second"
            }
        )
        .map_err(io)?;
        // The board is shown after each move, not again after a rejected input.
        let mut fresh = true;
        let result = loop {
            if fresh {
                writeln!(self.out, "\n{}", paint.p("36", state.display().trim_end()))
                    .map_err(io)?;
            }
            if let Some(o) = state.outcome() {
                break Some(o);
            }
            let side = state.side_to_move();
            if side == cfg.human {
                if fresh {
                    let mut ms = G::Moves::default();
                    state.legal_moves(&mut ms);
                    let list: Vec<String> =
                        ms.as_ref().iter().map(|m| state.format_move(*m)).collect();
                    writeln!(self.out, "legal moves: {}", list.join(" ")).map_err(io)?;
                }
                fresh = false;
                write!(self.out, "{}", paint.p("1", "your move> ")).map_err(io)?;
                self.out.flush().map_err(io)?;
                let mut line = String::new();
                if self.input.read_line(&mut line).map_err(io)? == 0 {
                    writeln!(self.out, "\nend of input: you resign").map_err(io)?;
                    break None;
                }
                let text = line.trim();
                match text {
                    "" => continue,
                    "moves" => {
                        fresh = true;
                        continue;
                    }
                    "quit" | "resign" => {
                        writeln!(self.out, "you resign").map_err(io)?;
                        break None;
                    }
                    _ => {}
                }
                match try_play(&state, text) {
                    Ok(s) => {
                        state = s;
                        history.push(text.to_string());
                        fresh = true;
                    }
                    Err(e) => {
                        let shown: String = text.chars().take(40).collect();
                        writeln!(
                            self.out,
                            "{}",
                            paint.p("31", &format!("move '{shown}' rejected: {e}"))
                        )
                        .map_err(io)?;
                    }
                }
            } else {
                let conn = slot.conn.as_mut().ok_or("engine not running")?;
                let mut pos = "position startpos".to_string();
                if !history.is_empty() {
                    pos += " moves ";
                    pos += &history.join(" ");
                }
                conn.send(&pos);
                conn.send("go");
                let deadline = deadline_after(Duration::from_secs(600));
                let mut thinking = None;
                let mv = loop {
                    match conn.recv(deadline) {
                        Recv::Line(l) if l.starts_with("bestmove") => {
                            break l.split_whitespace().nth(1).unwrap_or("").to_string();
                        }
                        Recv::Line(l) if l.starts_with("info") => thinking = Some(l),
                        Recv::Line(_) => {}
                        _ => return Err(format!("{name} stopped answering")),
                    }
                };
                if let Some(t) = thinking {
                    writeln!(self.out, "{name} thinks: {}", t.trim_start_matches("info "))
                        .map_err(io)?;
                }
                state = try_play(&state, &mv).map_err(|e| format!("{name} played '{mv}': {e}"))?;
                writeln!(self.out, "{name} plays {}", paint.p("1;33", &mv)).map_err(io)?;
                history.push(mv);
                fresh = true;
            }
        };
        slot.reset();
        let text = match result {
            Some(Outcome::Win(s)) if s == cfg.human => paint.p("1;32", "result: you win"),
            Some(Outcome::Win(_)) => paint.p("1;31", &format!("result: {name} wins")),
            Some(Outcome::Draw) => paint.p("1", "result: draw"),
            None => paint.p("1;31", &format!("result: {name} wins (resignation)")),
        };
        writeln!(self.out, "{text}").map_err(io)?;
        Ok(())
    }
}

/// Plays one game between the human on `input`/`out` and the built-in player.
pub fn play(cfg: &PlayConfig, input: impl BufRead, out: impl Write) -> Result<(), String> {
    dispatch(cfg.kind, PlayRun { cfg, input, out })?
}
