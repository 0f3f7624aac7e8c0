//! sweep.html: one self-contained page (inline CSS and SVG, no scripts) for a sweep. One varied
//! key: a line chart per figure, a line per design. Two or more: a heatmap per figure and
//! design over the first two keys (one per combination of the others). A table of every point
//! ends the page.

use std::fmt::Write;

use serde_json::Value;

use crate::experiment::figures;
use crate::experiment::sweep::{PointJson, SweepJson, human, show};
use crate::report::svg::{self, Series, Unit, esc};

const CSS: &str = "body{font-family:sans-serif;margin:24px auto;max-width:1120px;color:#222;\
background:#fff;line-height:1.4}h1{font-size:22px}h2{font-size:18px;margin-top:36px;\
border-bottom:1px solid #ccc}h3{font-size:15px;margin:22px 0 6px}table{border-collapse:collapse;\
margin:8px 0;font-size:13px}th,td{border:1px solid #ddd;padding:3px 8px;text-align:right}\
th:first-child,td:first-child{text-align:left}.meta{color:#555;font-size:13px}\
svg.chart{display:block;margin:8px 0;max-width:100%;height:auto}";

/// Most heatmaps drawn (figures × designs × combinations of the other keys); the table below
/// holds every value.
const MAX_HEATMAPS: usize = 60;

/// White to dark blue, for the heatmap cells.
const RAMP: [&str; 6] = [
    "#f7fbff", "#c6dbef", "#9ecae1", "#6baed6", "#3182bd", "#08519c",
];

/// The page.
pub fn render(sweep: &SweepJson, chosen: &[String]) -> String {
    let mut out = String::new();
    let title = format!("Sweep: {}", sweep.scenario);
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
         <style>{CSS}</style></head><body><h1>{}</h1><p class=\"meta\">",
        esc(&title),
        esc(&title)
    );
    for (k, vs) in sweep.keys.iter().zip(&sweep.values) {
        let vs: Vec<String> = vs.iter().map(show).collect();
        let _ = write!(out, "<b>{}</b>: {}<br>", esc(k), esc(&vs.join(", ")));
    }
    let _ = write!(
        out,
        "{} of {} points; designs: {}; seed {}.</p>",
        sweep.points.len(),
        sweep.points_total,
        esc(&sweep.designs.join(", ")),
        sweep.seed
    );
    // The charts index the grid by each point's values; a sweep that is not a consistent grid
    // (a hand-edited file: `load` and `merge` refuse those first) gets the table only.
    let consistent = sweep.validate().is_ok();
    if consistent && sweep.keys.len() == 1 {
        lines(&mut out, sweep, chosen);
    } else if consistent {
        heatmaps(&mut out, sweep, chosen);
    }
    points_table(&mut out, sweep, chosen);
    out.push_str("</body></html>\n");
    out
}

fn value_of(sweep: &SweepJson, p: &PointJson, design: &str, figure: &str) -> Option<f64> {
    let _ = sweep;
    let d = p.designs.iter().find(|d| d.generator == design)?;
    figures::lookup(&d.figures(), figure).ok().map(|f| f.value)
}

fn unit(figure: &str) -> Unit {
    if figure.ends_with("_seconds") {
        Unit::Seconds
    } else if figure.ends_with("share") {
        Unit::Share
    } else if figure.ends_with("bytes") {
        Unit::Bytes
    } else {
        Unit::Count
    }
}

/// A value's position on the x axis: numbers as they are, sizes (`2GB`) in bytes; None when a
/// value is neither (the axis then uses the values' order).
fn numeric(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => crate::units::parse_size(s).ok().map(|b| b as f64),
        _ => None,
    }
}

