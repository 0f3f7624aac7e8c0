//! `Bytes.split` / `Bytes.iterateOnSplits` (hbase-common), `RegionSplitter.UniformSplit`, and
//! `Admin.createTable(desc, startKey, endKey, numRegions)`.

use super::bigint::BigUint;
use super::explicit::{check_binary_escapes, validate_keys};
use super::hexstring::too_many;
use super::{MAX_PRESPLIT_REGIONS, check_region_count};
use crate::diag::InputError;
use crate::keynotation::{to_bytes_binary, to_string_binary};

/// `Bytes.split(a, b, inclusive, num)`: `num` points dividing `[a, b]` into `num + 1` parts, with
/// `a` and `b` themselves first and last (`num + 2` keys in all).
///
/// Exactly as `Bytes.iterateOnSplits`: the shorter of `a`/`b` is right-padded with `0x00`; the
/// padded keys are read as unsigned big-endian numbers A and B (HBase prepends a `0x01 0x00`
/// header to keep Java's `BigInteger` positive, which changes nothing else); diff = B − A, plus 1
/// when `inclusive`; while diff < num + 1 a `0x00` is appended to both and diff recomputed;
/// interval = ⌊diff / (num + 1)⌋ and point_i = A + i·interval, written back at the padded length.
///
/// The returned endpoints are the `a` and `b` of the iteration that did the arithmetic: the
/// caller's keys as given when no `0x00` had to be appended, otherwise the padded, extended keys
/// (an HBase quirk kept on purpose: `Admin.createTable(start, end, n)` uses them as split keys).
///
/// Errors as HBase: padded `a` ≥ padded `b` (`"b <= a"`), `num` = 0 (`"num cannot be <= 0"`).
pub fn bytes_split(
    a: &[u8],
    b: &[u8],
    inclusive: bool,
    num: u64,
) -> Result<Vec<Vec<u8>>, InputError> {
    let len = a.len().max(b.len());
    let mut a_pad = a.to_vec();
    a_pad.resize(len, 0);
    let mut b_pad = b.to_vec();
    b_pad.resize(len, 0);
    if a_pad >= b_pad {
        return Err(InputError::new(format!(
            "cannot split the key range `{}`..`{}`: once padded to the same length with \\x00, \
             the end is not after the start",
            to_string_binary(a),
            to_string_binary(b)
        ))
        .expected("an end key that sorts after the start key"));
    }
    if num == 0 {
        return Err(InputError::new("a key range cannot be split at 0 points")
            .expected("at least one split point"));
    }
    if num > MAX_PRESPLIT_REGIONS {
        return Err(too_many(num));
    }
    let parts = num + 1;
    let mut ends: Option<(Vec<u8>, Vec<u8>)> = None;
    loop {
        let start = BigUint::from_be_bytes(&a_pad);
        let stop = BigUint::from_be_bytes(&b_pad);
        // a_pad < b_pad, so this never fails.
        let mut diff = stop.checked_sub(&start).unwrap_or_default();
        if inclusive {
            diff.mul_add_small(1, 1);
        }
        if diff < BigUint::from_u64(parts) {
            a_pad.push(0);
            b_pad.push(0);
            ends = Some((a_pad.clone(), b_pad.clone()));
            continue;
        }
        let (interval, _) = diff.div_small(parts);
        let width = a_pad.len();
        let (first, last) = ends.unwrap_or_else(|| (a.to_vec(), b.to_vec()));
        let mut out = Vec::with_capacity(num as usize + 2);
        out.push(first);
        let mut cur = start;
        for _ in 0..num {
            cur.add_assign(&interval);
            // Every point is < B (+1), so it fits the padded width.
            let key = cur.to_be_bytes_padded(width).ok_or_else(|| {
                InputError::new("internal error: a split point overflowed its key width")
            })?;
            out.push(key);
        }
        out.push(last);
        return Ok(out);
    }
}

