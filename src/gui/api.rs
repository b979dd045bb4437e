//! The page's session: one authoritative game ([`Board`]), who sits in each seat (a human or
//! one of the offered engines), the search limits, the analysis engine and a message log. The
//! HTTP layer calls the `api_*` methods with parsed JSON; each returns an [`ApiError`] on bad
//! input. Every change bumps `version` so that waiting long-polls wake up.
//!
//! The page never names a program: seats and the analysis take an engine *name*, looked up in
//! the list fixed at start-up (`--engine NAME=SPEC` plus the built-ins).

use std::collections::VecDeque;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::board::{Board, new_board, new_board_with, result_text};
use super::engines::{ANALYSIS, Event, Job, SEATS_AND_ANALYSIS, Setup, Think};
use super::error::ApiError;
use crate::core::game::{Outcome, Side};
use crate::games::GameKind;
use crate::referee::GameRecord;
use crate::referee::conn::EngineSpec;
use crate::referee::game::{GameOutcome, MoveRecord, Reason};

/// An engine the page may pick.
#[derive(Clone, Debug)]
pub struct Offered {
    pub name: String,
    pub spec: EngineSpec,
}

/// How a seat engine's move is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Depth(u64),
    MoveTime(u64),
}

/// Who made a move and what the engine said about it.
#[derive(Clone, Debug)]
struct MoveMeta {
    ms: u64,
    depth: Option<u64>,
    score: Option<String>,
}

/// Messages kept for the page.
const MESSAGES: usize = 30;
/// Analysis lines kept.
const ANALYSIS_LINES: usize = 40;
/// Longest position text accepted (a move list of a long Parchís game fits easily).
pub const MAX_POSITION: usize = 32 * 1024;

pub struct Session {
    offered: Vec<Offered>,
    board: Box<dyn Board>,
    seats: [Option<String>; 2],
    limit: Limit,
    heuristic: String,
    /// Least time per engine move when both seats are engines, so a watched game can be seen.
    pace_ms: u64,
    paused: bool,
    pub version: u64,
    board_version: u64,
    messages: VecDeque<(u64, String)>,
    msg_seq: u64,
    /// The job id each worker's result is awaited for.
    pending: [Option<u64>; 3],
    next_id: u64,
    jobs: [Sender<Job>; SEATS_AND_ANALYSIS],
    analysis_engine: Option<String>,
    analysis_lines: Vec<Value>,
    /// The latest `info` line of the seat engine that is thinking.
    thinking: Option<String>,
    meta: Vec<Option<MoveMeta>>,
    turn_start: Instant,
    /// Crashes of seat engines in a row (one automatic restart, then the game pauses).
    crashes: u32,
    /// Think time (go → bestmove, µs) of the last engine move, for the page's overhead probe.
    last_think_us: Option<u64>,
    /// The game review (see [`Review`]).
    review: Review,
}

/// The board's game review: the worker's channel, whether every move is reviewed as it is
/// played, the review job awaited, the latest review (of the moves it covers), the ply shown
/// while browsing it, and the players' names of a loaded record.
#[derive(Default)]
struct Review {
    jobs: Option<Sender<super::review::ReviewJob>>,
    auto: bool,
    /// The job awaited and the moves (all of them) it reviews.
    pending: Option<(u64, Vec<String>)>,
    /// The review and the moves (all of them, the opening's included) it judged.
    done: Option<(crate::review::GameReview, Vec<String>)>,
    error: Option<String>,
    view: Option<usize>,
    names: Option<[String; 2]>,
}

