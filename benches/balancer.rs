//! The stochastic balancer's walk: one `StochasticBalancer::plan` (load sample, cluster state,
//! needs-balance gate, random walk, plans) on N servers × 20 regions each, one server idle so
//! the gate fires and the walk runs, a few regions written between the two load samples.
//!
//! `cargo bench --features bench --bench balancer`. Figures go to docs/PERFORMANCE.md.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

use hbase_emu::config::{Settings, SiteConfig, TableAttributes};
use hbase_emu::engine::policy::balancer::{ClusterView, RegionLoad, StochasticBalancer};

const PER_SERVER: usize = 20;

fn cluster(servers: usize) -> (ClusterView, StochasticBalancer) {
    let settings = Settings::resolve(&SiteConfig::with_defaults(), &TableAttributes::default())
        .expect("defaults resolve");
    let mut regions = Vec::new();
    for s in 0..servers {
        for _ in 0..PER_SERVER {
            let id = regions.len();
            regions.push(RegionLoad {
                id,
                // The last server's regions sit on the first: it is idle.
                server: if s + 1 == servers { 0 } else { s },
                region_id_ms: id as u64,
                read_requests: 0,
                write_requests: 0,
                memstore_bytes: 0,
                storefile_bytes: ((200 + (id * 7919) % 1800) as u64) << 20,
            });
        }
    }
    let mut view = ClusterView {
        servers: (0..servers).collect(),
        regions,
        now_ms: 0,
        offpeak: false,
    };
    let mut b = StochasticBalancer::new(&settings, 7);
    for k in 0..3u64 {
        for r in view.regions.iter_mut().filter(|r| r.id % 97 == 3) {
            r.write_requests += 1000 * k;
            r.memstore_bytes = (k * 40) << 20;
        }
        b.record_loads(&view);
    }
    (view, b)
}

fn walk(c: &mut Criterion) {
    let mut group = c.benchmark_group("balancer_walk");
    group.sample_size(10);
    for servers in [10usize, 100, 1000] {
        let (view, b) = cluster(servers);
        group.bench_function(format!("{servers}x{PER_SERVER}"), |bench| {
            bench.iter_batched(
                || b.clone(),
                |mut b| black_box(b.plan(&view)),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, walk);
criterion_main!(benches);
