//! The appliers: the only code that changes the engine's state and schedules events. Each file
//! carries out one kind of work; the policies it asks live in `policy/`.

mod bulkload;
mod chores;
mod client;
pub(crate) mod close;
pub(crate) mod cluster;
mod compaction;
mod flush;
mod gc;
mod loader;
mod open;
mod reads;
mod resources;
mod split;
pub(crate) mod tables;
mod wal;
mod write;

pub(crate) use resources::RESOURCE_TICK_NS;

use crate::engine::Engine;
use crate::engine::decision::Decision;
use crate::engine::policy::reactions::{self, StoreChange};
use crate::engine::policy::split_check::{self, SplitContext};
use crate::engine::queue::NS_PER_MS;

impl Engine {
    /// What follows a change of `region`'s stores: the split check (its Busy bookkeeping kept),
    /// then the reaction policy's decisions, carried out in order.
    pub(crate) fn react(&mut self, region: usize, change: StoreChange) {
        let table_regions = self.table_regions_on(region);
        let r = &self.world.state.regions[region];
        let cx = SplitContext {
            online_regions: self.world.state.servers[r.server].online_regions,
            table_regions,
            region_split_limit: self.cfg.settings.region_split_limit,
            ignore_blocking: self.cfg.settings.split_ignore_blocking,
            blocking_store_files: self.cfg.compaction.blocking_store_files,
            now_ms: self.world.now / NS_PER_MS,
            caller: change.split_caller(),
        };
        let check = split_check::check(r, cx);
        if let Some(busy) = check.busy {
            self.world.state.regions[region].policy.set_busy(busy);
        }
        let r = &self.world.state.regions[region];
        for d in reactions::after(
            r,
            &change,
            check.outcome,
            &self.cfg.compaction,
            self.world.now / NS_PER_MS,
        ) {
            self.apply(d);
        }
    }

    /// A split, merge or move procedure whose region(s) finish closing in `close_ns`: its
    /// transition step (`cluster.region_transition`: the master's steps and the open) needs one
    /// of the master's `hbase.master.procedure.threads` workers, reserved now in submission
    /// order. Returns the time it waits for one, ns (counted in the stats).
    pub(crate) fn procedure_wait(&mut self, close_ns: u64) -> u64 {
        let workers = self.cfg.settings.master_procedure_threads.max(1) as usize;
        // A `set` event may change the worker count; new workers start idle.
        self.world.state.procedure_workers.resize(workers, 0);
        let ready = self.world.now + close_ns;
        let Some((w, start)) =
            crate::engine::policy::procedure::reserve(&self.world.state.procedure_workers, ready)
        else {
            return 0;
        };
        self.world.state.procedure_workers[w] = start + self.cfg.transition_ns;
        let wait = start - ready;
        if wait > 0 {
            self.world.rec.stats.procedures_queued += 1;
            self.world.rec.stats.procedure_wait_ns += wait;
        }
        wait
    }

    /// Carries out one decision. False when the state refuses it now: a move or merge of a
    /// region that cannot close (not open, flushing, references). Requests are always taken;
    /// the flusher and the compaction queues drop what they need not do.
    pub(crate) fn apply(&mut self, decision: Decision) -> bool {
        match decision {
            Decision::Flush { region, why } => self.request_flush(region, why),
            Decision::DelayedFlush { region, delay_ns } => {
                self.request_delayed_flush(region, delay_ns)
            }
            Decision::EmergencyFlush { region, why } => self.emergency_flush(region, why),
            Decision::Move { region, to, reason } => {
                return self.start_move(region, to, reason);
            }
            Decision::Merge { regions, reason } => return self.start_merge(regions, reason),
            Decision::Split {
                region,
                row,
                reason,
            } => self.start_split(region, row, reason),
            Decision::Compact { region, store } => self.request_compaction(region, store),
        }
        true
    }
}
