//! The report of `hbase-emu run`: per generator, what the table looks like after the load and
//! how the cluster got there. One serializable model (built here, with its JSON form) feeds the
//! renderers below it: `text`, `csv`, `html` and `sparkline` (docs/REPORT.md).

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use crate::assignment::server_name;
use crate::engine::{RunResult, WINDOW_NS};
use crate::keynotation::to_string_binary;
use crate::report::history;
use crate::scenario::Scenario;

/// Schema version of the JSON report.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Schema version.
    pub schema_version: u32,
    /// The kernel set that ran (`kernel::Kernels::name`): it changes speed, never a figure.
    /// `None` in reports written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernels: Option<String>,
    /// The scenario.
    pub scenario: ScenarioJson,
    /// One per generator.
    pub runs: Vec<RunJson>,
    /// Wall-clock time per generator, only with `run --timings`: they differ between runs, so
    /// the deterministic report leaves the key out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timings: Option<Vec<TimingJson>>,
    /// The figures' ranges over assumption profiles, only with `run --assumptions` (or
    /// `[cluster] assumptions`); `scenario` and `runs` are the typical profile's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumption_ranges: Option<crate::report::ranges::AssumptionRangesJson>,
}

/// Wall-clock time of one generator's run (`run --timings`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingJson {
    /// The generator.
    pub generator: String,
    /// Seconds from the start of its emulation to its result.
    pub wall_seconds: f64,
}

/// Scenario facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioJson {
    /// Title.
    pub name: String,
    /// File.
    pub path: String,
    /// Seed used.
    pub seed: u64,
    /// RegionServers.
    pub regionservers: u64,
    /// Heap per RegionServer.
    pub heap_bytes: u64,
    /// Real rows per run.
    pub rows: u64,
    /// Offered rate, payload bytes/s.
    pub rate_bytes_per_s: u64,
    /// Effective max file size (split size before jitter).
    pub max_filesize: u64,
    /// Effective flush size.
    pub flush_size: u64,
    /// Split policy (simple class name).
    pub split_policy: String,
    /// An explicit ceiling on a RegionServer's write path (WAL + memstore), bytes/s
    /// (`cluster.write_bandwidth`); `None`: the hardware decides.
    pub write_bandwidth_bytes_per_s: Option<u64>,
    /// The nodes' hardware and the resource model's assumptions.
    #[serde(default)]
    pub hardware: HardwareJson,
    /// The loader.
    #[serde(default)]
    pub client: ClientJson,
    /// Per-RegionServer flush bandwidth, bytes/s.
    pub flush_bandwidth_bytes_per_s: u64,
    /// Ceiling of one unthrottled compaction, bytes read/s.
    pub compaction_bandwidth_bytes_per_s: u64,
    /// The families with a `COMPRESSION` codec (absent when none has one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compression: Vec<CompressionJson>,
    /// The `--set KEY=VALUE` overrides applied to the scenario file (key as given: value as
    /// read); absent when the file ran as written.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub overrides: std::collections::BTreeMap<String, serde_json::Value>,
}

/// A family's compression codec, what it makes of the data blocks and of the threads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompressionJson {
    /// Column family.
    pub family: String,
    /// `COMPRESSION` (SNAPPY, LZ4, ZSTD, GZ).
    pub codec: String,
    /// On-disk / raw bytes of data blocks.
    pub data_fraction: f64,
    /// Where `data_fraction` comes from: `measured` (the family's `compression_ratio`), else
    /// `codec` (the codec's benchmark ratio on `compressibility` of the data).
    pub ratio_from: String,
    /// `[workload] compressibility`.
    pub compressibility: f64,
    /// `compressibility` was not given: 1, the benchmark's web text, is assumed.
    pub compressibility_assumed: bool,
    /// A flush thread's bytes/s with this codec's compression.
    pub flush_bandwidth_bytes_per_s: u64,
    /// A compaction thread's on-disk bytes read/s with this codec's decompression and
    /// compression.
    pub compaction_bandwidth_bytes_per_s: u64,
}

impl CompressionJson {
    /// Where the on-disk fraction comes from, in words (for the text and HTML reports).
    pub fn source(&self) -> String {
        if self.ratio_from == "measured" {
            "the family's measured compression_ratio".to_string()
        } else if self.compressibility_assumed {
            "HBase's web-text benchmark ratio; compressibility 1 assumed, set [workload] \
             compressibility"
                .to_string()
        } else {
            format!(
                "HBase's web-text benchmark ratio on compressibility {}",
                self.compressibility
            )
        }
    }
}

/// A node's hardware and the figures the resource model assumes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HardwareJson {
    /// Profile name (`cluster.hardware`).
    pub profile: String,
    /// Where the profile's figures come from.
    pub source: String,
    /// Data disks per node.
    pub disks: u32,
    /// Sequential write bandwidth of one disk, bytes/s.
    pub disk_bandwidth_bytes_per_s: u64,
    /// NIC bandwidth each way, bytes/s.
    pub network_bytes_per_s: u64,
    /// Cores per node.
    pub cores: u32,
    /// `dfs.replication`.
    pub replication: u32,
    /// CPU time one mutation costs a RegionServer, ns (an assumption, docs/MODEL.md).
    pub cpu_per_put_ns: u64,
    /// `hbase.regionserver.handler.count`.
    pub handlers: u32,
}

/// The loader's settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientJson {
    /// Writer threads or processes (`client.writers`).
    pub writers: u64,
    /// `hbase.client.write.buffer` per writer, bytes.
    pub write_buffer_bytes: u64,
    /// `hbase.client.pause`, ms.
    pub pause_ms: u64,
    /// `hbase.client.retries.number`.
    pub retries: u32,
    /// `hbase.client.operation.timeout`, ms.
    pub operation_timeout_ms: u64,
}

/// What the loader's client went through in one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientRunJson {
    /// Real rows a region refused at least once, then accepted on a retry.
    pub retried_rows: u64,
    /// Retries sent (per region and retry).
    pub retries: u64,
    /// Real rows whose operation failed (retries or operation timeout exhausted), resubmitted by
    /// the loader.
    pub failed_rows: u64,
    /// Real rows given up after failing three times: not in the table.
    pub lost_rows: u64,
    /// Mean time a retried row was held back, seconds.
    pub mean_retry_delay_seconds: f64,
    /// Longest time a row was held back, seconds.
    pub max_retry_delay_seconds: f64,
    /// Most bytes the writers held back at once.
    pub held_peak_bytes: u64,
    /// Seconds every writer waited with its buffer full of held-back mutations (each writer
    /// stalled this long; part of blocked and offline-wait time).
    pub stall_seconds: f64,
    /// Seconds from the last row offered to the last held-back row accepted (part of the ingest
    /// time).
    pub retry_tail_seconds: f64,
}

