//! `tablero play`: a human at the terminal against a built-in player. Shows the board after
//! every move (on a terminal in colour: each side's pieces in its colour, the last move in
//! reverse video), lists the legal moves, validates input with the rules (saying why a move is
//! rejected), shows the engine's thinking line, ends with the result and stays on the final board
//! until the user leaves. Reads lines, so it works with a pipe as well as a terminal; ANSI colour
//! only when asked (stdout is a terminal).

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

/// ANSI colours of the pieces: the first side (x, South, yellow+red in Parchís) and the second.
const RED: &str = "1;31";
const YELLOW: &str = "1;33";
const BLUE: &str = "1;34";
const GREEN: &str = "1;32";
const DIM: &str = "2";
/// Reverse video, added to a colour for the last move.
const MARK: &str = ";7";

/// The board text of `display()` painted for a terminal: each side's pieces in its colour and
/// the last move (`last`, in protocol notation) marked. Works on the text, so it knows each
/// game's `display` layout; anything it does not recognise stays as it is.
fn paint_board(kind: GameKind, text: &str, last: Option<(&str, Side)>) -> String {
    let mover = last.map(|(_, s)| s);
    let last = last.map(|(m, _)| m);
    let lines: Vec<&str> = text.lines().collect();
    let out: Vec<String> = match kind {
        GameKind::Connect4 | GameKind::Connect4Boom => {
            // Board rows are the lines before the column numbers, top row first; cell `c` of a
            // row is at byte 2c + 1. A PUT's piece is the highest one in its column.
            let rows = lines
                .iter()
                .position(|l| l.trim_start().starts_with('1'))
                .unwrap_or(0);
            let col = last.and_then(|m| m.parse::<usize>().ok()).map(|c| c - 1);
            let top = col.and_then(|c| {
                (0..rows).find(|&r| {
                    lines[r]
                        .as_bytes()
                        .get(2 * c + 1)
                        .is_some_and(|&b| b != b'.')
                })
            });
            lines
                .iter()
                .enumerate()
                .map(|(r, l)| {
                    if r >= rows {
                        return l.to_string();
                    }
                    l.char_indices()
                        .map(|(i, ch)| {
                            let code = match ch {
                                'x' | 'X' => RED,
                                'o' | 'O' => YELLOW,
                                '.' => DIM,
                                _ => return ch.to_string(),
                            };
                            let marked = top == Some(r) && col.map(|c| 2 * c + 1) == Some(i);
                            let code = if marked {
                                format!("{code}{MARK}")
                            } else {
                                code.to_string()
                            };
                            format!("\x1b[{code}m{ch}\x1b[0m")
                        })
                        .collect()
                })
                .collect()
        }
        GameKind::Mancala => {
            // North's rows are the first two lines, South's the two before the side line; the
            // pit played is marked in the mover's pit-number row (the pit itself is empty now).
            let pit: Option<usize> = last.and_then(|m| m.parse().ok());
            lines
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let code = match i {
                        0 | 1 => BLUE,
                        3 | 4 => YELLOW,
                        _ => return l.to_string(),
                    };
                    let label_row = (i == 0 && mover == Some(Side::Second))
                        || (i == 4 && mover == Some(Side::First));
                    let Some(pit) = pit.filter(|_| label_row) else {
                        return format!("\x1b[{code}m{l}\x1b[0m");
                    };
                    // The numbers are right-aligned in 4-character cells after a 10-character
                    // label; highlight the cell whose number is the pit played.
                    let (label, cells) = l.split_at(l.len().min(10));
                    let painted: String = cells
                        .as_bytes()
                        .chunks(4)
                        .map(|c| {
                            let c = String::from_utf8_lossy(c);
                            if c.trim() == pit.to_string() {
                                let pad = c.len() - c.trim_start().len();
                                format!(
                                    "\x1b[{code}m{}\x1b[0m\x1b[{code}{MARK}m{}\x1b[0m",
                                    &c[..pad],
                                    &c[pad..]
                                )
                            } else {
                                format!("\x1b[{code}m{c}\x1b[0m")
                            }
                        })
                        .collect();
                    format!("\x1b[{code}m{label}\x1b[0m{painted}")
                })
                .collect()
        }
        GameKind::Parchis => {
            // One line per colour; the piece moved (`y0:5` moves y0) is marked where listed.
            let piece = last.and_then(|m| m.split(':').next()).unwrap_or("");
            lines
                .iter()
                .map(|l| {
                    let code = match l.split_whitespace().next() {
                        Some("yellow") => YELLOW,
                        Some("blue") => BLUE,
                        Some("red") => RED,
                        Some("green") => GREEN,
                        _ => return l.to_string(),
                    };
                    let token = format!(" {piece}=");
                    match l.find(&token).filter(|_| !piece.is_empty()) {
                        Some(at) => {
                            let start = at + 1;
                            let end = l[start..]
                                .find(' ')
                                .map_or(l.len(), |e| start + e);
                            format!(
                                "\x1b[{code}m{}\x1b[0m\x1b[{code}{MARK}m{}\x1b[0m\x1b[{code}m{}\x1b[0m",
                                &l[..start],
                                &l[start..end],
                                &l[end..]
                            )
                        }
                        None => format!("\x1b[{code}m{l}\x1b[0m"),
                    }
                })
                .collect()
        }
    };
    out.join("\n")
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
                let text = state.display();
                let board = if cfg.color {
                    paint_board(
                        cfg.kind,
                        text.trim_end(),
                        history.last().map(|m| (m.as_str(), last_mover)),
                    )
                } else {
                    text.trim_end().to_string()
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
    dispatch(cfg.kind, PlayRun { cfg, input, out })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_four_pieces_in_their_colours_and_the_last_move_marked() {
        let text = " . . .\n . x .\n o x .\n 1 2 3\nx to move";
        let p = paint_board(GameKind::Connect4, text, Some(("2", Side::First)));
        // The highest piece of column 2 is the last move: reverse video.
        assert!(p.contains("\x1b[1;31;7mx\x1b[0m"), "{p:?}");
        assert_eq!(p.matches(";7m").count(), 1, "{p:?}");
        assert!(p.contains("\x1b[1;33mo\x1b[0m"), "{p:?}");
        assert!(p.ends_with(" 1 2 3\nx to move"), "{p:?}");
        // Without its ANSI codes the text is unchanged.
        assert_eq!(strip(&p), text);
    }

    #[test]
    fn mancala_marks_the_pit_played_on_the_movers_side_only() {
        let text = "North pit    1   2   3\n             4   4   4\nN store  0            1  S store\n             4   0   5\nSouth pit    3   2   1\nNorth (J2) to move";
        let p = paint_board(GameKind::Mancala, text, Some(("2", Side::First)));
        let lines: Vec<&str> = p.lines().collect();
        assert!(lines[4].contains("\x1b[1;33;7m2\x1b[0m"), "{:?}", lines[4]);
        assert!(!lines[0].contains(";7m"), "{:?}", lines[0]);
        assert_eq!(strip(&p), text);
    }

    #[test]
    fn parchis_colours_each_colour_line_and_marks_the_piece_moved() {
        let text =
            "Parchís — turn 1\n  yellow (p0) y0=4*  y1=13*\n  blue   (p1) b0=21*\n  player 0: dice";
        let p = paint_board(GameKind::Parchis, text, Some(("y1:5", Side::First)));
        assert!(p.contains("\x1b[1;33;7my1=13*\x1b[0m"), "{p:?}");
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
