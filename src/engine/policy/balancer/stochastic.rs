//! `StochasticLoadBalancer` (HBase 2.6) for one ensemble table without replicas: the cost
//! functions RegionCountSkew, Move, ServerLocality, RackLocality, TableSkew, ReadRequest,
//! WriteRequest, MemStoreSize and StoreFileSize, a random walk of Random/Load candidate moves and
//! swaps, each kept only when the weighted total cost drops.
//!
//! Modelling choices (HBase behaviour otherwise):
//! * Locality: the emulator has no HDFS block locations, which HBase treats as perfect locality
//!   (`bestLocality == 0` ⇒ cost 0). The two locality functions therefore cost 0 but their
//!   multipliers (25, 15) still count in the weighted average, as in HBase.
//! * `maxRunningTime` is a step budget, not wall clock: [`SIMULATED_STEPS_PER_MS`] steps per
//!   simulated millisecond, so the default 30 s allows 1.5 M steps (more than maxSteps 1 M;
//!   the cap binds only with `runMaxSteps`). A run is then a pure function of inputs and seed.
//! * Randomness comes from the seeded [`Rng`]; generator choice, server and region picks follow
//!   HBase's probabilities but not Java's `ThreadLocalRandom` stream.
//! * Steps that can only propose a certainly rejected action (a quiet home region moved or
//!   swapped where even a perfectly balanced store-file cost could not pay for the move cost)
//!   are skipped with one geometric draw instead of being drawn one by one. Those steps change
//!   nothing in HBase either, so the walk's law is the same; `skipping` tests hold it to the
//!   step-by-step loop. In a converged walk most steps are of that kind.
//! * Per-server load sums are updated by delta on each move instead of re-summing the server's
//!   regions (HBase's `computeCostForRegionServer`); equal up to float rounding, and a move
//!   costs O(1) instead of O(regions on the two servers).

use std::collections::VecDeque;

use super::cost::{DoubleArrayCost, Sample, move_cost, region_load_costs};
use super::{BalancePlan, Balancer, ClusterView, Gate, Layout, Move, Rng};
use crate::config::{Settings, StochasticParams};
use crate::engine::policy::offpeak;

/// Simulated walk speed used to turn `maxRunningTime` into a step budget.
pub const SIMULATED_STEPS_PER_MS: u64 = 50;

/// Stream id of the walk's randomness.
const WALK_STREAM: u64 = 0x5354_4F43;

/// Bytes per MB as RegionMetrics reports sizes.
const MB: u64 = 1 << 20;

/// Cost function names in HBase's order (those modelled).
pub const FUNCTIONS: [&str; 9] = [
    "RegionCountSkewCostFunction",
    "MoveCostFunction",
    "ServerLocalityCostFunction",
    "RackLocalityCostFunction",
    "TableSkewCostFunction",
    "ReadRequestCostFunction",
    "WriteRequestCostFunction",
    "MemStoreSizeCostFunction",
    "StoreFileCostFunction",
];
const COUNT: usize = 0;
const MOVE: usize = 1;
const TABLE: usize = 4;
const READ: usize = 5;

/// The balancer with its region load history (`loads`, `numRegionLoadsToRemember` samples per
/// region) carried between runs.
#[derive(Debug, Clone)]
pub struct StochasticBalancer {
    params: StochasticParams,
    slop: f32,
    seed: u64,
    runs: u64,
    /// Load history by region id; valid where `stamp` is the current `round`.
    loads: Vec<VecDeque<Sample>>,
    stamp: Vec<u64>,
    round: u64,
    last_reason: String,
    last_costs: Option<CostReport>,
}

/// Per-function costs (unweighted, HBase's `cost()`) and the weighted average of one layout.
#[derive(Debug, Clone, PartialEq)]
pub struct CostReport {
    /// `cost()` of each of [`FUNCTIONS`] (0 for a function left out with multiplier 0).
    pub costs: [f64; 9],
    /// Multipliers (0 = function not added, as `addCostFunction` skips it).
    pub multipliers: [f32; 9],
    /// Σ multiplier × cost.
    pub total: f64,
    /// Σ multipliers of the functions in use.
    pub sum_multiplier: f32,
}

impl CostReport {
    /// total / sumMultiplier, the number compared with minCostNeedBalance.
    pub fn weighted(&self) -> f64 {
        if self.sum_multiplier > 0.0 {
            self.total / f64::from(self.sum_multiplier)
        } else {
            0.0
        }
    }

    fn describe(&self) -> String {
        let parts: Vec<String> = (0..FUNCTIONS.len())
            .filter(|&i| self.multipliers[i] > 0.0 && self.costs[i] > 0.0)
            .map(|i| {
                let name = FUNCTIONS[i].trim_end_matches("CostFunction");
                format!("{name} {:.4}×{}", self.costs[i], self.multipliers[i])
            })
            .collect();
        let parts = if parts.is_empty() {
            "all 0".to_string()
        } else {
            parts.join(" + ")
        };
        format!(
            "({parts}) / {} = {:.5}",
            self.sum_multiplier,
            self.weighted()
        )
    }
}

impl StochasticBalancer {
    /// From the `hbase.master.balancer.stochastic.*` settings and `hbase.regions.slop`.
    pub fn new(settings: &Settings, seed: u64) -> StochasticBalancer {
        StochasticBalancer {
            params: settings.stochastic.clone(),
            slop: settings.slop,
            seed,
            runs: 0,
            loads: Vec::new(),
            stamp: Vec::new(),
            round: 0,
            last_reason: String::new(),
            last_costs: None,
        }
    }

    /// `updateRegionLoad`: appends one sample per region of `view` (dropping the oldest beyond
    /// numRegionLoadsToRemember) and forgets regions no longer reported. HMaster does this when
    /// ClusterStatusChore runs (`hbase.balancer.statusPeriod`, 60 s) and right before every
    /// balancer run; [`Balancer::balance`] does the latter itself.
    pub fn record_loads(&mut self, view: &ClusterView) {
        let keep = self.params.num_region_loads_to_remember as usize;
        self.round += 1;
        for r in &view.regions {
            if r.id >= self.loads.len() {
                self.loads.resize_with(r.id + 1, VecDeque::new);
                self.stamp.resize(r.id + 1, 0);
            }
            let h = &mut self.loads[r.id];
            if self.stamp[r.id] + 1 != self.round {
                // Not reported last time: its history was forgotten then.
                h.clear();
            }
            self.stamp[r.id] = self.round;
            while !h.is_empty() && h.len() >= keep {
                h.pop_front();
            }
            h.push_back(Sample {
                read: r.read_requests,
                write: r.write_requests,
                memstore_mb: r.memstore_bytes / MB,
                storefile_mb: r.storefile_bytes / MB,
            });
        }
    }

    /// The history of region `id` if it was in the last sample.
    fn history(&self, id: usize) -> Option<&VecDeque<Sample>> {
        (self.stamp.get(id) == Some(&self.round)).then(|| &self.loads[id])
    }

    /// Samples held for region `id`.
    pub fn history_len(&self, id: usize) -> usize {
        self.history(id).map_or(0, VecDeque::len)
    }

    /// The costs of the last run's starting layout (after the gate computed them).
    pub fn last_costs(&self) -> Option<&CostReport> {
        self.last_costs.as_ref()
    }

    /// Plans one run (records a load sample first, as HMaster.balance does).
    pub fn plan(&mut self, view: &ClusterView) -> Option<BalancePlan> {
        self.record_loads(view);
        self.runs += 1;
        let prefix = "StochasticLoadBalancer";
        let layout = Layout::new(view);
        let n = layout.servers.len();
        if n <= 1 {
            self.last_reason = format!("{prefix}: {}", Gate::TooFewServers(n).describe(&layout));
            return None;
        }
        let mut walk = Walk::new(view, &layout, |id| self.history(id), &self.params);
        if walk.sum_multiplier <= 0.0 {
            self.last_reason = format!(
                "{prefix}: every cost multiplier is 0; set regionCountCost to a positive value"
            );
            return None;
        }
        let init = walk.report();
        self.last_costs = Some(init.clone());
        let loads: Vec<usize> = layout.per_server.iter().map(Vec::len).collect();
        let gate = Gate::check(&loads, self.slop);
        let why = match &gate {
            Gate::TooFewServers(_) => None,
            Gate::Idle { .. } | Gate::Sloppy(_) => Some(gate.describe(&layout)),
            Gate::Within(_) => {
                let w = init.weighted();
                let min = f64::from(self.params.min_cost_need_balance);
                if w < min {
                    None
                } else {
                    Some(format!(
                        "weighted cost {} ≥ minCostNeedBalance {}",
                        init.describe(),
                        self.params.min_cost_need_balance
                    ))
                }
            }
        };
        let Some(why) = why else {
            self.last_reason = match gate {
                Gate::TooFewServers(_) => format!("{prefix}: {}", gate.describe(&layout)),
                _ => format!(
                    "{prefix}: balanced: {}; weighted cost {} < minCostNeedBalance {}",
                    gate.describe(&layout),
                    init.describe(),
                    self.params.min_cost_need_balance
                ),
            };
            return None;
        };

        let (steps, budget) = step_budget(&self.params, walk.num_regions(), n);
        let mut rng = Rng::new(self.seed, WALK_STREAM ^ self.runs);
        let init_total = walk.total;
        let (tried, accepted) = walk.run(steps, &mut rng);
        let end = walk.report();
        let moves = if init_total > walk.total {
            walk.moves(view, &layout)
        } else {
            Vec::new()
        };
        let outcome = if moves.is_empty() {
            format!("no cheaper layout in {tried} steps ({budget})")
        } else {
            format!(
                "{tried} steps ({budget}), {accepted} accepted: weighted cost {:.5} → {}; {} moves",
                init.weighted(),
                end.describe(),
                moves.len()
            )
        };
        let reason = format!("{prefix}: {why}; {outcome}");
        self.last_reason = reason.clone();
        Some(BalancePlan { moves, reason })
    }
}

