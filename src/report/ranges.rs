//! Answers as ranges (`run --assumptions`): the report's `assumption_ranges` section and its
//! text. Built by `experiment::assumptions`; this module only holds and renders it.

use serde::{Deserialize, Serialize};

use crate::units::{format_bytes, format_duration_ms, thousands};

/// The figures the text shows by default (the comparison's headline rows), with their labels;
/// `--detail` and the JSON have every figure.
const HEADLINE: &[(&str, &str)] = &[
    ("summary.sim_seconds", "ingest time"),
    ("summary.blocked_seconds", "blocked"),
    ("summary.offline_wait_seconds", "waiting on offline regions"),
    ("summary.regions_final", "regions (final)"),
    ("summary.splits", "splits"),
    ("region_sizes.cold_regions", "cold regions"),
    ("region_sizes.quiet_regions", "regions no longer written"),
    ("region_sizes.p50", "region size p50"),
    ("region_sizes.max", "region size max"),
    (
        "summary.max_server_write_share",
        "busiest server, worst minute",
    ),
    ("hotspots.mean_hottest_share", "busiest server, mean share"),
    ("summary.write_amplification", "write amplification"),
];

/// The runs of every profile, compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssumptionRangesJson {
    /// The profiles, in the order they were asked for; `values` below follow this order.
    pub profiles: Vec<ProfileJson>,
    /// Per generator, in the report's order.
    pub runs: Vec<RunRangesJson>,
    /// Per figure that varies in some design (with two designs or more): the designs' order
    /// under each profile.
    pub rankings: Vec<RankingJson>,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// What one profile assumed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfileJson {
    /// Name (`typical` is the scenario as written).
    pub name: String,
    /// Hardware profile.
    pub hardware: String,
    /// Loader writers.
    pub writers: u64,
    /// `hbase.regionserver.thread.compaction.small`.
    pub compaction_threads_small: u32,
    /// `hbase.regionserver.thread.compaction.large`.
    pub compaction_threads_large: u32,
    /// `[bulk_load] task_rate`, bytes/s (a bulk load's job).
    #[serde(default)]
    pub bulk_task_rate: u64,
    /// `[client] request_time`, µs (a closed loop's request); left out (0) where no design
    /// runs a closed loop.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub request_us: u64,
    /// `"default"` or `"none"`.
    pub variability: String,
}

/// One generator's figures across the profiles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRangesJson {
    /// Generator name.
    pub generator: String,
    /// Figures whose value differs between profiles, in report order.
    pub ranges: Vec<FigureRangeJson>,
    /// Figures with one value under every profile (qualified names).
    pub same: Vec<String>,
}

/// One figure's range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FigureRangeJson {
    /// Qualified figure name (`summary.sim_seconds`).
    pub figure: String,
    /// Under `typical` (the value in `runs`).
    pub typical: f64,
    /// Smallest over the profiles.
    pub min: f64,
    /// Largest over the profiles.
    pub max: f64,
    /// Per profile, in `profiles` order.
    pub values: Vec<f64>,
}

/// The designs' order on one figure under each profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingJson {
    /// Qualified figure name.
    pub figure: String,
    /// Per profile, in `profiles` order.
    pub by_profile: Vec<RankJson>,
    /// Whether the order differs between profiles.
    pub changes: bool,
}

/// One profile's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankJson {
    /// Profile name.
    pub profile: String,
    /// Generators from the lowest value up; designs with equal values share a group.
    pub order: Vec<Vec<String>>,
}

/// A figure's label for people: the comparison's wording, else its qualified name.
pub fn label(figure: &str) -> &str {
    HEADLINE
        .iter()
        .find(|(f, _)| *f == figure)
        .map_or(figure, |(_, l)| l)
}

fn is_headline(figure: &str) -> bool {
    HEADLINE.iter().any(|(f, _)| *f == figure)
}

/// Headline figures in the comparison's order, then the others in report order.
fn rank_of(figure: &str) -> usize {
    HEADLINE
        .iter()
        .position(|(f, _)| *f == figure)
        .unwrap_or(HEADLINE.len())
}

/// A duration for people (not `summary::dur`: the report model holds this module's types, and
/// `summary` reads the model).
fn dur(seconds: f64) -> String {
    if seconds > 0.0 {
        format_duration_ms((seconds * 1000.0).round() as u64)
    } else {
        "0 ms".to_string()
    }
}

/// A fraction as a whole percentage.
fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// A figure's value for people, by what its name says it measures.
pub fn format_figure(figure: &str, v: f64) -> String {
    let field = figure.rsplit('.').next().unwrap_or(figure);
    let sizes =
        figure.starts_with("region_sizes.") && field != "cold_regions" && field != "quiet_regions";
    if !v.is_finite() {
        "–".to_string()
    } else if field.ends_with("seconds") {
        dur(v)
    } else if field.contains("share") || field.starts_with("time_over") {
        pct(v)
    } else if sizes || field.contains("bytes") {
        format_bytes(v.max(0.0) as u64)
    } else if v.fract() == 0.0 && v.abs() < 1e18 {
        thousands(v.abs() as u128)
    } else {
        format!("{v:.2}")
    }
}

/// `typical [min … max]`.
pub fn bracket(f: &FigureRangeJson) -> String {
    format!(
        "{} [{} … {}]",
        format_figure(&f.figure, f.typical),
        format_figure(&f.figure, f.min),
        format_figure(&f.figure, f.max)
    )
}

