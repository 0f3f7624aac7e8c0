//! The HFile writer model (`HFileWriterImpl`, `HFileBlock.Writer`, `HFileBlockIndex.BlockIndexWriter`,
//! `CompoundBloomFilterWriter`, `FixedFileTrailer`): data blocks, their index keys, index levels,
//! midkey and `reader.length()`, computed arithmetically per emulated row.

use std::borrow::Cow;

use super::fake_key::fake_row;
use super::{CellShape, Extra, FileFormat};

/// `HConstants.HFILEBLOCK_HEADER_SIZE` (v3 with HBase checksums): magic 8, on-disk size 4,
/// uncompressed size 4, prev offset 8, checksum type 1, bytes per checksum 4, on-disk data size 4.
pub const BLOCK_HEADER: u64 = 33;
/// `HFileBlock.CHECKSUM_SIZE`: one CRC32C (4 bytes)…
pub const CHECKSUM_SIZE: u64 = 4;
/// …per `hbase.hstore.bytes.per.checksum` (16384) bytes of header + on-disk data
/// (`ChecksumUtil.numChunks`, rounded up).
pub const BYTES_PER_CHECKSUM: u64 = 16384;
/// `FixedFileTrailer.getTrailerSize(3)`: the v3 trailer is padded to 4 KiB.
pub const TRAILER_V3: u64 = 4096;
/// `HFileBlockIndex.MID_KEY_METADATA_SIZE`: long + 2 ints appended to a multi-level root.
pub const MID_KEY_METADATA: u64 = 16;
/// `HFileBlockIndex.SECONDARY_INDEX_ENTRY_OVERHEAD`: block offset (long) + on-disk size (int).
pub const INDEX_ENTRY_OVERHEAD: u64 = 12;
/// `io.storefile.bloom.block.size` default (`BloomFilterFactory`).
pub const BLOOM_BLOCK_SIZE: u64 = 128 * 1024;
/// `io.storefile.bloom.max.fold` default (`BloomFilterFactory.MAX_ALLOWED_FOLD_FACTOR`).
pub const BLOOM_MAX_FOLD: u32 = 7;
/// `io.storefile.bloom.error.rate` default (a Java float).
pub const BLOOM_ERROR_RATE: f32 = 0.01;
/// KeyValue key infrastructure: row length i16 + family length i8 + timestamp i64 + type u8.
pub const KEY_INFRA: u64 = 12;
/// KeyValue key length i32 + value length i32 on top of the key.
pub const KV_LENGTHS: u64 = 8;
/// Per-cell mvcc vlong assumed when the builder is not told the sequence id: a sequence id in
/// [2^16, 2^24) (a region past its first thousands of edits) takes 4 bytes.
pub const DEFAULT_MVCC_BYTES: u64 = 4;

/// `WritableUtils.getVIntSize`.
pub fn vint_size(v: i64) -> u64 {
    if (-112..=127).contains(&v) {
        return 1;
    }
    let v = if v < 0 { !v } else { v };
    let bits = 64 - v.leading_zeros() as u64;
    bits.div_ceil(8) + 1
}

/// Bytes a block with `payload` on-disk bytes takes: header + payload + one CRC per
/// 16384 bytes of header + payload (`HFileBlock.Writer.finishBlock`).
pub fn block_on_disk(payload: u64) -> u64 {
    let with_header = BLOCK_HEADER + payload;
    with_header + CHECKSUM_SIZE * with_header.div_ceil(BYTES_PER_CHECKSUM)
}

/// One compound-Bloom chunk's shape (`BloomFilterUtil.createBySize` for a full chunk).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BloomChunkParams {
    /// Chunk bytes (`computeFoldableByteSize(131072 × 8, 7)` = 131072).
    pub byte_size: u64,
    /// Keys per chunk at the target error rate (`computeMaxKeys`).
    pub max_keys: u64,
    /// Hash functions.
    pub hash_count: u32,
}

