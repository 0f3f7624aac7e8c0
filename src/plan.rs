//! The resolved plan of a scenario run before any write: the generator, its split keys, the
//! initial regions and the servers they open on. `hbase-emu check` prints it; the engine starts
//! from it.

use serde::Serialize;

use crate::assignment;
use crate::diag::InputError;
use crate::keygen::{self, BuildContext, Generator, GeneratorSpec};
use crate::keynotation::to_string_binary;
use crate::presplit;
use crate::scenario::loader::{Loader, Partition};
use crate::scenario::{Initial, InitialServers, LoadPath, Presplit, Scenario};

/// One initial region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionPlan {
    /// Start key (inclusive); empty = start of table.
    pub start: Vec<u8>,
    /// End key (exclusive); empty = end of table.
    pub end: Vec<u8>,
    /// Index of the RegionServer it opens on.
    pub server: usize,
    /// Store file bytes it opens with (0 for a pre-split region; `[initial]` gives them).
    pub store_bytes: u64,
    /// Store files it opens with, of equal size (all families).
    pub store_files: u64,
}

/// One generator's run, planned.
pub struct RunPlan {
    /// The built generator.
    pub generator: Generator,
    /// Sorted split keys (regions − 1 of them).
    pub split_keys: Vec<Vec<u8>>,
    /// Initial regions in key order, tiling the key space.
    pub regions: Vec<RegionPlan>,
    /// How the split keys were made, for people.
    pub presplit: String,
    /// How the design's rows reach the table.
    pub load: LoadPath,
    /// The design's loader: its clients, which rows each writes, open or closed loop.
    pub loader: Loader,
    /// The layout's key groups (salt bucket, tenant prefix), for `partition = "key_group"`.
    pub grouping: Option<crate::keygen::Grouping>,
}

/// Builds the generator for `spec`, placing its errors in the scenario file.
pub fn build_generator(scenario: &Scenario, spec: &GeneratorSpec) -> Result<Generator, InputError> {
    let base_dir = scenario
        .source
        .path
        .parent()
        .unwrap_or(std::path::Path::new("."));
    let ctx = BuildContext {
        seed: scenario.seed,
        base_dir,
        ids: (scenario.workload.first_id, scenario.workload.rows),
    };
    keygen::build(spec, &ctx).map_err(|e| {
        e.locate(&scenario.source, spec.name.span())
            .field_if_unset("generator")
    })
}

/// Places a pre-split error at the scenario's `[table.presplit]` unless it has a place already.
fn locate(scenario: &Scenario, e: InputError) -> InputError {
    let field = match e.field.as_deref() {
        Some(f) if !f.starts_with("table.") => format!("table.presplit.{f}"),
        Some(f) => f.to_string(),
        None => "table.presplit".to_string(),
    };
    // A problem with the row range points at the row's own value.
    let row = match field.as_str() {
        "table.presplit.first_row" => scenario.table.row_spans[0].clone(),
        "table.presplit.last_row" => scenario.table.row_spans[1].clone(),
        _ => None,
    };
    let e = e.field(field);
    // Spans from the split algorithms are relative to their own inputs, not to the scenario.
    if e.file.is_some() {
        e
    } else {
        let span = row.unwrap_or_else(|| scenario.table.presplit_span.clone());
        e.at(&scenario.source, span)
    }
}

