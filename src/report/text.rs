//! The text report for people: [`Report::to_text`].

use crate::report::run::{ExpectationJson, RegionJson, Report, RunJson};
use crate::report::sparkline::regions_block;
use crate::report::summary::verdict;
use crate::report::{align_right, fit, table, wrap_prose};
use crate::units::{format_bytes, format_duration_ms, thousands};

/// Text output lists at most this many regions and splits (JSON and CSV list all).
const TEXT_ROWS: usize = 40;
/// Rows of the hottest key ranges table.
const HOTTEST_ROWS: usize = 5;
/// Widest key shown in a table with one key column (8 escaped bytes fit).
const KEY_COLUMN: usize = 32;
/// Widest key shown in a table with two key columns.
const PAIR_KEY_COLUMN: usize = 24;

impl Report {
    /// Text for people, with the long tables (what `report.txt` holds).
    pub fn to_text(&self) -> String {
        self.to_text_with(true)
    }

    /// Text for people: with several generators the comparison and one verdict per design
    /// first, then each design's details; the long tables (regions, splits, events, moves,
    /// merges) only with `detail` (`--detail`, and always in `report.txt`).
    pub fn to_text_with(&self, detail: bool) -> String {
        let sc = &self.scenario;
        let mut o = String::new();
        o.push_str(&format!("Scenario  {}  (seed {})\n", sc.name, sc.seed));
        if !sc.overrides.is_empty() {
            o.push_str(&crate::report::overrides::text_line(&sc.overrides));
        }
        // A `set` event may change the split size: then say which one this is.
        let changed = self.runs.iter().any(|r| {
            r.region_sizes.split_size != 0 && r.region_sizes.split_size != sc.max_filesize
        });
        o.push_str(&format!(
            "Cluster   {} RegionServers; max region size {}{}, flush size {}, {}\n",
            sc.regionservers,
            format_bytes(sc.max_filesize),
            if changed { " at the start" } else { "" },
            format_bytes(sc.flush_size),
            sc.split_policy
        ));
        let h = &sc.hardware;
        o.push_str(&format!(
            "Hardware  {} per node: {} disks × {}/s, NIC {}/s, {} cores; dfs.replication {}\n",
            h.profile,
            h.disks,
            format_bytes(h.disk_bandwidth_bytes_per_s),
            format_bytes(h.network_bytes_per_s),
            h.cores,
            h.replication
        ));
        o.push_str(&format!(
            "          a flush thread ≤ {}/s, a compaction thread ≤ {}/s, a put {} µs of CPU{}\n",
            format_bytes(sc.flush_bandwidth_bytes_per_s),
            format_bytes(sc.compaction_bandwidth_bytes_per_s),
            h.cpu_per_put_ns / 1000,
            sc.write_bandwidth_bytes_per_s
                .map(|w| format!(", write path ≤ {}/s", format_bytes(w)))
                .unwrap_or_default()
        ));
        for c in &sc.compression {
            o.push_str(&format!(
                "Codec     {} {}: data blocks {:.1} % of raw ({}); a flush thread ≤ {}/s, a \
                 compaction thread ≤ {}/s read\n",
                c.family,
                c.codec,
                c.data_fraction * 100.0,
                c.source(),
                format_bytes(c.flush_bandwidth_bytes_per_s),
                format_bytes(c.compaction_bandwidth_bytes_per_s),
            ));
        }
        let c = &sc.client;
        o.push_str(&format!(
            "Client    {} writers × {} write buffer; pause {} ms, {} retries, operation timeout {}\n",
            c.writers,
            format_bytes(c.write_buffer_bytes),
            c.pause_ms,
            c.retries,
            format_duration_ms(c.operation_timeout_ms)
        ));
        if let [r] = self.runs.as_slice() {
            // One design: its answer first, before the scans and the details.
            o.push_str(&format!("\nVerdict   {}\n", verdict(r, r.servers.len())));
        }
        if self.runs.len() > 1 {
            // One column per generator: stays within 100 columns for a handful of designs.
            o.push_str("\nComparison\n");
            let mut header = vec!["".to_string()];
            header.extend(self.runs.iter().map(|r| r.generator.clone()));
            let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
            let mut t = table(&header_refs);
            fit(&mut t);
            align_right(&mut t, &(1..=self.runs.len()).collect::<Vec<_>>());
            for row in crate::report::compare::ROWS {
                let mut cells = vec![row.label.to_string()];
                cells.extend(self.runs.iter().map(|r| row.cell(r)));
                t.add_row(cells);
            }
            o.push_str(&t.to_string());
            o.push('\n');
            if let Some(note) = crate::report::compare::assumed_note(&self.runs) {
                o.push_str(&format!("  {note}\n"));
            }
            if self
                .runs
                .iter()
                .any(|r| r.loader.as_ref().is_some_and(|l| l.clients > 1))
            {
                o.push_str(&format!("  {}\n", crate::report::compare::PER_CLIENT_NOTE));
            }
            if self.runs.iter().any(|r| r.scale_warning.is_some()) {
                o.push_str(&format!("  {}\n", crate::report::compare::COARSE_NOTE));
            }
            o.push_str("\nVerdicts\n");
            for r in &self.runs {
                o.push_str(&format!(
                    "  {}: {}\n",
                    r.generator,
                    verdict(r, r.servers.len())
                ));
            }
        }
        crate::report::scan::text(&mut o, &scan_columns(&self.runs));
        if let Some(r) = &self.assumption_ranges {
            o.push_str(&crate::report::ranges::text(r, detail));
        }
        expectations_text(&mut o, &self.runs);
        for run in &self.runs {
            run_text(&mut o, run, sc.max_filesize, detail);
        }
        wrap_prose(&o)
    }
}

