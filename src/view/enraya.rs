//! Pictures of 5-en-Raya Táctico ([`Enraya`], any Rows × Columns): a status band (the player to
//! move with its placements left, or the result), the Trinity line (which cells the phase
//! allows), the grid with row and column numbers as in move notation (`f,c`, from 0), the
//! special cells of the 9 × 9 board in their colours with a sign each, drawn rather than written
//! so that it reads the same in every language (red: a disc half black, half white, the piece
//! placed is the opponent's; yellow: a cross, it clears its row and column; green: `+1`, one more
//! placement), the cells of the phase's residue dotted, the pieces (`x` black, `o` white, the
//! letters of the fen), the last move (ringed; a pass named in the status line) and, after a
//! yellow cell, the row and column it cleared, the winning line, a button for `pass` when it is
//! the only move, and a legend of the special cells.
//!
//! Keys: a piece is keyed by its cell (`p<f>.<c>`, its letter `.l`); a yellow cell clears
//! pieces, which then simply leave.

use super::{Draw, Item, MoveTarget, Scene, Shape, bold, fit, palette, text, text_left};
use crate::core::game::{Game, Outcome, Side};
use crate::games::enraya::{Enraya, Move, Special};

/// Side of one cell in canvas units.
const CELL: f32 = 64.0;
/// Outer margin.
const PAD: f32 = 18.0;
/// Height of the status band (two lines).
const STATUS_H: f32 = 92.0;
/// Room for the column numbers above the grid and the row numbers left of it.
const LABEL: f32 = 40.0;
/// Height of the legend under a 9 × 9 board.
const LEGEND_H: f32 = 86.0;
/// Radius of a piece.
const PIECE_R: f32 = 24.0;

/// The tints of the special cells: light enough that both pieces read on them, in the
/// palette's hues (red, yellow, green), each with its sign so that colour is never the only
/// cue.
const RED_CELL: &str = "#F2B38F";
const YELLOW_CELL: &str = "#F6EE8C";
const GREEN_CELL: &str = "#8FD3BE";
const GRID_LINE: &str = "#9A8F7A";
const BOARD_FILL: &str = "#EFE6D2";

#[derive(Clone, Copy)]
struct Layout {
    rows: usize,
    cols: usize,
    legend: bool,
}

impl Layout {
    fn of(s: &Enraya) -> Layout {
        Layout {
            rows: s.rows() as usize,
            cols: s.cols() as usize,
            legend: s.is_ninja(),
        }
    }
    fn grid_x(&self) -> f32 {
        PAD + LABEL
    }
    fn grid_y(&self) -> f32 {
        PAD + STATUS_H + LABEL
    }
    fn width(&self) -> f32 {
        // Wide enough for the status lines on the smallest boards.
        (self.grid_x() + self.cols as f32 * CELL + PAD).max(460.0)
    }
    fn height(&self) -> f32 {
        let legend = if self.legend { LEGEND_H } else { 0.0 };
        self.grid_y() + self.rows as f32 * CELL + PAD + legend
    }
    /// Centre of cell (`f`, `c`), row from the top.
    fn centre(&self, f: usize, c: usize) -> (f32, f32) {
        (
            self.grid_x() + (c as f32 + 0.5) * CELL,
            self.grid_y() + (f as f32 + 0.5) * CELL,
        )
    }
}

fn side_letter(s: Side) -> char {
    match s {
        Side::First => 'x',
        Side::Second => 'o',
    }
}

/// The body and letter of a piece: x black with a white letter, o white with a black one
/// (the special cells' tints stay readable under both).
fn piece_items(x: f32, y: f32, r: f32, side: Side) -> (Item, Item) {
    let (fill, ink) = match side {
        Side::First => (palette::INK, palette::WHITE),
        Side::Second => (palette::WHITE, palette::INK),
    };
    let body = Item::filled(Shape::Circle { x, y, r }, fill).stroke(palette::INK, r * 0.1);
    let letter = bold(x, y - r * 0.08, r * 1.2, side_letter(side).to_string(), ink);
    (body, letter)
}

