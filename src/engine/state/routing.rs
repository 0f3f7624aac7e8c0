//! The routing table: live regions by start key, as `hbase:meta` maps rows to regions, with the
//! caches the write path needs to find a row's region in a few integer compares.

/// The first 8 bytes of `key` as a big-endian integer, zero-padded (orders like the key except
/// among keys sharing those bytes).
#[inline]
pub(crate) fn prefix8(key: &[u8]) -> u64 {
    if let Some(head) = key.first_chunk::<8>() {
        // The common case as one load (a variable-length copy calls libc's memcpy).
        return u64::from_be_bytes(*head);
    }
    let mut b = [0u8; 8];
    for (d, s) in b.iter_mut().zip(key) {
        *d = *s;
    }
    u64::from_be_bytes(b)
}

/// Slots of the per-prefix cache.
const SLOTS: usize = 64;

/// Live regions in key order. Entry `i` covers `[start_i, start_{i+1})`, the last one up to the
/// end of the table: the table tiles the key space (checked by `State::invariants`).
#[derive(Debug, Clone)]
pub(crate) struct RoutingTable {
    /// (start key, region id) in key order.
    entries: Vec<(Vec<u8>, usize)>,
    /// `prefix8` of each start key: integer compares first.
    prefixes: Vec<u64>,
    /// Entry last found, and the prefixes strictly inside `(lo, hi)` that certainly lie in it:
    /// one integer compare per bound instead of two key compares per row.
    last: Option<usize>,
    /// The region id of entry `last` (the fast path returns it without reading the entry).
    last_id: usize,
    lo: u64,
    hi: u64,
    /// Entry last found for each key prefix mod 64: keys that alternate between a few prefixes
    /// (partition keys) miss a one-entry cache on every row.
    slots: [usize; SLOTS],
}

impl RoutingTable {
    pub(crate) fn new() -> RoutingTable {
        RoutingTable {
            entries: Vec::new(),
            prefixes: Vec::new(),
            last: None,
            last_id: usize::MAX,
            lo: u64::MAX,
            hi: 0,
            slots: [usize::MAX; SLOTS],
        }
    }

    /// Appends a region starting at `start` (the table is built in key order).
    pub(crate) fn push(&mut self, start: Vec<u8>, id: usize) {
        self.prefixes.push(prefix8(&start));
        self.entries.push((start, id));
        self.forget();
    }

