//! The WAL carried out: rolls, archiving and the flushes forced by too many WAL files
//! (`AbstractFSWAL.rollWriter`, `LogRoller` → `MemStoreFlusher.requestFlush`). The write path
//! only counts appended bytes (`Wal::append`); everything else happens here, once per roll.

use crate::engine::Engine;
use crate::engine::decision::{Decision, FlushWhy};
use crate::engine::policy::wal as policy;
use crate::engine::state::State;
use crate::engine::state::wal::WalFile;

impl Engine {
    /// The current WAL of `server` is full (or old): it rolls. The closed file remembers the
    /// regions with edits in it; files whose regions all flushed are archived; with more than
    /// `hbase.regionserver.maxlogs` rolled files left, the regions pinning the oldest one are
    /// asked to flush.
    #[cold]
    #[inline(never)]
    pub(crate) fn roll_wal(&mut self, server: usize) {
        self.world.state.regions_on(server);
        let State {
            regions,
            by_server,
            servers,
            ..
        } = &mut self.world.state;
        let mut held = Vec::new();
        for &id in by_server.on(server) {
            let r = &mut regions[id];
            if r.write_requests > r.wal_seen {
                held.push((id, r.write_requests));
                r.wal_seen = r.write_requests;
            }
        }
        let wal = &mut servers[server].wal;
        wal.rolled.push_back(WalFile {
            number: wal.current,
            regions: held,
            settled: 0,
        });
        wal.current += 1;
        wal.appended = 0;
        wal.rolls += 1;
        wal.last_roll_ns = self.world.now;
        for f in wal.rolled.iter_mut() {
            f.settled = policy::first_unflushed(f, |r| regions[r].wal_flushed);
        }
        wal.rolled.retain(|f| f.settled < f.regions.len());
        wal.files_peak = wal.files_peak.max(wal.files());
        self.world.rec.stats.wal_rolls += 1;
        let force = policy::to_force_flush(wal, self.cfg.wal_max_logs, |r| regions[r].wal_flushed);
        for id in force {
            self.apply(Decision::Flush {
                region: id,
                why: FlushWhy::Wal,
            });
        }
    }

    /// A flush of `region` takes its snapshot: the edits written so far are flushing, if the
    /// flush takes every store holding data (else they stay unflushed: see docs/MODEL.md).
    pub(crate) fn wal_flush_started(&mut self, region: usize, all_stores: bool) {
        let r = &mut self.world.state.regions[region];
        r.wal_flushing = if all_stores {
            r.write_requests
        } else {
            r.wal_flushed
        };
    }

    /// The flush of `region` completed: its snapshot's edits no longer pin WAL files.
    pub(crate) fn wal_flush_done(&mut self, region: usize) {
        let r = &mut self.world.state.regions[region];
        r.wal_flushed = r.wal_flushed.max(r.wal_flushing);
    }

    /// `region` flushed everything at once (close flush, recovered edits): nothing pins.
    pub(crate) fn wal_flushed_all(&mut self, region: usize) {
        let r = &mut self.world.state.regions[region];
        r.wal_flushed = r.write_requests;
        r.wal_flushing = r.write_requests;
    }
}
