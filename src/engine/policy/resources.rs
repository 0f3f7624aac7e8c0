//! How a RegionServer's node shares its disks, network and cores among its write path (WAL
//! appends and memstore inserts), its flushes and its compactions, and the HDFS replicas other
//! servers' writes land on it. Pure: the applier measures the demands and applies the shares.
//!
//! HDFS writes every block to `dfs.replication` DataNodes in a pipeline: the writer's own node
//! (first replica, local disk), then two others. A byte a RegionServer writes therefore costs its
//! node one disk write and one NIC send (to the second replica), and the cluster (replication − 1)
//! more disk writes and NIC receives elsewhere. With regions spread over the cluster those land
//! evenly on the other nodes (HDFS's default placement, racks ignored).

use crate::engine::state::server::WriteBound;

/// CPU time one mutation costs a RegionServer (RPC decode, WAL append, memstore insert, MVCC),
/// ns. An assumption, not an HBase constant: it makes a 16-core node take ~160,000 puts/s,
/// the order of magnitude of published single-RegionServer load figures (docs/MODEL.md).
pub const CPU_PER_PUT_NS: u64 = 100_000;
/// No demand takes a resource below this share of it (HDFS and the OS keep every stream moving).
const MIN_SHARE: f64 = 0.1;
/// Rates keep this many significant bits (rounded down, under 1 % off), so small changes of the
/// measured demands do not reschedule every running compaction at every tick.
const RATE_BITS: u32 = 8;

/// What a node has and what is demanded of it besides its own flushes and compactions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeDemand {
    /// All data disks together, bytes/s.
    pub disk: f64,
    /// NIC, bytes/s in each direction.
    pub network: f64,
    /// `dfs.replication` (at most the live servers).
    pub replication: u32,
    /// Bytes/s its WAL is appending (its write path's recent rate).
    pub wal: f64,
    /// Bytes/s of other servers' HDFS writes landing on its disks as replicas.
    pub inbound: f64,
    /// Bytes/s it forwards to the next node of other servers' pipelines (replication ≥ 3).
    pub forward: f64,
    /// Flushes and compactions running on it.
    pub jobs: u32,
}

/// The node's shares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shares {
    /// Disk bytes/s one flush or compaction may use.
    pub job_disk: f64,
    /// NIC bytes/s (sending) one flush or compaction may use.
    pub job_net: f64,
    /// Bytes/s the write path may append to the WAL (disk, NIC and receiving the clients' data).
    pub wal_cap: f64,
    /// Which of them sets `wal_cap`: the disks, or the NIC (either direction).
    pub wal_bound: WriteBound,
}

/// NIC sends per byte the node writes to HDFS: one to the pipeline's second node.
fn sends(replication: u32) -> f64 {
    if replication >= 2 { 1.0 } else { 0.0 }
}

/// Fair shares (processor sharing): the WAL and every job get equal parts of what the replicas
/// of other servers leave; a demand below its part leaves the rest to the others.
pub fn shares(d: NodeDemand) -> Shares {
    let disk_free = (d.disk - d.inbound).max(d.disk * MIN_SHARE);
    let out_free = (d.network - d.forward).max(d.network * MIN_SHARE);
    let in_free = (d.network - d.inbound).max(d.network * MIN_SHARE);
    let jobs = f64::from(d.jobs);
    let wal_out = d.wal * sends(d.replication);
    let (job_disk, job_net, wal_disk, wal_net) = if d.jobs == 0 {
        (disk_free, out_free, disk_free, out_free)
    } else {
        let fair_disk = disk_free / (jobs + 1.0);
        let fair_net = out_free / (jobs + 1.0);
        (
            (disk_free - d.wal.min(fair_disk)) / jobs,
            (out_free - wal_out.min(fair_net)) / jobs,
            fair_disk,
            fair_net,
        )
    };
    let wal_by_net = if d.replication >= 2 {
        wal_net
    } else {
        f64::INFINITY
    };
    let by_net = wal_by_net.min(in_free);
    Shares {
        job_disk,
        job_net,
        wal_cap: wal_disk.min(by_net),
        wal_bound: if wal_disk <= by_net {
            WriteBound::Disk
        } else {
            WriteBound::Network
        },
    }
}

fn step_down(rate: f64) -> u64 {
    let r = rate.max(1.0) as u64;
    let shift = (64 - r.leading_zeros()).saturating_sub(RATE_BITS);
    (r >> shift) << shift
}

/// Data bytes per second a flush writes: its thread's `ceiling`, or less when the node's disks
/// or NIC are the limit.
pub fn flush_rate(ceiling: u64, s: Shares, replication: u32) -> u64 {
    let by_net = s.job_net / sends(replication).max(f64::MIN_POSITIVE);
    step_down(s.job_disk.min(by_net)).min(ceiling).max(1)
}

