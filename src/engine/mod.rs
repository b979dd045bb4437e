//! The engine: one game's position, options and search behind a small non-blocking API —
//! `set_option`, `set_position`, `go` (with a [`Listener`] that hears every `info` and the
//! `bestmove`), `stop`, `wait` — that the protocol, the built-in players and every in-process
//! user drive. It owns the search thread, the choice between the exact solver and the heuristic
//! search, and the options' values and ranges; it formats nothing: [`Info`] events are values,
//! and the protocol turns them into lines. Time management lives in [`time`].
//!
//! The game is chosen at run time (`UCI_Variant`); underneath, each game's engine is
//! monomorphised ([`search::EngineOf`]) behind the object-safe [`search::GameEngine`].

pub mod error;
pub mod options;
pub mod search;
pub mod time;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::core::game::{ConfigError, Game, WeightOverrides};
use crate::core::search::{Algorithm, SearchOptions};
use crate::core::spec::{self, StartSpec, Token};
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::solver::exact::Mode;

pub use error::{Error, JobError};
pub use options::{OptionSpec, OptionValue};
use search::GameEngine;

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;
/// Largest accepted `Hash`, in MiB.
pub const MAX_HASH_MIB: i64 = 16384;
/// Largest accepted `MultiPV`: more than any position of any game has moves (the search's
/// move lists hold at most 256), so "every move" is always reachable.
pub const MAX_MULTIPV: i64 = 256;

/// Limits of `go`. Times are milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `searchmoves m1 m2 …`: only these root moves are searched (checked against the
    /// position); empty: all.
    pub searchmoves: Vec<Token>,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The heuristic's units (or an exact value in them).
    Cp(i32),
    /// A win (positive) or loss (negative) that many plies from now.
    Mate(i32),
}

/// What a search reports while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Info {
    /// A finished iteration of the heuristic search, one event per reported line.
    Iteration {
        depth: u32,
        /// The line's number (1-based) when more than one line is reported (`MultiPV` > 1).
        multipv: Option<usize>,
        score: Score,
        nodes: u64,
        nps: u128,
        time_ms: u128,
        hashfull: u32,
        /// The principal variation in notation.
        pv: Vec<String>,
    },
    /// A result the exact solver proved: the pv runs to the end of the game.
    Proof {
        score: Score,
        nodes: u64,
        nps: u128,
        time_ms: u128,
        pv: Vec<String>,
        /// What was proved, in words.
        detail: String,
    },
    /// A remark in words.
    Text(String),
}

/// Who hears a search: every [`Info`] as it comes, then the best move (`None`: there is no
/// move, the game is over). Called from the search thread.
pub trait Listener: Send + Sync {
    fn info(&self, info: &Info);
    fn bestmove(&self, best: Option<&str>);
}

/// Work for a background thread (perft, solve): it runs until done or until the flag is
/// raised, handing each line of its report to the callback; `Err` when it cannot give a
/// result, saying whether it was stopped or refused.
pub type Job =
    Box<dyn FnOnce(Arc<AtomicBool>, &(dyn Fn(&str) + Sync)) -> Result<(), JobError> + Send>;

/// How an engine is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// `Hash` at the start, MiB.
    pub hash_mib: usize,
    /// The largest `Hash` accepted, MiB ([`MAX_HASH_MIB`], or less where strangers may set it).
    pub max_hash_mib: i64,
    /// Does `position file` read files from this machine's disk? Off where strangers send the
    /// commands (`tablero serve`): a file's errors quote its lines.
    pub files: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash_mib: DEFAULT_HASH_MIB,
            max_hash_mib: MAX_HASH_MIB,
            files: true,
        }
    }
}

