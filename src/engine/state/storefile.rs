//! Store files (HFiles): what a flush or compaction writes, its block index, its midkey, its
//! on-disk length, and the Reference/HFileLink files daughters get after a split.
//!
//! The writer model lives in [`hfile`] (HBase `HFileWriterImpl` + `HFileBlockIndex` +
//! `CompoundBloomFilterWriter`), fake index keys in [`fake_key`], and the store-side view
//! (Reference / HFileLink after a split, compaction merge) in this file.

use std::sync::Arc;

use crate::engine::ingest::route::prefix8;

pub mod fake_key;
pub mod hfile;

pub use hfile::{HFile, HFileBuilder, SizeBreakdown};

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
    /// Write times of its cells (`HStoreFile` min/max timestamp, from the file's
    /// `TIMERANGE` info): what TTL expiry reads.
    pub cells: CellTimes,
}

/// Segments a file's cell times keep (see [`CellTimes`]).
pub const CELL_TIME_SEGMENTS: usize = 8;

/// When a file's cells were written, simulated ms: up to [`CELL_TIME_SEGMENTS`] time segments,
/// each with a weight (its share of the file's rows); inside a segment cells are taken as spread
/// evenly in time (the approximation TTL expiry of part of a file rests on, docs/MODEL.md).
/// A flush gives one segment (its memstore's oldest to newest edit); a compaction keeps its
/// inputs' segments, so a daughter's old parent half and its new flushes expire each at their
/// own time instead of being smeared over one range. Past the limit the two neighbours whose
/// union spans the least time merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellTimes {
    /// (oldest ms, newest ms, weight), by oldest; `len` in use.
    segs: [(u64, u64, u64); CELL_TIME_SEGMENTS],
    len: u8,
}

impl CellTimes {
    /// Every cell written at `ms`.
    pub fn at(ms: u64) -> CellTimes {
        CellTimes::span(ms, ms)
    }

    /// Cells spread evenly over `[oldest_ms, newest_ms]`.
    pub fn span(oldest_ms: u64, newest_ms: u64) -> CellTimes {
        let mut segs = [(0, 0, 0); CELL_TIME_SEGMENTS];
        segs[0] = (oldest_ms, newest_ms.max(oldest_ms), 1);
        CellTimes { segs, len: 1 }
    }

    fn segments(&self) -> &[(u64, u64, u64)] {
        &self.segs[..usize::from(self.len)]
    }

    /// Oldest cell (`getMinimumTimestamp`).
    pub fn oldest_ms(&self) -> u64 {
        self.segments().iter().map(|s| s.0).min().unwrap_or(0)
    }

    /// Newest cell (`getMaxTimestamp`).
    pub fn newest_ms(&self) -> u64 {
        self.segments().iter().map(|s| s.1).max().unwrap_or(0)
    }

    /// Of `rows` real rows spread as these segments say, how many are not expired when every
    /// cell older than `cutoff_ms` is (`ScanQueryMatcher.isCellTTLExpired`: ts < now − ttl).
    /// Integer arithmetic: the same everywhere it is asked.
    pub fn live_rows(&self, rows: u64, cutoff_ms: Option<u64>) -> u64 {
        let Some(cutoff) = cutoff_ms else {
            return rows;
        };
        if let [(o, n, _)] = *self.segments() {
            // One segment: exact.
            return match live_part(o, n, cutoff) {
                0 => 0,
                p if p == 1 << 32 => rows,
                _ => (u128::from(rows) * u128::from(n - cutoff + 1) / u128::from(n - o + 1)) as u64,
            };
        }
        let total: u128 = self.segments().iter().map(|s| u128::from(s.2)).sum();
        if total == 0 {
            return rows;
        }
        // Σ rows × weight × live/span, each term floored, over Σ weight.
        let live: u128 = self
            .segments()
            .iter()
            .map(|&(o, n, w)| u128::from(rows) * u128::from(w) * live_part(o, n, cutoff))
            .sum::<u128>()
            / total;
        (live >> 32) as u64
    }

