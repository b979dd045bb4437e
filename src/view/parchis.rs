//! The picture of a Parchís position: the course simulator's cross-shaped board (yellow home
//! top right, blue top left, red bottom left, green bottom right; box 1 at the right edge, the
//! track running anticlockwise; each colour's queue in the middle of the arm that ends at its
//! entrance box) with box numbers, safe boxes, homes, queues and the central goal, then a panel
//! under it with the turn, each player's dice, items and pending bonus, and a legend.
//!
//! A 2021-22 position (`Year` 2021-22: no items, colours in turn, each colour with its own dice
//! 1 to 6) has its own panel: per player card one row per colour with that colour's six dice and
//! its pending bonus, the row of the colour to move framed, no hand slots, and a legend without
//! items or piece states; the mover's frame on the board is that colour's home alone.
//!
//! A 2023-24 position (`Year` 2023-24, "Parchís BOOM": 2022-23's players without items, each
//! player's dice 1 2 4 5 6 and the special die, drawn `P`, whose effect the player's power bar
//! picks) has 2022-23's cards with six dice and, where 2022-23 shows the items held, the power
//! bar: filled to its value, marked where its effects change, and naming what the special die
//! would do now; its legend lists the bar's effects.
//!
//! A 2024-25 position (`Year` 2024-25: no items, yellow and green against blue and red, each
//! player's dice 1 2 4 5 6 and the yin-yang, drawn ☯) has its cards with the player's two colours
//! and six dice, no hand slots, the colour whose turn it is in the status line, and a legend of
//! the year's rules.
//!
//! Geometry is computed in the frame of the right arm (yellow's) and turned by quarter turns for
//! the other arms, so every arm is drawn by the same code. Marks (pieces, their states, items on
//! the board, banana traps, the last move, the panel's contents) carry keys named after what they
//! show (`piece-y0`, `label-y0`, `die-p1-4`, `item-22`, `trap-19`, `last-path`…), so a piece keeps
//! its key wherever it goes and a page redraws only what changed. Exactly one mark per piece has
//! the key `piece-<piece>` (the disc); its label and decorations use other keys.
//!
//! Clicks: a piece's disc and label carry the target `<piece>` (`y0`); a move's target is its
//! piece and its choice the die or item as written in the move notation (`y0:5` → `y0`, `5`;
//! `b1:redshell` → `b1`, `redshell`); a pass has the target `pass`, which the page offers itself.

use super::{Draw, Item, MoveTarget, Scene, Shape, bold, palette as P, text, text_left};
use crate::core::game::Game;
use crate::games::parchis::{Ending, Move, Parchis, PieceKind, PowerEffect, Year};

/// Depth of a box along the track.
const D: f32 = 40.0;
/// Width of a box across the track (one of the three columns of an arm).
const CW: f32 = 60.0;
/// Half the side of the central square (the goal): three columns.
const HALF: f32 = 1.5 * CW;
/// Half the side of the board: the centre plus an arm of 8 boxes.
const R: f32 = HALF + 8.0 * D;
const MARGIN: f32 = 10.0;
/// The board's centre in canvas units (the board is a square at the top of the canvas).
const C0: f32 = R + MARGIN;
const BOARD: f32 = 2.0 * C0;
/// Height of the panel under the board.
const PANEL: f32 = 360.0;
/// Radius of a lone piece on a track box.
const PIECE_R: f32 = 20.0;

const COLOURS: [&str; 4] = [P::YELLOW, P::BLUE, P::RED, P::GREEN];
const NAMES: [&str; 4] = ["yellow", "blue", "red", "green"];
const LETTERS: [char; 4] = ['y', 'b', 'r', 'g'];
const NORMAL_DICE: [u8; 5] = [1, 2, 4, 5, 6];
/// 2024-25's dice, the yin-yang (the move die 69) last, as the core holds them.
const DICE_2024: [u8; 6] = [1, 2, 4, 5, 6, YINYANG];
const YINYANG: u8 = 69;
/// 2023-24's dice, the special die (the move die 100, `power`) last, as the core holds them.
const DICE_2023: [u8; 6] = [1, 2, 4, 5, 6, POWER];
const POWER: u8 = 100;
/// 2023-24: the power bar's values where its effect changes (the core's `movePiece`).
const POWER_STEPS: [u8; 10] = [50, 60, 65, 70, 75, 80, 85, 90, 95, 100];

/// What the special die does with power bar `bar`, as the pictures write it.
fn effect_text(bar: u8) -> String {
    match Parchis::power_effect(bar) {
        PowerEffect::Mushroom(n) => format!("mushroom ({n} boxes)"),
        PowerEffect::RedShell => "red shell".into(),
        PowerEffect::BlueShell => "blue shell".into(),
        e => e.name().into(),
    }
}

/// A die's face as drawn: its number, ☯ for 2024-25's yin-yang, P for 2023-24's special die.
fn die_face(d: u8) -> String {
    if d == YINYANG {
        "☯".into()
    } else if d == POWER {
        "P".into()
    } else {
        d.to_string()
    }
}

/// The two colours of player `p` in `year`: yellow and red, blue and green; in 2024-25 yellow
/// and green, blue and red.
fn player_colours(year: Year, p: usize) -> [usize; 2] {
    match year {
        Year::Y2024 => [p & 1, 3 - (p & 1)],
        Year::Y2021 | Year::Y2022 | Year::Y2023 => [p & 1, (p & 1) + 2],
    }
}
/// Short names of the item kinds for the small icons on the board (legend in the panel).
const ITEM_SHORT: [&str; 10] = ["St", "Bo", "Bu", "RS", "BS", "Mu", "MM", "Sh", "Ho", "Ba"];
/// Hand slots drawn per player (a playground hand holds 5 items).
const HAND_SLOTS: usize = 5;
/// The colour of a bananed piece's ring and of banana traps' outline.
const BANANA_DARK: &str = "#7A5C00";

/// Text colour on a piece of colour `c`: dark on yellow, white on the darker colours.
fn ink_on(c: usize) -> &'static str {
    if c == 0 { P::INK } else { P::WHITE }
}

/// `hex` mixed with white: `t` = 1 gives the colour, 0 white.
fn tint(hex: &str, t: f32) -> String {
    let h = hex.trim_start_matches('#');
    let ch = |i: usize| u8::from_str_radix(h.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255);
    let mix = |v: u8| (255.0 - (255.0 - v as f32) * t).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", mix(ch(0)), mix(ch(2)), mix(ch(4)))
}

/// Canvas point of the board-frame point (x, y) of arm `a` (0 right/yellow, 1 top/blue,
/// 2 left/red, 3 bottom/green): `a` quarter turns anticlockwise on screen.
fn at(a: usize, x: f32, y: f32) -> (f32, f32) {
    let (mut x, mut y) = (x, y);
    for _ in 0..(a & 3) {
        (x, y) = (y, -x);
    }
    (x + C0, y + C0)
}

/// A box of an arm in the right arm's frame: `row` −1 is the outgoing side (boxes 17a+1..17a+8,
/// next to the home of colour a), 0 the middle (tip and queue), +1 the incoming side; `i` counts
/// boxes from the outer edge (1..=8).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    arm: usize,
    row: i32,
    i: u32,
}

impl Cell {
    fn centre_local(self) -> (f32, f32) {
        (R - D * (self.i as f32 - 0.5), self.row as f32 * CW)
    }

