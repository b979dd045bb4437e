//! The command line and the small front ends beside it. `cli` is clap's description of every
//! flag (the only module that knows clap), `args` turns what it parses into the library's typed
//! configurations, and `run` dispatches each subcommand, prints its result and maps failures to
//! one line and an exit code. `play` (a human at the terminal), `serve` (the protocol over TCP)
//! and `solve` (exact solving from the command line) are front ends of their own; the web page
//! (`crate::gui`), the records reports (`crate::report`) and SPSA tuning (`crate::tune`) are the
//! larger ones, in their own folders.

pub mod analyse;
pub mod args;
pub mod cli;
pub mod play;
pub mod run;
pub mod serve;
pub mod solve;