/// `RegionSplitter.UniformSplit#split(n)` after `setFirstRow`/`setLastRow` (rows in
/// `toStringBinary` notation, decoded with `toBytesBinary`): `Bytes.split(first, last, true, n − 1)`
/// without its two endpoints. Defaults: first = empty, last = eight `0xFF` bytes, so the keys are 8
/// bytes long (n = 2 gives `\x80\x00\x00\x00\x00\x00\x00\x00`).
pub(crate) fn uniform_split(
    regions: u64,
    first_row: Option<&str>,
    last_row: Option<&str>,
) -> Result<Vec<Vec<u8>>, InputError> {
    check_region_count(regions, "UniformSplit")?;
    if regions > MAX_PRESPLIT_REGIONS {
        return Err(too_many(regions));
    }
    let decode = |row: &str, which: &str| -> Result<Vec<u8>, InputError> {
        check_binary_escapes(row).map_err(|at| {
            InputError::new(format!(
                "{which} `{row}` ends inside a \\x escape (HBase's toBytesBinary fails on it)"
            ))
            .field(which)
            .with_span(at..row.len())
            .expected("`\\x` followed by two upper-case hex digits")
        })?;
        Ok(to_bytes_binary(row))
    };
    let first = match first_row {
        Some(row) => decode(row, "first row")?,
        None => Vec::new(),
    };
    let last = match last_row {
        Some(row) => decode(row, "last row")?,
        None => vec![0xFF; 8],
    };
    if last <= first {
        return Err(InputError::new(format!(
            "UniformSplit: the last row ({}) does not sort after the first row ({})",
            to_string_binary(&last),
            to_string_binary(&first)
        ))
        .field(if last_row.is_some() {
            "last_row"
        } else {
            "first_row"
        })
        .expected("a first row that sorts before the last row"));
    }
    let mut keys = bytes_split(&first, &last, true, regions - 1)?;
    keys.pop();
    keys.remove(0);
    Ok(keys)
}

