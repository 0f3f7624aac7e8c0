//! Several clients and closed loops (`scenario::Loader`), on tiny scenarios: each client's own
//! buffers and retries (`BufferedMutatorImpl`, `AsyncProcess`: one per client), which rows each
//! writes, and a closed loop's pace.

use crate::diag::SourceText;
use crate::engine::{RunOptions, RunResult, run};
use crate::plan::plan_run;
use crate::scenario::{self, Scenario};

fn scenario(body: &str) -> Scenario {
    let text = format!("name = \"t\"\nseed = 3\n{body}");
    scenario::load_source(SourceText::from_string("t.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

fn run_design(s: &Scenario, g: usize, threads: usize, reference: bool) -> RunResult {
    let p = plan_run(s, &s.generators[g]).unwrap_or_else(|e| panic!("{e}"));
    run(
        s,
        p,
        RunOptions {
            scale: Some(1),
            threads,
            builder: false,
            reference,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Node hardware that never binds.
const FAST_NODE: &str = "disk_bandwidth = \"100GB/s\"\nnetwork = \"100GB/s\"\ncores = 4096\n";

fn salted(loader: &str) -> String {
    format!(
        "[cluster]\nregionservers = 2\n{FAST_NODE}\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\n\
         [table.presplit]\nalgorithm = \"sampled\"\nregions = 4\nsamples = 4000\n\
         [workload]\nrows = 4000\nrow = {{ value = \"1000B\" }}\nrate = \"10MB/s\"\n\
         [[generator]]\nname = \"g\"\nkind = \"salted\"\nbuckets = 4\n{loader}\n"
    )
}

#[test]
fn key_group_clients_each_write_their_own_bucket_and_every_row_lands() {
    let s = scenario(&salted("clients = 4\npartition = \"key_group\""));
    let r = run_design(&s, 0, 1, false);
    let l = r.loader.as_ref().expect("a loader outcome");
    assert_eq!(l.partition, "key_group");
    assert_eq!(l.clients.len(), 4);
    let rows: u64 = l.clients.iter().map(|c| c.1.rows).sum();
    assert_eq!(rows, 4000);
    assert_eq!(r.stats.lost_rows, 0);
    for (what, c) in &l.clients {
        assert!(what.starts_with("key group '"), "{what}");
        // Buckets are a seeded hash of the id: about a quarter each.
        assert!((700..1300).contains(&c.rows), "{what}: {}", c.rows);
    }
    // Every row reached a region.
    let written: u64 = r.regions.iter().map(|x| x.write_requests).sum();
    assert_eq!(written, 4000);
}

#[test]
fn input_split_clients_write_contiguous_slices() {
    let s = scenario(&salted("clients = 3\npartition = \"input_split\""));
    let r = run_design(&s, 0, 1, false);
    let l = r.loader.as_ref().expect("a loader outcome");
    let rows: Vec<u64> = l.clients.iter().map(|c| c.1.rows).collect();
    assert_eq!(rows, vec![1333, 1333, 1334]);
    assert_eq!(l.clients[0].0, "input rows 0..1,333");
    assert_eq!(l.clients[2].0, "input rows 2,666..4,000");
}

#[test]
fn open_clients_each_offer_their_share_of_the_rate() {
    // 4,000 rows of 1,000 bytes at 10 MiB/s: 0.381 s whatever the number of clients.
    for loader in ["", "clients = 4", "clients = 4\npartition = \"key_range\""] {
        let s = scenario(&salted(loader));
        let r = run_design(&s, 0, 1, false);
        let secs = r.ingest_ns as f64 / 1e9;
        assert!((0.378..0.386).contains(&secs), "{loader:?}: {secs}");
    }
}

#[test]
fn the_same_report_for_any_thread_count_and_on_the_reference_engine() {
    for loader in [
        "clients = 4\npartition = \"key_group\"",
        "clients = 3\npartition = \"key_range\"",
        "clients = 5",
        "clients = 8\nloop = \"closed\"",
    ] {
        let s = scenario(&salted(loader));
        let a = run_design(&s, 0, 1, false);
        let b = run_design(&s, 0, 3, false);
        let c = run_design(&s, 0, 1, true);
        assert_eq!(a.loader, b.loader, "{loader}");
        assert_eq!(a.loader, c.loader, "{loader}");
        assert_eq!(a.ingest_ns, c.ingest_ns, "{loader}");
        assert_eq!(a.stats, c.stats, "{loader}");
    }
}

/// A closed loop with servers that never bind: each thread sends one row per request time, so
/// `clients` threads write `clients / request_time` rows a second.
#[test]
fn closed_loop_threads_write_one_request_per_request_time() {
    let s = scenario(&salted(
        "clients = 8\nloop = \"closed\"\n[client]\nrequest_time = \"2ms\"",
    ));
    let r = run_design(&s, 0, 1, false);
    let l = r.loader.as_ref().expect("a loader outcome");
    // 4,000 rows / 8 threads = 500 requests each, 2 ms apart: 1 s.
    let secs = r.ingest_ns as f64 / 1e9;
    assert!((0.99..1.02).contains(&secs), "{secs}");
    let lat = l.latency_us.expect("latency");
    assert_eq!(lat.requests, 4000);
    assert!((1995..2010).contains(&lat.p50), "{lat:?}");
    assert!(lat.p99 <= lat.max && lat.p50 <= lat.p99);
}

/// YCSB's `clientbuffering`: a request carries a write buffer of rows, so the request time is
/// paid once per buffer.
#[test]
fn buffered_closed_loop_pays_the_request_time_per_write_buffer() {
    let s = scenario(&salted(
        "clients = 2\nloop = \"closed\"\n[client]\nrequest_time = \"10ms\"\nbuffering = true",
    ));
    let r = run_design(&s, 0, 1, false);
    let l = r.loader.as_ref().expect("a loader outcome");
    // A 2 MiB buffer holds 2,097,152 / 1,031 = 2,034 rows of 1,031 data bytes (1 family).
    assert!(l.rows_per_request > 1000, "{}", l.rows_per_request);
    // Unbuffered the two threads would take 4,000 / 2 × 10 ms = 20 s.
    assert!(r.ingest_ns < 1_000_000_000, "{}", r.ingest_ns);
}

/// A region that goes offline (its server killed) holds back only the clients that write it
/// (`AsyncProcess` per client): with key-range clients over sequential keys, the clients whose
/// ranges live elsewhere never wait on offline regions; one shared client waits as a whole.
#[test]
fn an_offline_region_stops_only_the_clients_that_write_it() {
    let body = |loader: &str| {
        format!(
            "[cluster]\nregionservers = 4\n{FAST_NODE}\
             [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\n\
             [table.presplit]\nalgorithm = \"sampled\"\nregions = 4\nsamples = 8000\n\
             [workload]\nrows = 8000\nrow = {{ value = \"1000B\" }}\nrate = \"4MB/s\"\n\
             [hbase]\n\"hbase.client.write.buffer\" = \"64KB\"\n\
             [client]\nwriters = 4\n\
             [[event]]\nat_fraction = 0.3\nkill = \"rs02\"\n\
             [[generator]]\nname = \"g\"\nkind = \"hashed\"\n{loader}\n"
        )
    };
    let s = scenario(&body("clients = 4\npartition = \"key_range\""));
    let r = run_design(&s, 0, 1, false);
    let l = r.loader.as_ref().expect("a loader outcome");
    let offline: Vec<u64> = l.clients.iter().map(|c| c.1.stall_offline_ns).collect();
    let waited = offline.iter().filter(|&&ns| ns > 0).count();
    assert!(waited >= 1, "{offline:?}");
    assert!(
        waited < 4,
        "clients writing other ranges must not wait: {offline:?}"
    );
    assert_eq!(r.stats.lost_rows, 0);
}