/// One generator's run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunJson {
    /// Generator name.
    pub generator: String,
    /// What its keys look like.
    pub describe: String,
    /// Real rows per emulated row.
    pub scale: u64,
    /// The coarsest scale at which a flush and a region at the split size still hold 100
    /// emulated rows (the automatic scale stays within it).
    #[serde(default)]
    pub scale_guard: u64,
    /// Present when `scale` is coarser than `scale_guard`: which figures are not trustworthy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_warning: Option<String>,
    /// Emulated rows.
    pub emulated_rows: u64,
    /// Headline figures.
    pub summary: SummaryJson,
    /// The loader's retries, failures and stalls.
    #[serde(default)]
    pub client: ClientRunJson,
    /// The bulk load of a design loaded in bulk (left out for Puts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk_load: Option<super::bulkload::BulkLoadJson>,
    /// The loader, when several clients or a closed loop wrote the rows (left out for the one
    /// shared client).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loader: Option<super::loader::LoaderJson>,
    /// Per RegionServer.
    pub servers: Vec<ServerJson>,
    /// Live regions in key order.
    pub regions: Vec<RegionJson>,
    /// Region store size distribution.
    pub region_sizes: SizesJson,
    /// Splits in order.
    pub splits: Vec<SplitJson>,
    /// Write concentration over time.
    pub hotspots: HotspotsJson,
    /// Per server, sampled every `timeline_interval_seconds`: the "regions per node over time"
    /// view (issue 4).
    #[serde(default)]
    pub timeline: Vec<TimelineSampleJson>,
    /// Length of one timeline sample, seconds.
    #[serde(default)]
    pub timeline_interval_seconds: f64,
    /// Writes (and reads) per key bucket per time slice (issue 5's key heatmap).
    #[serde(default)]
    pub key_heatmap: HeatmapJson,
    /// Region moves (balancer, decommission, failure), in order.
    #[serde(default)]
    pub moves: Vec<MoveJson>,
    /// Region merges (normalizer), in order.
    #[serde(default)]
    pub merges: Vec<MergeJson>,
    /// Scenario `[[event]]`s and other cluster events (balancer runs that moved regions,
    /// normalizer runs), in order.
    #[serde(default)]
    pub events: Vec<EventJson>,
    /// Balance figures.
    #[serde(default)]
    pub balance: BalanceJson,
    /// What the operator's scans cost on the final layout (`report/scan.rs`).
    #[serde(default)]
    pub scan_fanout: super::scan::ScanFanoutJson,
    /// The scenario's `[expect]` entries that apply to this design, with their outcomes, in
    /// file order (left out when there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expectations: Vec<ExpectationJson>,
    /// Start vs end of a run that started from an imported table (`[initial]`; left out
    /// otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_vs_end: Option<StartVsEndJson>,
    /// Every table of the cluster, the designed one first (`[[other_table]]`; left out with one
    /// table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<super::tables::TableJson>,
    /// The cluster's totals over its tables (with `tables`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<super::tables::ClusterJson>,
}

/// A run from an imported table: the regions and servers at the start against the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartVsEndJson {
    /// Regions at the start (imported).
    pub regions_start: usize,
    /// Live regions at the end.
    pub regions_end: usize,
    /// Store file bytes at the start (the files the run opened with).
    pub store_bytes_start: u64,
    /// Store file bytes at the end.
    pub store_bytes_end: u64,
    /// Per imported region: its start, and what its key range holds at the end.
    pub regions: Vec<StartRegionJson>,
    /// Per server.
    pub servers: Vec<StartServerJson>,
}

/// One imported region at the start and its key range at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartRegionJson {
    /// Start key (toStringBinary).
    pub start: String,
    /// End key.
    pub end: String,
    /// Server it opened on.
    pub server: String,
    /// Store bytes at the start.
    pub store_bytes_start: u64,
    /// Store bytes at the end of the live regions starting in its range.
    pub store_bytes_end: u64,
    /// Live regions starting in its range at the end (its daughters; 1 if it did not split).
    pub regions_end: usize,
}

/// One server at the start and at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartServerJson {
    /// Server name.
    pub server: String,
    /// The name the import gave it (`host,port,startcode`), when regions opened as imported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<String>,
    /// Regions at the start.
    pub regions_start: usize,
    /// Regions at the end.
    pub regions_end: usize,
    /// Store bytes at the start.
    pub store_bytes_start: u64,
    /// Store bytes at the end.
    pub store_bytes_end: u64,
}

/// The start-vs-end comparison of a run from an imported table (`None` for other runs).
fn start_vs_end(r: &RunResult) -> Option<StartVsEndJson> {
    if r.initial.is_empty() {
        return None;
    }
    let n = r.servers.len();
    // Final regions are in key order; each imported region owns those starting in its range.
    let owner = |start: &[u8]| {
        r.initial
            .partition_point(|i| i.start.as_slice() <= start)
            .saturating_sub(1)
    };
    let mut end_bytes = vec![0u64; r.initial.len()];
    let mut end_count = vec![0usize; r.initial.len()];
    let mut servers: Vec<StartServerJson> = (0..n)
        .map(|i| StartServerJson {
            server: server_name(i, n),
            imported: None,
            regions_start: 0,
            regions_end: 0,
            store_bytes_start: 0,
            store_bytes_end: 0,
        })
        .collect();
    for f in &r.regions {
        let o = owner(&f.start);
        end_bytes[o] += f.store_bytes();
        end_count[o] += 1;
        if let Some(s) = servers.get_mut(f.server) {
            s.regions_end += 1;
            s.store_bytes_end += f.store_bytes();
        }
    }
    for i in &r.initial {
        if let Some(s) = servers.get_mut(i.server) {
            s.regions_start += 1;
            s.store_bytes_start += i.store_bytes;
        }
    }
    Some(StartVsEndJson {
        regions_start: r.initial.len(),
        regions_end: r.regions.len(),
        store_bytes_start: r.initial.iter().map(|i| i.store_bytes).sum(),
        store_bytes_end: r.regions.iter().map(|f| f.store_bytes()).sum(),
        regions: r
            .initial
            .iter()
            .enumerate()
            .map(|(k, i)| StartRegionJson {
                start: to_string_binary(&i.start),
                end: to_string_binary(&i.end),
                server: server_name(i.server, n),
                store_bytes_start: i.store_bytes,
                store_bytes_end: end_bytes[k],
                regions_end: end_count[k],
            })
            .collect(),
        servers,
    })
}