impl Balancer for StochasticBalancer {
    fn balance(&mut self, view: &ClusterView) -> Option<BalancePlan> {
        self.plan(view)
    }

    fn last_reason(&self) -> String {
        self.last_reason.clone()
    }

    fn record_loads(&mut self, view: &ClusterView) {
        StochasticBalancer::record_loads(self, view);
    }
}

/// computedMaxSteps with the time limit as a step budget; returns the steps and how they were
/// chosen, in words.
fn step_budget(p: &StochasticParams, regions: usize, servers: usize) -> (u64, String) {
    let calc = regions as u64 * u64::from(p.steps_per_region) * servers as u64;
    let max = u64::from(p.max_steps);
    let (steps, rule) = if p.run_max_steps {
        (
            max.max(calc),
            format!(
                "runMaxSteps: max(maxSteps {max}, {regions} regions × {} × {servers} servers)",
                p.steps_per_region
            ),
        )
    } else {
        (
            max.min(calc),
            format!(
                "min(maxSteps {max}, {regions} regions × {} × {servers} servers)",
                p.steps_per_region
            ),
        )
    };
    let time_cap = p.max_running_time_ms.saturating_mul(SIMULATED_STEPS_PER_MS);
    if time_cap < steps {
        (
            time_cap,
            format!(
                "{rule} capped by maxRunningTime {} ms at {SIMULATED_STEPS_PER_MS} steps/ms",
                p.max_running_time_ms
            ),
        )
    } else {
        (steps, rule)
    }
}

/// A candidate action (`BalanceAction`).
#[derive(Debug, Clone, Copy)]
enum Action {
    Move { region: u32, from: u32, to: u32 },
    Swap { a: u32, sa: u32, b: u32, sb: u32 },
}

impl Action {
    /// `getAction`: a swap when a region was picked on both servers, a move when on one.
    fn of_picks(this: usize, other: usize, tr: Option<u32>, or: Option<u32>) -> Option<Action> {
        let (t, o) = (this as u32, other as u32);
        match (tr, or) {
            (Some(a), Some(b)) => Some(Action::Swap { a, sa: t, b, sb: o }),
            (Some(a), None) => Some(Action::Move {
                region: a,
                from: t,
                to: o,
            }),
            (None, Some(b)) => Some(Action::Move {
                region: b,
                from: o,
                to: t,
            }),
            (None, None) => None,
        }
    }
}

/// `BalancerClusterState` plus the cost functions' incremental state.
#[derive(Debug, Clone)]
struct Walk {
    server_of: Vec<u32>,
    initial: Vec<u32>,
    /// Regions per server and each region's slot in its list. A list holds the server's quiet
    /// home regions first (`quiet_len` of them), then the rest, so one uniform index draw also
    /// tells the class (see [`Walk::possible_steps`]).
    on: Vec<Vec<u32>>,
    slot: Vec<u32>,
    quiet_len: Vec<u32>,
    /// Regions with no read, write or memstore load (only their store files weigh).
    quiet: Vec<bool>,
    /// Every ordered pair's [`PairMass`], row-major, filled by
    /// [`possible_steps`](Walk::possible_steps) for clusters of at most [`FULL_TABLE_PAIRS`]
    /// pairs; larger clusters walk step by step ([`run_stepwise`](Walk::run_stepwise)) and keep
    /// no table, so memory and time stay linear in servers.
    pairs: Vec<PairMass>,
    /// `pairs`' running totals alone (8 bytes a pair instead of 80: the draw's search reads
    /// only these), and a guide: `guide[j]` is the first pair whose total exceeds `j / G` of
    /// the whole, so a draw starts next to its pair.
    cumulative: Vec<f64>,
    guide: Vec<u32>,
    /// (Load generator probability, Random generator probability of one ordered pair) of the
    /// current table.
    pair_probs: (f64, f64),
    /// Layout region positions (key order) of each walk region.
    pos: Vec<usize>,
    moved: usize,
    /// Per-region load costs (read, write, memstore, storefile).
    region_costs: Vec<[f64; 4]>,
    count_cost: DoubleArrayCost,
    load_cost: [DoubleArrayCost; 4],
    multipliers: [f32; 9],
    sum_multiplier: f32,
    max_move_percent: f32,
    /// Current per-function costs and weighted total.
    costs: [f64; 9],
    total: f64,
    /// (Load generator weight, Random generator weight) for the current costs.
    generator_weights: (f64, f64),
    /// Weighted MoveCost change for 2, 1 fewer … 2 more moved regions than now.
    move_delta: [f64; 5],
    /// Servers with the most and with the fewest regions (LoadCandidateGenerator's picks),
    /// recomputed only when an action is accepted.
    most: Vec<usize>,
    fewest: Vec<usize>,
    /// Membership flags of `most` and `fewest`, per server.
    is_most: Vec<bool>,
    is_fewest: Vec<bool>,
}

/// Largest cluster, in ordered server pairs, that skips steps with the proposal table (80 bytes
/// a pair: about 320 KB, i.e. up to 64 servers). The table is rebuilt after every accepted
/// action, O(servers²); above this size plain steps cost less than the rebuilds save (the
/// crossover lies between 30 and 100 servers: docs/history/PERFORMANCE-LOG.md, "Scaling").
const FULL_TABLE_PAIRS: usize = 1 << 12;

/// Fills `guide` for the running totals `c` (non-decreasing): `guide[j]` is the number of
/// totals ≤ j/G of the last one, for G the next power of two of `c.len()`.
fn fill_guide(c: &[f64], guide: &mut Vec<u32>) {
    guide.clear();
    let total = c.last().copied().unwrap_or(0.0);
    let g = c.len().next_power_of_two();
    let mut at = 0usize;
    for j in 0..g {
        let bound = total * j as f64 / g as f64;
        while at < c.len() && c[at] <= bound {
            at += 1;
        }
        guide.push(at as u32);
    }
}

/// The number of totals ≤ `u` in `c` (`partition_point(|x| x <= u)`), walked to from the
/// guide's entry for `u` (usually no step or one) instead of a binary search: the entry is only
/// a starting point, so rounding in it cannot change the answer.
fn first_above(c: &[f64], guide: &[u32], u: f64) -> usize {
    let (Some(&total), Some(g)) = (c.last(), guide.len().checked_sub(1)) else {
        return 0;
    };
    let j = ((u / total * (g + 1) as f64) as usize).min(g);
    let mut at = (guide[j] as usize).min(c.len());
    while at > 0 && c[at - 1] > u {
        at -= 1;
    }
    while at < c.len() && c[at] <= u {
        at += 1;
    }
    at
}

/// One ordered server pair's share of the walk's possibly-improving proposals.
#[derive(Debug, Clone, Copy)]
struct PairMass {
    this: u32,
    other: u32,
    /// Running total of the pair masses up to and including this pair.
    cumulative: f64,
    /// Mass of each [`Pattern`] in [`PATTERNS`] order (0 for patterns certainly rejected).
    patterns: [f64; 8],
}

/// What a proposal picked on each side: a quiet home region (Q), any other region (O), or
/// nothing (-). Swaps are QQ, QO, OQ, OO; moves Q-, O-, -Q, -O.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Pick {
    Quiet,
    Other,
    Nothing,
}

const PATTERNS: [(Pick, Pick); 8] = [
    (Pick::Quiet, Pick::Quiet),
    (Pick::Quiet, Pick::Other),
    (Pick::Other, Pick::Quiet),
    (Pick::Other, Pick::Other),
    (Pick::Quiet, Pick::Nothing),
    (Pick::Other, Pick::Nothing),
    (Pick::Nothing, Pick::Quiet),
    (Pick::Nothing, Pick::Other),
];

