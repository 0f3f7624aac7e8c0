//! Pre-split algorithms: the split keys a table is created with.
//! (CONTRACT STUB — the presplit work replaces this module and keeps these names and signatures.)

use crate::diag::InputError;
use crate::keygen::RowKeyGenerator;

/// A built-in split algorithm (HBase's RegionSplitter algorithms and friends).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// `HexStringSplit`.
    Hex,
    /// `DecimalStringSplit`.
    Decimal,
    /// `UniformSplit`.
    Uniform,
    /// The 0.90/0.92 `MD5StringSplit`.
    Md5Legacy,
    /// 8-byte big-endian longs 1..N−1.
    Partition,
}

/// Split keys (N−1 of them, sorted) for `regions` regions.
pub fn split_keys(algorithm: Algorithm, regions: u64) -> Result<Vec<Vec<u8>>, InputError> {
    let _ = (algorithm, regions);
    Err(InputError::new("not built yet"))
}

/// Sampled quantiles of a generator's keys over `ids`.
pub fn sampled(
    generator: &dyn RowKeyGenerator,
    ids: (u64, u64),
    samples: u64,
    regions: u64,
) -> Result<Vec<Vec<u8>>, InputError> {
    let _ = (generator, ids, samples, regions);
    Err(InputError::new("not built yet"))
}

/// Validates explicit split keys as HBase does: sorts them, rejects empty and duplicate keys.
pub fn validate_keys(keys: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, InputError> {
    Ok(keys)
}
