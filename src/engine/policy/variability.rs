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

use super::super::queue::{NS_PER_MS, NS_PER_S};

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

/// Mean time between young-generation pauses of a loaded RegionServer, s (exponential gaps).
pub(crate) const GC_YOUNG_INTERVAL_S: f64 = 4.0;
/// Median young-generation pause, ms (log-normal, σ [`GC_YOUNG_SIGMA`]).
pub(crate) const GC_YOUNG_MEDIAN_MS: f64 = 40.0;
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
    /// Time since the previous pause (or the server's start), ns.
    pub(crate) gap_ns: u64,
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

    /// The `n`-th pause of `server` (n = 0, 1, …): its gap after the previous one and length.
    pub(crate) fn gc_pause(&self, server: usize, n: u64) -> GcPause {
        let id = server as u64;
        let gap_s = -GC_YOUNG_INTERVAL_S * (1.0 - self.unit(0x6C_6A50, id, n, 0)).ln();
        let long = splitmix64(self.key(0x6C_10C6, id, n, 0)).is_multiple_of(GC_LONG_ONE_IN);
        let (median, sigma) = if long {
            (GC_LONG_MEDIAN_MS, GC_LONG_SIGMA)
        } else {
            (GC_YOUNG_MEDIAN_MS, GC_YOUNG_SIGMA)
        };
        let pause_ms = median * (sigma * self.normal(0x6C_9A05, id, n)).exp();
        GcPause {
            gap_ns: ((gap_s * NS_PER_S as f64) as u64).max(NS_PER_MS),
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
            assert_eq!(a.gc_pause(2, n), b.gc_pause(2, n));
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
        let pauses: Vec<GcPause> = (0..n).map(|i| d.gc_pause(i as usize % 10, i)).collect();
        let mean_gap_s =
            pauses.iter().map(|p| p.gap_ns as f64).sum::<f64>() / n as f64 / NS_PER_S as f64;
        assert!(
            (mean_gap_s - GC_YOUNG_INTERVAL_S).abs() < 0.1,
            "{mean_gap_s}"
        );
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
}
