//! Flush policy: which region to flush and when (`MemStoreFlusher`, `HRegion`), and which of its
//! stores (`FlushAllLargeStoresPolicy`). Pure: the write path and the flush applier ask, then act.

use std::cmp::Reverse;

use crate::engine::decision::{Decision, FlushWhy};
use crate::engine::policy::write::GlobalMarks;
use crate::engine::state::region::{Region, RegionState};
use crate::engine::state::server::Server;
use crate::keygen::rng::splitmix64;

/// `MemStoreFlusher.flushOneForGlobalPressure` is worth a scan: the server is at or above the
/// global low mark, a flush handler is free, and the last scan did not come back empty with
/// nothing changed since.
pub(crate) fn pressure_scan_due(server: &Server, global: GlobalMarks, flushers: u32) -> bool {
    let busy = server.flushes_running as usize + server.flush_queue.len();
    global.presses(server.memstore_heap)
        && busy < flushers.max(1) as usize
        && !server.pressure_futile
}

/// Why the global pressure flush chose its region (`MemStoreFlusher.flushOneForGlobalPressure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PressureChoice {
    /// The largest memstore among the regions with no store above `blockingStoreFiles`.
    LargestFlushable,
    /// A region with too many store files whose memstore is more than twice the largest
    /// flushable one's: flushed anyway, without waiting for a compaction.
    OverFileLimitTwiceAsLarge,
    /// Every candidate has too many store files: the largest of them.
    OnlyOverFileLimit,
}

impl PressurePick {
    /// The emergency flush of the picked region, with its reason.
    pub(crate) fn decision(&self) -> Decision {
        let why = match self.choice {
            PressureChoice::LargestFlushable | PressureChoice::OnlyOverFileLimit => {
                FlushWhy::Global
            }
            PressureChoice::OverFileLimitTwiceAsLarge => FlushWhy::GlobalOverFileLimit,
        };
        Decision::EmergencyFlush {
            region: self.region,
            why,
        }
    }
}

/// The global pressure flush's pick: flushed at once, bypassing the blocking-files delay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PressurePick {
    /// Region id.
    pub(crate) region: usize,
    /// Its memstore heap (`HRegion.getMemStoreHeapSize`).
    pub(crate) heap: u64,
    /// Why this one.
    pub(crate) choice: PressureChoice,
}

/// The region a server flushes under global pressure, as `flushOneForGlobalPressure` picks it
/// for an on-heap memstore (`ABOVE_ONHEAP_*`, sizes are heap sizes; off-heap memstores are not
/// modelled). Candidates are the server's open regions not already flushing
/// (`writestate.flushing`, `writesEnabled`); a queued or delayed flush does not exclude a
/// region — the emergency flush takes it off the queue. Of the largest "flushable" memstore
/// (no store above `blocking_store_files`) and the largest of all, the latter wins when it is
/// more than twice the former. `None` when the pick's memstore is empty: HBase's handler
/// finds nothing to flush and sleeps. Ties go to the lower region id (HBase's size-keyed map
/// keeps equal sizes in hash order; any fixed choice is as faithful).
pub(crate) fn global_pressure_pick<'a>(
    server: usize,
    regions: impl Iterator<Item = &'a Region>,
    blocking_store_files: usize,
) -> Option<PressurePick> {
    let mut any: Option<(u64, Reverse<usize>)> = None;
    let mut flushable: Option<(u64, Reverse<usize>)> = None;
    for r in regions {
        if r.server != server || r.state != RegionState::Open || r.flush.running() {
            continue;
        }
        let key = (r.memstore_heap(), Reverse(r.id));
        any = any.max(Some(key));
        // The file counts matter only to a region that would become the largest flushable one.
        if Some(key) > flushable
            && !r
                .stores
                .iter()
                .any(|s| s.files.len() > blocking_store_files)
        {
            flushable = Some(key);
        }
    }
    let (any_heap, Reverse(any_id)) = any?;
    let flushable_heap = flushable.map_or(0, |(h, _)| h);
    let (heap, region, choice) = match flushable {
        Some((h, Reverse(id))) if any_heap <= flushable_heap.saturating_mul(2) => {
            (h, id, PressureChoice::LargestFlushable)
        }
        Some(_) => (any_heap, any_id, PressureChoice::OverFileLimitTwiceAsLarge),
        // No flushable region: 2 × 0 < any size, so the largest of all (or nothing if empty).
        None => (any_heap, any_id, PressureChoice::OnlyOverFileLimit),
    };
    (heap > 0).then_some(PressurePick {
        region,
        heap,
        choice,
    })
}

