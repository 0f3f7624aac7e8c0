//! `DateTieredCompactionPolicy` (HBase 2.6, under `DateTieredStoreEngine`): a store's files are
//! grouped into time windows by their newest cell, windows widen with age
//! (`ExponentialCompactionWindowFactory`: `windows_per_tier` windows of the base size, then
//! windows that many times wider, and so on), and a minor compaction only merges files of one
//! window. A major compaction rewrites every file into one file per window
//! (`DateTieredMultiFileWriter`), so old windows' files later expire whole under a TTL.
//!
//! Pure functions of the file list, the configuration and the time; the caller
//! (`compaction::select_after`) does the eligibility, large-file and major decisions
//! HBase's `SortedCompactionPolicy.selectCompaction` does for every policy.

use super::file_selection::{self, CompactionConfig, FileInfo, Policy};
use crate::config::settings::DateTieredParams;

/// One window of `ExponentialCompactionWindowFactory`: the timestamps `t` with
/// `t / window_ms == div` (floored for negative `t`, as HBase does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    window_ms: i64,
    div: i64,
    /// Windows starting before this are not promoted to a wider tier.
    max_tier_age_cutoff: i64,
}

impl Window {
    /// `newIncomingWindow(now)`: the base-size window holding `now`.
    pub fn incoming(p: &DateTieredParams, now: i64) -> Window {
        Window {
            window_ms: p.base_window_ms.max(1),
            div: now / p.base_window_ms.max(1),
            max_tier_age_cutoff: now.checked_sub(p.max_tier_age_ms).unwrap_or(i64::MIN),
        }
    }

    /// `compareToTimestamp`: positive when the window lies after `ts`, 0 when it holds it,
    /// negative when it lies before.
    pub fn compare(&self, ts: i64) -> i32 {
        let ts = if ts < 0 {
            ts.checked_sub(self.window_ms - 1).unwrap_or(i64::MIN)
        } else {
            ts
        };
        // Java's `/` truncates toward zero; the adjustment above makes it a floor.
        let pos = ts / self.window_ms;
        match self.div.cmp(&pos) {
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Greater => 1,
        }
    }

    /// `nextEarlierWindow`: the previous window of this tier, or of the next (wider) tier once
    /// this tier holds `windows_per_tier` windows and the wider window would not cross the
    /// max tier age.
    pub fn next_earlier(&self, windows_per_tier: i64) -> Window {
        let stay = self.div % windows_per_tier > 0
            || self
                .start_ms()
                .saturating_sub(self.window_ms.saturating_mul(windows_per_tier))
                < self.max_tier_age_cutoff;
        if stay {
            Window {
                div: self.div - 1,
                ..*self
            }
        } else {
            Window {
                window_ms: self.window_ms.saturating_mul(windows_per_tier),
                div: self.div / windows_per_tier - 1,
                ..*self
            }
        }
    }

    /// `startMillis` (inclusive); `i64::MIN` on overflow, as HBase.
    pub fn start_ms(&self) -> i64 {
        self.window_ms.checked_mul(self.div).unwrap_or(i64::MIN)
    }
}

/// A minor selection: `files[first..first + len]` (in seq-id order), and where the output is
/// cut (`boundaries`, ascending, the first `i64::MIN`; one boundary = one output file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// First selected file.
    pub first: usize,
    /// Files selected.
    pub len: usize,
    /// Output boundaries.
    pub boundaries: Vec<i64>,
    /// The window, for the explanation.
    pub window: (i64, i64),
}

