//! Reviewing one recorded game: replay it with the rules (a record that breaks them is refused
//! with its ply), value every position, judge every engine move.
//!
//! For move `k` (from position `P_k` to `P_{k+1}`, by the side to move in `P_k`):
//! - where a solver proves `P_k`, its value and optimal move are the position's value and best
//!   move; otherwise a search gives them;
//! - the value of the move played is the proven value of `P_{k+1}` when there is one (seen from
//!   the mover: one ply earlier, and flipped when the other side moves next), the best move's
//!   value when it was played, else a search of `P_k` restricted to the move played
//!   (`searchmoves`: the same depth from the same root, so it is never above the best value);
//! - a move that turns out at least as good as the "best" one becomes the best move;
//! - the only legal move is not judged (`forced`): its values are those of the position after it.
//!
//! Proofs are tried from the end of the game backwards and stop at the first position the
//! budget does not prove (earlier positions hold more stones or seeds and would fail too).

use super::analyst::{Analyst, AnalystError};
use super::annotation::{GameReview, PlyReview};
use super::judge::{Calibration, Verdict};
use super::value::{Value, Wdl};
use crate::core::game::{FenError, Game, MoveError, Outcome, Side};
use crate::referee::GameRecord;
use crate::referee::game::Reason;

/// Why a record does not replay with the rules. Plies are 1-based, the opening's moves included.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The record's `fen …` start is not a position of these rules.
    #[error("opening state string: {0}")]
    Start(FenError),
    /// The record names a start the game does not have.
    #[error("unknown opening start '{0}'")]
    UnknownStart(String),
    /// A move the rules refuse (its text clipped).
    #[error("ply {ply} (move '{text}'): {why}")]
    Move {
        ply: usize,
        text: String,
        why: MoveError,
    },
    /// A normal end whose result is not the rules' one.
    #[error("the record says {recorded} but the rules give {rules} after ply {plies}")]
    OtherResult {
        recorded: &'static str,
        rules: &'static str,
        plies: usize,
    },
    /// A normal end the rules have not reached.
    #[error(
        "the record says the game ended normally ({recorded}) but the rules have not ended it after ply {plies}"
    )]
    NotOver {
        recorded: &'static str,
        plies: usize,
    },
    /// An end by time, crash, … in a game the rules had already ended.
    #[error(
        "the record says the game ended by {reason} but the rules ended it ({rules}) at ply {plies}"
    )]
    OverByRules {
        reason: &'static str,
        rules: &'static str,
        plies: usize,
    },
}

/// Why a game was not reviewed.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The record breaks the rules (an illegal move, another result): skipped.
    #[error("{0}")]
    Record(ReplayError),
    /// The analysing engine failed at `ply` (1-based, the opening's moves included): the review
    /// cannot go on.
    #[error("ply {ply}: {error}")]
    Engine { ply: usize, error: AnalystError },
}

/// The positions of a recorded game, replayed with the rules.
pub struct Replayed<G: Game> {
    /// `states[k]` is the position before engine move `k`; the last is the final position.
    pub states: Vec<G>,
    pub moves: Vec<G::Move>,
    /// Moves of the opening (played before `states[0]`).
    pub opening: Vec<String>,
    /// `startpos` or `fen …`.
    pub base: String,
}

/// The start position a record names: `startpos`, `fen <state>` or a named start.
pub fn start_of<G: Game>(base: &str, cfg: &G::Config) -> Result<G, ReplayError> {
    if base == "startpos" {
        return Ok(G::start(cfg));
    }
    if let Some(f) = base.strip_prefix("fen ") {
        return G::parse_fen(f, cfg).map_err(ReplayError::Start);
    }
    G::named_start(base, cfg).ok_or_else(|| ReplayError::UnknownStart(base.to_string()))
}

