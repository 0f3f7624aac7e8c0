//! The emulation engine: a scenario's writes played against regions hosted on RegionServers, with
//! memstores, flushes, store files, compactions and splits, on a simulated clock.
//!
//! Shape of a run (see docs/ARCHITECTURE.md and docs/MODEL.md):
//! - Rowkeys come from the workload's key feed (generated in parallel chunks, pure functions of
//!   seed and id) and are applied in id order by one thread: routing, memstore accounting and
//!   the clock. Everything that depends on order happens there, so the result is the same for
//!   any thread count.
//! - Flushes, compactions and splits are events on the simulated clock (ns), processed in
//!   (time, sequence) order before each write that happens after them.
//! - [`Engine::step`] does one thing: applies one row, or handles one event. [`run`] is a loop
//!   over it.

mod apply;
mod decision;
mod derived;
mod files;
mod history;
pub mod ingest;
pub mod policy;
mod queue;
mod recorder;
mod result;
pub mod scan;
pub mod state;

use std::sync::Arc;

use crate::config::Settings;
use crate::diag::InputError;
use crate::engine::ingest::feed::{CHUNK, KeyFeed};
use crate::keygen::Generator;
use crate::plan::RunPlan;
use crate::scenario::Scenario;
use crate::workload::heat::heat_buckets;
use crate::workload::reads::ReadState;
use crate::workload::scale::{self, Sampling};

use ingest::route::{Router, hex_digits, prefix8};
use policy::compaction::CompactionConfig;
use policy::split::SplitPolicyInstance;
use policy::split_point;
use state::State;
use state::cell::{self, HeapLayout};
use state::compaction::ActiveCompaction;
use state::memstore::Memstore;
use state::region::Region;
use state::server::Server;
use state::storefile::{CellShape, FileFormat};

pub use decision::{FlushWhy, MoveReason, ServerAt, SplitReason};
use files::Builder;
pub use history::{EventDetail, Happening, OpenedAs, SplitSource};
use queue::{Event, EventQueue, NS_PER_MS, NS_PER_S, transfer_ns};
use recorder::Recorder;
pub use result::{
    DynamicsResult, EventRecord, FileResult, HistoryEntry, InitialRegionResult, MergeRecord,
    MoveRecord, RegionResult, RunResult, RunStats, Sample, ServerResult, ServerSample, SplitRecord,
    StoreResult, TableResult,
};

/// How far a client may run ahead of a RegionServer's write path before it waits (its buffer).
pub const CLIENT_LAG_NS: u64 = 100 * NS_PER_MS;
/// Length of a hotspot window (one simulated minute).
pub const WINDOW_NS: u64 = 60 * NS_PER_S;
/// Emptied memstore buffers kept for reuse.
const MAX_SPARES: usize = 64;

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
    /// Run the same model on the reference engine: rows one at a time, each key made on its
    /// own, routed by a binary search over the routing table, flushes sorted with the
    /// standard sort (`engine::ingest`). Slow; must give the same report byte for byte.
    pub reference: bool,
}

/// Timeline sample period: about a hundredth of the run (the load at the offered rate, or
/// `workload.duration` if longer), between one second and one minute (whole seconds), so short
/// runs still get a timeline; runs over a week keep to about 10,000 samples.
fn sample_period(payload: u128, rate: u64, duration_ms: Option<u64>) -> u64 {
    let load_s = payload / u128::from(rate.max(1));
    let ideal_s = load_s.max(u128::from(duration_ms.unwrap_or(0) / 1000));
    (ideal_s / 100).clamp(1, 60).max(ideal_s / 10_000) as u64 * NS_PER_S
}

/// About how long a bulk load lasts, ms: its job at best (`BulkJob::min_ns`) and its
/// loader committing a file per region at a few ms each on the node's cores.
fn bulk_run_ms(scenario: &Scenario, regions: usize) -> u64 {
    let job_ms = scenario.bulk_job.min_ns(
        scenario.cluster.regionservers,
        scenario.workload.payload_bytes(),
    ) / 1_000_000;
    let threads = scenario
        .settings
        .bulk_load
        .loader_threads
        .unwrap_or(scenario.cluster.hardware.cores)
        .max(1);
    let load_ms = regions as u128 * 5 / u128::from(threads);
    (job_ms + load_ms).min(u128::from(u64::MAX)) as u64
}

