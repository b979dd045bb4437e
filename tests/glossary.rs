//! The glossary (docs/glossary.md) explains the words of engine testing in English and Spanish,
//! and the README links each word to its entry where it first appears.

const TERMS: &[(&str, &str)] = &[
    ("SPRT", "sprt"),
    ("LOS", "los"),
    ("pentanomial", "pentanomial"),
    ("Elo intervals", "elo-intervals"),
    ("perft", "perft"),
    ("fen", "fen"),
    ("nps", "nps"),
    ("hashfull", "hashfull"),
    ("crosstable", "crosstable"),
    ("gauntlet", "gauntlet"),
    ("Spearman's ρ", "spearmans-ρ"),
];

fn read(rel: &str) -> String {
    std::fs::read_to_string(format!("{}/{rel}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_term_has_an_entry_in_both_languages() {
    let page = read("docs/glossary.md");
    for (term, _) in TERMS {
        let at = page
            .find(&format!("\n## {term}\n"))
            .unwrap_or_else(|| panic!("no entry for {term}"));
        let entry = &page[at + 1..];
        let entry = &entry[..entry[3..].find("\n## ").map_or(entry.len(), |e| e + 3)];
        assert!(entry.contains("**EN**"), "{term}: no English");
        assert!(entry.contains("**ES**"), "{term}: no Spanish");
    }
}

#[test]
fn the_readme_links_each_term_where_it_first_appears() {
    let readme = read("README.md");
    for (term, anchor) in TERMS {
        let link = format!("(docs/glossary.md#{anchor})");
        let linked = readme
            .find(&link)
            .unwrap_or_else(|| panic!("the README does not link {term} to {link}"));
        // The first mention of the word in the README's prose (code blocks aside) is the link.
        let word = term
            .split_whitespace()
            .next()
            .unwrap_or(term)
            .trim_end_matches("'s");
        let mut in_code = false;
        let mut offset = 0;
        let mut first = None;
        for line in readme.split_inclusive('\n') {
            if line.starts_with("```") {
                in_code = !in_code;
            } else if !in_code
                && let Some(i) = line.find(word)
                && first.is_none()
            {
                first = Some(offset + i);
            }
            offset += line.len();
        }
        let first = first.unwrap_or_else(|| panic!("{word} is not in the README's prose"));
        assert!(
            first <= linked && linked - first < 80,
            "{term}: first mentioned at byte {first}, linked at byte {linked}"
        );
    }
}
