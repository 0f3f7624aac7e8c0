//! What the policies decide, with the reasons they give: typed, so the recorder keeps them as
//! they are and the reports word them.

/// Why a flush was requested (for `--explain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FlushWhy {
    /// Memstore heap above the flush size (`HRegion.isFlushSize`).
    Size = 0,
    /// Memstore above the blocking size (RegionTooBusy).
    Blocking = 1,
    /// Server above the global memstore low mark: largest region first.
    Global = 2,
    /// Edits older than `hbase.regionserver.optionalcacheflushinterval`.
    Periodic = 3,
}

impl FlushWhy {
    pub(crate) fn describe(code: u8) -> &'static str {
        match code {
            0 => "memstore above hbase.hregion.memstore.flush.size",
            1 => "memstore above flush.size x block.multiplier (writes blocked)",
            2 => "RegionServer above the global memstore low mark (largest memstore first)",
            _ => "edits older than hbase.regionserver.optionalcacheflushinterval",
        }
    }
}

/// A decision a policy hands to the appliers (`apply::Engine::apply` carries it out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Split `region` at `row` (the split check passed).
    Split {
        /// Region id.
        region: usize,
        /// Split row.
        row: Vec<u8>,
        /// The policy and its numbers.
        reason: String,
    },
    /// Ask for a (minor, not forced) compaction of one store (`CompactSplit.requestCompaction`).
    Compact {
        /// Region id.
        region: usize,
        /// Store index.
        store: usize,
    },
}
