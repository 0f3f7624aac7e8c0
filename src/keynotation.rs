//! HBase's key notation: `Bytes.toStringBinary` and `Bytes.toBytesBinary`.
//!
//! Every key hbase-emu prints or reads uses this notation, so output pastes into the HBase shell
//! and shell output pastes back. Mirrors `org.apache.hadoop.hbase.util.Bytes` (hbase-common).

use crate::diag::{InputError, SourceText};

/// `Bytes.toStringBinary`: bytes 0x20..=0x7E except `\` print as themselves, every other byte as
/// `\xHH` with two **uppercase** hex digits.
pub fn to_string_binary(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    push_string_binary(&mut s, bytes);
    s
}

/// Appends the `toStringBinary` form of `bytes` to `out` (no allocation beyond `out`'s growth).
pub fn push_string_binary(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in bytes {
        if (0x20..=0x7E).contains(&b) && b != b'\\' {
            out.push(b as char);
        } else {
            out.push('\\');
            out.push('x');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xF) as usize] as char);
        }
    }
}

fn hex_upper_value(c: u16) -> Option<u8> {
    match c {
        0x30..=0x39 => Some((c - 0x30) as u8),
        0x41..=0x46 => Some((c - 0x41 + 10) as u8),
        _ => None,
    }
}

/// `Bytes.toBytesBinary`: decodes `\xHH` where both digits are `0-9` or **uppercase** `A-F`.
/// A `\x` followed by invalid digits loses only its backslash (HBase skips the "bogus escape");
/// every other character is copied as its low 8 bits, as Java's `(byte) ch` does with UTF-16
/// code units. Where HBase would throw (a `\x` with fewer than two characters after it) the
/// characters are copied as they are.
pub fn to_bytes_binary(s: &str) -> Vec<u8> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let mut out = Vec::with_capacity(units.len());
    let mut i = 0;
    while i < units.len() {
        let ch = units[i];
        if ch == u16::from(b'\\') && i + 3 < units.len() && units[i + 1] == u16::from(b'x') {
            match (hex_upper_value(units[i + 2]), hex_upper_value(units[i + 3])) {
                (Some(h), Some(l)) => {
                    out.push((h << 4) | l);
                    i += 4;
                }
                _ => i += 1, // bogus escape: drop the backslash only
            }
        } else {
            out.push(ch as u8);
            i += 1;
        }
    }
    out
}

/// Finds where `Bytes.toBytesBinary` would throw: a `\x` with fewer than two characters (UTF-16
/// units, as Java counts) after it. `Err` holds the byte offset of that backslash.
pub fn check_binary_escapes(s: &str) -> Result<(), usize> {
    let units: Vec<(usize, u16)> = s
        .char_indices()
        .flat_map(|(at, c)| {
            let mut buf = [0u16; 2];
            let n = c.encode_utf16(&mut buf).len();
            (0..n).map(move |i| (at, buf[i]))
        })
        .collect();
    let is_hex = |u: u16| matches!(u, 0x30..=0x39 | 0x41..=0x46);
    let mut i = 0;
    while i < units.len() {
        if units[i].1 == u16::from(b'\\') && units.get(i + 1).map(|u| u.1) == Some(u16::from(b'x'))
        {
            match (units.get(i + 2), units.get(i + 3)) {
                (Some(h), Some(l)) if is_hex(h.1) && is_hex(l.1) => i += 4,
                (Some(_), Some(_)) => i += 1,
                _ => return Err(units[i].0),
            }
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// Decodes one line of a key file or SPLITS_FILE with `Bytes.toBytesBinary`, refusing what HBase
/// refuses: a `\x` escape cut short by the end of the line is an error at `file:line:column`
/// (`line_start` is the byte offset of `line` in `src`). Shared by the SPLITS_FILE reader and the
/// `file` key generator.
pub fn decode_binary_line(
    src: &SourceText,
    line: &str,
    line_start: usize,
) -> Result<Vec<u8>, InputError> {
    if let Err(at) = check_binary_escapes(line) {
        let at = line_start + at;
        return Err(InputError::new(
            "`\\x` escape cut short by the end of the line (HBase's toBytesBinary fails on it)",
        )
        .at(src, at..line_start + line.len())
        .expected("`\\x` followed by two upper-case hex digits"));
    }
    Ok(to_bytes_binary(line))
}

/// Lowercase hex of `bytes` (for key files in hex and MD5 prefixes).
pub fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    push_hex(&mut s, bytes);
    s
}

/// Appends lowercase hex of `bytes` to `out`.
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 0xF) as usize] as char);
    }
}

