//! The report of `hbase-emu run`: per generator, what the table looks like after the load and
//! how the cluster got there. One serializable model feeds text, JSON and CSV (docs/REPORT.md).

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use crate::assignment::server_name;
use crate::engine::{RunResult, WINDOW_NS};
use crate::keynotation::to_string_binary;
use crate::report::{align_right, fit, table, thousands, wrap_prose};
use crate::scenario::Scenario;
use crate::units::{format_bytes, format_duration_ms};

/// Schema version of the JSON report.
pub const SCHEMA_VERSION: u32 = 1;
/// Text output lists at most this many regions and splits (JSON and CSV list all).
const TEXT_ROWS: usize = 40;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Schema version.
    pub schema_version: u32,
    /// The scenario.
    pub scenario: ScenarioJson,
    /// One per generator.
    pub runs: Vec<RunJson>,
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
    /// Per-RegionServer write bandwidth (WAL + memstore), bytes/s.
    pub write_bandwidth_bytes_per_s: u64,
    /// Per-RegionServer flush bandwidth, bytes/s.
    pub flush_bandwidth_bytes_per_s: u64,
    /// Ceiling of one unthrottled compaction, bytes read/s.
    pub compaction_bandwidth_bytes_per_s: u64,
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
    /// Emulated rows.
    pub emulated_rows: u64,
    /// Headline figures.
    pub summary: SummaryJson,
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
    /// Flushes postponed for too many store files.
    pub delayed_flushes: u64,
    /// Largest share of writes any one server took in any window.
    pub max_server_write_share: f64,
    /// Store file bytes at the end.
    pub store_bytes: u64,
    /// Unflushed memstore data bytes at the end.
    pub memstore_bytes: u64,
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
    /// The split size the settings give (hbase.hregion.max.filesize or MAX_FILESIZE), bytes.
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
    /// Why: the split policy's numbers, or the normalizer plan.
    #[serde(default)]
    pub reason: String,
}

/// Write concentration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HotspotsJson {
    /// Window length, simulated seconds.
    pub window_seconds: f64,
    /// Largest share any one server took in any window (windows with under 5 % of the mean
    /// window's writes, when the client was blocked, are left out).
    pub max_server_write_share: f64,
    /// Fraction of those windows in which some server took more than twice its fair share (2/N).
    pub time_over_twice_fair_share: f64,
    /// Per window: each server's share of that window's writes.
    pub windows: Vec<Vec<f64>>,
    /// The regions that received the most writes.
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
            flush_bandwidth_bytes_per_s: scenario.cluster.flush_bandwidth,
            compaction_bandwidth_bytes_per_s: scenario.cluster.compaction_bandwidth,
        },
        runs: runs.iter().map(run_json).collect(),
    }
}

