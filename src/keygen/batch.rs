//! Keys many at a time: the batch paths the key feed, the presplit sampler and the scan report
//! take, so that no row costs a call through `dyn` or an allocation of its own.
//!
//! Internal on purpose: a generator author writes [`RowKeyGenerator::key_into`] and gets the
//! per-key defaults here through [`PerKey`]; the built-in kinds whose keys are cheaper made
//! together (a clock stepped once per chunk, MD5 hashed 8 or 16 lanes at a time) implement
//! [`KeyBatch`] themselves.

use std::ops::Range;

use super::{MAX_ROW_LENGTH, RowKeyGenerator, ScanLocality};

/// A generator's batch paths. Every method has a default built from `key_into`; overrides
/// must give the same keys (`testutil::assert_keys_into_consistent` checks them).
pub(crate) trait KeyBatch: RowKeyGenerator {
    /// Visits the keys of consecutive ids.
    fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        let mut buf = Vec::with_capacity(64);
        for id in ids {
            buf.clear();
            self.key_into(id, &mut buf);
            f(id, &buf);
        }
    }

    /// Visits the keys of `ids` (any ids, in the given order: a scaled run's sampled ids).
    fn keys_of(&self, ids: &[u64], f: &mut dyn FnMut(u64, &[u8])) {
        let mut buf = Vec::with_capacity(64);
        for &id in ids {
            buf.clear();
            self.key_into(id, &mut buf);
            f(id, &buf);
        }
    }

    /// Appends the keys of consecutive ids to `out` (how the key feed stores an exact run's
    /// rows). Overridden where the keys can be written in place without a call per key.
    fn keys_into_arena(&self, ids: Range<u64>, out: &mut KeyArena) {
        self.keys_into(ids, &mut |id, key| out.push(id, key));
    }

    /// Where every key is `hashed::hashed_key(code, id)`: appends the codes of consecutive ids
    /// to `codes` and returns true (the key feed's workers hand over 4 bytes a row, the keys
    /// are made on the reading thread). False, nothing written, for every other generator.
    fn codes_into(&self, _ids: Range<u64>, _codes: &mut Vec<u32>) -> bool {
        false
    }
}

/// A kind without batch paths of its own, boxed for `build` with the per-key defaults.
pub(crate) fn per_key(g: impl RowKeyGenerator + 'static) -> Box<dyn KeyBatch> {
    Box::new(PerKey(g))
}

/// A generator that has only `key_into`: its batches are the per-key defaults. Generic over
/// the generator, so a built-in kind's `key_into` is still called statically and inlined.
pub(crate) struct PerKey<G>(pub G);

impl<G: RowKeyGenerator> RowKeyGenerator for PerKey<G> {
    #[inline]
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        self.0.key_into(id, out);
    }
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn distinct_keys(&self) -> bool {
        self.0.distinct_keys()
    }
    fn scan_locality(&self) -> ScanLocality {
        self.0.scan_locality()
    }
}

impl<G: RowKeyGenerator> KeyBatch for PerKey<G> {}

/// Keys back to back, each one's end, and the first id whose key HBase would reject (empty or
/// longer than [`MAX_ROW_LENGTH`]): what [`KeyBatch::keys_into_arena`] writes.
#[derive(Debug, Default)]
pub(crate) struct KeyArena {
    /// The keys, back to back.
    pub arena: Vec<u8>,
    /// Each key's end in `arena`.
    pub ends: Vec<u32>,
    /// The value of each key's 8 leading hex digits, where the generator wrote them from a
    /// number it had (`hashed`'s digest head), so that nothing reads the digits back. Valid
    /// only while as long as `ends`.
    pub codes: Vec<u32>,
    /// The first id pushed with a key HBase rejects.
    pub bad: Option<u64>,
}

impl KeyArena {
    /// Empties it, keeping its buffers.
    pub fn clear(&mut self) {
        self.arena.clear();
        self.ends.clear();
        self.codes.clear();
        self.bad = None;
    }

    /// Appends the key of `id`, remembering `id` if HBase would reject the key.
    #[inline]
    pub fn push(&mut self, id: u64, key: &[u8]) {
        if key.is_empty() || key.len() > MAX_ROW_LENGTH {
            self.bad.get_or_insert(id);
        }
        push_key(&mut self.arena, key);
        self.ends.push(self.arena.len() as u32);
    }
}

/// Appends `key` to `arena`. The common fixed key lengths get a constant-size copy the
/// compiler inlines: a variable-length copy is a call into libc's memmove on every row.
#[inline]
pub(crate) fn push_key(arena: &mut Vec<u8>, key: &[u8]) {
    if let Ok(k) = <&[u8; 8]>::try_from(key) {
        arena.extend_from_slice(k);
    } else if let Ok(k) = <&[u8; 16]>::try_from(key) {
        arena.extend_from_slice(k);
    } else {
        arena.extend_from_slice(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row `id`'s key is its decimal digits; id 3's is empty (HBase rejects it).
    struct Digits;

    impl RowKeyGenerator for Digits {
        fn key_into(&self, id: u64, out: &mut Vec<u8>) {
            if id != 3 {
                out.extend_from_slice(id.to_string().as_bytes());
            }
        }
        fn describe(&self) -> String {
            "digits".into()
        }
        fn distinct_keys(&self) -> bool {
            true
        }
    }

    #[test]
    fn per_key_defaults_give_the_keys_key_into_gives() {
        let g = PerKey(Digits);
        assert_eq!(g.describe(), "digits");
        assert!(g.distinct_keys());
        assert_eq!(g.scan_locality(), ScanLocality::Scattered);
        let mut seen = Vec::new();
        g.keys_into(8..12, &mut |id, k| seen.push((id, k.to_vec())));
        g.keys_of(&[100, 5], &mut |id, k| seen.push((id, k.to_vec())));
        let want: Vec<(u64, Vec<u8>)> = [8u64, 9, 10, 11, 100, 5]
            .iter()
            .map(|&id| (id, id.to_string().into_bytes()))
            .collect();
        assert_eq!(seen, want);
        assert!(!g.codes_into(0..4, &mut Vec::new()));
    }

    #[test]
    fn the_arena_keeps_keys_back_to_back_and_the_first_rejected_id() {
        let mut a = KeyArena::default();
        PerKey(Digits).keys_into_arena(0..12, &mut a);
        assert_eq!(a.ends.len(), 12);
        assert_eq!(a.bad, Some(3));
        assert_eq!(&a.arena[..a.ends[2] as usize], b"012");
        assert_eq!(a.ends[3], a.ends[2], "id 3's key is empty");
        assert_eq!(&a.arena[a.ends[9] as usize..], b"1011");
        a.clear();
        assert!(a.arena.is_empty() && a.ends.is_empty() && a.bad.is_none());
    }
}
