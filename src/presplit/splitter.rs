//! `RegionSplitter.SplitAlgorithm` as a configured object: the two-key `split(start, end)` each
//! algorithm uses to halve an existing region, and its `firstRow()` / `lastRow()`, which stand for
//! the table's open ends in a rolling split (`RegionSplitter.getSplits`).

use super::Algorithm;
use super::bigint::BigUint;
use super::explicit::check_binary_escapes;
use super::hexstring::{NumberKind, pad_left, parse_row};
use super::uniform::bytes_split;
use crate::diag::InputError;
use crate::keynotation::{to_bytes_binary, to_string_binary};

/// One of RegionSplitter's algorithms with its first and last rows
/// (`HexStringSplit`, `DecimalStringSplit`, `UniformSplit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splitter(Inner);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Inner {
    /// `NumberStringSplit`: rows are zero-padded numbers; `width` is the length of the last
    /// row's text (`rowComparisonLength`).
    Number {
        kind: NumberKind,
        first: BigUint,
        last: BigUint,
        width: usize,
    },
    /// `UniformSplit`: raw bytes.
    Uniform { first: Vec<u8>, last: Vec<u8> },
}

impl Splitter {
    /// The algorithm after `setFirstRow(String)` / `setLastRow(String)` when given: digits of the
    /// radix for Hex/Decimal, `toStringBinary` notation for Uniform. Like HBase, this does not
    /// check that the first row sorts before the last (only `split(n)` does). MD5StringSplit
    /// (0.90) and partition keys are not RegionSplitter algorithms: an error.
    pub fn new(
        algorithm: Algorithm,
        first_row: Option<&str>,
        last_row: Option<&str>,
    ) -> Result<Splitter, InputError> {
        let number = |kind: NumberKind| -> Result<Splitter, InputError> {
            let first = match first_row {
                Some(row) => parse_row(kind, row, "first_row")?,
                None => BigUint::zero(),
            };
            let last_text = last_row.unwrap_or(kind.default_last());
            Ok(Splitter(Inner::Number {
                kind,
                first,
                last: parse_row(kind, last_text, "last_row")?,
                width: last_text.len(),
            }))
        };
        let binary = |row: &str, which: &str| -> Result<Vec<u8>, InputError> {
            check_binary_escapes(row).map_err(|at| {
                InputError::new(format!("{which} `{row}` ends inside a \\x escape"))
                    .field(which)
                    .with_span(at..row.len())
                    .expected("`\\x` followed by two upper-case hex digits")
            })?;
            Ok(to_bytes_binary(row))
        };
        match algorithm {
            Algorithm::Hex => number(NumberKind::Hex),
            Algorithm::Decimal => number(NumberKind::Decimal),
            Algorithm::Uniform => Ok(Splitter(Inner::Uniform {
                first: first_row.map_or(Ok(Vec::new()), |r| binary(r, "first_row"))?,
                last: last_row.map_or(Ok(vec![0xFF; 8]), |r| binary(r, "last_row"))?,
            })),
            Algorithm::Md5Legacy | Algorithm::Partition => Err(InputError::new(format!(
                "{algorithm} is not one of RegionSplitter's split algorithms"
            ))
            .field("algorithm")
            .expected(
                "hex (HexStringSplit), decimal (DecimalStringSplit) or uniform (UniformSplit)",
            )),
        }
    }

    /// The HBase class name.
    pub fn class(&self) -> &'static str {
        match &self.0 {
            Inner::Number { kind, .. } => kind.class(),
            Inner::Uniform { .. } => "UniformSplit",
        }
    }

    /// `firstRow()`: for Hex/Decimal the first number padded to the key width (`00000000` by
    /// default); for Uniform the first row's bytes (empty by default).
    pub fn first_row(&self) -> Vec<u8> {
        match &self.0 {
            Inner::Number {
                kind, first, width, ..
            } => number_row(*kind, first, *width),
            Inner::Uniform { first, .. } => first.clone(),
        }
    }

    /// `lastRow()`: `ffffffff` / `99999999` / eight `0xFF` bytes by default (a hex last row comes
    /// back in lower case).
    pub fn last_row(&self) -> Vec<u8> {
        match &self.0 {
            Inner::Number {
                kind, last, width, ..
            } => number_row(*kind, last, *width),
            Inner::Uniform { last, .. } => last.clone(),
        }
    }

    /// `split(start, end)`: the row that halves `[start, end)`, exactly as the algorithm does.
    ///
    /// Hex/Decimal (`NumberStringSplit.split` + `split2`): both keys read as numbers (an empty key
    /// is 0); an end of 0 is refused; an end equal to the last row counts as last + 1 (the last
    /// row is inclusive); the result ⌊(start + end) / 2⌋ is padded to the key width.
    /// Uniform: `Bytes.split(start, end, 1)[1]` — the exclusive split, so the whole default range
    /// halves at `\x7F\xFF…`, one below what `split(2)` gives.
    pub fn split(&self, start: &[u8], end: &[u8]) -> Result<Vec<u8>, InputError> {
        match &self.0 {
            Inner::Number {
                kind, last, width, ..
            } => {
                let s = key_number(*kind, start, "start")?;
                let mut e = key_number(*kind, end, "end")?;
                if e.is_zero() {
                    return Err(InputError::new(format!(
                        "{}: the end key `{}` is 0; the algorithm cannot split a range ending at 0",
                        kind.class(),
                        to_string_binary(end)
                    ))
                    .field("end")
                    .expected("an end key above 0"));
                }
                if e == *last {
                    e.mul_add_small(1, 1);
                }
                e.add_assign(&s);
                Ok(number_row(*kind, &e.div_small(2).0, *width))
            }
            Inner::Uniform { .. } => {
                let mut keys = bytes_split(start, end, false, 1)?;
                Ok(keys.swap_remove(1))
            }
        }
    }

    /// The split point RegionSplitter's rolling split computes for a region
    /// (`RegionSplitter.getSplits`): an empty start is `firstRow()`, an empty end `lastRow()`,
    /// then [`split`](Splitter::split).
    pub fn region_split_point(&self, start: &[u8], end: &[u8]) -> Result<Vec<u8>, InputError> {
        let (first, last);
        let start = if start.is_empty() {
            first = self.first_row();
            &first
        } else {
            start
        };
        let end = if end.is_empty() {
            last = self.last_row();
            &last
        } else {
            end
        };
        self.split(start, end)
    }
}

