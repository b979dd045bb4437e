// scene.js — draws tablero's scene items (src/view/mod.rs) as SVG elements in the browser.
// The mapping from item to element mirrors src/view/svg.rs; Rust decides every coordinate and
// colour, this file only creates and replaces elements. Shared by the match report and the
// browser board (both embed it).
//
// Texts go through the page's translator (`TableroScene.translator`, identity unless the page
// sets one; see src/i18n/i18n.js). Rust laid the picture out for its English strings, so a
// translated text keeps to the room its English string had (see `View.fit`).
"use strict";
const TableroScene = (() => {
  const NS = "http://www.w3.org/2000/svg";
  // text(s): a scene string in the page's language; lines([…]): the lines of one label drawn
  // over several text items (keys `…-t`, `…-t1`, …), translated together.
  const translator = { text: (s) => s, lines: (a) => a };
  const r2 = (v) => Math.round(v * 100) / 100;
  const pts = (a) => {
    const out = [];
    for (let i = 0; i + 1 < a.length; i += 2) out.push(r2(a[i]) + "," + r2(a[i + 1]));
    return out.join(" ");
  };
  // One item -> one SVG element (same attributes as svg.rs writes); `shown` replaces a text
  // item's string (a translation).
  function element(it, shown) {
    let e;
    switch (it.t) {
      case "r":
        e = document.createElementNS(NS, "rect");
        e.setAttribute("x", r2(it.x)); e.setAttribute("y", r2(it.y));
        e.setAttribute("width", r2(Math.max(0, it.w))); e.setAttribute("height", r2(Math.max(0, it.h)));
        if (it.rx) e.setAttribute("rx", r2(it.rx));
        break;
      case "c":
        e = document.createElementNS(NS, "circle");
        e.setAttribute("cx", r2(it.x)); e.setAttribute("cy", r2(it.y)); e.setAttribute("r", r2(Math.max(0, it.r)));
        break;
      case "e":
        e = document.createElementNS(NS, "ellipse");
        e.setAttribute("cx", r2(it.x)); e.setAttribute("cy", r2(it.y));
        e.setAttribute("rx", r2(Math.max(0, it.rx))); e.setAttribute("ry", r2(Math.max(0, it.ry)));
        break;
      case "l":
        e = document.createElementNS(NS, "line");
        e.setAttribute("x1", r2(it.x1)); e.setAttribute("y1", r2(it.y1));
        e.setAttribute("x2", r2(it.x2)); e.setAttribute("y2", r2(it.y2));
        break;
      case "p":
        e = document.createElementNS(NS, "polygon");
        e.setAttribute("points", pts(it.pts));
        break;
      case "pl":
        e = document.createElementNS(NS, "polyline");
        e.setAttribute("points", pts(it.pts));
        break;
      case "x":
        e = document.createElementNS(NS, "text");
        e.setAttribute("x", r2(it.x)); e.setAttribute("y", r2(it.y));
        e.setAttribute("font-size", r2(it.size));
        e.setAttribute("text-anchor", it.a === "s" ? "start" : it.a === "e" ? "end" : "middle");
        e.setAttribute("dy", "0.35em");
        if (it.b) e.setAttribute("font-weight", "bold");
        // The string as its own node: a tooltip (<title>) may join it in the element.
        e.__src = it.v;
        e.__text = document.createTextNode(shown === undefined ? translator.text(it.v) : shown);
        e.appendChild(e.__text);
        break;
      default:
        e = document.createElementNS(NS, "g");
    }
    e.setAttribute("fill", it.f || "none");
    if (it.s) { e.setAttribute("stroke", it.s); e.setAttribute("stroke-width", r2(it.sw || 0)); }
    if (it.d) e.setAttribute("stroke-dasharray", r2(it.d));
    if (it.o && it.o < 1) e.setAttribute("opacity", r2(it.o));
    if (it.cl) e.setAttribute("class", it.cl);
    if (it.k) e.setAttribute("data-k", it.k);
    if (it.g) e.setAttribute("data-g", it.g);
    if (it.tip) {
      const t = document.createElementNS(NS, "title");
      t.textContent = translator.text(it.tip);
      e.insertBefore(t, e.firstChild);
    }
    return e;
  }
  // Texts of multi-line labels (keys `K-t`, `K-t1`, …, in order) shown together: item -> string.
  function labelTexts(items) {
    const out = new Map();
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (it.t !== "x" || !it.k || !/-t$/.test(it.k)) continue;
      const group = [it];
      while (i + group.length < items.length && items[i + group.length].k === it.k + group.length) group.push(items[i + group.length]);
      if (group.length < 2) continue;
      const shown = translator.lines(group.map((g) => g.v));
      group.forEach((g, j) => out.set(g, shown[j] === undefined ? "" : shown[j]));
      i += group.length - 1;
    }
    return out;
  }

  const FILLED = new Set(["rect", "circle", "ellipse", "polygon"]);
  const inside = (a, b) => a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;
  const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  // A board view: an <svg> with a static layer (the board) and a mark layer updated by key.
  class View {
    constructor(container) {
      this.svg = document.createElementNS(NS, "svg");
      this.svg.setAttribute("xmlns", NS);
      this.svg.setAttribute("font-family", "DejaVu Sans, Verdana, Arial, sans-serif");
      this.svg.style.width = "100%";
      this.svg.style.height = "auto";
      this.boardLayer = document.createElementNS(NS, "g");
      this.markLayer = document.createElementNS(NS, "g");
      this.svg.appendChild(this.boardLayer);
      this.svg.appendChild(this.markLayer);
      container.appendChild(this.svg);
      this.marks = new Map(); // key -> {json, el}
      this.boardJson = "";
      this.board = null;
      this.items = null; // the marks last set
      this.boardBoxes = null; // boxes of the board layer's shapes and texts, once fitted
    }
    // board: {width, height, items}
    setBoard(board) {
      const j = JSON.stringify(board);
      if (j === this.boardJson) return;
      this.boardJson = j;
      this.board = board;
      this.svg.setAttribute("viewBox", "0 0 " + r2(board.width) + " " + r2(board.height));
      const els = board.items.map((it) => element(it));
      this.boardLayer.replaceChildren(...els);
      this.marks.clear();
      this.markLayer.replaceChildren();
      this.boardBoxes = null;
      this.fit(els.filter((e) => e.__src !== undefined), true);
    }
    // items: the full list of marks of a position; only changed keys are redrawn, and the
    // drawing order of the list is kept.
    setMarks(items) {
      this.items = items;
      const labels = labelTexts(items);
      const next = new Map();
      const order = [];
      const made = [];
      items.forEach((it, i) => {
        const key = it.k || "#" + i;
        const shown = labels.get(it);
        const j = JSON.stringify(it) + (shown === undefined ? "" : "\u0000" + shown);
        const old = this.marks.get(key);
        let el;
        if (old && old.json === j) el = old.el;
        else {
          el = element(it, shown);
          if (el.__src !== undefined) made.push(el);
        }
        next.set(key, { json: j, el });
        order.push(el);
      });
      // Re-append in order: unchanged elements are moved, not rebuilt.
      let cur = this.markLayer.firstChild;
      for (const el of order) {
        if (cur === el) { cur = cur.nextSibling; continue; }
        this.markLayer.insertBefore(el, cur);
      }
      while (cur) { const n = cur.nextSibling; this.markLayer.removeChild(cur); cur = n; }
      this.marks = next;
      this.fit(made, false);
    }
    // Draws everything again (after the page's language changed).
    retranslate() {
      const board = this.board, items = this.items;
      this.boardJson = "";
      if (board) this.setBoard(board);
      if (items) this.setMarks(items);
    }

    // Boxes of the filled shapes and texts of a layer (`all`: of every element), in scene
    // units, shifts included.
    boxesOf(layer, all) {
      const out = [];
      for (const el of layer.children) {
        const tag = el.tagName;
        const text = tag === "text";
        if (!all && !text && !(FILLED.has(tag) && el.getAttribute("fill") !== "none")) continue;
        const b = el.getBBox();
        out.push({ el, text, b: { x: b.x + (el.__dx || 0), y: b.y, width: b.width, height: b.height } });
      }
      return out;
    }

    // Keeps each translated text (`texts`, just drawn) to the room its English string had:
    // - in a legend row (three or more translated start-anchored texts of the board on one
    //   line), the row flows: what follows a longer text moves right, and the row's texts
    //   shrink together if it would leave the picture;
    // - a text inside a shape (a die, a tag, a card) stays inside it; a board text aligned to
    //   one side of a shape (a card's subtitle) keeps to its English width, since marks may
    //   later fill the rest of the shape beside it (a card's "to move" tag);
    // - any text may use the free space beside its English string on its line, up to the next
    //   shape or text, else the picture's edge; beyond that room it shrinks.
    fit(texts, isBoard) {
      const todo = texts.filter((e) => e.__text.data !== e.__src && e.isConnected);
      if (!todo.length) return;
      const shown = todo.map((e) => e.__text.data);
      todo.forEach((e) => { e.__text.data = e.__src; });
      const src = todo.map((e) => e.getBBox());
      todo.forEach((e, i) => { e.__text.data = shown[i]; });
      const now = todo.map((e) => e.getBBox());
      if (!src.some((b) => b.width > 0)) return; // not rendered (hidden page)
      const vb = this.svg.viewBox.baseVal;
      const anchor = (e) => e.getAttribute("text-anchor") || "middle";
      const scale = (e, s) => { if (s < 0.999) e.setAttribute("font-size", r2(parseFloat(e.getAttribute("font-size")) * s)); };
      const done = new Set();
      if (isBoard) {
        const rows = new Map();
        todo.forEach((e, i) => {
          if (anchor(e) !== "start") return;
          const y = e.getAttribute("y");
          if (!rows.has(y)) rows.set(y, []);
          rows.get(y).push(i);
        });
        for (const idx of rows.values()) if (idx.length >= 3) { this.flow(idx.map((i) => [todo[i], src[i], now[i]]), vb, scale); idx.forEach((i) => done.add(i)); }
      }
      let boxes = null;
      todo.forEach((e, i) => {
        const b0 = src[i], b1 = now[i];
        if (done.has(i) || b1.width <= b0.width + 0.5) return;
        if (!boxes) {
          if (!this.boardBoxes) this.boardBoxes = isBoard ? null : this.boxesOf(this.boardLayer);
          boxes = (isBoard ? this.boxesOf(this.boardLayer) : this.boardBoxes.concat(this.boxesOf(this.markLayer)));
        }
        // The shape holding the text: around its middle and its height, and about as wide as it
        // at least (Rust's width estimates let an English label overhang its slot a little).
        const area = (b) => b.width * b.height;
        const mid = { x: b0.x + b0.width / 2, y: b0.y, width: 0, height: b0.height };
        let box = null;
        for (const o of boxes) {
          if (o.text || !inside(mid, o.b) || o.b.width < 0.75 * b0.width || area(o.b) >= 0.9 * vb.width * vb.height) continue;
          if (!box || area(o.b) < area(box)) box = o.b;
        }
        let lo, hi;
        const a = anchor(e), cx = b0.x + b0.width / 2;
        if (box && isBoard && a !== "middle") { lo = b0.x; hi = b0.x + b0.width; }
        else if (box) { lo = box.x + 4; hi = box.x + box.width - 4; }
        else { lo = vb.x + 10; hi = vb.x + vb.width - 10; }
        const band = { x: -1e9, y: b0.y + 0.25 * b0.height, width: 2e9, height: 0.5 * b0.height };
        for (const o of boxes) {
          if (o.el === e || o.b === box || inside(b0, o.b) || meets(o.b, b0) || !meets(o.b, band)) continue;
          if (o.b.x >= b0.x + b0.width - 0.5) hi = Math.min(hi, o.b.x - 3);
          else if (o.b.x + o.b.width <= b0.x + 0.5) lo = Math.max(lo, o.b.x + o.b.width + 3);
        }
        let room = a === "start" ? hi - b0.x : a === "end" ? b0.x + b0.width - lo : 2 * Math.min(cx - lo, hi - cx);
        // Free of a shape, a text may always take its English width.
        if (!box) room = Math.max(room, b0.width);
        scale(e, room / b1.width);
      });
      if (isBoard) this.boardBoxes = this.boxesOf(this.boardLayer);
    }

    // A legend row: [[text, English box, shown box]] left to right; see `fit`.
    flow(row, vb, scale) {
      row.sort((p, q) => p[1].x - q[1].x);
      const b0 = row[0][1];
      const band = { x: -1e9, y: b0.y + 0.25 * b0.height, width: 2e9, height: 0.5 * b0.height };
      const english = new Map(row.map((r) => [r[0], r[1]]));
      const members = this.boxesOf(this.boardLayer, true).filter((o) => meets(o.b, band) && o.b.width < 0.9 * vb.width);
      for (const o of members) if (english.has(o.el)) o.b = english.get(o.el);
      const right = Math.max(...members.map((o) => o.b.x + o.b.width));
      const w0 = row.reduce((n, r) => n + r[1].width, 0), w1 = row.reduce((n, r) => n + r[2].width, 0);
      const s = Math.min(1, (vb.x + vb.width - 10 - right + w0) / w1);
      for (const [e] of row) scale(e, s);
      const shift = new Map();
      for (const [, e0, e1] of row) {
        const grow = e1.width * s - e0.width;
        for (const o of members) if (o.b.x >= e0.x + e0.width - 0.5) shift.set(o.el, (shift.get(o.el) || 0) + grow);
      }
      for (const [el, dx] of shift) {
        if (el.tagName === "text") el.setAttribute("x", r2(parseFloat(el.getAttribute("x")) + dx));
        else {
          el.__dx = dx; // getBBox leaves an element's own transform out
          el.setAttribute("transform", "translate(" + r2(dx) + " 0)");
        }
      }
    }
  }
  return { element, View, translator };
})();
