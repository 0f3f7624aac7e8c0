//! The StochasticLoadBalancer's cost arithmetic (`CostFunction.scale`, `DoubleArrayCost`,
//! `MoveCostFunction.cost`, the `CostFromRegionLoad*` per-region costs), kept apart so tests can
//! check the numbers against hand computations.

use std::collections::VecDeque;

/// Java's `Math.ulp` for a finite double: the gap to the next double away from zero.
pub fn ulp(x: f64) -> f64 {
    let a = x.abs();
    if !a.is_finite() {
        return a;
    }
    if a == f64::MAX {
        return 2f64.powi(971);
    }
    f64::from_bits(a.to_bits() + 1) - a
}

/// `CostFunction.scale`: `value` mapped from [min, max] to [0, 1], 0 when the range or the
/// distance from `min` is within one ulp of `max`.
pub fn scale(min: f64, max: f64, value: f64) -> f64 {
    let eps = ulp(max);
    if max <= min || value <= min || (max - min).abs() <= eps || (value - min).abs() <= eps {
        return 0.0;
    }
    ((value - min) / (max - min)).clamp(0.0, 1.0)
}

/// `DoubleArrayCost.getMinSkew`: the deviation when every entry is within 1 of the mean.
pub fn min_skew(total: f64, n: f64) -> f64 {
    if n == 0.0 {
        return 0.0;
    }
    let mean = total / n;
    let min = if n > total {
        (n - total) * mean * mean + (1.0 - mean) * (1.0 - mean) * total
    } else {
        let high = (total - mean.floor() * n) as i64 as f64;
        let low = (n - high) as i64 as f64;
        high * (mean.ceil() - mean).powi(2) + low * (mean - mean.floor()).powi(2)
    };
    min.sqrt()
}

/// `DoubleArrayCost.getMaxSkew`: the deviation when one entry holds everything.
pub fn max_skew(total: f64, n: f64) -> f64 {
    if n == 0.0 {
        return 0.0;
    }
    let mean = total / n;
    ((total - mean) * (total - mean) + (n - 1.0) * mean * mean).sqrt()
}

/// `DoubleArrayCost.computeCost`: √Σ(mean − xᵢ)² scaled between the min and max skew.
pub fn array_cost(stats: &[f64]) -> f64 {
    if stats.is_empty() {
        return 0.0;
    }
    let total: f64 = stats.iter().sum();
    let n = stats.len() as f64;
    let mean = total / n;
    let dev = stats
        .iter()
        .map(|x| (mean - x) * (mean - x))
        .sum::<f64>()
        .sqrt();
    scale(min_skew(total, n), max_skew(total, n), dev)
}

/// `DoubleArrayCost`: per-server values with the cost recomputed lazily after a change.
#[derive(Debug, Clone)]
pub struct DoubleArrayCost {
    values: Vec<f64>,
    /// Σx and Σx², kept up to date so a cost is O(1) per walk step instead of O(servers).
    sum: f64,
    sumsq: f64,
    /// Min and max skew for the total they were computed at: a move keeps the total, so
    /// the walk computes them about once.
    skew_for: f64,
    skew: (f64, f64),
    changed: bool,
    cost: f64,
}

impl DoubleArrayCost {
    /// Over `values` (one per server).
    pub fn new(values: Vec<f64>) -> DoubleArrayCost {
        DoubleArrayCost {
            sum: values.iter().sum(),
            sumsq: values.iter().map(|x| x * x).sum(),
            values,
            skew_for: f64::NAN,
            skew: (0.0, 0.0),
            changed: true,
            cost: 0.0,
        }
    }

    /// Sets server `i`'s value.
    pub fn set(&mut self, i: usize, v: f64) {
        let old = self.values[i];
        self.values[i] = v;
        self.sum += v - old;
        self.sumsq += v * v - old * old;
        self.changed = true;
    }

    /// Adds `d` to server `i`'s value.
    pub fn add(&mut self, i: usize, d: f64) {
        let v = self.values[i] + d;
        self.set(i, v);
    }

