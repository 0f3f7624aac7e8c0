//! Cluster dynamics on the simulated clock: region moves (close with flush, offline, open), the
//! balancer chore and its throttled execution (`HMaster.balance`), the normalizer chore with its
//! splits and merges, and the scenario's `[[event]]`s — servers joining, draining, dying (with
//! `ServerCrashProcedure`'s reassignment after detection and WAL replay), settings changes and
//! workload phases. The planning itself lives in `policy/balancer/` and `policy/normalizer.rs`.

use std::collections::VecDeque;

use crate::engine::apply::close::PendingClose;
use crate::engine::decision::{Decision, FlushWhy};
use crate::engine::derived;
use crate::engine::policy;
use crate::engine::policy::balancer::{self, Balancer, ClusterView, RegionLoad};
use crate::engine::policy::compaction::CompactionConfig;
use crate::engine::policy::normalizer::{self, NormMerge, NormPlan, NormRegion, NormSplit};
use crate::engine::state::region::HeldFile;
use crate::engine::state::region::{RegionState, Store};
use crate::engine::state::server::Server;
use crate::engine::state::storefile::{FileKind, StoreFile};
use crate::engine::{
    DynamicsResult, Engine, Event, EventDetail, Happening, MergeRecord, MoveReason, MoveRecord,
    NS_PER_MS, OpenedAs, SplitPolicyInstance, SplitReason, split_point, transfer_ns,
};
use crate::keygen::rng::splitmix64;
use crate::scenario::{ClusterEvent, EventAction, EventTrigger, Scenario};

/// A balancer run being carried out, move by move (`HMaster.executeRegionPlansWithThrottling`).
struct BalanceRun {
    id: u64,
    moves: VecDeque<balancer::Move>,
    issued: usize,
    start_ns: u64,
    interval_ns: u64,
    cutoff_ns: u64,
    /// Region of the balancer move in flight (its record is written when it closes, after any
    /// pre-close flush).
    in_flight: Option<usize>,
    /// The plan's reason, given to each of its moves.
    reason: String,
}

/// State of the cluster dynamics during a run.
pub(crate) struct Dynamics {
    /// Scenario events in file order; each fires once its trigger is reached and every event
    /// before it has fired.
    events: Vec<ClusterEvent>,
    /// The next event to fire.
    next_event: usize,
    balancer: Option<Box<dyn Balancer>>,
    balancer_name: String,
    balance_scheduled: bool,
    normalizer_scheduled: bool,
    run: Option<BalanceRun>,
    run_seq: u64,
    detection_ns: u64,
    wal_bw: u64,
    /// Regions of each dead server waiting for reassignment, with the time it died.
    recovering: Vec<(usize, u64, Vec<usize>)>,
    /// Scenario line of each draining server's decommission event.
    drain_lines: std::collections::BTreeMap<usize, usize>,
    pub(crate) out: DynamicsResult,
}

impl Dynamics {
    pub(crate) fn new(scenario: &Scenario) -> Dynamics {
        let settings = &scenario.settings;
        Dynamics {
            events: scenario.events.clone(),
            next_event: 0,
            balancer: balancer::build(settings, scenario.seed),
            balancer_name: balancer_name(settings),
            balance_scheduled: false,
            normalizer_scheduled: false,
            run: None,
            run_seq: 0,
            detection_ns: scenario
                .cluster
                .failure_detection_ms
                .saturating_mul(NS_PER_MS),
            wal_bw: scenario.cluster.wal_replay_bandwidth.max(1),
            recovering: Vec::new(),
            drain_lines: std::collections::BTreeMap::new(),
            out: DynamicsResult::default(),
        }
    }

    pub(crate) fn finish(mut self) -> DynamicsResult {
        self.out.balancer = self.balancer_name;
        self.out
    }
}

fn balancer_name(settings: &crate::config::Settings) -> String {
    let name = settings.balancer.simple_name();
    name.to_string()
}

impl Engine {
    /// Schedules the chores and time-triggered events, and records the initial regions.
    pub(crate) fn start_dynamics(&mut self) {
        for id in 0..self.world.state.regions.len() {
            let server = self.world.state.regions[id].server;
            self.note(
                id,
                Happening::Opened {
                    server: self.server_at(server),
                    as_: OpenedAs::PreSplit {
                        index: id + 1,
                        of: self.world.state.regions.len(),
                    },
                },
            );
        }
        self.schedule_chores();
        self.arm_next_event();
    }

