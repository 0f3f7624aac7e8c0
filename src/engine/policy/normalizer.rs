//! SimpleRegionNormalizer: split plans for regions much larger than the table's average and merge
//! plans for runs of small neighbours, computed as HBase computes them (HBASE-MODEL.md §8).
//! Pure planning; the engine executes the plans with modelled time.
//!
//! CONTRACT (issue 4): the engine calls [`plan`] every `hbase.normalizer.period` for a table with
//! normalization enabled and executes the plans in order (splits first, then merges).

use crate::config::Settings;
use crate::engine::policy::balancer::Rng;

/// Bytes per MB (RegionMetrics reports store file size in whole MB).
const MB: u64 = 1 << 20;

/// Milliseconds per day (`Period.ofDays` added to the region's creation instant).
const DAY_MS: u64 = 24 * 3600 * 1000;

/// Stream id of the plan shuffle.
const SHUFFLE_STREAM: u64 = 0x4E4F_524D;

/// A region as the normalizer sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct NormRegion {
    /// Engine region id.
    pub id: usize,
    /// Store file size on disk, bytes (HBase uses RegionMetrics storefile size in whole MB).
    pub storefile_bytes: u64,
    /// Open (not splitting, merging, moving or offline).
    pub open: bool,
    /// Region id time (creation, ms): merge candidates must be older than min_region_age.
    pub created_ms: u64,
}

/// One normalization plan.
#[derive(Debug, Clone, PartialEq)]
pub enum NormPlan {
    /// Split the region (at its split point, as a split request does).
    Split {
        /// Region id.
        region: usize,
        /// Why: its size against the average, in MB.
        reason: NormSplit,
    },
    /// Merge these adjacent regions (key order) into one.
    Merge {
        /// Region ids, adjacent, in key order (≥ 2).
        regions: Vec<usize>,
        /// Why: their sizes against the average, in MB.
        reason: NormMerge,
    },
}

/// Why a region gets a split plan: its size is more than twice the average.
#[derive(Debug, Clone, PartialEq)]
pub struct NormSplit {
    /// The region's size, whole MB.
    pub size_mb: u64,
    /// The average it was compared with.
    pub avg: Average,
}

/// Why regions get a merge plan: together they are no larger than the average.
#[derive(Debug, Clone, PartialEq)]
pub struct NormMerge {
    /// Each member's size, whole MB, in key order.
    pub sizes_mb: Vec<u64>,
    /// Their sum, MB.
    pub sum_mb: u64,
    /// The average, truncated to whole MB as HBase compares it.
    pub avg_mb: i64,
    /// How the average was derived.
    pub avg: Average,
}

/// Where the average region size came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AverageBasis {
    /// `NORMALIZER_TARGET_REGION_SIZE_MB`.
    TargetSize(u64),
    /// The table's total size over a count.
    Total {
        /// Total size, MB.
        total_mb: u64,
        /// Divisor.
        count: u64,
        /// The divisor is `NORMALIZER_TARGET_REGION_COUNT` (else the number of regions).
        target_count: bool,
    },
}

/// Plans for the table's regions (`regions` in key order) at `now_ms`: [`plan_seeded`] with the
/// shuffle (only used with a plans size limit) seeded by `now_ms`.
pub fn plan(regions: &[NormRegion], settings: &Settings, now_ms: u64) -> Vec<NormPlan> {
    plan_seeded(regions, settings, now_ms, now_ms)
}

