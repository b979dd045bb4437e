//! Is a page all in Spanish? The words of the English table that the Spanish table never uses
//! are looked for in everything the page shows (text, tooltips, placeholders, labels for screen
//! readers, SVG tooltips, the document title), outside elements marked `translate="no"` (state
//! strings, move lists, engine names); a raw table key shown, or a text made by Rust that the
//! page could not recognise (`TableroI18n.misses`), is a problem too.

use std::collections::BTreeSet;

use super::Browser;

/// Words (three letters or more, lower case) of an English template that no Spanish template
/// contains; placeholders are not words.
pub fn english_only_words() -> Vec<String> {
    let words = |table: &str| -> BTreeSet<String> {
        let v: serde_json::Value = serde_json::from_str(table).expect("a string table");
        let mut out = BTreeSet::new();
        for t in v.as_object().expect("an object").values() {
            let mut text = String::new();
            let mut depth = 0;
            for c in t.as_str().unwrap_or("").chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    _ if depth == 0 => text.push(c),
                    _ => {}
                }
            }
            for w in text.to_lowercase().split(|c: char| !c.is_alphabetic()) {
                if w.chars().count() >= 3 {
                    out.insert(w.to_string());
                }
            }
        }
        out
    };
    let es = words(tablero::i18n::ES);
    words(tablero::i18n::EN).difference(&es).cloned().collect()
}

/// The table keys (a key on the page is a string that was not looked up).
fn keys() -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(tablero::i18n::EN).expect("a string table");
    v.as_object().expect("an object").keys().cloned().collect()
}

/// The page's check, run in the page with the English-only words and the keys.
const AUDIT_JS: &str = r##"((words, keys) => {
  const bad = new Set(words), keyset = new Set(keys), out = [];
  const skip = (el) => !!el.closest('[translate="no"], script, style, [hidden]');
  const where = (el) => {
    const host = el.closest("[id]");
    return host === el ? "#" + el.id : (host ? "#" + host.id + " " : "") + el.tagName.toLowerCase();
  };
  const check = (text, at) => {
    for (const tok of text.split(/\s+/)) {
      if (!tok) continue;
      if (keyset.has(tok.replace(/[.,;:()]+$/, ""))) out.push("raw key " + tok + " in " + at);
      // Notation and quoted input (moves, state strings, engine replies) are not words.
      if (/[0-9:'"_\/]/.test(tok)) continue;
      for (const w of tok.toLowerCase().split(/[^a-záéíóúñü]+/)) if (bad.has(w)) out.push("English '" + w + "' in " + at + ": " + text.trim());
    }
  };
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) {
    const el = n.parentElement;
    if (el && !skip(el)) check(n.data, where(el));
  }
  for (const a of ["title", "placeholder", "aria-label"]) {
    for (const el of document.querySelectorAll("[" + a + "]")) if (!skip(el)) check(el.getAttribute(a), where(el) + "@" + a);
  }
  check(document.title, "the document title");
  for (const m of TableroI18n.misses) out.push("not recognised: " + m);
  if (document.documentElement.lang !== "es") out.push("<html lang=" + document.documentElement.lang + ">");
  return [...new Set(out)];
})"##;

/// The problems of the page now, in Spanish: English words, raw keys, unrecognised Rust texts,
/// a `<html lang>` that is not `es`.
pub fn audit_spanish(b: &Browser) -> Vec<String> {
    let words = serde_json::to_string(&english_only_words()).unwrap();
    let keys = serde_json::to_string(&keys()).unwrap();
    let v = b.eval(&format!("{AUDIT_JS}({words}, {keys})"));
    v.as_array()
        .expect("a list")
        .iter()
        .map(|p| p.as_str().unwrap_or("").to_string())
        .collect()
}

/// Clicks the language switch's button for `lang` (`es`, `en`) and checks that it took effect.
pub fn switch_to(b: &Browser, lang: &str) {
    b.tap(&format!(".lang-switch button[data-lang='{lang}']"));
    b.wait_until(
        &format!("document.documentElement.lang === '{lang}'"),
        std::time::Duration::from_secs(5),
        "the switch",
    );
}
