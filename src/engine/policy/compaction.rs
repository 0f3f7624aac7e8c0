//! Compaction selection: which store files a minor or major compaction rewrites
//! (`SortedCompactionPolicy.selectCompaction` driving `ExploringCompactionPolicy`, or the legacy
//! `RatioBasedCompactionPolicy`), whether a store needs a compaction, and when a periodic major
//! compaction is due (`RatioBasedCompactionPolicy.shouldPerformMajorCompaction`).
//!
//! Everything here is a pure function of the file list, the configuration and the options.
//! Sizes are bytes, times simulated milliseconds. Sums are taken in 128 bits, so unlike Java's
//! `long` they cannot wrap; for sizes below 2⁶³ this changes nothing.
//!
//! Not modelled: bulk-loaded files flagged "exclude from minor compaction" (`filterBulk`) and HDFS
//! block locality (it only matters for the single-file major skip; with
//! `hbase.hstore.min.locality.to.skip.major.compact` = 0 HBase skips a lone file unless the
//! family TTL outdates its oldest cell).

use super::date_tiered;
pub use super::file_selection::{
    CompactionConfig, FileInfo, JavaRandom, Policy, java_round, java_string_hash,
    major_compaction_interval_ms,
};
use super::file_selection::{clamp_u64, exploring, ratio_based};
use crate::config::settings::CompactionPolicyClass;
#[cfg(test)]
use crate::config::{Settings, settings::DateTieredParams};
use crate::engine::state::region::Store;
use crate::keygen::rng::splitmix64;
use crate::units::{format_bytes, format_duration_ms};

/// A selected compaction: indices into the file list given to [`select`] (contiguous).
#[derive(Debug, Clone, PartialEq)]
pub struct CompactionRequest {
    /// Indices of the files to rewrite.
    pub files: Vec<usize>,
    /// All files of the store are selected and it is a major compaction.
    pub is_major: bool,
    /// The selection contains references (after a split: boosted priority, all eligible files).
    pub after_split: bool,
    /// Sum of the selected sizes.
    pub size: u64,
    /// `CompactionRequestImpl.isOffPeak()`: off-peak was allowed and the request is not over all
    /// files (HBase lets one off-peak compaction run at a time).
    pub offpeak: bool,
    /// Why these files, in words (for reports and `--explain`).
    pub reason: String,
    /// Where DateTiered cuts the output into files (ascending, the first `i64::MIN`); empty or
    /// one boundary: one output file.
    pub boundaries: Vec<i64>,
}

/// Why a selection is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelectOptions {
    /// Files currently being compacted (they and everything before them are excluded).
    pub compacting: usize,
    /// A major compaction was asked for (periodic or user).
    pub force_major: bool,
    /// Requested by a user (admin.majorCompact).
    pub user_requested: bool,
    /// Off-peak hours are in effect.
    pub offpeak: bool,
    /// Simulated now, ms.
    pub now_ms: u64,
}

/// `SortedCompactionPolicy.selectCompaction` with `ExploringCompactionPolicy`.
///
/// `opts.compacting` is read as "the first `compacting` files are being compacted": HBase
/// excludes everything up to the newest compacting file and counts the compacting files for its
/// "may be stuck" estimate, which is the same thing when the compacting files are a prefix. Use
/// [`select_after`] when they are not.
pub fn select(
    files: &[FileInfo],
    cfg: &CompactionConfig,
    opts: SelectOptions,
) -> Option<CompactionRequest> {
    select_after(files, cfg, opts, opts.compacting, Policy::Exploring)
}

/// [`select`] with the legacy `RatioBasedCompactionPolicy` instead of the exploring search.
pub fn ratio_based_select(
    files: &[FileInfo],
    cfg: &CompactionConfig,
    opts: SelectOptions,
) -> Option<CompactionRequest> {
    select_after(files, cfg, opts, opts.compacting, Policy::RatioBased)
}

