//! Scenario files: one experiment — a cluster, its hbase-site.xml layers, a table, a workload
//! and the rowkey designs to compare. Parsed from TOML with spans, validated into [`Scenario`];
//! every problem is reported with file, line, column, field and what was expected. A TOML syntax
//! or type error stops at the first; after that all problems of each validation stage are
//! reported together.

mod events;
mod expect;
pub mod loader;
mod raw;
pub mod tables;

pub use expect::{ALL_DESIGNS, ExpectationSpec};

use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::Spanned;

use crate::codec::Codec;
use crate::config::settings::{
    CompactionPolicyClass, SPLIT_RESTRICTION_DELIMITER_KEY, SPLIT_RESTRICTION_PREFIX_LENGTH_KEY,
    SPLIT_RESTRICTION_TYPE_KEY,
};
use crate::config::{Attr, Origin, Settings, SiteConfig, SplitRestriction, TableAttributes};
use crate::diag::{InputError, SourceText};
use crate::keygen::GeneratorSpec;
use crate::units;

use raw::PresplitAlgorithm;
use raw::{Quantity, RawInitial, RawScenario, RawTable};

/// The scenario schema this build reads.
pub const SCHEMA_VERSION: i64 = 1;
/// Seed used when a scenario sets none.
pub const DEFAULT_SEED: u64 = 42;
/// RegionServer heap used when `[cluster] heap` is absent.
pub const DEFAULT_HEAP: u64 = 16 << 30;
/// Offered write rate used when `[workload] rate` is absent (payload bytes per second).
pub const DEFAULT_RATE: u64 = 1 << 30;
/// Writers of the loader when `[client] writers` is absent.
pub const DEFAULT_WRITERS: u64 = 32;
/// Most writers a scenario may declare.
pub const MAX_WRITERS: u64 = 100_000;
/// Per-RegionServer flush bandwidth (HFile writes) when absent.
pub const DEFAULT_FLUSH_BANDWIDTH: u64 = 100 << 20;
/// Physical ceiling of one compaction (bytes read per second) when absent: how fast a compaction
/// thread gets through its input when nothing throttles it. HBase's throughput controller
/// (`PressureAwareCompactionThroughputController`, docs/MODEL.md) slows it further. 100 MB/s: a
/// compaction writes one HFile like a flush (`DEFAULT_FLUSH_BANDWIDTH`) and must also read and
/// merge its inputs, so it is not faster; it equals the controller's default higher bound, so at
/// default settings the throttle rather than the ceiling decides until a store blocks flushes.
pub const DEFAULT_COMPACTION_BANDWIDTH: u64 = 100 << 20;
/// Region close + open time around a split, when absent.
pub const DEFAULT_REGION_TRANSITION_MS: u64 = 1_000;
/// Time until the master declares a silent RegionServer dead, when `[cluster] failure_detection`
/// is absent: hbase-default.xml's `zookeeper.session.timeout` (90000 ms). That key is not one of
/// the modelled keys, so a site file setting it does not change this default.
pub const DEFAULT_FAILURE_DETECTION_MS: u64 = 90_000;
/// Bytes per second a dead server's WAL is split and replayed at, when absent.
pub const DEFAULT_WAL_REPLAY_BANDWIDTH: u64 = 100 << 20;

/// Keys sampled for `algorithm = "sampled"` when `samples` is absent.
pub const DEFAULT_SAMPLES: u64 = 1_000_000;
/// Most RegionServers a scenario may declare.
pub const MAX_REGIONSERVERS: u64 = 10_000;
use crate::presplit::{MAX_PRESPLIT_REGIONS, MAX_SAMPLES};

/// Scenarios shipped inside the binary, so `hbase-emu` runs with no files at hand.
pub const EMBEDDED: &[(&str, &str)] = &[
    (
        "scenarios/salted-spark-loader.toml",
        include_str!("../../scenarios/salted-spark-loader.toml"),
    ),
    (
        "scenarios/ycsb-closed-loop.toml",
        include_str!("../../scenarios/ycsb-closed-loop.toml"),
    ),
    (
        "scenarios/4tb-10-nodes-2gb.toml",
        include_str!("../../scenarios/4tb-10-nodes-2gb.toml"),
    ),
    (
        "scenarios/classic-hash-10-regions.toml",
        include_str!("../../scenarios/classic-hash-10-regions.toml"),
    ),
    (
        "scenarios/classic-partition-20-regions.toml",
        include_str!("../../scenarios/classic-partition-20-regions.toml"),
    ),
    (
        "scenarios/node-failure.toml",
        include_str!("../../scenarios/node-failure.toml"),
    ),
    (
        "scenarios/scale-out.toml",
        include_str!("../../scenarios/scale-out.toml"),
    ),
    (
        "scenarios/normalizer.toml",
        include_str!("../../scenarios/normalizer.toml"),
    ),
    (
        "scenarios/read-hotspot.toml",
        include_str!("../../scenarios/read-hotspot.toml"),
    ),
    (
        "scenarios/ttl-timeseries.toml",
        include_str!("../../scenarios/ttl-timeseries.toml"),
    ),
    (
        "scenarios/ttl-timeseries-fifo.toml",
        include_str!("../../scenarios/ttl-timeseries-fifo.toml"),
    ),
    (
        "scenarios/ttl-timeseries-dtcp.toml",
        include_str!("../../scenarios/ttl-timeseries-dtcp.toml"),
    ),
    (
        "scenarios/updates-and-deletes.toml",
        include_str!("../../scenarios/updates-and-deletes.toml"),
    ),
    (
        "scenarios/shared-cluster.toml",
        include_str!("../../scenarios/shared-cluster.toml"),
    ),
    (
        "configs/2gb-regions.xml",
        include_str!("../../configs/2gb-regions.xml"),
    ),
    (
        "configs/hbase-1.x-policy.xml",
        include_str!("../../configs/hbase-1.x-policy.xml"),
    ),
    (
        "configs/small-memstore.xml",
        include_str!("../../configs/small-memstore.xml"),
    ),
];

/// The default scenario (`hbase-emu` with no arguments).
pub const DEFAULT_SCENARIO: &str = "scenarios/4tb-10-nodes-2gb.toml";

/// Reads a file from disk; a path under this crate's source tree that is missing on disk (an
/// installed binary) falls back to the copy embedded at build time.
pub fn read_source(path: &Path, what: &str) -> Result<SourceText, InputError> {
    if !path.exists()
        && let Some(text) = embedded_text(path)
    {
        return Ok(SourceText::from_string(path, text));
    }
    SourceText::read(path, what)
}

fn embedded_text(path: &Path) -> Option<&'static str> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = path.strip_prefix(root).unwrap_or(path);
    let rel = normalize(rel);
    EMBEDDED
        .iter()
        .find(|(p, _)| Path::new(p) == rel)
        .map(|(_, t)| *t)
}

/// Removes `.` and `a/..` components lexically (no file system access).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The path of the embedded default scenario (inside the source tree it was built from).
pub fn default_scenario_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_SCENARIO)
}

/// `[cluster]`, validated.
#[derive(Debug, Clone)]
pub struct Cluster {
    /// Number of RegionServers.
    pub regionservers: u64,
    /// JVM max heap per RegionServer, bytes.
    pub heap_bytes: u64,
    /// hbase-site.xml files layered over the defaults, in order, resolved against the scenario.
    pub site_files: Vec<PathBuf>,
    /// An explicit ceiling on the bytes per second one RegionServer absorbs (WAL append +
    /// memstore insert), on top of what its hardware allows; `None`: the hardware decides.
    pub write_bandwidth: Option<u64>,
    /// The node's hardware: disks, network, cores.
    pub hardware: crate::hardware::Hardware,
    /// Bytes per second one flush writes.
    pub flush_bandwidth: u64,
    /// Bytes read per second of one compaction that nothing throttles (its physical ceiling;
    /// the RegionServer's compaction throughput controller may slow it down further).
    pub compaction_bandwidth: u64,
    /// Time a region is offline for a close + open (split, move), ms, besides its close flush.
    pub region_transition_ms: u64,
    /// Time until the master notices a dead server (`zookeeper.session.timeout`), ms.
    pub failure_detection_ms: u64,
    /// Bytes per second at which a dead server's WAL is split and replayed into its regions.
    pub wal_replay_bandwidth: u64,
    /// Seeded spread of durations and JVM pauses (`variability`; default on).
    pub variability: Variability,
    /// Assumption profiles `run` runs the scenario under (`assumptions`; docs/CALIBRATION.md),
    /// `typical` (the scenario itself) among them; only `typical` when the field is absent.
    pub assumptions: Vec<String>,
}

/// `[client]`: the loader writing the workload (its HBase client settings come from the site
/// keys, `hbase.client.*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    /// Writer threads or processes, each with its own `BufferedMutator` and write buffer.
    pub writers: u64,
    /// The time-range scans the report prices (`scan_windows`): the rows written in the last
    /// this many ms of the ingest, one scan each.
    pub scan_windows_ms: Vec<u64>,
    /// The loader every design has unless it sets its own (`clients`, `partition`, `loop`).
    pub loader: loader::Loader,
}

/// `[client] scan_windows` when absent: the last minute and the last hour.
pub const DEFAULT_SCAN_WINDOWS_MS: [u64; 2] = [60_000, 3_600_000];
/// Most time-range scans one scenario prices.
pub const MAX_SCAN_WINDOWS: usize = 8;

/// `[cluster] variability`: whether durations vary (seeded) as on a real cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variability {
    /// Flush, compaction and split times vary and servers pause for GC (docs/MODEL.md).
    Default,
    /// Every duration is its textbook value: bytes / bandwidth, no GC pauses.
    None,
}

/// What `[cluster] variability` accepts.
pub const VARIABILITY_EXPECTED: &str = "\"default\" or \"none\"";

/// A column family.
#[derive(Debug, Clone, PartialEq)]
pub struct Family {
    /// Family name (1..=127 bytes, HBase's limit).
    pub name: String,
    /// BLOCKSIZE, bytes.
    pub block_size: u64,
    /// On-disk bytes per logical byte of data blocks after compression (1.0 = NONE): the
    /// family's `compression_ratio`, else its codec's on the workload's `compressibility`.
    pub compression_ratio: f64,
    /// `COMPRESSION` (default NONE).
    pub codec: Codec,
    /// `compression_ratio` was given (a measured ratio), not derived from the codec.
    pub ratio_given: bool,
    /// TTL (`ColumnFamilyDescriptor.getTimeToLive`), ms; `None` = FOREVER (HBase's default).
    pub ttl_ms: Option<u64>,
    /// `VERSIONS` (`ColumnFamilyDescriptor.getMaxVersions`): cell versions a row keeps (default 1).
    pub max_versions: u32,
}

/// `[table]`, validated.
#[derive(Debug, Clone)]
pub struct Table {
    /// Table name.
    pub name: String,
    /// Column families (at least one).
    pub families: Vec<Family>,
    /// Table attributes that override site keys.
    pub attributes: TableAttributes,
    /// How the table is pre-split.
    pub presplit: Presplit,
    /// Where `[table.presplit]` is in the scenario file (for errors found when planning).
    pub presplit_span: Range<usize>,
    /// Where the `first_row` and `last_row` values are, when given (errors about the range
    /// point at the value rather than the section).
    pub row_spans: [Option<Range<usize>>; 2],
}

/// `[table.presplit]`, validated.
#[derive(Debug, Clone, PartialEq)]
pub enum Presplit {
    /// One region covering the whole key space.
    None,
    /// A RegionSplitter-style algorithm with a region count.
    Algorithm {
        /// Which algorithm.
        algorithm: crate::presplit::Algorithm,
        /// Number of regions.
        regions: u64,
        /// Custom first row (hex/decimal digits, or toStringBinary notation for uniform).
        first_row: Option<String>,
        /// Custom last row (hex/decimal digits, or toStringBinary notation for uniform).
        last_row: Option<String>,
    },
    /// Quantiles of each run's own generator over the planned id range.
    Sampled {
        /// Number of regions.
        regions: u64,
        /// Keys sampled.
        samples: u64,
    },
    /// Explicit split keys (already decoded from toStringBinary notation).
    Keys(Vec<Vec<u8>>),
    /// A SPLITS_FILE (resolved against the scenario's directory).
    File(PathBuf),
}

/// `[workload]`, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Rows to write.
    pub rows: u64,
    /// First row id (ids are `first_id .. first_id + rows`).
    pub first_id: u64,
    /// Cells per row.
    pub columns: u64,
    /// Qualifier length, bytes.
    pub qualifier_bytes: u64,
    /// Value length, bytes.
    pub value_bytes: u64,
    /// Offered write rate, payload (value) bytes per second, cluster-wide.
    pub rate_bytes_per_s: u64,
    /// Real rows per emulated row, if the scenario fixes it (`--scale` overrides; None = automatic).
    pub scale: Option<u64>,
    /// `[workload.reads]`: a read workload beside the writes (None = writes only).
    pub reads: Option<Reads>,
    /// `start_time`: the wall-clock time of day at simulated time 0, in minutes after midnight
    /// (default 0 = "00:00"). Off-peak hours are read on this clock.
    pub start_minute: u32,
    /// `duration`: the run's simulated length, ms (None: the run ends when the data is written
    /// and the work it caused is done). With it, the rows are written at the phases' rates and
    /// the table then lives on without writes until this time.
    pub duration_ms: Option<u64>,
    /// Share of the rows that overwrite a row written before (a new version of it) instead of
    /// writing a new one (default 0).
    pub update_fraction: f64,
    /// Share of the rows that delete a row written before (a delete marker per family) (default 0).
    pub delete_fraction: f64,
    /// Share of the data that compresses as the web text of HBase's codec benchmark does, the
    /// rest incompressible (`compressibility`, default 1): what a family's `COMPRESSION` saves.
    pub compressibility: f64,
    /// `compressibility` was given (else the default is an assumption the report names).
    pub compressibility_given: bool,
}

