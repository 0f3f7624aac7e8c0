//! The report's bulk-load section: the job, the loader, and the table as the load left it.

use serde::{Deserialize, Serialize};

use crate::engine::policy::bulkload::Refusal;
use crate::engine::state::bulkload::BulkOutcome;
use crate::keynotation::to_string_binary;
use crate::units::{format_bytes, format_duration_ms, thousands};

/// A design loaded in bulk (`load = "bulk"`): what the job, the loader and the region side did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkLoadJson {
    /// Job tasks: one per region at the job's start (the total-order partitioner).
    pub tasks: usize,
    /// Tasks at once, cluster-wide (`[bulk_load] slots_per_node` × nodes).
    pub slots: usize,
    /// What one task wrote per second: its own rate or its share of its node's disks and NIC.
    pub task_rate_bytes_per_second: f64,
    /// KeyValue bytes the job wrote.
    pub job_bytes: u64,
    /// Bytes of the largest task, and its share of the job's.
    pub largest_task_bytes: u64,
    /// `largest_task_bytes` / `job_bytes`.
    pub largest_task_share: f64,
    /// From submission to the first task, s.
    pub startup_seconds: f64,
    /// Reading and partitioning the input, s.
    pub map_seconds: f64,
    /// Sorting and writing the HFiles until the last task ends, s.
    pub reduce_seconds: f64,
    /// The job in all (startup + map + reduce), s.
    pub job_seconds: f64,
    /// HFiles the job wrote, and their bytes on disk.
    pub files_written: usize,
    /// Their bytes on disk.
    pub file_bytes: u64,
    /// The loader: grouping rounds, files it split at region boundaries and the bytes rewritten.
    pub rounds: u32,
    /// Files split because they straddled a region boundary.
    pub files_split: usize,
    /// Bytes those splits rewrote.
    pub split_bytes: u64,
    /// Regions that took files (one `bulkLoadHFiles` call each).
    pub region_loads: usize,
    /// Region loads that found their region gone and returned their files for another round.
    pub region_retries: usize,
    /// Files loaded.
    pub files_loaded: usize,
    /// Real rows loaded.
    pub rows_loaded: u64,
    /// From the job's end to the last region loaded (or the refusal), s.
    pub load_seconds: f64,
    /// Why nothing was loaded, when the loader refused (left out otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// At the load's end: live regions, their store files, the most in one store.
    pub regions_at_load_end: usize,
    /// Store files of the table at the load's end.
    pub store_files_at_load_end: usize,
    /// Most store files in one store at the load's end.
    pub max_store_files_at_load_end: usize,
    /// Stores that needed a compaction when the load ended.
    pub stores_owing_compaction: usize,
    /// Compactions requested right after loading (`hbase.compaction.after.bulkload.enable`).
    pub compactions_requested: usize,
    /// Regions whose split policy said split when the load ended (they split at their next
    /// flush or compaction).
    pub regions_over_split_size: usize,
    /// Share of the loaded bytes whose first replica was written on the region's server.
    pub local_share: f64,
    /// Expected HDFS block locality of the loaded bytes on their regions' servers (a block is
    /// local when any replica is on the server).
    pub hdfs_locality: f64,
}

/// A fraction as a percentage: whole below 100 %, with two decimals below 1 % (one task of
/// thousands); `–` when not finite.
pub(crate) fn fine_pct(x: f64) -> String {
    if !x.is_finite() {
        "–".to_string()
    } else if x > 0.0 && x < 0.01 {
        format!("{:.2}%", x * 100.0)
    } else {
        format!("{:.0}%", x * 100.0)
    }
}

