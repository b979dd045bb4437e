//! Exact solvers: strong solutions of Connect Four (Pons-style bitboard negamax) and Kalah
//! (alpha-beta with a bounds table and run-time endgame databases), used by the `solve`
//! command and by `go` for positions small enough to prove.

pub mod c4table;
pub mod cli;
pub mod connect4;
pub mod kalah;
