//! The one pipeline every match and tournament runs through: the schedule's games (or the
//! shard's, or what a resume left to play) go to `concurrency` workers a pair at a time; each
//! worker keeps the engines of its last pair running while the next pair shares them; results
//! come back through one channel into one reorder buffer and are committed strictly in schedule
//! order — written to the records, counted, tested by the SPRT, shown on the progress bar.
//!
//! Reproducibility: a game is a pure function of the settings and its number (its opening, who
//! moves first), and nothing is committed out of order, so the records, the statistics and the
//! SPRT's stopping point do not depend on the concurrency or on timing (given engines that are
//! deterministic themselves, e.g. depth- or node-limited).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use super::config::{Config, Settings, engines_play_the_variant, variant_config};
use super::error::{Error, Refused};
use super::game::{
    GameContext, GameOutcome, GameRecord, Reason, Refusals, SeatError, Slot, play_game,
};
use super::records::{
    Expected, Opening, RecordsFile, TornLine, game_json, header_json, read_resume, rewrite,
};
use super::stats::{SprtDecision, Summary, Tally, sprt_status};
use crate::core::game::Game;
use crate::games::{GameVisitor, dispatch};

/// What a run tells its front end while it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// `resume` dropped the torn last line of the records; `next` is the first game played.
    TornLineDropped {
        path: PathBuf,
        torn: TornLine,
        next: Option<usize>,
    },
    /// `resume` rewrote records of an older format in the current one.
    Rewritten { path: PathBuf, games: usize },
    /// An engine refused its settings (`info string error`) and is out of a run that goes on
    /// ([`Refusals::Forfeit`]): every game of it is lost by `crash`. Its own line.
    EngineOut { engine: String, line: String },
    /// An engine lost a game off the board (crash, time, illegal move): told as soon as the
    /// game ends, not only in the records.
    EngineLost {
        game: usize,
        engine: String,
        reason: Reason,
        detail: String,
    },
    /// A game ended and is recorded, while no progress bar shows it (stderr is not a terminal):
    /// `line` says which game, its result and, in a match, the score so far — so that a long
    /// run whose stderr goes to a file tells how far it is.
    GameDone {
        done: usize,
        total: usize,
        line: String,
    },
}

/// The result of a run: its settings and every game of the run (kept by a resume, then played),
/// in schedule order; for a match also the tally and the SPRT's state.
#[derive(Clone, Debug)]
pub struct Played {
    pub settings: Settings,
    pub games: Vec<GameRecord>,
    /// A match's result from engine 1's point of view (`None` for a tournament).
    pub summary: Option<Summary>,
}

/// Runs a match or tournament (or its shard). `notice` hears what the front end should tell the
/// user before play starts.
pub fn run(cfg: &Config, notice: &mut dyn FnMut(Notice)) -> Result<Played, Error> {
    dispatch(cfg.kind, Run { cfg, notice })
}

struct Run<'a> {
    cfg: &'a Config,
    notice: &'a mut dyn FnMut(Notice),
}

