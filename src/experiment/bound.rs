//! A bound on one figure: `FIGURE OP VALUE` or `FIGURE in LOW..HIGH` (both ends inclusive).
//! Values are numbers, percentages (`20%` = 0.2), sizes (`2GB`, for byte figures) or
//! durations (`90min`, for `*_seconds` figures, compared in seconds).

use std::fmt;

use crate::experiment::figures::{self, Figure};
use crate::units::{parse_duration_ms, parse_size};

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }

    fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
            // Figures are computed, not typed: compare to a relative 1e-9 so `== 0.2` holds for
            // 0.2 computed as 1/5.
            Op::Eq => close(a, b),
            Op::Ne => !close(a, b),
        }
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// What a bound requires of its figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// A comparison with a value.
    Compare(Op, f64),
    /// Within `[low, high]`.
    Within(f64, f64),
}

/// A parsed bound.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// The figure's name as written (short or qualified).
    pub figure: String,
    /// The requirement.
    pub test: Test,
    /// The text it was parsed from, trimmed (for messages).
    pub text: String,
}

/// A bound's outcome on one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The figure's value.
    pub value: f64,
    /// Whether the bound holds.
    pub holds: bool,
}

/// Why a bound's text did not parse; `at` is the byte offset of the offending part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset within the text.
    pub at: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

const EXPECTED: &str = "expected `FIGURE OP VALUE` (OP one of < <= > >= == !=) or \
                        `FIGURE in LOW..HIGH`, e.g. `max_server_write_share < 0.2` or \
                        `regions_final in 1800..4600`";

impl Bound {
    /// Parses `text`, checking the figure name against the report's figures.
    pub fn parse(text: &str) -> Result<Bound, ParseError> {
        let lead = text.len() - text.trim_start().len();
        let t = text.trim();
        let name_len = t
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(t.len());
        let figure = &t[..name_len];
        if figure.is_empty() {
            return Err(ParseError {
                at: lead,
                message: format!("no figure name: {EXPECTED}"),
            });
        }
        figures::is_known(figure).map_err(|e| ParseError {
            at: lead,
            message: e.to_string(),
        })?;
        let rest_at = lead + name_len + (t[name_len..].len() - t[name_len..].trim_start().len());
        let rest = t[name_len..].trim_start();
        let test = if let Some(range) = rest.strip_prefix("in ") {
            let r_at = rest_at + 3 + (range.len() - range.trim_start().len());
            let range = range.trim();
            let Some((lo, hi)) = range.split_once("..") else {
                return Err(ParseError {
                    at: r_at,
                    message: format!("`{range}` is not a range LOW..HIGH"),
                });
            };
            let hi = hi.strip_prefix('=').unwrap_or(hi);
            let low = parse_value(figure, lo).map_err(|m| ParseError {
                at: r_at,
                message: m,
            })?;
            let high = parse_value(figure, hi).map_err(|m| ParseError {
                at: r_at + range.find("..").unwrap_or(0) + 2,
                message: m,
            })?;
            if low > high {
                return Err(ParseError {
                    at: r_at,
                    message: format!("the range `{range}` is empty: LOW is above HIGH"),
                });
            }
            Test::Within(low, high)
        } else {
            let ops = [
                ("<=", Op::Le),
                (">=", Op::Ge),
                ("==", Op::Eq),
                ("!=", Op::Ne),
                ("<", Op::Lt),
                (">", Op::Gt),
            ];
            let Some((sym, op)) = ops.iter().find(|(s, _)| rest.starts_with(s)) else {
                return Err(ParseError {
                    at: rest_at,
                    message: format!("no comparison after `{figure}`: {EXPECTED}"),
                });
            };
            let v = &rest[sym.len()..];
            let v_at = rest_at + sym.len() + (v.len() - v.trim_start().len());
            let value = parse_value(figure, v).map_err(|m| ParseError {
                at: v_at,
                message: m,
            })?;
            Test::Compare(*op, value)
        };
        Ok(Bound {
            figure: figure.to_string(),
            test,
            text: t.to_string(),
        })
    }