    /// Arms the next scenario event: a time trigger is scheduled, a row trigger is watched by
    /// the write path; one already reached fires at once (and arms the next).
    fn arm_next_event(&mut self) {
        self.cache.next_row_trigger = u64::MAX;
        while let Some(ev) = self.world.dyn_.events.get(self.world.dyn_.next_event) {
            let i = self.world.dyn_.next_event;
            match ev.trigger {
                EventTrigger::Time(at) if at > self.world.now => {
                    self.schedule(at - self.world.now, Event::Cluster(i));
                    return;
                }
                EventTrigger::Rows(r) if r > self.world.rows_written => {
                    self.cache.next_row_trigger = r;
                    return;
                }
                _ => {
                    self.world.dyn_.next_event += 1;
                    self.fire_event(i);
                }
            }
        }
    }

    /// A time-triggered event comes due.
    pub(crate) fn time_event(&mut self, i: usize) {
        if i == self.world.dyn_.next_event {
            self.world.dyn_.next_event += 1;
            self.fire_event(i);
            self.arm_next_event();
        }
    }

    /// Schedules the balancer and normalizer chores if they are on and not yet scheduled.
    fn schedule_chores(&mut self) {
        if self.world.dyn_.balancer.is_some() && !self.world.dyn_.balance_scheduled {
            self.world.dyn_.balance_scheduled = true;
            let period = self.cfg.settings.balancer_period_ms.max(1) * NS_PER_MS;
            self.schedule(period, Event::Balance);
        }
        if self.cfg.settings.normalization_enabled && !self.world.dyn_.normalizer_scheduled {
            self.world.dyn_.normalizer_scheduled = true;
            let period = self.cfg.settings.normalizer_period_ms.max(1) * NS_PER_MS;
            self.schedule(period, Event::Normalize);
        }
    }

    /// The write path reached the armed row trigger.
    pub(crate) fn fire_row_events(&mut self) {
        self.arm_next_event();
    }

    /// Servers that may take regions, ascending.
    fn live_servers(&self) -> Vec<usize> {
        (0..self.world.state.servers.len())
            .filter(|&i| self.world.state.servers[i].accepts_regions())
            .collect()
    }

    /// Some live server, chosen by a seeded draw salted with `salt`.
    pub(crate) fn any_live_server(&self, salt: u64) -> Option<usize> {
        let live = self.live_servers();
        if live.is_empty() {
            return None;
        }
        let i = splitmix64(self.cfg.seed ^ 0x00A5_516E ^ salt.wrapping_mul(0x9E37_79B9)) as usize;
        Some(live[i % live.len()])
    }

    /// `BaseLoadBalancer.roundRobinAssignment` over the live servers with a seeded start.
    fn round_robin_live(&self, count: usize, salt: u64) -> Vec<usize> {
        let live = self.live_servers();
        if live.is_empty() {
            return Vec::new();
        }
        let start = crate::assignment::round_robin_start(self.cfg.seed ^ salt, live.len());
        (0..count).map(|i| live[(i + start) % live.len()]).collect()
    }

    /// Regions in transition (splitting, merging, moving or waiting for recovery).
    fn regions_in_transition(&self) -> usize {
        self.world
            .state
            .live_ids()
            .filter(|&id| self.world.state.regions[id].state != RegionState::Open)
            .count()
    }

    // ---------------------------------------------------------------- moves

    /// Closes `region` (`close_for`: a pre-close flush first if its memstore is large) to reopen
    /// it on `to`. False if the region cannot move now (not open, flushing, or already there).
    pub(super) fn start_move(&mut self, region: usize, to: usize, reason: MoveReason) -> bool {
        let r = &self.world.state.regions[region];
        if r.state != RegionState::Open || r.flush.running() || r.server == to {
            return false;
        }
        self.close_for(region, PendingClose::Move { to, reason });
        true
    }