/// `[workload.reads]`, validated: gets and scans over the keys written so far (YCSB's choices).
#[derive(Debug, Clone, PartialEq)]
pub struct Reads {
    /// Gets per second offered, cluster-wide (real units).
    pub gets_per_s: f64,
    /// Scans per second offered, cluster-wide (real units).
    pub scans_per_s: f64,
    /// Rows one scan reads (all counted on the region of its first row; the engine does not
    /// cross into the next regions).
    pub scan_rows: u64,
    /// Which written row a read picks.
    pub distribution: ReadDistribution,
}

/// How a read picks a row among the `n` written so far (YCSB `requestdistribution`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReadDistribution {
    /// Every written row equally likely.
    Uniform,
    /// YCSB's scrambled Zipfian (`ScrambledZipfianGenerator`, constant `theta`, YCSB 0.99): a
    /// Zipfian rank over 10^10 items hashed with FNV-1a onto the written rows, so the hot rows are
    /// scattered over the ids (not the lowest ids).
    Zipfian {
        /// Zipfian constant.
        theta: f64,
    },
    /// Zipfian over recency: the newest rows hottest (YCSB `latest`).
    Latest {
        /// Zipfian constant.
        theta: f64,
    },
    /// A hot set of the first `hot_fraction` of written ids receives `hot_op_fraction` of reads
    /// (YCSB `hotspot`, hotsetfraction 0.2, hotopnfraction 0.8 by default).
    Hotspot {
        /// Fraction of written rows that are hot.
        hot_fraction: f64,
        /// Fraction of reads going to the hot set.
        hot_op_fraction: f64,
    },
}

/// When a `[[event]]` fires.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EventTrigger {
    /// At a simulated time since the load began, ns.
    Time(u64),
    /// When this many real rows have been written (`at_data`/`at_fraction` are converted to rows).
    Rows(u64),
}

/// What a `[[event]]` does.
#[derive(Debug, Clone)]
pub enum EventAction {
    /// `add_servers = N`: N new RegionServers join (names continue rs11, rs12, …).
    AddServers(u64),
    /// `decommission = "rs03"`: the server is drained (its regions moved off) and leaves.
    Decommission(usize),
    /// `kill = "rs03"`: the server dies; its regions are reassigned after detection + WAL replay.
    Kill(usize),
    /// `set = { "key" = "value", … }`: settings change; carries the settings in force afterwards
    /// (all earlier `set` events applied too), already type-checked.
    Set {
        /// The changed keys and values, as written.
        changes: Vec<(String, String)>,
        /// Settings in force after this event.
        settings: Box<Settings>,
    },
    /// `phase = { rate = "…", gets_per_s = …, scans_per_s = … }`: a new workload phase.
    Phase {
        /// New offered write rate, payload bytes per second.
        rate_bytes_per_s: Option<u64>,
        /// New gets per second.
        gets_per_s: Option<f64>,
        /// New scans per second.
        scans_per_s: Option<f64>,
    },
}

impl EventAction {
    /// A workload phase in words, e.g. `write rate 50.00 MiB/s, 100 gets/s`.
    pub fn phase_parts(
        rate_bytes_per_s: Option<u64>,
        gets_per_s: Option<f64>,
        scans_per_s: Option<f64>,
    ) -> String {
        let mut parts = Vec::new();
        match rate_bytes_per_s {
            Some(0) => parts.push("writes paused (rate 0)".to_string()),
            Some(r) => parts.push(format!("write rate {}/s", crate::units::format_bytes(r))),
            None => {}
        }
        if let Some(g) = gets_per_s {
            parts.push(format!("{g} gets/s"));
        }
        if let Some(x) = scans_per_s {
            parts.push(format!("{x} scans/s"));
        }
        parts.join(", ")
    }
}

/// An HBase property value written in TOML (`[hbase]`, an event's `set`): strings as they are,
/// numbers and booleans as Hadoop would read their text; `None` for tables and arrays.
pub(crate) fn property_value(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A `[[event]]`, validated.
#[derive(Debug, Clone)]
pub struct ClusterEvent {
    /// When it fires.
    pub trigger: EventTrigger,
    /// What it does.
    pub action: EventAction,
    /// 1-based line of the `[[event]]` in the scenario file (for reports).
    pub line: usize,
}

impl Workload {
    /// Payload bytes written (values only, as "4 TB of 1 KB rows" counts them).
    pub fn payload_bytes(&self) -> u128 {
        self.rows as u128 * self.columns as u128 * self.value_bytes as u128
    }
}

/// How a design's rows reach the table (`[[generator]] load`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadPath {
    /// A client's Puts through the WAL and the memstores (the default).
    Puts,
    /// A MapReduce or Spark job writes HFiles (`HFileOutputFormat2`) that the loader moves into
    /// the regions (`BulkLoadHFilesTool`): no WAL, no memstore.
    Bulk,
}

/// What `[[generator]] load` accepts.
pub const LOAD_EXPECTED: &str = "\"puts\" (a client's Puts, the default) or \"bulk\" (HFiles written by a job, then bulk-loaded)";

impl LoadPath {
    /// The design's load path as written (`load` absent: Puts).
    pub fn of(spec: &GeneratorSpec) -> Result<LoadPath, String> {
        match spec.load.as_ref().map(|l| l.get_ref().as_str()) {
            None | Some("puts") => Ok(LoadPath::Puts),
            Some("bulk") => Ok(LoadPath::Bulk),
            Some(other) => Err(format!("unknown load path {other:?}")),
        }
    }

    /// The name a scenario writes.
    pub fn name(self) -> &'static str {
        match self {
            LoadPath::Puts => "puts",
            LoadPath::Bulk => "bulk",
        }
    }
}

/// `[bulk_load]`, validated: the job side of a bulk load, modelled coarsely (docs/MODEL.md,
/// "Bulk load"). Its figures are assumptions the user can set; `check` shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BulkJob {
    /// Job tasks running at once per node (YARN containers or Spark executor cores the job gets).
    pub slots_per_node: u32,
    /// Bytes per second one task sorts and writes as HFiles, before the node's disks and NIC
    /// bound it.
    pub task_rate: u64,
    /// From submitting the job to its first task, ms.
    pub startup_ms: u64,
}

/// `[bulk_load] slots_per_node` when absent (an assumption: a quarter of a 16-core node).
pub const DEFAULT_BULK_SLOTS_PER_NODE: u32 = 4;
/// `[bulk_load] task_rate` when absent, bytes/s (an assumption, docs/MODEL.md).
pub const DEFAULT_BULK_TASK_RATE: u64 = 50_000_000;
/// `[bulk_load] startup` when absent, ms (the 70 s one published small cluster measured for a
/// MapReduce job's initialisation, docs/MODEL.md).
pub const DEFAULT_BULK_STARTUP_MS: u64 = 70_000;
/// Most job slots per node a scenario may declare.
pub const MAX_BULK_SLOTS_PER_NODE: u64 = 4096;

impl BulkJob {
    /// The least simulated time the job takes, ns: its startup, then the map and the reduce
    /// phase, each moving every byte of `payload` at most at every slot's own task rate on
    /// `regionservers` nodes.
    pub fn min_ns(&self, regionservers: u64, payload: u128) -> u128 {
        const NS: u128 = 1_000_000_000;
        let slots = u128::from(regionservers.max(1)) * u128::from(self.slots_per_node.max(1));
        let per_phase = payload
            .saturating_mul(NS)
            .div_ceil(u128::from(self.task_rate.max(1)) * slots);
        u128::from(self.startup_ms) * 1_000_000 + 2 * per_phase
    }
}

impl Default for BulkJob {
    fn default() -> BulkJob {
        BulkJob {
            slots_per_node: DEFAULT_BULK_SLOTS_PER_NODE,
            task_rate: DEFAULT_BULK_TASK_RATE,
            startup_ms: DEFAULT_BULK_STARTUP_MS,
        }
    }
}

/// A validated scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The scenario file.
    pub source: SourceText,
    /// Title.
    pub name: String,
    /// Free text.
    pub description: Option<String>,
    /// Seed for every random choice (after `--seed`).
    pub seed: u64,
    /// The cluster.
    pub cluster: Cluster,
    /// Effective HBase configuration: defaults, site files, `[hbase]` overrides.
    pub site: SiteConfig,
    /// Typed HBase settings for this table (site keys with table attributes applied).
    pub settings: Settings,
    /// The table.
    pub table: Table,
    /// The workload.
    pub workload: Workload,
    /// The loader.
    pub client: Client,
    /// The bulk-load job (`[bulk_load]`), for the designs with `load = "bulk"`.
    pub bulk_job: BulkJob,
    /// Rowkey designs to run, in file order (names unique).
    pub generators: Vec<GeneratorSpec>,
    /// `[[event]]` entries in file order, which is firing order: an event fires once its trigger
    /// is reached and every event before it has fired (time and row triggers cannot be compared
    /// before a run; each kind is non-decreasing among itself).
    pub events: Vec<ClusterEvent>,
    /// `[sweep] vary` entries in file order (only `sweep` reads them; `run` ignores them).
    pub sweep: Vec<SweepVary>,
    /// Things that are valid but probably not meant (e.g. `\\xff` in a split key, which HBase
    /// reads as text); `check` prints them.
    pub warnings: Vec<String>,
    /// `[expect]` entries in file order (their texts are parsed by `experiment::expect`).
    pub expectations: Vec<ExpectationSpec>,
    /// `[initial]`: the run starts from an imported table instead of the pre-split.
    pub initial: Option<Initial>,
    /// `[[other_table]]` entries in file order: the cluster's other tables and their load.
    pub other_tables: Vec<tables::OtherTable>,
    /// Every server an import names (`[initial]` placed as imported, and imported other
    /// tables), sorted by name: server i of the run is the i-th (`rs01` the first). One list
    /// for all tables, so dumps of one cluster land on the same servers.
    pub imported_servers: Vec<String>,
    /// `--set KEY=VALUE` overrides written into the file's text before it was validated (key as
    /// given, value as read), in the order given; empty for the file as written.
    pub overrides: Vec<(String, toml::Value)>,
}

impl Scenario {
    /// The bulk-load job's task rate scaled by `num / den` (an assumption profile), at least
    /// 1 byte/s.
    pub fn cluster_bulk_task_rate(&mut self, num: u64, den: u64) {
        let r = u128::from(self.bulk_job.task_rate) * u128::from(num) / u128::from(den.max(1));
        self.bulk_job.task_rate = r.clamp(1, u128::from(u64::MAX)) as u64;
    }

    /// The run's server index of an imported server name (see `imported_servers`).
    pub fn imported_server_index(&self, name: &str) -> Option<usize> {
        self.imported_servers
            .binary_search_by(|s| s.as_str().cmp(name))
            .ok()
    }
}

/// `[initial]`, validated: the imported table (already read and checked) and how it is placed.
#[derive(Debug, Clone)]
pub struct Initial {
    /// The import file, resolved against the scenario's folder.
    pub path: std::path::PathBuf,
    /// Its regions.
    pub table: std::sync::Arc<crate::import::InitialTable>,
    /// Where the imported regions open.
    pub servers: InitialServers,
}

/// `[initial] servers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitialServers {
    /// Each region on its imported server (the imported servers, sorted by name, are the
    /// cluster's first servers; `[cluster] regionservers` may add empty ones).
    AsImported,
    /// Round-robin over `[cluster] regionservers`, as a pre-split's regions are.
    Rebalance,
}

/// One `[sweep] vary` entry as written. The scenario checks only its shape; what the key
/// means is resolved by `experiment::vary`, which needs the whole document.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepVary {
    /// The key as written (`"hbase.hregion.max.filesize"`, `cluster.regionservers`).
    pub key: String,
    /// Where the key is.
    pub key_span: Range<usize>,
    /// The values, each with where it is.
    pub values: Vec<(toml::Value, Range<usize>)>,
}

/// All problems found in one scenario (at least one).
#[derive(Debug, Clone)]
pub struct ScenarioErrors(pub Vec<InputError>);

impl std::fmt::Display for ScenarioErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioErrors {}

impl From<InputError> for ScenarioErrors {
    fn from(e: InputError) -> Self {
        ScenarioErrors(vec![e])
    }
}

/// Collects errors against one source file.
struct Checker<'a> {
    src: &'a SourceText,
    errors: Vec<InputError>,
    warnings: Vec<String>,
}

