//! The WAL's decisions: which rolled files may be archived (`AbstractFSWAL.cleanOldLogs`) and
//! which regions must flush when a server has too many (`AbstractFSWAL.findRegionsToForceFlush`).
//! `flushed(region)` is the highest sequence id of the region that is safely in store files.

use crate::engine::state::wal::{Wal, WalFile};

/// A rolled file can go once every region with edits in it has flushed them
/// (`SequenceIdAccounting.areAllLower`): when this returns `regions.len()`. The first of `file`'s regions, from `file.settled` on, that has not flushed its edits in the
/// file (`regions.len()` when all have). A region's flushed sequence id only grows, so entries
/// before `settled` stay flushed: each roll re-checks only from where the last one stopped.
pub(crate) fn first_unflushed(file: &WalFile, flushed: impl Fn(usize) -> u64) -> usize {
    let from = file.settled.min(file.regions.len());
    file.regions[from..]
        .iter()
        .position(|&(r, highest)| flushed(r) < highest)
        .map_or(file.regions.len(), |i| from + i)
}

/// With more rolled files than `max_logs`, the regions whose edits in the oldest file are not
/// flushed yet (`SequenceIdAccounting.findLower`): flushing them lets that file go. Empty
/// otherwise. In the file's order (key order at the roll).
pub(crate) fn to_force_flush(
    wal: &Wal,
    max_logs: usize,
    flushed: impl Fn(usize) -> u64,
) -> Vec<usize> {
    if wal.rolled.len() <= max_logs {
        return Vec::new();
    }
    let Some(oldest) = wal.rolled.front() else {
        return Vec::new();
    };
    oldest.regions[oldest.settled.min(oldest.regions.len())..]
        .iter()
        .filter(|&&(r, highest)| flushed(r) < highest)
        .map(|&(r, _)| r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archivable(file: &WalFile, flushed: impl Fn(usize) -> u64) -> bool {
        first_unflushed(file, flushed) == file.regions.len()
    }

    fn file(number: u64, regions: &[(usize, u64)]) -> WalFile {
        WalFile {
            number,
            regions: regions.to_vec(),
            settled: 0,
        }
    }

    /// `AbstractFSWAL.cleanOldLogs`: a file is archived only when all its regions flushed past
    /// their highest sequence id in it.
    #[test]
    fn a_file_goes_when_all_its_regions_flushed_abstract_fs_wal() {
        let f = file(0, &[(0, 10), (1, 5)]);
        let flushed = [10u64, 4];
        assert!(!archivable(&f, |r| flushed[r]));
        let flushed = [10u64, 5];
        assert!(archivable(&f, |r| flushed[r]));
        assert!(archivable(&file(1, &[]), |_| 0), "an empty file goes");
    }

    /// The cursor only skips entries already flushed: the answer is the same as a full scan.
    #[test]
    fn first_unflushed_resumes_from_the_settled_entries() {
        let mut f = file(0, &[(0, 3), (1, 5), (2, 7)]);
        let flushed = [3u64, 4, 9];
        assert_eq!(first_unflushed(&f, |r| flushed[r]), 1);
        f.settled = 1;
        assert_eq!(first_unflushed(&f, |r| flushed[r]), 1);
        let flushed = [3u64, 5, 9];
        assert_eq!(first_unflushed(&f, |r| flushed[r]), 3);
        assert!(archivable(&f, |r| flushed[r]));
    }

    /// `AbstractFSWAL.findRegionsToForceFlush`: only above maxlogs rolled files, and only the
    /// regions still holding unflushed edits in the oldest file.
    #[test]
    fn too_many_files_force_the_oldest_files_regions_abstract_fs_wal() {
        let mut w = Wal::default();
        w.rolled.push_back(file(0, &[(3, 7), (4, 9), (5, 2)]));
        w.rolled.push_back(file(1, &[(6, 1)]));
        let flushed = |r: usize| if r == 4 { 9 } else { 0 };
        assert!(to_force_flush(&w, 2, flushed).is_empty(), "2 files, max 2");
        assert_eq!(to_force_flush(&w, 1, flushed), vec![3, 5]);
    }
}
