//! boom (not implemented yet).
