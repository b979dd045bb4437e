//! Pictures of the gravity grids: classic Connect Four ([`Connect4`], any Rows × Columns) and
//! Conecta-4 BOOM ([`Boom`], 7 × 7 with bomb pieces). Both games share one drawing: a status
//! band (side to move or result, movement counters), a row of clickable column numbers as in
//! move notation, the blue frame with its holes, the stones (`x`/`o` letters as in the fen, a
//! bomb is a burst shape with the capital letter), the last move and the winning lines.
//!
//! Keys: a stone is keyed by its cell (`c<col>r<row>`, 1-based as in notation; its letter
//! adds `.l`). Stones of Connect Four never move, so this is the stone's identity; after a BOOM
//! the pieces above the holes fall one cell and are redrawn under their new cells.

use super::{Item, MoveTarget, Scene, Shape, bold, palette, text_left};
use crate::core::game::{Game, Outcome, Side};
use crate::games::boom::{self, Boom, BoomMove};
use crate::games::connect4::Connect4;

use super::Draw;

/// Side of one grid cell in canvas units.
const CELL: f32 = 100.0;
/// Outer margin around everything.
const PAD: f32 = 20.0;
/// Height of the status band (two text lines) above the column numbers.
const STATUS_H: f32 = 96.0;
/// Height of the column-number row.
const HEAD_H: f32 = 56.0;
/// Width of the blue frame around the holes.
const FRAME: f32 = 14.0;
/// Radius of a stone (a hole is slightly larger).
const STONE_R: f32 = 40.0;
/// Height of the legend under a BOOM board.
const LEGEND_H: f32 = 56.0;

/// The board frame colour: a classic blue board, darker than the Okabe–Ito blue so that the
/// yellow stones and the highlight stand out against it.
const FRAME_FILL: &str = palette::BLUE;
const FRAME_EDGE: &str = "#004C78";

/// The geometry shared by board and marks.
#[derive(Clone, Copy)]
struct Layout {
    cols: u32,
    rows: u32,
    /// BOOM: draws the bomb legend and the BOOM button.
    boom: bool,
}

impl Layout {
    fn width(&self) -> f32 {
        2.0 * (PAD + FRAME) + self.cols as f32 * CELL
    }
    fn height(&self) -> f32 {
        let legend = if self.boom { LEGEND_H } else { 0.0 };
        self.frame_top() + 2.0 * FRAME + self.rows as f32 * CELL + PAD + legend
    }
    fn frame_top(&self) -> f32 {
        PAD + STATUS_H + HEAD_H
    }
    /// Centre of cell (column `c`, row `r`), 0-based from the bottom-left.
    fn centre(&self, c: u32, r: u32) -> (f32, f32) {
        let x = PAD + FRAME + (c as f32 + 0.5) * CELL;
        let y = self.frame_top() + FRAME + ((self.rows - 1 - r) as f32 + 0.5) * CELL;
        (x, y)
    }
    fn head_y(&self) -> f32 {
        PAD + STATUS_H + HEAD_H / 2.0
    }
}

/// The colours and letter of a side's stone.
fn stone_colours(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::First => (palette::RED, palette::WHITE),
        Side::Second => (palette::YELLOW, palette::INK),
    }
}

fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'x',
        Side::Second => 'o',
    }
}

fn side_name(side: Side) -> String {
    side_letter(side).to_string()
}

/// A closed burst (star) polygon around (x, y): the bomb's shape.
fn burst(x: f32, y: f32, outer: f32, inner: f32, spikes: u32) -> Vec<f32> {
    let n = spikes * 2;
    let mut pts = Vec::with_capacity(2 * n as usize);
    for i in 0..n {
        let a = std::f32::consts::PI * (i as f32) / spikes as f32 - std::f32::consts::FRAC_PI_2;
        let rad = if i % 2 == 0 { outer } else { inner };
        pts.push(x + rad * a.cos());
        pts.push(y + rad * a.sin());
    }
    pts
}