    fn centre(self) -> (f32, f32) {
        let (x, y) = self.centre_local();
        at(self.arm, x, y)
    }

    /// A point at `along` (towards the outer edge) and `across` (towards row +1) from the centre.
    fn offset(self, along: f32, across: f32) -> (f32, f32) {
        let (x, y) = self.centre_local();
        at(self.arm, x + along, y + across)
    }

    /// The outline as canvas points. The innermost side boxes are cut diagonally into the corner
    /// square between two arms, as on a real board, so that the track has no gap there.
    fn outline(self) -> Vec<f32> {
        let x0 = R - D * self.i as f32;
        let x1 = x0 + D;
        let y0 = self.row as f32 * CW - CW / 2.0;
        let y1 = y0 + CW;
        let local: Vec<(f32, f32)> = match (self.i, self.row) {
            (8, -1) => vec![(x0, y1), (x1, y1), (x1, -HALF - D), (x0, -HALF)],
            (8, 1) => vec![(x0, y0), (x0, HALF), (x1, HALF + D), (x1, y0)],
            _ => vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
        };
        local
            .into_iter()
            .flat_map(|(x, y)| {
                let (cx, cy) = at(self.arm, x, y);
                [cx, cy]
            })
            .collect()
    }
}

/// The cell of track box `b` (1..=68).
fn track_cell(b: u8) -> Cell {
    let b = b as u32;
    if b.is_multiple_of(17) {
        return Cell {
            arm: (b / 17 % 4) as usize,
            row: 0,
            i: 1,
        };
    }
    let (q, rem) = (b / 17, b % 17);
    if rem <= 8 {
        Cell {
            arm: q as usize,
            row: -1,
            i: rem,
        }
    } else {
        Cell {
            arm: ((q + 1) % 4) as usize,
            row: 1,
            i: 17 - rem,
        }
    }
}

/// The cell of queue box `k` (1..=7) of colour `c`.
fn queue_cell(c: usize, k: u8) -> Cell {
    Cell {
        arm: c,
        row: 0,
        i: k as u32 + 1,
    }
}

/// The cell of box code `b` as seen by colour `c` (track or own queue), `None` for home/goal.
fn cell_of(c: usize, b: u8) -> Option<Cell> {
    match b {
        1..=68 => Some(track_cell(b)),
        69..=75 => Some(queue_cell(c, b - 68)),
        _ => None,
    }
}

/// The centre of colour `c`'s home corner.
fn home_centre(c: usize) -> (f32, f32) {
    let m = (HALF + R) / 2.0;
    at(c, m, -m)
}

/// Colour `c`'s home corner: the square between two arms less the small square that the two
/// innermost track boxes share.
fn home_outline(c: usize, inset: f32) -> Vec<f32> {
    let (a, b, e) = (HALF + inset, R - inset, HALF + D + inset);
    [(e, -a), (b, -a), (b, -b), (a, -b), (a, -e), (e, -e)]
        .into_iter()
        .flat_map(|(x, y)| {
            let (cx, cy) = at(c, x, y);
            [cx, cy]
        })
        .collect()
}

/// Colour `c`'s goal triangle (its base is the centre square's side facing the arm).
fn goal_triangle(c: usize) -> Vec<f32> {
    [(HALF, -HALF), (HALF, HALF), (0.0, 0.0)]
        .into_iter()
        .flat_map(|(x, y)| {
            let (cx, cy) = at(c, x, y);
            [cx, cy]
        })
        .collect()
}

/// A representative point of box `b` of colour `c` (paths of the last move).
fn box_point(c: usize, b: u8) -> (f32, f32) {
    match b {
        0 => home_centre(c),
        76 => at(c, HALF * 0.55, 0.0),
        _ => cell_of(c, b).map_or((C0, C0), Cell::centre),
    }
}

/// The box after `b` for a piece of colour `c` (track → own queue at its entrance → goal).
fn next_box(c: usize, b: u8) -> Option<u8> {
    match b {
        _ if b == Parchis::entrance_box(c) => Some(69),
        1..=68 => Some(b % 68 + 1),
        69..=74 => Some(b + 1),
        75 => Some(76),
        _ => None,
    }
}

/// Piece label: colour letter + index (`y0`).
fn piece_name(id: usize) -> String {
    format!("{}{}", LETTERS[id >> 2 & 3], id & 3)
}

/// Sets a text item's anchor ("s" start, "e" end).
fn anchor(it: &mut Item, to: &str) {
    if let Shape::Text { a, .. } = &mut it.shape {
        *a = to.to_string();
    }
}

fn poly(pts: Vec<f32>, fill: &str) -> Item {
    Item::filled(Shape::Polygon { pts }, fill)
}

fn circle(x: f32, y: f32, r: f32, fill: &str) -> Item {
    Item::filled(Shape::Circle { x, y, r }, fill)
}

fn rect(x: f32, y: f32, w: f32, h: f32, rx: f32, fill: &str) -> Item {
    Item::filled(Shape::Rect { x, y, w, h, rx }, fill)
}

/// A star polygon (`n` points) around (x, y).
fn star_points(x: f32, y: f32, outer: f32, inner: f32, n: usize) -> Vec<f32> {
    (0..2 * n)
        .flat_map(|k| {
            let a = std::f32::consts::PI * k as f32 / n as f32 - std::f32::consts::FRAC_PI_2;
            let r = if k % 2 == 0 { outer } else { inner };
            [x + r * a.cos(), y + r * a.sin()]
        })
        .collect()
}

/// A banana (crescent) around (x, y) of size `s`.
fn banana_points(x: f32, y: f32, s: f32) -> Vec<f32> {
    let mut pts = Vec::new();
    let arc = |r: f32, k: f32, dy: f32| -> (f32, f32) {
        let a = std::f32::consts::PI * (0.15 + 0.7 * k);
        (x + r * a.cos(), y - s * 0.55 + dy + r * a.sin())
    };
    for k in 0..=8 {
        let (px, py) = arc(s, k as f32 / 8.0, 0.0);
        pts.extend([px, py]);
    }
    for k in (0..=8).rev() {
        let (px, py) = arc(s * 0.8, k as f32 / 8.0, -s * 0.12);
        pts.extend([px, py]);
    }
    pts
}

/// Decoration drawn under a piece disc of state `kind` (star spikes, bananed ring, boo halo),
/// shared by the marks and the legend.
fn state_under(kind: PieceKind, x: f32, y: f32, r: f32) -> Option<Item> {
    match kind {
        PieceKind::Star => {
            Some(poly(star_points(x, y, r + 9.0, r + 1.0, 8), P::ORANGE).stroke(P::INK, 1.5))
        }
        PieceKind::Bananed => Some(circle(x, y, r + 4.0, P::YELLOW).stroke(BANANA_DARK, 3.0)),
        PieceKind::Boo => Some(circle(x, y, r + 4.0, "").stroke(P::PURPLE, 2.5).dashed(4.0)),
        PieceKind::Mini => Some(circle(x, y, r + 3.0, "").stroke(P::GREY, 1.5).dashed(3.0)),
        PieceKind::Normal | PieceKind::Mega => None,
    }
}

