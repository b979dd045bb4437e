//! Analysis in the protocol: heuristic weights as options, MultiPV, `go searchmoves` and the
//! per-move scores of `eval`, on all four games. Sessions run in-process through
//! `protocol::run_script` (the same loop as the binary).

use tablero::games::GameKind;
use tablero::protocol::run_script;

use crate::common;

/// The `total (…)` value printed by `eval`.
fn eval_total(lines: &[String]) -> i64 {
    let l = lines
        .iter()
        .rfind(|l| l.starts_with("total ("))
        .unwrap_or_else(|| panic!("no total line in {lines:#?}"));
    l.rsplit(' ').next().unwrap().parse().unwrap()
}

/// One `info` line: depth, multipv index (1 without the token), score text, first pv move.
#[derive(Clone, Debug, PartialEq)]
struct Info {
    depth: u32,
    multipv: Option<usize>,
    score: String,
    nodes: u64,
    first: String,
}

fn parse_info(l: &str) -> Option<Info> {
    let w: Vec<&str> = l.split_whitespace().collect();
    if w.first() != Some(&"info") || w.get(1) != Some(&"depth") {
        return None;
    }
    let at = |k: &str| w.iter().position(|x| *x == k);
    let s = at("score")?;
    Some(Info {
        depth: w[2].parse().ok()?,
        multipv: at("multipv").map(|i| w[i + 1].parse().unwrap()),
        score: format!("{} {}", w[s + 1], w[s + 2]),
        nodes: w[at("nodes")? + 1].parse().ok()?,
        first: at("pv").map(|i| w[i + 1].to_string()).unwrap_or_default(),
    })
}

/// The searches of a session: each one's info lines and its bestmove.
fn searches(lines: &[String]) -> Vec<(Vec<Info>, String)> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for l in lines {
        if let Some(i) = parse_info(l) {
            cur.push(i);
        } else if let Some(m) = l.strip_prefix("bestmove ") {
            out.push((std::mem::take(&mut cur), m.to_string()));
        }
    }
    out
}

/// The lines of the last iteration of a search.
fn last_iteration(infos: &[Info]) -> Vec<Info> {
    let d = infos.iter().map(|i| i.depth).max().expect("an iteration");
    infos.iter().filter(|i| i.depth == d).cloned().collect()
}

fn score_value(s: &str) -> i64 {
    // Orders mate scores above/below every cp score, as the engine does.
    let (kind, v) = s.split_once(' ').unwrap();
    let v: i64 = v.parse().unwrap();
    match kind {
        "cp" => v,
        _ if v > 0 => 1_000_000_000 - v,
        _ => -1_000_000_000 - v,
    }
}

fn legal_moves(kind: GameKind, position: &str) -> Vec<String> {
    let out = run_script(kind, &format!("{position}\nmoves\n"));
    let l = out.iter().find(|l| l.starts_with("moves")).unwrap();
    l.split_whitespace().skip(1).map(str::to_string).collect()
}

const PARCHIS_STAR: &str = "position fen n 0 1 n4,n13,n17/n21,n30,n34/n38,n47,n51/n55,n64,n68 \
                            12456:s:- 12456:-:- ffffff - 0,0,0,0 - - -/-/-";

