//! `hbase-emu advise`: recommend a pre-split for one generator of a scenario.
//!
//! 1. **Sample** the generator's keys (the block-middle ids `presplit = sampled` uses) or a key
//!    file, sorted as bytes.
//! 2. **Count regions** (docs/PRESPLIT.md, "Split-key advice"): the fewest regions per server `c`
//!    such that each region ends the load at no more than half of the size at which the table's
//!    split policy would split it, with `c` regions of the table on its server; N = c × servers.
//! 3. **Place split keys** at the sample quantiles ⌊i·M/N⌋, dropping repeats (lumpy keys) and,
//!    with `--align`, snapping each to the nearest salt-bucket / prefix boundary in the sample.
//! 4. **Emulate** the scenario with its own pre-split and with the advised one, side by side.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::config::SplitPolicy;
use crate::diag::{InputError, SourceText};
use crate::engine::policy::split::threshold_for;
use crate::engine::state::cell;
use crate::engine::{self, RunResult};
use crate::keygen::keyfile::KeyFile;
use crate::keygen::{FieldDist, GeneratorKind, GeneratorSpec};
use crate::keynotation::{to_shell_literal, to_string_binary};
use crate::output::{FileSet, write_output};
use crate::plan;
use crate::presplit::{MAX_PRESPLIT_REGIONS, Sample, render_splits_file};
use crate::report::run::RunJson;
use crate::report::{align_right, table};
use crate::scenario::{self, Presplit, Scenario, ScenarioErrors};
use crate::units::{format_bytes, format_duration_ms, thousands};

/// `advise`
#[derive(Debug, Args)]
pub struct AdviseArgs {
    /// Scenario file (TOML).
    pub scenario: PathBuf,
    /// The generator to advise for (required when the scenario has several).
    #[arg(long, value_name = "NAME")]
    pub generator: Option<String>,
    /// Number of regions (default: from data size, split size and servers; see docs/PRESPLIT.md).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::argval::seed_arg)]
    pub regions: Option<u64>,
    /// Keys to sample.
    #[arg(long, default_value_t = crate::scenario::DEFAULT_SAMPLES, allow_negative_numbers = true, value_parser = crate::argval::seed_arg)]
    pub samples: u64,
    /// Take the key distribution from this file (one toStringBinary key per line) instead of the
    /// generator; the emulation still writes the generator's keys.
    #[arg(long, value_name = "FILE")]
    pub keys: Option<PathBuf>,
    /// Snap split keys to the nearest salt-bucket / key-prefix boundary.
    #[arg(long)]
    pub align: bool,
    /// Only compute the split keys; skip the two emulation runs.
    #[arg(long)]
    pub no_emulate: bool,
    /// Write splits.txt and create.hbase into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Override the scenario's seed.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::argval::seed_arg)]
    pub seed: Option<u64>,
    /// Real rows per emulated row in the emulation runs.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::argval::scale_arg)]
    pub scale: Option<u64>,
    /// Worker threads for the emulation runs (default: the machine's cores).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::argval::threads_arg)]
    pub threads: Option<u64>,
}

/// How many regions, and the arithmetic that chose them.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionCount {
    /// The recommended region count.
    pub regions: u64,
    /// Lines of arithmetic for people.
    pub lines: Vec<String>,
    /// Advice the rule could not act on (memstore starting point, guide ranges).
    pub warnings: Vec<String>,
}

/// What the sizing rule needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct SizingInput {
    /// Estimated on-disk bytes of the whole load.
    pub data_bytes: u128,
    /// RegionServers.
    pub servers: u64,
    /// The table's split policy.
    pub policy: SplitPolicy,
    /// Desired max store size (max.filesize or the table's MAX_FILESIZE).
    pub max_filesize: u64,
    /// Initial size of the increasing policies.
    pub initial_size: u64,
    /// RegionServer heap.
    pub heap_bytes: u64,
    /// Global memstore fraction of the heap.
    pub global_memstore: f64,
    /// Memstore flush size.
    pub flush_size: u64,
    /// Column families.
    pub families: u64,
}

/// The size at which `policy` splits a region with `count` regions of its table on the server,
/// without jitter: the split policy's own threshold (`policy::split::threshold_for`), except that
/// a table that never splits is sized as if it split at max.filesize (the size guidance).
fn split_size(i: &SizingInput, count: u64) -> u64 {
    if i.policy == SplitPolicy::Disabled {
        return i.max_filesize;
    }
    let long = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    let count = u32::try_from(count).unwrap_or(u32::MAX);
    threshold_for(i.policy, long(i.max_filesize), long(i.initial_size), count).max(0) as u64
}