/// Decodes hex (either case, even length). Returns the offending character index on error.
pub fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err(format!("hex key `{s}` has an odd number of digits"));
    }
    let val = |i: usize| -> Result<u8, String> {
        (b[i] as char).to_digit(16).map(|d| d as u8).ok_or_else(|| {
            format!(
                "`{}` at position {} is not a hex digit",
                b[i] as char,
                i + 1
            )
        })
    };
    (0..b.len() / 2)
        .map(|i| Ok((val(2 * i)? << 4) | val(2 * i + 1)?))
        .collect()
}

/// A key as a single-quoted HBase shell (Ruby) literal: the `toStringBinary` form with `'`
/// written as `\x27`, so the shell's `toBytesBinary` gives back the exact bytes.
pub fn to_shell_literal(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('\'');
    s.push_str(&to_string_binary(bytes).replace('\'', "\\x27"));
    s.push('\'');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Mirrors org.apache.hadoop.hbase.util.Bytes#toStringBinary.
    #[test]
    fn string_binary_escapes_like_hbase() {
        assert_eq!(to_string_binary(b"row-1"), "row-1");
        assert_eq!(
            to_string_binary(&[0, 0, 0, 0, 0, 0, 0, 1]),
            "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01"
        );
        assert_eq!(to_string_binary(b"a\\b"), "a\\x5Cb");
        assert_eq!(to_string_binary(&[0x7F, 0xFF, b' ', b'~']), "\\x7F\\xFF ~");
    }

    // Mirrors org.apache.hadoop.hbase.util.Bytes#toBytesBinary, including its leniency.
    #[test]
    fn bytes_binary_decodes_like_hbase() {
        assert_eq!(to_bytes_binary("\\x00\\x01ab"), vec![0, 1, b'a', b'b']);
        assert_eq!(to_bytes_binary("\\xFF"), vec![0xFF]);
        // lowercase hex digits are not an escape: the backslash is dropped, the rest copied
        assert_eq!(to_bytes_binary("\\xff"), b"xff".to_vec());
        assert_eq!(to_bytes_binary("\\xZZ1"), b"xZZ1".to_vec());
        // a lone backslash not followed by x is copied
        assert_eq!(to_bytes_binary("a\\b"), b"a\\b".to_vec());
        // too short to be an escape
        assert_eq!(to_bytes_binary("\\x4"), b"\\x4".to_vec());
        // Java's (byte) ch on a non-ASCII char keeps the low 8 bits
        assert_eq!(to_bytes_binary("é"), vec![0xE9]);
    }

    #[test]
    fn shell_literal_survives_quotes() {
        assert_eq!(to_shell_literal(b"it's"), "'it\\x27s'");
        assert_eq!(
            to_bytes_binary(&to_shell_literal(b"it's")[1..8]),
            b"it's".to_vec()
        );
    }

    #[test]
    fn hex_round_trip() {
        assert_eq!(to_hex(&[0xAB, 0x01]), "ab01");
        assert_eq!(from_hex("AB01").unwrap(), vec![0xAB, 0x01]);
        assert!(from_hex("abc").is_err());
        assert!(from_hex("zz").unwrap_err().contains("position 1"));
    }

    proptest! {
        #[test]
        fn string_binary_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(to_bytes_binary(&to_string_binary(&bytes)), bytes);
        }

        #[test]
        fn string_binary_is_printable_ascii(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let s = to_string_binary(&bytes);
            prop_assert!(s.bytes().all(|b| (0x20..=0x7E).contains(&b)));
        }
    }
}