/// `SimpleRegionNormalizer.computePlansForTable` followed by `RegionNormalizerWorker`'s size
/// limit: split plans, then merge plans; with `hbase.normalizer.plans_size_limit.mb` set the
/// list is shuffled (HBase's `Collections.shuffle`, here seeded) and a plan is kept while the
/// running total of all plan sizes so far stays within the limit.
pub fn plan_seeded(
    regions: &[NormRegion],
    settings: &Settings,
    now_ms: u64,
    seed: u64,
) -> Vec<NormPlan> {
    let split = split_enabled(settings);
    let merge = merge_enabled(settings);
    if regions.is_empty() || (!split && !merge) {
        return Vec::new();
    }
    let avg = Average::of(regions, settings);
    let mut plans: Vec<(NormPlan, u64)> = Vec::new();
    if split {
        plans.extend(split_plans(regions, &avg));
    }
    if merge {
        plans.extend(merge_plans(regions, settings, &avg, now_ms));
    }
    let Some(limit) = settings.normalizer_plans_size_limit_mb else {
        return plans.into_iter().map(|(p, _)| p).collect();
    };
    let mut rng = Rng::new(seed, SHUFFLE_STREAM);
    rng.shuffle(&mut plans);
    let mut cumulative: u64 = 0;
    plans
        .into_iter()
        .filter_map(|(p, size)| {
            cumulative = cumulative.saturating_add(size);
            (cumulative <= limit).then_some(p)
        })
        .collect()
}

/// `proceedWithSplitPlanning`: the table's `hbase.normalizer.split.enabled` if set, else the
/// site's (the master's split switch is always on here).
pub fn split_enabled(settings: &Settings) -> bool {
    (settings.normalizer_table.split_enabled).unwrap_or(settings.normalizer_split_enabled)
}

/// `proceedWithMergePlanning`: the table's `hbase.normalizer.merge.enabled` if set, else the
/// site's.
pub fn merge_enabled(settings: &Settings) -> bool {
    (settings.normalizer_table.merge_enabled).unwrap_or(settings.normalizer_merge_enabled)
}

/// `NormalizerConfiguration.getMergeMinRegionCount(ctx)`: the table's value when > 0, else the
/// site's (itself at least 1).
pub fn merge_min_region_count(settings: &Settings) -> u64 {
    match settings.normalizer_table.merge_min_region_count {
        Some(v) if v > 0 => v as u64,
        _ => u64::from(settings.merge_min_region_count.max(1)),
    }
}

/// `NormalizerConfiguration.getMergeMinRegionAge(ctx)`, in days: the table's value when ≥ 0,
/// else the site's.
pub fn merge_min_region_age_days(settings: &Settings) -> u64 {
    match settings.normalizer_table.merge_min_region_age_days {
        Some(v) if v >= 0 => v as u64,
        _ => u64::from(settings.merge_min_region_age_days),
    }
}

/// `NormalizerConfiguration.getMergeMinRegionSizeMb(ctx)`: the table's value when ≥ 0, else
/// the site's.
pub fn merge_min_region_size_mb(settings: &Settings) -> u64 {
    match settings.normalizer_table.merge_min_region_size_mb {
        Some(v) if v >= 0 => v as u64,
        _ => settings.merge_min_region_size_mb,
    }
}

/// A region's size as the normalizer reads it: whole MB.
fn size_mb(r: &NormRegion) -> u64 {
    r.storefile_bytes / MB
}

/// `getAverageRegionSizeMb` with how it was derived (for reasons).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Average {
    /// The average, MB.
    pub mb: f64,
    /// How it was derived.
    pub basis: AverageBasis,
}

impl Average {
    fn of(regions: &[NormRegion], settings: &Settings) -> Average {
        if let Some(t) = settings.normalizer_target_region_size_mb {
            return Average {
                mb: t as f64,
                basis: AverageBasis::TargetSize(t),
            };
        }
        let total: u64 = regions.iter().map(size_mb).sum();
        let (count, target_count) = match settings.normalizer_target_region_count {
            Some(c) => (c, true),
            None => (regions.len() as u64, false),
        };
        Average {
            mb: total as f64 / count as f64,
            basis: AverageBasis::Total {
                total_mb: total,
                count,
                target_count,
            },
        }
    }
}

/// `computeSplitNormalizationPlans`: every open region larger than twice the average.
fn split_plans(regions: &[NormRegion], avg: &Average) -> Vec<(NormPlan, u64)> {
    regions
        .iter()
        .filter(|r| r.open && size_mb(r) as f64 > 2.0 * avg.mb)
        .map(|r| {
            let size = size_mb(r);
            (
                NormPlan::Split {
                    region: r.id,
                    reason: NormSplit {
                        size_mb: size,
                        avg: *avg,
                    },
                },
                size,
            )
        })
        .collect()
}