impl Checker<'_> {
    fn err(
        &mut self,
        span: Range<usize>,
        field: &str,
        problem: impl Into<String>,
        expected: impl Into<String>,
    ) {
        let e = InputError::new(problem)
            .at(self.src, span)
            .field(field)
            .expected(expected);
        self.errors.push(e);
    }

    fn size(&mut self, q: &Spanned<Quantity>, field: &str) -> Option<u64> {
        self.whole(q, field, "bytes", units::SIZE_EXPECTED)?;
        self.quantity(q, field, units::parse_size, units::SIZE_EXPECTED)
    }

    fn count(&mut self, q: &Spanned<Quantity>, field: &str) -> Option<u64> {
        self.whole(q, field, "a count", units::COUNT_EXPECTED)?;
        self.quantity(q, field, units::parse_count, units::COUNT_EXPECTED)
    }

    /// A bare fraction (`heap = 0.5`) is not a number of bytes or things: say so rather than let
    /// it round to zero and be reported as zero.
    fn whole(
        &mut self,
        q: &Spanned<Quantity>,
        field: &str,
        of: &str,
        expected: &str,
    ) -> Option<()> {
        match q.get_ref() {
            Quantity::Float(f) if f.is_finite() && f.fract() != 0.0 => {
                self.err(
                    q.span(),
                    field,
                    format!("{f} is not a whole number: {of} without a unit are whole"),
                    format!("{expected}; a fraction needs a unit, e.g. \"1.5GB\""),
                );
                None
            }
            _ => Some(()),
        }
    }

    fn quantity(
        &mut self,
        q: &Spanned<Quantity>,
        field: &str,
        parse: fn(&str) -> Result<u64, units::UnitError>,
        expected: &str,
    ) -> Option<u64> {
        let text = match q.get_ref() {
            Quantity::Int(i) => i.to_string(),
            // TOML integers are signed 64-bit: a larger literal arrives here as a float, rounded.
            Quantity::Float(f) if f.fract() == 0.0 && f.abs() >= 9.223_372_036_854_776e18 => {
                let written = self.src.text.get(q.span()).unwrap_or("").trim().to_string();
                self.err(
                    q.span(),
                    field,
                    format!(
                        "{written} is out of range (a TOML integer is at most 9223372036854775807)"
                    ),
                    expected,
                );
                return None;
            }
            Quantity::Float(f) => f.to_string(),
            Quantity::Text(s) => s.clone(),
        };
        match parse(&text) {
            Ok(v) => Some(v),
            Err(e) => {
                self.err(q.span(), field, e.problem, expected);
                None
            }
        }
    }

    fn positive(&mut self, v: &Spanned<i64>, field: &str, max: u64) -> Option<u64> {
        let n = *v.get_ref();
        if n < 1 || n as u64 > max {
            self.err(
                v.span(),
                field,
                format!("{n} is out of range"),
                format!("a whole number in 1..={max}"),
            );
            None
        } else {
            Some(n as u64)
        }
    }

    fn line(&self, span: &Range<usize>) -> usize {
        self.src.line_col(span.start).0
    }
}

/// `[client]`'s loader fields, validated (the defaults where absent).
fn client_loader(ck: &mut Checker, rc: Option<&raw::RawClient>) -> loader::Loader {
    let mut out = loader::Loader::default();
    let Some(rc) = rc else {
        return out;
    };
    let clients = rc.clients.as_ref().and_then(|n| {
        ck.positive(n, "client.clients", loader::MAX_CLIENTS)
            .map(|v| (v, n.span()))
    });
    match out.with(
        clients,
        rc.partition.as_ref().map(loader::text),
        rc.r#loop.as_ref().map(loader::text),
        loader::Scope::Client,
    ) {
        Ok(l) => out = l,
        Err((span, field, problem, expected)) => ck.err(span, field, problem, expected),
    }
    if let Some(b) = &rc.buffering {
        out.buffered = *b.get_ref();
    }
    if let Some(q) = &rc.request_time
        && let Some(us) = ck.quantity(
            q,
            "client.request_time",
            units::parse_duration_us,
            units::SHORT_DURATION_EXPECTED,
        )
    {
        if !(1..=60_000_000).contains(&us) {
            ck.err(
                q.span(),
                "client.request_time",
                format!("a request time of {}", units::format_duration_us(us)),
                "a duration from 1us to 60s",
            );
        } else {
            out.request_us = us;
        }
    }
    out
}

/// Loads and validates a scenario file (config files it names are read too).
pub fn load(path: &Path) -> Result<Scenario, ScenarioErrors> {
    let src = read_source(path, "scenario file")?;
    load_source(src)
}