/// The tint and tooltip of a special cell.
fn special_look(s: Special) -> Option<(&'static str, &'static str)> {
    match s {
        Special::Normal => None,
        Special::Red => Some((RED_CELL, "red: the piece placed here is the opponent's")),
        Special::Yellow => Some((YELLOW_CELL, "yellow: clears the rest of its row and column")),
        Special::Green => Some((GREEN_CELL, "green: one more placement this turn")),
    }
}

/// The sign of a special cell centred at (`x`, `y`), `r` its half size: red a disc half black,
/// half white (the piece placed becomes the other player's), yellow a cross (its row and
/// column are cleared), green `+1` (one more placement). Drawn, not lettered: no language's
/// initials.
fn special_sign(s: Special, x: f32, y: f32, r: f32) -> Vec<Item> {
    match s {
        Special::Normal => vec![],
        Special::Red => {
            // The left half: a polygon along the circle from the top to the bottom.
            let mut pts = Vec::new();
            for k in 0..=12 {
                let a = std::f32::consts::PI * (0.5 + k as f32 / 12.0);
                pts.extend([x + r * a.cos(), y - r * a.sin()]);
            }
            vec![
                Item::filled(Shape::Circle { x, y, r }, palette::WHITE),
                Item::filled(Shape::Polygon { pts }, palette::INK),
                Item::filled(Shape::Circle { x, y, r }, "").stroke(palette::INK, r * 0.22),
            ]
        }
        Special::Yellow => {
            let w = r * 0.42;
            vec![
                Item::filled(
                    Shape::Rect {
                        x: x - r,
                        y: y - w / 2.0,
                        w: 2.0 * r,
                        h: w,
                        rx: 0.0,
                    },
                    palette::INK,
                ),
                Item::filled(
                    Shape::Rect {
                        x: x - w / 2.0,
                        y: y - r,
                        w,
                        h: 2.0 * r,
                        rx: 0.0,
                    },
                    palette::INK,
                ),
            ]
        }
        Special::Green => vec![bold(x, y, r * 1.7, "+1", palette::INK)],
    }
}

fn cell_name(f: usize, c: usize) -> String {
    format!("{f},{c}")
}

impl Draw for Enraya {
    fn board(&self) -> Scene {
        let l = Layout::of(self);
        let mut items = vec![Item::filled(
            Shape::Rect {
                x: 0.0,
                y: 0.0,
                w: l.width(),
                h: l.height(),
                rx: 0.0,
            },
            palette::PAPER,
        )];
        // Row and column numbers, as in the notation `f,c`.
        for c in 0..l.cols {
            let (x, _) = l.centre(0, c);
            items.push(bold(
                x,
                l.grid_y() - LABEL / 2.0,
                22.0,
                c.to_string(),
                palette::GREY,
            ));
        }
        for f in 0..l.rows {
            let (_, y) = l.centre(f, 0);
            items.push(bold(
                l.grid_x() - LABEL / 2.0,
                y,
                22.0,
                f.to_string(),
                palette::GREY,
            ));
        }
        items.push(
            Item::filled(
                Shape::Rect {
                    x: l.grid_x(),
                    y: l.grid_y(),
                    w: l.cols as f32 * CELL,
                    h: l.rows as f32 * CELL,
                    rx: 0.0,
                },
                BOARD_FILL,
            )
            .stroke(GRID_LINE, 3.0),
        );
        // Every cell is a click target named as its move; special cells carry their tint and
        // sign.
        for f in 0..l.rows {
            for c in 0..l.cols {
                let x = l.grid_x() + c as f32 * CELL;
                let y = l.grid_y() + f as f32 * CELL;
                let special = self.special(f, c);
                let look = special_look(special);
                let rect = Item::filled(
                    Shape::Rect {
                        x,
                        y,
                        w: CELL,
                        h: CELL,
                        rx: 0.0,
                    },
                    look.map_or(BOARD_FILL, |l| l.0),
                )
                .stroke(GRID_LINE, 1.5)
                .target(cell_name(f, c));
                items.push(match look {
                    Some((_, tip)) => rect.tip(format!("{f},{c} {tip}")),
                    None => rect.tip(format!("cell {f},{c}")),
                });
                items.extend(
                    special_sign(special, x + 12.0, y + 12.0, 7.0)
                        .into_iter()
                        .map(|it| it.target(cell_name(f, c))),
                );
            }
        }
        if l.legend {
            let y0 = l.height() - PAD - LEGEND_H + 18.0;
            let rows = [
                (
                    Special::Red,
                    RED_CELL,
                    "red: the piece placed is the opponent's",
                ),
                (
                    Special::Yellow,
                    YELLOW_CELL,
                    "yellow: clears its row and column",
                ),
                (Special::Green, GREEN_CELL, "green: one more placement"),
            ];
            for (i, (special, fill, what)) in rows.into_iter().enumerate() {
                let y = y0 + i as f32 * 26.0;
                items.push(
                    Item::filled(
                        Shape::Rect {
                            x: PAD,
                            y: y - 11.0,
                            w: 22.0,
                            h: 22.0,
                            rx: 3.0,
                        },
                        fill,
                    )
                    .stroke(GRID_LINE, 1.5),
                );
                items.extend(special_sign(special, PAD + 11.0, y, 7.0));
                let size = fit(19.0, what, l.width() - 2.0 * PAD - 32.0, false);
                items.push(text_left(PAD + 32.0, y, size, what, palette::INK));
            }
        }
        Scene {
            width: l.width(),
            height: l.height(),
            items,
        }
    }

