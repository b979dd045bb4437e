//! The games. Each lives in its own module and knows nothing of search or protocol.

pub mod boom;
pub mod connect4;
pub mod mancala;
pub mod parchis;
