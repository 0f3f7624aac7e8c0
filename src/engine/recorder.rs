//! The recorder: counters, hotspot windows, the key heatmap, timeline samples, and the history
//! of what happened to each region and to the cluster.

use crate::engine::ingest::route::Router;
use crate::engine::queue::Event;
use crate::engine::{Engine, RunStats, Sample, ServerSample, SplitRecord, WINDOW_NS};
use crate::engine::{EventDetail, EventRecord, Happening, HistoryEntry, ServerAt};

/// What the recorder keeps during a run.
pub(crate) struct Recorder {
    /// Counters of the run.
    pub(crate) stats: RunStats,
    /// Splits in order.
    pub(crate) splits: Vec<SplitRecord>,
    /// Real rows written per server per hotspot window.
    pub(crate) windows: Vec<Vec<u64>>,
    /// Servers taking regions (alive, not draining) at the start of each hotspot window (a
    /// server joining during a window hosts nothing yet; the report also counts any server that
    /// took writes in it).
    pub(crate) window_servers: Vec<u32>,
    /// Time the last piece of real work finished, ns.
    pub(crate) settled: u64,
    /// The earlier of `window_end` and `heat_end`.
    pub(crate) next_slice_end: u64,
    /// End of the current hotspot window, ns.
    pub(crate) window_end: u64,
    /// Timeline samples.
    pub(crate) samples: Vec<Sample>,
    /// Start keys of the key-heatmap buckets.
    pub(crate) heat_buckets: Vec<Vec<u8>>,
    /// The heat buckets as a routing table (bucket `i` is entry `i`), with the write path's
    /// indexes and caches: each row's bucket is found as its region is.
    pub(crate) heat: Router,
    /// Real writes per heat slice per bucket.
    pub(crate) heat_writes: Vec<Vec<u64>>,
    /// Timeline sample / heat slice length, ns.
    pub(crate) sample_ns: u64,
    /// End of the current heat slice, ns.
    pub(crate) heat_end: u64,
    /// Real reads per window per heat bucket.
    pub(crate) heat_reads: Vec<Vec<u64>>,
}

impl Recorder {
    /// The heat buckets starting at `starts` (none: one bucket of every key).
    pub(crate) fn set_heat_buckets(&mut self, starts: Vec<Vec<u8>>) {
        self.heat = if starts.is_empty() {
            Router::over(&[Vec::new()])
        } else {
            Router::over(&starts)
        };
        self.heat_buckets = starts;
    }

    /// The heat bucket holding `key`, whose `prefix8` is `p`.
    #[inline(always)]
    pub(crate) fn heat_bucket(&mut self, key: &[u8], p: u64) -> usize {
        self.heat.route_by_prefix(key, p)
    }

    /// The heat bucket holding `key`, whose `prefix8` is `p` and `hex_digits` are `code`.
    #[inline(always)]
    pub(crate) fn heat_bucket_coded(&mut self, key: &[u8], p: u64, code: (u64, bool)) -> usize {
        self.heat.route_coded(key, p, code)
    }
}

impl Engine {
    /// Opens the hotspot windows and heat slices the clock has reached.
    #[cold]
    #[inline(never)]
    pub(crate) fn roll_slices(&mut self) {
        while self.world.now >= self.world.rec.window_end {
            self.world
                .rec
                .windows
                .push(vec![0; self.world.state.servers.len()]);
            self.world
                .rec
                .window_servers
                .push(self.servers_taking_regions());
            self.world.rec.window_end += WINDOW_NS;
        }
        while self.world.now >= self.world.rec.heat_end {
            self.world
                .rec
                .heat_writes
                .push(vec![0; self.world.rec.heat_buckets.len().max(1)]);
            self.world.rec.heat_end += self.world.rec.sample_ns;
        }
        self.world.rec.next_slice_end = self.world.rec.window_end.min(self.world.rec.heat_end);
    }

