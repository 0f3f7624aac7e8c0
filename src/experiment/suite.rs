//! `hbase-emu test DIR`: every `*.toml` scenario of a folder, in file-name order, as a test
//! suite. Each design's expectation is a test case; a scenario without expectations is one
//! case, `runs`; a scenario that does not load or run is an error case. Prints one line per
//! scenario and case and a total; `--junit FILE` writes the same as JUnit XML.

use std::path::{Path, PathBuf};
use std::time::Instant;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

use crate::cli::TestArgs;
use crate::commands::{self, EmulateOptions};
use crate::diag::InputError;
use crate::experiment::expect;
use crate::report::text::expectation_line;
use crate::scenario::ScenarioErrors;

/// How one case ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// It held (or the scenario ran, for `runs`).
    Passed,
    /// The expectation failed: a one-line message and the verdict line.
    Failed {
        /// One line.
        message: String,
        /// The full text.
        detail: String,
    },
    /// The scenario did not load or run.
    Error {
        /// One line.
        message: String,
        /// The full text (the rendered errors).
        detail: String,
    },
}

/// One test case.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// `design: expectation`, `runs` or `loads`.
    pub name: String,
    /// Wall-clock seconds of the run it checked.
    pub seconds: f64,
    /// The verdict.
    pub verdict: Verdict,
    /// The verdict line with the measured value (expectation cases; empty for the others).
    pub line: String,
}

/// One scenario's cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    /// The scenario file's name without `.toml`.
    pub name: String,
    /// The scenario file.
    pub file: PathBuf,
    /// The seed it ran at, when `--seed` overrode the scenario's.
    pub seed: Option<u64>,
    /// Wall-clock seconds for the whole scenario.
    pub seconds: f64,
    /// Its cases.
    pub cases: Vec<Case>,
}

impl Suite {
    fn count(&self, f: fn(&Verdict) -> bool) -> usize {
        self.cases.iter().filter(|c| f(&c.verdict)).count()
    }
}

fn failed(v: &Verdict) -> bool {
    matches!(v, Verdict::Failed { .. })
}

fn errored(v: &Verdict) -> bool {
    matches!(v, Verdict::Error { .. })
}

/// `hbase-emu test DIR`: `Ok(false)` when a case failed or a scenario did not load or run.
pub fn test(args: &TestArgs) -> Result<bool, ScenarioErrors> {
    let files = scenario_files(&args.dir)?;
    if let Some(path) = &args.junit {
        check_output_dir(path)?;
    }
    let threads = args.emulation.threads();
    let opts = EmulateOptions {
        scale: args.emulation.scale,
        threads,
        max_memory: args.emulation.max_memory,
        reference: args.emulation.reference,
        quiet: true,
    };
    let started = Instant::now();
    let mut suites = Vec::with_capacity(files.len());
    for file in files {
        let suite = run_scenario(&file, args.seed, &opts);
        print!("{}", crate::diag::escape_controls(&suite_text(&suite)));
        suites.push(suite);
    }
    let seconds = started.elapsed().as_secs_f64();
    let (cases, failures, errors) = totals(&suites);
    println!(
        "test result: {}. {} passed; {failures} failed; {errors} errors ({} scenarios, {seconds:.1} s)",
        if failures + errors == 0 {
            "ok"
        } else {
            "FAILED"
        },
        cases - failures - errors,
        suites.len(),
    );
    if let Some(path) = &args.junit {
        let name = format!("hbase-emu test {}", args.dir.display());
        crate::output::write_output(Some(path), junit(&name, &suites, seconds).as_bytes())
            .map_err(|e| e.field_if_unset("--junit"))?;
    }
    Ok(failures + errors == 0)
}

/// Cases, failures and errors over all suites.
pub fn totals(suites: &[Suite]) -> (usize, usize, usize) {
    suites.iter().fold((0, 0, 0), |(c, f, e), s| {
        (c + s.cases.len(), f + s.count(failed), e + s.count(errored))
    })
}

/// The folder's `*.toml` files, sorted by name; a missing or empty folder is a usage error.
/// Hidden files (`.name.toml`: editor backups, `scripts/scaling-table`'s scratch variants) are
/// not scenarios of the suite.
fn scenario_files(dir: &Path) -> Result<Vec<PathBuf>, InputError> {
    let usage = |problem: String| {
        InputError::new(problem)
            .in_file(dir)
            .field("DIR")
            .expected("a folder holding scenario files (*.toml)")
    };
    let entries = std::fs::read_dir(dir)
        .map_err(|e| usage(format!("cannot read the scenario folder: {e}")))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(usage("the folder holds no scenario (*.toml)".to_string()));
    }
    Ok(files)
}

