//! End-to-end tests of the `hbase-emu` binary: the commands work on the shipped scenarios, and bad
//! input gets exit code 2 and a message naming the file, line, column, field and problem.

use std::path::{Path, PathBuf};

use crate::common::{bin, root, write};
use predicates::prelude::*;

/// A valid scenario to mutate in the bad-input tests.
const BASE: &str = r#"name = "t"
seed = 7
[cluster]
regionservers = 3
[table]
name = "t1"
[table.presplit]
algorithm = "hex"
regions = 4
[workload]
rows = 1000
[[generator]]
name = "seq"
kind = "sequential"
"#;

/// Runs `check` on `text` and returns stderr, asserting exit code 2 and empty stdout.
fn check_fails(text: &str) -> (String, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", text);
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty());
    (String::from_utf8(out.stderr).unwrap(), p, dir)
}

/// Asserts the rendered error points at `line:col` of the file and names field and problem.
fn assert_names(stderr: &str, file: &Path, line_col: &str, field: &str, problem: &str) {
    let loc = format!("{}:{}", file.display(), line_col);
    assert!(
        stderr.contains(&loc),
        "expected location {loc} in:\n{stderr}"
    );
    assert!(
        stderr.contains(&format!("`{field}`")),
        "expected field `{field}` in:\n{stderr}"
    );
    assert!(
        stderr.contains(problem),
        "expected problem `{problem}` in:\n{stderr}"
    );
}

#[test]
fn base_scenario_checks() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", BASE);
    bin().arg("check").arg(&p).assert().success().stdout(
        predicate::str::contains("40000000").and(predicate::str::contains("regions per server")),
    );
}

#[test]
fn check_json_is_valid_json() {
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(root().join("scenarios/classic-partition-20-regions.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let regions = v["runs"][0]["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 20);
    assert_eq!(regions[0]["start"], "");
    assert_eq!(
        regions[1]["start"],
        "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01"
    );
    assert_eq!(regions[19]["end"], "");
}

#[test]
fn split_keys_hex_prints_splits_file() {
    bin()
        .args(["split-keys", "--algorithm", "hex", "--regions", "4"])
        .assert()
        .success()
        .stdout("40000000\n80000000\nc0000000\n");
}

#[test]
fn split_keys_shell_prints_create() {
    bin()
        .args([
            "split-keys",
            "--algorithm",
            "partition",
            "--regions",
            "3",
            "--shell",
            "t",
            "f",
        ])
        .assert()
        .success()
        .stdout(
            "create 't', 'f', SPLITS => ['\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01', \
             '\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02']\n",
        );
}

#[test]
fn split_keys_output_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("splits.txt");
    bin()
        .args([
            "split-keys",
            "--algorithm",
            "decimal",
            "--regions",
            "2",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read_to_string(out).unwrap(), "50000000\n");
}

#[test]
fn keys_prints_first_keys() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", BASE);
    bin()
        .args(["keys", "--count", "2", "--scenario"])
        .arg(&p)
        .assert()
        .success()
        .stdout(
            "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\n\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\n",
        );
}

#[test]
fn config_shows_defaults_and_origins() {
    let dir = tempfile::tempdir().unwrap();
    let site = write(
        dir.path(),
        "site.xml",
        "<configuration>\n<property>\n<name>hbase.hregion.max.filesize</name>\n<value>2147483648</value>\n</property>\n</configuration>\n",
    );
    let out = bin()
        .args(["config", "--config"])
        .arg(&site)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("hbase.hregion.max.filesize "))
        .expect(&text);
    assert!(
        line.contains("2147483648") && line.contains("site.xml:4"),
        "{line}"
    );
    let line = text
        .lines()
        .find(|l| l.contains("hbase.hregion.memstore.flush.size"))
        .expect(&text);
    assert!(
        line.contains("134217728") && line.contains("default"),
        "{line}"
    );
}

// ---- bad input: at least 20 cases, each naming the place and the problem ----

#[test]
fn bad_unknown_size_unit() {
    let (e, p, _d) =
        check_fails(&BASE.replace("regionservers = 3", "regionservers = 3\nheap = \"16XB\""));
    assert_names(&e, &p, "5:8", "cluster.heap", "unknown size unit `XB`");
}

#[test]
fn bad_negative_size() {
    let (e, p, _d) = check_fails(&BASE.replace("rows = 1000", "data = \"-4TB\""));
    assert_names(&e, &p, "11:8", "workload.data", "must not be negative");
}

#[test]
fn bad_zero_regions() {
    let (e, p, _d) = check_fails(&BASE.replace("regions = 4", "regions = 0"));
    assert_names(
        &e,
        &p,
        "9:11",
        "table.presplit.regions",
        "0 regions cannot be pre-split",
    );
}

#[test]
fn bad_one_region() {
    let (e, p, _d) = check_fails(&BASE.replace("regions = 4", "regions = 1"));
    assert_names(
        &e,
        &p,
        "9:11",
        "table.presplit.regions",
        "1 regions cannot be pre-split",
    );
}

#[test]
fn bad_duplicate_split_keys() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "algorithm = \"hex\"\nregions = 4",
        "algorithm = \"keys\"\nkeys = [\"a\", \"b\", \"a\"]",
    ));
    assert_names(
        &e,
        &p,
        "9:19",
        "table.presplit.keys",
        "duplicate split key `a`",
    );
}

#[test]
fn bad_empty_split_key() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "algorithm = \"hex\"\nregions = 4",
        "algorithm = \"keys\"\nkeys = [\"a\", \"\"]",
    ));
    assert_names(&e, &p, "9:14", "table.presplit.keys", "empty split key");
}

