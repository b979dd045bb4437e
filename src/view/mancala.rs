//! Pictures of Kalah(m, n) ([`Mancala`]): North's row on top seen from South, as `display()`
//! prints it — North's pit 1 and store on the left, South's pit 1 and store on the right — with
//! the pit numbers of move notation beside each row, seed counts and (up to 19 seeds) one dot
//! per seed, the stores with their counts, the side to move or the final score, and the last
//! move (the pit played and every pit or store it sowed into).
//!
//! Keys: pit `k` of South is `S<k>`, of North `N<k>` (`.n` its count, `.d<i>` its dots, `.hit`
//! the click area of the side to move's pits); stores are `Sstore`/`Nstore`.

use super::{Draw, Item, MoveTarget, Scene, Shape, bold, palette, text, text_left};
use crate::core::game::{Game, Outcome, Side};
use crate::games::mancala::{Mancala, MancalaMove, MoveKind};

const PAD: f32 = 20.0;
const STATUS_H: f32 = 96.0;
/// Height of a row of pit numbers (above the board for North, below it for South).
const LABEL_H: f32 = 48.0;
/// Width of one pit column.
const COL: f32 = 100.0;
/// Width of a store column (and the gap beside it).
const STORE_W: f32 = 110.0;
/// Inner margin of the board.
const INNER: f32 = 14.0;
/// Height of a count row inside the board.
const COUNT_H: f32 = 38.0;
/// Radius of a pit.
const PIT_R: f32 = 44.0;
/// Height of a pit row.
const PIT_ROW: f32 = 2.0 * PIT_R + 12.0;
/// Radius of a seed dot.
const DOT_R: f32 = 7.0;
/// Most seeds drawn as dots (a full hexagonal packing of three rings); above it the count is
/// written in the pit.
const MAX_DOTS: usize = 19;

const BOARD_FILL: &str = "#D9C7A1";
const BOARD_EDGE: &str = "#8A6D45";
const PIT_FILL: &str = "#F4ECDC";
const SEED: &str = "#4A3A28";

/// Side colours as in every picture: the first player vermillion, the second yellow.
fn side_colours(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::First => (palette::RED, palette::WHITE),
        Side::Second => (palette::YELLOW, palette::INK),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "South",
        Side::Second => "North",
    }
}

fn side_letter(side: Side) -> &'static str {
    match side {
        Side::First => "S",
        Side::Second => "N",
    }
}

#[derive(Clone, Copy)]
struct Layout {
    m: usize,
}

impl Layout {
    fn width(&self) -> f32 {
        2.0 * PAD + 2.0 * STORE_W + self.m as f32 * COL
    }
    fn board_top(&self) -> f32 {
        PAD + STATUS_H + LABEL_H
    }
    fn board_h(&self) -> f32 {
        2.0 * (INNER + COUNT_H + PIT_ROW)
    }
    fn height(&self) -> f32 {
        self.board_top() + self.board_h() + LABEL_H + PAD
    }
    /// Column index (0 = leftmost) of `side`'s pit `k`.
    fn column(&self, side: Side, k: usize) -> usize {
        match side {
            Side::Second => k - 1,
            Side::First => self.m - k,
        }
    }
    /// Centre of `side`'s pit `k`.
    fn pit(&self, side: Side, k: usize) -> (f32, f32) {
        let x = PAD + STORE_W + (self.column(side, k) as f32 + 0.5) * COL;
        let top = self.board_top() + INNER;
        let y = match side {
            Side::Second => top + COUNT_H + PIT_ROW / 2.0,
            Side::First => top + COUNT_H + 1.5 * PIT_ROW,
        };
        (x, y)
    }
    /// Where `side`'s pit `k` count is written (outside the pit, towards the board's edge).
    fn count_at(&self, side: Side, k: usize) -> (f32, f32) {
        let (x, y) = self.pit(side, k);
        match side {
            Side::Second => (x, y - PIT_ROW / 2.0 - COUNT_H / 2.0 + 4.0),
            Side::First => (x, y + PIT_ROW / 2.0 + COUNT_H / 2.0 - 4.0),
        }
    }
    /// The rectangle (x, y, w, h) of `side`'s store.
    fn store(&self, side: Side) -> (f32, f32, f32, f32) {
        let y = self.board_top() + INNER + 6.0;
        let h = self.board_h() - 2.0 * INNER - 12.0;
        let w = STORE_W - 2.0 * INNER;
        let x = match side {
            Side::Second => PAD + INNER,
            Side::First => PAD + STORE_W + self.m as f32 * COL + INNER,
        };
        (x, y, w, h)
    }
}

