//! Pictures of positions: the one layout description that `tablero render` (SVG text), the HTML
//! match report and the browser board (both through `scene.js`) all draw from.
//!
//! A picture is a [`Scene`]: a canvas size and a list of [`Item`]s, each one primitive shape in
//! canvas units with its own paint. It has two parts. The *board* ([`Draw::board`]) depends only
//! on the variant (track, grid, pits, labels) and is drawn once; the *marks* ([`Draw::marks`])
//! depend on the position (pieces, counts, dice, turn, highlights). Every mark has a `key` that
//! is stable from ply to ply (the same piece keeps its key when it moves), so a page that
//! replays a game only sends and redraws the marks whose content changed. Rust decides every
//! coordinate and colour; the page only creates the elements Rust describes, so `render` and the
//! pages cannot draw different pictures for the same position.
//!
//! This layer sits above `games/` (it reads positions through public accessors) and below every
//! front end; it does no I/O.

pub mod enraya;
pub mod grid;
pub mod mancala;
pub mod parchis;
pub mod render;
pub mod svg;

use serde::{Deserialize, Serialize};

use crate::core::game::Game;

/// One primitive shape. Coordinates and sizes are in canvas units (see [`Scene`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t")]
pub enum Shape {
    /// An axis-aligned rectangle with corner radius `rx`.
    #[serde(rename = "r")]
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        #[serde(default, skip_serializing_if = "is_zero")]
        rx: f32,
    },
    #[serde(rename = "c")]
    Circle { x: f32, y: f32, r: f32 },
    #[serde(rename = "e")]
    Ellipse { x: f32, y: f32, rx: f32, ry: f32 },
    #[serde(rename = "l")]
    Line { x1: f32, y1: f32, x2: f32, y2: f32 },
    /// A closed polygon, points as `[x0, y0, x1, y1, …]`.
    #[serde(rename = "p")]
    Polygon { pts: Vec<f32> },
    /// An open polyline, points as `[x0, y0, x1, y1, …]` (arrows, paths of moves).
    #[serde(rename = "pl")]
    Polyline { pts: Vec<f32> },
    /// Text centred on `x` (anchor middle) with its baseline placed so that the text is
    /// vertically centred on `y`; `size` is the font size.
    #[serde(rename = "x")]
    Text {
        x: f32,
        y: f32,
        size: f32,
        /// The text itself.
        #[serde(rename = "v")]
        txt: String,
        /// Bold when true.
        #[serde(default, skip_serializing_if = "is_false")]
        b: bool,
        /// Anchor: "m" middle (default), "s" start, "e" end.
        #[serde(default = "anchor_middle", skip_serializing_if = "is_middle")]
        a: String,
    },
}

/// How a shape is painted. Colours are CSS colour strings (`#rrggbb`, `none`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Paint {
    /// Fill colour; empty = `none`.
    #[serde(rename = "f", default, skip_serializing_if = "String::is_empty")]
    pub fill: String,
    /// Stroke colour; empty = no stroke.
    #[serde(rename = "s", default, skip_serializing_if = "String::is_empty")]
    pub stroke: String,
    /// Stroke width in canvas units. (JSON key `sw`: `w` is a rectangle's width, and the shape
    /// and the paint share one flat object.)
    #[serde(rename = "sw", default, skip_serializing_if = "is_zero")]
    pub width: f32,
    /// Dashed stroke (dash length in canvas units; 0 = solid).
    #[serde(rename = "d", default, skip_serializing_if = "is_zero")]
    pub dash: f32,
    /// Opacity 0..1 (1 when 0 is given, so the default is opaque).
    #[serde(rename = "o", default, skip_serializing_if = "is_zero")]
    pub opacity: f32,
}

/// One drawn element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Stable identity across plies (marks only; board items may leave it empty). Keys are unique
    /// within one scene's marks.
    #[serde(rename = "k", default, skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// Click target for the browser board: moves whose [`MoveTarget::target`] equals this are
    /// offered when the user clicks the item. Empty = not clickable.
    #[serde(rename = "g", default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// A CSS class for the pages (`hl` highlight, `last` last move, …); SVG output keeps it.
    #[serde(rename = "cl", default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    /// A tooltip (`<title>`), e.g. "yellow 0: star, 3 turns left".
    #[serde(rename = "tip", default, skip_serializing_if = "String::is_empty")]
    pub tip: String,
    #[serde(flatten)]
    pub shape: Shape,
    #[serde(flatten)]
    pub paint: Paint,
}

/// A picture: a `width` × `height` canvas (units are arbitrary; the SVG scales them) and its
/// items, drawn in order (later items on top).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Scene {
    pub width: f32,
    pub height: f32,
    pub items: Vec<Item>,
}

