//! A memstore's keys: the rows written since the last flush, stored for the flush to order.
//!
//! While every key has the same length (every generator but the variable-length templates)
//! they sit back to back in pooled chunks, a power of two of them a chunk, located by that
//! length: no allocation per row, no copy as they grow, no end offset per row. A key of another
//! length moves them all to one buffer with end offsets, for good (until cleared). Keys that
//! open with 8 hex digits also keep those digits' values (4 bytes a row), which a flush orders
//! by instead of reading every key again. The reference engine orders the same keys with the
//! standard sort ([`MemKeys::plain_sorted_unique`]); the tests hold the two to the same rows.

use super::chunks::Chunks;
use super::keysort::{CodeBounds, FixedKeys, SortScratch, keep_every, push_codes};
use super::route::{hex_digits, prefix8};
use crate::kernel::prefetch;

/// The most arena capacity a recycled memstore keeps ([`MemKeys::shrink`]).
pub const SPARE_BYTES: usize = 256 << 10;

/// About the bytes of keys a chunk holds: the chunks a flush frees serve the memstores that
/// grow next (`chunks.rs`), and a memstore holding a few rows keeps at most one.
const CHUNK_BYTES: usize = 64 << 10;

/// Rows a memstore holds before [`MemKeys::push_fixed`] keeps codes: smaller flushes sort
/// without them (`SortScratch::select_every_fixed` takes them from 4,096 rows), and a
/// memstore filled mostly row by row (at a coarse scale) would read its keys twice for
/// nothing.
const CODE_FROM: usize = 1024;

/// Rows of one key length, their keys back to back in a feed's arena: a run's rows
/// ([`MemKeys::extend_fixed`] takes them by position).
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

/// `MemKeys::key_len` once keys of different lengths were added.
const MIXED: u32 = u32::MAX;

/// The keys a memstore holds, in the order they were added.
#[derive(Debug, Default, Clone)]
pub(crate) struct MemKeys {
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
}

impl MemKeys {
    /// Appends one row's key. Inlined: it runs once per row and family.
    #[inline]
    pub(crate) fn push(&mut self, key: &[u8]) {
        if self.held == 0 {
            self.start_fixed(key.len());
        }
        if key.len() as u32 == self.key_len {
            crate::keygen::batch::push_key(self.keys.room(key.len()), key);
            prefetch::next_write(self.keys.tail());
        } else {
            self.add_mixed(key);
        }
        // A row without its code: the next run or the flush reads it back.
        self.whole = false;
        self.held += 1;
    }

    /// True when a key of `len` bytes can go in through [`MemKeys::push_fixed`]: the memstore
    /// already holds rows (its segment overhead and oldest edit are set) of that one length.
    #[inline]
    pub(crate) fn takes_fixed(&self, len: usize) -> bool {
        self.held > 0 && self.key_len == len as u32
    }

    /// Appends the keys of rows a run landed here, in their order, leaving the counters to
    /// `Memstore::add_run`: the write path's runs of rows (`engine/ingest/runs.rs`) count
    /// once per run. Only where [`MemKeys::takes_fixed`] holds. Each row's `code` is its
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

    /// The keys of rows `at`, `N` bytes each (0: any length, copied as a slice).
    #[inline(always)]
    fn extend_keys<const N: usize>(&mut self, rows: &ArenaRows<'_>, at: &[u32]) {
        // Each group (`len` bytes) takes a whole key of that length (`ArenaRows::key`).
        self.keys
            .extend_groups::<_, N>(at.len(), rows.len, |k| rows.key(at[k] as usize));
    }

    /// One row of [`MemKeys::extend_fixed`]: its key, and its code where codes are kept (read
    /// back from the keys since the last code where it has none).
    #[inline(always)]
    fn push_fixed(&mut self, key: &[u8], code: (u64, bool)) {
        debug_assert!(self.takes_fixed(key.len()));
        debug_assert!(!code.1 || code == hex_digits(prefix8(key)));
        crate::keygen::batch::push_key(self.keys.room(key.len()), key);
        self.held += 1;
        if code.1 & self.whole {
            self.codes.push(code.0 as u32);
            self.code_bounds.add(code.0 as u32);
        } else if !self.uncoded && self.held > CODE_FROM {
            self.code_rest();
        }
    }

    /// [`MemKeys::push_fixed`]'s codes for the rows since the last code (landed by `add`, or
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

    /// Rows held.
    pub(crate) fn len(&self) -> usize {
        self.held
    }

    /// Empties the keys, their freed chunks to the pool (for reuse as a new segment).
    pub(crate) fn clear(&mut self) {
        self.keys.clear();
        self.mixed.clear();
        self.ends.clear();
        self.codes.clear();
        self.code_bounds = CodeBounds::default();
        self.uncoded = false;
        self.whole = false;
        self.key_len = 0;
        self.held = 0;
    }

