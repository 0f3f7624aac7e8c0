//! What each CLI command does, as library functions (the binary only dispatches and renders errors).

use std::path::Path;

use crate::cli::{
    CheckArgs, ConfigArgs, Format, KeysArgs, RunArgs, RunFormat, SplitAlgorithm, SplitKeysArgs,
};
use crate::config::settings::CompactionPolicyClass;
use crate::config::{self, Origin, Settings, SiteConfig, TableAttributes};
use crate::diag::InputError;
use crate::engine;
use crate::keygen::GeneratorSpec;
use crate::keynotation::{to_hex, to_string_binary};
use crate::output::{FileSet, check_writable, write_output};
use crate::plan::{self, RunPlan};
use crate::presplit::{self, Algorithm};
use crate::report::plan::{PlanReport, SettingLine};
use crate::report::run::TimingJson;
use crate::report::table;
use crate::scenario::{self, Scenario, ScenarioErrors};
use crate::units::format_duration_ms;

/// Keys shown in `check`'s settings block: the ones that decide region sizes, splits and
/// compaction traffic.
const HEADLINE_KEYS: &[&str] = &[
    "hbase.hregion.max.filesize",
    "hbase.regionserver.region.split.policy",
    "hbase.hregion.memstore.flush.size",
    "hbase.hregion.memstore.block.multiplier",
    "hbase.regionserver.global.memstore.size",
    "hbase.hstore.blockingStoreFiles",
    "hbase.hstore.compactionThreshold",
    "hbase.hstore.engine.class",
    "hbase.hstore.defaultengine.compactionpolicy.class",
    "hbase.regionserver.regionSplitLimit",
    "hbase.master.loadbalancer.class",
];

type CmdResult = Result<(), ScenarioErrors>;

/// Loads a scenario and checks its `[expect]` texts (the loader itself cannot: they name report
/// figures, and the report depends on the scenario).
pub fn load_scenario(path: &Path, seed: Option<u64>) -> Result<Scenario, ScenarioErrors> {
    let mut s = scenario::load(path)?;
    crate::experiment::expect::compile(&s)?;
    if let Some(seed) = seed {
        s.seed = seed;
    }
    Ok(s)
}

/// The scenario at `path` (or the built-in headline scenario) as its file has it, and with the
/// `--set` overrides applied (`--seed` applies to both, after the overrides).
fn load_scenario_or_default(
    path: Option<&Path>,
    seed: Option<u64>,
    sets: &[String],
) -> Result<(Scenario, Scenario), ScenarioErrors> {
    let default = scenario::default_scenario_path();
    let base = load_scenario(path.unwrap_or(&default), seed)?;
    let mut s = crate::experiment::overrides::apply(base.clone(), sets)?;
    if let Some(seed) = seed {
        s.seed = seed;
    }
    Ok((base, s))
}

/// The generators named on the command line (all when none), or an error listing the names.
fn select<'a>(s: &'a Scenario, names: &[String]) -> Result<Vec<&'a GeneratorSpec>, InputError> {
    if names.is_empty() {
        return Ok(s.generators.iter().collect());
    }
    // A name given twice (`--generator a --generator a`) selects the generator once.
    let mut unique: Vec<&String> = Vec::with_capacity(names.len());
    for n in names {
        if !unique.contains(&n) {
            unique.push(n);
        }
    }
    unique
        .into_iter()
        .map(|n| {
            s.generators
                .iter()
                .find(|g| g.name.get_ref() == n)
                .ok_or_else(|| {
                    let known: Vec<&str> = s
                        .generators
                        .iter()
                        .map(|g| g.name.get_ref().as_str())
                        .collect();
                    InputError::new(format!(
                        "scenario has no generator named {}",
                        scenario::quoted_name(n)
                    ))
                    .in_file(&s.source.path)
                    .field("--generator")
                    .expected(format!("one of: {}", known.join(", ")))
                })
        })
        .collect()
}

/// Adds the generator's name to a sampled pre-split error, which the split code reports about
/// "the generator" without knowing its scenario name.
fn name_generator(e: InputError, name: &str) -> InputError {
    if e.problem.starts_with("the generator ") {
        let problem = e
            .problem
            .replacen("the generator ", &format!("generator `{name}` "), 1);
        e.reword(problem)
    } else {
        e
    }
}

/// `hbase-emu run SCENARIO`: `Ok(false)` when an expectation of the scenario failed (the
/// report is written all the same; the binary exits 1).
pub fn run(args: &RunArgs) -> Result<bool, ScenarioErrors> {
    let explain = args
        .explain
        .as_deref()
        .map(crate::report::explain::Target::parse)
        .transpose()?;
    let (_, s) = load_scenario_or_default(args.scenario.as_deref(), args.seed, &args.sets)?;
    // With overrides, an error in the rewritten scenario names them, not a line of its text.
    run_loaded(args, &s, explain.as_ref())
        .map_err(|e| crate::experiment::overrides::blame_in(e, &s))
}