/// The region-count rule: the fewest regions per server `c` ≥ 1 with
/// `data / (c × servers) ≤ split_size(c) / 2`, then N = c × servers.
pub fn region_count(i: &SizingInput) -> RegionCount {
    let servers = i.servers.max(1);
    let max_c = (MAX_PRESPLIT_REGIONS / servers).max(1);
    let per_region = |c: u64| i.data_bytes / u128::from(c * servers);
    let mut c = 1;
    while c < max_c && per_region(c) > u128::from(split_size(i, c) / 2) {
        c += 1;
    }
    let n = c * servers;
    let fmt = |b: u128| format_bytes(b.min(u128::from(u64::MAX)) as u64);
    let mut lines = vec![format!(
        "rule: fewest regions per server c with data / (c × servers) ≤ ½ × split size, the \
         size {} splits at with c of the table's regions on a server{}",
        i.policy.simple_name(),
        if i.policy == SplitPolicy::Disabled {
            " (never; max.filesize taken as the size guidance)"
        } else {
            ""
        }
    )];
    if c > 1 {
        lines.push(format!(
            "c = {}: {} / {} = {} per region > {} (½ × {})",
            c - 1,
            fmt(i.data_bytes),
            (c - 1) * servers,
            fmt(per_region(c - 1)),
            format_bytes(split_size(i, c - 1) / 2),
            format_bytes(split_size(i, c - 1)),
        ));
    }
    let ok = per_region(c) <= u128::from(split_size(i, c) / 2);
    lines.push(format!(
        "c = {c}: {} / {n} = {} per region {} {} (½ × {})",
        fmt(i.data_bytes),
        fmt(per_region(c)),
        if ok { "≤" } else { ">" },
        format_bytes(split_size(i, c) / 2),
        format_bytes(split_size(i, c)),
    ));
    lines.push(format!("N = c × servers = {c} × {servers} = {n} regions"));
    let mut warnings = Vec::new();
    if !ok {
        warnings.push(format!(
            "even {n} regions ({MAX_PRESPLIT_REGIONS} at most) end above half the split size; \
             raise hbase.hregion.max.filesize"
        ));
    }
    // The guide's starting point: regions per RS whose memstores all fit at flush size.
    let fams = i.families.max(1);
    let start = (i.heap_bytes as f64 * i.global_memstore) / (i.flush_size.max(1) * fams) as f64;
    lines.push(format!(
        "check: memstore starting point = heap {} × {:.2} / (flush {} × {}) = {:.0} regions \
         per server",
        format_bytes(i.heap_bytes),
        i.global_memstore,
        format_bytes(i.flush_size),
        crate::units::count_of(u128::from(fams), "family", "families"),
        start
    ));
    if c as f64 > start {
        warnings.push(format!(
            "{c} regions per server exceed the memstore starting point ({start:.0}): when all \
             take writes at once, flushes come early and small; consider a larger max.filesize \
             or more RegionServers"
        ));
    }
    if c > 200 {
        warnings.push(format!(
            "{c} regions per server is above the reference guide's 20–200 range"
        ));
    }
    RegionCount {
        regions: n,
        lines,
        warnings,
    }
}

/// Which part of a key should stay in one region.
#[derive(Debug, Clone, PartialEq)]
pub enum Grouping {
    /// The first `n` bytes.
    Fixed(usize),
    /// The bytes before the first occurrence of the delimiter (the whole key without one).
    Delimited(Vec<u8>),
}

impl Grouping {
    /// The group (prefix) of `key`.
    pub fn group<'k>(&self, key: &'k [u8]) -> &'k [u8] {
        match self {
            Grouping::Fixed(n) => &key[..key.len().min(*n)],
            Grouping::Delimited(d) if !d.is_empty() => {
                match key.windows(d.len()).position(|w| w == d.as_slice()) {
                    Some(p) => &key[..p],
                    None => key,
                }
            }
            Grouping::Delimited(_) => key,
        }
    }
}

/// A grouping with what it stands for (`salt bucket`, `KeyPrefixRegionSplitPolicy prefix`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyGroup {
    /// For people.
    pub what: String,
    /// The rule.
    pub grouping: Grouping,
}

fn decimal_digits(n: u64) -> usize {
    n.to_string().len()
}