/// The disc of a piece of colour `c` in state `kind`.
fn disc(c: usize, kind: PieceKind, x: f32, y: f32, r: f32) -> Item {
    let it = circle(x, y, r, COLOURS[c]);
    match kind {
        PieceKind::Boo => it.stroke(P::INK, 2.0).dashed(3.0).opacity(0.55),
        PieceKind::Mega => it.stroke(P::INK, 3.5),
        _ => it.stroke(P::INK, 2.0),
    }
}

/// Offsets (along, across, radius) of `n` pieces sharing a box `along` deep and `across` wide:
/// one row across the box up to three pieces, then two rows.
fn slots(n: usize, along: f32, across: f32, max_r: f32) -> Vec<(f32, f32, f32)> {
    let n = n.max(1);
    let rows = if n <= 3 { 1 } else { 2 };
    let cols = n.div_ceil(rows);
    let pa = across / cols as f32;
    let pl = along / rows as f32;
    let r = (pa.min(pl) / 2.0 * 0.97).min(max_r);
    (0..n)
        .map(|k| {
            let (row, col) = (k / cols, k % cols);
            let cols_here = if row + 1 == rows {
                n - row * cols
            } else {
                cols
            };
            let across_off = (col as f32 - (cols_here as f32 - 1.0) / 2.0) * pa;
            let along_off = (row as f32 - (rows as f32 - 1.0) / 2.0) * pl;
            (along_off, across_off, r)
        })
        .collect()
}

/// Where a group of pieces is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Spot {
    Track(u8),
    Queue(usize, u8),
    Home(usize),
    Goal(usize),
}

fn spot_of(id: usize, b: u8) -> Spot {
    let c = id >> 2;
    match b {
        0 => Spot::Home(c),
        76 => Spot::Goal(c),
        69..=75 => Spot::Queue(c, b - 68),
        _ => Spot::Track(b),
    }
}

/// Canvas position and radius of every piece in play, indexed by id.
fn piece_places(s: &Parchis) -> [Option<(f32, f32, f32)>; 16] {
    let mut groups: std::collections::BTreeMap<Spot, Vec<usize>> = Default::default();
    for id in (0..16).filter(|&id| s.piece_in_play(id)) {
        groups
            .entry(spot_of(id, s.piece_box(id)))
            .or_default()
            .push(id);
    }
    let mut out = [None; 16];
    for (spot, ids) in groups {
        let n = ids.len();
        let places: Vec<(f32, f32, f32)> = match spot {
            Spot::Track(b) => cell_slots(track_cell(b), n),
            Spot::Queue(c, k) => cell_slots(queue_cell(c, k), n),
            Spot::Home(c) => {
                let (hx, hy) = home_centre(c);
                slots(n.max(4), 110.0, 110.0, 24.0)
                    .into_iter()
                    .take(n)
                    .map(|(al, ac, r)| (hx + ac, hy + al, r))
                    .collect()
            }
            Spot::Goal(c) => {
                // One row along the triangle's base: four pieces of radius 15 fit its width.
                let r = if n <= 4 { 15.0 } else { 60.0 / n as f32 };
                (0..n)
                    .map(|k| {
                        let across = (k as f32 - (n as f32 - 1.0) / 2.0) * (2.0 * r + 2.0);
                        let (x, y) = at(c, HALF - 22.0, across);
                        (x, y, r)
                    })
                    .collect()
            }
        };
        for (&id, p) in ids.iter().zip(places) {
            out[id] = Some(p);
        }
    }
    out
}

/// Canvas places of `n` pieces sharing a track or queue box.
fn cell_slots(cell: Cell, n: usize) -> Vec<(f32, f32, f32)> {
    slots(n, D, CW, PIECE_R)
        .into_iter()
        .map(|(al, ac, r)| {
            let (x, y) = cell.offset(al, ac);
            (x, y, r)
        })
        .collect()
}

fn colour_player(c: usize) -> usize {
    c & 1
}

/// Top of the panel and the x of player `p`'s card.
const PANEL_Y: f32 = BOARD;
const CARD_Y: f32 = PANEL_Y + 52.0;
const CARD_W: f32 = (BOARD - 30.0) / 2.0;
const CARD_H: f32 = 200.0;

fn card_x(p: usize) -> f32 {
    10.0 + p as f32 * (CARD_W + 10.0)
}

/// x of die `k` (0..5) and of hand slot `k` in player `p`'s card.
fn die_x(p: usize, k: usize) -> f32 {
    card_x(p) + 14.0 + k as f32 * 54.0
}

const DIE_Y: f32 = CARD_Y + 58.0;
const DIE: f32 = 46.0;
const HAND_Y: f32 = CARD_Y + 122.0;
const HAND_H: f32 = 38.0;

/// 2021-22's panel: the centre line of colour row `k` (0 the player's first colour) of a card,
/// the side of its dice, the x of die `d` (1..=6) in a card at `x`, and the x of its bonus box.
fn row_y(k: usize) -> f32 {
    CARD_Y + 73.0 + k as f32 * 58.0
}
const DIE21: f32 = 42.0;
fn die21_x(x: f32, d: u8) -> f32 {
    x + 50.0 + (d as f32 - 1.0) * 46.0
}
fn bonus21_x(x: f32) -> f32 {
    die21_x(x, 7)
}

/// Is this a 2021-22 position (its own panel, see the module doc)?
fn is_2021(s: &Parchis) -> bool {
    s.year() == Year::Y2021
}

/// One die of the panel: a square with its number, bold and framed while the owner holds it,
/// grey and dashed once spent.
fn die_items(dx: f32, dy: f32, side: f32, d: u8, has: bool) -> [Item; 2] {
    let sq = rect(
        dx,
        dy,
        side,
        side,
        7.0,
        if has { P::WHITE } else { "#EFEFEF" },
    );
    let sq = if has {
        sq.stroke(P::INK, 2.5)
    } else {
        sq.stroke("#BBBBBB", 1.5).dashed(4.0)
    };
    let (cx, cy) = (dx + side / 2.0, dy + side / 2.0);
    let t = if has {
        bold(cx, cy, side * 0.56, d.to_string(), P::INK)
    } else {
        text(cx, cy, side * 0.48, d.to_string(), "#AAAAAA")
    };
    [sq, t]
}

