//! Where a split is refused, and why: the gates `HRegion.checkSplit` and
//! `CompactSplit.requestSplit` apply around the split policy (`split.rs`) and the split point
//! (`split_point.rs`), as one pure check returning the split or a typed [`SplitGate`].

use super::split::{BusyState, RegionView, SplitDecision};
use super::split_point::NoSplitPoint;
use crate::engine::state::region::{PRIORITY_USER, Region, RegionState, Store};

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
    /// Online regions of the hosting server, every table's (`HRegionServer
    /// .getNumberOfOnlineRegions`, what `CompactSplit.shouldSplitRegion` compares with
    /// `regionSplitLimit`).
    pub online_regions: usize,
    /// Online regions of the region's own table on that server (`HRegion
    /// .getCountOfCommonTableRegions`, what the split policies count).
    pub table_regions: usize,
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
    let (decision, busy) = region.policy.decide(&view(region, &sizes, cx));
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
    // HRegion.getCompactPriority asks checkSplit only with ignore.blocking set.
    let split_first = cx.ignore_blocking && wants_split(region, cx);
    let priority = region.compact_priority(cx.blocking_store_files, split_first);
    (priority < PRIORITY_USER).then_some(SplitGate::TooManyStoreFiles { priority })
}

/// `HRegion.checkSplit().isPresent()` for an open region: the policy wants a split and a split
/// row exists (what `getCompactPriority`'s split branch asks).
fn wants_split(region: &Region, cx: SplitContext) -> bool {
    // checkSplit refuses a closing region; a flush in progress does not stop it.
    if region.state != RegionState::Open {
        return false;
    }
    let sizes: Vec<u64> = region.stores.iter().map(Store::size).collect();
    region.policy.decide(&view(region, &sizes, cx)).0.split
        && super::split_point::choose(region).is_ok()
}

/// What the split policy sees of `region` (store sizes `sizes`).
fn view<'a>(region: &Region, sizes: &'a [u64], cx: SplitContext) -> RegionView<'a> {
    RegionView {
        store_sizes: sizes,
        has_references: region.stores.iter().any(Store::has_references),
        available: true,
        table_regions_on_server: cx.table_regions as u32,
        now_ms: cx.now_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::region::{HeldFile, test_region};
    use crate::engine::state::storefile::test_file_rows;

    fn cx(ignore_blocking: bool) -> SplitContext {
        SplitContext {
            online_regions: 1,
            table_regions: 1,
            region_split_limit: 1000,
            ignore_blocking,
            blocking_store_files: 16,
            now_ms: 0,
            caller: SplitCaller::RequestSplit,
        }
    }

    fn with_files(n: u64, max_filesize: u64) -> Region {
        let mut settings = crate::engine::policy::balancer::test_settings();
        settings.max_filesize = max_filesize;
        let mut r = test_region(0, 0, 1);
        r.policy = crate::engine::policy::split::SplitPolicyInstance::new(&settings, 0, 0.5);
        // The oldest file holds 1,000 rows over several blocks (a split point); the rest one.
        for seq in 0..n {
            let rows = if seq == 0 { 1000 } else { 1 };
            r.stores[0].files.push(HeldFile {
                file: test_file_rows(seq, rows),
                rows,
            });
        }
        r
    }

    /// Mirrors `HRegion.getCompactPriority` and `CompactSplit.requestSplit`: a store at
    /// `blockingStoreFiles` (16 − 17 = −1) refuses the split; 15 files give 1, which
    /// `DefaultStoreFileManager` bumps to 2: allowed. With
    /// `hbase.hregion.split.ignore.blocking.enabled` the region's priority is `PRIORITY_USER`
    /// only when `checkSplit()` gives a row (its split branch): a region its policy would not
    /// split is still refused at 17 files.
    #[test]
    fn compact_priority_split_branch_and_the_blocking_gate() {
        let big = 10 << 30;
        assert_eq!(
            request_gate(&with_files(17, big), cx(false)),
            Some(SplitGate::TooManyStoreFiles { priority: -1 })
        );
        assert_eq!(request_gate(&with_files(15, big), cx(false)), None);
        assert_eq!(
            request_gate(&with_files(16, big), cx(false)),
            Some(SplitGate::TooManyStoreFiles { priority: 0 })
        );
        // ignore.blocking, no split wanted (10 GiB regions, a few KiB stored): still refused.
        assert_eq!(
            request_gate(&with_files(17, big), cx(true)),
            Some(SplitGate::TooManyStoreFiles { priority: -1 })
        );
        // ignore.blocking, a split wanted (1 KiB regions; two of the table's regions on the
        // server, so SteppingSplitPolicy checks MAX_FILESIZE): PRIORITY_USER, the split goes on.
        let small = with_files(17, 1 << 10);
        let two = |ignore| SplitContext {
            table_regions: 2,
            online_regions: 2,
            ..cx(ignore)
        };
        assert!(wants_split(&small, two(true)));
        assert_eq!(small.compact_priority(16, true), PRIORITY_USER);
        assert_eq!(small.compact_priority(16, false), -1);
        assert_eq!(request_gate(&small, two(true)), None);
        assert_eq!(
            request_gate(&small, two(false)),
            Some(SplitGate::TooManyStoreFiles { priority: -1 })
        );
    }

    /// Mirrors `CompactSplit.shouldSplitRegion`: `regionSplitLimit` is compared with every
    /// region online on the server (`getNumberOfOnlineRegions`), other tables' included, while
    /// the split policy counts the table's own (`getCountOfCommonTableRegions`).
    #[test]
    fn the_split_limit_counts_every_region_on_the_server() {
        let r = with_files(3, 1 << 10);
        let busy_server = SplitContext {
            online_regions: 40,
            table_regions: 2,
            region_split_limit: 40,
            ..cx(false)
        };
        assert_eq!(
            request_gate(&r, busy_server),
            Some(SplitGate::ServerAtSplitLimit {
                online: 40,
                limit: 40
            })
        );
        let room = SplitContext {
            online_regions: 39,
            ..busy_server
        };
        assert_eq!(request_gate(&r, room), None);
    }
}