    /// `region` closes (flushing what its memstore holds, offline) and reopens on `to` after
    /// the transition; the move's record counts from the close flag, after any pre-close flush.
    pub(super) fn move_closed(&mut self, region: usize, to: usize, reason: MoveReason) {
        let from = self.world.state.regions[region].server;
        self.abort_compactions(region);
        let data = self.close_flush(region);
        let r = &mut self.world.state.regions[region];
        r.state = RegionState::Moving;
        r.drop_flush_entry();
        let store_bytes = r.store_bytes();
        let (start, end) = (r.start.clone(), r.end.clone());
        self.world.state.servers[from].online_regions = self.world.state.servers[from]
            .online_regions
            .saturating_sub(1);
        let record = self.world.dyn_.out.moves.len();
        let transition = self.vary_transition(region, record as u64 + 1);
        let close = transfer_ns(data, self.flush_rate(from));
        let duration = close + self.procedure_wait(close) + transition;
        self.world.rec.stats.offline_ns += duration;
        self.world.dyn_.out.moves.push(MoveRecord {
            at_ns: self.world.now,
            done_ns: self.world.now + duration,
            start,
            end,
            from,
            to,
            store_bytes,
            reason: reason.clone(),
            region,
        });
        self.note(
            region,
            Happening::ClosedToMove {
                from: self.server_at(from),
                flushed: data,
                to: self.server_at(to),
                reason,
            },
        );
        self.schedule(duration, Event::MoveDone { region, to, record });
    }

    /// A moved or recovered region opens (on another live server if `to` died meanwhile).
    pub(crate) fn move_done(&mut self, region: usize, to: usize, record: usize) {
        let to = if self.world.state.servers[to].dead {
            self.any_live_server(region as u64).unwrap_or(to)
        } else {
            to
        };
        let r = &mut self.world.state.regions[region];
        r.server = to;
        r.state = RegionState::Open;
        self.world.state.placement_changes += 1;
        self.world.state.servers[to].online_regions += 1;
        if let Some(m) = self.world.dyn_.out.moves.get_mut(record) {
            m.to = to;
            m.done_ns = self.world.now;
        }
        // A region reopens with a fresh split policy (`RegionSplitPolicy.create` on open).
        self.world.state.regions[region].policy = self.new_policy(region);
        self.note(
            region,
            Happening::Opened {
                server: self.server_at(to),
                as_: OpenedAs::Reopened,
            },
        );
        self.compact_opened(region);
        if self.world.state.regions[region].active_heap() > self.cfg.settings.flush_size {
            self.apply(Decision::Flush {
                region,
                why: FlushWhy::Size,
            });
        }
        if let Some(run) = &self.world.dyn_.run
            && run.in_flight == Some(region)
        {
            let id = run.id;
            if let Some(run) = self.world.dyn_.run.as_mut() {
                run.in_flight = None;
            }
            self.balance_next(id);
        }
    }

    /// A split policy instance for a region opening now.
    pub(crate) fn new_policy(&self, id: usize) -> SplitPolicyInstance {
        let draw = derived::jitter_draw(self.cfg.seed, id, Some(self.world.now));
        SplitPolicyInstance::new(&self.cfg.settings, self.world.now / NS_PER_MS, draw)
    }

    // ---------------------------------------------------------------- balancer

    /// The open regions on live servers, as the master's cluster metrics report them.
    fn cluster_view(&self) -> ClusterView {
        let regions: Vec<RegionLoad> = self
            .world
            .state
            .live_ids()
            .map(|id| &self.world.state.regions[id])
            .filter(|r| {
                r.state == RegionState::Open && self.world.state.servers[r.server].accepts_regions()
            })
            .map(|r| RegionLoad {
                id: r.id,
                server: r.server,
                region_id_ms: r.opened_ns / NS_PER_MS,
                read_requests: r.read_requests,
                write_requests: r.write_requests,
                memstore_bytes: r.memstore_data(),
                storefile_bytes: r.counted_store_bytes(),
            })
            .collect();
        ClusterView {
            servers: self.live_servers(),
            regions,
            now_ms: self.world.now / NS_PER_MS,
            offpeak: self.offpeak_hour(),
        }
    }

    /// Every timeline sample (`sample_ns`: 1 s to 1 min depending on the load, not HBase's fixed
    /// 60 s `hbase.balancer.statusPeriod`): the balancer's load history gets a sample.
    pub(crate) fn record_loads(&mut self) {
        if self.world.dyn_.balancer.is_none() {
            return;
        }
        let view = self.cluster_view();
        if let Some(b) = self.world.dyn_.balancer.as_mut() {
            b.record_loads(&view);
        }
    }