fn board_scene(year: Year) -> Scene {
    let mut it: Vec<Item> = Vec::with_capacity(400);
    it.push(rect(0.0, 0.0, BOARD, BOARD + PANEL, 0.0, P::PAPER));
    it.push(rect(MARGIN, MARGIN, 2.0 * R, 2.0 * R, 0.0, P::WHITE).stroke(P::INK, 2.0));
    // Homes: the corner squares, a disc for the pieces and the colour's name.
    for c in 0..4 {
        it.push(poly(home_outline(c, 0.0), &tint(COLOURS[c], 0.35)).stroke(P::INK, 1.5));
        let (hx, hy) = home_centre(c);
        it.push(circle(hx, hy, 92.0, &tint(COLOURS[c], 0.7)).stroke(P::INK, 1.5));
        let top = hy < C0;
        let ty = if top { hy - 125.0 } else { hy + 125.0 };
        it.push(bold(
            hx,
            ty,
            24.0,
            format!(
                "{} · player {}",
                NAMES[c],
                if player_colours(year, 1).contains(&c) {
                    1
                } else {
                    0
                }
            ),
            P::INK,
        ));
        it.push(text(
            hx,
            if top { hy + 108.0 } else { hy - 108.0 },
            15.0,
            "home",
            P::INK,
        ));
    }
    // The goal: one triangle per colour, its queue leading into it.
    for (c, col) in COLOURS.iter().enumerate() {
        it.push(poly(goal_triangle(c), &tint(col, 0.8)).stroke(P::INK, 1.5));
    }
    it.push(bold(C0, C0, 15.0, "GOAL", P::INK));
    // The track.
    for b in 1..=68u8 {
        let cell = track_cell(b);
        let start = (0..4).find(|&c| Parchis::start_box(c) == b);
        let fill = match start {
            Some(c) => tint(COLOURS[c], 0.55),
            None if Parchis::is_safe(b) => "#DADADA".to_string(),
            None => P::WHITE.to_string(),
        };
        it.push(
            poly(cell.outline(), &fill)
                .stroke("#555555", 1.2)
                .tip(format!(
                    "box {b}{}",
                    match start {
                        Some(c) => format!(" (safe, {}'s start)", NAMES[c]),
                        None if Parchis::is_safe(b) => " (safe)".to_string(),
                        None => String::new(),
                    }
                )),
        );
        if Parchis::is_safe(b) {
            let (x, y) = cell.centre();
            it.push(circle(x, y, 11.0, "").stroke("#8A8A8A", 1.5));
        }
        // The number sits on the side of the box away from the middle column, where a lone
        // piece (centred) leaves it visible.
        let side = if cell.row == 0 { -1.0 } else { cell.row as f32 };
        let (x, y) = cell.offset(0.0, side * 22.0);
        it.push(text(x, y, 12.5, b.to_string(), "#555555"));
    }
    // The queues.
    for c in 0..4 {
        for k in 1..=7u8 {
            let cell = queue_cell(c, k);
            it.push(
                poly(cell.outline(), &tint(COLOURS[c], 0.6))
                    .stroke("#555555", 1.2)
                    .tip(format!("{} queue box {k}", NAMES[c])),
            );
            let (x, y) = cell.offset(0.0, 22.0);
            it.push(text(x, y, 11.0, format!("q{k}"), P::INK));
        }
    }
    // The panel: frames of the player cards and the legend.
    for p in 0..2 {
        let x = card_x(p);
        it.push(rect(x, CARD_Y, CARD_W, CARD_H, 8.0, P::WHITE).stroke(P::LIGHT, 1.5));
        let cols = player_colours(year, p);
        for (k, &c) in cols.iter().enumerate() {
            let cx = x + 24.0 + k as f32 * 30.0;
            it.push(circle(cx, CARD_Y + 26.0, 12.0, COLOURS[c]).stroke(P::INK, 1.5));
            it.push(bold(
                cx,
                CARD_Y + 26.0,
                12.0,
                LETTERS[c].to_string(),
                ink_on(c),
            ));
        }
        it.push(bold(
            x + 80.0,
            CARD_Y + 26.0,
            22.0,
            format!("player {p}"),
            P::INK,
        ));
        if let Some(t) = it.last_mut() {
            anchor(t, "s");
        }
        it.push(text_left(
            x + 192.0,
            CARD_Y + 27.0,
            16.0,
            format!("{} + {}", NAMES[cols[0]], NAMES[cols[1]]),
            P::INK,
        ));
        if year == Year::Y2021 {
            // Each colour's dice on a row of its own, led by the colour's disc.
            for (k, &c) in cols.iter().enumerate() {
                let y = row_y(k);
                it.push(circle(x + 26.0, y, 15.0, COLOURS[c]).stroke(P::INK, 1.5));
                it.push(bold(x + 26.0, y, 14.0, LETTERS[c].to_string(), ink_on(c)));
            }
        }
    }
    match year {
        Year::Y2021 => legend_2021(&mut it),
        // 2024-25 is drawn with 2022-23's panel for now (docs/parchis-2024-25.md, "Not done").
        Year::Y2022 => legend(&mut it),
        Year::Y2023 => legend_2023(&mut it),
        Year::Y2024 => legend_2024(&mut it),
    }
    Scene {
        width: BOARD,
        height: BOARD + PANEL,
        items: it,
    }
}

/// 2021-22's legend: what a die, a spent die, a bonus and the mover's frame look like, then the
/// year's rules in one line (no items, no piece states: neither exists that year).
fn legend_2021(it: &mut Vec<Item>) {
    let y = CARD_Y + CARD_H + 30.0;
    let side = 28.0;
    let mut x = 22.0;
    for (has, name) in [(true, "die held"), (false, "die used")] {
        it.extend(die_items(x, y - side / 2.0, side, 3, has));
        it.push(text_left(x + side + 8.0, y, 15.0, name, P::INK));
        x += side + 8.0 + 9.0 * name.len() as f32 + 22.0;
    }
    it.push(rect(x, y - side / 2.0, 44.0, side, 5.0, P::ORANGE).stroke(P::INK, 2.0));
    it.push(bold(x + 22.0, y, 15.0, "+20", P::INK));
    let name = "bonus, moved first";
    it.push(text_left(x + 52.0, y, 15.0, name, P::INK));
    x += 52.0 + 9.0 * name.len() as f32 + 22.0;
    it.push(rect(x, y - side / 2.0, 34.0, side, 5.0, "").stroke(P::INK, 3.5));
    it.push(text_left(x + 42.0, y, 15.0, "colour to move", P::INK));
    it.push(text_left(
        22.0,
        y + 40.0,
        15.0,
        "2021-22 rules: no items · the colours move in turn · each colour has its own dice 1 to 6",
        P::INK,
    ));
}

/// 2024-25's legend: a held and a used die, the yin-yang, a bonus, then the year's rules.
fn legend_2024(it: &mut Vec<Item>) {
    let y = CARD_Y + CARD_H + 30.0;
    let side = 28.0;
    let mut x = 22.0;
    for (d, has, name) in [
        (4, true, "die held"),
        (4, false, "die used"),
        (YINYANG, true, "yin-yang: one box"),
    ] {
        let [sq, _] = die_items(x, y - side / 2.0, side, d, has);
        it.push(sq);
        it.push(if has {
            bold(x + side / 2.0, y, 15.0, die_face(d), P::INK)
        } else {
            text(x + side / 2.0, y, 13.0, die_face(d), "#AAAAAA")
        });
        it.push(text_left(x + side + 8.0, y, 15.0, name, P::INK));
        x += side + 8.0 + 9.0 * name.len() as f32 + 22.0;
    }
    it.push(rect(x, y - side / 2.0, 44.0, side, 5.0, P::ORANGE).stroke(P::INK, 2.0));
    it.push(bold(x + 22.0, y, 15.0, "+20", P::INK));
    it.push(text_left(x + 52.0, y, 15.0, "bonus, moved first", P::INK));
    it.push(text_left(
        22.0,
        y + 40.0,
        15.0,
        "2024-25: no items · the colours take turns · dice count double, ☯ one box · two colours home win",
        P::INK,
    ));
}

