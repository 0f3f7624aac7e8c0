//! What-ifs from the command line: `run --set` and `check --set` override scenario fields and
//! modelled hbase-site keys as `sweep --vary` does, the reports name the overrides (and only
//! then), bad overrides are input errors, and README's `diff` example is a what-if that changes
//! the answer.

use std::path::Path;

use crate::common::{bin, root, run_ok};
use serde_json::Value;

const SCENARIO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sweep.toml");

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// Runs `ARGS` expecting an input error (exit 2, nothing on standard output); returns stderr.
fn fails(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// An override reaches the run (a smaller MAX_FILESIZE under ConstantSizeRegionSplitPolicy
/// gives more regions), the JSON report names it in `scenario.overrides`, and a run without
/// overrides has no such key at all (so existing reports keep their bytes).
#[test]
fn run_set_reaches_the_run_and_the_report_names_it() {
    let plain = json(&run_ok(&["run", SCENARIO, "--format", "json", "--quiet"]));
    let what_if = json(&run_ok(&[
        "run",
        SCENARIO,
        "--format",
        "json",
        "--quiet",
        "--set",
        "table.max_filesize=8MB",
        "--set",
        "servers=4",
    ]));
    assert!(plain["scenario"].get("overrides").is_none(), "{plain}");
    assert_eq!(
        what_if["scenario"]["overrides"],
        serde_json::json!({"table.max_filesize": "8MB", "servers": 4})
    );
    assert_eq!(plain["scenario"]["max_filesize"], 16 << 20);
    assert_eq!(what_if["scenario"]["max_filesize"], 8 << 20);
    assert_eq!(what_if["scenario"]["regionservers"], 4);
    let regions = |v: &Value| v["runs"][0]["summary"]["regions_final"].as_u64().unwrap();
    assert!(
        regions(&what_if) > regions(&plain),
        "{} vs {}",
        regions(&what_if),
        regions(&plain)
    );
}

/// The text report says near the top which overrides were applied; without, it says nothing.
#[test]
fn run_text_names_the_overrides_near_the_top() {
    let text = run_ok(&[
        "run",
        SCENARIO,
        "--quiet",
        "--generator",
        "salted",
        "--set",
        "generator.salted.buckets=8",
    ]);
    let head: Vec<&str> = text.lines().take(3).collect();
    assert!(
        head.iter()
            .any(|l| l.starts_with("Overrides --set generator.salted.buckets=8")),
        "{head:?}"
    );
    let plain = run_ok(&["run", SCENARIO, "--quiet", "--generator", "salted"]);
    assert!(!plain.contains("Overrides"), "{plain}");
}

/// Issue 32: the HTML page names the overrides at its top (it had none, so a what-if page passed
/// for the file as written); without overrides it says nothing of them.
#[test]
fn html_names_the_overrides_at_the_top() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let args = |o: &std::path::Path| {
        vec![
            "run".to_string(),
            SCENARIO.to_string(),
            "--quiet".into(),
            "--generator".into(),
            "salted".into(),
            "--format".into(),
            "html".into(),
            "--out".into(),
            o.display().to_string(),
        ]
    };
    let mut a = args(&out);
    a.extend(["--set".into(), "generator.salted.buckets=8".into()]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    run_ok(&a);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let at = html.find("id=\"overrides\"").expect("an overrides line");
    assert!(
        at < html.find("<table").unwrap_or(usize::MAX),
        "before the first table"
    );
    assert!(
        html.contains("<code>generator.salted.buckets</code> = <code>8</code>"),
        "{html}"
    );
    let plain = dir.path().join("p");
    let a = args(&plain);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    run_ok(&a);
    let html = std::fs::read_to_string(plain.join("report.html")).unwrap();
    assert!(!html.contains("id=\"overrides\""));
}

/// `check` shows the effective values with the overrides, says where each came from (the
/// command line for the overridden ones, the file's own lines for the others), and its JSON
/// names the overrides.
#[test]
fn check_shows_the_effective_values() {
    let out = run_ok(&[
        "check",
        SCENARIO,
        "--format",
        "json",
        "--set",
        "MAX_FILESIZE=64MB",
        "--set",
        "hbase.hstore.blockingStoreFiles=33",
    ]);
    let v = json(&out);
    let setting = |k: &str| {
        v["settings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["key"] == k)
            .unwrap_or_else(|| panic!("{k} in {v}"))
            .clone()
    };
    let size = setting("hbase.hregion.max.filesize");
    assert_eq!(size["value"], "67108864");
    assert_eq!(size["origin"], "command line (--set MAX_FILESIZE=64MB)");
    let files = setting("hbase.hstore.blockingStoreFiles");
    assert_eq!(files["value"], "33");
    assert_eq!(
        files["origin"],
        "command line (--set hbase.hstore.blockingStoreFiles=33)"
    );
    // Not overridden: the file's own line (17), not one of the rewritten copy.
    let flush = setting("hbase.hregion.memstore.flush.size");
    assert!(
        flush["origin"]
            .as_str()
            .unwrap()
            .ends_with("tests/data/sweep.toml:17)"),
        "{flush}"
    );
    assert_eq!(v["scenario"]["overrides"]["MAX_FILESIZE"], "64MB");
    let text = run_ok(&["check", SCENARIO, "--set", "servers=5"]);
    assert!(text.contains("Overrides --set servers=5"), "{text}");
    assert!(text.contains("Cluster   5 RegionServers"), "{text}");
    let plain = json(&run_ok(&["check", SCENARIO, "--format", "json"]));
    assert!(plain["scenario"].get("overrides").is_none(), "{plain}");
}

/// A wrong value, an unknown key or a malformed flag is an input error naming the key, the
/// value and what was expected; never a panic, never a run.
#[test]
fn bad_overrides_are_input_errors_naming_key_value_and_expectation() {
    for cmd in ["run", "check"] {
        let e = fails(&[cmd, SCENARIO, "--set", "cluster.regionservers=lots"]);
        assert!(e.contains("`cluster.regionservers`"), "{e}");
        assert!(e.contains("--set cluster.regionservers=lots"), "{e}");
        assert!(e.contains("expected an integer"), "{e}");

        let e = fails(&[cmd, SCENARIO, "--set", "table.max_filesize=huge"]);
        assert!(e.contains("--set table.max_filesize=huge"), "{e}");
        assert!(e.contains("expected a byte count"), "{e}");

        let e = fails(&[cmd, SCENARIO, "--set", "no.such.key=1"]);
        assert!(e.contains("`--set no.such.key`"), "{e}");
        assert!(e.contains("unknown key `no.such.key`"), "{e}");
        assert!(e.contains("expected a modelled hbase-site.xml key"), "{e}");

        let e = fails(&[cmd, SCENARIO, "--set", "table.bogus=1"]);
        assert!(e.contains("--set table.bogus=1"), "{e}");
        assert!(e.contains("unknown field `bogus`"), "{e}");

        let e = fails(&[cmd, SCENARIO, "--set", "servers"]);
        assert!(e.contains("`servers` has no `=`"), "{e}");
        assert!(e.contains("expected KEY=VALUE"), "{e}");

        let e = fails(&[cmd, SCENARIO, "--set", "servers=2,4"]);
        assert!(e.contains("--set takes one"), "{e}");

        let e = fails(&[
            cmd,
            SCENARIO,
            "--set",
            "servers=2",
            "--set",
            "cluster.regionservers=4",
        ]);
        assert!(e.contains("set the same field"), "{e}");

        // A site key under the scenario's table attribute would change nothing: refused.
        let e = fails(&[cmd, SCENARIO, "--set", "hbase.hregion.max.filesize=1GB"]);
        assert!(e.contains("vary `table.max_filesize` instead"), "{e}");
    }
}

/// `--seed` wins over a `--set seed=…`, as it wins over the file's seed.
#[test]
fn seed_flag_applies_after_the_overrides() {
    let v = json(&run_ok(&[
        "check", SCENARIO, "--format", "json", "--set", "seed=5",
    ]));
    assert_eq!(v["scenario"]["seed"], 5);
    let v = json(&run_ok(&[
        "check", SCENARIO, "--format", "json", "--set", "seed=5", "--seed", "9",
    ]));
    assert_eq!(v["scenario"]["seed"], 9);
}

/// The commands of README's "Comparing two reports" run as written (with this binary for
/// `cargo run --release --`, files in a temporary directory), and the diff they end with shows
/// a what-if that changed the answer.
#[test]
fn readme_diff_example_runs_and_changes_the_answer() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("## Comparing two reports")
        .nth(1)
        .expect("README has a `Comparing two reports` section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the section has a sh block");
    let tmp = tempfile::tempdir().unwrap();
    let mut written: Vec<String> = Vec::new();
    let mut last = String::new();
    let mut commands = 0;
    for line in block.lines() {
        let Some(rest) = line.strip_prefix("cargo run --release -- ") else {
            assert!(
                line.trim().is_empty() || line.starts_with('#'),
                "not a command: {line}"
            );
            continue;
        };
        let (args, target) = match rest.split_once(" > ") {
            Some((a, t)) => (a, Some(t.trim())),
            None => (rest, None),
        };
        let args: Vec<String> = args
            .split_whitespace()
            .map(|a| {
                if written.iter().any(|w| w == a) {
                    tmp.path().join(a).display().to_string()
                } else {
                    a.to_string()
                }
            })
            .collect();
        let out = bin().current_dir(root()).args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        if let Some(t) = target {
            std::fs::write(tmp.path().join(t), &stdout).unwrap();
            written.push(t.to_string());
        }
        last = stdout;
        commands += 1;
    }
    assert!(commands >= 3, "{block}");
    assert!(
        block.contains("--set "),
        "the example is a what-if: {block}"
    );
    assert!(!last.contains("no differences"), "{last}");
    assert!(last.contains("summary.sim_seconds"), "{last}");
    assert!(Path::new(&tmp.path().join("after.json")).exists());
}