/// Offsets of `n` (at most [`MAX_DOTS`]) seed dots: up to 6 on a small ring, 7 as a centre and
/// a ring of 6, more with an outer ring of up to 12 filled evenly around.
fn dot_offsets(n: usize) -> Vec<(f32, f32)> {
    let ring = |k: usize, i: usize, rad: f32, turn: f32| {
        let a = std::f32::consts::TAU * i as f32 / k as f32 + turn;
        (rad * a.cos(), rad * a.sin())
    };
    let start = -std::f32::consts::FRAC_PI_2;
    match n {
        0 => vec![],
        1 => vec![(0.0, 0.0)],
        2 | 3 => (0..n).map(|i| ring(n, i, 11.0, start)).collect(),
        4..=6 => (0..n).map(|i| ring(n, i, 17.0, start)).collect(),
        _ => {
            let mut v = vec![(0.0, 0.0)];
            v.extend((0..6).map(|i| ring(6, i, 16.0, start)));
            // The outer ring's slots in an order that keeps any prefix evenly spread.
            const ORDER: [usize; 12] = [0, 6, 3, 9, 1, 7, 4, 10, 2, 8, 5, 11];
            let outer = n.min(MAX_DOTS) - 7;
            v.extend(
                ORDER
                    .iter()
                    .take(outer)
                    .map(|&i| ring(12, i, 31.0, start + std::f32::consts::PI / 12.0)),
            );
            v
        }
    }
}

fn chip(x: f32, y: f32, w: f32, h: f32, side: Side, label: String) -> (Item, Item) {
    let (fill, ink) = side_colours(side);
    (
        Item::filled(
            Shape::Rect {
                x: x - w / 2.0,
                y: y - h / 2.0,
                w,
                h,
                rx: h / 2.0,
            },
            fill,
        )
        .stroke(palette::INK, 1.5),
        bold(x, y, h * 0.62, label, ink),
    )
}

/// Positions a move of `side` from pit `k` with `seeds` seeds sows into, in order; `None` is
/// the mover's store. Beyond one lap every position repeats, so at most one lap is listed.
fn sown(m: usize, side: Side, k: usize, seeds: usize) -> Vec<(Side, Option<usize>)> {
    let mut out = Vec::new();
    let mut pos = (side, Some(k));
    for _ in 0..seeds.min(2 * m + 1) {
        pos = match pos {
            (s, Some(p)) if s == side && p > 1 => (s, Some(p - 1)),
            (s, Some(_)) if s == side => (s, None),
            (s, None) => (s.other(), Some(m)),
            (s, Some(p)) if p > 1 => (s, Some(p - 1)),
            // The opponent's pit 1 is followed by the mover's farthest pit (its store skipped).
            (_, Some(_)) => (side, Some(m)),
        };
        out.push(pos);
    }
    out
}

impl Draw for Mancala {
    fn board(&self) -> Scene {
        let l = Layout { m: self.pits() };
        let m = l.m;
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
        items.push(
            Item::filled(
                Shape::Rect {
                    x: PAD,
                    y: l.board_top(),
                    w: l.width() - 2.0 * PAD,
                    h: l.board_h(),
                    rx: 40.0,
                },
                BOARD_FILL,
            )
            .stroke(BOARD_EDGE, 4.0),
        );
        for side in [Side::Second, Side::First] {
            let (x, y, w, h) = l.store(side);
            let (edge, _) = side_colours(side);
            items.push(
                Item::filled(
                    Shape::Rect {
                        x,
                        y,
                        w,
                        h,
                        rx: w / 2.0,
                    },
                    PIT_FILL,
                )
                .stroke(edge, 5.0)
                .tip(format!("{} store", side_name(side))),
            );
            items.push(text(x + w / 2.0, y + 30.0, 18.0, "store", palette::GREY));
            for k in 1..=m {
                let (px, py) = l.pit(side, k);
                items.push(
                    Item::filled(
                        Shape::Circle {
                            x: px,
                            y: py,
                            r: PIT_R,
                        },
                        PIT_FILL,
                    )
                    .stroke(edge, 4.0)
                    .tip(format!("{} pit {k}", side_name(side))),
                );
                // Pit numbers as in move notation, in the side's colour.
                let ly = match side {
                    Side::Second => l.board_top() - LABEL_H / 2.0,
                    Side::First => l.board_top() + l.board_h() + LABEL_H / 2.0,
                };
                let (c, t) = chip(px, ly, 60.0, 40.0, side, k.to_string());
                items.push(c);
                items.push(t);
            }
            // The side's name beside its row of numbers, over (North) or under (South) its store.
            let (sx, _, sw, _) = l.store(side);
            let ly = match side {
                Side::Second => l.board_top() - LABEL_H / 2.0,
                Side::First => l.board_top() + l.board_h() + LABEL_H / 2.0,
            };
            items.push(bold(sx + sw / 2.0, ly, 26.0, side_name(side), palette::INK));
        }
        Scene {
            width: l.width(),
            height: l.height(),
            items,
        }
    }

