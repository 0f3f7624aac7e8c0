//! The ingest layer: everything the engine does per row to go fast, kept apart from the model
//! (`policy/`, `apply/`, `state/`), which says what happens and never how it is sped up.
//!
//! - `route` — finding a row's region: the routing table's indexes and caches, its frozen
//!   copies for the feed's workers, the heat map's buckets, and a plain mode that only
//!   searches the table (the reference engine).
//!
//! What is here must leave the model's answers unchanged: the reference engine runs the same
//! model without it, and the tests hold the two to the same reports byte for byte.

pub mod route;