/// `selectMinorCompaction`: files are taken newest first with each file's newest cell raised
/// to the newest seen in older files (so out-of-order data joins a later window and windows
/// stay contiguous in seq-id order); the first window, newest first, holding at least its
/// threshold of files (the incoming window `incoming_window_min`, older ones
/// `hbase.hstore.compaction.min`) has its files compacted, as the window policy (Exploring by
/// default) selects them, or all of them when the store may be stuck. Windows older than the
/// max store-file age are never compacted.
pub fn select_minor(
    files: &[FileInfo],
    cfg: &CompactionConfig,
    now_ms: i64,
    offpeak: bool,
    may_be_stuck: bool,
) -> Option<Selection> {
    let p = &cfg.date_tiered;
    let oldest_to_compact = now_ms
        .checked_sub(p.max_storefile_age_ms)
        .unwrap_or(i64::MIN);
    // (index, the newest cell seen up to it), newest file first.
    let mut seen = i64::MIN;
    let mut pairs: Vec<(usize, i64)> = files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            seen = seen.max(ms(f.newest_cell_ms));
            (i, seen)
        })
        .collect();
    pairs.reverse();
    let mut window = Window::incoming(p, now_ms);
    let mut min_threshold = p.incoming_window_min;
    let mut i = 0;
    while i < pairs.len() {
        if window.compare(oldest_to_compact) < 0 {
            break;
        }
        if window.compare(pairs[i].1) > 0 {
            window = window.next_earlier(p.windows_per_tier);
            min_threshold = cfg.min_files;
            continue;
        }
        // Every file of this window (for the incoming one, future data too).
        let from = i;
        while i < pairs.len() && window.compare(pairs[i].1) <= 0 {
            i += 1;
        }
        if i - from < min_threshold {
            continue;
        }
        // Ascending seq-id order again: a contiguous run of the store's files.
        let first = pairs[i - 1].0;
        let in_window = &files[first..first + (i - from)];
        let (start, len) = if may_be_stuck {
            (0, in_window.len())
        } else {
            let per_window = CompactionConfig {
                min_files: min_threshold,
                ..cfg.clone()
            };
            let policy = if p.window_ratio_based {
                Policy::RatioBased
            } else {
                Policy::Exploring
            };
            file_selection::window_selection(in_window, &per_window, offpeak, policy)
        };
        if len == 0 {
            continue;
        }
        // Files of the window left out ⇒ one output, as with the single-output setting.
        let single = len != in_window.len() || p.single_output_for_minor;
        let mut boundaries = vec![i64::MIN];
        if !single {
            boundaries.push(window.start_ms());
        }
        return Some(Selection {
            first: first + start,
            len,
            boundaries,
            window: (window.start_ms(), window.start_ms() + window.window_ms),
        });
    }
    None
}

/// `getCompactBoundariesForMajor`: the start of every window from the incoming one back to
/// the one holding the oldest cell, ascending, after `i64::MIN`.
pub fn major_boundaries(files: &[FileInfo], p: &DateTieredParams, now_ms: i64) -> Vec<i64> {
    let oldest = files
        .iter()
        .map(|f| ms(f.oldest_cell_ms))
        .min()
        .unwrap_or(i64::MAX);
    let mut out = Vec::new();
    let mut window = Window::incoming(p, now_ms);
    while window.compare(oldest) > 0 {
        out.push(window.start_ms());
        window = window.next_earlier(p.windows_per_tier);
    }
    out.push(i64::MIN);
    out.reverse();
    out
}

/// `DateTieredCompactionPolicy.shouldPerformMajorCompaction`: once the periodic major is due
/// (the same jittered interval as the other policies), a major runs when a file holds cells
/// older than the TTL, a file did not come from a major compaction, a file's cells cross a
/// window boundary, or a window holds two files. (The locality rule is not modelled: HBase's
/// default minimum locality, 0, never forces a major.)
pub fn should_major(files: &[FileInfo], cfg: &CompactionConfig, now_ms: u64) -> bool {
    let interval = file_selection::major_compaction_interval_ms(files, cfg);
    if files.is_empty() || interval == 0 {
        return false;
    }
    let lowest = files.iter().map(|f| f.created_ms).min().unwrap_or(0);
    if lowest == 0 || lowest as i128 >= now_ms as i128 - interval as i128 {
        return false;
    }
    let now = ms(now_ms);
    let boundaries = major_boundaries(files, &cfg.date_tiered, now);
    let window_of = |ts: i64| boundaries.partition_point(|&b| b <= ts).saturating_sub(1);
    let mut taken = vec![false; boundaries.len()];
    for f in files {
        if cfg
            .ttl_ms
            .is_some_and(|ttl| now_ms.saturating_sub(f.oldest_cell_ms) >= ttl)
        {
            return true;
        }
        if !f.major {
            return true;
        }
        let (lo, hi) = (
            window_of(ms(f.oldest_cell_ms)),
            window_of(ms(f.newest_cell_ms)),
        );
        if lo != hi || taken[hi] {
            return true;
        }
        taken[hi] = true;
    }
    false
}

/// `needsCompaction`: a minor selection over every file, as if the store may be stuck.
pub fn needs_compaction(files: &[FileInfo], cfg: &CompactionConfig, now_ms: u64) -> bool {
    select_minor(files, cfg, ms(now_ms), false, true).is_some()
}

