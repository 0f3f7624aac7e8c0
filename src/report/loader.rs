//! The report's loader section, for a design written by several clients or a closed loop: what
//! each client wrote and waited for, and (closed loop) throughput and request latency as a
//! benchmark reports them.

use serde::{Deserialize, Serialize};

use crate::engine::state::loader::LoaderOutcome;
use crate::units::{format_bytes, format_duration_ms, format_duration_us, thousands};

/// A design's loader when it is not the one shared client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoaderJson {
    /// `next_row`, `input_split`, `key_range` or `key_group`.
    pub partition: String,
    /// Clients (closed loop: threads).
    pub clients: usize,
    /// Each client waits for its request before the next (closed loop).
    pub closed_loop: bool,
    /// Writer threads of each open-loop client (the scenario's writers split among them).
    pub writers_per_client: u64,
    /// Closed loop: rows a request carries, and its assumed time beyond the write path, ms.
    pub rows_per_request: u64,
    /// A closed-loop request's assumed time beyond the servers' write path, ms.
    pub request_ms: f64,
    /// Real rows accepted per second over the ingest (ops/s).
    pub rows_per_second: f64,
    /// The first and the last client to finish its rows, s.
    pub first_done_seconds: f64,
    /// The last client to finish its rows, s.
    pub last_done_seconds: f64,
    /// A client's waits, averaged over the clients (what the run's blocked and offline figures
    /// are), and the most one client waited, s.
    pub mean_wait_seconds: f64,
    /// The most one client waited, s.
    pub max_wait_seconds: f64,
    /// Closed loop: request latency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<LatencyJson>,
    /// Per client.
    pub per_client: Vec<ClientJson>,
}

/// One client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientJson {
    /// Which rows it writes, in words.
    pub writes: String,
    /// Real rows it wrote.
    pub rows: u64,
    /// Their payload bytes per second from the start to its last row.
    pub payload_bytes_per_second: f64,
    /// Its writers waited with full buffers for regions too busy (or, closed loop, its request
    /// waited for a retry), s.
    pub stalled_blocked_seconds: f64,
    /// … for offline regions, s.
    pub stalled_offline_seconds: f64,
    /// Its rows waited in the handlers of a server at its global memstore mark, s.
    pub server_blocked_seconds: f64,
    /// It waited for the servers' write paths (open loop), s.
    pub throttled_seconds: f64,
    /// Retries of its held-back rows.
    pub retries: u64,
    /// When it wrote its last row, s.
    pub done_seconds: f64,
}

/// Closed-loop request latency, ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyJson {
    /// Requests measured.
    pub requests: u64,
    /// Mean, ms.
    pub mean_ms: f64,
    /// Median, ms.
    pub p50_ms: f64,
    /// 95th percentile, ms.
    pub p95_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// 99.9th percentile, ms.
    pub p999_ms: f64,
    /// Slowest, ms.
    pub max_ms: f64,
}

fn secs(ns: u64) -> f64 {
    (ns as f64 / 1e9 * 1000.0).round() / 1000.0
}

fn ms(us: f64) -> f64 {
    (us / 1000.0 * 1000.0).round() / 1000.0
}

/// A client's waits, ns.
fn waited(c: &crate::engine::state::loader::ClientStats) -> u64 {
    c.stall_blocked_ns + c.stall_offline_ns + c.server_blocked_ns
}