/// A template's first field, when it is a small-cardinality prefix (≤ 1024 values).
fn template_group(spec: &GeneratorSpec) -> Option<KeyGroup> {
    const SMALL: u64 = 1024;
    let text = spec.template.as_ref()?.get_ref().as_str();
    let rest = text.strip_prefix('{')?;
    if rest.starts_with('{') {
        return None; // `{{` is a literal brace
    }
    let close = rest.find('}')?;
    let (expr, after) = (&rest[..close], &rest[close + 1..]);
    let (value, format) = match expr.split_once(':') {
        Some((v, f)) => (v.trim(), Some(f.trim())),
        None => (expr.trim(), None),
    };
    let (name, card) = if let Some(h) = value.strip_prefix("hash(") {
        let (inner, n) = h.split_once(")%")?;
        (format!("hash({inner})%{n}"), n.trim().parse::<u64>().ok()?)
    } else {
        let fields = spec.fields.as_ref()?.get_ref();
        let f = fields.get(value)?.get_ref();
        if *f.dist.get_ref() == FieldDist::Latest {
            return None;
        }
        (
            format!("field `{value}`"),
            *f.cardinality.as_ref()?.get_ref(),
        )
    };
    if card == 0 || card > SMALL {
        return None;
    }
    let top = card - 1;
    let fixed = match format {
        Some(f) if f.starts_with("be") => f[2..].parse::<usize>().ok(),
        Some(f) if f.starts_with('x') || f.starts_with('X') => f[1..]
            .parse::<usize>()
            .ok()
            .filter(|&w| format!("{top:x}").len() <= w),
        Some(f) if f.starts_with('0') => f[1..]
            .parse::<usize>()
            .ok()
            .filter(|&w| decimal_digits(top) <= w),
        _ => None,
    };
    let grouping = match fixed {
        Some(n) => Grouping::Fixed(n),
        None => {
            // A variable-width field stays whole up to the literal that follows it.
            let d = after.bytes().next()?;
            if d == b'{' || d.is_ascii_hexdigit() {
                return None;
            }
            Grouping::Delimited(vec![d])
        }
    };
    Some(KeyGroup {
        what: format!("template prefix {name} ({card} values)"),
        grouping,
    })
}

/// The key prefixes that should stay whole for this generator and table, in priority order.
pub fn key_groups(spec: &GeneratorSpec, s: &Scenario) -> Vec<KeyGroup> {
    let mut out = Vec::new();
    match *spec.kind.get_ref() {
        GeneratorKind::Salted => {
            let buckets = spec.buckets.as_ref().map_or(1, |b| *b.get_ref());
            let decimal = spec
                .bucket_format
                .as_ref()
                .is_some_and(|f| f.get_ref() == "decimal");
            let width = if decimal {
                decimal_digits(buckets.saturating_sub(1))
            } else {
                1
            };
            out.push(KeyGroup {
                what: format!("salt bucket ({buckets} buckets)"),
                grouping: Grouping::Fixed(width),
            });
        }
        GeneratorKind::Partition => out.push(KeyGroup {
            what: "partition prefix (8-byte id % N)".into(),
            grouping: Grouping::Fixed(8),
        }),
        GeneratorKind::Modulo => out.push(KeyGroup {
            what: "modulo prefix (decimal id % N)".into(),
            grouping: Grouping::Delimited(b"_".to_vec()),
        }),
        GeneratorKind::Template => out.extend(template_group(spec)),
        _ => {}
    }
    let st = &s.settings;
    match st.split_policy {
        SplitPolicy::KeyPrefix => {
            if let Some(n) = st.key_prefix_length {
                out.push(KeyGroup {
                    what: format!("KeyPrefixRegionSplitPolicy prefix ({n} bytes)"),
                    grouping: Grouping::Fixed(n as usize),
                });
            }
        }
        SplitPolicy::DelimitedKeyPrefix => {
            if let Some(d) = &st.prefix_delimiter {
                out.push(KeyGroup {
                    what: format!(
                        "DelimitedKeyPrefixRegionSplitPolicy prefix (before `{}`)",
                        to_string_binary(d)
                    ),
                    grouping: Grouping::Delimited(d.clone()),
                });
            }
        }
        _ => {}
    }
    out
}

