//! What a review adds to a game: per move ([`PlyReview`]) the position's value, the best move,
//! the value of the move played, the loss and the mark, per turn of several moves the same for
//! the turn, and per player ([`PlayerStats`]) the accuracy, the mean loss and the count of each
//! mark. Their JSON form is the optional `review` field of a move and of a game line in a
//! records file (docs/review.md, "The annotated records").

use serde_json::{Value as Json, json};

use super::judge::{Calibration, Mark, Verdict, game_accuracy};
use super::value::Value;
use crate::core::game::Side;

/// A turn of several moves by one side (BOOM's two movements, Kalah's extra turns, Parchís'
/// bonus moves), judged as a whole: from the value before its first move to the value of its
/// last move.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnReview {
    /// Moves in the turn.
    pub plies: usize,
    pub loss: f64,
    pub mark: Option<Mark>,
}

/// One judged move.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// The position's value for the side to move (the best move's value).
    pub value: Value,
    /// The best move (notation).
    pub best: String,
    /// The value of the move played, for the same side.
    pub played: Value,
    /// Expected scores of `value` and `played` (0..1).
    pub expected: f64,
    pub expected_played: f64,
    /// `expected − expected_played`, at least 0.
    pub loss: f64,
    pub mark: Option<Mark>,
    /// Both values proven and the result worse (a won position drawn or lost, …).
    pub verdict: Option<Verdict>,
    /// The only legal move: not judged, not counted.
    pub forced: bool,
    /// Depth of the search behind the values (`None`: a solver, a finished game or a forced
    /// move).
    pub depth: Option<u32>,
    /// On the last move of a turn of several moves: the turn's judgement.
    pub turn: Option<TurnReview>,
}

/// Rounds to 4 decimals (the JSON keeps what matters, in a stable text form).
pub fn r4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn mark_json(m: Option<Mark>) -> Json {
    m.map_or(Json::Null, |m| json!(m.symbol()))
}

impl PlyReview {
    pub fn to_json(&self) -> Json {
        let mut v = json!({
            "value": self.value.to_string(),
            "best": self.best,
            "played": self.played.to_string(),
            "es": [r4(self.expected), r4(self.expected_played)],
            "loss": r4(self.loss),
        });
        if let Some(m) = self.mark {
            v["mark"] = json!(m.symbol());
        }
        if let Some(x) = self.verdict {
            v["verdict"] = json!(x.name());
        }
        if self.forced {
            v["forced"] = json!(true);
        }
        if let Some(d) = self.depth {
            v["depth"] = json!(d);
        }
        if let Some(t) = &self.turn {
            v["turn"] = json!({"plies": t.plies, "loss": r4(t.loss), "mark": mark_json(t.mark)});
        }
        v
    }

    /// Reads the `review` field of a move back (`None` when it is not one).
    pub fn from_json(v: &Json) -> Option<PlyReview> {
        let val = |k: &str| v.get(k)?.as_str().and_then(|s| Value::parse(s).ok());
        let es = v.get("es")?.as_array()?;
        let mark = |x: Option<&Json>| -> Option<Option<Mark>> {
            match x {
                None | Some(Json::Null) => Some(None),
                Some(s) => Some(Some(Mark::from_symbol(s.as_str()?)?)),
            }
        };
        let turn = match v.get("turn") {
            None | Some(Json::Null) => None,
            Some(t) => Some(TurnReview {
                plies: t.get("plies")?.as_u64()? as usize,
                loss: t.get("loss")?.as_f64()?,
                mark: mark(t.get("mark"))?,
            }),
        };
        Some(PlyReview {
            value: val("value")?,
            best: v.get("best")?.as_str()?.to_string(),
            played: val("played")?,
            expected: es.first()?.as_f64()?,
            expected_played: es.get(1)?.as_f64()?,
            loss: v.get("loss")?.as_f64()?,
            mark: mark(v.get("mark"))?,
            verdict: match v.get("verdict") {
                None | Some(Json::Null) => None,
                Some(s) => Some(Verdict::from_name(s.as_str()?)?),
            },
            forced: v.get("forced").and_then(Json::as_bool).unwrap_or(false),
            depth: v.get("depth").and_then(Json::as_u64).map(|d| d as u32),
            turn,
        })
    }
}

