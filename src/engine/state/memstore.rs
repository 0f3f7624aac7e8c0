//! A store's memstore: the rows written since the last flush, their data size and heap size.
//!
//! Mirrors `DefaultMemStore` accounting (`Segment.incMemStoreSize`): data size = serialized cell
//! bytes, heap size = per-cell heap (see `cell.rs`) plus the active segment's fixed overhead.
//! Rows are kept as emulated keys in chunks (no allocation per row, no copy as they grow); a
//! flush sorts them.

use super::chunks::Chunks;
use super::keysort::{CodeBounds, FixedKeys, SortScratch, keep_every, push_codes};
use super::routing::{hex_digits, prefix8};
use super::storefile::Extra;
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
///
/// While every key has the same length (every generator but the variable-length templates)
/// they sit back to back in `keys`, a power of two of them a chunk, located by that length: no
/// end offset per row. A key of another length moves them all to `mixed`, with end offsets in
/// `ends`, for good (until the memstore is cleared).
#[derive(Debug, Default, Clone)]
pub struct Memstore {
    /// Fixed-length keys, `1 << shift` a chunk.
    keys: Chunks<u8>,
    shift: u32,
    /// The length of every key so far, or [`MIXED`] once they differ.
    key_len: u32,
    /// Keys of differing lengths, back to back, and each one's end.
    mixed: Vec<u8>,
    ends: Vec<u32>,
    /// The [`hex_digits`] codes of the first rows, while every row opened with 8 lowercase
    /// hex digits (`hashed`, `md5-prefix`, `md5-legacy`): a flush orders the rows by these 4
    /// bytes a row, read back in one pass, instead of reading every key again long after it
    /// left the caches. The runs of rows (`push_fixed`) keep them from [`CODE_FROM`] rows on;
    /// rows landed one by one (`add`) are read from the arena when a run or the flush comes
    /// (cheap where few rows take that path, and nothing spent where flushes are small). In
    /// chunks of as many rows as `keys`'.
    codes: Chunks<u32>,
    /// The least and greatest of `codes` (kept as they go in, where the rows are at hand: a
    /// flush's pass over them for their bounds streamed them from memory).
    code_bounds: CodeBounds,
    /// A key did not open with 8 hex digits: no codes until cleared.
    uncoded: bool,
    /// `codes` covers every row held (the next pushed row's code goes straight in).
    whole: bool,
    /// Emulated rows held.
    held: usize,
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

/// The most arena capacity a recycled memstore keeps ([`Memstore::recycle`]).
pub const SPARE_BYTES: usize = 256 << 10;

/// About the bytes of keys a chunk holds: the chunks a flush frees serve the memstores that
/// grow next (`chunks.rs`), and a memstore holding a few rows keeps at most one.
const CHUNK_BYTES: usize = 64 << 10;

/// What one update or delete adds to a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// A new version of an existing row (its cells again).
    Update,
    /// A row delete: one `DeleteFamily` marker.
    Delete,
}

/// Rows a memstore holds before [`Memstore::push_fixed`] keeps codes: smaller flushes sort
/// without them (`SortScratch::select_every_fixed` takes them from 4,096 rows), and a
/// memstore filled mostly row by row (at a coarse scale) would read its keys twice for
/// nothing.
const CODE_FROM: usize = 1024;

/// Rows of one key length, their keys back to back in a feed's arena: a run's rows
/// ([`Memstore::extend_fixed`] takes them by position).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ArenaRows<'a> {
    pub arena: &'a [u8],
    /// Where row 0's key starts.
    pub start: usize,
    pub len: usize,
    /// The rows' hex digits' values, as the feed handed them over (empty: read from the keys
    /// where `hex`).
    pub codes: &'a [u32],
    pub hex: bool,
}