/// Index of the first sampled key ≥ `key`.
fn rank(sample: &Sample, key: &[u8]) -> usize {
    let (mut lo, mut hi) = (0, sample.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if sample.key(mid) < key {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Split keys at the quantiles ⌊i·M/N⌋ of the sorted sample, i = 1..N−1, without repeats or
/// empty keys. Returns the keys and how many quantiles were dropped as repeats.
pub(crate) fn quantile_keys(sample: &Sample, regions: u64) -> (Vec<Vec<u8>>, usize) {
    let m = sample.len() as u128;
    let n = u128::from(regions.max(1));
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut dropped = 0;
    for i in 1..n {
        let k = sample.key((i * m / n) as usize);
        if k.is_empty() || out.last().is_some_and(|l| l.as_slice() >= k) {
            dropped += 1;
        } else {
            out.push(k.to_vec());
        }
    }
    (out, dropped)
}

/// Snaps each quantile to the nearest group boundary in the sample (by rank: row share), so
/// no group straddles two regions. A boundary is a sample position j whose group differs from
/// j−1's, keyed by the group prefix itself (which sorts after every key of the earlier group).
pub(crate) fn aligned_keys(sample: &Sample, regions: u64, grouping: &Grouping) -> Vec<Vec<u8>> {
    let m = sample.len();
    let mut bounds: Vec<(usize, Vec<u8>)> = Vec::new();
    for j in 1..m {
        let (prev, cur) = (sample.key(j - 1), sample.key(j));
        let g = grouping.group(cur);
        if !g.is_empty() && grouping.group(prev) != g && prev < g {
            bounds.push((j, g.to_vec()));
        }
    }
    let n = u128::from(regions.max(1));
    let mut out: Vec<Vec<u8>> = Vec::new();
    for i in 1..n {
        let t = (i * m as u128 / n) as usize;
        let p = bounds.partition_point(|(j, _)| *j < t);
        let best = [p.checked_sub(1), (p < bounds.len()).then_some(p)]
            .into_iter()
            .flatten()
            .min_by_key(|&b| bounds[b].0.abs_diff(t));
        if let Some(b) = best {
            let k = &bounds[b].1;
            if out.last().is_none_or(|l| l < k) {
                out.push(k.clone());
            }
        }
    }
    out
}

/// Split keys that cut a group: sampled keys of the key's group lie on both sides of it.
pub(crate) fn cut_keys<'a>(
    sample: &Sample,
    keys: &'a [Vec<u8>],
    grouping: &Grouping,
) -> Vec<&'a [u8]> {
    keys.iter()
        .filter(|k| {
            let r = rank(sample, k);
            let g = grouping.group(k);
            r > 0 && r < sample.len() && grouping.group(sample.key(r - 1)) == g
        })
        .map(|k| k.as_slice())
        .collect()
}

/// The HBase shell statement creating the scenario's table with its families, pre-split.
pub fn create_statement(s: &Scenario, keys: &[Vec<u8>]) -> String {
    let quote = |t: &str| format!("'{}'", t.replace('\\', "\\\\").replace('\'', "\\'"));
    let mut out = format!("create {}", quote(&s.table.name));
    for f in &s.table.families {
        let _ = write!(out, ", {{NAME => {}}}", quote(&f.name));
    }
    if !keys.is_empty() {
        out.push_str(", SPLITS => [");
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&to_shell_literal(k));
        }
        out.push(']');
    }
    out.push('\n');
    out
}

/// Estimated on-disk bytes of the load, and the line explaining it.
fn data_estimate(s: &Scenario, mean_key: f64) -> (u128, String) {
    let w = &s.workload;
    let nf = s.table.families.len().max(1) as u64;
    let mut per_row = 0.0;
    let mut parts = Vec::new();
    for (i, f) in s.table.families.iter().enumerate() {
        let cells = w.columns / nf + u64::from((i as u64) < w.columns % nf);
        let kv = cell::data_size(0, f.name.len() as u64, w.qualifier_bytes, w.value_bytes) as f64
            + mean_key;
        per_row += cells as f64 * kv * f.compression_ratio;
        parts.push(format!(
            "{cells} × {kv:.1} B × {:.2} ({})",
            f.compression_ratio, f.name
        ));
    }
    let total = (w.rows as f64 * per_row) as u128;
    let line = format!(
        "data: {} rows × [{}] = {} (KeyValue bytes: key {mean_key:.1} + family + qualifier {} + \
         value {} + 20, times the compression ratio; HFile index and bloom blocks left out)",
        thousands(u128::from(w.rows)),
        parts.join(" + "),
        format_bytes(total.min(u128::from(u64::MAX)) as u64),
        w.qualifier_bytes,
        w.value_bytes
    );
    (total, line)
}

