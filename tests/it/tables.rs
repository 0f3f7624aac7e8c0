//! Several tables on one cluster (`[[other_table]]`, issue 15): the other tables' regions share
//! the servers with the designed table's, their writes share the memstore limits, and the
//! report gives each table with the cluster's totals.

use hbase_emu::diag::SourceText;
use hbase_emu::engine::{self, Engine, RunOptions, RunResult};
use hbase_emu::plan;
use hbase_emu::report::run::{self, Report};
use hbase_emu::scenario::{self, Scenario};

const BASE: &str = r#"schema_version = 1
name = "two tables"
seed = 7

[cluster]
regionservers = 3
heap = "2GB"

[table]
name = "main"
families = [{ name = "f" }]
presplit = { algorithm = "hex", regions = 6 }

[workload]
data = "3GB"
row = { columns = 1, qualifier = "1B", value = "1KB" }
rate = "100MB/s"

[[generator]]
name = "hashed"
kind = "md5-prefix"
hex_chars = 8
"#;

const BUSY: &str = r#"
[[other_table]]
name = "busy"
regions = 12
region_size = "256MB"
store_files = 2
write_rate = "100MB/s"
"#;

const IDLE: &str = r#"
[[other_table]]
name = "idle"
regions = 3
size = "3GB"
"#;

fn load(text: &str) -> Scenario {
    scenario::load_source(SourceText::from_string("tables.toml", text))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn run_with(s: &Scenario, threads: usize) -> RunResult {
    let p = plan::plan_run(s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        scale: Some(16),
        threads,
        builder: threads > 1,
        reference: false,
    };
    engine::run(s, p, opts).unwrap_or_else(|e| panic!("{e}"))
}

/// One thread, the engine's invariants checked after every event.
fn run_checked(s: &Scenario) -> RunResult {
    let p = plan::plan_run(s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        scale: Some(16),
        threads: 1,
        builder: false,
        reference: false,
    };
    let mut e = Engine::start(s, p, opts);
    e.check_invariants_each_event(true);
    while e.step().unwrap().is_some() {}
    e.finish()
}

fn report(text: &str) -> (Scenario, RunResult, Report) {
    let s = load(text);
    let r = run_with(&s, 1);
    let rep = run::build(&s, std::slice::from_ref(&r));
    (s, r, rep)
}

/// The issue's "Done when": a two-table cluster (plus an idle third) runs end to end with the
/// state invariants checked after every event, the other tables' regions on the same servers,
/// and the report giving each table and the cluster in JSON, text and HTML.
#[test]
fn two_table_cluster_end_to_end() {
    let s = load(&format!("{BASE}{BUSY}{IDLE}"));
    let r = run_checked(&s);
    let names: Vec<&str> = r.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["main", "busy", "idle"]);
    let (main, busy, idle) = (&r.tables[0], &r.tables[1], &r.tables[2]);
    assert_eq!(
        main.regions_end,
        r.regions.len(),
        "the main report keeps its own regions"
    );
    assert_eq!((busy.regions_start, idle.regions_start), (12, 3));
    assert!(busy.flushes > 0 && busy.rows_written > 0, "{busy:?}");
    assert_eq!((idle.flushes, idle.rows_written), (0, 0));
    assert!(
        idle.store_bytes > 2 << 30,
        "3 GB of imported files: {}",
        idle.store_bytes
    );
    // Every server hosts regions of every table (round-robin).
    for t in &r.tables {
        assert!(
            t.server_regions.iter().all(|&n| n > 0),
            "{}: {:?}",
            t.name,
            t.server_regions
        );
    }
    let rep = run::build(&s, std::slice::from_ref(&r));
    let json = serde_json::to_string(&rep).unwrap();
    assert!(json.contains("\"tables\":[") && json.contains("\"cluster\":{"));
    assert!(rep.to_text().contains("tables on the cluster"));
    assert!(hbase_emu::report::html::render(&rep).contains("Tables on the cluster"));
}

