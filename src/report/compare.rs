//! The comparison table's rows, written once: the text report and the HTML page both render
//! them (a figure added here shows in both). Each row says which direction is better, so the
//! HTML highlights a best value only where fewer or more is good on its own: regions and splits
//! have no best (fewer splits is not better when one hot region took every write).

use crate::report::run::RunJson;
use crate::report::summary::{dur, pct};
use crate::units::{format_bytes, thousands};

/// Which value of a row is the good one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    /// The smallest.
    Lower,
    /// Neither: the figure describes, it does not rank.
    Neither,
}

/// One row of the comparison.
pub struct Row {
    /// What the row shows.
    pub label: &'static str,
    /// Which value is good.
    pub better: Better,
    /// The figure rests on what a coarse scale gets wrong (blocking, flush, compaction and
    /// split counts, the region count, and so the layout the hotspot shares are measured on:
    /// `workload/scale.rs`): marked when the run's scale is coarser than its guard.
    pub coarse: bool,
    /// The figure of a design loaded in bulk rests on the job's assumed figures
    /// (`[bulk_load]`): marked for such a design.
    pub assumed_in_bulk: bool,
    /// With several clients the figure is the average client's: marked for such a design.
    pub per_client: bool,
    /// The value compared (not finite: none, never highlighted).
    pub value: fn(&RunJson) -> f64,
    /// The value as shown.
    pub shown: fn(&RunJson) -> String,
}

/// The share of the stopped writers' regions' median size in the split size (`-` without
/// quiet regions).
fn quiet_median(r: &RunJson) -> f64 {
    let z = &r.region_sizes;
    if z.quiet_regions == 0 || z.split_size == 0 {
        f64::NAN
    } else {
        z.quiet_p50 as f64 / z.split_size as f64
    }
}

/// A share, `-` when absent.
fn share_or_dash(x: f64) -> String {
    if x.is_finite() {
        pct(x)
    } else {
        "-".to_string()
    }
}

/// The rows, answers first: how long the load took and how long it was blocked, then the
/// layout, the hottest server, the regions' sizes, the disk work.
pub const ROWS: &[Row] = &[
    Row {
        label: "ingest time",
        better: Better::Lower,
        coarse: true,
        assumed_in_bulk: true,
        per_client: false,
        value: |r| r.summary.sim_seconds,
        shown: |r| dur(r.summary.sim_seconds),
    },
    Row {
        label: "blocked",
        better: Better::Lower,
        coarse: true,
        assumed_in_bulk: false,
        per_client: true,
        value: |r| r.summary.blocked_seconds,
        shown: |r| dur(r.summary.blocked_seconds),
    },
    Row {
        label: "regions",
        better: Better::Neither,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.summary.regions_final as f64,
        shown: |r| {
            format!(
                "{} → {}",
                r.summary.regions_initial, r.summary.regions_final
            )
        },
    },
    Row {
        label: "splits",
        better: Better::Neither,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.summary.splits as f64,
        shown: |r| thousands(r.summary.splits as u128),
    },
    Row {
        label: "busiest server, mean share",
        better: Better::Lower,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.hotspots.mean_hottest_share.unwrap_or(f64::NAN),
        shown: |r| share_or_dash(r.hotspots.mean_hottest_share.unwrap_or(f64::NAN)),
    },
    Row {
        label: "load over 2× fair share",
        better: Better::Lower,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.hotspots.time_over_twice_fair_share,
        shown: |r| pct(r.hotspots.time_over_twice_fair_share),
    },
    Row {
        label: "busiest server, worst minute",
        better: Better::Lower,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.summary.max_server_write_share,
        shown: |r| pct(r.summary.max_server_write_share),
    },
    Row {
        label: "cold regions",
        better: Better::Lower,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.region_sizes.cold_regions as f64,
        shown: |r| thousands(r.region_sizes.cold_regions as u128),
    },
    Row {
        label: "idle capacity",
        better: Better::Lower,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.region_sizes.idle_capacity,
        shown: |r| pct(r.region_sizes.idle_capacity),
    },
    Row {
        label: "regions no longer written",
        better: Better::Neither,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.region_sizes.quiet_regions as f64,
        shown: |r| thousands(r.region_sizes.quiet_regions as u128),
    },
    Row {
        label: "… their median / split size",
        better: Better::Neither,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: quiet_median,
        shown: |r| share_or_dash(quiet_median(r)),
    },
    Row {
        label: "region size p50",
        better: Better::Neither,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.region_sizes.p50 as f64,
        shown: |r| format_bytes(r.region_sizes.p50),
    },
    Row {
        label: "region size max",
        better: Better::Neither,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.region_sizes.max as f64,
        shown: |r| format_bytes(r.region_sizes.max),
    },
    Row {
        label: "write amplification",
        better: Better::Lower,
        coarse: true,
        assumed_in_bulk: false,
        per_client: false,
        value: |r| r.summary.write_amplification,
        shown: |r| format!("{:.2}", r.summary.write_amplification),
    },
];

