//! Off-peak hours on the simulated clock (`OffPeakHours`): which hour of the day a simulated
//! instant falls in, given the scenario's wall-clock start, and whether it is off-peak.
//! Compaction selection, the compaction throughput controller and the stochastic balancer's
//! move cost ask this.

/// Milliseconds per hour and per day.
const HOUR_MS: u64 = 3_600_000;
const DAY_MS: u64 = 24 * HOUR_MS;

/// Hour of the day (0–23) at simulated `now_ms`, the run having started `day_start_ms` after
/// midnight (`workload.start_time`). HBase reads the server's local hour
/// (`CurrentHourProvider`); the simulated servers share one clock.
pub fn hour_of_day(day_start_ms: u64, now_ms: u64) -> u8 {
    ((day_start_ms % DAY_MS + now_ms % DAY_MS) % DAY_MS / HOUR_MS) as u8
}

/// `OffPeakHoursImpl.isOffPeakHour`: start inclusive, end exclusive; start > end wraps past
/// midnight. `None` (both −1, invalid, or start = end) is never off-peak.
pub fn is_offpeak_hour(hours: Option<(u8, u8)>, hour: u8) -> bool {
    match hours {
        None => false,
        Some((start, end)) if start <= end => start <= hour && hour < end,
        Some((start, end)) => hour < end || start <= hour,
    }
}

/// `HStore.requestCompaction`'s `mayUseOffPeak`: off-peak hours, and the RegionServer's
/// `offPeakCompactionTracker` free — HBase lets one off-peak compaction run at a time per JVM
/// (the tracker is static), held from the selection that uses the off-peak ratio until that
/// compaction finishes or is cancelled.
pub fn may_use_offpeak(offpeak_hour: bool, tracker_held: bool) -> bool {
    offpeak_hour && !tracker_held
}

/// `MoveCostFunction.prepare`: the move cost multiplier for a balancer run. The function is in
/// the balancer only if `moveCost` > 0 (`addCostFunction` at construction); during off-peak
/// hours its multiplier is `moveCost.offpeak`.
pub fn move_cost_multiplier(move_cost: f32, move_cost_offpeak: f32, offpeak_hour: bool) -> f32 {
    if move_cost <= 0.0 {
        0.0
    } else if offpeak_hour {
        move_cost_offpeak.max(0.0)
    } else {
        move_cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mirrors OffPeakHours.getInstance / OffPeakHoursImpl.isOffPeakHour (TestOffPeakHours):
    // [start, end), wrapping midnight when start > end; disabled never matches.
    #[test]
    fn offpeak_hours_wrap_midnight() {
        assert!(!is_offpeak_hour(None, 3));
        let day = Some((9, 17));
        assert!(!is_offpeak_hour(day, 8));
        assert!(is_offpeak_hour(day, 9));
        assert!(is_offpeak_hour(day, 16));
        assert!(!is_offpeak_hour(day, 17));
        let night = Some((22, 6));
        for h in [22, 23, 0, 5] {
            assert!(is_offpeak_hour(night, h), "{h}");
        }
        for h in [6, 12, 21] {
            assert!(!is_offpeak_hour(night, h), "{h}");
        }
    }

    #[test]
    fn simulated_time_maps_to_an_hour_of_day() {
        assert_eq!(hour_of_day(0, 0), 0);
        assert_eq!(hour_of_day(0, HOUR_MS - 1), 0);
        assert_eq!(hour_of_day(0, HOUR_MS), 1);
        // Started at 22:30: 90 minutes later it is 00:00 the next day.
        let start = 22 * HOUR_MS + 30 * 60_000;
        assert_eq!(hour_of_day(start, 0), 22);
        assert_eq!(hour_of_day(start, 90 * 60_000), 0);
        assert_eq!(hour_of_day(start, 3 * DAY_MS + 90 * 60_000), 0);
        assert_eq!(
            hour_of_day(start, u64::MAX),
            hour_of_day(start, u64::MAX % DAY_MS)
        );
    }

    // Mirrors HStore.requestCompaction's offPeakCompactionTracker.compareAndSet(false, true):
    // one off-peak compaction at a time.
    #[test]
    fn one_offpeak_compaction_at_a_time() {
        assert!(may_use_offpeak(true, false));
        assert!(!may_use_offpeak(true, true));
        assert!(!may_use_offpeak(false, false));
    }

    // Mirrors MoveCostFunction.prepare: moveCost.offpeak (3) replaces moveCost (7) off-peak; a
    // function not added (moveCost ≤ 0) stays out.
    #[test]
    fn move_cost_multiplier_offpeak() {
        assert_eq!(move_cost_multiplier(7.0, 3.0, false), 7.0);
        assert_eq!(move_cost_multiplier(7.0, 3.0, true), 3.0);
        assert_eq!(move_cost_multiplier(0.0, 3.0, true), 0.0);
    }
}
