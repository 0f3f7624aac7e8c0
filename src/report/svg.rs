//! A small SVG chart kit for the HTML report: line charts, heatmaps, event strips and
//! histograms as plain strings. No scripts, no fonts, no network; output is byte-stable
//! (fixed precision) so it can be snapshot-tested. Inputs are aggregated before drawing so a
//! chart never carries more than [`MAX_POINTS`] points per series or
//! [`MAX_HEAT_ROWS`] × [`MAX_HEAT_COLS`] cells.

use std::fmt::Write;

/// Most points drawn per line series (a 632-pixel plot: about one point per 4 pixels).
pub const MAX_POINTS: usize = 150;
/// Most points per line in a compact panel.
pub const MAX_PANEL_POINTS: usize = 60;
/// Most heatmap rows drawn.
pub const MAX_HEAT_ROWS: usize = 100;
/// Most heatmap columns drawn.
pub const MAX_HEAT_COLS: usize = 300;
/// Most individual event marks in a strip before they are binned (each carries its own hover
/// text, so this bounds the page size).
const MAX_EVENTS: usize = 200;

/// Okabe–Ito: eight colours told apart by readers with any common colour-vision deficiency.
pub const CATEGORY: [&str; 8] = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
];
/// Dash patterns that tell series apart once the eight colours repeat.
const DASHES: [&str; 3] = ["", "6 3", "2 2"];

/// Heatmap colour classes: 0 is "nothing", 1..=15 a viridis-like ramp (dark blue → yellow),
/// readable in greyscale and by colour-blind readers.
const HEAT: [&str; 16] = [
    "#f2f2f2", "#440154", "#481a6c", "#472f7d", "#414487", "#39568c", "#31688e", "#2a788e",
    "#23888e", "#1f988b", "#22a884", "#35b779", "#54c568", "#7ad151", "#a5db36", "#fde725",
];

const W: f64 = 900.0;
const ML: f64 = 78.0;
const MR: f64 = 150.0;
const MT: f64 = 34.0;
const MB: f64 = 46.0;

/// Escapes text for SVG/HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if c.is_control() => o.push('\u{fffd}'),
            c => o.push(c),
        }
    }
    o
}

/// What the numbers on an axis are; decides the display unit and tick labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Plain counts.
    Count,
    /// Bytes, shown in binary units (KiB … PiB).
    Bytes,
    /// Seconds, shown in s, min, h or days depending on the span.
    Seconds,
    /// A fraction 0..1, shown as a percentage.
    Share,
}

/// Divisor and suffix that make `max` readable in `unit`.
pub fn scale(unit: Unit, max: f64) -> (f64, &'static str) {
    let max = if max.is_finite() { max.abs() } else { 0.0 };
    match unit {
        Unit::Count => (1.0, ""),
        Unit::Share => (0.01, "%"),
        Unit::Bytes => {
            const U: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
            let mut d = 1.0;
            let mut i = 0;
            while max / d >= 1024.0 && i + 1 < U.len() {
                d *= 1024.0;
                i += 1;
            }
            (d, U[i])
        }
        Unit::Seconds => {
            if max >= 3.0 * 86_400.0 {
                (86_400.0, "days")
            } else if max >= 3.0 * 3600.0 {
                (3600.0, "h")
            } else if max >= 180.0 {
                (60.0, "min")
            } else {
                (1.0, "s")
            }
        }
    }
}

/// About `target` "nice" tick values (steps of 1, 2 or 5 × 10ⁿ) covering [lo, hi].
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !lo.is_finite() || !hi.is_finite() {
        return vec![0.0];
    }
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo, lo + 1.0) };
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() * step;
    let mut ticks = Vec::new();
    let mut i = 0.0;
    while first + i * step <= hi + step * 1e-9 && ticks.len() < 50 {
        let v = first + i * step;
        // Snap away float noise such as 0.30000000000000004 and -0.
        let p = 10f64.powi((-step.log10()).ceil().clamp(0.0, 12.0) as i32);
        let v = (v * p).round() / p;
        ticks.push(if v == 0.0 { 0.0 } else { v });
        i += 1.0;
    }
    ticks
}

/// A tick label with as many decimals as the step needs.
fn tick_label(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 || step <= 0.0 {
        0
    } else {
        (-step.log10()).ceil().min(6.0) as usize
    };
    format!("{v:.decimals$}")
}

/// Merges adjacent points into at most `max` points (mean x, mean y of each group).
pub fn downsample(points: &[(f64, f64)], max: usize) -> Vec<(f64, f64)> {
    let max = max.max(1);
    if points.len() <= max {
        return points.to_vec();
    }
    let group = points.len().div_ceil(max);
    points
        .chunks(group)
        .map(|c| {
            let n = c.len() as f64;
            (
                c.iter().map(|p| p.0).sum::<f64>() / n,
                c.iter().map(|p| p.1).sum::<f64>() / n,
            )
        })
        .collect()
}

/// How merged heatmap cells combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// Counts: add them up.
    Sum,
    /// Shares and rates: average them.
    Mean,
}

/// Shrinks a `[row][col]` grid to at most `max_rows` × `max_cols` by merging adjacent cells.
pub fn shrink_grid(
    grid: &[Vec<f64>],
    max_rows: usize,
    max_cols: usize,
    merge: Merge,
) -> Vec<Vec<f64>> {
    let rows = grid.len();
    let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
    if rows == 0 || cols == 0 {
        return Vec::new();
    }
    let rg = rows.div_ceil(max_rows.max(1));
    let cg = cols.div_ceil(max_cols.max(1));
    let out_rows = rows.div_ceil(rg);
    let out_cols = cols.div_ceil(cg);
    let mut out = vec![vec![0.0; out_cols]; out_rows];
    let mut n = vec![vec![0usize; out_cols]; out_rows];
    for (r, row) in grid.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if v.is_finite() {
                out[r / rg][c / cg] += v;
            }
            n[r / rg][c / cg] += 1;
        }
    }
    // Edge groups hold fewer cells but are drawn as wide as the others: a sum is scaled up to a
    // full group so the last column does not look artificially cold.
    let full = match merge {
        Merge::Sum => (rg * cg) as f64,
        Merge::Mean => 1.0,
    };
    for (orow, nrow) in out.iter_mut().zip(&n) {
        for (v, k) in orow.iter_mut().zip(nrow) {
            if *k > 0 {
                *v = *v / *k as f64 * full;
            }
        }
    }
    out
}