/// Marks a bulk-loaded design's figure that rests on its job's assumed figures
/// ([`assumed_note`] says which).
pub const ASSUMED_MARK: &str = " ~";

/// What [`ASSUMED_MARK`] means for `runs`, printed under the table when a design is loaded in
/// bulk or by closed-loop threads (naming only the assumptions these runs rest on).
pub fn assumed_note(runs: &[RunJson]) -> Option<String> {
    let bulk = runs.iter().any(|r| r.bulk_load.is_some());
    let closed = runs
        .iter()
        .any(|r| r.loader.as_ref().is_some_and(|l| l.closed_loop));
    match (bulk, closed) {
        (false, false) => None,
        (true, false) => Some(
            "~ a bulk load's time: its job's from [bulk_load]'s assumed task rate and startup \
             (`check` shows them; docs/MODEL.md, \"Bulk load\")"
                .to_string(),
        ),
        (false, true) => Some(
            "~ a closed loop's time: its threads' from [client]'s assumed request_time \
             (`check` shows it; docs/MODEL.md, \"Loaders\")"
                .to_string(),
        ),
        (true, true) => Some(
            "~ rests on assumed figures: a bulk load's job ([bulk_load] task rate and startup), \
             a closed loop's request time ([client] request_time); `check` shows them \
             (docs/MODEL.md)"
                .to_string(),
        ),
    }
}

/// Marks a figure that is the average client's ([`PER_CLIENT_NOTE`]).
pub const PER_CLIENT_MARK: &str = " ⌀";

/// What [`PER_CLIENT_MARK`] means.
pub const PER_CLIENT_NOTE: &str = "⌀ the average client's: several clients each wait on their \
                                   own (the loader section shows each)";

/// Whether `run`'s figures rest on assumed figures of its load path.
pub fn assumed(run: &RunJson) -> bool {
    run.bulk_load.is_some() || run.loader.as_ref().is_some_and(|l| l.closed_loop)
}

/// Marks a figure a coarse scale makes untrustworthy ([`COARSE_NOTE`] says why).
pub const COARSE_MARK: &str = " ≈?";

/// The note under a comparison with marked figures.
pub const COARSE_NOTE: &str = "≈? not trustworthy at this run's scale, coarser than its guard \
                               (under 100 emulated rows per flush or per region); --scale sets \
                               a finer one";

impl Row {
    /// The value as shown for `run`, marked when the run's scale makes it untrustworthy.
    pub fn cell(&self, run: &RunJson) -> String {
        let mut shown = (self.shown)(run);
        if self.assumed_in_bulk && assumed(run) {
            shown += ASSUMED_MARK;
        }
        if self.per_client && run.loader.as_ref().is_some_and(|l| l.clients > 1) {
            shown += PER_CLIENT_MARK;
        }
        if self.coarse && run.scale_warning.is_some() {
            shown += COARSE_MARK;
        }
        shown
    }

    /// The best value among `runs` for this row: `None` for a row without a best, with fewer
    /// than two runs, or when the runs tie (a tie has no winner).
    pub fn best(&self, runs: &[RunJson]) -> Option<f64> {
        if self.better == Better::Neither || runs.len() < 2 {
            return None;
        }
        let values: Vec<f64> = runs.iter().map(self.value).collect();
        let b = values
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(f64::INFINITY, f64::min);
        (b.is_finite() && values.iter().any(|v| *v != b)).then_some(b)
    }
}
