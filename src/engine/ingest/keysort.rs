//! A flush's key sort: a memstore's row keys in HBase's order (unsigned lexicographic), equal
//! keys once. Linear in the rows for the common shapes: keys that arrive sorted cost one pass,
//! and other keys are radix-sorted on their 8-byte prefix, compressed to the bits that vary.

use crate::engine::ingest::chunks::ChunksRef;
use crate::engine::ingest::route::{hex_digits, prefix8};

/// The sort's buffers, kept from flush to flush by the caller (a sort allocates nothing once
/// they are large enough).
#[derive(Debug, Default)]
pub(crate) struct SortScratch {
    /// `prefix8` of each row, filled by the caller before [`SortScratch::sort_unique`].
    pub(crate) prefixes: Vec<u64>,
    packed: Vec<u64>,
    packed_tmp: Vec<u64>,
    wide: Vec<(u64, u32)>,
    wide_tmp: Vec<(u64, u32)>,
    counts: Vec<u32>,
    run: Vec<u32>,
    /// One bit per bucket of [`SortScratch::select_coded`]: it holds a kept position.
    marks: Vec<u64>,
    /// Codes of the rows after the ones a memstore kept ([`SortScratch::select_every_fixed`]).
    tail: Vec<u32>,
    /// The result: row indices in key order, equal keys once.
    pub(crate) out: Vec<u32>,
}

/// Per byte position of the prefixes, the rank of each byte value among the values present, and
/// the bits those ranks need: an order-preserving compression of the prefixes (hex text keeps
/// 4 bits of each byte, decimal text 4, sequential ids only their varying low bytes).
struct Ranks {
    rank: [[u8; 256]; 8],
    bits: [u32; 8],
}

impl Ranks {
    fn of(prefixes: &[u64]) -> Ranks {
        let mut seen = [[0u8; 256]; 8];
        for &p in prefixes {
            for (j, s) in seen.iter_mut().enumerate() {
                s[(p >> (56 - 8 * j)) as u8 as usize] = 1;
            }
        }
        let mut r = Ranks {
            rank: [[0; 256]; 8],
            bits: [0; 8],
        };
        for ((seen, rank), bits) in seen.iter().zip(&mut r.rank).zip(&mut r.bits) {
            let mut n = 0u32;
            for (&s, rank) in seen.iter().zip(rank.iter_mut()) {
                if s != 0 {
                    *rank = n as u8;
                    n += 1;
                }
            }
            // Ranks 0..n need the bits of n − 1.
            *bits = 32 - (n.max(1) - 1).leading_zeros();
        }
        r
    }

    fn total(&self) -> u32 {
        self.bits.iter().sum()
    }

    /// The compressed prefix: the ranks' bits, first byte most significant.
    #[inline]
    fn pack(&self, p: u64) -> u64 {
        let mut v = 0u64;
        for j in 0..8 {
            v = (v << self.bits[j]) | u64::from(self.rank[j][(p >> (56 - 8 * j)) as u8 as usize]);
        }
        v
    }
}

impl SortScratch {
    /// Sorts the rows whose prefixes the caller put in `prefixes`, `key(i)` giving row `i`'s
    /// key: `out` then holds the row indices in key order, equal keys once (the newest put of
    /// a row wins, VERSIONS = 1: which duplicate stays does not matter, they are equal).
    pub(crate) fn sort_unique<'k>(&mut self, key: impl Fn(usize) -> &'k [u8]) {
        self.out.clear();
        let n = self.prefixes.len();
        let ps = &self.prefixes;
        if ps.windows(2).all(|w| w[0] <= w[1]) {
            // Arrived in order (sequential, time-ordered keys): only equal prefixes need a look.
            dedup_by(n, |i| (ps[i], i as u32), &mut self.run, &mut self.out, &key);
            return;
        }
        let ranks = Ranks::of(ps);
        let idx_bits = 64 - (n as u64 - 1).leading_zeros();
        let bits = ranks.total();
        if bits + idx_bits <= 64 {
            // One word per row: the compressed prefix above the row index.
            self.packed.clear();
            self.packed.extend(
                ps.iter()
                    .zip(0u64..)
                    .map(|(&p, i)| (ranks.pack(p) << idx_bits) | i),
            );
            radix_u64(
                &mut self.packed,
                &mut self.packed_tmp,
                &mut self.counts,
                idx_bits,
                bits,
            );
            let mask = (1u64 << idx_bits) - 1;
            let packed = &self.packed;
            let at = |i: usize| (packed[i] >> idx_bits, (packed[i] & mask) as u32);
            dedup_by(n, at, &mut self.run, &mut self.out, &key);
        } else {
            self.wide.clear();
            self.wide
                .extend(ps.iter().zip(0u32..).map(|(&p, i)| (p, i)));
            radix_wide(&mut self.wide, &mut self.wide_tmp, &mut self.counts);
            let wide = &self.wide;
            dedup_by(n, |i| wide[i], &mut self.run, &mut self.out, &key);
        }
    }
}