/// Linear map from a data range onto a pixel range.
#[derive(Debug, Clone, Copy)]
struct Map {
    d0: f64,
    d1: f64,
    p0: f64,
    p1: f64,
}

impl Map {
    fn new(d0: f64, d1: f64, p0: f64, p1: f64) -> Map {
        let (d0, d1) = if d0.is_finite() && d1.is_finite() && d1 > d0 {
            (d0, d1)
        } else if d0.is_finite() {
            (d0, d0 + 1.0)
        } else {
            (0.0, 1.0)
        };
        Map { d0, d1, p0, p1 }
    }
    fn at(&self, v: f64) -> f64 {
        let v = if v.is_finite() { v } else { self.d0 };
        self.p0 + (v - self.d0) / (self.d1 - self.d0) * (self.p1 - self.p0)
    }
}

fn open(out: &mut String, id: &str, h: f64, title: &str) {
    let _ = write!(
        out,
        "<svg id=\"{}\" class=\"chart\" viewBox=\"0 0 {W} {h}\" width=\"{W}\" height=\"{h}\" \
         role=\"img\" aria-label=\"{t}\" font-family=\"sans-serif\" font-size=\"12\">\
         <title>{t}</title><text x=\"{ML}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{t}</text>",
        esc(id),
        t = esc(title)
    );
}

/// Axis label with its display unit: `time (h)`, `store size (GiB)`.
fn with_suffix(label: &str, suffix: &str) -> String {
    if suffix.is_empty() {
        esc(label)
    } else {
        format!("{} ({})", esc(label), esc(suffix))
    }
}

/// Draws the x axis (ticks, grid, label) under a plot area.
fn x_axis(out: &mut String, m: &Map, unit: Unit, label: &str, top: f64, bottom: f64) {
    let (div, suffix) = scale(unit, m.d1.abs().max(m.d0.abs()));
    let ticks = nice_ticks(m.d0 / div, m.d1 / div, 8);
    let step = if ticks.len() > 1 {
        ticks[1] - ticks[0]
    } else {
        1.0
    };
    for t in &ticks {
        let x = m.at(t * div);
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{bottom:.1}\" stroke=\"#e3e3e3\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            bottom + 15.0,
            tick_label(*t, step)
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{:.1}\" y1=\"{bottom:.1}\" x2=\"{:.1}\" y2=\"{bottom:.1}\" stroke=\"#333\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
        m.p0,
        m.p1,
        (m.p0 + m.p1) / 2.0,
        bottom + 34.0,
        with_suffix(label, suffix)
    );
}

/// Draws the y axis (ticks, grid, label) left of a plot area.
fn y_axis(out: &mut String, m: &Map, unit: Unit, label: &str, left: f64, right: f64) {
    let (div, suffix) = scale(unit, m.d1.abs().max(m.d0.abs()));
    let ticks = nice_ticks(m.d0 / div, m.d1 / div, 5);
    let step = if ticks.len() > 1 {
        ticks[1] - ticks[0]
    } else {
        1.0
    };
    for t in &ticks {
        let y = m.at(t * div);
        let _ = write!(
            out,
            "<line x1=\"{left:.1}\" y1=\"{y:.1}\" x2=\"{right:.1}\" y2=\"{y:.1}\" stroke=\"#e3e3e3\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            y + 4.0,
            tick_label(*t, step)
        );
    }
    let mid = (m.p0 + m.p1) / 2.0;
    let _ = write!(
        out,
        "<line x1=\"{left:.1}\" y1=\"{:.1}\" x2=\"{left:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>\
         <text transform=\"translate(16 {mid:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        m.p0,
        m.p1,
        with_suffix(label, suffix)
    );
}

/// One line of a line chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// (x, y) in data units, x ascending.
    pub points: Vec<(f64, f64)>,
}

/// A multi-line chart.
#[derive(Debug, Clone)]
pub struct LineChart<'a> {
    /// Element id.
    pub id: &'a str,
    /// Heading inside the chart.
    pub title: &'a str,
    /// Unit of x.
    pub x_unit: Unit,
    /// Label of x.
    pub x_label: &'a str,
    /// Unit of y.
    pub y_unit: Unit,
    /// Label of y.
    pub y_label: &'a str,
    /// Lines, one per legend entry.
    pub series: &'a [Series],
    /// Draw as steps (the value holds until the next sample), for counts like regions.
    pub step: bool,
    /// Height in pixels; a compact panel (under 300) draws at most [`MAX_PANEL_POINTS`] points
    /// per line.
    pub height: f64,
}

fn finite_range(vals: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    vals.filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((a, b)) => Some((a.min(v), b.max(v))),
        })
}

