//! Pre-split algorithms: the split keys a table is created with.
//!
//! Each built-in mirrors HBase exactly (see `docs/PRESPLIT.md`):
//!
//! * [`Algorithm::Hex`] / [`Algorithm::Decimal`]: `RegionSplitter.HexStringSplit` /
//!   `DecimalStringSplit` (hbase-server), with optional custom first/last rows.
//! * [`Algorithm::Md5Legacy`]: the 0.90/0.92 `RegionSplitter.MD5StringSplit`.
//! * [`Algorithm::Uniform`]: `RegionSplitter.UniformSplit`, i.e. [`bytes_split`]
//!   (`Bytes.split`, hbase-common).
//! * [`Algorithm::Partition`]: 8-byte big-endian longs 1..N−1.
//! * [`sampled`]: quantiles of a generator's own keys.
//! * [`Splitter`]: RegionSplitter's algorithms as objects — the two-key `split(start, end)`,
//!   `firstRow()`/`lastRow()` — and [`rolling_split_plan`], `RegionSplitter.rollingSplit`'s plan.
//! * Explicit keys: [`validate_keys`] (the client's checks) and [`read_splits_file`] (the shell's
//!   `SPLITS_FILE`); [`create_table_split_keys`] for `Admin.createTable(desc, start, end, n)`.
//!
//! Split keys are returned sorted (unsigned lexicographic, like `Bytes.BYTES_COMPARATOR`);
//! [`regions_from_split_keys`] turns them into region boundaries.

mod bigint;
mod explicit;
mod hexstring;
mod partition;
mod rolling;
mod sampled;
pub(crate) use sampled::sampled_split;
mod splitter;
mod uniform;

use std::fmt;
use std::str::FromStr;

use crate::diag::InputError;
use crate::keygen::RowKeyGenerator;
use crate::keygen::batch::PerKey;

pub use explicit::{
    SplitsFileFormat, parse_splits_text, read_splits_file, read_splits_file_as, render_splits_file,
    shell_create_command, validate_keys,
};
pub use rolling::{
    DEFAULT_MIN_OUTSTANDING, RollingOutcome, RollingPlan, RollingStep, TableRegion,
    rolling_split_plan,
};
pub use sampled::MAX_SAMPLES;
pub(crate) use sampled::Sample;
pub use splitter::Splitter;
pub use uniform::{bytes_split, create_table_split_keys};

/// The most regions hbase-emu pre-splits a table into. An emulator limit, not HBase's (whose
/// region count is a Java `int`): past a million regions a pre-split is a mistake, and refusing
/// it keeps a typo from allocating gigabytes.
pub const MAX_PRESPLIT_REGIONS: u64 = 1_000_000;

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

impl Algorithm {
    /// Every built-in, in declaration order.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Hex,
        Algorithm::Decimal,
        Algorithm::Uniform,
        Algorithm::Md5Legacy,
        Algorithm::Partition,
    ];

    /// The short name hbase-emu uses (`hex`, `decimal`, `uniform`, `md5-legacy`, `partition`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Hex => "hex",
            Algorithm::Decimal => "decimal",
            Algorithm::Uniform => "uniform",
            Algorithm::Md5Legacy => "md5-legacy",
            Algorithm::Partition => "partition",
        }
    }

    /// The HBase class it mirrors (`SPLITALGO` name for the three current built-ins).
    pub fn hbase_class(self) -> &'static str {
        match self {
            Algorithm::Hex => "HexStringSplit",
            Algorithm::Decimal => "DecimalStringSplit",
            Algorithm::Uniform => "UniformSplit",
            Algorithm::Md5Legacy => "MD5StringSplit (HBase 0.90/0.92)",
            Algorithm::Partition => "Bytes.toBytes((long) i), i = 1..N-1",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = InputError;

    /// Accepts the short names and HBase's `SPLITALGO` names (`HexStringSplit`, …,
    /// `MD5StringSplit`).
    fn from_str(s: &str) -> Result<Algorithm, InputError> {
        Ok(match s {
            "hex" | "HexStringSplit" => Algorithm::Hex,
            "decimal" | "DecimalStringSplit" => Algorithm::Decimal,
            "uniform" | "UniformSplit" => Algorithm::Uniform,
            "md5-legacy" | "MD5StringSplit" => Algorithm::Md5Legacy,
            "partition" => Algorithm::Partition,
            _ => {
                return Err(
                    InputError::new(format!("unknown split algorithm `{s}`")).expected(
                        "hex (HexStringSplit), decimal (DecimalStringSplit), uniform \
                         (UniformSplit), md5-legacy (MD5StringSplit) or partition",
                    ),
                );
            }
        })
    }
}