/// A weight changes `eval` by the amount worked out by hand from the position, as a factor of
/// the change from the weight's default (read from `uci`):
/// - Connect Four / BOOM after `4`: the first player has one stone in the centre column and
///   the second is to move, so its centre term is −centre: factor −1;
/// - Kalah(6,4) start: each side has one pit (pit 4, four seeds) ending in its store, so the
///   extra-turn term is extra_mover − extra_waiting: factor +1;
/// - Parchís start with a star in player 0's hand (player 0 to move): held items are added to
///   the player total as they are: factor +1.
#[test]
fn a_weight_changes_eval_by_the_expected_amount() {
    let cases = [
        (
            GameKind::Connect4,
            "position startpos moves 4",
            "Connect4W_centre",
            100,
            -1,
        ),
        (
            GameKind::Connect4Boom,
            "position startpos moves 4",
            "BoomW_centre",
            100,
            -1,
        ),
        (
            GameKind::Mancala,
            "position startpos",
            "MancalaW_extra_mover",
            500,
            1,
        ),
        (
            GameKind::Parchis,
            PARCHIS_STAR,
            "ParchisW_item_star",
            1000,
            1,
        ),
    ];
    for (kind, position, name, value, factor) in cases {
        let uci = run_script(kind, "uci\n");
        let default: i32 = uci
            .iter()
            .find_map(|l| l.strip_prefix(&format!("option name {name} type spin default ")))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} in {uci:#?}"));
        assert_ne!(
            default, value,
            "{name}: pick a value that changes the weight"
        );
        let delta = i64::from(factor * (value - default));
        let out = run_script(
            kind,
            &format!("{position}\neval\nsetoption name {name} value {value}\neval\n"),
        );
        assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
        let at = out.iter().position(|l| l.starts_with("total (")).unwrap();
        let (before, after) = out.split_at(at + 1);
        assert_eq!(
            eval_total(after) - eval_total(before),
            delta,
            "{name}: {out:#?}"
        );
        // `eval` shows the weights in force.
        let shown = |ls: &[String], v: i32| {
            ls.iter()
                .any(|l| l.starts_with("weights: ") && l.contains(&format!(" {name}={v}")))
                || ls
                    .iter()
                    .any(|l| l.starts_with(&format!("weights: {name}={v}")))
        };
        assert!(shown(after, value), "{name} not shown: {after:#?}");
        // Another game's weights leave this one alone; the other heuristics have none.
        let out = run_script(
            kind,
            &format!("{position}\nsetoption name Heuristic value test\neval\n"),
        );
        assert!(!out.iter().any(|l| l.starts_with("weights:")), "{out:#?}");
    }
}

#[test]
fn weights_are_listed_by_uci_and_checked() {
    let out = run_script(GameKind::Connect4, "uci\n");
    for want in [
        "option name Connect4W_centre type spin default 29 min -100000 max 100000",
        "option name BoomW_tempo type spin default 9280 min -1000000 max 1000000",
        "option name MancalaW_store type spin default 106 min -100000 max 100000",
        "option name ParchisW_goal type spin default 150 min -100000 max 100000",
        "option name MultiPV type spin default 1 min 1 max 256",
    ] {
        assert!(
            out.iter().any(|l| l == want),
            "missing '{want}' in {out:#?}"
        );
    }
    let out = run_script(
        GameKind::Connect4,
        "position startpos moves 4\neval\nsetoption name Connect4W_centre value 100001\n\
         setoption name connect4w_centre value x\neval\n",
    );
    let errors: Vec<&String> = out.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(
        errors,
        [
            "info string error: setoption Connect4W_centre: value 100001 is outside -100000..=100000",
            "info string error: setoption Connect4W_centre: value 'x' is not an integer",
        ],
        "{out:#?}"
    );
    // Rejected values change nothing.
    let totals: Vec<&String> = out.iter().filter(|l| l.starts_with("total (")).collect();
    assert_eq!(totals[0], totals[1]);
}

/// Built-in players keep their pinned strength.
#[test]
fn players_refuse_weights_and_multipv() {
    for name in ["Connect4W_centre", "MultiPV"] {
        let input = format!("setoption name {name} value 2\nisready\n");
        let sink = common::Sink::default();
        tablero::players::run(
            tablero::players::Player::Ninja2,
            GameKind::Connect4,
            std::io::Cursor::new(input.into_bytes()),
            tablero::protocol::Out::new(Box::new(sink.clone())),
        );
        let text = sink.text();
        let out: Vec<&str> = text.lines().collect();
        assert!(
            out.iter()
                .any(|l| *l == format!("info string {name} is fixed for player ninja2; ignored")),
            "{out:#?}"
        );
    }
}

/// Positions of all four games with the depth used for the exactness checks: small enough to
/// keep the test quick, deep enough for real cutoffs and table hits.
fn positions() -> Vec<(GameKind, String, u32)> {
    vec![
        (
            GameKind::Connect4,
            "position startpos moves 4 4 3".into(),
            6,
        ),
        (
            GameKind::Connect4Boom,
            "position startpos moves 4 4 4 3 5".into(),
            4,
        ),
        (GameKind::Mancala, "position startpos moves 3".into(), 6),
        (
            GameKind::Parchis,
            "position startpos moves r1:6 y1:1 b1:1".into(),
            3,
        ),
    ]
}