/// One expectation's outcome on one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectationJson {
    /// The figure it bounds (`last_region_change` for `steady`, `balanced` for `balanced`).
    pub figure: String,
    /// The expectation as written in the scenario.
    pub text: String,
    /// The figure's value in this run.
    pub value: f64,
    /// Whether it holds.
    pub holds: bool,
    /// For people: what the value means, when the text alone does not say (`steady`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Headline figures of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryJson {
    /// Real rows written.
    pub rows: u64,
    /// Payload bytes written (values).
    pub bytes: u128,
    /// KeyValue bytes written (rowkeys, families, qualifiers, timestamps included).
    pub data_bytes: u128,
    /// Simulated seconds until the last write was accepted (ingest time).
    pub sim_seconds: f64,
    /// Simulated seconds until flushes, compactions and splits in flight finished.
    pub settle_seconds: f64,
    /// Regions before the load.
    pub regions_initial: usize,
    /// Regions at the end.
    pub regions_final: usize,
    /// Splits.
    pub splits: usize,
    /// Flushes.
    pub flushes: u64,
    /// Memstore data bytes flushed.
    pub flushed_bytes: u64,
    /// Average flushed data per flush.
    pub avg_flush_bytes: u64,
    /// Compactions (minor + major).
    pub compactions: u64,
    /// Minor compactions.
    pub minor_compactions: u64,
    /// Major compactions.
    pub major_compactions: u64,
    /// Store file bytes read by compactions (rewritten).
    pub compacted_bytes: u64,
    /// Store file bytes compactions wrote (less than read when TTL, versions or deletes drop
    /// cells).
    #[serde(default)]
    pub compaction_written_bytes: u64,
    /// Store file bytes written: (flush files + compaction output) / flush files.
    pub write_amplification: f64,
    /// Client seconds waiting on RegionTooBusy / global memstore blocking.
    pub blocked_seconds: f64,
    /// Seconds regions were offline, summed over splits, merges, moves and recoveries.
    pub offline_seconds: f64,
    /// Client seconds waiting on an offline region (split, merge, move, or a dead server's region
    /// before its reassignment).
    pub offline_wait_seconds: f64,
    /// Client seconds waiting on RegionServer write bandwidth.
    pub throttled_seconds: f64,
    /// `throttled_seconds` by cause (present when the client was throttled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throttled_by: Option<ThrottledJson>,
    /// Flushes postponed for too many store files.
    pub delayed_flushes: u64,
    /// Split, merge and move procedures that waited for a master procedure worker.
    #[serde(default)]
    pub procedures_queued: u64,
    /// Seconds those procedures waited (their regions offline meanwhile).
    #[serde(default)]
    pub procedure_wait_seconds: f64,
    /// Largest share of writes any one server took in any window.
    pub max_server_write_share: f64,
    /// Store file bytes at the end.
    pub store_bytes: u64,
    /// Unflushed memstore data bytes at the end.
    pub memstore_bytes: u64,
    /// WAL rolls, all servers.
    #[serde(default)]
    pub wal_rolls: u64,
    /// The most WAL files any one server had at once.
    #[serde(default)]
    pub wal_files_peak: usize,
    /// Flushes forced by more WAL files than `hbase.regionserver.maxlogs`.
    #[serde(default)]
    pub wal_forced_flushes: u64,
    /// Stop-the-world JVM pauses, all servers (`[cluster] variability`).
    #[serde(default)]
    pub gc_pauses: u64,
    /// Of those, long (old-generation) pauses.
    #[serde(default)]
    pub gc_long_pauses: u64,
    /// Their total length, seconds.
    #[serde(default)]
    pub gc_pause_seconds: f64,
    /// What TTL expiry removed (present only when it removed something).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ageing: Option<AgeingJson>,
    /// Updates, deletes and what compactions dropped of them (present only with updates or
    /// deletes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versions: Option<VersionsJson>,
}

/// Updates and deletes (`workload.update_fraction`, `delete_fraction`) and what compactions
/// dropped of them. Rows are real rows (a row's cells in one family count once per family).
/// They add up: `updates − versions_dropped − deleted_versions_dropped = versions_stored`,
/// `deletes − markers_dropped = markers_stored` per family, and new rows −
/// `deleted_rows_dropped` (− TTL-expired rows) = `rows_stored`, within the approximations of
/// docs/MODEL.md "Versions, updates and deletes".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VersionsJson {
    /// Rows that wrote a new version of a row written before.
    pub updates: u64,
    /// Rows that deleted a row written before (a marker per family).
    pub deletes: u64,
    /// Row versions compactions dropped as beyond the family's VERSIONS.
    pub versions_dropped: u64,
    /// Their cell bytes (serialized KeyValues).
    pub versions_dropped_bytes: u64,
    /// Deleted rows compactions of all of a store's files dropped with their markers.
    pub deleted_rows_dropped: u64,
    /// Versions of those rows dropped with them.
    pub deleted_versions_dropped: u64,
    /// Delete markers dropped.
    pub markers_dropped: u64,
    /// Cell bytes of the deleted rows, their versions and the markers dropped.
    pub deleted_bytes: u64,
    /// Row versions beyond the first still stored at the end (files + memstores).
    pub versions_stored: u64,
    /// Delete markers still stored at the end (kept by minor compactions).
    pub markers_stored: u64,
    /// Real rows the table holds at the end (memstores + files, deleted ones not yet dropped
    /// included).
    pub rows_stored: u64,
}

/// What the client's time throttled by the servers waited for: their GC pauses, and their
/// write paths' rates by the resource that bound each (docs/MODEL.md "Resources"). The parts
/// sum to `throttled_seconds` within rounding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThrottledJson {
    /// Waiting out stop-the-world GC pauses.
    pub gc_pause_seconds: f64,
    /// A write path bound by its cores (CPU per mutation).
    pub cpu_seconds: f64,
    /// … by the WAL's share of the node's disks.
    pub disk_seconds: f64,
    /// … by the WAL's share of the node's NIC.
    pub network_seconds: f64,
    /// … by the scenario's `cluster.write_bandwidth`.
    pub write_bandwidth_seconds: f64,
}

impl ThrottledJson {
    /// The parts, largest first, each with its short name (the ingest line) and its name in a
    /// verdict's sentence.
    pub fn parts(&self) -> Vec<(f64, &'static str, &'static str)> {
        let mut v = vec![
            (self.gc_pause_seconds, "GC pauses", "their GC pauses"),
            (self.cpu_seconds, "CPU", "their CPU"),
            (self.disk_seconds, "disks", "the WAL's disk share"),
            (self.network_seconds, "NIC", "the WAL's network share"),
            (
                self.write_bandwidth_seconds,
                "write_bandwidth",
                "the scenario's write_bandwidth",
            ),
        ];
        // Stable: equal parts keep this order.
        v.sort_by(|a, b| b.0.total_cmp(&a.0));
        v
    }