/// Fixed inputs of a run.
struct Config {
    settings: Settings,
    compaction: CompactionConfig,
    shapes: Vec<CellShape>,
    formats: Vec<FileFormat>,
    /// Each family's TTL, ms (`None`: FOREVER).
    ttl_ms: Vec<Option<u64>>,
    /// Each family's VERSIONS.
    max_versions: Vec<u32>,
    /// Updates and deletes among the rows (`None`: every row is new).
    mix: Option<Mix>,
    /// The designed table's new rows never share a key (`RowKeyGenerator::distinct_keys`):
    /// its flushes need not sort every row (`SortScratch::select_every`).
    distinct_keys: bool,
    /// The reference engine runs (`RunOptions::reference`).
    reference: bool,
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
    /// An explicit ceiling of a server's write path (`cluster.write_bandwidth`).
    write_cap: Option<u64>,
    /// Every node's hardware.
    hardware: crate::hardware::Hardware,
    /// The loader's writers.
    writers: u64,
    flush_bw: u64,
    /// Per store: a compaction thread's bytes/s of on-disk bytes read.
    compaction_bw: Vec<u64>,
    transition_ns: u64,
    /// The servers' global memstore marks (`policy::write::GlobalMarks`).
    global: policy::write::GlobalMarks,
    /// RegionServer JVM heap, bytes.
    heap_bytes: u64,
    /// Wall-clock time of day at simulated 0, ms after midnight (`workload.start_time`).
    day_start_ms: u64,
    seed: u64,
    scale: u64,
    /// A WAL rolls past this many bytes; with more rolled files than `wal_max_logs`, regions
    /// are forced to flush (`derived::wal_roll_size`, `wal_max_logs`).
    wal_roll: u64,
    wal_max_logs: usize,
    /// The seeded spread of durations and GC pauses (`[cluster] variability`).
    draws: policy::variability::Draws,
    /// The time-range scans the report prices (`[client] scan_windows`), ms.
    scan_windows_ms: Vec<u64>,
    /// The bulk-load job (`[bulk_load]`), for a design loaded in bulk.
    bulk_job: crate::scenario::BulkJob,
    /// The families' names (for what the bulk loader reports).
    family_names: Vec<String>,
}

impl Config {
    /// How flushes of table `table`'s regions order their keys.
    fn key_order(&self, table: u16) -> files::KeyOrder {
        if self.reference {
            files::KeyOrder::Plain
        } else {
            files::KeyOrder::Fast {
                distinct: self.distinct_keys && table == 0,
            }
        }
    }
}

/// Which rows update or delete a row written before: a row whose seeded draw (a pure function
/// of seed and row) is below `update_below` updates, below `delete_below` deletes.
#[derive(Debug, Clone, Copy)]
struct Mix {
    update_below: u64,
    delete_below: u64,
}