/// With MultiPV = every move, each move's score equals a separate `go searchmoves <move>`
/// search of that move alone at the same depth: every score is the exact minimax value of its
/// move, whatever the other root moves did to the table and the windows.
#[test]
fn multipv_scores_equal_separate_searchmoves_searches() {
    for (kind, position, depth) in positions() {
        let moves = legal_moves(kind, &position);
        assert!(moves.len() >= 3, "{position}");
        let mut script =
            format!("{position}\nsetoption name MultiPV value 256\ngo depth {depth}\n");
        script.push_str("setoption name MultiPV value 1\n");
        for m in &moves {
            script.push_str(&format!(
                "ucinewgame\n{position}\ngo depth {depth} searchmoves {m}\n"
            ));
        }
        let out = run_script(kind, &script);
        assert!(!out.iter().any(|l| l.contains("error")), "{out:#?}");
        let all = searches(&out);
        assert_eq!(all.len(), moves.len() + 1, "{out:#?}");
        let (multi, best) = &all[0];
        let last = last_iteration(multi);
        assert_eq!(
            last.len(),
            moves.len(),
            "{kind:?}: one line per move: {last:#?}"
        );
        assert_eq!(&last[0].first, best, "bestmove is the first line's move");
        for (k, l) in last.iter().enumerate() {
            assert_eq!(l.multipv, Some(k + 1));
        }
        // Every iteration's lines are sorted by score.
        for d in multi.iter().map(|i| i.depth) {
            let s: Vec<i64> = multi
                .iter()
                .filter(|i| i.depth == d)
                .map(|i| score_value(&i.score))
                .collect();
            assert!(
                s.windows(2).all(|w| w[0] >= w[1]),
                "{kind:?} depth {d}: {s:?}"
            );
        }
        for (m, (single, bm)) in moves.iter().zip(&all[1..]) {
            assert_eq!(bm, m, "searchmoves {m} plays {m}");
            let line = last
                .iter()
                .find(|l| &l.first == m)
                .expect("a line per move");
            let one = last_iteration(single);
            assert_eq!(one.len(), 1);
            assert_eq!(
                one[0].score, line.score,
                "{kind:?} {position}: move {m} alone vs its MultiPV line"
            );
        }
    }
}

/// MultiPV 1 is the plain search: same lines, nodes and bestmove as without the option, no
/// `multipv` token; with K lines the first line is the plain search's value.
#[test]
fn multipv_one_is_the_plain_search() {
    for (kind, position, depth) in positions() {
        let depth = depth + 1;
        let out = run_script(
            kind,
            &format!(
                "{position}\ngo depth {depth}\nsetoption name MultiPV value 1\ngo depth {depth}\n\
                 setoption name MultiPV value 3\ngo depth {depth}\n"
            ),
        );
        let all = searches(&out);
        assert_eq!(all.len(), 3, "{out:#?}");
        let strip = |infos: &[Info]| -> Vec<(u32, String, u64, String)> {
            infos
                .iter()
                .map(|i| (i.depth, i.score.clone(), i.nodes, i.first.clone()))
                .collect()
        };
        assert_eq!(strip(&all[0].0), strip(&all[1].0));
        assert_eq!(all[0].1, all[1].1);
        assert!(all[0].0.iter().all(|i| i.multipv.is_none()));
        let three = last_iteration(&all[2].0);
        let plain = last_iteration(&all[0].0);
        assert_eq!(three.len(), 3);
        assert_eq!(three[0].score, plain[0].score, "{kind:?}");
    }
}

