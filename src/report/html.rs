//! The HTML report: one self-contained page (inline CSS and SVG, no scripts, no network) with a
//! comparison of the generators first, then one section of charts and tables per generator.
//! Chart ids are stable and listed in docs/REPORT.md. An `--out` set adds regions.html, every
//! region in one sortable table per generator (its few lines of inline script are the only ones).

use std::fmt::Write;

use crate::keynotation::to_bytes_binary;
use crate::report::run::{Report, RunJson, TimelineSampleJson};
use crate::report::summary::{
    FAIR_SHARE_SCALE_MAX, dur, server_names, timeline_series, verdict, write_share_vs_fair,
};
use crate::report::svg::{self, Mark, Marker, Merge, Series, Unit, esc};
use crate::units::{format_bytes, thousands};

/// Rows shown in each region/move/merge/event table.
const TABLE_ROWS: usize = 10;
/// Rows shown in the moves, merges and events tables.
const LOG_ROWS: usize = 25;
/// Most rows of the full region table (above it, regions.csv holds them all): the headline's
/// thousands of regions alone would take the page over 1 MB.
const FULL_TABLE_ROWS: usize = 200;
/// Most drawn key buckets × time columns of a key heatmap: each drawn run of cells carries its
/// hover text, and a hashed load makes nearly every cell its own run.
const KEY_GRID: (usize, usize) = (32, 40);
/// Most drawn time columns of the write-share heatmap.
const WRITE_SHARE_COLS: usize = 120;

const CSS: &str = "body{font-family:sans-serif;margin:24px auto;max-width:1120px;color:#222;\
background:#fff;line-height:1.4}h1{font-size:22px}h2{font-size:18px;margin-top:36px;\
border-bottom:1px solid #ccc}h3{font-size:15px;margin:22px 0 6px}table{border-collapse:collapse;\
margin:8px 0;font-size:13px}th,td{border:1px solid #ddd;padding:3px 8px;text-align:right}\
th:first-child,td:first-child{text-align:left}td.key{font-family:monospace;text-align:left}\
td.best{background:#dcefd9;font-weight:bold}.verdict{margin:4px 0}.note{color:#666;\
font-style:italic}svg.chart{display:block;margin:8px 0;max-width:100%;height:auto}\
.meta{color:#555;font-size:13px}details{margin:8px 0}summary{cursor:pointer;font-weight:bold;\
font-size:15px;margin:18px 0 6px}.panels svg.chart{margin:2px 0}.bad{color:#b00020;font-weight:bold}";

/// The full region table's page, written beside report.html in an `--out` set.
pub const REGIONS_PAGE: &str = "regions.html";

/// Renders the whole report as one HTML document (standalone: it links to no other file).
pub fn render(report: &Report) -> String {
    render_page(report, false)
}

/// The pages of an `--out` set with their file names: report.html, whose region tables link to
/// [`REGIONS_PAGE`], and that page with every region of every run.
pub fn pages(report: &Report) -> [(&'static str, String); 2] {
    [
        ("report.html", render_page(report, true)),
        (REGIONS_PAGE, render_regions(report)),
    ]
}

fn render_page(report: &Report, linked: bool) -> String {
    let sc = &report.scenario;
    let mut o = String::with_capacity(256 * 1024);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>hbase-emu: {}</title><style>{CSS}</style></head><body>\n<h1>{}</h1>\n\
         <p class=\"meta\">Scenario <code>{}</code>, seed {}; {} RegionServers, {} heap each; \
         max region size {}, flush size {}, {}.</p>\n",
        esc(&sc.name),
        esc(&sc.name),
        esc(&sc.path),
        sc.seed,
        sc.regionservers,
        format_bytes(sc.heap_bytes),
        format_bytes(sc.max_filesize),
        format_bytes(sc.flush_size),
        esc(&sc.split_policy)
    );
    for c in &sc.compression {
        let _ = writeln!(
            o,
            "<p class=\"meta\">Compression of family <code>{}</code>: {}, data blocks {:.1} % of \
             raw ({}); a flush thread ≤ {}/s, a compaction thread ≤ {}/s read.</p>",
            esc(&c.family),
            esc(&c.codec),
            c.data_fraction * 100.0,
            esc(&c.source()),
            format_bytes(c.flush_bandwidth_bytes_per_s),
            format_bytes(c.compaction_bandwidth_bytes_per_s)
        );
    }
    if !sc.overrides.is_empty() {
        // What-ifs run with `--set`: the page must not pass for the file as written.
        let set: Vec<String> = sc
            .overrides
            .iter()
            .map(|(k, v)| {
                format!(
                    "<code>{}</code> = <code>{}</code>",
                    esc(k),
                    esc(&v.to_string())
                )
            })
            .collect();
        let _ = writeln!(
            o,
            "<p id=\"overrides\" class=\"bad\">Run with overrides of the scenario file (<code>--set</code>): {}.</p>",
            set.join(", ")
        );
    }
    comparison(&mut o, report);
    assumption_ranges(&mut o, report);
    expectations(&mut o, report);
    for (i, run) in report.runs.iter().enumerate() {
        section(&mut o, report, i, run, linked);
    }
    o.push_str("</body></html>\n");
    o
}

