//! `reversed`: the digits of a fixed-width decimal id written back to front (phone numbers,
//! account numbers), spreading consecutive ids over the key space by their last digit.

use super::RowKeyGenerator;
use super::batch::per_key;
use super::spec::KindEntry;
use super::spec::{self, GeneratorSpec};
use crate::diag::InputError;

/// The `reversed` kind.
pub(crate) static KIND: KindEntry =
    KindEntry::new("reversed", &["digits", "base"], |spec, _, _| {
        Ok(per_key(Reversed::from_spec(spec)?))
    });

/// `reverse(zero-pad(base + id, digits))`; `base + id` is taken mod 10^digits.
#[derive(Debug, Clone, Copy)]
pub struct Reversed {
    digits: usize,
    base: u64,
}

impl Reversed {
    /// From a spec (`digits` 1..=20 default 11, `base` default 0).
    pub fn from_spec(spec: &GeneratorSpec) -> Result<Reversed, InputError> {
        Ok(Reversed {
            digits: spec::int(&spec.digits, "digits", 11, 1..=20)? as usize,
            base: spec::int(&spec.base, "base", 0, 0..=u64::MAX)?,
        })
    }
}

impl RowKeyGenerator for Reversed {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        let mut x = u128::from(self.base) + u128::from(id);
        for _ in 0..self.digits {
            out.push(b'0' + (x % 10) as u8);
            x /= 10;
        }
    }
    fn describe(&self) -> String {
        format!(
            "reversed: {} digits of (base {} + id), last digit first",
            self.digits, self.base
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;

    #[test]
    fn phone_number_reversed() {
        let g = build_toml("[[generator]]\nname='r'\nkind='reversed'\nbase=13800000000\n").unwrap();
        assert_eq!(key(&g, 12345), b"54321000831");
        let g = build_toml("[[generator]]\nname='r'\nkind='reversed'\ndigits=4\n").unwrap();
        assert_eq!(key(&g, 12), b"2100");
        assert_eq!(key(&g, 123_456), b"6543", "wraps mod 10^digits");
    }
}