/// One player's figures in one game (or, summed, over many).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStats {
    pub name: String,
    /// Judged moves (forced moves are not).
    pub moves: usize,
    /// Game accuracy, 0..100 (`None` without a judged move).
    pub accuracy: Option<f64>,
    /// Sum of the judged moves' losses (expected score, 0..1 each).
    pub loss_sum: f64,
    /// Inaccuracies, mistakes, blunders among the moves.
    pub marks: [usize; 3],
    /// The same for turns of several moves.
    pub turn_marks: [usize; 3],
    /// Judged moves made from a position whose value the review proved (won, drawn or lost).
    pub proven: usize,
    /// Of those, the moves that threw the value away: a won position drawn or lost, a drawn
    /// one lost (the review's `verdict`).
    pub value_lost: usize,
    /// Were `proven` and `value_lost` counted? Not in reviews written before tablero counted
    /// them: their tables say `-`, never a 0 that was not measured.
    pub counted: bool,
}

impl PlayerStats {
    pub fn new(name: &str) -> PlayerStats {
        PlayerStats {
            name: name.to_string(),
            moves: 0,
            accuracy: None,
            loss_sum: 0.0,
            marks: [0; 3],
            turn_marks: [0; 3],
            proven: 0,
            value_lost: 0,
            counted: true,
        }
    }

    /// Mean loss per judged move in percentage points of expected score.
    pub fn mean_loss(&self) -> Option<f64> {
        (self.moves > 0).then(|| 100.0 * self.loss_sum / self.moves as f64)
    }

    pub fn to_json(&self, seat: Side) -> Json {
        let mut v = json!({
            "name": self.name,
            "seat": if seat == Side::First { "first" } else { "second" },
            "moves": self.moves,
            "accuracy": self.accuracy.map(|a| (a * 10.0).round() / 10.0),
            "loss": self.mean_loss().map(|l| (l * 100.0).round() / 100.0),
            "loss_sum": r4(self.loss_sum),
            "inaccuracies": self.marks[0],
            "mistakes": self.marks[1],
            "blunders": self.marks[2],
            "turn_marks": self.turn_marks,
        });
        if self.counted {
            v["proven"] = json!(self.proven);
            v["value_lost"] = json!(self.value_lost);
        }
        v
    }

    pub fn from_json(v: &Json) -> Option<PlayerStats> {
        let n = |k: &str| v.get(k).and_then(Json::as_u64).map(|x| x as usize);
        let tm = v.get("turn_marks").and_then(Json::as_array);
        let t = |i: usize| {
            tm.and_then(|a| a.get(i))
                .and_then(Json::as_u64)
                .unwrap_or(0) as usize
        };
        Some(PlayerStats {
            name: v.get("name")?.as_str()?.to_string(),
            moves: n("moves")?,
            accuracy: v.get("accuracy").and_then(Json::as_f64),
            loss_sum: v.get("loss_sum").and_then(Json::as_f64).unwrap_or(0.0),
            marks: [n("inaccuracies")?, n("mistakes")?, n("blunders")?],
            turn_marks: [t(0), t(1), t(2)],
            // Reviews written before these counts have none: not counted, not zero.
            proven: n("proven").unwrap_or(0),
            value_lost: n("value_lost").unwrap_or(0),
            counted: n("proven").is_some() && n("value_lost").is_some(),
        })
    }
}

/// A reviewed game: every engine move judged, and each seat's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// One per recorded engine move (the opening's moves are not judged).
    pub plies: Vec<PlyReview>,
    /// The first and the second player.
    pub players: [PlayerStats; 2],
}