/// A comparison row: label, one value per run, and whether lower is better (None: no best).
fn comparison(o: &mut String, report: &Report) {
    o.push_str("<h2 id=\"comparison\">Comparison</h2>\n");
    if report.runs.is_empty() {
        o.push_str(&svg::note("cmp-table", "This report holds no runs."));
        return;
    }
    let runs = &report.runs;
    o.push_str("<table id=\"cmp-table\"><thead><tr><th></th>");
    for r in runs {
        let _ = write!(o, "<th>{}</th>", esc(&r.generator));
    }
    o.push_str("</tr></thead><tbody>\n");
    for row in crate::report::compare::ROWS {
        let best = row.best(runs);
        let _ = write!(o, "<tr><th>{}</th>", row.label);
        for r in runs {
            let (v, s) = ((row.value)(r), row.cell(r));
            let class = if Some(v) == best {
                " class=\"best\""
            } else {
                ""
            };
            let _ = write!(o, "<td{class}>{}</td>", esc(&s));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</tbody></table>\n");
    if let Some(note) = crate::report::compare::assumed_note(runs) {
        let _ = writeln!(o, "<p class=\"meta\">{}</p>", esc(&note));
    }
    if runs
        .iter()
        .any(|r| r.loader.as_ref().is_some_and(|l| l.clients > 1))
    {
        let _ = writeln!(
            o,
            "<p class=\"meta\">{}</p>",
            esc(crate::report::compare::PER_CLIENT_NOTE)
        );
    }
    if runs.iter().any(|r| r.scale_warning.is_some()) {
        let _ = writeln!(
            o,
            "<p class=\"meta\">{}</p>",
            esc(crate::report::compare::COARSE_NOTE)
        );
    }
    o.push_str(
        "<p class=\"meta\">Best value per row highlighted where lower is better on its \
         own (regions, splits and sizes describe the layout: no best).</p>\n<ul id=\"cmp-verdicts\">\n",
    );
    let servers = report.scenario.regionservers as usize;
    for (i, r) in runs.iter().enumerate() {
        let n = if r.servers.is_empty() {
            servers
        } else {
            r.servers.len()
        };
        let _ = writeln!(
            o,
            "<li class=\"verdict\"><a href=\"#gen-{i}\"><b>{}</b></a>: {}</li>",
            esc(&r.generator),
            esc(&verdict(r, n))
        );
    }
    o.push_str("</ul>\n");
    o.push_str("<h3 id=\"scans\">Scans on the final layout</h3>\n");
    crate::report::scan::html(o, &crate::report::text::scan_columns(runs), &esc);
    o.push_str(
        "<p class=\"meta\">Write balance against read fan-out: the rows written in the last \
         window of the ingest, one range scan per prefix (full: no key locality, a full-table \
         scan with a time range); one prefix: all rows of one salt bucket or entity, mean \
         over the prefixes.</p>\n",
    );
}

/// The scenario's expectations and their verdicts, one row per design and expectation (nothing
/// when it has none).
/// `run --assumptions`: each design's figures that the assumption profiles move, as
/// typical [lowest … highest] with every profile's value, and the rankings that change.
fn assumption_ranges(o: &mut String, report: &Report) {
    use crate::report::ranges::{bracket, format_figure, label, ranking_line};
    let Some(r) = &report.assumption_ranges else {
        return;
    };
    o.push_str(
        "<h2 id=\"ranges\">Across assumptions</h2>\n<p>typical [lowest … highest] over the \
         assumption profiles (docs/CALIBRATION.md; typical is the scenario as written).</p>\n\
         <table id=\"ranges-table\"><thead><tr><th>design</th><th>figure</th><th>range</th>",
    );
    for p in &r.profiles {
        let _ = write!(
            o,
            "<th title=\"hardware {}, writers {}, compaction threads {}+{}\">{}</th>",
            esc(&p.hardware),
            p.writers,
            p.compaction_threads_small,
            p.compaction_threads_large,
            esc(&p.name)
        );
    }
    o.push_str("</tr></thead><tbody>\n");
    for run in &r.runs {
        for f in &run.ranges {
            let _ = write!(
                o,
                "<tr><td>{}</td><td class=\"key\">{}</td><td>{}</td>",
                esc(&run.generator),
                esc(label(&f.figure)),
                esc(&bracket(f))
            );
            for v in &f.values {
                let _ = write!(o, "<td>{}</td>", esc(&format_figure(&f.figure, *v)));
            }
            o.push_str("</tr>\n");
        }
    }
    o.push_str("</tbody></table>\n");
    let changes: Vec<String> = r
        .rankings
        .iter()
        .filter(|k| k.changes)
        .map(ranking_line)
        .collect();
    if !changes.is_empty() {
        let _ = writeln!(o, "<pre>{}</pre>", esc(changes.concat().trim_end()));
    }
}

fn expectations(o: &mut String, report: &Report) {
    if report.runs.iter().all(|r| r.expectations.is_empty()) {
        return;
    }
    o.push_str(
        "<h2 id=\"expectations\">Expectations</h2>\n<table id=\"expect-table\"><thead><tr>\
         <th>design</th><th>expectation</th><th>value</th><th>verdict</th></tr></thead><tbody>\n",
    );
    for r in &report.runs {
        for e in &r.expectations {
            let value = match &e.note {
                Some(n) => n.clone(),
                None => crate::report::text::format_figure(e.value),
            };
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td class=\"key\">{}</td><td>{}</td><td{}>{}</td></tr>",
                esc(&r.generator),
                esc(&e.text),
                esc(&value),
                if e.holds {
                    " class=\"best\""
                } else {
                    " class=\"bad\""
                },
                if e.holds { "holds" } else { "FAILED" }
            );
        }
    }
    o.push_str("</tbody></table>\n");
}

/// Regions per server over time rebuilt from the final placement and the split, move and merge
/// logs, for reports whose timeline is empty. Walks the logs backwards from the end state.
fn reconstructed_regions(run: &RunJson, end: f64) -> Vec<Series> {
    let names = server_names(run);
    let idx = |n: &str| names.iter().position(|x| x == n);
    let mut count: Vec<f64> = names
        .iter()
        .map(|n| run.regions.iter().filter(|r| &r.server == n).count() as f64)
        .collect();
    // (time, server, change in regions)
    let mut changes: Vec<(f64, usize, f64)> = Vec::new();
    for s in &run.splits {
        if let Some(i) = idx(&s.server) {
            changes.push((s.at_seconds, i, 1.0));
        }
    }
    for m in &run.moves {
        if let (Some(f), Some(t)) = (idx(&m.from), idx(&m.to)) {
            changes.push((m.at_seconds, f, -1.0));
            changes.push((m.at_seconds, t, 1.0));
        }
    }
    for m in &run.merges {
        if let Some(i) = idx(&m.server) {
            changes.push((m.at_seconds, i, 1.0 - m.region_starts.len().max(1) as f64));
        }
    }
    changes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut series: Vec<Vec<(f64, f64)>> = count.iter().map(|c| vec![(end, *c)]).collect();
    for (at, i, d) in changes.iter().rev() {
        series[*i].push((*at, count[*i]));
        count[*i] = (count[*i] - d).max(0.0);
        series[*i].push((*at, count[*i]));
    }
    names
        .into_iter()
        .zip(series)
        .enumerate()
        .map(|(i, (name, mut pts))| {
            pts.push((0.0, count[i]));
            pts.reverse();
            Series { name, points: pts }
        })
        .collect()
}

fn end_seconds(run: &RunJson) -> f64 {
    let s = &run.summary;
    [
        s.sim_seconds,
        s.settle_seconds,
        run.timeline.last().map_or(0.0, |t| t.at_seconds),
    ]
    .into_iter()
    .filter(|v| v.is_finite())
    .fold(0.0, f64::max)
}

fn section(o: &mut String, report: &Report, i: usize, run: &RunJson, linked: bool) {
    let id = |name: &str| format!("gen-{i}-{name}");
    let s = &run.summary;
    let _ = write!(
        o,
        "<h2 id=\"gen-{i}\">{}</h2>\n<p class=\"meta\">{}</p>\n<p>{} rows ({} payload); \
         ingest {}, settled {}; regions {} → {} after {} splits; blocked {}; held back by the \
         servers {}{}; write amplification {:.2}.</p>\n",
        esc(&run.generator),
        esc(&run.describe),
        thousands(s.rows as u128),
        format_bytes(s.bytes.min(u64::MAX as u128) as u64),
        dur(s.sim_seconds),
        dur(s.settle_seconds),
        s.regions_initial,
        s.regions_final,
        thousands(s.splits as u128),
        dur(s.blocked_seconds),
        dur(s.throttled_seconds),
        match s.throttled_by.as_ref().map(|t| t.describe()) {
            Some(d) if !d.is_empty() => format!(" ({})", esc(&d)),
            _ => String::new(),
        },
        s.write_amplification
    );
    if let Some(a) = &s.ageing {
        let _ = writeln!(
            o,
            "<p id=\"{}\">Ageing (family TTL): {} rows ({}) expired, {} expired store files \
             dropped whole; {} rows stored at the end; {} merges.</p>",
            id("ageing"),
            thousands(a.ttl_expired_rows as u128),
            format_bytes(a.ttl_expired_bytes),
            thousands(a.expired_files_dropped as u128),
            thousands(a.rows_stored as u128),
            thousands(run.merges.len() as u128),
        );
    }
    if let Some(v) = &s.versions {
        let _ = writeln!(
            o,
            "<p>Versions and deletes: {} updates, {} deletes. Compactions dropped {} versions \
             beyond VERSIONS ({}) and {} deleted rows with {} versions and {} delete markers \
             ({}); {} versions and {} delete markers stored at the end.</p>",
            thousands(v.updates as u128),
            thousands(v.deletes as u128),
            thousands(v.versions_dropped as u128),
            format_bytes(v.versions_dropped_bytes),
            thousands(v.deleted_rows_dropped as u128),
            thousands(v.deleted_versions_dropped as u128),
            thousands(v.markers_dropped as u128),
            format_bytes(v.deleted_bytes),
            thousands(v.versions_stored as u128),
            thousands(v.markers_stored as u128),
        );
    }
    let end = end_seconds(run);
    let time = "time since the load began";

    o.push_str("<h3>Regions per server over time</h3>\n");
    let regions = timeline_series(run, |t| t.regions as f64);
    if !regions.is_empty() {
        o.push_str(&svg::line_chart(&svg::LineChart {
            id: &id("regions-per-server"),
            title: "Regions per RegionServer",
            x_unit: Unit::Seconds,
            x_label: time,
            y_unit: Unit::Count,
            y_label: "regions",
            series: &regions,
            step: true,
            height: 300.0,
        }));
    } else if !run.regions.is_empty() {
        let rebuilt = reconstructed_regions(run, end);
        o.push_str(
            "<p class=\"note\">No timeline in this report: rebuilt from the final placement and the \
             split, move and merge logs.</p>\n",
        );
        o.push_str(&svg::line_chart(&svg::LineChart {
            id: &id("regions-per-server"),
            title: "Regions per RegionServer (rebuilt from the split log)",
            x_unit: Unit::Seconds,
            x_label: time,
            y_unit: Unit::Count,
            y_label: "regions",
            series: &rebuilt,
            step: true,
            height: 300.0,
        }));
    } else {
        o.push_str(&svg::note(
            &id("regions-per-server"),
            "No regions in this run.",
        ));
    }

    o.push_str("<h3>Store size per server over time</h3>\n");
    let store = timeline_series(run, |t| t.store_bytes as f64);
    if store.is_empty() {
        o.push_str(&svg::note(
            &id("store-per-server"),
            "No timeline in this report: store size per server over time is not available.",
        ));
    } else {
        o.push_str(&svg::line_chart(&svg::LineChart {
            id: &id("store-per-server"),
            title: "Store file bytes per RegionServer",
            x_unit: Unit::Seconds,
            x_label: time,
            y_unit: Unit::Bytes,
            y_label: "store size",
            series: &store,
            step: false,
            height: 300.0,
        }));
    }
    server_panels(o, run, &id);

    o.push_str("<h3>Write share per server over time</h3>\n");
    let (span, grid) = write_share_vs_fair(run);
    let period = if run.timeline.is_empty() {
        run.hotspots.window_seconds
    } else {
        run.timeline_interval_seconds
    };
    let columns = grid.iter().map(Vec::len).max().unwrap_or(0);
    let share_cell = drawn_period(period, columns, WRITE_SHARE_COLS);
    let share_title = format!(
        "Write share per RegionServer against its fair share, per {} column",
        dur(share_cell)
    );
    if grid.iter().all(|r| r.iter().all(|v| *v == 0.0)) {
        o.push_str(&svg::note(
            &id("write-share"),
            "No writes recorded over time.",
        ));
    } else {
        let mut names = server_names(run);
        names.resize_with(grid.len().max(names.len()), String::new);
        o.push_str(&svg::heatmap(&svg::Heatmap {
            id: &id("write-share"),
            title: &share_title,
            x_unit: Unit::Seconds,
            x_label: time,
            x_span: span,
            x_cell: Some(share_cell),
            y_label: "RegionServer",
            row_labels: &names,
            values: &grid,
            merge: Merge::Mean,
            value_unit: Unit::Count,
            value_label: "× fair share (1 = even)",
            value_max: Some(FAIR_SHARE_SCALE_MAX),
            marks: &[],
            mark_noun: "",
            max_grid: (svg::MAX_HEAT_ROWS, WRITE_SHARE_COLS),
            key_rows: false,
        }));
    }

    o.push_str("<h3>Split timeline</h3>\n");
    if run.splits.is_empty() {
        o.push_str(&svg::note(&id("split-timeline"), "No splits in this run."));
    } else {
        let names = server_names(run);
        let mut rows = names.clone();
        let events: Vec<(f64, usize, String)> = run
            .splits
            .iter()
            .map(|sp| {
                let r = match rows.iter().position(|n| *n == sp.server) {
                    Some(r) => r,
                    None => {
                        rows.push(sp.server.clone());
                        rows.len() - 1
                    }
                };
                (
                    sp.at_seconds,
                    r,
                    format!(
                        "{} at {}: {} parent, split key {}",
                        sp.server,
                        dur(sp.at_seconds),
                        format_bytes(sp.parent_bytes),
                        sp.split_key
                    ),
                )
            })
            .collect();
        o.push_str(&svg::strip(&svg::Strip {
            id: &id("split-timeline"),
            title: "Splits over time per RegionServer",
            x_unit: Unit::Seconds,
            x_label: time,
            x_span: (0.0, end),
            rows: &rows,
            events: &events,
            noun: "splits",
        }));
    }

    o.push_str("<h3>Key heatmap</h3>\n");
    key_heatmaps(o, run, &id);

    o.push_str("<h3>Region sizes</h3>\n");
    if run.regions.is_empty() {
        o.push_str(&svg::note(&id("region-sizes"), "No regions in this run."));
    } else {
        let values: Vec<f64> = run.regions.iter().map(|r| r.store_bytes as f64).collect();
        let mf = report.scenario.max_filesize as f64;
        let markers = [
            Marker {
                at: mf,
                label: format!(
                    "max.filesize {}",
                    format_bytes(report.scenario.max_filesize)
                ),
            },
            Marker {
                at: mf / 2.0,
                label: "half of it".to_string(),
            },
        ];
        o.push_str(&svg::histogram(&svg::Histogram {
            id: &id("region-sizes"),
            title: "Region store size distribution",
            x_unit: Unit::Bytes,
            x_label: "region store size",
            values: &values,
            bins: 40,
            markers: if mf > 0.0 { &markers } else { &[] },
        }));
    }
    if let Some(b) = &run.bulk_load {
        crate::report::bulkload::html(o, b);
    }
    if let Some(l) = &run.loader {
        crate::report::loader::html(o, l);
    }
    start_vs_end(o, run);
    crate::report::tables::html(o, &run.tables, run.cluster.as_ref());
    region_tables(o, run, &id, linked.then_some(i));
    logs(o, run, &id);
}

/// A run from an imported table: per server, start against end.
fn start_vs_end(o: &mut String, run: &RunJson) {
    let Some(sv) = &run.start_vs_end else {
        return;
    };
    let _ = write!(
        o,
        "<h3>Imported table: start vs end</h3>\n<p>regions {} → {}; store files {} → {}</p>\n\
         <table><tr><th>server</th><th>regions</th><th>store bytes</th></tr>\n",
        sv.regions_start,
        sv.regions_end,
        format_bytes(sv.store_bytes_start),
        format_bytes(sv.store_bytes_end)
    );
    for s in &sv.servers {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td>{} → {}</td><td>{} → {}</td></tr>",
            esc(&match &s.imported {
                Some(i) => format!("{} ({i})", s.server),
                None => s.server.clone(),
            }),
            s.regions_start,
            s.regions_end,
            format_bytes(s.store_bytes_start),
            format_bytes(s.store_bytes_end)
        );
    }
    o.push_str("</table>\n");
}