    fn marks(&self, last: Option<(&Self, MancalaMove)>) -> Vec<Item> {
        let l = Layout { m: self.pits() };
        let m = l.m;
        let mut items = Vec::new();
        let mover = self.side_to_move();
        let outcome = self.outcome();
        let y1 = PAD + 30.0;
        let y2 = PAD + 74.0;
        let (s_total, n_total) = (self.store(Side::First), self.store(Side::Second));
        let (icon, line1) = match outcome {
            None => (Some(mover), format!("{} to move", side_name(mover))),
            Some(Outcome::Win(w)) => (
                Some(w),
                format!(
                    "{} wins {}–{}",
                    side_name(w),
                    self.store(w),
                    self.store(w.other())
                ),
            ),
            Some(Outcome::Draw) => (None, format!("Draw {s_total}–{n_total}")),
        };
        let mut x = PAD;
        if let Some(s) = icon {
            let (fill, ink) = side_colours(s);
            items.push(
                Item::filled(
                    Shape::Circle {
                        x: PAD + 22.0,
                        y: y1,
                        r: 22.0,
                    },
                    fill,
                )
                .stroke(palette::INK, 1.5)
                .key("status.stone"),
            );
            items.push(bold(PAD + 22.0, y1, 24.0, side_letter(s), ink).key("status.letter"));
            x = PAD + 56.0;
        }
        let size = super::fit(34.0, &line1, l.width() - x - PAD, true);
        let mut t = bold(x, y1, size, line1, palette::INK).key("status");
        if let Shape::Text { a, .. } = &mut t.shape {
            *a = "s".into();
        }
        items.push(t);
        let total = self.total_seeds() as usize;
        let mut detail = if total.is_multiple_of(2 * m) {
            format!("Kalah({m}, {})", total / (2 * m))
        } else {
            format!("{m} pits, {total} seeds")
        };
        if outcome.is_some() {
            detail.push_str(" · game over, pits banked");
        }
        if let Some((prev, pit)) = last {
            let who = prev.side_to_move();
            detail.push_str(&format!(" · last: {} played pit {pit}", side_letter(who)));
            match prev.move_kind(pit) {
                MoveKind::ExtraTurn if outcome.is_none() => detail.push_str(", extra turn"),
                MoveKind::Capture(c) => detail.push_str(&format!(", captured {c}")),
                _ => {}
            }
        }
        let size = super::fit(26.0, &detail, l.width() - 2.0 * PAD, false);
        items.push(text_left(PAD, y2, size, detail, "#444444").key("status.detail"));

        // Stores.
        for side in [Side::Second, Side::First] {
            let (x, y, w, h) = l.store(side);
            let n = self.store(side);
            items.push(
                bold(x + w / 2.0, y + h / 2.0, 44.0, n.to_string(), palette::INK)
                    .key(format!("{}store.n", side_letter(side)))
                    .tip(format!("{} store: {n}", side_name(side))),
            );
        }
        // Pits: count, dots, click areas.
        for side in [Side::Second, Side::First] {
            for k in 1..=m {
                let n = self.seeds_at(side, k) as usize;
                let key = format!("{}{k}", side_letter(side));
                let (cx, cy) = l.count_at(side, k);
                items.push(
                    bold(cx, cy, 30.0, n.to_string(), palette::INK)
                        .key(format!("{key}.n"))
                        .tip(format!("{} pit {k}: {n} seeds", side_name(side))),
                );
                let (px, py) = l.pit(side, k);
                if n <= MAX_DOTS {
                    for (i, (dx, dy)) in dot_offsets(n).into_iter().enumerate() {
                        items.push(
                            Item::filled(
                                Shape::Circle {
                                    x: px + dx,
                                    y: py + dy,
                                    r: DOT_R,
                                },
                                SEED,
                            )
                            .key(format!("{key}.d{i}")),
                        );
                    }
                } else {
                    items.push(bold(px, py, 36.0, n.to_string(), SEED).key(format!("{key}.big")));
                }
                if outcome.is_none() && side == mover {
                    // A near-invisible disc on top catches clicks anywhere in the pit.
                    items.push(
                        Item::filled(
                            Shape::Circle {
                                x: px,
                                y: py,
                                r: PIT_R,
                            },
                            palette::WHITE,
                        )
                        .opacity(0.01)
                        .key(format!("{key}.hit"))
                        .target(k.to_string())
                        .tip(format!("play pit {k}")),
                    );
                }
            }
        }
        // The last move: the pit played (solid ring) and every position it sowed (dashed).
        if let Some((prev, pit)) = last {
            let who = prev.side_to_move();
            let k = pit as usize;
            if (1..=m).contains(&k) && prev.pits() == m {
                let seeds = prev.seeds_at(who, k) as usize;
                let (px, py) = l.pit(who, k);
                items.push(
                    Item::filled(
                        Shape::Circle {
                            x: px,
                            y: py,
                            r: PIT_R + 5.0,
                        },
                        "",
                    )
                    .stroke(palette::HIGHLIGHT, 7.0)
                    .key("last")
                    .class("last")
                    .tip(format!("last move: {} pit {k}", side_name(who))),
                );
                let mut seen = std::collections::HashSet::new();
                for (s, p) in sown(m, who, k, seeds) {
                    if !seen.insert((s, p)) {
                        continue;
                    }
                    let item = match p {
                        Some(q) => {
                            if s == who && q == k {
                                // The origin, sown into on a long lap, keeps its solid ring.
                                continue;
                            }
                            let (x, y) = l.pit(s, q);
                            Item::filled(
                                Shape::Circle {
                                    x,
                                    y,
                                    r: PIT_R + 3.0,
                                },
                                "",
                            )
                            .key(format!("last.{}{q}", side_letter(s)))
                        }
                        None => {
                            let (x, y, w, h) = l.store(s);
                            Item::filled(
                                Shape::Rect {
                                    x: x - 4.0,
                                    y: y - 4.0,
                                    w: w + 8.0,
                                    h: h + 8.0,
                                    rx: w / 2.0 + 4.0,
                                },
                                "",
                            )
                            .key(format!("last.{}store", side_letter(s)))
                        }
                    };
                    items.push(
                        item.stroke(palette::HIGHLIGHT, 4.0)
                            .dashed(10.0)
                            .class("last")
                            .tip("sown by the last move"),
                    );
                }
            }
        }
        items
    }

