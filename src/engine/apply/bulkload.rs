//! A design loaded in bulk: the job that sorts the rows by region and writes HFiles
//! (`HFileOutputFormat2` behind a total-order partitioner), then the loader that groups the
//! files by the regions of the moment, splits the ones that straddle a boundary and loads each
//! region's files at once (`BulkLoadHFilesTool`, `HRegion.bulkLoadHFiles`). The rules are in
//! `policy/bulkload.rs`; the HBase side then follows its own rules (compactions, splits).

use crate::diag::InputError;
use crate::engine::Engine;
use crate::engine::decision::Decision;
use crate::engine::files;
use crate::engine::history::Happening;
use crate::engine::ingest::route::prefix8;
use crate::engine::policy::bulkload::{self, NodeBandwidth, Placement, Refusal};
use crate::engine::policy::compaction;
use crate::engine::policy::split_check::{self, SplitCaller, SplitContext};
use crate::engine::queue::{Event, NS_PER_MS};
use crate::engine::state::bulkload::{BulkFile, BulkLoader, BulkOutcome};
use crate::engine::state::memstore::{Memstore, Put};
use crate::engine::state::region::{HeldFile, RegionState};
use crate::keygen::rng::splitmix64;

/// A loader thread's cost of committing one file into a store: the HDFS rename into the store's
/// folder and the NameNode and RegionServer round trips around it, ns (an assumption of a few
/// milliseconds; opening the file's reader is charged by its index bytes on top).
const FILE_COMMIT_NS: u64 = 5 * NS_PER_MS;

impl Engine {
    /// The job: every row of the design, partitioned by the regions at the job's start (one
    /// task per region), sorted, written as HFiles per family rolled at the job's
    /// `hbase.hregion.max.filesize`. Returns the emulated rows taken. The loader starts when
    /// the job's last task ends (`Event::BulkJobDone`).
    pub(crate) fn bulk_job(&mut self) -> Result<u64, InputError> {
        let mut feed = self
            .run
            .feed
            .take()
            .expect("a bulk load starts with its feed");
        let entries: Vec<(Vec<u8>, usize)> = self.world.state.routing.entries().to_vec();
        let families = self.cfg.shapes.len();
        // One buffer per task and family: the rows' keys and their KeyValue bytes.
        let mut tasks: Vec<Vec<Memstore>> = (0..entries.len())
            .map(|_| (0..families).map(|_| Memstore::default()).collect())
            .collect();
        let starts: Vec<&[u8]> = entries.iter().map(|(s, _)| s.as_slice()).collect();
        let mut done = 0;
        while let Some((b, key)) = feed.peek() {
            let weight = self.run.sampling.weight(b);
            if key.len() != self.cache.put_row_len {
                self.set_row_len(key.len());
            }
            let task = starts.partition_point(|s| *s <= key).saturating_sub(1);
            for (f, fam) in self.cache.put_per_family.iter().enumerate() {
                if fam.cells != 0 {
                    let put = Put {
                        rows: weight,
                        cells: weight * fam.cells,
                        data_bytes: weight * fam.data,
                        heap_bytes: 0,
                    };
                    tasks[task][f].add(key, put, 0, 0);
                }
            }
            feed.advance();
            done = b + 1;
        }
        if let Some(e) = feed.error() {
            self.run.feed = Some(feed);
            return Err(e);
        }
        // The job's timing: its tasks' rates from the nodes they run on.
        let nodes = self.world.state.servers.len().max(1);
        let job = self.cfg.bulk_job;
        let rate = bulkload::task_rate(
            job.task_rate,
            job.slots_per_node,
            NodeBandwidth {
                disk: self.cfg.hardware.disk_total(),
                network: self.cfg.hardware.network,
            },
            self.cfg.settings.client.replication,
        );
        let slots = nodes * job.slots_per_node.max(1) as usize;
        let task_bytes: Vec<u64> = tasks
            .iter()
            .map(|t| t.iter().map(|m| m.data_bytes).sum())
            .collect();
        let job_bytes: u64 = task_bytes.iter().sum();
        let secs: Vec<f64> = task_bytes.iter().map(|&b| b as f64 / rate).collect();
        let finish = bulkload::task_finish_times(&secs, slots);
        let reduce_s = finish.iter().copied().fold(0.0, f64::max);
        // The map phase reads and partitions every byte once, on every slot.
        let map_s = job_bytes as f64 / (rate * slots as f64);
        let startup_ns = job.startup_ms.saturating_mul(NS_PER_MS);
        let map_ns = (map_s * 1e9) as u64;
        let reduce_ns = (reduce_s * 1e9) as u64;
        let job_end_ns = self
            .world
            .now
            .saturating_add(startup_ns)
            .saturating_add(map_ns)
            .saturating_add(reduce_ns);
        // The files, written at the job's end (their cells' time for TTL and major age).
        let now_ms = job_end_ns / NS_PER_MS;
        let roll = self.cfg.settings.bulk_load.job_roll_size;
        let favored = self.cfg.settings.bulk_load.locality_sensitive;
        let mut queue = Vec::new();
        let mut outcome = BulkOutcome {
            tasks: tasks.len(),
            slots,
            task_rate: rate,
            largest_task_bytes: task_bytes.iter().copied().max().unwrap_or(0),
            job_bytes,
            startup_ns,
            map_ns,
            reduce_ns,
            job_end_ns,
            ..BulkOutcome::default()
        };
        for (t, stores) in tasks.into_iter().enumerate() {
            // HFileOutputFormat2 asks for the region's server as favored node; without it the
            // task's blocks start on whichever node the scheduler gave it (a seeded draw: YARN
            // and Spark place reduce tasks without regard to the regions).
            let node = if favored {
                self.world.state.regions[entries[t].1].server
            } else {
                (splitmix64(self.cfg.seed ^ 0xB01C_10AD ^ t as u64) % nodes as u64) as usize
            };
            for (f, store) in stores.into_iter().enumerate() {
                let before = queue.len();
                self.task_files(f, &store, roll, now_ms, node, &mut queue);
                for file in &queue[before..] {
                    outcome.files_written += 1;
                    outcome.file_bytes += file.file.length();
                }
            }
        }
        self.run.bulk = Some(Some(Box::new(BulkLoader {
            queue,
            round: 0,
            outcome,
            ..BulkLoader::default()
        })));
        self.schedule(job_end_ns - self.world.now, Event::BulkJobDone);
        Ok(done)
    }

