//! The loader's clients carried out (`scenario::Loader`, several clients or a closed loop):
//! each client has its own clock, its own held-back rows and buffers, and its own rows. The
//! engine lands the row of the client whose clock is earliest; a client whose buffers are full
//! of held-back rows, or whose row waits on a server at its global high mark, stops while the
//! others go on (docs/MODEL.md, "Loaders").

use std::cmp::Reverse;

use crate::diag::InputError;
use crate::engine::policy::loader as rules;
use crate::engine::policy::write::Admission;
use crate::engine::state::loader::{ClientStats, Latency, LoaderOutcome, LoaderState, Parked};
use crate::engine::{CLIENT_LAG_NS, Engine, Step, prefix8};
use crate::scenario::loader::Partition;

/// Keys sampled to find a key-range partition's bounds or a layout's key groups.
const SAMPLE: u64 = 16_384;

impl Engine {
    /// Hands the run to the loader's clients (their rows are dealt at the first step).
    pub(crate) fn start_loader(&mut self, mut ld: LoaderState) {
        // The key feed is the loader's (input splits make each client's keys themselves): the
        // single-stream path of `step` finds none.
        let feed = self.run.feed.take();
        if ld.spec.partition != Partition::InputSplit {
            ld.feed = feed;
        }
        self.run.loader = Some(Box::new(ld));
    }

    /// The clients' rows: input splits, or the key ranges' bounds and the layout's key groups
    /// from a sample of the keys.
    fn deal_rows(&mut self) -> Result<(), InputError> {
        let n = self.run.sampling.emulated();
        let ld = self.loader_mut();
        ld.dealt = true;
        let clients = ld.clients.len();
        match ld.spec.partition {
            Partition::InputSplit => {
                for (c, cl) in ld.clients.iter_mut().enumerate() {
                    (cl.next, cl.end) = rules::input_split(n, clients as u64, c as u64);
                    cl.done = cl.next == cl.end;
                }
            }
            Partition::KeyRange | Partition::KeyGroup => {
                let count = SAMPLE.min(n);
                let mut sample = Vec::with_capacity(count as usize);
                for i in 0..count {
                    let b = (u128::from(i) * u128::from(n) / u128::from(count)) as u64;
                    let mut key = Vec::new();
                    self.key_of(b, &mut key)?;
                    sample.push(key);
                }
                let ld = self.loader_mut();
                if ld.spec.partition == Partition::KeyRange {
                    ld.bounds = rules::range_bounds(&mut sample, clients);
                } else if let Some(g) = &ld.grouping {
                    ld.groups = rules::key_groups(&sample, g);
                }
            }
            Partition::Shared | Partition::NextRow => {}
        }
        let ld = self.loader_mut();
        let done: Vec<bool> = ld.clients.iter().map(|c| c.done).collect();
        ld.ready.retain(|Reverse((_, c))| !done[*c as usize]);
        Ok(())
    }

    /// [`Engine::step`] with a loader of several clients: one event, or one client's row.
    pub(crate) fn loader_step(&mut self) -> Result<Option<Step>, InputError> {
        if !self.loader_mut().dealt {
            self.deal_rows()?;
        }
        if self.run.draining {
            return Ok(self.drain_step().then_some(Step::Event));
        }
        if self.run.paused {
            if self.idle_step() {
                self.loader_mut().events_since_check = true;
                return Ok(Some(Step::Event));
            }
            return match self.run.ingest_ns {
                Some(_) => Ok(None),
                None => Err(self.duration_too_short()),
            };
        }
        if self.loader_mut().events_since_check {
            self.unpark();
        }
        let next = self.loader_mut().ready.peek().copied();
        let Some(Reverse((clock, c))) = next else {
            return self.no_client_ready();
        };
        let t = clock.max(self.world.now);
        if t > self.run.end_ns {
            return Err(self.duration_too_short());
        }
        if self.world.queue.next_at <= t {
            let ev = self.world.queue.pop().expect("an event is due");
            self.world.now = self.world.now.max(ev.at);
            self.handle(ev.event);
            self.loader_mut().events_since_check = true;
            return Ok(Some(Step::Event));
        }
        let c = c as usize;
        self.loader_mut().ready.pop();
        self.world.now = t;
        let Some(b) = self.next_row_of(c)? else {
            let ld = self.loader_mut();
            ld.clients[c].done = true;
            return Ok(Some(Step::Event));
        };
        self.send(c, b, t)?;
        let done = {
            let ld = self.loader_mut();
            ld.taken += 1;
            ld.taken
        };
        self.do_reads(done);
        Ok(Some(Step::Rows { done }))
    }

