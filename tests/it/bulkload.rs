//! A design loaded in bulk through the CLI: `check` shows the job's assumptions, `run` reports
//! the job, the loader and the table it left, and what a bulk load cannot have is refused with
//! the place and the field.

use assert_cmd::Command;
use hbase_emu::diag::SourceText;
use hbase_emu::plan;
use hbase_emu::scenario;

/// Puts and bulk load of the same sequential keys, 2 GiB into 8 sampled regions on 4 servers.
const PUTS_VS_BULK: &str = r#"name = "puts vs bulk"
seed = 5
[cluster]
regionservers = 4
[hbase]
"hbase.hregion.max.filesize" = "256MB"
[table]
max_filesize = "256MB"
[table.presplit]
algorithm = "sampled"
regions = 8
samples = 10000
[workload]
data = "2GB"
row = { value = "1KB" }
rate = "10MB/s"
[[generator]]
name = "puts"
kind = "sequential"
[[generator]]
name = "bulk"
kind = "sequential"
load = "bulk"
presplit_regions = 16
"#;

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).expect("write the scenario");
    p
}

#[test]
fn check_shows_the_bulk_job_and_the_design_s_own_pre_split() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = write(&dir, "s.toml", PUTS_VS_BULK);
    let out = Command::cargo_bin("hbase-emu")
        .expect("binary")
        .args(["check", p.to_str().expect("utf-8")])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Bulk job  4 task(s) at once per node"),
        "{text}"
    );
    assert!(text.contains("(assumed)"), "{text}");
    assert!(
        text.contains("Loader    at most 32 HFiles per region and family"),
        "{text}"
    );
    assert!(text.contains("into 16 regions"), "{text}");
    assert!(
        text.contains("load         in bulk: 16 job tasks"),
        "{text}"
    );
}

#[test]
fn run_reports_the_bulk_load_and_the_puts_beside_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = write(&dir, "s.toml", PUTS_VS_BULK);
    let out = Command::cargo_bin("hbase-emu")
        .expect("binary")
        .args(["run", p.to_str().expect("utf-8"), "--format", "json"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let runs = v["runs"].as_array().expect("runs");
    assert!(runs[0].get("bulk_load").is_none(), "Puts have no bulk_load");
    let b = &runs[1]["bulk_load"];
    assert_eq!(b["tasks"], 16);
    assert!(b.get("refused").is_none(), "{b}");
    assert_eq!(b["rows_loaded"], runs[1]["summary"]["rows"]);
    // Sequential keys: one server takes every Put of a minute; the bulk load lands evenly.
    let share = |r: &serde_json::Value| {
        r["summary"]["max_server_write_share"]
            .as_f64()
            .expect("f64")
    };
    assert!(share(&runs[0]) > 0.9, "{}", share(&runs[0]));
    assert!(share(&runs[1]) < 0.3, "{}", share(&runs[1]));
    // The ingest of a bulk load is its job plus its loader.
    let job = b["job_seconds"].as_f64().expect("f64");
    let load = b["load_seconds"].as_f64().expect("f64");
    let ingest = runs[1]["summary"]["sim_seconds"].as_f64().expect("f64");
    assert!(
        (job + load - ingest).abs() < 0.01,
        "{job} + {load} vs {ingest}"
    );
}

fn plan_error(text: &str) -> String {
    let s =
        scenario::load_source(SourceText::from_string("b.toml", text)).map_err(|e| e.to_string());
    match s {
        Err(e) => e,
        Ok(s) => match plan::plan_run(&s, &s.generators[0]) {
            Err(e) => e.render(),
            Ok(_) => panic!("the scenario is accepted"),
        },
    }
}

fn bulk_with(extra_top: &str, extra_generator: &str) -> String {
    format!(
        "name = \"b\"\n[cluster]\nregionservers = 2\n{extra_top}\n[workload]\nrows = 1000\n\
         row = {{ value = \"100B\" }}\n[[generator]]\nname = \"g\"\nkind = \"sequential\"\n\
         {extra_generator}\n"
    )
}

#[test]
fn an_unknown_load_path_names_the_field_and_the_choices() {
    let e = plan_error(&bulk_with("", "load = \"bulkk\""));
    assert!(e.contains("generator.load"), "{e}");
    assert!(e.contains("b.toml:"), "{e}");
    assert!(e.contains("\"bulk\""), "{e}");
}

#[test]
fn a_bulk_load_with_reads_updates_or_row_events_is_refused() {
    for (top, what) in [
        ("[workload.reads]\ngets_per_s = 10.0\n", "[workload.reads]"),
        ("", "update_fraction"),
        ("[[event]]\nat_rows = 500\nkill = \"rs01\"\n", "at_rows"),
    ] {
        let text = if what == "update_fraction" {
            bulk_with("", "load = \"bulk\"").replace(
                "row = { value = \"100B\" }",
                "row = { value = \"100B\" }\nupdate_fraction = 0.1",
            )
        } else {
            // `[workload.reads]` and `[[event]]` go after the workload.
            bulk_with("", "load = \"bulk\"")
                .replace("[[generator]]", &format!("{top}[[generator]]"))
        };
        let e = plan_error(&text);
        assert!(e.contains("generator.load"), "{what}: {e}");
        assert!(e.contains("loaded in bulk"), "{what}: {e}");
        assert!(e.contains(what), "{what}: {e}");
    }
}

#[test]
fn presplit_regions_needs_a_counted_pre_split() {
    let e = plan_error(&bulk_with(
        "[table.presplit]\nalgorithm = \"keys\"\nkeys = [\"a\"]\n",
        "presplit_regions = 4",
    ));
    assert!(e.contains("generator.presplit_regions"), "{e}");
    assert!(e.contains("no region count"), "{e}");
    let e = plan_error(&bulk_with(
        "[table.presplit]\nalgorithm = \"sampled\"\nregions = 4\nsamples = 100\n",
        "presplit_regions = 200",
    ));
    assert!(e.contains("100 samples cannot place 200 regions"), "{e}");
    let e = plan_error(&bulk_with("", "presplit_regions = 1"));
    assert!(e.contains("generator.presplit_regions"), "{e}");
}

/// A job that would run for centuries is refused before the run, naming its rate: the clock
/// would otherwise tick through its chores until the loader starts.
#[test]
fn a_bulk_job_of_centuries_is_refused_before_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = bulk_with("[bulk_load]\ntask_rate = \"1B/s\"\n", "load = \"bulk\"")
        .replace("rows = 1000", "data = \"40GB\"");
    let p = write(&dir, "slow.toml", &text);
    let out = Command::cargo_bin("hbase-emu")
        .expect("binary")
        .args(["run", p.to_str().expect("utf-8")])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bulk_load.task_rate"), "{err}");
    assert!(err.contains("years of simulated time"), "{err}");
}
