//! HBase's shortened ("fake") block-index keys: `HFileWriterImpl.getMidpoint` /
//! `getMinimumMidpointArray`, on rows (all cells of a family here share family and qualifier
//! shapes, so only the row part decides).

/// `getMinimumMidpointArray(left, right)`: the shortest byte string `m` with
/// `left < m <= right`, or `None` when the rows are equal (or, where HBase would throw, when
/// `left` sorts after `right`).
///
/// Let d be the first differing byte: `left[..=d]` with byte d incremented; if `left` is a
/// proper prefix of `right`: `right[..len(left)]` followed by 0x00.
pub fn fake_row(left: &[u8], right: &[u8]) -> Option<Vec<u8>> {
    match diff(left, right)? {
        Mid::Bump(d) => {
            let mut m = left[..=d].to_vec();
            // left[d] < right[d] <= 0xff, so this cannot overflow.
            m[d] = m[d].wrapping_add(1);
            Some(m)
        }
        Mid::Extend(n) => {
            let mut m = right[..n].to_vec();
            m.push(0);
            Some(m)
        }
    }
}

/// Length of [`fake_row`] without allocating (`right.len()` when it would be `None`).
#[cfg(test)]
pub fn fake_row_len(left: &[u8], right: &[u8]) -> usize {
    match diff(left, right) {
        Some(Mid::Bump(d)) => d + 1,
        Some(Mid::Extend(n)) => n + 1,
        None => right.len(),
    }
}

/// The row of `getMidpoint(leftCell, rightCell)`: `right` when there is no left cell or the
/// rows are equal (then HBase shortens the family or qualifier instead and keeps the row),
/// else the fake row.
pub fn index_row(left: Option<&[u8]>, right: &[u8]) -> Vec<u8> {
    match left {
        None => right.to_vec(),
        Some(l) => fake_row(l, right).unwrap_or_else(|| right.to_vec()),
    }
}

enum Mid {
    Bump(usize),
    Extend(usize),
}

fn diff(left: &[u8], right: &[u8]) -> Option<Mid> {
    let min = left.len().min(right.len());
    let d = left
        .iter()
        .zip(right)
        .position(|(a, b)| a != b)
        .unwrap_or(min);
    if d < min {
        // HBase throws when left[d] > right[d]; we report "no shorter key".
        (left[d] < right[d]).then_some(Mid::Bump(d))
    } else if left.len() < right.len() {
        Some(Mid::Extend(min))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    //! Mirrors `TestHFileWriterV2`/`TestHFile.testGetShortMidpoint` expectations.
    use super::*;

    #[test]
    fn model_examples() {
        assert_eq!(
            fake_row(b"the quick brown fox", b"the who test text").unwrap(),
            b"the r"
        );
        assert_eq!(fake_row(b"row0499", b"row0500").unwrap(), b"row05");
        assert_eq!(fake_row_len(b"row0499", b"row0500"), 5);
    }

    #[test]
    fn prefix_and_equal_cases() {
        // left is a proper prefix of right: right[..len(left)] + 0x00
        assert_eq!(fake_row(b"abc", b"abcdef").unwrap(), b"abc\x00");
        assert_eq!(fake_row_len(b"abc", b"abcdef"), 4);
        assert_eq!(fake_row(b"", b"a").unwrap(), b"\x00");
        assert_eq!(fake_row(b"same", b"same"), None);
        assert_eq!(index_row(Some(b"same"), b"same"), b"same");
        assert_eq!(index_row(None, b"first"), b"first");
        // out of order: HBase throws, we decline
        assert_eq!(fake_row(b"b", b"a"), None);
        assert_eq!(fake_row(b"ab", b"a"), None);
    }

    #[test]
    fn result_sorts_between() {
        let pairs: [(&[u8], &[u8]); 4] = [
            (b"a\xfe\xff", b"a\xff"),
            (b"\x00", b"\x00\x00"),
            (b"k1", b"k2"),
            (b"zz", b"zzz\x00"),
        ];
        for (l, r) in pairs {
            let m = fake_row(l, r).unwrap();
            assert!(l < m.as_slice() && m.as_slice() <= r, "{l:?} {m:?} {r:?}");
        }
    }
}