    /// No client can send: the rows are all written, or every client waits for an event.
    fn no_client_ready(&mut self) -> Result<Option<Step>, InputError> {
        if self.loader_mut().all_done() {
            self.run.ingest_ns = Some(self.world.now);
            if self.run.end_ns != u64::MAX {
                self.run.paused = true;
                return Ok(self.idle_step().then_some(Step::Event));
            }
            self.run.draining = true;
            return Ok(self.drain_step().then_some(Step::Event));
        }
        if self.world.now > self.run.end_ns {
            return Err(self.duration_too_short());
        }
        if self.advance() {
            self.loader_mut().events_since_check = true;
            return Ok(Some(Step::Event));
        }
        // Nothing scheduled can release a waiting client: its rows are lost (cannot happen
        // while held rows keep their retries scheduled).
        for cl in &mut self.loader_mut().clients {
            cl.done = true;
        }
        Ok(Some(Step::Event))
    }

    fn loader_mut(&mut self) -> &mut LoaderState {
        self.run.loader.as_deref_mut().expect("a loader runs")
    }

    /// The emulated row client `c` sends next, if it has one; its key in `cache.loader_key`.
    fn next_row_of(&mut self, c: usize) -> Result<Option<u64>, InputError> {
        let mut key = std::mem::take(&mut self.cache.loader_key);
        let out = self.next_row_key(c, &mut key);
        self.cache.loader_key = key;
        out
    }

    fn next_row_key(&mut self, c: usize, key: &mut Vec<u8>) -> Result<Option<u64>, InputError> {
        if let Some(p) = self.loader_mut().clients[c].parked {
            // Its parked row (only `send` parks one, and it re-derives the key).
            self.key_of(p.b, key)?;
            return Ok(Some(p.b));
        }
        let part = self.loader_mut().spec.partition;
        match part {
            Partition::InputSplit => {
                let cl = &mut self.loader_mut().clients[c];
                if cl.next >= cl.end {
                    return Ok(None);
                }
                let b = cl.next;
                cl.next += 1;
                self.key_of(b, key)?;
                Ok(Some(b))
            }
            Partition::Shared | Partition::NextRow => {
                let Some(mut feed) = self.loader_mut().feed.take() else {
                    return Ok(None);
                };
                let got = match feed.peek() {
                    Some((b, k)) => {
                        key.clear();
                        key.extend_from_slice(k);
                        feed.advance();
                        Some(b)
                    }
                    None => {
                        let e = feed.error();
                        self.loader_mut().feed = Some(feed);
                        if let Some(e) = e {
                            return Err(e);
                        }
                        // The feed is done: every client is.
                        for cl in &mut self.loader_mut().clients {
                            cl.done = true;
                        }
                        return Ok(None);
                    }
                };
                self.loader_mut().feed = Some(feed);
                Ok(got)
            }
            Partition::KeyRange | Partition::KeyGroup => {
                if let Some(b) = self.loader_mut().clients[c].queue.pop_front() {
                    self.key_of(b, key)?;
                    return Ok(Some(b));
                }
                // Deal the feed's rows to their clients until one is this client's.
                let Some(mut feed) = self.loader_mut().feed.take() else {
                    return Ok(None);
                };
                let mut out = Ok(None);
                loop {
                    let Some((b, k)) = feed.peek() else {
                        if let Some(e) = feed.error() {
                            out = Err(e);
                        }
                        break;
                    };
                    let ld = self.run.loader.as_deref_mut().expect("a loader runs");
                    let owner = ld.client_of(k);
                    if owner == c {
                        key.clear();
                        key.extend_from_slice(k);
                        feed.advance();
                        out = Ok(Some(b));
                        break;
                    }
                    ld.clients[owner].queue.push_back(b);
                    feed.advance();
                }
                self.loader_mut().feed = Some(feed);
                if matches!(out, Ok(None)) {
                    // The feed is done: clients with nothing queued are done too.
                    for cl in &mut self.loader_mut().clients {
                        if cl.queue.is_empty() && cl.parked.is_none() {
                            cl.done = true;
                        }
                    }
                }
                out
            }
        }
    }

