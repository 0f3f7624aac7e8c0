//! Per-row draws for template fields: sequential, uniform, zipfian (YCSB), latest (YCSB).
//!
//! Every draw is a pure function of `(seed, field stream, id)`: one random word per row and field
//! turned into a value, so a field has the same value wherever a template mentions it.

use super::rng;
use super::ycsb::fnvhash64;

/// YCSB's `ZipfianGenerator.ZIPFIAN_CONSTANT`.
pub const ZIPFIAN_CONSTANT: f64 = 0.99;

/// YCSB `ScrambledZipfianGenerator.ITEM_COUNT`: the scrambled generator draws ranks over 10^10
/// items and hashes them down.
pub const SCRAMBLED_ITEM_COUNT: u64 = 10_000_000_000;

/// YCSB `ScrambledZipfianGenerator.ZETAN`: ζ(10^10, 0.99), precomputed there.
pub const SCRAMBLED_ZETAN: f64 = 26.469_028_201_783_02;

/// ζ(n, θ) = Σ_{i=1..n} i^−θ: exact up to 2^20 terms, then the Euler–Maclaurin tail (relative
/// error < 1e-12 for θ = 0.99), so building a field over 10^10 items is instant.
pub fn zeta(n: u64, theta: f64) -> f64 {
    const EXACT: u64 = 1 << 20;
    let m = n.min(EXACT);
    let mut sum = 0.0;
    for i in 1..=m {
        sum += 1.0 / (i as f64).powf(theta);
    }
    if n > m {
        let f = |x: f64| x.powf(-theta);
        let df = |x: f64| -theta * x.powf(-theta - 1.0);
        let (a, b) = (m as f64, n as f64);
        let integral = (b.powf(1.0 - theta) - a.powf(1.0 - theta)) / (1.0 - theta);
        sum += integral + (f(b) - f(a)) / 2.0 + (df(b) - df(a)) / 12.0;
    }
    sum
}

/// YCSB `ZipfianGenerator` (Gray et al., "Quickly Generating Billion-Record Synthetic
/// Databases", SIGMOD 1994) over ranks `0..items`: rank 0 is the most popular.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zipf {
    items: u64,
    theta: f64,
    alpha: f64,
    zetan: f64,
    eta: f64,
    zeta2: f64,
}

impl Zipf {
    /// Over `items` ≥ 1 ranks with constant `theta` (0 < θ < 1).
    pub fn new(items: u64, theta: f64) -> Zipf {
        Zipf::with_zetan(items, theta, zeta(items, theta))
    }

    /// With a precomputed ζ(items, θ) (as YCSB's scrambled generator does).
    pub fn with_zetan(items: u64, theta: f64, zetan: f64) -> Zipf {
        let items = items.max(1);
        let zeta2 = zeta(2, theta);
        let eta = (1.0 - (2.0 / items as f64).powf(1.0 - theta)) / (1.0 - zeta2 / zetan);
        Zipf {
            items,
            theta,
            alpha: 1.0 / (1.0 - theta),
            zetan,
            eta,
            zeta2,
        }
    }

    /// The rank for a uniform `u` in `[0, 1)` (`ZipfianGenerator.nextLong`).
    #[inline]
    pub fn sample(&self, u: f64) -> u64 {
        let uz = u * self.zetan;
        if uz < 1.0 || self.items == 1 {
            return 0;
        }
        if uz < self.zeta2 {
            return 1.min(self.items - 1);
        }
        let r = self.items as f64 * (self.eta * u - self.eta + 1.0).powf(self.alpha);
        if r.is_finite() && r >= 0.0 {
            (r as u64).min(self.items - 1)
        } else {
            self.items - 1
        }
    }

    /// Number of ranks.
    pub fn items(&self) -> u64 {
        self.items
    }

    /// θ.
    pub fn theta(&self) -> f64 {
        self.theta
    }
}

/// A field's distribution, ready to draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Draw {
    /// The id (mod the cardinality, if any).
    Sequential {
        /// Optional cycle length.
        cardinality: Option<u64>,
    },
    /// Uniform over `0..n`.
    Uniform {
        /// Cardinality.
        n: u64,
    },
    /// YCSB `ScrambledZipfianGenerator`: `fnvhash64(zipf rank over 10^10) % n`.
    Zipfian {
        /// Cardinality.
        n: u64,
        /// The 10^10-item rank generator.
        zipf: Zipf,
    },
    /// YCSB `ZipfianGenerator` over `0..n`: value = rank.
    ZipfianOrdered {
        /// The rank generator over the cardinality.
        zipf: Zipf,
    },
    /// YCSB `SkewedLatestGenerator`: `id − (zipf rank % ids written so far)`.
    Latest {
        /// Ranks over the window.
        zipf: Zipf,
        /// First id of the workload.
        first_id: u64,
    },
}

impl Draw {
    /// For people: `zipfian over 1,000,000`, `uniform over 10`, `sequential`.
    pub fn describe(&self) -> String {
        let n = |v: u64| crate::units::thousands(u128::from(v));
        match self {
            Draw::Sequential { cardinality: None } => "sequential (the row id)".to_string(),
            Draw::Sequential {
                cardinality: Some(c),
            } => format!("sequential, cycling over {}", n(*c)),
            Draw::Uniform { n: c } => format!("uniform over {}", n(*c)),
            Draw::Zipfian { n: c, .. } => format!("zipfian over {}", n(*c)),
            Draw::ZipfianOrdered { zipf } => format!("ordered zipfian over {}", n(zipf.items)),
            Draw::Latest { zipf, .. } => format!(
                "latest (zipfian toward the newest ids, window {})",
                n(zipf.items)
            ),
        }
    }