impl ArenaRows<'_> {
    /// Row `i`'s key.
    #[inline(always)]
    pub fn key(&self, i: usize) -> &[u8] {
        let at = self.start + i * self.len;
        &self.arena[at..at + self.len]
    }

    /// The [`hex_digits`] of row `i`, whose key's [`prefix8`] is `p`: handed over, read from
    /// the key, or `(0, false)` where not read.
    #[inline(always)]
    pub fn code(&self, i: usize, p: u64) -> (u64, bool) {
        if let Some(&c) = self.codes.get(i) {
            (u64::from(c), true)
        } else if self.hex {
            hex_digits(p)
        } else {
            (0, false)
        }
    }

    /// Row `i`'s key and its [`ArenaRows::code`].
    #[inline(always)]
    pub fn row(&self, i: usize) -> (&[u8], (u64, bool)) {
        let key = self.key(i);
        (key, self.code(i, prefix8(key)))
    }
}

/// `Memstore::key_len` once keys of different lengths were added.
const MIXED: u32 = u32::MAX;

impl Memstore {
    /// Adds one emulated row with what it stands for. `segment_overhead` is added when the
    /// segment receives its first cell. Inlined: it runs once per row and family.
    #[inline]
    pub fn add(&mut self, key: &[u8], put: Put, segment_overhead: u64, now_ms: u64) {
        if self.held == 0 {
            if self.extra.is_empty() {
                self.heap_bytes += segment_overhead;
                self.oldest_edit_ms = Some(now_ms);
            }
            self.start_fixed(key.len());
        }
        if key.len() as u32 == self.key_len {
            crate::keygen::push_key(self.keys.room(key.len()), key);
            prefetch::next_write(self.keys.tail());
        } else {
            self.add_mixed(key);
        }
        // A row without its code: the next run or the flush reads it back.
        self.whole = false;
        self.held += 1;
        self.rows += put.rows;
        self.cells += put.cells;
        self.data_bytes += put.data_bytes;
        self.heap_bytes += put.heap_bytes;
        self.newest_edit_ms = now_ms;
    }

    /// True when a key of `len` bytes can go in through [`Memstore::push_fixed`]: the memstore
    /// already holds rows (its segment overhead and oldest edit are set) of that one length.
    #[inline]
    pub fn takes_fixed(&self, len: usize) -> bool {
        self.held > 0 && self.key_len == len as u32
    }

    /// Appends the keys of rows a run landed here, in their order, leaving the counters to
    /// [`Memstore::add_run`]: the write path's runs of rows (`engine/apply/row_run.rs`) count
    /// once per run. Only where [`Memstore::takes_fixed`] holds. Each row's `code` is its
    /// key's [`hex_digits`] (the value and whether the key opens with 8 hex digits), which the
    /// run had for routing; `(_, false)` also where the run did not read it (the key is then
    /// read here if codes are kept).
    pub(crate) fn extend_fixed(&mut self, rows: &ArenaRows<'_>, at: &[u32]) {
        debug_assert_eq!(rows.len, self.key_len as usize);
        if self.whole && !rows.codes.is_empty() {
            // Every row's code is at hand and goes straight in: whole chunks at a time.
            match rows.len {
                8 => self.extend_keys::<8>(rows, at),
                16 => self.extend_keys::<16>(rows, at),
                _ => self.extend_keys::<0>(rows, at),
            }
            let mut bounds = self.code_bounds;
            self.codes.extend_groups::<_, 1>(at.len(), 1, |k| {
                let v = rows.codes[at[k] as usize];
                bounds.add(v);
                [v]
            });
            self.code_bounds = bounds;
            self.held += at.len();
        } else {
            for &i in at {
                let (key, code) = rows.row(i as usize);
                self.push_fixed(key, code);
            }
        }
    }

    /// Asks the caches for this struct's lines (what [`Memstore::extend_fixed`] reads first).
    #[inline(always)]
    pub(crate) fn prefetch(&self) {
        prefetch::read(self, size_of::<Memstore>().div_ceil(64));
    }