/// The general form of [`select`]: `first_eligible` is the index just after the newest file
/// being compacted (0 if none), while `opts.compacting` is how many files are being compacted.
/// Returns `None` when HBase would return an empty request.
pub fn select_after(
    files: &[FileInfo],
    cfg: &CompactionConfig,
    opts: SelectOptions,
    first_eligible: usize,
    policy: Policy,
) -> Option<CompactionRequest> {
    let total = files.len();
    // Step 1: stuck estimate and eligible files (after the newest compacting one).
    let future_files = usize::from(opts.compacting > 0);
    let may_be_stuck =
        (total.saturating_sub(opts.compacting) + future_files) >= cfg.blocking_store_files;
    let mut offset = first_eligible.min(total);
    let mut is_all_files = offset == 0;

    // Step 2: skip the leading run of large non-reference files, unless a forced major can have
    // every file.
    let mut skipped_large = 0;
    if !(opts.force_major && is_all_files) {
        let limit = cfg.max_compact_size(opts.offpeak);
        while offset < total && !files[offset].is_reference && files[offset].size > limit {
            offset += 1;
            skipped_large += 1;
        }
        is_all_files = offset == 0;
    }
    let candidates = &files[offset..];

    // Step 3: try a major compaction?
    let forced_all = opts.force_major && is_all_files;
    let time_for_major = !forced_all && major_due(candidates, cfg, opts.now_ms);
    let trying_major = (forced_all && opts.user_requested)
        || ((forced_all || time_for_major) && candidates.len() < cfg.max_files);
    // Step 4: references ⇒ after split.
    let after_split = candidates.iter().any(|f| f.is_reference);

    let (mut start, mut len, mut why) = (0usize, candidates.len(), String::new());
    let mut boundaries = Vec::new();
    if cfg.policy == CompactionPolicyClass::DateTiered {
        // DateTieredCompactionPolicy.createCompactionRequest: a major (or after a split) takes
        // every candidate, cut at every window's start; a minor is a window's selection. No
        // minimum-files check beyond the window's threshold.
        let now = i64::try_from(opts.now_ms).unwrap_or(i64::MAX);
        if trying_major || after_split {
            boundaries = date_tiered::major_boundaries(candidates, &cfg.date_tiered, now);
        } else {
            match date_tiered::select_minor(candidates, cfg, now, opts.offpeak, may_be_stuck) {
                Some(s) => {
                    (start, len) = (s.first, s.len);
                    why = format!(
                        "date-tiered: the newest window with enough files, [{}, {}) ms{}",
                        s.window.0,
                        s.window.1,
                        if may_be_stuck {
                            ", all its files (the store may be stuck)"
                        } else {
                            ""
                        }
                    );
                    boundaries = s.boundaries;
                }
                None => len = 0,
            }
        }
    } else if !(trying_major || after_split) {
        let pick = match policy {
            Policy::Exploring => exploring(candidates, cfg, opts.offpeak, may_be_stuck),
            Policy::RatioBased => ratio_based(candidates, cfg, opts.offpeak, may_be_stuck),
        };
        (start, len, why) = pick;
        // checkMinFilesCriteria
        if len < cfg.min_files {
            len = 0;
        }
    }
    // Step 5: at most max files unless a user-requested major.
    if len > cfg.max_files && !(trying_major && opts.user_requested) {
        len = cfg.max_files;
    }
    if len == 0 {
        return None;
    }
    let first = offset + start;
    let selected = &files[first..first + len];
    let size_sum: u128 = selected.iter().map(|f| f.size as u128).sum();
    let all_selected = len == total;
    let is_major = trying_major && all_selected;
    let offpeak = !all_selected && opts.offpeak;

    let kind = if is_major {
        "major"
    } else if after_split {
        "after-split"
    } else {
        "minor"
    };
    let mut reason = format!(
        "{kind} compaction of {len} of {total} files ({}): ",
        format_bytes(clamp_u64(size_sum))
    );
    if trying_major {
        let trigger = if forced_all && opts.user_requested {
            "requested by a user".to_string()
        } else if forced_all {
            "major compaction requested".to_string()
        } else {
            format!(
                "periodic major due (oldest file older than {})",
                format_duration_ms(clamp_u64(
                    major_compaction_interval_ms(candidates, cfg).max(0) as u128
                ))
            )
        };
        reason.push_str(&trigger);
        if !is_major {
            reason.push_str(", but not every file could be included so it runs as a minor");
        }
    } else if after_split {
        reason.push_str("references from a split are present, so every eligible file is taken");
    } else {
        reason.push_str(&why);
    }
    if len < candidates.len() && (trying_major || after_split) {
        reason.push_str(&format!(
            "; limited to hbase.hstore.compaction.max = {}",
            cfg.max_files
        ));
    }
    if first_eligible > 0 && first_eligible <= total {
        reason.push_str(&format!(
            "; {first_eligible} files before the newest compacting one excluded"
        ));
    }
    if skipped_large > 0 {
        reason.push_str(&format!(
            "; {skipped_large} leading files larger than {} skipped",
            format_bytes(cfg.max_compact_size(opts.offpeak))
        ));
    }
    if opts.offpeak && !trying_major && !after_split {
        reason.push_str(&format!(" (off-peak ratio {:.2})", cfg.offpeak_ratio));
    }

    Some(CompactionRequest {
        files: (first..first + len).collect(),
        is_major,
        after_split,
        size: clamp_u64(size_sum),
        offpeak,
        reason,
        boundaries,
    })
}

/// What the selection sees of a store's files, oldest first. The name hash (tie-breaks in
/// HBase's file ordering) comes from the sequence id.
pub fn file_infos(store: &Store) -> Vec<FileInfo> {
    store
        .files
        .iter()
        .map(|f| FileInfo {
            size: f.file.length(),
            is_reference: f.file.is_reference(),
            created_ms: f.file.created_ms,
            major: f.file.major,
            name_hash: splitmix64(f.file.seq_id),
            oldest_cell_ms: f.file.cells.oldest_ms(),
            newest_cell_ms: f.file.cells.newest_ms(),
        })
        .collect()
}

/// `needsCompaction`: (files − compacting) ≥ min files. Under FIFO, only a store with References
/// (after a split) is compacted as Exploring would; its expired files go before any selection
/// (`HStore.removeUnneededFiles`), so it needs nothing else.
pub fn needs_compaction(
    files: &[FileInfo],
    compacting: usize,
    cfg: &CompactionConfig,
    now_ms: u64,
) -> bool {
    if fifo_without_references(files, cfg) {
        return false;
    }
    if cfg.policy == CompactionPolicyClass::DateTiered {
        // DateTieredCompactionPolicy.needsCompaction: a window with enough files, counting
        // the files being compacted too (HBase passes it every store file).
        return date_tiered::needs_compaction(files, cfg, now_ms);
    }
    needs_compaction_of(files.len(), compacting, cfg)
}