/// One stone (or bomb) at (x, y) with radius `r`: the body and its letter.
fn stone_items(x: f32, y: f32, r: f32, side: Side, bomb: bool) -> (Item, Item) {
    let (fill, ink) = stone_colours(side);
    let body = if bomb {
        Item::filled(
            Shape::Polygon {
                pts: burst(x, y, r * 1.08, r * 0.78, 10),
            },
            fill,
        )
        .stroke(palette::INK, r * 0.09)
    } else {
        Item::filled(Shape::Circle { x, y, r }, fill).stroke(palette::INK, r * 0.06)
    };
    let letter = if bomb {
        side_letter(side).to_ascii_uppercase()
    } else {
        side_letter(side)
    };
    let label = bold(x, y - r * 0.06, r * 1.05, letter.to_string(), ink);
    (body, label)
}

/// The static board of a `cols` × `rows` grid.
fn grid_board(l: Layout) -> Scene {
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
    // Column numbers, as in move notation; each is a click target for its column.
    for c in 0..l.cols {
        let (x, _) = l.centre(c, 0);
        let y = l.head_y();
        let t = (c + 1).to_string();
        items.push(
            Item::filled(
                Shape::Rect {
                    x: x - CELL * 0.4,
                    y: y - HEAD_H * 0.42,
                    w: CELL * 0.8,
                    h: HEAD_H * 0.84,
                    rx: 10.0,
                },
                palette::WHITE,
            )
            .stroke(palette::LIGHT, 2.0)
            .target(t.clone())
            .tip(format!("column {t}")),
        );
        items.push(bold(x, y, 30.0, t.clone(), palette::INK).target(t));
    }
    let top = l.frame_top();
    items.push(
        Item::filled(
            Shape::Rect {
                x: PAD,
                y: top,
                w: l.cols as f32 * CELL + 2.0 * FRAME,
                h: l.rows as f32 * CELL + 2.0 * FRAME,
                rx: 16.0,
            },
            FRAME_FILL,
        )
        .stroke(FRAME_EDGE, 4.0),
    );
    for c in 0..l.cols {
        for r in 0..l.rows {
            let (x, y) = l.centre(c, r);
            items.push(
                Item::filled(
                    Shape::Circle {
                        x,
                        y,
                        r: STONE_R + 3.0,
                    },
                    palette::PAPER,
                )
                .stroke(FRAME_EDGE, 3.0)
                .target((c + 1).to_string()),
            );
        }
    }
    if l.boom {
        // Legend: what the burst means and what BOOM does.
        let y = l.height() - PAD - LEGEND_H / 2.0 + 6.0;
        let (b, t) = stone_items(PAD + 22.0, y, 18.0, Side::First, true);
        items.push(b);
        items.push(t);
        let (b, t) = stone_items(PAD + 66.0, y, 18.0, Side::Second, true);
        items.push(b);
        items.push(t);
        items.push(text_left(
            PAD + 96.0,
            y,
            24.0,
            "bomb: BOOM clears its row of enemy pieces",
            palette::INK,
        ));
    }
    Scene {
        width: l.width(),
        height: l.height(),
        items,
    }
}

/// What the last move changed, for its highlight.
enum LastMark {
    /// A stone was dropped into this cell.
    Cell(u32, u32),
    /// A bomb exploded in this row (0-based).
    Row(u32),
}

/// Everything the marks need from a position, read through the games' public accessors.
struct GridState<'a> {
    layout: Layout,
    cell: &'a dyn Fn(u32, u32) -> Option<(Side, bool)>,
    to_move: Side,
    outcome: Option<Outcome>,
    /// Second status line.
    detail: String,
    /// The side to move's bomb (column, row) when BOOM is legal: clicking it detonates.
    boom_at: Option<(u32, u32)>,
    last: Option<LastMark>,
}

/// The maximal runs (length ≥ 4) of `side`'s stones, as (start, end) cells.
fn winning_runs(
    l: Layout,
    cell: &dyn Fn(u32, u32) -> Option<(Side, bool)>,
    side: Side,
) -> Vec<((u32, u32), (u32, u32))> {
    let owned = |c: i32, r: i32| {
        c >= 0
            && r >= 0
            && (c as u32) < l.cols
            && (r as u32) < l.rows
            && cell(c as u32, r as u32).is_some_and(|(s, _)| s == side)
    };
    let mut runs = Vec::new();
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for c in 0..l.cols as i32 {
            for r in 0..l.rows as i32 {
                if !owned(c, r) || owned(c - dc, r - dr) {
                    continue;
                }
                let mut n = 1;
                while owned(c + n * dc, r + n * dr) {
                    n += 1;
                }
                if n >= 4 {
                    let end = (c + (n - 1) * dc, r + (n - 1) * dr);
                    runs.push(((c as u32, r as u32), (end.0 as u32, end.1 as u32)));
                }
            }
        }
    }
    runs
}

