//! The region-count search of `advise`: candidate counts around the arithmetic, each emulated,
//! and the choice among them by a stated objective (docs/PRESPLIT.md, "Choosing the count").
//!
//! Everything here is pure: the emulation runs happen in `advise`; this module only lists the
//! counts to try and decides from the figures the runs produced.

use serde::Serialize;

/// What the objective compares of one emulated layout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    /// Regions when the load starts (the pre-split).
    pub regions_initial: u64,
    /// Regions when it ends.
    pub regions_final: u64,
    /// Splits during the load.
    pub splits: u64,
    /// Simulated ingest time, seconds.
    pub ingest_seconds: f64,
    /// Time writers spent blocked, seconds.
    pub blocked_seconds: f64,
    /// Regions left idle under half the split size (`cold_regions` of the run report).
    pub cold_regions: u64,
}

/// One layout in the search: the scenario's own pre-split or advised keys for a count.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The scenario's own `[table.presplit]` (not advised keys).
    pub scenario: bool,
    /// Its emulated figures.
    pub figures: Figures,
}

/// The objective's criteria, in the order they are applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Criterion {
    /// Blocked time no more than the least-blocked candidate's plus max(1 s, 5 %).
    Blocked,
    /// Initial regions per server within the memstore starting point (when any candidate is).
    Heap,
    /// Splits no more than the fewest plus max(1, 5 %).
    Splits,
    /// Cold regions no more than the fewest plus max(1, 5 %).
    Cold,
    /// Ingest time no more than the shortest plus max(1 s, 2 %).
    Ingest,
}

impl Criterion {
    /// The order the objective applies them in.
    pub const ORDER: [Criterion; 5] = [
        Criterion::Blocked,
        Criterion::Heap,
        Criterion::Splits,
        Criterion::Cold,
        Criterion::Ingest,
    ];

    /// One line for people.
    pub fn describe(self) -> &'static str {
        match self {
            Criterion::Blocked => {
                "no blocking caused by the pre-split: blocked time within max(1 s, 5 %) of the \
                 least-blocked layout"
            }
            Criterion::Heap => {
                "regions per server the heap allows: initial regions per server within the \
                 memstore starting point (when any layout is)"
            }
            Criterion::Splits => "fewest splits during the load (within max(1, 5 %))",
            Criterion::Cold => "fewest cold regions (within max(1, 5 %))",
            Criterion::Ingest => "shortest ingest (within max(1 s, 2 %))",
        }
    }

    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Blocked => "blocked",
            Criterion::Heap => "heap",
            Criterion::Splits => "splits",
            Criterion::Cold => "cold regions",
            Criterion::Ingest => "ingest time",
        }
    }
}

/// What became of one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome", content = "criterion")]
pub enum Outcome {
    /// The choice.
    Chosen,
    /// As good as the choice on every criterion; lost the tie-break (the scenario's own layout,
    /// else fewer regions).
    Tied,
    /// Dropped by this criterion.
    Out(Criterion),
}

/// The decision over a set of candidates.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Index of the chosen candidate.
    pub chosen: usize,
    /// Per candidate, what became of it.
    pub outcomes: Vec<Outcome>,
}

/// Whether `c` regions fit the heap on `servers` servers: regions per server (rounded up, as
/// round-robin leaves them) within `heap_limit`.
pub fn fits_heap(regions: u64, servers: u64, heap_limit: f64) -> bool {
    regions.div_ceil(servers.max(1)) as f64 <= heap_limit
}

/// Applies the criteria in [`Criterion::ORDER`], each keeping the candidates within its tolerance
/// of the best remaining one; of those left, the scenario's own layout wins (it is already as
/// good), else the one with the fewest initial regions (then the first).
pub fn choose(cands: &[Candidate], servers: u64, heap_limit: f64) -> Choice {
    let mut outcomes = vec![Outcome::Tied; cands.len()];
    let mut left: Vec<usize> = (0..cands.len()).collect();
    let within_f = |best: f64, abs: f64, rel: f64| best + abs.max(best * rel);
    let within_u = |best: u64| best + (best / 20).max(1);
    for c in Criterion::ORDER {
        let f = |i: usize| &cands[i].figures;
        let keep: Vec<usize> = match c {
            Criterion::Blocked => {
                let best = left
                    .iter()
                    .map(|&i| f(i).blocked_seconds)
                    .fold(f64::MAX, f64::min);
                let lim = within_f(best, 1.0, 0.05);
                left.iter()
                    .copied()
                    .filter(|&i| f(i).blocked_seconds <= lim)
                    .collect()
            }
            Criterion::Heap => {
                let fit: Vec<usize> = left
                    .iter()
                    .copied()
                    .filter(|&i| fits_heap(f(i).regions_initial, servers, heap_limit))
                    .collect();
                if fit.is_empty() { left.clone() } else { fit }
            }
            Criterion::Splits => {
                let lim = within_u(left.iter().map(|&i| f(i).splits).min().unwrap_or(0));
                left.iter()
                    .copied()
                    .filter(|&i| f(i).splits <= lim)
                    .collect()
            }
            Criterion::Cold => {
                let lim = within_u(left.iter().map(|&i| f(i).cold_regions).min().unwrap_or(0));
                left.iter()
                    .copied()
                    .filter(|&i| f(i).cold_regions <= lim)
                    .collect()
            }
            Criterion::Ingest => {
                let best = left
                    .iter()
                    .map(|&i| f(i).ingest_seconds)
                    .fold(f64::MAX, f64::min);
                let lim = within_f(best, 1.0, 0.02);
                left.iter()
                    .copied()
                    .filter(|&i| f(i).ingest_seconds <= lim)
                    .collect()
            }
        };
        for &i in &left {
            if !keep.contains(&i) {
                outcomes[i] = Outcome::Out(c);
            }
        }
        left = keep;
    }
    let chosen = left
        .iter()
        .copied()
        .find(|&i| cands[i].scenario)
        .or_else(|| {
            left.iter()
                .copied()
                .min_by_key(|&i| (cands[i].figures.regions_initial, i))
        })
        .unwrap_or(0);
    if !cands.is_empty() {
        outcomes[chosen] = Outcome::Chosen;
    }
    Choice { chosen, outcomes }
}