/// The chunk parameters HBase derives for 128 KiB chunks at error rate 0.01.
pub fn bloom_chunk_params() -> BloomChunkParams {
    let bits = BLOOM_BLOCK_SIZE * 8;
    let mask = (1u64 << BLOOM_MAX_FOLD) - 1;
    let mut byte_size = bits.div_ceil(8);
    if byte_size & mask != 0 {
        byte_size = ((byte_size >> BLOOM_MAX_FOLD) + 1) << BLOOM_MAX_FOLD;
    }
    let bit_size = (byte_size * 8) as f64;
    let err = BLOOM_ERROR_RATE as f64;
    let ln2sq = std::f64::consts::LN_2 * std::f64::consts::LN_2;
    let ideal = (bit_size * (ln2sq / -err.ln())) as u64;
    let per_key = (byte_size * 8) / ideal.max(1);
    let hash_count = (std::f64::consts::LN_2 * per_key as f64).ceil() as u32;
    let h = hash_count.max(1) as f64;
    let max_keys = (-bit_size / h * (1.0 - (err.ln() / h).exp()).ln()) as u64;
    BloomChunkParams {
        byte_size,
        max_keys: max_keys.max(1),
        hash_count,
    }
}

/// Bytes of the last, partially filled Bloom chunk after `BloomFilterChunk.compactBloom` folds it.
fn folded_chunk_bytes(p: &BloomChunkParams, keys: u64) -> u64 {
    let (mut bytes, mut max) = (p.byte_size, p.max_keys);
    if keys == 0 {
        return bytes;
    }
    while bytes & 1 == 0 && max > keys << 1 {
        bytes >>= 1;
        max >>= 1;
    }
    bytes
}

/// Where a file's on-disk bytes go (all block sizes include header and checksums).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SizeBreakdown {
    /// Data blocks.
    pub data: u64,
    /// Leaf-level index blocks (inline, multi-level index only).
    pub leaf_index: u64,
    /// Intermediate-level index blocks.
    pub intermediate_index: u64,
    /// Root data index block (load-on-open).
    pub root_index: u64,
    /// Meta block index (empty root block).
    pub meta_index: u64,
    /// FILE_INFO block.
    pub file_info: u64,
    /// Bloom chunks (inline BLOOM_CHUNK blocks).
    pub bloom_chunks: u64,
    /// BLOOM_META block (load-on-open).
    pub bloom_meta: u64,
    /// Fixed trailer.
    pub trailer: u64,
}

impl SizeBreakdown {
    /// Sum of all terms: `reader.length()`.
    pub fn total(&self) -> u64 {
        self.data
            + self.leaf_index
            + self.intermediate_index
            + self.root_index
            + self.meta_index
            + self.file_info
            + self.bloom_chunks
            + self.bloom_meta
            + self.trailer
    }
}

/// A run of data blocks that start inside one emulated row. Packed to 12 bytes: a file keeps one
/// per kept row, and the headline holds millions of them.
#[derive(Debug, Clone, Copy)]
#[repr(C, packed(4))]
struct Run {
    /// Index of the first data block starting in this row.
    first_block: u64,
    /// Emulated row index; top bit set when the first block starts at the row's first cell
    /// (its index key is then the fake key between the previous row and this one). A file keeps
    /// far fewer than 2³¹ rows (the engine at most `MAX_FILE_KEYS`).
    row_and_flag: u32,
}

const RUN_FLAG: u32 = 1 << 31;

/// Bytes one block run takes (for the memory test).
#[cfg(test)]
pub(crate) fn run_size() -> usize {
    size_of::<Run>()
}

/// The data block index as HBase's `BlockIndexWriter` builds it, tracked by sizes only.
#[derive(Debug, Clone, Default)]
struct IndexAcc {
    max_chunk: u64,
    entries: u64,
    /// Σ(12 + vint(k) + k) over all entries: the single-level root payload.
    root_single: u64,
    leaf_n: u64,
    leaf_bytes: u64,
    leaf_first_key: u64,
    /// Key lengths of the leaf chunks' first keys and their non-root sizes.
    leaves: Vec<(u64, u64)>,
}

