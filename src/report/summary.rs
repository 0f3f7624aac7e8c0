//! What several renderers derive from a run's numbers: per-server timeline series, the write
//! share per server over time, and the one-line verdict. Renderers (html, text, sparkline) import
//! this; it imports only the report model and the chart types.

use std::collections::BTreeMap;

use crate::report::run::{RunJson, TimelineSampleJson};
use crate::report::svg::Series;
use crate::units::{format_duration_ms, thousands};

/// A duration for people; `0 ms` for none or a non-finite value.
pub(crate) fn dur(seconds: f64) -> String {
    if seconds.is_finite() && seconds > 0.0 {
        format_duration_ms((seconds * 1000.0).round() as u64)
    } else {
        "0 ms".to_string()
    }
}

/// A fraction as a whole percentage; `–` when not finite.
pub(crate) fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.0}%", x * 100.0)
    } else {
        "–".to_string()
    }
}

/// Peak share per minute in minutes that had writes (from the timeline, else the hotspot windows).
fn minute_peaks(run: &RunJson) -> Vec<f64> {
    let (_, grid) = write_share_grid(run);
    let cols = grid.first().map_or(0, Vec::len);
    (0..cols)
        .filter_map(|c| {
            let col: Vec<f64> = grid
                .iter()
                .map(|r| r.get(c).copied().unwrap_or(0.0))
                .collect();
            let sum: f64 = col.iter().sum();
            (sum > 0.0).then(|| col.iter().copied().fold(0.0, f64::max) / sum)
        })
        .collect()
}

/// One line in plain words, computed from the numbers.
pub fn verdict(run: &RunJson, servers: usize) -> String {
    let s = &run.summary;
    if s.rows == 0 {
        return "no rows were written".to_string();
    }
    let answer = match &run.bulk_load {
        Some(b) => bulk_verdict(run, b),
        None => put_verdict(run, servers),
    };
    if run.scale_warning.is_some() {
        // Said first: the waits, the ingest time and the layout rest on what the scale gets
        // wrong.
        format!(
            "rough: scale {} is coarser than its guard {} (blocking, flushes, splits and the \
             region count not trustworthy); {answer}",
            thousands(run.scale as u128),
            thousands(run.scale_guard as u128)
        )
    } else {
        answer
    }
}

/// The verdict of a design loaded with Puts: its waits over [`WAIT_SHARE`], then how the
/// writes spread and the ingest time.
fn put_verdict(run: &RunJson, servers: usize) -> String {
    let spread = spread(run, servers);
    let waits = waits(run);
    let mut answer = if waits.is_empty() {
        spread
    } else {
        format!("{}; {spread}", waits.join(", "))
    };
    if let Some(p) = run
        .loader
        .as_ref()
        .and_then(crate::report::loader::verdict_phrase)
    {
        answer = format!("{p}; {answer}");
    }
    answer
}

/// The verdict of a design loaded in bulk: refused (and why), or how long the job and the
/// loader took, how evenly the data landed, and what the load left to do.
fn bulk_verdict(run: &RunJson, b: &crate::report::bulkload::BulkLoadJson) -> String {
    let s = &run.summary;
    let job = format!(
        "job {} (at [bulk_load]'s assumed task rate; its largest task wrote {} of the data)",
        dur(b.job_seconds),
        crate::report::bulkload::fine_pct(b.largest_task_share)
    );
    if let Some(r) = &b.refused {
        return format!("bulk load REFUSED after the {job}: {r}");
    }
    let busiest = run
        .servers
        .iter()
        .map(|x| x.write_share)
        .fold(0.0, f64::max);
    let after = s.settle_seconds - s.sim_seconds;
    let mut tail = String::new();
    if s.sim_seconds > 0.0 && after / s.sim_seconds > WAIT_SHARE {
        tail = format!(
            ", then {} of compactions and splits ({} stores needed a compaction, {} of {} regions \
             were over their split size)",
            dur(after),
            thousands(b.stores_owing_compaction as u128),
            thousands(b.regions_over_split_size as u128),
            thousands(b.regions_at_load_end as u128)
        );
    } else if b.regions_over_split_size > 0 {
        tail = format!(
            "; {} of {} regions are over their split size and split at their next flush or \
             compaction",
            thousands(b.regions_over_split_size as u128),
            thousands(b.regions_at_load_end as u128)
        );
    }
    // Nothing asks a bulk-loaded region to split but a flush or a compaction: say so when the
    // table ends with its median region over the split size.
    let z = &run.region_sizes;
    let end = if z.split_size > 0 && z.p50 > z.split_size {
        format!(
            "; at the end the median region holds {} ({} of the split size) and splits only at \
             its next flush or compaction",
            crate::units::format_bytes(z.p50),
            pct(z.p50 as f64 / z.split_size as f64)
        )
    } else {
        String::new()
    };
    format!(
        "bulk-loaded in {}: {job}, files loaded in {}; the busiest server took {} of the \
         rows{tail}{end}",
        dur(s.sim_seconds),
        dur(b.load_seconds),
        pct(busiest)
    )
}

/// A wait counts in the verdict from this share of the ingest time on.
pub const WAIT_SHARE: f64 = 0.05;

