//! The classic "partition" pre-split: split keys are the 8-byte big-endian longs 1..N−1, as
//! written by `Bytes.toBytes((long) i)` — for tables whose keys start with a partition number
//! (salt) stored as a long.

use super::hexstring::too_many;
use super::{MAX_PRESPLIT_REGIONS, check_region_count};
use crate::diag::InputError;

/// Split keys `Bytes.toBytes(1L)` .. `Bytes.toBytes((long) (regions − 1))`.
pub(crate) fn partition_split(regions: u64) -> Result<Vec<Vec<u8>>, InputError> {
    check_region_count(regions, "partition")?;
    if regions > MAX_PRESPLIT_REGIONS {
        return Err(too_many(regions));
    }
    Ok((1..regions).map(|i| i.to_be_bytes().to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mirrors Bytes#toBytes(long) applied to 1..N−1.
    #[test]
    fn twenty_partitions() {
        let keys = partition_split(20).unwrap();
        assert_eq!(keys.len(), 19);
        assert_eq!(keys[0], [0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(keys[18], [0, 0, 0, 0, 0, 0, 0, 19]);
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(partition_split(300).unwrap()[255], [0, 0, 0, 0, 0, 0, 1, 0]);
        assert!(partition_split(1).is_err());
    }
}
