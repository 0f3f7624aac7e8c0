//! The building blocks of compaction selection that every policy shares: a store's compaction
//! knobs ([`CompactionConfig`]), what a policy sees of a store file ([`FileInfo`]), the two
//! `applyCompactionPolicy` algorithms that pick files from a run of candidates
//! (`ExploringCompactionPolicy`, `RatioBasedCompactionPolicy`), and the jittered periodic-major
//! interval with the Java arithmetic it needs. `compaction.rs` drives them as
//! `SortedCompactionPolicy.selectCompaction` does; `date_tiered.rs` within each time window.

use crate::config::Settings;
use crate::config::settings::{CompactionPolicyClass, DateTieredParams};
use crate::units::format_bytes;

/// The compaction knobs of one store (from [`Settings`]).
#[derive(Debug, Clone, PartialEq)]
pub struct CompactionConfig {
    /// max(2, hbase.hstore.compaction.min / compactionThreshold).
    pub min_files: usize,
    /// hbase.hstore.compaction.max.
    pub max_files: usize,
    /// hbase.hstore.compaction.min.size.
    pub min_size: u64,
    /// hbase.hstore.compaction.max.size.
    pub max_size: u64,
    /// hbase.hstore.compaction.ratio.
    pub ratio: f64,
    /// hbase.hstore.compaction.ratio.offpeak.
    pub offpeak_ratio: f64,
    /// hbase.hstore.blockingStoreFiles.
    pub blocking_store_files: usize,
    /// hbase.hregion.majorcompaction (0 = periodic majors off).
    pub major_period_ms: u64,
    /// hbase.hregion.majorcompaction.jitter.
    pub major_jitter: f64,
    /// hbase.hstore.compaction.max.size.offpeak (unset ⇒ `max_size`): the size limit used instead
    /// of `max_size` while off-peak hours are in effect.
    pub offpeak_max_size: u64,
    /// The family's TTL, ms (`None`: FOREVER). Only the single-file major rule reads it.
    pub ttl_ms: Option<u64>,
    /// hbase.hstore.defaultengine.compactionpolicy.class (or DateTiered by store engine).
    pub policy: CompactionPolicyClass,
    /// DateTiered's windows and thresholds (read only under DateTiered).
    pub date_tiered: DateTieredParams,
}

impl CompactionConfig {
    /// From resolved settings.
    pub fn from_settings(s: &Settings) -> CompactionConfig {
        CompactionConfig {
            min_files: s.compaction_min_files as usize,
            max_files: s.compaction_max_files as usize,
            min_size: s.compaction_min_size,
            max_size: s.compaction_max_size,
            ratio: s.compaction_ratio as f64,
            offpeak_ratio: s.compaction_ratio_offpeak as f64,
            blocking_store_files: s.blocking_store_files as usize,
            major_period_ms: s.major_compaction_period_ms,
            major_jitter: s.major_compaction_jitter as f64,
            offpeak_max_size: s.compaction_max_size_offpeak,
            ttl_ms: None,
            policy: s.compaction_policy,
            date_tiered: s.date_tiered,
        }
    }

    /// `CompactionConfiguration.getMaxCompactSize(mayUseOffpeak)`.
    pub fn max_compact_size(&self, offpeak: bool) -> u64 {
        if offpeak {
            self.offpeak_max_size
        } else {
            self.max_size
        }
    }

    /// The ratio in effect (off-peak or normal).
    pub fn current_ratio(&self, offpeak: bool) -> f64 {
        if offpeak {
            self.offpeak_ratio
        } else {
            self.ratio
        }
    }
}

/// What the policy needs to know about one store file (in the store's seq-id order, oldest first).
#[derive(Debug, Clone, PartialEq)]
pub struct FileInfo {
    /// `reader.length()`.
    pub size: u64,
    /// A Reference left by a split.
    pub is_reference: bool,
    /// Simulated modification time, ms.
    pub created_ms: u64,
    /// Written by a major compaction.
    pub major: bool,
    /// Stable per-file number standing in for the file name's hash (seeds the major jitter).
    /// Only its low 32 bits are used, read as a Java `int` (what `String.hashCode()` returns);
    /// see [`java_string_hash`] to derive it from a real file name.
    pub name_hash: u64,
    /// Write time of its oldest and newest cell, ms (`getMinimumTimestamp`/`getMaxTimestamp`).
    pub oldest_cell_ms: u64,
    /// See `oldest_cell_ms`.
    pub newest_cell_ms: u64,
}