/// Validates an already-read scenario.
pub fn load_source(src: SourceText) -> Result<Scenario, ScenarioErrors> {
    let raw: RawScenario = toml::from_str(&src.text).map_err(|e| toml_error(&src, &e))?;
    let mut ck = Checker {
        src: &src,
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let base_dir = src.path.parent().map(Path::to_path_buf).unwrap_or_default();

    if let Some(v) = &raw.schema_version
        && *v.get_ref() != SCHEMA_VERSION
    {
        ck.err(
            v.span(),
            "schema_version",
            format!("unsupported schema version {}", v.get_ref()),
            "1",
        );
    }
    let name = raw.name.get_ref().trim().to_string();
    if name.is_empty() {
        ck.err(
            raw.name.span(),
            "name",
            "the scenario name is empty",
            "a short title",
        );
    }
    let seed = match &raw.seed {
        Some(s) if *s.get_ref() < 0 => {
            ck.err(
                s.span(),
                "seed",
                "the seed is negative",
                "a whole number ≥ 0",
            );
            DEFAULT_SEED
        }
        Some(s) => *s.get_ref() as u64,
        None => DEFAULT_SEED,
    };

    // [cluster]
    let rc = raw.cluster.get_ref();
    let regionservers = ck
        .positive(
            &rc.regionservers,
            "cluster.regionservers",
            MAX_REGIONSERVERS,
        )
        .unwrap_or(1);
    let heap_bytes = match &rc.heap {
        Some(h) => match ck.size(h, "cluster.heap") {
            Some(0) => {
                ck.err(
                    h.span(),
                    "cluster.heap",
                    "the heap is zero",
                    "a JVM heap size such as 16GB",
                );
                DEFAULT_HEAP
            }
            Some(v) => v,
            None => DEFAULT_HEAP,
        },
        None => DEFAULT_HEAP,
    };
    let mut rate_of = |q: &Option<Spanned<Quantity>>, field: &str, default: u64| match q {
        None => default,
        Some(r) => match ck.quantity(r, field, units::parse_rate, units::RATE_EXPECTED) {
            Some(0) => {
                ck.err(
                    r.span(),
                    field,
                    "a bandwidth of zero never finishes",
                    "a positive rate such as 100MB/s",
                );
                default
            }
            Some(v) => v,
            None => default,
        },
    };
    let write_bandwidth = rc
        .write_bandwidth
        .as_ref()
        .map(|_| rate_of(&rc.write_bandwidth, "cluster.write_bandwidth", 1));
    let disk_bandwidth = rc
        .disk_bandwidth
        .as_ref()
        .map(|_| rate_of(&rc.disk_bandwidth, "cluster.disk_bandwidth", 1));
    let network = rc
        .network
        .as_ref()
        .map(|_| rate_of(&rc.network, "cluster.network", 1));
    let flush_bandwidth = rate_of(
        &rc.flush_bandwidth,
        "cluster.flush_bandwidth",
        DEFAULT_FLUSH_BANDWIDTH,
    );
    let compaction_bandwidth = rate_of(
        &rc.compaction_bandwidth,
        "cluster.compaction_bandwidth",
        DEFAULT_COMPACTION_BANDWIDTH,
    );
    let wal_replay_bandwidth = rate_of(
        &rc.wal_replay_bandwidth,
        "cluster.wal_replay_bandwidth",
        DEFAULT_WAL_REPLAY_BANDWIDTH,
    );
    let hardware = {
        use crate::hardware::{DEFAULT_PROFILE, Hardware};
        let mut h = Hardware::profile(DEFAULT_PROFILE).expect("the default profile exists");
        if let Some(name) = &rc.hardware {
            match Hardware::profile(name.get_ref().trim()) {
                Some(p) => h = p,
                None => ck.err(
                    name.span(),
                    "cluster.hardware",
                    format!("unknown hardware profile {:?}", name.get_ref()),
                    format!("one of {}", Hardware::names()),
                ),
            }
        }
        if let Some(d) = &rc.disks
            && let Some(v) = ck.positive(d, "cluster.disks", 1024)
        {
            h.disks = v as u32;
        }
        if let Some(v) = disk_bandwidth {
            h.disk_bandwidth = v;
        }
        if let Some(v) = network {
            h.network = v;
        }
        if let Some(c) = &rc.cores
            && let Some(v) = ck.positive(c, "cluster.cores", 4096)
        {
            h.cores = v as u32;
        }
        h
    };
    let client = Client {
        writers: match raw
            .client
            .as_ref()
            .and_then(|c| c.get_ref().writers.as_ref())
        {
            Some(w) => ck
                .positive(w, "client.writers", MAX_WRITERS)
                .unwrap_or(DEFAULT_WRITERS),
            None => DEFAULT_WRITERS,
        },
        scan_windows_ms: match raw
            .client
            .as_ref()
            .and_then(|c| c.get_ref().scan_windows.as_ref())
        {
            None => DEFAULT_SCAN_WINDOWS_MS.to_vec(),
            Some(list) => {
                if list.get_ref().len() > MAX_SCAN_WINDOWS {
                    ck.err(
                        list.span(),
                        "client.scan_windows",
                        format!("{} windows", list.get_ref().len()),
                        format!("at most {MAX_SCAN_WINDOWS} durations"),
                    );
                }
                let mut out = Vec::new();
                for q in list.get_ref().iter().take(MAX_SCAN_WINDOWS) {
                    if let Some(ms) = ck.quantity(
                        q,
                        "client.scan_windows",
                        units::parse_duration_ms,
                        units::DURATION_EXPECTED,
                    ) {
                        if ms == 0 {
                            ck.err(
                                q.span(),
                                "client.scan_windows",
                                "a window of 0 ms".to_string(),
                                "a duration above 0, like \"1m\" or \"1h\"",
                            );
                        } else {
                            out.push(ms);
                        }
                    }
                }
                out
            }
        },
        loader: client_loader(&mut ck, raw.client.as_ref().map(|c| c.get_ref())),
    };
    let region_transition_ms = match &rc.region_transition {
        None => DEFAULT_REGION_TRANSITION_MS,
        Some(q) => ck
            .quantity(
                q,
                "cluster.region_transition",
                units::parse_duration_ms,
                units::DURATION_EXPECTED,
            )
            .unwrap_or(DEFAULT_REGION_TRANSITION_MS),
    };
    if region_transition_ms > 3_600_000
        && let Some(q) = &rc.region_transition
    {
        ck.err(
            q.span(),
            "cluster.region_transition",
            "a region close + open longer than an hour",
            "a duration up to 1h, such as 1s",
        );
    }
    let failure_detection_ms = match &rc.failure_detection {
        None => DEFAULT_FAILURE_DETECTION_MS,
        Some(q) => match ck.quantity(
            q,
            "cluster.failure_detection",
            units::parse_duration_ms,
            units::DURATION_EXPECTED,
        ) {
            Some(v) if v > 3_600_000 => {
                ck.err(
                    q.span(),
                    "cluster.failure_detection",
                    "failure detection longer than an hour",
                    "a duration up to 1h, such as 90s (zookeeper.session.timeout)",
                );
                DEFAULT_FAILURE_DETECTION_MS
            }
            Some(v) => v,
            None => DEFAULT_FAILURE_DETECTION_MS,
        },
    };
    let variability = match &rc.variability {
        None => Variability::Default,
        Some(v) => match v.get_ref().as_str() {
            "default" => Variability::Default,
            "none" => Variability::None,
            other => {
                ck.err(
                    v.span(),
                    "cluster.variability",
                    format!("unknown variability {other:?}"),
                    VARIABILITY_EXPECTED,
                );
                Variability::Default
            }
        },
    };
    let assumptions = assumption_profiles(&mut ck, rc.assumptions.as_ref());
    let mut site = SiteConfig::with_defaults();
    let mut site_files = Vec::new();
    for f in &rc.hbase_site {
        let p = base_dir.join(f.get_ref());
        match read_source(&p, "hbase-site.xml file") {
            Ok(text) => {
                if let Err(e) = site.load_source(&text) {
                    ck.errors.push(e);
                }
            }
            Err(e) => {
                let e = InputError::new(e.problem.clone())
                    .at(&src, f.span())
                    .field("cluster.hbase_site")
                    .expected("a path to an hbase-site.xml file, relative to the scenario file");
                ck.errors.push(e);
            }
        }
        site_files.push(p);
    }

    // [hbase] inline overrides: the last site layer (a `final` property in a site file wins).
    if let Some(h) = &raw.hbase {
        for (k, v) in h.get_ref() {
            let value = match property_value(v.get_ref()) {
                Some(value) => value,
                None => {
                    ck.err(
                        v.span(),
                        &format!("hbase.\"{}\"", k.get_ref()),
                        "a property value must be a string, number or boolean",
                        "e.g. \"134217728\"",
                    );
                    continue;
                }
            };
            let origin = Origin::Scenario {
                path: src.path.clone(),
                line: ck.line(&k.span()),
            };
            site.set_at(k.get_ref(), &value, origin, Some((&src, v.span())));
        }
    }

    let mut table = table(&mut ck, raw.table.as_ref(), &base_dir);
    let workload = workload(&mut ck, raw.workload.get_ref());
    // A family's codec without a measured ratio: the codec's on the workload's data.
    if let (Some(t), Some(w)) = (&mut table, &workload) {
        for f in t.families.iter_mut().filter(|f| !f.ratio_given) {
            f.compression_ratio = f.codec.data_fraction(w.compressibility);
        }
        if w.compressibility_given && t.families.iter().all(|f| f.codec == Codec::None) {
            ck.warnings.push(
                "workload.compressibility has no effect: no family has a compression codec \
                 ([table] compression or a family's compression)"
                    .to_string(),
            );
        }
    }
    // A sample larger than the workload samples every row once: say how many keys that is.
    if let (Some(t), Some(w)) = (&mut table, &workload)
        && let Presplit::Sampled { regions, samples } = &mut t.presplit
        && w.rows < *samples
        && w.rows >= *regions
    {
        *samples = w.rows;
    }

    // [[generator]]
    if raw.generator.is_empty() {
        ck.err(
            0..0,
            "generator",
            "the scenario has no [[generator]]",
            "at least one [[generator]] with `name` and `kind`",
        );
    }
    let mut generators: Vec<GeneratorSpec> = Vec::new();
    for g in &raw.generator {
        let spec = g.get_ref();
        let gname = spec.name.get_ref();
        if gname.trim().is_empty() {
            ck.err(
                spec.name.span(),
                "generator.name",
                "the generator name is empty",
                "a short unique name",
            );
        } else if gname.chars().any(char::is_control) {
            ck.err(
                spec.name.span(),
                "generator.name",
                format!(
                    "the generator name {} contains control characters",
                    quoted_name(gname)
                ),
                "a short unique name of printable characters",
            );
        } else if let Some(first) = generators.iter().find(|o| o.name.get_ref() == gname) {
            let line = ck.line(&first.name.span());
            ck.err(
                spec.name.span(),
                "generator.name",
                format!("generator name `{gname}` is used twice (first on line {line})"),
                "a unique name per [[generator]]",
            );
        }
        if let Err(problem) = LoadPath::of(spec)
            && let Some(l) = &spec.load
        {
            ck.err(l.span(), "generator.load", problem, LOAD_EXPECTED);
        }
        match client.loader.for_design(spec) {
            Err((span, field, problem, expected)) => ck.err(span, field, problem, expected),
            Ok(l)
                if l.partition == loader::Partition::KeyGroup
                    && spec.kind.get_ref().key_group(spec).is_none() =>
            {
                let (span, field) = match &spec.partition {
                    Some(p) => (p.span(), "generator.partition"),
                    None => (spec.kind.span(), "generator.kind"),
                };
                ck.err(
                    span,
                    field,
                    format!(
                        "design `{gname}` ({}) has no key groups for `partition = \"key_group\"`",
                        spec.kind.get_ref().as_str()
                    ),
                    "a layout with key groups (salted, partitioned, a template with a prefix), \
                     or partition = \"key_range\"",
                );
            }
            Ok(_) => {}
        }
        if let Some(n) = &spec.presplit_regions
            && !(2..=MAX_PRESPLIT_REGIONS).contains(n.get_ref())
        {
            ck.err(
                n.span(),
                "generator.presplit_regions",
                format!("{} regions cannot be pre-split", n.get_ref()),
                format!("a region count in 2..={MAX_PRESPLIT_REGIONS}"),
            );
        }
        generators.push(spec.clone());
    }
    let bulk_job = bulk_job(&mut ck, raw.bulk_load.as_ref());

    // Typed settings: table attributes applied over the site keys, values checked as HBase does.
    let settings = match &table {
        Some(t) => match Settings::resolve(&site, &t.attributes) {
            Ok(s) => Some(s),
            Err(e) => {
                let e = match raw.table.as_ref() {
                    Some(rt) => place_table_attribute_error(&src, rt.get_ref(), e),
                    None => e,
                };
                ck.errors.push(e.locate(&src, 0..0));
                None
            }
        },
        None => None,
    };

    // TableDescriptorChecker.checkCompactionPolicy: HMaster refuses a FIFO table without a TTL
    // on every family or with blockingStoreFiles below 1000.
    if let (Some(s), Some(t)) = (&settings, &table)
        && s.compaction_policy == CompactionPolicyClass::Fifo
    {
        let span = raw.table.as_ref().map_or(0..0, |rt| rt.span());
        for f in t.families.iter().filter(|f| f.ttl_ms.is_none()) {
            ck.err(
                span.clone(),
                "table.ttl",
                format!(
                    "family `{}` has the default TTL (FOREVER), which FIFOCompactionPolicy does \
                     not support (HMaster refuses the table)",
                    f.name
                ),
                "a TTL on every family (`[table] ttl` or the family's `ttl`) with \
                 hbase.hstore.defaultengine.compactionpolicy.class = FIFOCompactionPolicy",
            );
        }
        if s.blocking_store_files < 1000 {
            ck.err(
                span,
                "hbase.hstore.blockingStoreFiles",
                format!(
                    "blockingStoreFiles {} is below the minimum of 1000 HMaster requires for \
                     FIFOCompactionPolicy (files are never merged, so they pile up)",
                    s.blocking_store_files
                ),
                "hbase.hstore.blockingStoreFiles >= 1000 in [hbase] or the site file",
            );
        }
    }

    // [[event]]: after the workload (row triggers) and the base settings (`set`).
    let events = events::events(
        &mut ck,
        &raw.event,
        &events::EventContext {
            regionservers,
            workload: workload.as_ref(),
            base: match (&table, &settings) {
                (Some(t), Some(_)) => Some((&site, &t.attributes)),
                _ => None,
            },
        },
    );
    // Without rate phases the writes take data / rate: a shorter `duration` cannot hold them.
    if let (Some(w), Some(d)) = (&workload, &raw.workload.get_ref().duration)
        && let Some(duration_ms) = w.duration_ms
        && !raw.event.iter().any(|e| {
            e.get_ref()
                .phase
                .as_ref()
                .is_some_and(|p| p.get_ref().rate.is_some())
        })
    {
        let write_ms = w.payload_bytes() * 1000 / u128::from(w.rate_bytes_per_s.max(1));
        if write_ms > u128::from(duration_ms) {
            ck.err(
                d.span(),
                "workload.duration",
                format!(
                    "writing the data at `rate` takes {}, longer than the duration",
                    units::format_duration_ms(write_ms.min(u128::from(u64::MAX)) as u64)
                ),
                "a duration at least data / rate, or less data, or a higher rate",
            );
        }
    }
    // Reads must happen at some point: from the start or from a `phase` event.
    if let (Some(w), Some(rr)) = (&workload, &raw.workload.get_ref().reads)
        && let Some(r) = &w.reads
        && r.gets_per_s == 0.0
        && r.scans_per_s == 0.0
        && !raw.event.iter().any(|e| {
            e.get_ref().phase.as_ref().is_some_and(|p| {
                let p = p.get_ref();
                [&p.gets_per_s, &p.scans_per_s]
                    .iter()
                    .any(|x| x.as_ref().is_some_and(|x| *x.get_ref() > 0.0))
            })
        })
    {
        ck.err(
            rr.span(),
            "workload.reads",
            "the read workload never reads: `gets_per_s` and `scans_per_s` are both 0",
            "`gets_per_s` or `scans_per_s` > 0 (here or in a later `phase` event)",
        );
    }

    let designs: Vec<&str> = generators
        .iter()
        .map(|g| g.name.get_ref().as_str())
        .collect();
    let expectations = expect::expectations(&mut ck, &raw, &designs);
    let sweep = sweep_section(&mut ck, raw.sweep.as_ref());
    let initial = raw
        .initial
        .as_ref()
        .and_then(|ri| initial(&mut ck, ri, &base_dir, regionservers, raw.table.as_ref()));

    let other_tables = tables::other_tables(
        &mut ck,
        &raw.other_table,
        table.as_ref().map_or("", |t| t.name.as_str()),
        &base_dir,
        regionservers,
    );

    let mut imported_servers: Vec<String> = initial
        .iter()
        .filter(|i| i.servers == InitialServers::AsImported)
        .flat_map(|i| i.table.servers())
        .chain(
            other_tables
                .iter()
                .filter_map(|t| t.imported.as_ref())
                .flat_map(|t| t.servers()),
        )
        .collect();
    imported_servers.sort();
    imported_servers.dedup();
    if imported_servers.len() as u64 > regionservers {
        ck.err(
            raw.cluster.get_ref().regionservers.span(),
            "cluster.regionservers",
            format!(
                "the imports name {} servers in all but [cluster] regionservers = {regionservers}",
                imported_servers.len()
            ),
            format!("regionservers >= {}", imported_servers.len()),
        );
    }

    if !ck.errors.is_empty() {
        return Err(ScenarioErrors(ck.errors));
    }
    let (Some(table), Some(workload), Some(settings)) = (table, workload, settings) else {
        return Err(ScenarioErrors(vec![
            InputError::new("invalid scenario").in_file(&src.path),
        ]));
    };
    Ok(Scenario {
        name,
        description: raw.description.map(|d| d.into_inner()),
        seed,
        cluster: Cluster {
            regionservers,
            heap_bytes,
            site_files,
            write_bandwidth,
            hardware,
            flush_bandwidth,
            compaction_bandwidth,
            region_transition_ms,
            failure_detection_ms,
            wal_replay_bandwidth,
            variability,
            assumptions,
        },
        site,
        settings,
        table,
        workload,
        client,
        bulk_job,
        generators,
        events,
        sweep,
        initial,
        other_tables,
        imported_servers,
        warnings: ck.warnings,
        expectations,
        overrides: Vec::new(),
        source: src,
    })
}

/// `[bulk_load]`: each figure checked, the defaults where absent.
fn bulk_job(ck: &mut Checker, raw: Option<&Spanned<raw::RawBulkLoad>>) -> BulkJob {
    let mut job = BulkJob::default();
    let Some(raw) = raw.map(Spanned::get_ref) else {
        return job;
    };
    if let Some(n) = &raw.slots_per_node
        && let Some(v) = ck.positive(n, "bulk_load.slots_per_node", MAX_BULK_SLOTS_PER_NODE)
    {
        job.slots_per_node = v as u32;
    }
    if let Some(q) = &raw.task_rate {
        match ck.quantity(
            q,
            "bulk_load.task_rate",
            units::parse_rate,
            units::RATE_EXPECTED,
        ) {
            Some(0) => ck.err(
                q.span(),
                "bulk_load.task_rate",
                "a task that writes nothing never finishes",
                "a positive rate such as 50MB/s",
            ),
            Some(v) => job.task_rate = v,
            None => {}
        }
    }
    if let Some(q) = &raw.startup
        && let Some(ms) = ck.quantity(
            q,
            "bulk_load.startup",
            units::parse_duration_ms,
            units::DURATION_EXPECTED,
        )
    {
        if ms > MAX_DURATION_MS {
            ck.err(
                q.span(),
                "bulk_load.startup",
                "the job would start more than 100 years after it is submitted",
                "a duration such as 70s or 5m",
            );
        } else {
            job.startup_ms = ms;
        }
    }
    job
}

/// `[cluster] assumptions`: known profile names, each once; `typical` is added first when the
/// list leaves it out, as the scenario's own settings are what the report shows.
fn assumption_profiles(
    ck: &mut Checker,
    raw: Option<&Spanned<Vec<Spanned<String>>>>,
) -> Vec<String> {
    use crate::experiment::profiles;
    let mut out: Vec<String> = Vec::new();
    for name in raw.map_or(&[][..], |r| r.get_ref().as_slice()) {
        let n = name.get_ref().trim();
        if profiles::profile(n).is_none() {
            ck.err(
                name.span(),
                "cluster.assumptions",
                format!("unknown assumption profile {:?}", name.get_ref()),
                format!("a list of {}", profiles::names()),
            );
        } else if out.iter().any(|o| o == n) {
            ck.err(
                name.span(),
                "cluster.assumptions",
                format!("assumption profile {n:?} is listed twice"),
                "each profile once",
            );
        } else {
            out.push(n.to_string());
        }
    }
    if !out.iter().any(|o| o == profiles::TYPICAL) {
        out.insert(0, profiles::TYPICAL.to_string());
    }
    out
}

/// `[sweep] vary`, in file order (a TOML table has none of its own): each key needs at least
/// one value, and a value may not repeat (two identical grid points).
fn sweep_section(ck: &mut Checker<'_>, raw: Option<&Spanned<raw::RawSweep>>) -> Vec<SweepVary> {
    let Some(raw) = raw else {
        return Vec::new();
    };
    let vary = raw.get_ref().vary.get_ref();
    if vary.is_empty() {
        ck.err(
            raw.get_ref().vary.span(),
            "sweep.vary",
            "the sweep varies nothing",
            "`vary = { KEY = [V1, V2, …] }` with at least one key",
        );
    }
    let mut out: Vec<SweepVary> = Vec::with_capacity(vary.len());
    for (k, vs) in vary {
        let field = format!("sweep.vary.\"{}\"", k.get_ref());
        if vs.get_ref().is_empty() {
            ck.err(
                vs.span(),
                &field,
                "the key has no values",
                "a list of one or more values",
            );
        }
        let mut values: Vec<(toml::Value, Range<usize>)> = Vec::with_capacity(vs.get_ref().len());
        for v in vs.get_ref() {
            if values.iter().any(|(seen, _)| seen == v.get_ref()) {
                ck.err(
                    v.span(),
                    &field,
                    "the value is listed twice (two identical grid points)",
                    "distinct values",
                );
            }
            values.push((v.get_ref().clone(), v.span()));
        }
        out.push(SweepVary {
            key: k.get_ref().clone(),
            key_span: k.span(),
            values,
        });
    }
    out.sort_by_key(|v| v.key_span.start);
    out
}

/// A settings error about a table attribute (`MAX_FILESIZE`, `MEMSTORE_FLUSHSIZE`,
/// `SPLIT_POLICY`) placed at the attribute's value in `[table]`, named by its dotted field, so
/// the snippet shows the line. Other errors pass through.
fn place_table_attribute_error(src: &SourceText, rt: &raw::RawTable, e: InputError) -> InputError {
    let placed = match e.field.as_deref() {
        Some("MAX_FILESIZE") => rt
            .max_filesize
            .as_ref()
            .map(|v| (v.span(), "table.max_filesize")),
        Some("MEMSTORE_FLUSHSIZE") => rt
            .memstore_flushsize
            .as_ref()
            .map(|v| (v.span(), "table.memstore_flushsize")),
        Some("SPLIT_POLICY") => rt
            .split_policy
            .as_ref()
            .map(|v| (v.span(), "table.split_policy")),
        _ => None,
    };
    let Some((span, field)) = placed else {
        return e;
    };
    // The position is now in the snippet; drop the "(table attribute at FILE:LINE)" suffix.
    let problem = match e.problem.rfind(" (table attribute at ") {
        Some(i) => e.problem[..i].to_string(),
        None => e.problem.clone(),
    };
    let mut placed = InputError::new(problem).at(src, span).field(field);
    if let Some(x) = &e.expected {
        placed = placed.expected(x.clone());
    }
    placed
}

/// The TOML reader's nesting limit: at most this many levels of arrays and inline tables, and
/// at most this many parts in a dotted key (toml 1.x, `LIMIT` of its parser).
pub const TOML_NESTING_LIMIT: usize = 80;

fn toml_error(src: &SourceText, e: &toml::de::Error) -> ScenarioErrors {
    let message = e.message().trim().to_string();
    if src.text.trim_start_matches('\u{feff}').trim().is_empty() {
        return ScenarioErrors(vec![
            InputError::new("the scenario file is empty")
                .at(src, 0..0)
                .expected(
                    "a scenario: `name = …`, a [cluster] and a [workload] table and at least one \
                     [[generator]] (docs/SCENARIO.md)",
                ),
        ]);
    }
    // TOML allows no raw control character but tab and line ends; the reader's own message for
    // one ("string values must be quoted") does not say what it saw.
    if let Some(at) = first_control_character(&src.text)
        && e.span().is_none_or(|s| at <= s.end)
    {
        let c = src.text[at..].chars().next().unwrap_or('\0');
        return ScenarioErrors(vec![
            InputError::new(format!(
                "a raw control character (U+{:04X}) is not allowed in TOML",
                c as u32
            ))
            .at(src, at..at + c.len_utf8())
            .expected(format!(
                "text without control characters (inside a quoted string write \\u{:04X})",
                c as u32
            )),
        ]);
    }
    // A dotted key with too many parts comes without a position: find it.
    if message == "recursion limit" {
        return ScenarioErrors(vec![too_long_dotted_key(src)]);
    }
    if message.starts_with("cannot recurse further") {
        let span = e.span().unwrap_or(0..0);
        let mut err = InputError::new(format!(
            "arrays and inline tables are nested too deeply here (more than {TOML_NESTING_LIMIT} levels)"
        ))
        .at(src, span.clone())
        .expected(format!(
            "at most {TOML_NESTING_LIMIT} levels of nested arrays and inline tables (the TOML reader's limit)"
        ));
        if let Some(f) = field_at(&src.text, span.start) {
            err = err.field(f);
        }
        return ScenarioErrors(vec![err]);
    }
    let mut span = e.span().unwrap_or(0..0);
    // serde names the expectation inside the message already ("unknown field `x`, expected one of ...").
    let (problem, expected) = match message.split_once(", expected ") {
        Some((p, x)) => (p.to_string(), Some(plain_expectation(x))),
        None => (message, None),
    };
    let mut field = field_at(&src.text, span.start);
    let mut expected = expected;
    // "missing field `x`": serde points at the enclosing table. Name the missing field by its
    // dotted path and point at the table's header (or line 1 for the top level).
    if let Some(missing) = problem
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        // The top level comes with an empty span; a table with its header's.
        let parent = if span.is_empty() {
            None
        } else {
            enclosing_table(&src.text, span.start)
        };
        let line_end = src.text[span.start.min(src.text.len())..]
            .find('\n')
            .map_or(src.text.len(), |i| span.start + i);
        span = match &parent {
            None => 0..0,
            Some(_) => span.start..line_end.max(span.start),
        };
        field = Some(match &parent {
            None => missing.to_string(),
            Some(p) => format!("{p}.{missing}"),
        });
        expected = Some(match &parent {
            None if matches!(missing, "cluster" | "workload") => {
                format!("a [{missing}] table in the scenario")
            }
            None => format!("`{missing}` at the top level of the scenario"),
            Some(p) => format!("`{missing} = …` in [{p}]"),
        });
    }
    let problem = if problem.contains("did not match any variant of untagged enum Quantity") {
        expected = Some(
            "a number, or a quoted size, count, rate or duration with units, e.g. 1000, \"4TB\", \"100M\""
                .to_string(),
        );
        "invalid value: neither a number nor a string".to_string()
    } else {
        problem
    };
    // A quoted number where a number belongs: say how to write it.
    if problem.starts_with("invalid type: string")
        && let Some(x) = &expected
        && (x == "an integer" || x == "a number")
    {
        expected = Some(format!("{x}, written without quotes"));
    }
    if problem == "integer number overflowed" && expected.is_none() {
        expected =
            Some("an integer of at most 9223372036854775807 (TOML integers are 64-bit)".into());
    }
    if problem == "floating-point number overflowed" && expected.is_none() {
        expected = Some("a number of magnitude below 1.8e308 (a 64-bit float)".into());
    }
    let mut err = InputError::new(problem).at(src, span);
    if let Some(f) = field {
        err = err.field(f);
    }
    if let Some(x) = expected {
        err = err.expected(x);
    }
    ScenarioErrors(vec![err])
}