/// Renders a line chart.
pub fn line_chart(c: &LineChart) -> String {
    let h = c.height.clamp(120.0, 600.0);
    let max_points = if h < 300.0 {
        MAX_PANEL_POINTS
    } else {
        MAX_POINTS
    };
    let mut out = String::new();
    open(&mut out, c.id, h, c.title);
    let pts = || c.series.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = finite_range(pts().map(|p| p.0)).unwrap_or((0.0, 1.0));
    let (_, y1) = finite_range(pts().map(|p| p.1)).unwrap_or((0.0, 1.0));
    // An all-zero chart (no compactions ever queued) gets a 0..1 axis, not 0.000000 ticks.
    let y1 = if y1 > 0.0 { y1 } else { 1.0 };
    // Round the top up to a tick so the highest line does not touch the frame.
    let (div, _) = scale(c.y_unit, y1);
    let top = nice_ticks(0.0, (y1 / div).max(1e-9) * 1.05, 5)
        .last()
        .copied()
        .unwrap_or(1.0)
        .max(y1 / div)
        * div;
    let xm = Map::new(x0, x1, ML, W - MR);
    let ym = Map::new(0.0, if top > 0.0 { top } else { 1.0 }, h - MB, MT);
    y_axis(&mut out, &ym, c.y_unit, c.y_label, ML, W - MR);
    x_axis(&mut out, &xm, c.x_unit, c.x_label, MT, h - MB);
    // Legend lines closer together when a compact panel has many servers.
    let gap = ((h - MT - 12.0) / c.series.len().max(1) as f64).clamp(8.0, 16.0);
    for (i, s) in c.series.iter().enumerate() {
        let colour = CATEGORY[i % CATEGORY.len()];
        let dash = DASHES[(i / CATEGORY.len()) % DASHES.len()];
        let pts = downsample(&s.points, max_points);
        let mut d = String::new();
        let mut prev_y: Option<f64> = None;
        for (x, y) in &pts {
            let (px, py) = (xm.at(*x), ym.at(*y));
            match prev_y {
                None => {
                    let _ = write!(d, "M{px:.1} {py:.1}");
                }
                Some(last) if c.step => {
                    let _ = write!(d, "H{px:.1}");
                    if (last - py).abs() > 0.05 {
                        let _ = write!(d, "V{py:.1}");
                    }
                }
                Some(_) => {
                    let _ = write!(d, "L{px:.1} {py:.1}");
                }
            }
            prev_y = Some(py);
        }
        if !d.is_empty() {
            let dash_attr = if dash.is_empty() {
                String::new()
            } else {
                format!(" stroke-dasharray=\"{dash}\"")
            };
            let _ = write!(
                out,
                "<path d=\"{d}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.6\"{dash_attr}>\
                 <title>{}</title></path>",
                esc(&s.name)
            );
        }
        legend_entry(
            &mut out,
            MT + 6.0 + i as f64 * gap,
            gap,
            (&s.name, colour, dash),
            false,
        );
    }
    out.push_str("</svg>");
    out
}

/// Width of an average sans-serif character, in em: wide enough that text wrapped or cut to it
/// stays inside the chart's right margin.
const CHAR_EM: f64 = 0.62;

/// Most characters of text at `size` px that fit in `room` px.
fn fits(room: f64, size: f64) -> usize {
    ((room / (size * CHAR_EM)).floor() as usize).max(6)
}

/// `text` broken between words into lines of at most `max` characters (a longer word keeps a
/// line of its own: a number or a key is never split).
fn wrap_words(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Writes `text` at `size` px from (`x`, baseline `y`), wrapped to fit `room` px; returns the
/// baseline of the line after it.
fn text_lines(out: &mut String, x: f64, y: f64, size: f64, room: f64, text: &str) -> f64 {
    let mut y = y;
    for line in wrap_words(text, fits(room, size)) {
        let _ = write!(
            out,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\">{}</text>",
            esc(&line)
        );
        y += size + 3.0;
    }
    y
}

/// A legend line (stroke sample and name) in the right margin at `y`. With `wrap` the name
/// takes as many lines as it needs and the next entry's `y` is returned; without, a name too
/// long for the margin is cut with `…` (the full name in its tooltip) and `y + gap` returned.
fn legend_entry(
    out: &mut String,
    y: f64,
    gap: f64,
    (name, colour, dash): (&str, &str, &str),
    wrap: bool,
) -> f64 {
    let x = W - MR + 14.0;
    let dash_attr = if dash.is_empty() {
        String::new()
    } else {
        format!(" stroke-dasharray=\"{dash}\"")
    };
    let _ = write!(
        out,
        "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" \
         stroke-width=\"2.5\"{dash_attr}/>",
        x + 22.0,
    );
    let room = W - (x + 28.0) - 4.0;
    if wrap {
        let end = text_lines(out, x + 28.0, y + 4.0, 12.0, room, name);
        return (end - 4.0).max(y + gap);
    }
    let max = fits(room, 12.0);
    if name.chars().count() <= max {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            x + 28.0,
            y + 4.0,
            esc(name)
        );
    } else {
        let cut: String = name.chars().take(max - 1).collect();
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}…<title>{}</title></text>",
            x + 28.0,
            y + 4.0,
            esc(&cut),
            esc(name)
        );
    }
    y + gap
}

/// A mark drawn over a heatmap (e.g. a split at its key bucket).
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// x in data units.
    pub x: f64,
    /// Row position in original (unshrunk) rows; fractional values allowed.
    pub row: f64,
    /// Hover text.
    pub title: String,
}

/// A grid coloured by value.
#[derive(Debug, Clone)]
pub struct Heatmap<'a> {
    /// Element id.
    pub id: &'a str,
    /// Heading.
    pub title: &'a str,
    /// Unit of x (columns span `x_span` evenly).
    pub x_unit: Unit,
    /// Label of x.
    pub x_label: &'a str,
    /// Data range covered by the columns.
    pub x_span: (f64, f64),
    /// What one drawn column holds, in x's unit, when the caller knows it (samples merged ×
    /// their interval; the last column may be partial); else `x_span` over the columns.
    pub x_cell: Option<f64>,
    /// Label of the rows (y).
    pub y_label: &'a str,
    /// One label per row, top to bottom (some are skipped when rows are many).
    pub row_labels: &'a [String],
    /// `[row][col]` values.
    pub values: &'a [Vec<f64>],
    /// How merged cells combine when the grid is shrunk.
    pub merge: Merge,
    /// Unit of the values (colour legend).
    pub value_unit: Unit,
    /// Label of the colour legend.
    pub value_label: &'a str,
    /// Top of the colour scale (None: the largest value), e.g. 1.0 for shares.
    pub value_max: Option<f64>,
    /// Marks drawn over the grid; several in one drawn cell become one mark counting them.
    pub marks: &'a [Mark],
    /// What one mark is, plural ("splits"), for the mark count under the chart.
    pub mark_noun: &'a str,
    /// Most drawn rows and columns (adjacent cells merge beyond it); every drawn cell may carry
    /// hover text, so this bounds the chart's size.
    pub max_grid: (usize, usize),
    /// Rows are keys in toStringBinary notation: label them with the shortest prefix that tells
    /// a row from its neighbours, after the prefix all rows share.
    pub key_rows: bool,
}

