//! Flushes carried out: the flush queue and handlers of each server (`MemStoreFlusher`), the
//! snapshot, the store files a flush adds, and the close flush of a region leaving its server.

use crate::engine::decision::{Decision, FlushWhy};
use crate::engine::files::{FlushFile, FlushJob, write_file};
use crate::engine::policy;
use crate::engine::policy::reactions::StoreChange;
use crate::engine::policy::variability::Site;
use crate::engine::queue::{Event, NS_PER_MS, transfer_ns};
use crate::engine::state::memstore::Memstore;
use crate::engine::state::region::{FlushDelay, FlushState, HeldFile, RegionState};
use crate::engine::state::storefile::StoreFile;
use crate::engine::{Engine, Happening, MAX_SPARES};

impl Engine {
    /// `MemStoreFlusher.flushOneForGlobalPressure`: while the server is above the low mark, a
    /// free flush handler flushes the region the policy picks, at once (off the queue, without
    /// the blocking-files delay).
    pub(crate) fn global_pressure(&mut self, server: usize) {
        if !policy::flush::pressure_scan_due(
            &self.world.state.servers[server],
            self.cfg.global,
            self.cfg.settings.flusher_count,
        ) {
            return;
        }
        self.world.state.regions_on(server);
        let state = &self.world.state;
        let live = state
            .by_server
            .on(server)
            .iter()
            .map(|&id| &state.regions[id]);
        let blocking = self.cfg.compaction.blocking_store_files;
        match policy::flush::global_pressure_pick(server, live, blocking) {
            Some(pick) => {
                self.apply(pick.decision());
            }
            // Nothing to flush (HBase's handler sleeps 1 s and looks again): skip the scan
            // until a write reaches an idle region or an event changes flush states.
            None => self.world.state.servers[server].pressure_futile = true,
        }
    }

    /// `MemStoreFlusher.flushRegion(region, emergencyFlush = true)`: the region's queued or
    /// delayed entry is dropped and the flush starts now on the free handler.
    pub(super) fn emergency_flush(&mut self, region: usize, why: FlushWhy) {
        let r = &mut self.world.state.regions[region];
        let server = r.server;
        if r.flush.has_entry() {
            self.world.state.servers[server]
                .flush_queue
                .retain(|&(id, _)| id != region);
        }
        self.start_flush(region, why);
    }

    pub(super) fn request_flush(&mut self, region: usize, why: FlushWhy) {
        if !policy::flush::accepts_request(&self.world.state.regions[region]) {
            return;
        }
        let r = &mut self.world.state.regions[region];
        // An immediate request replaces the periodic flusher's delayed entry.
        r.flush = FlushState::Queued(why);
        let server = r.server;
        self.world.state.servers[server]
            .flush_queue
            .push_back((region, self.world.now));
        self.start_flushes(server);
    }

    /// `PeriodicMemStoreFlusher` → `MemStoreFlusher.requestDelayedFlush`: the entry joins the
    /// queue after a random delay, unless the region already has an entry.
    pub(super) fn request_delayed_flush(&mut self, region: usize, delay_ns: u64) {
        let r = &mut self.world.state.regions[region];
        if r.flush.has_entry() || !policy::flush::accepts_request(r) {
            return;
        }
        if delay_ns == 0 {
            self.request_flush(region, FlushWhy::Periodic);
            return;
        }
        let queued = self.world.now;
        r.flush = FlushState::Delayed {
            why: FlushWhy::Periodic,
            since: queued,
            delay: FlushDelay::Periodic,
        };
        self.schedule(delay_ns, Event::FlushRetry { region, queued });
    }