#[test]
fn bad_unknown_generator_kind() {
    let (e, p, _d) = check_fails(&BASE.replace("kind = \"sequential\"", "kind = \"sequentail\""));
    assert_names(
        &e,
        &p,
        "14:8",
        "generator.kind",
        "unknown variant `sequentail`",
    );
}

#[test]
fn bad_unknown_field() {
    let (e, p, _d) = check_fails(&BASE.replace("rows = 1000", "rows = 1000\nrowz = 5"));
    assert_names(&e, &p, "12:1", "workload.rowz", "unknown field `rowz`");
}

#[test]
fn bad_toml_syntax() {
    let (e, p, _d) = check_fails(&BASE.replace("rows = 1000", "rows = = 1000"));
    assert!(e.contains(&format!("{}:11:", p.display())), "{e}");
}

#[test]
fn bad_missing_scenario_file() {
    bin()
        .args(["check", "/nonexistent/dir/s.toml"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("/nonexistent/dir/s.toml")
                .and(predicate::str::contains("cannot read scenario file")),
        );
}

#[test]
fn bad_missing_site_file() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "regionservers = 3",
        "regionservers = 3\nhbase_site = [\"nope.xml\"]",
    ));
    assert_names(
        &e,
        &p,
        "5:15",
        "cluster.hbase_site",
        "cannot read hbase-site.xml file",
    );
}

#[test]
fn bad_zero_regionservers() {
    let (e, p, _d) = check_fails(&BASE.replace("regionservers = 3", "regionservers = 0"));
    assert_names(&e, &p, "4:17", "cluster.regionservers", "0 is out of range");
}

#[test]
fn bad_data_and_rows() {
    let (e, p, _d) = check_fails(&BASE.replace("rows = 1000", "rows = 1000\ndata = \"1GB\""));
    assert_names(&e, &p, "11:8", "workload.rows", "both `data` and `rows`");
}

#[test]
fn bad_no_generator() {
    let text = BASE.split("[[generator]]").next().unwrap();
    let (e, p, _d) = check_fails(text);
    assert_names(&e, &p, "1:1", "generator", "no [[generator]]");
}

#[test]
fn bad_duplicate_generator_name() {
    let (e, p, _d) = check_fails(&format!(
        "{BASE}[[generator]]\nname = \"seq\"\nkind = \"sequential\"\n"
    ));
    assert_names(
        &e,
        &p,
        "16:8",
        "generator.name",
        "used twice (first on line 13)",
    );
}

#[test]
fn bad_rate_without_per_second() {
    let (e, p, _d) = check_fails(&BASE.replace("rows = 1000", "rows = 1000\nrate = \"1GB\""));
    assert_names(&e, &p, "12:8", "workload.rate", "has no `/s`");
}

#[test]
fn bad_schema_version() {
    let (e, p, _d) = check_fails(&format!("schema_version = 9\n{BASE}"));
    assert_names(
        &e,
        &p,
        "1:18",
        "schema_version",
        "unsupported schema version 9",
    );
}

#[test]
fn bad_block_size() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "name = \"t1\"",
        "name = \"t1\"\nfamilies = [{ name = \"f\", block_size = \"100MB\" }]",
    ));
    assert_names(
        &e,
        &p,
        "7:40",
        "table.families.block_size",
        "outside HBase's range",
    );
}

#[test]
fn bad_compression_ratio() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "name = \"t1\"",
        "name = \"t1\"\nfamilies = [{ name = \"f\", compression_ratio = 0.0 }]",
    ));
    assert_names(
        &e,
        &p,
        "7:47",
        "table.families.compression_ratio",
        "not a compression ratio",
    );
}

#[test]
fn bad_value_too_large() {
    let (e, p, _d) =
        check_fails(&BASE.replace("rows = 1000", "rows = 1000\nrow = { value = \"11MB\" }"));
    assert_names(
        &e,
        &p,
        "12:17",
        "workload.row.value",
        "exceeds the cell limit",
    );
}

#[test]
fn bad_table_name() {
    let (e, p, _d) = check_fails(&BASE.replace("name = \"t1\"", "name = \"my table\""));
    assert_names(&e, &p, "6:8", "table.name", "not a valid HBase table name");
}

#[test]
fn bad_option_for_wrong_algorithm() {
    let (e, p, _d) = check_fails(&BASE.replace("regions = 4", "regions = 4\nsamples = 100"));
    assert_names(
        &e,
        &p,
        "10:11",
        "table.presplit.samples",
        "does not apply to algorithm \"hex\"",
    );
}

#[test]
fn bad_missing_splits_file() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "algorithm = \"hex\"\nregions = 4",
        "algorithm = \"file\"\nfile = \"splits.txt\"",
    ));
    assert_names(&e, &p, "9:8", "table.presplit.file", "does not exist");
}

#[test]
fn bad_unknown_generator_on_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", BASE);
    bin()
        .args(["keys", "--generator", "nope", "--scenario"])
        .arg(&p)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("no generator named `nope`")
                .and(predicate::str::contains("one of: seq")),
        );
}

