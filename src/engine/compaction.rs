//! Compaction selection: which store files a minor or major compaction rewrites
//! (`SortedCompactionPolicy` + `ExploringCompactionPolicy`), and when a store needs one.
//! (CONTRACT STUB — the compaction work replaces this file and keeps these names and signatures.)

use crate::config::Settings;

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
    pub name_hash: u64,
}

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
pub fn select(
    files: &[FileInfo],
    cfg: &CompactionConfig,
    opts: SelectOptions,
) -> Option<CompactionRequest> {
    let _ = (files, cfg, opts);
    None
}

/// `needsCompaction`: (files − compacting) ≥ min files.
pub fn needs_compaction(files: &[FileInfo], compacting: usize, cfg: &CompactionConfig) -> bool {
    files.len().saturating_sub(compacting) >= cfg.min_files
}

/// `RatioBasedCompactionPolicy.shouldPerformMajorCompaction` at `now_ms`.
pub fn major_due(files: &[FileInfo], cfg: &CompactionConfig, now_ms: u64) -> bool {
    let _ = (files, cfg, now_ms);
    false
}