impl IndexAcc {
    /// Adds `count` entries of key length `k`, each followed by the inline-block check
    /// (`shouldWriteBlock(false)`: non-root size ≥ max chunk size ⇒ leaf block written).
    fn add_checked(&mut self, k: u64, mut count: u64) {
        if count == 0 {
            return;
        }
        let per = 4 + INDEX_ENTRY_OVERHEAD + k;
        self.root_single += count * (INDEX_ENTRY_OVERHEAD + vint_size(k as i64) + k);
        self.entries += count;
        if count == 1 {
            // The loop below for one entry, without its division: ⌈gap/per⌉.max(1) ≤ 1
            // exactly when gap ≤ per.
            if self.leaf_n == 0 {
                self.leaf_first_key = k;
            }
            let gap = self
                .max_chunk
                .saturating_sub(8 + 4 * self.leaf_n + self.leaf_bytes);
            self.leaf_n += 1;
            self.leaf_bytes += INDEX_ENTRY_OVERHEAD + k;
            if gap <= per {
                self.emit_leaf();
            }
            return;
        }
        while count > 0 {
            if self.leaf_n == 0 {
                self.leaf_first_key = k;
            }
            let size_now = 8 + 4 * self.leaf_n + self.leaf_bytes;
            let need = self.max_chunk.saturating_sub(size_now).div_ceil(per).max(1);
            if need <= count {
                self.leaf_n += need;
                self.leaf_bytes += need * (INDEX_ENTRY_OVERHEAD + k);
                self.emit_leaf();
                count -= need;
            } else {
                self.leaf_n += count;
                self.leaf_bytes += count * (INDEX_ENTRY_OVERHEAD + k);
                count = 0;
            }
        }
    }

    fn emit_leaf(&mut self) {
        let size = 8 + 4 * self.leaf_n + self.leaf_bytes;
        self.leaves.push((self.leaf_first_key, size));
        self.leaf_n = 0;
        self.leaf_bytes = 0;
    }

    /// The last entry, added at close (`shouldWriteBlock(true)`), then the index blocks.
    /// Returns (levels, leaf bytes, intermediate bytes, root bytes) with on-disk sizes.
    fn close(&mut self, last_key: u64, min_entries: u64, ratio: f64) -> (u32, u64, u64, u64) {
        self.root_single += INDEX_ENTRY_OVERHEAD + vint_size(last_key as i64) + last_key;
        self.entries += 1;
        if self.leaf_n == 0 {
            self.leaf_first_key = last_key;
        }
        self.leaf_n += 1;
        self.leaf_bytes += INDEX_ENTRY_OVERHEAD + last_key;
        if self.leaves.is_empty() {
            // One chunk only: it becomes the root; no intermediate levels are ever added then.
            return (1, 0, 0, block_on_disk(compressed(self.root_single, ratio)));
        }
        self.emit_leaf();
        let leaf_disk: u64 = self
            .leaves
            .iter()
            .map(|&(_, s)| block_on_disk(compressed(s, ratio)))
            .sum();
        let mut level: Vec<u64> = self.leaves.iter().map(|&(k, _)| k).collect();
        let root_size = |l: &[u64]| -> u64 {
            l.iter()
                .map(|&k| INDEX_ENTRY_OVERHEAD + vint_size(k as i64) + k)
                .sum()
        };
        let mut levels = 2;
        let mut inter = 0;
        while root_size(&level) > self.max_chunk && level.len() as u64 > min_entries && levels < 16
        {
            // writeIntermediateLevel: cut when i ≥ minEntries and the chunk's root size ≥ max.
            let mut parent = Vec::new();
            let (mut n, mut nonroot, mut rootsz, mut first) = (0u64, 0u64, 0u64, 0u64);
            for (i, &k) in level.iter().enumerate() {
                if n == 0 {
                    first = k;
                }
                n += 1;
                nonroot += INDEX_ENTRY_OVERHEAD + k;
                rootsz += INDEX_ENTRY_OVERHEAD + vint_size(k as i64) + k;
                if i as u64 >= min_entries && rootsz >= self.max_chunk {
                    inter += block_on_disk(compressed(8 + 4 * n + nonroot, ratio));
                    parent.push(first);
                    (n, nonroot, rootsz) = (0, 0, 0);
                }
            }
            if n > 0 {
                inter += block_on_disk(compressed(8 + 4 * n + nonroot, ratio));
                parent.push(first);
            }
            level = parent;
            levels += 1;
        }
        let root = block_on_disk(compressed(root_size(&level) + MID_KEY_METADATA, ratio));
        (levels, leaf_disk, inter, root)
    }
}

fn compressed(raw: u64, ratio: f64) -> u64 {
    if (ratio - 1.0).abs() < f64::EPSILON || !ratio.is_finite() || ratio <= 0.0 {
        raw
    } else {
        (raw as f64 * ratio).ceil() as u64
    }
}

