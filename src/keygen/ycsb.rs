//! `ycsb`: YCSB `CoreWorkload.buildKeyName` keys.
//!
//! `buildKeyName(keynum)`: unless inserts are ordered, `keynum = Utils.hash(keynum)` (=
//! `fnvhash64`); then `"user"` + `'0'` × (zeropadding − len(value)) + `Long.toString(keynum)`.
//! `fnvhash64` hashes the 8 low-to-high bytes of the long with FNV-1a 64 and returns
//! `Math.abs(hash)` (so `Long.MIN_VALUE` stays negative and prints with a `-`, as in Java).

use super::batch::per_key;
use super::enc::{decimal_len, push_signed_decimal};
use super::spec::KindEntry;
use super::spec::{self, GeneratorSpec};
use super::{RowKeyGenerator, check_fixed_len};
use crate::diag::InputError;
use toml::Spanned;

/// The `ycsb` kind.
pub(crate) static KIND: KindEntry = KindEntry::new(
    "ycsb",
    &["ordered", "zero_padding", "prefix"],
    |spec, _, _| Ok(per_key(Ycsb::from_spec(spec)?)),
);

/// YCSB `Utils.fnvhash64(long)`.
pub fn fnvhash64(val: u64) -> i64 {
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    let mut v = val;
    for _ in 0..8 {
        hash ^= v & 0xFF;
        hash = hash.wrapping_mul(1_099_511_628_211);
        v >>= 8;
    }
    (hash as i64).wrapping_abs()
}

/// `prefix` (default "user") + zero fill + decimal (FNV hash of the id, or the id if `ordered`).
#[derive(Debug, Clone)]
pub struct Ycsb {
    prefix: Vec<u8>,
    ordered: bool,
    zero_padding: usize,
}

impl Ycsb {
    /// From a spec (`ordered` default false, `zero_padding` default 1 as YCSB's `zeropadding`,
    /// `prefix` default "user").
    pub fn from_spec(spec: &GeneratorSpec) -> Result<Ycsb, InputError> {
        let prefix = spec::text(&spec.prefix, "user").as_bytes().to_vec();
        let zero_padding = spec::int(&spec.zero_padding, "zero_padding", 1, 0..=1024)? as usize;
        check_fixed_len(
            prefix.len() + zero_padding.max(1),
            "prefix",
            spec.prefix.as_ref().map_or(0..0, Spanned::span),
        )?;
        Ok(Ycsb {
            prefix,
            ordered: spec::flag(&spec.ordered, false),
            zero_padding,
        })
    }
}

impl RowKeyGenerator for Ycsb {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.prefix);
        if self.ordered {
            // Long.toString of a (positive in practice) long; ids ≥ 2^63 print as Java would.
            let v = id as i64;
            let len = if v < 0 { 20 } else { decimal_len(v as u64) };
            out.extend(std::iter::repeat_n(
                b'0',
                self.zero_padding.saturating_sub(len),
            ));
            push_signed_decimal(out, v, 0);
        } else {
            let h = fnvhash64(id);
            let len = if h < 0 { 20 } else { decimal_len(h as u64) };
            out.extend(std::iter::repeat_n(
                b'0',
                self.zero_padding.saturating_sub(len),
            ));
            push_signed_decimal(out, h, 0);
        }
    }
    fn describe(&self) -> String {
        format!(
            "ycsb: {:?} + {} (zeropadding {})",
            String::from_utf8_lossy(&self.prefix),
            if self.ordered {
                "ordered id"
            } else {
                "fnvhash64(id)"
            },
            self.zero_padding
        )
    }
    fn scan_locality(&self) -> super::ScanLocality {
        if self.ordered {
            super::ScanLocality::Ordered
        } else {
            super::ScanLocality::Scattered
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    // Mirrors site.ycsb.Utils.fnvhash64: FNV-1a over the long's 8 bytes, low byte first, abs.
    #[test]
    fn fnvhash64_matches_reference_loop() {
        // Hand check of id 0: eight rounds of (h ^ 0) * prime starting at the offset basis.
        let mut h: u64 = 0xCBF2_9CE4_8422_2325;
        for _ in 0..8 {
            h = h.wrapping_mul(0x100_0000_01B3);
        }
        assert_eq!(fnvhash64(0), (h as i64).wrapping_abs());
        assert!(fnvhash64(12345) >= 0);
        // YCSB's well-known first key (keynum 0) is user6284781860667377211.
        assert_eq!(fnvhash64(0), 6_284_781_860_667_377_211);
        assert_eq!(fnvhash64(1), 8_517_097_267_634_966_620);
    }

    // Mirrors CoreWorkload.buildKeyName.
    #[test]
    fn build_key_name() {
        let g = build_toml("[[generator]]\nname='y'\nkind='ycsb'\n").unwrap();
        assert_eq!(key(&g, 7), format!("user{}", fnvhash64(7)).as_bytes());
        let g = build_toml("[[generator]]\nname='y'\nkind='ycsb'\nordered=true\nzero_padding=8\n")
            .unwrap();
        assert_eq!(key(&g, 42), b"user00000042");
        let g = build_toml("[[generator]]\nname='y'\nkind='ycsb'\nzero_padding=25\n").unwrap();
        let k = key(&g, 3);
        assert_eq!(k.len(), 4 + 25);
    }
}