/// `FIFOCompactionPolicy` on a store without References: it never rewrites files.
pub fn fifo_without_references(files: &[FileInfo], cfg: &CompactionConfig) -> bool {
    cfg.policy == CompactionPolicyClass::Fifo && !files.iter().any(|f| f.is_reference)
}

/// The store's policy's selection (`cfg.policy`): Exploring or RatioBased; FIFO selects
/// nothing to rewrite (`FIFOCompactionPolicy.selectCompaction`: expired files only, which
/// `removeUnneededFiles` already took; a forced major is ignored) unless the store holds
/// References after a split, which it compacts as Exploring would.
pub fn select_by_policy(
    files: &[FileInfo],
    cfg: &CompactionConfig,
    opts: SelectOptions,
    first_eligible: usize,
) -> Option<CompactionRequest> {
    let policy = match cfg.policy {
        CompactionPolicyClass::Fifo if fifo_without_references(files, cfg) => return None,
        CompactionPolicyClass::Exploring
        | CompactionPolicyClass::Fifo
        | CompactionPolicyClass::DateTiered => Policy::Exploring,
        CompactionPolicyClass::RatioBased => Policy::RatioBased,
    };
    select_after(files, cfg, opts, first_eligible, policy)
}

/// [`needs_compaction`] on counts: a store of `files` files, `compacting` of them in a
/// compaction.
pub fn needs_compaction_of(files: usize, compacting: usize, cfg: &CompactionConfig) -> bool {
    files.saturating_sub(compacting) >= cfg.min_files
}

/// `RatioBasedCompactionPolicy.shouldPerformMajorCompaction` at `now_ms`.
///
/// Due when the interval from [`major_compaction_interval_ms`] is non-zero, the oldest
/// modification time is > 0 and older than `now − interval`, and there is more than one file,
/// or a single file whose oldest cell is older than the family TTL ("keyvalues outdated").
/// Otherwise, with the default locality threshold, HBase skips a store holding a single file,
/// whether or not that file came from a major compaction.
pub fn major_due(files: &[FileInfo], cfg: &CompactionConfig, now_ms: u64) -> bool {
    // FIFOCompactionPolicy.shouldPerformMajorCompaction: never, but after a split.
    if fifo_without_references(files, cfg) {
        return false;
    }
    if cfg.policy == CompactionPolicyClass::DateTiered {
        return date_tiered::should_major(files, cfg, now_ms);
    }
    let interval = major_compaction_interval_ms(files, cfg);
    if files.is_empty() || interval == 0 {
        return false;
    }
    let lowest = files.iter().map(|f| f.created_ms).min().unwrap_or(u64::MAX);
    if !(lowest > 0 && (lowest as i128) < now_ms as i128 - interval as i128) {
        return false;
    }
    if files.len() != 1 {
        return true;
    }
    let oldest_age = now_ms.saturating_sub(files[0].oldest_cell_ms);
    cfg.ttl_ms.is_some_and(|ttl| oldest_age > ttl)
}

/// `HStore.removeUnneededFiles` → `DefaultStoreFileManager.getUnneededFiles`: the files whose
/// newest cell is older than `cutoff_ms` (now − TTL), not being compacted (`compacting`: the
/// running compactions' `(first, count)` runs), never the newest file (it holds the store's
/// max sequence id). Indices, ascending.
pub fn expired_files(
    files: &[FileInfo],
    compacting: &[(usize, usize)],
    cutoff_ms: u64,
) -> Vec<usize> {
    let mut expired = fifo_expired_files(files, compacting, cutoff_ms);
    expired.retain(|&i| i + 1 < files.len());
    expired
}

/// `FIFOCompactionPolicy.getExpiredStores`: every file whose newest cell is older than
/// `cutoff_ms`, the newest file included, not being compacted (`compacting` runs).
pub fn fifo_expired_files(
    files: &[FileInfo],
    compacting: &[(usize, usize)],
    cutoff_ms: u64,
) -> Vec<usize> {
    (0..files.len())
        .filter(|&i| {
            files[i].newest_cell_ms < cutoff_ms
                && !compacting.iter().any(|&(a, c)| (a..a + c).contains(&i))
        })
        .collect()
}