/// The immutable content of one written HFile: the emulated rows it holds (sorted), each
/// standing for `scale` real rows, and what HBase would have on disk.
#[derive(Debug)]
pub struct HFile {
    shape: CellShape,
    format: FileFormat,
    scale: u64,
    keys: Vec<u8>,
    /// Row `i` is `keys[offs[i]..offs[i + 1]]` (a file keeps at most `MAX_FILE_KEYS` rows).
    offs: Vec<u32>,
    runs: Vec<Run>,
    data_blocks: u64,
    data_bytes: u64,
    index_levels: u32,
    sizes: SizeBreakdown,
    /// Real rows when set by [`HFile::set_counts`] (else emulated rows × scale).
    real_rows: Option<u64>,
    /// Cells beyond one version of each row (counted, not sampled).
    extra: Extra,
}

/// The sizes of one row's cells for a row key length, which every append needs: cached by the
/// builder, since a file's rows almost always share one key length.
#[derive(Debug, Clone, Copy, Default)]
struct RowSizes {
    /// Row key length these are for (`u64::MAX`: none yet).
    row_len: u64,
    /// One cell's full key (row, family, qualifier, key infrastructure).
    full_key: u64,
    /// One cell serialized (key, value, lengths).
    kv: u64,
    /// One cell in a data block (with its mvcc vlong).
    s: u64,
    /// Cells per emulated row: real rows × columns.
    m: u64,
    /// Serialized bytes of one emulated row's cells.
    row_data: u64,
    /// (m − 1)·s: an open block with more than this left takes the whole row.
    fits_after: u64,
    /// Cells a fresh block takes.
    per_block: u64,
    /// On-disk size of a full block of `per_block` cells.
    full_block_disk: u64,
}

impl RowSizes {
    fn of(row_len: u64, file: &HFile, mvcc_bytes: u64) -> RowSizes {
        let shape = file.shape;
        let full_key = row_len + shape.family_len as u64 + shape.qualifier_len as u64 + KEY_INFRA;
        let kv = full_key + shape.value_len as u64 + KV_LENGTHS;
        let s = kv + mvcc_bytes;
        let m = file.scale.saturating_mul(shape.columns.max(1) as u64);
        let per_block = file.format.block_size.div_ceil(s).max(1);
        RowSizes {
            row_len,
            full_key,
            kv,
            s,
            m,
            row_data: kv.saturating_mul(m),
            fits_after: m.saturating_sub(1).saturating_mul(s),
            per_block,
            full_block_disk: block_on_disk(compressed(
                per_block * s,
                file.format.compression_ratio,
            )),
        }
    }
}

/// For `row` appended after `prev`: `None` unless `row > prev`, else the length of the fake
/// (shortened) index row between them ([`fake_row_len`]), from one scan for their common prefix.
pub(super) fn after(prev: &[u8], row: &[u8]) -> Option<usize> {
    let (full_prev_len, full_row_len) = (prev.len(), row.len());
    let min = full_prev_len.min(full_row_len);
    let (prev, row) = (&prev[..min], &row[..min]);
    // The first differing byte of an 8-byte window starting at `at`, if any.
    let window = |at: usize| -> Option<usize> {
        let a = u64::from_be_bytes(prev[at..at + 8].try_into().expect("8 bytes"));
        let b = u64::from_be_bytes(row[at..at + 8].try_into().expect("8 bytes"));
        (a != b).then(|| at + ((a ^ b).leading_zeros() / 8) as usize)
    };
    let mut d = 0;
    let mut differ = None;
    while d + 8 <= min {
        differ = window(d);
        if differ.is_some() {
            break;
        }
        d += 8;
    }
    let d = match differ {
        Some(at) => at,
        // The tail as one window overlapping bytes known equal.
        None if min >= 8 && d < min => window(min - 8).unwrap_or(min),
        None => (d..min).find(|&i| prev[i] != row[i]).unwrap_or(min),
    };
    if d < min {
        (row[d] > prev[d]).then_some(d + 1)
    } else {
        (full_row_len > full_prev_len).then_some(min + 1)
    }
}

/// Builds an [`HFile`] from rows appended in sorted order.
#[derive(Debug)]
pub struct HFileBuilder {
    file: HFile,
    mvcc_bytes: u64,
    /// Bytes written into the open data block.
    cur: u64,
    /// Index key length of the open data block (its entry is added when it closes).
    pending_key: u64,
    index: IndexAcc,
    data_on_disk: u64,
    max_cell: u64,
    sizes: RowSizes,
}

