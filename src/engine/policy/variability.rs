//! Seeded spread of durations, so that a run's distributions have the width a real cluster
//! shows: flush and compaction throughput, the time a region spends in transition, and the
//! RegionServers' stop-the-world JVM pauses.
//!
//! Every draw is a pure function of (seed, site, id, n) through a counter-based hash: the
//! region or server id and the occurrence number (a file sequence id, a compaction token, a
//! pause index) that the engine's single applying thread assigns. No RNG is consumed in event
//! order, so the draws — and the report — do not depend on `--threads`.
//!
//! The figures are hbase-emu's (HBase states none); docs/MODEL.md says where they come from.

use crate::keygen::rng::splitmix64;
use crate::scenario::Variability;

use super::super::queue::NS_PER_MS;

/// Where a duration varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site {
    /// A flush's write time (HDFS pipeline speed, disk contention).
    Flush,
    /// A compaction's physical ceiling (read + write speed of its server's disks).
    Compaction,
    /// A region's close/open transition (procedure steps, meta updates, the open).
    Transition,
}

impl Site {
    /// σ of the log-normal factor: flush and compaction speeds within about ±25 % (one σ) of
    /// the bandwidth; transitions with a long right tail (median 1 s ⇒ p90 ≈ 1.9 s, p99 ≈
    /// 3.2 s, the 1–5 s split times operators report).
    fn sigma(self) -> f64 {
        match self {
            Site::Flush | Site::Compaction => 0.25,
            Site::Transition => 0.5,
        }
    }

    fn salt(self) -> u64 {
        match self {
            Site::Flush => 0xF1_0511,
            Site::Compaction => 0xC0_4FAC,
            Site::Transition => 0x7_2A45,
        }
    }
}

/// Share of the heap the young generation's eden fills before a young collection (G1 sizes
/// eden between 5 % and 60 % of the heap to meet its pause goal; a RegionServer whose
/// memstores and block cache keep most of the heap live runs near the low end).
pub(crate) const GC_EDEN_SHARE: f64 = 1.0 / 16.0;
/// Bytes the write path allocates per data byte it takes: the RPC's decoded cells, the copy
/// into the memstore's MSLAB chunks and the WAL's serialized edit.
pub(crate) const GC_ALLOC_PER_BYTE: f64 = 3.0;

/// Mean data bytes a RegionServer with a `heap`-byte heap takes between young collections:
/// eden over the allocation per byte (a 16 GiB heap: 341 MiB; at 85 MB/s of writes, one
/// collection every 4 s).
pub(crate) fn gc_churn_mean(heap: u64) -> f64 {
    heap as f64 * GC_EDEN_SHARE / GC_ALLOC_PER_BYTE
}

/// Median young pause of a `heap`-byte heap, ms: [`GC_YOUNG_MEDIAN_MS`] scaled with the heap,
/// at least 1 ms, at most the pause goal.
pub(crate) fn gc_young_median_ms(heap: u64) -> f64 {
    (GC_YOUNG_MEDIAN_MS * heap as f64 / GC_REFERENCE_HEAP).clamp(1.0, GC_PAUSE_GOAL_MS)
}
/// Median young-generation pause of a 16 GiB heap, ms (log-normal, σ [`GC_YOUNG_SIGMA`]). A
/// young pause copies eden's survivors (for a RegionServer mostly the MSLAB chunks just filled),
/// so it scales with eden, thus with the heap, up to G1's pause goal
/// ([`GC_PAUSE_GOAL_MS`], `-XX:MaxGCPauseMillis`): the pause time per byte written is about the
/// same for any heap.
pub(crate) const GC_YOUNG_MEDIAN_MS: f64 = 40.0;
/// G1's default pause-time goal, ms: eden is sized to keep young pauses under it.
pub(crate) const GC_PAUSE_GOAL_MS: f64 = 200.0;
/// The heap [`GC_YOUNG_MEDIAN_MS`] is for.
const GC_REFERENCE_HEAP: f64 = (16u64 << 30) as f64;
const GC_YOUNG_SIGMA: f64 = 0.5;
/// One pause in this many is a long one (mixed / full collection): about every 10 minutes.
pub(crate) const GC_LONG_ONE_IN: u64 = 150;
/// Median long pause, ms: above `JvmPauseMonitor`'s INFO threshold (`jvm.pause.info-threshold.ms`,
/// 1 s) most of the time, rarely near its WARN threshold (10 s).
pub(crate) const GC_LONG_MEDIAN_MS: f64 = 1500.0;
const GC_LONG_SIGMA: f64 = 0.6;
/// Normal draws are clamped to ±this many σ, so no single draw is absurd.
const CLAMP: f64 = 3.0;