fn run_loaded(
    args: &RunArgs,
    s: &Scenario,
    explain: Option<&crate::report::explain::Target>,
) -> Result<bool, ScenarioErrors> {
    let specs = select(s, &args.generators)?;
    // Once per run, before the work: settings the user gave that change nothing here.
    if let Some(w) = unmodelled_warning(&s.site) {
        eprintln!("warning: {w}");
    }
    // The scenario's own (a field that changes nothing, as `check` lists them too).
    for w in &s.warnings {
        eprintln!("warning: {w}");
    }
    let threads = args.emulation.threads();
    // The scenario under each assumption profile (just itself without --assumptions).
    let profile_names = crate::experiment::assumptions::profile_names(s, &args.assumptions)?;
    let scenarios: Vec<Scenario> = profile_names
        .iter()
        .map(|n| {
            let p = crate::experiment::profiles::profile(n).expect("names are validated");
            crate::experiment::assumptions::scenario_for(s, p)
        })
        .collect::<Result<_, _>>()?;
    let typical = profile_names
        .iter()
        .position(|n| n == crate::experiment::profiles::TYPICAL)
        .unwrap_or(0);
    // An unwritable --out is found before the emulation, not after it.
    if let Some(dir) = &args.out {
        check_writable(dir, "--out")?;
    }
    let expectations = crate::experiment::expect::compile(s)?;
    let opts = EmulateOptions {
        scale: args.emulation.scale,
        threads,
        max_memory: args.emulation.max_memory,
        reference: args.emulation.reference,
        quiet: args.quiet,
    };
    let refs: Vec<&Scenario> = scenarios.iter().collect();
    let labels: Vec<String> = if scenarios.len() > 1 {
        profile_names.clone()
    } else {
        Vec::new()
    };
    let (mut by_profile, mut timings_by) = emulate_many(&refs, &labels, typical, &specs, &opts)?;
    let results = std::mem::take(&mut by_profile[typical]);
    let timings = std::mem::take(&mut timings_by[typical]);
    let mut report = crate::report::run::build(&scenarios[typical], &results);
    if scenarios.len() > 1 {
        let reports: Vec<crate::report::run::Report> = scenarios
            .iter()
            .zip(&by_profile)
            .enumerate()
            .map(|(p, (sc, rs))| {
                if p == typical {
                    report.clone()
                } else {
                    crate::report::run::build(sc, rs)
                }
            })
            .collect();
        let profiles = profile_names
            .iter()
            .zip(&scenarios)
            .map(|(n, sc)| crate::experiment::assumptions::profile_json(n, sc))
            .collect();
        let refs: Vec<&crate::report::run::Report> = reports.iter().collect();
        report.assumption_ranges = Some(crate::experiment::assumptions::ranges(profiles, &refs));
    }
    let all_hold = crate::experiment::expect::attach(&expectations, &mut report);
    // Text shows the verdicts; other formats name the failures on standard error.
    if !all_hold && (args.format != RunFormat::Text || args.out.is_some()) {
        for r in &report.runs {
            for e in r.expectations.iter().filter(|e| !e.holds) {
                eprintln!("{}", crate::report::text::expectation_line(&r.generator, e));
            }
        }
    }
    if args.timings {
        report.timings = Some(
            timings
                .into_iter()
                .map(|(generator, wall_seconds)| TimingJson {
                    generator,
                    wall_seconds,
                })
                .collect(),
        );
    }
    // Standard output leads with the answer; report.txt is the whole text.
    let mut text = report.to_text_with(args.detail);
    let mut full = report.to_text();
    let mut tail = String::new();
    if let Some(t) = explain {
        for r in &results {
            tail.push_str(&crate::report::explain::explain(r, t));
        }
    }
    if let Some(timings) = &report.timings {
        tail.push_str("\nWall-clock (not part of the deterministic report)\n");
        for t in timings {
            tail.push_str(&format!("  {}: {:.2} s\n", t.generator, t.wall_seconds));
        }
    }
    text.push_str(&tail);
    full.push_str(&tail);
    let json = report.to_json();
    if let Some(dir) = &args.out {
        let mut set = FileSet::begin(dir, "--out")?;
        set.write("report.txt", full.as_bytes())?;
        set.write("report.json", json.as_bytes())?;
        for (name, body) in crate::report::csv::files(&report) {
            set.write(name, body.as_bytes())?;
        }
        if args.format == RunFormat::Html {
            // Pages are for browsers, not terminals: name the file instead of printing it.
            write_html(&report, &mut set)?;
            set.finish()?;
            return Ok(all_hold);
        }
        set.finish()?;
    }
    let out = match args.format {
        RunFormat::Text => text,
        RunFormat::Json => json,
        RunFormat::Csv => report.regions_csv(),
        RunFormat::Html => crate::report::html::render(&report),
    };
    write_output(None, out.as_bytes())?;
    Ok(all_hold)
}

/// How [`emulate`] runs a scenario's generators.
pub struct EmulateOptions {
    /// Real rows per emulated row (`None`: the scenario's, else automatic).
    pub scale: Option<u64>,
    /// Worker threads.
    pub threads: usize,
    /// `--max-memory`.
    pub max_memory: Option<u64>,
    /// `--reference`: the reference engine.
    pub reference: bool,
    /// No progress bars or notes on standard error.
    pub quiet: bool,
}

/// Finished runs in scenario order, with each run's (generator, wall-clock seconds).
pub type Emulated = (Vec<engine::RunResult>, Vec<(String, f64)>);

/// Emulates the selected generators of a scenario side by side, after the budget checks:
/// the results in scenario order, with each run's wall-clock seconds.
pub fn emulate(
    s: &Scenario,
    specs: &[&GeneratorSpec],
    opts: &EmulateOptions,
) -> Result<Emulated, ScenarioErrors> {
    let (mut results, mut timings) = emulate_many(&[s], &[], 0, specs, opts)?;
    Ok((results.remove(0), timings.remove(0)))
}

