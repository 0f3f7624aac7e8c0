//! The workload: how many real rows each emulated row stands for (`scale`), the key heatmap's
//! buckets (`heat`) and the read workload's row pickers (`reads`). Pure functions of the
//! scenario and seed; the engine pulls from them (the rows' keys through the ingest layer's key
//! feed, `engine/ingest/feed.rs`).

pub mod heat;
pub(crate) mod reads;
pub mod scale;
