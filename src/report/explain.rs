//! `run --explain REGION_OR_KEY`: the life of one region — the region holding a key at the end
//! of the run, traced back through the parents that held that key — with the rule behind each
//! step (flush trigger, compaction policy, split policy numbers, balancer or failure reason).

use crate::assignment::server_name;
use crate::diag::InputError;
use crate::engine::RunResult;
use crate::keynotation::{check_binary_escapes, to_bytes_binary, to_string_binary};
use crate::units::format_bytes;

/// What `--explain` names: a key (toStringBinary notation) or `#N`, the N-th region (1-based)
/// of the final table in key order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A row key.
    Key(Vec<u8>),
    /// The N-th final region (1-based).
    Region(usize),
}

impl Target {
    /// Parses the option's value.
    pub fn parse(s: &str) -> Result<Target, InputError> {
        if let Some(n) = s.strip_prefix('#') {
            return match n.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(Target::Region(n)),
                _ => Err(InputError::new(format!("`{s}` is not a region number"))
                    .field("--explain")
                    .expected("`#N` with N ≥ 1 (the N-th region of the final table) or a row key")),
            };
        }
        if let Err(at) = check_binary_escapes(s) {
            return Err(
                InputError::new(format!("bad escape at character {} of `{s}`", at + 1))
                    .field("--explain")
                    .expected("a row key in toStringBinary notation (\\xNN escapes)"),
            );
        }
        Ok(Target::Key(to_bytes_binary(s)))
    }
}

fn secs(ns: u64) -> String {
    let s = ns as f64 / 1e9;
    if s < 60.0 {
        format!("{s:>10.1} s")
    } else {
        format!("{:>10}", crate::units::format_duration_ms(ns / 1_000_000))
    }
}

fn contains(range: &(Vec<u8>, Vec<u8>), key: &[u8]) -> bool {
    range.0.as_slice() <= key && (range.1.is_empty() || key < range.1.as_slice())
}

/// The explanation for one run.
pub fn explain(r: &RunResult, target: &Target) -> String {
    let d = &r.dynamics;
    let n = r.servers.len();
    let mut out = format!("\n=== {} — life of ", r.generator);
    let key: Vec<u8> = match target {
        Target::Key(k) => {
            out.push_str(&format!("the region holding {}\n", to_string_binary(k)));
            k.clone()
        }
        Target::Region(i) => match r.regions.get(i - 1) {
            Some(reg) => {
                out.push_str(&format!("region #{i} of {}\n", r.regions.len()));
                reg.start.clone()
            }
            None => {
                out.push_str(&format!(
                    "region #{i}: the final table has only {} regions\n",
                    r.regions.len()
                ));
                return out;
            }
        },
    };
    let Some(last) = r
        .regions
        .iter()
        .find(|reg| contains(&(reg.start.clone(), reg.end.clone()), &key))
    else {
        out.push_str("  no region holds that key\n");
        return out;
    };
    // The chain of regions that held the key, newest first, then reversed.
    let mut chain = vec![last.id];
    let mut cur = last.id;
    while let Some(parents) = d.parents.get(cur) {
        let Some(&p) = parents
            .iter()
            .find(|&&p| d.ranges.get(p).is_some_and(|rg| contains(rg, &key)))
        else {
            break;
        };
        chain.push(p);
        cur = p;
    }
    chain.reverse();
    for (step, &id) in chain.iter().enumerate() {
        let (s, e) = d.ranges.get(id).cloned().unwrap_or_default();
        out.push_str(&format!(
            "  [{}] region [{}, {})\n",
            step + 1,
            to_string_binary(&s),
            to_string_binary(&e)
        ));
        for h in d.history.iter().filter(|h| h.region == id) {
            out.push_str(&format!(
                "    {}  {}\n",
                secs(h.at_ns),
                super::history::happening(&h.what)
            ));
        }
    }
    out.push_str(&format!(
        "  now: {} on {}, {} in {} store file(s), {} rows, {} puts\n",
        to_string_binary(&last.start),
        server_name(last.server, n),
        format_bytes(last.store_bytes()),
        last.store_files(),
        last.rows,
        last.write_requests
    ));
    out
}
