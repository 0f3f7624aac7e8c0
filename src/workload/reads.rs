//! The read workload: gets and scans over the rows written so far, with YCSB's request
//! distributions, counted per region, server and key bucket so read hotspots show beside write
//! hotspots. Reads do not change data or block writes (they are a second client).
//!
//! One emulated read stands for `k` real reads (chosen so a run emulates at most about two
//! million of them); a read picks a real row id with the distribution, and the key of the
//! emulated row standing for that id is routed.

use crate::keygen::distribution::{SCRAMBLED_ZETAN, Zipf};
use crate::keygen::rng::unit;
use crate::keygen::ycsb::fnvhash64;
use crate::scenario::{ReadDistribution, Reads};

/// Emulated reads a run aims at, at most.
const TARGET_EMULATED_READS: f64 = 2_000_000.0;
/// YCSB `ScrambledZipfianGenerator.ITEM_COUNT`.
const SCRAMBLED_ITEMS: u64 = 10_000_000_000;
/// ζ is summed exactly up to this many items, then extended with Euler–Maclaurin.
const EXACT_ZETA: u64 = 1 << 20;

/// Read workload state.
#[derive(Debug, Clone)]
pub(crate) struct ReadState {
    pub(crate) gets_per_s: f64,
    pub(crate) scans_per_s: f64,
    pub(crate) scan_rows: u64,
    dist: Option<ReadDistribution>,
    /// Real reads per emulated read.
    pub(crate) k: u64,
    /// Time of the next emulated read, ns (`u64::MAX`: none).
    pub(crate) next_ns: u64,
    /// Emulated reads so far (the random stream's counter).
    pub(crate) seq: u64,
    /// Scrambled zipfian over YCSB's 10^10 items.
    scrambled: Option<Zipf>,
    /// `latest`: ζ(n) kept incrementally for the growing item count.
    latest: LatestZeta,
}

/// ζ(n, θ) for a growing n: exact sums while n is small, then the cached exact part plus the
/// integral tail (what `distribution::zeta` computes from scratch).
#[derive(Debug, Clone, Default)]
struct LatestZeta {
    theta: f64,
    n: u64,
    sum: f64,
    zipf: Option<Zipf>,
}

impl LatestZeta {
    fn zipf(&mut self, n: u64) -> Zipf {
        let n = n.max(1);
        // Rebuild only when the item count has grown by 0.1 % (or is small): YCSB rebuilds on
        // every change, which a draw-level difference this small does not need.
        if let Some(z) = self.zipf
            && (z.items() == n || (n - z.items()) * 1000 < z.items())
        {
            return z;
        }
        let theta = self.theta;
        while self.n < n.min(EXACT_ZETA) {
            self.n += 1;
            self.sum += 1.0 / (self.n as f64).powf(theta);
        }
        let zetan = if n <= EXACT_ZETA {
            self.sum
        } else {
            let f = |x: f64| x.powf(-theta);
            let df = |x: f64| -theta * x.powf(-theta - 1.0);
            let (a, b) = (EXACT_ZETA as f64, n as f64);
            self.sum
                + (b.powf(1.0 - theta) - a.powf(1.0 - theta)) / (1.0 - theta)
                + (f(b) - f(a)) / 2.0
                + (df(b) - df(a)) / 12.0
        };
        let z = Zipf::with_zetan(n, theta, zetan);
        self.zipf = Some(z);
        z
    }
}

impl ReadState {
    /// No reads.
    pub(crate) fn none() -> ReadState {
        ReadState {
            gets_per_s: 0.0,
            scans_per_s: 0.0,
            scan_rows: 1,
            dist: None,
            k: 1,
            next_ns: u64::MAX,
            seq: 0,
            scrambled: None,
            latest: LatestZeta::default(),
        }
    }

    /// The scenario's reads; `ideal_s` is the load's length at the offered write rate (to size k).
    pub(crate) fn new(reads: Option<&Reads>, ideal_s: f64) -> ReadState {
        let Some(r) = reads else {
            return ReadState::none();
        };
        let ops = (r.gets_per_s + r.scans_per_s) * ideal_s;
        let k = (ops / TARGET_EMULATED_READS).ceil().max(1.0) as u64;
        let theta = match r.distribution {
            ReadDistribution::Zipfian { theta } | ReadDistribution::Latest { theta } => theta,
            _ => 0.99,
        };
        let mut s = ReadState {
            gets_per_s: r.gets_per_s,
            scans_per_s: r.scans_per_s,
            scan_rows: r.scan_rows.max(1),
            dist: Some(r.distribution),
            k,
            next_ns: u64::MAX,
            seq: 0,
            scrambled: match r.distribution {
                ReadDistribution::Zipfian { theta } => Some(if (theta - 0.99).abs() < 1e-12 {
                    Zipf::with_zetan(SCRAMBLED_ITEMS, theta, SCRAMBLED_ZETAN)
                } else {
                    Zipf::new(SCRAMBLED_ITEMS, theta)
                }),
                _ => None,
            },
            latest: LatestZeta {
                theta,
                ..LatestZeta::default()
            },
        };
        s.next_ns = s.interval_ns().unwrap_or(u64::MAX);
        s
    }

    /// Time between emulated reads at the current rates.
    pub(crate) fn interval_ns(&self) -> Option<u64> {
        let rate = self.gets_per_s + self.scans_per_s;
        (rate > 0.0 && self.dist.is_some())
            .then(|| ((self.k as f64 * 1e9 / rate).round() as u64).max(1))
    }

    /// The real row index (0-based among `n` written) the next read picks, and whether it is
    /// a scan. `word` draws come from the (seed, read counter) stream.
    pub(crate) fn pick(&mut self, n: u64, word: &mut impl FnMut() -> u64) -> (u64, bool) {
        let rate = self.gets_per_s + self.scans_per_s;
        let scan = rate > 0.0 && unit(word()) * rate >= self.gets_per_s;
        let idx = match self.dist {
            None | Some(ReadDistribution::Uniform) => word() % n,
            Some(ReadDistribution::Zipfian { .. }) => {
                let rank = self.scrambled.map_or(0, |z| z.sample(unit(word())));
                fnvhash64(rank).unsigned_abs() % n
            }
            Some(ReadDistribution::Latest { .. }) => {
                let z = self.latest.zipf(n);
                n - 1 - z.sample(unit(word())).min(n - 1)
            }
            Some(ReadDistribution::Hotspot {
                hot_fraction,
                hot_op_fraction,
            }) => {
                let hot = ((n as f64 * hot_fraction) as u64).clamp(0, n);
                if hot > 0 && (unit(word()) < hot_op_fraction || hot == n) {
                    word() % hot
                } else if hot < n {
                    hot + word() % (n - hot)
                } else {
                    word() % n
                }
            }
        };
        (idx.min(n - 1), scan)
    }
}
