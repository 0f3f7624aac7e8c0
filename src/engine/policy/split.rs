//! Split policies: when a region asks to split (`RegionSplitPolicy` and its subclasses
//! `ConstantSizeRegionSplitPolicy`, `IncreasingToUpperBoundRegionSplitPolicy`,
//! `SteppingSplitPolicy`, `DisabledRegionSplitPolicy`, `KeyPrefixRegionSplitPolicy`,
//! `DelimitedKeyPrefixRegionSplitPolicy` and `BusyRegionSplitPolicy`), and how the prefix
//! policies cut the split row. The split *point* itself is chosen in `split_point.rs`.
//!
//! Sizes are compared the way HBase compares Java `long`s: the jittered desired size is kept as
//! a signed 64-bit value (a large negative jitter setting can make it negative, and then every
//! region splits), store sizes are summed in 128 bits. One deliberate difference:
//! `initialSize × count³` saturates instead of wrapping (only reachable with an initial size of
//! several terabytes).

use crate::config::{Settings, SplitPolicy, SplitRestriction};

/// What a policy looks at when asked `shouldSplit()` for one region.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegionView<'a> {
    /// `HStore.getSize()` per store (sum of store file lengths; memstore excluded).
    pub store_sizes: &'a [u64],
    /// Any store holds a Reference (⇒ cannot split).
    pub has_references: bool,
    /// Region is open and available (not closing/closed/splitting).
    pub available: bool,
    /// Online regions of the same table on this RegionServer, including this one.
    pub table_regions_on_server: u32,
    /// Simulated now, ms.
    pub now_ms: u64,
}

/// A split decision with the numbers behind it (reports and `--explain` word them).
#[derive(Debug, Clone, PartialEq)]
pub struct SplitDecision {
    /// `shouldSplit()` answered true.
    pub split: bool,
    /// Why.
    pub why: SplitWhy,
}

/// The rule behind a [`SplitDecision`].
#[derive(Debug, Clone, PartialEq)]
pub enum SplitWhy {
    /// DisabledRegionSplitPolicy never splits.
    Never(SplitPolicy),
    /// The size rule, and for BusyRegionSplitPolicy the busy rule when the size rule said no.
    Size {
        /// The size check.
        size: SizeCheck,
        /// The limit it was checked against, and how the policy derived it.
        threshold: Threshold,
        /// BusyRegionSplitPolicy's busy rule, when it was consulted.
        busy: Option<BusyCheck>,
    },
}

/// `isExceedSize(threshold)`'s outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeCheck {
    /// The region is not available.
    Unavailable,
    /// References from a split remain (a compaction is needed first).
    References,
    /// split.overallfiles: the sum of the stores against the limit.
    Sum {
        /// Stores summed.
        stores: usize,
        /// Their sum, bytes (saturated).
        bytes: u64,
        /// The limit, bytes.
        limit: u64,
        /// The sum exceeds the limit.
        over: bool,
    },
    /// Per store: the first store over the limit, else the largest one.
    Store {
        /// Store index.
        index: usize,
        /// Its size, bytes.
        bytes: u64,
        /// The limit, bytes.
        limit: u64,
        /// It exceeds the limit.
        over: bool,
    },
    /// The region has no stores.
    NoStores {
        /// The limit, bytes.
        limit: u64,
    },
}

/// The size a store must exceed, with what the policy derived it from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threshold {
    /// The policy.
    pub policy: SplitPolicy,
    /// Which size the policy took.
    pub basis: Basis,
    /// Regions of the table on the server.
    pub regions: u32,
    /// The jittered desired max file size, bytes.
    pub desired: u64,
    /// The jitter rate drawn at open.
    pub jitter_rate: f64,
    /// `initialSize` of the increasing policies, bytes.
    pub initial_size: u64,
}

/// Which size a split threshold is ([`basis_for`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The policy never splits.
    Never,
    /// The jittered desired max file size; `by_count`: the policy consulted the number of the
    /// table's regions on the server to choose it.
    Desired {
        /// The region count was consulted.
        by_count: bool,
    },
    /// The increasing policies' initial size (Stepping, one region on the server).
    Initial,
    /// `min(desired, initial × count³)`.
    InitialCubed {
        /// Regions of the table on the server.
        count: u32,
    },
}

/// BusyRegionSplitPolicy's busy rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BusyCheck {
    /// The region is younger than `hbase.busy.policy.minAge`.
    TooYoung {
        /// Its age, ms.
        age_ms: u64,
        /// minAge, ms.
        min_age_ms: u64,
    },
    /// References block the rule.
    References,
    /// The blocked-write rate against `hbase.busy.policy.blockedRequests`.
    Rate {
        /// The aggregate rate.
        rate: f32,
        /// The limit.
        max: f32,
        /// rate ≥ max: too busy, split.
        busy: bool,
    },
}

