//! deal (being built).