/// The split keys `Admin.createTable(desc, startKey, endKey, numRegions)` creates a table with:
/// `numRegions` must be ≥ 3 and `start` < `end`; 3 regions give exactly `[start, end]`; more give
/// `Bytes.split(start, end, numRegions − 3)` (exclusive: `start`, numRegions − 3 points, `end`).
/// The outer regions `[∅, start)` and `[end, ∅)` come from the split keys as usual (see
/// [`regions_from_split_keys`](super::regions_from_split_keys)). The keys then pass the client's
/// checks ([`validate_keys`]), so an empty `start` is refused as HBase refuses it.
pub fn create_table_split_keys(
    start: &[u8],
    end: &[u8],
    num_regions: u64,
) -> Result<Vec<Vec<u8>>, InputError> {
    if num_regions < 3 {
        return Err(InputError::new(format!(
            "a table created from a start and an end key needs at least three regions, not \
             {num_regions}"
        ))
        .field("regions")
        .expected("3 or more regions"));
    }
    if start >= end {
        return Err(InputError::new(format!(
            "the start key `{}` is not smaller than the end key `{}`",
            to_string_binary(start),
            to_string_binary(end)
        ))
        .expected("a start key that sorts before the end key"));
    }
    if num_regions > MAX_PRESPLIT_REGIONS {
        return Err(too_many(num_regions));
    }
    let keys = if num_regions == 3 {
        vec![start.to_vec(), end.to_vec()]
    } else {
        bytes_split(start, end, false, num_regions - 3)?
    };
    validate_keys(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FF8: [u8; 8] = [0xFF; 8];

    // Mirrors RegionSplitter.UniformSplit#split (TestRegionSplitter#unitTestUniformSplit).
    #[test]
    fn uniform_default_range() {
        assert!(uniform_split(1, None, None).is_err());
        assert_eq!(
            uniform_split(2, None, None).unwrap(),
            [vec![0x80, 0, 0, 0, 0, 0, 0, 0]]
        );
        assert_eq!(
            uniform_split(3, None, None).unwrap(),
            [vec![0x55; 8], vec![0xAA; 8]]
        );
        // diff = 2^64 (inclusive), interval = 2^62.
        assert_eq!(
            uniform_split(4, None, None).unwrap(),
            [
                vec![0x40, 0, 0, 0, 0, 0, 0, 0],
                vec![0x80, 0, 0, 0, 0, 0, 0, 0],
                vec![0xC0, 0, 0, 0, 0, 0, 0, 0]
            ]
        );
        let sixteen = uniform_split(16, None, None).unwrap();
        for (i, k) in sixteen.iter().enumerate() {
            assert_eq!(*k, vec![((i as u8) + 1) << 4, 0, 0, 0, 0, 0, 0, 0]);
        }
    }

    // Mirrors TestRegionSplitter#testUserInput for UniformSplit.
    #[test]
    fn uniform_custom_rows() {
        assert!(uniform_split(100, Some("\\x00"), Some("\\xAA")).is_ok());
        assert!(uniform_split(100, Some("\\xAA"), Some("\\x00")).is_err());
        assert!(uniform_split(100, Some("\\xAA"), Some("\\xAA")).is_err());
        assert_eq!(
            uniform_split(3, Some("\\x00"), Some("\\x02")).unwrap(),
            [vec![1], vec![2]]
        );
        // 11 values for 12 regions: one 0x00 is appended, diff = 0x0A00 + 1 = 2561.
        let k = uniform_split(12, Some("\\x00"), Some("\\x0A")).unwrap();
        assert_eq!(k.len(), 11);
        assert!(k.iter().all(|k| k.len() == 2));
        // interval = 2561 / 12 = 213 = 0xD5.
        assert_eq!(k[0], vec![0x00, 0xD5]);
        assert_eq!(k[10], vec![0x09, 0x27]); // 11 · 213 = 2343 = 0x0927
        // "a" vs "a\x00" differ only by padding: Bytes.split refuses.
        assert!(uniform_split(2, Some("a"), Some("a\\x00")).is_err());
        assert!(uniform_split(2, Some("a\\x0"), None).is_err());
    }

    // Mirrors Bytes#split / Bytes#iterateOnSplits, via UniformSplit#split(start, end, n, inclusive).
    #[test]
    fn bytes_split_retries_with_a_zero_byte() {
        // UniformSplit#split(byte[], byte[]) = Bytes.split(start, end, 1)[1].
        assert_eq!(bytes_split(&[0x10], &[0x30], false, 1).unwrap()[1], [0x20]);
        assert_eq!(bytes_split(&[], &[0x20], false, 1).unwrap()[1], [0x10]);
        let mut a = vec![0xDF];
        a.extend([0xFF; 7]);
        let mut mid = vec![0xEF];
        mid.extend([0xFF; 7]);
        assert_eq!(bytes_split(&a, &FF8, false, 1).unwrap()[1], mid);
        // diff 1 < 2: retry with "aaa\0".."aab\0", diff 256, point "aaa\x80".
        let s = bytes_split(b"aaa", b"aab", false, 1).unwrap();
        assert_eq!(
            s,
            [
                b"aaa\x00".to_vec(),
                b"aaa\x80".to_vec(),
                b"aab\x00".to_vec()
            ]
        );
        assert_eq!(
            bytes_split(b"aaa", b"aad", false, 2).unwrap(),
            [
                b"aaa".to_vec(),
                b"aab".to_vec(),
                b"aac".to_vec(),
                b"aad".to_vec()
            ]
        );
        assert_eq!(bytes_split(b"aaa", b"aae", true, 1).unwrap()[1], b"aac");
        // Padding the shorter key: "a" vs "b\x00\x00" → A = 61 00 00, endpoints kept as given.
        let s = bytes_split(b"a", b"b\x00\x00", false, 1).unwrap();
        assert_eq!(s[0], b"a");
        assert_eq!(s[1], [0x61, 0x80, 0x00]);
        assert_eq!(s[2], b"b\x00\x00");
        assert!(bytes_split(b"b", b"a", false, 1).is_err());
        assert!(bytes_split(b"a", b"a\x00", false, 1).is_err());
        assert!(bytes_split(b"a", b"b", false, 0).is_err());
    }

    // Mirrors HBaseAdmin#createTable(desc, startKey, endKey, numRegions).
    #[test]
    fn create_table_from_range() {
        assert_eq!(
            create_table_split_keys(b"a", b"z", 3).unwrap(),
            [b"a".to_vec(), b"z".to_vec()]
        );
        // numRegions 4 → Bytes.split("a", "c", 1) = a, b, c.
        assert_eq!(
            create_table_split_keys(b"a", b"c", 4).unwrap(),
            [b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]
        );
        // The 0x00 retry changes the endpoints too.
        let k = create_table_split_keys(b"a", b"b", 5).unwrap();
        assert_eq!(k.len(), 4);
        assert_eq!(k[0], b"a\x00");
        assert_eq!(k[3], b"b\x00");
        assert!(create_table_split_keys(b"a", b"z", 2).is_err());
        assert!(create_table_split_keys(b"z", b"a", 4).is_err());
        assert!(create_table_split_keys(b"a", b"a", 4).is_err());
        // Empty start key: the client's split-key check refuses it.
        assert!(create_table_split_keys(b"", b"z", 3).is_err());
    }
}
