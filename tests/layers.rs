//! The layers of the house (docs/architecture.md), checked on the source: every module of
//! `src/` may use only the modules of lower layers (and itself), never one beside or above it.
//! A `use crate::cli` in the referee, a protocol that calls the referee, or two front ends that
//! call each other fail here, naming the file and line. The table is docs/architecture.md's,
//! which says that this test is how the layers are checked.

use std::path::{Path, PathBuf};

/// The modules of `src/`, lowest layer first; modules on one line share a layer and may not use
/// each other.
const LAYERS: &[&[&str]] = &[
    &["core"],
    &["games", "i18n"],
    &["solver", "view", "bench"],
    &["engine"],
    &["protocol"],
    &["players"],
    &["mancala_bot"],
    &["referee"],
    &["review"],
    &["gui", "report", "tune", "learn"],
    &["class"],
    &["front"],
    &["main"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module a file of `src/` belongs to: its first path component (`referee` for
/// `src/referee/runner.rs`, `players` for `src/players.rs`); `None` for `lib.rs`.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    match first.strip_suffix(".rs") {
        Some("lib") => None,
        Some(m) => Some(m.to_string()),
        None => Some(first),
    }
}

/// The code of a line without its comment (a `//` outside a string literal).
fn code(line: &str) -> &str {
    let mut in_str = false;
    let b = line.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'"' if i == 0 || b[i - 1] != b'\\' => in_str = !in_str,
            b'/' if !in_str && b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// The crate's top-level modules a line of code names: `crate::X…`, `crate::{X, Y…}` (and
/// `tablero::X` in the binary).
fn named_modules(line: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find(prefix) {
        // Not the tail of another path (`foo_crate::`).
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of a group: the first word of each comma-separated item at
            // depth 0 (`crate::{a, b::c, d::{e, f}}` names a, b and d).
            let mut depth = 0;
            let mut word = String::new();
            let mut expect_name = true;
            let mut flush = |word: &mut String, expect_name: &mut bool| {
                if !word.is_empty() {
                    out.push(std::mem::take(word));
                    *expect_name = false;
                }
            };
            for c in group.chars() {
                match c {
                    '{' => {
                        flush(&mut word, &mut expect_name);
                        depth += 1;
                    }
                    '}' if depth == 0 => {
                        flush(&mut word, &mut expect_name);
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        flush(&mut word, &mut expect_name);
                        expect_name = true;
                    }
                    c if c.is_alphanumeric() || c == '_' => {
                        if depth == 0 && expect_name {
                            word.push(c);
                        }
                    }
                    _ => flush(&mut word, &mut expect_name),
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut seen_modules = std::collections::BTreeSet::new();
    let mut wrong = Vec::new();
    for f in &files {
        let Some(module) = module_of(&src, f) else {
            continue;
        };
        seen_modules.insert(module.clone());
        let Some(mine) = layer(&module) else {
            wrong.push(format!(
                "{}: module '{module}' is in no layer of tests/layers.rs (add it where it belongs)",
                f.display()
            ));
            continue;
        };
        let prefix = if module == "main" {
            "tablero::"
        } else {
            "crate::"
        };
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            for used in named_modules(code(line), prefix) {
                if used == module || matches!(used.as_str(), "self" | "super") {
                    continue;
                }
                let Some(theirs) = layer(&used) else {
                    continue;
                };
                if theirs >= mine {
                    wrong.push(format!(
                        "{}:{}: {module} (layer {mine}) uses {used} (layer {theirs}): `{}`",
                        f.display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
    // Every module of the table exists (a renamed module must be renamed here too).
    for m in LAYERS.iter().flat_map(|l| l.iter()) {
        assert!(seen_modules.contains(*m), "no module '{m}' in src/");
    }
}

#[test]
fn the_scanner_reads_paths_and_groups() {
    assert_eq!(
        named_modules("use crate::referee::{self, Notice};", "crate::"),
        ["referee"]
    );
    assert_eq!(
        named_modules(
            "use crate::{cli, games::GameKind, core::{spec, rng}};",
            "crate::"
        ),
        ["cli", "games", "core"]
    );
    assert_eq!(
        named_modules(
            "let x = crate::core::spec::clip(a) + foo_crate::x;",
            "crate::"
        ),
        ["core"]
    );
    assert_eq!(
        code("let s = \"a // b\"; // crate::cli"),
        "let s = \"a // b\"; "
    );
}

/// docs/architecture.md says how the layers are checked with the project's own means (this
/// test), and no page or source names a drawing tool that is not part of the project or its
/// toolchain (a reader could not run it).
#[test]
fn the_architecture_page_names_the_check_a_reader_can_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/architecture.md")).expect("the page");
    assert!(
        page.lines()
            .take(10)
            .any(|l| l.contains("`cargo test --test all layers::`")),
        "docs/architecture.md names its check at the top"
    );
    let mut files = vec![root.join("README.md"), root.join("tests/layers.rs")];
    rust_files(&root.join("src"), &mut files);
    for f in std::fs::read_dir(root.join("docs"))
        .expect("docs")
        .flatten()
    {
        files.push(f.path());
    }
    for f in files.iter().filter(|f| f.is_file()) {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        // Spelt in two pieces so that this file does not name it either.
        let tool = ["farm", "-studio"].concat();
        assert!(!text.contains(&tool), "{} names {tool}", f.display());
    }
}
