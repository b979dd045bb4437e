// report.js — the report page of a match (src/report/html.rs embeds it after scene.js) or of a
// tournament (src/report/tournament.rs, after tournament.js, which builds the tournament's own
// parts: standings, crosstable, plots, the list's filters).
// Rust prepared everything: the table text, the running series, the boards, and per game a
// gzip+base64 blob with per ply the state string and the marks that changed. This file draws
// plots, lists games, inflates a game when it is opened (DecompressionStream) and steps plies.
// Its words come from the string tables (i18n.js, inlined before it): `t` by key, `rust` for
// the texts Rust made in English (the referee's table, outcome details, replay errors); a
// language switch builds the page again where it was.
"use strict";
(() => {
  const NS = "http://www.w3.org/2000/svg";
  const D = JSON.parse(document.getElementById("data").textContent);
  const I = TableroI18n;
  const t = I.t;
  I.init();
  const blobText = document.getElementById("blobs").textContent;
  let blobLines = null;
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k);
    return e;
  };
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  };
  const C = { e1: "#0072B2", e2: "#A0522D", band: "#56B4E9", ink: "#222", grid: "#e4e4e4", bound: "#D55E00", hl: "#CC79A7" };

  // Round tick steps (1, 2, 5 × 10^k) covering [lo, hi].
  function ticks(lo, hi, n, minStep) {
    if (!(hi > lo)) return [lo];
    const raw = Math.max((hi - lo) / n, minStep || 0), p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || raw;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }
  const fmt = (v) => I.num(Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(Math.abs(v) < 1 ? 2 : 1));

  // A line plot. o: {w, h, xs, lines: [{ys, color, dash, label, dots}], band: {lo, hi},
  // hlines: [{y, label, color}], ylo, yhi, onPick(i)}; returns {svg, mark(i)}.
  function plot(o) {
    const w = o.w || 380, h = o.h || 150, L = 48, R = 10, T = 10, B = 24;
    const svg = svgEl("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "font-size": 10, "font-family": "DejaVu Sans, sans-serif" });
    const xs = o.xs;
    const vals = [];
    for (const l of o.lines) for (const v of l.ys) if (v !== null && isFinite(v)) vals.push(v);
    if (o.band) for (const a of [o.band.lo, o.band.hi]) for (const v of a) if (v !== null && isFinite(v)) vals.push(v);
    for (const hl of o.hlines || []) vals.push(hl.y);
    let ylo = o.ylo !== undefined ? o.ylo : Math.min(...vals, 0), yhi = o.yhi !== undefined ? o.yhi : Math.max(...vals, 0);
    if (o.clip) { ylo = Math.max(ylo, -o.clip); yhi = Math.min(yhi, o.clip); }
    if (!(yhi > ylo)) { yhi = ylo + 1; ylo -= 1; }
    const pad = (yhi - ylo) * 0.05; ylo -= pad; yhi += pad;
    const x0 = xs.length ? xs[0] : 0, x1 = xs.length > 1 ? xs[xs.length - 1] : x0 + 1;
    const X = (x) => L + ((x - x0) / (x1 - x0 || 1)) * (w - L - R);
    const Y = (y) => T + (1 - (Math.max(ylo, Math.min(yhi, y)) - ylo) / (yhi - ylo)) * (h - T - B);
    for (const t of ticks(ylo, yhi, 4)) {
      svg.append(svgEl("line", { x1: L, x2: w - R, y1: Y(t), y2: Y(t), stroke: C.grid }));
      const tx = svgEl("text", { x: L - 4, y: Y(t) + 3, "text-anchor": "end", fill: "#555" });
      tx.textContent = fmt(t); svg.append(tx);
    }
    // x is a game or ply number: whole ticks only.
    for (const t of ticks(x0, x1, 6, 1)) {
      const tx = svgEl("text", { x: X(t), y: h - 8, "text-anchor": "middle", fill: "#555" });
      tx.textContent = fmt(t); svg.append(tx);
    }
    svg.append(svgEl("line", { x1: L, x2: L, y1: T, y2: h - B, stroke: "#999" }));
    svg.append(svgEl("line", { x1: L, x2: w - R, y1: h - B, y2: h - B, stroke: "#999" }));
    if (o.band) {
      // One polygon per run of defined points.
      let run = [];
      const flush = () => {
        if (run.length > 1) {
          const up = run.map((i) => `${X(xs[i])},${Y(o.band.hi[i])}`), dn = run.slice().reverse().map((i) => `${X(xs[i])},${Y(o.band.lo[i])}`);
          svg.append(svgEl("polygon", { points: up.concat(dn).join(" "), fill: C.band, opacity: 0.35 }));
        }
        run = [];
      };
      xs.forEach((_, i) => { if (o.band.lo[i] !== null && o.band.hi[i] !== null) run.push(i); else flush(); });
      flush();
    }
    for (const hl of o.hlines || []) {
      svg.append(svgEl("line", { x1: L, x2: w - R, y1: Y(hl.y), y2: Y(hl.y), stroke: hl.color || C.bound, "stroke-dasharray": "4 3" }));
      if (hl.label) { const t = svgEl("text", { x: w - R - 2, y: Y(hl.y) - 3, "text-anchor": "end", fill: hl.color || C.bound }); t.textContent = hl.label; svg.append(t); }
    }
    for (const l of o.lines) {
      let seg = [];
      const flush = () => { if (seg.length > 1) svg.append(svgEl("polyline", { points: seg.join(" "), fill: "none", stroke: l.color, "stroke-width": 1.5, "stroke-dasharray": l.dash || "none" })); seg = []; };
      l.ys.forEach((y, i) => {
        if (y === null || !isFinite(y)) { flush(); return; }
        seg.push(`${X(xs[i]).toFixed(1)},${Y(y).toFixed(1)}`);
        if (l.dots) svg.append(svgEl("circle", { cx: X(xs[i]), cy: Y(y), r: 1.8, fill: l.color }));
      });
      flush();
    }
    // Legend.
    let lx = L + 6;
    for (const l of o.lines) {
      if (!l.label) continue;
      svg.append(svgEl("line", { x1: lx, x2: lx + 14, y1: T + 6, y2: T + 6, stroke: l.color, "stroke-width": 2, "stroke-dasharray": l.dash || "none" }));
      const t = svgEl("text", { x: lx + 18, y: T + 9, fill: C.ink }); t.textContent = l.label; svg.append(t);
      lx += 26 + l.label.length * 6;
    }
    const marker = svgEl("line", { y1: T, y2: h - B, stroke: C.hl, "stroke-width": 1.5, visibility: "hidden" });
    svg.append(marker);
    if (o.onPick) {
      svg.style.cursor = "crosshair";
      svg.addEventListener("click", (ev) => {
        const r = svg.getBoundingClientRect();
        const x = x0 + ((ev.clientX - r.left) * (w / r.width) - L) / (w - L - R) * (x1 - x0);
        let best = 0;
        xs.forEach((v, i) => { if (Math.abs(v - x) < Math.abs(xs[best] - x)) best = i; });
        o.onPick(best);
      });
    }
    return { svg, mark(i) { if (i === null || i === undefined) { marker.setAttribute("visibility", "hidden"); return; } marker.setAttribute("x1", X(xs[i])); marker.setAttribute("x2", X(xs[i])); marker.setAttribute("visibility", "visible"); } };
  }


  const box = (cap, p) => el("div", { class: "plot" }, el("div", { class: "cap" }, cap), p.svg);
  const outcome = (res) => t("report.outcome." + res, { name: D.names[0] });
  // A tournament's page: its own parts come from tournament.js; each game names its engines.
  const T = D.mode === "tournament";
  const TT = T ? TableroTournament({ D, I, t, el, svgEl, plot, box, C }) : null;
  const pairOf = (g) => (T ? TT.pair(g) : D.names);

  // The referee's table as the command printed it; in Spanish line by line, the aligned block
  // (header and the two engines' rows) laid out again for the longer words.
  function tableText() {
    if (I.lang === "en") return D.table;
    // Analysed records: the review's block follows the match's table (`tablero report` prints
    // both); it is laid out on its own.
    const all = D.table.split("\n");
    const at = all.findIndex((l) => l.startsWith("review (tablero analyse) of "));
    if (at < 0) return matchText(all);
    return matchText(all.slice(0, at)) + "\n" + reviewText(all.slice(at));
  }

  // The review's block in the page's language: its title translated, its aligned header laid
  // out again for the longer words, the rows (a name and numbers) in the same columns.
  function reviewText(lines) {
    // The last two columns (proven values, values lost) are absent from older reports, and `-`
    // where a review did not count them.
    const row = /^(.*?) +(\d+) +(\d+) +(\S+) +(\S+) +(\d+) +(\d+) +(\d+)(?: +(\d+|-) +(\d+|-))?$/;
    const rows = lines.slice(2).map((l) => row.exec(l)).filter((m) => m);
    const exact = rows.length > 0 && rows.every((m) => m[9] !== undefined);
    const head = ["report.table.engine", "report.st.games", "review.moves", "review.accuracy", "review.loss"]
      .map((k) => t(k))
      .concat(["?!", "?", "??"], exact ? [t("review.proven"), t("review.lost")] : []);
    const dec = (v) => (v === "-" ? v : I.num(v));
    const cells = rows.map((m) => [m[1], m[2], m[3], dec(m[4]), dec(m[5]), m[6], m[7], m[8]].concat(exact ? [m[9], m[10]] : []));
    const w = head.map((h, i) => Math.max(h.length, [6, 5, 6, 8, 6, 4, 4, 4, 6, 5][i], ...cells.map((c) => c[i].length)));
    const line = (c) => c[0].padEnd(w[0]) + "  " + c.slice(1).map((v, i) => v.padStart(w[i + 1])).join(" ");
    const rest = lines.slice(2 + rows.length);
    return [I.rust(lines[0]), line(head), ...cells.map(line), ...rest.map(I.rust)].join("\n");
  }

  function matchText(lines) {
    const row = /^(.*?) +(\d+) +(\d+) +(\d+) +(-?[\d.]+)%$/;
    const rows = [lines[2], lines[3]].map((l) => row.exec(l || ""));
    if (rows.every((m) => m)) {
      const head = ["engine", "wins", "draws", "losses", "score"].map((k) => t("report.table." + k));
      const w = Math.max(head[0].length, ...rows.map((m) => m[1].length));
      const cw = head.slice(1).map((h, i) => Math.max(h.length, i < 3 ? 6 : 7));
      const line = (c) => c[0].padEnd(w) + "  " + c.slice(1, 4).map((v, i) => v.padStart(cw[i])).join(" ") + " " + c[4].padStart(cw[3]);
      lines.splice(1, 3, line(head), ...rows.map((m) => line([m[1], m[2], m[3], m[4], I.num(m[5]) + "%"])));
      return lines.map((l, i) => (i >= 1 && i <= 3 ? l : I.rust(l))).join("\n");
    }
    return lines.map(I.rust).join("\n");
  }

  // ---- The page, built by `build` (again after a language switch).
  const app = el("div", { id: "app" });
  document.body.append(app);
  let cur = null; // {gi, plies: [{fen, marks}], moves, spans, splot, ply}
  let rowOf = [], resBox = {}, why = null, order = null, shown = null, rows = null;
  let vhead = null, view = null, plyInfo = null, fenIn = null, copyBtn = null, movesBox = null, scoreBox = null, reviewInfo = null;
  const counts = { W: 0, D: 0, L: 0 };
  for (const g of D.games) counts[g.res]++;
  const reasons = [...new Set(D.games.map((g) => g.why))];
  const errors = D.games.filter((g) => g.err).length;
  const rank = { L: 0, D: 1, W: 2 };

  // A match's title, table and plots.
  function matchTop(switcher) {
    const title = t("report.title", { n1: D.names[0], n2: D.names[1], game: D.variant, games: D.games.length });
    document.title = title;
    app.replaceChildren(el("div", { class: "top" }, el("h1", {}, title), switcher));
    app.append(el("pre", { class: "table", id: "table" }, tableText()));
    // The game review's table (review.js), when the records were analysed.
    if (D.review) app.append(TableroReview.summary(D.review, I));

    // Match plots.
    const S = D.series;
    const plots = el("div", { class: "plots", id: "plots" });
    if (S.game.length) {
      const xs = S.game.map((_, i) => i + 1);
      if (!S.elo.some((v) => v !== null)) plots.append(el("div", { class: "cap", style: "flex-basis: 100%" }, t("report.no_elo", { name: D.names[0], pct: Math.round((S.score[S.score.length - 1] ?? 0.5) * 100) })));
      plots.append(box(t("report.plot.elo", { n1: D.names[0], n2: D.names[1] }),
        plot({ xs, lines: [{ ys: S.elo, color: C.e1, label: t("report.legend.elo") }], band: { lo: S.lo, hi: S.hi }, hlines: [{ y: 0, color: "#999" }], clip: 800 })));
      plots.append(box(t("report.plot.score", { name: D.names[0] }),
        plot({ xs, lines: [{ ys: S.score.map((v) => (v === null ? null : v * 100)), color: C.e1, label: t("report.legend.score") }], hlines: [{ y: 50, color: "#999" }] })));
      if (D.sprt && S.llr.length) {
        const sp = D.sprt;
        plots.append(box(t("report.plot.sprt", { elo0: sp.elo0, elo1: sp.elo1, alpha: sp.alpha, beta: sp.beta }),
          plot({ xs, lines: [{ ys: S.llr, color: C.e1, label: t("report.legend.llr") }], hlines: [{ y: sp.upper, label: "H1 " + I.num(sp.upper.toFixed(2)) }, { y: sp.lower, label: "H0 " + I.num(sp.lower.toFixed(2)) }, { y: 0, color: "#999" }] })));
      }
    }
    app.append(plots);
  }

  // A match's filters and rows.
  function buildList(list) {
    const filters = el("div", { class: "filters", id: "filters" });
    resBox = {};
    for (const r of ["L", "D", "W"]) {
      const cb = el("input", { type: "checkbox", id: "f-" + r });
      cb.checked = true;
      cb.addEventListener("change", applyFilter);
      resBox[r] = cb;
      filters.append(el("label", {}, cb, " ", el("span", { class: "res " + r }, t("report.res." + r)), ` ${outcome(r)} (${counts[r]})`));
    }
    why = el("select", { id: "f-why" }, el("option", { value: "" }, t("report.filter.any")), ...reasons.map((r) => el("option", { value: r }, t("report.filter.reason", { reason: r, n: D.games.filter((g) => g.why === r).length }))));
    if (errors) why.append(el("option", { value: "!err" }, t("report.filter.replay_error", { n: errors })));
    why.addEventListener("change", applyFilter);
    order = el("select", { id: "f-order" }, el("option", { value: "loss" }, t("report.sort.loss")), el("option", { value: "game" }, t("report.sort.game")));
    order.addEventListener("change", applyFilter);
    filters.append(el("label", {}, t("report.filter.ended") + " ", why), el("label", {}, t("report.filter.sort") + " ", order));
    shown = el("div", { class: "cap", id: "shown" });
    rows = el("div", { class: "rows", id: "rows" });
    list.append(filters, shown, rows);
    rowOf = D.games.map((g, gi) => {
      const moves = g.n + (g.book ? ` +${g.book}` : "");
      const first = D.names[g.first - 1];
      return el("div", { class: "row", "data-game": g.i, onclick: () => open(gi) },
        el("span", { class: "n" }, "#" + g.i),
        el("span", { class: "res " + g.res, title: t("report.res_title." + g.res) }, t("report.res." + g.res)),
        el("span", { class: "why", title: I.dict("reason", g.why) }, I.dict("reason", g.why)),
        el("span", { class: "pl", title: t("report.plies_title") }, moves),
        el("span", { class: g.err ? "det err" : "det", title: g.err ? I.rust(g.err) : I.rust(g.d) },
          g.err ? t("report.replay_error") : g.d ? t("report.first_detail", { name: first, detail: g.d }) : t("report.first", { name: first })));
    });
  }

  // The page; false when there is no game to list (a class page before any game).
  function build() {
    const switcher = I.switcher();
    if (!T) matchTop(switcher);
    else if (!TT.top(app, switcher)) return false;

    // Game list with filters; losses of engine 1 first.
    app.append(el("h2", {}, t("report.games")));
    const main = el("div", { class: "main" });
    const list = el("div", { class: "list" });
    if (T) {
      const L = TT.list(open);
      rowOf = L.rowOf;
      list.classList.add("wide");
      list.append(L.box);
    } else buildList(list);

    // Viewer.
    const viewer = el("div", { class: "viewer", id: "viewer" });
    vhead = el("div", { class: "vhead", id: "vhead" }, t("report.pick"));
    const boardBox = el("div", { class: "board", id: "board" });
    view = new TableroScene.View(boardBox);
    const btn = (label, title, f, id) => el("button", { title, onclick: f, id }, label);
    const controls = el("div", { class: "controls" },
      btn("|◀", t("report.btn.start"), () => show(0), "b-start"),
      btn("◀", t("report.btn.back"), () => step(-1), "b-prev"),
      btn("▶", t("report.btn.forward"), () => step(1), "b-next"),
      btn("▶|", t("report.btn.end"), () => show(cur ? cur.plies.length - 1 : 0), "b-end"));
    plyInfo = el("div", { class: "plyinfo", id: "plyinfo" });
    reviewInfo = el("div", { class: "plyinfo reviewinfo", id: "reviewinfo" });
    fenIn = el("input", { id: "fen", readonly: "", "aria-label": t("report.fen"), translate: "no" });
    copyBtn = el("button", { id: "copy", onclick: copyFen }, t("report.copy"));
    const fenRow = el("div", { class: "fen" }, fenIn, copyBtn);
    movesBox = el("div", { class: "moves", id: "moves", translate: "no" });
    scoreBox = el("div", { id: "scoreplot" });
    const side = el("div", { class: "side" }, controls, plyInfo, reviewInfo, fenRow, movesBox,
      el("div", { class: "keys" }, t("report.keys")));
    viewer.append(vhead, el("div", { class: "vbody" }, el("div", {}, boardBox, scoreBox), side));
    main.append(list, viewer);
    app.append(main);
  }

  function applyFilter() {
    if (T) return TT.apply();
    const byWhy = (g) => !why.value || (why.value === "!err" ? !!g.err : g.why === why.value);
    const idx = D.games.map((_, i) => i).filter((i) => resBox[D.games[i].res].checked && byWhy(D.games[i]));
    if (order.value === "loss") idx.sort((a, b) => rank[D.games[a].res] - rank[D.games[b].res] || D.games[a].i - D.games[b].i);
    rows.replaceChildren(...idx.map((i) => rowOf[i]));
    shown.textContent = t("report.shown", { k: idx.length, n: D.games.length });
    return idx;
  }
  const chunks = new Map(); // chunk number -> promise of its decoded games
  function blob(z) {
    if (!blobLines) blobLines = blobText.split("\n").filter((l, i) => i > 0 || l.length);
    return blobLines[z];
  }
  // Inflates one chunk (several games compressed together, see html.rs ChunkWriter) and
  // rebuilds every ply's full mark list from the deltas; items are shared between plies.
  async function inflateChunk(z) {
    const bin = atob(blob(z)), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    const games = JSON.parse(await new Response(stream).text());
    const dict = [];
    return games.map((data) => {
      const items = new Map();
      let keys = [];
      const plies = data.p.map((p) => {
        if (p.r) { const gone = new Set(p.r); keys = keys.filter((k) => !gone.has(k)); for (const k of p.r) items.delete(k); }
        for (const x of p.c || []) {
          let it;
          if (typeof x === "number") it = dict[x]; else { it = x; dict.push(x); }
          items.set(it.k, it);
        }
        for (const [k, pred] of p.n || []) {
          const j = keys.indexOf(k);
          if (j >= 0) keys.splice(j, 1);
          keys.splice(pred === null ? 0 : keys.indexOf(pred) + 1, 0, k);
        }
        if (p.o) keys = p.o.slice();
        return { fen: p.f, marks: keys.map((k) => items.get(k)) };
      });
      return { plies, moves: data.m };
    });
  }
  async function inflate(gi) {
    const g = D.games[gi];
    if (g.z === undefined) return null;
    if (!chunks.has(g.z)) chunks.set(g.z, inflateChunk(g.z));
    return (await chunks.get(g.z))[g.zi];
  }
  function parseScore(s) {
    if (!s) return null;
    const [kind, v] = s.split(" ");
    const n = Number(v);
    if (!isFinite(n)) return null;
    if (kind === "mate") return n > 0 ? Infinity : -Infinity;
    return n;
  }
  let opening = 0;
  async function open(gi) {
    const token = ++opening;
    const g = D.games[gi];
    for (const r of rowOf) r.classList.remove("sel");
    rowOf[gi].classList.add("sel");
    const names = pairOf(g);
    const args = { i: g.i, first: names[g.first - 1], second: names[2 - g.first], outcome: t("report.outcome." + g.res, { name: names[0] }), why: g.why, detail: g.d };
    vhead.textContent = t(g.d ? "report.vhead_detail" : "report.vhead", args);
    if (g.err) vhead.append(el("div", { class: "err" }, t("report.vhead_error", { error: g.err })));
    if (g.rv) vhead.append(el("div", { class: "rvline", id: "rvline" }, TableroReview.gameText(g.rv, [args.first, args.second], I)));
    const data = await inflate(gi);
    if (token !== opening) return;
    if (!data) {
      // Nothing could be replayed (e.g. a bad opening state string): an empty viewer.
      cur = null;
      view.setMarks([]);
      fenIn.value = "";
      plyInfo.textContent = "";
      movesBox.replaceChildren();
      scoreBox.replaceChildren();
      reviewInfo.textContent = "";
      return;
    }
    view.setBoard(D.boards[g.b]);
    // Move list: ply k (1-based) is the move leading to ply k.
    const spans = [null];
    const parts = [];
    data.moves.forEach((m, k) => {
      const cls = m[1] === 0 ? "mv book" : "mv e" + m[1];
      const title = m[1] === 0 ? t("report.move.opening") : t("report.move.title", { name: names[m[1] - 1], depth: m[3] ?? "-", score: m[4] ?? "-", ms: m[2] });
      const s = el("span", { class: cls, "data-ply": k + 1, title }, el("span", { class: "no" }, k + 1 + "."), m[0]);
      const mk = TableroReview.markSpan(m[5], I);
      if (mk) s.append(mk);
      s.addEventListener("click", () => show(k + 1));
      spans.push(s);
      parts.push(s, " ");
    });
    movesBox.replaceChildren(...parts);
    // Each engine's score after its moves, from engine 1's side (engine 2's negated); mates at
    // the edge of the scale.
    const xs = data.plies.map((_, i) => i);
    const e = [[], []];
    let big = 100;
    data.moves.forEach((m) => { const v = parseScore(m[4]); if (v !== null && isFinite(v)) big = Math.max(big, Math.abs(v)); });
    xs.forEach((i) => {
      const m = i > 0 ? data.moves[i - 1] : null;
      for (const k of [1, 2]) {
        let v = m && m[1] === k ? parseScore(m[4]) : null;
        if (v !== null) { if (!isFinite(v)) v = Math.sign(v) * big; if (k === 2) v = -v; }
        e[k - 1].push(v);
      }
    });
    const splot = plot({ w: 520, h: 160, xs, lines: [{ ys: e[0], color: C.e1, label: names[0], dots: true }, { ys: e[1], color: C.e2, label: t("report.negated", { name: names[1] }), dots: true, dash: "4 2" }], hlines: [{ y: 0, color: "#999" }], onPick: (i) => show(i) });
    scoreBox.replaceChildren(box(t("report.plot.moves", { name: names[0] }), splot));
    // The review's evaluation graph (engine 1's expected score) above the engines' own scores.
    const rplot = TableroReview.graph({ moves: data.moves, who: 1, label: t("review.graph", { name: names[0] }), onPick: (i) => show(i) }, I);
    if (rplot) scoreBox.prepend(rplot.el);
    cur = { gi, plies: data.plies, moves: data.moves, spans, splot, rplot, ply: 0, names };
    show(0);
  }
  function show(ply) {
    if (!cur) return;
    const t0 = performance.now();
    ply = Math.max(0, Math.min(cur.plies.length - 1, ply));
    const p = cur.plies[ply];
    view.setMarks(p.marks);
    fenIn.value = p.fen;
    if (cur.spans[cur.ply]) cur.spans[cur.ply].classList.remove("cur");
    const sp = cur.spans[ply];
    if (sp) {
      sp.classList.add("cur");
      // Scroll the move list only (scrollIntoView would scroll the page too).
      if (sp.offsetTop < movesBox.scrollTop) movesBox.scrollTop = sp.offsetTop;
      else if (sp.offsetTop + sp.offsetHeight > movesBox.scrollTop + movesBox.clientHeight) movesBox.scrollTop = sp.offsetTop + sp.offsetHeight - movesBox.clientHeight;
    }
    const last = cur.plies.length - 1;
    const m = ply > 0 ? cur.moves[ply - 1] : null;
    plyInfo.textContent = !m ? t("report.ply.start", { ply, last })
      : m[1] === 0 ? t("report.ply.book", { ply, last, move: m[0] })
      : t("report.ply.move", { ply, last, move: m[0], name: cur.names[m[1] - 1], depth: m[3] ?? "-", score: m[4] ?? "-", ms: m[2] });
    cur.splot.mark(ply);
    if (cur.rplot) cur.rplot.mark(ply);
    reviewInfo.textContent = m && m[1] ? TableroReview.plyText(m[0], m[5], I) : "";
    cur.ply = ply;
    window.tableroLastStepMs = performance.now() - t0;
  }
  function step(d) { if (cur) show(cur.ply + d); }
  function copyFen() {
    fenIn.select();
    const done = () => { copyBtn.textContent = t("report.copied"); setTimeout(() => (copyBtn.textContent = t("report.copy")), 1200); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(fenIn.value).then(done, () => { document.execCommand("copy"); done(); });
    else { document.execCommand("copy"); done(); }
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLSelectElement || (ev.target instanceof HTMLInputElement && ev.target.type !== "checkbox" && ev.target.id !== "fen")) return;
    const k = ev.key;
    if (k === "ArrowLeft") step(-1);
    else if (k === "ArrowRight") step(1);
    else if (k === "Home" || k === "ArrowUp") show(0);
    else if (k === "End" || k === "ArrowDown") show(cur ? cur.plies.length - 1 : 0);
    else return;
    ev.preventDefault();
  });

  const listed = build() !== false;
  const first = listed ? applyFilter() : [];
  // A new language: the page again, with the same filters, game and ply (a tournament's
  // filters live in tournament.js).
  I.onChange(() => {
    const keep = T ? { res: {}, gi: cur && cur.gi, ply: cur && cur.ply } : { res: Object.fromEntries(Object.entries(resBox).map(([r, cb]) => [r, cb.checked])), why: why.value, order: order.value, gi: cur && cur.gi, ply: cur && cur.ply };
    cur = null;
    if (build() === false) return;
    for (const [r, on] of Object.entries(keep.res)) resBox[r].checked = on;
    if (!T) {
      why.value = keep.why;
      order.value = keep.order;
    }
    applyFilter();
    if (keep.gi !== null) open(keep.gi).then(() => show(keep.ply));
  });
  // Hooks for tests and measurements.
  window.tableroReport = {
    open: (gameNumber) => open(D.games.findIndex((g) => g.i === gameNumber)),
    show, step,
    state: () => (cur ? { game: D.games[cur.gi].i, ply: cur.ply, plies: cur.plies.length, fen: cur.plies[cur.ply].fen } : null),
  };
  // `#game=N&ply=P` in the address opens that game at that ply (links, screenshots).
  const want = new URLSearchParams(location.hash.slice(1));
  const wantGame = D.games.findIndex((g) => String(g.i) === want.get("game"));
  const ready = !listed ? Promise.resolve() : wantGame >= 0
    ? open(wantGame).then(() => show(Number(want.get("ply")) || 0))
    : first.length ? open(first[0]) : Promise.resolve();
  ready.then(() => { window.tableroReady = performance.now(); document.body.setAttribute("data-ready", "1"); });
})();
