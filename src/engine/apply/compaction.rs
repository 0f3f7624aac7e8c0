//! Compactions carried out: the small and large pools of each server (`CompactSplit`), the
//! selection at run time, the throughput controller's rates, completion and aborts.

use std::cmp::Reverse;
use std::sync::Arc;

use crate::engine::files::CompactionOutput;
use crate::engine::policy::chore_clock;
use crate::engine::policy::compaction::{self, SelectOptions};
use crate::engine::policy::offpeak;
use crate::engine::policy::reactions::StoreChange;
use crate::engine::policy::throughput;
use crate::engine::policy::variability::Site;
use crate::engine::queue::{Event, NS_PER_MS};
use crate::engine::state::region::HeldFile;
use crate::engine::state::region::{self, RegionState};
use crate::engine::state::server::QueuedCompaction;
use crate::engine::state::storefile::{
    self, CellTimes, FileKind, MergeCounts, StoreFile, VersionRules,
};
use crate::engine::{ActiveCompaction, Engine, Happening};

impl Engine {
    /// A system compaction request (`CompactSplit.requestSystemCompaction`): queued without a
    /// selection in the small pool at the store's current priority; the files are selected when
    /// a pool thread takes it. A store keeps at most one queued request (HBase queues one runner
    /// per request; a second runner of the same store would select from the same files).
    pub(crate) fn request_compaction(&mut self, region: usize, store: usize) {
        let r = &self.world.state.regions[region];
        if r.state != RegionState::Open || r.stores[store].queued {
            return;
        }
        let priority = r.stores[store].compact_priority(self.cfg.compaction.blocking_store_files);
        let server = r.server;
        self.world.state.regions[region].stores[store].queued = true;
        let q = QueuedCompaction {
            priority: Reverse((priority, self.world.queue.next_seq())),
            region,
            store,
        };
        // "We assume that most compactions are small": system requests start in the small pool
        // and move to the large one once their selection turns out large.
        self.world.state.servers[server].small_queue.push(q);
        self.start_compactions(server);
    }

    /// `HStore.requestCompaction`'s `mayUseOffPeak` on `server`: off-peak hours, and no
    /// off-peak compaction of this RegionServer still running (the tracker is released when
    /// that compaction finishes or is aborted, i.e. leaves `state.compactions`).
    fn may_use_offpeak(&self, server: usize) -> bool {
        let held = self
            .world
            .state
            .compactions
            .values()
            .any(|c| c.server == server && c.offpeak);
        offpeak::may_use_offpeak(self.offpeak_hour(), held)
    }

    /// Free pool threads take queued requests, highest priority (lowest number) first.
    pub(crate) fn start_compactions(&mut self, server: usize) {
        for large in [false, true] {
            loop {
                let limit = if large {
                    self.cfg.settings.large_compaction_threads
                } else {
                    self.cfg.settings.small_compaction_threads
                }
                .max(1);
                let s = &mut self.world.state.servers[server];
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
                self.run_queued(server, q, large);
            }
        }
    }

