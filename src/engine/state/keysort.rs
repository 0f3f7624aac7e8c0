//! A flush's key sort: a memstore's row keys in HBase's order (unsigned lexicographic), equal
//! keys once. Linear in the rows for the common shapes: keys that arrive sorted cost one pass,
//! and other keys are radix-sorted on their 8-byte prefix, compressed to the bits that vary.

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
    use crate::engine::state::routing::prefix8;

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

    proptest::proptest! {
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
