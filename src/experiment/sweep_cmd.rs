//! `hbase-emu sweep` and `hbase-emu merge`: build every grid point's scenario (errors before any
//! work), run all point × design runs on a pool of threads, and write the result set.

use std::path::{Path, PathBuf};

use clap::Args;
use md5::{Digest, Md5};

use crate::argval::seed_arg;
use crate::diag::{InputError, SourceText};
use crate::engine;
use crate::experiment::bound::Bound;
use crate::experiment::figures;
use crate::experiment::sweep::{
    self, DEFAULT_FIGURES, DesignJson, PointJson, SCHEMA_VERSION, Shard, SweepJson,
};
use crate::experiment::vary::{self, Grid, Origin};
use crate::keygen::GeneratorSpec;
use crate::output::{FileSet, check_writable, write_output};
use crate::scenario::{self, Scenario, ScenarioErrors};

/// `sweep`
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Scenario file (TOML); its `[sweep]` section is the grid unless --vary is given.
    pub scenario: PathBuf,
    /// Vary KEY over the comma-separated values (repeatable; replaces the scenario's
    /// `[sweep]`). KEY: a modelled hbase-site.xml key, a scenario field as a dotted path
    /// (`cluster.regionservers`, `table.max_filesize`, `generator.NAME.buckets`) or `servers`.
    #[arg(long = "vary", value_name = "KEY=V1,V2,…")]
    pub vary: Vec<String>,
    /// Run only these generators (by name; repeatable).
    #[arg(long = "generator", value_name = "NAME")]
    pub generators: Vec<String>,
    /// Figures of the table and HTML page, comma-separated (short or qualified names; default
    /// sim_seconds, blocked_seconds, regions_final, splits, max_server_write_share,
    /// cold_regions). sweep.json and sweep.csv always hold every figure.
    #[arg(long, value_delimiter = ',', value_name = "A,B,…")]
    pub figures: Vec<String>,
    /// Write sweep.json, sweep.csv and sweep.html into this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Run only the points whose index % N == I − 1 (I from 1); `merge` joins the slices.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Print the point (and runner-up) with the smallest value of this figure.
    #[arg(long, value_name = "FIGURE")]
    pub minimise: Option<String>,
    /// With --minimise: consider only this design (default: every point × design).
    #[arg(long, value_name = "NAME", requires = "minimise")]
    pub design: Option<String>,
    /// With --minimise: a bound every candidate must meet, e.g. `max_server_write_share < 0.2`
    /// (repeatable).
    #[arg(long = "subject-to", value_name = "EXPECTATION", requires = "minimise")]
    pub subject_to: Vec<String>,
    /// Override the scenario's seed (every point uses it).
    #[arg(long, allow_negative_numbers = true, value_parser = seed_arg)]
    pub seed: Option<u64>,
    /// Threads, scale and memory limit (for every point).
    #[command(flatten)]
    pub emulation: crate::argval::EmulationArgs,
    /// No progress bar on standard error.
    #[arg(long)]
    pub quiet: bool,
}

/// `merge`
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Directories written by `sweep --shard I/N --out DIR` (each holds sweep.json).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Write the whole sweep's sweep.json, sweep.csv and sweep.html here.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Figures of the table and HTML page (as for `sweep`).
    #[arg(long, value_delimiter = ',', value_name = "A,B,…")]
    pub figures: Vec<String>,
}

/// A point ready to run.
struct Point {
    index: usize,
    scenario: Scenario,
}