/// Byte offset of the first control character TOML forbids (all but tab, LF and CR before LF).
fn first_control_character(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    text.char_indices()
        .find(|&(i, c)| {
            c.is_control()
                && c != '\t'
                && c != '\n'
                && !(c == '\r' && bytes.get(i + 1) == Some(&b'\n'))
        })
        .map(|(i, _)| i)
}

/// The error for a dotted key of more than [`TOML_NESTING_LIMIT`] parts, placed at the first
/// key (or table header) that has that many dots outside quotes; the start of the file if none
/// is found (the reader and this scan disagree).
fn too_long_dotted_key(src: &SourceText) -> InputError {
    let text = &src.text;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_start();
        let lead = line.len() - body.len();
        let (key, key_at) = match body.strip_prefix("[[").or_else(|| body.strip_prefix('[')) {
            Some(rest) => (rest, lead + body.len() - rest.len()),
            None => (body, lead),
        };
        let mut quote = None;
        let mut parts = 1usize;
        let mut end = key.len();
        for (i, c) in key.char_indices() {
            match (quote, c) {
                (Some(q), _) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '.') => parts += 1,
                (None, '=' | ']' | '#' | '\n') => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        if parts > TOML_NESTING_LIMIT {
            let start = offset + key_at;
            let span = start..start + key[..end].trim_end().len();
            return InputError::new(format!(
                "this dotted key has {} parts: it nests tables too deeply",
                units::thousands(parts as u128)
            ))
            .at(src, span)
            .expected(format!(
                "a key of at most {TOML_NESTING_LIMIT} dotted parts (the TOML reader's nesting limit)"
            ));
        }
        offset += line.len();
    }
    InputError::new(format!(
        "a dotted key nests tables too deeply (more than {TOML_NESTING_LIMIT} parts)"
    ))
    .at(src, 0..0)
    .expected(format!(
        "keys of at most {TOML_NESTING_LIMIT} dotted parts (the TOML reader's nesting limit)"
    ))
}

/// serde's expectation in words people use (`i64` ⇒ "an integer").
fn plain_expectation(x: &str) -> String {
    match x.trim() {
        "i64" | "u64" | "i32" | "u32" | "an integer" => "an integer".to_string(),
        "f64" | "f32" | "a float" => "a number".to_string(),
        other => other.to_string(),
    }
}

/// The dotted name of the table a byte offset is in: the `[header]` / `[[header]]` on the line
/// at `offset`, or the nearest one above it; `None` at the top level.
fn enclosing_table(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    text[..line_end]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string())
}

/// The dotted name of the TOML key on the line holding `offset` (`[workload]` + `rate = ` ⇒
/// `workload.rate`), for errors where the TOML parser knows a position but not a field.
fn field_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = text[line_start..line_end].trim();
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string());
    let header = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
    if line.starts_with('[') {
        return Some(
            line.trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string(),
        );
    }
    match (header, key) {
        (Some(h), Some(k)) => Some(format!("{h}.{k}")),
        (None, Some(k)) => Some(k),
        (Some(h), None) => Some(h),
        (None, None) => None,
    }
}

