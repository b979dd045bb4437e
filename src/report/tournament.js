// tournament.js — the tournament's own parts of a report page (src/report/tournament.rs embeds it
// before report.js, which calls it when the page's data say `mode: "tournament"`): the title,
// a class's builds, the standings and the crosstable as tables (a cell opens that pair's games),
// the plots, the standings text as `tablero tournament` prints it (laid out again in Spanish),
// and the game list's filters (by engine, opponent, result from the chosen engine's side,
// reason). A student's page of a class (`D.focus`, `D.student`) shows that student's games,
// results, row of the crosstable and build. report.js keeps the viewer.
"use strict";
const TableroTournament = (ctx) => {
  const { D, I, t, el, svgEl, plot, box, C } = ctx;
  const names = D.names;
  const n = names.length;
  const focus = D.focus === undefined ? null : D.focus;
  const student = D.student || null;
  const cls = D.class || null;
  const byE = new Map((D.standings || []).map((s) => [s.e, s]));
  const flip = { W: "L", D: "D", L: "W" };
  const students = new Set(cls ? cls.students.map((s) => s.name) : []);
  // Colours of the engines in the plots (Okabe–Ito, then greys).
  const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf"];
  const colour = (e) => PALETTE[(D.standings ? D.standings.findIndex((s) => s.e === e) : e) % PALETTE.length];

  // The list's filters: engine (the side results are read from), opponent, results, reason,
  // order. Kept here so that a language switch rebuilds the page with them.
  const F = { engine: focus, opp: null, res: { W: true, D: true, L: true }, why: "", order: focus === null ? "game" : "loss" };
  let rows = null, shown = null, rowOf = [], badges = [], resLabel = {}, engineSel = null, oppSel = null;

  // Result of game g from engine v's side (W/D/L); without an engine, from the first mover's.
  const resOf = (g, v) => (v === null ? (g.first === 1 ? g.res : flip[g.res]) : g.e[0] === v ? g.res : flip[g.res]);
  const firstOf = (g) => names[g.e[g.first - 1]];
  const secondOf = (g) => names[g.e[2 - g.first]];
  const pct = (x) => I.num((x * 100).toFixed(1));

  function title() {
    if (student) return t("report.class.student_title", { name: student.name, game: D.variant });
    if (cls) return t("report.class.title", { game: D.variant, n: cls.students.length });
    return t("report.t.title", { format: D.format, n, game: D.variant, games: D.played });
  }

  // ---- A class's builds (the class page) and a student's build (the student's page).
  const statusText = (s) => t("report.class.status." + s);
  // A build's message: tablero's own (translated) or the compiler's first error (as it is).
  function buildMessage(s) {
    if (s.status === "built") {
      const what = I.recognise(s.what) ? I.rust(s.what) : s.what;
      return el("span", {}, what, ` (${I.num(s.seconds.toFixed(1))} s)`);
    }
    const e = s.error || "";
    return I.recognise(e) ? el("span", {}, I.rust(e)) : el("code", { translate: "no" }, e);
  }
  function buildsTable() {
    const built = cls.students.filter((s) => s.status === "built").length;
    const tb = el("table", { class: "builds", id: "builds" },
      el("tr", {}, ...["student", "build", "what", "options"].map((k) => el("th", {}, t("report.class.col." + k)))));
    for (const s of cls.students) {
      tb.append(el("tr", { class: "b-" + s.status, "data-student": s.name },
        el("td", { translate: "no" }, el("a", { href: "students/" + encodeURIComponent(s.name) + ".html" }, s.name)),
        el("td", {}, el("span", { class: "status " + s.status }, statusText(s.status))),
        el("td", {}, buildMessage(s)),
        el("td", { translate: "no" }, s.options.length ? s.options.join(" ") : "–")));
    }
    return el("div", { class: "section" },
      el("h2", {}, t("report.class.builds")),
      el("div", { class: "cap" }, t("report.class.built_n", { k: built, n: cls.students.length }) +
        (cls.builtins.length ? " · " + t("report.class.builtins", { list: cls.builtins.join(", ") }) : "")),
      tb);
  }
  function studentBuild() {
    const s = student;
    const parts = [el("h2", {}, t("report.class.build")),
      el("div", { class: "buildline", id: "buildline" }, el("span", { class: "status " + s.status }, statusText(s.status)), " ", buildMessage(s))];
    if (s.options.length) parts.push(el("div", { class: "cap" }, t("report.class.options", { list: s.options.join(" ") })));
    const log = el("details", { id: "buildlog" }, el("summary", {}, t("report.class.log")),
      el("pre", { class: "log", translate: "no" }, s.log));
    if (s.log_cut) log.append(el("div", { class: "cap" }, t("report.class.log_cut", { path: s.log_path })));
    if (s.status !== "built") log.open = true;
    parts.push(log);
    return el("div", { class: "section" }, ...parts);
  }

  // ---- Standings and crosstable.
  function pick(engine, opp) {
    F.engine = engine;
    F.opp = opp;
    if (engineSel) engineSel.value = engine === null ? "" : String(engine);
    if (oppSel) oppSel.value = opp === null ? "" : String(opp);
    apply();
    const list = document.getElementById("gamelist");
    if (list) list.scrollIntoView({ block: "start" });
  }
  function nameCell(e) {
    const a = el("a", { href: "#", class: "pick", title: t("report.t.name_title"), onclick: (ev) => { ev.preventDefault(); pick(focus === null ? e : focus, focus === null ? null : e === focus ? null : e); } }, names[e]);
    const kids = [el("span", { class: "swatch", style: "background:" + colour(e) }), a];
    if (cls && students.has(names[e]) && e !== focus) kids.push(" ", el("a", { href: (student ? "" : "students/") + encodeURIComponent(names[e]) + ".html", class: "page", title: t("report.class.page_title", { name: names[e] }) }, "↗"));
    return el("td", { translate: "no" }, ...kids);
  }
  function lostText(s) {
    const parts = Object.entries(s.lost_by).map(([r, c]) => I.dict("reason", r) + " " + c);
    return parts.length ? parts.join(", ") : "–";
  }
  function standingsTable() {
    const head = ["report.st.rank", "report.table.engine", null, "report.st.points", "report.st.games", "report.table.wins", "report.table.draws", "report.table.losses", "report.st.score", "report.t.col.lost"];
    const tb = el("table", { class: "standings", id: "standings" },
      el("tr", {}, ...head.map((k) => (k ? el("th", {}, t(k)) : el("th", { title: t("report.t.elo_title") }, "Elo (95 %)")))));
    for (const s of D.standings) {
      // Rounded first: a tiny negative rating is "+0.0", not "-0.0".
      const r = Math.round(s.elo * 10) / 10 || 0;
      const elo = (r >= 0 ? "+" : "") + I.num(r.toFixed(1)) + (s.star ? "*" : "");
      const err = s.anchor ? t("report.st.anchor") : "±" + I.num(s.error > 1e6 ? "∞" : s.error.toFixed(1));
      tb.append(el("tr", { class: s.e === focus ? "me" : "", "data-engine": s.e },
        el("td", {}, String(s.rank)), nameCell(s.e), el("td", { class: "num" }, elo + " " + err),
        el("td", { class: "num" }, I.num(s.points)), el("td", { class: "num" }, String(s.games)),
        el("td", { class: "num" }, String(s.wins)), el("td", { class: "num" }, String(s.draws)), el("td", { class: "num" }, String(s.losses)),
        el("td", { class: "num" }, s.games ? pct((s.wins + s.draws / 2) / s.games) + " %" : "–"),
        el("td", { class: s.lost_by && Object.keys(s.lost_by).length ? "lost" : "" }, lostText(s))));
    }
    const parts = [el("h2", {}, t("report.t.standings")), tb];
    if (D.prior) parts.push(el("div", { class: "cap" }, t("report.t.prior")));
    return el("div", { class: "section" }, ...parts);
  }
  // A crosstable cell: points of `a` against `b` of games, shaded by the score.
  function crossCell(a, b) {
    if (a === b) return el("td", { class: "diag" }, "×");
    const c = D.cross[a][b];
    if (!c) return el("td", { class: "none" }, "–");
    const [h, g] = c, f = h / 2 / g;
    const bg = `rgba(${f >= 0.5 ? "0,158,115" : "213,94,0"},${(Math.abs(f - 0.5) * 1.2).toFixed(2)})`;
    return el("td", { class: "cell", style: "background:" + bg, "data-a": a, "data-b": b, title: t("report.t.cell_title", { a: names[a], b: names[b], p: h / 2, g }), onclick: () => pick(a, b) },
      I.num(h / 2) + "/" + g);
  }
  function crosstable() {
    const order = D.standings.map((s) => s.e);
    const tb = el("table", { class: "cross", id: "cross" });
    if (focus !== null) {
      // A student's row: one column per opponent.
      const opps = order.filter((e) => e !== focus);
      tb.append(el("tr", {}, el("th", {}), ...opps.map((e) => el("th", { translate: "no", class: "opp" }, names[e]))));
      tb.append(el("tr", {}, nameCell(focus), ...opps.map((e) => crossCell(focus, e))));
      return el("div", { class: "section" }, el("h2", {}, t("report.class.crossrow")), el("div", { class: "cap" }, t("report.t.cross_note")), tb);
    }
    tb.append(el("tr", {}, el("th", {}), el("th", {}), ...order.map((_, k) => el("th", {}, String(k + 1)))));
    order.forEach((a, k) => tb.append(el("tr", { class: a === focus ? "me" : "" }, el("td", {}, String(k + 1)), nameCell(a), ...order.map((b) => crossCell(a, b)))));
    return el("div", { class: "section" }, el("h2", {}, t("report.t.crosstable")), el("div", { class: "cap" }, t("report.t.cross_note")), tb);
  }

  // ---- Plots.
  // The engines' names beside a plot's rows: the label column as wide as the longest name (a
  // class's names are folder names, often long), up to a limit past which a name is cut with
  // an ellipsis (the whole name in its tooltip); the plot keeps its own width beside it.
  const LABEL_MAX = 34;
  const labelText = (n) => (n.length > LABEL_MAX ? n.slice(0, LABEL_MAX - 1) + "…" : n);
  const labelWidth = (list) => Math.max(60, Math.min(LABEL_MAX, Math.max(...list.map((s) => names[s.e].length))) * 6.2 + 12);
  function nameLabel(e, attrs) {
    const label = svgEl("text", attrs);
    label.textContent = labelText(names[e]);
    label.setAttribute("translate", "no");
    if (labelText(names[e]) !== names[e]) {
      const title = svgEl("title", {});
      title.textContent = names[e];
      label.append(title);
    }
    return label;
  }
  // Ratings with their 95 % intervals, best first.
  function ratingsPlot() {
    const L = labelWidth(D.standings), rowsN = D.standings.length, w = L + 310, R = 14, T = 8, rowH = 17, h = T + rowsN * rowH + 24;
    const svg = svgEl("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "font-size": 10, "font-family": "DejaVu Sans, sans-serif" });
    const cap = (s) => Math.min(s.error, 800);
    let lo = Math.min(...D.standings.map((s) => s.elo - cap(s))), hi = Math.max(...D.standings.map((s) => s.elo + cap(s)));
    if (!(hi > lo)) { lo -= 100; hi += 100; }
    const X = (x) => L + ((x - lo) / (hi - lo)) * (w - L - R);
    const step = [50, 100, 200, 250, 500, 1000].find((s) => (hi - lo) / s <= 6) || 2000;
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      svg.append(svgEl("line", { x1: X(v), x2: X(v), y1: T, y2: h - 20, stroke: v === 0 ? "#999" : C.grid }));
      const tx = svgEl("text", { x: X(v), y: h - 8, "text-anchor": "middle", fill: "#555" });
      tx.textContent = I.num(String(v));
      svg.append(tx);
    }
    D.standings.forEach((s, k) => {
      const y = T + k * rowH + rowH / 2, me = s.e === focus, col = colour(s.e);
      svg.append(nameLabel(s.e, { x: L - 6, y: y + 3, "text-anchor": "end", fill: me ? C.ink : "#333", "font-weight": me ? "bold" : "normal" }));
      if (!s.anchor) svg.append(svgEl("line", { x1: X(s.elo - cap(s)), x2: X(s.elo + cap(s)), y1: y, y2: y, stroke: col, "stroke-width": me ? 3 : 2 }));
      svg.append(svgEl("circle", { cx: X(s.elo), cy: y, r: me ? 4.5 : 3.5, fill: col }));
    });
    return { svg };
  }
  // Each engine's share of the points after each game of the tournament (a student's page: the
  // student's only).
  function scorePlot() {
    const games = D.games.slice().sort((a, b) => a.i - b.i);
    const xs = games.map((g) => g.i + 1);
    const who = focus === null ? D.standings.map((s) => s.e) : [focus];
    const lines = who.map((e) => {
      let pts = 0, played = 0, last = null;
      const ys = games.map((g) => {
        if (g.e.includes(e)) {
          const r = resOf(g, e);
          pts += r === "W" ? 1 : r === "D" ? 0.5 : 0;
          played++;
          last = (100 * pts) / played;
        }
        return last;
      });
      return { ys, color: colour(e), label: focus === null ? null : names[e] };
    });
    return plot({ w: 420, h: 170, xs, lines, hlines: [{ y: 50, color: "#999" }], ylo: 0, yhi: 100 });
  }
  // Wins, draws and losses of each engine (losses off the board darker).
  function resultsPlot() {
    const list = focus === null ? D.standings : D.standings.filter((s) => s.e === focus);
    const L = labelWidth(list), w = L + 310, R = 56, T = 8, rowH = 17, h = T + list.length * rowH + 10;
    const most = Math.max(1, ...list.map((s) => s.games));
    const svg = svgEl("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "font-size": 10, "font-family": "DejaVu Sans, sans-serif" });
    const X = (v) => (v / most) * (w - L - R);
    list.forEach((s, k) => {
      const y = T + k * rowH;
      svg.append(nameLabel(s.e, { x: L - 6, y: y + rowH / 2 + 3, "text-anchor": "end", fill: "#333", "font-weight": s.e === focus ? "bold" : "normal" }));
      const off = Object.values(s.lost_by).reduce((a, b) => a + b, 0);
      let x = L;
      for (const [v, fill] of [[s.wins, "#009E73"], [s.draws, "#999"], [s.losses - off, "#D55E00"], [off, "#7a1f00"]]) {
        if (v > 0) svg.append(svgEl("rect", { x, y: y + 3, width: X(v), height: rowH - 6, fill }));
        x += X(v);
      }
      const tx = svgEl("text", { x: x + 4, y: y + rowH / 2 + 3, fill: "#555" });
      tx.textContent = `${s.wins}-${s.draws}-${s.losses}`;
      svg.append(tx);
    });
    return { svg };
  }

  // ---- The standings text, as the command prints it; in Spanish the aligned table of ranks
  // laid out again for the longer words and the rest translated line by line.
  const ROW = /^ *(\d+)  (.*?) +([+-]\d+\.\d)([* ]) +(\S+) +(\S+) +(\d+) +(\d+) +(\d+) +(\d+) +(\S+)$/;
  const HEAD = ["report.st.rank", "report.table.engine", null, null, "report.st.points", "report.st.games", "report.table.wins", "report.table.draws", "report.table.losses", "report.st.score"];
  function standingsText() {
    const text = D.table;
    if (I.lang === "en") return text;
    const lines = text.split("\n");
    const rws = [];
    for (let i = 2; i < lines.length && ROW.test(lines[i]); i++) rws.push(ROW.exec(lines[i]));
    let out;
    if (!rws.length) out = lines.map(I.rust);
    else {
      const cells = rws.map((m) => [m[1], m[2], I.num(m[3]) + m[4], m[5] === "anchor" ? t("report.st.anchor") : I.num(m[5]), I.num(m[6]), m[7], m[8], m[9], m[10], m[11] === "-" ? "-" : I.num(m[11])]);
      const head = HEAD.map((k, i) => (k ? t(k) : ["elo", "95%"][i - 2]));
      const width = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
      const line = (c) => c.map((v, i) => (i === 1 ? v.padEnd(width[i]) : v.padStart(width[i]))).join("  ");
      // The crosstable's rows (indented: ranks, names, points) are data, not text.
      let cross = false;
      out = lines.map((l, i) => {
        if (i > 0 && i <= rws.length + 1) return l;
        cross = cross ? l.startsWith(" ") : l.startsWith("crosstable:");
        return cross && l.startsWith(" ") ? l : I.rust(l);
      });
      out.splice(1, rws.length + 1, line(head), ...cells.map(line));
    }
    // The engines' losses off the board name the reasons inside the list.
    return out.map((l) => l.replace(/\b(normal|illegal|time|crash|max_plies)( \d+)/g, (m, r, k) => I.dict("reason", r) + k)).join("\n");
  }

  function summary() {
    const s = byE.get(focus);
    if (!s) return null;
    const parts = [t("report.class.summary", { rank: s.rank, n, points: s.points, games: s.games, w: s.wins, d: s.draws, l: s.losses })];
    if (Object.keys(s.lost_by).length) parts.push(t("report.class.lost_off", { list: lostText(s) }));
    return el("div", { class: "summary", id: "summary" }, parts.join(" · "));
  }

  // The top of the page, down to the list of games.
  function top(app, switcher) {
    const head = el("h1", { id: "title" }, title());
    document.title = head.textContent;
    app.replaceChildren(el("div", { class: "top" }, head, switcher));
    if (student) app.append(el("div", { class: "home" }, el("a", { href: student.home, id: "home" }, t("report.class.home"))));
    if (student && focus !== null) app.append(summary());
    if (student) app.append(studentBuild());
    if (cls && !student) app.append(buildsTable());
    if (!D.standings) {
      if (!student || student.status === "built") app.append(el("p", { class: "cap" }, t("report.class.no_games_yet")));
      else app.append(el("p", { class: "cap" }, t("report.class.not_playing")));
      return false;
    }
    if (student && focus === null) return false;
    app.append(standingsTable(), crosstable());
    // The game review's table (review.js), when the records were analysed.
    if (D.review) app.append(TableroReview.summary(D.review, I));
    const plots = el("div", { class: "plots", id: "plots" });
    plots.append(box(t("report.t.plot.ratings"), ratingsPlot()));
    if (D.games.length) plots.append(box(focus === null ? t("report.t.plot.score") : t("report.plot.score", { name: names[focus] }), scorePlot()));
    plots.append(box(t("report.t.plot.results"), resultsPlot()));
    app.append(el("h2", {}, t("report.t.plots")), plots);
    const notes = el("div", { class: "cap", id: "notes" }, ...(D.notes || []).map((l) => el("div", {}, I.rust(l))));
    app.append(el("details", { class: "section", id: "textbox" }, el("summary", {}, t("report.t.text")), el("pre", { class: "table", id: "table" }, standingsText()), notes));
    return true;
  }

  // ---- The list of games and its filters.
  function resText(r, v) {
    return v === null ? { W: "1-0", D: "½", L: "0-1" }[r] : t("report.res." + r);
  }
  function list(open) {
    const filters = el("div", { class: "filters", id: "filters" });
    const opt = (v, label) => el("option", { value: v }, label);
    const ranked = D.standings.map((s) => s.e);
    if (focus === null) {
      engineSel = el("select", { id: "f-engine", translate: "no" }, opt("", t("report.t.all_engines")), ...ranked.map((e) => opt(String(e), names[e])));
      engineSel.value = F.engine === null ? "" : String(F.engine);
      engineSel.addEventListener("change", () => { F.engine = engineSel.value === "" ? null : Number(engineSel.value); if (F.engine === F.opp) F.opp = null; if (oppSel) oppSel.value = F.opp === null ? "" : String(F.opp); apply(); });
      filters.append(el("label", {}, t("report.t.filter.engine") + " ", engineSel));
    }
    oppSel = el("select", { id: "f-opp", translate: "no" }, opt("", t("report.t.any_opponent")), ...ranked.filter((e) => e !== focus).map((e) => opt(String(e), names[e])));
    oppSel.value = F.opp === null ? "" : String(F.opp);
    oppSel.addEventListener("change", () => { F.opp = oppSel.value === "" ? null : Number(oppSel.value); apply(); });
    filters.append(el("label", {}, t("report.t.filter.opponent") + " ", oppSel));
    resLabel = {};
    for (const r of ["L", "D", "W"]) {
      const cb = el("input", { type: "checkbox", id: "f-" + r });
      cb.checked = F.res[r];
      cb.addEventListener("change", () => { F.res[r] = cb.checked; apply(); });
      resLabel[r] = el("span", {});
      filters.append(el("label", {}, cb, " ", resLabel[r]));
    }
    const reasons = [...new Set(D.games.map((g) => g.why))];
    const errors = D.games.filter((g) => g.err).length;
    const why = el("select", { id: "f-why" }, opt("", t("report.filter.any")), ...reasons.map((r) => opt(r, t("report.filter.reason", { reason: r, n: D.games.filter((g) => g.why === r).length }))));
    if (errors) why.append(opt("!err", t("report.filter.replay_error", { n: errors })));
    why.value = F.why;
    why.addEventListener("change", () => { F.why = why.value; apply(); });
    const order = el("select", { id: "f-order" }, opt("loss", t("report.sort.loss")), opt("game", t("report.sort.game")));
    order.value = F.order;
    order.addEventListener("change", () => { F.order = order.value; apply(); });
    filters.append(el("label", {}, t("report.filter.ended") + " ", why), el("label", {}, t("report.filter.sort") + " ", order));
    shown = el("div", { class: "cap", id: "shown" });
    rows = el("div", { class: "rows", id: "rows" });
    badges = [];
    rowOf = D.games.map((g, gi) => {
      const moves = g.n + (g.book ? ` +${g.book}` : "");
      const badge = el("span", { class: "res" });
      badges.push(badge);
      const pairText = `${firstOf(g)} – ${secondOf(g)}`;
      return el("div", { class: "row", "data-game": g.i, onclick: () => open(gi) },
        el("span", { class: "n" }, "#" + g.i), badge,
        el("span", { class: "why", title: I.dict("reason", g.why) }, I.dict("reason", g.why)),
        el("span", { class: "pl", title: t("report.plies_title") }, moves),
        el("span", { class: g.err ? "det err" : "det", title: g.err ? I.rust(g.err) : g.d ? I.rust(g.d) : pairText },
          g.err ? t("report.replay_error") : g.d ? t("report.t.row_detail", { pair: pairText, detail: g.d }) : el("span", { translate: "no" }, pairText)));
    });
    return { box: el("div", { id: "gamelist" }, filters, shown, rows), rowOf };
  }
  // Applies the filters; returns the games shown (indices into D.games), in order.
  function apply() {
    if (!rows) return [];
    const v = F.engine;
    const counts = { W: 0, D: 0, L: 0 };
    const mine = D.games.map((g, i) => i).filter((i) => {
      const g = D.games[i];
      return (v === null || g.e.includes(v)) && (F.opp === null || g.e.includes(F.opp)) && (!F.why || (F.why === "!err" ? !!g.err : g.why === F.why));
    });
    for (const i of mine) counts[resOf(D.games[i], v)]++;
    for (const r of ["W", "D", "L"]) {
      resLabel[r].replaceChildren(el("span", { class: "res " + r + (v === null ? " wide" : "") }, resText(r, v)), " " + (v === null ? t("report.t.first_mover." + r) : t("report.outcome." + r, { name: names[v] })) + ` (${counts[r]})`);
    }
    D.games.forEach((g, i) => {
      const r = resOf(g, v);
      badges[i].className = "res " + r + (v === null ? " wide" : "");
      badges[i].textContent = resText(r, v);
      badges[i].title = v === null ? t("report.t.first_mover." + r) : t("report.outcome." + r, { name: names[v] });
    });
    const rank = { L: 0, D: 1, W: 2 };
    const idx = mine.filter((i) => F.res[resOf(D.games[i], v)]);
    if (F.order === "loss" && v !== null) idx.sort((a, b) => rank[resOf(D.games[a], v)] - rank[resOf(D.games[b], v)] || D.games[a].i - D.games[b].i);
    else idx.sort((a, b) => D.games[a].i - D.games[b].i);
    rows.replaceChildren(...idx.map((i) => rowOf[i]));
    shown.textContent = t("report.shown", { k: idx.length, n: D.games.length });
    return idx;
  }

  return {
    top, list, apply, pick,
    // The two engines of game g, engine 1 first.
    pair: (g) => [names[g.e[0]], names[g.e[1]]],
    filters: () => ({ engine: F.engine, opp: F.opp }),
  };
};
