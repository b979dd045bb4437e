//! `tablero tune --plot`: one small SVG line chart per tuned parameter (θ after each iteration,
//! with the θ± values sent drawn faintly), labelled axes, Okabe–Ito colours.

use std::fmt::Write;

use super::TuneSettings;
use super::spsa::Step;
use crate::view::palette;
use crate::view::svg::escape;

const W: f64 = 520.0;
const H: f64 = 220.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 46.0;
const COLOURS: [&str; 6] = [
    palette::BLUE,
    palette::RED,
    palette::GREEN,
    palette::ORANGE,
    palette::PURPLE,
    palette::SKY,
];

/// Tick values covering [lo, hi] (1, 2 or 5 times a power of ten apart, about five of them)
/// and the decimals they need.
fn ticks(lo: f64, hi: f64) -> (Vec<f64>, usize) {
    let span = (hi - lo).max(1e-9);
    let e = (span / 5.0).log10().floor();
    let p = 10f64.powf(e);
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|s| span / s <= 6.0)
        .unwrap_or(10.0 * p);
    let decimals = if e < 0.0 { (-e) as usize } else { 0 };
    // Multiples of the step, not a running sum: no drift past `hi`.
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    ((first..=last).map(|n| n as f64 * step).collect(), decimals)
}

/// The SVG document of a run's parameter paths.
pub fn svg(settings: &TuneSettings, steps: &[Step]) -> String {
    let np = settings.params.len();
    let cols = if np > 1 { 2 } else { 1 };
    let rows = np.div_ceil(cols);
    let (tw, th) = (W * cols as f64, H * rows as f64 + 30.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{tw}" height="{th}" viewBox="0 0 {tw} {th}" font-family="sans-serif">"#
    );
    let _ = write!(
        s,
        r#"<rect width="{tw}" height="{th}" fill="{}"/><text x="12" y="20" font-size="14" font-weight="bold" fill="{}">{}</text>"#,
        palette::WHITE,
        palette::INK,
        escape(&format!(
            "tablero tune: {} {}, {} of {} iterations, {} pairs each",
            settings.game,
            settings.engine,
            steps.len(),
            settings.iterations,
            settings.pairs_per_iteration
        ))
    );
    let xmax = settings.iterations.max(1) as f64;
    for (i, p) in settings.params.iter().enumerate() {
        let (ox, oy) = ((i % cols) as f64 * W, 30.0 + (i / cols) as f64 * H);
        let colour = COLOURS[i % COLOURS.len()];
        // θ at k = 0 is the start; point k is θ after iteration k.
        let path: Vec<(f64, f64)> = std::iter::once((0.0, p.start))
            .chain(steps.iter().map(|st| (st.k as f64, st.theta_after[i])))
            .collect();
        let sent: Vec<(f64, f64, f64)> = steps
            .iter()
            .map(|st| (st.k as f64, st.plus[i] as f64, st.minus[i] as f64))
            .collect();
        let mut lo = path.iter().map(|q| q.1).fold(f64::INFINITY, f64::min);
        let mut hi = path.iter().map(|q| q.1).fold(f64::NEG_INFINITY, f64::max);
        for &(_, a, b) in &sent {
            lo = lo.min(a.min(b));
            hi = hi.max(a.max(b));
        }
        if hi - lo < 1.0 {
            lo -= 0.5;
            hi += 0.5;
        }
        let pad = (hi - lo) * 0.05;
        let (lo, hi) = (lo - pad, hi + pad);
        let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
        let x = |k: f64| ox + LEFT + k / xmax * pw;
        let y = |v: f64| oy + TOP + (hi - v) / (hi - lo) * ph;
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="13" font-weight="bold" fill="{}">{}</text>"#,
            ox + LEFT,
            oy + TOP - 10.0,
            palette::INK,
            escape(&format!(
                "{} (start {}, range {}..{})",
                p.name, p.start, p.min, p.max
            ))
        );
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{pw}" height="{ph}" fill="none" stroke="{}"/>"#,
            ox + LEFT,
            oy + TOP,
            palette::GREY
        );
        let (yt, yd) = ticks(lo, hi);
        for t in yt {
            let _ = write!(
                s,
                r#"<line x1="{}" x2="{}" y1="{yy}" y2="{yy}" stroke="{}"/><text x="{}" y="{}" font-size="11" text-anchor="end" fill="{}">{t:.yd$}</text>"#,
                ox + LEFT,
                ox + LEFT + pw,
                palette::LIGHT,
                ox + LEFT - 5.0,
                y(t) + 4.0,
                palette::INK,
                yy = y(t)
            );
        }
        let (xt, xd) = ticks(0.0, xmax);
        for t in xt {
            let _ = write!(
                s,
                r#"<line x1="{xx}" x2="{xx}" y1="{}" y2="{}" stroke="{}"/><text x="{xx}" y="{}" font-size="11" text-anchor="middle" fill="{}">{t:.xd$}</text>"#,
                oy + TOP + ph,
                oy + TOP + ph + 4.0,
                palette::GREY,
                oy + TOP + ph + 16.0,
                palette::INK,
                xx = x(t)
            );
        }
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="middle" fill="{}">iteration k</text><text transform="translate({} {}) rotate(-90)" font-size="11" text-anchor="middle" fill="{}">value (θ; θ± sent, faint)</text>"#,
            ox + LEFT + pw / 2.0,
            oy + H - 12.0,
            palette::INK,
            ox + 16.0,
            oy + TOP + ph / 2.0,
            palette::INK
        );
        for &(k, a, b) in &sent {
            let _ = write!(
                s,
                r#"<line x1="{xx}" x2="{xx}" y1="{}" y2="{}" stroke="{colour}" stroke-opacity="0.25" stroke-width="2"/>"#,
                y(a),
                y(b),
                xx = x(k)
            );
        }
        let pts: Vec<String> = path
            .iter()
            .map(|&(k, v)| format!("{:.2},{:.2}", x(k), y(v)))
            .collect();
        let _ = write!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            pts.join(" ")
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_cover_the_range() {
        assert_eq!(ticks(0.0, 20.0), (vec![0.0, 5.0, 10.0, 15.0, 20.0], 0));
        let (t, d) = ticks(2.7, 3.4);
        assert_eq!(d, 1);
        let shown: Vec<String> = t.iter().map(|x| format!("{x:.d$}")).collect();
        assert_eq!(shown, ["2.8", "3.0", "3.2", "3.4"]);
    }
}
