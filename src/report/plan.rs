//! The plan of a scenario (`hbase-emu check`): what will run, on which regions and servers.

use serde::Serialize;

use crate::assignment::server_name;
use crate::keynotation::to_string_binary;
use crate::plan::{RegionJson, RunPlan};
use crate::report::text::{keep_keys_whole, key_cell};
use crate::report::{align_right, fit, table, wrap_prose};
use crate::scenario::{ClusterEvent, EventAction, EventTrigger, ReadDistribution, Reads, Scenario};
use crate::units::{count_of, format_bytes, format_duration_ms};

/// One headline setting of `check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingLine {
    /// HBase property name.
    pub key: String,
    /// Raw effective value (bytes as digits, full class names), as `config` prints it.
    pub value: String,
    /// The value in human units (`2.00 GiB`, `5m 00s`) for byte and millisecond keys.
    pub human: Option<String>,
    /// What the text report shows (human units and raw value, simple class names).
    pub display: String,
    /// Where the value came from.
    pub origin: String,
}

/// A checked scenario and its planned runs.
pub struct PlanReport<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// Headline settings.
    pub settings: Vec<SettingLine>,
    /// One per generator run.
    pub runs: Vec<RunPlan>,
    /// Sample keys per run (toStringBinary), same order as `runs`.
    pub samples: Vec<Vec<Vec<u8>>>,
    /// Warnings from loading (e.g. final properties kept).
    pub warnings: Vec<String>,
}

#[derive(Serialize)]
struct PlanJson<'a> {
    scenario: ScenarioJson<'a>,
    settings: Vec<SettingJson<'a>>,
    warnings: &'a [String],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    expectations: Vec<ExpectJson<'a>>,
    runs: Vec<RunJson>,
    /// `[initial]`: the imported table (regions, per-server totals).
    #[serde(skip_serializing_if = "Option::is_none")]
    initial: Option<serde_json::Value>,
}

/// One `[expect]` entry as parsed (`design` is `all` for every design).
#[derive(Serialize)]
struct ExpectJson<'a> {
    design: &'a str,
    text: &'a str,
}

#[derive(Serialize)]
struct ScenarioJson<'a> {
    name: &'a str,
    path: String,
    seed: u64,
    regionservers: u64,
    heap_bytes: u64,
    rows: u64,
    first_id: u64,
    payload_bytes: u128,
    rate_bytes_per_s: u64,
    /// `--set` overrides (absent without).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    overrides: std::collections::BTreeMap<String, serde_json::Value>,
}

#[derive(Serialize)]
struct SettingJson<'a> {
    key: &'a str,
    value: &'a str,
    human: Option<&'a str>,
    origin: &'a str,
}

#[derive(Serialize)]
struct RunJson {
    generator: String,
    describe: String,
    presplit: String,
    /// "bulk" for a design loaded in bulk; left out for Puts.
    #[serde(skip_serializing_if = "Option::is_none")]
    load: Option<&'static str>,
    /// The design's loader, when it is not the one shared client.
    #[serde(skip_serializing_if = "Option::is_none")]
    loader: Option<String>,
    sample_keys: Vec<String>,
    split_keys: Vec<String>,
    regions: Vec<RegionJson>,
    regions_per_server: Vec<usize>,
}

