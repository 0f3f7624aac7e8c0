//! Reads carried out: each emulated read due by now picks a row (workload/reads.rs), is routed
//! to its region and counted per region, server and key bucket. Reads change no data.

use crate::engine::Engine;
use crate::keygen::rng::splitmix64;

impl Engine {
    /// Performs every emulated read due by now, over the `written` emulated rows applied so far.
    #[inline]
    pub(crate) fn do_reads(&mut self, written: u64) {
        if self.run.reads.next_ns > self.world.now || written == 0 {
            return;
        }
        self.reads_due(written);
    }

    #[cold]
    #[inline(never)]
    fn reads_due(&mut self, written: u64) {
        let sampling = self.run.sampling;
        let Some(step) = self.run.reads.interval_ns() else {
            self.run.reads.next_ns = u64::MAX;
            return;
        };
        let real_written = self.world.rows_written.max(1);
        let mut key = std::mem::take(&mut self.cache.read_key);
        while self.run.reads.next_ns <= self.world.now {
            let at = self.run.reads.next_ns;
            self.run.reads.next_ns += step;
            self.run.reads.seq += 1;
            let mut ctr = 0u64;
            let base = self.cfg.seed
                ^ 0x0005_EAD5
                ^ self.run.reads.seq.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut word = || {
                ctr += 1;
                splitmix64(base ^ ctr.wrapping_mul(0xD1B5_4A32_D192_ED03))
            };
            let (idx, scan) = self.run.reads.pick(real_written, &mut word);
            // The emulated row standing for that real row.
            let b = (idx / sampling.k).min(written - 1);
            if self
                .run
                .generator
                .key_checked(sampling.id(b), &mut key)
                .is_err()
            {
                continue;
            }
            let region = self.route_uncached(&key);
            let n = if scan {
                self.run.reads.k * self.run.reads.scan_rows
            } else {
                self.run.reads.k
            };
            let r = &mut self.world.state.regions[region];
            r.read_requests += n;
            let server = r.server;
            self.world.state.servers[server].read_requests += n;
            let w = (at / self.world.rec.sample_ns) as usize;
            if self.world.rec.heat_reads.len() <= w {
                self.world
                    .rec
                    .heat_reads
                    .resize(w + 1, vec![0; self.world.rec.heat_buckets.len().max(1)]);
            }
            let bucket = self.heat_bucket_uncached(&key);
            self.world.rec.heat_reads[w][bucket] += n;
        }
        self.cache.read_key = key;
    }

    /// A workload phase changes the offered read rates.
    pub(crate) fn set_read_rates(&mut self, gets: Option<f64>, scans: Option<f64>) {
        if let Some(g) = gets {
            self.run.reads.gets_per_s = g;
        }
        if let Some(s) = scans {
            self.run.reads.scans_per_s = s;
        }
        self.run.reads.next_ns = self
            .run
            .reads
            .interval_ns()
            .map_or(u64::MAX, |step| self.world.now + step);
    }
}
