//! The emulation engine: regions, memstores, flushes, store files, compactions and splits on
//! RegionServers, driven by a simulated clock.

pub mod compaction;
pub mod split_policy;
pub mod storefile;
