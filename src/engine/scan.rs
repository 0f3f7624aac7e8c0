//! The read side of a rowkey design: what the scans an operator runs over the table cost on the
//! run's final region layout: how many client scans, regions, servers and RPCs.
//!
//! Two scans are priced from the generator's own keys:
//! - a **time-range scan** per `[client] scan_windows` entry: the rows written in the last window
//!   of the ingest. Where the design keeps ingest order under a prefix (a salt bucket, an
//!   entity), the client runs one range scan per prefix, as it does over a salted table; with
//!   keys in ingest order it is one range; a design without key locality (hashed, random) needs a
//!   full-table scan with `Scan.setTimeRange`, which still opens every region.
//! - a **prefix scan** (designs with a prefix only): all rows of one prefix, averaged over the
//!   prefixes the table holds.
//!
//! RPCs follow the HBase 2.x client (`ClientScanner`, `ScannerCallable`): per region a scanner
//! is opened by an RPC that already returns the first batch; each further `next` RPC returns
//! another; the server closes the scanner with the region's last row (`moreResultsInRegion =
//! false`), so no close RPC is sent. See [`rows_per_rpc`].

use std::collections::{BTreeMap, BTreeSet};

use crate::config::ClientSettings;
use crate::keygen::rng::splitmix64;
use crate::keygen::{Generator, ScanLocality};
use crate::workload::scale::Sampling;

use super::RegionResult;
use super::ingest::route::Router;

/// Keys computed per priced scan at most: a larger window is sampled evenly (one emulated row
/// drawn from each run of n, standing for the real rows of that run).
pub const MAX_SAMPLED_KEYS: u64 = 1 << 18;

/// What the scans of one run cost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScanFanout {
    /// How the design's keys hold a time window (`None`: nothing priced).
    pub locality: Option<ScanLocality>,
    /// Bytes of one row as a scanner returns it (its cells' data size).
    pub row_bytes: u64,
    /// Rows one scanner RPC returns.
    pub rows_per_rpc: u64,
    /// One per `[client] scan_windows` entry, in the scenario's order.
    pub windows: Vec<ScanCost>,
    /// One prefix's scan, averaged over the prefixes (designs with a prefix only).
    pub prefix: Option<PrefixScanCost>,
}

/// The cost of one time-range scan.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ScanCost {
    /// The window, ms before the end of the ingest.
    pub window_ms: u64,
    /// Real rows written in the window.
    pub rows: u64,
    /// Keys computed to place them (fewer than the emulated rows when sampled).
    pub sampled_keys: u64,
    /// Range scans the client runs (one per prefix; 1 for a full scan).
    pub scans: u64,
    /// Distinct regions the scans open scanners on.
    pub regions: u64,
    /// Distinct servers hosting those regions.
    pub servers: u64,
    /// Scanner RPCs in all.
    pub rpcs: u64,
    /// A full-table scan (no key locality).
    pub full_scan: bool,
}

/// One prefix's scan over the whole table, averaged over the prefixes written.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PrefixScanCost {
    /// Distinct prefixes seen.
    pub prefixes: u64,
    /// Mean real rows of one prefix.
    pub rows: f64,
    /// Mean regions one prefix scan opens.
    pub regions: f64,
    /// Mean servers it reaches.
    pub servers: f64,
    /// Mean RPCs it costs.
    pub rpcs: f64,
    /// Regions of the prefix that spans most.
    pub max_regions: u64,
}

/// Rows one scanner RPC returns: the client asks for `hbase.client.scanner.caching` rows; the
/// server stops a batch once its bytes reach the smaller of the client's
/// `hbase.client.scanner.max.result.size` and its own `hbase.server.scanner.max.result.size`
/// (`RSRpcServices.scan`, `ScannerContext.checkSizeLimit`), checked after each row, so the row
/// that reaches the limit is still sent.
pub fn rows_per_rpc(client: &ClientSettings, row_bytes: u64) -> u64 {
    let limit = client
        .scanner_max_result_size
        .min(client.server_scanner_max_result_size);
    limit
        .div_ceil(row_bytes.max(1))
        .min(u64::from(client.scanner_caching))
        .max(1)
}

