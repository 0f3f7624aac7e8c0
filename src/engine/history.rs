//! What happened, as data: the life of each region (`--explain`), the cluster events, and the
//! reasons of splits, moves and merges. The engine records the numbers; `report/` words them.

use crate::engine::decision::{FlushWhy, MoveReason, ServerAt, SplitReason};
use crate::engine::policy::normalizer::NormMerge;

/// How a region came to open on its server.
#[derive(Debug, Clone, PartialEq)]
pub enum OpenedAs {
    /// One of the table's initial regions (round-robin assignment).
    PreSplit {
        /// 1-based position among them.
        index: usize,
        /// How many there were.
        of: usize,
    },
    /// The lower daughter of a split.
    LowerDaughter,
    /// The upper daughter of a split.
    UpperDaughter,
    /// The region a merge made.
    Merge {
        /// Regions merged.
        regions: usize,
    },
    /// Reopened after a move or a server crash.
    Reopened,
}

/// The store file a split row came from: the largest file of the largest store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitSource {
    /// Its length, bytes.
    pub file_bytes: u64,
    /// Files in its store.
    pub store_files: usize,
}

/// One step of a region's life.
#[derive(Debug, Clone, PartialEq)]
pub enum Happening {
    /// Opened on a server.
    Opened {
        /// Where.
        server: ServerAt,
        /// As what.
        as_: OpenedAs,
    },
    /// A flush postponed because a store has too many files (`MemStoreFlusher.flushRegion`).
    FlushHeldBack {
        /// Files of the fullest store.
        files: usize,
        /// `hbase.hstore.blockingStoreFiles`.
        blocking: usize,
        /// `hbase.hstore.blockingWaitTime`, ms.
        wait_ms: u64,
    },
    /// A flush completed.
    Flushed {
        /// What requested it.
        why: FlushWhy,
        /// Memstore data flushed, bytes.
        data: u64,
        /// Store file bytes written.
        written: u64,
        /// Store files of the region afterwards.
        files_now: usize,
    },
    /// Bulk-loaded files joined the stores (`HRegion.bulkLoadHFiles`).
    BulkLoaded {
        /// Files loaded.
        files: usize,
        /// Their bytes on disk.
        bytes: u64,
        /// Store files of the region afterwards.
        files_now: usize,
    },
    /// A compaction completed.
    Compacted {
        /// Major (every file) or minor.
        major: bool,
        /// Files rewritten.
        files: usize,
        /// Bytes read.
        read: u64,
        /// Duration, ns.
        took_ns: u64,
        /// Files in the store afterwards.
        files_now: usize,
    },
    /// Running compactions aborted because the region closed.
    CompactionsAborted {
        /// How many.
        count: usize,
    },
    /// A split was requested (the region closes).
    SplitRequested {
        /// The split row.
        row: Vec<u8>,
        /// Why.
        reason: SplitReason,
        /// Where the row came from (none when the region had no store file).
        source: Option<SplitSource>,
        /// Time the split procedure waited for a master procedure worker, ns.
        queued_ns: u64,
    },
    /// Closed to move to another server.
    ClosedToMove {
        /// The server it left.
        from: ServerAt,
        /// Memstore data flushed on close, bytes.
        flushed: u64,
        /// The server it goes to.
        to: ServerAt,
        /// Why.
        reason: MoveReason,
    },
    /// Closed for a merge.
    ClosedToMerge {
        /// Regions merged.
        regions: usize,
        /// The normalizer's merge plan.
        reason: NormMerge,
    },
    /// Its range became part of a merged region.
    MergedAway,
    /// Its server died.
    Offline {
        /// The dead server.
        server: ServerAt,
        /// Scenario line of the event.
        line: usize,
    },
}

/// What a cluster event did.
#[derive(Debug, Clone, PartialEq)]
pub enum EventDetail {
    /// A balancer run that planned moves.
    Balancer {
        /// The balancer's explanation of the run.
        reason: String,
        /// Moves planned.
        moves: usize,
    },
    /// A normalizer run that executed plans.
    Normalizer {
        /// Split plans executed.
        splits: usize,
        /// Merge plans executed.
        merges: usize,
    },
    /// A scenario `set` event.
    Set {
        /// Scenario line.
        line: usize,
        /// The changed keys and values, as written.
        changes: Vec<(String, String)>,
    },
    /// A scenario workload phase.
    Phase {
        /// Scenario line.
        line: usize,
        /// New offered write rate, payload bytes per second.
        rate_bytes_per_s: Option<u64>,
        /// New gets per second.
        gets_per_s: Option<f64>,
        /// New scans per second.
        scans_per_s: Option<f64>,
    },
    /// Servers joined.
    AddServers {
        /// Scenario line.
        line: usize,
        /// Index of the first new server.
        first: usize,
        /// Servers in the cluster afterwards.
        servers: usize,
    },
    /// A server was decommissioned.
    Decommission {
        /// Scenario line.
        line: usize,
        /// The server.
        server: ServerAt,
        /// Regions moved off at once.
        moved: usize,
        /// Regions it hosted.
        hosted: usize,
    },
    /// A server died.
    Kill {
        /// Scenario line.
        line: usize,
        /// The server.
        server: ServerAt,
        /// Open regions it hosted.
        regions: usize,
        /// Unflushed edits, bytes.
        unflushed: u64,
        /// Failure detection time, ns.
        detection_ns: u64,
        /// WAL split and replay time, ns.
        replay_ns: u64,
    },
    /// A dead server's regions were reassigned.
    Recovered {
        /// The dead server.
        server: ServerAt,
        /// Regions reassigned.
        regions: usize,
        /// Live servers they went to.
        live: usize,
    },
}

impl EventDetail {
    /// The event's kind, the stable name reports use (see docs/REPORT.md).
    pub fn kind(&self) -> &'static str {
        match self {
            EventDetail::Balancer { .. } => "balancer",
            EventDetail::Normalizer { .. } => "normalizer",
            EventDetail::Set { .. } => "set",
            EventDetail::Phase { .. } => "phase",
            EventDetail::AddServers { .. } => "add_servers",
            EventDetail::Decommission { .. } => "decommission",
            EventDetail::Kill { .. } => "kill",
            EventDetail::Recovered { .. } => "recovered",
        }
    }
}