/// The engine of one session: the current game, its engine and every option.
pub struct Engine {
    kind: GameKind,
    game: Result<Box<dyn GameEngine>, ConfigError>,
    max_hash_mib: i64,
    hash_mib: usize,
    algorithm: Algorithm,
    heuristic: String,
    /// `MultiPV`: root moves reported with exact scores by `go`.
    multipv: u32,
    /// `Move Overhead`, ms.
    move_overhead: u64,
    /// `Solver`: when `go` tries the exact solver first.
    solver: Mode,
    /// Variant option values by lower-case name (shared by the games that have the option).
    variant_values: BTreeMap<String, i64>,
    /// Heuristic weights by lower-case option name (each game has its own names, so a value set
    /// for one game waits there until that game is selected).
    weight_values: BTreeMap<String, i32>,
    /// The last accepted position (`None`: the start position), which `solve` replays.
    position: Option<(StartSpec, Vec<Token>)>,
    /// Why the last `position` was refused, while no legal one has followed: every command
    /// that needs a position is refused meanwhile.
    refused: Option<String>,
}

struct MakeEngine<'a> {
    values: &'a BTreeMap<String, i64>,
    hash_mib: usize,
}

impl GameVisitor for MakeEngine<'_> {
    type Output = Result<Box<dyn GameEngine>, ConfigError>;
    fn visit<G: Game>(self) -> Self::Output {
        let config = spec::configure::<G>(self.values)?;
        Ok(Box::new(search::EngineOf::<G>::new(config, self.hash_mib)))
    }
}

impl Engine {
    /// An engine playing `kind` from its start position.
    pub fn new(kind: GameKind, cfg: EngineConfig) -> Engine {
        let max_hash_mib = cfg.max_hash_mib.clamp(1, MAX_HASH_MIB);
        let hash_mib = cfg.hash_mib.min(max_hash_mib as usize);
        let values = BTreeMap::new();
        let game = make(kind, &values, hash_mib);
        Engine {
            kind,
            game,
            max_hash_mib,
            hash_mib,
            algorithm: Algorithm::AlphaBeta,
            heuristic: "default".to_string(),
            multipv: 1,
            move_overhead: time::MOVE_OVERHEAD_MS,
            solver: Mode::default(),
            variant_values: values,
            weight_values: BTreeMap::new(),
            position: None,
            refused: None,
        }
    }

    /// The game played.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Why the engine has no game (the variant options do not make one), if it has none.
    pub fn broken(&self) -> Option<&ConfigError> {
        self.game.as_ref().err()
    }

    fn game(&mut self) -> Result<&mut Box<dyn GameEngine>, Error> {
        self.game.as_mut().map_err(|e| Error::NoGame(e.clone()))
    }

    /// The game's engine, when it has a position to work on.
    fn positioned(&mut self) -> Result<&mut Box<dyn GameEngine>, Error> {
        let refused = self.refused.clone();
        let game = self.game()?;
        match refused {
            Some(why) => Err(Error::NoPosition(why)),
            None => Ok(game),
        }
    }