fn secs(ns: u64) -> f64 {
    (ns as f64 / 1e9 * 1000.0).round() / 1000.0
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The section of a run's report.
pub fn json(b: &BulkOutcome) -> BulkLoadJson {
    let loaded = b.bytes_loaded;
    BulkLoadJson {
        tasks: b.tasks,
        slots: b.slots,
        task_rate_bytes_per_second: b.task_rate.round(),
        job_bytes: b.job_bytes,
        largest_task_bytes: b.largest_task_bytes,
        largest_task_share: if b.job_bytes == 0 {
            0.0
        } else {
            round4(b.largest_task_bytes as f64 / b.job_bytes as f64)
        },
        startup_seconds: secs(b.startup_ns),
        map_seconds: secs(b.map_ns),
        reduce_seconds: secs(b.reduce_ns),
        job_seconds: secs(b.startup_ns + b.map_ns + b.reduce_ns),
        files_written: b.files_written,
        file_bytes: b.file_bytes,
        rounds: b.rounds,
        files_split: b.files_split,
        split_bytes: b.split_bytes,
        region_loads: b.region_loads,
        region_retries: b.region_retries,
        files_loaded: b.files_loaded,
        rows_loaded: b.rows_loaded,
        load_seconds: secs(
            b.load_end_ns
                .unwrap_or(b.job_end_ns)
                .saturating_sub(b.job_end_ns),
        ),
        refused: b
            .refused
            .as_ref()
            .map(|r| refusal_text(r, b.refused_at.as_ref())),
        regions_at_load_end: b.regions,
        store_files_at_load_end: b.store_files,
        max_store_files_at_load_end: b.max_store_files,
        stores_owing_compaction: b.stores_owing_compaction,
        compactions_requested: b.compactions_requested,
        regions_over_split_size: b.regions_over_split_size,
        local_share: if loaded == 0 {
            0.0
        } else {
            round4(b.local_bytes as f64 / loaded as f64)
        },
        hdfs_locality: if loaded == 0 {
            0.0
        } else {
            round4(b.replica_local_bytes / loaded as f64)
        },
    }
}

/// Why the loader refused, in HBase's terms and with what to change.
fn refusal_text(r: &Refusal, at: Option<&(Vec<u8>, Vec<u8>, String)>) -> String {
    match r {
        Refusal::TooManyFiles { files, limit, .. } => {
            let (range, family) = at.map_or((String::new(), String::new()), |(s, e, f)| {
                (
                    format!(
                        " [{}, {})",
                        if s.is_empty() {
                            "start".to_string()
                        } else {
                            to_string_binary(s)
                        },
                        if e.is_empty() {
                            "end".to_string()
                        } else {
                            to_string_binary(e)
                        }
                    ),
                    format!(" `{f}`"),
                )
            });
            format!(
                "family{family} of region{range} would get {files} HFiles, more than \
                 hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily = {limit}: \
                 BulkLoadHFilesTool loads nothing. Pre-split into more regions (one job task \
                 writes one region's files, rolled at hbase.hregion.max.filesize), raise the \
                 roll size, or raise the limit"
            )
        }
        Refusal::OutOfRetries { rounds } => format!(
            "the regions kept changing under the loader: {rounds} grouping rounds \
             (hbase.bulkload.retries.number, at least regions + 1) did not place every file"
        ),
    }
}

/// The text report's lines for a design loaded in bulk.
pub fn text(o: &mut String, b: &BulkLoadJson) {
    let d = |s: f64| format_duration_ms((s * 1000.0) as u64);
    o.push_str(&format!(
        "  bulk load: job {} (startup {}, map {}, reduce {}: {} tasks on {} slots at {}/s each; \
         the largest task {} of {}, {}), then the loader {}\n",
        d(b.job_seconds),
        d(b.startup_seconds),
        d(b.map_seconds),
        d(b.reduce_seconds),
        thousands(b.tasks as u128),
        thousands(b.slots as u128),
        format_bytes(b.task_rate_bytes_per_second as u64),
        format_bytes(b.largest_task_bytes),
        format_bytes(b.job_bytes),
        fine_pct(b.largest_task_share),
        d(b.load_seconds),
    ));
    o.push_str(&format!(
        "  job wrote {} HFiles, {}; loader: {} round(s), {} file(s) split at region boundaries \
         ({} rewritten), {} region loads, {} files loaded\n",
        thousands(b.files_written as u128),
        format_bytes(b.file_bytes),
        b.rounds,
        b.files_split,
        format_bytes(b.split_bytes),
        thousands(b.region_loads as u128),
        thousands(b.files_loaded as u128),
    ));
    if let Some(r) = &b.refused {
        o.push_str(&format!("  bulk load REFUSED: {r}\n"));
        return;
    }
    o.push_str(&format!(
        "  at the load's end: {} regions, {} store files (at most {} in a store); {} stores \
         need a compaction ({} requested at once), {} regions over their split size; locality \
         {:.0}% (first replica on the region's server), HDFS block locality {:.0}%\n",
        thousands(b.regions_at_load_end as u128),
        thousands(b.store_files_at_load_end as u128),
        b.max_store_files_at_load_end,
        thousands(b.stores_owing_compaction as u128),
        thousands(b.compactions_requested as u128),
        thousands(b.regions_over_split_size as u128),
        b.local_share * 100.0,
        b.hdfs_locality * 100.0,
    ));
}

/// The HTML page's bulk-load table: the job, the loader and the table the load left.
pub fn html(o: &mut String, b: &BulkLoadJson) {
    use std::fmt::Write as _;
    let d = |s: f64| format_duration_ms((s * 1000.0) as u64);
    let esc = crate::report::svg::esc;
    o.push_str("<h3>Bulk load</h3>\n");
    if let Some(r) = &b.refused {
        let _ = writeln!(o, "<p class=\"bad\">Refused: {}</p>", esc(r));
    }
    let rows: [(&str, String); 9] = [
        (
            "job (assumed figures, [bulk_load])",
            format!(
                "{} (startup {}, map {}, reduce {})",
                d(b.job_seconds),
                d(b.startup_seconds),
                d(b.map_seconds),
                d(b.reduce_seconds)
            ),
        ),
        (
            "tasks",
            format!(
                "{} on {} slots at {}/s each",
                thousands(b.tasks as u128),
                thousands(b.slots as u128),
                format_bytes(b.task_rate_bytes_per_second as u64)
            ),
        ),
        (
            "largest task",
            format!(
                "{} of {} ({})",
                format_bytes(b.largest_task_bytes),
                format_bytes(b.job_bytes),
                fine_pct(b.largest_task_share)
            ),
        ),
        (
            "HFiles written",
            format!(
                "{}, {}",
                thousands(b.files_written as u128),
                format_bytes(b.file_bytes)
            ),
        ),
        (
            "loader",
            format!(
                "{} in {} round(s); {} file(s) split at moved boundaries ({})",
                d(b.load_seconds),
                b.rounds,
                b.files_split,
                format_bytes(b.split_bytes)
            ),
        ),
        (
            "loaded",
            format!(
                "{} files into {} regions ({} retried)",
                thousands(b.files_loaded as u128),
                thousands(b.region_loads as u128),
                b.region_retries
            ),
        ),
        (
            "at the load's end",
            format!(
                "{} regions, {} store files (at most {} in a store)",
                thousands(b.regions_at_load_end as u128),
                thousands(b.store_files_at_load_end as u128),
                b.max_store_files_at_load_end
            ),
        ),
        (
            "owed",
            format!(
                "{} stores need a compaction ({} requested at once); {} regions over their split size",
                thousands(b.stores_owing_compaction as u128),
                thousands(b.compactions_requested as u128),
                thousands(b.regions_over_split_size as u128)
            ),
        ),
        (
            "locality",
            format!(
                "{:.0}% first replica on the region's server; HDFS block locality {:.0}%",
                b.local_share * 100.0,
                b.hdfs_locality * 100.0
            ),
        ),
    ];
    o.push_str("<table>\n");
    for (k, v) in rows {
        let _ = writeln!(o, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(&v));
    }
    o.push_str("</table>\n");
}