/// A scenario without `[[other_table]]` has no `tables` or `cluster` section: its report stays
/// as it was.
#[test]
fn one_table_reports_no_tables_section() {
    let (_, r, rep) = report(BASE);
    assert!(r.tables.is_empty());
    let json = serde_json::to_string(&rep).unwrap();
    assert!(!json.contains("\"tables\"") && !json.contains("\"cluster\""));
}

/// `MemStoreFlusher.reclaimMemStoreMemory` / `flushOneForGlobalPressure`: the global memstore
/// limit is per RegionServer over every region it hosts, so a busy other table's memstores push
/// the servers over it; the designed table's writers block where they did not on an empty
/// cluster, and its ingest takes longer. A 1 GB heap (a 410 MB global limit) puts each
/// server's six regions of both tables clearly past it; with 2 GB (six regions near the flush
/// size under an 819 MB limit) whether they reach it depends on when the GC pauses fall.
#[test]
fn other_tables_memstore_counts_in_global_pressure() {
    let base = BASE.replace("heap = \"2GB\"", "heap = \"1GB\"");
    assert_ne!(base, BASE);
    let (_, alone, _) = report(&base);
    let (_, shared, _) = report(&format!("{base}{BUSY}"));
    assert_eq!(
        alone.stats.blocked_ns, 0,
        "an empty cluster stays below the limit"
    );
    assert!(
        shared.stats.blocked_ns > 0,
        "the busy table's memstores block the servers"
    );
    assert!(
        shared.ingest_ns > alone.ingest_ns,
        "ingest {} ns shared vs {} ns alone",
        shared.ingest_ns,
        alone.ingest_ns
    );
    let peak = |r: &RunResult| r.servers.iter().map(|s| s.memstore_peak).max().unwrap();
    assert!(peak(&shared) > peak(&alone));
}

/// Per-table figures add up to the cluster's totals, and the cluster's to the engine's own
/// counters (flushes and compactions of every table, live regions).
#[test]
fn per_table_figures_sum_to_cluster_totals() {
    let (_, r, rep) = report(&format!("{BASE}{BUSY}{IDLE}"));
    let run = &rep.runs[0];
    let c = run.cluster.as_ref().expect("a cluster section");
    let t = &run.tables;
    assert_eq!(c.tables, 3);
    assert_eq!(c.regions, t.iter().map(|t| t.regions_end).sum::<usize>());
    assert_eq!(c.store_bytes, t.iter().map(|t| t.store_bytes).sum::<u64>());
    assert_eq!(
        c.memstore_bytes,
        t.iter().map(|t| t.memstore_bytes).sum::<u64>()
    );
    assert_eq!(c.write_bytes, t.iter().map(|t| t.write_bytes).sum::<u64>());
    assert_eq!(c.flushes, t.iter().map(|t| t.flushes).sum::<u64>());
    assert_eq!(c.compactions, t.iter().map(|t| t.compactions).sum::<u64>());
    assert_eq!(c.splits, t.iter().map(|t| t.splits).sum::<u64>());
    for (i, s) in c.servers.iter().enumerate() {
        assert_eq!(
            s.regions,
            t.iter().map(|t| t.servers[i].regions).sum::<usize>()
        );
        assert_eq!(
            s.memstore_bytes,
            t.iter().map(|t| t.servers[i].memstore_bytes).sum::<u64>()
        );
        assert_eq!(
            s.write_bytes,
            t.iter().map(|t| t.servers[i].write_bytes).sum::<u64>()
        );
    }
    // Against counters kept apart from the per-table ones.
    assert_eq!(c.flushes, r.stats.flushes);
    assert_eq!(
        c.compactions,
        r.stats.minor_compactions + r.stats.major_compactions
    );
    let written: u64 = r.servers.iter().map(|s| s.write_bytes).sum();
    assert_eq!(c.write_bytes, written);
    assert_eq!(t[0].write_bytes as u128, r.data_bytes);
    assert_eq!(t[0].splits as usize, r.splits.len());
}