/// Seconds as a short duration (`90 s` → `1m 30s`), for hover text and the cell legend.
fn dur(seconds: f64) -> String {
    if seconds.is_finite() && seconds > 0.0 {
        crate::units::format_duration_ms((seconds * 1000.0).round() as u64)
    } else {
        "0 s".to_string()
    }
}

/// Longest common prefix of two byte strings.
fn lcp(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Row labels for sorted keys (toStringBinary): the prefix every non-empty key shares (shown
/// once, in the axis label) and, per key, `…` plus the shortest part after it that differs from
/// both neighbours. Sequential keys that all start `\x00\x00\x00\x00` read `…\x04`, `…\x08`.
pub fn key_labels(keys: &[String]) -> (String, Vec<String>) {
    use crate::keynotation::{to_bytes_binary, to_string_binary};
    let bytes: Vec<Vec<u8>> = keys.iter().map(|k| to_bytes_binary(k)).collect();
    let mut common: Option<&[u8]> = None;
    for b in bytes.iter().filter(|b| !b.is_empty()) {
        common = Some(match common {
            None => b,
            Some(c) => &c[..lcp(c, b)],
        });
    }
    // A lone key has nothing to be told apart from: keep it whole.
    let common = if bytes.iter().filter(|b| !b.is_empty()).count() > 1 {
        common.unwrap_or(&[])
    } else {
        &[]
    };
    let c = common.len();
    let labels = bytes
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if b.is_empty() {
                return "(start)".to_string();
            }
            let near = |j: Option<usize>| j.and_then(|j| bytes.get(j)).map_or(0, |n| lcp(b, n));
            let need = if bytes.len() == 1 {
                b.len()
            } else {
                (near(i.checked_sub(1)).max(near(Some(i + 1))) + 1).clamp(c, b.len())
            };
            let mut l = if c > 0 {
                "…".to_string()
            } else {
                String::new()
            };
            l.push_str(&to_string_binary(&b[c..need]));
            if need < b.len() {
                l.push('…');
            }
            l
        })
        .collect();
    (to_string_binary(common), labels)
}

/// A cell value for hover text.
fn value_text(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Share => format!("{:.1}%", v * 100.0),
        Unit::Bytes => crate::units::format_bytes(v.max(0.0).round() as u64),
        Unit::Seconds => dur(v),
        Unit::Count => crate::units::thousands(v.max(0.0).round() as u128),
    }
}