/// Per scenario: its finished runs in generator order, and each run's (generator, seconds).
pub type EmulatedMany = (Vec<Vec<engine::RunResult>>, Vec<Vec<(String, f64)>>);

/// `emulate` for several variants of one scenario (the same generators under each), all runs
/// in one queue so they share the cores: `labels` name the variants on the progress bars (none
/// for one), and only variant `warn`'s scale warnings are printed.
pub fn emulate_many(
    scenarios: &[&Scenario],
    labels: &[String],
    warn: usize,
    specs: &[&GeneratorSpec],
    opts: &EmulateOptions,
) -> Result<EmulatedMany, ScenarioErrors> {
    let Some(&first) = scenarios.first() else {
        return Ok((Vec::new(), Vec::new()));
    };
    for sc in scenarios {
        crate::budget::check(sc)?;
    }
    let threads = opts.threads;
    // Memory and work estimated before any allocation that scales with the input: every
    // variant's runs share the machine, so they count as that many more generators.
    let all_specs: Vec<&GeneratorSpec> = scenarios
        .iter()
        .flat_map(|_| specs.iter().copied())
        .collect();
    let estimate = crate::budget::estimate(first, &all_specs, opts.scale, threads)?;
    crate::budget::refuse(
        first,
        &estimate,
        crate::budget::memory_limit(opts.max_memory),
    )?;
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    if !opts.quiet && !terminal && estimate.seconds() > crate::budget::LONG_RUN_SECONDS {
        eprintln!("note: a long run; {}", estimate.summary());
    }
    // Plan every run first (errors before any work; the first in run order is reported), then
    // run generators side by side: each plan and run is independent and deterministic, so doing
    // them in parallel changes nothing but time (planning samples keys for the pre-splits).
    let jobs: Vec<(usize, &GeneratorSpec)> = (0..scenarios.len())
        .flat_map(|v| specs.iter().map(move |g| (v, *g)))
        .collect();
    let planned = crate::workqueue::run_in_order(jobs, threads, |_, (v, g)| {
        plan::plan_run(scenarios[v], g).map(|p| (v, p))
    });
    let mut plans: Vec<(usize, plan::RunPlan)> = Vec::with_capacity(planned.len());
    for p in planned {
        plans.push(p?);
    }
    let parallel = threads.min(plans.len()).max(1);
    let per_run = (threads / parallel).max(1);
    // A progress bar per run on stderr, only when it is a terminal and not --quiet.
    let bars = (!opts.quiet && terminal).then(|| {
        let multi = indicatif::MultiProgress::new();
        let style = indicatif::ProgressStyle::with_template(
            "{prefix:>12} [{bar:40}] {percent:>3}% {msg} (eta {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ");
        let bars: Vec<indicatif::ProgressBar> = plans
            .iter()
            .map(|(v, p)| {
                let b = multi.add(indicatif::ProgressBar::new(100));
                b.set_style(style.clone());
                b.set_prefix(match labels.get(*v) {
                    Some(l) => format!("{}@{l}", p.generator.name),
                    None => p.generator.name.clone(),
                });
                b.set_message("waiting");
                b
            })
            .collect();
        (multi, bars)
    });
    // In scenario order (the first generators are usually the slow, skewed designs; starting
    // them first shortens the wall).
    let outcomes = crate::workqueue::run_in_order(plans, parallel, |i, (v, plan)| {
        let bar = bars.as_ref().map(|(_, b)| &b[i]);
        let started = std::time::Instant::now();
        let run_opts = engine::RunOptions {
            scale: opts.scale,
            threads: per_run,
            // A builder per run helps when runs share the cores: a finished
            // run's core then serves the others' file work.
            builder: threads >= 2,
            reference: opts.reference,
        };
        let r = engine::run_with_progress(scenarios[v], plan, run_opts, &|p: engine::Progress| {
            if let Some(b) = bar {
                show_progress(b, p);
            }
        })
        .map(|r| (r, started.elapsed().as_secs_f64()));
        if let Some(b) = bar {
            b.finish();
        }
        r
    });
    if let Some((multi, _)) = &bars {
        let _ = multi.clear();
    }
    // In scenario order, whatever order the runs finished in.
    let mut results: Vec<Vec<engine::RunResult>> = scenarios.iter().map(|_| Vec::new()).collect();
    let mut timings: Vec<Vec<(String, f64)>> = scenarios.iter().map(|_| Vec::new()).collect();
    for (k, o) in outcomes.into_iter().enumerate() {
        let (r, secs) = o?;
        let v = k / specs.len().max(1);
        if v == warn
            && let Some(w) = &r.scale_warning
        {
            eprintln!("warning: generator {}: {w}", r.generator);
        }
        timings[v].push((r.generator.clone(), secs));
        results[v].push(r);
    }
    Ok((results, timings))
}

/// One update of a run's bar: emulated rows done, and the simulated time they reached.
fn show_progress(bar: &indicatif::ProgressBar, p: engine::Progress) {
    bar.set_length(p.total.max(1));
    bar.set_position(p.done);
    bar.set_message(format!(
        "simulated {}",
        format_duration_ms(p.sim_ns / 1_000_000)
    ));
}

