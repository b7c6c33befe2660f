//! game (being built).