fn pick_generator<'a>(
    s: &'a Scenario,
    name: Option<&str>,
) -> Result<&'a GeneratorSpec, InputError> {
    let names: Vec<&str> = s
        .generators
        .iter()
        .map(|g| g.name.get_ref().as_str())
        .collect();
    match name {
        Some(n) => s
            .generators
            .iter()
            .find(|g| g.name.get_ref() == n)
            .ok_or_else(|| {
                InputError::new(format!(
                    "scenario has no generator named {}",
                    scenario::quoted_name(n)
                ))
                .in_file(&s.source.path)
                .field("--generator")
                .expected(format!("one of: {}", names.join(", ")))
            }),
        None if s.generators.len() == 1 => Ok(&s.generators[0]),
        None => Err(InputError::new(format!(
            "the scenario has {} generators; advice is for one",
            s.generators.len()
        ))
        .in_file(&s.source.path)
        .field("--generator")
        .expected(format!("--generator with one of: {}", names.join(", ")))),
    }
}

fn check_regions(n: u64) -> Result<(), InputError> {
    if !(2..=MAX_PRESPLIT_REGIONS).contains(&n) {
        return Err(InputError::new(format!(
            "--regions {n}: a pre-split needs between 2 and {MAX_PRESPLIT_REGIONS} regions"
        ))
        .field("--regions")
        .expected(format!("a region count in 2..={MAX_PRESPLIT_REGIONS}")));
    }
    Ok(())
}

/// Rows per region: largest deviation from the mean, as a fraction.
fn row_spread(run: &RunJson) -> f64 {
    let rows: Vec<u64> = run.regions.iter().map(|r| r.rows).collect();
    if rows.is_empty() {
        return 0.0;
    }
    let mean = rows.iter().sum::<u64>() as f64 / rows.len() as f64;
    if mean == 0.0 {
        return 0.0;
    }
    rows.iter()
        .map(|&r| (r as f64 - mean).abs() / mean)
        .fold(0.0, f64::max)
}

fn comparison(base: &RunJson, adv: &RunJson, base_how: &str) -> String {
    let secs = |x: f64| format_duration_ms((x * 1000.0).round() as u64);
    let row = |name: &str, f: &dyn Fn(&RunJson) -> String| vec![name.to_string(), f(base), f(adv)];
    let mut t = table(&["", "scenario pre-split", "advised pre-split"]);
    t.add_row(row("regions initial → final", &|r| {
        format!(
            "{} → {}",
            r.summary.regions_initial, r.summary.regions_final
        )
    }));
    t.add_row(row("splits", &|r| r.summary.splits.to_string()));
    t.add_row(row("ingest time", &|r| secs(r.summary.sim_seconds)));
    t.add_row(row("blocked", &|r| secs(r.summary.blocked_seconds)));
    t.add_row(row("cold regions", &|r| {
        r.region_sizes.cold_regions.to_string()
    }));
    t.add_row(row("max server write share", &|r| {
        format!("{:.1}%", r.hotspots.max_server_write_share * 100.0)
    }));
    t.add_row(row("region size p50 / p90", &|r| {
        format!(
            "{} / {}",
            format_bytes(r.region_sizes.p50),
            format_bytes(r.region_sizes.p90)
        )
    }));
    t.add_row(row("rows per region, max off mean", &|r| {
        format!("±{:.2}%", row_spread(r) * 100.0)
    }));
    align_right(&mut t, &[1, 2]);
    format!("Emulation (scenario pre-split: {base_how})\n{t}\n")
}

