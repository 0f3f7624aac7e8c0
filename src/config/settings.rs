//! Typed settings: every modelled key read once, with table attributes applied and HBase's own
//! range checks (and HBase's silent corrections, which we record as warnings).

use std::fmt;

use super::keys::{self, Kind};
use super::{
    Attr, Origin, SiteConfig, TableAttributes, parse_java_bool, parse_java_float, parse_java_long,
};
use crate::diag::InputError;

/// Table attribute read by KeyPrefixRegionSplitPolicy.
pub const PREFIX_LENGTH_ATTR: &str = "KeyPrefixRegionSplitPolicy.prefix_length";
/// Table attribute read by DelimitedKeyPrefixRegionSplitPolicy.
pub const DELIMITER_ATTR: &str = "DelimitedKeyPrefixRegionSplitPolicy.delimiter";
/// `RegionSplitRestriction.RESTRICTION_TYPE_KEY`: a table attribute, else a site key.
pub const SPLIT_RESTRICTION_TYPE_KEY: &str = "hbase.regionserver.region.split_restriction.type";
/// `KeyPrefixRegionSplitRestriction.PREFIX_LENGTH_KEY`: a table attribute, else a site key.
pub const SPLIT_RESTRICTION_PREFIX_LENGTH_KEY: &str =
    "hbase.regionserver.region.split_restriction.prefix_length";
/// `DelimitedKeyPrefixRegionSplitRestriction.DELIMITER_KEY`: a table attribute, else a site key.
pub const SPLIT_RESTRICTION_DELIMITER_KEY: &str =
    "hbase.regionserver.region.split_restriction.delimiter";
/// Table attribute: the normalizer's target region size, MB (`TableDescriptor`).
pub const NORMALIZER_TARGET_REGION_SIZE_MB_ATTR: &str = "NORMALIZER_TARGET_REGION_SIZE_MB";
/// Table attribute: the normalizer's target region count (`TableDescriptor`).
pub const NORMALIZER_TARGET_REGION_COUNT_ATTR: &str = "NORMALIZER_TARGET_REGION_COUNT";
/// `HConstants.DEFAULT_BLOCKSIZE`: a column family's BLOCKSIZE unless the scenario sets one.
pub const DEFAULT_BLOCKSIZE: u64 = 65_536;
/// `TableDescriptorChecker`: smallest max file size accepted while sanity checks are on.
pub const MAX_FILESIZE_LOWER_LIMIT: i64 = 2 * 1024 * 1024;
/// `TableDescriptorChecker`: smallest flush size accepted while sanity checks are on.
pub const FLUSH_SIZE_LOWER_LIMIT: i64 = 1024 * 1024;
/// The least WAL roll size (block size × `hbase.regionserver.logroll.multiplier`) accepted.
pub const MIN_WAL_ROLL_BYTES: u64 = 1 << 20;
/// `MasterProcedureConstants.DEFAULT_MIN_MASTER_PROCEDURE_THREADS`: HMaster's default is
/// max(this, cores / 4), which is this for masters with up to 64 cores (the model has no master
/// core count).
pub const DEFAULT_MASTER_PROCEDURE_THREADS: u32 = 16;
/// `HRegion.MAX_FLUSH_PER_CHANGES`.
pub const MAX_FLUSH_PER_CHANGES: i64 = 1_000_000_000;
/// The block cache's heap fraction (`HConstants.HFILE_BLOCK_CACHE_SIZE_KEY`).
pub const BLOCK_CACHE_KEY: &str = "hfile.block.cache.size";
/// The global memstore's heap fraction (`MemorySizeUtil.MEMSTORE_SIZE_KEY`).
pub const GLOBAL_MEMSTORE_KEY: &str = "hbase.regionserver.global.memstore.size";
/// `HConstants.HBASE_CLUSTER_MINIMUM_MEMORY_THRESHOLD`: heap fraction that must stay free.
pub const MINIMUM_FREE_HEAP_FRACTION: f32 = 0.2;
/// Key of the table-creation sanity checks (`TableDescriptorChecker`).
pub const SANITY_CHECKS_KEY: &str = "hbase.table.sanity.checks";

const REGIONSERVER_PKG: &str = "org.apache.hadoop.hbase.regionserver.";
const BALANCER_PKG: &str = "org.apache.hadoop.hbase.master.balancer.";

/// HBase's region split policies (`org.apache.hadoop.hbase.regionserver.*SplitPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SplitPolicy {
    /// Split at a fixed size (max filesize ± jitter).
    ConstantSize,
    /// min(max filesize, initial × regions³) for the regions of the table on the server.
    IncreasingToUpperBound,
    /// Initial size for the table's first region on a server, then max filesize (2.x default).
    Stepping,
    /// Never split.
    Disabled,
    /// Increasing, with split points cut to a fixed-length prefix.
    KeyPrefix,
    /// Increasing, with split points cut before a delimiter.
    DelimitedKeyPrefix,
    /// Increasing, plus splits of regions with many blocked writes.
    Busy,
}

impl SplitPolicy {
    /// Every policy, in a stable order (for messages).
    pub const ALL: [SplitPolicy; 7] = [
        SplitPolicy::ConstantSize,
        SplitPolicy::IncreasingToUpperBound,
        SplitPolicy::Stepping,
        SplitPolicy::Disabled,
        SplitPolicy::KeyPrefix,
        SplitPolicy::DelimitedKeyPrefix,
        SplitPolicy::Busy,
    ];

    /// The simple class name.
    pub fn simple_name(self) -> &'static str {
        match self {
            SplitPolicy::ConstantSize => "ConstantSizeRegionSplitPolicy",
            SplitPolicy::IncreasingToUpperBound => "IncreasingToUpperBoundRegionSplitPolicy",
            SplitPolicy::Stepping => "SteppingSplitPolicy",
            SplitPolicy::Disabled => "DisabledRegionSplitPolicy",
            SplitPolicy::KeyPrefix => "KeyPrefixRegionSplitPolicy",
            SplitPolicy::DelimitedKeyPrefix => "DelimitedKeyPrefixRegionSplitPolicy",
            SplitPolicy::Busy => "BusyRegionSplitPolicy",
        }
    }

    /// The full class name HBase is configured with.
    pub fn class_name(self) -> String {
        format!("{REGIONSERVER_PKG}{}", self.simple_name())
    }

    /// Reads a full (`org.apache.hadoop.hbase.regionserver.SteppingSplitPolicy`) or simple
    /// (`SteppingSplitPolicy`) class name. HBase itself needs the full name; accepting the simple
    /// one is our convenience. The error lists the valid names.
    pub fn parse(name: &str) -> Result<SplitPolicy, String> {
        let name = name.trim();
        let simple = name.strip_prefix(REGIONSERVER_PKG).unwrap_or(name);
        Self::ALL
            .into_iter()
            .find(|p| p.simple_name() == simple)
            .ok_or_else(|| format!("unknown region split policy `{name}`"))
    }

    /// The valid names, for error messages.
    pub fn expected() -> String {
        let names: Vec<&str> = Self::ALL.iter().map(|p| p.simple_name()).collect();
        format!(
            "one of {} (simple names or with the package {REGIONSERVER_PKG})",
            names.join(", ")
        )
    }
}

impl fmt::Display for SplitPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.simple_name())
    }
}

/// The table's split restriction (`RegionSplitRestriction`, HBase 2.5+): how every split point
/// is cut, whatever the split policy, so that rows sharing a prefix stay in one region.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SplitRestriction {
    /// `NoRegionSplitRestriction` (also what a missing or invalid setting leaves).
    #[default]
    None,
    /// `KeyPrefixRegionSplitRestriction`: the first `prefix_length` bytes.
    KeyPrefix {
        /// Bytes kept (≥ 1).
        prefix_length: u32,
    },
    /// `DelimitedKeyPrefixRegionSplitRestriction`: the bytes before the first delimiter.
    DelimitedKeyPrefix {
        /// The delimiter (UTF-8 bytes of the setting, non-empty).
        delimiter: Vec<u8>,
    },
}

impl SplitRestriction {
    /// The type names HBase's `RegionSplitRestriction.create` accepts (case-sensitive).
    pub const TYPES: [&'static str; 3] = ["None", "KeyPrefix", "DelimitedKeyPrefix"];

    /// `getRestrictedSplitPoint`: KeyPrefix keeps min(prefix, len) bytes; DelimitedKeyPrefix
    /// keeps the bytes before the first delimiter, and the whole row when there is none.
    pub fn restrict(&self, mut row: Vec<u8>) -> Vec<u8> {
        match self {
            SplitRestriction::None => {}
            SplitRestriction::KeyPrefix { prefix_length } => row.truncate(*prefix_length as usize),
            SplitRestriction::DelimitedKeyPrefix { delimiter } => {
                if let Some(at) = row
                    .windows(delimiter.len())
                    .position(|w| w == delimiter.as_slice())
                {
                    row.truncate(at);
                }
            }
        }
        row
    }
}

impl fmt::Display for SplitRestriction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitRestriction::None => f.write_str("None"),
            SplitRestriction::KeyPrefix { prefix_length } => {
                write!(f, "KeyPrefix (prefix_length {prefix_length})")
            }
            SplitRestriction::DelimitedKeyPrefix { delimiter } => write!(
                f,
                "DelimitedKeyPrefix (delimiter `{}`)",
                crate::keynotation::to_string_binary(delimiter)
            ),
        }
    }
}