impl HFileBuilder {
    /// A builder for a file of `shape` cells in `format`, where each appended row stands for
    /// `scale` real rows (0 is taken as 1; a shape with 0 columns as 1 column).
    pub fn new(shape: CellShape, format: FileFormat, scale: u64) -> HFileBuilder {
        HFileBuilder {
            file: HFile {
                shape,
                format,
                scale: scale.max(1),
                keys: Vec::new(),
                offs: vec![0],
                runs: Vec::new(),
                data_blocks: 0,
                data_bytes: 0,
                index_levels: 0,
                sizes: SizeBreakdown::default(),
                real_rows: None,
                extra: Extra::default(),
            },
            mvcc_bytes: DEFAULT_MVCC_BYTES,
            cur: 0,
            pending_key: 0,
            index: IndexAcc {
                max_chunk: format.index_block_max_size,
                ..IndexAcc::default()
            },
            data_on_disk: 0,
            max_cell: 0,
            sizes: RowSizes {
                row_len: u64::MAX,
                ..RowSizes::default()
            },
        }
    }

    /// A builder whose rows may stand for no real row (`scale` 0: a file that holds only
    /// versions and delete markers keeps their rows' keys as its index sample).
    pub fn new_exact(shape: CellShape, format: FileFormat, scale: u64) -> HFileBuilder {
        let mut b = HFileBuilder::new(shape, format, 1);
        b.file.scale = scale;
        b.sizes.row_len = u64::MAX;
        b
    }

    /// Sets the cells' sequence id (the mvcc vlong every v3 cell carries, `NoneEncoder`):
    /// a flush writes the edits' sequence ids; a compaction that cleans them writes 0 (1 byte).
    pub fn with_max_sequence_id(mut self, seq_id: u64) -> HFileBuilder {
        self.mvcc_bytes = vint_size(seq_id.min(i64::MAX as u64) as i64);
        self.sizes.row_len = u64::MAX;
        self
    }

    /// Reserves room for `rows` more rows of about `key_len` bytes each (a capacity hint: a
    /// compaction knows how many rows it keeps).
    pub fn reserve(&mut self, rows: usize, key_len: usize) {
        self.file.keys.reserve(rows.saturating_mul(key_len));
        self.file.offs.reserve(rows);
        self.file.runs.reserve(rows);
    }

    /// Emulated rows appended so far.
    pub fn len(&self) -> usize {
        self.file.emulated_rows()
    }