/// `hbase-emu advise SCENARIO`
pub fn advise(args: &AdviseArgs) -> Result<(), ScenarioErrors> {
    if let Some(n) = args.regions {
        check_regions(n)?;
    }
    let mut s = scenario::load(&args.scenario)?;
    if let Some(seed) = args.seed {
        s.seed = seed;
    }
    let spec = pick_generator(&s, args.generator.as_deref())?;
    let g = plan::build_generator(&s, spec)?;
    let w = &s.workload;

    let mut out = String::new();
    let _ = writeln!(
        out,
        "Split-key advice: {} — generator `{}`\n  {}",
        s.name,
        g.name,
        g.inner.describe()
    );
    let flag = |e: InputError| {
        let f = if e.field.as_deref() == Some("samples") {
            "--samples"
        } else {
            "--regions"
        };
        e.field(f)
    };
    let sample = match &args.keys {
        Some(path) => {
            let src = SourceText::read(path, "key file").map_err(|e| {
                e.field("--keys")
                    .expected("a readable UTF-8 file, one toStringBinary key per line")
            })?;
            let kf = KeyFile::parse(src, false).map_err(|e| e.field("--keys"))?;
            let n = kf.len() as u64;
            let sample =
                Sample::collect_with(&kf, (0, n), args.samples, Some(s.seed)).map_err(flag)?;
            let _ = writeln!(
                out,
                "Sample: {} of the {} keys in {} (one random line per equal block)",
                thousands(sample.len() as u128),
                thousands(u128::from(n)),
                path.display()
            );
            sample
        }
        None => {
            let sample = Sample::collect_with(
                g.inner.as_ref(),
                (w.first_id, w.rows),
                args.samples,
                Some(s.seed),
            )
            .map_err(flag)?;
            let _ = writeln!(
                out,
                "Sample: {} keys, one random id from each of as many equal blocks of ids {}..={}",
                thousands(sample.len() as u128),
                thousands(u128::from(w.first_id)),
                thousands(u128::from(w.first_id) + u128::from(w.rows) - 1)
            );
            sample
        }
    };
    let mean_key = sample.key_bytes() as f64 / sample.len().max(1) as f64;

    // Region count.
    let st = &s.settings;
    let (data, data_line) = data_estimate(&s, mean_key);
    let count = region_count(&SizingInput {
        data_bytes: data,
        servers: s.cluster.regionservers,
        policy: st.split_policy,
        max_filesize: st.max_filesize,
        initial_size: st.increasing_initial_size,
        heap_bytes: s.cluster.heap_bytes,
        global_memstore: f64::from(st.global_memstore_fraction),
        flush_size: st.flush_size,
        families: s.table.families.len() as u64,
    });
    let _ = writeln!(out, "\nRegion count");
    let _ = writeln!(out, "  {data_line}");
    for l in &count.lines {
        let _ = writeln!(out, "  {l}");
    }
    let mut warnings: Vec<String> = count.warnings.clone();
    let regions = match args.regions {
        Some(n) => {
            let _ = writeln!(
                out,
                "  --regions {n} overrides the rule's {}",
                count.regions
            );
            n
        }
        None => count.regions,
    };
    if (sample.len() as u64) < regions {
        return Err(InputError::new(format!(
            "{} sampled keys cannot place split keys for {regions} regions",
            sample.len()
        ))
        .field("--samples")
        .expected(format!(
            "at least {regions} keys (many more give better quantiles)"
        ))
        .into());
    }

    // Split keys.
    let groups = key_groups(spec, &s);
    let (mut keys, dropped) = quantile_keys(&sample, regions);
    if dropped > 0 {
        warnings.push(format!(
            "the key distribution is lumpy: {dropped} of {} quantiles repeated a key and were \
             dropped, so the advice has {} regions, not {regions}",
            regions - 1,
            keys.len() + 1
        ));
    }
    if args.align {
        match groups.first() {
            Some(kg) => {
                let aligned = aligned_keys(&sample, regions, &kg.grouping);
                let _ = writeln!(
                    out,
                    "  --align: split keys snapped to {} boundaries ({} keys)",
                    kg.what,
                    aligned.len()
                );
                if aligned.len() + 1 < regions as usize {
                    warnings.push(format!(
                        "aligned to {} there are only {} regions: the sample has too few \
                         boundaries for {regions}",
                        kg.what,
                        aligned.len() + 1
                    ));
                }
                keys = aligned;
            }
            None => warnings.push(
                "--align: this generator and split policy have no prefix to align to; keys \
                 left at the quantiles"
                    .into(),
            ),
        }
    }
    for kg in &groups {
        let cut = cut_keys(&sample, &keys, &kg.grouping);
        if cut.is_empty() {
            continue;
        }
        let shown: Vec<String> = cut
            .iter()
            .take(5)
            .map(|k| format!("`{}`", to_string_binary(k)))
            .collect();
        warnings.push(format!(
            "{} of {} split keys cut a {} in two ({}{}); rows of one prefix then land in two \
             regions{}",
            cut.len(),
            keys.len(),
            kg.what,
            shown.join(", "),
            if cut.len() > 5 { ", …" } else { "" },
            if args.align {
                ""
            } else {
                "; --align snaps split keys to the boundaries"
            }
        ));
    }
    let _ = writeln!(
        out,
        "\nSplit keys ({}, {} regions)",
        keys.len(),
        keys.len() + 1
    );
    for (i, k) in keys.iter().enumerate() {
        if keys.len() > 20 && (5..keys.len() - 5).contains(&i) {
            if i == 5 {
                let _ = writeln!(out, "  … {} more", keys.len() - 10);
            }
            continue;
        }
        let _ = writeln!(out, "  {}", to_string_binary(k));
    }

    let create = create_statement(&s, &keys);
    if let Some(dir) = &args.out {
        write_files(dir, &keys, &create)?;
        let _ = writeln!(
            out,
            "\nWrote {} and {}",
            dir.join("splits.txt").display(),
            dir.join("create.hbase").display()
        );
    }

    if !args.no_emulate {
        let (base, adv, how) = emulate(&s, spec, &keys, args)?;
        out.push('\n');
        out.push_str(&comparison(&base, &adv, &how));
    }

    if !warnings.is_empty() {
        out.push_str("\nWarnings\n");
        for wn in &warnings {
            let _ = writeln!(out, "  warning: {wn}");
        }
    }
    let _ = writeln!(out, "\nHBase shell\n{create}");
    write_output(None, out.as_bytes())?;
    Ok(())
}

