//! `hbase-emu advise`: recommend a pre-split for one generator of a scenario.
//!
//! 1. **Sample** the generator's keys (the block-middle ids `presplit = sampled` uses) or a key
//!    file, sorted as bytes.
//! 2. **Count regions** (docs/PRESPLIT.md, "Split-key advice"): the rule's N, the fewest regions
//!    per server `c` such that each region ends the load at no more than half of the size at
//!    which the table's split policy would split it, with `c` regions of the table on its
//!    server; N = c × servers. The rule only proposes: see step 5.
//! 3. **Limit** regions per server (docs/PRESPLIT.md, "The limit on regions per server"): what
//!    the heap's memstore supports and at most the reference guide's 200, at the start and at
//!    the end of the load.
//! 4. **Place split keys** at the sample quantiles ⌊i·M/N⌋, dropping repeats (lumpy keys) and,
//!    with `--align`, on salt-bucket / prefix boundaries (within each group when there are more
//!    regions than groups).
//! 5. **Search** (`search`): emulate the scenario's own pre-split and advised layouts — counts
//!    around N, capped at the limit, at the table's region size and larger ones — at a coarse but
//!    guarded scale, and choose by a stated objective whose first criterion is the limit; the
//!    advice is never a layout its own emulation shows worse than the scenario's, and never one
//!    over the limit without saying which limit to relax.

mod search;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::config::SplitPolicy;
use crate::diag::{InputError, SourceText};
use crate::engine;
use crate::engine::policy::split::threshold_for;
use crate::engine::policy::write::GlobalMarks;
use crate::engine::state::cell;
use crate::keygen::GeneratorSpec;
use crate::keygen::batch::PerKey;
use crate::keygen::keyfile::KeyFile;
pub use crate::keygen::{Grouping, KeyGroup};
use crate::keynotation::{to_shell_literal, to_string_binary};
use crate::output::{FileSet, write_output};
use crate::plan;
use crate::presplit::{MAX_PRESPLIT_REGIONS, Sample, render_splits_file};
use crate::report::run::RunJson;
use crate::report::summary::WAIT_SHARE;
use crate::report::{align_right, table, wrap_prose};
use crate::scenario::{self, Presplit, Scenario, ScenarioErrors};
use crate::units::{format_bytes, format_duration_ms, thousands};
use crate::workload::scale;
use search::{Candidate, Choice, Criterion, Figures, Outcome};

/// Output format of `advise`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AdviseFormat {
    /// Tables for people.
    Text,
    /// One JSON document (fields in docs/PRESPLIT.md, "advise --format json").
    Json,
}

/// `advise`
#[derive(Debug, Args)]
pub struct AdviseArgs {
    /// Scenario file (TOML).
    pub scenario: PathBuf,
    /// The generator to advise for (required when the scenario has several).
    #[arg(long, value_name = "NAME")]
    pub generator: Option<String>,
    /// Number of regions, tried at the table's own region size only (default: the search's
    /// counts and sizes, within the limit on regions per server; see docs/PRESPLIT.md).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::argval::seed_arg)]
    pub regions: Option<u64>,
    /// Keys to sample.
    #[arg(long, default_value_t = crate::scenario::DEFAULT_SAMPLES, allow_negative_numbers = true, value_parser = crate::argval::seed_arg)]
    pub samples: u64,
    /// Take the key distribution from this file (one toStringBinary key per line) instead of the
    /// generator; the emulation still writes the generator's keys.
    #[arg(long, value_name = "FILE")]
    pub keys: Option<PathBuf>,
    /// Put split keys on salt-bucket / key-prefix boundaries: with more regions than groups,
    /// each group gets its share of the regions; with fewer, keys snap to the nearest boundary.
    #[arg(long)]
    pub align: bool,
    /// Align to the first N bytes of the key (a fixed-width prefix) instead of the generator's
    /// own group; implies --align.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=32767))]
    pub align_prefix: Option<u64>,
    /// Only compute the split keys for the rule's count; skip the emulation and the search.
    #[arg(long)]
    pub no_emulate: bool,
    /// Output format on standard output.
    #[arg(long, value_enum, default_value_t = AdviseFormat::Text)]
    pub format: AdviseFormat,
    /// Write splits.txt and create.hbase into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Override the scenario's seed.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::argval::seed_arg)]
    pub seed: Option<u64>,
    /// Real rows per emulated row in the emulation runs (default: coarse, as the scale guard
    /// allows).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::argval::scale_arg)]
    pub scale: Option<u64>,
    /// Worker threads for the emulation runs (default: the machine's cores).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::argval::threads_arg)]
    pub threads: Option<u64>,
    /// Refuse before running when the memory estimate exceeds SIZE (default: 80 % of
    /// MemAvailable, or 8 GiB where /proc/meminfo cannot be read).
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = crate::argval::memory_arg)]
    pub max_memory: Option<u64>,
}

/// How many regions, and the arithmetic that chose them.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionCount {
    /// The recommended region count.
    pub regions: u64,
    /// Lines of arithmetic for people.
    pub lines: Vec<String>,
    /// Advice the rule could not act on (a count past the pre-split ceiling).
    pub warnings: Vec<String>,
    /// The guide's memstore starting point: regions per server whose memstores all fit at
    /// flush size (heap × global memstore fraction / (flush size × families)).
    pub memstore_start: f64,
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
    /// A server's global memstore (its high mark, `GlobalMarks::of`), bytes.
    pub global_memstore_bytes: u64,
    /// The fraction of the heap that gave it (`None`: an absolute
    /// `hbase.regionserver.global.memstore.size`).
    pub global_memstore_fraction: Option<f64>,
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
    let start = memstore_regions(i);
    RegionCount {
        regions: n,
        lines,
        warnings,
        memstore_start: start,
    }
}

/// The memstore starting point of the guide: regions per server whose memstores all fit at
/// flush size (global memstore / (flush size × families)).
fn memstore_regions(i: &SizingInput) -> f64 {
    i.global_memstore_bytes as f64 / (i.flush_size.max(1) * i.families.max(1)) as f64
}

/// The reference guide's range of regions per RegionServer (HBase reference guide, "Regions per
/// RegionServer").
pub const GUIDE_RANGE: (u64, u64) = (20, 200);

/// Which rule sets the limit on regions per server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitRule {
    /// Global memstore / (flush size × families).
    Memstore,
    /// The top of the reference guide's range.
    Guide,
}

/// HBase's operational limit on one table's regions per server: the smaller of what the heap's
/// memstore supports and the top of the guide's range. A constraint of the search, not a
/// tie-breaker.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RegionLimit {
    /// Regions per server allowed (at least 1).
    pub regions_per_server: u64,
    /// The rule that binds.
    pub binding: LimitRule,
    /// The memstore rule's figure, regions per server (unrounded).
    pub memstore_regions_per_server: f64,
    /// The guide's range, regions per server.
    pub guide_range: (u64, u64),
    /// The arithmetic, for people.
    pub lines: Vec<String>,
}

/// The limit for `i`'s server, with its arithmetic.
pub fn region_limit(i: &SizingInput) -> RegionLimit {
    let mem = memstore_regions(i);
    let mem_n = (mem.floor() as u64).max(1);
    let (n, binding) = if mem_n <= GUIDE_RANGE.1 {
        (mem_n, LimitRule::Memstore)
    } else {
        (GUIDE_RANGE.1, LimitRule::Guide)
    };
    let global = match i.global_memstore_fraction {
        Some(f) => format!(
            "{} (heap {} × {f:.2})",
            format_bytes(i.global_memstore_bytes),
            format_bytes(i.heap_bytes)
        ),
        None => format!("{} (set absolutely)", format_bytes(i.global_memstore_bytes)),
    };
    let lines = vec![
        format!(
            "limit, memstore: global memstore {global} / (flush {} × {}) = {mem:.1} regions \
             per server (the guide's memstore starting point: every memstore can reach its \
             flush size at once)",
            format_bytes(i.flush_size),
            crate::units::count_of(u128::from(i.families.max(1)), "family", "families"),
        ),
        format!(
            "limit, range: {}–{} regions per server (HBase reference guide, \"Regions per \
             RegionServer\"; fewer is fine for a small table)",
            GUIDE_RANGE.0, GUIDE_RANGE.1
        ),
        format!(
            "limit: at most {n} of the table's regions per server, at the start and at the end \
             of the load ({} binds; other tables' regions on the servers would share it)",
            match binding {
                LimitRule::Memstore => format!("the memstore rule, ⌊{mem:.1}⌋ = {n},"),
                LimitRule::Guide => format!("the guide's {}", GUIDE_RANGE.1),
            }
        ),
    ];
    RegionLimit {
        regions_per_server: n,
        binding,
        memstore_regions_per_server: (mem * 10.0).round() / 10.0,
        guide_range: GUIDE_RANGE,
        lines,
    }
}

