//! The RegionServer chores on the simulated clock: the periodic flush check
//! (`PeriodicMemStoreFlusher`, every `hbase.regionserver.flush.check.period`) and the compaction
//! checker (`CompactionChecker`, every `compactchecker.interval.multiplier` checks), which ask the
//! policies and request what they decide, and the WAL roller's periodic roll.

use crate::engine::Engine;
use crate::engine::decision::Decision;
use crate::engine::policy::{self, compaction};
use crate::engine::queue::{Event, NS_PER_MS};
use crate::engine::state::region::RegionState;

impl Engine {
    /// The flush chore (every `hbase.regionserver.flush.check.period`) and, every
    /// `compactchecker.interval.multiplier` compaction-check periods, the major compaction check.
    pub(crate) fn chore(&mut self, n: u64) {
        if self.run.draining {
            return;
        }
        let now_ms = self.world.now / NS_PER_MS;
        if let Some(interval) = self.cfg.settings.flush_interval_ms.filter(|&i| i > 0)
            && (self.cache.periodic_flush_next_ms.0 != interval
                || now_ms >= self.cache.periodic_flush_next_ms.1)
        {
            let scan = policy::flush::periodic_scan(&self.world.state.regions, now_ms, interval);
            self.cache.periodic_flush_next_ms = (interval, scan.next_ms);
            let range_ms = self.cfg.settings.periodic_flush_delay_range_ms;
            for id in scan.due {
                let delay = policy::flush::periodic_delay_ms(self.cfg.seed, id, now_ms, range_ms);
                self.apply(Decision::DelayedFlush {
                    region: id,
                    delay_ns: delay.saturating_mul(NS_PER_MS),
                });
            }
        }
        // AbstractWALRoller: a WAL with edits rolls once it is `logroll.period` old (checked on
        // this chore's period, hbase-emu's choice of clock).
        let roll_period = self
            .cfg
            .settings
            .logroll_period_ms
            .saturating_mul(NS_PER_MS);
        for server in 0..self.world.state.servers.len() {
            let s = &self.world.state.servers[server];
            if roll_period > 0
                && !s.dead
                && s.wal.appended > 0
                && self.world.now.saturating_sub(s.wal.last_roll_ns) >= roll_period
            {
                self.roll_wal(server);
            }
        }
        let flush_period = self.cfg.settings.flush_check_period_ms.max(1);
        let major_period = self.cfg.settings.compaction_check_period_ms.max(1)
            * self.cfg.settings.compactchecker_interval_multiplier.max(1) as u64;
        if (n * flush_period) % major_period < flush_period {
            let stores: Vec<(usize, usize)> = self
                .world
                .state
                .regions
                .iter()
                .filter(|r| r.state == RegionState::Open)
                .flat_map(|r| (0..r.stores.len()).map(move |s| (r.id, s)))
                .collect();
            for (r, s) in stores {
                // HRegionServer.CompactionChecker: a store that needs compaction, or whose major
                // compaction is due, gets a request (the selection decides major or minor).
                let st = &self.world.state.regions[r].stores[s];
                let infos = compaction::file_infos(st);
                let cfg = self.store_compaction(s);
                if compaction::needs_compaction(&infos, st.compacting_files(), &cfg, now_ms)
                    || compaction::major_due(&infos, &cfg, now_ms)
                    || compaction::fifo_has_expired(&infos, &cfg, self.ttl_cutoff_ms(s))
                {
                    self.apply(Decision::Compact {
                        region: r,
                        store: s,
                    });
                }
            }
        }
        self.schedule(
            flush_period.saturating_mul(NS_PER_MS),
            Event::Chore { n: n + 1 },
        );
    }
}
