//! Where a split is refused, and why: the gates `HRegion.checkSplit` and
//! `CompactSplit.requestSplit` apply around the split policy (`split.rs`) and the split point
//! (`split_point.rs`), as one pure check returning the split or a typed [`SplitGate`].

use super::split::{BusyState, RegionView, SplitDecision};
use super::split_point::NoSplitPoint;
use crate::engine::state::region::{Region, RegionState, Store};

/// Why a region does not split now: the gates `HRegion.checkSplit` and
/// `CompactSplit.requestSplit` apply before and after asking the policy.
#[derive(Debug, Clone, PartialEq)]
pub enum SplitGate {
    /// The policy found a split, but the server hosts `hbase.regionserver.regionSplitLimit`
    /// regions or more (`CompactSplit.shouldSplitRegion`).
    ServerAtSplitLimit {
        /// Online regions of the server.
        online: usize,
        /// The limit.
        limit: u32,
    },
    /// The region is not open (splitting, moving, merging or retired).
    NotOpen,
    /// A flush is running; the split is checked again when it completes (`HRegion.doClose`
    /// waits for it).
    Flushing,
    /// The policy found a split, but `CompactSplit.requestSplit` refuses it: a store is at or
    /// past `blockingStoreFiles` (`HRegion.getCompactPriority() < PRIORITY_USER`) and
    /// `hbase.hregion.split.ignore.blocking.enabled` is off. The region compacts first.
    TooManyStoreFiles {
        /// `HRegion.getCompactPriority()`.
        priority: i64,
    },
    /// The split policy said no, with its numbers.
    PolicyDeclined(SplitDecision),
    /// The policy said yes but no split row was found.
    NoSplitPoint(NoSplitPoint),
}

impl SplitGate {
    /// `HRegion.checkSplit()` found a split point and only `CompactSplit.requestSplit` refused
    /// it. `MemStoreFlusher.flushRegion` then requests no compaction after the flush.
    pub fn split_found(&self) -> bool {
        matches!(
            self,
            SplitGate::ServerAtSplitLimit { .. } | SplitGate::TooManyStoreFiles { .. }
        )
    }
}

/// A split the checks allow: the row, and the policy's decision that asked for it.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitRequest {
    /// The split row (after the policy's adjustment).
    pub row: Vec<u8>,
    /// The policy's decision (its `why` has the numbers).
    pub decision: SplitDecision,
}

/// What `HRegion.checkSplit` concludes for one region.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitCheck {
    /// Split, or the gate that stopped it.
    pub outcome: Result<SplitRequest, SplitGate>,
    /// The Busy policy's bookkeeping after the call, when the policy was asked (HBase's
    /// `updateRate()` runs on every `shouldSplit()`).
    pub busy: Option<BusyState>,
}

/// What the split check needs besides the region.
#[derive(Debug, Clone, Copy)]
pub struct SplitContext {
    /// Online regions of the hosting server.
    pub online_regions: usize,
    /// `hbase.regionserver.regionSplitLimit`.
    pub region_split_limit: u32,
    /// `hbase.hregion.split.ignore.blocking.enabled`.
    pub ignore_blocking: bool,
    /// `hbase.hstore.blockingStoreFiles`.
    pub blocking_store_files: usize,
    /// Simulated now, ms.
    pub now_ms: u64,
}

/// `Store.PRIORITY_USER`: `CompactSplit.requestSplit` splits only at this priority or above.
pub const PRIORITY_USER: i64 = 1;

/// `HRegion.getCompactPriority()`: with `hbase.hregion.split.ignore.blocking.enabled` and a
/// split that `checkSplit` finds, `PRIORITY_USER` ("split it before compact"); otherwise the
/// lowest store priority (`blockingStoreFiles − files`, 1 bumped to 2).
pub fn compact_priority(region: &Region, split_found: bool, cx: &SplitContext) -> i64 {
    if split_found && cx.ignore_blocking {
        PRIORITY_USER
    } else {
        region.compact_priority(cx.blocking_store_files)
    }
}