impl Mix {
    fn new(update: f64, delete: f64) -> Option<Mix> {
        if update <= 0.0 && delete <= 0.0 {
            return None;
        }
        let at = |f: f64| (f.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
        Some(Mix {
            update_below: at(update),
            delete_below: at(update + delete),
        })
    }
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

/// One generator's run. Its fields fall in four groups: the fixed inputs (`cfg`), the simulated
/// world (`world`: what a report is made of), run control (`run`: where the run is and how it
/// is driven) and hot-path caches and scratch (`cache`: figures derived from the other groups
/// and reused buffers, kept for speed only). Drive it with [`Engine::step`] (or [`run`]), then
/// take the [`RunResult`] with [`Engine::finish`].
pub struct Engine {
    cfg: Config,
    world: World,
    run: RunControl,
    cache: Caches,
}

/// The simulated cluster: its state, the clock, the event queue and what the report records.
struct World {
    /// Regions, servers, the routing table and the running compactions.
    state: State,
    /// Simulated time, ns.
    now: u64,
    /// Fraction of a nanosecond carried by the client clock (32-bit fixed point).
    clock_frac: u32,
    queue: EventQueue,
    /// Counters, hotspot windows, the key heatmap, timeline samples and split records.
    rec: Recorder,
    file_seq: u64,
    /// The regions as they opened (store bytes at t=0), for the report's start-vs-end.
    initial: Vec<InitialRegionResult>,
    regions_initial: usize,
    /// Cluster dynamics (balancer, normalizer, events): see `apply/cluster.rs`.
    dyn_: apply::cluster::Dynamics,
    /// The cluster's other tables: their write streams and every table's counters.
    tables: apply::tables::Tables,
    /// Real rows accepted so far.
    rows_written: u64,
    /// The region whose compactions are being aborted for a close.
    closing: Option<usize>,
    /// Regions closing with a pre-close flush running, and what each does once it is written.
    pre_closing: std::collections::BTreeMap<usize, apply::close::PendingClose>,
    /// A `CompactionTune` event is scheduled.
    tune_armed: bool,
    /// Stores holding compacted References the discharger has not archived yet.
    discharge_pending: Vec<(usize, usize)>,
    /// The resource tick sleeps: writes are paused and nothing on any node runs (it re-arms
    /// when something starts, `wake_idle_chores`).
    tick_idle: bool,
}

/// Where the run is and what drives it: the rows still to come, the reads, the end.
struct RunControl {
    sampling: Sampling,
    /// The coarsest scale the figures stay trustworthy at (`workload/scale.rs`).
    scale_guard: scale::ScaleGuard,
    /// The generator and the emulated rows (also for reads, which re-derive keys).
    generator: Arc<Generator>,
    /// The keys still to write (`None` once all are written).
    feed: Option<Box<KeyFeed>>,
    /// The read workload.
    reads: ReadState,
    /// The row the feed shows next has arrived (the clock is at its arrival) but is not applied.
    row_pending: bool,
    /// No rows arrive: a `phase` set the rate to 0, or the data is written and the run goes on
    /// to `workload.duration`. The clock then moves from event to event.
    paused: bool,
    /// The last row is written: only the remaining work runs.
    draining: bool,
    /// The run ends here (`workload.duration`), ns; `u64::MAX` without a duration.
    end_ns: u64,
    /// Time the last write was accepted (set when the feed runs out), ns.
    ingest_ns: Option<u64>,
    /// Check the state invariants after every event (tests).
    check_each_event: bool,
    /// Background writer of flush files (when the run has a thread to spare).
    builder: Option<Builder>,
    /// The design is bulk-loaded: the job has not run yet (`Some(None)`), or the loader's state.
    bulk: Option<Option<Box<state::bulkload::BulkLoader>>>,
    /// Several clients, or a closed loop: each client's clock, rows and held-back rows (the
    /// key feed moves here). `None`: the one shared open-loop client of the single stream.
    loader: Option<Box<state::loader::LoaderState>>,
}

/// Hot-path caches and scratch: figures derived from the config and the world, recomputed
/// when what they derive from changes, and buffers reused to spare allocations. None of it
/// changes a result.
struct Caches {
    /// The weight `clock_step` was computed for, and its clock advance (32.32 fixed point).
    clock_weight: u64,
    clock_step: u128,
    /// Key length `put_per_family` was computed for.
    put_row_len: usize,
    put_per_family: Vec<FamilyPut>,
    /// What a row delete adds to each family: one `DeleteFamily` marker.
    delete_per_family: Vec<FamilyPut>,
    /// WAL bytes one real row appends (its cells as `KeyValueCodec` writes them).
    wal_row: u64,
    /// WAL bytes of a row delete.
    wal_delete: u64,
    /// Data bytes of one real row with the current key length (the write path's CPU cost is
    /// per row).
    row_data: u64,
    /// Key buffer of updates and deletes (the key of the row they touch).
    target_key: Vec<u8>,
    /// Key buffer of reads.
    read_key: Vec<u8>,
    /// Key buffer of the loader's clients.
    loader_key: Vec<u8>,
    /// Rows at which the next row-triggered scenario event fires (`u64::MAX`: none): the
    /// earliest of `World::dyn_`'s row triggers.
    next_row_trigger: u64,
    /// (interval, time) before which the periodic flush check cannot find a due region (the
    /// earliest oldest edit + interval at the last check): checks before it are skipped.
    periodic_flush_next_ms: (u64, u64),
    /// Emptied memstore buffers, reused by the next segments (no reallocation on the write path).
    spares: Vec<Memstore>,
    /// The resource tick's scratch buffers (per-server HDFS writes, one server's compactions).
    tick_hdfs: Vec<f64>,
    tick_running: Vec<Vec<u64>>,
    /// The write path's runs of rows between events (`ingest/runs.rs`).
    runs: ingest::runs::RowRuns,
}

/// What one [`Engine::step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Applied the next emulated row, or a run of rows that set nothing off (`done` rows
    /// applied so far); events handled while a row waited on a blocked or offline region
    /// happened inside it.
    Rows {
        /// Emulated rows applied so far.
        done: u64,
    },
    /// Handled one scheduled event.
    Event,
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
    let mut engine = Engine::start(scenario, plan, opts);
    let total = engine.run.sampling.emulated();
    while let Some(step) = engine.step()? {
        if let Step::Rows { done } = step
            && (done % CHUNK == 0 || done == total)
        {
            progress(Progress {
                done,
                total,
                sim_ns: engine.world.now,
            });
        }
    }
    Ok(engine.finish())
}

/// The memstore heap of one real row and its largest store's bytes (after the family's
/// compression), with the key length of the workload's first row.
pub fn row_footprint(scenario: &Scenario, generator: &Generator) -> (u64, f64) {
    let s = &scenario.settings;
    let w = &scenario.workload;
    let fams = &scenario.table.families;
    let nf = fams.len().max(1) as u64;
    let mut key = Vec::new();
    let key_len = match generator.key_checked(w.first_id, &mut key) {
        Ok(()) => key.len() as u64,
        Err(_) => 1,
    };
    let layout = HeapLayout::new(
        scenario.cluster.heap_bytes,
        s.mslab_enabled,
        s.mslab_max_allocation,
    );
    let mut heap_row = 0u64;
    let mut largest_store_row = 0f64;
    for (i, f) in fams.iter().enumerate() {
        let cells = w.columns / nf + u64::from((i as u64) < w.columns % nf);
        let len = cell::data_size(
            key_len,
            f.name.len() as u64,
            w.qualifier_bytes,
            w.value_bytes,
        );
        heap_row += cells * cell::heap_size(len, layout);
        largest_store_row = largest_store_row.max((cells * len) as f64 * f.compression_ratio);
    }
    (heap_row, largest_store_row)
}

/// The scale guard for `scenario`: real rows per flush (flush size / a row's memstore heap) and
/// per region at the split size (`max_filesize` / the largest store's bytes per row, after the
/// family's compression), with the key length of the workload's first row.
pub fn scale_guard(scenario: &Scenario, generator: &Generator) -> scale::ScaleGuard {
    let s = &scenario.settings;
    let (heap_row, largest_store_row) = row_footprint(scenario, generator);
    scale::ScaleGuard {
        flush_rows: s.flush_size / heap_row.max(1),
        split_rows: (s.max_filesize as f64 / largest_store_row.max(1.0)) as u64,
    }
}

impl Engine {
    /// Sets up `plan`'s run of `scenario`: the pre-split regions open on their servers, the
    /// chores and time-triggered events scheduled, the key feed started.
    pub fn start(scenario: &Scenario, plan: RunPlan, opts: RunOptions) -> Engine {
        let w = &scenario.workload;
        let guard = scale_guard(scenario, &plan.generator);
        let k = scale::choose(w.rows, opts.scale.or(w.scale), guard);
        let sampling = Sampling {
            first_id: w.first_id,
            rows: w.rows,
            k,
            seed: scenario.seed,
        };
        let generator = Arc::new(plan.generator);
        let bulk = plan.load == crate::scenario::LoadPath::Bulk;
        let mut engine = Engine::new(
            scenario,
            &plan.regions,
            k,
            generator.clone(),
            sampling,
            bulk,
        );
        engine.run.scale_guard = guard;
        engine
            .world
            .rec
            .set_heat_buckets(heat_buckets(&generator, w.first_id, w.rows));
        // The RegionServers' file work (flush files, compaction outputs) on a thread of its own.
        if opts.builder {
            engine.run.builder = Some(Builder::start());
        }
        if opts.reference {
            engine.use_reference();
        }
        engine.world.regions_initial = engine.world.state.routing.len();
        // Pre-split regions may already cover every server.
        engine.track_hosting();
        engine.run.feed = Some(Box::new(if opts.reference {
            KeyFeed::plain(generator, sampling)
        } else {
            KeyFeed::new(generator, sampling, opts.threads.max(1))
        }));
        if !plan.loader.is_shared() {
            let mut ld = state::loader::LoaderState::new(
                plan.loader,
                scenario.client.writers,
                scenario.settings.client.write_buffer,
            );
            ld.grouping = plan.grouping.clone();
            engine.start_loader(ld);
        }
        if plan.load == crate::scenario::LoadPath::Bulk {
            // No row arrives through the write path: the job takes them all at its start.
            engine.run.bulk = Some(None);
            engine.run.paused = true;
        }
        engine
    }

