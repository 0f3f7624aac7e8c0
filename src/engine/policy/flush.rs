//! Flush policy: which region to flush and when (`MemStoreFlusher`, `HRegion`), and which of its
//! stores (`FlushAllLargeStoresPolicy`). Pure: the write path and the flush applier ask, then act.

use std::cmp::Reverse;

use crate::engine::state::region::{Region, RegionState};
use crate::engine::state::server::Server;

/// After a write: the region's memstore is above `hbase.hregion.memstore.flush.size`
/// (`HRegion.isFlushSize`, on the active segments' heap).
pub(crate) fn over_flush_size(active_heap: u64, flush_size: u64) -> bool {
    active_heap > flush_size
}

/// `MemStoreFlusher.flushOneForGlobalPressure` is worth a scan: the server is at or above the
/// global low mark, a flush handler is free, and the last scan did not come back empty with
/// nothing changed since.
pub(crate) fn pressure_scan_due(server: &Server, global_low: u64, flushers: u32) -> bool {
    let busy = server.flushes_running as usize + server.flush_queue.len();
    server.memstore_heap >= global_low && busy < flushers.max(1) as usize && !server.pressure_futile
}

/// The region a server flushes under global pressure: the largest active memstore among its
/// open regions not already flushing or queued. Ties go to the lower region id (HBase's TreeMap
/// keyed by size keeps one of equal-sized regions; any fixed choice is as faithful). `None`:
/// nothing can be flushed until a write reaches an idle region or a flush state changes.
pub(crate) fn global_pressure_pick<'a>(
    server: usize,
    regions: impl Iterator<Item = &'a Region>,
) -> Option<usize> {
    regions
        .filter(|r| {
            r.server == server
                && r.state == RegionState::Open
                && !r.flush_queued
                && !r.flushing
                && r.active_heap() > 0
        })
        .map(|r| (r.active_heap(), Reverse(r.id)))
        .max()
        .map(|(_, Reverse(id))| id)
}

/// A flush request is taken: the region is open, has unflushed data, and no flush of it is
/// queued or running (`MemStoreFlusher.requestFlush` keeps one entry per region).
pub(crate) fn accepts_request(region: &Region) -> bool {
    !region.flush_queued
        && !region.flushing
        && region.state == RegionState::Open
        && region.active_heap() > 0
}

/// `MemStoreFlusher.flushRegion`: a store above `hbase.hstore.blockingStoreFiles` postpones the
/// flush until a compaction brings the count down, for at most `blockingWaitTime`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HoldBack {
    /// The flush was just dequeued (the first postponement: recorded and reacted to once).
    pub(crate) first: bool,
    /// Files in the fullest store.
    pub(crate) most_files: usize,
}

/// Whether a dequeued flush of `region`, queued `waited_ns` ago, is held back.
pub(crate) fn hold_back(
    region: &Region,
    blocking_store_files: usize,
    waited_ns: u64,
    blocking_wait_ns: u64,
) -> Option<HoldBack> {
    let too_many = region
        .stores
        .iter()
        .any(|s| s.files.len() > blocking_store_files);
    if !too_many || waited_ns >= blocking_wait_ns {
        return None;
    }
    Some(HoldBack {
        first: waited_ns == 0,
        most_files: region
            .stores
            .iter()
            .map(|s| s.files.len())
            .max()
            .unwrap_or(0),
    })
}

/// `FlushAllLargeStoresPolicy`: with several families, the stores whose memstore is above the
/// lower bound (`flush size / families`, at least `per_cf_lower_bound_min`), or all of them if
/// none is. One family: always that one.
pub(crate) fn stores_to_flush(
    region: &Region,
    flush_size: u64,
    per_cf_lower_bound_min: u64,
) -> Vec<bool> {
    let nf = region.stores.len();
    let lower = (flush_size / nf.max(1) as u64).max(per_cf_lower_bound_min);
    let large: Vec<bool> = region
        .stores
        .iter()
        .map(|s| nf == 1 || s.memstore.heap_bytes > lower)
        .collect();
    let any_large = large.iter().any(|&b| b);
    large
        .iter()
        .zip(&region.stores)
        .map(|(&l, s)| (l || !any_large) && !s.memstore.is_empty())
        .collect()
}

/// The periodic flush check (`HRegionServer.PeriodicMemStoreFlusher`): open regions with an
/// edit older than `interval_ms` are due, and until `next_ms` no check can find one (edits made
/// after this check are due no earlier than now + interval + 1; the earliest due time is taken
/// over every region, open or not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PeriodicScan {
    /// Regions due, in id order.
    pub(crate) due: Vec<usize>,
    /// Time before which a check cannot find a due region, ms.
    pub(crate) next_ms: u64,
}

/// Scans `regions` for the periodic flush at `now_ms`.
pub(crate) fn periodic_scan(regions: &[Region], now_ms: u64, interval_ms: u64) -> PeriodicScan {
    let mut next_ms = now_ms + interval_ms + 1;
    let mut due = Vec::new();
    for r in regions {
        let oldest = r
            .stores
            .iter()
            .filter_map(|s| s.memstore.oldest_edit_ms)
            .min();
        if let Some(t) = oldest {
            next_ms = next_ms.min(t.saturating_add(interval_ms + 1));
            if r.state == RegionState::Open && now_ms.saturating_sub(t) > interval_ms {
                due.push(r.id);
            }
        }
    }
    PeriodicScan { due, next_ms }
}