/// Replays `rec` with the rules: every move legal, and the recorded result the rules' one (a
/// normal end is the rules' result; any other end leaves a game the rules did not finish).
/// Errors name the ply (1-based, the opening's moves included).
pub fn replay<G: Game>(rec: &GameRecord, cfg: &G::Config) -> Result<Replayed<G>, ReplayError> {
    let mut s = start_of::<G>(&rec.opening_base, cfg)?;
    let texts = rec
        .opening_moves
        .iter()
        .chain(rec.outcome.moves.iter().map(|m| &m.mv));
    let book = rec.opening_moves.len();
    let mut states = Vec::with_capacity(rec.outcome.moves.len() + 1);
    let mut moves = Vec::with_capacity(rec.outcome.moves.len());
    for (i, text) in texts.enumerate() {
        if i >= book {
            states.push(s);
        }
        let m = if s.outcome().is_some() {
            Err(MoveError::Over("the game is already over".into()))
        } else {
            s.parse_move(text)
        }
        .map_err(|why| ReplayError::Move {
            ply: i + 1,
            text: crate::core::spec::clip(text),
            why,
        })?;
        if i >= book {
            moves.push(m);
        }
        s = s.apply(m);
    }
    states.push(s);
    let plies = book + moves.len();
    let recorded = rec.result();
    let rules = s.outcome().map(Outcome::result_text);
    match (rec.outcome.reason, rules) {
        (Reason::Normal, Some(r)) if r == recorded => {}
        (Reason::Normal, Some(rules)) => {
            return Err(ReplayError::OtherResult {
                recorded,
                rules,
                plies,
            });
        }
        (Reason::Normal, None) => return Err(ReplayError::NotOver { recorded, plies }),
        (r, Some(rules)) => {
            return Err(ReplayError::OverByRules {
                reason: r.name(),
                rules,
                plies,
            });
        }
        (_, None) => {}
    }
    Ok(Replayed {
        states,
        moves,
        opening: rec.opening_moves.clone(),
        base: rec.opening_base.clone(),
    })
}

/// The value of a finished game for `side`.
fn terminal(o: Outcome, side: Side) -> Value {
    let wdl = match o {
        Outcome::Draw => Wdl::Draw,
        Outcome::Win(w) if w == side => Wdl::Win,
        Outcome::Win(_) => Wdl::Loss,
    };
    Value::Exact {
        wdl,
        plies: Some(0),
    }
}

/// `v`, the value of the position after a move for its side to move `next`, seen by `mover`
/// before the move.
fn before(v: Value, next: Side, mover: Side) -> Value {
    let v = if next == mover { v } else { v.flip() };
    v.earlier()
}

/// A move's values before the judgement: (value, best move, played value, depth).
type Judged<M> = (Value, M, Value, Option<u32>);

