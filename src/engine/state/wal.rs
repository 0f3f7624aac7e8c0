//! A RegionServer's write-ahead log (`AbstractFSWAL`): the file being appended to, and the
//! rolled files not yet archived, each remembering the highest sequence id it holds per region.
//!
//! A region's sequence ids here are its cumulative real rows written (`Region::write_requests`):
//! increasing per region, as HBase's sequence ids are, and already counted on the write path.

use std::collections::VecDeque;

/// A rolled WAL file: for every region with edits in it, the highest of their sequence ids
/// (`WALProps.encodedName2HighestSequenceId`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalFile {
    /// Number of the file on its server (0, 1, … in roll order).
    pub number: u64,
    /// (region id, highest sequence id in this file).
    pub regions: Vec<(usize, u64)>,
    /// How many leading `regions` are known to have flushed their edits in this file (a
    /// region's flushed sequence id only grows, so they stay flushed).
    pub settled: usize,
}

/// One RegionServer's WAL.
#[derive(Debug, Clone, Default)]
pub struct Wal {
    /// Bytes appended to the current file (what `writer.getLength()` compares with the roll size).
    pub appended: u64,
    /// Number of the current file.
    pub current: u64,
    /// Rolled files not yet archived, oldest first (`walFile2Props`).
    pub rolled: VecDeque<WalFile>,
    /// Rolls so far.
    pub rolls: u64,
    /// Highest number of WAL files (rolled + current) seen.
    pub files_peak: usize,
    /// Time of the last roll (or the server's start), ns: `hbase.regionserver.logroll.period`.
    pub last_roll_ns: u64,
}

impl Wal {
    /// Appends `bytes` (the per-row hook: a counter) and returns the current file's length, for
    /// the roll rule (`policy::write::wal_rolls`).
    #[inline(always)]
    pub fn append(&mut self, bytes: u64) -> u64 {
        self.appended += bytes;
        self.appended
    }

    /// WAL files on disk: the rolled ones not archived, plus the current one.
    pub fn files(&self) -> usize {
        self.rolled.len() + 1
    }

    /// The server died: its WAL is split and replayed by the master, so its files are gone
    /// (its regions' edits go with them, to be flushed when they reopen). Counters stay.
    pub fn drop_files(&mut self) {
        self.rolled.clear();
        self.appended = 0;
        self.current += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_returns_the_current_file_length() {
        let mut w = Wal::default();
        assert_eq!(w.append(100), 100);
        assert_eq!(w.append(1), 101);
        assert_eq!(w.files(), 1);
    }
}
