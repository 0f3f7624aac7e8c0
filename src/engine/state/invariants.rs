//! What must hold of the state between any two events. Tests check it after every event
//! (`Engine::check_invariants_each_event`); a broken invariant names what broke.

use super::State;
use super::region::RegionState;

impl State {
    /// Table `t`'s routing `entries` tile its key space with live regions of that table; marks
    /// them in `routed`.
    fn tiles(
        &self,
        t: usize,
        entries: &[(Vec<u8>, usize)],
        routed: &mut [bool],
    ) -> Result<(), String> {
        let Some(first) = entries.first() else {
            return Err(format!("table {t}'s routing table is empty"));
        };
        if !first.0.is_empty() {
            return Err(format!(
                "the first region starts at {:?}, not at the empty key",
                first.0
            ));
        }
        for (i, (start, id)) in entries.iter().enumerate() {
            let Some(r) = self.regions.get(*id) else {
                return Err(format!(
                    "routing entry {i} names region {id}, which does not exist"
                ));
            };
            if std::mem::replace(&mut routed[*id], true) {
                return Err(format!("region {id} is routed twice"));
            }
            let end: &[u8] = entries.get(i + 1).map_or(&[], |(next, _)| next.as_slice());
            if r.start != *start || r.end != end {
                return Err(format!(
                    "region {id} is [{:?}, {:?}) but routed as [{start:?}, {end:?})",
                    r.start, r.end
                ));
            }
            if !end.is_empty() && start.as_slice() >= end {
                return Err(format!(
                    "region {id} is empty or reversed: [{start:?}, {end:?})"
                ));
            }
            if usize::from(r.table) != t {
                return Err(format!(
                    "region {id} of table {} is routed in table {t}",
                    r.table
                ));
            }
            if r.state == RegionState::Retired {
                return Err(format!("retired region {id} is still routed"));
            }
            if r.server >= self.servers.len() {
                return Err(format!(
                    "region {id} is on server {}, which does not exist",
                    r.server
                ));
            }
        }
        Ok(())
    }

    /// Checks the state: the routing table tiles the key space with live regions, every other
    /// region is retired, each server's memstore and online-region count is the sum over the
    /// regions it hosts, and the pool counters and store markers match the running
    /// compactions.
    pub(crate) fn invariants(&self) -> Result<(), String> {
        let mut routed = vec![false; self.regions.len()];
        for (t, table) in std::iter::once(&self.routing)
            .chain(&self.tables)
            .enumerate()
        {
            self.tiles(t, table.entries(), &mut routed)?;
        }
        if let Some(r) = self
            .regions
            .iter()
            .find(|r| !routed[r.id] && r.state != RegionState::Retired)
        {
            return Err(format!("region {} is {:?} but not routed", r.id, r.state));
        }
        let mut heap = vec![0u64; self.servers.len()];
        let mut online = vec![0usize; self.servers.len()];
        for id in self.live_ids() {
            let r = &self.regions[id];
            heap[r.server] += r.memstore_heap();
            if r.online() {
                online[r.server] += 1;
            }
        }
        let mut small = vec![0u32; self.servers.len()];
        let mut large = vec![0u32; self.servers.len()];
        for (&token, c) in &self.compactions {
            if c.large {
                large[c.server] += 1;
            } else {
                small[c.server] += 1;
            }
            if self.regions[c.region].state != RegionState::Open {
                return Err(format!(
                    "compaction {token} runs in region {}, which is {:?}",
                    c.region, self.regions[c.region].state
                ));
            }
            let st = &self.regions[c.region].stores[c.store];
            if !st.running.iter().any(|x| x.token == token) {
                return Err(format!(
                    "compaction {token} of region {} store {} is not marked on its store",
                    c.region, c.store
                ));
            }
        }
        for (i, s) in self.servers.iter().enumerate() {
            if s.dead {
                continue;
            }
            if s.memstore_heap != heap[i] {
                return Err(format!(
                    "server {i} counts {} bytes of memstore heap, its regions hold {}",
                    s.memstore_heap, heap[i]
                ));
            }
            if s.online_regions != online[i] {
                return Err(format!(
                    "server {i} counts {} online regions, it hosts {}",
                    s.online_regions, online[i]
                ));
            }
            if s.small_running != small[i] || s.large_running != large[i] {
                return Err(format!(
                    "server {i} counts {}+{} running compactions, {}+{} are running",
                    s.small_running, s.large_running, small[i], large[i]
                ));
            }
        }
        // The per-server lists, when they claim to be current, group the routing table.
        if self.by_server.built_for
            == Some((
                self.routing_changes(),
                self.placement_changes,
                self.servers.len(),
            ))
        {
            for (i, _) in self.servers.iter().enumerate() {
                let fresh: Vec<usize> = self
                    .live_ids()
                    .filter(|&id| self.regions[id].server == i)
                    .collect();
                if self.by_server.on(i) != fresh.as_slice() {
                    return Err(format!(
                        "server {i}'s cached region list {:?} is stale: it hosts {fresh:?}",
                        self.by_server.on(i)
                    ));
                }
            }
        }
        for r in &self.regions {
            for (f, st) in r.stores.iter().enumerate() {
                if st.file_bytes != st.size() {
                    return Err(format!(
                        "region {} store {f} counts {} bytes of files, they hold {}",
                        r.id,
                        st.file_bytes,
                        st.size()
                    ));
                }
                for run in &st.running {
                    if !self.compactions.contains_key(&run.token) {
                        return Err(format!(
                            "region {} store {f} marks compaction {} running, which is not",
                            r.id, run.token
                        ));
                    }
                }
                // Running compactions hold disjoint runs of files inside the store.
                let mut runs: Vec<(usize, usize)> =
                    st.running.iter().map(|x| (x.first, x.count)).collect();
                runs.sort_unstable();
                let mut end = 0;
                for (first, count) in runs {
                    if first < end || first + count > st.files.len() || count == 0 {
                        return Err(format!(
                            "region {} store {f}: compactions overlap or leave the store's {} files",
                            r.id,
                            st.files.len()
                        ));
                    }
                    end = first + count;
                }
            }
        }
        Ok(())
    }
}