#[test]
fn bad_split_keys_one_region() {
    bin()
        .args(["split-keys", "--algorithm", "hex", "--regions", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--regions"));
}

#[test]
fn bad_config_set_without_equals() {
    bin()
        .args(["config", "--set", "hbase.hregion.max.filesize"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`--set`").and(predicate::str::contains("not KEY=VALUE")));
}

#[test]
fn bad_usage_exits_2() {
    bin()
        .args(["split-keys", "--algorithm", "nope", "--regions", "3"])
        .assert()
        .code(2);
}

#[test]
fn several_errors_are_reported_together() {
    let (e, _p, _d) = check_fails(
        &BASE
            .replace("regionservers = 3", "regionservers = 0")
            .replace("rows = 1000", "rows = 0"),
    );
    assert!(e.contains("2 problems found"), "{e}");
}

#[test]
fn bad_malformed_site_xml() {
    let dir = tempfile::tempdir().unwrap();
    let xml = write(
        dir.path(),
        "site.xml",
        "<configuration>\n  <property>\n    <name>hbase.hregion.max.filesize</name>\n    <value>1</valu>\n  </property>\n</configuration>\n",
    );
    let p = write(
        dir.path(),
        "s.toml",
        &BASE.replace(
            "regionservers = 3",
            "regionservers = 3\nhbase_site = [\"site.xml\"]",
        ),
    );
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(e.contains(&format!("{}:4:", xml.display())), "{e}");
    assert!(e.contains("valu"), "{e}");
}

#[test]
fn bad_non_numeric_site_value() {
    let dir = tempfile::tempdir().unwrap();
    let xml = write(
        dir.path(),
        "site.xml",
        "<configuration>\n<property>\n<name>hbase.hregion.memstore.flush.size</name>\n<value>lots</value>\n</property>\n</configuration>\n",
    );
    let p = write(
        dir.path(),
        "s.toml",
        &BASE.replace(
            "regionservers = 3",
            "regionservers = 3\nhbase_site = [\"site.xml\"]",
        ),
    );
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(e.contains(&format!("{}:4:8", xml.display())), "{e}");
    assert!(e.contains("hbase.hregion.memstore.flush.size"), "{e}");
}

#[test]
fn bad_inline_hbase_value() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "[table]",
        "[hbase]\n\"hbase.hregion.max.filesize\" = \"huge\"\n[table]",
    ));
    assert!(e.contains(&format!("{}:6:32", p.display())), "{e}");
    assert!(e.contains("hbase.hregion.max.filesize"), "{e}");
}

#[test]
fn bad_unknown_split_policy() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "name = \"t1\"",
        "name = \"t1\"\nsplit_policy = \"SplitWheneverPolicy\"",
    ));
    assert!(e.contains(&p.display().to_string()), "{e}");
    assert!(e.contains("SplitWheneverPolicy"), "{e}");
    assert!(
        e.contains("SteppingSplitPolicy"),
        "the error lists the valid policies: {e}"
    );
}

#[test]
fn bad_template() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "kind = \"sequential\"",
        "kind = \"template\"\ntemplate = \"{md5(user):4}_{user\"\nfields = { user = { dist = \"uniform\", cardinality = 10 } }",
    ));
    assert!(e.contains(&format!("{}:15:", p.display())), "{e}");
    assert!(e.contains("generator.template"), "{e}");
}

#[test]
fn bad_key_too_long() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "kind = \"sequential\"",
        "kind = \"uniform\"\nlength = 40000",
    ));
    assert_names(&e, &p, "15:10", "generator.length", "40000");
    assert!(e.contains("32767"), "{e}");
}

#[test]
fn bad_option_for_generator_kind() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "kind = \"sequential\"",
        "kind = \"sequential\"\nbuckets = 4",
    ));
    assert_names(&e, &p, "15:11", "generator.buckets", "sequential");
}

#[test]
fn bad_sampled_low_cardinality() {
    let (e, p, _d) = check_fails(
        &BASE
            .replace("algorithm = \"hex\"\nregions = 4", "algorithm = \"sampled\"\nregions = 10")
            .replace(
                "kind = \"sequential\"",
                "kind = \"template\"\ntemplate = \"{u}\"\nfields = { u = { dist = \"uniform\", cardinality = 3 } }",
            ),
    );
    assert!(e.contains(&format!("{}:7:1", p.display())), "{e}");
    assert!(e.contains("table.presplit"), "{e}");
}

// ---- fixes from the new-user review ----

/// A one-server, one-row scenario (singular wording).
const ONE: &str = r#"name = "one"
[cluster]
regionservers = 1
[workload]
rows = 1
[[generator]]
name = "seq"
kind = "sequential"
"#;

#[test]
fn check_text_uses_singulars_and_sub_millisecond_ingest() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", ONE);
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1 RegionServer,"), "{text}");
    assert!(text.contains("1 row (ids"), "{text}");
    assert!(text.contains("under 1 ms of ingest"), "{text}");
    assert!(!text.contains("0 ms"), "{text}");
}

