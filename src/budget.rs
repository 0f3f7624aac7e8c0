//! Cheap estimates made before a run, to refuse what is absurd instead of running for years of
//! simulated time. Estimates only: they bound the work from below, they do not predict it.

use crate::diag::InputError;
use crate::scenario::{EventAction, Scenario};

/// The longest load a run may simulate: beyond this the offered rate is surely a typo (1 B/s).
pub const MAX_SIMULATED_NS: u128 = 10 * 365 * 24 * 3600 * 1_000_000_000;

/// The least simulated time the load can take: its payload at the fastest rate it is ever
/// offered (the workload's rate or a later `phase`), ns.
pub fn min_simulated_ns(s: &Scenario) -> u128 {
    let fastest = s
        .events
        .iter()
        .filter_map(|e| match e.action {
            EventAction::Phase {
                rate_bytes_per_s, ..
            } => rate_bytes_per_s,
            _ => None,
        })
        .fold(s.workload.rate_bytes_per_s, u64::max)
        .max(1);
    s.workload.payload_bytes() * 1_000_000_000 / fastest as u128
}

/// Refuses a scenario whose load would take more than [`MAX_SIMULATED_NS`] of simulated time,
/// naming the estimate and the field that lowers it.
pub fn check(s: &Scenario) -> Result<(), InputError> {
    let ns = min_simulated_ns(s);
    if ns <= MAX_SIMULATED_NS {
        return Ok(());
    }
    let years = ns / (365 * 24 * 3600 * 1_000_000_000);
    Err(InputError::new(format!(
        "the load would take at least {years} years of simulated time ({} at {}/s, the fastest \
         rate offered); refused as an estimate before running",
        crate::units::format_bytes(s.workload.payload_bytes().min(u64::MAX as u128) as u64),
        crate::units::format_bytes(s.workload.rate_bytes_per_s),
    ))
    .in_file(&s.source.path)
    .field("workload.rate")
    .expected("a rate that loads the data within 10 years (raise `workload.rate`, or lower `workload.data`)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceText;

    fn scenario(rate: &str, phase: &str) -> Scenario {
        let text = format!(
            "name = \"b\"\n[cluster]\nregionservers = 3\n[table]\nname = \"t\"\n[workload]\ndata = \"4TB\"\nrate = \"{rate}\"\n\
             [[generator]]\nname = \"s\"\nkind = \"sequential\"\n{phase}"
        );
        crate::scenario::load_source(SourceText::from_string("b.toml", text.as_str()))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn one_byte_per_second_is_refused_with_the_estimate_and_the_field() {
        let e = check(&scenario("1B/s", "")).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("workload.rate"));
        assert!(e.problem.contains("139461 years"), "{}", e.problem);
        assert!(check(&scenario("1GB/s", "")).is_ok());
    }

    #[test]
    fn a_faster_phase_counts() {
        let fast = "[[event]]\nat_fraction = 0.001\nphase = { rate = \"1GB/s\" }\n";
        assert!(check(&scenario("1B/s", fast)).is_ok());
    }
}