    /// Runs the model without the ingest layer's speed-ups: rows one at a time, routed by
    /// searching the tables, flushes ordered by the standard sort (`RunOptions::reference`).
    fn use_reference(&mut self) {
        self.cfg.reference = true;
        self.cache.runs.enabled = false;
        self.world.state.routing.set_plain(true);
        for t in &mut self.world.state.tables {
            t.set_plain(true);
        }
        self.world.rec.heat.set_plain(true);
    }

    /// Does the next thing in simulated time: handles one event that is due before the next
    /// row, or applies the next row; after the last row, handles the remaining work (flushes,
    /// compactions, splits, moves) one event at a time. `None` when the run is over. An error
    /// is a key the generator cannot make.
    #[inline]
    pub fn step(&mut self) -> Result<Option<Step>, InputError> {
        // The common case, kept small so the caller's loop inlines it: the next row arrives with
        // no event due before it and lands.
        if !self.run.row_pending
            && !self.run.paused
            && let Some(mut feed) = self.run.feed.take()
        {
            // Rows that set nothing off land as a run (`ingest/runs.rs`).
            if let Some(done) = self.land_run(&mut feed) {
                self.run.feed = Some(feed);
                return Ok(Some(Step::Rows { done }));
            }
            if let Some((b, key)) = feed.peek() {
                let weight = self.run.sampling.weight(b);
                self.arrive(weight);
                if self.world.queue.next_at > self.world.now && self.world.now <= self.run.end_ns {
                    self.land_op(b, key, weight);
                    feed.advance();
                    self.do_reads(b + 1);
                    self.run.feed = Some(feed);
                    return Ok(Some(Step::Rows { done: b + 1 }));
                }
                // Events come due first; the row lands after them.
                self.run.row_pending = true;
            }
            self.run.feed = Some(feed);
        }
        self.step_slow()
    }

