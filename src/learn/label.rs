//! Exact labels from the solvers: Kalah's final margin (the endgame database for positions it
//! covers, the exact solver above it) and Connect Four's win/draw/loss.

use std::sync::Arc;

use crate::core::game::{Game, Side};
use crate::games::connect4::Connect4;
use crate::games::mancala::Mancala;
use crate::solver::kalahdb::{KalahDb, Rules};
use crate::solver::{Budget, connect4, kalah};

/// Labels Kalah positions with their exact final store margin.
pub struct KalahLabeler {
    solver: kalah::Solver,
    db_seeds: usize,
}

impl KalahLabeler {
    /// A labeler for Kalah with `pits` pits and `total` seeds, using `db` (the bottom-up
    /// endgame database, shared between labelers) and a table of `mib` MiB.
    ///
    /// # Errors
    /// The solver's: board sizes it does not handle, a database of another size.
    pub fn new(
        pits: usize,
        total: usize,
        db: Option<Arc<KalahDb>>,
        mib: usize,
    ) -> Result<Self, crate::solver::SolveError> {
        let db_seeds = db.as_ref().map_or(0, |d| d.seeds());
        let solver = kalah::Solver::with_database(pits, total, mib, Rules::Course, db)?;
        Ok(KalahLabeler { solver, db_seeds })
    }

    /// Seeds in pits up to which a position is a database lookup.
    pub fn db_seeds(&self) -> usize {
        self.db_seeds
    }

    /// The exact final margin (own store minus the other's, in seeds, with best play by both)
    /// for `perspective`.
    pub fn margin(&mut self, s: &Mancala, perspective: Side) -> Option<f64> {
        let sol = self.solver.solve(s)?;
        let v = f64::from(sol.score);
        Some(if s.side_to_move() == perspective {
            v
        } else {
            -v
        })
    }
}

/// Seeds still in the pits of a Kalah position.
pub fn pit_seeds(s: &Mancala) -> usize {
    (s.pit_seeds(Side::First) + s.pit_seeds(Side::Second)) as usize
}

/// Labels Connect Four positions with their exact result.
pub struct Connect4Labeler {
    solver: connect4::Solver,
}

impl Connect4Labeler {
    /// A labeler for `w`×`h` boards giving up on a position after `nodes` nodes (each solve
    /// starts from an empty table, so whether it gives up does not depend on the ones before).
    pub fn new(w: u32, h: u32, mib: usize, nodes: u64) -> Self {
        let mut solver = connect4::Solver::new(
            w,
            h,
            connect4::Settings {
                hash_mib: mib,
                threads: 1,
            },
        );
        solver.set_fresh(true);
        solver.set_budget(Budget {
            nodes: Some(nodes),
            ..Budget::default()
        });
        Connect4Labeler { solver }
    }

    /// 1 if `perspective` wins with best play, 0.5 for a draw, 0 if it loses; `None` when the
    /// budget ran out.
    pub fn result(&mut self, s: &Connect4, perspective: Side) -> Option<f64> {
        let sol = self.solver.solve(s)?;
        let mover = match sol.score.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        Some(if s.side_to_move() == perspective {
            mover
        } else {
            1.0 - mover
        })
    }
}
