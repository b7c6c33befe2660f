//! solve (being built).
