//! What follows a change of a region's stores — "split, else compact" — decided in one place for
//! every change that triggers it: a flush (`MemStoreFlusher.flushRegion`), a compaction
//! (`CompactionRunner`), and a flush held back for too many store files.

use super::compaction::{self, CompactionConfig};
use super::split_check::{SplitGate, SplitRequest};
use crate::engine::decision::Decision;
use crate::engine::state::region::Region;

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

/// The follow-up decisions for `region` after `change`, given what the split check concluded.
pub(crate) fn after(
    region: &Region,
    change: &StoreChange,
    split: Result<SplitRequest, SplitGate>,
    cfg: &CompactionConfig,
) -> Vec<Decision> {
    if let Ok(req) = split {
        return vec![Decision::Split {
            region: region.id,
            row: req.row,
            reason: format!(
                "{}: {}",
                region.policy.policy().simple_name(),
                req.decision.reason
            ),
        }];
    }
    let compact = |store| Decision::Compact {
        region: region.id,
        store,
    };
    match change {
        StoreChange::Flushed(stores) => stores.iter().map(|&s| compact(s)).collect(),
        StoreChange::Compacted(store) => {
            let infos = compaction::file_infos(&region.stores[*store]);
            if compaction::needs_compaction(&infos, 0, cfg) {
                vec![compact(*store)]
            } else {
                Vec::new()
            }
        }
        StoreChange::FlushHeldBack => (0..region.stores.len()).map(compact).collect(),
    }
}