/// BusyRegionSplitPolicy's blocked-request bookkeeping (`updateRate`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BusyState {
    /// hbase.busy.policy.blockedRequests.
    max_blocked: f32,
    /// hbase.busy.policy.minAge.
    min_age_ms: u64,
    /// hbase.busy.policy.aggWindow.
    agg_window_ms: u64,
    /// Policy creation (region open).
    start_ms: u64,
    /// Start of the current aggregation window.
    prev_ms: u64,
    /// Cumulative write / blocked counts at the start of the current window.
    window_writes: u64,
    window_blocked: u64,
    /// Cumulative counts (`HRegion.getWriteRequestsCount` / `getBlockedRequestsCount`).
    writes: u64,
    blocked: u64,
    /// The last completed window's rate.
    blocked_rate: f32,
    /// The aggregate rate returned by the last `updateRate`.
    last_rate: f32,
}

impl BusyState {
    /// `updateRate()` at `now`: the aggregate rate and the state after the call.
    fn update(&self, now_ms: u64) -> (f32, BusyState) {
        let mut next = *self;
        let d_blocked = self.blocked.wrapping_sub(self.window_blocked) as i64;
        let d_writes = self.writes.wrapping_sub(self.window_writes) as i64;
        let mut rate = d_blocked as f32 / (d_writes as f32 + 0.00001f32);
        let since_prev = now_ms as i128 - self.prev_ms as i128;
        let since_start = now_ms as i128 - self.start_ms as i128;
        let window = self.agg_window_ms as i128;
        if since_prev >= window {
            next.blocked_rate = rate;
            next.prev_ms = now_ms;
            next.window_blocked = self.blocked;
            next.window_writes = self.writes;
        } else if since_start >= window {
            let slice = since_prev as f32 / (self.agg_window_ms as f32 + 0.0f32);
            rate = (1.0 - slice) * self.blocked_rate + slice * rate;
        } else {
            rate = 0.0;
        }
        next.last_rate = rate;
        (rate, next)
    }
}

/// Which size a policy's threshold takes with `count` regions of the table on the server: the
/// one place a policy's rule is written (the threshold and its explanation both read it).
///
/// ConstantSize: the desired size. IncreasingToUpperBound, KeyPrefix, DelimitedKeyPrefix and
/// Busy: `count == 0 || count > 100 ? desired : min(desired, initial × count³)`. Stepping:
/// `count == 1 ? initial : desired`. Disabled: never.
pub fn basis_for(policy: SplitPolicy, count: u32) -> Basis {
    match policy {
        SplitPolicy::Disabled => Basis::Never,
        SplitPolicy::ConstantSize => Basis::Desired { by_count: false },
        SplitPolicy::Stepping => {
            if count == 1 {
                Basis::Initial
            } else {
                Basis::Desired { by_count: true }
            }
        }
        SplitPolicy::IncreasingToUpperBound
        | SplitPolicy::KeyPrefix
        | SplitPolicy::DelimitedKeyPrefix
        | SplitPolicy::Busy => {
            if count == 0 || count > 100 {
                Basis::Desired { by_count: true }
            } else {
                Basis::InitialCubed { count }
            }
        }
    }
}

/// The size a store must exceed for `policy` to split a region when `count` regions of its
/// table are on the server, with desired max size `desired` (jittered, Java `long`) and initial
/// size `initial` ([`basis_for`] says which; `i64::MAX` for never).
pub fn threshold_for(policy: SplitPolicy, desired: i64, initial: i64, count: u32) -> i64 {
    match basis_for(policy, count) {
        Basis::Never => i64::MAX,
        Basis::Desired { .. } => desired,
        Basis::Initial => initial,
        Basis::InitialCubed { count } => {
            let c = count as i64;
            desired.min(initial.saturating_mul(c * c * c))
        }
    }
}

/// A split policy instance for one region (created on region open; jitter drawn then).
#[derive(Debug, Clone)]
pub struct SplitPolicyInstance {
    policy: SplitPolicy,
    /// Jittered desired max file size (Java long semantics).
    desired_max: i64,
    jitter_rate: f64,
    initial_size: i64,
    overall_files: bool,
    key_prefix_length: Option<u32>,
    delimiter: Option<Vec<u8>>,
    /// The table's split restriction, created with the policy when the region opens (as
    /// `HRegion.initializeRegionInternals` creates both).
    restriction: SplitRestriction,
    busy: BusyState,
}