    /// "GC pauses 12.0 s, CPU 3.0 s": the parts of at least a millisecond, largest first.
    pub fn describe(&self) -> String {
        self.parts()
            .into_iter()
            .filter(|(secs, ..)| *secs >= 0.001)
            .map(|(secs, what, _)| {
                format!(
                    "{what} {}",
                    crate::units::format_duration_ms((secs * 1000.0) as u64)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Data removed by ageing (family TTL): rows written − `ttl_expired_rows` ≈ `rows_stored`
/// (within the sampled files' rounding, docs/MODEL.md "TTL").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgeingJson {
    /// Real rows compactions and expired-file drops removed as past the TTL.
    pub ttl_expired_rows: u64,
    /// Their cell bytes (serialized KeyValues).
    pub ttl_expired_bytes: u64,
    /// Store files dropped whole at selection (`hbase.store.delete.expired.storefile`).
    pub expired_files_dropped: u64,
    /// Real rows the table holds at the end (memstores + files).
    pub rows_stored: u64,
}

/// One RegionServer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerJson {
    /// Name.
    pub name: String,
    /// Regions hosted at the end.
    pub regions: usize,
    /// Store file bytes hosted.
    pub store_bytes: u64,
    /// Real rows written to it.
    pub write_requests: u64,
    /// Its share of all writes.
    pub write_share: f64,
    /// Peak memstore heap.
    pub memstore_peak_bytes: u64,
    /// Seconds writes to it were blocked.
    pub blocked_seconds: f64,
    /// Read requests served (real units).
    #[serde(default)]
    pub read_requests: u64,
    /// Share of all reads.
    #[serde(default)]
    pub read_share: f64,
    /// Online at the end (false: died or decommissioned).
    #[serde(default = "yes")]
    pub online: bool,
    /// WAL rolls.
    #[serde(default)]
    pub wal_rolls: u64,
    /// The most WAL files it had at once.
    #[serde(default)]
    pub wal_files_peak: usize,
    /// Seconds its JVM was paused for GC.
    #[serde(default)]
    pub gc_pause_seconds: f64,
}

fn yes() -> bool {
    true
}

/// One server at one timeline sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TimelineSampleJson {
    /// End of the sample interval, seconds since the load began.
    pub at_seconds: f64,
    /// Server name.
    pub server: String,
    /// Regions of the table hosted at `at_seconds`.
    pub regions: usize,
    /// Store file bytes on disk at `at_seconds`.
    pub store_bytes: u64,
    /// Memstore data bytes at `at_seconds`.
    pub memstore_bytes: u64,
    /// Write requests (real rows) per second during the interval.
    pub write_requests_per_s: f64,
    /// Read requests per second during the interval.
    pub read_requests_per_s: f64,
    /// Time writes to this server were blocked during the interval, seconds.
    pub blocked_seconds: f64,
    /// Meant to be false once the server has died or left; the engine's samples currently
    /// always record `true` (servers that have not joined yet have no entry).
    pub online: bool,
    /// Store files of its regions at `at_seconds` (HBase's `storeFileCount` metric).
    #[serde(default)]
    pub store_files: u32,
    /// Compactions queued, not yet running, at `at_seconds` (`compactionQueueLength`).
    #[serde(default)]
    pub compaction_queue: u32,
}

/// Key space × time: requests per key bucket per time slice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct HeatmapJson {
    /// Length of one time slice, seconds.
    pub interval_seconds: f64,
    /// Start key of each bucket (toStringBinary); buckets hold about equal numbers of the
    /// workload's rows, bucket i is [buckets[i], buckets[i+1]).
    pub buckets: Vec<String>,
    /// Real write requests, `[slice][bucket]`.
    pub writes: Vec<Vec<u64>>,
    /// Real read requests, `[slice][bucket]` (empty without reads).
    pub reads: Vec<Vec<u64>>,
}

/// A region move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveJson {
    /// Time the move started (close; for a crash recovery, the reassignment), seconds.
    pub at_seconds: f64,
    /// Time the region was offline, seconds: close flush + transition; for a crash recovery the
    /// recovered-edits flush + transition from `at_seconds` (detection and WAL replay came before).
    pub offline_seconds: f64,
    /// Region start key.
    pub start: String,
    /// Region end key.
    pub end: String,
    /// From server.
    pub from: String,
    /// To server.
    pub to: String,
    /// Store bytes of the region (HBase moves no data; reported for context).
    pub store_bytes: u64,
    /// Why: which balancer rule, event or failure, with the numbers it compared.
    pub reason: String,
}

/// A merge of adjacent regions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergeJson {
    /// Time the merge was requested, seconds.
    pub at_seconds: f64,
    /// Offline time, seconds.
    pub offline_seconds: f64,
    /// Start keys of the merged regions, in key order.
    pub region_starts: Vec<String>,
    /// The merged region's start key.
    pub start: String,
    /// The merged region's end key.
    pub end: String,
    /// Server of the merged region.
    pub server: String,
    /// Store bytes of the merged regions.
    pub store_bytes: u64,
    /// Why (the normalizer plan's numbers).
    pub reason: String,
}

/// A cluster event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventJson {
    /// Time, seconds.
    pub at_seconds: f64,
    /// Kind: `add_servers`, `decommission`, `kill`, `recovered`, `set`, `phase`, `balancer`,
    /// `normalizer`.
    pub kind: String,
    /// What happened, one line with the numbers.
    pub detail: String,
}

/// Balance figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct BalanceJson {
    /// Balancer in force at the end (`StochasticLoadBalancer`, `SimpleLoadBalancer`, `off`).
    pub balancer: String,
    /// Balancer runs (chore firings that reached a decision).
    pub balancer_runs: u64,
    /// Regions moved by the balancer.
    pub balancer_moves: u64,
    /// Most regions on one online server at the end.
    pub max_regions_per_server: usize,
    /// Fewest regions on one online server at the end.
    pub min_regions_per_server: usize,
    /// Mean regions per online server at the end.
    pub mean_regions_per_server: f64,
    /// Largest (max − min) regions per server seen at any timeline sample.
    pub max_spread_over_time: usize,
    /// Time until every online server hosted at least one region of the table, seconds (None:
    /// never).
    pub all_servers_hosting_seconds: Option<f64>,
}

/// One region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionJson {
    /// Start key (toStringBinary; empty = first).
    pub start: String,
    /// End key (empty = last).
    pub end: String,
    /// Server.
    pub server: String,
    /// Store file bytes (`HStore.getSize()` summed over stores).
    pub store_bytes: u64,
    /// Store files.
    pub store_files: usize,
    /// Real rows held.
    pub rows: u64,
    /// Real rows written to this region (since it opened).
    pub write_requests: u64,
    /// Real rows written to this region's key range over the whole run, its parents' writes in
    /// its range included (split parents' writes go to the daughters as their rows did; merges
    /// add up). What "hottest regions" ranks by. 0 in reports saved before it was recorded.
    #[serde(default)]
    pub range_writes: u64,
    /// Write requests relative to the smallest region's (the classic `puts:(ratio)` report).
    pub ratio_to_smallest: f64,
    /// Times split since the table was created.
    pub generation: u32,
    /// Unflushed memstore data bytes.
    pub memstore_bytes: u64,
    /// Simulated second of the last write (none if never written).
    pub last_write_seconds: Option<f64>,
    /// Read requests served (real units).
    #[serde(default)]
    pub read_requests: u64,
}

impl RegionJson {
    /// Writes to the region's key range over the run; for a report saved before `range_writes`
    /// was recorded, the writes since it opened.
    pub fn writes_over_run(&self) -> u64 {
        if self.range_writes > 0 {
            self.range_writes
        } else {
            self.write_requests
        }
    }
}

/// Region size distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SizesJson {
    /// Smallest region's store bytes.
    pub min: u64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// Largest.
    pub max: u64,
    /// Regions that stopped receiving writes while under half the split size: open before the
    /// last 10 % of the ingest and not written to during it.
    pub cold_regions: usize,
    /// Regions that stopped receiving writes (the same test, at any size): what a sequential
    /// load leaves behind.
    #[serde(default)]
    pub quiet_regions: usize,
    /// Median store size of the quiet regions, bytes (0 without any).
    #[serde(default)]
    pub quiet_p50: u64,
    /// Of the table's region capacity (regions × split size), the share the quiet regions
    /// leave unfilled: Σ (split size − store size, at least 0) over the quiet regions, over
    /// regions × split size. The continuous measure beside `cold_regions`: it moves smoothly
    /// with the split size where the count jumps as sizes cross half of it. 0 in reports saved
    /// before it.
    #[serde(default)]
    pub idle_capacity: f64,
    /// The split size in force at the end of the run (hbase.hregion.max.filesize or
    /// MAX_FILESIZE, after any `set` event), bytes: what the cold and quiet regions are measured
    /// against. `scenario.max_filesize` is the one at the start.
    #[serde(default)]
    pub split_size: u64,
}

