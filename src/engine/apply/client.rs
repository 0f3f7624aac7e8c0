//! The loader's client carried out: a refused mutation is held back with its region's other
//! held-back mutations and retried after HBase's backoff; the writers go on with other regions
//! until their buffers are full of held-back mutations (`AsyncProcess`, `BufferedMutatorImpl`).

use crate::engine::Engine;
use crate::engine::ingest::route::prefix8;
use crate::engine::policy;
use crate::engine::policy::client::{self, Refusal, RetryOutcome};
use crate::engine::policy::write::Admission;
use crate::engine::queue::Event;
use crate::engine::state::client::Held;

/// A loader gives rows up after their operation failed this many times in a row.
pub(crate) const MAX_RESUBMITS: u32 = 3;

impl Engine {
    /// The client acting now: 0 for the one shared client.
    fn current_client(&self) -> u32 {
        self.run.loader.as_ref().map_or(0, |l| l.current as u32)
    }

    /// Bytes one held-back row of `weight` real rows takes in a writer's buffer (about its
    /// cells' data size).
    pub(crate) fn held_size(&self, weight: u64) -> u64 {
        weight * self.cache.row_data.max(1)
    }

    /// `region` refused (or queues behind refused) the row `key`: hold it back. The first held
    /// row of a region schedules the retry.
    pub(crate) fn hold(&mut self, region: usize, key: &[u8], weight: u64, why: Refusal) {
        let bytes = self.held_size(weight);
        let now = self.world.now;
        let fresh = !self.world.state.client.held.contains_key(&region);
        let generation = if fresh {
            self.world.queue.next_seq()
        } else {
            0
        };
        let st = &mut self.world.state.client;
        st.held.entry(region).or_insert_with(|| Held {
            keys: Vec::new(),
            rows: Vec::new(),
            bytes: 0,
            since_ns: now,
            tries: 0,
            failures: 0,
            why,
            generation,
        });
        st.join(region, key, weight, bytes);
        self.world.rec.stats.held_peak_bytes =
            self.world.rec.stats.held_peak_bytes.max(st.held_bytes);
        if fresh {
            let client = self.current_client();
            if self.run.loader.is_none() {
                // One client: the region's flag tells the write path (several clients each
                // look in their own held rows, `admission`).
                self.world.state.regions[region].client_held = true;
            }
            let pause = client::pause_ns(self.cfg.settings.client.pause_ms, 0);
            self.schedule(
                pause,
                Event::ClientRetry {
                    client,
                    region,
                    generation,
                },
            );
        }
    }

    /// While the writers' buffers are full of held-back mutations, every writer waits: the load
    /// stalls until retries drain them. The wait counts as blocked or offline time by what holds
    /// most of the buffers.
    pub(crate) fn stall_while_buffers_full(&mut self) {
        if self.run.loader.is_some() {
            // Several clients: only this one stops; the others go on.
            return self.loader_stall();
        }
        let (writers, buffer) = (self.cfg.writers, self.cfg.settings.client.write_buffer);
        while client::buffers_full(self.world.state.client.held_bytes, writers, buffer) {
            let offline = self.world.state.client.held_offline_bytes * 2
                >= self.world.state.client.held_bytes;
            let t0 = self.world.now;
            if !self.advance() {
                break;
            }
            let waited = self.world.now - t0;
            self.world.rec.stats.stall_ns += waited;
            if offline {
                self.world.rec.stats.offline_wait_ns += waited;
            } else {
                self.world.rec.stats.blocked_ns += waited;
            }
        }
    }

    /// Why `region` would refuse a mutation now, if it would.
    pub(crate) fn refusal(&self, region: usize) -> Option<Refusal> {
        let r = &self.world.state.regions[region];
        policy::write::refusal(
            r.takes_writes(),
            r.memstore_heap(),
            self.cfg.settings.blocking_memstore_size,
        )
    }

