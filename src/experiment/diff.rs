//! `hbase-emu diff`: what changed between two saved run reports. Designs are matched by
//! generator name; figures come from `figures::all`, so every scalar the report holds is
//! compared; the scenario section is compared field by field.

use serde::Serialize;
use serde_json::Value;

use crate::experiment::figures;
use crate::report::ranges::format_figure;
use crate::report::run::{Report, RunJson};
use crate::report::summary::{dur, pct};

/// The whole difference (docs/REPORT.md, "diff JSON").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffJson {
    /// One line for people.
    pub summary: String,
    /// Scenario and configuration fields that differ (dotted paths into `scenario`).
    pub scenario: Vec<FieldChange>,
    /// Designs in both reports, in the old report's order (also those with no change).
    pub designs: Vec<DesignDiff>,
    /// Generators only in the old report.
    pub only_old: Vec<String>,
    /// Generators only in the new report.
    pub only_new: Vec<String>,
}

/// One scenario field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    /// Dotted path (`hardware.disks`).
    pub field: String,
    /// Old value (null when absent).
    pub old: Value,
    /// New value.
    pub new: Value,
}

/// One design's changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignDiff {
    /// Generator name.
    pub generator: String,
    /// Figures that changed, largest relative change first (a change from 0 first of all).
    pub figures: Vec<FigureChange>,
    /// Live regions at the end, when the count changed.
    pub regions: Option<Pair<usize>>,
    /// Splits, when their count or first/last time changed.
    pub splits: Option<SplitsDiff>,
    /// Servers whose share of all writes changed (a server missing from one report has 0).
    pub write_shares: Vec<ShareChange>,
}

impl DesignDiff {
    /// Whether anything changed.
    pub fn is_empty(&self) -> bool {
        self.figures.is_empty()
            && self.regions.is_none()
            && self.splits.is_none()
            && self.write_shares.is_empty()
    }
}

/// An old and a new value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pair<T> {
    /// Old.
    pub old: T,
    /// New.
    pub new: T,
}

/// One figure's change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FigureChange {
    /// Qualified figure name.
    pub figure: String,
    /// Old value.
    pub old: f64,
    /// New value.
    pub new: f64,
    /// new − old.
    pub change: f64,
    /// (new − old) / |old|; null when old is 0.
    pub relative: Option<f64>,
}

/// Splits compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SplitsDiff {
    /// Split count.
    pub count: Pair<usize>,
    /// Simulated second of the first split (null: none).
    pub first_at_seconds: Pair<Option<f64>>,
    /// Simulated second of the last split.
    pub last_at_seconds: Pair<Option<f64>>,
}

/// One server's write share.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareChange {
    /// Server name.
    pub server: String,
    /// Old share of all writes.
    pub old: f64,
    /// New share.
    pub new: f64,
}

/// The difference from `old` to `new`.
pub fn diff(old: &Report, new: &Report) -> DiffJson {
    let mut scenario = Vec::new();
    let (a, b) = (
        serde_json::to_value(&old.scenario).unwrap_or(Value::Null),
        serde_json::to_value(&new.scenario).unwrap_or(Value::Null),
    );
    compare_values("", &a, &b, &mut scenario);
    let mut designs = Vec::new();
    let mut only_old = Vec::new();
    for o in &old.runs {
        match new.runs.iter().find(|n| n.generator == o.generator) {
            Some(n) => designs.push(design(o, n)),
            None => only_old.push(o.generator.clone()),
        }
    }
    let only_new: Vec<String> = new
        .runs
        .iter()
        .filter(|n| !old.runs.iter().any(|o| o.generator == n.generator))
        .map(|n| n.generator.clone())
        .collect();
    let changed_designs = designs.iter().filter(|d| !d.is_empty()).count();
    let figures: usize = designs.iter().map(|d| d.figures.len()).sum();
    let summary = if scenario.is_empty()
        && changed_designs == 0
        && only_old.is_empty()
        && only_new.is_empty()
    {
        "no differences".to_string()
    } else {
        let mut parts = vec![
            format!("{} scenario field(s) changed", scenario.len()),
            format!(
                "{figures} figure(s) changed in {changed_designs} of {} design(s)",
                designs.len()
            ),
        ];
        if !only_old.is_empty() {
            parts.push(format!("only in the old report: {}", only_old.join(", ")));
        }
        if !only_new.is_empty() {
            parts.push(format!("only in the new report: {}", only_new.join(", ")));
        }
        parts.join("; ")
    };
    DiffJson {
        summary,
        scenario,
        designs,
        only_old,
        only_new,
    }
}