impl SplitPolicyInstance {
    /// Creates the policy for a region opened at `opened_ms`; `jitter_draw` is this region's
    /// `nextFloat()` in [0, 1) (drawn by the engine from a seeded stream per region open).
    ///
    /// `ConstantSizeRegionSplitPolicy.configureForRegion`: rate = (draw − 0.5) × jitter,
    /// desired += (long)(desired × rate), clamped to `Long.MAX_VALUE` on overflow.
    pub fn new(settings: &Settings, opened_ms: u64, jitter_draw: f32) -> SplitPolicyInstance {
        let desired = i64::try_from(settings.max_filesize).unwrap_or(i64::MAX);
        let jitter_rate = (jitter_draw as f64 - 0.5) * settings.max_filesize_jitter;
        let jitter_value = (desired as f64 * jitter_rate) as i64;
        let desired_max = if jitter_rate > 0.0 && jitter_value > i64::MAX - desired {
            i64::MAX
        } else {
            desired.wrapping_add(jitter_value)
        };
        SplitPolicyInstance {
            policy: settings.split_policy,
            desired_max,
            jitter_rate,
            initial_size: i64::try_from(settings.increasing_initial_size).unwrap_or(i64::MAX),
            overall_files: settings.split_overallfiles,
            key_prefix_length: settings.key_prefix_length.filter(|&n| n > 0),
            delimiter: settings.prefix_delimiter.clone().filter(|d| !d.is_empty()),
            restriction: settings.split_restriction.clone(),
            busy: BusyState {
                max_blocked: settings.busy_blocked_requests,
                min_age_ms: settings.busy_min_age_ms,
                agg_window_ms: settings.busy_agg_window_ms,
                start_ms: opened_ms,
                prev_ms: opened_ms,
                window_writes: 0,
                window_blocked: 0,
                writes: 0,
                blocked: 0,
                blocked_rate: 0.0,
                last_rate: 0.0,
            },
        }
    }

    /// The policy this instance runs.
    pub fn policy(&self) -> SplitPolicy {
        self.policy
    }

    /// The table's split restriction this region opened with.
    pub fn restriction(&self) -> &SplitRestriction {
        &self.restriction
    }

    /// The jittered desired max file size (`getDesiredMaxFileSize`), 0 if it went negative.
    pub fn desired_max_file_size(&self) -> u64 {
        self.desired_max.max(0) as u64
    }

    /// The jitter rate drawn at open, e.g. −0.0312 for −3.12 %.
    pub fn jitter_rate(&self) -> f64 {
        self.jitter_rate
    }

    /// `initialSize` of the increasing policies (also kept for the others).
    pub fn initial_size(&self) -> u64 {
        self.initial_size.max(0) as u64
    }

    /// BusyRegionSplitPolicy: the blocked-write rate computed at the last [`should_split`]
    /// (0 for the other policies).
    ///
    /// [`should_split`]: SplitPolicyInstance::should_split
    pub fn last_blocked_rate(&self) -> f32 {
        self.busy.last_rate
    }

    /// `canSplit()`: available and no references; always false for DisabledRegionSplitPolicy
    /// (which blocks manual splits too).
    pub fn can_split(&self, view: &RegionView<'_>) -> bool {
        self.policy != SplitPolicy::Disabled && view.available && !view.has_references
    }

    /// `shouldSplit()`.
    pub fn should_split(&mut self, view: &RegionView<'_>) -> bool {
        self.evaluate(view).split
    }

    /// `shouldSplit()` with its reason. For BusyRegionSplitPolicy this advances the blocked-rate
    /// window, as HBase's `updateRate()` does on every call.
    pub fn evaluate(&mut self, view: &RegionView<'_>) -> SplitDecision {
        let (decision, busy) = self.decide(view);
        self.busy = busy;
        decision
    }

    /// [`evaluate`] as a pure function: the decision, and the Busy bookkeeping as it is after
    /// the call (to be stored back with [`set_busy`]).
    ///
    /// [`evaluate`]: SplitPolicyInstance::evaluate
    /// [`set_busy`]: SplitPolicyInstance::set_busy
    pub fn decide(&self, view: &RegionView<'_>) -> (SplitDecision, BusyState) {
        if self.policy == SplitPolicy::Busy {
            let (rate, next) = self.busy.update(view.now_ms);
            (self.assess(view, rate), next)
        } else {
            (self.assess(view, 0.0), self.busy)
        }
    }

    /// Stores the Busy bookkeeping a [`decide`] returned.
    ///
    /// [`decide`]: SplitPolicyInstance::decide
    pub fn set_busy(&mut self, busy: BusyState) {
        self.busy = busy;
    }

    /// What [`evaluate`] would answer now, without changing any state.
    ///
    /// [`evaluate`]: SplitPolicyInstance::evaluate
    pub fn explain(&self, view: &RegionView<'_>) -> SplitDecision {
        let rate = if self.policy == SplitPolicy::Busy {
            self.busy.update(view.now_ms).0
        } else {
            0.0
        };
        self.assess(view, rate)
    }