/// Which `applyCompactionPolicy` runs inside `SortedCompactionPolicy.selectCompaction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// `ExploringCompactionPolicy` (HBase's default).
    Exploring,
    /// `RatioBasedCompactionPolicy` (the pre-0.96 default).
    RatioBased,
}

pub(crate) fn clamp_u64(v: u128) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

pub(crate) fn window_size(files: &[FileInfo]) -> u128 {
    files.iter().map(|f| f.size as u128).sum()
}

/// `ExploringCompactionPolicy.filesInRatio`: every file ≤ (sum of the others) × ratio.
pub(crate) fn files_in_ratio(files: &[FileInfo], ratio: f64) -> bool {
    if files.len() < 2 {
        return true;
    }
    let total = window_size(files);
    files.iter().all(|f| {
        let others = total - f.size as u128;
        // Java's `!(size > others × ratio)`: a NaN ratio counts as in ratio.
        (f.size as f64).partial_cmp(&((others as f64) * ratio)) != Some(std::cmp::Ordering::Greater)
    })
}

/// `ExploringCompactionPolicy.applyCompactionPolicy`: returns (start, len, explanation) within
/// `candidates`; len 0 = nothing.
pub(crate) fn exploring(
    candidates: &[FileInfo],
    cfg: &CompactionConfig,
    offpeak: bool,
    might_be_stuck: bool,
) -> (usize, usize, String) {
    let ratio = cfg.current_ratio(offpeak);
    let max_size = cfg.max_compact_size(offpeak) as u128;
    let n = candidates.len();
    // (start, len, size)
    let mut best: (usize, usize, u128) = (0, 0, 0);
    // HBase starts the smallest size at Long.MAX_VALUE.
    let mut smallest: Option<(usize, usize, u128)> = None;
    let mut smallest_size = i64::MAX as u128;
    let mut considered = 0usize;
    let mut in_ratio = 0usize;
    for start in 0..n {
        let mut len = cfg.min_files;
        while len <= n - start && len <= cfg.max_files {
            let window = &candidates[start..start + len];
            let size = window_size(window);
            if might_be_stuck && size < smallest_size {
                smallest = Some((start, len, size));
                smallest_size = size;
            }
            if size <= max_size {
                considered += 1;
                if size < cfg.min_size as u128 || files_in_ratio(window, ratio) {
                    in_ratio += 1;
                    if is_better(best.1, best.2, len, size, might_be_stuck) {
                        best = (start, len, size);
                    }
                }
            }
            len += 1;
        }
    }
    if best.1 == 0 && might_be_stuck {
        if let Some((s, l, size)) = smallest {
            return (
                s,
                l,
                format!(
                    "the store may be stuck (≥ {} files) and no window is in ratio, so the \
                     smallest window ({} files, {}) is taken",
                    cfg.blocking_store_files,
                    l,
                    format_bytes(clamp_u64(size))
                ),
            );
        }
        return (0, 0, String::new());
    }
    let how = if might_be_stuck {
        "the store may be stuck, so the window removing the most files per byte (1.05 rule)"
    } else {
        "the in-ratio window with the most files (then the smallest)"
    };
    (
        best.0,
        best.1,
        format!(
            "exploring chose {how}: files {}..{} of {} eligible, ratio {:.2}, {considered} windows \
             considered, {in_ratio} in ratio",
            best.0,
            best.0 + best.1,
            n,
            ratio
        ),
    )
}

/// `ExploringCompactionPolicy.isBetterSelection`.
pub(crate) fn is_better(
    best_len: usize,
    best_size: u128,
    len: usize,
    size: u128,
    stuck: bool,
) -> bool {
    if stuck && best_size > 0 && size > 0 {
        const REPLACE_IF_BETTER_BY: f64 = 1.05;
        let threshold = (best_len as f64 / best_size as f64) * REPLACE_IF_BETTER_BY;
        return threshold < len as f64 / size as f64;
    }
    len > best_len || (len == best_len && size < best_size)
}

/// `applyCompactionPolicy` of `policy` on `files` with nothing stuck (DateTiered's selection
/// inside one window): (start, len) within `files`, len 0 = nothing.
pub(crate) fn window_selection(
    files: &[FileInfo],
    cfg: &CompactionConfig,
    offpeak: bool,
    policy: Policy,
) -> (usize, usize) {
    let (start, len, _) = match policy {
        Policy::Exploring => exploring(files, cfg, offpeak, false),
        Policy::RatioBased => ratio_based(files, cfg, offpeak, false),
    };
    (start, len)
}