#[test]
fn broken_pipe_on_stdout_is_a_normal_end() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("hbase-emu"))
        .args([
            "split-keys",
            "--algorithm",
            "uniform",
            "--regions",
            "200000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `keys` streams its keys (one key in memory; `| head -1` no longer waits for 100 M keys and
/// 3.6 GB to be built): the first key comes through the pipe, and closing the pipe ends the
/// command normally.
#[test]
fn keys_stream_and_stop_when_the_pipe_closes() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let scenario = root().join("scenarios/4tb-10-nodes-2gb.toml");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("hbase-emu"))
        .args(["keys", "--scenario"])
        .arg(&scenario)
        .args(["--generator", "hashed", "--count", "100000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.ends_with("\\x00\n"), "{first}");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn output_into_a_missing_directory_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("nodir").join("x");
    bin()
        .args(["split-keys", "--algorithm", "hex", "--regions", "3", "-o"])
        .arg(&target)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("does not exist")
                .and(predicate::str::contains("nodir"))
                .and(predicate::str::contains("os error").not()),
        );
}

fn site_xml(dir: &Path, props: &[(&str, &str)]) -> PathBuf {
    let mut x = String::from("<configuration>\n");
    for (k, v) in props {
        x.push_str(&format!(
            "<property>\n<name>{k}</name>\n<value>{v}</value>\n</property>\n"
        ));
    }
    x.push_str("</configuration>\n");
    write(dir, "site.xml", &x)
}

#[test]
fn check_shows_settings_corrections_in_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    site_xml(
        dir.path(),
        &[("hbase.regionserver.global.memstore.size", "0.9")],
    );
    let p = write(
        dir.path(),
        "s.toml",
        &BASE.replace(
            "regionservers = 3",
            "regionservers = 3\nhbase_site = [\"site.xml\"]",
        ),
    );
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("warning: hbase.regionserver.global.memstore.size 0.9 is outside (0, 0.8]"),
        "{text}"
    );
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(&p)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let w = v["warnings"].as_array().unwrap();
    assert!(
        w.iter()
            .any(|w| w.as_str().unwrap().contains("HBase uses 0.4")),
        "{w:?}"
    );
}

#[test]
fn memstore_plus_block_cache_above_80_percent_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let xml = site_xml(
        dir.path(),
        &[
            ("hbase.regionserver.global.memstore.size", "0.5"),
            ("hfile.block.cache.size", "0.4"),
        ],
    );
    let p = write(
        dir.path(),
        "s.toml",
        &BASE.replace(
            "regionservers = 3",
            "regionservers = 3\nhbase_site = [\"site.xml\"]",
        ),
    );
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(
        e.contains("hbase.regionserver.global.memstore.size = 0.5"),
        "{e}"
    );
    assert!(e.contains("hfile.block.cache.size = 0.4"), "{e}");
    assert!(e.contains(&format!("{}:", xml.display())), "{e}");
    assert!(e.contains("refuses to start"), "{e}");
    // 0.4 + 0.4 is exactly the limit: accepted.
    bin()
        .args(["config", "--set", "hfile.block.cache.size=0.4"])
        .assert()
        .success();
    bin()
        .args(["config", "--set", "hfile.block.cache.size=0.41"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("command line"));
}

#[test]
fn config_type_checks_values_like_check() {
    for set in [
        "hbase.hregion.memstore.flush.size=banana",
        "hbase.regionserver.region.split.policy=Bogus",
        "hbase.hregion.memstore.flush.size=1000",
    ] {
        bin()
            .args(["config", "--set", set])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(set.split('=').next().unwrap()));
    }
    bin()
        .args(["config", "--set", "=5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`--set`").and(predicate::str::contains("empty key")));
    let dir = tempfile::tempdir().unwrap();
    let xml = site_xml(
        dir.path(),
        &[("hbase.hregion.memstore.flush.size", "banana")],
    );
    bin()
        .args(["config", "--config"])
        .arg(&xml)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("{}:4:", xml.display())));
    let p = write(dir.path(), "s.toml", BASE);
    bin()
        .args([
            "config",
            "--set",
            "hbase.hregion.memstore.flush.size=1000",
            "--scenario",
        ])
        .arg(&p)
        .assert()
        .code(2);
}

#[test]
fn check_json_settings_carry_raw_value_human_and_origin() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", BASE);
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(&p)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let settings = v["settings"].as_array().unwrap();
    let max = settings
        .iter()
        .find(|s| s["key"] == "hbase.hregion.max.filesize")
        .expect("key field");
    assert_eq!(max["value"], "10737418240");
    assert_eq!(max["human"], "10.00 GiB");
    assert_eq!(max["origin"], "default");
    let policy = settings
        .iter()
        .find(|s| s["key"] == "hbase.regionserver.region.split.policy")
        .unwrap();
    assert_eq!(
        policy["value"],
        "org.apache.hadoop.hbase.regionserver.SteppingSplitPolicy"
    );
    assert!(policy["human"].is_null());
    assert!(settings.iter().all(|s| s.get("name").is_none()));
}

#[test]
fn config_json_gives_derived_values_and_notes() {
    let out = bin().args(["config", "--format", "json"]).output().unwrap();
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let find = |k: &str| rows.iter().find(|r| r["key"] == k).unwrap().clone();
    let initial = find("hbase.increasing.policy.initial.size");
    assert_eq!(initial["value"], "268435456");
    assert_eq!(initial["derived"], true);
    assert!(
        initial["note"]
            .as_str()
            .unwrap()
            .contains("2 x memstore flush size")
    );
    let maxlogs = find("hbase.regionserver.maxlogs");
    assert_eq!(maxlogs["value"], "");
    assert_eq!(maxlogs["derived"], false);
    assert!(maxlogs["note"].as_str().unwrap().contains("max(32"));
    assert_eq!(find("hfile.block.cache.size")["value"], "0.4");
}

#[test]
fn fractional_counts_are_errors() {
    for rows in ["\"1.5\"", "1.5", "\"1.2345k\""] {
        let (e, p, _d) = check_fails(&BASE.replace("rows = 1000", &format!("rows = {rows}")));
        assert_names(&e, &p, "11:8", "workload.rows", "not a whole number");
    }
}