    /// What is left once cells older than `cutoff_ms` are gone: each segment clipped, its
    /// weight cut to its live share; wholly expired segments dropped.
    pub fn after(&self, cutoff_ms: Option<u64>) -> CellTimes {
        let Some(cutoff) = cutoff_ms else {
            return *self;
        };
        let mut out = CellTimes {
            segs: [(0, 0, 0); CELL_TIME_SEGMENTS],
            len: 0,
        };
        for &(o, n, w) in self.segments() {
            let part = live_part(o, n, cutoff);
            if part == 0 {
                continue;
            }
            let w = ((u128::from(w) * part) >> 32).max(1) as u64;
            out.segs[usize::from(out.len)] = (o.max(cutoff).min(n), n, w);
            out.len += 1;
        }
        if out.len == 0 {
            // Nothing live: the newest instant stands for the (empty) rest.
            return CellTimes::at(self.newest_ms());
        }
        out
    }

    /// This file's `rows` and `other`'s `other_rows` in one file: each side's segments weighed
    /// by its rows, then merged down to [`CELL_TIME_SEGMENTS`].
    pub fn merge(self, rows: u64, other: CellTimes, other_rows: u64) -> CellTimes {
        let mut all: Vec<(u64, u64, u64)> = Vec::with_capacity(2 * CELL_TIME_SEGMENTS);
        for (t, r) in [(self, rows), (other, other_rows)] {
            let total: u128 = t.segments().iter().map(|s| u128::from(s.2)).sum();
            for &(o, n, w) in t.segments() {
                let w = (u128::from(w) * u128::from(r.max(1)) / total.max(1)).max(1) as u64;
                all.push((o, n, w));
            }
        }
        all.sort_unstable();
        while all.len() > CELL_TIME_SEGMENTS {
            // The neighbours whose union spans the least time (first such pair on ties).
            let i = (0..all.len() - 1)
                .min_by_key(|&i| all[i].1.max(all[i + 1].1) - all[i].0)
                .expect("two segments");
            let (a, b) = (all[i], all[i + 1]);
            all[i] = (a.0, a.1.max(b.1), a.2.saturating_add(b.2));
            all.remove(i + 1);
        }
        let mut out = CellTimes {
            segs: [(0, 0, 0); CELL_TIME_SEGMENTS],
            len: all.len() as u8,
        };
        out.segs[..all.len()].copy_from_slice(&all);
        out
    }
}

/// The live share of a segment `[oldest, newest]` (inclusive ms) at `cutoff`, in 32.32 fixed
/// point: 1 when wholly live, 0 when wholly expired.
fn live_part(oldest: u64, newest: u64, cutoff: u64) -> u128 {
    if newest < cutoff {
        0
    } else if oldest >= cutoff {
        1 << 32
    } else {
        let span = u128::from(newest - oldest + 1);
        let live = u128::from(newest - cutoff + 1);
        (live << 32) / span
    }
}

/// A file's cells beyond one version of each of its rows: further versions of rows (updates)
/// and row delete markers (one `DeleteFamily` cell per deleted row). Counted, not kept as keys:
/// the file's key sample stands for its distinct rows (docs/MODEL.md "Versions, updates and deletes").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extra {
    /// Real row versions beyond each row's first one in the file's store.
    pub versions: u64,
    /// Their serialized cell bytes.
    pub version_bytes: u64,
    /// Real row delete markers.
    pub tombstones: u64,
    /// Their serialized cell bytes (key and type, no value).
    pub tombstone_bytes: u64,
}

impl Extra {
    /// Serialized bytes of the extra cells.
    pub fn bytes(&self) -> u64 {
        self.version_bytes + self.tombstone_bytes
    }

    /// True when the file holds one version of each row and no marker.
    pub fn is_empty(&self) -> bool {
        self.versions == 0 && self.tombstones == 0
    }

