//! `RegionSplitter.rollingSplit`: the split plan RegionSplitter's `-r` option carries out on a
//! live table — one split per existing region, at the algorithm's split point of its range
//! (`getSplits`), issued server by server.
//!
//! The order is HBase's: `getSplits` returns its (start, split point) pairs from a
//! `java.util.HashSet` of their `toStringBinary` strings, so the pairs come out in that set's
//! iteration order (reproduced below); they are then bucketed per RegionServer (a `TreeMap` by
//! server name) and issued in rounds: each round takes one region from every server that still
//! has some, least-loaded servers (fewest regions of the table) first. After each split
//! RegionSplitter waits while `max(servers / 2, split.outstanding)` splits are outstanding (a
//! split is finished once both daughters are online without references).
//!
//! Simplified, because a plan has no clock: every split is assumed to have put its daughters in
//! `hbase:meta` (on the parent's server) before the next round counts regions, and each wait
//! to end when one outstanding split finishes. Regions do not move during the plan. Pairs whose
//! hashes collide in the set keep key order (HBase's follows the identity hashes of byte arrays).

use super::splitter::Splitter;
use crate::config::SplitRestriction;
use crate::diag::InputError;
use crate::keynotation::to_string_binary;

/// RegionSplitter's `split.outstanding` default.
pub const DEFAULT_MIN_OUTSTANDING: usize = 2;

/// A region of the table as `hbase:meta` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRegion {
    /// Start key (empty = the table's start).
    pub start: Vec<u8>,
    /// End key (empty = the table's end).
    pub end: Vec<u8>,
    /// The RegionServer hosting it.
    pub server: String,
}

/// What happens to one planned split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollingOutcome {
    /// `Admin.split(table, row)` is issued.
    Issued,
    /// The region already starts at the split point: RegionSplitter counts it as done.
    AlreadySplit,
    /// The table's split restriction cuts the row to the region's start or less
    /// (`SplitTableRegionProcedure` refuses it).
    Refused,
}

/// One entry of the plan, in the order RegionSplitter handles them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollingStep {
    /// Round (1-based): one split per server per round.
    pub round: usize,
    /// Server hosting the region.
    pub server: String,
    /// The region's range as `getSplits` sees it (open ends replaced by first/last row).
    pub start: Vec<u8>,
    /// End of that range.
    pub end: Vec<u8>,
    /// The algorithm's split point.
    pub split: Vec<u8>,
    /// The row the daughters get: the split point after the table's split restriction.
    pub row: Vec<u8>,
    /// Issued, or why not.
    pub outcome: RollingOutcome,
    /// After this split, `max_outstanding` splits are outstanding: RegionSplitter waits for one.
    pub waits: bool,
}

/// A rolling split plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollingPlan {
    /// `max(servers / 2, split.outstanding)`.
    pub max_outstanding: usize,
    /// The splits in issue order.
    pub steps: Vec<RollingStep>,
}

