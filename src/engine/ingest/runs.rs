//! Runs of rows between events: the write path of `write.rs` for many rows at once, where none
//! of them can set anything off.
//!
//! Row by row, each landing checks every trigger (the next event, a slice or read boundary, a
//! row-count event, its region's flush and blocking sizes, its server's global memstore marks,
//! WAL roll and write bandwidth) and keeps every counter. Between two triggers the rows only
//! append their keys, add to counters and wait on the write path, so a run checks the triggers
//! against budgets taken once per touched region and server, then appends the keys region by
//! region (each region's in row order) and adds the counters once per region and server at its
//! end. A row whose landing would do more (any trigger, a region not open, an
//! empty memstore getting its segment overhead, another key length) ends the run; it then lands
//! through `write.rs`, row by row. The state after a run is what the same rows landed one by one
//! leave (`tests/it/engine_step.rs` compares whole reports both ways on every shipped scenario).
//!
//! Above a few regions the feed's workers find each row's region and heat bucket with a copy of
//! the tables ([`Engine::publish_router`]); a run reads them while the routing table has not
//! changed since, and looks the rows up itself otherwise.

use std::sync::Arc;

use crate::engine::ingest::feed::KeyFeed;
use crate::engine::ingest::memkeys::ArenaRows;
use crate::engine::ingest::route::{Router, hex_digits};
use crate::engine::policy;
use crate::engine::policy::client::Refusal;
use crate::engine::policy::write::RegionWrite;
use crate::engine::queue::NS_PER_MS;
use crate::engine::recorder::Recorder;
use crate::engine::state::memstore::Put;
use crate::engine::{CLIENT_LAG_NS, Engine, prefix8};
use crate::kernel::{self, prefetch};

/// [`RowRuns::landed`] of a row held back for the client's retry.
const HELD: u32 = u32::MAX;

/// Regions above which the feed's workers route the rows (below, the lookups stay in the L1
/// cache: routing on the workers only moves cheap lookups to another thread and adds CPU).
const FEED_ROUTES_ABOVE: usize = 16;

/// Rows landed one by one after a run that took none, before runs are tried again.
const COOLDOWN_ROWS: u32 = 16;

/// The runs' bookkeeping, reused from run to run (sized to the regions and servers seen).
#[derive(Debug)]
pub(crate) struct RowRuns {
    /// Runs are taken (tests turn them off to compare with the row-at-a-time path).
    pub(crate) enabled: bool,
    /// Rows to land row by row before the next run is tried (after a run took none).
    cooldown: u32,
    /// Bumped per run: a slot whose stamp differs was not touched by this run yet.
    stamp: u32,
    regions: Vec<RegionSlot>,
    servers: Vec<ServerSlot>,
    touched_regions: Vec<u32>,
    touched_servers: Vec<u32>,
    /// Rows the run held back for the client's retry (`client.rs`, `hold`): each one's
    /// region, and their keys back to back.
    held_regions: Vec<u32>,
    held_keys: Vec<u8>,
    /// Each row of the run: the region it landed in, or [`HELD`].
    landed: Vec<u32>,
    /// The landed rows' positions in the run, grouped by region (the touched regions' order),
    /// each region's in row order.
    by_region: Vec<u32>,
    /// Puts the landed rows' positions into `by_region`.
    placement: kernel::buf::Placement,
    /// Rows held back inside runs so far (for tests: that runs took that path).
    pub(crate) held_total: u64,
    /// Rows of runs whose regions the feed's workers found, and rows of runs routed here (no
    /// workers, or a chunk routed before the table's last change), so far (for tests).
    pub(crate) routed_total: [u64; 2],
    /// The heat map's buckets as a routing table with hex slots, for the feed's workers
    /// (built at the first [`KeyFeed::publish`] of a table with hex slots).
    heat_table: Option<Arc<Router>>,
}

impl Default for RowRuns {
    fn default() -> RowRuns {
        RowRuns {
            enabled: true,
            cooldown: 0,
            stamp: 0,
            regions: Vec::new(),
            servers: Vec::new(),
            touched_regions: Vec::new(),
            touched_servers: Vec::new(),
            held_regions: Vec::new(),
            held_keys: Vec::new(),
            landed: Vec::new(),
            by_region: Vec::new(),
            placement: kernel::buf::Placement::default(),
            held_total: 0,
            routed_total: [0; 2],
            heat_table: None,
        }
    }
}

