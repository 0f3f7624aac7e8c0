//! The table's split restriction (`RegionSplitRestriction`, applied in `HRegion.checkSplit`)
//! end to end: every split of a run is cut to the restriction's prefix, whatever the policy.

use hbase_emu::diag::SourceText;
use hbase_emu::scenario;

/// Keys `uuuu|iiiiiiii`: 300 users, the row id after the delimiter. A sub-second load: the
/// compacted-files discharger runs every millisecond so that daughters split again.
fn scenario_text(table_extra: &str) -> String {
    format!(
        "name = \"restriction\"\nseed = 3\n[cluster]\nregionservers = 2\nheap = \"2GB\"\n\
         [hbase]\n\"hbase.hfile.compaction.discharger.interval\" = 1\n\
         [table]\nmax_filesize = \"8MB\"\nmemstore_flushsize = \"2MB\"\n\
         split_policy = \"ConstantSizeRegionSplitPolicy\"\n{table_extra}\n\
         [workload]\nrows = 60000\nrow = {{ value = \"1KB\" }}\nrate = \"100MB/s\"\n\
         [[generator]]\nname = \"g\"\nkind = \"template\"\ntemplate = \"{{u:04}}|{{id:08}}\"\n\
         fields = {{ u = {{ dist = \"uniform\", cardinality = 300 }} }}\n"
    )
}

/// The start keys of the final regions (the first, empty, left out).
fn boundaries(table_extra: &str) -> Vec<Vec<u8>> {
    let text = scenario_text(table_extra);
    let r = crate::common::run_exact("restriction.toml", &text);
    r.regions.iter().skip(1).map(|g| g.start.clone()).collect()
}

/// Without a restriction the midkey rows split inside a user's rows; with
/// `DelimitedKeyPrefixRegionSplitRestriction` every split row is a bare user (`uuuu`), and with
/// `KeyPrefixRegionSplitRestriction` (length 3) ten users stay together.
#[test]
fn region_split_restriction_cuts_every_split_row() {
    let free = boundaries("");
    assert!(free.len() >= 5, "too few splits: {}", free.len());
    assert!(free.iter().all(|k| k.len() == 13 && k[4] == b'|'));

    let delimited = boundaries(
        "split_restriction = \"DelimitedKeyPrefix\"\nsplit_restriction_delimiter = \"|\"",
    );
    assert!(delimited.len() >= 5, "too few splits: {}", delimited.len());
    for k in &delimited {
        assert!(
            k.len() == 4 && k.iter().all(u8::is_ascii_digit),
            "{:?}",
            String::from_utf8_lossy(k)
        );
    }

    let prefix =
        boundaries("split_restriction = \"KeyPrefix\"\nsplit_restriction_prefix_length = 3");
    assert!(!prefix.is_empty());
    assert!(prefix.iter().all(|k| k.len() == 3), "{prefix:?}");
}

/// A type HBase does not know is a scenario error naming the field and its line.
#[test]
fn region_split_restriction_type_is_checked_in_the_scenario() {
    let text = scenario_text("split_restriction = \"keyprefix\"");
    let e = scenario::load_source(SourceText::from_string("restriction.toml", text))
        .expect_err("unknown type");
    let msg = e.to_string();
    assert!(msg.contains("table.split_restriction"), "{msg}");
    assert!(msg.contains("restriction.toml:12"), "{msg}");
    assert!(msg.contains("DelimitedKeyPrefix"), "{msg}");
    let text = scenario_text("split_restriction_prefix_length = 0");
    let e = scenario::load_source(SourceText::from_string("restriction.toml", text))
        .expect_err("length 0");
    assert!(e.to_string().contains("split_restriction_prefix_length"));
}
