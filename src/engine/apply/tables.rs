//! The cluster's other tables (`[[other_table]]`): their regions open beside the designed
//! table's on the same servers, and their writes arrive as a stream of their own on the
//! simulated clock, so the servers' memstore heap, WAL, flush queue, compaction pools and write
//! path, and the balancer, see the whole cluster.
//!
//! Each other table's key space is the 8-byte big-endian integers, split evenly into its
//! regions at the start; its rows are uniform over that space (a pure function of seed, table
//! and row number), each of the run's K real rows (`--scale`), the designed table's row shape.

use crate::engine::decision::{Decision, FlushWhy};
use crate::engine::ingest::route::{Router, prefix8};
use crate::engine::policy;
use crate::engine::policy::client::Refusal;
use crate::engine::policy::write::{Admission, RegionWrite};
use crate::engine::queue::{Event, NS_PER_MS, NS_PER_S};
use crate::engine::state::cell;
use crate::engine::state::memstore::Put;
use crate::engine::{Engine, FamilyPut, TableResult};
use crate::keygen::rng::splitmix64;
use crate::scenario::tables::OtherTable;

/// Bytes of an other table's row key.
pub(crate) const OTHER_KEY_LEN: usize = 8;

/// Counters of one table (index 0 the designed table), for the report's `tables` section.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TableCounts {
    pub flushes: u64,
    pub compactions: u64,
    pub splits: u64,
}

/// One other table's write stream.
#[derive(Debug, Clone)]
pub(crate) struct OtherStream {
    pub name: String,
    /// Payload bytes per second (0: idle, no events).
    pub rate: u64,
    /// Emulated rows written so far.
    pub rows: u64,
    /// Real rows written so far.
    pub real_rows: u64,
    /// Data bytes written per server.
    pub server_bytes: Vec<u64>,
    /// Time its writers waited on a refused or blocked region, ns.
    pub held_ns: u64,
    /// An imported table's region start keys: each row picks one uniformly and writes under it
    /// (an imported key space is not the 8-byte space the synthetic tables write over). Empty
    /// for a table sized by `regions`.
    pub starts: Vec<Vec<u8>>,
    /// Read requests per second (gets, plus scans × rows a scan reads) and the fraction of a
    /// request carried to the next interval.
    pub reads_per_s: f64,
    pub read_carry: f64,
}

/// The other tables' streams and every table's counters.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tables {
    /// `streams[t - 1]` for table `t`.
    pub streams: Vec<OtherStream>,
    /// `counts[t]` for table `t` (0: the designed table).
    pub counts: Vec<TableCounts>,
    /// What one real row of an other table adds to each family (8-byte keys).
    puts: Vec<FamilyPut>,
    /// WAL bytes of one real row of an other table.
    wal_row: u64,
    /// Payload bytes of one real row.
    row_payload: u64,
    /// The designed table's name.
    main_name: String,
    /// Regions each other table opened with.
    regions_start: Vec<usize>,
}

/// Longest key an imported other table's row gets (its region's start, cut, plus 8 bytes).
const IMPORTED_KEY_MAX: usize = 256;

/// The start key of region `i` of `n` over the 8-byte key space (empty for the first).
pub(crate) fn region_start(i: u64, n: u64) -> Vec<u8> {
    if i == 0 {
        return Vec::new();
    }
    let step = u128::from(u64::MAX) + 1;
    ((step * u128::from(i) / u128::from(n)) as u64)
        .to_be_bytes()
        .to_vec()
}

/// The key of emulated row `n` of table `t`: uniform over the 8-byte key space.
pub(crate) fn row_key(seed: u64, t: u16, n: u64) -> [u8; OTHER_KEY_LEN] {
    splitmix64(seed ^ splitmix64(0x07AB_1E00 ^ u64::from(t)) ^ n.wrapping_mul(0x9E37_79B9))
        .to_be_bytes()
}

