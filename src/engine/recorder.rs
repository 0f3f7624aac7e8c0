//! The recorder: counters, hotspot windows, the key heatmap, timeline samples, and the history
//! of what happened to each region and to the cluster.

use crate::engine::queue::Event;
use crate::engine::state::routing::{
    BoundsCache, HexSlots, StartIndex, entry_bounds, second8, start_le,
};
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
    /// `prefix8` of each heat bucket's start (integer compares first, as for routing).
    pub(crate) heat_prefix: Vec<u64>,
    /// `second8` of each heat bucket's start.
    pub(crate) heat_second: Vec<u64>,
    /// The byte-alphabet index over `heat_prefix` (as the routing table's).
    pub(crate) heat_index: StartIndex,
    /// Buckets by 4 hex characters (as the routing table's).
    pub(crate) heat_hex: HexSlots,
    /// Real writes per heat slice per bucket.
    pub(crate) heat_writes: Vec<Vec<u64>>,
    /// Buckets of the last writes, by key prefix (sequential keys stay in one bucket for long
    /// runs; salted keys keep one per bucket of salt).
    pub(crate) heat_cache: BoundsCache,
    /// Timeline sample / heat slice length, ns.
    pub(crate) sample_ns: u64,
    /// End of the current heat slice, ns.
    pub(crate) heat_end: u64,
    /// Real reads per window per heat bucket.
    pub(crate) heat_reads: Vec<Vec<u64>>,
}

impl Recorder {
    /// [`Recorder::heat_bucket`] for a key whose `hex_digits` are `code`: a key opening with 8
    /// hex digits is looked up by its first 4 characters.
    #[inline(always)]
    pub(crate) fn heat_bucket_coded(&mut self, key: &[u8], p: u64, code: (u64, bool)) -> usize {
        if code.1 {
            let prefixes = &self.heat_prefix;
            if let Some(j) = self
                .heat_hex
                .get_or_build(code.0, || HexSlots::build(prefixes, |i| i))
            {
                return j;
            }
        }
        self.heat_bucket(key, p)
    }

    /// The heat bucket holding `key`, whose `prefix8` is `p`.
    #[inline]
    fn heat_bucket(&mut self, key: &[u8], p: u64) -> usize {
        let index = &self.heat_index;
        if let Some(j) = self.heat_cache.get_or(p, key, |p| index.sole(p)) {
            return j;
        }
        self.heat_bucket_slow(key, p)
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn heat_bucket_slow(&mut self, key: &[u8], p: u64) -> usize {
        let b = &self.heat_buckets;
        if b.len() <= 1 {
            // One bucket (or none: writes then count in slot 0): every key.
            self.heat_cache.put(p, 0, u128::MAX, 0);
            return 0;
        }
        // The byte-alphabet index, then integer compares on the first and second 8 bytes; full
        // compares only among buckets sharing 16 bytes with the key.
        let q = second8(key);
        let j = self.heat_index.find(p, &self.heat_prefix, |i| {
            start_le(&b[i], self.heat_second[i], key, q)
        });
        // As for routing: prefixes strictly between the bucket's bounds' imply the key is inside.
        // The bounds' prefixes from the flat copy (the keys themselves are separate allocations).
        let (lo, hi) = entry_bounds(&self.heat_prefix, &self.heat_second, j);
        self.heat_cache.put(p, lo, hi, j);
        j
    }
}

impl Engine {
    /// Opens the hotspot windows and heat slices the clock has reached.
    #[cold]
    #[inline(never)]
    pub(crate) fn roll_slices(&mut self) {
        while self.now >= self.rec.window_end {
            self.rec.windows.push(vec![0; self.state.servers.len()]);
            self.rec.window_servers.push(self.servers_taking_regions());
            self.rec.window_end += WINDOW_NS;
        }
        while self.now >= self.rec.heat_end {
            self.rec
                .heat_writes
                .push(vec![0; self.rec.heat_buckets.len().max(1)]);
            self.rec.heat_end += self.rec.sample_ns;
        }
        self.rec.next_slice_end = self.rec.window_end.min(self.rec.heat_end);
    }