    /// The retry of `region`'s held-back mutations: the client relocates each row (the region
    /// may have split, moved or merged) and sends it; rows refused again are held back again.
    pub(crate) fn client_retry(&mut self, region: usize, generation: u64) {
        let Some(h) = self.world.state.client.held.get(&region) else {
            return;
        };
        if h.generation != generation {
            return;
        }
        let Some(h) = self.world.state.client.held.remove(&region) else {
            return;
        };
        self.world.state.regions[region].client_held = false;
        self.world.rec.stats.retries += 1;
        let st = &mut self.world.state.client;
        st.held_bytes -= h.bytes;
        if h.why == Refusal::Offline {
            st.held_offline_bytes -= h.bytes;
        }
        // Where the first row goes now: if that region still refuses, the whole batch waits
        // for the next retry (perregion tasks = 1: nothing behind it is sent either).
        let first_key = &h.keys[..h.rows.first().map_or(0, |r| r.0 as usize)];
        let target = self.world.state.routing.locate(first_key);
        if target == region
            && let Some(why) = self.refusal(region)
        {
            self.hold_again(region, h, why);
            return;
        }
        let waited = self.world.now - h.since_ns;
        let mut at = 0;
        for &(len, weight) in &h.rows {
            let key = &h.keys[at..at + len as usize];
            at += len as usize;
            let p = prefix8(key);
            let r = self.route(key, p);
            match self.admission(r) {
                Admission::Take => {}
                // Refused where it goes now.
                Admission::Refused(why) => {
                    self.hold(r, key, weight, why);
                    continue;
                }
                // Queued behind that region's held rows; or its server is at the global high
                // mark and would block the retry in its handlers (`reclaimMemStoreMemory`):
                // the rows wait for the next retry instead.
                Admission::BehindHeld | Admission::Blocked => {
                    self.hold(r, key, weight, h.why);
                    continue;
                }
            }
            self.world.rec.stats.retried_rows += weight;
            self.world.rec.stats.last_retry_accept_ns = self.world.now;
            self.world.rec.stats.retry_delay_row_ns += u128::from(waited) * u128::from(weight);
            self.apply_write(r, key, p, weight, h.why == Refusal::TooBusy, true);
        }
        self.world.rec.stats.retry_delay_max_ns =
            self.world.rec.stats.retry_delay_max_ns.max(waited);
        if h.why == Refusal::TooBusy {
            self.world.state.regions[region].blocked_ns += waited;
            let s = self.world.state.regions[region].server;
            self.world.state.servers[s].blocked_ns += waited;
        }
    }

    /// `h` was refused again (`why`): retry after the next backoff step, or fail the operation
    /// (the loader resubmits it, up to [`MAX_RESUBMITS`] times).
    fn hold_again(&mut self, region: usize, mut h: Held, why: Refusal) {
        let waited = self.world.now - h.since_ns;
        let rows: u64 = h.rows.iter().map(|r| r.1).sum();
        let delay = match client::after_refusal(&self.cfg.settings.client, h.tries + 1, waited) {
            RetryOutcome::Again(pause) => {
                h.tries += 1;
                pause
            }
            RetryOutcome::Fail(_) => {
                self.world.rec.stats.failed_rows += rows;
                h.failures += 1;
                if h.failures >= MAX_RESUBMITS {
                    self.world.rec.stats.lost_rows += rows;
                    return;
                }
                h.tries = 0;
                h.since_ns = self.world.now;
                client::pause_ns(self.cfg.settings.client.pause_ms, 0)
            }
        };
        h.why = why;
        h.generation = self.world.queue.next_seq();
        let generation = h.generation;
        let st = &mut self.world.state.client;
        st.held_bytes += h.bytes;
        if why == Refusal::Offline {
            st.held_offline_bytes += h.bytes;
        }
        // Rows held for this region meanwhile (a newer entry) queue behind the retried ones.
        if let Some(newer) = st.held.remove(&region) {
            if newer.why == Refusal::Offline {
                st.held_offline_bytes -= newer.bytes;
            }
            if why == Refusal::Offline {
                st.held_offline_bytes += newer.bytes;
            }
            h.keys.extend_from_slice(&newer.keys);
            h.rows.extend_from_slice(&newer.rows);
            h.bytes += newer.bytes;
        }
        st.held.insert(region, h);
        let client = self.current_client();
        if self.run.loader.is_none() {
            self.world.state.regions[region].client_held = true;
        }
        self.schedule(
            delay,
            Event::ClientRetry {
                client,
                region,
                generation,
            },
        );
    }
}