impl Walk {
    fn new<'a>(
        view: &ClusterView,
        layout: &Layout,
        history: impl Fn(usize) -> Option<&'a VecDeque<Sample>>,
        p: &StochasticParams,
    ) -> Walk {
        let n = layout.servers.len();
        let mut server_of = Vec::new();
        let mut on = vec![Vec::new(); n];
        let mut slot = Vec::new();
        let mut pos = Vec::new();
        let mut region_costs = Vec::new();
        let mut sums = [vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]];
        let mut quiet = Vec::new();
        for (s, list) in layout.per_server.iter().enumerate() {
            for &at in list {
                server_of.push(s as u32);
                slot.push(0);
                pos.push(at);
                let c = history(view.regions[at].id).map_or([0.0; 4], region_load_costs);
                for (f, sum) in sums.iter_mut().enumerate() {
                    sum[s] += c[f];
                }
                quiet.push(c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0);
                region_costs.push(c);
            }
        }
        // Every region starts at home: the quiet ones first on each list.
        for r in 0..server_of.len() {
            if quiet[r] {
                on[server_of[r] as usize].push(r as u32);
            }
        }
        let quiet_len: Vec<u32> = on.iter().map(|l| l.len() as u32).collect();
        for r in 0..server_of.len() {
            if !quiet[r] {
                on[server_of[r] as usize].push(r as u32);
            }
        }
        for list in &on {
            for (i, &r) in list.iter().enumerate() {
                slot[r as usize] = i as u32;
            }
        }
        let counts: Vec<f64> = on.iter().map(|l| l.len() as f64).collect();
        let multipliers = [
            p.region_count_cost,
            offpeak::move_cost_multiplier(p.move_cost, p.move_cost_offpeak, view.offpeak),
            p.locality_cost,
            p.rack_locality_cost,
            p.table_skew_cost,
            p.read_request_cost,
            p.write_request_cost,
            p.memstore_size_cost,
            p.storefile_size_cost,
        ]
        .map(|m| if m > 0.0 { m } else { 0.0 });
        let sum_multiplier = multipliers.iter().sum();
        let [r, w, m, f] = sums;
        let mut walk = Walk {
            initial: server_of.clone(),
            server_of,
            on,
            slot,
            quiet_len,
            quiet,
            pairs: Vec::new(),
            cumulative: Vec::new(),
            guide: Vec::new(),
            pair_probs: (0.0, 0.0),
            pos,
            moved: 0,
            region_costs,
            count_cost: DoubleArrayCost::new(counts),
            load_cost: [
                DoubleArrayCost::new(r),
                DoubleArrayCost::new(w),
                DoubleArrayCost::new(m),
                DoubleArrayCost::new(f),
            ],
            multipliers,
            sum_multiplier,
            max_move_percent: p.max_move_percent,
            costs: [0.0; 9],
            total: 0.0,
            generator_weights: (0.0, 0.0),
            move_delta: [0.0; 5],
            most: Vec::new(),
            fewest: Vec::new(),
            is_most: Vec::new(),
            is_fewest: Vec::new(),
        };
        walk.compute();
        walk
    }

    fn num_regions(&self) -> usize {
        self.server_of.len()
    }

    /// Recomputes every function's cost (lazily per array), the weighted total and the Load
    /// generator's extremes; the proposal table is [`possible_steps`](Walk::possible_steps)'
    /// job, needed only once the walk runs.
    fn compute(&mut self) {
        let mut c = [0.0; 9];
        c[COUNT] = self.count_cost.cost();
        c[MOVE] = move_cost(self.moved, self.num_regions(), self.max_move_percent);
        // TableSkew sees one table (every table's regions; see docs/MODEL.md, several tables):
        // its per-server counts are the region counts.
        c[TABLE] = c[COUNT];
        for (slot, arr) in c[READ..].iter_mut().zip(self.load_cost.iter_mut()) {
            *slot = arr.cost();
        }
        self.total = (0..9).map(|i| f64::from(self.multipliers[i]) * c[i]).sum();
        self.costs = c;
        let m = f64::from(self.multipliers[MOVE]);
        let (regions, pct) = (self.num_regions(), self.max_move_percent);
        for (k, d) in self.move_delta.iter_mut().enumerate() {
            let moved = (self.moved + k).checked_sub(2);
            *d = moved.map_or(0.0, |x| m * (move_cost(x, regions, pct) - c[MOVE]));
        }
        // Generator weights change only with the costs (on an accepted action).
        let random: f64 = (0..9)
            .filter(|&i| i != COUNT && self.multipliers[i] > 0.0)
            .map(|i| c[i])
            .sum();
        self.generator_weights = (c[COUNT], random);
        let counts = self.on.iter().map(Vec::len);
        let (lo, hi) = counts.fold((usize::MAX, 0), |(lo, hi), c| (lo.min(c), hi.max(c)));
        self.most = (0..self.on.len())
            .filter(|&s| self.on[s].len() == hi)
            .collect();
        self.fewest = (0..self.on.len())
            .filter(|&s| self.on[s].len() == lo)
            .collect();
        self.is_most.clear();
        self.is_most.extend(self.on.iter().map(|l| l.len() == hi));
        self.is_fewest.clear();
        self.is_fewest.extend(self.on.iter().map(|l| l.len() == lo));
    }

    /// Probability that the Load generator picks `other` once it picked `this`
    /// ([`pick_cached`](Walk::pick_cached): uniform over the fewest-region servers but `this`,
    /// or over the servers with the fewest regions among the rest). `rest` is
    /// [`rest_fewest`](Walk::rest_fewest)`(this)`, computed once per row.
    fn load_other(&self, this: usize, other: usize, rest: Option<(usize, usize)>) -> f64 {
        let f = self.fewest.len() - usize::from(self.is_fewest[this]);
        if f > 0 {
            return if self.is_fewest[other] {
                1.0 / f as f64
            } else {
                0.0
            };
        }
        match rest {
            Some((lo, ties)) if self.on[other].len() == lo => 1.0 / ties as f64,
            _ => 0.0,
        }
    }

    /// When `this` is the only fewest-region server: the lowest count among the others and
    /// how many have it (what [`load_other`](Walk::load_other) falls back on).
    fn rest_fewest(&self, this: usize) -> Option<(usize, usize)> {
        if self.fewest.len() - usize::from(self.is_fewest[this]) > 0 {
            return None;
        }
        let n = self.on.len();
        let lo = (0..n)
            .filter(|&s| s != this)
            .map(|s| self.on[s].len())
            .min()?;
        let ties = (0..n)
            .filter(|&s| s != this && self.on[s].len() == lo)
            .count();
        Some((lo, ties))
    }

    /// The most one action between servers `a` and `b` can lower the weighted store-file
    /// cost: moving `d` from `a` to `b` changes Σ(x − mean)² by 2d(x_b − x_a) + 2d², which is
    /// never below −(x_a − x_b)²/2, whatever region sizes are involved. A hair is added so
    /// rounding in [`improves`](Walk::improves) can never beat the bound.
    fn store_file_gain(&self, a: usize, b: usize) -> f64 {
        let m = f64::from(self.multipliers[READ + 3]);
        if m <= 0.0 {
            return 0.0;
        }
        let arr = &self.load_cost[3];
        let gap = arr.values()[a] - arr.values()[b];
        let best = arr.cost_at(-gap * gap / 2.0);
        m * (self.costs[READ + 3] - best) * (1.0 + 1e-9) + 1e-12
    }

    /// Lower bound of the weighted cost change of every action in a class of quiet home
    /// regions between servers `a` and `b`: `moved_idx` indexes
    /// [`move_delta`](Walk::move_delta), `count` is the region count shift (from, to) of a
    /// move. Quiet home regions change only the move cost, the counts and the store file
    /// sizes; the store file term is taken at its best ([`store_file_gain`]). Mirrors the
    /// order of [`improves`](Walk::improves) so the bound never exceeds it.
    ///
    /// [`store_file_gain`]: Walk::store_file_gain
    fn quiet_bound(
        &self,
        moved_idx: usize,
        count: Option<(usize, usize)>,
        a: usize,
        b: usize,
    ) -> f64 {
        let sf_best = self.store_file_gain(a, b);
        let md = self.move_delta[moved_idx];
        let count_mult = f64::from(self.multipliers[COUNT]) + f64::from(self.multipliers[TABLE]);
        match count {
            Some((f, t)) if count_mult > 0.0 => {
                let dv = self.count_cost.shift(f, t, 1.0);
                let exact = count_mult * (self.count_cost.cost_at(dv) - self.costs[COUNT]);
                if dv < 0.0 {
                    (md + exact) - sf_best
                } else {
                    (md - sf_best) + exact
                }
            }
            _ => md - sf_best,
        }
    }

    /// Fills the proposal table: for each ordered server pair, the probability that one
    /// step of the walk (generator, servers, regions as [`next_action`](Walk::next_action)
    /// draws them) proposes an action outside the classes [`quiet_bound`](Walk::quiet_bound)
    /// proves cannot lower the cost. Those steps are rejected whatever they pick, so
    /// [`run`](Walk::run) skips them in one geometric draw: the walk's law is unchanged.
    /// Only for clusters of at most [`FULL_TABLE_PAIRS`] pairs.
    fn possible_steps(&mut self) {
        let n = self.on.len();
        self.pairs.clear();
        self.cumulative.clear();
        self.guide.clear();
        if n < 2 {
            return;
        }
        debug_assert!(n * (n - 1) <= FULL_TABLE_PAIRS);
        let (load, random) = self.generator_weights;
        let p_load = if load + random == 0.0 {
            0.5
        } else {
            load / (load + random)
        };
        self.pair_probs = (p_load, (1.0 - p_load) / (n * (n - 1)) as f64);
        let mut pairs = std::mem::take(&mut self.pairs);
        let mut cumulative = 0.0;
        for this in 0..n {
            cumulative = self.row(this, cumulative, |p| pairs.push(p));
        }
        self.pairs = pairs;
        self.cumulative
            .extend(self.pairs.iter().map(|p| p.cumulative));
        fill_guide(&self.cumulative, &mut self.guide);
    }

    /// The pair masses of row `this` in order, the running total resumed from `cumulative`,
    /// each passed to `visit`. Returns the running total after the row.
    fn row(&self, this: usize, mut cumulative: f64, mut visit: impl FnMut(PairMass)) -> f64 {
        let n = self.on.len();
        let (p_load, p_random_pair) = self.pair_probs;
        let p_this_load = if self.is_most[this] {
            p_load / self.most.len() as f64
        } else {
            0.0
        };
        let rest = if p_this_load > 0.0 {
            self.rest_fewest(this)
        } else {
            None
        };
        let tc = self.on[this].len();
        // pick_action's chances of picking a region on `this` at all, and a quiet home one.
        let qa = if tc == 0 {
            0.0
        } else {
            f64::from(self.quiet_len[this]) / tc as f64
        };
        for other in 0..n {
            if other == this {
                continue;
            }
            let mut p_pair = p_random_pair;
            if p_this_load > 0.0 {
                p_pair += p_this_load * self.load_other(this, other, rest);
            }
            let oc = self.on[other].len();
            // pick_action's chances of picking no region on each side.
            let pa = if tc == 0 {
                0.0
            } else if tc > oc {
                1.0
            } else {
                0.5
            };
            let pb = if oc == 0 {
                0.0
            } else if tc <= oc {
                1.0
            } else {
                0.5
            };
            let qb = if oc == 0 {
                0.0
            } else {
                f64::from(self.quiet_len[other]) / oc as f64
            };
            let keep = |hopeless: bool| if hopeless { 0.0 } else { 1.0 };
            let qq_hopeless = self.quiet_bound(4, None, this, other) >= 0.0;
            let patterns = [
                pa * qa * pb * qb * keep(qq_hopeless),
                pa * qa * pb * (1.0 - qb),
                pa * (1.0 - qa) * pb * qb,
                pa * (1.0 - qa) * pb * (1.0 - qb),
                pa * qa
                    * (1.0 - pb)
                    * keep(self.quiet_bound(3, Some((this, other)), this, other) >= 0.0),
                pa * (1.0 - qa) * (1.0 - pb),
                (1.0 - pa)
                    * pb
                    * qb
                    * keep(self.quiet_bound(3, Some((other, this)), other, this) >= 0.0),
                (1.0 - pa) * pb * (1.0 - qb),
            ]
            .map(|m| m * p_pair);
            cumulative += patterns.iter().sum::<f64>();
            visit(PairMass {
                this: this as u32,
                other: other as u32,
                cumulative,
                patterns,
            });
        }
        cumulative
    }

    /// Probability that a step proposes a possibly improving action.
    fn p_possible(&self) -> f64 {
        self.pairs.last().map_or(0.0, |p| p.cumulative.min(1.0))
    }

    /// The pair whose share of the running total holds `u` (the last pair when `u` is past
    /// the total).
    fn pair_at(&self, u: f64) -> Option<PairMass> {
        let last = self.pairs.len().checked_sub(1)?;
        Some(self.pairs[first_above(&self.cumulative, &self.guide, u).min(last)])
    }

    /// One proposal drawn from the possibly improving ones (in proportion to how likely
    /// [`next_action`](Walk::next_action) is to propose each).
    fn possible_action(&self, rng: &mut Rng) -> Option<Action> {
        let total = self.pairs.last()?.cumulative;
        let u = rng.unit() * total;
        let pair = self.pair_at(u)?;
        let mass: f64 = pair.patterns.iter().sum();
        let mut v = rng.unit() * mass;
        let mut pattern = PATTERNS[3];
        for (k, &m) in pair.patterns.iter().enumerate() {
            if m > 0.0 {
                pattern = PATTERNS[k];
                if v < m {
                    break;
                }
                v -= m;
            }
        }
        let (this, other) = (pair.this as usize, pair.other as usize);
        let mut pick = |server: usize, what: Pick| -> Option<u32> {
            let list = &self.on[server];
            let q = self.quiet_len[server] as usize;
            let (lo, hi) = match what {
                Pick::Quiet => (0, q),
                Pick::Other => (q, list.len()),
                Pick::Nothing => return None,
            };
            (hi > lo).then(|| list[lo + rng.below(hi - lo)])
        };
        let tr = pick(this, pattern.0);
        let or = pick(other, pattern.1);
        Action::of_picks(this, other, tr, or)
    }

    fn report(&self) -> CostReport {
        CostReport {
            costs: self.costs,
            multipliers: self.multipliers,
            total: self.total,
            sum_multiplier: self.sum_multiplier,
        }
    }

    /// `regionMoved` for the cluster state and every cost function.
    fn relocate(&mut self, region: u32, from: u32, to: u32) {
        let (r, f, t) = (region as usize, from as usize, to as usize);
        // Cluster: take it off `from`'s list and put it on `to`'s, keeping quiet home
        // regions first on both.
        self.take(r, f);
        self.server_of[r] = to;
        self.put(r, t);
        if self.initial[r] == to {
            self.moved -= 1;
        } else if self.initial[r] == from {
            self.moved += 1;
        }
        let (nf, nt) = (self.on[f].len() as f64, self.on[t].len() as f64);
        self.count_cost.set(f, nf);
        self.count_cost.set(t, nt);
        let c = self.region_costs[r];
        for (k, arr) in self.load_cost.iter_mut().enumerate() {
            if c[k] != 0.0 {
                arr.add(f, -c[k]);
                arr.add(t, c[k]);
            }
        }
    }

    /// Removes region `r` from server `s`'s list.
    fn take(&mut self, r: usize, s: usize) {
        let list = &mut self.on[s];
        let mut i = self.slot[r] as usize;
        let q = self.quiet_len[s] as usize;
        if i < q {
            // Fill its slot with the last quiet region, then that slot with the list's last.
            list.swap(i, q - 1);
            self.slot[list[i] as usize] = i as u32;
            i = q - 1;
            self.quiet_len[s] -= 1;
        }
        list.swap_remove(i);
        if let Some(&other) = list.get(i) {
            self.slot[other as usize] = i as u32;
        }
    }

    /// Adds region `r` (already assigned to `s`) to `s`'s list, among the quiet home regions
    /// when it is one.
    fn put(&mut self, r: usize, s: usize) {
        let list = &mut self.on[s];
        list.push(r as u32);
        let mut i = list.len() - 1;
        if self.quiet[r] && self.initial[r] as usize == s {
            let q = self.quiet_len[s] as usize;
            list.swap(i, q);
            self.slot[list[i] as usize] = i as u32;
            i = q;
            self.quiet_len[s] += 1;
        }
        self.slot[r] = i as u32;
    }

    fn apply(&mut self, a: Action) {
        match a {
            Action::Move { region, from, to } => self.relocate(region, from, to),
            Action::Swap { a, sa, b, sb } => {
                self.relocate(a, sa, sb);
                self.relocate(b, sb, sa);
            }
        }
    }

    /// The walk: `steps` candidate actions, each kept only if the weighted total drops.
    /// Steps that can only propose certainly rejected actions are skipped in one geometric
    /// draw (see [`possible_steps`](Walk::possible_steps)); clusters above
    /// [`FULL_TABLE_PAIRS`] pairs walk step by step instead. Returns (steps, actions accepted).
    fn run(&mut self, steps: u64, rng: &mut Rng) -> (u64, u64) {
        let n = self.on.len();
        if n * n.saturating_sub(1) > FULL_TABLE_PAIRS {
            return (steps, self.run_stepwise(steps, rng));
        }
        let mut accepted = 0;
        let mut used = 0u64;
        self.possible_steps();
        // p and ln(1 − p) change only when an action is accepted: one logarithm per step.
        let mut p = self.p_possible();
        let mut ln_miss = (-p).ln_1p();
        loop {
            if p <= 0.0 {
                break;
            }
            // Rejected-for-sure steps before the next possibly improving one.
            let skip = if p >= 1.0 {
                0.0
            } else {
                ((1.0 - rng.unit()).ln() / ln_miss).floor()
            };
            if skip >= (steps - used) as f64 {
                break;
            }
            used += skip as u64 + 1;
            let Some(action) = self.possible_action(rng) else {
                continue;
            };
            // Price the action first; almost all are rejected, so applying and undoing each
            // one would cost twice the bookkeeping for nothing.
            if self.improves(action) {
                self.apply(action);
                self.compute();
                self.possible_steps();
                p = self.p_possible();
                ln_miss = (-p).ln_1p();
                accepted += 1;
            }
            if used >= steps {
                break;
            }
        }
        (steps, accepted)
    }

    /// Whether `action` lowers the weighted total, i.e. Σ multiplier × (new cost − cost) < 0.
    /// Terms whose array spreads out (Σ(x − mean)² grows) can only add, so they are priced last
    /// and only when the falling terms, at best reaching 0, could outweigh the move cost: most
    /// candidates are rejected without a square root.
    fn improves(&self, action: Action) -> bool {
        let (moved, f, t, dcount, dload): (usize, usize, usize, f64, [f64; 4]) = match action {
            Action::Move { region, from, to } => {
                let r = region as usize;
                let home = self.initial[r];
                let moved = if home == from {
                    self.moved + 1
                } else if home == to {
                    self.moved - 1
                } else {
                    self.moved
                };
                (moved, from as usize, to as usize, 1.0, self.region_costs[r])
            }
            Action::Swap { a, sa, b, sb } => {
                let (ra, rb) = (a as usize, b as usize);
                let mut moved = self.moved as i64;
                for (r, from, to) in [(ra, sa, sb), (rb, sb, sa)] {
                    if self.initial[r] == from {
                        moved += 1;
                    } else if self.initial[r] == to {
                        moved -= 1;
                    }
                }
                let (ca, cb) = (self.region_costs[ra], self.region_costs[rb]);
                let d = [ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2], ca[3] - cb[3]];
                (moved.max(0) as usize, sa as usize, sb as usize, 0.0, d)
            }
        };
        let mut delta = self.move_delta[moved + 2 - self.moved];
        // (array, Σ(x − mean)² change, multiplier, current cost) of every changed array; one
        // table, so TableSkew moves with RegionCountSkew on the same counts.
        let mut terms: [(Option<&DoubleArrayCost>, f64, f64, f64); 5] = [(None, 0.0, 0.0, 0.0); 5];
        let mut n = 0;
        let count_mult = f64::from(self.multipliers[COUNT]) + f64::from(self.multipliers[TABLE]);
        if dcount != 0.0 && count_mult > 0.0 {
            let dv = self.count_cost.shift(f, t, dcount);
            terms[n] = (Some(&self.count_cost), dv, count_mult, self.costs[COUNT]);
            n += 1;
        }
        for (k, arr) in self.load_cost.iter().enumerate() {
            let m = f64::from(self.multipliers[READ + k]);
            if dload[k] != 0.0 && m > 0.0 {
                terms[n] = (
                    Some(arr),
                    arr.shift(f, t, dload[k]),
                    m,
                    self.costs[READ + k],
                );
                n += 1;
            }
        }
        let terms = &terms[..n];
        // Best case: every falling term drops to 0.
        let best = delta
            - terms
                .iter()
                .filter(|x| x.1 < 0.0)
                .map(|x| x.2 * x.3)
                .sum::<f64>();
        if best >= 0.0 {
            return false;
        }
        for pass_falling in [true, false] {
            for &(arr, dv, m, c) in terms {
                if (dv < 0.0) == pass_falling
                    && let Some(arr) = arr
                {
                    delta += m * (arr.cost_at(dv) - c);
                }
            }
            if delta >= 0.0 {
                return false;
            }
        }
        true
    }

    /// `createRegionPlans`: regions whose server changed, in the cluster's region order (by
    /// initial server, then key).
    fn moves(&self, view: &ClusterView, layout: &Layout) -> Vec<Move> {
        (0..self.num_regions())
            .filter(|&r| self.initial[r] != self.server_of[r])
            .map(|r| Move {
                region: view.regions[self.pos[r]].id,
                from: layout.servers[self.initial[r] as usize],
                to: layout.servers[self.server_of[r] as usize],
            })
            .collect()
    }
}

