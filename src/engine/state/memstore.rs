//! A store's memstore: the rows written since the last flush, their data size and heap size.
//!
//! Mirrors `DefaultMemStore` accounting (`Segment.incMemStoreSize`): data size = serialized cell
//! bytes, heap size = per-cell heap (see `cell.rs`) plus the active segment's fixed overhead.
//! The rows' keys are kept for the flush to order (`ingest::memkeys`).

use super::storefile::Extra;
use crate::engine::ingest::memkeys::MemKeys;
use crate::kernel::prefetch;

/// What one emulated row adds to a store, in real units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Put {
    /// Real rows.
    pub rows: u64,
    /// Real cells.
    pub cells: u64,
    /// Serialized cell bytes.
    pub data_bytes: u64,
    /// Memstore heap bytes.
    pub heap_bytes: u64,
}

/// One store's memstore (active segment; a flush takes it whole as the snapshot).
#[derive(Debug, Default, Clone)]
pub struct Memstore {
    /// The rows' keys, in the order they were added.
    keys: MemKeys,
    /// Real rows (emulated rows × their weight).
    pub rows: u64,
    /// Real cells.
    pub cells: u64,
    /// Data size, bytes (serialized cells).
    pub data_bytes: u64,
    /// Heap size, bytes (what flush triggers compare).
    pub heap_bytes: u64,
    /// Simulated time of the oldest edit, ms (for the periodic flush).
    pub oldest_edit_ms: Option<u64>,
    /// Simulated time of the newest edit, ms (the flushed file's newest cell).
    pub newest_edit_ms: u64,
    /// Updates' further versions and delete markers (counted; their keys are not kept, only
    /// the lowest and highest, for the flushed file's key range).
    pub extra: Extra,
    /// Lowest and highest key an update or delete touched (valid while `extra` is not empty).
    touched_lo: Vec<u8>,
    touched_hi: Vec<u8>,
}

/// What one update or delete adds to a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// A new version of an existing row (its cells again).
    Update,
    /// A row delete: one `DeleteFamily` marker.
    Delete,
}

impl Memstore {
    /// Adds one emulated row with what it stands for. `segment_overhead` is added when the
    /// segment receives its first cell. Inlined: it runs once per row and family.
    #[inline]
    pub fn add(&mut self, key: &[u8], put: Put, segment_overhead: u64, now_ms: u64) {
        if self.keys.len() == 0 && self.extra.is_empty() {
            self.heap_bytes += segment_overhead;
            self.oldest_edit_ms = Some(now_ms);
        }
        self.keys.push(key);
        self.rows += put.rows;
        self.cells += put.cells;
        self.data_bytes += put.data_bytes;
        self.heap_bytes += put.heap_bytes;
        self.newest_edit_ms = now_ms;
    }

    /// The rows' keys, to append a run's rows to (`MemKeys::extend_fixed`, then
    /// [`Memstore::add_run`] with what they stand for).
    pub(crate) fn keys_mut(&mut self) -> &mut MemKeys {
        &mut self.keys
    }

    /// True when a key of `len` bytes can go in as part of a run: the memstore already holds
    /// rows (its segment overhead and oldest edit are set) of that one length.
    #[inline]
    pub fn takes_fixed(&self, len: usize) -> bool {
        self.keys.takes_fixed(len)
    }

    /// Asks the caches for this struct's lines (what a run's rows read first).
    #[inline(always)]
    pub(crate) fn prefetch(&self) {
        prefetch::read(self, size_of::<Memstore>().div_ceil(64));
    }

    /// What the rows `MemKeys::extend_fixed` appended stand for, summed, the newest written
    /// at `now_ms`: the same counters [`Memstore::add`] keeps row by row.
    pub fn add_run(&mut self, put: Put, now_ms: u64) {
        self.rows += put.rows;
        self.cells += put.cells;
        self.data_bytes += put.data_bytes;
        self.heap_bytes += put.heap_bytes;
        self.newest_edit_ms = now_ms;
    }

    /// Adds an update or delete of the row `key` (a row written before): counted as extra
    /// cells, its key only widening the touched range.
    pub fn add_mutation(
        &mut self,
        key: &[u8],
        kind: Mutation,
        put: Put,
        segment_overhead: u64,
        now_ms: u64,
    ) {
        if self.is_empty() {
            self.heap_bytes += segment_overhead;
            self.oldest_edit_ms = Some(now_ms);
        }
        if self.extra.is_empty() {
            self.touched_lo.clear();
            self.touched_lo.extend_from_slice(key);
            self.touched_hi.clear();
            self.touched_hi.extend_from_slice(key);
        } else if key < self.touched_lo.as_slice() {
            self.touched_lo.clear();
            self.touched_lo.extend_from_slice(key);
        } else if key > self.touched_hi.as_slice() {
            self.touched_hi.clear();
            self.touched_hi.extend_from_slice(key);
        }
        match kind {
            Mutation::Update => {
                self.extra.versions += put.rows;
                self.extra.version_bytes += put.data_bytes;
            }
            Mutation::Delete => {
                self.extra.tombstones += put.rows;
                self.extra.tombstone_bytes += put.data_bytes;
            }
        }
        self.cells += put.cells;
        self.data_bytes += put.data_bytes;
        self.heap_bytes += put.heap_bytes;
        self.newest_edit_ms = now_ms;
    }