/// A region the run touched: how many more rows it can take, and what it took.
#[derive(Debug, Clone, Copy, Default)]
struct RegionSlot {
    stamp: u32,
    /// Rows it takes before a flush request or the blocking size (0: none, the row lands
    /// through `write.rs`).
    room: u64,
    server: u32,
    rows: u64,
    /// Where its rows go in [`RowRuns::by_region`] (their end, once placed).
    at: u32,
    /// Arrival of its last row in the run, ns.
    last_ns: u64,
    /// No flush queued or running (constant over a run: nothing is set off inside one).
    idle: bool,
    /// The client holds back rows for it already (`write_waiting`: offline, too busy with its
    /// flush under way, or queued behind them): its rows join them, with no retry to schedule
    /// and no flush to request.
    hold: bool,
}

/// A server the run touched.
#[derive(Debug, Clone, Copy, Default)]
struct ServerSlot {
    stamp: u32,
    /// Rows it takes before the global high mark blocks writes or the WAL rolls.
    room: u64,
    /// Rows it takes below the global low mark (after each row); beyond them a row lands in a
    /// run only while the global pressure check would do nothing.
    below_low: u64,
    /// Every flush handler is busy: the global pressure check does nothing all run.
    handlers_busy: bool,
    /// Rows below which neither `room` nor the low mark can end the run: `room`, or the
    /// lesser of it and `below_low` where a handler is free.
    limit: u64,
    /// The last pressure scan found nothing to flush (`Server::pressure_futile`) before the
    /// run; a row reaching an idle region (`idle`) clears it.
    futile: bool,
    /// Write-path time one row costs (`land_on_server`'s bandwidth step), ns.
    cost_ns: u64,
    /// The server's write path is busy until then, ns (`Server::busy_until_ns`, kept here
    /// during the run and written back by `settle_run`).
    busy_ns: u64,
    rows: u64,
    /// A row went to a region with no flush queued or running.
    idle: bool,
    /// GC pause time still in the backlog (`Server::gc_owed_ns`, written back), and of the
    /// run's waits at this server, all and the pauses' part (`policy::write::gc_wait`), ns.
    gc_owed: u64,
    waited: u64,
    gc_waited: u64,
}

/// What one row adds, constant over a run (one weight, one key length).
#[derive(Debug, Clone, Copy)]
struct RowCost {
    weight: u64,
    heap: u64,
    data: u64,
    wal: u64,
}

/// Takes a row arriving at `at` into its region's and server's slots, as `land` and
/// `land_on_server` would: the write path's bandwidth (the client runs ahead of the server by
/// its buffer, then waits) and the counters. Returns the wait, or `None` where it would reach
/// `boundary` (the next slice or read batch): then nothing is taken and the row ends the run,
/// landing through `write.rs`, which rolls the slice or reads first. Shared by the fast loop
/// and the general step.
#[inline(always)]
fn take_row(slot: &mut RegionSlot, sslot: &mut ServerSlot, at: u64, boundary: u64) -> Option<u64> {
    let backlog = sslot.busy_ns.saturating_sub(at);
    let until = sslot.busy_ns.max(at) + sslot.cost_ns;
    let wait = until.saturating_sub(at + CLIENT_LAG_NS);
    if at + wait >= boundary {
        return None;
    }
    let (gc, owed) = policy::write::gc_wait(sslot.gc_owed, backlog, wait);
    sslot.gc_owed = owed;
    sslot.gc_waited += gc;
    sslot.waited += wait;
    sslot.busy_ns = until;
    sslot.rows += 1;
    sslot.idle |= slot.idle;
    slot.room -= 1;
    slot.rows += 1;
    slot.last_ns = at;
    Some(wait)
}

/// What [`FastRows::run`] reads, constant over a run.
struct FastRows<'a> {
    keys: &'a ArenaRows<'a>,
    /// The rows' key ends, up to the run's row limit.
    ends: &'a [u32],
    routed: &'a [u32],
    heat_fed: &'a [u32],
    /// The clock's step (32.32 fixed point) where it fits 62 bits (else every row takes the
    /// general step).
    step: Option<u64>,
    horizon: u64,
    boundary: u64,
    stamp: u32,
    weight: u64,
}