    /// [`Engine::step`] when an event is due before the pending row, or the feed is done.
    #[cold]
    #[inline(never)]
    fn step_slow(&mut self) -> Result<Option<Step>, InputError> {
        if self.run.loader.is_some() {
            return self.loader_step();
        }
        if matches!(self.run.bulk, Some(None)) {
            let done = self.bulk_job()?;
            return Ok(Some(Step::Rows { done }));
        }
        if self.run.row_pending && self.world.now > self.run.end_ns {
            return Err(self.duration_too_short());
        }
        if self.run.row_pending && self.world.queue.next_at <= self.world.now {
            // Events due by the row's arrival come first, handled at the client's clock.
            if let Some(ev) = self.world.queue.pop() {
                self.handle(ev.event);
            }
            return Ok(Some(Step::Event));
        }
        if self.run.paused && !self.run.row_pending {
            if self.idle_step() {
                return Ok(Some(Step::Event));
            }
            // The duration ended while a pause held rows back.
            return match self.run.ingest_ns {
                Some(_) => Ok(None),
                None => Err(self.duration_too_short()),
            };
        }
        let Some(mut feed) = self.run.feed.take() else {
            return Ok(self.drain_step().then_some(Step::Event));
        };
        let Some((b, key)) = feed.peek() else {
            if let Some(e) = feed.error() {
                self.run.feed = Some(feed);
                return Err(e);
            }
            self.run.ingest_ns = Some(self.world.now);
            if self.run.end_ns != u64::MAX {
                // The data is written; the table lives on without writes until the duration.
                self.run.feed = Some(feed);
                self.run.paused = true;
                return Ok(self.idle_step().then_some(Step::Event));
            }
            // The last row is written: from here on only the remaining work runs.
            self.run.draining = true;
            return Ok(self.drain_step().then_some(Step::Event));
        };
        // The pending row (its clock already advanced) lands now that no event is due.
        let weight = self.run.sampling.weight(b);
        self.run.row_pending = false;
        self.land_op(b, key, weight);
        feed.advance();
        self.do_reads(b + 1);
        self.run.feed = Some(feed);
        if self.world.tick_idle {
            // A row that arrived as a phase paused the writes lands after the tick slept.
            self.wake_idle_chores();
        }
        Ok(Some(Step::Rows { done: b + 1 }))
    }

    /// While no rows arrive: the next event, at its own time, up to `workload.duration`.
    /// False when the run is over.
    fn idle_step(&mut self) -> bool {
        if self.world.queue.next_at > self.run.end_ns {
            self.world.now = self.world.now.max(self.run.end_ns);
            return false;
        }
        self.advance()
    }

    /// The error of a run whose duration ended before its data was written.
    #[cold]
    fn duration_too_short(&self) -> InputError {
        InputError::new(format!(
            "the run reached its duration ({}) with {} of {} rows written",
            crate::units::format_duration_ms(self.run.end_ns / NS_PER_MS),
            self.world.rows_written,
            self.run.sampling.rows
        ))
        .field("workload.duration")
        .expected("a longer duration, less data, or higher phase rates")
    }

    /// After the last row: one event of the remaining work. Chores due after the last piece of
    /// real work (a balancer run minutes later) are not part of the load; the report shows the
    /// table when its work is done. False when no work remains.
    fn drain_step(&mut self) -> bool {
        self.world.queue.work > 0 && self.advance()
    }

    /// Simulated time, ns.
    pub fn now_ns(&self) -> u64 {
        self.world.now
    }

    /// Land rows that set nothing off as runs (the default) or one at a time; both leave the
    /// same state (`ingest/runs.rs`). For tests comparing the two.
    pub fn set_row_runs(&mut self, on: bool) {
        self.cache.runs.enabled = on;
    }

    /// Rows that runs held back for the client's retry so far (for tests: that runs, not only
    /// rows one at a time, took that path).
    pub fn rows_held_in_runs(&self) -> u64 {
        self.cache.runs.held_total
    }

    /// Rows of runs whose regions the key feed's workers found, and rows of runs routed on
    /// the engine's thread, so far (for tests: that both paths ran).
    pub fn rows_routed_in_runs(&self) -> [u64; 2] {
        self.cache.runs.routed_total
    }

    /// Check [`Engine::invariants`] after every event from now on, panicking with the broken one
    /// (for tests: it costs a pass over the state per event).
    pub fn check_invariants_each_event(&mut self, on: bool) {
        self.run.check_each_event = on;
    }

    /// Checks the state invariants (`State::invariants`) and that the live work the queue
    /// counts is the work it holds (stale compaction completions excluded).
    pub fn invariants(&self) -> Result<(), String> {
        self.world.state.invariants()?;
        let live = self
            .world
            .queue
            .scheduled()
            .filter(|s| !s.event.is_periodic())
            .filter(|s| match &s.event {
                Event::CompactionDone { token, generation } => self
                    .world
                    .state
                    .compactions
                    .get(token)
                    .is_some_and(|c| c.generation == *generation),
                _ => true,
            })
            .count() as u64;
        if live != self.world.queue.work {
            return Err(format!(
                "the queue counts {} pieces of live work and holds {live}",
                self.world.queue.work
            ));
        }
        Ok(())
    }

