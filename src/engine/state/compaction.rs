//! Compactions running in the servers' pools.

use crate::engine::files::CompactionOutput;
use crate::engine::policy::throughput::Progress;
use crate::engine::state::storefile::{CellTimes, MergeCounts};

/// A running compaction: what it writes when it completes, and how far it has got. Its rate
/// changes with the server's compaction throttle, so its completion event is rescheduled; only
/// the event of the current `generation` is live.
pub(crate) struct ActiveCompaction {
    pub(crate) region: usize,
    /// Server whose pool ran it.
    pub(crate) server: usize,
    pub(crate) store: usize,
    /// The output HFile (built already, or by the background builder) and the real rows
    /// behind it.
    pub(crate) output: CompactionOutput,
    pub(crate) rows: u64,
    /// The output's cell write times, and the real rows and cell bytes of the inputs that
    /// are past the TTL when it starts (its scanner's `oldestUnexpiredTS`): not written.
    pub(crate) cells: CellTimes,
    pub(crate) expired_rows: u64,
    pub(crate) expired_bytes: u64,
    /// What it does with versions and delete markers (all zero without them).
    pub(crate) counts: MergeCounts,
    /// The output's max sequence id and creation time (the compaction's start), ms.
    pub(crate) seq_id: u64,
    pub(crate) created_ms: u64,
    /// Bytes read.
    pub(crate) read: u64,
    /// Cell bytes written (serialized KeyValues: what HBase's compactor reports to the
    /// throughput controller).
    pub(crate) written: u64,
    /// Bytes/s its thread reads at most before the node's shares and the throttle.
    pub(crate) thread_ceiling: u64,
    /// References among the inputs (kept as compacted files until the discharger runs).
    pub(crate) references: u32,
    pub(crate) major: bool,
    /// DateTiered's output windows (`DateTieredMultiFileWriter`): their starts, and whether
    /// the inputs' keys follow their cells' times; `None`: one output file.
    pub(crate) windows: Option<(Vec<i64>, bool)>,
    /// Selected with the off-peak ratio (`CompactionRequestImpl.isOffPeak`): it holds its
    /// server's off-peak tracker while it runs.
    pub(crate) offpeak: bool,
    /// Ran in the large pool.
    pub(crate) large: bool,
    /// Started at, ns.
    pub(crate) started: u64,
    /// Bytes still to read and the current rate.
    pub(crate) progress: Progress,
    /// Generation of the live completion event (0: none scheduled yet).
    pub(crate) generation: u64,
}