    /// `CompactSplit.CompactionRunner.doCompaction` for a system request: re-check the
    /// priority, select now, move to the large pool if the selection is large, else run.
    fn run_queued(&mut self, server: usize, q: QueuedCompaction, large: bool) {
        let QueuedCompaction {
            priority: Reverse((queued_priority, _)),
            region,
            store,
        } = q;
        let r = &self.world.state.regions[region];
        if r.state != RegionState::Open || self.world.closing == Some(region) {
            self.world.state.regions[region].stores[store].queued = false;
            return;
        }
        if r.server != server {
            // Moved while queued: the request follows it to its new server.
            self.world.state.regions[region].stores[store].queued = false;
            self.request_compaction(region, store);
            return;
        }
        let st = &r.stores[store];
        let blocking = self.cfg.compaction.blocking_store_files;
        let priority = st.compact_priority(blocking);
        if priority > queued_priority {
            // "Store priority decreased while we were in queue": requeue at the new priority.
            let q = QueuedCompaction {
                priority: Reverse((priority, self.world.queue.next_seq())),
                region,
                store,
            };
            let s = &mut self.world.state.servers[server];
            if large {
                s.large_queue.push(q);
            } else {
                s.small_queue.push(q);
            }
            return;
        }
        self.world.state.regions[region].stores[store].queued = false;
        self.drop_expired_files(region, store);
        let st = &self.world.state.regions[region].stores[store];
        let infos = compaction::file_infos(st);
        let cfg = self.store_compaction(store);
        if compaction::fifo_without_references(&infos, &cfg) {
            self.fifo_drop_expired(region, store);
            return;
        }
        let now_ms = self.world.now / NS_PER_MS;
        let compacting = st.compacting_files();
        // A due major compaction is forced only while nothing else of the store compacts
        // (`HStore.requestCompaction`: forceMajor && filesCompacting.isEmpty()).
        let major_due = compacting == 0 && compaction::major_due(&infos, &cfg, now_ms);
        let opts = SelectOptions {
            compacting,
            force_major: major_due,
            user_requested: false,
            offpeak: self.may_use_offpeak(server),
            now_ms,
        };
        let Some(req) = compaction::select_by_policy(&infos, &cfg, opts, st.first_eligible())
        else {
            return;
        };
        if req.files.is_empty() {
            return;
        }
        // "Short compaction pool should not process large job": move it, cancelling the selection.
        let is_large = req.size > self.cfg.settings.compaction_throttle;
        if is_large && !large {
            self.world.state.regions[region].stores[store].queued = true;
            self.world.state.servers[server]
                .large_queue
                .push(QueuedCompaction {
                    priority: Reverse((queued_priority, self.world.queue.next_seq())),
                    region,
                    store,
                });
            return;
        }
        self.start_compaction(server, (region, store), large, req);
    }