    /// The share `num / den` of each count (a Reference's half, a TTL live share).
    pub fn share(&self, num: u64, den: u64) -> Extra {
        let f = |x: u64| {
            if den == 0 {
                0
            } else {
                (x as u128 * num as u128 / den as u128) as u64
            }
        };
        Extra {
            versions: f(self.versions),
            version_bytes: f(self.version_bytes),
            tombstones: f(self.tombstones),
            tombstone_bytes: f(self.tombstone_bytes),
        }
    }

    /// Both together.
    pub fn plus(self, o: Extra) -> Extra {
        Extra {
            versions: self.versions + o.versions,
            version_bytes: self.version_bytes + o.version_bytes,
            tombstones: self.tombstones + o.tombstones,
            tombstone_bytes: self.tombstone_bytes + o.tombstone_bytes,
        }
    }
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
    /// A real file of this store, not from a major compaction, whose cells were all written at
    /// `created_ms` (the default for a file whose cell times are not known).
    pub fn new(file: Arc<HFile>, seq_id: u64, created_ms: u64) -> StoreFile {
        StoreFile {
            file,
            seq_id,
            created_ms,
            major: false,
            kind: FileKind::Real,
            cells: CellTimes::at(created_ms),
        }
    }

    /// `reader.length()` as HBase reports it (a Reference reports the full parent file length).
    pub fn length(&self) -> u64 {
        self.file.length()
    }
    /// True for a Reference (blocks splits until compacted away).
    pub fn is_reference(&self) -> bool {
        matches!(self.kind, FileKind::Reference { .. })
    }
    /// Visible key range `[start, end)` of the underlying file (empty end = unbounded).
    pub fn range(&self) -> (&[u8], &[u8]) {
        match &self.kind {
            FileKind::Reference { start, end } => (start, end),
            FileKind::Real | FileKind::Link => (&[], &[]),
        }
    }
    /// Row indices `[lo, hi)` of the file visible through this store file.
    fn visible(&self) -> (usize, usize) {
        let (s, e) = self.range();
        self.file.index_range(s, e)
    }
    /// Emulated rows visible through this store file.
    pub fn visible_emulated_rows(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let (s, e) = self.range();
        self.file.rows_in(s, e)
    }
    /// Number of emulated rows visible through this store file.
    pub fn emulated_rows(&self) -> usize {
        let (lo, hi) = self.visible();
        hi - lo
    }
    /// Bytes a scan of this store file reads: the whole file, or for a Reference the part of
    /// it in its half (what a compaction of the Reference really reads, unlike `length()`).
    pub fn read_bytes(&self) -> u64 {
        if !self.is_reference() {
            return self.length();
        }
        let (lo, hi) = self.visible();
        let n = self.file.emulated_rows();
        if n == 0 {
            return 0;
        }
        (self.length() as u128 * (hi - lo) as u128 / n as u128) as u64
    }
    /// Real rows visible through this store file (a Reference: its half's share).
    pub fn rows(&self) -> u64 {
        if !self.is_reference() {
            return self.file.rows();
        }
        let n = self.file.emulated_rows() as u128;
        if n == 0 {
            return 0;
        }
        (self.file.rows() as u128 * self.emulated_rows() as u128 / n) as u64
    }
    /// Extra versions and delete markers visible through this store file (a Reference: its
    /// half's share, as rows).
    pub fn extra(&self) -> Extra {
        let e = self.file.extra();
        if !self.is_reference() || e.is_empty() {
            return e;
        }
        e.share(
            self.emulated_rows() as u64,
            self.file.emulated_rows() as u64,
        )
    }
    /// First and last visible rows (`HalfStoreFileReader.getFirstKey/getLastKey` rows).
    pub fn first_last_row(&self) -> Option<(&[u8], &[u8])> {
        let (lo, hi) = self.visible();
        if lo == hi {
            return None;
        }
        Some((self.file.row_at(lo)?, self.file.row_at(hi - 1)?))
    }
    /// Split this store file for daughters `[region_start, split_row)` and `[split_row, region_end)`:
    /// `None` for a daughter whose range misses the file, a Link when the file lies wholly on one
    /// side, a Reference otherwise (`HRegionFileSystem.splitStoreFile`).
    ///
    /// HBase compares `firstOnRow(split_row)` with the visible first/last cells, i.e.
    /// bottom: none if split ≤ first, link if split > last; top: none if split > last, link
    /// if split ≤ first. A Reference lying wholly on one side stays the same Reference (HBase
    /// never splits a store with references; a Link of a Link stays a Link).
    pub fn split(&self, split_row: &[u8]) -> (Option<StoreFile>, Option<StoreFile>) {
        let Some((first, last)) = self.first_last_row() else {
            return (None, None);
        };
        let whole = || StoreFile {
            kind: match &self.kind {
                FileKind::Real | FileKind::Link => FileKind::Link,
                r @ FileKind::Reference { .. } => r.clone(),
            },
            ..self.clone()
        };
        let with = |kind| StoreFile {
            kind,
            ..self.clone()
        };
        let (start, end) = self.range();
        let bottom = if split_row <= first {
            None
        } else if split_row > last {
            Some(whole())
        } else {
            Some(with(FileKind::Reference {
                start: start.to_vec(),
                end: split_row.to_vec(),
            }))
        };
        let top = if split_row > last {
            None
        } else if split_row <= first {
            Some(whole())
        } else {
            Some(with(FileKind::Reference {
                start: split_row.to_vec(),
                end: end.to_vec(),
            }))
        };
        (bottom, top)
    }
}

