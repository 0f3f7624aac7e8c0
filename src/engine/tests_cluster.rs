//! Cluster dynamics in the engine: failures, servers joining and leaving, moves, merges, reads.

use crate::diag::SourceText;
use crate::engine::{MoveReason, RunOptions, RunResult, run};
use crate::plan::plan_run;
use crate::scenario::{self, ClusterEvent, EventAction, EventTrigger, Scenario};

fn scenario(body: &str) -> Scenario {
    let text = format!("name = \"t\"\nseed = 5\n{body}");
    scenario::load_source(SourceText::from_string("t.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

fn run_with(s: &Scenario, threads: usize) -> RunResult {
    let p = plan_run(s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    run(
        s,
        p,
        RunOptions {
            scale: None,
            threads,
            builder: threads > 2,
            reference: false,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// 10 servers, 20 sampled regions of hashed keys, 20 GB.
fn hashed_cluster(servers: u64) -> String {
    format!(
        "[cluster]\nregionservers = {servers}\nheap = \"16GB\"\n\
         [table]\nmax_filesize = \"1GB\"\n[table.presplit]\nalgorithm = \"sampled\"\nregions = 20\n\
         [workload]\nrows = 20_000_000\nrow = {{ value = \"1000B\" }}\nrate = \"200MB/s\"\n\
         [[generator]]\nname = \"hashed\"\nkind = \"md5-prefix\"\nhex_chars = 8\n"
    )
}

fn at_rows(rows: u64, action: EventAction) -> ClusterEvent {
    ClusterEvent {
        trigger: EventTrigger::Rows(rows),
        action,
        line: 1,
    }
}

fn rows_held(r: &RunResult) -> u64 {
    r.regions.iter().map(|x| x.rows).sum()
}

// Mirrors ServerCrashProcedure: the dead server's regions are reassigned to the live servers
// (round-robin, BaseLoadBalancer.roundRobinAssignment) after detection and WAL replay, and the
// replayed edits are flushed on open: no row is lost.
#[test]
fn killing_a_server_loses_no_row_and_the_others_absorb_its_regions() {
    let mut s = scenario(&hashed_cluster(10));
    s.events.push(at_rows(10_000_000, EventAction::Kill(2)));
    let r = run_with(&s, 1);
    assert_eq!(rows_held(&r), 20_000_000, "no row lost");
    assert!(r.servers[2].dead);
    assert!(
        r.regions.iter().all(|x| x.server != 2),
        "rs03 hosts nothing"
    );
    let recovered: Vec<_> = r
        .dynamics
        .moves
        .iter()
        .filter(|m| m.from == 2 && matches!(m.reason, MoveReason::Crash { .. }))
        .collect();
    assert!(!recovered.is_empty());
    assert!(recovered.iter().all(|m| m.to != 2));
    // Detection (90 s) + replay happened before the regions reopened.
    let kill = r
        .dynamics
        .events
        .iter()
        .find(|e| e.detail.kind() == "kill")
        .expect("kill event");
    // Offline from the crash (at_ns) until after detection + replay (done_ns).
    assert!(recovered.iter().all(|m| m.at_ns == kill.at_ns));
    assert!(
        recovered
            .iter()
            .all(|m| m.done_ns >= kill.at_ns + 90_000_000_000)
    );
    let mut hosts: Vec<usize> = recovered.iter().map(|m| m.to).collect();
    hosts.sort_unstable();
    hosts.dedup();
    assert!(hosts.len() > 1, "spread over several servers: {hosts:?}");
}

// HMaster.decommissionRegionServers(offload): the server's regions move off and it takes no
// daughters afterwards.
#[test]
fn a_decommissioned_server_ends_empty() {
    let mut s = scenario(&hashed_cluster(10));
    s.events
        .push(at_rows(5_000_000, EventAction::Decommission(0)));
    let r = run_with(&s, 1);
    assert_eq!(rows_held(&r), 20_000_000);
    assert!(r.regions.iter().all(|x| x.server != 0));
    assert!(r.dynamics.moves.iter().any(|m| m.from == 0));
}

#[test]
fn servers_join_and_the_run_stays_deterministic() {
    let mut s = scenario(&hashed_cluster(5));
    s.events
        .push(at_rows(8_000_000, EventAction::AddServers(5)));
    s.events.push(at_rows(12_000_000, EventAction::Kill(1)));
    let a = run_with(&s, 1);
    let b = run_with(&s, 3);
    assert_eq!(a.servers.len(), 10);
    assert_eq!(rows_held(&a), 20_000_000);
    let ja = crate::report::run::build(&s, std::slice::from_ref(&a)).to_json();
    let jb = crate::report::run::build(&s, std::slice::from_ref(&b)).to_json();
    assert!(ja == jb, "same report for 1 and 3 threads");
}
