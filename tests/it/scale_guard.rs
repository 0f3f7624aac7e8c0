//! The scale guard (`workload/scale.rs`): the automatic scale keeps at least 100 emulated rows
//! per flush and per region at the split size; a coarser `--scale` runs, warns on standard
//! error and records the warning in the JSON and text reports.

use crate::common::bin;

/// 1 MB flushes of ~1.1 KB rows: about 950 real rows per flush, so the guard is K = 9.
const SCENARIO: &str = r#"name = "guard"
seed = 5
[cluster]
regionservers = 2
[table]
memstore_flushsize = "1MB"
max_filesize = "64MB"
[workload]
rows = 100_000
row = { value = "1000B" }
[[generator]]
name = "seq"
kind = "sequential"
"#;

fn run(scale: Option<&str>, format: &str) -> (serde_json::Value, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("s.toml");
    std::fs::write(&p, SCENARIO).unwrap();
    let mut cmd = bin();
    cmd.args(["run", "--threads", "1", "--format", format]);
    if let Some(k) = scale {
        cmd.args(["--scale", k]);
    }
    let out = cmd.arg(&p).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let json = if format == "json" {
        serde_json::from_str(&stdout).unwrap()
    } else {
        serde_json::Value::Null
    };
    (json, stdout, String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_scale_coarser_than_the_guard_runs_with_a_warning() {
    // Within the guard: no warning; the report gives the guard.
    let (json, _, stderr) = run(None, "json");
    let r = &json["runs"][0];
    assert_eq!(r["scale"], 1);
    assert_eq!(r["scale_guard"], 9, "{}", r["scale_guard"]);
    assert!(r.get("scale_warning").is_none());
    assert!(!stderr.contains("coarser"), "{stderr}");
    let (json, _, _) = run(Some("9"), "json");
    assert!(json["runs"][0].get("scale_warning").is_none());

    // Coarser: the run completes, stderr and both reports say what is not trustworthy.
    let (json, _, stderr) = run(Some("50"), "json");
    let r = &json["runs"][0];
    assert_eq!(r["scale"], 50);
    let w = r["scale_warning"].as_str().expect("scale_warning recorded");
    assert!(
        w.contains("coarser than 9") && w.contains("region count"),
        "{w}"
    );
    assert!(
        stderr.contains("warning: generator seq: scale 50"),
        "{stderr}"
    );
    let (_, text, _) = run(Some("50"), "text");
    assert!(
        text.contains("warning: scale 50 is coarser than 9"),
        "{text}"
    );
}