/// The most index points (emulated rows) a store file keeps. A file stands for its rows through
/// an evenly spaced sample of them, so memory and the cost of merging files grow with the number
/// of files (events), not with the bytes loaded. The midkey is then within `rows / (2 ×
/// MAX_FILE_KEYS)` rows of the full index's, and a key range's row count within `rows /
/// MAX_FILE_KEYS` (tests in `storefile/tests.rs`); at the default scale a file rarely holds more.
pub const MAX_FILE_KEYS: usize = 1024;

/// What a compaction (or flush) does with versions and delete markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionRules {
    /// The family's `VERSIONS`.
    pub max_versions: u32,
    /// Delete markers and the rows they mask go (`ScanType.COMPACT_DROP_DELETES`: the
    /// compaction takes every file of the store), else both stay (`COMPACT_RETAIN_DELETES`).
    pub drop_deletes: bool,
    /// Real rows of the whole store (all its files): the rows an update may have targeted.
    pub store_rows: u64,
}

impl VersionRules {
    /// VERSIONS = 1, markers kept: what a file without extra cells sees.
    pub fn keep_deletes(store_rows: u64) -> VersionRules {
        VersionRules {
            max_versions: 1,
            drop_deletes: false,
            store_rows,
        }
    }
}

/// The counts of one compaction: what its inputs hold (after TTL), what it drops and why, and
/// what its output holds. Rows are real rows; "versions" real row versions beyond the first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeCounts {
    /// Live rows of the inputs (TTL applied).
    pub rows_in: u64,
    /// Their row-cell bytes.
    pub row_bytes_in: u64,
    /// Live extra cells of the inputs.
    pub extra_in: Extra,
    /// Rows masked by a delete marker and dropped with it.
    pub masked_rows: u64,
    /// Bytes of those rows' cells, their further versions' and the markers'.
    pub deleted_bytes: u64,
    /// Versions dropped with the rows the markers mask.
    pub masked_versions: u64,
    /// Versions dropped as beyond VERSIONS.
    pub excess_versions: u64,
    /// Their bytes.
    pub excess_version_bytes: u64,
    /// Delete markers dropped.
    pub markers_dropped: u64,
    /// Rows written.
    pub rows_out: u64,
    /// Extra cells written.
    pub extra_out: Extra,
}