impl PlanReport<'_> {
    fn regions_per_server(&self, run: &RunPlan) -> Vec<usize> {
        let mut counts = vec![0; self.scenario.cluster.regionservers as usize];
        for r in &run.regions {
            counts[r.server] += 1;
        }
        counts
    }

    /// JSON document (documented in docs/REPORT.md).
    pub fn to_json(&self) -> String {
        let s = self.scenario;
        let w = &s.workload;
        let doc = PlanJson {
            scenario: ScenarioJson {
                name: &s.name,
                path: s.source.path.display().to_string(),
                seed: s.seed,
                regionservers: s.cluster.regionservers,
                heap_bytes: s.cluster.heap_bytes,
                rows: w.rows,
                first_id: w.first_id,
                payload_bytes: w.payload_bytes(),
                rate_bytes_per_s: w.rate_bytes_per_s,
                overrides: crate::report::overrides::to_json(&s.overrides),
            },
            settings: self
                .settings
                .iter()
                .map(|l| SettingJson {
                    key: &l.key,
                    value: &l.value,
                    human: l.human.as_deref(),
                    origin: &l.origin,
                })
                .collect(),
            warnings: &self.warnings,
            expectations: s
                .expectations
                .iter()
                .map(|e| ExpectJson {
                    design: e.design.as_deref().unwrap_or(crate::scenario::ALL_DESIGNS),
                    text: &e.text,
                })
                .collect(),
            initial: s.initial.as_ref().map(|i| {
                serde_json::json!({
                    "file": i.path.display().to_string(),
                    "table": i.table.table,
                    "regions": i.table.regions,
                    "servers": i.table.server_totals(),
                    "store_bytes": i.table.total_store_bytes(),
                })
            }),
            runs: self
                .runs
                .iter()
                .zip(&self.samples)
                .map(|(r, samples)| RunJson {
                    generator: r.generator.name.clone(),
                    describe: r.generator.layout().describe(),
                    presplit: r.presplit.clone(),
                    load: (r.load == crate::scenario::LoadPath::Bulk).then_some("bulk"),
                    loader: (!r.loader.is_shared()).then(|| r.loader.describe(s.client.writers)),
                    sample_keys: samples.iter().map(|k| to_string_binary(k)).collect(),
                    split_keys: r.split_keys.iter().map(|k| to_string_binary(k)).collect(),
                    regions: r.regions_json(s.cluster.regionservers as usize),
                    regions_per_server: self.regions_per_server(r),
                })
                .collect(),
        };
        let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
        out.push('\n');
        out
    }

    /// Text for people.
    pub fn to_text(&self) -> String {
        let s = self.scenario;
        let w = &s.workload;
        let n_servers = s.cluster.regionservers as usize;
        let mut o = String::new();
        let mut elided = false;
        o.push_str(&format!("Scenario  {}\n", s.name));
        o.push_str(&format!(
            "File      {}  (seed {})\n",
            s.source.path.display(),
            s.seed
        ));
        if !s.overrides.is_empty() {
            o.push_str(&crate::report::overrides::text_line(
                &crate::report::overrides::to_json(&s.overrides),
            ));
        }
        o.push_str(&format!(
            "Cluster   {}, heap {} each\n",
            count_of(
                u128::from(s.cluster.regionservers),
                "RegionServer",
                "RegionServers"
            ),
            format_bytes(s.cluster.heap_bytes)
        ));
        if s.events
            .iter()
            .any(|e| matches!(e.action, EventAction::Kill(_)))
        {
            o.push_str(&format!(
                "          failure detection {}, WAL replay at {}/s\n",
                format_duration_ms(s.cluster.failure_detection_ms),
                format_bytes(s.cluster.wal_replay_bandwidth)
            ));
        }
        for f in &s.cluster.site_files {
            o.push_str(&format!("          site file {}\n", f.display()));
        }
        let h = &s.cluster.hardware;
        o.push_str(&format!(
            "Hardware  {} per node: {} disks × {}/s, NIC {}/s, {} cores; dfs.replication {}\n",
            h.profile,
            h.disks,
            format_bytes(h.disk_bandwidth),
            format_bytes(h.network),
            h.cores,
            s.settings.client.replication
        ));
        o.push_str(&format!(
            "Client    {} × {} write buffer\n",
            count_of(u128::from(s.client.writers), "writer", "writers"),
            format_bytes(s.settings.client.write_buffer)
        ));
        if self
            .runs
            .iter()
            .any(|r| r.load == crate::scenario::LoadPath::Bulk)
        {
            let j = &s.bulk_job;
            let b = &s.settings.bulk_load;
            o.push_str(&format!(
                "Bulk job  {} task(s) at once per node, a task sorts and writes ≤ {}/s \
                 (assumed), startup {} ([bulk_load]); HFiles roll at {} \
                 (hbase.hregion.max.filesize of the job)\n",
                j.slots_per_node,
                format_bytes(j.task_rate),
                format_duration_ms(j.startup_ms),
                format_bytes(b.job_roll_size)
            ));
            o.push_str(&format!(
                "Loader    at most {} HFiles per region and family, {} thread(s), \
                 hbase.bulkload.retries.number {} (at least regions + 1 rounds); compaction \
                 after the load {}, favored nodes {}\n",
                b.max_files_per_region_family,
                b.loader_threads.unwrap_or(h.cores),
                b.retries,
                if b.compact_after { "on" } else { "off" },
                if b.locality_sensitive { "on" } else { "off" }
            ));
        }
        let fams: Vec<String> = s
            .table
            .families
            .iter()
            .map(|f| {
                if f.codec == crate::codec::Codec::None {
                    return format!(
                        "{} (BLOCKSIZE {}, compression ratio {})",
                        f.name,
                        format_bytes(f.block_size),
                        f.compression_ratio
                    );
                }
                let from = if f.ratio_given {
                    "measured".to_string()
                } else if s.workload.compressibility_given {
                    format!("compressibility {}", s.workload.compressibility)
                } else {
                    "compressibility 1 assumed".to_string()
                };
                format!(
                    "{} (BLOCKSIZE {}, {}: data blocks {:.1} % of raw, {from})",
                    f.name,
                    format_bytes(f.block_size),
                    f.codec.name(),
                    f.compression_ratio * 100.0
                )
            })
            .collect();
        o.push_str(&format!(
            "Table     {}, families {}\n",
            s.table.name,
            fams.join(", ")
        ));
        if let Some(i) = &s.initial {
            o.push_str(&format!("Initial   {}\n", i.path.display()));
            // The import's own summary, indented under it (its warnings are the scenario's).
            let t = crate::import::InitialTable {
                warnings: Vec::new(),
                ..(*i.table).clone()
            };
            for line in t.to_text().lines() {
                o.push_str(&format!("  {line}\n"));
            }
        }
        let payload = w.payload_bytes();
        let secs = payload as f64 / w.rate_bytes_per_s as f64;
        o.push_str(&format!(
            "Workload  {} (ids {}..{}), {} × {} value + {} qualifier = {} payload\n",
            count_of(u128::from(w.rows), "row", "rows"),
            w.first_id,
            w.first_id as u128 + w.rows as u128,
            w.columns,
            format_bytes(w.value_bytes),
            format_bytes(w.qualifier_bytes),
            format_bytes(payload.min(u64::MAX as u128) as u64),
        ));
        let ingest_ms = (secs * 1000.0) as u64;
        let ingest = if ingest_ms == 0 {
            "under 1 ms".to_string()
        } else {
            format!("at least {}", format_duration_ms(ingest_ms))
        };
        o.push_str(&format!(
            "          offered at {}/s: {ingest} of ingest\n",
            format_bytes(w.rate_bytes_per_s),
        ));
        if let Some(r) = &w.reads {
            o.push_str(&format!("Reads     {}\n", reads_line(r)));
        }
        if !s.events.is_empty() {
            o.push_str("Events\n");
            for e in &s.events {
                o.push_str(&format!("  {}\n", event_line(e, n_servers)));
            }
        }
        if !self.settings.is_empty() {
            o.push_str("\nSettings\n");
            let mut t = table(&["setting", "value", "from"]);
            fit(&mut t);
            // What the origin column has left (borders, and a space each side of a cell); its
            // text is broken there at spaces or after a path's `/`, `.` or `=`, never mid-word.
            let widest = |f: fn(&SettingLine) -> &str| {
                self.settings
                    .iter()
                    .map(|l| f(l).chars().count())
                    .max()
                    .unwrap_or(0)
            };
            let room = crate::report::TEXT_WIDTH
                .saturating_sub(2 + 6 + widest(|l| &l.key).max(7) + widest(|l| &l.display))
                .max(16);
            for l in &self.settings {
                t.add_row(vec![
                    l.key.clone(),
                    l.display.clone(),
                    crate::report::break_lines(&l.origin, room),
                ]);
            }
            // Property names and values stay whole; where they came from wraps.
            keep_keys_whole(&mut t, &[0, 1]);
            o.push_str(&t.to_string());
            o.push('\n');
        }
        for w in &self.warnings {
            o.push_str(&format!("warning: {w}\n"));
        }
        if !s.expectations.is_empty() {
            o.push_str("\nExpectations (checked after `run`; it exits 1 when one fails)\n");
            for e in &s.expectations {
                let design = e.design.as_deref().unwrap_or(crate::scenario::ALL_DESIGNS);
                o.push_str(&format!("  {design}: {}\n", e.text));
            }
        }
        for (run, samples) in self.runs.iter().zip(&self.samples) {
            o.push_str(&format!(
                "\nRun `{}`: {}\n",
                run.generator.name,
                run.generator.layout().describe()
            ));
            for (i, k) in samples.iter().enumerate() {
                let label = if i == 0 { "sample keys" } else { "" };
                o.push_str(&format!(
                    "  {label:<12} {}\n",
                    key_cell(&to_string_binary(k), SAMPLE_KEY_WIDTH, &mut elided)
                ));
            }
            o.push_str(&format!("  pre-split    {}\n", run.presplit));
            if run.load == crate::scenario::LoadPath::Puts && !run.loader.is_shared() {
                o.push_str(&format!(
                    "  loader       {}\n",
                    run.loader.describe(s.client.writers)
                ));
            }
            if run.load == crate::scenario::LoadPath::Bulk {
                o.push_str(&format!(
                    "  load         in bulk: {} job tasks (one per region), no WAL, no memstore\n",
                    run.regions.len()
                ));
            }
            let mut t = table(&["#", "start key", "end key", "server"]);
            fit(&mut t);
            align_right(&mut t, &[0]);
            for (i, r) in run.regions.iter().enumerate() {
                t.add_row(vec![
                    (i + 1).to_string(),
                    key_cell(&to_string_binary(&r.start), REGION_KEY_WIDTH, &mut elided),
                    key_cell(&to_string_binary(&r.end), REGION_KEY_WIDTH, &mut elided),
                    server_name(r.server, n_servers),
                ]);
            }
            keep_keys_whole(&mut t, &[1, 2]);
            o.push_str(&t.to_string());
            o.push('\n');
            let per: Vec<String> = self
                .regions_per_server(run)
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{} {}", server_name(i, n_servers), c))
                .collect();
            o.push_str(&format!("  regions per server  {}\n", per.join(", ")));
        }
        if elided {
            o.push_str(&format!(
                "(long keys shortened with … in the middle: over {REGION_KEY_WIDTH} characters \
                 in a region table, over {SAMPLE_KEY_WIDTH} among the samples; \
                 --format json gives them whole)\n"
            ));
        }
        wrap_prose(&o)
    }
}

