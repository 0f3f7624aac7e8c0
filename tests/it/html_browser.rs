//! Opens the HTML report in headless Chromium: the page must render its charts (the expected
//! svg ids with child elements in the live DOM), produce a non-blank screenshot and log no
//! console errors. Skipped, with a note, when /usr/bin/chromium is absent (.ci/run installs it).

use crate::common;

use std::path::Path;
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

fn chromium(profile: &Path, extra: &[&str], url: &str) -> std::process::Output {
    Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs")
}

/// Console messages Chromium logs with --enable-logging (`CONSOLE(…)`) or uncaught errors.
fn console_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("Uncaught") || l.contains(":CONSOLE") || l.contains("CONSOLE("))
        .collect()
}

#[test]
fn report_renders_in_headless_chromium() {
    if !Path::new(CHROMIUM).exists() {
        common::skipped(
            "html_browser::report_renders_in_headless_chromium",
            &format!("{CHROMIUM} not found (.ci/run installs it)"),
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let report = common::enriched_report();
    let page = dir.path().join("report.html");
    std::fs::write(&page, hbase_emu::report::html::render(&report)).unwrap();
    let url = format!("file://{}", page.display());

    let shot = dir.path().join("shot.png");
    let out = chromium(
        &dir.path().join("profile-shot"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1400,3000",
        ],
        &url,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "chromium failed: {stderr}");
    assert!(console_errors(&stderr).is_empty(), "{stderr}");
    assert_not_blank(&shot);

    let out = chromium(&dir.path().join("profile-dom"), &["--dump-dom"], &url);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "chromium failed: {stderr}");
    assert!(console_errors(&stderr).is_empty(), "{stderr}");
    let dom = String::from_utf8_lossy(&out.stdout);
    let ids = common::expected_ids(report.runs.len());
    for id in &ids {
        let tag = if id == "cmp-table" { "table" } else { "svg" };
        let open = format!("<{tag} id=\"{id}\"");
        let at = dom
            .find(&open)
            .unwrap_or_else(|| panic!("{id} is not in the rendered DOM"));
        let close = format!("</{tag}>");
        let end = dom[at..].find(&close).map(|e| at + e).expect("closed");
        let body = &dom[at..end];
        let children = if tag == "svg" {
            body.matches("<rect").count() + body.matches("<path").count()
        } else {
            body.matches("<td").count()
        };
        assert!(children > 0, "{id} rendered without child elements");
    }
}

/// The screenshot decodes and is not one flat colour.
fn assert_not_blank(path: &Path) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert!(info.width >= 1000 && info.height >= 1000, "{info:?}");
    let px = &buf[..info.buffer_size()];
    let step = info.color_type.samples();
    let mut distinct = std::collections::BTreeSet::new();
    let mut dark = 0usize;
    for p in px.chunks(step) {
        distinct.insert(p[..3.min(p.len())].to_vec());
        if p[0] < 128 {
            dark += 1;
        }
    }
    assert!(distinct.len() > 20, "only {} colours", distinct.len());
    assert!(dark > 1000, "almost nothing drawn");
}

/// regions.html in headless Chromium: clicking the "store size" header sorts the rows by size
/// (ascending, then descending on a second click), with no console errors.
#[test]
fn regions_page_sorts_by_a_clicked_column_in_headless_chromium() {
    if !Path::new(CHROMIUM).exists() {
        common::skipped(
            "html_browser::regions_page_sorts_by_a_clicked_column_in_headless_chromium",
            &format!("{CHROMIUM} not found (.ci/run installs it)"),
        );
        return;
    }
    let report = common::small_report();
    let [_, (_, page)] = hbase_emu::report::html::pages(&report);
    let sizes = |dom: &str| -> Vec<u64> {
        let table = dom.split("id=\"gen-0-regions\"").nth(1).expect("table");
        let table = table.split("</table>").next().expect("closed");
        table
            .split("<tr>")
            .skip(2) // before the header row, the header row
            .map(|row| {
                // data-v of start key, end key, then store size.
                let v = row.split("data-v=\"").nth(3).expect("store size cell");
                v[..v.find('"').expect("quoted")].parse().expect("bytes")
            })
            .collect()
    };
    let dir = tempfile::tempdir().unwrap();
    for (clicks, descending) in [(1, false), (2, true)] {
        let click = "document.querySelectorAll('#gen-0-regions th')[4].click();".repeat(clicks);
        let clicked = page.replace("</body>", &format!("<script>{click}</script></body>"));
        let file = dir.path().join(format!("regions-{clicks}.html"));
        std::fs::write(&file, clicked).unwrap();
        let out = chromium(
            &dir.path().join(format!("profile-{clicks}")),
            &["--dump-dom"],
            &format!("file://{}", file.display()),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "chromium failed: {stderr}");
        assert!(console_errors(&stderr).is_empty(), "{stderr}");
        let got = sizes(&String::from_utf8_lossy(&out.stdout));
        let mut want = got.clone();
        want.sort_unstable();
        if descending {
            want.reverse();
        }
        assert_eq!(got.len(), report.runs[0].regions.len());
        assert_eq!(got, want, "{clicks} click(s)");
    }
    // Key order is neither sorted way unless every size is equal: make sure they are not.
    let sizes: Vec<u64> = report.runs[0]
        .regions
        .iter()
        .map(|r| r.store_bytes)
        .collect();
    assert!(sizes.iter().any(|&s| s != sizes[0]), "{sizes:?}");
}