/// The walk's proposal process drawn step by step, as HBase does it: what clusters above
/// [`FULL_TABLE_PAIRS`] pairs run, and the reference that [`Walk::possible_steps`] is tested
/// against. Every step costs O(1) (O(log servers) when the Load generator excludes a server);
/// an accepted action costs O(servers) in [`compute`](Walk::compute).
impl Walk {
    /// `getRandomGenerator`: Load with probability (its weight) / (all weights), where
    /// RegionCountSkew weighs for Load, the locality functions for the locality generator (cost 0
    /// here), and every other function for Random. All weights 0 ⇒ any generator.
    fn pick_load_generator(&self, rng: &mut Rng) -> bool {
        let (load, random) = self.generator_weights;
        let sum = load + random;
        if sum == 0.0 {
            return rng.below(2) == 0;
        }
        rng.unit() * sum < load
    }

    /// `pickRandomRegion`: none when the server is empty or with probability `no_swap`.
    fn pick_region(&self, rng: &mut Rng, server: usize, no_swap: f64) -> Option<u32> {
        let list = &self.on[server];
        if list.is_empty() {
            return None;
        }
        if no_swap > 0.0 && rng.unit() < no_swap {
            return None;
        }
        Some(list[rng.below(list.len())])
    }

    /// `pickRandomRegions` for a server pair: the region picked on each side, if any.
    fn pick_regions(&self, rng: &mut Rng, this: usize, other: usize) -> (Option<u32>, Option<u32>) {
        let (tc, oc) = (self.on[this].len(), self.on[other].len());
        let this_chance = if tc > oc { 0.0 } else { 0.5 };
        let other_chance = if tc <= oc { 0.0 } else { 0.5 };
        let tr = self.pick_region(rng, this, this_chance);
        let or = self.pick_region(rng, other, other_chance);
        (tr, or)
    }

