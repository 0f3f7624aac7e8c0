//! Sampled pre-split: split keys at the quantiles of a sample of the generator's own keys (the
//! idea of Hadoop's `InputSampler` + `TotalOrderPartitioner`, applied to a rowkey generator).
//!
//! * **Sample.** The planned ids `first_id .. first_id + count` are cut into M consecutive blocks
//!   of ⌊count/M⌋ or ⌈count/M⌉ ids (block b = [first + ⌊b·count/M⌋, first + ⌊(b+1)·count/M⌋)), and
//!   one id of each block is sampled: drawn uniformly in the block from the scenario seed
//!   (stratified random sampling), or its middle id (⌊(lo + hi)/2⌋) without a seed. A fixed
//!   offset aliases with keys periodic in the id (`id % 20` with blocks of 100 ids would see one
//!   partition only), hence the draw. When M > count every id is sampled (M = count).
//! * **Sort** the M keys unsigned-lexicographically (HBase's `Bytes.BYTES_COMPARATOR`).
//! * **Pick** the keys at sorted index ⌊i·M/N⌋ for i = 1..N−1 (exact integer arithmetic).
//! * **Check.** Two equal picks mean the generator has too few distinct keys (or keys too
//!   clustered) for N regions: that is an error, not a silently short or uneven split.

use super::explicit::show_key;
use super::hexstring::too_many;
use super::{MAX_PRESPLIT_REGIONS, check_region_count};
use crate::diag::InputError;
use crate::keygen::MAX_ROW_LENGTH;
use crate::keygen::batch::KeyBatch;

/// Stream of the stratified sample's draws (apart from the generators' streams).
const SAMPLE_STREAM: u64 = 0x5A3B1E;

/// The most keys [`sampled`](super::sampled) will hold in memory.
pub const MAX_SAMPLES: u64 = 20_000_000;

/// One sampled key: its first 8 bytes as a big-endian number (zero-padded: orders like the bytes),
/// then where the whole key lies in the arena.
#[derive(Clone, Copy)]
struct Entry {
    prefix: u64,
    offset: usize,
    len: u32,
}