fn id(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

fn lines(out: &mut String, sweep: &SweepJson, chosen: &[String]) {
    let key = &sweep.keys[0];
    let xs: Vec<Option<f64>> = sweep.points.iter().map(|p| numeric(&p.values[0])).collect();
    let by_value = xs.iter().all(Option::is_some);
    let x_label = if by_value {
        key.clone()
    } else {
        format!("{key} (value number)")
    };
    out.push_str("<h2>Figures by value</h2>");
    for figure in chosen {
        let series: Vec<Series> = sweep
            .designs
            .iter()
            .map(|d| {
                let mut points: Vec<(f64, f64)> = sweep
                    .points
                    .iter()
                    .enumerate()
                    .filter_map(|(i, p)| {
                        let x = if by_value { xs[i]? } else { p.index as f64 };
                        Some((x, value_of(sweep, p, d, figure)?))
                    })
                    .collect();
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                Series {
                    name: d.clone(),
                    points,
                }
            })
            .collect();
        let chart_id = format!("sweep-{}", id(figure));
        out.push_str(&svg::line_chart(&svg::LineChart {
            id: &chart_id,
            title: figure,
            x_unit: Unit::Count,
            x_label: &x_label,
            y_unit: unit(figure),
            y_label: figure,
            series: &series,
            step: false,
            height: 280.0,
        }));
    }
}

fn heatmaps(out: &mut String, sweep: &SweepJson, chosen: &[String]) {
    let (rows, cols) = (&sweep.values[0], &sweep.values[1]);
    // The combinations of the keys after the first two, each with its points.
    let mut groups: Vec<(Vec<Value>, Vec<&PointJson>)> = Vec::new();
    for p in &sweep.points {
        let rest = p.values[2..].to_vec();
        match groups.iter_mut().find(|(r, _)| *r == rest) {
            Some((_, ps)) => ps.push(p),
            None => groups.push((rest, vec![p])),
        }
    }
    out.push_str("<h2>Heatmaps</h2>");
    let mut drawn = 0;
    for figure in chosen {
        for design in &sweep.designs {
            for (rest, ps) in &groups {
                if drawn == MAX_HEATMAPS {
                    let _ = write!(
                        out,
                        "<p class=\"meta\">Only the first {MAX_HEATMAPS} heatmaps are drawn; the \
                         table below has every value.</p>"
                    );
                    return;
                }
                drawn += 1;
                let mut grid = vec![vec![None; cols.len()]; rows.len()];
                for p in ps {
                    let r = rows.iter().position(|v| *v == p.values[0]);
                    let c = cols.iter().position(|v| *v == p.values[1]);
                    if let (Some(r), Some(c)) = (r, c) {
                        grid[r][c] = value_of(sweep, p, design, figure);
                    }
                }
                let others: Vec<String> = sweep.keys[2..]
                    .iter()
                    .zip(rest)
                    .map(|(k, v)| format!("{k}={}", show(v)))
                    .collect();
                let mut title = format!("{figure} — {design}");
                if !others.is_empty() {
                    title.push_str(&format!(" ({})", others.join(", ")));
                }
                heatmap(out, sweep, &title, figure, &grid);
            }
        }
    }
}

/// One discrete heatmap: rows are the first key's values, columns the second's, each cell
/// coloured by its value (scale from the smallest to the largest in this grid) and labelled.
fn heatmap(
    out: &mut String,
    sweep: &SweepJson,
    title: &str,
    figure: &str,
    grid: &[Vec<Option<f64>>],
) {
    const LEFT: f64 = 120.0;
    const TOP: f64 = 48.0;
    const CELL_W: f64 = 110.0;
    const CELL_H: f64 = 30.0;
    let (rows, cols) = (&sweep.values[0], &sweep.values[1]);
    let w = LEFT + CELL_W * cols.len() as f64 + 20.0;
    let h = TOP + CELL_H * rows.len() as f64 + 36.0;
    let vals = grid.iter().flatten().flatten();
    let lo = vals.clone().copied().fold(f64::INFINITY, f64::min);
    let hi = vals.copied().fold(f64::NEG_INFINITY, f64::max);
    let _ = write!(
        out,
        "<svg class=\"chart\" id=\"heat-{}\" xmlns=\"http://www.w3.org/2000/svg\" \
         viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" font-size=\"12\">\
         <text x=\"8\" y=\"18\" font-weight=\"bold\">{}</text>\
         <text x=\"{LEFT:.0}\" y=\"38\">{} →</text>\
         <text x=\"8\" y=\"38\">{} ↓</text>",
        id(title),
        esc(title),
        esc(&sweep.keys[1]),
        esc(&sweep.keys[0])
    );
    for (c, v) in cols.iter().enumerate() {
        let x = LEFT + CELL_W * (c as f64 + 0.5);
        let _ = write!(
            out,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            TOP + CELL_H * rows.len() as f64 + 18.0,
            esc(&show(v))
        );
    }
    for (r, v) in rows.iter().enumerate() {
        let y = TOP + CELL_H * r as f64;
        let _ = write!(
            out,
            "<text x=\"8\" y=\"{:.1}\">{}</text>",
            y + CELL_H * 0.65,
            esc(&show(v))
        );
        for (c, cell) in grid[r].iter().enumerate() {
            let x = LEFT + CELL_W * c as f64;
            let (fill, label) = match cell {
                Some(v) => {
                    let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.0 };
                    let k = ((t * (RAMP.len() - 1) as f64).round() as usize).min(RAMP.len() - 1);
                    (RAMP[k], human(figure, *v))
                }
                None => ("#eee", "–".to_string()),
            };
            let ink = if fill == RAMP[4] || fill == RAMP[5] {
                "#fff"
            } else {
                "#222"
            };
            let _ = write!(
                out,
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{CELL_W:.1}\" height=\"{CELL_H:.1}\" \
                 fill=\"{fill}\" stroke=\"#fff\"/><text x=\"{:.1}\" y=\"{:.1}\" \
                 text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
                x + CELL_W / 2.0,
                y + CELL_H * 0.65,
                esc(&label)
            );
        }
    }
    out.push_str("</svg>");
}

