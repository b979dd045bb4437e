//! The golden data kept in the repository (`tests/golden/`, large files as `NAME.gz`) and the
//! rules pages (`docs/rules/`) are the project's shared folder, byte for byte: when
//! `../shared/` is beside the checkout (the project's own machines), every file there has its
//! copy here, decompressed to the same bytes, and every file here has its source there. On a
//! clone anywhere else there is nothing to compare with; every golden file must still read
//! (the gzip streams are whole), which is what the other tests rely on.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every file under `dir`, as paths relative to it (sorted).
fn files(dir: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        let rd = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for e in rd {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).expect("under the root");
                out.insert(rel.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// The project's shared folder beside the checkout, if this machine has it.
fn shared() -> Option<PathBuf> {
    let s = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    s.join("golden").is_dir().then_some(s)
}

/// The name a golden file has in the shared folder (`X.gz` here is `X` there).
fn source_name(rel: &str) -> &str {
    rel.strip_suffix(".gz").unwrap_or(rel)
}

#[test]
fn every_golden_file_reads() {
    let here = files(&common::golden_dir());
    assert!(here.len() >= 20, "golden files: {here:?}");
    for rel in &here {
        let bytes = common::golden_bytes(source_name(rel));
        assert!(!bytes.is_empty(), "{rel} is empty");
    }
    // The ones the tests read most are there, in one form or the other.
    for rel in [
        "parchis/traces.jsonl",
        "parchis/playground_traces.jsonl",
        "parchis/perft.md",
        "boom/core_traces.jsonl",
        "mancala/core_traces.jsonl",
        "enraya/core_traces.jsonl",
        "kalah/kalah64_positions.txt",
        "connect4/Test_L2_R1",
    ] {
        assert!(
            here.contains(rel) || here.contains(&format!("{rel}.gz")),
            "tests/golden/{rel} is missing"
        );
    }
}

#[test]
fn golden_data_is_the_shared_folder_byte_for_byte() {
    let Some(shared) = shared() else {
        eprintln!(
            "no ../shared/golden beside the checkout: nothing to compare the golden data with"
        );
        return;
    };
    let theirs = files(&shared.join("golden"));
    let here = files(&common::golden_dir());
    let ours: BTreeSet<String> = here.iter().map(|r| source_name(r).to_string()).collect();
    assert_eq!(
        ours.len(),
        here.len(),
        "a file kept both plain and compressed: {here:?}"
    );
    let missing: Vec<&String> = theirs.difference(&ours).collect();
    assert!(
        missing.is_empty(),
        "in ../shared/golden, not in tests/golden: {missing:?}"
    );
    let extra: Vec<&String> = ours.difference(&theirs).collect();
    assert!(
        extra.is_empty(),
        "in tests/golden, not in ../shared/golden: {extra:?}"
    );
    for rel in &theirs {
        let want = std::fs::read(shared.join("golden").join(rel)).expect("shared file");
        let got = common::golden_bytes(rel);
        assert!(
            got == want,
            "tests/golden/{rel} differs from ../shared/golden/{rel} ({} bytes vs {})",
            got.len(),
            want.len()
        );
    }
}

#[test]
fn rules_pages_are_the_shared_folder_byte_for_byte() {
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/rules");
    let mut here = files(&docs);
    assert!(here.remove("README.md"), "docs/rules/README.md");
    let Some(shared) = shared() else {
        eprintln!("no ../shared/rules beside the checkout: nothing to compare the rules with");
        return;
    };
    let theirs = files(&shared.join("rules"));
    assert_eq!(here, theirs, "docs/rules against ../shared/rules");
    for rel in &theirs {
        let want = std::fs::read(shared.join("rules").join(rel)).expect("shared file");
        let got = std::fs::read(docs.join(rel)).expect("rules page");
        assert!(
            got == want,
            "docs/rules/{rel} differs from ../shared/rules/{rel}"
        );
    }
}