fn parse_info(line: &str) -> Value {
    let t: Vec<&str> = line.split_whitespace().collect();
    let get = |k: &str| {
        t.iter()
            .position(|x| *x == k)
            .and_then(|i| t.get(i + 1).copied())
    };
    let score = t
        .iter()
        .position(|x| *x == "score")
        .and_then(|i| Some(format!("{} {}", t.get(i + 1)?, t.get(i + 2)?)));
    let pv: Vec<&str> = match t.iter().position(|x| *x == "pv") {
        Some(i) => t[i + 1..]
            .iter()
            .take_while(|w| **w != "string")
            .copied()
            .collect(),
        None => vec![],
    };
    json!({
        "depth": get("depth").and_then(|d| d.parse::<u64>().ok()),
        "score": score,
        "nodes": get("nodes").and_then(|d| d.parse::<u64>().ok()),
        "time": get("time").and_then(|d| d.parse::<u64>().ok()),
        "pv": pv.join(" "),
    })
}

fn str_field<'a>(v: &'a Value, k: &'static str) -> Result<Option<&'a str>, ApiError> {
    match v.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::NotString(k)),
    }
}

/// `k`, a `true` or `false` when present.
fn bool_field(v: &Value, k: &'static str) -> Result<Option<bool>, ApiError> {
    v.get(k)
        .map(|b| b.as_bool().ok_or(ApiError::NotBool(k)))
        .transpose()
}

/// `n`, an integer in `lo..=hi` (`unit` closes the error's text).
fn int_in(
    n: &Value,
    field: &'static str,
    lo: u64,
    hi: u64,
    unit: &'static str,
) -> Result<u64, ApiError> {
    n.as_u64()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or(ApiError::Range {
            field,
            lo,
            hi,
            unit,
        })
}

impl Session {
    /// A session at the start of `kind`, all seats human.
    pub fn new(
        offered: Vec<Offered>,
        kind: GameKind,
        jobs: [Sender<Job>; SEATS_AND_ANALYSIS],
    ) -> Self {
        let board = new_board(kind);
        Session {
            offered,
            board,
            seats: [None, None],
            limit: Limit::MoveTime(1000),
            heuristic: "default".into(),
            pace_ms: 300,
            paused: false,
            version: 1,
            board_version: 1,
            messages: VecDeque::new(),
            msg_seq: 0,
            pending: [None; 3],
            next_id: 1,
            jobs,
            analysis_engine: None,
            analysis_lines: vec![],
            thinking: None,
            meta: vec![],
            turn_start: Instant::now(),
            crashes: 0,
            last_think_us: None,
            review: Review::default(),
        }
    }

    /// Connects the game review's worker.
    pub fn set_reviewer(&mut self, jobs: Sender<super::review::ReviewJob>) {
        self.review.jobs = Some(jobs);
    }

    /// The players' names for the review: a loaded record's, else the seats'.
    fn player_names(&self) -> [String; 2] {
        self.review.names.clone().unwrap_or_else(|| {
            self.seats
                .clone()
                .map(|s| s.unwrap_or_else(|| "human".into()))
        })
    }

    /// Asks the worker for a review of the game as it stands.
    fn start_review(&mut self) {
        let id = self.id();
        let moves = self.board.moves().to_vec();
        let job = super::review::ReviewJob {
            id,
            kind: self.board.kind(),
            base: self.board.base().to_string(),
            moves: moves.clone(),
            opening: self.board.opening_len(),
            names: self.player_names(),
        };
        if let Some(tx) = &self.review.jobs
            && tx.send(job).is_ok()
        {
            self.review.pending = Some((id, moves));
            self.review.error = None;
        }
    }

    /// After a change of the game: the review kept while its moves still lead the game, the
    /// browsing ended, and a new review asked for when every move is reviewed.
    fn review_changed(&mut self) {
        let moves = self.board.moves();
        if self
            .review
            .done
            .as_ref()
            .is_some_and(|(_, m)| m.len() > moves.len() || moves[..m.len()] != m[..])
        {
            self.review.done = None;
        }
        self.review.view = None;
        if self.review.auto {
            self.start_review();
        }
    }

