//! The engine's state: regions with their stores (memstores and store files), RegionServers,
//! and the cells and files they hold. Only `apply/` changes it.

pub mod cell;
pub(crate) mod client;
pub(crate) mod compaction;
mod invariants;
pub mod memstore;
pub mod region;
pub(crate) mod routing;
pub mod server;
pub mod storefile;
pub mod wal;

use std::collections::BTreeMap;

use compaction::ActiveCompaction;
use region::Region;
pub use routing::Router;
use routing::RoutingTable;
use server::Server;

/// Everything the policies look at and the appliers change.
pub(crate) struct State {
    /// Every region ever opened, by id (creation order); split and merged ones are retired.
    pub(crate) regions: Vec<Region>,
    /// Live regions by start key, with the write path's caches.
    pub(crate) routing: RoutingTable,
    /// RegionServers, by index.
    pub(crate) servers: Vec<Server>,
    /// Running compactions by token (the token is also in `Store::running`).
    pub(crate) compactions: BTreeMap<u64, ActiveCompaction>,
    /// The loader's held-back mutations.
    pub(crate) client: client::ClientState,
    /// The master's procedure workers: when each is next free, ns.
    pub(crate) procedure_workers: Vec<u64>,
}