/// The rolling split of a table whose regions (in key order, tiling the key space) are
/// `regions`, on a cluster of `servers` RegionServers, with `split.outstanding` =
/// `min_outstanding`. Split rows go through the table's `restriction`, as
/// `SplitTableRegionProcedure` applies it to a requested row.
pub fn rolling_split_plan(
    splitter: &Splitter,
    regions: &[TableRegion],
    servers: usize,
    min_outstanding: usize,
    restriction: &SplitRestriction,
) -> Result<RollingPlan, InputError> {
    // getSplits: (start, split point) per region, as a set of their strings.
    let mut pairs: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> = Vec::with_capacity(regions.len());
    let mut seen = std::collections::HashSet::new();
    for r in regions {
        let start = if r.start.is_empty() {
            splitter.first_row()
        } else {
            r.start.clone()
        };
        let end = if r.end.is_empty() {
            splitter.last_row()
        } else {
            r.end.clone()
        };
        let split = splitter.split(&start, &end).map_err(|e| {
            let problem = format!(
                "{} cannot split the region [{}, {}): {}",
                splitter.class(),
                to_string_binary(&r.start),
                to_string_binary(&r.end),
                e.problem
            );
            e.reword(problem)
        })?;
        if seen.insert((start.clone(), split.clone())) {
            pairs.push((start, split, end));
        }
    }
    let hashes: Vec<i32> = pairs
        .iter()
        .map(|(s, p, _)| {
            java_string_hash(&to_string_binary(s))
                .wrapping_mul(17)
                .wrapping_add(java_string_hash(&to_string_binary(p)))
        })
        .collect();
    let order = java_hash_set_order(&hashes);

    // The live table, updated as splits are issued: (start, end, server), in key order.
    let mut table: Vec<(Vec<u8>, Vec<u8>, String)> = regions
        .iter()
        .map(|r| (r.start.clone(), r.end.clone(), r.server.clone()))
        .collect();
    let locate = |table: &[(Vec<u8>, Vec<u8>, String)], row: &[u8]| -> usize {
        table
            .partition_point(|(s, _, _)| s.as_slice() <= row)
            .saturating_sub(1)
    };
    // Bucket by the server of the region holding the split point (TreeMap by server name;
    // ServerName compares host names ignoring case).
    let mut buckets: Vec<(String, std::collections::VecDeque<usize>)> = Vec::new();
    for &i in &order {
        let server = &table[locate(&table, &pairs[i].1)].2;
        match buckets.iter_mut().find(|(s, _)| s == server) {
            Some((_, q)) => q.push_back(i),
            None => buckets.push((server.clone(), std::collections::VecDeque::from([i]))),
        }
    }
    buckets.sort_by_key(|(s, _)| s.to_lowercase());

    let max_outstanding = (servers / 2).max(min_outstanding);
    let mut outstanding = 0usize;
    let mut steps = Vec::with_capacity(pairs.len());
    let mut round = 0;
    while buckets.iter().any(|(_, q)| !q.is_empty()) {
        round += 1;
        let mut counts = std::collections::HashMap::<&str, usize>::new();
        for (_, _, s) in &table {
            *counts.entry(s.as_str()).or_default() += 1;
        }
        // Stable sort: ties keep the server-name order.
        let mut left: Vec<usize> = (0..buckets.len())
            .filter(|&b| !buckets[b].1.is_empty())
            .collect();
        left.sort_by_key(|&b| counts.get(buckets[b].0.as_str()).copied().unwrap_or(0));
        let mut issued: Vec<(usize, Vec<u8>)> = Vec::new();
        for b in left {
            while let Some(i) = buckets[b].1.pop_front() {
                let (start, split, end) = &pairs[i];
                let at = locate(&table, split);
                let region_start = &table[at].0;
                let mut step = RollingStep {
                    round,
                    server: buckets[b].0.clone(),
                    start: start.clone(),
                    end: end.clone(),
                    split: split.clone(),
                    row: split.clone(),
                    outcome: RollingOutcome::AlreadySplit,
                    waits: false,
                };
                if !region_start.is_empty() && region_start == split {
                    steps.push(step);
                    continue;
                }
                step.row = restriction.restrict(split.clone());
                if step.row.is_empty() || step.row <= *region_start {
                    step.outcome = RollingOutcome::Refused;
                } else {
                    step.outcome = RollingOutcome::Issued;
                    issued.push((at, step.row.clone()));
                    outstanding += 1;
                    if outstanding >= max_outstanding {
                        step.waits = true;
                        outstanding -= 1;
                    }
                }
                steps.push(step);
                break;
            }
        }
        // The round's splits reach hbase:meta before the next round counts regions.
        issued.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
        for (at, row) in issued {
            let (start, end, server) = table[at].clone();
            table[at] = (start, row.clone(), server.clone());
            table.insert(at + 1, (row, end, server));
        }
    }
    Ok(RollingPlan {
        max_outstanding,
        steps,
    })
}

