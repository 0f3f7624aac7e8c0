//! Issue 14's experiments: answers as ranges over assumption profiles (`run --assumptions`,
//! `[cluster] assumptions`) and `diff` of two saved reports.

use std::path::{Path, PathBuf};

use hbase_emu::experiment::assumptions;
use hbase_emu::report::ranges::ProfileJson;
use hbase_emu::report::run::Report;

use crate::common;
use crate::common::{bin, run_ok};

fn small() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/small.toml")
}

fn small_json(extra: &[&str]) -> String {
    let path = small();
    let mut args = vec!["run", path.to_str().unwrap(), "--quiet", "--format", "json"];
    args.extend_from_slice(extra);
    run_ok(&args)
}

fn parse(json: &str) -> Report {
    serde_json::from_str(json).unwrap()
}

/// The bracket holds the typical value; a figure the same under every profile gets none (the
/// initial region count comes from the pre-split alone); the typical runs are exactly the runs
/// without --assumptions, so readers of the older shape see the same report.
#[test]
fn ranges_bracket_typical_and_leave_steady_figures_alone() {
    let with = parse(&small_json(&[
        "--assumptions",
        "low,typical,high",
        "--threads",
        "2",
    ]));
    let plain = parse(&small_json(&["--threads", "2"]));
    assert_eq!(with.runs, plain.runs);
    assert_eq!(with.scenario, plain.scenario);
    let r = with.assumption_ranges.expect("ranges with --assumptions");
    let names: Vec<&str> = r.profiles.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["low", "typical", "high"]);
    assert_eq!(r.runs.len(), 2);
    for run in &r.runs {
        assert!(!run.ranges.is_empty(), "{}: nothing moved", run.generator);
        for f in &run.ranges {
            assert!(f.min <= f.typical && f.typical <= f.max, "{f:?}");
            assert!(f.min < f.max, "{f:?}");
            assert_eq!(f.values[1], f.typical);
        }
        assert!(run.same.contains(&"summary.regions_initial".to_string()));
        assert!(
            !run.ranges
                .iter()
                .any(|f| f.figure == "summary.regions_initial")
        );
    }
    let path = small();
    let text = run_ok(&[
        "run",
        path.to_str().unwrap(),
        "--quiet",
        "--assumptions",
        "low,typical,high",
    ]);
    assert!(text.contains("Across assumptions"), "{text}");
    // `ingest time  7.8 s [7.8 s … 12.9 s]`: typical, then the bracket.
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("ingest time") && l.contains('['))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(" … ") && line.ends_with(']'), "{line}");
}

/// Profiles run side by side like the designs do; the report does not depend on --threads.
#[test]
fn ranges_are_byte_identical_at_any_thread_count() {
    let one = small_json(&["--assumptions", "low,typical,high", "--threads", "1"]);
    let two = small_json(&["--assumptions", "low,typical,high", "--threads", "2"]);
    assert!(one == two, "reports differ between --threads 1 and 2");
}