/// A per-server panel: id suffix, title, y unit, y label and the sample's value.
type Panel<'a> = (
    &'a str,
    &'a str,
    Unit,
    &'a str,
    fn(&TimelineSampleJson) -> f64,
);

/// The time one drawn heatmap column covers when the chart merges `columns` samples of
/// `interval` into at most `max_cols` (as its legend's "one cell =" says).
fn drawn_period(interval: f64, columns: usize, max_cols: usize) -> f64 {
    let drawn = columns
        .div_ceil(columns.div_ceil(max_cols.max(1)).max(1))
        .max(1);
    interval * columns.max(1) as f64 / drawn as f64
}

/// Grafana-style panels from the timeline, one metric per panel and one line per server:
/// writes/s, memstore, blocked time, store files and the compaction queue.
fn server_panels(o: &mut String, run: &RunJson, id: &dyn Fn(&str) -> String) {
    if run.timeline.is_empty() {
        return;
    }
    let per = dur(run.timeline_interval_seconds);
    o.push_str("<h3>Per-server panels</h3>\n<div class=\"panels\">\n");
    let blocked_title = format!("Blocked time per {per} sample");
    let panels: [Panel; 5] = [
        ("panel-writes", "Writes/s", Unit::Count, "rows/s", |t| {
            t.write_requests_per_s
        }),
        ("panel-memstore", "Memstore", Unit::Bytes, "memstore", |t| {
            t.memstore_bytes as f64
        }),
        (
            "panel-blocked",
            &blocked_title,
            Unit::Seconds,
            "blocked",
            |t| t.blocked_seconds,
        ),
        (
            "panel-store-files",
            "Store files",
            Unit::Count,
            "files",
            |t| f64::from(t.store_files),
        ),
        (
            "panel-compaction-queue",
            "Compaction queue",
            Unit::Count,
            "queued compactions",
            |t| f64::from(t.compaction_queue),
        ),
    ];
    for (name, title, unit, label, f) in panels {
        let series = timeline_series(run, f);
        o.push_str(&svg::line_chart(&svg::LineChart {
            id: &id(name),
            title,
            x_unit: Unit::Seconds,
            x_label: "time since the load began",
            y_unit: unit,
            y_label: label,
            series: &series,
            step: false,
            height: 210.0,
        }));
    }
    o.push_str("</div>\n");
}