/// One stop-the-world pause of a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GcPause {
    /// Data bytes the server's write path takes after the previous pause (or its start)
    /// before this one: the heap's churn fills eden.
    pub(crate) churn_bytes: u64,
    /// Length of the pause, ns.
    pub(crate) pause_ns: u64,
    /// A long (old-generation) pause.
    pub(crate) long: bool,
}

/// The run's draws: the seed, and whether variability is on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Draws {
    seed: u64,
    on: bool,
}

impl Draws {
    pub(crate) fn new(seed: u64, v: Variability) -> Draws {
        Draws {
            seed,
            on: v == Variability::Default,
        }
    }

    /// Servers pause for GC.
    pub(crate) fn gc_on(&self) -> bool {
        self.on
    }

    /// The factor (median 1) occurrence `n` of `site` for `id` takes: e^(σZ), Z clamped.
    pub(crate) fn factor(&self, site: Site, id: u64, n: u64) -> f64 {
        if !self.on {
            return 1.0;
        }
        (site.sigma() * self.normal(site.salt(), id, n)).exp()
    }

    /// `ns` as occurrence `n` of `site` for `id` takes it (unchanged with variability off).
    pub(crate) fn duration(&self, site: Site, id: u64, n: u64, ns: u64) -> u64 {
        if !self.on {
            return ns;
        }
        (ns as f64 * self.factor(site, id, n)).round() as u64
    }

    /// A bandwidth (bytes/s) as occurrence `n` of `site` for `id` gets it: divided by the
    /// duration factor (at least 1 B/s).
    pub(crate) fn rate(&self, site: Site, id: u64, n: u64, per_s: u64) -> u64 {
        if !self.on {
            return per_s;
        }
        ((per_s as f64 / self.factor(site, id, n)).round() as u64).max(1)
    }

    /// The `n`-th pause of `server` (n = 0, 1, …) of a RegionServer with a `heap`-byte heap:
    /// the churn after the previous one that brings it (exponential, mean
    /// [`gc_churn_mean`]) and its length.
    pub(crate) fn gc_pause(&self, server: usize, n: u64, heap: u64) -> GcPause {
        let id = server as u64;
        let churn = -gc_churn_mean(heap) * (1.0 - self.unit(0x6C_6A50, id, n, 0)).ln();
        let long = splitmix64(self.key(0x6C_10C6, id, n, 0)).is_multiple_of(GC_LONG_ONE_IN);
        let (median, sigma) = if long {
            (GC_LONG_MEDIAN_MS, GC_LONG_SIGMA)
        } else {
            (gc_young_median_ms(heap), GC_YOUNG_SIGMA)
        };
        let pause_ms = median * (sigma * self.normal(0x6C_9A05, id, n)).exp();
        GcPause {
            churn_bytes: (churn as u64).max(1),
            pause_ns: (pause_ms * NS_PER_MS as f64) as u64,
            long,
        }
    }

