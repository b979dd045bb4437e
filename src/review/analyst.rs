//! Who values the positions of a review: tablero itself in-process ([`InProcess`]: the search
//! of `core::search`, plus the registry's exact solvers within a node budget), or
//! any engine speaking the protocol ([`Remote`]: a program, a built-in player, a TCP server, a
//! course Mancala bot), asked `go …` and `go … searchmoves <move>`.
//!
//! Every query is a pure function of the position, the options and the limits when the limits
//! are depth or nodes: the search starts each query with an empty table in effect, and the
//! solvers start each solve from an empty table, so annotations never depend on the order in
//! which games or positions were analysed.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::value::{Value, Wdl};
use crate::core::game::MoveError;
use crate::core::game::{Game, WeightOverrides};
use crate::core::search::{Limits, SearchOptions, Searcher};
use crate::games::GameKind;
use crate::referee::conn::{Answer, Conn, EngineSpec, Recv, StartError, deadline_after, refusal};
use crate::solver::kalahdb::{self, Rules};
use crate::solver::registry::Solvers;
use crate::solver::{self, Budget};

/// What a search found: the best move (of the moves searched) and its value for the side to
/// move, with the depth reached (`None` when the engine did not say).
#[derive(Clone, Debug, PartialEq)]
pub struct Found<M> {
    pub best: M,
    pub value: Value,
    pub depth: Option<u32>,
}

/// Why an analysing engine could not answer: the review cannot go on with it. The texts are
/// what `tablero analyse` prints after "engine '…' failed at game … ply …: ".
#[derive(Debug, thiserror::Error)]
pub enum AnalystError {
    /// The engine could not be started or reached.
    #[error("{0}")]
    Start(#[from] StartError),
    /// No `awaited` line within the patience.
    #[error("no '{0}' in time")]
    Silent(&'static str),
    /// No `bestmove` within the patience (ms).
    #[error("no bestmove within {0} ms")]
    NoBestmove(u128),
    /// The engine's output closed before `awaited`.
    #[error("exited before {0}")]
    Exited(&'static str),
    /// The engine refused its `setoption`s (its error line).
    #[error("refused its settings: {0}")]
    RefusedSettings(String),
    /// The engine refused `ucinewgame` (its error line).
    #[error("refused: {0}")]
    RefusedNewGame(String),
    /// The engine refused the `position` or the `go` (its error line).
    #[error("refused the position or the go: {0}")]
    RefusedQuery(String),
    /// Writing to the engine failed.
    #[error("input closed (engine gone)")]
    InputClosed,
    /// `bestmove (none)` or no move at all.
    #[error("empty bestmove")]
    EmptyBestmove,
    /// A `bestmove` the rules refuse (clipped).
    #[error("bestmove '{text}' is illegal: {why}")]
    IllegalBestmove { text: String, why: MoveError },
    /// Another move than the one `searchmoves` allowed.
    #[error(
        "answered bestmove {answered} to 'go … searchmoves {asked}' (searchmoves not supported?)"
    )]
    IgnoredSearchmoves { answered: String, asked: String },
    /// No `score` in the `info` lines before `bestmove` (clipped).
    #[error("no score before 'bestmove {0}'")]
    NoScore(String),
    /// tablero's own search returned no move (a position without legal moves).
    #[error("the search found no move")]
    NoMove,
}

/// An analysing engine for game `G`.
pub trait Analyst<G: Game> {
    /// Called before each game.
    fn new_game(&mut self) -> Result<(), AnalystError>;
    /// The proven value of `s` for its side to move and an optimal move, when a solver proves
    /// it within its budget (`None`: no solver for this game, too large, or out of budget).
    fn prove(&mut self, s: &G) -> Option<(Value, G::Move)>;
    /// Searches `s` (`position` is its protocol line, `position startpos moves …`) within the
    /// limits, only move `only` at the root when given. `Err`: the engine failed (it crashed,
    /// timed out or answered nonsense): the analysis cannot go on with it.
    fn search(
        &mut self,
        s: &G,
        position: &str,
        only: Option<G::Move>,
    ) -> Result<Found<G::Move>, AnalystError>;
}

/// The limits of every query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
}

