//! SVG 1.1 text for a [`Scene`]: what `tablero render` writes. `scene.js` builds the same
//! elements in the browser from the same items (the attribute mapping below is mirrored there).

use std::fmt::Write;

use super::{Item, Scene, Shape};

/// Formats a coordinate with at most two decimals and no trailing zeros (small, exact output).
/// Works on the value in hundredths as an integer: float formatting with a precision is the
/// slowest step of writing a picture otherwise.
fn num(v: f32) -> String {
    let h = (v * 100.0).round() as i64;
    let (sign, a) = if h < 0 { ("-", -h) } else { ("", h) };
    let (int, frac) = (a / 100, a % 100);
    match frac {
        0 => format!("{sign}{int}"),
        f if f % 10 == 0 => format!("{sign}{int}.{}", f / 10),
        f => format!("{sign}{int}.{f:02}"),
    }
}

/// Escapes text for XML character data and attribute values.
pub fn escape(s: &str) -> String {
    // Most attribute values and texts need no escaping: copy them whole.
    if !s
        .bytes()
        .any(|b| matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'') || b < 0x20)
    {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids are dropped rather than producing an invalid file.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' && c != '\r' => {}
            c => out.push(c),
        }
    }
    out
}

fn points(pts: &[f32]) -> String {
    pts.chunks(2)
        .filter(|p| p.len() == 2)
        .map(|p| format!("{},{}", num(p[0]), num(p[1])))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One item as an SVG element.
pub fn item(it: &Item) -> String {
    let mut a = String::new();
    let p = &it.paint;
    let fill = if p.fill.is_empty() { "none" } else { &p.fill };
    let _ = write!(a, " fill=\"{}\"", escape(fill));
    if !p.stroke.is_empty() {
        let _ = write!(
            a,
            " stroke=\"{}\" stroke-width=\"{}\"",
            escape(&p.stroke),
            num(p.width)
        );
        if p.dash > 0.0 {
            let _ = write!(a, " stroke-dasharray=\"{}\"", num(p.dash));
        }
    }
    if p.opacity > 0.0 && p.opacity < 1.0 {
        let _ = write!(a, " opacity=\"{}\"", num(p.opacity));
    }
    if !it.class.is_empty() {
        let _ = write!(a, " class=\"{}\"", escape(&it.class));
    }
    if !it.key.is_empty() {
        let _ = write!(a, " data-k=\"{}\"", escape(&it.key));
    }
    if !it.target.is_empty() {
        let _ = write!(a, " data-g=\"{}\"", escape(&it.target));
    }
    let title = if it.tip.is_empty() {
        String::new()
    } else {
        format!("<title>{}</title>", escape(&it.tip))
    };
    match &it.shape {
        Shape::Rect { x, y, w, h, rx } => {
            let r = if *rx > 0.0 {
                format!(" rx=\"{}\"", num(*rx))
            } else {
                String::new()
            };
            format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{r}{a}>{title}</rect>",
                num(*x),
                num(*y),
                num(w.max(0.0)),
                num(h.max(0.0))
            )
        }
        Shape::Circle { x, y, r } => format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{a}>{title}</circle>",
            num(*x),
            num(*y),
            num(r.max(0.0))
        ),
        Shape::Ellipse { x, y, rx, ry } => format!(
            "<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\"{a}>{title}</ellipse>",
            num(*x),
            num(*y),
            num(rx.max(0.0)),
            num(ry.max(0.0))
        ),
        Shape::Line { x1, y1, x2, y2 } => format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{a}>{title}</line>",
            num(*x1),
            num(*y1),
            num(*x2),
            num(*y2)
        ),
        Shape::Polygon { pts } => {
            format!("<polygon points=\"{}\"{a}>{title}</polygon>", points(pts))
        }
        Shape::Polyline { pts } => {
            format!("<polyline points=\"{}\"{a}>{title}</polyline>", points(pts))
        }
        Shape::Text {
            x,
            y,
            size,
            txt,
            b,
            a: anchor,
        } => {
            let anchor = match anchor.as_str() {
                "s" => "start",
                "e" => "end",
                _ => "middle",
            };
            let weight = if *b { " font-weight=\"bold\"" } else { "" };
            // dy = 0.35em centres the x-height on y in every renderer (dominant-baseline is not
            // honoured everywhere).
            format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" dy=\"0.35em\"{weight}{a}>{title}{}</text>",
                num(*x),
                num(*y),
                num(*size),
                escape(txt)
            )
        }
    }
}

/// A standalone SVG 1.1 document of `scene`, `width_px` pixels wide (height in proportion).
pub fn document(scene: &Scene, width_px: u32, title: &str) -> String {
    let w = scene.width.max(1.0);
    let h = scene.height.max(1.0);
    let height_px = ((width_px as f32) * h / w).round().max(1.0) as u32;
    let mut out = String::with_capacity(64 * scene.items.len() + 512);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{width_px}\" height=\"{height_px}\" viewBox=\"0 0 {} {}\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">",
        num(w),
        num(h)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    for it in &scene.items {
        out.push_str(&item(it));
        out.push('\n');
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{Item, Shape, bold};

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(2.456), "2.46");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-2.5), "-2.5");
        assert_eq!(num(-0.05), "-0.05");
        assert_eq!(num(410.0), "410");
        assert_eq!(num(1.099), "1.1");
        assert_eq!(num(12.07), "12.07");
    }

    #[test]
    fn document_escapes_and_scales() {
        let scene = Scene {
            width: 100.0,
            height: 50.0,
            items: vec![
                Item::filled(
                    Shape::Rect {
                        x: 0.0,
                        y: 0.0,
                        w: 100.0,
                        h: 50.0,
                        rx: 0.0,
                    },
                    "#fff",
                ),
                bold(50.0, 25.0, 10.0, "a<b & \"c\"", "#000").key("t"),
            ],
        };
        let svg = document(&scene, 400, "x & y");
        assert!(svg.contains("width=\"400\" height=\"200\""));
        assert!(svg.contains("<title>x &amp; y</title>"));
        assert!(svg.contains("a&lt;b &amp; &quot;c&quot;"));
        assert!(svg.contains("data-k=\"t\""));
    }
}
