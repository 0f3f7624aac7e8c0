//! Store files (HFiles): what a flush or compaction writes, its block index, its midkey, its
//! on-disk length, and the Reference/HFileLink files daughters get after a split.
//! (CONTRACT STUB — the storefile work replaces this file and keeps these names and signatures.)

use std::sync::Arc;

/// How the family's cells are shaped (the same for every row of a scenario's family).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellShape {
    /// Column family name length, bytes.
    pub family_len: u32,
    /// Qualifier length, bytes.
    pub qualifier_len: u32,
    /// Value length, bytes.
    pub value_len: u32,
    /// Cells per row (columns).
    pub columns: u32,
}

/// What a file is written with (family settings).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FileFormat {
    /// BLOCKSIZE, bytes.
    pub block_size: u64,
    /// On-disk / raw bytes of data blocks (1.0 = NONE).
    pub compression_ratio: f64,
    /// hfile.index.block.max.size.
    pub index_block_max_size: u64,
    /// hfile.index.block.min.entries.
    pub index_block_min_entries: u32,
    /// ROW bloom filter on (the family default).
    pub row_bloom: bool,
}

/// The immutable content of one written HFile: the emulated rows it holds (sorted), each
/// standing for `scale` real rows, and what HBase would have on disk.
#[derive(Debug)]
pub struct HFile {
    _private: (),
}

/// Builds an [`HFile`] from rows appended in sorted order.
#[derive(Debug)]
pub struct HFileBuilder {
    _private: (),
}

impl HFileBuilder {
    /// A builder for a file of `shape` cells in `format`, where each appended row stands for
    /// `scale` real rows.
    pub fn new(shape: CellShape, format: FileFormat, scale: u64) -> HFileBuilder {
        let _ = (shape, format, scale);
        HFileBuilder { _private: () }
    }

    /// Appends one emulated row (keys must be appended in strictly increasing order).
    pub fn append(&mut self, row: &[u8]) {
        let _ = row;
    }

    /// Finishes the file. `None` if no row was appended.
    pub fn finish(self) -> Option<HFile> {
        None
    }
}

impl HFile {
    /// `reader.length()`: on-disk bytes including block headers, checksums, index, bloom, trailer.
    pub fn length(&self) -> u64 {
        0
    }
    /// Real rows (emulated rows × scale).
    pub fn rows(&self) -> u64 {
        0
    }
    /// Emulated rows stored.
    pub fn emulated_rows(&self) -> usize {
        0
    }
    /// Uncompressed cell bytes (KeyValue serialized sizes).
    pub fn data_bytes(&self) -> u64 {
        0
    }
    /// First row key.
    pub fn first_row(&self) -> &[u8] {
        &[]
    }
    /// Last row key.
    pub fn last_row(&self) -> &[u8] {
        &[]
    }
    /// Data blocks.
    pub fn data_blocks(&self) -> u64 {
        0
    }
    /// `HFileBlockIndex...midkey()` as a row (the row part of the midkey cell).
    pub fn midkey_row(&self) -> Option<Vec<u8>> {
        None
    }
    /// `StoreUtils.getFileSplitPoint`: the midkey row, or `None` when it equals the first or last row.
    pub fn split_point(&self) -> Option<Vec<u8>> {
        None
    }
    /// The emulated rows in `[start, end)` (empty end = unbounded), in order.
    pub fn rows_in<'a>(
        &'a self,
        start: &'a [u8],
        end: &'a [u8],
    ) -> impl Iterator<Item = &'a [u8]> + 'a {
        let _ = (start, end);
        std::iter::empty()
    }
}

/// A store file as a store sees it: a real file, a half-file Reference, or an HFileLink.
#[derive(Debug, Clone)]
pub struct StoreFile {
    /// The data.
    pub file: Arc<HFile>,
    /// Max sequence id (ordering: oldest first).
    pub seq_id: u64,
    /// Simulated write time, ms (for major-compaction age).
    pub created_ms: u64,
    /// Written by a major compaction.
    pub major: bool,
    /// What kind of file.
    pub kind: FileKind,
}

/// Real file, Reference to the top/bottom half of a parent file, or HFileLink to a whole parent file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileKind {
    /// A file of this store.
    Real,
    /// A half of a parent file: rows in `[start, end)` of the parent's file (empty = unbounded).
    Reference {
        /// Inclusive start.
        start: Vec<u8>,
        /// Exclusive end (empty = unbounded).
        end: Vec<u8>,
    },
    /// A whole parent file that lies entirely on one side of the split (HBASE-26421).
    Link,
}

impl StoreFile {
    /// `reader.length()` as HBase reports it (a Reference reports the full parent file length).
    pub fn length(&self) -> u64 {
        self.file.length()
    }
    /// True for a Reference (blocks splits until compacted away).
    pub fn is_reference(&self) -> bool {
        matches!(self.kind, FileKind::Reference { .. })
    }
    /// Real rows visible through this store file.
    pub fn rows(&self) -> u64 {
        0
    }
    /// Split this store file for daughters `[region_start, split_row)` and `[split_row, region_end)`:
    /// `None` for a daughter whose range misses the file, a Link when the file lies wholly on one
    /// side, a Reference otherwise (`HRegionFileSystem.splitStoreFile`).
    pub fn split(&self, split_row: &[u8]) -> (Option<StoreFile>, Option<StoreFile>) {
        let _ = split_row;
        (None, None)
    }
}

/// Writes the compaction of `inputs` (their visible rows merged in key order) as one new file.
pub fn compact(
    inputs: &[&StoreFile],
    shape: CellShape,
    format: FileFormat,
    scale: u64,
) -> Option<HFile> {
    let _ = (inputs, shape, format, scale);
    None
}
