//! The engine's options: their names, types and ranges (what `uci` lists) and the checking of a
//! value given as text. Variant options (`Rows`, `Pits`, …) and heuristic weights
//! (`<Game>W_<term>`) come from every game's `Game::OPTIONS` and `Game::WEIGHTS`.

use std::collections::BTreeMap;

use super::error::Error;
use super::time::{MAX_MOVE_OVERHEAD_MS, MOVE_OVERHEAD_MS};
use super::{DEFAULT_HASH_MIB, MAX_MULTIPV};
use crate::core::game::{Game, VariantOption, WeightSpec};
use crate::core::search::Algorithm;
use crate::core::spec::clip;
use crate::games::{GameKind, GameVisitor, dispatch};
use crate::solver::exact::Mode;

/// How an option is offered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: String, vars: Vec<String> },
}

/// One option as `uci` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: String,
    pub kind: OptionType,
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    Variant(GameKind),
    Hash(usize),
    Algorithm(Algorithm),
    Solver(Mode),
    MultiPv(u32),
    MoveOverhead(u64),
    /// The heuristic's name, lower case.
    Heuristic(String),
    /// A heuristic weight: its lower-case option name and value.
    Weight(String, i32),
    /// A variant option: its lower-case key, its name and value.
    VariantOption {
        key: String,
        name: String,
        value: i64,
    },
}

struct OptionsOf;
impl GameVisitor for OptionsOf {
    type Output = &'static [VariantOption];
    fn visit<G: Game>(self) -> Self::Output {
        G::OPTIONS
    }
}

struct HeuristicsOf;
impl GameVisitor for HeuristicsOf {
    type Output = &'static [&'static str];
    fn visit<G: Game>(self) -> Self::Output {
        G::HEURISTICS
    }
}

struct WeightsOf;
impl GameVisitor for WeightsOf {
    type Output = &'static [WeightSpec];
    fn visit<G: Game>(self) -> Self::Output {
        G::WEIGHTS
    }
}

/// The heuristic weight options (`<Game>W_<term>`) of every game.
pub fn all_weight_options() -> Vec<WeightSpec> {
    GameKind::ALL
        .iter()
        .flat_map(|&k| dispatch(k, WeightsOf).iter().copied())
        .collect()
}

/// Is `name` a heuristic weight option of some game (any case)?
pub fn is_weight_option(name: &str) -> bool {
    all_weight_options()
        .iter()
        .any(|w| w.name.eq_ignore_ascii_case(name))
}

/// The variant options of every game (name, spec), deduplicated by name.
pub fn all_variant_options() -> Vec<VariantOption> {
    let mut out: Vec<VariantOption> = Vec::new();
    for k in GameKind::ALL {
        for o in dispatch(k, OptionsOf) {
            if !out.iter().any(|x| x.name.eq_ignore_ascii_case(o.name)) {
                out.push(*o);
            }
        }
    }
    out
}

/// `kind`'s own spec of the variant option `name` (any case): games share option names
/// (`Rows` is Connect Four's 4..=8 and 5-en-Raya's 1..=19), and the game played decides the
/// range and default that `uci` lists and `setoption` checks.
pub fn variant_spec(kind: GameKind, name: &str) -> Option<VariantOption> {
    dispatch(kind, OptionsOf)
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .copied()
}

/// `kind`'s variant options at their defaults, by lower-case name.
pub fn variant_defaults(kind: GameKind) -> BTreeMap<String, i64> {
    dispatch(kind, OptionsOf)
        .iter()
        .map(|o| (o.name.to_ascii_lowercase(), o.default))
        .collect()
}

/// Is `name` a variant option of `kind` (any case)?
pub fn applies(kind: GameKind, name: &str) -> bool {
    dispatch(kind, OptionsOf)
        .iter()
        .any(|o| o.name.eq_ignore_ascii_case(name))
}

/// The heuristic weights of `kind`, in its `Game::WEIGHTS` order.
pub fn weights(kind: GameKind) -> &'static [WeightSpec] {
    dispatch(kind, WeightsOf)
}

/// The heuristics of `kind` (index 0 is the default).
pub fn heuristics(kind: GameKind) -> &'static [&'static str] {
    dispatch(kind, HeuristicsOf)
}

fn spin(name: &str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name: name.to_string(),
        kind: OptionType::Spin { default, min, max },
    }
}

fn combo(name: &str, default: &str, vars: &[&str]) -> OptionSpec {
    OptionSpec {
        name: name.to_string(),
        kind: OptionType::Combo {
            default: default.to_string(),
            vars: vars.iter().map(|v| v.to_string()).collect(),
        },
    }
}

