//! Stop-the-world JVM pauses of the RegionServers (the `[cluster] variability` model): while a
//! server pauses its write path takes nothing, so its `busy_until_ns` moves on by the pause and
//! the client, once its buffer is full, waits. Flushes and compactions running on it are not
//! delayed (simplified). The pauses are drawn per (seed, server, pause index). While writes are
//! paused (a `phase` with rate 0, or the data written before `workload.duration`) a pause that
//! comes due is put off until rows arrive again, then drawn from its gap after that moment.

use crate::engine::Engine;
use crate::engine::queue::Event;

impl Engine {
    /// Schedules the first pause of `server` (nothing with variability off).
    pub(crate) fn arm_gc_pauses(&mut self, server: usize) {
        if self.cfg.draws.gc_on() {
            let first = self.cfg.draws.gc_pause(server, 0);
            self.schedule(first.gap_ns, Event::GcPause { server, n: 0 });
        }
    }

    /// The `n`-th pause of `server` happens now; the next one is scheduled while the run goes on.
    pub(crate) fn gc_pause(&mut self, server: usize, n: u64) {
        if self.run.paused {
            // No writes, next to no allocation: the pauses wait for the writes to resume.
            if self.world.gc_idle.len() <= server {
                self.world.gc_idle.resize(server + 1, None);
            }
            self.world.gc_idle[server] = Some(n);
            return;
        }
        let p = self.cfg.draws.gc_pause(server, n);
        let s = &mut self.world.state.servers[server];
        if s.dead {
            return;
        }
        s.busy_until_ns = s.busy_until_ns.max(self.world.now) + p.pause_ns;
        s.gc_pauses += 1;
        s.gc_pause_ns += p.pause_ns;
        let st = &mut self.world.rec.stats;
        st.gc_pauses += 1;
        st.gc_pause_ns += p.pause_ns;
        st.gc_long_pauses += u64::from(p.long);
        if self.keep_periodic() {
            let next = self.cfg.draws.gc_pause(server, n + 1);
            self.schedule(
                p.pause_ns + next.gap_ns,
                Event::GcPause { server, n: n + 1 },
            );
        }
    }
}