/// `RatioBasedCompactionPolicy.applyCompactionPolicy`: skip old files while enough remain and
/// the file is larger than max(min size, ratio × the next max−1 files).
pub(crate) fn ratio_based(
    candidates: &[FileInfo],
    cfg: &CompactionConfig,
    offpeak: bool,
    may_be_stuck: bool,
) -> (usize, usize, String) {
    let n = candidates.len();
    if n == 0 {
        return (0, 0, String::new());
    }
    let ratio = cfg.current_ratio(offpeak);
    // Sum of the files [i, i + max_files - 1).
    let following = |i: usize| -> u128 {
        let end = i.saturating_add(cfg.max_files.saturating_sub(1)).min(n);
        if i >= end {
            0
        } else {
            window_size(&candidates[i..end])
        }
    };
    let mut start = 0;
    while n - start >= cfg.min_files && start + 1 < n {
        let limit = (cfg.min_size as i128).max(java_long(following(start + 1) as f64 * ratio));
        if (candidates[start].size as i128) > limit {
            start += 1;
        } else {
            break;
        }
    }
    if start >= n && may_be_stuck && n >= cfg.min_files {
        // Unreachable for min_files ≥ 2, kept as HBase has it.
        start = n - cfg.min_files;
    }
    (
        start,
        n - start,
        format!(
            "ratio-based: skipped {start} older files larger than ratio {ratio:.2} × the newer ones"
        ),
    )
}

/// Java's `(long) x` for a non-negative double: truncation, saturating.
pub(crate) fn java_long(x: f64) -> i128 {
    x as i64 as i128
}

/// `SortedCompactionPolicy.getNextMajorCompactTime`: the age the oldest file must exceed before
/// a periodic major is due. The period itself if the jitter is ≤ 0; 0 (never) if the period is 0
/// or there are no files; else `period + j − round(2j × r)` with `j = round(period × jitter)` and
/// `r = new java.util.Random(seed).nextDouble()`, seed = the first file's name hash as a Java int
/// (HBase: the first file name's `hashCode()`). Defaults give a value in [3.5 d, 10.5 d].
pub fn major_compaction_interval_ms(files: &[FileInfo], cfg: &CompactionConfig) -> i64 {
    let period = i64::try_from(cfg.major_period_ms).unwrap_or(i64::MAX);
    if period <= 0 {
        return period;
    }
    let jitter_pct = cfg.major_jitter;
    if jitter_pct.is_nan() || jitter_pct <= 0.0 {
        return period;
    }
    let Some(first) = files.first() else {
        return 0;
    };
    let jitter = java_round(period as f64 * jitter_pct);
    let mut rng = JavaRandom::new(first.name_hash as u32 as i32 as i64);
    let r = rng.next_double();
    let drawn = java_round((2i64.wrapping_mul(jitter)) as f64 * r);
    period.wrapping_add(jitter).wrapping_sub(drawn)
}

/// Java's `Math.round(double)`: nearest, ties toward +∞, NaN → 0, saturating.
pub fn java_round(x: f64) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let f = x.floor();
    let r = if x - f >= 0.5 { f + 1.0 } else { f };
    r as i64
}

/// Java's `String.hashCode()` (over UTF-16 code units), for deriving [`FileInfo::name_hash`]
/// from a real store file name.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// `java.util.Random`: the 48-bit linear congruential generator, bit-exact with Java.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JavaRandom {
    seed: u64,
}

impl JavaRandom {
    const MULTIPLIER: u64 = 0x5_DEEC_E66D;
    const ADDEND: u64 = 0xB;
    const MASK: u64 = (1 << 48) - 1;

    /// `new Random(seed)` (also `setSeed(seed)`).
    pub fn new(seed: i64) -> JavaRandom {
        JavaRandom {
            seed: (seed as u64 ^ Self::MULTIPLIER) & Self::MASK,
        }
    }

    /// `next(bits)`: the top `bits` (1..=32) of the next state, as Java's `int`.
    pub fn next_bits(&mut self, bits: u32) -> i32 {
        let bits = bits.clamp(1, 32);
        self.seed = self
            .seed
            .wrapping_mul(Self::MULTIPLIER)
            .wrapping_add(Self::ADDEND)
            & Self::MASK;
        (self.seed >> (48 - bits)) as u32 as i32
    }

    /// `nextInt()`.
    pub fn next_int(&mut self) -> i32 {
        self.next_bits(32)
    }

    /// `nextFloat()` in [0, 1).
    pub fn next_float(&mut self) -> f32 {
        self.next_bits(24) as f32 / (1u32 << 24) as f32
    }

    /// `nextDouble()` in [0, 1).
    pub fn next_double(&mut self) -> f64 {
        let hi = (self.next_bits(26) as i64) << 27;
        let lo = self.next_bits(27) as i64;
        (hi + lo) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
