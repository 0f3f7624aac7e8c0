//! Rowkey generation and split-key sampling throughput.
//!
//! `cargo bench --features bench --bench keygen`. Figures and the machine they were taken on go to docs/PERFORMANCE.md.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use hbase_emu::keygen::{self, BuildContext, Generator, GeneratorSpec};

const IDS: u64 = 100_000;

fn generator(toml_text: &str) -> Generator {
    let spec: GeneratorSpec = toml::from_str(toml_text).expect("bench spec parses");
    let ctx = BuildContext {
        seed: 42,
        base_dir: Path::new("."),
        ids: (0, 1 << 32),
    };
    keygen::build(&spec, &ctx).expect("bench generator builds")
}

fn specs() -> Vec<(&'static str, &'static str)> {
    vec![
        ("sequential", "name = 'g'\nkind = 'sequential'"),
        ("md5-prefix", "name = 'g'\nkind = 'md5-prefix'"),
        ("md5-legacy", "name = 'g'\nkind = 'md5-legacy'"),
        ("hashed", "name = 'g'\nkind = 'hashed'"),
        ("salted-16", "name = 'g'\nkind = 'salted'\nbuckets = 16"),
        ("ycsb", "name = 'g'\nkind = 'ycsb'"),
        (
            "template",
            "name = 'g'\nkind = 'template'\ntemplate = '{md5(user):4}_{user:08}_{revts}'\n\
             fields = { user = { dist = 'zipfian', cardinality = 1000000 } }",
        ),
    ]
}

fn keys_into(c: &mut Criterion) {
    let mut group = c.benchmark_group("keys_into");
    group.throughput(Throughput::Elements(IDS));
    for (name, text) in specs() {
        let g = generator(text);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut total = 0usize;
                g.keys_into(1_000_000..1_000_000 + IDS, &mut |_, k| total += k.len());
                black_box(total)
            })
        });
    }
    group.finish();
}

fn key_into_random_ids(c: &mut Criterion) {
    let mut group = c.benchmark_group("key_into_scattered");
    group.throughput(Throughput::Elements(IDS));
    for (name, text) in specs() {
        let g = generator(text);
        group.bench_function(name, |b| {
            let mut buf = Vec::with_capacity(64);
            b.iter(|| {
                let mut total = 0usize;
                // ids spread over the range, as stratified sampling visits them
                for i in 0..IDS {
                    buf.clear();
                    g.layout().key_into(i.wrapping_mul(42_949), &mut buf);
                    total += buf.len();
                }
                black_box(total)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = keys_into, key_into_random_ids
}
criterion_main!(benches);