    /// True before the first append.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends one emulated row (keys must be appended in strictly increasing order; a row not
    /// greater than the previous one is ignored, as a second version would be with VERSIONS=1).
    pub fn append(&mut self, row: &[u8]) {
        let n_rows = self.file.emulated_rows();
        let prev_len = if n_rows > 0 {
            match after(self.file.row(n_rows - 1), row) {
                Some(len) => len as u64,
                None => return,
            }
        } else {
            row.len() as u64
        };
        self.file.keys.extend_from_slice(row);
        // The engine keeps at most MAX_FILE_KEYS rows of at most 32 KiB (HBase's row length
        // limit) per file, far below 4 GiB of keys.
        debug_assert!(self.file.keys.len() <= u32::MAX as usize);
        self.file.offs.push(self.file.keys.len() as u32);
        debug_assert!(
            n_rows < RUN_FLAG as usize,
            "a file keeps fewer than 2^31 rows"
        );
        let i = n_rows as u64;

        if self.sizes.row_len != row.len() as u64 {
            self.sizes = RowSizes::of(row.len() as u64, &self.file, self.mvcc_bytes);
        }
        let RowSizes {
            full_key,
            kv,
            s,
            m,
            row_data,
            fits_after,
            per_block,
            full_block_disk,
            ..
        } = self.sizes;
        self.file.data_bytes = self.file.data_bytes.saturating_add(row_data);
        self.max_cell = self.max_cell.max(kv);
        let fake_key = prev_len + KEY_INFRA;
        let b = self.file.format.block_size;
        let c = self.file.shape.columns.max(1) as u64;

        if self.file.data_blocks == 0 {
            // The file's first cell opens block 0; its index key is that cell's own key.
            self.file.runs.push(Run {
                first_block: 0,
                row_and_flag: RUN_FLAG,
            });
            self.file.data_blocks = 1;
            self.pending_key = full_key;
            self.cur = 0;
        }
        // Cells that still go into the open block (checkBlockBoundary before each cell). The
        // common case, the whole row fitting, is decided without a division: ⌈(b − cur)/s⌉ ≥ m
        // exactly when b − cur > (m − 1)·s.
        let f = if self.cur == 0 {
            per_block
        } else if self.cur >= b {
            0
        } else if b - self.cur > fits_after {
            m
        } else {
            (b - self.cur).div_ceil(s)
        };
        if f >= m {
            self.cur = self.cur.saturating_add(m.saturating_mul(s));
            return;
        }
        self.close_block(self.cur + f * s);
        let rest = m - f;
        let nb = rest.div_ceil(per_block);
        if nb > 1 {
            self.data_on_disk = self
                .data_on_disk
                .saturating_add((nb - 1).saturating_mul(full_block_disk));
        }
        self.cur = (rest - (nb - 1) * per_block) * s;

        // Index keys of the blocks starting in this row.
        let copy_boundary = |cell: u64| c == 1 || cell.is_multiple_of(c);
        let k0 = if f == 0 || copy_boundary(f) {
            fake_key
        } else {
            full_key
        };
        let k_in = if self.file.scale == 1 {
            full_key // inside one real row: same row and family, shortened qualifier
        } else if c == 1 || (per_block.is_multiple_of(c) && copy_boundary(f)) {
            fake_key // every later block starts at a copy boundary (estimate)
        } else {
            full_key
        };
        let first_block = self.file.data_blocks;
        let same_row = self
            .file
            .runs
            .last()
            .is_some_and(|r| u64::from(r.row_and_flag & !RUN_FLAG) == i);
        if !same_row {
            self.file.runs.push(Run {
                first_block,
                row_and_flag: i as u32 | if f == 0 { RUN_FLAG } else { 0 },
            });
        }
        self.index.add_checked(self.pending_key, 1);
        if nb == 1 {
            self.pending_key = k0;
        } else {
            self.index.add_checked(k0, 1);
            self.index.add_checked(k_in, nb - 2);
            self.pending_key = k_in;
        }
        self.file.data_blocks += nb;
    }

    fn close_block(&mut self, payload: u64) {
        let disk = block_on_disk(compressed(payload, self.file.format.compression_ratio));
        self.data_on_disk = self.data_on_disk.saturating_add(disk);
    }

    /// Finishes the file. `None` if no row was appended.
    pub fn finish(mut self) -> Option<HFile> {
        let n = self.file.emulated_rows();
        if n == 0 {
            return None;
        }
        let fmt = self.file.format;
        self.close_block(self.cur);
        let (levels, leaf, inter, root) = self.index.close(
            self.pending_key,
            fmt.index_block_min_entries as u64,
            fmt.compression_ratio,
        );
        self.file.index_levels = levels;
        // Files live long: give back the builders' growth slack.
        self.file.keys.shrink_to_fit();
        self.file.offs.shrink_to_fit();
        self.file.runs.shrink_to_fit();
        let shape = self.file.shape;
        let last_row = self.file.row(n - 1).len() as u64;
        let last_key = last_row + shape.family_len as u64 + shape.qualifier_len as u64 + KEY_INFRA;
        let (bloom_chunks, bloom_meta) = if fmt.row_bloom {
            self.file.bloom_sizes()
        } else {
            (0, 0)
        };
        self.file.sizes = SizeBreakdown {
            data: self.data_on_disk,
            leaf_index: leaf,
            intermediate_index: inter,
            root_index: root,
            meta_index: block_on_disk(0),
            file_info: block_on_disk(file_info_bytes(last_key, last_row, fmt.row_bloom)),
            bloom_chunks,
            bloom_meta,
            trailer: TRAILER_V3,
        };
        Some(self.file)
    }
}