/// Reviews a replayed game with `analyst`. `names` are the first and second player's.
pub fn review<G: Game>(
    g: &Replayed<G>,
    analyst: &mut dyn Analyst<G>,
    cal: &Calibration,
    names: [&str; 2],
) -> Result<GameReview, GameError> {
    let n = g.moves.len();
    let book = g.opening.len();
    let engine_err = |k: usize| {
        move |error: AnalystError| GameError::Engine {
            ply: book + k + 1,
            error,
        }
    };
    analyst.new_game().map_err(engine_err(0))?;
    // Proofs, from the end backwards.
    let mut proof: Vec<Option<(Value, Option<G::Move>)>> = vec![None; n + 1];
    for k in (0..=n).rev() {
        let s = &g.states[k];
        if let Some(o) = s.outcome() {
            proof[k] = Some((terminal(o, s.side_to_move()), None));
            continue;
        }
        match analyst.prove(s) {
            Some((v, m)) => proof[k] = Some((v, Some(m))),
            None => break,
        }
    }
    // The position lines for a protocol engine.
    let base = format!("position {}", g.base);
    let mut texts: Vec<String> = g.opening.clone();
    let mut lines = Vec::with_capacity(n);
    for k in 0..n {
        lines.push(if texts.is_empty() {
            base.clone()
        } else {
            format!("{base} moves {}", texts.join(" "))
        });
        texts.push(g.states[k].format_move(g.moves[k]));
    }
    // Per move: the value, the best move, the played move's value and the depth.
    let mut raw: Vec<Option<Judged<G::Move>>> = vec![None; n];
    let mut forced = vec![false; n];
    for k in 0..n {
        let s = &g.states[k];
        let mover = s.side_to_move();
        let played = g.moves[k];
        let next = &g.states[k + 1];
        let mut legal = G::Moves::default();
        s.legal_moves(&mut legal);
        let from_next = proof[k + 1].map(|(v, _)| before(v, next.side_to_move(), mover));
        if legal.as_ref().len() == 1 {
            forced[k] = true;
            if let Some(v) = from_next {
                raw[k] = Some((v, played, v, None));
            }
            // Otherwise filled from the next move's values below (or searched).
            continue;
        }
        let (value, best, depth) = match proof[k] {
            Some((v, Some(b))) => (v, b, None),
            _ => {
                let f = analyst.search(s, &lines[k], None).map_err(engine_err(k))?;
                (f.value, f.best, f.depth)
            }
        };
        let (pv, pdepth) = if played == best {
            (value, depth)
        } else if let Some(v) = from_next {
            (v, None)
        } else {
            let f = analyst
                .search(s, &lines[k], Some(played))
                .map_err(engine_err(k))?;
            (f.value, f.depth)
        };
        let e = |v| cal.curve.expected(v);
        raw[k] = Some(if e(pv) > e(value) {
            (pv, played, pv, pdepth)
        } else {
            (value, best, pv, depth.or(pdepth))
        });
    }
    // Forced moves without a proof: the values of the position after them, from the next
    // move's (backwards, so runs of forced moves chain), or a search at the end of a game the
    // rules did not finish.
    let mut judged: Vec<Judged<G::Move>> = Vec::with_capacity(n);
    for k in (0..n).rev() {
        let j = match raw[k] {
            Some(j) => j,
            None => {
                let s = &g.states[k];
                let next = &g.states[k + 1];
                let v = match judged.last() {
                    Some((v, _, _, _)) => before(*v, next.side_to_move(), s.side_to_move()),
                    None => {
                        analyst
                            .search(s, &lines[k], None)
                            .map_err(engine_err(k))?
                            .value
                    }
                };
                (v, g.moves[k], v, None)
            }
        };
        judged.push(j);
    }
    judged.reverse();
    let mut plies = Vec::with_capacity(n);
    let mut movers = Vec::with_capacity(n);
    for (k, &(value, best, played, depth)) in judged.iter().enumerate() {
        let s = &g.states[k];
        let (e, ep) = (cal.curve.expected(value), cal.curve.expected(played));
        let loss = if forced[k] { 0.0 } else { (e - ep).max(0.0) };
        plies.push(PlyReview {
            value,
            best: s.format_move(best),
            played,
            expected: e,
            expected_played: ep,
            loss,
            mark: if forced[k] {
                None
            } else {
                cal.thresholds.mark(loss)
            },
            verdict: if forced[k] {
                None
            } else {
                Verdict::of(value, played)
            },
            forced: forced[k],
            depth,
            turn: None,
        });
        movers.push(s.side_to_move());
    }
    Ok(GameReview::new(plies, &movers, names, cal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::spec::default_config;
    use crate::games::connect4::Connect4;
    use serde_json::json;

    /// A Connect Four record from `base`, `opening` and `moves` (texts), won by `winner` (1, 2
    /// or none) for `reason`.
    fn record(
        base: &str,
        opening: &[&str],
        moves: &[&str],
        winner: Option<u64>,
        reason: &str,
    ) -> GameRecord {
        let moves: Vec<_> = moves.iter().map(|m| json!({"move": m, "ms": 1})).collect();
        let line = json!({
            "game": 0, "first_engine": 1, "opening": {"base": base, "moves": opening},
            "winner": winner, "reason": reason, "detail": "", "moves": moves,
        });
        GameRecord::from_json(&line).unwrap()
    }

    #[test]
    fn a_record_the_rules_refuse_is_told_apart_by_kind() {
        let cfg = default_config::<Connect4>().unwrap();
        let fails = |r: &GameRecord| replay::<Connect4>(r, &cfg).map(|_| ()).unwrap_err();
        // x wins with 4 in column 1 at ply 7.
        let won = ["1", "2", "1", "2", "1", "2", "1"];
        assert!(
            replay::<Connect4>(&record("startpos", &[], &won, Some(1), "normal"), &cfg).is_ok()
        );
        let cases = [
            (
                record("startpos", &["4"], &["8"], None, "normal"),
                "ply 2 (move '8'): column 8 is not in 1..7",
            ),
            (
                record("startpos", &[], &won, Some(2), "normal"),
                "the record says 0-1 but the rules give 1-0 after ply 7",
            ),
            (
                record("startpos", &[], &won[..6], Some(1), "normal"),
                "the record says the game ended normally (1-0) but the rules have not ended it after ply 6",
            ),
            (
                record("startpos", &[], &won, Some(1), "time"),
                "the record says the game ended by time but the rules ended it (1-0) at ply 7",
            ),
            (
                record("middle", &[], &["4"], None, "crash"),
                "unknown opening start 'middle'",
            ),
        ];
        for (r, want) in &cases {
            assert_eq!(fails(r).to_string(), *want);
        }
        let mut after = won.to_vec();
        after.push("3");
        let e = fails(&record("startpos", &[], &after, Some(1), "normal"));
        assert!(matches!(e, ReplayError::Move { ply: 8, .. }), "{e}");
        let e = fails(&record("fen nonsense", &[], &[], None, "crash"));
        assert!(matches!(e, ReplayError::Start(_)), "{e}");
        assert!(e.to_string().starts_with("opening state string: "), "{e}");
    }
}
