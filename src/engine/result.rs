//! What a run produced, as plain data for the reports: counters, splits, the timeline samples.

use super::decision::MoveReason;
use super::decision::SplitReason;
use super::history::{EventDetail, Happening};
use super::policy::normalizer::NormMerge;
use super::state::region::Region;
use super::state::server::Server;

/// A split as it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitRecord {
    /// Simulated time the parent closed (went offline, after any pre-close flush), ns.
    pub at_ns: u64,
    /// Time the daughters opened, ns.
    pub done_ns: u64,
    /// Parent start key.
    pub parent_start: Vec<u8>,
    /// Parent end key.
    pub parent_end: Vec<u8>,
    /// Split row.
    pub split_key: Vec<u8>,
    /// Server index.
    pub server: usize,
    /// Parent store bytes at the split.
    pub parent_bytes: u64,
    /// Daughters' generation.
    pub generation: u32,
    /// The split size in force when the split was requested (`hbase.hregion.max.filesize` or
    /// the table's MAX_FILESIZE, before jitter): `set` events can change it during a run.
    pub split_size: u64,
    /// Why: the split policy's numbers, or the normalizer plan.
    pub reason: SplitReason,
}

/// Counters of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunStats {
    /// Flushes completed.
    pub flushes: u64,
    /// Data bytes flushed (memstore data size).
    pub flushed_bytes: u64,
    /// Store file bytes written by flushes.
    pub flushed_file_bytes: u64,
    /// Minor compactions completed.
    pub minor_compactions: u64,
    /// Major compactions completed.
    pub major_compactions: u64,
    /// Store file bytes read by compactions.
    pub compacted_bytes: u64,
    /// Store file bytes written by compactions.
    pub compaction_written_bytes: u64,
    /// Real rows compactions dropped as past the family TTL (`ScanQueryMatcher`), and whole
    /// expired files dropped at selection (`HStore.removeUnneededFiles`).
    pub ttl_expired_rows: u64,
    /// Cell bytes (serialized) of those rows.
    pub ttl_expired_bytes: u64,
    /// Store files dropped whole because their newest cell was past the TTL
    /// (`hbase.store.delete.expired.storefile`).
    pub expired_files_dropped: u64,
    /// Real rows that updated a row written before (`workload.update_fraction`).
    pub updates: u64,
    /// Real rows that deleted a row written before (`workload.delete_fraction`).
    pub deletes: u64,
    /// Row versions compactions dropped as beyond the family's VERSIONS.
    pub versions_dropped: u64,
    /// Their cell bytes.
    pub versions_dropped_bytes: u64,
    /// Rows (with their versions) compactions dropped as deleted.
    pub deleted_rows_dropped: u64,
    /// Versions dropped with them.
    pub deleted_versions_dropped: u64,
    /// Delete markers compactions dropped (with all the files of a store).
    pub markers_dropped: u64,
    /// Cell bytes of the deleted rows, their versions and the markers dropped.
    pub deleted_bytes: u64,
    /// Client time spent waiting on blocked regions or servers, ns.
    pub blocked_ns: u64,
    /// Client time spent waiting on a region offline for a split, ns.
    pub offline_wait_ns: u64,
    /// Sum of the offline durations of split parents, ns.
    pub offline_ns: u64,
    /// Client time spent waiting on RegionServer write bandwidth, ns.
    pub throttled_ns: u64,
    /// `throttled_ns` by cause: GC pauses, and the write path's binding resource.
    pub server_waits: crate::engine::state::server::ServerWaits,
    /// Flushes postponed because a store had too many files.
    pub delayed_flushes: u64,
    /// Compactions aborted because their region closed (split, move, merge).
    pub aborted_compactions: u64,
    /// Real rows a region refused at least once and the client retried.
    pub retried_rows: u64,
    /// Retries sent (one per region and retry, as `AsyncProcess` resends a region's actions).
    pub retries: u64,
    /// Real rows whose operation failed (retries or operation timeout exhausted); the loader
    /// resubmits them.
    pub failed_rows: u64,
    /// Real rows given up after failing `MAX_RESUBMITS` times (not in the table).
    pub lost_rows: u64,
    /// Sum over retried rows of the time from first refusal to acceptance, ns × real rows.
    pub retry_delay_row_ns: u128,
    /// Longest any mutation was held back, ns.
    pub retry_delay_max_ns: u64,
    /// Most bytes the writers held back at once.
    pub held_peak_bytes: u64,
    /// Time every writer waited because their buffers were full of held-back mutations, ns
    /// (part of `blocked_ns` and `offline_wait_ns`).
    pub stall_ns: u64,
    /// Time from the last row offered to the last held-back row accepted, ns (part of the
    /// ingest time).
    pub retry_tail_ns: u64,
    /// Time the last held-back row was accepted, ns.
    pub last_retry_accept_ns: u64,
    /// WAL rolls, all servers.
    pub wal_rolls: u64,
    /// Flushes forced by too many WAL files (`hbase.regionserver.maxlogs`), completed.
    pub wal_forced_flushes: u64,
    /// Stop-the-world JVM pauses, all servers.
    pub gc_pauses: u64,
    /// Of those, the long (old-generation) ones.
    pub gc_long_pauses: u64,
    /// Their total length, ns.
    pub gc_pause_ns: u64,
    /// Split, merge and move procedures that waited for a master procedure worker.
    pub procedures_queued: u64,
    /// Time those procedures waited (their regions offline meanwhile), ns.
    pub procedure_wait_ns: u64,
}

