//! Regions and their stores: the key range, the memstore and store files of each column family,
//! and the counters the report reads.

use crate::engine::decision::FlushWhy;
use crate::engine::policy::split::SplitPolicyInstance;
use crate::engine::state::memstore::Memstore;
use crate::engine::state::storefile::StoreFile;

/// Where a region is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionState {
    /// Serving writes.
    Open,
    /// Closing (`HRegion.doClose`) with a pre-close flush running: writes still land, but no
    /// flush, compaction, split, move or merge starts; then it goes `Splitting` or `Moving`.
    Closing,
    /// Closing for a split (flushing, creating references, opening daughters): writes wait.
    Splitting,
    /// Closed for a move (balancer, decommission) or reopening after its server died: writes wait.
    Moving,
    /// Closed for a merge: replaced by the merged region when it opens.
    Merging,
    /// Split or merged: replaced by its daughters or the merged region.
    Retired,
}

/// A region's flush (`MemStoreFlusher` keeps at most one entry per region, and a region runs at
/// most one flush): each state carries the reason it was requested for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushState {
    /// No entry and no flush running.
    Idle,
    /// An entry waits in the server's flush queue.
    Queued(FlushWhy),
    /// The entry is off the queue waiting out a delay: `since`, the time it was first queued,
    /// is what its `FlushRetry` event carries (an entry removed meanwhile leaves that event
    /// stale).
    Delayed {
        /// Why the flush was requested.
        why: FlushWhy,
        /// When the entry was first queued.
        since: u64,
        /// What it waits for.
        delay: FlushDelay,
    },
    /// A flush is running; its snapshot's heap is still counted.
    Running(FlushWhy),
}

/// Why a flush entry is off the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushDelay {
    /// The periodic flusher's random delay (`MemStoreFlusher.requestFlush` replaces such an
    /// entry with an immediate one).
    Periodic,
    /// Held back by too many store files, retried at the head of the queue (a request leaves
    /// it alone).
    HeldBack,
}

impl FlushState {
    /// An entry is queued or delayed.
    pub fn has_entry(self) -> bool {
        matches!(self, FlushState::Queued(_) | FlushState::Delayed { .. })
    }

    /// A flush is running.
    pub fn running(self) -> bool {
        matches!(self, FlushState::Running(_))
    }

    /// Neither an entry nor a running flush.
    pub fn idle(self) -> bool {
        self == FlushState::Idle
    }

    /// An entry the periodic flusher delayed.
    pub fn delayed_periodic(self) -> bool {
        matches!(
            self,
            FlushState::Delayed {
                delay: FlushDelay::Periodic,
                ..
            }
        )
    }
}

/// One column family's data in a region.
#[derive(Debug, Clone, Default)]
pub struct Store {
    /// Unflushed writes.
    pub memstore: Memstore,
    /// Store files, oldest (lowest seq id) first, each with the exact real rows behind it.
    pub files: Vec<HeldFile>,
    /// A system compaction request of this store waits in a pool queue (selection happens when
    /// a pool thread takes it, as `CompactSplit.CompactionRunner` does).
    pub queued: bool,
    /// The running compactions, each on a contiguous run of files; a later one only takes files
    /// newer than every file being compacted (`SortedCompactionPolicy.getCurrentEligibleFiles`).
    /// A region close aborts them.
    pub running: Vec<RunningCompaction>,
    /// References compacted away but not yet archived by the `CompactedHFilesDischarger`: the
    /// store still `hasReferences()` (HBASE-20940) until the discharger chore runs.
    pub compacted_refs: u32,
    /// `size()` as of the last `recount()`: the appliers recount after changing `files`, so the
    /// timeline samples read one number per store instead of every file (the invariants check
    /// it equals `size()`).
    pub file_bytes: u64,
}

/// A store file as a store holds it: the file (whose keys are a sample of its rows) and the
/// exact number of real rows it stands for.
#[derive(Debug, Clone)]
pub struct HeldFile {
    /// The file.
    pub file: StoreFile,
    /// Real rows behind it, exact.
    pub rows: u64,
}

/// A compaction in a server's pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunningCompaction {
    /// Matches the completion event (a stale event after an abort is ignored).
    pub token: u64,
    /// Server whose pool runs it.
    pub server: usize,
    /// Large pool.
    pub large: bool,
    /// Index of its first input file in `files`.
    pub first: usize,
    /// Number of inputs (a contiguous run from `first`).
    pub count: usize,
}

