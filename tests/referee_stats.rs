//! The match statistics against values computed independently: by hand from the textbook
//! formulas written out here (not through the library's helpers) and, as literals, from a
//! separate Python computation of the same formulas.

use tablero::referee::stats::{Sprt, SprtDecision, los_wl, pentanomial, trinomial};

fn elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

#[test]
fn pentanomial_sixty_percent() {
    // 100 pairs: 10 lost both, 10 scored ½, 30 scored 1, 30 scored 1½, 20 won both.
    let e = pentanomial([10, 10, 30, 30, 20]).unwrap();
    // Mean pair score per game: (0·10 + ¼·10 + ½·30 + ¾·30 + 1·20)/100 = 0.6.
    assert!((e.score - 0.6).abs() < 1e-12);
    // Variance per pair: (10·0.36 + 10·0.1225 + 30·0.01 + 30·0.0225 + 20·0.16)/100 = 0.09;
    // standard error sqrt(0.09/100) = 0.03.
    assert!((e.stderr - 0.03).abs() < 1e-12);
    let z = 1.959_963_984_540_054;
    let hand = (elo(0.6 + z * 0.03) - elo(0.6 - z * 0.03)) / 2.0;
    assert!((e.elo - 70.436_503_622_272_47).abs() < 1e-9, "{e:?}");
    assert!((e.error - hand).abs() < 1e-9);
    assert!((e.error - 42.801_242_398_386_66).abs() < 1e-9, "{e:?}");
    // LOS = Φ((0.6 − 0.5)/0.03).
    assert!((e.los - 0.999_570_939_666_803).abs() < 1e-6, "{e:?}");
}

#[test]
fn trinomial_sixty_percent() {
    // 50 wins, 20 draws, 30 losses: score 0.6, per-game variance
    // (50·0.16 + 20·0.01 + 30·0.36)/100 = 0.19.
    let e = trinomial(50, 20, 30).unwrap();
    assert!((e.score - 0.6).abs() < 1e-12);
    assert!((e.stderr - (0.19f64 / 100.0).sqrt()).abs() < 1e-12);
    assert!((e.elo - 70.436_503_622_272_47).abs() < 1e-9);
    assert!((e.error - 62.587_729_948_906_755).abs() < 1e-9, "{e:?}");
    // The pentanomial interval of the same score is narrower here: pairs are correlated.
    assert!(pentanomial([10, 10, 30, 30, 20]).unwrap().error < e.error);
}

#[test]
fn even_and_one_sided_scores() {
    let e = trinomial(30, 40, 30).unwrap();
    assert!(e.elo.abs() < 1e-12);
    assert!((e.los - 0.5).abs() < 1e-9);
    let e = pentanomial([0, 0, 0, 0, 7]).unwrap();
    assert!(e.elo.is_infinite() && e.elo > 0.0);
    assert!((e.los - 1.0).abs() < 1e-12);
}

#[test]
fn los_from_wins_and_losses() {
    // ½·(1 + erf(20/√160)).
    assert!((los_wl(50, 30) - 0.987_326_340_661_261_2).abs() < 1e-6);
    assert!((los_wl(10, 10) - 0.5).abs() < 1e-12);
    assert!((los_wl(0, 0) - 0.5).abs() < 1e-12);
}

#[test]
fn sprt_llr_by_hand() {
    let s = Sprt::parse(&["elo0=0".into(), "elo1=10".into()]).unwrap();
    let e = pentanomial([10, 10, 30, 30, 20]).unwrap();
    // s0 = 0.5, s1 = 1/(1 + 10^(−10/400)); LLR = (s1 − s0)(2·0.6 − s0 − s1)/(2·0.03²).
    let s0 = 0.5;
    let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
    let hand = (s1 - s0) * (1.2 - s0 - s1) / (2.0 * 0.0009);
    assert!((s.llr(&e) - hand).abs() < 1e-9);
    assert!((s.llr(&e) - 1.483_580_980_540_765_4).abs() < 1e-9);
    assert_eq!(s.decide(s.llr(&e)), SprtDecision::Continue);
    assert_eq!(s.decide(3.0), SprtDecision::H1);
    assert_eq!(s.decide(-3.0), SprtDecision::H0);
    // Four times the pairs with the same distribution quadruple the LLR: H1.
    let e4 = pentanomial([40, 40, 120, 120, 80]).unwrap();
    assert!((s.llr(&e4) - 4.0 * hand).abs() < 1e-9);
    assert_eq!(s.decide(s.llr(&e4)), SprtDecision::H1);
}

#[test]
fn gsprt_matches_an_independent_newton_solution() {
    // Reference values from a separate Python implementation of fishtest's GSPRT that finds the
    // constrained maximum-likelihood distributions by Newton's method (the library bisects).
    let s = Sprt::parse(&["elo0=0 elo1=10".into()]).unwrap();
    assert!((s.llr_pairs([10, 10, 30, 30, 20]) - 1.284_889_594_576_845_5).abs() < 1e-9);
    assert!((s.llr_wdl(50, 20, 30) - 0.668_366_561_026_657_1).abs() < 1e-9);
    let s = Sprt::parse(&["elo0=-5 elo1=5 alpha=0.05 beta=0.05".into()]).unwrap();
    assert!((s.llr_pairs([3, 40, 100, 45, 2]) - 0.310_675_629_876_932_6).abs() < 1e-9);
    // With many games the exact LLR and its normal approximation agree closely.
    let big = [1000, 4000, 10000, 4200, 1100];
    let approx = s.llr(&pentanomial(big).unwrap());
    assert!(
        (s.llr_pairs(big) - approx).abs() < 0.02 * approx.abs(),
        "{approx}"
    );
    // One-sided results: unseen outcomes count as 0.001 games (fishtest's regularisation), so
    // a match won pair after pair still decides.
    assert!((s.llr_pairs([0, 0, 0, 0, 9]) - 0.259_098_359_872_106_17).abs() < 1e-9);
    let wide = Sprt::parse(&["elo0=0 elo1=50".into()]).unwrap();
    assert!((wide.llr_pairs([0, 0, 0, 0, 30]) - 4.008_001_883_929_138).abs() < 1e-9);
    assert_eq!(
        wide.decide(wide.llr_pairs([0, 0, 0, 0, 30])),
        SprtDecision::H1
    );
    assert_eq!(s.llr_pairs([0; 5]), 0.0);
}