fn grid_marks(g: &GridState) -> Vec<Item> {
    let l = g.layout;
    let mut items = Vec::new();
    // Status band: line 1 the side to move or the result, line 2 the counters.
    let y1 = PAD + 30.0;
    let y2 = PAD + 74.0;
    let (icon_side, line1) = match g.outcome {
        None => (Some(g.to_move), "to move".to_string()),
        // A BOOM win without a line: the board is full and the loser holds no bomb.
        Some(Outcome::Win(w)) if winning_runs(l, g.cell, w).is_empty() => (
            Some(w),
            format!("wins: {} cannot move", side_name(w.other())),
        ),
        Some(Outcome::Win(w)) => (Some(w), "wins: four in a row".to_string()),
        Some(Outcome::Draw) => (None, "Draw: the board is full".to_string()),
    };
    match icon_side {
        Some(s) => {
            let (b, t) = stone_items(PAD + 24.0, y1, 22.0, s, false);
            items.push(
                b.key("status.stone")
                    .tip(format!("{} to move", side_name(s))),
            );
            items.push(t.key("status.letter"));
            let avail =
                l.width() - 2.0 * PAD - 56.0 - if g.boom_at.is_some() { 160.0 } else { 0.0 };
            let size = super::fit(32.0, &line1, avail, true);
            items.push(bold(PAD + 56.0, y1, size, line1, palette::INK).key("status"));
            if let Shape::Text { a, .. } = &mut items.last_mut().expect("pushed").shape {
                *a = "s".into();
            }
        }
        None => {
            let size = super::fit(32.0, &line1, l.width() - 2.0 * PAD, true);
            let mut t = bold(PAD, y1, size, line1, palette::INK).key("status");
            if let Shape::Text { a, .. } = &mut t.shape {
                *a = "s".into();
            }
            items.push(t);
        }
    }
    let size = super::fit(24.0, &g.detail, l.width() - 2.0 * PAD, false);
    items.push(text_left(PAD, y2, size, g.detail.clone(), "#444444").key("status.detail"));
    if g.boom_at.is_some() {
        // A button for BOOM besides the bomb itself (the bomb may be hard to hit on a phone).
        let (w, h) = (150.0, 48.0);
        let x = l.width() - PAD - w;
        items.push(
            Item::filled(
                Shape::Rect {
                    x,
                    y: y1 - h / 2.0,
                    w,
                    h,
                    rx: 24.0,
                },
                palette::INK,
            )
            .key("boom.button")
            .target("boom")
            .tip("detonate your bomb"),
        );
        items.push(
            bold(x + w / 2.0, y1, 26.0, "BOOM", palette::WHITE)
                .key("boom.label")
                .target("boom"),
        );
    }
    // Stones; their letters go on top of the winning lines, so that the line never hides whose
    // stones make it.
    let runs = match g.outcome {
        Some(Outcome::Win(w)) => winning_runs(l, g.cell, w),
        _ => Vec::new(),
    };
    let on_run = |c: u32, r: u32| {
        runs.iter().any(|&((c0, r0), (c1, r1))| {
            let (dc, dr) = (c1 as i32 - c0 as i32, r1 as i32 - r0 as i32);
            let n = dc.abs().max(dr.abs());
            (0..=n).any(|i| {
                c0 as i32 + i * dc.signum() == c as i32 && r0 as i32 + i * dr.signum() == r as i32
            })
        })
    };
    let mut letters = Vec::new();
    for c in 0..l.cols {
        for r in 0..l.rows {
            let Some((side, bomb)) = (g.cell)(c, r) else {
                continue;
            };
            let (x, y) = l.centre(c, r);
            let key = format!("c{}r{}", c + 1, r + 1);
            let target = if bomb && g.boom_at == Some((c, r)) {
                "boom".to_string()
            } else {
                (c + 1).to_string()
            };
            let kind = if bomb { " bomb" } else { "" };
            let (b, t) = stone_items(x, y, STONE_R, side, bomb);
            items.push(b.key(key.clone()).target(target.clone()).tip(format!(
                "{}{kind}, column {} row {}",
                side_name(side),
                c + 1,
                r + 1
            )));
            let t = t.key(format!("{key}.l")).target(target);
            // A white letter crossed by the winning line gets a dark outline to stay legible.
            letters.push(if side == Side::First && on_run(c, r) {
                t.stroke(palette::INK, 2.5)
            } else {
                t
            });
        }
    }
    // The winning lines: a line through each run of four or more, white under pink so that it
    // reads on red, yellow and blue alike.
    if let Some(Outcome::Win(w)) = g.outcome {
        for &((c0, r0), (c1, r1)) in &runs {
            // From edge to edge of the end stones, not centre to centre.
            let (ax, ay) = l.centre(c0, r0);
            let (bx, by) = l.centre(c1, r1);
            let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
            let (ux, uy) = (
                (bx - ax) / len * STONE_R * 0.8,
                (by - ay) / len * STONE_R * 0.8,
            );
            let (x1, y1, x2, y2) = (ax - ux, ay - uy, bx + ux, by + uy);
            let key = format!("win.{}.{}.{}.{}", c0 + 1, r0 + 1, c1 + 1, r1 + 1);
            let line = Shape::Line { x1, y1, x2, y2 };
            items.push(
                Item::filled(line.clone(), "")
                    .stroke(palette::WHITE, 18.0)
                    .key(format!("{key}.under"))
                    .class("win"),
            );
            items.push(
                Item::filled(line, "")
                    .stroke(palette::HIGHLIGHT, 10.0)
                    .key(key)
                    .class("win")
                    .tip(format!("{} has four in a row", side_name(w))),
            );
        }
    }
    items.extend(letters);
    // The last move.
    match g.last {
        Some(LastMark::Cell(c, r)) if c < l.cols && r < l.rows => {
            let (x, y) = l.centre(c, r);
            items.push(
                Item::filled(
                    Shape::Circle {
                        x,
                        y,
                        r: STONE_R + 5.0,
                    },
                    "",
                )
                .stroke(palette::HIGHLIGHT, 7.0)
                .key("last")
                .class("last")
                .tip(format!("last move: column {}", c + 1)),
            );
        }
        Some(LastMark::Row(r)) if r < l.rows => {
            let (_, y) = l.centre(0, r);
            items.push(
                Item::filled(
                    Shape::Rect {
                        x: PAD + FRAME / 2.0,
                        y: y - CELL / 2.0,
                        w: l.cols as f32 * CELL + FRAME,
                        h: CELL,
                        rx: 12.0,
                    },
                    "",
                )
                .stroke(palette::HIGHLIGHT, 7.0)
                .dashed(18.0)
                .key("last")
                .class("last")
                .tip(format!("last move: BOOM in row {}", r + 1)),
            );
        }
        _ => {}
    }
    items
}

