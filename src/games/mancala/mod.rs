//! mancala (not implemented yet).