/// The master's load balancer (`hbase.master.loadbalancer.class`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BalancerClass {
    /// StochasticLoadBalancer (default).
    Stochastic,
    /// SimpleLoadBalancer (region counts only).
    Simple,
    /// No balancer runs: an hbase-emu extension (`none` or `off`) standing for HBase's
    /// `balance_switch false`, since HBase itself has no "no balancer" class.
    Off,
}

/// The store's compaction policy (`hbase.hstore.defaultengine.compactionpolicy.class`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompactionPolicyClass {
    /// `ExploringCompactionPolicy` (HBase's default).
    Exploring,
    /// `RatioBasedCompactionPolicy` (the pre-0.96 default).
    RatioBased,
    /// `FIFOCompactionPolicy`: only whole expired files go; no rewriting (a store with
    /// References after a split is compacted as Exploring would).
    Fifo,
    /// `DateTieredCompactionPolicy` under `DateTieredStoreEngine` (`hbase.hstore.engine.class`):
    /// files grouped into time windows that widen with age, compacted within their window.
    DateTiered,
}

/// `DateTieredCompactionPolicy`'s knobs (`CompactionConfiguration`,
/// `ExponentialCompactionWindowFactory`); times in ms, `i64` as HBase keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTieredParams {
    /// hbase.hstore.compaction.date.tiered.base.window.millis.
    pub base_window_ms: i64,
    /// hbase.hstore.compaction.date.tiered.windows.per.tier.
    pub windows_per_tier: i64,
    /// hbase.hstore.compaction.date.tiered.max.tier.age.millis (unset: the max store file age).
    pub max_tier_age_ms: i64,
    /// hbase.hstore.compaction.date.tiered.max.storefile.age.millis: files older are left alone
    /// by minor compactions.
    pub max_storefile_age_ms: i64,
    /// hbase.hstore.compaction.date.tiered.incoming.window.min.
    pub incoming_window_min: usize,
    /// hbase.hstore.compaction.date.tiered.single.output.for.minor.compaction.
    pub single_output_for_minor: bool,
    /// hbase.hstore.compaction.date.tiered.window.policy.class: RatioBased instead of Exploring
    /// inside a window.
    pub window_ratio_based: bool,
}

impl Default for DateTieredParams {
    /// HBase 2.6's defaults: 6-hour base windows, 4 per tier, no age limit, 6 files in the
    /// incoming window, one output file for a minor compaction, Exploring in each window.
    fn default() -> DateTieredParams {
        DateTieredParams {
            base_window_ms: 6 * 3_600_000,
            windows_per_tier: 4,
            max_tier_age_ms: i64::MAX,
            max_storefile_age_ms: i64::MAX,
            incoming_window_min: 6,
            single_output_for_minor: true,
            window_ratio_based: false,
        }
    }
}

const COMPACTION_PKG: &str = "org.apache.hadoop.hbase.regionserver.compactions.";

impl CompactionPolicyClass {
    /// The simple class name.
    pub fn simple_name(self) -> &'static str {
        match self {
            CompactionPolicyClass::Exploring => "ExploringCompactionPolicy",
            CompactionPolicyClass::RatioBased => "RatioBasedCompactionPolicy",
            CompactionPolicyClass::Fifo => "FIFOCompactionPolicy",
            CompactionPolicyClass::DateTiered => "DateTieredCompactionPolicy",
        }
    }

    /// Reads a full or simple class name.
    pub fn parse(name: &str) -> Result<CompactionPolicyClass, String> {
        let name = name.trim();
        let simple = name.strip_prefix(COMPACTION_PKG).unwrap_or(name);
        [
            CompactionPolicyClass::Exploring,
            CompactionPolicyClass::RatioBased,
            CompactionPolicyClass::Fifo,
            CompactionPolicyClass::DateTiered,
        ]
        .into_iter()
        .find(|c| c.simple_name() == simple)
        .ok_or_else(|| format!("unsupported compaction policy `{name}`"))
    }
}

impl BalancerClass {
    /// The simple class name.
    pub fn simple_name(self) -> &'static str {
        match self {
            BalancerClass::Stochastic => "StochasticLoadBalancer",
            BalancerClass::Simple => "SimpleLoadBalancer",
            BalancerClass::Off => "off",
        }
    }

    /// Reads a full or simple class name.
    pub fn parse(name: &str) -> Result<BalancerClass, String> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("none") || name.eq_ignore_ascii_case("off") {
            return Ok(BalancerClass::Off);
        }
        let simple = name.strip_prefix(BALANCER_PKG).unwrap_or(name);
        [BalancerClass::Stochastic, BalancerClass::Simple]
            .into_iter()
            .find(|b| b.simple_name() == simple)
            .ok_or_else(|| format!("unsupported load balancer `{name}`"))
    }
}

const THROTTLE_PKG: &str = "org.apache.hadoop.hbase.regionserver.throttle.";
/// Package of the pre-2.0 controller names, which `CompactionThroughputControllerFactory` still
/// maps to the current classes.
const DEPRECATED_THROTTLE_PKG: &str = "org.apache.hadoop.hbase.regionserver.compactions.";

/// The compaction throughput controller (`hbase.regionserver.throughput.controller`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThroughputControllerClass {
    /// PressureAwareCompactionThroughputController (HBase 2.x's default).
    PressureAware,
    /// NoLimitThroughputController: compactions are never slowed down.
    NoLimit,
}

impl ThroughputControllerClass {
    /// The simple class name.
    pub fn simple_name(self) -> &'static str {
        match self {
            ThroughputControllerClass::PressureAware => {
                "PressureAwareCompactionThroughputController"
            }
            ThroughputControllerClass::NoLimit => "NoLimitThroughputController",
        }
    }

    /// Reads a full class name (current or pre-2.0 package, which HBase's factory maps to the
    /// current class) or, as our convenience, a simple name.
    pub fn parse(name: &str) -> Result<ThroughputControllerClass, String> {
        let name = name.trim();
        let simple = name
            .strip_prefix(THROTTLE_PKG)
            .or_else(|| name.strip_prefix(DEPRECATED_THROTTLE_PKG))
            .unwrap_or(name);
        [
            ThroughputControllerClass::PressureAware,
            ThroughputControllerClass::NoLimit,
        ]
        .into_iter()
        .find(|c| c.simple_name() == simple)
        .ok_or_else(|| format!("unsupported compaction throughput controller `{name}`"))
    }
}

/// StochasticLoadBalancer parameters (all code defaults; `hbase.master.balancer.stochastic.*`).
#[derive(Debug, Clone, PartialEq)]
pub struct StochasticParams {
    /// maxSteps.
    pub max_steps: u32,
    /// stepsPerRegion.
    pub steps_per_region: u32,
    /// runMaxSteps.
    pub run_max_steps: bool,
    /// maxRunningTime (ms).
    pub max_running_time_ms: u64,
    /// numRegionLoadsToRemember.
    pub num_region_loads_to_remember: u32,
    /// minCostNeedBalance.
    pub min_cost_need_balance: f32,
    /// regionCountCost.
    pub region_count_cost: f32,
    /// primaryRegionCountCost.
    pub primary_region_count_cost: f32,
    /// moveCost.
    pub move_cost: f32,
    /// moveCost.offpeak.
    pub move_cost_offpeak: f32,
    /// maxMovePercent.
    pub max_move_percent: f32,
    /// localityCost.
    pub locality_cost: f32,
    /// rackLocalityCost.
    pub rack_locality_cost: f32,
    /// tableSkewCost.
    pub table_skew_cost: f32,
    /// regionReplicaHostCostKey.
    pub region_replica_host_cost: f32,
    /// regionReplicaRackCostKey.
    pub region_replica_rack_cost: f32,
    /// readRequestCost.
    pub read_request_cost: f32,
    /// writeRequestCost.
    pub write_request_cost: f32,
    /// memstoreSizeCost.
    pub memstore_size_cost: f32,
    /// storefileSizeCost.
    pub storefile_size_cost: f32,
}

/// The bulk loader's settings: the job's HFile writer (`HFileOutputFormat2`), the loading tool
/// (`BulkLoadHFilesTool`) and the region side (`HRegion.bulkLoadHFiles`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BulkLoadSettings {
    /// hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily.
    pub max_files_per_region_family: u32,
    /// hbase.bulkload.retries.number (0: never give up).
    pub retries: u32,
    /// hbase.mapreduce.bulkload.assign.sequenceNumbers.
    pub assign_seq_ids: bool,
    /// hbase.compaction.after.bulkload.enable.
    pub compact_after: bool,
    /// hbase.bulkload.locality.sensitive.enabled.
    pub locality_sensitive: bool,
    /// hbase.loadincremental.threads.max when set (else the loading host's cores).
    pub loader_threads: Option<u32>,
    /// The job's HFile roll size: hbase.hregion.max.filesize of the job's configuration (the
    /// site's, not the table's MAX_FILESIZE attribute, which `HFileOutputFormat2` does not read).
    pub job_roll_size: u64,
}

/// The loader's HBase client settings (`BufferedMutator` over `AsyncProcess`) and the server-side
/// figures that bound it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClientSettings {
    /// hbase.client.write.buffer, bytes per writer.
    pub write_buffer: u64,
    /// hbase.client.pause, ms.
    pub pause_ms: u64,
    /// hbase.client.retries.number.
    pub retries: u32,
    /// hbase.client.operation.timeout, ms.
    pub operation_timeout_ms: u64,
    /// hbase.client.max.total.tasks.
    pub max_total_tasks: u32,
    /// hbase.client.max.perserver.tasks.
    pub max_perserver_tasks: u32,
    /// hbase.client.max.perregion.tasks.
    pub max_perregion_tasks: u32,
    /// hbase.regionserver.handler.count.
    pub handlers: u32,
    /// dfs.replication.
    pub replication: u32,
    /// hbase.client.scanner.caching: rows one scanner RPC asks for.
    pub scanner_caching: u32,
    /// hbase.client.scanner.max.result.size, bytes one scanner RPC returns at most.
    pub scanner_max_result_size: u64,
    /// hbase.server.scanner.max.result.size: the server's own cap on one scanner RPC's bytes.
    pub server_scanner_max_result_size: u64,
}

