//! Splits carried out: the parent closes (flushing its memstore), goes offline, and its
//! daughters open with references to its files (`SplitTableRegionProcedure`).

use crate::engine::policy::split_point;
use crate::engine::policy::variability::Site;
use crate::engine::queue::{Event, PendingSplit, transfer_ns};
use crate::engine::state::region::HeldFile;
use crate::engine::state::region::{RegionState, Store};
use crate::engine::state::storefile::StoreFile;
use crate::engine::{Engine, Happening, OpenedAs, SplitReason, SplitRecord, SplitSource};

use super::close::PendingClose;
use crate::keygen::rng::splitmix64;

impl Engine {
    /// `cluster.region_transition` as the close/open of `region` (occurrence `n`: 0 for its
    /// split, 1 + the move's record for a move) takes it (`[cluster] variability`).
    pub(crate) fn vary_transition(&self, region: usize, n: u64) -> u64 {
        self.cfg
            .draws
            .duration(Site::Transition, region as u64, n, self.cfg.transition_ns)
    }

    /// Closes the parent (`close_for`: a pre-close flush first if its memstore is large) for a
    /// split at `row`.
    pub(crate) fn start_split(&mut self, region: usize, row: Vec<u8>, reason: SplitReason) {
        // Where the row came from (split_point::choose): the largest file of the largest store
        // that has a split point.
        let r = &self.world.state.regions[region];
        let source = split_point::largest_store_midkey(r).ok().map(|m| {
            let st = &r.stores[m.store];
            SplitSource {
                file_bytes: st.files[m.file].file.length(),
                store_files: st.files.len(),
            }
        });
        self.close_for(
            region,
            PendingClose::Split {
                row,
                reason,
                source,
            },
        );
    }

    /// The parent closes (flushing what its memstore holds, as `HRegion.doClose` does, offline)
    /// and the daughters' opening is scheduled. The split's record counts from here: its
    /// offline time starts with the close flag, after any pre-close flush.
    pub(super) fn split_closed(
        &mut self,
        region: usize,
        row: Vec<u8>,
        reason: SplitReason,
        source: Option<SplitSource>,
    ) {
        let requested = self.world.now;
        // The close flush runs on its own (not through the flush queue).
        self.abort_compactions(region);
        let data = self.close_flush(region);
        let close = transfer_ns(
            data,
            self.flush_rate(self.world.state.regions[region].server),
        );
        let queued_ns = self.procedure_wait(close);
        self.note(
            region,
            Happening::SplitRequested {
                row: row.clone(),
                reason: reason.clone(),
                source,
                queued_ns,
            },
        );
        let r = &mut self.world.state.regions[region];
        r.state = RegionState::Splitting;
        r.drop_flush_entry();
        let duration = close + queued_ns + self.vary_transition(region, 0);
        self.world.rec.stats.offline_ns += duration;
        self.schedule(
            duration,
            Event::SplitDone {
                region,
                split: Box::new(PendingSplit {
                    row,
                    requested,
                    split_size: self.cfg.settings.max_filesize,
                    reason,
                }),
            },
        );
    }