/// `computeMergeNormalizationPlans`: contiguous runs of mergeable regions whose sizes add up to
/// at most ⌊avg⌋ (0 MB members always join; a lone 0 MB member takes any neighbour).
fn merge_plans(
    regions: &[NormRegion],
    settings: &Settings,
    avg: &Average,
    now_ms: u64,
) -> Vec<(NormPlan, u64)> {
    let n = regions.len();
    if (n as u64) < merge_min_region_count(settings) {
        return Vec::new();
    }
    let avg_mb = avg.mb as i64;
    let min_size = merge_min_region_size_mb(settings);
    if avg_mb < min_size as i64 {
        return Vec::new();
    }
    let max_members = settings.merge_max_regions.max(2) as usize;
    let age_ms = merge_min_region_age_days(settings).saturating_mul(DAY_MS);
    let skip = |r: &NormRegion| {
        !r.open || now_ms <= r.created_ms.saturating_add(age_ms) || size_mb(r) < min_size
    };
    let mut plans = Vec::new();
    let mut members: Vec<&NormRegion> = Vec::new();
    let (mut range_start, mut current) = (0, 0);
    while range_start + 1 < n && current < n {
        members.clear();
        let mut sum: u64 = 0;
        current = range_start;
        while current < n {
            let r = &regions[current];
            let size = size_mb(r);
            if skip(r) {
                range_start = current.max(range_start + 1);
                break;
            }
            let joins = members.is_empty()
                || (members.len() == 1 && sum == 0)
                || (size == 0 && members.len() < max_members)
                || ((size + sum) as i64 <= avg_mb && members.len() < max_members);
            if !joins {
                range_start = current.max(range_start + 1);
                break;
            }
            members.push(r);
            sum += size;
            current += 1;
        }
        if members.len() > 1 {
            plans.push((
                NormPlan::Merge {
                    regions: members.iter().map(|r| r.id).collect(),
                    reason: NormMerge {
                        sizes_mb: members.iter().map(|r| size_mb(r)).collect(),
                        sum_mb: sum,
                        avg_mb,
                        avg: *avg,
                    },
                },
                sum,
            ));
        }
    }
    plans
}

#[cfg(test)]
mod tests {
    //! Mirrors `TestSimpleRegionNormalizer` (HBase 2.6) cases; expected plans by hand from
    //! `SimpleRegionNormalizer.computePlansForTable`.
    use super::*;

    const NOW: u64 = 100 * DAY_MS;

    fn settings() -> Settings {
        crate::engine::policy::balancer::test_settings()
    }

    /// Open regions of these MB sizes, created 10 days before NOW.
    fn regions(mb: &[u64]) -> Vec<NormRegion> {
        mb.iter()
            .enumerate()
            .map(|(id, &m)| NormRegion {
                id,
                storefile_bytes: m * MB,
                open: true,
                created_ms: NOW - 10 * DAY_MS,
            })
            .collect()
    }

    fn splits(p: &[NormPlan]) -> Vec<usize> {
        p.iter()
            .filter_map(|p| match p {
                NormPlan::Split { region, .. } => Some(*region),
                NormPlan::Merge { .. } => None,
            })
            .collect()
    }

    fn merges(p: &[NormPlan]) -> Vec<Vec<usize>> {
        p.iter()
            .filter_map(|p| match p {
                NormPlan::Merge { regions, .. } => Some(regions.clone()),
                NormPlan::Split { .. } => None,
            })
            .collect()
    }

    #[test]
    fn no_plans_for_balanced_or_empty_tables() {
        // testNoNormalizationForMetaTable/…IfTooFewRegions shapes: nothing to do.
        assert!(plan(&[], &settings(), NOW).is_empty());
        assert!(plan(&regions(&[10, 15]), &settings(), NOW).is_empty());
        assert!(plan(&regions(&[10, 15, 12, 11]), &settings(), NOW).is_empty());
    }

