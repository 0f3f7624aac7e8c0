//! RegionSplitter's two-key split and rolling split through the public API and the CLI
//! (`RegionSplitter.SplitAlgorithm.split(byte[], byte[])`, `firstRow()`/`lastRow()`,
//! `RegionSplitter.rollingSplit` / `getSplits`).

use std::path::Path;

use crate::common::bin;
use hbase_emu::config::SplitRestriction;
use hbase_emu::presplit::{
    Algorithm, RollingOutcome, Splitter, TableRegion, regions_from_split_keys, rolling_split_plan,
    split_keys,
};

/// Each region of a pre-split table split at `split(start, end)` gives the keys of the table
/// pre-split into twice as many regions (HexStringSplit's `split(2n)` interleaved), and the
/// plan names every region once.
#[test]
fn hex_string_split_rolling_split_doubles_a_presplit_table() {
    let hex = Splitter::new(Algorithm::Hex, None, None).unwrap();
    let keys = split_keys(Algorithm::Hex, 16).unwrap();
    let regions: Vec<TableRegion> = regions_from_split_keys(&keys)
        .into_iter()
        .enumerate()
        .map(|(i, (start, end))| TableRegion {
            start,
            end,
            server: format!("rs{:02}", i % 5 + 1),
        })
        .collect();
    let plan = rolling_split_plan(&hex, &regions, 5, 2, &SplitRestriction::None).unwrap();
    assert_eq!(plan.steps.len(), 16);
    assert!(
        plan.steps
            .iter()
            .all(|s| s.outcome == RollingOutcome::Issued)
    );
    let mut all: Vec<Vec<u8>> = keys.clone();
    all.extend(plan.steps.iter().map(|s| s.split.clone()));
    all.sort();
    assert_eq!(all, split_keys(Algorithm::Hex, 32).unwrap());
    // Rounds: 16 regions on 5 servers (4, 3, 3, 3, 3) ⇒ 4 rounds; in each, one split per server.
    assert_eq!(plan.steps.last().unwrap().round, 4);
    for round in 1..=3 {
        let servers: Vec<&str> = plan
            .steps
            .iter()
            .filter(|s| s.round == round)
            .map(|s| s.server.as_str())
            .collect();
        assert_eq!(servers.len(), 5, "round {round}");
    }
    // Round 1 goes least loaded first: rs01 (4 regions) comes last.
    let first: Vec<&str> = plan.steps[..5].iter().map(|s| s.server.as_str()).collect();
    assert_eq!(first, ["rs02", "rs03", "rs04", "rs05", "rs01"]);
}

/// `split-keys --between START END` prints the algorithm's split of the range; an empty end
/// stands for `lastRow()`.
#[test]
fn split_algorithm_split_between_two_keys_on_the_cli() {
    for (alg, a, b, want) in [
        ("hex", "", "", "80000000\n"),
        ("hex", "10000000", "20000000", "18000000\n"),
        ("decimal", "50000000", "", "75000000\n"),
        (
            "uniform",
            "",
            "",
            "\\x7F\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\n",
        ),
        ("uniform", "a", "b", "a\\x80\n"),
    ] {
        bin()
            .args(["split-keys", "--algorithm", alg, "--between", a, b])
            .assert()
            .success()
            .stdout(want);
    }
    let out = bin()
        .args(["split-keys", "--algorithm", "hex", "--between", "00x0", "1"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(
        err.contains("--between START") && err.contains("`x`"),
        "{err}"
    );
    bin()
        .args([
            "split-keys",
            "--algorithm",
            "partition",
            "--between",
            "a",
            "b",
        ])
        .assert()
        .code(2);
}

/// `split-keys --rolling SCENARIO` prints RegionSplitter's plan for the scenario's new table,
/// with the table's split restriction applied to each row (`SplitTableRegionProcedure`).
#[test]
fn region_splitter_rolling_split_plan_on_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hex.toml");
    std::fs::write(
        &path,
        "name = \"hex\"\nseed = 1\n[cluster]\nregionservers = 4\n[table]\nname = \"t\"\n\
         split_restriction = \"KeyPrefix\"\nsplit_restriction_prefix_length = 3\n\
         [table.presplit]\nalgorithm = \"hex\"\nregions = 8\n[workload]\nrows = 1000\n\
         [[generator]]\nname = \"g\"\nkind = \"md5-prefix\"\n",
    )
    .unwrap();
    let out = bin()
        .args(["split-keys", "--algorithm", "hex", "--rolling"])
        .arg(&path)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("HexStringSplit [00000000, ffffffff]"),
        "{text}"
    );
    assert!(text.contains("at most 2 splits outstanding"), "{text}");
    assert!(text.contains("restricted to 500"), "{text}");
    assert!(text.contains("8 splits issued in 2 rounds"), "{text}");
    // The headline's partition keys are not hex digits: an error naming --rolling.
    let headline = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/4tb-10-nodes-2gb.toml");
    let out = bin()
        .args(["split-keys", "--algorithm", "hex", "--rolling"])
        .arg(&headline)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&out).contains("--rolling"));
}
