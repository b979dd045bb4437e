//! connect4 (not implemented yet).
