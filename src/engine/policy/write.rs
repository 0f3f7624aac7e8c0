//! The write path's rules, stated once: whether a region takes a row now and, if not, why
//! (`HRegion.checkResources`, `MemStoreFlusher.reclaimMemStoreMemory`), and how many rows a
//! region and its server take before something fires (the flush size, the blocking memstore
//! size, the global memstore's high and low marks, a WAL roll). Pure.
//!
//! Every way rows land asks these functions: the row-at-a-time path (`apply/write.rs`), runs
//! of rows (`ingest/runs.rs`), the other tables' writers (`apply/tables.rs`) and the client's
//! retries (`apply/client.rs`). The row counts are the admission rules solved for a number of
//! rows of one size; the tests below hold each to the rule applied row by row.

use crate::config::Settings;
use crate::engine::policy::client::Refusal;
use crate::engine::state::region::Region;

/// A server's global memstore marks (`hbase.regionserver.global.memstore.size` and its
/// `lower.limit`): at the high mark writes block until flushes bring the server down; from the
/// low mark on, flushes are forced (`MemStoreFlusher`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GlobalMarks {
    pub(crate) high: u64,
    pub(crate) low: u64,
}

impl GlobalMarks {
    /// The marks of a server with `heap` bytes: the high mark is the absolute
    /// `hbase.regionserver.global.memstore.size` where one is set, else that fraction of the
    /// heap (`MemorySizeUtil.getGlobalMemStoreSize`); the low mark is `…lower.limit` × high.
    pub(crate) fn of(settings: &Settings, heap: u64) -> GlobalMarks {
        let high = settings
            .global_memstore_bytes
            .unwrap_or((heap as f64 * f64::from(settings.global_memstore_fraction)) as u64);
        let low = (high as f64 * f64::from(settings.global_memstore_lower_limit)) as u64;
        GlobalMarks { high, low }
    }

    /// `MemStoreFlusher.isAboveHighWaterMark`: a server holding `heap` memstore bytes blocks
    /// its writes (`reclaimMemStoreMemory`).
    #[inline(always)]
    pub(crate) fn blocks(self, heap: u64) -> bool {
        heap >= self.high
    }

    /// `MemStoreFlusher.isAboveLowWaterMark`: a server holding `heap` memstore bytes forces
    /// flushes (`flushOneForGlobalPressure`).
    #[inline(always)]
    pub(crate) fn presses(self, heap: u64) -> bool {
        heap >= self.low
    }

    /// Rows of `row_heap` bytes a server at `heap` admits before it blocks: each is admitted
    /// while the server is below the high mark when it arrives.
    pub(crate) fn rows_before_block(self, heap: u64, row_heap: u64) -> u64 {
        if self.blocks(heap) {
            0
        } else {
            (self.high - heap - 1) / row_heap.max(1) + 1
        }
    }

    /// Rows of `row_heap` bytes after each of which a server at `heap` is still below the low
    /// mark (no global pressure check is due).
    pub(crate) fn rows_below_low(self, heap: u64, row_heap: u64) -> u64 {
        if self.presses(heap) {
            0
        } else {
            (self.low - heap - 1) / row_heap.max(1)
        }
    }
}

/// The figures a region's and its server's write triggers are measured against.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WriteLimits {
    /// `hbase.hregion.memstore.flush.size`.
    pub(crate) flush_size: u64,
    /// Flush size × `hbase.hregion.memstore.block.multiplier`.
    pub(crate) blocking: u64,
    pub(crate) global: GlobalMarks,
}

impl WriteLimits {
    pub(crate) fn new(settings: &Settings, global: GlobalMarks) -> WriteLimits {
        WriteLimits {
            flush_size: settings.flush_size,
            blocking: settings.blocking_memstore_size,
            global,
        }
    }
}