impl SortScratch {
    /// For rows whose keys are all distinct: `out` gets the rows at positions 0, `step`,
    /// 2·`step`, … of the key order, the ones [`SortScratch::sort_unique`] would put there.
    /// A flush keeps only those (one per data block), so only the buckets holding one are
    /// sorted: one pass packs the prefixes, one counts, one scatters them by their top bits,
    /// instead of a whole radix sort.
    pub(crate) fn select_every<'k>(&mut self, step: usize, key: impl Fn(usize) -> &'k [u8]) {
        let n = self.prefixes.len();
        let step = step.max(1);
        let ps = &self.prefixes;
        let presorted = || ps.windows(2).all(|w| w[0] <= w[1]);
        let ranks = (n >= SELECT_MIN && step > 1 && !presorted()).then(|| Ranks::of(ps));
        let idx_bits = index_bits(n);
        let Some(ranks) = ranks.filter(|r| r.total() > 0 && r.total() + idx_bits <= 64) else {
            self.sort_unique(key);
            keep_every(&mut self.out, step);
            return;
        };
        let bits = ranks.total();
        self.packed.clear();
        self.packed.extend(
            ps.iter()
                .zip(0u64..)
                .map(|(&p, i)| (ranks.pack(p) << idx_bits) | i),
        );
        let packed = std::mem::take(&mut self.packed);
        self.select_packed(n, step, bits, |i| packed[i], key);
        self.packed = packed;
    }

    /// [`SortScratch::select_every`] over fixed-length keys (`keys`, ≥ 8 bytes each). Keys
    /// opening with 8 lowercase hex digits (`hashed`, `md5-prefix`) are ordered by their
    /// digits' 32 bits, an order-preserving code of the prefix as the byte ranks are: no prefix
    /// pass, no rank pass. `codes`, when given, holds the first rows' codes ([`hex_digits`],
    /// kept as the rows arrived, in chunks): only the rows after them are read from the keys.
    /// Other keys take [`SortScratch::select_every`].
    pub(crate) fn select_every_fixed<'k>(
        &mut self,
        keys: FixedKeys<'_>,
        codes: Option<(ChunksRef<'_, u32>, CodeBounds)>,
        step: usize,
        key: impl Fn(usize) -> &'k [u8],
    ) {
        let len = keys.len;
        let n = keys.rows();
        let step = step.max(1);
        let eligible = len >= 8 && n >= SELECT_MIN && step > 1;
        let bounds = codes.map(|(_, b)| b);
        let codes = codes.map(|(c, _)| c);
        let mut parts: Vec<&[u32]> = codes.iter().flat_map(|c| c.iter()).collect();
        let mut coded: usize = parts.iter().map(|p| p.len()).sum();
        let kept = codes.is_some() && coded <= n;
        if !kept {
            parts.clear();
            coded = 0;
        }
        // Without codes, the first key tells most non-hex generators (`md5-prefix` with fewer
        // than 8 hex characters) apart before a pass over every row.
        let hex_start = kept
            || keys
                .chunks
                .chunk(0)
                .first_chunk::<8>()
                .is_some_and(|k| hex_digits(u64::from_be_bytes(*k)).1);
        if eligible && hex_start {
            debug_assert!(
                keys.runs_from(0)
                    .flat_map(|r| r.chunks_exact(len))
                    .zip(parts.iter().flat_map(|p| p.iter()))
                    .all(|(k, &c)| hex_digits(prefix8(k)) == (u64::from(c), true))
            );
            // The rows after the codes are read from the keys.
            let mut tail = std::mem::take(&mut self.tail);
            tail.clear();
            let hex = keys
                .runs_from(coded)
                .all(|run| push_codes(run, len, |c| tail.push(c)));
            let known = bounds.filter(|_| kept).map(|b| (b, parts.len()));
            parts.push(&tail);
            // Sorted keys take the one-pass sort, as below.
            if hex && !self.select_coded(&parts, known, step, &key) {
                self.tail = tail;
                return;
            }
            self.tail = tail;
        }
        self.prefixes.clear();
        for run in keys.runs_from(0) {
            self.prefixes
                .extend(run.chunks_exact(len.max(1)).map(prefix8));
        }
        self.select_every(step, key);
    }

    /// The selection over rows whose 32-bit order-preserving prefix codes are `parts`
    /// (concatenated, in row order), unless the codes never decrease (then it returns true and
    /// leaves it to the caller's one-pass sort). A flush keeps one row in `step` (one per
    /// data block): one pass finds the bits every code shares, one counts the rows per bucket
    /// of the bits after them (about 8 rows each), and one copies out only the rows of
    /// buckets holding a kept position (about one in six, for 64 rows a block), which are
    /// then sorted. The memstore's rows are read three times, 4 bytes each, never moved whole.
    fn select_coded<'k>(
        &mut self,
        parts: &[&[u32]],
        known: Option<(CodeBounds, usize)>,
        step: usize,
        key: impl Fn(usize) -> &'k [u8],
    ) -> bool {
        let n: usize = parts.iter().map(|p| p.len()).sum();
        let d = (usize::BITS - (n / 8).leading_zeros()).clamp(1, 16);
        // A region's rows share its key range's leading bits: the buckets take the d bits
        // after them (on the top bits, a region among 200 left all its rows in 1 bucket of
        // 200, and the buckets' sorts were most of the flush).
        // The codes' bounds: those of the first parts as the memstore kept them (`known`),
        // the rest in one pass (a flush's codes outgrow the L2 cache: a pass streams them
        // from further out).
        let (mut b, from) = known.unwrap_or_default();
        for &part in &parts[from..] {
            for &c in part {
                b.add(c);
            }
        }
        debug_assert!(
            parts
                .iter()
                .flat_map(|p| p.iter())
                .all(|&c| b.lo <= c && c <= b.hi)
        );
        debug_assert!(known.is_none() || parts.iter().flat_map(|p| p.iter()).any(|&c| c == b.lo));
        let (lo, hi) = (b.lo, b.hi);
        let common = (lo ^ hi).leading_zeros();
        let size = 1usize << d;
        // The d bits after the shared ones: the code less its shared bits (`base`), shifted
        // so that its top d bits are kept (fewer than d bits left: shifted up instead).
        let base = if common == 32 {
            lo
        } else {
            lo & !(u32::MAX >> common)
        };
        let rest = 32 - common;
        let (down, up) = (rest.saturating_sub(d), d.saturating_sub(rest));
        let bucket = |c: u32| (((c - base) >> down) << up) as usize;
        debug_assert!(parts.iter().flat_map(|p| p.iter()).all(|&c| {
            bucket(c) == ((u64::from(c) << common) as u32 >> (32 - d)) as usize & (size - 1)
        }));
        self.counts.clear();
        self.counts.resize(size + 1, 0);
        let counts = &mut self.counts[..size + 1];
        let (mut sorted, mut prev) = (true, 0u32);
        for &part in parts {
            for &c in part {
                counts[bucket(c) + 1] += 1;
                sorted &= prev <= c;
                prev = c;
            }
        }
        if sorted {
            return true;
        }
        for b in 0..size {
            self.counts[b + 1] += self.counts[b];
        }
        // `counts[b]` is bucket b's first position. The buckets holding a kept position get
        // room in `packed_tmp`, in bucket order; the others are marked `SKIP`.
        const SKIP: u32 = u32::MAX;
        self.run.clear();
        self.run.resize(size, SKIP);
        // The same, one bit a bucket: the copy pass below tests it in a table that stays in
        // the L1 cache (`run` is 256 KiB at 2^16 buckets), and reads `run` only for the few
        // rows it copies.
        self.marks.clear();
        self.marks.resize(size.div_ceil(64), 0);
        let (mut b, mut room) = (0usize, 0u32);
        for target in (0..n).step_by(step) {
            while self.counts[b + 1] as usize <= target {
                b += 1;
            }
            if self.run[b] == SKIP {
                self.run[b] = room;
                self.marks[b / 64] |= 1 << (b % 64);
                room += self.counts[b + 1] - self.counts[b];
            }
        }
        self.packed_tmp.clear();
        self.packed_tmp.resize(room as usize, 0);
        let mut i = 0u64;
        let run = &mut self.run[..size];
        let marks = &self.marks[..size.div_ceil(64)];
        #[cfg(target_arch = "x86_64")]
        let simd = crate::kernel::active().avx512();
        for &part in parts {
            let mut part = part;
            #[cfg(target_arch = "x86_64")]
            if let Some(t) = simd {
                let whole = part.len() / 16 * 16;
                t.copy_marked(
                    &part[..whole],
                    i,
                    (base, down, up),
                    marks,
                    run,
                    &mut self.packed_tmp,
                );
                i += whole as u64;
                part = &part[whole..];
            }
            for &c in part {
                let b = bucket(c);
                if marks[b / 64] >> (b % 64) & 1 != 0 {
                    let at = &mut run[b];
                    self.packed_tmp[*at as usize] = (u64::from(c) << 32) | i;
                    *at += 1;
                }
                i += 1;
            }
        }
        // Each kept bucket's room now ends at `run[b]`.
        self.out.clear();
        let mut b = 0;
        let mut group: Vec<u32> = Vec::new();
        for target in (0..n).step_by(step) {
            let fresh = self.counts[b + 1] as usize <= target || target == 0;
            while self.counts[b + 1] as usize <= target {
                b += 1;
            }
            let width = (self.counts[b + 1] - self.counts[b]) as usize;
            let end = self.run[b] as usize;
            let bucket = &mut self.packed_tmp[end - width..end];
            if fresh {
                bucket.sort_unstable();
            }
            let q = target - self.counts[b] as usize;
            self.out.push(pick(bucket, q, 32, &mut group, &key));
        }
        false
    }

    /// The selection over `n` rows whose packed words `at(i)` hold each row's `bits`-bit
    /// order-preserving prefix code above its index: buckets on the code's top bits, and a
    /// sort of only the buckets holding a kept position.
    fn select_packed<'k>(
        &mut self,
        n: usize,
        step: usize,
        bits: u32,
        at: impl Fn(usize) -> u64,
        key: impl Fn(usize) -> &'k [u8],
    ) {
        let idx_bits = index_bits(n);
        // Buckets of about 32 rows on the prefix's top bits.
        let d = (usize::BITS - (n / 32).leading_zeros())
            .clamp(1, 16)
            .min(bits);
        let shift = idx_bits + bits - d;
        let size = 1usize << d;
        self.counts.clear();
        self.counts.resize(size + 1, 0);
        for i in 0..n {
            self.counts[(at(i) >> shift) as usize + 1] += 1;
        }
        for b in 0..size {
            self.counts[b + 1] += self.counts[b];
        }
        // `counts[b]` is now bucket b's first position; scatter with a moving copy.
        self.run.clear();
        self.run.extend_from_slice(&self.counts[..size]);
        self.packed_tmp.clear();
        self.packed_tmp.resize(n, 0);
        for i in 0..n {
            let x = at(i);
            let b = (x >> shift) as usize;
            self.packed_tmp[self.run[b] as usize] = x;
            self.run[b] += 1;
        }
        self.out.clear();
        let (mut b, mut sorted) = (0, usize::MAX);
        let mut group: Vec<u32> = Vec::new();
        for target in (0..n).step_by(step) {
            while self.counts[b + 1] as usize <= target {
                b += 1;
            }
            let (lo, hi) = (self.counts[b] as usize, self.counts[b + 1] as usize);
            let bucket = &mut self.packed_tmp[lo..hi];
            if sorted != b {
                bucket.sort_unstable();
                sorted = b;
            }
            self.out
                .push(pick(bucket, target - lo, idx_bits, &mut group, &key));
        }
    }
}