/// Two designs whose order on ingest time flips under one profile: the ranking says so, and
/// a figure every profile agrees on gets no range.
#[test]
fn a_ranking_change_is_reported_on_a_constructed_case() {
    let typical = common::small_report();
    assert_eq!(typical.runs.len(), 2);
    let mut low = typical.clone();
    // Under "low", the first design becomes the faster one.
    let (a, b) = (
        typical.runs[0].summary.sim_seconds,
        typical.runs[1].summary.sim_seconds,
    );
    low.runs[0].summary.sim_seconds = a.min(b) / 2.0;
    low.runs[1].summary.sim_seconds = a.max(b) * 2.0;
    let profile = |name: &str| ProfileJson {
        name: name.to_string(),
        hardware: "ssd".to_string(),
        writers: 32,
        compaction_threads_small: 1,
        compaction_threads_large: 1,
        bulk_task_rate: 50_000_000,
        request_us: 0,
        variability: "none".to_string(),
    };
    let r = assumptions::ranges(vec![profile("typical"), profile("low")], &[&typical, &low]);
    let ingest = r
        .rankings
        .iter()
        .find(|k| k.figure == "summary.sim_seconds")
        .expect("ingest time varies");
    assert!(ingest.changes);
    // Only ingest time moved, and the figure measured against it (when the last split came,
    // as a fraction of the ingest).
    let moved = ["summary.sim_seconds", "derived.last_region_change"];
    assert!(
        r.rankings
            .iter()
            .all(|k| moved.contains(&k.figure.as_str())),
        "only ingest time moved"
    );
    for run in &r.runs {
        assert!((1..=2).contains(&run.ranges.len()));
        assert!(run.same.contains(&"summary.regions_final".to_string()));
    }
    let mut report = typical.clone();
    report.assumption_ranges = Some(r);
    let text = report.to_text_with(false);
    let (first, second) = (&typical.runs[0].generator, &typical.runs[1].generator);
    let (fast, slow) = if a <= b {
        (first, second)
    } else {
        (second, first)
    };
    let expected = format!(
        "  Ranking changes on ingest time (lowest first):\n    {fast} < {slow} under typical\n    \
         {first} < {second} under low\n"
    );
    assert!(text.contains(&expected), "{expected} in:\n{text}");
}

/// `[cluster] assumptions` in the scenario runs the profiles; a bad name is an input error
/// naming the field, line and column; so is a bad `--assumptions`.
#[test]
fn the_scenario_field_runs_profiles_and_bad_names_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(small()).unwrap().replace(
        "variability = \"none\"",
        "variability = \"none\"\nassumptions = [\"typical\", \"high\"]",
    );
    let p = dir.path().join("s.toml");
    std::fs::write(&p, &text).unwrap();
    let json = run_ok(&[
        "run",
        p.to_str().unwrap(),
        "--quiet",
        "--format",
        "json",
        "--generator",
        "hashed",
    ]);
    let r = parse(&json)
        .assumption_ranges
        .expect("the scenario asked for ranges");
    assert_eq!(r.profiles.len(), 2);
    assert!(r.rankings.is_empty(), "one design has no ranking");

    std::fs::write(&p, text.replace("\"high\"]", "\"medium\"]")).unwrap();
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cluster.assumptions"), "{err}");
    assert!(err.contains(&format!("{}:11:", p.display())), "{err}");
    assert!(err.contains("\"medium\""), "{err}");

    let out = bin()
        .args([
            "run",
            small().to_str().unwrap(),
            "--quiet",
            "--assumptions",
            "low,low",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--assumptions"));
}

fn save(dir: &Path, name: &str, json: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, json).unwrap();
    p
}

/// A report against itself: nothing changed, in text and JSON.
#[test]
fn diff_of_a_report_against_itself_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let a = save(dir.path(), "a.json", &common::small_report().to_json());
    let a = a.to_str().unwrap();
    let text = run_ok(&["diff", a, a]);
    assert_eq!(text, "Diff: no differences\n");
    let json: serde_json::Value =
        serde_json::from_str(&run_ok(&["diff", a, a, "--format", "json"])).unwrap();
    assert_eq!(json["summary"], "no differences");
    assert_eq!(json["scenario"], serde_json::json!([]));
    for d in json["designs"].as_array().unwrap() {
        assert_eq!(d["figures"], serde_json::json!([]), "{d}");
        assert!(d["regions"].is_null() && d["splits"].is_null());
    }
}