impl QueryLimits {
    /// `go depth 6`, `go nodes 100000 movetime 50`, …
    pub fn go_line(&self) -> String {
        let mut s = "go".to_string();
        if let Some(d) = self.depth {
            s += &format!(" depth {d}");
        }
        if let Some(n) = self.nodes {
            s += &format!(" nodes {n}");
        }
        if let Some(m) = self.movetime_ms {
            s += &format!(" movetime {m}");
        }
        s
    }
}

/// The exact solvers of the registry (`solver::registry`) within a node budget per solve (0:
/// none).
pub struct Prover {
    nodes: u64,
    /// Try positions beyond `go`'s size caps too (`analyse --solver-all`).
    any_size: bool,
    solvers: Solvers,
}

impl Prover {
    /// Solvers with `nodes` nodes per solve and `hash_mib` MiB of table each.
    pub fn new(nodes: u64, hash_mib: usize) -> Prover {
        Prover {
            nodes,
            any_size: false,
            solvers: Solvers::new(hash_mib),
        }
    }

    /// Also try the positions `go` never tries within a move's budget (Connect Four with more
    /// than 34 empty cells, Kalah with more than 40 seeds in pits): a review with a large node
    /// budget can prove a whole Kalah(6,4) game, each of them costing the whole budget when
    /// it does not.
    pub fn any_size(mut self, yes: bool) -> Prover {
        self.any_size = yes;
        self
    }

    /// The seed count of the Kalah endgame database a review of `kind` would use (0: none); it
    /// changes which positions are proven within the budget, so it is part of the settings.
    pub fn kalah_db_seeds(kind: GameKind, config: &[(String, i64)]) -> usize {
        if kind != GameKind::Mancala {
            return 0;
        }
        let get = |n: &str| {
            config
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(n))
                .map(|(_, v)| *v)
        };
        let (pits, seeds) = (get("Pits").unwrap_or(6), get("Seeds").unwrap_or(4));
        let total = (2 * pits * seeds).max(0) as usize;
        kalahdb::cached(pits.max(0) as usize, total, Rules::Course).map_or(0, |d| d.seeds())
    }

    /// The proven value of `s` for its side to move and an optimal move (its notation): every
    /// solve from an empty table, so that it depends on `s` alone.
    pub fn prove<G: Game>(&mut self, s: &G) -> Option<(Value, String)> {
        if self.nodes == 0 || s.outcome().is_some() {
            return None;
        }
        let budget = Budget {
            nodes: Some(self.nodes),
            ..Budget::default()
        };
        let v = self.solvers.verdict(s, &budget, self.any_size)?;
        let wdl = match v.wdl {
            solver::Wdl::Win => Wdl::Win,
            solver::Wdl::Draw => Wdl::Draw,
            solver::Wdl::Loss => Wdl::Loss,
        };
        let value = match v.plies {
            Some(plies) if wdl != Wdl::Draw => Value::Exact {
                wdl,
                plies: Some(plies),
            },
            _ => Value::exact(wdl),
        };
        Some((value, v.best))
    }
}

/// tablero in-process: its search with the given options, and the solvers.
pub struct InProcess<G: Game> {
    searcher: Searcher<G>,
    options: SearchOptions,
    limits: Limits,
    prover: Prover,
    stop: AtomicBool,
    /// The position (state string) whose best move the table was last cleared for.
    table_of: Option<String>,
}

impl<G: Game> InProcess<G> {
    /// `heuristic` indexes `G::HEURISTICS`; `weights` are the default heuristic's overrides.
    pub fn new(
        heuristic: usize,
        weights: WeightOverrides,
        limits: QueryLimits,
        hash_mib: usize,
        solver_nodes: u64,
        solver_all: bool,
    ) -> Self {
        InProcess {
            searcher: Searcher::new(hash_mib),
            options: SearchOptions {
                heuristic,
                weights,
                ..SearchOptions::default()
            },
            limits: Limits {
                depth: limits.depth,
                nodes: limits.nodes,
                movetime: limits.movetime_ms.map(Duration::from_millis),
                ..Limits::default()
            },
            prover: Prover::new(solver_nodes, hash_mib).any_size(solver_all),
            stop: AtomicBool::new(false),
            table_of: None,
        }
    }