    #[test]
    fn merge_of_small_neighbours() {
        // testMergeOfSmallRegions: 15, 5, 5, 15, 16 ⇒ avg 56/5 = 11.2, ⌊⌋ 11. Range from 15:
        // 15 alone, 5 would make 20 > 11 ⇒ next range starts at 5: 5 + 5 = 10 ≤ 11, +15 no
        // ⇒ merge [1, 2]. Then 15 alone, 16 alone.
        let p = plan(&regions(&[15, 5, 5, 15, 16]), &settings(), NOW);
        assert_eq!(merges(&p), vec![vec![1, 2]]);
        assert!(splits(&p).is_empty());
        let NormPlan::Merge { reason, .. } = &p[0] else {
            panic!("merge")
        };
        assert_eq!(
            (&reason.sizes_mb[..], reason.sum_mb, reason.avg_mb),
            (&[5, 5][..], 10, 11)
        );
    }

    // Mirrors SimpleRegionNormalizer.NormalizerConfiguration.getMergeMinRegionAge(ctx) and its
    // siblings (HBase 2.6): a table descriptor's hbase.normalizer.merge.min_region_age.days
    // (≥ 0), min_region_size.mb (≥ 0) and min.region.count (> 0) win over the site's; other
    // values fall back. Split/merge switches: the table's hbase.normalizer.*.enabled if set.
    #[test]
    fn table_values_override_the_merge_minimums() {
        let young = |mb: &[u64]| {
            let mut r = regions(mb);
            for x in &mut r {
                x.created_ms = NOW - DAY_MS; // one day old: too young for the site's 3 days
            }
            r
        };
        let mut s = settings();
        assert!(merges(&plan(&young(&[15, 5, 5, 15, 16]), &s, NOW)).is_empty());
        s.normalizer_table.merge_min_region_age_days = Some(0);
        assert_eq!(
            merges(&plan(&young(&[15, 5, 5, 15, 16]), &s, NOW)),
            vec![vec![1, 2]]
        );
        // A negative table value means "not set": the site's 3 days again.
        s.normalizer_table.merge_min_region_age_days = Some(-1);
        assert!(merges(&plan(&young(&[15, 5, 5, 15, 16]), &s, NOW)).is_empty());
        assert_eq!(merge_min_region_age_days(&s), 3);

        let mut s = settings();
        // min_region_size.mb 6 keeps the 5 MB regions out.
        s.normalizer_table.merge_min_region_size_mb = Some(6);
        assert!(merges(&plan(&regions(&[15, 5, 5, 15, 16]), &s, NOW)).is_empty());
        s.normalizer_table.merge_min_region_size_mb = Some(-5);
        assert_eq!(merge_min_region_size_mb(&s), s.merge_min_region_size_mb);

        let mut s = settings();
        s.normalizer_table.merge_min_region_count = Some(6);
        assert!(merges(&plan(&regions(&[15, 5, 5, 15, 16]), &s, NOW)).is_empty());
        s.normalizer_table.merge_min_region_count = Some(0);
        assert_eq!(merge_min_region_count(&s), 3, "0 falls back to the site's");

        let mut s = settings();
        s.normalizer_table.merge_enabled = Some(false);
        assert!(merges(&plan(&regions(&[15, 5, 5, 15, 16]), &s, NOW)).is_empty());
        s.normalizer_merge_enabled = false;
        s.normalizer_table.merge_enabled = Some(true);
        assert_eq!(
            merges(&plan(&regions(&[15, 5, 5, 15, 16]), &s, NOW)),
            vec![vec![1, 2]]
        );
        s.normalizer_table.split_enabled = Some(false);
        assert!(splits(&plan(&regions(&[8, 6, 10, 30]), &s, NOW)).is_empty());
    }

    #[test]
    fn split_of_large_region_comes_first() {
        // testSplitOfLargeRegion: 8, 6, 10, 30 ⇒ avg 13.5; 30 > 27 ⇒ split. Merge: 8+6 = 14
        // > 13 ⇒ none; 6 alone… 10 alone: none.
        let p = plan(&regions(&[8, 6, 10, 30]), &settings(), NOW);
        assert_eq!(splits(&p), vec![3]);
        assert!(merges(&p).is_empty());
        // 1, 1, 1, 40: avg 10.75; split 40; merge 1+1+1 = 3 ≤ 10 after the split plan.
        let p = plan(&regions(&[1, 1, 1, 40]), &settings(), NOW);
        assert_eq!(splits(&p), vec![3]);
        assert_eq!(merges(&p), vec![vec![0, 1, 2]]);
        assert!(matches!(p[0], NormPlan::Split { .. }));
    }