/// The runs as columns of the scan table.
pub(crate) fn scan_columns(runs: &[RunJson]) -> Vec<crate::report::scan::Column<'_>> {
    runs.iter()
        .map(|r| crate::report::scan::Column {
            name: &r.generator,
            write_share: r.summary.max_server_write_share,
            scan: &r.scan_fanout,
        })
        .collect()
}

/// The scenario's expectations with their verdicts (nothing when it has none).
fn expectations_text(o: &mut String, runs: &[RunJson]) {
    let total: usize = runs.iter().map(|r| r.expectations.len()).sum();
    if total == 0 {
        return;
    }
    o.push_str("\nExpectations\n");
    let (mut failed, mut rough) = (0, 0);
    for r in runs {
        for e in &r.expectations {
            failed += usize::from(!e.holds);
            rough += usize::from(!e.holds && r.scale_warning.is_some());
            o.push_str(&format!("  {}\n", expectation_line(&r.generator, e)));
        }
    }
    o.push_str(&format!(
        "  {} of {total} hold{}\n",
        total - failed,
        if failed > 0 {
            format!("; {failed} failed")
        } else {
            String::new()
        }
    ));
    if rough > 0 {
        o.push_str(&format!(
            "  ({rough} of them in runs at a scale coarser than their guard, where the figures \
             are not trustworthy: rerun at the automatic scale)\n"
        ));
    }
}

/// `ok      design: text  (value)` or `FAILED  …`: one expectation's verdict on one run.
pub fn expectation_line(design: &str, e: &ExpectationJson) -> String {
    let measured = match &e.note {
        Some(n) => n.clone(),
        None => format!("{} = {}", e.figure, format_figure(e.value)),
    };
    format!(
        "{:<6}  {design}: {}  ({measured})",
        if e.holds { "ok" } else { "FAILED" },
        e.text
    )
}