/// [`FastRows::run`]'s running values: the next row, the clock, the time throttled.
struct FastCursor {
    i: usize,
    now: u64,
    frac: u32,
    throttled: u64,
}

impl FastRows<'_> {
    /// Takes rows from `c.i` while each one is the common row: of the run's key length,
    /// before the horizon, into a region and server the run touched already, with room in
    /// both, the server below its limit and the wait before the boundary. It takes each one
    /// as `land_run`'s general step does, and stops before the first row that is not.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        c: &mut FastCursor,
        regions: &mut [RegionSlot],
        servers: &mut [ServerSlot],
        landed: &mut Vec<u32>,
        mut heat: Option<&mut [u64]>,
        routing: &mut Router,
        rec: &mut Recorder,
    ) {
        let Some(step) = self.step else {
            return;
        };
        let keys = self.keys;
        let len = keys.len;
        let (mut now, mut frac, mut throttled) = (c.now, c.frac, c.throttled);
        let mut i = c.i;
        while i < self.ends.len() {
            let t = step + u64::from(frac);
            let at = now + (t >> 32);
            if at >= self.horizon || self.ends[i] as usize != keys.start + (i + 1) * len {
                break;
            }
            let key = keys.key(i);
            let p = prefix8(key);
            let code = keys.code(i, p);
            let region = match self.routed.get(i) {
                Some(&r) => r as usize,
                None => routing.route_coded(key, p, code),
            };
            let slot = &mut regions[region];
            if slot.stamp != self.stamp || slot.room == 0 {
                break;
            }
            let sslot = &mut servers[slot.server as usize];
            if sslot.stamp != self.stamp || sslot.rows >= sslot.limit {
                break;
            }
            let Some(wait) = take_row(slot, sslot, at, self.boundary) else {
                break;
            };
            throttled += wait;
            (now, frac) = (at + wait, t as u32);
            landed.push(region as u32);
            if let Some(h) = heat.as_deref_mut() {
                let bucket = match self.heat_fed.get(i) {
                    Some(&b) => b as usize,
                    None => rec.heat_bucket_coded(key, p, code),
                };
                h[bucket] += self.weight;
            }
            i += 1;
        }
        (c.i, c.now, c.frac, c.throttled) = (i, now, frac, throttled);
    }
}

