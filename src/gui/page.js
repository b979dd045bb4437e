// page.js — the browser side of `tablero gui`. It knows no rules: the server sends the board
// scene, the marks and the legal moves with their click targets (view::MoveTarget); this file
// draws them with scene.js, turns clicks into one of those moves and sends it back. Its words
// come from the string tables (i18n.js: `t` by key; `rust` for texts the server made).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const I = TableroI18n;
  const t = I.t;
  I.init();
  $("lang").appendChild(I.switcher());
  const view = new TableroScene.View($("board"));
  let S = null; // the last state from the server
  let version = 0;
  let boardVersion = 0;
  let boardSize = { w: 0, h: 0 };
  let flipped = false;
  let selected = null; // the clicked target, while its choices are shown
  let probe = null; // {t0, plies}: a human move waiting for the engine's reply
  window.tableroTimings = []; // [{total_ms, think_ms}] per engine reply (overhead probe)

  // The error line, kept as a function of the language so that a switch redraws it.
  let errorText = () => "";
  function showError(f) {
    errorText = f || (() => "");
    $("error").textContent = errorText();
  }
  // An error line from the server (English) in the page's language.
  const serverError = (text) => showError(() => I.rust(text));

  async function post(path, body) {
    try {
      const r = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body || {}),
      });
      if (!r.ok) {
        serverError((await r.text()).trim());
        return false;
      }
      showError();
      return true;
    } catch (e) {
      showError(() => t("gui.err.unreachable", { error: String(e) }));
      return false;
    }
  }

  async function poll() {
    for (;;) {
      try {
        const r = await fetch("/api/state?since=" + version + "&board=" + boardVersion);
        if (!r.ok) throw new Error((await r.text()).trim());
        const s = await r.json();
        render(s);
      } catch (e) {
        $("status").removeAttribute("data-i18n");
        $("status").textContent = t("gui.status.lost", { error: e.message });
        await new Promise((res) => setTimeout(res, 1000));
      }
    }
  }

  function humanToMove(s) {
    return !s.result && (s.seats[s.side] === null || s.paused) && !s.thinking;
  }

  function play(m) {
    selected = null;
    const opp = S.seats[1 - S.side];
    probe = opp !== null && S.seats[S.side] === null ? { t0: performance.now(), plies: S.moves.length } : null;
    post("/api/move", { move: m });
  }

  // Flip: boards with gravity are mirrored (the state's `mirror`), others turned 180°; texts are
  // turned back so they stay readable.
  function applyFlip() {
    const mirror = S && S.mirror;
    const { w, h } = boardSize;
    const t = !flipped ? "" : mirror ? "translate(" + w + ",0) scale(-1,1)" : "rotate(180 " + w / 2 + " " + h / 2 + ")";
    for (const layer of [view.boardLayer, view.markLayer]) {
      if (t) layer.setAttribute("transform", t); else layer.removeAttribute("transform");
    }
    for (const el of view.svg.querySelectorAll("text")) {
      const x = parseFloat(el.getAttribute("x")) || 0;
      const y = parseFloat(el.getAttribute("y")) || 0;
      // Left becomes right: a start-anchored label must now end at its point (and vice versa).
      if (el.dataset.anchor === undefined) el.dataset.anchor = el.getAttribute("text-anchor") || "middle";
      const a = el.dataset.anchor;
      el.setAttribute("text-anchor", !flipped || a === "middle" ? a : a === "start" ? "end" : "start");
      if (!flipped) el.removeAttribute("transform");
      else if (mirror) el.setAttribute("transform", "matrix(-1 0 0 1 " + 2 * x + " 0)");
      else el.setAttribute("transform", "rotate(180 " + x + " " + y + ")");
    }
  }

  function markBoard(s) {
    const targets = new Set(humanToMove(s) ? s.view.legal.map((l) => l.g) : []);
    const pv = s.analysis.best ? s.analysis.best.target : null;
    for (const el of view.svg.querySelectorAll("[data-g]")) {
      const g = el.getAttribute("data-g");
      el.classList.toggle("legal", targets.has(g));
      el.classList.toggle("sel", g === selected);
      el.classList.toggle("pv", g === pv);
    }
  }

  // A choice as the user reads it: a die as it is, an item (Parchís) by its name.
  const choiceLabel = (c) => I.dict("item", c);

  function button(label, cls, title, onclick, enabled = true) {
    const b = document.createElement("button");
    b.textContent = label;
    if (cls) b.className = cls;
    if (title) b.title = title;
    b.disabled = !enabled;
    b.addEventListener("click", onclick);
    return b;
  }

  // The choice buttons: for the selected target, every choice of this position with the ones
  // the target allows highlighted; pass buttons when passing is all there is; and buttons for
  // moves whose target is not on the board (so no legal move is ever out of reach).
  function renderChoices(s) {
    const box = $("choices");
    box.replaceChildren();
    if (!humanToMove(s)) return;
    const legal = s.view.legal;
    const onBoard = new Set([...view.svg.querySelectorAll("[data-g]")].map((e) => e.getAttribute("data-g")));
    if (legal.length > 0 && legal.every((l) => l.g === "pass")) {
      for (const l of legal) box.appendChild(button(t("gui.pass", { choice: choiceLabel(l.c) }), "legal pass", l.m, () => play(l.m)));
      return;
    }
    if (selected !== null) {
      const mine = legal.filter((l) => l.g === selected);
      if (mine.length === 0) { selected = null; }
      else {
        const all = [];
        for (const l of legal) if (!all.includes(l.c)) all.push(l.c);
        const lab = document.createElement("span");
        lab.textContent = selected + ":";
        box.appendChild(lab);
        for (const c of all) {
          const m = mine.find((l) => l.c === c);
          box.appendChild(button(c === "" ? t("gui.choice.move") : choiceLabel(c), m ? "legal choice" : "choice", m ? m.m : "", () => m && play(m.m), !!m));
        }
        box.appendChild(button(t("gui.cancel"), "", "", () => { selected = null; renderChoices(S); markBoard(S); }));
      }
    }
    for (const l of legal) {
      if (!onBoard.has(l.g)) box.appendChild(button(l.m, "legal other", t("gui.move_title", { move: l.m }), () => play(l.m)));
    }
  }

  function onBoardClick(ev) {
    if (!S || !humanToMove(S)) return;
    let g = null;
    for (const el of document.elementsFromPoint(ev.clientX, ev.clientY)) {
      const t = el.closest && el.closest("[data-g]");
      if (t && view.svg.contains(t)) { g = t.getAttribute("data-g"); break; }
    }
    if (g === null) return;
    const mine = S.view.legal.filter((l) => l.g === g);
    if (mine.length === 0) { showError(() => t("gui.err.no_move_at", { target: g })); return; }
    showError();
    if (mine.length === 1 && mine[0].c === "") { play(mine[0].m); return; }
    selected = g;
    renderChoices(S);
    markBoard(S);
  }

  // Options by value; `label(v)` the text shown (engine names are names: not translated).
  function fillSelect(sel, values, label) {
    const want = JSON.stringify([values, values.map(label)]);
    if (sel.dataset.values === want) return;
    const keep = sel.value;
    sel.dataset.values = want;
    sel.replaceChildren(...values.map((v) => {
      const o = document.createElement("option");
      o.value = v;
      o.textContent = label(v);
      if (o.textContent === v) o.translate = false;
      return o;
    }));
    if (values.includes(keep)) sel.value = keep;
  }

  // The status line from the state: who is to move and how, or the result.
  function statusText(s) {
    const seat = (i) => t(i === 0 ? "gui.seat.first" : "gui.seat.second");
    if (s.result) {
      if (s.result === "1/2-1/2") return t("gui.status.draw", { result: s.result });
      return t("gui.status.win", { result: s.result, seat: seat(s.result === "1-0" ? 0 : 1) });
    }
    const name = s.seats[s.side];
    const who = name === null ? t("gui.who.human")
      : s.thinking && s.thinking.seat === s.side ? t("gui.who.thinking", { name })
      : s.paused ? t("gui.who.paused", { name }) : name;
    return t("gui.status.to_move", { seat: seat(s.side), who });
  }

  function setValue(el, v) {
    if (document.activeElement !== el && el.value !== String(v)) el.value = v;
  }

  // The game's named variant options (Parchís' Year): one select each; a change starts a new
  // game of the same game with the options chosen.
  function renderVariant(list) {
    const box = $("variant");
    const names = list.map((o) => o.name).join(",");
    if (box.dataset.names !== names) {
      box.dataset.names = names;
      box.replaceChildren(...list.map((o) => {
        const label = document.createElement("label");
        const span = document.createElement("span");
        span.setAttribute("data-i18n", "gui.option." + o.name);
        span.textContent = t("gui.option." + o.name);
        const sel = document.createElement("select");
        sel.id = "variant-" + o.name;
        sel.addEventListener("change", () => post("/api/new", { game: $("game").value, options: variantChoice() }));
        label.append(span, " ", sel);
        return label;
      }));
    }
    for (const o of list) {
      const sel = $("variant-" + o.name);
      fillSelect(sel, o.values, (v) => v);
      setValue(sel, o.value);
    }
  }

  // The values chosen in the variant selects, as `{NAME: VALUE}`.
  function variantChoice() {
    const out = {};
    for (const sel of $("variant").querySelectorAll("select")) out[sel.id.slice("variant-".length)] = sel.value;
    return out;
  }

  function render(s) {
    const newGame = !S || s.board_version !== S.board_version;
    if (s.view.board) {
      view.setBoard(s.view.board);
      boardSize = { w: s.view.board.width, h: s.view.board.height };
      boardVersion = s.board_version;
    }
    if (newGame) selected = null;
    view.setMarks(s.view.marks);
    S = s;
    version = s.version;
    applyFlip();
    markBoard(s);
    renderChoices(s);

    if (probe && s.moves.length >= probe.plies + 2 && s.last_think_us !== null) {
      window.tableroTimings.push({ total_ms: performance.now() - probe.t0, think_ms: s.last_think_us / 1000 });
      probe = null;
    }
    if (probe && (s.moves.length < probe.plies || s.result)) probe = null;

    $("status").removeAttribute("data-i18n");
    $("status").textContent = statusText(s);
    $("result").textContent = s.result ? t("gui.result", { result: s.result }) : "";
    const th = s.thinking && s.thinking.line;
    $("thinking").textContent = th ? t("gui.thinking", { depth: th.depth, score: th.score || "", nodes: th.nodes, pv: th.pv }) : "";
    fillSelect($("game"), s.games, (g) => I.dict("game", g));
    $("boardfilebox").hidden = !s.files;
    setValue($("game"), s.game);
    renderVariant(s.variant || []);
    const seatValues = ["human", ...s.engines];
    for (const i of [0, 1]) {
      fillSelect($("seat" + i), seatValues, (v) => (v === "human" ? t("gui.human") : v));
      setValue($("seat" + i), s.seats[i] === null ? "human" : s.seats[i]);
    }
    const mode = s.limit.depth !== undefined ? "depth" : "movetime";
    setValue($("limitmode"), mode);
    setValue($("limitvalue"), s.limit[mode]);
    fillSelect($("heuristic"), s.heuristics, (h) => I.dict("heuristic", h));
    setValue($("heuristic"), s.heuristic);
    setValue($("pace"), s.pace);
    $("pause").setAttribute("data-i18n", s.paused ? "gui.resume" : "gui.pause");
    $("pause").textContent = t(s.paused ? "gui.resume" : "gui.pause");
    $("fen").textContent = s.fen;
    $("moves").textContent = (s.base === "startpos" ? "" : s.base + " moves ") + s.moves.join(" ");
    fillSelect($("analysis"), ["", ...s.engines], (v) => (v === "" ? t("gui.off") : v));
    setValue($("analysis"), s.analysis.engine || "");
    const best = s.analysis.best;
    $("best").textContent = !best ? ""
      : best.choice ? t("gui.best_choice", { move: best.move, target: best.target, choice: choiceLabel(best.choice) })
      : t("gui.best", { move: best.move });
    const rows = s.analysis.lines.slice(-12).reverse().map((l) => {
      const tr = document.createElement("tr");
      for (const v of [l.depth, l.score, l.nodes, l.pv]) {
        const td = document.createElement("td");
        td.textContent = v === null || v === undefined ? "" : v;
        tr.appendChild(td);
      }
      return tr;
    });
    $("lines").tBodies[0].replaceChildren(...rows);
    renderReview(s);
    $("messages").replaceChildren(...s.messages.slice().reverse().map((m) => {
      const li = document.createElement("li");
      li.textContent = I.rust(m.text);
      return li;
    }));
  }

  // The game review (review.js draws it, as in the report): the evaluation graph under the
  // board, the marked move list, the words about the shown move; clicking the graph or a move
  // shows the position after it (with the better move drawn), "Back to the game" returns.
  let reviewKey = null, reviewGraph = null;
  function renderReview(s) {
    const R = s.review;
    const shown = R.view === null ? s.moves.length : R.view;
    $("reviewstatus").textContent = R.running ? t("gui.review.running")
      : R.error ? t("gui.review.failed", { error: I.rust(R.error) })
      : R.plies.length ? t("gui.review.done", { n: R.plies.length }) : "";
    $("reviewauto").checked = R.auto;
    $("reviewlive").hidden = R.view === null;
    // Moves as review.js reads the report's: [text, player 1|2 (0: opening), …, judgement].
    const moves = s.moves.map((m, k) => {
      const r = k < R.opening ? null : R.plies[k - R.opening];
      return r ? [m, R.sides[k] + 1, null, null, null, r] : [m, 0];
    });
    const key = JSON.stringify([moves, R.players, R.names, I.lang]);
    if (key !== reviewKey) {
      reviewKey = key;
      reviewGraph = TableroReview.graph({ moves, who: 1, label: t("review.graph", { name: R.names[0] }), id: "reviewgraph", onPick: (i) => post("/api/view", { ply: i }) }, I);
      $("evalgraph").replaceChildren(...(reviewGraph ? [reviewGraph.el] : []));
      $("reviewline").textContent = R.players ? TableroReview.gameText(R.players, R.names, I) : "";
      $("reviewmoves").replaceChildren(...moves.map((m, k) => {
        const b = document.createElement("span");
        b.className = "rmove";
        b.setAttribute("data-ply", k + 1);
        b.textContent = (k + 1) + ". " + m[0];
        const mk = TableroReview.markSpan(m[5], I);
        if (mk) b.append(" ", mk);
        b.addEventListener("click", () => post("/api/view", { ply: k + 1 }));
        return b;
      }));
    }
    for (const b of $("reviewmoves").children) b.classList.toggle("now", Number(b.getAttribute("data-ply")) === shown);
    if (reviewGraph) reviewGraph.mark(R.view === null ? null : shown);
    const m = moves[shown - 1];
    $("reviewply").textContent = m && m[5] ? TableroReview.plyText(m[0], m[5], I) : "";
  }

  // A records file (`tablero match --records`, `tablero analyse`'s output, a saved game): its
  // games are offered in a list; the chosen one is loaded (with its review when it has one).
  let loaded = [];
  function loadGame(i) {
    if (loaded[i]) post("/api/load", { record: loaded[i] });
  }

  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      showError(() => t("gui.copied"));
    } catch (e) {
      const t = document.createElement("textarea");
      t.value = text;
      document.body.appendChild(t);
      t.select();
      document.execCommand("copy");
      t.remove();
    }
  }

  function settings(body) { post("/api/settings", body); }

  $("board").addEventListener("click", onBoardClick);
  $("newgame").addEventListener("click", () => post("/api/new", { game: $("game").value }));
  $("game").addEventListener("change", () => post("/api/new", { game: $("game").value }));
  for (const i of [0, 1]) {
    $("seat" + i).addEventListener("change", () => {
      settings({ seats: [0, 1].map((j) => ($("seat" + j).value === "human" ? null : $("seat" + j).value)) });
    });
  }
  const sendLimit = () => {
    const v = parseInt($("limitvalue").value, 10);
    if (!(v > 0)) { showError(() => t("gui.err.limit")); return; }
    settings({ limit: { [$("limitmode").value]: v } });
  };
  $("limitmode").addEventListener("change", () => {
    $("limitvalue").value = $("limitmode").value === "depth" ? 6 : 1000;
    sendLimit();
  });
  $("limitvalue").addEventListener("change", sendLimit);
  $("heuristic").addEventListener("change", () => settings({ heuristic: $("heuristic").value }));
  $("pace").addEventListener("change", () => settings({ pace: parseInt($("pace").value, 10) || 0 }));
  $("pause").addEventListener("click", () => settings({ paused: !S.paused }));
  $("undo").addEventListener("click", () => post("/api/undo", {}));
  $("movenow").addEventListener("click", () => post("/api/stop", {}));
  $("flip").addEventListener("click", () => { flipped = !flipped; applyFlip(); });
  $("setpos").addEventListener("click", () => post("/api/position", { position: $("posinput").value }));
  // A simulator's board file: its text goes to the Position box and is set like any position.
  $("boardfile").addEventListener("change", async () => {
    const f = $("boardfile").files[0];
    if (!f) return;
    $("posinput").value = await f.text();
    $("boardfile").value = "";
    post("/api/position", { position: $("posinput").value });
  });
  $("copyfen").addEventListener("click", () => copy(S.fen));
  $("copymoves").addEventListener("click", () => copy($("moves").textContent));
  $("analysis").addEventListener("change", () => post("/api/analysis", { engine: $("analysis").value || null }));
  $("save").addEventListener("click", async () => {
    const r = await fetch("/api/record");
    const text = await r.text();
    if (!r.ok) { serverError(text.trim()); return; }
    showError();
    const box = $("record");
    box.hidden = false;
    box.value = text.trim();
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    a.download = "tablero-" + S.game + ".jsonl";
    document.body.appendChild(a);
    a.click();
    a.remove();
  });
  $("reviewrun").addEventListener("click", () => post("/api/review", { run: true }));
  $("reviewauto").addEventListener("change", () => post("/api/review", { auto: $("reviewauto").checked }));
  $("reviewlive").addEventListener("click", () => post("/api/view", { ply: null }));
  $("loadfile").addEventListener("change", async () => {
    const f = $("loadfile").files[0];
    if (!f) return;
    const lines = (await f.text()).split("\n").filter((l) => {
      try { return Array.isArray(JSON.parse(l).moves); } catch (e) { return false; }
    });
    loaded = lines;
    const sel = $("loadgame");
    sel.replaceChildren(...lines.map((l, i) => {
      const v = JSON.parse(l);
      const o = document.createElement("option");
      o.value = i;
      o.textContent = t("gui.load.item", { n: v.game === undefined ? i + 1 : v.game, first: v.first || "?", second: v.second || "?", result: v.result || "" });
      return o;
    }));
    sel.hidden = lines.length < 2;
    if (!lines.length) { showError(() => t("gui.load.none")); return; }
    loadGame(0);
  });
  $("loadgame").addEventListener("change", () => loadGame(Number($("loadgame").value)));
  // A new language: the static strings are done (i18n.js), the board and the rest redrawn.
  I.onChange(() => {
    view.retranslate();
    $("error").textContent = errorText();
    if (S) render(S);
  });
  poll();
})();
