//! What a match or tournament is asked to do ([`Config`], filled by a front end) and what it is
//! played under ([`Settings`], written into its records). A match is a configuration with two
//! engines and [`Format::Match`]; a tournament one with [`Format::RoundRobin`] or
//! [`Format::Gauntlet`]. Everything else — openings, limits, records, resume — is the same.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::conn::EngineSpec;
use super::error::Error;
use super::game::{EngineLimits, MoveLimits, Refusals};
use super::openings::Openings;
use super::schedule::{Pairing, Schedule, Shard};
use super::stats::Sprt;
use crate::core::game::Game;
use crate::core::rng::fnv1a;
use crate::core::spec::{self, OptionError};
use crate::games::GameKind;

/// One engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub spec: EngineSpec,
    pub name: String,
    /// `setoption` name/value pairs.
    pub options: Vec<(String, String)>,
    /// Its own limits in place of the shared ones.
    pub limits: Option<EngineLimits>,
}

/// Who plays whom, and how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Two engines, `games` games (colour-swapped pairs; an odd number ends with half a pair).
    Match { games: usize },
    /// Every pair of engines once per round.
    RoundRobin { rounds: usize },
    /// Each of the first `heads` engines against each other one, once per round (`heads` 1:
    /// the classic gauntlet of one engine against the rest).
    Gauntlet { rounds: usize, heads: usize },
}

impl Format {
    pub fn pairing(self) -> Pairing {
        match self {
            Format::Match { .. } => Pairing::Match,
            Format::RoundRobin { .. } => Pairing::RoundRobin,
            Format::Gauntlet { .. } => Pairing::Gauntlet,
        }
    }

    /// The rounds of a tournament (`None` for a match, whose length is not a setting).
    pub fn rounds(self) -> Option<usize> {
        match self {
            Format::Match { .. } => None,
            Format::RoundRobin { rounds } | Format::Gauntlet { rounds, .. } => Some(rounds),
        }
    }

    /// A gauntlet's heads (1 for the other formats).
    pub fn heads(self) -> usize {
        match self {
            Format::Gauntlet { heads, .. } => heads,
            _ => 1,
        }
    }
}

/// Where the records go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordsTarget {
    pub path: PathBuf,
    /// Continue the file (its games are kept, the missing ones played) instead of starting it.
    pub resume: bool,
    /// Replace a file that exists (written beside it and renamed over it when the run ends);
    /// without it (or `resume`) an existing file is refused, never overwritten.
    pub overwrite: bool,
}

/// Everything a match or tournament needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub kind: GameKind,
    pub engines: Vec<EngineConfig>,
    pub format: Format,
    /// Variant options: sent to every engine as `setoption`, and those of the game's
    /// [`Game::OPTIONS`] also set the referee's rules.
    pub variant: Vec<(String, String)>,
    /// Games played at once.
    pub concurrency: usize,
    pub seed: u64,
    pub openings: Openings,
    pub limits: MoveLimits,
    pub max_plies: usize,
    /// A match stops as soon as this test decides.
    pub sprt: Option<Sprt>,
    pub records: Option<RecordsTarget>,
    /// Keep every engine's raw I/O per game in this directory.
    pub log_dir: Option<PathBuf>,
    /// Play only this shard of the schedule.
    pub shard: Option<Shard>,
    /// A progress bar on stderr when it is a terminal.
    pub progress: bool,
    /// How long a freshly started engine has to answer `uci` (not part of the settings: like
    /// the concurrency, it changes no game).
    pub startup_ms: u64,
    /// Stop on an engine's refusal, or play on without it.
    pub refusals: Refusals,
}

/// The default of [`Config::startup_ms`]: an engine that has not answered `uci` after 10 s is
/// not an engine of this protocol (or is stuck), whatever the per-move timeout.
pub const STARTUP_MS: u64 = 10_000;

impl Config {
    pub fn schedule(&self) -> Schedule {
        Schedule {
            engines: self.engines.len(),
            pairing: self.format.pairing(),
            rounds: self.format.rounds(),
            heads: self.format.heads(),
        }
    }

    /// The games this run plays (its shard, or a match's `games`), in order.
    pub fn games(&self) -> Vec<usize> {
        let limit = match self.format {
            Format::Match { games } => Some(games),
            _ => None,
        };
        self.schedule().shard_games(self.shard, limit)
    }

    /// The number of games of a match (`None` for a tournament, whose schedule says it).
    pub fn match_games(&self) -> Option<usize> {
        match self.format {
            Format::Match { games } => Some(games),
            _ => None,
        }
    }

    /// The limits of engine `e`: its own, else the shared ones.
    pub fn limits_of(&self, e: usize) -> MoveLimits {
        self.limits.with(self.engines[e].limits.as_ref())
    }

    /// Is this a match (two engines, one table of W/D/L)?
    pub fn is_match(&self) -> bool {
        matches!(self.format, Format::Match { .. })
    }
}

/// What a match or tournament is played under, written into its records. Records can be
/// continued (`resume`) or merged (`tablero report`) only under equal settings. The number of a
/// match's games, the shard, the concurrency and the referee's patience (margin, timeout) are
/// not settings: they change how much is played or how hostile engines are caught, not the
/// games themselves.
///
/// The field order is the serialised order, and a tournament's settings serialise exactly as
/// they always have (the optional fields are absent), so its fingerprint is unchanged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub variant: String,
    /// Every variant option of the game with its value (defaults included), in the game's order.
    pub options: Vec<(String, i64)>,
    pub engines: Vec<EngineSettings>,
    /// `match`, `round-robin` or `gauntlet`.
    pub format: String,
    /// A tournament's rounds (absent for a match).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<usize>,
    /// A gauntlet of several heads: how many (absent for one head and the other formats, so
    /// that those settings and their fingerprints are what they always were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heads: Option<usize>,
    pub seed: u64,
    /// `start`, `random:P` or `lines:<count>:<hash of the lines>` for an openings file.
    pub openings: String,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    /// Base and increment per player, ms.
    pub tc_ms: Option<(u64, u64)>,
    pub max_plies: usize,
    /// The SPRT a match stops on (absent without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
}

