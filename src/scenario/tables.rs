//! `[[other_table]]`: the other tables already on the cluster, validated. The engine opens their
//! regions beside the designed table's and plays their write load (see docs/SCENARIO.md).

use toml::Spanned;

use super::Checker;
use super::raw::RawOtherTable;
use crate::units;

/// Most regions one other table may have (a bound on the state a run sets up).
pub const MAX_OTHER_REGIONS: u64 = 100_000;

/// One `[[other_table]]`, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherTable {
    /// Table name (unique among the scenario's tables).
    pub name: String,
    /// Regions at the start: the table's key space split evenly, placed round-robin.
    pub regions: u64,
    /// Store file bytes of each region at the start.
    pub region_bytes: u64,
    /// Store files each region starts with (the bytes shared evenly over them).
    pub store_files: u64,
    /// Payload bytes per second written to the table (0 = idle), keys uniform over its key space
    /// (over its imported regions, one key range each, when imported).
    pub write_rate: u64,
    /// `initial = { file = … }`: the table's regions as imported (then `regions`,
    /// `region_bytes` and `store_files` are the import's count, mean size and 0).
    pub imported: Option<std::sync::Arc<crate::import::InitialTable>>,
    /// Gets per second (real operations), spread evenly over its open regions (charged to
    /// them every timeline sample).
    pub gets_per_s: f64,
    /// Scans per second, spread as the gets.
    pub scans_per_s: f64,
    /// Rows one scan reads (its read requests).
    pub scan_rows: u64,
}

/// Validates the `[[other_table]]` entries; errors go to `ck` with the entry's field.
pub(super) fn other_tables(
    ck: &mut Checker,
    raw: &[Spanned<RawOtherTable>],
    main_table: &str,
    base_dir: &std::path::Path,
    regionservers: u64,
) -> Vec<OtherTable> {
    let mut out: Vec<OtherTable> = Vec::new();
    for (i, t) in raw.iter().enumerate() {
        let t = t.get_ref();
        let field = |f: &str| format!("other_table[{i}].{f}");
        let name = t.name.get_ref().trim().to_string();
        if !super::valid_table_name(&name) {
            ck.err(
                t.name.span(),
                &field("name"),
                format!("`{name}` is not a valid HBase table name"),
                super::TABLE_NAME_EXPECTED,
            );
            continue;
        }
        if name == main_table || out.iter().any(|o| o.name == name) {
            ck.err(
                t.name.span(),
                &field("name"),
                format!("table `{name}` is named twice"),
                "a name no other table of the scenario has",
            );
            continue;
        }
        let mut reads_ok = true;
        let mut ops = |ck: &mut Checker, v: &Option<Spanned<f64>>, f: &str| match v {
            None => 0.0,
            Some(v) => ck.ops_rate(v, &field(f)).unwrap_or_else(|| {
                reads_ok = false;
                0.0
            }),
        };
        let gets_per_s = ops(ck, &t.gets_per_s, "gets_per_s");
        let scans_per_s = ops(ck, &t.scans_per_s, "scans_per_s");
        let scan_rows = match &t.scan_rows {
            None => super::events::DEFAULT_SCAN_ROWS,
            Some(v) => ck
                .positive(v, &field("scan_rows"), super::events::MAX_SCAN_ROWS)
                .unwrap_or_else(|| {
                    reads_ok = false;
                    1
                }),
        };
        if !reads_ok {
            continue;
        }
        if let Some(ri) = &t.initial {
            if let Some(imported) = imported_table(ck, t, ri, &field, base_dir, regionservers) {
                let write_rate = match &t.write_rate {
                    Some(r) => ck.quantity(
                        r,
                        &field("write_rate"),
                        units::parse_rate,
                        units::RATE_EXPECTED,
                    ),
                    None => Some(0),
                };
                if let Some(write_rate) = write_rate {
                    let n = imported.regions.len() as u64;
                    out.push(OtherTable {
                        name,
                        regions: n,
                        region_bytes: imported.regions.iter().map(|r| r.store_bytes).sum::<u64>()
                            / n.max(1),
                        store_files: 0,
                        write_rate,
                        imported: Some(std::sync::Arc::new(imported)),
                        gets_per_s,
                        scans_per_s,
                        scan_rows,
                    });
                }
            }
            continue;
        }
        let regions = match &t.regions {
            Some(r) => ck.positive(r, &field("regions"), MAX_OTHER_REGIONS),
            None => Some(1),
        };
        let store_files = match &t.store_files {
            Some(f) => ck.positive(f, &field("store_files"), 10_000),
            None => Some(1),
        };
        let region_bytes = match (&t.region_size, &t.size) {
            (Some(a), Some(_)) => {
                ck.err(
                    a.span(),
                    &field("region_size"),
                    "`region_size` and `size` both give the table's size",
                    "one of them: `region_size` per region or `size` for the whole table",
                );
                None
            }
            (Some(q), None) => ck.size(q, &field("region_size")),
            (None, Some(q)) => ck
                .size(q, &field("size"))
                .zip(regions)
                .map(|(total, n)| total / n),
            (None, None) => Some(0),
        };
        let write_rate = match &t.write_rate {
            Some(r) => ck.quantity(
                r,
                &field("write_rate"),
                units::parse_rate,
                units::RATE_EXPECTED,
            ),
            None => Some(0),
        };
        if let (Some(regions), Some(region_bytes), Some(store_files), Some(write_rate)) =
            (regions, region_bytes, store_files, write_rate)
        {
            out.push(OtherTable {
                name,
                regions,
                region_bytes,
                store_files,
                write_rate,
                imported: None,
                gets_per_s,
                scans_per_s,
                scan_rows,
            });
        }
    }
    out
}

