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
    /// The server hosts `hbase.regionserver.regionSplitLimit` regions or more.
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
    /// A store is at or past `blockingStoreFiles` (`getCompactPriority() < PRIORITY_USER`) and
    /// `hbase.regionserver.split.ignore.blocking.enabled` is off: compact first.
    TooManyStoreFiles {
        /// `HRegion.getCompactPriority()`.
        priority: i64,
    },
    /// The split policy said no, with its numbers.
    PolicyDeclined(SplitDecision),
    /// The policy said yes but no split row was found.
    NoSplitPoint(NoSplitPoint),
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

impl SplitGate {
    /// `CompactSplit.requestSplit`'s own gates (the split limit, the compact priority). Asked
    /// for the flusher ([`SplitCaller::Flusher`]) they come only after `HRegion.checkSplit`
    /// found a split row: the split was wanted and refused.
    pub fn is_request_gate(&self) -> bool {
        matches!(
            self,
            SplitGate::ServerAtSplitLimit { .. } | SplitGate::TooManyStoreFiles { .. }
        )
    }
}

/// Who asks for the split check, which sets the order of its gates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitCaller {
    /// `MemStoreFlusher.flushRegion` after a flush: `HRegion.checkSplit` first (the policy and
    /// the split row), then `CompactSplit.requestSplit`'s gates.
    Flusher,
    /// `CompactSplit.requestSplit` itself (after a compaction, for a held-back flush): its gates
    /// first, the policy only if they pass.
    RequestSplit,
}

/// What the split check needs besides the region.
#[derive(Debug, Clone, Copy)]
pub struct SplitContext {
    /// Online regions of the hosting server.
    pub online_regions: usize,
    /// `hbase.regionserver.regionSplitLimit`.
    pub region_split_limit: u32,
    /// `hbase.regionserver.split.ignore.blocking.enabled`.
    pub ignore_blocking: bool,
    /// `hbase.hstore.blockingStoreFiles`.
    pub blocking_store_files: usize,
    /// Simulated now, ms.
    pub now_ms: u64,
    /// Who asks (the order of the gates).
    pub caller: SplitCaller,
}

/// `HRegion.checkSplit` + `CompactSplit.requestSplit` for `region`, without changing anything,
/// in the caller's order. Running compactions do not stop a split: the close aborts them
/// (`CloseChecker`).
pub fn check(region: &Region, cx: SplitContext) -> SplitCheck {
    let gate = |g| SplitCheck {
        outcome: Err(g),
        busy: None,
    };
    if cx.caller == SplitCaller::RequestSplit
        && let Some(g) = request_gate(region, cx)
    {
        return gate(g);
    }
    if region.state != RegionState::Open {
        return gate(SplitGate::NotOpen);
    }
    if region.flush.running() {
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
            Ok(row) => match cx.caller {
                SplitCaller::Flusher => match request_gate(region, cx) {
                    Some(g) => Err(g),
                    None => Ok(SplitRequest { row, decision }),
                },
                SplitCaller::RequestSplit => Ok(SplitRequest { row, decision }),
            },
            Err(e) => Err(SplitGate::NoSplitPoint(e)),
        }
    };
    SplitCheck {
        outcome,
        busy: Some(busy),
    }
}

/// `CompactSplit.requestSplit`'s gates: `shouldSplitRegion` (online regions below
/// `regionSplitLimit`) and `getCompactPriority() >= PRIORITY_USER` (or
/// `split.ignore.blocking`, which makes the priority PRIORITY_USER when a split row exists; when
/// none exists the split is refused either way).
fn request_gate(region: &Region, cx: SplitContext) -> Option<SplitGate> {
    if cx.online_regions as u64 >= cx.region_split_limit as u64 {
        return Some(SplitGate::ServerAtSplitLimit {
            online: cx.online_regions,
            limit: cx.region_split_limit,
        });
    }
    let priority = region.compact_priority(cx.blocking_store_files);
    (!cx.ignore_blocking && priority < 1).then_some(SplitGate::TooManyStoreFiles { priority })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::region::{HeldFile, test_region};
    use crate::engine::state::storefile::test_file;

    fn cx(ignore_blocking: bool) -> SplitContext {
        SplitContext {
            online_regions: 1,
            region_split_limit: 1000,
            ignore_blocking,
            blocking_store_files: 16,
            now_ms: 0,
            caller: SplitCaller::RequestSplit,
        }
    }

    /// Mirrors `HRegion.getCompactPriority`'s split branch: with
    /// `hbase.hregion.split.ignore.blocking.enabled` a region whose split is wanted reports
    /// `PRIORITY_USER`, so `CompactSplit.requestSplit` lets it split with a store at
    /// `blockingStoreFiles`; without it the store's priority (16 − 17 = −1) refuses it. 15
    /// files give 1, which HBase bumps to 2: still allowed.
    #[test]
    fn compact_priority_split_branch_and_the_blocking_gate() {
        let with = |n: u64| {
            let mut r = test_region(0, 0, 1);
            for seq in 0..n {
                r.stores[0].files.push(HeldFile {
                    file: test_file(seq),
                    rows: 1,
                });
            }
            r
        };
        assert_eq!(
            request_gate(&with(17), cx(false)),
            Some(SplitGate::TooManyStoreFiles { priority: -1 })
        );
        assert_eq!(request_gate(&with(17), cx(true)), None);
        assert_eq!(request_gate(&with(15), cx(false)), None);
        assert_eq!(
            request_gate(&with(16), cx(false)),
            Some(SplitGate::TooManyStoreFiles { priority: 0 })
        );
    }
}