    /// The key of emulated row `b`, into `key`.
    fn key_of(&self, b: u64, key: &mut Vec<u8>) -> Result<(), InputError> {
        self.run.generator.key_checked(self.run.sampling.id(b), key)
    }

    /// Client `c` sends row `b` (key in `cache.loader_key`) at `t`: it lands, is held back, or
    /// waits on a blocked server; the client's clock moves on by its loop.
    fn send(&mut self, c: usize, b: u64, t: u64) -> Result<(), InputError> {
        let key = std::mem::take(&mut self.cache.loader_key);
        let weight = self.run.sampling.weight(b);
        let p = prefix8(&key);
        // A server at its global high mark blocks the write in its handlers: the client's row
        // waits there (the client sends nothing else meanwhile).
        let region = self.route(&key, p);
        if self.admission_of(c, region) == Admission::Blocked {
            let server = self.world.state.regions[region].server;
            self.global_pressure(server);
            let ld = self.loader_mut();
            let cl = &mut ld.clients[c];
            match &mut cl.parked {
                Some(p) => p.released = false,
                None => {
                    cl.parked = Some(Parked {
                        b,
                        since: t,
                        released: false,
                    });
                    ld.parked += 1;
                }
            }
            self.cache.loader_key = key;
            return Ok(());
        }
        let parked = {
            let ld = self.loader_mut();
            let cl = &mut ld.clients[c];
            let p = cl.parked.take();
            if p.is_some() {
                ld.parked -= 1;
            }
            p
        };
        if let Some(p) = parked {
            let waited = t - p.since;
            self.loader_mut().clients[c].stats.server_blocked_ns += waited;
            let server = self.world.state.regions[region].server;
            self.world.state.servers[server].blocked_ns += waited;
            self.world.state.regions[region].blocked_ns += waited;
        }
        // A closed-loop request's latency runs from when it was first sent.
        let sent = parked.map_or(t, |p| p.since);
        self.act_as(c, |e| {
            let ld = e.loader_mut();
            ld.landed_busy = 0;
            ld.landed_wait = Default::default();
            ld.stall_now = false;
            e.land_op(b, &key, weight);
        });
        let row_payload = self.cfg.row_payload;
        let rate_fp = self.cfg.rate_fp;
        let row_data = self.cache.row_data;
        let ld = self.loader_mut();
        if ld.rows_per_request == 0 {
            // A closed-loop request's rows, once a row's size is known.
            ld.rows_per_request =
                rules::rows_per_request(ld.spec.buffered, ld.write_buffer, row_data);
        }
        let landed = ld.landed_busy;
        let (wait, gc, bound) = ld.landed_wait;
        let closed = ld.spec.closed;
        let clients = ld.spec.clients;
        let (rpr, request_ns) = (ld.rows_per_request, ld.request_ns);
        let cl = &mut ld.clients[c];
        if landed != 0 {
            cl.stats.rows += weight;
            cl.stats.payload_bytes += weight * row_payload;
            cl.stats.finished_ns = t;
        }
        if closed {
            let cost = rules::closed_cost_fp(weight, request_ns, rpr);
            let (ready, frac) = rules::closed_ready(t, landed, cost, cl.frac);
            cl.clock = ready;
            cl.frac = frac;
            if landed != 0 {
                // A request's latency: the time of its rows, a request's worth at a time.
                cl.req_rows += weight;
                cl.req_ns += ready - sent;
                if cl.req_rows >= rpr {
                    let requests = cl.req_rows / rpr;
                    let us = cl.req_ns / requests / 1000;
                    cl.req_rows = 0;
                    cl.req_ns = 0;
                    ld.record_latency(us, requests);
                }
            }
        } else {
            let step =
                rules::open_step_fp(weight * row_payload, rate_fp, clients) + u128::from(cl.frac);
            cl.clock = t + (step >> 32) as u64;
            cl.frac = step as u32;
            // Its writers run ahead of the server's write path by their buffer, then wait.
            if landed > t + CLIENT_LAG_NS {
                debug_assert_eq!(wait, landed - CLIENT_LAG_NS - t);
                cl.stats.throttled_ns += wait;
                cl.stats.waits.add(wait, gc, bound);
                cl.clock += wait;
            }
        }
        if ld.stall_now {
            ld.clients[c].stalled = Some((t, ld.stall_offline));
        } else {
            ld.ready.push(Reverse((ld.clients[c].clock, c as u32)));
        }
        self.cache.loader_key = key;
        Ok(())
    }