    /// The keys of rows `at`, `N` bytes each (0: any length, copied as a slice).
    #[inline(always)]
    fn extend_keys<const N: usize>(&mut self, rows: &ArenaRows<'_>, at: &[u32]) {
        // Each group (`len` bytes) takes a whole key of that length (`ArenaRows::key`).
        self.keys
            .extend_groups::<_, N>(at.len(), rows.len, |k| rows.key(at[k] as usize));
    }

    /// One row of [`Memstore::extend_fixed`]: its key, and its code where codes are kept (read
    /// back from the keys since the last code where it has none).
    #[inline(always)]
    fn push_fixed(&mut self, key: &[u8], code: (u64, bool)) {
        debug_assert!(self.takes_fixed(key.len()));
        debug_assert!(!code.1 || code == hex_digits(prefix8(key)));
        crate::keygen::push_key(self.keys.room(key.len()), key);
        self.held += 1;
        if code.1 & self.whole {
            self.codes.push(code.0 as u32);
            self.code_bounds.add(code.0 as u32);
        } else if !self.uncoded && self.held > CODE_FROM {
            self.code_rest();
        }
    }

    /// [`Memstore::push_fixed`]'s codes for the rows since the last code (landed by `add`, or
    /// pushed without theirs), read from the arena; or none for good, at the first key that
    /// is not hex.
    #[cold]
    #[inline(never)]
    fn code_rest(&mut self) {
        let keys = fixed_view(&self.keys, self.key_len, self.shift);
        let (codes, bounds) = (&mut self.codes, &mut self.code_bounds);
        let hex = keys.runs_from(codes.len()).all(|run| {
            push_codes(run, keys.len, |c| {
                codes.push(c);
                bounds.add(c);
            })
        });
        self.whole = hex;
        if !hex {
            self.uncoded = true;
            self.codes.clear();
            self.code_bounds = CodeBounds::default();
        }
    }

    /// Sets up the chunks for keys of `len` bytes (the memstore holds no rows).
    fn start_fixed(&mut self, len: usize) {
        self.key_len = len as u32;
        self.shift = (CHUNK_BYTES / len.max(1)).max(1).ilog2();
        self.keys.set_cap(len << self.shift);
        self.codes.set_cap(1 << self.shift);
    }

