//! `uniform`: uniformly random key bytes from the seeded stream.

use super::batch::per_key;
use super::rng::{self, streams};
use super::spec::KindEntry;
use super::spec::{self, GeneratorSpec};
use super::{MAX_ROW_LENGTH, RowKeyGenerator};
use crate::diag::InputError;

/// The `uniform` kind.
pub(crate) static KIND: KindEntry = KindEntry::new("uniform", &["length"], |spec, _, seed| {
    Ok(per_key(Uniform::from_spec(spec, seed)?))
});

/// `length` random bytes; byte word `k` of row `id` is `draw(seed, UNIFORM + (k << 16), id)`.
#[derive(Debug, Clone, Copy)]
pub struct Uniform {
    seed: u64,
    length: usize,
}

impl Uniform {
    /// From a spec (`length` 1..=32767, default 16).
    pub fn from_spec(spec: &GeneratorSpec, seed: u64) -> Result<Uniform, InputError> {
        Ok(Uniform {
            seed,
            length: spec::int(&spec.length, "length", 16, 1..=MAX_ROW_LENGTH as u64)? as usize,
        })
    }
}

impl RowKeyGenerator for Uniform {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        let mut left = self.length;
        let mut k = 0u64;
        while left > 0 {
            let w = rng::draw(self.seed, streams::UNIFORM + (k << 16), id).to_be_bytes();
            let n = left.min(8);
            out.extend_from_slice(&w[..n]);
            left -= n;
            k += 1;
        }
    }
    fn describe(&self) -> String {
        format!("uniform: {} random bytes", self.length)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;

    #[test]
    fn length_and_spread() {
        let g = build_toml("[[generator]]\nname='u'\nkind='uniform'\nlength=5\n").unwrap();
        let mut first = [0u32; 4];
        for id in 0..4000 {
            let k = key(&g, id);
            assert_eq!(k.len(), 5);
            first[(k[0] >> 6) as usize] += 1;
        }
        assert!(first.iter().all(|&n| (850..1150).contains(&n)), "{first:?}");
        let g2 = build_toml("[[generator]]\nname='u'\nkind='uniform'\nlength=5\n").unwrap();
        assert_eq!(key(&g, 77), key(&g2, 77));
    }

    #[test]
    fn zero_length_rejected() {
        let e = build_toml("[[generator]]\nname='u'\nkind='uniform'\nlength=0\n")
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.length"));
    }
}
