//! Long-lived tables: family TTL, expired store files, and the normalizer merging the regions
//! ageing empties (docs/MODEL.md "TTL").

use crate::common::run_exact;
use hbase_emu::diag::SourceText;
use hbase_emu::report::run;
use hbase_emu::scenario;

/// Time-series keys written for about 5.5 simulated hours at 100 KB/s, TTL 1 hour, majors due
/// every hour and checked every 100 s, normalization on with no age or size floor.
const TS: &str = r#"
schema_version = 1
name = "ttl"
seed = 3

[cluster]
regionservers = 2

[hbase]
"hbase.hregion.majorcompaction" = "3600000"
"hbase.server.compactchecker.interval.multiplier" = "10"
"hbase.normalizer.period" = "300000"
"hbase.normalizer.merge.min_region_age.days" = "0"
"hbase.normalizer.merge.min_region_size.mb" = "0"

[table]
name = "ts"
ttl = "1h"
max_filesize = "256MB"
memstore_flushsize = "16MB"
normalization_enabled = true

[workload]
data = "2GB"
row = { columns = 1, qualifier = "1B", value = "1KB" }
rate = "100KB/s"

[[generator]]
name = "ts"
kind = "timestamp-first"
"#;

fn report(text: &str) -> run::Report {
    let s = scenario::load_source(SourceText::from_string("ttl.toml", text.to_string()))
        .unwrap_or_else(|e| panic!("{e}"));
    let r = run_exact("ttl.toml", text);
    run::build(&s, &[r])
}

/// `ScanQueryMatcher.isCellTTLExpired` in compactions, `HStore.removeUnneededFiles` and the
/// single-file "keyvalues outdated" major (`RatioBasedCompactionPolicy`): with a 1 h TTL the
/// rows stored at the end are bounded by the rows written in the last TTL plus the time a
/// major takes to come due; rows written − expired = rows stored.
#[test]
fn ttl_bounds_stored_rows_by_the_window_scan_query_matcher() {
    let rep = report(TS);
    let s = &rep.runs[0].summary;
    let a = s.ageing.as_ref().expect("TTL expired something");
    let rows_per_s = s.rows as f64 / s.sim_seconds;
    // TTL 1 h + major period 1 h (jitter up to +50 %) + checker period + flush slack.
    let window_s = 3600.0 + 5400.0 + 100.0 + 600.0;
    assert!(
        (a.rows_stored as f64) <= rows_per_s * window_s,
        "{} stored, {} per s",
        a.rows_stored,
        rows_per_s
    );
    assert!(a.rows_stored > 0);
    assert_eq!(s.rows - a.ttl_expired_rows, a.rows_stored, "figures add up");
    assert!(a.ttl_expired_bytes > 0);
}

/// `HStore.removeUnneededFiles` (`hbase.store.delete.expired.storefile`, default true): old
/// files past the TTL are dropped whole; with the key off none are.
#[test]
fn expired_store_files_are_dropped_whole_hstore() {
    let on = report(TS);
    let a = on.runs[0].summary.ageing.clone().expect("ageing");
    assert!(a.expired_files_dropped > 0, "{a:?}");
    let off_text = TS.replace(
        "[table]",
        "\"hbase.store.delete.expired.storefile\" = \"false\"\n\n[table]",
    );
    let off = report(&off_text);
    let b = off.runs[0].summary.ageing.clone().expect("ageing");
    assert_eq!(b.expired_files_dropped, 0);
    // Compactions still expire the rows.
    assert!(b.ttl_expired_rows > 0);
}

/// `SimpleRegionNormalizer` with `merge.min_region_size.mb` 0: regions emptied by TTL (0 MB)
/// join merge plans; the region count ends below its peak.
#[test]
fn normalizer_merges_regions_emptied_by_ttl_simple_region_normalizer() {
    let rep = report(TS);
    let r = &rep.runs[0];
    assert!(!r.merges.is_empty(), "no merges");
    assert!(
        r.summary.regions_final < r.summary.regions_initial + r.summary.splits,
        "{} regions after {} splits",
        r.summary.regions_final,
        r.summary.splits
    );
}

/// No TTL: nothing expires and the report has no ageing block (shipped scenarios unchanged).
#[test]
fn no_ttl_no_ageing_column_family_descriptor() {
    let text = TS.replace("ttl = \"1h\"\n", "");
    let rep = report(&text);
    assert!(rep.runs[0].summary.ageing.is_none());
}

/// A TTL that is not a duration or whole seconds is an error naming the field.
#[test]
fn bad_ttl_is_an_error_naming_the_field() {
    let text = TS.replace("ttl = \"1h\"", "ttl = \"soon\"");
    let err = scenario::load_source(SourceText::from_string("ttl.toml", text.as_str()))
        .expect_err("bad ttl")
        .to_string();
    assert!(err.contains("table.ttl"), "{err}");
    assert!(err.contains("ttl.toml:"), "{err}");
}