    /// The lowest and highest key updates and deletes touched, if any.
    pub fn touched_range(&self) -> Option<[&[u8]; 2]> {
        (!self.extra.is_empty()).then_some([self.touched_lo.as_slice(), self.touched_hi.as_slice()])
    }

    /// Emulated rows held.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when nothing was written since the last flush.
    pub fn is_empty(&self) -> bool {
        self.keys.len() == 0 && self.extra.is_empty()
    }

    /// Takes the content as a flush snapshot, leaving an empty memstore.
    pub fn take(&mut self) -> Memstore {
        std::mem::take(self)
    }

    /// Empties a flushed snapshot for reuse as another region's memstore, keeping few of its
    /// buffers (`MemKeys::shrink`). Reuse saves the allocator calls of regrowing small buffers;
    /// whole large buffers passed on would stay with a region whose memstore holds far less,
    /// and with thousands of regions at `--scale 1` those idle buffers, not the held rows,
    /// would make up most of the memory.
    pub fn recycle(&mut self) {
        self.clear();
        self.keys.shrink();
    }

    /// Empties the memstore.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.rows = 0;
        self.cells = 0;
        self.data_bytes = 0;
        self.heap_bytes = 0;
        self.oldest_edit_ms = None;
        self.newest_edit_ms = 0;
        self.extra = Extra::default();
    }

    /// The emulated keys, sorted (unsigned lexicographic, as HBase's comparator); equal keys are
    /// kept once (VERSIONS = 1: the newest put of a row wins).
    pub fn sorted_keys(&self) -> Vec<&[u8]> {
        self.keys.sorted_keys()
    }

    /// Calls `f` with the rows' indices (for [`Memstore::key`]) in key order, equal keys once.
    pub fn with_sorted_unique<R>(&self, f: impl FnOnce(&[u32]) -> R) -> R {
        self.keys.with_sorted_unique(f)
    }

    /// Calls `f` with the number of distinct keys and the rows at positions 0, `step`,
    /// 2·`step`, … of the key order, `step` chosen by `step_of` from the number of distinct
    /// keys. `distinct`: the caller knows no two rows share a key
    /// (`RowKeyGenerator::distinct_keys`), so only the rows at those positions are looked for.
    pub fn with_sorted_every<R>(
        &self,
        distinct: bool,
        step_of: impl FnOnce(usize) -> usize,
        f: impl FnOnce(usize, &[u32]) -> R,
    ) -> R {
        self.keys.with_sorted_every(distinct, step_of, f)
    }

    /// The reference engine's [`Memstore::with_sorted_unique`] order: the standard sort.
    pub fn plain_sorted_unique(&self) -> Vec<u32> {
        self.keys.plain_sorted_unique()
    }

    /// The reference engine's [`Memstore::with_sorted_every`]: the standard sort.
    pub fn with_plain_sorted_every<R>(
        &self,
        step_of: impl FnOnce(usize) -> usize,
        f: impl FnOnce(usize, &[u32]) -> R,
    ) -> R {
        self.keys.with_plain_sorted_every(step_of, f)
    }

    /// The key of row `i` (in the order the rows were added).
    #[inline]
    pub fn key(&self, i: usize) -> &[u8] {
        self.keys.key(i)
    }

    /// Bytes of process memory the keys hold (for the engine's memory budget).
    pub fn footprint(&self) -> usize {
        self.keys.footprint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ingest::memkeys::SPARE_BYTES;

    #[test]
    fn recycling_keeps_bounded_buffers_and_forgets_the_rows() {
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: 100,
            heap_bytes: 172,
        };
        let mut m = Memstore::default();
        for i in 0u64..100_000 {
            m.add(&i.to_be_bytes(), put, 0, 1);
        }
        assert!(m.footprint() > SPARE_BYTES);
        m.recycle();
        assert!(m.is_empty() && m.heap_bytes == 0);
        assert!(
            m.footprint() <= SPARE_BYTES + SPARE_BYTES / 4 * 4,
            "{}",
            m.footprint()
        );
        m.add(b"k", put, 0, 2);
        assert_eq!(m.sorted_keys(), vec![b"k".as_slice()]);
    }

    #[test]
    fn accounting_and_sorted_unique_keys() {
        let mut m = Memstore::default();
        assert!(m.is_empty());
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: 100,
            heap_bytes: 172,
        };
        m.add(b"b", put, 256, 5);
        m.add(b"a", put, 256, 6);
        m.add(b"b", put, 256, 7);
        assert_eq!(m.len(), 3);
        assert_eq!(m.heap_bytes, 256 + 3 * 172);
        assert_eq!(m.data_bytes, 300);
        assert_eq!(m.oldest_edit_ms, Some(5));
        assert_eq!(m.sorted_keys(), vec![b"a".as_slice(), b"b".as_slice()]);
        // Prefix ties (shared first 16 bytes, or trailing zeros) still sort by the whole key.
        let mut t = Memstore::default();
        for k in [
            &b"0123456789abcdefZ"[..],
            b"0123456789abcdef",
            b"0123456789abcdefA",
            b"a\0",
            b"a",
        ] {
            t.add(k, put, 0, 0);
        }
        assert_eq!(
            t.sorted_keys(),
            vec![
                &b"0123456789abcdef"[..],
                b"0123456789abcdefA",
                b"0123456789abcdefZ",
                b"a",
                b"a\0"
            ]
        );
        let snap = m.take();
        // Above the radix threshold: hashed-like keys with prefix ties, duplicates and short keys.
        let mut big = Memstore::default();
        let mut want: Vec<Vec<u8>> = Vec::new();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for i in 0..5000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut k = format!("{:08x}", x % 300).into_bytes();
            k.extend_from_slice(&(i % 1700).to_be_bytes()[..(i % 9) as usize]);
            big.add(&k, put, 0, 0);
            want.push(k);
        }
        want.sort_unstable();
        want.dedup();
        assert_eq!(big.sorted_keys(), want);
        assert_eq!(snap.rows, 3);
        assert!(m.is_empty());
        assert_eq!(m.heap_bytes, 0);
    }

    /// `DefaultMemStore` snapshot order (`CellComparator`: unsigned bytes, newest of equal rows
    /// kept once) holds for fixed-length keys without end offsets, for a memstore that turns to
    /// mixed lengths after fixed ones, and on the 16-bit radix path (more than 65,536 rows).
    /// The reference engine's standard sort keeps the rows the fast selection keeps: every
    /// `step`-th distinct key, in order, for fixed-length hex keys, other fixed-length
    /// keys and keys of mixed lengths, with and without repeats.
    #[test]
    fn the_plain_sort_keeps_what_the_fast_selection_keeps() {
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: 10,
            heap_bytes: 10,
        };
        let keys_of = |kind: u64, i: u64| -> Vec<u8> {
            let h = crate::keygen::rng::splitmix64(i % 5_000);
            match kind {
                0 => format!("{:08x}{:08}", h as u32, i % 5_000).into_bytes(),
                1 => h.to_be_bytes().to_vec(),
                _ => h.to_be_bytes()[..1 + (h % 8) as usize].to_vec(),
            }
        };
        for kind in 0..3 {
            let mut m = Memstore::default();
            for i in 0..6_000u64 {
                m.add(&keys_of(kind, i), put, 0, 0);
            }
            let ids = |m: &Memstore, order: &[u32]| -> Vec<Vec<u8>> {
                order.iter().map(|&i| m.key(i as usize).to_vec()).collect()
            };
            let plain = ids(&m, &m.plain_sorted_unique());
            assert_eq!(plain, m.with_sorted_unique(|o| ids(&m, o)), "kind {kind}");
            for step in [1, 3, 64] {
                let fast = m.with_sorted_every(false, |_| step, |n, o| (n, ids(&m, o)));
                let slow = m.with_plain_sorted_every(|_| step, |n, o| (n, ids(&m, o)));
                assert_eq!(fast, slow, "kind {kind}, step {step}");
            }
        }
    }

    /// `DefaultMemStore` keeps every version and delete marker until the flush: their bytes
    /// count in the data and heap sizes (what flush triggers compare), the segment's overhead
    /// once, and the touched keys bound the flushed file's range.
    #[test]
    fn updates_and_deletes_count_in_the_memstore_default_mem_store() {
        let mut m = Memstore::default();
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: 100,
            heap_bytes: 172,
        };
        let marker = Put {
            rows: 1,
            cells: 1,
            data_bytes: 30,
            heap_bytes: 104,
        };
        m.add_mutation(b"m", Mutation::Update, put, 256, 3);
        assert!(!m.is_empty());
        m.add(b"k", put, 256, 4);
        m.add_mutation(b"z", Mutation::Delete, marker, 256, 5);
        m.add_mutation(b"a", Mutation::Update, put, 256, 6);
        assert_eq!(m.heap_bytes, 256 + 3 * 172 + 104);
        assert_eq!(m.data_bytes, 330);
        assert_eq!(m.rows, 1, "only the new row");
        assert_eq!(m.extra.versions, 2);
        assert_eq!(m.extra.version_bytes, 200);
        assert_eq!(m.extra.tombstones, 1);
        assert_eq!(m.extra.tombstone_bytes, 30);
        assert_eq!(m.oldest_edit_ms, Some(3));
        assert_eq!(m.touched_range(), Some([b"a".as_slice(), b"z".as_slice()]));
        m.clear();
        assert!(m.is_empty());
        assert_eq!(m.touched_range(), None);
    }
}