/// Normalizer keys a table descriptor may carry (`SimpleRegionNormalizer` reads them with
/// `tableDescriptor.getValue`), as given; `None` = not set on the table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NormalizerTableValues {
    /// `hbase.normalizer.split.enabled`.
    pub split_enabled: Option<bool>,
    /// `hbase.normalizer.merge.enabled`.
    pub merge_enabled: Option<bool>,
    /// `hbase.normalizer.merge.min.region.count`.
    pub merge_min_region_count: Option<i64>,
    /// `hbase.normalizer.merge.min_region_age.days`.
    pub merge_min_region_age_days: Option<i64>,
    /// `hbase.normalizer.merge.min_region_size.mb`.
    pub merge_min_region_size_mb: Option<i64>,
}

/// Every modelled setting, typed, for one table. Sizes in bytes, times in milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    // --- split ---
    /// Desired max store size: table MAX_FILESIZE if > 0, else hbase.hregion.max.filesize.
    pub max_filesize: u64,
    /// hbase.hregion.max.filesize.jitter.
    pub max_filesize_jitter: f64,
    /// hbase.hregion.split.overallfiles.
    pub split_overallfiles: bool,
    /// Table SPLIT_POLICY, else hbase.regionserver.region.split.policy.
    pub split_policy: SplitPolicy,
    /// Prefix length for KeyPrefixRegionSplitPolicy; `None` (HBase logs an error) = split points
    /// are not truncated.
    pub key_prefix_length: Option<u32>,
    /// Delimiter for DelimitedKeyPrefixRegionSplitPolicy; `None` = split points not truncated.
    pub prefix_delimiter: Option<Vec<u8>>,
    /// The table's split restriction: table attribute, else hbase-site
    /// (`hbase.regionserver.region.split_restriction.*`); `None` when unset or invalid.
    pub split_restriction: SplitRestriction,
    /// Initial size of the increasing policies: hbase.increasing.policy.initial.size if > 0,
    /// else 2 × flush size.
    pub increasing_initial_size: u64,
    /// hbase.regionserver.regionSplitLimit.
    pub region_split_limit: u32,
    /// hbase.hregion.split.ignore.blocking.enabled.
    pub split_ignore_blocking: bool,
    /// hbase.master.auto.separate.child.regions.after.split.enabled.
    pub auto_separate_children: bool,
    /// hbase.busy.policy.blockedRequests (reset to 0.2 outside [0.00001, 0.99999]).
    pub busy_blocked_requests: f32,
    /// hbase.busy.policy.minAge.
    pub busy_min_age_ms: u64,
    /// hbase.busy.policy.aggWindow.
    pub busy_agg_window_ms: u64,
    // --- flush and memstore ---
    /// Region flush size: table MEMSTORE_FLUSHSIZE if > 0, else hbase.hregion.memstore.flush.size.
    pub flush_size: u64,
    /// hbase.hregion.memstore.block.multiplier.
    pub block_multiplier: u64,
    /// flush_size × block_multiplier: writes block above this.
    pub blocking_memstore_size: u64,
    /// hbase.hregion.preclose.flush.size.
    pub preclose_flush_size: u64,
    /// hbase.hregion.percolumnfamilyflush.size.lower.bound.min.
    pub per_cf_flush_lower_bound_min: u64,
    /// hbase.regionserver.global.memstore.size (fraction of heap; reset to 0.4 outside (0, 0.8]).
    pub global_memstore_fraction: f32,
    /// hbase.regionserver.global.memstore.size.lower.limit (fraction of the global limit, ≤ 1).
    pub global_memstore_lower_limit: f32,
    /// hfile.block.cache.size (fraction of heap for the L1 block cache).
    pub block_cache_fraction: f32,
    /// hbase.regionserver.global.memstore.memory.size if set (absolute; else fraction × heap).
    pub global_memstore_bytes: Option<u64>,
    /// hbase.regionserver.optionalcacheflushinterval; `None` when ≤ 0 (periodic flush off).
    pub flush_interval_ms: Option<u64>,
    /// hbase.regionserver.periodicmemstoreflusher.rangeofdelayseconds, in ms: the periodic
    /// flush's random delay is below this.
    pub periodic_flush_delay_range_ms: u64,
    /// hbase.master.procedure.threads: the master's procedure workers (splits, merges, moves).
    pub master_procedure_threads: u32,
    /// hbase.regionserver.flush.per.changes.
    pub flush_per_changes: u64,
    /// hbase.hstore.flusher.count (at least 1).
    pub flusher_count: u32,
    /// hbase.hstore.blockingStoreFiles.
    pub blocking_store_files: u32,
    /// hbase.hstore.blockingWaitTime.
    pub blocking_wait_ms: u64,
    /// hbase.hregion.memstore.mslab.enabled.
    pub mslab_enabled: bool,
    /// hbase.hregion.memstore.mslab.chunksize.
    pub mslab_chunk_size: u64,
    /// hbase.hregion.memstore.mslab.max.allocation.
    pub mslab_max_allocation: u64,
    /// hbase.server.thread.wakefrequency (flush/compaction checker period).
    pub wake_frequency_ms: u64,
    /// hbase.regionserver.flush.check.period (unset ⇒ wake frequency).
    pub flush_check_period_ms: u64,
    /// hbase.regionserver.compaction.check.period (unset ⇒ wake frequency).
    pub compaction_check_period_ms: u64,
    /// hbase.server.compactchecker.interval.multiplier.
    pub compactchecker_interval_multiplier: u32,
    // --- compaction ---
    /// max(2, hbase.hstore.compaction.min, else hbase.hstore.compactionThreshold).
    pub compaction_min_files: u32,
    /// hbase.hstore.compaction.max.
    pub compaction_max_files: u32,
    /// hbase.hstore.compaction.min.size (unset ⇒ flush size).
    pub compaction_min_size: u64,
    /// hbase.hstore.compaction.max.size.
    pub compaction_max_size: u64,
    /// hbase.hstore.compaction.max.size.offpeak (unset ⇒ compaction_max_size).
    pub compaction_max_size_offpeak: u64,
    /// hbase.hstore.compaction.ratio.
    pub compaction_ratio: f32,
    /// hbase.hstore.compaction.ratio.offpeak.
    pub compaction_ratio_offpeak: f32,
    /// Off-peak (start hour, end hour), `None` when disabled or invalid.
    pub offpeak_hours: Option<(u8, u8)>,
    /// hbase.hregion.majorcompaction (0 = time-based majors off).
    pub major_compaction_period_ms: u64,
    /// hbase.store.delete.expired.storefile.
    pub delete_expired_storefile: bool,
    /// hbase.hregion.majorcompaction.jitter.
    pub major_compaction_jitter: f32,
    /// hbase.regionserver.thread.compaction.throttle.
    pub compaction_throttle: u64,
    /// hbase.hfile.compaction.discharger.interval (ms, at least 1).
    pub discharger_interval_ms: u64,
    /// The client and the servers' request capacity.
    pub client: ClientSettings,
    /// The bulk loader's settings (`HFileOutputFormat2`, `BulkLoadHFilesTool`, `HRegion`).
    pub bulk_load: BulkLoadSettings,
    /// hbase.regionserver.thread.compaction.small (below 1 is an error, as in CompactSplit).
    pub small_compaction_threads: u32,
    /// hbase.regionserver.thread.compaction.large (raised to 1, as CompactSplit does).
    pub large_compaction_threads: u32,
    /// hbase.regionserver.throughput.controller.
    pub compaction_throughput_controller: ThroughputControllerClass,
    /// hbase.hstore.compaction.throughput.lower.bound, bytes/s (> 0 with the pressure-aware
    /// controller).
    pub compaction_throughput_lower_bound: u64,
    /// hbase.hstore.compaction.throughput.higher.bound, bytes/s (> 0 with the pressure-aware
    /// controller).
    pub compaction_throughput_higher_bound: u64,
    /// hbase.hstore.compaction.throughput.offpeak, bytes/s: the limit a tune sets during
    /// off-peak hours (default `Long.MAX_VALUE`; ≤ 0 ⇒ 0, not throttled).
    pub compaction_throughput_offpeak: u64,
    /// hbase.hstore.compaction.throughput.tune.period; `None` when ≤ 0 (ChoreService does not
    /// schedule the tuner, so the limit stays at the lower bound).
    pub compaction_throughput_tune_period_ms: Option<u64>,
    /// hbase.hstore.compaction.throughput.control.check.interval (unset ⇒ the lower bound;
    /// negative ⇒ 0, a check after every cell).
    pub compaction_throughput_check_interval: u64,
    // --- balancer ---
    /// hbase.balancer.period.
    pub balancer_period_ms: u64,
    /// hbase.balancer.max.balancing (unset ⇒ balancer period).
    pub balancer_max_balancing_ms: u64,
    /// hbase.regions.slop.
    pub slop: f32,
    /// hbase.master.balancer.maxRitPercent.
    pub max_rit_percent: f64,
    /// hbase.master.loadbalancer.class.
    pub balancer: BalancerClass,
    /// hbase.hstore.defaultengine.compactionpolicy.class, or DateTiered when
    /// hbase.hstore.engine.class is DateTieredStoreEngine.
    pub compaction_policy: CompactionPolicyClass,
    /// The DateTiered policy's knobs (read whatever the engine; used under DateTiered).
    pub date_tiered: DateTieredParams,
    /// hbase.master.loadbalance.bytable.
    pub balance_by_table: bool,
    /// hbase.master.balancer.stochastic.*.
    pub stochastic: StochasticParams,
    // --- normalizer ---
    /// Table NORMALIZATION_ENABLED, else hbase.table.normalization.enabled.
    pub normalization_enabled: bool,
    /// hbase.normalizer.period.
    pub normalizer_period_ms: u64,
    /// hbase.normalizer.split.enabled.
    pub normalizer_split_enabled: bool,
    /// hbase.normalizer.merge.enabled.
    pub normalizer_merge_enabled: bool,
    /// hbase.normalizer.merge.min.region.count (raised to 1 when < 1, as HBase does).
    pub merge_min_region_count: u32,
    /// hbase.normalizer.merge.min_region_age.days (raised to 0 when negative).
    pub merge_min_region_age_days: u32,
    /// hbase.normalizer.merge.min_region_size.mb (raised to 0 when negative).
    pub merge_min_region_size_mb: u64,
    /// hbase.normalizer.merge.merge_request_max_number_of_regions.
    pub merge_max_regions: u64,
    /// hbase.normalizer.plans_size_limit.mb; `None` = unlimited.
    pub normalizer_plans_size_limit_mb: Option<u64>,
    /// Table NORMALIZER_TARGET_REGION_SIZE_MB when > 0 (SimpleRegionNormalizer ignores ≤ 0).
    pub normalizer_target_region_size_mb: Option<u64>,
    /// Table NORMALIZER_TARGET_REGION_COUNT when > 0 (used only without a target size).
    pub normalizer_target_region_count: Option<u64>,
    /// The normalizer keys set in the table descriptor, as given; whether each applies is
    /// `SimpleRegionNormalizer`'s rule (`engine::policy::normalizer`).
    pub normalizer_table: NormalizerTableValues,
    // --- HFile and cells ---
    /// Column family BLOCKSIZE default (`HConstants.DEFAULT_BLOCKSIZE`; not a site key).
    pub default_block_size: u64,
    /// hfile.format.version.
    pub hfile_format_version: u32,
    /// hfile.index.block.max.size.
    pub index_block_max_size: u64,
    /// hfile.index.block.min.entries.
    pub index_block_min_entries: u32,
    /// hbase.client.keyvalue.maxsize.
    pub client_keyvalue_maxsize: u64,
    /// hbase.server.keyvalue.maxsize.
    pub server_keyvalue_maxsize: u64,
    // --- WAL ---
    /// hbase.regionserver.maxlogs if set; `None` ⇒ HBase derives it (see keys table).
    pub max_logs: Option<u32>,
    /// hbase.regionserver.hlog.blocksize if set; `None` ⇒ 2 × the HDFS block size.
    pub wal_block_size: Option<u64>,
    /// hbase.regionserver.logroll.multiplier.
    pub logroll_multiplier: f32,
    /// hbase.regionserver.logroll.period.
    pub logroll_period_ms: u64,
    /// What HBase would have corrected or logged (values reset to defaults, ignored attributes).
    pub warnings: Vec<String>,
}