/// The row at position `q` of a sorted `bucket` of packed words (a code above `idx_bits` of
/// row index): rows sharing its code are ordered by their whole keys (`group`: a scratch).
fn pick<'k>(
    bucket: &[u64],
    q: usize,
    idx_bits: u32,
    group: &mut Vec<u32>,
    key: &impl Fn(usize) -> &'k [u8],
) -> u32 {
    let mask = (1u64 << idx_bits) - 1;
    let g = bucket[q] >> idx_bits;
    let g0 = bucket[..q]
        .iter()
        .rposition(|&x| x >> idx_bits != g)
        .map_or(0, |i| i + 1);
    let g1 = q + bucket[q..]
        .iter()
        .position(|&x| x >> idx_bits != g)
        .unwrap_or(bucket.len() - q);
    if g1 - g0 == 1 {
        return (bucket[q] & mask) as u32;
    }
    group.clear();
    group.extend(bucket[g0..g1].iter().map(|&x| (x & mask) as u32));
    group.sort_unstable_by(|&a, &c| key(a as usize).cmp(key(c as usize)));
    group[q - g0]
}

/// Below this many rows [`SortScratch::select_every`] sorts them all.
const SELECT_MIN: usize = 4096;

/// The least and greatest of some codes (`lo > hi`: none yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CodeBounds {
    pub lo: u32,
    pub hi: u32,
}

