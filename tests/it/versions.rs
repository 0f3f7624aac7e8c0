//! Long-lived tables: VERSIONS, updates and deletes (docs/MODEL.md "Versions and deletes").

use hbase_emu::report::run;

/// Hashed keys, 60 % of the rows updating a row written before, majors every 10 minutes
/// (checked every 100 s), 1 KB rows; about 9 simulated minutes of writes and the settling after.
const UPD: &str = r#"
schema_version = 1
name = "versions"
seed = 5

[cluster]
regionservers = 2

[hbase]
"hbase.hregion.majorcompaction" = "600000"
"hbase.server.compactchecker.interval.multiplier" = "10"

[table]
name = "t"
max_filesize = "256MB"
memstore_flushsize = "16MB"

[workload]
data = "1GB"
row = { columns = 1, qualifier = "1B", value = "1KB" }
rate = "2MB/s"
update_fraction = 0.6

[[generator]]
name = "h"
kind = "hashed"
"#;

fn report(text: &str) -> run::Report {
    crate::common::exact_report("versions.toml", text)
}

fn load_error(text: &str) -> String {
    crate::common::load_error("versions.toml", text)
}

/// `MajorCompactionScanQueryMatcher` with `ColumnTracker.checkVersions` (VERSIONS 1): an
/// update-heavy table stores about its distinct rows once compactions of all its files ran,
/// while the memstores flushed every version.
#[test]
fn update_heavy_table_stores_about_its_distinct_rows_major_compaction_scan_query_matcher() {
    let rep = report(UPD);
    let s = &rep.runs[0].summary;
    let v = s.versions.as_ref().expect("updates happened");
    assert!(v.updates > s.rows / 2, "{v:?}");
    let new_rows = s.rows - v.updates - v.deletes;
    assert_eq!(
        v.rows_stored, new_rows,
        "no deletes: every new row is stored"
    );
    // ~1,050 serialized bytes per row (key 16 + family 1 + qualifier 1 + value 1024 + 20).
    let distinct = v.rows_stored * 1062;
    assert!(
        s.store_bytes + s.memstore_bytes < distinct + distinct / 4,
        "{} stored for {} rows",
        s.store_bytes,
        v.rows_stored
    );
    assert!(
        s.flushed_bytes > 2 * distinct,
        "flushed {} for {distinct}",
        s.flushed_bytes
    );
    assert!(v.versions_dropped > v.updates / 2, "{v:?}");
    assert!(v.versions_stored < v.updates / 5, "{v:?}");
}

/// `ColumnTracker.checkVersions` with VERSIONS 3 (`ColumnFamilyDescriptor.getMaxVersions`):
/// more versions are kept than with 1, never more than VERSIONS per row after compactions.
#[test]
fn versions_above_one_keep_more_column_family_descriptor() {
    let one = report(UPD);
    let three = report(&UPD.replace("max_filesize", "versions = 3\nmax_filesize"));
    let (a, b) = (
        one.runs[0].summary.versions.clone().expect("v1"),
        three.runs[0].summary.versions.clone().expect("v3"),
    );
    // The same draws; only the few meeting a blocked region land as new rows instead.
    assert!(
        a.updates.abs_diff(b.updates) < a.updates / 50,
        "{a:?} {b:?}"
    );
    assert!(b.versions_stored > a.versions_stored, "{a:?} {b:?}");
    assert!(b.versions_dropped < a.versions_dropped, "{a:?} {b:?}");
    assert!(
        three.runs[0].summary.store_bytes > one.runs[0].summary.store_bytes,
        "the kept versions take room"
    );
}

/// `StoreScanner` counts: updates − versions dropped = versions stored, deletes − markers
/// dropped = markers stored (within a few rows per split: a Reference's share rounds down), and
/// new rows − deleted rows dropped = rows stored, exactly.
#[test]
fn figures_add_up_store_scanner() {
    let text = UPD.replace(
        "update_fraction = 0.6",
        "update_fraction = 0.4\ndelete_fraction = 0.2",
    );
    let rep = report(&text);
    let s = &rep.runs[0].summary;
    let v = s.versions.as_ref().expect("updates and deletes");
    assert!(
        v.deletes > 0 && v.markers_dropped > 0 && v.deleted_rows_dropped > 0,
        "{v:?}"
    );
    let slack = 16 * (s.splits as u64 + 1);
    let versions = v.updates - v.versions_dropped - v.deleted_versions_dropped;
    assert!(
        versions.abs_diff(v.versions_stored) <= slack,
        "{versions} vs {v:?}"
    );
    let markers = v.deletes - v.markers_dropped;
    assert!(
        markers.abs_diff(v.markers_stored) <= slack,
        "{markers} vs {v:?}"
    );
    let new_rows = s.rows - v.updates - v.deletes;
    assert_eq!(new_rows - v.deleted_rows_dropped, v.rows_stored);
}

/// `DropDeletesCompactionScanQueryMatcher` (compactions of all of a store's files): deleted
/// rows leave the store, so the regions hold less than the new rows written.
#[test]
fn deletes_shrink_regions_drop_deletes_compaction_scan_query_matcher() {
    let text = UPD.replace("update_fraction = 0.6", "delete_fraction = 0.4");
    let rep = report(&text);
    let s = &rep.runs[0].summary;
    let v = s.versions.as_ref().expect("deletes");
    let new_rows = s.rows - v.deletes;
    assert!(v.deleted_rows_dropped > new_rows / 3, "{v:?}");
    let written = new_rows * 1062;
    assert!(
        s.store_bytes + s.memstore_bytes < written * 4 / 5,
        "{} stored of {written} written",
        s.store_bytes
    );
    // The regions' own sizes (what the split policy reads) shrank too.
    let region_bytes: u64 = rep.runs[0].regions.iter().map(|r| r.store_bytes).sum();
    assert!(region_bytes < written * 4 / 5, "{region_bytes}");
}

/// Without the fields nothing changes: no versions block in the report (the shipped
/// scenarios' reports are byte-identical; `ColumnFamilyDescriptor` VERSIONS defaults to 1).
#[test]
fn no_updates_no_versions_block_column_family_descriptor() {
    let text = UPD.replace("update_fraction = 0.6\n", "");
    let rep = report(&text);
    assert!(rep.runs[0].summary.versions.is_none());
}

/// Bad fields are errors naming the field (`ColumnFamilyDescriptorBuilder` refuses VERSIONS
/// below 1).
#[test]
fn bad_versions_and_fractions_are_errors_naming_the_field_column_family_descriptor_builder() {
    let e = load_error(&UPD.replace("max_filesize", "versions = 0\nmax_filesize"));
    assert!(
        e.contains("table.versions") && e.contains("versions.toml:"),
        "{e}"
    );
    let e = load_error(&UPD.replace(
        "name = \"t\"",
        "name = \"t\"\nfamilies = [{ name = \"f\", versions = -2 }]",
    ));
    assert!(e.contains("table.families.versions"), "{e}");
    let e = load_error(&UPD.replace("update_fraction = 0.6", "update_fraction = 1.5"));
    assert!(e.contains("workload.update_fraction"), "{e}");
    let e = load_error(&UPD.replace(
        "update_fraction = 0.6",
        "update_fraction = 0.6\ndelete_fraction = 0.4",
    ));
    assert!(
        e.contains("workload.delete_fraction") && e.contains("< 1"),
        "{e}"
    );
}
