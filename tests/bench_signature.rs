//! The bench node total is the regression signature: it must equal the number written in
//! docs/commands.md ("bench signature: N"), so that any change to move generation, ordering,
//! evaluation or search that alters the tree is noticed and the page updated in the same commit
//! (its `tablero bench` example shows the same total and is checked by tests/doc_examples.rs).

#[test]
fn bench_total_matches_the_documented_signature() {
    let page = include_str!("../docs/commands.md");
    let want: u64 = page
        .lines()
        .find_map(|l| l.strip_prefix("bench signature: "))
        .and_then(|v| v.trim().trim_matches('`').parse().ok())
        .expect("docs/commands.md has a 'bench signature: N' line");
    let mut lines = 0;
    let (total, _) = tablero::bench::run(None, 64, |_| lines += 1).expect("bench runs");
    assert_eq!(lines, tablero::bench::suite().len());
    assert_eq!(
        total, want,
        "bench total changed: update docs/commands.md ('bench signature' and the bench example) if the change is intended"
    );
    // Reproducible: a second run gives the same total.
    let (again, _) = tablero::bench::run(None, 64, |_| {}).expect("bench runs");
    assert_eq!(again, total);
}
