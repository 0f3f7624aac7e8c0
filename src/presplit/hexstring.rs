//! `RegionSplitter.HexStringSplit` / `DecimalStringSplit` (their common base `NumberStringSplit`)
//! and the 0.90/0.92 `MD5StringSplit`: split keys that are zero-padded numbers written as ASCII.

use super::bigint::BigUint;
use super::{MAX_PRESPLIT_REGIONS, check_region_count};
use crate::diag::InputError;
use crate::keygen::MAX_ROW_LENGTH;

/// Which number-string algorithm (radix and default range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberKind {
    Hex,
    Decimal,
}

impl NumberKind {
    pub(crate) fn radix(self) -> u32 {
        match self {
            NumberKind::Hex => 16,
            NumberKind::Decimal => 10,
        }
    }

    /// HBase's default last row (the default first row is the number 0).
    pub(crate) fn default_last(self) -> &'static str {
        match self {
            NumberKind::Hex => "FFFFFFFF",
            NumberKind::Decimal => "99999999",
        }
    }

    pub(crate) fn class(self) -> &'static str {
        match self {
            NumberKind::Hex => "HexStringSplit",
            NumberKind::Decimal => "DecimalStringSplit",
        }
    }

    fn digits(self) -> &'static str {
        match self {
            NumberKind::Hex => "hex digits (0-9, a-f or A-F)",
            NumberKind::Decimal => "decimal digits (0-9)",
        }
    }
}

/// Parses a first/last row as `new BigInteger(row, radix)` does, limited to ASCII digits and an
/// optional leading `+`. Negative rows (which Java would accept) are refused: the keys they give
/// start with `-` and do not sort numerically.
pub(crate) fn parse_row(kind: NumberKind, row: &str, which: &str) -> Result<BigUint, InputError> {
    let err = |problem: String| {
        InputError::new(problem).field(which).expected(format!(
            "{} for {}",
            kind.digits(),
            kind.class()
        ))
    };
    if row.len() > MAX_ROW_LENGTH {
        return Err(err(format!(
            "{which} has {} characters; keys are limited to {MAX_ROW_LENGTH} bytes",
            row.len()
        )));
    }
    if row.starts_with('-') {
        return Err(err(format!(
            "{which} `{row}` is negative; hbase-emu only splits non-negative ranges"
        )));
    }
    let digits = row.strip_prefix('+').unwrap_or(row);
    if digits.is_empty() {
        return Err(err(format!("{which} `{row}` has no digits")));
    }
    BigUint::parse_radix(digits, kind.radix()).map_err(|i| {
        let bad = digits[i..].chars().next().unwrap_or('?');
        let at = i + (row.len() - digits.len());
        err(format!(
            "{which} `{row}`: `{bad}` at position {} is not one of the {}",
            at + 1,
            kind.digits()
        ))
        .with_span(at..at + bad.len_utf8())
    })
}

/// `NumberStringSplit#split(n)` after `setFirstRow`/`setLastRow`.
///
/// Arithmetic (all exact): range = last − first + 1, size = ⌊range / n⌋, key_i = first + i·size for
/// i = 1..n−1 (the last region takes the slop), each written in lowercase and left-padded with `0`
/// to the length of the last row's text (8 by default). The default first row is 0 whatever its
/// text; only `setLastRow` changes the width, as in HBase.
pub(crate) fn number_split(
    kind: NumberKind,
    regions: u64,
    first_row: Option<&str>,
    last_row: Option<&str>,
) -> Result<Vec<Vec<u8>>, InputError> {
    check_region_count(regions, kind.class())?;
    let first = match first_row {
        Some(row) => parse_row(kind, row, "first_row")?,
        None => BigUint::zero(),
    };
    let last_text = last_row.unwrap_or(kind.default_last());
    let last = parse_row(kind, last_text, "last_row")?;
    let width = last_text.len();
    let radix = kind.radix();

    if last <= first {
        return Err(InputError::new(format!(
            "{}: the last row ({}) is not greater than the first row ({})",
            kind.class(),
            last_text,
            first_row.unwrap_or("0")
        ))
        // Blame the row the user gave (the last row when both were given).
        .field(if last_row.is_some() {
            "last_row"
        } else {
            "first_row"
        })
        .expected("a first row numerically smaller than the last row"));
    }
    // Safe: last > first.
    let mut range = last.checked_sub(&first).unwrap_or_default();
    range.mul_add_small(1, 1);
    if range < BigUint::from_u64(regions) {
        return Err(InputError::new(format!(
            "{}: cannot cut the range {}..={} ({} values) into {regions} regions",
            kind.class(),
            first.to_string_radix(radix),
            last.to_string_radix(radix),
            range.to_string_radix(10),
        ))
        .expected(format!(
            "at most {} regions for this range",
            range.to_string_radix(10)
        )));
    }
    if regions > MAX_PRESPLIT_REGIONS {
        return Err(too_many(regions));
    }
    let (size, _) = range.div_small(regions);
    let mut key = first;
    let mut out = Vec::with_capacity((regions - 1) as usize);
    for _ in 1..regions {
        key.add_assign(&size);
        out.push(pad_left(key.to_string_radix(radix), width).into_bytes());
    }
    Ok(out)
}