    /// [`pick_extreme`](Walk::pick_extreme) from the cached extremes (one draw); the scan only
    /// when `except` is the sole extreme server.
    fn pick_cached(&self, rng: &mut Rng, most: bool, except: Option<usize>) -> Option<usize> {
        let (set, member) = if most {
            (&self.most, &self.is_most)
        } else {
            (&self.fewest, &self.is_fewest)
        };
        // The set is in ascending server order, so the excluded server's place is a search.
        let skip = except.filter(|&e| member[e]);
        let n = set.len() - usize::from(skip.is_some());
        if n == 0 {
            return self.pick_extreme(rng, most, except);
        }
        let k = rng.below(n);
        let at = skip.map_or(k, |e| {
            let pos = set.binary_search(&e).unwrap_or_else(|p| p);
            k + usize::from(k >= pos)
        });
        set.get(at).copied()
    }

    /// A uniformly chosen server among those with the extreme count (`most`: highest), skipping
    /// `except` (LoadCandidateGenerator's tie-break: the largest random double wins).
    fn pick_extreme(&self, rng: &mut Rng, most: bool, except: Option<usize>) -> Option<usize> {
        let mut best: Option<usize> = None;
        let mut ties = 0;
        for (s, list) in self.on.iter().enumerate() {
            if Some(s) == except {
                continue;
            }
            let c = list.len();
            let better = match best {
                None => true,
                Some(b) => {
                    let bc = self.on[b].len();
                    if most { c > bc } else { c < bc }
                }
            };
            if better {
                best = Some(s);
                ties = 1;
            } else if best.is_some_and(|b| self.on[b].len() == c) {
                // Reservoir sampling keeps the choice uniform among ties.
                ties += 1;
                if rng.below(ties) == 0 {
                    best = Some(s);
                }
            }
        }
        best
    }

    /// One step's proposal: (this, other, region picked on this, region picked on other).
    fn propose(&self, rng: &mut Rng) -> Option<(usize, usize, Option<u32>, Option<u32>)> {
        let n = self.on.len();
        if n < 2 {
            return None;
        }
        let (this, other) = if self.pick_load_generator(rng) {
            let this = self.pick_cached(rng, true, None)?;
            let other = self.pick_cached(rng, false, Some(this))?;
            (this, other)
        } else {
            let this = rng.below(n);
            let mut other = rng.below(n - 1);
            if other >= this {
                other += 1;
            }
            (this, other)
        };
        let (tr, or) = self.pick_regions(rng, this, other);
        Some((this, other, tr, or))
    }

    /// `getAction` for a proposal.
    fn next_action(&self, rng: &mut Rng) -> Option<Action> {
        let (this, other, tr, or) = self.propose(rng)?;
        Action::of_picks(this, other, tr, or)
    }

    /// The walk one step at a time (HBase's loop).
    fn run_stepwise(&mut self, steps: u64, rng: &mut Rng) -> u64 {
        let mut accepted = 0;
        for _ in 0..steps {
            if let Some(action) = self.next_action(rng)
                && self.improves(action)
            {
                self.apply(action);
                self.compute();
                accepted += 1;
            }
        }
        accepted
    }

