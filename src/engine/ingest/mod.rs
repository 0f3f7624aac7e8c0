//! The ingest layer: everything the engine does per row to go fast, kept apart from the model
//! (`policy/`, `apply/`, `state/`), which says what happens and never how it is sped up.
//!
//! - `feed` — the emulated rows' keys in id order, made a chunk at a time through the
//!   generators' batch paths (`keygen::batch`), on worker threads that also route each chunk's
//!   rows with a frozen copy of the routing table;
//! - `route` — finding a row's region: the routing table's indexes and caches, its frozen
//!   copies for the feed's workers, the heat map's buckets, and a plain mode that only
//!   searches the table (the reference engine);
//! - `chunks` — the memstores' key storage in pooled fixed-size chunks;
//! - `memkeys` — a memstore's keys, stored for the flush to order (`state::memstore` keeps
//!   the accounting);
//! - `runs` — runs of rows between events: the write rules' row counts (`policy::write`)
//!   taken as budgets once per region and server, the rows landed in a tight loop and their
//!   keys appended a region at a time;
//! - `keysort` — a flush's key order: radix sort over 8-byte prefixes and the coded
//!   selection of the rows a store file keeps.
//!
//! What is here must leave the model's answers unchanged: the reference engine runs the same
//! model without it, and the tests hold the two to the same reports byte for byte.

pub(crate) mod chunks;
pub(crate) mod feed;
pub(crate) mod keysort;
pub(crate) mod memkeys;
pub mod route;
pub(crate) mod runs;
