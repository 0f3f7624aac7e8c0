//! A run's scalar figures by name. Names are the JSON keys of a run's `summary`, `client`,
//! `region_sizes`, `balance`, `hotspots`, `scan_fanout` and `cluster` (with `[[other_table]]`)
//! objects, of `loader` and `latency` (several clients, a closed loop), and of `summary.versions` (section `versions`, present with updates or deletes): a
//! short name (`cold_regions`) when one
//! section has it, the qualified one (`hotspots.max_server_write_share`) always. `summary`
//! wins a short name shared with another section (`max_server_write_share`,
//! `blocked_seconds`), as it holds the headline figures. Three figures the report states only
//! in parts follow, in section `derived`: `balanced`, `last_region_change` and `merges` (see
//! [`derived`]).

use serde_json::Value;

use crate::report::run::RunJson;

/// The sections whose numeric fields are figures, in lookup priority order.
const SECTIONS: [&str; 10] = [
    "summary",
    "client",
    "region_sizes",
    "balance",
    "hotspots",
    "scan_fanout",
    "versions",
    "cluster",
    "loader",
    "latency",
];

/// One named figure of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// Section (`summary`, `client`, …).
    pub section: &'static str,
    /// Field name within it.
    pub name: String,
    /// Value (integers widened to f64; u128 byte counts lose precision past 2^53, which no
    /// comparison here needs).
    pub value: f64,
}

impl Figure {
    /// `section.name`.
    pub fn qualified(&self) -> String {
        format!("{}.{}", self.section, self.name)
    }
}

/// Every numeric scalar figure of a run, section by section, fields in report order.
pub fn all(run: &RunJson) -> Vec<Figure> {
    // Only these sections are serialized (a whole run holds every region and the timeline).
    let sections = [
        serde_json::to_value(&run.summary),
        serde_json::to_value(&run.client),
        serde_json::to_value(&run.region_sizes),
        serde_json::to_value(&run.balance),
        serde_json::to_value(&run.hotspots),
        serde_json::to_value(&run.scan_fanout),
        serde_json::to_value(&run.summary.versions),
        // Absent (null) without `[[other_table]]`: no figures.
        serde_json::to_value(&run.cluster),
        // Absent for the one shared client; latency only for a closed loop.
        serde_json::to_value(&run.loader),
        serde_json::to_value(run.loader.as_ref().and_then(|l| l.latency.as_ref())),
    ];
    let mut out = Vec::new();
    for (section, value) in SECTIONS.into_iter().zip(sections) {
        let Ok(Value::Object(fields)) = value else {
            continue;
        };
        for (name, v) in fields {
            if let Some(value) = v.as_f64() {
                out.push(Figure {
                    section,
                    name,
                    value,
                });
            }
        }
    }
    out.extend(derived(run));
    out
}

/// Regions on each online server at the end (what `balanced` compares).
pub fn online_regions(run: &RunJson) -> Vec<usize> {
    run.servers
        .iter()
        .filter(|s| s.online)
        .map(|s| s.regions)
        .collect()
}

/// Figures computed from the report's lists, so expectations and sweeps can bound them:
/// - `balanced`: the most regions on one online server over the mean per online server at the
///   end (1 = even; 1 when no server is online);
/// - `last_region_change`: when the last split or merge was requested, as a fraction of the
///   ingest time (0 when none; above 1 when it came while the cluster settled after the load);
/// - `merges`: region merges done (normalizer plans), the length of the report's merge list.
pub fn derived(run: &RunJson) -> [Figure; 3] {
    let online = online_regions(run);
    let total: usize = online.iter().sum();
    let balanced = match online.iter().max() {
        Some(&max) if total > 0 => max as f64 * online.len() as f64 / total as f64,
        _ => 1.0,
    };
    let last = run
        .splits
        .iter()
        .map(|s| s.at_seconds)
        .chain(run.merges.iter().map(|m| m.at_seconds))
        .fold(0.0f64, f64::max);
    let ingest = run.summary.sim_seconds;
    let last_region_change = if ingest > 0.0 { last / ingest } else { 0.0 };
    [
        Figure {
            section: "derived",
            name: "balanced".to_string(),
            value: balanced,
        },
        Figure {
            section: "derived",
            name: "last_region_change".to_string(),
            value: last_region_change,
        },
        Figure {
            section: "derived",
            name: "merges".to_string(),
            value: run.merges.len() as f64,
        },
    ]
}

