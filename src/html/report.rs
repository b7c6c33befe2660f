//! The one-page report of a batch's results.