/// Renders a heatmap: equal adjacent cells of a row are drawn as one rectangle and empty cells
/// are left to the background, which keeps even large grids small.
pub fn heatmap(c: &Heatmap) -> String {
    let rows_in = c.values.len();
    let grid = shrink_grid(
        c.values,
        c.max_grid.0.clamp(1, MAX_HEAT_ROWS),
        c.max_grid.1.clamp(1, MAX_HEAT_COLS),
        c.merge,
    );
    let rows = grid.len();
    let cols = grid.first().map_or(0, Vec::len);
    let row_h = if rows == 0 {
        0.0
    } else {
        (360.0 / rows as f64).clamp(3.0, 22.0)
    };
    let plot_h = (row_h * rows as f64).max(40.0);
    // Tall enough for the colour legend and its notes even with few rows.
    let h = (MT + plot_h + MB + 8.0).max(MT + 220.0);
    let mut out = String::new();
    open(&mut out, c.id, h, c.title);
    let (left, right, top, bottom) = (ML + 40.0, W - MR, MT, MT + plot_h);
    let _ = write!(
        out,
        "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{plot_h:.1}\" fill=\"{}\"/>",
        right - left,
        HEAT[0]
    );
    let max = c
        .value_max
        .filter(|m| m.is_finite() && *m > 0.0)
        .unwrap_or_else(|| {
            grid.iter()
                .flatten()
                .copied()
                .filter(|v| v.is_finite())
                .fold(0.0f64, f64::max)
        });
    let cell_w = if cols == 0 {
        0.0
    } else {
        (right - left) / cols as f64
    };
    // Each drawn row is labelled by its first input row.
    let per = rows_in.div_ceil(rows.max(1)).max(1);
    let firsts: Vec<String> = (0..rows)
        .map(|r| c.row_labels.get(r * per).cloned().unwrap_or_default())
        .collect();
    let (common, labels) = if c.key_rows {
        key_labels(&firsts)
    } else {
        (String::new(), firsts)
    };
    let x_cell = (c.x_span.1 - c.x_span.0) / cols.max(1) as f64;
    // The grid is drawn in cell units (integer coordinates keep the many rectangles short);
    // every run of equal colour carries its hover text: row, time range and values.
    let _ = write!(
        out,
        "<svg x=\"{left:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\" \
         viewBox=\"0 0 {} {}\" preserveAspectRatio=\"none\">",
        right - left,
        row_h * rows as f64,
        cols.max(1),
        rows.max(1)
    );
    for (r, row) in grid.iter().enumerate() {
        let mut c0 = 0;
        while c0 < row.len() {
            let k = class(row[c0], max);
            let mut c1 = c0 + 1;
            while c1 < row.len() && class(row[c1], max) == k {
                c1 += 1;
            }
            if k > 0 {
                let (lo, hi) = row[c0..c1]
                    .iter()
                    .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(*v), b.max(*v)));
                let (lo, hi) = (value_text(lo, c.value_unit), value_text(hi, c.value_unit));
                let values = if lo == hi { lo } else { format!("{lo}–{hi}") };
                let _ = write!(
                    out,
                    "<rect x=\"{c0}\" y=\"{r}\" width=\"{}\" height=\"1\" fill=\"{}\">\
                     <title>{}, {}–{}: {values}</title></rect>",
                    c1 - c0,
                    HEAT[k],
                    esc(&labels[r]),
                    dur(c.x_span.0 + c0 as f64 * x_cell),
                    dur(c.x_span.0 + c1 as f64 * x_cell),
                );
            }
            c0 = c1;
        }
    }
    out.push_str("</svg>");
    // Axis labels: at most ~16 rows, evenly picked.
    let every = rows.div_ceil(16).max(1);
    for r in (0..rows).step_by(every) {
        let label = &labels[r];
        let short: String = if label.chars().count() > 18 {
            label.chars().take(17).chain(['…']).collect()
        } else {
            label.clone()
        };
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"10\">{}<title>{}</title></text>",
            left - 4.0,
            top + r as f64 * row_h + row_h / 2.0 + 3.5,
            esc(&short),
            esc(c.row_labels.get(r * per).map_or("", String::as_str))
        );
    }
    let y_label = if common.is_empty() {
        c.y_label.to_string()
    } else {
        format!("{} after {common}", c.y_label)
    };
    let _ = write!(
        out,
        "<text transform=\"translate(12 {:.1}) rotate(-90)\" text-anchor=\"middle\" font-size=\"11\">{}</text>",
        (top + bottom) / 2.0,
        esc(&y_label)
    );
    let xm = Map::new(c.x_span.0, c.x_span.1, left, right);
    x_axis(&mut out, &xm, c.x_unit, c.x_label, bottom, bottom);
    // Marks: small open diamonds so the cell colour stays visible underneath; all the marks of
    // one drawn cell become one diamond whose hover text counts them, so none is dropped.
    let mut cells: std::collections::BTreeMap<(usize, usize), Vec<&Mark>> = Default::default();
    for m in c.marks {
        if !m.x.is_finite() || !m.row.is_finite() || rows == 0 || cols == 0 {
            continue;
        }
        let col =
            (((m.x - c.x_span.0) / x_cell.max(f64::MIN_POSITIVE)).max(0.0) as usize).min(cols - 1);
        let row = ((m.row.max(0.0) as usize) / per).min(rows - 1);
        cells.entry((row, col)).or_default().push(m);
    }
    let mut mark_group = false;
    for ((row, col), ms) in &cells {
        let x = left + (*col as f64 + 0.5) * cell_w;
        let y = top + (*row as f64 + 0.5) * row_h;
        let title = match ms.as_slice() {
            [one] => one.title.clone(),
            many => format!(
                "{} {}, {}, {}–{}",
                many.len(),
                c.mark_noun,
                labels[*row],
                dur(c.x_span.0 + *col as f64 * x_cell),
                dur(c.x_span.0 + (*col + 1) as f64 * x_cell),
            ),
        };
        if !mark_group {
            out.push_str("<g fill=\"none\" stroke=\"#D55E00\" stroke-width=\"1.2\">");
            mark_group = true;
        }
        let _ = write!(
            out,
            "<path d=\"M{x:.1} {:.1}l3 3l-3 3l-3-3z\"><title>{}</title></path>",
            y - 3.0,
            esc(&title)
        );
    }
    if mark_group {
        out.push_str("</g>");
    }
    colour_legend(&mut out, max, c.value_unit, c.value_label, top);
    // What one cell is, and how many marks stand for how many events.
    let mut foot = format!("one cell = {}", dur(c.x_cell.unwrap_or(x_cell)));
    if rows_in > rows {
        let _ = write!(foot, " × {per} rows");
    }
    let (x, room) = (W - MR + 20.0, MR - 24.0);
    let y = text_lines(
        &mut out,
        x,
        top + 12.0 + 16.0 * 9.0 + 16.0,
        10.0,
        room,
        &foot,
    );
    if !c.marks.is_empty() {
        let marks = format!(
            "◇ {} {} in {} cells",
            crate::units::thousands(c.marks.len() as u128),
            c.mark_noun,
            crate::units::thousands(cells.len() as u128)
        );
        text_lines(&mut out, x, y + 1.0, 10.0, room, &marks);
    }
    out.push_str("</svg>");
    out
}

/// Colour class of a value: 0 for nothing, else 1..=15 by its fraction of `max`.
fn class(v: f64, max: f64) -> usize {
    if !(v.is_finite() && v > 0.0 && max > 0.0) {
        return 0;
    }
    1 + ((v / max) * 14.999).floor().clamp(0.0, 14.0) as usize
}

fn colour_legend(out: &mut String, max: f64, unit: Unit, label: &str, top: f64) {
    let x = W - MR + 20.0;
    let (div, suffix) = scale(unit, max);
    let _ = write!(
        out,
        "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\">{}</text>",
        top + 4.0,
        with_suffix(label, suffix)
    );
    for (k, colour) in HEAT.iter().enumerate() {
        // Highest class on top.
        let y = top + 12.0 + (15 - k) as f64 * 9.0;
        let _ = write!(
            out,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"14\" height=\"9\" fill=\"{colour}\"/>"
        );
    }
    let hi = max / div;
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\">{}</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\">0</text>",
        x + 18.0,
        top + 20.0,
        tick_label(hi, if hi >= 10.0 { 1.0 } else { 0.01 }),
        x + 18.0,
        top + 12.0 + 16.0 * 9.0
    );
}