/// Widest key in the pre-split table (two key columns in 100).
const REGION_KEY_WIDTH: usize = 40;
/// Widest sample key line.
const SAMPLE_KEY_WIDTH: usize = 84;

/// `[workload.reads]` in one line.
fn reads_line(r: &Reads) -> String {
    let dist = match r.distribution {
        ReadDistribution::Uniform => "uniform over the rows written".to_string(),
        ReadDistribution::Zipfian { theta } => {
            format!("zipfian (theta {theta}), hot rows scattered (YCSB scrambled)")
        }
        ReadDistribution::Latest { theta } => format!("latest (theta {theta}), newest rows hot"),
        ReadDistribution::Hotspot {
            hot_fraction,
            hot_op_fraction,
        } => format!(
            "hotspot: the first {}% of rows get {}% of reads",
            hot_fraction * 100.0,
            hot_op_fraction * 100.0
        ),
    };
    format!(
        "{} gets/s, {} scans/s of {}, {dist}",
        r.gets_per_s,
        r.scans_per_s,
        count_of(u128::from(r.scan_rows), "row", "rows")
    )
}

/// One `[[event]]` in one line: where it is, when it fires, what it does.
fn event_line(e: &ClusterEvent, n_servers: usize) -> String {
    let when = match e.trigger {
        EventTrigger::Time(ns) => format!("at {}", format_duration_ms(ns / 1_000_000)),
        EventTrigger::Rows(n) => {
            format!("after {} written", count_of(u128::from(n), "row", "rows"))
        }
    };
    let what = match &e.action {
        EventAction::AddServers(n) => format!(
            "add {}",
            count_of(u128::from(*n), "RegionServer", "RegionServers")
        ),
        EventAction::Decommission(i) => format!("decommission {}", server_name(*i, n_servers)),
        EventAction::Kill(i) => format!("kill {}", server_name(*i, n_servers)),
        EventAction::Set { changes, .. } => {
            // As HBase reads them: `2g` shows as 2147483648.
            let c: Vec<String> = changes
                .iter()
                .map(|(k, v)| {
                    let e = crate::config::EffectiveValue {
                        key: k.clone(),
                        value: v.clone(),
                        origin: crate::config::Origin::Default,
                        note: None,
                    };
                    format!("{k} = {}", e.display())
                })
                .collect();
            format!("set {}", c.join(", "))
        }
        EventAction::Phase {
            rate_bytes_per_s,
            gets_per_s,
            scans_per_s,
        } => format!(
            "phase: {}",
            EventAction::phase_parts(*rate_bytes_per_s, *gets_per_s, *scans_per_s)
        ),
    };
    format!("line {:<5} {when:<30}  {what}", e.line)
}
