//! The write path: a row arrives from the client, waits while its region is offline or its
//! server is blocked, and lands in the memstores (`HRegion.put`, `checkResources`,
//! `MemStoreFlusher.reclaimMemStoreMemory`), metered by the server's write bandwidth.

use crate::engine::decision::{Decision, FlushWhy};
use crate::engine::policy;
use crate::engine::policy::client::Refusal;
use crate::engine::policy::write::{Admission, RegionWrite, WriteLimits};
use crate::engine::queue::NS_PER_MS;
use crate::engine::state::cell;
use crate::engine::state::memstore::{Mutation, Put};
use crate::engine::{CLIENT_LAG_NS, Engine, FamilyPut, prefix8};
use crate::keygen::rng::splitmix64;

/// A row that its region's memstores took, for [`Engine::land_on_server`].
#[derive(Clone, Copy)]
struct Landed {
    server: usize,
    region: usize,
    /// The key's 8-byte prefix (heatmap bucket).
    p: u64,
    weight: u64,
    /// Data and heap bytes the memstores gained.
    data: u64,
    heap: u64,
    /// WAL bytes appended.
    wal: u64,
    /// The region had no flush queued or running (a global-pressure pick may find it again).
    idle: bool,
    over_flush: bool,
    /// A held-back row retried: its writer is not the offered stream.
    retried: bool,
}

impl Engine {
    /// The client's clock reaches the next emulated row of `weight` real rows (at the offered
    /// rate); the events due by then are handled before the row lands.
    #[inline]
    pub(crate) fn arrive(&mut self, weight: u64) {
        // Fixed point (32 fractional bits) with the fraction carried: no division per row, and no
        // drift from truncating a fraction of a nanosecond on every row. The 128-bit product
        // only changes with the weight (K, or less for the last row).
        self.set_clock_weight(weight);
        let t = self.cache.clock_step + self.world.clock_frac as u128;
        self.world.now += (t >> 32) as u64;
        self.world.clock_frac = t as u32;
    }

    /// The client clock's advance per row for rows of `weight` real rows (recomputed only when
    /// the weight changes: K, or less for the last row).
    #[inline]
    pub(crate) fn set_clock_weight(&mut self, weight: u64) {
        if weight != self.cache.clock_weight {
            self.cache.clock_weight = weight;
            self.cache.clock_step = (weight * self.cfg.row_payload) as u128 * self.cfg.rate_fp;
        }
    }

    /// The arrived row `b` lands: a new row, or with `update_fraction`/`delete_fraction` an
    /// update or delete of a row written before. One predictable branch when neither is set.
    #[inline(always)]
    pub(crate) fn land_op(&mut self, b: u64, key: &[u8], weight: u64) {
        match self.cfg.mix {
            None => self.land(key, weight),
            Some(_) => self.land_mixed(b, key, weight),
        }
    }

