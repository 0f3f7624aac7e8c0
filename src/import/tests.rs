use proptest::prelude::*;

use super::*;

fn src(text: &str) -> SourceText {
    SourceText::from_string("in.txt", text.to_string())
}

fn csv_table(text: &str) -> Result<InitialTable, InputError> {
    let s = src(text);
    csv::parse(&s)?.validate(&s)
}

/// The layout `list_regions.rb` prints: ` %Ns |` cells, dashes, ` N rows`.
const LIST: &str = "\
Can not find all details for region: t1,zz,1.ffff. , it may be disabled or in transition
  SERVER_NAME |                                   REGION_NAME | START_KEY | END_KEY |   SIZE | REQ | LOCALITY |
 ------------ | --------------------------------------------- | --------- | ------- | ------ | --- | -------- |
 rs1,16020,17 |  t1,,1700000000000.0123456789abcdef0123456789abcdef. |           |     a|b | 12.0MB |  42 |      1.0 |
 rs2,16020,18 | t1,a|b,1700000000000.fedcba9876543210fedcba98765432. |       a|b |         |  0.0MB |   0 |      0.0 |
 2 rows
Took 0.0310 seconds
";

fn fixed_list() -> String {
    // Pad every row to the header's widths, as the shell does (the constant above is hand-aligned
    // for the header only).
    let rows = [
        [
            "rs1,16020,17",
            "t1,,1700000000000.0123456789abcdef0123456789abcdef.",
            "",
            "a|b",
            "12.0MB",
            "42",
            "1.0",
        ],
        [
            "rs2,16020,18",
            "t1,a|b,1700000000000.fedcba9876543210fedcba98765432.",
            "a|b",
            "",
            "0.0MB",
            "0",
            "0.0",
        ],
    ];
    let names = [
        "SERVER_NAME",
        "REGION_NAME",
        "START_KEY",
        "END_KEY",
        "SIZE",
        "REQ",
        "LOCALITY",
    ];
    let w: Vec<usize> = (0..7)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([names[c].len()])
                .max()
                .unwrap()
        })
        .collect();
    let line = |cells: &[&str]| {
        let mut s = String::new();
        for (c, v) in cells.iter().enumerate() {
            s.push_str(&format!(" {:>1$} |", v, w[c]));
        }
        s.push('\n');
        s
    };
    let mut out = String::from(LIST.lines().next().unwrap());
    out.push('\n');
    out.push_str(&line(&names));
    let dashes: Vec<String> = w.iter().map(|&n| "-".repeat(n)).collect();
    out.push_str(&line(
        &dashes.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    for r in &rows {
        out.push_str(&line(r));
    }
    out.push_str(" 2 rows\nTook 0.0310 seconds\n");
    out
}

/// Mirrors list_regions.rb (hbase-shell): fixed-width ` %Ns |` cells, SIZE as
/// `Size.toString()` in MB, keys in toStringBinary; a key holding `|` is cut by position.
#[test]
fn list_regions_rb_layout_is_read_by_column_widths() {
    let s = src(&fixed_list());
    let t = list_regions::parse(&s).unwrap().validate(&s).unwrap();
    assert_eq!(t.regions.len(), 2);
    assert_eq!(t.regions[0].end, b"a|b");
    assert_eq!(t.regions[1].start, b"a|b");
    assert_eq!(t.regions[0].store_bytes, 12 << 20);
    assert_eq!(t.regions[0].store_files, 1);
    assert_eq!(t.regions[1].store_files, 0);
    assert_eq!(
        t.regions[0].encoded.as_deref(),
        Some("0123456789abcdef0123456789abcdef")
    );
    assert_eq!(t.servers(), vec!["rs1,16020,17", "rs2,16020,18"]);
    assert!(detect(&fixed_list()) == Format::ListRegions);
    // `RegionInfo.getRegionNameAsString()` leads with the table's name.
    assert_eq!(t.table.as_deref(), Some("t1"));
}

/// `list_regions.rb` lists the regions of one table: a region of another is an error at its
/// line and column.
#[test]
fn list_regions_of_two_tables_is_an_error() {
    let text = fixed_list().replace("t1,a|b,", "t2,a|b,");
    let e = list_regions::parse(&src(&text)).unwrap_err();
    assert_eq!(e.line, Some(5));
    assert_eq!(e.field.as_deref(), Some("REGION_NAME"));
    assert!(
        e.problem.contains("`t2`") && e.problem.contains("`t1`"),
        "{e}"
    );
}

#[test]
fn list_regions_errors_name_line_and_field() {
    let text = fixed_list().replace("12.0MB", "12.0XB");
    let e = list_regions::parse(&src(&text)).unwrap_err();
    assert_eq!(e.line, Some(4));
    assert_eq!(e.field.as_deref(), Some("SIZE"));
    let e = list_regions::parse(&src(&fixed_list().replace(" 2 rows", " 3 rows"))).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("rows"));
    let cut: String = fixed_list().lines().take(4).collect::<Vec<_>>().join("\n");
    let e = list_regions::parse(&src(&cut)).unwrap_err();
    assert!(e.problem.contains("N rows"), "{e}");
    // A row shifted by one character no longer lines up with the header.
    let shifted = fixed_list().replace(" rs2,16020,18 |", "rs2,16020,18  |");
    let e = list_regions::parse(&src(&shifted)).unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(5), Some("SERVER_NAME")));
}