/// One split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SplitJson {
    /// Simulated second it was requested.
    pub at_seconds: f64,
    /// Simulated seconds the parent was offline.
    pub offline_seconds: f64,
    /// Parent start key.
    pub parent_start: String,
    /// Parent end key.
    pub parent_end: String,
    /// Split key (the midkey row).
    pub split_key: String,
    /// Server.
    pub server: String,
    /// Parent store bytes at the split.
    pub parent_bytes: u64,
    /// Daughters' generation.
    pub generation: u32,
    /// The split size in force when the split was requested (max.filesize before jitter;
    /// `set` events can change it during a run), bytes.
    #[serde(default)]
    pub split_size: u64,
    /// Why: the split policy's numbers, or the normalizer plan.
    #[serde(default)]
    pub reason: String,
}

/// Write concentration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HotspotsJson {
    /// Window length, simulated seconds.
    pub window_seconds: f64,
    /// Largest share any one server took in any one window: the worst minute (windows with under 5 % of the mean
    /// window's writes, when the client was blocked, are left out).
    pub max_server_write_share: f64,
    /// The hottest server's share of a window's writes, averaged over the load's windows weighted
    /// by their time within the load (the same windows as above). `None` in reports saved before
    /// it was recorded.
    #[serde(default)]
    pub mean_hottest_share: Option<f64>,
    /// Fraction of the load's time (those windows, weighted by their time within the load) in
    /// which one server took more than twice its fair share, the fair share being 1 / the
    /// servers online in that window (servers that joined during it counting for their part).
    /// Reports saved before `online_servers` used 1 / the servers at the end.
    pub time_over_twice_fair_share: f64,
    /// Per window: the servers online (alive, not draining; at least those that took writes).
    #[serde(default)]
    pub online_servers: Vec<u32>,
    /// Per window: each server's share of that window's writes.
    pub windows: Vec<Vec<f64>>,
    /// The regions whose key ranges received the most writes over the run (`range_writes`).
    pub hottest_regions: Vec<HotRegionJson>,
}

/// A hot region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HotRegionJson {
    /// Start key.
    pub start: String,
    /// Server.
    pub server: String,
    /// Share of all writes.
    pub write_share: f64,
}

/// What the hotspot figures are computed from (a run's recorder data).
struct WindowCounts<'a> {
    /// Real rows written per server per window.
    windows: &'a [Vec<u64>],
    /// Servers online per window.
    window_servers: &'a [u32],
    /// The load's length, ns.
    ingest_ns: u64,
}

/// Write concentration figures over a run's hotspot windows.
struct HotFigures {
    worst_minute: f64,
    mean_hottest: f64,
    time_over: f64,
    online: Vec<u32>,
}

/// Windows in which the client was nearly idle (blocked) say little about balance: only windows
/// with at least 5 % of the mean window's writes count. Each counts for its time within the load
/// (the last one is partial), and its fair share is 1 / the servers online in it.
fn hotspot_figures(r: &WindowCounts<'_>, servers: usize) -> HotFigures {
    let totals: Vec<u64> = r.windows.iter().map(|w| w.iter().sum()).collect();
    let mean = totals.iter().sum::<u64>() / totals.len().max(1) as u64;
    let online: Vec<u32> = r
        .windows
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let writers = w.iter().filter(|&&x| x > 0).count() as u32;
            let up = r.window_servers.get(i).copied().unwrap_or(servers as u32);
            up.max(writers).max(1)
        })
        .collect();
    let (mut worst, mut weight, mut hottest, mut over) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (i, (w, &t)) in r.windows.iter().zip(&totals).enumerate() {
        if t == 0 || t * 20 < mean {
            continue;
        }
        let start = i as u64 * WINDOW_NS;
        let end = (start + WINDOW_NS).min(r.ingest_ns.max(start + 1));
        let dt = end.saturating_sub(start) as f64;
        let top = w.iter().copied().max().unwrap_or(0) as f64 / t as f64;
        worst = worst.max(round4(top));
        weight += dt;
        hottest += top * dt;
        if top > 2.0 / fair_servers(w, t, r.window_servers.get(i).copied(), online[i]) {
            over += dt;
        }
    }
    let frac = |x: f64| {
        if weight > 0.0 {
            round4(x / weight)
        } else {
            0.0
        }
    };
    HotFigures {
        worst_minute: worst,
        mean_hottest: frac(hottest),
        time_over: frac(over),
        online,
    }
}

/// The servers a window's fair share divides by. Where more servers wrote than were counted at
/// the window's start (servers joined during it), each of those beyond the count counts for the
/// part of the window it wrote in: its writes over the mean of the counted ones (the busiest),
/// so that a server that joined in the window's last seconds does not halve the fair share of
/// the minute it joined in.
fn fair_servers(w: &[u64], total: u64, up: Option<u32>, online: u32) -> f64 {
    let writers = w.iter().filter(|&&x| x > 0).count();
    let up = up.unwrap_or(online).max(1) as usize;
    if writers <= up || total == 0 {
        return f64::from(online);
    }
    let mut by = w.to_vec();
    by.sort_unstable_by(|a, b| b.cmp(a));
    let counted = by[..up].iter().sum::<u64>() as f64 / up as f64;
    let joined = by[up..].iter().sum::<u64>() as f64;
    up as f64 + (joined / counted.max(1.0)).min((writers - up) as f64)
}