impl Default for CodeBounds {
    fn default() -> CodeBounds {
        CodeBounds {
            lo: u32::MAX,
            hi: 0,
        }
    }
}

impl CodeBounds {
    /// Widens them to take `c`.
    #[inline(always)]
    pub(crate) fn add(&mut self, c: u32) {
        self.lo = self.lo.min(c);
        self.hi = self.hi.max(c);
    }
}

/// Bits a row index below `n` needs (at least 1).
fn index_bits(n: usize) -> u32 {
    64 - (n.max(2) as u64 - 1).leading_zeros()
}

/// Passes the [`hex_digits`] value of each `len`-byte key laid end to end in `keys` to `push`;
/// false (having stopped there) at the first key that does not open with 8 hex digits.
pub(crate) fn push_codes(keys: &[u8], len: usize, mut push: impl FnMut(u32)) -> bool {
    if len < 8 {
        return keys.is_empty();
    }
    for k in keys.chunks_exact(len) {
        let (c, hex) = hex_digits(prefix8(k));
        if !hex {
            return false;
        }
        push(c as u32);
    }
    true
}

/// Keys of one length kept in chunks of `per_chunk` rows, every chunk full but the last
/// (a memstore's, `chunks.rs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct FixedKeys<'a> {
    pub(crate) chunks: ChunksRef<'a, u8>,
    pub(crate) len: usize,
    pub(crate) per_chunk: usize,
}