    /// Runs `f` as client `c`: its held-back rows in `State::client` meanwhile.
    pub(crate) fn act_as(&mut self, c: usize, f: impl FnOnce(&mut Engine)) {
        let mine = std::mem::take(&mut self.loader_mut().clients[c].held);
        let idle = std::mem::replace(&mut self.world.state.client, mine);
        self.loader_mut().current = c;
        f(self);
        let mine = std::mem::replace(&mut self.world.state.client, idle);
        self.loader_mut().clients[c].held = mine;
    }

    /// Whether `region` takes client `c`'s row now: as for one client, with the queue behind
    /// held rows being `c`'s own (each client has its own `AsyncProcess`).
    fn admission_of(&self, c: usize, region: usize) -> Admission {
        let ld = self.run.loader.as_deref().expect("a loader runs");
        let held = if ld.current == c {
            &self.world.state.client
        } else {
            &ld.clients[c].held
        };
        self.admission_held(region, held.held.contains_key(&region))
    }

    /// Clients parked on a server whose memstores dropped below the high mark go on.
    fn unpark(&mut self) {
        let ld = self.loader_mut();
        ld.events_since_check = false;
        if ld.parked == 0 {
            return;
        }
        let mut key = std::mem::take(&mut self.cache.loader_key);
        for c in 0..self.loader_mut().clients.len() {
            let Some(p) = self.loader_mut().clients[c].parked else {
                continue;
            };
            if p.released {
                continue;
            }
            if self.key_of(p.b, &mut key).is_err() {
                continue;
            }
            let region = self.route(&key, prefix8(&key));
            if self.admission_of(c, region) != Admission::Blocked {
                let now = self.world.now;
                let ld = self.loader_mut();
                if let Some(p) = &mut ld.clients[c].parked {
                    p.released = true;
                }
                ld.make_ready(c, now);
            }
        }
        self.cache.loader_key = key;
    }

    /// After client `c`'s retry: its writers go on once its buffers have room again (a
    /// closed-loop thread once nothing of its request is held).
    pub(crate) fn after_client_retry(&mut self, c: usize, retried: bool) {
        let now = self.world.now;
        let held = self.world.state.client.held_bytes;
        let ld = self.loader_mut();
        ld.clients[c].stats.retries += u64::from(retried);
        let Some((since, offline)) = ld.clients[c].stalled else {
            return;
        };
        if rules::client_waits(ld.spec.closed, held, ld.writers, ld.write_buffer) {
            return;
        }
        let waited = now - since;
        let cl = &mut ld.clients[c];
        cl.stalled = None;
        if offline {
            cl.stats.stall_offline_ns += waited;
        } else {
            cl.stats.stall_blocked_ns += waited;
        }
        if ld.spec.closed {
            // The request's rows completed when the retry took them.
            let us = (waited + ld.request_ns) / 1000;
            ld.record_latency(us, 1);
        }
        ld.make_ready(c, now);
    }

    /// The current client's writers filled their buffers with held-back rows (or, in a closed
    /// loop, its request was refused): it stops until its retries drain them.
    pub(crate) fn loader_stall(&mut self) {
        let held = self.world.state.client.held_bytes;
        let offline_bytes = self.world.state.client.held_offline_bytes;
        let ld = self.loader_mut();
        if rules::client_waits(ld.spec.closed, held, ld.writers, ld.write_buffer) {
            ld.stall_now = true;
            ld.stall_offline = offline_bytes * 2 >= held;
        }
    }
}

