//! Renderings of the run report: insta snapshots of text, CSV and JSON for a small scenario, a
//! JSON round trip, and checks on the self-contained HTML page. Update the snapshots after an
//! intended change with `cargo insta review` (or `INSTA_UPDATE=always cargo test --test
//! it report_render::`).

use crate::common;

use hbase_emu::report::{csv, html, run::Report};

#[test]
fn text_report_snapshot() {
    insta::assert_snapshot!("small_text", common::small_report().to_text());
}

#[test]
fn csv_report_snapshot() {
    let r = common::small_report();
    let mut all = String::new();
    for (name, body) in csv::files(&r) {
        all.push_str(&format!("==> {name} <==\n{body}"));
    }
    insta::assert_snapshot!("small_csv", all);
}

#[test]
fn json_report_snapshot() {
    // The kernels that ran depend on the host, never a figure: kept out of the snapshot.
    let mut r = common::small_report();
    assert_eq!(
        r.kernels.as_deref(),
        Some(hbase_emu::kernel::active().name())
    );
    r.kernels = None;
    insta::assert_snapshot!("small_json", r.to_json());
}

#[test]
fn json_report_round_trips() {
    let r = common::enriched_report();
    let back: Report = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(back, r);
}

/// Issue 32: `idle_capacity` is the continuous measure beside `cold_regions`: every cold region
/// (no longer written, under half the split size) leaves over half its capacity idle, so the
/// share is at least cold / (2 × regions), and it never leaves [0, 1].
#[test]
fn idle_capacity_bounds_the_cold_regions_count() {
    let r = common::small_report();
    let mut some = false;
    for run in &r.runs {
        let z = &run.region_sizes;
        let regions = run.summary.regions_final as f64;
        assert!((0.0..=1.0).contains(&z.idle_capacity), "{z:?}");
        assert!(
            z.idle_capacity + 1e-4 >= z.cold_regions as f64 / (2.0 * regions),
            "{z:?} of {regions} regions"
        );
        // Only regions no longer written leave capacity idle (those past the split size none).
        if z.quiet_regions == 0 {
            assert_eq!(z.idle_capacity, 0.0, "{z:?}");
        }
        some |= z.idle_capacity > 0.0;
    }
    assert!(some, "the small report leaves regions idle");
}

#[test]
fn text_report_fits_100_columns_and_shows_sparklines() {
    let text = common::enriched_report().to_text();
    assert!(text.contains("Regions per server over time"), "{text}");
    for line in text.lines() {
        assert!(
            line.chars().count() <= 100,
            "wider than 100 columns: {line}"
        );
    }
    // A report without a timeline (e.g. an older JSON) leaves the sparklines out.
    let mut bare = common::small_report();
    for r in &mut bare.runs {
        r.timeline.clear();
    }
    assert!(!bare.to_text().contains("Regions per server over time"));
    assert!(
        common::small_report()
            .to_text()
            .contains("Regions per server over time"),
        "the engine fills the timeline"
    );
}

#[test]
fn html_has_every_chart_and_no_remote_resources() {
    let r = common::enriched_report();
    let page = html::render(&r);
    for id in common::expected_ids(r.runs.len()) {
        assert!(page.contains(&format!("id=\"{id}\"")), "missing {id}");
    }
    for id in [
        "gen-0-largest-regions",
        "gen-0-moves",
        "gen-0-merges",
        "gen-0-events",
    ] {
        assert!(page.contains(&format!("id=\"{id}\"")), "missing {id}");
    }
    for attr in [
        "src=\"http",
        "href=\"http",
        "src='http",
        "href='http",
        "url(http",
        "@import",
    ] {
        assert!(!page.contains(attr), "remote resource: {attr}");
    }
    assert!(
        !page.contains("<script"),
        "no scripts, and event text is escaped"
    );
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!page.contains("NaN") && !page.contains("inf\""));
    assert!(page.len() < 1_000_000, "{} bytes", page.len());
}