    fn run(&mut self, s: &G, only: Option<G::Move>) -> Result<Found<G::Move>, AnalystError> {
        let only = only.map(|m| [m]);
        let r = self.searcher.search_moves(
            s,
            only.as_ref().map(|m| &m[..]),
            self.options,
            self.limits,
            &self.stop,
            |_| {},
        );
        let best = r.best_move.ok_or(AnalystError::NoMove)?;
        Ok(Found {
            best,
            value: Value::from_score(r.score, r.proven),
            depth: (r.depth > 0).then_some(r.depth),
        })
    }
}

impl<G: Game> Analyst<G> for InProcess<G> {
    fn new_game(&mut self) -> Result<(), AnalystError> {
        Ok(())
    }

    fn prove(&mut self, s: &G) -> Option<(Value, G::Move)> {
        let (v, best) = self.prover.prove(s)?;
        Some((v, s.parse_move(&best).ok()?))
    }

    /// Every answer is a function of the position and the query alone — not of the games or
    /// positions searched before, which would make a review depend on `--concurrency`, on
    /// `--resume` and on the browser board's order of questions: each position starts from an
    /// empty table with its best-move search, and a search of one move reuses only that
    /// table (searching the best move first when the table holds another position's).
    fn search(
        &mut self,
        s: &G,
        _position: &str,
        only: Option<G::Move>,
    ) -> Result<Found<G::Move>, AnalystError> {
        let fen = s.format_fen();
        if only.is_none() || self.table_of.as_deref() != Some(fen.as_str()) {
            self.searcher.clear();
            self.table_of = Some(fen);
            if only.is_some() {
                self.run(s, None)?;
            }
        }
        self.run(s, only)
    }
}

/// An engine speaking the protocol, started once and kept for every game.
pub struct Remote {
    spec: EngineSpec,
    kind: GameKind,
    /// `setoption`s: the variant's, then the user's.
    options: Vec<(String, String)>,
    go: String,
    /// How long one answer may take.
    patience: Duration,
    conn: Option<Conn>,
    /// The position whose best move was searched since the last `ucinewgame`.
    table_of: Option<String>,
}

impl Remote {
    pub fn new(
        spec: EngineSpec,
        kind: GameKind,
        options: Vec<(String, String)>,
        limits: QueryLimits,
        timeout: Duration,
    ) -> Remote {
        // A movetime limit is the engine's to keep; the referee's patience adds a margin.
        let patience = match limits.movetime_ms {
            Some(ms) => Duration::from_millis(ms) + timeout.min(Duration::from_secs(5)),
            None => timeout,
        };
        Remote {
            spec,
            kind,
            options,
            go: limits.go_line(),
            patience,
            conn: None,
            table_of: None,
        }
    }

    fn conn(&mut self) -> Result<&mut Conn, AnalystError> {
        let c = match self.conn.take() {
            Some(c) => c,
            None => self.start()?,
        };
        Ok(self.conn.insert(c))
    }

    /// Starts the engine: `uci`, the variant's and the user's `setoption`s, `isready`.
    fn start(&self) -> Result<Conn, AnalystError> {
        let mut c = Conn::start(&self.spec, self.kind)?;
        c.send("uci");
        match c.wait_for("uciok", deadline_after(self.patience)) {
            Recv::Line(_) => {}
            Recv::Timeout => return Err(AnalystError::Silent("uciok")),
            Recv::Closed => return Err(AnalystError::Exited("'uciok'")),
        }
        c.send(&format!(
            "setoption name UCI_Variant value {}",
            self.kind.name()
        ));
        for (n, v) in &self.options {
            c.send(&format!("setoption name {n} value {v}"));
        }
        // An engine that refuses its settings would analyse something else than asked.
        c.send("isready");
        match c.answer("readyok", deadline_after(self.patience)) {
            Answer::Line(_) => Ok(c),
            Answer::Refused(line) => {
                c.close();
                Err(AnalystError::RefusedSettings(line))
            }
            Answer::Timeout => Err(AnalystError::Silent("readyok")),
            Answer::Closed => Err(AnalystError::Exited("'readyok'")),
        }
    }

