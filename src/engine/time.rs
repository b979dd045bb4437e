//! Time management: how much of a clock one move may use. The budget has a soft target (the
//! search stops between iterations around it) and a hard limit (the search aborts there), both
//! kept off the flag by a reserve for what the engine does not see (the `Move Overhead`).

use super::GoParams;
use crate::core::game::Side;

/// Time the engine loses per move outside its search (reading `go`, starting the search thread,
/// printing `bestmove`, the pipe to the referee and the scheduler), ms: kept off every budget.
/// The default of the `Move Overhead` option: a loaded machine or a slow link needs more.
pub const MOVE_OVERHEAD_MS: u64 = 10;

/// Largest `Move Overhead`, ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The hard limit in targets. First 4; lowered to 2 as a precaution after Parchís clocks at
/// 1+0.01 drained on a machine at load 20 (see docs/matches.md, "Clock play": the previous single-target
/// budget lost as many games on time there).
const HARD_TARGETS: u64 = 2;

/// Fewest and most moves a clock is shared between when `go` gives no `movestogo`.
const MOVES_LEFT_MIN: u64 = 5;
const MOVES_LEFT_MAX: u64 = 100;

/// The time budget of one move on a clock, ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockBudget {
    /// The time the move should take; the search ends between iterations around it.
    pub soft: u64,
    /// The time it may never exceed: the search aborts there.
    pub hard: u64,
}

/// The budget of a move with `time_left` on the clock, increment `inc`, `movestogo` moves to
/// the next time control (if the clock says so), the game's estimate `moves_left` of the
/// mover's remaining moves ([`Game::moves_left`]) and the move overhead `overhead`, all times
/// in ms.
///
/// A reserve never spent — the move overhead plus min(50 ms, a tenth of the clock) — covers
/// latency; of the rest, the target is an equal share over the moves to come plus 3/4 of the
/// increment, and the hard limit [`HARD_TARGETS`] targets, without `movestogo` at most 2/5 of the clock (plus
/// 3/4 of the increment), so one long search never ruins the next moves.
pub fn clock_budget(
    time_left: u64,
    inc: u64,
    movestogo: Option<u64>,
    moves_left: u32,
    overhead: u64,
) -> ClockBudget {
    let reserve = overhead.saturating_add((time_left / 10).min(50));
    let available = time_left.saturating_sub(reserve);
    let moves = match movestogo {
        Some(m) => m.clamp(1, 60),
        None => u64::from(moves_left).clamp(MOVES_LEFT_MIN, MOVES_LEFT_MAX),
    };
    let inc_share = inc.saturating_mul(3) / 4;
    let soft = (available / moves).saturating_add(inc_share);
    // Sudden death: no move may take more than 2/5 of the clock. With a control ahead the
    // clock is refilled after `movestogo` moves, so the last ones may use it all.
    let cap = match movestogo {
        None => (available / 5 * 2).saturating_add(inc_share),
        Some(_) => available,
    };
    let hard = soft.saturating_mul(HARD_TARGETS).min(cap).min(available);
    ClockBudget {
        soft: soft.min(hard).max(1),
        hard: hard.max(1),
    }
}