    /// The bound on a run's figures.
    pub fn check(&self, figures: &[Figure]) -> Result<Outcome, figures::LookupError> {
        let value = figures::lookup(figures, &self.figure)?.value;
        let holds = match self.test {
            Test::Compare(op, b) => op.holds(value, b),
            Test::Within(lo, hi) => value >= lo && value <= hi,
        };
        Ok(Outcome { value, holds })
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.test {
            Test::Compare(op, v) => write!(f, "{} {} {}", self.figure, op.symbol(), v),
            Test::Within(lo, hi) => write!(f, "{} in {}..{}", self.figure, lo, hi),
        }
    }
}

/// A value: a number, `N%`, a size for byte figures, a duration for `*_seconds` figures.
fn parse_value(figure: &str, text: &str) -> Result<f64, String> {
    let v = text.trim();
    if v.is_empty() {
        return Err(format!("no value: {EXPECTED}"));
    }
    if let Ok(x) = v.replace('_', "").parse::<f64>()
        && x.is_finite()
    {
        return Ok(x);
    }
    if let Some(p) = v.strip_suffix('%')
        && let Ok(x) = p.trim().parse::<f64>()
        && x.is_finite()
    {
        return Ok(x / 100.0);
    }
    if figure.ends_with("_seconds") {
        return parse_duration_ms(v)
            .map(|ms| ms as f64 / 1000.0)
            .map_err(|e| format!("{}; expected {}", e.problem, e.expected));
    }
    if figure.ends_with("bytes") || figure.ends_with("_size") || is_size_figure(figure) {
        return parse_size(v)
            .map(|b| b as f64)
            .map_err(|e| format!("{}; expected {}", e.problem, e.expected));
    }
    Err(format!(
        "`{v}` is not a number (a plain number, `N%`, a size such as `2GB` for byte figures \
         or a duration such as `90min` for *_seconds figures)"
    ))
}

/// Region-size figures are bytes without saying so in their names.
fn is_size_figure(figure: &str) -> bool {
    let f = figure.strip_prefix("region_sizes.").unwrap_or(figure);
    matches!(f, "min" | "p50" | "p90" | "max" | "quiet_p50")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figs(pairs: &[(&'static str, &str, f64)]) -> Vec<Figure> {
        pairs
            .iter()
            .map(|(s, n, v)| Figure {
                section: s,
                name: n.to_string(),
                value: *v,
            })
            .collect()
    }

    #[test]
    fn comparisons_ranges_and_units() {
        let f = figs(&[
            ("summary", "max_server_write_share", 0.19),
            ("summary", "regions_final", 1800.0),
            ("summary", "blocked_seconds", 0.0),
            ("summary", "store_bytes", 3.0 * (1u64 << 40) as f64),
            ("summary", "sim_seconds", 5400.0),
        ]);
        let holds = |t: &str| Bound::parse(t).unwrap().check(&f).unwrap().holds;
        assert!(holds("max_server_write_share < 0.2"));
        assert!(holds("max_server_write_share<20%"));
        assert!(!holds("max_server_write_share > 0.2"));
        assert!(holds("regions_final in 1800..4600"));
        assert!(holds("regions_final in 1000..=1800"));
        assert!(!holds("regions_final in 1801..4600"));
        assert!(holds("blocked_seconds == 0"));
        assert!(holds("store_bytes < 4TB"));
        assert!(holds("sim_seconds <= 90min"));
        assert!(holds("sim_seconds != 1h"));
        // Computed values compare equal to their decimal spelling.
        let f2 = figs(&[("summary", "max_server_write_share", 1.0 / 5.0)]);
        assert!(
            Bound::parse("max_server_write_share == 0.2")
                .unwrap()
                .check(&f2)
                .unwrap()
                .holds
        );
    }

    #[test]
    fn errors_point_at_the_offending_part() {
        let e = Bound::parse("  regions_final ~ 3").unwrap_err();
        assert_eq!(e.at, 16);
        assert!(e.message.contains("no comparison"), "{e}");
        let e = Bound::parse("regions_final in 9..3").unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
        let e = Bound::parse("regions_final < lots").unwrap_err();
        assert_eq!(e.at, 16);
        let e = Bound::parse("regionz < 3").unwrap_err();
        assert_eq!(e.at, 0);
        assert!(e.message.contains("no figure `regionz`"), "{e}");
        assert!(Bound::parse("").is_err());
    }
}
