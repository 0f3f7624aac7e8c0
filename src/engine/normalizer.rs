//! SimpleRegionNormalizer: split plans for regions much larger than the table's average and merge
//! plans for runs of small neighbours, computed as HBase computes them (HBASE-MODEL.md §8).
//! Pure planning; the engine executes the plans with modelled time.
//!
//! CONTRACT (issue 4): the engine calls [`plan`] every `hbase.normalizer.period` for a table with
//! normalization enabled and executes the plans in order (splits first, then merges).

use crate::config::Settings;

/// A region as the normalizer sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct NormRegion {
    /// Engine region id.
    pub id: usize,
    /// Store file size on disk, bytes (HBase uses RegionMetrics storefile size in whole MB).
    pub storefile_bytes: u64,
    /// Open (not splitting, merging, moving or offline).
    pub open: bool,
    /// Region id time (creation, ms): merge candidates must be older than min_region_age.
    pub created_ms: u64,
}

/// One normalization plan.
#[derive(Debug, Clone, PartialEq)]
pub enum NormPlan {
    /// Split the region (at its split point, as a split request does).
    Split {
        /// Region id.
        region: usize,
        /// Why: its size against the average, in MB.
        reason: String,
    },
    /// Merge these adjacent regions (key order) into one.
    Merge {
        /// Region ids, adjacent, in key order (≥ 2).
        regions: Vec<usize>,
        /// Why: their sizes against the average, in MB.
        reason: String,
    },
}

/// Plans for the table's regions (`regions` in key order) at `now_ms`.
pub fn plan(regions: &[NormRegion], settings: &Settings, now_ms: u64) -> Vec<NormPlan> {
    // TODO(issue 4, normalizer helper): SimpleRegionNormalizer.computePlansForTable.
    let _ = (regions, settings, now_ms);
    Vec::new()
}
