//! parchis (not implemented yet).