    /// `HMaster.balance()` every `hbase.balancer.period`: skipped while regions are in
    /// transition, dead servers are being processed, or the previous run is still moving.
    pub(crate) fn balance_chore(&mut self) {
        let period = self.cfg.settings.balancer_period_ms.max(1) * NS_PER_MS;
        if self.keep_periodic() {
            self.schedule(period, Event::Balance);
        } else {
            self.world.dyn_.balance_scheduled = false;
        }
        if self.world.dyn_.balancer.is_none() || self.world.dyn_.run.is_some() {
            return;
        }
        if self.regions_in_transition() > 0 || !self.world.dyn_.recovering.is_empty() {
            return;
        }
        let view = self.cluster_view();
        let table_of: Vec<u16> = view
            .regions
            .iter()
            .map(|r| self.world.state.regions[r.id].table)
            .collect();
        let names = self.table_names();
        let by_table = self.cfg.settings.balance_by_table;
        let Some(bal) = self.world.dyn_.balancer.as_mut() else {
            return;
        };
        self.world.dyn_.out.balancer_runs += 1;
        let Some(plan) =
            balancer::balance_cluster(bal.as_mut(), &view, by_table, &table_of, &names)
        else {
            return;
        };
        if plan.moves.is_empty() {
            return;
        }
        let n = plan.moves.len();
        self.record_event(EventDetail::Balancer {
            reason: plan.reason.clone(),
            moves: n,
        });
        let max_ns = self.cfg.settings.balancer_max_balancing_ms.max(1) * NS_PER_MS;
        self.world.dyn_.run_seq += 1;
        let id = self.world.dyn_.run_seq;
        self.world.dyn_.run = Some(BalanceRun {
            id,
            moves: plan.moves.into(),
            issued: 0,
            start_ns: self.world.now,
            interval_ns: max_ns / n as u64,
            cutoff_ns: self.world.now + max_ns,
            in_flight: None,
            reason: plan.reason,
        });
        self.balance_next(id);
    }

    /// Issues the next move of balancer run `id`: when the previous move finished, or at the
    /// run's interval mark (`balanceThrottling`), until the cutoff (`hbase.balancer.max.balancing`).
    pub(crate) fn balance_next(&mut self, id: u64) {
        loop {
            // balanceThrottling: no new move while max(1, ⌊regions × maxRitPercent⌋) regions are
            // in transition; HMaster looks again every 100 ms.
            let max_rit = ((self.world.state.live_count() as f64
                * self.cfg.settings.max_rit_percent)
                .floor() as usize)
                .max(1);
            let rit_full = self.regions_in_transition() >= max_rit;
            let now = self.world.now;
            let Some(run) = self.world.dyn_.run.as_mut() else {
                return;
            };
            if run.id != id {
                return;
            }
            if run.in_flight.is_some() && now < run.start_ns + run.issued as u64 * run.interval_ns {
                return;
            }
            if run.issued > 0 && now > run.cutoff_ns {
                self.world.dyn_.run = None;
                return;
            }
            if run.moves.is_empty() {
                if run.in_flight.is_none() {
                    self.world.dyn_.run = None;
                }
                return;
            }
            if rit_full {
                self.schedule(100 * NS_PER_MS, Event::BalanceNext { run: id });
                return;
            }
            let m = run.moves.pop_front().expect("not empty");
            run.issued += 1;
            let mark = run.start_ns + run.issued as u64 * run.interval_ns;
            let reason = MoveReason::Balancer(run.reason.clone());
            let ok = self.world.state.regions[m.region].server == m.from
                && self
                    .world
                    .state
                    .servers
                    .get(m.to)
                    .is_some_and(Server::accepts_regions);
            let moved = ok
                && self.apply(Decision::Move {
                    region: m.region,
                    to: m.to,
                    reason,
                });
            if moved {
                self.world.dyn_.out.balancer_moves += 1;
                if let Some(run) = self.world.dyn_.run.as_mut() {
                    run.in_flight = Some(m.region);
                }
                if mark > self.world.now {
                    self.schedule(mark - self.world.now, Event::BalanceNext { run: id });
                }
                return;
            }
            // A failed plan is skipped (HMaster logs and goes on).
        }
    }

    // ---------------------------------------------------------------- normalizer