/// Scanner RPCs for `rows` rows of one region: the open returns the first batch, each `next`
/// another; a region with no matching row still costs the open.
pub fn region_rpcs(rows: u64, per_rpc: u64) -> u64 {
    rows.div_ceil(per_rpc.max(1)).max(1)
}

/// What the pricing reads from a finished run.
pub struct ScanInputs<'a> {
    /// The design.
    pub generator: &'a Generator,
    /// Its emulated rows.
    pub sampling: Sampling,
    /// The final regions in key order.
    pub regions: &'a [RegionResult],
    /// Real rows accepted per minute per server ([`super::WINDOW_NS`] windows).
    pub minutes: &'a [Vec<u64>],
    /// The ingest's end, ns.
    pub ingest_ns: u64,
    /// Bytes of one row as returned.
    pub row_bytes: u64,
    /// The client's scanner settings.
    pub client: &'a ClientSettings,
    /// `[client] scan_windows`, ms.
    pub windows_ms: &'a [u64],
}

/// Prices the scans of a finished run.
pub fn fanout(inp: &ScanInputs<'_>) -> ScanFanout {
    let locality = inp.generator.layout().scan_locality();
    let per_rpc = rows_per_rpc(inp.client, inp.row_bytes);
    let mut out = ScanFanout {
        locality: Some(locality),
        row_bytes: inp.row_bytes,
        rows_per_rpc: per_rpc,
        ..ScanFanout::default()
    };
    if inp.regions.is_empty() || inp.sampling.rows == 0 {
        return out;
    }
    for &w in inp.windows_ms {
        let rows = rows_in_last(inp.minutes, inp.ingest_ns, w.saturating_mul(1_000_000))
            .min(inp.sampling.rows);
        let placed = place(inp, locality, inp.sampling.rows - rows);
        let mut cost = placed.window_cost(inp.regions, per_rpc);
        cost.window_ms = w;
        cost.rows = rows;
        out.windows.push(cost);
    }
    if !matches!(locality, ScanLocality::Ordered | ScanLocality::Scattered) {
        out.prefix = Some(place(inp, locality, 0).prefix_cost(inp.regions, per_rpc));
    }
    out
}

/// Real rows accepted in the last `window_ns` before `end_ns`; a minute partly inside counts
/// in proportion (rows taken as even over the minute, the last one ending at `end_ns`).
fn rows_in_last(minutes: &[Vec<u64>], end_ns: u64, window_ns: u64) -> u64 {
    let from = end_ns.saturating_sub(window_ns) as u128;
    let end = end_ns as u128;
    let minute = u128::from(super::WINDOW_NS);
    let mut rows = 0u128;
    for (i, m) in minutes.iter().enumerate() {
        let (a, b) = (i as u128 * minute, (i as u128 + 1) * minute);
        let (lo, hi) = (a.max(from), b.min(end));
        if hi > lo {
            let n: u128 = m.iter().map(|&x| u128::from(x)).sum();
            rows += n * (hi - lo) / (hi.max(b.min(end)) - a);
        }
    }
    rows as u64
}

/// The rows of one prefix (or of the whole window): the span of regions its range covers and
/// its rows per region.
#[derive(Debug)]
struct Group {
    lo: usize,
    hi: usize,
    rows: BTreeMap<usize, u64>,
}

/// A group while keys are placed: its prefix and its (region, rows) runs in key arrival order.
struct Seen {
    prefix: Vec<u8>,
    runs: Vec<(usize, u64)>,
}

/// The window's rows placed on the regions, per prefix group.
struct Placed {
    groups: BTreeMap<Vec<u8>, Group>,
    sampled: u64,
    full_scan: bool,
}

