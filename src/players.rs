//! Built-in players: engines of fixed, documented strength for ladders, tests and humans to play
//! against (`tablero --player P`, the referee's `builtin:P`, `tablero play --vs P`).
//!
//! A player is the ordinary protocol session ([`crate::protocol::run_with`]) with a
//! [`Filter`](crate::protocol::Filter) in front that owns the strength: every `go` is rewritten
//! to the player's fixed depth (other limits are dropped, `infinite` is kept; `solver` keeps
//! the node and time limits, so that it answers in time), `Heuristic`, `Algorithm` and `Solver`
//! are pinned on the engine (`solver` solves every position exactly where a solver exists and
//! time allows), and `random` answers `go` itself with a seeded pseudo-random legal move.
//! Everything else (`uci`, `isready`, `position`, `d`, `moves`, errors…) is answered by the
//! real protocol, so a player speaks the whole of protocol.md. The filter sees each command as
//! it is read and tracks the position with the same rules, so that `random` knows the legal
//! moves; it accepts one extra option, `Seed` (an integer), which only `random` uses.

use std::collections::BTreeMap;
use std::io::BufRead;

use crate::core::game::{ConfigError, Game};
use crate::core::rng::splitmix64;
use crate::core::spec::{self, StartSpec, Token};
use crate::engine::EngineConfig;
use crate::engine::options::{applies, is_weight_option, variant_spec};
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::protocol::command::{Command, GoParams};
use crate::protocol::{self, Filter, Out};

/// The built-in players, weakest first. Depths are plies (single movements); Parchís, whose
/// tree is far bushier (four pieces × dice choices), gets shallower searches so that every
/// level still plays a game in seconds.
///
/// | player | Connect Four, BOOM, Mancala | Parchís |
/// |---|---|---|
/// | `random` | pseudo-random legal move | same |
/// | `greedy` | depth 1, `test` heuristic | depth 1, `test` |
/// | `ninja1` | depth 3, `test` | depth 3, `test` |
/// | `ninja2` | depth 5, `default` | depth 4, `default` |
/// | `ninja3` | depth 9, `default` | depth 5, `default` |
/// | `solver` | Connect Four, Kalah: perfect play (`Solver exact`) where `go`'s limits allow; BOOM: as `ninja3` | as `ninja3` |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A pseudo-random legal move, a function of the position and the `Seed` option.
    Random,
    /// Depth 1 with the `test` heuristic: grabs what is there now.
    Greedy,
    Ninja1,
    Ninja2,
    Ninja3,
    /// Perfect play where an exact solver exists (Connect Four of any size, Kalah up to 7
    /// pits): every `go` is solved to the end, or as far as its node or time limit allows (then
    /// the move is the search's, and `info string` says so). Elsewhere (BOOM, Parchís) it plays
    /// as `ninja3`.
    Solver,
}

/// A name that names no built-in player (the name, clipped).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player '{0}' (known: {known})", known = Player::ALL.map(Player::name).join(", "))]
pub struct UnknownPlayer(pub String);

impl Player {
    /// Every player, weakest first.
    pub const ALL: [Player; 6] = [
        Player::Random,
        Player::Greedy,
        Player::Ninja1,
        Player::Ninja2,
        Player::Ninja3,
        Player::Solver,
    ];

    /// The name used by `--player`, `builtin:` and `--vs`.
    pub fn name(self) -> &'static str {
        match self {
            Player::Random => "random",
            Player::Greedy => "greedy",
            Player::Ninja1 => "ninja1",
            Player::Ninja2 => "ninja2",
            Player::Ninja3 => "ninja3",
            Player::Solver => "solver",
        }
    }

    /// Parses a player name (case-insensitive).
    pub fn from_name(name: &str) -> Result<Player, UnknownPlayer> {
        Player::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownPlayer(spec::clip(name)))
    }

    /// The fixed search of the player in game `kind`: (depth in plies, from the game's
    /// `Profile::ladder`; heuristic); `None` for `random`. See the table on [`Player`].
    pub fn recipe(self, kind: GameKind) -> Option<(u64, &'static str)> {
        struct Ladder;
        impl GameVisitor for Ladder {
            type Output = [u32; 4];
            fn visit<G: Game>(self) -> [u32; 4] {
                G::PROFILE.ladder
            }
        }
        let [greedy, ninja1, ninja2, ninja3] = dispatch(kind, Ladder).map(u64::from);
        match self {
            Player::Random => None,
            Player::Greedy => Some((greedy, "test")),
            Player::Ninja1 => Some((ninja1, "test")),
            Player::Ninja2 => Some((ninja2, "default")),
            Player::Ninja3 | Player::Solver => Some((ninja3, "default")),
        }
    }

    /// The `Solver` option the player is pinned to: `exact` for `solver` (its `go depth` is
    /// then only the fallback for games without a solver), `off` for the others so that their
    /// strength is their search alone whatever `go` they are sent.
    pub fn solver_mode(self) -> &'static str {
        match self {
            Player::Solver => "exact",
            _ => "off",
        }
    }

    /// `Hash` MiB: a small table is plenty for the fixed shallow searches and makes start-up and
    /// game changes (which reallocate the table) fast; the solver needs room for a whole
    /// game's solves.
    pub fn hash_mib(self) -> i64 {
        match self {
            Player::Solver => 256,
            _ => 16,
        }
    }
}

