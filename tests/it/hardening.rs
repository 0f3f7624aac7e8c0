//! Inputs and outputs that fail safely: output sets that are complete or recognised as not,
//! unwritable outputs found before the work, errors that name the flag or field, bounded reads,
//! resource guards and escaped control characters.

use std::path::PathBuf;

use crate::common::{bin, root};

fn small() -> PathBuf {
    root().join("tests/data/small.toml")
}

/// Runs the binary; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let o = bin().args(args).output().expect("runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn an_out_set_ends_with_a_manifest_and_report_refuses_a_mixed_or_interrupted_set() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let out_s = out.to_str().expect("UTF-8 path");
    let scenario = small();
    let (code, _, err) = run(&[
        "run",
        "--scale",
        "4",
        "--threads",
        "1",
        "--quiet",
        "--out",
        out_s,
        scenario.to_str().expect("path"),
    ]);
    assert_eq!(code, 0, "{err}");
    let manifest = std::fs::read_to_string(out.join("manifest.txt")).expect("manifest");
    for f in ["report.txt", "report.json", "regions.csv", "timeline.csv"] {
        assert!(manifest.contains(&format!(" {f}\n")), "{f} in {manifest}");
    }
    let names: Vec<String> = std::fs::read_dir(&out)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.starts_with('.')),
        "no temporary file left: {names:?}"
    );
    let json = out.join("report.json");
    let json = json.to_str().expect("path");
    let (code, _, err) = run(&["report", json, "--format", "text"]);
    assert_eq!(code, 0, "{err}");

    // `report out/report.json --out out/` adds the page to the set; the set stays readable.
    let (code, _, err) = run(&["report", json, "--out", out_s]);
    assert_eq!(code, 0, "{err}");
    let manifest = std::fs::read_to_string(out.join("manifest.txt")).expect("manifest");
    assert!(
        manifest.contains(" report.html\n") && manifest.contains(" report.json\n"),
        "{manifest}"
    );
    let (code, _, err) = run(&["report", json, "--format", "text"]);
    assert_eq!(code, 0, "{err}");

    // The page's set holds the JSON it was rendered from and the pages, not the older set's
    // CSV files (issue 33: they were kept under the new manifest).
    assert!(!manifest.contains(" regions.csv\n"), "{manifest}");
    // A listed file changed since: the set is mixed.
    std::fs::write(out.join("report.html"), "<html>\n").expect("write");
    let (code, _, err) = run(&["report", json, "--format", "text"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("report.html") && err.contains("mixes files"),
        "{err}"
    );

    // A set whose writing was interrupted keeps the manifest marked incomplete.
    std::fs::write(
        out.join("manifest.txt"),
        "hbase-emu output set: incomplete (writing was interrupted)\n",
    )
    .expect("write");
    let (code, _, err) = run(&["report", json, "--format", "text"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("interrupted"), "{err}");

    // A report.json saved on its own (no manifest beside it) is still read.
    let alone = dir.path().join("alone.json");
    std::fs::copy(out.join("report.json"), &alone).expect("copy");
    let (code, _, err) = run(&["report", alone.to_str().expect("path"), "--format", "text"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn an_unwritable_out_is_refused_before_the_run_naming_the_directory() {
    // /proc/self is a directory nobody (not even root) can create files in.
    let scenario = small();
    let (code, stdout, err) = run(&[
        "run",
        "--quiet",
        "--out",
        "/proc/self",
        scenario.to_str().expect("path"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(stdout.is_empty(), "no report: {stdout}");
    assert!(err.contains("/proc/self") && err.contains("--out"), "{err}");
    assert!(
        !err.contains(".tmp") && !err.contains(".hbase-emu"),
        "{err}"
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").expect("write");
    let (code, _, err) = run(&[
        "run",
        "--quiet",
        "--out",
        file.to_str().expect("path"),
        scenario.to_str().expect("path"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a-file") && err.contains("--out"), "{err}");
}

#[test]
fn negative_scale_and_seed_name_the_flag() {
    let scenario = small();
    let s = scenario.to_str().expect("path");
    for (flag, expected) in [
        ("--scale", "an integer ≥ 1"),
        ("--seed", "an integer ≥ 0"),
        ("--threads", "an integer from 1 to 256"),
    ] {
        let (code, _, err) = run(&["run", flag, "-1", s]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(flag) && err.contains("negative") && err.contains(expected),
            "{flag}: {err}"
        );
    }
    let (code, _, err) = run(&["keys", "--scenario", s, "--count", "-5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--count") && err.contains("negative"), "{err}");
}

/// A scenario with a SPLITS_FILE at `path` (RegionSplitter / `create … SPLITS_FILE`).
fn splits_file_scenario(dir: &std::path::Path, path: &str) -> PathBuf {
    let p = dir.join("s.toml");
    std::fs::write(
        &p,
        format!(
            "name = \"t\"\nseed = 7\n[cluster]\nregionservers = 3\n[table]\nname = \"t1\"\n\
             [table.presplit]\nalgorithm = \"file\"\nfile = \"{path}\"\n\
             [workload]\nrows = 1000\n[[generator]]\nname = \"seq\"\nkind = \"sequential\"\n"
        ),
    )
    .expect("write");
    p
}

#[test]
fn a_splits_file_that_is_a_directory_or_a_device_is_named_as_such_at_its_scenario_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("splits")).expect("mkdir");
    for (path, problem) in [
        ("splits", "is a directory"),
        ("/dev/zero", "is not a regular file"),
        ("missing.txt", "does not exist"),
    ] {
        let p = splits_file_scenario(dir.path(), path);
        let (code, _, err) = run(&["check", p.to_str().expect("path")]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(problem)
                && err.contains("table.presplit.file")
                && err.contains("s.toml:9:"),
            "{path}: {err}"
        );
    }
}

#[test]
fn dev_zero_as_a_site_file_or_a_key_file_is_refused_with_the_bound() {
    let (code, _, err) = run(&["config", "--config", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("/dev/zero") && err.contains("larger than"),
        "{err}"
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("k.toml");
    std::fs::write(
        &p,
        "name = \"t\"\nseed = 7\n[cluster]\nregionservers = 3\n[table]\nname = \"t1\"\n\
         [workload]\nrows = 1000\n[[generator]]\nname = \"f\"\nkind = \"file\"\npath = \"/dev/zero\"\n",
    )
    .expect("write");
    let (code, _, err) = run(&["check", p.to_str().expect("path")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("/dev/zero") && err.contains("larger than") && err.contains("path"),
        "{err}"
    );
}

#[test]
fn control_characters_in_a_scenario_name_do_not_reach_the_terminal_raw() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("c.toml");
    // TOML's \u001B is ESC: "ESC[2J" would clear the screen.
    std::fs::write(
        &p,
        "name = \"evil \\u001B[2J name\"\nseed = 7\n[cluster]\nregionservers = 3\n[table]\nname = \"t1\"\n\
         [workload]\nrows = 1000\n[[generator]]\nname = \"seq\"\nkind = \"sequential\"\n",
    )
    .expect("write");
    let path = p.to_str().expect("path");
    for cmd in [
        &["check", path][..],
        &["run", "--quiet", "--threads", "1", path][..],
    ] {
        let (code, out, err) = run(cmd);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out}");
        assert!(out.contains("\\x1B[2J"), "escaped name shown: {out}");
    }
    let out = dir.path().join("out");
    let (code, _, err) = run(&["run", "--quiet", "--out", out.to_str().expect("path"), path]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(out.join("report.txt")).expect("report.txt");
    assert!(!text.contains('\u{1b}'), "{text}");
    // An error echoing the bad text escapes it too.
    std::fs::write(&p, "name = \"x\u{1b}[2J\"\nseed = -1\n").expect("write");
    let (code, _, err) = run(&["check", path]);
    assert_eq!(code, 2);
    assert!(!err.contains('\u{1b}'), "{err}");
}

#[test]
fn one_byte_per_second_offered_is_refused_before_running() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("slow.toml");
    std::fs::write(
        &p,
        "name = \"slow\"\nseed = 7\n[cluster]\nregionservers = 3\n[table]\nname = \"t1\"\n\
         [workload]\ndata = \"4TB\"\nrate = \"1B/s\"\n[[generator]]\nname = \"seq\"\nkind = \"sequential\"\n",
    )
    .expect("write");
    let (code, out, err) = run(&["run", "--quiet", p.to_str().expect("path")]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("years of simulated time") && err.contains("workload.rate"),
        "{err}"
    );
}
