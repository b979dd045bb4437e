//! Move times per engine (`tablero report --times`): every recorded move's time, given to the
//! engine that made it by replaying the game with the rules (in Parchís and Conecta-4 BOOM a
//! side may move several times in a row, so seats do not simply alternate), summed up as
//! nearest-rank percentiles, so the figures are recorded milliseconds, never interpolated.

use super::{GameWhy, Records, ReportError};
use crate::core::game::{Game, Side};
use crate::games::{GameVisitor, dispatch};
use crate::review::game::start_of;

/// One engine's move times over the games read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTimes {
    pub name: String,
    pub moves: usize,
    pub median: u64,
    pub p90: u64,
    pub p99: u64,
    pub slowest: u64,
}

/// The nearest-rank `p`-quantile of sorted `ms` (0 when there is none).
fn rank(ms: &[u64], p: f64) -> u64 {
    if ms.is_empty() {
        return 0;
    }
    let k = ((p * ms.len() as f64).ceil() as usize).clamp(1, ms.len());
    ms[k - 1]
}

/// Each engine's move times (engine 1, engine 2) in the match's records. A game whose record
/// breaks the rules counts its moves up to the one refused, that one included: it was made by
/// the side to move.
pub fn move_times(records: &Records) -> Result<[MoveTimes; 2], ReportError> {
    let [a, b] = dispatch(records.kind, Collect { records })?;
    let summary = |name: &str, mut ms: Vec<u64>| {
        ms.sort_unstable();
        MoveTimes {
            name: name.to_string(),
            moves: ms.len(),
            median: rank(&ms, 0.5),
            p90: rank(&ms, 0.9),
            p99: rank(&ms, 0.99),
            slowest: ms.last().copied().unwrap_or(0),
        }
    };
    Ok([summary(&records.names[0], a), summary(&records.names[1], b)])
}

struct Collect<'a> {
    records: &'a Records,
}

impl GameVisitor for Collect<'_> {
    type Output = Result<[Vec<u64>; 2], ReportError>;

    fn visit<G: Game>(self) -> Self::Output {
        let cfg = super::html::game_config::<G>(self.records.settings.as_ref())?;
        let mut times: [Vec<u64>; 2] = Default::default();
        for g in &self.records.games {
            let rec = &g.record;
            let game = |why| ReportError::Game {
                file: g.source.clone(),
                index: rec.index,
                why,
            };
            let mut s: G =
                start_of(&rec.opening_base, &cfg).map_err(|e| game(GameWhy::Start(e)))?;
            for text in &rec.opening_moves {
                let m = s.parse_move(text).map_err(|error| {
                    game(GameWhy::OpeningMove {
                        text: text.clone(),
                        error,
                    })
                })?;
                s = s.apply(m);
            }
            for m in &rec.outcome.moves {
                let engine = match s.side_to_move() {
                    Side::First => rec.first,
                    Side::Second => 1 - rec.first,
                };
                times[engine].push(m.time_ms);
                match s.outcome().is_none().then(|| s.parse_move(&m.mv)) {
                    Some(Ok(mv)) => s = s.apply(mv),
                    _ => break,
                }
            }
        }
        Ok(times)
    }
}

/// The table `--times` prints under the result table.
pub fn times_text(rows: &[MoveTimes; 2], games: usize) -> String {
    let w = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(6);
    let mut o = format!("move times in ms over {games} games (nearest rank):\n");
    o += &format!(
        "{:<w$}  {:>6} {:>7} {:>7} {:>7} {:>8}\n",
        "engine", "moves", "median", "p90", "p99", "slowest"
    );
    for r in rows {
        o += &format!(
            "{:<w$}  {:>6} {:>7} {:>7} {:>7} {:>8}\n",
            r.name, r.moves, r.median, r.p90, r.p99, r.slowest
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::rank;

    #[test]
    fn nearest_rank_quantiles_are_recorded_values() {
        let ms: Vec<u64> = (1..=10).collect();
        assert_eq!(rank(&ms, 0.5), 5);
        assert_eq!(rank(&ms, 0.9), 9);
        assert_eq!(rank(&ms, 0.99), 10);
        assert_eq!(rank(&[7], 0.5), 7);
        assert_eq!(rank(&[], 0.9), 0);
        assert_eq!(rank(&[1, 2, 3], 0.5), 2);
    }
}