/// A figure's value as it reads best: whole numbers whole, others to four decimals.
pub fn format_figure(v: f64) -> String {
    if !v.is_finite() {
        return "-".to_string();
    }
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

fn run_text(o: &mut String, run: &RunJson, report_start_split_size: u64, detail: bool) {
    let s = &run.summary;
    o.push_str(&format!("\n=== {} — {}\n", run.generator, run.describe));
    o.push_str(&format!(
        "  {} rows, {} payload ({} as KeyValues); scale: 1 emulated row = {} real rows ({} emulated)\n",
        thousands(s.rows as u128),
        format_bytes(s.bytes.min(u64::MAX as u128) as u64),
        format_bytes(s.data_bytes.min(u64::MAX as u128) as u64),
        thousands(run.scale as u128),
        thousands(run.emulated_rows as u128)
    ));
    if let Some(w) = &run.scale_warning {
        o.push_str(&format!("  warning: {w}\n"));
    }
    // The load's time: writing at the offered rate, its three waits, and the retries of
    // held-back rows after the last row was offered.
    let c = &run.client;
    let writing = (s.sim_seconds
        - s.blocked_seconds
        - s.offline_wait_seconds
        - s.throttled_seconds
        - c.retry_tail_seconds)
        .max(0.0);
    if let Some(b) = &run.bulk_load {
        o.push_str(&format!(
            "  ingest {} (settled {}): loaded in bulk, no WAL and no memstore\n",
            format_duration_ms((s.sim_seconds * 1000.0) as u64),
            format_duration_ms((s.settle_seconds * 1000.0) as u64),
        ));
        crate::report::bulkload::text(o, b);
    } else {
        o.push_str(&format!(
        "  ingest {} (settled {}): {} writing at the offered rate, plus blocked {}, waiting on offline regions {}, held back by the servers {}{}\n",
        format_duration_ms((s.sim_seconds * 1000.0) as u64),
        format_duration_ms((s.settle_seconds * 1000.0) as u64),
        format_duration_ms((writing * 1000.0) as u64),
        format_duration_ms((s.blocked_seconds * 1000.0) as u64),
        format_duration_ms((s.offline_wait_seconds * 1000.0) as u64),
        format_duration_ms((s.throttled_seconds * 1000.0) as u64),
        throttled_parts(s.throttled_by.as_ref()),
    ));
    }
    if let Some(l) = &run.loader {
        crate::report::loader::text(o, l);
    }
    if c.retried_rows > 0 || c.failed_rows > 0 {
        o.push_str(&format!(
            "  client: {} rows held back and retried (mean {}, max {}), {} failed and resubmitted, {} lost; \
             writers stalled on full buffers {}{}\n",
            thousands(c.retried_rows as u128),
            format_duration_ms((c.mean_retry_delay_seconds * 1000.0) as u64),
            format_duration_ms((c.max_retry_delay_seconds * 1000.0) as u64),
            thousands(c.failed_rows as u128),
            thousands(c.lost_rows as u128),
            format_duration_ms((c.stall_seconds * 1000.0) as u64),
            if c.retry_tail_seconds > 0.0 {
                format!(
                    ", last retry {} after the last row",
                    format_duration_ms((c.retry_tail_seconds * 1000.0) as u64)
                )
            } else {
                String::new()
            }
        ));
    }
    o.push_str(&format!(
        "  regions {} → {} ({} splits; regions offline {} in all)\n",
        s.regions_initial,
        s.regions_final,
        s.splits,
        format_duration_ms((s.offline_seconds * 1000.0) as u64)
    ));
    if s.procedures_queued > 0 {
        o.push_str(&format!(
            "  {} split/merge/move procedures waited {} in all for a master procedure worker (hbase.master.procedure.threads)\n",
            s.procedures_queued,
            format_duration_ms((s.procedure_wait_seconds * 1000.0) as u64)
        ));
    }
    o.push_str(&format!(
        "  flushes {} (avg {} of memstore), compactions {} minor + {} major reading {} and writing {}, write amplification {:.2} (store file bytes written / flushed), {} flushes delayed by too many files\n",
        thousands(s.flushes as u128),
        format_bytes(s.avg_flush_bytes),
        s.minor_compactions,
        s.major_compactions,
        format_bytes(s.compacted_bytes),
        format_bytes(s.compaction_written_bytes),
        s.write_amplification,
        s.delayed_flushes
    ));
    o.push_str(&format!(
        "  WAL: {} rolls, at most {} WAL files on a server, {} flushes forced by too many WAL files (hbase.regionserver.maxlogs)\n",
        thousands(s.wal_rolls as u128),
        s.wal_files_peak,
        thousands(s.wal_forced_flushes as u128),
    ));
    if let Some(a) = &s.ageing {
        o.push_str(&format!(
            "  TTL: {} rows ({}) expired, {} expired store files dropped whole; {} rows stored at the end\n",
            thousands(a.ttl_expired_rows as u128),
            format_bytes(a.ttl_expired_bytes),
            thousands(a.expired_files_dropped as u128),
            thousands(a.rows_stored as u128),
        ));
    }
    if let Some(v) = &s.versions {
        o.push_str(&format!(
            "  Versions and deletes: {} updates, {} deletes; compactions dropped {} versions beyond VERSIONS ({}), {} deleted rows with {} versions and {} delete markers ({}); {} versions and {} delete markers stored at the end, {} rows\n",
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
            thousands(v.rows_stored as u128),
        ));
    }
    if s.gc_pauses > 0 {
        o.push_str(&format!(
            "  GC pauses: {} ({} long), {} in all (seeded: [cluster] variability)\n",
            thousands(s.gc_pauses as u128),
            thousands(s.gc_long_pauses as u128),
            format_duration_ms((s.gc_pause_seconds * 1000.0) as u64),
        ));
    }
    let z = &run.region_sizes;
    o.push_str(&format!(
        "  region sizes: min {}, p50 {}, p90 {}, max {}; cold regions (no writes in the last 10% of the load, under half the split size): {}\n",
        format_bytes(z.min),
        format_bytes(z.p50),
        format_bytes(z.p90),
        format_bytes(z.max),
        z.cold_regions
    ));
    if z.quiet_regions > 0 && z.split_size > 0 {
        o.push_str(&format!(
            "  {} of {} regions stopped receiving writes before the last 10% of the load; their median size {} is {:.0}% of the split size {}{}\n",
            thousands(z.quiet_regions as u128),
            thousands(run.regions.len() as u128),
            format_bytes(z.quiet_p50),
            z.quiet_p50 as f64 * 100.0 / z.split_size as f64,
            if z.split_size == report_start_split_size {
                String::new()
            } else {
                "in force at the end ".to_string()
            },
            format_bytes(z.split_size)
        ));
    }
    let h = &run.hotspots;
    match h.mean_hottest_share {
        Some(mean) => o.push_str(&format!(
            "  hotspots (time-weighted over the load): the busiest server took {:.1}% of writes on \
             average; one server held more than twice its fair share (2 / servers online) for \
             {:.0}% of the load; worst minute: {:.1}% to one server\n",
            mean * 100.0,
            h.time_over_twice_fair_share * 100.0,
            h.max_server_write_share * 100.0,
        )),
        None => o.push_str(&format!(
            "  hotspots: worst minute {:.1}% to one server; some server above twice its fair \
             share in {:.0}% of minutes\n",
            h.max_server_write_share * 100.0,
            h.time_over_twice_fair_share * 100.0
        )),
    }
    o.push_str(&format!(
        "  in short: {}\n",
        verdict(run, run.servers.len())
    ));
    let b = &run.balance;
    if !b.balancer.is_empty() {
        o.push_str(&format!(
            "  balance: {} ran {} time(s) and moved {} region(s); regions per server at the end {}..{} (mean {:.1}); {}; {} move(s), {} merge(s) in all\n",
            b.balancer,
            b.balancer_runs,
            b.balancer_moves,
            b.min_regions_per_server,
            b.max_regions_per_server,
            b.mean_regions_per_server,
            match b.all_servers_hosting_seconds {
                Some(0.0) => "every server hosted a region from the start".to_string(),
                Some(t) => format!(
                    "every server hosted a region after {}",
                    format_duration_ms((t * 1000.0) as u64)
                ),
                None => "some server never hosted a region".to_string(),
            },
            run.moves.len(),
            run.merges.len()
        ));
    }
    if let Some(sv) = &run.start_vs_end {
        start_vs_end(o, sv);
    }
    crate::report::tables::text(o, &run.tables, run.cluster.as_ref());
    let reads: u64 = run.servers.iter().map(|x| x.read_requests).sum();
    if reads > 0 {
        let top = run.servers.iter().max_by(|a, b| {
            a.read_share
                .total_cmp(&b.read_share)
                .then(b.name.cmp(&a.name))
        });
        o.push_str(&format!(
            "  reads: {} read requests; busiest server {} with {:.1}% of them\n",
            thousands(reads as u128),
            top.map_or("-", |t| t.name.as_str()),
            top.map_or(0.0, |t| t.read_share * 100.0)
        ));
    }
    o.push_str(&regions_block(run));
    o.push_str("\n  RegionServers\n");
    let mut t = table(&[
        "server",
        "regions",
        "store size",
        "writes",
        "share",
        "memstore peak",
        "blocked",
        "reads",
    ]);
    fit(&mut t);
    align_right(&mut t, &[1, 2, 3, 4, 5, 6, 7]);
    for sv in &run.servers {
        t.add_row(vec![
            if sv.online {
                sv.name.clone()
            } else {
                format!("{} (gone)", sv.name)
            },
            sv.regions.to_string(),
            format_bytes(sv.store_bytes),
            thousands(sv.write_requests as u128),
            format!("{:.1}%", sv.write_share * 100.0),
            format_bytes(sv.memstore_peak_bytes),
            format_duration_ms((sv.blocked_seconds * 1000.0) as u64),
            thousands(sv.read_requests as u128),
        ]);
    }
    o.push_str(&t.to_string());
    o.push('\n');
    let mut elided = hottest_text(o, run);
    let long = run.regions.len()
        + run.splits.len()
        + run.events.len()
        + run.moves.len()
        + run.merges.len();
    if !detail {
        if long > 0 {
            o.push_str(&format!(
                "\n  Long tables ({} regions, {} splits, {} events, {} moves, {} merges): \
                 --detail, or report.txt and the CSV files under --out\n",
                thousands(run.regions.len() as u128),
                thousands(run.splits.len() as u128),
                thousands(run.events.len() as u128),
                thousands(run.moves.len() as u128),
                thousands(run.merges.len() as u128),
            ));
        }
        key_note(o, elided);
        return;
    }
    // The end key of a region is the next row's start key: one key column keeps a row on one
    // line.
    o.push_str("\n  Regions (each ends where the next begins; writes: to its key range over the run, puts: since it opened)\n");
    let mut t = table(&[
        "start key",
        "server",
        "store size",
        "files",
        "rows",
        "writes",
        "puts",
        "gen",
    ]);
    fit(&mut t);
    align_right(&mut t, &[2, 3, 4, 5, 6, 7]);
    for r in run.regions.iter().take(TEXT_ROWS) {
        t.add_row(vec![
            key_cell(&r.start, KEY_COLUMN, &mut elided),
            r.server.clone(),
            format_bytes(r.store_bytes),
            r.store_files.to_string(),
            thousands(r.rows as u128),
            thousands(r.writes_over_run() as u128),
            thousands(r.write_requests as u128),
            r.generation.to_string(),
        ]);
    }
    keep_keys_whole(&mut t, &[0]);
    push_table(
        o,
        &t,
        run.regions.len(),
        "regions (all of them with --format json or csv)",
    );
    if !run.splits.is_empty() {
        o.push_str("\n  Split timeline (parent ranges whole in splits.csv)\n");
        let mut t = table(&[
            "at",
            "server",
            "parent size",
            "split key",
            "parent start",
            "gen",
        ]);
        fit(&mut t);
        align_right(&mut t, &[2, 5]);
        for sp in run.splits.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((sp.at_seconds * 1000.0) as u64),
                sp.server.clone(),
                format_bytes(sp.parent_bytes),
                key_cell(&sp.split_key, PAIR_KEY_COLUMN, &mut elided),
                key_cell(&sp.parent_start, PAIR_KEY_COLUMN, &mut elided),
                sp.generation.to_string(),
            ]);
        }
        keep_keys_whole(&mut t, &[3, 4]);
        push_table(o, &t, run.splits.len(), "splits");
    }
    if !run.events.is_empty() {
        o.push_str("\n  Cluster events\n");
        let mut t = table(&["at", "kind", "what happened"]);
        fit(&mut t);
        for e in run.events.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((e.at_seconds * 1000.0) as u64),
                e.kind.clone(),
                e.detail.clone(),
            ]);
        }
        push_table(o, &t, run.events.len(), "events");
    }
    if !run.moves.is_empty() {
        o.push_str("\n  Region moves (why: the rule and its numbers are in the JSON report)\n");
        let mut t = table(&["at", "offline", "region start", "from", "to", "store size"]);
        fit(&mut t);
        align_right(&mut t, &[1, 5]);
        for m in run.moves.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((m.at_seconds * 1000.0) as u64),
                format_duration_ms((m.offline_seconds * 1000.0) as u64),
                key_cell(&m.start, KEY_COLUMN, &mut elided),
                m.from.clone(),
                m.to.clone(),
                format_bytes(m.store_bytes),
            ]);
        }
        keep_keys_whole(&mut t, &[2]);
        push_table(o, &t, run.moves.len(), "moves");
    }
    if !run.merges.is_empty() {
        o.push_str("\n  Merges\n");
        let mut t = table(&[
            "at",
            "regions",
            "start key",
            "end key",
            "server",
            "store size",
        ]);
        fit(&mut t);
        align_right(&mut t, &[1, 5]);
        for m in run.merges.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((m.at_seconds * 1000.0) as u64),
                m.region_starts.len().to_string(),
                key_cell(&m.start, PAIR_KEY_COLUMN, &mut elided),
                key_cell(&m.end, PAIR_KEY_COLUMN, &mut elided),
                m.server.clone(),
                format_bytes(m.store_bytes),
            ]);
        }
        keep_keys_whole(&mut t, &[2, 3]);
        push_table(o, &t, run.merges.len(), "merges");
    }
    key_note(o, elided);
}