    fn move_target(&self, m: MancalaMove) -> MoveTarget {
        MoveTarget {
            target: self.format_move(m),
            choice: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mancala::MancalaConfig;

    #[test]
    fn sowing_path_follows_the_rules() {
        // South pit 2 with 4 seeds in Kalah(6, 4): pit 1, store, North 6, North 5.
        let p = sown(6, Side::First, 2, 4);
        assert_eq!(
            p,
            vec![
                (Side::First, Some(1)),
                (Side::First, None),
                (Side::Second, Some(6)),
                (Side::Second, Some(5)),
            ]
        );
        // A full lap skips North's store and comes back to the origin.
        let p = sown(2, Side::First, 1, 5);
        assert_eq!(p.last(), Some(&(Side::First, Some(1))));
        assert!(!p.contains(&(Side::Second, None)));
    }

    #[test]
    fn start_draws_every_seed_once() {
        let s = Mancala::start(&MancalaConfig::default());
        let marks = s.marks(None);
        let dots = marks
            .iter()
            .filter(|i| matches!(i.shape, Shape::Circle { r, .. } if r == DOT_R))
            .count();
        assert_eq!(dots, 48);
        let hits: Vec<_> = marks.iter().filter(|i| !i.target.is_empty()).collect();
        assert_eq!(hits.len(), 6);
    }
}