fn run_json(r: &RunResult) -> RunJson {
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
    // Windows in which the client was nearly idle (blocked) say little about balance: only
    // windows with at least 5 % of the mean window's writes count.
    let totals: Vec<u64> = r.windows.iter().map(|w| w.iter().sum()).collect();
    let mean = totals.iter().sum::<u64>() / totals.len().max(1) as u64;
    let active: Vec<&Vec<f64>> = windows
        .iter()
        .zip(&totals)
        .filter(|&(_, &t)| t > 0 && t * 20 >= mean)
        .map(|(w, _)| w)
        .collect();
    let max_share = active
        .iter()
        .flat_map(|w| w.iter().copied())
        .fold(0.0, f64::max);
    let fair = 1.0 / n as f64;
    let over = active
        .iter()
        .filter(|w| w.iter().any(|&x| x > 2.0 * fair))
        .count();
    let time_over = if active.is_empty() {
        0.0
    } else {
        round4(over as f64 / active.len() as f64)
    };
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
            ratio_to_smallest: round4(reg.write_requests as f64 / min_writes as f64),
            generation: reg.generation,
            memstore_bytes: reg.memstore_data(),
            last_write_seconds: reg.last_write_ns.map(secs),
            read_requests: reg.read_requests,
        })
        .collect();
    let mut hot: Vec<&crate::engine::state::region::Region> = r.regions.iter().collect();
    hot.sort_by(|a, b| {
        b.write_requests
            .cmp(&a.write_requests)
            .then(a.start.cmp(&b.start))
    });
    let hottest_regions = hot
        .iter()
        .take(5)
        .map(|reg| HotRegionJson {
            start: to_string_binary(&reg.start),
            server: server_name(reg.server, n),
            write_share: round4(reg.write_requests as f64 / total_writes as f64),
        })
        .collect();
    let st = &r.stats;
    let store_bytes: u64 = r.regions.iter().map(|x| x.store_bytes()).sum();
    let wa = if st.flushed_file_bytes == 0 {
        0.0
    } else {
        round4(
            (st.flushed_file_bytes + st.compaction_written_bytes) as f64
                / st.flushed_file_bytes as f64,
        )
    };
    RunJson {
        generator: r.generator.clone(),
        describe: r.describe.clone(),
        scale: r.scale,
        emulated_rows: r.emulated_rows,
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
            write_amplification: wa,
            blocked_seconds: secs(st.blocked_ns),
            offline_seconds: secs(st.offline_ns),
            offline_wait_seconds: secs(st.offline_wait_ns),
            throttled_seconds: secs(st.throttled_ns),
            delayed_flushes: st.delayed_flushes,
            max_server_write_share: max_share,
            store_bytes,
            memstore_bytes: r.regions.iter().map(|x| x.memstore_data()).sum(),
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
            })
            .collect(),
        regions,
        region_sizes: SizesJson {
            min: hist.min(),
            p50: hist.value_at_quantile(0.5),
            p90: hist.value_at_quantile(0.9),
            max: hist.max(),
            cold_regions: cold,
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
                reason: sp.reason.clone(),
            })
            .collect(),
        hotspots: HotspotsJson {
            window_seconds: secs(WINDOW_NS),
            max_server_write_share: max_share,
            time_over_twice_fair_share: time_over,
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
                reason: m.reason.clone(),
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
                reason: m.reason.clone(),
            })
            .collect(),
        events: d
            .events
            .iter()
            .map(|e| EventJson {
                at_seconds: secs(e.at_ns),
                kind: e.kind.to_string(),
                detail: e.detail.clone(),
            })
            .collect(),
        balance: balance_json(r, &region_count),
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

    /// Regions of every run as CSV (one row per region, with the generator).
    pub fn regions_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "generator",
            "start",
            "end",
            "server",
            "store_bytes",
            "store_files",
            "rows",
            "write_requests",
            "ratio_to_smallest",
            "generation",
            "memstore_bytes",
        ]);
        for run in &self.runs {
            for r in &run.regions {
                let _ = w.write_record([
                    run.generator.clone(),
                    r.start.clone(),
                    r.end.clone(),
                    r.server.clone(),
                    r.store_bytes.to_string(),
                    r.store_files.to_string(),
                    r.rows.to_string(),
                    r.write_requests.to_string(),
                    r.ratio_to_smallest.to_string(),
                    r.generation.to_string(),
                    r.memstore_bytes.to_string(),
                ]);
            }
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// Splits of every run as CSV.
    pub fn splits_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "generator",
            "at_seconds",
            "offline_seconds",
            "parent_start",
            "parent_end",
            "split_key",
            "server",
            "parent_bytes",
            "generation",
        ]);
        for run in &self.runs {
            for s in &run.splits {
                let _ = w.write_record([
                    run.generator.clone(),
                    s.at_seconds.to_string(),
                    s.offline_seconds.to_string(),
                    s.parent_start.clone(),
                    s.parent_end.clone(),
                    s.split_key.clone(),
                    s.server.clone(),
                    s.parent_bytes.to_string(),
                    s.generation.to_string(),
                ]);
            }
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// Text for people.
    pub fn to_text(&self) -> String {
        let sc = &self.scenario;
        let mut o = String::new();
        o.push_str(&format!("Scenario  {}  (seed {})\n", sc.name, sc.seed));
        o.push_str(&format!(
            "Cluster   {} RegionServers; max region size {}, flush size {}, {}\n",
            sc.regionservers,
            format_bytes(sc.max_filesize),
            format_bytes(sc.flush_size),
            sc.split_policy
        ));
        o.push_str(&format!(
            "          per server: writes {}/s, flushes {}/s; one compaction at most {}/s \
             ([cluster] write/flush/compaction_bandwidth)\n",
            format_bytes(sc.write_bandwidth_bytes_per_s),
            format_bytes(sc.flush_bandwidth_bytes_per_s),
            format_bytes(sc.compaction_bandwidth_bytes_per_s)
        ));
        for run in &self.runs {
            run_text(&mut o, run);
        }
        if self.runs.len() > 1 {
            // One column per generator: stays within 100 columns for a handful of designs.
            o.push_str("\nComparison\n");
            let mut header = vec!["".to_string()];
            header.extend(self.runs.iter().map(|r| r.generator.clone()));
            let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
            let mut t = table(&header_refs);
            fit(&mut t);
            align_right(&mut t, &(1..=self.runs.len()).collect::<Vec<_>>());
            type Cell = fn(&RunJson) -> String;
            let rows: [(&str, Cell); 11] = [
                ("regions", |r| {
                    format!(
                        "{} → {}",
                        r.summary.regions_initial, r.summary.regions_final
                    )
                }),
                ("splits", |r| thousands(r.summary.splits as u128)),
                ("ingest time", |r| {
                    format_duration_ms((r.summary.sim_seconds * 1000.0) as u64)
                }),
                ("blocked", |r| {
                    format_duration_ms((r.summary.blocked_seconds * 1000.0) as u64)
                }),
                ("max server write share", |r| {
                    format!("{:.0}%", r.summary.max_server_write_share * 100.0)
                }),
                ("cold regions", |r| {
                    thousands(r.region_sizes.cold_regions as u128)
                }),
                ("regions no longer written", |r| {
                    thousands(r.region_sizes.quiet_regions as u128)
                }),
                ("… their median / split size", |r| {
                    let z = &r.region_sizes;
                    if z.quiet_regions == 0 || z.split_size == 0 {
                        "-".to_string()
                    } else {
                        format!("{:.0}%", z.quiet_p50 as f64 * 100.0 / z.split_size as f64)
                    }
                }),
                ("region size p50", |r| format_bytes(r.region_sizes.p50)),
                ("region size max", |r| format_bytes(r.region_sizes.max)),
                ("write amplification", |r| {
                    format!("{:.2}", r.summary.write_amplification)
                }),
            ];
            for (name, cell) in rows {
                let mut row = vec![name.to_string()];
                row.extend(self.runs.iter().map(cell));
                t.add_row(row);
            }
            o.push_str(&t.to_string());
            o.push('\n');
        }
        wrap_prose(&o)
    }
}

