//! The board's game review: one worker thread that reviews the page's game on request or after
//! every move (`crate::review::live`: tablero in-process with `tablero analyse`'s defaults,
//! every answer remembered, so a review after one more move only searches the new positions).
//! Jobs carry an id; only the newest waiting job is reviewed, and the session ignores results
//! of ids it no longer waits for.

use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender};

use super::engines::Event;
use super::error::ReviewFailure;
use crate::games::GameKind;
use crate::review::live::{LiveReviewer, reviewer};

/// One game to review.
#[derive(Clone, Debug)]
pub struct ReviewJob {
    pub id: u64,
    pub kind: GameKind,
    /// `startpos` or `fen …`.
    pub base: String,
    pub moves: Vec<String>,
    /// Moves of the opening (not judged).
    pub opening: usize,
    /// The first and second player's names.
    pub names: [String; 2],
}

/// Runs the review worker until its job channel closes.
pub fn worker(jobs: Receiver<ReviewJob>, events: Sender<Event>) {
    let mut reviewers: HashMap<&'static str, Box<dyn LiveReviewer>> = HashMap::new();
    while let Ok(mut job) = jobs.recv() {
        // Only the newest job matters: the game has moved on since the older ones.
        while let Ok(newer) = jobs.try_recv() {
            job = newer;
        }
        let key = job.kind.name();
        let result = match reviewers.get_mut(key) {
            Some(r) => Ok(r),
            None => reviewer(job.kind)
                .map(|r| reviewers.entry(key).or_insert(r))
                .map_err(ReviewFailure::Reviewer),
        }
        .and_then(|r| {
            r.review(
                &job.base,
                &job.moves,
                job.opening,
                [&job.names[0], &job.names[1]],
            )
            .map_err(ReviewFailure::Game)
        });
        if events.send(Event::Reviewed { id: job.id, result }).is_err() {
            break;
        }
    }
}