impl<'a> FixedKeys<'a> {
    /// Keys laid end to end in one buffer.
    #[cfg(test)]
    pub(crate) fn flat(arena: &'a [u8], len: usize) -> FixedKeys<'a> {
        FixedKeys {
            chunks: ChunksRef::flat(arena),
            len,
            per_chunk: usize::MAX,
        }
    }

    /// Rows held.
    pub(crate) fn rows(&self) -> usize {
        self.chunks.len().checked_div(self.len).unwrap_or(0)
    }

    /// The keys of rows `from..`, as runs of whole keys laid end to end (one per chunk).
    pub(crate) fn runs_from(&self, from: usize) -> impl Iterator<Item = &'a [u8]> + use<'a> {
        let (first, skip) = (from / self.per_chunk, from % self.per_chunk * self.len);
        self.chunks
            .iter()
            .skip(first)
            .enumerate()
            .map(move |(j, c)| if j == 0 { &c[skip.min(c.len())..] } else { c })
    }
}

/// Keeps `v[0]`, `v[step]`, `v[2·step]`, ….
pub(crate) fn keep_every(v: &mut Vec<u32>, step: usize) {
    if step > 1 {
        let kept = v.len().div_ceil(step);
        for j in 1..kept {
            v[j] = v[j * step];
        }
        v.truncate(kept);
    }
}

/// Appends the rows of the `len` sorted elements `at(i)` ((group, row), groups ascending; rows
/// of one group share their 8-byte prefix) to `out` in key order, equal keys once: a full
/// compare only inside groups.
#[inline(always)]
fn dedup_by<'k>(
    len: usize,
    at: impl Fn(usize) -> (u64, u32),
    run: &mut Vec<u32>,
    out: &mut Vec<u32>,
    key: &impl Fn(usize) -> &'k [u8],
) {
    out.reserve(len);
    let mut i = 0;
    while i < len {
        let (g, row) = at(i);
        let mut j = i + 1;
        while j < len && at(j).0 == g {
            j += 1;
        }
        if j == i + 1 {
            out.push(row);
        } else {
            // Rows sharing their 8-byte prefix: sort and drop repeats by full compares.
            run.clear();
            run.extend((i..j).map(|x| at(x).1));
            run.sort_unstable_by(|&a, &b| key(a as usize).cmp(key(b as usize)));
            let mut last: Option<&[u8]> = None;
            for &r in run.iter() {
                let k = key(r as usize);
                if last != Some(k) {
                    out.push(r);
                    last = Some(k);
                }
            }
        }
        i = j;
    }
}