    /// One task's HFiles of family `f`: its rows sorted, cut where `HFileOutputFormat2` rolls.
    fn task_files(
        &self,
        f: usize,
        rows: &Memstore,
        roll: u64,
        now_ms: u64,
        node: usize,
        out: &mut Vec<BulkFile>,
    ) {
        if rows.rows == 0 {
            return;
        }
        let shape = self.cfg.shapes[f];
        let format = self.cfg.formats[f];
        let real = rows.rows;
        let row_bytes = rows.data_bytes / real.max(1);
        let cell_bytes = row_bytes / u64::from(shape.columns.max(1));
        let per_file = bulkload::rows_per_file(roll, row_bytes, cell_bytes);
        let n_files = real.div_ceil(per_file);
        let sorted = if self.cfg.reference {
            rows.plain_sorted_unique()
        } else {
            rows.with_sorted_unique(<[u32]>::to_vec)
        };
        let keys: Vec<&[u8]> = sorted.iter().map(|&i| rows.key(i as usize)).collect();
        let n = keys.len() as u64;
        let mut from_real = 0u64;
        let mut from_key = 0usize;
        for i in 0..n_files {
            let file_real = per_file.min(real - from_real);
            // The file's keys: its share of the sorted emulated rows (the last file takes the rest).
            let to_key = if i + 1 == n_files {
                keys.len()
            } else {
                ((from_real + file_real) as u128 * n as u128 / real as u128) as usize
            };
            if to_key > from_key {
                let data = file_real * row_bytes;
                if let Some(file) = files::write_sorted(
                    &keys[from_key..to_key],
                    file_real,
                    data,
                    shape,
                    format,
                    0,
                    now_ms,
                ) {
                    out.push(BulkFile {
                        family: f,
                        file,
                        rows: file_real,
                        data,
                        node,
                    });
                }
            }
            from_real += file_real;
            from_key = to_key;
        }
    }

