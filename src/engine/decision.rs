//! What the policies decide, with the reasons they give: typed, so the recorder keeps them as
//! they are and the reports word them.

use crate::config::SplitPolicy;
use crate::engine::policy::normalizer::NormSplit;
use crate::engine::policy::split::SplitDecision;

/// Why a flush was requested (for `--explain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushWhy {
    /// Memstore heap above the flush size (`HRegion.isFlushSize`).
    Size = 0,
    /// Memstore above the blocking size (RegionTooBusy).
    Blocking = 1,
    /// Server above the global memstore low mark: largest region first.
    Global = 2,
    /// Edits older than `hbase.regionserver.optionalcacheflushinterval`.
    Periodic = 3,
    /// The server has more WAL files than `hbase.regionserver.maxlogs` and the region holds
    /// edits in the oldest (`AbstractFSWAL.findRegionsToForceFlush`, via `LogRoller`).
    Wal = 4,
    /// Global pressure, and the region has a store above `blockingStoreFiles` but more than
    /// twice the memstore of the largest flushable region: flushed without the files delay.
    GlobalOverFileLimit = 5,
}

/// A decision a policy hands to the appliers (`apply::Engine::apply` carries it out).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Decision {
    /// Split `region` at `row` (the split check passed).
    Split {
        /// Region id.
        region: usize,
        /// Split row.
        row: Vec<u8>,
        /// The policy and its numbers.
        reason: SplitReason,
    },
    /// Ask for a (minor, not forced) compaction of one store (`CompactSplit.requestCompaction`).
    Compact {
        /// Region id.
        region: usize,
        /// Store index.
        store: usize,
    },
}

/// Why a region split.
#[derive(Debug, Clone, PartialEq)]
pub enum SplitReason {
    /// The region's split policy asked for it.
    Policy {
        /// The policy.
        policy: SplitPolicy,
        /// Its decision, with the numbers.
        decision: SplitDecision,
    },
    /// A normalizer split plan.
    Normalizer(NormSplit),
}