    /// `RegionNormalizerWorker` every `hbase.normalizer.period`: splits first, then merges.
    pub(crate) fn normalize_chore(&mut self) {
        if !self.cfg.settings.normalization_enabled {
            self.world.dyn_.normalizer_scheduled = false;
            return;
        }
        let period = self.cfg.settings.normalizer_period_ms.max(1) * NS_PER_MS;
        if self.keep_periodic() {
            self.schedule(period, Event::Normalize);
        } else {
            self.world.dyn_.normalizer_scheduled = false;
        }
        let regions: Vec<NormRegion> = self
            .world
            .state
            .routing
            .ids()
            .map(|id| &self.world.state.regions[id])
            .map(|r| NormRegion {
                id: r.id,
                storefile_bytes: r.counted_store_bytes(),
                open: r.state == RegionState::Open,
                created_ms: r.opened_ns / NS_PER_MS,
            })
            .collect();
        let plans = normalizer::plan(&regions, &self.cfg.settings, self.world.now / NS_PER_MS);
        if plans.is_empty() {
            return;
        }
        let (mut splits, mut merges) = (0, 0);
        for p in plans {
            match p {
                NormPlan::Split { region, reason } => {
                    if self.normalizer_split(region, reason) {
                        splits += 1;
                    }
                }
                NormPlan::Merge { regions, reason } => {
                    if self.apply(Decision::Merge { regions, reason }) {
                        merges += 1;
                    }
                }
            }
        }
        if splits + merges > 0 {
            self.record_event(EventDetail::Normalizer { splits, merges });
        }
    }

    fn normalizer_split(&mut self, region: usize, reason: NormSplit) -> bool {
        let r = &self.world.state.regions[region];
        if r.state != RegionState::Open
            || r.flush.running()
            || r.stores.iter().any(|s| s.has_references())
        {
            return false;
        }
        let Ok(row) = split_point::choose(r) else {
            return false;
        };
        self.apply(Decision::Split {
            region,
            row,
            reason: SplitReason::Normalizer(reason),
        })
    }

    /// `MergeTableRegionsProcedure`: closes the adjacent regions (flushing them) and opens one
    /// region over their range whose stores hold references to all their files.
    pub(super) fn start_merge(&mut self, ids: Vec<usize>, reason: NormMerge) -> bool {
        if ids.len() < 2 {
            return false;
        }
        // Adjacent in the routing table, open, not flushing, no references (HBase refuses to
        // merge a region that still has references).
        let Some(pos) = self.world.state.routing.position(ids[0]) else {
            return false;
        };
        let adjacent = ids
            .iter()
            .enumerate()
            .all(|(k, &id)| self.world.state.routing.id_at(pos + k) == Some(id));
        let ready = ids.iter().all(|&id| {
            let r = &self.world.state.regions[id];
            r.state == RegionState::Open
                && !r.flush.running()
                && !r.stores.iter().any(|s| s.has_references())
        });
        if !adjacent || !ready {
            return false;
        }
        let mut longest = 0;
        let mut store_bytes = 0;
        for &id in &ids {
            self.abort_compactions(id);
            let data = self.close_flush(id);
            let rate = self.flush_rate(self.world.state.regions[id].server);
            longest = longest.max(transfer_ns(data, rate));
            let r = &mut self.world.state.regions[id];
            r.state = RegionState::Merging;
            r.drop_flush_entry();
            store_bytes += r.store_bytes();
            let s = r.server;
            self.world.state.servers[s].online_regions =
                self.world.state.servers[s].online_regions.saturating_sub(1);
        }
        let duration = longest + self.procedure_wait(longest) + self.cfg.transition_ns;
        self.world.rec.stats.offline_ns += duration;
        let first = &self.world.state.regions[ids[0]];
        let last = &self.world.state.regions[*ids.last().expect("two or more")];
        let record = self.world.dyn_.out.merges.len();
        self.world.dyn_.out.merges.push(MergeRecord {
            at_ns: self.world.now,
            done_ns: self.world.now + duration,
            starts: ids
                .iter()
                .map(|&i| self.world.state.regions[i].start.clone())
                .collect(),
            start: first.start.clone(),
            end: last.end.clone(),
            server: first.server,
            store_bytes,
            reason: reason.clone(),
        });
        for &id in &ids {
            self.note(
                id,
                Happening::ClosedToMerge {
                    regions: ids.len(),
                    reason: reason.clone(),
                },
            );
        }
        self.schedule(
            duration,
            Event::MergeDone {
                regions: ids,
                record,
            },
        );
        true
    }

