//! Split policies: when a region asks to split (`RegionSplitPolicy` and its subclasses).
//! The split *point* is chosen in `split_point.rs`.
//! (CONTRACT STUB — the split-policy work replaces this file and keeps these names and signatures.)

use crate::config::Settings;

/// What a policy looks at when asked `shouldSplit()` for one region.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegionView<'a> {
    /// `HStore.getSize()` per store (sum of store file lengths; memstore excluded).
    pub store_sizes: &'a [u64],
    /// Any store holds a Reference (⇒ cannot split).
    pub has_references: bool,
    /// Region is open and available (not closing/closed/splitting).
    pub available: bool,
    /// Online regions of the same table on this RegionServer, including this one.
    pub table_regions_on_server: u32,
    /// Simulated now, ms.
    pub now_ms: u64,
}

/// A split policy instance for one region (created on region open; jitter drawn then).
#[derive(Debug, Clone)]
pub struct SplitPolicyInstance {
    _private: (),
}

impl SplitPolicyInstance {
    /// Creates the policy for a region opened at `opened_ms`; `jitter_draw` is this region's
    /// `nextFloat()` in [0, 1) (drawn by the engine from a seeded stream per region open).
    pub fn new(settings: &Settings, opened_ms: u64, jitter_draw: f32) -> SplitPolicyInstance {
        let _ = (settings, opened_ms, jitter_draw);
        SplitPolicyInstance { _private: () }
    }

    /// `shouldSplit()`.
    pub fn should_split(&mut self, view: &RegionView<'_>) -> bool {
        let _ = view;
        false
    }

    /// The size a store must exceed, for this many regions of the table on the server (report/explain).
    pub fn size_to_check(&self, table_regions_on_server: u32) -> u64 {
        let _ = table_regions_on_server;
        0
    }

    /// Post-processes a split row as the policy does (KeyPrefix / DelimitedKeyPrefix truncation).
    pub fn adjust_split_row(&self, row: Vec<u8>) -> Vec<u8> {
        row
    }

    /// BusyRegionSplitPolicy bookkeeping: a batch of `writes` of which `blocked` hit RegionTooBusy.
    pub fn record_writes(&mut self, writes: u64, blocked: u64, now_ms: u64) {
        let _ = (writes, blocked, now_ms);
    }
}
