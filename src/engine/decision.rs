//! What the policies decide, with the reasons they give: typed, so the recorder keeps them as
//! they are and the reports word them.

use crate::config::SplitPolicy;
use crate::engine::policy::normalizer::{NormMerge, NormSplit};
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
    /// A close (split, move) found more than `hbase.hregion.preclose.flush.size` in the
    /// memstore: flushed before the close flag goes up, while writes still land
    /// (`HRegion.doClose`, `worthPreFlushing`).
    PreClose = 6,
}

/// A decision a policy hands to the appliers (`apply::Engine::apply` carries it out).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Decision {
    /// Ask the server's flusher for a flush of `region` (`MemStoreFlusher.requestFlush`: taken
    /// only if the region has no entry, or a periodic delayed one, and is not flushing).
    Flush {
        /// Region id.
        region: usize,
        /// Why.
        why: FlushWhy,
    },
    /// The periodic flusher's request: the entry joins the queue after `delay_ns`
    /// (`MemStoreFlusher.requestDelayedFlush`).
    DelayedFlush {
        /// Region id.
        region: usize,
        /// The random delay, ns.
        delay_ns: u64,
    },
    /// Flush `region` now on a free handler, off the queue (`flushOneForGlobalPressure`).
    EmergencyFlush {
        /// Region id.
        region: usize,
        /// Why (a global-pressure reason).
        why: FlushWhy,
    },
    /// Close `region` and reopen it on server `to`.
    Move {
        /// Region id.
        region: usize,
        /// Target server.
        to: usize,
        /// Who asked, and why.
        reason: MoveReason,
    },
    /// Merge the adjacent `regions` (a normalizer merge plan).
    Merge {
        /// Region ids, in key order.
        regions: Vec<usize>,
        /// The plan's numbers.
        reason: NormMerge,
    },
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

/// Why a region moved.
#[derive(Debug, Clone, PartialEq)]
pub enum MoveReason {
    /// A balancer plan (the balancer's own explanation of the run).
    Balancer(String),
    /// Its server was decommissioned and offloaded round-robin.
    Decommission {
        /// The draining server.
        server: ServerAt,
        /// Scenario line of the event.
        line: usize,
    },
    /// Its server died; `ServerCrashProcedure` reassigned it.
    Crash {
        /// The dead server.
        server: ServerAt,
        /// Edits replayed from the WAL, bytes.
        replayed: u64,
    },
}

/// A server as it was named when something happened: names are zero-padded to the number of
/// servers at that time, which grows when servers join.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerAt {
    /// Server index.
    pub index: usize,
    /// Servers in the cluster then.
    pub servers: usize,
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
