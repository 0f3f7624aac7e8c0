//! Stop-the-world JVM pauses of the RegionServers (the `[cluster] variability` model). Young
//! collections come when eden fills, and a RegionServer's eden fills with what its write path
//! allocates: a server's `n`-th pause comes once its write path has taken that pause's drawn
//! churn (`policy::variability`) since the previous one, so an idle or lightly written server
//! hardly pauses and a busy one pauses often. While a server pauses its write path takes
//! nothing: its `busy_until_ns` moves on by the pause, and the time is owed to the clients that
//! queue behind it (`policy::write::gc_wait`). Flushes and compactions running on it are not
//! delayed, and their own allocation is not counted (simplified).

use crate::engine::Engine;
use crate::engine::queue::{Event, NS_PER_S};

impl Engine {
    /// At a resource tick: schedules `server`'s next pause where its write path, at the rate
    /// it took data over the last tick, reaches that pause's churn before the next tick.
    pub(crate) fn arm_gc_pause(&mut self, server: usize, tick_ns: u64) {
        if !self.cfg.draws.gc_on() {
            return;
        }
        let heap = self.cfg.heap_bytes;
        let s = &self.world.state.servers[server];
        if s.gc_armed || s.dead {
            return;
        }
        let need = self.cfg.draws.gc_pause(server, s.gc_next, heap).churn_bytes;
        let taken = s.write_bytes - s.gc_mark;
        let delay = if taken >= need {
            0
        } else if s.wal_rate > 0.0 {
            let secs = (need - taken) as f64 / s.wal_rate;
            if secs * NS_PER_S as f64 >= tick_ns as f64 {
                return;
            }
            (secs * NS_PER_S as f64) as u64
        } else {
            return;
        };
        let n = s.gc_next;
        self.world.state.servers[server].gc_armed = true;
        self.schedule(delay, Event::GcPause { server, n });
    }

    /// The `n`-th pause of `server` happens now.
    pub(crate) fn gc_pause(&mut self, server: usize, n: u64) {
        let p = self.cfg.draws.gc_pause(server, n, self.cfg.heap_bytes);
        let now = self.world.now;
        let s = &mut self.world.state.servers[server];
        s.gc_armed = false;
        if s.dead || s.gc_next != n {
            return;
        }
        s.gc_next = n + 1;
        s.gc_mark = s.write_bytes;
        s.busy_until_ns = s.busy_until_ns.max(now) + p.pause_ns;
        s.gc_owed_ns += p.pause_ns;
        s.gc_pauses += 1;
        s.gc_pause_ns += p.pause_ns;
        let st = &mut self.world.rec.stats;
        st.gc_pauses += 1;
        st.gc_pause_ns += p.pause_ns;
        st.gc_long_pauses += u64::from(p.long);
    }
}