    /// The size a store must exceed, for this many regions of the table on the server (report/explain).
    ///
    /// ConstantSize: the desired size. IncreasingToUpperBound, KeyPrefix, DelimitedKeyPrefix and
    /// Busy: `count == 0 || count > 100 ? desired : min(desired, initialSize × count³)`.
    /// Stepping: `count == 1 ? initialSize : desired`. Disabled: `u64::MAX` (never).
    pub fn size_to_check(&self, table_regions_on_server: u32) -> u64 {
        if self.policy == SplitPolicy::Disabled {
            return u64::MAX;
        }
        self.threshold(table_regions_on_server).max(0) as u64
    }

    fn threshold(&self, count: u32) -> i64 {
        threshold_for(self.policy, self.desired_max, self.initial_size, count)
    }

    /// How the threshold came about, for explanations.
    fn threshold_context(&self, count: u32) -> Threshold {
        Threshold {
            policy: self.policy,
            basis: basis_for(self.policy, count),
            regions: count,
            desired: self.desired_max_file_size(),
            jitter_rate: self.jitter_rate,
            initial_size: self.initial_size(),
        }
    }

    /// `isExceedSize(threshold)`: per store (strict `>`), or the sum with split.overallfiles.
    fn exceeds(&self, view: &RegionView<'_>, threshold: i64) -> SizeCheck {
        let limit = threshold.max(0) as u64;
        let th = threshold as i128;
        if self.overall_files {
            let sum: i128 = view.store_sizes.iter().map(|&s| s as i128).sum();
            return SizeCheck::Sum {
                stores: view.store_sizes.len(),
                bytes: u64::try_from(sum).unwrap_or(u64::MAX),
                limit,
                over: sum > th,
            };
        }
        if let Some((i, &s)) = view
            .store_sizes
            .iter()
            .enumerate()
            .find(|&(_, &s)| s as i128 > th)
        {
            return SizeCheck::Store {
                index: i,
                bytes: s,
                limit,
                over: true,
            };
        }
        match view
            .store_sizes
            .iter()
            .enumerate()
            .max_by_key(|&(i, &s)| (s, usize::MAX - i))
        {
            Some((i, &s)) => SizeCheck::Store {
                index: i,
                bytes: s,
                limit,
                over: false,
            },
            None => SizeCheck::NoStores { limit },
        }
    }

    /// The decision for a given Busy rate (pure).
    fn assess(&self, view: &RegionView<'_>, busy_rate: f32) -> SplitDecision {
        if self.policy == SplitPolicy::Disabled {
            return SplitDecision {
                split: false,
                why: SplitWhy::Never(self.policy),
            };
        }
        let count = view.table_regions_on_server;
        let threshold = self.threshold_context(count);
        let (split, size) = if !view.available {
            (false, SizeCheck::Unavailable)
        } else if view.has_references {
            (false, SizeCheck::References)
        } else {
            let size = self.exceeds(view, self.threshold(count));
            let over = matches!(
                size,
                SizeCheck::Sum { over: true, .. } | SizeCheck::Store { over: true, .. }
            );
            (over, size)
        };
        if split || self.policy != SplitPolicy::Busy {
            return SplitDecision {
                split,
                why: SplitWhy::Size {
                    size,
                    threshold,
                    busy: None,
                },
            };
        }
        // BusyRegionSplitPolicy: old enough, every store splittable, blocked rate high enough.
        let b = &self.busy;
        let age = view.now_ms as i128 - b.start_ms as i128;
        let busy = if age < b.min_age_ms as i128 {
            BusyCheck::TooYoung {
                age_ms: age.max(0) as u64,
                min_age_ms: b.min_age_ms,
            }
        } else if view.has_references {
            BusyCheck::References
        } else {
            BusyCheck::Rate {
                rate: busy_rate,
                max: b.max_blocked,
                busy: busy_rate >= b.max_blocked,
            }
        };
        SplitDecision {
            split: matches!(busy, BusyCheck::Rate { busy: true, .. }),
            why: SplitWhy::Size {
                size,
                threshold,
                busy: Some(busy),
            },
        }
    }

