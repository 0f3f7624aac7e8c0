//! `hbase-emu sweep` and `merge` end to end on tests/data/sweep.toml (a 3 × 2 grid of tiny runs):
//! grid order, key application, determinism across threads and shards, merge checks, minimise.

use std::path::{Path, PathBuf};

use crate::common::{bin, run_ok};
use serde_json::Value;

const SCENARIO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sweep.toml");

/// Runs `sweep SCENARIO ARGS --out DIR --quiet`; returns standard output.
fn sweep(dir: &Path, args: &[&str]) -> String {
    let dir = dir.to_str().unwrap();
    let mut all = vec!["sweep", SCENARIO];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--quiet", "--out", dir]);
    run_ok(&all)
}

/// Runs `sweep` expecting an input error (exit 2); returns standard error.
fn sweep_fails(scenario: &Path, args: &[&str]) -> String {
    let out = bin()
        .arg("sweep")
        .arg(scenario)
        .args(args)
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr).unwrap()
}

fn json(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("sweep.json")).unwrap()).unwrap()
}

fn figure(v: &Value, point: usize, design: &str, name: &str) -> f64 {
    let p = &v["points"][point];
    let d = p["designs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["generator"] == design)
        .unwrap();
    d["figures"][name].as_f64().unwrap()
}

fn merge(dirs: &[PathBuf], out: &Path) -> std::process::Output {
    bin()
        .arg("merge")
        .args(dirs)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The `[sweep]` grid runs in its documented order (first key slowest) and every point's
/// values reach the run: a smaller MAX_FILESIZE under ConstantSizeRegionSplitPolicy (HBase's
/// `ConstantSizeRegionSplitPolicy.shouldSplit`) gives more regions.
#[test]
fn scenario_grid_runs_in_order_and_values_reach_the_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let text = sweep(tmp.path(), &["--threads", "2"]);
    let v = json(tmp.path());
    let order: Vec<String> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{}/{}", p["values"][0], p["values"][1]))
        .collect();
    assert_eq!(
        order,
        [
            "\"8MB\"/2",
            "\"8MB\"/4",
            "\"16MB\"/2",
            "\"16MB\"/4",
            "\"32MB\"/2",
            "\"32MB\"/4"
        ]
    );
    assert_eq!(v["keys"][0], "table.max_filesize");
    assert!(v.get("shard").is_none());
    let small = figure(&v, 0, "sequential", "summary.regions_final");
    let large = figure(&v, 4, "sequential", "summary.regions_final");
    assert!(small > large, "8MB: {small} regions, 32MB: {large}");
    // The table shows the default headline figures, a row per point and design.
    assert!(text.contains("max_server_write_share"), "{text}");
    assert_eq!(text.matches(" sequential ").count(), 6, "{text}");
    let csv = std::fs::read_to_string(tmp.path().join("sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 12);
    let html = std::fs::read_to_string(tmp.path().join("sweep.html")).unwrap();
    assert!(html.contains("id=\"heat-"), "two keys: heatmaps");
}

/// `--vary` replaces `[sweep]`: an hbase-site key (`hbase.regionserver.regionSplitLimit`,
/// read by HBase's `CompactSplit.shouldSplitRegion`) and a generator field both apply.
#[test]
fn vary_flags_set_site_keys_and_generator_fields() {
    let tmp = tempfile::tempdir().unwrap();
    sweep(
        tmp.path(),
        &[
            "--vary",
            "hbase.regionserver.regionSplitLimit=1,1000",
            "--vary",
            "generator.salted.buckets=2,8",
            "--generator",
            "salted",
        ],
    );
    let v = json(tmp.path());
    assert_eq!(v["points_total"], 4);
    assert_eq!(v["designs"], serde_json::json!(["salted"]));
    assert_eq!(figure(&v, 0, "salted", "summary.splits"), 0.0);
    assert!(figure(&v, 2, "salted", "summary.splits") > 0.0);
    let html = std::fs::read_to_string(tmp.path().join("sweep.html")).unwrap();
    assert!(html.contains("<h2>Heatmaps</h2>"));
}

/// The result does not depend on threads: sweep.json (and the CSV and HTML made from it) are
/// byte-identical at 1 and 2 threads (shards: the next test).
#[test]
fn sweep_is_byte_identical_at_any_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |name: &str| tmp.path().join(name);
    sweep(&dir("t1"), &["--threads", "1"]);
    sweep(&dir("t2"), &["--threads", "2"]);
    for f in SWEEP_FILES {
        assert!(read(&dir("t1"), f) == read(&dir("t2"), f), "{f}: threads");
    }
}

const SWEEP_FILES: [&str; 3] = ["sweep.json", "sweep.csv", "sweep.html"];

fn read(d: &Path, f: &str) -> Vec<u8> {
    std::fs::read(d.join(f)).unwrap_or_else(|e| panic!("{}: {e}", d.join(f).display()))
}

/// Runs the sweep `args` unsharded and at each shard count of `shards`, merges each set of
/// slices, and asserts the merged files are the unsharded sweep's bytes (`what` names the sweep).
fn assert_merges_are_unsharded(what: &str, args: &[&str], shards: &[usize]) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |name: &str| tmp.path().join(name);
    let run = |out: &Path, extra: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(extra);
        all.extend_from_slice(&["--threads", "2", "--quiet", "--out", out.to_str().unwrap()]);
        run_ok(&all)
    };
    run(&dir("whole"), &[]);
    let points = json(&dir("whole"))["points_total"].as_u64().unwrap() as usize;
    assert!(points > 1, "{what}: {points} points");
    for &n in shards {
        let slices: Vec<PathBuf> = (1..=n)
            .map(|i| {
                let d = dir(&format!("s{i}of{n}"));
                run(&d, &["--shard", &format!("{i}/{n}")]);
                let v = json(&d);
                assert_eq!(v["shard"]["count"], n, "{what}");
                // Slice i holds the points whose index % n == i - 1: none when i > points.
                let held = v["points"].as_array().unwrap().len();
                assert_eq!(held, (points + n - i) / n, "{what}: slice {i}/{n}");
                d
            })
            .collect();
        let merged = dir(&format!("merged{n}"));
        let out = merge(&slices, &merged);
        assert!(out.status.success(), "{what}, {n} shards: {out:?}");
        for f in SWEEP_FILES {
            assert!(
                read(&dir("whole"), f) == read(&merged, f),
                "{what}: {f} merged from {n} shards differs from the unsharded sweep"
            );
        }
    }
}

