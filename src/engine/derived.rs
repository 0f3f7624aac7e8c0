//! Values derived from the settings and the scenario, computed in one place and used at the
//! start of a run, on `set` events and on workload phases.

use crate::config::Settings;
use crate::keygen::rng::splitmix64;

use super::queue::NS_PER_S;

/// The global memstore limits of a server with `heap` bytes: the high mark
/// (`hbase.regionserver.global.memstore.size` × heap, or an absolute size) at which writes
/// block, and the low mark (`…lower.limit` × high) from which flushes are forced.
pub(crate) fn global_memstore_limits(settings: &Settings, heap: u64) -> (u64, u64) {
    let high = settings
        .global_memstore_bytes
        .unwrap_or((heap as f64 * settings.global_memstore_fraction as f64) as u64);
    let low = (high as f64 * settings.global_memstore_lower_limit as f64) as u64;
    (high, low)
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

    #[test]
    fn limits_follow_the_fractions_or_the_absolute_size() {
        let mut s = crate::engine::policy::balancer::test_settings();
        s.global_memstore_fraction = 0.4;
        s.global_memstore_lower_limit = 0.75;
        s.global_memstore_bytes = None;
        assert_eq!(global_memstore_limits(&s, 1000), (400, 300));
        s.global_memstore_bytes = Some(200);
        assert_eq!(global_memstore_limits(&s, 1000), (200, 150));
        // The fraction is a Java float: 0.95 × 400 truncates to 379, as HBase's long cast does.
        s.global_memstore_bytes = None;
        s.global_memstore_lower_limit = 0.95;
        assert_eq!(global_memstore_limits(&s, 1000), (400, 379));
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