    /// Live regions.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Region ids in key order.
    pub(crate) fn ids(&self) -> impl Iterator<Item = usize> + '_ {
        self.entries.iter().map(|&(_, id)| id)
    }

    /// (start key, region id) in key order.
    pub(crate) fn entries(&self) -> &[(Vec<u8>, usize)] {
        &self.entries
    }

    /// Position of region `id` in key order.
    pub(crate) fn position(&self, id: usize) -> Option<usize> {
        self.entries.iter().position(|&(_, r)| r == id)
    }

    /// The region at position `pos` in key order.
    pub(crate) fn id_at(&self, pos: usize) -> Option<usize> {
        self.entries.get(pos).map(|&(_, id)| id)
    }

    /// A split: `parent`'s entry becomes daughter `a`, and `b` starts at `row` after it.
    pub(crate) fn split(&mut self, parent: usize, a: usize, row: Vec<u8>, b: usize) {
        let pos = self.position(parent).expect("parent is routed");
        self.entries[pos].1 = a;
        self.prefixes.insert(pos + 1, prefix8(&row));
        self.entries.insert(pos + 1, (row, b));
        self.forget();
    }

    /// A merge: the `count` regions from `first`'s entry on become `merged`.
    pub(crate) fn merge(&mut self, first: usize, count: usize, merged: usize) {
        let pos = self.position(first).expect("merged region is routed");
        self.entries[pos].1 = merged;
        self.entries.drain(pos + 1..pos + count);
        self.prefixes.drain(pos + 1..pos + count);
        self.forget();
    }

    /// Drops the caches (entries moved).
    fn forget(&mut self) {
        self.last = None;
        self.lo = u64::MAX;
        self.hi = 0;
        self.slots = [usize::MAX; SLOTS];
    }

    /// Entry `i` holds `key`.
    fn holds(&self, i: usize, key: &[u8]) -> bool {
        self.entries[i].0.as_slice() <= key
            && self
                .entries
                .get(i + 1)
                .is_none_or(|(next, _)| key < next.as_slice())
    }

    /// The live region holding `key`, whose `prefix8` is `p`, through the caches.
    #[inline]
    pub(crate) fn route(&mut self, key: &[u8], p: u64) -> usize {
        if p > self.lo && p < self.hi {
            return self.last_id;
        }
        self.route_slow(key, p)
    }

    #[cold]
    #[inline(never)]
    fn route_slow(&mut self, key: &[u8], p: u64) -> usize {
        if let Some(last) = self.last
            && self.holds(last, key)
        {
            return self.entries[last].1;
        }
        let slot = (p & (SLOTS as u64 - 1)) as usize;
        let c = self.slots[slot];
        if c < self.entries.len() && self.holds(c, key) {
            return self.entries[c].1;
        }
        let i = self.search(key, p);
        self.slots[slot] = i;
        self.last = Some(i);
        self.last_id = self.entries[i].1;
        // A prefix strictly above the start's implies key > start, strictly below the end's
        // implies key < end (zero padding keeps both true); ties take the full compare above.
        self.lo = self.prefixes[i];
        self.hi = self.prefixes.get(i + 1).copied().unwrap_or(u64::MAX);
        self.entries[i].1
    }

    /// The live region holding `key`, leaving the caches alone.
    pub(crate) fn locate(&self, key: &[u8]) -> usize {
        self.entries[self.search(key, prefix8(key))].1
    }

    /// Binary search for the entry holding `key` (whose `prefix8` is `p`): integer compares on
    /// the start prefixes, full compares only among equal prefixes.
    fn search(&self, key: &[u8], p: u64) -> usize {
        let hi = self.prefixes.partition_point(|&x| x <= p);
        let lo = self.prefixes[..hi].partition_point(|&x| x < p);
        let j = lo + self.entries[lo..hi].partition_point(|(start, _)| start.as_slice() <= key);
        j.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(starts: &[&[u8]]) -> RoutingTable {
        let mut t = RoutingTable::new();
        for (i, s) in starts.iter().enumerate() {
            t.push(s.to_vec(), i);
        }
        t
    }

    #[test]
    fn routes_by_start_key_with_and_without_caches() {
        let mut t = table(&[b"", b"b", b"bbbbbbbbz", b"m"]);
        for (key, want) in [
            (&b"a"[..], 0),
            (b"b", 1),
            (b"bbbbbbbb", 1),
            (b"bbbbbbbbz", 2),
            (b"bbbbbbbbzz", 2),
            (b"l", 2),
            (b"m", 3),
            (b"zzz", 3),
            (b"a", 0),
        ] {
            assert_eq!(t.route(key, prefix8(key)), want, "{key:?}");
            assert_eq!(t.locate(key), want, "{key:?}");
        }
    }

    #[test]
    fn split_and_merge_update_the_table_and_its_caches() {
        let mut t = table(&[b"", b"m"]);
        assert_eq!(t.route(b"q", prefix8(b"q")), 1);
        t.split(1, 2, b"p".to_vec(), 3);
        assert_eq!(t.route(b"q", prefix8(b"q")), 3);
        assert_eq!(t.route(b"n", prefix8(b"n")), 2);
        t.merge(0, 2, 4);
        assert_eq!(t.ids().collect::<Vec<_>>(), vec![4, 3]);
        assert_eq!(t.route(b"n", prefix8(b"n")), 4);
        assert_eq!(t.route(b"p", prefix8(b"p")), 3);
    }
}
