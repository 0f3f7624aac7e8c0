//! The emulation engine: a scenario's writes played against regions hosted on RegionServers, with
//! memstores, flushes, store files, compactions and splits, on a simulated clock.
//!
//! Shape of a run (see docs/MODEL.md):
//! - Rowkeys are generated in parallel chunks (pure functions of seed and id), then applied in id
//!   order by one thread: routing, memstore accounting and the clock. Everything that depends on
//!   order happens there, so the result is the same for any thread count.
//! - Flushes, compactions and splits are events on the simulated clock (ns), processed in
//!   (time, sequence) order before each write that happens after them.

mod apply;
mod decision;
mod files;
pub mod policy;
mod queue;
mod reads;
mod recorder;
mod result;
pub mod scale;
pub mod state;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::config::Settings;
use crate::diag::InputError;
use crate::keygen::Generator;
use crate::keygen::rng::splitmix64;
use crate::plan::RunPlan;
use crate::scenario::Scenario;

use policy::compaction::CompactionConfig;
use policy::split::SplitPolicyInstance;
use policy::{compaction, split_point, throughput};
use scale::Sampling;
use state::cell::HeapLayout;
use state::memstore::Memstore;
use state::region::{Region, RegionState, Store};
use state::routing::{RoutingTable, prefix8};
use state::server::Server;
use state::storefile::{CellShape, FileFormat};

use decision::FlushWhy;
use files::{Builder, CompactionOutput};
use queue::{Event, EventQueue, NS_PER_MS, NS_PER_S, transfer_ns};
pub use result::{
    DynamicsResult, EventRecord, HistoryEntry, MergeRecord, MoveRecord, RunResult, RunStats,
    Sample, ServerSample, SplitRecord,
};

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
    /// Live regions by start key, with the write path's caches.
    routing: RoutingTable,
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
    /// Heat bucket last found for each of 64 key prefixes (prefix mod 64), as the routing
    /// table caches regions.
    heat_cache: [usize; 64],
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
    dyn_: apply::cluster::Dynamics,
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
                    state::memstore::push_key(arena, key);
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
            routing: RoutingTable::new(),
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
            heat_cache: [usize::MAX; 64],
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
            dyn_: apply::cluster::Dynamics::new(scenario),
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
            e.routing.push(r.start.clone(), id);
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
        self.routing.route(key, p)
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
        self.routing.locate(key)
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
        let routing = std::mem::replace(&mut self.routing, RoutingTable::new());
        let mut all: Vec<Option<Region>> = std::mem::take(&mut self.regions)
            .into_iter()
            .map(Some)
            .collect();
        let regions: Vec<Region> = routing.ids().filter_map(|id| all[id].take()).collect();
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_cluster;