impl Store {
    /// `HStore.getSize()`: the sum of the store files' `reader.length()` (memstore excluded).
    pub fn size(&self) -> u64 {
        self.files.iter().map(|f| f.file.length()).sum()
    }

    /// Brings `file_bytes` up to date after `files` changed.
    pub fn recount(&mut self) {
        self.file_bytes = self.size();
    }

    /// The store holds a Reference, live or compacted but not yet archived
    /// (`HStore.hasReferences` looks at both lists).
    pub fn has_references(&self) -> bool {
        self.compacted_refs > 0 || self.files.iter().any(|f| f.file.is_reference())
    }

    /// Files being compacted (`HStore.filesCompacting`).
    pub fn compacting_files(&self) -> usize {
        self.running.iter().map(|r| r.count).sum()
    }

    /// Index just after the newest file being compacted (0 if none): only files from here on
    /// may be selected.
    pub fn first_eligible(&self) -> usize {
        self.running
            .iter()
            .map(|r| r.first + r.count)
            .max()
            .unwrap_or(0)
    }

    /// `HStore.getCompactPriority` (`DefaultStoreFileManager.getStoreCompactionPriority`):
    /// blockingStoreFiles − files, with 1 (`PRIORITY_USER`) bumped to 2. Lower runs first.
    pub fn compact_priority(&self, blocking_store_files: usize) -> i64 {
        let p = blocking_store_files as i64 - self.files.len() as i64;
        if p == 1 { 2 } else { p }
    }

    /// Real rows in the store files.
    pub fn file_rows(&self) -> u64 {
        self.files.iter().map(|f| f.rows).sum()
    }
}

/// `Store.PRIORITY_USER`: a compaction (or split) priority at least this runs despite blocking
/// store files.
pub const PRIORITY_USER: i64 = 1;

/// A region: a key range `[start, end)` of the table (empty end = unbounded).
#[derive(Debug)]
pub struct Region {
    /// Index in the engine's region list (creation order).
    pub id: usize,
    /// Inclusive start key (empty = start of table).
    pub start: Vec<u8>,
    /// Exclusive end key (empty = end of table).
    pub end: Vec<u8>,
    /// Hosting RegionServer.
    pub server: usize,
    /// Its table: 0 the designed table, `t` the scenario's `t`-th `[[other_table]]`.
    pub table: u16,
    /// One per column family.
    pub stores: Vec<Store>,
    /// Life-cycle state.
    pub state: RegionState,
    /// Times split since the table was created (0 for initial regions).
    pub generation: u32,
    /// The split policy instance of this open.
    pub policy: SplitPolicyInstance,
    /// Parent region (for daughters).
    pub parent: Option<usize>,
    /// Simulated open time, ns.
    pub opened_ns: u64,
    /// Where the region's flush is: no entry, an entry queued or delayed, or running.
    pub flush: FlushState,
    /// Heap of the snapshot being flushed.
    pub snapshot_heap: u64,
    /// Real rows written to this region (puts it received).
    pub write_requests: u64,
    /// Real rows written to this region's key range over the whole run: its own writes plus the
    /// share of its parents' writes that fell in its range (a split gives each daughter the
    /// parent's count in proportion to the rows of the parent's files in its half; a merge sums
    /// its inputs'). Unlike `write_requests` (HBase's per-open counter, also the WAL sequence id
    /// here) it survives splits and merges.
    pub range_writes: u64,
    /// Real read requests served.
    pub read_requests: u64,
    /// Real rows the region holds (memstores + files), exact.
    pub rows: u64,
    /// Last simulated write, ns.
    pub last_write_ns: Option<u64>,
    /// Time writes to this region waited on RegionTooBusy, ns.
    pub blocked_ns: u64,
    /// Highest memstore heap (active + snapshot) seen.
    pub memstore_peak: u64,
    /// The client holds back mutations for this region (new ones queue behind them).
    pub client_held: bool,
    /// WAL bookkeeping, with `write_requests` as the sequence id: edits up to here are in store
    /// files (`SequenceIdAccounting`'s lowest unflushed id − 1).
    pub wal_flushed: u64,
    /// Edits up to here are in the running flush's snapshot.
    pub wal_flushing: u64,
    /// Edits up to here are recorded in a rolled WAL file of its server.
    pub wal_seen: u64,
}