/// When emulated row `n` (from 0) of a stream of `k` real rows each arrives at `rate` payload
/// bytes/s: exact in 128 bits, so the stream never drifts.
pub(crate) fn arrival_ns(n: u64, k: u64, row_payload: u64, rate: u64) -> u64 {
    let bytes = u128::from(n + 1) * u128::from(k) * u128::from(row_payload);
    (bytes * u128::from(NS_PER_S) / u128::from(rate.max(1))).min(u128::from(u64::MAX)) as u64
}

impl Engine {
    /// Opens the other tables' regions (round-robin over the servers, continuing where the
    /// previous table stopped, as a round-robin assignment of the whole cluster would) with
    /// their store files, and schedules each busy table's first write.
    pub(crate) fn open_other_tables(
        &mut self,
        main_name: &str,
        others: &[OtherTable],
        imported_servers: &[String],
    ) {
        self.world.tables.main_name = main_name.to_string();
        let families = self.cfg.shapes.len();
        self.world.tables.counts = vec![TableCounts::default(); others.len() + 1];
        let servers = self.world.state.servers.len().max(1);
        let mut next = self.world.state.routing.len();
        for (i, o) in others.iter().enumerate() {
            let t = (i + 1) as u16;
            self.world.state.tables.push(Router::new());
            let mut starts = Vec::new();
            if let Some(imp) = &o.imported {
                // As imported: each region on its server (one server list for every import).
                for r in &imp.regions {
                    let server = imported_servers
                        .binary_search(&r.server)
                        .unwrap_or(0)
                        .min(servers - 1);
                    let id =
                        self.open_region(r.start.clone(), r.end.clone(), server, 0, None, families);
                    self.world.state.regions[id].table = t;
                    self.world.state.tables[i].push(r.start.clone(), id);
                    self.load_imported(id, r.store_bytes, r.store_files);
                    starts.push(r.start.clone());
                }
            } else {
                for r in 0..o.regions {
                    let start = region_start(r, o.regions);
                    let end = if r + 1 == o.regions {
                        Vec::new()
                    } else {
                        region_start(r + 1, o.regions)
                    };
                    let server = next % servers;
                    next += 1;
                    let id = self.open_region(start.clone(), end, server, 0, None, families);
                    self.world.state.regions[id].table = t;
                    self.world.state.tables[i].push(start, id);
                    self.load_imported(id, o.region_bytes, o.store_files);
                }
            }
            self.world.tables.regions_start.push(o.regions as usize);
            self.world.tables.streams.push(OtherStream {
                name: o.name.clone(),
                rate: o.write_rate,
                rows: 0,
                real_rows: 0,
                server_bytes: vec![0; self.world.state.servers.len()],
                held_ns: 0,
                starts,
                reads_per_s: o.gets_per_s + o.scans_per_s * o.scan_rows as f64,
                read_carry: 0.0,
            });
        }
        self.set_other_row_shape();
        for t in 1..=others.len() {
            self.schedule_table_write(t as u16);
        }
    }

    /// Per-family sizes of an other table's row (8-byte keys, the designed table's columns).
    fn set_other_row_shape(&mut self) {
        let cfg = &self.cfg;
        let tb = &mut self.world.tables;
        tb.puts.clear();
        tb.wal_row = 0;
        for (&cells, &family_len) in cfg.cells_per_family.iter().zip(&cfg.family_lens) {
            let size = cell::data_size(
                OTHER_KEY_LEN as u64,
                family_len,
                cfg.qualifier_len,
                cfg.value_len,
            );
            tb.puts.push(FamilyPut {
                cells,
                data: cells * size,
                heap: cells * cell::heap_size(size, cfg.layout),
            });
            tb.wal_row += cells * cell::wal_entry_size(size);
        }
        tb.row_payload = cfg.row_payload;
    }