fn secs(ns: u64) -> f64 {
    (ns as f64 / 1e9 * 1000.0).round() / 1000.0
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Builds the report model from finished runs.
pub fn build(scenario: &Scenario, runs: &[RunResult]) -> Report {
    let s = &scenario.settings;
    Report {
        schema_version: SCHEMA_VERSION,
        kernels: Some(crate::kernel::active().name().to_string()),
        scenario: ScenarioJson {
            name: scenario.name.clone(),
            path: scenario.source.path.display().to_string(),
            seed: scenario.seed,
            regionservers: scenario.cluster.regionservers,
            heap_bytes: scenario.cluster.heap_bytes,
            rows: scenario.workload.rows,
            rate_bytes_per_s: scenario.workload.rate_bytes_per_s,
            max_filesize: s.max_filesize,
            flush_size: s.flush_size,
            split_policy: s.split_policy.simple_name().to_string(),
            write_bandwidth_bytes_per_s: scenario.cluster.write_bandwidth,
            hardware: {
                let h = &scenario.cluster.hardware;
                HardwareJson {
                    profile: h.profile.clone(),
                    source: h.source().to_string(),
                    disks: h.disks,
                    disk_bandwidth_bytes_per_s: h.disk_bandwidth,
                    network_bytes_per_s: h.network,
                    cores: h.cores,
                    replication: s.client.replication,
                    cpu_per_put_ns: crate::engine::policy::resources::CPU_PER_PUT_NS,
                    handlers: s.client.handlers,
                }
            },
            client: ClientJson {
                writers: scenario.client.writers,
                write_buffer_bytes: s.client.write_buffer,
                pause_ms: s.client.pause_ms,
                retries: s.client.retries,
                operation_timeout_ms: s.client.operation_timeout_ms,
            },
            flush_bandwidth_bytes_per_s: scenario.cluster.flush_bandwidth,
            compaction_bandwidth_bytes_per_s: scenario.cluster.compaction_bandwidth,
            compression: scenario
                .table
                .families
                .iter()
                .filter(|f| f.codec != crate::codec::Codec::None)
                .map(|f| CompressionJson {
                    family: f.name.clone(),
                    codec: f.codec.name().into(),
                    data_fraction: f.compression_ratio,
                    ratio_from: if f.ratio_given { "measured" } else { "codec" }.into(),
                    compressibility: scenario.workload.compressibility,
                    compressibility_assumed: !scenario.workload.compressibility_given,
                    flush_bandwidth_bytes_per_s: f
                        .codec
                        .flush_bps(scenario.cluster.flush_bandwidth),
                    compaction_bandwidth_bytes_per_s: f
                        .codec
                        .compaction_bps(scenario.cluster.compaction_bandwidth, f.compression_ratio),
                })
                .collect(),
            overrides: crate::report::overrides::to_json(&scenario.overrides),
        },
        runs: runs
            .iter()
            .map(|r| {
                let mut j = run_json(r);
                name_imported_servers(scenario, &mut j);
                j
            })
            .collect(),
        timings: None,
        assumption_ranges: None,
    }
}

/// Regions that opened as imported sit on the import's servers, sorted by name, as servers
/// 0..n: the start-vs-end table gives each its imported name, which is what the operator knows.
fn name_imported_servers(scenario: &Scenario, run: &mut RunJson) {
    let (Some(init), Some(sv)) = (&scenario.initial, &mut run.start_vs_end) else {
        return;
    };
    if init.servers != crate::scenario::InitialServers::AsImported {
        return;
    }
    for (s, name) in sv.servers.iter_mut().zip(&scenario.imported_servers) {
        s.imported = Some(name.clone());
    }
}

fn run_json(r: &RunResult) -> RunJson {
    let (tables, cluster) = super::tables::json(r);
    let n = r.servers.len();
    let d = &r.dynamics;
    let total_reads: u64 = r
        .servers
        .iter()
        .map(|s| s.read_requests)
        .sum::<u64>()
        .max(1);
    let total_writes: u64 = r
        .servers
        .iter()
        .map(|s| s.write_requests)
        .sum::<u64>()
        .max(1);
    let mut region_count = vec![0usize; n];
    let mut server_store = vec![0u64; n];
    for reg in &r.regions {
        region_count[reg.server] += 1;
        server_store[reg.server] += reg.store_bytes();
    }
    // Hotspots per window.
    let windows: Vec<Vec<f64>> = r
        .windows
        .iter()
        .map(|w| {
            let t: u64 = w.iter().sum();
            w.iter()
                .map(|&x| {
                    if t == 0 {
                        0.0
                    } else {
                        round4(x as f64 / t as f64)
                    }
                })
                .collect()
        })
        .collect();
    let hotf = hotspot_figures(
        &WindowCounts {
            windows: &r.windows,
            window_servers: &r.window_servers,
            ingest_ns: r.ingest_ns,
        },
        n,
    );
    let max_share = hotf.worst_minute;
    // Regions.
    let min_writes = r
        .regions
        .iter()
        .map(|x| x.write_requests)
        .filter(|&w| w > 0)
        .min()
        .unwrap_or(1);
    let cold_before = r.ingest_ns - r.ingest_ns / 10;
    let mut hist =
        Histogram::<u64>::new_with_bounds(1, u64::MAX >> 1, 3).expect("valid histogram bounds");
    let mut cold = 0;
    let mut idle: u128 = 0;
    let mut quiet_sizes: Vec<u64> = Vec::new();
    for reg in &r.regions {
        hist.saturating_record(reg.store_bytes());
        // Cold: open through the last 10 % of the load yet written to before it (or never).
        let open_then = reg.opened_ns < cold_before;
        let quiet = open_then && reg.last_write_ns.is_none_or(|t| t < cold_before);
        if quiet && reg.store_bytes() < r.max_filesize / 2 {
            cold += 1;
        }
        if quiet {
            quiet_sizes.push(reg.store_bytes());
            idle += u128::from(r.max_filesize.saturating_sub(reg.store_bytes()));
        }
    }
    quiet_sizes.sort_unstable();
    let quiet_p50 = quiet_sizes.get(quiet_sizes.len() / 2).copied().unwrap_or(0);
    let regions: Vec<RegionJson> = r
        .regions
        .iter()
        .map(|reg| RegionJson {
            start: to_string_binary(&reg.start),
            end: to_string_binary(&reg.end),
            server: server_name(reg.server, n),
            store_bytes: reg.store_bytes(),
            store_files: reg.store_files(),
            rows: reg.rows,
            write_requests: reg.write_requests,
            range_writes: reg.range_writes,
            ratio_to_smallest: round4(reg.write_requests as f64 / min_writes as f64),
            generation: reg.generation,
            memstore_bytes: reg.memstore_data(),
            last_write_seconds: reg.last_write_ns.map(secs),
            read_requests: reg.read_requests,
        })
        .collect();
    let mut hot: Vec<&crate::engine::RegionResult> = r.regions.iter().collect();
    hot.sort_by(|a, b| {
        b.range_writes
            .cmp(&a.range_writes)
            .then(a.start.cmp(&b.start))
    });
    let hottest_regions = hot
        .iter()
        .take(5)
        .map(|reg| HotRegionJson {
            start: to_string_binary(&reg.start),
            server: server_name(reg.server, n),
            write_share: round4(reg.range_writes as f64 / total_writes as f64),
        })
        .collect();
    let st = &r.stats;
    let store_bytes: u64 = r.regions.iter().map(|x| x.store_bytes()).sum();
    // Bytes that entered the stores: flushed, or bulk-loaded.
    let entered = st.flushed_file_bytes + r.bulk.as_ref().map_or(0, |b| b.bytes_loaded);
    let wa = if entered == 0 {
        0.0
    } else {
        round4((entered + st.compaction_written_bytes) as f64 / entered as f64)
    };
    RunJson {
        generator: r.generator.clone(),
        describe: r.describe.clone(),
        scale: r.scale,
        scale_guard: r.scale_guard,
        scale_warning: r.scale_warning.clone(),
        emulated_rows: r.emulated_rows,
        bulk_load: r.bulk.as_ref().map(super::bulkload::json),
        loader: r
            .loader
            .as_ref()
            .map(|l| super::loader::json(l, r.rows, r.ingest_ns)),
        client: ClientRunJson {
            retried_rows: st.retried_rows,
            retries: st.retries,
            failed_rows: st.failed_rows,
            lost_rows: st.lost_rows,
            mean_retry_delay_seconds: if st.retried_rows == 0 {
                0.0
            } else {
                round4(st.retry_delay_row_ns as f64 / st.retried_rows as f64 / 1e9)
            },
            max_retry_delay_seconds: secs(st.retry_delay_max_ns),
            held_peak_bytes: st.held_peak_bytes,
            stall_seconds: secs(st.stall_ns),
            retry_tail_seconds: secs(st.retry_tail_ns),
        },
        summary: SummaryJson {
            rows: r.rows,
            bytes: r.payload_bytes,
            data_bytes: r.data_bytes,
            sim_seconds: secs(r.ingest_ns),
            settle_seconds: secs(r.settled_ns),
            regions_initial: r.regions_initial,
            regions_final: r.regions.len(),
            splits: r.splits.len(),
            flushes: st.flushes,
            flushed_bytes: st.flushed_bytes,
            avg_flush_bytes: st.flushed_bytes / st.flushes.max(1),
            compactions: st.minor_compactions + st.major_compactions,
            minor_compactions: st.minor_compactions,
            major_compactions: st.major_compactions,
            compacted_bytes: st.compacted_bytes,
            compaction_written_bytes: st.compaction_written_bytes,
            write_amplification: wa,
            blocked_seconds: secs(st.blocked_ns),
            offline_seconds: secs(st.offline_ns),
            offline_wait_seconds: secs(st.offline_wait_ns),
            throttled_seconds: secs(st.throttled_ns),
            throttled_by: (st.throttled_ns > 0).then(|| {
                let w = &st.server_waits;
                let path = |b: crate::engine::state::server::WriteBound| secs(w.path_ns[b.index()]);
                use crate::engine::state::server::WriteBound as B;
                ThrottledJson {
                    gc_pause_seconds: secs(w.gc_ns),
                    cpu_seconds: path(B::Cpu),
                    disk_seconds: path(B::Disk),
                    network_seconds: path(B::Network),
                    write_bandwidth_seconds: path(B::Cap),
                }
            }),
            delayed_flushes: st.delayed_flushes,
            procedures_queued: st.procedures_queued,
            procedure_wait_seconds: secs(st.procedure_wait_ns),
            max_server_write_share: max_share,
            store_bytes,
            memstore_bytes: r.regions.iter().map(|x| x.memstore_data()).sum(),
            wal_rolls: st.wal_rolls,
            wal_files_peak: r
                .servers
                .iter()
                .map(|s| s.wal_files_peak)
                .max()
                .unwrap_or(0),
            wal_forced_flushes: st.wal_forced_flushes,
            gc_pauses: st.gc_pauses,
            gc_long_pauses: st.gc_long_pauses,
            gc_pause_seconds: secs(st.gc_pause_ns),
            ageing: (st.ttl_expired_rows > 0 || st.expired_files_dropped > 0).then(|| AgeingJson {
                ttl_expired_rows: st.ttl_expired_rows,
                ttl_expired_bytes: st.ttl_expired_bytes,
                expired_files_dropped: st.expired_files_dropped,
                rows_stored: r.regions.iter().map(|g| g.rows).sum(),
            }),
            versions: (st.updates > 0 || st.deletes > 0).then(|| VersionsJson {
                updates: st.updates,
                deletes: st.deletes,
                versions_dropped: st.versions_dropped,
                versions_dropped_bytes: st.versions_dropped_bytes,
                deleted_rows_dropped: st.deleted_rows_dropped,
                deleted_versions_dropped: st.deleted_versions_dropped,
                markers_dropped: st.markers_dropped,
                deleted_bytes: st.deleted_bytes,
                versions_stored: r
                    .regions
                    .iter()
                    .flat_map(|g| &g.stores)
                    .map(|s| s.versions)
                    .sum(),
                markers_stored: r
                    .regions
                    .iter()
                    .flat_map(|g| &g.stores)
                    .map(|s| s.markers)
                    .sum(),
                rows_stored: r.regions.iter().map(|g| g.rows).sum(),
            }),
        },
        servers: r
            .servers
            .iter()
            .enumerate()
            .map(|(i, s)| ServerJson {
                name: server_name(i, n),
                regions: region_count[i],
                store_bytes: server_store[i],
                write_requests: s.write_requests,
                write_share: round4(s.write_requests as f64 / total_writes as f64),
                memstore_peak_bytes: s.memstore_peak,
                blocked_seconds: secs(s.blocked_ns),
                read_requests: s.read_requests,
                read_share: round4(s.read_requests as f64 / total_reads as f64),
                online: !s.dead && !s.draining,
                wal_rolls: s.wal_rolls,
                wal_files_peak: s.wal_files_peak,
                gc_pause_seconds: secs(s.gc_pause_ns),
            })
            .collect(),
        regions,
        region_sizes: SizesJson {
            min: hist.min(),
            p50: hist.value_at_quantile(0.5),
            p90: hist.value_at_quantile(0.9),
            max: hist.max(),
            cold_regions: cold,
            idle_capacity: if r.regions.is_empty() || r.max_filesize == 0 {
                0.0
            } else {
                round4(idle as f64 / (r.regions.len() as f64 * r.max_filesize as f64))
            },
            quiet_regions: quiet_sizes.len(),
            quiet_p50,
            split_size: r.max_filesize,
        },
        splits: r
            .splits
            .iter()
            .map(|sp| SplitJson {
                at_seconds: secs(sp.at_ns),
                offline_seconds: secs(sp.done_ns - sp.at_ns),
                parent_start: to_string_binary(&sp.parent_start),
                parent_end: to_string_binary(&sp.parent_end),
                split_key: to_string_binary(&sp.split_key),
                server: server_name(sp.server, n),
                parent_bytes: sp.parent_bytes,
                generation: sp.generation,
                split_size: sp.split_size,
                reason: history::split_reason(&sp.reason),
            })
            .collect(),
        hotspots: HotspotsJson {
            window_seconds: secs(WINDOW_NS),
            max_server_write_share: max_share,
            mean_hottest_share: Some(hotf.mean_hottest),
            time_over_twice_fair_share: hotf.time_over,
            online_servers: hotf.online,
            windows,
            hottest_regions,
        },
        timeline_interval_seconds: secs(r.sample_ns * timeline_step(r.samples.len())),
        timeline: timeline(r),
        key_heatmap: heatmap(r),
        moves: d
            .moves
            .iter()
            .map(|m| MoveJson {
                at_seconds: secs(m.at_ns),
                offline_seconds: secs(m.done_ns.saturating_sub(m.at_ns)),
                start: to_string_binary(&m.start),
                end: to_string_binary(&m.end),
                from: server_name(m.from, n),
                to: server_name(m.to, n),
                store_bytes: m.store_bytes,
                reason: history::move_reason(&m.reason),
            })
            .collect(),
        merges: d
            .merges
            .iter()
            .map(|m| MergeJson {
                at_seconds: secs(m.at_ns),
                offline_seconds: secs(m.done_ns.saturating_sub(m.at_ns)),
                region_starts: m.starts.iter().map(|k| to_string_binary(k)).collect(),
                start: to_string_binary(&m.start),
                end: to_string_binary(&m.end),
                server: server_name(m.server, n),
                store_bytes: m.store_bytes,
                reason: history::norm_merge(&m.reason),
            })
            .collect(),
        events: d
            .events
            .iter()
            .map(|e| EventJson {
                at_seconds: secs(e.at_ns),
                kind: e.detail.kind().to_string(),
                detail: history::event(&e.detail),
            })
            .collect(),
        balance: balance_json(r, &region_count),
        scan_fanout: super::scan::json(&r.scan_fanout),
        expectations: Vec::new(),
        start_vs_end: start_vs_end(r),
        tables,
        cluster,
    }
}

/// Balance figures: regions per online server at the end and over time.
fn balance_json(r: &RunResult, region_count: &[usize]) -> BalanceJson {
    let d = &r.dynamics;
    let online: Vec<usize> = r
        .servers
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.dead && !s.draining)
        .map(|(i, _)| region_count[i])
        .collect();
    let max_spread = r
        .samples
        .iter()
        .map(|smp| {
            let counts = smp
                .servers
                .iter()
                .zip(&r.servers)
                .filter(|(_, s)| !s.dead && !s.draining)
                .map(|(x, _)| x.regions as usize);
            let (lo, hi) = counts.fold((usize::MAX, 0), |(lo, hi), c| (lo.min(c), hi.max(c)));
            hi.saturating_sub(lo.min(hi))
        })
        .max()
        .unwrap_or(0);
    BalanceJson {
        balancer: d.balancer.clone(),
        balancer_runs: d.balancer_runs,
        balancer_moves: d.balancer_moves,
        max_regions_per_server: online.iter().copied().max().unwrap_or(0),
        min_regions_per_server: online.iter().copied().min().unwrap_or(0),
        mean_regions_per_server: round4(
            online.iter().sum::<usize>() as f64 / online.len().max(1) as f64,
        ),
        max_spread_over_time: max_spread,
        all_servers_hosting_seconds: d.all_hosting_ns.map(secs),
    }
}