/// Same scenario and seed, any thread count: the same report, other tables included.
#[test]
fn shared_cluster_is_deterministic_across_threads() {
    let s = load(&format!("{BASE}{BUSY}{IDLE}"));
    let one = run::build(&s, &[run_with(&s, 1)]);
    let three = run::build(&s, &[run_with(&s, 3)]);
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        serde_json::to_string(&three).unwrap()
    );
}

/// A field `[[other_table]]` does not have is named with its line.
#[test]
fn unknown_other_table_field_names_the_line() {
    let text = format!("{BASE}\n[[other_table]]\nname = \"x\"\nregion_count = 3\n");
    let e = scenario::load_source(SourceText::from_string("tables.toml", text.as_str()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("tables.toml:") && e.contains("region_count"),
        "{e}"
    );
}

/// An other table imported from the shell's `list_regions` output (`[[other_table]] initial`,
/// as `[initial]` reads it: `list_regions.rb`): its regions open with their sizes on their
/// imported servers — one server list for every import — and its writes land under its own
/// key ranges, every region of it taking some.
#[test]
fn imported_other_table_opens_as_listed_and_takes_writes() {
    let imported = r#"
[[other_table]]
name = "events"
write_rate = "50MB/s"
initial = { file = "scenarios/import/list_regions.txt" }
"#;
    let text = format!("{BASE}{imported}").replace("regionservers = 3", "regionservers = 4");
    let s = load(&text);
    assert_eq!(s.imported_servers.len(), 4);
    assert_eq!(s.imported_servers[0], "rs1.example.com,16020,1732400000001");
    let r = run_checked(&s);
    let ev = &r.tables[1];
    assert_eq!((ev.name.as_str(), ev.regions_start), ("events", 8));
    // 53 GiB imported (within the files' 1 %), plus what the run wrote.
    assert!(ev.store_bytes >= 52 << 30, "{}", ev.store_bytes);
    assert!(ev.rows_written > 0 && ev.flushes > 0, "{ev:?}");
    // list_regions puts two regions on each of its four servers.
    assert!(
        ev.server_write_bytes.iter().all(|&b| b > 0),
        "{:?}",
        ev.server_write_bytes
    );

    // Its four servers do not fit on three.
    let e = scenario::load_source(SourceText::from_string(
        "tables.toml",
        format!("{BASE}{imported}"),
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("cluster.regionservers"), "{e}");
    // `initial` and `regions` both size the table.
    let e = scenario::load_source(SourceText::from_string(
        "tables.toml",
        format!("{BASE}{imported}regions = 4\n").replace("regionservers = 3", "regionservers = 4"),
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("other_table[0].regions"), "{e}");
}

/// An other table's reads (`gets_per_s`, `scans_per_s` × `scan_rows`) are charged to its regions
/// and their servers every timeline interval — what `StochasticLoadBalancer`'s
/// `ReadRequestCostFunction` reads — at its rate, spread evenly; the designed table reads
/// nothing here.
#[test]
fn other_table_reads_land_on_its_regions_at_their_rate() {
    let reads = r#"
[[other_table]]
name = "lookups"
regions = 6
gets_per_s = 900
scans_per_s = 1
scan_rows = 100
"#;
    let s = load(&format!("{BASE}{reads}"));
    assert_eq!(s.other_tables[0].gets_per_s, 900.0);
    let r = run_with(&s, 1);
    let served: u64 = r.servers.iter().map(|x| x.read_requests).sum();
    // 1,000 a second for every whole interval sampled.
    let expected = 1_000 * (r.samples.len() as u64 * r.sample_ns / 1_000_000_000);
    assert!(
        served.abs_diff(expected) <= 1,
        "{served} read requests, {expected} expected"
    );
    // Three servers, six regions round-robin: an even share each.
    for x in &r.servers {
        assert!(
            x.read_requests.abs_diff(served / 3) <= 2,
            "{:?}",
            r.servers
                .iter()
                .map(|x| x.read_requests)
                .collect::<Vec<_>>()
        );
    }
    let e = scenario::load_source(SourceText::from_string(
        "tables.toml",
        format!("{BASE}{reads}").replace("gets_per_s = 900", "gets_per_s = -1"),
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("other_table[0].gets_per_s"), "{e}");
}
