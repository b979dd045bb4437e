//! The bench node total is the regression signature: it must equal the number written in the
//! README ("bench signature: N"), so that any change to move generation, ordering, evaluation or
//! search that alters the tree is noticed and the README updated in the same commit.

#[test]
fn bench_total_matches_the_readme_signature() {
    let readme = include_str!("../README.md");
    let want: u64 = readme
        .lines()
        .find_map(|l| l.strip_prefix("bench signature: "))
        .and_then(|v| v.trim().trim_matches('`').parse().ok())
        .expect("README.md has a 'bench signature: N' line");
    let mut lines = 0;
    let (total, _) = tablero::bench::run(None, 64, |_| lines += 1).expect("bench runs");
    assert_eq!(lines, tablero::bench::SUITE.len());
    assert_eq!(
        total, want,
        "bench total changed: update README.md's 'bench signature' if the change is intended"
    );
    // Reproducible: a second run gives the same total.
    let (again, _) = tablero::bench::run(None, 64, |_| {}).expect("bench runs");
    assert_eq!(again, total);
}