fn key_heatmaps(o: &mut String, run: &RunJson, id: &dyn Fn(&str) -> String) {
    let k = &run.key_heatmap;
    if k.buckets.is_empty() || k.writes.is_empty() {
        o.push_str(&svg::note(
            &id("key-heatmap"),
            "No key heatmap in this report (key buckets × time are filled by the engine).",
        ));
        return;
    }
    let bounds: Vec<Vec<u8>> = k.buckets.iter().map(|b| to_bytes_binary(b)).collect();
    // A split belongs to the last bucket whose start key is ≤ the split key; the mark sits at
    // the split key's bucket in the slice it happened.
    let marks: Vec<Mark> = run
        .splits
        .iter()
        .map(|sp| {
            let key = to_bytes_binary(&sp.split_key);
            let b = bounds.partition_point(|s| *s <= key).saturating_sub(1);
            Mark {
                x: sp.at_seconds,
                row: b as f64 + 0.5,
                title: format!("split at {}: {}", dur(sp.at_seconds), sp.split_key),
            }
        })
        .collect();
    let span = (0.0, k.writes.len() as f64 * k.interval_seconds.max(0.0));
    let transpose = |m: &Vec<Vec<u64>>| -> Vec<Vec<f64>> {
        (0..k.buckets.len())
            .map(|b| {
                m.iter()
                    .map(|slice| slice.get(b).copied().unwrap_or(0) as f64)
                    .collect()
            })
            .collect()
    };
    let writes = transpose(&k.writes);
    let cell = drawn_period(k.interval_seconds, k.writes.len(), KEY_GRID.1);
    let title = format!("Writes per key bucket per {} column (◇ = split)", dur(cell));
    o.push_str(&svg::heatmap(&svg::Heatmap {
        id: &id("key-heatmap"),
        title: &title,
        x_unit: Unit::Seconds,
        x_label: "time since the load began",
        x_span: span,
        x_cell: Some(cell),
        y_label: "bucket's first key",
        row_labels: &k.buckets,
        values: &writes,
        merge: Merge::Sum,
        value_unit: Unit::Count,
        value_label: "writes",
        value_max: None,
        marks: &marks,
        mark_noun: "splits",
        max_grid: KEY_GRID,
        key_rows: true,
    }));
    if k.reads.iter().any(|s| s.iter().any(|v| *v > 0)) {
        let reads = transpose(&k.reads);
        let cell = drawn_period(k.interval_seconds, k.reads.len(), KEY_GRID.1);
        let title = format!("Reads per key bucket per {} column", dur(cell));
        o.push_str(&svg::heatmap(&svg::Heatmap {
            id: &id("key-heatmap-reads"),
            title: &title,
            x_unit: Unit::Seconds,
            x_label: "time since the load began",
            x_span: (0.0, k.reads.len() as f64 * k.interval_seconds.max(0.0)),
            x_cell: Some(cell),
            y_label: "bucket's first key",
            row_labels: &k.buckets,
            values: &reads,
            merge: Merge::Sum,
            value_unit: Unit::Count,
            value_label: "reads",
            value_max: None,
            marks: &[],
            mark_noun: "",
            max_grid: KEY_GRID,
            key_rows: true,
        }));
    }
}

