//! Scale: one emulated row standing for K real rows.
//!
//! The K real ids of consecutive block b = `[b·K, (b+1)·K)` are represented by one id drawn from
//! the block (stratified sampling, HBASE-MODEL.md §0), so generators that depend on `id mod N`
//! (partition, modulo) do not alias with K. K = 1 is exact.

use crate::keygen::rng::splitmix64;

/// Emulated rows the automatic scale aims for per run: keeps a run within seconds and the
/// memory (memstore keys, block indexes) within a few hundred MB.
pub const AUTO_TARGET_ROWS: u64 = 4_000_000;

/// Emulated rows a flush and a region should hold at least: coarser than that, one emulated row
/// is a large share of a flush or a split, and (measured) hashed loads stop blocking and region
/// counts drift by 5–18 %.
pub const MIN_EMULATED_ROWS_PER_UNIT: u64 = 100;

/// The coarsest scale the figures stay trustworthy at: K such that a flush and a region at the
/// split size each still hold [`MIN_EMULATED_ROWS_PER_UNIT`] emulated rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScaleGuard {
    /// Real rows in one flush (flush size / a row's memstore heap).
    pub flush_rows: u64,
    /// Real rows in a region at the split size (split size / a row's store bytes).
    pub split_rows: u64,
}

impl ScaleGuard {
    /// The largest K the guard allows (at least 1).
    pub fn max_k(&self) -> u64 {
        (self.flush_rows.min(self.split_rows) / MIN_EMULATED_ROWS_PER_UNIT).max(1)
    }

    /// For a K coarser than [`ScaleGuard::max_k`]: which figures are no longer trustworthy.
    pub fn warning(&self, k: u64) -> Option<String> {
        if k <= self.max_k() {
            return None;
        }
        let per_flush = self.flush_rows / k;
        let per_region = self.split_rows / k;
        Some(format!(
            "scale {k} is coarser than {} (at least {MIN_EMULATED_ROWS_PER_UNIT} emulated rows per flush and per region): \
             a flush holds {per_flush} emulated rows and a region at the split size {per_region}, so blocking, \
             flush and compaction counts, split times and the region count are not trustworthy",
            self.max_k()
        ))
    }
}

/// The scale for `rows` real rows: `requested` if given (even coarser than the guard: the report
/// then carries the guard's warning), else the smallest K that brings the emulated rows to at
/// most [`AUTO_TARGET_ROWS`], but never coarser than `guard` allows.
pub fn choose(rows: u64, requested: Option<u64>, guard: ScaleGuard) -> u64 {
    match requested {
        Some(k) => k.clamp(1, rows.max(1)),
        None => rows.div_ceil(AUTO_TARGET_ROWS).min(guard.max_k()).max(1),
    }
}

/// Emulated rows per run `advise` aims for while it compares candidate pre-splits: a quarter of
/// [`AUTO_TARGET_ROWS`], so several layouts run in the time of one report.
pub const SEARCH_TARGET_ROWS: u64 = 1_000_000;

/// The scale of a search run: the smallest K bringing the emulated rows to at most
/// [`SEARCH_TARGET_ROWS`], but never coarser than `guard` allows (so blocking, splits and the
/// region count stay trustworthy; with a tight guard the search runs finer and slower).
pub fn coarse(rows: u64, guard: ScaleGuard) -> u64 {
    rows.div_ceil(SEARCH_TARGET_ROWS).min(guard.max_k()).max(1)
}

/// The emulated rows of a workload: ids and weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampling {
    /// First real id.
    pub first_id: u64,
    /// Real rows.
    pub rows: u64,
    /// Real rows per emulated row.
    pub k: u64,
    /// Seed of the in-block draws.
    pub seed: u64,
}

impl Sampling {
    /// Number of emulated rows.
    pub fn emulated(&self) -> u64 {
        self.rows.div_ceil(self.k)
    }

    /// Real rows emulated row `b` stands for (K, or fewer for the last block).
    pub fn weight(&self, b: u64) -> u64 {
        let start = b * self.k;
        self.k.min(self.rows - start)
    }

    /// The real id representing block `b`.
    pub fn id(&self, b: u64) -> u64 {
        let w = self.weight(b);
        let offset = if w <= 1 {
            0
        } else {
            splitmix64(self.seed ^ 0x5CA1_E000 ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % w
        };
        self.first_id + b * self.k + offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOSE: ScaleGuard = ScaleGuard {
        flush_rows: u64::MAX,
        split_rows: u64::MAX,
    };

    #[test]
    fn auto_scale_bounds_emulated_rows() {
        assert_eq!(choose(1_000, None, LOOSE), 1);
        assert_eq!(choose(100_000_000, None, LOOSE), 25);
        let k = choose(4 << 30, None, LOOSE);
        assert!((4u64 << 30).div_ceil(k) <= AUTO_TARGET_ROWS);
        assert_eq!(choose(100, Some(1000), LOOSE), 100);
        assert_eq!(choose(100, Some(1), LOOSE), 1);
    }

    #[test]
    fn the_guard_keeps_a_hundred_emulated_rows_per_flush_and_region() {
        let g = ScaleGuard {
            flush_rows: 120_000,
            split_rows: 2_000_000,
        };
        assert_eq!(g.max_k(), 1_200);
        // The automatic K would be 1,074; with 1,000 rows per flush it is held to 10.
        let tight = ScaleGuard {
            flush_rows: 1_000,
            ..g
        };
        assert_eq!(choose(4 << 30, None, g), 1_074);
        assert_eq!(choose(4 << 30, None, tight), 10);
        // A requested K is kept; coarser than the guard it carries a warning.
        assert_eq!(choose(4 << 30, Some(5_000), g), 5_000);
        assert!(g.warning(1_200).is_none());
        let w = g.warning(5_000).expect("coarser than the guard");
        assert!(
            w.contains("24 emulated rows") && w.contains("region count"),
            "{w}"
        );
        assert_eq!(
            ScaleGuard {
                flush_rows: 5,
                split_rows: 5
            }
            .max_k(),
            1
        );
    }

    #[test]
    fn the_search_scale_is_coarse_but_guarded() {
        assert_eq!(coarse(100_000_000, LOOSE), 100);
        assert_eq!(coarse(10, LOOSE), 1);
        let g = ScaleGuard {
            flush_rows: 120_000,
            split_rows: 2_000_000,
        };
        // 4 Gi rows would want 4,295; the guard holds it to 1,200.
        assert_eq!(coarse(4 << 30, g), 1_200);
        assert!(g.warning(coarse(4 << 30, g)).is_none());
    }

    #[test]
    fn weights_sum_to_rows_and_ids_stay_in_their_block() {
        let s = Sampling {
            first_id: 1,
            rows: 1003,
            k: 10,
            seed: 9,
        };
        assert_eq!(s.emulated(), 101);
        let total: u64 = (0..s.emulated()).map(|b| s.weight(b)).sum();
        assert_eq!(total, 1003);
        for b in 0..s.emulated() {
            let id = s.id(b);
            assert!(
                id > b * 10 && id < 1 + b * 10 + s.weight(b),
                "block {b} id {id}"
            );
        }
        let exact = Sampling {
            first_id: 0,
            rows: 5,
            k: 1,
            seed: 1,
        };
        assert_eq!(
            (0..5).map(|b| exact.id(b)).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4]
        );
    }
}