/// The number of stones in column `c` of a position given by its cell function.
fn column_height(cell: &dyn Fn(u32, u32) -> Option<(Side, bool)>, rows: u32, c: u32) -> u32 {
    (0..rows).take_while(|&r| cell(c, r).is_some()).count() as u32
}

impl Draw for Connect4 {
    const MIRROR: bool = true;

    fn board(&self) -> Scene {
        grid_board(Layout {
            cols: self.width(),
            rows: self.height(),
            boom: false,
        })
    }

    fn marks(&self, last: Option<(&Self, u8)>) -> Vec<Item> {
        let cell = |c: u32, r: u32| self.cell(c, r).map(|s| (s, false));
        let rows = self.height();
        let last = last.map(|(prev, col)| {
            let pcell = |c: u32, r: u32| prev.cell(c, r).map(|s| (s, false));
            LastMark::Cell(col as u32, column_height(&pcell, rows, col as u32))
        });
        let n = self.moves_played();
        let detail = format!(
            "{n} stone{} played · {}×{} board",
            if n == 1 { "" } else { "s" },
            self.width(),
            rows
        );
        grid_marks(&GridState {
            layout: Layout {
                cols: self.width(),
                rows,
                boom: false,
            },
            cell: &cell,
            to_move: self.side_to_move(),
            outcome: self.outcome(),
            detail,
            boom_at: None,
            last,
        })
    }

