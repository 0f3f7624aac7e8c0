//! Bulk load's rules: how the job cuts its HFiles (`HFileOutputFormat2`), how its tasks share
//! the nodes, and how the loader groups files by region, splits the ones that straddle a
//! boundary and refuses a load (`BulkLoadHFilesTool`). Pure functions of what they are given;
//! `apply/bulkload.rs` applies them.

/// Rows of one family a job task writes into one HFile before it rolls to the next.
///
/// `HFileOutputFormat2`'s record writer rolls when the file's written bytes plus the next
/// cell's length reach `hbase.hregion.max.filesize`, and only between rows: a file takes rows
/// while `written + cell < roll`, so `k` rows where `k` is the least with
/// `k × row + cell ≥ roll` (its first row always).
pub fn rows_per_file(roll_size: u64, row_bytes: u64, cell_bytes: u64) -> u64 {
    if row_bytes == 0 {
        return u64::MAX;
    }
    roll_size
        .saturating_sub(cell_bytes)
        .div_ceil(row_bytes)
        .max(1)
}

/// When each job task finishes, s after the reduce phase starts: tasks start in partition
/// order, each on the slot that frees first (MapReduce's and Spark's schedulers hand out a
/// stage's tasks in index order), and take `secs[i]`.
pub fn task_finish_times(secs: &[f64], slots: usize) -> Vec<f64> {
    let slots = slots.max(1);
    // Slot free times; a task takes the earliest (lowest index on a tie: deterministic).
    let mut free = vec![0.0f64; slots.min(secs.len()).max(1)];
    secs.iter()
        .map(|&s| {
            let (i, start) =
                free.iter()
                    .copied()
                    .enumerate()
                    .fold(
                        (0, f64::INFINITY),
                        |best, (i, t)| {
                            if t < best.1 { (i, t) } else { best }
                        },
                    );
            free[i] = start + s;
            free[i]
        })
        .collect()
}

/// The rate one job task writes at, bytes/s: its own ceiling (`task_rate`, the sort and the
/// HFile writer on one core), or its share of its node's disks and NIC, whichever is lower.
///
/// Every byte a task writes crosses its node's disks `replication` times as HFile blocks (the
/// first replica local, the others arriving from other nodes' pipelines: each node receives as
/// many as it sends) plus twice for the shuffle (the map side's spill and the reduce side's
/// merge), and its NIC `replication − 1` times out plus once for the shuffle.
pub fn task_rate(
    task_rate: u64,
    slots_per_node: u32,
    node: NodeBandwidth,
    replication: u32,
) -> f64 {
    let slots = f64::from(slots_per_node.max(1));
    let disk_passes = f64::from(replication.max(1)) + 2.0;
    let nic_passes = f64::from(replication.max(1));
    let by_disk = node.disk as f64 / disk_passes / slots;
    let by_nic = node.network as f64 / nic_passes / slots;
    (task_rate as f64).min(by_disk).min(by_nic).max(1.0)
}

/// A node's aggregate disk write bandwidth and NIC bandwidth, bytes/s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeBandwidth {
    /// All data disks together.
    pub disk: u64,
    /// One direction of the NIC.
    pub network: u64,
}

/// Where the loader puts one file (`BulkLoadHFilesTool.groupOrSplit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// Every row inside one region: loaded into it.
    Into(usize),
    /// The file's first and last rows lie in different regions: it is split in two at the end
    /// key of the region halfway between them (`(first + last) / 2`), each half regrouped.
    SplitAt(Vec<u8>),
}

/// Where the loader puts a file whose rows run from `first` to `last`, given the table's
/// regions' start keys in order (`starts[0]` empty). `region_of` finds a row's region.
pub fn place(first: &[u8], last: &[u8], starts: &[Vec<u8>]) -> Placement {
    let region_of = |row: &[u8]| {
        starts
            .partition_point(|s| s.as_slice() <= row)
            .saturating_sub(1)
    };
    let a = region_of(first);
    let b = region_of(last);
    if a == b {
        return Placement::Into(a);
    }
    // The split point is the end key of region (a + b) / 2, the start of the one after it.
    Placement::SplitAt(starts[(a + b) / 2 + 1].clone())
}

