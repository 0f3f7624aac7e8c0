//! The nodes' shared resources carried out: every `RESOURCE_TICK_NS` each server's demands are
//! measured (its WAL's recent rate, the replicas of the other servers' HDFS writes), and its
//! write path and running compactions get their new shares; a flush takes its share when it
//! starts (`policy/resources.rs`).

use crate::engine::Engine;
use crate::engine::policy::resources::{self, NodeDemand, Shares};
use crate::engine::queue::{Event, NS_PER_S};

/// How often demands are measured and shares recomputed.
pub(crate) const RESOURCE_TICK_NS: u64 = NS_PER_S;

impl Engine {
    /// `dfs.replication`, at most the live servers (HDFS cannot place more replicas).
    pub(crate) fn replication(&self) -> u32 {
        let want = self.cfg.settings.client.replication;
        // Counting stops at `want` live servers: this runs per server per tick.
        let live = self
            .world
            .state
            .servers
            .iter()
            .filter(|s| !s.dead)
            .take(want as usize)
            .count() as u32;
        want.min(live.max(1))
    }

    /// The shares of `server`'s node now.
    pub(crate) fn shares(&self, server: usize) -> Shares {
        let s = &self.world.state.servers[server];
        let hw = &self.cfg.hardware;
        resources::shares(NodeDemand {
            disk: hw.disk_total() as f64,
            network: hw.network as f64,
            replication: self.replication(),
            wal: s.wal_rate,
            inbound: s.inbound,
            forward: s.forward,
            jobs: s.flushes_running + s.small_running + s.large_running,
        })
    }

    /// Data bytes per second a flush starting now on `server` writes.
    pub(crate) fn flush_rate(&self, server: usize) -> u64 {
        resources::flush_rate(self.cfg.flush_bw, self.shares(server), self.replication())
    }

    /// Sets `server`'s write path from its shares and cores.
    pub(crate) fn update_write_path(&mut self, server: usize) {
        let (rate, bound) = resources::write_path_rate(
            self.shares(server),
            self.cfg.hardware.cores,
            self.cfg.settings.client.handlers,
            self.cache.row_data.max(1),
            self.cfg.write_cap,
        );
        let s = &mut self.world.state.servers[server];
        s.write_rate = rate;
        s.write_bound = bound;
        s.write_fp = crate::engine::derived::ns_per_byte_fp(rate);
    }

    /// The resource tick: measure every server's WAL rate and HDFS writes, spread the replicas
    /// over the other live servers, and re-share.
    pub(crate) fn resource_tick(&mut self) {
        let dt = RESOURCE_TICK_NS as f64 / NS_PER_S as f64;
        // Scratch buffers kept between ticks: a run of months ticks millions of times.
        let mut hdfs = std::mem::take(&mut self.cache.tick_hdfs);
        hdfs.clear();
        hdfs.resize(self.world.state.servers.len(), 0.0);
        for (i, s) in self.world.state.servers.iter_mut().enumerate() {
            let appended = s.write_bytes - s.wal_mark;
            s.wal_mark = s.write_bytes;
            s.wal_rate = appended as f64 / dt;
            if s.dead {
                s.wal_rate = 0.0;
                continue;
            }
            hdfs[i] = s.wal_rate + f64::from(s.flushes_running) * s.flush_rate as f64;
        }
        for c in self.world.state.compactions.values() {
            let w = c.written as f64 / c.read.max(1) as f64;
            hdfs[c.server] += c.progress.rate as f64 * w;
        }
        let total: f64 = hdfs.iter().sum();
        let repl = f64::from(self.replication());
        let live = self.world.state.servers.iter().filter(|s| !s.dead).count();
        let others = (live.max(2) - 1) as f64;
        for (i, s) in self.world.state.servers.iter_mut().enumerate() {
            if s.dead {
                continue;
            }
            let rest = (total - hdfs[i]).max(0.0) / others;
            s.inbound = (repl - 1.0).max(0.0) * rest;
            s.forward = (repl - 2.0).max(0.0) * rest;
        }
        self.cache.tick_hdfs = hdfs;
        // Each server's running compactions, in token order, found in one pass.
        let mut running = std::mem::take(&mut self.cache.tick_running);
        running.resize_with(self.world.state.servers.len(), Vec::new);
        running.iter_mut().for_each(Vec::clear);
        for (&token, c) in &self.world.state.compactions {
            running[c.server].push(token);
        }
        for (i, tokens) in running.iter().enumerate() {
            if self.world.state.servers[i].dead {
                continue;
            }
            self.update_write_path(i);
            // Young collections follow the churn the write path brings (`apply/gc.rs`).
            self.arm_gc_pause(i, RESOURCE_TICK_NS);
            if !tokens.is_empty() {
                self.rerate_compactions_of(i, tokens);
            }
        }
        self.cache.tick_running = running;
        if self.run.paused && self.resources_quiescent() {
            // Every later tick would find the same nothing: sleep until work starts.
            self.world.tick_idle = true;
            return;
        }
        if self.keep_periodic() {
            self.schedule(RESOURCE_TICK_NS, Event::ResourceTick);
        }
    }

    /// Nothing a tick measures can change on its own: no WAL bytes since the last tick and none
    /// in its rate, no flush or compaction running, no replica traffic.
    pub(crate) fn resources_quiescent(&self) -> bool {
        self.world.state.compactions.is_empty()
            && self.world.state.servers.iter().all(|s| {
                s.write_bytes == s.wal_mark
                    && s.wal_rate == 0.0
                    && s.flushes_running == 0
                    && s.inbound == 0.0
                    && s.forward == 0.0
            })
    }

    /// Re-arms what slept while writes were paused: the resource tick one tick from now.
    pub(crate) fn wake_idle_chores(&mut self) {
        if self.world.tick_idle {
            self.world.tick_idle = false;
            self.schedule(RESOURCE_TICK_NS, Event::ResourceTick);
        }
    }
}
