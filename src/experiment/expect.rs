//! Scenario expectations (`[expect]`): each text is a [`Bound`] on a run's figure, or one of two
//! words with a fixed meaning, both bounds on derived figures (`figures::derived`):
//! - `steady` / `steady N%`: no split or merge requested in the last N % of the ingest (default
//!   [`DEFAULT_STEADY_TAIL`]): `last_region_change <= 1 − N`;
//! - `balanced OP RATIO`: a bound on the most regions on one online server over the mean at the
//!   end (`balanced <= 1.2`).
//!
//! Checked on every run of the designs they name; `run` exits 1 when one fails.

use crate::diag::InputError;
use crate::experiment::bound::{Bound, Op, ParseError, Test};
use crate::experiment::figures;
use crate::report::run::{ExpectationJson, Report, RunJson};
use crate::scenario::{ExpectationSpec, Scenario, ScenarioErrors};

/// The tail of the ingest `steady` looks at when no share is given: the last 10 %, the same
/// tail the cold-region figure uses.
pub const DEFAULT_STEADY_TAIL: f64 = 0.10;

/// What an `[expect]` entry may say.
pub const EXPECTED: &str = "`FIGURE OP VALUE` (OP one of < <= > >= == !=), `FIGURE in LOW..HIGH`, \
                            `steady`, `steady N%` or `balanced <= RATIO`; figures are the numeric \
                            fields of a run report (docs/REPORT.md)";

/// A parsed expectation.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    /// The design it applies to; `None` for every design.
    pub design: Option<String>,
    /// The bound it checks.
    pub bound: Bound,
    /// `steady`'s tail (a share of the ingest), for the verdict's wording.
    steady_tail: Option<f64>,
}

impl Expectation {
    /// Parses one text (`design` as in `[expect]`; `None` for `all`).
    pub fn parse(design: Option<String>, text: &str) -> Result<Expectation, ParseError> {
        let lead = text.len() - text.trim_start().len();
        let t = text.trim();
        let Some(rest) = t
            .strip_prefix("steady")
            .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace))
        else {
            return Ok(Expectation {
                design,
                bound: Bound::parse(text)?,
                steady_tail: None,
            });
        };
        let share = rest.trim();
        let tail = if share.is_empty() {
            DEFAULT_STEADY_TAIL
        } else {
            let at = lead + "steady".len() + (rest.len() - rest.trim_start().len());
            match share
                .strip_suffix('%')
                .and_then(|p| p.trim().parse::<f64>().ok())
            {
                Some(p) if p > 0.0 && p < 100.0 => p / 100.0,
                _ => {
                    return Err(ParseError {
                        at,
                        message: format!(
                            "`{share}` is not a share of the ingest: `steady N%` wants a \
                             percentage above 0 and below 100, e.g. `steady 20%`"
                        ),
                    });
                }
            }
        };
        Ok(Expectation {
            design,
            bound: Bound {
                figure: "last_region_change".to_string(),
                test: Test::Compare(Op::Le, 1.0 - tail),
                text: t.to_string(),
            },
            steady_tail: Some(tail),
        })
    }

    /// Whether it applies to the design `name`.
    pub fn applies_to(&self, name: &str) -> bool {
        self.design.as_deref().is_none_or(|d| d == name)
    }

    /// Its outcome on one run.
    pub fn check(&self, run: &RunJson) -> ExpectationJson {
        let figures = figures::all(run);
        // Every name was checked against the report's shape when parsed; a report without the
        // figure fails the expectation (JSON has no NaN to carry "no value").
        let Ok(outcome) = self.bound.check(&figures) else {
            return ExpectationJson {
                figure: self.bound.figure.clone(),
                text: self.bound.text.clone(),
                value: 0.0,
                holds: false,
                note: Some("the run report has no such figure".to_string()),
            };
        };
        let (value, holds) = (outcome.value, outcome.holds);
        let note = if let Some(tail) = self.steady_tail {
            Some(if run.splits.is_empty() && run.merges.is_empty() {
                "no split or merge in the run".to_string()
            } else {
                format!(
                    "last split or merge at {:.1} % of the ingest; steady: none after {:.0} %",
                    value * 100.0,
                    (1.0 - tail) * 100.0
                )
            })
        } else if self.bound.figure == "balanced" || self.bound.figure == "derived.balanced" {
            let online = crate::experiment::figures::online_regions(run);
            let max = online.iter().max().copied().unwrap_or(0);
            let mean = online.iter().sum::<usize>() as f64 / online.len().max(1) as f64;
            Some(format!(
                "balanced = {value:.2}: {max} regions on the busiest of {} servers, mean {mean:.1}",
                online.len()
            ))
        } else {
            None
        };
        ExpectationJson {
            figure: self.bound.figure.clone(),
            text: self.bound.text.clone(),
            value,
            holds,
            note,
        }
    }
}

/// Parses a scenario's `[expect]` entries; every bad one is an error pointing into the file at
/// the offending part of its string.
pub fn compile(s: &Scenario) -> Result<Vec<Expectation>, ScenarioErrors> {
    let mut out = Vec::with_capacity(s.expectations.len());
    let mut errors = Vec::new();
    for spec in &s.expectations {
        match Expectation::parse(spec.design.clone(), &spec.text) {
            Ok(e) => out.push(e),
            Err(e) => errors.push(error(s, spec, &e)),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(ScenarioErrors(errors))
    }
}

/// The error at the offending part of the string when the file holds it verbatim, else at the
/// whole string.
fn error(s: &Scenario, spec: &ExpectationSpec, e: &ParseError) -> InputError {
    let span = match spec.text_at {
        Some(start) => {
            let at = e.at.min(spec.text.len());
            // The offending word: up to the next blank (at least one character when there is one).
            let word = spec.text[at..]
                .find(char::is_whitespace)
                .unwrap_or(spec.text.len() - at)
                .max(usize::from(at < spec.text.len()));
            start + at..start + at + word
        }
        None => spec.span.clone(),
    };
    InputError::new(e.message.clone())
        .at(&s.source, span)
        .field(spec.field.clone())
        .expected(EXPECTED)
}

/// Checks the expectations on every run of the report, storing the outcomes in each run;
/// returns whether all hold.
pub fn attach(expectations: &[Expectation], report: &mut Report) -> bool {
    let mut all = true;
    for run in &mut report.runs {
        run.expectations = expectations
            .iter()
            .filter(|e| e.applies_to(&run.generator))
            .map(|e| e.check(run))
            .collect();
        all &= run.expectations.iter().all(|o| o.holds);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_is_a_bound_on_the_last_region_change() {
        let e = Expectation::parse(None, "steady").unwrap();
        assert_eq!(e.bound.figure, "last_region_change");
        assert_eq!(e.bound.test, Test::Compare(Op::Le, 0.9));
        let e = Expectation::parse(Some("h".into()), "  steady 25%").unwrap();
        assert_eq!(e.bound.test, Test::Compare(Op::Le, 0.75));
        assert!(e.applies_to("h") && !e.applies_to("g"));
        // A figure whose name starts with the word is not `steady`.
        assert!(Expectation::parse(None, "steadyish < 1").is_err());
    }

    #[test]
    fn errors_point_into_the_text() {
        let e = Expectation::parse(None, "steady 120%").unwrap_err();
        assert_eq!(e.at, 7);
        let e = Expectation::parse(None, " steady soon").unwrap_err();
        assert_eq!(e.at, 8);
        let e = Expectation::parse(None, "balanced =< 1.2").unwrap_err();
        assert_eq!(e.at, 9, "{e}");
        assert!(Expectation::parse(None, "balanced <= 1.2").is_ok());
    }
}