fn prefix_of(key: &[u8]) -> u64 {
    let mut p = [0u8; 8];
    let n = key.len().min(8);
    p[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(p)
}

/// A sorted sample of a generator's keys, held in one arena (no allocation per key).
pub(crate) struct Sample {
    arena: Vec<u8>,
    entries: Vec<Entry>,
}

impl Sample {
    /// Samples one id of each of `min(samples, count)` equal blocks of `ids`, sorted as bytes:
    /// with `Some(seed)` drawn uniformly from the block (stratified random sampling), else its
    /// middle id. A fixed offset aliases with keys periodic in the id (`id % 20` with blocks of
    /// 100 ids sees one partition only). Errors on an empty or overflowing id range, `samples`
    /// over [`MAX_SAMPLES`], or a key over HBase's row limit.
    pub(crate) fn collect_with(
        generator: &dyn KeyBatch,
        ids: (u64, u64),
        samples: u64,
        jitter: Option<u64>,
    ) -> Result<Sample, InputError> {
        let (first_id, count) = ids;
        if count == 0 {
            return Err(InputError::new("there are no row ids to sample keys from")
                .expected("a workload that writes at least one row"));
        }
        if first_id.checked_add(count - 1).is_none() {
            return Err(InputError::new(format!(
                "the ids {first_id}.. ({count} rows) run past the largest id {}",
                u64::MAX
            )));
        }
        if samples > MAX_SAMPLES {
            return Err(InputError::new(format!(
                "{samples} samples is more than hbase-emu keeps in memory"
            ))
            .field("samples")
            .expected(format!("at most {MAX_SAMPLES} samples")));
        }
        let m = samples.min(count);
        let mut arena: Vec<u8> = Vec::with_capacity((m as usize).saturating_mul(16));
        let mut entries: Vec<Entry> = Vec::with_capacity(m as usize);
        let (c, mm) = (u128::from(count), u128::from(m));
        // Ids in batches, so generators that hash several ids at once (SIMD MD5) do.
        const BATCH: u128 = 4096;
        let mut ids = Vec::with_capacity(BATCH.min(mm) as usize);
        let mut too_long: Option<(u64, usize)> = None;
        let mut b0 = 0;
        while b0 < mm && too_long.is_none() {
            ids.clear();
            for b in b0..(b0 + BATCH).min(mm) {
                let lo = b * c / mm;
                let hi = (b + 1) * c / mm;
                let offset = match jitter {
                    // hi > lo: m ≤ count, so every block holds at least one id.
                    Some(seed) => {
                        let span = (hi - lo) as u64;
                        lo as u64
                            + crate::keygen::rng::below(
                                crate::keygen::rng::draw(seed, SAMPLE_STREAM, b as u64),
                                span,
                            )
                    }
                    None => ((lo + hi) / 2) as u64,
                };
                ids.push(first_id + offset); // < first_id + count: no overflow
            }
            b0 += BATCH;
            generator.keys_of(&ids, &mut |id, key| {
                if too_long.is_some() {
                    return;
                }
                if key.len() > MAX_ROW_LENGTH {
                    too_long = Some((id, key.len()));
                    return;
                }
                entries.push(Entry {
                    prefix: prefix_of(key),
                    offset: arena.len(),
                    len: key.len() as u32,
                });
                arena.extend_from_slice(key);
            });
        }
        if let Some((id, len)) = too_long {
            return Err(InputError::new(format!(
                "the generator's key for row id {id} is {len} bytes; HBase rows are at most \
                 {MAX_ROW_LENGTH} bytes"
            )));
        }
        let mut sample = Sample { arena, entries };
        let mut entries = std::mem::take(&mut sample.entries);
        entries.sort_unstable_by(|x, y| {
            x.prefix
                .cmp(&y.prefix)
                .then_with(|| sample.entry_key(x).cmp(sample.entry_key(y)))
        });
        sample.entries = entries;
        Ok(sample)
    }

    fn entry_key(&self, e: &Entry) -> &[u8] {
        &self.arena[e.offset..e.offset + e.len as usize]
    }

    /// Number of sampled keys.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The `i`-th smallest sampled key.
    pub(crate) fn key(&self, i: usize) -> &[u8] {
        self.entry_key(&self.entries[i])
    }

    /// Total bytes of the sampled keys (for the mean key length).
    pub(crate) fn key_bytes(&self) -> usize {
        self.arena.len()
    }
}

pub(crate) fn sampled_split(
    generator: &dyn KeyBatch,
    ids: (u64, u64),
    samples: u64,
    regions: u64,
    seed: Option<u64>,
) -> Result<Vec<Vec<u8>>, InputError> {
    check_region_count(regions, "sampled")?;
    if regions > MAX_PRESPLIT_REGIONS {
        return Err(too_many(regions));
    }
    let (_, count) = ids;
    if samples < regions {
        return Err(InputError::new(format!(
            "{samples} samples cannot place split keys for {regions} regions"
        ))
        .field("samples")
        .expected(format!(
            "at least {regions} samples (many more give better quantiles)"
        )));
    }
    if count > 0 && samples.min(count) < regions && samples <= MAX_SAMPLES {
        return Err(InputError::new(format!(
            "the workload writes only {count} rows, too few to place {regions} regions"
        ))
        .expected(format!("at least {regions} rows, or fewer regions")));
    }
    let sample = Sample::collect_with(generator, ids, samples, seed)?;
    let mm = sample.len() as u128;
    let entries = &sample.entries;
    let key = |e: &Entry| sample.entry_key(e);

    // Pick the quantiles.
    let n = u128::from(regions);
    let picks: Vec<usize> = (1..n).map(|i| (i * mm / n) as usize).collect();
    for w in picks.windows(2) {
        if key(&entries[w[0]]) == key(&entries[w[1]]) {
            let distinct = 1 + entries
                .windows(2)
                .filter(|p| key(&p[0]) != key(&p[1]))
                .count();
            return Err(InputError::new(format!(
                "the generator has too few distinct keys for {regions} regions: the sampled \
                 quantiles repeat `{}` ({distinct} distinct keys among {} samples)",
                show_key(key(&entries[w[0]])),
                sample.len()
            ))
            .expected(format!(
                "fewer regions, or a rowkey design with many distinct, well-spread keys \
                 (each of the {regions} regions needs its own range)"
            )));
        }
    }
    let mut out = Vec::with_capacity(picks.len());
    for &p in &picks {
        let k = key(&entries[p]);
        if k.is_empty() {
            return Err(InputError::new(
                "the generator produced an empty key at a sampled quantile; HBase refuses an \
                 empty split key",
            )
            .expected("non-empty row keys"));
        }
        out.push(k.to_vec());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::RowKeyGenerator;

    /// Big-endian u64 of the id (what a sequential generator writes).
    struct Seq;
    impl RowKeyGenerator for Seq {
        fn key_into(&self, id: u64, out: &mut Vec<u8>) {
            out.extend_from_slice(&id.to_be_bytes());
        }
        fn describe(&self) -> String {
            "sequential".into()
        }
    }
    impl KeyBatch for Seq {}

    /// Reversed decimal id, keys in a very different order from the ids.
    struct Reversed;
    impl RowKeyGenerator for Reversed {
        fn key_into(&self, id: u64, out: &mut Vec<u8>) {
            out.extend(format!("{id:06}").bytes().rev());
        }
        fn describe(&self) -> String {
            "reversed".into()
        }
    }
    impl KeyBatch for Reversed {}

    /// Only `k` distinct keys.
    struct Few(u64);
    impl RowKeyGenerator for Few {
        fn key_into(&self, id: u64, out: &mut Vec<u8>) {
            out.extend_from_slice(format!("k{}", id % self.0).as_bytes());
        }
        fn describe(&self) -> String {
            "few".into()
        }
    }
    impl KeyBatch for Few {}

    #[test]
    fn sequential_keys_give_exact_quantiles() {
        // 1000 ids from 0, 100 samples: blocks of 10, middle ids 5, 15, …, 995.
        // 4 regions: sorted indices 25, 50, 75 → ids 255, 505, 755.
        let keys = sampled_split(&Seq, (0, 1000), 100, 4, None).unwrap();
        let ids: Vec<u64> = keys
            .iter()
            .map(|k| u64::from_be_bytes(k[..].try_into().unwrap()))
            .collect();
        assert_eq!(ids, [255, 505, 755]);
        // Every id sampled when samples ≥ rows: 1000 + ⌊i·10/5⌋ = 1002, 1004, 1006, 1008.
        let keys = sampled_split(&Seq, (1000, 10), 1_000_000, 5, None).unwrap();
        let ids: Vec<u64> = keys
            .iter()
            .map(|k| u64::from_be_bytes(k[..].try_into().unwrap()))
            .collect();
        assert_eq!(ids, [1002, 1004, 1006, 1008]);
    }

    #[test]
    fn keys_are_sorted_as_bytes_not_as_ids() {
        let keys = sampled_split(&Reversed, (0, 1000), 1000, 10, None).unwrap();
        assert_eq!(keys.len(), 9);
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        // Id abc is key "cba000": 100 keys start with each units digit, so index 100·i is the
        // smallest key starting with digit i: "i00000" (id i).
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(*k, format!("{}00000", i + 1).into_bytes());
        }
    }

    #[test]
    fn low_cardinality_is_an_error() {
        let e = sampled_split(&Few(3), (0, 10_000), 1000, 8, None).unwrap_err();
        assert!(e.problem.contains("too few distinct keys"), "{e}");
        assert!(
            e.problem.contains("3 distinct keys among 1000 samples"),
            "{e}"
        );
        // Enough distinct keys: fine.
        assert_eq!(
            sampled_split(&Few(3), (0, 10_000), 1000, 3, None)
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn bad_arguments() {
        assert!(sampled_split(&Seq, (0, 1000), 3, 4, None).is_err());
        assert!(sampled_split(&Seq, (0, 3), 100, 4, None).is_err());
        assert!(sampled_split(&Seq, (0, 0), 100, 4, None).is_err());
        assert!(sampled_split(&Seq, (0, 100), 100, 1, None).is_err());
        assert!(sampled_split(&Seq, (u64::MAX, 2), 100, 2, None).is_err());
        assert!(sampled_split(&Seq, (u64::MAX - 9, 10), 100, 2, None).is_ok());
    }

    #[test]
    fn a_hundred_thousand_samples() {
        let keys = sampled_split(&Reversed, (0, 1_000_000), 100_000, 100, None).unwrap();
        assert_eq!(keys.len(), 99);
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }
}