/// Java's `String.hashCode` of an ASCII string (`toStringBinary` output is ASCII).
fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// The iteration order of a `java.util.HashSet` built with the default capacity (16) and load
/// factor (0.75) from elements with these `hashCode()`s, added in index order: by bucket
/// (`(h ^ h >>> 16) & (capacity − 1)`), then in insertion order within a bucket. The table
/// doubles when the size passes 0.75 × capacity, and when a bucket reaches 9 entries while the
/// capacity is below 64 (`HashMap.treeifyBin`). Larger tree bins keep insertion order here.
fn java_hash_set_order(hashes: &[i32]) -> Vec<usize> {
    let spread = |h: i32| {
        let h = h as u32;
        (h ^ (h >> 16)) as usize
    };
    let mut cap = 16usize;
    let mut bins: Vec<Vec<usize>> = vec![Vec::new(); cap];
    let rehash = |bins: &mut Vec<Vec<usize>>, cap: usize| {
        let mut next = vec![Vec::new(); cap];
        for i in bins.iter().flatten() {
            next[spread(hashes[*i]) & (cap - 1)].push(*i);
        }
        *bins = next;
    };
    for (i, &h) in hashes.iter().enumerate() {
        let b = spread(h) & (cap - 1);
        bins[b].push(i);
        if bins[b].len() > 8 && cap < 64 {
            cap *= 2;
            rehash(&mut bins, cap);
        }
        if i + 1 > cap / 4 * 3 {
            cap *= 2;
            rehash(&mut bins, cap);
        }
    }
    bins.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presplit::{Algorithm, regions_from_split_keys, split_keys};

    fn table(keys: &[Vec<u8>], servers: usize) -> Vec<TableRegion> {
        regions_from_split_keys(keys)
            .into_iter()
            .enumerate()
            .map(|(i, (start, end))| TableRegion {
                start,
                end,
                server: format!("rs{:02}", i % servers + 1),
            })
            .collect()
    }

    #[test]
    fn java_string_hash_matches_java() {
        // "hello".hashCode() == 99162322; "".hashCode() == 0; overflow wraps.
        assert_eq!(java_string_hash("hello"), 99_162_322);
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("80000000"), -116359432);
    }

    /// `java.util.HashMap`: buckets in index order, insertion order within one; the table
    /// doubles past 12 entries (16 × 0.75).
    #[test]
    fn java_hash_set_order_follows_buckets_and_resizes() {
        assert_eq!(java_hash_set_order(&[3, 1, 2, 17]), [1, 3, 2, 0]);
        // 13 elements: capacity 32, so 17 and 1 part ways.
        let mut h: Vec<i32> = (100..111).collect();
        h.extend([17, 1]);
        let order = java_hash_set_order(&h);
        let pos = |x: i32| order.iter().position(|&i| h[i] == x).unwrap();
        assert!(pos(1) < pos(100) && pos(110) < pos(17));
        // The high half of the hash is folded in: 0x10000 lands in bucket 1.
        assert_eq!(java_hash_set_order(&[2, 0x10000]), [1, 0]);
        // Nine entries in one bucket of a 16-slot table double it (treeifyBin).
        let h: Vec<i32> = (0..9).map(|i| i * 16).collect();
        assert_eq!(java_hash_set_order(&h), [0, 2, 4, 6, 8, 1, 3, 5, 7]);
    }

    /// `RegionSplitter.rollingSplit`: every region once, at `split(start, end)` of its range;
    /// one split per server per round, least-loaded servers first; a wait whenever
    /// `max(servers / 2, split.outstanding)` splits are outstanding.
    #[test]
    fn rolling_split_plans_one_split_per_region_per_server_round() {
        let hex = Splitter::new(Algorithm::Hex, None, None).unwrap();
        let keys = split_keys(Algorithm::Hex, 4).unwrap();
        // rs01 holds regions 0 and 2, rs02 regions 1 and 3; rs03 none.
        let mut regions = table(&keys, 2);
        let plan = rolling_split_plan(
            &hex,
            &regions,
            3,
            DEFAULT_MIN_OUTSTANDING,
            &SplitRestriction::None,
        )
        .unwrap();
        assert_eq!(plan.max_outstanding, 2);
        let mut splits: Vec<&[u8]> = plan.steps.iter().map(|s| s.split.as_slice()).collect();
        splits.sort();
        assert_eq!(
            splits,
            [&b"20000000"[..], b"60000000", b"a0000000", b"e0000000"]
        );
        assert_eq!(plan.steps[0].start, b"00000000");
        assert!(
            plan.steps
                .iter()
                .all(|s| s.outcome == RollingOutcome::Issued)
        );
        // Two rounds of two; every split after the first leaves two outstanding.
        let rounds: Vec<(usize, &str)> = plan
            .steps
            .iter()
            .map(|s| (s.round, s.server.as_str()))
            .collect();
        assert_eq!(rounds.iter().filter(|r| r.0 == 1).count(), 2);
        assert_eq!(rounds.iter().filter(|r| r.0 == 2).count(), 2);
        assert_eq!(
            plan.steps.iter().map(|s| s.waits).collect::<Vec<_>>(),
            [false, true, true, true]
        );
        // A server with fewer regions goes first: give rs02 a third region.
        regions[0].server = "rs02".into();
        let plan = rolling_split_plan(
            &hex,
            &regions,
            3,
            DEFAULT_MIN_OUTSTANDING,
            &SplitRestriction::None,
        )
        .unwrap();
        assert_eq!(plan.steps[0].server, "rs01");
        assert_eq!(plan.steps.len(), 4);
        assert_eq!(plan.steps.iter().filter(|s| s.server == "rs02").count(), 3);
    }

    /// `SplitTableRegionProcedure` applies the table's split restriction to a requested row.
    #[test]
    fn rolling_split_rows_go_through_the_split_restriction() {
        let hex = Splitter::new(Algorithm::Hex, None, None).unwrap();
        let keys = split_keys(Algorithm::Hex, 2).unwrap();
        let r = SplitRestriction::KeyPrefix { prefix_length: 2 };
        let plan = rolling_split_plan(&hex, &table(&keys, 1), 1, 2, &r).unwrap();
        let rows: Vec<(&[u8], &[u8])> = plan
            .steps
            .iter()
            .map(|s| (s.split.as_slice(), s.row.as_slice()))
            .collect();
        assert!(rows.contains(&(&b"40000000"[..], &b"40"[..])));
        // c0000000 cut to `c0`, above the region start 80000000: issued.
        assert!(rows.contains(&(&b"c0000000"[..], &b"c0"[..])));
        // Prefix 1 cuts 80000001.. to `8`, below its region start: refused.
        let keys = vec![b"80000000".to_vec(), b"80000002".to_vec()];
        let r = SplitRestriction::KeyPrefix { prefix_length: 1 };
        let plan = rolling_split_plan(&hex, &table(&keys, 1), 1, 2, &r).unwrap();
        let mid = plan.steps.iter().find(|s| s.start == b"80000000").unwrap();
        assert_eq!(
            (mid.split.as_slice(), mid.outcome.clone()),
            (&b"80000001"[..], RollingOutcome::Refused)
        );
    }

    /// A region one value wide splits at its own start: RegionSplitter counts it as already split.
    #[test]
    fn rolling_split_skips_a_region_already_split_at_its_point() {
        let hex = Splitter::new(Algorithm::Hex, None, None).unwrap();
        let keys = vec![b"10000000".to_vec(), b"10000001".to_vec()];
        let plan =
            rolling_split_plan(&hex, &table(&keys, 2), 2, 2, &SplitRestriction::None).unwrap();
        let narrow = plan.steps.iter().find(|s| s.start == b"10000000").unwrap();
        assert_eq!(narrow.outcome, RollingOutcome::AlreadySplit);
        assert_eq!(plan.steps.len(), 3);
    }
}
