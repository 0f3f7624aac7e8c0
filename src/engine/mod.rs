//! The emulation engine: a scenario's writes played against regions hosted on RegionServers, with
//! memstores, flushes, store files, compactions and splits, on a simulated clock.
//!
//! Shape of a run (see docs/MODEL.md):
//! - Rowkeys are generated in parallel chunks (pure functions of seed and id), then applied in id
//!   order by one thread: routing, memstore accounting and the clock. Everything that depends on
//!   order happens there, so the result is the same for any thread count.
//! - Flushes, compactions and splits are events on the simulated clock (ns), processed in
//!   (time, sequence) order before each write that happens after them.

pub mod cell;
pub mod cluster;
mod decision;
mod files;
pub mod memstore;
pub mod policy;
mod queue;
mod reads;
pub mod region;
pub mod regionserver;
mod result;
pub mod scale;
pub mod storefile;

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::config::Settings;
use crate::diag::InputError;
use crate::keygen::Generator;
use crate::keygen::rng::splitmix64;
use crate::plan::RunPlan;
use crate::scenario::Scenario;

use cell::HeapLayout;
use memstore::{Memstore, Put};
use policy::compaction::{CompactionConfig, FileInfo, SelectOptions};
use policy::split::SplitPolicyInstance;
use policy::{compaction, split_point, throughput};
use region::{Region, RegionState, Store};
use regionserver::{QueuedCompaction, Server};
use scale::Sampling;
use storefile::{CellShape, FileFormat, FileKind, StoreFile};

use decision::FlushWhy;
use files::{Builder, CompactionOutput, FlushFile, FlushJob, write_file};
use queue::{Event, EventQueue, NS_PER_MS, NS_PER_S, transfer_ns};
pub use result::{RunResult, RunStats, Sample, ServerSample, SplitRecord};

/// How far a client may run ahead of a RegionServer's write path before it waits (its buffer).
pub const CLIENT_LAG_NS: u64 = 100 * NS_PER_MS;
/// Length of a hotspot window (one simulated minute).
pub const WINDOW_NS: u64 = 60 * NS_PER_S;
/// Emptied memstore buffers kept for reuse.
const MAX_SPARES: usize = 64;
/// Emulated rows generated per key chunk.
const CHUNK: u64 = 16_384;
/// Priority HBase gives a compaction of a store with references (`Store.PRIORITY_USER` boost).
const AFTER_SPLIT_PRIORITY: i64 = i32::MIN as i64 + 1000;

/// Options of one run.
#[derive(Debug, Clone, Copy)]
pub struct RunOptions {
    /// Real rows per emulated row (`None`: the scenario's, else automatic).
    pub scale: Option<u64>,
    /// Worker threads for key generation (≥ 1). Does not change the result.
    pub threads: usize,
    /// Build flush files and compaction outputs on a thread of their own (the RegionServers'
    /// file work). Does not change the result.
    pub builder: bool,
}

/// Timeline sample period: about a hundredth of the load at the offered rate, between one
/// second and one minute (whole seconds), so short runs still get a timeline.
fn sample_period(payload: u128, rate: u64) -> u64 {
    let ideal_s = payload / u128::from(rate.max(1));
    (ideal_s / 100).clamp(1, 60) as u64 * NS_PER_S
}

/// Buckets of the key heatmap.
const HEAT_BUCKETS: u64 = 64;

/// A running compaction: what it writes when it completes, and how far it has got. Its rate
/// changes with the server's compaction throttle, so its completion event is rescheduled; only
/// the event of the current `generation` is live.
struct ActiveCompaction {
    region: usize,
    /// Server whose pool ran it.
    server: usize,
    store: usize,
    /// Index of the first input file and the number of inputs (a contiguous run).
    first: usize,
    count: usize,
    /// The output HFile (built already, or by the background builder) and the real rows
    /// behind it.
    output: CompactionOutput,
    rows: u64,
    /// The output's max sequence id and creation time (the compaction's start), ms.
    seq_id: u64,
    created_ms: u64,
    /// Bytes read.
    read: u64,
    /// Cell bytes written (serialized KeyValues: what HBase's compactor reports to the
    /// throughput controller).
    written: u64,
    major: bool,
    /// Ran in the large pool.
    large: bool,
    /// Started at, ns.
    started: u64,
    /// Bytes still to read and the current rate.
    progress: throughput::Progress,
    /// Generation of the live completion event (0: none scheduled yet).
    generation: u64,
}

/// Fixed inputs of a run.
struct Config {
    settings: Settings,
    compaction: CompactionConfig,
    shapes: Vec<CellShape>,
    formats: Vec<FileFormat>,
    layout: HeapLayout,
    value_len: u64,
    qualifier_len: u64,
    family_lens: Vec<u64>,
    /// Cells of a row that land in each family.
    cells_per_family: Vec<u64>,
    /// Payload (value) bytes of one real row.
    row_payload: u64,
    /// Nanoseconds per payload byte at the offered rate, 32.32 fixed point.
    rate_fp: u128,
    /// Nanoseconds per byte of a server's write bandwidth, 32.32 fixed point.
    write_fp: u128,
    flush_bw: u64,
    compaction_bw: u64,
    transition_ns: u64,
    global_high: u64,
    global_low: u64,
    /// RegionServer JVM heap, bytes.
    heap_bytes: u64,
    seed: u64,
    scale: u64,
}

/// What one real row adds to a family's memstore, for the current key length.
#[derive(Debug, Clone, Copy)]
struct FamilyPut {
    cells: u64,
    /// Data bytes (`cells` × serialized cell size).
    data: u64,
    /// Heap bytes (`cells` × cell heap size).
    heap: u64,
}

/// The engine's state during a run.
struct Engine {
    cfg: Config,
    regions: Vec<Region>,
    /// Live regions by start key (routing table).
    routing: Vec<(Vec<u8>, usize)>,
    /// First 8 bytes of each routing start key (big-endian, zero-padded): integer compares first.
    routing_prefix: Vec<u64>,
    servers: Vec<Server>,
    now: u64,
    queue: EventQueue,
    file_seq: u64,
    stats: RunStats,
    splits: Vec<SplitRecord>,
    windows: Vec<Vec<u64>>,
    draining: bool,
    /// (interval, time) before which the periodic flush check cannot find a due region (the
    /// earliest oldest edit + interval at the last check): checks before it are skipped.
    periodic_flush_next_ms: (u64, u64),
    settled: u64,
    last_region: Option<usize>,
    /// Region last found for each of 64 key prefixes (prefix mod 64): keys that alternate
    /// between a few prefixes (partition keys) miss the one-entry cache on every row.
    route_cache: [usize; 64],
    /// Heat bucket last found for each of 64 key prefixes (as `route_cache`).
    heat_cache: [usize; 64],
    /// Key prefixes (`prefix8`) strictly inside `(route_lo, route_hi)` lie in `last_region`:
    /// one integer compare per bound instead of two key compares per row.
    route_lo: u64,
    route_hi: u64,
    /// Fraction of a nanosecond carried by the client clock (32-bit fixed point).
    clock_frac: u32,
    /// The weight `clock_step` was computed for, and its clock advance (32.32 fixed point).
    clock_weight: u64,
    clock_step: u128,
    /// Key length `put_per_family` was computed for.
    put_row_len: usize,
    put_per_family: Vec<FamilyPut>,
    /// The earlier of `window_end` and `heat_end`.
    next_slice_end: u64,
    /// End of the current hotspot window, ns.
    window_end: u64,
    /// Background writer of flush files (when the run has a thread to spare).
    builder: Option<Builder>,
    /// Emptied memstore buffers, reused by the next segments (no reallocation on the write path).
    spares: Vec<Memstore>,
    samples: Vec<Sample>,
    heat_buckets: Vec<Vec<u8>>,
    /// `prefix8` of each heat bucket's start (integer compares first, as for routing).
    heat_prefix: Vec<u64>,
    heat_writes: Vec<Vec<u64>>,
    /// Bucket of the last write (sequential keys stay in one bucket for long runs).
    last_bucket: usize,
    /// Key prefixes strictly inside `(heat_lo, heat_hi)` lie in `last_bucket`.
    heat_lo: u64,
    heat_hi: u64,
    /// Timeline sample / heat slice length, ns.
    sample_ns: u64,
    /// End of the current heat slice, ns.
    heat_end: u64,
    /// Cluster dynamics (balancer, normalizer, events): see `cluster.rs`.
    dyn_: cluster::Dynamics,
    /// Real rows accepted so far.
    rows_written: u64,
    /// The read workload.
    reads: reads::ReadState,
    /// Key buffer of reads.
    read_key: Vec<u8>,
    /// Real reads per window per heat bucket.
    heat_reads: Vec<Vec<u64>>,
    /// Rows at which the next row-triggered scenario event fires (`u64::MAX`: none).
    next_row_trigger: u64,
    /// Running compactions by token (the token is also in `Store::running`).
    compactions: BTreeMap<u64, ActiveCompaction>,
    /// A `CompactionTune` event is scheduled.
    tune_armed: bool,
}

