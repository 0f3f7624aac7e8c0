//! The read side of each design beside its write balance: what the operator's scans cost on
//! the final region layout (`engine/scan.rs` prices them). JSON `scan_fanout`, the text table
//! "Scans on the final layout" and the HTML table of the same name.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::engine::scan::ScanFanout;
use crate::keygen::ScanLocality;
use crate::units::thousands;

use super::{align_right, fit, table};

/// One design's column of the scan table.
pub struct Column<'a> {
    /// The generator's name.
    pub name: &'a str,
    /// Its busiest server's share of a minute's writes, worst minute.
    pub write_share: f64,
    /// Its scans.
    pub scan: &'a ScanFanoutJson,
}

/// One time-range scan in the JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScanWindowJson {
    /// The window before the end of the ingest, seconds.
    pub window_seconds: f64,
    /// Real rows written in it.
    pub rows: u64,
    /// Keys computed to place them (sampled evenly above `engine::scan::MAX_SAMPLED_KEYS`).
    pub sampled_keys: u64,
    /// Range scans the client runs (one per prefix; 1 for a full scan).
    pub scans: u64,
    /// Distinct regions opened.
    pub regions: u64,
    /// Distinct servers reached.
    pub servers: u64,
    /// Scanner RPCs.
    pub rpcs: u64,
    /// A full-table scan with a time range (the design has no key locality).
    pub full_scan: bool,
}

/// `scan_fanout` of a run. The `scan_*` fields repeat the first window's figures (0 without
/// windows) and the `prefix_scan_*` fields the mean prefix scan (0 for a design without a
/// prefix), so `[expect]` and sweeps can name them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScanFanoutJson {
    /// `ordered`, `prefix` or `scattered`: where a time window's rows lie.
    pub locality: String,
    /// Bytes of one row as a scanner returns it.
    pub row_bytes: u64,
    /// Rows one scanner RPC returns (caching and max result size).
    pub rows_per_rpc: u64,
    /// First window, seconds.
    #[serde(default)]
    pub scan_window_seconds: f64,
    /// First window: range scans the client runs.
    #[serde(default)]
    pub scan_scans: u64,
    /// First window: regions opened.
    #[serde(default)]
    pub scan_regions: u64,
    /// First window: servers reached.
    #[serde(default)]
    pub scan_servers: u64,
    /// First window: scanner RPCs.
    #[serde(default)]
    pub scan_rpcs: u64,
    /// Prefixes the table holds (designs with a prefix only).
    #[serde(default)]
    pub prefixes: u64,
    /// Mean regions one prefix's scan opens.
    #[serde(default)]
    pub prefix_scan_regions: f64,
    /// Mean servers one prefix's scan reaches.
    #[serde(default)]
    pub prefix_scan_servers: f64,
    /// Mean RPCs of one prefix's scan.
    #[serde(default)]
    pub prefix_scan_rpcs: f64,
    /// Every window, in `[client] scan_windows` order.
    #[serde(default)]
    pub windows: Vec<ScanWindowJson>,
}

/// Two decimals, so the JSON stays short and stable.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The JSON of a run's scan pricing.
pub fn json(f: &ScanFanout) -> ScanFanoutJson {
    let windows: Vec<ScanWindowJson> = f
        .windows
        .iter()
        .map(|w| ScanWindowJson {
            window_seconds: w.window_ms as f64 / 1000.0,
            rows: w.rows,
            sampled_keys: w.sampled_keys,
            scans: w.scans,
            regions: w.regions,
            servers: w.servers,
            rpcs: w.rpcs,
            full_scan: w.full_scan,
        })
        .collect();
    let first = windows.first();
    ScanFanoutJson {
        locality: match f.locality {
            Some(ScanLocality::Ordered) => "ordered",
            Some(ScanLocality::Prefix(_) | ScanLocality::PrefixUntil(_)) => "prefix",
            Some(ScanLocality::Scattered) => "scattered",
            None => "",
        }
        .to_string(),
        row_bytes: f.row_bytes,
        rows_per_rpc: f.rows_per_rpc,
        scan_window_seconds: first.map_or(0.0, |w| w.window_seconds),
        scan_scans: first.map_or(0, |w| w.scans),
        scan_regions: first.map_or(0, |w| w.regions),
        scan_servers: first.map_or(0, |w| w.servers),
        scan_rpcs: first.map_or(0, |w| w.rpcs),
        prefixes: f.prefix.map_or(0, |p| p.prefixes),
        prefix_scan_regions: f.prefix.map_or(0.0, |p| round2(p.regions)),
        prefix_scan_servers: f.prefix.map_or(0.0, |p| round2(p.servers)),
        prefix_scan_rpcs: f.prefix.map_or(0.0, |p| round2(p.rpcs)),
        windows,
    }
}