/// `page_anchor`: the run's index when report.html sits beside [`REGIONS_PAGE`] (an `--out` set).
fn region_tables(
    o: &mut String,
    run: &RunJson,
    id: &dyn Fn(&str) -> String,
    page_anchor: Option<usize>,
) {
    if run.regions.is_empty() {
        return;
    }
    let mut by_size: Vec<&crate::report::run::RegionJson> = run.regions.iter().collect();
    by_size.sort_by(|a, b| {
        b.store_bytes
            .cmp(&a.store_bytes)
            .then(a.start.cmp(&b.start))
    });
    let mut hot = by_size.clone();
    // Ranked by the writes to each region's key range over the run (per-open counters restart
    // at every split, so a sequential table's finished regions would all read 0).
    hot.sort_by(|a, b| {
        b.writes_over_run()
            .cmp(&a.writes_over_run())
            .then(a.start.cmp(&b.start))
    });
    let total: u64 = run
        .regions
        .iter()
        .map(|r| r.writes_over_run())
        .sum::<u64>()
        .max(1);
    let smallest: Vec<_> = by_size.iter().rev().take(TABLE_ROWS).copied().collect();
    for (name, title, rows) in [
        (
            "largest-regions",
            "Largest regions",
            &by_size[..by_size.len().min(TABLE_ROWS)],
        ),
        ("smallest-regions", "Smallest regions", &smallest[..]),
        (
            "hottest-regions",
            "Hottest regions (most writes)",
            &hot[..hot.len().min(TABLE_ROWS)],
        ),
    ] {
        let _ = write!(
            o,
            "<h3>{title}</h3>\n<table id=\"{}\"><thead><tr><th>start key</th><th>end key</th>\
             <th>server</th><th>store size</th><th>files</th><th>rows</th><th>writes over the run</th>\
             <th>write share</th><th>gen</th></tr></thead><tbody>\n",
            id(name)
        );
        for r in rows {
            let _ = writeln!(
                o,
                "<tr><td class=\"key\">{}</td><td class=\"key\">{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td><td>{}</td><td>{:.1}%</td><td>{}</td></tr>",
                key_or(&r.start, "(table start)"),
                key_or(&r.end, "(table end)"),
                esc(&r.server),
                format_bytes(r.store_bytes),
                r.store_files,
                thousands(r.rows as u128),
                thousands(r.writes_over_run() as u128),
                r.writes_over_run() as f64 / total as f64 * 100.0,
                r.generation
            );
        }
        o.push_str("</tbody></table>\n");
    }
    full_region_table(o, run, total, id, page_anchor);
}