    fn marks(&self, last: Option<(&Self, Move)>) -> Vec<Item> {
        let l = Layout::of(self);
        let mut items = Vec::new();
        let y1 = PAD + 28.0;
        let y2 = PAD + 70.0;
        let line = self.winning_line();
        let to_move = self.side_to_move();
        let (icon, status) = match self.outcome() {
            None => {
                let left = self.left().max(1);
                (
                    Some(to_move),
                    format!(
                        "{} to move: {left} placement{} left",
                        side_letter(to_move),
                        if left == 1 { "" } else { "s" }
                    ),
                )
            }
            Some(Outcome::Win(w)) => match &line {
                Some(_) => (
                    Some(w),
                    format!("{} wins: {} in a row", side_letter(w), self.in_a_row()),
                ),
                None => (
                    Some(w),
                    format!(
                        "{} wins on windows of four: {}–{}",
                        side_letter(w),
                        self.windows_of_four(w),
                        self.windows_of_four(w.other())
                    ),
                ),
            },
            // The ninja board's tie-break ended level; elsewhere a full board is a draw.
            Some(Outcome::Draw) if self.is_ninja() => (
                None,
                format!(
                    "Draw on windows of four: {}–{}",
                    self.windows_of_four(Side::First),
                    self.windows_of_four(Side::Second)
                ),
            ),
            Some(Outcome::Draw) => (None, "Draw: the board is full".to_string()),
        };
        let mut x_text = PAD;
        if let Some(s) = icon {
            let (b, t) = piece_items(PAD + 20.0, y1, 18.0, s);
            items.push(b.key("status.piece"));
            items.push(t.key("status.letter"));
            x_text = PAD + 48.0;
        }
        let pass = self.outcome().is_none() && self.is_legal(Move::Pass);
        let button_w = if pass { 130.0 } else { 0.0 };
        // A pass has no cell to ring: it is named at the right of the status line, left of the
        // pass button when there is one.
        let passed = matches!(last, Some((_, Move::Pass)));
        const PASSED: &str = "last move: pass";
        let passed_w = if passed {
            0.62 * 20.0 * PASSED.len() as f32 + 14.0
        } else {
            0.0
        };
        let size = fit(
            28.0,
            &status,
            l.width() - x_text - PAD - button_w - passed_w,
            true,
        );
        let mut t = bold(x_text, y1, size, status, palette::INK).key("status");
        if let Shape::Text { a, .. } = &mut t.shape {
            *a = "s".into();
        }
        items.push(t);
        let detail = match self.residue() {
            Some(r) if self.outcome().is_none() => format!(
                "turn {} · phase {}: cells with (row + column) mod 3 = {r} (dotted)",
                self.turn(),
                self.phase()
            ),
            _ => format!(
                "turn {} · {}×{} board, {} in a row",
                self.turn(),
                self.rows(),
                self.cols(),
                self.in_a_row()
            ),
        };
        let size = fit(21.0, &detail, l.width() - 2.0 * PAD, false);
        items.push(text_left(PAD, y2, size, detail, "#444444").key("status.detail"));
        if pass {
            // The only move: a button, since no cell can be clicked.
            let (w, h) = (120.0, 44.0);
            let x = l.width() - PAD - w;
            items.push(
                Item::filled(
                    Shape::Rect {
                        x,
                        y: y1 - h / 2.0,
                        w,
                        h,
                        rx: 22.0,
                    },
                    palette::INK,
                )
                .key("pass.button")
                .target("pass")
                .tip("no cell is legal: pass"),
            );
            items.push(
                bold(x + w / 2.0, y1, 24.0, "pass", palette::WHITE)
                    .key("pass.label")
                    .target("pass"),
            );
        }
        // The Trinity residue: a dot in every empty cell the phase allows (the legal cells are
        // those of them next to a piece).
        if self.outcome().is_none() && self.residue().is_some() {
            for f in 0..l.rows {
                for c in 0..l.cols {
                    if self.cell(f, c).is_none() && self.in_residue(f, c) {
                        let (x, y) = l.centre(f, c);
                        let legal = self.is_legal(Move::Place {
                            row: f as u8,
                            col: c as u8,
                        });
                        let dot = Item::filled(
                            Shape::Circle {
                                x,
                                y,
                                r: if legal { 7.0 } else { 4.0 },
                            },
                            if legal { palette::BLUE } else { palette::GREY },
                        )
                        .key(format!("t{f}.{c}"))
                        .target(cell_name(f, c))
                        .tip(if legal {
                            format!("{f},{c}: legal now")
                        } else {
                            format!("{f},{c}: in the phase, but no piece next to it")
                        });
                        items.push(dot);
                    }
                }
            }
        }
        // What a yellow cell cleared: its row and column, dashed.
        let last_cell = last.and_then(|(_, m)| match m {
            Move::Place { row, col } => Some((row as usize, col as usize)),
            Move::Pass => None,
        });
        if let (Some((prev, _)), Some((f, c))) = (last, last_cell)
            && prev.special(f, c) == Special::Yellow
        {
            let gx = l.grid_x();
            let gy = l.grid_y();
            for (key, x, y, w, h) in [
                (
                    "last-row",
                    gx,
                    gy + f as f32 * CELL,
                    l.cols as f32 * CELL,
                    CELL,
                ),
                (
                    "last-col",
                    gx + c as f32 * CELL,
                    gy,
                    CELL,
                    l.rows as f32 * CELL,
                ),
            ] {
                items.push(
                    Item::filled(
                        Shape::Rect {
                            x: x + 3.0,
                            y: y + 3.0,
                            w: w - 6.0,
                            h: h - 6.0,
                            rx: 8.0,
                        },
                        "",
                    )
                    .stroke(palette::HIGHLIGHT, 4.0)
                    .dashed(12.0)
                    .key(key)
                    .class("last")
                    .tip(format!(
                        "the yellow cell {f},{c} cleared its row and column"
                    )),
                );
            }
        }
        // Pieces; letters after the winning line so that it never hides whose pieces make it.
        let on_line = |f: usize, c: usize| {
            line.as_ref()
                .is_some_and(|(_, cells)| cells.contains(&(f as u8, c as u8)))
        };
        let mut letters = Vec::new();
        for f in 0..l.rows {
            for c in 0..l.cols {
                let Some(side) = self.cell(f, c) else {
                    continue;
                };
                let (x, y) = l.centre(f, c);
                let key = format!("p{f}.{c}");
                let (b, t) = piece_items(x, y, PIECE_R, side);
                items.push(
                    b.key(key.clone())
                        .target(cell_name(f, c))
                        .tip(format!("{}, cell {f},{c}", side_letter(side))),
                );
                let t = t.key(format!("{key}.l")).target(cell_name(f, c));
                // A white letter crossed by the winning line gets a dark outline to stay legible.
                letters.push(if side == Side::First && on_line(f, c) {
                    t.stroke(palette::INK, 2.5)
                } else {
                    t
                });
            }
        }
        if let Some((w, cells)) = &line
            && let (Some(&(f0, c0)), Some(&(f1, c1))) = (cells.first(), cells.last())
        {
            let (ax, ay) = l.centre(f0 as usize, c0 as usize);
            let (bx, by) = l.centre(f1 as usize, c1 as usize);
            let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt().max(1.0);
            let (ux, uy) = (
                (bx - ax) / len * PIECE_R * 0.8,
                (by - ay) / len * PIECE_R * 0.8,
            );
            let shape = Shape::Line {
                x1: ax - ux,
                y1: ay - uy,
                x2: bx + ux,
                y2: by + uy,
            };
            let key = format!("win.{f0}.{c0}.{f1}.{c1}");
            items.push(
                Item::filled(shape.clone(), "")
                    .stroke(palette::WHITE, 14.0)
                    .key(format!("{key}.under"))
                    .class("win"),
            );
            items.push(
                Item::filled(shape, "")
                    .stroke(palette::HIGHLIGHT, 8.0)
                    .key(key)
                    .class("win")
                    .tip(format!(
                        "{} has {} in a row",
                        side_letter(*w),
                        self.in_a_row()
                    )),
            );
        }
        items.extend(letters);
        if let Some((f, c)) = last_cell
            && f < l.rows
            && c < l.cols
        {
            let (x, y) = l.centre(f, c);
            items.push(
                Item::filled(
                    Shape::Circle {
                        x,
                        y,
                        r: PIECE_R + 5.0,
                    },
                    "",
                )
                .stroke(palette::HIGHLIGHT, 6.0)
                .key("last")
                .class("last")
                .tip(format!("last move: {f},{c}")),
            );
        } else if passed {
            let mut t = text(
                l.width() - PAD - button_w,
                y1,
                20.0,
                PASSED,
                palette::HIGHLIGHT,
            )
            .key("last")
            .class("last");
            if let Shape::Text { a, b, .. } = &mut t.shape {
                *a = "e".into();
                *b = true;
            }
            items.push(t);
        }
        items
    }