/// What the write rules read of a region.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RegionWrite {
    /// Open and serving (not closing for a split, move or merge, not on a dead server).
    pub(crate) open: bool,
    /// The client already holds rows back for it: a new row queues behind them.
    pub(crate) held_behind: bool,
    /// The active segments' heap (`HRegion.isFlushSize` reads these).
    pub(crate) active_heap: u64,
    /// The snapshot being flushed (`checkResources` counts it too).
    pub(crate) snapshot_heap: u64,
}

impl RegionWrite {
    /// What the rules read of `r`.
    #[inline(always)]
    pub(crate) fn of(r: &Region) -> RegionWrite {
        RegionWrite {
            open: r.takes_writes(),
            held_behind: r.client_held,
            active_heap: r.active_heap(),
            snapshot_heap: r.snapshot_heap,
        }
    }

    /// `HRegion.getMemStoreHeapSize()`: active and snapshot.
    #[inline(always)]
    fn memstore_heap(self) -> u64 {
        self.active_heap + self.snapshot_heap
    }
}

/// Whether a row lands now, and the typed reason when it does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    /// The region's memstores take the row.
    Take,
    /// The region refuses it (`NotServingRegionException`, `RegionTooBusyException`).
    Refused(Refusal),
    /// The client holds rows back for the region already: the row joins them.
    BehindHeld,
    /// The server is at its global high mark: its handlers block the write until flushes
    /// bring it down (`MemStoreFlusher.reclaimMemStoreMemory`).
    Blocked,
}

/// What the region itself says to a mutation (`HRegion.checkResources` after the open check):
/// offline, or too busy above the blocking memstore size.
#[inline(always)]
pub(crate) fn refusal(open: bool, memstore_heap: u64, blocking: u64) -> Option<Refusal> {
    if !open {
        Some(Refusal::Offline)
    } else if memstore_heap > blocking {
        Some(Refusal::TooBusy)
    } else {
        None
    }
}

/// Whether `region`, on a server holding `server_heap` memstore bytes, takes a row now. The
/// reasons are checked in the order a write meets them: the region refuses first, the client's
/// queue for the region comes next, the server's handlers block last.
#[inline(always)]
pub(crate) fn admission(region: RegionWrite, server_heap: u64, lim: &WriteLimits) -> Admission {
    if let Some(why) = refusal(region.open, region.memstore_heap(), lim.blocking) {
        Admission::Refused(why)
    } else if region.held_behind {
        Admission::BehindHeld
    } else if lim.global.blocks(server_heap) {
        Admission::Blocked
    } else {
        Admission::Take
    }
}

/// After a write: the region's active memstore is above the flush size (`HRegion.isFlushSize`),
/// and it requests a flush.
#[inline(always)]
pub(crate) fn over_flush_size(active_heap: u64, flush_size: u64) -> bool {
    active_heap > flush_size
}

/// Rows of `row_heap` bytes `region` takes one after another before anything fires: each is
/// admitted (below the blocking size when it arrives), and none takes the active memstore past
/// the flush size — unless `flush_pending` (a flush is queued or running), when the size
/// check's request does nothing and only the blocking size counts.
pub(crate) fn region_rows(
    region: RegionWrite,
    row_heap: u64,
    flush_pending: bool,
    lim: &WriteLimits,
) -> u64 {
    let row_heap = row_heap.max(1);
    let heap = region.memstore_heap();
    if !region.open || region.held_behind || heap > lim.blocking {
        return 0;
    }
    let to_block = (lim.blocking - heap) / row_heap + 1;
    if flush_pending {
        to_block
    } else if over_flush_size(region.active_heap, lim.flush_size) {
        0
    } else {
        to_block.min((lim.flush_size - region.active_heap) / row_heap)
    }
}

/// `AbstractFSWAL.checkLogRoll`: the WAL rolls once its file is longer than the roll size.
#[inline(always)]
pub(crate) fn wal_rolls(appended: u64, roll_size: u64) -> bool {
    appended > roll_size
}

/// Rows of `row_wal` WAL bytes a WAL holding `appended` bytes takes before one makes it roll.
pub(crate) fn rows_before_roll(appended: u64, roll_size: u64, row_wal: u64) -> u64 {
    if wal_rolls(appended, roll_size) {
        0
    } else {
        (roll_size - appended)
            .checked_div(row_wal)
            .unwrap_or(u64::MAX)
    }
}

