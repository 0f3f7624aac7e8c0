//! The read side of a rowkey design (`engine/scan.rs`, `report/scan.rs`): what a time-range
//! scan and a prefix scan cost on the run's final regions, priced as the HBase 2.x client does
//! (`ClientScanner`, `ScannerCallable`, `RSRpcServices.scan`).

use hbase_emu::diag::SourceText;
use hbase_emu::experiment::expect::Expectation;
use hbase_emu::report::run::RunJson;
use hbase_emu::scenario;

/// 300,000 rows of 1 KB at 100 MB/s (about 3 s of load) on 3 servers; regions never split, so
/// the layout is the pre-split one. `TABLE` and `GEN` are filled in per test.
const BASE: &str = r#"
schema_version = 1
name = "scan fan-out"
seed = 7

[cluster]
regionservers = 3
heap = "4GB"
variability = "none"

[client]
scan_windows = ["1s", "1h"]

[table]
max_filesize = "100GB"
TABLE

[workload]
rows = 300_000
row = { value = "1KB" }
rate = "100MB/s"

[[generator]]
name = "g"
GEN
"#;

fn run(table: &str, generator: &str, hbase: &str) -> RunJson {
    let text = BASE
        .replace("TABLE", table)
        .replace("GEN", generator)
        .replace("[client]", &format!("{hbase}\n[client]"));
    let s = scenario::load_source(SourceText::from_string("s.toml", text.as_str()))
        .unwrap_or_else(|e| panic!("{e}"));
    let p = hbase_emu::plan::plan_run(&s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    let opts = hbase_emu::engine::RunOptions {
        scale: Some(1),
        threads: 1,
        builder: false,
        reference: false,
    };
    let r = hbase_emu::engine::run(&s, p, opts).unwrap_or_else(|e| panic!("{e}"));
    hbase_emu::report::run::build(&s, &[r]).runs.remove(0)
}

const SALTED_8: &str = "kind = \"salted\"\nbuckets = 8";
/// One region per salt bucket.
const BUCKET_SPLITS: &str = "[table.presplit]\nalgorithm = \"keys\"\nkeys = [\"\\\\x01\", \"\\\\x02\", \"\\\\x03\", \"\\\\x04\", \"\\\\x05\", \"\\\\x06\", \"\\\\x07\"]";

/// A salted table is read as one scan per bucket, as a Phoenix or hand-salted client does: the
/// fan-out of a time-range scan equals the bucket count (issue 15's "Done when").
#[test]
fn salted_time_range_scan_fans_out_to_its_bucket_count() {
    let r = run(BUCKET_SPLITS, SALTED_8, "");
    let s = &r.scan_fanout;
    assert_eq!(s.locality, "prefix");
    assert_eq!(s.windows.len(), 2);
    for w in &s.windows {
        assert_eq!(w.scans, 8, "{w:?}");
        assert_eq!(w.regions, 8, "{w:?}");
        assert_eq!(w.servers, 3, "{w:?}");
        assert!(!w.full_scan);
    }
    // One bucket's rows lie in one region.
    assert_eq!(s.prefixes, 8);
    assert_eq!(s.prefix_scan_regions, 1.0);
    // The 1h window holds every row.
    assert_eq!(s.windows[1].rows, 300_000);
}

/// Keys in ingest order: the last second's rows are one range scan over the regions that range
/// spans, here the last two of four (split at ids 75,000, 150,000 and 225,000).
#[test]
fn sequential_time_range_scan_touches_only_the_regions_its_window_spans() {
    let splits = "[table.presplit]\nalgorithm = \"keys\"\nkeys = [\
        \"\\\\x00\\\\x00\\\\x00\\\\x00\\\\x00\\\\x01$\\\\xF8\", \
        \"\\\\x00\\\\x00\\\\x00\\\\x00\\\\x00\\\\x02I\\\\xF0\", \
        \"\\\\x00\\\\x00\\\\x00\\\\x00\\\\x00\\\\x03n\\\\xE8\"]";
    let r = run(splits, "kind = \"sequential\"", "");
    let s = &r.scan_fanout;
    assert_eq!(s.locality, "ordered");
    let last_second = &s.windows[0];
    assert_eq!(last_second.scans, 1);
    // About a third of the rows: ids from about 200,000 on, past the split at 225,000.
    assert!(
        (80_000..120_000).contains(&last_second.rows),
        "{last_second:?}"
    );
    assert_eq!(last_second.regions, 2, "{last_second:?}");
    let all = &s.windows[1];
    assert_eq!((all.scans, all.regions), (1, 4));
    assert_eq!(s.prefixes, 0, "no prefix");
}

/// Hashed keys keep no ingest order: a time window needs a full-table scan with a time range,
/// which opens every region even where no row matches.
#[test]
fn hashed_time_range_scan_opens_every_region() {
    let splits = "[table.presplit]\nalgorithm = \"hex\"\nregions = 6";
    let r = run(splits, "kind = \"md5-prefix\"", "");
    let s = &r.scan_fanout;
    assert_eq!(s.locality, "scattered");
    for w in &s.windows {
        assert!(w.full_scan);
        assert_eq!((w.scans, w.regions, w.servers), (1, 6, 3), "{w:?}");
    }
}

/// Issue 32: a `template` key was priced as a full-table scan for any window. A timestamp-first
/// template sorts in ingest order: the last second is one range scan over the regions it spans
/// (split at the 75,000th, 150,000th and 225,000th rows' times, 10 ms a row from 0); a salted
/// template is one range per salt.
#[test]
fn a_time_first_template_prices_a_recent_window_as_a_range_scan() {
    let splits = "[table.presplit]\nalgorithm = \"keys\"\nkeys = [\"0000000750000\", \
                  \"0000001500000\", \"0000002250000\"]";
    let spec = "kind = \"template\"\ntemplate = \"{ts:013}#{id}\"\nstart_ms = 0\n\
               step_ms = 10\nfixed_step = true";
    let r = run(splits, spec, "");
    let s = &r.scan_fanout;
    assert_eq!(s.locality, "ordered");
    let last_second = &s.windows[0];
    assert!(!last_second.full_scan, "{last_second:?}");
    assert_eq!(
        (last_second.scans, last_second.regions),
        (1, 2),
        "{last_second:?}"
    );
    assert_eq!((s.windows[1].scans, s.windows[1].regions), (1, 4));
    // Salted by a hash of the id: one range per salt, every salt in every window.
    let spec = "kind = \"template\"\ntemplate = \"{hash(id)%4:x1}{ts:013}\"\nstart_ms = 0\n\
               step_ms = 10";
    let splits = "[table.presplit]\nalgorithm = \"keys\"\nkeys = [\"1\", \"2\", \"3\"]";
    let s = run(splits, spec, "").scan_fanout;
    assert_eq!(s.locality, "prefix");
    assert_eq!(s.prefixes, 4);
    for w in &s.windows {
        assert!(!w.full_scan);
        assert_eq!((w.scans, w.regions), (4, 4), "{w:?}");
    }
}

/// Mirrors `ClientScanner` with `hbase.client.scanner.caching` and `RSRpcServices.scan` with
/// `hbase.client.scanner.max.result.size`: rows per RPC = min(caching, the rows that reach the
/// size limit); the open RPC returns the first batch and the server closes the scanner with the
/// region's last row, so one region of n rows costs ceil(n / rows per RPC) RPCs.
#[test]
fn rpcs_follow_scanner_caching_and_max_result_size() {
    let one_region = "";
    let r = run(one_region, "kind = \"sequential\"", "");
    let s = &r.scan_fanout;
    // HBase 2.x defaults: caching Integer.MAX_VALUE, 2 MB per RPC.
    assert_eq!(s.rows_per_rpc, (2u64 << 20).div_ceil(s.row_bytes));
    assert_eq!(s.windows[1].rpcs, 300_000u64.div_ceil(s.rows_per_rpc));

    let r = run(
        one_region,
        "kind = \"sequential\"",
        "[hbase]\n\"hbase.client.scanner.caching\" = 100\n",
    );
    assert_eq!(r.scan_fanout.rows_per_rpc, 100);
    assert_eq!(r.scan_fanout.windows[1].rpcs, 3_000);

    let r = run(
        one_region,
        "kind = \"sequential\"",
        "[hbase]\n\"hbase.client.scanner.max.result.size\" = \"64KB\"\n",
    );
    let s = &r.scan_fanout;
    assert_eq!(s.rows_per_rpc, (64u64 << 10).div_ceil(s.row_bytes));
    assert!(s.rows_per_rpc < 100);
}

/// The fan-out figures are figures: `[expect]` and sweeps name them.
#[test]
fn fanout_figures_work_in_expectations() {
    let r = run(BUCKET_SPLITS, SALTED_8, "");
    for (text, holds) in [
        ("scan_regions == 8", true),
        ("scan_fanout.scan_scans == 8", true),
        ("scan_servers <= 2", false),
        ("prefix_scan_regions == 1", true),
        ("scan_rpcs >= 8", true),
    ] {
        let e = Expectation::parse(None, text).unwrap().check(&r);
        assert_eq!(e.holds, holds, "{text}: {}", e.value);
    }
}

/// A bad window names the field and what is expected.
#[test]
fn bad_scan_window_is_an_error_naming_the_field() {
    let text = BASE
        .replace("TABLE", "")
        .replace("GEN", "kind = \"sequential\"")
        .replace("[\"1s\", \"1h\"]", "[\"1s\", \"0s\", \"soon\"]");
    let Err(e) = scenario::load_source(SourceText::from_string("s.toml", text.as_str())) else {
        panic!("a bad window loads");
    };
    let e = e.to_string();
    assert!(e.contains("client.scan_windows"), "{e}");
    assert!(e.contains("0 ms") && e.contains("soon"), "{e}");
}

/// Above 262,144 keys the rows are sampled; a drawn row per stretch (not every n-th) keeps an
/// `id mod N` design from aliasing: all 20 partitions are seen in a 300,000-row table.
#[test]
fn sampling_does_not_alias_with_partitions() {
    let r = run("", "kind = \"partition\"\npartitions = 20", "");
    let s = &r.scan_fanout;
    assert_eq!(s.locality, "prefix");
    assert_eq!(s.prefixes, 20);
    let all = &s.windows[1];
    assert!(all.sampled_keys < all.rows, "{all:?}");
    assert_eq!(all.scans, 20);
}