/// Timeline samples are merged so that a run has at most this many per server.
const MAX_TIMELINE_SAMPLES: usize = 500;
/// Key heatmap time slices are merged so that a run has at most this many.
const MAX_HEAT_SLICES: usize = 300;

/// Engine samples per reported timeline sample.
fn timeline_step(n: usize) -> u64 {
    n.div_ceil(MAX_TIMELINE_SAMPLES).max(1) as u64
}

/// Per server per sample, every `timeline_step` engine samples (plus the last one).
fn timeline(r: &RunResult) -> Vec<TimelineSampleJson> {
    let step = timeline_step(r.samples.len()) as usize;
    let n = r.servers.len();
    let mut picks: Vec<usize> = (step - 1..r.samples.len()).step_by(step).collect();
    if let Some(last) = r.samples.len().checked_sub(1)
        && picks.last() != Some(&last)
    {
        picks.push(last);
    }
    let mut out = Vec::with_capacity(picks.len() * n);
    let mut prev: Option<&crate::engine::Sample> = None;
    for &i in &picks {
        let cur = &r.samples[i];
        let dt = (cur.at_ns - prev.map_or(0, |p| p.at_ns)).max(1) as f64 / 1e9;
        for (j, s) in cur.servers.iter().enumerate() {
            let before = prev.and_then(|p| p.servers.get(j));
            let d = |f: fn(&crate::engine::ServerSample) -> u64| {
                f(s).saturating_sub(before.map_or(0, f))
            };
            out.push(TimelineSampleJson {
                at_seconds: secs(cur.at_ns),
                server: server_name(j, n),
                regions: s.regions as usize,
                store_bytes: s.store_bytes,
                memstore_bytes: s.memstore_bytes,
                write_requests_per_s: round4(d(|x| x.writes) as f64 / dt),
                read_requests_per_s: round4(d(|x| x.reads) as f64 / dt),
                blocked_seconds: secs(d(|x| x.blocked_ns)),
                online: s.online,
                store_files: s.store_files,
                compaction_queue: s.compaction_queue,
            });
        }
        prev = Some(cur);
    }
    out
}