/// `HRegion.checkSplit` + `CompactSplit.requestSplit` for `region`, without changing anything.
/// Running compactions do not stop a split: the close aborts them (`CloseChecker`).
///
/// HBase asks `checkSplit` (the policy, then the split point) first — after a flush in
/// `MemStoreFlusher.flushRegion`, inside `requestSplit` otherwise — and only then does
/// `requestSplit` compare `getCompactPriority()` with `PRIORITY_USER`. So the policy's
/// bookkeeping (the Busy policy's rate) runs even when the priority refuses the split, and
/// [`SplitGate::TooManyStoreFiles`] means "a split was found but refused".
pub fn check(region: &Region, cx: SplitContext) -> SplitCheck {
    let gate = |g| SplitCheck {
        outcome: Err(g),
        busy: None,
    };
    if region.state != RegionState::Open {
        return gate(SplitGate::NotOpen);
    }
    if region.flushing {
        return gate(SplitGate::Flushing);
    }
    let sizes: Vec<u64> = region.stores.iter().map(Store::size).collect();
    let view = RegionView {
        store_sizes: &sizes,
        has_references: region.stores.iter().any(Store::has_references),
        available: true,
        table_regions_on_server: cx.online_regions as u32,
        now_ms: cx.now_ms,
    };
    let (decision, busy) = region.policy.decide(&view);
    let outcome = if !decision.split {
        Err(SplitGate::PolicyDeclined(decision))
    } else {
        match super::split_point::choose(region) {
            Err(e) => Err(SplitGate::NoSplitPoint(e)),
            Ok(row) => {
                // CompactSplit.requestSplit: shouldSplitRegion, then the compact priority.
                let priority = compact_priority(region, true, &cx);
                if cx.online_regions as u64 >= cx.region_split_limit as u64 {
                    Err(SplitGate::ServerAtSplitLimit {
                        online: cx.online_regions,
                        limit: cx.region_split_limit,
                    })
                } else if priority < PRIORITY_USER {
                    Err(SplitGate::TooManyStoreFiles { priority })
                } else {
                    Ok(SplitRequest { row, decision })
                }
            }
        }
    };
    SplitCheck {
        outcome,
        busy: Some(busy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::region::{HeldFile, test_region};
    use crate::engine::state::storefile::test_file;

    fn with_files(counts: &[usize]) -> Region {
        let mut r = test_region(0, 0, counts.len());
        for (store, &n) in counts.iter().enumerate() {
            for seq in 0..n as u64 {
                r.stores[store].files.push(HeldFile {
                    file: test_file(seq),
                    rows: 1,
                });
            }
        }
        r
    }

    fn cx(ignore_blocking: bool) -> SplitContext {
        SplitContext {
            online_regions: 1,
            region_split_limit: 1000,
            ignore_blocking,
            blocking_store_files: 16,
            now_ms: 0,
        }
    }

    // Mirrors HRegion.getCompactPriority (HBase 2.6): with split.ignore.blocking.enabled and a
    // split found, Store.PRIORITY_USER; else the lowest HStore.getCompactPriority
    // (DefaultStoreFileManager: blockingStoreFiles − files, 1 bumped to 2).
    #[test]
    fn compact_priority_has_a_split_branch() {
        let r = with_files(&[3, 17]);
        assert_eq!(compact_priority(&r, false, &cx(false)), -1);
        assert_eq!(compact_priority(&r, true, &cx(false)), -1);
        assert_eq!(compact_priority(&r, false, &cx(true)), -1);
        assert_eq!(compact_priority(&r, true, &cx(true)), PRIORITY_USER);
        // 15 files: 16 − 15 = 1 is bumped to 2, so a store one file short of blocking still
        // lets the region split.
        assert_eq!(compact_priority(&with_files(&[15]), true, &cx(false)), 2);
        assert_eq!(compact_priority(&with_files(&[16]), true, &cx(false)), 0);
    }

    // Mirrors CompactSplit.requestSplit's gates: only a split found by HRegion.checkSplit is
    // refused for the split limit or the compact priority; a policy that declines is reported
    // as such whatever the store file count.
    #[test]
    fn request_split_gates_apply_to_a_found_split_only() {
        let r = with_files(&[20]);
        let out = check(&r, cx(false))
            .outcome
            .expect_err("test_region never splits");
        assert!(matches!(out, SplitGate::PolicyDeclined(_)));
        assert!(!out.split_found());
        assert!(!SplitGate::Flushing.split_found());
        assert!(SplitGate::TooManyStoreFiles { priority: -4 }.split_found());
    }
}
