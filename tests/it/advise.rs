//! `hbase-emu advise`: the classic pre-split results (even regions for hashed and partition
//! keys), SPLITS_FILE round trips, and errors on bad input.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use hbase_emu::keynotation::to_bytes_binary;
use hbase_emu::presplit::{read_splits_file, render_splits_file};

fn bin() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin!("hbase-emu"))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// 2 M rows on 5 servers, one initial region, splits disabled.
fn scenario(generator: &str) -> String {
    format!(
        r#"name = "advise test"
seed = 42
[cluster]
regionservers = 5
[table]
name = "t1"
split_policy = "DisabledRegionSplitPolicy"
[workload]
rows = 2_000_000
first_id = 1
scale = 1
row = {{ columns = 1, qualifier = "1B", value = "100B" }}
{generator}
"#
    )
}

const HASHED: &str = "[[generator]]\nname = \"hashed\"\nkind = \"hashed\"\n";
const PARTITION: &str =
    "[[generator]]\nname = \"partition\"\nkind = \"partition\"\npartitions = 20\n";

fn run_ok(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The advised column of the "rows per region" line, as a fraction.
fn advised_spread(text: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.contains("rows per region, max off mean"))
        .unwrap_or_else(|| panic!("no rows-per-region line in:\n{text}"));
    let last = line.rsplit('±').next().unwrap();
    let num: String = last
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    num.parse::<f64>().unwrap() / 100.0
}

/// Keys of the shell's SPLITS => ['..', ..] list, decoded as the shell does.
fn shell_keys(create: &str) -> Vec<Vec<u8>> {
    let list = create.split("SPLITS => [").nth(1).unwrap();
    let list = list.trim_end().trim_end_matches(']');
    list.split("', '")
        .map(|k| to_bytes_binary(k.trim_matches('\'')))
        .collect()
}

#[test]
fn hashed_keys_give_even_regions() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", &scenario(HASHED));
    let out = dir.path().join("out");
    let text = run_ok(&[
        "advise",
        p.to_str().unwrap(),
        "--regions",
        "10",
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert!(text.contains("Split keys (9, 10 regions)"), "{text}");
    let spread = advised_spread(&text);
    assert!(spread <= 0.02, "rows per region off by {spread}:\n{text}");
    // The scenario's own layout (one region) stays one region: the advice is the difference.
    assert!(text.contains("1 → 1"), "{text}");

    // splits.txt reads back (as HBase's SPLITS_FILE and our presplit file) to the same keys,
    // and the shell statement carries the same bytes.
    let splits = out.join("splits.txt");
    let keys = read_splits_file(&splits).unwrap();
    assert_eq!(keys.len(), 9);
    assert_eq!(
        render_splits_file(&keys),
        std::fs::read_to_string(&splits).unwrap()
    );
    let create = std::fs::read_to_string(out.join("create.hbase")).unwrap();
    assert!(create.starts_with("create 't1', {NAME => '"), "{create}");
    assert_eq!(shell_keys(&create), keys);

    // A scenario pre-split from that file opens exactly those 10 regions.
    let with_file = scenario(HASHED).replace(
        "split_policy = \"DisabledRegionSplitPolicy\"",
        "split_policy = \"DisabledRegionSplitPolicy\"\n[table.presplit]\nalgorithm = \"file\"\nfile = \"out/splits.txt\"",
    );
    let p2 = write(dir.path(), "s2.toml", &with_file);
    let plan = run_ok(&["check", p2.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&plan).unwrap();
    let text_plan = v.to_string();
    assert!(
        text_plan.contains("9 explicit") || text_plan.contains("SPLITS_FILE"),
        "{plan}"
    );
}

#[test]
fn partition_keys_align_to_the_classic_split() {
    let dir = tempfile::tempdir().unwrap();
    let text = scenario(PARTITION).replace(
        "split_policy = \"DisabledRegionSplitPolicy\"",
        "split_policy = \"DisabledRegionSplitPolicy\"\n[table.presplit]\nalgorithm = \"partition\"\nregions = 20",
    );
    let p = write(dir.path(), "s.toml", &text);
    let out = dir.path().join("out");
    let report = run_ok(&[
        "advise",
        p.to_str().unwrap(),
        "--regions",
        "20",
        "--align",
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    // Aligned to the 8-byte partition prefix: exactly the classic keys 1..19.
    let keys = read_splits_file(&out.join("splits.txt")).unwrap();
    let classic: Vec<Vec<u8>> = (1u64..20).map(|i| i.to_be_bytes().to_vec()).collect();
    assert_eq!(keys, classic);
    let spread = advised_spread(&report);
    assert!(spread <= 0.02, "rows per region off by {spread}:\n{report}");
    assert!(!report.contains("cut a partition prefix"), "{report}");

    // Unaligned, with a region count that does not divide the partitions: the cut is named.
    let report = run_ok(&[
        "advise",
        p.to_str().unwrap(),
        "--regions",
        "8",
        "--no-emulate",
    ]);
    assert!(report.contains("cut a partition prefix"), "{report}");
    assert!(report.contains("--align"), "{report}");
}

#[test]
fn region_count_rule_is_printed_and_key_file_works() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", &scenario(HASHED));
    let report = run_ok(&[
        "advise",
        p.to_str().unwrap(),
        "--no-emulate",
        "--samples",
        "10000",
    ]);
    // 2 M × 138 B ≈ 263 MiB: one region per server is enough.
    assert!(
        report.contains("N = c × servers = 1 × 5 = 5 regions"),
        "{report}"
    );
    assert!(report.contains("memstore starting point"), "{report}");
    // Keys from a file instead of the generator.
    let keys = run_ok(&["keys", "--scenario", p.to_str().unwrap(), "--count", "5000"]);
    let kf = write(dir.path(), "keys.txt", &keys);
    let report = run_ok(&[
        "advise",
        p.to_str().unwrap(),
        "--keys",
        kf.to_str().unwrap(),
        "--regions",
        "4",
        "--no-emulate",
    ]);
    assert!(report.contains("of the 5,000 keys in"), "{report}");
    assert!(report.contains("Split keys (3, 4 regions)"), "{report}");
}

fn fails(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn bad_inputs_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "s.toml", &scenario(HASHED));
    let ps = p.to_str().unwrap();
    let e = fails(&["advise", ps, "--generator", "nope"]);
    assert!(
        e.contains("no generator named") && e.contains("nope"),
        "{e}"
    );
    assert!(e.contains("hashed"), "{e}");
    let e = fails(&["advise", ps, "--regions", "0"]);
    assert!(e.contains("--regions") && e.contains("2..="), "{e}");
    let missing = dir.path().join("missing.txt");
    let e = fails(&["advise", ps, "--keys", missing.to_str().unwrap()]);
    assert!(
        e.contains("cannot read key file") && e.contains("missing.txt"),
        "{e}"
    );
    assert!(e.contains("toStringBinary"), "{e}");
    let empty = write(dir.path(), "empty.txt", "a\n\nb\n");
    let e = fails(&["advise", ps, "--keys", empty.to_str().unwrap()]);
    assert!(e.contains("empty line"), "{e}");
    let e = fails(&[
        "advise",
        ps,
        "--samples",
        "3",
        "--regions",
        "4",
        "--no-emulate",
    ]);
    assert!(e.contains("--samples"), "{e}");
}