/// `convertToByte`: the number in the radix, lower case, left-padded with `0`.
fn number_row(kind: NumberKind, n: &BigUint, width: usize) -> Vec<u8> {
    pad_left(n.to_string_radix(kind.radix()), width).into_bytes()
}

/// `convertToBigInteger`: an empty key is 0, else its text read in the radix.
fn key_number(kind: NumberKind, key: &[u8], which: &str) -> Result<BigUint, InputError> {
    if key.is_empty() {
        return Ok(BigUint::zero());
    }
    let text = std::str::from_utf8(key).map_err(|_| {
        InputError::new(format!(
            "{} key `{}` is not text",
            which,
            to_string_binary(key)
        ))
        .field(which)
        .expected(format!("the digits {} rows are made of", kind.class()))
    })?;
    parse_row(kind, text, which)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex() -> Splitter {
        Splitter::new(Algorithm::Hex, None, None).unwrap()
    }

    /// `HexStringSplit.split(byte[], byte[])` (TestRegionSplitter#unitTestHexStringSplit): the
    /// midpoint, with the last row counted inclusive.
    #[test]
    fn hex_string_split_halves_a_range() {
        let h = hex();
        assert_eq!(h.first_row(), b"00000000");
        assert_eq!(h.last_row(), b"ffffffff");
        assert_eq!(h.split(b"00000000", b"ffffffff").unwrap(), b"80000000");
        assert_eq!(h.split(b"10000000", b"20000000").unwrap(), b"18000000");
        assert_eq!(h.split(b"dfffffff", b"ffffffff").unwrap(), b"efffffff");
        // Upper-case input is read; output is lower case; an empty start is 0.
        assert_eq!(h.split(b"", b"A0000000").unwrap(), b"50000000");
        // A one-value range splits at its own start.
        assert_eq!(h.split(b"00000001", b"00000002").unwrap(), b"00000001");
        assert!(h.split(b"00000000", b"").is_err(), "end 0");
        assert!(h.split(b"0000000g", b"10000000").is_err());
        assert_eq!(
            h.region_split_point(b"", b"").unwrap(),
            h.split(b"00000000", b"ffffffff").unwrap()
        );
    }

    /// `DecimalStringSplit.split(byte[], byte[])` and custom rows (`setFirstRow`/`setLastRow`:
    /// the last row's length is the key width).
    #[test]
    fn decimal_string_split_and_custom_rows() {
        let d = Splitter::new(Algorithm::Decimal, None, None).unwrap();
        assert_eq!(d.split(b"00000000", b"99999999").unwrap(), b"50000000");
        assert_eq!(d.split(b"50000000", b"99999999").unwrap(), b"75000000");
        assert_eq!(d.split(b"1", b"4").unwrap(), b"00000002");
        let c = Splitter::new(Algorithm::Decimal, Some("100"), Some("9999")).unwrap();
        assert_eq!(c.first_row(), b"0100");
        assert_eq!(c.last_row(), b"9999");
        assert_eq!(c.region_split_point(b"", b"").unwrap(), b"5050");
        assert!(Splitter::new(Algorithm::Md5Legacy, None, None).is_err());
    }

    /// `UniformSplit.split(byte[], byte[])` = `Bytes.split(start, end, 1)[1]` (exclusive).
    #[test]
    fn uniform_split_halves_exclusively() {
        let u = Splitter::new(Algorithm::Uniform, None, None).unwrap();
        assert_eq!(u.first_row(), b"");
        assert_eq!(u.last_row(), vec![0xFF; 8]);
        assert_eq!(
            u.region_split_point(b"", b"").unwrap(),
            b"\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF"
        );
        assert_eq!(u.split(b"a", b"c").unwrap(), b"b");
        // Too close for one byte: Bytes.split appends a 0x00 byte.
        assert_eq!(u.split(b"a", b"b").unwrap(), b"a\x80");
        assert!(u.split(b"b", b"a").is_err());
        let c = Splitter::new(Algorithm::Uniform, Some("\\x10"), Some("\\x20")).unwrap();
        assert_eq!(c.region_split_point(b"", b"").unwrap(), b"\x18");
    }
}