/// Reads keys with the defaults of the keys table, collecting warnings.
struct Reader<'a> {
    site: &'a SiteConfig,
    warnings: Vec<String>,
}

fn default_text(key: &str) -> &'static str {
    keys::spec(key).and_then(|s| s.default).unwrap_or("")
}

impl Reader<'_> {
    fn long(&self, key: &str) -> Result<i64, InputError> {
        self.site
            .get_long(key, parse_java_long(default_text(key)).unwrap_or(0))
    }
    fn int(&self, key: &str) -> Result<i32, InputError> {
        let d = parse_java_long(default_text(key)).and_then(|x| i32::try_from(x).ok());
        self.site.get_int(key, d.unwrap_or(0))
    }
    fn bytes(&self, key: &str) -> Result<i64, InputError> {
        self.site
            .get_bytes(key, parse_java_long(default_text(key)).unwrap_or(0))
    }
    fn millis(&self, key: &str) -> Result<i64, InputError> {
        self.site
            .get_millis(key, parse_java_long(default_text(key)).unwrap_or(0))
    }
    fn float(&self, key: &str) -> Result<f32, InputError> {
        self.site.get_float(
            key,
            parse_java_float(default_text(key)).unwrap_or(0.0) as f32,
        )
    }
    fn double(&self, key: &str) -> Result<f64, InputError> {
        self.site
            .get_double(key, parse_java_float(default_text(key)).unwrap_or(0.0))
    }
    fn bool(&self, key: &str) -> Result<bool, InputError> {
        self.site
            .get_bool(key, parse_java_bool(default_text(key)).unwrap_or(false))
    }

    /// `DateTieredCompactionPolicy`'s keys (HBase reads them as `long`/`int`, so negative
    /// ages are refused here rather than making every window "too old").
    fn date_tiered(&self) -> Result<DateTieredParams, InputError> {
        const P: &str = "hbase.hstore.compaction.date.tiered.";
        let key = |k: &str| format!("{P}{k}");
        let positive = |k: &str| -> Result<i64, InputError> {
            let k = key(k);
            let v = self.millis(&k)?;
            if v < 1 {
                return Err(self.site.value_error(
                    &k,
                    format!("{v} is less than 1"),
                    "1 or more (ms)",
                ));
            }
            Ok(v)
        };
        let base_window_ms = positive("base.window.millis")?;
        let max_storefile_age_ms = positive("max.storefile.age.millis")?;
        let max_tier_age_ms = match self.site.get(&key("max.tier.age.millis"))? {
            None => max_storefile_age_ms,
            Some(_) => positive("max.tier.age.millis")?,
        };
        let per_tier = key("windows.per.tier");
        let windows_per_tier = i64::from(self.int(&per_tier)?);
        if windows_per_tier < 2 {
            return Err(self.site.value_error(
                &per_tier,
                format!("{windows_per_tier} is less than 2"),
                "2 or more (each tier's window is this many times the last)",
            ));
        }
        let min_key = key("incoming.window.min");
        let incoming_window_min = self.positive_int(&min_key)? as usize;
        let policy_key = key("window.policy.class");
        let policy = self.site.get(&policy_key)?.unwrap_or_default();
        let window_ratio_based = match CompactionPolicyClass::parse(&policy) {
            _ if policy.trim().is_empty() => false,
            Ok(CompactionPolicyClass::Exploring) => false,
            Ok(CompactionPolicyClass::RatioBased) => true,
            _ => {
                return Err(self.site.value_error(
                    &policy_key,
                    format!("unsupported window policy `{}`", policy.trim()),
                    "ExploringCompactionPolicy or RatioBasedCompactionPolicy",
                ));
            }
        };
        let factory_key = key("window.factory.class");
        let factory = self.site.get(&factory_key)?.unwrap_or_default();
        let factory = factory.trim();
        if !(factory.is_empty() || factory.ends_with("ExponentialCompactionWindowFactory")) {
            return Err(self.site.value_error(
                &factory_key,
                format!("unsupported window factory `{factory}`"),
                "ExponentialCompactionWindowFactory (HBase's default; others are not modelled)",
            ));
        }
        Ok(DateTieredParams {
            base_window_ms,
            windows_per_tier,
            max_tier_age_ms,
            max_storefile_age_ms,
            incoming_window_min,
            single_output_for_minor: self.bool(&key("single.output.for.minor.compaction"))?,
            window_ratio_based,
        })
    }

    /// An optional non-negative key read with `read`; `None` when unset.
    fn optional(
        &self,
        key: &str,
        read: fn(&Self, &str) -> Result<u64, InputError>,
    ) -> Result<Option<u64>, InputError> {
        match self.site.get(key)? {
            None => Ok(None),
            Some(_) => read(self, key).map(Some),
        }
    }

    /// A value that must not be negative (we keep it unsigned).
    fn non_negative(&self, key: &str, v: i64) -> Result<u64, InputError> {
        u64::try_from(v).map_err(|_| {
            self.site
                .value_error(key, format!("{v} is negative"), "a value of 0 or more")
        })
    }
    fn u_long(&self, key: &str) -> Result<u64, InputError> {
        let v = self.long(key)?;
        self.non_negative(key, v)
    }
    fn u_bytes(&self, key: &str) -> Result<u64, InputError> {
        let v = self.bytes(key)?;
        self.non_negative(key, v)
    }
    fn u_millis(&self, key: &str) -> Result<u64, InputError> {
        let v = self.millis(key)?;
        self.non_negative(key, v)
    }
    fn u_int(&self, key: &str) -> Result<u32, InputError> {
        let v = self.int(key)?;
        self.non_negative(key, i64::from(v)).map(|x| x as u32)
    }
    /// An int that must be at least 1 (HBase would fetch nothing, or loop, below that).
    fn positive_int(&self, key: &str) -> Result<u32, InputError> {
        let v = self.int(key)?;
        if v < 1 {
            return Err(self.site.value_error(
                key,
                format!("{v} is less than 1"),
                "a value of 1 or more",
            ));
        }
        Ok(v as u32)
    }
    /// An int HBase raises to at least 1 (with a warning where HBase logs one).
    fn at_least_one(&mut self, key: &str) -> Result<u32, InputError> {
        let v = self.int(key)?;
        if v < 1 {
            self.warnings
                .push(format!("{key}: {v} is less than 1; HBase uses 1"));
            return Ok(1);
        }
        Ok(v as u32)
    }
}