/// Half of `rule` regions, kept a multiple of `servers` and at least one region per server.
pub fn half(rule: u64, servers: u64) -> u64 {
    let s = servers.max(1);
    ((rule / s).max(1) / 2).max(1) * s
}

/// The counts to emulate around the rule's `rule` regions (a multiple of `servers`): half and
/// double (kept multiples of the servers, half at least one per server), and the scenario's own
/// pre-split count when it has one; each within 2..=`max`, sorted, without repeats.
pub fn candidate_counts(rule: u64, servers: u64, scenario: Option<u64>, max: u64) -> Vec<u64> {
    let mut out = vec![half(rule, servers), rule, rule.saturating_mul(2)];
    out.extend(scenario.filter(|&n| n >= 2));
    let mut out: Vec<u64> = out.into_iter().map(|n| n.clamp(2, max.max(2))).collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(scenario: bool, regions: u64, splits: u64, ingest: f64, blocked: f64) -> Candidate {
        Candidate {
            scenario,
            figures: Figures {
                regions_initial: regions,
                regions_final: regions + splits,
                splits,
                ingest_seconds: ingest,
                blocked_seconds: blocked,
                cold_regions: 0,
            },
        }
    }

    #[test]
    fn counts_surround_the_rule() {
        assert_eq!(
            candidate_counts(4220, 10, Some(20), 1_000_000),
            [20, 2110, 4220, 8440]
        );
        // One region per server: half is the rule itself; the scenario's 10 is double.
        assert_eq!(candidate_counts(5, 5, Some(10), 1_000_000), [5, 10]);
        // No pre-split in the scenario (one region) adds nothing; the ceiling holds.
        assert_eq!(candidate_counts(600, 10, Some(1), 1000), [300, 600, 1000]);
    }

    #[test]
    fn blocking_comes_first_then_splits() {
        // The scenario blocks; of the advised, the one without splits wins over fewer regions.
        let c = [
            cand(true, 20, 1982, 23_100.0, 16_680.0),
            cand(false, 2110, 2100, 5_800.0, 0.0),
            cand(false, 4220, 0, 5_760.0, 0.0),
            cand(false, 8440, 0, 5_770.0, 30.0),
        ];
        let ch = choose(&c, 10, 51.0);
        assert_eq!(ch.chosen, 2);
        assert_eq!(ch.outcomes[0], Outcome::Out(Criterion::Blocked));
        assert_eq!(ch.outcomes[1], Outcome::Out(Criterion::Splits));
        assert_eq!(ch.outcomes[3], Outcome::Out(Criterion::Blocked));
    }

    #[test]
    fn the_scenario_wins_a_tie_and_worse_advice_is_never_chosen() {
        // classic-hash-10-regions: 5 advised regions take longer than the scenario's 10.
        let c = [
            cand(true, 10, 0, 128.0, 0.0),
            cand(false, 5, 0, 129.0, 0.0),
            cand(false, 10, 0, 128.0, 0.0),
        ];
        let ch = choose(&c, 5, 51.0);
        assert_eq!(ch.chosen, 0);
        assert_eq!(ch.outcomes[1], Outcome::Tied);
        let c = [cand(true, 10, 0, 26.0, 0.0), cand(false, 5, 0, 41.0, 15.0)];
        assert_eq!(
            choose(&c, 5, 51.0).outcomes[1],
            Outcome::Out(Criterion::Blocked)
        );
        // Among advised counts alone, a tie goes to fewer regions.
        let c = [
            cand(false, 10, 0, 128.0, 0.0),
            cand(false, 5, 0, 128.5, 0.0),
        ];
        assert_eq!(choose(&c, 5, 51.0).chosen, 1);
    }

    #[test]
    fn the_heap_criterion_only_drops_when_something_fits() {
        let c = [
            cand(false, 600, 0, 100.0, 0.0),
            cand(false, 1200, 0, 90.0, 0.0),
        ];
        // 60 and 120 per server, limit 51: neither fits, so ingest time decides.
        assert_eq!(choose(&c, 10, 51.0).chosen, 1);
        // Limit 80: the 600 fits and the 1,200 is out at the heap.
        let ch = choose(&c, 10, 80.0);
        assert_eq!(ch.chosen, 0);
        assert_eq!(ch.outcomes[1], Outcome::Out(Criterion::Heap));
        assert!(fits_heap(51, 1, 51.0) && !fits_heap(52, 1, 51.0));
    }
}