    pub(crate) fn start_flushes(&mut self, server: usize) {
        while self.world.state.servers[server].flushes_running
            < self.cfg.settings.flusher_count.max(1)
        {
            let Some((region, queued)) = self.world.state.servers[server].flush_queue.pop_front()
            else {
                return;
            };
            let r = &self.world.state.regions[region];
            // An entry whose region closed or moved since, or whose flush an emergency flush
            // took, is stale: the region's own state already says so.
            let FlushState::Queued(why) = r.flush else {
                continue;
            };
            if r.state != RegionState::Open || r.server != server {
                continue;
            }
            // MemStoreFlusher.flushRegion: too many store files ⇒ postpone (up to blockingWaitTime).
            let blocking = self.cfg.compaction.blocking_store_files;
            if let Some(held) = policy::flush::hold_back(
                r,
                blocking,
                self.world.now - queued,
                self.cfg.settings.blocking_wait_ms.saturating_mul(NS_PER_MS),
            ) {
                if held.first {
                    self.world.rec.stats.delayed_flushes += 1;
                    self.note(
                        region,
                        Happening::FlushHeldBack {
                            files: held.most_files,
                            blocking,
                            wait_ms: self.cfg.settings.blocking_wait_ms,
                        },
                    );
                    self.react(region, StoreChange::FlushHeldBack);
                }
                let retry = (self.cfg.settings.blocking_wait_ms / 100)
                    .max(1)
                    .saturating_mul(NS_PER_MS);
                self.world.state.regions[region].flush = FlushState::Delayed {
                    why,
                    since: queued,
                    delay: FlushDelay::HeldBack,
                };
                self.schedule(retry, Event::FlushRetry { region, queued });
                continue;
            }
            self.start_flush(region, why);
        }
    }