fn run_text(o: &mut String, run: &RunJson) {
    let s = &run.summary;
    o.push_str(&format!("\n=== {} — {}\n", run.generator, run.describe));
    o.push_str(&format!(
        "  {} rows, {} payload ({} as KeyValues); scale: 1 emulated row = {} real rows ({} emulated)\n",
        thousands(s.rows as u128),
        format_bytes(s.bytes.min(u64::MAX as u128) as u64),
        format_bytes(s.data_bytes.min(u64::MAX as u128) as u64),
        thousands(run.scale as u128),
        thousands(run.emulated_rows as u128)
    ));
    // The client is one stream: its time is writing at the offered rate plus its three waits.
    let writing =
        (s.sim_seconds - s.blocked_seconds - s.offline_wait_seconds - s.throttled_seconds).max(0.0);
    o.push_str(&format!(
        "  ingest {} (settled {}): {} writing at the offered rate, plus blocked {}, waiting on offline regions {}, throttled by server bandwidth {}\n",
        format_duration_ms((s.sim_seconds * 1000.0) as u64),
        format_duration_ms((s.settle_seconds * 1000.0) as u64),
        format_duration_ms((writing * 1000.0) as u64),
        format_duration_ms((s.blocked_seconds * 1000.0) as u64),
        format_duration_ms((s.offline_wait_seconds * 1000.0) as u64),
        format_duration_ms((s.throttled_seconds * 1000.0) as u64),
    ));
    o.push_str(&format!(
        "  regions {} → {} ({} splits; regions offline {} in all)\n",
        s.regions_initial,
        s.regions_final,
        s.splits,
        format_duration_ms((s.offline_seconds * 1000.0) as u64)
    ));
    o.push_str(&format!(
        "  flushes {} (avg {}), compactions {} minor + {} major rewriting {}, write amplification {:.2}, {} flushes delayed by too many files\n",
        thousands(s.flushes as u128),
        format_bytes(s.avg_flush_bytes),
        s.minor_compactions,
        s.major_compactions,
        format_bytes(s.compacted_bytes),
        s.write_amplification,
        s.delayed_flushes
    ));
    let z = &run.region_sizes;
    o.push_str(&format!(
        "  region sizes: min {}, p50 {}, p90 {}, max {}; cold regions (no writes in the last 10% of the load, under half the split size): {}\n",
        format_bytes(z.min),
        format_bytes(z.p50),
        format_bytes(z.p90),
        format_bytes(z.max),
        z.cold_regions
    ));
    if z.quiet_regions > 0 && z.split_size > 0 {
        o.push_str(&format!(
            "  {} of {} regions stopped receiving writes before the last 10% of the load; their median size {} is {:.0}% of the split size {}\n",
            thousands(z.quiet_regions as u128),
            thousands(run.regions.len() as u128),
            format_bytes(z.quiet_p50),
            z.quiet_p50 as f64 * 100.0 / z.split_size as f64,
            format_bytes(z.split_size)
        ));
    }
    let h = &run.hotspots;
    o.push_str(&format!(
        "  hotspots: max server write share {:.1}% in a {}-s window; some server above twice its fair share in {:.0}% of windows\n",
        h.max_server_write_share * 100.0,
        h.window_seconds,
        h.time_over_twice_fair_share * 100.0
    ));
    o.push_str(&format!(
        "  in short: {}\n",
        crate::report::html::verdict(run, run.servers.len())
    ));
    let b = &run.balance;
    if !b.balancer.is_empty() {
        o.push_str(&format!(
            "  balance: {} ran {} time(s) and moved {} region(s); regions per server at the end {}..{} (mean {:.1}); {}; {} move(s), {} merge(s) in all\n",
            b.balancer,
            b.balancer_runs,
            b.balancer_moves,
            b.min_regions_per_server,
            b.max_regions_per_server,
            b.mean_regions_per_server,
            match b.all_servers_hosting_seconds {
                Some(0.0) => "every server hosted a region from the start".to_string(),
                Some(t) => format!(
                    "every server hosted a region after {}",
                    format_duration_ms((t * 1000.0) as u64)
                ),
                None => "some server never hosted a region".to_string(),
            },
            run.moves.len(),
            run.merges.len()
        ));
    }
    let reads: u64 = run.servers.iter().map(|x| x.read_requests).sum();
    if reads > 0 {
        let top = run.servers.iter().max_by(|a, b| {
            a.read_share
                .total_cmp(&b.read_share)
                .then(b.name.cmp(&a.name))
        });
        o.push_str(&format!(
            "  reads: {} read requests; busiest server {} with {:.1}% of them\n",
            thousands(reads as u128),
            top.map_or("-", |t| t.name.as_str()),
            top.map_or(0.0, |t| t.read_share * 100.0)
        ));
    }
    o.push_str(&crate::report::sparkline::regions_block(run));
    o.push_str("\n  RegionServers\n");
    let mut t = table(&[
        "server",
        "regions",
        "store size",
        "writes",
        "share",
        "memstore peak",
        "blocked",
        "reads",
    ]);
    fit(&mut t);
    align_right(&mut t, &[1, 2, 3, 4, 5, 6, 7]);
    for sv in &run.servers {
        t.add_row(vec![
            if sv.online {
                sv.name.clone()
            } else {
                format!("{} (gone)", sv.name)
            },
            sv.regions.to_string(),
            format_bytes(sv.store_bytes),
            thousands(sv.write_requests as u128),
            format!("{:.1}%", sv.write_share * 100.0),
            format_bytes(sv.memstore_peak_bytes),
            format_duration_ms((sv.blocked_seconds * 1000.0) as u64),
            thousands(sv.read_requests as u128),
        ]);
    }
    o.push_str(&t.to_string());
    o.push('\n');
    o.push_str("\n  Regions (start key:puts:(ratio to smallest))\n");
    let mut t = table(&[
        "start key",
        "end key",
        "server",
        "store size",
        "files",
        "rows",
        "puts",
        "ratio",
        "gen",
    ]);
    fit(&mut t);
    align_right(&mut t, &[3, 4, 5, 6, 7, 8]);
    for r in run.regions.iter().take(TEXT_ROWS) {
        t.add_row(vec![
            r.start.clone(),
            r.end.clone(),
            r.server.clone(),
            format_bytes(r.store_bytes),
            r.store_files.to_string(),
            thousands(r.rows as u128),
            thousands(r.write_requests as u128),
            format!("{:.2}", r.ratio_to_smallest),
            r.generation.to_string(),
        ]);
    }
    push_table(
        o,
        &t,
        run.regions.len(),
        "regions (all of them with --format json or csv)",
    );
    if !run.splits.is_empty() {
        o.push_str("\n  Split timeline\n");
        let mut t = table(&[
            "at",
            "server",
            "parent size",
            "split key",
            "parent range",
            "gen",
        ]);
        fit(&mut t);
        align_right(&mut t, &[2, 5]);
        for sp in run.splits.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((sp.at_seconds * 1000.0) as u64),
                sp.server.clone(),
                format_bytes(sp.parent_bytes),
                sp.split_key.clone(),
                format!("[{}, {})", sp.parent_start, sp.parent_end),
                sp.generation.to_string(),
            ]);
        }
        push_table(o, &t, run.splits.len(), "splits");
    }
    if !run.events.is_empty() {
        o.push_str("\n  Cluster events\n");
        let mut t = table(&["at", "kind", "what happened"]);
        fit(&mut t);
        for e in run.events.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((e.at_seconds * 1000.0) as u64),
                e.kind.clone(),
                e.detail.clone(),
            ]);
        }
        push_table(o, &t, run.events.len(), "events");
    }
    if !run.moves.is_empty() {
        o.push_str("\n  Region moves (why: the rule and its numbers are in the JSON report)\n");
        let mut t = table(&["at", "offline", "region start", "from", "to", "store size"]);
        fit(&mut t);
        align_right(&mut t, &[1, 5]);
        for m in run.moves.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((m.at_seconds * 1000.0) as u64),
                format_duration_ms((m.offline_seconds * 1000.0) as u64),
                m.start.clone(),
                m.from.clone(),
                m.to.clone(),
                format_bytes(m.store_bytes),
            ]);
        }
        push_table(o, &t, run.moves.len(), "moves");
    }
    if !run.merges.is_empty() {
        o.push_str("\n  Merges\n");
        let mut t = table(&["at", "regions", "merged range", "server", "store size"]);
        fit(&mut t);
        align_right(&mut t, &[1, 4]);
        for m in run.merges.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((m.at_seconds * 1000.0) as u64),
                m.region_starts.len().to_string(),
                format!("[{}, {})", m.start, m.end),
                m.server.clone(),
                format_bytes(m.store_bytes),
            ]);
        }
        push_table(o, &t, run.merges.len(), "merges");
    }
}

/// A table of at most [`TEXT_ROWS`] rows, and how many of `total` it leaves out.
fn push_table(o: &mut String, t: &comfy_table::Table, total: usize, what: &str) {
    o.push_str(&t.to_string());
    o.push('\n');
    if total > TEXT_ROWS {
        o.push_str(&format!("  … {} more {what}\n", total - TEXT_ROWS));
    }
}