/// 2023-24's legend: a held and a used die, the special die, a star, a bonus, then what the
/// power bar makes of the special die, by its value.
fn legend_2023(it: &mut Vec<Item>) {
    // Four lines of effects under the samples: a tighter layout than the other years' legends.
    let y = CARD_Y + CARD_H + 20.0;
    let side = 26.0;
    let mut x = 22.0;
    for (d, has, name) in [
        (4, true, "die held"),
        (4, false, "die used"),
        (POWER, true, "special die"),
    ] {
        let [sq, _] = die_items(x, y - side / 2.0, side, d, has);
        it.push(sq);
        it.push(if has {
            bold(x + side / 2.0, y, 14.0, die_face(d), P::INK)
        } else {
            text(x + side / 2.0, y, 13.0, die_face(d), "#AAAAAA")
        });
        it.push(text_left(x + side + 8.0, y, 15.0, name, P::INK));
        x += side + 8.0 + 9.0 * name.len() as f32 + 20.0;
    }
    if let Some(u) = state_under(PieceKind::Star, x, y, 10.0) {
        it.push(u);
    }
    it.push(disc(1, PieceKind::Star, x, y, 10.0));
    it.push(text_left(x + 18.0, y, 15.0, "star", P::INK));
    x += 18.0 + 9.0 * 4.0 + 20.0;
    it.push(rect(x, y - side / 2.0, 44.0, side, 5.0, P::ORANGE).stroke(P::INK, 2.0));
    it.push(bold(x + 22.0, y, 15.0, "+20", P::INK));
    it.push(text_left(x + 52.0, y, 15.0, "bonus, moved first", P::INK));
    for (k, line) in [
        "2023-24: no items · the special die P does what the player's power bar picks (its moves",
        "fill it: the die, +15 capture, +10 barrier, +5 safe box): 0–49 mushroom 7+bar/7 · 50–59",
        "red shell · 60–64 boom · 65–69 mushroom 25 · 70–74 red shell · 75–79 bullet · 80–84 catapum",
        "85–89 blue shell · 90–94 boomboom · 95–99 star · 100 catapumchimpum",
    ]
    .iter()
    .enumerate()
    {
        it.push(text_left(22.0, y + 24.0 + 18.0 * k as f32, 13.0, *line, P::INK));
    }
}

/// Two legend lines at the bottom of the panel: piece states, then the item abbreviations.
fn legend(it: &mut Vec<Item>) {
    let y = CARD_Y + CARD_H + 30.0;
    let mut x = 22.0;
    let samples = [
        (PieceKind::Star, "star"),
        (PieceKind::Boo, "boo"),
        (PieceKind::Mega, "mega (2 boxes)"),
        (PieceKind::Mini, "mini"),
        (PieceKind::Bananed, "bananed"),
    ];
    for (kind, name) in samples {
        let r = if kind == PieceKind::Mini { 7.0 } else { 10.0 };
        if kind == PieceKind::Mega {
            it.push(
                rect(x - 12.0, y - 12.0, 46.0, 24.0, 4.0, P::GREY)
                    .opacity(0.5)
                    .stroke(P::INK, 2.0),
            );
        }
        if let Some(u) = state_under(kind, x, y, r) {
            it.push(u);
        }
        it.push(disc(1, kind, x, y, r));
        let tx = if kind == PieceKind::Mega {
            x + 40.0
        } else {
            x + 18.0
        };
        it.push(text_left(tx, y, 15.0, name, P::INK));
        x = tx + 9.0 * name.len() as f32 + 22.0;
    }
    it.push(circle(x, y, 9.0, P::INK));
    it.push(bold(x, y, 11.0, "3", P::WHITE));
    it.push(text_left(x + 14.0, y, 15.0, "turns left", P::INK));
    x += 112.0;
    it.push(poly(banana_points(x, y + 4.0, 12.0), P::YELLOW).stroke(BANANA_DARK, 1.5));
    it.push(text_left(x + 16.0, y, 15.0, "banana trap", P::INK));
    for (line, kinds) in [(0u8..5), (5u8..10)].into_iter().enumerate() {
        let names: Vec<String> = kinds
            .map(|k| format!("{} = {}", ITEM_SHORT[k as usize], Parchis::item_name(k)))
            .collect();
        let lead = if line == 0 { "items: " } else { "" };
        it.push(text_left(
            22.0 + if line == 0 { 0.0 } else { 51.0 },
            y + 32.0 + 24.0 * line as f32,
            15.0,
            format!("{lead}{}", names.join(" · ")),
            P::INK,
        ));
    }
}

/// The small icon of a board item of kind `k` on a box (key `item-<box>`).
fn item_icon(k: u8, b: u8) -> [Item; 2] {
    let cell = track_cell(b);
    let side = if cell.row == 0 { 1.0 } else { -cell.row as f32 };
    let (x, y) = cell.offset(0.0, side * 12.0);
    let name = Parchis::item_name(k);
    [
        rect(x - 13.0, y - 10.0, 26.0, 20.0, 4.0, P::WHITE)
            .stroke(P::INK, 1.5)
            .key(format!("item-{b}"))
            .tip(format!("{name} on box {b}")),
        bold(x, y, 12.0, ITEM_SHORT[k as usize % 10], P::INK).key(format!("item-{b}-t")),
    ]
}

fn status_line(s: &Parchis) -> String {
    let mode = if s.is_playground() {
        "Playground · "
    } else {
        ""
    };
    match s.ending() {
        // In 2021-22 one colour moves, not either of the player's two.
        None if is_2021(s) => format!(
            "Turn {} · {} to move (player {})",
            s.turn(),
            NAMES[s.colour_to_move()],
            s.player()
        ),
        // In 2024-25 the colours take turns, and the colour's player moves either of its two.
        None if s.year() == Year::Y2024 => {
            let [a, b] = player_colours(Year::Y2024, s.player());
            format!(
                "Turn {} · {}'s turn: player {} to move ({} + {})",
                s.turn(),
                NAMES[s.colour_to_move()],
                s.player(),
                NAMES[a],
                NAMES[b]
            )
        }
        Some(Ending::Goal { .. }) if s.year() == Year::Y2024 => format!(
            "Game over · player {} wins: both its colours have every piece in the goal",
            winner(s).unwrap_or(0)
        ),
        None => format!(
            "{mode}Turn {} · player {} to move ({} + {})",
            s.turn(),
            s.player(),
            NAMES[s.player()],
            NAMES[s.player() + 2]
        ),
        Some(Ending::Goal { colour }) => format!(
            "{mode}Game over · player {} wins: {} has every piece in the goal",
            colour_player(colour),
            NAMES[colour]
        ),
        Some(Ending::Bounces { winner }) => format!(
            "{mode}Game over · player {winner} wins: player {} bounced more than 30 times",
            1 - winner
        ),
    }
}

fn winner(s: &Parchis) -> Option<usize> {
    match s.ending() {
        None => None,
        Some(Ending::Goal { colour }) => Some(colour_player(colour)),
        Some(Ending::Bounces { winner }) => Some(winner),
    }
}

fn piece_tip(s: &Parchis, id: usize) -> String {
    let c = id >> 2;
    let b = s.piece_box(id);
    let place = match b {
        0 => "home".to_string(),
        76 => "goal".to_string(),
        69..=75 => format!("queue box {}", b - 68),
        _ if Parchis::is_safe(b) => format!("box {b} (safe)"),
        _ => format!("box {b}"),
    };
    let kind = s.piece_kind(id);
    let n = s.piece_counter(id);
    let state = match (kind, n) {
        (PieceKind::Normal, 0) => String::new(),
        (k, 0) => format!(", {}", k.name()),
        (k, n) => format!(
            ", {} ({n} turn{} left)",
            k.name(),
            if n == 1 { "" } else { "s" }
        ),
    };
    format!(
        "{} ({}, player {}): {place}{state}",
        piece_name(id),
        NAMES[c],
        colour_player(c)
    )
}