    /// Post-processes a split row as the policy does (KeyPrefix / DelimitedKeyPrefix truncation).
    ///
    /// KeyPrefix: the first min(prefix length, len) bytes of a non-empty row. DelimitedKeyPrefix:
    /// the bytes before the first occurrence of the delimiter (an empty row if the row starts
    /// with it), unchanged if it does not occur. Other policies, or a prefix policy whose table
    /// attribute was missing or invalid: unchanged.
    pub fn adjust_split_row(&self, row: Vec<u8>) -> Vec<u8> {
        match self.policy {
            SplitPolicy::KeyPrefix => match self.key_prefix_length {
                Some(n) if !row.is_empty() => {
                    let mut row = row;
                    row.truncate(n as usize);
                    row
                }
                _ => row,
            },
            SplitPolicy::DelimitedKeyPrefix => match &self.delimiter {
                Some(d) => match row.windows(d.len()).position(|w| w == d.as_slice()) {
                    Some(at) => {
                        let mut row = row;
                        row.truncate(at);
                        row
                    }
                    None => row,
                },
                None => row,
            },
            _ => row,
        }
    }

    /// BusyRegionSplitPolicy bookkeeping: a batch of `writes` of which `blocked` hit RegionTooBusy.
    ///
    /// Adds to the region's cumulative write and blocked-request counters (HBase's
    /// `HRegion.getWriteRequestsCount` / `getBlockedRequestsCount`, both 0 at open). Time only
    /// enters when the policy is asked [`should_split`]; `now_ms` is accepted for symmetry.
    ///
    /// [`should_split`]: SplitPolicyInstance::should_split
    pub fn record_writes(&mut self, writes: u64, blocked: u64, now_ms: u64) {
        let _ = now_ms;
        self.busy.writes = self.busy.writes.saturating_add(writes);
        self.busy.blocked = self.busy.blocked.saturating_add(blocked);
    }
}

