//! The appliers: the only code that changes the engine's state and schedules events. Each file
//! carries out one kind of work; the policies it asks live in `policy/`.

mod chores;
mod client;
pub(crate) mod cluster;
mod compaction;
mod flush;
mod gc;
mod open;
mod reads;
mod resources;
mod split;
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
        let r = &self.state.regions[region];
        let cx = SplitContext {
            online_regions: self.state.servers[r.server].online_regions,
            region_split_limit: self.cfg.settings.region_split_limit,
            ignore_blocking: self.cfg.settings.split_ignore_blocking,
            blocking_store_files: self.cfg.compaction.blocking_store_files,
            now_ms: self.now / NS_PER_MS,
        };
        let check = split_check::check(r, cx);
        if let Some(busy) = check.busy {
            self.state.regions[region].policy.set_busy(busy);
        }
        let r = &self.state.regions[region];
        for d in reactions::after(r, &change, check.outcome, &self.cfg.compaction) {
            self.apply(d);
        }
    }

    /// Carries out one decision.
    pub(crate) fn apply(&mut self, decision: Decision) {
        match decision {
            Decision::Split {
                region,
                row,
                reason,
            } => self.start_split(region, row, reason),
            Decision::Compact { region, store } => self.request_compaction(region, store),
        }
    }
}
