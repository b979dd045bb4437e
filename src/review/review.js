// review.js — the game review on the pages (docs/review.md): the report (src/report/html.rs
// embeds it before report.js) and the browser board (served as /review.js) use it alike
// (src/review/page.rs holds it, below both).
// Rust judged every move (`tablero analyse`, or the board's review); this file only shows it:
// the per-engine table, a move's mark, the evaluation graph (the expected score of one side
// after every ply, marked moves as dots, a click jumps to the ply) and the words about a move.
// A judgement `r` is what src/review/page.rs `ply_json` writes: v value, b best move,
// p played value, e [expected best, expected played] (the mover's), l loss, m mark,
// x verdict, f forced, d depth, t [moves, loss, mark] of a turn.
"use strict";
const TableroReview = (() => {
  const NS = "http://www.w3.org/2000/svg";
  // Okabe–Ito colours; the symbols always go with them (never colour alone).
  const COLOR = { "?!": "#56B4E9", "?": "#E69F00", "??": "#D55E00" };
  const KIND = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };
  const KINDS = { "?!": "inaccuracies", "?": "mistakes", "??": "blunders" };
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const k of kids) e.append(k);
    return e;
  };
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  };
  const pct = (I, x) => I.num((100 * x).toFixed(1));
  const fixed = (I, x, d) => (x === null || x === undefined ? "-" : I.num(Number(x).toFixed(d)));

  // A value's words: `cp 35` stays a number, proven results are translated.
  function valueText(I, v) {
    const m = /^(win|loss)(?: (\d+))?$/.exec(v || "");
    if (m) return I.t(m[2] ? "review.value." + m[1] + "_in" : "review.value." + m[1], { n: m[2] });
    if (v === "draw") return I.t("review.value.draw");
    return v || "-";
  }

  // The table of every engine's figures: R is the page's `review` data.
  function summary(R, I) {
    const t = I.t;
    const box = el("div", { class: "review", id: "review" });
    box.append(el("h2", {}, t("review.title")));
    const s = R.settings;
    if (s) {
      const parts = [s.engine];
      if (s.depth) parts.push(t("review.depth", { d: s.depth }));
      if (s.nodes) parts.push(t("review.nodes", { n: s.nodes }));
      if (s.movetime) parts.push(t("review.movetime", { ms: s.movetime }));
      const th = R.thresholds || [];
      box.append(el("div", { class: "cap" }, t("review.by", { by: parts.join(", ") }) +
        (th.length === 3 ? " " + t("review.thresholds", { a: pct(I, th[0]), b: pct(I, th[1]), c: pct(I, th[2]) }) : "")));
    }
    // Proven values and values lost: where the data has them (a report's totals).
    const exact = R.engines.length > 0 && R.engines.every((e) => e.proven !== undefined);
    const head = el("tr", {}, ...["report.table.engine", "report.st.games", "review.moves", "review.accuracy", "review.loss"].map((k) => el("th", {}, t(k))),
      ...["?!", "?", "??"].map((m) => el("th", { title: t("review.kind." + KINDS[m]) }, m)),
      ...(exact ? ["review.proven", "review.lost"].map((k) => el("th", {}, t(k))) : []));
    const rows = R.engines.map((e) => el("tr", {}, el("td", {}, e.name), el("td", {}, String(e.games)), el("td", {}, String(e.moves)),
      el("td", {}, fixed(I, e.accuracy, 1)), el("td", {}, fixed(I, e.loss, 2)), ...e.marks.map((n) => el("td", {}, String(n))),
      ...(exact ? [e.proven, e.value_lost].map((n) => el("td", {}, n == null ? "-" : String(n))) : [])));
    box.append(el("table", { class: "standings" }, head, ...rows));
    return box;
  }

  // The mark after a move in a move list (null when the move has none).
  function markSpan(r, I) {
    if (!r || !r.m) return null;
    return el("span", { class: "mk", "data-mark": r.m, style: "color:" + COLOR[r.m], title: I.t("review.kind." + KIND[r.m]) }, r.m);
  }

  // A game's line: each player's accuracy, mean loss and marks (rv: the game's `rv` data).
  function gameText(rv, names, I) {
    if (!rv) return "";
    if (rv.err) return I.t("review.skipped", { why: rv.err });
    return rv.p.map((p, i) => I.t("review.player", { name: names[i], acc: fixed(I, p[0], 1), loss: fixed(I, p[1], 2), a: p[2], b: p[3], c: p[4] })).join(" · ");
  }

  // What the review says of the move that led to the shown position: `move` its text, `r` its
  // judgement.
  function plyText(move, r, I) {
    if (!r) return "";
    const t = I.t;
    if (r.f) return t("review.forced", { move });
    const parts = [];
    const e = r.e;
    if (r.m) parts.push(t("review.marked", { mark: r.m, kind: t("review.kind." + KIND[r.m]), move, loss: pct(I, r.l), from: pct(I, e[0]), to: pct(I, e[1]) }));
    else if (r.l > 0) parts.push(t("review.small", { move, loss: pct(I, r.l), from: pct(I, e[0]), to: pct(I, e[1]) }));
    else parts.push(t("review.good", { move, value: valueText(I, r.p) }));
    if (r.x) parts.push(t("review.verdict." + r.x));
    if (r.b !== move && (r.m || r.l > 0)) parts.push(t("review.best", { best: r.b, value: valueText(I, r.v), played: valueText(I, r.p) }));
    if (r.t && r.t[2]) parts.push(t("review.turn", { n: r.t[0], mark: r.t[2], kind: t("review.kind." + KIND[r.t[2]]), loss: pct(I, r.t[1]) }));
    return parts.join(" ");
  }

  // The expected score (0..1) of engine/seat `who` before each ply and after the last: moves are
  // [text, engine, …, judgement] (engine 0: an opening move, not judged); null where unknown.
  function series(moves, who) {
    const ys = new Array(moves.length + 1).fill(null);
    moves.forEach((m, k) => {
      const r = m[5];
      if (!r || !m[1]) return;
      const mine = m[1] === who;
      ys[k] = mine ? r.e[0] : 1 - r.e[0];
      ys[k + 1] = mine ? r.e[1] : 1 - r.e[1];
    });
    return ys;
  }

  // The evaluation graph. o: {moves, who (1 or 2), label, onPick(ply), w, h}; returns
  // {el, mark(ply)}, or null when no move was judged.
  function graph(o, I) {
    const ys = series(o.moves, o.who);
    if (!ys.some((y) => y !== null)) return null;
    const w = o.w || 520, h = o.h || 150, L = 34, R = 8, T = 8, B = 18;
    const n = Math.max(1, ys.length - 1);
    const X = (i) => L + (i / n) * (w - L - R);
    const Y = (y) => T + (1 - y) * (h - T - B);
    const svg = svgEl("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, class: "evalgraph", "font-size": 10, "font-family": "DejaVu Sans, sans-serif" });
    svg.append(svgEl("rect", { x: L, y: T, width: w - L - R, height: h - T - B, fill: "#fafafa", stroke: "#bbb" }));
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      svg.append(svgEl("line", { x1: L, x2: w - R, y1: Y(v), y2: Y(v), stroke: v === 0.5 ? "#888" : "#e4e4e4", "stroke-dasharray": v === 0.5 ? "4 3" : "none" }));
      const tx = svgEl("text", { x: L - 4, y: Y(v) + 3, "text-anchor": "end", fill: "#555" });
      tx.textContent = Math.round(v * 100) + "%";
      svg.append(tx);
    }
    // Runs of known values: the area above and below 50 % in the two engines' colours.
    let run = [];
    const flush = () => {
      if (run.length > 1) {
        const pts = run.map((i) => `${X(i).toFixed(1)},${Y(ys[i]).toFixed(1)}`);
        const base = `${X(run[run.length - 1]).toFixed(1)},${Y(0.5)} ${X(run[0]).toFixed(1)},${Y(0.5)}`;
        svg.append(svgEl("polygon", { points: pts.join(" ") + " " + base, fill: "#0072B2", opacity: 0.18 }));
        svg.append(svgEl("polyline", { points: pts.join(" "), fill: "none", stroke: "#0072B2", "stroke-width": 1.6 }));
      }
      run = [];
    };
    ys.forEach((y, i) => { if (y === null) flush(); else run.push(i); });
    flush();
    // Marked moves: a dot with its symbol at the position after the move.
    o.moves.forEach((m, k) => {
      const r = m[5];
      if (!r || !r.m || ys[k + 1] === null) return;
      const c = svgEl("circle", { cx: X(k + 1), cy: Y(ys[k + 1]), r: 3.5, fill: COLOR[r.m], stroke: "#222", "stroke-width": 0.6, "data-ply": k + 1, class: "evalmark" });
      const tip = svgEl("title", {});
      tip.textContent = `${k + 1}. ${m[0]} ${r.m}`;
      c.append(tip);
      svg.append(c);
      const tx = svgEl("text", { x: X(k + 1), y: Y(ys[k + 1]) + (ys[k + 1] > 0.5 ? 13 : -6), "text-anchor": "middle", fill: "#222", "font-size": 9 });
      tx.textContent = r.m;
      svg.append(tx);
    });
    const cap = svgEl("text", { x: L + 4, y: T + 11, fill: "#0072B2" });
    cap.textContent = o.label;
    svg.append(cap);
    const marker = svgEl("line", { y1: T, y2: h - B, stroke: "#CC79A7", "stroke-width": 1.5, visibility: "hidden" });
    svg.append(marker);
    if (o.onPick) {
      svg.style.cursor = "crosshair";
      svg.addEventListener("click", (ev) => {
        const b = svg.getBoundingClientRect();
        const x = (ev.clientX - b.left) * (w / b.width);
        o.onPick(Math.max(0, Math.min(n, Math.round(((x - L) / (w - L - R)) * n))));
      });
    }
    const box = el("div", { class: "plot evalplot", id: o.id || "evalplot" }, svg);
    return {
      el: box,
      mark(i) {
        if (i === null || i === undefined) { marker.setAttribute("visibility", "hidden"); return; }
        marker.setAttribute("x1", X(i)); marker.setAttribute("x2", X(i)); marker.setAttribute("visibility", "visible");
      },
    };
  }

  return { summary, markSpan, gameText, plyText, graph, series, valueText, COLOR };
})();