impl Engine {
    /// Lands as many of the feed's next rows as can go as a run (none when the next one needs
    /// `write.rs`), within the feed's current chunk; the rows' clock, keys and counters end as
    /// landing them one by one leaves them. Returns the rows applied so far when it took any.
    pub(crate) fn land_run(&mut self, feed: &mut KeyFeed) -> Option<u64> {
        if !self.cache.runs.enabled || self.cfg.mix.is_some() {
            return None;
        }
        if self.cache.runs.cooldown > 0 {
            self.cache.runs.cooldown -= 1;
            return None;
        }
        let epoch = self.world.state.routing.epoch();
        if self.world.state.routing.len() > FEED_ROUTES_ABOVE && feed.wants_router(epoch) {
            self.publish_router(feed);
        }
        let rest = feed.rest()?;
        let first = rest.first;
        let routed = if rest.epoch == epoch && rest.regions.len() == rest.ends.len() {
            rest.regions
        } else {
            &[]
        };
        let heat_fed = rest.heat;
        // Every row of a run has the same weight: the last emulated row may weigh less.
        let emulated = self.run.sampling.emulated();
        let full = if self.run.sampling.weight(emulated.saturating_sub(1)) == self.run.sampling.k {
            emulated
        } else {
            emulated - 1
        };
        let mut limit = (rest.ends.len() as u64).min(full.saturating_sub(first));
        let weight = self.run.sampling.k;
        if limit == 0 || self.cache.put_row_len == usize::MAX {
            return None;
        }
        // A row-count event fires before the row that reaches its count lands.
        if self.cache.next_row_trigger != u64::MAX {
            let left = self
                .cache
                .next_row_trigger
                .saturating_sub(self.world.rows_written);
            limit = limit.min(left.div_ceil(weight));
        }
        let cost = self.row_cost(weight);
        if cost.heap == 0 {
            return None;
        }
        self.set_clock_weight(weight);
        // A row's clock reaching the next timeline slice or read batch, or its arrival
        // reaching the next event, sets something off.
        let boundary = self.world.rec.next_slice_end.min(self.run.reads.next_ns);
        let horizon = self
            .world
            .queue
            .next_at
            .min(self.run.end_ns.saturating_add(1))
            .min(boundary);
        let mut runs = std::mem::take(&mut self.cache.runs);
        runs.stamp = runs.stamp.wrapping_add(1);
        if runs.stamp == 0 {
            runs.regions.iter_mut().for_each(|s| s.stamp = 0);
            runs.servers.iter_mut().for_each(|s| s.stamp = 0);
            runs.stamp = 1;
        }
        runs.regions
            .resize(self.world.state.regions.len(), RegionSlot::default());
        runs.servers
            .resize(self.world.state.servers.len(), ServerSlot::default());
        runs.touched_regions.clear();
        runs.touched_servers.clear();
        runs.held_regions.clear();
        runs.held_keys.clear();
        runs.landed.clear();
        // Rows held back before the writers' buffers fill (`stall_while_buffers_full` waits
        // for retries from there: the run stops before).
        let held_row = self.held_size(weight);
        let buffers = self
            .cfg
            .writers
            .saturating_mul(self.cfg.settings.client.write_buffer);
        let mut hold_left = buffers.saturating_sub(self.world.state.client.held_bytes) / held_row;
        let stamp = runs.stamp;
        let len = self.cache.put_row_len;
        // Keys opening with 8 hex digits (`hashed`, `md5-prefix`) are routed and kept for the
        // flush by those digits' value; the run's first key tells whether to read them (other
        // generators' keys would pay the read for nothing). Either way the rows land the same.
        // The feed may hand over the digits' values with the keys (`FeedRest::codes`).
        let fed = rest.codes.len() == rest.ends.len() && !rest.codes.is_empty();
        let hex_run = fed
            || rest.ends.first().is_some_and(|&end| {
                let key = &rest.arena[rest.start..end as usize];
                key.len() >= 8 && hex_digits(prefix8(key)).1
            });
        let keys = ArenaRows {
            arena: rest.arena,
            start: rest.start,
            len,
            codes: if fed { rest.codes } else { &[] },
            hex: hex_run,
        };
        // The current heat slice's row, out of the recorder for the run (its buckets are
        // looked up through the recorder's caches as rows go).
        let mut heat = self.world.rec.heat_writes.pop();
        let (mut now, mut frac) = (self.world.now, self.world.clock_frac);
        let mut start = rest.start;
        let mut taken = 0u64;
        let mut throttled = 0u64;
        // Runs at a coarse scale are often a few rows long: `landed` is pushed to, not sized
        // to the limit (zeroing it would write the whole buffer for a run of a few rows).
        let (region_slots, server_slots) = (&mut runs.regions[..], &mut runs.servers[..]);
        let landed = &mut runs.landed;
        let ends = &rest.ends[..limit as usize];
        // The common row goes through `fast_rows`, a loop of its own with what it needs in
        // registers (inlined here, the loop's 25 live values spilled to the stack and every row
        // reloaded them). It stops before any row it would not take as it
        // is; that row goes through the general step below, which takes it or ends the run.
        let fast = FastRows {
            keys: &keys,
            ends,
            routed,
            heat_fed,
            step: u64::try_from(self.cache.clock_step)
                .ok()
                .filter(|&s| s <= u64::MAX >> 2),
            horizon,
            boundary,
            stamp,
            weight,
        };
        let mut i = 0usize;
        while i < ends.len() {
            if fast.step.is_some() {
                let mut c = FastCursor {
                    i,
                    now,
                    frac,
                    throttled,
                };
                fast.run(
                    &mut c,
                    region_slots,
                    server_slots,
                    landed,
                    heat.as_deref_mut(),
                    &mut self.world.state.routing,
                    &mut self.world.rec,
                );
                (now, frac, throttled) = (c.now, c.frac, c.throttled);
                if c.i > i {
                    taken += (c.i - i) as u64;
                    start = keys.start + c.i * len;
                    i = c.i;
                }
                if i >= ends.len() {
                    break;
                }
            }
            let end = ends[i];
            let t = self.cache.clock_step + frac as u128;
            let at = now + (t >> 32) as u64;
            let key = &rest.arena[start..end as usize];
            if at >= horizon || key.len() != len {
                break;
            }
            let p = prefix8(key);
            let code = keys.code(i, p);
            debug_assert!(!code.1 || code == hex_digits(p));
            let region = match routed.get(i) {
                Some(&r) => r as usize,
                None => self.world.state.routing.route_coded(key, p, code),
            };
            debug_assert_eq!(region, self.world.state.routing.locate(key));
            let slot = &mut region_slots[region];
            if slot.stamp != stamp {
                *slot = self.region_slot(region, &cost, stamp);
                runs.touched_regions.push(region as u32);
            }
            // A region the client holds rows for has no room (`region_slot`): one test for both.
            if slot.room == 0 {
                if !slot.hold {
                    break;
                }
                // `land` → `write_waiting` → `hold`: the row joins its region's held rows at
                // its arrival; no server, memstore or heat is touched.
                if hold_left == 0 {
                    break;
                }
                hold_left -= 1;
                runs.held_regions.push(region as u32);
                runs.held_keys.extend_from_slice(key);
                landed.push(HELD);
                (now, frac) = (at, t as u32);
                start = end as usize;
                taken += 1;
                i += 1;
                continue;
            }
            let server = slot.server as usize;
            let sslot = &mut server_slots[server];
            if sslot.stamp != stamp {
                *sslot = self.server_slot(server, &cost, stamp);
                runs.touched_servers.push(server as u32);
            }
            let idle = slot.idle;
            // Below `limit` neither test below can end the run: one compare for the common row.
            if sslot.rows >= sslot.limit {
                if sslot.rows == sslot.room {
                    break;
                }
                // At or above the low mark after this row, `land_on_server` asks for a
                // pressure flush: a run goes on only where that does nothing (every handler
                // busy, or the last scan futile, no row of the run having reached an idle
                // region, and this row not clearing that by reaching one).
                let scan_futile = sslot.futile && !sslot.idle && !idle;
                if sslot.rows >= sslot.below_low && !sslot.handlers_busy && !scan_futile {
                    break;
                }
            }
            let Some(wait) = take_row(&mut region_slots[region], sslot, at, boundary) else {
                break;
            };
            throttled += wait;
            (now, frac) = (at + wait, t as u32);
            landed.push(region as u32);
            if let Some(h) = &mut heat {
                let bucket = match heat_fed.get(i) {
                    Some(&b) => b as usize,
                    None => self.world.rec.heat_bucket_coded(key, p, code),
                };
                debug_assert_eq!(bucket, self.world.rec.heat_bucket_coded(key, p, code));
                h[bucket] += weight;
            }
            start = end as usize;
            taken += 1;
            i += 1;
        }
        runs.routed_total[usize::from(routed.is_empty())] += taken;
        self.world.rec.heat_writes.extend(heat);
        self.world.now = now;
        self.world.clock_frac = frac;
        self.world.rec.stats.throttled_ns += throttled;
        self.push_run_keys(&mut runs, &keys);
        self.settle_run(&mut runs, &cost);
        if taken == 0 {
            // The next row needs `write.rs`, and likely a few after it (a region waiting for
            // its flush, a throttled server): they go row by row before runs are tried again.
            runs.cooldown = COOLDOWN_ROWS;
        }
        self.cache.runs = runs;
        feed.skip(taken as usize);
        (taken > 0).then_some(first + taken)
    }

