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
///
/// The walk prices candidate actions by how they change Σ(xᵢ − mean)² (a move or swap keeps
/// the total, so the mean and the min/max skew stay put): [`shift`](Self::shift) gives that
/// change in O(1) and [`cost_at`](Self::cost_at) the scaled cost it leads to.
#[derive(Debug, Clone)]
pub struct DoubleArrayCost {
    values: Vec<f64>,
    /// Σ(xᵢ − mean)², summed exactly as `computeCost` does when refreshed.
    var: f64,
    /// (min skew, max skew) for the current total.
    skew: (f64, f64),
    changed: bool,
    cost: f64,
}

impl DoubleArrayCost {
    /// Over `values` (one per server).
    pub fn new(values: Vec<f64>) -> DoubleArrayCost {
        let mut d = DoubleArrayCost {
            values,
            var: 0.0,
            skew: (0.0, 0.0),
            changed: true,
            cost: 0.0,
        };
        d.refresh();
        d
    }

    /// Sets server `i`'s value.
    pub fn set(&mut self, i: usize, v: f64) {
        self.values[i] = v;
        self.changed = true;
    }

    /// Adds `d` to server `i`'s value.
    pub fn add(&mut self, i: usize, d: f64) {
        self.values[i] += d;
        self.changed = true;
    }

    fn refresh(&mut self) {
        let n = self.values.len() as f64;
        if n == 0.0 {
            (self.var, self.skew, self.cost) = (0.0, (0.0, 0.0), 0.0);
        } else {
            let total: f64 = self.values.iter().sum();
            let mean = total / n;
            self.var = self.values.iter().map(|x| (mean - x) * (mean - x)).sum();
            self.skew = (min_skew(total, n), max_skew(total, n));
            self.cost = self.cost_at(0.0);
        }
        self.changed = false;
    }

    /// The scaled cost: √Σ(mean − xᵢ)² between the min and max skew, as [`array_cost`].
    pub fn cost(&mut self) -> f64 {
        if self.changed {
            self.refresh();
        }
        self.cost
    }

    /// The change of Σ(xᵢ − mean)² when `d` moves from server `from` to server `to`:
    /// (u − d)² − u² + (w + d)² − w² with u, w the two values.
    pub fn shift(&self, from: usize, to: usize, d: f64) -> f64 {
        2.0 * d * (self.values[to] - self.values[from]) + 2.0 * d * d
    }

    /// The scaled cost once Σ(xᵢ − mean)² has changed by `dvar` (the total unchanged);
    /// `cost_at(0.0)` is the current cost. Call [`cost`](Self::cost) first after a change.
    pub fn cost_at(&self, dvar: f64) -> f64 {
        scale(self.skew.0, self.skew.1, (self.var + dvar).max(0.0).sqrt())
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
    fn priced_shift_equals_applied_shift() {
        let mut d = DoubleArrayCost::new(vec![7.0, 1.0, 4.0, 0.0]);
        let before = d.cost();
        let priced = d.cost_at(d.shift(0, 3, 2.5));
        d.add(0, -2.5);
        d.add(3, 2.5);
        assert!(close(d.cost(), priced), "{} vs {priced}", d.cost());
        assert!(priced < before);
        assert_eq!(d.cost_at(0.0), d.cost());
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