/// The regions whose key ranges took the most writes over the run (top 5).
fn hottest_text(o: &mut String, run: &RunJson) -> bool {
    let mut elided = false;
    if run.regions.is_empty() {
        return elided;
    }
    let total: u64 = run
        .regions
        .iter()
        .map(RegionJson::writes_over_run)
        .sum::<u64>()
        .max(1);
    let mut hot: Vec<&RegionJson> = run.regions.iter().collect();
    hot.sort_by(|a, b| {
        b.writes_over_run()
            .cmp(&a.writes_over_run())
            .then(a.start.cmp(&b.start))
    });
    o.push_str(
        "\n  Hottest key ranges (writes to the region's key range over the run, its parents' \
         included; since open: the region's own)\n",
    );
    let mut t = table(&[
        "start key",
        "end key",
        "server",
        "writes",
        "share",
        "since open",
    ]);
    fit(&mut t);
    align_right(&mut t, &[3, 4, 5]);
    for r in hot.iter().take(HOTTEST_ROWS) {
        t.add_row(vec![
            key_cell(&r.start, PAIR_KEY_COLUMN, &mut elided),
            key_cell(&r.end, PAIR_KEY_COLUMN, &mut elided),
            r.server.clone(),
            thousands(r.writes_over_run() as u128),
            format!("{:.1}%", r.writes_over_run() as f64 * 100.0 / total as f64),
            thousands(r.write_requests as u128),
        ]);
    }
    // Every column whole: the counts too (two 24-character keys and four figures fit 100
    // columns even at 4,294,967,296 writes).
    keep_keys_whole(&mut t, &[0, 1, 2, 3, 4, 5]);
    o.push_str(&t.to_string());
    o.push('\n');
    elided
}