/// Plans the run of one generator.
pub fn plan_run(scenario: &Scenario, spec: &GeneratorSpec) -> Result<RunPlan, InputError> {
    let mut plan = plan_layout(scenario, spec)?;
    if plan.load == LoadPath::Puts {
        plan.loader = design_loader(scenario, spec)?;
        plan.grouping = spec.kind.get_ref().key_group(spec).map(|g| g.grouping);
    } else if spec.clients.is_some()
        || spec.partition.is_some()
        || spec.r#loop.is_some()
        || spec.buffering.is_some()
    {
        let span = [&spec.partition, &spec.r#loop]
            .into_iter()
            .flatten()
            .map(|s| s.span())
            .chain(spec.clients.as_ref().map(|c| c.span()))
            .next()
            .unwrap_or(spec.name.span());
        return Err(InputError::new(format!(
            "design `{}` is loaded in bulk: it has no Put clients to organise",
            spec.name.get_ref()
        ))
        .field("generator.clients")
        .expected("no clients, partition or loop on a bulk-loaded design")
        .at(&scenario.source, span));
    }
    Ok(plan)
}

/// A Put design's loader, and what it cannot have: reads and updates pick among the rows
/// written before in input order, which only one client or clients taking the next row keep.
fn design_loader(scenario: &Scenario, spec: &GeneratorSpec) -> Result<Loader, InputError> {
    let loader =
        scenario
            .client
            .loader
            .for_design(spec)
            .map_err(|(span, field, problem, expected)| {
                InputError::new(problem)
                    .field(field)
                    .expected(expected)
                    .at(&scenario.source, span)
            })?;
    let in_order = matches!(loader.partition, Partition::Shared | Partition::NextRow);
    let w = &scenario.workload;
    let needs_order = if w.reads.is_some() {
        Some("[workload.reads] reads rows written before, in input order")
    } else if w.update_fraction > 0.0 || w.delete_fraction > 0.0 {
        Some("updates and deletes touch rows written before, in input order")
    } else {
        None
    };
    if let (false, Some(p)) = (in_order, needs_order) {
        let span = spec
            .partition
            .as_ref()
            .map_or(spec.name.span(), |s| s.span());
        return Err(InputError::new(format!(
            "design `{}` has partition = \"{}\", which writes rows out of input order, but {p}",
            spec.name.get_ref(),
            loader.partition.name()
        ))
        .field("generator.partition")
        .expected(
            "partition = \"next_row\" for this design, or a scenario without reads and updates",
        )
        .at(&scenario.source, span));
    }
    Ok(loader)
}

/// The regions and load path of one generator's run.
fn plan_layout(scenario: &Scenario, spec: &GeneratorSpec) -> Result<RunPlan, InputError> {
    let generator = build_generator(scenario, spec)?;
    let load = LoadPath::of(spec).map_err(|problem| {
        InputError::new(problem)
            .field("generator.load")
            .expected(crate::scenario::LOAD_EXPECTED)
            .at(&scenario.source, spec.name.span())
    })?;
    if load == LoadPath::Bulk {
        bulk_fits(scenario, spec)?;
    }
    let own_regions = design_regions(scenario, spec)?;
    if let Some(init) = &scenario.initial {
        return Ok(plan_initial(scenario, init, generator, load));
    }
    let w = &scenario.workload;
    let mut presplit_spec = scenario.table.presplit.clone();
    if let Some(n) = own_regions {
        match &mut presplit_spec {
            Presplit::Algorithm { regions, .. } | Presplit::Sampled { regions, .. } => {
                *regions = n;
            }
            _ => unreachable!("design_regions accepts only counted pre-splits"),
        }
    }
    let (split_keys, presplit) = match &presplit_spec {
        Presplit::None => (Vec::new(), "none (one region)".to_string()),
        Presplit::Algorithm {
            algorithm,
            regions,
            first_row,
            last_row,
        } => {
            let keys = presplit::split_keys_in(
                *algorithm,
                *regions,
                first_row.as_deref(),
                last_row.as_deref(),
            )
            .map_err(|e| locate(scenario, e))?;
            let how = format!(
                "{} ({}) into {regions} regions",
                algorithm.name(),
                algorithm.hbase_class()
            );
            (keys, how)
        }
        Presplit::Sampled { regions, samples } => {
            let keys = presplit::sampled_split(
                generator.batch(),
                (w.first_id, w.rows),
                *samples,
                *regions,
                Some(scenario.seed),
            )
            .map_err(|e| locate(scenario, e))?;
            let how = format!(
                "sampled: {samples} keys of `{}` into {regions} regions",
                generator.name
            );
            (keys, how)
        }
        Presplit::Keys(keys) => (keys.clone(), format!("{} explicit split keys", keys.len())),
        Presplit::File(path) => (
            presplit::read_splits_file(path).map_err(|e| {
                // A problem inside the file keeps its own line; one with the file as a whole
                // (unreadable, too large) points at the scenario's `file` field.
                if e.line.is_some() {
                    e
                } else {
                    let problem = format!("split file `{}`: {}", path.display(), e.problem);
                    e.reword(problem)
                        .field("table.presplit.file")
                        .at(&scenario.source, scenario.table.presplit_span.clone())
                }
            })?,
            format!("SPLITS_FILE {}", path.display()),
        ),
    };
    let servers = scenario.cluster.regionservers as usize;
    let n = split_keys.len() + 1;
    let placement = assignment::round_robin(n, servers, scenario.seed);
    let regions = (0..n)
        .map(|i| RegionPlan {
            start: if i == 0 {
                Vec::new()
            } else {
                split_keys[i - 1].clone()
            },
            end: if i + 1 == n {
                Vec::new()
            } else {
                split_keys[i].clone()
            },
            server: placement[i],
            store_bytes: 0,
            store_files: 0,
        })
        .collect();
    Ok(RunPlan {
        generator,
        split_keys,
        regions,
        presplit,
        load,
        loader: Loader::default(),
        grouping: None,
    })
}

/// What a bulk-loaded design cannot have: the rows reach the table all at once when the loader
/// runs, so nothing that follows rows as they arrive applies.
fn bulk_fits(scenario: &Scenario, spec: &GeneratorSpec) -> Result<(), InputError> {
    let w = &scenario.workload;
    let problem = if w.reads.is_some() {
        Some("[workload.reads] emulates reads as the rows arrive")
    } else if w.update_fraction > 0.0 || w.delete_fraction > 0.0 {
        Some("updates and deletes (update_fraction, delete_fraction) are Puts and Deletes")
    } else if scenario
        .events
        .iter()
        .any(|e| matches!(e.trigger, crate::scenario::EventTrigger::Rows(_)))
    {
        Some(
            "an [[event]] triggered by the data written (at_rows, at_data, at_fraction) fires as rows arrive",
        )
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(p) => {
            let span = spec.load.as_ref().map_or(spec.name.span(), |l| l.span());
            Err(InputError::new(format!(
                "design `{}` is loaded in bulk, but {p}: a bulk load delivers every row at once",
                spec.name.get_ref()
            ))
            .field("generator.load")
            .expected("load = \"puts\" for this design, or a scenario without it")
            .at(&scenario.source, span))
        }
    }
}

/// A design's own pre-split region count (`[[generator]] presplit_regions`), checked against the
/// table's pre-split: only a counted one (an algorithm or sampled keys) takes another count, a
/// sampled one needs at least as many samples, and an imported table keeps its regions.
fn design_regions(scenario: &Scenario, spec: &GeneratorSpec) -> Result<Option<u64>, InputError> {
    let Some(n) = &spec.presplit_regions else {
        return Ok(None);
    };
    let err = |problem: String, expected: &str| {
        InputError::new(problem)
            .field("generator.presplit_regions")
            .expected(expected.to_string())
            .at(&scenario.source, n.span())
    };
    if scenario.initial.is_some() {
        return Err(err(
            "an imported table ([initial]) keeps its own regions".into(),
            "no presplit_regions with [initial]",
        ));
    }
    match &scenario.table.presplit {
        Presplit::Algorithm { .. } => Ok(Some(*n.get_ref())),
        Presplit::Sampled { samples, .. } if *samples >= *n.get_ref() => Ok(Some(*n.get_ref())),
        Presplit::Sampled { samples, .. } => Err(err(
            format!("{samples} samples cannot place {} regions", n.get_ref()),
            "no more regions than [table.presplit] samples",
        )),
        _ => Err(err(
            "the table's pre-split has no region count to replace".into(),
            "[table.presplit] with an algorithm or `sampled`, which take a region count",
        )),
    }
}

/// The run of an `[initial]` scenario: the imported regions, each on its imported server (the
/// imported servers sorted by name are servers 0..n) or round-robin when rebalanced.
fn plan_initial(
    scenario: &Scenario,
    init: &Initial,
    generator: Generator,
    load: LoadPath,
) -> RunPlan {
    let t = &init.table;
    let placement = match init.servers {
        // One list for every imported table (`Scenario::imported_servers`).
        InitialServers::AsImported => t
            .regions
            .iter()
            .map(|r| scenario.imported_server_index(&r.server).unwrap_or(0))
            .collect(),
        InitialServers::Rebalance => assignment::round_robin(
            t.regions.len(),
            scenario.cluster.regionservers as usize,
            scenario.seed,
        ),
    };
    let regions: Vec<RegionPlan> = t
        .regions
        .iter()
        .zip(placement)
        .map(|(r, server)| RegionPlan {
            start: r.start.clone(),
            end: r.end.clone(),
            server,
            store_bytes: r.store_bytes,
            store_files: r.store_files,
        })
        .collect();
    RunPlan {
        generator,
        split_keys: regions.iter().skip(1).map(|r| r.start.clone()).collect(),
        presplit: format!(
            "imported: {} regions from {}",
            regions.len(),
            init.path.display()
        ),
        regions,
        load,
        loader: Loader::default(),
        grouping: None,
    }
}

/// JSON form of a region (keys in toStringBinary).
#[derive(Debug, Serialize)]
pub struct RegionJson {
    /// Start key.
    pub start: String,
    /// End key.
    pub end: String,
    /// Server name.
    pub server: String,
}

impl RunPlan {
    /// Regions with printable keys and server names.
    pub fn regions_json(&self, servers: usize) -> Vec<RegionJson> {
        self.regions
            .iter()
            .map(|r| RegionJson {
                start: to_string_binary(&r.start),
                end: to_string_binary(&r.end),
                server: assignment::server_name(r.server, servers),
            })
            .collect()
    }
}
