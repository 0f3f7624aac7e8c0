//! A run's scalar figures by name. Names are the JSON keys of a run's `summary`, `client`,
//! `region_sizes`, `balance` and `hotspots` objects: a short name (`cold_regions`) when one
//! section has it, the qualified one (`hotspots.max_server_write_share`) always. `summary`
//! wins a short name shared with another section (`max_server_write_share`,
//! `blocked_seconds`), as it holds the headline figures.

use serde_json::Value;

use crate::report::run::RunJson;

/// The sections whose numeric fields are figures, in lookup priority order.
const SECTIONS: [&str; 5] = ["summary", "client", "region_sizes", "balance", "hotspots"];

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
    let mut out = Vec::new();
    let Ok(Value::Object(root)) = serde_json::to_value(run) else {
        return out;
    };
    for section in SECTIONS {
        let Some(Value::Object(fields)) = root.get(section) else {
            continue;
        };
        for (name, v) in fields {
            if let Some(value) = v.as_f64() {
                out.push(Figure {
                    section,
                    name: name.clone(),
                    value,
                });
            }
        }
    }
    out
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
                         balance and hotspots objects; see docs/REPORT.md)"
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

/// An empty run, only to know the report's figure names.
fn template() -> RunJson {
    let json = r#"{"generator":"","describe":"","scale":1,"emulated_rows":0,
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
          "time_over_twice_fair_share":0,"windows":[],"hottest_regions":[]}}"#;
    serde_json::from_str(json).expect("the template matches RunJson")
}

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
