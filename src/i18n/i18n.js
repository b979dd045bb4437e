// i18n.js — the language of tablero's pages (the browser board and the match report): Spanish
// or English (docs/i18n.md). src/i18n/mod.rs puts the string tables (en.json, es.json) before
// this file as `TABLERO_STRINGS`; the pages embed the result.
//
// Two kinds of text are translated:
// - the pages' own strings, by key: `t("gui.newgame")`, or `data-i18n="gui.newgame"` on an element
//   (also `data-i18n-title`, `data-i18n-placeholder`, `data-i18n-aria-label`);
// - texts Rust made in English (picture labels and tooltips, the board server's messages and
//   errors, the referee's table): `rust(text)` finds the English template under `rust.*` that
//   produced the text, reads its arguments back and fills the same key's template of the page's
//   language. Rust and the command-line outputs stay English; an unknown text is shown as it
//   is and noted in `misses` (the page tests require none).
//
// Templates: `{name}` an argument as given; `{name:int}` a whole number; `{name:num}` a number
// (decimal comma in Spanish); `{name:text}` a Rust text, translated in turn; `{name:list}` a
// ", "-separated list of Rust texts; `{name:DICT}` a word translated through the dictionary
// DICT (keys `DICT.<word>`, e.g. `{c:colour}` with `colour.yellow`); `{name|one|other}` a count
// with its singular and plural form, `#` standing for the number. In an English `rust.*`
// template the types say what an argument may look like; in a page's language, how to show it.
"use strict";
const TableroI18n = (() => {
  const TABLES = TABLERO_STRINGS;
  const LANGS = ["es", "en"];
  const STORE = "tablero.lang";
  const PLACEHOLDER = /\{(\w+)(?::(\w+))?(?:\|([^|{}]*)\|([^|{}]*))?\}/g;

  // The language: remembered choice, else the browser's preference (es* -> Spanish).
  function preferred() {
    try {
      const s = localStorage.getItem(STORE);
      if (LANGS.includes(s)) return s;
    } catch (e) { /* storage refused (privacy settings): fall back to the browser's */ }
    for (const l of navigator.languages || [navigator.language || ""]) {
      if (/^es\b/i.test(l)) return "es";
      if (/^en\b/i.test(l)) return "en";
    }
    return "en";
  }
  let lang = preferred();
  const listeners = [];

  function localNum(v) {
    const s = String(v);
    return lang === "es" ? s.replace(/(\d)\.(\d)/g, "$1,$2") : s;
  }

  function dict(name, word, l) {
    const v = TABLES[l || lang][name + "." + word];
    if (v !== undefined) return v;
    // Dictionaries are keyed by the English word; a word spelled differently in the key (spaces,
    // capitals) is found through the English value.
    const k = reverse(name).get(word);
    return k === undefined ? word : TABLES[l || lang][k];
  }
  const reverseCache = new Map();
  function reverse(name) {
    if (!reverseCache.has(name)) {
      const m = new Map();
      for (const [k, v] of Object.entries(TABLES.en)) if (k.startsWith(name + ".")) m.set(v, k);
      reverseCache.set(name, m);
    }
    return reverseCache.get(name);
  }

  // Fills a template: `args` by placeholder name (already in the page's language unless the
  // placeholder's type says how to translate them).
  function fill(tpl, args) {
    return tpl.replace(PLACEHOLDER, (all, name, type, one, other) => {
      let v = args ? args[name] : undefined;
      if (v === undefined || v === null) v = "";
      if (one !== undefined) return (Number(v) === 1 ? one : other).replace(/#/g, localNum(v));
      switch (type) {
        case undefined: return String(v);
        case "num": return localNum(v);
        case "int": return String(v);
        case "text": return rust(String(v));
        case "list": return String(v).split(", ").map(rust).join(", ");
        default: return dict(type, String(v));
      }
    });
  }

  function t(key, args) {
    const tpl = TABLES[lang][key];
    if (tpl === undefined) {
      misses.add("key " + key);
      return key;
    }
    return fill(tpl, args);
  }

  // ---- Texts Rust made: recognised by their English templates.
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let templates = null; // [{key, re, names: [[name, groups]], score, head, tail}]
  let literals = null; // English text -> key, for templates without placeholders
  function compile() {
    templates = [];
    literals = new Map();
    for (const [key, tpl] of Object.entries(TABLES.en)) {
      if (!key.startsWith("rust.")) continue;
      let re = "^", last = 0, group = 1, score = 0, head = null;
      const names = [];
      PLACEHOLDER.lastIndex = 0;
      for (let m; (m = PLACEHOLDER.exec(tpl));) {
        const lit = tpl.slice(last, m.index);
        if (head === null) head = lit;
        re += esc(lit);
        score += lit.length;
        last = m.index + m[0].length;
        const [, name, type, one, other] = m;
        if (one !== undefined) {
          // Each form its own alternative; the count is whichever group matched.
          const alt = (f) => esc(f).replace("#", "(\\d+)");
          re += "(?:" + alt(one) + "|" + alt(other) + ")";
          names.push([name, [group, group + 1]]);
          group += 2;
          score += 1;
          continue;
        }
        if (type === "num") re += "([-+]?\\d+(?:\\.\\d+)?)";
        else if (type === "int") re += "(\\d+)";
        // A plain argument never spans the " · " between the parts of a status line.
        else if (type === undefined || type === "text" || type === "list") re += "((?:(?! · ).)*?)";
        else {
          const words = [...reverse(type).keys()].sort((a, b) => b.length - a.length);
          re += "(" + words.map(esc).join("|") + ")";
          score += 1;
        }
        names.push([name, [group]]);
        group += 1;
      }
      const tail = tpl.slice(last);
      re += esc(tail) + "$";
      score += tail.length;
      if (names.length === 0) literals.set(tpl, key);
      // The literal text before the first and after the last placeholder: a quick filter.
      else templates.push({ key, re: new RegExp(re, "s"), names, score, head, tail });
    }
  }

  // A text with nothing to translate: no word of two letters or more (numbers, `q3`, `×2`).
  const neutral = (s) => !/[A-Za-z]{2}/.test(s);
  const misses = new Set();
  const cache = { es: new Map(), en: new Map() };

  // The English template that made `text`: {key, args} or null.
  function recognise(text) {
    if (!templates) compile();
    const k = literals.get(text);
    if (k !== undefined) return { key: k, args: {} };
    let best = null;
    for (const tp of templates) {
      if ((best && tp.score <= best.score) || !text.startsWith(tp.head) || !text.endsWith(tp.tail)) continue;
      const m = tp.re.exec(text);
      if (!m) continue;
      const args = {};
      for (const [name, groups] of tp.names) args[name] = groups.map((g) => m[g]).find((v) => v !== undefined);
      best = { key: tp.key, score: tp.score, args };
    }
    return best;
  }

  function translateRust(text) {
    const r = recognise(text);
    if (r) return fill(TABLES[lang][r.key], r.args);
    if (text.includes(" · ")) {
      // Status lines join independent parts with " · " (`Turn 3 · player 0 to move (…)`).
      const parts = text.split(" · ");
      const out = parts.map((p) => (neutral(p) ? p : recognise(p)));
      if (out.every((r) => r !== null)) return out.map((r, i) => (typeof r === "string" ? r : fill(TABLES[lang][r.key], r.args))).join(" · ");
    }
    return null;
  }

  // `text` (made by Rust in English) in the page's language.
  function rust(text) {
    if (lang === "en" || !text || neutral(text)) return text;
    const c = cache[lang];
    let v = c.get(text);
    if (v === undefined) {
      v = translateRust(text);
      if (v === null) {
        misses.add(text);
        v = text;
      }
      c.set(text, v);
    }
    return v;
  }

  // The lines of one picture label drawn over several text items, e.g. "red" / "shell": read as
  // one text ("redshell"), its translation's words spread over the same lines (a word too long
  // for one line is written with a hyphen and a space where it may break: "mega- champiñón").
  function lines(a) {
    if (lang === "en") return a;
    const whole = a.join("");
    const v = neutral(whole) ? whole : translateRust(whole);
    if (v === null) return a.map(rust);
    const words = v.split(" ");
    return a.map((_, i) => (i < a.length - 1 ? words[i] || "" : words.slice(i).join(" ")));
  }

  // ---- The page: static elements, the switch, changes.
  const ATTRS = [["data-i18n-title", "title"], ["data-i18n-placeholder", "placeholder"], ["data-i18n-aria-label", "aria-label"]];
  function apply(root) {
    const r = root || document;
    for (const el of r.querySelectorAll("[data-i18n]")) el.textContent = t(el.getAttribute("data-i18n"));
    for (const [data, attr] of ATTRS) for (const el of r.querySelectorAll("[" + data + "]")) el.setAttribute(attr, t(el.getAttribute(data)));
  }

  function set(l, remember) {
    if (!LANGS.includes(l)) return;
    lang = l;
    if (remember) {
      try { localStorage.setItem(STORE, l); } catch (e) { /* not remembered, still switched */ }
    }
    document.documentElement.lang = l;
    apply(document);
    for (const b of document.querySelectorAll(".lang-switch button")) b.setAttribute("aria-pressed", String(b.dataset.lang === l));
    for (const f of listeners) f(l);
  }

  // The ES | EN switch: two buttons, the current language pressed.
  function switcher() {
    const box = document.createElement("span");
    box.className = "lang-switch";
    box.setAttribute("role", "group");
    box.setAttribute("data-i18n-aria-label", "lang.switch");
    box.setAttribute("aria-label", t("lang.switch"));
    box.translate = false;
    for (const l of LANGS) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.lang = l;
      b.textContent = l.toUpperCase();
      b.lang = l;
      b.title = TABLES[l]["lang.name"];
      b.setAttribute("aria-pressed", String(l === lang));
      b.addEventListener("click", () => set(l, true));
      box.appendChild(b);
    }
    return box;
  }

  // Once per page: the static strings, and pictures' texts through `rust`. (The switch's look is
  // in each page's style sheet: the board's Content-Security-Policy refuses inline styles.)
  function init() {
    document.documentElement.lang = lang;
    apply(document);
    if (typeof TableroScene !== "undefined") {
      TableroScene.translator.text = rust;
      TableroScene.translator.lines = lines;
    }
  }

  return {
    get lang() { return lang; },
    t, rust, num: localNum, dict: (name, word) => dict(name, word), set, switcher, init, apply,
    // The key of the English template that made a Rust text (null if none): for tests.
    recognise: (text) => { const r = recognise(text); return r ? r.key : null; },
    onChange: (f) => listeners.push(f),
    misses,
    tables: TABLES,
  };
})();
