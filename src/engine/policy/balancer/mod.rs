//! The master's load balancer, run every `hbase.balancer.period` in simulated time: which regions
//! move where (`hbase.master.loadbalancer.class`). Pure planning over a snapshot of the cluster;
//! the engine carries the moves out (close with flush, offline, open).
//!
//! CONTRACT (issue 4): the engine builds a [`ClusterView`] and calls [`Balancer::balance`]; it
//! executes the returned moves in order. Implementations must be deterministic from `seed`.

use crate::assignment::server_name;
use crate::config::{BalancerClass, Settings};
use crate::keygen::rng::{below, splitmix64, unit};

pub mod cost;
pub mod simple;
pub mod stochastic;

pub use simple::SimpleBalancer;
pub use stochastic::StochasticBalancer;

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
    /// Off-peak hours at the time of the run (`ClusterInfoProvider.isOffPeakHour`): the
    /// stochastic balancer's move cost uses `moveCost.offpeak`.
    pub offpeak: bool,
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
    /// Takes a cluster metrics sample between runs (the master's status chore); balancers that
    /// keep request-load history use it.
    fn record_loads(&mut self, _view: &ClusterView) {}
    /// `BaseLoadBalancer.preBalanceCluster`: before a by-table run's tables, the whole
    /// cluster's regions (SimpleLoadBalancer keeps every server's overall load from it).
    fn begin_cluster(&mut self, _view: &ClusterView) {}
    /// The by-table run's tables are done.
    fn end_cluster(&mut self) {}
}

/// The balancer `settings` select, seeded; `None` for [`BalancerClass::Off`] (balance_switch
/// false: the chore never plans).
pub fn build(settings: &Settings, seed: u64) -> Option<Box<dyn Balancer>> {
    match settings.balancer {
        BalancerClass::Simple => Some(Box::new(SimpleBalancer::new(settings, seed))),
        BalancerClass::Stochastic => Some(Box::new(StochasticBalancer::new(settings, seed))),
        BalancerClass::Off => None,
    }
}

/// `BaseLoadBalancer.balanceCluster`: with `hbase.master.loadbalance.bytable` (`by_table`), one
/// `balanceTable` per table over that table's regions only, the plans concatenated in table
/// order; otherwise the whole cluster's regions as one ensemble table
/// (`toEnsumbleTableLoad`). `table_of[i]` is the table of `view.regions[i]`, `names[t]` table
/// `t`'s name. `None` when no table's plan was made (every gate said balanced).
pub fn balance_cluster(
    bal: &mut dyn Balancer,
    view: &ClusterView,
    by_table: bool,
    table_of: &[u16],
    names: &[String],
) -> Option<BalancePlan> {
    if !by_table || names.len() <= 1 {
        return bal.balance(view);
    }
    bal.begin_cluster(view);
    let mut out: Option<BalancePlan> = None;
    for (t, name) in names.iter().enumerate() {
        let regions: Vec<RegionLoad> = view
            .regions
            .iter()
            .zip(table_of)
            .filter(|&(_, &tt)| usize::from(tt) == t)
            .map(|(r, _)| r.clone())
            .collect();
        if regions.is_empty() {
            continue;
        }
        let sub = ClusterView {
            regions,
            ..view.clone()
        };
        if let Some(p) = bal.balance(&sub) {
            let o = out.get_or_insert_with(BalancePlan::default);
            if !p.moves.is_empty() {
                if !o.reason.is_empty() {
                    o.reason.push_str("; ");
                }
                o.reason.push_str(&format!("table {name}: {}", p.reason));
            }
            o.moves.extend(p.moves);
        }
    }
    bal.end_cluster();
    out
}

/// A sequential deterministic RNG (SplitMix64 stepping) standing in for HBase's unseeded
/// `ThreadLocalRandom` / `Collections.shuffle`: same seed, same draws.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64, stream: u64) -> Rng {
        Rng(splitmix64(seed ^ splitmix64(stream)))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(1);
        splitmix64(self.0)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        below(self.next_u64(), n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        unit(self.next_u64())
    }

    /// `Collections.shuffle`'s walk: from the end, swap each slot with a random earlier one.
    pub(crate) fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The view grouped by server: what HBase's `Map<ServerName, List<RegionInfo>>` holds.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// Server ids (the view's servers, deduplicated, ascending = ServerName order).
    pub servers: Vec<usize>,
    /// Positions in `view.regions` (key order) of each server's regions.
    pub per_server: Vec<Vec<usize>>,
    /// Width for server names (`rs01`..).
    name_width: usize,
}