/// Writes per key bucket per time slice (engine windows merged to at most `MAX_HEAT_SLICES`).
fn heatmap(r: &RunResult) -> HeatmapJson {
    let step = r.heat_writes.len().div_ceil(MAX_HEAT_SLICES).max(1);
    let buckets = r.heat_buckets.len().max(1);
    let writes = r
        .heat_writes
        .chunks(step)
        .map(|c| {
            let mut row = vec![0u64; buckets];
            for w in c {
                for (a, b) in row.iter_mut().zip(w) {
                    *a += b;
                }
            }
            row
        })
        .collect();
    let mut reads: Vec<Vec<u64>> = Vec::new();
    if !r.heat_reads.is_empty() {
        // Same slices as the writes (reads may run a window past the last write).
        let slices = r.heat_writes.len().max(r.heat_reads.len()).div_ceil(step);
        reads = vec![vec![0u64; buckets]; slices];
        for (w, row) in r.heat_reads.iter().enumerate() {
            for (a, b) in reads[w / step].iter_mut().zip(row) {
                *a += b;
            }
        }
    }
    HeatmapJson {
        interval_seconds: secs(r.sample_ns * step as u64),
        buckets: r.heat_buckets.iter().map(|k| to_string_binary(k)).collect(),
        writes,
        reads,
    }
}

impl Report {
    /// JSON document.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::{WindowCounts, hotspot_figures};
    use crate::engine::WINDOW_NS;

    /// Scale-out: 5 servers share writes evenly, then 5 more join and all 10 do. Fair share is
    /// 1 / the servers online in each window, so no minute is a hotspot (with 1/10 throughout,
    /// the first half read as one).
    #[test]
    fn fair_share_follows_the_servers_online_in_each_window() {
        let mut windows = vec![vec![100, 100, 100, 100, 100]; 2];
        windows.extend(vec![vec![50; 10]; 2]);
        let f = hotspot_figures(
            &WindowCounts {
                windows: &windows,
                window_servers: &[5, 5, 10, 10],
                ingest_ns: 4 * WINDOW_NS,
            },
            10,
        );
        assert_eq!(f.time_over, 0.0);
        assert_eq!(f.worst_minute, 0.2);
        assert_eq!(f.mean_hottest, 0.15);
        assert_eq!(f.online, vec![5, 5, 10, 10]);
    }

    /// One server took everything for the first minute, then writes spread over 4: the worst
    /// minute says 100 %, the time-weighted figures say a quarter of the load (the last, half
    /// minute counts half).
    #[test]
    fn time_weighted_figures_weigh_windows_by_their_time_in_the_load() {
        let windows = vec![vec![400, 0, 0, 0], vec![100; 4], vec![100; 4], vec![50; 4]];
        let f = hotspot_figures(
            &WindowCounts {
                windows: &windows,
                window_servers: &[4; 4],
                ingest_ns: 3 * WINDOW_NS + WINDOW_NS / 2,
            },
            4,
        );
        assert_eq!(f.worst_minute, 1.0);
        // 1 minute of 3.5 over twice the fair share (50 %).
        assert_eq!(f.time_over, 0.2857);
        // (1.0 × 1 + 0.25 × 2.5) / 3.5
        assert_eq!(f.mean_hottest, 0.4643);
    }

    /// A window whose writers outnumber the servers counted at its start (a server joined during
    /// it) uses the writers.
    #[test]
    fn servers_that_took_writes_count_as_online() {
        let windows = vec![vec![10, 10, 10]];
        let f = hotspot_figures(
            &WindowCounts {
                windows: &windows,
                window_servers: &[1],
                ingest_ns: WINDOW_NS,
            },
            3,
        );
        assert_eq!(f.online, vec![3]);
        assert_eq!(f.time_over, 0.0);
    }

    /// Issue 32: servers that joined in a window's last seconds counted fully, halving the
    /// fair share of the minute they joined in: the five busy servers' 20 % read as a hotspot.
    /// They count for the part of the window they wrote in.
    #[test]
    fn servers_that_joined_late_in_a_window_count_for_their_part() {
        // One minute: five servers counted at its start, ten writing by its end.
        let minute = |w: Vec<u64>| {
            let windows = vec![w];
            hotspot_figures(
                &WindowCounts {
                    windows: &windows,
                    window_servers: &[5],
                    ingest_ns: WINDOW_NS,
                },
                10,
            )
        };
        let f = minute(vec![2000, 2000, 2000, 2000, 2002, 300, 300, 300, 200, 200]);
        assert_eq!(f.online, vec![10]);
        assert_eq!(f.time_over, 0.0);
        // A real hotspot among the five still shows.
        let f = minute(vec![9000, 500, 500, 500, 500, 300, 300, 300, 200, 200]);
        assert_eq!(f.time_over, 1.0);
    }
}