    /// Drops the connection after a failure, so that a later use starts the engine again.
    fn fail<T>(&mut self, why: AnalystError) -> Result<T, AnalystError> {
        if let Some(c) = self.conn.take() {
            c.close();
        }
        Err(why)
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        if let Some(c) = self.conn.take() {
            c.close();
        }
    }
}

impl<G: Game> Analyst<G> for Remote {
    fn new_game(&mut self) -> Result<(), AnalystError> {
        self.fresh()
    }

    fn prove(&mut self, _s: &G) -> Option<(Value, G::Move)> {
        None
    }

    /// As in-process (see [`InProcess`]'s `search`): `ucinewgame` before each position's
    /// best-move search, so that a deterministic engine's answers depend on the position
    /// and the query alone.
    fn search(
        &mut self,
        s: &G,
        position: &str,
        only: Option<G::Move>,
    ) -> Result<Found<G::Move>, AnalystError> {
        let fen = s.format_fen();
        if only.is_none() || self.table_of.as_deref() != Some(fen.as_str()) {
            self.fresh()?;
            self.table_of = Some(fen);
            if only.is_some() {
                self.ask(s, position, None)?;
            }
        }
        self.ask(s, position, only)
    }
}

impl Remote {
    /// `ucinewgame`, answered by `readyok`.
    fn fresh(&mut self) -> Result<(), AnalystError> {
        let patience = self.patience;
        let r = (|| {
            let c = self.conn()?;
            c.send("ucinewgame");
            c.send("isready");
            match c.answer("readyok", deadline_after(patience)) {
                Answer::Line(_) => Ok(()),
                Answer::Refused(line) => Err(AnalystError::RefusedNewGame(line)),
                Answer::Timeout => Err(AnalystError::Silent("readyok")),
                Answer::Closed => Err(AnalystError::Exited("'readyok'")),
            }
        })();
        match r {
            Ok(()) => Ok(()),
            Err(e) => self.fail(e),
        }
    }

    fn ask<G: Game>(
        &mut self,
        s: &G,
        position: &str,
        only: Option<G::Move>,
    ) -> Result<Found<G::Move>, AnalystError> {
        let mut go = self.go.clone();
        if let Some(m) = only {
            go += &format!(" searchmoves {}", s.format_move(m));
        }
        let patience = self.patience;
        let c = match self.conn() {
            Ok(c) => c,
            Err(e) => return self.fail(e),
        };
        if !(c.send(position) && c.send(&go)) {
            return self.fail(AnalystError::InputClosed);
        }
        let deadline = deadline_after(patience);
        let (mut value, mut depth) = (None, None);
        let best = loop {
            match c.recv(deadline) {
                Recv::Line(l) => {
                    if let Some(r) = refusal(&l) {
                        return self.fail(AnalystError::RefusedQuery(r.to_string()));
                    }
                    let t: Vec<&str> = l.split_whitespace().collect();
                    match t.first().copied() {
                        Some("bestmove") => break t.get(1).map(|m| m.to_string()),
                        Some("info") => {
                            let at = |k: &str| t.iter().position(|x| *x == k);
                            if let Some(i) = at("score")
                                && let (Some(kind), Some(n)) = (t.get(i + 1), t.get(i + 2))
                                && !t.get(i + 3).is_some_and(|b| b.ends_with("bound"))
                            {
                                value = Value::from_protocol(kind, n).or(value);
                            }
                            if let Some(i) = at("depth")
                                && let Some(d) = t.get(i + 1).and_then(|d| d.parse().ok())
                            {
                                depth = Some(d);
                            }
                        }
                        _ => {}
                    }
                }
                Recv::Timeout => {
                    return self.fail(AnalystError::NoBestmove(patience.as_millis()));
                }
                Recv::Closed => return self.fail(AnalystError::Exited("bestmove")),
            }
        };
        let text = match best {
            Some(b) if b != "(none)" => b,
            _ => return self.fail(AnalystError::EmptyBestmove),
        };
        let m = match s.parse_move(&text) {
            Ok(m) => m,
            Err(why) => {
                let text = clip(&text);
                return self.fail(AnalystError::IllegalBestmove { text, why });
            }
        };
        if let Some(o) = only
            && o != m
        {
            return self.fail(AnalystError::IgnoredSearchmoves {
                answered: clip(&text),
                asked: s.format_move(o),
            });
        }
        let Some(value) = value else {
            return self.fail(AnalystError::NoScore(clip(&text)));
        };
        Ok(Found {
            best: m,
            value,
            depth,
        })
    }
}