    /// Takes the memstore snapshot and writes the files; they appear when the flush completes.
    pub(crate) fn start_flush(&mut self, region: usize, why: FlushWhy) {
        let cfg = &self.cfg;
        let scale = cfg.scale;
        let nf = self.world.state.regions[region].stores.len();
        let chosen = policy::flush::stores_for(
            &self.world.state.regions[region],
            why,
            cfg.settings.flush_size,
            cfg.settings.per_cf_flush_lower_bound_min,
        );
        let r = &mut self.world.state.regions[region];
        let mut files = Vec::with_capacity(nf);
        let mut heap = 0;
        let mut data = 0;
        for (f, store) in r.stores.iter_mut().enumerate() {
            if !chosen[f] {
                files.push(None);
                continue;
            }
            let spare = self.cache.spares.pop().unwrap_or_default();
            let snap: Memstore = std::mem::replace(&mut store.memstore, spare);
            heap += snap.heap_bytes;
            data += snap.data_bytes;
            let rows = snap.rows;
            self.world.file_seq += 1;
            let job = FlushJob {
                id: 0,
                snapshot: snap,
                shape: cfg.shapes[f],
                format: cfg.formats[f],
                scale,
                seq_id: self.world.file_seq,
                now_ms: self.world.now / NS_PER_MS,
                order: cfg.key_order(r.table),
            };
            let file = match self.run.builder.as_mut() {
                Some(b) => match b.submit_flush(job) {
                    Some(id) => FlushFile::Building(id),
                    None => FlushFile::Ready(None),
                },
                None => {
                    let file = job.write();
                    let mut snap = job.snapshot;
                    snap.recycle();
                    self.cache.spares.push(snap);
                    FlushFile::Ready(file)
                }
            };
            files.push(Some((file, rows)));
        }
        r.flush = FlushState::Idle;
        if data == 0 {
            return;
        }
        let all = r.stores.iter().all(|s| s.memstore.is_empty());
        self.wal_flush_started(region, all);
        let r = &mut self.world.state.regions[region];
        r.flush = FlushState::Running(why);
        r.snapshot_heap = heap;
        let server = r.server;
        // The flush takes its node's share of disks and NIC as it starts. A pre-close flush runs
        // in the close handler, not a MemStoreFlusher thread: like the close flush it takes the
        // rate of the moment without holding a flusher or a share of the node.
        let rate = self.flush_rate(server);
        if why != FlushWhy::PreClose {
            self.world.state.servers[server].flushes_running += 1;
            self.world.state.servers[server].flush_rate = rate;
        }
        let duration = (self.cfg.draws).duration(
            Site::Flush,
            region as u64,
            self.world.file_seq,
            transfer_ns(data, rate),
        );
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

    pub(crate) fn flush_done(
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
                        let (f, snap) = self
                            .run
                            .builder
                            .as_mut()
                            .map_or((None, None), |b| b.take(id));
                        if let Some(mut snap) = snap
                            && self.cache.spares.len() < MAX_SPARES
                        {
                            snap.recycle();
                            self.cache.spares.push(snap);
                        }
                        f
                    }
                };
                file.map(|f| (f, rows))
            })
            .collect();
        self.wal_flush_done(region);
        let r = &mut self.world.state.regions[region];
        let FlushState::Running(why) = r.flush else {
            unreachable!("a flush completed for region {region}, which runs none")
        };
        r.flush = FlushState::Idle;
        r.snapshot_heap = 0;
        let mut flushed_stores = Vec::new();
        let mut written = 0;
        for (f, file) in files.into_iter().enumerate() {
            if let Some((file, rows)) = file {
                written += file.length();
                self.world.rec.stats.flushed_file_bytes += file.length();
                r.stores[f].files.push(HeldFile { file, rows });
                r.stores[f].recount();
                flushed_stores.push(f);
            }
        }
        let files_now: usize = r.stores.iter().map(|s| s.files.len()).sum();
        self.world.rec.stats.wal_forced_flushes += u64::from(why == FlushWhy::Wal);
        self.note(
            region,
            Happening::Flushed {
                why,
                data,
                written,
                files_now,
            },
        );
        let s = &mut self.world.state.servers[server];
        s.memstore_heap = s.memstore_heap.saturating_sub(heap);
        if why != FlushWhy::PreClose {
            s.flushes_running = s.flushes_running.saturating_sub(1);
        }
        // The flushed region may be a candidate for the global pressure flush again.
        s.pressure_futile = false;
        let now_on = self.world.state.regions[region].server;
        self.world.state.servers[now_on].pressure_futile = false;
        self.world.rec.stats.flushes += 1;
        self.count_for_table(region, |c| c.flushes += 1);
        self.world.rec.stats.flushed_bytes += data;
        if why == FlushWhy::PreClose {
            // HRegion.doClose goes on: the close flag, then the flush of what arrived meanwhile.
            self.pre_close_flushed(region);
        } else if self.world.state.regions[region].state == RegionState::Open {
            // MemStoreFlusher.flushRegion: split if the policy says so, else compact if needed.
            self.react(region, StoreChange::Flushed(flushed_stores));
        }
        if why != FlushWhy::PreClose
            && self.world.state.regions[region].active_heap() > self.cfg.settings.flush_size
        {
            self.apply(Decision::Flush {
                region,
                why: FlushWhy::Size,
            });
        }
        if !self.world.state.servers[server].dead {
            self.start_flushes(server);
            self.global_pressure(server);
        }
    }

    /// Flushes a closing region's memstore at once (`HRegion.doClose`): returns the data bytes
    /// flushed, which the close takes `bytes / flush bandwidth` to write.
    pub(crate) fn close_flush(&mut self, region: usize) -> u64 {
        self.wal_flushed_all(region);
        let data = self.world.state.regions[region].memstore_data();
        if data == 0 {
            return 0;
        }
        let cfg = &self.cfg;
        let r = &mut self.world.state.regions[region];
        let mut heap = 0;
        for (f, store) in r.stores.iter_mut().enumerate() {
            if store.memstore.is_empty() {
                continue;
            }
            let snap = store.memstore.take();
            heap += snap.heap_bytes;
            self.world.file_seq += 1;
            if let Some(file) = write_file(
                &snap,
                cfg.shapes[f],
                cfg.formats[f],
                cfg.scale,
                self.world.file_seq,
                self.world.now / NS_PER_MS,
                cfg.key_order(r.table),
            ) {
                self.world.rec.stats.flushed_file_bytes += file.length();
                store.files.push(HeldFile {
                    file,
                    rows: snap.rows,
                });
                store.recount();
            }
        }
        let server = r.server;
        self.world.state.servers[server].memstore_heap = self.world.state.servers[server]
            .memstore_heap
            .saturating_sub(heap);
        self.world.rec.stats.flushes += 1;
        self.count_for_table(region, |c| c.flushes += 1);
        self.world.rec.stats.flushed_bytes += data;
        data
    }

    /// A delayed entry comes due: a held-back flush is tried again at the head of its server's
    /// queue (keeping the time it was first queued); a periodic one joins the queue's tail. An
    /// entry that an emergency or immediate flush removed meanwhile is stale.
    pub(crate) fn flush_retry(&mut self, region: usize, queued: u64) {
        let r = &mut self.world.state.regions[region];
        let FlushState::Delayed { why, since, delay } = r.flush else {
            return;
        };
        if since != queued {
            return;
        }
        let server = r.server;
        if r.state == RegionState::Open {
            r.flush = FlushState::Queued(why);
            let q = &mut self.world.state.servers[server].flush_queue;
            match delay {
                FlushDelay::Periodic => q.push_back((region, queued)),
                FlushDelay::HeldBack => q.push_front((region, queued)),
            }
            self.start_flushes(server);
        } else {
            r.flush = FlushState::Idle;
        }
    }
}
