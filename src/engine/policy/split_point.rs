//! Where a region splits: the row of the midkey of the largest store file of the largest store
//! that has a split point (`HRegion.checkSplit` → `RegionSplitPolicy.getSplitPoint` →
//! `HStore.getSplitPoint` → `StoreUtils.getSplitPoint` → `HFileReaderImpl.midKey`), then cut by
//! the prefix policies and the table's split restriction (`RegionSplitRestriction`).

use crate::engine::state::region::Region;

/// Why no split point was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSplitPoint {
    /// Every store is empty or holds references.
    NoCandidate,
    /// No store's largest file has a midkey row other than its first and last row (e.g.
    /// one-block files).
    Unsplittable,
    /// The row is not strictly inside the region (`HRegion.checkRow`, or equal to the start key).
    OutsideRegion,
}

/// The store whose midkey gives the split row, before any cutting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Midkey {
    /// Index of the store.
    pub store: usize,
    /// Index (in the store's files) of its largest file, whose midkey row this is.
    pub file: usize,
    /// The midkey row.
    pub row: Vec<u8>,
}

/// `RegionSplitPolicy.getSplitPoint`: among the stores that have a split point
/// (`HStore.getSplitPoint`: no references, and the largest file's midkey row differs from its
/// first and last row), the largest one — strictly larger than every store before it, so the
/// first wins a tie. A larger store without a split point is passed over, not fatal.
pub fn largest_store_midkey(region: &Region) -> Result<Midkey, NoSplitPoint> {
    let mut best: Option<(u64, Midkey)> = None;
    let mut candidate = false;
    for (index, store) in region.stores.iter().enumerate() {
        if store.files.is_empty() || store.has_references() {
            continue;
        }
        candidate = true;
        // StoreUtils.getSplitPoint: the largest file by length (ties keep the earliest).
        let mut largest = 0;
        for (i, f) in store.files.iter().enumerate().skip(1) {
            if f.file.length() > store.files[largest].file.length() {
                largest = i;
            }
        }
        let Some(row) = store.files[largest].file.file.split_point() else {
            continue;
        };
        // HBase starts from a largest size of 0 and needs `largest < size`.
        let size = store.size();
        if size > best.as_ref().map_or(0, |(s, _)| *s) {
            best = Some((
                size,
                Midkey {
                    store: index,
                    file: largest,
                    row,
                },
            ));
        }
    }
    match best {
        Some((_, m)) => Ok(m),
        None if candidate => Err(NoSplitPoint::Unsplittable),
        None => Err(NoSplitPoint::NoCandidate),
    }
}

