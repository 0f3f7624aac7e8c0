//! Cluster dynamics end to end: the binary runs scenarios with balancers, failures, new servers,
//! the normalizer and reads, and the JSON report is checked against what HBase operators see.

use std::path::{Path, PathBuf};

use crate::common::root;
use assert_cmd::Command;
use serde_json::Value;

fn run_json(scenario: &Path, extra: &[&str]) -> Value {
    let out = Command::cargo_bin("hbase-emu")
        .expect("binary")
        .arg("run")
        .arg(scenario)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

fn write_scenario(dir: &Path, body: &str) -> PathBuf {
    let p = dir.join("s.toml");
    std::fs::write(&p, body).expect("write scenario");
    p
}

/// Sequential keys into one region on 5 servers; small regions so that many splits happen,
/// and a one-minute balancer period so that the balancer runs several times.
fn sequential(balancer: &str) -> String {
    format!(
        "name = \"sequential, balancer {balancer}\"\nseed = 11\n\
         [cluster]\nregionservers = 5\nheap = \"8GB\"\n\
         [hbase]\n\"hbase.balancer.period\" = \"60000\"\n\"hbase.hfile.compaction.discharger.interval\" = \"10s\"\n\"hbase.master.loadbalancer.class\" = \"{balancer}\"\n\
         [table]\nmax_filesize = \"256MB\"\nmemstore_flushsize = \"32MB\"\n\
         [workload]\ndata = \"12GB\"\nrow = {{ value = \"1KB\" }}\nrate = \"50MB/s\"\n\
         [[generator]]\nname = \"sequential\"\nkind = \"sequential\"\n"
    )
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a u64: {v}"))
}

/// Regions per server at each timeline sample (sample i ends at (i + 1) × interval).
fn regions_over_time(run: &Value) -> Vec<Vec<u64>> {
    let tl = run["timeline"].as_array().expect("timeline");
    let mut by_time: Vec<(f64, Vec<u64>)> = Vec::new();
    for s in tl {
        let t = s["at_seconds"].as_f64().expect("time");
        if by_time.last().is_none_or(|(lt, _)| *lt != t) {
            by_time.push((t, Vec::new()));
        }
        by_time.last_mut().expect("pushed").1.push(u(&s["regions"]));
    }
    by_time.into_iter().map(|(_, v)| v).collect()
}

/// Real rows held by the final regions.
fn rows_held(run: &Value) -> u64 {
    run["regions"]
        .as_array()
        .expect("regions")
        .iter()
        .map(|r| u(&r["rows"]))
        .sum()
}

/// Kinds of the run's cluster events, in order.
fn event_kinds(run: &Value) -> Vec<&str> {
    run["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["kind"].as_str())
        .collect()
}

fn spread(counts: &[u64]) -> u64 {
    counts.iter().max().copied().unwrap_or(0) - counts.iter().min().copied().unwrap_or(0)
}

// Daughters open on the parent's server (AssignmentManagerUtil.createAssignProceduresForSplitDaughters),
// so sequential keys pile regions on one server; StochasticLoadBalancer (every hbase.balancer.period)
// spreads them, and the report says which rule moved them.
#[test]
fn sequential_daughters_pile_up_and_the_default_balancer_spreads_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = write_scenario(dir.path(), &sequential("StochasticLoadBalancer"));
    let v = run_json(&p, &[]);
    let run = &v["runs"][0];
    assert!(u(&run["summary"]["splits"]) >= 20, "many splits");
    let moves = run["moves"].as_array().expect("moves");
    assert!(!moves.is_empty(), "the balancer moved regions");
    // Until the first move every region sits on one server.
    let first_move = moves[0]["at_seconds"].as_f64().expect("time");
    let interval = run["timeline_interval_seconds"].as_f64().expect("interval");
    let before = (first_move / interval).floor() as usize;
    let over_time = regions_over_time(run);
    let piled = &over_time[before.saturating_sub(1)];
    assert_eq!(piled.iter().filter(|&&c| c > 0).count(), 1, "{piled:?}");
    assert!(piled.iter().sum::<u64>() >= 3, "{piled:?}");
    assert!(moves.iter().all(|m| {
        m["reason"]
            .as_str()
            .unwrap_or("")
            .contains("StochasticLoadBalancer")
    }));
    let bal = &run["balance"];
    assert!(u(&bal["balancer_moves"]) > 0);
    assert!(u(&bal["balancer_runs"]) > 0);
    // At the end every server hosts regions and no server holds most of them (daughters keep
    // piling on the hot server between balancer runs, so it still holds the most).
    assert!(bal["all_servers_hosting_seconds"].as_f64().is_some());
    let end = over_time.last().expect("samples");
    let total: u64 = end.iter().sum();
    assert!(end.iter().all(|&c| c > 0), "{end:?}");
    assert!(
        end.iter().max().copied().unwrap_or(0) * 2 < total,
        "no server holds half of the regions: {end:?}"
    );
    // Balancer runs shrink the spread: some sample after the first move has a smaller spread
    // than the one before it (the end itself may fall just before a run, at the worst spread).
    let spreads: Vec<u64> = over_time.iter().map(|c| spread(c)).collect();
    assert!(
        spreads[before.max(1)..].windows(2).any(|w| w[1] < w[0]),
        "the spread never shrank: {spreads:?}"
    );
}

// The same load with the balancer switched off (balance_switch false): every region stays where
// its parent was.
#[test]
fn with_the_balancer_off_sequential_daughters_stay_piled() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = write_scenario(dir.path(), &sequential("off"));
    let v = run_json(&p, &[]);
    let run = &v["runs"][0];
    assert!(run["moves"].as_array().expect("moves").is_empty());
    let servers = run["servers"].as_array().expect("servers");
    let hosting: Vec<&Value> = servers.iter().filter(|s| u(&s["regions"]) > 0).collect();
    assert_eq!(hosting.len(), 1, "all regions on one server");
    assert_eq!(
        u(&hosting[0]["regions"]),
        u(&run["summary"]["regions_final"])
    );
    assert_eq!(run["balance"]["balancer"], "off");
    assert!(run["balance"]["all_servers_hosting_seconds"].is_null());
}