/// FILE_INFO payload (`HFileInfo.write`: PB magic + delimited `FileInfoProto` of
/// `BytesBytesPair`s). Names are HBase's; value sizes are the serialized Java values. The
/// COMPACTION_EVENT and TIMERANGE protobufs are estimated (small, content-dependent).
fn file_info_bytes(last_key: u64, last_row: u64, bloom: bool) -> u64 {
    let mut pairs: Vec<(u64, u64)> = vec![
        (13, last_key), // hfile.LASTKEY
        (17, 4),        // hfile.AVG_KEY_LEN
        (20, 8),        // hfile.CREATE_TIME_TS
        (19, 4),        // hfile.AVG_VALUE_LEN
        (25, last_key), // hfile.KEY_OF_BIGGEST_CELL (estimated as the last key)
        (25, 4),        // hfile.LEN_OF_BIGGEST_CELL
        (19, 8),        // MAX_MEMSTORE_TS_KEY
        (17, 4),        // KEY_VALUE_VERSION
        (14, 8),        // MAX_SEQ_ID_KEY
        (20, 1),        // MAJOR_COMPACTION_KEY
        (20, 2),        // COMPACTION_EVENT_KEY (estimate)
        (9, 16),        // TIMERANGE (estimate)
        (15, 8),        // EARLIEST_PUT_TS
        (19, 8),        // DELETE_FAMILY_COUNT
        (10, 1),        // HISTORICAL
    ];
    if bloom {
        pairs.push((17, 3)); // BLOOM_FILTER_TYPE = "ROW"
        pairs.push((14, last_row)); // LAST_BLOOM_KEY
    }
    let body: u64 = pairs
        .iter()
        .map(|&(k, v)| {
            let inner = 1 + vint_size(k as i64) + k + 1 + vint_size(v as i64) + v;
            1 + vint_size(inner as i64) + inner
        })
        .sum();
    4 + vint_size(body as i64) + body
}

impl HFile {
    fn row(&self, i: usize) -> &[u8] {
        &self.keys[self.offs[i] as usize..self.offs[i + 1] as usize]
    }

    /// Row `i` in key order (`None` past the end).
    pub fn row_at(&self, i: usize) -> Option<&[u8]> {
        (i < self.emulated_rows()).then(|| self.row(i))
    }

    /// (chunk bytes on disk, BLOOM_META bytes on disk) of the ROW bloom: one key per real row.
    fn bloom_sizes(&self) -> (u64, u64) {
        let p = bloom_chunk_params();
        let total = self.rows();
        if total == 0 {
            return (0, 0);
        }
        let full = total / p.max_keys;
        let rem = total % p.max_keys;
        let mut chunks = full * block_on_disk(p.byte_size);
        if rem > 0 {
            chunks += block_on_disk(folded_chunk_bytes(&p, rem));
        }
        let n_chunks = full + u64::from(rem > 0);
        // Bloom index entries: offset, size, first row of the chunk.
        let mut index = 0;
        for c in 0..n_chunks {
            let row = ((c as u128 * p.max_keys as u128) / self.scale as u128) as usize;
            let len = self.row_at(row).map_or(0, |r| r.len()) as u64;
            index += INDEX_ENTRY_OVERHEAD + vint_size(len as i64) + len;
        }
        // version, totalByteSize, hashCount, hashType, keyCount, maxKeys, numChunks, null comparator.
        let meta = 4 + 8 + 4 + 4 + 8 + 8 + 4 + 1 + index;
        (chunks, block_on_disk(meta))
    }

