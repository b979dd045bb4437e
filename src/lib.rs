//! tablero: a headless engine for the course's adversarial-search games (Parchís with items,
//! Conecta-4 BOOM, Mancala/Kalah, classic Connect Four) speaking a UCI-like protocol.
#![deny(unsafe_code)] // three audited exceptions: madvise in core::mem, a prefetch in solver::c4table, SIGPIPE in front::run

pub mod bench;
pub mod class;
pub mod core;
pub mod engine;
pub mod front;
pub mod games;
pub mod gui;
pub mod i18n;
pub mod learn;
pub mod mancala_bot;
pub mod players;
pub mod protocol;
pub mod referee;
pub mod report;
pub mod review;
pub mod solver;
pub mod tune;
pub mod view;
