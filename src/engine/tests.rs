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
            builder: false,
            reference: false,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The first generator's run of `s`, set up at scale 1 on one thread, not yet stepped.
fn exact_engine(s: &Scenario) -> crate::engine::Engine {
    let plan = plan_run(s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        scale: Some(1),
        threads: 1,
        builder: false,
        reference: false,
    };
    crate::engine::Engine::start(s, plan, opts)
}

/// Node hardware that never binds: the tests below check HBase's rules, not the node's shares.
const FAST_NODE: &str = "disk_bandwidth = \"100GB/s\"\nnetwork = \"100GB/s\"\ncores = 4096\n";

/// One region, splits off, fast flushes: only the flush trigger decides.
fn single_region(rows: u64, extra: &str) -> String {
    format!(
        "[cluster]\nregionservers = 1\nheap = \"4GB\"\nflush_bandwidth = \"10GB/s\"\nwrite_bandwidth = \"10GB/s\"\n{FAST_NODE}{extra}\n\
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

// Mirrors HRegion.checkResources: a region refuses writes (RegionTooBusyException) while its
// memstore heap is above flush.size × hbase.hregion.memstore.block.multiplier, until the flush
// completes; the client (AsyncProcess) holds them back and retries, and one writer whose 2 MB
// buffer is full of them waits.
#[test]
fn writes_block_above_the_blocking_size_until_the_flush_completes() {
    let body = single_region(20_000, "").replace(
        "flush_bandwidth = \"10GB/s\"",
        "flush_bandwidth = \"1MB/s\"",
    ) + "[client]\nwriters = 1\n";
    let r = run_one(&scenario(&body));
    assert!(r.stats.blocked_ns > 0, "{:?}", r.stats);
    assert!(
        r.stats.retried_rows > 0 && r.stats.stall_ns > 0,
        "{:?}",
        r.stats
    );
    assert!(r.regions[0].blocked_ns > 0);
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
         \"hbase.hfile.compaction.discharger.interval\" = 1\n\
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

/// One RegionServer hosting four regions whose single store holds `files` store files of about
/// 40 MiB each; compactions start at time 0 in the first `compacting` regions (all at once: 4
/// small-compaction threads). Returns, per
/// compaction, (bytes read, cell bytes written, duration in ns). `hbase` adds site keys. The
/// controller is tuned once at time 0 (its chore's first run), then every second. Textbook
/// durations (`variability = "none"`): the tests compare exact rates.
fn compaction_durations(hbase: &str, files: usize, compacting: usize) -> Vec<(u64, u64, u64)> {
    use crate::engine::state::storefile::HFileBuilder;
    // Check the rate after every cell (no unthrottled last stretch) unless the test says.
    let interval = if hbase.contains("check.interval") {
        ""
    } else {
        "\"hbase.hstore.compaction.throughput.control.check.interval\" = 0\n"
    };
    let s = scenario(&format!(
        "[cluster]\nregionservers = 1\nheap = \"4GB\"\ncompaction_bandwidth = \"1GB/s\"\n{FAST_NODE}\
         variability = \"none\"\n\
         [hbase]\n\"hbase.regionserver.thread.compaction.small\" = 4\n\
         \"hbase.hstore.compaction.throughput.tune.period\" = 1000\n{interval}{hbase}\n\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\n\
         [table.presplit]\nalgorithm = \"partition\"\nregions = 4\n\
         [workload]\nrows = 1000\nrow = {{ value = \"1000B\" }}\n\
         [[generator]]\nname = \"g\"\nkind = \"sequential\"\n"
    ));
    let mut e = exact_engine(&s);
    assert_eq!(e.world.state.regions.len(), 4);
    let mut seq = 0;
    for r in 0..4 {
        let mut prefix = e.world.state.regions[r].start.clone();
        prefix.resize(8, 0);
        for f in 0..files {
            // 40 emulated rows of 1,000 real 1 KB rows each: about 40 MiB, disjoint keys.
            let mut b = HFileBuilder::new(e.cfg.shapes[0], e.cfg.formats[0], 1000);
            for row in 0..40u64 {
                let mut k = prefix.clone();
                k.extend_from_slice(&(f as u64 * 1000 + row).to_be_bytes());
                b.append(&k);
            }
            seq += 1;
            push_file(&mut e, r, seq, b);
        }
    }
    e.tune_compaction_throughput();
    for r in 0..compacting {
        e.request_compaction(r, 0);
    }
    let started: Vec<(u64, u64, u64)> = e
        .world
        .state
        .compactions
        .iter()
        .map(|(&t, c)| (t, c.read, c.written))
        .collect();
    assert_eq!(started.len(), compacting, "all compactions run at once");
    let mut done = vec![None; compacting];
    e.run.draining = true;
    while e.world.queue.work > 0 && e.advance() {
        for (&(token, _, _), d) in started.iter().zip(done.iter_mut()) {
            if d.is_none() && !e.world.state.compactions.contains_key(&token) {
                *d = Some(e.world.now);
            }
        }
    }
    started
        .iter()
        .zip(done)
        .map(|(&(_, read, written), d)| (read, written, d.expect("completed")))
        .collect()
}

/// Seconds a compaction takes at `rate` bytes per second.
fn secs(bytes: u64, rate: f64) -> f64 {
    bytes as f64 / rate
}

fn assert_close(got_ns: u64, want_s: f64) {
    let got = got_ns as f64 / 1e9;
    assert!(
        (got - want_s).abs() <= want_s * 0.01,
        "took {got:.3} s, expected {want_s:.3} s"
    );
}

// Mirrors PressureAwareCompactionThroughputController.tune (limit = 50 + 50 x pressure MB/s with
// pressure (files - 3) / (16 - 3) from DefaultStoreFileManager.getCompactionPressure) and
// PressureAwareThroughputController.start (each active compaction gets limit / active): a
// compaction alone writes at the whole limit; two at once, at the same pressure, each take twice
// as long; three, three times.
#[test]
fn compactions_on_one_server_share_the_throttle() {
    let mb = (1u64 << 20) as f64;
    let limit = 50.0 * mb + 50.0 * mb * (4.0 - 3.0) / 13.0;
    let alone = compaction_durations("", 4, 1);
    let (_, written, d1) = alone[0];
    assert_close(d1, secs(written, limit));
    let two = compaction_durations("", 4, 2);
    for &(_, w, d) in &two {
        assert_eq!(w, written);
        assert_close(d, 2.0 * secs(written, limit));
    }
    let three = compaction_durations("", 4, 3);
    for &(_, _, d) in &three {
        assert_close(d, 3.0 * secs(written, limit));
    }
}

// Above pressure 1 (a store with more files than hbase.hstore.blockingStoreFiles) the controller
// is unlimited; NoLimitThroughputController never throttles. Either way a compaction runs at the
// physical ceiling, cluster.compaction_bandwidth (bytes read per second), whatever runs beside it.
#[test]
fn unthrottled_compactions_run_at_the_ceiling() {
    let ceiling = (1u64 << 30) as f64;
    for &(read, _, d) in &compaction_durations("", 17, 2) {
        assert_close(d, secs(read, ceiling));
    }
    let no_limit = "\"hbase.regionserver.throughput.controller\" = \"org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController\"";
    for &(read, _, d) in &compaction_durations(no_limit, 4, 2) {
        assert_close(d, secs(read, ceiling));
    }
}

// PressureAwareThroughputController.control checks the rate only after each
// hbase.hstore.compaction.throughput.control.check.interval bytes (default: the lower bound,
// 50 MB): a compaction writing less than that is never slowed down.
#[test]
fn a_compaction_below_the_check_interval_is_not_throttled() {
    let interval = "\"hbase.hstore.compaction.throughput.control.check.interval\" = \"1GB\"";
    let (read, _, d) = compaction_durations(interval, 4, 1)[0];
    assert_close(d, secs(read, (1u64 << 30) as f64));
}

#[test]
fn invariants_name_what_broke() {
    use crate::engine::Step;
    let s = scenario(&single_region(4000, ""));
    let mut e = exact_engine(&s);
    while let Some(step) = e.step().expect("keys") {
        if matches!(step, Step::Rows { done } if done >= 2000) {
            break;
        }
    }
    assert_eq!(e.invariants(), Ok(()));
    e.world.state.servers[0].memstore_heap += 1;
    let broken = e.invariants().expect_err("memstore accounting");
    assert!(broken.contains("memstore heap"), "{broken}");
    e.world.state.servers[0].memstore_heap -= 1;
    e.world.state.servers[0].online_regions += 1;
    let broken = e.invariants().expect_err("online regions");
    assert!(broken.contains("online regions"), "{broken}");
    e.world.state.servers[0].online_regions -= 1;
    e.world.queue.work += 1;
    let broken = e.invariants().expect_err("live work");
    assert!(broken.contains("live work"), "{broken}");
    e.world.queue.work -= 1;
    e.world.state.regions[0].end = b"zz".to_vec();
    let broken = e.invariants().expect_err("tiling");
    assert!(broken.contains("routed as"), "{broken}");
}

// Mirrors HRegion.checkSplit and CompactSplit.requestSplit: asked through requestSplit, the
// server's regionSplitLimit and a store at blockingStoreFiles stop a split before the policy is
// asked, as do a region that is not open or is flushing; then the policy's own answer, with its
// numbers. Asked by MemStoreFlusher.flushRegion, checkSplit (the policy) comes first.
#[test]
fn split_check_names_the_gate_that_stops_a_split() {
    use crate::engine::policy::split_check::{SplitCaller, SplitContext, SplitGate, check};
    use crate::engine::state::region::RegionState;
    let s = scenario(&single_region(4000, ""));
    let mut e = exact_engine(&s);
    while e.step().expect("keys").is_some() {}
    let cx = SplitContext {
        online_regions: 1,
        table_regions: 1,
        region_split_limit: 1000,
        ignore_blocking: false,
        blocking_store_files: 16,
        now_ms: e.world.now / 1_000_000,
        caller: SplitCaller::RequestSplit,
    };
    let region = &e.world.state.regions[0];
    // DisabledRegionSplitPolicy: the policy itself says no.
    assert!(matches!(
        check(region, cx).outcome,
        Err(SplitGate::PolicyDeclined(d))
            if matches!(d.why, crate::engine::policy::split::SplitWhy::Never(_))
    ));
    let limited = SplitContext {
        region_split_limit: 1,
        ..cx
    };
    assert_eq!(
        check(region, limited).outcome,
        Err(SplitGate::ServerAtSplitLimit {
            online: 1,
            limit: 1
        })
    );
    // The flusher asks the policy first: it says no, so the limit is never reached.
    let flusher = SplitContext {
        caller: SplitCaller::Flusher,
        ..limited
    };
    let outcome = check(region, flusher).outcome;
    assert!(
        matches!(outcome, Err(SplitGate::PolicyDeclined(_))),
        "{outcome:?}"
    );
    let files = region.stores[0].files.len();
    let blocking = SplitContext {
        blocking_store_files: files,
        ..cx
    };
    assert!(matches!(
        check(region, blocking).outcome,
        Err(SplitGate::TooManyStoreFiles { priority }) if priority < 1
    ));
    e.world.state.regions[0].flush =
        crate::engine::state::region::FlushState::Running(crate::engine::decision::FlushWhy::Size);
    assert_eq!(
        check(&e.world.state.regions[0], cx).outcome,
        Err(SplitGate::Flushing)
    );
    e.world.state.regions[0].state = RegionState::Moving;
    assert_eq!(
        check(&e.world.state.regions[0], cx).outcome,
        Err(SplitGate::NotOpen)
    );
}

/// One region on one server whose store holds `files` sequential files of about 40 MiB, with
/// `hbase` site keys; splits off.
fn store_with_files(hbase: &str, files: usize) -> crate::engine::Engine {
    let s = scenario(&format!(
        "[cluster]\nregionservers = 1\nheap = \"4GB\"\n[hbase]\n{hbase}\n\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\n\
         [workload]\nrows = 1000\nrow = {{ value = \"1000B\" }}\n\
         [[generator]]\nname = \"g\"\nkind = \"sequential\"\n"
    ));
    let mut e = exact_engine(&s);
    for _ in 0..files {
        add_flush_file(&mut e, 0);
    }
    e
}

/// Appends a ~40 MiB file to region `r`'s store 0, as a flush would (newest sequence id).
fn add_flush_file(e: &mut crate::engine::Engine, r: usize) {
    use crate::engine::state::storefile::HFileBuilder;
    let st = &e.world.state.regions[r].stores[0];
    let seq = st.files.last().map_or(1, |f| f.file.seq_id + 1);
    let mut b = HFileBuilder::new(e.cfg.shapes[0], e.cfg.formats[0], 1000);
    for row in 0..40u64 {
        b.append(&(seq * 1000 + row).to_be_bytes());
    }
    push_file(e, r, seq, b);
}

/// Appends the built file to region `r`'s store 0 with sequence id `seq`, as a flush would.
fn push_file(
    e: &mut crate::engine::Engine,
    r: usize,
    seq: u64,
    b: crate::engine::state::storefile::HFileBuilder,
) {
    use crate::engine::state::region::HeldFile;
    use crate::engine::state::storefile::StoreFile;
    let h = b.finish().expect("rows");
    let rows = h.rows();
    e.world.state.regions[r].stores[0].files.push(HeldFile {
        file: StoreFile::new(std::sync::Arc::new(h), seq, 0),
        rows,
    });
    e.world.state.regions[r].stores[0].recount();
}

/// Mirrors `SortedCompactionPolicy.getCurrentEligibleFiles` and `HStore.addToCompactingFiles`:
/// while a compaction runs, a second one of the same store selects only files newer than every
/// file being compacted, and both run at once (`CompactSplit` with two small threads).
#[test]
fn a_store_runs_a_second_compaction_on_its_newer_files() {
    let mut e = store_with_files("\"hbase.regionserver.thread.compaction.small\" = 2", 10);
    e.request_compaction(0, 0);
    let st = &e.world.state.regions[0].stores[0];
    assert_eq!(st.running.len(), 1);
    assert_eq!((st.running[0].first, st.running[0].count), (0, 10));
    // The store asks again at once: nothing newer is eligible, so nothing more runs.
    e.request_compaction(0, 0);
    assert_eq!(e.world.state.regions[0].stores[0].running.len(), 1);
    for _ in 0..3 {
        add_flush_file(&mut e, 0);
    }
    e.request_compaction(0, 0);
    let st = &e.world.state.regions[0].stores[0];
    let runs: Vec<(usize, usize)> = st.running.iter().map(|r| (r.first, r.count)).collect();
    assert_eq!(runs, vec![(0, 10), (10, 3)]);
    assert_eq!(st.compacting_files(), 13);
    e.world.state.invariants().unwrap();
    e.run.draining = true;
    while e.world.queue.work > 0 && e.advance() {
        e.world.state.invariants().unwrap();
    }
    // Each run became one file, in sequence-id order.
    let st = &e.world.state.regions[0].stores[0];
    assert_eq!(st.files.len(), 2, "{:?}", st.files.len());
    assert!(st.files[0].file.seq_id < st.files[1].file.seq_id);
    assert_eq!(st.files.iter().map(|f| f.rows).sum::<u64>(), 13 * 40_000);
}

/// Mirrors `CompactSplit.CompactionRunner.doCompaction`: a system request waits in the small
/// pool, is selected when a thread takes it, and moves to the large pool when its selection is
/// above `hbase.regionserver.thread.compaction.throttle`.
#[test]
fn a_large_selection_moves_to_the_large_pool() {
    let mut e = store_with_files(
        "\"hbase.regionserver.thread.compaction.throttle\" = \"100MB\"",
        5,
    );
    e.request_compaction(0, 0);
    let st = &e.world.state.regions[0].stores[0];
    assert_eq!(st.running.len(), 1);
    assert!(
        st.running[0].large,
        "a 200 MB selection runs in the large pool"
    );
    assert_eq!(e.world.state.servers[0].large_running, 1);
    assert_eq!(e.world.state.servers[0].small_running, 0);
    let mut e = store_with_files("", 5);
    e.request_compaction(0, 0);
    assert!(!e.world.state.regions[0].stores[0].running[0].large);
}

/// Mirrors `CompactSplit`'s queue order (`CompactionRunner.queuedPriority`, from
/// `HStore.getCompactPriority`: blockingStoreFiles − files, lower first) and the requeue when
/// the store's priority got worse while it waited.
#[test]
fn queued_compactions_run_by_store_priority() {
    let s = scenario(
        "[cluster]\nregionservers = 1\nheap = \"4GB\"\n\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\n\
         [table.presplit]\nalgorithm = \"partition\"\nregions = 3\n\
         [workload]\nrows = 1000\nrow = { value = \"1000B\" }\n\
         [[generator]]\nname = \"g\"\nkind = \"sequential\"\n",
    );
    let mut e = exact_engine(&s);
    for (r, n) in [(0, 3), (1, 4), (2, 9)] {
        for _ in 0..n {
            add_flush_file(&mut e, r);
        }
    }
    // Region 0 takes the only small thread; 1 and 2 wait, 2 (more files) ahead of 1.
    for r in 0..3 {
        e.request_compaction(r, 0);
    }
    assert_eq!(e.world.state.regions[0].stores[0].running.len(), 1);
    let order: Vec<usize> = {
        let mut q = e.world.state.servers[0].small_queue.clone();
        std::iter::from_fn(|| q.pop().map(|c| c.region)).collect()
    };
    assert_eq!(order, vec![2, 1]);
}

/// Mirrors `HStore.hasReferences` (live and compacted files, HBASE-20940) and the
/// `CompactedHFilesDischarger` chore (`hbase.hfile.compaction.discharger.interval`): once a
/// daughter's Reference is compacted away the region still may not split until the discharger
/// has archived it.
#[test]
fn a_compacted_reference_blocks_splits_until_the_discharger_runs() {
    let s = scenario(
        "[cluster]\nregionservers = 1\nheap = \"4GB\"\nwrite_bandwidth = \"1GB/s\"\n\
         flush_bandwidth = \"1GB/s\"\ncompaction_bandwidth = \"1GB/s\"\n\
         [hbase]\n\"hbase.hfile.compaction.discharger.interval\" = 30000\n\
         [table]\nmax_filesize = \"64MB\"\nmemstore_flushsize = \"8MB\"\n\
         split_policy = \"ConstantSizeRegionSplitPolicy\"\n\
         [workload]\nrows = 400_000\nrow = { value = \"1000B\" }\nrate = \"2MB/s\"\n\
         [[generator]]\nname = \"g\"\nkind = \"sequential\"\n",
    );
    use crate::engine::state::region::RegionState;
    let mut e = exact_engine(&s);
    let period = 30_000 * crate::engine::queue::NS_PER_MS;
    // Regions whose store holds a compacted Reference (since when), and how many were archived.
    let mut pending = std::collections::BTreeMap::new();
    let mut archived = 0;
    while e.step().expect("step").is_some() {
        for r in &e.world.state.regions {
            let st = &r.stores[0];
            if st.compacted_refs > 0 {
                assert!(st.has_references(), "a compacted Reference still counts");
                assert_ne!(
                    r.state,
                    RegionState::Splitting,
                    "region {} split early",
                    r.id
                );
                pending.entry(r.id).or_insert(e.world.now);
            } else if r.state == RegionState::Open
                && let Some(since) = pending.remove(&r.id)
            {
                // Only the discharger archives it: a run of the server's chore (its start plus
                // whole periods, ChoreService) has come since.
                use crate::engine::policy::chore_clock;
                let before = chore_clock::started_before_run_ns(
                    e.cfg.seed,
                    r.server,
                    chore_clock::START_SPAN_NS,
                );
                assert!(
                    e.world.now >= chore_clock::next_run_ns(since, period, 0, before),
                    "region {} archived at {} before the chore after {since}",
                    r.id,
                    e.world.now
                );
                archived += 1;
            }
        }
    }
    assert!(archived > 0, "the scenario compacts References away");
}

/// Times (s) of the flushes of `r` with `why`.
fn flush_times(r: &RunResult, why: crate::engine::decision::FlushWhy) -> Vec<f64> {
    r.dynamics
        .history
        .iter()
        .filter(|h| matches!(h.what, crate::engine::Happening::Flushed { why: w, .. } if w == why))
        .map(|h| h.at_ns as f64 / 1e9)
        .collect()
}

// Mirrors HRegionServer.PeriodicMemStoreFlusher and MemStoreFlusher.requestDelayedFlush: a
// region whose oldest edit is older than optionalcacheflushinterval is flushed after a random
// delay below rangeofdelayseconds, drawn from the seed (same run, same delays).
#[test]
fn periodic_flushes_wait_a_seeded_random_delay() {
    // 500 rows of 1 KB at 2.5 KB/s: 200 s of load, never reaching the 1 MB flush size.
    let body = |range: u32| {
        single_region(500, "")
            .replace("rate = \"1GB/s\"", "rate = \"2500B/s\"")
            .replace(
                "[table]",
                &format!(
                    "[hbase]\n\"hbase.regionserver.optionalcacheflushinterval\" = 10000\n\
                     \"hbase.regionserver.flush.check.period\" = 1000\n\
                     \"hbase.regionserver.periodicmemstoreflusher.rangeofdelayseconds\" = {range}\n[table]"
                ),
            )
    };
    let periodic = crate::engine::decision::FlushWhy::Periodic;
    let spread = flush_times(&run_one(&scenario(&body(60))), periodic);
    let tight = flush_times(&run_one(&scenario(&body(1))), periodic);
    assert!(!spread.is_empty() && !tight.is_empty());
    // With a 1 s range a flush follows its check within a second: edits are at most
    // 10 s + the check period + 1 s old, so flushes are ~11-12 s apart.
    for w in tight.windows(2) {
        assert!(w[1] - w[0] <= 12.5, "{tight:?}");
    }
    // With a 60 s range the delays stretch the gaps beyond what the checks alone give.
    assert!(spread.len() < tight.len(), "{spread:?} vs {tight:?}");
    assert!(spread.windows(2).any(|w| w[1] - w[0] > 13.0), "{spread:?}");
    assert_eq!(
        spread,
        flush_times(&run_one(&scenario(&body(60))), periodic)
    );
}

// Mirrors MemStoreFlusher.flushOneForGlobalPressure → flushRegion(region, emergencyFlush):
// the region picked under global pressure is flushed at once, even when its flush would be
// held back for too many store files; only more than twice the largest flushable memstore
// wins over a flushable region.
#[test]
fn global_pressure_flushes_a_blocked_region_twice_as_large() {
    use crate::engine::decision::FlushWhy;
    // One server, a 64 MB heap (global limit 25.6 MB, low mark ~24 MB), two regions: "a" gets
    // nearly all the writes and more files than blockingStoreFiles allows (2).
    let s = scenario(
        "[cluster]\nregionservers = 1\nheap = \"64MB\"\nflush_bandwidth = \"1GB/s\"\nwrite_bandwidth = \"10GB/s\"\n\
         compaction_bandwidth = \"1KB/s\"\n\
         [hbase]\n\"hbase.hstore.blockingStoreFiles\" = 2\n\"hbase.hstore.compactionThreshold\" = 10\n\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\nmemstore_flushsize = \"16MB\"\n\
         [table.presplit]\nalgorithm = \"keys\"\nkeys = [\"b\"]\n\
         [workload]\nrows = 200_000\nrow = { value = \"1000B\" }\nrate = \"1GB/s\"\n\
         [[generator]]\nname = \"g\"\nkind = \"sequential\"\nprefix = \"a\"\n",
    );
    let r = run_one(&s);
    let over = flush_times(&r, FlushWhy::GlobalOverFileLimit);
    assert!(!over.is_empty(), "{:?}", r.stats);
    assert!(r.stats.delayed_flushes > 0);
    // Flushed while its store already had more than blockingStoreFiles files: no waiting.
    let files_after: Vec<usize> = r
        .dynamics
        .history
        .iter()
        .filter_map(|h| match h.what {
            crate::engine::Happening::Flushed {
                why: FlushWhy::GlobalOverFileLimit,
                files_now,
                ..
            } => Some(files_now),
            _ => None,
        })
        .collect();
    assert!(files_after.iter().all(|&f| f > 3), "{files_after:?}");
}

// Mirrors SplitTableRegionProcedure on the master's ProcedureExecutor: with
// hbase.master.procedure.threads workers, a split storm's procedures queue for a worker and
// their parents stay offline longer; with enough workers none waits.
#[test]
fn split_procedures_queue_for_master_workers() {
    let body = |threads: u32| {
        format!(
            "[cluster]\nregionservers = 2\nheap = \"4GB\"\nregion_transition = \"10s\"\n\
             [hbase]\n\"hbase.master.procedure.threads\" = {threads}\n\
             [table]\nsplit_policy = \"ConstantSizeRegionSplitPolicy\"\n\
             max_filesize = \"4MB\"\nmemstore_flushsize = \"2MB\"\n[table.presplit]\nalgorithm = \"uniform\"\nregions = 8\n\
             [workload]\nrows = 60_000\nrow = {{ value = \"1000B\" }}\nrate = \"50MB/s\"\n\
             [[generator]]\nname = \"g\"\nkind = \"uniform\"\nlength = 8\n"
        )
    };
    let one = run_one(&scenario(&body(1)));
    let many = run_one(&scenario(&body(16)));
    assert!(one.splits.len() >= 4 && many.splits.len() >= 4);
    assert!(one.stats.procedures_queued > 0, "{:?}", one.stats);
    assert!(one.stats.procedure_wait_ns > 0);
    assert_eq!(many.stats.procedures_queued, 0, "{:?}", many.stats);
    assert_eq!(many.stats.procedure_wait_ns, 0);
    // Each split is offline at least its close flush + 10 s; queued ones longer.
    let longest = |r: &RunResult| {
        r.splits
            .iter()
            .map(|s| s.done_ns - s.at_ns)
            .max()
            .unwrap_or(0)
    };
    assert!(longest(&one) > longest(&many) || one.splits.len() != many.splits.len());
    assert!(longest(&one) >= 20 * 1_000_000_000, "{}", longest(&one));
}

// Mirrors MemStoreFlusher.flushRegion with CompactSplit.requestSplit refusing: once the policy
// wants a split (HRegion.checkSplit gives a row) but the server is at regionSplitLimit, flushes
// request no compaction, so files pile up until flushes are held back for too many files
// (whose requestSplit refusal does ask for one). Without a split row, every flush asks.
#[test]
fn a_split_refused_after_a_flush_requests_no_compaction() {
    let body = |policy: &str| {
        format!(
            "[cluster]\nregionservers = 1\nheap = \"4GB\"\nflush_bandwidth = \"10GB/s\"\nwrite_bandwidth = \"10GB/s\"\n{FAST_NODE}\
             [hbase]\n\"hbase.regionserver.regionSplitLimit\" = 1\n\
             [table]\nsplit_policy = \"{policy}\"\nmax_filesize = \"3MB\"\nmemstore_flushsize = \"1MB\"\n\
             [workload]\nrows = 25_000\nrow = {{ value = \"1000B\" }}\nrate = \"20MB/s\"\n\
             [[generator]]\nname = \"g\"\nkind = \"uniform\"\nlength = 8\n"
        )
    };
    let most_files = |r: &RunResult| {
        r.dynamics
            .history
            .iter()
            .filter_map(|h| match h.what {
                crate::engine::Happening::Flushed { files_now, .. } => Some(files_now),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    };
    let refused = run_one(&scenario(&body("ConstantSizeRegionSplitPolicy")));
    let no_row = run_one(&scenario(&body("DisabledRegionSplitPolicy")));
    assert!(refused.splits.is_empty() && no_row.splits.is_empty());
    assert!(most_files(&refused) > 16, "{}", most_files(&refused));
    assert!(refused.stats.delayed_flushes > 0);
    assert!(most_files(&no_row) < 16, "{}", most_files(&no_row));
    assert_eq!(no_row.stats.delayed_flushes, 0);
}

/// Two servers, four hashed regions, `rs02` killed halfway: its regions are offline for the
/// failure detection plus the WAL replay.
fn killed_server(writers: u64, detection: &str) -> RunResult {
    run_one(&scenario(&format!(
        "[cluster]\nregionservers = 2\nheap = \"4GB\"\nfailure_detection = \"{detection}\"\n\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\n\
         [table.presplit]\nalgorithm = \"hex\"\nregions = 4\n\
         [workload]\nrows = 200_000\nrow = {{ value = \"1000B\" }}\nrate = \"2MB/s\"\n\
         [client]\nwriters = {writers}\n\
         [[generator]]\nname = \"g\"\nkind = \"md5-prefix\"\nhex_chars = 8\n\
         [[event]]\nat_fraction = 0.5\nkill = \"rs02\"\n"
    )))
}

/// Mirrors `AsyncProcess` (only the actions of the refused region are retried, after
/// `ConnectionUtils.getPauseTime`) and `BufferedMutatorImpl` (a writer waits once its buffer
/// cannot be sent): while a dead server's regions are offline, many writers with room in their
/// buffers keep loading the live server's regions; one writer's 2 MB fill in a second and the
/// whole load waits for the recovery.
#[test]
fn an_offline_region_holds_back_only_its_own_writes() {
    let many = killed_server(1000, "30s");
    let one = killed_server(1, "30s");
    let rows = |r: &RunResult| r.regions.iter().map(|x| x.rows).sum::<u64>();
    for r in [&many, &one] {
        assert_eq!(rows(r), 200_000, "every row lands");
        assert!(
            r.stats.retried_rows > 0 && r.stats.retries > 0,
            "{:?}",
            r.stats
        );
        assert_eq!(r.stats.failed_rows, 0);
    }
    // 1,000 writers × 2 MB hold the ~1 MB/s meant for the dead server through 30 s.
    assert_eq!(many.stats.stall_ns, 0, "{:?}", many.stats);
    assert!(many.stats.offline_wait_ns < 1_000_000_000);
    // Retries go out at 0.1, 0.3, 0.6, 1.1, 2.1, 4.1, 8.1, 18.1, 28.1, 38.1 s …: the rows wait
    // past the 30 s detection.
    assert!(
        many.stats.retry_delay_max_ns >= 30_000_000_000,
        "{:?}",
        many.stats
    );
    // One writer stalls for about the outage.
    assert!(
        one.stats.offline_wait_ns >= 25_000_000_000,
        "{:?}",
        one.stats
    );
    assert!(one.ingest_ns > many.ingest_ns + 20_000_000_000);
}

/// Mirrors `AsyncRequestFutureImpl.manageError`: after `hbase.client.retries.number` retries
/// (about two minutes at the default pause) the operation fails
/// (`RetriesExhaustedWithDetailsException`); the loader resubmits it and it lands once the
/// region is back.
#[test]
fn a_long_outage_fails_operations_that_the_loader_resubmits() {
    let r = killed_server(1000, "200s");
    assert!(r.stats.failed_rows > 0, "{:?}", r.stats);
    assert_eq!(r.stats.lost_rows, 0);
    assert_eq!(r.regions.iter().map(|x| x.rows).sum::<u64>(), 200_000);
}

/// The node's shares (`policy/resources.rs`): the same flushes take longer on a node whose
/// disks are slow, and a node's cores bound the puts it takes per second, so small rows are
/// request-bound (`hbase.regionserver.handler.count` below the cores binds instead).
#[test]
fn node_hardware_bounds_flushes_and_the_write_path() {
    let run = |cluster: &str, value: &str| {
        run_one(&scenario(&format!(
            "[cluster]\nregionservers = 1\nheap = \"4GB\"\nvariability = \"none\"\n{cluster}\n\
             [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\nmemstore_flushsize = \"8MB\"\n\
             [workload]\nrows = 100_000\nrow = {{ value = \"{value}\" }}\nrate = \"1GB/s\"\n\
             [[generator]]\nname = \"g\"\nkind = \"sequential\"\n"
        )))
    };
    // 100,000 1 KB rows at 1 GB/s on 16 cores: 160,000 puts/s, so about 0.6 s of writing.
    let fast = run("", "1000B");
    // One disk at 5 MB/s: the WAL's share of it bounds the write path.
    let slow = run("disks = 1\ndisk_bandwidth = \"5MB/s\"", "1000B");
    assert!(
        slow.ingest_ns > 10 * fast.ingest_ns,
        "{} {}",
        slow.ingest_ns,
        fast.ingest_ns
    );
    assert!(slow.stats.throttled_ns > 0);
    // 100-byte rows on 2 cores: 20,000 puts/s, 5 s for 100,000 rows, whatever the bytes.
    let small = run("cores = 2", "100B");
    let secs = small.ingest_ns as f64 / 1e9;
    assert!((4.5..6.0).contains(&secs), "{secs}");
}

/// Offline time (s) of each split of `r`, and how many pre-close flushes it ran.
fn split_offline_and_pre_flushes(r: &RunResult) -> (Vec<f64>, usize) {
    let offline = r
        .splits
        .iter()
        .map(|s| (s.done_ns - s.at_ns) as f64 / 1e9)
        .collect();
    (
        offline,
        flush_times(r, crate::engine::decision::FlushWhy::PreClose).len(),
    )
}

// Mirrors HRegion.doClose and HRegion.worthPreFlushing: a closing region whose memstore holds
// more than hbase.hregion.preclose.flush.size is flushed first while writes still land; then
// the close flag goes up and only what arrived meanwhile is flushed with the region offline.
// Splits are asked right after a flush (MemStoreFlusher.flushRegion), so the memstore holds
// what arrived during that flush: 16 MB at 20 MB/s takes 0.8 s, 8 MB arrive at 10 MB/s. Pre-
// flushed, those 8 MB take 0.4 s while 4 MB more arrive, and the offline flush writes 4 MB
// (0.2 s); without the pre-flush the offline flush writes all 8 MB (0.4 s).
#[test]
fn a_closing_region_pre_flushes_while_writes_land() {
    let body = |preclose: &str| {
        format!(
            "[cluster]\nregionservers = 1\nheap = \"4GB\"\nflush_bandwidth = \"20MB/s\"\n\
             write_bandwidth = \"10GB/s\"\n{FAST_NODE}variability = \"none\"\n\
             region_transition = \"1s\"\n\
             [hbase]\n\"hbase.hregion.preclose.flush.size\" = {preclose}\n\
             [table]\nsplit_policy = \"ConstantSizeRegionSplitPolicy\"\nmax_filesize = \"40MB\"\n\
             memstore_flushsize = \"16MB\"\n\
             [workload]\nrows = 60_000\nrow = {{ value = \"1000B\" }}\nrate = \"10MB/s\"\n\
             [[generator]]\nname = \"g\"\nkind = \"sequential\"\n"
        )
    };
    let (pre, pre_flushes) = split_offline_and_pre_flushes(&run_one(&scenario(&body("5242880"))));
    let (whole, none) = split_offline_and_pre_flushes(&run_one(&scenario(&body("1073741824"))));
    assert_eq!(
        none, 0,
        "a memstore under the pre-close size is not pre-flushed"
    );
    assert!(
        !pre.is_empty() && pre_flushes >= pre.len(),
        "{pre:?} {pre_flushes}"
    );
    // The first split: 1 s of transition plus the offline flush.
    let (p, w) = (pre[0] - 1.0, whole[0] - 1.0);
    assert!(
        p > 0.05 && p < 0.35,
        "pre-flushed close writes what arrived meanwhile: {p} s"
    );
    assert!(
        w > 0.3 && w < 0.6,
        "the whole memstore flushed offline: {w} s"
    );
}
