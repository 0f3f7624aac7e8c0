//! Property tests for the compaction selection (`SortedCompactionPolicy` with
//! `ExploringCompactionPolicy` / `RatioBasedCompactionPolicy`) and the split policies
//! (`RegionSplitPolicy` subclasses): structural invariants that hold for any input.

use hbase_emu::config::{Settings, SiteConfig, SplitPolicy, TableAttributes};
use hbase_emu::engine::policy::compaction::{
    self, CompactionConfig, FileInfo, JavaRandom, Policy, SelectOptions,
};
use hbase_emu::engine::policy::split::{RegionView, SplitPolicyInstance};
use hbase_emu::report::history::split_decision;
use proptest::prelude::*;

fn defaults() -> Settings {
    Settings::resolve(&SiteConfig::with_defaults(), &TableAttributes::default())
        .expect("defaults resolve")
}

fn file() -> impl Strategy<Value = FileInfo> {
    (
        prop_oneof![0u64..200, 0u64..5_000, Just(u64::MAX / 4)],
        prop::bool::weighted(0.1),
        0u64..10_000,
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(
            |(size, is_reference, created_ms, major, name_hash)| FileInfo {
                size,
                is_reference,
                created_ms,
                major,
                name_hash,
                oldest_cell_ms: created_ms,
                newest_cell_ms: created_ms,
            },
        )
}

fn config() -> impl Strategy<Value = CompactionConfig> {
    (
        2usize..6,
        2usize..12,
        0u64..300,
        prop_oneof![Just(u64::MAX), 100u64..10_000],
        prop_oneof![Just(1.0f64), Just(1.2f32 as f64), 0.5f64..3.0],
        4usize..20,
        prop_oneof![Just(0u64), 1u64..20_000],
    )
        .prop_map(
            |(min_files, max_files, min_size, max_size, ratio, blocking, period)| {
                CompactionConfig {
                    min_files,
                    max_files,
                    min_size,
                    max_size,
                    ratio,
                    offpeak_ratio: 5.0,
                    blocking_store_files: blocking,
                    major_period_ms: period,
                    major_jitter: 0.5,
                    offpeak_max_size: max_size,
                    ttl_ms: None,
                    policy: hbase_emu::config::settings::CompactionPolicyClass::Exploring,
                    date_tiered: Default::default(),
                }
            },
        )
}

fn options(n: usize) -> impl Strategy<Value = SelectOptions> {
    (
        0..=n,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0u64..40_000,
    )
        .prop_map(
            |(compacting, force_major, user_requested, offpeak, now_ms)| SelectOptions {
                compacting,
                force_major,
                user_requested,
                offpeak,
                now_ms,
            },
        )
}

fn case() -> impl Strategy<Value = (Vec<FileInfo>, CompactionConfig, SelectOptions)> {
    (prop::collection::vec(file(), 0..24), config()).prop_flat_map(|(files, cfg)| {
        let n = files.len();
        (Just(files), Just(cfg), options(n))
    })
}

proptest! {
    #![proptest_config(crate::common::proptest_config(512))]

    /// Any selection is a contiguous run after the compacting files, within max files (unless a
    /// user major), at least min files for a plain minor, and its size is the sum of its files.
    #[test]
    fn selection_is_contiguous_and_bounded((files, cfg, opts) in case()) {
        for policy in [Policy::Exploring, Policy::RatioBased] {
            let Some(r) = compaction::select_after(&files, &cfg, opts, opts.compacting, policy)
            else { continue };
            prop_assert!(!r.files.is_empty());
            let first = r.files[0];
            prop_assert!(first >= opts.compacting);
            for (k, &i) in r.files.iter().enumerate() {
                prop_assert_eq!(i, first + k);
            }
            prop_assert!(*r.files.last().unwrap() < files.len());
            let sum: u128 = r.files.iter().map(|&i| files[i].size as u128).sum();
            prop_assert_eq!(r.size as u128, sum.min(u64::MAX as u128));
            if !(opts.user_requested && opts.force_major) {
                prop_assert!(r.files.len() <= cfg.max_files, "{}", r.reason);
            }
            if r.is_major {
                prop_assert_eq!(r.files.len(), files.len());
                prop_assert!(!r.offpeak);
            }
            let refs = r.files.iter().any(|&i| files[i].is_reference);
            if refs {
                prop_assert!(r.after_split);
            }
            if !r.is_major && !r.after_split && !opts.force_major && cfg.major_period_ms == 0
                && cfg.max_files >= cfg.min_files
            {
                prop_assert!(r.files.len() >= cfg.min_files, "{}", r.reason);
            }
            prop_assert!(!r.reason.is_empty());
        }
    }

    /// `DateTieredCompactionPolicy`: a selection is a contiguous run after the compacting
    /// files; its output boundaries ascend from `i64::MIN`; a minor's files (newest cells raised
    /// to the newest of older files, as HBase orders them) lie in one window of at most two
    /// boundaries; a major or after-split selection is cut at every window's start.
    #[test]
    fn date_tiered_selection_is_contiguous_and_windowed(
        (mut files, cfg, opts) in case(),
        spans in prop::collection::vec(0u64..50_000, 24),
        base in prop_oneof![Just(6u64), 1u64..5_000],
    ) {
        use hbase_emu::config::settings::{CompactionPolicyClass, DateTieredParams};
        for (f, span) in files.iter_mut().zip(&spans) {
            f.newest_cell_ms = f.oldest_cell_ms + span;
        }
        let cfg = CompactionConfig {
            policy: CompactionPolicyClass::DateTiered,
            date_tiered: DateTieredParams { base_window_ms: base as i64, ..Default::default() },
            ..cfg
        };
        let Some(r) = compaction::select_after(&files, &cfg, opts, opts.compacting, Policy::Exploring)
        else { return Ok(()) };
        let first = r.files[0];
        prop_assert!(first >= opts.compacting);
        for (k, &i) in r.files.iter().enumerate() {
            prop_assert_eq!(i, first + k);
        }
        prop_assert!(*r.files.last().unwrap() < files.len());
        prop_assert_eq!(r.boundaries.first().copied(), Some(i64::MIN), "{}", r.reason);
        prop_assert!(r.boundaries.windows(2).all(|w| w[0] < w[1]), "{:?}", r.boundaries);
        if !(r.is_major || r.after_split || opts.force_major || r.reason.contains("periodic")) {
            prop_assert!(r.boundaries.len() <= 2, "{:?}", r.boundaries);
        }
    }

    /// Outside stuck stores, majors and splits, Exploring only picks a window that is under the
    /// max size and either below the min size or in ratio.
    #[test]
    fn exploring_window_in_ratio((files, cfg, mut opts) in case()) {
        opts.force_major = false;
        let cfg = CompactionConfig { major_period_ms: 0, blocking_store_files: usize::MAX, ..cfg };
        let Some(r) = compaction::select(&files, &cfg, opts) else { return Ok(()) };
        if r.after_split { return Ok(()); }
        let ratio = if opts.offpeak { cfg.offpeak_ratio } else { cfg.ratio };
        let sizes: Vec<u64> = r.files.iter().map(|&i| files[i].size).collect();
        let total: u128 = sizes.iter().map(|&s| s as u128).sum();
        prop_assert!(total <= cfg.max_size as u128);
        if total >= cfg.min_size as u128 && sizes.len() >= 2 {
            for &s in &sizes {
                prop_assert!((s as f64) <= (total - s as u128) as f64 * ratio);
            }
        }
    }

    /// The periodic major interval stays within period × (1 ± jitter) for any seed.
    #[test]
    fn major_interval_envelope(hash in any::<u64>(), period in 1u64..10_000_000_000, jitter in 0.01f64..1.0) {
        let cfg = CompactionConfig {
            major_period_ms: period,
            major_jitter: jitter,
            ..CompactionConfig::from_settings(&defaults())
        };
        let files = [FileInfo { size: 1, is_reference: false, created_ms: 1, major: false, name_hash: hash, oldest_cell_ms: 1, newest_cell_ms: 1 }];
        let v = compaction::major_compaction_interval_ms(&files, &cfg) as f64;
        let p = period as f64;
        prop_assert!(v >= p * (1.0 - jitter) - 1.0 && v <= p * (1.0 + jitter) + 1.0, "{v}");
    }

    /// java.util.Random doubles and floats stay in [0, 1).
    #[test]
    fn java_random_unit_interval(seed in any::<i64>()) {
        let mut r = JavaRandom::new(seed);
        for _ in 0..8 {
            let d = r.next_double();
            prop_assert!((0.0..1.0).contains(&d));
            let f = r.next_float();
            prop_assert!((0.0..1.0).contains(&f));
        }
    }

    /// The jittered size lies in [desired × (1 − jitter/2), desired × (1 + jitter/2)].
    #[test]
    fn split_jitter_bounds(draw in 0.0f32..1.0, max in 2_097_152u64..1u64 << 45) {
        let s = Settings { max_filesize: max, ..defaults() };
        let p = SplitPolicyInstance::new(&s, 0, draw);
        let d = p.desired_max_file_size() as f64;
        prop_assert!(d >= max as f64 * 0.875 - 1.0 && d < max as f64 * 1.125 + 1.0);
    }

    /// IncreasingToUpperBound never exceeds the desired size and grows with the region count
    /// up to 100; references, unavailability and the Disabled policy always block.
    #[test]
    fn split_thresholds_and_blocks(
        draw in 0.0f32..1.0,
        sizes in prop::collection::vec(any::<u64>(), 0..4),
        count in 0u32..200,
    ) {
        let inc = SplitPolicyInstance::new(
            &Settings { split_policy: SplitPolicy::IncreasingToUpperBound, ..defaults() }, 0, draw);
        let mut prev = 0;
        for c in 1..=100 {
            let t = inc.size_to_check(c);
            prop_assert!(t >= prev);
            prop_assert!(t <= inc.desired_max_file_size());
            prev = t;
        }
        for policy in SplitPolicy::ALL {
            let mut p = SplitPolicyInstance::new(&Settings { split_policy: policy, ..defaults() }, 0, draw);
            let v = RegionView { store_sizes: &sizes, has_references: true, available: true,
                table_regions_on_server: count, now_ms: 1 << 40 };
            prop_assert!(!p.should_split(&v));
            let v = RegionView { has_references: false, available: false, ..v };
            prop_assert!(!p.should_split(&v) || policy == SplitPolicy::Busy);
            let v = RegionView { available: true, ..v };
            let expected = policy != SplitPolicy::Disabled
                && sizes.iter().any(|&s| s > p.size_to_check(count));
            if policy != SplitPolicy::Busy {
                prop_assert_eq!(p.should_split(&v), expected, "{}", split_decision(&p.explain(&v)));
            }
        }
    }

    /// Prefix truncation always returns a prefix of the row.
    #[test]
    fn adjusted_row_is_a_prefix(row in prop::collection::vec(any::<u8>(), 0..20), n in 1u32..8, delim in prop::collection::vec(any::<u8>(), 1..3)) {
        let kp = SplitPolicyInstance::new(&Settings { split_policy: SplitPolicy::KeyPrefix, key_prefix_length: Some(n), ..defaults() }, 0, 0.5);
        let out = kp.adjust_split_row(row.clone());
        prop_assert!(row.starts_with(&out));
        prop_assert_eq!(out.len(), row.len().min(n as usize));
        let dp = SplitPolicyInstance::new(&Settings { split_policy: SplitPolicy::DelimitedKeyPrefix, prefix_delimiter: Some(delim.clone()), ..defaults() }, 0, 0.5);
        let out = dp.adjust_split_row(row.clone());
        prop_assert!(row.starts_with(&out));
        if out.len() < row.len() {
            prop_assert!(row[out.len()..].starts_with(&delim));
            prop_assert!(!out.windows(delim.len()).any(|w| w == delim.as_slice()));
        }
    }
}
