//! Engine throughput: emulated rows per second for sequential and MD5 keys at 1 and 2 threads,
//! against the bare cost of generating and routing the same keys, and the whole headline scenario.
//!
//! `cargo bench --features bench --bench engine`. Figures go to docs/PERFORMANCE.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use hbase_emu::diag::SourceText;
use hbase_emu::engine::{self, RunOptions};
use hbase_emu::plan;
use hbase_emu::scenario::{self, Scenario};

const ROWS: u64 = 1_000_000;

fn scenario(kind: &str) -> Scenario {
    let text = format!(
        "name = \"bench\"\n[cluster]\nregionservers = 10\n[table]\nmax_filesize = \"256MB\"\n\
         [table.presplit]\nalgorithm = \"sampled\"\nregions = 20\nsamples = 100000\n\
         [workload]\nrows = {ROWS}\nrow = {{ value = \"1KB\" }}\n[[generator]]\nname = \"g\"\nkind = \"{kind}\"\n"
    );
    scenario::load_source(SourceText::from_string("bench.toml", text)).expect("bench scenario")
}

/// Bare cost: generate every key and find its region among the initial ones, with the engine's
/// routing technique (last-region cache, then a binary search on 8-byte key prefixes).
fn bare(c: &mut Criterion) {
    let mut group = c.benchmark_group("bare_keygen_and_route");
    group.throughput(Throughput::Elements(ROWS));
    group.sample_size(10);
    for kind in ["sequential", "md5-prefix"] {
        let s = scenario(kind);
        let p = plan::plan_run(&s, &s.generators[0]).expect("plan");
        let starts: Vec<Vec<u8>> = p.regions.iter().map(|r| r.start.clone()).collect();
        let prefixes: Vec<u64> = starts.iter().map(|s| prefix8(s)).collect();
        group.bench_function(kind, |b| {
            b.iter(|| {
                let mut counts = vec![0u64; starts.len()];
                let mut last = 0usize;
                p.generator.keys_into(0..ROWS, &mut |_, k| {
                    let inside = starts[last].as_slice() <= k
                        && starts.get(last + 1).is_none_or(|e| k < e.as_slice());
                    if !inside {
                        let x = prefix8(k);
                        let hi = prefixes.partition_point(|&v| v <= x);
                        let lo = prefixes[..hi].partition_point(|&v| v < x);
                        last = (lo + starts[lo..hi].partition_point(|s| s.as_slice() <= k))
                            .saturating_sub(1);
                    }
                    counts[last] += 1;
                });
                black_box(counts)
            })
        });
    }
    group.finish();
}

fn prefix8(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

/// The engine in exact mode (scale 1) at 1 and 2 threads.
fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine_exact");
    group.throughput(Throughput::Elements(ROWS));
    group.sample_size(10);
    for kind in ["sequential", "md5-prefix"] {
        let s = scenario(kind);
        for threads in [1usize, 2] {
            group.bench_function(format!("{kind}/{threads}-threads"), |b| {
                b.iter(|| {
                    let p = plan::plan_run(&s, &s.generators[0]).expect("plan");
                    black_box(
                        engine::run(
                            &s,
                            p,
                            RunOptions {
                                scale: Some(1),
                                threads,
                                builder: threads > 2,
                                reference: false,
                            },
                        )
                        .expect("run"),
                    )
                })
            });
        }
    }
    group.finish();
}

/// The headline scenario (4 TB, 10 servers, 2 GB regions), automatic scale: each design's run
/// on its own, so a regression shows against the design it hits.
fn headline(c: &mut Criterion) {
    let mut group = c.benchmark_group("headline");
    group.sample_size(10);
    let s = scenario::load(&scenario::default_scenario_path()).expect("headline scenario");
    for g in &s.generators {
        group.bench_function(g.name.get_ref().as_str(), |b| {
            b.iter(|| {
                let p = plan::plan_run(&s, g).expect("plan");
                black_box(
                    engine::run(
                        &s,
                        p,
                        RunOptions {
                            scale: None,
                            threads: 2,
                            builder: true,
                            reference: false,
                        },
                    )
                    .expect("run"),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bare, exact, headline);
criterion_main!(benches);