fn attr_error<T>(attr: &Attr<T>, name: &str, problem: String, expected: &str) -> InputError {
    match &attr.origin {
        Origin::TableAttribute { path, line, .. } | Origin::Scenario { path, line } => {
            InputError::new(format!(
                "{problem} (table attribute at {}:{line})",
                path.display()
            ))
            .field(name)
            .in_file(path)
            .expected(expected.to_string())
        }
        other => InputError::new(format!("{problem} (from the {other})"))
            .field(name)
            .expected(expected.to_string()),
    }
}

/// `RegionSplitRestriction.create` and the subclasses' `initialize`: each value from the table
/// attribute, else from the site. HBase logs an invalid type or a missing/invalid prefix length
/// or delimiter and then cuts nothing; so do we, with a warning.
fn resolve_split_restriction(
    site: &SiteConfig,
    table: &TableAttributes,
    warnings: &mut Vec<String>,
) -> Result<SplitRestriction, InputError> {
    let kind = match &table.split_restriction_type {
        Some(a) => a.value.clone(),
        None => site
            .get(SPLIT_RESTRICTION_TYPE_KEY)?
            .unwrap_or_else(|| "None".to_string()),
    };
    Ok(match kind.as_str() {
        "None" => SplitRestriction::None,
        "KeyPrefix" => {
            let text = match &table.split_restriction_prefix_length {
                Some(a) => Some(a.value.to_string()),
                None => site.get(SPLIT_RESTRICTION_PREFIX_LENGTH_KEY)?,
            };
            // Integer.parseInt; an unparsable value leaves the length at 0.
            match text.as_deref().map(|t| t.parse::<i32>().unwrap_or(0)) {
                Some(n) if n > 0 => SplitRestriction::KeyPrefix {
                    prefix_length: n as u32,
                },
                _ => {
                    warnings.push(format!(
                        "{SPLIT_RESTRICTION_PREFIX_LENGTH_KEY} is {}; HBase logs an error and the KeyPrefix split restriction cuts nothing",
                        text.map_or("not set".to_string(), |t| format!("invalid (`{t}`)"))
                    ));
                    SplitRestriction::None
                }
            }
        }
        "DelimitedKeyPrefix" => {
            let delimiter = match &table.split_restriction_delimiter {
                Some(a) if !a.value.is_empty() => Some(a.value.clone()),
                _ => site
                    .get(SPLIT_RESTRICTION_DELIMITER_KEY)?
                    .filter(|d| !d.is_empty()),
            };
            match delimiter {
                Some(d) => SplitRestriction::DelimitedKeyPrefix {
                    delimiter: d.into_bytes(),
                },
                None => {
                    warnings.push(format!(
                        "{SPLIT_RESTRICTION_DELIMITER_KEY} is not set; HBase logs an error and the DelimitedKeyPrefix split restriction cuts nothing"
                    ));
                    SplitRestriction::None
                }
            }
        }
        other => {
            warnings.push(format!(
                "{SPLIT_RESTRICTION_TYPE_KEY} `{other}` is not one of {}; HBase logs a warning and uses None",
                SplitRestriction::TYPES.join(", ")
            ));
            SplitRestriction::None
        }
    })
}