fn table(
    ck: &mut Checker<'_>,
    raw: Option<&Spanned<raw::RawTable>>,
    base_dir: &Path,
) -> Option<Table> {
    let path = ck.src.path.clone();
    let Some(raw) = raw else {
        return Some(Table {
            name: "usertable".into(),
            families: vec![default_family("f")],
            attributes: TableAttributes::default(),
            presplit: Presplit::None,
            presplit_span: 0..0,
            row_spans: [None, None],
        });
    };
    let rt = raw.get_ref();
    let mut ok = true;
    let name = rt
        .name
        .as_ref()
        .map_or_else(|| "usertable".to_string(), |n| n.get_ref().clone());
    if let Some(n) = &rt.name
        && !valid_table_name(n.get_ref())
    {
        ck.err(
            n.span(),
            "table.name",
            format!(
                "{} is not a valid HBase table name",
                quoted_name(n.get_ref())
            ),
            TABLE_NAME_EXPECTED,
        );
        ok = false;
    }
    // `[table] ttl`: the TTL of every family that does not set its own.
    let table_ttl = match &rt.ttl {
        Some(t) => {
            let v = ttl_ms(ck, t, "table.ttl");
            ok &= v.is_some();
            v
        }
        None => None,
    };
    // `[table] versions`: the VERSIONS of every family that does not set its own.
    let table_versions = match &rt.versions {
        Some(v) => {
            let n = max_versions(ck, v, "table.versions");
            ok &= n.is_some();
            n.unwrap_or(1)
        }
        None => 1,
    };
    // `[table] compression`: the COMPRESSION of every family that does not set its own.
    let table_codec = match &rt.compression {
        Some(c) => codec_field(ck, c, "table.compression").unwrap_or_else(|| {
            ok = false;
            Codec::None
        }),
        None => Codec::None,
    };
    let mut families = Vec::new();
    match &rt.families {
        None => families.push(Family {
            ttl_ms: table_ttl,
            max_versions: table_versions,
            codec: table_codec,
            ..default_family("f")
        }),
        Some(fs) => {
            if fs.get_ref().is_empty() {
                ck.err(
                    fs.span(),
                    "table.families",
                    "a table needs at least one column family",
                    "e.g. [{ name = \"f\" }]",
                );
                ok = false;
            }
            for f in fs.get_ref() {
                let rf = f.get_ref();
                let fname = rf.name.get_ref();
                if let Some(problem) = family_name_problem(fname) {
                    ck.err(
                        rf.name.span(),
                        "table.families.name",
                        problem,
                        FAMILY_NAME_EXPECTED,
                    );
                    ok = false;
                } else if families.iter().any(|x: &Family| x.name == *fname) {
                    ck.err(
                        rf.name.span(),
                        "table.families.name",
                        format!("family `{fname}` is listed twice"),
                        "unique family names",
                    );
                    ok = false;
                }
                let mut fam = default_family(fname);
                fam.ttl_ms = table_ttl;
                fam.max_versions = table_versions;
                fam.codec = match &rf.compression {
                    Some(c) => {
                        codec_field(ck, c, "table.families.compression").unwrap_or_else(|| {
                            ok = false;
                            Codec::None
                        })
                    }
                    None => table_codec,
                };
                if let Some(v) = &rf.versions {
                    match max_versions(ck, v, "table.families.versions") {
                        Some(n) => fam.max_versions = n,
                        None => ok = false,
                    }
                }
                if let Some(t) = &rf.ttl {
                    match ttl_ms(ck, t, "table.families.ttl") {
                        Some(v) => fam.ttl_ms = Some(v),
                        None => ok = false,
                    }
                }
                if let Some(b) = &rf.block_size {
                    match ck.size(b, "table.families.block_size") {
                        Some(v) if (1024..=16 << 20).contains(&v) => fam.block_size = v,
                        Some(v) => {
                            ck.err(
                                b.span(),
                                "table.families.block_size",
                                format!("block size {v} is outside HBase's range"),
                                "1KB..=16MB (ColumnFamilyDescriptorBuilder)",
                            );
                            ok = false;
                        }
                        None => ok = false,
                    }
                }
                if let Some(r) = &rf.compression_ratio {
                    let v = *r.get_ref();
                    if !(v > 0.0 && v <= 1.0) {
                        ck.err(
                            r.span(),
                            "table.families.compression_ratio",
                            format!("{v} is not a compression ratio"),
                            "on-disk/raw bytes of data blocks in (0, 1], as measured on your data (1.0 without compression)",
                        );
                        ok = false;
                    } else {
                        fam.compression_ratio = v;
                        fam.ratio_given = true;
                    }
                }
                families.push(fam);
            }
        }
    }

    let line_of = |ck: &Checker<'_>, span: &Range<usize>| ck.line(span);
    let mut attributes = TableAttributes::default();
    if let Some(m) = &rt.max_filesize
        && let Some(v) = ck.size(m, "table.max_filesize")
    {
        let origin = Origin::TableAttribute {
            attribute: "MAX_FILESIZE".into(),
            path: path.clone(),
            line: line_of(ck, &m.span()),
        };
        attributes.max_filesize = Some(Attr { value: v, origin });
    }
    if let Some(m) = &rt.memstore_flushsize
        && let Some(v) = ck.size(m, "table.memstore_flushsize")
    {
        let origin = Origin::TableAttribute {
            attribute: "MEMSTORE_FLUSHSIZE".into(),
            path: path.clone(),
            line: line_of(ck, &m.span()),
        };
        attributes.memstore_flushsize = Some(Attr { value: v, origin });
    }
    if let Some(p) = &rt.split_policy {
        let origin = Origin::TableAttribute {
            attribute: "SPLIT_POLICY".into(),
            path: path.clone(),
            line: line_of(ck, &p.span()),
        };
        attributes.split_policy = Some(Attr {
            value: p.get_ref().clone(),
            origin,
        });
    }
    if let Some(p) = &rt.prefix_length {
        if *p.get_ref() < 1 {
            ck.err(
                p.span(),
                "table.prefix_length",
                format!("{} is not a prefix length", p.get_ref()),
                "a whole number ≥ 1",
            );
            ok = false;
        } else {
            let origin = Origin::TableAttribute {
                attribute: "KeyPrefixRegionSplitPolicy.prefix_length".into(),
                path: path.clone(),
                line: line_of(ck, &p.span()),
            };
            attributes.key_prefix_length = Some(Attr {
                value: *p.get_ref() as u64,
                origin,
            });
        }
    }
    if let Some(d) = &rt.prefix_delimiter {
        let origin = Origin::TableAttribute {
            attribute: "DelimitedKeyPrefixRegionSplitPolicy.delimiter".into(),
            path: path.clone(),
            line: line_of(ck, &d.span()),
        };
        attributes.prefix_delimiter = Some(Attr {
            value: d.get_ref().clone(),
            origin,
        });
    }
    // The table's split restriction (RegionSplitRestriction), as table attributes.
    if let Some(t) = &rt.split_restriction {
        if SplitRestriction::TYPES.contains(&t.get_ref().as_str()) {
            attributes.split_restriction_type = Some(Attr {
                value: t.get_ref().clone(),
                origin: Origin::TableAttribute {
                    attribute: SPLIT_RESTRICTION_TYPE_KEY.into(),
                    path: path.clone(),
                    line: line_of(ck, &t.span()),
                },
            });
        } else {
            ck.err(
                t.span(),
                "table.split_restriction",
                format!("`{}` is not a split restriction type", t.get_ref()),
                "None, KeyPrefix or DelimitedKeyPrefix (as HBase spells them)",
            );
            ok = false;
        }
    }
    if let Some(p) = &rt.split_restriction_prefix_length {
        let v = *p.get_ref();
        if (1..=i64::from(i32::MAX)).contains(&v) {
            attributes.split_restriction_prefix_length = Some(Attr {
                value: v as u64,
                origin: Origin::TableAttribute {
                    attribute: SPLIT_RESTRICTION_PREFIX_LENGTH_KEY.into(),
                    path: path.clone(),
                    line: line_of(ck, &p.span()),
                },
            });
        } else {
            ck.err(
                p.span(),
                "table.split_restriction_prefix_length",
                format!("{v} is not a prefix length"),
                "a whole number from 1 to 2147483647",
            );
            ok = false;
        }
    }
    if let Some(d) = &rt.split_restriction_delimiter {
        if d.get_ref().is_empty() {
            ck.err(
                d.span(),
                "table.split_restriction_delimiter",
                "the delimiter is empty".to_string(),
                "a non-empty string, e.g. \"|\"",
            );
            ok = false;
        } else {
            attributes.split_restriction_delimiter = Some(Attr {
                value: d.get_ref().clone(),
                origin: Origin::TableAttribute {
                    attribute: SPLIT_RESTRICTION_DELIMITER_KEY.into(),
                    path: path.clone(),
                    line: line_of(ck, &d.span()),
                },
            });
        }
    }
    if let Some(n) = &rt.normalization_enabled {
        let origin = Origin::TableAttribute {
            attribute: "NORMALIZATION_ENABLED".into(),
            path: path.clone(),
            line: line_of(ck, &n.span()),
        };
        attributes.normalization_enabled = Some(Attr {
            value: *n.get_ref(),
            origin,
        });
    }
    // NORMALIZER_TARGET_REGION_SIZE_MB / _COUNT: HBase ignores values ≤ 0 (unset).
    for (raw, attr, name, slot) in [
        (
            &rt.normalizer_target_region_size_mb,
            "NORMALIZER_TARGET_REGION_SIZE_MB",
            "table.normalizer_target_region_size_mb",
            &mut attributes.normalizer_target_region_size_mb,
        ),
        (
            &rt.normalizer_target_region_count,
            "NORMALIZER_TARGET_REGION_COUNT",
            "table.normalizer_target_region_count",
            &mut attributes.normalizer_target_region_count,
        ),
    ] {
        if let Some(v) = raw {
            let value = *v.get_ref();
            if value < 0 {
                ck.err(
                    v.span(),
                    name,
                    format!("{value} is negative"),
                    "a whole number ≥ 0 (0 = unset)",
                );
                continue;
            }
            if value > 0 {
                *slot = Some(Attr {
                    value: value as u64,
                    origin: Origin::TableAttribute {
                        attribute: attr.into(),
                        path: path.clone(),
                        line: line_of(ck, &v.span()),
                    },
                });
            }
        }
    }

    // Normalizer keys in the table descriptor (SimpleRegionNormalizer reads them per table).
    for (raw, key, slot) in [
        (
            &rt.normalizer_split_enabled,
            "hbase.normalizer.split.enabled",
            &mut attributes.normalizer_split_enabled,
        ),
        (
            &rt.normalizer_merge_enabled,
            "hbase.normalizer.merge.enabled",
            &mut attributes.normalizer_merge_enabled,
        ),
    ] {
        if let Some(v) = raw {
            *slot = Some(Attr {
                value: *v.get_ref(),
                origin: Origin::TableAttribute {
                    attribute: key.into(),
                    path: path.clone(),
                    line: line_of(ck, &v.span()),
                },
            });
        }
    }
    // Integer.parseInt for the count and the age, Long.parseLong for the size.
    let int_range = i64::from(i32::MIN)..=i64::from(i32::MAX);
    for (raw, key, name, range, slot) in [
        (
            &rt.normalizer_merge_min_region_count,
            "hbase.normalizer.merge.min.region.count",
            "table.normalizer_merge_min_region_count",
            int_range.clone(),
            &mut attributes.normalizer_merge_min_region_count,
        ),
        (
            &rt.normalizer_merge_min_region_age_days,
            "hbase.normalizer.merge.min_region_age.days",
            "table.normalizer_merge_min_region_age_days",
            int_range,
            &mut attributes.normalizer_merge_min_region_age_days,
        ),
        (
            &rt.normalizer_merge_min_region_size_mb,
            "hbase.normalizer.merge.min_region_size.mb",
            "table.normalizer_merge_min_region_size_mb",
            i64::MIN..=i64::MAX,
            &mut attributes.normalizer_merge_min_region_size_mb,
        ),
    ] {
        if let Some(v) = raw {
            let value = *v.get_ref();
            if !range.contains(&value) {
                ck.err(
                    v.span(),
                    name,
                    format!("{value} does not fit a Java int"),
                    "a whole number from -2147483648 to 2147483647",
                );
                ok = false;
                continue;
            }
            *slot = Some(Attr {
                value,
                origin: Origin::TableAttribute {
                    attribute: key.into(),
                    path: path.clone(),
                    line: line_of(ck, &v.span()),
                },
            });
        }
    }

    let presplit = match &rt.presplit {
        None => Some(Presplit::None),
        Some(p) => presplit(ck, p, base_dir),
    };
    if !ok {
        return None;
    }
    let presplit_span = rt.presplit.as_ref().map_or(raw.span(), |p| p.span());
    let row_spans = rt.presplit.as_ref().map_or([None, None], |p| {
        let p = p.get_ref();
        [
            p.first_row.as_ref().map(|r| r.span()),
            p.last_row.as_ref().map(|r| r.span()),
        ]
    });
    Some(Table {
        name,
        families,
        attributes,
        presplit: presplit?,
        presplit_span,
        row_spans,
    })
}

/// `[initial]`: reads the import now, so `check` refuses a bad one with the import file's place.
fn initial(
    ck: &mut Checker,
    ri: &Spanned<RawInitial>,
    base_dir: &std::path::Path,
    regionservers: u64,
    table: Option<&Spanned<RawTable>>,
) -> Option<Initial> {
    let r = ri.get_ref();
    if let Some(p) = table.and_then(|t| t.get_ref().presplit.as_ref()) {
        ck.err(
            p.span(),
            "table.presplit",
            "[table.presplit] and [initial] both say where the regions are",
            "one of them: [initial] starts from the imported regions",
        );
        return None;
    }
    let format = import_format(ck, &r.format, "initial.format")?;
    let servers = match r.servers.as_ref().map(|s| (s.get_ref().as_str(), s.span())) {
        None | Some(("as-imported", _)) => InitialServers::AsImported,
        Some(("rebalance", _)) => InitialServers::Rebalance,
        Some((other, span)) => {
            ck.err(
                span,
                "initial.servers",
                format!("unknown placement `{other}`"),
                "\"as-imported\" (each region on its imported server) or \"rebalance\" \
                 (round-robin over [cluster] regionservers)",
            );
            return None;
        }
    };
    let (path, t) = load_import(ck, r, format, base_dir, "initial")?;
    let n = t.servers().len() as u64;
    if servers == InitialServers::AsImported && regionservers < n {
        ck.err(
            ri.span(),
            "cluster.regionservers",
            format!(
                "the imported table is on {n} servers but [cluster] regionservers = {regionservers}"
            ),
            format!(
                "regionservers >= {n} (extra servers start empty), or `servers = \"rebalance\"` \
                 in [initial]"
            ),
        );
        return None;
    }
    ck.warnings
        .extend(t.warnings.iter().map(|w| format!("[initial] {w}")));
    Some(Initial {
        path,
        table: std::sync::Arc::new(t),
        servers,
    })
}

/// An import's `format` (`Some(None)`: detect it); `None` once an unknown one is reported.
fn import_format(
    ck: &mut Checker,
    format: &Option<Spanned<String>>,
    field: &str,
) -> Option<Option<crate::import::Format>> {
    let Some(f) = format else {
        return Some(None);
    };
    match crate::import::Format::parse(f.get_ref()) {
        Some(f) => Some(Some(f)),
        None => {
            ck.err(
                f.span(),
                field,
                format!("unknown import format `{}`", f.get_ref()),
                "\"list_regions\", \"jmx\" or \"csv\" (or leave it out to detect it)",
            );
            None
        }
    }
}

/// Reads an import an `[initial]`-shaped table names (`field`: where it sits, for errors).
fn load_import(
    ck: &mut Checker,
    r: &RawInitial,
    format: Option<crate::import::Format>,
    base_dir: &std::path::Path,
    field: &str,
) -> Option<(std::path::PathBuf, crate::import::InitialTable)> {
    let path = base_dir.join(r.file.get_ref());
    let keys = r.keys.as_ref().map(|k| base_dir.join(k.get_ref()));
    let loaded = crate::import::load(
        &path,
        format,
        r.table.as_ref().map(|t| t.get_ref().as_str()),
        keys.as_deref(),
    );
    match loaded {
        Ok(t) => Some((path, t)),
        Err(e) => {
            // A problem inside the file keeps its own place; one with the file as a whole
            // (unreadable, no region, wrong table) points at the scenario's `file` field.
            let e = if e.line.is_some() {
                e
            } else {
                let problem = format!("import `{}`: {}", path.display(), e.problem);
                e.reword(problem)
                    .field_if_unset(format!("{field}.file"))
                    .at(ck.src, r.file.span())
            };
            ck.errors.push(e);
            None
        }
    }
}