    fn move_target(&self, m: u8) -> MoveTarget {
        MoveTarget {
            target: self.format_move(m),
            choice: String::new(),
        }
    }
}

/// (column, row) of a one-bit BOOM cell.
fn boom_cell(bit: u64) -> (u32, u32) {
    let i = bit.trailing_zeros();
    (i / boom::STRIDE, i % boom::STRIDE)
}

impl Draw for Boom {
    const MIRROR: bool = true;

    fn board(&self) -> Scene {
        grid_board(Layout {
            cols: boom::SIZE,
            rows: boom::SIZE,
            boom: true,
        })
    }

    fn marks(&self, last: Option<(&Self, BoomMove)>) -> Vec<Item> {
        let cell = |c: u32, r: u32| self.cell(c, r);
        let last = last.map(|(prev, m)| match m {
            BoomMove::Put(col) => {
                let pcell = |c: u32, r: u32| prev.cell(c, r);
                LastMark::Cell(col as u32, column_height(&pcell, boom::SIZE, col as u32))
            }
            BoomMove::Boom => {
                let b = prev.bomb(prev.side_to_move());
                // A BOOM without a bomb cannot have been played; draw no highlight then.
                LastMark::Row(if b == 0 { u32::MAX } else { boom_cell(b).1 })
            }
        });
        let mover = self.side_to_move();
        let outcome = self.outcome();
        let boom_at = if outcome.is_none() && self.bomb(mover) != 0 {
            Some(boom_cell(self.bomb(mover)))
        } else {
            None
        };
        let detail = match outcome {
            None => {
                let left = self.movements_left();
                format!(
                    "movement {} · turn {} · {left} movement{} left in the turn{}",
                    self.movement(),
                    self.turn(),
                    if left == 1 { "" } else { "s" },
                    if self.occupied() == boom::BOARD {
                        " · the board is full: BOOM is the only movement"
                    } else if self.put_places_bomb() {
                        " · a PUT places a bomb"
                    } else {
                        ""
                    }
                )
            }
            Some(_) if self.occupied() == boom::BOARD && !self.has_line() => format!(
                "game over after movement {}: the board is full and {} has no bomb",
                self.movement().saturating_sub(1),
                side_name(mover)
            ),
            Some(_) => format!(
                "game over after movement {}",
                self.movement().saturating_sub(1)
            ),
        };
        grid_marks(&GridState {
            layout: Layout {
                cols: boom::SIZE,
                rows: boom::SIZE,
                boom: true,
            },
            cell: &cell,
            to_move: mover,
            outcome,
            detail,
            boom_at,
            last,
        })
    }

    fn move_target(&self, m: BoomMove) -> MoveTarget {
        MoveTarget {
            target: self.format_move(m),
            choice: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Config;
    use crate::view::picture;

    fn keys(items: &[Item]) -> Vec<String> {
        items.iter().map(|i| i.key.clone()).collect()
    }

    #[test]
    fn connect4_win_is_drawn_with_its_line() {
        let cfg = Config::default();
        let won = Connect4::from_moves("445566", &cfg).unwrap();
        let last = won.apply(6);
        assert_eq!(last.outcome(), Some(Outcome::Win(Side::First)));
        let marks = last.marks(Some((&won, 6)));
        let k = keys(&marks);
        assert!(k.contains(&"win.4.1.7.1".to_string()), "{k:?}");
        assert!(k.contains(&"last".to_string()));
        let scene = picture(&last, Some((&won, 6)));
        assert!(scene.width > 0.0);
    }

    #[test]
    fn boom_targets_include_the_bomb() {
        // x's bomb at the bottom of column 1, x to move at movement 16 (turn 5... P1 moves 16, 17).
        let s = Boom::parse_fen("7/7/7/7/7/7/X6 x 16", &boom::Config::default()).unwrap();
        let marks = s.marks(None);
        assert!(marks.iter().any(|i| i.key == "c1r1" && i.target == "boom"));
        assert!(
            marks
                .iter()
                .any(|i| i.target == "boom" && i.key == "boom.button")
        );
    }
}