    #[test]
    fn merge_skips_young_small_or_closed_regions() {
        let mut r = regions(&[1, 1, 1, 1, 20]);
        // Region 1 is 2 days old (< 3 days): it breaks the run.
        r[1].created_ms = NOW - 2 * DAY_MS;
        // Region 3 is closed.
        r[3].open = false;
        let p = plan(&r, &settings(), NOW);
        assert!(merges(&p).is_empty(), "{p:?}");
        // Exactly 3 days old is not "after" 3 days.
        let mut r = regions(&[1, 1, 20]);
        r[0].created_ms = NOW - 3 * DAY_MS;
        assert!(merges(&plan(&r, &settings(), NOW)).is_empty());
        // Below merge min size 1 MB (default): 0 MB regions are skipped.
        let p = plan(&regions(&[0, 0, 0, 20]), &settings(), NOW);
        assert!(merges(&p).is_empty());
        // With min size 0, zero-size regions merge freely: 0, 0, 0 then 20 (0+20 > avg 5).
        let s = Settings {
            merge_min_region_size_mb: 0,
            ..settings()
        };
        assert_eq!(
            merges(&plan(&regions(&[0, 0, 0, 20]), &s, NOW)),
            vec![vec![0, 1, 2]]
        );
    }

    #[test]
    fn target_size_and_count() {
        // Target size 10 MB wins: 25 > 20 ⇒ split; 3 + 4 = 7 ≤ 10 ⇒ merge.
        let s = Settings {
            normalizer_target_region_size_mb: Some(10),
            normalizer_target_region_count: Some(1),
            ..settings()
        };
        let p = plan(&regions(&[3, 4, 25]), &s, NOW);
        assert_eq!(splits(&p), vec![2]);
        assert_eq!(merges(&p), vec![vec![0, 1]]);
        // Target count 8 over 40 MB ⇒ avg 5: 11 > 10 splits; 2+2 = 4 ≤ 5 merges.
        let s = Settings {
            normalizer_target_region_count: Some(8),
            ..settings()
        };
        let p = plan(&regions(&[2, 2, 11, 25]), &s, NOW);
        assert_eq!(splits(&p), vec![2, 3]);
        assert_eq!(merges(&p), vec![vec![0, 1]]);
    }

    #[test]
    fn switches_min_count_and_max_members() {
        let r = regions(&[1, 1, 1, 40]);
        let off = Settings {
            normalizer_split_enabled: false,
            normalizer_merge_enabled: false,
            ..settings()
        };
        assert!(plan(&r, &off, NOW).is_empty());
        let few = Settings {
            merge_min_region_count: 5,
            ..settings()
        };
        assert!(merges(&plan(&r, &few, NOW)).is_empty());
        // merge_request_max_number_of_regions 2: [0, 1] then a new range [2] alone.
        let two = Settings {
            merge_max_regions: 2,
            ..settings()
        };
        assert_eq!(merges(&plan(&r, &two, NOW)), vec![vec![0, 1]]);
    }

    #[test]
    fn plans_size_limit_truncates() {
        // Plans: split 40 (40 MB), merge 1+1+1 (3 MB); limit 10. The running total counts
        // dropped plans too, so the merge survives only when shuffled before the split.
        let s = Settings {
            normalizer_plans_size_limit_mb: Some(10),
            ..settings()
        };
        let mut kept = 0;
        for seed in 0..16 {
            let p = plan_seeded(&regions(&[1, 1, 1, 40]), &s, NOW, seed);
            assert!(splits(&p).is_empty());
            assert!(p.is_empty() || merges(&p) == vec![vec![0, 1, 2]]);
            kept += p.len();
        }
        assert!(kept > 0 && kept < 16, "both orders occur: {kept}");
    }
}