    /// The fixed-length keys (while lengths agree).
    fn fixed_keys(&self) -> FixedKeys<'_> {
        fixed_view(&self.keys, self.key_len, self.shift)
    }

    /// What the rows [`Memstore::push_fixed`] appended stand for, summed, the newest written
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

    /// A key whose length differs from the others': the keys get end offsets from here on.
    #[inline(never)]
    fn add_mixed(&mut self, key: &[u8]) {
        if self.key_len != MIXED {
            let len = self.key_len as usize;
            self.mixed.clear();
            for chunk in self.keys.view().iter() {
                self.mixed.extend_from_slice(chunk);
            }
            self.keys.clear();
            self.ends.clear();
            self.ends.extend((1..=self.held).map(|i| (i * len) as u32));
            self.key_len = MIXED;
        }
        self.mixed.extend_from_slice(key);
        self.ends.push(self.mixed.len() as u32);
    }

    /// Emulated rows held.
    pub fn len(&self) -> usize {
        self.held
    }

    /// True when nothing was written since the last flush.
    pub fn is_empty(&self) -> bool {
        self.held == 0 && self.extra.is_empty()
    }

    /// Takes the content as a flush snapshot, leaving an empty memstore.
    pub fn take(&mut self) -> Memstore {
        std::mem::take(self)
    }

    /// Empties a flushed snapshot for reuse as another region's memstore, keeping at most
    /// [`SPARE_BYTES`] of its buffers (and one chunk of keys and codes: the others go to the
    /// thread's pool). Reuse saves the allocator calls of regrowing small buffers (the
    /// headline's ~100,000 flushes); whole large buffers passed on would stay with a region
    /// whose memstore holds far less, and with thousands of regions at `--scale 1` those idle
    /// buffers, not the held rows, made the memory (4 TB exact: 5.8 GB).
    pub fn recycle(&mut self) {
        self.clear();
        self.mixed.shrink_to(SPARE_BYTES);
        self.ends.shrink_to(SPARE_BYTES / 4);
    }

    /// Empties the memstore, its freed chunks to the pool (for reuse as a new segment).
    pub fn clear(&mut self) {
        self.keys.clear();
        self.mixed.clear();
        self.ends.clear();
        self.codes.clear();
        self.code_bounds = CodeBounds::default();
        self.uncoded = false;
        self.whole = false;
        self.key_len = 0;
        self.held = 0;
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
        self.with_sorted_unique(|order| order.iter().map(|&i| self.key(i as usize)).collect())
    }

    /// Calls `f` with the rows' indices (for [`Memstore::key`]) in key order, equal keys once,
    /// as [`Memstore::sorted_keys`] orders them. The sort's buffers are the calling thread's,
    /// kept from flush to flush (a flush's sort allocates nothing once they are large enough).
    pub fn with_sorted_unique<R>(&self, f: impl FnOnce(&[u32]) -> R) -> R {
        with_scratch(|s| {
            self.sort_unique(s);
            f(&s.out)
        })
    }

    /// Calls `f` with the number of distinct keys and the rows (for [`Memstore::key`]) at
    /// positions 0, `step`, 2·`step`, … of [`Memstore::with_sorted_unique`]'s order, `step`
    /// chosen by `step_of` from the number of distinct keys. With `distinct` (the caller knows
    /// no two rows share a key: an injective generator's rows, `RowKeyGenerator::distinct_keys`)
    /// only the rows at those positions are found, not the whole order.
    pub fn with_sorted_every<R>(
        &self,
        distinct: bool,
        step_of: impl FnOnce(usize) -> usize,
        f: impl FnOnce(usize, &[u32]) -> R,
    ) -> R {
        with_scratch(|s| {
            if distinct {
                let step = step_of(self.held);
                if self.key_len != MIXED {
                    let codes = (!self.uncoded).then(|| (self.codes.view(), self.code_bounds));
                    s.select_every_fixed(self.fixed_keys(), codes, step, |i| self.key(i));
                } else {
                    self.fill_prefixes(s);
                    s.select_every(step, |i| self.key(i));
                }
                f(self.held, &s.out)
            } else {
                self.sort_unique(s);
                let n = s.out.len();
                keep_every(&mut s.out, step_of(n));
                f(n, &s.out)
            }
        })
    }

    /// The rows' prefixes for the key sort ([`SortScratch::sort_unique`]), then the sort.
    fn sort_unique(&self, s: &mut SortScratch) {
        self.fill_prefixes(s);
        s.sort_unique(|i| self.key(i));
    }

    /// Each row's `prefix8`, in `s.prefixes`.
    fn fill_prefixes(&self, s: &mut SortScratch) {
        s.prefixes.clear();
        let fixed = self.key_len as usize;
        if self.key_len != MIXED && fixed >= 8 {
            // Fixed-length keys: one load per key, no offsets.
            for chunk in self.keys.view().iter() {
                s.prefixes.extend(chunk.chunks_exact(fixed).map(prefix8));
            }
        } else {
            s.prefixes
                .extend((0..self.held).map(|i| prefix8(self.key(i))));
        }
    }

    /// The key of row `i` (in the order the rows were added).
    #[inline]
    pub fn key(&self, i: usize) -> &[u8] {
        if self.key_len != MIXED {
            let len = self.key_len as usize;
            let chunk = self.keys.view().chunk(i >> self.shift);
            let at = (i & ((1 << self.shift) - 1)) * len;
            &chunk[at..at + len]
        } else {
            let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
            &self.mixed[start..self.ends[i] as usize]
        }
    }

    /// Bytes of process memory the keys hold (for the engine's memory budget).
    pub fn footprint(&self) -> usize {
        self.keys.footprint()
            + self.codes.footprint()
            + self.mixed.capacity()
            + self.ends.capacity() * 4
    }
}