/// A figure from its qualified name (`summary.splits`), as a sweep stores it; None when the
/// section is not one of a run's figure sections.
pub fn from_qualified(name: &str, value: f64) -> Option<Figure> {
    let (section, field) = name.split_once('.')?;
    let section = SECTIONS.iter().find(|s| **s == section)?;
    Some(Figure {
        section,
        name: field.to_string(),
        value,
    })
}

/// Puts figures in lookup priority order (the order [`all`] returns sections in), so short
/// names resolve as they do on a run.
pub fn sort(figures: &mut [Figure]) {
    figures.sort_by_key(|f| SECTIONS.iter().position(|s| *s == f.section));
}

/// Why a figure name did not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupError {
    /// No section has it; `close` lists known names that contain it or share its first word.
    Unknown {
        /// The name asked for.
        name: String,
        /// Suggestions (at most five).
        close: Vec<String>,
    },
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LookupError::Unknown { name, close } => {
                write!(f, "no figure `{name}` in a run report")?;
                if close.is_empty() {
                    write!(
                        f,
                        " (figures are the numeric fields of a run's summary, client, region_sizes, \
                         balance, hotspots and scan_fanout objects and of summary.versions; see \
                         docs/REPORT.md)"
                    )
                } else {
                    write!(f, " (did you mean {}?)", close.join(", "))
                }
            }
        }
    }
}

/// The figure a name (short or qualified) denotes in `figures`.
pub fn lookup<'a>(figures: &'a [Figure], name: &str) -> Result<&'a Figure, LookupError> {
    let hit = match name.split_once('.') {
        Some((section, field)) => figures
            .iter()
            .find(|f| f.section == section && f.name == field),
        // `figures` is in SECTIONS order, so the first match is the highest-priority section.
        None => figures.iter().find(|f| f.name == name),
    };
    hit.ok_or_else(|| {
        let first = name.rsplit('.').next().unwrap_or(name);
        let stem = first.split('_').next().unwrap_or(first);
        let mut close: Vec<String> = figures
            .iter()
            .filter(|f| f.name.contains(first) || (stem.len() >= 3 && f.name.starts_with(stem)))
            .map(Figure::qualified)
            .collect();
        close.dedup();
        close.truncate(5);
        LookupError::Unknown {
            name: name.to_string(),
            close,
        }
    })
}

/// A figure's value by name.
pub fn value(run: &RunJson, name: &str) -> Result<f64, LookupError> {
    lookup(&all(run), name).map(|f| f.value)
}

/// Whether `name` is a figure of a run report at all (checked against the report's shape, so
/// a scenario's expectations can be validated before anything runs).
pub fn is_known(name: &str) -> Result<(), LookupError> {
    lookup(&all(&template()), name).map(|_| ())
}

/// An empty run, only to know the report's figure names (with the versions section a run
/// with updates or deletes has).
fn template() -> RunJson {
    let mut run: RunJson = serde_json::from_str(TEMPLATE).expect("the template matches RunJson");
    run.summary.versions = Some(crate::report::run::VersionsJson::default());
    run.loader =
        Some(serde_json::from_str(LOADER_TEMPLATE).expect("the template matches LoaderJson"));
    run
}

/// A loader section with a closed loop's latency (several clients, a closed loop).
const LOADER_TEMPLATE: &str = r#"{"partition":"","clients":0,"closed_loop":true,
        "writers_per_client":0,"rows_per_request":0,"request_ms":0,"rows_per_second":0,
        "first_done_seconds":0,"last_done_seconds":0,"mean_wait_seconds":0,"max_wait_seconds":0,
        "latency":{"requests":0,"mean_ms":0,"p50_ms":0,"p95_ms":0,"p99_ms":0,"p999_ms":0,
          "max_ms":0},"per_client":[]}"#;