#[test]
fn html_notes_missing_data_instead_of_empty_charts() {
    // As an older JSON report without timeline or key heatmap would be.
    let mut bare = common::small_report();
    for r in &mut bare.runs {
        r.timeline.clear();
        r.key_heatmap = Default::default();
    }
    let page = html::render(&bare);
    assert!(
        page.contains("<svg id=\"gen-0-regions-per-server\""),
        "rebuilt from splits"
    );
    assert!(page.contains("<p class=\"note\" id=\"gen-0-key-heatmap\">"));
    assert!(page.contains("<p class=\"note\" id=\"gen-0-store-per-server\">"));
}

#[test]
fn html_survives_empty_and_degenerate_reports() {
    let mut r = common::small_report();
    let empty = Report {
        runs: Vec::new(),
        ..r.clone()
    };
    assert!(html::render(&empty).contains("id=\"cmp-table\""));
    for run in &mut r.runs {
        run.servers.clear();
        run.regions.clear();
        run.hotspots.windows = vec![vec![], vec![f64::NAN]];
        run.summary.sim_seconds = f64::NAN;
    }
    r.scenario.regionservers = 0;
    r.scenario.max_filesize = 0;
    let page = html::render(&r);
    assert!(page.ends_with("</html>\n"));
    let _ = r.to_text();
    let _ = csv::files(&r);
}

/// Writes per key range over the whole run: a split's daughters inherit the parent's writes in
/// their halves, so a sequential table's finished regions are not ranked as never written, and
/// the ranges' writes add up to every write of the run.
#[test]
fn hottest_regions_rank_key_ranges_by_their_writes_over_the_run() {
    let r = common::small_report();
    for run in &r.runs {
        let by_servers: u64 = run.servers.iter().map(|s| s.write_requests).sum();
        let by_ranges: u64 = run.regions.iter().map(|x| x.range_writes).sum();
        assert_eq!(by_ranges, by_servers, "{}", run.generator);
        assert!(
            run.regions
                .iter()
                .all(|x| x.range_writes >= x.write_requests),
            "{}",
            run.generator
        );
    }
    let seq = &r.runs[0];
    assert_eq!(seq.generator, "sequential");
    // Every final region got its rows while it was the table's last region: none since it
    // opened, yet each range was written.
    assert!(seq.regions.iter().all(|x| x.range_writes > 0));
    let top = &seq.hotspots.hottest_regions[0];
    let best = seq.regions.iter().map(|x| x.range_writes).max().unwrap();
    let total: u64 = seq.regions.iter().map(|x| x.range_writes).sum();
    assert!(
        (top.write_share - best as f64 / total as f64).abs() < 1e-3,
        "{top:?}"
    );
    assert!(top.write_share > 0.3, "{top:?}");
}

/// Standard output leads with the answer: with several generators, the comparison and one
/// verdict per design come first; the long tables only with `--detail` (and in report.txt).
#[test]
fn brief_text_leads_with_the_comparison_and_verdicts() {
    let r = common::small_report();
    let brief = r.to_text_with(false);
    let cmp = brief.find("\nComparison\n").expect("comparison");
    let verdicts = brief.find("\nVerdicts\n").expect("verdicts");
    let scans = brief
        .find("\nScans on the final layout")
        .expect("scan table");
    let first_run = brief.find("\n=== sequential").expect("details");
    assert!(
        cmp < verdicts && verdicts < scans && scans < first_run,
        "{brief}"
    );
    // One verdict per design (a long one wraps onto indented continuation lines).
    let lines: Vec<&str> = brief[verdicts..scans]
        .lines()
        .skip(2)
        .filter(|l| !l.starts_with("      "))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("  sequential: ") && lines[1].starts_with("  hashed: "));
    for long in ["Split timeline", "  Regions (each"] {
        assert!(!brief.contains(long), "{long} in the brief text");
        assert!(r.to_text().contains(long), "{long} missing from the detail");
    }
    assert!(brief.contains("Hottest key ranges"));
    assert!(brief.contains("--detail"));
}

