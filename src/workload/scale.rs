//! Scale: one emulated row standing for K real rows.
//!
//! The K real ids of consecutive block b = `[b·K, (b+1)·K)` are represented by one id drawn from
//! the block (stratified sampling, HBASE-MODEL.md §0), so generators that depend on `id mod N`
//! (partition, modulo) do not alias with K. K = 1 is exact.

use crate::keygen::rng::splitmix64;

/// Emulated rows the automatic scale aims for per run: keeps a run within seconds and the
/// memory (memstore keys, block indexes) within a few hundred MB.
pub const AUTO_TARGET_ROWS: u64 = 4_000_000;

/// The scale for `rows` real rows: `requested` if given, else the smallest K that brings the
/// emulated rows to at most [`AUTO_TARGET_ROWS`].
pub fn choose(rows: u64, requested: Option<u64>) -> u64 {
    match requested {
        Some(k) => k.clamp(1, rows.max(1)),
        None => rows.div_ceil(AUTO_TARGET_ROWS).max(1),
    }
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

    #[test]
    fn auto_scale_bounds_emulated_rows() {
        assert_eq!(choose(1_000, None), 1);
        assert_eq!(choose(100_000_000, None), 25);
        let k = choose(4 << 30, None);
        assert!((4u64 << 30).div_ceil(k) <= AUTO_TARGET_ROWS);
        assert_eq!(choose(100, Some(1000)), 100);
        assert_eq!(choose(100, Some(1)), 1);
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