/// Where the browser board offers a move: click the item whose `target` is `target`, then (when
/// several moves share that target) the choice labelled `choice` (a Parchís die or item; empty
/// when the click alone decides the move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveTarget {
    pub target: String,
    pub choice: String,
}

/// A game that can be drawn. Generic front ends (`render`, reports, the browser board) use only
/// this and [`Game`].
pub trait Draw: Game {
    /// Turning the board for the other side mirrors it left to right instead of rotating it by
    /// 180° (boards with gravity, whose pieces must stay at the bottom).
    const MIRROR: bool = false;
    /// The static part of the picture for this position's variant (board size, pits…): the same
    /// for every position of a game.
    fn board(&self) -> Scene;
    /// The position-dependent items. `last` is the previous position and the move that led here
    /// (for from → to highlights), when known.
    fn marks(&self, last: Option<(&Self, Self::Move)>) -> Vec<Item>;
    /// Where the browser board offers `m` (a legal move of this position).
    fn move_target(&self, m: Self::Move) -> MoveTarget;
    /// The better move `m` (legal in this position) as marks, for a game review: the highlight
    /// the game draws for a last move (the cell, pit or path), in green and dashed, keyed
    /// `best…`, to lay over the picture of the position after the move actually played. The
    /// report and the browser board draw the same marks.
    fn suggestion(&self, m: Self::Move) -> Vec<Item> {
        suggestion_marks(self, m)
    }
}

/// [`Draw::suggestion`]: the last-move highlight of `m` (items of class `last` keyed `last` or
/// `last-…`), restyled.
pub fn suggestion_marks<G: Draw>(state: &G, m: G::Move) -> Vec<Item> {
    let after = state.apply(m);
    let text = state.format_move(m);
    after
        .marks(Some((state, m)))
        .into_iter()
        .filter(|it| it.class == "last" && (it.key == "last" || it.key.starts_with("last-")))
        .map(|mut it| {
            it.key = format!("best{}", &it.key["last".len()..]);
            it.class = "best".into();
            if !it.paint.stroke.is_empty() {
                it.paint.stroke = palette::GREEN.into();
                it.paint.width *= 1.2;
                if it.paint.dash == 0.0 && !matches!(it.shape, Shape::Polygon { .. }) {
                    it.paint.dash = 3.0 * it.paint.width;
                }
            }
            if !it.paint.fill.is_empty() && it.paint.fill != "none" {
                it.paint.fill = palette::GREEN.into();
            }
            it.paint.opacity = 0.0;
            it.tip = format!("better move: {text}");
            it
        })
        .collect()
}

/// The whole picture of a position: board, then marks.
pub fn picture<G: Draw>(state: &G, last: Option<(&G, G::Move)>) -> Scene {
    let mut scene = state.board();
    scene.items.extend(state.marks(last));
    scene
}

impl Item {
    /// An item with a shape and a fill, nothing else.
    pub fn filled(shape: Shape, fill: &str) -> Item {
        Item {
            key: String::new(),
            target: String::new(),
            class: String::new(),
            tip: String::new(),
            shape,
            paint: Paint {
                fill: fill.to_string(),
                ..Paint::default()
            },
        }
    }

    /// Sets the stroke.
    pub fn stroke(mut self, colour: &str, width: f32) -> Item {
        self.paint.stroke = colour.to_string();
        self.paint.width = width;
        self
    }

    /// Sets the key.
    pub fn key(mut self, key: impl Into<String>) -> Item {
        self.key = key.into();
        self
    }

    /// Sets the click target.
    pub fn target(mut self, target: impl Into<String>) -> Item {
        self.target = target.into();
        self
    }

    /// Sets the CSS class.
    pub fn class(mut self, class: impl Into<String>) -> Item {
        self.class = class.into();
        self
    }

    /// Sets the tooltip.
    pub fn tip(mut self, tip: impl Into<String>) -> Item {
        self.tip = tip.into();
        self
    }

    /// Sets a dash length.
    pub fn dashed(mut self, dash: f32) -> Item {
        self.paint.dash = dash;
        self
    }

    /// Sets the opacity.
    pub fn opacity(mut self, o: f32) -> Item {
        self.paint.opacity = o;
        self
    }
}

/// Text centred at (x, y).
pub fn text(x: f32, y: f32, size: f32, s: impl Into<String>, fill: &str) -> Item {
    Item::filled(
        Shape::Text {
            x,
            y,
            size,
            txt: s.into(),
            b: false,
            a: anchor_middle(),
        },
        fill,
    )
}

/// Bold text centred at (x, y).
pub fn bold(x: f32, y: f32, size: f32, s: impl Into<String>, fill: &str) -> Item {
    let mut it = text(x, y, size, s, fill);
    if let Shape::Text { b, .. } = &mut it.shape {
        *b = true;
    }
    it
}