    fn new(
        scenario: &Scenario,
        initial: &[crate::plan::RegionPlan],
        scale: u64,
        generator: Arc<Generator>,
        sampling: Sampling,
        bulk: bool,
    ) -> Engine {
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
        let global = policy::write::GlobalMarks::of(s, heap);
        let wal_roll = derived::wal_roll_size(s);
        let cfg = Config {
            distinct_keys: generator.layout().distinct_keys(),
            reference: false,
            compaction: CompactionConfig::from_settings(s),
            settings: s.clone(),
            shapes,
            formats,
            ttl_ms: fams.iter().map(|f| f.ttl_ms).collect(),
            max_versions: fams.iter().map(|f| f.max_versions).collect(),
            mix: Mix::new(w.update_fraction, w.delete_fraction),
            layout: HeapLayout::new(heap, s.mslab_enabled, s.mslab_max_allocation),
            value_len: w.value_bytes,
            qualifier_len: w.qualifier_bytes,
            family_lens: fams.iter().map(|f| f.name.len() as u64).collect(),
            row_payload: w.columns * w.value_bytes,
            rate_fp: derived::ns_per_byte_fp(w.rate_bytes_per_s),
            write_cap: scenario.cluster.write_bandwidth,
            hardware: scenario.cluster.hardware.clone(),
            writers: scenario.client.writers,
            scan_windows_ms: scenario.client.scan_windows_ms.clone(),
            bulk_job: scenario.bulk_job,
            family_names: scenario
                .table
                .families
                .iter()
                .map(|f| f.name.clone())
                .collect(),
            cells_per_family,
            // A codec's work on the flush and compaction threads: a flush writes every
            // family, so the slowest family's codec sets its speed.
            flush_bw: fams
                .iter()
                .map(|f| f.codec.flush_bps(scenario.cluster.flush_bandwidth))
                .min()
                .unwrap_or(scenario.cluster.flush_bandwidth),
            compaction_bw: fams
                .iter()
                .map(|f| {
                    f.codec
                        .compaction_bps(scenario.cluster.compaction_bandwidth, f.compression_ratio)
                })
                .collect(),
            transition_ns: scenario
                .cluster
                .region_transition_ms
                .saturating_mul(NS_PER_MS),
            global,
            heap_bytes: heap,
            day_start_ms: u64::from(w.start_minute) * 60_000,
            seed: scenario.seed,
            scale,
            wal_roll,
            wal_max_logs: derived::wal_max_logs(s, global.high, wal_roll),
            draws: policy::variability::Draws::new(scenario.seed, scenario.cluster.variability),
        };
        let servers = (0..scenario.cluster.regionservers)
            .map(|_| Server::default())
            .collect();
        let mut e = Engine {
            cfg,
            world: World {
                state: State {
                    regions: Vec::new(),
                    routing: Router::new(),
                    tables: Vec::new(),
                    servers,
                    compactions: std::collections::BTreeMap::new(),
                    client: Default::default(),
                    procedure_workers: Vec::new(),
                    placement_changes: 0,
                    by_server: Default::default(),
                },
                now: 0,
                clock_frac: 0,
                queue: EventQueue::new(),
                rec: Recorder {
                    stats: RunStats::default(),
                    splits: Vec::new(),
                    windows: Vec::new(),
                    window_servers: Vec::new(),
                    settled: 0,
                    next_slice_end: 0,
                    window_end: 0,
                    samples: Vec::new(),
                    heat_buckets: Vec::new(),
                    heat: Router::over(&[Vec::new()]),
                    heat_writes: Vec::new(),
                    sample_ns: sample_period(
                        w.payload_bytes(),
                        w.rate_bytes_per_s,
                        if bulk {
                            // A bulk load lasts its job and its loader, not data / rate: a
                            // timeline of a hundredth of that (every sample visits every region).
                            Some(
                                w.duration_ms
                                    .unwrap_or(0)
                                    .max(bulk_run_ms(scenario, initial.len())),
                            )
                        } else {
                            w.duration_ms
                        },
                    ),
                    heat_end: 0,
                    heat_reads: Vec::new(),
                },
                file_seq: 0,
                initial: Vec::new(),
                regions_initial: 0,
                dyn_: apply::cluster::Dynamics::new(scenario),
                tables: Default::default(),
                rows_written: 0,
                closing: None,
                pre_closing: std::collections::BTreeMap::new(),
                tune_armed: false,
                discharge_pending: Vec::new(),
                tick_idle: false,
            },
            run: RunControl {
                sampling,
                scale_guard: scale::ScaleGuard {
                    flush_rows: u64::MAX,
                    split_rows: u64::MAX,
                },
                generator,
                feed: None,
                reads: ReadState::new(
                    w.reads.as_ref(),
                    w.payload_bytes() as f64 / w.rate_bytes_per_s.max(1) as f64,
                ),
                row_pending: false,
                paused: false,
                draining: false,
                end_ns: w
                    .duration_ms
                    .map_or(u64::MAX, |d| d.saturating_mul(NS_PER_MS)),
                ingest_ns: None,
                check_each_event: false,
                builder: None,
                bulk: None,
                loader: None,
            },
            cache: Caches {
                clock_weight: 0,
                clock_step: 0,
                put_row_len: usize::MAX,
                put_per_family: Vec::new(),
                delete_per_family: Vec::new(),
                wal_row: 0,
                wal_delete: 0,
                row_data: 0,
                target_key: Vec::new(),
                read_key: Vec::new(),
                loader_key: Vec::new(),
                next_row_trigger: u64::MAX,
                periodic_flush_next_ms: (0, 0),
                spares: Vec::new(),
                tick_hdfs: Vec::new(),
                tick_running: Vec::new(),
                runs: Default::default(),
            },
        };
        for r in initial {
            let id = e.open_region(
                r.start.clone(),
                r.end.clone(),
                r.server,
                0,
                None,
                fams.len(),
            );
            e.world.state.routing.push(r.start.clone(), id);
            e.load_imported(id, r.store_bytes, r.store_files);
        }
        if scenario.initial.is_some() {
            e.world.initial = e
                .world
                .state
                .regions
                .iter()
                .map(InitialRegionResult::from)
                .collect();
        }
        e.open_other_tables(
            &scenario.table.name,
            &scenario.other_tables,
            &scenario.imported_servers,
        );
        let period = e
            .cfg
            .settings
            .flush_check_period_ms
            .max(1)
            .saturating_mul(NS_PER_MS);
        e.schedule(period, Event::Chore { n: 1 });
        e.schedule(e.world.rec.sample_ns, Event::Sample);
        e.arm_compaction_tune();
        for server in 0..e.world.state.servers.len() {
            e.update_write_path(server);
        }
        e.schedule(apply::RESOURCE_TICK_NS, Event::ResourceTick);
        e.start_dynamics();
        e.request_imported_compactions();
        e
    }

