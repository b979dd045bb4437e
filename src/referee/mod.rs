//! The referee: matches and tournaments between engines that speak the protocol. One pipeline
//! serves both (a match is the two-engine schedule of the same runner): a front end fills a
//! [`Config`]; [`run`] plays its games, validates every move with the rules, writes the records
//! as results come in and returns them; [`output`] turns them into a match's W/D/L table (Elo
//! pentanomial and trinomial, LOS, SPRT) or a tournament's standings.
//!
//! By concern: `config` (what to play, what it is played under), `conn` (reaching an engine:
//! process, built-in player, TCP), `game` (one refereed game), `openings`, `schedule` (who plays
//! whom, shards), `runner` (the pool, the reorder buffer, resume), `records` (the one records
//! format, its writer and readers), `stats` (Elo, LOS, SPRT), `ratings` (standings of many
//! engines), `output` (text and JSON), `error`.

pub mod config;
pub mod conn;
pub mod error;
pub mod game;
pub mod openings;
pub mod output;
pub mod ratings;
pub mod records;
pub mod runner;
pub mod schedule;
pub mod stats;

pub use config::{Config, EngineConfig, EngineSettings, Format, RecordsTarget, Settings};
pub use conn::{EngineSpec, StartError};
pub use error::{
    Error, GameLineError, OpeningsFileError, ParseError, Refused, ResumeError, SettingsError,
};
pub use game::{EngineLimits, GameRecord, MoveLimits, Reason, Refusals, parse_tc};
pub use openings::Openings;
pub use records::Merged;
pub use runner::{Notice, Played, run};
pub use schedule::Shard;
pub use stats::{Sprt, Summary, Tally};