    pub(crate) fn merge_done(&mut self, ids: Vec<usize>, record: usize) {
        let first = ids[0];
        let server = {
            let s = self.world.state.regions[first].server;
            if self.world.state.servers[s].accepts_regions() {
                s
            } else {
                self.any_live_server(first as u64).unwrap_or(s)
            }
        };
        let nf = self.world.state.regions[first].stores.len();
        let start = self.world.state.regions[first].start.clone();
        let end = self.world.state.regions[*ids.last().expect("two or more")]
            .end
            .clone();
        let generation = ids
            .iter()
            .map(|&i| self.world.state.regions[i].generation)
            .max()
            .unwrap_or(0);
        let mut stores: Vec<Store> = (0..nf).map(|_| Store::default()).collect();
        let mut rows = 0;
        let mut range_writes = 0;
        for &id in &ids {
            let parent = &mut self.world.state.regions[id];
            parent.state = RegionState::Retired;
            rows += parent.rows;
            range_writes += parent.range_writes;
            let pstart = parent.start.clone();
            for (f, st) in parent.stores.iter_mut().enumerate() {
                for HeldFile { file, rows: r } in st.files.drain(..) {
                    // HRegionFileSystem.mergeStoreFile: a top reference from the parent's start.
                    let kind = match file.kind {
                        FileKind::Reference { .. } => file.kind.clone(),
                        FileKind::Real | FileKind::Link => FileKind::Reference {
                            start: pstart.clone(),
                            end: Vec::new(),
                        },
                    };
                    stores[f].files.push(HeldFile {
                        file: StoreFile { kind, ..file },
                        rows: r,
                    });
                }
                st.recount();
            }
        }
        // Store files are ordered by sequence id (oldest first), whatever parent they came from.
        for st in &mut stores {
            st.files.sort_by_key(|h| h.file.seq_id);
            st.recount();
        }
        let m = self.open_region(start.clone(), end, server, generation, None, nf);
        self.world.state.regions[m].stores = stores;
        self.world.state.regions[m].rows = rows;
        self.world.state.regions[m].range_writes = range_writes;
        self.world
            .dyn_
            .out
            .parents
            .resize(self.world.state.regions.len(), Vec::new());
        self.world.dyn_.out.parents[m] = ids.clone();
        // Routing: the first parent's entry becomes the merged region; the others go.
        self.world.state.routing.merge(first, ids.len(), m);
        if let Some(rec) = self.world.dyn_.out.merges.get_mut(record) {
            rec.done_ns = self.world.now;
            rec.server = server;
        }
        for &id in &ids {
            self.note(id, Happening::MergedAway);
        }
        self.note(
            m,
            Happening::Opened {
                server: self.server_at(server),
                as_: OpenedAs::Merge { regions: ids.len() },
            },
        );
        for st in 0..nf {
            self.apply(Decision::Compact {
                region: m,
                store: st,
            });
        }
    }

    // ---------------------------------------------------------------- scenario events

    /// Fires scenario event `i`.
    fn fire_event(&mut self, i: usize) {
        let ev = self.world.dyn_.events[i].clone();
        let line = ev.line;
        match ev.action {
            EventAction::AddServers(n) => self.add_servers(n as usize, line),
            EventAction::Decommission(s) => self.decommission(s, line),
            EventAction::Kill(s) => self.kill(s, line),
            EventAction::Set { changes, settings } => {
                self.apply_settings(*settings);
                self.record_event(EventDetail::Set { line, changes });
            }
            EventAction::Phase {
                rate_bytes_per_s,
                gets_per_s,
                scans_per_s,
            } => {
                match rate_bytes_per_s {
                    // Rate 0: no rows arrive; the clock goes from event to event.
                    Some(0) => self.run.paused = true,
                    Some(rate) => {
                        self.cfg.rate_fp = derived::ns_per_byte_fp(rate);
                        // The write path caches the clock step per row weight: reset it to
                        // the consistent (0, 0) so the next row recomputes it at the new rate.
                        self.cache.clock_weight = 0;
                        self.cache.clock_step = 0;
                        if self.run.paused && self.run.ingest_ns.is_none() {
                            // Rows arrive again, the first one a row's time after now.
                            self.run.paused = false;
                            self.world.clock_frac = 0;
                            self.wake_idle_chores();
                        }
                    }
                    None => {}
                }
                self.set_read_rates(gets_per_s, scans_per_s);
                self.record_event(EventDetail::Phase {
                    line,
                    rate_bytes_per_s,
                    gets_per_s,
                    scans_per_s,
                });
            }
        }
    }

