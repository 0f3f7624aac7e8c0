//! The RegionServers' file work: writing a flush snapshot as a store file and merging a
//! compaction's inputs into its output, as pure jobs, optionally on a builder thread of their
//! own so the thread that applies rows goes on meanwhile.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::state::memstore::Memstore;
use super::state::storefile::{
    self, CellShape, CellTimes, FileFormat, HFile, HFileBuilder, StoreFile,
};

/// A compaction's output: built already, or being built by the background builder (job id).
pub(crate) enum CompactionOutput {
    Ready(Option<Arc<HFile>>),
    Building(u64),
}

/// A flush file: written already, or being written by the background builder (job id).
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
        )
    }
}

/// What the background builder builds: a flush snapshot's store file, or a compaction's output
/// (the merge of its input files).
enum Job {
    Flush(FlushJob),
    Compact {
        id: u64,
        inputs: Vec<StoreFile>,
        cutoff_ms: Option<u64>,
        shape: CellShape,
        format: FileFormat,
    },
}

/// A finished [`Job`]: the flush file with the snapshot's buffers for reuse, or the compaction
/// output.
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
                shape,
                format,
            } => {
                let refs: Vec<&StoreFile> = inputs.iter().collect();
                let out = storefile::compact(&refs, cutoff_ms, shape, format);
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
        shape: CellShape,
        format: FileFormat,
    ) -> Option<u64> {
        self.next_id += 1;
        let id = self.next_id;
        let job = Job::Compact {
            id,
            inputs,
            cutoff_ms,
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
/// store files hold a bounded number of keys (docs/MODEL.md).
pub(crate) fn write_file(
    snap: &Memstore,
    shape: CellShape,
    format: FileFormat,
    scale: u64,
    seq_id: u64,
    now_ms: u64,
) -> Option<StoreFile> {
    // The sorted distinct rows' indices, in the thread's reused sort buffers.
    let file = snap.with_sorted_unique(|order| {
        let first = *order.first()?;
        let row_bytes = snap.data_bytes / snap.rows.max(1) * scale;
        let per_block = (format.block_size / row_bytes.max(1)).max(1) as usize;
        // One key per data block, at most MAX_FILE_KEYS: each kept row stands for an equal
        // share of the snapshot's rows, rounded (as a compaction's output) so the file's row
        // count is within half a row per kept key of the snapshot's.
        let thin = per_block.max(order.len().div_ceil(storefile::MAX_FILE_KEYS));
        let kept = order.len().div_ceil(thin) as u64;
        let real = order.len() as u64 * scale;
        let file_scale = ((real + kept / 2) / kept).max(1);
        let mut b = HFileBuilder::new(shape, format, file_scale);
        b.reserve(kept as usize, snap.key(first as usize).len());
        for &i in order.iter().step_by(thin) {
            b.append(snap.key(i as usize));
        }
        b.finish()
    })?;
    // The cells' write times: the snapshot's oldest and newest edits.
    let cells = CellTimes {
        oldest_ms: snap.oldest_edit_ms.unwrap_or(now_ms),
        newest_ms: snap
            .newest_edit_ms
            .max(snap.oldest_edit_ms.unwrap_or(now_ms)),
    };
    Some(StoreFile {
        cells,
        ..StoreFile::new(Arc::new(file), seq_id, now_ms)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let f = write_file(&snap, shape, format, 1, 9, 0).expect("rows");
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
        let g = write_file(&small, shape, format, 1, 9, 0).expect("rows");
        assert_eq!(g.file.emulated_rows(), 8);
        assert!(g.rows().abs_diff(500) <= 4, "{}", g.rows());
    }
}
