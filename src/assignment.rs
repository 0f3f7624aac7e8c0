//! Where regions open: RegionServer names and the round-robin assignment of a new table.
//!
//! Mirrors `BaseLoadBalancer.roundRobinAssignment` as reached from `CreateTableProcedure`:
//! region i goes to server `(i + s) mod N` for a random start `s`, so every server gets ⌊n/N⌋ or
//! ⌈n/N⌉ regions. HBase draws `s` from an unseeded RNG; we draw it from the scenario seed so a
//! run is reproducible. (Balancers and moves are the cluster-dynamics work.)

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Stream id of the round-robin start draw (distinct from every other consumer of the seed).
const ROUND_ROBIN_STREAM: u64 = 0xA551_6E00;

/// Name of RegionServer `i` of `n`: `rs01`..`rs10` (zero-padded so names sort in server order).
pub fn server_name(i: usize, n: usize) -> String {
    let width = n.max(1).to_string().len().max(2);
    format!("rs{:0width$}", i + 1)
}

/// The random start `s` of the round-robin assignment for this seed.
pub fn round_robin_start(seed: u64, servers: usize) -> usize {
    if servers <= 1 {
        return 0;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(ROUND_ROBIN_STREAM);
    rng.random_range(0..servers)
}

/// Server index for each of `regions` regions of a new table (`BaseLoadBalancer.roundRobinAssignment`).
pub fn round_robin(regions: usize, servers: usize, seed: u64) -> Vec<usize> {
    if servers == 0 {
        return Vec::new();
    }
    let s = round_robin_start(seed, servers);
    (0..regions).map(|i| (i + s) % servers).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mirrors BaseLoadBalancer#roundRobinAssignment: each server gets floor(n/N) or ceil(n/N).
    #[test]
    fn round_robin_spreads_evenly() {
        for seed in 0..20 {
            let a = round_robin(20, 10, seed);
            let mut counts = [0; 10];
            a.iter().for_each(|&s| counts[s] += 1);
            assert!(counts.iter().all(|&c| c == 2), "{counts:?}");
            let b = round_robin(23, 10, seed);
            let mut counts = [0; 10];
            b.iter().for_each(|&s| counts[s] += 1);
            assert!(counts.iter().all(|&c| c == 2 || c == 3));
            assert_eq!(counts.iter().filter(|&&c| c == 3).count(), 3);
        }
    }

    #[test]
    fn start_depends_on_seed_only() {
        assert_eq!(round_robin(5, 3, 7), round_robin(5, 3, 7));
        let starts: std::collections::BTreeSet<usize> =
            (0..50).map(|s| round_robin_start(s, 10)).collect();
        assert!(
            starts.len() > 5,
            "start should vary with the seed: {starts:?}"
        );
        assert_eq!(round_robin(4, 1, 9), vec![0, 0, 0, 0]);
    }

    #[test]
    fn names_sort_in_server_order() {
        assert_eq!(server_name(0, 10), "rs01");
        assert_eq!(server_name(9, 10), "rs10");
        assert_eq!(server_name(99, 100), "rs100");
        assert_eq!(server_name(4, 100), "rs005");
    }
}