/// Places the real rows from row `skip` of the workload to its end (ids written in that order)
/// on the regions, grouped by `locality`.
fn place(inp: &ScanInputs<'_>, locality: ScanLocality, skip: u64) -> Placed {
    let s = inp.sampling;
    let (first_block, blocks) = (skip / s.k, s.emulated());
    let n = blocks - first_block;
    let stride = n.div_ceil(MAX_SAMPLED_KEYS).max(1);
    // One block drawn from each run of `stride` (stratified, as the scale's sampling is), so
    // a stride never aliases with an `id mod N` layout (partition, modulo).
    let ids: Vec<u64> = (first_block..blocks)
        .step_by(stride as usize)
        .map(|b0| {
            let span = stride.min(blocks - b0);
            s.id(b0 + splitmix64(s.seed ^ 0x5CA7_F00D ^ b0) % span)
        })
        .collect();
    // Real rows each sample stands for: its blocks', less the part of the first before `skip`.
    let weight = |i: usize| -> u64 {
        let b0 = first_block + i as u64 * stride;
        let b1 = (b0 + stride).min(blocks);
        let lo = (b0 * s.k).max(skip);
        let hi = (b1 * s.k).min(s.rows);
        hi.saturating_sub(lo)
    };
    // The write path's router over the final regions: its bounds cache keeps each prefix's
    // (salt bucket's, entity's) current region, as it does for the rows while they are written.
    let starts: Vec<Vec<u8>> = inp.regions.iter().map(|r| r.start.clone()).collect();
    let mut router = Router::over(&starts);
    // Groups in first-seen order, found by prefix, each collecting (region, rows) runs, summed
    // into a map once at the end.
    let mut found: Vec<Seen> = Vec::new();
    let mut index: BTreeMap<Vec<u8>, usize> = BTreeMap::new();
    let mut last_group: Option<usize> = None;
    let mut i = 0usize;
    inp.generator.keys_of(&ids, &mut |_, key| {
        let prefix = locality.group(key).unwrap_or(&[]);
        let gi = match last_group {
            Some(g) if found[g].prefix == prefix => g,
            _ => *index.entry(prefix.to_vec()).or_insert_with(|| {
                found.push(Seen {
                    prefix: prefix.to_vec(),
                    runs: Vec::new(),
                });
                found.len() - 1
            }),
        };
        last_group = Some(gi);
        let r = router.route_key(key);
        let w = weight(i);
        let runs = &mut found[gi].runs;
        match runs.last_mut() {
            Some((lr, n)) if *lr == r => *n += w,
            _ => runs.push((r, w)),
        }
        i += 1;
    });
    let mut groups: BTreeMap<Vec<u8>, Group> = BTreeMap::new();
    for Seen {
        prefix, mut runs, ..
    } in found
    {
        runs.sort_unstable_by_key(|&(r, _)| r);
        let mut rows = BTreeMap::new();
        for (r, n) in runs {
            *rows.entry(r).or_insert(0) += n;
        }
        let (lo, hi) = (
            *rows.keys().next().expect("a group has a row"),
            *rows.keys().next_back().expect("a group has a row"),
        );
        groups.insert(prefix, Group { lo, hi, rows });
    }
    let full_scan = locality == ScanLocality::Scattered;
    if full_scan && let Some(g) = groups.values_mut().next() {
        // No key locality: the client scans the whole table and the server filters by time.
        g.lo = 0;
        g.hi = inp.regions.len() - 1;
    }
    Placed {
        groups,
        sampled: ids.len() as u64,
        full_scan,
    }
}