#[test]
fn searchmoves_restricts_the_root_and_rejects_bad_moves() {
    for (kind, position, depth) in positions() {
        let moves = legal_moves(kind, &position);
        let pick = &moves[moves.len() - 1];
        let two = format!("{} {}", moves[0], moves[1]);
        let out = run_script(
            kind,
            &format!(
                "{position}\ngo depth {depth} searchmoves {pick}\ngo searchmoves {two} depth {depth}\n\
                 go depth 2 searchmoves {pick} nonsense\ngo searchmoves\n"
            ),
        );
        let all = searches(&out);
        assert_eq!(all.len(), 2, "{out:#?}");
        assert_eq!(&all[0].1, pick);
        assert!(all[0].0.iter().all(|i| &i.first == pick));
        assert!(two.split(' ').any(|m| m == all[1].1));
        // (The parse error is reported at once, the illegal move once the searches before it
        // have ended: any order.)
        let errors: Vec<&String> = out.iter().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 2, "{out:#?}");
        assert!(
            errors
                .iter()
                .any(|e| e
                    .starts_with("info string error: go searchmoves: move 'nonsense' (character")),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains("'searchmoves' needs at least one move")),
            "{errors:?}"
        );
    }
}

/// `eval` lists every legal move with the score of a depth-1 search of it, from the mover's
/// point of view — also where the mover moves again (Kalah extra turn: pit 4 at the start,
/// BOOM's second movement, Parchís after a 6): the same scores as `go depth 1` with MultiPV,
/// with a heuristic whose search extends no leaf (BOOM's and Mancala's `default` search sharp
/// leaves further, and `eval` stays the heuristic's value: both are checked with `seed`).
#[test]
fn eval_scores_every_move_like_a_depth_one_search() {
    let cases = [
        (GameKind::Connect4, "position startpos moves 4 4 3"),
        (
            GameKind::Connect4Boom,
            "setoption name Heuristic value seed\nposition startpos moves 4 4",
        ),
        (
            GameKind::Mancala,
            "setoption name Heuristic value seed\nposition startpos",
        ),
        (GameKind::Parchis, "position startpos moves r1:6"),
    ];
    for (kind, position) in cases {
        let moves = legal_moves(kind, position);
        let out = run_script(
            kind,
            &format!("{position}\neval\nsetoption name MultiPV value 256\ngo depth 1\n"),
        );
        let listed: Vec<(String, String)> = out
            .iter()
            .filter_map(|l| {
                let rest = l.strip_prefix("move ")?;
                let (m, s) = rest.split_once(" score ")?;
                Some((m.to_string(), s.to_string()))
            })
            .collect();
        let names: Vec<&String> = listed.iter().map(|(m, _)| m).collect();
        assert_eq!(names, moves.iter().collect::<Vec<_>>(), "{out:#?}");
        let all = searches(&out);
        let lines = last_iteration(&all[0].0);
        assert_eq!(lines.len(), moves.len());
        for (m, s) in &listed {
            let l = lines.iter().find(|l| &l.first == m).unwrap();
            assert_eq!(&l.score, s, "{kind:?} {position} move {m}");
        }
    }
}

/// The weights built from the default option values are the compiled-in defaults (so the
/// evaluation, and the bench signature, do not change until a weight is set), and every
/// default lies inside its range.
#[test]
fn default_option_values_give_the_default_weights() {
    use tablero::core::game::{Game, WeightOverrides};
    fn check<G: Game>() {
        assert!(!G::WEIGHTS.is_empty() && G::WEIGHTS.len() <= tablero::core::game::MAX_WEIGHTS);
        let defaults: Vec<i32> = G::WEIGHTS.iter().map(|w| w.default).collect();
        assert_eq!(G::weights(&defaults), G::DEFAULT_WEIGHTS, "{}", G::NAME);
        assert_eq!(WeightOverrides::default().values::<G>(), defaults);
        for w in G::WEIGHTS {
            assert!(w.min <= w.default && w.default <= w.max, "{w:?}");
        }
        // Setting a weight to its default value changes nothing either.
        let mut o = WeightOverrides::default();
        o.set(0, G::WEIGHTS[0].default);
        assert_eq!(o.resolve::<G>(), G::DEFAULT_WEIGHTS);
    }
    check::<tablero::games::connect4::Connect4>();
    check::<tablero::games::boom::Boom>();
    check::<tablero::games::mancala::Mancala>();
    check::<tablero::games::parchis::Parchis>();
}
