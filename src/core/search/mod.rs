//! Generic adversarial search over any `Game`.

pub mod reference;
