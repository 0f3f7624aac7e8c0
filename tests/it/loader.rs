//! Loaders through the CLI: `check` shows each design's loader, `run` reports the clients and a
//! closed loop's latency, `--assumptions` varies the request time, and what several clients
//! cannot have is refused with the place and the field.

use crate::common::{bin, write};

/// One shared client, a job partitioned by salt bucket and closed-loop threads, 400 MB of
/// salted keys on 4 servers.
const LOADERS: &str = r#"name = "loaders"
seed = 5
[cluster]
regionservers = 4
[table]
max_filesize = "256MB"
[table.presplit]
algorithm = "sampled"
regions = 8
samples = 10000
[workload]
data = "400MB"
row = { value = "1KB" }
rate = "20MB/s"
[client]
request_time = "2ms"
[[generator]]
name = "shared"
kind = "salted"
buckets = 8
[[generator]]
name = "by-bucket"
kind = "salted"
buckets = 8
clients = 8
partition = "key_group"
[[generator]]
name = "closed"
kind = "salted"
buckets = 8
clients = 16
loop = "closed"
"#;

fn stdout(args: &[&str]) -> String {
    let out = bin().args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr_of_failure(args: &[&str]) -> String {
    let out = bin().args(args).output().expect("runs");
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn check_names_each_design_s_loader() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = write(dir.path(), "s.toml", LOADERS);
    let text = stdout(&["check", p.to_str().expect("utf-8")]);
    assert!(
        text.contains("loader       8 clients each writing its key groups, 4 writers each"),
        "{text}"
    );
    assert!(
        text.contains("16 closed-loop threads each taking the next row,"),
        "{text}"
    );
    assert!(text.contains("(request time 2.00 ms assumed)"), "{text}");
}

#[test]
fn run_reports_the_clients_and_the_closed_loop_s_latency() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = write(dir.path(), "s.toml", LOADERS);
    let json = stdout(&["run", p.to_str().expect("utf-8"), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let runs = v["runs"].as_array().expect("runs");
    assert!(
        runs[0].get("loader").is_none(),
        "the shared client has none"
    );
    let by_bucket = &runs[1]["loader"];
    assert_eq!(by_bucket["partition"], "key_group");
    let clients = by_bucket["per_client"].as_array().expect("clients");
    assert_eq!(clients.len(), 8);
    let rows: u64 = clients.iter().map(|c| c["rows"].as_u64().unwrap()).sum();
    assert_eq!(rows, runs[1]["summary"]["rows"].as_u64().unwrap());
    let closed = &runs[2]["loader"];
    assert_eq!(closed["closed_loop"], true);
    // 16 threads at 2 ms a request: at most 8,000 rows/s.
    let rps = closed["rows_per_second"].as_f64().unwrap();
    assert!(rps > 6000.0 && rps <= 8000.0, "{rps}");
    let p50 = closed["latency"]["p50_ms"].as_f64().unwrap();
    assert!((2.0..2.1).contains(&p50), "{p50}");
    let text = stdout(&["run", p.to_str().expect("utf-8")]);
    assert!(text.contains("16 closed-loop threads wrote"), "{text}");
    assert!(text.contains("⌀ the average client's"), "{text}");
    assert!(
        text.contains("a closed loop's time: its threads'"),
        "{text}"
    );
    assert!(text.contains("request latency over"), "{text}");
}

#[test]
fn the_request_time_is_an_assumption_the_profiles_vary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = write(dir.path(), "s.toml", LOADERS);
    let text = stdout(&[
        "run",
        p.to_str().expect("utf-8"),
        "--generator",
        "closed",
        "--assumptions",
        "low,high",
    ]);
    assert!(text.contains("closed-loop request 4.00 ms"), "{text}");
    assert!(text.contains("closed-loop request 1.00 ms"), "{text}");
}

#[test]
fn what_several_clients_cannot_have_is_refused_where_it_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Key groups of a layout without any.
    let bad = LOADERS.replace(
        "kind = \"salted\"\nbuckets = 8\nclients = 8",
        "kind = \"hashed\"\nclients = 8",
    );
    let p = write(dir.path(), "groups.toml", &bad);
    let e = stderr_of_failure(&["check", p.to_str().expect("utf-8")]);
    assert!(e.contains("generator.partition"), "{e}");
    assert!(e.contains("has no key groups"), "{e}");
    assert!(e.contains("groups.toml:"), "{e}");
    // A partition that writes out of input order, with reads.
    let reads = format!(
        "{}[workload.reads]\ngets_per_s = 10\n",
        LOADERS.replace(
            "[client]\n",
            "[client]\nclients = 2\npartition = \"key_range\"\n"
        )
    );
    let p = write(dir.path(), "reads.toml", &reads);
    let e = stderr_of_failure(&["run", p.to_str().expect("utf-8")]);
    assert!(e.contains("writes rows out of input order"), "{e}");
    // Unknown values name their field.
    let p = write(
        dir.path(),
        "loop.toml",
        &LOADERS.replace("loop = \"closed\"", "loop = \"half\""),
    );
    let e = stderr_of_failure(&["check", p.to_str().expect("utf-8")]);
    assert!(e.contains("generator.loop"), "{e}");
    assert!(e.contains("\"open\" or \"closed\""), "{e}");
    // A bulk-loaded design has no Put clients.
    let p = write(
        dir.path(),
        "bulk.toml",
        &LOADERS.replace(
            "clients = 16\nloop = \"closed\"",
            "load = \"bulk\"\nclients = 16",
        ),
    );
    let e = stderr_of_failure(&["run", p.to_str().expect("utf-8")]);
    assert!(
        e.contains("is loaded in bulk: it has no Put clients"),
        "{e}"
    );
}