impl Layout {
    /// Groups `view`; regions on servers outside `view.servers` (draining or gone) are left out,
    /// as HMaster drops draining servers from the balancer's input.
    pub(crate) fn new(view: &ClusterView) -> Layout {
        let mut servers = view.servers.clone();
        servers.sort_unstable();
        servers.dedup();
        let mut per_server = vec![Vec::new(); servers.len()];
        for (pos, r) in view.regions.iter().enumerate() {
            if let Ok(s) = servers.binary_search(&r.server) {
                per_server[s].push(pos);
            }
        }
        let name_width = servers.last().map_or(1, |&m| m + 1);
        Layout {
            servers,
            per_server,
            name_width,
        }
    }

    pub(crate) fn num_regions(&self) -> usize {
        self.per_server.iter().map(Vec::len).sum()
    }

    /// Name of layout server `s` (`rs03`).
    pub(crate) fn name(&self, s: usize) -> String {
        server_name(self.servers[s], self.name_width)
    }
}

/// BaseLoadBalancer's cheap checks, in the order HBase runs them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Gate {
    /// Fewer than `MIN_SERVER_BALANCE` (2) servers: never balance.
    TooFewServers(usize),
    /// `idleRegionServerExist`: a server with 0 regions while another has more than 1.
    Idle {
        idle: usize,
        busy: usize,
        busy_load: usize,
    },
    /// `sloppyRegionServerExist`: a load outside [floor, ceiling].
    Sloppy(Slop),
    /// Neither: the cheap checks find the cluster balanced.
    Within(Slop),
}

/// The numbers of the sloppy check (`ClusterLoadState` with float arithmetic, as Java does).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Slop {
    pub avg: f32,
    pub slop: f32,
    pub floor: i64,
    pub ceiling: i64,
    /// (server, load) of the most and least loaded servers (first by load then name).
    pub max: (usize, usize),
    pub min: (usize, usize),
}

impl Slop {
    /// The check over `loads`; `None` without servers.
    pub(crate) fn of(loads: &[usize], slop: f32) -> Option<Slop> {
        let n = loads.len();
        if n == 0 {
            return None;
        }
        let total: usize = loads.iter().sum();
        let avg = total as f32 / n as f32;
        // ServerAndLoad orders by load then name: the last max and the first min.
        let mut max = (0, loads[0]);
        let mut min = (0, loads[0]);
        for (s, &l) in loads.iter().enumerate() {
            if l >= max.1 {
                max = (s, l);
            }
            if l < min.1 {
                min = (s, l);
            }
        }
        Some(Slop {
            avg,
            slop,
            floor: (avg * (1.0 - slop)).floor() as i64,
            ceiling: (avg * (1.0 + slop)).ceil() as i64,
            max,
            min,
        })
    }

    /// A load outside [floor, ceiling] (Java's check, without the slop < 0 switch-off).
    pub(crate) fn outside(&self) -> bool {
        self.max.1 as i64 > self.ceiling || (self.min.1 as i64) < self.floor
    }

    /// The rule in words with its numbers.
    pub(crate) fn describe(&self, layout: &Layout) -> String {
        let (hi, lo) = (1.0 + self.slop, 1.0 - self.slop);
        if self.max.1 as i64 > self.ceiling {
            format!(
                "{} has {} regions > ceil(avg {:.2} × {hi:.2})={} (slop {})",
                layout.name(self.max.0),
                self.max.1,
                self.avg,
                self.ceiling,
                self.slop
            )
        } else if (self.min.1 as i64) < self.floor {
            format!(
                "{} has {} regions < floor(avg {:.2} × {lo:.2})={} (slop {})",
                layout.name(self.min.0),
                self.min.1,
                self.avg,
                self.floor,
                self.slop
            )
        } else {
            format!(
                "loads {}..{} within floor(avg {:.2} × {lo:.2})={} and ceil(avg {:.2} × {hi:.2})={} (slop {})",
                self.min.1, self.max.1, self.avg, self.floor, self.avg, self.ceiling, self.slop
            )
        }
    }
}

