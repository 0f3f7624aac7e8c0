//! `salted`: a random-but-deterministic salt bucket in front of the sequential id.

use super::RowKeyGenerator;
use super::batch::per_key;
use super::enc::{decimal_len, push_decimal};
use super::hashed::{id_options, push_id};
use super::rng::{self, streams};
use super::spec::KindEntry;
use super::spec::{self, GeneratorSpec, opt_err};
use super::{Grouping, KeyGroup};
use crate::diag::InputError;

/// The `salted` kind: keys group by their salt bucket.
pub(crate) static KIND: KindEntry = KindEntry {
    key_group: Some(bucket_group),
    ..KindEntry::new(
        "salted",
        &[
            "buckets",
            "bucket_format",
            "separator",
            "id_format",
            "width",
        ],
        |spec, _, seed| Ok(per_key(Salted::from_spec(spec, seed)?)),
    )
};

/// The salt bucket as a key group: one byte, or the decimal digits of N−1. Read from the spec
/// as written (advise groups before it builds).
fn bucket_group(spec: &GeneratorSpec) -> Option<KeyGroup> {
    let buckets = spec.buckets.as_ref().map_or(1, |b| *b.get_ref());
    let decimal = spec
        .bucket_format
        .as_ref()
        .is_some_and(|f| f.get_ref() == "decimal");
    let width = if decimal {
        decimal_len(buckets.saturating_sub(1))
    } else {
        1
    };
    Some(KeyGroup {
        what: format!("salt bucket ({buckets} buckets)"),
        grouping: Grouping::Fixed(width),
    })
}

/// `bucket ‖ separator ‖ id`, bucket = `hash(seed, id) % N`. With `bucket_format = "byte"`
/// (default) the bucket is one raw byte, as Apache Phoenix's `SALT_BUCKETS` (N ≤ 256); with
/// `decimal` it is zero-padded to the digits of N−1.
#[derive(Debug, Clone)]
pub struct Salted {
    seed: u64,
    buckets: u64,
    bucket_width: Option<usize>,
    separator: Vec<u8>,
    decimal: bool,
    width: usize,
}

impl Salted {
    /// From a spec (`buckets` required, `bucket_format`, `id_format`, `separator`, `width`).
    pub fn from_spec(spec: &GeneratorSpec, seed: u64) -> Result<Salted, InputError> {
        let kind = *spec.kind.get_ref();
        let buckets = spec::required_int(
            &spec.buckets,
            "buckets",
            kind,
            spec.kind.span(),
            1..=u64::MAX,
        )?;
        let byte =
            spec::choice(&spec.bucket_format, "bucket_format", &["byte", "decimal"])? == "byte";
        if let (true, Some(b)) = (byte && buckets > 256, &spec.buckets) {
            return Err(opt_err(
                "buckets",
                b.span(),
                format!("{buckets} buckets do not fit in one salt byte"),
                "buckets in 1..=256, or `bucket_format = \"decimal\"`",
            ));
        }
        let (decimal, separator, width) = id_options(spec)?;
        Ok(Salted {
            seed,
            buckets,
            bucket_width: (!byte).then(|| decimal_len(buckets - 1)),
            separator,
            decimal,
            width,
        })
    }

    /// The bucket of `id`.
    pub fn bucket(&self, id: u64) -> u64 {
        rng::below(rng::draw(self.seed, streams::SALT, id), self.buckets)
    }
}

impl RowKeyGenerator for Salted {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        let b = self.bucket(id);
        match self.bucket_width {
            None => out.push(b as u8),
            Some(w) => push_decimal(out, b, w, b'0'),
        }
        out.extend_from_slice(&self.separator);
        push_id(out, id, self.decimal, self.width);
    }
    fn describe(&self) -> String {
        format!(
            "salted: {} of {} buckets + {:?} + id ({})",
            if self.bucket_width.is_some() {
                "decimal bucket"
            } else {
                "bucket byte"
            },
            self.buckets,
            String::from_utf8_lossy(&self.separator),
            if self.decimal {
                "decimal"
            } else {
                "8 bytes BE"
            }
        )
    }
    fn scan_locality(&self) -> super::ScanLocality {
        // Bucket then separator: the ids of one bucket sort in ingest order after it.
        super::ScanLocality::Prefix(self.bucket_width.unwrap_or(1) + self.separator.len())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;

    #[test]
    fn byte_bucket_then_binary_id() {
        let g = build_toml("[[generator]]\nname='s'\nkind='salted'\nbuckets=16\n").unwrap();
        let mut seen = [false; 16];
        for id in 0..1000u64 {
            let k = key(&g, id);
            assert_eq!(k.len(), 9);
            assert!(k[0] < 16);
            seen[k[0] as usize] = true;
            assert_eq!(&k[1..], &id.to_be_bytes());
            assert_eq!(k, key(&g, id), "deterministic");
        }
        assert!(seen.iter().all(|&s| s), "all buckets used");
    }

    #[test]
    fn decimal_bucket_and_id() {
        let g = build_toml(
            "[[generator]]\nname='s'\nkind='salted'\nbuckets=100\nbucket_format='decimal'\nid_format='decimal'\nwidth=6\n",
        )
        .unwrap();
        let k = key(&g, 42);
        assert_eq!(k.len(), 2 + 1 + 6);
        assert_eq!(&k[2..], b"_000042");
    }

    #[test]
    fn too_many_byte_buckets() {
        let e = build_toml("[[generator]]\nname='s'\nkind='salted'\nbuckets=300\n")
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.buckets"));
    }
}