impl GameReview {
    /// Builds the game's figures from its judged moves: `movers[i]` made move `i`; `names` are
    /// the first and second player's. Turns of several moves get their judgement here.
    pub fn new(
        mut plies: Vec<PlyReview>,
        movers: &[Side],
        names: [&str; 2],
        cal: &Calibration,
    ) -> GameReview {
        let n = plies.len();
        // Turns: runs of moves by the same side.
        let mut start = 0;
        for i in 0..n {
            let ends = i + 1 == n || movers[i + 1] != movers[i];
            if ends {
                if i > start {
                    let loss = (plies[start].expected - plies[i].expected_played).max(0.0);
                    plies[i].turn = Some(TurnReview {
                        plies: i - start + 1,
                        loss,
                        mark: cal.thresholds.mark(loss),
                    });
                }
                start = i + 1;
            }
        }
        let mut players = [PlayerStats::new(names[0]), PlayerStats::new(names[1])];
        for (p, &side) in plies.iter().zip(movers) {
            let s = &mut players[side.index()];
            if let Some(t) = &p.turn
                && let Some(m) = t.mark
            {
                s.turn_marks[m.index()] += 1;
            }
            if p.forced {
                continue;
            }
            s.moves += 1;
            s.loss_sum += p.loss;
            if p.value.wdl().is_some() {
                s.proven += 1;
            }
            if p.verdict.is_some() {
                s.value_lost += 1;
            }
            if let Some(m) = p.mark {
                s.marks[m.index()] += 1;
            }
        }
        // The first player's expected score before each move and after the last.
        let first = |side: Side, e: f64| if side == Side::First { e } else { 1.0 - e };
        let mut series: Vec<f64> = plies
            .iter()
            .zip(movers)
            .map(|(p, &s)| first(s, p.expected))
            .collect();
        if let (Some(p), Some(&s)) = (plies.last(), movers.last()) {
            series.push(first(s, p.expected_played));
        }
        let idx: Vec<usize> = movers.iter().map(|s| s.index()).collect();
        let losses: Vec<f64> = plies.iter().map(|p| p.loss).collect();
        let counted: Vec<bool> = plies.iter().map(|p| !p.forced).collect();
        let acc = game_accuracy(&series, &idx, &losses, &counted);
        for (s, a) in players.iter_mut().zip(acc) {
            s.accuracy = a;
        }
        GameReview { plies, players }
    }