/// Every region in key order, collapsed; a run with more than [`FULL_TABLE_ROWS`] regions says
/// so and points at regions.csv, which keeps the headline page under 1 MB.
fn full_region_table(
    o: &mut String,
    run: &RunJson,
    total: u64,
    id: &dyn Fn(&str) -> String,
    page_anchor: Option<usize>,
) {
    let n = run.regions.len();
    let shown = n.min(FULL_TABLE_ROWS);
    let what = if shown == n {
        format!("All {} regions", thousands(n as u128))
    } else {
        format!(
            "The first {} of {} regions (all of them in regions.csv and the JSON)",
            thousands(shown as u128),
            thousands(n as u128)
        )
    };
    if let Some(i) = page_anchor {
        let _ = writeln!(
            o,
            "<p><a href=\"{REGIONS_PAGE}#gen-{i}\">All {} regions of this run in one sortable \
             table</a> ({REGIONS_PAGE}).</p>",
            thousands(n as u128)
        );
    }
    let _ = write!(
        o,
        "<details><summary>{what}, in key order</summary>\n<table id=\"{}\"><thead><tr>\
         <th>#</th><th>start key</th><th>server</th><th>store size</th><th>files</th><th>rows</th>\
         <th>writes</th><th>share</th><th>gen</th></tr></thead><tbody>\n",
        id("all-regions")
    );
    // Closing tags of cells and rows are optional in HTML: leaving them out keeps this short.
    for (i, r) in run.regions.iter().take(shown).enumerate() {
        let _ = writeln!(
            o,
            "<tr><td>{}<td class=\"key\">{}<td>{}<td>{}<td>{}<td>{}<td>{}<td>{:.1}%<td>{}",
            i + 1,
            key_or(&r.start, "(table start)"),
            esc(&r.server),
            format_bytes(r.store_bytes),
            r.store_files,
            thousands(r.rows as u128),
            thousands(r.write_requests as u128),
            r.write_requests as f64 / total as f64 * 100.0,
            r.generation
        );
    }
    o.push_str("</tbody></table></details>\n");
}