    fn add_servers(&mut self, n: usize, line: usize) {
        let first = self.world.state.servers.len();
        for _ in 0..n {
            self.world.state.servers.push(Server {
                joined_ns: self.world.now,
                wal: crate::engine::state::wal::Wal {
                    last_roll_ns: self.world.now,
                    ..Default::default()
                },
                ..Server::default()
            });
        }
        // The open hotspot window gains columns for the new servers.
        if let Some(w) = self.world.rec.windows.last_mut() {
            w.resize(self.world.state.servers.len(), 0);
        }
        self.world.dyn_.out.all_hosting_ns = None;
        self.record_event(EventDetail::AddServers {
            line,
            first,
            servers: self.world.state.servers.len(),
        });
    }

    /// `HMaster.decommissionRegionServers(offload = true)`: the server is marked draining and
    /// its regions are moved to the other servers at once.
    fn decommission(&mut self, s: usize, line: usize) {
        if s >= self.world.state.servers.len() || !self.world.state.servers[s].accepts_regions() {
            return;
        }
        self.world.state.servers[s].draining = true;
        self.world.dyn_.drain_lines.insert(s, line);
        let (moved, hosted) = self.offload(s, line);
        self.record_event(EventDetail::Decommission {
            line,
            server: self.server_at(s),
            moved,
            hosted,
        });
    }

    /// Moves the open regions of draining server `s` off, round-robin over the live servers.
    /// Regions busy flushing or in transition go at a later sample. Returns (moved, hosted).
    fn offload(&mut self, s: usize, line: usize) -> (usize, usize) {
        let ids: Vec<usize> = self
            .world
            .state
            .live_ids()
            .filter(|&id| self.world.state.regions[id].server == s)
            .collect();
        let targets = self.round_robin_live(ids.len(), 0xDEC0 ^ s as u64 ^ self.world.now);
        let server = self.server_at(s);
        let mut moved = 0;
        for (&id, &to) in ids.iter().zip(&targets) {
            let reason = MoveReason::Decommission { server, line };
            if self.apply(Decision::Move {
                region: id,
                to,
                reason,
            }) {
                moved += 1;
            }
        }
        (moved, ids.len())
    }

    /// At each sample: regions still on a draining server (busy when it was decommissioned,
    /// or daughters opened there meanwhile) are moved off.
    pub(crate) fn keep_draining(&mut self) {
        for s in 0..self.world.state.servers.len() {
            if self.world.state.servers[s].draining
                && !self.world.state.servers[s].dead
                && self.world.state.servers[s].online_regions > 0
            {
                let line = self.world.dyn_.drain_lines.get(&s).copied().unwrap_or(0);
                self.offload(s, line);
            }
        }
    }