/// How much of a client's `wait` at a server its GC pauses caused. `backlog` is the server's
/// write path's work ahead when the row arrived (`busy_until − now`) and `owed` the pause time
/// still in it: at most the backlog, since a backlog that drained took the pauses' delay with
/// it. Without the pauses the backlog, and so the wait, would be `owed` shorter: the wait's
/// first `owed` ns are the pauses'. Returns (the wait's GC part, the pause time still owed).
#[inline(always)]
pub(crate) fn gc_wait(owed: u64, backlog: u64, wait: u64) -> (u64, u64) {
    let owed = owed.min(backlog);
    let gc = owed.min(wait);
    (gc, owed - gc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn limits(flush: u64, multiplier: u64, high: u64, low: u64) -> WriteLimits {
        WriteLimits {
            flush_size: flush,
            blocking: flush * multiplier,
            global: GlobalMarks { high, low },
        }
    }

    fn open(active: u64, snapshot: u64) -> RegionWrite {
        RegionWrite {
            open: true,
            held_behind: false,
            active_heap: active,
            snapshot_heap: snapshot,
        }
    }

    /// Mirrors `HRegion.checkResources`: `RegionTooBusyException` only above
    /// flush size × `hbase.hregion.memstore.block.multiplier`, counting the snapshot; a
    /// closed region answers `NotServingRegionException` first.
    #[test]
    fn region_refuses_above_blocking_size_and_when_offline() {
        let lim = limits(128, 4, 1 << 30, 1 << 29);
        assert_eq!(admission(open(512, 0), 0, &lim), Admission::Take);
        assert_eq!(
            admission(open(500, 13), 0, &lim),
            Admission::Refused(Refusal::TooBusy)
        );
        let closed = RegionWrite {
            open: false,
            ..open(600, 0)
        };
        assert_eq!(
            admission(closed, 1 << 30, &lim),
            Admission::Refused(Refusal::Offline)
        );
    }

    /// Mirrors `MemStoreFlusher.reclaimMemStoreMemory` / `isAboveHighWaterMark` (blocks at
    /// `>=` the global limit) and `isAboveLowWaterMark` (forced flushes from the low mark on).
    #[test]
    fn server_blocks_at_high_mark_and_presses_at_low_mark() {
        let lim = limits(128, 4, 1000, 950);
        assert_eq!(admission(open(0, 0), 999, &lim), Admission::Take);
        assert_eq!(admission(open(0, 0), 1000, &lim), Admission::Blocked);
        assert!(!lim.global.presses(949));
        assert!(lim.global.presses(950));
        let held = RegionWrite {
            held_behind: true,
            ..open(0, 0)
        };
        assert_eq!(admission(held, 1000, &lim), Admission::BehindHeld);
    }

    /// Mirrors `MemorySizeUtil.getGlobalMemStoreSize` and `getGlobalMemStoreHeapLowerMark`:
    /// a fraction of the heap, or an absolute size where one is set; low = high × lower.limit.
    #[test]
    fn global_marks_from_fraction_or_absolute_size() {
        let mut s = crate::engine::policy::balancer::test_settings();
        s.global_memstore_fraction = 0.4;
        s.global_memstore_lower_limit = 0.75;
        s.global_memstore_bytes = None;
        let m = GlobalMarks::of(&s, 1000);
        assert_eq!((m.high, m.low), (400, 300));
        s.global_memstore_bytes = Some(200);
        let m = GlobalMarks::of(&s, 1000);
        assert_eq!((m.high, m.low), (200, 150));
        // The fraction is a Java float: 0.95 × 400 truncates to 379, as HBase's long cast does.
        s.global_memstore_bytes = None;
        s.global_memstore_lower_limit = 0.95;
        let m = GlobalMarks::of(&s, 1000);
        assert_eq!((m.high, m.low), (400, 379));
    }

    /// Mirrors `AbstractFSWAL.checkLogRoll`: a roll once the file is longer than the roll size.
    #[test]
    fn wal_rolls_past_the_roll_size() {
        assert!(!wal_rolls(100, 100));
        assert!(wal_rolls(101, 100));
        assert_eq!(rows_before_roll(0, 100, 10), 10);
        assert_eq!(rows_before_roll(95, 100, 10), 0);
        assert_eq!(rows_before_roll(101, 100, 10), 0);
        assert_eq!(rows_before_roll(0, 100, 0), u64::MAX);
    }

    /// Lands rows of `row` heap bytes one by one by the admission and flush-size rules, and
    /// counts those taken before the first that is refused or requests a flush.
    fn region_rows_one_by_one(
        mut r: RegionWrite,
        row: u64,
        pending: bool,
        lim: &WriteLimits,
    ) -> u64 {
        let mut n = 0;
        while n < 10_000 && admission(r, 0, lim) == Admission::Take {
            r.active_heap += row;
            if !pending && over_flush_size(r.active_heap, lim.flush_size) {
                return n;
            }
            n += 1;
        }
        n
    }

    proptest! {
        /// The region's row count is the admission and flush-size rules applied row by row.
        #[test]
        fn region_rows_match_the_rules_row_by_row(
            flush in 1u64..400, mult in 1u64..5, active in 0u64..2000, snapshot in 0u64..800,
            row in 1u64..200, pending: bool, open_: bool, held: bool,
        ) {
            let lim = limits(flush, mult, u64::MAX, u64::MAX);
            let r = RegionWrite { open: open_, held_behind: held, active_heap: active, snapshot_heap: snapshot };
            prop_assert_eq!(region_rows(r, row, pending, &lim), region_rows_one_by_one(r, row, pending, &lim));
        }

        /// The server's row counts are the high and low marks applied row by row.
        #[test]
        fn server_rows_match_the_marks_row_by_row(
            high in 1u64..5000, low_frac in 0u64..=100, heap in 0u64..6000, row in 1u64..300,
        ) {
            let m = GlobalMarks { high, low: high * low_frac / 100 };
            let (mut h, mut admitted) = (heap, 0);
            while !m.blocks(h) { h += row; admitted += 1; }
            prop_assert_eq!(m.rows_before_block(heap, row), admitted);
            let (mut h, mut quiet) = (heap, 0);
            if !m.presses(h) {
                loop { h += row; if m.presses(h) { break; } quiet += 1; }
            }
            prop_assert_eq!(m.rows_below_low(heap, row), quiet);
        }

        /// Rows before a roll: each appended row leaves the WAL at or below the roll size.
        #[test]
        fn wal_rows_match_the_roll_rule(appended in 0u64..3000, roll in 1u64..2000, wal in 1u64..300) {
            let (mut a, mut n) = (appended, 0);
            while !wal_rolls(a, roll) {
                a += wal;
                if wal_rolls(a, roll) { break; }
                n += 1;
            }
            prop_assert_eq!(rows_before_roll(appended, roll, wal), n);
        }
    }

    /// A pause lengthens every later request's queueing by its length until the backlog it
    /// sits in drains (`JvmPauseMonitor` reports the pause; the client sees it as latency).
    #[test]
    fn a_wait_is_the_pauses_first_and_a_drained_backlog_owes_nothing() {
        // A 1.5 s pause in a 1.6 s backlog: the next row's 1.5 s wait is all GC.
        assert_eq!(gc_wait(1_500, 1_600, 1_500), (1_500, 0));
        // Part of it: a 2 s wait of which the pause is 0.5 s.
        assert_eq!(gc_wait(500, 2_100, 2_000), (500, 0));
        // A wait shorter than what is owed leaves the rest for the next rows.
        assert_eq!(gc_wait(1_500, 1_600, 400), (400, 1_100));
        // The backlog drained below the pause: only what is left of it counts.
        assert_eq!(gc_wait(1_500, 300, 300), (300, 0));
        assert_eq!(gc_wait(1_500, 0, 0), (0, 0));
    }
}