/// A flush request is taken: the region is open, has unflushed data, and no flush of it is
/// queued or running (`MemStoreFlusher.requestFlush` keeps one entry per region) — except that
/// an immediate request replaces the periodic flusher's delayed entry.
pub(crate) fn accepts_request(region: &Region) -> bool {
    (region.flush.idle() || region.flush.delayed_periodic())
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

/// `HRegion.worthPreFlushing`: a close first flushes the memstore, while writes still land, when
/// it holds more than `hbase.hregion.preclose.flush.size` of data; only what arrives meanwhile
/// is flushed once the close flag is up. Splits, moves and merges wait for a running flush, so
/// a closing region is not flushing; were it, it would close at once with what it holds.
pub(crate) fn pre_close_flush(region: &Region, preclose_flush_size: u64) -> bool {
    region.state == RegionState::Open
        && !region.flush.running()
        && region.memstore_data() > preclose_flush_size
}

/// The stores a flush of `why` writes: every non-empty one for a pre-close flush
/// (`HRegion.internalFlushcache` over all stores), else `stores_to_flush`.
pub(crate) fn stores_for(
    region: &Region,
    why: FlushWhy,
    flush_size: u64,
    per_cf_lower_bound_min: u64,
) -> Vec<bool> {
    if why == FlushWhy::PreClose {
        region
            .stores
            .iter()
            .map(|s| !s.memstore.is_empty())
            .collect()
    } else {
        stores_to_flush(region, flush_size, per_cf_lower_bound_min)
    }
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

/// `PeriodicMemStoreFlusher`: the random delay, uniform in [0, `range_ms`), before a periodic
/// flush request reaches the flush queue (spreading the flushes of regions that came due
/// together). HBase draws it from `ThreadLocalRandom`; here it is a pure function of the seed,
/// the region and the chore's time, so a run does not depend on threads or event order.
pub(crate) fn periodic_delay_ms(seed: u64, region: usize, now_ms: u64, range_ms: u64) -> u64 {
    if range_ms == 0 {
        return 0;
    }
    let h = splitmix64(
        seed ^ 0x9E51_0D1C_F1A5_4000
            ^ (region as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
            ^ now_ms.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    h % range_ms
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::region::{FlushState, test_region, test_write};

    fn pick(server: usize, rs: &[Region], blocking: usize) -> Option<(usize, PressureChoice)> {
        global_pressure_pick(server, rs.iter(), blocking).map(|p| (p.region, p.choice))
    }

    fn with_files(r: &mut Region, n: u64) {
        for seq in 0..n {
            r.stores[0]
                .files
                .push(crate::engine::state::region::HeldFile {
                    file: crate::engine::state::storefile::test_file(seq),
                    rows: 0,
                });
        }
    }

    // Mirrors HRegion.worthPreFlushing: the memstore's data size (not its heap) above
    // hbase.hregion.preclose.flush.size, strictly; HRegion.doClose runs the pre-flush only for
    // a region that can flush (not one flushing already, in this model, nor one closed).
    #[test]
    fn a_close_pre_flushes_a_memstore_above_the_preclose_size() {
        let mut r = test_region(0, 0, 2);
        // 10 rows of 1,000 data bytes (2,000 heap) in each of two stores: 20,000 data bytes.
        test_write(&mut r, 0, 10, 2_000, 0);
        test_write(&mut r, 1, 10, 2_000, 0);
        assert!(pre_close_flush(&r, 19_999));
        assert!(!pre_close_flush(&r, 20_000), "strictly above");
        assert!(
            !pre_close_flush(&r, 39_999),
            "data (20,000), not heap (40,000), is compared"
        );
        r.flush = FlushState::Running(FlushWhy::Size);
        assert!(!pre_close_flush(&r, 0));
        r.flush = FlushState::Idle;
        r.state = RegionState::Splitting;
        assert!(!pre_close_flush(&r, 0));
        // The pre-close flush writes every store with data; a size flush picks the large ones.
        let mut r = test_region(0, 0, 2);
        test_write(&mut r, 0, 10, 2_000, 0);
        assert_eq!(stores_for(&r, FlushWhy::PreClose, 1, 0), vec![true, false]);
        test_write(&mut r, 1, 1, 2_000, 0);
        assert_eq!(
            stores_for(&r, FlushWhy::PreClose, 1 << 30, 1 << 30),
            vec![true, true]
        );
        assert_eq!(stores_for(&r, FlushWhy::Size, 16_000, 0), vec![true, false]);
    }

    // Mirrors MemStoreFlusher.flushOneForGlobalPressure: the largest memstore among the
    // server's open regions not flushing; a queued flush does not exclude a region.
    #[test]
    fn global_pressure_takes_the_largest_memstore_not_flushing() {
        let mut rs: Vec<Region> = (0..5).map(|i| test_region(i, i % 2, 1)).collect();
        for (i, r) in rs.iter_mut().enumerate() {
            test_write(r, 0, 10 + i as u64, 100, 0);
        }
        let largest = Some((4, PressureChoice::LargestFlushable));
        assert_eq!(pick(0, &rs, 16), largest);
        rs[4].flush = FlushState::Queued(FlushWhy::Size);
        assert_eq!(pick(0, &rs, 16), largest);
        rs[4].flush = FlushState::Running(FlushWhy::Size);
        assert_eq!(
            pick(0, &rs, 16),
            Some((2, PressureChoice::LargestFlushable))
        );
        rs[2].flush = FlushState::Running(FlushWhy::Size);
        rs[0].state = RegionState::Moving;
        assert_eq!(pick(0, &rs, 16), None);
        assert_eq!(
            pick(1, &rs, 16),
            Some((3, PressureChoice::LargestFlushable))
        );
        // Equal sizes: the lower region id; empty memstores: nothing to flush.
        let mut twins: Vec<Region> = (0..2).map(|i| test_region(i, 0, 1)).collect();
        assert_eq!(pick(0, &twins, 16), None);
        for r in &mut twins {
            test_write(r, 0, 5, 100, 0);
        }
        assert_eq!(
            pick(0, &twins, 16),
            Some((0, PressureChoice::LargestFlushable))
        );
    }

    // Mirrors MemStoreFlusher.flushOneForGlobalPressure: a region over blockingStoreFiles is
    // flushed instead of the best flushable one only when its memstore is more than twice as
    // large; with no flushable region, the largest of the others.
    #[test]
    fn global_pressure_prefers_flushable_unless_twice_as_large() {
        let mut rs: Vec<Region> = (0..2).map(|i| test_region(i, 0, 1)).collect();
        test_write(&mut rs[0], 0, 10, 100, 0);
        test_write(&mut rs[1], 0, 20, 100, 0);
        with_files(&mut rs[1], 17);
        // 20 rows vs 10: exactly twice (plus equal segment overheads) is not "more than twice".
        assert!(rs[1].memstore_heap() <= 2 * rs[0].memstore_heap());
        assert_eq!(
            pick(0, &rs, 16),
            Some((0, PressureChoice::LargestFlushable))
        );
        test_write(&mut rs[1], 0, 30, 100, 0);
        assert_eq!(
            pick(0, &rs, 16),
            Some((1, PressureChoice::OverFileLimitTwiceAsLarge))
        );
        // At the limit (16 files of 16) a store is not "too many".
        assert_eq!(
            pick(0, &rs, 17),
            Some((1, PressureChoice::LargestFlushable))
        );
        rs[0].flush = FlushState::Running(FlushWhy::Size);
        assert_eq!(
            pick(0, &rs, 16),
            Some((1, PressureChoice::OnlyOverFileLimit))
        );
    }

    // Mirrors HRegionServer.PeriodicMemStoreFlusher: the delay is below the range, a pure
    // function of (seed, region, time), and spread over the range.
    #[test]
    fn periodic_flush_delay_is_seeded_and_within_range() {
        let range = 300_000;
        let draws: Vec<u64> = (0..1000)
            .map(|r| periodic_delay_ms(7, r, 3_600_000, range))
            .collect();
        assert!(draws.iter().all(|&d| d < range));
        assert_eq!(draws[3], periodic_delay_ms(7, 3, 3_600_000, range));
        assert_ne!(draws[3], periodic_delay_ms(8, 3, 3_600_000, range));
        let mean = draws.iter().sum::<u64>() / draws.len() as u64;
        assert!((120_000..180_000).contains(&mean), "mean {mean}");
        assert_eq!(periodic_delay_ms(7, 3, 0, 0), 0);
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
