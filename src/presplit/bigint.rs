//! A small unsigned big integer: just what the split algorithms need (Java's `BigInteger` is
//! what HBase uses). Little-endian `u32` limbs, always normalised (no high zero limbs).

use std::cmp::Ordering;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    pub(crate) fn zero() -> BigUint {
        BigUint { limbs: Vec::new() }
    }

    pub(crate) fn from_u64(v: u64) -> BigUint {
        let mut n = BigUint {
            limbs: vec![v as u32, (v >> 32) as u32],
        };
        n.normalize();
        n
    }

    fn normalize(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The value as `u64`, if it fits.
    pub(crate) fn to_u64(&self) -> Option<u64> {
        match self.limbs.as_slice() {
            [] => Some(0),
            [a] => Some(u64::from(*a)),
            [a, b] => Some(u64::from(*a) | (u64::from(*b) << 32)),
            _ => None,
        }
    }

    /// Big-endian unsigned bytes.
    pub(crate) fn from_be_bytes(bytes: &[u8]) -> BigUint {
        let mut limbs = Vec::with_capacity(bytes.len() / 4 + 1);
        for chunk in bytes.rchunks(4) {
            let mut v = 0u32;
            for &b in chunk {
                v = (v << 8) | u32::from(b);
            }
            limbs.push(v);
        }
        let mut n = BigUint { limbs };
        n.normalize();
        n
    }

    /// Big-endian bytes left-padded with zeros to exactly `len`; `None` if the value needs more.
    pub(crate) fn to_be_bytes_padded(&self, len: usize) -> Option<Vec<u8>> {
        let mut out = vec![0u8; len];
        for (i, &limb) in self.limbs.iter().enumerate() {
            for k in 0..4 {
                let byte = (limb >> (8 * k)) as u8;
                let idx = i * 4 + k;
                if idx < len {
                    out[len - 1 - idx] = byte;
                } else if byte != 0 {
                    return None;
                }
            }
        }
        Some(out)
    }

    /// Parses ASCII digits of `radix` (either letter case). `Err(i)`: byte index of a bad digit.
    pub(crate) fn parse_radix(s: &str, radix: u32) -> Result<BigUint, usize> {
        let mut n = BigUint::zero();
        for (i, c) in s.char_indices() {
            let d = match c {
                '0'..='9' | 'a'..='z' | 'A'..='Z' => c.to_digit(radix),
                _ => None,
            }
            .ok_or(i)?;
            n.mul_add_small(u64::from(radix), u64::from(d));
        }
        Ok(n)
    }

    /// Lowercase digits in `radix` (2..=36), no leading zeros ("0" for zero), as
    /// `BigInteger.toString(radix)` renders a non-negative value.
    pub(crate) fn to_string_radix(&self, radix: u32) -> String {
        if let Some(v) = self.to_u64() {
            return u64_radix(v, radix);
        }
        if radix == 16 {
            // Linear: each limb is exactly 8 hex digits.
            let mut s = String::with_capacity(self.limbs.len() * 8);
            for (i, limb) in self.limbs.iter().rev().enumerate() {
                if i == 0 {
                    s.push_str(&format!("{limb:x}"));
                } else {
                    s.push_str(&format!("{limb:08x}"));
                }
            }
            return s;
        }
        // Peel off chunks of `per` digits at a time.
        let mut per = 1u32;
        let mut chunk = u64::from(radix);
        while chunk
            .checked_mul(u64::from(radix))
            .is_some_and(|c| c < (1 << 62))
        {
            chunk *= u64::from(radix);
            per += 1;
        }
        let mut parts = Vec::new();
        let mut n = self.clone();
        while !n.is_zero() {
            let (q, r) = n.div_small(chunk);
            parts.push(r);
            n = q;
        }
        let mut s = String::new();
        for (i, part) in parts.iter().rev().enumerate() {
            let digits = u64_radix(*part, radix);
            if i > 0 {
                for _ in digits.len()..per as usize {
                    s.push('0');
                }
            }
            s.push_str(&digits);
        }
        s
    }

    /// `self = self * m + a`.
    pub(crate) fn mul_add_small(&mut self, m: u64, a: u64) {
        let mut carry = u128::from(a);
        for limb in &mut self.limbs {
            let v = u128::from(*limb) * u128::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        while carry > 0 {
            self.limbs.push(carry as u32);
            carry >>= 32;
        }
        self.normalize();
    }

    /// `(self / d, self % d)`; `d` must be non-zero (callers guarantee it).
    pub(crate) fn div_small(&self, d: u64) -> (BigUint, u64) {
        debug_assert!(d != 0);
        let d = u128::from(d.max(1));
        let mut q = vec![0u32; self.limbs.len()];
        let mut rem: u128 = 0;
        for i in (0..self.limbs.len()).rev() {
            let cur = (rem << 32) | u128::from(self.limbs[i]);
            q[i] = (cur / d) as u32;
            rem = cur % d;
        }
        let mut q = BigUint { limbs: q };
        q.normalize();
        (q, rem as u64)
    }

    pub(crate) fn add_assign(&mut self, other: &BigUint) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = 0u64;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let o = other.limbs.get(i).copied().unwrap_or(0);
            if o == 0 && carry == 0 && i >= other.limbs.len() {
                break;
            }
            let v = u64::from(*limb) + u64::from(o) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
    }

    /// `self − other`, or `None` when `other > self`.
    pub(crate) fn checked_sub(&self, other: &BigUint) -> Option<BigUint> {
        if *self < *other {
            return None;
        }
        let mut limbs = self.limbs.clone();
        let mut borrow = 0i64;
        for (i, limb) in limbs.iter_mut().enumerate() {
            let o = i64::from(other.limbs.get(i).copied().unwrap_or(0));
            let mut v = i64::from(*limb) - o - borrow;
            borrow = 0;
            if v < 0 {
                v += 1 << 32;
                borrow = 1;
            }
            *limb = v as u32;
        }
        let mut n = BigUint { limbs };
        n.normalize();
        Some(n)
    }
}