#[test]
fn data_smaller_than_one_row_is_an_error() {
    let (e, p, _d) =
        check_fails(&BASE.replace("rows = 1000", "data = \"1\"\nrow = { value = \"3KB\" }"));
    assert_names(
        &e,
        &p,
        "11:8",
        "workload.data",
        "less than one row's payload",
    );
    // Not a multiple of the row payload: whole rows, no error.
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "s.toml",
        &BASE.replace("rows = 1000", "data = \"7KB\"\nrow = { value = \"3KB\" }"),
    );
    bin()
        .arg("check")
        .arg(&p)
        .assert()
        .success()
        .stdout(predicate::str::contains("2 rows (ids 0..2)"));
}

#[test]
fn missing_tables_and_fields_are_named_by_dotted_path() {
    let (e, p, _d) = check_fails(&BASE.replace("[workload]\nrows = 1000\n", ""));
    assert_names(&e, &p, "1:1", "workload", "missing field `workload`");
    assert!(!e.contains("`name`"), "{e}");
    let (e, p, _d) = check_fails(&BASE.replace("[cluster]\nregionservers = 3\n", ""));
    assert_names(&e, &p, "1:1", "cluster", "missing field `cluster`");
    assert!(!e.contains("`schema_version`"), "{e}");
    let (e, p, _d) = check_fails(&BASE.replace("regionservers = 3", "heap = \"8GB\""));
    assert_names(&e, &p, "3:1", "cluster.regionservers", "missing field");
}

#[test]
fn type_errors_use_plain_words_and_huge_integers_are_out_of_range() {
    let (e, p, _d) = check_fails(&BASE.replace("regionservers = 3", "regionservers = \"3\""));
    assert_names(
        &e,
        &p,
        "4:17",
        "cluster.regionservers",
        "invalid type: string",
    );
    assert!(e.contains("expected an integer"), "{e}");
    assert!(!e.contains("i64"), "{e}");
    let (e, p, _d) = check_fails(&BASE.replace("rows = 1000", "rows = 18446744073709551615"));
    assert_names(
        &e,
        &p,
        "11:8",
        "workload.rows",
        "18446744073709551615 is out of range",
    );
    assert!(!e.contains("18446744073709552000"), "{e}");
}

#[test]
fn keys_refuse_ids_past_u64_max() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", BASE);
    for (start, count) in [
        ("18446744073709551615", "3"),
        ("18446744073709551610", "10"),
    ] {
        bin()
            .args(["keys", "--start", start, "--count", count, "--scenario"])
            .arg(&p)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("`--start`").and(predicate::str::contains("--count")));
    }
    bin()
        .args([
            "keys",
            "--start",
            "18446744073709551610",
            "--count",
            "5",
            "--scenario",
        ])
        .arg(&p)
        .assert()
        .success();
}

#[test]
fn key_file_rejects_a_cut_short_escape_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let keys = write(dir.path(), "keys.txt", "row1\nab\\x4\n");
    let p = write(
        dir.path(),
        "s.toml",
        &BASE.replace(
            "kind = \"sequential\"",
            "kind = \"file\"\npath = \"keys.txt\"",
        ),
    );
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(e.contains(&format!("{}:2:3", keys.display())), "{e}");
    assert!(e.contains("cut short"), "{e}");
}

#[test]
fn shell_create_validates_table_and_family() {
    for (table, family, field) in [
        ("", "f", "--shell TABLE"),
        ("it's", "f", "--shell TABLE"),
        ("t", "", "--shell FAMILY"),
        ("t", "f:x", "--shell FAMILY"),
        ("t", "a\nb", "--shell FAMILY"),
    ] {
        bin()
            .args([
                "split-keys",
                "--algorithm",
                "hex",
                "--regions",
                "3",
                "--shell",
                table,
                family,
            ])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!("`{field}`")));
    }
}

#[test]
fn sampled_split_keys_refuse_first_row_and_generators_dedupe() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", BASE);
    bin()
        .args([
            "split-keys",
            "--algorithm",
            "sampled",
            "--regions",
            "4",
            "--generator",
            "seq",
        ])
        .args(["--first-row", "00", "--scenario"])
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`--first-row`"));
    let out = bin()
        .args(["check", "--generator", "seq", "--generator", "seq"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("Run `seq`").count(), 1, "{text}");
    let out = bin()
        .args([
            "keys",
            "--count",
            "1",
            "--generator",
            "seq",
            "--generator",
            "seq",
            "--scenario",
        ])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 1);
}

#[test]
fn split_keys_blame_the_row_flags() {
    for (args, flag) in [
        (
            &[
                "--algorithm",
                "hex",
                "--first-row",
                "ff",
                "--last-row",
                "10",
            ][..],
            "`--last-row`",
        ),
        (
            &["--algorithm", "hex", "--first-row", "ffffffff"][..],
            "`--first-row`",
        ),
        (
            &["--algorithm", "partition", "--first-row", "1"][..],
            "`--first-row`",
        ),
        (
            &["--algorithm", "md5-legacy", "--last-row", "1"][..],
            "`--last-row`",
        ),
        (
            &[
                "--algorithm",
                "uniform",
                "--first-row",
                "b",
                "--last-row",
                "a",
            ][..],
            "`--last-row`",
        ),
    ] {
        bin()
            .args(["split-keys", "--regions", "3"])
            .args(args)
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains(flag).and(predicate::str::contains("--regions").not()),
            );
    }
}