impl Parchis {
    fn piece_marks(&self, out: &mut Vec<Item>) {
        let places = piece_places(self);
        // Mega footprints first: they lie under every piece.
        for id in (0..16).filter(|&id| self.piece_in_play(id)) {
            let c = id >> 2;
            let b = self.piece_box(id);
            if self.piece_kind(id) != PieceKind::Mega {
                continue;
            }
            let second = next_box(c, b).filter(|&n| n != 76);
            let boxes = [cell_of(c, b), second.and_then(|n| cell_of(c, n))];
            for (k, cell) in boxes.into_iter().enumerate() {
                if let Some(cell) = cell {
                    out.push(
                        poly(cell.outline(), COLOURS[c])
                            .opacity(0.55)
                            .stroke(P::INK, 3.0)
                            .key(format!("mega-{}-{}", piece_name(id), k)),
                    );
                }
            }
        }
        for id in (0..16).filter(|&id| self.piece_in_play(id)) {
            let Some((x, y, r0)) = places[id] else {
                continue;
            };
            let c = id >> 2;
            let name = piece_name(id);
            let kind = self.piece_kind(id);
            let r = match kind {
                PieceKind::Mini => r0 * 0.72,
                _ => r0,
            };
            if let Some(u) = state_under(kind, x, y, r) {
                out.push(u.key(format!("state-{name}")));
            }
            let tip = piece_tip(self, id);
            out.push(
                disc(c, kind, x, y, r)
                    .key(format!("piece-{name}"))
                    .target(name.clone())
                    .tip(tip.clone()),
            );
            let size = if kind == PieceKind::Mini {
                r * 1.05
            } else {
                r * 0.92
            };
            out.push(
                bold(x, y, size, name.clone(), ink_on(c))
                    .key(format!("label-{name}"))
                    .target(name.clone())
                    .tip(tip),
            );
            let n = self.piece_counter(id);
            if n > 0 {
                let (bx, by) = (x + r * 0.8, y - r * 0.8);
                out.push(
                    circle(bx, by, 8.5, P::INK)
                        .stroke(P::WHITE, 1.0)
                        .key(format!("ctr-{name}")),
                );
                out.push(bold(bx, by, 11.0, n.to_string(), P::WHITE).key(format!("ctr-{name}-t")));
            }
        }
    }

    fn board_marks(&self, out: &mut Vec<Item>) {
        for (k, b) in self.board_items() {
            out.extend(item_icon(k, b));
        }
    }

    /// Banana traps, drawn over the pieces: big in an empty box, small at its side otherwise.
    fn trap_marks(&self, out: &mut Vec<Item>) {
        let traps = self.traps();
        let mut seen: Vec<u8> = Vec::new();
        for &b in traps {
            if seen.contains(&b) {
                continue;
            }
            seen.push(b);
            let n = traps.iter().filter(|&&t| t == b).count();
            let cell = track_cell(b);
            let busy = (0..16).any(|id| self.piece_in_play(id) && self.piece_box(id) == b);
            let side = if cell.row == 0 { 1.0 } else { -cell.row as f32 };
            let (x, y, size) = if busy {
                let (x, y) = cell.offset(D / 2.0 - 7.0, side * 23.0);
                (x, y, 9.0)
            } else {
                let (x, y) = cell.centre();
                (x, y, 15.0)
            };
            let many = if n > 1 {
                format!(" ×{n}")
            } else {
                String::new()
            };
            out.push(
                poly(banana_points(x, y + size / 3.0, size), P::YELLOW)
                    .stroke(BANANA_DARK, 2.0)
                    .key(format!("trap-{b}"))
                    .tip(format!("banana trap on box {b}{many}")),
            );
            if n > 1 {
                out.push(
                    bold(x + size + 4.0, y, 12.0, format!("×{n}"), BANANA_DARK)
                        .key(format!("trap-{b}-n")),
                );
                if let Some(t) = out.last_mut() {
                    anchor(t, "s");
                }
            }
        }
    }

    fn last_marks(&self, prev: &Parchis, m: Move, out: &mut Vec<Item>) {
        if m.is_pass() {
            return;
        }
        let id = m.piece as usize & 15;
        let c = id >> 2;
        let (from, to) = (prev.piece_box(id), self.piece_box(id));
        let outline = |b: u8| -> Option<Vec<f32>> {
            match b {
                0 | 76 => None,
                _ => cell_of(c, b).map(Cell::outline),
            }
        };
        if let Some(pts) = outline(from) {
            out.push(
                poly(pts, "")
                    .stroke(P::HIGHLIGHT, 4.0)
                    .dashed(6.0)
                    .key("last-from")
                    .class("last"),
            );
        }
        if from != to
            && let Some(pts) = outline(to)
        {
            out.push(
                poly(pts, "")
                    .stroke(P::HIGHLIGHT, 5.0)
                    .key("last-to")
                    .class("last"),
            );
        }
        if from != to {
            // Follow the track when the piece went forward along it; otherwise (home exits,
            // bounces, pieces sent home, jumps) a straight line.
            let mut path = vec![box_point(c, from)];
            let mut cur = from;
            let mut reached = from == 0;
            if from != 0 {
                for _ in 0..80 {
                    match next_box(c, cur) {
                        Some(n) => {
                            cur = n;
                            path.push(box_point(c, n));
                            if n == to {
                                reached = true;
                                break;
                            }
                        }
                        None => break,
                    }
                }
            }
            if !reached || from == 0 {
                path = vec![box_point(c, from), box_point(c, to)];
            }
            // Stop short of the destination's centre so the arrowhead shows beside the piece.
            let (ex, ey) = path[path.len() - 1];
            let (px, py) = path[path.len() - 2];
            let len = ((ex - px).powi(2) + (ey - py).powi(2)).sqrt().max(1e-3);
            let (ux, uy) = ((ex - px) / len, (ey - py) / len);
            let back = 18.0_f32.min(len * 0.5);
            let (tx, ty) = (ex - ux * back, ey - uy * back);
            let n = path.len();
            path[n - 1] = (tx - ux * 10.0, ty - uy * 10.0);
            let pts: Vec<f32> = path.iter().flat_map(|&(x, y)| [x, y]).collect();
            out.push(
                Item::filled(Shape::Polyline { pts }, "")
                    .stroke(P::HIGHLIGHT, 5.0)
                    .opacity(0.85)
                    .key("last-path")
                    .class("last"),
            );
            let (nx, ny) = (-uy, ux);
            out.push(
                poly(
                    vec![
                        tx,
                        ty,
                        tx - ux * 16.0 + nx * 9.0,
                        ty - uy * 16.0 + ny * 9.0,
                        tx - ux * 16.0 - nx * 9.0,
                        ty - uy * 16.0 - ny * 9.0,
                    ],
                    P::HIGHLIGHT,
                )
                .key("last-head")
                .class("last"),
            );
        }
        // Pieces the move sent home: a dashed ring where they stood.
        let before = piece_places(prev);
        for v in (0..16).filter(|&v| v != id && self.piece_in_play(v)) {
            if prev.piece_box(v) != 0
                && self.piece_box(v) == 0
                && let Some((x, y, r)) = before[v]
            {
                {
                    out.push(
                        circle(x, y, r, "")
                            .stroke(COLOURS[v >> 2], 3.0)
                            .dashed(4.0)
                            .key(format!("gone-{}", piece_name(v)))
                            .tip(format!("{} was sent home by the last move", piece_name(v))),
                    );
                }
            }
        }
    }

