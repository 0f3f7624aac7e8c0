//! Every scenario event kind checked for its effect on the run, not only for its appearance in
//! the event log (`phase` once changed nothing: the write path kept its cached clock step).

use hbase_emu::engine::RunResult;

const NS: u64 = 1_000_000_000;

/// One MD5-prefixed generator, 200 MB of 1 KB rows at 100 MB/s on 4 servers, 8 hex regions,
/// 64 MB regions, with the given `[[event]]` tables appended.
fn run(events: &str) -> RunResult {
    run_with("[table]\nmax_filesize = \"64MB\"\n", events)
}

/// The scenario above with its own `[hbase]`/`[table]` sections.
fn run_with(sections: &str, events: &str) -> RunResult {
    let text = format!(
        "name = \"events\"\nseed = 7\n\
         [cluster]\nregionservers = 4\nheap = \"4GB\"\nfailure_detection = \"5s\"\n\
         {sections}\
         [workload]\nrows = 200_000\nrow = {{ value = \"1KB\" }}\nrate = \"100MB/s\"\n\
         [[generator]]\nname = \"hashed\"\nkind = \"md5-prefix\"\n{events}"
    );
    let text = text.replace("[table]\n", "[table]\nmemstore_flushsize = \"8MB\"\n")
        + "[table.presplit]\nalgorithm = \"hex\"\nregions = 8\n";
    crate::common::run_exact(
        concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/events.toml"),
        &text,
    )
}

/// A `phase` that lowers the offered rate to a tenth for the second half of the rows stretches
/// the ingest from about 2 s to about 11 s (the client offers rows at the phase's rate, as
/// YCSB's `-target` throttle would).
#[test]
fn phase_rate_changes_the_ingest_time() {
    let base = run("");
    let slowed = run("[[event]]\nat_fraction = 0.5\nphase = { rate = \"10MB/s\" }\n");
    assert!(base.ingest_ns < 3 * NS, "base ingest {} ns", base.ingest_ns);
    // 100 MB at 100 MB/s then 100 MB at 10 MB/s (MiB: 195,312.5 KiB … about 10.8 s).
    assert!(
        (10 * NS..13 * NS).contains(&slowed.ingest_ns),
        "ingest with the slower phase {} ns",
        slowed.ingest_ns
    );
    let faster = run("[[event]]\nat_fraction = 0.5\nphase = { rate = \"1GB/s\" }\n");
    assert!(
        faster.ingest_ns < base.ingest_ns,
        "a faster phase shortens the ingest: {} vs {}",
        faster.ingest_ns,
        base.ingest_ns
    );
}

/// A `phase` that switches gets on makes reads land on the regions (YCSB's read operations).
#[test]
fn phase_reads_switch_reads_on() {
    let base = run("");
    let reads = |r: &RunResult| r.servers.iter().map(|s| s.read_requests).sum::<u64>();
    assert_eq!(reads(&base), 0);
    let on = run("[workload.reads]\ngets_per_s = 0\n\
         [[event]]\nat_fraction = 0.25\nphase = { gets_per_s = 1000 }\n");
    assert!(reads(&on) > 0, "gets after the phase");
}

/// A `set` of `hbase.hregion.max.filesize` changes the split size the next splits use
/// (ConstantSizeRegionSplitPolicy / IncreasingToUpperBoundRegionSplitPolicy read the table
/// descriptor's size, which falls back to the site key; no table attribute is set here).
#[test]
fn set_changes_the_split_size() {
    let text =
        "[[event]]\nat_fraction = 0.3\nset = { \"hbase.hregion.max.filesize\" = \"16MB\" }\n";
    let r = run_with(
        "[hbase]\n\"hbase.hregion.max.filesize\" = \"64MB\"\n[table]\n",
        text,
    );
    let before: Vec<u64> = r
        .splits
        .iter()
        .filter(|s| s.at_ns < set_at(&r))
        .map(|s| s.split_size)
        .collect();
    let after: Vec<u64> = r
        .splits
        .iter()
        .filter(|s| s.at_ns >= set_at(&r))
        .map(|s| s.split_size)
        .collect();
    assert!(!after.is_empty(), "splits after the set");
    assert!(after.iter().all(|&s| s <= 16 << 20), "{after:?}");
    assert!(before.iter().all(|&s| s > 16 << 20), "{before:?}");
    assert_eq!(r.max_filesize, 16 << 20, "split size in force at the end");
}

fn set_at(r: &RunResult) -> u64 {
    r.dynamics
        .events
        .iter()
        .find(|e| matches!(e.detail, hbase_emu::engine::EventDetail::Set { .. }))
        .expect("set event recorded")
        .at_ns
}

/// `add_servers` adds RegionServers that start empty and take writes once the balancer
/// (StochasticLoadBalancer's idle-server rule) moves regions to them.
#[test]
fn add_servers_adds_servers_that_take_writes() {
    let r = run_with(
        "[hbase]\n\"hbase.balancer.period\" = \"500\"\n[table]\nmax_filesize = \"64MB\"\n",
        "[[event]]\nat_fraction = 0.2\nadd_servers = 2\n",
    );
    assert_eq!(r.servers.len(), 6);
    assert!(r.servers[4].joined_ns > 0 && r.servers[5].joined_ns > 0);
    let moved_in = r.dynamics.moves.iter().filter(|m| m.to >= 4).count();
    assert!(moved_in > 0, "regions moved to the new servers");
    assert!(
        r.servers[4..].iter().any(|s| s.write_requests > 0),
        "the new servers took writes"
    );
}

/// `kill` (ServerCrashProcedure): the dead server ends with no region, its regions reopened on
/// the others, and no row is lost.
#[test]
fn kill_moves_the_regions_off_the_dead_server() {
    let r = run("[[event]]\nat_fraction = 0.4\nkill = \"rs02\"\n");
    assert!(r.servers[1].dead);
    assert!(r.regions.iter().all(|g| g.server != 1));
    assert!(r.dynamics.moves.iter().any(|m| m.from == 1 && m.to != 1));
    assert_eq!(r.regions.iter().map(|g| g.rows).sum::<u64>(), r.rows);
}

/// `decommission` (`hbase admin decommission`, RegionMover): the server is drained, its regions
/// moved to the others, and it hosts none at the end.
#[test]
fn decommission_drains_the_server() {
    let r = run("[[event]]\nat_fraction = 0.4\ndecommission = \"rs03\"\n");
    assert!(r.servers[2].draining || r.servers[2].dead);
    assert!(r.regions.iter().all(|g| g.server != 2));
    assert!(r.dynamics.moves.iter().any(|m| m.from == 2));
    assert_eq!(r.regions.iter().map(|g| g.rows).sum::<u64>(), r.rows);
}
