//! The RegionServers' file work: writing a flush snapshot as a store file and merging a
//! compaction's inputs into its output, as pure jobs, optionally on a builder thread of their
//! own so the thread that applies rows goes on meanwhile.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::state::memstore::Memstore;
use super::state::storefile::{
    self, CellShape, CellTimes, FileFormat, HFile, HFileBuilder, StoreFile, VersionRules,
};

/// A compaction's output: built already, or being built by the background builder (job id).
pub(crate) enum CompactionOutput {
    Ready(Option<Arc<HFile>>),
    Building(u64),
}

/// A flush file: written already, or being written by the background builder (job id).
// One per flush in flight, moved once: boxing the file would cost an allocation per flush for
// no memory saved.
#[allow(clippy::large_enum_variant)]
pub(crate) enum FlushFile {
    Ready(Option<StoreFile>),
    Building(u64),
}

/// What the background builder is asked to write: a flush snapshot as a store file.
pub(crate) struct FlushJob {
    pub(crate) id: u64,
    pub(crate) snapshot: Memstore,
    pub(crate) shape: CellShape,
    pub(crate) format: FileFormat,
    pub(crate) scale: u64,
    pub(crate) seq_id: u64,
    pub(crate) now_ms: u64,
    pub(crate) order: KeyOrder,
}

/// How a flush orders its snapshot's keys: the same order either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyOrder {
    /// The memstore's fast selection (`distinct`: no two rows of the snapshot share a key, so
    /// only the kept rows are looked for).
    Fast { distinct: bool },
    /// The reference engine's: every key through the standard sort.
    Plain,
}

impl FlushJob {
    /// The store file of this snapshot.
    pub(crate) fn write(&self) -> Option<StoreFile> {
        write_file(
            &self.snapshot,
            self.shape,
            self.format,
            self.scale,
            self.seq_id,
            self.now_ms,
            self.order,
        )
    }
}

/// What the background builder builds: a flush snapshot's store file, or a compaction's output
/// (the merge of its input files).
// One per flush or compaction, sent once over the builder's channel: a box would be one more
// allocation per job for nothing.
#[allow(clippy::large_enum_variant)]
enum Job {
    Flush(FlushJob),
    Compact {
        id: u64,
        inputs: Vec<StoreFile>,
        cutoff_ms: Option<u64>,
        rules: VersionRules,
        shape: CellShape,
        format: FileFormat,
    },
}

/// A finished [`Job`]: the flush file with the snapshot's buffers for reuse, or the compaction
/// output.
// One per finished job, sent once over the builder's channel (see `FlushFile`).
#[allow(clippy::large_enum_variant)]
enum Built {
    Flush(Option<StoreFile>, Memstore),
    Compact(Option<HFile>),
}

impl Job {
    fn run(self) -> (u64, Built) {
        match self {
            Job::Flush(job) => {
                let file = job.write();
                (job.id, Built::Flush(file, job.snapshot))
            }
            Job::Compact {
                id,
                inputs,
                cutoff_ms,
                rules,
                shape,
                format,
            } => {
                let refs: Vec<&StoreFile> = inputs.iter().collect();
                let out = storefile::compact(&refs, cutoff_ms, rules, shape, format);
                (id, Built::Compact(out))
            }
        }
    }
}