    /// `OffPeakHours.isOffPeakHour()` now: the hour of day on the simulated clock (from
    /// `workload.start_time`) against `hbase.offpeak.start.hour` / `end.hour`.
    fn offpeak_hour(&self) -> bool {
        let hour = policy::offpeak::hour_of_day(self.cfg.day_start_ms, self.world.now / NS_PER_MS);
        policy::offpeak::is_offpeak_hour(self.cfg.settings.offpeak_hours, hour)
    }

    fn schedule(&mut self, delay: u64, event: Event) {
        self.world
            .queue
            .push(self.world.now.saturating_add(delay), event);
    }

    /// The live region holding `key`, whose `prefix8` is `p` (keys opening with 8 hex digits
    /// by their first characters, as the runs of rows route them).
    #[inline]
    fn route(&mut self, key: &[u8], p: u64) -> usize {
        self.world.state.routing.route_coded(key, p, hex_digits(p))
    }

    /// Jumps the clock to the next event and processes it. False if nothing is scheduled.
    fn advance(&mut self) -> bool {
        let Some(top) = self.world.queue.pop() else {
            return false;
        };
        self.world.now = self.world.now.max(top.at);
        self.handle(top.event);
        true
    }

    fn handle(&mut self, event: Event) {
        self.dispatch(event);
        if self.run.check_each_event
            && let Err(e) = self.invariants()
        {
            panic!("state invariant broken at {} ns: {e}", self.world.now);
        }
    }

    fn dispatch(&mut self, event: Event) {
        if let Event::CompactionDone { token, generation } = &event
            && self
                .world
                .state
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
            self.world.queue.work -= 1;
            self.world.rec.settled = self.world.rec.settled.max(self.world.now);
        }
        let may_start_work = !matches!(event, Event::ResourceTick | Event::GcPause { .. });
        match event {
            Event::FlushDone {
                region,
                server,
                files,
                heap,
                data,
            } => self.flush_done(region, server, files, heap, data),
            Event::FlushRetry { region, queued } => self.flush_retry(region, queued),
            Event::CompactionDone { token, .. } => self.compaction_done(token),
            Event::CompactionTune => {
                self.world.tune_armed = false;
                self.tune_compaction_throughput();
                if self.keep_periodic() {
                    self.arm_compaction_tune();
                }
            }
            Event::Discharge { server } => self.discharge(server),
            Event::ResourceTick => self.resource_tick(),
            Event::ClientRetry {
                client,
                region,
                generation,
            } => match self.run.loader {
                None => self.client_retry(region, generation),
                Some(_) => self.act_as(client as usize, |e| {
                    let before = e.world.rec.stats.retries;
                    e.client_retry(region, generation);
                    let retried = e.world.rec.stats.retries > before;
                    e.after_client_retry(client as usize, retried);
                }),
            },
            Event::SplitDone { region, split } => self.split_done(region, *split),
            Event::Chore { n } => self.chore(n),
            Event::Sample => self.sample(),
            Event::MoveDone { region, to, record } => self.move_done(region, to, record),
            Event::MergeDone { regions, record } => self.merge_done(regions, record),
            Event::Balance => self.balance_chore(),
            Event::BalanceNext { run } => self.balance_next(run),
            Event::Normalize => self.normalize_chore(),
            Event::Cluster(i) => self.time_event(i),
            Event::Recover { server } => self.recover(server),
            Event::GcPause { server, n } => self.gc_pause(server, n),
            Event::TableWrite { table } => self.table_write(table),
            Event::BulkJobDone => self.bulk_round(),
            Event::BulkRegionLoaded { load } => self.bulk_region_loaded(load),
        }
        if self.world.tick_idle && may_start_work && !self.resources_quiescent() {
            self.wake_idle_chores();
        }
    }