/// The section of a run's report; `rows` real rows accepted in `ingest_ns`.
pub fn json(l: &LoaderOutcome, rows: u64, ingest_ns: u64) -> LoaderJson {
    let per_client: Vec<ClientJson> = l
        .clients
        .iter()
        .map(|(writes, c)| ClientJson {
            writes: writes.clone(),
            rows: c.rows,
            payload_bytes_per_second: if c.finished_ns == 0 {
                0.0
            } else {
                (c.payload_bytes as f64 / (c.finished_ns as f64 / 1e9)).round()
            },
            stalled_blocked_seconds: secs(c.stall_blocked_ns),
            stalled_offline_seconds: secs(c.stall_offline_ns),
            server_blocked_seconds: secs(c.server_blocked_ns),
            throttled_seconds: secs(c.throttled_ns),
            retries: c.retries,
            done_seconds: secs(c.finished_ns),
        })
        .collect();
    let done = l
        .clients
        .iter()
        .filter(|c| c.1.rows > 0)
        .map(|c| c.1.finished_ns);
    let n = l.clients.len().max(1) as u64;
    LoaderJson {
        partition: l.partition.to_string(),
        clients: l.clients.len(),
        closed_loop: l.closed,
        writers_per_client: l.writers_per_client,
        rows_per_request: l.rows_per_request,
        request_ms: l.request_us as f64 / 1000.0,
        rows_per_second: if ingest_ns == 0 {
            0.0
        } else {
            (rows as f64 / (ingest_ns as f64 / 1e9)).round()
        },
        first_done_seconds: secs(done.clone().min().unwrap_or(0)),
        last_done_seconds: secs(done.max().unwrap_or(0)),
        mean_wait_seconds: secs(l.clients.iter().map(|c| waited(&c.1)).sum::<u64>() / n),
        max_wait_seconds: secs(l.clients.iter().map(|c| waited(&c.1)).max().unwrap_or(0)),
        latency: l.latency_us.map(|h| LatencyJson {
            requests: h.requests,
            mean_ms: ms(h.mean),
            p50_ms: ms(h.p50 as f64),
            p95_ms: ms(h.p95 as f64),
            p99_ms: ms(h.p99 as f64),
            p999_ms: ms(h.p999 as f64),
            max_ms: ms(h.max as f64),
        }),
        per_client,
    }
}

fn d(s: f64) -> String {
    format_duration_ms((s * 1000.0).round() as u64)
}

fn lat(ms: f64) -> String {
    format_duration_us((ms * 1000.0).round() as u64)
}

/// The loader in one phrase (`check`, the comparison's qualifier).
pub fn describe(l: &LoaderJson) -> String {
    let what = match l.partition.as_str() {
        "input_split" => "each writing its slice of the input",
        "key_range" => "each writing its key range",
        "key_group" => "each writing its key groups",
        _ => "each taking the next row",
    };
    if l.closed_loop {
        format!(
            "{} closed-loop threads {what}, {} row(s) per request, request time {} (assumed)",
            l.clients,
            thousands(u128::from(l.rows_per_request)),
            lat(l.request_ms)
        )
    } else {
        format!(
            "{} clients {what}, {} writer(s) each",
            l.clients, l.writers_per_client
        )
    }
}

/// Why several clients wait differently from one shared client.
pub const WHY: &str = "each client has its own buffers and retries: a region that refuses rows \
                       stops only the clients that write it, while the others go on (one \
                       shared client stops all its writers once that region's held rows fill \
                       the shared buffers)";

/// The closed loop's answer in a phrase, for the verdict: throughput and tail latency.
pub fn verdict_phrase(l: &LoaderJson) -> Option<String> {
    let t = l.latency.as_ref()?;
    Some(format!(
        "{} closed-loop threads wrote {} rows/s, request latency p50 {}, p99 {} (request time \
         assumed)",
        l.clients,
        thousands(l.rows_per_second as u128),
        lat(t.p50_ms),
        lat(t.p99_ms)
    ))
}

/// Clients shown in the text report's table: the ones that waited most.
const SHOWN: usize = 8;

/// Clients ordered by how long they waited, most first (ties by index).
fn by_wait(l: &LoaderJson) -> Vec<(usize, &ClientJson)> {
    let mut v: Vec<(usize, &ClientJson)> = l.per_client.iter().enumerate().collect();
    let w = |c: &ClientJson| {
        c.stalled_blocked_seconds + c.stalled_offline_seconds + c.server_blocked_seconds
    };
    v.sort_by(|a, b| w(b.1).total_cmp(&w(a.1)).then(a.0.cmp(&b.0)));
    v
}