/// Sorts a table by the clicked column (again: the other way). A cell's `data-v` is its value
/// when the shown text is formatted (sizes, keys); numbers with thousands separators and `%`
/// compare as numbers.
const SORT_JS: &str = "document.querySelectorAll('table.sortable th').forEach(function(h,c){\
h.onclick=function(){var t=h.closest('table'),b=t.tBodies[0],r=Array.from(b.rows),\
d=h.dataset.d=h.dataset.d==='1'?'-1':'1',v=function(x){var e=x.cells[c];\
var s=e.dataset.v!==undefined?e.dataset.v:e.textContent,n=Number(s.replace(/[,%]/g,''));\
return s!==''&&!isNaN(n)?n:s};r.sort(function(x,y){var a=v(x),z=v(y);\
return (typeof a===typeof z?(a<z?-1:a>z?1:0):typeof a==='number'?-1:1)*d});\
r.forEach(function(x){b.appendChild(x)})}})";

/// The page of every region of every run, one sortable table per run (an `--out` set's
/// regions.html; report.html shows the first [`FULL_TABLE_ROWS`] of each run). Self-contained:
/// inline CSS and a few lines of inline script, no network.
pub fn render_regions(report: &Report) -> String {
    let sc = &report.scenario;
    let regions: usize = report.runs.iter().map(|r| r.regions.len()).sum();
    let mut o = String::with_capacity(1024 + regions * 240);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>hbase-emu: {} (all regions)</title><style>{CSS}th{{cursor:pointer}}</style></head>\
         <body>\n<h1>{}: all regions</h1>\n<p class=\"meta\">Scenario <code>{}</code>, seed {}. \
         Every region at the end of each run, in key order; click a column header to sort by it \
         (again to reverse). Back to <a href=\"report.html\">the report</a>.</p>\n",
        esc(&sc.name),
        esc(&sc.name),
        esc(&sc.path),
        sc.seed
    );
    for (i, run) in report.runs.iter().enumerate() {
        let total = run
            .regions
            .iter()
            .map(|r| r.writes_over_run())
            .sum::<u64>()
            .max(1);
        let _ = write!(
            o,
            "<h2 id=\"gen-{i}\">{}: {} regions</h2>\n<table class=\"sortable\" \
             id=\"gen-{i}-regions\"><thead><tr><th>#</th><th>start key</th><th>end key</th>\
             <th>server</th><th>store size</th><th>files</th><th>rows</th><th>writes over the run</th>\
             <th>share</th><th>write requests</th><th>memstore</th><th>× smallest</th><th>gen</th>\
             </tr></thead><tbody>\n",
            esc(&run.generator),
            thousands(run.regions.len() as u128)
        );
        // Closing tags of cells and rows are optional in HTML: leaving them out keeps this short.
        for (n, r) in run.regions.iter().enumerate() {
            let writes = r.writes_over_run();
            let _ = writeln!(
                o,
                "<tr><td>{}<td class=\"key\" data-v=\"{}\">{}<td class=\"key\" data-v=\"{}\">{}\
                 <td>{}<td data-v=\"{}\">{}<td>{}<td>{}<td>{}<td>{:.2}%<td>{}<td data-v=\"{}\">{}\
                 <td>{:.2}<td>{}",
                n + 1,
                esc(&r.start),
                key_or(&r.start, "(table start)"),
                // The table end sorts after every key.
                if r.end.is_empty() {
                    "\u{10ffff}".to_string()
                } else {
                    esc(&r.end)
                },
                key_or(&r.end, "(table end)"),
                esc(&r.server),
                r.store_bytes,
                format_bytes(r.store_bytes),
                r.store_files,
                thousands(r.rows as u128),
                thousands(writes as u128),
                writes as f64 / total as f64 * 100.0,
                thousands(r.write_requests as u128),
                r.memstore_bytes,
                format_bytes(r.memstore_bytes),
                r.ratio_to_smallest,
                r.generation
            );
        }
        o.push_str("</tbody></table>\n");
    }
    let _ = write!(o, "<script>{SORT_JS}</script>\n</body></html>\n");
    o
}

