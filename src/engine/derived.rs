//! Values derived from the settings and the scenario, computed in one place and used at the
//! start of a run, on `set` events and on workload phases.

use crate::config::Settings;
use crate::keygen::rng::splitmix64;

use super::queue::NS_PER_S;

/// HDFS's default block size (`dfs.blocksize`), which HBase doubles for the WAL's block size.
pub(crate) const HDFS_BLOCK_SIZE: u64 = 128 << 20;

/// The size past which a WAL rolls (`AbstractFSWAL`: `logrollsize` = WAL block size ×
/// `hbase.regionserver.logroll.multiplier`; the block size is `hbase.regionserver.hlog.blocksize`,
/// by default twice HDFS's, `WALUtil.getWALBlockSize`): 128 MB by default. At least 1 byte.
pub(crate) fn wal_roll_size(settings: &Settings) -> u64 {
    let block = settings.wal_block_size.unwrap_or(2 * HDFS_BLOCK_SIZE);
    ((block as f64 * settings.logroll_multiplier as f64) as u64).max(1)
}

/// `hbase.regionserver.maxlogs`, or HBase's default for it (`AbstractFSWAL.calculateMaxLogFiles`):
/// max(32, ⌊2 × global memstore limit / roll size⌋).
pub(crate) fn wal_max_logs(settings: &Settings, global_high: u64, roll_size: u64) -> usize {
    match settings.max_logs {
        Some(n) => n as usize,
        None => (((global_high as u128 * 2) / roll_size.max(1) as u128) as usize).max(32),
    }
}

/// Nanoseconds per byte at `bytes_per_s`, as 32.32 fixed point: the clock advances by
/// `(bytes × this) >> 32` with the fraction carried, so no division per row.
pub(crate) fn ns_per_byte_fp(bytes_per_s: u64) -> u128 {
    ((NS_PER_S as u128) << 32) / bytes_per_s.max(1) as u128
}

/// The `nextFloat()` in [0, 1) a region's split policy draws its jitter from when region `id`
/// opens: a seeded stream of (seed, region id), and of the time for a reopen after a settings
/// change (`reopened_at_ns`), so a reopened region draws afresh.
pub(crate) fn jitter_draw(seed: u64, id: usize, reopened_at_ns: Option<u64>) -> f32 {
    let mut x = seed ^ 0x0005_9117_0000 ^ (id as u64).wrapping_mul(0xA24B_AED4_963E_E407);
    if let Some(t) = reopened_at_ns {
        x ^= t.rotate_left(17);
    }
    (splitmix64(x) >> 40) as f32 / (1u64 << 24) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `AbstractFSWAL`'s constructor and `calculateMaxLogFiles`: 256 MB × 0.5 = 128 MB rolls; a
    /// 16 GB heap's 6.4 GB global memstore gives max(32, ⌊12.8 GB / 128 MB⌋) = 102 files.
    #[test]
    fn wal_roll_size_and_max_logs_follow_abstract_fs_wal() {
        let mut s = crate::engine::policy::balancer::test_settings();
        s.wal_block_size = None;
        s.logroll_multiplier = 0.5;
        s.max_logs = None;
        assert_eq!(wal_roll_size(&s), 128 << 20);
        let high = ((16u64 << 30) as f64 * 0.4f32 as f64) as u64;
        assert_eq!(wal_max_logs(&s, high, 128 << 20), 102);
        // A small heap: the floor of 32.
        assert_eq!(wal_max_logs(&s, 1 << 30, 128 << 20), 32);
        s.max_logs = Some(8);
        assert_eq!(wal_max_logs(&s, high, 128 << 20), 8);
        s.wal_block_size = Some(64 << 20);
        assert_eq!(wal_roll_size(&s), 32 << 20);
    }

    #[test]
    fn draws_are_in_the_unit_interval_and_differ_on_reopen() {
        for id in 0..1000 {
            let d = jitter_draw(7, id, None);
            assert!((0.0..1.0).contains(&d));
        }
        assert_ne!(
            jitter_draw(7, 3, None),
            jitter_draw(7, 3, Some(5_000_000_000))
        );
        assert_eq!(ns_per_byte_fp(1_000_000_000), 1 << 32);
    }
}