    /// What row `b` does: its seeded draw against the mix's thresholds.
    fn mutation_of(&self, b: u64) -> Option<Mutation> {
        let mix = self.cfg.mix?;
        let h = splitmix64(self.cfg.seed ^ 0x00DE_1E7E ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if h < mix.update_below {
            Some(Mutation::Update)
        } else if h < mix.delete_below {
            Some(Mutation::Delete)
        } else {
            None
        }
    }

    /// A row of a scenario with updates or deletes. An update or delete touches a row picked
    /// uniformly among the new rows written before (the nearest new row at or below a uniform
    /// draw over the earlier rows), re-deriving its key. It lands as a new row instead when no
    /// row was written yet, or when its region is not open and writable (**simplified**: the
    /// client's retry of held-back writes carries new rows only).
    #[inline(never)]
    fn land_mixed(&mut self, b: u64, key: &[u8], weight: u64) {
        let Some(kind) = self.mutation_of(b) else {
            return self.land(key, weight);
        };
        let Some(target) = self.pick_written(b) else {
            return self.land(key, weight);
        };
        let mut tk = std::mem::take(&mut self.cache.target_key);
        let id = self.run.sampling.id(target);
        if self.run.generator.key_checked(id, &mut tk).is_err() {
            self.cache.target_key = tk;
            return self.land(key, weight);
        }
        if self.world.rows_written >= self.cache.next_row_trigger {
            self.fire_row_events();
        }
        let p = prefix8(&tk);
        let region = self.route(&tk, p);
        if self.admission(region) == Admission::Take {
            self.apply_mutation(region, &tk, p, kind, weight);
            self.cache.target_key = tk;
        } else {
            self.cache.target_key = tk;
            self.land(key, weight);
        }
    }

    /// The emulated row of a new row written before row `b`, picked uniformly: the nearest
    /// new row at or below a seeded uniform draw (`None` if none within 64 rows of it).
    fn pick_written(&self, b: u64) -> Option<u64> {
        if b == 0 {
            return None;
        }
        let h = splitmix64(self.cfg.seed ^ 0x7A26_E7ED ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut j = ((h as u128 * b as u128) >> 64) as u64;
        for _ in 0..64 {
            if self.mutation_of(j).is_none() {
                return Some(j);
            }
            j = j.checked_sub(1)?;
        }
        None
    }

    /// An update (the row's cells again, a new version) or delete (a `DeleteFamily` marker per
    /// family: key and type, no value) lands in the memstores of `region`, through the WAL and
    /// the server's write path like a put.
    fn apply_mutation(&mut self, region: usize, key: &[u8], p: u64, kind: Mutation, weight: u64) {
        if key.len() != self.cache.put_row_len {
            self.set_row_len(key.len());
        }
        let now_ms = self.world.now / NS_PER_MS;
        let (mut data_total, mut heap_total, mut active) = (0, 0, 0);
        let segment_overhead = self.cfg.layout.segment_overhead();
        let per_family = match kind {
            Mutation::Update => &self.cache.put_per_family,
            Mutation::Delete => &self.cache.delete_per_family,
        };
        let r = &mut self.world.state.regions[region];
        let server = r.server;
        for (store, fam) in r.stores.iter_mut().zip(per_family) {
            if fam.cells != 0 {
                let before = store.memstore.heap_bytes;
                let put = Put {
                    rows: weight,
                    cells: weight * fam.cells,
                    data_bytes: weight * fam.data,
                    heap_bytes: weight * fam.heap,
                };
                store
                    .memstore
                    .add_mutation(key, kind, put, segment_overhead, now_ms);
                heap_total += store.memstore.heap_bytes - before;
                data_total += put.data_bytes;
            }
            active += store.memstore.heap_bytes;
        }
        r.write_requests += weight;
        r.range_writes += weight;
        self.world.rows_written += weight;
        match kind {
            Mutation::Update => self.world.rec.stats.updates += weight,
            Mutation::Delete => self.world.rec.stats.deletes += weight,
        }
        // As for a put: a write to a region with no flush queued or running may make a futile
        // global-pressure pick worth trying again.
        let idle = r.flush.idle();
        r.last_write_ns = Some(self.world.now);
        r.policy.record_writes(weight, 0, now_ms);
        r.memstore_peak = r.memstore_peak.max(active + r.snapshot_heap);
        let over_flush = policy::write::over_flush_size(active, self.cfg.settings.flush_size);
        let wal = match kind {
            Mutation::Update => self.cache.wal_row,
            Mutation::Delete => self.cache.wal_delete,
        };
        let landed = Landed {
            server,
            region,
            p,
            weight,
            data: data_total,
            heap: heap_total,
            wal: weight * wal,
            idle,
            over_flush,
            retried: false,
        };
        self.land_on_server(key, landed);
    }

    /// The arrived row lands: routed to its region, it waits while the region is offline or
    /// blocked, then goes into the memstores.
    #[inline(always)]
    pub(crate) fn land(&mut self, key: &[u8], weight: u64) {
        if self.world.rows_written >= self.cache.next_row_trigger {
            self.fire_row_events();
        }
        let p = prefix8(key);
        let region = self.route(key, p);
        if self.admission(region) == Admission::Take {
            self.apply_write(region, key, p, weight, false, false);
        } else {
            self.write_waiting(region, key, p, weight);
        }
    }

    /// A write its region refuses (offline, or `RegionTooBusyException`), or that queues behind
    /// the region's held-back writes, is held back for the client's retry while the load goes
    /// on; a server above its global memstore limit blocks its handlers (and so the writers)
    /// until flushes bring it down.
    #[cold]
    #[inline(never)]
    pub(crate) fn write_waiting(&mut self, mut region: usize, key: &[u8], p: u64, weight: u64) {
        loop {
            let why = match self.admission(region) {
                Admission::Take => break,
                Admission::Refused(why) => {
                    if why == Refusal::TooBusy {
                        // HRegion.checkResources requests a flush before it throws.
                        self.apply(Decision::Flush {
                            region,
                            why: FlushWhy::Blocking,
                        });
                    }
                    why
                }
                // Queued behind the region's held rows, for the reason they are held.
                Admission::BehindHeld => self
                    .world
                    .state
                    .client
                    .held
                    .get(&region)
                    .map_or(Refusal::Offline, |h| h.why),
                Admission::Blocked if self.run.loader.is_some() => {
                    // Several clients (an update's row on a blocked server): held for the
                    // client's retry, as a retry meeting a blocked server is.
                    let server = self.world.state.regions[region].server;
                    self.global_pressure(server);
                    Refusal::TooBusy
                }
                Admission::Blocked => {
                    // MemStoreFlusher.reclaimMemStoreMemory: block until below the high mark.
                    let server = self.world.state.regions[region].server;
                    self.global_pressure(server);
                    if !self.wait_blocked(server, None) {
                        break;
                    }
                    region = self.route(key, p);
                    continue;
                }
            };
            self.hold(region, key, weight, why);
            self.stall_while_buffers_full();
            return;
        }
        self.apply_write(region, key, p, weight, false, false);
    }

    /// The write rules' limits now (the settings change on `set` events).
    #[inline(always)]
    pub(crate) fn write_limits(&self) -> WriteLimits {
        WriteLimits::new(&self.cfg.settings, self.cfg.global)
    }

    /// Whether `region` takes a row now, and why not (`policy::write::admission`).
    #[inline(always)]
    pub(crate) fn admission(&self, region: usize) -> Admission {
        let held = match self.run.loader {
            None => self.world.state.regions[region].client_held,
            // Several clients: the client acting now queues behind its own held rows only.
            Some(_) => self.world.state.client.held.contains_key(&region),
        };
        self.admission_held(region, held)
    }

    /// [`Engine::admission`] for a client that holds rows back for `region` or not.
    #[inline(always)]
    pub(crate) fn admission_held(&self, region: usize, held: bool) -> Admission {
        let r = &self.world.state.regions[region];
        let server_heap = self.world.state.servers[r.server].memstore_heap;
        let mut w = RegionWrite::of(r);
        w.held_behind = held;
        policy::write::admission(w, server_heap, &self.write_limits())
    }

    /// Waits for the next event while writes to `server` (and `region`) are blocked, and books
    /// the wait as blocked time. False if nothing is scheduled that could unblock them.
    pub(crate) fn wait_blocked(&mut self, server: usize, region: Option<usize>) -> bool {
        let t0 = self.world.now;
        if !self.advance() {
            return false;
        }
        let waited = self.world.now - t0;
        self.world.rec.stats.blocked_ns += waited;
        self.world.state.servers[server].blocked_ns += waited;
        if let Some(r) = region {
            self.world.state.regions[r].blocked_ns += waited;
        }
        true
    }

    #[inline]
    pub(crate) fn apply_write(
        &mut self,
        region: usize,
        key: &[u8],
        p: u64,
        weight: u64,
        too_busy: bool,
        retried: bool,
    ) {
        if key.len() != self.cache.put_row_len {
            self.set_row_len(key.len());
        }
        let now_ms = self.world.now / NS_PER_MS;
        let mut data_total = 0;
        let mut heap_total = 0;
        let mut active = 0;
        let segment_overhead = self.cfg.layout.segment_overhead();
        let r = &mut self.world.state.regions[region];
        let server = r.server;
        for (store, fam) in r.stores.iter_mut().zip(&self.cache.put_per_family) {
            if fam.cells != 0 {
                let data = weight * fam.data;
                let before = store.memstore.heap_bytes;
                let put = Put {
                    rows: weight,
                    cells: weight * fam.cells,
                    data_bytes: data,
                    heap_bytes: weight * fam.heap,
                };
                store.memstore.add(key, put, segment_overhead, now_ms);
                heap_total += store.memstore.heap_bytes - before;
                data_total += data;
            }
            active += store.memstore.heap_bytes;
        }
        r.write_requests += weight;
        r.range_writes += weight;
        r.rows += weight;
        self.world.rows_written += weight;
        let idle = r.flush.idle();
        r.last_write_ns = Some(self.world.now);
        // BusyRegionSplitPolicy counts the writes that met RegionTooBusyException.
        let blocked = if too_busy { weight } else { 0 };
        r.policy.record_writes(weight, blocked, now_ms);
        r.memstore_peak = r.memstore_peak.max(active + r.snapshot_heap);
        let over_flush = policy::write::over_flush_size(active, self.cfg.settings.flush_size);
        let landed = Landed {
            server,
            region,
            p,
            weight,
            data: data_total,
            heap: heap_total,
            wal: weight * self.cache.wal_row,
            idle,
            over_flush,
            retried,
        };
        self.land_on_server(key, landed);
    }

    /// What every landed row does once its memstores took it: the server's heap and counters,
    /// the WAL, the write path's bandwidth (the offered stream waits when it runs ahead of
    /// it), the windows and heatmap, then the flush and global-pressure checks.
    #[inline]
    fn land_on_server(&mut self, key: &[u8], l: Landed) {
        let Landed {
            server,
            region,
            p,
            weight,
            ..
        } = l;
        let s = &mut self.world.state.servers[server];
        if l.idle {
            s.pressure_futile = false;
        }
        s.memstore_heap += l.heap;
        s.memstore_peak = s.memstore_peak.max(s.memstore_heap);
        s.write_requests += weight;
        s.write_bytes += l.data;
        let roll = policy::write::wal_rolls(s.wal.append(l.wal), self.cfg.wal_roll);
        // The server's write path (WAL + memstore) absorbs data at its bandwidth; the client may
        // run ahead of it by its buffer, then waits.
        let backlog = s.busy_until_ns.saturating_sub(self.world.now);
        s.busy_until_ns =
            s.busy_until_ns.max(self.world.now) + ((l.data as u128 * s.write_fp) >> 32) as u64;
        // A retried row's writer is not the one offering rows now: only the offered stream waits.
        let wait = if l.retried {
            0
        } else {
            s.busy_until_ns
                .saturating_sub(self.world.now + CLIENT_LAG_NS)
        };
        let (gc, owed) = policy::write::gc_wait(s.gc_owed_ns, backlog, wait);
        s.gc_owed_ns = owed;
        let bound = s.write_bound;
        if let Some(ld) = self.run.loader.as_deref_mut() {
            // Several clients: the one that sent the row waits (`apply/loader.rs`).
            if !l.retried {
                ld.landed_busy = s.busy_until_ns.max(1);
                ld.landed_wait = (wait, gc, bound);
            }
        } else if wait > 0 {
            let st = &mut self.world.rec.stats;
            st.throttled_ns += wait;
            st.server_waits.add(wait, gc, bound);
            self.world.now += wait;
        }
        if roll {
            self.roll_wal(server);
        }
        if self.world.now >= self.world.rec.next_slice_end {
            self.roll_slices();
        }
        if let Some(w) = self.world.rec.windows.last_mut() {
            w[server] += weight;
        }
        let b = self.world.rec.heat_bucket(key, p);
        if let Some(h) = self.world.rec.heat_writes.last_mut() {
            h[b] += weight;
        }
        self.after_landing(region, server, l.over_flush);
    }

    /// What a landing sets off once its bytes are counted (`HRegion.put`'s
    /// `requestFlushIfNeeded`, then `MemStoreFlusher`'s global check): a flush of a region over
    /// its flush size, then the server's global memstore pressure. Rows and the other tables'
    /// writes share it.
    pub(super) fn after_landing(&mut self, region: usize, server: usize, over_flush: bool) {
        if over_flush {
            self.apply(Decision::Flush {
                region,
                why: FlushWhy::Size,
            });
        }
        if self
            .cfg
            .global
            .presses(self.world.state.servers[server].memstore_heap)
        {
            self.global_pressure(server);
        }
    }

    /// Per-family cell sizes of a row with a `len`-byte key (constant for fixed-length keys).
    #[cold]
    #[inline(never)]
    pub(crate) fn set_row_len(&mut self, len: usize) {
        let cfg = &self.cfg;
        self.cache.put_row_len = len;
        self.cache.put_per_family.clear();
        self.cache.delete_per_family.clear();
        self.cache.wal_row = 0;
        self.cache.wal_delete = 0;
        for (&cells, &family_len) in cfg.cells_per_family.iter().zip(&cfg.family_lens) {
            let size = cell::data_size(len as u64, family_len, cfg.qualifier_len, cfg.value_len);
            self.cache.put_per_family.push(FamilyPut {
                cells,
                data: cells * size,
                heap: cells * cell::heap_size(size, cfg.layout),
            });
            self.cache.wal_row += cells * cell::wal_entry_size(size);
            // A row delete writes one DeleteFamily marker per family the row has cells in:
            // the row and family, an empty qualifier and no value (`KeyValue` of type
            // DeleteFamily).
            let marker = cell::data_size(len as u64, family_len, 0, 0);
            let has = u64::from(cells != 0);
            self.cache.delete_per_family.push(FamilyPut {
                cells: has,
                data: has * marker,
                heap: has * cell::heap_size(marker, cfg.layout),
            });
            self.cache.wal_delete += has * cell::wal_entry_size(marker);
        }
        // The write path's CPU cost is per row: its rate in bytes follows the row's size.
        self.cache.row_data = self.cache.put_per_family.iter().map(|f| f.data).sum();
        for server in 0..self.world.state.servers.len() {
            self.update_write_path(server);
        }
    }
}