impl Settings {
    /// Reads every modelled key from `site` and applies the table's attributes as HBase does:
    /// MAX_FILESIZE and MEMSTORE_FLUSHSIZE win when > 0 (`ConstantSizeRegionSplitPolicy`,
    /// `HRegion.setHTableSpecificConf`), SPLIT_POLICY wins (`RegionSplitPolicy`), the prefix
    /// policies read their attribute, NORMALIZATION_ENABLED wins. Errors are values HBase refuses
    /// (at table creation or region open); values HBase silently corrects become warnings.
    pub fn resolve(site: &SiteConfig, table: &TableAttributes) -> Result<Settings, InputError> {
        let mut r = Reader {
            site,
            warnings: Vec::new(),
        };
        lenient_bool_warnings(site, &mut r.warnings);

        // TableDescriptorChecker (sanity checks at table creation; on by default).
        let sanity = site.get_bool(SANITY_CHECKS_KEY, true)?;

        // Max file size.
        let conf_max = r.bytes("hbase.hregion.max.filesize")?;
        let checked_max = table
            .max_filesize
            .as_ref()
            .map_or(conf_max, |a| a.value as i64);
        if checked_max < MAX_FILESIZE_LOWER_LIMIT {
            let msg = format!(
                "MAX_FILESIZE or hbase.hregion.max.filesize ({checked_max}) is too small, which might cause over-splitting (HBase TableDescriptorChecker)"
            );
            if sanity {
                return Err(size_error(
                    site,
                    table.max_filesize.as_ref(),
                    "MAX_FILESIZE",
                    "hbase.hregion.max.filesize",
                    msg,
                    "at least 2097152 (2 MiB), or hbase.table.sanity.checks=false",
                ));
            }
            r.warnings.push(msg);
        }
        let max_filesize = match &table.max_filesize {
            Some(a) if a.value > 0 => a.value,
            _ => {
                if conf_max <= 0 {
                    return Err(site.value_error(
                        "hbase.hregion.max.filesize",
                        format!("{conf_max} is not a usable region size"),
                        "a byte count greater than 0",
                    ));
                }
                conf_max as u64
            }
        };

        // Flush size (HRegion.setHTableSpecificConf).
        let conf_flush = r.bytes("hbase.hregion.memstore.flush.size")?;
        let flush_size = match &table.memstore_flushsize {
            Some(a) if a.value > 0 => a.value,
            _ => {
                if conf_flush <= 0 {
                    return Err(site.value_error(
                        "hbase.hregion.memstore.flush.size",
                        format!("flush size {conf_flush} must be greater than 0"),
                        "a byte count greater than 0, e.g. 134217728 or 128MB",
                    ));
                }
                conf_flush as u64
            }
        };
        let checked_flush = table
            .memstore_flushsize
            .as_ref()
            .map_or(conf_flush, |a| a.value as i64);
        if checked_flush < FLUSH_SIZE_LOWER_LIMIT {
            let msg = format!(
                "MEMSTORE_FLUSHSIZE or hbase.hregion.memstore.flush.size ({checked_flush}) is too small, which might cause very frequent flushing (HBase TableDescriptorChecker)"
            );
            if sanity {
                return Err(size_error(
                    site,
                    table.memstore_flushsize.as_ref(),
                    "MEMSTORE_FLUSHSIZE",
                    "hbase.hregion.memstore.flush.size",
                    msg,
                    "at least 1048576 (1 MiB), or hbase.table.sanity.checks=false",
                ));
            }
            r.warnings.push(msg);
        }
        let mult = r.long("hbase.hregion.memstore.block.multiplier")?;
        if mult <= 0 {
            return Err(site.value_error(
                "hbase.hregion.memstore.block.multiplier",
                format!(
                    "{mult} makes the blocking size (flush size x multiplier) zero or negative: HBase accepts it, then refuses every write with RegionTooBusyException"
                ),
                "a whole number of at least 1, e.g. 4",
            ));
        }
        let block_multiplier = mult as u64;

        // Split policy.
        let split_policy = match &table.split_policy {
            Some(a) => SplitPolicy::parse(&a.value)
                .map_err(|p| attr_error(a, "SPLIT_POLICY", p, &SplitPolicy::expected()))?,
            None => {
                let key = "hbase.regionserver.region.split.policy";
                let name = site
                    .get(key)?
                    .unwrap_or_else(|| SplitPolicy::Stepping.class_name());
                SplitPolicy::parse(&name)
                    .map_err(|p| site.value_error(key, p, &SplitPolicy::expected()))?
            }
        };
        let mut key_prefix_length = None;
        let mut prefix_delimiter = None;
        match split_policy {
            SplitPolicy::KeyPrefix => match &table.key_prefix_length {
                Some(a) if a.value > 0 && a.value <= i32::MAX as u64 => {
                    key_prefix_length = Some(a.value as u32);
                }
                other => r.warnings.push(format!(
                    "{PREFIX_LENGTH_ATTR} is {}; HBase logs an error and KeyPrefixRegionSplitPolicy then splits like IncreasingToUpperBoundRegionSplitPolicy (split points are not truncated)",
                    other.as_ref().map_or("not set".to_string(), |a| format!("invalid ({})", a.value))
                )),
            },
            SplitPolicy::DelimitedKeyPrefix => match &table.prefix_delimiter {
                Some(a) if !a.value.is_empty() => {
                    prefix_delimiter = Some(a.value.as_bytes().to_vec());
                }
                _ => r.warnings.push(format!(
                    "{DELIMITER_ATTR} is not set; HBase logs an error and DelimitedKeyPrefixRegionSplitPolicy then splits like IncreasingToUpperBoundRegionSplitPolicy (split points are not truncated)"
                )),
            },
            _ => {}
        }
        if table.key_prefix_length.is_some() && split_policy != SplitPolicy::KeyPrefix {
            r.warnings.push(format!(
                "{PREFIX_LENGTH_ATTR} is ignored: the split policy is {split_policy}"
            ));
        }
        if table.prefix_delimiter.is_some() && split_policy != SplitPolicy::DelimitedKeyPrefix {
            r.warnings.push(format!(
                "{DELIMITER_ATTR} is ignored: the split policy is {split_policy}"
            ));
        }

        let split_restriction = resolve_split_restriction(site, table, &mut r.warnings)?;

        let initial = r
            .bytes("hbase.increasing.policy.initial.size")
            .or_else(|e| {
                if site
                    .get_raw("hbase.increasing.policy.initial.size")
                    .is_none()
                {
                    Ok(-1)
                } else {
                    Err(e)
                }
            })?;
        let increasing_initial_size = if initial > 0 {
            initial as u64
        } else {
            flush_size.saturating_mul(2)
        };

        // Busy policy (BusyRegionSplitPolicy.configureForRegion).
        let mut busy_blocked_requests = r.float("hbase.busy.policy.blockedRequests")?;
        if !(0.00001..=0.99999).contains(&busy_blocked_requests) {
            r.warnings.push(format!(
                "hbase.busy.policy.blockedRequests {busy_blocked_requests} is outside [0.00001, 0.99999]; HBase uses 0.2"
            ));
            busy_blocked_requests = 0.2;
        }
        let mut busy_agg_window = r.millis("hbase.busy.policy.aggWindow")?;
        if busy_agg_window <= 0 {
            r.warnings.push(format!(
                "hbase.busy.policy.aggWindow {busy_agg_window} is not positive; HBase uses 300000"
            ));
            busy_agg_window = 300_000;
        }

        // Global memstore (MemorySizeUtil).
        let mut global = r.float("hbase.regionserver.global.memstore.size")?;
        if global <= 0.0 || global > 0.8 {
            r.warnings.push(format!(
                "hbase.regionserver.global.memstore.size {global} is outside (0, 0.8]; HBase uses 0.4"
            ));
            global = 0.4;
        }
        let mut lower = r.float("hbase.regionserver.global.memstore.size.lower.limit")?;
        if lower > 1.0 {
            r.warnings.push(format!(
                "hbase.regionserver.global.memstore.size.lower.limit {lower} is above 1.0; HBase uses 1.0"
            ));
            lower = 1.0;
        }

        // MemorySizeUtil.validateRegionServerHeapMemoryAllocation (HRegionServer start-up): the
        // memstore and block cache percentages, each truncated to a whole percent as Java's
        // `(int) (fraction * 100)` does, may use at most 100 - 20 (HConstants.
        // HBASE_CLUSTER_MINIMUM_MEMORY_THRESHOLD) percent of the heap.
        let block_cache_fraction = r.float(BLOCK_CACHE_KEY)?;
        check_heap_allocation(site, global, block_cache_fraction)?;

        let interval = r.millis("hbase.regionserver.optionalcacheflushinterval")?;
        // PeriodicMemStoreFlusher draws `nextLong(range)`, which throws unless range > 0.
        let delay_range_key = "hbase.regionserver.periodicmemstoreflusher.rangeofdelayseconds";
        let delay_range_s = r.int(delay_range_key)?;
        if delay_range_s < 1 {
            return Err(site.value_error(
                delay_range_key,
                format!(
                    "{delay_range_s} is not positive (the periodic flusher's random draw fails)"
                ),
                "a whole number of seconds, 1 or more",
            ));
        }
        // HMaster.createProcedureExecutor: ≤ 0 is replaced by the default (with a warning).
        let proc_key = "hbase.master.procedure.threads";
        let proc_threads = r.int(proc_key)?;
        let master_procedure_threads = if proc_threads <= 0 {
            r.warnings.push(format!(
                "{proc_key}: {proc_threads} is invalid; HBase uses the default {DEFAULT_MASTER_PROCEDURE_THREADS}"
            ));
            DEFAULT_MASTER_PROCEDURE_THREADS
        } else {
            proc_threads as u32
        };
        let per_changes = r.long("hbase.regionserver.flush.per.changes")?;
        if per_changes > MAX_FLUSH_PER_CHANGES {
            return Err(site.value_error(
                "hbase.regionserver.flush.per.changes",
                format!("{per_changes} exceeds {MAX_FLUSH_PER_CHANGES} (HRegion refuses to open)"),
                "at most 1000000000",
            ));
        }
        let flush_per_changes =
            r.non_negative("hbase.regionserver.flush.per.changes", per_changes)?;

        // Compaction (CompactionConfiguration, OffPeakHours).
        let threshold = r.int("hbase.hstore.compactionThreshold")?;
        let min_files = site
            .get_int("hbase.hstore.compaction.min", threshold)?
            .max(2);
        let compaction_min_size = match site.get("hbase.hstore.compaction.min.size")? {
            None => flush_size,
            Some(_) => r.u_bytes("hbase.hstore.compaction.min.size")?,
        };
        let start = r.int("hbase.offpeak.start.hour")?;
        let end = r.int("hbase.offpeak.end.hour")?;
        let valid_hour = |h: i32| (0..=23).contains(&h);
        let offpeak_hours = if start == -1 && end == -1 {
            None
        } else if !valid_hour(start) || !valid_hour(end) {
            r.warnings.push(format!(
                "off-peak hours start={start} end={end} are not both in [0, 23]; HBase ignores them"
            ));
            None
        } else if start == end {
            None
        } else {
            Some((start as u8, end as u8))
        };

        // Normalizer (SimpleRegionNormalizer).
        let normalization_enabled = match &table.normalization_enabled {
            Some(a) => a.value,
            None => r.bool("hbase.table.normalization.enabled")?,
        };
        let mut merge_min_region_count = r.int("hbase.normalizer.merge.min.region.count")?;
        if merge_min_region_count < 1 {
            r.warnings.push(format!(
                "hbase.normalizer.merge.min.region.count {merge_min_region_count} is below 1; HBase uses 1"
            ));
            merge_min_region_count = 1;
        }
        let mut merge_age = r.int("hbase.normalizer.merge.min_region_age.days")?;
        if merge_age < 0 {
            r.warnings.push(format!(
                "hbase.normalizer.merge.min_region_age.days {merge_age} is negative; HBase uses 0"
            ));
            merge_age = 0;
        }
        let mut merge_size = r.long("hbase.normalizer.merge.min_region_size.mb")?;
        if merge_size < 0 {
            r.warnings.push(format!(
                "hbase.normalizer.merge.min_region_size.mb {merge_size} is negative; HBase uses 0"
            ));
            merge_size = 0;
        }

        let balancer_key = "hbase.master.loadbalancer.class";
        let balancer_name = site.get(balancer_key)?.unwrap_or_default();
        let balancer = BalancerClass::parse(&balancer_name).map_err(|p| {
            site.value_error(
                balancer_key,
                p,
                "StochasticLoadBalancer or SimpleLoadBalancer (simple or full class name), or none/off (balance_switch false)",
            )
        })?;

        // The store engine (`StoreEngine.create`), then its policy. Both keys are absent from
        // hbase-default.xml: unset or empty means the code default.
        let engine_key = "hbase.hstore.engine.class";
        let engine_name = site.get(engine_key)?.unwrap_or_default();
        let engine = engine_name.trim();
        let date_tiered_engine = match engine
            .strip_prefix("org.apache.hadoop.hbase.regionserver.")
            .unwrap_or(engine)
        {
            "" | "DefaultStoreEngine" => false,
            "DateTieredStoreEngine" => true,
            _ => {
                return Err(site.value_error(
                    engine_key,
                    format!("unsupported store engine `{engine}`"),
                    "DefaultStoreEngine or DateTieredStoreEngine (simple or full class name; StripeStoreEngine is not modelled)",
                ));
            }
        };
        let policy_key = "hbase.hstore.defaultengine.compactionpolicy.class";
        // Only a value someone set: our table's default stands for DefaultStoreEngine's.
        let policy_name = site
            .get(policy_key)?
            .filter(|v| !v.trim().is_empty())
            .filter(|_| !matches!(site.origin(policy_key), None | Some(Origin::Default)));
        let parsed = policy_name.as_deref().map(CompactionPolicyClass::parse);
        // DateTieredStoreEngine reads the same key with DateTieredCompactionPolicy as its
        // default and needs that class (another fails the store's open); DefaultStoreEngine's
        // compactor would write a DateTiered request's windows as one file.
        let compaction_policy = match (date_tiered_engine, parsed) {
            (false, None) => CompactionPolicyClass::Exploring,
            (true, None | Some(Ok(CompactionPolicyClass::DateTiered))) => {
                CompactionPolicyClass::DateTiered
            }
            (false, Some(Ok(CompactionPolicyClass::DateTiered))) => {
                return Err(site.value_error(
                    policy_key,
                    "DateTieredCompactionPolicy under DefaultStoreEngine (its compactor writes one file, not one per window)".to_string(),
                    "hbase.hstore.engine.class = DateTieredStoreEngine for date-tiered compaction",
                ));
            }
            (false, Some(Ok(p))) => p,
            (true, Some(Ok(p))) => {
                return Err(site.value_error(
                    policy_key,
                    format!("{} under DateTieredStoreEngine (HBase fails to open the store)", p.simple_name()),
                    "DateTieredCompactionPolicy, or leave it unset, with hbase.hstore.engine.class = DateTieredStoreEngine",
                ));
            }
            (_, Some(Err(p))) => {
                return Err(site.value_error(
                    policy_key,
                    p,
                    "ExploringCompactionPolicy, RatioBasedCompactionPolicy or FIFOCompactionPolicy (simple or full class name), or DateTieredCompactionPolicy with hbase.hstore.engine.class = DateTieredStoreEngine; Stripe is not modelled",
                ));
            }
        };
        let date_tiered = r.date_tiered()?;

        let max_logs = match site.get("hbase.regionserver.maxlogs")? {
            None => None,
            Some(_) => Some(r.u_int("hbase.regionserver.maxlogs")?),
        };

        let s = |name: &str| format!("{}{name}", keys::STOCHASTIC);
        let stochastic = StochasticParams {
            max_steps: r.u_int(&s("maxSteps"))?,
            steps_per_region: r.u_int(&s("stepsPerRegion"))?,
            run_max_steps: r.bool(&s("runMaxSteps"))?,
            max_running_time_ms: r.u_millis(&s("maxRunningTime"))?,
            num_region_loads_to_remember: r.u_int(&s("numRegionLoadsToRemember"))?,
            min_cost_need_balance: r.float(&s("minCostNeedBalance"))?,
            region_count_cost: r.float(&s("regionCountCost"))?,
            primary_region_count_cost: r.float(&s("primaryRegionCountCost"))?,
            move_cost: r.float(&s("moveCost"))?,
            move_cost_offpeak: r.float(&s("moveCost.offpeak"))?,
            max_move_percent: r.float(&s("maxMovePercent"))?,
            locality_cost: r.float(&s("localityCost"))?,
            rack_locality_cost: r.float(&s("rackLocalityCost"))?,
            table_skew_cost: r.float(&s("tableSkewCost"))?,
            region_replica_host_cost: r.float(&s("regionReplicaHostCostKey"))?,
            region_replica_rack_cost: r.float(&s("regionReplicaRackCostKey"))?,
            read_request_cost: r.float(&s("readRequestCost"))?,
            write_request_cost: r.float(&s("writeRequestCost"))?,
            memstore_size_cost: r.float(&s("memstoreSizeCost"))?,
            storefile_size_cost: r.float(&s("storefileSizeCost"))?,
        };

        // Compaction throttle (CompactionThroughputControllerFactory,
        // PressureAwareCompactionThroughputController.setConf).
        let controller_key = "hbase.regionserver.throughput.controller";
        let controller_name = site
            .get(controller_key)?
            .unwrap_or_else(|| default_text(controller_key).to_string());
        let compaction_throughput_controller = ThroughputControllerClass::parse(&controller_name)
            .map_err(|p| {
                site.value_error(
                    controller_key,
                    p,
                    "PressureAwareCompactionThroughputController or NoLimitThroughputController (simple or full class name)",
                )
            })?;
        let bound = |key: &str, at: &str| -> Result<u64, InputError> {
            let v = r.bytes(key)?;
            if v > 0 || compaction_throughput_controller == ThroughputControllerClass::NoLimit {
                return Ok(v.max(0) as u64);
            }
            Err(site.value_error(
                key,
                format!(
                    "{v} bytes/s: HBase's compactions would sleep without end (or never be throttled, if negative) at compaction pressure {at}"
                ),
                "a rate in bytes per second greater than 0, e.g. 52428800",
            ))
        };
        let compaction_throughput_lower_bound =
            bound("hbase.hstore.compaction.throughput.lower.bound", "0")?;
        let compaction_throughput_higher_bound =
            bound("hbase.hstore.compaction.throughput.higher.bound", "1")?;
        let tune_period = r.millis("hbase.hstore.compaction.throughput.tune.period")?;
        let compaction_throughput_check_interval =
            match site.get("hbase.hstore.compaction.throughput.control.check.interval")? {
                None => compaction_throughput_lower_bound,
                Some(_) => r
                    .bytes("hbase.hstore.compaction.throughput.control.check.interval")?
                    .max(0) as u64,
            };

        let wake_frequency_ms = r.u_millis("hbase.server.thread.wakefrequency")?;
        let compaction_max_size = r.u_bytes("hbase.hstore.compaction.max.size")?;
        let balancer_period_ms = r.u_millis("hbase.balancer.period")?;
        // A WAL that rolls every few bytes (a multiplier of 0, or a tiny block) rolls on every
        // write: the run would take minutes for a gigabyte and say nothing about HBase.
        let wal_block_size = r.optional("hbase.regionserver.hlog.blocksize", Reader::u_bytes)?;
        let logroll_multiplier = r.float("hbase.regionserver.logroll.multiplier")?;
        let roll = wal_block_size.unwrap_or(2 * (128 << 20)) as f64 * f64::from(logroll_multiplier);
        // NaN (an unparsable product) is refused too.
        if roll.is_nan() || roll < MIN_WAL_ROLL_BYTES as f64 {
            let multiplier_key = "hbase.regionserver.logroll.multiplier";
            let key = if site.get(multiplier_key)?.is_some() || wal_block_size.is_none() {
                multiplier_key
            } else {
                "hbase.regionserver.hlog.blocksize"
            };
            return Err(site.value_error(
                key,
                format!(
                    "a WAL would roll every {} bytes (WAL block size {} × logroll.multiplier \
                     {logroll_multiplier}): every write would roll it",
                    roll.max(0.0) as u64,
                    wal_block_size.unwrap_or(2 * (128 << 20))
                ),
                "a WAL block size × hbase.regionserver.logroll.multiplier of at least 1 MiB \
                 (HBase's default: 256 MiB × 0.5)",
            ));
        }
        let settings = Settings {
            max_filesize,
            max_filesize_jitter: r.double("hbase.hregion.max.filesize.jitter")?,
            split_overallfiles: r.bool("hbase.hregion.split.overallfiles")?,
            split_policy,
            key_prefix_length,
            prefix_delimiter,
            split_restriction,
            increasing_initial_size,
            region_split_limit: r.u_int("hbase.regionserver.regionSplitLimit")?,
            split_ignore_blocking: r.bool("hbase.hregion.split.ignore.blocking.enabled")?,
            auto_separate_children: r
                .bool("hbase.master.auto.separate.child.regions.after.split.enabled")?,
            busy_blocked_requests,
            busy_min_age_ms: r.u_millis("hbase.busy.policy.minAge")?,
            busy_agg_window_ms: busy_agg_window as u64,
            flush_size,
            block_multiplier,
            blocking_memstore_size: flush_size.saturating_mul(block_multiplier),
            preclose_flush_size: r.u_bytes("hbase.hregion.preclose.flush.size")?,
            per_cf_flush_lower_bound_min: r
                .u_bytes("hbase.hregion.percolumnfamilyflush.size.lower.bound.min")?,
            global_memstore_fraction: global,
            global_memstore_lower_limit: lower,
            block_cache_fraction,
            global_memstore_bytes: r.optional(
                "hbase.regionserver.global.memstore.memory.size",
                Reader::u_bytes,
            )?,
            flush_interval_ms: (interval > 0).then_some(interval as u64),
            periodic_flush_delay_range_ms: delay_range_s as u64 * 1000,
            master_procedure_threads,
            flush_per_changes,
            flusher_count: r.at_least_one("hbase.hstore.flusher.count")?,
            blocking_store_files: r.u_int("hbase.hstore.blockingStoreFiles")?,
            blocking_wait_ms: r.u_millis("hbase.hstore.blockingWaitTime")?,
            mslab_enabled: r.bool("hbase.hregion.memstore.mslab.enabled")?,
            mslab_chunk_size: r.u_bytes("hbase.hregion.memstore.mslab.chunksize")?,
            mslab_max_allocation: r.u_bytes("hbase.hregion.memstore.mslab.max.allocation")?,
            wake_frequency_ms,
            flush_check_period_ms: r
                .optional("hbase.regionserver.flush.check.period", Reader::u_millis)?
                .unwrap_or(wake_frequency_ms),
            compaction_check_period_ms: r
                .optional(
                    "hbase.regionserver.compaction.check.period",
                    Reader::u_millis,
                )?
                .unwrap_or(wake_frequency_ms),
            compactchecker_interval_multiplier: r
                .u_int("hbase.server.compactchecker.interval.multiplier")?,
            compaction_min_files: min_files as u32,
            compaction_max_files: r.u_int("hbase.hstore.compaction.max")?,
            compaction_min_size,
            compaction_max_size,
            compaction_max_size_offpeak: r
                .optional("hbase.hstore.compaction.max.size.offpeak", Reader::u_bytes)?
                .unwrap_or(compaction_max_size),
            compaction_ratio: r.float("hbase.hstore.compaction.ratio")?,
            compaction_ratio_offpeak: r.float("hbase.hstore.compaction.ratio.offpeak")?,
            offpeak_hours,
            major_compaction_period_ms: r.u_millis("hbase.hregion.majorcompaction")?,
            major_compaction_jitter: r.float("hbase.hregion.majorcompaction.jitter")?,
            delete_expired_storefile: r.bool("hbase.store.delete.expired.storefile")?,
            compaction_throttle: r.u_bytes("hbase.regionserver.thread.compaction.throttle")?,
            discharger_interval_ms: r
                .millis("hbase.hfile.compaction.discharger.interval")?
                .max(1) as u64,
            client: ClientSettings {
                write_buffer: r.u_bytes("hbase.client.write.buffer")?.max(1),
                pause_ms: r.u_millis("hbase.client.pause")?,
                retries: r.u_int("hbase.client.retries.number")?,
                operation_timeout_ms: r.u_millis("hbase.client.operation.timeout")?,
                max_total_tasks: r.at_least_one("hbase.client.max.total.tasks")?,
                max_perserver_tasks: r.at_least_one("hbase.client.max.perserver.tasks")?,
                max_perregion_tasks: r.at_least_one("hbase.client.max.perregion.tasks")?,
                handlers: r.at_least_one("hbase.regionserver.handler.count")?,
                replication: r.at_least_one("dfs.replication")?,
                scanner_caching: r.positive_int("hbase.client.scanner.caching")?,
                scanner_max_result_size: r.u_bytes("hbase.client.scanner.max.result.size")?.max(1),
                server_scanner_max_result_size: r
                    .u_bytes("hbase.server.scanner.max.result.size")?
                    .max(1),
            },
            bulk_load: BulkLoadSettings {
                max_files_per_region_family: r
                    .at_least_one("hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily")?,
                retries: r.u_int("hbase.bulkload.retries.number")?,
                assign_seq_ids: r.bool("hbase.mapreduce.bulkload.assign.sequenceNumbers")?,
                compact_after: r.bool("hbase.compaction.after.bulkload.enable")?,
                locality_sensitive: r.bool("hbase.bulkload.locality.sensitive.enabled")?,
                loader_threads: match site.get("hbase.loadincremental.threads.max")? {
                    Some(_) => Some(r.at_least_one("hbase.loadincremental.threads.max")?),
                    None => None,
                },
                job_roll_size: r.u_bytes("hbase.hregion.max.filesize")?.max(1),
            },
            small_compaction_threads: {
                let key = "hbase.regionserver.thread.compaction.small";
                let v = r.int(key)?;
                if v < 1 {
                    return Err(site.value_error(
                        key,
                        format!("{v} small-compaction threads: CompactSplit refuses to start"),
                        "at least 1",
                    ));
                }
                v as u32
            },
            large_compaction_threads: r
                .at_least_one("hbase.regionserver.thread.compaction.large")?,
            compaction_throughput_controller,
            compaction_throughput_lower_bound,
            compaction_throughput_higher_bound,
            compaction_throughput_offpeak: r
                .bytes("hbase.hstore.compaction.throughput.offpeak")?
                .max(0) as u64,
            compaction_throughput_tune_period_ms: (tune_period > 0).then_some(tune_period as u64),
            compaction_throughput_check_interval,
            balancer_period_ms,
            balancer_max_balancing_ms: r
                .optional("hbase.balancer.max.balancing", Reader::u_millis)?
                .unwrap_or(balancer_period_ms),
            slop: r.float("hbase.regions.slop")?,
            max_rit_percent: r.double("hbase.master.balancer.maxRitPercent")?,
            balancer,
            compaction_policy,
            date_tiered,
            balance_by_table: r.bool("hbase.master.loadbalance.bytable")?,
            stochastic,
            normalization_enabled,
            normalizer_period_ms: r.u_millis("hbase.normalizer.period")?,
            normalizer_split_enabled: r.bool("hbase.normalizer.split.enabled")?,
            normalizer_merge_enabled: r.bool("hbase.normalizer.merge.enabled")?,
            merge_min_region_count: merge_min_region_count as u32,
            merge_min_region_age_days: merge_age as u32,
            merge_min_region_size_mb: merge_size as u64,
            merge_max_regions: {
                let v = r.long("hbase.normalizer.merge.merge_request_max_number_of_regions")?;
                r.non_negative(
                    "hbase.normalizer.merge.merge_request_max_number_of_regions",
                    v,
                )?
            },
            normalizer_plans_size_limit_mb: r
                .optional("hbase.normalizer.plans_size_limit.mb", Reader::u_long)?,
            normalizer_target_region_size_mb: table
                .normalizer_target_region_size_mb
                .as_ref()
                .map(|a| a.value)
                .filter(|&v| v > 0),
            normalizer_target_region_count: table
                .normalizer_target_region_count
                .as_ref()
                .map(|a| a.value)
                .filter(|&v| v > 0),
            normalizer_table: NormalizerTableValues {
                split_enabled: table.normalizer_split_enabled.as_ref().map(|a| a.value),
                merge_enabled: table.normalizer_merge_enabled.as_ref().map(|a| a.value),
                merge_min_region_count: table
                    .normalizer_merge_min_region_count
                    .as_ref()
                    .map(|a| a.value),
                merge_min_region_age_days: table
                    .normalizer_merge_min_region_age_days
                    .as_ref()
                    .map(|a| a.value),
                merge_min_region_size_mb: table
                    .normalizer_merge_min_region_size_mb
                    .as_ref()
                    .map(|a| a.value),
            },
            default_block_size: DEFAULT_BLOCKSIZE,
            hfile_format_version: r.u_int("hfile.format.version")?,
            index_block_max_size: r.u_bytes("hfile.index.block.max.size")?,
            index_block_min_entries: r.u_int("hfile.index.block.min.entries")?,
            client_keyvalue_maxsize: r.u_bytes("hbase.client.keyvalue.maxsize")?,
            server_keyvalue_maxsize: r.u_bytes("hbase.server.keyvalue.maxsize")?,
            max_logs,
            wal_block_size,
            logroll_multiplier,
            logroll_period_ms: r.u_millis("hbase.regionserver.logroll.period")?,
            warnings: Vec::new(),
        };
        Ok(Settings {
            warnings: r.warnings,
            ..settings
        })
    }
}

