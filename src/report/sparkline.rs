//! Terminal sparklines: regions per server over time in one line of block characters each, so
//! the text report shows how regions spread without a chart.

use crate::report::run::RunJson;
use crate::report::summary::timeline_series;
use crate::units::format_duration_ms;

const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
/// Characters per sparkline; with the name and the numbers a line stays under 100 columns.
const WIDTH: usize = 60;

/// `values` as a sparkline on a shared `lo..=hi` scale, one character per value.
pub fn sparkline(values: &[f64], lo: f64, hi: f64) -> String {
    values
        .iter()
        .map(|v| {
            if !v.is_finite() || hi <= lo {
                return BARS[0];
            }
            let f = ((v - lo) / (hi - lo)).clamp(0.0, 1.0);
            BARS[(f * 7.0).round() as usize]
        })
        .collect()
}

/// The value in force at the end of each of `width` equal time buckets over `[0, end]` (a step
/// function: the last sample at or before the bucket's end).
fn resample(points: &[(f64, f64)], end: f64, width: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(width);
    let mut i = 0;
    let mut last = points.first().map_or(0.0, |p| p.1);
    for b in 1..=width {
        let t = end * b as f64 / width as f64;
        while i < points.len() && points[i].0 <= t {
            last = points[i].1;
            i += 1;
        }
        out.push(last);
    }
    out
}

/// The text block: a heading and one sparkline per server; empty when the run has no timeline.
pub fn regions_block(run: &RunJson) -> String {
    let series = timeline_series(run, |t| t.regions as f64);
    let end = run
        .timeline
        .iter()
        .map(|t| t.at_seconds)
        .filter(|t| t.is_finite())
        .fold(0.0, f64::max);
    if series.is_empty() || end <= 0.0 {
        return String::new();
    }
    let width = WIDTH.min(run.timeline.len().max(1));
    let rows: Vec<(String, Vec<f64>)> = series
        .into_iter()
        .map(|s| (s.name, resample(&s.points, end, width)))
        .collect();
    let all = rows.iter().flat_map(|r| r.1.iter().copied());
    let hi = all.clone().fold(0.0, f64::max);
    let name_w = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let mut o = format!(
        "\n  Regions per server over time (0 → {}; ▁ = 0, █ = {} regions)\n",
        format_duration_ms((end * 1000.0) as u64),
        hi
    );
    for (name, vals) in &rows {
        let first = vals.first().copied().unwrap_or(0.0);
        let last = vals.last().copied().unwrap_or(0.0);
        o.push_str(&format!(
            "    {name:<name_w$} {} {first} → {last}\n",
            sparkline(vals, 0.0, hi)
        ));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparkline_spans_the_bar_range() {
        assert_eq!(sparkline(&[0.0, 1.0, 2.0], 0.0, 2.0), "▁▅█");
        assert_eq!(sparkline(&[5.0, f64::NAN], 5.0, 5.0), "▁▁");
    }

    #[test]
    fn resample_holds_the_last_value() {
        let pts = [(10.0, 1.0), (20.0, 3.0), (40.0, 4.0)];
        assert_eq!(resample(&pts, 40.0, 4), vec![1.0, 3.0, 3.0, 4.0]);
        assert_eq!(resample(&[], 40.0, 2), vec![0.0, 0.0]);
    }
}