/// `FIFOCompactionPolicy.needsCompaction` without References (`hasExpiredStores`): a file's
/// newest cell is older than `cutoff_ms`.
pub fn fifo_has_expired(
    files: &[FileInfo],
    cfg: &CompactionConfig,
    cutoff_ms: Option<u64>,
) -> bool {
    fifo_without_references(files, cfg)
        && cutoff_ms.is_some_and(|c| files.iter().any(|f| f.newest_cell_ms < c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TestCompactionPolicy.config()` + `TestDefaultCompactSelection.config()`: min 3, max 5
    /// files, min size 10, max size 2100, ratio 1.0, blocking 10, periodic majors off.
    fn hbase_test_cfg() -> CompactionConfig {
        CompactionConfig {
            min_files: 3,
            max_files: 5,
            min_size: 10,
            max_size: 2100,
            ratio: 1.0,
            offpeak_ratio: 5.0,
            blocking_store_files: 10,
            major_period_ms: 0,
            major_jitter: 0.5,
            offpeak_max_size: 2100,
            ttl_ms: None,
            policy: crate::config::settings::CompactionPolicyClass::Exploring,
            date_tiered: DateTieredParams::default(),
        }
    }

    fn sf(sizes: &[u64]) -> Vec<FileInfo> {
        sized(sizes, false)
    }

    fn sized(sizes: &[u64], is_reference: bool) -> Vec<FileInfo> {
        sizes
            .iter()
            .enumerate()
            .map(|(i, &size)| FileInfo {
                size,
                is_reference,
                created_ms: 1_000,
                major: false,
                name_hash: i as u64,
                oldest_cell_ms: 1_000,
                newest_cell_ms: 1_000,
            })
            .collect()
    }

    fn opts() -> SelectOptions {
        SelectOptions {
            compacting: 0,
            force_major: false,
            user_requested: false,
            offpeak: false,
            now_ms: 1_000,
        }
    }

    fn major() -> SelectOptions {
        SelectOptions {
            force_major: true,
            ..opts()
        }
    }

    // Mirrors FIFOCompactionPolicy: without References nothing is rewritten (selectCompaction
    // returns the expired files only, which HStore.removeUnneededFiles already took; a forced
    // major is ignored), needsCompaction and shouldPerformMajorCompaction say no; with References
    // after a split it selects as its parent, ExploringCompactionPolicy.
    #[test]
    fn fifo_rewrites_nothing_but_a_split_store() {
        let cfg = CompactionConfig {
            policy: CompactionPolicyClass::Fifo,
            major_period_ms: 1,
            ..hbase_test_cfg()
        };
        let files = sf(&[50, 40, 30, 20, 10]);
        assert!(select_by_policy(&files, &cfg, opts(), 0).is_none());
        assert!(select_by_policy(&files, &cfg, major(), 0).is_none());
        assert!(!needs_compaction(&files, 0, &cfg, 0));
        assert!(!major_due(&files, &cfg, 1 << 40));
        let exploring = CompactionConfig {
            policy: CompactionPolicyClass::Exploring,
            ..cfg.clone()
        };
        assert!(needs_compaction(&files, 0, &exploring, 0));
        let refs = sized(&[50, 40, 30, 20, 10], true);
        assert!(needs_compaction(&refs, 0, &cfg, 0));
        assert_eq!(
            select_by_policy(&refs, &cfg, opts(), 0),
            select_by_policy(&refs, &exploring, opts(), 0)
        );
        assert!(select_by_policy(&refs, &cfg, opts(), 0).is_some());
    }

    // Mirrors FIFOCompactionPolicy.getExpiredStores / hasExpiredStores: every file whose newest
    // cell is past the TTL, the newest file included (removeUnneededFiles never takes that one),
    // not one being compacted.
    #[test]
    fn fifo_expires_whole_files_the_newest_too() {
        let cfg = CompactionConfig {
            policy: CompactionPolicyClass::Fifo,
            ..hbase_test_cfg()
        };
        let mut files = sf(&[10, 10, 10, 10]);
        for (i, f) in files.iter_mut().enumerate() {
            f.newest_cell_ms = 100 * (i as u64 + 1);
        }
        assert_eq!(fifo_expired_files(&files, &[], 250), vec![0, 1]);
        assert_eq!(fifo_expired_files(&files, &[], 1_000), vec![0, 1, 2, 3]);
        assert_eq!(expired_files(&files, &[], 1_000), vec![0, 1, 2]);
        assert_eq!(fifo_expired_files(&files, &[(1, 2)], 1_000), vec![0, 3]);
        assert!(fifo_has_expired(&files, &cfg, Some(150)));
        assert!(!fifo_has_expired(&files, &cfg, Some(100)));
        assert!(
            !fifo_has_expired(&files, &cfg, None),
            "no TTL: nothing expires"
        );
    }

    /// Sizes selected, like `TestCompactionPolicy.compactEquals`.
    fn sizes_with(files: &[FileInfo], cfg: &CompactionConfig, o: SelectOptions) -> Vec<u64> {
        select(files, cfg, o)
            .map(|r| r.files.iter().map(|&i| files[i].size).collect())
            .unwrap_or_default()
    }

    fn sizes(list: &[u64]) -> Vec<u64> {
        sizes_with(&sf(list), &hbase_test_cfg(), opts())
    }

    const TOO_BIG: u64 = 2100 + 1;

    // --- TestDefaultCompactSelection.testCompactionRatio (ExploringCompactionPolicy) ---

    #[test]
    fn hbase_ratio_default_case() {
        // 23 ≤ (12+12)·1.0 and 12 ≤ 35; every window containing 100 or 50 fails the ratio.
        assert_eq!(sizes(&[100, 50, 23, 12, 12]), vec![23, 12, 12]);
        // 25 > 24: no window of ≥ 3 files is in ratio.
        assert_eq!(sizes(&[100, 50, 25, 12, 12]), Vec::<u64>::new());
    }

    #[test]
    fn ratio_1_2_takes_all_five() {
        // With HBase's default ratio 1.2 (as f32): 100 ≤ 97·1.2 = 116.4, 50 ≤ 147·1.2, … so the
        // whole 5-file window is in ratio and most files wins.
        let cfg = CompactionConfig {
            ratio: 1.2f32 as f64,
            ..hbase_test_cfg()
        };
        let files = sf(&[100, 50, 23, 12, 12]);
        assert_eq!(sizes_with(&files, &cfg, opts()), vec![100, 50, 23, 12, 12]);
    }

    #[test]
    fn hbase_ratio_too_big_skipped() {
        assert_eq!(
            sizes(&[TOO_BIG, TOO_BIG, 700, 700, 700]),
            vec![700, 700, 700]
        );
        assert_eq!(sizes(&[TOO_BIG, TOO_BIG, 700, 700]), Vec::<u64>::new());
        let r = select(
            &sf(&[TOO_BIG, TOO_BIG, 700, 700, 700]),
            &hbase_test_cfg(),
            opts(),
        )
        .expect("selects");
        assert_eq!(r.files, vec![2, 3, 4]);
        assert_eq!(r.size, 2100);
        assert!(!r.is_major);
        assert!(r.reason.contains("2 leading files"), "{}", r.reason);
    }

    #[test]
    fn hbase_small_files_ignore_ratio() {
        // Sum 9 < min size 10: no ratio test.
        assert_eq!(sizes(&[7, 1, 1]), vec![7, 1, 1]);
    }

    #[test]
    fn hbase_max_files_and_windows() {
        // Windows of 5 at most: [5,4,3,2,1] is in ratio (5 ≤ 10), the others with 7 or 6 are not.
        assert_eq!(sizes(&[7, 6, 5, 4, 3, 2, 1]), vec![5, 4, 3, 2, 1]);
        assert_eq!(sizes(&[50, 10, 10, 10, 10]), vec![10, 10, 10, 10]);
        assert_eq!(sizes(&[10, 10, 10, 10, 50]), vec![10, 10, 10, 10]);
        // A window over max size (2100) is skipped even when in ratio.
        assert_eq!(sizes(&[251, 253, 251, 2100 - 1]), vec![251, 253, 251]);
        assert_eq!(sizes(&[2099, 2099, 2099]), Vec::<u64>::new());
    }

    #[test]
    fn hbase_stuck_below_blocking_with_min_size_1() {
        // 10 files = blocking ⇒ may be stuck. Every window of powers of two fails ratio 1.0
        // (the largest file exceeds the sum of the others), so the smallest window is taken.
        let cfg = CompactionConfig {
            min_size: 1,
            ..hbase_test_cfg()
        };
        let files = sf(&[512, 256, 128, 64, 32, 16, 8, 4, 2, 1]);
        assert_eq!(sizes_with(&files, &cfg, opts()), vec![4, 2, 1]);
    }

    #[test]
    fn hbase_forced_major() {
        let cfg = hbase_test_cfg();
        assert_eq!(
            sizes_with(&sf(&[50, 25, 12, 12]), &cfg, major()),
            vec![50, 25, 12, 12]
        );
        assert_eq!(sizes_with(&sf(&[12, 12]), &cfg, major()), vec![12, 12]);
        let r = select(&sf(&[TOO_BIG, 12, 12]), &cfg, major()).expect("major");
        assert_eq!(r.files, vec![0, 1, 2]);
        assert!(r.is_major);
        // 5 files is not < max files 5 ⇒ downgraded to a minor.
        let r = select(&sf(&[100, 50, 23, 12, 12]), &cfg, major()).expect("minor");
        assert_eq!(r.files, vec![2, 3, 4]);
        assert!(!r.is_major);
    }

    #[test]
    fn hbase_user_major_not_truncated() {
        let cfg = hbase_test_cfg();
        let o = SelectOptions {
            user_requested: true,
            ..major()
        };
        let r = select(&sf(&[7, 6, 5, 4, 3, 2, 1]), &cfg, o).expect("user major");
        assert_eq!(r.files.len(), 7);
        assert!(r.is_major);
        // Not user requested: a minor over [5,4,3,2,1].
        assert_eq!(
            sizes_with(&sf(&[7, 6, 5, 4, 3, 2, 1]), &cfg, major()),
            vec![5, 4, 3, 2, 1]
        );
    }

    #[test]
    fn hbase_aged_major() {
        // Period 1 ms, jitter 0; files modified at t=1000, now = 1002 ⇒ 1000 < 1002 − 1.
        let cfg = CompactionConfig {
            major_period_ms: 1,
            major_jitter: 0.0,
            ..hbase_test_cfg()
        };
        let o = SelectOptions {
            now_ms: 1_002,
            ..opts()
        };
        let r = select(&sf(&[50, 25, 12, 12]), &cfg, o).expect("aged major");
        assert_eq!(r.files, vec![0, 1, 2, 3]);
        assert!(r.is_major);
        assert!(r.reason.contains("periodic"), "{}", r.reason);
        // 5 files is not < 5: an aged major is downgraded too.
        assert_eq!(
            sizes_with(&sf(&[100, 50, 23, 12, 12]), &cfg, o),
            vec![23, 12, 12]
        );
        // At now = 1001 it is not yet due (1000 < 1000 is false).
        let o = SelectOptions {
            now_ms: 1_001,
            ..opts()
        };
        // …and as a minor nothing is in ratio (50 > 49, 25 > 24).
        assert_eq!(select(&sf(&[50, 25, 12, 12]), &cfg, o), None);
    }

    #[test]
    fn hbase_references_after_split() {
        let cfg = hbase_test_cfg();
        let r = select(&sized(&[100, 50, 25, 12, 12], true), &cfg, opts()).expect("refs");
        assert_eq!(r.files, vec![0, 1, 2, 3, 4]);
        assert!(r.after_split);
        assert!(!r.is_major);
        let files = sized(&[TOO_BIG, 12, 12], true);
        assert_eq!(sizes_with(&files, &cfg, opts()), vec![TOO_BIG, 12, 12]);
        let files = sized(&[7, 6, 5, 4, 3, 2, 1], true);
        assert_eq!(sizes_with(&files, &cfg, opts()), vec![7, 6, 5, 4, 3]);
    }

    #[test]
    fn hbase_empty_cases() {
        assert_eq!(sizes(&[]), Vec::<u64>::new());
        assert_eq!(sizes(&[TOO_BIG, TOO_BIG]), Vec::<u64>::new());
    }

    // --- TestDefaultCompactSelection.testOffPeakCompactionRatio ---

    #[test]
    fn hbase_offpeak_ratio() {
        let cfg = hbase_test_cfg();
        let files = sf(&[999, 50, 12, 12, 1]);
        let o = SelectOptions {
            offpeak: true,
            ..opts()
        };
        // 50 ≤ 25·5.0; 999 > 75·5.0.
        let r = select(&files, &cfg, o).expect("offpeak");
        assert_eq!(r.files, vec![1, 2, 3, 4]);
        assert!(r.offpeak);
        assert_eq!(sizes_with(&files, &cfg, opts()), vec![12, 12, 1]);
    }

    // --- TestDefaultCompactSelection.testStuckStoreCompaction ---

    #[test]
    fn hbase_stuck_store() {
        // 10 files: stuck. Best files-per-byte wins (1.05 rule).
        assert_eq!(
            sizes(&[99, 99, 99, 99, 99, 99, 30, 30, 30, 30]),
            vec![30, 30, 30]
        );
        // 9 files: not stuck, most files in ratio.
        assert_eq!(
            sizes(&[99, 99, 99, 99, 99, 30, 30, 30, 30]),
            vec![99, 30, 30, 30, 30]
        );
        assert_eq!(
            sizes(&[99, 99, 99, 99, 99, 99, 30, 30, 30, 15]),
            vec![30, 30, 30, 15]
        );
        // Earlier window kept when the later one is not 5 % better: 3/82 vs 3/80.
        assert_eq!(
            sizes(&[99, 99, 99, 99, 30, 26, 26, 29, 25, 25]),
            vec![30, 26, 26]
        );
        // Later window taken when it is: 3/60 > 1.05 × 3/81.
        assert_eq!(
            sizes(&[99, 99, 99, 99, 27, 27, 27, 20, 20, 20]),
            vec![20, 20, 20]
        );
    }

    #[test]
    fn stuck_with_nothing_in_ratio_takes_smallest_window() {
        // Geometric sizes never pass ratio 1.0 (each > sum of the smaller ones); stuck (10 files)
        // ⇒ the smallest 3-file window, the newest [4,2,1].
        let cfg = CompactionConfig {
            min_size: 0,
            ..hbase_test_cfg()
        };
        let files = sf(&[4096, 2048, 1024, 512, 256, 128, 64, 8, 2, 1]);
        let r = select(&files, &cfg, opts()).expect("stuck");
        assert_eq!(r.files, vec![7, 8, 9]);
        assert!(r.reason.contains("smallest window"), "{}", r.reason);
        // Same files, not stuck (blocking 11): nothing.
        let cfg = CompactionConfig {
            blocking_store_files: 11,
            ..cfg
        };
        assert_eq!(select(&files, &cfg, opts()), None);
    }

    #[test]
    fn one_point_05_tie_rule_boundary() {
        // Stuck; windows [40,40,40] (3/120) then later [38,38,38] (3/114): 3/114 = 0.026315…,
        // 1.05 × 3/120 = 0.02625 ⇒ replaced. With 39s: 3/117 = 0.025641 < 0.02625 ⇒ kept.
        let cfg = CompactionConfig {
            max_files: 3,
            ..hbase_test_cfg()
        };
        let mut sizes = vec![500u64; 4];
        sizes.extend([40, 40, 40, 38, 38, 38]);
        assert_eq!(sizes_with(&sf(&sizes), &cfg, opts()), vec![38, 38, 38]);
        let mut sizes = vec![500u64; 4];
        sizes.extend([40, 40, 40, 39, 39, 39]);
        assert_eq!(sizes_with(&sf(&sizes), &cfg, opts()), vec![40, 40, 40]);
    }

    #[test]
    fn compacting_files_excluded_and_counted_for_stuck() {
        let cfg = hbase_test_cfg();
        let files = sf(&[12, 12, 12, 23, 12, 12]);
        let o = SelectOptions {
            compacting: 3,
            ..opts()
        };
        let r = select(&files, &cfg, o).expect("selects after compacting");
        assert_eq!(r.files, vec![3, 4, 5]);
        assert!(!r.is_major);
        // Forced major cannot be major while files are compacting: a minor is selected.
        let o = SelectOptions {
            compacting: 3,
            force_major: true,
            ..opts()
        };
        assert!(!select(&files, &cfg, o).expect("minor").is_major);
        // compacting beyond the list is harmless.
        let o = SelectOptions {
            compacting: 99,
            ..opts()
        };
        assert_eq!(select(&files, &cfg, o), None);
        // select_after: one compacting file at index 2 (index 0 and 1 are not compacting).
        let r = select_after(
            &files,
            &cfg,
            SelectOptions {
                compacting: 1,
                ..opts()
            },
            3,
            Policy::Exploring,
        )
        .expect("selects");
        assert_eq!(r.files, vec![3, 4, 5]);
    }

    // --- RatioBasedCompactionPolicy.applyCompactionPolicy (legacy) ---

    #[test]
    fn ratio_based_legacy() {
        let cfg = hbase_test_cfg();
        let pick = |s: &[u64], o: SelectOptions| -> Vec<u64> {
            let files = sf(s);
            ratio_based_select(&files, &cfg, o)
                .map(|r| r.files.iter().map(|&i| files[i].size).collect())
                .unwrap_or_default()
        };
        // 100 > max(10, 97); 50 > 47; 23 ≤ 24 ⇒ start at 23.
        assert_eq!(pick(&[100, 50, 23, 12, 12], opts()), vec![23, 12, 12]);
        // 25 > 24 skipped, then only 2 files remain ⇒ stops, 2 < min files ⇒ nothing.
        assert_eq!(pick(&[100, 50, 25, 12, 12], opts()), Vec::<u64>::new());
        // Sum of the next max−1 = 4 files only: 7 > 6+5+4+3 = 18? no ⇒ all 7, truncated to 5.
        assert_eq!(pick(&[7, 6, 5, 4, 3, 2, 1], opts()), vec![7, 6, 5, 4, 3]);
        // Off-peak ratio 5: 999 > 75·5; 50 ≤ 25·5.
        let off = SelectOptions {
            offpeak: true,
            ..opts()
        };
        assert_eq!(pick(&[999, 50, 12, 12, 1], off), vec![50, 12, 12, 1]);
    }

    // --- needsCompaction ---

    #[test]
    fn needs_compaction_counts_non_compacting() {
        let cfg = hbase_test_cfg();
        assert!(needs_compaction(&sf(&[1, 1, 1]), 0, &cfg, 0));
        assert!(!needs_compaction(&sf(&[1, 1, 1]), 1, &cfg, 0));
        assert!(!needs_compaction(&sf(&[1, 1]), 0, &cfg, 0));
        assert!(!needs_compaction(&sf(&[1]), 5, &cfg, 0));
    }

    // --- major compaction timing (SortedCompactionPolicy.getNextMajorCompactTime) ---

    #[test]
    fn java_random_matches_jdk() {
        // new Random(42).nextDouble(), new Random(0).nextDouble(), new Random(42).nextInt(),
        // new Random(42).nextFloat() as printed by a JDK.
        assert_eq!(JavaRandom::new(42).next_double(), 0.7275636800328681);
        assert_eq!(JavaRandom::new(0).next_double(), 0.730967787376657);
        assert_eq!(JavaRandom::new(-1).next_double(), 0.26894263088050496);
        assert_eq!(JavaRandom::new(42).next_int(), -1_170_105_035);
        assert_eq!(JavaRandom::new(42).next_float(), 0.7275637f32);
    }

    #[test]
    fn java_helpers() {
        assert_eq!(java_string_hash("abc"), 96354);
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_round(2.5), 3);
        assert_eq!(java_round(-2.5), -2);
        assert_eq!(java_round(0.49999999999999994), 0);
        assert_eq!(java_round(f64::NAN), 0);
        assert_eq!(java_round(1e300), i64::MAX);
    }

    fn default_major_cfg() -> CompactionConfig {
        CompactionConfig {
            major_period_ms: 604_800_000,
            major_jitter: 0.5,
            ..hbase_test_cfg()
        }
    }

    fn with_hash(h: u64) -> Vec<FileInfo> {
        let mut f = sf(&[10, 10]);
        f[0].name_hash = h;
        f
    }

    #[test]
    fn major_interval_seeded_by_first_file() {
        let cfg = default_major_cfg();
        // j = round(604800000 × 0.5) = 302400000; seed 42: r = 0.7275636800328681,
        // round(604800000 × r) = 440030514 ⇒ 604800000 + 302400000 − 440030514.
        assert_eq!(
            major_compaction_interval_ms(&with_hash(42), &cfg),
            467_169_486
        );
        assert_eq!(
            major_compaction_interval_ms(&with_hash(0), &cfg),
            465_110_682
        );
        // name_hash 0xFFFF_FFFF is the Java int −1.
        assert_eq!(
            major_compaction_interval_ms(&with_hash(0xFFFF_FFFF), &cfg),
            744_543_497
        );
        // "abc".hashCode() = 96354.
        let h = java_string_hash("abc") as u32 as u64;
        assert_eq!(
            major_compaction_interval_ms(&with_hash(h), &cfg),
            337_365_723
        );
        // Jitter 0 ⇒ the period; period 0 ⇒ 0; no files ⇒ 0.
        let flat = CompactionConfig {
            major_jitter: 0.0,
            ..cfg.clone()
        };
        assert_eq!(
            major_compaction_interval_ms(&with_hash(42), &flat),
            604_800_000
        );
        let off = CompactionConfig {
            major_period_ms: 0,
            ..cfg.clone()
        };
        assert_eq!(major_compaction_interval_ms(&with_hash(42), &off), 0);
        assert_eq!(major_compaction_interval_ms(&[], &cfg), 0);
    }

    #[test]
    fn major_interval_envelope() {
        let cfg = default_major_cfg();
        for h in (0..2_000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) {
            let v = major_compaction_interval_ms(&with_hash(h), &cfg);
            assert!((302_400_000..=907_200_000).contains(&v), "{h}: {v}");
        }
    }

    #[test]
    fn major_due_boundaries() {
        let cfg = default_major_cfg();
        let created = 5_000u64;
        let mut files = with_hash(42);
        for f in &mut files {
            f.created_ms = created;
        }
        let next = 467_169_486u64;
        // Due when created < now − next, i.e. now > created + next.
        assert!(!major_due(&files, &cfg, created + next));
        assert!(major_due(&files, &cfg, created + next + 1));
        // 3.5 days is never enough, 10.5 days always is (any seed).
        let mut any = with_hash(7);
        for f in &mut any {
            f.created_ms = created;
        }
        assert!(!major_due(&any, &cfg, created + 302_400_000));
        assert!(major_due(&any, &cfg, created + 907_200_001));
        // The oldest file decides.
        files[1].created_ms = 1;
        assert!(major_due(&files, &cfg, 1 + next + 1));
        // A lone file is skipped (major or not: no TTL, locality threshold 0).
        let lone = &files[..1];
        assert!(!major_due(lone, &cfg, u64::MAX / 2));
        // Modification time 0 never triggers (HBase requires lowTimestamp > 0).
        let mut zero = with_hash(42);
        zero[0].created_ms = 0;
        assert!(!major_due(&zero, &cfg, u64::MAX / 2));
        // Periodic majors off.
        let off = CompactionConfig {
            major_period_ms: 0,
            ..cfg
        };
        assert!(!major_due(&files, &off, u64::MAX / 2));
    }

    #[test]
    fn config_from_default_settings() {
        let s = Settings::resolve(
            &crate::config::SiteConfig::with_defaults(),
            &crate::config::TableAttributes::default(),
        )
        .expect("defaults");
        let c = CompactionConfig::from_settings(&s);
        assert_eq!(c.min_files, 3);
        assert_eq!(c.max_files, 10);
        assert_eq!(c.min_size, 134_217_728);
        assert_eq!(c.max_size, i64::MAX as u64);
        assert_eq!(c.offpeak_max_size, c.max_size);
        assert_eq!(c.ratio, 1.2f32 as f64);
        assert_eq!(c.offpeak_ratio, 5.0);
        assert_eq!(c.blocking_store_files, 16);
        assert_eq!(c.major_period_ms, 604_800_000);
        assert_eq!(c.major_jitter, 0.5);
    }

    #[test]
    fn degenerate_configs_do_not_panic() {
        let files = sf(&[5, 4, 3, 2, 1]);
        for (min_files, max_files) in [(0, 0), (0, 3), (1, 1), (7, 2), (usize::MAX, usize::MAX)] {
            let cfg = CompactionConfig {
                min_files,
                max_files,
                blocking_store_files: 0,
                ..hbase_test_cfg()
            };
            for policy in [Policy::Exploring, Policy::RatioBased] {
                let _ = select_after(&files, &cfg, opts(), 0, policy);
                let _ = select_after(&files, &cfg, major(), 0, policy);
            }
        }
        let huge = sf(&[u64::MAX, u64::MAX, u64::MAX]);
        let cfg = CompactionConfig {
            max_size: u64::MAX,
            major_period_ms: u64::MAX,
            major_jitter: 1e9,
            ..hbase_test_cfg()
        };
        let r = select(&huge, &cfg, major()).expect("major");
        assert_eq!(r.size, u64::MAX);
        let _ = major_due(&huge, &cfg, u64::MAX);
    }

    /// `RatioBasedCompactionPolicy.shouldPerformMajorCompaction`, single file: skipped unless
    /// the family has a TTL and the file's oldest cell is older than it ("keyvalues outdated").
    #[test]
    fn single_file_major_due_only_when_cells_outdated_ratio_based_compaction_policy() {
        let mut cfg = hbase_test_cfg();
        cfg.major_period_ms = 1000;
        cfg.major_jitter = 0.0;
        let mut one = sf(&[100]);
        one[0].oldest_cell_ms = 1_000;
        assert!(
            !major_due(&one, &cfg, 10_000),
            "no TTL: a lone file is skipped"
        );
        cfg.ttl_ms = Some(5_000);
        assert!(
            major_due(&one, &cfg, 10_000),
            "oldest cell 9 s old, TTL 5 s"
        );
        assert!(!major_due(&one, &cfg, 5_500), "4.5 s old: not outdated");
        one[0].major = true;
        assert!(
            major_due(&one, &cfg, 10_000),
            "a major's output too once outdated"
        );
    }

    /// `DefaultStoreFileManager.getUnneededFiles`: files whose newest cell is older than now −
    /// TTL, never the newest file, never one being compacted.
    #[test]
    fn expired_files_spare_the_newest_and_compacting_default_store_file_manager() {
        let mut files = sf(&[10, 10, 10, 10]);
        for (i, f) in files.iter_mut().enumerate() {
            f.newest_cell_ms = 100 * (i as u64 + 1);
        }
        assert_eq!(expired_files(&files, &[], 250), vec![0, 1]);
        assert_eq!(expired_files(&files, &[], 10_000), vec![0, 1, 2]);
        assert_eq!(expired_files(&files, &[(1, 1)], 10_000), vec![0, 2]);
        assert!(expired_files(&files, &[], 100).is_empty());
    }
}
