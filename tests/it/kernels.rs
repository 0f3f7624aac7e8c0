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