fn ms(t: u64) -> i64 {
    i64::try_from(t).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    //! Vectors of HBase's `TestDateTieredCompactionPolicy` (branch-2.6): base window 6 ms,
    //! 4 windows a tier, max store-file age 100 ms, incoming minimum 3, min 2 / max 12 files,
    //! ratio 1.2, blocking 20 files, major period 5 ms, single output off; min size 10 and
    //! max size 2100 (`TestCompactionPolicy.config`). Files are created at
    //! 1 ms (`sfCreate`); the negative-timestamp vectors are left out (simulated time starts
    //! at 0), their window arithmetic is checked below.
    use super::*;
    use crate::config::settings::CompactionPolicyClass;

    fn cfg() -> CompactionConfig {
        CompactionConfig {
            min_files: 2,
            max_files: 12,
            min_size: 10,
            max_size: 2100,
            ratio: 1.2,
            offpeak_ratio: 5.0,
            blocking_store_files: 20,
            major_period_ms: 5,
            major_jitter: 0.5,
            offpeak_max_size: 2100,
            ttl_ms: None,
            policy: CompactionPolicyClass::DateTiered,
            date_tiered: DateTieredParams {
                base_window_ms: 6,
                windows_per_tier: 4,
                max_tier_age_ms: 100,
                max_storefile_age_ms: 100,
                incoming_window_min: 3,
                single_output_for_minor: false,
                window_ratio_based: false,
            },
        }
    }

    fn files(min: &[u64], max: &[u64], sizes: &[u64]) -> Vec<FileInfo> {
        sizes
            .iter()
            .enumerate()
            .map(|(i, &size)| FileInfo {
                size,
                is_reference: false,
                created_ms: 1,
                major: false,
                name_hash: i as u64,
                oldest_cell_ms: min[i],
                newest_cell_ms: max[i],
            })
            .collect()
    }

    /// `compactEquals` for a minor: the selected sizes and the output boundaries.
    fn minor(now: u64, f: &[FileInfo]) -> (Vec<u64>, Vec<i64>) {
        let c = cfg();
        assert!(needs_compaction(f, &c, now), "needsCompaction");
        let s = select_minor(f, &c, now as i64, false, false).expect("a selection");
        let sizes = f[s.first..s.first + s.len].iter().map(|f| f.size).collect();
        (sizes, s.boundaries)
    }

    const MIN: i64 = i64::MIN;

    #[test]
    fn incoming_window() {
        let f = files(
            &[0; 15],
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
            &[30, 31, 32, 33, 34, 20, 21, 22, 23, 24, 25, 10, 11, 12, 13],
        );
        assert_eq!(minor(16, &f), (vec![10, 11, 12, 13], vec![MIN, 12]));
    }

    #[test]
    fn not_incoming_window() {
        let f = files(
            &[0; 13],
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
            &[30, 31, 32, 33, 34, 20, 21, 22, 23, 24, 25, 10, 11],
        );
        assert_eq!(minor(16, &f), (vec![20, 21, 22, 23, 24, 25], vec![MIN, 6]));
    }

    #[test]
    fn on_upper_bound_and_newer_than_incoming_window() {
        for last in [18, 19] {
            let f = files(
                &[0; 15],
                &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, last],
                &[30, 31, 32, 33, 34, 20, 21, 22, 23, 24, 25, 10, 11, 12, 13],
            );
            assert_eq!(minor(16, &f), (vec![10, 11, 12, 13], vec![MIN, 12]));
        }
    }

    #[test]
    fn no_t2_without_a_t1_window() {
        let f = files(
            &[0; 6],
            &[44, 60, 61, 97, 100, 193],
            &[0, 20, 21, 22, 23, 1],
        );
        assert_eq!(minor(194, &f), (vec![22, 23], vec![MIN, 96]));
    }

    #[test]
    fn t1() {
        let f = files(
            &[0; 11],
            &[44, 60, 61, 96, 100, 104, 120, 124, 143, 145, 157],
            &[0, 50, 51, 40, 41, 42, 30, 31, 32, 2, 1],
        );
        assert_eq!(minor(161, &f), (vec![30, 31, 32], vec![MIN, 120]));
    }

    #[test]
    fn exploring_inside_an_older_window() {
        // RatioT0 and RatioT2: a file out of ratio leaves the window's others, so one output.
        let f = files(
            &[0; 12],
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            &[30, 31, 32, 33, 34, 20, 21, 22, 280, 23, 24, 1],
        );
        assert_eq!(minor(16, &f), (vec![20, 21, 22], vec![MIN]));
        let f = files(
            &[0; 11],
            &[44, 60, 61, 96, 100, 104, 120, 124, 143, 145, 157],
            &[0, 50, 51, 40, 41, 42, 350, 30, 31, 2, 1],
        );
        assert_eq!(minor(161, &f), (vec![30, 31], vec![MIN]));
        // RatioT0Next: the call after RatioT0's compaction.
        let f = files(
            &[0; 10],
            &[1, 2, 3, 4, 5, 8, 9, 10, 11, 12],
            &[30, 31, 32, 33, 34, 22, 280, 23, 24, 1],
        );
        assert_eq!(minor(16, &f), (vec![23, 24], vec![MIN]));
    }

    #[test]
    fn older_than_max_age() {
        let f = files(
            &[0; 11],
            &[44, 60, 61, 96, 100, 104, 105, 106, 113, 145, 157],
            &[0, 50, 51, 40, 41, 42, 33, 30, 31, 2, 1],
        );
        assert_eq!(
            minor(161, &f),
            (vec![40, 41, 42, 33, 30, 31], vec![MIN, 96])
        );
    }

    #[test]
    fn out_of_order_data_joins_the_later_window() {
        let f = files(
            &[0; 10],
            &[0, 13, 3, 10, 11, 1, 2, 12, 14, 15],
            &[30, 31, 32, 33, 34, 22, 28, 23, 24, 1],
        );
        assert_eq!(
            minor(16, &f),
            (vec![31, 32, 33, 34, 22, 28, 23, 24, 1], vec![MIN, 12])
        );
    }

    #[test]
    fn major_compaction_boundaries() {
        // majorCompation and checkMinMaxTimestampSameBoundary: every file from a major, yet
        // the major is due (a file's cells cross windows, or two files share one).
        let want = vec![MIN, 24, 48, 72, 96, 120, 144, 150, 156];
        let mut a = files(
            &[0; 11],
            &[44, 60, 61, 96, 100, 104, 105, 106, 113, 145, 157],
            &[0, 50, 51, 40, 41, 42, 33, 30, 31, 2, 1],
        );
        let mut b = files(
            &[0, 26, 50, 90, 98, 122, 145, 151, 158, 166],
            &[12, 46, 70, 95, 100, 140, 148, 155, 162, 174],
            &[0, 50, 51, 40, 41, 42, 33, 30, 31, 2],
        );
        for f in [&mut a, &mut b] {
            f.iter_mut().for_each(|f| f.major = true);
            assert!(should_major(f, &cfg(), 161));
            assert_eq!(major_boundaries(f, &cfg().date_tiered, 161), want);
        }
    }

    #[test]
    fn a_major_is_not_repeated_on_files_one_per_window() {
        // One major-compacted file in each window, none crossing: nothing to do.
        let mut f = files(&[0, 30, 60], &[20, 40, 70], &[10, 10, 10]);
        f.iter_mut().for_each(|f| f.major = true);
        assert!(!should_major(&f, &cfg(), 161));
        // A flushed file, or a cell older than the TTL, makes it due.
        let mut g = f.clone();
        g[2].major = false;
        assert!(should_major(&g, &cfg(), 161));
        let ttl = CompactionConfig {
            ttl_ms: Some(150),
            ..cfg()
        };
        assert!(should_major(&f, &ttl, 161));
        // Not before the periodic interval has passed since the oldest file was written.
        assert!(!should_major(&g, &cfg(), 3));
    }

    #[test]
    fn windows_floor_negative_times_and_widen_by_tier() {
        // negativeEpochtime / negativeForMajor's window arithmetic.
        let p = cfg().date_tiered;
        let w = Window::incoming(&p, 1);
        assert_eq!(w.start_ms(), 0);
        assert_eq!(w.compare(-1), 1);
        assert_eq!(w.compare(5), 0);
        assert_eq!(w.compare(6), -1);
        let earlier = w.next_earlier(p.windows_per_tier);
        assert_eq!(
            earlier.start_ms(),
            -24,
            "tier 2 after a window at a tier boundary"
        );
        assert_eq!(earlier.compare(-24), 0);
        assert_eq!(earlier.compare(-25), 1);
        let mut f = files(&[0; 2], &[0, 0], &[1, 1]);
        f[0].oldest_cell_ms = 0;
        assert_eq!(major_boundaries(&f, &p, 16), vec![MIN, 6, 12]);
    }
}