/// Digit width for `n` elements: 11 bits for large inputs, 8 below. A pass scatters to one
/// write position per digit value: 2^11 of them stay in L2 (2^16, as before, missed it on every
/// element: the scatter of 16-bit digits cost more than a third pass of 11-bit ones).
fn max_digit(n: usize) -> u32 {
    if n < 1 << 16 { 8 } else { 11 }
}

/// LSD radix sort of `v` on bits `lo..lo + bits` (the rest ignored; ties keep their order),
/// digits of equal width up to [`max_digit`]; a digit every element shares is skipped.
fn radix_u64(v: &mut Vec<u64>, tmp: &mut Vec<u64>, counts: &mut Vec<u32>, lo: u32, bits: u32) {
    if bits == 0 {
        return;
    }
    if v.len() < 256 {
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        v.sort_by_key(|&x| (x >> lo) & mask);
        return;
    }
    let passes = bits.div_ceil(max_digit(v.len()));
    let d = bits.div_ceil(passes);
    let size = 1usize << d;
    let mask = (size - 1) as u64;
    counts.clear();
    counts.resize(size * passes as usize, 0);
    for &x in v.iter() {
        for p in 0..passes as usize {
            counts[p * size + ((x >> (lo as usize + d as usize * p)) & mask) as usize] += 1;
        }
    }
    tmp.clear();
    tmp.resize(v.len(), 0);
    let n = v.len() as u32;
    for p in 0..passes as usize {
        let c = &mut counts[p * size..(p + 1) * size];
        if c.contains(&n) {
            continue;
        }
        prefix_sums(c);
        let shift = lo as usize + d as usize * p;
        for &x in v.iter() {
            let b = ((x >> shift) & mask) as usize;
            tmp[c[b] as usize] = x;
            c[b] += 1;
        }
        std::mem::swap(v, tmp);
    }
}

/// Turns digit counts into each digit's first output position.
fn prefix_sums(c: &mut [u32]) {
    let mut sum = 0u32;
    for x in c.iter_mut() {
        let k = *x;
        *x = sum;
        sum += k;
    }
}

