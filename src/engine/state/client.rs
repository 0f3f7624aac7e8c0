//! The loader's view: mutations a region refused, held back in the writers' buffers until the
//! retry that the region accepts (`AsyncProcess` retries only the refused actions; with
//! `hbase.client.max.perregion.tasks` = 1 the region's later mutations wait behind them).

use std::collections::BTreeMap;

use crate::engine::policy::client::Refusal;

/// One region's held-back mutations, in arrival order.
#[derive(Debug, Clone)]
pub(crate) struct Held {
    /// The rows' keys, concatenated.
    pub(crate) keys: Vec<u8>,
    /// Each row's key length and weight (real rows it stands for).
    pub(crate) rows: Vec<(u32, u64)>,
    /// Payload-and-key bytes held (what fills the writers' buffers).
    pub(crate) bytes: u64,
    /// First refused at, ns.
    pub(crate) since_ns: u64,
    /// Retries so far.
    pub(crate) tries: u32,
    /// Operations failed and resubmitted so far.
    pub(crate) failures: u32,
    /// Why the region refused them last.
    pub(crate) why: Refusal,
    /// Matches the live retry event.
    pub(crate) generation: u64,
}

/// All held-back mutations and the client's counters.
#[derive(Debug, Default)]
pub(crate) struct ClientState {
    /// By region id.
    pub(crate) held: BTreeMap<usize, Held>,
    /// Bytes held over all regions, and those held for offline regions.
    pub(crate) held_bytes: u64,
    pub(crate) held_offline_bytes: u64,
}

impl ClientState {
    /// Adds a row (`key`, standing for `weight` real rows and `bytes` of the writers' buffers)
    /// behind `region`'s held rows, and to the totals; false if the client holds none for it.
    pub(crate) fn join(&mut self, region: usize, key: &[u8], weight: u64, bytes: u64) -> bool {
        let Some(h) = self.held.get_mut(&region) else {
            return false;
        };
        h.keys.extend_from_slice(key);
        h.rows.push((key.len() as u32, weight));
        h.bytes += bytes;
        // Bytes count as offline or blocked by the region's batch, as its retry releases them.
        if h.why == Refusal::Offline {
            self.held_offline_bytes += bytes;
        }
        self.held_bytes += bytes;
        true
    }
}