    /// The other tables' reads of one timeline interval (`sample_ns`): their rate × the interval
    /// in whole requests (the fraction carried), spread evenly over each table's live regions
    /// (the remainder to the next ones in key order, in turn). Counted on the regions (the balancer's
    /// read cost) and their servers; reads change no data.
    pub(crate) fn other_table_reads(&mut self) {
        let dt = self.world.rec.sample_ns as f64 / 1e9;
        for ti in 0..self.world.tables.streams.len() {
            let s = &mut self.world.tables.streams[ti];
            if s.reads_per_s <= 0.0 {
                continue;
            }
            let want = s.reads_per_s * dt + s.read_carry;
            let whole = want.floor();
            s.read_carry = want - whole;
            let total = whole as u64;
            let n = self.world.state.tables[ti].ids().count() as u64;
            if n == 0 || total == 0 {
                continue;
            }
            // The remainder's requests go to the next regions in turn, interval after interval.
            let turn = self.world.rec.samples.len() as u64;
            for (k, id) in self.world.state.tables[ti].ids().enumerate() {
                let share = total / n + u64::from((k as u64 + n - turn % n) % n < total % n);
                let r = &mut self.world.state.regions[id];
                r.read_requests += share;
                self.world.state.servers[r.server].read_requests += share;
            }
        }
    }

    /// Schedules table `t`'s next row at its arrival time (at once when it is behind).
    fn schedule_table_write(&mut self, t: u16) {
        let s = &self.world.tables.streams[usize::from(t) - 1];
        if s.rate == 0 || self.run.draining {
            return;
        }
        let at = arrival_ns(
            s.rows,
            self.cfg.scale,
            self.world.tables.row_payload,
            s.rate,
        );
        self.world
            .queue
            .push(at.max(self.world.now), Event::TableWrite { table: t });
    }

    /// Table `t`'s next row arrives: it lands in its region, or waits the client's pause when
    /// the region is offline, over its blocking size, or its server over the global high mark
    /// (as the designed table's writers would).
    pub(crate) fn table_write(&mut self, t: u16) {
        if self.run.draining {
            // Their load runs beside the designed table's and stops with it.
            return;
        }
        let ti = usize::from(t) - 1;
        let random = row_key(self.cfg.seed, t, self.world.tables.streams[ti].rows);
        let starts = &self.world.tables.streams[ti].starts;
        let mut key = [0u8; IMPORTED_KEY_MAX];
        let key: &[u8] = if starts.is_empty() {
            &random
        } else {
            // A start key, then the random bytes: inside that region's range (unless its end
            // is the start plus a zero byte, where it falls just past it).
            let pick = &starts[(u64::from_be_bytes(random) % starts.len() as u64) as usize];
            let n = pick.len().min(IMPORTED_KEY_MAX - OTHER_KEY_LEN);
            key[..n].copy_from_slice(&pick[..n]);
            key[n..n + OTHER_KEY_LEN]
                .copy_from_slice(&splitmix64(u64::from_be_bytes(random)).to_be_bytes());
            &key[..n + OTHER_KEY_LEN]
        };
        let region = self.world.state.tables[ti].route(key, prefix8(key));
        let r = &self.world.state.regions[region];
        let server = r.server;
        let server_heap = self.world.state.servers[server].memstore_heap;
        // These writers keep no held-back queue: a refused row waits the client's pause.
        let view = RegionWrite {
            held_behind: false,
            ..RegionWrite::of(r)
        };
        let admission = policy::write::admission(view, server_heap, &self.write_limits());
        if admission != Admission::Take {
            if admission == Admission::Refused(Refusal::TooBusy) {
                self.apply(Decision::Flush {
                    region,
                    why: FlushWhy::Blocking,
                });
            }
            // Too busy, the server may be at its high mark as well.
            if self.cfg.global.blocks(server_heap) {
                self.global_pressure(server);
            }
            let pause = self.cfg.settings.client.pause_ms.max(1) * NS_PER_MS;
            self.world.tables.streams[ti].held_ns += pause;
            self.world
                .queue
                .push(self.world.now + pause, Event::TableWrite { table: t });
            return;
        }
        self.apply_table_write(region, ti, key);
        self.world.tables.streams[ti].rows += 1;
        self.schedule_table_write(t);
    }

