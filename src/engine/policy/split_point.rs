//! Where a region splits: the row of the midkey of the largest store file of the largest store
//! (`HRegion.checkSplit` → `RegionSplitPolicy.getSplitPoint` → `HStore.getSplitPoint` →
//! `StoreUtils.getSplitPoint` → `HFileReaderImpl.midKey`).

use crate::engine::state::region::Region;

/// Why no split point was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSplitPoint {
    /// Every store is empty or holds references.
    NoCandidate,
    /// The midkey row equals the file's first or last row (e.g. a one-block file).
    Unsplittable,
    /// The row is not strictly inside the region (`HRegion.checkRow`, or equal to the start key).
    OutsideRegion,
}

/// The split row of `region`, after the policy's adjustment (KeyPrefix/Delimited truncation).
pub fn choose(region: &Region) -> Result<Vec<u8>, NoSplitPoint> {
    // Among stores that have a point, the largest store (strictly greater wins; first on ties).
    let mut best: Option<(u64, Option<Vec<u8>>)> = None;
    for store in &region.stores {
        if store.files.is_empty() || store.has_references() {
            continue;
        }
        // StoreUtils.getSplitPoint: the largest file by length (ties keep the earliest).
        let mut largest = &store.files[0].file;
        for f in &store.files[1..] {
            if f.file.length() > largest.length() {
                largest = &f.file;
            }
        }
        let point = largest.file.split_point();
        let size = store.size();
        if best.as_ref().is_none_or(|(s, _)| size > *s) {
            best = Some((size, point));
        }
    }
    let Some((_, point)) = best else {
        return Err(NoSplitPoint::NoCandidate);
    };
    let row = region
        .policy
        .adjust_split_row(point.ok_or(NoSplitPoint::Unsplittable)?);
    let inside = row.as_slice() > region.start.as_slice()
        && (region.end.is_empty() || row.as_slice() < region.end.as_slice());
    if row.is_empty() || !inside {
        return Err(NoSplitPoint::OutsideRegion);
    }
    Ok(row)
}