    pub(crate) fn split_done(&mut self, region: usize, split: PendingSplit) {
        let PendingSplit {
            row,
            requested,
            split_size,
            reason,
        } = split;
        let parent = &self.world.state.regions[region];
        let parent_server = parent.server;
        // Daughters open on the parent's server unless it died or is draining meanwhile.
        let server = if self.world.state.servers[parent_server].accepts_regions() {
            parent_server
        } else {
            self.any_live_server(region as u64).unwrap_or(parent_server)
        };
        let generation = parent.generation + 1;
        let (start, end) = (parent.start.clone(), parent.end.clone());
        let parent_bytes = parent.store_bytes();
        let nf = parent.stores.len();
        // Split each store file into daughter files (HRegionFileSystem.splitStoreFile).
        let mut a_stores: Vec<Store> = Vec::with_capacity(nf);
        let mut b_stores: Vec<Store> = Vec::with_capacity(nf);
        let mut rows_a = 0;
        let mut rows_b = 0;
        for store in &parent.stores {
            let mut sa = Store::default();
            let mut sb = Store::default();
            for held in &store.files {
                let exact = held.rows;
                let (fa, fb) = held.file.split(&row);
                let ea = fa.as_ref().map_or(0, StoreFile::rows);
                let eb = fb.as_ref().map_or(0, StoreFile::rows);
                // Exact rows apportioned by the (block-granular) visible rows of each half.
                let a_exact = if ea + eb == 0 {
                    exact / 2
                } else {
                    (exact as u128 * ea as u128 / (ea + eb) as u128) as u64
                };
                let b_exact = exact - a_exact;
                if let Some(fa) = fa {
                    sa.files.push(HeldFile {
                        file: fa,
                        rows: a_exact,
                    });
                    rows_a += a_exact;
                }
                if let Some(fb) = fb {
                    sb.files.push(HeldFile {
                        file: fb,
                        rows: b_exact,
                    });
                    rows_b += b_exact;
                }
            }
            sa.recount();
            sb.recount();
            a_stores.push(sa);
            b_stores.push(sb);
        }
        self.world.state.regions[region].state = RegionState::Retired;
        self.world.state.servers[parent_server].online_regions = self.world.state.servers
            [parent_server]
            .online_regions
            .saturating_sub(1);
        let b_server = if self.cfg.settings.auto_separate_children {
            // auto.separate.child.regions.after.split: daughter B goes to another live server.
            let others: Vec<usize> = (0..self.world.state.servers.len())
                .filter(|&i| i != server && self.world.state.servers[i].accepts_regions())
                .collect();
            if others.is_empty() {
                server
            } else {
                others[(splitmix64(self.cfg.seed ^ region as u64) % others.len() as u64) as usize]
            }
        } else {
            server
        };
        let a = self.open_region(
            start.clone(),
            row.clone(),
            server,
            generation,
            Some(region),
            nf,
        );
        let b = self.open_region(
            row.clone(),
            end.clone(),
            b_server,
            generation,
            Some(region),
            nf,
        );
        let table = self.world.state.regions[region].table;
        self.world.state.regions[a].table = table;
        self.world.state.regions[b].table = table;
        self.world.state.regions[a].stores = a_stores;
        self.world.state.regions[b].stores = b_stores;
        self.world.state.regions[a].rows = rows_a;
        self.world.state.regions[b].rows = rows_b;
        // The parent's writes over the run go to each half as its rows did (rows are only ever
        // added by writes, so a half's rows are the writes that fell in its key range).
        let inherited = self.world.state.regions[region].range_writes;
        let to_a = split_by_rows(inherited, rows_a, rows_b);
        self.world.state.regions[a].range_writes = to_a;
        self.world.state.regions[b].range_writes = inherited - to_a;
        // Routing: the parent's entry becomes daughter A; B is inserted after it.
        self.world
            .state
            .routing_of(table)
            .split(region, a, row.clone(), b);
        self.world.tables.counts[usize::from(table)].splits += 1;
        // The designed table's split list and history stay its own.
        if table == 0 {
            self.world.rec.splits.push(SplitRecord {
                at_ns: requested,
                done_ns: self.world.now,
                parent_start: start,
                parent_end: end,
                split_key: row,
                server,
                parent_bytes,
                generation,
                split_size,
                reason,
            });
            self.note(
                a,
                Happening::Opened {
                    server: self.server_at(server),
                    as_: OpenedAs::LowerDaughter,
                },
            );
            self.note(
                b,
                Happening::Opened {
                    server: self.server_at(b_server),
                    as_: OpenedAs::UpperDaughter,
                },
            );
        }
        self.compact_opened(a);
        self.compact_opened(b);
    }
}

/// Daughter A's part of `writes` when the halves hold `rows_a` and `rows_b` rows (half each when
/// neither holds any).
fn split_by_rows(writes: u64, rows_a: u64, rows_b: u64) -> u64 {
    if rows_a + rows_b == 0 {
        writes / 2
    } else {
        (writes as u128 * rows_a as u128 / (rows_a + rows_b) as u128) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::split_by_rows;

    /// A daughter takes the parent's writes over the run in proportion to its rows.
    #[test]
    fn parent_writes_follow_the_rows_of_each_half() {
        assert_eq!(split_by_rows(1000, 300, 100), 750);
        assert_eq!(split_by_rows(1000, 0, 100), 0);
        assert_eq!(split_by_rows(1000, 0, 0), 500);
        assert_eq!(split_by_rows(u64::MAX, 1, 1), u64::MAX / 2);
    }
}