/// A thread that builds flush files (sorting the snapshot, writing the HFile model) and
/// compaction outputs (the k-way merge and its HFile) while the engine goes on: the
/// RegionServers' file-writing work, off the thread that applies rows. Each output is a pure
/// function of its job, so results do not depend on timing; the engine waits for a job only
/// when the flush or compaction's completion event comes due.
pub(crate) struct Builder {
    jobs: Option<crossbeam::channel::Sender<Job>>,
    done: crossbeam::channel::Receiver<(u64, Built)>,
    ready: BTreeMap<u64, Built>,
    /// Jobs whose result is not wanted any more (a compaction aborted by a close).
    abandoned: std::collections::BTreeSet<u64>,
    next_id: u64,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Builder {
    pub(crate) fn start() -> Builder {
        let (jobs, rx) = crossbeam::channel::unbounded::<Job>();
        let (tx, done) = crossbeam::channel::unbounded();
        let thread = std::thread::spawn(move || {
            for job in rx {
                if tx.send(job.run()).is_err() {
                    break;
                }
            }
        });
        Builder {
            jobs: Some(jobs),
            done,
            ready: BTreeMap::new(),
            abandoned: std::collections::BTreeSet::new(),
            next_id: 0,
            thread: Some(thread),
        }
    }

    pub(crate) fn submit_flush(&mut self, mut job: FlushJob) -> Option<u64> {
        self.next_id += 1;
        job.id = self.next_id;
        self.jobs.as_ref()?.send(Job::Flush(job)).ok()?;
        Some(self.next_id)
    }

    pub(crate) fn submit_compaction(
        &mut self,
        inputs: Vec<StoreFile>,
        cutoff_ms: Option<u64>,
        rules: VersionRules,
        shape: CellShape,
        format: FileFormat,
    ) -> Option<u64> {
        self.next_id += 1;
        let id = self.next_id;
        let job = Job::Compact {
            id,
            inputs,
            cutoff_ms,
            rules,
            shape,
            format,
        };
        self.jobs.as_ref()?.send(job).ok()?;
        Some(id)
    }

    /// The result of job `id`, waiting for it if needed.
    fn wait(&mut self, id: u64) -> Option<Built> {
        while !self.ready.contains_key(&id) {
            let (i, built) = self.done.recv().ok()?;
            if !self.abandoned.remove(&i) {
                self.ready.insert(i, built);
            }
        }
        self.ready.remove(&id)
    }

    /// The file of flush job `id` and the snapshot's buffers for reuse.
    pub(crate) fn take(&mut self, id: u64) -> (Option<StoreFile>, Option<Memstore>) {
        match self.wait(id) {
            Some(Built::Flush(f, m)) => (f, Some(m)),
            _ => (None, None),
        }
    }

    /// The output of compaction job `id`.
    pub(crate) fn take_compaction(&mut self, id: u64) -> Option<HFile> {
        match self.wait(id) {
            Some(Built::Compact(h)) => h,
            _ => None,
        }
    }

    /// Drops job `id`'s result, now or when it arrives.
    pub(crate) fn abandon(&mut self, id: u64) {
        if self.ready.remove(&id).is_none() {
            self.abandoned.insert(id);
        }
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Builds the store file of a flush snapshot. Rows are thinned to about one per data block when
/// an emulated row is smaller than a block, and to at most [`storefile::MAX_FILE_KEYS`], so
/// store files hold a bounded number of keys (docs/MODEL.md), found in `order`.
pub(crate) fn write_file(
    snap: &Memstore,
    shape: CellShape,
    format: FileFormat,
    scale: u64,
    seq_id: u64,
    now_ms: u64,
    order: KeyOrder,
) -> Option<StoreFile> {
    if !snap.extra.is_empty() {
        return write_with_extra(snap, shape, format, scale, seq_id, now_ms, order);
    }
    let row_bytes = snap.data_bytes / snap.rows.max(1) * scale;
    let per_block = (format.block_size / row_bytes.max(1)).max(1) as usize;
    // One key per data block, at most MAX_FILE_KEYS, of the sorted distinct rows (in the
    // thread's reused sort buffers): each kept row stands for an equal share of the
    // snapshot's rows, rounded (as a compaction's output) so the file's row count is within
    // half a row per kept key of the snapshot's.
    let thin = |n: usize| per_block.max(n.div_ceil(storefile::MAX_FILE_KEYS));
    let build = |n: usize, kept_rows: &[u32]| {
        let first = *kept_rows.first()?;
        let kept = kept_rows.len() as u64;
        let real = n as u64 * scale;
        let file_scale = ((real + kept / 2) / kept).max(1);
        let mut b = HFileBuilder::new(shape, format, file_scale);
        b.reserve(kept as usize, snap.key(first as usize).len());
        for &i in kept_rows {
            b.append(snap.key(i as usize));
        }
        b.finish()
    };
    let file = match order {
        KeyOrder::Fast { distinct } => snap.with_sorted_every(distinct, thin, build),
        KeyOrder::Plain => snap.with_plain_sorted_every(thin, build),
    }?;
    Some(StoreFile {
        cells: snapshot_times(snap, now_ms),
        ..StoreFile::new(Arc::new(file), seq_id, now_ms)
    })
}

/// A file of `keys` (distinct rows in key order) standing for `real_rows` real rows of
/// `data_bytes` KeyValue bytes, all written at `now_ms`: a bulk-load job's HFile, or one half of
/// a file the loader split. One key is kept per data block, at most `MAX_FILE_KEYS`, each for
/// an equal share of the rows, as a flush keeps them.
pub(crate) fn write_sorted(
    keys: &[&[u8]],
    real_rows: u64,
    data_bytes: u64,
    shape: CellShape,
    format: FileFormat,
    seq_id: u64,
    now_ms: u64,
) -> Option<StoreFile> {
    let n = keys.len();
    if n == 0 || real_rows == 0 {
        return None;
    }
    // Bytes of one kept key's share of the rows, and so how many keys one data block holds.
    let per_key_bytes = data_bytes / n as u64;
    let per_block = (format.block_size / per_key_bytes.max(1)).max(1) as usize;
    let stride = per_block.max(n.div_ceil(storefile::MAX_FILE_KEYS));
    let kept = n.div_ceil(stride) as u64;
    let file_scale = ((real_rows + kept / 2) / kept).max(1);
    let mut b = HFileBuilder::new(shape, format, file_scale);
    b.reserve(kept as usize, keys[0].len());
    for k in keys.iter().step_by(stride) {
        b.append(k);
    }
    let mut file = b.finish()?;
    file.set_counts(real_rows, storefile::Extra::default());
    Some(StoreFile::new(Arc::new(file), seq_id, now_ms))
}

/// The cells' write times: the snapshot's oldest and newest edits.
fn snapshot_times(snap: &Memstore, now_ms: u64) -> CellTimes {
    CellTimes::span(
        snap.oldest_edit_ms.unwrap_or(now_ms),
        snap.newest_edit_ms
            .max(snap.oldest_edit_ms.unwrap_or(now_ms)),
    )
}

/// A snapshot holding updates or deletes: its new rows' keys plus the extremes of the rows the
/// updates and deletes touched form the key sample (so the file's key range covers every cell),
/// the file counts its new rows exactly and carries the extra cells. The flush keeps every
/// version and marker (its scanner's `COMPACT_RETAIN_DELETES`; **simplified**: HBase's flush
/// also drops versions beyond VERSIONS among the snapshot's own cells).
fn write_with_extra(
    snap: &Memstore,
    shape: CellShape,
    format: FileFormat,
    scale: u64,
    seq_id: u64,
    now_ms: u64,
    order: KeyOrder,
) -> Option<StoreFile> {
    let build = |order: &[u32]| {
        let mut keys: Vec<&[u8]> = order.iter().map(|&i| snap.key(i as usize)).collect();
        let real = keys.len() as u64 * scale;
        for k in snap.touched_range().into_iter().flatten() {
            if let Err(at) = keys.binary_search(&k) {
                keys.insert(at, k);
            }
        }
        let first = *keys.first()?;
        let row_bytes = (snap.data_bytes - snap.extra.bytes()) / snap.rows.max(1) * scale;
        let per_block = (format.block_size / row_bytes.max(1)).max(1) as usize;
        let thin = per_block.max(keys.len().div_ceil(storefile::MAX_FILE_KEYS));
        let kept = keys.len().div_ceil(thin) as u64;
        let mut b = HFileBuilder::new_exact(shape, format, (real + kept / 2) / kept);
        b.reserve(kept as usize, first.len());
        for k in keys.iter().step_by(thin) {
            b.append(k);
        }
        let mut f = b.finish()?;
        f.set_counts(real, snap.extra);
        Some(f)
    };
    let file = match order {
        KeyOrder::Fast { .. } => snap.with_sorted_unique(build),
        KeyOrder::Plain => build(&snap.plain_sorted_unique()),
    }?;
    Some(StoreFile {
        cells: snapshot_times(snap, now_ms),
        ..StoreFile::new(Arc::new(file), seq_id, now_ms)
    })
}

/// `n` keys spread evenly over `[start, end)` (empty = table edge), in order, each inside it:
/// after the common prefix, the next 8 bytes of each bound are read as big-endian numbers and the
/// keys placed at the middles of `n` equal parts. An open end reads as all `0xFF` bytes after the
/// start key (the last region's rows just after its start); an open start as zeros. Fewer keys
/// come back when the range is too narrow for `n` distinct ones (at least one: the start).
pub(crate) fn spread_keys(start: &[u8], end: &[u8], n: usize) -> Vec<Vec<u8>> {
    let p = if end.is_empty() {
        start.len()
    } else {
        start.iter().zip(end).take_while(|(a, b)| a == b).count()
    };
    let word = |k: &[u8], open: u8| -> u128 {
        let mut b = [open; 8];
        for (i, &x) in k.iter().skip(p).take(8).enumerate() {
            b[i] = x;
        }
        u128::from(u64::from_be_bytes(b))
    };
    let lo = word(start, 0);
    let hi = if end.is_empty() {
        u128::from(u64::MAX) + 1
    } else {
        word(end, 0)
    };
    let n = n.max(1) as u128;
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(n as usize);
    for i in 0..n {
        let x = lo + (hi - lo) * (2 * i + 1) / (2 * n);
        let mut k = start[..p].to_vec();
        k.extend_from_slice(&(x.min(u128::from(u64::MAX)) as u64).to_be_bytes());
        let inside = k.as_slice() >= start && (end.is_empty() || k.as_slice() < end);
        if inside && out.last().is_none_or(|l| *l < k) {
            out.push(k);
        }
    }
    if out.is_empty() {
        out.push(start.to_vec());
    }
    out
}

/// One store file of an imported region: about `bytes` on disk, its rows spread evenly over
/// `[start, end)` ([`spread_keys`]). It keeps one key per data block (at most
/// [`storefile::MAX_FILE_KEYS`], as flush files do) and its rows per key are sized so the file's
/// length comes out at `bytes` (one calibration pass: the length is measured, the rows scaled).
pub(crate) fn imported_file(
    start: &[u8],
    end: &[u8],
    bytes: u64,
    shape: CellShape,
    format: FileFormat,
    seq_id: u64,
) -> Option<StoreFile> {
    if bytes == 0 {
        return None;
    }
    let keys_n = (bytes / format.block_size.max(1)).clamp(1, storefile::MAX_FILE_KEYS as u64);
    let keys = spread_keys(start, end, keys_n as usize);
    let build = |scale: u64| {
        let mut b = HFileBuilder::new(shape, format, scale).with_max_sequence_id(seq_id);
        b.reserve(keys.len(), keys[0].len());
        for k in &keys {
            b.append(k);
        }
        b.finish()
    };
    // A first guess from the cell size, then scaled by what the guess measured.
    let cell = u64::from(shape.family_len + shape.qualifier_len + shape.value_len) + 40;
    let row = cell * u64::from(shape.columns.max(1));
    let guess = (bytes / (row * keys.len() as u64).max(1)).max(1);
    let first = build(guess)?;
    let scale = ((guess as u128 * bytes as u128) / u128::from(first.length().max(1))).max(1);
    let file = build(scale.min(u128::from(u32::MAX)) as u64)?;
    // Imported cells are taken as written at the start (age 0; docs/IMPORT.md).
    Some(StoreFile::new(Arc::new(file), seq_id, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_keys_stay_inside_their_range_and_sorted() {
        for (s, e) in [
            (&b""[..], &b""[..]),
            (b"", b"m"),
            (b"m", b""),
            (b"user1", b"user2"),
            (b"a", b"a\x00\x01"),
            (b"\xFF\xFF", b""),
        ] {
            let ks = spread_keys(s, e, 100);
            assert!(!ks.is_empty());
            assert!(ks.windows(2).all(|w| w[0] < w[1]), "{s:?} {e:?}");
            assert!(
                ks.iter()
                    .all(|k| k.as_slice() >= s && (e.is_empty() || k.as_slice() < e))
            );
        }
        assert_eq!(spread_keys(b"user1", b"user2", 100).len(), 100);
    }

    #[test]
    fn an_imported_file_has_about_the_size_asked() {
        let shape = CellShape {
            family_len: 1,
            qualifier_len: 1,
            value_len: 100,
            columns: 1,
        };
        let format = storefile::test_format();
        for bytes in [10_000u64, 5 << 20, 3 << 30, 40 << 30] {
            let f = imported_file(b"a", b"b", bytes, shape, format, 1).expect("file");
            let got = f.length();
            assert!(got.abs_diff(bytes) <= bytes / 50 + 4096, "{bytes} -> {got}");
        }
    }
    use crate::engine::state::memstore::Put;

    /// `HStore.flushCache` at `--scale 1` with a large memstore: the flushed file keeps at most
    /// `MAX_FILE_KEYS` evenly spaced rows and still stands for every flushed row.
    #[test]
    fn a_large_flush_is_sampled_and_keeps_its_row_count() {
        let mut snap = Memstore::default();
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: 1000,
            heap_bytes: 1100,
        };
        let n = 100_000u64;
        // Hashed-like order: the flush sorts.
        for i in 0..n {
            snap.add(
                &(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_be_bytes(),
                put,
                0,
                0,
            );
        }
        let shape = CellShape {
            family_len: 1,
            qualifier_len: 1,
            value_len: 960,
            columns: 1,
        };
        let format = storefile::test_format();
        let f = write_file(
            &snap,
            shape,
            format,
            1,
            9,
            0,
            KeyOrder::Fast { distinct: false },
        )
        .expect("rows");
        assert!(f.file.emulated_rows() <= storefile::MAX_FILE_KEYS);
        let kept = f.file.emulated_rows() as u64;
        assert!(f.rows().abs_diff(n) <= kept / 2, "{} of {n}", f.rows());
        let rows: Vec<&[u8]> = f.visible_emulated_rows().collect();
        assert!(rows.windows(2).all(|w| w[0] < w[1]));
        // A small flush keeps one key per data block (65 rows of 1 KB): 8 keys for 500 rows.
        let mut small = Memstore::default();
        for i in 0..500u64 {
            small.add(&i.to_be_bytes(), put, 0, 0);
        }
        let g = write_file(&small, shape, format, 1, 9, 0, KeyOrder::Plain).expect("rows");
        assert_eq!(g.file.emulated_rows(), 8);
        assert!(g.rows().abs_diff(500) <= 4, "{}", g.rows());
    }
}