/// An other table's `initial = { file = … }`: read now (as `[initial]` is), the fields that
/// would size it otherwise refused, its servers within the cluster.
fn imported_table(
    ck: &mut Checker,
    t: &RawOtherTable,
    ri: &Spanned<super::raw::RawInitial>,
    field: &dyn Fn(&str) -> String,
    base_dir: &std::path::Path,
    regionservers: u64,
) -> Option<crate::import::InitialTable> {
    let clash = [
        ("regions", t.regions.as_ref().map(Spanned::span)),
        ("region_size", t.region_size.as_ref().map(Spanned::span)),
        ("size", t.size.as_ref().map(Spanned::span)),
        ("store_files", t.store_files.as_ref().map(Spanned::span)),
    ];
    if let Some((name, Some(span))) = clash.into_iter().find(|c| c.1.is_some()) {
        ck.err(
            span,
            &field(name),
            format!("`{name}` and `initial` both give the table's regions"),
            "one of them: `initial` takes the regions, sizes and files from the import",
        );
        return None;
    }
    let r = ri.get_ref();
    if let Some(s) = &r.servers
        && s.get_ref() != "as-imported"
    {
        ck.err(
            s.span(),
            &field("initial.servers"),
            format!("placement `{}` for an other table", s.get_ref()),
            "\"as-imported\" (an other table's regions stay where the import puts them)",
        );
        return None;
    }
    let format = super::import_format(ck, &r.format, &field("initial.format"))?;
    let (_, imported) = super::load_import(ck, r, format, base_dir, &field("initial"))?;
    let n = imported.servers().len() as u64;
    if n > regionservers {
        ck.err(
            ri.span(),
            "cluster.regionservers",
            format!(
                "the imported table is on {n} servers but [cluster] regionservers = {regionservers}"
            ),
            format!("regionservers >= {n}"),
        );
        return None;
    }
    ck.warnings.extend(
        imported
            .warnings
            .iter()
            .map(|w| format!("[[other_table]] {}: {w}", t.name.get_ref())),
    );
    Some(imported)
}

#[cfg(test)]
mod tests {
    use crate::diag::SourceText;
    use crate::scenario::load_source;

    const BASE: &str = r#"schema_version = 1
name = "t"
[cluster]
regionservers = 3
[workload]
data = "1GB"
row = { columns = 1, qualifier = "1B", value = "1KB" }
[[generator]]
name = "g"
kind = "hashed"
"#;

    fn load(extra: &str) -> Result<Vec<super::OtherTable>, String> {
        let text = format!("{BASE}{extra}");
        load_source(SourceText::from_string("s.toml", text.as_str()))
            .map(|s| s.other_tables)
            .map_err(|e| e.to_string())
    }

    /// `size` is shared evenly over the regions; defaults: one region, one file, idle.
    #[test]
    fn sizes_and_defaults() {
        let t = load(
            "[[other_table]]\nname = \"a\"\nregions = 4\nsize = \"8GB\"\nwrite_rate = \"10MB/s\"\n\
             [[other_table]]\nname = \"b\"\n",
        )
        .unwrap();
        assert_eq!(t[0].regions, 4);
        assert_eq!(t[0].region_bytes, 2 << 30);
        assert_eq!(t[0].write_rate, 10 << 20);
        assert_eq!(
            (t[1].regions, t[1].region_bytes, t[1].store_files),
            (1, 0, 1)
        );
        assert_eq!(t[1].write_rate, 0);
    }

    /// Each bad field is named with its entry and line.
    #[test]
    fn bad_fields_name_entry_and_line() {
        let e = load("[[other_table]]\nname = \"a\"\nregions = 0\n").unwrap_err();
        assert!(
            e.contains("other_table[0].regions") && e.contains("s.toml:13"),
            "{e}"
        );
        let e = load("[[other_table]]\nname = \"a\"\nregion_size = \"1GB\"\nsize = \"2GB\"\n")
            .unwrap_err();
        assert!(e.contains("other_table[0].region_size"), "{e}");
        let e = load("[[other_table]]\nname = \"a\"\n[[other_table]]\nname = \"a\"\n").unwrap_err();
        assert!(
            e.contains("other_table[1].name") && e.contains("named twice"),
            "{e}"
        );
        let e = load("[[other_table]]\nname = \"a\"\nwrite_rate = \"fast\"\n").unwrap_err();
        assert!(e.contains("other_table[0].write_rate"), "{e}");
    }
}