/// Long keys are shortened between escapes, never wrapped inside one, and every line fits 100
/// columns.
#[test]
fn text_keys_never_wrap_inside_an_escape() {
    let mut r = common::small_report();
    for run in &mut r.runs {
        for (i, reg) in run.regions.iter_mut().enumerate() {
            reg.start = format!("{}{i:04}", "\\xAB".repeat(20));
            reg.end = format!("{}{i:04}", "\\xCD".repeat(20));
        }
        for sp in &mut run.splits {
            sp.split_key = "\\x01".repeat(30);
            sp.parent_start = "p\\xFF".repeat(15);
        }
    }
    let text = r.to_text();
    assert!(text.contains('…'), "{text}");
    assert!(text.contains("hold them whole"), "{text}");
    for line in text.lines() {
        assert!(
            line.chars().count() <= 100,
            "wider than 100 columns: {line}"
        );
        let mut rest = line;
        while let Some(i) = rest.find("\\x") {
            let esc = &rest[i..];
            assert!(
                esc.len() >= 4 && esc[2..4].chars().all(|c| c.is_ascii_hexdigit()),
                "escape cut in: {line}"
            );
            rest = &esc[4..];
        }
    }
}

/// The page leads a newcomer through the data: key rows told apart, the sample period in the
/// titles, long logs collapsed, per-server panels and every region listed.
#[test]
fn html_labels_keys_apart_collapses_logs_and_lists_every_region() {
    let mut r = common::enriched_report();
    // Sequential-style buckets: all share four zero bytes, as the headline's do.
    for run in &mut r.runs {
        let n = run.key_heatmap.buckets.len();
        run.key_heatmap.buckets = (0..n)
            .map(|b| {
                if b == 0 {
                    String::new()
                } else {
                    format!("\\x00\\x00\\x00\\x00\\x{:02X}\\x08\\x00\\x00", b * 16)
                }
            })
            .collect();
    }
    let page = html::render(&r);
    // The grid is a nested <svg>: the chart ends where the next section begins.
    let heat = section(&page, "<svg id=\"gen-0-key-heatmap\"", "<h3>");
    assert!(
        heat.contains(">…\\x10…<title>"),
        "labels after the common prefix"
    );
    assert!(heat.contains("bucket&#39;s first key after \\x00\\x00\\x00\\x00"));
    assert!(heat.contains("one cell = 1.0 s"));
    assert!(heat.contains("per 1.0 s column"));
    assert!(page.contains("per-server panels") || page.contains("Per-server panels"));
    // Issue 32: the write-share heatmap reads against the fair share (a 0–100 % scale hid a
    // salted or hashed imbalance), its scale topping out at 3× it.
    assert!(page.contains("Write share per RegionServer against its fair share, per 1.0 s column"));
    assert!(page.contains("× fair share (1 = even)"));
    assert!(page.contains("<details><summary>Region moves ("));
    assert!(page.contains("<details><summary>Cluster events ("));
    let all = section(&page, "<table id=\"gen-0-all-regions\"", "</table>");
    assert_eq!(all.matches("<tr><td>").count(), r.runs[0].regions.len());
}

/// The samples carry HBase's per-server `storeFileCount` and `compactionQueueLength`
/// (MetricsRegionServerWrapperImpl), which the store-file and compaction-queue panels draw.
#[test]
fn timeline_samples_count_store_files_like_metrics_region_server_wrapper() {
    let r = common::small_report();
    for run in &r.runs {
        assert!(
            run.timeline.iter().any(|t| t.store_files > 0),
            "{}: store files are counted",
            run.generator
        );
        // Every flushed region holds at least one file; a server's count is bounded by the
        // regions it holds times the blocking limit's order (no runaway accumulation).
        for t in &run.timeline {
            assert!(t.store_files as usize <= t.regions.max(1) * 64, "{t:?}");
        }
    }
}

/// A report saved before the time-weighted hotspot figures and the key-range writes still
/// renders (serde defaults), falling back to the worst-minute figures and per-open writes.
#[test]
fn reports_saved_before_the_new_figures_still_render() {
    let r = common::small_report();
    let mut v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    for run in v["runs"].as_array_mut().unwrap() {
        let h = run["hotspots"].as_object_mut().unwrap();
        h.remove("mean_hottest_share");
        h.remove("online_servers");
        for reg in run["regions"].as_array_mut().unwrap() {
            reg.as_object_mut().unwrap().remove("range_writes");
        }
    }
    let old: Report = serde_json::from_value(v).unwrap();
    assert_eq!(old.runs[0].hotspots.mean_hottest_share, None);
    let text = old.to_text();
    assert!(text.contains("hotspots: worst minute"), "{text}");
    assert!(text.contains("in short: "));
    assert!(!csv::files(&old).is_empty());
}