/// Mirrors MetricsRegionSourceImpl's attribute names:
/// `Namespace_<ns>_table_<t>_region_<encoded>_metric_<name>`.
#[test]
fn metrics_region_source_impl_attribute_names_split() {
    let (ns, t, enc, m) = jmx::split_attribute(
        "Namespace_default_table_my_table_region_0123456789abcdef0123456789abcdef_metric_storeFileSize",
    )
    .unwrap();
    assert_eq!((ns, t, m), ("default", "my_table", "storeFileSize"));
    assert_eq!(enc, "0123456789abcdef0123456789abcdef");
    assert!(jmx::split_attribute("tag.Hostname").is_none());
}

fn jmx_dump(server: &str, regions: &[(&str, u64, u64)]) -> String {
    let mut attrs =
        vec![r#""name": "Hadoop:service=HBase,name=RegionServer,sub=Regions""#.to_string()];
    for (enc, bytes, files) in regions {
        let p = format!("Namespace_default_table_t1_region_{enc}_metric_");
        attrs.push(format!(r#""{p}storeFileSize": {bytes}"#));
        attrs.push(format!(r#""{p}storeFileCount": {files}"#));
        attrs.push(format!(r#""{p}memStoreSize": 7"#));
        attrs.push(format!(r#""{p}readRequestCount": 5"#));
        attrs.push(format!(r#""{p}writeRequestCount": 9"#));
    }
    format!(
        r#"{{"beans": [{{"name": "Hadoop:service=HBase,name=RegionServer,sub=Server", "tag.serverName": "{server}"}}, {{{}}}]}}"#,
        attrs.join(", ")
    )
}

#[test]
fn jmx_joins_keys_by_encoded_name_across_concatenated_dumps() {
    let keys_src = src(&fixed_list());
    let keys = list_regions::parse(&keys_src).unwrap();
    let text = format!(
        "{}\n{}",
        jmx_dump(
            "rs1,16020,17",
            &[("0123456789abcdef0123456789abcdef", 1000, 3)]
        ),
        jmx_dump(
            "rs9,16020,99",
            &[("fedcba9876543210fedcba98765432", 2000, 2)]
        )
    );
    let t = jmx::parse(&src(&text), None, &keys, &keys_src)
        .unwrap()
        .validate(&keys_src)
        .unwrap();
    assert_eq!(t.table.as_deref(), Some("default:t1"));
    assert_eq!(t.regions[1].server, "rs9,16020,99");
    assert_eq!(
        (t.regions[1].store_bytes, t.regions[1].store_files),
        (2000, 2)
    );
    assert_eq!(t.regions[0].write_requests, Some(9));
    // A region missing from the dump is an error naming the keys file's line.
    let one = jmx_dump(
        "rs1,16020,17",
        &[("0123456789abcdef0123456789abcdef", 1000, 3)],
    );
    let e = jmx::parse(&src(&one), None, &keys, &keys_src).unwrap_err();
    assert_eq!(e.line, Some(5));
    assert!(e.problem.contains("no metrics"), "{e}");
    let e = jmx::parse(&src("{\"beans\": [}"), None, &keys, &keys_src).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("json"));
}

#[test]
fn csv_reads_units_optional_columns_and_validates_tiling() {
    let t = csv_table(
        "start,end,server,store_bytes,store_files,write_requests\n\
         ,m,rs1,1GB,2,10\n\
         m,,rs2,512MB,1,\n",
    )
    .unwrap();
    assert_eq!(t.regions[0].store_bytes, 1 << 30);
    assert_eq!(t.regions[0].write_requests, Some(10));
    assert_eq!(t.regions[1].write_requests, None);
    assert_eq!(t.total_store_bytes(), (1 << 30) + (512 << 20));
    assert_eq!(t.server_totals()[1].store_bytes, 512 << 20);
}

#[test]
fn csv_errors_name_line_column_and_field() {
    let h = "start,end,server,store_bytes,store_files\n";
    let e = csv_table(&format!("{h},m,rs1,12QB,2\nm,,rs2,1,1\n")).unwrap_err();
    assert_eq!(
        (e.line, e.column, e.field.as_deref()),
        (Some(2), Some(8), Some("store_bytes"))
    );
    let e = csv_table(&format!("{h},m,rs1,1,x\nm,,rs2,1,1\n")).unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(2), Some("store_files")));
    // A gap: a region missing between m and p.
    let e = csv_table(&format!("{h},m,rs1,1,1\np,,rs2,1,1\n")).unwrap_err();
    assert!(e.problem.starts_with("gap"), "{e}");
    assert_eq!(e.line, Some(3));
    let e = csv_table(&format!("{h},p,rs1,1,1\nm,,rs2,1,1\n")).unwrap_err();
    assert!(e.problem.starts_with("overlap"), "{e}");
    let e = csv_table(&format!("{h},m,rs1,1,1\n,m,rs2,1,1\nm,,rs2,1,1\n")).unwrap_err();
    assert!(e.problem.contains("twice"), "{e}");
    let e = csv_table(&format!("{h}a,,rs1,1,1\n")).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("start"));
    let e = csv_table("start,end,server,store_bytes\n,,rs1,1\n").unwrap_err();
    assert!(e.problem.contains("store_files"), "{e}");
    let e = csv_table("start,end,server,bytes,store_files\n").unwrap_err();
    assert!(e.problem.contains("unknown column"), "{e}");
    let e = csv_table(&format!("{h},,rs1,1\n")).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("record"));
}

/// Issue 33: a quoted field shifted the parsed lengths off the raw offsets; with multi-byte
/// characters after it the span fell inside a character and the snippet panicked.
#[test]
fn issue_33_a_quoted_field_then_multibyte_characters_places_the_error_exactly() {
    let h = "start,end,server,store_bytes,store_files\n";
    let wide = "é".repeat(100);
    let text = format!("{h}\"\",\"{wide}\",\"rs,1\",12QB,2\n");
    let e = csv_table(&text).unwrap_err();
    assert_eq!(
        (e.line, e.column, e.field.as_deref()),
        (Some(2), Some(4 + 102 + 1 + 6 + 1), Some("store_bytes")),
        "{e}"
    );
    assert!(e.render().contains("12QB"), "{}", e.render());
}

fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 1..6)
}

proptest! {
    /// Any valid table written as CSV reads back the same (import → CSV → import).
    #[test]
    fn csv_round_trips(
        mut keys in prop::collection::btree_set(key_strategy(), 0..12),
        sizes in prop::collection::vec((0u64..1 << 40, 0u64..50, 0usize..4), 13),
        extra in any::<bool>(),
    ) {
        let keys: Vec<Vec<u8>> = std::mem::take(&mut keys).into_iter().collect();
        let n = keys.len() + 1;
        let regions: Vec<InitialRegion> = (0..n)
            .map(|i| InitialRegion {
                start: if i == 0 { Vec::new() } else { keys[i - 1].clone() },
                end: if i + 1 == n { Vec::new() } else { keys[i].clone() },
                server: format!("rs{},16020,1", sizes[i].2),
                store_bytes: sizes[i].0,
                store_files: sizes[i].1,
                memstore_bytes: extra.then_some(sizes[i].1),
                read_requests: None,
                write_requests: extra.then_some(sizes[i].0),
                encoded: None,
                line: 0,
            })
            .collect();
        let t = InitialTable { table: None, regions, warnings: Vec::new() };
        let back = csv_table(&t.to_csv()).unwrap();
        let strip = |t: &InitialTable| t.regions.iter().map(|r| InitialRegion { line: 0, ..r.clone() }).collect::<Vec<_>>();
        prop_assert_eq!(strip(&back), strip(&t));
    }

    /// Garbage never panics, in any format.
    #[test]
    fn garbage_never_panics(lines in prop::collection::vec("[ -~|,\\\\x\n{}\\[\\]\"]{0,40}", 0..8)) {
        let text = lines.join("\n");
        let s = src(&text);
        let _ = csv::parse(&s).and_then(|t| t.validate(&s));
        let _ = list_regions::parse(&s).and_then(|t| t.validate(&s));
        let with_header = format!("{}\n{text}", fixed_list().lines().take(3).collect::<Vec<_>>().join("\n"));
        let _ = list_regions::parse(&src(&with_header));
        let keys = src(&fixed_list());
        let kt = list_regions::parse(&keys).unwrap();
        let _ = jmx::parse(&s, None, &kt, &keys);
        let _ = detect(&text);
    }
}

/// Hostile sizes: a region with billions of store files is refused at its line, not emulated
/// file by file.
#[test]
fn absurd_store_file_counts_are_errors() {
    let s = src("start,end,server,store_bytes,store_files\n,,a,1TB,4000000000\n");
    let e = csv::parse(&s).unwrap().validate(&s).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert_eq!(e.field.as_deref(), Some("store_files"));
}

/// Issue 33: three regions of 8,000 PB added up past 2^64 and printed "7.44 EiB".
#[test]
fn issue_33_store_bytes_past_sixteen_eib_are_refused_not_wrapped() {
    let s = src("start,end,server,store_bytes,store_files\n\
                 ,a,rs1,8000PB,1\na,b,rs1,8000PB,1\nb,,rs2,8000PB,1\n");
    let e = csv::parse(&s).unwrap().validate(&s).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_deref()),
        (Some(4), Some("store_bytes")),
        "{e}"
    );
}

#[test]
fn store_bytes_without_store_files_are_named_in_a_warning() {
    let s = src("start,end,server,store_bytes,store_files\n,,rs1,1GB,0\n");
    let t = csv::parse(&s).unwrap().validate(&s).unwrap();
    assert!(
        t.warnings.iter().any(|w| w.contains("no store files")),
        "{:?}",
        t.warnings
    );
}

/// Issue 33: a `list_regions` listing with one extra column was re-read as CSV and failed there.
#[test]
fn issue_33_list_regions_with_an_unknown_column_is_named_as_such() {
    let text = LIST.replace("LOCALITY |", "LOCALITY | EXTRA |");
    assert_eq!(detect(&text), Format::ListRegions);
    let e = list_regions::parse(&src(&text)).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_deref()),
        (Some(2), Some("header")),
        "{e}"
    );
    assert!(
        e.problem.contains("`EXTRA` is not a `list_regions` column"),
        "{e}"
    );
}

/// Issue 33: a bad /jmx value was named by its shortened attribute (neither region nor metric
/// readable) and had no position.
#[test]
fn issue_33_jmx_value_errors_name_region_metric_and_place() {
    let keys_src = src(&fixed_list());
    let keys = list_regions::parse(&keys_src).unwrap();
    let text = jmx_dump(
        "rs1,16020,17",
        &[("0123456789abcdef0123456789abcdef", 1000, 3)],
    )
    .replace("storeFileCount\": 3", "storeFileCount\": \"three\"");
    let e = jmx::parse(&src(&text), None, &keys, &keys_src).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("beans[1].storeFileCount"), "{e}");
    assert!(
        e.problem
            .contains("region 0123456789abcdef0123456789abcdef"),
        "{e}"
    );
    assert_eq!(e.line, Some(1));
    assert!(e.column.is_some_and(|c| c > 1), "{e}");
}