#[test]
fn sampling_messages_say_limit_count_and_generator() {
    let sampled = |samples: &str| {
        BASE.replace(
            "algorithm = \"hex\"\nregions = 4",
            &format!("algorithm = \"sampled\"\nregions = 40{samples}"),
        )
    };
    let (e, p, _d) = check_fails(&sampled("\nsamples = 20_000_001"));
    assert_names(
        &e,
        &p,
        "10:11",
        "table.presplit.samples",
        "limit of 20,000,000",
    );
    assert!(!e.contains("cannot place"), "{e}");
    // 1,000 rows: every row is sampled, and the plan says so.
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", &sampled(""));
    bin()
        .arg("check")
        .arg(&p)
        .assert()
        .success()
        .stdout(predicate::str::contains("sampled: 1000 keys"));
    let (e, _p, _d) = check_fails(&sampled("").replace(
        "kind = \"sequential\"",
        "kind = \"template\"\ntemplate = \"{u}\"\nfields = { u = { dist = \"uniform\", cardinality = 3 } }",
    ));
    assert!(
        e.contains("generator `seq` has too few distinct keys"),
        "{e}"
    );
}

#[test]
fn uniform_presplit_takes_first_and_last_rows() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "s.toml",
        &BASE.replace(
            "algorithm = \"hex\"\nregions = 4",
            "algorithm = \"uniform\"\nregions = 2\nfirst_row = \"\\\\x10\"\nlast_row = \"\\\\x70\"",
        ),
    );
    bin()
        .arg("check")
        .arg(&p)
        .assert()
        .success()
        .stdout(predicate::str::contains("│ 2   @"));
    bin()
        .args(["split-keys", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("toStringBinary"));
}

#[test]
fn template_describe_is_for_people() {
    let (text, _p, _d) = {
        let dir = tempfile::tempdir().unwrap();
        let p = write(
            dir.path(),
            "s.toml",
            &BASE.replace(
                "kind = \"sequential\"",
                "kind = \"template\"\ntemplate = \"{user}_{id}\"\nfields = { user = { dist = \"zipfian\", cardinality = 1000000 } }",
            ),
        );
        let out = bin().arg("check").arg(&p).output().unwrap();
        (String::from_utf8(out.stdout).unwrap(), p, dir)
    };
    assert!(text.contains("user: zipfian over 1,000,000"), "{text}");
    assert!(!text.contains("Zipf {"), "{text}");
}

#[test]
fn table_attribute_sanity_errors_point_at_the_attribute() {
    let (e, p, _d) =
        check_fails(&BASE.replace("name = \"t1\"", "name = \"t1\"\nmax_filesize = \"1MB\""));
    assert_names(&e, &p, "7:16", "table.max_filesize", "too small");
    let (e, p, _d) = check_fails(&BASE.replace(
        "name = \"t1\"",
        "name = \"t1\"\nmemstore_flushsize = \"1KB\"",
    ));
    assert_names(&e, &p, "7:22", "table.memstore_flushsize", "too small");
}

#[test]
fn control_characters_in_names_are_refused() {
    let (e, p, _d) = check_fails(&BASE.replace("name = \"seq\"", "name = \"se\\u001b[31mq\""));
    assert_names(&e, &p, "13:8", "generator.name", "control characters");
    assert!(!e.contains('\u{1b}'), "the name is shown escaped: {e:?}");
    let (e, p, _d) = check_fails(&BASE.replace(
        "name = \"t1\"",
        "name = \"t1\"\nfamilies = [{ name = \"f\\nx\" }]",
    ));
    assert_names(&e, &p, "7:22", "table.families.name", "control character");
}

#[test]
fn unmodelled_keys_and_lower_case_escapes_are_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "s.toml",
        &BASE
            .replace(
                "[table]",
                "[hbase]\n\"hbase.rpc.timeout\" = \"60000\"\n\"hbase.zookeeper.quorum\" = \"zk1\"\n[table]",
            )
            .replace(
                "algorithm = \"hex\"\nregions = 4",
                "algorithm = \"keys\"\nkeys = [\"a\\\\xffb\", \"m\"]",
            ),
    );
    let out = bin().arg("check").arg(&p).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // check wraps long lines at 100 columns: continuation lines are indented four spaces.
    let joined = text.replace("\n    ", " ");
    let w = joined
        .lines()
        .filter(|l| l.contains("not modelled"))
        .collect::<Vec<_>>();
    assert_eq!(w.len(), 1, "{text}");
    assert!(
        w[0].contains("hbase.rpc.timeout, hbase.zookeeper.quorum"),
        "{text}"
    );
    assert!(
        text.contains("`\\xff`") && text.contains("`\\xFF`"),
        "{text}"
    );
    bin()
        .args(["config", "--set", "hbase.rpc.timeout=1"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("not modelled by hbase-emu")
                .and(predicate::str::contains("hbase.rpc.timeout")),
        );
}

// ---- [[event]] and [workload.reads] (BASE has 14 lines; an appended [[event]] starts on 15) ----

fn with_events(events: &str) -> String {
    format!("{BASE}{events}")
}

