//! The compaction throttle of a RegionServer: HBase 2.x's default
//! `PressureAwareCompactionThroughputController` (or `NoLimitThroughputController`).
//!
//! HBase's controller is one object per RegionServer (`CompactSplit` builds it through
//! `CompactionThroughputControllerFactory`). A chore re-tunes its limit every
//! `hbase.hstore.compaction.throughput.tune.period` from the server's compaction pressure; every
//! running compaction gets an equal share of that limit, recomputed when a compaction starts or
//! finishes and at each tune. The compactor reports each cell it writes; every
//! `…control.check.interval` bytes the controller makes the compaction sleep until that stretch
//! has taken at least bytes / share. A compaction is therefore never faster than its share, nor
//! than the machine can go — here `cluster.compaction_bandwidth`, the physical ceiling of one
//! compaction.
//!
//! hbase-emu turns this into rates: between two changes each compaction progresses at
//! min(ceiling, share), and its completion is rescheduled whenever its rate changes.

use crate::config::{Settings, ThroughputControllerClass};

/// Nanoseconds per second.
const NS_PER_S: u128 = 1_000_000_000;

/// `DefaultStoreFileManager.getCompactionPressure`: 0 up to `hbase.hstore.compaction.min`
/// files, then (files − min) / (blockingStoreFiles − min); above 1 once the store has more
/// files than `blockingStoreFiles` (when its flushes are held back). Java's int-then-double
/// arithmetic: a zero denominator gives +∞.
pub fn store_pressure(files: usize, min_files: usize, blocking_files: usize) -> f64 {
    if files <= min_files {
        return 0.0;
    }
    (files as i64 - min_files as i64) as f64 / (blocking_files as i64 - min_files as i64) as f64
}

/// The controller's total limit in bytes/s, `f64::INFINITY` for "unlimited".
/// `PressureAwareCompactionThroughputController.tune`: unlimited when the server's pressure is
/// above 1; else, during off-peak hours (`offpeak` = `Some(hbase.hstore.compaction.throughput.offpeak)`),
/// that fixed limit; else lower + (higher − lower) × pressure.
pub fn tuned_limit(pressure: f64, lower: u64, higher: u64, offpeak: Option<u64>) -> f64 {
    if pressure > 1.0 {
        return f64::INFINITY;
    }
    if let Some(limit) = offpeak {
        return limit as f64;
    }
    let span = higher as i64 - lower as i64;
    lower as f64 + span as f64 * pressure
}

/// The limit before the first tune: `setConf` starts from the lower bound (and with a tune
/// period ≤ 0 it stays there).
pub fn initial_limit(s: &Settings) -> f64 {
    s.compaction_throughput_lower_bound as f64
}

/// `PressureAwareThroughputController`: each of the `active` compactions of the server may
/// write `limit / active` bytes/s. `None` means no throttling: the no-limit controller, an
/// unlimited or non-positive limit (HBase's sleep time is then never positive), or no
/// compaction running.
pub fn per_compaction(class: ThroughputControllerClass, limit: f64, active: usize) -> Option<f64> {
    if class == ThroughputControllerClass::NoLimit || active == 0 {
        return None;
    }
    let share = limit / active as f64;
    (share.is_finite() && share > 0.0).then_some(share)
}

/// Bytes/s at which a compaction reading `read` bytes and writing `written` bytes of cells
/// (what HBase's compactor reports to the controller) gets through its input: the physical
/// `ceiling` (bytes read per second), lowered by the throttle's `share` (cell bytes written per
/// second, converted to bytes read). At least 1.
pub fn read_rate(ceiling: u64, share: Option<f64>, read: u64, written: u64) -> u64 {
    let ceiling = ceiling.max(1);
    let Some(share) = share else { return ceiling };
    if written == 0 || read == 0 {
        return ceiling;
    }
    let throttled = share * read as f64 / written as f64;
    if throttled >= ceiling as f64 {
        ceiling
    } else {
        (throttled as u64).max(1)
    }
}

/// Bytes read at the end of a compaction that run unthrottled: HBase checks the rate only after
/// each `check_interval` bytes written, so the last stretch (written mod interval) never sleeps,
/// and a compaction writing less than one interval is not throttled at all. 0 = check after every
/// cell (no unthrottled tail).
pub fn unthrottled_tail(read: u64, written: u64, check_interval: u64) -> u64 {
    if written == 0 {
        return read;
    }
    if check_interval == 0 {
        return 0;
    }
    let tail = written % check_interval;
    (read as u128 * tail as u128 / written as u128) as u64
}

