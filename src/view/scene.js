// scene.js — draws tablero's scene items (src/view/mod.rs) as SVG elements in the browser.
// The mapping from item to element mirrors src/view/svg.rs; Rust decides every coordinate and
// colour, this file only creates and replaces elements. Shared by the match report and the
// browser board (both embed it).
"use strict";
const TableroScene = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const r2 = (v) => Math.round(v * 100) / 100;
  const pts = (a) => {
    const out = [];
    for (let i = 0; i + 1 < a.length; i += 2) out.push(r2(a[i]) + "," + r2(a[i + 1]));
    return out.join(" ");
  };
  // One item -> one SVG element (same attributes as svg.rs writes).
  function element(it) {
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
        e.textContent = it.v;
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
      t.textContent = it.tip;
      e.insertBefore(t, e.firstChild);
    }
    return e;
  }
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
    }
    // board: {width, height, items}
    setBoard(board) {
      const j = JSON.stringify(board);
      if (j === this.boardJson) return;
      this.boardJson = j;
      this.svg.setAttribute("viewBox", "0 0 " + r2(board.width) + " " + r2(board.height));
      this.boardLayer.replaceChildren(...board.items.map(element));
      this.marks.clear();
      this.markLayer.replaceChildren();
    }
    // items: the full list of marks of a position; only changed keys are redrawn, and the
    // drawing order of the list is kept.
    setMarks(items) {
      const next = new Map();
      const order = [];
      items.forEach((it, i) => {
        const key = it.k || "#" + i;
        const j = JSON.stringify(it);
        const old = this.marks.get(key);
        const el = old && old.json === j ? old.el : element(it);
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
    }
  }
  return { element, View };
})();