fn section<'a>(page: &'a str, open: &str, close: &str) -> &'a str {
    let at = page.find(open).unwrap_or_else(|| panic!("{open} missing"));
    let end = page[at..].find(close).map_or(page.len(), |e| at + e);
    &page[at..end]
}

/// regions.html: one sortable table per generator with a row for every region (as many as
/// regions.csv has), escaped keys, nothing fetched from the network; report.html in an `--out`
/// set links to it, a standalone report.html does not.
#[test]
fn the_regions_page_has_every_region_of_every_run_and_report_html_links_to_it() {
    let mut r = common::small_report();
    // A key that must be escaped in HTML.
    r.runs[0].regions[0].end = "<b>&\"x".to_string();
    let [(report_name, report_page), (regions_name, page)] = html::pages(&r);
    assert_eq!(
        (report_name, regions_name),
        ("report.html", html::REGIONS_PAGE)
    );
    let csv_rows = r.regions_csv().lines().count() - 1;
    assert_eq!(page.matches("<tr><td>").count(), csv_rows);
    for (i, run) in r.runs.iter().enumerate() {
        assert!(page.contains(&format!("<h2 id=\"gen-{i}\">")));
        assert!(report_page.contains(&format!("href=\"regions.html#gen-{i}\"")));
        let table = page
            .split(&format!("id=\"gen-{i}-regions\""))
            .nth(1)
            .and_then(|t| t.split("</table>").next())
            .expect("the run's table");
        assert_eq!(table.matches("<tr><td>").count(), run.regions.len());
    }
    assert_eq!(page.matches("class=\"sortable\"").count(), r.runs.len());
    assert!(page.contains("&lt;b&gt;&amp;&quot;x"), "keys are escaped");
    assert!(!page.contains("<b>&"));
    for external in ["http://", "https://", " src=", "<link"] {
        assert!(!page.contains(external), "{external}");
    }
    assert!(page.contains("<script>") && page.contains("onclick"));
    assert!(!html::render(&r).contains("regions.html"));
}

/// A run coarser than its scale guard says so where users read first: its verdict opens with
/// "rough:" and the comparison marks the figures the scale gets wrong (blocking, splits,
/// regions, sizes, and the hotspot shares measured on that layout), in the text and the HTML
/// alike.
#[test]
fn a_coarse_scale_is_flagged_in_the_comparison_and_the_verdict() {
    let mut r = common::small_report();
    let plain = r.to_text_with(false);
    assert!(
        !plain.contains("≈?") && !plain.contains("rough:"),
        "{plain}"
    );
    r.runs[1].scale_warning = Some("scale 9 is coarser than 3".to_string());
    let text = r.to_text_with(false);
    let row = |label: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("│ {label} ")))
            .unwrap_or_else(|| panic!("{label} row in {text}"))
            .to_string()
    };
    // Only the coarse run's cell is marked: once per marked row. The hotspot shares too: they
    // are measured on the layout a coarse scale gets wrong (the headline's hashed worst minute
    // reads 25 % at scale 100,000 against 12 % at its guard).
    for label in [
        "blocked",
        "splits",
        "regions",
        "region size p50",
        "write amplification",
        "busiest server, worst minute",
        "load over 2× fair share",
    ] {
        assert_eq!(row(label).matches("≈?").count(), 1, "{}", row(label));
    }
    assert!(
        text.contains("≈? not trustworthy at this run's scale"),
        "{text}"
    );
    assert!(text.contains("  hashed: rough: scale"), "{text}");
    assert!(!text.contains("  sequential: rough:"), "{text}");
    let page = html::render(&r);
    assert!(page.contains("≈?") && page.contains("rough: scale"));
}