// ServerCrashProcedure: one of 10 servers dies mid-load; its regions reopen elsewhere after
// detection + WAL replay, unflushed edits are replayed, and no row is lost.
#[test]
fn killing_one_of_ten_servers_loses_no_row() {
    let v = run_json(&root().join("scenarios/node-failure.toml"), &[]);
    let run = &v["runs"][0];
    let rows = rows_held(run);
    assert_eq!(rows, u(&run["summary"]["rows"]), "no row lost");
    let servers = run["servers"].as_array().expect("servers");
    let dead: Vec<&Value> = servers.iter().filter(|s| s["online"] == false).collect();
    assert_eq!(dead.len(), 1);
    assert_eq!(u(&dead[0]["regions"]), 0);
    let name = dead[0]["name"].as_str().expect("name");
    let recovered: Vec<&Value> = run["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|m| m["from"] == name && m["reason"].as_str().unwrap_or("").contains("died"))
        .collect();
    assert!(!recovered.is_empty());
    let targets: std::collections::BTreeSet<&str> =
        recovered.iter().filter_map(|m| m["to"].as_str()).collect();
    assert!(
        targets.len() > 1,
        "absorbed by several servers: {targets:?}"
    );
    assert!(!targets.contains(name));
    let kinds = event_kinds(run);
    assert!(
        kinds.contains(&"kill") && kinds.contains(&"recovered"),
        "{kinds:?}"
    );
}

// New servers start empty; the balancer's idle-server rule fills them, and the load ends
// balanced within the slop.
#[test]
fn servers_added_mid_load_end_balanced() {
    let v = run_json(&root().join("scenarios/scale-out.toml"), &[]);
    let run = &v["runs"][0];
    let servers = run["servers"].as_array().expect("servers");
    assert_eq!(servers.len(), 10);
    let counts: Vec<u64> = servers.iter().map(|s| u(&s["regions"])).collect();
    let total: u64 = counts.iter().sum();
    let avg = total as f64 / 10.0;
    // BaseLoadBalancer's sloppy check with hbase.regions.slop = 0.2.
    let (floor, ceil) = ((avg * 0.8).floor() as u64, (avg * 1.2).ceil() as u64);
    assert!(
        counts.iter().all(|&c| c >= floor && c <= ceil),
        "{counts:?} within [{floor}, {ceil}]"
    );
    let joined = run["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["kind"] == "add_servers")
        .expect("add_servers event");
    let t = joined["at_seconds"].as_f64().expect("time");
    // Before the join 5 servers share the writes evenly (20 % each): measured against the 5
    // online then, that is no hotspot (against the 10 at the end it read as one).
    let h = &run["hotspots"];
    let online: Vec<u64> = h["online_servers"]
        .as_array()
        .expect("online_servers")
        .iter()
        .map(u)
        .collect();
    assert_eq!(online.first(), Some(&5), "{online:?}");
    assert_eq!(online.last(), Some(&10), "{online:?}");
    assert_eq!(h["time_over_twice_fair_share"].as_f64(), Some(0.0), "{h}");
    let mean = h["mean_hottest_share"].as_f64().expect("mean");
    assert!(mean < 0.2 + 1e-9, "busiest server averaged {mean}");
    assert!(
        run["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .any(|m| m["at_seconds"].as_f64().unwrap_or(0.0) > t),
        "regions moved to the new servers"
    );
}

// Normalizer: big regions are split and runs of tiny neighbours merged (SimpleRegionNormalizer).
#[test]
fn the_normalizer_splits_and_merges() {
    let v = run_json(&root().join("scenarios/normalizer.toml"), &[]);
    let run = &v["runs"][0];
    let merges = run["merges"].as_array().expect("merges");
    assert!(!merges.is_empty(), "tiny regions merged");
    assert!(
        run["splits"]
            .as_array()
            .expect("splits")
            .iter()
            .any(|s| s["reason"].as_str().unwrap_or("").starts_with("normalizer"))
    );
    let rows = rows_held(run);
    assert_eq!(rows, u(&run["summary"]["rows"]), "merges lose no row");
}

// Zipfian gets over sequentially written keys: reads are counted per region and server, and the
// key heatmap has a read layer.
#[test]
fn reads_show_per_server_and_in_the_heatmap() {
    let v = run_json(&root().join("scenarios/read-hotspot.toml"), &[]);
    let run = &v["runs"][0];
    let reads: u64 = run["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| u(&s["read_requests"]))
        .sum();
    assert!(reads > 0);
    let region_reads: u64 = run["regions"]
        .as_array()
        .expect("regions")
        .iter()
        .map(|r| u(&r["read_requests"]))
        .sum();
    assert!(
        region_reads <= reads,
        "moved/split regions took some reads with them"
    );
    let heat: u64 = run["key_heatmap"]["reads"]
        .as_array()
        .expect("reads layer")
        .iter()
        .flat_map(|row| row.as_array().expect("row").iter().map(u))
        .sum();
    assert_eq!(heat, reads, "every read lands in a key bucket");
}

// Same scenario + seed ⇒ byte-identical report whatever the thread count, with events, the
// balancer, the normalizer and reads all on.
#[test]
fn every_feature_on_is_deterministic_across_thread_counts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let body = "name = \"everything\"\nseed = 3\n\
        [cluster]\nregionservers = 4\nheap = \"8GB\"\n\
        [hbase]\n\"hbase.balancer.period\" = \"30000\"\n\"hbase.normalizer.period\" = \"30000\"\n\
        \"hbase.normalizer.merge.min_region_age.days\" = \"0\"\n\
        [table]\nmax_filesize = \"256MB\"\nmemstore_flushsize = \"32MB\"\nnormalization_enabled = true\n\
        [table.presplit]\nalgorithm = \"hex\"\nregions = 8\n\
        [workload]\ndata = \"6GB\"\nrow = { value = \"1KB\" }\nrate = \"40MB/s\"\n\
        [workload.reads]\ngets_per_s = 2000\nscans_per_s = 20\ndistribution = \"latest\"\n\
        [[generator]]\nname = \"hashed\"\nkind = \"md5-prefix\"\nhex_chars = 8\n\
        [[generator]]\nname = \"sequential\"\nkind = \"sequential\"\n\
        [[event]]\nat_fraction = 0.3\nadd_servers = 2\n\
        [[event]]\nat_fraction = 0.5\nkill = \"rs02\"\n\
        [[event]]\nat_fraction = 0.6\nset = { \"hbase.hregion.max.filesize\" = \"512MB\" }\n\
        [[event]]\nat_fraction = 0.7\ndecommission = \"rs03\"\n\
        [[event]]\nat_fraction = 0.8\nphase = { rate = \"20MB/s\", gets_per_s = 500 }\n";
    let p = write_scenario(dir.path(), body);
    let out = |threads: &str| {
        Command::cargo_bin("hbase-emu")
            .expect("binary")
            .arg("run")
            .arg(&p)
            .args(["--format", "json", "--threads", threads])
            .output()
            .expect("runs")
    };
    let a = out("1");
    let b = out("3");
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(a.stdout == b.stdout, "1 and 3 threads differ");
    let v: Value = serde_json::from_slice(&a.stdout).expect("JSON");
    for run in v["runs"].as_array().expect("runs") {
        let kinds = event_kinds(run);
        for k in ["add_servers", "kill", "set", "decommission", "phase"] {
            assert!(kinds.contains(&k), "{k} in {kinds:?}");
        }
        let rows = rows_held(run);
        assert_eq!(rows, u(&run["summary"]["rows"]));
    }
}

// `--explain` prints the life of a region back through its parents, with the rule behind each
// step; a bad target is an input error naming the option.
#[test]
fn explain_traces_a_region_through_its_splits() {
    let scenario = root().join("tests/data/small.toml");
    let out = Command::cargo_bin("hbase-emu")
        .expect("binary")
        .arg("run")
        .arg(&scenario)
        .args(["--generator", "sequential", "--explain", "#4"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let life = &text[text.find("life of region #4").expect("explain section")..];
    assert!(life.contains("opened on rs"), "{life}");
    assert!(life.contains("flushed"), "{life}");
    assert!(life.contains("split requested at"), "{life}");
    assert!(
        life.contains("SteppingSplitPolicy"),
        "the split policy's numbers: {life}"
    );
    assert!(life.contains("as the upper daughter of a split"), "{life}");
    let bad = Command::cargo_bin("hbase-emu")
        .expect("binary")
        .arg("run")
        .arg(&scenario)
        .args(["--explain", "#0"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--explain") && err.contains("#N"), "{err}");
}

/// Sequential keys leave regions behind that no longer receive writes. Their size follows from
/// HBase's split point, the midkey of the largest store file (`StoreUtils.getSplitPoint`), and
/// from how long a daughter must wait before it may split again:
/// * at a low write rate, the region splits once its store reaches the split size, while its
///   largest file (the last compaction's output) holds about 70 % of it. The lower
///   daughter keeps half of that file, about a third of the split size;
/// * at one saturated region a daughter must first compact its Reference away
///   (`HStore.canSplit`). That compaction takes `hbase.hstore.compaction.max` files, the
///   reference half plus the flushes that landed, and runs in the large pool while the newer
///   flushes are compacted beside it in the small pool (`SortedCompactionPolicy`'s eligible
///   files): flushes are not held back, the region keeps taking writes, and it has outgrown the
///   split size when it may split again;
/// * and a compacted Reference still counts until the `CompactedHFilesDischarger` archives it
///   (`HStore.hasReferences`, HBASE-20940; every 2 minutes), so wherever a region fills faster
///   than that (1 GB at 10 MB/s) the discharger's wait decides.
///
/// The folklore "half-full" regions hold only in the first regime.
#[test]
fn sequential_quiet_region_size_depends_on_the_write_rate() {
    let quiet_share = |rate: &str, discharger: &str| {
        let dir = tempfile::tempdir().expect("tempdir");
        let body = format!(
            "name = \"sequential at {rate}\"\nseed = 5\n\
             [cluster]\nregionservers = 5\nheap = \"16GB\"\n\
             [hbase]\n\"hbase.hfile.compaction.discharger.interval\" = \"{discharger}\"\n\
             [table]\nmax_filesize = \"1GB\"\n\
             [workload]\ndata = \"60GB\"\nrow = {{ value = \"1KB\" }}\nrate = \"{rate}\"\n\
             [[generator]]\nname = \"sequential\"\nkind = \"sequential\"\n"
        );
        let p = write_scenario(dir.path(), &body);
        let v = run_json(&p, &[]);
        let z = &v["runs"][0]["region_sizes"];
        assert!(u(&z["quiet_regions"]) >= 5, "{z}");
        u(&z["quiet_p50"]) as f64 / u(&z["split_size"]) as f64
    };
    let slow = quiet_share("10MB/s", "1ms");
    let saturated = quiet_share("1GB/s", "1ms");
    let discharged = quiet_share("10MB/s", "2m");
    assert!(
        (0.25..0.5).contains(&slow),
        "10 MB/s, References archived at once: quiet median {slow:.2} of the split size"
    );
    assert!(
        saturated > 1.0,
        "1 GB/s, References archived at once: quiet median {saturated:.2}"
    );
    // At 10 MB/s a 1 GB region fills in under two minutes: the discharger's wait decides.
    assert!(
        discharged > 1.0,
        "10 MB/s, discharger every 2 minutes: quiet median {discharged:.2}"
    );
}

// A `set` event that raises hbase.hregion.max.filesize mid-load: every split carries the split
// size in force when it was requested, and the text report says which split size each figure
// uses (the table attribute MAX_FILESIZE would win over the site key, so none is set here).
#[test]
fn splits_carry_the_split_size_in_force_and_the_text_says_which() {
    let dir = tempfile::tempdir().expect("tempdir");
    let body = "name = \"set-size\"\nseed = 3\n\
        [hbase]\n\"hbase.hregion.max.filesize\" = \"256MB\"\n\
        \"hbase.hfile.compaction.discharger.interval\" = \"1s\"\n\
        [cluster]\nregionservers = 3\n\
        [table]\nmemstore_flushsize = \"64MB\"\n\
        [workload]\nrows = 3000000\nrow = { value = \"1KB\" }\n\
        [[generator]]\nname = \"seq\"\nkind = \"sequential\"\n\
        [[event]]\nat_fraction = 0.5\nset = { \"hbase.hregion.max.filesize\" = \"512MB\" }\n";
    let p = write_scenario(dir.path(), body);
    let run = |format: &str| {
        let o = Command::cargo_bin("hbase-emu")
            .expect("binary")
            .arg("run")
            .arg(&p)
            .args(["--format", format, "--threads", "1"])
            .output()
            .expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).expect("UTF-8")
    };
    let v: Value = serde_json::from_str(&run("json")).expect("JSON");
    let r = &v["runs"][0];
    let sizes: Vec<u64> = r["splits"]
        .as_array()
        .expect("splits")
        .iter()
        .map(|s| u(&s["split_size"]))
        .collect();
    assert!(sizes.first() == Some(&(256 << 20)), "{sizes:?}");
    assert!(sizes.last() == Some(&(512 << 20)), "{sizes:?}");
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
    assert_eq!(u(&r["region_sizes"]["split_size"]), 512 << 20);
    assert_eq!(u(&v["scenario"]["max_filesize"]), 256 << 20);
    let text = run("text");
    assert!(
        text.contains("max region size 256.00 MiB at the start"),
        "{text}"
    );
    assert!(
        text.contains("of the split size in force at the end 512.00 MiB"),
        "{text}"
    );
}