    /// Hands the feed's workers a copy of the routing table as it stands (it changes with
    /// splits and merges), to route the rows of the chunks they make with.
    fn publish_router(&mut self, feed: &mut KeyFeed) {
        let snapshot = self.world.state.routing.snapshot();
        // The heat buckets never change: one table for the whole run. Only for keys opening
        // with hex digits (the routing table built its hex slots): other keys would search the
        // buckets' starts row by row there, where the recorder's bounds cache here answers most
        // in a compare or two.
        let heat = if snapshot.is_hex() && self.world.rec.heat_buckets.len() > 1 {
            let buckets = &self.world.rec.heat_buckets;
            let table = self
                .cache
                .runs
                .heat_table
                .get_or_insert_with(|| Arc::new(Router::frozen(buckets, true)));
            Some(table.clone())
        } else {
            None
        };
        feed.publish(Arc::new(snapshot.with_heat(heat)));
    }

    /// What one row of `weight` real rows adds to its region's memstores, server and WAL.
    fn row_cost(&self, weight: u64) -> RowCost {
        let (mut heap, mut data) = (0, 0);
        for fam in self.cache.put_per_family.iter().filter(|f| f.cells != 0) {
            heap += weight * fam.heap;
            data += weight * fam.data;
        }
        RowCost {
            weight,
            heap,
            data,
            wal: weight * self.cache.wal_row,
        }
    }