fn write_html(report: &crate::report::run::Report, set: &mut FileSet) -> Result<(), InputError> {
    // report.html links to regions.html (every region, sortable): both belong to the set.
    for (name, page) in crate::report::html::pages(report) {
        let path = set.write(name, page.as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// Reads a saved JSON run report; a parse error names the file, line and column.
pub fn load_report(path: &Path) -> Result<crate::report::run::Report, InputError> {
    crate::output::verify_set(path)?;
    // Reports of long comparisons can be far larger than a scenario (the shipped ones reach
    // 25 MB), but parsed they take several times their text: bounded by an eighth of the memory
    // limit (`diff` holds two), at most 1 GiB, so `/dev/zero` is refused, not read for minutes.
    let limit = (crate::budget::memory_limit(None) / 8).min(1 << 30);
    let src = crate::diag::SourceText::read_at_most(path, "JSON report", limit)?;
    parse_report(&src)
}

/// Parses a saved JSON run report's text; errors are placed in it.
pub fn parse_report(
    src: &crate::diag::SourceText,
) -> Result<crate::report::run::Report, InputError> {
    use crate::report::run::{Report, SCHEMA_VERSION};
    let src = src.clone();
    let expected = "a JSON run report as written by `hbase-emu run --format json` (docs/REPORT.md)";
    let report: Report = serde_json::from_str(&src.text).map_err(|e| {
        // serde_json counts lines and columns from 1; turn them back into a byte offset.
        let line_start: usize = src
            .text
            .split_inclusive('\n')
            .take(e.line().saturating_sub(1))
            .map(str::len)
            .sum();
        let mut at = (line_start + e.column().saturating_sub(1)).min(src.text.len());
        while !src.text.is_char_boundary(at) {
            at -= 1;
        }
        let full = e.to_string();
        let problem = full
            .rfind(" at line ")
            .map_or(full.as_str(), |i| &full[..i])
            .to_string();
        InputError::new(problem)
            .at(&src, at..at + 1)
            .expected(expected)
    })?;
    if report.schema_version != SCHEMA_VERSION {
        let at = src.text.find("\"schema_version\"").unwrap_or(0);
        return Err(InputError::new(format!(
            "unsupported schema_version {}",
            report.schema_version
        ))
        .at(&src, at..at + 16)
        .field("schema_version")
        .expected(format!("{SCHEMA_VERSION}")));
    }
    Ok(report)
}

/// `hbase-emu report RUN.json`: renders a saved JSON report.
pub fn report(args: &crate::cli::ReportArgs) -> CmdResult {
    let report = load_report(&args.report)?;
    let Some(dir) = &args.out else {
        let out = match args.format {
            RunFormat::Text => report.to_text_with(args.detail),
            RunFormat::Json => report.to_json(),
            RunFormat::Csv => report.regions_csv(),
            RunFormat::Html => crate::report::html::render(&report),
        };
        write_output(None, out.as_bytes())?;
        return Ok(());
    };
    let mut set = FileSet::begin_from(dir, "--out", Some(&args.report))?;
    match args.format {
        RunFormat::Html => write_html(&report, &mut set)?,
        RunFormat::Text => {
            set.write("report.txt", report.to_text().as_bytes())?;
        }
        RunFormat::Json => {
            set.write("report.json", report.to_json().as_bytes())?;
        }
        RunFormat::Csv => {
            for (name, body) in crate::report::csv::files(&report) {
                set.write(name, body.as_bytes())?;
            }
        }
    }
    set.finish()?;
    Ok(())
}

/// `hbase-emu` with no command: run the built-in headline scenario and print the comparison.
pub fn run_default() -> Result<bool, ScenarioErrors> {
    run(&RunArgs {
        scenario: None,
        generators: Vec::new(),
        format: RunFormat::Text,
        out: None,
        seed: None,
        sets: Vec::new(),
        emulation: Default::default(),
        timings: false,
        explain: None,
        quiet: false,
        detail: false,
        assumptions: Vec::new(),
    })
}

fn settings_lines(s: &Scenario) -> Result<Vec<SettingLine>, InputError> {
    let eff = config::effective(&s.site, &s.table.attributes)?;
    Ok(HEADLINE_KEYS
        .iter()
        .filter_map(|k| eff.iter().find(|e| e.key == *k))
        .map(|e| {
            let human = e.human();
            let display = match &human {
                Some(h) => format!(
                    "{h} ({})",
                    e.normalised().unwrap_or_else(|| e.value.clone())
                ),
                // Class names: the simple name reads better and HBase-emu accepts it back.
                None if e.value.starts_with("org.apache.") => {
                    e.value.rsplit('.').next().unwrap_or(&e.value).to_string()
                }
                None => e.value.clone(),
            };
            // DateTieredStoreEngine reads the policy key with its own default.
            let engine_default = e.key == "hbase.hstore.defaultengine.compactionpolicy.class"
                && s.settings.compaction_policy == CompactionPolicyClass::DateTiered
                && matches!(e.origin, config::Origin::Default);
            if engine_default {
                return SettingLine {
                    key: e.key.clone(),
                    value: "DateTieredCompactionPolicy".into(),
                    human: None,
                    display: "DateTieredCompactionPolicy".into(),
                    origin: "default under DateTieredStoreEngine".into(),
                };
            }
            SettingLine {
                key: e.key.clone(),
                value: e.value.clone(),
                human,
                display,
                origin: e.origin.to_string(),
            }
        })
        .collect())
}

/// `check`'s settings with `--set` overrides: a value the overrides changed comes from the
/// command line; the others keep the origin of the file as written (the overrides were applied
/// to a rewritten copy of the scenario whose line numbers the user never saw).
fn with_override_origins(
    lines: Vec<SettingLine>,
    base: &[SettingLine],
    s: &Scenario,
) -> Vec<SettingLine> {
    if s.overrides.is_empty() {
        return lines;
    }
    lines
        .into_iter()
        .map(|mut l| {
            match base.iter().find(|b| b.key == l.key) {
                Some(b) if b.value == l.value => l.origin = b.origin.clone(),
                _ => {
                    l.origin = format!(
                        "command line ({})",
                        crate::experiment::overrides::describe_for(&s.overrides, &l.key)
                    )
                }
            }
            l
        })
        .collect()
}

/// Warnings of the configuration layers (final properties kept), of the typed settings (values
/// HBase corrects or ignores) and about properties set in `[hbase]` or with `--set` that
/// hbase-emu does not model, each once, in that order.
fn all_warnings(site: &SiteConfig, settings: &Settings) -> Vec<String> {
    let mut out = site.warnings();
    for w in &settings.warnings {
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    out.extend(unmodelled_warning(site));
    out
}

/// One warning listing every key set in an hbase-site.xml file, the scenario's `[hbase]` or
/// `--set` that the emulator reads but does not model (no entry in `config::keys`), so a user
/// knows which of their settings change nothing here.
fn unmodelled_warning(site: &SiteConfig) -> Option<String> {
    let unmodelled: Vec<&str> = site
        .properties()
        .filter(|(k, _, o)| !matches!(o, Origin::Default) && config::keys::spec(k).is_none())
        .map(|(k, _, _)| k)
        .collect();
    (!unmodelled.is_empty()).then(|| {
        format!(
            "not modelled by hbase-emu (no effect here): {} ({} key(s) read and accepted; \
             `hbase-emu config` lists the modelled ones)",
            unmodelled.join(", "),
            unmodelled.len()
        )
    })
}

/// `hbase-emu check SCENARIO`
pub fn check(args: &CheckArgs) -> CmdResult {
    let (base, s) = load_scenario_or_default(args.scenario.as_deref(), args.seed, &args.sets)?;
    check_loaded(args, &base, &s).map_err(|e| crate::experiment::overrides::blame_in(e, &s))
}

fn check_loaded(args: &CheckArgs, base: &Scenario, s: &Scenario) -> CmdResult {
    let specs = select(s, &args.generators)?;
    // check plans (and samples) every run: what `run` would refuse is refused here first, in
    // `run`'s order: a load of years of simulated time (a rate or a phase of 1 B/s) is named
    // as such before the memory its timeline would take is blamed on the RegionServers.
    crate::budget::check(s)?;
    let estimate = crate::budget::estimate(
        s,
        &specs,
        None,
        crate::cli::EmulationArgs::default().threads(),
    )?;
    let limit = crate::budget::memory_limit(args.max_memory);
    crate::budget::refuse(s, &estimate, limit)?;
    let mut runs: Vec<RunPlan> = Vec::new();
    let mut samples = Vec::new();
    let mut errors = Vec::new();
    for spec in specs {
        match plan::plan_run(s, spec) {
            Ok(run) => {
                let mut keys = Vec::new();
                let mut buf = Vec::new();
                let first = s.workload.first_id;
                for id in first..first.saturating_add(args.sample_keys.min(s.workload.rows)) {
                    run.generator.key_checked(id, &mut buf)?;
                    keys.push(buf.clone());
                }
                samples.push(keys);
                runs.push(run);
            }
            Err(e) => errors.push(name_generator(e, spec.name.get_ref())),
        }
    }
    if !errors.is_empty() {
        return Err(ScenarioErrors(errors));
    }
    let report = PlanReport {
        settings: with_override_origins(settings_lines(s)?, &settings_lines(base)?, s),
        warnings: {
            let mut w = all_warnings(&s.site, &s.settings);
            w.extend(s.warnings.iter().cloned());
            w
        },
        scenario: s,
        runs,
        samples,
    };
    let text = match args.format {
        Format::Text => {
            let mut t = report.to_text();
            t.push_str(&format!(
                "\nEstimate (before running; limit {}, --max-memory)\n  {}\n{}",
                crate::units::format_bytes(limit),
                estimate.summary(),
                estimate.terms_text()
            ));
            crate::report::wrap_prose(&t)
        }
        Format::Json => report.to_json(),
    };
    write_output(None, text.as_bytes())?;
    Ok(())
}

/// Runs side by side by default: one per core.
/// `hbase-emu keys --scenario FILE`
pub fn keys(args: &KeysArgs) -> CmdResult {
    let s = load_scenario(&args.scenario, args.seed)?;
    let specs = select(&s, &args.generators)?;
    let first = args.start.unwrap_or(s.workload.first_id);
    if first.checked_add(args.count).is_none() {
        return Err(InputError::new(format!(
            "ids {first}.. ({} keys) run past the largest row id {}",
            args.count,
            u64::MAX
        ))
        .field(if args.start.is_some() {
            "--start"
        } else {
            "--count"
        })
        .expected(format!(
            "--start + --count at most {} (here at most {} keys from {first})",
            u64::MAX,
            u64::MAX - first
        ))
        .into());
    }
    // Streamed: `keys --count 100000000 | head -1` prints its key at once, holds one key in
    // memory, and stops when the pipe closes.
    use std::io::Write as _;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let several = specs.len() > 1;
    let mut line = String::new();
    for spec in specs {
        let g = plan::build_generator(&s, spec)?;
        if several {
            let head = format!("# {}: {}\n", g.name, g.layout().describe());
            out.write_all(crate::diag::escape_controls(&head).as_bytes())
                .map_err(crate::output::stdout_error)?;
        }
        let mut buf = Vec::new();
        for id in first..first + args.count {
            g.key_checked(id, &mut buf)?;
            line.clear();
            if args.hex {
                line.push_str(&to_hex(&buf));
            } else {
                line.push_str(&to_string_binary(&buf));
            }
            line.push('\n');
            out.write_all(line.as_bytes())
                .map_err(crate::output::stdout_error)?;
        }
    }
    out.flush().map_err(crate::output::stdout_error)?;
    Ok(())
}

/// The RegionSplitter algorithm `--between` and `--rolling` use, with --first-row/--last-row.
fn region_splitter(args: &SplitKeysArgs, flag: &str) -> Result<presplit::Splitter, InputError> {
    let alg = match args.algorithm {
        SplitAlgorithm::Hex => Algorithm::Hex,
        SplitAlgorithm::Decimal => Algorithm::Decimal,
        SplitAlgorithm::Uniform => Algorithm::Uniform,
        other => {
            return Err(InputError::new(format!(
                "{flag} uses one of RegionSplitter's algorithms, not {}",
                match other {
                    SplitAlgorithm::Md5Legacy => "md5-legacy",
                    SplitAlgorithm::Partition => "partition",
                    _ => "sampled",
                }
            ))
            .field("--algorithm")
            .expected("hex, decimal or uniform"));
        }
    };
    presplit::Splitter::new(alg, args.first_row.as_deref(), args.last_row.as_deref())
        .map_err(cli_flag)
}

/// The library names its own parameters; on the command line they are flags.
fn cli_flag(e: InputError) -> InputError {
    let flag = match e.field.as_deref() {
        Some("first_row") => "--first-row",
        Some("last_row") => "--last-row",
        Some("start") => "--between START",
        Some("end") => "--between END",
        _ => "--regions",
    };
    e.field(flag)
}

/// `split-keys --between START END`: the algorithm's split of one range.
fn split_between(args: &SplitKeysArgs, range: &[String]) -> Result<String, InputError> {
    let splitter = region_splitter(args, "--between")?;
    let mut keys = Vec::with_capacity(2);
    for (text, which) in range.iter().zip(["START", "END"]) {
        crate::keynotation::check_binary_escapes(text).map_err(|at| {
            InputError::new(format!("{which} `{text}` ends inside a \\x escape"))
                .field(format!("--between {which}"))
                .with_span(at..text.len())
                .expected("`\\x` followed by two upper-case hex digits")
        })?;
        keys.push(crate::keynotation::to_bytes_binary(text));
    }
    let row = splitter
        .region_split_point(&keys[0], &keys[1])
        .map_err(cli_flag)?;
    Ok(presplit::render_splits_file(&[row]))
}

/// `split-keys --rolling SCENARIO`: RegionSplitter's rolling split of the scenario's new table.
fn rolling_plan_text(args: &SplitKeysArgs, path: &Path) -> Result<String, ScenarioErrors> {
    let splitter = region_splitter(args, "--rolling")?;
    let s = load_scenario(path, args.seed)?;
    let spec = match &args.generator {
        Some(name) => select(&s, std::slice::from_ref(name))?[0],
        None => s
            .generators
            .first()
            .ok_or_else(|| InputError::new("the scenario has no generator").field("--rolling"))?,
    };
    let p = plan::plan_run(&s, spec)?;
    let servers = s.cluster.regionservers as usize;
    let regions: Vec<presplit::TableRegion> = p
        .regions
        .iter()
        .map(|r| presplit::TableRegion {
            start: r.start.clone(),
            end: r.end.clone(),
            server: crate::assignment::server_name(r.server, servers),
        })
        .collect();
    let settings = Settings::resolve(&s.site, &s.table.attributes)?;
    let restriction = &settings.split_restriction;
    let plan =
        presplit::rolling_split_plan(&splitter, &regions, servers, args.outstanding, restriction)
            .map_err(|e| e.field("--rolling"))?;
    let mut out = format!(
        "Rolling split (RegionSplitter -r) of table {} with {} [{}, {}]\n\
         {} regions ({}) on {servers} RegionServers; at most {} splits outstanding = \
         max({servers} / 2, split.outstanding {}); split restriction: {restriction}\n",
        scenario::quoted_name(&s.table.name),
        splitter.class(),
        to_string_binary(&splitter.first_row()),
        to_string_binary(&splitter.last_row()),
        regions.len(),
        p.presplit,
        plan.max_outstanding,
        args.outstanding,
    );
    let mut t = table(&[
        "#",
        "round",
        "server",
        "region start",
        "region end",
        "split row",
        "then",
        "note",
    ]);
    let (mut issued, mut waits) = (0, 0);
    for (i, st) in plan.steps.iter().enumerate() {
        let note = match st.outcome {
            presplit::RollingOutcome::Issued => {
                issued += 1;
                String::new()
            }
            presplit::RollingOutcome::AlreadySplit => "already split there: skipped".to_string(),
            presplit::RollingOutcome::Refused => format!(
                "restricted to {}, not after the region start: refused",
                to_string_binary(&st.row)
            ),
        };
        let note = if st.outcome == presplit::RollingOutcome::Issued && st.row != st.split {
            format!("restricted to {}", to_string_binary(&st.row))
        } else {
            note
        };
        waits += usize::from(st.waits);
        t.add_row(vec![
            (i + 1).to_string(),
            st.round.to_string(),
            st.server.clone(),
            to_string_binary(&st.start),
            to_string_binary(&st.end),
            to_string_binary(&st.split),
            if st.waits { "waits" } else { "" }.to_string(),
            note,
        ]);
    }
    crate::report::align_right(&mut t, &[0, 1]);
    crate::report::fit(&mut t);
    out.push_str(&format!("{t}\n"));
    out.push_str(&format!(
        "{issued} splits issued in {} rounds; RegionSplitter waits (`then`) for an outstanding split \
         to finish after {waits} of them. \
         Assumed: each round's splits are in hbase:meta before the next round counts regions, \
         and each wait ends when one split finishes.\n",
        plan.steps.last().map_or(0, |s| s.round)
    ));
    Ok(out)
}

/// `hbase-emu split-keys`
pub fn split_keys(args: &SplitKeysArgs) -> CmdResult {
    let usage = |msg: &str, expected: &str| {
        InputError::new(msg.to_string())
            .field("--algorithm")
            .expected(expected.to_string())
    };
    if args.between.is_some() || args.rolling.is_some() {
        if args.shell.is_some() {
            return Err(InputError::new(
                "--shell prints a pre-split table's `create`; it does not apply to --between or --rolling",
            )
            .field("--shell")
            .expected("--shell with --regions")
            .into());
        }
        let text = match (&args.between, &args.rolling) {
            (Some(range), _) => split_between(args, range)?,
            (None, Some(path)) => rolling_plan_text(args, path)?,
            (None, None) => unreachable!("checked above"),
        };
        write_output(args.output.as_deref(), text.as_bytes())?;
        return Ok(());
    }
    // clap requires --regions without --between/--rolling.
    let regions = args.regions.unwrap_or_default();
    let keys = match args.algorithm {
        SplitAlgorithm::Sampled => {
            let (Some(path), Some(name)) = (&args.scenario, &args.generator) else {
                return Err(usage(
                    "sampling needs a scenario and a generator",
                    "--scenario FILE --generator NAME",
                )
                .into());
            };
            for (flag, given) in [
                ("--first-row", args.first_row.is_some()),
                ("--last-row", args.last_row.is_some()),
            ] {
                if given {
                    return Err(InputError::new(format!(
                        "{flag} does not apply to --algorithm sampled: the split keys come from the generator's own keys"
                    ))
                    .field(flag)
                    .expected("--first-row/--last-row only with --algorithm hex, decimal or uniform")
                    .into());
                }
            }
            let s = load_scenario(path, args.seed)?;
            let spec = select(&s, std::slice::from_ref(name))?[0];
            let g = plan::build_generator(&s, spec)?;
            let mut first = Vec::new();
            g.key_checked(s.workload.first_id, &mut first)?;
            crate::budget::check_samples(
                args.samples.min(s.workload.rows),
                first.len() as u64,
                crate::budget::memory_limit(None),
                "--samples",
            )?;
            presplit::sampled_split(
                g.batch(),
                (s.workload.first_id, s.workload.rows),
                args.samples,
                regions,
                Some(s.seed),
            )
            .map_err(|e| {
                let flag = match e.field.as_deref() {
                    Some("samples") => "--samples",
                    _ => "--regions",
                };
                name_generator(e, &g.name).field(flag)
            })?
        }
        other => {
            if args.scenario.is_some() || args.generator.is_some() || args.seed.is_some() {
                return Err(usage(
                    "--scenario/--generator/--seed only apply to --algorithm sampled",
                    "--algorithm sampled",
                )
                .into());
            }
            let alg = match other {
                SplitAlgorithm::Hex => Algorithm::Hex,
                SplitAlgorithm::Decimal => Algorithm::Decimal,
                SplitAlgorithm::Uniform => Algorithm::Uniform,
                SplitAlgorithm::Md5Legacy => Algorithm::Md5Legacy,
                SplitAlgorithm::Partition | SplitAlgorithm::Sampled => Algorithm::Partition,
            };
            presplit::split_keys_in(
                alg,
                regions,
                args.first_row.as_deref(),
                args.last_row.as_deref(),
            )
            .map_err(|e| {
                // The library names its own parameters; on the command line they are flags.
                let flag = match e.field.as_deref() {
                    Some("first_row") => "--first-row",
                    Some("last_row") => "--last-row",
                    _ => "--regions",
                };
                e.field(flag)
            })?
        }
    };
    if let Some(tf) = &args.shell
        && tf.len() == 2
    {
        // The same rules the scenario loader applies to [table] name and families.
        if !scenario::valid_table_name(&tf[0]) {
            return Err(InputError::new(format!(
                "{} is not a valid HBase table name",
                scenario::quoted_name(&tf[0])
            ))
            .field("--shell TABLE")
            .expected(scenario::TABLE_NAME_EXPECTED)
            .into());
        }
        if let Some(problem) = scenario::family_name_problem(&tf[1]) {
            return Err(InputError::new(problem)
                .field("--shell FAMILY")
                .expected(scenario::FAMILY_NAME_EXPECTED)
                .into());
        }
    }
    let text = match &args.shell {
        Some(tf) if tf.len() == 2 => presplit::shell_create_command(&tf[0], &tf[1], &keys) + "\n",
        _ => presplit::render_splits_file(&keys),
    };
    write_output(args.output.as_deref(), text.as_bytes())?;
    Ok(())
}

/// `hbase-emu config`
pub fn config(args: &ConfigArgs) -> CmdResult {
    let (mut site, attrs) = match &args.scenario {
        Some(p) => {
            let s = scenario::load(p)?;
            (s.site, s.table.attributes)
        }
        None => (SiteConfig::with_defaults(), TableAttributes::default()),
    };
    for f in &args.configs {
        site.load_file(f)?;
    }
    for kv in &args.sets {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(InputError::new(format!("`{kv}` is not KEY=VALUE"))
                .field("--set")
                .expected("e.g. --set hbase.hregion.max.filesize=2147483648")
                .into());
        };
        if k.trim().is_empty() {
            return Err(InputError::new(format!("`{kv}` has an empty key"))
                .field("--set")
                .expected("KEY=VALUE with a property name, e.g. --set hbase.hregion.max.filesize=2147483648")
                .into());
        }
        site.set(k.trim(), v.trim(), Origin::CommandLine)?;
    }
    // Type and range checks, as `check` makes them: a value HBase would refuse is an error here too.
    let settings = Settings::resolve(&site, &attrs)?;
    let warnings = all_warnings(&site, &settings);
    let mut eff = config::effective(&site, &attrs)?;
    // DateTieredStoreEngine reads the policy key with its own default.
    if settings.compaction_policy == CompactionPolicyClass::DateTiered {
        for e in eff.iter_mut().filter(|e| {
            e.key == "hbase.hstore.defaultengine.compactionpolicy.class"
                && matches!(e.origin, config::Origin::Default)
        }) {
            e.value = "org.apache.hadoop.hbase.regionserver.compactions.DateTieredCompactionPolicy"
                .into();
            e.note = Some("DateTieredStoreEngine's default".into());
        }
    }
    // Derived keys left unset: show what HBase derives, where the configuration determines it.
    let mut derived = vec![false; eff.len()];
    for (e, d) in eff.iter_mut().zip(derived.iter_mut()) {
        if e.value.is_empty()
            && e.note.is_some()
            && let Some(v) = config::derived_value(&settings, &e.key)
        {
            e.value = v.to_string();
            e.note = e
                .note
                .as_ref()
                .map(|n| n.replacen("unset: ", "derived: ", 1));
            *d = true;
        }
    }
    let text = match args.format {
        Format::Json => {
            let rows: Vec<serde_json::Value> = eff
                .iter()
                .zip(&derived)
                .map(|(e, d)| {
                    let mut row = serde_json::json!({
                        "key": e.key,
                        "value": e.value,
                        "human": e.human(),
                        "origin": e.origin.to_string(),
                        "derived": d,
                    });
                    if let Some(note) = &e.note {
                        row["note"] = serde_json::Value::String(note.clone());
                    }
                    row
                })
                .collect();
            // The JSON document stays an array of keys; warnings go to standard error.
            for w in &warnings {
                eprintln!("warning: {w}");
            }
            serde_json::to_string_pretty(&rows).unwrap_or_default() + "\n"
        }
        Format::Text => {
            // One key a line, in 100 columns: a value too long for the line goes on the next,
            // indented; long values wrap at their clauses.
            let w = eff.iter().map(|e| e.key.len()).max().unwrap_or(0).min(40);
            let mut s = String::new();
            for e in &eff {
                let mut value = e.display();
                if let Some(note) = &e.note {
                    if e.value.is_empty() {
                        value = note.clone();
                    } else {
                        value = format!("{value}; {note}");
                    }
                }
                let line = format!("{:<w$}  {value}  [{}]", e.key, e.origin);
                if line.chars().count() <= crate::report::TEXT_WIDTH {
                    s.push_str(&line);
                    s.push('\n');
                } else {
                    let rest = format!("    {value}  [{}]", e.origin);
                    if rest.chars().count() <= crate::report::TEXT_WIDTH {
                        s.push_str(&format!("{}\n{rest}\n", e.key));
                    } else {
                        s.push_str(&format!("{}\n    {value}\n    [{}]\n", e.key, e.origin));
                    }
                }
            }
            for w in &warnings {
                s.push_str(&format!("warning: {w}\n"));
            }
            crate::report::wrap_prose(&s)
        }
    };
    write_output(None, text.as_bytes())?;
    Ok(())
}

/// `hbase-emu diff OLD.json NEW.json`: what changed between two saved reports.
pub fn diff(args: &crate::cli::DiffArgs) -> CmdResult {
    let old = load_report(&args.old)?;
    let new = load_report(&args.new)?;
    let d = crate::experiment::diff::diff(&old, &new);
    let out = match args.format {
        Format::Text => crate::report::wrap_prose(&d.to_text()),
        Format::Json => serde_json::to_string_pretty(&d).unwrap_or_default() + "\n",
    };
    write_output(None, out.as_bytes())?;
    Ok(())
}