/// An escaped key, or `empty` (HBase's empty start/end key means unbounded).
fn key_or(key: &str, empty: &str) -> String {
    if key.is_empty() {
        format!("<i>{empty}</i>")
    } else {
        esc(key)
    }
}

fn more(o: &mut String, n: usize) {
    if n > LOG_ROWS {
        let _ = writeln!(
            o,
            "<p class=\"note\">… {} more (all of them in the JSON report).</p>",
            n - LOG_ROWS
        );
    }
}

fn logs(o: &mut String, run: &RunJson, id: &dyn Fn(&str) -> String) {
    if !run.moves.is_empty() {
        let _ = write!(
            o,
            "<details><summary>Region moves ({})</summary>\n<table id=\"{}\"><thead><tr><th>at</th><th>start key</th>\
             <th>from</th><th>to</th><th>store size</th><th>offline</th><th>why</th></tr></thead>\
             <tbody>\n",
            thousands(run.moves.len() as u128),
            id("moves")
        );
        for m in run.moves.iter().take(LOG_ROWS) {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td class=\"key\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td class=\"key\">{}</td></tr>",
                dur(m.at_seconds),
                esc(&m.start),
                esc(&m.from),
                esc(&m.to),
                format_bytes(m.store_bytes),
                dur(m.offline_seconds),
                esc(&m.reason)
            );
        }
        o.push_str("</tbody></table>\n");
        more(o, run.moves.len());
        o.push_str("</details>\n");
    }
    if !run.merges.is_empty() {
        let _ = write!(
            o,
            "<details><summary>Region merges ({})</summary>\n<table id=\"{}\"><thead><tr><th>at</th><th>regions</th>\
             <th>merged range</th><th>server</th><th>store size</th><th>offline</th><th>why</th>\
             </tr></thead><tbody>\n",
            thousands(run.merges.len() as u128),
            id("merges")
        );
        for m in run.merges.iter().take(LOG_ROWS) {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{}</td><td class=\"key\">[{}, {})</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td class=\"key\">{}</td></tr>",
                dur(m.at_seconds),
                m.region_starts.len(),
                esc(&m.start),
                esc(&m.end),
                esc(&m.server),
                format_bytes(m.store_bytes),
                dur(m.offline_seconds),
                esc(&m.reason)
            );
        }
        o.push_str("</tbody></table>\n");
        more(o, run.merges.len());
        o.push_str("</details>\n");
    }
    if !run.events.is_empty() {
        let _ = write!(
            o,
            "<details><summary>Cluster events ({})</summary>\n<table id=\"{}\"><thead><tr><th>at</th><th>kind</th>\
             <th>what happened</th></tr></thead><tbody>\n",
            thousands(run.events.len() as u128),
            id("events")
        );
        for e in run.events.iter().take(LOG_ROWS) {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{}</td><td class=\"key\">{}</td></tr>",
                dur(e.at_seconds),
                esc(&e.kind),
                esc(&e.detail)
            );
        }
        o.push_str("</tbody></table>\n");
        more(o, run.events.len());
        o.push_str("</details>\n");
    }
}