    fn move_target(&self, m: Move) -> MoveTarget {
        MoveTarget {
            target: self.format_move(m),
            choice: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::try_play;
    use crate::view::picture;

    fn after(moves: &[&str]) -> (Enraya, Option<(Enraya, Move)>) {
        let mut s = Enraya::start(&Default::default());
        let mut last = None;
        for m in moves {
            let next = try_play(&s, m).unwrap();
            last = Some((s, s.parse_move(m).unwrap()));
            s = next;
        }
        (s, last)
    }

    #[test]
    fn every_cell_is_a_target_named_as_its_move_and_legal_cells_are_dotted() {
        let (s, _) = after(&[]);
        let scene = Draw::board(&s);
        for f in 0..9 {
            for c in 0..9 {
                let name = format!("{f},{c}");
                assert!(scene.items.iter().any(|i| i.target == name), "{name}");
            }
        }
        let marks = s.marks(None);
        let mut legal = <Enraya as Game>::Moves::default();
        s.legal_moves(&mut legal);
        for m in legal {
            let t = s.move_target(m).target;
            assert!(
                marks
                    .iter()
                    .any(|i| i.target == t && i.tip.contains("legal now")),
                "{t}"
            );
        }
    }

    #[test]
    fn marks_keys_are_unique_and_the_last_move_is_ringed() {
        let (s, last) = after(&["0,5", "5,7", "0,6"]);
        let marks = s.marks(last.as_ref().map(|(p, m)| (p, *m)));
        let mut keys: Vec<&str> = marks.iter().map(|i| i.key.as_str()).collect();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "duplicate keys");
        assert!(
            marks
                .iter()
                .any(|i| i.key == "last" && i.tip == "last move: 0,6")
        );
        let scene = picture(&s, last.as_ref().map(|(p, m)| (p, *m)));
        assert!(scene.items.len() > 81);
    }
}
