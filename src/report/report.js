// report.js — the match report page (src/report/html.rs embeds it after scene.js).
// Rust prepared everything: the table text, the running series, the boards, and per game a
// gzip+base64 blob with per ply the state string and the marks that changed. This file draws
// plots, lists games, inflates a game when it is opened (DecompressionStream) and steps plies.
"use strict";
(() => {
  const NS = "http://www.w3.org/2000/svg";
  const D = JSON.parse(document.getElementById("data").textContent);
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
  const fmt = (v) => (Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(Math.abs(v) < 1 ? 2 : 1));

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

  // ---- Header, table and match plots.
  document.body.append(el("h1", {}, D.title));
  document.body.append(el("pre", { class: "table", id: "table" }, D.table));
  const S = D.series;
  const plots = el("div", { class: "plots", id: "plots" });
  if (S.game.length) {
    const xs = S.game.map((_, i) => i + 1);
    if (!S.elo.some((v) => v !== null)) plots.append(el("div", { class: "cap", style: "flex-basis: 100%" }, `No finite Elo: ${D.names[0]} has scored ${Math.round((S.score[S.score.length - 1] ?? 0.5) * 100)} % so far.`));
    plots.append(box(`Elo ${D.names[0]} − ${D.names[1]} and its 95 % interval, after each game`,
      plot({ xs, lines: [{ ys: S.elo, color: C.e1, label: "Elo" }], band: { lo: S.lo, hi: S.hi }, hlines: [{ y: 0, color: "#999" }], clip: 800 })));
    plots.append(box(`Score of ${D.names[0]} (%), after each game`,
      plot({ xs, lines: [{ ys: S.score.map((v) => (v === null ? null : v * 100)), color: C.e1, label: "score %" }], hlines: [{ y: 50, color: "#999" }] })));
    if (D.sprt && S.llr.length) {
      const sp = D.sprt;
      plots.append(box(`SPRT elo0=${sp.elo0} elo1=${sp.elo1} α=${sp.alpha} β=${sp.beta}: LLR after each game`,
        plot({ xs, lines: [{ ys: S.llr, color: C.e1, label: "LLR" }], hlines: [{ y: sp.upper, label: "H1 " + sp.upper.toFixed(2) }, { y: sp.lower, label: "H0 " + sp.lower.toFixed(2) }, { y: 0, color: "#999" }] })));
    }
  }
  document.body.append(plots);

  // ---- Game list with filters; losses of engine 1 first.
  document.body.append(el("h2", {}, "Games"));
  const main = el("div", { class: "main" });
  const list = el("div", { class: "list" });
  const filters = el("div", { class: "filters", id: "filters" });
  const resBox = {};
  const counts = { W: 0, D: 0, L: 0 };
  for (const g of D.games) counts[g.res]++;
  for (const [r, name] of [["L", `${D.names[0]} lost`], ["D", "draw"], ["W", `${D.names[0]} won`]]) {
    const cb = el("input", { type: "checkbox", id: "f-" + r });
    cb.checked = true;
    cb.addEventListener("change", applyFilter);
    resBox[r] = cb;
    filters.append(el("label", {}, cb, " ", el("span", { class: "res " + r }, r), ` ${name} (${counts[r]})`));
  }
  const reasons = [...new Set(D.games.map((g) => g.why))];
  const errors = D.games.filter((g) => g.err).length;
  const why = el("select", { id: "f-why" }, el("option", { value: "" }, "any reason"), ...reasons.map((r) => el("option", { value: r }, `${r} (${D.games.filter((g) => g.why === r).length})`)));
  if (errors) why.append(el("option", { value: "!err" }, `replay error (${errors})`));
  why.addEventListener("change", applyFilter);
  const order = el("select", { id: "f-order" }, el("option", { value: "loss" }, "losses first"), el("option", { value: "game" }, "game order"));
  order.addEventListener("change", applyFilter);
  filters.append(el("label", {}, "ended by ", why), el("label", {}, "sort ", order));
  const shown = el("div", { class: "cap", id: "shown" });
  const rows = el("div", { class: "rows", id: "rows" });
  list.append(filters, shown, rows);
  const rowOf = D.games.map((g, gi) => {
    const moves = g.n + (g.book ? ` +${g.book}` : "");
    const r = el("div", { class: "row", "data-game": g.i, onclick: () => open(gi) },
      el("span", { class: "n" }, "#" + g.i),
      el("span", { class: "res " + g.res, title: { W: "engine 1 won", D: "draw", L: "engine 1 lost" }[g.res] }, g.res),
      el("span", { class: "why" }, g.why),
      el("span", { class: "pl", title: "plies played (+ opening plies)" }, moves),
      el("span", { class: g.err ? "det err" : "det", title: g.err || g.d }, g.err ? "replay error" : `${D.names[g.first - 1]} first${g.d ? ": " + g.d : ""}`));
    return r;
  });
  const rank = { L: 0, D: 1, W: 2 };
  function applyFilter() {
    const byWhy = (g) => !why.value || (why.value === "!err" ? !!g.err : g.why === why.value);
    const idx = D.games.map((_, i) => i).filter((i) => resBox[D.games[i].res].checked && byWhy(D.games[i]));
    if (order.value === "loss") idx.sort((a, b) => rank[D.games[a].res] - rank[D.games[b].res] || D.games[a].i - D.games[b].i);
    rows.replaceChildren(...idx.map((i) => rowOf[i]));
    shown.textContent = `${idx.length} of ${D.games.length} games shown`;
    return idx;
  }

  // ---- Viewer.
  const viewer = el("div", { class: "viewer", id: "viewer" });
  const vhead = el("div", { class: "vhead", id: "vhead" }, "Pick a game");
  const boardBox = el("div", { class: "board", id: "board" });
  const view = new TableroScene.View(boardBox);
  const btn = (label, title, f, id) => el("button", { title, onclick: f, id }, label);
  const controls = el("div", { class: "controls" },
    btn("|◀", "start (Home, ↑)", () => show(0), "b-start"),
    btn("◀", "back (←)", () => step(-1), "b-prev"),
    btn("▶", "forward (→)", () => step(1), "b-next"),
    btn("▶|", "end (End, ↓)", () => show(cur ? cur.plies.length - 1 : 0), "b-end"));
  const plyInfo = el("div", { class: "plyinfo", id: "plyinfo" });
  const fenIn = el("input", { id: "fen", readonly: "", "aria-label": "state string" });
  const copyBtn = el("button", { id: "copy", onclick: copyFen }, "copy");
  const fenRow = el("div", { class: "fen" }, fenIn, copyBtn);
  const movesBox = el("div", { class: "moves", id: "moves" });
  const scoreBox = el("div", { id: "scoreplot" });
  const side = el("div", { class: "side" }, controls, plyInfo, fenRow, movesBox,
    el("div", { class: "keys" }, "keys: ← → step, ↑/Home start, ↓/End end; click a move or the score plot"));
  viewer.append(vhead, el("div", { class: "vbody" }, el("div", {}, boardBox, scoreBox), side));
  main.append(list, viewer);
  document.body.append(main);

  let cur = null; // {gi, plies: [{fen, marks}], moves, spans, splot, ply}
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
    vhead.textContent = `Game #${g.i}: ${D.names[g.first - 1]} (first) vs ${D.names[2 - g.first]}, ${{ W: D.names[0] + " won", D: "draw", L: D.names[0] + " lost" }[g.res]} (${g.why}${g.d ? ": " + g.d : ""})`;
    if (g.err) vhead.append(el("div", { class: "err" }, "replay error: " + g.err));
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
      return;
    }
    view.setBoard(D.boards[g.b]);
    // Move list: ply k (1-based) is the move leading to ply k.
    const spans = [null];
    const parts = [];
    data.moves.forEach((m, k) => {
      const cls = m[1] === 0 ? "mv book" : "mv e" + m[1];
      const title = m[1] === 0 ? "opening move" : `${D.names[m[1] - 1]}: depth ${m[3] ?? "-"}, score ${m[4] ?? "-"}, ${m[2]} ms`;
      const s = el("span", { class: cls, "data-ply": k + 1, title }, el("span", { class: "no" }, k + 1 + "."), m[0]);
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
    const splot = plot({ w: 520, h: 160, xs, lines: [{ ys: e[0], color: C.e1, label: D.names[0], dots: true }, { ys: e[1], color: C.e2, label: D.names[1] + " (negated)", dots: true, dash: "4 2" }], hlines: [{ y: 0, color: "#999" }], onPick: (i) => show(i) });
    scoreBox.replaceChildren(box(`score per move (${D.names[0]}'s side; cp, mate at the edge)`, splot));
    cur = { gi, plies: data.plies, moves: data.moves, spans, splot, ply: 0 };
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
    let info = `ply ${ply} / ${last}`;
    if (ply > 0) {
      const m = cur.moves[ply - 1];
      info += m[1] === 0 ? `: ${m[0]} (opening)` : `: ${m[0]} by ${D.names[m[1] - 1]}, depth ${m[3] ?? "-"}, score ${m[4] ?? "-"}, ${m[2]} ms`;
    } else info += ": start";
    plyInfo.textContent = info;
    cur.splot.mark(ply);
    cur.ply = ply;
    window.tableroLastStepMs = performance.now() - t0;
  }
  function step(d) { if (cur) show(cur.ply + d); }
  function copyFen() {
    fenIn.select();
    const done = () => { copyBtn.textContent = "copied"; setTimeout(() => (copyBtn.textContent = "copy"), 1200); };
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

  const first = applyFilter();
  // Hooks for tests and measurements.
  window.tableroReport = {
    open: (gameNumber) => open(D.games.findIndex((g) => g.i === gameNumber)),
    show, step,
    state: () => (cur ? { game: D.games[cur.gi].i, ply: cur.ply, plies: cur.plies.length, fen: cur.plies[cur.ply].fen } : null),
  };
  // `#game=N&ply=P` in the address opens that game at that ply (links, screenshots).
  const want = new URLSearchParams(location.hash.slice(1));
  const wantGame = D.games.findIndex((g) => String(g.i) === want.get("game"));
  const ready = wantGame >= 0
    ? open(wantGame).then(() => show(Number(want.get("ply")) || 0))
    : first.length ? open(first[0]) : Promise.resolve();
  ready.then(() => { window.tableroReady = performance.now(); document.body.setAttribute("data-ready", "1"); });
})();
