//! The policies: pure functions of a view of the state that return decisions with their
//! reasons. Nothing here changes the engine's state; `apply/` carries the decisions out.
//!
//! - `flush` — which region to flush on a write, under global pressure and periodically, and
//!   when a flush is held back;
//! - `split` — the split policies (`RegionSplitPolicy` and subclasses); `split_check` — the gates
//!   `HRegion.checkSplit` applies around them, with a typed reason when a region does not
//!   split; `split_point` — the split row;
//! - `compaction` — ExploringCompactionPolicy's selection; `throughput` — the compaction
//!   throughput controller;
//! - `offpeak` — off-peak hours on the simulated clock (compaction ratio, throughput limit,
//!   balancer move cost);
//! - `reactions` — what follows a change of a store (split, else compact);
//! - `balancer`, `normalizer` — the master's chores; `procedure` — which master worker runs a
//!   split, merge or move procedure, and when.
//! - `wal` — which WAL files go and which regions too many WAL files force to flush;
//! - `write` — whether a region takes a row now (and why not), and how many rows a region and
//!   its server take before a flush, a block, global pressure or a WAL roll fires;
//! - `chore_clock` — when a RegionServer's own chores (the compacted-files discharger) run;
//! - `variability` — the seeded spread of durations and the servers' GC pauses;
//! - `bulkload` — how a bulk-load job cuts its HFiles and shares the nodes, and how the loader
//!   groups, splits and refuses files;
//! - `client` — when a refused mutation is retried or fails; `loader` — which of several
//!   clients writes a row, when each sends its next, and when its writers wait.

pub mod balancer;
pub mod bulkload;
pub(crate) mod chore_clock;
pub mod client;
pub mod compaction;
pub mod date_tiered;
pub mod file_selection;
pub(crate) mod flush;
pub mod loader;
pub mod normalizer;
pub mod offpeak;
pub(crate) mod procedure;
pub(crate) mod reactions;
pub mod resources;
pub mod split;
pub mod split_check;
pub mod split_point;
pub(crate) mod throughput;
pub(crate) mod variability;
pub(crate) mod wal;
pub(crate) mod write;