    /// An other table's row of K real rows lands: memstores, the server's heap, WAL and write
    /// path (which the designed table's writes then queue behind), flush requests.
    fn apply_table_write(&mut self, region: usize, ti: usize, key: &[u8]) {
        let weight = self.cfg.scale;
        let now_ms = self.world.now / NS_PER_MS;
        let segment_overhead = self.cfg.layout.segment_overhead();
        let (mut data_total, mut heap_total, mut active) = (0, 0, 0);
        let r = &mut self.world.state.regions[region];
        let server = r.server;
        for (store, fam) in r.stores.iter_mut().zip(&self.world.tables.puts) {
            if fam.cells != 0 {
                let before = store.memstore.heap_bytes;
                let put = Put {
                    rows: weight,
                    cells: weight * fam.cells,
                    data_bytes: weight * fam.data,
                    heap_bytes: weight * fam.heap,
                };
                store.memstore.add(key, put, segment_overhead, now_ms);
                heap_total += store.memstore.heap_bytes - before;
                data_total += weight * fam.data;
            }
            active += store.memstore.heap_bytes;
        }
        r.write_requests += weight;
        r.range_writes += weight;
        r.rows += weight;
        r.last_write_ns = Some(self.world.now);
        r.policy.record_writes(weight, 0, now_ms);
        r.memstore_peak = r.memstore_peak.max(active + r.snapshot_heap);
        let idle = r.flush.idle();
        let over_flush = policy::write::over_flush_size(active, self.cfg.settings.flush_size);
        let stream = &mut self.world.tables.streams[ti];
        stream.real_rows += weight;
        stream.server_bytes[server] += data_total;
        let s = &mut self.world.state.servers[server];
        if idle {
            s.pressure_futile = false;
        }
        s.memstore_heap += heap_total;
        s.memstore_peak = s.memstore_peak.max(s.memstore_heap);
        // `write_requests` stays the designed table's (the servers' write shares); the bytes
        // count for the WAL rate and the disks (`resource_tick`).
        s.write_bytes += data_total;
        let roll = policy::write::wal_rolls(
            s.wal.append(weight * self.world.tables.wal_row),
            self.cfg.wal_roll,
        );
        // The server's write path is shared: the designed table's writes queue behind these.
        s.busy_until_ns =
            s.busy_until_ns.max(self.world.now) + ((data_total as u128 * s.write_fp) >> 32) as u64;
        if roll {
            self.roll_wal(server);
        }
        self.after_landing(region, server, over_flush);
    }

    /// Regions of `region`'s table online on its server: what
    /// `IncreasingToUpperBoundRegionSplitPolicy.getCountOfCommonTableRegions` counts.
    pub(crate) fn table_regions_on(&mut self, region: usize) -> usize {
        let (server, table) = {
            let r = &self.world.state.regions[region];
            (r.server, r.table)
        };
        if self.world.state.tables.is_empty() {
            return self.world.state.servers[server].online_regions;
        }
        self.world.state.regions_on(server);
        self.world
            .state
            .by_server
            .on(server)
            .iter()
            .map(|&id| &self.world.state.regions[id])
            .filter(|r| r.table == table && r.online())
            .count()
    }

    /// Every table's name, the designed one first.
    pub(crate) fn table_names(&self) -> Vec<String> {
        std::iter::once(self.world.tables.main_name.clone())
            .chain(self.world.tables.streams.iter().map(|s| s.name.clone()))
            .collect()
    }

    /// Data bytes the other tables wrote (for the designed table's own `data_bytes`).
    pub(crate) fn other_tables_bytes(&self) -> u128 {
        self.world
            .tables
            .streams
            .iter()
            .flat_map(|s| &s.server_bytes)
            .map(|&b| u128::from(b))
            .sum()
    }

