//! What follows a change of a region's stores — "split, else compact" — decided in one place for
//! every change that triggers it: a flush (`MemStoreFlusher.flushRegion`), a compaction
//! (`CompactionRunner`), and a flush held back for too many store files.

use super::compaction::{self, CompactionConfig};
use super::split_check::{SplitCaller, SplitGate, SplitRequest};
use crate::config::settings::CompactionPolicyClass;
use crate::engine::decision::Decision;
use crate::engine::decision::SplitReason;
use crate::engine::state::region::{Region, Store};

/// `HRegionServer.postOpenDeployTasks`: a store of a region that just opened (with imported
/// files, as a daughter, merged, moved or reopened) asks for a compaction when it holds
/// References or needs one (`HStore.hasReferences() || needsCompaction()`).
pub(crate) fn compacts_on_open(store: &Store, cfg: &CompactionConfig, now_ms: u64) -> bool {
    store.has_references()
        || match cfg.policy {
            CompactionPolicyClass::Fifo => false,
            CompactionPolicyClass::DateTiered => compaction::needs_compaction(
                &compaction::file_infos(store),
                store.compacting_files(),
                cfg,
                now_ms,
            ),
            CompactionPolicyClass::Exploring | CompactionPolicyClass::RatioBased => {
                compaction::needs_compaction_of(store.files.len(), store.compacting_files(), cfg)
            }
        }
}

/// What changed in a region's stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StoreChange {
    /// A flush added a file to each of these stores: split, else ask for a compaction of each.
    Flushed(Vec<usize>),
    /// A compaction of this store completed: split, else compact it again if it still needs
    /// it (`CompactionRunner` checks `needsCompaction`).
    Compacted(usize),
    /// A flush was held back because a store has too many files: split, else ask for a
    /// compaction of every store.
    FlushHeldBack,
}

impl StoreChange {
    /// Who asks for the split check after this change: the flusher calls `HRegion.checkSplit`
    /// itself; the others go through `CompactSplit.requestSplit`.
    pub(crate) fn split_caller(&self) -> SplitCaller {
        match self {
            StoreChange::Flushed(_) => SplitCaller::Flusher,
            StoreChange::Compacted(_) | StoreChange::FlushHeldBack => SplitCaller::RequestSplit,
        }
    }
}

/// The follow-up decisions for `region` after `change`, given what the split check (asked by
/// `change.split_caller()`) concluded. After a flush, a split row refused by
/// `CompactSplit.requestSplit` (split limit, too many store files) leaves nothing requested:
/// `MemStoreFlusher.flushRegion` asks for a compaction only when `checkSplit` found no row.
pub(crate) fn after(
    region: &Region,
    change: &StoreChange,
    split: Result<SplitRequest, SplitGate>,
    cfg: &CompactionConfig,
    now_ms: u64,
) -> Vec<Decision> {
    if let Ok(req) = split {
        return vec![Decision::Split {
            region: region.id,
            row: req.row,
            reason: SplitReason::Policy {
                policy: region.policy.policy(),
                decision: req.decision,
            },
        }];
    }
    let compact = |store| Decision::Compact {
        region: region.id,
        store,
    };
    match change {
        StoreChange::Flushed(_) if split.as_ref().is_err_and(SplitGate::is_request_gate) => {
            Vec::new()
        }
        StoreChange::Flushed(stores) => stores.iter().map(|&s| compact(s)).collect(),
        StoreChange::Compacted(store) => {
            let infos = compaction::file_infos(&region.stores[*store]);
            let compacting = region.stores[*store].compacting_files();
            if compaction::needs_compaction(&infos, compacting, cfg, now_ms) {
                vec![compact(*store)]
            } else {
                Vec::new()
            }
        }
        StoreChange::FlushHeldBack => (0..region.stores.len()).map(compact).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::policy::split::{SplitDecision, SplitWhy};
    use crate::engine::state::region::{HeldFile, test_region};
    use crate::engine::state::storefile::test_file;

    fn cfg() -> CompactionConfig {
        CompactionConfig::from_settings(&crate::engine::policy::balancer::test_settings())
    }

    fn declined() -> Result<SplitRequest, SplitGate> {
        Err(SplitGate::Flushing)
    }

    // Mirrors MemStoreFlusher.flushRegion: when HRegion.checkSplit found a split row but
    // CompactSplit.requestSplit refuses it (regionSplitLimit, or a store at blockingStoreFiles),
    // the flusher requests no compaction either.
    #[test]
    fn a_refused_split_after_a_flush_requests_nothing() {
        let r = test_region(7, 0, 2);
        assert_eq!(
            StoreChange::Flushed(vec![0]).split_caller(),
            SplitCaller::Flusher
        );
        assert_eq!(
            StoreChange::FlushHeldBack.split_caller(),
            SplitCaller::RequestSplit
        );
        assert_eq!(
            StoreChange::Compacted(0).split_caller(),
            SplitCaller::RequestSplit
        );
        for gate in [
            SplitGate::TooManyStoreFiles { priority: 0 },
            SplitGate::ServerAtSplitLimit {
                online: 1000,
                limit: 1000,
            },
        ] {
            assert!(gate.is_request_gate());
            let d = after(&r, &StoreChange::Flushed(vec![0, 1]), Err(gate), &cfg(), 0);
            assert!(d.is_empty(), "{d:?}");
        }
        assert!(!SplitGate::Flushing.is_request_gate());
    }

    // Mirrors MemStoreFlusher.flushRegion and CompactSplit.CompactionRunner: a split if the
    // check allows one, else compaction requests for what changed.
    #[test]
    fn split_else_compact() {
        let mut r = test_region(7, 0, 2);
        let split = Ok(SplitRequest {
            row: b"m".to_vec(),
            decision: SplitDecision {
                split: true,
                why: SplitWhy::Never(crate::config::SplitPolicy::Disabled),
            },
        });
        let d = after(&r, &StoreChange::Flushed(vec![1]), split, &cfg(), 0);
        assert!(
            matches!(&d[..], [Decision::Split { region: 7, row, reason: SplitReason::Policy { .. } }]
            if row == b"m")
        );
        let d = after(&r, &StoreChange::Flushed(vec![1]), declined(), &cfg(), 0);
        assert_eq!(
            d,
            vec![Decision::Compact {
                region: 7,
                store: 1
            }]
        );
        let d = after(&r, &StoreChange::FlushHeldBack, declined(), &cfg(), 0);
        assert_eq!(d.len(), 2);
        // A refused split row after a held-back flush: requestSplit returned false, so compact.
        let refused = || Err(SplitGate::TooManyStoreFiles { priority: -1 });
        let d = after(&r, &StoreChange::FlushHeldBack, refused(), &cfg(), 0);
        assert_eq!(d.len(), 2);
        // After a compaction, another only if the store still needs one (min files: 3).
        assert!(after(&r, &StoreChange::Compacted(0), declined(), &cfg(), 0).is_empty());
        for seq in 0..3 {
            r.stores[0].files.push(HeldFile {
                file: test_file(seq),
                rows: 1,
            });
        }
        assert_eq!(
            after(&r, &StoreChange::Compacted(0), declined(), &cfg(), 0),
            vec![Decision::Compact {
                region: 7,
                store: 0
            }]
        );
    }
}