    /// The class of a picked region on `server` (index into [`PATTERNS`]' sides).
    #[cfg(test)]
    fn class_of(&self, pick: Option<u32>, server: usize) -> Pick {
        match pick {
            None => Pick::Nothing,
            Some(r) if self.slot[r as usize] < self.quiet_len[server] => Pick::Quiet,
            Some(_) => Pick::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    //! Hand-computed checks of `StochasticLoadBalancer` (HBase 2.6) in the spirit of
    //! `TestStochasticLoadBalancer` (needsBalance, cost functions on small clusters,
    //! `testMoveCost`, `testSkewCost`) and `StochasticBalancerTestBase` (the walk balances).
    use super::*;
    use crate::engine::policy::balancer::RegionLoad;

    fn settings() -> Settings {
        crate::engine::policy::balancer::test_settings()
    }

    pub(super) fn region(id: usize, server: usize) -> RegionLoad {
        RegionLoad {
            id,
            server,
            region_id_ms: id as u64,
            read_requests: 0,
            write_requests: 0,
            memstore_bytes: 0,
            storefile_bytes: 0,
        }
    }

    pub(super) fn view(counts: &[usize]) -> ClusterView {
        let mut regions = Vec::new();
        for (s, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                regions.push(region(regions.len(), s));
            }
        }
        ClusterView {
            servers: (0..counts.len()).collect(),
            regions,
            now_ms: 0,
            offpeak: false,
        }
    }

    fn loads_after(v: &ClusterView, p: &BalancePlan) -> Vec<usize> {
        let mut at: Vec<usize> = v.regions.iter().map(|r| r.server).collect();
        for m in &p.moves {
            assert_eq!(at[m.region], m.from);
            at[m.region] = m.to;
        }
        let mut l = vec![0; v.servers.len()];
        for s in at {
            l[s] += 1;
        }
        l
    }

    #[test]
    fn default_sum_of_multipliers_is_602() {
        // 500 + 7 + 25 + 15 + 35 + 5 + 5 + 5 + 5: locality functions count although they cost 0.
        let v = view(&[2, 2]);
        let mut b = StochasticBalancer::new(&settings(), 1);
        assert!(b.balance(&v).is_none());
        let c = b.last_costs().expect("costs");
        assert_eq!(c.sum_multiplier, 602.0);
        assert_eq!(c.total, 0.0);
    }

    // Mirrors MoveCostFunction.prepare: during off-peak hours the move cost's multiplier is
    // moveCost.offpeak (3) instead of moveCost (7), in the weighted average as in the walk.
    #[test]
    fn offpeak_runs_weigh_moves_with_move_cost_offpeak() {
        let mut v = view(&[2, 2]);
        v.offpeak = true;
        let mut b = StochasticBalancer::new(&settings(), 1);
        assert!(b.balance(&v).is_none());
        let c = b.last_costs().expect("costs");
        assert_eq!(c.multipliers[MOVE], 3.0);
        assert_eq!(c.sum_multiplier, 598.0);
    }

    #[test]
    fn cost_functions_on_a_small_cluster() {
        // 3 servers with 6/4/0 regions: RegionCountSkew = TableSkew = 0.476834 (see cost.rs);
        // Move 0. Storefile: every region 10 MB in both samples ⇒ mean 10 ⇒ servers 60/40/0:
        // dev √(5600/3) = 43.205, max √(20000/3) = 81.650, but the min skew stays the
        // whole-unit one, √(2/3) = 0.8165 ⇒ (43.205 − 0.8165)/(81.650 − 0.8165) = 0.52439.
        // Reads: two samples 0 → 100 on rs01's regions only ⇒ rate 100 each ⇒ 600/0/0 ⇒ 1.0.
        let mut v = view(&[6, 4, 0]);
        for r in &mut v.regions {
            r.storefile_bytes = 10 * MB;
        }
        let p = StochasticParams {
            max_steps: 0,
            ..settings().stochastic
        };
        let mut b = StochasticBalancer::new(
            &Settings {
                stochastic: p,
                ..settings()
            },
            1,
        );
        b.record_loads(&v);
        for r in v.regions.iter_mut().filter(|r| r.server == 0) {
            r.read_requests = 100;
        }
        let plan = b.balance(&v).expect("idle server");
        assert!(plan.moves.is_empty(), "no steps ⇒ no moves");
        let c = b.last_costs().expect("costs").clone();
        let skew = 0.476_834;
        assert!((c.costs[COUNT] - skew).abs() < 1e-6, "{:?}", c.costs);
        assert!((c.costs[TABLE] - skew).abs() < 1e-6);
        assert_eq!(c.costs[MOVE], 0.0);
        assert_eq!(c.costs[READ], 1.0);
        assert_eq!(c.costs[READ + 1], 0.0);
        assert!((c.costs[READ + 3] - 0.524_39).abs() < 1e-5, "{:?}", c.costs);
        let total = 500.0 * c.costs[COUNT] + 35.0 * c.costs[TABLE] + 5.0 + 5.0 * c.costs[8];
        assert!((c.total - total).abs() < 1e-9);
        assert!(
            plan.reason.contains("0 regions while rs01 has 6"),
            "{}",
            plan.reason
        );
    }

    #[test]
    fn history_is_capped() {
        let v = view(&[1, 1]);
        let mut b = StochasticBalancer::new(&settings(), 1);
        for _ in 0..20 {
            b.record_loads(&v);
        }
        assert_eq!(b.history_len(0), 15);
        b.record_loads(&view(&[1]));
        assert_eq!(b.history_len(1), 0, "a region not reported is forgotten");
    }

    #[test]
    fn gate_uses_weighted_cost() {
        // 9/8/7: within slop (avg 8, floor 6, ceil 10), no idle server. Count cost: dev √2,
        // min 0, max √(16² + 2·8²) = √384 ⇒ 0.07217; × (500 + 35) / 602 = 0.06414 ≥ 0.025.
        let v = view(&[9, 8, 7]);
        let p = StochasticParams {
            max_steps: 0,
            ..settings().stochastic
        };
        let s = Settings {
            stochastic: p.clone(),
            ..settings()
        };
        let mut b = StochasticBalancer::new(&s, 1);
        let plan = b.balance(&v).expect("cost gate fires");
        let w = b.last_costs().expect("costs").weighted();
        let want = (2f64.sqrt() / 384f64.sqrt()) * 535.0 / 602.0;
        assert!((w - want).abs() < 1e-9, "{w} vs {want}");
        assert!(
            plan.reason.contains("≥ minCostNeedBalance"),
            "{}",
            plan.reason
        );
        // Raise the threshold: balanced.
        let s = Settings {
            stochastic: StochasticParams {
                min_cost_need_balance: 0.1,
                ..p
            },
            ..settings()
        };
        let mut b = StochasticBalancer::new(&s, 1);
        assert!(b.balance(&v).is_none());
        assert!(
            b.last_reason().contains("< minCostNeedBalance 0.1"),
            "{}",
            b.last_reason()
        );
    }

    #[test]
    fn walk_reduces_cost_and_is_deterministic() {
        let v = view(&[30, 2, 0, 4]);
        let run = |seed| {
            let mut b = StochasticBalancer::new(&settings(), seed);
            let p = b.balance(&v).expect("idle server");
            (p, b.last_reason())
        };
        let (a, reason) = run(5);
        assert_eq!(run(5).0, a, "same seed, same plan");
        let l = loads_after(&v, &a);
        assert!(l.iter().all(|&x| (8..=10).contains(&x)), "{l:?} {reason}");
        assert!(reason.contains("accepted"), "{reason}");
    }

    #[test]
    fn step_budget_rules() {
        let p = settings().stochastic;
        assert_eq!(step_budget(&p, 10, 3).0, 24_000);
        assert_eq!(step_budget(&p, 5000, 20).0, 1_000_000);
        let rp = StochasticParams {
            run_max_steps: true,
            ..p.clone()
        };
        // max(1e6, 8e7) capped by 30 000 ms × 50.
        assert_eq!(step_budget(&rp, 5000, 20).0, 1_500_000);
        assert_eq!(step_budget(&rp, 1, 2).0, 1_000_000);
    }

    #[test]
    fn degenerate_clusters_do_not_panic() {
        let mut b = StochasticBalancer::new(&settings(), 0);
        assert!(b.balance(&view(&[])).is_none());
        assert!(b.balance(&view(&[7])).is_none());
        assert!(b.last_reason().contains("only 1"));
        assert!(b.balance(&view(&[0, 0])).is_none());
        assert!(b.balance(&view(&[1, 0])).is_none());
        let mut v = view(&[3, 3]);
        v.regions[0].server = 9; // a region on a server outside the view is left out
        assert!(b.balance(&v).is_none());
    }

    #[test]
    fn load_generator_prefers_count_skew() {
        // With TableSkew off only RegionCountSkew has a cost, so its generator (Load) is picked
        // every time and moves from the most to the least loaded server.
        let v = view(&[4, 0]);
        let layout = Layout::new(&v);
        let p = StochasticParams {
            table_skew_cost: 0.0,
            ..settings().stochastic
        };
        let w = Walk::new(&v, &layout, |_| None, &p);
        let mut rng = Rng::new(1, 2);
        assert!(w.pick_load_generator(&mut rng));
        for _ in 0..20 {
            match w.next_action(&mut rng) {
                Some(Action::Move { from, to, .. }) => assert_eq!((from, to), (0, 1)),
                other => panic!("{other:?}"),
            }
        }
    }
}

#[cfg(test)]
mod skipping {
    //! The walk skips steps whose proposal falls in a class [`Walk::quiet_bound`] proves
    //! rejected. These tests hold that machinery to the step-by-step walk HBase runs
    //! (`StochasticLoadBalancer.balanceTable`'s loop): the classes are sound, the table gives
    //! each possibly improving proposal the probability the step-by-step draws give it, and
    //! both walks end at about the same cost.
    use super::*;
    use crate::engine::policy::balancer::RegionLoad;