    /// Servers that can take writes: alive and not draining; a server added during the load
    /// counts once it hosts a region. Until the balancer moves regions to it, counting it would
    /// halve the fair share and call an even load over the other servers a hotspot (a server
    /// of the initial cluster with no region of the table still counts: that is imbalance).
    pub(crate) fn servers_taking_regions(&self) -> u32 {
        self.world
            .state
            .servers
            .iter()
            .filter(|s| s.accepts_regions() && (s.joined_ns == 0 || s.online_regions > 0))
            .count() as u32
    }

    /// The heat bucket holding `key`, leaving the write path's cache alone.
    pub(crate) fn heat_bucket_uncached(&self, key: &[u8]) -> usize {
        self.world.rec.heat.locate(key)
    }

    /// Records every server's state (a timeline sample) and schedules the next one while
    /// anything else is still to happen.
    pub(crate) fn sample(&mut self) {
        // Other tables' reads land per interval, before the sample counts them.
        self.other_table_reads();
        let mut servers: Vec<ServerSample> = self
            .world
            .state
            .servers
            .iter()
            .map(|s| ServerSample {
                regions: s.online_regions as u32,
                blocked_ns: s.blocked_ns,
                writes: s.write_requests,
                reads: s.read_requests,
                online: s.accepts_regions(),
                compaction_queue: (s.small_queue.len() + s.large_queue.len()) as u32,
                ..ServerSample::default()
            })
            .collect();
        for id in self.world.state.routing.ids() {
            let r = &self.world.state.regions[id];
            let ss = &mut servers[r.server];
            ss.store_bytes += r.counted_store_bytes();
            ss.memstore_bytes += r.memstore_data();
            ss.store_files += r.store_files() as u32;
        }
        self.world.rec.samples.push(Sample {
            // The scheduled time (events are handled when the client clock passes them).
            at_ns: (self.world.rec.samples.len() as u64 + 1) * self.world.rec.sample_ns,
            servers,
        });
        self.track_hosting();
        self.keep_draining();
        // The master's cluster metrics (the balancer's load history) every simulated minute.
        let at = self.world.rec.samples.last().map_or(0, |x| x.at_ns);
        if at / WINDOW_NS != at.saturating_sub(self.world.rec.sample_ns) / WINDOW_NS {
            self.record_loads();
        }
        if self.keep_periodic() {
            self.schedule(self.world.rec.sample_ns, Event::Sample);
        }
    }

    /// Records a step of a region's life.
    pub(crate) fn note(&mut self, region: usize, what: Happening) {
        self.world.dyn_.out.history.push(HistoryEntry {
            at_ns: self.world.now,
            region,
            what,
        });
    }

    /// Records a cluster event.
    pub(crate) fn record_event(&mut self, detail: EventDetail) {
        self.world.dyn_.out.events.push(EventRecord {
            at_ns: self.world.now,
            detail,
        });
    }

    /// Server `i` as named now.
    pub(crate) fn server_at(&self, i: usize) -> ServerAt {
        ServerAt {
            index: i,
            servers: self.world.state.servers.len(),
        }
    }

    /// Updates the balance figure "time until every server hosts a region" at a sample.
    pub(crate) fn track_hosting(&mut self) {
        if self.world.dyn_.out.all_hosting_ns.is_some() {
            return;
        }
        let all = self
            .world
            .state
            .servers
            .iter()
            .filter(|s| s.accepts_regions())
            .all(|s| s.online_regions > 0);
        if all {
            self.world.dyn_.out.all_hosting_ns = Some(self.world.now);
        }
    }

    /// Copies the key ranges of every region id for `--explain`.
    pub(crate) fn finish_lineage(&mut self) {
        self.world
            .dyn_
            .out
            .parents
            .resize(self.world.state.regions.len(), Vec::new());
        for r in &self.world.state.regions {
            if let Some(p) = r.parent {
                self.world.dyn_.out.parents[r.id] = vec![p];
            }
        }
        self.world.dyn_.out.ranges = self
            .world
            .state
            .regions
            .iter()
            .map(|r| (r.start.clone(), r.end.clone()))
            .collect();
    }
}