    /// A selection (`req`, its files a non-empty contiguous run) starts in the chosen pool.
    fn start_compaction(
        &mut self,
        server: usize,
        (region, store): (usize, usize),
        large: bool,
        req: compaction::CompactionRequest,
    ) {
        let (first, count) = (req.files[0], req.files.len());
        let (major, offpeak, boundaries) = (req.is_major, req.offpeak, req.boundaries);
        let r = &self.world.state.regions[region];
        let st = &r.stores[store];
        let held = &st.files[first..first + count];
        let inputs: Vec<&StoreFile> = held.iter().map(|h| &h.file).collect();
        let windows =
            (boundaries.len() > 1).then(|| (boundaries, storefile::keys_follow_time(&inputs)));
        // TTL: cells older than the cutoff at the start are not written (minor or major).
        let cutoff = self.ttl_cutoff_ms(store);
        let (mut rows, mut expired_rows, mut expired_bytes) = (0, 0, 0);
        let mut cells: Option<CellTimes> = None;
        for h in held {
            let live = h.file.cells.live_rows(h.rows, cutoff);
            if live > 0 {
                let t = h.file.cells.after(cutoff);
                cells = Some(cells.map_or(t, |c| c.merge(rows, t, live)));
            }
            rows += live;
            expired_rows += h.rows - live;
            if live < h.rows {
                let data = h.file.file.data_bytes() as u128 * h.file.emulated_rows() as u128
                    / h.file.file.emulated_rows().max(1) as u128;
                expired_bytes += (data * (h.rows - live) as u128 / h.rows as u128) as u64;
            }
        }
        // Versions and deletes: a compaction of every file of the store drops the markers and
        // what they mask (`Compactor`: `COMPACT_DROP_DELETES` when `request.isAllFiles()`).
        let rules = VersionRules {
            max_versions: self.cfg.max_versions[store],
            drop_deletes: count == st.files.len(),
            store_rows: st.files.iter().map(|h| h.rows).sum(),
        };
        let counts = if inputs.iter().any(|f| !f.file.extra().is_empty()) {
            storefile::merge_counts(&inputs, cutoff, rules)
        } else {
            MergeCounts::default()
        };
        rows = rows.saturating_sub(counts.masked_rows);
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
            .sum::<u64>()
            + counts.extra_out.bytes();
        let references = inputs.iter().filter(|f| f.is_reference()).count() as u32;
        let (shape, format) = (self.cfg.shapes[store], self.cfg.formats[store]);
        let output = match self.run.builder.as_mut() {
            Some(b) => {
                let owned: Vec<StoreFile> = inputs.iter().map(|&f| f.clone()).collect();
                match b.submit_compaction(owned, cutoff, rules, shape, format) {
                    Some(id) => CompactionOutput::Building(id),
                    None => CompactionOutput::Ready(None),
                }
            }
            None => {
                let out = storefile::compact(&inputs, cutoff, rules, shape, format);
                CompactionOutput::Ready(out.map(Arc::new))
            }
        };
        let s = &mut self.world.state.servers[server];
        if large {
            s.large_running += 1;
        } else {
            s.small_running += 1;
        }
        let token = self.world.queue.next_seq();
        self.world.state.regions[region].stores[store]
            .running
            .push(region::RunningCompaction {
                token,
                server,
                large,
                first,
                count,
            });
        // This thread's speed (varied per compaction), then the node's disks and NIC.
        let thread_ceiling = (self.cfg.draws).rate(
            Site::Compaction,
            region as u64,
            token,
            self.cfg.compaction_bw[store],
        );
        let ceiling = crate::engine::policy::resources::compaction_ceiling(
            thread_ceiling,
            self.shares(server),
            self.replication(),
            read,
            written,
        );
        let progress = throughput::Progress {
            remaining: read,
            tail: throughput::unthrottled_tail(
                read,
                written,
                self.cfg.settings.compaction_throughput_check_interval,
            ),
            rate: ceiling,
            ceiling,
            since: self.world.now,
        };
        self.world.state.compactions.insert(
            token,
            ActiveCompaction {
                region,
                server,
                store,
                output,
                rows,
                cells: cells.unwrap_or(CellTimes::at(self.world.now / NS_PER_MS)),
                expired_rows,
                expired_bytes,
                counts,
                seq_id,
                created_ms: self.world.now / NS_PER_MS,
                read,
                written,
                references,
                thread_ceiling,
                major,
                windows,
                offpeak,
                large,
                started: self.world.now,
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
    pub(crate) fn rerate_compactions(&mut self, server: usize) {
        let tokens: Vec<u64> = self
            .world
            .state
            .compactions
            .iter()
            .filter(|(_, c)| c.server == server)
            .map(|(&t, _)| t)
            .collect();
        self.rerate_compactions_of(server, &tokens);
    }

    /// `rerate_compactions` given the server's running compactions (`tokens`, ascending).
    pub(crate) fn rerate_compactions_of(&mut self, server: usize, tokens: &[u64]) {
        let s = &self.cfg.settings;
        let limit = self.world.state.servers[server]
            .compaction_limit
            .unwrap_or_else(|| throughput::initial_limit(s));
        let active = tokens.len();
        let share = throughput::per_compaction(s.compaction_throughput_controller, limit, active);
        let now = self.world.now;
        let mut due = Vec::new();
        let shares = self.shares(server);
        let replication = self.replication();
        for &token in tokens {
            let Some(c) = self.world.state.compactions.get_mut(&token) else {
                continue;
            };
            c.progress.advance(now);
            // The node's disks and NIC bound what the thread can do, then the throttle.
            let ceiling = crate::engine::policy::resources::compaction_ceiling(
                c.thread_ceiling,
                shares,
                replication,
                c.read,
                c.written,
            );
            let rate = throughput::read_rate(ceiling, share, c.read, c.written);
            if c.generation > 0 && rate == c.progress.rate && ceiling == c.progress.ceiling {
                continue;
            }
            c.progress.ceiling = ceiling;
            if c.generation > 0 {
                // Its scheduled completion is stale from now on.
                self.world.queue.work -= 1;
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
    pub(crate) fn arm_compaction_tune(&mut self) {
        if self.world.tune_armed {
            return;
        }
        if let Some(period) = self.cfg.settings.compaction_throughput_tune_period_ms {
            self.world.tune_armed = true;
            self.schedule(
                period.max(1).saturating_mul(NS_PER_MS),
                Event::CompactionTune,
            );
        }
    }

    /// `PressureAwareCompactionThroughputController.tune(server.getCompactionPressure())` on every
    /// live server: the pressure is the highest of its online regions' stores
    /// (`HRegionServer.getCompactionPressure`), and its running compactions get new rates.
    pub(crate) fn tune_compaction_throughput(&mut self) {
        let c = &self.cfg.compaction;
        let mut pressure = vec![0.0f64; self.world.state.servers.len()];
        for id in self.world.state.live_ids() {
            let r = &self.world.state.regions[id];
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
        let offpeak = self
            .offpeak_hour()
            .then_some(s.compaction_throughput_offpeak);
        for (server, p) in pressure.into_iter().enumerate() {
            if self.world.state.servers[server].dead {
                continue;
            }
            self.world.state.servers[server].compaction_limit =
                Some(throughput::tuned_limit(p, lower, higher, offpeak));
            self.rerate_compactions(server);
        }
    }

    /// A configuration change (`CompactSplit.onConfigurationChange`) builds a new controller:
    /// it starts from the new lower bound and its chore tunes it at once.
    pub(crate) fn reset_compaction_throughput(&mut self) {
        for s in &mut self.world.state.servers {
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
            for server in 0..self.world.state.servers.len() {
                self.rerate_compactions(server);
            }
        }
    }

    /// The compaction knobs of `store`: the site's, with its family's TTL.
    pub(crate) fn store_compaction(&self, store: usize) -> compaction::CompactionConfig {
        compaction::CompactionConfig {
            ttl_ms: self.cfg.ttl_ms.get(store).copied().flatten(),
            ..self.cfg.compaction.clone()
        }
    }

    /// `HStore.removeUnneededFiles` before a selection: with a TTL and
    /// `hbase.store.delete.expired.storefile`, files whose newest cell is past the TTL go
    /// whole, unread and unwritten (never the newest file, nor one being compacted).
    fn drop_expired_files(&mut self, region: usize, store: usize) {
        let Some(cutoff) = self.ttl_cutoff_ms(store) else {
            return;
        };
        if !self.cfg.settings.delete_expired_storefile {
            return;
        }
        let st = &self.world.state.regions[region].stores[store];
        let runs: Vec<(usize, usize)> = st.running.iter().map(|r| (r.first, r.count)).collect();
        let expired = compaction::expired_files(&compaction::file_infos(st), &runs, cutoff);
        self.remove_expired(region, store, &expired);
    }

    /// `FIFOCompactionPolicy.selectCompaction` on a store without References: every expired file
    /// not being compacted, the newest included (its compaction writes no cell: the files go).
    /// Counted as expired files dropped; the read of the files is not charged.
    fn fifo_drop_expired(&mut self, region: usize, store: usize) {
        let Some(cutoff) = self.ttl_cutoff_ms(store) else {
            return;
        };
        let st = &self.world.state.regions[region].stores[store];
        let runs: Vec<(usize, usize)> = st.running.iter().map(|r| (r.first, r.count)).collect();
        let expired = compaction::fifo_expired_files(&compaction::file_infos(st), &runs, cutoff);
        self.remove_expired(region, store, &expired);
    }

    /// Removes the expired files at `expired` (ascending indices) of a store, with their rows.
    fn remove_expired(&mut self, region: usize, store: usize, expired: &[usize]) {
        if expired.is_empty() {
            return;
        }
        let st = &mut self.world.state.regions[region].stores[store];
        let (mut rows, mut bytes) = (0, 0);
        for &i in expired.iter().rev() {
            let h = st.files.remove(i);
            rows += h.rows;
            bytes += h.file.file.data_bytes();
            // Running compactions of newer files find theirs one place earlier.
            for run in &mut st.running {
                if run.first > i {
                    run.first -= 1;
                }
            }
        }
        st.recount();
        let r = &mut self.world.state.regions[region];
        r.rows = r.rows.saturating_sub(rows);
        self.world.rec.stats.expired_files_dropped += expired.len() as u64;
        self.world.rec.stats.ttl_expired_rows += rows;
        self.world.rec.stats.ttl_expired_bytes += bytes;
    }

    /// Cells of `store` written before this are past its family's TTL now (`None`: no TTL).
    pub(crate) fn ttl_cutoff_ms(&self, store: usize) -> Option<u64> {
        let ttl = self.cfg.ttl_ms.get(store).copied().flatten()?;
        Some((self.world.now / NS_PER_MS).saturating_sub(ttl))
    }

    pub(crate) fn compaction_done(&mut self, token: u64) {
        let Some(ActiveCompaction {
            region,
            server,
            store,
            output,
            rows,
            cells,
            mut expired_rows,
            expired_bytes,
            mut counts,
            seq_id,
            created_ms,
            read,
            references,
            major,
            windows,
            large,
            started,
            ..
        }) = self.world.state.compactions.remove(&token)
        else {
            return;
        };
        // PressureAwareThroughputController.finish: the others share the limit among fewer.
        self.rerate_compactions(server);
        let output = match output {
            CompactionOutput::Ready(h) => h,
            CompactionOutput::Building(id) => self
                .run
                .builder
                .as_mut()
                .and_then(|b| b.take_compaction(id))
                .map(Arc::new),
        };
        let s = &mut self.world.state.servers[server];
        if large {
            s.large_running = s.large_running.saturating_sub(1);
        } else {
            s.small_running = s.small_running.saturating_sub(1);
        }
        let st = &mut self.world.state.regions[region].stores[store];
        let Some(at) = st.running.iter().position(|c| c.token == token) else {
            return;
        };
        let run = st.running.remove(at);
        if self.world.state.servers[server].dead {
            // The server died mid-compaction: the output is lost, the inputs remain.
            return;
        }
        let written_as = |(file, rows, cells)| HeldFile {
            file: StoreFile {
                file,
                seq_id,
                created_ms,
                major,
                kind: FileKind::Real,
                cells,
            },
            rows,
        };
        // DateTiered: one file per time window (`DateTieredMultiFileWriter`), oldest first
        // (`SEQ_ID_MAX_TIMESTAMP` orders files of one sequence id by their newest cell).
        let outputs: Vec<HeldFile> = match (output, windows) {
            (None, _) => Vec::new(),
            (Some(file), None) => vec![written_as((file, rows, cells))],
            (Some(file), Some((boundaries, follow))) => {
                let (shape, format) = (self.cfg.shapes[store], self.cfg.formats[store]);
                storefile::split_by_windows(&file, rows, &cells, &boundaries, follow, shape, format)
                    .into_iter()
                    .map(written_as)
                    .collect()
            }
        };
        if outputs.is_empty() && self.ttl_cutoff_ms(store).is_some() {
            // Nothing live was written: every input row is gone (the sampled count and the
            // exact one can disagree by a rounding when all but a few rows expired).
            expired_rows += rows;
        } else if outputs.is_empty() && counts.masked_rows > 0 {
            // Every row was deleted (the same rounding).
            counts.masked_rows += rows;
        }
        if counts != MergeCounts::default() {
            let st = &mut self.world.rec.stats;
            st.versions_dropped += counts.excess_versions;
            st.versions_dropped_bytes += counts.excess_version_bytes;
            st.deleted_rows_dropped += counts.masked_rows;
            st.deleted_versions_dropped += counts.masked_versions;
            st.markers_dropped += counts.markers_dropped;
            st.deleted_bytes += counts.deleted_bytes;
            let r = &mut self.world.state.regions[region];
            r.rows = r.rows.saturating_sub(counts.masked_rows);
        }
        if expired_rows > 0 {
            self.world.rec.stats.ttl_expired_rows += expired_rows;
            self.world.rec.stats.ttl_expired_bytes += expired_bytes;
            let r = &mut self.world.state.regions[region];
            r.rows = r.rows.saturating_sub(expired_rows);
        }
        for f in &outputs {
            self.world.rec.stats.compaction_written_bytes += f.file.length();
        }
        let (first, count) = (run.first, run.count);
        let st = &mut self.world.state.regions[region].stores[store];
        let kept = outputs.len();
        st.files.splice(first..first + count, outputs);
        st.recount();
        // Compactions of newer files of the store now find them `count − kept` places earlier
        // (or later: DateTiered may write more files than it read).
        for other in &mut st.running {
            if other.first > first {
                // After the compacted run (`first + count` or later): safe in that order.
                other.first = other.first + kept - count;
            }
        }
        // The inputs stay as compacted files until the discharger archives them; a compacted
        // Reference keeps the store from splitting meanwhile.
        if references > 0 {
            if st.compacted_refs == 0 {
                self.world.discharge_pending.push((region, store));
            }
            st.compacted_refs += references;
            let server = self.world.state.regions[region].server;
            self.arm_discharger(server);
        }
        self.world.rec.stats.compacted_bytes += read;
        let files_now = self.world.state.regions[region].stores[store].files.len();
        self.note(
            region,
            Happening::Compacted {
                major,
                files: count,
                read,
                took_ns: self.world.now - started,
                files_now,
            },
        );
        if major {
            self.world.rec.stats.major_compactions += 1;
        } else {
            self.world.rec.stats.minor_compactions += 1;
        }
        self.count_for_table(region, |c| c.compactions += 1);
        // CompactionRunner: check for a split, then whether more compaction is needed.
        if self.world.state.regions[region].state == RegionState::Open {
            self.react(region, StoreChange::Compacted(store));
        }
        // A flush postponed for too many files may go now.
        self.start_flushes(server);
        self.start_compactions(server);
        let now_on = self.world.state.regions[region].server;
        if now_on != server {
            self.start_flushes(now_on);
        }
    }

    /// A closing region's running compactions are aborted (`CloseChecker`: the compactor checks
    /// every `hbase.hstore.close.check.interval` bytes whether the store is closing); their pool
    /// slots go to the next queued compactions. Its compacted files are archived by the close
    /// (`HStore.close`).
    pub(crate) fn abort_compactions(&mut self, region: usize) {
        let mut freed = Vec::new();
        for st in &mut self.world.state.regions[region].stores {
            st.compacted_refs = 0;
            for run in st.running.drain(..) {
                if let Some(c) = self.world.state.compactions.remove(&run.token) {
                    // Its completion event is stale.
                    self.world.queue.work -= 1;
                    if let (CompactionOutput::Building(id), Some(b)) =
                        (c.output, self.run.builder.as_mut())
                    {
                        b.abandon(id);
                    }
                }
                let s = &mut self.world.state.servers[run.server];
                if run.large {
                    s.large_running = s.large_running.saturating_sub(1);
                } else {
                    s.small_running = s.small_running.saturating_sub(1);
                }
                self.world.rec.stats.aborted_compactions += 1;
                freed.push(run.server);
            }
        }
        if !freed.is_empty() {
            self.note(region, Happening::CompactionsAborted { count: freed.len() });
        }
        freed.dedup();
        // The region is closing: its own queued requests are dropped, not started.
        self.world.closing = Some(region);
        for s in freed {
            self.rerate_compactions(s);
            self.start_compactions(s);
        }
        self.world.closing = None;
    }

    /// Schedules `server`'s next `CompactedHFilesDischarger` run, if it is not scheduled yet:
    /// at the server's own phase (`policy::chore_clock`).
    pub(crate) fn arm_discharger(&mut self, server: usize) {
        let s = &self.world.state.servers[server];
        if s.discharger_armed || s.dead {
            return;
        }
        let period = self.cfg.settings.discharger_interval_ms.max(1) * NS_PER_MS;
        let before =
            chore_clock::started_before_run_ns(self.cfg.seed, server, chore_clock::START_SPAN_NS);
        let next = chore_clock::next_run_ns(self.world.now, period, s.joined_ns, before);
        self.world.state.servers[server].discharger_armed = true;
        self.schedule(next - self.world.now, Event::Discharge { server });
    }

    /// `server`'s `CompactedHFilesDischarger`: it archives its stores' compacted files; a store
    /// whose last Reference was among them may split again at its next flush or compaction.
    /// Stores of other servers wait for their own server's run; a store whose region closed
    /// meanwhile was archived by the close.
    pub(crate) fn discharge(&mut self, server: usize) {
        self.world.state.servers[server].discharger_armed = false;
        let dead = self.world.state.servers[server].dead;
        let state = &mut self.world.state;
        self.world.discharge_pending.retain(|&(region, store)| {
            let r = &mut state.regions[region];
            if r.server != server {
                return r.stores[store].compacted_refs > 0;
            }
            if !dead {
                r.stores[store].compacted_refs = 0;
            }
            false
        });
    }
}