/// A `COMPRESSION` name, or an error naming the field.
fn codec_field(ck: &mut Checker<'_>, c: &Spanned<String>, field: &str) -> Option<Codec> {
    let codec = Codec::parse(c.get_ref());
    if codec.is_none() {
        ck.err(
            c.span(),
            field,
            if c.get_ref().trim().eq_ignore_ascii_case("lzo") {
                "LZO (a GPL codec HBase does not ship) is not modelled".to_string()
            } else {
                format!("`{}` is not a compression codec modelled here", c.get_ref())
            },
            crate::codec::NAMES,
        );
    }
    codec
}

fn default_family(name: &str) -> Family {
    Family {
        name: name.to_string(),
        block_size: 65_536,
        compression_ratio: 1.0,
        codec: Codec::None,
        ratio_given: false,
        ttl_ms: None,
        max_versions: 1,
    }
}

/// A family's `VERSIONS`: HBase refuses fewer than 1 (`ColumnFamilyDescriptorBuilder`
/// "Maximum versions must be positive"); an `int`.
fn max_versions(ck: &mut Checker<'_>, v: &Spanned<i64>, field: &str) -> Option<u32> {
    ck.positive(v, field, i32::MAX as u64).map(|n| n as u32)
}

/// HBase's TTL bound: `Integer.MAX_VALUE` seconds (FOREVER).
const TTL_MAX_S: u64 = i32::MAX as u64;

/// A TTL: whole seconds as HBase's `TTL` attribute takes it, or a duration ("30d"); at least
/// 1 s and below FOREVER (`Integer.MAX_VALUE` s, which means no TTL: leave the field out).
fn ttl_ms(ck: &mut Checker<'_>, q: &Spanned<Quantity>, field: &str) -> Option<u64> {
    let expected = "seconds (HBase's TTL, e.g. 2592000) or a duration such as \"30d\", \
                    1 s ..< 2147483647 s";
    let ms = match q.get_ref() {
        Quantity::Int(i) if *i >= 0 => (*i as u64).saturating_mul(1000),
        Quantity::Text(_) => ck.quantity(q, field, units::parse_duration_ms, expected)?,
        _ => {
            ck.err(q.span(), field, "not a TTL", expected);
            return None;
        }
    };
    if !(1000..TTL_MAX_S * 1000).contains(&ms) {
        ck.err(
            q.span(),
            field,
            format!("{ms} ms is out of range"),
            expected,
        );
        return None;
    }
    Some(ms)
}

/// What a table name may look like (for errors about [`valid_table_name`]).
pub const TABLE_NAME_EXPECTED: &str =
    "letters, digits, `_`, `-` and `.` (optionally `namespace:`), not starting with `.` or `-`";
/// What a column family name may look like (for errors from [`family_name_problem`]).
pub const FAMILY_NAME_EXPECTED: &str = "1..=127 bytes, no control characters, `:`, `\\` or `/`, \
     not starting with `.`, not `recovered.edits` (ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName)";

/// A name for messages: in backquotes, with control characters escaped so a newline or an ANSI
/// escape in the input cannot garble the terminal.
pub fn quoted_name(name: &str) -> String {
    let mut out = String::from("`");
    for c in name.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

/// Why `name` is not a valid column family name (HBase's `ColumnFamilyDescriptorBuilder.
/// isLegalColumnFamilyName`, plus our 127-byte limit), or `None` if it is valid. Shared by the
/// scenario loader and `split-keys --shell`.
pub fn family_name_problem(name: &str) -> Option<String> {
    let shown = quoted_name(name);
    if name.is_empty() {
        Some("the column family name is empty".to_string())
    } else if name.len() > 127 {
        Some(format!("{shown} is longer than 127 bytes"))
    } else if name.starts_with('.') {
        Some(format!("{shown} starts with `.`"))
    } else if let Some(c) = name
        .chars()
        .find(|&c| c.is_control() || matches!(c, ':' | '\\' | '/'))
    {
        Some(format!(
            "{shown} contains {}, which HBase does not allow in a column family name",
            if c.is_control() {
                format!("the control character {:?}", c)
            } else {
                format!("`{c}`")
            }
        ))
    } else if name == "recovered.edits" {
        Some(format!("{shown} is reserved by HBase"))
    } else {
        None
    }
}

/// HBase's `TableName.isLegalTableQualifierName` rules, with an optional namespace. Shared by the
/// scenario loader and `split-keys --shell`.
pub fn valid_table_name(name: &str) -> bool {
    let (ns, q) = name.split_once(':').unwrap_or(("default", name));
    let ok_part = |s: &str, allow_dot: bool| {
        !s.is_empty()
            && !s.starts_with('.')
            && !s.starts_with('-')
            && s.bytes().all(|b| {
                b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || (allow_dot && b == b'.')
            })
    };
    ok_part(ns, false) && ok_part(q, true)
}

fn presplit(
    ck: &mut Checker<'_>,
    p: &Spanned<raw::RawPresplit>,
    base_dir: &Path,
) -> Option<Presplit> {
    use crate::presplit::Algorithm as A;
    let rp = p.get_ref();
    let alg = *rp.algorithm.get_ref();
    let alg_name = |a: PresplitAlgorithm| format!("{a:?}").to_lowercase();
    // Options that only some algorithms read: anything else is a mistake worth pointing at.
    let reject =
        |ck: &mut Checker<'_>, present: Option<Range<usize>>, field: &str, allowed: &str| {
            if let Some(span) = present {
                ck.err(
                    span,
                    &format!("table.presplit.{field}"),
                    format!(
                        "`{field}` does not apply to algorithm \"{}\"",
                        alg_name(alg)
                    ),
                    format!("`{field}` only with {allowed}"),
                );
            }
        };
    let uses_regions = !matches!(
        alg,
        PresplitAlgorithm::None | PresplitAlgorithm::Keys | PresplitAlgorithm::File
    );
    if !uses_regions {
        reject(
            ck,
            rp.regions.as_ref().map(|r| r.span()),
            "regions",
            "hex, decimal, uniform, md5-legacy, partition, sampled",
        );
    }
    if alg != PresplitAlgorithm::Sampled {
        reject(
            ck,
            rp.samples.as_ref().map(|r| r.span()),
            "samples",
            "sampled",
        );
    }
    if alg != PresplitAlgorithm::Keys {
        reject(ck, rp.keys.as_ref().map(|r| r.span()), "keys", "keys");
    }
    if alg != PresplitAlgorithm::File {
        reject(ck, rp.file.as_ref().map(|r| r.span()), "file", "file");
    }
    if !matches!(
        alg,
        PresplitAlgorithm::Hex | PresplitAlgorithm::Decimal | PresplitAlgorithm::Uniform
    ) {
        reject(
            ck,
            rp.first_row.as_ref().map(|r| r.span()),
            "first_row",
            "hex, decimal (digits) or uniform (toStringBinary notation)",
        );
        reject(
            ck,
            rp.last_row.as_ref().map(|r| r.span()),
            "last_row",
            "hex, decimal (digits) or uniform (toStringBinary notation)",
        );
    }
    let regions = if uses_regions {
        match &rp.regions {
            None => {
                ck.err(
                    p.span(),
                    "table.presplit.regions",
                    format!("algorithm \"{}\" needs a region count", alg_name(alg)),
                    "`regions = N` with N ≥ 2",
                );
                return None;
            }
            Some(r) => {
                let n = *r.get_ref();
                if !(2..=MAX_PRESPLIT_REGIONS as i64).contains(&n) {
                    ck.err(
                        r.span(),
                        "table.presplit.regions",
                        format!("{n} regions cannot be pre-split"),
                        format!("a region count in 2..={MAX_PRESPLIT_REGIONS} (HBase needs at least 2 to split)"),
                    );
                    return None;
                }
                n as u64
            }
        }
    } else {
        0
    };
    let first_row = rp.first_row.as_ref().map(|s| s.get_ref().clone());
    let last_row = rp.last_row.as_ref().map(|s| s.get_ref().clone());
    let algorithm = |a| {
        Some(Presplit::Algorithm {
            algorithm: a,
            regions,
            first_row: first_row.clone(),
            last_row: last_row.clone(),
        })
    };
    match alg {
        PresplitAlgorithm::None => Some(Presplit::None),
        PresplitAlgorithm::Hex => algorithm(A::Hex),
        PresplitAlgorithm::Decimal => algorithm(A::Decimal),
        PresplitAlgorithm::Uniform => algorithm(A::Uniform),
        PresplitAlgorithm::Md5Legacy => algorithm(A::Md5Legacy),
        PresplitAlgorithm::Partition => algorithm(A::Partition),
        PresplitAlgorithm::Sampled => {
            let samples = match &rp.samples {
                None => DEFAULT_SAMPLES,
                Some(s) => {
                    let v = ck.count(s, "table.presplit.samples")?;
                    if v > MAX_SAMPLES {
                        ck.err(
                            s.span(),
                            "table.presplit.samples",
                            format!(
                                "{} samples exceed the limit of {} (hbase-emu holds every sampled key in memory)",
                                crate::units::thousands(u128::from(v)),
                                crate::units::thousands(u128::from(MAX_SAMPLES))
                            ),
                            format!(
                                "between the region count ({regions}) and {MAX_SAMPLES} samples"
                            ),
                        );
                        return None;
                    }
                    if v < regions {
                        ck.err(
                            s.span(),
                            "table.presplit.samples",
                            format!("{v} samples cannot place {regions} regions"),
                            format!(
                                "between the region count ({regions}) and {MAX_SAMPLES} samples"
                            ),
                        );
                        return None;
                    }
                    v
                }
            };
            Some(Presplit::Sampled { regions, samples })
        }
        PresplitAlgorithm::Keys => {
            let Some(keys) = &rp.keys else {
                ck.err(
                    p.span(),
                    "table.presplit.keys",
                    "algorithm \"keys\" needs the split keys",
                    "keys = [\"k1\", \"k2\"] in toStringBinary notation",
                );
                return None;
            };
            let mut bytes = Vec::new();
            let mut seen = std::collections::HashMap::new();
            for k in keys.get_ref() {
                if let Some(esc) = lower_case_escape(k.get_ref()) {
                    let (line, col) = ck.src.line_col(k.span().start);
                    ck.warnings.push(format!(
                        "table.presplit.keys ({}:{line}:{col}): `{esc}` in `{}` is not an escape for HBase \
                         (toBytesBinary needs upper-case hex digits): it reads as the text `{}`; \
                         write `{}` for the byte",
                        ck.src.path.display(),
                        k.get_ref(),
                        &esc[1..],
                        esc.to_ascii_uppercase().replacen('X', "x", 1),
                    ));
                }
                let b = crate::keynotation::to_bytes_binary(k.get_ref());
                if b.is_empty() {
                    ck.err(
                        k.span(),
                        "table.presplit.keys",
                        "an empty split key",
                        "non-empty keys (HBase rejects empty split keys)",
                    );
                    return None;
                }
                // A map, not a scan: comparing each key with all before it is quadratic.
                if let Some(&prev) = seen.get(&b) {
                    ck.err(
                        k.span(),
                        "table.presplit.keys",
                        format!(
                            "duplicate split key `{}` (same as key #{})",
                            k.get_ref(),
                            prev + 1
                        ),
                        "unique split keys (HBase rejects duplicates)",
                    );
                    return None;
                }
                seen.insert(b.clone(), bytes.len());
                bytes.push(b);
            }
            if bytes.is_empty() {
                ck.err(
                    keys.span(),
                    "table.presplit.keys",
                    "the key list is empty",
                    "at least one split key",
                );
                return None;
            }
            match crate::presplit::validate_keys(bytes) {
                Ok(k) => Some(Presplit::Keys(k)),
                Err(e) => {
                    ck.errors.push(
                        e.locate(ck.src, keys.span())
                            .field_if_unset("table.presplit.keys"),
                    );
                    None
                }
            }
        }
        PresplitAlgorithm::File => {
            let Some(f) = &rp.file else {
                ck.err(
                    p.span(),
                    "table.presplit.file",
                    "algorithm \"file\" needs a SPLITS_FILE path",
                    "file = \"splits.txt\"",
                );
                return None;
            };
            let path = base_dir.join(f.get_ref());
            // What is wrong with the path, said as such (a directory or a device is not
            // "missing"); the file's contents are read and checked when the run is planned.
            let problem = match std::fs::metadata(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("does not exist"),
                Err(_) => Some("cannot be read"),
                Ok(m) if m.is_dir() => Some("is a directory"),
                Ok(m) if !m.is_file() => Some("is not a regular file (a device, pipe or socket)"),
                Ok(_) => std::fs::File::open(&path)
                    .is_err()
                    .then_some("cannot be opened for reading"),
            };
            if let Some(problem) = problem {
                ck.err(
                    f.span(),
                    "table.presplit.file",
                    format!("split file `{}` {problem}", path.display()),
                    "a path to a readable SPLITS_FILE, relative to the scenario file",
                );
                return None;
            }
            Some(Presplit::File(path))
        }
    }
}