/// The progress bar: on stderr when it is a terminal (and the caller wants one), else hidden.
fn progress_bar(show: bool, total: usize, done: usize) -> indicatif::ProgressBar {
    let bar = if show && std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(total as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  ETA {eta}  {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_position(done as u64);
    bar
}

/// The bar's message of a match: engine 1's results, Elo and LLR so far.
fn match_message(
    name: &str,
    tally: &Tally,
    sprt: Option<(f64, (f64, f64), SprtDecision)>,
) -> String {
    let e = tally.headline();
    format!(
        "{}: +{} ={} -{} ({:.1}%){}{}",
        name,
        tally.wins,
        tally.draws,
        tally.losses,
        tally.score() * 100.0,
        // One pair, or pairs all alike, have no spread: an interval of ± 0 would claim certainty.
        e.filter(|e| e.elo.is_finite() && e.error.is_finite() && e.error > 0.0)
            .map_or(String::new(), |e| format!(
                ", Elo {:+.1} ± {:.1}",
                e.elo, e.error
            )),
        sprt.map_or(String::new(), |(llr, (lo, hi), _)| format!(
            ", LLR {llr:.2} ({lo:.2}, {hi:.2})"
        ))
    )
}

/// Game `i` of an engine that is out (see [`Notice::EngineOut`]), not played: lost by it
/// (`crash`, with its refusal as the detail), a draw when both are out.
fn forfeit<G: Game>(
    i: usize,
    first: usize,
    start: super::game::Start<G>,
    names: [&str; 2],
    outs: [Option<&String>; 2],
) -> GameRecord {
    use crate::core::game::Side;
    let seat_of = |e: usize| {
        if e == first {
            Side::First
        } else {
            Side::Second
        }
    };
    let why =
        |e: usize| outs[e].map(|line| format!("{} is out: refused its settings: {line}", names[e]));
    let (winner, detail) = match (why(0), why(1)) {
        (Some(a), Some(b)) => (None, format!("{a}; and {b}")),
        (Some(a), None) => (Some(seat_of(1)), a),
        (None, Some(b)) => (Some(seat_of(0)), b),
        (None, None) => (None, String::new()),
    };
    GameRecord {
        index: i,
        first,
        opening_base: start.base,
        opening_moves: start.moves,
        outcome: GameOutcome {
            winner,
            reason: Reason::Crash,
            detail,
            moves: vec![],
            junk: 0,
        },
    }
}

impl GameVisitor for Run<'_> {
    type Output = Result<Played, Error>;
    fn visit<G: Game>(self) -> Self::Output {
        let cfg = self.cfg;
        let (gcfg, options) = variant_config::<G>(&cfg.variant)?;
        engines_play_the_variant::<G>(&cfg.engines, &options)?;
        let settings = Settings::of(cfg, options);
        cfg.openings.check::<G>(&gcfg)?;
        // A records file that exists is a user's data: refused before any engine starts.
        if let Some(t) = &cfg.records
            && !t.resume
            && !t.overwrite
            && t.path.exists()
        {
            return Err(Error::RecordsExist {
                path: t.path.clone(),
            });
        }
        let startup = Duration::from_millis(cfg.startup_ms);
        // Pre-flight: every engine is started once with its settings before the first game.
        // One that answers them with `info string error` (a misspelt option, a bad value, a
        // variant it does not play) would play something else than what is measured: it stops
        // the run with its own line, or (`Refusals::Forfeit`) is out of it. An engine of a
        // match that cannot even start a game (it does not run, exits or stays silent instead of
        // answering `uci`, refuses `isready`) stops the match with the reason, instead of
        // losing every game by `crash`; later failures lose games. A tournament goes on
        // without such an engine: its games are lost by `crash` and each loss is told as it
        // happens.
        let mut out: BTreeMap<usize, String> = BTreeMap::new();
        for (k, e) in cfg.engines.iter().enumerate() {
            let mut slot = Slot::new(e.spec.clone(), e.options.clone());
            let timeout = Duration::from_millis(cfg.limits.timeout_ms);
            let ready = slot.prepare(cfg.kind, &cfg.variant, timeout, startup, None);
            slot.reset();
            match ready {
                Ok(()) => {}
                Err(SeatError::Refused(line)) => match cfg.refusals {
                    Refusals::Stop => {
                        return Err(Error::EngineRefused {
                            engine: e.name.clone(),
                            what: Refused::Settings,
                            line,
                        });
                    }
                    Refusals::Forfeit => {
                        (self.notice)(Notice::EngineOut {
                            engine: e.name.clone(),
                            line: line.clone(),
                        });
                        out.insert(k, line);
                    }
                },
                Err(SeatError::Lost(_, error)) if cfg.is_match() => {
                    return Err(Error::EngineStart {
                        engine: e.name.clone(),
                        error,
                    });
                }
                Err(SeatError::Lost(..)) => {}
            }
        }
        if let Some(d) = &cfg.log_dir {
            std::fs::create_dir_all(d).map_err(|source| Error::Log {
                path: d.clone(),
                source,
            })?;
        }
        let sched = cfg.schedule();
        let mine = cfg.games();
        let fp = settings.fingerprint();
        let opening = |i: usize| {
            cfg.openings
                .opening::<G>(cfg.seed, &gcfg, sched.game(i).round)
        };

        let mut games: Vec<GameRecord> = Vec::with_capacity(mine.len());
        let mut records = None;
        if let Some(target) = &cfg.records {
            let mut kept = if target.resume {
                let want = Expected {
                    kind: cfg.kind,
                    settings: &settings,
                    schedule: &sched,
                    games: &mine,
                };
                read_resume(&target.path, &want, |i| {
                    opening(i).map(|s| (s.base, s.moves))
                })?
            } else {
                Default::default()
            };
            if let Some(torn) = kept.dropped.clone() {
                (self.notice)(Notice::TornLineDropped {
                    path: target.path.clone(),
                    torn,
                    next: mine.get(kept.games.len()).copied(),
                });
            }
            let header = header_json(&settings, cfg.shard, cfg.match_games());
            if kept.older {
                kept.len = rewrite(&target.path, &header, &settings, &sched, &kept.games)?;
                (self.notice)(Notice::Rewritten {
                    path: target.path.clone(),
                    games: kept.games.len(),
                });
            } else if kept.len > 0 && kept.header.as_ref() != Some(&header) {
                // The same settings with another number of games (or a header from before the
                // number was written): the header says what this run promises.
                kept.len = rewrite(&target.path, &header, &settings, &sched, &kept.games)?;
            }
            let how = if target.resume {
                Opening::Continue(kept.len)
            } else if target.overwrite {
                Opening::Replace
            } else {
                Opening::Fresh
            };
            records = Some(RecordsFile::open(&target.path, how, &header)?);
            games.extend(kept.games);
        }

        // A match's tally and SPRT, from the kept games on.
        let two = cfg.engines.len() == 2;
        let mut tally = Tally::default();
        for r in &games {
            tally.add(r);
        }
        let check_sprt = |t: &Tally| cfg.sprt.filter(|_| two).map(|s| sprt_status(&s, t));
        let mut sprt_state = if games.is_empty() {
            None
        } else {
            check_sprt(&tally)
        };
        let decided = |s: &Option<(f64, (f64, f64), SprtDecision)>| matches!(s, Some((_, _, d)) if *d != SprtDecision::Continue);

        let done0 = games.len();
        // Work units: the remaining games grouped by pair, so that a worker keeps both engines
        // running for the two games of a pair.
        let mut units: Vec<Vec<(usize, usize)>> = Vec::new();
        for (seq, &i) in mine.iter().enumerate().skip(done0) {
            match units.last_mut() {
                Some(u) if u[0].1 / 2 == i / 2 => u.push((seq, i)),
                _ => units.push(vec![(seq, i)]),
            }
        }
        let bar = progress_bar(cfg.progress, mine.len(), done0);
        let ctx = GameContext {
            kind: cfg.kind,
            startup,
            variant: &cfg.variant,
            max_plies: cfg.max_plies,
            log_dir: cfg.log_dir.as_deref(),
            refusals: cfg.refusals,
        };
        let out = &out;
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(decided(&sprt_state));
        let (tx, rx) = mpsc::channel::<(usize, Result<GameRecord, Error>)>();
        let workers = cfg.concurrency.clamp(1, units.len().max(1));
        let mut first_error = None;
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (next, stop, units, ctx, sched, opening) =
                    (&next, &stop, &units, &ctx, &sched, &opening);
                scope.spawn(move || {
                    // The engines of the last pair, kept running when the next pair shares one.
                    let mut cache: Vec<(usize, Slot)> = Vec::new();
                    'units: loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let u = next.fetch_add(1, Ordering::Relaxed);
                        let Some(unit) = units.get(u) else { break };
                        let [a, b] = sched.game(unit[0].1).engines;
                        let mut take = |e: usize| match cache.iter().position(|(x, _)| *x == e) {
                            Some(k) => cache.swap_remove(k).1,
                            None => Slot::new(
                                cfg.engines[e].spec.clone(),
                                cfg.engines[e].options.clone(),
                            ),
                        };
                        let (mut sa, mut sb) = (take(a), take(b));
                        for (_, mut s) in cache.drain(..) {
                            s.reset();
                        }
                        let names = [cfg.engines[a].name.as_str(), cfg.engines[b].name.as_str()];
                        let limits = [cfg.limits_of(a), cfg.limits_of(b)];
                        for &(seq, i) in unit {
                            if stop.load(Ordering::Relaxed) {
                                cache.push((a, sa));
                                cache.push((b, sb));
                                break 'units;
                            }
                            let s = sched.game(i);
                            let outs = [out.get(&a), out.get(&b)];
                            let r = opening(i).and_then(|start| {
                                if outs.iter().any(Option::is_some) {
                                    return Ok(forfeit(i, s.first, start, names, outs));
                                }
                                play_game(ctx, names, limits, i, s.first, start, [&mut sa, &mut sb])
                            });
                            if tx.send((seq, r)).is_err() {
                                break;
                            }
                        }
                        cache.push((a, sa));
                        cache.push((b, sb));
                    }
                    for (_, mut s) in cache {
                        s.reset();
                    }
                });
            }
            drop(tx);
            let mut buffer: BTreeMap<usize, GameRecord> = BTreeMap::new();
            let mut done = done0;
            for (seq, r) in rx {
                match r {
                    Ok(r) => {
                        let o = &r.outcome;
                        if let (Some(winner), Reason::Crash | Reason::Time | Reason::Illegal) =
                            (o.winner, o.reason)
                        {
                            // The loser is the seat that did not win; `first` is the engine (of
                            // the game's two) that played the first seat.
                            let loser_seat = winner.other().index();
                            let pair = sched.game(r.index).engines;
                            let loser = if loser_seat == 0 {
                                r.first
                            } else {
                                1 - r.first
                            };
                            let n = Notice::EngineLost {
                                game: r.index,
                                engine: cfg.engines[pair[loser]].name.clone(),
                                reason: o.reason,
                                // A seat that could not be made ready has its name in the detail.
                                detail: o
                                    .detail
                                    .strip_prefix(&format!("{}: ", cfg.engines[pair[loser]].name))
                                    .unwrap_or(&o.detail)
                                    .to_string(),
                            };
                            // A forfeit of an engine that is out was told once, when it went out.
                            if !out.contains_key(&pair[loser]) {
                                bar.suspend(|| (self.notice)(n));
                            }
                        }
                        buffer.insert(seq, r);
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                        continue;
                    }
                }
                while let Some(r) = buffer.remove(&done) {
                    // Games finished after the SPRT decided are not part of the match.
                    if stop.load(Ordering::Relaxed) && decided(&sprt_state) {
                        break;
                    }
                    if let Some(f) = records.as_mut() {
                        let line = game_json(&r, &sched.game(r.index), &settings, &fp);
                        if let Err(e) = f.append(&line) {
                            first_error.get_or_insert(e);
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    done += 1;
                    bar.set_position(done as u64);
                    if two {
                        tally.add(&r);
                        sprt_state = check_sprt(&tally);
                        bar.set_message(match_message(&cfg.engines[0].name, &tally, sprt_state));
                        if decided(&sprt_state) {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    if cfg.progress && bar.is_hidden() {
                        let pair = sched.game(r.index).engines;
                        let seat = |k: usize| cfg.engines[pair[k]].name.as_str();
                        let (first, second) = (seat(r.first), seat(1 - r.first));
                        let mut line = format!(
                            "game {}: {first} {} {second} ({})",
                            r.index,
                            r.result(),
                            r.outcome.reason.name()
                        );
                        if two {
                            line.push_str("; ");
                            line.push_str(&match_message(&cfg.engines[0].name, &tally, sprt_state));
                        }
                        (self.notice)(Notice::GameDone {
                            done,
                            total: mine.len(),
                            line,
                        });
                    }
                    games.push(r);
                }
            }
        });
        bar.finish_and_clear();
        if let Some(mut f) = records {
            // A run that failed keeps what it recorded, but never replaces a file with it.
            let done = match first_error {
                None => f.finish(),
                Some(_) => f.sync(),
            };
            if let Err(e) = done {
                first_error.get_or_insert(e);
            }
        }
        if let Some(e) = first_error {
            return Err(e);
        }
        Ok(Played {
            settings,
            games,
            summary: cfg.is_match().then_some(Summary {
                tally,
                sprt: sprt_state,
            }),
        })
    }
}
