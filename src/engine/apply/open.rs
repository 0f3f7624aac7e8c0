//! A region opens on a server: pre-split, as a daughter, as a merged region. Its split policy
//! instance is created with the jitter drawn for it (`derived::jitter_draw`).

use crate::engine::Engine;
use crate::engine::derived;
use crate::engine::policy::split::SplitPolicyInstance;
use crate::engine::queue::NS_PER_MS;
use crate::engine::state::region::Region;

impl Engine {
    pub(crate) fn open_region(
        &mut self,
        start: Vec<u8>,
        end: Vec<u8>,
        server: usize,
        generation: u32,
        parent: Option<usize>,
        families: usize,
    ) -> usize {
        let id = self.state.regions.len();
        let draw = derived::jitter_draw(self.cfg.seed, id, None);
        let policy = SplitPolicyInstance::new(&self.cfg.settings, self.now / NS_PER_MS, draw);
        self.state.servers[server].online_regions += 1;
        self.state.regions.push(Region::opened(
            id,
            (start, end),
            server,
            families,
            generation,
            policy,
            parent,
            self.now,
        ));
        id
    }
}