    /// 2022-23's card contents: the player's five dice, its pending bonus and its items.
    fn dice_and_items(&self, p: usize, out: &mut Vec<Item>) {
        let x = card_x(p);
        let left = self.normal_dice(p);
        let y2024 = self.year() == Year::Y2024;
        let y2023 = self.year() == Year::Y2023;
        let dice: &[u8] = match self.year() {
            Year::Y2024 => &DICE_2024,
            Year::Y2023 => &DICE_2023,
            _ => &NORMAL_DICE,
        };
        for (k, &d) in dice.iter().enumerate() {
            let has = left.contains(&d);
            let dx = die_x(p, k);
            let sq = rect(
                dx,
                DIE_Y,
                DIE,
                DIE,
                7.0,
                if has { P::WHITE } else { "#EFEFEF" },
            );
            let sq = if has {
                sq.stroke(P::INK, 2.5)
            } else {
                sq.stroke("#BBBBBB", 1.5).dashed(4.0)
            };
            let name = if d == YINYANG {
                "yin-yang (one box)".to_string()
            } else if d == POWER {
                format!("P, the special die (now: {})", effect_text(self.power(p)))
            } else if y2024 {
                format!("{d} ({} boxes)", 2 * d)
            } else {
                d.to_string()
            };
            out.push(sq.key(format!("die-p{p}-{k}")).tip(format!(
                "player {p}: die {name} {}",
                if has { "available" } else { "used" }
            )));
            let t = if has {
                bold(dx + DIE / 2.0, DIE_Y + DIE / 2.0, 26.0, die_face(d), P::INK)
            } else {
                text(
                    dx + DIE / 2.0,
                    DIE_Y + DIE / 2.0,
                    22.0,
                    die_face(d),
                    "#AAAAAA",
                )
            };
            out.push(t.key(format!("die-p{p}-{k}-t")));
        }
        let pending = self.pending(p);
        if let Some(&due) = pending.last() {
            let bx = die_x(p, dice.len()) + 4.0;
            let w = x + CARD_W - 10.0 - bx;
            let label: Vec<String> = pending.iter().rev().map(|v| format!("+{v}")).collect();
            out.push(
                rect(bx, DIE_Y, w, DIE, 7.0, P::ORANGE)
                    .stroke(P::INK, 2.0)
                    .key(format!("bonus-p{p}"))
                    .tip(format!(
                        "pending bonus: player {p} must move {due} next (no other die until then)"
                    )),
            );
            let size = (w / (0.62 * label.join(" ").len() as f32)).min(24.0);
            out.push(
                bold(
                    bx + w / 2.0,
                    DIE_Y + DIE / 2.0,
                    size,
                    label.join(" "),
                    P::INK,
                )
                .key(format!("bonus-p{p}-t")),
            );
        }
        if y2024 {
            // 2024-25 has no items: no hand.
            return;
        }
        if y2023 {
            // 2023-24 has no items: the power bar where the hand was.
            self.power_bar(p, out);
            return;
        }
        let hand = self.hand(p);
        // Wide slots for the usual hand of at most two items, narrower for a playground's 5.
        let pitch = (CARD_W - 20.0) / hand.len().clamp(3, HAND_SLOTS) as f32;
        let slot_w = pitch - 6.0;
        for (k, &item) in hand.iter().enumerate().take(HAND_SLOTS) {
            let hx = x + 10.0 + k as f32 * pitch;
            let name = Parchis::item_name(item);
            out.push(
                rect(hx, HAND_Y, slot_w, HAND_H, 6.0, "#F3EFE2")
                    .stroke(P::INK, 1.5)
                    .key(format!("hand-p{p}-{k}"))
                    .tip(format!("player {p} holds {name}")),
            );
            // Compound names go on two lines so that a narrow playground slot stays legible.
            let lines: Vec<&str> = match name {
                "megamushroom" => vec!["mega", "mushroom"],
                "redshell" => vec!["red", "shell"],
                "blueshell" => vec!["blue", "shell"],
                _ => vec![name],
            };
            let longest = lines.iter().map(|l| l.len()).max().unwrap_or(1) as f32;
            let size = (slot_w / (0.72 * longest)).min(if lines.len() > 1 { 14.0 } else { 16.0 });
            let cy = HAND_Y + HAND_H / 2.0;
            for (j, line) in lines.iter().enumerate() {
                let dy = (j as f32 - (lines.len() as f32 - 1.0) / 2.0) * size * 1.05;
                let key = if j == 0 {
                    format!("hand-p{p}-{k}-t")
                } else {
                    format!("hand-p{p}-{k}-t{j}")
                };
                out.push(bold(hx + slot_w / 2.0, cy + dy, size, *line, P::INK).key(key));
            }
        }
        if hand.is_empty() {
            out.push(
                text_left(x + 14.0, HAND_Y + HAND_H / 2.0, 15.0, "no items", P::GREY)
                    .key(format!("hand-p{p}-none")),
            );
        }
    }

    /// 2023-24: player `p`'s power bar in its card, filled to its value (0 to 100) over ticks where
    /// the special die's effect changes, with the value and what the die would do now.
    fn power_bar(&self, p: usize, out: &mut Vec<Item>) {
        let x = card_x(p) + 10.0;
        let w = CARD_W - 20.0;
        let h = 18.0;
        let y = HAND_Y + 2.0;
        let bar = self.power(p);
        let effect = effect_text(bar);
        out.push(
            rect(x, y, w, h, 5.0, "#F3EFE2")
                .stroke(P::INK, 1.5)
                .key(format!("power-p{p}"))
                .tip(format!(
                    "player {p}'s power bar: {bar} of 100; its special die would be: {effect}"
                )),
        );
        if bar > 0 {
            out.push(
                rect(x, y, w * f32::from(bar) / 100.0, h, 5.0, P::ORANGE)
                    .key(format!("power-p{p}-fill")),
            );
        }
        for (k, &v) in POWER_STEPS[..POWER_STEPS.len() - 1].iter().enumerate() {
            let tx = x + w * f32::from(v) / 100.0;
            out.push(
                Item::filled(
                    Shape::Polyline {
                        pts: vec![tx, y, tx, y + h],
                    },
                    "",
                )
                .stroke(P::GREY, 1.0)
                .key(format!("power-p{p}-tick{k}")),
            );
        }
        out.push(
            text_left(
                x,
                y + h + 13.0,
                15.0,
                format!("power {bar} · P: {effect}"),
                P::INK,
            )
            .key(format!("power-p{p}-t")),
        );
    }