fn clip(s: &str) -> String {
    crate::core::spec::clip(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::spec::default_config;
    use crate::games::connect4::Connect4;
    use crate::games::enraya::Enraya;
    use crate::games::mancala::Mancala;

    /// A shell engine that answers `uci` and `isready`, and `go` with `reply` (lines separated
    /// by `;`); `searchmoves` is ignored, as an engine that does not support it would.
    fn shell_engine(reply: &str) -> Remote {
        let script = format!(
            "while read -r l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
             go*) {reply};; esac; done"
        );
        let spec = EngineSpec::Command(vec!["sh".into(), "-c".into(), script]);
        let limits = QueryLimits {
            depth: Some(2),
            ..QueryLimits::default()
        };
        Remote::new(
            spec,
            GameKind::Connect4,
            vec![],
            limits,
            Duration::from_secs(10),
        )
    }

    #[test]
    fn a_remote_engine_that_answers_wrong_is_told_apart_by_kind() {
        let cfg = default_config::<Connect4>().unwrap();
        let s = Connect4::from_moves("44", &cfg).unwrap();
        let pos = "position startpos moves 4 4";
        let search = |reply: &str, only: Option<&str>| {
            let mut e = shell_engine(reply);
            let only = only.map(|m| s.parse_move(m).unwrap());
            Analyst::<Connect4>::search(&mut e, &s, pos, only)
        };
        let good = search("echo 'info depth 2 score cp 7'; echo 'bestmove 3'", None).unwrap();
        assert_eq!(
            (s.format_move(good.best), good.depth),
            ("3".into(), Some(2))
        );
        let cases: [(&str, Option<&str>, &str); 5] = [
            (
                "echo 'info depth 2 score cp 7'; echo 'bestmove 9'",
                None,
                "bestmove '9' is illegal: column 9 is not in 1..7",
            ),
            ("echo 'bestmove 3'", None, "no score before 'bestmove 3'"),
            ("echo 'bestmove (none)'", None, "empty bestmove"),
            (
                "echo 'info depth 2 score cp 7'; echo 'bestmove 3'",
                Some("5"),
                "answered bestmove 3 to 'go … searchmoves 5' (searchmoves not supported?)",
            ),
            (
                "echo 'info string error: go: no position'",
                None,
                "refused the position or the go: info string error: go: no position",
            ),
        ];
        for (reply, only, want) in cases {
            let e = search(reply, only).unwrap_err();
            assert_eq!(e.to_string(), want, "{reply}");
        }
        let e = search("exit 0", None).unwrap_err();
        assert!(matches!(e, AnalystError::Exited("bestmove")), "{e}");
        // A program that does not exist fails to start, and says which.
        let mut gone = Remote::new(
            EngineSpec::Command(vec!["/nonexistent/engine".into()]),
            GameKind::Connect4,
            vec![],
            QueryLimits::default(),
            Duration::from_secs(5),
        );
        let e = Analyst::<Connect4>::new_game(&mut gone).unwrap_err();
        assert!(matches!(e, AnalystError::Start(_)), "{e}");
        assert!(
            e.to_string()
                .starts_with("cannot start '/nonexistent/engine'"),
            "{e}"
        );
    }

    #[test]
    fn connect4_distances_match_the_solver_line() {
        // x (to move, 8 stones played) wins at once with column 4: one ply.
        let cfg = default_config::<Connect4>().unwrap();
        let s = Connect4::from_moves("11223376", &cfg).unwrap();
        let mut p = Prover::new(1_000_000, 8);
        let (v, best) = p.prove(&s).unwrap();
        assert_eq!((v.to_string(), best.as_str()), ("win 1".to_string(), "4"));
        // After x's 5 instead, o blocks nothing at once: the solver still proves a result,
        // and its distance counts the plies to the end of the solver's own line.
        let s2 = Connect4::from_moves("112233765", &cfg).unwrap();
        let (v2, b2) = p.prove(&s2).unwrap();
        assert!(v2.wdl().is_some() && s2.parse_move(&b2).is_ok());
        // Too many empty cells: not tried.
        assert!(p.prove(&Connect4::from_moves("4", &cfg).unwrap()).is_none());
        // No budget, no solver.
        assert!(Prover::new(0, 8).prove(&s).is_none());
    }

    #[test]
    fn solver_all_tries_positions_beyond_the_caps_of_go() {
        // Six stones, 36 empty cells (go's cap is 34), not in the opening book: x (1, 2, 3 on
        // the bottom row) wins at once with column 4.
        let cfg = default_config::<Connect4>().unwrap();
        let s = Connect4::from_moves("172737", &cfg).unwrap();
        assert!(crate::solver::c4book::lookup(&s).is_none());
        assert!(Prover::new(1_000_000, 8).prove(&s).is_none());
        let (v, best) = Prover::new(1_000_000, 8).any_size(true).prove(&s).unwrap();
        assert_eq!((v.to_string(), best.as_str()), ("win 1".to_string(), "4"));
        // Kalah(6, 4) with 44 seeds in pits (go's cap is 40), one move from the end: South's
        // last seed goes home, its pits are empty, North banks its 43 and wins.
        let m = Mancala::parse_fen(
            "0,0,0,0,0,1:4/8,7,7,7,7,7:0 S",
            &default_config::<Mancala>().unwrap(),
        )
        .unwrap();
        assert!(Prover::new(1_000_000, 8).prove(&m).is_none());
        let (v, best) = Prover::new(1_000_000, 8).any_size(true).prove(&m).unwrap();
        assert_eq!((v.wdl(), best.as_str()), (Some(Wdl::Loss), "1"));
    }

    #[test]
    fn kalah_solves_small_boards_and_respects_the_budget() {
        let cfg = Mancala::configure(&[3, 2]).unwrap();
        let s = Mancala::start(&cfg);
        let mut p = Prover::new(1_000_000, 8);
        let (v, _) = p.prove(&s).unwrap();
        assert!(v.wdl().is_some());
        // Kalah(6, 3): 36 seeds, far more than a few nodes.
        let big = Mancala::start(&Mancala::configure(&[6, 3]).unwrap());
        let mut tiny = Prover::new(10, 8);
        assert!(tiny.prove(&big).is_none(), "a tiny budget proves nothing");
    }

    #[test]
    fn enraya_is_proven_through_the_registry() {
        // 3 × 3, N = 3: x to move wins at once at 0,2 (x on 0,0 and 0,1; o on 1,0 and 1,1).
        let cfg = crate::games::enraya::Config {
            rows: 3,
            cols: 3,
            n: 3,
        };
        let s = Enraya::parse_fen("xx1/oo1/3 x 1 0 4", &cfg).unwrap();
        let (v, best) = Prover::new(1_000_000, 8).prove(&s).unwrap();
        assert_eq!((v.to_string(), best.as_str()), ("win 1".to_string(), "0,2"));
    }

    #[test]
    fn in_process_search_and_searchmoves() {
        let cfg = default_config::<Connect4>().unwrap();
        let s = Connect4::from_moves("445566", &cfg).unwrap();
        let limits = QueryLimits {
            depth: Some(4),
            ..QueryLimits::default()
        };
        let mut a = InProcess::<Connect4>::new(0, WeightOverrides::default(), limits, 1, 0, false);
        // x wins at once in column 3 or 7.
        let f = a.search(&s, "", None).unwrap();
        assert!([2, 6].contains(&f.best), "{f:?}");
        assert_eq!(f.value.to_string(), "win 1");
        // Only column 1 searched: its own value, which is not an immediate win.
        let g = a.search(&s, "", Some(0)).unwrap();
        assert_eq!(g.best, 0);
        assert!(matches!(g.value, Value::Cp(_) | Value::Exact { .. }));
        assert_ne!(g.value, f.value);
    }
}