/// Bytes a compaction reads per second at most: its thread's `ceiling`, or less when the
/// node's disks (it reads `read` and writes `written` bytes) or NIC (it sends what it writes)
/// are the limit.
pub fn compaction_ceiling(
    ceiling: u64,
    s: Shares,
    replication: u32,
    read: u64,
    written: u64,
) -> u64 {
    let w = written as f64 / read.max(1) as f64;
    let by_disk = s.job_disk / (1.0 + w);
    let by_net = if replication >= 2 {
        s.job_net / w.max(f64::MIN_POSITIVE)
    } else {
        f64::INFINITY
    };
    step_down(by_disk.min(by_net)).min(ceiling).max(1)
}

/// Data bytes per second a RegionServer's write path absorbs, and what bounds it: the lowest of
/// its cores (one mutation costs [`CPU_PER_PUT_NS`] on one of min(cores, handlers) threads), its
/// WAL's share of the disks and NIC, and an explicit ceiling (`cluster.write_bandwidth`).
pub fn write_path_rate(
    s: Shares,
    cores: u32,
    handlers: u32,
    row_bytes: u64,
    cap: Option<u64>,
) -> (u64, WriteBound) {
    let threads = f64::from(cores.min(handlers).max(1));
    let by_cpu = threads * 1e9 / CPU_PER_PUT_NS as f64 * row_bytes.max(1) as f64;
    let (r, bound) = if by_cpu <= s.wal_cap {
        (by_cpu, WriteBound::Cpu)
    } else {
        (s.wal_cap, s.wal_bound)
    };
    let r = step_down(r.max(1.0));
    match cap {
        Some(c) if c < r => (c.max(1), WriteBound::Cap),
        _ => (r.max(1), bound),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `got` is `want` rounded down to the kept significant bits.
    fn near(got: u64, want: u64) {
        assert!(
            got <= want && got as f64 >= want as f64 * 0.99,
            "{got} vs {want}"
        );
    }

    fn node(jobs: u32, wal: f64, inbound: f64) -> NodeDemand {
        NodeDemand {
            disk: 1_800e6,
            network: 1_250e6,
            replication: 3,
            wal,
            inbound,
            forward: 0.0,
            jobs,
        }
    }

    #[test]
    fn an_idle_node_gives_a_job_its_disks() {
        let s = shares(node(1, 0.0, 0.0));
        assert_eq!(s.job_disk, 1_800e6);
        // A flush sends what it writes to the second replica: the NIC (1.25 GB/s) binds.
        near(flush_rate(u64::MAX, s, 3), 1_250_000_000);
        near(flush_rate(100 << 20, s, 3), 100 << 20);
    }

    #[test]
    fn jobs_and_the_wal_share_the_disks_fairly() {
        // Three jobs and a WAL that wants more than its quarter: each gets a quarter.
        let s = shares(node(3, 1_000e6, 0.0));
        assert_eq!(s.job_disk, 450e6);
        // The WAL also sends every byte to the second replica: a quarter of the NIC binds.
        assert_eq!(s.wal_cap, 312.5e6);
        // A WAL below its quarter leaves the rest to the jobs.
        let s = shares(node(3, 150e6, 0.0));
        assert_eq!(s.job_disk, 550e6);
    }

    #[test]
    fn replicas_of_other_servers_take_disk_first() {
        let s = shares(node(1, 0.0, 1_000e6));
        assert_eq!(s.job_disk, 800e6);
        // Never below a tenth.
        let s = shares(node(1, 0.0, 5_000e6));
        assert_eq!(s.job_disk, 180e6);
    }

    #[test]
    fn a_compaction_reads_and_writes_on_the_same_disks() {
        let s = shares(node(1, 0.0, 0.0));
        // 1.8 GB/s for reading and writing the same amount: 900 MB/s read.
        near(compaction_ceiling(u64::MAX, s, 1, 10, 10), 900_000_000);
    }

    #[test]
    fn the_write_path_is_bound_by_cores_for_small_rows() {
        let s = shares(node(0, 0.0, 0.0));
        // 16 cores at 100 µs per put: 160,000 puts/s; 100-byte rows: 16 MB/s.
        let rate = |h, row, cap| write_path_rate(s, 16, h, row, cap);
        near(rate(30, 100, None).0, 16_000_000);
        assert_eq!(rate(30, 100, None).1, WriteBound::Cpu);
        // Handlers below the cores bind instead.
        near(rate(8, 100, None).0, 8_000_000);
        // 1 KB rows: 160 MB/s, below the disks and NIC.
        near(rate(30, 1000, None).0, 160_000_000);
        assert_eq!(rate(30, 1000, Some(50 << 20)), (50 << 20, WriteBound::Cap));
    }

    #[test]
    fn the_write_path_names_the_resource_that_binds_it() {
        // 100 KB rows: the cores would take 16 GB/s; the WAL's NIC share (1.25 GB/s) binds.
        let s = shares(node(0, 0.0, 0.0));
        assert_eq!(
            write_path_rate(s, 16, 30, 100_000, None).1,
            WriteBound::Network
        );
        // Disks slower than the NIC bind instead.
        let slow = shares(NodeDemand {
            disk: 200e6,
            ..node(0, 0.0, 0.0)
        });
        let (r, b) = write_path_rate(slow, 16, 30, 100_000, None);
        assert_eq!(b, WriteBound::Disk);
        near(r, 200_000_000);
    }
}
