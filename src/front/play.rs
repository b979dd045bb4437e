//! `tablero play`: a human at the terminal against a built-in player. Shows the board after
//! every move (on a terminal in colour: each side's pieces in its colour, the last move in
//! reverse video), lists the legal moves, validates input with the rules (saying why a move is
//! rejected), shows the engine's thinking line, ends with the result and stays on the final board
//! until the user leaves. Reads lines, so it works with a pipe as well as a terminal; ANSI colour
//! only when asked (stdout is a terminal).

use std::io::{BufRead, Write};
use std::time::Duration;

use crate::core::game::{Game, Hue, Ink, Outcome, Side, try_play};
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

/// The ANSI code of an ink: each side's pieces in its colour, the last move in reverse video.
fn ansi(span: &str, ink: Ink) -> String {
    let code = match ink.hue {
        Hue::Red => "1;31",
        Hue::Yellow => "1;33",
        Hue::Blue => "1;34",
        Hue::Green => "1;32",
        Hue::Dim => "2",
    };
    let mark = if ink.marked { ";7" } else { "" };
    format!("\x1b[{code}{mark}m{span}\x1b[0m")
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
        .map_err(|e| format!("engine: {e}"))?;
        let mut history: Vec<String> = Vec::new();
        // Who made the last move (Kalah's extra turns and BOOM's two movements repeat a side).
        let mut last_mover = Side::First;
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
                let board = if cfg.color {
                    state.display_inked(history.last().map(|m| (m.as_str(), last_mover)), &ansi)
                } else {
                    state.display().trim_end().to_string()
                };
                writeln!(self.out, "\n{board}").map_err(io)?;
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
                        last_mover = side;
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
                last_mover = side;
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
        // The final board stays on screen until the user leaves (Enter, 'quit' or end of input).
        if result.is_some() {
            write!(self.out, "game over: press Enter to leave> ").map_err(io)?;
            self.out.flush().map_err(io)?;
            let mut line = String::new();
            let _ = self.input.read_line(&mut line).map_err(io)?;
            writeln!(self.out).map_err(io)?;
        }
        Ok(())
    }
}

/// Plays one game between the human on `input`/`out` and the built-in player.
pub fn play(cfg: &PlayConfig, input: impl BufRead, out: impl Write) -> Result<(), String> {
    dispatch(cfg.kind, PlayRun { cfg, input, out })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::try_play;
    use crate::core::spec::default_config;
    use crate::games::connect4::Connect4;
    use crate::games::mancala::Mancala;
    use crate::games::parchis::Parchis;

    /// `state` after `moves` (from the start), in colour with the last one marked.
    fn inked<G: Game>(moves: &[&str]) -> (String, String) {
        let mut s = G::start(&default_config::<G>().unwrap());
        let mut mover = Side::First;
        for m in moves {
            mover = s.side_to_move();
            s = try_play(&s, m).unwrap();
        }
        let last = moves.last().map(|m| (*m, mover));
        (
            s.display_inked(last, &ansi),
            s.display().trim_end().to_string(),
        )
    }

    #[test]
    fn connect_four_pieces_in_their_colours_and_the_last_move_marked() {
        let (p, text) = inked::<Connect4>(&["2", "1", "2"]);
        // The highest piece of column 2 is the last move: reverse video.
        assert!(p.contains("\x1b[1;31;7mx\x1b[0m"), "{p:?}");
        assert_eq!(p.matches(";7m").count(), 1, "{p:?}");
        assert!(p.contains("\x1b[1;33mo\x1b[0m"), "{p:?}");
        // Without its ANSI codes the text is unchanged.
        assert_eq!(strip(&p), text);
    }

    #[test]
    fn mancala_marks_the_pit_played_on_the_movers_side_only() {
        let (p, text) = inked::<Mancala>(&["2"]);
        let lines: Vec<&str> = p.lines().collect();
        assert!(lines[4].contains("\x1b[1;33;7m2\x1b[0m"), "{:?}", lines[4]);
        assert!(!lines[0].contains(";7m"), "{:?}", lines[0]);
        assert_eq!(p.matches(";7m").count(), 1, "{p:?}");
        assert_eq!(strip(&p), text);
    }

    #[test]
    fn parchis_colours_each_colour_line_and_marks_the_piece_moved() {
        let s = Parchis::start(&default_config::<Parchis>().unwrap());
        let mut legal = <Parchis as Game>::Moves::default();
        s.legal_moves(&mut legal);
        let m = s.format_move(legal.as_ref()[0]);
        let (p, text) = inked::<Parchis>(&[&m]);
        let piece = m.split(':').next().unwrap();
        assert!(p.contains(&format!(";7m{piece}=")), "{m} {p:?}");
        assert!(p.contains("\x1b[1;34m  blue"), "{p:?}");
        assert_eq!(strip(&p), text);
    }

    /// The text without its ANSI colour codes.
    fn strip(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }
}