/// The split row of `region`, after the policy's adjustment (KeyPrefix/Delimited truncation)
/// and the table's split restriction, as `HRegion.checkSplit` computes it.
pub fn choose(region: &Region) -> Result<Vec<u8>, NoSplitPoint> {
    let point = largest_store_midkey(region)?.row;
    let mut row = region.policy.adjust_split_row(point);
    // HRegion.checkSplit restricts only a non-empty point.
    if !row.is_empty() {
        row = region.policy.restriction().restrict(row);
    }
    let inside = row.as_slice() > region.start.as_slice()
        && (region.end.is_empty() || row.as_slice() < region.end.as_slice());
    if row.is_empty() || !inside {
        return Err(NoSplitPoint::OutsideRegion);
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::config::SplitRestriction;
    use crate::engine::policy::split::SplitPolicyInstance;
    use crate::engine::state::region::{HeldFile, test_region};
    use crate::engine::state::storefile::{
        CellShape, FileFormat, FileKind, HFileBuilder, StoreFile,
    };

    /// A real file of `rows` (sorted) with `value_len`-byte values in 4 KB blocks.
    fn file(rows: &[Vec<u8>], value_len: u32) -> HeldFile {
        let shape = CellShape {
            family_len: 1,
            qualifier_len: 1,
            value_len,
            columns: 1,
        };
        let format = FileFormat {
            block_size: 4096,
            compression_ratio: 1.0,
            index_block_max_size: 131072,
            index_block_min_entries: 16,
            row_bloom: true,
        };
        let mut b = HFileBuilder::new(shape, format, 1);
        for r in rows {
            b.append(r);
        }
        HeldFile {
            file: StoreFile::new(Arc::new(b.finish().expect("rows")), 1, 0),
            rows: rows.len() as u64,
        }
    }

    fn keys(prefix: &str, n: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| format!("{prefix}{i:04}").into_bytes())
            .collect()
    }

    /// A region with two stores: store 0 one huge row (no split point: its midkey is its only
    /// row), store 1 two hundred 1 KB rows (a midkey inside).
    fn region_with_unsplittable_largest_store() -> Region {
        let mut r = test_region(0, 0, 2);
        r.stores[0].files.push(file(&[b"m".to_vec()], 1 << 20));
        r.stores[1].files.push(file(&keys("row", 200), 1000));
        r
    }

    /// Mirrors `RegionSplitPolicy.getSplitPoint`: a store without a split point is skipped and
    /// the largest store that has one gives the row (HBase 2.x; before, such a region counted
    /// as unsplittable here).
    #[test]
    fn largest_store_without_a_split_point_is_skipped() {
        let r = region_with_unsplittable_largest_store();
        assert!(r.stores[0].size() > r.stores[1].size());
        assert_eq!(r.stores[0].files[0].file.file.split_point(), None);
        let m = largest_store_midkey(&r).expect("store 1 has a point");
        assert_eq!((m.store, m.file), (1, 0));
        let want = r.stores[1].files[0].file.file.split_point().unwrap();
        assert_eq!(m.row, want);
        assert_eq!(choose(&r), Ok(want));
    }

    /// `RegionSplitPolicy.getSplitPoint` keeps the first of equally large stores (`<`), and
    /// `HStore.getSplitPoint` gives nothing for a store holding references.
    #[test]
    fn ties_keep_the_first_store_and_references_are_skipped() {
        let mut r = test_region(0, 0, 2);
        r.stores[0].files.push(file(&keys("a", 200), 1000));
        r.stores[1].files.push(file(&keys("b", 200), 1000));
        assert_eq!(r.stores[0].size(), r.stores[1].size());
        assert_eq!(largest_store_midkey(&r).unwrap().store, 0);
        // Store 0 holding a Reference: store 1 gives the row.
        let mut half = r.stores[0].files[0].clone();
        half.file.kind = FileKind::Reference {
            start: Vec::new(),
            end: b"a0100".to_vec(),
        };
        r.stores[0].files.push(half);
        assert_eq!(largest_store_midkey(&r).unwrap().store, 1);
    }

    #[test]
    fn no_point_anywhere() {
        let mut r = test_region(0, 0, 2);
        assert_eq!(choose(&r), Err(NoSplitPoint::NoCandidate));
        r.stores[0].files.push(file(&[b"m".to_vec()], 100));
        assert_eq!(choose(&r), Err(NoSplitPoint::Unsplittable));
    }

    /// `HRegion.checkSplit` applies the table's `RegionSplitRestriction` after the policy:
    /// `KeyPrefixRegionSplitRestriction` keeps the first bytes, `DelimitedKeyPrefix…` cuts
    /// before the delimiter; a point cut down to the region's start is refused (`checkRow`).
    #[test]
    fn the_split_restriction_cuts_the_row() {
        let settings = crate::engine::policy::balancer::test_settings();
        let mut r = test_region(0, 0, 1);
        r.stores[0].files.push(file(&keys("user|", 200), 1000));
        let mid = choose(&r).unwrap();
        assert!(mid.starts_with(b"user|0"), "{mid:?}");
        for (restriction, want) in [
            (SplitRestriction::KeyPrefix { prefix_length: 7 }, &mid[..7]),
            (
                SplitRestriction::DelimitedKeyPrefix {
                    delimiter: b"|".to_vec(),
                },
                &b"user"[..],
            ),
            (SplitRestriction::None, &mid[..]),
        ] {
            let s = crate::config::Settings {
                split_restriction: restriction.clone(),
                ..settings.clone()
            };
            r.policy = SplitPolicyInstance::new(&s, 0, 0.5);
            assert_eq!(choose(&r).as_deref(), Ok(want), "{restriction:?}");
        }
        // Cut to `user`, which is the region's start: not inside, no split.
        r.start = b"user".to_vec();
        let s = crate::config::Settings {
            split_restriction: SplitRestriction::DelimitedKeyPrefix {
                delimiter: b"|".to_vec(),
            },
            ..settings
        };
        r.policy = SplitPolicyInstance::new(&s, 0, 0.5);
        assert_eq!(choose(&r), Err(NoSplitPoint::OutsideRegion));
    }
}