/// Key columns (and any others given) are as wide as their content: a key never wraps inside
/// an escape, a figure never across lines.
pub(crate) fn keep_keys_whole(t: &mut comfy_table::Table, columns: &[usize]) {
    for &c in columns {
        if let Some(col) = t.column_mut(c) {
            col.set_constraint(comfy_table::ColumnConstraint::ContentWidth);
        }
    }
}

fn key_note(o: &mut String, elided: bool) {
    if elided {
        o.push_str(&format!(
            "  (keys too long for their column ({PAIR_KEY_COLUMN} or {KEY_COLUMN} characters) are \
             shortened with … in the middle; report.json and the CSV files hold them whole)\n"
        ));
    }
}

/// `key` (toStringBinary) in at most `max` characters: whole when it fits, else its head and
/// tail around `…`, cut only between escapes (`\xHH` stays whole). Sets `elided` when cut.
pub(crate) fn key_cell(key: &str, max: usize, elided: &mut bool) -> String {
    if key.chars().count() <= max {
        return key.to_string();
    }
    *elided = true;
    // Tokens: an escape `\xHH` or one character.
    let mut tokens: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < key.len() {
        let rest = &key[i..];
        let n = if rest.starts_with("\\x") && rest.len() >= 4 && rest.is_char_boundary(4) {
            4
        } else {
            rest.chars().next().map_or(1, char::len_utf8)
        };
        tokens.push(&rest[..n]);
        i += n;
    }
    let budget = max.saturating_sub(1);
    // The tail gets the larger half: sequential and timestamped keys differ at the end.
    let head_budget = budget / 2;
    let tail_budget = budget - head_budget;
    let mut head = String::new();
    let mut used = 0;
    let mut first_tail = tokens.len();
    let mut tail_used = 0;
    while first_tail > 0 {
        let tok = tokens[first_tail - 1];
        let w = tok.chars().count();
        if tail_used + w > tail_budget {
            break;
        }
        tail_used += w;
        first_tail -= 1;
    }
    for tok in &tokens[..first_tail] {
        let w = tok.chars().count();
        if used + w > head_budget {
            break;
        }
        head.push_str(tok);
        used += w;
    }
    format!("{head}…{}", tokens[first_tail..].concat())
}

