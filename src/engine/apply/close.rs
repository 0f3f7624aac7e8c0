//! Regions closed for a split or a move (`HRegion.doClose`). Compactions stop first. A memstore
//! holding more than `hbase.hregion.preclose.flush.size` is flushed while the region still takes
//! writes (`policy::flush::pre_close_flush`); then the close flag goes up and only what arrived
//! meanwhile is flushed with the region offline.

use crate::engine::decision::FlushWhy;
use crate::engine::policy;
use crate::engine::state::region::RegionState;
use crate::engine::{Engine, MoveReason, SplitReason, SplitSource};

/// What a closing region does once its pre-close flush is written.
#[derive(Debug, Clone)]
pub(crate) enum PendingClose {
    /// Split at `row` (the split point came from `source` when it was requested).
    Split {
        row: Vec<u8>,
        reason: SplitReason,
        source: Option<SplitSource>,
    },
    /// Move to server `to`.
    Move { to: usize, reason: MoveReason },
}

impl Engine {
    /// Closes `region` for `then`: at once, or after a pre-close flush.
    pub(super) fn close_for(&mut self, region: usize, then: PendingClose) {
        let r = &self.world.state.regions[region];
        if !policy::flush::pre_close_flush(r, self.cfg.settings.preclose_flush_size) {
            self.closed(region, then);
            return;
        }
        // writestate.writesEnabled = false: running compactions abort, none starts.
        self.abort_compactions(region);
        let r = &mut self.world.state.regions[region];
        r.drop_flush_entry();
        r.state = RegionState::Closing;
        self.world.pre_closing.insert(region, then);
        self.start_flush(region, FlushWhy::PreClose);
    }

    /// The pre-close flush of `region` is written: the close goes on, unless its server died
    /// meanwhile (the region is being recovered instead).
    pub(super) fn pre_close_flushed(&mut self, region: usize) {
        let Some(then) = self.world.pre_closing.remove(&region) else {
            return;
        };
        if self.world.state.regions[region].state == RegionState::Closing {
            self.closed(region, then);
        }
    }

    fn closed(&mut self, region: usize, then: PendingClose) {
        match then {
            PendingClose::Split {
                row,
                reason,
                source,
            } => self.split_closed(region, row, reason, source),
            PendingClose::Move { to, reason } => self.move_closed(region, to, reason),
        }
    }
}