/// `hbase-emu sweep SCENARIO`
pub fn sweep(args: &SweepArgs) -> Result<(), ScenarioErrors> {
    let src = scenario::read_source(&args.scenario, "scenario file")?;
    let base = scenario::load_source(src.clone())?;
    let grid = if args.vary.is_empty() {
        vary::from_scenario(&base.sweep, &src)?
    } else {
        vary::from_flags(&args.vary)?
    };
    if grid.is_empty() {
        return Err(InputError::new("the sweep varies nothing")
            .in_file(&src.path)
            .field("--vary")
            .expected("--vary KEY=V1,V2,… or a `[sweep] vary = { KEY = [V1, V2] }` section")
            .into());
    }
    if grid.len() > sweep::MAX_GRID_POINTS {
        let sizes: Vec<String> = grid
            .axes
            .iter()
            .map(|a| format!("{} ({})", a.key, a.values.len()))
            .collect();
        let count = match grid.len() {
            usize::MAX => "more than 10^19".to_string(),
            n => crate::units::thousands(n as u128),
        };
        return Err(InputError::new(format!(
            "the sweep's grid has {count} points ({}); refused before building any",
            sizes.join(" × ")
        ))
        .in_file(&src.path)
        .field(if args.vary.is_empty() {
            "[sweep] vary"
        } else {
            "--vary"
        })
        .expected(format!(
            "at most {} points: fewer values or fewer keys (each point runs every design)",
            crate::units::thousands(sweep::MAX_GRID_POINTS as u128)
        ))
        .into());
    }
    let chosen = chosen_figures(&args.figures)?;
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(|m| {
            InputError::new(m)
                .field("--shard")
                .expected("I/N with 1 ≤ I ≤ N, e.g. 2/8")
        })?;
    let bounds = args
        .subject_to
        .iter()
        .map(|t| {
            Bound::parse(t).map_err(|e| {
                InputError::new(e.message)
                    .field(format!("--subject-to {t}"))
                    .expected("FIGURE OP VALUE or FIGURE in LOW..HIGH")
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(f) = &args.minimise {
        figures::is_known(f).map_err(|e| InputError::new(e.to_string()).field("--minimise"))?;
    }
    let designs = select(&base, &args.generators)?;
    if let Some(d) = &args.design
        && !designs.iter().any(|x| x == d)
    {
        return Err(InputError::new(format!("no design `{d}` in this sweep"))
            .field("--design")
            .expected(format!("one of: {}", designs.join(", ")))
            .into());
    }
    if let Some(dir) = &args.out {
        check_writable(dir, "--out")?;
    }
    let doc: toml::Table = toml::from_str(&src.text)
        .map_err(|e| InputError::new(e.message().to_string()).in_file(&src.path))?;
    let indices: Vec<usize> = (0..grid.len())
        .filter(|i| shard.is_none_or(|s| s.holds(*i)))
        .collect();
    let threads = args.emulation.threads();
    // Every point is built and checked before any runs: a bad value fails in seconds.
    let mut points = Vec::with_capacity(indices.len());
    // Every point's runs, one core's seconds each: the sweep's time is their sum over the
    // workers (a single point passing the per-run bound does not make a thousand of them cheap).
    let mut run_seconds: u64 = 0;
    let mut rows: u64 = 0;
    for &index in &indices {
        let text =
            vary::point_text(&doc, &grid, index).map_err(|e| place(e, &grid, index, &src))?;
        let mut s = scenario::load_source(SourceText::from_string(src.path.clone(), text))
            .map_err(|errs| {
                ScenarioErrors(
                    errs.0
                        .into_iter()
                        .map(|e| point_error(e, &grid, index, &src))
                        .collect(),
                )
            })?;
        if let Some(seed) = args.seed {
            s.seed = seed;
        }
        crate::budget::check(&s).map_err(|e| point_error(e, &grid, index, &src))?;
        let specs = specs(&s, &designs);
        let estimate = crate::budget::estimate(&s, &specs, args.emulation.scale, threads)
            .map_err(|e| point_error(e, &grid, index, &src))?;
        crate::budget::refuse(
            &s,
            &estimate,
            crate::budget::memory_limit(args.emulation.max_memory),
        )
        .map_err(|e| point_error(e, &grid, index, &src))?;
        for r in &estimate.runs {
            run_seconds = run_seconds.saturating_add(r.seconds());
        }
        rows = rows.saturating_add(estimate.emulated_rows());
        points.push(Point { index, scenario: s });
    }
    let wall = run_seconds / threads.max(1) as u64;
    let summary = format!(
        "estimate: {} point(s), {} emulated rows, about {} of wall clock on {threads} thread(s)",
        points.len(),
        crate::units::thousands(u128::from(rows)),
        crate::units::format_duration_ms(wall.saturating_mul(1000)),
    );
    if wall > crate::budget::MAX_WALL_SECONDS {
        return Err(InputError::new(format!(
            "the sweep would take too long ({summary}); refused before running"
        ))
        .in_file(&src.path)
        .field(if args.vary.is_empty() {
            "[sweep] vary"
        } else {
            "--vary"
        })
        .expected(
            "a sweep within a day: fewer or smaller points (the largest `workload.data`), a \
             coarser --scale, or --shard I/N across machines",
        )
        .into());
    }
    if !args.quiet && wall > crate::budget::LONG_RUN_SECONDS {
        eprintln!("note: a long sweep; {summary}");
    }
    let results = run_points(&points, &designs, args, threads, &grid, &src)?;
    let result = SweepJson {
        schema_version: SCHEMA_VERSION,
        scenario: base.name.clone(),
        scenario_md5: md5_hex(src.text.as_bytes()),
        seed: args.seed.unwrap_or(base.seed),
        scale: args.emulation.scale,
        designs: designs.clone(),
        keys: grid.axes.iter().map(|a| a.key.clone()).collect(),
        values: grid
            .axes
            .iter()
            .map(|a| a.values.iter().map(json_value).collect())
            .collect(),
        points_total: grid.len(),
        shard,
        points: results,
    };
    let mut text = result.to_text(&chosen);
    if let Some(f) = &args.minimise {
        let best = sweep::minimise(&result, f, args.design.as_deref(), &bounds)
            .map_err(|m| InputError::new(m).field("--minimise"))?;
        text.push('\n');
        text.push_str(&sweep::best_text(&result, f, &best));
    }
    if let Some(dir) = &args.out {
        write_set(dir, &result, &chosen)?;
    }
    write_output(None, text.as_bytes())?;
    Ok(())
}

/// `hbase-emu merge DIR… --out DIR`
pub fn merge(args: &MergeArgs) -> Result<(), ScenarioErrors> {
    let chosen = chosen_figures(&args.figures)?;
    let mut slices = Vec::with_capacity(args.dirs.len());
    for dir in &args.dirs {
        slices.push(load(&dir.join("sweep.json"))?);
    }
    let whole = sweep::merge(slices).map_err(|e| {
        InputError::new(e.to_string())
            .field("DIR")
            .expected("the sweep.json slices of one sweep (`sweep --shard I/N`), each point once")
    })?;
    write_set(&args.out, &whole, &chosen)?;
    write_output(None, whole.to_text(&chosen).as_bytes())?;
    Ok(())
}

/// A saved sweep.json; parse errors name the file, line and column.
pub fn load(path: &Path) -> Result<SweepJson, InputError> {
    crate::output::verify_set(path)?;
    // Parsed, a slice takes several times its text; `merge` holds every slice.
    let limit = (crate::budget::memory_limit(None) / 8).min(1 << 30);
    let src = crate::diag::SourceText::read_at_most(path, "sweep.json", limit)?;
    parse(&src)
}

/// Parses a sweep.json's text and checks it is a consistent grid ([`SweepJson::validate`]).
pub fn parse(src: &SourceText) -> Result<SweepJson, InputError> {
    let path = &src.path;
    let s: SweepJson = serde_json::from_str(&src.text).map_err(|e| {
        InputError::new(format!("line {}, column {}: {e}", e.line(), e.column()))
            .in_file(path)
            .expected("a sweep.json written by `hbase-emu sweep --out DIR`")
    })?;
    if s.schema_version != SCHEMA_VERSION {
        return Err(
            InputError::new(format!("unsupported schema_version {}", s.schema_version))
                .in_file(path)
                .field("schema_version")
                .expected(SCHEMA_VERSION.to_string()),
        );
    }
    s.validate().map_err(|(field, problem)| {
        InputError::new(problem)
            .in_file(path)
            .field(field)
            .expected(
                "a sweep.json as `hbase-emu sweep --out DIR` wrote it: the grid's values at each \
                 point's index, every design, indices within `points_total`",
            )
    })?;
    Ok(s)
}

fn write_set(dir: &Path, result: &SweepJson, chosen: &[String]) -> Result<(), InputError> {
    let mut set = FileSet::begin(dir, "--out")?;
    set.write("sweep.json", result.to_json().as_bytes())?;
    set.write("sweep.csv", result.to_csv().as_bytes())?;
    set.write(
        "sweep.html",
        crate::report::sweep_html::render(result, chosen).as_bytes(),
    )?;
    set.finish()
}

fn chosen_figures(names: &[String]) -> Result<Vec<String>, InputError> {
    let chosen: Vec<String> = if names.is_empty() {
        DEFAULT_FIGURES.iter().map(|s| s.to_string()).collect()
    } else {
        names.iter().map(|s| s.trim().to_string()).collect()
    };
    sweep::check_figures(&chosen).map_err(|e| InputError::new(e.to_string()).field("--figures"))?;
    Ok(chosen)
}

/// Design names to run: all generators, or those named (each once, scenario order kept).
fn select(s: &Scenario, names: &[String]) -> Result<Vec<String>, InputError> {
    let all: Vec<String> = s
        .generators
        .iter()
        .map(|g| g.name.get_ref().clone())
        .collect();
    if let Some(bad) = names.iter().find(|n| !all.contains(n)) {
        return Err(InputError::new(format!(
            "scenario has no generator named {}",
            scenario::quoted_name(bad)
        ))
        .in_file(&s.source.path)
        .field("--generator")
        .expected(format!("one of: {}", all.join(", "))));
    }
    Ok(all
        .into_iter()
        .filter(|g| names.is_empty() || names.contains(g))
        .collect())
}

fn specs<'a>(s: &'a Scenario, designs: &[String]) -> Vec<&'a GeneratorSpec> {
    s.generators
        .iter()
        .filter(|g| designs.contains(g.name.get_ref()))
        .collect()
}

/// A point's validation error: names the point and its values, placed at the `[sweep]` key
/// it most likely concerns (the one whose path the error names, else the first).
fn point_error(e: InputError, grid: &Grid, index: usize, src: &SourceText) -> InputError {
    let mut out = InputError::new(format!(
        "sweep point {index} ({}): {}",
        grid.describe(index),
        e.problem
    ));
    if let Some(f) = &e.field {
        out = out.field(f.clone());
    }
    if let Some(x) = &e.expected {
        out = out.expected(x.clone());
    }
    place(out, grid, index, src)
}

/// Places a point's error: at the `[sweep]` value the point took (at the key when the key
/// itself is wrong), or names the `--vary` flag.
fn place(e: InputError, grid: &Grid, index: usize, src: &SourceText) -> InputError {
    let coords = grid.coordinates(index);
    let found = grid
        .axes
        .iter()
        .position(|a| e.field.as_deref() == Some(a.key.as_str()));
    let at = found.or((!grid.axes.is_empty()).then_some(0));
    let axis = at.map(|i| &grid.axes[i]);
    match (at, axis.map(|a| &a.origin)) {
        (Some(i), Some(Origin::File { key, values })) => {
            let span = if found.is_none() || e.problem.contains("unknown field") {
                key
            } else {
                values.get(coords[i]).unwrap_or(key)
            };
            e.at(src, span.clone())
        }
        _ => {
            let key = axis.map(|a| a.key.as_str()).unwrap_or("");
            let e = e.in_file(&src.path);
            if e.field.is_some() {
                e
            } else {
                e.field(format!("--vary {key}"))
            }
        }
    }
}

fn json_value(v: &toml::Value) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

fn md5_hex(bytes: &[u8]) -> String {
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Runs every point × design on `threads` workers. Each run is deterministic and independent,
/// so how many run at once changes only the wall time; results are put back in grid order.
fn run_points(
    points: &[Point],
    designs: &[String],
    args: &SweepArgs,
    threads: usize,
    grid: &Grid,
    src: &SourceText,
) -> Result<Vec<PointJson>, InputError> {
    let mut jobs = Vec::new();
    for (p, point) in points.iter().enumerate() {
        for (d, g) in specs(&point.scenario, designs).into_iter().enumerate() {
            let plan = crate::plan::plan_run(&point.scenario, g)
                .map_err(|e| point_error(e, grid, point.index, src))?;
            jobs.push((p, d, plan));
        }
    }
    let total = jobs.len();
    let parallel = threads.min(total).max(1);
    let per_run = (threads / parallel).max(1);
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar = (!args.quiet && terminal).then(|| {
        let b = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("sweep [{bar:40}] {pos}/{len} runs (eta {eta})")
        {
            b.set_style(style.progress_chars("=> "));
        }
        b
    });
    let keys: Vec<usize> = jobs.iter().map(|&(p, _, _)| p).collect();
    let results = crate::workqueue::run_in_order(jobs, parallel, |_, (p, _, plan)| {
        let s = &points[p].scenario;
        let opts = engine::RunOptions {
            scale: args.emulation.scale,
            threads: per_run,
            builder: threads >= 2,
            reference: false,
        };
        // Reduced to figures at once: a point's runs are not all held in memory.
        let r = engine::run(s, plan, opts).map(|r| {
            let report = crate::report::run::build(s, std::slice::from_ref(&r));
            let figs = report.runs.first().map(figures::all).unwrap_or_default();
            DesignJson::new(&r.generator, &figs)
        });
        if let Some(b) = &bar {
            b.inc(1);
        }
        r
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let mut out: Vec<PointJson> = points
        .iter()
        .map(|p| PointJson {
            index: p.index,
            values: grid.point(p.index).into_iter().map(json_value).collect(),
            designs: Vec::with_capacity(designs.len()),
        })
        .collect();
    for (p, r) in keys.into_iter().zip(results) {
        let d = r.map_err(|e| point_error(e, grid, points[p].index, src))?;
        out[p].designs.push(d);
    }
    Ok(out)
}
