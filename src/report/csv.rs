//! CSV renderings for spreadsheets and pandas: servers and the per-server timeline (regions and
//! splits are rendered by [`Report::regions_csv`] and [`Report::splits_csv`]). Headers are
//! documented in docs/REPORT.md.

use crate::report::run::Report;

impl Report {
    /// Regions of every run as CSV (one row per region, with the generator).
    pub fn regions_csv(&self) -> String {
        let mut w = ::csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "generator",
            "start",
            "end",
            "server",
            "store_bytes",
            "store_files",
            "rows",
            "write_requests",
            "ratio_to_smallest",
            "generation",
            "memstore_bytes",
            "range_writes",
        ]);
        for run in &self.runs {
            for r in &run.regions {
                let _ = w.write_record([
                    run.generator.clone(),
                    r.start.clone(),
                    r.end.clone(),
                    r.server.clone(),
                    r.store_bytes.to_string(),
                    r.store_files.to_string(),
                    r.rows.to_string(),
                    r.write_requests.to_string(),
                    r.ratio_to_smallest.to_string(),
                    r.generation.to_string(),
                    r.memstore_bytes.to_string(),
                    r.writes_over_run().to_string(),
                ]);
            }
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// Splits of every run as CSV.
    pub fn splits_csv(&self) -> String {
        let mut w = ::csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "generator",
            "at_seconds",
            "offline_seconds",
            "parent_start",
            "parent_end",
            "split_key",
            "server",
            "parent_bytes",
            "generation",
            "split_size",
        ]);
        for run in &self.runs {
            for s in &run.splits {
                let _ = w.write_record([
                    run.generator.clone(),
                    s.at_seconds.to_string(),
                    s.offline_seconds.to_string(),
                    s.parent_start.clone(),
                    s.parent_end.clone(),
                    s.split_key.clone(),
                    s.server.clone(),
                    s.parent_bytes.to_string(),
                    s.generation.to_string(),
                    s.split_size.to_string(),
                ]);
            }
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

fn finish(w: ::csv::Writer<Vec<u8>>) -> String {
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// One row per server and generator.
pub fn servers_csv(report: &Report) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "generator",
        "server",
        "regions",
        "store_bytes",
        "write_requests",
        "write_share",
        "memstore_peak_bytes",
        "blocked_seconds",
        "read_requests",
        "read_share",
        "online",
    ]);
    for run in &report.runs {
        for s in &run.servers {
            let _ = w.write_record([
                run.generator.clone(),
                s.name.clone(),
                s.regions.to_string(),
                s.store_bytes.to_string(),
                s.write_requests.to_string(),
                s.write_share.to_string(),
                s.memstore_peak_bytes.to_string(),
                s.blocked_seconds.to_string(),
                s.read_requests.to_string(),
                s.read_share.to_string(),
                s.online.to_string(),
            ]);
        }
    }
    finish(w)
}

/// One row per server per timeline sample and generator (only a header when the report has no
/// timeline).
pub fn timeline_csv(report: &Report) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "generator",
        "at_seconds",
        "server",
        "regions",
        "store_bytes",
        "memstore_bytes",
        "write_requests_per_s",
        "read_requests_per_s",
        "blocked_seconds",
        "online",
        "store_files",
        "compaction_queue",
    ]);
    for run in &report.runs {
        for t in &run.timeline {
            let _ = w.write_record([
                run.generator.clone(),
                t.at_seconds.to_string(),
                t.server.clone(),
                t.regions.to_string(),
                t.store_bytes.to_string(),
                t.memstore_bytes.to_string(),
                t.write_requests_per_s.to_string(),
                t.read_requests_per_s.to_string(),
                t.blocked_seconds.to_string(),
                t.online.to_string(),
                t.store_files.to_string(),
                t.compaction_queue.to_string(),
            ]);
        }
    }
    finish(w)
}

/// Every CSV file `--format csv --out DIR` writes, with its file name.
pub fn files(report: &Report) -> [(&'static str, String); 4] {
    [
        ("regions.csv", report.regions_csv()),
        ("servers.csv", servers_csv(report)),
        ("splits.csv", report.splits_csv()),
        ("timeline.csv", timeline_csv(report)),
    ]
}
