//! The modelled keys: every HBase property the emulator reads, with HBase 2.6's default, its type,
//! and the HBase class that reads it. One table, in display order (grouped by subsystem), so
//! `SiteConfig::with_defaults`, `effective()` and the fixture test all agree.
//!
//! "Default" means what a stock HBase 2.6 RegionServer/Master ends up using: the value of
//! `hbase-default.xml` when it has one, else the code default (where the XML value is empty, e.g.
//! `hbase.regionserver.global.memstore.size`, Hadoop leaves the property unset and HBase's
//! `getFloat(key, 0.4f)` applies its code default, so our default is the code default). A `None`
//! default means HBase leaves the key unset and derives the value from other keys (see `derived`).

/// How HBase reads a key (and so how we parse it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `getLong` of a byte count; we also accept units like `2GB` (binary).
    Bytes,
    /// `getLong`.
    Long,
    /// `getInt` (32-bit).
    Int,
    /// `getFloat` (32-bit, Java `Float.parseFloat`, so `1.2F` is accepted).
    Float,
    /// `getDouble`.
    Double,
    /// `getBoolean`: `true`/`false`, any case; anything else means the default.
    Bool,
    /// A Java class name (`getClass` / `get`).
    Class,
    /// Free text (`get`), e.g. a type name or a delimiter.
    Text,
    /// `getLong`/`getInt` of milliseconds; we also accept units like `15m`.
    Millis,
}

impl Kind {
    /// A short name for listings.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Bytes => "bytes",
            Kind::Long => "long",
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Double => "double",
            Kind::Bool => "bool",
            Kind::Class => "class",
            Kind::Text => "string",
            Kind::Millis => "ms",
        }
    }
}

/// How `hbase-default.xml` (branch-2.6) carries a key; checked by the fixture test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InXml {
    /// Present with the same value as our default.
    Same,
    /// Present with an empty `<value>`: unset, the code default applies.
    Empty,
    /// Not in the file: the code default applies.
    Absent,
}

/// One modelled key.
#[derive(Debug, Clone, Copy)]
pub struct KeySpec {
    /// HBase property name.
    pub name: &'static str,
    /// HBase 2.6's effective default as text; `None` when HBase derives it from other keys.
    pub default: Option<&'static str>,
    /// How the value is read.
    pub kind: Kind,
    /// How hbase-default.xml carries it.
    pub xml: InXml,
    /// Subsystem, for grouped listings.
    pub group: &'static str,
    /// One line: what it controls.
    pub description: &'static str,
    /// The HBase class that reads it.
    pub read_by: &'static str,
    /// For `default: None`: how HBase derives the value.
    pub derived: Option<&'static str>,
}

const fn k(
    name: &'static str,
    default: &'static str,
    kind: Kind,
    xml: InXml,
    group: &'static str,
    read_by: &'static str,
    description: &'static str,
) -> KeySpec {
    KeySpec {
        name,
        default: Some(default),
        kind,
        xml,
        group,
        description,
        read_by,
        derived: None,
    }
}

const fn derived(
    name: &'static str,
    kind: Kind,
    xml: InXml,
    group: &'static str,
    read_by: &'static str,
    description: &'static str,
    how: &'static str,
) -> KeySpec {
    KeySpec {
        name,
        default: None,
        kind,
        xml,
        group,
        description,
        read_by,
        derived: Some(how),
    }
}

use InXml::{Absent, Empty, Same};
use Kind::{Bool, Bytes, Class, Double, Float, Int, Long, Millis, Text};

/// Stochastic balancer key prefix.
pub const STOCHASTIC: &str = "hbase.master.balancer.stochastic.";