/// The client's waits over [`WAIT_SHARE`] of the ingest, largest first, each with its share
/// and length (`blocked 83% of the ingest (1d 16h, …)`).
fn waits(run: &RunJson) -> Vec<String> {
    let s = &run.summary;
    if s.sim_seconds.is_nan() || s.sim_seconds <= 0.0 {
        return Vec::new();
    }
    let mut w = [
        (
            s.blocked_seconds,
            "blocked",
            "regions too busy or a full global memstore".to_string(),
        ),
        (
            s.offline_wait_seconds,
            "waiting on offline regions",
            "regions in transition".to_string(),
        ),
        (
            s.throttled_seconds,
            "held back by the servers",
            throttle_cause(s.throttled_by.as_ref()),
        ),
    ];
    // Stable: equal waits keep this order.
    w.sort_by(|a, b| b.0.total_cmp(&a.0));
    w.iter()
        // A saved report edited by hand may hold a wait of no finite share: left out.
        .filter(|(secs, ..)| {
            let share = *secs / s.sim_seconds;
            share.is_finite() && share > WAIT_SHARE
        })
        .map(|(secs, what, cause)| {
            // Several clients: each waits on its own; the figure is the average client's.
            let what = match &run.loader {
                Some(_) => format!("the average client {what}"),
                None => what.to_string(),
            };
            format!(
                "{what} {} of the ingest ({}: {cause})",
                // Over the ingest only in a report edited by hand: no hundred-digit share.
                if secs / s.sim_seconds > 1.0 {
                    ">100%".to_string()
                } else {
                    pct(secs / s.sim_seconds)
                },
                dur(*secs)
            )
        })
        .collect()
}

