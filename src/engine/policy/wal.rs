//! The WAL's decisions: which rolled files may be archived (`AbstractFSWAL.cleanOldLogs`) and
//! which regions must flush when a server has too many (`AbstractFSWAL.findRegionsToForceFlush`).
//! `flushed(region)` is the highest sequence id of the region that is safely in store files.

use crate::engine::state::wal::{Wal, WalFile};

/// A rolled file can go once every region with edits in it has flushed them
/// (`SequenceIdAccounting.areAllLower`).
pub(crate) fn archivable(file: &WalFile, flushed: impl Fn(usize) -> u64) -> bool {
    file.regions
        .iter()
        .all(|&(r, highest)| flushed(r) >= highest)
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
    oldest
        .regions
        .iter()
        .filter(|&&(r, highest)| flushed(r) < highest)
        .map(|&(r, _)| r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(number: u64, regions: &[(usize, u64)]) -> WalFile {
        WalFile {
            number,
            regions: regions.to_vec(),
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