/// Fixed denominator of a file's TTL live share applied to its extra cells.
const SHARE_DEN: u64 = 1 << 32;

/// Counts one compaction of `inputs` (`StoreScanner` with `ScanQueryMatcher`s).
///
/// - TTL: each input keeps its live share of rows and extra cells ([`CellTimes::live_rows`]).
/// - All files (`drop_deletes`, `MajorCompactionScanQueryMatcher` /
///   `DropDeletesCompactionScanQueryMatcher` with `hbase.hstore.time.to.purge.deletes` 0):
///   every marker goes, each masking one row with its versions.
///   **Approximation**: a marker masks a distinct live row (min(markers, rows)); two deletes of
///   one row mask one, so this over-counts masked rows by about D²/2N for D deletes over N rows.
/// - Versions beyond VERSIONS go in minor and major compactions alike
///   (`ColumnTracker.checkVersions`), but a minor one sees only the versions in its inputs: of
///   an input's updates, the share whose row has an older version among the inputs is
///   rows_in / store_rows (updates pick rows uniformly). A row then keeps at most VERSIONS − 1
///   further versions, counted over all rows together: with VERSIONS > 1 this drops fewer than
///   HBase (rows updated more often than the mean keep only VERSIONS).
pub fn merge_counts(
    inputs: &[&StoreFile],
    cutoff_ms: Option<u64>,
    rules: VersionRules,
) -> MergeCounts {
    let mut c = MergeCounts::default();
    for f in inputs {
        let rows = f.rows();
        let live = f.cells.live_rows(rows, cutoff_ms);
        c.rows_in += live;
        if live > 0 {
            let data = f.file.data_bytes() as u128 * f.emulated_rows() as u128
                / f.file.emulated_rows().max(1) as u128;
            c.row_bytes_in += (data * live as u128 / rows as u128) as u64;
        }
        let x = f.extra();
        if !x.is_empty() {
            c.extra_in = c
                .extra_in
                .plus(x.share(f.cells.live_rows(SHARE_DEN, cutoff_ms), SHARE_DEN));
        }
    }
    let e = c.extra_in;
    let r = c.rows_in;
    let per_version = |n: u64| {
        if e.versions == 0 {
            0
        } else {
            (e.version_bytes as u128 * n as u128 / e.versions as u128) as u64
        }
    };
    let (mut rows, mut versions, mut tombstones) = (r, e.versions, e.tombstones);
    let hit;
    if rules.drop_deletes {
        c.masked_rows = e.tombstones.min(r);
        if r > 0 {
            c.masked_versions = (e.versions as u128 * c.masked_rows as u128 / r as u128) as u64;
            c.deleted_bytes = (c.row_bytes_in as u128 * c.masked_rows as u128 / r as u128) as u64;
        }
        c.deleted_bytes += per_version(c.masked_versions) + e.tombstone_bytes;
        c.markers_dropped = e.tombstones;
        rows -= c.masked_rows;
        versions -= c.masked_versions;
        tombstones = 0;
        // Every file is here: every update's older versions are too.
        hit = versions;
    } else {
        let of = rules.store_rows.max(r);
        hit = if of == 0 {
            0
        } else {
            (versions as u128 * r as u128 / of as u128) as u64
        };
    }
    let room = u64::from(rules.max_versions.max(1) - 1).saturating_mul(rows);
    c.excess_versions = hit.saturating_sub(room);
    let kept_versions = versions - c.excess_versions;
    c.excess_version_bytes = per_version(c.excess_versions);
    c.rows_out = rows;
    c.extra_out = Extra {
        versions: kept_versions,
        version_bytes: per_version(e.versions)
            - per_version(c.masked_versions)
            - c.excess_version_bytes,
        tombstones,
        tombstone_bytes: if tombstones == 0 {
            0
        } else {
            e.tombstone_bytes
        },
    };
    c
}