/// Everything a report needs about one generator's run.
#[derive(Debug)]
pub struct RunResult {
    /// Generator name.
    pub generator: String,
    /// Generator description.
    pub describe: String,
    /// Real rows per emulated row.
    pub scale: u64,
    /// The coarsest scale the figures stay trustworthy at.
    pub scale_guard: u64,
    /// Set when `scale` is coarser than `scale_guard`: which figures are not trustworthy.
    pub scale_warning: Option<String>,
    /// Emulated rows.
    pub emulated_rows: u64,
    /// Real rows written.
    pub rows: u64,
    /// Payload bytes written (values).
    pub payload_bytes: u128,
    /// KeyValue bytes written (memstore data size).
    pub data_bytes: u128,
    /// Time the last write was accepted, ns.
    pub ingest_ns: u64,
    /// Time the last flush, compaction or split finished, ns.
    pub settled_ns: u64,
    /// Regions before the first write.
    pub regions_initial: usize,
    /// Live regions at the end, in key order.
    pub regions: Vec<RegionResult>,
    /// Servers.
    pub servers: Vec<ServerResult>,
    /// Counters.
    pub stats: RunStats,
    /// Splits in order.
    pub splits: Vec<SplitRecord>,
    /// Real rows written per server per window of [`WINDOW_NS`].
    pub windows: Vec<Vec<u64>>,
    /// Servers taking regions (alive, not draining) at the start of each window.
    pub window_servers: Vec<u32>,
    /// The split size the settings give a region (max file size before jitter).
    pub max_filesize: u64,
    /// The cluster every `sample_ns`, from the first interval's end.
    pub samples: Vec<Sample>,
    /// Timeline sample and key-heatmap slice length, ns.
    pub sample_ns: u64,
    /// Start keys of the key-heatmap buckets (about equal numbers of the workload's rows each).
    pub heat_buckets: Vec<Vec<u8>>,
    /// Real writes per window per heat bucket.
    pub heat_writes: Vec<Vec<u64>>,
    /// Real reads per window per heat bucket (empty without reads).
    pub heat_reads: Vec<Vec<u64>>,
    /// What the balancer, normalizer, failures and scenario events did.
    pub dynamics: DynamicsResult,
    /// The imported regions as they opened at t=0 (`[initial]`; empty otherwise).
    pub initial: Vec<InitialRegionResult>,
    /// What the operator's scans cost on the final layout (`engine/scan.rs`).
    pub scan_fanout: super::scan::ScanFanout,
    /// Every table of the cluster, the designed one first, when the scenario has
    /// `[[other_table]]`s (empty otherwise).
    pub tables: Vec<TableResult>,
    /// What the bulk load did, when the design was loaded in bulk.
    pub bulk: Option<super::state::bulkload::BulkOutcome>,
    /// What the loader's clients did, when there were several or a closed loop.
    pub loader: Option<super::state::loader::LoaderOutcome>,
}

/// One table of the cluster at the end of the run (`[[other_table]]`).
#[derive(Debug, Clone, PartialEq)]
pub struct TableResult {
    /// Table name.
    pub name: String,
    /// Live regions at the start.
    pub regions_start: usize,
    /// Live regions at the end.
    pub regions_end: usize,
    /// Store file bytes at the end.
    pub store_bytes: u64,
    /// Real rows written during the run.
    pub rows_written: u64,
    /// Flushes of its regions.
    pub flushes: u64,
    /// Compactions (minor and major) of its regions.
    pub compactions: u64,
    /// Splits of its regions.
    pub splits: u64,
    /// Time its writers waited on refused regions or blocked servers, ns (other tables).
    pub held_ns: u64,
    /// Live regions per server at the end.
    pub server_regions: Vec<usize>,
    /// Memstore data bytes per server at the end.
    pub server_memstore: Vec<u64>,
    /// Data bytes written per server during the run.
    pub server_write_bytes: Vec<u64>,
}