/// The figures a diff leads with when they changed: ingest, blocked, regions and the busiest
/// server's share (the comparison's answers).
const HEADLINE: [&str; 6] = [
    "summary.sim_seconds",
    "summary.blocked_seconds",
    "summary.regions_final",
    "summary.splits",
    "summary.max_server_write_share",
    "hotspots.mean_hottest_share",
];

/// Leaves of two JSON values that differ, as dotted paths (arrays compared whole).
fn compare_values(path: &str, a: &Value, b: &Value, out: &mut Vec<FieldChange>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().collect();
            keys.extend(y.keys().filter(|k| !x.contains_key(*k)));
            for k in keys {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                compare_values(
                    &p,
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                    out,
                );
            }
        }
        _ if a != b => out.push(FieldChange {
            field: path.to_string(),
            old: a.clone(),
            new: b.clone(),
        }),
        _ => {}
    }
}

fn design(o: &RunJson, n: &RunJson) -> DesignDiff {
    let nf = figures::all(n);
    let mut figs: Vec<FigureChange> = figures::all(o)
        .into_iter()
        .filter_map(|f| {
            let name = f.qualified();
            let new = figures::lookup(&nf, &name).ok()?.value;
            (new.to_bits() != f.value.to_bits()).then(|| FigureChange {
                relative: (f.value != 0.0).then(|| (new - f.value) / f.value.abs()),
                change: new - f.value,
                old: f.value,
                new,
                figure: name,
            })
        })
        .collect();
    // The headline figures an operator reads first, in this order; then the long tail, largest
    // relative change first (a change from 0 is the largest of all).
    let head = |c: &FigureChange| {
        HEADLINE
            .iter()
            .position(|h| *h == c.figure)
            .unwrap_or(HEADLINE.len())
    };
    let key = |c: &FigureChange| c.relative.map_or(f64::INFINITY, f64::abs);
    figs.sort_by(|x, y| {
        head(x)
            .cmp(&head(y))
            .then_with(|| key(y).total_cmp(&key(x)))
    });
    let regions = (o.regions.len() != n.regions.len()).then_some(Pair {
        old: o.regions.len(),
        new: n.regions.len(),
    });
    let when = |r: &RunJson, last: bool| {
        let s = if last {
            r.splits.last()
        } else {
            r.splits.first()
        };
        s.map(|s| s.at_seconds)
    };
    let splits = SplitsDiff {
        count: Pair {
            old: o.splits.len(),
            new: n.splits.len(),
        },
        first_at_seconds: Pair {
            old: when(o, false),
            new: when(n, false),
        },
        last_at_seconds: Pair {
            old: when(o, true),
            new: when(n, true),
        },
    };
    let splits_changed = splits.count.old != splits.count.new
        || splits.first_at_seconds.old != splits.first_at_seconds.new
        || splits.last_at_seconds.old != splits.last_at_seconds.new;
    let share = |r: &RunJson, name: &str| {
        r.servers
            .iter()
            .find(|s| s.name == name)
            .map_or(0.0, |s| s.write_share)
    };
    let mut names: Vec<&str> = o.servers.iter().map(|s| s.name.as_str()).collect();
    names.extend(
        n.servers
            .iter()
            .map(|s| s.name.as_str())
            .filter(|x| !o.servers.iter().any(|s| s.name == *x)),
    );
    let write_shares = names
        .into_iter()
        .filter_map(|name| {
            let (a, b) = (share(o, name), share(n, name));
            (a.to_bits() != b.to_bits()).then(|| ShareChange {
                server: name.to_string(),
                old: a,
                new: b,
            })
        })
        .collect();
    DesignDiff {
        generator: o.generator.clone(),
        figures: figs,
        regions,
        splits: splits_changed.then_some(splits),
        write_shares,
    }
}