/// Writes the compaction of `inputs` as one new file, or `None` when nothing is left.
///
/// Rows: the inputs' visible rows merged in key order. A row present in several inputs is one
/// (row, family, qualifier) with several versions, kept per [`merge_counts`]; the key sample
/// holds each distinct row once.
///
/// Thinning: like flushed files, the output keeps about one emulated row per data block, at most
/// [`MAX_FILE_KEYS`] (so a store file holds a bounded number of keys however often it is
/// rewritten), and each kept row stands for an equal share of the inputs' real rows
/// (`StoreFile::rows`). Cells are written with the
/// builder's default mvcc length, as flushed files are.
///
/// TTL (`cutoff_ms`, cells older are expired; minor and major compactions both drop them,
/// `ScanQueryMatcher.preCheck`): each input's real rows shrink to its live share
/// ([`CellTimes::live_rows`]); the kept keys are still a sample of all the inputs' keys (which
/// rows expired is not tracked, only how many; masked rows likewise).
pub fn compact(
    inputs: &[&StoreFile],
    cutoff_ms: Option<u64>,
    rules: VersionRules,
    shape: CellShape,
    format: FileFormat,
) -> Option<HFile> {
    let plain = inputs.iter().all(|f| f.file.extra().is_empty());
    let (real, extra) = if plain {
        let real: u128 = inputs
            .iter()
            .map(|f| f.cells.live_rows(f.rows(), cutoff_ms) as u128)
            .sum();
        (real, Extra::default())
    } else {
        let c = merge_counts(inputs, cutoff_ms, rules);
        (c.rows_out as u128, c.extra_out)
    };
    if real == 0 && extra.is_empty() {
        return None;
    }
    let rows = merge_rows(inputs);
    if rows.is_empty() {
        return None;
    }
    // Serialized bytes of one real row's cells with a 16-byte key (an estimate of the output's
    // data blocks; the kept rows' real keys then size the file exactly).
    let bytes_per_row = shape.columns.max(1) as u128
        * (16
            + shape.family_len as u128
            + shape.qualifier_len as u128
            + shape.value_len as u128
            + 20);
    let blocks =
        (real * bytes_per_row / format.block_size.max(1) as u128).clamp(1, MAX_FILE_KEYS as u128);
    let thin = (rows.len() as u128).div_ceil(blocks).max(1) as usize;
    let kept = rows.len().div_ceil(thin);
    // Rounded, not floored: a floor loses up to one real row per kept key in every
    // compaction, and repeated compactions compounded that into a visible loss.
    let scale = (real + kept as u128 / 2) / kept as u128;
    let mut builder = if plain {
        HFileBuilder::new(shape, format, scale.max(1) as u64)
    } else {
        HFileBuilder::new_exact(shape, format, scale as u64)
    };
    builder.reserve(kept, rows[0].len());
    for r in rows.iter().step_by(thin) {
        builder.append(r);
    }
    let mut file = builder.finish()?;
    if !plain {
        file.set_counts(real as u64, extra);
    }
    Some(file)
}

/// One output file of [`split_by_windows`]: the file, its real rows and its cells' times.
pub type WindowFile = (Arc<HFile>, u64, CellTimes);