/// A region as it opened at the start of the run (`[initial]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialRegionResult {
    /// Start key.
    pub start: Vec<u8>,
    /// End key.
    pub end: Vec<u8>,
    /// Server index.
    pub server: usize,
    /// Store file bytes (the engine's files, within about 1 % of the imported size).
    pub store_bytes: u64,
    /// Store files.
    pub store_files: usize,
}

impl From<&crate::engine::state::region::Region> for InitialRegionResult {
    fn from(r: &crate::engine::state::region::Region) -> Self {
        InitialRegionResult {
            start: r.start.clone(),
            end: r.end.clone(),
            server: r.server,
            store_bytes: r.store_bytes(),
            store_files: r.store_files(),
        }
    }
}

/// One server at one sample.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerSample {
    /// Regions hosted (open or in transition).
    pub regions: u32,
    /// Store file bytes of its regions.
    pub store_bytes: u64,
    /// Memstore data bytes of its regions.
    pub memstore_bytes: u64,
    /// Cumulative blocked time, ns.
    pub blocked_ns: u64,
    /// Cumulative real write requests.
    pub writes: u64,
    /// Cumulative real read requests.
    pub reads: u64,
    /// Online at the sample.
    pub online: bool,
    /// Store files of its regions (`storeFileCount`).
    pub store_files: u32,
    /// Compactions waiting in its small and large pools (`compactionQueueLength`).
    pub compaction_queue: u32,
}

/// The cluster at one simulated time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sample {
    /// Time, ns.
    pub at_ns: u64,
    /// One per server (servers added later appear from their first sample on).
    pub servers: Vec<ServerSample>,
}

/// A region move as it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveRecord {
    /// The region closed (went offline, after any pre-close flush), ns.
    pub at_ns: u64,
    /// Reopened, ns.
    pub done_ns: u64,
    /// Region start key.
    pub start: Vec<u8>,
    /// Region end key.
    pub end: Vec<u8>,
    /// From server.
    pub from: usize,
    /// To server (where it finally opened).
    pub to: usize,
    /// Store bytes at the move.
    pub store_bytes: u64,
    /// Why.
    pub reason: MoveReason,
    /// Region id.
    pub region: usize,
}

/// A merge as it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeRecord {
    /// Requested, ns.
    pub at_ns: u64,
    /// Merged region opened, ns.
    pub done_ns: u64,
    /// Start keys of the merged regions.
    pub starts: Vec<Vec<u8>>,
    /// Merged range start.
    pub start: Vec<u8>,
    /// Merged range end.
    pub end: Vec<u8>,
    /// Server the merged region opened on.
    pub server: usize,
    /// Store bytes of the inputs.
    pub store_bytes: u64,
    /// Why: the normalizer's merge plan.
    pub reason: NormMerge,
}

/// A cluster event (scenario event, failure recovery, balancer or normalizer run).
#[derive(Debug, Clone, PartialEq)]
pub struct EventRecord {
    /// When, ns.
    pub at_ns: u64,
    /// What happened (its kind: [`EventDetail::kind`]).
    pub detail: EventDetail,
}

/// One line of a region's life (for `--explain`).
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    /// When, ns.
    pub at_ns: u64,
    /// Region id.
    pub region: usize,
    /// What happened and why.
    pub what: Happening,
}

/// What the dynamics did in a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DynamicsResult {
    /// Moves in start order.
    pub moves: Vec<MoveRecord>,
    /// Merges in request order.
    pub merges: Vec<MergeRecord>,
    /// Events in order.
    pub events: Vec<EventRecord>,
    /// Balancer in force at the end.
    pub balancer: String,
    /// Balancer runs that reached a decision.
    pub balancer_runs: u64,
    /// Regions the balancer moved.
    pub balancer_moves: u64,
    /// First sample time at which every accepting server hosted a region (since the last
    /// server change), ns.
    pub all_hosting_ns: Option<u64>,
    /// Life of every region, in time order.
    pub history: Vec<HistoryEntry>,
    /// Parents of every region id (one for a daughter, several for a merge, none initially).
    pub parents: Vec<Vec<usize>>,
    /// Key range of every region id.
    pub ranges: Vec<(Vec<u8>, Vec<u8>)>,
}

