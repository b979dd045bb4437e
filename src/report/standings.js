// standings.js — the tournament page of `tablero report --html` (src/report/html.rs embeds it
// after i18n.js): the language switch, and in Spanish the title and the standings text (the
// one `tablero tournament` prints) translated; the aligned table of ranks laid out again for
// the longer Spanish words.
"use strict";
(() => {
  const I = TableroI18n;
  const t = I.t;
  I.init();
  document.getElementById("lang").appendChild(I.switcher());
  const title = document.getElementById("title");
  const pre = document.getElementById("table");
  const english = { title: title.textContent, text: pre.textContent };
  const numbers = [...document.querySelectorAll(".standings td")].filter((td) => !td.firstElementChild).map((td) => [td, td.textContent]);

  // rank  engine  elo  95%  points  games  wins  draws  losses  score, then one row per engine.
  const ROW = /^ *(\d+)  (.*?) +([+-]\d+\.\d)([* ]) +(\S+) +(\S+) +(\d+) +(\d+) +(\d+) +(\d+) +(\S+)$/;
  const HEAD = ["report.st.rank", "report.table.engine", null, null, "report.st.points", "report.st.games", "report.table.wins", "report.table.draws", "report.table.losses", "report.st.score"];
  function standings(lines) {
    const rows = [];
    for (let i = 2; i < lines.length && ROW.test(lines[i]); i++) rows.push(ROW.exec(lines[i]));
    if (!rows.length) return lines.map(I.rust);
    const cells = rows.map((m) => [m[1], m[2], I.num(m[3]) + m[4], m[5] === "anchor" ? t("report.st.anchor") : I.num(m[5]), I.num(m[6]), m[7], m[8], m[9], m[10], m[11] === "-" ? "-" : I.num(m[11])]);
    const head = HEAD.map((k, i) => (k ? t(k) : ["elo", "95%"][i - 2]));
    const width = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
    const line = (c) => c.map((v, i) => (i === 1 ? v.padEnd(width[i]) : v.padStart(width[i]))).join("  ");
    // The crosstable's rows (indented: ranks, names, points) are data, not text.
    let cross = false;
    const out = lines.map((l, i) => {
      if (i > 0 && i <= rows.length + 1) return l;
      cross = cross ? l.startsWith(" ") : l.startsWith("crosstable:");
      return cross && l.startsWith(" ") ? l : I.rust(l);
    });
    out.splice(1, rows.length + 1, line(head), ...cells.map(line));
    return out;
  }

  function show() {
    if (I.lang === "en") {
      title.textContent = english.title;
      pre.textContent = english.text;
    } else {
      title.textContent = I.rust(english.title);
      const lines = standings(english.text.split("\n"));
      // The engines' losses off the board name the reasons inside the list.
      pre.textContent = lines.map((l) => l.replace(/\b(normal|illegal|time|crash|max_plies)( \d+)/g, (m, r, n) => I.dict("reason", r) + n)).join("\n");
    }
    for (const [td, v] of numbers) td.textContent = I.num(v);
    document.title = title.textContent;
  }
  I.onChange(show);
  show();
})();