/// An available region with these store sizes and `count` regions of its table on the server,
/// without references, at time 0 (for tests).
#[cfg(test)]
pub(crate) fn test_view(sizes: &[u64], count: u32) -> RegionView<'_> {
    RegionView {
        store_sizes: sizes,
        has_references: false,
        available: true,
        table_regions_on_server: count,
        now_ms: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{SiteConfig, TableAttributes};

    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;

    fn defaults() -> Settings {
        Settings::resolve(&SiteConfig::with_defaults(), &TableAttributes::default())
            .expect("defaults resolve")
    }

    fn with(policy: SplitPolicy) -> Settings {
        Settings {
            split_policy: policy,
            ..defaults()
        }
    }

    use super::test_view as view;

    /// Draw 0.5 ⇒ jitter rate exactly 0.
    fn no_jitter(s: &Settings) -> SplitPolicyInstance {
        SplitPolicyInstance::new(s, 0, 0.5)
    }

    // --- defaults (HBASE-MODEL §1/§2) ---

    #[test]
    fn default_policy_is_stepping_with_hbase_sizes() {
        let p = no_jitter(&defaults());
        assert_eq!(p.policy(), SplitPolicy::Stepping);
        assert_eq!(p.desired_max_file_size(), 10 * GIB);
        assert_eq!(p.initial_size(), 256 * MIB);
        assert_eq!(p.jitter_rate(), 0.0);
    }

    // --- IncreasingToUpperBoundRegionSplitPolicy.getSizeToCheck ---

    #[test]
    fn increasing_thresholds_by_count() {
        let p = no_jitter(&with(SplitPolicy::IncreasingToUpperBound));
        // 0 ⇒ desired; 1 ⇒ 256 MiB; 2 ⇒ 256 MiB × 8; 3 ⇒ 256 MiB × 27 = 6.75 GiB;
        // 4 ⇒ min(10 GiB, 16 GiB); 100 ⇒ desired (min); 101 ⇒ desired (> 100 rule).
        let expect = [
            (0, 10 * GIB),
            (1, 256 * MIB),
            (2, 2 * GIB),
            (3, 6912 * MIB),
            (4, 10 * GIB),
            (100, 10 * GIB),
            (101, 10 * GIB),
        ];
        for (count, size) in expect {
            assert_eq!(p.size_to_check(count), size, "count {count}");
        }
        // The prefix and busy policies extend Increasing.
        for policy in [
            SplitPolicy::KeyPrefix,
            SplitPolicy::DelimitedKeyPrefix,
            SplitPolicy::Busy,
        ] {
            let q = no_jitter(&with(policy));
            for (count, size) in expect {
                assert_eq!(q.size_to_check(count), size, "{policy} count {count}");
            }
        }
    }

    #[test]
    fn increasing_uses_min_with_a_small_max() {
        // max 1 GiB: count 2 ⇒ min(1 GiB, 2 GiB) = 1 GiB.
        let s = Settings {
            max_filesize: GIB,
            ..with(SplitPolicy::IncreasingToUpperBound)
        };
        let p = no_jitter(&s);
        assert_eq!(p.size_to_check(1), 256 * MIB);
        assert_eq!(p.size_to_check(2), GIB);
    }

    // --- SteppingSplitPolicy.getSizeToCheck ---

    #[test]
    fn stepping_thresholds_by_count() {
        let p = no_jitter(&defaults());
        for (count, size) in [
            (0, 10 * GIB),
            (1, 256 * MIB),
            (2, 10 * GIB),
            (3, 10 * GIB),
            (4, 10 * GIB),
            (101, 10 * GIB),
        ] {
            assert_eq!(p.size_to_check(count), size, "count {count}");
        }
        // Not capped by desired: max 100 MiB, count 1 ⇒ still the 256 MiB initial size.
        let s = Settings {
            max_filesize: 100 * MIB,
            ..defaults()
        };
        assert_eq!(no_jitter(&s).size_to_check(1), 256 * MIB);
    }

    // --- ConstantSizeRegionSplitPolicy ---

    #[test]
    fn constant_ignores_count() {
        let p = no_jitter(&with(SplitPolicy::ConstantSize));
        for count in [0, 1, 2, 3, 4, 101] {
            assert_eq!(p.size_to_check(count), 10 * GIB);
        }
    }

    #[test]
    fn jitter_range() {
        let s = defaults();
        // draw 0 ⇒ rate −0.125: 10737418240 + (long)(−1342177280.0).
        let lo = SplitPolicyInstance::new(&s, 0, 0.0);
        assert_eq!(lo.desired_max_file_size(), 9_395_240_960);
        assert_eq!(lo.jitter_rate(), -0.125);
        // draw 0.75 ⇒ rate 0.0625 ⇒ +671088640.
        let mid = SplitPolicyInstance::new(&s, 0, 0.75);
        assert_eq!(mid.desired_max_file_size(), 11_408_506_880);
        // Largest nextFloat(), 1 − 2⁻²⁴ ⇒ +1342177280 − 160.
        let hi = SplitPolicyInstance::new(&s, 0, 1.0 - f32::EPSILON / 2.0);
        assert_eq!(hi.desired_max_file_size(), 12_079_595_360);
        // Every draw lands in [desired × 0.875, desired × 1.125).
        for i in 0..1000u32 {
            let d = SplitPolicyInstance::new(&s, 0, i as f32 / 1000.0).desired_max_file_size();
            assert!((9_395_240_960..12_079_595_520).contains(&d), "{i}: {d}");
        }
    }

    #[test]
    fn jitter_overflow_clamps() {
        // TestRegionSplitPolicy.testConstantSizePolicyWithJitter: MAX_FILESIZE = Long.MAX_VALUE
        // with a positive jitter must not overflow, and a 2000-byte store does not split.
        let s = Settings {
            max_filesize: i64::MAX as u64,
            ..with(SplitPolicy::ConstantSize)
        };
        let mut p = SplitPolicyInstance::new(&s, 0, 0.9);
        assert!(p.jitter_rate() > 0.0);
        assert_eq!(p.desired_max_file_size(), i64::MAX as u64);
        assert!(!p.should_split(&view(&[2000], 1)));
        // A u64 beyond Long.MAX is read as Long.MAX.
        let s = Settings {
            max_filesize: u64::MAX,
            ..s
        };
        assert_eq!(
            SplitPolicyInstance::new(&s, 0, 0.9).desired_max_file_size(),
            i64::MAX as u64
        );
    }

    // --- isExceedSize / canSplit (TestRegionSplitPolicy) ---

    #[test]
    fn strict_greater_than_per_store() {
        let mut p = no_jitter(&defaults());
        let t = 256 * MIB;
        assert!(!p.should_split(&view(&[t], 1)));
        assert!(p.should_split(&view(&[t + 1], 1)));
        // Any single store; the sum does not count by default.
        assert!(!p.should_split(&view(&[t, t, t], 1)));
        assert!(p.should_split(&view(&[1, t + 1], 1)));
        assert!(!p.should_split(&view(&[], 1)));
    }

    #[test]
    fn overallfiles_sums_stores() {
        // TestRegionSplitPolicy.testIsExceedSize: 100 + 924 = 1024 is not > 1024; 100 + 925 is.
        let s = Settings {
            max_filesize: 1024,
            split_overallfiles: true,
            ..with(SplitPolicy::ConstantSize)
        };
        let mut p = no_jitter(&s);
        assert!(!p.should_split(&view(&[100, 924], 1)));
        assert!(p.should_split(&view(&[100, 925], 1)));
        assert!(matches!(
            p.explain(&view(&[100, 925], 1)).why,
            SplitWhy::Size {
                size: SizeCheck::Sum {
                    stores: 2,
                    bytes: 1025,
                    limit: 1024,
                    over: true
                },
                ..
            }
        ));
    }

    #[test]
    fn references_and_availability_block() {
        // TestRegionSplitPolicy.testForceSplitRegionWithReference / doConstantSizePolicyTests.
        for policy in [
            SplitPolicy::ConstantSize,
            SplitPolicy::IncreasingToUpperBound,
            SplitPolicy::Stepping,
            SplitPolicy::KeyPrefix,
            SplitPolicy::DelimitedKeyPrefix,
            SplitPolicy::Busy,
        ] {
            let s = Settings {
                max_filesize: 1024,
                ..with(policy)
            };
            let mut p = no_jitter(&s);
            let sizes = [2000u64];
            assert!(p.should_split(&view(&sizes, 0)), "{policy}");
            let refs = RegionView {
                has_references: true,
                ..view(&sizes, 0)
            };
            assert!(!p.should_split(&refs), "{policy}");
            assert!(!p.can_split(&refs));
            let closed = RegionView {
                available: false,
                ..view(&sizes, 0)
            };
            assert!(!p.should_split(&closed), "{policy}");
            assert!(!p.should_split(&view(&[100], 0)), "{policy}");
        }
    }

    #[test]
    fn disabled_never_splits() {
        let mut p = no_jitter(&with(SplitPolicy::Disabled));
        let v = view(&[u64::MAX], 1);
        assert!(!p.should_split(&v));
        assert!(!p.can_split(&v));
        assert_eq!(p.size_to_check(1), u64::MAX);
        assert_eq!(p.explain(&v).why, SplitWhy::Never(SplitPolicy::Disabled));
    }

    #[test]
    fn hbase_increasing_policy_walkthrough() {
        // TestRegionSplitPolicy.testIncreasingToUpperBoundRegionSplitPolicy: max 1024,
        // flush 128 ⇒ initial 256. Worst-case jitter either way.
        for draw in [0.0f32, 0.5, 1.0 - f32::EPSILON / 2.0] {
            let s = Settings {
                max_filesize: 1024,
                flush_size: 128,
                increasing_initial_size: 256,
                ..with(SplitPolicy::IncreasingToUpperBound)
            };
            let mut p = SplitPolicyInstance::new(&s, 0, draw);
            assert!(p.should_split(&view(&[2000], 0)));
            assert!(!p.should_split(&view(&[128], 1)));
            assert!(p.should_split(&view(&[257], 1)));
            assert!(!p.should_split(&view(&[257], 2)));
            assert!(p.should_split(&view(&[1281], 2)));
            let d = p.desired_max_file_size();
            assert_eq!(p.size_to_check(1000), d);
            assert_eq!(p.size_to_check(0), d);
            assert!((768..=1280).contains(&d));
        }
    }

    #[test]
    fn hbase_stepping_first_region() {
        // TestRegionSplitPolicy.testSteppingSplitPolicyWithRegionReplication: one default-replica
        // region on the server, store 2 × flush + 1 ⇒ split.
        let mut p = SplitPolicyInstance::new(&defaults(), 0, 0.3);
        assert!(p.should_split(&view(&[2 * 128 * MIB + 1], 1)));
    }

    #[test]
    fn explain_names_store_threshold_and_policy() {
        let p = no_jitter(&defaults());
        let sizes = [2 * GIB + 100 * MIB];
        let e = p.explain(&view(&sizes, 2));
        let SplitWhy::Size {
            size, threshold, ..
        } = e.why
        else {
            panic!("{e:?}");
        };
        assert!(!e.split);
        assert_eq!(
            size,
            SizeCheck::Store {
                index: 0,
                bytes: sizes[0],
                limit: 10 * GIB,
                over: false
            }
        );
        assert_eq!((threshold.regions, threshold.desired), (2, 10 * GIB));
        let e = p.explain(&view(&sizes, 1));
        assert!(e.split);
        assert!(matches!(
            e.why,
            SplitWhy::Size {
                size: SizeCheck::Store {
                    limit: 268_435_456,
                    over: true,
                    ..
                },
                ..
            }
        ));
    }

    // --- KeyPrefixRegionSplitPolicy / DelimitedKeyPrefixRegionSplitPolicy.getSplitPoint ---

    #[test]
    fn key_prefix_truncation() {
        // TestRegionSplitPolicy.testCustomPolicy: prefix 2, "abcd" ⇒ "ab".
        let s = Settings {
            key_prefix_length: Some(2),
            ..with(SplitPolicy::KeyPrefix)
        };
        let p = no_jitter(&s);
        assert_eq!(p.adjust_split_row(b"abcd".to_vec()), b"ab");
        assert_eq!(p.adjust_split_row(b"a".to_vec()), b"a");
        assert_eq!(p.adjust_split_row(Vec::new()), b"");
        // Attribute missing ⇒ unchanged.
        let p = no_jitter(&with(SplitPolicy::KeyPrefix));
        assert_eq!(p.adjust_split_row(b"abcd".to_vec()), b"abcd");
    }

    #[test]
    fn delimited_truncation() {
        // TestRegionSplitPolicy.testDelimitedKeyPrefixRegionSplitPolicy: "," ⇒ "ab,cd" → "ab",
        // "ijk" unchanged.
        let s = Settings {
            prefix_delimiter: Some(b",".to_vec()),
            ..with(SplitPolicy::DelimitedKeyPrefix)
        };
        let p = no_jitter(&s);
        assert_eq!(p.adjust_split_row(b"ab,cd".to_vec()), b"ab");
        assert_eq!(p.adjust_split_row(b"ijk".to_vec()), b"ijk");
        assert_eq!(p.adjust_split_row(b",x".to_vec()), b"");
        let s = Settings {
            prefix_delimiter: Some(b"::".to_vec()),
            ..s
        };
        let p = no_jitter(&s);
        assert_eq!(p.adjust_split_row(b"a:b::c::d".to_vec()), b"a:b");
        assert_eq!(p.adjust_split_row(b":".to_vec()), b":");
    }

    #[test]
    fn other_policies_keep_the_row() {
        let s = Settings {
            key_prefix_length: Some(2),
            prefix_delimiter: Some(b",".to_vec()),
            ..defaults()
        };
        assert_eq!(no_jitter(&s).adjust_split_row(b"ab,cd".to_vec()), b"ab,cd");
    }

    // --- BusyRegionSplitPolicy ---

    fn busy(min_age: u64, window: u64, max_blocked: f32) -> SplitPolicyInstance {
        let s = Settings {
            busy_min_age_ms: min_age,
            busy_agg_window_ms: window,
            busy_blocked_requests: max_blocked,
            ..with(SplitPolicy::Busy)
        };
        SplitPolicyInstance::new(&s, 1_000, 0.5)
    }

    fn at(now_ms: u64) -> RegionView<'static> {
        RegionView {
            store_sizes: &[],
            has_references: false,
            available: true,
            table_regions_on_server: 1,
            now_ms,
        }
    }

    #[test]
    fn hbase_busy_policy() {
        // TestRegionSplitPolicy.testBusyRegionSplitPolicy: minAge 1000000 ⇒ too young.
        let mut p = busy(1_000_000, 300_000, 0.1);
        p.record_writes(10, 10, 1_000);
        assert!(!p.should_split(&at(1_000)));
        // minAge 0, window 500 ms, threshold 0.1; open at t = 1000.
        let mut p = busy(0, 500, 0.1);
        p.record_writes(10, 0, 1_300);
        assert!(!p.should_split(&at(1_300))); // first window ⇒ rate 0
        p.record_writes(10, 2, 1_302);
        assert!(!p.should_split(&at(1_302))); // still the first window
        p.record_writes(10, 2, 1_502);
        // Window complete: 4 blocked / 30 writes = 0.1333 ≥ 0.1.
        assert!(p.should_split(&at(1_502)));
        assert!((p.last_blocked_rate() - 4.0 / 30.0).abs() < 1e-6);
    }

    #[test]
    fn busy_rate_blends_windows() {
        let mut p = busy(0, 1_000, 0.2);
        // Window 1: 50 of 100 blocked, closed at t = 2000 (open at 1000) ⇒ rate 0.5.
        p.record_writes(100, 50, 2_000);
        assert!(p.should_split(&at(2_000)));
        // 250 ms into window 2 with no blocking: 0.75 × 0.5 + 0.25 × 0 = 0.375.
        p.record_writes(100, 0, 2_250);
        assert!(p.should_split(&at(2_250)));
        assert!((p.last_blocked_rate() - 0.375).abs() < 1e-6);
        // 800 ms in: 0.2 × 0.5 = 0.1 < 0.2.
        assert!(!p.should_split(&at(2_800)));
        assert!((p.last_blocked_rate() - 0.1).abs() < 1e-6);
        // explain does not advance the window.
        let before = p.clone();
        let _ = p.explain(&at(5_000));
        assert_eq!(p.busy, before.busy);
        // A new window with nothing blocked resets the rate to 0.
        assert!(!p.should_split(&at(3_000)));
        assert_eq!(p.last_blocked_rate(), 0.0);
        // References block the busy rule even when the rate is high.
        p.record_writes(10, 10, 4_100);
        let refs = RegionView {
            has_references: true,
            ..at(4_100)
        };
        assert!(!p.should_split(&refs));
    }

    #[test]
    fn busy_size_rule_still_applies() {
        let mut p = busy(u64::MAX, 1_000, 0.2);
        let sizes = [256 * MIB + 1];
        assert!(p.should_split(&RegionView {
            store_sizes: &sizes,
            ..at(1_000)
        }));
    }
}