#[test]
fn check_passes_on_event_and_read_scenarios() {
    for f in ["node-failure", "scale-out", "normalizer", "read-hotspot"] {
        let out = bin()
            .arg("check")
            .arg(root().join(format!("scenarios/{f}.toml")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        match f {
            "node-failure" => assert!(text.contains("kill rs03"), "{text}"),
            "scale-out" => assert!(text.contains("add 5 RegionServers"), "{text}"),
            "read-hotspot" => assert!(text.contains("Reads     20000 gets/s"), "{text}"),
            _ => {}
        }
    }
}

#[test]
fn bad_event_two_triggers() {
    let (e, p, _d) = check_fails(&with_events(
        "[[event]]\nat = \"1h\"\nat_rows = 10\nkill = \"rs01\"\n",
    ));
    assert_names(
        &e,
        &p,
        "17:11",
        "event.at_rows",
        "two triggers, `at` and `at_rows`",
    );
}

#[test]
fn bad_event_no_action() {
    let (e, p, _d) = check_fails(&with_events("[[event]]\nat = \"1h\"\n"));
    assert_names(&e, &p, "15:1", "event", "the event has no action");
}

#[test]
fn bad_event_unknown_server() {
    let (e, p, _d) = check_fails(&with_events("[[event]]\nat = \"1h\"\nkill = \"rs07\"\n"));
    assert_names(
        &e,
        &p,
        "17:8",
        "event.kill",
        "there is no RegionServer `rs07`",
    );
}

#[test]
fn bad_event_kills_last_server() {
    let (e, p, _d) = check_fails(&with_events(
        "[[event]]\nat = \"1h\"\nkill = \"rs01\"\n\
         [[event]]\nat = \"2h\"\ndecommission = \"rs02\"\n\
         [[event]]\nat = \"3h\"\nkill = \"rs03\"\n",
    ));
    assert_names(
        &e,
        &p,
        "23:8",
        "event.kill",
        "would leave no live RegionServer",
    );
}

#[test]
fn bad_event_set_unknown_key() {
    let (e, p, _d) = check_fails(&with_events(
        "[[event]]\nat = \"1h\"\nset = { \"hbase.no.such.key\" = 1 }\n",
    ));
    assert_names(
        &e,
        &p,
        "17:9",
        "event.set.\"hbase.no.such.key\"",
        "is not a property hbase-emu models",
    );
}

#[test]
fn bad_event_set_bad_value() {
    let (e, p, _d) = check_fails(&with_events(
        "[[event]]\nat = \"1h\"\nset = { \"hbase.hregion.max.filesize\" = \"huge\" }\n",
    ));
    assert_names(
        &e,
        &p,
        "17:40",
        "event.set.\"hbase.hregion.max.filesize\"",
        "`huge` is not a byte count",
    );
}

#[test]
fn bad_event_fraction_out_of_range() {
    let (e, p, _d) = check_fails(&with_events(
        "[[event]]\nat_fraction = 1.5\nadd_servers = 1\n",
    ));
    assert_names(
        &e,
        &p,
        "16:15",
        "event.at_fraction",
        "strictly between 0 and 1",
    );
}

#[test]
fn bad_event_decreasing_times() {
    let (e, p, _d) = check_fails(&with_events(
        "[[event]]\nat = \"2h\"\nadd_servers = 1\n[[event]]\nat = \"1h\"\nadd_servers = 1\n",
    ));
    assert_names(
        &e,
        &p,
        "19:6",
        "event.at",
        "the time trigger on line 15 is later",
    );
}

#[test]
fn bad_event_rows_beyond_workload() {
    let (e, p, _d) = check_fails(&with_events(
        "[[event]]\nat_data = \"1GB\"\nadd_servers = 1\n",
    ));
    assert_names(
        &e,
        &p,
        "16:11",
        "event.at_data",
        "the event would never fire",
    );
}

#[test]
fn bad_event_unknown_field() {
    let (e, p, _d) = check_fails(&with_events("[[event]]\nat = \"1h\"\nrestart = \"rs01\"\n"));
    assert_names(&e, &p, "17:1", "event.restart", "unknown field `restart`");
}

#[test]
fn bad_reads_option_of_other_distribution() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "[[generator]]",
        "[workload.reads]\ngets_per_s = 100\nhot_fraction = 0.3\n[[generator]]",
    ));
    assert_names(
        &e,
        &p,
        "14:16",
        "workload.reads.hot_fraction",
        "`hot_fraction` does not apply to distribution \"zipfian\"",
    );
}

#[test]
fn bad_reads_never_read() {
    let (e, p, _d) = check_fails(&BASE.replace(
        "[[generator]]",
        "[workload.reads]\ndistribution = \"uniform\"\n[[generator]]",
    ));
    assert_names(&e, &p, "12:1", "workload.reads", "never reads");
}