/// `StringUtils.leftPad(s, width, '0')`: never truncates.
pub(crate) fn pad_left(s: String, width: usize) -> String {
    if s.len() >= width {
        return s;
    }
    let mut p = "0".repeat(width - s.len());
    p.push_str(&s);
    p
}

pub(crate) fn too_many(regions: u64) -> InputError {
    InputError::new(format!(
        "{regions} regions is more than hbase-emu pre-splits ({MAX_PRESPLIT_REGIONS} at most)"
    ))
    .field("regions")
    .expected(format!("2..={MAX_PRESPLIT_REGIONS} regions"))
}

/// The old `MD5StringSplit` (HBase 0.90/0.92): the range is 0..=0x7FFFFFFF, size = ⌊0x7FFFFFFF / n⌋
/// (no +1, unlike `HexStringSplit`), key_i = i·size as 8 lowercase hex digits.
pub(crate) fn md5_legacy_split(regions: u64) -> Result<Vec<Vec<u8>>, InputError> {
    const MAX_MD5: u64 = 0x7FFF_FFFF;
    check_region_count(regions, "MD5StringSplit")?;
    if regions > MAX_MD5 {
        // Java's int argument cannot get here; with more regions the keys would repeat.
        return Err(InputError::new(format!(
            "MD5StringSplit: cannot cut 0..=7fffffff into {regions} regions"
        ))
        .field("regions"));
    }
    if regions > MAX_PRESPLIT_REGIONS {
        return Err(too_many(regions));
    }
    let size = MAX_MD5 / regions;
    Ok((1..regions)
        .map(|i| format!("{:08x}", i * size).into_bytes())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strs(keys: &[Vec<u8>]) -> Vec<String> {
        keys.iter()
            .map(|k| String::from_utf8(k.clone()).unwrap())
            .collect()
    }

    // Mirrors RegionSplitter.HexStringSplit#split (TestRegionSplitter#unitTestHexStringSplit).
    #[test]
    fn hex_default_range() {
        let two = number_split(NumberKind::Hex, 2, None, None).unwrap();
        assert_eq!(strs(&two), ["80000000"]);
        let three = number_split(NumberKind::Hex, 3, None, None).unwrap();
        // 2^32 / 3 = 0x55555555; the last region takes the slop.
        assert_eq!(strs(&three), ["55555555", "aaaaaaaa"]);
        let four = number_split(NumberKind::Hex, 4, None, None).unwrap();
        assert_eq!(strs(&four), ["40000000", "80000000", "c0000000"]);
        let sixteen = number_split(NumberKind::Hex, 16, None, None).unwrap();
        assert_eq!(sixteen.len(), 15);
        assert_eq!(strs(&sixteen)[0], "10000000");
        assert_eq!(strs(&sixteen)[14], "f0000000");
        // 2^32 / 1000 = 4294967 = 0x418937: padded to width 8.
        let thousand = number_split(NumberKind::Hex, 1000, None, None).unwrap();
        assert_eq!(strs(&thousand)[0], "00418937");
        assert_eq!(strs(&thousand)[998], format!("{:08x}", 999u64 * 4_294_967));
    }

    // Mirrors RegionSplitter.DecimalStringSplit#split (TestRegionSplitter#unitTestDecimalStringSplit).
    #[test]
    fn decimal_default_range() {
        let two = number_split(NumberKind::Decimal, 2, None, None).unwrap();
        assert_eq!(strs(&two), ["50000000"]);
        let three = number_split(NumberKind::Decimal, 3, None, None).unwrap();
        assert_eq!(strs(&three), ["33333333", "66666666"]);
        let four = number_split(NumberKind::Decimal, 4, None, None).unwrap();
        assert_eq!(strs(&four), ["25000000", "50000000", "75000000"]);
        let seven = number_split(NumberKind::Decimal, 7, None, None).unwrap();
        // 10^8 / 7 = 14285714.
        assert_eq!(strs(&seven)[0], "14285714");
        assert_eq!(strs(&seven)[5], "85714284");
    }

    // Mirrors NumberStringSplit#setFirstRow/setLastRow (TestRegionSplitter#testUserInput).
    #[test]
    fn custom_rows_and_their_errors() {
        // Width follows the last row's text; parsing accepts upper case, output is lower case.
        let k = number_split(NumberKind::Hex, 2, Some("00"), Some("AA")).unwrap();
        // range = 0xAB = 171, size = 85 = 0x55.
        assert_eq!(strs(&k), ["55"]);
        assert!(number_split(NumberKind::Hex, 100, Some("00"), Some("AA")).is_ok());
        assert!(number_split(NumberKind::Hex, 100, Some("AA"), Some("00")).is_err());
        assert!(number_split(NumberKind::Hex, 100, Some("AA"), Some("AA")).is_err());
        assert_eq!(
            strs(&number_split(NumberKind::Hex, 3, Some("0"), Some("2")).unwrap()),
            ["1", "2"]
        );
        assert!(number_split(NumberKind::Hex, 11, Some("0"), Some("A")).is_ok());
        let e = number_split(NumberKind::Hex, 12, Some("0"), Some("A")).unwrap_err();
        assert!(e.problem.contains("11 values"), "{e}");
        assert!(number_split(NumberKind::Decimal, 10, Some("0"), Some("9")).is_ok());
        assert!(number_split(NumberKind::Decimal, 11, Some("0"), Some("9")).is_err());
        assert!(number_split(NumberKind::Decimal, 2, Some("99"), Some("99")).is_err());
        // A first row only: width stays 8 (HBase's setFirstRow does not touch the width).
        let k = number_split(NumberKind::Hex, 2, Some("80000000"), None).unwrap();
        assert_eq!(strs(&k), ["c0000000"]);
        // A long last row: width 12.
        let k = number_split(NumberKind::Hex, 2, None, Some("ffffffffffff")).unwrap();
        assert_eq!(strs(&k), ["800000000000"]);
        // Wider than u128: still exact.
        let last = "f".repeat(40);
        let k = number_split(NumberKind::Hex, 2, None, Some(&last)).unwrap();
        assert_eq!(strs(&k), [format!("8{}", "0".repeat(39))]);
    }

    #[test]
    fn bad_rows_and_counts() {
        let e = number_split(NumberKind::Hex, 4, Some("00g0"), None).unwrap_err();
        assert!(e.problem.contains("`g` at position 3"), "{e}");
        assert!(number_split(NumberKind::Decimal, 4, None, Some("9a")).is_err());
        assert!(number_split(NumberKind::Hex, 4, Some("-1"), None).is_err());
        assert!(number_split(NumberKind::Hex, 4, Some(""), None).is_err());
        assert!(number_split(NumberKind::Hex, 1, None, None).is_err());
        assert!(number_split(NumberKind::Hex, 0, None, None).is_err());
        let e = number_split(NumberKind::Hex, 1 << 31, None, None).unwrap_err();
        assert!(e.problem.contains("at most"), "{e}");
    }

    // Mirrors the 0.92 RegionSplitter.MD5StringSplit#split.
    #[test]
    fn md5_legacy() {
        assert_eq!(strs(&md5_legacy_split(2).unwrap()), ["3fffffff"]);
        // 0x7fffffff / 4 = 0x1fffffff.
        assert_eq!(
            strs(&md5_legacy_split(4).unwrap()),
            ["1fffffff", "3ffffffe", "5ffffffd"]
        );
        assert!(md5_legacy_split(1).is_err());
    }
}