/// `DateTieredMultiFileWriter`: a compaction's output (`file`, standing for `rows` real rows
/// written at `cells`' times) written as one file per time window, the windows starting at
/// `boundaries` (ascending; the first is `i64::MIN`). A window's rows are its share of the
/// cells' times (cells spread evenly within a segment, as for TTL expiry); windows without
/// rows are not written; oldest window first. Which keys fall in which window is not kept, so
/// each file takes a share of the output's key sample: a contiguous run in key order when
/// `keys_follow_time` (time-ordered row keys: older cells have lower keys), else every key in
/// turn (keys unrelated to time).
pub fn split_by_windows(
    file: &Arc<HFile>,
    rows: u64,
    cells: &CellTimes,
    boundaries: &[i64],
    keys_follow_time: bool,
    shape: CellShape,
    format: FileFormat,
) -> Vec<WindowFile> {
    // Each window's cells: every segment clipped to it, weighed by the part it keeps.
    let mut parts: Vec<(CellTimes, u128)> = Vec::new();
    for (i, &lo) in boundaries.iter().enumerate() {
        // [lo, hi] inclusive, in i128 so that i64::MIN and u64 times compare.
        let lo = i128::from(lo);
        let hi = boundaries
            .get(i + 1)
            .map_or(i128::from(u64::MAX), |&b| i128::from(b) - 1);
        let mut part = CellTimes {
            segs: [(0, 0, 0); CELL_TIME_SEGMENTS],
            len: 0,
        };
        let mut weight = 0u128;
        for &(o, n, w) in cells.segments() {
            let (a, b) = (i128::from(o).max(lo), i128::from(n).min(hi));
            if a > b {
                continue;
            }
            let kept = (b - a + 1) as u128;
            let share = ((u128::from(w) * kept) << 32) / u128::from(n - o + 1);
            weight += share;
            part.segs[usize::from(part.len)] = (a as u64, b as u64, (share >> 32).max(1) as u64);
            part.len += 1;
        }
        parts.push((part, weight));
    }
    let total: u128 = parts.iter().map(|p| p.1).sum();
    let windows = parts.iter().filter(|p| p.1 > 0).count();
    if windows <= 1 || total == 0 || rows == 0 {
        return vec![(Arc::clone(file), rows, *cells)];
    }
    // Real rows by weight, floored; the remainder goes to the heaviest window.
    let mut shares: Vec<(CellTimes, u64)> = parts
        .into_iter()
        .filter(|p| p.1 > 0)
        .map(|(c, w)| (c, (u128::from(rows) * w / total) as u64))
        .collect();
    let given: u64 = shares.iter().map(|s| s.1).sum();
    if let Some(top) = shares.iter_mut().max_by_key(|s| s.1) {
        top.1 += rows - given;
    }
    shares.retain(|s| s.1 > 0);
    let n = file.emulated_rows();
    let keys = window_keys(
        n,
        &shares.iter().map(|s| s.1).collect::<Vec<_>>(),
        keys_follow_time,
    );
    let extra = file.extra();
    shares
        .into_iter()
        .zip(keys)
        .filter_map(|((times, real), idx)| {
            let kept = idx.len().max(1) as u64;
            let scale = (real + kept / 2) / kept;
            let mut b = if extra.is_empty() {
                HFileBuilder::new(shape, format, scale.max(1))
            } else {
                HFileBuilder::new_exact(shape, format, scale)
            };
            for i in idx {
                b.append(file.row_at(i)?);
            }
            let mut out = b.finish()?;
            if !extra.is_empty() {
                out.set_counts(real, extra.share(real, rows));
            }
            Some((Arc::new(out), real, times))
        })
        .collect()
}

/// Whether the row keys of `inputs` follow their cells' times: at least two files with rows,
/// whose key ranges do not overlap and rise with their cells' times (time-ordered row keys,
/// where each flush covers a later range). One file, or overlapping ranges: no.
pub fn keys_follow_time(inputs: &[&StoreFile]) -> bool {
    let mut spans: Vec<(&[u8], &[u8], u64, u64)> = inputs
        .iter()
        .filter_map(|f| {
            let (a, b) = f.first_last_row()?;
            Some((a, b, f.cells.oldest_ms(), f.cells.newest_ms()))
        })
        .collect();
    if spans.len() < 2 {
        return false;
    }
    spans.sort_unstable();
    spans
        .windows(2)
        .all(|w| w[0].1 < w[1].0 && w[0].2 <= w[1].2 && w[0].3 <= w[1].3)
}

