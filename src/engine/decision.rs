//! What the policies decide, with the reasons they give: typed, so the recorder keeps them as
//! they are and the reports word them.

/// Why a flush was requested (for `--explain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushWhy {
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
    /// The reason a region keeps as `flush_why` (its discriminant).
    pub(crate) fn from_code(code: u8) -> FlushWhy {
        match code {
            0 => FlushWhy::Size,
            1 => FlushWhy::Blocking,
            2 => FlushWhy::Global,
            _ => FlushWhy::Periodic,
        }
    }
}
