//! Engine behaviour end to end through the library: determinism, conservation of rows, regions
//! tiling the key space, and the classic pre-split experiments at reduced size.

use hbase_emu::diag::SourceText;
use hbase_emu::engine::{self, RunOptions, RunResult};
use hbase_emu::plan;
use hbase_emu::report::run as report;
use hbase_emu::scenario::{self, Scenario};

fn scenario(text: &str) -> Scenario {
    let src = SourceText::from_string(
        concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/test.toml"),
        text,
    );
    scenario::load_source(src).unwrap_or_else(|e| panic!("{e}"))
}

fn run(s: &Scenario, threads: usize, scale: Option<u64>) -> Vec<RunResult> {
    s.generators
        .iter()
        .map(|g| {
            let p = plan::plan_run(s, g).unwrap_or_else(|e| panic!("{e}"));
            engine::run(
                s,
                p,
                RunOptions {
                    scale,
                    threads,
                    builder: threads > 2,
                    reference: false,
                },
            )
            .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

const SPLITTING: &str = r#"
name = "splitting"
seed = 11
[cluster]
regionservers = 3
heap = "4GB"
[table]
max_filesize = "64MB"
memstore_flushsize = "8MB"
[workload]
rows = 600_000
row = { value = "1KB" }
rate = "200MB/s"
[[generator]]
name = "seq"
kind = "sequential"
[[generator]]
name = "hashed"
kind = "md5-prefix"
"#;

#[test]
fn report_is_identical_for_any_thread_count() {
    let s = scenario(SPLITTING);
    let one = report::build(&s, &run(&s, 1, Some(4))).to_json();
    let two = report::build(&s, &run(&s, 2, Some(4))).to_json();
    let three = report::build(&s, &run(&s, 3, Some(4))).to_json();
    assert_eq!(one, two);
    assert_eq!(one, three);
}

#[test]
fn rows_are_conserved_and_regions_tile_the_key_space() {
    let s = scenario(SPLITTING);
    for r in run(&s, 2, Some(2)) {
        let held: u64 = r.regions.iter().map(|x| x.rows).sum();
        assert_eq!(held, r.rows, "{}: rows held by regions", r.generator);
        let written: u64 = r.servers.iter().map(|x| x.write_requests).sum();
        assert_eq!(written, r.rows, "{}: writes", r.generator);
        assert!(r.regions[0].start.is_empty());
        assert!(r.regions.last().unwrap().end.is_empty());
        for w in r.regions.windows(2) {
            assert_eq!(w[0].end, w[1].start, "{}: regions must tile", r.generator);
            assert!(w[0].start < w[0].end || w[0].start.is_empty());
        }
        for sp in &r.splits {
            assert!(sp.split_key.as_slice() > sp.parent_start.as_slice());
            assert!(
                sp.parent_end.is_empty() || sp.split_key < sp.parent_end,
                "split key inside its parent"
            );
        }
    }
}

#[test]
fn partition_keys_land_exactly_in_partition_regions() {
    // classic-partition-20-regions.toml at 1/50 of its size: 2 M rows, ids 1..=2 M, 20 regions.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/classic-partition-20-regions.toml"
    ))
    .unwrap()
    .replace("rows = 100_000_000", "rows = 2_000_000");
    let s = scenario(&text);
    let r = &run(&s, 2, Some(1))[0];
    assert_eq!(r.regions.len(), 20);
    for reg in &r.regions {
        assert_eq!(reg.rows, 100_000, "region {:?}", reg.start);
        assert_eq!(reg.write_requests, 100_000);
    }
}

#[test]
fn sampled_hash_regions_are_within_one_percent() {
    // classic-hash-10-regions.toml at 1/50 of its size.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/classic-hash-10-regions.toml"
    ))
    .unwrap()
    .replace("rows = 100_000_000", "rows = 2_000_000");
    let s = scenario(&text);
    let r = &run(&s, 2, None)[0];
    assert_eq!(r.regions.len(), 10);
    assert!(r.splits.is_empty(), "splitting is disabled");
    for reg in &r.regions {
        let dev = (reg.rows as f64 - 200_000.0).abs() / 200_000.0;
        assert!(dev < 0.01, "region {:?} holds {} rows", reg.start, reg.rows);
    }
}