/// Issue 33 (docs/SWEEPS.md promises the same bytes; 6 of 12 shard sets once differed in a
/// figure's last digits): for every shipped sweep, `merge` of 2, 3 and points + 1 shards (the
/// last slice then holds no point) writes exactly the unsharded sweep's files. The shipped
/// sweeps: the `[sweep]` grid of every scenario carrying one (scenarios/, tests/data/), and the
/// documented headline grid (README "Sweeps", docs/SWEEPS.md: 4 region sizes × 4 server counts,
/// hashed), that one on 64 GB instead of 4 TB with 10,000 pre-split samples, at 20,000
/// emulated rows a run.
#[test]
fn merged_shards_are_the_unsharded_sweep_byte_for_byte_for_every_shipped_sweep() {
    let root = crate::common::root();
    let mut with_grid = Vec::new();
    for folder in ["scenarios", "tests/data"] {
        for e in std::fs::read_dir(root.join(folder)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml")
                && std::fs::read_to_string(&p).unwrap().contains("\n[sweep]")
            {
                with_grid.push(p);
            }
        }
    }
    with_grid.sort();
    assert!(
        with_grid
            .iter()
            .any(|p| p.ends_with("tests/data/sweep.toml")),
        "{with_grid:?}"
    );
    for p in &with_grid {
        let path = p.to_str().unwrap();
        let points = json_points(p);
        assert_merges_are_unsharded(path, &["sweep", path], &[2, 3, points + 1]);
    }
    let headline = root.join("scenarios/4tb-10-nodes-2gb.toml");
    let documented = [
        "sweep",
        headline.to_str().unwrap(),
        "--generator",
        "hashed",
        "--vary",
        "table.max_filesize=1GB,2GB,5GB,10GB",
        "--vary",
        "cluster.regionservers=5,10,20,40",
        // The merge does not depend on the data; at 4 TB (thousands of regions a run, at any
        // scale) the four sweeps take minutes, at 64 GB and 20,000 emulated rows a run about
        // two seconds.
        "--vary",
        "workload.data=64GB",
        "--vary",
        "table.presplit.samples=10000",
        "--scale",
        "3200",
    ];
    for doc in ["README.md", "docs/SWEEPS.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        assert!(
            text.contains(
                "--vary table.max_filesize=1GB,2GB,5GB,10GB --vary cluster.regionservers=5,10,20,40"
            ),
            "{doc} no longer shows the headline grid this test merges"
        );
    }
    assert_merges_are_unsharded("the headline grid", &documented, &[2, 3, 17]);
}

/// The points of a scenario's `[sweep]` grid (the product of its value lists' lengths).
fn json_points(scenario: &Path) -> usize {
    let s = hbase_emu::scenario::load(scenario).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !s.sweep.is_empty(),
        "{}: no [sweep] grid",
        scenario.display()
    );
    s.sweep.iter().map(|v| v.values.len()).product()
}