/// Events on a time axis, one row per category (e.g. splits per server).
#[derive(Debug, Clone)]
pub struct Strip<'a> {
    /// Element id.
    pub id: &'a str,
    /// Heading.
    pub title: &'a str,
    /// Unit of x.
    pub x_unit: Unit,
    /// Label of x.
    pub x_label: &'a str,
    /// Time range.
    pub x_span: (f64, f64),
    /// Row names, top to bottom.
    pub rows: &'a [String],
    /// (x, row index, hover text).
    pub events: &'a [(f64, usize, String)],
    /// What one event is, plural (for binned hover text: "12 splits").
    pub noun: &'a str,
}

/// Renders an event strip. Many events are binned per row into at most 300 columns, each bin a
/// tick whose height grows with its count, so a burst (a split storm) stands out.
pub fn strip(c: &Strip) -> String {
    let row_h = 18.0;
    let rows = c.rows.len().max(1);
    let plot_h = row_h * rows as f64;
    let h = MT + plot_h + MB + 6.0;
    let mut out = String::new();
    open(&mut out, c.id, h, c.title);
    let (left, right, top, bottom) = (ML + 40.0, W - MR, MT, MT + plot_h);
    let xm = Map::new(c.x_span.0, c.x_span.1, left, right);
    for (r, name) in c.rows.iter().enumerate() {
        let y = top + r as f64 * row_h;
        let _ = write!(
            out,
            "<line x1=\"{left:.1}\" y1=\"{:.1}\" x2=\"{right:.1}\" y2=\"{:.1}\" stroke=\"#e3e3e3\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"11\">{}</text>",
            y + row_h / 2.0,
            y + row_h / 2.0,
            left - 4.0,
            y + row_h / 2.0 + 4.0,
            esc(name)
        );
    }
    x_axis(&mut out, &xm, c.x_unit, c.x_label, top, bottom);
    let n = crate::units::thousands(c.events.len() as u128);
    let count = if c.events.len() <= MAX_EVENTS {
        format!("all {n} {} shown", c.noun)
    } else {
        format!("{n} {}, binned: taller = more", c.noun)
    };
    text_lines(
        &mut out,
        right + 8.0,
        top + 12.0,
        11.0,
        W - right - 12.0,
        &count,
    );
    if c.events.len() <= MAX_EVENTS {
        for (x, r, t) in c.events {
            if *r >= rows || !x.is_finite() {
                continue;
            }
            let colour = CATEGORY[r % CATEGORY.len()];
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"2\" height=\"{:.1}\" fill=\"{colour}\">\
                 <title>{}</title></rect>",
                xm.at(*x) - 1.0,
                top + *r as f64 * row_h + 3.0,
                row_h - 6.0,
                esc(t)
            );
        }
    } else {
        let bins = 100usize;
        let mut counts = vec![vec![0u32; bins]; rows];
        for (x, r, _) in c.events {
            if *r < rows && x.is_finite() {
                let f = (xm.at(*x) - left) / (right - left);
                let b = ((f * bins as f64) as usize).min(bins - 1);
                counts[*r][b] += 1;
            }
        }
        let peak = counts.iter().flatten().copied().max().unwrap_or(1).max(1) as f64;
        let bw = (right - left) / bins as f64;
        for (r, row) in counts.iter().enumerate() {
            let colour = CATEGORY[r % CATEGORY.len()];
            // One fill per row keeps the many bins short.
            let _ = write!(out, "<g fill=\"{colour}\">");
            for (b, &n) in row.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let th = 3.0 + (row_h - 5.0) * (n as f64 / peak).sqrt();
                let _ = write!(
                    out,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{th:.1}\">\
                     <title>{n} {}</title></rect>",
                    left + b as f64 * bw,
                    top + (r + 1) as f64 * row_h - 1.0 - th,
                    bw.max(1.0),
                    esc(c.noun)
                );
            }
            out.push_str("</g>");
        }
    }
    out.push_str("</svg>");
    out
}

/// A vertical reference line on a histogram.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// Position in data units.
    pub at: f64,
    /// Label.
    pub label: String,
}

/// A histogram.
#[derive(Debug, Clone)]
pub struct Histogram<'a> {
    /// Element id.
    pub id: &'a str,
    /// Heading.
    pub title: &'a str,
    /// Unit of the values.
    pub x_unit: Unit,
    /// Label of x.
    pub x_label: &'a str,
    /// The values.
    pub values: &'a [f64],
    /// Number of bins.
    pub bins: usize,
    /// Reference lines.
    pub markers: &'a [Marker],
}

/// Renders a histogram with equal-width bins from 0 to the largest value or marker.
pub fn histogram(c: &Histogram) -> String {
    let h = 300.0;
    let mut out = String::new();
    open(&mut out, c.id, h, c.title);
    let bins = c.bins.clamp(1, 200);
    let hi = c
        .values
        .iter()
        .chain(c.markers.iter().map(|m| &m.at))
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        * 1.02;
    let hi = if hi > 0.0 { hi } else { 1.0 };
    let mut counts = vec![0usize; bins];
    for v in c.values.iter().filter(|v| v.is_finite()) {
        let b = ((v.max(0.0) / hi) * bins as f64) as usize;
        counts[b.min(bins - 1)] += 1;
    }
    let peak = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let top = nice_ticks(0.0, peak * 1.05, 5)
        .last()
        .copied()
        .unwrap_or(peak)
        .max(peak);
    let xm = Map::new(0.0, hi, ML, W - MR);
    let ym = Map::new(0.0, top, h - MB, MT);
    y_axis(&mut out, &ym, Unit::Count, "regions", ML, W - MR);
    x_axis(&mut out, &xm, c.x_unit, c.x_label, MT, h - MB);
    let bw = (W - MR - ML) / bins as f64;
    let (div, suffix) = scale(c.x_unit, hi);
    for (b, &n) in counts.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let y = ym.at(n as f64);
        let lo_v = b as f64 * hi / bins as f64 / div;
        let hi_v = (b + 1) as f64 * hi / bins as f64 / div;
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\">\
             <title>{n} regions in [{lo_v:.2}, {hi_v:.2}) {suffix}</title></rect>",
            ML + b as f64 * bw + 0.5,
            (bw - 1.0).max(0.5),
            (h - MB - y).max(0.0),
            CATEGORY[0]
        );
    }
    let mut legend_y = MT + 6.0;
    for (i, m) in c.markers.iter().enumerate() {
        if !m.at.is_finite() {
            continue;
        }
        let x = xm.at(m.at);
        let colour = CATEGORY[(i + 5) % CATEGORY.len()];
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{MT}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" \
             stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>",
            h - MB
        );
        legend_y = legend_entry(&mut out, legend_y, 16.0, (&m.label, colour, "5 3"), true);
    }
    out.push_str("</svg>");
    out
}

