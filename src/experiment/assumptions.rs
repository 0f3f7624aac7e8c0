//! Answers as ranges: a scenario under each assumption profile (`profiles`), and the figures of
//! those runs compared (which differ, their ranges, whether the designs' ranking changes). Which
//! figures get a range is decided by comparing the runs, not by a list.

use crate::config::{Origin, Settings};
use crate::diag::InputError;
use crate::experiment::figures;
use crate::experiment::profiles::{self, Profile, Writers};
use crate::hardware::Hardware;
use crate::report::ranges::{
    AssumptionRangesJson, FigureRangeJson, ProfileJson, RankJson, RankingJson, RunRangesJson,
};
use crate::report::run::Report;
use crate::scenario::{Scenario, Variability};

const SMALL: &str = "hbase.regionserver.thread.compaction.small";
const LARGE: &str = "hbase.regionserver.thread.compaction.large";

/// The profiles named by `--assumptions` (or the scenario's `[cluster] assumptions` when the
/// flag is absent), `typical` among them (first when not named).
pub fn profile_names(s: &Scenario, flag: &[String]) -> Result<Vec<String>, InputError> {
    if flag.is_empty() {
        return Ok(s.cluster.assumptions.clone());
    }
    let mut out: Vec<String> = Vec::new();
    for n in flag.iter().map(|n| n.trim()) {
        if profiles::profile(n).is_none() {
            return Err(InputError::new(format!("unknown assumption profile {n:?}"))
                .field("--assumptions")
                .expected(format!("a comma-separated list of {}", profiles::names())));
        }
        if out.iter().any(|o| o == n) {
            return Err(
                InputError::new(format!("assumption profile {n:?} is listed twice"))
                    .field("--assumptions")
                    .expected("each profile once"),
            );
        }
        out.push(n.to_string());
    }
    if !out.iter().any(|o| o == profiles::TYPICAL) {
        out.insert(0, profiles::TYPICAL.to_string());
    }
    Ok(out)
}

/// The scenario as profile `p` assumes the world around it.
pub fn scenario_for(s: &Scenario, p: &Profile) -> Result<Scenario, InputError> {
    let mut out = s.clone();
    if let Some(h) = p.hardware {
        out.cluster.hardware =
            Hardware::profile(h).expect("assumption profiles name shipped hardware");
    }
    out.client.writers = match p.writers {
        Writers::Keep => s.client.writers,
        Writers::AtMost(n) => s.client.writers.min(n),
        Writers::AtLeast(n) => s.client.writers.max(n),
    };
    if let Some((num, den)) = p.bulk_task_rate {
        out.cluster_bulk_task_rate(num, den);
    }
    if let Some((num, den)) = p.request_time {
        let us = u128::from(s.client.loader.request_us) * u128::from(num) / u128::from(den.max(1));
        out.client.loader.request_us = us.clamp(1, u128::from(u64::MAX)) as u64;
    }
    if let Some(on) = p.variability {
        out.cluster.variability = if on {
            Variability::Default
        } else {
            Variability::None
        };
    }
    if let Some(n) = p.compaction_threads {
        let origin = || Origin::CommandLine;
        let small = s.settings.small_compaction_threads.max(n);
        let large = s.settings.large_compaction_threads.max(n);
        out.site.set(SMALL, &small.to_string(), origin())?;
        out.site.set(LARGE, &large.to_string(), origin())?;
        out.settings = Settings::resolve(&out.site, &out.table.attributes)?;
    }
    Ok(out)
}

/// What profile `name` assumed, from its scenario.
pub fn profile_json(name: &str, s: &Scenario) -> ProfileJson {
    ProfileJson {
        name: name.to_string(),
        hardware: s.cluster.hardware.profile.clone(),
        writers: s.client.writers,
        compaction_threads_small: s.settings.small_compaction_threads,
        compaction_threads_large: s.settings.large_compaction_threads,
        bulk_task_rate: s.bulk_job.task_rate,
        // Shown only where a design runs a closed loop (the only ones it moves).
        request_us: if crate::budget::closed_loop_min_ns(s) > 0 {
            s.client.loader.request_us
        } else {
            0
        },
        variability: match s.cluster.variability {
            Variability::Default => "default",
            Variability::None => "none",
        }
        .to_string(),
    }
}

