//! The engine's state: regions with their stores (memstores and store files), RegionServers,
//! and the cells and files they hold. Only `apply/` changes it.

pub mod cell;
pub mod memstore;
pub mod region;
pub(crate) mod routing;
pub mod server;
pub mod storefile;