    /// The server dies: its regions go offline at once and are reassigned after the master
    /// notices (`zookeeper.session.timeout`) and its WAL has been split and replayed.
    fn kill(&mut self, s: usize, line: usize) {
        if s >= self.world.state.servers.len() || self.world.state.servers[s].dead {
            return;
        }
        let ids: Vec<usize> = self
            .world
            .state
            .live_ids()
            .filter(|&id| {
                // A region closing with its pre-close flush running holds edits too.
                self.world.state.regions[id].server == s
                    && self.world.state.regions[id].takes_writes()
            })
            .collect();
        let wal: u64 = ids
            .iter()
            .map(|&id| self.world.state.regions[id].memstore_data())
            .sum();
        let srv = &mut self.world.state.servers[s];
        srv.dead = true;
        srv.memstore_heap = 0;
        srv.wal.drop_files();
        srv.online_regions = 0;
        let queued: Vec<usize> = srv.flush_queue.drain(..).map(|(r, _)| r).collect();
        let compactions: Vec<(usize, usize)> = srv
            .small_queue
            .drain()
            .chain(srv.large_queue.drain())
            .map(|q| (q.region, q.store))
            .collect();
        for r in queued {
            self.world.state.regions[r].drop_flush_entry();
        }
        for (r, st) in compactions {
            self.world.state.regions[r].stores[st].queued = false;
        }
        for &id in &ids {
            // Compactions die with the server; the recovered region asks again on open.
            self.abort_compactions(id);
            self.world.state.regions[id].state = RegionState::Moving;
            self.world.state.regions[id].drop_flush_entry();
        }
        let replay = transfer_ns(wal, self.world.dyn_.wal_bw);
        let delay = self.world.dyn_.detection_ns + replay;
        let server = self.server_at(s);
        for &id in &ids {
            self.note(id, Happening::Offline { server, line });
        }
        self.world
            .dyn_
            .recovering
            .push((s, self.world.now, ids.clone()));
        self.record_event(EventDetail::Kill {
            line,
            server,
            regions: ids.len(),
            unflushed: wal,
            detection_ns: self.world.dyn_.detection_ns,
            replay_ns: replay,
        });
        self.schedule(delay, Event::Recover { server: s });
    }

    /// `ServerCrashProcedure`: the dead server's regions are assigned round-robin over the
    /// live servers; each replays its recovered edits and flushes them on open.
    pub(crate) fn recover(&mut self, s: usize) {
        let Some(pos) = self
            .world
            .dyn_
            .recovering
            .iter()
            .position(|(d, _, _)| *d == s)
        else {
            return;
        };
        let (_, died, ids) = self.world.dyn_.recovering.remove(pos);
        let targets = self.round_robin_live(ids.len(), 0xC2A5 ^ s as u64);
        if targets.is_empty() {
            return;
        }
        let server = self.server_at(s);
        for (&id, &to) in ids.iter().zip(&targets) {
            // Recovered edits are flushed when the region opens (HRegion.replayRecoveredEditsIfAny).
            let data = self.close_flush(id);
            let replay = transfer_ns(data, self.flush_rate(to));
            let duration = replay + self.procedure_wait(replay) + self.cfg.transition_ns;
            // Offline from the crash: detection, WAL split and replay, then the open.
            self.world.rec.stats.offline_ns += self.world.now - died + duration;
            let r = &self.world.state.regions[id];
            let record = self.world.dyn_.out.moves.len();
            let reason = MoveReason::Crash {
                server,
                replayed: data,
            };
            self.world.dyn_.out.moves.push(MoveRecord {
                at_ns: died,
                done_ns: self.world.now + duration,
                start: r.start.clone(),
                end: r.end.clone(),
                from: s,
                to,
                store_bytes: r.store_bytes(),
                reason,
                region: id,
            });
            self.schedule(
                duration,
                Event::MoveDone {
                    region: id,
                    to,
                    record,
                },
            );
        }
        self.record_event(EventDetail::Recovered {
            server,
            regions: ids.len(),
            live: self.live_servers().len(),
        });
    }

    /// Puts new settings in force: compaction settings at once (HBase's online configuration
    /// change), split policies of open regions re-created (as a table alter reopens regions),
    /// the balancer rebuilt if its class changed, the normalizer started if it was enabled, the
    /// compaction throughput controllers rebuilt (`CompactSplit.onConfigurationChange`).
    fn apply_settings(&mut self, settings: crate::config::Settings) {
        self.cfg.compaction = CompactionConfig::from_settings(&settings);
        // Global memstore limits follow the new fractions (the heap is the scenario's).
        self.cfg.global = policy::write::GlobalMarks::of(&settings, self.cfg.heap_bytes);
        self.cfg.settings = settings;
        for id in self.world.state.live_ids().collect::<Vec<_>>() {
            if self.world.state.regions[id].state == RegionState::Open {
                self.world.state.regions[id].policy = self.new_policy(id);
            }
        }
        // The balancer reads its parameters when it is built (as HMaster does on a config
        // change): rebuild it; a stochastic balancer's load history starts afresh.
        self.world.dyn_.balancer = balancer::build(&self.cfg.settings, self.cfg.seed);
        self.world.dyn_.balancer_name = balancer_name(&self.cfg.settings);
        self.world.dyn_.run = None;
        self.schedule_chores();
        self.reset_compaction_throughput();
    }
}