fn write_files(dir: &Path, keys: &[Vec<u8>], create: &str) -> Result<(), InputError> {
    let mut set = FileSet::begin(dir, "--out")?;
    set.write("splits.txt", render_splits_file(keys).as_bytes())?;
    set.write("create.hbase", create.as_bytes())?;
    set.finish()
}

/// Runs the scenario with its own pre-split and with `keys`, two runs side by side.
fn emulate(
    s: &Scenario,
    spec: &GeneratorSpec,
    keys: &[Vec<u8>],
    args: &AdviseArgs,
) -> Result<(RunJson, RunJson, String), InputError> {
    let mut advised = s.clone();
    advised.table.presplit = Presplit::Keys(keys.to_vec());
    let base_plan = plan::plan_run(s, spec)?;
    let how = base_plan.presplit.clone();
    let adv_plan = plan::plan_run(&advised, spec)?;
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let opts = engine::RunOptions {
        scale: args.scale,
        threads: (threads / 2).max(1),
        builder: threads / 2 > 2,
    };
    let (base, adv): (Result<RunResult, _>, Result<RunResult, _>) = if threads >= 2 {
        std::thread::scope(|sc| {
            let b = sc.spawn(|| engine::run(s, base_plan, opts));
            let a = engine::run(&advised, adv_plan, opts);
            let b = b.join().unwrap_or_else(|_| {
                Err(InputError::new(
                    "the emulation of the scenario's pre-split failed",
                ))
            });
            (b, a)
        })
    } else {
        (
            engine::run(s, base_plan, opts),
            engine::run(&advised, adv_plan, opts),
        )
    };
    let json = |sc: &Scenario, r: RunResult| {
        crate::report::run::build(sc, std::slice::from_ref(&r))
            .runs
            .into_iter()
            .next()
    };
    let missing = || InputError::new("the emulation produced no run");
    let base = json(s, base?).ok_or_else(missing)?;
    let adv = json(&advised, adv?).ok_or_else(missing)?;
    Ok((base, adv, how))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::RowKeyGenerator;

    struct Keys(Vec<Vec<u8>>);
    impl RowKeyGenerator for Keys {
        fn key_into(&self, id: u64, out: &mut Vec<u8>) {
            out.extend_from_slice(&self.0[id as usize % self.0.len()]);
        }
        fn describe(&self) -> String {
            "fixed keys".into()
        }
    }

    fn sample_of(keys: Vec<Vec<u8>>) -> Sample {
        let n = keys.len() as u64;
        Sample::collect_with(&Keys(keys), (0, n), n, None).unwrap()
    }

    fn sizing(data: u128, servers: u64, policy: SplitPolicy) -> SizingInput {
        SizingInput {
            data_bytes: data,
            servers,
            policy,
            max_filesize: 10 << 30,
            initial_size: 256 << 20,
            heap_bytes: 16 << 30,
            global_memstore: 0.4,
            flush_size: 128 << 20,
            families: 1,
        }
    }

    #[test]
    fn region_count_follows_the_split_size() {
        const G: u128 = 1 << 30;
        // Constant size: 100 GiB over 5 servers at ≤ 5 GiB per region → 20 regions.
        assert_eq!(
            region_count(&sizing(100 * G, 5, SplitPolicy::ConstantSize)).regions,
            20
        );
        // Never fewer than one region per server.
        assert_eq!(
            region_count(&sizing(G, 5, SplitPolicy::Disabled)).regions,
            5
        );
        // Stepping splits a server's only region at the initial size: two per server.
        assert_eq!(
            region_count(&sizing(G, 5, SplitPolicy::Stepping)).regions,
            10
        );
        // Increasing: ½ × 256 MiB × c³ must hold 10 GiB / (5c): c = 2 (1 GiB ≤ 1 GiB).
        let r = region_count(&sizing(10 * G, 5, SplitPolicy::IncreasingToUpperBound));
        assert_eq!(r.regions, 10, "{:?}", r.lines);
        let r = region_count(&sizing(11 * G, 5, SplitPolicy::IncreasingToUpperBound));
        assert_eq!(r.regions, 15, "{:?}", r.lines);
        // The memstore starting point (16 GiB × 0.4 / 128 MiB = 51) is checked, not enforced.
        let r = region_count(&sizing(10_000 * G, 10, SplitPolicy::ConstantSize));
        assert_eq!(r.regions, 2000);
        assert!(r.warnings.iter().any(|w| w.contains("starting point")));
    }

    #[test]
    fn quantiles_drop_repeats() {
        let keys: Vec<Vec<u8>> = (0..100u8).map(|i| vec![b'a' + i / 50]).collect();
        let s = sample_of(keys);
        let (k, dropped) = quantile_keys(&s, 4);
        assert_eq!(k, [b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(dropped, 1);
    }

    #[test]
    fn align_snaps_to_nearest_bucket_and_cuts_are_found() {
        // 4 buckets of 25 keys: [b][i].
        let keys: Vec<Vec<u8>> = (0..100u8).map(|i| vec![i / 25, i]).collect();
        let s = sample_of(keys);
        let g = Grouping::Fixed(1);
        let (q, _) = quantile_keys(&s, 3);
        assert_eq!(cut_keys(&s, &q, &g).len(), 2, "{q:?}");
        // Targets 33 and 66 → boundaries at 25 and 75 (33 is 8 from 25, 17 from 50).
        let a = aligned_keys(&s, 3, &g);
        assert_eq!(a, [vec![1], vec![3]]);
        assert!(cut_keys(&s, &a, &g).is_empty());
        assert_eq!(aligned_keys(&s, 4, &g), [vec![1], vec![2], vec![3]]);
    }

    #[test]
    fn delimited_groups() {
        let g = Grouping::Delimited(b"_".to_vec());
        assert_eq!(g.group(b"ab_1"), b"ab");
        assert_eq!(g.group(b"ab"), b"ab");
        let keys: Vec<Vec<u8>> = (0..60u32)
            .map(|i| format!("{}_{:03}", i / 20, i).into_bytes())
            .collect();
        let s = sample_of(keys);
        assert_eq!(aligned_keys(&s, 3, &g), [b"1".to_vec(), b"2".to_vec()]);
    }

    #[test]
    fn template_prefix_detection() {
        let spec = crate::keygen::testutil::spec(
            "[[generator]]\nname='t'\nkind='template'\ntemplate='{region:02}_{id}'\n\
             fields.region = { dist = 'uniform', cardinality = 12 }\n",
        );
        let g = template_group(&spec).unwrap();
        assert_eq!(g.grouping, Grouping::Fixed(2));
        let spec = crate::keygen::testutil::spec(
            "[[generator]]\nname='t'\nkind='template'\ntemplate='{hash(id)%16}-{id}'\n",
        );
        assert_eq!(
            template_group(&spec).unwrap().grouping,
            Grouping::Delimited(b"-".to_vec())
        );
        let spec = crate::keygen::testutil::spec(
            "[[generator]]\nname='t'\nkind='template'\ntemplate='{md5(id):4}{id}'\n",
        );
        assert!(template_group(&spec).is_none());
    }

    #[test]
    fn create_statement_quotes_keys() {
        let s = scenario::load_source(SourceText::from_string(
            "s.toml",
            "name='t'\n[cluster]\nregionservers=2\n[table]\nname='tb'\n[workload]\nrows=10\n\
             [[generator]]\nname='g'\nkind='sequential'\n",
        ))
        .unwrap();
        let c = create_statement(&s, &[vec![0, b'\''], b"b".to_vec()]);
        assert!(c.starts_with("create 'tb', {NAME => '"), "{c}");
        assert!(c.ends_with("SPLITS => ['\\x00\\x27', 'b']\n"), "{c}");
    }
}