    /// The scaled cost: √Σ(mean − xᵢ)² = √(Σx² − (Σx)²/n), scaled as [`array_cost`] does.
    pub fn cost(&mut self) -> f64 {
        if self.changed {
            let n = self.values.len() as f64;
            self.cost = if n == 0.0 {
                0.0
            } else {
                let dev = (self.sumsq - self.sum * self.sum / n).max(0.0).sqrt();
                // Moves add and subtract the same amounts: the total only drifts by rounding.
                if (self.sum - self.skew_for).abs() > 1e-9 * self.sum.abs().max(1.0)
                    || self.skew_for.is_nan()
                {
                    self.skew_for = self.sum;
                    self.skew = (min_skew(self.sum, n), max_skew(self.sum, n));
                }
                scale(self.skew.0, self.skew.1, dev)
            };
            self.changed = false;
        }
        self.cost
    }

    /// The cost the array would have with servers `i` and `j` changed by `di` and `dj`, without
    /// changing it (the walk prices a candidate action before applying it).
    pub fn cost_if(&mut self, i: usize, di: f64, j: usize, dj: f64) -> f64 {
        if di == 0.0 && dj == 0.0 {
            return self.cost();
        }
        let n = self.values.len() as f64;
        let (vi, vj) = (self.values[i], self.values[j]);
        let (ni, nj) = (vi + di, vj + dj);
        let sum = self.sum + di + dj;
        let sumsq = self.sumsq - vi * vi - vj * vj + ni * ni + nj * nj;
        let dev = (sumsq - sum * sum / n).max(0.0).sqrt();
        if (sum - self.skew_for).abs() > 1e-9 * sum.abs().max(1.0) || self.skew_for.is_nan() {
            self.skew_for = sum;
            self.skew = (min_skew(sum, n), max_skew(sum, n));
        }
        scale(self.skew.0, self.skew.1, dev)
    }

    /// The per-server values.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

/// `MoveCostFunction.cost`: moved regions against min(regions, max(regions × maxMovePercent,
/// 600)); 1e6 once more than that cap have moved.
pub fn move_cost(moved: usize, num_regions: usize, max_move_percent: f32) -> f64 {
    let max_moves = ((num_regions as f32 * max_move_percent) as i32).max(600);
    if moved as i64 > i64::from(max_moves) {
        return 1_000_000.0;
    }
    scale(
        0.0,
        (num_regions as f64).min(f64::from(max_moves)),
        moved as f64,
    )
}

/// `CostFromRegionLoadFunction.getRegionLoadCost`: the mean of the samples.
pub fn mean_cost(samples: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = samples.len();
    if n == 0 {
        return 0.0;
    }
    samples.sum::<f64>() / n as f64
}

/// `CostFromRegionLoadAsRateFunction.getRegionLoadCost`: the mean growth between consecutive
/// samples (a drop counts as the new value: the counter was reset, e.g. the region reopened).
pub fn rate_cost(samples: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = samples.len();
    if n < 2 {
        return 0.0;
    }
    let mut it = samples;
    let mut prev = it.next().unwrap_or(0.0);
    let mut cost = 0.0;
    for cur in it {
        cost += if cur >= prev { cur - prev } else { cur };
        prev = cur;
    }
    (cost / (n - 1) as f64).max(0.0)
}

/// One `BalancerRegionLoad` sample: request counters and sizes in whole MB.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Cumulative read requests.
    pub read: u64,
    /// Cumulative write requests.
    pub write: u64,
    /// Memstore size, whole MB (RegionMetrics reports MB).
    pub memstore_mb: u64,
    /// Store file size, whole MB.
    pub storefile_mb: u64,
}

/// The four region-load costs of one region's history, in cost-function order
/// (ReadRequest, WriteRequest, MemStoreSize — rates — and StoreFileSize — a mean).
pub fn region_load_costs(h: &VecDeque<Sample>) -> [f64; 4] {
    [
        rate_cost(h.iter().map(|s| s.read as f64)),
        rate_cost(h.iter().map(|s| s.write as f64)),
        rate_cost(h.iter().map(|s| s.memstore_mb as f64)),
        mean_cost(h.iter().map(|s| s.storefile_mb as f64)),
    ]
}

#[cfg(test)]
mod tests {
    //! Numbers worked by hand from `DoubleArrayCost`, `CostFunction`, `MoveCostFunction`,
    //! `CostFromRegionLoadFunction` and `CostFromRegionLoadAsRateFunction` (HBase 2.6); the
    //! shapes follow `TestDoubleArrayCost` and `TestStochasticLoadBalancer.testMoveCost`.
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn skew_bounds() {
        // 10 regions on 3 servers: mean 3.33; best 4/3/3: √(0.667² + 2·0.333²) = √0.6667.
        assert!(close(min_skew(10.0, 3.0), (2.0f64 / 3.0).sqrt()));
        // worst 10/0/0: √((10 − 3.33)² + 2·3.33²) = √66.67.
        assert!(close(max_skew(10.0, 3.0), (200.0f64 / 3.0).sqrt()));
        // Fewer regions than servers (2 on 4): mean 0.5, min = √(2·0.25 + 0.25·2) = 1.
        assert!(close(min_skew(2.0, 4.0), 1.0));
        assert_eq!(min_skew(5.0, 0.0), 0.0);
    }