/// `merge` refuses slices of different sweeps, a point given twice and missing points.
#[test]
fn merge_refuses_mixed_sweeps_duplicates_and_gaps() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |name: &str| tmp.path().join(name);
    let small = ["--generator", "salted", "--vary", "servers=2,3"];
    sweep(&dir("a"), &[&small[..], &["--shard", "1/2"]].concat());
    sweep(&dir("b"), &[&small[..], &["--shard", "2/2"]].concat());
    sweep(
        &dir("c"),
        &[&small[..], &["--shard", "2/2", "--seed", "99"]].concat(),
    );
    let err = |dirs: &[&str]| {
        let out = merge(
            &dirs.iter().map(|d| dir(d)).collect::<Vec<_>>(),
            &dir("out"),
        );
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(err(&["a", "c"]).contains("differ in seed"));
    assert!(err(&["a", "a"]).contains("point 0 is in slice 1 and slice 2"));
    assert!(err(&["a"]).contains("1 point(s) missing: 1"));
    assert!(merge(&[dir("a"), dir("b")], &dir("out")).status.success());
    assert_eq!(json(&dir("out"))["points"].as_array().unwrap().len(), 2);
}

/// `--minimise` with `--subject-to` picks the best point and the runner-up, ties going to the
/// lower point; with no point left it names the constraint that excluded most.
#[test]
fn minimise_subject_to_picks_the_best_point() {
    let tmp = tempfile::tempdir().unwrap();
    let text = sweep(
        &tmp.path().join("a"),
        &[
            "--minimise",
            "splits",
            "--design",
            "sequential",
            "--subject-to",
            "regions_final >= 5",
        ],
    );
    assert!(
        text.contains("Best:      point 0 (table.max_filesize=8MB, cluster.regionservers=2), design sequential"),
        "{text}"
    );
    assert!(text.contains("Runner-up: point 1 ("), "{text}");
    let text = sweep(
        &tmp.path().join("b"),
        &[
            "--minimise",
            "splits",
            "--subject-to",
            "regions_final >= 4",
            "--subject-to",
            "regions_final > 100",
        ],
    );
    assert!(
        text.contains("No point satisfies the constraints (12 candidates)"),
        "{text}"
    );
    assert!(
        text.contains("Most excluding: `regions_final > 100` ruled out 12 of 12"),
        "{text}"
    );
}

/// Bad keys and values are input errors naming the point, the key and what was expected.
#[test]
fn bad_keys_and_values_are_named() {
    let scenario = Path::new(SCENARIO);
    let e = sweep_fails(scenario, &["--vary", "cluster.regionservers=2,0"]);
    assert!(e.contains("sweep point 1 (cluster.regionservers=0)"), "{e}");
    assert!(
        e.contains("`cluster.regionservers`") && e.contains("1..="),
        "{e}"
    );
    let e = sweep_fails(scenario, &["--vary", "hbase.no.such.key=1"]);
    assert!(
        e.contains("not an hbase-site.xml key hbase-emu models"),
        "{e}"
    );
    let e = sweep_fails(scenario, &["--vary", "hbase.hregion.max.filesize=1GB"]);
    assert!(e.contains("vary `table.max_filesize` instead"), "{e}");
    let e = sweep_fails(scenario, &["--vary", "servers"]);
    assert!(e.contains("--vary") && e.contains("KEY=V1,V2"), "{e}");
    let e = sweep_fails(scenario, &["--figures", "nope"]);
    assert!(e.contains("no figure `nope`"), "{e}");
    let e = sweep_fails(scenario, &["--shard", "3/2"]);
    assert!(e.contains("--shard"), "{e}");

    // In the file, the error points at the value the point took.
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(SCENARIO).unwrap().replace(
        "\"cluster.regionservers\" = [2, 4]",
        "\"cluster.regionservers\" = [2, -1]",
    );
    let path = tmp.path().join("bad.toml");
    std::fs::write(&path, &text).unwrap();
    let e = sweep_fails(&path, &[]);
    let line = text.lines().position(|l| l.starts_with("vary")).unwrap() + 1;
    let col = text.lines().nth(line - 1).unwrap().find("-1").unwrap() + 1;
    assert!(e.contains(&format!("bad.toml:{line}:{col}")), "{e}");
    assert!(e.contains("sweep point 1 ("), "{e}");
    let text = text.replace("vary = {", "vary = { \"bogus\" = [1],");
    std::fs::write(&path, &text).unwrap();
    let e = sweep_fails(&path, &[]);
    assert!(e.contains("unknown key `bogus`"), "{e}");
    // The section's shape is checked when the scenario is loaded, by every command.
    let text = text.replace("\"bogus\" = [1],", "\"servers\" = [2, 2],");
    std::fs::write(&path, &text).unwrap();
    let e = sweep_fails(&path, &[]);
    assert!(e.contains("the value is listed twice"), "{e}");
    let text = text.replace("\"servers\" = [2, 2],", "\"servers\" = [],");
    std::fs::write(&path, &text).unwrap();
    let e = sweep_fails(&path, &[]);
    assert!(e.contains("the key has no values"), "{e}");
}