/// A region at the end of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionResult {
    /// Region id (creation order; `--explain` traces parents by it).
    pub id: usize,
    /// Inclusive start key (empty = start of table).
    pub start: Vec<u8>,
    /// Exclusive end key (empty = end of table).
    pub end: Vec<u8>,
    /// Hosting RegionServer.
    pub server: usize,
    /// Times split since the table was created (0 for initial regions).
    pub generation: u32,
    /// Simulated open time, ns.
    pub opened_ns: u64,
    /// Last simulated write, ns.
    pub last_write_ns: Option<u64>,
    /// Real rows the region holds (memstores + files), exact.
    pub rows: u64,
    /// Real rows written to it since it opened (puts it received).
    pub write_requests: u64,
    /// Real rows written to its key range over the whole run (`Region::range_writes`).
    pub range_writes: u64,
    /// Real read requests served since it opened.
    pub read_requests: u64,
    /// Time writes to it waited on RegionTooBusy, ns.
    pub blocked_ns: u64,
    /// Highest memstore heap (active + snapshot) seen.
    pub memstore_peak: u64,
    /// One per column family.
    pub stores: Vec<StoreResult>,
}

impl RegionResult {
    /// Store file bytes (sum of `HStore.getSize()`).
    pub fn store_bytes(&self) -> u64 {
        self.stores
            .iter()
            .flat_map(|s| &s.files)
            .map(|f| f.length)
            .sum()
    }

    /// Number of store files over all stores.
    pub fn store_files(&self) -> usize {
        self.stores.iter().map(|s| s.files.len()).sum()
    }

    /// Unflushed data bytes.
    pub fn memstore_data(&self) -> u64 {
        self.stores.iter().map(|s| s.memstore_data).sum()
    }
}

/// One column family's data in a region at the end of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreResult {
    /// Store files, oldest first.
    pub files: Vec<FileResult>,
    /// Real rows in the memstore.
    pub memstore_rows: u64,
    /// Unflushed data bytes.
    pub memstore_data: u64,
    /// Row versions beyond each row's first the store holds (files + memstore).
    pub versions: u64,
    /// Delete markers the store holds (files + memstore).
    pub markers: u64,
}

/// A store file at the end of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct FileResult {
    /// `reader.length()`, bytes.
    pub length: u64,
    /// Real rows behind it, exact.
    pub rows: u64,
    /// Real rows its sampled keys stand for (block-granular).
    pub visible_rows: u64,
    /// A Reference to half of a parent's file.
    pub is_reference: bool,
}

impl From<Region> for RegionResult {
    fn from(r: Region) -> RegionResult {
        RegionResult {
            id: r.id,
            start: r.start,
            end: r.end,
            server: r.server,
            generation: r.generation,
            opened_ns: r.opened_ns,
            last_write_ns: r.last_write_ns,
            rows: r.rows,
            write_requests: r.write_requests,
            range_writes: r.range_writes,
            read_requests: r.read_requests,
            blocked_ns: r.blocked_ns,
            memstore_peak: r.memstore_peak,
            stores: r
                .stores
                .iter()
                .map(|s| StoreResult {
                    files: s
                        .files
                        .iter()
                        .map(|h| FileResult {
                            length: h.file.length(),
                            rows: h.rows,
                            visible_rows: h.file.rows(),
                            is_reference: h.file.is_reference(),
                        })
                        .collect(),
                    memstore_rows: s.memstore.rows,
                    memstore_data: s.memstore.data_bytes,
                    versions: s.memstore.extra.versions
                        + s.files.iter().map(|h| h.file.extra().versions).sum::<u64>(),
                    markers: s.memstore.extra.tombstones
                        + s.files
                            .iter()
                            .map(|h| h.file.extra().tombstones)
                            .sum::<u64>(),
                })
                .collect(),
        }
    }
}

/// A RegionServer at the end of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerResult {
    /// Highest memstore heap of its regions seen, bytes.
    pub memstore_peak: u64,
    /// Time writes to it waited on blocking (RegionTooBusy, global memstore), ns.
    pub blocked_ns: u64,
    /// Real rows written to it.
    pub write_requests: u64,
    /// Real data bytes written to it.
    pub write_bytes: u64,
    /// Real read requests it served.
    pub read_requests: u64,
    /// Died during the run.
    pub dead: bool,
    /// Decommissioned during the run.
    pub draining: bool,
    /// Simulated time it joined, ns (0 for the initial servers).
    pub joined_ns: u64,
    /// WAL rolls.
    pub wal_rolls: u64,
    /// The most WAL files it had at once.
    pub wal_files_peak: usize,
    /// Stop-the-world JVM pause time, ns.
    pub gc_pause_ns: u64,
}

impl From<&Server> for ServerResult {
    fn from(s: &Server) -> ServerResult {
        ServerResult {
            memstore_peak: s.memstore_peak,
            blocked_ns: s.blocked_ns,
            write_requests: s.write_requests,
            write_bytes: s.write_bytes,
            read_requests: s.read_requests,
            dead: s.dead,
            draining: s.draining,
            joined_ns: s.joined_ns,
            wal_rolls: s.wal.rolls,
            wal_files_peak: s.wal.files_peak.max(1),
            gc_pause_ns: s.gc_pause_ns,
        }
    }
}