/// The position as the filter sees it (same rules as the engine), for `random`.
struct Tracker<G: Game> {
    config: G::Config,
    state: G,
}

/// What the filter needs of a tracked position, whatever the game.
trait Track: Send {
    /// Follows a `position`; false when the rules refuse it (the engine then has none).
    fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> bool;
    fn reset(&mut self);
    /// A pseudo-random legal move, a function of the position and `seed`.
    fn random_move(&self, seed: u64) -> Option<String>;
}

impl<G: Game> Track for Tracker<G> {
    fn set_position(&mut self, start: &StartSpec, moves: &[Token]) -> bool {
        match spec::position(&self.config, start, moves) {
            Ok(s) => {
                self.state = s;
                true
            }
            Err(_) => false,
        }
    }
    fn reset(&mut self) {
        self.state = G::start(&self.config);
    }
    fn random_move(&self, seed: u64) -> Option<String> {
        let mut ms = G::Moves::default();
        self.state.legal_moves(&mut ms);
        let ms = ms.as_ref();
        if ms.is_empty() {
            return None;
        }
        let r = splitmix64(self.state.hash() ^ splitmix64(seed));
        Some(self.state.format_move(ms[(r % ms.len() as u64) as usize]))
    }
}

struct MakeTracker<'a>(&'a BTreeMap<String, i64>);
impl GameVisitor for MakeTracker<'_> {
    type Output = Result<Box<dyn Track>, ConfigError>;
    fn visit<G: Game>(self) -> Self::Output {
        let config = spec::configure::<G>(self.0)?;
        Ok(Box::new(Tracker::<G> {
            config,
            state: G::start(&config),
        }))
    }
}

/// The filter in front of a player's session.
struct PlayerFilter {
    player: Player,
    kind: GameKind,
    /// The largest `Hash` the session accepts.
    max_hash_mib: i64,
    values: BTreeMap<String, i64>,
    tracker: Option<Box<dyn Track>>,
    seed: u64,
    /// `random`'s answer to a `go infinite`, printed on `stop`.
    pending: Option<String>,
    /// The last `position` was refused and no legal one followed (`random` then lets the
    /// engine refuse `go`).
    refused: bool,
}

fn setoption(name: &str, value: &str) -> Command {
    Command::SetOption {
        name: name.to_string(),
        value: Some(value.to_string()),
    }
}

impl PlayerFilter {
    fn rebuild(&mut self) {
        self.tracker = dispatch(self.kind, MakeTracker(&self.values)).ok();
        // A new game (as the engine's) starts from its start position.
        self.refused = false;
    }

    /// The options that make the player's strength in `kind` (the heuristic may differ per
    /// game, so they are set again whenever the game changes).
    fn pins(&self, kind: GameKind) -> Vec<Command> {
        match self.player.recipe(kind) {
            Some((_, h)) => vec![
                setoption("Heuristic", h),
                setoption("Algorithm", "alphabeta"),
                setoption("Solver", self.player.solver_mode()),
            ],
            None => vec![],
        }
    }

    /// `go` as the player plays it: its own depth; `solver` keeps the node and time limits
    /// (its promise to answer in time), the others drop them.
    fn go(&self, depth: u64, p: &GoParams) -> GoParams {
        let mine = GoParams {
            depth: Some(depth),
            infinite: p.infinite,
            ..GoParams::default()
        };
        match self.player {
            Player::Solver => GoParams {
                nodes: p.nodes,
                movetime: p.movetime,
                wtime: p.wtime,
                btime: p.btime,
                winc: p.winc,
                binc: p.binc,
                movestogo: p.movestogo,
                ..mine
            },
            _ => mine,
        }
    }
}