    /// The live region holding `key`, leaving the write path's cache alone.
    fn route_uncached(&self, key: &[u8]) -> usize {
        self.world.state.routing.locate(key)
    }

    /// A chore reschedules itself while the load runs, and after it while real work remains.
    fn keep_periodic(&self) -> bool {
        !self.run.draining || self.world.queue.work > 0
    }

    /// What the run produced. Called before [`Engine::step`] returned `None`, it reports the
    /// run as far as it got.
    pub fn finish(mut self) -> RunResult {
        let (generator, sampling, regions_initial) = (
            self.run.generator.clone(),
            self.run.sampling,
            self.world.regions_initial,
        );
        let offered_end = self.run.ingest_ns.unwrap_or(self.world.now);
        // The load is in once the last held-back row is accepted too.
        let ingest_ns = offered_end.max(self.world.rec.stats.last_retry_accept_ns);
        self.world.rec.stats.retry_tail_ns = ingest_ns - offered_end;
        self.run.feed = None;
        self.finish_lineage();
        let tables = self.table_results(regions_initial);
        let routing = std::mem::replace(&mut self.world.state.routing, Router::new());
        let mut all: Vec<Option<Region>> = std::mem::take(&mut self.world.state.regions)
            .into_iter()
            .map(Some)
            .collect();
        let regions: Vec<RegionResult> = routing
            .ids()
            .filter_map(|id| all[id].take())
            .map(RegionResult::from)
            .collect();
        let cfg = &self.cfg;
        let scan_fanout = scan::fanout(&scan::ScanInputs {
            generator: &generator,
            sampling,
            regions: &regions,
            minutes: &self.world.rec.windows,
            ingest_ns,
            row_bytes: self.cache.row_data,
            client: &cfg.settings.client,
            windows_ms: &cfg.scan_windows_ms,
        });
        let cells: u64 = cfg.cells_per_family.iter().sum();
        let bulk = self.bulk_outcome();
        let loader = self.loader_outcome();
        let cfg = &self.cfg;
        let data_bytes = bulk.as_ref().map_or(0, |b| u128::from(b.data_loaded))
            + self
                .world
                .state
                .servers
                .iter()
                .map(|s| s.write_bytes as u128)
                .sum::<u128>()
            - self.other_tables_bytes();
        RunResult {
            generator: generator.name.clone(),
            describe: generator.layout().describe(),
            scale: sampling.k,
            scale_warning: self.run.scale_guard.warning(sampling.k),
            scale_guard: self.run.scale_guard.max_k(),
            emulated_rows: sampling.emulated(),
            rows: sampling.rows,
            payload_bytes: sampling.rows as u128 * cells as u128 * cfg.value_len as u128,
            data_bytes,
            ingest_ns,
            settled_ns: self.world.rec.settled.max(ingest_ns),
            regions_initial,
            regions,
            servers: self
                .world
                .state
                .servers
                .iter()
                .map(ServerResult::from)
                .collect(),
            stats: self.world.rec.stats,
            splits: self.world.rec.splits,
            windows: self.world.rec.windows,
            window_servers: self.world.rec.window_servers,
            max_filesize: cfg.settings.max_filesize,
            samples: self.world.rec.samples,
            sample_ns: self.world.rec.sample_ns,
            heat_buckets: self.world.rec.heat_buckets,
            heat_writes: self.world.rec.heat_writes,
            heat_reads: self.world.rec.heat_reads,
            dynamics: self.world.dyn_.finish(),
            initial: std::mem::take(&mut self.world.initial),
            scan_fanout,
            tables,
            bulk,
            loader,
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_bulkload;

#[cfg(test)]
mod tests_cluster;

#[cfg(test)]
mod tests_loader;

#[cfg(test)]
mod tests_offpeak;