/// Text starting (left-aligned) at x, vertically centred on y.
pub fn text_left(x: f32, y: f32, size: f32, s: impl Into<String>, fill: &str) -> Item {
    let mut it = text(x, y, size, s, fill);
    if let Shape::Text { a, .. } = &mut it.shape {
        *a = "s".to_string();
    }
    it
}

/// The largest font size, up to `size`, at which `s` fits in `avail` canvas units, so that a
/// status line never runs off a narrow picture (Kalah(1, n), a 4-column grid). An estimate from
/// DejaVu Sans' advance widths: at most 0.62 em per character, 0.68 em bold.
pub fn fit(size: f32, s: &str, avail: f32, bold: bool) -> f32 {
    let em = if bold { 0.68 } else { 0.62 };
    let chars = s.chars().count().max(1) as f32;
    size.min(avail.max(1.0) / (em * chars))
}

/// The colour-blind-safe palette (Okabe–Ito) every picture uses, so colours mean the same thing
/// in every game. Pieces always carry a letter too: colour is never the only cue.
pub mod palette {
    pub const YELLOW: &str = "#F0E442";
    pub const BLUE: &str = "#0072B2";
    pub const RED: &str = "#D55E00";
    pub const GREEN: &str = "#009E73";
    pub const ORANGE: &str = "#E69F00";
    pub const SKY: &str = "#56B4E9";
    pub const PURPLE: &str = "#CC79A7";
    pub const BLACK: &str = "#000000";
    pub const INK: &str = "#222222";
    pub const GREY: &str = "#888888";
    pub const LIGHT: &str = "#DDDDDD";
    pub const PAPER: &str = "#FAFAF7";
    pub const WHITE: &str = "#FFFFFF";
    /// The highlight of the last move and of winning lines.
    pub const HIGHLIGHT: &str = "#CC79A7";
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

fn is_false(v: &bool) -> bool {
    !*v
}

fn anchor_middle() -> String {
    "m".to_string()
}

fn is_middle(a: &String) -> bool {
    a == "m"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_shrinks_only_what_does_not_fit() {
        assert_eq!(fit(26.0, "short", 800.0, false), 26.0);
        let s = "Kalah(1, 1) · last: S played pit 1, extra turn";
        let size = fit(26.0, s, 320.0, false);
        assert!(size < 26.0 && size * 0.62 * s.chars().count() as f32 <= 320.0 + 1e-3);
        assert!(fit(26.0, s, 320.0, true) < size);
    }

    #[test]
    fn shape_paint_and_item_keys_never_collide() {
        // Shape, paint and item fields share one flat JSON object: a repeated key would make
        // the page read one field for another.
        let shapes = [
            Shape::Rect {
                x: 1.0,
                y: 2.0,
                w: 3.0,
                h: 4.0,
                rx: 5.0,
            },
            Shape::Circle {
                x: 1.0,
                y: 2.0,
                r: 3.0,
            },
            Shape::Ellipse {
                x: 1.0,
                y: 2.0,
                rx: 3.0,
                ry: 4.0,
            },
            Shape::Line {
                x1: 1.0,
                y1: 2.0,
                x2: 3.0,
                y2: 4.0,
            },
            Shape::Polygon {
                pts: vec![1.0, 2.0],
            },
            Shape::Polyline {
                pts: vec![1.0, 2.0],
            },
            Shape::Text {
                x: 1.0,
                y: 2.0,
                size: 3.0,
                txt: "t".into(),
                b: true,
                a: "s".into(),
            },
        ];
        for shape in shapes {
            let it = Item::filled(shape, "#111")
                .stroke("#222", 7.0)
                .dashed(8.0)
                .opacity(0.5)
                .key("k")
                .target("g")
                .class("c")
                .tip("tip");
            let j = serde_json::to_string(&it).unwrap();
            let v: serde_json::Value = serde_json::from_str(&j).unwrap();
            let keys = v.as_object().unwrap().len();
            assert_eq!(j.matches("\":").count(), keys, "a key appears twice in {j}");
            let back: Item = serde_json::from_str(&j).unwrap();
            assert_eq!(back, it, "{j}");
        }
    }

    #[test]
    fn items_serialise_compactly_and_round_trip() {
        let it = Item::filled(
            Shape::Circle {
                x: 1.0,
                y: 2.5,
                r: 3.0,
            },
            "#fff",
        )
        .key("y0")
        .target("y0");
        let j = serde_json::to_string(&it).unwrap();
        assert_eq!(
            j,
            r##"{"k":"y0","g":"y0","t":"c","x":1.0,"y":2.5,"r":3.0,"f":"#fff"}"##
        );
        let back: Item = serde_json::from_str(&j).unwrap();
        assert_eq!(back, it);
        let t = bold(1.0, 2.0, 10.0, "A<&>", "#000");
        let j = serde_json::to_string(&t).unwrap();
        let back: Item = serde_json::from_str(&j).unwrap();
        assert_eq!(back, t);
    }
}