/// What held the client back at the servers, in words: the causes of at least a tenth of the
/// time, largest first ("GC pauses 70%, their CPU 30%").
fn throttle_cause(t: Option<&crate::report::run::ThrottledJson>) -> String {
    let Some(t) = t else {
        return "their write bandwidth and GC pauses".to_string();
    };
    let parts = t.parts();
    let total: f64 = parts.iter().map(|p| p.0).sum();
    if !total.is_finite() || total <= 0.0 {
        return "their write bandwidth and GC pauses".to_string();
    }
    let named: Vec<(&str, String)> = parts
        .iter()
        .filter(|(secs, ..)| *secs / total >= 0.1)
        .map(|(secs, _, what)| (*what, pct(secs / total)))
        .collect();
    match named.as_slice() {
        [(what, _)] => what.to_string(),
        _ => named
            .iter()
            .map(|(what, share)| format!("{what} {share}"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// How the writes spread over the servers, ending with the ingest time (and the flushes and
/// compactions that ran on after the last write, when they took over [`WAIT_SHARE`] of it).
fn spread(run: &RunJson, servers: usize) -> String {
    let peaks = minute_peaks(run);
    let s = &run.summary;
    let after = s.settle_seconds - s.sim_seconds;
    let tail = if s.sim_seconds > 0.0 && after / s.sim_seconds > WAIT_SHARE {
        format!(
            "; ingest took {}, then {} of flushes and compactions",
            dur(s.sim_seconds),
            dur(after)
        )
    } else {
        format!("; ingest took {}", dur(s.sim_seconds))
    };
    if servers <= 1 {
        return format!("a single RegionServer took every write{tail}");
    }
    if peaks.is_empty() {
        return format!(
            "the busiest server took {} of all writes{tail}",
            pct(run
                .servers
                .iter()
                .map(|x| x.write_share)
                .fold(0.0, f64::max))
        );
    }
    let n = peaks.len() as f64;
    let all = peaks.iter().filter(|p| **p >= 0.995).count() as f64 / n;
    if all >= 0.5 {
        return format!(
            "one server took 100% of writes in {} of the load's minutes{tail}",
            pct(all)
        );
    }
    // The engine's exact per-window figures (fair share from the servers online in each
    // window); the chart's columns only approximate its windows.
    let h = &run.hotspots;
    let max = s.max_server_write_share;
    let Some(mean) = h.mean_hottest_share else {
        return legacy_verdict(&peaks, servers, max, &tail);
    };
    let over = h.time_over_twice_fair_share;
    if over >= 0.25 {
        format!(
            "one server held more than twice its fair share for {} of the load; the busiest \
             server took {} of writes on average{tail}",
            pct(over),
            pct(mean)
        )
    } else if over > 0.0 {
        format!(
            "writes mostly spread, with bursts: one server held more than twice its fair share \
             for {} of the load, at most {} of a minute's writes{tail}",
            pct(over),
            pct(max)
        )
    } else {
        format!(
            "writes spread evenly: the busiest server took {} of writes on average, never \
             more than twice its fair share{tail}",
            pct(mean)
        )
    }
}

/// The verdict of a report saved before the time-weighted figures: fair share from the
/// servers at the end.
fn legacy_verdict(peaks: &[f64], servers: usize, max: f64, tail: &str) -> String {
    let n = peaks.len() as f64;
    let fair = 1.0 / servers as f64;
    let over = peaks.iter().filter(|p| **p > 2.0 * fair).count() as f64 / n;
    if over >= 0.25 {
        format!(
            "some server took more than twice its fair share ({}) in {} of the load's minutes{tail}",
            pct(fair),
            pct(over)
        )
    } else if max > 2.0 * fair {
        format!(
            "writes mostly spread, with bursts: some server took more than twice its fair share \
             ({}) in {} of the load's minutes, at most {} of a minute's writes{tail}",
            pct(fair),
            pct(over),
            pct(max)
        )
    } else {
        format!(
            "writes spread evenly: the busiest server never took more than {} of a minute's \
             writes (fair share {}){tail}",
            pct(max),
            pct(fair)
        )
    }
}

/// Server names in display order: the run's servers, then any only seen in the timeline.
pub(crate) fn server_names(run: &RunJson) -> Vec<String> {
    let mut names: Vec<String> = run.servers.iter().map(|s| s.name.clone()).collect();
    // A set, not `names.contains`: the timeline has a sample per server per minute, so a
    // linear search is quadratic in servers, and thousands of servers make it the run's bulk.
    let mut seen: std::collections::HashSet<&str> = names.iter().map(String::as_str).collect();
    let mut extra = Vec::new();
    for t in &run.timeline {
        if seen.insert(t.server.as_str()) {
            extra.push(t.server.clone());
        }
    }
    names.extend(extra);
    names
}

/// Timeline values per server: `(server, [(at_seconds, value)])`, in [`server_names`] order.
pub fn timeline_series(run: &RunJson, value: impl Fn(&TimelineSampleJson) -> f64) -> Vec<Series> {
    let mut by: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    for t in &run.timeline {
        by.entry(t.server.as_str())
            .or_default()
            .push((t.at_seconds, value(t)));
    }
    server_names(run)
        .into_iter()
        .filter_map(|name| {
            let mut points = by.remove(name.as_str())?;
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            Some(Series { name, points })
        })
        .collect()
}

/// Most times its fair share the write-share heatmap's colour scale shows (above it, cells
/// saturate): a server at 3× its fair share is hot by any reading.
pub(crate) const FAIR_SHARE_SCALE_MAX: f64 = 3.0;

/// Write share per server over time relative to the fair share, 1 / the servers online in that
/// column (timeline samples' `online`; else the hotspot windows' `online_servers`; else every
/// server): 1 is an even spread, 0 an idle server, 2 twice its share. (x span, `[server][column]`.)
pub(crate) fn write_share_vs_fair(run: &RunJson) -> ((f64, f64), Vec<Vec<f64>>) {
    let (span, mut grid) = write_share_grid(run);
    let columns = grid.iter().map(Vec::len).max().unwrap_or(0);
    let online: Vec<f64> = if !run.timeline.is_empty() {
        let mut times: Vec<f64> = run.timeline.iter().map(|t| t.at_seconds).collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        let mut up = vec![0.0; times.len()];
        for t in run.timeline.iter().filter(|t| t.online) {
            let c = times
                .partition_point(|x| *x < t.at_seconds)
                .min(times.len() - 1);
            up[c] += 1.0;
        }
        up
    } else {
        (0..columns)
            .map(|c| {
                run.hotspots
                    .online_servers
                    .get(c)
                    .map_or(grid.len() as f64, |&n| f64::from(n))
            })
            .collect()
    };
    for row in grid.iter_mut() {
        for (c, v) in row.iter_mut().enumerate() {
            *v *= online.get(c).copied().filter(|n| *n > 0.0).unwrap_or(1.0);
        }
    }
    (span, grid)
}

/// Write share per server over time: (x span, `[server][column]` shares).
pub(crate) fn write_share_grid(run: &RunJson) -> ((f64, f64), Vec<Vec<f64>>) {
    if !run.timeline.is_empty() {
        let series = timeline_series(run, |t| t.write_requests_per_s);
        let mut times: Vec<f64> = run.timeline.iter().map(|t| t.at_seconds).collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        let col = |t: f64| times.partition_point(|x| *x < t);
        let mut grid = vec![vec![0.0; times.len()]; series.len()];
        for (r, s) in series.iter().enumerate() {
            for (t, v) in &s.points {
                grid[r][col(*t).min(times.len() - 1)] = *v;
            }
        }
        for c in 0..times.len() {
            let sum: f64 = grid.iter().map(|r| r[c]).sum();
            if sum > 0.0 {
                for r in grid.iter_mut() {
                    r[c] /= sum;
                }
            }
        }
        let step = run.timeline_interval_seconds.max(0.0);
        let first = times.first().copied().unwrap_or(0.0) - step;
        return ((first.max(0.0), times.last().copied().unwrap_or(0.0)), grid);
    }
    let w = &run.hotspots.windows;
    let servers = w.iter().map(Vec::len).max().unwrap_or(0);
    let grid: Vec<Vec<f64>> = (0..servers)
        .map(|s| {
            w.iter()
                .map(|win| win.get(s).copied().unwrap_or(0.0))
                .collect()
        })
        .collect();
    let span = w.len() as f64 * run.hotspots.window_seconds.max(0.0);
    ((0.0, span), grid)
}