/// The first `\\x` followed by two hex digits of which one is lower case (`\\xff`): HBase's
/// `toBytesBinary` only decodes upper-case digits and keeps the rest as text.
fn lower_case_escape(key: &str) -> Option<String> {
    let b = key.as_bytes();
    (0..b.len().saturating_sub(3)).find_map(|i| {
        let (h, l) = (b[i + 2], b[i + 3]);
        (b[i] == b'\\'
            && b[i + 1] == b'x'
            && h.is_ascii_hexdigit()
            && l.is_ascii_hexdigit()
            && (h.is_ascii_lowercase() || l.is_ascii_lowercase()))
        .then(|| key[i..i + 4].to_string())
    })
}

fn workload(ck: &mut Checker<'_>, w: &raw::RawWorkload) -> Option<Workload> {
    let mut ok = true;
    let (mut columns, mut qualifier_bytes, mut value_bytes) = (1u64, 1u64, 1024u64);
    if let Some(r) = &w.row {
        let r = r.get_ref();
        if let Some(c) = &r.columns {
            match ck.positive(c, "workload.row.columns", 1_000_000) {
                Some(v) => columns = v,
                None => ok = false,
            }
        }
        if let Some(q) = &r.qualifier {
            match ck.size(q, "workload.row.qualifier") {
                Some(v) if v <= 1 << 20 => qualifier_bytes = v,
                Some(v) => {
                    ck.err(
                        q.span(),
                        "workload.row.qualifier",
                        format!("a {v}-byte qualifier"),
                        "a qualifier of at most 1MB",
                    );
                    ok = false;
                }
                None => ok = false,
            }
        }
        if let Some(v) = &r.value {
            match ck.size(v, "workload.row.value") {
                Some(0) => {
                    ck.err(
                        v.span(),
                        "workload.row.value",
                        "values of 0 bytes carry no data",
                        "a value size such as 1KB",
                    );
                    ok = false;
                }
                Some(x) if x > 10 << 20 => {
                    ck.err(
                        v.span(),
                        "workload.row.value",
                        format!("a {x}-byte value exceeds the cell limit"),
                        "at most 10MB (hbase.client.keyvalue.maxsize)",
                    );
                    ok = false;
                }
                Some(x) => value_bytes = x,
                None => ok = false,
            }
        }
    }
    let row_payload = columns * value_bytes;
    let rows = match (&w.data, &w.rows) {
        (Some(d), Some(r)) => {
            ck.err(
                r.span(),
                "workload.rows",
                "both `data` and `rows` are given",
                "one of `data = \"4TB\"` or `rows = 100_000_000`",
            );
            let _ = d;
            None
        }
        (None, None) => {
            ck.err(
                0..0,
                "workload",
                "the workload writes nothing",
                "`data = \"4TB\"` or `rows = 100_000_000` in [workload]",
            );
            None
        }
        (Some(d), None) => match ck.size(d, "workload.data") {
            Some(0) => {
                ck.err(
                    d.span(),
                    "workload.data",
                    "the data size is zero",
                    "a size such as 4TB",
                );
                None
            }
            Some(b) if b < row_payload => {
                ck.err(
                    d.span(),
                    "workload.data",
                    format!(
                        "{} is less than one row's payload ({} = {columns} × {} value)",
                        units::format_bytes(b),
                        units::format_bytes(row_payload),
                        units::format_bytes(value_bytes)
                    ),
                    format!("at least {row_payload} bytes (one row), e.g. a size such as 4TB"),
                );
                None
            }
            // Not a multiple of the row payload: whole rows, rounded down (check shows the count).
            Some(b) => Some(b / row_payload),
            None => None,
        },
        (None, Some(r)) => match ck.count(r, "workload.rows") {
            Some(0) => {
                ck.err(
                    r.span(),
                    "workload.rows",
                    "the row count is zero",
                    "a count such as 100_000_000",
                );
                None
            }
            other => other,
        },
    };
    let first_id = match &w.first_id {
        Some(f) if *f.get_ref() < 0 => {
            ck.err(
                f.span(),
                "workload.first_id",
                "a negative first id",
                "a whole number ≥ 0",
            );
            ok = false;
            0
        }
        Some(f) => *f.get_ref() as u64,
        None => 0,
    };
    if let Some(rows) = rows
        && first_id.checked_add(rows).is_none()
    {
        ck.err(
            w.first_id.as_ref().map_or(0..0, |f| f.span()),
            "workload.first_id",
            "ids overflow 2^64",
            "first_id + rows < 2^64",
        );
        ok = false;
    }
    let rate_bytes_per_s = match &w.rate {
        None => DEFAULT_RATE,
        Some(r) => match ck.quantity(r, "workload.rate", units::parse_rate, units::RATE_EXPECTED) {
            Some(0) => {
                ck.err(
                    r.span(),
                    "workload.rate",
                    "a rate of zero never finishes",
                    "a positive rate such as 1GB/s",
                );
                ok = false;
                DEFAULT_RATE
            }
            Some(v) => v,
            None => {
                ok = false;
                DEFAULT_RATE
            }
        },
    };
    let reads = match &w.reads {
        None => None,
        Some(r) => match events::reads(ck, r.get_ref()) {
            Some(r) => Some(r),
            None => {
                ok = false;
                None
            }
        },
    };
    let scale = match &w.scale {
        None => None,
        Some(k) => match ck.positive(k, "workload.scale", 1 << 40) {
            Some(v) => Some(v),
            None => {
                ok = false;
                None
            }
        },
    };
    let start_minute = match &w.start_time {
        None => 0,
        Some(t) => match parse_time_of_day(t.get_ref()) {
            Some(m) => m,
            None => {
                ck.err(
                    t.span(),
                    "workload.start_time",
                    format!("{:?} is not a time of day", t.get_ref()),
                    "\"HH:MM\" on a 24-hour clock, from \"00:00\" to \"23:59\"",
                );
                ok = false;
                0
            }
        },
    };
    let duration_ms = match &w.duration {
        None => None,
        Some(q) => match ck.quantity(
            q,
            "workload.duration",
            units::parse_duration_ms,
            units::DURATION_EXPECTED,
        ) {
            Some(v) if (1..=MAX_DURATION_MS).contains(&v) => Some(v),
            Some(v) => {
                ck.err(
                    q.span(),
                    "workload.duration",
                    format!("a duration of {v} ms"),
                    "a duration from 1ms to 36500d (100 years)",
                );
                ok = false;
                None
            }
            None => {
                ok = false;
                None
            }
        },
    };
    let mut mix = |v: &Option<Spanned<f64>>, field: &str| match v {
        None => 0.0,
        Some(x) => ck.unit_fraction(x, field).unwrap_or_else(|| {
            ok = false;
            0.0
        }),
    };
    let update_fraction = mix(&w.update_fraction, "workload.update_fraction");
    let delete_fraction = mix(&w.delete_fraction, "workload.delete_fraction");
    let compressibility = match &w.compressibility {
        None => 1.0,
        Some(x) => ck
            .unit_fraction(x, "workload.compressibility")
            .unwrap_or_else(|| {
                ok = false;
                1.0
            }),
    };
    if ok && update_fraction + delete_fraction >= 1.0 {
        let span = w
            .delete_fraction
            .as_ref()
            .or(w.update_fraction.as_ref())
            .map_or(0..0, |f| f.span());
        ck.err(
            span,
            "workload.delete_fraction",
            format!(
                "update_fraction + delete_fraction = {} leaves no new rows to update or delete",
                update_fraction + delete_fraction
            ),
            "update_fraction + delete_fraction < 1",
        );
        ok = false;
    }
    let rows = rows?;
    // Keep every byte count of the run inside 62 bits: an exabyte-scale workload is a typo.
    let logical =
        rows as u128 * columns as u128 * (value_bytes + qualifier_bytes + 32_768 + 64) as u128;
    if logical >= 1u128 << 62 {
        let span = w
            .rows
            .as_ref()
            .or(w.data.as_ref())
            .map_or(0..0, |r| r.span());
        ck.err(
            span,
            "workload",
            "the workload is too large to emulate",
            "less than 4 EiB of cells (rows × columns × cell size)",
        );
        return None;
    }
    if !ok {
        return None;
    }
    Some(Workload {
        rows,
        first_id,
        columns,
        qualifier_bytes,
        value_bytes,
        rate_bytes_per_s,
        scale,
        reads,
        start_minute,
        duration_ms,
        update_fraction,
        delete_fraction,
        compressibility,
        compressibility_given: w.compressibility.is_some(),
    })
}

/// The longest `workload.duration`, ms (100 years: the clock counts nanoseconds in 64 bits).
const MAX_DURATION_MS: u64 = 36_500 * 86_400_000;

/// "HH:MM" (24-hour, two digits each) as minutes after midnight.
fn parse_time_of_day(s: &str) -> Option<u32> {
    let (h, m) = s.split_once(':')?;
    let two_digits = |x: &str| x.len() == 2 && x.bytes().all(|b| b.is_ascii_digit());
    if !two_digits(h) || !two_digits(m) {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_time_is_a_time_of_day() {
        let base = "name = \"t\"\n[cluster]\nregionservers = 1\n[workload]\nrows = 10\n";
        let generator = "[[generator]]\nname = \"g\"\nkind = \"sequential\"\n";
        let load = |extra: &str| {
            load_source(SourceText::from_string(
                "t.toml",
                format!("{base}{extra}{generator}"),
            ))
        };
        assert_eq!(load("").expect("default").workload.start_minute, 0);
        let s = load("start_time = \"22:30\"\n").expect("valid");
        assert_eq!(s.workload.start_minute, 22 * 60 + 30);
        for bad in ["24:00", "7:00", "12:60", "noon"] {
            let e = load(&format!("start_time = \"{bad}\"\n"))
                .expect_err(bad)
                .to_string();
            assert!(
                e.contains("workload.start_time") && e.contains("HH:MM"),
                "{e}"
            );
            assert!(e.contains("t.toml:6:"), "names the line: {e}");
        }
        assert_eq!(parse_time_of_day("00:00"), Some(0));
        assert_eq!(parse_time_of_day("23:59"), Some(1439));
    }

    // SimpleRegionNormalizer reads these from the table descriptor (HBase 2.6).
    #[test]
    fn table_normalizer_values() {
        let text = |v: &str| {
            format!(
                "name = \"t\"\n[cluster]\nregionservers = 1\n[table]\nnormalizer_merge_min_region_age_days = {v}\n\
                 normalizer_merge_enabled = false\n[workload]\nrows = 10\n\
                 [[generator]]\nname = \"g\"\nkind = \"sequential\"\n"
            )
        };
        let s = load_source(SourceText::from_string("t.toml", text("0"))).expect("valid");
        let a = &s.table.attributes;
        assert_eq!(
            a.normalizer_merge_min_region_age_days
                .as_ref()
                .map(|a| a.value),
            Some(0)
        );
        assert_eq!(
            a.normalizer_merge_enabled.as_ref().map(|a| a.value),
            Some(false)
        );
        let e = load_source(SourceText::from_string("t.toml", text("3000000000")))
            .expect_err("too large")
            .to_string();
        assert!(
            e.contains("table.normalizer_merge_min_region_age_days") && e.contains("t.toml:5:"),
            "{e}"
        );
    }

    #[test]
    fn field_at_names_table_and_key() {
        let t = "[cluster]\nregionservers = 10\n[workload]\nrate = \"x\"\n";
        let off = t.find("\"x\"").unwrap();
        assert_eq!(field_at(t, off).as_deref(), Some("workload.rate"));
        assert_eq!(field_at(t, 0).as_deref(), Some("cluster"));
    }

    #[test]
    fn table_names_follow_hbase_rules() {
        assert!(valid_table_name("events"));
        assert!(valid_table_name("ns:events.v2"));
        assert!(!valid_table_name(".meta"));
        assert!(!valid_table_name("a b"));
        assert!(!valid_table_name("ns.x:t"));
    }

    #[test]
    fn normalize_handles_parent_dirs() {
        assert_eq!(
            normalize(Path::new("scenarios/../configs/a.xml")),
            PathBuf::from("configs/a.xml")
        );
    }

    fn load_text(body: &str) -> Result<Scenario, ScenarioErrors> {
        let text = format!(
            "name = \"t\"\n{body}\n[workload]\nrows = 10\n[[generator]]\nname = \"g\"\nkind = \"sequential\"\n"
        );
        load_source(SourceText::from_string("t.toml", text))
    }

    #[test]
    fn hardware_profiles_and_overrides() {
        let s = load_text("[cluster]\nregionservers = 2\n").unwrap();
        assert_eq!(s.cluster.hardware.profile, "ssd");
        assert_eq!(s.cluster.write_bandwidth, None);
        assert_eq!(s.client.writers, DEFAULT_WRITERS);
        let s = load_text(
            "[cluster]\nregionservers = 2\nhardware = \"hdd\"\ndisks = 6\nnetwork = \"25GB/s\"\n\
             [client]\nwriters = 4\n",
        )
        .unwrap();
        let h = &s.cluster.hardware;
        assert_eq!((h.profile.as_str(), h.disks, h.cores), ("hdd", 6, 16));
        assert_eq!(h.network, 25 << 30);
        assert_eq!(s.client.writers, 4);
        let e = load_text("[cluster]\nregionservers = 2\nhardware = \"floppy\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.toml:4") && e.contains("cluster.hardware") && e.contains("cloud-ebs"),
            "{e}"
        );
        let e = load_text("[cluster]\nregionservers = 2\n[client]\nwriters = 0\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("client.writers"), "{e}");
    }
}
