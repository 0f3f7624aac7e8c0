//! `hbase-emu import` and the scenario `[initial]` section: a run that starts from an existing
//! table's regions (docs/IMPORT.md).

use crate::common::{bin, root, run_ok, write};

fn example(name: &str) -> String {
    root()
        .join("scenarios/import")
        .join(name)
        .display()
        .to_string()
}

/// Mirrors list_regions.rb (hbase-shell): the shipped shell output imports as 8 regions on
/// 4 servers with their SIZE in MB.
#[test]
fn import_reads_the_shipped_list_regions_output() {
    // The listing is of `events` (its region names say so): asking for another table is an error.
    let out = bin()
        .args(["import", &example("list_regions.txt"), "--table", "other"])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("table `events`, not `other`"), "{err}");
    let out = run_ok(&["import", &example("list_regions.txt")]);
    assert!(
        out.contains("Imported table events: 8 regions on 4 servers, 53.00 GiB"),
        "{out}"
    );
    assert!(
        out.contains("rs4.example.com,16020,1732400000004  2  19.00 GiB"),
        "{out}"
    );
}

/// Mirrors MetricsRegionSourceImpl's per-region attributes: the shipped /jmx dumps (one per
/// RegionServer, concatenated) joined with the list_regions keys give the same regions, with
/// storeFileCount as the file count.
#[test]
fn import_joins_the_shipped_jmx_dump_with_its_keys() {
    let out = run_ok(&[
        "import",
        &example("regions.jmx.json"),
        "--keys",
        &example("list_regions.txt"),
    ]);
    assert!(
        out.contains(
            "Imported table default:events: 8 regions on 4 servers, 53.00 GiB in 23 store files"
        ),
        "{out}"
    );
    // Without keys the dump is refused, saying where keys come from.
    let e = bin()
        .args(["import", &example("regions.jmx.json")])
        .output()
        .unwrap();
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("companion file"));
}

#[test]
fn import_csv_round_trips_through_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("edited.csv");
    run_ok(&[
        "import",
        &example("list_regions.txt"),
        "--out",
        &out.display().to_string(),
    ]);
    let again = run_ok(&[
        "import",
        &out.display().to_string(),
        "--format",
        "csv",
        "--table",
        "events",
    ]);
    let first = run_ok(&["import", &example("list_regions.txt")]);
    // Same regions and totals; only list_regions' assumption warning differs.
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("warning"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&again), strip(&first));
    let csv = run_ok(&["import", &example("regions.csv")]);
    assert!(csv.contains("53.00 GiB in 23 store files"), "{csv}");
}

#[test]
fn import_errors_name_file_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "bad.csv",
        "start,end,server,store_bytes,store_files\n,m,rs1,1GB,2\nm,,rs2,lots,1\n",
    );
    let e = bin()
        .args(["import", &p.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(e.status.code(), Some(2));
    let err = String::from_utf8_lossy(&e.stderr);
    assert!(err.contains("bad.csv:3:"), "{err}");
    assert!(err.contains("store_bytes"), "{err}");
}

const SCENARIO: &str = r#"
name = "imported"
seed = 7
[cluster]
regionservers = 3
[table]
name = "t"
[initial]
file = "regions.csv"
[workload]
data = "2GB"
row = { columns = 1, value = "1KB" }
rate = "200MB/s"
[[generator]]
name = "hashed"
kind = "md5-prefix"
hex_chars = 8
"#;

/// Three regions; `4`..`8` holds 12 GiB, above the 10 GiB `hbase.hregion.max.filesize`.
const REGIONS: &str = "start,end,server,store_bytes,store_files\n\
,4,\"a,16020,1\",1GB,1\n\
4,8,\"b,16020,1\",12GB,1\n\
8,,\"c,16020,1\",2GB,2\n";

fn scenario_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "regions.csv", REGIONS);
    write(dir.path(), "s.toml", SCENARIO);
    dir
}

fn run_json(dir: &std::path::Path) -> serde_json::Value {
    let out = run_ok(&[
        "run",
        &dir.join("s.toml").display().to_string(),
        "--format",
        "json",
    ]);
    serde_json::from_str(&out).unwrap()
}