/// Every modelled key, grouped: split, flush/memstore, compaction, balancer, normalizer, HFile, WAL.
#[rustfmt::skip]
pub const KEYS: &[KeySpec] = &[
    // --- split ---
    k("hbase.hregion.max.filesize", "10737418240", Bytes, Same, "split", "ConstantSizeRegionSplitPolicy",
      "store size above which a region splits (table MAX_FILESIZE wins when > 0)"),
    k("hbase.hregion.max.filesize.jitter", "0.25", Double, Absent, "split", "ConstantSizeRegionSplitPolicy",
      "random spread applied once per region open to the split size, +/- jitter/2"),
    k("hbase.hregion.split.overallfiles", "false", Bool, Same, "split", "ConstantSizeRegionSplitPolicy",
      "compare the sum of all stores, not the largest store, with the split size"),
    k("hbase.regionserver.region.split.policy", "org.apache.hadoop.hbase.regionserver.SteppingSplitPolicy",
      Class, Same, "split", "RegionSplitPolicy", "split policy class (table SPLIT_POLICY wins)"),
    derived("hbase.increasing.policy.initial.size", Bytes, Absent, "split", "IncreasingToUpperBoundRegionSplitPolicy",
      "first split size of the increasing/stepping policies", "2 x memstore flush size (table's if set)"),
    k("hbase.regionserver.regionSplitLimit", "1000", Int, Same, "split", "CompactSplit",
      "no automatic split once a RegionServer holds this many regions"),
    k("hbase.hregion.split.ignore.blocking.enabled", "false", Bool, Absent, "split", "HRegion",
      "let a region split even while a store has blockingStoreFiles files"),
    k("hbase.master.auto.separate.child.regions.after.split.enabled", "false", Bool, Absent, "split",
      "SplitTableRegionProcedure", "open the two daughters on different RegionServers"),
    k("hbase.busy.policy.blockedRequests", "0.2", Float, Absent, "split", "BusyRegionSplitPolicy",
      "blocked-write fraction that makes BusyRegionSplitPolicy split (reset to 0.2 outside [0.00001, 0.99999])"),
    k("hbase.busy.policy.minAge", "600000", Millis, Absent, "split", "BusyRegionSplitPolicy",
      "minimum region age before a busy split"),
    k("hbase.busy.policy.aggWindow", "300000", Millis, Absent, "split", "BusyRegionSplitPolicy",
      "window over which the blocked-write rate is averaged"),
    k("hbase.regionserver.region.split_restriction.type", "None", Text, Absent, "split", "RegionSplitRestriction",
      "cut every split point: None, KeyPrefix or DelimitedKeyPrefix (the table attribute of the same name wins)"),
    derived("hbase.regionserver.region.split_restriction.prefix_length", Int, Absent, "split",
      "KeyPrefixRegionSplitRestriction", "KeyPrefix restriction: split points keep this many leading bytes",
      "unset: the KeyPrefix restriction cuts nothing"),
    derived("hbase.regionserver.region.split_restriction.delimiter", Text, Absent, "split",
      "DelimitedKeyPrefixRegionSplitRestriction", "DelimitedKeyPrefix restriction: split points end before its first occurrence",
      "unset: the DelimitedKeyPrefix restriction cuts nothing"),
    k("hbase.table.sanity.checks", "true", Bool, Absent, "split", "TableDescriptorChecker",
      "refuse tables whose max file size < 2 MiB or flush size < 1 MiB"),
    // --- flush and memstore ---
    k("hbase.hregion.memstore.flush.size", "134217728", Bytes, Same, "flush", "HRegion",
      "memstore heap size that triggers a region flush (table MEMSTORE_FLUSHSIZE wins when > 0)"),
    k("hbase.hregion.memstore.block.multiplier", "4", Long, Same, "flush", "HRegion",
      "writes block with RegionTooBusy at flush size x this"),
    k("hbase.hregion.preclose.flush.size", "5242880", Bytes, Same, "flush", "HRegion",
      "pre-flush before closing a region whose memstore holds more than this"),
    k("hbase.hregion.percolumnfamilyflush.size.lower.bound.min", "16777216", Bytes, Same, "flush",
      "FlushLargeStoresPolicy", "floor of the per-family flush threshold (flush size / families)"),
    k("hbase.regionserver.global.memstore.size", "0.4", Float, Empty, "flush", "MemorySizeUtil",
      "fraction of the heap all memstores may use before writes block (valid (0, 0.8])"),
    k("hbase.regionserver.global.memstore.size.lower.limit", "0.95", Float, Empty, "flush", "MemorySizeUtil",
      "fraction of the global limit at which forced flushing starts"),
    k("hfile.block.cache.size", "0.4", Float, Same, "flush", "MemorySizeUtil",
      "fraction of the heap for the block cache; with the global memstore fraction at most 0.8 (else the RegionServer refuses to start)"),
    derived("hbase.regionserver.global.memstore.memory.size", Bytes, Empty, "flush", "MemorySizeUtil",
      "absolute size of all memstores (overrides the heap fraction when set)",
      "hbase.regionserver.global.memstore.size x max heap"),
    k("hbase.regionserver.optionalcacheflushinterval", "3600000", Millis, Same, "flush", "HRegion",
      "flush a memstore whose oldest edit is older than this (0 disables)"),
    k("hbase.regionserver.periodicmemstoreflusher.rangeofdelayseconds", "300", Int, Absent, "flush", "HRegionServer.PeriodicMemStoreFlusher",
      "a periodic flush request waits a random delay below this many seconds (must be > 0)"),
    k("hbase.regionserver.flush.per.changes", "30000000", Long, Absent, "flush", "HRegion",
      "flush after this many edits since the last flush (at most 1e9)"),
    k("hbase.hstore.flusher.count", "2", Int, Same, "flush", "MemStoreFlusher",
      "number of flush threads per RegionServer"),
    k("hbase.hstore.blockingStoreFiles", "16", Int, Same, "flush", "HStore",
      "a store with more files than this delays flushes and blocks splits"),
    k("hbase.hstore.blockingWaitTime", "90000", Millis, Same, "flush", "MemStoreFlusher",
      "longest a flush is delayed by too many store files"),
    k("hbase.hregion.memstore.mslab.enabled", "true", Bool, Same, "flush", "MemStoreLAB",
      "copy cells into memstore chunks (changes per-cell heap size)"),
    k("hbase.hregion.memstore.mslab.chunksize", "2097152", Bytes, Same, "flush", "ChunkCreator",
      "size of one MSLAB chunk"),
    k("hbase.hregion.memstore.mslab.max.allocation", "262144", Bytes, Same, "flush", "MemStoreLABImpl",
      "cells larger than this are not copied into MSLAB chunks"),
    k("hbase.server.thread.wakefrequency", "10000", Millis, Same, "flush", "HRegionServer",
      "period of the flush and compaction checker chores"),
    derived("hbase.regionserver.flush.check.period", Millis, Absent, "flush", "HRegionServer",
      "period of the periodic-flush checker chore", "= hbase.server.thread.wakefrequency"),
    derived("hbase.regionserver.compaction.check.period", Millis, Absent, "compaction", "HRegionServer",
      "period of the compaction checker chore", "= hbase.server.thread.wakefrequency"),
    k("hbase.server.compactchecker.interval.multiplier", "1000", Int, Same, "compaction", "HRegionServer",
      "a store is checked for time-based compaction every this many checker runs"),
    // --- compaction ---
    k("hbase.hstore.defaultengine.compactionpolicy.class",
      "org.apache.hadoop.hbase.regionserver.compactions.ExploringCompactionPolicy", Class, Absent,
      "compaction", "DefaultStoreEngine",
      "compaction policy: ExploringCompactionPolicy, RatioBasedCompactionPolicy or FIFOCompactionPolicy (needs a TTL on every family and blockingStoreFiles >= 1000)"),
    k("hbase.hstore.engine.class", "org.apache.hadoop.hbase.regionserver.DefaultStoreEngine", Class, Absent,
      "compaction", "StoreEngine",
      "store engine: DefaultStoreEngine (the policy above) or DateTieredStoreEngine (DateTieredCompactionPolicy)"),
    k("hbase.hstore.compaction.date.tiered.base.window.millis", "21600000", Millis, Absent, "compaction",
      "ExponentialCompactionWindowFactory", "DateTiered: span of the newest (incoming) windows"),
    k("hbase.hstore.compaction.date.tiered.windows.per.tier", "4", Int, Absent, "compaction",
      "ExponentialCompactionWindowFactory", "DateTiered: windows of one size before the next tier's, this many times wider"),
    k("hbase.hstore.compaction.date.tiered.max.storefile.age.millis", "9223372036854775807", Millis, Absent,
      "compaction", "CompactionConfiguration", "DateTiered: files whose newest cell is older are left out of minor compactions"),
    derived("hbase.hstore.compaction.date.tiered.max.tier.age.millis", Millis, Absent, "compaction",
      "ExponentialCompactionWindowFactory", "DateTiered: windows older than this stop widening",
      "= hbase.hstore.compaction.date.tiered.max.storefile.age.millis"),
    k("hbase.hstore.compaction.date.tiered.incoming.window.min", "6", Int, Absent, "compaction",
      "CompactionConfiguration", "DateTiered: files the incoming window needs before it compacts"),
    k("hbase.hstore.compaction.date.tiered.single.output.for.minor.compaction", "true", Bool, Absent,
      "compaction", "CompactionConfiguration", "DateTiered: a minor compaction writes one file (false: split at its window's start)"),
    k("hbase.hstore.compaction.date.tiered.window.policy.class",
      "org.apache.hadoop.hbase.regionserver.compactions.ExploringCompactionPolicy", Class, Absent, "compaction",
      "CompactionConfiguration", "DateTiered: the selection inside a window (Exploring or RatioBased)"),
    k("hbase.hstore.compaction.date.tiered.window.factory.class",
      "org.apache.hadoop.hbase.regionserver.compactions.ExponentialCompactionWindowFactory", Class, Absent,
      "compaction", "CompactionConfiguration", "DateTiered: how windows are laid out (only the exponential factory is modelled)"),
    k("hbase.hstore.compactionThreshold", "3", Int, Same, "compaction", "CompactionConfiguration",
      "files needed before a minor compaction is considered"),
    derived("hbase.hstore.compaction.min", Int, Empty, "compaction", "CompactionConfiguration",
      "minimum files in a compaction", "max(2, hbase.hstore.compactionThreshold)"),
    k("hbase.hstore.compaction.max", "10", Int, Same, "compaction", "CompactionConfiguration",
      "maximum files in one minor compaction"),
    k("hbase.hstore.compaction.min.size", "134217728", Bytes, Same, "compaction", "CompactionConfiguration",
      "files smaller than this always qualify for compaction"),
    k("hbase.hstore.compaction.max.size", "9223372036854775807", Bytes, Same, "compaction",
      "CompactionConfiguration", "files larger than this are never compacted by a minor compaction"),
    derived("hbase.hstore.compaction.max.size.offpeak", Bytes, Absent, "compaction", "CompactionConfiguration",
      "max.size used during off-peak hours", "= hbase.hstore.compaction.max.size"),
    k("hbase.hstore.compaction.ratio", "1.2", Float, Same, "compaction", "CompactionConfiguration",
      "a file qualifies if its size <= ratio x the sum of the smaller newer files"),
    k("hbase.hstore.compaction.ratio.offpeak", "5.0", Float, Same, "compaction", "CompactionConfiguration",
      "the ratio used during off-peak hours"),
    k("hbase.offpeak.start.hour", "-1", Int, Same, "compaction", "OffPeakHours",
      "first off-peak hour (0-23; -1 disables off-peak)"),
    k("hbase.offpeak.end.hour", "-1", Int, Same, "compaction", "OffPeakHours",
      "end of off-peak hours (0-23; -1 disables off-peak)"),
    k("hbase.hregion.majorcompaction", "604800000", Millis, Same, "compaction", "CompactionConfiguration",
      "period of time-based major compactions (0 disables)"),
    k("hbase.store.delete.expired.storefile", "true", Bool, Absent, "compaction", "HStore",
      "drop a store file whose newest cell is past the family TTL without rewriting it"),
    k("hbase.hregion.majorcompaction.jitter", "0.5", Float, Same, "compaction", "CompactionConfiguration",
      "spread of the major compaction period, as a fraction of it"),
    k("hbase.regionserver.thread.compaction.throttle", "2684354560", Bytes, Same, "compaction", "CompactSplit",
      "compactions larger than this run on the large-compaction pool"),
    k("hbase.regionserver.thread.compaction.small", "1", Int, Absent, "compaction", "CompactSplit",
      "threads of the small-compaction pool"),
    k("hbase.regionserver.thread.compaction.large", "1", Int, Absent, "compaction", "CompactSplit",
      "threads of the large-compaction pool"),
    k("hbase.regionserver.throughput.controller",
      "org.apache.hadoop.hbase.regionserver.throttle.PressureAwareCompactionThroughputController", Class, Absent,
      "compaction", "CompactionThroughputControllerFactory",
      "compaction throttle: PressureAwareCompactionThroughputController or NoLimitThroughputController"),
    k("hbase.hstore.compaction.throughput.lower.bound", "52428800", Bytes, Same, "compaction",
      "PressureAwareCompactionThroughputController",
      "bytes/s all compactions of a RegionServer may write together at compaction pressure 0"),
    k("hbase.hstore.compaction.throughput.higher.bound", "104857600", Bytes, Same, "compaction",
      "PressureAwareCompactionThroughputController",
      "bytes/s at compaction pressure 1 (linear in between; above 1 compactions are not throttled)"),
    k("hbase.hstore.compaction.throughput.offpeak", "9223372036854775807", Bytes, Absent, "compaction",
      "PressureAwareCompactionThroughputController",
      "bytes/s all compactions of a RegionServer may write together during off-peak hours (pressure <= 1)"),
    k("hbase.hstore.compaction.throughput.tune.period", "60000", Millis, Absent, "compaction",
      "PressureAwareCompactionThroughputController",
      "how often the limit is re-tuned from the RegionServer's compaction pressure (<= 0: never)"),
    k("hbase.hfile.compaction.discharger.interval", "120000", Millis, Absent, "compaction",
      "CompactedHFilesDischarger",
      "period of the chore that archives compacted files; a compacted Reference blocks splits until then"),
    derived("hbase.hstore.compaction.throughput.control.check.interval", Bytes, Absent, "compaction",
      "PressureAwareThroughputController",
      "bytes a compaction writes between throttle checks; a last stretch shorter than this is not throttled",
      "= hbase.hstore.compaction.throughput.lower.bound"),
    // --- balancer ---
    k("hbase.master.procedure.threads", "16", Int, Absent, "balancer", "HMaster",
      "master procedure workers: concurrent split, merge and move procedures (HBase: max(16, cores/4); ≤ 0 means the default)"),
    k("hbase.balancer.period", "300000", Millis, Same, "balancer", "HMaster",
      "period of the balancer chore"),
    derived("hbase.balancer.max.balancing", Millis, Absent, "balancer", "HMaster",
      "longest time one balancer run may spend moving regions", "= hbase.balancer.period"),
    k("hbase.regions.slop", "0.2", Float, Same, "balancer", "BaseLoadBalancer",
      "balance when a server's region count is outside average +/- slop"),
    k("hbase.master.balancer.maxRitPercent", "1.0", Double, Same, "balancer", "HMaster",
      "largest fraction of regions in transition while balancing"),
    k("hbase.master.loadbalancer.class", "org.apache.hadoop.hbase.master.balancer.StochasticLoadBalancer",
      Class, Same, "balancer", "LoadBalancerFactory", "balancer implementation"),
    k("hbase.master.loadbalance.bytable", "false", Bool, Same, "balancer", "BaseLoadBalancer",
      "balance each table separately (one balanceTable per [[other_table]] and the designed table); false: all tables as one"),
    k("hbase.master.balancer.stochastic.maxSteps", "1000000", Int, Absent, "balancer",
      "StochasticLoadBalancer", "upper bound of steps per balancer run"),
    k("hbase.master.balancer.stochastic.stepsPerRegion", "800", Int, Absent, "balancer",
      "StochasticLoadBalancer", "steps per region (steps = min(maxSteps, regions x this))"),
    k("hbase.master.balancer.stochastic.runMaxSteps", "false", Bool, Absent, "balancer",
      "StochasticLoadBalancer", "always run maxSteps, ignoring the time limit"),
    k("hbase.master.balancer.stochastic.maxRunningTime", "30000", Millis, Absent, "balancer",
      "StochasticLoadBalancer", "time limit of one balancer run"),
    k("hbase.master.balancer.stochastic.numRegionLoadsToRemember", "15", Int, Absent, "balancer",
      "StochasticLoadBalancer", "region load samples kept per region"),
    k("hbase.master.balancer.stochastic.minCostNeedBalance", "0.025", Float, Absent, "balancer",
      "StochasticLoadBalancer", "skip balancing when the weighted cost is below this"),
    k("hbase.master.balancer.stochastic.regionCountCost", "500", Float, Absent, "balancer",
      "RegionCountSkewCostFunction", "weight of region-count skew"),
    k("hbase.master.balancer.stochastic.primaryRegionCountCost", "500", Float, Absent, "balancer",
      "PrimaryRegionCountSkewCostFunction", "weight of primary-replica count skew"),
    k("hbase.master.balancer.stochastic.moveCost", "7", Float, Absent, "balancer", "MoveCostFunction",
      "weight of moving regions"),
    k("hbase.master.balancer.stochastic.moveCost.offpeak", "3", Float, Absent, "balancer", "MoveCostFunction",
      "weight of moving regions during off-peak hours"),
    k("hbase.master.balancer.stochastic.maxMovePercent", "1.0", Float, Absent, "balancer", "MoveCostFunction",
      "largest fraction of regions moved per run (at least 600)"),
    k("hbase.master.balancer.stochastic.localityCost", "25", Float, Absent, "balancer",
      "ServerLocalityCostFunction", "weight of HDFS locality"),
    k("hbase.master.balancer.stochastic.rackLocalityCost", "15", Float, Absent, "balancer",
      "RackLocalityCostFunction", "weight of rack locality"),
    k("hbase.master.balancer.stochastic.tableSkewCost", "35", Float, Absent, "balancer",
      "TableSkewCostFunction", "weight of per-table skew"),
    k("hbase.master.balancer.stochastic.regionReplicaHostCostKey", "100000", Float, Absent, "balancer",
      "RegionReplicaHostCostFunction", "weight of replicas sharing a host"),
    k("hbase.master.balancer.stochastic.regionReplicaRackCostKey", "10000", Float, Absent, "balancer",
      "RegionReplicaRackCostFunction", "weight of replicas sharing a rack"),
    k("hbase.master.balancer.stochastic.readRequestCost", "5", Float, Absent, "balancer",
      "ReadRequestCostFunction", "weight of read-request skew"),
    k("hbase.master.balancer.stochastic.writeRequestCost", "5", Float, Absent, "balancer",
      "WriteRequestCostFunction", "weight of write-request skew"),
    k("hbase.master.balancer.stochastic.memstoreSizeCost", "5", Float, Absent, "balancer",
      "MemStoreSizeCostFunction", "weight of memstore-size skew"),
    k("hbase.master.balancer.stochastic.storefileSizeCost", "5", Float, Absent, "balancer",
      "StoreFileCostFunction", "weight of store-file-size skew"),
    // --- normalizer ---
    k("hbase.normalizer.period", "300000", Millis, Same, "normalizer", "HMaster",
      "period of the normalizer chore"),
    k("hbase.table.normalization.enabled", "false", Bool, Same, "normalizer", "SimpleRegionNormalizer",
      "normalize tables without NORMALIZATION_ENABLED"),
    k("hbase.normalizer.split.enabled", "true", Bool, Same, "normalizer", "SimpleRegionNormalizer",
      "the normalizer may split large regions"),
    k("hbase.normalizer.merge.enabled", "true", Bool, Same, "normalizer", "SimpleRegionNormalizer",
      "the normalizer may merge small regions"),
    k("hbase.normalizer.merge.min.region.count", "3", Int, Same, "normalizer", "SimpleRegionNormalizer",
      "tables with fewer regions are not merged"),
    k("hbase.normalizer.merge.min_region_age.days", "3", Int, Same, "normalizer", "SimpleRegionNormalizer",
      "regions younger than this are not merged"),
    k("hbase.normalizer.merge.min_region_size.mb", "1", Long, Same, "normalizer", "SimpleRegionNormalizer",
      "regions smaller than this (MB) are not merged (code default 0, XML 1)"),
    k("hbase.normalizer.merge.merge_request_max_number_of_regions", "100", Long, Same, "normalizer",
      "SimpleRegionNormalizer", "most regions merged by one plan"),
    derived("hbase.normalizer.plans_size_limit.mb", Long, Absent, "normalizer", "RegionNormalizerWorker",
      "limit on the total size of regions in the plans of one normalizer run", "unlimited"),
    // --- HFile and cells ---
    k("hfile.format.version", "3", Int, Same, "hfile", "HFile", "HFile format version"),
    k("hfile.index.block.max.size", "131072", Bytes, Same, "hfile", "HFileBlockIndex",
      "an index block is written out when it reaches this size"),
    k("hfile.index.block.min.entries", "16", Int, Absent, "hfile", "HFileBlockIndex",
      "minimum entries per index block before another level is added"),
    k("hbase.client.keyvalue.maxsize", "10485760", Bytes, Same, "hfile", "ConnectionConfiguration",
      "largest cell a client may send"),
    k("hbase.server.keyvalue.maxsize", "10485760", Bytes, Same, "hfile", "RSRpcServices",
      "largest cell a RegionServer accepts"),
    // --- client and server capacity ---
    k("hbase.client.write.buffer", "2097152", Bytes, Same, "client", "BufferedMutatorImpl",
      "bytes one writer buffers before it sends; writers' buffers full of held-back mutations stall the load"),
    k("hbase.client.pause", "100", Millis, Same, "client", "ConnectionUtils",
      "base pause before a retry, multiplied by HConstants.RETRY_BACKOFF[tries]"),
    k("hbase.client.retries.number", "15", Int, Same, "client", "AsyncProcess",
      "retries of a failed mutation before the operation fails"),
    k("hbase.client.operation.timeout", "1200000", Millis, Same, "client", "AsyncProcess",
      "an operation that has been retried this long fails"),
    k("hbase.client.max.total.tasks", "100", Int, Same, "client", "SimpleRequestController",
      "concurrent mutation requests of one writer"),
    k("hbase.client.max.perserver.tasks", "2", Int, Same, "client", "SimpleRequestController",
      "concurrent mutation requests of one writer to one RegionServer"),
    k("hbase.client.max.perregion.tasks", "1", Int, Same, "client", "SimpleRequestController",
      "concurrent mutation requests of one writer to one region: later mutations wait behind a retried one"),
    k("hbase.client.scanner.caching", "2147483647", Int, Same, "client", "ConnectionConfiguration",
      "rows a scanner asks for per RPC (scan fan-out report); Integer.MAX_VALUE lets max.result.size decide"),
    k("hbase.client.scanner.max.result.size", "2097152", Bytes, Same, "client", "ConnectionConfiguration",
      "bytes one scanner RPC returns at most; the row crossing the limit is still sent (scan fan-out report)"),
    k("hbase.server.scanner.max.result.size", "104857600", Bytes, Same, "client", "RSRpcServices",
      "the RegionServer's cap on one scanner RPC's bytes, whatever the client asks (scan fan-out report)"),
    k("hbase.regionserver.handler.count", "30", Int, Same, "client", "RSRpcServices",
      "RPC handlers of a RegionServer: the requests it serves at once"),
    k("dfs.replication", "3", Int, Absent, "client", "HDFS (hdfs-default.xml)",
      "copies of every HDFS block: each byte a RegionServer writes lands on this many nodes' disks"),
    // --- WAL ---
    derived("hbase.regionserver.maxlogs", Int, Absent, "wal", "AbstractFSWAL",
      "WAL files before old regions are force-flushed",
      "max(32, 2 x global memstore bytes / (WAL block size x logroll.multiplier))"),
    derived("hbase.regionserver.hlog.blocksize", Bytes, Absent, "wal", "WALUtil",
      "WAL block size; a WAL rolls at logroll.multiplier x this",
      "2 x the HDFS block size (dfs.blocksize, 134217728) = 268435456"),
    k("hbase.regionserver.logroll.multiplier", "0.5", Float, Absent, "wal", "AbstractFSWAL",
      "a WAL rolls at this fraction of its block size"),
    k("hbase.regionserver.logroll.period", "3600000", Millis, Same, "wal", "AbstractWALRoller",
      "a WAL rolls at least this often"),
    // --- bulk load ---
    k("hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily", "32", Int, Absent, "bulkload",
      "BulkLoadHFilesTool", "the loader refuses the whole load when one family of one region would get more files"),
    k("hbase.bulkload.retries.number", "10", Int, Same, "bulkload", "BulkLoadHFilesTool",
      "rounds of grouping and loading before the loader gives up (raised to regions + 1; 0 = never)"),
    k("hbase.mapreduce.bulkload.assign.sequenceNumbers", "true", Bool, Absent, "bulkload",
      "BulkLoadHFilesTool", "a region flushes its memstore before it takes bulk-loaded files (HRegion.bulkLoadHFiles)"),
    k("hbase.compaction.after.bulkload.enable", "true", Bool, Same, "bulkload", "HRegion",
      "a store that needs compaction after a bulk load gets a request at once, not at the next compaction check"),
    k("hbase.bulkload.locality.sensitive.enabled", "true", Bool, Absent, "bulkload", "HFileOutputFormat2",
      "a job task writes its HFiles with the region's server as favored node (their first replica local to it)"),
    derived("hbase.loadincremental.threads.max", Int, Absent, "bulkload", "BulkLoadHFilesTool",
      "threads the loader groups, splits and loads files with",
      "the loading host's cores (Runtime.availableProcessors): the scenario's node cores"),
];

/// The spec of a modelled key.
pub fn spec(name: &str) -> Option<&'static KeySpec> {
    KEYS.iter().find(|k| k.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "a key is listed twice");
    }

    #[test]
    fn derived_keys_say_how_and_others_have_defaults() {
        for k in KEYS {
            assert_eq!(k.default.is_none(), k.derived.is_some(), "{}", k.name);
            assert!(
                !k.description.is_empty() && !k.read_by.is_empty(),
                "{}",
                k.name
            );
        }
    }

    #[test]
    fn stochastic_keys_use_the_prefix() {
        let n = KEYS
            .iter()
            .filter(|k| k.name.starts_with(STOCHASTIC))
            .count();
        assert_eq!(n, 20);
    }
}