impl Filter for PlayerFilter {
    fn start(&mut self) -> Vec<Command> {
        let hash = self.max_hash_mib.min(self.player.hash_mib());
        let mut out = vec![setoption("Hash", &hash.to_string())];
        out.extend(self.pins(self.kind));
        out
    }

    fn filter(&mut self, cmd: Command, out: &Out) -> Vec<Command> {
        match cmd {
            Command::SetOption { name, value } => {
                let lower = name.to_ascii_lowercase();
                let fixed = matches!(
                    lower.as_str(),
                    // The heuristic's weights and the number of lines are part of the pinned
                    // strength too.
                    "heuristic" | "algorithm" | "solver" | "multipv"
                ) || is_weight_option(&lower);
                if fixed {
                    out.line(&format!(
                        "info string {name} is fixed for player {}; ignored",
                        self.player.name()
                    ));
                    return vec![];
                }
                if lower == "seed" {
                    match value.as_deref().map(|v| v.trim().parse::<u64>()) {
                        Some(Ok(n)) => self.seed = n,
                        _ => out.error("setoption Seed: expects a non-negative integer"),
                    }
                    return vec![];
                }
                let before = self.kind;
                if lower == "uci_variant" {
                    if let Some(k) = value.as_deref().and_then(|v| GameKind::from_name(v).ok()) {
                        self.kind = k;
                        self.rebuild();
                    }
                } else if applies(self.kind, &lower) {
                    // A variant option of the current game resets it, as in the engine; other
                    // options (Hash…) leave the position alone.
                    // The engine's own reading of the value (a combo's name or a number).
                    let n = variant_spec(self.kind, &name)
                        .zip(value.as_deref())
                        .and_then(|(o, v)| o.parse_value(v).ok());
                    if let Some(n) = n {
                        let old = self.values.insert(lower.clone(), n);
                        self.rebuild();
                        if self.tracker.is_none() {
                            match old {
                                Some(v) => self.values.insert(lower, v),
                                None => self.values.remove(&lower),
                            };
                            self.rebuild();
                        }
                    }
                }
                let mut cmds = vec![Command::SetOption { name, value }];
                if self.kind != before {
                    cmds.extend(self.pins(self.kind));
                }
                cmds
            }
            Command::Position { start, moves } => {
                if let Some(t) = self.tracker.as_mut() {
                    self.refused = !t.set_position(&start, &moves);
                }
                vec![Command::Position { start, moves }]
            }
            Command::RefusedPosition(why) => {
                self.refused = true;
                vec![Command::RefusedPosition(why)]
            }
            Command::UciNewGame => {
                if let Some(t) = self.tracker.as_mut() {
                    t.reset();
                }
                self.refused = false;
                vec![Command::UciNewGame]
            }
            Command::Stop => {
                if let Some(m) = self.pending.take() {
                    out.line(&format!("bestmove {m}"));
                }
                vec![Command::Stop]
            }
            Command::Go(p) => match self.player.recipe(self.kind) {
                Some((depth, _)) => vec![Command::Go(self.go(depth, &p))],
                // After a refused position the engine behind refuses `go` with the reason.
                None if self.refused => vec![Command::Go(p)],
                None => {
                    // `random` answers here; every command read before this one has been
                    // carried out or is waiting, and no search ever runs behind `random`.
                    let m = self
                        .tracker
                        .as_ref()
                        .and_then(|t| t.random_move(self.seed))
                        .unwrap_or_else(|| "(none)".to_string());
                    out.line(&format!("info depth 0 string random move {m}"));
                    if p.infinite {
                        self.pending = Some(m);
                    } else {
                        out.line(&format!("bestmove {m}"));
                    }
                    vec![]
                }
            },
            other => vec![other],
        }
    }
}

/// Runs player `player` as a protocol engine for game `kind` until `quit` or end of input.
pub fn run(player: Player, kind: GameKind, input: impl BufRead + Send + 'static, out: Out) {
    run_with(player, kind, input, out, EngineConfig::default());
}

/// [`run`] with the engine set up by `cfg` (a server bounds `Hash`).
pub fn run_with(
    player: Player,
    kind: GameKind,
    input: impl BufRead + Send + 'static,
    out: Out,
    cfg: EngineConfig,
) {
    let mut filter = PlayerFilter {
        player,
        kind,
        max_hash_mib: cfg.max_hash_mib,
        values: BTreeMap::new(),
        tracker: None,
        seed: 0,
        pending: None,
        refused: false,
    };
    filter.rebuild();
    protocol::run_with(kind, input, out, cfg, Some(Box::new(filter)));
}
