//! cards
