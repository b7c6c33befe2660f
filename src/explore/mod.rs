//! explore (being built).
