//! The engine's state: regions with their stores (memstores and store files), RegionServers,
//! and the cells and files they hold. Only `apply/` changes it.

pub(crate) mod bulkload;
pub mod cell;
pub(crate) mod client;
pub(crate) mod compaction;
mod invariants;
pub(crate) mod loader;
pub mod memstore;
pub mod region;
pub mod routing;
pub mod server;
pub mod storefile;
pub mod wal;

use std::collections::BTreeMap;

use crate::engine::ingest::route::Router;
use compaction::ActiveCompaction;
use region::Region;
use server::Server;

/// Everything the policies look at and the appliers change.
pub(crate) struct State {
    /// Every region ever opened, by id (creation order); split and merged ones are retired.
    pub(crate) regions: Vec<Region>,
    /// Live regions by start key (`routing::RoutingTable`), behind the write path's router.
    pub(crate) routing: Router,
    /// The other tables' (`tables[t - 1]` for table `t`, `Region::table`).
    pub(crate) tables: Vec<Router>,
    /// RegionServers, by index.
    pub(crate) servers: Vec<Server>,
    /// Running compactions by token (the token is also in `Store::running`).
    pub(crate) compactions: BTreeMap<u64, ActiveCompaction>,
    /// The loader's held-back mutations.
    pub(crate) client: client::ClientState,
    /// The master's procedure workers: when each is next free, ns.
    pub(crate) procedure_workers: Vec<u64>,
    /// Bumped whenever a live region changes server (`move_done`): with the routing tables'
    /// changes, it tells when `by_server` is stale.
    pub(crate) placement_changes: u64,
    /// Live regions grouped by the server they are assigned to, in key order: a cache for the
    /// per-server scans (global memstore pressure, WAL rolls), which would otherwise walk every
    /// region of the cluster for one server's.
    pub(crate) by_server: ByServer,
}

/// Live regions per server (see `State::by_server`), rebuilt on demand by `State::regions_on`.
#[derive(Debug, Default)]
pub(crate) struct ByServer {
    /// (routing changes, placement changes, servers) the lists were built for.
    pub(super) built_for: Option<(u64, u64, usize)>,
    /// Region ids per server, in key order.
    lists: Vec<Vec<usize>>,
}

impl ByServer {
    /// `server`'s regions as last built: call `State::regions_on` first (it refreshes them);
    /// this form lets a caller borrow the regions beside the list.
    pub(crate) fn on(&self, server: usize) -> &[usize] {
        self.lists.get(server).map_or(&[], Vec::as_slice)
    }
}

impl State {
    /// Every live region of the cluster: the designed table's in key order, then each other
    /// table's in key order.
    pub(crate) fn live_ids(&self) -> impl Iterator<Item = usize> + '_ {
        self.routing
            .ids()
            .chain(self.tables.iter().flat_map(|t| t.ids()))
    }

    /// Live regions of the whole cluster.
    pub(crate) fn live_count(&self) -> usize {
        self.routing.len() + self.tables.iter().map(|t| t.len()).sum::<usize>()
    }

    /// Changes so far to any table's routing (each table's count only grows).
    pub(crate) fn routing_changes(&self) -> u64 {
        self.routing.changes() + self.tables.iter().map(|t| t.changes()).sum::<u64>()
    }

    /// The routing table of `table` (`Region::table`).
    pub(crate) fn routing_of(&mut self, table: u16) -> &mut Router {
        match table {
            0 => &mut self.routing,
            t => &mut self.tables[usize::from(t) - 1],
        }
    }

    /// Brings `by_server` up to date and returns the live regions assigned to `server` (open
    /// or not), in key order: the regions `live_ids()` yields whose `server` is `server`, in
    /// the same order.
    pub(crate) fn regions_on(&mut self, server: usize) -> &[usize] {
        let key = (
            self.routing_changes(),
            self.placement_changes,
            self.servers.len(),
        );
        let b = &mut self.by_server;
        if b.built_for != Some(key) {
            b.lists.resize_with(self.servers.len(), Vec::new);
            for l in &mut b.lists {
                l.clear();
            }
            let ids = self
                .routing
                .ids()
                .chain(self.tables.iter().flat_map(|t| t.ids()));
            for id in ids {
                b.lists[self.regions[id].server].push(id);
            }
            b.built_for = Some(key);
        }
        &b.lists[server]
    }
}