    /// `reader.length()`: on-disk bytes including block headers, checksums, index, bloom, trailer.
    pub fn length(&self) -> u64 {
        self.sizes.total()
    }
    /// The terms of [`HFile::length`].
    pub fn size_breakdown(&self) -> SizeBreakdown {
        self.sizes
    }
    /// Data index levels (1 = root only).
    pub fn index_levels(&self) -> u32 {
        self.index_levels
    }
    /// On-disk bytes of the data block index (leaf + intermediate + root blocks).
    pub fn index_bytes(&self) -> u64 {
        self.sizes.leaf_index + self.sizes.intermediate_index + self.sizes.root_index
    }
    /// On-disk bytes of the ROW Bloom filter (chunks + meta).
    pub fn bloom_bytes(&self) -> u64 {
        self.sizes.bloom_chunks + self.sizes.bloom_meta
    }
    /// Real rows stood for by each emulated row.
    pub fn scale(&self) -> u64 {
        self.scale
    }
    /// Real rows (emulated rows × scale, unless set exactly by [`HFile::set_counts`]).
    pub fn rows(&self) -> u64 {
        self.real_rows
            .unwrap_or(self.emulated_rows() as u64 * self.scale)
    }
    /// Extra versions and delete markers the file holds.
    pub fn extra(&self) -> Extra {
        self.extra
    }
    /// Sets the exact real row count and the extra cells (a flush or compaction with versions
    /// or deletes). The extra cells' bytes join the data blocks: compressed like the rest, one
    /// header and its checksums per full block; their few index entries are left out.
    pub fn set_counts(&mut self, real_rows: u64, extra: Extra) {
        self.real_rows = Some(real_rows);
        self.extra = extra;
        let raw = extra.bytes();
        if raw > 0 {
            let b = self.format.block_size.max(1);
            let disk = compressed(raw, self.format.compression_ratio);
            let per_block =
                BLOCK_HEADER + CHECKSUM_SIZE * (BLOCK_HEADER + b).div_ceil(BYTES_PER_CHECKSUM);
            self.sizes.data += disk + raw.div_ceil(b) * per_block;
        }
    }
    /// Emulated rows stored.
    pub fn emulated_rows(&self) -> usize {
        self.offs.len() - 1
    }
    /// Uncompressed cell bytes (KeyValue serialized sizes).
    pub fn data_bytes(&self) -> u64 {
        self.data_bytes
    }
    /// First row key.
    pub fn first_row(&self) -> &[u8] {
        self.row_at(0).unwrap_or(&[])
    }
    /// Last row key.
    pub fn last_row(&self) -> &[u8] {
        self.emulated_rows()
            .checked_sub(1)
            .and_then(|i| self.row_at(i))
            .unwrap_or(&[])
    }
    /// Data blocks.
    pub fn data_blocks(&self) -> u64 {
        self.data_blocks
    }
    /// Heap bytes this model holds (row arena, offsets, block runs).
    pub fn heap_bytes(&self) -> usize {
        self.keys.capacity()
            + self.offs.capacity() * size_of::<u32>()
            + self.runs.capacity() * size_of::<Run>()
    }
    /// Row part of data block `b`'s index key (`getMidpoint(lastCellOfPreviousBlock, firstCellInBlock)`).
    pub fn block_key_row(&self, b: u64) -> Option<Cow<'_, [u8]>> {
        if b >= self.data_blocks {
            return None;
        }
        let r = self
            .runs
            .partition_point(|r| r.first_block <= b)
            .checked_sub(1)?;
        let run = self.runs[r];
        let row = (run.row_and_flag & !RUN_FLAG) as usize;
        if run.first_block == b
            && run.row_and_flag & RUN_FLAG != 0
            && row > 0
            && let Some(m) = fake_row(self.row(row - 1), self.row(row))
        {
            return Some(Cow::Owned(m));
        }
        self.row_at(row).map(Cow::Borrowed)
    }
    /// `HFileBlockIndex...midkey()` as a row (the row part of the midkey cell).
    pub fn midkey_row(&self) -> Option<Vec<u8>> {
        let n = self.data_blocks;
        if n == 0 {
            return None;
        }
        // Single level: blockKeys[rootCount / 2]; multi-level: leaf entry (N − 1) / 2.
        let b = if self.index_levels <= 1 {
            n / 2
        } else {
            (n - 1) / 2
        };
        self.block_key_row(b).map(Cow::into_owned)
    }
    /// `StoreUtils.getFileSplitPoint`: the midkey row, or `None` when it equals the first or last row.
    pub fn split_point(&self) -> Option<Vec<u8>> {
        let m = self.midkey_row()?;
        (m != self.first_row() && m != self.last_row()).then_some(m)
    }
    /// Index of the first row ≥ `key`.
    pub fn lower_bound(&self, key: &[u8]) -> usize {
        // Every row is ≥ the empty key: the whole file's range is asked for often.
        if key.is_empty() {
            return 0;
        }
        let (mut lo, mut hi) = (0, self.emulated_rows());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.row(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
    /// Row index range `[lo, hi)` of `[start, end)` (empty end = unbounded).
    pub fn index_range(&self, start: &[u8], end: &[u8]) -> (usize, usize) {
        let lo = self.lower_bound(start);
        let hi = if end.is_empty() {
            self.emulated_rows()
        } else {
            self.lower_bound(end)
        };
        (lo, hi.max(lo))
    }
    /// The emulated rows in `[start, end)` (empty end = unbounded), in order.
    pub fn rows_in<'a>(
        &'a self,
        start: &'a [u8],
        end: &'a [u8],
    ) -> impl Iterator<Item = &'a [u8]> + 'a {
        let (lo, hi) = self.index_range(start, end);
        (lo..hi).map(move |i| self.row(i))
    }
}
