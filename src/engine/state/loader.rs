//! The loader's clients when there are several, or one in a closed loop (`scenario::Loader`):
//! each client's clock, its held-back rows, where its next rows come from, and what it met.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use hdrhistogram::Histogram;

use crate::engine::state::client::ClientState;
use crate::scenario::loader::Loader;

/// One client.
#[derive(Debug, Default)]
pub(crate) struct LoaderClient {
    /// When it sends its next row, ns, and the fraction of a ns carried (32 bits).
    pub(crate) clock: u64,
    pub(crate) frac: u32,
    /// Its held-back rows (in `State::client` while it acts).
    pub(crate) held: ClientState,
    /// Its writers wait for retries since then; the wait counts as offline time if rows held
    /// for offline regions filled most of its buffers then.
    pub(crate) stalled: Option<(u64, bool)>,
    /// Waits for a server at its global high mark since then: the row it holds, and the
    /// server.
    pub(crate) parked: Option<Parked>,
    /// Input split: the next emulated row and the end of its slice.
    pub(crate) next: u64,
    pub(crate) end: u64,
    /// Key range or group: rows the feed dealt it and it has not written, emulated indexes.
    pub(crate) queue: VecDeque<u64>,
    /// Wrote every row it will get.
    pub(crate) done: bool,
    /// Closed loop: rows and time of the request being filled (its latency is recorded once
    /// it holds a request's rows).
    pub(crate) req_rows: u64,
    pub(crate) req_ns: u64,
    /// What it met.
    pub(crate) stats: ClientStats,
}

/// A row waiting on a server whose handlers block writes (`reclaimMemStoreMemory`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Parked {
    /// Emulated row.
    pub(crate) b: u64,
    pub(crate) since: u64,
    /// The server dropped below its mark: the client is ready to send it again.
    pub(crate) released: bool,
}

/// One client's counters.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ClientStats {
    /// Real rows it wrote (accepted), and their payload bytes.
    pub rows: u64,
    pub payload_bytes: u64,
    /// Its writers waited with full buffers for regions too busy, ns.
    pub stall_blocked_ns: u64,
    /// … for offline regions, ns.
    pub stall_offline_ns: u64,
    /// Its rows waited in handlers on a server at its global high mark, ns.
    pub server_blocked_ns: u64,
    /// It waited for the servers' write paths (open loop), ns.
    pub throttled_ns: u64,
    /// `throttled_ns` by cause.
    pub waits: crate::engine::state::server::ServerWaits,
    /// Retries of its held-back rows.
    pub retries: u64,
    /// When it wrote its last row, ns.
    pub finished_ns: u64,
}

/// What the loader's clients did: one entry per client, and (closed loop) its requests'
/// latency.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoaderOutcome {
    /// `Partition::name`.
    pub partition: &'static str,
    /// Each client waits for its request (closed loop).
    pub closed: bool,
    /// Writer threads of each open-loop client.
    pub writers_per_client: u64,
    /// Closed loop: rows a request carries, and a request's assumed time beyond the write
    /// path, µs.
    pub rows_per_request: u64,
    pub request_us: u64,
    /// Per client: which rows it wrote, in words, and what it met.
    pub clients: Vec<(String, ClientStats)>,
    /// Closed loop: request latency percentiles (p50, p95, p99, p99.9, max), µs, the mean,
    /// and the requests counted.
    pub latency_us: Option<Latency>,
}

/// Request latency, µs.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Latency {
    pub p50: u64,
    pub p95: u64,
    pub p99: u64,
    pub p999: u64,
    pub max: u64,
    pub mean: f64,
    pub requests: u64,
}

/// The clients and how rows reach them.
pub(crate) struct LoaderState {
    pub(crate) spec: Loader,
    pub(crate) clients: Vec<LoaderClient>,
    /// Clients ready to send, by (clock, client): neither stalled, parked nor done.
    pub(crate) ready: BinaryHeap<Reverse<(u64, u32)>>,
    /// Key range: the sampled bounds between clients.
    pub(crate) bounds: Vec<Vec<u8>>,
    /// Key group: the groups seen in the sample, sorted, and the layout's grouping.
    pub(crate) groups: Vec<Vec<u8>>,
    pub(crate) grouping: Option<crate::keygen::Grouping>,
    /// Writers of each open-loop client, and each one's write buffer.
    pub(crate) writers: u64,
    pub(crate) write_buffer: u64,
    /// Closed loop: rows a request carries (0 until the first row's size is known), and a
    /// request's time beyond the write path, ns.
    pub(crate) rows_per_request: u64,
    pub(crate) request_ns: u64,
    /// The client acting now (its held rows are in `State::client`).
    pub(crate) current: usize,
    /// The server write path's backlog end after the current client's row landed (0: it did
    /// not land).
    pub(crate) landed_busy: u64,
    /// … and the wait that leaves its writers (open loop), with its GC part and the bound
    /// of the rest.
    pub(crate) landed_wait: (u64, u64, crate::engine::state::server::WriteBound),
    /// The current client's writers filled their buffers (or, closed, a row was held).
    pub(crate) stall_now: bool,
    /// … and rows held for offline regions filled most of them.
    pub(crate) stall_offline: bool,
    /// An event ran since parked clients were last looked at.
    pub(crate) events_since_check: bool,
    /// Clients parked on a server.
    pub(crate) parked: usize,
    /// Request latency, µs, per request (closed loop).
    pub(crate) latency: Option<Histogram<u64>>,
    /// Emulated rows taken so far.
    pub(crate) taken: u64,
    /// The clients' rows are dealt (`Engine::deal_rows`, at the first step).
    pub(crate) dealt: bool,
    /// The rows in input order (the clients that take the next row, or deal rows by key).
    pub(crate) feed: Option<Box<crate::engine::ingest::feed::KeyFeed>>,
}

impl LoaderState {
    /// `clients` fresh clients of `spec`.
    pub(crate) fn new(spec: Loader, writers: u64, write_buffer: u64) -> LoaderState {
        let n = spec.clients as usize;
        let mut ready = BinaryHeap::with_capacity(n);
        for c in 0..n {
            ready.push(Reverse((0, c as u32)));
        }
        LoaderState {
            spec,
            clients: (0..n).map(|_| LoaderClient::default()).collect(),
            ready,
            bounds: Vec::new(),
            groups: Vec::new(),
            grouping: None,
            writers: spec.writers_per_client(writers),
            write_buffer,
            rows_per_request: 0,
            request_ns: spec.request_us.saturating_mul(1000),
            current: 0,
            landed_busy: 0,
            landed_wait: Default::default(),
            stall_now: false,
            stall_offline: false,
            events_since_check: false,
            parked: 0,
            latency: spec.closed.then(|| {
                // 1 µs to an hour at 3 significant digits: a few hundred KB.
                Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds")
            }),
            taken: 0,
            dealt: false,
            feed: None,
        }
    }

    /// Client `c` is ready again at `clock` (or now, if later).
    pub(crate) fn make_ready(&mut self, c: usize, now: u64) {
        let cl = &mut self.clients[c];
        cl.clock = cl.clock.max(now);
        self.ready.push(Reverse((cl.clock, c as u32)));
    }

    /// Every client wrote its rows.
    pub(crate) fn all_done(&self) -> bool {
        self.clients.iter().all(|c| c.done)
    }

    /// Records `count` requests of `us` µs each.
    pub(crate) fn record_latency(&mut self, us: u64, count: u64) {
        if let Some(h) = &mut self.latency {
            // Values past the top are clamped to it, not dropped.
            let _ = h.record_n(us.clamp(1, h.high()), count.max(1));
        }
    }
}