/// The error for a size that fails HBase's table sanity check, placed at the table attribute
/// when it supplied the value, else at the site key.
fn size_error(
    site: &SiteConfig,
    attr: Option<&Attr<u64>>,
    attr_name: &str,
    key: &str,
    msg: String,
    expected: &str,
) -> InputError {
    match attr {
        Some(a) => attr_error(a, attr_name, msg, expected),
        None => site.value_error(key, msg, expected),
    }
}

/// HBase's start-up check of memstore + block cache heap fractions (`MemorySizeUtil.
/// validateRegionServerHeapMemoryAllocation`, branch-2.6): `(int)(memstore × 100) +
/// (int)(block cache × 100)` must not exceed `100 − (int)(0.2 × 100)` = 80. `memstore` is the
/// fraction after HBase's own correction (values outside (0, 0.8] become 0.4). We model the
/// fraction keys only, not the absolute `*.memory.size` byte keys.
fn check_heap_allocation(
    site: &SiteConfig,
    memstore: f32,
    block_cache: f32,
) -> Result<(), InputError> {
    // Java: `(int) (fraction * 100)` in float arithmetic, truncating toward zero.
    let percent = |f: f32| (f * 100.0_f32) as i32;
    let used = percent(memstore) + percent(block_cache);
    let max_used = 100 - percent(MINIMUM_FREE_HEAP_FRACTION);
    if used <= max_used {
        return Ok(());
    }
    let origin = |key: &str| {
        site.origin(key)
            .map_or_else(|| "default".to_string(), |o| o.to_string())
    };
    let problem = format!(
        "{GLOBAL_MEMSTORE_KEY} = {memstore} (from {}) plus {BLOCK_CACHE_KEY} = {block_cache} (from {}) \
         use {used}% of the heap; HBase needs 20% free (HConstants.HBASE_CLUSTER_MINIMUM_MEMORY_THRESHOLD) \
         and the RegionServer refuses to start (MemorySizeUtil)",
        origin(GLOBAL_MEMSTORE_KEY),
        origin(BLOCK_CACHE_KEY),
    );
    // Place the error at whichever of the two keys was set away from its default (the block
    // cache key when both were).
    let at = if matches!(site.origin(BLOCK_CACHE_KEY), Some(o) if *o != Origin::Default)
        || matches!(
            site.origin(GLOBAL_MEMSTORE_KEY),
            None | Some(Origin::Default)
        ) {
        BLOCK_CACHE_KEY
    } else {
        GLOBAL_MEMSTORE_KEY
    };
    Err(site.value_error(
        at,
        problem,
        "hbase.regionserver.global.memstore.size + hfile.block.cache.size <= 0.8, e.g. 0.4 + 0.4",
    ))
}