    fn message(&mut self, text: impl Into<String>) {
        let text = text.into();
        log::info!("gui: {text}");
        self.msg_seq += 1;
        self.messages.push_back((self.msg_seq, text));
        while self.messages.len() > MESSAGES {
            self.messages.pop_front();
        }
    }

    fn engine(&self, name: &str) -> Result<&Offered, ApiError> {
        self.offered
            .iter()
            .find(|o| o.name == name)
            .ok_or_else(|| ApiError::UnknownEngine {
                name: name.to_string(),
                offered: self
                    .offered
                    .iter()
                    .map(|o| o.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    fn setup(&self, name: &str, with_heuristic: bool) -> Option<Setup> {
        let o = self.engine(name).ok()?;
        // The page's variant (Parchís' Year) first: every engine plays the board's rules.
        let mut options = self.board.variant_settings();
        // Built-in players pin their own heuristic; other engines get the page's choice when
        // it is not the default one (an engine without a `Heuristic` option, such as a course
        // bot, would refuse it, and its own default is what the page's default means).
        let default = self
            .board
            .heuristics()
            .first()
            .copied()
            .unwrap_or("default");
        if with_heuristic && !matches!(o.spec, EngineSpec::Builtin(_)) && self.heuristic != default
        {
            options.push(("Heuristic".to_string(), self.heuristic.clone()));
        }
        Some(Setup {
            name: o.name.clone(),
            spec: o.spec.clone(),
            kind: self.board.kind(),
            options,
        })
    }

    fn position_line(&self) -> String {
        let mut p = format!("position {}", self.board.base());
        if self.board.plies() > 0 {
            p += " moves ";
            p += &self.board.moves().join(" ");
        }
        p
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Stops and forgets the searches of the seats (their results will be ignored).
    fn cancel_seats(&mut self) {
        for r in 0..2 {
            if let Some(id) = self.pending[r].take() {
                let _ = self.jobs[r].send(Job::Stop(id));
            }
        }
        self.thinking = None;
    }

    /// After any change of the position: restart the analysis, let an engine seat move.
    fn changed(&mut self, position_changed: bool) {
        self.version += 1;
        if position_changed {
            self.turn_start = Instant::now();
            self.restart_analysis();
            self.review_changed();
        }
        self.kick();
    }

    fn restart_analysis(&mut self) {
        self.analysis_lines.clear();
        if let Some(id) = self.pending[ANALYSIS].take() {
            let _ = self.jobs[ANALYSIS].send(Job::Stop(id));
        }
        let Some(name) = self.analysis_engine.clone() else {
            return;
        };
        if self.board.outcome().is_some() {
            return;
        }
        let Some(setup) = self.setup(&name, true) else {
            return;
        };
        let id = self.id();
        let job = Think {
            id,
            setup,
            position: self.position_line(),
            go: "go infinite".into(),
            min_time: Duration::ZERO,
            max_time: None,
        };
        if self.jobs[ANALYSIS].send(Job::Think(job)).is_ok() {
            self.pending[ANALYSIS] = Some(id);
        }
    }

    /// Starts the seat engine to move, if any and if it is not already thinking.
    fn kick(&mut self) {
        if self.paused || self.board.outcome().is_some() {
            return;
        }
        let side = self.board.side();
        let Some(name) = self.seats[side].clone() else {
            return;
        };
        if self.pending[side].is_some() {
            return;
        }
        let Some(setup) = self.setup(&name, true) else {
            return;
        };
        let go = match self.limit {
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::MoveTime(ms) => format!("go movetime {ms}"),
        };
        let watched = self.seats.iter().all(Option::is_some);
        let id = self.id();
        let job = Think {
            id,
            setup,
            position: self.position_line(),
            go,
            min_time: Duration::from_millis(if watched { self.pace_ms } else { 0 }),
            max_time: match self.limit {
                Limit::MoveTime(ms) => Some(Duration::from_millis(ms + 2000)),
                Limit::Depth(_) => None,
            },
        };
        if self.jobs[side].send(Job::Think(job)).is_ok() {
            self.pending[side] = Some(id);
            self.thinking = None;
        }
    }

    /// Handles a worker's report.
    pub fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Reviewed { id, result } => {
                let moves = match self.review.pending.take() {
                    Some((p, moves)) if p == id => moves,
                    other => {
                        self.review.pending = other;
                        return;
                    }
                };
                match result {
                    // Kept while its moves still lead the game (a take-back meanwhile drops it).
                    Ok(r) if self.board.moves().starts_with(&moves) => {
                        self.review.done = Some((r, moves));
                    }
                    Ok(_) => {}
                    Err(e) => {
                        self.message(format!("the review failed: {e}"));
                        self.review.error = Some(e.to_string());
                    }
                }
                self.version += 1;
            }
            Event::Info { role, id, line } => {
                if self.pending[role] != Some(id) {
                    return;
                }
                if role == ANALYSIS {
                    self.analysis_lines.push(parse_info(&line));
                    if self.analysis_lines.len() > ANALYSIS_LINES {
                        self.analysis_lines.remove(0);
                    }
                } else {
                    self.thinking = Some(line);
                }
                self.version += 1;
            }
            Event::Note { role, id, text } => {
                if self.pending[role] == Some(id) {
                    let who = self.role_name(role);
                    self.message(format!("{who}: {text}"));
                    self.version += 1;
                }
            }
            Event::Best {
                role,
                id,
                mv,
                think,
                depth,
                score,
            } => {
                if self.pending[role] != Some(id) {
                    return;
                }
                self.pending[role] = None;
                if role == ANALYSIS {
                    self.version += 1;
                    return;
                }
                let who = self.role_name(role);
                self.thinking = None;
                match self.board.play(&mv) {
                    Ok(_) => {
                        self.crashes = 0;
                        self.last_think_us = Some(think.as_micros() as u64);
                        self.meta.truncate(self.board.plies() - 1);
                        self.meta.push(Some(MoveMeta {
                            ms: think.as_millis() as u64,
                            depth,
                            score,
                        }));
                        self.changed(true);
                    }
                    Err(e) => {
                        self.paused = true;
                        self.message(format!(
                            "{who} played '{}', which is not legal here ({e}); the game is paused",
                            crate::core::spec::clip(&mv)
                        ));
                        self.version += 1;
                    }
                }
            }
            Event::Failed { role, id, failure } => {
                if self.pending[role] != Some(id) {
                    return;
                }
                self.pending[role] = None;
                let who = self.role_name(role);
                let msg = failure.to_string();
                if failure.refused() {
                    // Starting it again would get the same answer: nothing it plays or says is
                    // about this game until its settings change.
                    if role == ANALYSIS {
                        self.message(format!("analysis engine {who} {msg}"));
                        self.version += 1;
                        return;
                    }
                    self.thinking = None;
                    self.paused = true;
                    self.message(format!(
                        "{who} {msg}; the game is paused (change its options, then Resume)"
                    ));
                    self.changed(false);
                    return;
                }
                if role == ANALYSIS {
                    self.message(format!(
                        "analysis engine {who} failed: {msg}; it restarts with the next position"
                    ));
                    self.version += 1;
                    return;
                }
                self.thinking = None;
                self.crashes += 1;
                if self.crashes <= 1 {
                    self.message(format!("{who} failed: {msg}; restarting it"));
                } else {
                    self.paused = true;
                    self.message(format!(
                        "{who} failed again: {msg}; the game is paused (Resume restarts it)"
                    ));
                }
                self.changed(false);
            }
        }
    }

    fn role_name(&self, role: usize) -> String {
        let n = if role == ANALYSIS {
            self.analysis_engine.clone()
        } else {
            self.seats[role].clone()
        };
        format!("engine '{}'", n.unwrap_or_default())
    }

    /// `{"game": G, "options"?: {NAME: VALUE}, "position"?: P}`: a new game (seats and settings
    /// stay). Without `options` a new game of the same game keeps its variant options (`Year`),
    /// another game starts at its defaults.
    pub fn api_new(&mut self, v: &Value) -> Result<(), ApiError> {
        let kind = match str_field(v, "game")? {
            Some(g) => GameKind::from_name(g)?,
            None => self.board.kind(),
        };
        let options: Vec<(String, String)> = match v.get("options") {
            None | Some(Value::Null) if kind == self.board.kind() => self.board.variant_settings(),
            None | Some(Value::Null) => vec![],
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| match v.as_str() {
                    Some(t) => Ok((k.clone(), t.to_string())),
                    None => Err(ApiError::OptionNotString(k.clone())),
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(ApiError::OptionsNotObject),
        };
        let mut b = new_board_with(kind, &options)?;
        if let Some(p) = str_field(v, "position")? {
            b.set(p)?;
        }
        if !b.heuristics().contains(&self.heuristic.as_str()) {
            self.heuristic = b.heuristics().first().copied().unwrap_or("default").into();
        }
        // A loaded record's players do not play the new game.
        self.review.names = None;
        self.cancel_seats();
        self.board = b;
        self.board_version += 1;
        self.meta = vec![None; self.board.plies()];
        self.crashes = 0;
        self.changed(true);
        Ok(())
    }

    /// `{"position": P}`: sets the position of the current game.
    pub fn api_position(&mut self, v: &Value) -> Result<(), ApiError> {
        let p = str_field(v, "position")?.ok_or(ApiError::Missing("position"))?;
        if p.len() > MAX_POSITION {
            return Err(ApiError::PositionTooLong(MAX_POSITION));
        }
        self.board.set(p)?;
        self.review.names = None;
        self.cancel_seats();
        self.meta = vec![None; self.board.plies()];
        self.crashes = 0;
        self.changed(true);
        Ok(())
    }

    /// `{"move": M}`: a human move.
    pub fn api_move(&mut self, v: &Value) -> Result<(), ApiError> {
        let m = str_field(v, "move")?.ok_or(ApiError::Missing("move"))?;
        let side = self.board.side();
        if self.pending[side].is_some() {
            return Err(ApiError::Thinking {
                who: self.role_name(side),
            });
        }
        if self.seats[side].is_some() && !self.paused {
            return Err(ApiError::EnginesTurn);
        }
        let ms = self.turn_start.elapsed().as_millis() as u64;
        self.board.play(m)?;
        self.meta.truncate(self.board.plies() - 1);
        self.meta.push(Some(MoveMeta {
            ms,
            depth: None,
            score: None,
        }));
        self.changed(true);
        Ok(())
    }

    /// Takes back to the previous position where a human is to move (one ply when no seat is
    /// human; the game then pauses so the engines do not replay at once).
    pub fn api_undo(&mut self) -> Result<(), ApiError> {
        if self.board.plies() == 0 {
            return Err(ApiError::NothingToUndo);
        }
        self.cancel_seats();
        self.board.undo();
        if self.seats.iter().all(Option::is_some) {
            self.paused = true;
        } else {
            while self.board.plies() > 0 && self.seats[self.board.side()].is_some() {
                self.board.undo();
            }
        }
        self.meta.truncate(self.board.plies());
        self.changed(true);
        Ok(())
    }

    /// `{"seats"?: [n|null, n|null], "limit"?: {"depth": D} | {"movetime": MS},
    /// "heuristic"?: H, "pace"?: MS, "paused"?: bool}`. All checked before any is applied.
    pub fn api_settings(&mut self, v: &Value) -> Result<(), ApiError> {
        let mut seats = self.seats.clone();
        if let Some(s) = v.get("seats") {
            let a = s
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or(ApiError::Seats)?;
            for (i, x) in a.iter().enumerate() {
                seats[i] = match x {
                    Value::Null => None,
                    Value::String(n) if n == "human" => None,
                    Value::String(n) => Some(self.engine(n)?.name.clone()),
                    _ => return Err(ApiError::Seat),
                };
            }
        }
        let mut limit = self.limit;
        if let Some(l) = v.get("limit") {
            let num = |field: &'static str, lo: u64, hi: u64| -> Result<Option<u64>, ApiError> {
                l.get(field)
                    .map(|n| int_in(n, field, lo, hi, ""))
                    .transpose()
            };
            limit = match (num("depth", 1, 64)?, num("movetime", 1, 600_000)?) {
                (Some(d), None) => Limit::Depth(d),
                (None, Some(m)) => Limit::MoveTime(m),
                _ => return Err(ApiError::Limit),
            };
        }
        let heuristic = match str_field(v, "heuristic")? {
            Some(h) => self
                .board
                .heuristics()
                .iter()
                .find(|x| x.eq_ignore_ascii_case(h))
                .ok_or_else(|| ApiError::UnknownHeuristic {
                    name: h.to_string(),
                    known: self.board.heuristics().join(", "),
                })?
                .to_string(),
            None => self.heuristic.clone(),
        };
        let pace = match v.get("pace") {
            None => self.pace_ms,
            Some(p) => int_in(p, "pace", 0, 10_000, " (ms)")?,
        };
        let paused = bool_field(v, "paused")?.unwrap_or(self.paused);
        let restart = seats != self.seats || heuristic != self.heuristic || limit != self.limit;
        if restart {
            self.cancel_seats();
        }
        let heuristic_changed = heuristic != self.heuristic;
        self.seats = seats;
        self.limit = limit;
        self.heuristic = heuristic;
        self.pace_ms = pace;
        if self.paused && !paused {
            self.crashes = 0;
        }
        self.paused = paused;
        if heuristic_changed && self.analysis_engine.is_some() {
            self.restart_analysis();
        }
        self.changed(false);
        Ok(())
    }

    /// `{}`: the thinking seat engine moves now (`stop`).
    pub fn api_stop(&mut self) -> Result<(), ApiError> {
        let side = self.board.side();
        let id = self.pending[side].ok_or(ApiError::NotThinking)?;
        let _ = self.jobs[side].send(Job::Stop(id));
        Ok(())
    }

    /// `{"engine": N | null}`: the analysis engine (null: off).
    pub fn api_analysis(&mut self, v: &Value) -> Result<(), ApiError> {
        self.analysis_engine = match str_field(v, "engine")? {
            None | Some("") => None,
            Some(n) => Some(self.engine(n)?.name.clone()),
        };
        self.restart_analysis();
        self.version += 1;
        Ok(())
    }

    /// `{"run"?: true, "auto"?: bool}`: review the game now; review every move as it is played.
    pub fn api_review(&mut self, v: &Value) -> Result<(), ApiError> {
        let auto = bool_field(v, "auto")?;
        let run = bool_field(v, "run")?.unwrap_or(false);
        if let Some(a) = auto {
            self.review.auto = a;
        }
        if run || auto == Some(true) {
            self.start_review();
        }
        self.version += 1;
        Ok(())
    }

    /// `{"ply": N | null}`: show the position after N moves (browsing a review), or the game.
    pub fn api_view(&mut self, v: &Value) -> Result<(), ApiError> {
        self.review.view = match v.get("ply") {
            None | Some(Value::Null) => None,
            Some(p) => Some(
                p.as_u64()
                    .map(|n| n as usize)
                    .filter(|n| *n <= self.board.plies())
                    .ok_or(ApiError::Ply(self.board.plies()))?,
            ),
        };
        self.version += 1;
        Ok(())
    }

    /// `{"record": LINE}`: loads a game from a records line (`tablero match --records`, an
    /// annotated one from `tablero analyse`, or this page's own): its game, opening and moves,
    /// its players' names and its review when it has one. The game is paused so that no seat
    /// engine plays on in it.
    pub fn api_load(&mut self, v: &Value) -> Result<(), ApiError> {
        let text = str_field(v, "record")?.ok_or(ApiError::Missing("record"))?;
        let line: Value = serde_json::from_str(text.trim()).map_err(ApiError::RecordJson)?;
        let rec = GameRecord::from_json(&line).ok_or(ApiError::NotARecord)?;
        let kind = match line.get("variant").and_then(Value::as_str) {
            Some(g) => GameKind::from_name(g)?,
            None => self.board.kind(),
        };
        let mut b = new_board(kind);
        let all: Vec<&str> = rec
            .opening_moves
            .iter()
            .map(String::as_str)
            .chain(rec.outcome.moves.iter().map(|m| m.mv.as_str()))
            .collect();
        let text = match rec.opening_base.as_str() {
            "startpos" => format!("startpos moves {}", all.join(" ")),
            base => format!("{base} moves {}", all.join(" ")),
        };
        b.set(&text).map_err(ApiError::RecordMoves)?;
        b.set_opening_len(rec.opening_moves.len());
        if !b.heuristics().contains(&self.heuristic.as_str()) {
            self.heuristic = b.heuristics().first().copied().unwrap_or("default").into();
        }
        self.cancel_seats();
        self.paused = true;
        self.board = b;
        self.board_version += 1;
        self.meta = vec![None; self.board.plies()];
        let name = |k: &str| {
            line.get(k)
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string()
        };
        self.review.names = Some([name("first"), name("second")]);
        let reviewed = crate::review::page::annotated(&line).and_then(|a| {
            let plies: Option<Vec<_>> = a.plies.into_iter().collect();
            Some(crate::review::GameReview {
                plies: plies?,
                players: a.players?,
            })
        });
        self.review.done = None;
        self.review.view = None;
        self.crashes = 0;
        self.changed(true);
        // A record with its review: shown as it is (after `changed`, which would drop it).
        if let Some(r) = reviewed.filter(|r| r.plies.len() == rec.outcome.moves.len()) {
            self.review.done = Some((r, self.board.moves().to_vec()));
            self.review.pending = None;
        }
        self.message(format!(
            "loaded game {} ({} moves)",
            rec.index,
            self.board.plies()
        ));
        Ok(())
    }

    /// The review as the page reads it (`review.js`).
    fn review_json(&self) -> Value {
        let open = self.board.opening_len();
        let (plies, players) = match &self.review.done {
            Some((r, _)) => (
                r.plies
                    .iter()
                    .map(crate::review::page::ply_json)
                    .collect::<Vec<_>>(),
                Some(crate::review::page::players_json(
                    &crate::review::page::Annotated {
                        plies: vec![],
                        players: Some(r.players.clone()),
                        error: None,
                    },
                )),
            ),
            None => (vec![], None),
        };
        json!({
            "auto": self.review.auto,
            "running": self.review.pending.is_some(),
            "error": self.review.error,
            "opening": open,
            "plies": plies,
            "players": players,
            "names": self.player_names(),
            "sides": self.board.sides(),
            "view": self.review.view,
        })
    }

    /// The game as a referee record line (`tablero match --records` schema); finished games only.
    pub fn api_record(&self) -> Result<String, ApiError> {
        let winner = match self.board.outcome() {
            Some(Outcome::Win(s)) => Some(s),
            Some(Outcome::Draw) => None,
            None => return Err(ApiError::NotFinished),
        };
        let open = self.board.opening_len();
        let moves: Vec<MoveRecord> = self.board.moves()[open..]
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let meta = self.meta.get(open + i).cloned().flatten();
                MoveRecord {
                    mv: m.clone(),
                    time_ms: meta.as_ref().map_or(0, |m| m.ms),
                    depth: meta.as_ref().and_then(|m| m.depth),
                    score: meta.and_then(|m| m.score),
                }
            })
            .collect();
        let rec = GameRecord {
            index: 0,
            first: 0,
            opening_base: self.board.base().to_string(),
            opening_moves: self.board.moves()[..open].to_vec(),
            outcome: GameOutcome {
                winner,
                reason: Reason::Normal,
                detail: String::new(),
                moves,
                junk: 0,
            },
        };
        let names = self.player_names();
        Ok(rec
            .to_json_named(self.board.kind().name(), [&names[0], &names[1]])
            .to_string())
    }

    /// The whole state for the page. The static board scene is included only when the page's
    /// `board_known` differs (it changes with the game).
    pub fn state_json(&self, board_known: u64) -> Value {
        let outcome = self.board.outcome();
        let side = self.board.side();
        let best = self
            .analysis_lines
            .iter()
            .rev()
            .find_map(|l| l["pv"].as_str().and_then(|pv| pv.split_whitespace().next()))
            .and_then(|m| {
                self.board
                    .target_of(m)
                    .map(|t| json!({"move": m, "target": t.target, "choice": t.choice}))
            });
        let status = match outcome {
            Some(Outcome::Win(s)) => format!(
                "{} — {} wins",
                result_text(outcome),
                if s == Side::First { "first" } else { "second" }
            ),
            Some(Outcome::Draw) => format!("{} — draw", result_text(outcome)),
            None => format!(
                "{} to move{}",
                if side == 0 { "first" } else { "second" },
                match (&self.seats[side], self.pending[side].is_some()) {
                    (Some(n), true) => format!(" ({n} is thinking)"),
                    (Some(n), false) if self.paused => format!(" ({n}, paused)"),
                    (Some(n), false) => format!(" ({n})"),
                    (None, _) => " (human)".to_string(),
                }
            ),
        };
        let thinking_role = (0..2).find(|r| self.pending[*r].is_some());
        json!({
            "version": self.version,
            "board_version": self.board_version,
            "game": self.board.kind().name(),
            "mirror": self.board.mirror(),
            "games": GameKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>(),
            "engines": self.offered.iter().map(|o| o.name.as_str()).collect::<Vec<_>>(),
            "seats": self.seats,
            "limit": match self.limit {
                Limit::Depth(d) => json!({"depth": d}),
                Limit::MoveTime(m) => json!({"movetime": m}),
            },
            "heuristic": self.heuristic,
            "heuristics": self.board.heuristics(),
            "variant": self.board.variant(),
            "pace": self.pace_ms,
            "paused": self.paused,
            "base": self.board.base(),
            "files": self.board.position_files(),
            "moves": self.board.moves(),
            "fen": self.board.fen(),
            "side": side,
            "result": outcome.map(|o| result_text(Some(o))),
            "status": status,
            "view": match self.review.view {
                Some(p) => {
                    let open = self.board.opening_len();
                    let better = p
                        .checked_sub(open + 1)
                        .and_then(|k| self.review.done.as_ref()?.0.plies.get(k))
                        .filter(|r| r.mark.is_some())
                        .map(|r| r.best.as_str());
                    self.board.view_at(p, better, board_known != self.board_version)
                }
                None => self.board.view(board_known != self.board_version),
            },
            "review": self.review_json(),
            "thinking": thinking_role.map(|r| json!({
                "seat": r,
                "engine": self.seats[r],
                "line": self.thinking.as_deref().map(parse_info),
            })),
            "analysis": {
                "engine": self.analysis_engine,
                "running": self.pending[ANALYSIS].is_some(),
                "lines": self.analysis_lines,
                "best": best,
            },
            "messages": self.messages.iter().map(|(n, t)| json!({"n": n, "text": t})).collect::<Vec<_>>(),
            "last_think_us": self.last_think_us,
        })
    }
}