    /// A cluster with uneven counts, quiet regions of similar size, a few written regions
    /// (nonzero write/memstore rates) and, after `moves`, a few regions away from home.
    fn state(seed: u64, moves: usize) -> Walk {
        let mut rng = Rng::new(seed, 9);
        let counts = [12, 11, 11, 11, 10, 10];
        let mut regions = Vec::new();
        for (server, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                let id = regions.len();
                regions.push(RegionLoad {
                    storefile_bytes: (1000 + rng.below(40) as u64) << 20,
                    ..super::tests::region(id, server)
                });
            }
        }
        let mut view = ClusterView {
            servers: (0..counts.len()).collect(),
            regions,
            now_ms: 0,
            offpeak: false,
        };
        let mut b =
            StochasticBalancer::new(&crate::engine::policy::balancer::test_settings(), seed);
        for k in 0..3u64 {
            for r in view.regions.iter_mut().filter(|r| r.id % 13 == 5) {
                r.write_requests += 1000 * k;
                r.memstore_bytes = (k * 40) << 20;
            }
            b.record_loads(&view);
        }
        let layout = Layout::new(&view);
        let mut walk = Walk::new(&view, &layout, |id| b.history(id), &b.params);
        let mut done = 0;
        while done < moves {
            if let Some(a) = walk.next_action(&mut rng) {
                walk.apply(a);
                walk.compute();
                done += 1;
            }
        }
        walk.possible_steps();
        walk
    }