    /// 2021-22's card contents: for each of the player's colours its six dice (the ones spent
    /// grey and dashed) and its pending bonus; the colour to move's row framed.
    fn colour_rows(&self, p: usize, out: &mut Vec<Item>) {
        let x = card_x(p);
        let mover = (self.ending().is_none()).then(|| self.colour_to_move());
        for (k, c) in [p, p + 2].into_iter().enumerate() {
            let y = row_y(k);
            let l = LETTERS[c];
            if mover == Some(c) {
                out.push(
                    rect(x + 6.0, y - 27.0, CARD_W - 12.0, 54.0, 8.0, "")
                        .stroke(P::INK, 3.5)
                        .key("turn-row")
                        .tip(format!("{} to move", NAMES[c])),
                );
            }
            let held = self.colour_dice(c);
            for d in 1..=6u8 {
                let has = held.contains(&d);
                let [sq, t] = die_items(die21_x(x, d), y - DIE21 / 2.0, DIE21, d, has);
                out.push(sq.key(format!("die-{l}-{d}")).tip(format!(
                    "{}: die {d} {}",
                    NAMES[c],
                    if has { "available" } else { "used" }
                )));
                out.push(t.key(format!("die-{l}-{d}-t")));
            }
            let pending = self.colour_pending(c);
            if let Some(&due) = pending.last() {
                let bx = bonus21_x(x);
                let w = x + CARD_W - 12.0 - bx;
                let label: Vec<String> = pending.iter().rev().map(|v| format!("+{v}")).collect();
                out.push(
                    rect(bx, y - DIE21 / 2.0, w, DIE21, 7.0, P::ORANGE)
                        .stroke(P::INK, 2.0)
                        .key(format!("bonus-{l}"))
                        .tip(format!(
                            "pending bonus: {} must move {due} next (no other die until then)",
                            NAMES[c]
                        )),
                );
                // Bold digits and signs are about 0.7 em wide: two layers fit at a smaller size.
                let size = (w / (0.72 * label.join(" ").len() as f32)).min(22.0);
                out.push(
                    bold(bx + w / 2.0, y, size, label.join(" "), P::INK)
                        .key(format!("bonus-{l}-t")),
                );
            }
        }
    }

    fn panel_marks(&self, last: Option<(&Parchis, Move)>, out: &mut Vec<Item>) {
        out.push(text_left(20.0, PANEL_Y + 24.0, 24.0, status_line(self), P::INK).key("status"));
        let win = winner(self);
        for p in 0..2 {
            let x = card_x(p);
            let moving = win.is_none() && self.player() == p;
            if moving || win == Some(p) {
                out.push(
                    rect(x, CARD_Y, CARD_W, CARD_H, 8.0, "")
                        .stroke(P::INK, 4.0)
                        .key(format!("card-p{p}")),
                );
                let tag = if moving { "TO MOVE" } else { "WINNER" };
                out.push(
                    rect(x + CARD_W - 104.0, CARD_Y + 10.0, 94.0, 30.0, 6.0, P::INK)
                        .key(format!("tag-p{p}")),
                );
                out.push(
                    bold(x + CARD_W - 57.0, CARD_Y + 25.0, 15.0, tag, P::WHITE)
                        .key(format!("tag-p{p}-t")),
                );
            }
            if is_2021(self) {
                self.colour_rows(p, out);
            } else {
                self.dice_and_items(p, out);
            }
            let [ca, cb] = player_colours(self.year(), p);
            let mut bounces = text(
                x + CARD_W - 14.0,
                CARD_Y + CARD_H - 18.0,
                13.0,
                format!(
                    "bounces: {} {} · {} {}",
                    LETTERS[ca],
                    self.bounces(ca),
                    LETTERS[cb],
                    self.bounces(cb)
                ),
                P::GREY,
            )
            .key(format!("bounces-p{p}"))
            .tip("goal bounces per colour (a player loses after more than 30)");
            anchor(&mut bounces, "e");
            out.push(bounces);
            if let Some((prev, m)) = last.filter(|(prev, _)| prev.player() == p) {
                out.push(
                    text_left(
                        x + 14.0,
                        CARD_Y + CARD_H - 18.0,
                        15.0,
                        format!("last move {}", prev.format_move(m)),
                        P::HIGHLIGHT,
                    )
                    .key("last-text"),
                );
            }
        }
    }
}

impl Draw for Parchis {
    fn board(&self) -> Scene {
        board_scene(self.year())
    }

    fn marks(&self, last: Option<(&Self, Self::Move)>) -> Vec<Item> {
        let mut out = Vec::with_capacity(160);
        // The mover's homes get a thick frame: whose turn it is shows on the board too.
        // In 2021-22 only the colour to move moves: its home alone.
        if winner(self).is_none() {
            let p = self.player();
            let homes = if is_2021(self) {
                vec![self.colour_to_move()]
            } else {
                player_colours(self.year(), p).to_vec()
            };
            for (k, c) in homes.into_iter().enumerate() {
                out.push(
                    poly(home_outline(c, 3.0), "")
                        .stroke(P::INK, 6.0)
                        .key(format!("turn-home-{k}")),
                );
            }
        }
        self.board_marks(&mut out);
        if let Some((prev, m)) = last {
            self.last_marks(prev, m, &mut out);
        }
        self.piece_marks(&mut out);
        self.trap_marks(&mut out);
        self.panel_marks(last, &mut out);
        out
    }

    fn move_target(&self, m: Self::Move) -> MoveTarget {
        let text = self.format_move(m);
        let (target, choice) = text.split_once(':').unwrap_or((text.as_str(), ""));
        MoveTarget {
            target: target.to_string(),
            choice: choice.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn track_cells_are_distinct_and_follow_the_simulator() {
        let mut seen = Vec::new();
        for b in 1..=68u8 {
            let c = track_cell(b);
            assert!(!seen.contains(&c), "box {b} shares a cell");
            seen.push(c);
        }
        for c in 0..4 {
            for k in 1..=7 {
                assert!(!seen.contains(&queue_cell(c, k)));
            }
        }
        // Box 1 at the right edge just above the middle; 17 the top tip; 68 the right tip.
        let (x, y) = track_cell(1).centre();
        assert!(x > C0 + R - D && y < C0);
        let (x, y) = track_cell(17).centre();
        assert!((x - C0).abs() < 1.0 && y < C0 - R + D);
        let (x, y) = track_cell(68).centre();
        assert!(x > C0 + R - D && (y - C0).abs() < 1.0);
        // Consecutive boxes are neighbours (at most one box apart, corners included).
        for b in 1..=68u8 {
            let (x0, y0) = track_cell(b).centre();
            let (x1, y1) = track_cell(b % 68 + 1).centre();
            let d = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
            assert!(d < 1.5 * CW, "boxes {b} and {} are {d} apart", b % 68 + 1);
        }
        // Every home sits next to its start box.
        for c in 0..4 {
            let (hx, hy) = home_centre(c);
            let (sx, sy) = track_cell(Parchis::start_box(c)).centre();
            assert!(((hx - sx).powi(2) + (hy - sy).powi(2)).sqrt() < R - HALF);
        }
    }

    #[test]
    fn slots_never_overlap() {
        for n in 1..=6 {
            let s = slots(n, D, CW, PIECE_R);
            for i in 0..n {
                for j in i + 1..n {
                    let d = ((s[i].0 - s[j].0).powi(2) + (s[i].1 - s[j].1).powi(2)).sqrt();
                    assert!(d >= s[i].2 + s[j].2 - 0.01, "{n} pieces: slots {i} and {j}");
                }
            }
        }
    }

    #[test]
    fn tint_mixes_with_white() {
        assert_eq!(tint("#000000", 0.0), "#ffffff");
        assert_eq!(tint("#0072B2", 1.0), "#0072b2");
    }
}