fn u64_radix(mut v: u64, radix: u32) -> String {
    if v == 0 {
        return "0".to_string();
    }
    let mut digits = Vec::new();
    while v > 0 {
        let d = (v % u64::from(radix)) as u32;
        digits.push(char::from_digit(d, radix).unwrap_or('?'));
        v /= u64::from(radix);
    }
    digits.iter().rev().collect()
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &BigUint) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &BigUint) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn radix_round_trip_and_arithmetic() {
        let n = BigUint::parse_radix("FFFFFFFF", 16).unwrap();
        assert_eq!(n.to_u64(), Some(0xFFFF_FFFF));
        assert_eq!(n.to_string_radix(16), "ffffffff");
        let big = BigUint::parse_radix("123456789abcdef0123456789abcdef0123", 16).unwrap();
        assert_eq!(
            big.to_string_radix(16),
            "123456789abcdef0123456789abcdef0123"
        );
        let dec = BigUint::parse_radix("100000000000000000000000000000000000001", 10).unwrap();
        assert_eq!(
            dec.to_string_radix(10),
            "100000000000000000000000000000000000001"
        );
        assert_eq!(BigUint::parse_radix("12g", 16), Err(2));
        assert_eq!(BigUint::zero().to_string_radix(10), "0");
        let bytes = [1u8, 0, 0, 0, 0, 0, 0, 0, 0];
        let b = BigUint::from_be_bytes(&bytes);
        assert_eq!(b.to_be_bytes_padded(9).unwrap(), bytes.to_vec());
        assert_eq!(b.to_be_bytes_padded(8), None);
        assert_eq!(b.to_be_bytes_padded(11).unwrap()[..2], [0, 0]);
    }

    proptest! {
        #[test]
        fn matches_u128(a in any::<u64>(), b in any::<u64>(), d in 1u64..u64::MAX) {
            let (x, y) = (BigUint::from_u64(a), BigUint::from_u64(b));
            let mut s = x.clone();
            s.add_assign(&y);
            let sum = u128::from(a) + u128::from(b);
            prop_assert_eq!(s.to_be_bytes_padded(16).unwrap(), sum.to_be_bytes().to_vec());
            prop_assert_eq!(x.cmp(&y), a.cmp(&b));
            let diff = x.checked_sub(&y);
            prop_assert_eq!(diff.and_then(|d| d.to_u64()), a.checked_sub(b));
            let (q, r) = s.div_small(d);
            prop_assert_eq!(q.to_be_bytes_padded(16).unwrap(), (sum / u128::from(d)).to_be_bytes().to_vec());
            prop_assert_eq!(u128::from(r), sum % u128::from(d));
            prop_assert_eq!(s.to_string_radix(10), sum.to_string());
            prop_assert_eq!(s.to_string_radix(16), format!("{sum:x}"));
        }
    }
}
