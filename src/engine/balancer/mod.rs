//! The master's load balancer, run every `hbase.balancer.period` in simulated time: which regions
//! move where (`hbase.master.loadbalancer.class`). Pure planning over a snapshot of the cluster;
//! the engine carries the moves out (close with flush, offline, open).
//!
//! CONTRACT (issue 4): the engine builds a [`ClusterView`] and calls [`Balancer::balance`]; it
//! executes the returned moves in order. Implementations must be deterministic from `seed`.

use crate::config::{BalancerClass, Settings};

/// One region as the balancer sees it (the `RegionMetrics` HBase's master has).
#[derive(Debug, Clone, PartialEq)]
pub struct RegionLoad {
    /// Engine region id (stable for the region's life).
    pub id: usize,
    /// Hosting server index.
    pub server: usize,
    /// Region id time (creation time, ms): HBase's regionId; larger = newer.
    pub region_id_ms: u64,
    /// Cumulative read requests (real units).
    pub read_requests: u64,
    /// Cumulative write requests (real units).
    pub write_requests: u64,
    /// Memstore data size, bytes.
    pub memstore_bytes: u64,
    /// Store file size on disk, bytes.
    pub storefile_bytes: u64,
}

/// The cluster at the moment the balancer runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterView {
    /// Servers that may host regions (online, not draining), ascending indices.
    pub servers: Vec<usize>,
    /// Every open region of the table, in key order (regions in transition are left out, as
    /// HBase skips a run while regions are in transition).
    pub regions: Vec<RegionLoad>,
    /// Simulated time, ms.
    pub now_ms: u64,
}

/// One planned move, with the rule that chose it.
#[derive(Debug, Clone, PartialEq)]
pub struct Move {
    /// Region id.
    pub region: usize,
    /// From server.
    pub from: usize,
    /// To server.
    pub to: usize,
}

/// What one balancer run decided.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BalancePlan {
    /// Moves in the order HBase would issue them.
    pub moves: Vec<Move>,
    /// Why (the gate's numbers and the rule that fired, or why nothing moved), one line.
    pub reason: String,
}

/// A balancer implementation (may keep state between runs, e.g. request-load history).
pub trait Balancer: Send {
    /// Plans one run. `None` when the needs-balance gate says the cluster is balanced (the
    /// reason is still reported through [`Balancer::last_reason`]).
    fn balance(&mut self, view: &ClusterView) -> Option<BalancePlan>;
    /// Why the last run did or did not move regions.
    fn last_reason(&self) -> String;
}

/// The balancer `settings` select, seeded.
pub fn build(settings: &Settings, seed: u64) -> Option<Box<dyn Balancer>> {
    let _ = seed;
    match settings.balancer {
        // TODO(issue 4, balancer helper): SimpleLoadBalancer, StochasticLoadBalancer, and an
        // `Off` class (balance_switch false) added to BalancerClass.
        BalancerClass::Simple | BalancerClass::Stochastic => None,
    }
}
