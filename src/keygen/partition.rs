//! `partition` and `modulo`: the id's residue mod N in front of the id.

use super::RowKeyGenerator;
use super::batch::per_key;
use super::enc::push_decimal;
use super::spec::KindEntry;
use super::spec::{self, GeneratorSpec};
use super::{Grouping, KeyGroup};
use crate::diag::InputError;

/// The `partition` kind: keys group by their 8-byte partition.
pub(crate) static PARTITION: KindEntry = KindEntry {
    key_group: Some(|_| {
        Some(KeyGroup {
            what: "partition prefix (8-byte id % N)".into(),
            grouping: Grouping::Fixed(8),
        })
    }),
    ..KindEntry::new("partition", &["partitions"], |spec, _, _| {
        Ok(per_key(Partition::from_spec(spec)?))
    })
};

/// The `modulo` kind: keys group by the decimal residue before `_`.
pub(crate) static MODULO: KindEntry = KindEntry {
    key_group: Some(|_| {
        Some(KeyGroup {
            what: "modulo prefix (decimal id % N)".into(),
            grouping: Grouping::Delimited(b"_".to_vec()),
        })
    }),
    ..KindEntry::new("modulo", &["partitions"], |spec, _, _| {
        Ok(per_key(Modulo::from_spec(spec)?))
    })
};

fn partitions(spec: &GeneratorSpec) -> Result<u64, InputError> {
    spec::required_int(
        &spec.partitions,
        "partitions",
        *spec.kind.get_ref(),
        spec.kind.span(),
        1..=u64::MAX,
    )
}

/// `partition`: `[id % N: 8 BE][id: 8 BE]` — N evenly filled, internally sequential partitions.
#[derive(Debug, Clone, Copy)]
pub struct Partition {
    n: u64,
}

impl Partition {
    /// From a spec (`partitions` = N, required).
    pub fn from_spec(spec: &GeneratorSpec) -> Result<Partition, InputError> {
        Ok(Partition {
            n: partitions(spec)?,
        })
    }
}

impl RowKeyGenerator for Partition {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&(id % self.n).to_be_bytes());
        out.extend_from_slice(&id.to_be_bytes());
    }
    fn describe(&self) -> String {
        format!("partition: [id % {}:8 BE][id:8 BE]", self.n)
    }
    fn scan_locality(&self) -> super::ScanLocality {
        super::ScanLocality::Prefix(8)
    }
}

/// `modulo`: decimal `id % N` + `_` + decimal id (not zero-padded: "10_…" sorts before "2_…").
#[derive(Debug, Clone, Copy)]
pub struct Modulo {
    n: u64,
}

impl Modulo {
    /// From a spec (`partitions` = N, required).
    pub fn from_spec(spec: &GeneratorSpec) -> Result<Modulo, InputError> {
        Ok(Modulo {
            n: partitions(spec)?,
        })
    }
}

impl RowKeyGenerator for Modulo {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        push_decimal(out, id % self.n, 0, b'0');
        out.push(b'_');
        push_decimal(out, id, 0, b'0');
    }
    fn describe(&self) -> String {
        format!("modulo: decimal(id % {}) + \"_\" + decimal id", self.n)
    }
    fn scan_locality(&self) -> super::ScanLocality {
        super::ScanLocality::PrefixUntil(b'_')
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use crate::keynotation::to_string_binary;

    #[test]
    fn partition_keys_for_20() {
        let g = build_toml("[[generator]]\nname='p'\nkind='partition'\npartitions=20\n").unwrap();
        assert_eq!(
            to_string_binary(&key(&g, 45)),
            "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x05\\x00\\x00\\x00\\x00\\x00\\x00\\x00-"
        );
        assert_eq!(&key(&g, 19)[..8], &19u64.to_be_bytes());
        assert_eq!(&key(&g, 20)[..8], &0u64.to_be_bytes());
    }

    #[test]
    fn modulo_keys() {
        let g = build_toml("[[generator]]\nname='m'\nkind='modulo'\npartitions=20\n").unwrap();
        assert_eq!(key(&g, 45), b"5_45");
        assert_eq!(key(&g, 0), b"0_0");
    }

    #[test]
    fn partitions_required_and_positive() {
        let e = build_toml("[[generator]]\nname='p'\nkind='partition'\n")
            .err()
            .unwrap();
        assert!(e.problem.contains("needs `partitions`"), "{e}");
        let e = build_toml("[[generator]]\nname='p'\nkind='modulo'\npartitions=0\n")
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.partitions"));
    }
}
