//! The engine driven one step at a time: every shipped scenario, at a coarse scale, keeps the
//! state invariants after every event (the engine checks them itself in this mode) and every
//! hundred rows, a stepped run reports exactly what `engine::run` reports, and landing rows as
//! runs (`engine/ingest/runs.rs`) reports exactly what landing them one at a time does.

use std::path::Path;

use hbase_emu::engine::{self, Engine, RunOptions, Step};
use hbase_emu::plan;
use hbase_emu::report::run as report;
use hbase_emu::scenario::{self, Scenario};

/// About this many emulated rows per run: coarse, so a stepped run stays quick.
const EMULATED: u64 = 20_000;
/// At most this many real rows: the headline's 4 TB would make thousands of regions, and the
/// check after every event is a pass over all of them.
const MAX_ROWS: u64 = 100_000_000;

fn load(name: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name);
    scenario::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn opts(s: &Scenario, threads: usize) -> RunOptions {
    RunOptions {
        scale: Some(s.workload.rows.div_ceil(EMULATED).max(1)),
        threads,
        builder: false,
        reference: false,
    }
}

#[test]
fn every_shipped_scenario_keeps_the_invariants_step_by_step() {
    let names = crate::common::shipped_scenarios();
    assert!(names.len() >= 7, "{names:?}");
    for name in &names {
        let mut s = load(name);
        s.workload.rows = s.workload.rows.min(MAX_ROWS);
        for g in &s.generators {
            let p = plan::plan_run(&s, g).unwrap_or_else(|e| panic!("{e}"));
            let mut e = Engine::start(&s, p, opts(&s, 2));
            e.check_invariants_each_event(true);
            let (mut rows, mut row_steps, mut events) = (0u64, 0u64, 0u64);
            while let Some(step) = e.step().unwrap_or_else(|err| panic!("{err}")) {
                match step {
                    Step::Rows { done } => (rows, row_steps) = (done, row_steps + 1),
                    Step::Event => events += 1,
                }
                // Every event is checked by the engine; rows (memstore accounting, a row or a
                // run of rows a step) every so often, which keeps the headline's 3,000 regions
                // quick to check.
                if matches!(step, Step::Rows { .. })
                    && row_steps % 101 == 0
                    && let Err(broken) = e.invariants()
                {
                    panic!("{name} / {}: after row {rows}: {broken}", g.name);
                }
            }
            let r = e.finish();
            assert_eq!(rows, r.emulated_rows, "{name} / {}", g.name);
            assert!(events > 0, "{name} / {}: no events", g.name);
        }
    }
}

#[test]
fn a_stepped_run_reports_what_run_reports() {
    let s = load("node-failure.toml");
    let g = &s.generators[0];
    let stepped = {
        let mut e = Engine::start(&s, plan::plan_run(&s, g).expect("plan"), opts(&s, 1));
        while e.step().expect("keys").is_some() {}
        e.finish()
    };
    let whole = engine::run(&s, plan::plan_run(&s, g).expect("plan"), opts(&s, 3)).expect("run");
    assert_eq!(
        report::build(&s, &[stepped]).to_json(),
        report::build(&s, &[whole]).to_json()
    );
}

/// The report of `g`'s run of `s` with rows landed as runs or one at a time.
fn report_with_runs(s: &Scenario, g: usize, o: RunOptions, runs: bool) -> String {
    report_and_holds(s, g, o, runs).0
}

/// [`report_with_runs`], with the rows runs held back for the client's retry.
fn report_and_holds(s: &Scenario, g: usize, o: RunOptions, runs: bool) -> (String, u64) {
    let p = plan::plan_run(s, &s.generators[g]).unwrap_or_else(|e| panic!("{e}"));
    let mut e = Engine::start(s, p, o);
    e.set_row_runs(runs);
    while e.step().unwrap_or_else(|err| panic!("{err}")).is_some() {}
    let held = e.rows_held_in_runs();
    (report::build(s, &[e.finish()]).to_json(), held)
}

/// The headline scenario at 3 M rows with a smaller heap and flush size: flushes, then
/// splits, within those rows (run its `hashed` design, generator 1, at `--scale 1`).
fn splitting_headline() -> Scenario {
    let mut s = load("4tb-10-nodes-2gb.toml");
    s.workload.rows = 3_000_000;
    s.cluster.heap_bytes = 512 << 20;
    s.settings.flush_size = 16 << 20;
    s.settings.max_filesize = 32 << 20;
    s
}