/// A running compaction's progress, in bytes read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Bytes still to read.
    pub remaining: u64,
    /// The last bytes of the input, read at the ceiling (see [`unthrottled_tail`]).
    pub tail: u64,
    /// Current rate before the tail (bytes/s).
    pub rate: u64,
    /// Rate of the tail: the ceiling (bytes/s).
    pub ceiling: u64,
    /// Simulated time `remaining` refers to, ns.
    pub since: u64,
}

impl Progress {
    /// Moves the progress on to `now` at the current rates.
    pub fn advance(&mut self, now: u64) {
        let mut dt = now.saturating_sub(self.since) as u128;
        self.since = now;
        if self.remaining > self.tail {
            let head = (self.remaining - self.tail) as u128;
            let head_ns = head * NS_PER_S / self.rate.max(1) as u128;
            if dt < head_ns {
                let done = (dt * self.rate as u128 / NS_PER_S) as u64;
                self.remaining -= done.min(self.remaining - self.tail - 1);
                return;
            }
            self.remaining = self.tail;
            dt -= head_ns;
        }
        let done = (dt * self.ceiling.max(1) as u128 / NS_PER_S).min(self.remaining as u128);
        self.remaining -= done as u64;
    }

    /// Nanoseconds until the compaction completes at the current rates (rounded down, so at
    /// an unchanged rate it is exactly the `bytes / rate` of an unthrottled compaction).
    pub fn time_left(&self) -> u64 {
        let (rate, ceiling) = (self.rate.max(1) as u128, self.ceiling.max(1) as u128);
        let (head, tail) = if self.remaining > self.tail {
            ((self.remaining - self.tail) as u128, self.tail as u128)
        } else {
            (0, self.remaining as u128)
        };
        // head / rate + tail / ceiling over one denominator.
        let total = (head * ceiling + tail * rate) * NS_PER_S / (rate * ceiling);
        total.min(u64::MAX as u128) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MB: u64 = 1 << 20;

    // DefaultStoreFileManager.getCompactionPressure with HBase's defaults
    // (hbase.hstore.compaction.min 3, hbase.hstore.blockingStoreFiles 16).
    #[test]
    fn store_pressure_follows_default_store_file_manager() {
        assert_eq!(store_pressure(0, 3, 16), 0.0);
        assert_eq!(store_pressure(3, 3, 16), 0.0);
        assert_eq!(store_pressure(4, 3, 16), 1.0 / 13.0);
        assert_eq!(store_pressure(16, 3, 16), 1.0, "at the blocking count");
        assert!(
            store_pressure(17, 3, 16) > 1.0,
            "flushes are held back: unlimited"
        );
        assert_eq!(
            store_pressure(5, 3, 3),
            f64::INFINITY,
            "x / 0 in Java doubles"
        );
    }

    // PressureAwareCompactionThroughputController.tune with the defaults 50 MB/s and 100 MB/s:
    // lower + (higher - lower) x pressure, unlimited above 1.
    #[test]
    fn tuning_is_linear_between_the_bounds_and_unlimited_above_one() {
        let (lo, hi) = (50 * MB, 100 * MB);
        assert_eq!(tuned_limit(0.0, lo, hi, None), (50 * MB) as f64);
        assert_eq!(tuned_limit(0.5, lo, hi, None), (75 * MB) as f64, "75 MB/s");
        assert_eq!(
            tuned_limit(1.0, lo, hi, None),
            (100 * MB) as f64,
            "1.0 is not above 1"
        );
        assert_eq!(tuned_limit(14.0 / 13.0, lo, hi, None), f64::INFINITY);
        // A higher bound below the lower one makes the limit fall with pressure, as in HBase.
        assert_eq!(tuned_limit(0.5, 100 * MB, 50 * MB, None), (75 * MB) as f64);
    }

    // PressureAwareCompactionThroughputController.tune during off-peak hours: the fixed
    // hbase.hstore.compaction.throughput.offpeak limit (default Long.MAX_VALUE) replaces the
    // pressure line, but pressure above 1 still means unlimited.
    #[test]
    fn offpeak_hours_use_the_offpeak_limit() {
        let (lo, hi) = (50 * MB, 100 * MB);
        assert_eq!(tuned_limit(0.5, lo, hi, Some(200 * MB)), (200 * MB) as f64);
        assert_eq!(tuned_limit(0.0, lo, hi, Some(10 * MB)), (10 * MB) as f64);
        assert_eq!(tuned_limit(1.5, lo, hi, Some(10 * MB)), f64::INFINITY);
        let default = tuned_limit(0.0, lo, hi, Some(i64::MAX as u64));
        let pa = ThroughputControllerClass::PressureAware;
        // Shared by any number of compactions it still exceeds every physical ceiling.
        let share = per_compaction(pa, default, 100).expect("finite");
        assert_eq!(read_rate(500 * MB, Some(share), 1000, 1000), 500 * MB);
    }

    // PressureAwareThroughputController.start/finish/setMaxThroughput: maxThroughput divided
    // by the number of active operations.
    #[test]
    fn the_limit_is_shared_equally_by_the_active_compactions() {
        let pa = ThroughputControllerClass::PressureAware;
        let limit = tuned_limit(0.5, 50 * MB, 100 * MB, None);
        assert_eq!(per_compaction(pa, limit, 1), Some((75 * MB) as f64));
        assert_eq!(
            per_compaction(pa, limit, 3),
            Some((25 * MB) as f64),
            "3 compactions share 75 MB/s"
        );
        assert_eq!(per_compaction(pa, f64::INFINITY, 2), None, "pressure > 1");
        assert_eq!(per_compaction(pa, -1.0, 1), None, "negative: never sleeps");
        assert_eq!(per_compaction(pa, limit, 0), None);
        // NoLimitThroughputController.control never sleeps.
        assert_eq!(
            per_compaction(ThroughputControllerClass::NoLimit, limit, 1),
            None
        );
    }

    // The compaction is as fast as the slower of its share and the physical ceiling; the share
    // meters cell bytes written (Compactor.performCompaction reports each cell's serialized size).
    #[test]
    fn rate_is_the_share_or_the_ceiling_whichever_is_lower() {
        let share = per_compaction(
            ThroughputControllerClass::PressureAware,
            75.0 * MB as f64,
            3,
        );
        assert_eq!(read_rate(100 * MB, share, 1000 * MB, 1000 * MB), 25 * MB);
        assert_eq!(read_rate(10 * MB, share, 1000 * MB, 1000 * MB), 10 * MB);
        assert_eq!(read_rate(100 * MB, None, 1000 * MB, 1000 * MB), 100 * MB);
        // Half the input is dropped (duplicates): half the written bytes per byte read, so the
        // input goes through twice as fast for the same share.
        assert_eq!(read_rate(100 * MB, share, 1000 * MB, 500 * MB), 50 * MB);
    }

    // PressureAwareThroughputController.control: a sleep only after each controlPerSize bytes.
    #[test]
    fn the_last_stretch_below_the_check_interval_is_not_throttled() {
        assert_eq!(unthrottled_tail(1000 * MB, 1000 * MB, 50 * MB), 0);
        assert_eq!(unthrottled_tail(1010 * MB, 1010 * MB, 50 * MB), 10 * MB);
        assert_eq!(
            unthrottled_tail(40 * MB, 40 * MB, 50 * MB),
            40 * MB,
            "never checked"
        );
        assert_eq!(unthrottled_tail(100 * MB, 60 * MB, 50 * MB), 100 * MB / 6);
        assert_eq!(unthrottled_tail(40 * MB, 40 * MB, 0), 0);
        assert_eq!(unthrottled_tail(40 * MB, 0, 50 * MB), 40 * MB);
    }

    #[test]
    fn progress_moves_through_the_throttled_part_then_the_tail() {
        let s = 1_000_000_000u64;
        let mut p = Progress {
            remaining: 110 * MB,
            tail: 10 * MB,
            rate: 25 * MB,
            ceiling: 100 * MB,
            since: 0,
        };
        // 100 MB at 25 MB/s, then 10 MB at 100 MB/s.
        assert_eq!(p.time_left(), 4 * s + s / 10);
        p.advance(2 * s);
        assert_eq!(p.remaining, 60 * MB);
        // The share doubles (a compaction finished): 50 MB at 50 MB/s + 10 MB at the ceiling.
        p.rate = 50 * MB;
        assert_eq!(p.time_left(), s + s / 10);
        p.advance(3 * s + s / 20);
        assert_eq!(p.remaining, 5 * MB);
        p.advance(4 * s);
        assert_eq!(p.remaining, 0);
    }
}
