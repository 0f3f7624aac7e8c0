//! Reads carried out: each emulated read due by now picks a row (workload/reads.rs), is routed
//! to its region and counted per region, server and key bucket. Reads change no data.

use crate::engine::Engine;
use crate::keygen::rng::splitmix64;

impl Engine {
    /// Performs every emulated read due by now, over the `written` emulated rows applied so far.
    #[inline]
    pub(crate) fn do_reads(&mut self, written: u64) {
        if self.reads.next_ns > self.now || written == 0 {
            return;
        }
        self.reads_due(written);
    }

    #[cold]
    #[inline(never)]
    fn reads_due(&mut self, written: u64) {
        let sampling = self.sampling;
        let Some(step) = self.reads.interval_ns() else {
            self.reads.next_ns = u64::MAX;
            return;
        };
        let real_written = self.rows_written.max(1);
        let mut key = std::mem::take(&mut self.read_key);
        while self.reads.next_ns <= self.now {
            let at = self.reads.next_ns;
            self.reads.next_ns += step;
            self.reads.seq += 1;
            let mut ctr = 0u64;
            let base =
                self.cfg.seed ^ 0x0005_EAD5 ^ self.reads.seq.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut word = || {
                ctr += 1;
                splitmix64(base ^ ctr.wrapping_mul(0xD1B5_4A32_D192_ED03))
            };
            let (idx, scan) = self.reads.pick(real_written, &mut word);
            // The emulated row standing for that real row.
            let b = (idx / sampling.k).min(written - 1);
            if self
                .generator
                .key_checked(sampling.id(b), &mut key)
                .is_err()
            {
                continue;
            }
            let region = self.route_uncached(&key);
            let n = if scan {
                self.reads.k * self.reads.scan_rows
            } else {
                self.reads.k
            };
            let r = &mut self.state.regions[region];
            r.read_requests += n;
            let server = r.server;
            self.state.servers[server].read_requests += n;
            let w = (at / self.rec.sample_ns) as usize;
            if self.rec.heat_reads.len() <= w {
                self.rec
                    .heat_reads
                    .resize(w + 1, vec![0; self.rec.heat_buckets.len().max(1)]);
            }
            let bucket = self.heat_bucket_uncached(&key);
            self.rec.heat_reads[w][bucket] += n;
        }
        self.read_key = key;
    }

    /// A workload phase changes the offered read rates.
    pub(crate) fn set_read_rates(&mut self, gets: Option<f64>, scans: Option<f64>) {
        if let Some(g) = gets {
            self.reads.gets_per_s = g;
        }
        if let Some(s) = scans {
            self.reads.scans_per_s = s;
        }
        self.reads.next_ns = self
            .reads
            .interval_ns()
            .map_or(u64::MAX, |step| self.now + step);
    }
}