#[test]
fn report_names_file_line_and_column_of_bad_json() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "run.json",
        "{\n  \"schema_version\": 1,\n  \"scenario\": 42\n}\n",
    );
    let out = bin().arg("report").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(e.contains("run.json:3:"), "{e}");
    assert!(e.contains("expected a JSON run report"), "{e}");
    let missing = bin()
        .arg("report")
        .arg(dir.path().join("nope.json"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nope.json"));
}

/// Runs the small scenario at scale 4 with `--format html --out OUT`; nothing on standard output.
fn run_small_html_out(out: &Path) {
    bin()
        .args(["run", "--scale", "4", "--threads", "1", "--format", "html"])
        .args(["--quiet", "--out"])
        .arg(out)
        .arg(root().join("tests/data/small.toml"))
        .assert()
        .success()
        .stdout("");
}

#[test]
fn run_html_and_csv_out_then_report_from_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run_small_html_out(&out);
    for f in [
        "report.html",
        "report.json",
        "report.txt",
        "regions.csv",
        "servers.csv",
        "splits.csv",
        "timeline.csv",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let again = dir.path().join("again");
    bin()
        .arg("report")
        .arg(out.join("report.json"))
        .arg("--out")
        .arg(&again)
        .assert()
        .success();
    let html = std::fs::read_to_string(again.join("report.html")).unwrap();
    assert!(html.contains("id=\"cmp-table\"") && html.contains("id=\"gen-1-region-sizes\""));
    bin()
        .arg("report")
        .arg(out.join("report.json"))
        .args(["--format", "text"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Comparison"));
}

/// `--format html --out DIR` also writes DIR/regions.html: a row for every region of regions.csv,
/// listed in the set's manifest like every other file, and linked from report.html; `report
/// --format html --out` writes it too.
#[test]
fn html_out_writes_regions_html_with_every_region_and_lists_it_in_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run_small_html_out(&out);
    let page = std::fs::read_to_string(out.join("regions.html")).expect("regions.html");
    let csv = std::fs::read_to_string(out.join("regions.csv")).unwrap();
    let regions = csv.lines().count() - 1;
    assert!(regions > 2, "{csv}");
    assert_eq!(page.matches("<tr><td>").count(), regions);
    let manifest = std::fs::read_to_string(out.join("manifest.txt")).unwrap();
    let listed = manifest
        .lines()
        .find(|l| l.ends_with(" regions.html"))
        .unwrap_or_else(|| panic!("regions.html not in {manifest}"));
    assert!(
        listed.contains(&format!(" {} regions.html", page.len())),
        "{listed}"
    );
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("href=\"regions.html#gen-0\""));

    let again = dir.path().join("again");
    bin()
        .arg("report")
        .arg(out.join("report.json"))
        .args(["--format", "html", "--out"])
        .arg(&again)
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(again.join("regions.html")).unwrap(),
        page
    );
    let manifest = std::fs::read_to_string(again.join("manifest.txt")).unwrap();
    assert!(manifest.contains(" regions.html\n"), "{manifest}");
}

#[test]
fn timings_are_a_json_key_only_when_asked_for() {
    let scenario = root().join("tests/data/small.toml");
    let run = |timings: bool| {
        let mut cmd = bin();
        cmd.args(["run", "--scale", "4", "--threads", "1", "--format", "json"])
            .arg(&scenario);
        if timings {
            cmd.arg("--timings");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    assert!(run(false).get("timings").is_none());
    let timed = run(true);
    let t = timed["timings"].as_array().unwrap();
    let names: Vec<&str> = t.iter().map(|x| x["generator"].as_str().unwrap()).collect();
    assert_eq!(names, ["sequential", "hashed"]);
    assert!(t.iter().all(|x| x["wall_seconds"].as_f64().unwrap() >= 0.0));
}

#[test]
fn quiet_is_accepted_and_no_progress_reaches_a_non_terminal_stderr() {
    let scenario = root().join("tests/data/small.toml");
    let run = |quiet: bool| {
        let mut cmd = bin();
        cmd.args(["run", "--scale", "4", "--threads", "2"])
            .arg(&scenario);
        if quiet {
            cmd.arg("--quiet");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        // stderr is a pipe here, not a terminal: no bars, with or without --quiet.
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
        out.stdout
    };
    assert_eq!(run(false), run(true));
}

/// Keys an hbase-site.xml sets that the emulator reads but does not model are listed once, on
/// `run` (standard error, before the work) and `check`; modelled keys are not.
#[test]
fn site_keys_read_but_not_modelled_are_listed_once() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "site.xml",
        "<configuration>\n\
         <property><name>hbase.hregion.memstore.flush.size</name><value>134217728</value></property>\n\
         <property><name>hbase.rpc.timeout</name><value>60000</value></property>\n\
         <property><name>zookeeper.session.timeout</name><value>30000</value></property>\n\
         </configuration>\n",
    );
    let p = write(
        dir.path(),
        "s.toml",
        &BASE.replace(
            "regionservers = 3",
            "regionservers = 3\nhbase_site = [\"site.xml\"]",
        ),
    );
    let out = bin()
        .arg("run")
        .arg(&p)
        .args(["--quiet", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let e = String::from_utf8(out.stderr).unwrap();
    let w: Vec<&str> = e.lines().filter(|l| l.contains("not modelled")).collect();
    assert_eq!(w.len(), 1, "{e}");
    assert!(
        w[0].contains("hbase.rpc.timeout, zookeeper.session.timeout") && e.contains("2 key(s)"),
        "{e}"
    );
    assert!(!w[0].contains("flush.size"), "{e}");
    let out = bin().arg("check").arg(&p).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.contains("not modelled")).count(),
        1,
        "{text}"
    );
}

/// `check` and `config` fit a 100-column terminal, and `--set` values are shown as HBase reads
/// them.
#[test]
fn check_and_config_fit_100_columns_with_normalised_values() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut outputs = Vec::new();
    for f in [
        "4tb-10-nodes-2gb.toml",
        "classic-hash-10-regions.toml",
        "node-failure.toml",
    ] {
        let out = bin()
            .arg("check")
            .arg(root.join("scenarios").join(f))
            .output()
            .unwrap();
        assert!(out.status.success(), "{f}");
        outputs.push(String::from_utf8(out.stdout).unwrap());
    }
    let out = bin()
        .args(["config", "--set", "hbase.hregion.max.filesize=2g"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let config = String::from_utf8(out.stdout).unwrap();
    assert!(
        config.contains("2147483648 (2.00 GiB); given as 2g"),
        "{config}"
    );
    outputs.push(config);
    for text in &outputs {
        for line in text.lines() {
            assert!(
                line.chars().count() <= 100,
                "wider than 100 columns: {line}"
            );
        }
    }
}
