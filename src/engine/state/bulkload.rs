//! A bulk load in progress: the HFiles the job wrote, waiting for the loader, the region loads
//! in flight, and what the load did (`BulkOutcome`, which the report shows).

use crate::engine::policy::bulkload::Refusal;
use crate::engine::state::storefile::StoreFile;

/// One HFile of the job, waiting in the loader's queue or in a region's load.
#[derive(Debug, Clone)]
pub(crate) struct BulkFile {
    /// The family (store index).
    pub(crate) family: usize,
    /// The file.
    pub(crate) file: StoreFile,
    /// Real rows in it.
    pub(crate) rows: u64,
    /// Their KeyValue bytes (uncompressed, as the job counted them).
    pub(crate) data: u64,
    /// The node its first replica was written on (the task's node).
    pub(crate) node: usize,
}

/// The loader: its queue, its round, the region loads it has in flight.
#[derive(Debug, Default)]
pub(crate) struct BulkLoader {
    /// Files to group in the next round.
    pub(crate) queue: Vec<BulkFile>,
    /// Region loads scheduled, by the index their completion event carries; `None` once done.
    pub(crate) loads: Vec<Option<(usize, Vec<BulkFile>)>>,
    /// Region loads not yet completed.
    pub(crate) in_flight: usize,
    /// The grouping round (1 = the first).
    pub(crate) round: u32,
    /// What the load did so far.
    pub(crate) outcome: BulkOutcome,
}

/// What a bulk load did: the job, the loader, and the table as the load left it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BulkOutcome {
    /// Job tasks (one per region at job start: the total-order partitioner's partitions).
    pub tasks: usize,
    /// Job slots (tasks at once, cluster-wide).
    pub slots: usize,
    /// Bytes one task wrote at its rate, bytes/s.
    pub task_rate: f64,
    /// Bytes the largest task wrote.
    pub largest_task_bytes: u64,
    /// Bytes the job wrote in all (KeyValue bytes of every family).
    pub job_bytes: u64,
    /// From submission to the first task, ns.
    pub startup_ns: u64,
    /// The map phase (reading and partitioning the input), ns.
    pub map_ns: u64,
    /// The reduce phase (sorting and writing the HFiles: until its last task ends), ns.
    pub reduce_ns: u64,
    /// HFiles the job wrote.
    pub files_written: usize,
    /// Their bytes on disk.
    pub file_bytes: u64,
    /// Grouping rounds the loader ran.
    pub rounds: u32,
    /// Files the loader split because they straddled a region boundary (each half counted
    /// again if it straddled too).
    pub files_split: usize,
    /// Bytes those splits rewrote.
    pub split_bytes: u64,
    /// Region loads (`HRegion.bulkLoadHFiles` calls) that took files.
    pub region_loads: usize,
    /// Region loads that found their region gone (split, merged or moved) and returned their
    /// files to the queue.
    pub region_retries: usize,
    /// Files loaded into stores.
    pub files_loaded: usize,
    /// Real rows loaded.
    pub rows_loaded: u64,
    /// Their KeyValue bytes.
    pub data_loaded: u64,
    /// The loaded files' bytes on disk.
    pub bytes_loaded: u64,
    /// Bytes loaded whose first replica is on the region's server at load time, and all
    /// bytes loaded.
    pub local_bytes: u64,
    /// Expected bytes with a replica on the region's server (the HDFS block locality HBase
    /// reports): local files whole, others by the chance that one of their other replicas
    /// landed there.
    pub replica_local_bytes: f64,
    /// The job's end (loader start), ns from the run's start.
    pub job_end_ns: u64,
    /// The loader's end (last region loaded, or the refusal), ns.
    pub load_end_ns: Option<u64>,
    /// Why the loader refused the load (nothing loaded).
    pub refused: Option<Refusal>,
    /// The refused region's key range and the family, when too many files refused it.
    pub refused_at: Option<(Vec<u8>, Vec<u8>, String)>,
    /// At the load's end: the most store files in one store, and store files in all.
    pub max_store_files: usize,
    /// Store files of the table at the load's end.
    pub store_files: usize,
    /// Stores that need a compaction at the load's end (`needsCompaction`).
    pub stores_owing_compaction: usize,
    /// Compactions the region side requested right after loading
    /// (`hbase.compaction.after.bulkload.enable`).
    pub compactions_requested: usize,
    /// Live regions at the load's end whose split policy says split (they split at their next
    /// flush or compaction).
    pub regions_over_split_size: usize,
    /// Live regions at the load's end.
    pub regions: usize,
}