/// The text report's lines.
pub fn text(o: &mut String, l: &LoaderJson) {
    o.push_str(&format!("  loader: {}\n", describe(l)));
    if l.clients > 1 {
        o.push_str(&format!("      {WHY}\n"));
    }
    o.push_str(&format!(
        "      {} rows/s over the ingest; clients finished between {} and {}; a client waited \
         {} on average (blocked and offline figures above are this average), at most {}\n",
        thousands(l.rows_per_second as u128),
        d(l.first_done_seconds),
        d(l.last_done_seconds),
        d(l.mean_wait_seconds),
        d(l.max_wait_seconds),
    ));
    if let Some(t) = &l.latency {
        o.push_str(&format!(
            "      request latency over {} requests: mean {}, p50 {}, p95 {}, p99 {}, p99.9 {}, \
             max {} (the request time is assumed, [client] request_time; latency adds the \
             servers' write-path queueing, GC pauses and retries, not network or handler \
             jitter)\n",
            thousands(u128::from(t.requests)),
            lat(t.mean_ms),
            lat(t.p50_ms),
            lat(t.p95_ms),
            lat(t.p99_ms),
            lat(t.p999_ms),
            lat(t.max_ms),
        ));
    }
    let shown = by_wait(l);
    let n = shown.len().min(SHOWN);
    o.push_str(&format!(
        "      the {n} of {} clients that waited most (writes; rows; payload/s; stalled blocked / offline; blocked in a server; throttled; retries; done):\n",
        l.clients
    ));
    for (i, c) in shown.into_iter().take(SHOWN) {
        o.push_str(&format!(
            "        #{i:<4} {}; {} rows; {}/s; {} / {}; {}; {}; {} retries; done {}\n",
            c.writes,
            thousands(u128::from(c.rows)),
            format_bytes(c.payload_bytes_per_second as u64),
            d(c.stalled_blocked_seconds),
            d(c.stalled_offline_seconds),
            d(c.server_blocked_seconds),
            d(c.throttled_seconds),
            thousands(u128::from(c.retries)),
            d(c.done_seconds),
        ));
    }
}

/// The HTML page's loader table.
pub fn html(o: &mut String, l: &LoaderJson) {
    use std::fmt::Write as _;
    let esc = crate::report::svg::esc;
    o.push_str("<h3>Loader</h3>\n");
    let _ = writeln!(o, "<p>{}</p>", esc(&describe(l)));
    if l.clients > 1 {
        let _ = writeln!(o, "<p>{}</p>", esc(WHY));
    }
    let _ = writeln!(
        o,
        "<p>{} rows/s over the ingest; clients finished between {} and {}; a client waited {} \
         on average (the blocked and offline figures are this average), at most {}.</p>",
        thousands(l.rows_per_second as u128),
        d(l.first_done_seconds),
        d(l.last_done_seconds),
        d(l.mean_wait_seconds),
        d(l.max_wait_seconds)
    );
    if let Some(t) = &l.latency {
        let _ = writeln!(
            o,
            "<p>Request latency over {} requests: mean {}, p50 {}, p95 {}, p99 {}, p99.9 {}, \
             max {} (request time assumed).</p>",
            thousands(u128::from(t.requests)),
            lat(t.mean_ms),
            lat(t.p50_ms),
            lat(t.p95_ms),
            lat(t.p99_ms),
            lat(t.p999_ms),
            lat(t.max_ms)
        );
    }
    o.push_str(
        "<table><tr><th>client</th><th>writes</th><th>rows</th><th>payload/s</th>\
         <th>stalled (blocked)</th><th>stalled (offline)</th><th>blocked in a server</th>\
         <th>throttled</th><th>retries</th><th>done</th></tr>\n",
    );
    for (i, c) in by_wait(l) {
        let _ = writeln!(
            o,
            "<tr><td>{i}</td><td>{}</td><td>{}</td><td>{}/s</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&c.writes),
            thousands(u128::from(c.rows)),
            format_bytes(c.payload_bytes_per_second as u64),
            d(c.stalled_blocked_seconds),
            d(c.stalled_offline_seconds),
            d(c.server_blocked_seconds),
            d(c.throttled_seconds),
            thousands(u128::from(c.retries)),
            d(c.done_seconds)
        );
    }
    o.push_str("</table>\n");
}