    fn key(&self, salt: u64, id: u64, n: u64, k: u64) -> u64 {
        let a = splitmix64(self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let b = splitmix64(a ^ id.wrapping_mul(0xA24B_AED4_963E_E407));
        b ^ n.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ k.rotate_left(29)
    }

    /// Uniform in (0, 1).
    fn unit(&self, salt: u64, id: u64, n: u64, k: u64) -> f64 {
        ((splitmix64(self.key(salt, id, n, k)) >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller), clamped to ±[`CLAMP`].
    fn normal(&self, salt: u64, id: u64, n: u64) -> f64 {
        let u1 = self.unit(salt, id, n, 1);
        let u2 = self.unit(salt, id, n, 2);
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        z.clamp(-CLAMP, CLAMP)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::queue::NS_PER_S;

    fn on() -> Draws {
        Draws::new(42, Variability::Default)
    }

    #[test]
    fn none_leaves_every_duration_and_rate_as_it_is() {
        let d = Draws::new(42, Variability::None);
        for n in 0..100 {
            assert_eq!(d.duration(Site::Flush, 3, n, 1_234_567), 1_234_567);
            assert_eq!(d.rate(Site::Compaction, 3, n, 100 << 20), 100 << 20);
            assert_eq!(
                d.duration(Site::Transition, n, 0, 1_000_000_000),
                1_000_000_000
            );
        }
        assert!(!d.gc_on());
    }

    #[test]
    fn factors_spread_around_a_median_of_one_within_the_clamp() {
        let d = on();
        let mut f: Vec<f64> = (0..20_000).map(|n| d.factor(Site::Flush, 7, n)).collect();
        f.sort_by(f64::total_cmp);
        let median = f[f.len() / 2];
        assert!((median - 1.0).abs() < 0.02, "median {median}");
        // One σ (0.25) either side: the 16th and 84th percentiles near e^∓0.25.
        let p16 = f[f.len() * 16 / 100];
        let p84 = f[f.len() * 84 / 100];
        assert!((p16 - (-0.25f64).exp()).abs() < 0.03, "p16 {p16}");
        assert!((p84 - 0.25f64.exp()).abs() < 0.03, "p84 {p84}");
        let (lo, hi) = ((-0.75f64).exp(), 0.75f64.exp());
        assert!(f.iter().all(|&x| x >= lo - 1e-12 && x <= hi + 1e-12));
    }

    #[test]
    fn draws_are_pure_functions_of_seed_site_id_and_occurrence() {
        let (a, b) = (on(), on());
        for n in 0..50 {
            assert_eq!(
                a.duration(Site::Flush, 9, n, 10_000_000),
                b.duration(Site::Flush, 9, n, 10_000_000)
            );
            assert_eq!(a.gc_pause(2, n, 1 << 30), b.gc_pause(2, n, 1 << 30));
        }
        // Another site, id or seed draws something else.
        assert_ne!(
            a.factor(Site::Flush, 9, 1),
            a.factor(Site::Compaction, 9, 1)
        );
        assert_ne!(a.factor(Site::Flush, 9, 1), a.factor(Site::Flush, 10, 1));
        let c = Draws::new(43, Variability::Default);
        assert_ne!(a.factor(Site::Flush, 9, 1), c.factor(Site::Flush, 9, 1));
    }

    /// JvmPauseMonitor (hbase-common `org.apache.hadoop.hbase.util.JvmPauseMonitor`) reports a
    /// pause above 1 s at INFO and above 10 s at WARN: the long pauses drawn here mostly cross
    /// the first threshold and almost never the second; young pauses stay far below both.
    #[test]
    fn gc_pauses_follow_the_documented_figures_jvm_pause_monitor() {
        let d = on();
        let n = 60_000u64;
        let heap = 16u64 << 30;
        let mean = gc_churn_mean(heap);
        assert_eq!(mean as u64, heap / 16 / 3, "341 MiB for 16 GiB");
        let pauses: Vec<GcPause> = (0..n)
            .map(|i| d.gc_pause(i as usize % 10, i, heap))
            .collect();
        let got = pauses.iter().map(|p| p.churn_bytes as f64).sum::<f64>() / n as f64;
        assert!((got / mean - 1.0).abs() < 0.02, "{got} vs {mean}");
        let long: Vec<&GcPause> = pauses.iter().filter(|p| p.long).collect();
        let share = long.len() as f64 / n as f64;
        assert!(
            (share - 1.0 / GC_LONG_ONE_IN as f64).abs() < 0.002,
            "{share}"
        );
        let over_info = long.iter().filter(|p| p.pause_ns > NS_PER_S).count();
        assert!(
            over_info * 10 > long.len() * 6,
            "{over_info} of {}",
            long.len()
        );
        assert!(long.iter().all(|p| p.pause_ns < 10 * NS_PER_S));
        assert!(
            pauses
                .iter()
                .filter(|p| !p.long)
                .all(|p| p.pause_ns < 200 * NS_PER_MS)
        );
    }

    /// A young pause copies eden's survivors: it scales with the heap, so the pause time per
    /// byte written is the same for any heap, until G1's pause goal (`-XX:MaxGCPauseMillis`,
    /// 200 ms) caps it.
    #[test]
    fn young_pauses_scale_with_the_heap_up_to_the_pause_goal() {
        assert_eq!(gc_young_median_ms(16 << 30), GC_YOUNG_MEDIAN_MS);
        assert_eq!(gc_young_median_ms(2 << 30), 5.0);
        assert_eq!(gc_young_median_ms(1 << 40), GC_PAUSE_GOAL_MS);
        let per_byte = |heap: u64| gc_young_median_ms(heap) / gc_churn_mean(heap);
        assert!((per_byte(2 << 30) / per_byte(16 << 30) - 1.0).abs() < 1e-9);
    }
}
