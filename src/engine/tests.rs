//! Engine mechanisms against hand-computed HBase behaviour, on tiny scenarios.

use crate::diag::SourceText;
use crate::engine::{RunOptions, RunResult, run};
use crate::plan::plan_run;
use crate::scenario::{self, Scenario};

fn scenario(body: &str) -> Scenario {
    let text = format!("name = \"t\"\nseed = 3\n{body}");
    scenario::load_source(SourceText::from_string("t.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

fn run_one(s: &Scenario) -> RunResult {
    let p = plan_run(s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    run(
        s,
        p,
        RunOptions {
            scale: Some(1),
            threads: 1,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// One region, splits off, fast flushes: only the flush trigger decides.
fn single_region(rows: u64, extra: &str) -> String {
    format!(
        "[cluster]\nregionservers = 1\nheap = \"4GB\"\nflush_bandwidth = \"10GB/s\"\nwrite_bandwidth = \"10GB/s\"\n{extra}\n\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\nmemstore_flushsize = \"1MB\"\n\
         [workload]\nrows = {rows}\nrow = {{ value = \"1000B\" }}\nrate = \"1GB/s\"\n\
         [[generator]]\nname = \"g\"\nkind = \"sequential\"\n"
    )
}

// Mirrors HRegion.isFlushSize: flush when memstore heap > flush size (strict), with heap per cell
// 72 + align8(L) (ByteBufferKeyValue in an MSLAB chunk + CSLM entry) and 256 B per segment.
// Rows: 8-byte key, family "f", 1-byte qualifier, 1000-byte value: L = 1030, heap 1104.
// 256 + 950 × 1104 = 1,049,056 > 1 MiB = 1,048,576; 949 rows are not enough.
#[test]
fn flush_triggers_on_heap_size_above_flush_size() {
    let r = run_one(&scenario(&single_region(9_500, "")));
    assert_eq!(r.stats.flushes, 10, "{:?}", r.stats);
    assert_eq!(r.stats.flushed_bytes, 9_500 * 1030);
    assert_eq!(r.regions[0].memstore_data(), 0);
    let r = run_one(&scenario(&single_region(9_499, "")));
    assert_eq!(r.stats.flushes, 9);
    assert_eq!(
        r.regions[0].memstore_data(),
        949 * 1030,
        "the tenth batch stays in the memstore"
    );
}

// Mirrors HRegion.checkResources: writes wait (RegionTooBusyException) while the memstore heap is
// above flush.size × hbase.hregion.memstore.block.multiplier, until the flush completes.
#[test]
fn writes_block_above_the_blocking_size_until_the_flush_completes() {
    let body = single_region(20_000, "").replace(
        "flush_bandwidth = \"10GB/s\"",
        "flush_bandwidth = \"1MB/s\"",
    );
    let r = run_one(&scenario(&body));
    assert!(r.stats.blocked_ns > 0, "{:?}", r.stats);
    let blocking = 4 * (1 << 20) as u64;
    assert!(
        r.regions[0].memstore_peak <= blocking + 1104,
        "peak {}",
        r.regions[0].memstore_peak
    );
    assert!(
        r.regions[0].memstore_peak > blocking,
        "the memstore reached the blocking size"
    );
}

// Mirrors MemStoreFlusher.flushRegion: a store with more than blockingStoreFiles files postpones
// the flush (up to blockingWaitTime) and asks for a compaction.
#[test]
fn too_many_store_files_delay_flushes() {
    let body = single_region(40_000, "compaction_bandwidth = \"100KB/s\"").replace(
        "[table]",
        "[hbase]\n\"hbase.hstore.blockingStoreFiles\" = 4\n[table]",
    );
    let r = run_one(&scenario(&body));
    assert!(r.stats.delayed_flushes > 0, "{:?}", r.stats);
}

// Mirrors AssignmentManagerUtil.createAssignProceduresForSplitDaughters: daughters open on the
// parent's server; splits are checked after flushes (MemStoreFlusher) and compactions.
#[test]
fn daughters_open_on_the_parents_server() {
    let s = scenario(
        "[cluster]\nregionservers = 3\nheap = \"4GB\"\n[table]\nsplit_policy = \"ConstantSizeRegionSplitPolicy\"\n\
         max_filesize = \"8MB\"\nmemstore_flushsize = \"2MB\"\n[table.presplit]\nalgorithm = \"uniform\"\nregions = 3\n\
         [workload]\nrows = 60_000\nrow = { value = \"1000B\" }\nrate = \"50MB/s\"\n\
         [[generator]]\nname = \"g\"\nkind = \"uniform\"\nlength = 8\n",
    );
    let r = run_one(&s);
    assert!(!r.splits.is_empty());
    for sp in &r.splits {
        let daughters: Vec<_> = r
            .regions
            .iter()
            .filter(|x| x.start == sp.split_key || x.end == sp.split_key)
            .collect();
        for d in daughters {
            if d.generation == sp.generation {
                assert_eq!(d.server, sp.server);
            }
        }
    }
}

// Mirrors CompactSplit.requestSplit: no split once the server holds regionSplitLimit regions.
#[test]
fn region_split_limit_caps_regions_per_server() {
    let s = scenario(
        "[cluster]\nregionservers = 1\nheap = \"4GB\"\n[hbase]\n\"hbase.regionserver.regionSplitLimit\" = 3\n\
         [table]\nsplit_policy = \"ConstantSizeRegionSplitPolicy\"\nmax_filesize = \"4MB\"\nmemstore_flushsize = \"1MB\"\n\
         [workload]\nrows = 60_000\nrow = { value = \"1000B\" }\nrate = \"50MB/s\"\n\
         [[generator]]\nname = \"g\"\nkind = \"md5-prefix\"\n",
    );
    let r = run_one(&s);
    // The limit is checked when a split is requested (online regions < limit), so two splits
    // requested while 2 regions were online both go ahead, as in HBase: 2 → 4, then no more.
    assert!(
        r.regions.len() >= 3 && r.regions.len() <= 4,
        "{} regions",
        r.regions.len()
    );
    let unlimited = run_one(&scenario(
        &s.source
            .text
            .replace("\"hbase.regionserver.regionSplitLimit\" = 3", "")
            .replace("name = \"t\"\nseed = 3\n", ""),
    ));
    assert!(
        unlimited.regions.len() > 4,
        "without the limit the table keeps splitting"
    );
}
