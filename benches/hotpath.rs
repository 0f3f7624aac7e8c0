//! The exact mode's per-row path piece by piece: routing a key among N regions, adding rows to a
//! memstore then sorting it for a flush, building the flush's store file and merging store files
//! in a compaction (key generation per kind is `benches/keygen.rs`).
//!
//! `cargo bench --features bench --bench hotpath`. Figures go to docs/PERFORMANCE.md.

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use hbase_emu::engine::ingest::route::Router;
use hbase_emu::engine::state::memstore::{Memstore, Put};
use hbase_emu::engine::state::storefile::{self, CellShape, FileFormat, HFileBuilder, StoreFile};
use hbase_emu::keygen::{self, BuildContext, GeneratorSpec};

const KEYS: u64 = 131_072;

/// `KEYS` consecutive keys of a generator kind (with its required options).
fn keys(kind: &str) -> Vec<Vec<u8>> {
    let extra = if kind == "partition" {
        "\npartitions = 20"
    } else {
        ""
    };
    let spec: GeneratorSpec =
        toml::from_str(&format!("name = 'g'\nkind = '{kind}'{extra}")).expect("bench spec parses");
    let ctx = BuildContext {
        seed: 42,
        base_dir: Path::new("."),
        ids: (0, KEYS),
    };
    let g = keygen::build(&spec, &ctx).expect("bench generator builds");
    let mut out = Vec::with_capacity(KEYS as usize);
    g.keys_into(0..KEYS, &mut |_, k| out.push(k.to_vec()));
    out
}

/// Region starts: `n` quantiles of the keys (as a sampled pre-split chooses them).
fn starts(keys: &[Vec<u8>], n: usize) -> Vec<Vec<u8>> {
    let mut sorted = keys.to_vec();
    sorted.sort_unstable();
    let mut s = vec![Vec::new()];
    s.extend((1..n).map(|i| sorted[i * sorted.len() / n].clone()));
    s
}

fn routing(c: &mut Criterion) {
    let mut group = c.benchmark_group("route");
    group.throughput(Throughput::Elements(KEYS));
    for kind in ["hashed", "sequential", "partition"] {
        let ks = keys(kind);
        for n in [10usize, 200, 2048] {
            let mut router = Router::over(&starts(&ks, n));
            group.bench_with_input(BenchmarkId::new(kind, n), &ks, |b, ks| {
                b.iter(|| {
                    let mut sum = 0usize;
                    for k in ks {
                        sum += router.route_key(k);
                    }
                    black_box(sum)
                })
            });
        }
    }
    group.finish();
}

fn memstore(c: &mut Criterion) {
    let put = Put {
        rows: 1,
        cells: 1,
        data_bytes: 1100,
        heap_bytes: 1180,
    };
    let mut group = c.benchmark_group("memstore");
    group.throughput(Throughput::Elements(KEYS));
    for kind in ["hashed", "sequential"] {
        let ks = keys(kind);
        group.bench_function(BenchmarkId::new("add", kind), |b| {
            let mut m = Memstore::default();
            b.iter(|| {
                m.clear();
                for k in &ks {
                    m.add(k, put, 256, 0);
                }
                black_box(m.len())
            })
        });
        let mut m = Memstore::default();
        for k in &ks {
            m.add(k, put, 256, 0);
        }
        group.bench_function(BenchmarkId::new("snapshot_sort", kind), |b| {
            b.iter(|| black_box(m.sorted_keys().len()))
        });
        // What a flush does: the distinct rows' order in the thread's reused buffers.
        group.bench_function(BenchmarkId::new("snapshot_order", kind), |b| {
            b.iter(|| black_box(m.with_sorted_unique(|order| order.len())))
        });
        // A flush of distinct keys (`hashed`, `md5-prefix`): only one row per 64 KB block.
        group.bench_function(BenchmarkId::new("snapshot_every_64", kind), |b| {
            b.iter(|| black_box(m.with_sorted_every(true, |_| 64, |_, kept| kept.len())))
        });
    }
    group.finish();
}

const SHAPE: CellShape = CellShape {
    family_len: 1,
    qualifier_len: 1,
    value_len: 1000,
    columns: 1,
};
const FORMAT: FileFormat = FileFormat {
    block_size: 65536,
    compression_ratio: 1.0,
    index_block_max_size: 131072,
    index_block_min_entries: 16,
    row_bloom: true,
};

/// Flush build: a sorted snapshot of `KEYS` rows written as one HFile model (every row, as at
/// `--scale 1` before sampling); compaction merge: four such files (interleaved hashed keys, or
/// consecutive sequential ranges) merged and sampled to `MAX_FILE_KEYS` keys.
fn storefiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("storefile");
    group.throughput(Throughput::Elements(KEYS));
    for kind in ["hashed", "sequential"] {
        let mut ks = keys(kind);
        ks.sort_unstable();
        group.bench_function(BenchmarkId::new("flush_build", kind), |b| {
            b.iter(|| {
                let mut w = HFileBuilder::new(SHAPE, FORMAT, 1);
                w.reserve(ks.len(), ks[0].len());
                for k in &ks {
                    w.append(k);
                }
                black_box(w.finish().map(|f| f.length()))
            })
        });
        let files: Vec<StoreFile> = (0..4)
            .map(|i| {
                let mut w = HFileBuilder::new(SHAPE, FORMAT, 1);
                let part: Vec<&Vec<u8>> = if kind == "hashed" {
                    ks.iter().skip(i).step_by(4).collect()
                } else {
                    ks[i * ks.len() / 4..(i + 1) * ks.len() / 4]
                        .iter()
                        .collect()
                };
                for k in part {
                    w.append(k);
                }
                StoreFile::new(std::sync::Arc::new(w.finish().expect("rows")), i as u64, 0)
            })
            .collect();
        let refs: Vec<&StoreFile> = files.iter().collect();
        group.bench_function(BenchmarkId::new("compaction_merge", kind), |b| {
            b.iter(|| {
                black_box(
                    storefile::compact(
                        &refs,
                        None,
                        storefile::VersionRules::keep_deletes(0),
                        SHAPE,
                        FORMAT,
                    )
                    .map(|f| f.length()),
                )
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = routing, memstore, storefiles
}
criterion_main!(benches);