    /// A round of the loader: group every queued file by the regions of the moment, splitting
    /// the ones that straddle a boundary, refuse the load if one family of one region would get
    /// too many files, else load each region's files on the loader's threads.
    pub(crate) fn bulk_round(&mut self) {
        let Some(Some(mut loader)) = self.run.bulk.take() else {
            return;
        };
        loader.round += 1;
        loader.outcome.rounds = loader.round;
        let entries: Vec<(Vec<u8>, usize)> = self.world.state.routing.entries().to_vec();
        let settings = self.cfg.settings.bulk_load;
        if !bulkload::may_start_round(loader.round, settings.retries, entries.len()) {
            loader.outcome.refused = Some(Refusal::OutOfRetries {
                rounds: loader.round - 1,
            });
            return self.bulk_done(loader);
        }
        let starts: Vec<Vec<u8>> = entries.iter().map(|(s, _)| s.clone()).collect();
        let threads = settings
            .loader_threads
            .unwrap_or(self.cfg.hardware.cores)
            .max(1) as usize;
        // Group, splitting straddlers until every piece fits one region.
        let mut groups: Vec<Vec<BulkFile>> = (0..entries.len()).map(|_| Vec::new()).collect();
        let mut todo = std::mem::take(&mut loader.queue);
        let mut split_bytes = 0u64;
        while let Some(item) = todo.pop() {
            let (first, last) = (item.file.file.first_row(), item.file.file.last_row());
            match bulkload::place(first, last, &starts) {
                Placement::Into(pos) => groups[pos].push(item),
                Placement::SplitAt(row) => {
                    loader.outcome.files_split += 1;
                    split_bytes += item.file.length();
                    todo.extend(self.split_bulk_file(&item, &row));
                }
            }
        }
        loader.outcome.split_bytes += split_bytes;
        // Splitting reads each straddling file and writes its halves (`copyHFileHalf`, twice),
        // on the loader's threads at a job task's rate.
        let split_ns =
            (split_bytes as f64 * 2.0 / (loader.outcome.task_rate * threads as f64) * 1e9) as u64;
        // BulkLoadHFilesTool.checkHFilesCountPerRegionPerFamily, before anything loads.
        let mut counts = Vec::new();
        for (pos, g) in groups.iter().enumerate() {
            for f in 0..self.cfg.shapes.len() {
                let n = g.iter().filter(|b| b.family == f).count();
                if n > 0 {
                    counts.push((entries[pos].1, f, n));
                }
            }
        }
        if let Some(refusal) = bulkload::over_limit(&counts, settings.max_files_per_region_family) {
            if let Refusal::TooManyFiles { region, family, .. } = refusal {
                let r = &self.world.state.regions[region];
                loader.outcome.refused_at = Some((
                    r.start.clone(),
                    r.end.clone(),
                    self.cfg
                        .family_names
                        .get(family)
                        .cloned()
                        .unwrap_or_default(),
                ));
            }
            loader.outcome.refused = Some(refusal);
            // Nothing loaded: the files stay in the job's output folder.
            loader.queue = groups.into_iter().flatten().collect();
            return self.bulk_done(loader);
        }
        // Each region's files in one `bulkLoadHFiles` call, regions in key order on the first
        // free loader thread.
        let mut free = vec![self.world.now + split_ns; threads];
        for (pos, files) in groups.into_iter().enumerate() {
            if files.is_empty() {
                continue;
            }
            let open_bytes: u64 = files
                .iter()
                .map(|b| b.file.file.index_bytes() + storefile_trailer())
                .sum();
            let disk = self.cfg.hardware.disk_bandwidth.max(1);
            let took = files.len() as u64 * FILE_COMMIT_NS
                + (open_bytes as f64 / disk as f64 * 1e9) as u64;
            let (t, start) = free
                .iter()
                .copied()
                .enumerate()
                .min_by_key(|&(i, at)| (at, i))
                .expect("a thread");
            free[t] = start + took;
            let load = loader.loads.len();
            loader.loads.push(Some((entries[pos].1, files)));
            loader.in_flight += 1;
            self.schedule(free[t] - self.world.now, Event::BulkRegionLoaded { load });
        }
        if loader.in_flight == 0 {
            return self.bulk_done(loader);
        }
        self.run.bulk = Some(Some(loader));
    }