/// One engine's part of [`Settings`]: its name, `setoption`s and own limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSettings {
    pub name: String,
    pub options: Vec<(String, String)>,
    /// The engine's own limits, absent when it plays under the shared ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<EngineLimits>,
}

impl Settings {
    /// The settings of `cfg` with the resolved variant option values `options`.
    pub fn of(cfg: &Config, options: Vec<(String, i64)>) -> Settings {
        Settings {
            variant: cfg.kind.name().to_string(),
            options,
            engines: cfg
                .engines
                .iter()
                .map(|e| EngineSettings {
                    name: e.name.clone(),
                    options: e.options.clone(),
                    limits: e.limits,
                })
                .collect(),
            format: cfg.format.pairing().name().to_string(),
            rounds: cfg.format.rounds(),
            heads: Some(cfg.format.heads()).filter(|&h| h > 1),
            seed: cfg.seed,
            openings: cfg.openings.label(),
            depth: cfg.limits.depth,
            nodes: cfg.limits.nodes,
            movetime_ms: cfg.limits.movetime_ms,
            tc_ms: cfg.limits.tc_ms,
            max_plies: cfg.max_plies,
            sprt: cfg.sprt,
        }
    }

    /// A stable fingerprint of the settings, carried by every game line of their records.
    pub fn fingerprint(&self) -> String {
        format!(
            "{:016x}",
            fnv1a(serde_json::to_string(self).unwrap_or_default().as_bytes())
        )
    }

    /// The schedule the settings describe (`None`: an unknown format).
    pub fn schedule(&self) -> Option<Schedule> {
        Some(Schedule {
            engines: self.engines.len(),
            pairing: Pairing::from_name(&self.format)?,
            rounds: self.rounds,
            heads: self.heads.unwrap_or(1),
        })
    }

    /// Is this a match?
    pub fn is_match(&self) -> bool {
        self.format == Pairing::Match.name()
    }

    /// The engines' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.engines.iter().map(|e| e.name.as_str()).collect()
    }

    /// The first setting in which `other` differs from `self`, as `name A vs B` (A `self`'s).
    pub fn difference(&self, other: &Settings) -> Option<String> {
        first_difference(self, other)
    }
}

/// The first top-level field in which two settings (any serialisable struct) differ, as
/// `name A vs B`.
pub fn first_difference<T: Serialize>(a: &T, b: &T) -> Option<String> {
    let (a, b) = (json!(a), json!(b));
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return None;
    };
    // A field one side lacks (an optional one) differs too.
    a.iter()
        .find(|(k, v)| b.get(*k) != Some(*v))
        .map(|(k, v)| format!("{k} {v} vs {}", b.get(k).unwrap_or(&Value::Null)))
        .or_else(|| {
            b.iter()
                .find(|(k, _)| !a.contains_key(*k))
                .map(|(k, v)| format!("{k} null vs {v}"))
        })
}

/// Refuses an engine's own setting of a variant option (`Rows`, `Year`, …) to another value
/// than the referee's (`options`, from [`variant_config`]): that engine would play other rules
/// than the referee judges, and every game would end in "illegal moves" that are the setting's,
/// not the engine's. The same value is harmless.
pub fn engines_play_the_variant<G: Game>(
    engines: &[EngineConfig],
    options: &[(String, i64)],
) -> Result<(), Error> {
    for e in engines {
        for (name, value) in &e.options {
            let Some((game_name, referee)) = options
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            else {
                continue;
            };
            let own = spec::variant_values::<G>(&[(name.clone(), value.clone())], false)
                .ok()
                .and_then(|m| m.values().next().copied());
            if own != Some(*referee) {
                // A combo's value by its name (`Year` 2022-23, not 2022).
                let shown = G::OPTIONS
                    .iter()
                    .find(|o| o.name == game_name)
                    .and_then(|o| o.names.iter().find(|(_, v)| v == referee))
                    .map_or_else(|| referee.to_string(), |(n, _)| n.to_string());
                return Err(Error::EngineVariant {
                    engine: e.name.clone(),
                    name: game_name.clone(),
                    value: value.clone(),
                    referee: shown,
                });
            }
        }
    }
    Ok(())
}

/// The rules' configuration and every variant option with its value.
pub type VariantConfig<C> = (C, Vec<(String, i64)>);

/// The rules' configuration from the variant options (the others are engine options, ignored
/// here) and every variant option with its value, defaults included, in the game's order.
pub fn variant_config<G: Game>(
    variant: &[(String, String)],
) -> Result<VariantConfig<G::Config>, Error> {
    let values = spec::variant_values::<G>(variant, false).map_err(|e| match e {
        OptionError::NotInteger { name, value } => Error::OptionValue { name, value },
        e => Error::Option(e),
    })?;
    let vals = spec::option_values::<G>(&values);
    let gcfg = G::configure(&vals)?;
    let options = G::OPTIONS
        .iter()
        .zip(&vals)
        .map(|(o, v)| (o.name.to_string(), *v))
        .collect();
    Ok((gcfg, options))
}