/// "What did raising max.filesize change?": the scenario field, the region count (fewer,
/// larger regions, as ConstantSizeRegionSplitPolicy/SteppingSplitPolicy split later) and the
/// splits show up.
#[test]
fn diff_of_two_max_filesizes_shows_the_region_count() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(small()).unwrap();
    let mut files = Vec::new();
    for (name, size) in [("a", "64MB"), ("b", "128MB")] {
        let s = save(
            dir.path(),
            &format!("{name}.toml"),
            &base.replace(
                "max_filesize = \"64MB\"",
                &format!("max_filesize = \"{size}\""),
            ),
        );
        let json = run_ok(&[
            "run",
            s.to_str().unwrap(),
            "--quiet",
            "--format",
            "json",
            "--generator",
            "hashed",
        ]);
        files.push(save(dir.path(), &format!("{name}.json"), &json));
    }
    let (a, b) = (files[0].to_str().unwrap(), files[1].to_str().unwrap());
    let old = parse(&std::fs::read_to_string(a).unwrap());
    let new = parse(&std::fs::read_to_string(b).unwrap());
    assert_ne!(old.runs[0].regions.len(), new.runs[0].regions.len());
    let json: serde_json::Value =
        serde_json::from_str(&run_ok(&["diff", a, b, "--format", "json"])).unwrap();
    let fields: Vec<&str> = json["scenario"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert!(fields.contains(&"max_filesize"), "{fields:?}");
    let d = &json["designs"][0];
    assert_eq!(d["regions"]["old"], old.runs[0].regions.len());
    assert_eq!(d["regions"]["new"], new.runs[0].regions.len());
    assert!(
        d["figures"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["figure"] == "summary.regions_final")
    );
    let text = run_ok(&["diff", a, b]);
    assert!(
        text.contains(&format!(
            "regions: {} → {}",
            old.runs[0].regions.len(),
            new.runs[0].regions.len()
        )),
        "{text}"
    );
    assert!(
        text.contains("max_filesize: 67108864 → 134217728"),
        "{text}"
    );
}

/// Designs only in one report are listed, not compared.
#[test]
fn diff_lists_designs_only_in_one_report() {
    let dir = tempfile::tempdir().unwrap();
    let full = common::small_report();
    let mut one = full.clone();
    one.runs.truncate(1);
    let a = save(dir.path(), "a.json", &full.to_json());
    let b = save(dir.path(), "b.json", &one.to_json());
    let text = run_ok(&["diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    let gone = &full.runs[1].generator;
    assert!(
        text.contains(&format!("Only in the old report: {gone}")),
        "{text}"
    );
}

/// A missing file and a file that is not a report exit 2 naming the file.
#[test]
fn diff_errors_name_the_file_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let good = save(dir.path(), "good.json", &common::small_report().to_json());
    let missing = dir.path().join("missing.json");
    let not_report = save(dir.path(), "scenario.toml", "name = \"x\"\n");
    let empty_object = save(dir.path(), "empty.json", "{}\n");
    for bad in [&missing, &not_report, &empty_object] {
        let out = bin()
            .args(["diff", good.to_str().unwrap(), bad.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", bad.display());
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(bad.to_str().unwrap()), "{err}");
    }
}

/// The HTML report shows the ranges too: a row per varying figure with every profile's value,
/// and the profiles as columns in the order asked for.
#[test]
fn html_shows_the_ranges_with_a_column_per_profile() {
    let html = {
        let path = small();
        run_ok(&[
            "run",
            path.to_str().unwrap(),
            "--quiet",
            "--format",
            "html",
            "--assumptions",
            "low,typical,high",
        ])
    };
    let table = html
        .split("<table id=\"ranges-table\">")
        .nth(1)
        .expect("a ranges table")
        .split("</table>")
        .next()
        .unwrap();
    let head = table.split("</thead>").next().unwrap();
    let (low, typical, high) = (
        head.find(">low<").expect("low column"),
        head.find(">typical<").expect("typical column"),
        head.find(">high<").expect("high column"),
    );
    assert!(low < typical && typical < high, "{head}");
    assert!(table.contains("ingest time"), "{table}");
    // Without --assumptions there is no such section.
    let plain = run_ok(&[
        "run",
        small().to_str().unwrap(),
        "--quiet",
        "--format",
        "html",
    ]);
    assert!(!plain.contains("ranges-table"));
}
