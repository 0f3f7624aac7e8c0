//! Property tests over every built-in generator: keys are valid HBase row keys, deterministic,
//! and `keys_into` agrees with `key_into` (including across clock chunk boundaries).

use std::path::Path;

use hbase_emu::keygen::{BuildContext, Generator, GeneratorSpec, build};
use proptest::prelude::*;

/// One representative TOML entry per kind (and a few option variants).
const SPECS: &[&str] = &[
    "kind='sequential'",
    "kind='sequential'\nformat='decimal'\nprefix='row'",
    "kind='timestamp-first'\ncardinality=8",
    "kind='hashed'",
    "kind='md5-prefix'",
    "kind='md5-prefix'\nid_format='decimal'\nhex_chars=32",
    "kind='md5-legacy'",
    "kind='partition'\npartitions=20",
    "kind='modulo'\npartitions=7",
    "kind='salted'\nbuckets=256",
    "kind='salted'\nbuckets=1000\nbucket_format='decimal'\nid_format='decimal'",
    "kind='reversed'",
    "kind='reverse-timestamp'\nprefix='e'",
    "kind='uniform'\nlength=40",
    "kind='ycsb'",
    "kind='ycsb'\nordered=true\nzero_padding=12",
    "kind='template'\ntemplate='{hash(u)%16:02}|{u:x8}|{ts:be8}|{md5(id):be3}'\nfields={u={dist='zipfian',cardinality=100}}",
    "kind='template'\ntemplate='{l}-{o:010}-{revts}'\nfields={l={dist='latest'}, o={dist='zipfian-ordered', cardinality=50}}",
];

fn build_all(seed: u64) -> Vec<Generator> {
    #[derive(serde::Deserialize)]
    struct Doc {
        generator: Vec<GeneratorSpec>,
    }
    let ctx = BuildContext {
        seed,
        base_dir: Path::new("."),
        ids: (0, 1 << 40),
    };
    SPECS
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let text = format!("[[generator]]\nname='g{i}'\n{s}\n");
            let doc: Doc = toml::from_str(&text).unwrap_or_else(|e| panic!("{s}: {e}"));
            build(&doc.generator[0], &ctx).unwrap_or_else(|e| panic!("{s}: {e}"))
        })
        .collect()
}

#[test]
fn keys_into_equals_key_into_over_chunk_boundaries() {
    for g in build_all(7) {
        let mut buf = Vec::new();
        let mut next = 1000;
        g.keys_into(1000..3100, &mut |id, k| {
            assert_eq!(id, next);
            next += 1;
            g.key_checked(id, &mut buf).unwrap();
            assert_eq!(k, &buf[..], "{} id {id}", g.layout().describe());
        });
        assert_eq!(next, 3100);
    }
}

#[test]
fn describe_is_one_line() {
    for g in build_all(1) {
        let d = g.layout().describe();
        assert!(!d.is_empty() && !d.contains('\n'), "{d}");
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(64))]

    #[test]
    fn keys_are_valid_and_deterministic(seed in any::<u64>(), id in 0u64..(1 << 40)) {
        let a = build_all(seed);
        let b = build_all(seed);
        let mut ka = Vec::new();
        let mut kb = Vec::new();
        for (ga, gb) in a.iter().zip(&b) {
            ga.key_checked(id, &mut ka).unwrap();
            gb.key_checked(id, &mut kb).unwrap();
            prop_assert_eq!(&ka, &kb);
        }
    }

    #[test]
    fn keys_into_matches_key_into_anywhere(seed in any::<u64>(), start in 0u64..(1 << 40), len in 0u64..40) {
        let mut buf = Vec::new();
        for g in build_all(seed) {
            let mut seen = 0;
            g.keys_into(start..start + len, &mut |id, k| {
                buf.clear();
                g.layout().key_into(id, &mut buf);
                assert_eq!(k, &buf[..]);
                seen += 1;
            });
            prop_assert_eq!(seen, len);
        }
    }

    #[test]
    fn huge_ids_do_not_panic(id in (u64::MAX - 5000)..=u64::MAX) {
        let mut buf = Vec::new();
        for g in build_all(3) {
            prop_assert!(g.key_checked(id, &mut buf).is_ok());
        }
    }
}