    /// `region`'s budget for this run: the rows it takes while open, below the blocking size
    /// before each row and at most the flush size after it (or beyond it while its flush is
    /// queued or running, when the size check's request does nothing), into memstores that
    /// already hold rows of the run's key length (`land`, `apply_write`).
    fn region_slot(&self, region: usize, cost: &RowCost, stamp: u32) -> RegionSlot {
        let r = &self.world.state.regions[region];
        let fixed = r
            .stores
            .iter()
            .zip(&self.cache.put_per_family)
            .all(|(store, fam)| {
                fam.cells == 0 || store.memstore.takes_fixed(self.cache.put_row_len)
            });
        // `request_flush` takes no request while one is queued (not merely delayed) or running.
        let flush_pending = !r.flush.idle() && !r.flush.delayed_periodic();
        let lim = self.write_limits();
        let room = if fixed {
            policy::write::region_rows(RegionWrite::of(r), cost.heap, flush_pending, &lim)
        } else {
            0
        };
        // `land_run` tests `room` alone for the common row: a held region must have none.
        debug_assert!(!r.client_held || room == 0);
        RegionSlot {
            stamp,
            room,
            server: r.server as u32,
            rows: 0,
            at: 0,
            last_ns: 0,
            idle: r.flush.idle(),
            // Too busy, the row's `request_flush` is taken only where no flush is queued or
            // running: then the row ends the run.
            hold: r.client_held
                && match policy::write::refusal(r.takes_writes(), r.memstore_heap(), lim.blocking) {
                    Some(Refusal::TooBusy) => !policy::flush::accepts_request(r),
                    Some(Refusal::Offline) | None => true,
                },
        }
    }

    /// `server`'s budget for this run: the rows its memstores take below the global high
    /// mark before each row (and how many below the low mark after it), and its WAL before a
    /// roll (`land`, `land_on_server`).
    fn server_slot(&self, server: usize, cost: &RowCost, stamp: u32) -> ServerSlot {
        let s = &self.world.state.servers[server];
        let heap = s.memstore_heap;
        let to_high = self.cfg.global.rows_before_block(heap, cost.heap);
        let below_low = self.cfg.global.rows_below_low(heap, cost.heap);
        let to_roll = policy::write::rows_before_roll(s.wal.appended, self.cfg.wal_roll, cost.wal);
        let flushers = self.cfg.settings.flusher_count.max(1) as usize;
        let room = to_high.min(to_roll);
        let handlers_busy = s.flushes_running as usize + s.flush_queue.len() >= flushers;
        ServerSlot {
            stamp,
            room,
            below_low,
            handlers_busy,
            limit: if handlers_busy {
                room
            } else {
                room.min(below_low)
            },
            futile: s.pressure_futile,
            cost_ns: ((cost.data as u128 * s.write_fp) >> 32) as u64,
            busy_ns: s.busy_until_ns,
            rows: 0,
            idle: false,
            gc_owed: s.gc_owed_ns,
            waited: 0,
            gc_waited: 0,
        }
    }