    /// Scrambled zipfian over `0..n`.
    pub fn zipfian(n: u64) -> Draw {
        Draw::Zipfian {
            n,
            zipf: Zipf::with_zetan(SCRAMBLED_ITEM_COUNT, ZIPFIAN_CONSTANT, SCRAMBLED_ZETAN),
        }
    }

    /// Ordered zipfian over `0..n`.
    pub fn zipfian_ordered(n: u64) -> Draw {
        Draw::ZipfianOrdered {
            zipf: Zipf::new(n, ZIPFIAN_CONSTANT),
        }
    }

    /// Latest, skewed over a window of `window` recent ids.
    pub fn latest(window: u64, first_id: u64) -> Draw {
        Draw::Latest {
            zipf: Zipf::new(window, ZIPFIAN_CONSTANT),
            first_id,
        }
    }

    /// The value of row `id` drawn from stream `stream` under `seed`.
    #[inline]
    pub fn value(&self, seed: u64, stream: u64, id: u64) -> u64 {
        let word = || rng::draw(seed, stream, id);
        match *self {
            Draw::Sequential { cardinality: None } => id,
            Draw::Sequential {
                cardinality: Some(n),
            } => id % n,
            Draw::Uniform { n } => rng::below(word(), n),
            Draw::Zipfian { n, zipf } => {
                fnvhash64(zipf.sample(rng::unit(word()))).unsigned_abs() % n
            }
            Draw::ZipfianOrdered { zipf } => zipf.sample(rng::unit(word())),
            Draw::Latest { zipf, first_id } => {
                // Saturating: the last id (u64::MAX) must not wrap the count to 0.
                let written = if id >= first_id {
                    (id - first_id).saturating_add(1)
                } else {
                    id.saturating_add(1)
                };
                id - zipf.sample(rng::unit(word())) % written
            }
        }
    }

    /// An upper bound of the values (for key-length checks).
    pub fn max_value(&self) -> u64 {
        match *self {
            Draw::Sequential {
                cardinality: Some(n),
            }
            | Draw::Uniform { n }
            | Draw::Zipfian { n, .. } => n - 1,
            Draw::ZipfianOrdered { zipf } => zipf.items() - 1,
            Draw::Sequential { cardinality: None } | Draw::Latest { .. } => u64::MAX,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // YCSB ScrambledZipfianGenerator hard-codes ZETAN = 26.46902820178302 for 10^10 items.
    #[test]
    fn zeta_matches_ycsb_constant() {
        let z = zeta(SCRAMBLED_ITEM_COUNT, ZIPFIAN_CONSTANT);
        assert!((z - SCRAMBLED_ZETAN).abs() < 1e-6, "{z}");
        // exact region
        assert!((zeta(3, 0.99) - (1.0 + 2f64.powf(-0.99) + 3f64.powf(-0.99))).abs() < 1e-12);
    }

    fn histogram(d: Draw, n: usize, rows: u64) -> Vec<u32> {
        let mut h = vec![0u32; n];
        for id in 0..rows {
            let v = d.value(7, 11, id);
            assert!((v as usize) < n, "value {v} outside cardinality {n}");
            h[v as usize] += 1;
        }
        h
    }

    // YCSB ZipfianGenerator: rank 0 is drawn with probability 1/ζ(n).
    #[test]
    fn ordered_zipfian_is_within_cardinality_and_skewed() {
        let n = 1000;
        let rows = 200_000;
        let h = histogram(Draw::zipfian_ordered(n as u64), n, rows);
        let p0 = f64::from(h[0]) / rows as f64;
        let expect = 1.0 / zeta(n as u64, 0.99);
        assert!((p0 - expect).abs() < 0.01, "{p0} vs {expect}");
        assert!(h[0] > h[1] && h[1] > h[10] && h[10] > h[500]);
        // top 10 % of values take more than half the draws
        let top: u32 = h[..100].iter().sum();
        assert!(f64::from(top) > 0.5 * rows as f64);
    }

    #[test]
    fn scrambled_zipfian_is_within_cardinality_and_skewed() {
        let n = 1000;
        let rows = 200_000;
        let mut h = histogram(Draw::zipfian(n as u64), n, rows);
        h.sort_unstable_by(|a, b| b.cmp(a));
        let top: u32 = h[..100].iter().sum();
        assert!(f64::from(top) > 0.25 * rows as f64, "top 10% = {top}");
        assert!(h[0] > 20 * (rows as u32 / n as u32), "hottest item is hot");
    }

    #[test]
    fn uniform_is_flat() {
        let h = histogram(Draw::Uniform { n: 10 }, 10, 100_000);
        assert!(h.iter().all(|&c| (9_000..11_000).contains(&c)), "{h:?}");
    }

    // YCSB SkewedLatestGenerator: recent ids most likely.
    #[test]
    fn latest_is_at_or_below_id_and_recent() {
        let d = Draw::latest(1_000_000, 100);
        let mut recent = 0;
        for id in 100..20_100u64 {
            let v = d.value(3, 4, id);
            assert!((100..=id).contains(&v), "{v} for {id}");
            if id - v < 10 {
                recent += 1;
            }
        }
        // P(back < 10) = ζ(10)/ζ(10^6) ≈ 0.2 (uniform would be 10/20000)
        assert!(recent > 20_000 / 8, "{recent}");
    }

    #[test]
    fn tiny_cardinalities() {
        for n in [1u64, 2] {
            let h = histogram(Draw::zipfian_ordered(n), n as usize, 1000);
            assert_eq!(h.iter().sum::<u32>(), 1000);
        }
    }
}
