//! A design loaded in bulk, on tiny scenarios: the job's HFiles (`HFileOutputFormat2`), the
//! loader (`BulkLoadHFilesTool`) and the region side (`HRegion.bulkLoadHFiles`).

use crate::diag::SourceText;
use crate::engine::policy::bulkload::Refusal;
use crate::engine::{RunOptions, RunResult, run};
use crate::plan::plan_run;
use crate::scenario::{self, Scenario};

fn scenario(body: &str) -> Scenario {
    let text = format!("name = \"t\"\nseed = 3\n{body}");
    scenario::load_source(SourceText::from_string("t.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

fn run_with(s: &Scenario, reference: bool) -> RunResult {
    let p = plan_run(s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    run(
        s,
        p,
        RunOptions {
            scale: Some(1),
            threads: 1,
            builder: false,
            reference,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// 2,000 sequential 1,000-byte rows (KeyValues of 8 + 1 + 1 + 1,000 + 20 = 1,030 bytes) in
/// `regions` sampled regions on `servers` servers, loaded in bulk; HFiles roll at 100 KiB.
fn bulk(servers: u64, regions: u64, hbase: &str) -> String {
    let presplit = if regions > 1 {
        format!("[table.presplit]\nalgorithm = \"sampled\"\nregions = {regions}\nsamples = 2000\n")
    } else {
        String::new()
    };
    format!(
        "[cluster]\nregionservers = {servers}\n\
         [hbase]\n\"hbase.hregion.max.filesize\" = \"100KB\"\n\"hbase.table.sanity.checks\" = \"false\"\n{hbase}\n\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\n{presplit}\
         [workload]\nrows = 2000\nrow = {{ value = \"1000B\" }}\nrate = \"1GB/s\"\n\
         [[generator]]\nname = \"g\"\nkind = \"sequential\"\nload = \"bulk\"\n"
    )
}

// HFileOutputFormat2.RecordWriter.write rolls before a cell when written + its length reaches
// hbase.hregion.max.filesize (102,400): 99 rows of 1,030 bytes per file (99 × 1,030 + 1,030 =
// 103,000 ≥ 102,400). The job's total-order partitioner gives each region one task; each task
// writes ceil(its rows / 99) files.
#[test]
fn each_region_gets_its_task_files_rolled_at_the_job_roll_size() {
    let s = scenario(&bulk(
        2,
        4,
        "\"hbase.compaction.after.bulkload.enable\" = \"false\"",
    ));
    let r = run_with(&s, false);
    let b = r.bulk.as_ref().expect("a bulk outcome");
    assert_eq!(b.tasks, 4);
    assert_eq!(b.refused, None);
    let mut files = 0;
    for reg in &r.regions {
        let rows: u64 = reg.rows;
        let held = reg.stores[0].files.len() as u64;
        assert_eq!(
            held,
            rows.div_ceil(99),
            "region of {rows} rows: {held} files"
        );
        files += held as usize;
    }
    assert_eq!(b.files_written, files);
    assert_eq!(b.files_loaded, files);
    assert_eq!(b.rows_loaded, 2000);
    assert_eq!(r.regions.iter().map(|x| x.rows).sum::<u64>(), 2000);
    // The key heatmap counts every loaded row.
    let heat: u64 = r.heat_writes.iter().flatten().sum();
    assert_eq!(heat, 2000);
    // No WAL, no memstore: nothing flushed; compaction after the load is off.
    assert_eq!(r.stats.flushes, 0);
    assert_eq!(r.stats.minor_compactions + r.stats.major_compactions, 0);
    assert_eq!(b.stores_owing_compaction, 4, "6 files a store ≥ 3");
}

// HRegion.bulkLoadHFiles: with hbase.compaction.after.bulkload.enable (true in
// hbase-default.xml) a store that needsCompaction (files ≥ hbase.hstore.compaction.min, 3)
// gets a compaction request at once.
#[test]
fn compaction_after_bulk_load_is_requested_for_stores_that_need_one() {
    let r = run_with(&scenario(&bulk(2, 4, "")), false);
    let b = r.bulk.as_ref().expect("a bulk outcome");
    assert_eq!(b.compactions_requested, 4);
    assert!(r.stats.minor_compactions >= 4, "{:?}", r.stats);
    // The compactions ran after the load: the run settles later than the ingest.
    assert!(r.settled_ns > r.ingest_ns);
}

// BulkLoadHFilesTool.checkHFilesCountPerRegionPerFamily: more files for one family of one
// region than hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily refuses the whole load
// before anything is loaded. One region: one task writes ceil(2,000 / 99) = 21 files.
#[test]
fn one_family_of_one_region_over_the_file_limit_refuses_the_whole_load() {
    let s = scenario(&bulk(
        2,
        1,
        "\"hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily\" = \"20\"",
    ));
    let r = run_with(&s, false);
    let b = r.bulk.as_ref().expect("a bulk outcome");
    assert_eq!(
        b.refused,
        Some(Refusal::TooManyFiles {
            region: 0,
            family: 0,
            files: 21,
            limit: 20
        })
    );
    assert_eq!(b.files_loaded, 0);
    assert_eq!(r.regions[0].stores[0].files.len(), 0);
    // At 21 the same load goes in.
    let s = scenario(&bulk(
        2,
        1,
        "\"hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily\" = \"21\"",
    ));
    let r = run_with(&s, false);
    assert_eq!(r.bulk.as_ref().map(|b| b.files_loaded), Some(21));
}

// HFileOutputFormat2 with hbase.bulkload.locality.sensitive.enabled (default) writes a task's
// files with the region's server as favored node: every loaded byte is local. Without it a
// task's first replica lands where the scheduler ran the task.
#[test]
fn favored_nodes_make_the_loaded_files_local() {
    let r = run_with(&scenario(&bulk(4, 4, "")), false);
    let b = r.bulk.as_ref().expect("a bulk outcome");
    assert_eq!(b.local_bytes, b.bytes_loaded);
    let s = scenario(&bulk(
        4,
        8,
        "\"hbase.bulkload.locality.sensitive.enabled\" = \"false\"",
    ));
    let r = run_with(&s, false);
    let b = r.bulk.as_ref().expect("a bulk outcome");
    assert!(b.local_bytes < b.bytes_loaded, "{b:?}");
    // A file written elsewhere still has a replica on the region's server with chance
    // (replicas − 1) / (nodes − 1) = 2/3.
    assert!(b.replica_local_bytes > b.local_bytes as f64);
}

// Sequential keys, a disaster through Puts, land evenly through a bulk load into a pre-split
// table: each server takes its regions' share.
#[test]
fn sequential_keys_via_bulk_load_spread_over_the_presplit_servers() {
    let r = run_with(&scenario(&bulk(4, 8, "")), false);
    let total: u64 = r.servers.iter().map(|s| s.write_requests).sum();
    assert_eq!(total, 2000);
    for s in &r.servers {
        assert!(
            (s.write_requests as f64 / total as f64 - 0.25).abs() < 0.02,
            "{:?}",
            r.servers
        );
    }
}

// The reference engine (plain sorts) gives the same outcome as the fast one.
#[test]
fn fast_and_reference_engines_agree_on_a_bulk_load() {
    let s = scenario(&bulk(3, 5, ""));
    let a = run_with(&s, false);
    let b = run_with(&s, true);
    assert_eq!(a.bulk, b.bulk);
    assert_eq!(a.regions.len(), b.regions.len());
    assert_eq!(a.stats, b.stats);
    assert_eq!(a.settled_ns, b.settled_ns);
}

// BulkLoadHFilesTool.groupOrSplit: a file whose rows span regions that split after the job
// partitioned its input is split at the boundary halfway between them and both halves load.
// The normalizer splits the largest imported region during the job (it runs every minute and
// splits a region over twice the mean size).
#[test]
fn files_straddling_a_boundary_that_moved_during_the_job_are_split() {
    let import = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/import/list_regions.txt"
    );
    let s = scenario(&format!(
        "[cluster]\nregionservers = 4\n\
         [hbase]\n\"hbase.normalizer.period\" = \"60000\"\n\
         \"hbase.normalizer.merge.enabled\" = \"false\"\n\
         [table]\nname = \"events\"\nfamilies = [{{ name = \"f\" }}]\nnormalization_enabled = true\n\
         [initial]\nfile = \"{import}\"\nservers = \"as-imported\"\n\
         [workload]\nrows = 20000\nrow = {{ value = \"1000B\" }}\n\
         [[generator]]\nname = \"g\"\nkind = \"md5-prefix\"\nload = \"bulk\"\n"
    ));
    let r = run_with(&s, false);
    let b = r.bulk.as_ref().expect("a bulk outcome");
    // The normalizer split a region while the job ran: more regions at the load than tasks.
    assert!(b.regions > b.tasks, "{b:?}");
    assert!(b.files_split >= 1, "{b:?}");
    assert!(b.split_bytes > 0);
    assert_eq!(b.refused, None);
    assert_eq!(b.rows_loaded, 20000);
}
