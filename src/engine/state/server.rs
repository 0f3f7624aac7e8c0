//! A RegionServer: its flush handlers, its compaction pools and throttle, its global memstore
//! accounting, its write bandwidth and its WAL.

use std::collections::{BinaryHeap, VecDeque};

use super::wal::Wal;

/// A queued compaction (`CompactSplit` runs the highest priority first: lowest number).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct QueuedCompaction {
    /// `Reverse`-ordered priority: lower runs first (after-split compactions are boosted).
    pub priority: std::cmp::Reverse<(i64, u64)>,
    /// Region id.
    pub region: usize,
    /// Store index.
    pub store: usize,
}

/// One RegionServer.
#[derive(Debug, Default)]
pub struct Server {
    /// Regions waiting for a flush handler, with the time they were queued (ns).
    pub flush_queue: VecDeque<(usize, u64)>,
    /// Online regions (open or splitting): what `regionSplitLimit` and the increasing split
    /// policies count.
    pub online_regions: usize,
    /// Flushes running.
    pub flushes_running: u32,
    /// Compactions waiting for the small pool.
    pub small_queue: BinaryHeap<QueuedCompaction>,
    /// Compactions waiting for the large pool.
    pub large_queue: BinaryHeap<QueuedCompaction>,
    /// Running small compactions.
    pub small_running: u32,
    /// Running large compactions.
    pub large_running: u32,
    /// Memstore heap of all hosted regions (active + snapshots).
    pub memstore_heap: u64,
    /// Highest `memstore_heap` seen.
    pub memstore_peak: u64,
    /// The write path is busy until this time (ns): WAL + memstore bandwidth.
    pub busy_until_ns: u64,
    /// Time writes to this server waited on blocking (RegionTooBusy, global memstore), ns.
    pub blocked_ns: u64,
    /// Real rows written to this server.
    pub write_requests: u64,
    /// Real data bytes written to this server.
    pub write_bytes: u64,
    /// Real read requests served.
    pub read_requests: u64,
    /// Died (a `kill` event): hosts nothing, takes nothing.
    pub dead: bool,
    /// Decommissioned (draining): its regions are moved off and it takes no new ones.
    pub draining: bool,
    /// Simulated time it joined, ns (0 for the initial servers).
    pub joined_ns: u64,
    /// Its `CompactedHFilesDischarger` run is scheduled.
    pub discharger_armed: bool,
    /// The last global-pressure scan found no region to flush, and nothing has changed since.
    pub pressure_futile: bool,
    /// Total compaction throughput limit set by the last tune of its
    /// `PressureAwareCompactionThroughputController`, bytes/s (`f64::INFINITY`: unlimited);
    /// `None` before the first tune (the lower bound applies).
    pub compaction_limit: Option<f64>,
    /// Its write path's rate (WAL + memstore) from its node's shares, bytes/s.
    pub write_rate: u64,
    /// ns per byte of `write_rate`, 32.32 fixed point (the per-row path reads this).
    pub write_fp: u128,
    /// `write_bytes` at the last resource tick.
    pub wal_mark: u64,
    /// WAL bytes/s appended over the last resource tick.
    pub wal_rate: f64,
    /// Replica bytes/s of other servers' HDFS writes landing on its disks.
    pub inbound: f64,
    /// Replica bytes/s it forwards in other servers' write pipelines.
    pub forward: f64,
    /// Rate of the last flush it started, bytes/s.
    pub flush_rate: u64,
    /// Its write-ahead log.
    pub wal: Wal,
    /// Stop-the-world JVM pauses so far.
    pub gc_pauses: u64,
    /// Their total length, ns.
    pub gc_pause_ns: u64,
    /// Pause time still ahead in its write path's backlog: what a client waiting now waits
    /// out first (`policy::write::gc_wait`), ns.
    pub gc_owed_ns: u64,
    /// `write_bytes` at its last pause: young collections follow the heap's churn, which
    /// follows the bytes its write path takes.
    pub gc_mark: u64,
    /// Index of its next pause.
    pub gc_next: u64,
    /// That pause is scheduled.
    pub gc_armed: bool,
    /// What bounds its write path's rate now (`policy::resources::write_path_rate`).
    pub write_bound: WriteBound,
}

/// What bounds a RegionServer's write path (WAL appends and memstore inserts).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum WriteBound {
    /// Its cores: a mutation's CPU time on each of min(cores, handlers) threads.
    #[default]
    Cpu,
    /// The WAL's share of the node's disks.
    Disk,
    /// The WAL's share of the node's NIC (sending to the pipeline, receiving the clients').
    Network,
    /// The scenario's explicit `cluster.write_bandwidth`.
    Cap,
}

impl WriteBound {
    /// Every bound, in `ServerWaits::path_ns` order.
    pub const ALL: [WriteBound; 4] = [
        WriteBound::Cpu,
        WriteBound::Disk,
        WriteBound::Network,
        WriteBound::Cap,
    ];

    /// Index into `ServerWaits::path_ns`.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A client's time waiting for servers' write paths, by cause; the parts sum to its
/// throttled time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServerWaits {
    /// Waiting out GC pauses, ns.
    pub gc_ns: u64,
    /// Waiting on the write path's rate, by [`WriteBound`] (`WriteBound::ALL` order), ns.
    pub path_ns: [u64; 4],
}

impl ServerWaits {
    /// Adds a wait of `wait` ns of which `gc` ns were GC pauses, the rest at `bound`.
    pub fn add(&mut self, wait: u64, gc: u64, bound: WriteBound) {
        self.gc_ns += gc;
        self.path_ns[bound.index()] += wait - gc;
    }

    /// The sum of every part, ns.
    pub fn total(&self) -> u64 {
        self.gc_ns + self.path_ns.iter().sum::<u64>()
    }
}

impl Server {
    /// May host regions (alive and not draining).
    pub fn accepts_regions(&self) -> bool {
        !self.dead && !self.draining
    }
}