    /// The landed rows' keys, into their regions' memstores region by region (each region's
    /// in row order, as landing them one by one appends them). Kept out of the run's loop:
    /// with hundreds of regions, a row's memstore is a cache miss the loop would wait on, where
    /// here each region's rows follow one another.
    fn push_run_keys(&mut self, runs: &mut RowRuns, keys: &ArenaRows<'_>) {
        // The landed rows' positions grouped by region: a counting sort's placement, its
        // cursors in a dense array of their own (not the 56-byte slots) and the positions
        // written into spare room, not zeroed first. Then each slot points at its range's end.
        let regions = &runs.regions;
        runs.placement.place(
            &mut runs.by_region,
            &runs.landed,
            HELD,
            &runs.touched_regions,
            |region| regions[region as usize].rows,
        );
        let mut at = 0u32;
        for &region in &runs.touched_regions {
            let slot = &mut runs.regions[region as usize];
            at += slot.rows as u32;
            slot.at = at;
        }
        for (j, &region) in runs.touched_regions.iter().enumerate() {
            // Each region's struct, memstore and tail are a chain of loads, cold with hundreds
            // of regions: the next regions' are asked for while this one's keys go in.
            if let Some(&next) = runs.touched_regions.get(j + 2) {
                prefetch::read(&self.world.state.regions[next as usize], 2);
            }
            if let Some(&next) = runs.touched_regions.get(j + 1)
                && let Some(store) = self.world.state.regions[next as usize].stores.first()
            {
                store.memstore.prefetch();
            }
            let slot = runs.regions[region as usize];
            if slot.rows == 0 {
                continue;
            }
            let rows = &runs.by_region[(slot.at - slot.rows as u32) as usize..slot.at as usize];
            let r = &mut self.world.state.regions[region as usize];
            for (store, fam) in r.stores.iter_mut().zip(&self.cache.put_per_family) {
                if fam.cells != 0 {
                    store.memstore.keys_mut().extend_fixed(keys, rows);
                }
            }
        }
    }

    /// The run's counters, once per region and server, as `apply_write` and `land_on_server`
    /// add them per row.
    fn settle_run(&mut self, runs: &mut RowRuns, cost: &RowCost) {
        let w = cost.weight;
        if !runs.held_regions.is_empty() {
            runs.held_total += runs.held_regions.len() as u64;
            // As `hold` adds them row by row (no entry is fresh: the regions were held).
            let len = runs.held_keys.len() / runs.held_regions.len();
            let bytes = self.held_size(w);
            let st = &mut self.world.state.client;
            for (&region, key) in runs
                .held_regions
                .iter()
                .zip(runs.held_keys.chunks_exact(len))
            {
                let joined = st.join(region as usize, key, w, bytes);
                debug_assert!(joined, "a held region has held rows");
            }
            self.world.rec.stats.held_peak_bytes =
                self.world.rec.stats.held_peak_bytes.max(st.held_bytes);
        }
        for &region in &runs.touched_regions {
            let slot = runs.regions[region as usize];
            if slot.rows == 0 {
                continue;
            }
            let n = slot.rows * w;
            let now_ms = slot.last_ns / NS_PER_MS;
            let r = &mut self.world.state.regions[region as usize];
            for (store, fam) in r.stores.iter_mut().zip(&self.cache.put_per_family) {
                if fam.cells != 0 {
                    let put = Put {
                        rows: n,
                        cells: n * fam.cells,
                        data_bytes: n * fam.data,
                        heap_bytes: n * fam.heap,
                    };
                    store.memstore.add_run(put, now_ms);
                }
            }
            r.write_requests += n;
            r.range_writes += n;
            r.rows += n;
            r.last_write_ns = Some(slot.last_ns);
            r.policy.record_writes(n, 0, now_ms);
            r.memstore_peak = r.memstore_peak.max(r.memstore_heap());
            self.world.rows_written += n;
        }
        for &server in &runs.touched_servers {
            let slot = runs.servers[server as usize];
            let s = &mut self.world.state.servers[server as usize];
            s.busy_until_ns = slot.busy_ns;
            s.gc_owed_ns = slot.gc_owed;
            if slot.rows == 0 {
                continue;
            }
            self.world
                .rec
                .stats
                .server_waits
                .add(slot.waited, slot.gc_waited, s.write_bound);
            if slot.idle {
                s.pressure_futile = false;
            }
            s.memstore_heap += slot.rows * cost.heap;
            s.memstore_peak = s.memstore_peak.max(s.memstore_heap);
            s.write_requests += slot.rows * w;
            s.write_bytes += slot.rows * cost.data;
            let roll =
                policy::write::wal_rolls(s.wal.append(slot.rows * cost.wal), self.cfg.wal_roll);
            debug_assert!(!roll, "a run stops before a WAL roll");
            if let Some(windows) = self.world.rec.windows.last_mut() {
                windows[server as usize] += slot.rows * w;
            }
        }
    }
}
