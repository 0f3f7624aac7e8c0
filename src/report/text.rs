//! The text report for people: [`Report::to_text`].

use crate::report::run::{Report, RunJson};
use crate::report::sparkline::regions_block;
use crate::report::summary::verdict;
use crate::report::{align_right, fit, table, wrap_prose};
use crate::units::{format_bytes, format_duration_ms, thousands};

/// Text output lists at most this many regions and splits (JSON and CSV list all).
const TEXT_ROWS: usize = 40;

impl Report {
    /// Text for people.
    pub fn to_text(&self) -> String {
        let sc = &self.scenario;
        let mut o = String::new();
        o.push_str(&format!("Scenario  {}  (seed {})\n", sc.name, sc.seed));
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
        let c = &sc.client;
        o.push_str(&format!(
            "Client    {} writers × {} write buffer; pause {} ms, {} retries, operation timeout {}\n",
            c.writers,
            format_bytes(c.write_buffer_bytes),
            c.pause_ms,
            c.retries,
            format_duration_ms(c.operation_timeout_ms)
        ));
        for run in &self.runs {
            run_text(&mut o, run, sc.max_filesize);
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
            type Cell = fn(&RunJson) -> String;
            let rows: [(&str, Cell); 11] = [
                ("regions", |r| {
                    format!(
                        "{} → {}",
                        r.summary.regions_initial, r.summary.regions_final
                    )
                }),
                ("splits", |r| thousands(r.summary.splits as u128)),
                ("ingest time", |r| {
                    format_duration_ms((r.summary.sim_seconds * 1000.0) as u64)
                }),
                ("blocked", |r| {
                    format_duration_ms((r.summary.blocked_seconds * 1000.0) as u64)
                }),
                ("max server write share", |r| {
                    format!("{:.0}%", r.summary.max_server_write_share * 100.0)
                }),
                ("cold regions", |r| {
                    thousands(r.region_sizes.cold_regions as u128)
                }),
                ("regions no longer written", |r| {
                    thousands(r.region_sizes.quiet_regions as u128)
                }),
                ("… their median / split size", |r| {
                    let z = &r.region_sizes;
                    if z.quiet_regions == 0 || z.split_size == 0 {
                        "-".to_string()
                    } else {
                        format!("{:.0}%", z.quiet_p50 as f64 * 100.0 / z.split_size as f64)
                    }
                }),
                ("region size p50", |r| format_bytes(r.region_sizes.p50)),
                ("region size max", |r| format_bytes(r.region_sizes.max)),
                ("write amplification", |r| {
                    format!("{:.2}", r.summary.write_amplification)
                }),
            ];
            for (name, cell) in rows {
                let mut row = vec![name.to_string()];
                row.extend(self.runs.iter().map(cell));
                t.add_row(row);
            }
            o.push_str(&t.to_string());
            o.push('\n');
        }
        wrap_prose(&o)
    }
}

fn run_text(o: &mut String, run: &RunJson, report_start_split_size: u64) {
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
    o.push_str(&format!(
        "  ingest {} (settled {}): {} writing at the offered rate, plus blocked {}, waiting on offline regions {}, throttled by server bandwidth {}\n",
        format_duration_ms((s.sim_seconds * 1000.0) as u64),
        format_duration_ms((s.settle_seconds * 1000.0) as u64),
        format_duration_ms((writing * 1000.0) as u64),
        format_duration_ms((s.blocked_seconds * 1000.0) as u64),
        format_duration_ms((s.offline_wait_seconds * 1000.0) as u64),
        format_duration_ms((s.throttled_seconds * 1000.0) as u64),
    ));
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
        "  flushes {} (avg {}), compactions {} minor + {} major rewriting {}, write amplification {:.2}, {} flushes delayed by too many files\n",
        thousands(s.flushes as u128),
        format_bytes(s.avg_flush_bytes),
        s.minor_compactions,
        s.major_compactions,
        format_bytes(s.compacted_bytes),
        s.write_amplification,
        s.delayed_flushes
    ));
    o.push_str(&format!(
        "  WAL: {} rolls, at most {} WAL files on a server, {} flushes forced by too many WAL files (hbase.regionserver.maxlogs)\n",
        thousands(s.wal_rolls as u128),
        s.wal_files_peak,
        thousands(s.wal_forced_flushes as u128),
    ));
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
    o.push_str(&format!(
        "  hotspots: max server write share {:.1}% in a {}-s window; some server above twice its fair share in {:.0}% of windows\n",
        h.max_server_write_share * 100.0,
        h.window_seconds,
        h.time_over_twice_fair_share * 100.0
    ));
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
    o.push_str("\n  Regions (start key:puts:(ratio to smallest))\n");
    let mut t = table(&[
        "start key",
        "end key",
        "server",
        "store size",
        "files",
        "rows",
        "puts",
        "ratio",
        "gen",
    ]);
    fit(&mut t);
    align_right(&mut t, &[3, 4, 5, 6, 7, 8]);
    for r in run.regions.iter().take(TEXT_ROWS) {
        t.add_row(vec![
            r.start.clone(),
            r.end.clone(),
            r.server.clone(),
            format_bytes(r.store_bytes),
            r.store_files.to_string(),
            thousands(r.rows as u128),
            thousands(r.write_requests as u128),
            format!("{:.2}", r.ratio_to_smallest),
            r.generation.to_string(),
        ]);
    }
    push_table(
        o,
        &t,
        run.regions.len(),
        "regions (all of them with --format json or csv)",
    );
    if !run.splits.is_empty() {
        o.push_str("\n  Split timeline\n");
        let mut t = table(&[
            "at",
            "server",
            "parent size",
            "split key",
            "parent range",
            "gen",
        ]);
        fit(&mut t);
        align_right(&mut t, &[2, 5]);
        for sp in run.splits.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((sp.at_seconds * 1000.0) as u64),
                sp.server.clone(),
                format_bytes(sp.parent_bytes),
                sp.split_key.clone(),
                format!("[{}, {})", sp.parent_start, sp.parent_end),
                sp.generation.to_string(),
            ]);
        }
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
                m.start.clone(),
                m.from.clone(),
                m.to.clone(),
                format_bytes(m.store_bytes),
            ]);
        }
        push_table(o, &t, run.moves.len(), "moves");
    }
    if !run.merges.is_empty() {
        o.push_str("\n  Merges\n");
        let mut t = table(&["at", "regions", "merged range", "server", "store size"]);
        fit(&mut t);
        align_right(&mut t, &[1, 4]);
        for m in run.merges.iter().take(TEXT_ROWS) {
            t.add_row(vec![
                format_duration_ms((m.at_seconds * 1000.0) as u64),
                m.region_starts.len().to_string(),
                format!("[{}, {})", m.start, m.end),
                m.server.clone(),
                format_bytes(m.store_bytes),
            ]);
        }
        push_table(o, &t, run.merges.len(), "merges");
    }
}

/// A table of at most [`TEXT_ROWS`] rows, and how many of `total` it leaves out.
fn push_table(o: &mut String, t: &comfy_table::Table, total: usize, what: &str) {
    o.push_str(&t.to_string());
    o.push('\n');
    if total > TEXT_ROWS {
        o.push_str(&format!("  … {} more {what}\n", total - TEXT_ROWS));
    }
}
