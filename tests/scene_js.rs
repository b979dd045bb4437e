//! The page and `tablero render` draw the same picture: for a position of every game, the
//! elements `scene.js` builds in a real Chromium from the scene JSON (what the report and the
//! browser board receive) equal, element by element and attribute by attribute, the elements of
//! the SVG that `view::svg` writes for the same scene.

use crate::browser;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use tablero::games::GameKind;
use tablero::view::render::{DrawVisitor, dispatch};
use tablero::view::{Draw, svg};

/// An element: tag, attributes, own text, title text.
type Element = (String, BTreeMap<String, String>, String, String);

/// The board and marks (as JSON) and the SVG document of the position after `moves`.
struct Scenes<'a>(&'a [&'a str]);

impl DrawVisitor for Scenes<'_> {
    type Output = (Value, Value, String);
    fn visit<G: Draw>(self) -> Self::Output {
        let cfg = tablero::core::spec::default_config::<G>().unwrap();
        let mut s = G::start(&cfg);
        let mut last = None;
        for t in self.0 {
            let m = s.parse_move(t).unwrap();
            last = Some((s, m));
            s = s.apply(m);
        }
        let last = last.as_ref().map(|(p, m)| (p, *m));
        let board = s.board();
        let marks = s.marks(last);
        let doc = svg::document(&tablero::view::picture(&s, last), 800, "t");
        (
            serde_json::to_value(&board).unwrap(),
            serde_json::to_value(&marks).unwrap(),
            doc,
        )
    }
}

fn rust_elements(doc: &str) -> Vec<Element> {
    let doc = roxmltree::Document::parse(doc).unwrap();
    doc.root_element()
        .children()
        .filter(|n| n.is_element() && n.tag_name().name() != "title")
        .map(|n| {
            let attrs = n
                .attributes()
                .map(|a| (a.name().to_string(), a.value().to_string()))
                .collect();
            let title = n
                .children()
                .find(|c| c.tag_name().name() == "title")
                .and_then(|c| c.text())
                .unwrap_or("")
                .to_string();
            let own: String = n
                .children()
                .filter(|c| c.is_text())
                .filter_map(|c| c.text())
                .collect();
            (n.tag_name().name().to_string(), attrs, own, title)
        })
        .collect()
}

const COLLECT: &str = r#"(() => {
  const out = [];
  for (const layer of [view.boardLayer, view.markLayer]) {
    for (const e of layer.children) {
      const attrs = {};
      for (const a of e.attributes) attrs[a.name] = a.value;
      let own = "", title = "";
      for (const c of e.childNodes) {
        if (c.nodeType === 3) own += c.textContent;
        else if (c.nodeName === "title") title = c.textContent;
      }
      out.push([e.nodeName, attrs, own, title]);
    }
  }
  return out;
})()"#;

/// Numbers may differ in the last printed digit (f32 in Rust, f64 in the page).
fn same_value(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let nums = |s: &str| -> Option<Vec<f64>> {
        s.split([' ', ','])
            .filter(|w| !w.is_empty())
            .map(|w| w.parse::<f64>().ok())
            .collect()
    };
    match (nums(a), nums(b)) {
        (Some(x), Some(y)) => {
            x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| (p - q).abs() <= 0.011)
        }
        _ => false,
    }
}

#[test]
fn scene_js_builds_the_same_elements_as_the_svg_writer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let list = std::fs::read_to_string(root.join("scripts/pictures/positions.txt")).unwrap();
    let dir = std::env::temp_dir().join(format!("tablero-scenejs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.html");
    let js = std::fs::read_to_string(root.join("src/view/scene.js")).unwrap();
    std::fs::write(
        &page,
        format!("<!doctype html><html><body><div id=b></div><script>{js}</script></body></html>"),
    )
    .unwrap();
    let b = browser::Browser::launch();
    b.goto(&format!("file://{}", page.display()));
    let mut games = 0;
    for line in list
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        let kind = GameKind::from_name(words[0]).unwrap();
        // The position before the last move, and after it (with its highlight).
        // The position before the last move on a fresh view, then the last move on the same
        // view, which only redraws the marks that changed (as the report steps plies).
        for cut in [words.len() - 1, words.len()] {
            let (board, marks, doc) = dispatch(kind, Scenes(&words[2..cut]));
            let fresh = if cut < words.len() {
                "document.getElementById('b').replaceChildren(); \
                 window.view = new TableroScene.View(document.getElementById('b'));"
            } else {
                ""
            };
            let script = format!(
                "(() => {{ {fresh} view.setBoard({board}); view.setMarks({marks}); \
                 return {COLLECT}; }})()"
            );
            let page_elements: Vec<Element> = serde_json::from_value(b.eval(&script)).unwrap();
            let rust = rust_elements(&doc);
            assert_eq!(page_elements.len(), rust.len(), "{line}: element count");
            for (k, (p, r)) in page_elements.iter().zip(&rust).enumerate() {
                let what = format!("{} element {k}: page {p:?} vs svg {r:?}", words[0]);
                assert_eq!(p.0, r.0, "{what}");
                assert_eq!(p.2, r.2, "{what}");
                assert_eq!(p.3, r.3, "{what}");
                assert_eq!(
                    p.1.keys().collect::<Vec<_>>(),
                    r.1.keys().collect::<Vec<_>>(),
                    "{what}"
                );
                for (name, value) in &p.1 {
                    assert!(same_value(value, &r.1[name]), "{what}: attribute {name}");
                }
            }
        }
        games += 1;
    }
    assert_eq!(games, GameKind::ALL.len(), "one picture position per game");
    let _ = std::fs::remove_dir_all(&dir);
}