/// A short note in place of a chart whose data is missing.
pub fn note(id: &str, text: &str) -> String {
    format!("<p class=\"note\" id=\"{}\">{}</p>", esc(id), esc(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(esc("a\u{0}b"), "a\u{fffd}b");
    }

    #[test]
    fn ticks_are_nice_and_cover_the_range() {
        assert_eq!(
            nice_ticks(0.0, 10.0, 5),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        );
        assert_eq!(nice_ticks(0.0, 1.0, 4), vec![0.0, 0.5, 1.0]);
        let t = nice_ticks(0.0, 0.3, 3);
        assert_eq!(t, vec![0.0, 0.1, 0.2, 0.3]);
        assert_eq!(nice_ticks(3.0, 3.0, 5), vec![3.0, 3.2, 3.4, 3.6, 3.8, 4.0]);
        assert_eq!(nice_ticks(f64::NAN, 1.0, 5), vec![0.0]);
        assert_eq!(tick_label(0.1, 0.1), "0.1");
        assert_eq!(tick_label(2000.0, 500.0), "2000");
    }

    #[test]
    fn units_pick_readable_scales() {
        assert_eq!(
            scale(Unit::Bytes, 3.0 * 1024.0 * 1024.0 * 1024.0),
            (1073741824.0, "GiB")
        );
        assert_eq!(scale(Unit::Seconds, 7200.0), (60.0, "min"));
        assert_eq!(scale(Unit::Seconds, 500_000.0), (86_400.0, "days"));
        assert_eq!(scale(Unit::Share, 1.0), (0.01, "%"));
    }

    #[test]
    fn downsampling_merges_adjacent_points() {
        let pts: Vec<(f64, f64)> = (0..1000).map(|i| (i as f64, (i % 2) as f64)).collect();
        let d = downsample(&pts, 500);
        assert_eq!(d.len(), 500);
        assert_eq!(d[0], (0.5, 0.5));
        assert_eq!(downsample(&pts[..3], 500), pts[..3].to_vec());
        let grid = vec![vec![1.0; 1000]; 250];
        let g = shrink_grid(&grid, 100, 300, Merge::Sum);
        assert!(g.len() <= 100 && g[0].len() <= 300);
        assert_eq!(g[0][0], 12.0); // 3 rows × 4 columns merged
        let m = shrink_grid(&grid, 100, 300, Merge::Mean);
        assert_eq!(m[0][0], 1.0);
        assert!(shrink_grid(&[], 10, 10, Merge::Sum).is_empty());
    }

    #[test]
    fn charts_survive_empty_and_odd_input() {
        let s = vec![Series {
            name: "<rs>".into(),
            points: vec![],
        }];
        let c = line_chart(&LineChart {
            id: "a",
            title: "t & t",
            x_unit: Unit::Seconds,
            x_label: "time",
            y_unit: Unit::Count,
            y_label: "regions",
            series: &s,
            step: true,
            height: 300.0,
        });
        assert!(c.contains("&lt;rs&gt;") && c.contains("t &amp; t") && !c.contains("NaN"));
        let h = heatmap(&Heatmap {
            id: "b",
            title: "t",
            x_unit: Unit::Seconds,
            x_label: "time",
            x_span: (0.0, 0.0),
            x_cell: None,
            y_label: "key",
            row_labels: &[],
            values: &[],
            merge: Merge::Sum,
            value_unit: Unit::Count,
            value_label: "writes",
            value_max: None,
            marks: &[],
            mark_noun: "",
            max_grid: (MAX_HEAT_ROWS, MAX_HEAT_COLS),
            key_rows: false,
        });
        assert!(h.starts_with("<svg id=\"b\"") && !h.contains("NaN"));
        let st = strip(&Strip {
            id: "c",
            title: "t",
            x_unit: Unit::Seconds,
            x_label: "time",
            x_span: (0.0, 10.0),
            rows: &[],
            events: &[(1.0, 3, "x".into())],
            noun: "splits",
        });
        assert!(st.ends_with("</svg>"));
        let hi = histogram(&Histogram {
            id: "d",
            title: "t",
            x_unit: Unit::Bytes,
            x_label: "size",
            values: &[f64::NAN, 0.0],
            bins: 0,
            markers: &[],
        });
        assert!(!hi.contains("NaN") && !hi.contains("inf"));
    }

    #[test]
    fn key_labels_show_the_shortest_distinguishing_part_after_the_common_prefix() {
        // Sequential 8-byte keys share four zero bytes: rows must not all read `\x00\x00\x00\x`.
        let keys: Vec<String> = [
            "",
            r"\x00\x00\x00\x00\x04\x08\x00\x00",
            r"\x00\x00\x00\x00\x08\x08\x00\x00",
        ]
        .map(String::from)
        .to_vec();
        let (common, labels) = key_labels(&keys);
        assert_eq!(common, r"\x00\x00\x00\x00");
        assert_eq!(labels, ["(start)", r"…\x04…", r"…\x08…"]);
        let hashed: Vec<String> = ["04001814", "079285bb", "07a0"].map(String::from).to_vec();
        let (common, labels) = key_labels(&hashed);
        assert_eq!(common, "0");
        assert_eq!(labels, ["…4…", "…79…", "…7a…"]);
        let (common, labels) = key_labels(&["abc".to_string()]);
        assert_eq!((common.as_str(), labels[0].as_str()), ("", "abc"));
    }

    fn grid_chart(values: &[Vec<f64>], labels: &[String], marks: &[Mark]) -> String {
        heatmap(&Heatmap {
            id: "k",
            title: "t",
            x_unit: Unit::Seconds,
            x_label: "time",
            x_span: (0.0, 600.0),
            x_cell: None,
            y_label: "key",
            row_labels: labels,
            values,
            merge: Merge::Sum,
            value_unit: Unit::Count,
            value_label: "writes",
            value_max: None,
            marks,
            mark_noun: "splits",
            max_grid: (MAX_HEAT_ROWS, MAX_HEAT_COLS),
            key_rows: true,
        })
    }

    #[test]
    fn heatmap_cells_carry_hover_text_and_the_legend_says_the_time_per_cell() {
        let labels: Vec<String> = ["a1", "b2"].map(String::from).to_vec();
        let h = grid_chart(
            &[vec![5.0, 5.0, 0.0], vec![1.0, 2000.0, 2000.0]],
            &labels,
            &[],
        );
        // Three columns over 600 s: one cell is 200 s; equal runs share one hover text.
        assert!(h.contains("one cell = 3m 20s"), "{h}");
        assert!(h.contains("<title>a…, 0 s–6m 40s: 5</title>"), "{h}");
        assert!(
            h.contains("<title>b…, 3m 20s–10m 00s: 2,000</title>"),
            "{h}"
        );
    }

    #[test]
    fn heatmap_marks_in_one_cell_become_one_counted_mark() {
        let labels: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let marks: Vec<Mark> = (0..2000)
            .map(|i| Mark {
                x: f64::from(i % 600),
                row: if i % 2 == 0 { 0.5 } else { 1.5 },
                title: format!("split {i}"),
            })
            .collect();
        let h = grid_chart(&[vec![1.0; 3], vec![1.0; 3]], &labels, &marks);
        // Two rows × three columns: six diamonds, and the count of all 2,000 is said.
        assert_eq!(h.matches("l3 3l-3 3l-3-3z").count(), 6);
        assert!(plain(&h).contains("◇ 2,000 splits in 6 cells"), "{h}");
        assert!(h.contains("splits, a, 0 s–3m 20s</title>"), "{h}");
    }

    #[test]
    fn strips_say_how_many_events_they_show() {
        let rows = vec!["rs1".to_string()];
        let few: Vec<(f64, usize, String)> =
            (0..3).map(|i| (f64::from(i), 0, "s".into())).collect();
        let many: Vec<(f64, usize, String)> =
            (0..5000).map(|i| (f64::from(i), 0, "s".into())).collect();
        let chart = |events: &[(f64, usize, String)]| {
            strip(&Strip {
                id: "s",
                title: "t",
                x_unit: Unit::Seconds,
                x_label: "time",
                x_span: (0.0, 5000.0),
                rows: &rows,
                events,
                noun: "splits",
            })
        };
        assert!(plain(&chart(&few)).contains("all 3 splits shown"));
        assert!(plain(&chart(&many)).contains("5,000 splits, binned: taller = more"));
    }

    /// The chart's text as read: each `<text>` a word group, tags and tooltips dropped.
    fn plain(svg: &str) -> String {
        let mut out = String::new();
        let mut depth_title = false;
        for piece in svg.split('<').skip(1) {
            let (tag, text) = piece.split_once('>').unwrap_or((piece, ""));
            if tag.starts_with("title") {
                depth_title = true;
            } else if tag.starts_with("/title") {
                depth_title = false;
            } else if tag.starts_with("/text") {
                out.push(' ');
            }
            if !depth_title {
                out.push_str(text);
            }
        }
        out
    }

    #[test]
    fn legend_text_wraps_inside_the_margin_and_long_names_are_cut() {
        // Wrapped between words, never inside one; every line within the margin's characters.
        let lines = wrap_words("one cell = 1h 19m × 2 rows", 12);
        assert_eq!(lines, ["one cell =", "1h 19m × 2", "rows"]);
        assert_eq!(wrap_words("a-very-long-key x", 4), ["a-very-long-key", "x"]);
        let mut out = String::new();
        let next = legend_entry(
            &mut out,
            40.0,
            16.0,
            ("max.filesize 2.00 GiB", "#000", ""),
            true,
        );
        assert!(
            next > 40.0 + 16.0,
            "two lines take more than one gap: {next}"
        );
        assert_eq!(out.matches("<text").count(), 2, "{out}");
        let mut out = String::new();
        let name = "a-table-name-far-too-long-for-any-legend";
        let next = legend_entry(&mut out, 40.0, 16.0, (name, "#000", ""), false);
        assert_eq!(next, 56.0);
        assert!(
            out.contains("…<title>a-table-name-far-too-long-for-any-legend</title>"),
            "{out}"
        );
    }

    #[test]
    fn heatmaps_merge_equal_runs_and_stay_capped() {
        let values = vec![vec![5.0; 2000]; 400];
        let h = heatmap(&Heatmap {
            id: "h",
            title: "t",
            x_unit: Unit::Seconds,
            x_label: "time",
            x_span: (0.0, 1000.0),
            x_cell: None,
            y_label: "key",
            row_labels: &[],
            values: &values,
            merge: Merge::Sum,
            value_unit: Unit::Count,
            value_label: "writes",
            value_max: None,
            marks: &[],
            mark_noun: "",
            max_grid: (MAX_HEAT_ROWS, MAX_HEAT_COLS),
            key_rows: false,
        });
        // One rectangle per row (a uniform field), plus background and legend.
        assert!(h.matches("<rect").count() <= 100 + 1 + 16);
    }
}
