//! Helpers shared by the tests: the small scenario's report, the same report with the engine's
//! newer fields (timeline, key heatmap, moves, merges, events) filled in by hand so every chart
//! and table of the HTML report has data, and the proptest settings.

#![allow(dead_code)]

use hbase_emu::diag::SourceText;
use hbase_emu::engine::{self, RunOptions};
use hbase_emu::plan;
use hbase_emu::report::run::{self, EventJson, MergeJson, MoveJson, Report, TimelineSampleJson};
use hbase_emu::scenario;
use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence};

/// Proptest settings running `cases` cases (sized so the suite stays quick on 2 cores;
/// `PROPTEST_CASES=N` overrides it for a deeper search), with failures kept in
/// `<module>.proptest-regressions` beside the module's file. Proptest's default would look under
/// tests/proptest-regressions/ instead, because tests/it holds a main.rs.
pub fn proptest_config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// The shipped scenarios' file names (`scenarios/*.toml`), sorted.
pub fn shipped_scenarios() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("scenarios/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    names
}

/// Says that test `test` skipped its work and why, on a line of its own that `cargo test` shows
/// by default: libtest captures `eprintln!` of passing tests, but not writes to the stderr handle.
pub fn skipped(test: &str, reason: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {test}: {reason}");
}

/// The report of tests/data/small.toml (one thread, scale 4: fast and deterministic).
/// The first generator of the scenario `text` (named `path` in errors) run exactly: scale 1,
/// one thread.
/// The report of one exact run (`run_exact`) of the scenario `text`, named `path`.
pub fn exact_report(path: &str, text: &str) -> Report {
    let s = scenario::load_source(SourceText::from_string(path, text))
        .unwrap_or_else(|e| panic!("{e}"));
    run::build(&s, &[run_exact(path, text)])
}

/// The input error that loading the scenario `text`, named `path`, must give, as text.
pub fn load_error(path: &str, text: &str) -> String {
    scenario::load_source(SourceText::from_string(path, text))
        .expect_err("an input error")
        .to_string()
}

pub fn run_exact(path: &str, text: &str) -> engine::RunResult {
    let s = scenario::load_source(SourceText::from_string(path, text))
        .unwrap_or_else(|e| panic!("{e}"));
    let p = plan::plan_run(&s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        scale: Some(1),
        threads: 1,
        builder: false,
        reference: false,
    };
    engine::run(&s, p, opts).unwrap_or_else(|e| panic!("{e}"))
}

pub fn small_report() -> Report {
    let text = include_str!("../data/small.toml");
    // A relative path keeps snapshots independent of where the repository is checked out.
    let src = SourceText::from_string("tests/data/small.toml", text);
    let s = scenario::load_source(src).unwrap_or_else(|e| panic!("{e}"));
    let runs: Vec<_> = s
        .generators
        .iter()
        .map(|g| {
            let p = plan::plan_run(&s, g).unwrap_or_else(|e| panic!("{e}"));
            let opts = RunOptions {
                scale: Some(4),
                threads: 1,
                builder: false,
                reference: false,
            };
            engine::run(&s, p, opts).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    run::build(&s, &runs)
}

/// [`small_report`] with a synthetic timeline, key heatmap and cluster logs.
pub fn enriched_report() -> Report {
    let mut r = small_report();
    for run in &mut r.runs {
        let names: Vec<String> = run.servers.iter().map(|s| s.name.clone()).collect();
        run.timeline_interval_seconds = 1.0;
        for t in 1..=20u32 {
            for (i, name) in names.iter().enumerate() {
                run.timeline.push(TimelineSampleJson {
                    at_seconds: t as f64,
                    server: name.clone(),
                    regions: 1 + (t as usize * (i + 1)) / 7,
                    store_bytes: (u64::from(t) * (i as u64 + 1)) << 24,
                    memstore_bytes: 1 << 22,
                    write_requests_per_s: if (t as usize / 7) % names.len() == i {
                        9000.0
                    } else {
                        500.0
                    },
                    read_requests_per_s: 0.0,
                    blocked_seconds: if t == 9 && i == 0 { 0.5 } else { 0.0 },
                    online: true,
                    store_files: 2 + (t + i as u32) % 5,
                    compaction_queue: (t * (i as u32 + 1)) % 4,
                });
            }
        }
        let buckets = 16;
        run.key_heatmap.interval_seconds = 1.0;
        run.key_heatmap.buckets = (0..buckets).map(|b| format!("\\x{:02X}", b * 16)).collect();
        run.key_heatmap.writes = (0..20)
            .map(|t| {
                (0..buckets)
                    .map(|b| if b == t * buckets / 20 { 5000 } else { 10 })
                    .collect()
            })
            .collect();
        run.key_heatmap.reads = (0..20).map(|_| vec![3; buckets]).collect();
        run.moves.push(MoveJson {
            at_seconds: 5.0,
            offline_seconds: 0.5,
            start: "a<b".into(),
            end: "c".into(),
            from: names[0].clone(),
            to: names[1].clone(),
            store_bytes: 1 << 20,
            reason: "balancer: region count cost 0.4 > 0.05".into(),
        });
        run.merges.push(MergeJson {
            at_seconds: 8.0,
            offline_seconds: 0.2,
            region_starts: vec!["a".into(), "b".into()],
            start: "a".into(),
            end: "c".into(),
            server: names[1].clone(),
            store_bytes: 1 << 21,
            reason: "normalizer: two small regions".into(),
        });
        run.events.push(EventJson {
            at_seconds: 10.0,
            kind: "add_servers".into(),
            detail: "1 server joined & <script>alert(1)</script>".into(),
        });
    }
    r
}

/// Every chart id of the page, for a report with all data present.
pub fn expected_ids(runs: usize) -> Vec<String> {
    let mut ids = vec!["cmp-table".to_string()];
    for i in 0..runs {
        for name in [
            "regions-per-server",
            "store-per-server",
            "write-share",
            "split-timeline",
            "key-heatmap",
            "key-heatmap-reads",
            "region-sizes",
            "panel-writes",
            "panel-memstore",
            "panel-blocked",
            "panel-store-files",
            "panel-compaction-queue",
        ] {
            ids.push(format!("gen-{i}-{name}"));
        }
    }
    ids
}

/// The `hbase-emu` binary under test.
pub fn bin() -> assert_cmd::Command {
    assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("hbase-emu"))
}

/// The repository root (scenarios/, configs/, tests/data/ resolve there).
pub fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs the binary with `args`, asserts exit 0 (showing stderr otherwise), returns stdout.
pub fn run_ok(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