/// Why the loader refuses the whole load before it loads anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// One family of one region would get more files than
    /// `hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily`
    /// (`BulkLoadHFilesTool.checkHFilesCountPerRegionPerFamily`).
    TooManyFiles {
        /// The region (its index in the engine's state).
        region: usize,
        /// The family.
        family: usize,
        /// Files it would get.
        files: usize,
        /// The limit.
        limit: u32,
    },
    /// The regions kept splitting under the loader: `max(hbase.bulkload.retries.number,
    /// regions + 1)` rounds of grouping did not place every file.
    OutOfRetries {
        /// Rounds run.
        rounds: u32,
    },
}

/// The first (region, family) group of one round that is over the limit, in the order given.
pub fn over_limit(groups: &[(usize, usize, usize)], limit: u32) -> Option<Refusal> {
    groups
        .iter()
        .find(|&&(_, _, n)| n > limit as usize)
        .map(|&(region, family, files)| Refusal::TooManyFiles {
            region,
            family,
            files,
            limit,
        })
}

/// Whether the loader may start round `round` (1 = the first) with `regions` regions: it gives
/// up once `max(retries, regions + 1)` rounds ran (`performBulkLoad` raises the configured
/// retries to the region count + 1, so 0 does not mean "never give up" there).
pub fn may_start_round(round: u32, retries: u32, regions: usize) -> bool {
    let max = u64::from(retries).max(regions as u64 + 1);
    u64::from(round) <= max
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the regions and the file, the loader either loads the file into the one
        /// region holding both its first and last rows, or splits it at a region start strictly
        /// after its first row and at or before its last: both halves hold rows, and each
        /// split narrows the regions it spans, so regrouping ends.
        #[test]
        fn a_file_goes_into_its_region_or_splits_inside_its_rows(
            mut cuts in proptest::collection::btree_set(proptest::collection::vec(any::<u8>(), 1..4), 0..12),
            a in proptest::collection::vec(any::<u8>(), 0..4),
            b in proptest::collection::vec(any::<u8>(), 0..4),
        ) {
            let mut starts = vec![Vec::new()];
            starts.extend(std::mem::take(&mut cuts));
            let (first, last) = if a <= b { (a, b) } else { (b, a) };
            let region_of =
                |row: &[u8]| starts.partition_point(|s| s.as_slice() <= row).saturating_sub(1);
            match place(&first, &last, &starts) {
                Placement::Into(r) => {
                    prop_assert_eq!(r, region_of(&first));
                    prop_assert_eq!(r, region_of(&last));
                }
                Placement::SplitAt(k) => {
                    prop_assert!(first.as_slice() < k.as_slice() && k.as_slice() <= last.as_slice());
                    prop_assert!(starts.contains(&k));
                    prop_assert!(region_of(&first) != region_of(&last));
                }
            }
        }

        /// Every task finishes; no slot runs two tasks at once; the job ends no earlier than
        /// the longest task and no later than all tasks back to back.
        #[test]
        fn the_task_schedule_is_a_list_schedule(
            secs in proptest::collection::vec(0.0f64..100.0, 1..40),
            slots in 1usize..8,
        ) {
            let t = task_finish_times(&secs, slots);
            prop_assert_eq!(t.len(), secs.len());
            let end = t.iter().copied().fold(0.0, f64::max);
            let longest = secs.iter().copied().fold(0.0, f64::max);
            let total: f64 = secs.iter().sum();
            prop_assert!(end >= longest - 1e-9 && end <= total + 1e-9);
            for (f, s) in t.iter().zip(&secs) {
                prop_assert!(*f >= *s - 1e-9);
            }
        }
    }

    #[test]
    fn a_file_rolls_between_rows_once_the_next_cell_would_reach_the_roll_size() {
        // HFileOutputFormat2.RecordWriter.write: roll when written + length >= maxsize.
        // 100-byte rows, one 100-byte cell each, roll at 1000: 9 rows (900 + 100 >= 1000).
        assert_eq!(rows_per_file(1000, 100, 100), 9);
        // 1001: 900 + 100 < 1001 takes a tenth row; 1000 + 100 >= 1001 rolls.
        assert_eq!(rows_per_file(1001, 100, 100), 10);
        // A row bigger than the roll size still makes a file of one row.
        assert_eq!(rows_per_file(10, 100, 100), 1);
        // Two 50-byte cells per row: the check is per cell, at the row's first cell.
        assert_eq!(rows_per_file(1000, 100, 50), 10);
    }

    #[test]
    fn tasks_take_the_slot_that_frees_first_in_partition_order() {
        // Two slots: 10 and 1 start at 0; 1 ends at 1, so 5 starts at 1 and ends at 6;
        // 2 starts at 6.
        let t = task_finish_times(&[10.0, 1.0, 5.0, 2.0], 2);
        assert_eq!(t, vec![10.0, 1.0, 6.0, 8.0]);
        // One task of everything: the job lasts as long as it.
        assert_eq!(task_finish_times(&[100.0], 40), vec![100.0]);
    }

    #[test]
    fn a_task_is_bounded_by_its_share_of_the_node() {
        let node = NodeBandwidth {
            disk: 1_800_000_000,
            network: 1_250_000_000,
        };
        // 3 replicas + 2 shuffle passes: 360 MB/s of disk per byte per node, 4 slots: 90 MB/s;
        // NIC 1.25 GB/s / 3 / 4 = 104 MB/s; the task's own 50 MB/s is lower than both.
        assert_eq!(task_rate(50_000_000, 4, node, 3), 50_000_000.0);
        // 16 slots: 1.8e9 / 5 / 16 = 22.5 MB/s from the disks.
        assert_eq!(task_rate(50_000_000, 16, node, 3), 22_500_000.0);
    }

    #[test]
    fn a_straddling_file_splits_at_the_boundary_halfway_between_its_regions() {
        // BulkLoadHFilesTool.groupOrSplit: splitIdx = (firstKeyRegionIdx + lastKeyRegionIdx) / 2,
        // split at that region's end key.
        let starts = vec![b"".to_vec(), b"b".to_vec(), b"d".to_vec(), b"f".to_vec()];
        assert_eq!(place(b"a", b"az", &starts), Placement::Into(0));
        assert_eq!(place(b"d", b"e", &starts), Placement::Into(2));
        // Regions 0..=3: split at the end of region 1, "d".
        assert_eq!(
            place(b"a", b"g", &starts),
            Placement::SplitAt(b"d".to_vec())
        );
        // Regions 1..=2: split at the end of region 1.
        assert_eq!(
            place(b"c", b"e", &starts),
            Placement::SplitAt(b"d".to_vec())
        );
    }

    #[test]
    fn more_files_than_the_limit_for_one_family_of_one_region_refuses_the_load() {
        // BulkLoadHFilesTool.checkHFilesCountPerRegionPerFamily: count > max fails.
        assert_eq!(over_limit(&[(0, 0, 32), (1, 0, 32)], 32), None);
        assert_eq!(
            over_limit(&[(0, 0, 3), (7, 1, 33)], 32),
            Some(Refusal::TooManyFiles {
                region: 7,
                family: 1,
                files: 33,
                limit: 32
            })
        );
    }

    #[test]
    fn the_loader_gives_up_after_max_of_retries_and_regions_plus_one_rounds() {
        // BulkLoadHFilesTool.performBulkLoad: maxRetries = max(retries, regions + 1).
        assert!(may_start_round(10, 10, 3));
        assert!(!may_start_round(11, 10, 3));
        assert!(may_start_round(21, 10, 20));
        assert!(!may_start_round(22, 10, 20));
        assert!(may_start_round(2, 0, 1));
        assert!(!may_start_round(3, 0, 1));
    }
}