/// The JUnit file's folder must exist: found before hours of runs, not after.
fn check_output_dir(path: &Path) -> Result<(), InputError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if dir.is_dir() {
        // Writable, and not a device: found now, not after every scenario ran.
        crate::output::check_output_file(path).map_err(|e| e.field("--junit"))?;
        crate::output::probe_writable(dir).map_err(|e| {
            InputError::new(format!("cannot write into `{}`: {e}", dir.display()))
                .in_file(path)
                .field("--junit")
                .expected("a file path in a writable folder")
        })
    } else {
        Err(
            InputError::new(format!("the folder `{}` does not exist", dir.display()))
                .in_file(path)
                .field("--junit")
                .expected("a file path in an existing folder"),
        )
    }
}

/// Loads, runs and checks one scenario (at `seed` instead of its own when given); every problem
/// becomes a case.
pub fn run_scenario(file: &Path, seed: Option<u64>, opts: &EmulateOptions) -> Suite {
    let started = Instant::now();
    let name = file
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let error_case = |what: &str, errors: &ScenarioErrors| {
        let message = errors
            .0
            .first()
            .map_or_else(String::new, |e| e.to_string().replace('\n', " "));
        let detail: String = errors.0.iter().map(InputError::render).collect();
        Case {
            name: what.to_string(),
            seconds: started.elapsed().as_secs_f64(),
            verdict: Verdict::Error { message, detail },
            line: String::new(),
        }
    };
    let mut suite = Suite {
        name,
        file: file.to_path_buf(),
        seed,
        seconds: 0.0,
        cases: Vec::new(),
    };
    let loaded =
        commands::load_scenario(file, seed).and_then(|s| expect::compile(&s).map(|e| (s, e)));
    let (s, expectations) = match loaded {
        Ok(x) => x,
        Err(errors) => {
            suite.cases.push(error_case("loads", &errors));
            suite.seconds = started.elapsed().as_secs_f64();
            return suite;
        }
    };
    let specs: Vec<_> = s.generators.iter().collect();
    let (results, timings) = match commands::emulate(&s, &specs, opts) {
        Ok(x) => x,
        Err(errors) => {
            suite.cases.push(error_case("runs", &errors));
            suite.seconds = started.elapsed().as_secs_f64();
            return suite;
        }
    };
    let mut report = crate::report::run::build(&s, &results);
    expect::attach(&expectations, &mut report);
    suite.seconds = started.elapsed().as_secs_f64();
    for (run, (_, secs)) in report.runs.iter().zip(&timings) {
        for e in &run.expectations {
            let line = expectation_line(&run.generator, e);
            suite.cases.push(Case {
                name: format!("{}: {}", run.generator, e.text),
                seconds: *secs,
                verdict: if e.holds {
                    Verdict::Passed
                } else {
                    Verdict::Failed {
                        message: line.clone(),
                        detail: line.clone(),
                    }
                },
                line,
            });
        }
    }
    if suite.cases.is_empty() {
        suite.cases.push(Case {
            name: "runs".to_string(),
            seconds: suite.seconds,
            verdict: Verdict::Passed,
            line: String::new(),
        });
    }
    suite
}

/// A scenario's lines: its name, then one line per case.
fn suite_text(s: &Suite) -> String {
    let seed = s.seed.map_or_else(String::new, |n| format!(", seed {n}"));
    let mut o = format!(
        "{} ({}{seed}): {} cases, {:.1} s\n",
        s.name,
        s.file.display(),
        s.cases.len(),
        s.seconds
    );
    for c in &s.cases {
        let line = match &c.verdict {
            Verdict::Error { message, .. } => format!("ERROR   {}: {message}", c.name),
            _ if c.line.is_empty() => format!("ok      {} (no expectations)", c.name),
            _ => c.line.clone(),
        };
        o.push_str(&format!("  {line}\n"));
    }
    o
}

/// Text safe in XML 1.0 (which has no way to write most control characters, escaped or not);
/// attribute values on one line.
fn xml_text(s: &str, one_line: bool) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' if one_line => ' ',
            '\n' | '\r' | '\t' => c,
            c if c.is_control() => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// The suites as JUnit XML: `<testsuites>` of `<testsuite name=SCENARIO>` of `<testcase