fn points_table(out: &mut String, sweep: &SweepJson, chosen: &[String]) {
    out.push_str("<h2>Every point</h2><table><tr><th>#</th>");
    for k in &sweep.keys {
        let _ = write!(out, "<th>{}</th>", esc(k));
    }
    out.push_str("<th>design</th>");
    for f in chosen {
        let _ = write!(out, "<th>{}</th>", esc(f));
    }
    out.push_str("</tr>");
    for p in &sweep.points {
        for d in &p.designs {
            let _ = write!(out, "<tr><td>{}</td>", p.index);
            for v in &p.values {
                let _ = write!(out, "<td>{}</td>", esc(&show(v)));
            }
            let _ = write!(out, "<td>{}</td>", esc(&d.generator));
            let figs = d.figures();
            for f in chosen {
                let cell = figures::lookup(&figs, f)
                    .map(|x| human(&x.name, x.value))
                    .unwrap_or_else(|_| "–".to_string());
                let _ = write!(out, "<td>{}</td>", esc(&cell));
            }
            out.push_str("</tr>");
        }
    }
    out.push_str("</table>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::sweep::{DesignJson, SCHEMA_VERSION};

    fn sweep(keys: usize) -> SweepJson {
        let values: Vec<Vec<Value>> = (0..keys)
            .map(|k| vec![Value::from(format!("{}GB", k + 1)), Value::from("10GB")])
            .collect();
        let n = 1usize << keys;
        SweepJson {
            schema_version: SCHEMA_VERSION,
            scenario: "s <x>".into(),
            scenario_md5: String::new(),
            seed: 1,
            scale: None,
            designs: vec!["a".into()],
            keys: (0..keys).map(|k| format!("k{k}")).collect(),
            values: values.clone(),
            points_total: n,
            shard: None,
            points: (0..n)
                .map(|i| PointJson {
                    index: i,
                    values: (0..keys)
                        .map(|k| values[k][(i >> (keys - 1 - k)) & 1].clone())
                        .collect(),
                    designs: vec![DesignJson {
                        generator: "a".into(),
                        figures: [("summary.splits".to_string(), i as f64)].into(),
                    }],
                })
                .collect(),
        }
    }

    #[test]
    fn one_key_draws_lines_two_keys_draw_heatmaps() {
        let chosen = vec!["splits".to_string()];
        let one = render(&sweep(1), &chosen);
        assert!(one.contains("id=\"sweep-splits\""), "{one}");
        assert!(!one.contains("heat-"));
        assert!(one.contains("s &lt;x&gt;"));
        let three = render(&sweep(3), &chosen);
        // One heatmap per value of the third key.
        assert_eq!(three.matches("<svg class=\"chart\" id=\"heat-").count(), 2);
        assert!(three.contains("k2=10GB"));
        assert_eq!(three.matches("<tr><td>").count(), 8);
    }

    /// Issue 33: a hand-edited point with a missing value indexed past its values.
    #[test]
    fn issue_33_a_point_missing_a_value_renders_the_table_only() {
        let chosen = vec!["splits".to_string()];
        for keys in [1, 3] {
            let mut s = sweep(keys);
            s.points[1].values.clear();
            let page = render(&s, &chosen);
            assert!(!page.contains("<svg"), "{page}");
            assert!(page.contains("<tr><td>"));
        }
    }
}