/// `IncreasingToUpperBoundRegionSplitPolicy.shouldSplit` (via `SteppingSplitPolicy`) sees the
/// imported files: the region already above max.filesize splits at its first flush, before any
/// region grown by the new load alone could.
#[test]
fn an_oversized_imported_region_splits_first() {
    let dir = scenario_dir();
    let v = run_json(dir.path());
    let run = &v["runs"][0];
    let first = &run["splits"][0];
    assert_eq!(first["parent_start"], "4", "{first}");
    assert!(first["parent_bytes"].as_u64().unwrap() > 10 << 30);
    assert_eq!(run["summary"]["regions_initial"], 3);
}

/// The report's start numbers add up: per-region starts sum to the total, which is the
/// imported total within the engine's file-size calibration (1 %); end totals match the
/// servers' sums.
#[test]
fn start_vs_end_numbers_add_up() {
    let dir = scenario_dir();
    let v = run_json(dir.path());
    let sv = &v["runs"][0]["start_vs_end"];
    let sum = |arr: &serde_json::Value, f: &str| {
        arr.as_array()
            .unwrap()
            .iter()
            .map(|x| x[f].as_u64().unwrap())
            .sum::<u64>()
    };
    let start = sv["store_bytes_start"].as_u64().unwrap();
    assert_eq!(sum(&sv["regions"], "store_bytes_start"), start);
    assert_eq!(sum(&sv["servers"], "store_bytes_start"), start);
    let imported: u64 = 15 << 30;
    assert!(
        start.abs_diff(imported) <= imported / 100,
        "{start} vs {imported}"
    );
    let end = sv["store_bytes_end"].as_u64().unwrap();
    assert_eq!(sum(&sv["regions"], "store_bytes_end"), end);
    assert_eq!(sum(&sv["servers"], "store_bytes_end"), end);
    assert!(end > start);
    assert_eq!(sv["regions_start"], 3);
    assert_eq!(
        sum(&sv["regions"], "regions_end"),
        sv["regions_end"].as_u64().unwrap()
    );
    // The imported placement: the servers sorted by name are rs01.. in order, each reported
    // with its imported name.
    assert_eq!(
        sv["servers"][1]["store_bytes_start"].as_u64().unwrap() >> 30,
        11
    );
    assert_eq!(sv["servers"][1]["server"], "rs02");
    assert_eq!(sv["servers"][1]["imported"], "b,16020,1");
}

#[test]
fn check_prints_the_imported_state() {
    let dir = scenario_dir();
    let out = run_ok(&["check", &dir.path().join("s.toml").display().to_string()]);
    assert!(
        out.contains("3 regions on 3 servers, 15.00 GiB in 4 store files"),
        "{out}"
    );
    assert!(out.contains("b,16020,1  1  12.00 GiB  1"), "{out}");
}

#[test]
fn initial_with_presplit_or_too_few_servers_is_an_error() {
    let dir = scenario_dir();
    let both = SCENARIO.replace(
        "[initial]",
        "[table.presplit]\nalgorithm = \"HexStringSplit\"\nregions = 4\n[initial]",
    );
    let p = write(dir.path(), "both.toml", &both);
    let e = bin()
        .args(["check", &p.display().to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&e.stderr);
    assert_eq!(e.status.code(), Some(2), "{err}");
    assert!(err.contains("table.presplit"), "{err}");
    let few = SCENARIO.replace("regionservers = 3", "regionservers = 2");
    let p = write(dir.path(), "few.toml", &few);
    let e = bin()
        .args(["check", &p.display().to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&e.stderr);
    assert!(err.contains("cluster.regionservers"), "{err}");
    // Rebalanced, the imported placement gives way to round-robin over 2 servers.
    let re = few.replace(
        "file = \"regions.csv\"",
        "file = \"regions.csv\"\nservers = \"rebalance\"",
    );
    let p = write(dir.path(), "re.toml", &re);
    run_ok(&["check", &p.display().to_string()]);
    // A bad row in the import is reported in the import file.
    write(dir.path(), "regions.csv", &REGIONS.replace("12GB", "12XB"));
    let e = bin()
        .args(["check", &dir.path().join("s.toml").display().to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&e.stderr);
    assert!(err.contains("regions.csv:3:"), "{err}");
}

#[test]
fn the_shipped_existing_table_scenario_runs() {
    let out = run_ok(&[
        "run",
        &root()
            .join("scenarios/existing-table.toml")
            .display()
            .to_string(),
    ]);
    assert!(
        out.contains("imported table, start → end: regions 8 →"),
        "{out}"
    );
}
