//! The WAL (rolls, archiving, flushes forced by `hbase.regionserver.maxlogs`) and the seeded
//! variability of durations (`[cluster] variability`), end to end through the library.

use hbase_emu::diag::SourceText;
use hbase_emu::engine::{self, FlushWhy, Happening, RunOptions, RunResult};
use hbase_emu::plan;
use hbase_emu::report::run as report;
use hbase_emu::scenario::{self, Scenario};

fn scenario(text: &str) -> Scenario {
    let src = SourceText::from_string("tests/wal_variability.toml", text);
    scenario::load_source(src).unwrap_or_else(|e| panic!("{e}"))
}

fn run(s: &Scenario, threads: usize) -> Vec<RunResult> {
    s.generators
        .iter()
        .map(|g| {
            let p = plan::plan_run(s, g).unwrap_or_else(|e| panic!("{e}"));
            let opts = RunOptions {
                scale: None,
                threads,
                builder: threads > 2,
                reference: false,
            };
            engine::run(s, p, opts).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

/// One server, one hot region and two slow ones (each 1/256 of the MD5-prefixed keys); WALs
/// roll every 4 MB and at most `maxlogs` rolled files may stay.
fn pinned(maxlogs: &str) -> String {
    format!(
        r#"
name = "slow regions pin old WALs"
seed = 3
[hbase]
"hbase.regionserver.hlog.blocksize" = "8388608"
{maxlogs}
[cluster]
regionservers = 1
variability = "none"
[table]
max_filesize = "10GB"
memstore_flushsize = "8MB"
[table.presplit]
algorithm = "keys"
keys = ["01", "02"]
[workload]
rows = 60000
row = {{ value = "1KB" }}
rate = "100MB/s"
[[generator]]
name = "hashed"
kind = "md5-prefix"
"#
    )
}

fn flushes(r: &RunResult) -> Vec<(usize, FlushWhy, u64)> {
    r.dynamics
        .history
        .iter()
        .filter_map(|h| match h.what {
            Happening::Flushed { why, data, .. } => Some((h.region, why, data)),
            _ => None,
        })
        .collect()
}

/// `AbstractFSWAL.findRegionsToForceFlush` (via `LogRoller` → `MemStoreFlusher.requestFlush`):
/// with more rolled WAL files than `hbase.regionserver.maxlogs`, the regions holding edits in
/// the oldest file flush. Here the two slow regions pin every old WAL and are forced to flush
/// small memstores, while the hot region flushes at the flush size; `cleanOldLogs` then
/// archives the files, so a server never holds many more than maxlogs.
#[test]
fn slow_regions_pinning_old_wals_are_force_flushed_abstract_fs_wal() {
    let r = &run(
        &scenario(&pinned("\"hbase.regionserver.maxlogs\" = \"3\"")),
        1,
    )[0];
    let st = &r.stats;
    // ~62 MB of KeyValues (+ 4 bytes a cell) over 4 MB files.
    assert!((14..=16).contains(&st.wal_rolls), "{st:?}");
    assert!(st.wal_forced_flushes >= 3, "{st:?}");
    let hot = r
        .regions
        .iter()
        .max_by_key(|x| x.write_requests)
        .unwrap()
        .id;
    let f = flushes(r);
    let forced: Vec<_> = f.iter().filter(|x| x.1 == FlushWhy::Wal).collect();
    assert_eq!(forced.len() as u64, st.wal_forced_flushes);
    for &&(region, _, data) in &forced {
        assert_ne!(region, hot, "the hot region flushes by size: {f:?}");
        assert!(data < 1 << 20, "a forced flush is small: {data}");
    }
    assert!(f.iter().any(|x| x.0 == hot && x.1 == FlushWhy::Size));
    // Forced flushes wait in the flush queue behind the hot region's, and files go only at
    // the next roll, so a server can briefly hold a few more than maxlogs; but files do go.
    let peak = r.servers[0].wal_files_peak as u64;
    assert!(
        peak <= 8 && peak < st.wal_rolls,
        "peak {peak} WAL files with maxlogs 3"
    );
    // The report carries the counts.
    let s = scenario(&pinned("\"hbase.regionserver.maxlogs\" = \"3\""));
    let rep = report::build(&s, &run(&s, 1));
    let sum = &rep.runs[0].summary;
    assert_eq!(sum.wal_forced_flushes, st.wal_forced_flushes);
    assert_eq!(sum.wal_rolls, st.wal_rolls);
    assert!(
        rep.to_text()
            .contains("flushes forced by too many WAL files")
    );
}

/// `AbstractFSWAL.calculateMaxLogFiles`: by default maxlogs is at least 32, so the same load
/// forces no flush and the slow regions keep their WALs.
#[test]
fn with_the_default_maxlogs_nothing_is_forced_abstract_fs_wal() {
    let r = &run(&scenario(&pinned("")), 1)[0];
    assert_eq!(r.stats.wal_forced_flushes, 0, "{:?}", r.stats);
    assert!(r.stats.wal_rolls >= 14);
    // Nothing was archived: the slow regions hold edits in every file.
    assert_eq!(
        r.servers[0].wal_files_peak as u64,
        r.stats.wal_rolls + 1,
        "{:?}",
        r.servers[0]
    );
}

/// Sequential keys on a splitting table, at one variability or the other.
fn sequential(variability: &str) -> Scenario {
    scenario(&format!(
        r#"
name = "sequential variability"
seed = 5
[cluster]
regionservers = 3
heap = "4GB"
variability = "{variability}"
[hbase]
# Seconds of load: the discharger runs every second so daughters split again within the run.
"hbase.hfile.compaction.discharger.interval" = "1s"
[table]
max_filesize = "64MB"
memstore_flushsize = "8MB"
[workload]
rows = 1500000
row = {{ value = "1KB" }}
rate = "100MB/s"
[[generator]]
name = "sequential"
kind = "sequential"
"#
    ))
}

/// Quiet (no longer written) regions' sizes, largest first.
fn quiet_sizes(r: &RunResult) -> Vec<u64> {
    let mut v: Vec<u64> = r
        .regions
        .iter()
        .filter(|x| x.write_requests == 0)
        .map(|x| x.store_bytes())
        .collect();
    v.sort_unstable();
    v
}

/// With variability off every duration is bytes / bandwidth; with the default the flush,
/// compaction and transition times vary
/// (and servers pause for GC, `JvmPauseMonitor`'s territory), so the sizes spread.
#[test]
fn default_variability_spreads_the_sequential_quiet_region_sizes() {
    let none = &run(&sequential("none"), 1)[0];
    let on = &run(&sequential("default"), 1)[0];
    let (a, b) = (quiet_sizes(none), quiet_sizes(on));
    assert!(a.len() >= 10 && b.len() >= 10, "{} {}", a.len(), b.len());
    // Concurrent compactions and the nodes' shares already make the textbook sizes differ; the
    // varied durations move every one of them.
    let distinct = |v: &[u64]| {
        let mut d = v.to_vec();
        d.dedup();
        d.len()
    };
    assert!(distinct(&b) >= b.len() - 1, "default {b:?}");
    let moved = b.iter().filter(|x| !a.contains(x)).count();
    assert!(moved >= b.len() / 2, "none {a:?}\ndefault {b:?}");
    assert_eq!(none.stats.gc_pauses, 0);
    assert!(on.stats.gc_pauses > 0 && on.stats.gc_pause_ns > 0);
}

/// The draws are pure functions of (seed, id, occurrence): the report is byte-identical at 1
/// and 3 threads with variability on.
#[test]
fn default_variability_is_deterministic_across_threads() {
    let s = sequential("default");
    let one = report::build(&s, &run(&s, 1)).to_json();
    let three = report::build(&s, &run(&s, 3)).to_json();
    assert!(one == three, "reports differ between 1 and 3 threads");
}

/// A bad value names the field and what is expected.
#[test]
fn an_unknown_variability_is_an_error_naming_the_field() {
    let text = sequential("none")
        .source
        .text
        .replace("\"none\"", "\"lots\"");
    let src = SourceText::from_string("tests/v.toml", text.as_str());
    let e = scenario::load_source(src)
        .expect_err("rejected")
        .to_string();
    assert!(e.contains("cluster.variability"), "{e}");
    assert!(e.contains("\"default\" or \"none\""), "{e}");
    assert!(e.contains("tests/v.toml:7:"), "{e}");
}