impl Region {
    /// A region opening now (`opened_ns`) with empty stores, one per family.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn opened(
        id: usize,
        (start, end): (Vec<u8>, Vec<u8>),
        server: usize,
        families: usize,
        generation: u32,
        policy: SplitPolicyInstance,
        parent: Option<usize>,
        opened_ns: u64,
    ) -> Region {
        Region {
            id,
            start,
            end,
            server,
            table: 0,
            stores: (0..families).map(|_| Store::default()).collect(),
            state: RegionState::Open,
            generation,
            policy,
            parent,
            opened_ns,
            flush: FlushState::Idle,
            snapshot_heap: 0,
            write_requests: 0,
            range_writes: 0,
            read_requests: 0,
            rows: 0,
            last_write_ns: None,
            blocked_ns: 0,
            memstore_peak: 0,
            client_held: false,
            wal_flushed: 0,
            wal_flushing: 0,
            wal_seen: 0,
        }
    }

    /// The region closes: its flush entry, queued or delayed, is dropped (a delayed entry's
    /// `FlushRetry` goes stale).
    pub(crate) fn drop_flush_entry(&mut self) {
        if self.flush.has_entry() {
            self.flush = FlushState::Idle;
        }
    }

    /// Writes land here: open, or closing with its pre-close flush running (the close flag,
    /// which turns writes away, goes up after it).
    pub fn takes_writes(&self) -> bool {
        matches!(self.state, RegionState::Open | RegionState::Closing)
    }

    /// Counted online on its server: open, closing, or splitting until its daughters open.
    pub fn online(&self) -> bool {
        matches!(
            self.state,
            RegionState::Open | RegionState::Closing | RegionState::Splitting
        )
    }

    /// True if `key` falls in `[start, end)`.
    pub fn contains(&self, key: &[u8]) -> bool {
        key >= self.start.as_slice() && (self.end.is_empty() || key < self.end.as_slice())
    }

    /// Memstore heap (active segments) over all stores.
    pub fn active_heap(&self) -> u64 {
        self.stores.iter().map(|s| s.memstore.heap_bytes).sum()
    }

    /// `HRegion.getMemStoreHeapSize()`: active + snapshot being flushed.
    pub fn memstore_heap(&self) -> u64 {
        self.active_heap() + self.snapshot_heap
    }

    /// Unflushed data bytes.
    pub fn memstore_data(&self) -> u64 {
        self.stores.iter().map(|s| s.memstore.data_bytes).sum()
    }

    /// Store file bytes (sum of `HStore.getSize()`).
    pub fn store_bytes(&self) -> u64 {
        self.stores.iter().map(Store::size).sum()
    }

    /// `store_bytes()` from the stores' recounted totals (`Store::file_bytes`).
    pub fn counted_store_bytes(&self) -> u64 {
        self.stores.iter().map(|s| s.file_bytes).sum()
    }

    /// Number of store files over all stores.
    pub fn store_files(&self) -> usize {
        self.stores.iter().map(|s| s.files.len()).sum()
    }

    /// `HRegion.getCompactPriority()`: `PRIORITY_USER` (1) when `split_first` — the region wants
    /// a split (`checkSplit()` gives a row) and `hbase.hregion.split.ignore.blocking.enabled` is
    /// set, so it splits before it compacts; else the min over stores of blockingStoreFiles −
    /// files (`HStore.getCompactPriority`, 1 bumped to 2).
    pub fn compact_priority(&self, blocking_store_files: usize, split_first: bool) -> i64 {
        if split_first {
            return PRIORITY_USER;
        }
        let p = self
            .stores
            .iter()
            .map(|s| blocking_store_files as i64 - s.files.len() as i64)
            .min()
            .unwrap_or(blocking_store_files as i64);
        if p == 1 { 2 } else { p }
    }
}

/// A region for unit tests of the policies: open on `server`, one store per family, empty.
#[cfg(test)]
pub(crate) fn test_region(id: usize, server: usize, families: usize) -> Region {
    let settings = crate::engine::policy::balancer::test_settings();
    let policy = SplitPolicyInstance::new(&settings, 0, 0.5);
    Region::opened(
        id,
        (Vec::new(), Vec::new()),
        server,
        families,
        0,
        policy,
        None,
        0,
    )
}

/// Adds `rows` rows of `heap` heap bytes each to a test region's store `store`, at `now_ms`.
#[cfg(test)]
pub(crate) fn test_write(r: &mut Region, store: usize, rows: u64, heap: u64, now_ms: u64) {
    use crate::engine::state::memstore::Put;
    for i in 0..rows {
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: heap / 2,
            heap_bytes: heap,
        };
        r.stores[store]
            .memstore
            .add(&i.to_be_bytes(), put, 0, now_ms);
    }
}