/// Hadoop's getBoolean turns anything but true/false into the default without a word; we say so.
fn lenient_bool_warnings(site: &SiteConfig, warnings: &mut Vec<String>) {
    for spec in keys::KEYS.iter().filter(|k| k.kind == Kind::Bool) {
        if let Ok(Some(v)) = site.get(spec.name)
            && parse_java_bool(&v).is_none()
        {
            warnings.push(format!(
                "{}: `{v}` is neither true nor false; HBase uses the default {}",
                spec.name,
                spec.default.unwrap_or("false")
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_policy_names_full_and_simple() {
        assert_eq!(
            SplitPolicy::parse("org.apache.hadoop.hbase.regionserver.SteppingSplitPolicy"),
            Ok(SplitPolicy::Stepping)
        );
        assert_eq!(
            SplitPolicy::parse(" DisabledRegionSplitPolicy "),
            Ok(SplitPolicy::Disabled)
        );
        for p in SplitPolicy::ALL {
            assert_eq!(SplitPolicy::parse(&p.class_name()), Ok(p));
            assert_eq!(SplitPolicy::parse(p.simple_name()), Ok(p));
        }
        assert!(SplitPolicy::parse("org.apache.hadoop.hbase.SteppingSplitPolicy").is_err());
        assert!(SplitPolicy::parse("steppingsplitpolicy").is_err());
        assert!(SplitPolicy::expected().contains("BusyRegionSplitPolicy"));
    }

    #[test]
    fn balancer_names() {
        assert_eq!(
            BalancerClass::parse("org.apache.hadoop.hbase.master.balancer.SimpleLoadBalancer"),
            Ok(BalancerClass::Simple)
        );
        assert_eq!(
            BalancerClass::parse("StochasticLoadBalancer"),
            Ok(BalancerClass::Stochastic)
        );
        assert!(BalancerClass::parse("FavoredStochasticBalancer").is_err());
        assert_eq!(BalancerClass::parse("none"), Ok(BalancerClass::Off));
        assert_eq!(BalancerClass::parse("off"), Ok(BalancerClass::Off));
        assert_eq!(BalancerClass::Off.simple_name(), "off");
    }
}