    /// The game line's `review` field (`settings`: the fingerprint of the review's settings).
    pub fn to_json(&self, settings: &str) -> Json {
        json!({
            "settings": settings,
            "players": [self.players[0].to_json(Side::First), self.players[1].to_json(Side::Second)],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::review::judge::calibration;

    fn ply(e: f64, ep: f64, forced: bool) -> PlyReview {
        let cal = calibration(GameKind::Connect4, None);
        let loss = (e - ep).max(0.0);
        PlyReview {
            value: Value::Cp(0),
            best: "4".into(),
            played: Value::Cp(0),
            expected: e,
            expected_played: ep,
            loss,
            mark: cal.thresholds.mark(loss),
            verdict: None,
            forced,
            depth: Some(8),
            turn: None,
        }
    }

    #[test]
    fn turns_players_and_json() {
        let cal = calibration(GameKind::Connect4, None);
        use Side::{First as F, Second as S};
        // First moves once, then second twice (a two-move turn losing 0.3 over its moves).
        let plies = vec![
            ply(0.5, 0.5, false),
            ply(0.5, 0.4, false),
            ply(0.4, 0.2, false),
            ply(0.8, 0.8, true),
        ];
        let g = GameReview::new(plies, &[F, S, S, F], ["a", "b"], &cal);
        let t = g.plies[2].turn.as_ref().unwrap();
        assert_eq!(t.plies, 2);
        assert!((t.loss - 0.3).abs() < 1e-12);
        assert_eq!(t.mark, Some(Mark::Blunder));
        assert!(g.plies[0].turn.is_none() && g.plies[3].turn.is_none());
        assert_eq!(g.players[0].moves, 1, "the forced move is not counted");
        assert_eq!(g.players[1].moves, 2);
        assert_eq!(g.players[1].turn_marks, [0, 0, 1]);
        // Second's two moves lost 0.1 and 0.2: counted under the marks the game's thresholds give.
        let mut want = [0usize; 3];
        for l in [0.1, 0.2] {
            if let Some(m) = cal.thresholds.mark(l) {
                want[m.index()] += 1;
            }
        }
        assert_eq!(g.players[1].marks, want);
        assert_eq!(g.players[0].accuracy, Some(100.0));
        assert!(g.players[1].accuracy.unwrap() < 100.0);
        for p in &g.plies {
            let back = PlyReview::from_json(&p.to_json()).unwrap();
            assert_eq!(back.to_json(), p.to_json());
        }
        let j = g.to_json("fp");
        let back = PlayerStats::from_json(&j["players"][1]).unwrap();
        assert_eq!(back.marks, g.players[1].marks);
        assert_eq!(back.turn_marks, g.players[1].turn_marks);
        assert_eq!((g.players[1].proven, g.players[1].value_lost), (0, 0));
    }

    #[test]
    fn proven_moves_and_lost_values_are_counted_per_player() {
        use crate::review::value::Wdl;
        let cal = calibration(GameKind::Connect4, None);
        use Side::{First as F, Second as S};
        let (win, draw) = (Value::exact(Wdl::Win), Value::exact(Wdl::Draw));
        let mut plies = vec![
            ply(0.6, 0.6, false),
            ply(1.0, 0.5, false),
            ply(0.5, 0.5, false),
            ply(0.5, 0.5, true),
        ];
        // Second's won position drawn (a lost value); First's proven draw kept; First's first
        // move heuristic; the forced move is not judged at all.
        (plies[1].value, plies[1].played) = (win, draw);
        plies[1].verdict = Verdict::of(win, draw);
        (plies[2].value, plies[2].played) = (draw, draw);
        (plies[3].value, plies[3].played) = (draw, draw);
        let g = GameReview::new(plies, &[F, S, F, S], ["a", "b"], &cal);
        assert_eq!((g.players[0].proven, g.players[0].value_lost), (1, 0));
        assert_eq!((g.players[1].proven, g.players[1].value_lost), (1, 1));
        let j = g.to_json("fp");
        assert_eq!(
            (
                j["players"][1]["proven"].as_u64(),
                j["players"][1]["value_lost"].as_u64()
            ),
            (Some(1), Some(1))
        );
        let back = PlayerStats::from_json(&j["players"][1]).unwrap();
        assert_eq!((back.proven, back.value_lost, back.counted), (1, 1, true));
        assert!((back.loss_sum - g.players[1].loss_sum).abs() < 1e-4);
        // A review written before the counts existed: not counted (its table says `-`), and it
        // stays so when written again.
        let mut old = j["players"][1].clone();
        let o = old.as_object_mut().unwrap();
        o.remove("proven");
        o.remove("value_lost");
        let back = PlayerStats::from_json(&old).unwrap();
        assert!(!back.counted);
        let again = back.to_json(Side::Second);
        assert!(again.get("proven").is_none() && again.get("value_lost").is_none());
        let lines = [
            json!({"review": {"players": [j["players"][0].clone(), j["players"][1].clone()]}}),
            json!({"review": {"players": [j["players"][0].clone(), old]}}),
        ];
        let t = crate::review::run::totals(lines.iter());
        assert_eq!(t.len(), 2);
        assert!(t[0].stats.counted && !t[1].stats.counted);
        let table = crate::review::run::totals_text(&t);
        let b = table.lines().find(|l| l.starts_with("b ")).unwrap();
        assert!(b.ends_with("     -     -"), "{table}");
        let a = table.lines().find(|l| l.starts_with("a ")).unwrap();
        assert!(a.ends_with("     2     0"), "{table}");
    }
}