/// Refuses fewer than two regions (the shell's and RegionSplitter's own check: "must be > 1").
pub(crate) fn check_region_count(regions: u64, what: &str) -> Result<(), InputError> {
    if regions < 2 {
        return Err(InputError::new(format!(
            "{what} pre-split into {regions} region(s): a pre-split needs at least 2 regions"
        ))
        .field("regions")
        .expected("2 or more regions (1 region needs no split keys)"));
    }
    Ok(())
}

/// Split keys (N−1 of them, sorted) for `regions` regions.
pub fn split_keys(algorithm: Algorithm, regions: u64) -> Result<Vec<Vec<u8>>, InputError> {
    split_keys_in(algorithm, regions, None, None)
}

/// [`split_keys`] over a custom key range, as RegionSplitter's `--firstrow` / `--lastrow`
/// (`setFirstRow(String)` / `setLastRow(String)`): hex or decimal digits for `Hex`/`Decimal`
/// (the last row's length sets the key width), `toStringBinary` notation for `Uniform`. `None`
/// keeps HBase's default. `Md5Legacy` and `Partition` have fixed ranges and refuse custom rows.
pub fn split_keys_in(
    algorithm: Algorithm,
    regions: u64,
    first_row: Option<&str>,
    last_row: Option<&str>,
) -> Result<Vec<Vec<u8>>, InputError> {
    match algorithm {
        Algorithm::Hex => {
            hexstring::number_split(hexstring::NumberKind::Hex, regions, first_row, last_row)
        }
        Algorithm::Decimal => {
            hexstring::number_split(hexstring::NumberKind::Decimal, regions, first_row, last_row)
        }
        Algorithm::Uniform => uniform::uniform_split(regions, first_row, last_row),
        Algorithm::Md5Legacy | Algorithm::Partition => {
            if first_row.is_some() || last_row.is_some() {
                return Err(InputError::new(format!(
                    "the {algorithm} split has a fixed key range; it takes no first or last row"
                ))
                .field(if first_row.is_some() {
                    "first_row"
                } else {
                    "last_row"
                })
                .expected("hex, decimal or uniform for a custom range"));
            }
            if algorithm == Algorithm::Md5Legacy {
                hexstring::md5_legacy_split(regions)
            } else {
                partition::partition_split(regions)
            }
        }
    }
}

/// Sampled quantiles of a generator's keys over `ids` = `(first_id, count)`: `samples` keys from
/// evenly spaced blocks of ids (an id drawn in each block from `seed`, or each block's middle id
/// without one), sorted as bytes, split keys at sorted
/// index ⌊i·samples/regions⌋ for i = 1..regions−1. Errors when two split keys would be equal
/// (too few distinct keys), when `samples` (or `count`) < `regions`, or `samples` >
/// [`MAX_SAMPLES`]. When `samples` > `count` every id is sampled. (A built generator's keys
/// are sampled through its batch paths: `sampled_split`.)
pub fn sampled(
    generator: &dyn RowKeyGenerator,
    ids: (u64, u64),
    samples: u64,
    regions: u64,
    seed: Option<u64>,
) -> Result<Vec<Vec<u8>>, InputError> {
    sampled::sampled_split(&PerKey(generator), ids, samples, regions, seed)
}