/// The ranges over `reports` (one per profile, same generators in the same order; one of them
/// `typical`).
pub fn ranges(profiles: Vec<ProfileJson>, reports: &[&Report]) -> AssumptionRangesJson {
    let t = profiles
        .iter()
        .position(|p| p.name == profiles::TYPICAL)
        .unwrap_or(0);
    let per_profile: Vec<Vec<Vec<figures::Figure>>> = reports
        .iter()
        .map(|r| r.runs.iter().map(figures::all).collect())
        .collect();
    let generators: Vec<&str> = reports[t]
        .runs
        .iter()
        .map(|r| r.generator.as_str())
        .collect();
    // values[g][f] = (qualified name, per-profile values), for figures every profile has.
    let mut table: Vec<Vec<(String, Vec<f64>)>> = Vec::new();
    for (g, _) in generators.iter().enumerate() {
        let rows = per_profile[t][g]
            .iter()
            .filter_map(|f| {
                let name = f.qualified();
                let values: Option<Vec<f64>> = per_profile
                    .iter()
                    .map(|runs| {
                        runs.get(g)
                            .and_then(|figs| figures::lookup(figs, &name).ok())
                            .map(|x| x.value)
                    })
                    .collect();
                values.map(|v| (name, v))
            })
            .collect();
        table.push(rows);
    }
    let varies = |v: &[f64]| v.iter().any(|x| x.to_bits() != v[t].to_bits());
    let runs = generators
        .iter()
        .zip(&table)
        .map(|(g, rows)| {
            let mut out = RunRangesJson {
                generator: (*g).to_string(),
                ranges: Vec::new(),
                same: Vec::new(),
            };
            for (name, v) in rows {
                if varies(v) {
                    out.ranges.push(FigureRangeJson {
                        figure: name.clone(),
                        typical: v[t],
                        min: v.iter().copied().fold(f64::INFINITY, f64::min),
                        max: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                        values: v.clone(),
                    });
                } else {
                    out.same.push(name.clone());
                }
            }
            out
        })
        .collect();
    let mut rankings = Vec::new();
    if generators.len() >= 2 {
        for (name, _) in &table[0] {
            let cols: Option<Vec<&Vec<f64>>> = table
                .iter()
                .map(|rows| rows.iter().find(|(n, _)| n == name).map(|(_, v)| v))
                .collect();
            let Some(cols) = cols else { continue };
            if !cols.iter().any(|v| varies(v)) {
                continue;
            }
            let by_profile: Vec<RankJson> = profiles
                .iter()
                .enumerate()
                .map(|(p, prof)| RankJson {
                    profile: prof.name.clone(),
                    order: order(&generators, &cols.iter().map(|v| v[p]).collect::<Vec<_>>()),
                })
                .collect();
            let changes = by_profile.iter().any(|r| r.order != by_profile[t].order);
            rankings.push(RankingJson {
                figure: name.clone(),
                by_profile,
                changes,
            });
        }
    }
    AssumptionRangesJson {
        profiles,
        runs,
        rankings,
    }
}

/// Generators from the lowest value up, equal values grouped (report order within a group).
fn order(generators: &[&str], values: &[f64]) -> Vec<Vec<String>> {
    let mut idx: Vec<usize> = (0..generators.len()).collect();
    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut last: Option<f64> = None;
    for i in idx {
        let v = values[i];
        match (last, out.last_mut()) {
            (Some(l), Some(group)) if l.to_bits() == v.to_bits() => {
                group.push(generators[i].to_string())
            }
            _ => out.push(vec![generators[i].to_string()]),
        }
        last = Some(v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_names_shipped_hardware() {
        for p in profiles::PROFILES {
            if let Some(h) = p.hardware {
                assert!(Hardware::profile(h).is_some(), "{}: {h}", p.name);
            }
        }
    }

    fn small() -> Scenario {
        let text = "name = \"t\"\n[cluster]\nregionservers = 3\nvariability = \"none\"\n\
                    [client]\nwriters = 8\n[workload]\nrows = 1000\n\
                    [[generator]]\nname = \"seq\"\nkind = \"sequential\"\n";
        crate::scenario::load_source(crate::diag::SourceText::from_string("t.toml", text))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The high profile's compaction pools go through the same keys CompactSplit reads
    /// (`hbase.regionserver.thread.compaction.small` / `.large`), so the engine's pools follow;
    /// low takes the scenario's writers down to one and both turn variability on.
    #[test]
    fn profiles_change_hardware_writers_variability_and_compactsplit_pools() {
        let s = small();
        let high = scenario_for(&s, profiles::profile("high").unwrap()).unwrap();
        assert_eq!(high.settings.small_compaction_threads, 2);
        assert_eq!(high.settings.large_compaction_threads, 2);
        assert_eq!(high.cluster.hardware.profile, "nvme");
        assert_eq!(high.client.writers, 256);
        assert_eq!(high.cluster.variability, Variability::Default);
        let low = scenario_for(&s, profiles::profile("low").unwrap()).unwrap();
        assert_eq!(low.client.writers, 1);
        assert_eq!(low.cluster.hardware.profile, "cloud-ebs");
        assert_eq!(low.settings.small_compaction_threads, 1);
        let typical = scenario_for(&s, profiles::profile("typical").unwrap()).unwrap();
        assert_eq!(
            profile_json("typical", &typical),
            profile_json("typical", &s)
        );
        assert_eq!(typical.cluster.variability, Variability::None);
    }

    #[test]
    fn the_flag_overrides_the_scenario_and_typical_is_always_run() {
        let s = small();
        assert_eq!(profile_names(&s, &[]).unwrap(), vec!["typical"]);
        let names = profile_names(&s, &["low".into(), "high".into()]).unwrap();
        assert_eq!(names, vec!["typical", "low", "high"]);
        let e = profile_names(&s, &["medium".into()]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("--assumptions"));
        assert!(profile_names(&s, &["low".into(), "low".into()]).is_err());
    }

    #[test]
    fn order_groups_ties_and_sorts_lowest_first() {
        let o = order(&["a", "b", "c"], &[3.0, 1.0, 3.0]);
        assert_eq!(o, vec![vec!["b".to_string()], vec!["a".into(), "c".into()]]);
    }
}