fn json_text(v: &Value) -> String {
    match v {
        Value::Null => "(none)".to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn at(t: Option<f64>) -> String {
    t.map_or("none".to_string(), dur)
}

impl DiffJson {
    /// Text for people: only what changed.
    pub fn to_text(&self) -> String {
        let mut o = format!("Diff: {}\n", self.summary);
        if !self.scenario.is_empty() {
            o.push_str("\nScenario\n");
            for c in &self.scenario {
                o.push_str(&format!(
                    "  {}: {} → {}\n",
                    c.field,
                    json_text(&c.old),
                    json_text(&c.new)
                ));
            }
        }
        for d in self.designs.iter().filter(|d| !d.is_empty()) {
            o.push_str(&format!("\n{}\n", d.generator));
            if let Some(r) = &d.regions {
                o.push_str(&format!("  regions: {} → {}\n", r.old, r.new));
            }
            if let Some(s) = &d.splits {
                o.push_str(&format!(
                    "  splits: {} → {}; first at {} → {}; last at {} → {}\n",
                    s.count.old,
                    s.count.new,
                    at(s.first_at_seconds.old),
                    at(s.first_at_seconds.new),
                    at(s.last_at_seconds.old),
                    at(s.last_at_seconds.new)
                ));
            }
            let w = d.figures.iter().map(|f| f.figure.len()).max().unwrap_or(0);
            for f in &d.figures {
                let rel = f
                    .relative
                    .map_or("from 0".to_string(), |r| format!("{:+.1}%", r * 100.0));
                o.push_str(&format!(
                    "  {:<w$}  {} → {}  ({rel})\n",
                    f.figure,
                    format_figure(&f.figure, f.old),
                    format_figure(&f.figure, f.new)
                ));
            }
            if !d.write_shares.is_empty() {
                let shares: Vec<String> = d
                    .write_shares
                    .iter()
                    .map(|s| format!("{} {} → {}", s.server, pct2(s.old), pct2(s.new)))
                    .collect();
                o.push_str(&format!("  write shares: {}\n", shares.join(", ")));
            }
        }
        for (which, list) in [("old", &self.only_old), ("new", &self.only_new)] {
            if !list.is_empty() {
                o.push_str(&format!(
                    "\nOnly in the {which} report: {}\n",
                    list.join(", ")
                ));
            }
        }
        o
    }
}

/// A share with two decimals of a percent (whole percents hide most share changes).
fn pct2(x: f64) -> String {
    if x.is_finite() {
        format!("{:.2}%", x * 100.0)
    } else {
        pct(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scenario_fields_compare_by_dotted_path() {
        let mut out = Vec::new();
        compare_values(
            "",
            &json!({"max_filesize": 1, "hardware": {"disks": 4, "cores": 16}}),
            &json!({"max_filesize": 2, "hardware": {"disks": 4, "cores": 8}, "new": true}),
            &mut out,
        );
        let fields: Vec<&str> = out.iter().map(|c| c.field.as_str()).collect();
        // serde_json maps keep keys sorted.
        assert_eq!(fields, ["hardware.cores", "max_filesize", "new"]);
        assert_eq!(out[2].old, Value::Null);
    }

    /// The headline figures lead in their fixed order, however small their change; then the
    /// largest relative change first, a figure that was 0 before leading those.
    #[test]
    fn figures_sort_headline_first_then_by_relative_change() {
        let json = crate::experiment::figures::tests_template_json();
        let old: RunJson = serde_json::from_str(&json).unwrap();
        let mut new = old.clone();
        new.summary.splits = 3; // from 0
        new.summary.rows = 0; // unchanged
        let mut old2 = old.clone();
        old2.summary.flushes = 100;
        old2.summary.compactions = 10;
        new.summary.flushes = 110; // +10 %
        new.summary.compactions = 20; // +100 %
        old2.summary.sim_seconds = 1000.0;
        new.summary.sim_seconds = 1010.0; // +1 %, a headline figure
        old2.summary.avg_flush_bytes = 0;
        new.summary.avg_flush_bytes = 5; // from 0, not a headline figure
        let d = design(&old2, &new);
        let names: Vec<&str> = d.figures.iter().map(|f| f.figure.as_str()).collect();
        assert_eq!(
            names,
            [
                "summary.sim_seconds",
                "summary.splits",
                "summary.avg_flush_bytes",
                "summary.compactions",
                "summary.flushes"
            ]
        );
        assert_eq!(d.figures[1].relative, None);
        assert_eq!(d.figures[3].relative, Some(1.0));
        assert!(d.regions.is_none() && d.splits.is_none());
    }
}