impl Placed {
    fn window_cost(&self, regions: &[RegionResult], per_rpc: u64) -> ScanCost {
        let (mut touched, mut servers, mut rpcs) = (BTreeSet::new(), BTreeSet::new(), 0u64);
        for g in self.groups.values() {
            for (r, region) in regions.iter().enumerate().take(g.hi + 1).skip(g.lo) {
                touched.insert(r);
                servers.insert(region.server);
                rpcs += region_rpcs(g.rows.get(&r).copied().unwrap_or(0), per_rpc);
            }
        }
        ScanCost {
            sampled_keys: self.sampled,
            scans: self.groups.len() as u64,
            regions: touched.len() as u64,
            servers: servers.len() as u64,
            rpcs,
            full_scan: self.full_scan,
            ..ScanCost::default()
        }
    }

    fn prefix_cost(&self, regions: &[RegionResult], per_rpc: u64) -> PrefixScanCost {
        let n = self.groups.len().max(1) as f64;
        let mut c = PrefixScanCost {
            prefixes: self.groups.len() as u64,
            ..PrefixScanCost::default()
        };
        for g in self.groups.values() {
            let servers: BTreeSet<usize> = (g.lo..=g.hi).map(|r| regions[r].server).collect();
            c.rows += g.rows.values().sum::<u64>() as f64 / n;
            c.regions += (g.hi - g.lo + 1) as f64 / n;
            c.servers += servers.len() as f64 / n;
            c.rpcs += (g.lo..=g.hi)
                .map(|r| region_rpcs(g.rows.get(&r).copied().unwrap_or(0), per_rpc))
                .sum::<u64>() as f64
                / n;
            c.max_regions = c.max_regions.max((g.hi - g.lo + 1) as u64);
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(caching: u32, max_result: u64) -> ClientSettings {
        ClientSettings {
            write_buffer: 2 << 20,
            pause_ms: 100,
            retries: 15,
            operation_timeout_ms: 1_200_000,
            max_total_tasks: 100,
            max_perserver_tasks: 2,
            max_perregion_tasks: 1,
            handlers: 30,
            replication: 3,
            scanner_caching: caching,
            scanner_max_result_size: max_result,
            server_scanner_max_result_size: 100 << 20,
        }
    }

    /// Mirrors `RSRpcServices.scan` with `ScannerContext.checkSizeLimit` (checked after each
    /// row) and `ClientScanner`'s caching: HBase 2.x defaults (caching Integer.MAX_VALUE,
    /// `hbase.client.scanner.max.result.size` 2 MB) let the size decide.
    #[test]
    fn rows_per_rpc_follow_caching_and_max_result_size() {
        // 2 MB / 1000-byte rows: the 2098th row reaches the limit and is still sent.
        assert_eq!(rows_per_rpc(&client(i32::MAX as u32, 2 << 20), 1000), 2098);
        assert_eq!(rows_per_rpc(&client(100, 2 << 20), 1000), 100);
        // A row larger than the limit is sent alone.
        assert_eq!(rows_per_rpc(&client(i32::MAX as u32, 1024), 5000), 1);
        // The server's own cap wins over a larger client request.
        let mut c = client(i32::MAX as u32, 1 << 30);
        c.server_scanner_max_result_size = 1 << 20;
        assert_eq!(rows_per_rpc(&c, 1024), 1024);
    }

    /// Mirrors `ScannerCallable`: the open RPC returns the first batch and the server closes
    /// the scanner with the region's last row (no close RPC); an empty region costs the open.
    #[test]
    fn region_rpcs_piggyback_open_and_close() {
        assert_eq!(region_rpcs(0, 100), 1);
        assert_eq!(region_rpcs(100, 100), 1);
        assert_eq!(region_rpcs(101, 100), 2);
    }

    #[test]
    fn rows_in_last_prorates_the_partial_minute() {
        let m = super::super::WINDOW_NS;
        let minutes = vec![vec![60, 0], vec![30, 30], vec![10, 20]];
        // The ingest ends half-way through minute 2.
        let end = 2 * m + m / 2;
        assert_eq!(rows_in_last(&minutes, end, m / 4), 15);
        assert_eq!(rows_in_last(&minutes, end, m), 30 + 30);
        assert_eq!(rows_in_last(&minutes, end, 10 * m), 60 + 60 + 30);
    }
}