/// A window as the operator writes it: `1h`, `15m`, `90s`, `500ms`.
fn window_label(seconds: f64) -> String {
    let ms = (seconds * 1000.0).round() as u64;
    match ms {
        0 => "0s".to_string(),
        _ if ms.is_multiple_of(3_600_000) => format!("{}h", ms / 3_600_000),
        _ if ms.is_multiple_of(60_000) => format!("{}m", ms / 60_000),
        _ if ms.is_multiple_of(1000) => format!("{}s", ms / 1000),
        _ => format!("{ms}ms"),
    }
}

/// The rows of the scan table: a label and one cell per design.
fn rows(runs: &[Column<'_>]) -> Vec<(String, Vec<String>)> {
    let mut out = vec![(
        "write share, worst minute".to_string(),
        runs.iter()
            .map(|r| format!("{:.0}%", r.write_share * 100.0))
            .collect(),
    )];
    let n = runs.iter().map(|r| r.scan.windows.len()).max().unwrap_or(0);
    for i in 0..n {
        let label = runs
            .iter()
            .find_map(|r| r.scan.windows.get(i))
            .map(|w| window_label(w.window_seconds))
            .unwrap_or_default();
        out.push((
            format!("last {label}: scans/regions/servers"),
            runs.iter()
                .map(|r| {
                    r.scan.windows.get(i).map_or("-".to_string(), |w| {
                        let scans = if w.full_scan {
                            "full".to_string()
                        } else {
                            thousands(u128::from(w.scans))
                        };
                        format!("{scans}/{}/{}", w.regions, w.servers)
                    })
                })
                .collect(),
        ));
        out.push((
            format!("last {label}: RPCs"),
            runs.iter()
                .map(|r| {
                    r.scan
                        .windows
                        .get(i)
                        .map_or("-".to_string(), |w| thousands(u128::from(w.rpcs)))
                })
                .collect(),
        ));
    }
    out.push((
        "one prefix: regions/servers/RPCs".to_string(),
        runs.iter()
            .map(|r| {
                let s = &r.scan;
                if s.prefixes == 0 {
                    "-".to_string()
                } else {
                    format!(
                        "{:.1}/{:.1}/{}",
                        s.prefix_scan_regions,
                        s.prefix_scan_servers,
                        thousands(s.prefix_scan_rpcs.round() as u128)
                    )
                }
            })
            .collect(),
    ));
    out.push((
        "rows per scanner RPC".to_string(),
        runs.iter()
            .map(|r| thousands(u128::from(r.scan.rows_per_rpc)))
            .collect(),
    ));
    out
}

/// The text table (nothing when no run priced a scan).
pub fn text(o: &mut String, runs: &[Column<'_>]) {
    if runs.iter().all(|r| r.scan.locality.is_empty()) {
        return;
    }
    o.push_str("\nScans on the final layout (write balance against read fan-out)\n");
    let mut header = vec!["".to_string()];
    header.extend(runs.iter().map(|r| r.name.to_string()));
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = table(&header_refs);
    fit(&mut t);
    align_right(&mut t, &(1..=runs.len()).collect::<Vec<_>>());
    for (label, cells) in rows(runs) {
        let mut row = vec![label];
        row.extend(cells);
        t.add_row(row);
    }
    o.push_str(&t.to_string());
    o.push('\n');
    o.push_str(
        "  last W: the rows written in the last W of the ingest, one range scan per prefix\n  \
         (full: no key locality, a full-table scan with a time range);\n  one prefix: all rows \
         of one salt bucket or entity, mean over the prefixes\n",
    );
}

/// The HTML table (nothing when no run priced a scan); `esc` escapes text.
pub fn html(o: &mut String, runs: &[Column<'_>], esc: &dyn Fn(&str) -> String) {
    if runs.iter().all(|r| r.scan.locality.is_empty()) {
        return;
    }
    o.push_str("<table id=\"scan-table\"><thead><tr><th></th>");
    for r in runs {
        let _ = write!(o, "<th>{}</th>", esc(r.name));
    }
    o.push_str("</tr></thead><tbody>\n");
    for (label, cells) in rows(runs) {
        let _ = write!(o, "<tr><th>{}</th>", esc(&label));
        for c in cells {
            let _ = write!(o, "<td>{}</td>", esc(&c));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</tbody></table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_read_as_written() {
        assert_eq!(window_label(3600.0), "1h");
        assert_eq!(window_label(60.0), "1m");
        assert_eq!(window_label(90.0), "90s");
        assert_eq!(window_label(0.5), "500ms");
    }
}