/// Fixed-length keys of `key_len` bytes in chunks of `1 << shift` rows (a memstore's, borrowed
/// apart from its other fields).
fn fixed_view(keys: &Chunks<u8>, key_len: u32, shift: u32) -> FixedKeys<'_> {
    FixedKeys {
        chunks: keys.view(),
        len: key_len as usize,
        per_chunk: 1 << shift,
    }
}

/// Calls `f` with the calling thread's sort buffers, kept from flush to flush (a flush's sort
/// allocates nothing once they are large enough).
fn with_scratch<R>(f: impl FnOnce(&mut SortScratch) -> R) -> R {
    thread_local! {
        static SCRATCH: std::cell::RefCell<SortScratch> =
            std::cell::RefCell::new(SortScratch::default());
    }
    SCRATCH.with(|s| f(&mut s.borrow_mut()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recycling_keeps_a_bounded_arena_and_forgets_the_rows() {
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
    fn a_run_of_pushed_keys_counts_as_the_same_rows_added_one_by_one() {
        let put = Put {
            rows: 3,
            cells: 6,
            data_bytes: 300,
            heap_bytes: 500,
        };
        let keys: Vec<[u8; 16]> = (0u64..50)
            .map(|i| {
                let mut k = [0u8; 16];
                k[..8].copy_from_slice(&(i * 7919 % 50).to_be_bytes());
                k
            })
            .collect();
        let mut one = Memstore::default();
        for (t, k) in keys.iter().enumerate() {
            one.add(k, put, 64, t as u64);
        }
        let mut run = Memstore::default();
        run.add(&keys[0], put, 64, 0);
        assert!(run.takes_fixed(16) && !run.takes_fixed(8));
        assert!(
            !Memstore::default().takes_fixed(16),
            "an empty memstore sets its overhead first"
        );
        let arena = keys[1..].concat();
        let rows = ArenaRows {
            arena: &arena,
            start: 0,
            len: 16,
            codes: &[],
            hex: true,
        };
        run.extend_fixed(&rows, &(0..keys.len() as u32 - 1).collect::<Vec<_>>());
        let n = keys.len() as u64 - 1;
        let total = Put {
            rows: n * put.rows,
            cells: n * put.cells,
            data_bytes: n * put.data_bytes,
            heap_bytes: n * put.heap_bytes,
        };
        run.add_run(total, n);
        assert_eq!(
            (
                run.len(),
                run.rows,
                run.cells,
                run.data_bytes,
                run.heap_bytes
            ),
            (
                one.len(),
                one.rows,
                one.cells,
                one.data_bytes,
                one.heap_bytes
            )
        );
        assert_eq!(
            (run.oldest_edit_ms, run.newest_edit_ms),
            (one.oldest_edit_ms, one.newest_edit_ms)
        );
        assert_eq!(run.sorted_keys(), one.sorted_keys());
    }

    /// Hex keys landed both ways (one by one and in runs), past the rows from which runs keep
    /// codes: the flush's every-n-th selection is the sort's, and a key that is not hex ends
    /// the codes (`select_every_fixed` then reads the arena).
    #[test]
    fn codes_kept_by_runs_give_the_sorts_selection() {
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: 100,
            heap_bytes: 172,
        };
        let key = |i: u64| {
            let x = (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32;
            let mut k = [0u8; 16];
            k[..8].copy_from_slice(format!("{x:08x}").as_bytes());
            k[8..].copy_from_slice(&i.to_be_bytes());
            k
        };
        for odd in [None, Some(3000), Some(7000)] {
            let keys: Vec<[u8; 16]> = (0..9000u64)
                .map(|i| {
                    let mut k = key(i);
                    if Some(i) == odd {
                        k[2] = b'z';
                    }
                    k
                })
                .collect();
            let mut m = Memstore::default();
            let (mut i, mut run, mut whole_fed) = (0usize, 0usize, 0);
            while i < keys.len() {
                // Every 97th row lands one by one, the others in runs of 1 to 37 rows: a
                // third with their codes handed over, a third with them read from the keys,
                // a third without (read back from the arena later).
                if i % 97 == 0 {
                    m.add(&keys[i], put, 0, i as u64);
                    i += 1;
                    continue;
                }
                let end = (i + 1 + run % 37)
                    .min(i.next_multiple_of(97))
                    .min(keys.len());
                let rows = &keys[i..end];
                // The run's rows between rows of other regions, which it skips.
                let arena: Vec<u8> = rows
                    .iter()
                    .flat_map(|k| [*k, [b'f'; 16]])
                    .flatten()
                    .collect();
                let at: Vec<u32> = (0..rows.len() as u32).map(|j| 2 * j).collect();
                let hex = rows.iter().all(|k| hex_digits(prefix8(k)).1);
                let codes: Vec<u32> = rows
                    .iter()
                    .flat_map(|k| [hex_digits(prefix8(k)).0 as u32, 0])
                    .collect();
                let fed = run % 3 == 0 && hex;
                whole_fed += usize::from(fed && m.whole);
                let rows = ArenaRows {
                    arena: &arena,
                    start: 0,
                    len: 16,
                    codes: if fed { &codes } else { &[] },
                    hex: run % 3 == 1,
                };
                m.extend_fixed(&rows, &at);
                i = end;
                run += 1;
            }
            assert!(whole_fed > 20, "runs took the path of codes handed over");
            assert_eq!(m.held, keys.len());
            assert_eq!(m.uncoded, odd.is_some());
            if odd.is_none() {
                // Codes from the first run past `CODE_FROM` rows on, the rows before read back.
                assert!(m.codes.len() > 8900 && m.codes.len() <= m.held);
            }
            let all = m.sorted_keys();
            let want: Vec<&[u8]> = all.iter().copied().step_by(64).collect();
            let got = m.with_sorted_every(
                true,
                |_| 64,
                |n, rows| {
                    assert_eq!(n, 9000);
                    rows.iter().map(|&i| m.key(i as usize)).collect::<Vec<_>>()
                },
            );
            assert_eq!(got, want, "{odd:?}");
        }
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
    #[test]
    fn fixed_length_keys_and_the_large_radix_match_a_full_sort() {
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: 10,
            heap_bytes: 20,
        };
        for len in [4usize, 8, 16] {
            let mut m = Memstore::default();
            let mut want: Vec<Vec<u8>> = Vec::new();
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for i in 0..70_000u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Hex-like prefixes with ties (and duplicate keys) past the first 8 bytes.
                let mut k = format!("{:08x}{:08x}", x % 50_000, i % 3).into_bytes();
                k.truncate(len);
                m.add(&k, put, 0, 0);
                want.push(k);
            }
            assert!(m.ends.is_empty(), "fixed-length keys keep no end offsets");
            want.sort_unstable();
            want.dedup();
            assert_eq!(m.sorted_keys(), want, "key length {len}");
            // One key of another length: the earlier keys stay where they were.
            m.add(b"zz", put, 0, 0);
            want.push(b"zz".to_vec());
            want.sort_unstable();
            want.dedup();
            assert_eq!(m.len(), 70_001);
            assert_eq!(m.sorted_keys(), want, "key length {len} then 2");
            m.clear();
            m.add(b"abc", put, 0, 0);
            assert_eq!(m.sorted_keys(), vec![b"abc".as_slice()]);
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