/// "a < b = c".
fn order_text(order: &[Vec<String>]) -> String {
    order
        .iter()
        .map(|g| g.join(" = "))
        .collect::<Vec<_>>()
        .join(" < ")
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A ranking that changes: a heading, then each distinct order with the profiles that give it,
/// one a line.
pub fn ranking_line(r: &RankingJson) -> String {
    let mut groups: Vec<(&Vec<Vec<String>>, Vec<&str>)> = Vec::new();
    for p in &r.by_profile {
        match groups.iter_mut().find(|(o, _)| **o == p.order) {
            Some((_, names)) => names.push(&p.profile),
            None => groups.push((&p.order, vec![&p.profile])),
        }
    }
    let mut out = format!(
        "  Ranking changes on {} (lowest first):\n",
        label(&r.figure)
    );
    for (o, names) in &groups {
        out.push_str(&format!(
            "    {} under {}\n",
            order_text(o),
            and_list(names)
        ));
    }
    out
}

/// The text section: each design's varying figures as `typical [low … high]`, the figures the
/// assumptions do not move, and whether the designs' ranking changes.
pub fn text(r: &AssumptionRangesJson, detail: bool) -> String {
    let names: Vec<&str> = r.profiles.iter().map(|p| p.name.as_str()).collect();
    let mut o = format!(
        "\nAcross assumptions: typical [lowest … highest] over the profiles {} \
         (docs/CALIBRATION.md; typical is the scenario as written)\n",
        and_list(&names)
    );
    for p in &r.profiles {
        o.push_str(&format!(
            "  {:<8} hardware {}, writers {}, compaction threads {}+{}, variability {}, bulk job \
             task {}/s{}\n",
            p.name,
            p.hardware,
            p.writers,
            p.compaction_threads_small,
            p.compaction_threads_large,
            p.variability,
            crate::units::format_bytes(p.bulk_task_rate),
            if p.request_us > 0 {
                format!(
                    ", closed-loop request {}",
                    crate::units::format_duration_us(p.request_us)
                )
            } else {
                String::new()
            }
        ));
    }
    for run in &r.runs {
        o.push_str(&format!("  {}\n", run.generator));
        let mut shown: Vec<&FigureRangeJson> = run
            .ranges
            .iter()
            .filter(|f| detail || is_headline(&f.figure))
            .collect();
        shown.sort_by_key(|f| rank_of(&f.figure));
        let width = shown
            .iter()
            .map(|f| label(&f.figure).chars().count())
            .max()
            .unwrap_or(0);
        // A change the display rounds away reads as no change: name it apart.
        let mut fine = Vec::new();
        for f in &shown {
            let (lo, hi) = (
                format_figure(&f.figure, f.min),
                format_figure(&f.figure, f.max),
            );
            if lo == hi {
                fine.push(label(&f.figure));
            } else {
                o.push_str(&format!(
                    "    {:<width$}  {}\n",
                    label(&f.figure),
                    bracket(f)
                ));
            }
        }
        if !fine.is_empty() {
            o.push_str(&format!(
                "    varies below the precision shown: {}\n",
                fine.join("; ")
            ));
        }
        let hidden = run.ranges.len() - shown.len();
        if hidden > 0 {
            o.push_str(&format!(
                "    and {hidden} more figures vary (--detail, or assumption_ranges in the JSON)\n"
            ));
        }
        let mut same: Vec<&String> = run
            .same
            .iter()
            .filter(|f| detail || is_headline(f))
            .collect();
        same.sort_by_key(|f| rank_of(f));
        if !same.is_empty() {
            let same: Vec<&str> = same.into_iter().map(|f| label(f)).collect();
            o.push_str(&format!(
                "    same under every profile: {}\n",
                same.join("; ")
            ));
        }
    }
    let mut ranked: Vec<&RankingJson> = r
        .rankings
        .iter()
        .filter(|k| detail || is_headline(&k.figure))
        .collect();
    ranked.sort_by_key(|k| rank_of(&k.figure));
    if !ranked.is_empty() {
        let changed: Vec<&&RankingJson> = ranked.iter().filter(|k| k.changes).collect();
        for k in &changed {
            o.push_str(&ranking_line(k));
        }
        let steady: Vec<&str> = ranked
            .iter()
            .filter(|k| !k.changes)
            .map(|k| label(&k.figure))
            .collect();
        if !steady.is_empty() {
            o.push_str(&format!(
                "  The designs rank the same under every profile on: {}\n",
                steady.join("; ")
            ));
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(profile: &str, order: &[&[&str]]) -> RankJson {
        RankJson {
            profile: profile.to_string(),
            order: order
                .iter()
                .map(|g| g.iter().map(|s| s.to_string()).collect())
                .collect(),
        }
    }

    #[test]
    fn a_ranking_line_groups_the_profiles_that_agree() {
        let r = RankingJson {
            figure: "summary.sim_seconds".to_string(),
            by_profile: vec![
                rank("typical", &[&["hashed"], &["salted"]]),
                rank("low", &[&["salted"], &["hashed"]]),
                rank("high", &[&["hashed"], &["salted"]]),
            ],
            changes: true,
        };
        assert_eq!(
            ranking_line(&r),
            "  Ranking changes on ingest time (lowest first):\n    \
             hashed < salted under typical and high\n    salted < hashed under low\n"
        );
    }

    #[test]
    fn figures_format_by_what_they_measure() {
        assert_eq!(format_figure("summary.sim_seconds", 90.0), "1m 30s");
        assert_eq!(format_figure("summary.max_server_write_share", 0.25), "25%");
        assert_eq!(format_figure("region_sizes.cold_regions", 3.0), "3");
        assert_eq!(format_figure("summary.write_amplification", 1.5), "1.50");
        assert!(format_figure("region_sizes.p50", 2e9).ends_with('B'));
    }
}