    /// Servers that can take writes: alive and not draining; a server added during the load
    /// counts once it hosts a region. Until the balancer moves regions to it, counting it would
    /// halve the fair share and call an even load over the other servers a hotspot (a server
    /// of the initial cluster with no region of the table still counts: that is imbalance).
    pub(crate) fn servers_taking_regions(&self) -> u32 {
        self.state
            .servers
            .iter()
            .filter(|s| s.accepts_regions() && (s.joined_ns == 0 || s.online_regions > 0))
            .count() as u32
    }

    /// The heat bucket holding `key`, leaving the write path's cache alone.
    pub(crate) fn heat_bucket_uncached(&self, key: &[u8]) -> usize {
        self.rec
            .heat_buckets
            .partition_point(|s| s.as_slice() <= key)
            .saturating_sub(1)
    }

    /// Records every server's state (a timeline sample) and schedules the next one while
    /// anything else is still to happen.
    pub(crate) fn sample(&mut self) {
        // Other tables' reads land per interval, before the sample counts them.
        self.other_table_reads();
        let mut servers: Vec<ServerSample> = self
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
        for id in self.state.routing.ids() {
            let r = &self.state.regions[id];
            let ss = &mut servers[r.server];
            ss.store_bytes += r.counted_store_bytes();
            ss.memstore_bytes += r.memstore_data();
            ss.store_files += r.store_files() as u32;
        }
        self.rec.samples.push(Sample {
            // The scheduled time (events are handled when the client clock passes them).
            at_ns: (self.rec.samples.len() as u64 + 1) * self.rec.sample_ns,
            servers,
        });
        self.track_hosting();
        self.keep_draining();
        // The master's cluster metrics (the balancer's load history) every simulated minute.
        let at = self.rec.samples.last().map_or(0, |x| x.at_ns);
        if at / WINDOW_NS != at.saturating_sub(self.rec.sample_ns) / WINDOW_NS {
            self.record_loads();
        }
        if self.keep_periodic() {
            self.schedule(self.rec.sample_ns, Event::Sample);
        }
    }

    /// Records a step of a region's life.
    pub(crate) fn note(&mut self, region: usize, what: Happening) {
        self.dyn_.out.history.push(HistoryEntry {
            at_ns: self.now,
            region,
            what,
        });
    }

    /// Records a cluster event.
    pub(crate) fn record_event(&mut self, detail: EventDetail) {
        self.dyn_.out.events.push(EventRecord {
            at_ns: self.now,
            detail,
        });
    }

    /// Server `i` as named now.
    pub(crate) fn server_at(&self, i: usize) -> ServerAt {
        ServerAt {
            index: i,
            servers: self.state.servers.len(),
        }
    }

    /// Updates the balance figure "time until every server hosts a region" at a sample.
    pub(crate) fn track_hosting(&mut self) {
        if self.dyn_.out.all_hosting_ns.is_some() {
            return;
        }
        let all = self
            .state
            .servers
            .iter()
            .filter(|s| s.accepts_regions())
            .all(|s| s.online_regions > 0);
        if all {
            self.dyn_.out.all_hosting_ns = Some(self.now);
        }
    }

    /// Copies the key ranges of every region id for `--explain`.
    pub(crate) fn finish_lineage(&mut self) {
        self.dyn_
            .out
            .parents
            .resize(self.state.regions.len(), Vec::new());
        for r in &self.state.regions {
            if let Some(p) = r.parent {
                self.dyn_.out.parents[r.id] = vec![p];
            }
        }
        self.dyn_.out.ranges = self
            .state
            .regions
            .iter()
            .map(|r| (r.start.clone(), r.end.clone()))
            .collect();
    }
}