    /// Gives back all but [`SPARE_BYTES`] of the buffers of keys of mixed lengths (the chunks
    /// went to the pool when cleared).
    pub(crate) fn shrink(&mut self) {
        self.mixed.shrink_to(SPARE_BYTES);
        self.ends.shrink_to(SPARE_BYTES / 4);
    }

    /// The keys, sorted (unsigned lexicographic, as HBase's comparator); equal keys are kept
    /// once (VERSIONS = 1: the newest put of a row wins).
    pub(crate) fn sorted_keys(&self) -> Vec<&[u8]> {
        self.with_sorted_unique(|order| order.iter().map(|&i| self.key(i as usize)).collect())
    }

    /// Calls `f` with the rows' indices (for [`MemKeys::key`]) in key order, equal keys once,
    /// as [`MemKeys::sorted_keys`] orders them. The sort's buffers are the calling thread's,
    /// kept from flush to flush (a flush's sort allocates nothing once they are large enough).
    pub(crate) fn with_sorted_unique<R>(&self, f: impl FnOnce(&[u32]) -> R) -> R {
        with_scratch(|s| {
            self.sort_unique(s);
            f(&s.out)
        })
    }

    /// Calls `f` with the number of distinct keys and the rows (for [`MemKeys::key`]) at
    /// positions 0, `step`, 2·`step`, … of [`MemKeys::with_sorted_unique`]'s order, `step`
    /// chosen by `step_of` from the number of distinct keys. With `distinct` (the caller knows
    /// no two rows share a key: an injective generator's rows, `RowKeyGenerator::distinct_keys`)
    /// only the rows at those positions are found, not the whole order.
    pub(crate) fn with_sorted_every<R>(
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

    /// The reference engine's [`MemKeys::with_sorted_unique`]: every row's index through the
    /// standard sort by key, equal keys once.
    pub(crate) fn plain_sorted_unique(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.held as u32).collect();
        order.sort_by(|&a, &b| self.key(a as usize).cmp(self.key(b as usize)));
        order.dedup_by(|a, b| self.key(*a as usize) == self.key(*b as usize));
        order
    }

    /// The reference engine's [`MemKeys::with_sorted_every`]: the standard sort's order,
    /// every `step_of(distinct keys)`-th row kept.
    pub(crate) fn with_plain_sorted_every<R>(
        &self,
        step_of: impl FnOnce(usize) -> usize,
        f: impl FnOnce(usize, &[u32]) -> R,
    ) -> R {
        let mut order = self.plain_sorted_unique();
        let n = order.len();
        keep_every(&mut order, step_of(n));
        f(n, &order)
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
    pub(crate) fn key(&self, i: usize) -> &[u8] {
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
    pub(crate) fn footprint(&self) -> usize {
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
    use crate::engine::state::memstore::{Memstore, Put};

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
        run.keys_mut()
            .extend_fixed(&rows, &(0..keys.len() as u32 - 1).collect::<Vec<_>>());
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
            let mut m = MemKeys::default();
            let (mut i, mut run, mut whole_fed) = (0usize, 0usize, 0);
            while i < keys.len() {
                // Every 97th row lands one by one, the others in runs of 1 to 37 rows: a
                // third with their codes handed over, a third with them read from the keys,
                // a third without (read back from the arena later).
                if i % 97 == 0 {
                    m.push(&keys[i]);
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
    fn fixed_length_keys_and_the_large_radix_match_a_full_sort() {
        for len in [4usize, 8, 16] {
            let mut m = MemKeys::default();
            let mut want: Vec<Vec<u8>> = Vec::new();
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for i in 0..70_000u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Hex-like prefixes with ties (and duplicate keys) past the first 8 bytes.
                let mut k = format!("{:08x}{:08x}", x % 50_000, i % 3).into_bytes();
                k.truncate(len);
                m.push(&k);
                want.push(k);
            }
            assert!(m.ends.is_empty(), "fixed-length keys keep no end offsets");
            want.sort_unstable();
            want.dedup();
            assert_eq!(m.sorted_keys(), want, "key length {len}");
            // One key of another length: the earlier keys stay where they were.
            m.push(b"zz");
            want.push(b"zz".to_vec());
            want.sort_unstable();
            want.dedup();
            assert_eq!(m.len(), 70_001);
            assert_eq!(m.sorted_keys(), want, "key length {len} then 2");
            m.clear();
            m.push(b"abc");
            assert_eq!(m.sorted_keys(), vec![b"abc".as_slice()]);
        }
    }
}
