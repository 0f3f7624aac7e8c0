//! Which live region holds a row: the table of regions by start key, as `hbase:meta` maps rows
//! to regions (`ConnectionImplementation.locateRegionInMeta`: the last region whose start is at
//! or below the row). Splits and merges change it. The write path reaches it through the ingest
//! layer's `Router`, whose indexes find the same answer sooner.

/// Live regions in key order. Entry `i` covers `[start_i, start_{i+1})`, the last one up to the
/// end of the table: the table tiles the key space (checked by `State::invariants`).
#[derive(Debug, Clone, Default)]
pub struct RoutingTable {
    /// (start key, region id) in key order.
    entries: Vec<(Vec<u8>, usize)>,
    /// Changes so far (push, split, merge): what was derived from the table is stale when
    /// this moved.
    changes: u64,
}

impl RoutingTable {
    pub(crate) fn new() -> RoutingTable {
        RoutingTable::default()
    }

    /// Appends a region starting at `start` (the table is built in key order).
    pub(crate) fn push(&mut self, start: Vec<u8>, id: usize) {
        debug_assert!(self.entries.last().is_none_or(|(s, _)| *s < start));
        self.entries.push((start, id));
        self.changes += 1;
    }

    /// Changes so far: equal counts mean the same entries.
    pub(crate) fn changes(&self) -> u64 {
        self.changes
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

    /// A split at `row`: `parent`'s entry becomes daughter `a`, and `b` starts at `row` after
    /// it. Returns the parent's position.
    pub(crate) fn split(&mut self, parent: usize, a: usize, row: Vec<u8>, b: usize) -> usize {
        let pos = self.position(parent).expect("parent is routed");
        self.entries[pos].1 = a;
        self.entries.insert(pos + 1, (row, b));
        self.changes += 1;
        pos
    }

    /// A merge: the `count` regions from `first`'s entry on become `merged`. Returns the
    /// merged region's position.
    pub(crate) fn merge(&mut self, first: usize, count: usize, merged: usize) -> usize {
        let pos = self.position(first).expect("merged region is routed");
        self.entries[pos].1 = merged;
        self.entries.drain(pos + 1..pos + count);
        self.changes += 1;
        pos
    }

    /// The live region holding `key`: the last whose start is at or below it (a binary search;
    /// the first start is the empty key).
    pub(crate) fn locate(&self, key: &[u8]) -> usize {
        let after = self
            .entries
            .partition_point(|(start, _)| start.as_slice() <= key);
        self.entries[after.saturating_sub(1)].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mirrors `ConnectionImplementation.locateRegionInMeta`: a row belongs to the last region
    /// whose start key is at or below it.
    #[test]
    fn a_row_belongs_to_the_last_region_starting_at_or_below_it() {
        let mut t = RoutingTable::new();
        for (i, s) in [&b""[..], b"b", b"bbbbbbbbz", b"m"].iter().enumerate() {
            t.push(s.to_vec(), i);
        }
        for (key, want) in [
            (&b""[..], 0),
            (b"a", 0),
            (b"b", 1),
            (b"bbbbbbbb", 1),
            (b"bbbbbbbbz", 2),
            (b"l", 2),
            (b"m", 3),
            (b"zzz", 3),
        ] {
            assert_eq!(t.locate(key), want, "{key:?}");
        }
    }

    /// A split inserts the daughter B entry after A; a merge folds consecutive entries into one
    /// (`RegionStateStore.splitRegion` / `mergeRegions` on `hbase:meta`).
    #[test]
    fn splits_and_merges_keep_the_table_tiling_the_keys() {
        let mut t = RoutingTable::new();
        t.push(Vec::new(), 0);
        t.push(b"m".to_vec(), 1);
        assert_eq!(t.split(1, 2, b"p".to_vec(), 3), 1);
        assert_eq!(t.ids().collect::<Vec<_>>(), vec![0, 2, 3]);
        assert_eq!(t.locate(b"n"), 2);
        assert_eq!(t.locate(b"q"), 3);
        assert_eq!(t.merge(0, 2, 4), 0);
        assert_eq!(t.ids().collect::<Vec<_>>(), vec![4, 3]);
        assert_eq!(t.locate(b"n"), 4);
    }
}