/// Runs one generator of a scenario and returns what happened.
pub fn run(scenario: &Scenario, plan: RunPlan, opts: RunOptions) -> Result<RunResult, InputError> {
    run_with_progress(scenario, plan, opts, &|_| {})
}

/// How far a run has got, reported every few thousand emulated rows and once at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Emulated rows applied.
    pub done: u64,
    /// Emulated rows in the run.
    pub total: u64,
    /// Simulated time reached, ns.
    pub sim_ns: u64,
}

/// [`run`], calling `progress` as keys are applied.
pub fn run_with_progress(
    scenario: &Scenario,
    plan: RunPlan,
    opts: RunOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<RunResult, InputError> {
    let w = &scenario.workload;
    let k = scale::choose(w.rows, opts.scale.or(w.scale));
    let sampling = Sampling {
        first_id: w.first_id,
        rows: w.rows,
        k,
        seed: scenario.seed,
    };
    let mut engine = Engine::new(scenario, &plan, k);
    engine.heat_buckets = heat_buckets(&plan.generator, w.first_id, w.rows);
    engine.heat_prefix = engine.heat_buckets.iter().map(|k| prefix8(k)).collect();
    // The RegionServers' file work (flush files, compaction outputs) on a thread of its own.
    if opts.builder {
        engine.builder = Some(Builder::start());
    }
    let regions_initial = engine.routing.len();
    // Pre-split regions may already cover every server.
    engine.track_hosting();
    let generator = plan.generator;
    let threads = opts.threads.max(1);
    let total = sampling.emulated();
    generate(&generator, sampling, threads, |b, key| {
        engine.write(key, sampling.weight(b));
        engine.do_reads(&generator, sampling, b + 1);
        if (b + 1) % CHUNK == 0 || b + 1 == total {
            progress(Progress {
                done: b + 1,
                total,
                sim_ns: engine.now,
            });
        }
    })?;
    let ingest_ns = engine.now;
    engine.drain();
    Ok(engine.finish(&generator, sampling, ingest_ns, regions_initial))
}

/// Start keys of about [`HEAT_BUCKETS`] buckets holding equal numbers of the workload's rows:
/// quantiles of keys at stratified ids (the first bucket starts at the empty key).
fn heat_buckets(generator: &Generator, first_id: u64, rows: u64) -> Vec<Vec<u8>> {
    let samples = (HEAT_BUCKETS * 64).min(rows.max(1));
    let mut keys: Vec<Vec<u8>> = Vec::with_capacity(samples as usize);
    let mut buf = Vec::new();
    for i in 0..samples {
        // The middle id of each of `samples` equal blocks.
        let id = first_id + ((2 * i + 1) as u128 * rows as u128 / (2 * samples) as u128) as u64;
        if generator.key_checked(id, &mut buf).is_ok() {
            keys.push(buf.clone());
        }
    }
    keys.sort_unstable();
    let mut out = vec![Vec::new()];
    let step = (keys.len() as u64).div_ceil(HEAT_BUCKETS).max(1) as usize;
    for k in keys.into_iter().step_by(step).skip(1) {
        if out.last().is_some_and(|l| *l < k) {
            out.push(k);
        }
    }
    out
}

/// One chunk of generated keys: concatenated in `arena`, `ends[i]` the end of key `i`.
#[derive(Default)]
struct KeyChunk {
    arena: Vec<u8>,
    ends: Vec<u32>,
}

/// Generates the keys of every emulated row in order, `threads` chunks at a time, and hands
/// them to `apply` in id order.
fn generate(
    generator: &Generator,
    sampling: Sampling,
    threads: usize,
    mut apply: impl FnMut(u64, &[u8]),
) -> Result<(), InputError> {
    let n = sampling.emulated();
    let chunks = n.div_ceil(CHUNK);
    // Fills `out` (its buffers reused: fresh ones would page-fault on every chunk).
    let make = |c: u64, out: &mut KeyChunk| -> Result<(), InputError> {
        let from = c * CHUNK;
        let to = (from + CHUNK).min(n);
        let KeyChunk { arena, ends } = out;
        arena.clear();
        ends.clear();
        arena.reserve(((to - from) * 24) as usize);
        ends.reserve((to - from) as usize);
        if sampling.k == 1 {
            // Exact mode: consecutive ids, so the generator's streaming path applies.
            let first = sampling.first_id + from;
            let mut bad: Option<u64> = None;
            generator
                .inner
                .keys_into(first..sampling.first_id + to, &mut |id, key| {
                    if key.is_empty() || key.len() > crate::keygen::MAX_ROW_LENGTH {
                        bad.get_or_insert(id);
                    }
                    memstore::push_key(arena, key);
                    ends.push(arena.len() as u32);
                });
            if let Some(id) = bad {
                // Re-derive the key through the checked path for the error message.
                generator.key_checked(id, &mut Vec::new())?;
            }
            return Ok(());
        }
        let mut buf = Vec::with_capacity(64);
        for b in from..to {
            generator.key_checked(sampling.id(b), &mut buf)?;
            arena.extend_from_slice(&buf);
            ends.push(arena.len() as u32);
        }
        Ok(())
    };
    let mut feed = |c: u64, chunk: &KeyChunk| {
        let mut start = 0usize;
        for (i, &e) in chunk.ends.iter().enumerate() {
            apply(c * CHUNK + i as u64, &chunk.arena[start..e as usize]);
            start = e as usize;
        }
    };
    if threads == 1 || chunks <= 1 {
        let mut chunk = KeyChunk::default();
        for c in 0..chunks {
            make(c, &mut chunk)?;
            feed(c, &chunk);
        }
        return Ok(());
    }
    let workers = threads - 1; // this thread applies
    std::thread::scope(|scope| -> Result<(), InputError> {
        let (tx, rx) =
            crossbeam::channel::bounded::<(u64, Result<KeyChunk, InputError>)>(workers * 2);
        // Applied chunks go back to the workers for reuse.
        let (back_tx, back_rx) = crossbeam::channel::unbounded::<KeyChunk>();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        for wk in 0..workers {
            let tx = tx.clone();
            let back_rx = back_rx.clone();
            let stop = stop.clone();
            let make = &make;
            scope.spawn(move || {
                let mut c = wk as u64;
                while c < chunks && !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let mut chunk = back_rx.try_recv().unwrap_or_default();
                    let made = make(c, &mut chunk).map(|()| chunk);
                    if tx.send((c, made)).is_err() {
                        break;
                    }
                    c += workers as u64;
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, KeyChunk> = BTreeMap::new();
        let mut next = 0u64;
        let mut result = Ok(());
        for (c, chunk) in rx.iter() {
            match chunk {
                Ok(chunk) => {
                    pending.insert(c, chunk);
                }
                Err(e) => {
                    result = Err(e);
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    break;
                }
            }
            while let Some(chunk) = pending.remove(&next) {
                feed(next, &chunk);
                let _ = back_tx.send(chunk);
                next += 1;
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    })
}

impl Engine {
    fn new(scenario: &Scenario, plan: &RunPlan, scale: u64) -> Engine {
        let s = &scenario.settings;
        let w = &scenario.workload;
        let fams = &scenario.table.families;
        let nf = fams.len() as u64;
        // Cells of a row go round-robin over the families.
        let cells_per_family: Vec<u64> = (0..nf)
            .map(|i| w.columns / nf + u64::from(i < w.columns % nf))
            .collect();
        let shapes = fams
            .iter()
            .zip(&cells_per_family)
            .map(|(f, &c)| CellShape {
                family_len: f.name.len() as u32,
                qualifier_len: w.qualifier_bytes as u32,
                value_len: w.value_bytes as u32,
                columns: c as u32,
            })
            .collect();
        let formats = fams
            .iter()
            .map(|f| FileFormat {
                block_size: f.block_size,
                compression_ratio: f.compression_ratio,
                index_block_max_size: s.index_block_max_size,
                index_block_min_entries: s.index_block_min_entries,
                row_bloom: true,
            })
            .collect();
        let heap = scenario.cluster.heap_bytes;
        let global_high = s
            .global_memstore_bytes
            .unwrap_or((heap as f64 * s.global_memstore_fraction as f64) as u64);
        let global_low = (global_high as f64 * s.global_memstore_lower_limit as f64) as u64;
        let cfg = Config {
            compaction: CompactionConfig::from_settings(s),
            settings: s.clone(),
            shapes,
            formats,
            layout: HeapLayout::new(heap, s.mslab_enabled, s.mslab_max_allocation),
            value_len: w.value_bytes,
            qualifier_len: w.qualifier_bytes,
            family_lens: fams.iter().map(|f| f.name.len() as u64).collect(),
            row_payload: w.columns * w.value_bytes,
            rate_fp: ((NS_PER_S as u128) << 32) / w.rate_bytes_per_s.max(1) as u128,
            write_fp: ((NS_PER_S as u128) << 32) / scenario.cluster.write_bandwidth.max(1) as u128,
            cells_per_family,
            flush_bw: scenario.cluster.flush_bandwidth,
            compaction_bw: scenario.cluster.compaction_bandwidth,
            transition_ns: scenario
                .cluster
                .region_transition_ms
                .saturating_mul(NS_PER_MS),
            global_high,
            global_low,
            heap_bytes: heap,
            seed: scenario.seed,
            scale,
        };
        let servers = (0..scenario.cluster.regionservers)
            .map(|_| Server::default())
            .collect();
        let mut e = Engine {
            cfg,
            regions: Vec::new(),
            routing: Vec::new(),
            routing_prefix: Vec::new(),
            servers,
            now: 0,
            queue: EventQueue::new(),
            file_seq: 0,
            stats: RunStats::default(),
            splits: Vec::new(),
            windows: Vec::new(),
            draining: false,
            periodic_flush_next_ms: (0, 0),
            settled: 0,
            last_region: None,
            route_cache: [usize::MAX; 64],
            heat_cache: [usize::MAX; 64],
            route_lo: u64::MAX,
            route_hi: 0,
            clock_frac: 0,
            clock_weight: 0,
            clock_step: 0,
            put_row_len: usize::MAX,
            put_per_family: Vec::new(),
            next_slice_end: 0,
            window_end: 0,
            builder: None,
            spares: Vec::new(),
            samples: Vec::new(),
            heat_buckets: Vec::new(),
            heat_prefix: Vec::new(),
            heat_writes: Vec::new(),
            last_bucket: 0,
            heat_lo: u64::MAX,
            heat_hi: 0,
            sample_ns: sample_period(w.payload_bytes(), w.rate_bytes_per_s),
            heat_end: 0,
            dyn_: cluster::Dynamics::new(scenario),
            rows_written: 0,
            reads: reads::ReadState::new(
                w.reads.as_ref(),
                w.payload_bytes() as f64 / w.rate_bytes_per_s.max(1) as f64,
            ),
            read_key: Vec::new(),
            heat_reads: Vec::new(),
            next_row_trigger: u64::MAX,
            compactions: BTreeMap::new(),
            tune_armed: false,
        };
        for r in &plan.regions {
            let id = e.open_region(
                r.start.clone(),
                r.end.clone(),
                r.server,
                0,
                None,
                fams.len(),
            );
            e.routing.push((r.start.clone(), id));
            e.routing_prefix.push(prefix8(&r.start));
        }
        let period = e
            .cfg
            .settings
            .flush_check_period_ms
            .max(1)
            .saturating_mul(NS_PER_MS);
        e.schedule(period, Event::Chore { n: 1 });
        e.schedule(e.sample_ns, Event::Sample);
        e.arm_compaction_tune();
        e.start_dynamics();
        e
    }

    fn open_region(
        &mut self,
        start: Vec<u8>,
        end: Vec<u8>,
        server: usize,
        generation: u32,
        parent: Option<usize>,
        families: usize,
    ) -> usize {
        let id = self.regions.len();
        // One nextFloat() per region open for the jitter, from a stream of (seed, region id).
        let draw = (splitmix64(
            self.cfg.seed ^ 0x0005_9117_0000 ^ (id as u64).wrapping_mul(0xA24B_AED4_963E_E407),
        ) >> 40) as f32
            / (1u64 << 24) as f32;
        let policy = SplitPolicyInstance::new(&self.cfg.settings, self.now / NS_PER_MS, draw);
        self.servers[server].online_regions += 1;
        self.regions.push(Region {
            id,
            start,
            end,
            server,
            stores: (0..families).map(|_| Store::default()).collect(),
            state: RegionState::Open,
            generation,
            policy,
            parent,
            opened_ns: self.now,
            flush_queued: false,
            flush_why: 0,
            flushing: false,
            snapshot_heap: 0,
            write_requests: 0,
            read_requests: 0,
            rows: 0,
            last_write_ns: None,
            blocked_ns: 0,
            memstore_peak: 0,
        });
        id
    }

    fn schedule(&mut self, delay: u64, event: Event) {
        self.queue.push(self.now.saturating_add(delay), event);
    }

    /// The live region holding `key`, whose `prefix8` is `p`.
    #[inline]
    fn route(&mut self, key: &[u8], p: u64) -> usize {
        if let Some(last) = self.last_region
            && p > self.route_lo
            && p < self.route_hi
            && self.regions[last].state != RegionState::Retired
        {
            return last;
        }
        self.route_slow(key, p)
    }

    #[cold]
    #[inline(never)]
    fn route_slow(&mut self, key: &[u8], p: u64) -> usize {
        if let Some(last) = self.last_region
            && self.regions[last].state != RegionState::Retired
            && self.regions[last].contains(key)
        {
            return last;
        }
        let slot = (p & 63) as usize;
        let c = self.route_cache[slot];
        if c < self.regions.len()
            && self.regions[c].state != RegionState::Retired
            && self.regions[c].contains(key)
        {
            return c;
        }
        let id = self.locate(key, p);
        self.route_cache[slot] = id;
        self.last_region = Some(id);
        // A prefix strictly above the start's implies key > start, strictly below the end's
        // implies key < end (zero padding keeps both true); ties take the full compare above.
        let r = &self.regions[id];
        self.route_lo = prefix8(&r.start);
        self.route_hi = if r.end.is_empty() {
            u64::MAX
        } else {
            prefix8(&r.end)
        };
        id
    }

    /// Processes every event due at or before `self.now`.
    #[inline]
    fn catch_up(&mut self) {
        if self.queue.next_at <= self.now {
            self.catch_up_slow();
        }
    }

    #[cold]
    #[inline(never)]
    fn catch_up_slow(&mut self) {
        while self.queue.next_at <= self.now
            && let Some(ev) = self.queue.pop()
        {
            self.handle(ev.event);
        }
    }

    /// Jumps the clock to the next event and processes it. False if nothing is scheduled.
    fn advance(&mut self) -> bool {
        let Some(top) = self.queue.pop() else {
            return false;
        };
        self.now = self.now.max(top.at);
        self.handle(top.event);
        true
    }

    /// One emulated row of `weight` real rows arrives from the client.
    fn write(&mut self, key: &[u8], weight: u64) {
        // Fixed point (32 fractional bits) with the fraction carried: no division per row, and no
        // drift from truncating a fraction of a nanosecond on every row. The 128-bit product
        // only changes with the weight (K, or less for the last row).
        if weight != self.clock_weight {
            self.clock_weight = weight;
            self.clock_step = (weight * self.cfg.row_payload) as u128 * self.cfg.rate_fp;
        }
        let t = self.clock_step + self.clock_frac as u128;
        self.now += (t >> 32) as u64;
        self.clock_frac = t as u32;
        self.catch_up();
        if self.rows_written >= self.next_row_trigger {
            self.fire_row_events();
        }
        let p = prefix8(key);
        let region = self.route(key, p);
        let r = &self.regions[region];
        // The common case: open, below the blocking size, server below the high mark.
        if r.state == RegionState::Open
            && r.memstore_heap() <= self.cfg.settings.blocking_memstore_size
            && self.servers[r.server].memstore_heap < self.cfg.global_high
        {
            self.apply_write(region, key, p, weight, false);
        } else {
            self.write_waiting(region, key, p, weight);
        }
    }

    /// A write whose region is offline (split in progress) or blocked: waits, then applies.
    #[cold]
    #[inline(never)]
    fn write_waiting(&mut self, mut region: usize, key: &[u8], p: u64, weight: u64) {
        let mut too_busy = false;
        loop {
            let r = &self.regions[region];
            if r.state != RegionState::Open {
                let t0 = self.now;
                if !self.advance() {
                    break;
                }
                self.stats.offline_wait_ns += self.now - t0;
                region = self.route(key, p);
                continue;
            }
            let blocking = self.cfg.settings.blocking_memstore_size;
            let server = r.server;
            if r.memstore_heap() > blocking {
                // HRegion.checkResources: RegionTooBusyException until the flush completes.
                too_busy = true;
                self.request_flush(region, FlushWhy::Blocking);
                if !self.wait_blocked(server, Some(region)) {
                    break;
                }
                region = self.route(key, p);
                continue;
            }
            if self.servers[server].memstore_heap >= self.cfg.global_high {
                // MemStoreFlusher.reclaimMemStoreMemory: block until below the high mark.
                self.global_pressure(server);
                if !self.wait_blocked(server, None) {
                    break;
                }
                region = self.route(key, p);
                continue;
            }
            break;
        }
        self.apply_write(region, key, p, weight, too_busy);
    }

    /// Waits for the next event while writes to `server` (and `region`) are blocked, and books
    /// the wait as blocked time. False if nothing is scheduled that could unblock them.
    fn wait_blocked(&mut self, server: usize, region: Option<usize>) -> bool {
        let t0 = self.now;
        if !self.advance() {
            return false;
        }
        let waited = self.now - t0;
        self.stats.blocked_ns += waited;
        self.servers[server].blocked_ns += waited;
        if let Some(r) = region {
            self.regions[r].blocked_ns += waited;
        }
        true
    }

    #[inline]
    fn apply_write(&mut self, region: usize, key: &[u8], p: u64, weight: u64, too_busy: bool) {
        if key.len() != self.put_row_len {
            self.set_row_len(key.len());
        }
        let now_ms = self.now / NS_PER_MS;
        let mut data_total = 0;
        let mut heap_total = 0;
        let mut active = 0;
        let r = &mut self.regions[region];
        let server = r.server;
        for (store, fam) in r.stores.iter_mut().zip(&self.put_per_family) {
            if fam.cells != 0 {
                let data = weight * fam.data;
                let before = store.memstore.heap_bytes;
                let put = Put {
                    rows: weight,
                    cells: weight * fam.cells,
                    data_bytes: data,
                    heap_bytes: weight * fam.heap,
                };
                store.memstore.add(key, put, cell::SEGMENT_OVERHEAD, now_ms);
                heap_total += store.memstore.heap_bytes - before;
                data_total += data;
            }
            active += store.memstore.heap_bytes;
        }
        r.write_requests += weight;
        r.rows += weight;
        self.rows_written += weight;
        let idle = !r.flush_queued && !r.flushing;
        r.last_write_ns = Some(self.now);
        // BusyRegionSplitPolicy counts the writes that met RegionTooBusyException.
        let blocked = if too_busy { weight } else { 0 };
        r.policy.record_writes(weight, blocked, now_ms);
        r.memstore_peak = r.memstore_peak.max(active + r.snapshot_heap);
        let over_flush = policy::flush::over_flush_size(active, self.cfg.settings.flush_size);
        let s = &mut self.servers[server];
        if idle {
            s.pressure_futile = false;
        }
        s.memstore_heap += heap_total;
        s.memstore_peak = s.memstore_peak.max(s.memstore_heap);
        s.write_requests += weight;
        s.write_bytes += data_total;
        // The server's write path (WAL + memstore) absorbs data at its bandwidth; the client may
        // run ahead of it by its buffer, then waits.
        s.busy_until_ns =
            s.busy_until_ns.max(self.now) + ((data_total as u128 * self.cfg.write_fp) >> 32) as u64;
        if s.busy_until_ns > self.now + CLIENT_LAG_NS {
            let wait = s.busy_until_ns - CLIENT_LAG_NS - self.now;
            self.stats.throttled_ns += wait;
            self.now += wait;
        }
        if self.now >= self.next_slice_end {
            self.roll_slices();
        }
        if let Some(w) = self.windows.last_mut() {
            w[server] += weight;
        }
        let b = self.heat_bucket(key, p);
        if let Some(h) = self.heat_writes.last_mut() {
            h[b] += weight;
        }
        if over_flush {
            self.request_flush(region, FlushWhy::Size);
        }
        if self.servers[server].memstore_heap >= self.cfg.global_low {
            self.global_pressure(server);
        }
    }

    /// Per-family cell sizes of a row with a `len`-byte key (constant for fixed-length keys).
    #[cold]
    #[inline(never)]
    fn set_row_len(&mut self, len: usize) {
        let cfg = &self.cfg;
        self.put_row_len = len;
        self.put_per_family.clear();
        for (&cells, &family_len) in cfg.cells_per_family.iter().zip(&cfg.family_lens) {
            let size = cell::data_size(len as u64, family_len, cfg.qualifier_len, cfg.value_len);
            self.put_per_family.push(FamilyPut {
                cells,
                data: cells * size,
                heap: cells * cell::heap_size(size, cfg.layout),
            });
        }
    }

    /// Opens the hotspot windows and heat slices the clock has reached.
    #[cold]
    #[inline(never)]
    fn roll_slices(&mut self) {
        while self.now >= self.window_end {
            self.windows.push(vec![0; self.servers.len()]);
            self.window_end += WINDOW_NS;
        }
        while self.now >= self.heat_end {
            self.heat_writes
                .push(vec![0; self.heat_buckets.len().max(1)]);
            self.heat_end += self.sample_ns;
        }
        self.next_slice_end = self.window_end.min(self.heat_end);
    }

    /// `MemStoreFlusher.flushOneForGlobalPressure`: while the server is above the low mark, its
    /// flush handlers keep flushing the region with the largest memstore, one at a time each.
    fn global_pressure(&mut self, server: usize) {
        if !policy::flush::pressure_scan_due(
            &self.servers[server],
            self.cfg.global_low,
            self.cfg.settings.flusher_count,
        ) {
            return;
        }
        let live = self.routing.iter().map(|&(_, id)| &self.regions[id]);
        match policy::flush::global_pressure_pick(server, live) {
            Some(id) => self.request_flush(id, FlushWhy::Global),
            // Nothing to flush until a write reaches an idle region or an event changes flush
            // states: skip the scan until then (it would otherwise run on every write).
            None => self.servers[server].pressure_futile = true,
        }
    }

    fn request_flush(&mut self, region: usize, why: FlushWhy) {
        if !policy::flush::accepts_request(&self.regions[region]) {
            return;
        }
        let r = &mut self.regions[region];
        r.flush_queued = true;
        r.flush_why = why as u8;
        let server = r.server;
        self.servers[server]
            .flush_queue
            .push_back((region, self.now));
        self.start_flushes(server);
    }

    fn start_flushes(&mut self, server: usize) {
        while self.servers[server].flushes_running < self.cfg.settings.flusher_count.max(1) {
            let Some((region, queued)) = self.servers[server].flush_queue.pop_front() else {
                return;
            };
            let r = &self.regions[region];
            if r.state != RegionState::Open || r.server != server {
                self.regions[region].flush_queued = false;
                continue;
            }
            // MemStoreFlusher.flushRegion: too many store files ⇒ postpone (up to blockingWaitTime).
            let blocking = self.cfg.compaction.blocking_store_files;
            if let Some(held) = policy::flush::hold_back(
                r,
                blocking,
                self.now - queued,
                self.cfg.settings.blocking_wait_ms.saturating_mul(NS_PER_MS),
            ) {
                if held.first {
                    self.stats.delayed_flushes += 1;
                    let most = held.most_files;
                    self.note(
                        region,
                        format!(
                            "flush held back: {most} store files > hbase.hstore.blockingStoreFiles \
                             {blocking}: MemStoreFlusher waits up to blockingWaitTime {} for a \
                             compaction to bring the count down",
                            crate::units::format_duration_ms(self.cfg.settings.blocking_wait_ms)
                        ),
                    );
                    if !self.check_split(region) {
                        for st in 0..self.regions[region].stores.len() {
                            self.request_compaction(region, st, false);
                        }
                    }
                }
                let retry = (self.cfg.settings.blocking_wait_ms / 100)
                    .max(1)
                    .saturating_mul(NS_PER_MS);
                self.schedule(retry, Event::FlushRetry { region, queued });
                continue;
            }
            self.start_flush(region);
        }
    }

    /// Takes the memstore snapshot and writes the files; they appear when the flush completes.
    fn start_flush(&mut self, region: usize) {
        let cfg = &self.cfg;
        let scale = cfg.scale;
        let nf = self.regions[region].stores.len();
        let chosen = policy::flush::stores_to_flush(
            &self.regions[region],
            cfg.settings.flush_size,
            cfg.settings.per_cf_flush_lower_bound_min,
        );
        let r = &mut self.regions[region];
        let mut files = Vec::with_capacity(nf);
        let mut heap = 0;
        let mut data = 0;
        for (f, store) in r.stores.iter_mut().enumerate() {
            if !chosen[f] {
                files.push(None);
                continue;
            }
            let spare = self.spares.pop().unwrap_or_default();
            let snap: Memstore = std::mem::replace(&mut store.memstore, spare);
            heap += snap.heap_bytes;
            data += snap.data_bytes;
            let rows = snap.rows;
            self.file_seq += 1;
            let job = FlushJob {
                id: 0,
                snapshot: snap,
                shape: cfg.shapes[f],
                format: cfg.formats[f],
                scale,
                seq_id: self.file_seq,
                now_ms: self.now / NS_PER_MS,
            };
            let file = match self.builder.as_mut() {
                Some(b) => match b.submit_flush(job) {
                    Some(id) => FlushFile::Building(id),
                    None => FlushFile::Ready(None),
                },
                None => {
                    let file = job.write();
                    let mut snap = job.snapshot;
                    snap.clear();
                    self.spares.push(snap);
                    FlushFile::Ready(file)
                }
            };
            files.push(Some((file, rows)));
        }
        r.flush_queued = false;
        if data == 0 {
            return;
        }
        r.flushing = true;
        r.snapshot_heap = heap;
        let server = r.server;
        self.servers[server].flushes_running += 1;
        let duration = transfer_ns(data, self.cfg.flush_bw);
        self.schedule(
            duration,
            Event::FlushDone {
                region,
                server,
                files,
                heap,
                data,
            },
        );
    }

    fn handle(&mut self, event: Event) {
        if let Event::CompactionDone { token, generation } = &event
            && self
                .compactions
                .get(token)
                .is_none_or(|c| c.generation != *generation)
        {
            // Superseded by a rescheduled completion, or aborted: it stopped counting as work
            // when that happened.
            return;
        }
        if event.is_periodic() {
            // Chores alone do not keep a drained run going (see `keep_periodic`).
        } else {
            self.queue.work -= 1;
            self.settled = self.settled.max(self.now);
        }
        match event {
            Event::FlushDone {
                region,
                server,
                files,
                heap,
                data,
            } => self.flush_done(region, server, files, heap, data),
            Event::FlushRetry { region, queued } => {
                let server = self.regions[region].server;
                if self.regions[region].state == RegionState::Open {
                    self.servers[server]
                        .flush_queue
                        .push_front((region, queued));
                    self.start_flushes(server);
                } else {
                    self.regions[region].flush_queued = false;
                }
            }
            Event::CompactionDone { token, .. } => self.compaction_done(token),
            Event::CompactionTune => {
                self.tune_armed = false;
                self.tune_compaction_throughput();
                if self.keep_periodic() {
                    self.arm_compaction_tune();
                }
            }
            Event::SplitDone {
                region,
                row,
                requested,
                reason,
            } => self.split_done(region, row, requested, reason),
            Event::Chore { n } => self.chore(n),
            Event::Sample => self.sample(),
            Event::MoveDone { region, to, record } => self.move_done(region, to, record),
            Event::MergeDone { regions, record } => self.merge_done(regions, record),
            Event::Balance => self.balance_chore(),
            Event::BalanceNext { run } => self.balance_next(run),
            Event::Normalize => self.normalize_chore(),
            Event::Cluster(i) => self.time_event(i),
            Event::Recover { server } => self.recover(server),
        }
    }

    fn flush_done(
        &mut self,
        region: usize,
        server: usize,
        files: Vec<Option<(FlushFile, u64)>>,
        heap: u64,
        data: u64,
    ) {
        let files: Vec<Option<(StoreFile, u64)>> = files
            .into_iter()
            .map(|slot| {
                let (file, rows) = slot?;
                let file = match file {
                    FlushFile::Ready(f) => f,
                    FlushFile::Building(id) => {
                        let (f, snap) = self.builder.as_mut().map_or((None, None), |b| b.take(id));
                        if let Some(mut snap) = snap
                            && self.spares.len() < MAX_SPARES
                        {
                            snap.clear();
                            self.spares.push(snap);
                        }
                        f
                    }
                };
                file.map(|f| (f, rows))
            })
            .collect();
        let r = &mut self.regions[region];
        r.flushing = false;
        r.snapshot_heap = 0;
        let mut flushed_stores = Vec::new();
        let mut written = 0;
        for (f, file) in files.into_iter().enumerate() {
            if let Some((file, rows)) = file {
                written += file.length();
                self.stats.flushed_file_bytes += file.length();
                r.stores[f].files.push(file);
                r.stores[f].file_rows.push(rows);
                flushed_stores.push(f);
            }
        }
        let files_now: usize = r.stores.iter().map(|s| s.files.len()).sum();
        let why = FlushWhy::describe(r.flush_why);
        self.note(
            region,
            format!(
                "flushed {} of memstore ({why}) into {} of store files; {files_now} store file(s) now",
                crate::units::format_bytes(data),
                crate::units::format_bytes(written)
            ),
        );
        let s = &mut self.servers[server];
        s.memstore_heap = s.memstore_heap.saturating_sub(heap);
        s.flushes_running = s.flushes_running.saturating_sub(1);
        // The flushed region may be a candidate for the global pressure flush again.
        s.pressure_futile = false;
        let now_on = self.regions[region].server;
        self.servers[now_on].pressure_futile = false;
        self.stats.flushes += 1;
        self.stats.flushed_bytes += data;
        // MemStoreFlusher.flushRegion: split if the policy says so, else compact if needed.
        if self.regions[region].state == RegionState::Open && !self.check_split(region) {
            for f in flushed_stores {
                self.request_compaction(region, f, false);
            }
        }
        if self.regions[region].active_heap() > self.cfg.settings.flush_size {
            self.request_flush(region, FlushWhy::Size);
        }
        if !self.servers[server].dead {
            self.start_flushes(server);
            self.global_pressure(server);
        }
    }

    fn file_infos(store: &Store) -> Vec<FileInfo> {
        store
            .files
            .iter()
            .map(|f| FileInfo {
                size: f.length(),
                is_reference: f.is_reference(),
                created_ms: f.created_ms,
                major: f.major,
                name_hash: splitmix64(f.seq_id),
            })
            .collect()
    }

    fn request_compaction(&mut self, region: usize, store: usize, force_major: bool) {
        let r = &self.regions[region];
        if r.state != RegionState::Open || r.stores[store].compacting {
            return;
        }
        let infos = Self::file_infos(&r.stores[store]);
        let opts = SelectOptions {
            compacting: 0,
            force_major,
            user_requested: false,
            offpeak: false,
            now_ms: self.now / NS_PER_MS,
        };
        let Some(req) = compaction::select(&infos, &self.cfg.compaction, opts) else {
            return;
        };
        if req.files.is_empty() {
            return;
        }
        let server = r.server;
        let priority = if req.after_split {
            AFTER_SPLIT_PRIORITY
        } else {
            self.cfg.compaction.blocking_store_files as i64 - r.stores[store].files.len() as i64
        };
        self.regions[region].stores[store].compacting = true;
        let q = QueuedCompaction {
            priority: Reverse((priority, self.queue.next_seq())),
            region,
            store,
        };
        // CompactSplit: requests above the throttle point go to the large pool.
        let large = req.size > self.cfg.settings.compaction_throttle;
        let s = &mut self.servers[server];
        if large {
            s.large_queue.push(q);
        } else {
            s.small_queue.push(q);
        }
        self.start_compactions(server);
    }

    fn start_compactions(&mut self, server: usize) {
        for large in [false, true] {
            loop {
                let limit = if large {
                    self.cfg.settings.large_compaction_threads
                } else {
                    self.cfg.settings.small_compaction_threads
                }
                .max(1);
                let s = &mut self.servers[server];
                let running = if large {
                    s.large_running
                } else {
                    s.small_running
                };
                if running >= limit {
                    break;
                }
                let q = if large {
                    s.large_queue.pop()
                } else {
                    s.small_queue.pop()
                };
                let Some(q) = q else { break };
                self.start_compaction(server, q.region, q.store, large);
            }
        }
    }

    fn start_compaction(&mut self, server: usize, region: usize, store: usize, large: bool) {
        let r = &self.regions[region];
        if r.state != RegionState::Open {
            self.regions[region].stores[store].compacting = false;
            return;
        }
        if r.server != server {
            // Moved while queued: the request follows it to its new server.
            self.regions[region].stores[store].compacting = false;
            self.request_compaction(region, store, false);
            return;
        }
        // Re-select now: files may have changed while queued (HBase selects when the request is made
        // and re-checks at run time).
        let infos = Self::file_infos(&r.stores[store]);
        let major_due = compaction::major_due(&infos, &self.cfg.compaction, self.now / NS_PER_MS);
        let opts = SelectOptions {
            compacting: 0,
            force_major: major_due,
            user_requested: false,
            offpeak: false,
            now_ms: self.now / NS_PER_MS,
        };
        let Some(req) = compaction::select(&infos, &self.cfg.compaction, opts) else {
            self.regions[region].stores[store].compacting = false;
            return;
        };
        let (Some(&first), count) = (req.files.first(), req.files.len()) else {
            self.regions[region].stores[store].compacting = false;
            return;
        };
        let st = &r.stores[store];
        let inputs: Vec<&StoreFile> = st.files[first..first + count].iter().collect();
        let rows: u64 = st.file_rows[first..first + count].iter().sum();
        // Time and bytes read follow what the compaction scans (a Reference reads its half).
        let read: u64 = inputs.iter().map(|f| f.read_bytes()).sum();
        let seq_id = inputs.iter().map(|f| f.seq_id).max().unwrap_or(0);
        // Cell bytes the compactor writes (what the throughput controller meters): the inputs'
        // cells in the part each one reads. Known before the output is built, so the output can
        // be built in the background; the built file's data bytes differ from it only by the
        // sampled keys' rounding.
        let written: u64 = inputs
            .iter()
            .map(|f| {
                let all = f.file.emulated_rows().max(1) as u128;
                (u128::from(f.file.data_bytes()) * f.emulated_rows() as u128 / all) as u64
            })
            .sum();
        let (shape, format) = (self.cfg.shapes[store], self.cfg.formats[store]);
        let output = match self.builder.as_mut() {
            Some(b) => {
                let owned: Vec<StoreFile> = inputs.iter().map(|&f| f.clone()).collect();
                match b.submit_compaction(owned, shape, format) {
                    Some(id) => CompactionOutput::Building(id),
                    None => CompactionOutput::Ready(None),
                }
            }
            None => {
                CompactionOutput::Ready(storefile::compact(&inputs, shape, format).map(Arc::new))
            }
        };
        let s = &mut self.servers[r.server];
        if large {
            s.large_running += 1;
        } else {
            s.small_running += 1;
        }
        let token = self.queue.next_seq();
        self.regions[region].stores[store].running = Some(region::RunningCompaction {
            token,
            server,
            large,
        });
        let ceiling = self.cfg.compaction_bw.max(1);
        let progress = throughput::Progress {
            remaining: read,
            tail: throughput::unthrottled_tail(
                read,
                written,
                self.cfg.settings.compaction_throughput_check_interval,
            ),
            rate: ceiling,
            ceiling,
            since: self.now,
        };
        self.compactions.insert(
            token,
            ActiveCompaction {
                region,
                server,
                store,
                first,
                count,
                output,
                rows,
                seq_id,
                created_ms: self.now / NS_PER_MS,
                read,
                written,
                major: req.is_major,
                large,
                started: self.now,
                progress,
                generation: 0,
            },
        );
        // PressureAwareThroughputController.start: every compaction of the server gets a new share.
        self.rerate_compactions(server);
    }

    /// Moves the running compactions of `server` on to now and gives each its rate under the
    /// server's throttle: min(ceiling, limit / compactions running on the server). A compaction
    /// whose rate changed (or that is new) gets a new completion event; the old one goes stale.
    fn rerate_compactions(&mut self, server: usize) {
        let s = &self.cfg.settings;
        let limit = self.servers[server]
            .compaction_limit
            .unwrap_or_else(|| throughput::initial_limit(s));
        let active = self
            .compactions
            .values()
            .filter(|c| c.server == server)
            .count();
        let share = throughput::per_compaction(s.compaction_throughput_controller, limit, active);
        let now = self.now;
        let mut due = Vec::new();
        for (&token, c) in self.compactions.iter_mut() {
            if c.server != server {
                continue;
            }
            c.progress.advance(now);
            let rate = throughput::read_rate(self.cfg.compaction_bw, share, c.read, c.written);
            if c.generation > 0 && rate == c.progress.rate {
                continue;
            }
            if c.generation > 0 {
                // Its scheduled completion is stale from now on.
                self.queue.work -= 1;
            }
            c.progress.rate = rate;
            c.generation += 1;
            due.push((token, c.generation, c.progress.time_left()));
        }
        for (token, generation, delay) in due {
            self.schedule(delay, Event::CompactionDone { token, generation });
        }
    }

    /// Schedules the next tune of the compaction throughput controllers, if they have a chore
    /// (a tune period ≤ 0 leaves them at the lower bound, as ChoreService does not run it).
    fn arm_compaction_tune(&mut self) {
        if self.tune_armed {
            return;
        }
        if let Some(period) = self.cfg.settings.compaction_throughput_tune_period_ms {
            self.tune_armed = true;
            self.schedule(
                period.max(1).saturating_mul(NS_PER_MS),
                Event::CompactionTune,
            );
        }
    }

    /// `PressureAwareCompactionThroughputController.tune(server.getCompactionPressure())` on every
    /// live server: the pressure is the highest of its online regions' stores
    /// (`HRegionServer.getCompactionPressure`), and its running compactions get new rates.
    fn tune_compaction_throughput(&mut self) {
        let c = &self.cfg.compaction;
        let mut pressure = vec![0.0f64; self.servers.len()];
        for &(_, id) in &self.routing {
            let r = &self.regions[id];
            if r.state != RegionState::Open {
                continue;
            }
            for st in &r.stores {
                let p =
                    throughput::store_pressure(st.files.len(), c.min_files, c.blocking_store_files);
                if p > pressure[r.server] {
                    pressure[r.server] = p;
                }
            }
        }
        let s = &self.cfg.settings;
        let (lower, higher) = (
            s.compaction_throughput_lower_bound,
            s.compaction_throughput_higher_bound,
        );
        for (server, p) in pressure.into_iter().enumerate() {
            if self.servers[server].dead {
                continue;
            }
            self.servers[server].compaction_limit = Some(throughput::tuned_limit(p, lower, higher));
            self.rerate_compactions(server);
        }
    }

    /// A configuration change (`CompactSplit.onConfigurationChange`) builds a new controller:
    /// it starts from the new lower bound and its chore tunes it at once.
    pub(super) fn reset_compaction_throughput(&mut self) {
        for s in &mut self.servers {
            s.compaction_limit = None;
        }
        if self
            .cfg
            .settings
            .compaction_throughput_tune_period_ms
            .is_some()
        {
            self.tune_compaction_throughput();
            self.arm_compaction_tune();
        } else {
            for server in 0..self.servers.len() {
                self.rerate_compactions(server);
            }
        }
    }

    fn compaction_done(&mut self, token: u64) {
        let Some(ActiveCompaction {
            region,
            server,
            store,
            first,
            count,
            output,
            rows,
            seq_id,
            created_ms,
            read,
            major,
            large,
            started,
            ..
        }) = self.compactions.remove(&token)
        else {
            return;
        };
        // PressureAwareThroughputController.finish: the others share the limit among fewer.
        self.rerate_compactions(server);
        let output = match output {
            CompactionOutput::Ready(h) => h,
            CompactionOutput::Building(id) => self
                .builder
                .as_mut()
                .and_then(|b| b.take_compaction(id))
                .map(Arc::new),
        };
        let r = &mut self.regions[region];
        let st = &mut r.stores[store];
        st.running = None;
        st.compacting = false;
        if self.servers[server].dead {
            // The server died mid-compaction: the output is lost, the inputs remain.
            return;
        }
        let output = output.map(|file| StoreFile {
            file,
            seq_id,
            created_ms,
            major,
            kind: FileKind::Real,
        });
        if let Some(f) = &output {
            self.stats.compaction_written_bytes += f.length();
        }
        match output {
            Some(f) => {
                st.files.splice(first..first + count, [f]);
                st.file_rows.splice(first..first + count, [rows]);
            }
            None => {
                st.files.drain(first..first + count);
                st.file_rows.drain(first..first + count);
            }
        }
        self.stats.compacted_bytes += read;
        let files_now = self.regions[region].stores[store].files.len();
        let took_ns = self.now - started;
        let mb_s = read as f64 / (1u64 << 20) as f64 / (took_ns.max(1) as f64 / NS_PER_S as f64);
        self.note(
            region,
            format!(
                "{} compaction (ExploringCompactionPolicy) rewrote {count} file(s), {} read in {} ({mb_s:.1} MiB/s); {files_now} file(s) in the store now",
                if major { "major" } else { "minor" },
                crate::units::format_bytes(read),
                crate::units::format_duration_ms(took_ns / NS_PER_MS)
            ),
        );
        if major {
            self.stats.major_compactions += 1;
        } else {
            self.stats.minor_compactions += 1;
        }
        let s = &mut self.servers[server];
        if large {
            s.large_running = s.large_running.saturating_sub(1);
        } else {
            s.small_running = s.small_running.saturating_sub(1);
        }
        // CompactionRunner: check for a split, then whether more compaction is needed.
        if self.regions[region].state == RegionState::Open && !self.check_split(region) {
            let infos = Self::file_infos(&self.regions[region].stores[store]);
            if compaction::needs_compaction(&infos, 0, &self.cfg.compaction) {
                self.request_compaction(region, store, false);
            }
        }
        // A flush postponed for too many files may go now.
        self.start_flushes(server);
        self.start_compactions(server);
        let now_on = self.regions[region].server;
        if now_on != server {
            self.start_flushes(now_on);
        }
    }

    /// `HRegion.checkSplit` + `CompactSplit.requestSplit` (policy/split.rs), carried out. True
    /// if a split was started.
    fn check_split(&mut self, region: usize) -> bool {
        let cx = policy::split::SplitContext {
            online_regions: self.servers[self.regions[region].server].online_regions,
            region_split_limit: self.cfg.settings.region_split_limit,
            ignore_blocking: self.cfg.settings.split_ignore_blocking,
            blocking_store_files: self.cfg.compaction.blocking_store_files,
            now_ms: self.now / NS_PER_MS,
        };
        let check = policy::split::check(&self.regions[region], cx);
        if let Some(busy) = check.busy {
            self.regions[region].policy.set_busy(busy);
        }
        let Ok(req) = check.outcome else {
            return false;
        };
        let reason = format!(
            "{}: {}",
            self.regions[region].policy.policy().simple_name(),
            req.decision.reason
        );
        self.start_split(region, req.row, reason);
        true
    }

    /// A closing region's running compactions are aborted (`CloseChecker`: the compactor checks
    /// every `hbase.hstore.close.check.interval` bytes whether the store is closing); their pool
    /// slots go to the next queued compactions.
    fn abort_compactions(&mut self, region: usize) {
        let mut freed = Vec::new();
        for st in &mut self.regions[region].stores {
            if let Some(run) = st.running.take() {
                if let Some(c) = self.compactions.remove(&run.token) {
                    // Its completion event is stale.
                    self.queue.work -= 1;
                    if let (CompactionOutput::Building(id), Some(b)) =
                        (c.output, self.builder.as_mut())
                    {
                        b.abandon(id);
                    }
                }
                st.compacting = false;
                let s = &mut self.servers[run.server];
                if run.large {
                    s.large_running = s.large_running.saturating_sub(1);
                } else {
                    s.small_running = s.small_running.saturating_sub(1);
                }
                self.stats.aborted_compactions += 1;
                freed.push(run.server);
            }
        }
        if !freed.is_empty() {
            self.note(
                region,
                format!("{} running compaction(s) aborted by the close", freed.len()),
            );
        }
        for s in freed {
            self.rerate_compactions(s);
            self.start_compactions(s);
        }
    }

    /// Flushes a closing region's memstore at once (`HRegion.doClose`): returns the data bytes
    /// flushed, which the close takes `bytes / flush bandwidth` to write.
    fn close_flush(&mut self, region: usize) -> u64 {
        let data = self.regions[region].memstore_data();
        if data == 0 {
            return 0;
        }
        let cfg = &self.cfg;
        let r = &mut self.regions[region];
        let mut heap = 0;
        for (f, store) in r.stores.iter_mut().enumerate() {
            if store.memstore.is_empty() {
                continue;
            }
            let snap = store.memstore.take();
            heap += snap.heap_bytes;
            self.file_seq += 1;
            if let Some(file) = write_file(
                &snap,
                cfg.shapes[f],
                cfg.formats[f],
                cfg.scale,
                self.file_seq,
                self.now / NS_PER_MS,
            ) {
                self.stats.flushed_file_bytes += file.length();
                store.files.push(file);
                store.file_rows.push(snap.rows);
            }
        }
        let server = r.server;
        self.servers[server].memstore_heap =
            self.servers[server].memstore_heap.saturating_sub(heap);
        self.stats.flushes += 1;
        self.stats.flushed_bytes += data;
        data
    }

    /// Closes the parent (flushing its memstore, as `HRegion.doClose` does) and schedules the
    /// daughters' opening.
    fn start_split(&mut self, region: usize, row: Vec<u8>, reason: String) {
        let requested = self.now;
        // Where the row came from (split_point::choose): the largest file of the largest store.
        let source = self.regions[region]
            .stores
            .iter()
            .max_by_key(|s| s.size())
            .and_then(|st| {
                let f = st.files.iter().max_by_key(|f| f.length())?;
                Some((f.length(), st.files.len()))
            });
        // The close flush runs on its own (not through the flush queue).
        self.abort_compactions(region);
        let data = self.close_flush(region);
        let from = source.map_or(String::new(), |(len, n)| {
            format!(
                "; the row is the midkey of the largest store file, {} of the store's {n}",
                crate::units::format_bytes(len)
            )
        });
        self.note(
            region,
            format!(
                "split requested at {} ({reason}){from}",
                crate::keynotation::to_string_binary(&row)
            ),
        );
        let r = &mut self.regions[region];
        r.state = RegionState::Splitting;
        r.flush_queued = false;
        let duration = transfer_ns(data, self.cfg.flush_bw) + self.cfg.transition_ns;
        self.stats.offline_ns += duration;
        self.schedule(
            duration,
            Event::SplitDone {
                region,
                row,
                requested,
                reason,
            },
        );
    }

    fn split_done(&mut self, region: usize, row: Vec<u8>, requested: u64, reason: String) {
        let parent = &self.regions[region];
        let parent_server = parent.server;
        // Daughters open on the parent's server unless it died or is draining meanwhile.
        let server = if self.servers[parent_server].accepts_regions() {
            parent_server
        } else {
            self.any_live_server(region as u64).unwrap_or(parent_server)
        };
        let generation = parent.generation + 1;
        let (start, end) = (parent.start.clone(), parent.end.clone());
        let parent_bytes = parent.store_bytes();
        let nf = parent.stores.len();
        // Split each store file into daughter files (HRegionFileSystem.splitStoreFile).
        let mut a_stores: Vec<Store> = Vec::with_capacity(nf);
        let mut b_stores: Vec<Store> = Vec::with_capacity(nf);
        let mut rows_a = 0;
        let mut rows_b = 0;
        for store in &parent.stores {
            let mut sa = Store::default();
            let mut sb = Store::default();
            for (file, &exact) in store.files.iter().zip(&store.file_rows) {
                let (fa, fb) = file.split(&row);
                let ea = fa.as_ref().map_or(0, StoreFile::rows);
                let eb = fb.as_ref().map_or(0, StoreFile::rows);
                // Exact rows apportioned by the (block-granular) visible rows of each half.
                let a_exact = if ea + eb == 0 {
                    exact / 2
                } else {
                    (exact as u128 * ea as u128 / (ea + eb) as u128) as u64
                };
                let b_exact = exact - a_exact;
                if let Some(fa) = fa {
                    sa.files.push(fa);
                    sa.file_rows.push(a_exact);
                    rows_a += a_exact;
                }
                if let Some(fb) = fb {
                    sb.files.push(fb);
                    sb.file_rows.push(b_exact);
                    rows_b += b_exact;
                }
            }
            a_stores.push(sa);
            b_stores.push(sb);
        }
        self.regions[region].state = RegionState::Retired;
        self.servers[parent_server].online_regions =
            self.servers[parent_server].online_regions.saturating_sub(1);
        let b_server = if self.cfg.settings.auto_separate_children {
            // auto.separate.child.regions.after.split: daughter B goes to another live server.
            let others: Vec<usize> = (0..self.servers.len())
                .filter(|&i| i != server && self.servers[i].accepts_regions())
                .collect();
            if others.is_empty() {
                server
            } else {
                others[(splitmix64(self.cfg.seed ^ region as u64) % others.len() as u64) as usize]
            }
        } else {
            server
        };
        let a = self.open_region(
            start.clone(),
            row.clone(),
            server,
            generation,
            Some(region),
            nf,
        );
        let b = self.open_region(
            row.clone(),
            end.clone(),
            b_server,
            generation,
            Some(region),
            nf,
        );
        self.regions[a].stores = a_stores;
        self.regions[b].stores = b_stores;
        self.regions[a].rows = rows_a;
        self.regions[b].rows = rows_b;
        // Routing: the parent's entry becomes daughter A; B is inserted after it.
        let pos = self
            .routing
            .iter()
            .position(|(_, id)| *id == region)
            .expect("parent is routed");
        self.routing[pos] = (start.clone(), a);
        self.routing.insert(pos + 1, (row.clone(), b));
        self.routing_prefix.insert(pos + 1, prefix8(&row));
        self.splits.push(SplitRecord {
            at_ns: requested,
            done_ns: self.now,
            parent_start: start,
            parent_end: end,
            split_key: row,
            server,
            parent_bytes,
            generation,
            reason,
        });
        self.note(
            a,
            format!(
                "opened on {} as the lower daughter of a split",
                self.name(server)
            ),
        );
        self.note(
            b,
            format!(
                "opened on {} as the upper daughter of a split",
                self.name(b_server)
            ),
        );
        // HRegionServer.postOpenDeployTasks: a store with references gets a compaction.
        for d in [a, b] {
            for st in 0..nf {
                if self.regions[d].stores[st].has_references()
                    || self.regions[d].stores[st].files.len() >= self.cfg.compaction.min_files
                {
                    self.request_compaction(d, st, false);
                }
            }
        }
    }

    /// The flush chore (every `hbase.regionserver.flush.check.period`) and, every
    /// `compactchecker.interval.multiplier` compaction-check periods, the major compaction check.
    fn chore(&mut self, n: u64) {
        if self.draining {
            return;
        }
        let now_ms = self.now / NS_PER_MS;
        if let Some(interval) = self.cfg.settings.flush_interval_ms.filter(|&i| i > 0)
            && (self.periodic_flush_next_ms.0 != interval
                || now_ms >= self.periodic_flush_next_ms.1)
        {
            let scan = policy::flush::periodic_scan(&self.regions, now_ms, interval);
            self.periodic_flush_next_ms = (interval, scan.next_ms);
            for id in scan.due {
                self.request_flush(id, FlushWhy::Periodic);
            }
        }
        let flush_period = self.cfg.settings.flush_check_period_ms.max(1);
        let major_period = self.cfg.settings.compaction_check_period_ms.max(1)
            * self.cfg.settings.compactchecker_interval_multiplier.max(1) as u64;
        if (n * flush_period) % major_period < flush_period {
            let stores: Vec<(usize, usize)> = self
                .regions
                .iter()
                .filter(|r| r.state == RegionState::Open)
                .flat_map(|r| (0..r.stores.len()).map(move |s| (r.id, s)))
                .collect();
            for (r, s) in stores {
                let infos = Self::file_infos(&self.regions[r].stores[s]);
                if compaction::major_due(&infos, &self.cfg.compaction, now_ms) {
                    self.request_compaction(r, s, true);
                } else if compaction::needs_compaction(&infos, 0, &self.cfg.compaction) {
                    self.request_compaction(r, s, false);
                }
            }
        }
        self.schedule(
            flush_period.saturating_mul(NS_PER_MS),
            Event::Chore { n: n + 1 },
        );
    }

    /// The live region holding `key`, leaving the write path's cache alone.
    fn route_uncached(&self, key: &[u8]) -> usize {
        self.locate(key, prefix8(key))
    }

    /// Binary search of the routing table for `key` (whose `prefix8` is `p`): integer compares
    /// on the start prefixes, full compares only among equal prefixes.
    fn locate(&self, key: &[u8], p: u64) -> usize {
        let hi = self.routing_prefix.partition_point(|&x| x <= p);
        let lo = self.routing_prefix[..hi].partition_point(|&x| x < p);
        let j = lo + self.routing[lo..hi].partition_point(|(start, _)| start.as_slice() <= key);
        self.routing[j.saturating_sub(1)].1
    }

    /// The heat bucket holding `key`, leaving the write path's cache alone.
    fn heat_bucket_uncached(&self, key: &[u8]) -> usize {
        self.heat_buckets
            .partition_point(|s| s.as_slice() <= key)
            .saturating_sub(1)
    }

    /// The heat bucket holding `key`, whose `prefix8` is `p`.
    #[inline]
    fn heat_bucket(&mut self, key: &[u8], p: u64) -> usize {
        if p > self.heat_lo && p < self.heat_hi {
            return self.last_bucket;
        }
        self.heat_bucket_slow(key)
    }

    #[cold]
    #[inline(never)]
    fn heat_bucket_slow(&mut self, key: &[u8]) -> usize {
        let b = &self.heat_buckets;
        if b.len() <= 1 {
            // One bucket (or none: writes then count in slot 0): every key.
            self.heat_lo = 0;
            self.heat_hi = u64::MAX;
            self.last_bucket = 0;
            return 0;
        }
        // Integer compares on the 8-byte prefixes, full compares only among equal prefixes.
        let p = prefix8(key);
        let slot = (p & 63) as usize;
        let c = self.heat_cache[slot];
        if c < b.len() && b[c].as_slice() <= key && b.get(c + 1).is_none_or(|n| key < n.as_slice())
        {
            return c;
        }
        let hi = self.heat_prefix.partition_point(|&x| x <= p);
        let lo = self.heat_prefix[..hi].partition_point(|&x| x < p);
        let j = (lo + b[lo..hi].partition_point(|s| s.as_slice() <= key)).saturating_sub(1);
        self.heat_cache[slot] = j;
        self.last_bucket = j;
        // As for routing: prefixes strictly between the bucket's bounds' imply the key is inside.
        self.heat_lo = prefix8(&b[j]);
        self.heat_hi = b.get(j + 1).map_or(u64::MAX, |n| prefix8(n));
        j
    }

    /// Records every server's state (a timeline sample) and schedules the next one while
    /// anything else is still to happen.
    fn sample(&mut self) {
        let mut servers: Vec<ServerSample> = self
            .servers
            .iter()
            .map(|s| ServerSample {
                regions: s.online_regions as u32,
                blocked_ns: s.blocked_ns,
                writes: s.write_requests,
                reads: s.read_requests,
                online: s.accepts_regions(),
                ..ServerSample::default()
            })
            .collect();
        for &(_, id) in &self.routing {
            let r = &self.regions[id];
            let ss = &mut servers[r.server];
            ss.store_bytes += r.store_bytes();
            ss.memstore_bytes += r.memstore_data();
        }
        self.samples.push(Sample {
            // The scheduled time (events are handled when the client clock passes them).
            at_ns: (self.samples.len() as u64 + 1) * self.sample_ns,
            servers,
        });
        self.track_hosting();
        self.keep_draining();
        // The master's cluster metrics (the balancer's load history) every simulated minute.
        let at = self.samples.last().map_or(0, |x| x.at_ns);
        if at / WINDOW_NS != at.saturating_sub(self.sample_ns) / WINDOW_NS {
            self.record_loads();
        }
        if self.keep_periodic() {
            self.schedule(self.sample_ns, Event::Sample);
        }
    }

    /// A chore reschedules itself while the load runs, and after it while real work remains.
    fn keep_periodic(&self) -> bool {
        !self.draining || self.queue.work > 0
    }

    /// After the last write: let running and queued flushes, compactions and splits finish.
    fn drain(&mut self) {
        self.draining = true;
        // Chores due after the last piece of real work (a balancer run minutes later) are not
        // part of the load; the report shows the table when its work is done.
        while self.queue.work > 0 && self.advance() {}
    }

    fn finish(
        mut self,
        generator: &Generator,
        sampling: Sampling,
        ingest_ns: u64,
        regions_initial: usize,
    ) -> RunResult {
        self.finish_lineage();
        let routing = std::mem::take(&mut self.routing);
        let mut all: Vec<Option<Region>> = std::mem::take(&mut self.regions)
            .into_iter()
            .map(Some)
            .collect();
        let regions: Vec<Region> = routing
            .iter()
            .filter_map(|(_, id)| all[*id].take())
            .collect();
        let cfg = &self.cfg;
        let cells: u64 = cfg.cells_per_family.iter().sum();
        let data_bytes = self.servers.iter().map(|s| s.write_bytes as u128).sum();
        RunResult {
            generator: generator.name.clone(),
            describe: generator.inner.describe(),
            scale: sampling.k,
            emulated_rows: sampling.emulated(),
            rows: sampling.rows,
            payload_bytes: sampling.rows as u128 * cells as u128 * cfg.value_len as u128,
            data_bytes,
            ingest_ns,
            settled_ns: self.settled.max(ingest_ns),
            regions_initial,
            regions,
            servers: self.servers,
            stats: self.stats,
            splits: self.splits,
            windows: self.windows,
            max_filesize: cfg.settings.max_filesize,
            samples: self.samples,
            sample_ns: self.sample_ns,
            heat_buckets: self.heat_buckets,
            heat_writes: self.heat_writes,
            heat_reads: self.heat_reads,
            dynamics: self.dyn_.finish(),
        }
    }
}

/// The first 8 bytes of `key` as a big-endian integer, zero-padded (orders like the key except
/// among keys sharing those bytes).
#[inline]
fn prefix8(key: &[u8]) -> u64 {
    if let Some(head) = key.first_chunk::<8>() {
        // The common case as one load (a variable-length copy calls libc's memcpy).
        return u64::from_be_bytes(*head);
    }
    let mut b = [0u8; 8];
    for (d, s) in b.iter_mut().zip(key) {
        *d = *s;
    }
    u64::from_be_bytes(b)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_cluster;