/// A table of at most [`TEXT_ROWS`] rows, and how many of `total` it leaves out.
fn push_table(o: &mut String, t: &comfy_table::Table, total: usize, what: &str) {
    o.push_str(&t.to_string());
    o.push('\n');
    if total > TEXT_ROWS {
        o.push_str(&format!("  … {} more {what}\n", total - TEXT_ROWS));
    }
}

/// A run from an imported table: start against end, per server and per imported region.
fn start_vs_end(o: &mut String, sv: &crate::report::run::StartVsEndJson) {
    o.push_str(&format!(
        "  imported table, start → end: regions {} → {}, store files {} → {}\n",
        sv.regions_start,
        sv.regions_end,
        format_bytes(sv.store_bytes_start),
        format_bytes(sv.store_bytes_end)
    ));
    for s in &sv.servers {
        let name = match &s.imported {
            Some(i) => format!("{} ({i})", s.server),
            None => s.server.clone(),
        };
        o.push_str(&format!(
            "    {}  regions {} → {}, {} → {}\n",
            name,
            s.regions_start,
            s.regions_end,
            format_bytes(s.store_bytes_start),
            format_bytes(s.store_bytes_end)
        ));
    }
    for r in &sv.regions {
        o.push_str(&format!(
            "    `{}`..`{}`  {} → {} in {} region(s)\n",
            r.start,
            r.end,
            format_bytes(r.store_bytes_start),
            format_bytes(r.store_bytes_end),
            r.regions_end
        ));
    }
}