    /// The two halves of a file that straddles `row` (`BulkLoadHFilesTool.splitStoreFile`):
    /// new files of the rows below and from `row`, with the original's task node.
    fn split_bulk_file(&self, item: &BulkFile, row: &[u8]) -> Vec<BulkFile> {
        let f = &item.file.file;
        let n = f.emulated_rows();
        let keys: Vec<&[u8]> = (0..n).filter_map(|i| f.row_at(i)).collect();
        let cut = keys.partition_point(|k| *k < row);
        let shape = self.cfg.shapes[item.family];
        let format = self.cfg.formats[item.family];
        let mut out = Vec::new();
        let below = (item.rows as u128 * cut as u128 / n.max(1) as u128) as u64;
        for (range, rows) in [(0..cut, below), (cut..n, item.rows - below)] {
            if range.is_empty() || rows == 0 {
                continue;
            }
            let data = (item.data as u128 * rows as u128 / item.rows.max(1) as u128) as u64;
            if let Some(file) = files::write_sorted(
                &keys[range],
                rows,
                data,
                shape,
                format,
                0,
                item.file.created_ms,
            ) {
                out.push(BulkFile {
                    family: item.family,
                    file,
                    rows,
                    data,
                    node: item.node,
                });
            }
        }
        out
    }

    /// A region load completes (`HRegion.bulkLoadHFiles`): its files join the stores under one
    /// new sequence id, or go back to the queue when the region is no longer there.
    pub(crate) fn bulk_region_loaded(&mut self, load: usize) {
        let Some(Some(mut loader)) = self.run.bulk.take() else {
            return;
        };
        loader.in_flight -= 1;
        let (region, files) = loader.loads[load]
            .take()
            .expect("a region load completes once");
        // Open means live: a split, merged or moved region is in another state (and a retired
        // one never returns to Open).
        let live = self.world.state.regions[region].state == RegionState::Open;
        if !live {
            // The region split, merged or closed: the RPC fails and the files are regrouped.
            loader.outcome.region_retries += 1;
            loader.queue.extend(files);
        } else {
            self.load_into(region, files, &mut loader.outcome);
        }
        if loader.in_flight > 0 {
            self.run.bulk = Some(Some(loader));
        } else if loader.queue.is_empty() {
            self.bulk_done(loader);
        } else {
            self.run.bulk = Some(Some(loader));
            self.bulk_round();
        }
    }

    /// `HRegion.bulkLoadHFiles` on an open region: the files join their stores (one sequence id
    /// for the call when the loader assigns them), the rows count as written, and a store that
    /// needs a compaction gets a request when `hbase.compaction.after.bulkload.enable` is on.
    fn load_into(&mut self, region: usize, files: Vec<BulkFile>, out: &mut BulkOutcome) {
        let settings = self.cfg.settings.bulk_load;
        // With assigned sequence ids the region flushes first (its memstore holds no rows of a
        // bulk-loaded design) and the files take the flush's id; without, the file's own id (0).
        let seq_id = if settings.assign_seq_ids {
            self.world.file_seq += 1;
            self.world.file_seq
        } else {
            0
        };
        let now_ms = self.world.now / NS_PER_MS;
        let server = self.world.state.regions[region].server;
        let nodes = self.world.state.servers.len().max(1);
        let replication = self.cfg.settings.client.replication.max(1) as usize;
        let other_chance = if nodes > 1 {
            ((replication - 1).min(nodes - 1)) as f64 / (nodes - 1) as f64
        } else {
            1.0
        };
        let mut stores = Vec::new();
        let (mut rows, mut bytes, mut data) = (0u64, 0u64, 0u64);
        let count = files.len();
        if self.world.now >= self.world.rec.next_slice_end {
            self.roll_slices();
        }
        for b in files {
            let len = b.file.length();
            bytes += len;
            rows += b.rows;
            data += b.data;
            if b.node == server {
                out.local_bytes += len;
                out.replica_local_bytes += len as f64;
            } else {
                out.replica_local_bytes += len as f64 * other_chance;
            }
            // The key heatmap: the file's kept keys, each for its share of the rows.
            let f = &b.file.file;
            // The file's kept keys, each for its share of the rows: the first `rest` keys one
            // more, so the heatmap counts every loaded row.
            let keys = f.emulated_rows().max(1) as u64;
            let (per_key, rest) = (b.rows / keys, b.rows % keys);
            for i in 0..f.emulated_rows() {
                if let Some(k) = f.row_at(i) {
                    let bucket = self.world.rec.heat_bucket(k, prefix8(k));
                    if let Some(h) = self.world.rec.heat_writes.last_mut() {
                        h[bucket] += per_key + u64::from((i as u64) < rest);
                    }
                }
            }
            let mut file = b.file;
            file.seq_id = seq_id;
            file.created_ms = now_ms;
            let r = &mut self.world.state.regions[region];
            r.stores[b.family]
                .files
                .push(HeldFile { file, rows: b.rows });
            if !stores.contains(&b.family) {
                stores.push(b.family);
            }
        }
        let r = &mut self.world.state.regions[region];
        for &s in &stores {
            r.stores[s].files.sort_by_key(|h| h.file.seq_id);
            r.stores[s].recount();
        }
        // HBase counts no write requests for a bulk load (the region's WAL bookkeeping and the
        // balancer read those); the key range's writes and the server's rows are the report's.
        r.rows += rows;
        r.range_writes += rows;
        r.last_write_ns = Some(self.world.now);
        let files_now: usize = r.stores.iter().map(|s| s.files.len()).sum();
        self.world.rows_written += rows;
        self.world.state.servers[server].write_requests += rows;
        if let Some(w) = self.world.rec.windows.last_mut() {
            w[server] += rows;
        }
        out.region_loads += 1;
        out.files_loaded += count;
        out.rows_loaded += rows;
        out.data_loaded += data;
        out.bytes_loaded += bytes;
        self.note(
            region,
            Happening::BulkLoaded {
                files: count,
                bytes,
                files_now,
            },
        );
        if settings.compact_after {
            for s in stores {
                let st = &self.world.state.regions[region].stores[s];
                let infos = compaction::file_infos(st);
                if compaction::needs_compaction(
                    &infos,
                    st.compacting_files(),
                    &self.store_compaction(s),
                    self.world.now / NS_PER_MS,
                ) {
                    out.compactions_requested += 1;
                    self.apply(Decision::Compact { region, store: s });
                }
            }
        }
    }

