//! The kernel sets (`HBASE_EMU_KERNELS`, src/kernel): the scalar kernels give the auto
//! kernels' report byte for byte but for the field that names them, `--version` names them,
//! and a value other than `auto` or `scalar` is a usage error.

use crate::common;

/// `run tests/data/kernels.toml` exact, as JSON, with `HBASE_EMU_KERNELS=kernels`.
fn report(kernels: &str, threads: &str) -> String {
    let out = common::bin()
        .env("HBASE_EMU_KERNELS", kernels)
        .args([
            "run",
            "tests/data/kernels.toml",
            "--scale",
            "1",
            "--format",
            "json",
        ])
        .args(["--threads", threads])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The report without its `kernels` line (the one line that may differ).
fn without_kernels(report: &str, kernels: &str) -> String {
    let line = format!("\n  \"kernels\": \"{kernels}\",\n");
    assert!(report.contains(&line), "no {line:?} in the report");
    report.replacen(&line, "\n", 1)
}

#[test]
fn scalar_kernels_give_the_auto_kernels_report() {
    let cpu = hbase_emu::kernel::cpu().name();
    for threads in ["1", "3"] {
        let auto = report("auto", threads);
        let scalar = report("scalar", threads);
        assert_eq!(
            without_kernels(&auto, cpu),
            without_kernels(&scalar, "scalar"),
            "--threads {threads}"
        );
    }
}

#[test]
fn version_names_the_kernels() {
    let cpu = hbase_emu::kernel::cpu();
    let out = common::bin()
        .env_remove("HBASE_EMU_KERNELS")
        .arg("--version")
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        format!("hbase-emu {} (kernels: {cpu})\n", env!("CARGO_PKG_VERSION"))
    );
    let out = common::bin()
        .env("HBASE_EMU_KERNELS", "scalar")
        .arg("--version")
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    if cpu == hbase_emu::kernel::Kernels::Scalar {
        assert!(text.ends_with("(kernels: scalar)\n"), "{text}");
    } else {
        assert!(
            text.ends_with(&format!(
                "(kernels: scalar (forced by HBASE_EMU_KERNELS; this CPU runs {cpu}))\n"
            )),
            "{text}"
        );
    }
}

#[test]
fn an_unknown_kernel_choice_is_a_usage_error() {
    for value in ["avx9", "", "Scalar"] {
        let out = common::bin()
            .env("HBASE_EMU_KERNELS", value)
            .arg("--version")
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{value:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!(
                "error: HBASE_EMU_KERNELS={value:?} is not a kernel choice"
            )),
            "{err}"
        );
        assert!(err.contains("`auto`") && err.contains("`scalar`"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// The conformance suite's fourth arm: every shipped scenario, cut to about 20,000 emulated rows
/// (`--scale`), reports the same bytes on the scalar kernels as on the auto ones (the other arms
/// run in-process: `engine_step::every_arm_reports_the_same_bytes_on_every_shipped_scenario`).
#[test]
fn every_shipped_scenario_reports_the_same_bytes_on_the_scalar_kernels() {
    let cpu = hbase_emu::kernel::cpu().name();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let names = common::shipped_scenarios();
    assert!(names.len() >= 7, "{names:?}");
    for name in &names {
        let path = dir.join(name);
        let s = hbase_emu::scenario::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scale = s.workload.rows.div_ceil(20_000).max(1).to_string();
        let run = |kernels: &str| {
            let out = common::bin()
                .env("HBASE_EMU_KERNELS", kernels)
                .args([
                    "run",
                    path.to_str().expect("UTF-8 path"),
                    "--format",
                    "json",
                ])
                .args(["--scale", &scale, "--threads", "2", "--quiet"])
                .output()
                .expect("runs");
            assert!(
                out.status.success() || out.status.code() == Some(1),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout).expect("UTF-8")
        };
        assert!(
            without_kernels(&run("auto"), cpu) == without_kernels(&run("scalar"), "scalar"),
            "{name}: the scalar kernels' report differs"
        );
    }
}
