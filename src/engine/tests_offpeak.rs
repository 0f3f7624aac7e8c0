//! Off-peak hours on the simulated clock, in the engine: compaction selection and its tracker,
//! the compaction throughput controller.

use crate::diag::SourceText;
use crate::engine::{Engine, RunOptions};
use crate::plan::plan_run;
use crate::scenario::{self, Scenario};

fn scenario(body: &str) -> Scenario {
    let text = format!("name = \"t\"\nseed = 7\n{body}");
    scenario::load_source(SourceText::from_string("t.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

fn engine(s: &Scenario) -> Engine {
    let plan = plan_run(s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        scale: Some(1),
        threads: 1,
        builder: false,
        reference: false,
    };
    Engine::start(s, plan, opts)
}

/// One server, four regions, four small-compaction threads; small files that compaction
/// ratios decide (min.size 1 byte), `hours` as hbase.offpeak.start.hour/end.hour and the run
/// starting at `start`.
fn busy_server(hours: (i32, i32), start: &str) -> Scenario {
    scenario(&format!(
        "[cluster]\nregionservers = 1\nheap = \"4GB\"\nflush_bandwidth = \"10GB/s\"\n\
         [hbase]\n\"hbase.regionserver.thread.compaction.small\" = 4\n\
         \"hbase.hstore.compaction.min.size\" = 1\n\
         \"hbase.offpeak.start.hour\" = {}\n\"hbase.offpeak.end.hour\" = {}\n\
         [table]\nsplit_policy = \"DisabledRegionSplitPolicy\"\nmemstore_flushsize = \"1MB\"\n\
         [table.presplit]\nalgorithm = \"uniform\"\nregions = 4\n\
         [workload]\nrows = 200_000\nrow = {{ value = \"1000B\" }}\nrate = \"20MB/s\"\nstart_time = \"{start}\"\n\
         [[generator]]\nname = \"g\"\nkind = \"uniform\"\nlength = 8\n",
        hours.0, hours.1
    ))
}

/// Steps the whole run; returns (compactions selected off-peak, most running at once on the
/// server, compactions seen).
fn offpeak_compactions(s: &Scenario) -> (usize, usize, usize) {
    let mut e = engine(s);
    let mut seen = std::collections::BTreeSet::new();
    let mut offpeak = std::collections::BTreeSet::new();
    let mut most = 0;
    while e.step().expect("keys").is_some() {
        let running: Vec<_> = e.world.state.compactions.iter().collect();
        most = most.max(running.iter().filter(|(_, c)| c.offpeak).count());
        for (&t, c) in running {
            seen.insert(t);
            if c.offpeak {
                offpeak.insert(t);
            }
        }
    }
    (offpeak.len(), most, seen.len())
}

// Mirrors HStore.requestCompaction: mayUseOffPeak = OffPeakHours.isOffPeakHour() and the
// static offPeakCompactionTracker free, so a RegionServer runs at most one compaction selected
// with hbase.hstore.compaction.ratio.offpeak at a time (SortedCompactionPolicy marks a request
// off-peak only when it does not take every file); outside off-peak hours, none.
#[test]
fn one_offpeak_compaction_per_server_at_a_time() {
    // 00:00–23:00 off-peak, the run starting at midnight: off-peak throughout (the run lasts
    // about 10 simulated seconds).
    let (offpeak, most, seen) = offpeak_compactions(&busy_server((0, 23), "00:00"));
    assert!(seen > 4, "{seen} compactions");
    assert!(offpeak >= 1, "some selection used the off-peak ratio");
    assert_eq!(most, 1, "never two off-peak compactions at once");
    assert!(offpeak < seen, "the others ran with the peak ratio");
    // Same hours, the run starting at 23:30: peak hours, no off-peak selection.
    let (offpeak, _, seen) = offpeak_compactions(&busy_server((0, 23), "23:30"));
    assert!(seen > 4);
    assert_eq!(offpeak, 0);
    // Hours that wrap midnight (22 → 6) with the run starting at 23:30: off-peak.
    let (offpeak, most, _) = offpeak_compactions(&busy_server((22, 6), "23:30"));
    assert!(offpeak >= 1);
    assert_eq!(most, 1);
}

// Mirrors PressureAwareCompactionThroughputController.tune: during off-peak hours the chore sets
// hbase.hstore.compaction.throughput.offpeak instead of the pressure-based limit; outside them
// the lower bound (pressure 0) applies.
#[test]
fn the_throughput_tune_uses_the_offpeak_limit() {
    let limit_at = |start: &str| {
        let s = scenario(&format!(
            "[cluster]\nregionservers = 2\nheap = \"4GB\"\n\
             [hbase]\n\"hbase.offpeak.start.hour\" = 1\n\"hbase.offpeak.end.hour\" = 5\n\
             \"hbase.hstore.compaction.throughput.offpeak\" = \"200MB\"\n\
             [workload]\nrows = 1000\nstart_time = \"{start}\"\n\
             [[generator]]\nname = \"g\"\nkind = \"sequential\"\n"
        ));
        let mut e = engine(&s);
        e.tune_compaction_throughput();
        e.world
            .state
            .servers
            .iter()
            .map(|s| s.compaction_limit)
            .collect::<Vec<_>>()
    };
    let mb = (1u64 << 20) as f64;
    assert_eq!(limit_at("03:00"), vec![Some(200.0 * mb); 2]);
    assert_eq!(
        limit_at("05:00"),
        vec![Some(50.0 * mb); 2],
        "end hour is exclusive"
    );
    assert_eq!(limit_at("00:59"), vec![Some(50.0 * mb); 2]);
}
