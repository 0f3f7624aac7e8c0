//! When a RegionServer's scheduled chores run. `ChoreService.scheduleChore` runs a
//! `ScheduledChore` at a fixed rate from the moment it is scheduled (initial delay 0 for the
//! `CompactedHFilesDischarger`), i.e. from the server's own start: servers that started at
//! different moments tick at different phases, and nothing lines their chores up.

use crate::keygen::rng::splitmix64;

/// The span the initial servers' starts are drawn in: an hour before the run (longer than any
/// chore period that matters here; only the start modulo the period counts).
pub(crate) const START_SPAN_NS: u64 = 3_600_000_000_000;

/// Stream tag of the initial servers' start times.
const START_STREAM: u64 = 0x5C4E_D0C1_0C4A_11E5;

/// How long before the run server `server` started, ns: a seeded draw within `span_ns`. The
/// initial servers of a cluster started at unrelated moments (a rolling start, restarts), which
/// only matters modulo a chore's period; a server that joins during the run starts then.
pub(crate) fn started_before_run_ns(seed: u64, server: usize, span_ns: u64) -> u64 {
    splitmix64(seed ^ START_STREAM ^ (server as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        % span_ns.max(1)
}

/// The first run of a chore of `period_ns` strictly after `now_ns` on a server that started at
/// `joined_ns` (0 for an initial server, which started `before_ns` before the run).
pub(crate) fn next_run_ns(now_ns: u64, period_ns: u64, joined_ns: u64, before_ns: u64) -> u64 {
    let p = period_ns.max(1);
    // Runs fall at start + k·p: their phase within the period.
    let phase = if joined_ns > 0 {
        joined_ns % p
    } else {
        (p - before_ns % p) % p
    };
    if now_ns < phase {
        return phase;
    }
    now_ns + (p - (now_ns - phase) % p)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mirrors ChoreService.scheduleChore (scheduleAtFixedRate from the chore's scheduling, the
    // server's start): runs at start + k·period, the next one strictly after now.
    #[test]
    fn chores_run_at_the_servers_start_plus_whole_periods() {
        // An initial server that started 30 s before the run, 120 s period: runs at 90, 210, …
        assert_eq!(next_run_ns(0, 120, 0, 30), 90);
        assert_eq!(next_run_ns(89, 120, 0, 30), 90);
        assert_eq!(next_run_ns(90, 120, 0, 30), 210);
        // Started a whole number of periods before: on the run's own multiples.
        assert_eq!(next_run_ns(0, 120, 0, 240), 120);
        assert_eq!(next_run_ns(120, 120, 0, 0), 240);
        // Joined at 1,000: runs at 1,000 + k·120 (1,120, 1,240, …); before it, its first run.
        assert_eq!(next_run_ns(1_000, 120, 1_000, 0), 1_120);
        assert_eq!(next_run_ns(1_150, 120, 1_000, 0), 1_240);
        assert_eq!(next_run_ns(0, 120, 1_000, 0), 40);
    }

    #[test]
    fn initial_servers_start_apart_and_as_the_seed_says() {
        let span = 3_600_000_000_000;
        let a: Vec<u64> = (0..10)
            .map(|s| started_before_run_ns(42, s, span))
            .collect();
        let b: Vec<u64> = (0..10)
            .map(|s| started_before_run_ns(42, s, span))
            .collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|&d| d < span));
        // Ten servers on a 2-minute chore: not all in one phase.
        let period = 120_000_000_000;
        let phases: std::collections::BTreeSet<u64> =
            a.iter().map(|d| next_run_ns(0, period, 0, *d)).collect();
        assert!(phases.len() >= 9, "{phases:?}");
        assert_ne!(
            a,
            (0..10)
                .map(|s| started_before_run_ns(7, s, span))
                .collect::<Vec<_>>()
        );
    }
}