impl Gate {
    /// BaseLoadBalancer's checks over per-server region counts. A negative slop switches the
    /// sloppy check off (`sloppyRegionServerExist`); callers that must ignore that (Simple's
    /// `overallNeedsBalance`) use [`Slop::outside`].
    pub(crate) fn check(loads: &[usize], slop: f32) -> Gate {
        let n = loads.len();
        if n < 2 {
            return Gate::TooFewServers(n);
        }
        let idle = loads.iter().position(|&l| l == 0);
        let busy = loads.iter().position(|&l| l > 1);
        if let (Some(idle), Some(busy)) = (idle, busy) {
            return Gate::Idle {
                idle,
                busy,
                busy_load: loads[busy],
            };
        }
        let Some(s) = Slop::of(loads, slop) else {
            return Gate::TooFewServers(0);
        };
        if slop >= 0.0 && s.outside() {
            Gate::Sloppy(s)
        } else {
            Gate::Within(s)
        }
    }

    pub(crate) fn describe(&self, layout: &Layout) -> String {
        match self {
            Gate::TooFewServers(n) => {
                format!("only {n} active regionserver(s); balancing needs at least 2")
            }
            Gate::Idle {
                idle,
                busy,
                busy_load,
            } => format!(
                "{} has 0 regions while {} has {busy_load} (idle server)",
                layout.name(*idle),
                layout.name(*busy)
            ),
            Gate::Sloppy(s) | Gate::Within(s) => s.describe(layout),
        }
    }
}

/// Default settings for unit tests.
#[cfg(test)]
pub(crate) fn test_settings() -> Settings {
    use crate::config::{SiteConfig, TableAttributes};
    Settings::resolve(&SiteConfig::with_defaults(), &TableAttributes::default())
        .expect("defaults resolve")
}

#[cfg(test)]
mod by_table_tests {
    //! `BaseLoadBalancer.balanceCluster` with `hbase.master.loadbalance.bytable` on and off.
    use super::*;

    /// Two servers with 4 regions each: table 0's on server 0, table 1's on server 1.
    fn skewed() -> (ClusterView, Vec<u16>, Vec<String>) {
        let regions = (0..8)
            .map(|id| RegionLoad {
                id,
                server: id / 4,
                region_id_ms: id as u64,
                read_requests: 0,
                write_requests: 0,
                memstore_bytes: 0,
                storefile_bytes: 0,
            })
            .collect();
        let view = ClusterView {
            servers: vec![0, 1],
            regions,
            now_ms: 0,
            offpeak: false,
        };
        let table_of = (0..8).map(|id| (id / 4) as u16).collect();
        (view, table_of, vec!["a".into(), "b".into()])
    }

    /// HBase `BaseLoadBalancer.balanceCluster` / `SimpleLoadBalancer`: with bytable=false the
    /// cluster is one ensemble table (4 + 4 regions: balanced, nothing moves); with bytable=true
    /// each table is balanced alone, so each moves half its regions to the other server.
    #[test]
    fn simple_balancer_balances_the_ensemble_or_each_table() {
        let (view, table_of, names) = skewed();
        let mut bal = SimpleBalancer::new(&test_settings(), 1);
        let ensemble = balance_cluster(&mut bal, &view, false, &table_of, &names);
        assert!(ensemble.is_none_or(|p| p.moves.is_empty()));
        let plan = balance_cluster(&mut bal, &view, true, &table_of, &names).expect("a plan");
        assert_eq!(plan.moves.len(), 4, "{plan:?}");
        for t in 0..2u16 {
            let moved = plan
                .moves
                .iter()
                .filter(|m| table_of[m.region] == t)
                .count();
            assert_eq!(moved, 2, "table {t} moves half its regions");
        }
        assert!(plan.reason.contains("table a:") && plan.reason.contains("table b:"));
    }

    /// HBase `StochasticLoadBalancer.balanceTable` per table (bytable=true): each table alone
    /// is all on one server, so the walk moves regions of both tables; as one ensemble the
    /// region counts are even and the needs-balance gate keeps it still.
    #[test]
    fn stochastic_balancer_balances_each_table_when_bytable() {
        let (view, table_of, names) = skewed();
        let mut bal = StochasticBalancer::new(&test_settings(), 1);
        let ensemble = balance_cluster(&mut bal, &view, false, &table_of, &names);
        assert!(ensemble.is_none_or(|p| p.moves.is_empty()));
        let plan = balance_cluster(&mut bal, &view, true, &table_of, &names).expect("a plan");
        for t in 0..2u16 {
            assert!(
                plan.moves.iter().any(|m| table_of[m.region] == t),
                "table {t} moved: {plan:?}"
            );
        }
    }
}