/// The empty run's JSON, for other modules' tests.
#[cfg(test)]
pub(crate) fn tests_template_json() -> String {
    TEMPLATE.to_string()
}

const TEMPLATE: &str = r#"{"generator":"","describe":"","scale":1,"emulated_rows":0,
        "summary":{"rows":0,"bytes":0,"data_bytes":0,"sim_seconds":0,"settle_seconds":0,
          "regions_initial":0,"regions_final":0,"splits":0,"flushes":0,"flushed_bytes":0,
          "avg_flush_bytes":0,"compactions":0,"minor_compactions":0,"major_compactions":0,
          "compacted_bytes":0,"write_amplification":0,"blocked_seconds":0,"offline_seconds":0,
          "offline_wait_seconds":0,"throttled_seconds":0,"delayed_flushes":0,
          "max_server_write_share":0,"store_bytes":0,"memstore_bytes":0},
        "servers":[],"regions":[],
        "region_sizes":{"min":0,"p50":0,"p90":0,"max":0,"cold_regions":0},
        "splits":[],
        "hotspots":{"window_seconds":0,"max_server_write_share":0,"mean_hottest_share":0,
          "time_over_twice_fair_share":0,"windows":[],"hottest_regions":[]},
        "cluster":{"tables":0,"regions":0,"store_bytes":0,"memstore_bytes":0,"write_bytes":0,
          "flushes":0,"compactions":0,"splits":0,"servers":[]}}"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_prefer_summary_and_qualified_names_reach_each_section() {
        let mut run = template();
        run.summary.max_server_write_share = 0.25;
        run.hotspots.max_server_write_share = 0.75;
        run.region_sizes.cold_regions = 7;
        assert_eq!(value(&run, "max_server_write_share"), Ok(0.25));
        assert_eq!(value(&run, "hotspots.max_server_write_share"), Ok(0.75));
        assert_eq!(value(&run, "cold_regions"), Ok(7.0));
        assert_eq!(value(&run, "region_sizes.cold_regions"), Ok(7.0));
        assert!(is_known("balance.max_regions_per_server").is_ok());
        assert!(is_known("client.stall_seconds").is_ok());
        assert!(is_known("balanced").is_ok());
        assert!(is_known("derived.last_region_change").is_ok());
    }

    #[test]
    fn derived_figures_from_servers_splits_and_merges() {
        let mut run = template();
        let server = |regions, online| {
            let mut s: crate::report::run::ServerJson = serde_json::from_str(
                r#"{"name":"rs","regions":0,"store_bytes":0,"write_requests":0,
                    "write_share":0,"memstore_peak_bytes":0,"blocked_seconds":0}"#,
            )
            .expect("a server");
            s.regions = regions;
            s.online = online;
            s
        };
        // 6 + 3 + 3 regions on the online servers: max 6 over a mean of 4; the dead one is out.
        run.servers = vec![
            server(6, true),
            server(3, true),
            server(3, true),
            server(0, false),
        ];
        assert_eq!(value(&run, "balanced"), Ok(1.5));
        assert_eq!(value(&run, "last_region_change"), Ok(0.0));
        run.summary.sim_seconds = 200.0;
        let split: crate::report::run::SplitJson = serde_json::from_str(
            r#"{"at_seconds":50,"offline_seconds":1,"parent_start":"","parent_end":"",
                "split_key":"k","server":"rs","parent_bytes":0,"generation":1}"#,
        )
        .expect("a split");
        run.splits = vec![split];
        assert_eq!(value(&run, "derived.last_region_change"), Ok(0.25));
    }

    #[test]
    fn unknown_names_suggest_close_ones() {
        let err = is_known("cold").unwrap_err();
        assert!(
            err.to_string().contains("region_sizes.cold_regions"),
            "{err}"
        );
        let err = is_known("zzz").unwrap_err();
        assert!(err.to_string().contains("docs/REPORT.md"), "{err}");
        // A section's non-scalar fields are not figures.
        assert!(is_known("hotspots.windows").is_err());
    }
}
