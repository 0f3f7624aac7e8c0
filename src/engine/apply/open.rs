//! A region opens on a server: pre-split, as a daughter, as a merged region. Its split policy
//! instance is created with the jitter drawn for it (`derived::jitter_draw`).

use crate::engine::Engine;
use crate::engine::decision::Decision;
use crate::engine::derived;
use crate::engine::files::imported_file;
use crate::engine::policy::reactions;
use crate::engine::policy::split::SplitPolicyInstance;
use crate::engine::queue::NS_PER_MS;
use crate::engine::state::region::{HeldFile, Region};

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
        let id = self.world.state.regions.len();
        let draw = derived::jitter_draw(self.cfg.seed, id, None);
        let policy = SplitPolicyInstance::new(&self.cfg.settings, self.world.now / NS_PER_MS, draw);
        self.world.state.servers[server].online_regions += 1;
        self.world.state.regions.push(Region::opened(
            id,
            (start, end),
            server,
            families,
            generation,
            policy,
            parent,
            self.world.now,
        ));
        id
    }

    /// Gives an imported region its store files: `files` files of equal size totalling `bytes`,
    /// shared evenly over the families (each family gets its share of the files, at least one
    /// when it has bytes), written at t=0 with the oldest sequence ids.
    pub(crate) fn load_imported(&mut self, region: usize, bytes: u64, files: u64) {
        if bytes == 0 || files == 0 {
            return;
        }
        let nf = self.cfg.shapes.len().max(1) as u64;
        let (start, end) = {
            let r = &self.world.state.regions[region];
            (r.start.clone(), r.end.clone())
        };
        for fam in 0..nf as usize {
            let fam_files = (files / nf + u64::from((fam as u64) < files % nf)).max(1);
            let fam_bytes = bytes / nf + u64::from((fam as u64) < bytes % nf);
            for i in 0..fam_files {
                let part = fam_bytes / fam_files + u64::from(i < fam_bytes % fam_files);
                self.world.file_seq += 1;
                let (shape, format) = (self.cfg.shapes[fam], self.cfg.formats[fam]);
                let Some(f) = imported_file(&start, &end, part, shape, format, self.world.file_seq)
                else {
                    continue;
                };
                let rows = f.rows();
                let r = &mut self.world.state.regions[region];
                r.rows += rows;
                r.stores[fam].files.push(HeldFile { file: f, rows });
            }
            self.world.state.regions[region].stores[fam].recount();
        }
    }

    /// `HRegionServer.postOpenDeployTasks`: the stores of `region`, just opened, that need a
    /// compaction ask for one (`policy::reactions::compacts_on_open`). No split check here: the
    /// first flush or compaction runs it, as in HBase.
    pub(crate) fn compact_opened(&mut self, region: usize) {
        for store in 0..self.world.state.regions[region].stores.len() {
            let s = &self.world.state.regions[region].stores[store];
            if reactions::compacts_on_open(s, &self.cfg.compaction, self.world.now / NS_PER_MS) {
                self.apply(Decision::Compact { region, store });
            }
        }
    }

    /// The imported regions' stores open (`compact_opened` for each region).
    pub(crate) fn request_imported_compactions(&mut self) {
        for region in 0..self.world.state.regions.len() {
            self.compact_opened(region);
        }
    }
}