/// Every option of an engine playing `kind` whose `Hash` may reach `max_hash_mib`, in the order
/// `uci` lists them.
pub fn specs(kind: GameKind, max_hash_mib: i64) -> Vec<OptionSpec> {
    let games: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    let heur = heuristics(kind);
    let mut out = vec![
        combo("UCI_Variant", kind.name(), &games),
        spin(
            "Hash",
            (DEFAULT_HASH_MIB as i64).min(max_hash_mib),
            1,
            max_hash_mib,
        ),
        combo("Algorithm", "alphabeta", &["alphabeta", "minimax"]),
        combo("Heuristic", heur[0], heur),
        combo("Solver", "auto", &["auto", "off", "always", "exact"]),
        spin("MultiPV", 1, 1, MAX_MULTIPV),
        spin(
            "Move Overhead",
            MOVE_OVERHEAD_MS as i64,
            0,
            MAX_MOVE_OVERHEAD_MS as i64,
        ),
    ];
    for v in all_variant_options() {
        let v = variant_spec(kind, v.name).unwrap_or(v);
        if v.is_combo() {
            let names: Vec<&str> = v.names.iter().map(|&(n, _)| n).collect();
            out.push(combo(v.name, &v.format_value(v.default), &names));
        } else {
            out.push(spin(v.name, v.default, v.min, v.max));
        }
    }
    for w in all_weight_options() {
        out.push(spin(
            w.name,
            i64::from(w.default),
            i64::from(w.min),
            i64::from(w.max),
        ));
    }
    out
}

/// Checks `setoption name <name> value <value>` for an engine playing `kind`.
pub fn parse(
    kind: GameKind,
    max_hash_mib: i64,
    name: &str,
    value: Option<&str>,
) -> Result<OptionValue, Error> {
    let value_of = |what: &str| -> Result<&str, Error> {
        value.ok_or_else(|| Error::MissingValue(what.to_string()))
    };
    let int_in = |v: &str, what: &str, min: i64, max: i64| -> Result<i64, Error> {
        let n: i64 = v.trim().parse().map_err(|_| Error::NotInteger {
            option: what.to_string(),
            value: clip(v),
        })?;
        if n < min || n > max {
            return Err(Error::OutOfRange {
                option: what.to_string(),
                value: n,
                min,
                max,
            });
        }
        Ok(n)
    };
    let refused = |option: &str, why: String| Error::Option {
        option: option.to_string(),
        why,
    };
    Ok(match name.to_ascii_lowercase().as_str() {
        "uci_variant" => OptionValue::Variant(
            GameKind::from_name(value_of("UCI_Variant")?).map_err(Error::UnknownGame)?,
        ),
        "hash" => OptionValue::Hash(int_in(value_of("Hash")?, "Hash", 1, max_hash_mib)? as usize),
        "algorithm" => {
            OptionValue::Algorithm(match value_of("Algorithm")?.to_ascii_lowercase().as_str() {
                "alphabeta" => Algorithm::AlphaBeta,
                "minimax" => Algorithm::Minimax,
                v => {
                    return Err(refused(
                        "Algorithm",
                        format!("unknown value '{}' (alphabeta or minimax)", clip(v)),
                    ));
                }
            })
        }
        "solver" => OptionValue::Solver(
            Mode::parse(value_of("Solver")?).map_err(|why| refused("Solver", why.to_string()))?,
        ),
        "multipv" => {
            OptionValue::MultiPv(int_in(value_of("MultiPV")?, "MultiPV", 1, MAX_MULTIPV)? as u32)
        }
        "move overhead" => OptionValue::MoveOverhead(int_in(
            value_of("Move Overhead")?,
            "Move Overhead",
            0,
            MAX_MOVE_OVERHEAD_MS as i64,
        )? as u64),
        "heuristic" => {
            let v = value_of("Heuristic")?;
            let names = heuristics(kind);
            if !names.iter().any(|n| n.eq_ignore_ascii_case(v)) {
                return Err(refused(
                    "Heuristic",
                    format!(
                        "unknown heuristic '{}' for {} (known: {})",
                        clip(v),
                        kind.name(),
                        names.join(", ")
                    ),
                ));
            }
            OptionValue::Heuristic(v.to_ascii_lowercase())
        }
        lower if is_weight_option(lower) => {
            let Some(spec) = all_weight_options()
                .into_iter()
                .find(|w| w.name.eq_ignore_ascii_case(lower))
            else {
                return Err(Error::UnknownOption(clip(name)));
            };
            let n = int_in(
                value_of(spec.name)?,
                spec.name,
                i64::from(spec.min),
                i64::from(spec.max),
            )?;
            OptionValue::Weight(lower.to_string(), n as i32)
        }
        lower => {
            let Some(spec) = variant_spec(kind, lower).or_else(|| {
                all_variant_options()
                    .into_iter()
                    .find(|o| o.name.eq_ignore_ascii_case(lower))
            }) else {
                return Err(Error::UnknownOption(clip(name)));
            };
            let text = value_of(spec.name)?;
            let n = if spec.is_combo() {
                spec.parse_value(text).map_err(|e| {
                    refused(
                        spec.name,
                        format!("unknown value '{}': {e}", clip(text.trim())),
                    )
                })?
            } else {
                int_in(text, spec.name, spec.min, spec.max)?
            };
            OptionValue::VariantOption {
                key: spec.name.to_ascii_lowercase(),
                name: spec.name.to_string(),
                value: n,
            }
        }
    })
}