    /// Counts a flush or compaction of `region` for its table.
    pub(crate) fn count_for_table(&mut self, region: usize, f: fn(&mut TableCounts)) {
        let t = usize::from(self.world.state.regions[region].table);
        if let Some(c) = self.world.tables.counts.get_mut(t) {
            f(c);
        }
    }
}

impl Engine {
    /// Every table at the end, the designed one first (empty without other tables).
    pub(crate) fn table_results(&self, regions_initial: usize) -> Vec<TableResult> {
        if self.world.state.tables.is_empty() {
            return Vec::new();
        }
        let n = self.world.state.servers.len();
        let mut out: Vec<TableResult> = (0..=self.world.state.tables.len())
            .map(|t| {
                let c = self.world.tables.counts.get(t).copied().unwrap_or_default();
                let (name, regions_start, rows_written, held_ns) = if t == 0 {
                    (
                        self.world.tables.main_name.clone(),
                        regions_initial,
                        self.world.rows_written,
                        0,
                    )
                } else {
                    let s = &self.world.tables.streams[t - 1];
                    (s.name.clone(), 0, s.real_rows, s.held_ns)
                };
                TableResult {
                    name,
                    regions_start,
                    regions_end: 0,
                    store_bytes: 0,
                    rows_written,
                    flushes: c.flushes,
                    compactions: c.compactions,
                    splits: c.splits,
                    held_ns,
                    server_regions: vec![0; n],
                    server_memstore: vec![0; n],
                    server_write_bytes: vec![0; n],
                }
            })
            .collect();
        for ((o, &start), s) in out[1..]
            .iter_mut()
            .zip(&self.world.tables.regions_start)
            .zip(&self.world.tables.streams)
        {
            o.regions_start = start;
            o.server_write_bytes = s.server_bytes.clone();
        }
        for id in self.world.state.live_ids() {
            let r = &self.world.state.regions[id];
            let o = &mut out[usize::from(r.table)];
            o.regions_end += 1;
            o.store_bytes += r.store_bytes();
            o.server_regions[r.server] += 1;
            o.server_memstore[r.server] += r.memstore_data();
        }
        // The designed table's writes: each server's, less the other tables'.
        for (i, s) in self.world.state.servers.iter().enumerate() {
            let others: u64 = out[1..].iter().map(|o| o.server_write_bytes[i]).sum();
            out[0].server_write_bytes[i] = s.write_bytes - others;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Region starts split the 8-byte key space evenly and ascend.
    #[test]
    fn region_starts_tile_the_key_space() {
        assert!(region_start(0, 4).is_empty());
        assert_eq!(region_start(2, 4), 0x8000_0000_0000_0000u64.to_be_bytes());
        let starts: Vec<Vec<u8>> = (0..7).map(|i| region_start(i, 7)).collect();
        assert!(starts.windows(2).all(|w| w[0] < w[1]));
    }

    /// The stream's arrival times follow the rate exactly: 1 MB/s of 1 KB rows, 10 real rows
    /// each, is one emulated row every 10 ms.
    #[test]
    fn arrivals_follow_the_rate() {
        assert_eq!(arrival_ns(0, 10, 1000, 1_000_000), 10_000_000);
        assert_eq!(arrival_ns(99, 10, 1000, 1_000_000), 1_000_000_000);
    }

    /// Keys are pure functions of (seed, table, row) and spread over the key space.
    #[test]
    fn keys_are_seeded_and_spread() {
        assert_eq!(row_key(7, 1, 5), row_key(7, 1, 5));
        assert_ne!(row_key(7, 1, 5), row_key(7, 2, 5));
        let high = (0..1000).filter(|&n| row_key(7, 1, n)[0] >= 0x80).count();
        assert!(
            (400..600).contains(&high),
            "{high} of 1000 in the upper half"
        );
    }
}