impl Engine {
    /// What the clients did; the run's wait figures become the average client's (each
    /// client's time counts once, so they compare with the ingest time as one client's do).
    pub(crate) fn loader_outcome(&mut self) -> Option<LoaderOutcome> {
        let ld = self.run.loader.take()?;
        let n = ld.clients.len().max(1) as u64;
        let sum = |f: fn(&ClientStats) -> u64| ld.clients.iter().map(|c| f(&c.stats)).sum::<u64>();
        let st = &mut self.world.rec.stats;
        st.blocked_ns = (sum(|c| c.stall_blocked_ns) + sum(|c| c.server_blocked_ns)) / n;
        st.offline_wait_ns = sum(|c| c.stall_offline_ns) / n;
        st.stall_ns = (sum(|c| c.stall_blocked_ns) + sum(|c| c.stall_offline_ns)) / n;
        st.throttled_ns = sum(|c| c.throttled_ns) / n;
        st.server_waits.gc_ns = sum(|c| c.waits.gc_ns) / n;
        for (i, w) in st.server_waits.path_ns.iter_mut().enumerate() {
            *w = ld
                .clients
                .iter()
                .map(|c| c.stats.waits.path_ns[i])
                .sum::<u64>()
                / n;
        }
        let (k, rows) = (self.run.sampling.k, self.run.sampling.rows);
        let clients = ld
            .clients
            .iter()
            .enumerate()
            .map(|(c, cl)| (ld.rows_of(c, k, rows), cl.stats))
            .collect();
        let latency_us = ld
            .latency
            .as_ref()
            .filter(|h| !h.is_empty())
            .map(|h| Latency {
                p50: h.value_at_quantile(0.5),
                p95: h.value_at_quantile(0.95),
                p99: h.value_at_quantile(0.99),
                p999: h.value_at_quantile(0.999),
                max: h.max(),
                mean: h.mean(),
                requests: h.len(),
            });
        Some(LoaderOutcome {
            partition: ld.spec.partition.name(),
            closed: ld.spec.closed,
            writers_per_client: ld.writers,
            rows_per_request: ld.rows_per_request.max(1),
            request_us: ld.spec.request_us,
            clients,
            latency_us,
        })
    }
}

impl LoaderState {
    /// Which rows client `c` writes, in words (`k` real rows per emulated row, `rows` real
    /// rows in all).
    fn rows_of(&self, c: usize, k: u64, rows: u64) -> String {
        let bin = crate::keynotation::to_string_binary;
        match self.spec.partition {
            Partition::Shared | Partition::NextRow => "the next row when ready".to_string(),
            Partition::InputSplit => {
                let (from, to) = (self.split_from(c), self.clients.get(c).map_or(0, |c| c.end));
                let real = |b: u64| (u128::from(b) * u128::from(k)).min(u128::from(rows));
                format!(
                    "input rows {}..{}",
                    crate::units::thousands(real(from)),
                    crate::units::thousands(real(to))
                )
            }
            Partition::KeyRange => {
                let lo = c.checked_sub(1).and_then(|i| self.bounds.get(i));
                let hi = self.bounds.get(c);
                format!(
                    "keys [{}, {})",
                    lo.map_or("start".to_string(), |b| format!("'{}'", bin(b))),
                    hi.map_or("end".to_string(), |b| format!("'{}'", bin(b)))
                )
            }
            Partition::KeyGroup => {
                let n = self.clients.len().max(1);
                let mine: Vec<String> = self
                    .groups
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % n == c)
                    .map(|(_, g)| format!("'{}'", bin(g)))
                    .collect();
                match mine.len() {
                    0 => "no key group".to_string(),
                    1..=3 => format!("key group {}", mine.join(", ")),
                    m => format!("{m} key groups from {}", mine[0]),
                }
            }
        }
    }

    /// The first emulated row of input split `c`.
    fn split_from(&self, c: usize) -> u64 {
        c.checked_sub(1)
            .and_then(|p| self.clients.get(p))
            .map_or(0, |p| p.end)
    }
}

impl LoaderState {
    /// The client that writes `key` (key range or group partitions).
    fn client_of(&self, key: &[u8]) -> usize {
        match self.spec.partition {
            Partition::KeyRange => rules::client_of_range(&self.bounds, key),
            Partition::KeyGroup => match &self.grouping {
                Some(g) => rules::client_of_group(&self.groups, g.group(key), self.clients.len()),
                None => 0,
            },
            _ => 0,
        }
    }
}