    /// The load is over (every file loaded, or refused): the table as it stands is recorded,
    /// and the run goes on with the work the load left (compactions, splits) and no more rows.
    fn bulk_done(&mut self, mut loader: Box<BulkLoader>) {
        let out = &mut loader.outcome;
        out.load_end_ns = Some(self.world.now);
        let ids: Vec<usize> = self.world.state.routing.ids().collect();
        out.regions = ids.len();
        let (mut owing, mut files, mut max_files, mut over) = (0, 0, 0, 0);
        for &id in &ids {
            let table_regions = self.table_regions_on(id);
            let r = &self.world.state.regions[id];
            let online_regions = self.world.state.servers[r.server].online_regions;
            for (s, st) in r.stores.iter().enumerate() {
                files += st.files.len();
                max_files = max_files.max(st.files.len());
                let infos = compaction::file_infos(st);
                if compaction::needs_compaction(
                    &infos,
                    0,
                    &self.store_compaction(s),
                    self.world.now / NS_PER_MS,
                ) {
                    owing += 1;
                }
            }
            let cx = SplitContext {
                online_regions,
                table_regions,
                region_split_limit: self.cfg.settings.region_split_limit,
                ignore_blocking: self.cfg.settings.split_ignore_blocking,
                blocking_store_files: self.cfg.compaction.blocking_store_files,
                now_ms: self.world.now / NS_PER_MS,
                caller: SplitCaller::RequestSplit,
            };
            if split_check::check(r, cx).outcome.is_ok() {
                over += 1;
            }
        }
        out.stores_owing_compaction = owing;
        out.store_files = files;
        out.max_store_files = max_files;
        out.regions_over_split_size = over;
        self.world.rec.settled = self.world.rec.settled.max(self.world.now);
        self.run.bulk = Some(Some(loader));
        // The data is in (or the load gave up): as after a Put load's last row.
        self.run.ingest_ns = Some(self.world.now);
        if self.run.end_ns == u64::MAX {
            self.run.paused = false;
            self.run.draining = true;
        }
    }

    /// What the bulk load did, when the design was loaded in bulk.
    pub(crate) fn bulk_outcome(&self) -> Option<BulkOutcome> {
        match &self.run.bulk {
            Some(Some(l)) => Some(l.outcome.clone()),
            _ => None,
        }
    }
}

/// Bytes a reader reads to open a file besides its index: the fixed trailer.
fn storefile_trailer() -> u64 {
    crate::engine::state::storefile::hfile::TRAILER_V3
}