/// Region boundaries from sorted split keys: `[∅, k₀), [k₀, k₁), …, [kₙ₋₁, ∅)`, each as
/// `(start, end)` with the empty key meaning unbounded. No keys give one region `(∅, ∅)`.
pub fn regions_from_split_keys(keys: &[Vec<u8>]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::with_capacity(keys.len() + 1);
    let mut start = Vec::new();
    for k in keys {
        out.push((std::mem::replace(&mut start, k.clone()), k.clone()));
    }
    out.push((start, Vec::new()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn dispatch_and_names() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>().unwrap(), a);
            assert_eq!(split_keys(a, 2).unwrap().len(), 1, "{a}");
            assert!(split_keys(a, 1).is_err(), "{a}");
            assert!(split_keys(a, MAX_PRESPLIT_REGIONS + 1).is_err(), "{a}");
        }
        assert_eq!(
            "HexStringSplit".parse::<Algorithm>().unwrap(),
            Algorithm::Hex
        );
        assert!("RandomSplit".parse::<Algorithm>().is_err());
        assert!(split_keys_in(Algorithm::Partition, 4, Some("1"), None).is_err());
        assert_eq!(
            split_keys(Algorithm::Hex, 4).unwrap(),
            [
                b"40000000".to_vec(),
                b"80000000".to_vec(),
                b"c0000000".to_vec()
            ]
        );
        // A million regions is allowed and quick.
        assert_eq!(
            split_keys(Algorithm::Uniform, MAX_PRESPLIT_REGIONS)
                .unwrap()
                .len(),
            999_999
        );
    }

    #[test]
    fn regions_tile_from_empty_to_empty() {
        assert_eq!(regions_from_split_keys(&[]), [(vec![], vec![])]);
        let r = regions_from_split_keys(&[b"b".to_vec(), b"d".to_vec()]);
        assert_eq!(
            r,
            [
                (vec![], b"b".to_vec()),
                (b"b".to_vec(), b"d".to_vec()),
                (b"d".to_vec(), vec![])
            ]
        );
    }

    fn strictly_increasing(keys: &[Vec<u8>]) -> bool {
        keys.windows(2).all(|w| w[0] < w[1])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn default_ranges_give_keys_strictly_inside(n in 2u64..3000) {
            for (alg, first, last) in [
                (Algorithm::Hex, b"00000000".to_vec(), b"ffffffff".to_vec()),
                (Algorithm::Decimal, b"00000000".to_vec(), b"99999999".to_vec()),
                (Algorithm::Uniform, vec![], vec![0xFF; 8]),
                (Algorithm::Md5Legacy, b"00000000".to_vec(), b"7fffffff".to_vec()),
            ] {
                let keys = split_keys(alg, n).unwrap();
                prop_assert_eq!(keys.len() as u64, n - 1);
                prop_assert!(strictly_increasing(&keys));
                prop_assert!(keys[0] > first);
                prop_assert!(*keys.last().unwrap() < last);
                prop_assert!(keys.iter().all(|k| k.len() == 8));
                prop_assert!(validate_keys(keys.clone()).is_ok());
            }
        }

        #[test]
        fn custom_hex_ranges_stay_within(first in 0u64..1 << 40, span in 1u64..1 << 40,
                                         n in 2u64..500, width in 0usize..4) {
            let last = first + span;
            let last_text = format!("{last:0w$x}", w = 11 + width);
            let first_text = format!("{first:x}");
            let res = split_keys_in(Algorithm::Hex, n, Some(&first_text), Some(&last_text));
            if span + 1 < n {
                prop_assert!(res.is_err());
            } else {
                let keys = res.unwrap();
                prop_assert_eq!(keys.len() as u64, n - 1);
                prop_assert!(strictly_increasing(&keys));
                for k in &keys {
                    prop_assert_eq!(k.len(), last_text.len());
                    let v = u64::from_str_radix(std::str::from_utf8(k).unwrap(), 16).unwrap();
                    prop_assert!(v > first && v <= last);
                }
            }
        }

        #[test]
        fn bytes_split_points_are_inside(a in proptest::collection::vec(any::<u8>(), 0..5),
                                         b in proptest::collection::vec(any::<u8>(), 0..5),
                                         num in 1u64..300, inclusive in any::<bool>()) {
            let len = a.len().max(b.len());
            let (mut ap, mut bp) = (a.clone(), b.clone());
            ap.resize(len, 0);
            bp.resize(len, 0);
            match bytes_split(&a, &b, inclusive, num) {
                Err(_) => prop_assert!(ap >= bp),
                Ok(keys) => {
                    prop_assert!(ap < bp);
                    prop_assert_eq!(keys.len() as u64, num + 2);
                    let points = &keys[1..keys.len() - 1];
                    prop_assert!(strictly_increasing(points));
                    prop_assert!(points[0] > ap);
                    let width = keys[0].len().max(len);
                    prop_assert!(points.iter().all(|p| p.len() == width));
                    let mut end = keys[keys.len() - 1].clone();
                    end.resize(width, 0);
                    if inclusive {
                        prop_assert!(*points.last().unwrap() <= end);
                    } else {
                        prop_assert!(*points.last().unwrap() < end);
                    }
                }
            }
        }

        #[test]
        fn regions_tile_the_key_space(keys in proptest::collection::btree_set(
            proptest::collection::vec(any::<u8>(), 1..6), 0..30)) {
            let keys: Vec<Vec<u8>> = keys.into_iter().collect();
            let regions = regions_from_split_keys(&keys);
            prop_assert_eq!(regions.len(), keys.len() + 1);
            prop_assert!(regions[0].0.is_empty());
            prop_assert!(regions[regions.len() - 1].1.is_empty());
            for w in regions.windows(2) {
                prop_assert_eq!(&w[0].1, &w[1].0);
                prop_assert!(!w[0].1.is_empty());
            }
            for (s, e) in &regions {
                prop_assert!(e.is_empty() || s < e);
            }
        }
    }
}
