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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::region::{test_region, test_write};

    // Mirrors MemStoreFlusher.flushOneForGlobalPressure: the largest memstore among the
    // server's regions that are open and not already flushing or queued.
    #[test]
    fn global_pressure_takes_the_largest_idle_memstore_of_the_server() {
        let mut rs: Vec<Region> = (0..5).map(|i| test_region(i, i % 2, 1)).collect();
        for (i, r) in rs.iter_mut().enumerate() {
            test_write(r, 0, 10 + i as u64, 100, 0);
        }
        // Region 4 (server 0) is the largest; then region 2.
        assert_eq!(global_pressure_pick(0, rs.iter()), Some(4));
        rs[4].flushing = true;
        assert_eq!(global_pressure_pick(0, rs.iter()), Some(2));
        rs[2].flush_queued = true;
        rs[0].state = RegionState::Moving;
        assert_eq!(global_pressure_pick(0, rs.iter()), None);
        assert_eq!(global_pressure_pick(1, rs.iter()), Some(3));
        // Equal sizes: the lower region id.
        let twins: Vec<Region> = (0..2)
            .map(|i| {
                let mut r = test_region(i, 0, 1);
                test_write(&mut r, 0, 5, 100, 0);
                r
            })
            .collect();
        assert_eq!(global_pressure_pick(0, twins.iter()), Some(0));
    }

    // Mirrors MemStoreFlusher.flushRegion: more than blockingStoreFiles files in a store holds
    // the flush back until blockingWaitTime has passed.
    #[test]
    fn a_flush_is_held_back_while_a_store_has_too_many_files() {
        let mut r = test_region(0, 0, 2);
        let file = |seq| crate::engine::state::region::HeldFile {
            file: crate::engine::state::storefile::test_file(seq),
            rows: 0,
        };
        for seq in 0..17 {
            r.stores[1].files.push(file(seq));
        }
        let wait = 90_000;
        assert_eq!(
            hold_back(&r, 16, 0, wait),
            Some(HoldBack {
                first: true,
                most_files: 17
            })
        );
        assert_eq!(hold_back(&r, 16, 10, wait).map(|h| h.first), Some(false));
        assert_eq!(hold_back(&r, 16, wait, wait), None);
        assert_eq!(hold_back(&r, 17, 0, wait), None);
    }

    // Mirrors FlushAllLargeStoresPolicy: stores above max(flush size / families, lower bound),
    // or every non-empty store if none is.
    #[test]
    fn several_families_flush_their_large_stores() {
        let mut r = test_region(0, 0, 3);
        test_write(&mut r, 0, 10, 100, 0);
        test_write(&mut r, 1, 1, 100, 0);
        assert_eq!(stores_to_flush(&r, 1500, 0), vec![true, false, false]);
        assert_eq!(stores_to_flush(&r, 30_000, 0), vec![true, true, false]);
        let one = test_region(1, 0, 1);
        assert_eq!(stores_to_flush(&one, 1, 0), vec![false]);
    }

    // Mirrors PeriodicMemStoreFlusher: regions whose oldest edit is older than the interval.
    #[test]
    fn periodic_flush_finds_old_edits_and_when_to_look_again() {
        let mut rs: Vec<Region> = (0..3).map(|i| test_region(i, 0, 1)).collect();
        test_write(&mut rs[0], 0, 1, 100, 1_000);
        test_write(&mut rs[1], 0, 1, 100, 5_000);
        let scan = periodic_scan(&rs, 4_500, 3_000);
        assert_eq!(scan.due, vec![0]);
        // Region 1's edit comes due after 5,000 + 3,000 ms.
        assert_eq!(scan.next_ms, 1_000 + 3_001);
        assert!(periodic_scan(&rs, 3_000, 3_000).due.is_empty());
    }
}