    /// Why the last `position` was refused, while no legal one has followed.
    pub fn refused_position(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// Records a `position` refused before it reached the engine (a line the protocol could
    /// not read): as for one the rules refuse, there is no position until a legal one.
    pub fn refuse_position(&mut self, why: &str) {
        self.refused = Some(why.to_string());
    }

    /// Rebuilds the game's engine for the current game and variant values (start position).
    fn rebuild(&mut self) -> Result<(), Error> {
        if self.game.as_mut().is_ok_and(|e| e.searching()) {
            return Err(Error::Busy);
        }
        let new = make(self.kind, &self.variant_values, self.hash_mib).map_err(Error::Rules)?;
        self.game = Ok(new);
        if let Ok(e) = self.game.as_mut() {
            e.set_move_overhead(self.move_overhead);
        }
        self.position = None;
        self.refused = None;
        Ok(())
    }

    /// Every option with its type and range (what `uci` lists).
    pub fn options(&self) -> Vec<OptionSpec> {
        options::specs(self.kind, self.max_hash_mib)
    }

    /// Sets an option (names are case-insensitive). Refused while a search runs.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), Error> {
        if self.game.as_mut().is_ok_and(|e| e.searching()) {
            return Err(Error::BusyOption(spec::clip(name)));
        }
        match options::parse(self.kind, self.max_hash_mib, name, value)? {
            OptionValue::Variant(kind) => {
                let old = self.kind;
                self.kind = kind;
                if let Err(e) = self.rebuild() {
                    self.kind = old;
                    let _ = self.rebuild();
                    return Err(Error::Option {
                        option: "UCI_Variant".into(),
                        why: e.to_string(),
                    });
                }
            }
            OptionValue::Hash(mib) => {
                self.hash_mib = mib;
                if let Ok(e) = self.game.as_mut() {
                    e.set_hash(mib)?;
                }
            }
            OptionValue::Algorithm(a) => self.algorithm = a,
            OptionValue::Solver(m) => self.solver = m,
            OptionValue::MultiPv(n) => self.multipv = n,
            OptionValue::MoveOverhead(ms) => {
                self.move_overhead = ms;
                if let Ok(e) = self.game.as_mut() {
                    e.set_move_overhead(ms);
                }
            }
            OptionValue::Heuristic(h) => self.heuristic = h,
            OptionValue::Weight(key, v) => {
                self.weight_values.insert(key, v);
            }
            OptionValue::VariantOption { key, name, value } => {
                let old = self.variant_values.insert(key.clone(), value);
                if options::applies(self.kind, &name)
                    && let Err(e) = self.rebuild()
                {
                    match old {
                        Some(v) => self.variant_values.insert(key, v),
                        None => self.variant_values.remove(&key),
                    };
                    return Err(Error::Option {
                        option: name,
                        why: e.to_string(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Sets the position; on a refusal the engine has no position until a legal one (or
    /// `new_game`): a search of the position before would answer a question nobody asked.
    pub fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> Result<(), Error> {
        match self.game()?.set_position(start, moves) {
            Ok(()) => {
                self.position = Some((start.clone(), moves.to_vec()));
                self.refused = None;
                Ok(())
            }
            Err(e) => {
                if let Error::Position(p) = &e {
                    self.refused = Some(p.to_string());
                }
                Err(e)
            }
        }
    }

    /// Forgets what earlier searches learnt and goes back to the start position.
    pub fn new_game(&mut self) -> Result<(), Error> {
        self.game()?.new_game()?;
        self.position = None;
        self.refused = None;
        Ok(())
    }

    fn heuristic_index(&self) -> usize {
        options::heuristics(self.kind)
            .iter()
            .position(|n| n.eq_ignore_ascii_case(&self.heuristic))
            .unwrap_or(0)
    }

    /// The weights set for the current game, by index into its `Game::WEIGHTS`.
    fn weight_overrides(&self) -> WeightOverrides {
        let mut o = WeightOverrides::default();
        for (i, w) in options::weights(self.kind).iter().enumerate() {
            if let Some(&v) = self.weight_values.get(&w.name.to_ascii_lowercase()) {
                o.set(i, v);
            }
        }
        o
    }

    /// Starts a search in the background (first the exact solver when the `Solver` option and
    /// the limits say so); `listener` hears its `info` and its best move.
    pub fn go(&mut self, params: &GoParams, listener: Arc<dyn Listener>) -> Result<(), Error> {
        let options = SearchOptions {
            algorithm: self.algorithm,
            heuristic: self.heuristic_index(),
            weights: self.weight_overrides(),
            multipv: self.multipv,
        };
        let solver = self.solver;
        self.positioned()?.go(params, options, solver, listener)
    }

    /// Asks a running search to stop (no effect when none runs).
    pub fn stop(&mut self) {
        if let Ok(e) = self.game.as_mut() {
            e.stop();
        }
    }

    /// Waits for the running search (if any) to finish.
    pub fn wait(&mut self) {
        if let Ok(e) = self.game.as_mut() {
            e.wait();
        }
    }

    /// Waits, when idle, for the table being prepared in the background (after it a `go` or
    /// `stop` never waits for set-up).
    pub fn prepare(&mut self) {
        let weights = self.weight_overrides();
        if let Ok(e) = self.game.as_mut() {
            e.prepare(&weights);
        }
    }

    /// Is a search running?
    pub fn searching(&mut self) -> bool {
        self.game.as_mut().is_ok_and(|e| e.searching())
    }

    /// Is a `go infinite` search running (it only ends on `stop`)?
    pub fn searching_infinite(&mut self) -> bool {
        self.game.as_mut().is_ok_and(|e| e.searching_infinite())
    }

    /// Is a search without any depth, node or time limit running (it would not end by itself
    /// in any reasonable time)?
    pub fn searching_unbounded(&mut self) -> bool {
        self.game.as_mut().is_ok_and(|e| e.searching_unbounded())
    }

    /// Legal moves of the position in notation.
    pub fn legal_moves(&mut self) -> Result<Vec<String>, Error> {
        Ok(self.positioned()?.legal_moves())
    }

    /// The board for humans, the state string and the side to move (or the result).
    pub fn display(&mut self) -> Result<String, Error> {
        Ok(self.positioned()?.display())
    }

    /// The position as the game's simulator writes its position files (5-en-Raya's `-file`).
    pub fn position_file(&mut self) -> Result<String, Error> {
        let kind = self.kind;
        self.positioned()?
            .position_file()
            .ok_or(Error::NoFileFormat { game: kind.name() })
    }

    /// Sets the position from the text of a position file of the game's simulator
    /// ([`spec::position_file`]), then `moves`: the variant options the file sets are set
    /// first (as `setoption` would), so a file of another board size changes the board.
    /// Returns the options whose value changed. On a refusal the engine has no position, as
    /// for any refused `position`.
    pub fn set_position_file(
        &mut self,
        text: &str,
        moves: &[Token],
    ) -> Result<Vec<(&'static str, i64)>, Error> {
        struct Read<'a>(&'a str);
        impl GameVisitor for Read<'_> {
            type Output = Result<spec::FilePosition, spec::FileError>;
            fn visit<G: Game>(self) -> Self::Output {
                spec::position_file::<G>(self.0)
            }
        }
        if self.game.as_mut().is_ok_and(|e| e.searching()) {
            return Err(Error::Busy);
        }
        let (settings, fen) = match dispatch(self.kind, Read(text)) {
            Ok(x) => x,
            Err(e) => {
                let e = Error::File(e);
                self.refused = Some(e.to_string());
                return Err(e);
            }
        };
        let defaults = options::variant_defaults(self.kind);
        let changed: Vec<(&'static str, i64)> = settings
            .into_iter()
            .filter(|(name, v)| {
                let key = name.to_ascii_lowercase();
                let now = self.variant_values.get(&key).copied();
                now.or_else(|| defaults.get(&key).copied()) != Some(*v)
            })
            .collect();
        if !changed.is_empty() {
            for (name, v) in &changed {
                self.variant_values.insert(name.to_ascii_lowercase(), *v);
            }
            self.rebuild()?;
        }
        self.set_position(&StartSpec::Fen(fen), moves)?;
        Ok(changed)
    }

    /// The heuristic's terms for the side to move, then every move's depth-1 score.
    pub fn eval(&mut self) -> Result<Vec<String>, Error> {
        let (h, w) = (self.heuristic_index(), self.weight_overrides());
        Ok(self.positioned()?.eval(h, &w))
    }

    /// Perft of the position with divide, as a job for a background thread.
    pub fn perft_job(&mut self, depth: u32) -> Result<Job, Error> {
        Ok(self.positioned()?.perft_job(depth))
    }

    /// The exact solve of the position, as a job for a background thread.
    pub fn solve_job(&mut self) -> Result<Job, Error> {
        self.positioned()?;
        let (kind, values, position, hash) = (
            self.kind,
            self.variant_values.clone(),
            self.position.clone(),
            self.hash_mib,
        );
        Ok(Box::new(move |stop: Arc<AtomicBool>, line| {
            crate::solver::solve_position(kind, &values, position.as_ref(), hash, stop, line)
                .map_err(JobError::from)
        }))
    }

    /// Ends whatever search runs: `stop_now` stops it, else only a search that would never end
    /// by itself is stopped; then waits for it and its `bestmove`.
    pub fn finish(&mut self, stop_now: bool) {
        if let Ok(e) = self.game.as_mut() {
            if stop_now || e.searching_unbounded() {
                e.stop();
            }
            e.wait();
        }
    }
}

fn make(
    kind: GameKind,
    values: &BTreeMap<String, i64>,
    hash_mib: usize,
) -> Result<Box<dyn GameEngine>, ConfigError> {
    dispatch(kind, MakeEngine { values, hash_mib })
}
