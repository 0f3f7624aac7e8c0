//! The workload: the keys of the emulated rows in order (`feed`), how many real rows each stands
//! for (`scale`), the key heatmap's buckets (`heat`) and the read workload's row pickers
//! (`reads`). Pure functions of the scenario and seed; the engine pulls from them.

pub mod feed;
pub mod heat;
pub(crate) mod reads;
pub mod scale;