/// Sorts by the `u64` (ties in any order), for prefixes that do not compress into one word
/// with the row index: LSD radix, skipping digits every element shares.
fn radix_wide(v: &mut Vec<(u64, u32)>, tmp: &mut Vec<(u64, u32)>, counts: &mut Vec<u32>) {
    if v.len() < 256 {
        v.sort_unstable_by_key(|&(p, _)| p);
        return;
    }
    let passes = 64usize.div_ceil(max_digit(v.len()) as usize);
    let d = 64usize.div_ceil(passes);
    let size = 1usize << d;
    let mask = (size - 1) as u64;
    counts.clear();
    counts.resize(size * passes, 0);
    for &(p, _) in v.iter() {
        for k in 0..passes {
            counts[k * size + ((p >> (d * k)) & mask) as usize] += 1;
        }
    }
    tmp.clear();
    tmp.resize(v.len(), (0, 0));
    let n = v.len() as u32;
    for k in 0..passes {
        let c = &mut counts[k * size..(k + 1) * size];
        if c.contains(&n) {
            continue;
        }
        prefix_sums(c);
        let shift = d * k;
        for &e in v.iter() {
            let b = ((e.0 >> shift) & mask) as usize;
            tmp[c[b] as usize] = e;
            c[b] += 1;
        }
        std::mem::swap(v, tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_unique(keys: &[Vec<u8>]) -> Vec<Vec<u8>> {
        let mut s = SortScratch::default();
        s.prefixes.extend(keys.iter().map(|k| prefix8(k)));
        s.sort_unique(|i| keys[i].as_slice());
        s.out.iter().map(|&i| keys[i as usize].clone()).collect()
    }

    fn reference(keys: &[Vec<u8>]) -> Vec<Vec<u8>> {
        let mut v = keys.to_vec();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn packed_wide_and_presorted_paths_match_a_full_sort() {
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        let mut next = || {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            rng >> 11
        };
        // Hex text prefixes (packed: 4 bits a byte), with duplicates and shared prefixes.
        let hex: Vec<Vec<u8>> = (0..70_000)
            .map(|i| {
                let h = format!("{:08x}", next() % 5_000_000).into_bytes();
                [h, (i as u64 % 50_000).to_be_bytes().to_vec()].concat()
            })
            .collect();
        assert_eq!(sorted_unique(&hex), reference(&hex));
        // Random binary prefixes (wide: 64 bits do not leave room for the index).
        let bin: Vec<Vec<u8>> = (0..3_000)
            .map(|_| (next() ^ (next() << 40)).to_be_bytes().to_vec())
            .collect();
        assert_eq!(sorted_unique(&bin), reference(&bin));
        // Already sorted, with runs sharing 8 bytes out of order inside.
        let mut seq: Vec<Vec<u8>> = (0u64..1_000).map(|i| i.to_be_bytes().to_vec()).collect();
        seq.push([7u64.to_be_bytes(), [2; 8]].concat().to_vec());
        seq.push([7u64.to_be_bytes(), [1; 8]].concat().to_vec());
        seq.sort_by_key(|k| prefix8(k));
        assert_eq!(sorted_unique(&seq), reference(&seq));
        // Small inputs, empty and short keys.
        let small: Vec<Vec<u8>> =
            vec![b"b".to_vec(), vec![], b"a".to_vec(), vec![], b"ab".to_vec()];
        assert_eq!(sorted_unique(&small), reference(&small));
        assert!(sorted_unique(&[]).is_empty());
    }

    /// `select_every` on distinct keys, as row indices, and the reference's every `step`-th;
    /// for keys of one length, `select_every_fixed` too: on every kernel set the CPU runs.
    fn check_select(keys: &[Vec<u8>], step: usize) {
        crate::kernel::for_each_runnable(|_| check_select_on(keys, step));
    }

    fn check_select_on(keys: &[Vec<u8>], step: usize) {
        let mut s = SortScratch::default();
        s.prefixes.extend(keys.iter().map(|k| prefix8(k)));
        s.select_every(step, |i| keys[i].as_slice());
        let got: Vec<Vec<u8>> = s.out.iter().map(|&i| keys[i as usize].clone()).collect();
        let want: Vec<Vec<u8>> = reference(keys).into_iter().step_by(step.max(1)).collect();
        assert_eq!(got, want, "step {step}, {} keys", keys.len());
        if let Some(len) = keys.first().map(Vec::len)
            && keys.iter().all(|k| k.len() == len)
        {
            let arena = keys.concat();
            let mut s = SortScratch::default();
            let flat = FixedKeys::flat(&arena, len);
            s.select_every_fixed(flat, None, step, |i| keys[i].as_slice());
            let got: Vec<Vec<u8>> = s.out.iter().map(|&i| keys[i as usize].clone()).collect();
            assert_eq!(got, want, "fixed, step {step}, {} keys", keys.len());
            // The codes a memstore keeps when every key opens with 8 hex digits.
            let codes: Option<Vec<u32>> = keys
                .iter()
                .map(|k| {
                    let (c, hex) = hex_digits(prefix8(k));
                    (len >= 8 && hex).then_some(c as u32)
                })
                .collect();
            if let Some(codes) = codes {
                // Every row's code, or the first rows' (the rest read from the arena).
                for m in [codes.len(), codes.len() / 3] {
                    // Their bounds, as a memstore keeps them.
                    let mut bounds = CodeBounds::default();
                    codes[..m].iter().for_each(|&c| bounds.add(c));
                    let mut s = SortScratch::default();
                    let kept = ChunksRef::flat(&codes[..m]);
                    s.select_every_fixed(flat, Some((kept, bounds)), step, |i| keys[i].as_slice());
                    let got: Vec<Vec<u8>> =
                        s.out.iter().map(|&i| keys[i as usize].clone()).collect();
                    assert_eq!(got, want, "coded {m}, step {step}, {} keys", keys.len());
                    // The same rows and codes in chunks of 1,000 rows, as a memstore keeps them.
                    let mut chunks: Vec<Vec<u8>> =
                        arena.chunks(1000 * len).map(<[u8]>::to_vec).collect();
                    let tail = chunks.pop().unwrap_or_default();
                    let mut kept: Vec<Vec<u32>> =
                        codes[..m].chunks(1000).map(<[u32]>::to_vec).collect();
                    let kept_tail = kept.pop().unwrap_or_default();
                    let split = FixedKeys {
                        chunks: ChunksRef {
                            full: &chunks,
                            tail: &tail,
                        },
                        len,
                        per_chunk: 1000,
                    };
                    let kept = ChunksRef {
                        full: &kept,
                        tail: &kept_tail,
                    };
                    let mut s = SortScratch::default();
                    s.select_every_fixed(split, Some((kept, bounds)), step, |i| keys[i].as_slice());
                    let got: Vec<Vec<u8>> =
                        s.out.iter().map(|&i| keys[i as usize].clone()).collect();
                    assert_eq!(got, want, "chunked, coded {m}, step {step}");
                }
            }
        }
    }

    #[test]
    fn selecting_every_nth_of_distinct_keys_matches_a_full_sort() {
        let mut rng = 0x0BAD_5EED_1234_0001u64;
        let mut next = || {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            rng >> 11
        };
        // Hashed keys: 8 hex characters, then the id (prefixes collide now and then).
        let hashed: Vec<Vec<u8>> = (0u64..131_072)
            .map(|i| {
                [
                    format!("{:08x}", next() as u32).into_bytes(),
                    i.to_be_bytes().to_vec(),
                ]
                .concat()
            })
            .collect();
        for step in [1, 2, 64, 128, 1000, 200_000] {
            check_select(&hashed, step);
        }
        // One key whose prefix is not hex: the rank path, with the same selection.
        let mut mixed = hashed[..10_000].to_vec();
        mixed[4_321][3] = b'G';
        check_select(&mixed, 64);
        // Few prefix values: large groups of equal prefixes, ordered by the whole key.
        let grouped: Vec<Vec<u8>> = (0u64..20_000)
            .map(|i| {
                [
                    format!("{:08x}", next() % 7).into_bytes(),
                    (next() ^ i << 40).to_be_bytes().to_vec(),
                ]
                .concat()
            })
            .collect();
        let mut grouped = grouped;
        grouped.sort();
        grouped.dedup();
        let mut shuffled = grouped.clone();
        shuffled.reverse();
        shuffled.swap(3, 9_000);
        check_select(&shuffled, 100);
        // Random binary prefixes (no room for the index: the full sort), short and empty keys.
        let bin: Vec<Vec<u8>> = (0u64..5_000)
            .map(|i| {
                [
                    (next() ^ (next() << 40)).to_be_bytes().to_vec(),
                    i.to_be_bytes().to_vec(),
                ]
                .concat()
            })
            .collect();
        check_select(&bin, 7);
        check_select(&[b"b".to_vec(), vec![], b"a".to_vec(), b"ab".to_vec()], 2);
        check_select(&[], 3);
        // Sorted already: one pass.
        let seq: Vec<Vec<u8>> = (0u64..10_000).map(|i| i.to_be_bytes().to_vec()).collect();
        check_select(&seq, 64);
    }

    proptest::proptest! {
        /// Every `step`-th of distinct keys is the full sort's, whatever the keys and order.
        #[test]
        fn select_every_equals_every_nth_of_the_sort(
            keys in proptest::collection::btree_set(
                proptest::collection::vec(proptest::sample::select(vec![0u8, 1, 7, 0x30, 0x39, 0x61, 0x66, 0xff]), 0..12),
                0..6000,
            ),
            step in 1usize..300,
            seed in proptest::prelude::any::<u64>(),
        ) {
            // Distinct keys in a seeded order.
            let mut keys: Vec<Vec<u8>> = keys.into_iter().collect();
            let mut x = seed | 1;
            for i in (1..keys.len()).rev() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                keys.swap(i, (x % (i as u64 + 1)) as usize);
            }
            check_select(&keys, step);
        }

        /// Keys of one length opening with hex digits (few values, so that prefixes collide),
        /// now and then one that is not hex: the fixed-length selection is the full sort's.
        #[test]
        fn select_every_fixed_equals_every_nth_of_the_sort(
            heads in proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(b"019aef".to_vec()), 8),
                4096..5000,
            ),
            tails in proptest::collection::vec(proptest::prelude::any::<u32>(), 5000),
            odd in proptest::option::of((0usize..4096, 0usize..8, proptest::prelude::any::<u8>())),
            step in 2usize..200,
        ) {
            let mut keys: Vec<Vec<u8>> = heads
                .iter()
                .zip(&tails)
                .map(|(h, t)| [h.as_slice(), &t.to_be_bytes()].concat())
                .collect();
            if let Some((i, j, b)) = odd {
                keys[i][j] = b;
            }
            let mut seen = std::collections::HashSet::new();
            keys.retain(|k| seen.insert(k.clone()));
            check_select(&keys, step);
        }

        /// The sort equals sort + dedup for any keys (few distinct bytes, so that prefixes
        /// collide and compress), in any order.
        #[test]
        fn sort_unique_equals_sort_and_dedup(
            keys in proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(vec![0u8, 1, 7, 0x30, 0x66, 0xff]), 0..12),
                0..600,
            ),
        ) {
            proptest::prop_assert_eq!(sorted_unique(&keys), reference(&keys));
        }
    }
}