    #[test]
    fn skipped_classes_are_always_rejected() {
        let mut checked = 0;
        for seed in 0..6 {
            let w = state(seed, 6);
            let n = w.on.len();
            for a in 0..n {
                for b in (0..n).filter(|&b| b != a) {
                    let qq = w.quiet_bound(4, None, a, b) >= 0.0;
                    let qm = w.quiet_bound(3, Some((a, b)), a, b) >= 0.0;
                    let quiet = |s: usize| w.on[s][..w.quiet_len[s] as usize].to_vec();
                    for &x in &quiet(a) {
                        let mv = Action::Move {
                            region: x,
                            from: a as u32,
                            to: b as u32,
                        };
                        if qm {
                            assert!(!w.improves(mv), "seed {seed}: {mv:?} in a skipped class");
                            checked += 1;
                        }
                        for &y in &quiet(b) {
                            let sw = Action::Swap {
                                a: x,
                                sa: a as u32,
                                b: y,
                                sb: b as u32,
                            };
                            if qq {
                                assert!(!w.improves(sw), "seed {seed}: {sw:?} in a skipped class");
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            checked > 5000,
            "only {checked} actions fell in skipped classes"
        );
    }

    #[test]
    fn table_matches_step_by_step_proposals() {
        let w = state(3, 5);
        let n = w.on.len();
        let draws = 400_000u64;
        let mut seen = vec![[0u64; 8]; n * n];
        let mut rng = Rng::new(11, 12);
        for _ in 0..draws {
            let Some((this, other, tr, or)) = w.propose(&mut rng) else {
                continue;
            };
            let pattern = (w.class_of(tr, this), w.class_of(or, other));
            let k = PATTERNS
                .iter()
                .position(|&p| p == pattern)
                .expect("a pattern");
            seen[this * n + other][k] += 1;
        }
        let mut possible = 0.0;
        for pair in &w.pairs {
            let (t, o) = (pair.this as usize, pair.other as usize);
            for (k, &mass) in pair.patterns.iter().enumerate() {
                if mass == 0.0 {
                    continue;
                }
                let want = mass * draws as f64;
                let got = seen[t * n + o][k] as f64;
                assert!(
                    (got - want).abs() <= 5.0 * want.sqrt() + 5.0,
                    "pair {t}->{o} pattern {:?}: {got} drawn, {want:.0} expected",
                    PATTERNS[k]
                );
                possible += mass;
            }
        }
        assert!(possible > 0.2 && possible < 0.8, "p = {possible}");
        assert!((possible - w.p_possible()).abs() < 1e-9);
    }

    #[test]
    fn skipping_walk_ends_where_the_stepwise_walk_does() {
        let (mut fast, mut slow) = (0.0, 0.0);
        let runs = 24;
        for seed in 0..runs {
            let start = state(seed, 4);
            let mut a = start.clone();
            a.run(30_000, &mut Rng::new(seed, 1));
            let mut b = start;
            b.run_stepwise(30_000, &mut Rng::new(seed, 2));
            fast += a.total;
            slow += b.total;
        }
        let (fast, slow) = (fast / f64::from(runs as u32), slow / f64::from(runs as u32));
        assert!(
            (fast - slow).abs() <= 0.05 * slow.max(1e-9),
            "mean end cost {fast} vs {slow}"
        );
    }
}

#[cfg(test)]
mod walk_speed {
    //! `cargo test --release walk_speed -- --ignored --nocapture`: ns per walk step on a cluster
    //! shaped like the headline's sequential run (3,000 regions, 10 servers).
    use super::*;
    use crate::engine::policy::balancer::RegionLoad;

    #[test]
    #[ignore]
    fn walk_speed() {
        let mut rng = Rng::new(7, 1);
        let mut regions = Vec::new();
        for i in 0..3000usize {
            let server = if i >= 2900 { 3 } else { i % 10 };
            let active = i >= 2990;
            regions.push(RegionLoad {
                id: i,
                server,
                region_id_ms: i as u64,
                read_requests: 0,
                write_requests: 0,
                memstore_bytes: if active { 100 << 20 } else { 0 },
                storefile_bytes: (200 << 20) + rng.below(1900 << 20) as u64,
            });
        }
        let mut view = ClusterView {
            servers: (0..10).collect(),
            regions,
            now_ms: 0,
            offpeak: false,
        };
        let mut b = StochasticBalancer::new(&crate::engine::policy::balancer::test_settings(), 3);
        for k in 0..15u64 {
            for r in view.regions.iter_mut().filter(|r| r.id >= 2990) {
                r.write_requests += 1000 * k * (r.id as u64 - 2989);
            }
            b.record_loads(&view);
        }
        let t = std::time::Instant::now();
        let runs = 5;
        let mut moves = 0;
        for _ in 0..runs {
            moves += b.plan(&view).map_or(0, |p| p.moves.len());
        }
        let ns = t.elapsed().as_nanos() as f64 / (runs as f64 * 1e6);
        eprintln!("{ns:.1} ns/step, {moves} moves; {}", b.last_reason);
    }
}

#[cfg(test)]
mod scaling {
    //! The walk's per-server structures against from-scratch computations: HBase's
    //! `BalancerClusterState` keeps per-server region lists and counts and its cost functions
    //! (`StochasticLoadBalancer`'s `CostFunction`s over `DoubleArrayCost`) update per-server
    //! arrays on `regionMoved`; the proposal table resumed row by row must draw exactly as the
    //! whole table.
    use super::*;
    use crate::engine::policy::balancer::RegionLoad;
    use crate::engine::policy::balancer::Rng;
    use crate::engine::policy::balancer::cost::array_cost;
    use proptest::prelude::{ProptestConfig, prop_assert_eq, proptest};

    /// `servers` servers with `per` regions each on average (uneven), random store file sizes,
    /// every `active`-th region written between the two load samples.
    fn cluster(
        seed: u64,
        servers: usize,
        per: usize,
        active: usize,
    ) -> (ClusterView, StochasticBalancer) {
        let mut rng = Rng::new(seed, 17);
        let mut regions = Vec::new();
        for s in 0..servers {
            for _ in 0..per / 2 + rng.below(per + 1) {
                let id = regions.len();
                regions.push(RegionLoad {
                    storefile_bytes: (rng.below(4000) as u64) << 20,
                    ..super::tests::region(id, s)
                });
            }
        }
        let mut view = ClusterView {
            servers: (0..servers).collect(),
            regions,
            now_ms: 0,
            offpeak: false,
        };
        let mut b =
            StochasticBalancer::new(&crate::engine::policy::balancer::test_settings(), seed);
        for k in 0..2u64 {
            for r in view.regions.iter_mut().filter(|r| r.id % active == 1) {
                r.write_requests += 500 * k * (r.id as u64 % 7 + 1);
                r.memstore_bytes = (k * 30) << 20;
            }
            b.record_loads(&view);
        }
        (view, b)
    }

    fn walk(view: &ClusterView, b: &StochasticBalancer) -> Walk {
        Walk::new(view, &Layout::new(view), |id| b.history(id), &b.params)
    }

    /// The costs, extremes and quiet lists the walk keeps incrementally, recomputed from the
    /// region → server assignment alone.
    fn assert_matches_scratch(w: &Walk) {
        let n = w.on.len();
        let mut counts = vec![0.0; n];
        let mut sums = vec![vec![0.0; n]; 4];
        for (r, &s) in w.server_of.iter().enumerate() {
            counts[s as usize] += 1.0;
            for (k, sum) in sums.iter_mut().enumerate() {
                sum[s as usize] += w.region_costs[r][k];
            }
            assert_eq!(
                w.on[s as usize][w.slot[r] as usize] as usize, r,
                "slot of {r}"
            );
            let quiet_home = w.quiet[r] && w.initial[r] == s;
            assert_eq!(
                w.slot[r] < w.quiet_len[s as usize],
                quiet_home,
                "class of {r}"
            );
        }
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
        assert!(close(w.costs[COUNT], array_cost(&counts)));
        for (k, sum) in sums.iter().enumerate() {
            assert!(close(w.costs[READ + k], array_cost(sum)), "load cost {k}");
        }
        let moved = (0..w.num_regions())
            .filter(|&r| w.initial[r] != w.server_of[r])
            .count();
        assert_eq!(w.moved, moved);
        assert_eq!(
            w.costs[MOVE],
            move_cost(moved, w.num_regions(), w.max_move_percent)
        );
        let hi = w.on.iter().map(Vec::len).max().unwrap_or(0);
        let lo = w.on.iter().map(Vec::len).min().unwrap_or(0);
        for s in 0..n {
            assert_eq!(w.is_most[s], w.on[s].len() == hi);
            assert_eq!(w.is_fewest[s], w.on[s].len() == lo);
            assert_eq!(w.most.contains(&s), w.is_most[s]);
            assert_eq!(w.fewest.contains(&s), w.is_fewest[s]);
        }
    }

    /// `pick_cached` as it was written first: a filter over the cached set (the reference
    /// for the binary-search exclusion).
    fn pick_cached_by_filter(
        w: &Walk,
        rng: &mut Rng,
        most: bool,
        except: Option<usize>,
    ) -> Option<usize> {
        let set = if most { &w.most } else { &w.fewest };
        let n = set.len() - usize::from(except.is_some_and(|e| set.contains(&e)));
        if n == 0 {
            return w.pick_extreme(rng, most, except);
        }
        let k = rng.below(n);
        set.iter().copied().filter(|&s| Some(s) != except).nth(k)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// The guided draw finds the pair a binary search over the running totals finds, for
        /// totals with zero-mass pairs (repeated totals) and draws on or past the totals.
        #[test]
        fn guided_pair_draw_matches_a_binary_search(
            masses in proptest::collection::vec(
                proptest::prop_oneof![proptest::prelude::Just(0.0), 0.0f64..1.0], 0..200),
            draws in proptest::collection::vec(0.0f64..1.1, 1..50),
        ) {
            let mut c = Vec::with_capacity(masses.len());
            let mut run = 0.0;
            for m in &masses {
                run += m;
                c.push(run);
            }
            let mut guide = Vec::new();
            fill_guide(&c, &mut guide);
            let total = c.last().copied().unwrap_or(0.0);
            for d in draws {
                // Draws as `possible_action` makes them, and exactly on each total.
                for u in [d * total, c.get((d * 10.0) as usize).copied().unwrap_or(d)] {
                    prop_assert_eq!(
                        first_above(&c, &guide, u),
                        c.partition_point(|&x| x <= u)
                    );
                }
            }
        }

        /// `BalancerClusterState.doAction`/`regionMoved` kept incrementally equals the state
        /// and `StochasticLoadBalancer` costs computed from scratch, after every accepted action
        /// of a walk on a random cluster; the row-by-row proposal table draws as the whole one.
        #[test]
        fn incremental_state_matches_scratch_on_random_clusters(
            seed in 0u64..1_000, servers in 2usize..14, per in 1usize..12, active in 2usize..9,
        ) {
            let (view, b) = cluster(seed, servers, per, active);
            let mut w = walk(&view, &b);
            assert_matches_scratch(&w);
            let mut rng = Rng::new(seed, 3);
            for _ in 0..12 {
                if let Some(a) = w.next_action(&mut rng) {
                    w.apply(a);
                    w.compute();
                    assert_matches_scratch(&w);
                }
            }
            w.possible_steps();
            prop_assert_eq!(w.pairs.len(), servers * (servers - 1));
            // LoadCandidateGenerator's picks: the cached extremes with one server excluded
            // draw exactly as a scan over the set would.
            for most in [true, false] {
                for except in (0..servers).map(Some).chain([None]) {
                    let (mut ra, mut rb) = (Rng::new(seed, 9), Rng::new(seed, 9));
                    for _ in 0..4 {
                        prop_assert_eq!(
                            w.pick_cached(&mut ra, most, except),
                            pick_cached_by_filter(&w, &mut rb, most, except)
                        );
                    }
                }
            }
        }
    }

    /// `StochasticLoadBalancer.balanceCluster` on 300 servers (over [`FULL_TABLE_PAIRS`]): the
    /// walk goes step by step as HBase's loop does, keeps no pair table, lowers the cost, and
    /// gives the same plan for the same seed.
    #[test]
    fn large_cluster_walks_step_by_step_without_a_pair_table() {
        let (mut view, b) = cluster(4, 300, 6, 5);
        // One idle server makes the gate fire.
        for r in view.regions.iter_mut().filter(|r| r.server == 299) {
            r.server = 0;
        }
        let mut w = walk(&view, &b);
        let before = w.total;
        let (tried, accepted) = w.run(20_000, &mut Rng::new(1, 2));
        assert_eq!(tried, 20_000);
        assert!(
            accepted > 0 && w.total < before,
            "{accepted} {before} {}",
            w.total
        );
        assert!(w.pairs.is_empty() && w.pairs.capacity() == 0);
        assert_matches_scratch(&w);
        let p = StochasticParams {
            max_steps: 5_000,
            ..b.params.clone()
        };
        let mut bal = StochasticBalancer {
            params: p,
            ..b.clone()
        };
        let plan = bal.plan(&view).expect("idle server");
        assert!(!plan.moves.is_empty(), "{}", plan.reason);
        assert!(plan.moves.iter().any(|m| m.to == 299), "{}", plan.reason);
        let mut again = StochasticBalancer {
            params: bal.params.clone(),
            ..b
        };
        let replay = again.plan(&view).expect("idle server");
        assert_eq!(format!("{:?}", plan.moves), format!("{:?}", replay.moves));
    }

    /// 2,000 servers with one idle: a whole walk (HBase's default budget, capped at
    /// `maxSteps` = 1,000,000) plans moves onto the idle server without an O(servers²) table.
    #[test]
    fn two_thousand_servers_balance_with_the_default_budget() {
        let n = 2_000;
        let mut counts = vec![4; n];
        counts[0] = 8;
        counts[n - 1] = 0;
        let view = super::tests::view(&counts);
        let mut b = StochasticBalancer::new(&crate::engine::policy::balancer::test_settings(), 1);
        b.record_loads(&view);
        let plan = b.plan(&view).expect("idle server");
        assert!(plan.moves.iter().any(|m| m.to == n - 1), "{}", plan.reason);
        assert!(plan.reason.contains("1000000 steps"), "{}", plan.reason);
    }

    /// A 10,000-server cluster (`BalancerClusterState` of HBase's documented maximum): the
    /// state and the gate are built in memory linear in servers and regions; a balanced
    /// cluster never builds the proposal table (HBase's `needsBalance` comes before the walk).
    #[test]
    fn ten_thousand_servers_build_in_linear_memory() {
        let n = 10_000;
        let view = super::tests::view(&vec![3; n]);
        let mut b = StochasticBalancer::new(&crate::engine::policy::balancer::test_settings(), 1);
        b.record_loads(&view);
        let w = walk(&view, &b);
        assert_eq!(w.on.len(), n);
        assert_eq!(w.num_regions(), 3 * n);
        assert!(w.pairs.capacity() == 0, "no table before the walk");
        assert!(w.is_most.len() == n && w.is_fewest.len() == n);
        assert!(b.plan(&view).is_none(), "{}", b.last_reason());
        assert!(b.last_reason().contains("balanced"), "{}", b.last_reason());
    }
}