/// name="design: expectation">`, with `<failure>` or `<error>` inside a case that did not pass.
pub fn junit(name: &str, suites: &[Suite], seconds: f64) -> String {
    let (cases, failures, errors) = totals(suites);
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    // Writing into a Vec cannot fail: the io::Results below are all Ok.
    let _ = w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    let _ = w
        .create_element("testsuites")
        .with_attributes([
            ("name", xml_text(name, true).as_str()),
            ("tests", cases.to_string().as_str()),
            ("failures", failures.to_string().as_str()),
            ("errors", errors.to_string().as_str()),
            ("time", format!("{seconds:.3}").as_str()),
        ])
        .write_inner_content(|w| {
            for s in suites {
                write_suite(w, s)?;
            }
            Ok(())
        });
    let mut out = String::from_utf8(w.into_inner()).unwrap_or_default();
    out.push('\n');
    out
}

fn write_suite(w: &mut Writer<Vec<u8>>, s: &Suite) -> std::io::Result<()> {
    let name = xml_text(&s.name, true);
    w.create_element("testsuite")
        .with_attributes([
            ("name", name.as_str()),
            ("tests", s.cases.len().to_string().as_str()),
            ("failures", s.count(failed).to_string().as_str()),
            ("errors", s.count(errored).to_string().as_str()),
            ("time", format!("{:.3}", s.seconds).as_str()),
            (
                "file",
                xml_text(&s.file.display().to_string(), true).as_str(),
            ),
        ])
        .write_inner_content(|w| {
            if let Some(seed) = s.seed {
                // JUnit's place for a run's settings: the seed `--seed` gave every scenario.
                w.create_element("properties").write_inner_content(|w| {
                    w.create_element("property")
                        .with_attributes([("name", "seed"), ("value", seed.to_string().as_str())])
                        .write_empty()?;
                    Ok(())
                })?;
            }
            for c in &s.cases {
                let case = w.create_element("testcase").with_attributes([
                    ("name", xml_text(&c.name, true).as_str()),
                    ("classname", name.as_str()),
                    ("time", format!("{:.3}", c.seconds).as_str()),
                ]);
                let (tag, message, detail) = match &c.verdict {
                    Verdict::Passed => {
                        case.write_empty()?;
                        continue;
                    }
                    Verdict::Failed { message, detail } => ("failure", message, detail),
                    Verdict::Error { message, detail } => ("error", message, detail),
                };
                case.write_inner_content(|w| {
                    w.create_element(tag)
                        .with_attributes([
                            ("message", xml_text(message, true).as_str()),
                            (
                                "type",
                                if tag == "failure" {
                                    "expectation"
                                } else {
                                    "input"
                                },
                            ),
                        ])
                        .write_text_content(BytesText::new(&xml_text(detail, false)))?;
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junit_escapes_and_counts() {
        let suites = vec![Suite {
            name: "a<b".to_string(),
            file: PathBuf::from("d/a<b.toml"),
            seed: None,
            seconds: 1.5,
            cases: vec![
                Case {
                    name: "x: regions_final < 3 & \"more\"".to_string(),
                    seconds: 1.0,
                    verdict: Verdict::Passed,
                    line: String::new(),
                },
                Case {
                    name: "y: steady".to_string(),
                    seconds: 1.0,
                    verdict: Verdict::Failed {
                        message: "FAILED  y: steady\u{1}".to_string(),
                        detail: "line <1>\nline 2".to_string(),
                    },
                    line: String::new(),
                },
            ],
        }];
        let xml = junit("t", &suites, 2.0);
        assert!(
            xml.contains(r#"tests="2" failures="1" errors="0""#),
            "{xml}"
        );
        assert!(xml.contains("a&lt;b"), "{xml}");
        assert!(xml.contains("&amp; &quot;more&quot;"), "{xml}");
        assert!(xml.contains("line &lt;1&gt;\nline 2"), "{xml}");
        assert!(!xml.contains('\u{1}'), "{xml}");
        assert!(!xml.contains("<properties>"), "{xml}");
        let mut seeded = suites;
        seeded[0].seed = Some(43);
        let xml = junit("t", &seeded, 2.0);
        assert!(
            xml.contains("<properties>\n      <property name=\"seed\" value=\"43\"/>"),
            "{xml}"
        );
        assert!(suite_text(&seeded[0]).starts_with("a<b (d/a<b.toml, seed 43): 2 cases"));
    }
}

#[cfg(test)]
mod files_tests {
    use super::scenario_files;

    #[test]
    fn hidden_and_non_toml_files_are_not_scenarios() {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in ["b.toml", "a.toml", ".scaling-1000.toml", "notes.txt"] {
            std::fs::write(dir.path().join(name), "").expect("write");
        }
        let names: Vec<String> = scenario_files(dir.path())
            .expect("files")
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.toml", "b.toml"]);
    }
}