/// Which of `n` sorted keys each window's file keeps, given its real rows: contiguous runs in
/// window order, or each key to the window furthest behind its share. Every window keeps at
/// least one key.
fn window_keys(n: usize, rows: &[u64], contiguous: bool) -> Vec<Vec<usize>> {
    let total: u128 = rows.iter().map(|&r| u128::from(r)).sum::<u128>().max(1);
    let mut out = vec![Vec::new(); rows.len()];
    if n == 0 {
        return out;
    }
    if contiguous {
        let mut before = 0u128;
        for (w, &r) in rows.iter().enumerate() {
            let a = ((before * n as u128 / total) as usize).min(n - 1);
            before += u128::from(r);
            let b = ((before * n as u128).div_ceil(total) as usize).clamp(a + 1, n);
            out[w].extend(a..b);
        }
        return out;
    }
    for i in 0..n {
        // The window whose kept keys lag its share of the first i + 1 keys the most.
        let w = (0..rows.len())
            .max_by_key(|&w| {
                (u128::from(rows[w]) * (i as u128 + 1)) as i128
                    - (out[w].len() as u128 * total) as i128
            })
            .expect("a window");
        out[w].push(i);
    }
    for (w, keys) in out.iter_mut().enumerate() {
        if keys.is_empty() {
            // A window too small for a key of its own shares its neighbour's.
            keys.push((w * n / rows.len()).min(n - 1));
        }
    }
    out
}

/// The distinct visible rows of `inputs`, sorted: a k-way merge of the (sorted) inputs.
fn merge_rows<'a>(inputs: &[&'a StoreFile]) -> Vec<&'a [u8]> {
    let total = inputs.iter().map(|f| f.emulated_rows()).sum();
    let mut rows: Vec<&[u8]> = Vec::with_capacity(total);
    // Inputs whose visible rows do not overlap (ordered keys: each flush covers a later range)
    // merge by concatenation in key order.
    let mut spans: Vec<(&[u8], &[u8], usize)> = inputs
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.first_last_row().map(|(a, b)| (a, b, i)))
        .collect();
    spans.sort_unstable();
    if spans.windows(2).all(|w| w[0].1 < w[1].0) {
        for &(_, _, i) in &spans {
            rows.extend(inputs[i].visible_emulated_rows());
        }
        return rows;
    }
    // The inputs' sorted runs, one after another, merged by the stable sort (it finds the runs
    // and merges them pairwise: a few sequential passes, where a k-way heap paid several
    // tuple compares per row). Keyed by (8-byte big-endian prefix, row): the prefix decides
    // most comparisons with one integer compare and orders like the row itself.
    let mut keyed: Vec<(u64, &[u8])> = Vec::with_capacity(total);
    for f in inputs {
        keyed.extend(f.visible_emulated_rows().map(|r| (prefix8(r), r)));
    }
    keyed.sort();
    keyed.dedup();
    rows.extend(keyed.into_iter().map(|(_, r)| r));
    rows
}

/// HBase's default family format (64 KB blocks, 128 KB index chunks, ROW bloom), for tests.
#[cfg(test)]
pub(crate) fn test_format() -> FileFormat {
    FileFormat {
        block_size: 65536,
        compression_ratio: 1.0,
        index_block_max_size: 131072,
        index_block_min_entries: 16,
        row_bloom: true,
    }
}

/// A one-row real file with sequence id `seq`, for unit tests of the policies.
#[cfg(test)]
pub(crate) fn test_file(seq: u64) -> StoreFile {
    test_file_rows(seq, 1)
}

/// A real file of `rows` rows (keys 0..rows, big-endian) with sequence id `seq`: with several
/// blocks it has a split point.
#[cfg(test)]
pub(crate) fn test_file_rows(seq: u64, rows: u64) -> StoreFile {
    let shape = CellShape {
        family_len: 1,
        qualifier_len: 1,
        value_len: 1000,
        columns: 1,
    };
    let mut b = HFileBuilder::new(shape, test_format(), 1);
    for k in 0..rows.max(1) {
        b.append(&(if rows <= 1 { seq } else { k }).to_be_bytes());
    }
    StoreFile::new(Arc::new(b.finish().expect("rows")), seq, 0)
}

#[cfg(test)]
mod tests;