/// " (GC pauses 12s, CPU 3s)": what the servers held the client back for.
fn throttled_parts(t: Option<&crate::report::run::ThrottledJson>) -> String {
    match t.map(crate::report::run::ThrottledJson::describe) {
        Some(d) if !d.is_empty() => format!(" ({d})"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{format_figure, key_cell};

    #[test]
    fn figures_read_whole_or_to_four_decimals() {
        assert_eq!(format_figure(1800.0), "1800");
        assert_eq!(format_figure(0.123456), "0.1235");
        assert_eq!(format_figure(1.5), "1.5");
        assert_eq!(format_figure(-0.00001), "0");
        assert_eq!(format_figure(f64::NAN), "-");
    }

    #[test]
    fn short_keys_stay_whole() {
        let mut e = false;
        assert_eq!(key_cell("user123", 10, &mut e), "user123");
        assert!(!e);
    }

    #[test]
    fn long_keys_are_cut_between_escapes_keeping_head_and_tail() {
        let key = "\\x00\\x00\\x00\\x00\\x00\\x02Z\\x81";
        let mut e = false;
        let k = key_cell(key, 20, &mut e);
        assert!(e);
        assert!(k.chars().count() <= 20, "{k}");
        assert_eq!(k, "\\x00\\x00…\\x02Z\\x81");
        // Every piece around the ellipsis is whole escapes.
        for part in k.split('…') {
            let mut rest = part;
            while let Some(i) = rest.find('\\') {
                assert!(rest[i..].len() >= 4, "{k}");
                rest = &rest[i + 4..];
            }
        }
    }
}