    #[test]
    fn array_cost_scales_between_best_and_worst() {
        assert_eq!(array_cost(&[10.0, 0.0, 0.0]), 1.0);
        assert_eq!(array_cost(&[4.0, 3.0, 3.0]), 0.0);
        // TestDoubleArrayCost: [0..99]·… shapes; here 6/4/0: dev √(2.667²+0.667²+3.333²)
        // = √18.667; scaled (4.3205 − 0.8165)/(8.1650 − 0.8165) = 0.476834.
        let c = array_cost(&[6.0, 4.0, 0.0]);
        let want = ((56.0f64 / 3.0).sqrt() - (2.0f64 / 3.0).sqrt())
            / ((200.0f64 / 3.0).sqrt() - (2.0f64 / 3.0).sqrt());
        assert!(close(c, want), "{c} vs {want}");
        assert!((c - 0.476_834).abs() < 1e-6, "{c}");
        assert_eq!(array_cost(&[]), 0.0);
        assert_eq!(array_cost(&[0.0, 0.0]), 0.0);
        assert_eq!(array_cost(&[5.0]), 0.0);
    }

    #[test]
    fn lazy_double_array_cost() {
        let mut d = DoubleArrayCost::new(vec![10.0, 0.0, 0.0]);
        assert_eq!(d.cost(), 1.0);
        d.add(0, -6.0);
        d.set(1, 3.0);
        d.add(2, 3.0);
        assert_eq!(d.cost(), 0.0);
        assert_eq!(d.values(), &[4.0, 3.0, 3.0]);
    }

    #[test]
    fn scale_rules() {
        assert_eq!(scale(0.0, 10.0, 5.0), 0.5);
        assert_eq!(scale(0.0, 10.0, 20.0), 1.0);
        assert_eq!(scale(0.0, 0.0, 5.0), 0.0);
        assert_eq!(scale(1.0, 10.0, 1.0), 0.0);
    }

    #[test]
    fn move_cost_caps() {
        // 1000 regions, maxMovePercent 1: cap max(1000, 600) = 1000 ⇒ 10 moved = 0.01.
        assert!(close(move_cost(10, 1000, 1.0), 0.01));
        // 100 regions: cap max(100, 600) = 600, scaled over min(100, 600) = 100.
        assert!(close(move_cost(10, 100, 1.0), 0.1));
        // maxMovePercent 0.1 of 10000 = 1000 cap: 1001 moved ⇒ 1e6.
        assert_eq!(move_cost(1001, 10_000, 0.1), 1_000_000.0);
        assert!(close(move_cost(500, 10_000, 0.1), 0.5));
        assert_eq!(move_cost(0, 0, 1.0), 0.0);
    }

    #[test]
    fn region_load_rates() {
        // Reads 100, 300, 250 (reset), 450: (200 + 250 + 200) / 3.
        assert!(close(
            rate_cost([100.0, 300.0, 250.0, 450.0].into_iter()),
            650.0 / 3.0
        ));
        assert_eq!(rate_cost([5.0].into_iter()), 0.0);
        assert_eq!(rate_cost(std::iter::empty()), 0.0);
        assert!(close(mean_cost([10.0, 20.0, 30.0].into_iter()), 20.0));
        let h: VecDeque<Sample> = [
            Sample {
                read: 10,
                write: 0,
                memstore_mb: 64,
                storefile_mb: 100,
            },
            Sample {
                read: 30,
                write: 50,
                memstore_mb: 2,
                storefile_mb: 200,
            },
        ]
        .into_iter()
        .collect();
        // Memstore 64 → 2 (a flush) counts as 2.
        assert_eq!(region_load_costs(&h), [20.0, 50.0, 2.0, 150.0]);
    }

    #[test]
    fn ulp_matches_java() {
        assert_eq!(ulp(1.0), f64::EPSILON);
        assert_eq!(ulp(0.0), f64::from_bits(1));
        assert_eq!(ulp(-2.0), 2.0 * f64::EPSILON);
    }
}