/// Rows for a region closed for its split are held back for the client's retry
/// (`AsyncProcess` resubmitting on `NotServingRegionException`); once the client holds some,
/// runs add the next ones to them as rows one at a time do, up to the writers' buffers.
#[test]
fn runs_hold_rows_for_splitting_regions_as_rows_one_at_a_time_do() {
    let s = splitting_headline();
    let o = RunOptions {
        scale: Some(1),
        threads: 2,
        builder: false,
        reference: false,
    };
    let (with_runs, held) = report_and_holds(&s, 1, o, true);
    let (one_by_one, none) = report_and_holds(&s, 1, o, false);
    assert_eq!(none, 0);
    assert!(held > 1000, "runs held back {held} rows");
    assert!(with_runs.contains("\"retries\""), "the client retried");
    assert_eq!(with_runs, one_by_one);
}

/// The feed's workers route the rows of the chunks they make with a copy of the routing table
/// (`KeyFeed::publish`); runs use those regions only while the table has not changed since,
/// and route the rows themselves after a split until the workers have the new table. Either
/// way the report is the one a run with no workers (every row routed on the engine's thread)
/// gives.
#[test]
fn runs_use_the_feeds_regions_until_a_split_and_report_the_same() {
    let s = splitting_headline();
    let run = |threads| {
        let o = RunOptions {
            scale: Some(1),
            threads,
            builder: false,
            reference: false,
        };
        let p = plan::plan_run(&s, &s.generators[1]).unwrap_or_else(|e| panic!("{e}"));
        let mut e = Engine::start(&s, p, o);
        while e.step().unwrap_or_else(|err| panic!("{err}")).is_some() {}
        let routed = e.rows_routed_in_runs();
        let result = e.finish();
        (report::build(&s, &[result]).to_json(), routed)
    };
    let (fed, [by_feed, here]) = run(2);
    let (alone, [none, all]) = run(1);
    let v: serde_json::Value = serde_json::from_str(&fed).expect("JSON report");
    let splits = v["runs"][0]["summary"]["splits"].as_u64();
    assert!(splits.is_some_and(|n| n > 0), "the table split: {splits:?}");
    assert!(
        by_feed > 1_000_000,
        "runs took {by_feed} rows routed by the feed"
    );
    assert!(here > 0, "runs routed {here} rows themselves after splits");
    assert_eq!(none, 0);
    assert!(all > 2_000_000, "{all}");
    assert_eq!(fed, alone);
}

/// The report of `g`'s run of `s` on each arm the engine can run: fast (runs of rows), rows
/// one at a time, and the reference engine (`RunOptions::reference`).
fn reports_by_arm(s: &Scenario, g: usize, o: RunOptions) -> [(&'static str, String); 3] {
    let reference = RunOptions {
        reference: true,
        ..o
    };
    [
        ("fast", report_with_runs(s, g, o, true)),
        ("rows one at a time", report_with_runs(s, g, o, false)),
        ("reference", report_with_runs(s, g, reference, true)),
    ]
}

/// Conformance: every shipped scenario (cut to 20,000 emulated rows) reports the same bytes on
/// every arm, so the ingest layer's speed-ups change no answer.
#[test]
fn every_arm_reports_the_same_bytes_on_every_shipped_scenario() {
    let names = crate::common::shipped_scenarios();
    for name in &names {
        let mut s = load(name);
        s.workload.rows = s.workload.rows.min(MAX_ROWS);
        for g in 0..s.generators.len() {
            let arms = reports_by_arm(&s, g, opts(&s, 2));
            for (arm, report) in &arms[1..] {
                assert!(
                    *report == arms[0].1,
                    "{name} / {}: the {arm} arm differs from the fast one",
                    s.generators[g].name
                );
            }
        }
    }
}

#[test]
fn runs_of_rows_report_what_rows_one_at_a_time_report_in_exact_mode() {
    // Every row emulated: flushes, throttling on the write path, slices and splits meet runs
    // of thousands of rows.
    for (name, generator, rows, heap) in [
        ("classic-hash-10-regions.toml", 0, 3_000_000, None),
        ("node-failure.toml", 0, 2_000_000, None),
        ("4tb-10-nodes-2gb.toml", 1, 3_000_000, Some(512 << 20)),
    ] {
        let mut s = load(name);
        s.workload.rows = rows;
        if let Some(heap) = heap {
            // A small heap: the servers' global memstore marks, not region sizes, pick the
            // flushes, and runs meet the marks.
            s.cluster.heap_bytes = heap;
        }
        let o = RunOptions {
            scale: Some(1),
            threads: 2,
            builder: false,
            reference: false,
        };
        if name.starts_with("4tb") {
            // Exact hashed keys take every fast path (codes-only chunks, hex routing, the
            // flush's coded selection): the reference engine too, on this one.
            let arms = reports_by_arm(&s, generator, o);
            for (arm, report) in &arms[1..] {
                assert!(*report == arms[0].1, "{name}: the {arm} arm differs");
            }
        } else {
            assert_eq!(
                report_with_runs(&s, generator, o, true),
                report_with_runs(&s, generator, o, false),
                "{name}"
            );
        }
    }
}
