//! Allocation-free encoders that append to a key buffer: decimal, hex, MD5.

use md5::{Digest, Md5};

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Number of decimal digits of `v` (1 for 0).
pub fn decimal_len(v: u64) -> usize {
    let mut n = 1;
    let mut x = v;
    while x >= 10 {
        x /= 10;
        n += 1;
    }
    n
}

/// Appends `v` in decimal, left-padded with `pad` to at least `width` bytes.
pub fn push_decimal(out: &mut Vec<u8>, v: u64, width: usize, pad: u8) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut x = v;
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    let digits = buf.len() - i;
    out.extend(std::iter::repeat_n(pad, width.saturating_sub(digits)));
    out.extend_from_slice(&buf[i..]);
}

/// Appends a signed decimal as Java's `Long.toString` prints it.
pub fn push_signed_decimal(out: &mut Vec<u8>, v: i64, width: usize) {
    if v < 0 {
        out.push(b'-');
    }
    push_decimal(
        out,
        v.unsigned_abs(),
        width.saturating_sub(usize::from(v < 0)),
        b'0',
    );
}

/// Appends `v` in hex (no leading zeros beyond `width`).
pub fn push_hex_u64(out: &mut Vec<u8>, v: u64, width: usize, upper: bool) {
    let table = if upper { HEX_UPPER } else { HEX_LOWER };
    let digits = if v == 0 {
        1
    } else {
        (67 - v.leading_zeros() as usize) / 4
    };
    out.extend(std::iter::repeat_n(b'0', width.saturating_sub(digits)));
    for k in (0..digits).rev() {
        out.push(table[((v >> (4 * k)) & 0xF) as usize]);
    }
}

/// Appends the first `chars` lowercase hex characters of `bytes` (HBase `MD5Hash.getMD5AsHex`
/// prints lowercase).
pub fn push_hex_prefix(out: &mut Vec<u8>, bytes: &[u8], chars: usize) {
    for k in 0..chars.min(bytes.len() * 2) {
        let b = bytes[k / 2];
        let nibble = if k % 2 == 0 { b >> 4 } else { b & 0xF };
        out.push(HEX_LOWER[nibble as usize]);
    }
}

/// 4 bytes as 8 lowercase hex characters. Branch-free in one word (the feed's hottest
/// formatting: a table lookup per character cost more than the arithmetic): the nibbles are
/// spread a byte each, then each becomes `'0' + n`, plus 39 from 10 on (to reach `'a'`).
#[inline]
pub fn hex4(bytes: [u8; 4]) -> [u8; 8] {
    let v = u64::from(u32::from_be_bytes(bytes));
    // Two bytes per 32-bit half, one per 16-bit quarter, one nibble per byte (high first).
    let v = ((v & 0xFFFF_0000) << 16) | (v & 0xFFFF);
    let v = ((v & 0x0000_FF00_0000_FF00) << 8) | (v & 0x0000_00FF_0000_00FF);
    let v = ((v & 0x00F0_00F0_00F0_00F0) << 4) | (v & 0x000F_000F_000F_000F);
    // Per byte n ≤ 15: n + 0x76 sets bit 7 exactly from 10 on; no carry crosses a byte.
    let letters = ((v + 0x7676_7676_7676_7676) >> 7) & 0x0101_0101_0101_0101;
    (v + 0x3030_3030_3030_3030 + letters * 0x27).to_be_bytes()
}

/// MD5 of `input` (RFC 1321) as 16 bytes on the stack.
#[inline]
pub fn md5(input: &[u8]) -> [u8; 16] {
    let d = Md5::digest(input);
    let mut a = [0u8; 16];
    a.copy_from_slice(&d);
    a
}

/// The decimal digits of `v` as a stack buffer and its used length.
pub fn decimal_bytes(v: u64) -> ([u8; 20], usize) {
    let mut buf = [0u8; 20];
    let n = decimal_len(v);
    let mut x = v;
    for i in (0..n).rev() {
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
    }
    (buf, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_and_hex() {
        let mut v = Vec::new();
        push_decimal(&mut v, 42, 5, b'0');
        push_decimal(&mut v, 0, 0, b'0');
        push_decimal(&mut v, u64::MAX, 3, b'0');
        assert_eq!(v, b"00042018446744073709551615");
        v.clear();
        push_hex_u64(&mut v, 0xAB, 4, false);
        push_hex_u64(&mut v, 0, 0, true);
        push_hex_u64(&mut v, u64::MAX, 0, true);
        assert_eq!(v, b"00ab0FFFFFFFFFFFFFFFF");
        v.clear();
        push_signed_decimal(&mut v, i64::MIN, 1);
        assert_eq!(v, b"-9223372036854775808");
        assert_eq!(decimal_len(9), 1);
        assert_eq!(decimal_len(10), 2);
        let (b, n) = decimal_bytes(1234);
        assert_eq!(&b[..n], b"1234");
    }

    /// Every nibble value at every position, and a spread of whole words, as `{:08x}` prints.
    #[test]
    fn hex4_is_lowercase_hex_of_the_bytes() {
        let words = (0..8u32)
            .flat_map(|j| {
                (0..16u32).map(move |n| (n << (4 * j)) | (0x5A5A_5A5A & !(0xF << (4 * j))))
            })
            .chain((0..100_000u32).map(|i| i.wrapping_mul(0x9E37_79B9)))
            .chain([0, u32::MAX]);
        for w in words {
            assert_eq!(
                hex4(w.to_be_bytes()),
                *format!("{w:08x}").as_bytes(),
                "{w:08x}"
            );
        }
    }

    #[test]
    fn md5_matches_rfc1321_vector() {
        let mut v = Vec::new();
        push_hex_prefix(&mut v, &md5(b"abc"), 32);
        assert_eq!(v, b"900150983cd24fb0d6963f7d28e17f72");
    }
}