/// How `n` regions at region size `size` hold the load's data, by the rule's arithmetic.
fn hold(i: &SizingInput, size: u64, n: u64) -> search::Hold {
    let at = SizingInput {
        max_filesize: size,
        ..i.clone()
    };
    let servers = i.servers.max(1);
    let split = u128::from(split_size(&at, n.div_ceil(servers)));
    let per_region = i.data_bytes / u128::from(n.max(1));
    // Under HBase's default split-size jitter (hbase.hregion.max.filesize.jitter 0.25, ±12.5 %),
    // a region over ⅞ of the split size may split.
    if i.policy == SplitPolicy::Disabled || per_region <= split / 2 {
        search::Hold::Half
    } else if per_region <= split / 8 * 7 {
        search::Hold::Under
    } else {
        search::Hold::Over
    }
}

/// The key prefixes that should stay whole for this generator and table, in priority order.
pub fn key_groups(spec: &GeneratorSpec, s: &Scenario) -> Vec<KeyGroup> {
    let mut out: Vec<KeyGroup> = spec.kind.get_ref().key_group(spec).into_iter().collect();
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

/// Group boundaries of the sorted sample: positions j whose group differs from j−1's, each keyed
/// by the group prefix itself (which sorts after every key of the earlier group).
fn group_bounds(sample: &Sample, grouping: &Grouping) -> Vec<(usize, Vec<u8>)> {
    let mut bounds: Vec<(usize, Vec<u8>)> = Vec::new();
    for j in 1..sample.len() {
        let (prev, cur) = (sample.key(j - 1), sample.key(j));
        let g = grouping.group(cur);
        if !g.is_empty() && grouping.group(prev) != g && prev < g {
            bounds.push((j, g.to_vec()));
        }
    }
    bounds
}

/// Regions per group for `regions` over groups of `sizes` sampled keys: each group at least one,
/// the rest by share of rows (largest remainder, ties to the earlier group). Sums to `regions`
/// when `regions` ≥ the number of groups.
fn regions_per_group(sizes: &[usize], regions: u64) -> Vec<u64> {
    let m: u128 = sizes.iter().map(|&n| n as u128).sum::<u128>().max(1);
    let n = u128::from(regions);
    let mut out: Vec<u64> = sizes
        .iter()
        .map(|&z| ((n * z as u128 / m) as u64).max(1))
        .collect();
    let rem = |i: usize| n * sizes[i] as u128 % m;
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by(|&x, &y| rem(y).cmp(&rem(x)).then(x.cmp(&y)));
    let mut total: u64 = out.iter().sum();
    for &i in order.iter().cycle().take(sizes.len() * 2) {
        if total >= regions {
            break;
        }
        out[i] += 1;
        total += 1;
    }
    // Groups raised to one region may overshoot: take back from the largest allocations.
    while total > regions {
        let Some(i) = (0..out.len())
            .filter(|&i| out[i] > 1)
            .max_by_key(|&i| (out[i], usize::MAX - i))
        else {
            break;
        };
        out[i] -= 1;
        total -= 1;
    }
    out
}

/// Split keys that respect the groups of `grouping`. With at least as many regions as groups in
/// the sample, every group boundary becomes a split key and each group is cut at its own
/// quantiles into its share of the regions (salted keys: N/buckets regions per bucket). With
/// fewer, each quantile snaps to the nearest group boundary (nearest by rank: row share), so no
/// group straddles two regions.
pub(crate) fn aligned_keys(sample: &Sample, regions: u64, grouping: &Grouping) -> Vec<Vec<u8>> {
    let m = sample.len();
    let bounds = group_bounds(sample, grouping);
    let groups = bounds.len() as u64 + 1;
    let mut out: Vec<Vec<u8>> = Vec::new();
    if m > 0 && regions >= groups {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(bounds.iter().map(|b| b.0))
            .collect();
        let sizes: Vec<usize> = (0..starts.len())
            .map(|g| starts.get(g + 1).copied().unwrap_or(m) - starts[g])
            .collect();
        let per = regions_per_group(&sizes, regions);
        for (g, &start) in starts.iter().enumerate() {
            if g > 0 {
                out.push(bounds[g - 1].1.clone());
            }
            let (size, c) = (sizes[g] as u128, u128::from(per[g]));
            for i in 1..c {
                let k = sample.key(start + (i * size / c) as usize);
                if !k.is_empty() && out.last().is_none_or(|l| l.as_slice() < k) {
                    out.push(k.to_vec());
                }
            }
        }
        return out;
    }
    let n = u128::from(regions.max(1));
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

/// Group boundaries of the sample that are not split keys, when there are more regions than
/// groups: each such boundary lies inside a region, which then holds rows of two groups.
pub(crate) fn straddled_bounds(
    sample: &Sample,
    keys: &[Vec<u8>],
    grouping: &Grouping,
) -> (usize, usize) {
    let bounds = group_bounds(sample, grouping);
    let missing = bounds
        .iter()
        .filter(|(_, g)| keys.binary_search(g).is_err())
        .count();
    (missing, bounds.len())
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

/// The HBase shell statement creating the scenario's table with its families, pre-split, and
/// with `max_filesize` as the table's MAX_FILESIZE when the advice changes the region size.
pub fn create_statement(s: &Scenario, keys: &[Vec<u8>], max_filesize: Option<u64>) -> String {
    let quote = |t: &str| format!("'{}'", t.replace('\\', "\\\\").replace('\'', "\\'"));
    let mut out = format!("create {}", quote(&s.table.name));
    for f in &s.table.families {
        let _ = write!(out, ", {{NAME => {}}}", quote(&f.name));
    }
    if let Some(z) = max_filesize {
        let _ = write!(out, ", MAX_FILESIZE => '{z}'");
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

fn comparison(base: &RunJson, adv: &RunJson, base_how: &str, adv_what: &str) -> String {
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
    t.add_row(row("idle capacity", &|r| {
        format!("{:.0}%", r.region_sizes.idle_capacity * 100.0)
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
    format!("Scenario's pre-split ({base_how}) vs the advised {adv_what}, in detail\n{t}\n")
}

/// The advice as one document: what `--format json` prints and the text is rendered from.
#[derive(Debug, Clone, Serialize)]
pub struct AdviceJson {
    /// Scenario name.
    pub scenario: String,
    /// Generator advised for.
    pub generator: String,
    /// The generator's key layout, for people.
    pub keys: String,
    /// Sampled keys the advice stands on.
    pub samples: usize,
    /// Where they came from: `generator` or the key file's path.
    pub sample_source: String,
    /// Estimated on-disk bytes of the load.
    pub data_bytes: u128,
    /// The sizing rule's region count.
    pub rule_regions: u64,
    /// The rule's arithmetic, for people.
    pub rule_lines: Vec<String>,
    /// `--regions`, when given (it replaces the search's counts).
    pub regions_override: Option<u64>,
    /// The guide's memstore starting point, regions per server (as `limit`'s).
    pub memstore_regions_per_server: f64,
    /// HBase's limit on the table's regions per server: the search's first criterion.
    pub limit: RegionLimit,
    /// The table's own region size (MAX_FILESIZE or hbase.hregion.max.filesize), bytes.
    pub max_filesize: u64,
    /// Region sizes the search covered, bytes.
    pub sizes: Vec<u64>,
    /// Layouts the arithmetic ruled out without a run, for people.
    pub not_emulated: Vec<String>,
    /// Whether the layouts were emulated (false with `--no-emulate`).
    pub emulated: bool,
    /// Real rows per emulated row of the search runs.
    pub scale: Option<u64>,
    /// The coarsest scale the scale guard allows for this scenario.
    pub scale_guard: Option<u64>,
    /// The objective's criteria in the order applied.
    pub objective: Vec<ObjectiveJson>,
    /// Every emulated layout: the scenario's own first, then the advised counts.
    pub candidates: Vec<CandidateJson>,
    /// The decision.
    pub verdict: VerdictJson,
    /// With `--align` / `--align-prefix`: what the keys were aligned to.
    pub aligned_to: Option<String>,
    /// The advised split keys (toStringBinary), regions − 1 of them.
    pub split_keys: Vec<String>,
    /// Everything the advice could not act on.
    pub warnings: Vec<String>,
    /// The HBase shell script (`create` then `exit`), as written to create.hbase.
    pub create: String,
    /// Files written with `--out`.
    pub files: Vec<String>,
}

/// One criterion of the objective.
#[derive(Debug, Clone, Serialize)]
pub struct ObjectiveJson {
    /// Its name.
    pub criterion: Criterion,
    /// What it asks.
    pub rule: String,
}

/// One emulated layout.
#[derive(Debug, Clone, Serialize)]
pub struct CandidateJson {
    /// `scenario` (its own `[table.presplit]`) or `advised`.
    pub layout: String,
    /// For people: why this count was tried.
    pub label: String,
    /// The region count asked of the advised keys (absent for the scenario's layout).
    pub regions_requested: Option<u64>,
    /// Emulated figures (with `emulated` false, only the region counts and size are set).
    #[serde(flatten)]
    pub figures: Figures,
    /// Whether the layout was emulated: one over the limit at the start is not once an advised
    /// layout keeps to it (it is out on the first criterion whatever its run shows).
    pub emulated: bool,
    /// Regions per server at the peak (start or end of the load), spread evenly, rounded up.
    pub regions_per_server: u64,
    /// Whether that is within the limit.
    pub within_limit: bool,
    /// The largest share of one minute's writes any server took.
    pub max_server_write_share: f64,
    /// `chosen`, `tied` (as good, lost the tie-break) or `out`.
    pub outcome: String,
    /// With `out`: the criterion that dropped it.
    pub out_at: Option<Criterion>,
}

/// The decision.
#[derive(Debug, Clone, Serialize)]
pub struct VerdictJson {
    /// The scenario's own pre-split is already as good as every advised count.
    pub keep_scenario: bool,
    /// Regions of the advised keys (`split_keys`): the choice, or with `keep_scenario` the best
    /// advised alternative.
    pub regions: u64,
    /// The region size (MAX_FILESIZE) those keys were emulated with, bytes.
    pub max_filesize: u64,
    /// Whether the advised layout keeps to the limit (false: no layout tried did, and the
    /// verdict names the limit to relax).
    pub within_limits: bool,
    /// The one-line verdict.
    pub text: String,
}

/// One layout to emulate: advised keys for a count at a region size.
struct Layout {
    label: String,
    max_filesize: u64,
    requested: Option<u64>,
    keys: Vec<Vec<u8>>,
    dropped: usize,
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
    crate::budget::check(&s)?;
    let threads = args.threads.map_or(1, |t| t as usize);
    let estimate = crate::budget::estimate(&s, &[spec], args.scale, threads)?;
    crate::budget::refuse(&s, &estimate, crate::budget::memory_limit(args.max_memory))?;
    let g = plan::build_generator(&s, spec)?;
    let w = &s.workload;
    if args.keys.is_none() {
        crate::budget::check_samples(
            args.samples.min(w.rows),
            estimate.runs.first().map_or(1, |r| r.key_len),
            crate::budget::memory_limit(args.max_memory),
            "--samples",
        )?;
    }

    let flag = |e: InputError| {
        let f = if e.field.as_deref() == Some("samples") {
            "--samples"
        } else {
            "--regions"
        };
        e.field(f)
    };
    let (sample, sample_source, sample_line) = match &args.keys {
        Some(path) => {
            let src = SourceText::read(path, "key file").map_err(|e| {
                e.field("--keys")
                    .expected("a readable UTF-8 file, one toStringBinary key per line")
            })?;
            let kf = KeyFile::parse(src, false).map_err(|e| e.field("--keys"))?;
            let n = kf.len() as u64;
            let sample = Sample::collect_with(&PerKey(&kf), (0, n), args.samples, Some(s.seed))
                .map_err(flag)?;
            let line = format!(
                "Sample: {} of the {} keys in {} (one random line per equal block)",
                thousands(sample.len() as u128),
                thousands(u128::from(n)),
                path.display()
            );
            (sample, path.display().to_string(), line)
        }
        None => {
            let sample =
                Sample::collect_with(g.batch(), (w.first_id, w.rows), args.samples, Some(s.seed))
                    .map_err(flag)?;
            let line = format!(
                "Sample: {} keys, one random id from each of as many equal blocks of ids {}..={}",
                thousands(sample.len() as u128),
                thousands(u128::from(w.first_id)),
                thousands(u128::from(w.first_id) + u128::from(w.rows) - 1)
            );
            (sample, "generator".to_string(), line)
        }
    };
    let mean_key = sample.key_bytes() as f64 / sample.len().max(1) as f64;

    // Region count: the rule proposes, the search (below) decides.
    let st = &s.settings;
    let (data, data_line) = data_estimate(&s, mean_key);
    let servers = s.cluster.regionservers.max(1);
    let sizing = SizingInput {
        data_bytes: data,
        servers,
        policy: st.split_policy,
        max_filesize: st.max_filesize,
        initial_size: st.increasing_initial_size,
        heap_bytes: s.cluster.heap_bytes,
        global_memstore_bytes: GlobalMarks::of(st, s.cluster.heap_bytes).high,
        global_memstore_fraction: match st.global_memstore_bytes {
            Some(_) => None,
            None => Some(f64::from(st.global_memstore_fraction)),
        },
        flush_size: st.flush_size,
        families: s.table.families.len() as u64,
    };
    let count = region_count(&sizing);
    let limit = region_limit(&sizing);
    let cap = limit.regions_per_server;
    let own_size = st.max_filesize;
    let mut warnings: Vec<String> = count.warnings.clone();
    let first = args.regions.unwrap_or(count.regions);
    if (sample.len() as u64) < first {
        return Err(InputError::new(format!(
            "{} sampled keys cannot place split keys for {first} regions",
            sample.len()
        ))
        .field(if args.keys.is_some() {
            "--keys"
        } else {
            "--samples"
        })
        .expected(format!(
            "at least {first} keys (many more give better quantiles)"
        ))
        .into());
    }

    // The groups that should stay whole, and what --align aligns to.
    let mut groups = key_groups(spec, &s);
    if let Some(n) = args.align_prefix {
        groups.insert(
            0,
            KeyGroup {
                what: format!("{n}-byte key prefix"),
                grouping: Grouping::Fixed(n as usize),
            },
        );
    }
    let align_to = if args.align || args.align_prefix.is_some() {
        if groups.is_empty() {
            warnings.push(
                "--align: this generator and split policy have no prefix to align to; keys \
                 left at the quantiles (--align-prefix N aligns to the first N bytes)"
                    .into(),
            );
        }
        groups.first().cloned()
    } else {
        None
    };

    // The scenario's own layout, and the (region size, count) pairs to try. A table that never
    // splits, or a count fixed by --regions, is only tried at its own size.
    let emulate = !args.no_emulate;
    let base_plan = if emulate {
        Some(plan::plan_run(&s, spec)?)
    } else {
        None
    };
    let scenario_count = base_plan.as_ref().map(|p| p.split_keys.len() as u64 + 1);
    let sizes: Vec<u64> = if st.split_policy == SplitPolicy::Disabled || args.regions.is_some() {
        vec![own_size]
    } else {
        search::candidate_sizes(own_size)
    };
    let rule_at = |size: u64| {
        region_count(&SizingInput {
            max_filesize: size,
            ..sizing.clone()
        })
        .regions
    };
    let hold_at = |size: u64, n: u64| hold(&sizing, size, n);
    let mut not_emulated = Vec::new();
    let planned: Vec<search::Planned> = match args.regions {
        Some(n) => vec![search::Planned {
            max_filesize: own_size,
            regions: n,
            tag: "--regions".into(),
        }],
        None => {
            let with_rule: Vec<(u64, u64)> = sizes.iter().map(|&z| (z, rule_at(z))).collect();
            let (p, skipped) = search::plan_layouts(
                &with_rule,
                servers,
                cap,
                scenario_count,
                MAX_PRESPLIT_REGIONS,
                &hold_at,
            );
            for (z, n) in skipped {
                not_emulated.push(format!(
                    "{n} regions at {}: {} each by the end, over the split size, so the table \
                     would split past the limit",
                    format_bytes(z),
                    format_bytes((data / u128::from(n.max(1))).min(u128::from(u64::MAX)) as u64)
                ));
            }
            if emulate {
                p
            } else {
                // Without runs, the arithmetic picks: the smallest size whose capped count
                // holds the data without splitting past it, else the largest size tried.
                let ok = p
                    .iter()
                    .filter(|c| c.regions <= cap * servers)
                    .find(|c| hold_at(c.max_filesize, c.regions) != search::Hold::Over)
                    .or_else(|| {
                        p.iter()
                            .max_by_key(|c| (c.max_filesize, u64::MAX - c.regions))
                    });
                ok.cloned().into_iter().collect()
            }
        }
    };
    let too_many: Vec<u64> = planned
        .iter()
        .map(|p| p.regions)
        .filter(|&n| n > sample.len() as u64)
        .collect();
    if !too_many.is_empty() {
        warnings.push(format!(
            "{} sampled keys are too few for {} regions: not tried (raise --samples)",
            sample.len(),
            too_many
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut keys_for: Vec<(u64, Vec<Vec<u8>>, usize)> = Vec::new();
    let mut layouts: Vec<Layout> = planned
        .iter()
        .filter(|p| p.regions <= sample.len() as u64)
        .map(|p| {
            let n = p.regions;
            let (keys, dropped) = match keys_for.iter().find(|k| k.0 == n) {
                Some(k) => (k.1.clone(), k.2),
                None => {
                    let kd = match &align_to {
                        Some(kg) => (aligned_keys(&sample, n, &kg.grouping), 0),
                        None => quantile_keys(&sample, n),
                    };
                    keys_for.push((n, kd.0.clone(), kd.1));
                    kd
                }
            };
            Layout {
                label: format!("advised {n} ({})", p.tag),
                max_filesize: p.max_filesize,
                requested: Some(n),
                keys,
                dropped,
            }
        })
        .collect();

    // Emulate every layout, then choose.
    let mut candidates: Vec<CandidateJson> = Vec::new();
    let mut scale_k = None;
    let mut guard_k = None;
    let (emit, verdict, detail) = match base_plan {
        Some(base_plan) => {
            let guard = engine::scale_guard(&s, &base_plan.generator);
            let k = args.scale.unwrap_or_else(|| scale::coarse(w.rows, guard));
            if let Some(wn) = guard.warning(k) {
                warnings.push(wn);
            }
            scale_k = Some(k);
            guard_k = Some(guard.max_k());
            let how = base_plan.presplit.clone();
            // Layouts over the limit at the start are out on the first criterion whatever their
            // run shows, once an advised layout keeps to it at the start and at the end: they are
            // emulated only when none does (pruned early: the costliest runs are the largest
            // layouts).
            let over_at_start: Vec<bool> = layouts
                .iter()
                .map(|l| (l.keys.len() as u64 + 1).div_ceil(servers.max(1)) > cap)
                .collect();
            let first_pass: Vec<bool> = over_at_start.iter().map(|o| !o).collect();
            let same: Vec<bool> = layouts
                .iter()
                .map(|l| l.max_filesize == own_size && l.keys == base_plan.split_keys)
                .collect();
            // A layout that is the pre-split itself (same keys, same size) is run once and
            // says so, rather than reading as a second layout with equal figures.
            for (l, _) in layouts.iter_mut().zip(&same).filter(|(_, s)| **s) {
                if let Some(open) = l.label.strip_suffix(')') {
                    l.label = format!("{open}; the pre-split's keys)");
                }
            }
            let (base_run, mut layout_runs) = emulate_all(
                &s,
                spec,
                Some(base_plan),
                &same,
                &layouts,
                &first_pass,
                k,
                args.threads,
            )?;
            let base_run =
                base_run.ok_or_else(|| InputError::new("the scenario's emulation did not run"))?;
            let kept = layout_runs.iter().zip(&layouts).any(|(r, l)| {
                r.as_ref().is_some_and(|r| {
                    search::within_limit(&figures(r, l.max_filesize), servers, cap)
                })
            });
            if !kept && over_at_start.iter().any(|&o| o) {
                let (_, rest) = emulate_all(
                    &s,
                    spec,
                    None,
                    &same,
                    &layouts,
                    &over_at_start,
                    k,
                    args.threads,
                )?;
                for ((slot, r), &same) in layout_runs.iter_mut().zip(rest).zip(&same) {
                    if slot.is_none() {
                        *slot = if same { Some(base_run.clone()) } else { r };
                    }
                }
            }
            let runs: Vec<Option<RunJson>> =
                std::iter::once(Some(base_run)).chain(layout_runs).collect();
            let cands: Vec<Candidate> = runs
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let size = if i == 0 {
                        own_size
                    } else {
                        layouts[i - 1].max_filesize
                    };
                    Candidate {
                        scenario: i == 0,
                        figures: match r {
                            Some(r) => figures(r, size),
                            None => {
                                Figures::layout_only(layouts[i - 1].keys.len() as u64 + 1, size)
                            }
                        },
                    }
                })
                .collect();
            let all = search::choose(&cands, servers, cap);
            let advised = search::choose(&cands[1..], servers, cap);
            let emit = advised.chosen;
            for (i, (c, r)) in cands.iter().zip(&runs).enumerate() {
                let (label, requested) = match i {
                    0 => (format!("scenario's: {how}"), None),
                    _ => (layouts[i - 1].label.clone(), layouts[i - 1].requested),
                };
                let (outcome, out_at) = match all.outcomes[i] {
                    Outcome::Chosen => ("chosen", None),
                    Outcome::Tied => ("tied", None),
                    Outcome::Out(c) => ("out", Some(c)),
                };
                candidates.push(CandidateJson {
                    layout: if i == 0 { "scenario" } else { "advised" }.into(),
                    label,
                    regions_requested: requested,
                    figures: c.figures.clone(),
                    emulated: r.is_some(),
                    regions_per_server: c.figures.regions_per_server(servers),
                    within_limit: search::within_limit(&c.figures, servers, cap),
                    max_server_write_share: r
                        .as_ref()
                        .map_or(0.0, |r| r.hotspots.max_server_write_share),
                    outcome: outcome.into(),
                    out_at,
                });
            }
            let verdict = verdict(&cands, &all, emit + 1, &how, &limit, &sizing, own_size);
            let l = &layouts[emit];
            let what = format!(
                "{} regions{}",
                l.keys.len() + 1,
                if l.max_filesize == own_size {
                    String::new()
                } else {
                    format!(" at MAX_FILESIZE {}", format_bytes(l.max_filesize))
                }
            );
            let detail = match (&runs[0], &runs[emit + 1]) {
                (Some(base), Some(chosen)) => Some(comparison(base, chosen, &how, &what)),
                _ => None,
            };
            (emit, verdict, detail)
        }
        None => {
            let (n, z) = layouts.first().map_or((first, own_size), |l| {
                (l.keys.len() as u64 + 1, l.max_filesize)
            });
            let per = n.div_ceil(servers);
            let v = VerdictJson {
                keep_scenario: false,
                regions: n,
                max_filesize: z,
                within_limits: per <= cap,
                text: format!(
                    "not emulated (--no-emulate): {n} regions{} is the arithmetic's choice \
                     alone ({per} per server at the start, limit {cap}), unchecked by a run",
                    if z == own_size {
                        String::new()
                    } else {
                        format!(" with MAX_FILESIZE {}", format_bytes(z))
                    }
                ),
            };
            (0, v, None)
        }
    };
    let Some(chosen) = layouts.get(emit) else {
        return Err(InputError::new("no region count could be tried")
            .field("--samples")
            .expected("more sampled keys than regions")
            .into());
    };
    let keys = &chosen.keys;
    let regions = chosen.requested.unwrap_or(first);

    // What the chosen keys could not do.
    if chosen.dropped > 0 {
        warnings.push(format!(
            "the key distribution is lumpy: {} of {} quantiles repeated a key and were \
             dropped, so the advice has {} regions, not {regions}",
            chosen.dropped,
            regions - 1,
            keys.len() + 1
        ));
    }
    if let Some(kg) = &align_to
        && keys.len() + 1 < regions as usize
    {
        warnings.push(format!(
            "aligned to {} there are only {} regions: the sample has too few boundaries \
             for {regions}",
            kg.what,
            keys.len() + 1
        ));
    }
    for kg in &groups {
        let (missing, bounds) = straddled_bounds(&sample, keys, &kg.grouping);
        if keys.len() > bounds {
            // More regions than groups: a region should not span two groups.
            if missing > 0 {
                warnings.push(format!(
                    "{missing} of {bounds} {} boundaries fall inside a region, which then \
                     holds rows of two groups{}",
                    kg.what,
                    if align_to.is_some() {
                        ""
                    } else {
                        "; --align puts a split key on each and divides each group's share"
                    }
                ));
            }
            continue;
        }
        let cut = cut_keys(&sample, keys, &kg.grouping);
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
            if align_to.is_some() {
                ""
            } else {
                "; --align snaps split keys to the boundaries"
            }
        ));
    }

    let create = create_statement(
        &s,
        keys,
        (chosen.max_filesize != own_size).then_some(chosen.max_filesize),
    );
    let script = format!("{create}exit\n");
    let mut files = Vec::new();
    if let Some(dir) = &args.out {
        write_files(dir, keys, &script)?;
        files.push(dir.join("splits.txt").display().to_string());
        files.push(dir.join("create.hbase").display().to_string());
    }

    let advice = AdviceJson {
        scenario: s.name.clone(),
        generator: g.name.clone(),
        keys: g.layout().describe(),
        samples: sample.len(),
        sample_source,
        data_bytes: data,
        rule_regions: count.regions,
        rule_lines: std::iter::once(data_line)
            .chain(count.lines.iter().cloned())
            .collect(),
        regions_override: args.regions,
        memstore_regions_per_server: limit.memstore_regions_per_server,
        limit,
        max_filesize: own_size,
        sizes,
        not_emulated,
        emulated: emulate,
        scale: scale_k,
        scale_guard: guard_k,
        objective: Criterion::ORDER
            .iter()
            .map(|&c| ObjectiveJson {
                criterion: c,
                rule: c.describe().into(),
            })
            .collect(),
        candidates,
        verdict,
        aligned_to: align_to.map(|kg| kg.what),
        split_keys: keys.iter().map(|k| to_string_binary(k)).collect(),
        warnings,
        create: script,
        files,
    };
    let out = match args.format {
        AdviseFormat::Json => serde_json::to_string_pretty(&advice).unwrap_or_default() + "\n",
        AdviseFormat::Text => render_text(&advice, &sample_line, detail.as_deref()),
    };
    write_output(None, out.as_bytes())?;
    Ok(())
}

/// The figures the objective compares and the table shows, from a run report.
fn figures(r: &RunJson, max_filesize: u64) -> Figures {
    let m = &r.summary;
    Figures {
        regions_initial: m.regions_initial as u64,
        regions_final: m.regions_final as u64,
        splits: m.splits as u64,
        ingest_seconds: m.sim_seconds,
        blocked_seconds: m.blocked_seconds,
        cold_regions: r.region_sizes.cold_regions as u64,
        idle_capacity: r.region_sizes.idle_capacity,
        max_filesize,
        avg_flush_bytes: m.avg_flush_bytes,
        wal_forced_flushes: m.wal_forced_flushes,
        after_load_seconds: (m.settle_seconds - m.sim_seconds).max(0.0),
        write_amplification: m.write_amplification,
    }
}

/// What to change so that a layout peaking at `peak_regions` (`per_server` per server) keeps to
/// the limit: more servers always; a larger memstore when the memstore rule binds and the guide's
/// top would still hold.
fn relax(limit: &RegionLimit, i: &SizingInput, peak_regions: u64, per_server: u64) -> String {
    let servers = peak_regions.div_ceil(limit.regions_per_server.max(1));
    let more = format!("spread the table over at least {servers} RegionServers");
    if limit.binding == LimitRule::Guide || per_server > GUIDE_RANGE.1 {
        return format!(
            "{more} ({per_server} per server is over the reference guide's {} too)",
            GUIDE_RANGE.1
        );
    }
    let need = per_server * i.flush_size * i.families.max(1);
    let heap = match i.global_memstore_fraction {
        Some(f) if f > 0.0 => format!(
            ", a heap of at least {} at {f:.2}",
            format_bytes((need as f64 / f).ceil() as u64)
        ),
        _ => String::new(),
    };
    format!(
        "relax the memstore limit (a global memstore of at least {}{heap}) or {more}",
        format_bytes(need)
    )
}

/// The one-sentence verdict: keep the scenario's pre-split, or the advised layout `emit` (an
/// index into `cands`) with what it costs and the first criterion on which the scenario's own
/// layout lost; or, when no layout keeps to the limit, which limit to relax.
fn verdict(
    cands: &[Candidate],
    all: &Choice,
    emit: usize,
    how: &str,
    limit: &RegionLimit,
    sizing: &SizingInput,
    own_size: u64,
) -> VerdictJson {
    let secs = |x: f64| format_duration_ms((x * 1000.0).round() as u64);
    let servers = sizing.servers.max(1);
    let cap = limit.regions_per_server;
    let rule = match limit.binding {
        LimitRule::Memstore => "the heap's memstore limit",
        LimitRule::Guide => "the reference guide's limit",
    };
    let (base, adv) = (&cands[0].figures, &cands[emit].figures);
    let n = adv.regions_initial;
    let size = |z: u64| {
        if z == own_size {
            String::new()
        } else {
            format!(" with MAX_FILESIZE {}", format_bytes(z))
        }
    };
    let picked = &cands[all.chosen].figures;
    if !search::within_limit(picked, servers, cap) {
        let per = picked.regions_per_server(servers);
        return VerdictJson {
            keep_scenario: false,
            regions: n,
            max_filesize: adv.max_filesize,
            within_limits: search::within_limit(adv, servers, cap),
            text: format!(
                "no layout tried keeps to {cap} regions per server ({rule}): the nearest, {} \
                 regions{}, peaks at {per} per server ({} regions by the end), so {}",
                picked.regions_initial,
                size(picked.max_filesize),
                picked.regions_final,
                relax(
                    limit,
                    sizing,
                    picked.regions_initial.max(picked.regions_final),
                    per
                )
            ),
        };
    }
    if all.chosen == 0 {
        let tied: Vec<String> = (1..cands.len())
            .filter(|&i| all.outcomes[i] == Outcome::Tied)
            .map(|i| cands[i].figures.regions_initial.to_string())
            .collect();
        return VerdictJson {
            keep_scenario: true,
            regions: n,
            max_filesize: adv.max_filesize,
            within_limits: search::within_limit(adv, servers, cap),
            text: format!(
                "keep the scenario's pre-split ({how}): it keeps to {cap} regions per server \
                 (peak {}) and is already as good as every advised layout tried{}{}",
                base.regions_per_server(servers),
                if tied.is_empty() {
                    String::new()
                } else {
                    format!(" ({} regions tie on every criterion)", tied.join(", "))
                },
                caveats(base)
            ),
        };
    }
    let why = match all.outcomes[0] {
        Outcome::Out(Criterion::Limits) => format!(
            "peaks at {} regions per server, over the limit",
            base.regions_per_server(servers)
        ),
        Outcome::Out(Criterion::Blocked) => {
            format!("blocks writers for {}", secs(base.blocked_seconds))
        }
        Outcome::Out(Criterion::Splits) => format!("splits {} times", base.splits),
        Outcome::Out(Criterion::Cold) => format!(
            "leaves {:.0}% of its region capacity idle ({} cold regions)",
            base.idle_capacity * 100.0,
            base.cold_regions
        ),
        Outcome::Out(Criterion::Ingest) => {
            format!("takes {} to ingest", secs(base.ingest_seconds))
        }
        Outcome::Chosen | Outcome::Tied => "ties".into(),
    };
    VerdictJson {
        keep_scenario: false,
        regions: n,
        max_filesize: adv.max_filesize,
        within_limits: search::within_limit(adv, servers, cap),
        text: format!(
            "pre-split into {n} regions{}: at most {} per server, within {rule} of {cap}, \
             blocked {} of a {} ingest (emulated), where the scenario's pre-split ({} \
             regions) {why}{}",
            size(adv.max_filesize),
            adv.regions_per_server(servers),
            secs(adv.blocked_seconds),
            secs(adv.ingest_seconds),
            base.regions_initial,
            caveats(adv)
        ),
    }
}

/// What the advised layout still costs that no layout tried removed, for the verdict: blocking
/// over [`WAIT_SHARE`] of the ingest (its cause is the keys or the rate, which `run` names),
/// and flushes and compactions running on after the load for longer than that share.
fn caveats(f: &Figures) -> String {
    let secs = |x: f64| format_duration_ms((x * 1000.0).round() as u64);
    let ingest = f.ingest_seconds;
    let mut out = String::new();
    if ingest > 0.0 && f.blocked_seconds / ingest > WAIT_SHARE {
        out.push_str(&format!(
            "; it still blocks writers {:.0}% of the ingest, which none of the layouts tried removes \
             (the cause is in the keys or the write rate: `run` names it)",
            f.blocked_seconds / ingest * 100.0
        ));
    }
    if ingest > 0.0 && f.after_load_seconds / ingest > WAIT_SHARE {
        out.push_str(&format!(
            "; flushes and compactions run on {} after the last write",
            secs(f.after_load_seconds)
        ));
    }
    out
}

/// The text report of `advice`.
fn render_text(a: &AdviceJson, sample_line: &str, detail: Option<&str>) -> String {
    let secs = |x: f64| format_duration_ms((x * 1000.0).round() as u64);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Split-key advice: {} — generator `{}`\n  {}\n{sample_line}",
        a.scenario, a.generator, a.keys
    );
    let _ = writeln!(
        out,
        "\nRegion count (the rule proposes, the emulation decides)"
    );
    for l in &a.rule_lines {
        let _ = writeln!(out, "  {l}");
    }
    if let Some(n) = a.regions_override {
        let _ = writeln!(
            out,
            "  --regions {n} replaces the rule's {}",
            a.rule_regions
        );
    }
    let _ = writeln!(
        out,
        "\nLimit on regions per server (a constraint of the search)"
    );
    for l in &a.limit.lines {
        let _ = writeln!(out, "  {l}");
    }
    if a.emulated {
        let sizes: Vec<String> = a.sizes.iter().map(|&z| format_bytes(z)).collect();
        let _ = writeln!(
            out,
            "\nLayouts, emulated at scale {} (1 emulated row per {} real rows; the scale guard \
             allows up to {}); region sizes tried: {}",
            a.scale.unwrap_or(1),
            a.scale.unwrap_or(1),
            a.scale_guard.unwrap_or(1),
            sizes.join(", ")
        );
        for l in &a.not_emulated {
            let _ = writeln!(out, "  not emulated: {l}");
        }
        let _ = writeln!(out, "  objective, in order:");
        for (i, o) in a.objective.iter().enumerate() {
            let _ = writeln!(out, "    {}. {}", i + 1, o.rule);
        }
        let _ = writeln!(
            out,
            "    then: the scenario's own pre-split if it is left, else the smallest region \
             size, then the fewest regions"
        );
        // Two tables joined by the row number, each within the text width: the layouts, then
        // what their emulation cost.
        let mut shapes = table(&["#", "layout", "max.filesize", "regions", "per server"]);
        let mut costs = table(&[
            "#",
            "blocked",
            "ingest",
            "after\nload",
            "avg flush",
            "WAL\nflushes",
            "write\namp",
            "cold",
            "idle",
            "outcome",
        ]);
        for (i, c) in a.candidates.iter().enumerate() {
            let f = &c.figures;
            let label = if c.layout == "scenario" {
                "scenario's pre-split".to_string()
            } else {
                c.label
                    .strip_prefix("advised ")
                    .unwrap_or(&c.label)
                    .to_string()
            };
            shapes.add_row(vec![
                (i + 1).to_string(),
                label,
                format_bytes(f.max_filesize),
                format!("{} → {}", f.regions_initial, f.regions_final),
                format!(
                    "{}{}",
                    c.regions_per_server,
                    if c.within_limit {
                        String::new()
                    } else {
                        format!(" > {}", a.limit.regions_per_server)
                    }
                ),
            ]);
            let ran = |v: String| if c.emulated { v } else { "-".to_string() };
            costs.add_row(vec![
                (i + 1).to_string(),
                ran(secs(f.blocked_seconds)),
                ran(secs(f.ingest_seconds)),
                ran(secs(f.after_load_seconds)),
                ran(format_bytes(f.avg_flush_bytes)),
                ran(thousands(u128::from(f.wal_forced_flushes))),
                ran(format!("{:.2}", f.write_amplification)),
                ran(thousands(u128::from(f.cold_regions))),
                ran(format!("{:.0}%", f.idle_capacity * 100.0)),
                match c.out_at {
                    Some(cr) if !c.emulated => format!("out: {}*", cr.name()),
                    Some(cr) => format!("out: {}", cr.name()),
                    None if c.outcome == "tied" => "as good".into(),
                    None => c.outcome.clone(),
                },
            ]);
        }
        align_right(&mut shapes, &[0, 2, 3, 4]);
        align_right(&mut costs, &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        let _ = writeln!(out, "{shapes}");
        let _ = writeln!(out, "  what each layout cost, emulated:");
        let _ = writeln!(out, "{costs}");
        let _ = writeln!(
            out,
            "  per server: regions ÷ servers, rounded up, at the start or the end of the load, \
             whichever is more\n  after load: time after the last write until the flushes, \
             compactions and splits in flight finished\n  WAL flushes: flushes forced by too \
             many WAL files (hbase.regionserver.maxlogs); write amp: store file bytes written \
             per flushed byte\n  cold: regions not written in the last 10% of the load and under half \
             the split size; idle: the region capacity they leave unfilled (what the search \
             compares)"
        );
        if a.candidates.iter().any(|c| !c.emulated) {
            let _ = writeln!(
                out,
                "  *not run: over the limit at the start, so out on the first criterion once an \
                 advised layout keeps to it at the start and the end"
            );
        }
    }
    let _ = writeln!(out, "\nVerdict: {}", a.verdict.text);
    // Prose within the text width; the keys and the shell statement below stay as they are (a
    // key may hold ", ").
    let mut out = wrap_prose(&out);
    let n = a.split_keys.len();
    let _ = writeln!(
        out,
        "\nSplit keys ({n}, {} regions{}){}{}{}",
        n + 1,
        if a.verdict.max_filesize == a.max_filesize {
            String::new()
        } else {
            format!(", MAX_FILESIZE {}", format_bytes(a.verdict.max_filesize))
        },
        if a.verdict.keep_scenario {
            ", the best advised alternative"
        } else {
            ""
        },
        if a.verdict.within_limits {
            ""
        } else {
            ", over the limit: for use once it is relaxed"
        },
        match &a.aligned_to {
            Some(w) => format!(", aligned to {w}"),
            None => String::new(),
        }
    );
    for (i, k) in a.split_keys.iter().enumerate() {
        if n > 20 && (5..n - 5).contains(&i) {
            if i == 5 {
                let _ = writeln!(out, "  … {} more", n - 10);
            }
            continue;
        }
        let _ = writeln!(out, "  {k}");
    }
    if !a.files.is_empty() {
        let _ = writeln!(out, "\nWrote {}", a.files.join(" and "));
    }
    if let Some(d) = detail {
        out.push('\n');
        out.push_str(&wrap_prose(d));
    }
    if !a.warnings.is_empty() {
        let mut w = String::from("\nWarnings\n");
        for wn in &a.warnings {
            let _ = writeln!(w, "  warning: {wn}");
        }
        out.push_str(&wrap_prose(&w));
    }
    if n <= SHELL_KEYS_SHOWN {
        let _ = writeln!(
            out,
            "\nHBase shell\n{}",
            wrap_statement(a.create.trim_end_matches("exit\n"))
        );
    } else {
        out.push_str(&wrap_prose(&format!(
            "\nHBase shell: {n} split keys are too many to show; `--out DIR` writes \
             DIR/create.hbase (run `hbase shell DIR/create.hbase`) and DIR/splits.txt\n"
        )));
    }
    out
}

/// A shell statement laid out in the text width for reading and pasting: broken only after a
/// `, ` outside quotes (between a `create`'s arguments or split keys; IRB reads on while a `[`
/// or `{` is open), continuations indented; a literal longer than a line keeps a line of its own.
fn wrap_statement(stmt: &str) -> String {
    let mut pieces = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in stmt.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '\'' => quoted = !quoted,
            ',' if !quoted && stmt[i + 1..].starts_with(' ') => {
                pieces.push(&stmt[start..i + 2]);
                start = i + 2;
            }
            _ => {}
        }
    }
    pieces.push(&stmt[start..]);
    let mut out = String::with_capacity(stmt.len() + 64);
    let mut width = 0;
    for p in pieces {
        let len = p.trim_end().chars().count();
        if width > 0 && width + len > crate::report::TEXT_WIDTH {
            out.truncate(out.trim_end_matches(' ').len());
            out.push_str("\n    ");
            width = 4;
        }
        out.push_str(p);
        width += p.chars().count();
    }
    out
}

/// An advice search estimated to take longer than this says so on standard error first.
const ADVISE_NOTE_SECONDS: u64 = 10;

/// Split keys up to which the text report prints the shell `create` in full.
const SHELL_KEYS_SHOWN: usize = 50;

fn write_files(dir: &Path, keys: &[Vec<u8>], create: &str) -> Result<(), InputError> {
    let mut set = FileSet::begin(dir, "--out")?;
    set.write("splits.txt", render_splits_file(keys).as_bytes())?;
    set.write("create.hbase", create.as_bytes())?;
    set.finish()
}

/// The scenario as if its table had MAX_FILESIZE `size`: the attribute written into its TOML and
/// the file loaded again, so every setting that follows from it is derived as for any scenario.
fn with_max_filesize(s: &Scenario, size: u64) -> Result<Scenario, InputError> {
    let bad = |e: String| InputError::new(format!("MAX_FILESIZE {size}: {e}"));
    let mut doc: toml::Table = toml::from_str(&s.source.text).map_err(|e| bad(e.to_string()))?;
    let table = doc
        .entry("table")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    let Some(table) = table.as_table_mut() else {
        return Err(bad("the scenario's [table] is not a table".into()));
    };
    let bytes = i64::try_from(size).map_err(|e| bad(e.to_string()))?;
    table.insert("max_filesize".into(), toml::Value::Integer(bytes));
    let text = toml::to_string(&doc).map_err(|e| bad(e.to_string()))?;
    let mut v = scenario::load_source(SourceText::from_string(s.source.path.clone(), text))
        .map_err(|errs| {
            bad(errs
                .0
                .into_iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; "))
        })?;
    v.seed = s.seed;
    Ok(v)
}

/// Runs the scenario with its own pre-split (when `base_plan` is given) and with the keys of
/// each layout `run` marks, every run at scale `k`, several at once. Each run is deterministic
/// at any thread count, so the reports do not depend on how the runs share the threads. Advised
/// keys identical to the scenario's own at its own region size (`same`) share its run. Returns
/// the scenario's run and one entry per layout (`None` where not run).
#[allow(clippy::too_many_arguments)]
fn emulate_all(
    s: &Scenario,
    spec: &GeneratorSpec,
    base_plan: Option<plan::RunPlan>,
    same: &[bool],
    layouts: &[Layout],
    run: &[bool],
    k: u64,
    threads: Option<u64>,
) -> Result<(Option<RunJson>, Vec<Option<RunJson>>), InputError> {
    let with_base = base_plan.is_some();
    let mut jobs: Vec<(Scenario, plan::RunPlan)> = Vec::with_capacity(layouts.len() + 1);
    if let Some(p) = base_plan {
        jobs.push((s.clone(), p));
    }
    let own = s.settings.max_filesize;
    let mut sized: Vec<(u64, Scenario)> = Vec::new();
    let runs_own = |i: usize| run[i] && !same[i];
    for l in layouts
        .iter()
        .enumerate()
        .filter(|(i, _)| runs_own(*i))
        .map(|(_, l)| l)
    {
        let mut advised = if l.max_filesize == own {
            s.clone()
        } else if let Some((_, v)) = sized.iter().find(|(z, _)| *z == l.max_filesize) {
            v.clone()
        } else {
            let v = with_max_filesize(s, l.max_filesize)?;
            sized.push((l.max_filesize, v.clone()));
            v
        };
        advised.table.presplit = Presplit::Keys(l.keys.clone());
        // The advised keys are the layout: a design's own region count does not apply.
        let mut laid_out = spec.clone();
        laid_out.presplit_regions = None;
        let p = plan::plan_run(&advised, &laid_out)?;
        jobs.push((advised, p));
    }
    let threads = threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let at_once = threads.min(jobs.len()).max(1);
    let per_run = (threads / at_once).max(1);
    let opts = engine::RunOptions {
        scale: Some(k),
        threads: per_run,
        builder: per_run > 2,
        reference: false,
    };
    let run_one = |(sc, p): (Scenario, plan::RunPlan)| -> Result<RunJson, InputError> {
        let r = engine::run(&sc, p, opts)?;
        crate::report::run::build(&sc, std::slice::from_ref(&r))
            .runs
            .into_iter()
            .next()
            .ok_or_else(|| InputError::new("the emulation produced no run"))
    };
    let n = jobs.len();
    // A long search says so before it starts (a terminal's progress bars are not drawn here):
    // the first layout's run estimate, times the layouts, over the runs at once.
    if let Some((sc, _)) = jobs.first()
        && let Ok(e) = crate::budget::estimate(sc, &[spec], Some(k), at_once)
    {
        let total = e.seconds().saturating_mul(n as u64) / at_once as u64;
        // The runs' summed estimate against a threshold lower than `run`'s: the estimate runs
        // short for tables of thousands of regions (a 20 TB hashed run: 9 s estimated, 33 s
        // measured).
        if e.seconds().saturating_mul(n as u64) > ADVISE_NOTE_SECONDS {
            eprintln!(
                "note: emulating {n} layouts at scale {k}, {at_once} at a time: about {} by \
                 the run estimate, which runs short for thousands of regions ({} each)",
                crate::units::format_duration_ms(total.saturating_mul(1000)),
                e.summary()
            );
        }
    }
    let queue = std::sync::Mutex::new(jobs.into_iter().enumerate());
    let results: std::sync::Mutex<Vec<Option<Result<RunJson, InputError>>>> =
        std::sync::Mutex::new((0..n).map(|_| None).collect());
    let work = || {
        loop {
            let next = queue.lock().map(|mut q| q.next()).unwrap_or(None);
            let Some((i, job)) = next else { break };
            let r = run_one(job);
            if let Ok(mut res) = results.lock() {
                res[i] = Some(r);
            }
        }
    };
    std::thread::scope(|sc| {
        for _ in 1..at_once {
            sc.spawn(work);
        }
        work();
    });
    let mut runs = results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(InputError::new("an emulation run failed"))));
    let base = if with_base {
        Some(
            runs.next()
                .unwrap_or_else(|| Err(InputError::new("an emulation run failed")))?,
        )
    } else {
        None
    };
    let mut out = Vec::with_capacity(layouts.len());
    for (i, &same) in same.iter().enumerate() {
        out.push(if same {
            base.clone()
        } else if run[i] {
            Some(
                runs.next()
                    .unwrap_or_else(|| Err(InputError::new("an emulation run failed")))?,
            )
        } else {
            None
        });
    }
    Ok((base, out))
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
        Sample::collect_with(&PerKey(Keys(keys)), (0, n), n, None).unwrap()
    }

    fn sizing(data: u128, servers: u64, policy: SplitPolicy) -> SizingInput {
        SizingInput {
            data_bytes: data,
            servers,
            policy,
            max_filesize: 10 << 30,
            initial_size: 256 << 20,
            heap_bytes: 16 << 30,
            global_memstore_bytes: (16u64 << 30) * 2 / 5,
            global_memstore_fraction: Some(0.4),
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
        // The rule proposes past the memstore limit; the limit is the search's, not the rule's.
        let r = region_count(&sizing(10_000 * G, 10, SplitPolicy::ConstantSize));
        assert_eq!(r.regions, 2000);
    }

    /// The limit: 16 GiB × 0.4 / 128 MiB = 51.2 → 51 per server (the memstore rule binds); a
    /// heap whose memstore would hold more than the guide's 200 is held to 200.
    #[test]
    fn the_limit_is_the_smaller_of_memstore_and_guide() {
        const G: u128 = 1 << 30;
        let i = sizing(100 * G, 10, SplitPolicy::ConstantSize);
        let l = region_limit(&i);
        assert_eq!(l.regions_per_server, 51);
        assert_eq!(l.binding, LimitRule::Memstore);
        assert!(
            l.lines
                .iter()
                .any(|x| x.contains("51.2 regions per server"))
        );
        assert!(
            l.lines
                .iter()
                .any(|x| x.contains("Regions per RegionServer"))
        );
        let mut big = i.clone();
        big.global_memstore_bytes = 64 << 30;
        let l = region_limit(&big);
        assert_eq!((l.regions_per_server, l.binding), (200, LimitRule::Guide));
        // What to relax: at 103 per server, the memstore for 103 regions or more servers.
        let r = relax(&region_limit(&i), &i, 1030, 103);
        assert!(
            r.contains("12.88 GiB") && r.contains("21 RegionServers"),
            "{r}"
        );
        // Over the guide's top as well: more servers only.
        let r = relax(&region_limit(&i), &i, 3000, 300);
        assert!(
            !r.contains("memstore") && r.contains("59 RegionServers"),
            "{r}"
        );
    }

    /// An absolute `hbase.regionserver.global.memstore.size` sets the starting point, whatever
    /// the heap (`MemorySizeUtil.getGlobalMemStoreSize`).
    #[test]
    fn memstore_starting_point_follows_an_absolute_global_memstore() {
        const G: u128 = 1 << 30;
        let mut i = sizing(10_000 * G, 10, SplitPolicy::ConstantSize);
        i.global_memstore_bytes = 1 << 30;
        i.global_memstore_fraction = None;
        let r = region_count(&i);
        assert_eq!(r.memstore_start, 8.0);
        let l = region_limit(&i);
        assert_eq!(l.regions_per_server, 8);
        assert!(
            l.lines
                .iter()
                .any(|l| l.contains("global memstore 1.00 GiB (set absolutely)")),
            "{:?}",
            l.lines
        );
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
    fn align_within_buckets_gives_each_bucket_its_share() {
        // 4 buckets of 25 keys, 8 regions: every boundary is a key, and each bucket is cut once
        // more at its own median.
        let keys: Vec<Vec<u8>> = (0..100u8).map(|i| vec![i / 25, i]).collect();
        let s = sample_of(keys);
        let g = Grouping::Fixed(1);
        let a = aligned_keys(&s, 8, &g);
        assert_eq!(a.len(), 7, "{a:?}");
        for b in 1..4u8 {
            assert!(a.contains(&vec![b]), "boundary {b} missing: {a:?}");
        }
        for b in 0..4u8 {
            let inside = a.iter().filter(|k| k.len() == 2 && k[0] == b).count();
            assert_eq!(inside, 1, "bucket {b}: {a:?}");
        }
        assert_eq!(straddled_bounds(&s, &a, &g), (0, 3));
        // Unaligned quantiles at 8 regions leave boundaries inside regions.
        let (q, _) = quantile_keys(&s, 8);
        assert!(straddled_bounds(&s, &q, &g).0 > 0, "{q:?}");
    }

    #[test]
    fn regions_per_group_sums_and_keeps_one_each() {
        assert_eq!(regions_per_group(&[25, 25, 25, 25], 8), [2, 2, 2, 2]);
        assert_eq!(regions_per_group(&[10, 30, 60], 5), [1, 1, 3]);
        // A tiny group still gets its region; the rest follow the shares.
        let r = regions_per_group(&[1, 999], 10);
        assert_eq!(r, [1, 9]);
        let r = regions_per_group(&[7, 3, 5, 11, 13], 4220);
        assert_eq!(r.iter().sum::<u64>(), 4220);
        assert!(r.iter().all(|&x| x >= 1));
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

    /// A one-family table `tb`, for the shell statement's tests.
    fn table_tb() -> Scenario {
        scenario::load_source(SourceText::from_string(
            "s.toml",
            "name='t'\n[cluster]\nregionservers=2\n[table]\nname='tb'\n[workload]\nrows=10\n\
             [[generator]]\nname='g'\nkind='sequential'\n",
        ))
        .unwrap()
    }

    #[test]
    fn create_statement_quotes_keys() {
        let s = table_tb();
        let c = create_statement(&s, &[vec![0, b'\''], b"b".to_vec()], None);
        assert!(c.starts_with("create 'tb', {NAME => '"), "{c}");
        assert!(c.ends_with("SPLITS => ['\\x00\\x27', 'b']\n"), "{c}");
    }

    #[test]
    fn a_long_create_statement_wraps_between_keys_only() {
        let s = table_tb();
        // Keys holding `, ` and a quote, and one longer than a line.
        let mut keys: Vec<Vec<u8>> = (0..40)
            .map(|i| format!("k, {i:03}'x").into_bytes())
            .collect();
        keys.push(vec![b'z'; 150]);
        let c = create_statement(&s, &keys, None);
        let w = wrap_statement(&c);
        assert!(w.lines().count() > 3, "{w}");
        for l in w.lines() {
            assert!(
                l.chars().count() <= 100 || l.trim_start().starts_with("'zzz"),
                "{l}"
            );
        }
        // Joining the lines again gives the statement back: no key was broken.
        assert_eq!(w.replace(",\n    ", ", "), c);
    }
}