/// The time limits of one move, ms: the hard limit (`movetime`, or the clock's hard budget when
/// smaller) and the soft target of a move on a clock. A clock is the mover's `wtime`/`btime`
/// (and increment); `infinite` ignores it. `moves_left` is the game's estimate of the mover's
/// remaining moves, `overhead` the `Move Overhead`.
pub fn move_limits(
    params: &GoParams,
    side: Side,
    moves_left: u32,
    overhead: u64,
) -> (Option<u64>, Option<u64>) {
    let (clock, inc) = match side {
        Side::First => (params.wtime, params.winc),
        Side::Second => (params.btime, params.binc),
    };
    match clock {
        Some(c) if !params.infinite => {
            let b = clock_budget(c, inc.unwrap_or(0), params.movestogo, moves_left, overhead);
            (
                Some(params.movetime.map_or(b.hard, |m| m.min(b.hard))),
                Some(b.soft.min(b.hard)),
            )
        }
        _ => (params.movetime, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_shares_the_clock_over_the_moves_left() {
        // 10 s + 0.1 s, 21 moves left (Connect Four's start): reserve 10 + 50 ms.
        let b = clock_budget(10_000, 100, None, 21, MOVE_OVERHEAD_MS);
        assert_eq!(b.soft, 9_940 / 21 + 75);
        assert_eq!(b.hard, b.soft * HARD_TARGETS);
        // More moves left, smaller share; the estimate is clamped to 5..=100.
        assert!(clock_budget(10_000, 100, None, 80, MOVE_OVERHEAD_MS).soft < b.soft);
        assert_eq!(
            clock_budget(10_000, 0, None, 1, MOVE_OVERHEAD_MS),
            clock_budget(10_000, 0, None, 5, MOVE_OVERHEAD_MS)
        );
        assert_eq!(
            clock_budget(10_000, 0, None, 1000, MOVE_OVERHEAD_MS),
            clock_budget(10_000, 0, None, 100, MOVE_OVERHEAD_MS)
        );
        // movestogo wins over the estimate (clamped to 1..=60, as before).
        assert_eq!(
            clock_budget(10_000, 0, Some(10), 50, MOVE_OVERHEAD_MS),
            clock_budget(10_000, 0, Some(10), 3, MOVE_OVERHEAD_MS)
        );
        let last = clock_budget(10_000, 0, Some(1), 50, MOVE_OVERHEAD_MS);
        assert_eq!((last.soft, last.hard), (9_940, 9_940));
    }

    #[test]
    fn clock_budget_never_reaches_the_flag() {
        for overhead in [0, MOVE_OVERHEAD_MS, 300, MAX_MOVE_OVERHEAD_MS] {
            for time_left in [0, 1, 5, 10, 11, 30, 60, 100, 1_000, 10_000, 1_000_000] {
                for inc in [0, 10, 100, 5_000] {
                    for moves_left in [1, 5, 21, 200] {
                        for mtg in [None, Some(1), Some(30)] {
                            let b = clock_budget(time_left, inc, mtg, moves_left, overhead);
                            assert!(1 <= b.soft && b.soft <= b.hard, "{b:?}");
                            // Never past the clock minus the reserve (1 ms, the least a search
                            // gets, only when there is nothing else).
                            let reserve = overhead + (time_left / 10).min(50);
                            assert!(
                                b.hard <= time_left.saturating_sub(reserve).max(1),
                                "{overhead} {time_left} {inc} {moves_left} {mtg:?}: {b:?}"
                            );
                            // In sudden death one move never takes more than 2/5 of the clock
                            // plus most of the increment.
                            if mtg.is_none() {
                                assert!(b.hard <= (time_left * 2 / 5 + inc * 3 / 4).max(1));
                            }
                        }
                    }
                }
            }
        }
        // Huge values do not overflow.
        let b = clock_budget(u64::MAX, u64::MAX, None, u32::MAX, u64::MAX);
        assert!(b.soft <= b.hard);
    }

    #[test]
    fn move_overhead_comes_off_the_budget() {
        // 1 s, no increment, 20 moves left: the reserve is the overhead + 50 ms.
        let default = clock_budget(1_000, 0, None, 20, MOVE_OVERHEAD_MS);
        assert_eq!(default.soft, (1_000 - 10 - 50) / 20);
        let slow_link = clock_budget(1_000, 0, None, 20, 300);
        assert_eq!(slow_link.soft, (1_000 - 300 - 50) / 20);
        assert_eq!(slow_link.hard, slow_link.soft * HARD_TARGETS);
        // An overhead above the clock leaves the 1 ms minimum.
        let b = clock_budget(1_000, 0, None, 20, 2_000);
        assert_eq!((b.soft, b.hard), (1, 1));
    }
}
