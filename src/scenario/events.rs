//! `[workload.reads]` and `[[event]]`: validated with the same checker as the rest of the file,
//! after the workload and the base settings are known (row triggers and `set` need them).

use std::ops::Range;

use toml::Spanned;

use crate::assignment::server_name;
use crate::config::{Origin, Settings, SiteConfig, TableAttributes, keys};
use crate::units;

use super::raw::{RawDistribution, RawEvent, RawPhase, RawReads};
use super::{
    Checker, ClusterEvent, EventAction, EventTrigger, MAX_REGIONSERVERS, ReadDistribution, Reads,
    Workload,
};

/// YCSB's `ZipfianGenerator.ZIPFIAN_CONSTANT`.
pub const DEFAULT_THETA: f64 = 0.99;
/// YCSB's `hotspotdatafraction` default.
pub const DEFAULT_HOT_FRACTION: f64 = 0.2;
/// YCSB's `hotspotopnfraction` default.
pub const DEFAULT_HOT_OP_FRACTION: f64 = 0.8;
/// Rows one scan reads when `scan_rows` is absent.
pub const DEFAULT_SCAN_ROWS: u64 = 100;
/// Most rows one scan may read.
pub const MAX_SCAN_ROWS: u64 = 1_000_000_000;

fn distribution_name(d: RawDistribution) -> &'static str {
    match d {
        RawDistribution::Uniform => "uniform",
        RawDistribution::Zipfian => "zipfian",
        RawDistribution::Latest => "latest",
        RawDistribution::Hotspot => "hotspot",
    }
}

impl Checker<'_> {
    /// An operation rate: a finite number ≥ 0.
    pub(super) fn ops_rate(&mut self, v: &Spanned<f64>, field: &str) -> Option<f64> {
        let x = *v.get_ref();
        if x.is_finite() && x >= 0.0 {
            Some(x)
        } else {
            self.err(
                v.span(),
                field,
                format!("{x} is not an operation rate"),
                "a number of operations per second ≥ 0, e.g. 1000",
            );
            None
        }
    }

    /// A fraction in [0, 1].
    pub(super) fn unit_fraction(&mut self, v: &Spanned<f64>, field: &str) -> Option<f64> {
        let x = *v.get_ref();
        if (0.0..=1.0).contains(&x) {
            Some(x)
        } else {
            self.err(
                v.span(),
                field,
                format!("{x} is not a fraction"),
                "a number in [0, 1], e.g. 0.2",
            );
            None
        }
    }
}

/// `[workload.reads]`. Whether any read happens at all is checked by the caller, once the
/// `phase` events (which may start reads later) are known.
pub(super) fn reads(ck: &mut Checker<'_>, r: &RawReads) -> Option<Reads> {
    let mut ok = true;
    let mut rate = |ck: &mut Checker<'_>, v: &Option<Spanned<f64>>, field: &str| match v {
        None => 0.0,
        Some(v) => ck.ops_rate(v, field).unwrap_or_else(|| {
            ok = false;
            0.0
        }),
    };
    let gets_per_s = rate(ck, &r.gets_per_s, "workload.reads.gets_per_s");
    let scans_per_s = rate(ck, &r.scans_per_s, "workload.reads.scans_per_s");
    let scan_rows = match &r.scan_rows {
        None => DEFAULT_SCAN_ROWS,
        Some(v) => ck
            .positive(v, "workload.reads.scan_rows", MAX_SCAN_ROWS)
            .unwrap_or_else(|| {
                ok = false;
                DEFAULT_SCAN_ROWS
            }),
    };
    let dist = r
        .distribution
        .as_ref()
        .map_or(RawDistribution::Zipfian, |d| *d.get_ref());
    let name = distribution_name(dist);
    // Options of other distributions are mistakes worth pointing at.
    let mut reject = |ck: &mut Checker<'_>, v: &Option<Spanned<f64>>, field: &str, only: &str| {
        if let Some(v) = v {
            ck.err(
                v.span(),
                &format!("workload.reads.{field}"),
                format!("`{field}` does not apply to distribution \"{name}\""),
                format!("`{field}` only with {only}"),
            );
            ok = false;
        }
    };
    let zipf = matches!(dist, RawDistribution::Zipfian | RawDistribution::Latest);
    if !zipf {
        reject(
            ck,
            &r.theta,
            "theta",
            "distribution = \"zipfian\" or \"latest\"",
        );
    }
    if dist != RawDistribution::Hotspot {
        reject(
            ck,
            &r.hot_fraction,
            "hot_fraction",
            "distribution = \"hotspot\"",
        );
        reject(
            ck,
            &r.hot_op_fraction,
            "hot_op_fraction",
            "distribution = \"hotspot\"",
        );
    }
    let theta = match &r.theta {
        Some(t) if zipf => {
            let x = *t.get_ref();
            // YCSB's generator (Gray et al.) uses α = 1/(1−θ) and ζ(2, θ): defined for 0 < θ < 1.
            if x > 0.0 && x < 1.0 {
                x
            } else {
                ck.err(
                    t.span(),
                    "workload.reads.theta",
                    format!("{x} is not a usable Zipfian constant"),
                    "a number strictly between 0 and 1 (YCSB's default is 0.99)",
                );
                ok = false;
                DEFAULT_THETA
            }
        }
        _ => DEFAULT_THETA,
    };
    let mut fraction = |ck: &mut Checker<'_>, v: &Option<Spanned<f64>>, field: &str, d: f64| match v
    {
        Some(v) if dist == RawDistribution::Hotspot => {
            ck.unit_fraction(v, field).unwrap_or_else(|| {
                ok = false;
                d
            })
        }
        _ => d,
    };
    let hot_fraction = fraction(
        ck,
        &r.hot_fraction,
        "workload.reads.hot_fraction",
        DEFAULT_HOT_FRACTION,
    );
    let hot_op_fraction = fraction(
        ck,
        &r.hot_op_fraction,
        "workload.reads.hot_op_fraction",
        DEFAULT_HOT_OP_FRACTION,
    );
    let distribution = match dist {
        RawDistribution::Uniform => ReadDistribution::Uniform,
        RawDistribution::Zipfian => ReadDistribution::Zipfian { theta },
        RawDistribution::Latest => ReadDistribution::Latest { theta },
        RawDistribution::Hotspot => ReadDistribution::Hotspot {
            hot_fraction,
            hot_op_fraction,
        },
    };
    ok.then_some(Reads {
        gets_per_s,
        scans_per_s,
        scan_rows,
        distribution,
    })
}

/// What the events are checked against.
pub(super) struct EventContext<'a> {
    /// RegionServers at the start.
    pub regionservers: u64,
    /// The workload, if it was valid (row triggers need it).
    pub workload: Option<&'a Workload>,
    /// The effective site configuration and table attributes, if the base settings resolved
    /// (a `set` is type-checked on top of them).
    pub base: Option<(&'a SiteConfig, &'a TableAttributes)>,
}

/// Why a removed server cannot be named again.
#[derive(Clone, Copy)]
struct Removed {
    how: &'static str,
    line: usize,
}

/// `[[event]]`, in file order, which is firing order: an event fires when its trigger is reached
/// and every event above it has fired. That makes the server bookkeeping here exact, although
/// time and row triggers cannot be compared before a run.
pub(super) fn events(
    ck: &mut Checker<'_>,
    raw: &[Spanned<RawEvent>],
    cx: &EventContext<'_>,
) -> Vec<ClusterEvent> {
    let initial = cx.regionservers as usize;
    // Names are accepted as formatted for the starting size or for the largest size reached.
    let total = initial
        + raw
            .iter()
            .filter_map(|e| e.get_ref().add_servers.as_ref())
            .map(|n| (*n.get_ref()).clamp(0, MAX_REGIONSERVERS as i64) as usize)
            .sum::<usize>();
    let mut servers: Vec<Option<Removed>> = vec![None; initial];
    let mut site = cx.base.map(|(s, _)| s.clone());
    let mut last_time: Option<(u64, usize)> = None;
    let mut last_rows: Option<(u64, usize)> = None;
    let mut out = Vec::new();

    for ev in raw {
        let e = ev.get_ref();
        let line = ck.line(&ev.span());
        let trigger = trigger(ck, e, ev.span(), cx.workload);
        // Time triggers among themselves, row triggers among themselves, must not go back.
        match &trigger {
            Some((EventTrigger::Time(ns), span, field)) => {
                if let Some((prev, prev_line)) = last_time
                    && *ns < prev
                {
                    ck.err(
                        span.clone(),
                        &format!("event.{field}"),
                        format!(
                            "this event fires at {} but the time trigger on line {prev_line} is later ({})",
                            units::format_duration_ms(ns / 1_000_000),
                            units::format_duration_ms(prev / 1_000_000)
                        ),
                        "time triggers in non-decreasing order (events fire in file order)",
                    );
                }
                last_time = Some((*ns, line));
            }
            Some((EventTrigger::Rows(n), span, field)) => {
                if let Some((prev, prev_line)) = last_rows
                    && *n < prev
                {
                    ck.err(
                        span.clone(),
                        &format!("event.{field}"),
                        format!(
                            "this event fires after {n} rows but the row trigger on line {prev_line} fires later (after {prev} rows)"
                        ),
                        "row triggers (at_rows, at_data, at_fraction) in non-decreasing order (events fire in file order)",
                    );
                }
                last_rows = Some((*n, line));
            }
            None => {}
        }
        let action = action(
            ck,
            e,
            ev.span(),
            line,
            initial,
            total,
            &mut servers,
            cx,
            &mut site,
        );
        if let (Some((trigger, _, _)), Some(action)) = (trigger, action) {
            out.push(ClusterEvent {
                trigger,
                action,
                line,
            });
        }
    }
    out
}

/// The event's one trigger, with its span and field name.
fn trigger(
    ck: &mut Checker<'_>,
    e: &RawEvent,
    span: Range<usize>,
    workload: Option<&Workload>,
) -> Option<(EventTrigger, Range<usize>, &'static str)> {
    let present: Vec<(&'static str, Range<usize>)> = [
        ("at", e.at.as_ref().map(|v| v.span())),
        ("at_data", e.at_data.as_ref().map(|v| v.span())),
        ("at_fraction", e.at_fraction.as_ref().map(|v| v.span())),
        ("at_rows", e.at_rows.as_ref().map(|v| v.span())),
    ]
    .into_iter()
    .filter_map(|(n, s)| s.map(|s| (n, s)))
    .collect();
    const ONE_TRIGGER: &str = "exactly one of `at = \"2h\"`, `at_data = \"1TB\"`, `at_fraction = 0.5`, `at_rows = 1000000`";
    let (field, tspan) = exactly_one(ck, span, present, "trigger", ONE_TRIGGER)?;
    let dotted = format!("event.{field}");
    // Row triggers beyond the workload would never fire.
    let within = |ck: &mut Checker<'_>, rows: u64, what: String| -> Option<u64> {
        let w = workload?;
        if rows > w.rows {
            ck.err(
                tspan.clone(),
                &dotted,
                format!("{what} is more than the workload writes, so the event would never fire"),
                format!(
                    "at most the workload's {} rows ({} of payload)",
                    w.rows,
                    units::format_bytes(w.payload_bytes().min(u64::MAX as u128) as u64)
                ),
            );
            return None;
        }
        Some(rows)
    };
    let trigger = if let Some(q) = &e.at {
        let ms = ck.quantity(
            q,
            &dotted,
            units::parse_duration_ms,
            units::DURATION_EXPECTED,
        )?;
        let Some(ns) = ms.checked_mul(1_000_000) else {
            ck.err(
                q.span(),
                &dotted,
                "the time is too far in the future",
                "a duration under 500 years",
            );
            return None;
        };
        EventTrigger::Time(ns)
    } else if let Some(q) = &e.at_data {
        let bytes = ck.size(q, &dotted)?;
        let w = workload?;
        // Whole rows, rounded up: the event fires once at least this much payload is written.
        let per_row = w.columns * w.value_bytes;
        let rows = bytes.div_ceil(per_row);
        EventTrigger::Rows(within(
            ck,
            rows,
            format!(
                "{} ({rows} rows of {})",
                units::format_bytes(bytes),
                units::format_bytes(per_row)
            ),
        )?)
    } else if let Some(f) = &e.at_fraction {
        let x = *f.get_ref();
        if !(x > 0.0 && x < 1.0) {
            ck.err(
                f.span(),
                &dotted,
                format!("{x} is not a fraction of the load strictly between 0 and 1"),
                "a number in (0, 1), e.g. 0.5 for half of the workload's rows",
            );
            return None;
        }
        let w = workload?;
        EventTrigger::Rows(((x * w.rows as f64).ceil() as u64).min(w.rows))
    } else if let Some(q) = &e.at_rows {
        let rows = ck.count(q, &dotted)?;
        EventTrigger::Rows(within(ck, rows, format!("{rows} rows"))?)
    } else {
        return None;
    };
    Some((trigger, tspan, field))
}

/// The event's one action. Updates the server list and the settings in force.
#[allow(clippy::too_many_arguments)]
fn action(
    ck: &mut Checker<'_>,
    e: &RawEvent,
    span: Range<usize>,
    line: usize,
    initial: usize,
    total: usize,
    servers: &mut Vec<Option<Removed>>,
    cx: &EventContext<'_>,
    site: &mut Option<SiteConfig>,
) -> Option<EventAction> {
    let present: Vec<(&'static str, Range<usize>)> = [
        ("add_servers", e.add_servers.as_ref().map(|v| v.span())),
        ("decommission", e.decommission.as_ref().map(|v| v.span())),
        ("kill", e.kill.as_ref().map(|v| v.span())),
        ("set", e.set.as_ref().map(|v| v.span())),
        ("phase", e.phase.as_ref().map(|v| v.span())),
    ]
    .into_iter()
    .filter_map(|(n, s)| s.map(|s| (n, s)))
    .collect();
    const ONE_ACTION: &str = "exactly one of `add_servers = N`, `decommission = \"rs03\"`, `kill = \"rs03\"`, `set = { … }`, `phase = { … }`";
    exactly_one(ck, span, present, "action", ONE_ACTION)?;
    if let Some(n) = &e.add_servers {
        let room = MAX_REGIONSERVERS.saturating_sub(servers.len() as u64);
        let v = *n.get_ref();
        if v < 1 || v as u64 > room {
            ck.err(
                n.span(),
                "event.add_servers",
                format!("{v} servers cannot join"),
                format!(
                    "a whole number in 1..={room} (the cluster has {} servers then; at most {MAX_REGIONSERVERS})",
                    servers.len()
                ),
            );
            return None;
        }
        servers.extend(std::iter::repeat_n(None, v as usize));
        return Some(EventAction::AddServers(v as u64));
    }
    for (how, field, v) in [
        ("decommissioned", "decommission", &e.decommission),
        ("killed", "kill", &e.kill),
    ] {
        let Some(name) = v else { continue };
        let i = server(ck, name, field, initial, total, servers)?;
        servers[i] = Some(Removed { how, line });
        return Some(if field == "kill" {
            EventAction::Kill(i)
        } else {
            EventAction::Decommission(i)
        });
    }
    if let Some(set) = &e.set {
        return set_action(ck, set, cx, site);
    }
    if let Some(p) = &e.phase {
        return phase(ck, p, cx.workload);
    }
    None
}

/// Resolves a server name to its index, checking that it is live at this point.
fn server(
    ck: &mut Checker<'_>,
    name: &Spanned<String>,
    field: &str,
    initial: usize,
    total: usize,
    servers: &[Option<Removed>],
) -> Option<usize> {
    let dotted = format!("event.{field}");
    let n = servers.len();
    let live: Vec<usize> = (0..n).filter(|&i| servers[i].is_none()).collect();
    let listing = match (live.first(), live.last()) {
        (Some(&a), Some(&b)) if a == b => {
            format!("the live RegionServer {}", server_name(a, initial))
        }
        (Some(&a), Some(&b)) if live.len() == b - a + 1 => {
            format!(
                "a live RegionServer: {}..{}",
                server_name(a, initial),
                server_name(b, initial)
            )
        }
        _ => format!(
            "a live RegionServer: {}",
            live.iter()
                .map(|&i| server_name(i, initial))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let text = name.get_ref().trim();
    let index = text
        .strip_prefix("rs")
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse::<usize>().ok())
        .filter(|&k| k >= 1)
        .map(|k| k - 1);
    let Some(i) = index else {
        ck.err(
            name.span(),
            &dotted,
            format!("{} is not a RegionServer name", super::quoted_name(text)),
            listing,
        );
        return None;
    };
    if i >= n {
        ck.err(
            name.span(),
            &dotted,
            format!(
                "there is no RegionServer `{text}` at this point (the cluster has {n}{})",
                if n > initial {
                    " including those added by earlier events"
                } else {
                    ""
                }
            ),
            listing,
        );
        return None;
    }
    if text != server_name(i, initial) && text != server_name(i, total) {
        ck.err(
            name.span(),
            &dotted,
            format!("`{text}` is not how hbase-emu names that server"),
            format!("`{}`", server_name(i, initial)),
        );
        return None;
    }
    if let Some(r) = servers[i] {
        ck.err(
            name.span(),
            &dotted,
            format!(
                "`{text}` was already {} by the event on line {}",
                r.how, r.line
            ),
            listing,
        );
        return None;
    }
    if live.len() == 1 {
        let verb = if field == "kill" {
            "killing"
        } else {
            "decommissioning"
        };
        ck.err(
            name.span(),
            &dotted,
            format!("{verb} `{text}` would leave no live RegionServer"),
            "at least one live RegionServer after every event (add servers first)",
        );
        return None;
    }
    Some(i)
}

/// `set = { key = value, … }`: modelled keys only; the settings are re-resolved with the changes
/// layered over everything before, so a value HBase would refuse is an error at that value.
fn set_action(
    ck: &mut Checker<'_>,
    set: &Spanned<std::collections::BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
    cx: &EventContext<'_>,
    site: &mut Option<SiteConfig>,
) -> Option<EventAction> {
    if set.get_ref().is_empty() {
        ck.err(
            set.span(),
            "event.set",
            "the set changes nothing",
            "at least one `\"hbase.property\" = value`",
        );
        return None;
    }
    let mut next = site.clone();
    let mut changes = Vec::new();
    let mut ok = true;
    for (k, v) in set.get_ref() {
        let key = k.get_ref().trim();
        let field = format!("event.set.\"{key}\"");
        if keys::spec(key).is_none() {
            ck.err(
                k.span(),
                &field,
                format!(
                    "`{key}` is not a property hbase-emu models, so changing it would do nothing"
                ),
                "a modelled property (`hbase-emu config` lists them)",
            );
            ok = false;
            continue;
        }
        let value = match super::property_value(v.get_ref()) {
            Some(value) => value,
            None => {
                ck.err(
                    v.span(),
                    &field,
                    "a property value must be a string, number or boolean",
                    "e.g. \"10GB\" or 134217728",
                );
                ok = false;
                continue;
            }
        };
        if let Some(s) = &mut next {
            if s.is_final(key) {
                let (l, c) = ck.src.line_col(v.span().start);
                ck.warnings.push(format!(
                    "{field} ({}:{l}:{c}): the property is final, so the change is ignored",
                    ck.src.path.display()
                ));
            }
            let origin = Origin::Scenario {
                path: ck.src.path.clone(),
                line: ck.line(&k.span()),
            };
            s.set_at(key, &value, origin, Some((ck.src, v.span())));
        }
        changes.push((key.to_string(), value));
    }
    let (Some(next), Some((_, attrs))) = (next, cx.base) else {
        // The base settings are already in error; nothing to layer on.
        return None;
    };
    // Type-check the valid changes even when another key was refused.
    match Settings::resolve(&next, attrs) {
        Ok(_) if !ok => None,
        Ok(settings) => {
            *site = Some(next);
            Some(EventAction::Set {
                changes,
                settings: Box::new(settings),
            })
        }
        Err(e) => {
            // Name the field by its place in the event when the error is about one of its keys.
            let e = match e.field.clone() {
                Some(f) if set.get_ref().keys().any(|k| k.get_ref().trim() == f) => {
                    e.field(format!("event.set.\"{f}\""))
                }
                _ => e,
            };
            ck.errors.push(e.locate(ck.src, set.span()));
            None
        }
    }
}

/// `phase = { rate, gets_per_s, scans_per_s }`.
fn phase(
    ck: &mut Checker<'_>,
    p: &Spanned<RawPhase>,
    workload: Option<&Workload>,
) -> Option<EventAction> {
    let rp = p.get_ref();
    if rp.rate.is_none() && rp.gets_per_s.is_none() && rp.scans_per_s.is_none() {
        ck.err(
            p.span(),
            "event.phase",
            "the phase changes nothing",
            "at least one of `rate`, `gets_per_s`, `scans_per_s`",
        );
        return None;
    }
    let mut ok = true;
    let rate_bytes_per_s = match &rp.rate {
        None => None,
        Some(q) => {
            // A bare 0 pauses the writes (no unit needed for nothing).
            let zero = matches!(q.get_ref(), super::raw::Quantity::Int(0));
            match if zero {
                Some(0)
            } else {
                ck.quantity(
                    q,
                    "event.phase.rate",
                    units::parse_rate,
                    units::RATE_EXPECTED,
                )
            } {
                // A pause needs an end the data cannot give: `workload.duration`.
                Some(0) if workload.is_some_and(|w| w.duration_ms.is_none()) => {
                    ck.err(
                        q.span(),
                        "event.phase.rate",
                        "a rate of zero pauses the writes, and the run has no `duration` to end it",
                        "`duration` in [workload] (e.g. duration = \"180d\"), or a positive rate such as 50MB/s",
                    );
                    ok = false;
                    None
                }
                Some(v) => Some(v),
                None => {
                    ok = false;
                    None
                }
            }
        }
    };
    let mut ops = |ck: &mut Checker<'_>, v: &Option<Spanned<f64>>, field: &str| {
        let v = v.as_ref()?;
        let x = ck.ops_rate(v, field);
        if x.is_none() {
            ok = false;
        }
        // Reads need `[workload.reads]` for their distribution and scan length.
        if x.is_some_and(|x| x > 0.0) && workload.is_some_and(|w| w.reads.is_none()) {
            ck.err(
                v.span(),
                field,
                "reads start here but the scenario has no [workload.reads]",
                "a [workload.reads] table (it sets the distribution; its rates may be 0 until this phase)",
            );
            ok = false;
        }
        x
    };
    let gets_per_s = ops(ck, &rp.gets_per_s, "event.phase.gets_per_s");
    let scans_per_s = ops(ck, &rp.scans_per_s, "event.phase.scans_per_s");
    ok.then_some(EventAction::Phase {
        rate_bytes_per_s,
        gets_per_s,
        scans_per_s,
    })
}

/// The one field of `present` (name, span) given, or an error: none (at the event) or a second
/// one (at that one), naming `what` ("trigger", "action") and what is expected.
fn exactly_one(
    ck: &mut Checker<'_>,
    span: Range<usize>,
    mut present: Vec<(&'static str, Range<usize>)>,
    what: &str,
    expected: &str,
) -> Option<(&'static str, Range<usize>)> {
    // "The second one" in the order written.
    present.sort_by_key(|(_, s)| s.start);
    match present.as_slice() {
        [] => {
            ck.err(span, "event", format!("the event has no {what}"), expected);
            None
        }
        [one] => Some(one.clone()),
        [(first, _), (second, s2), ..] => {
            ck.err(
                s2.clone(),
                &format!("event.{second}"),
                format!("the event has two {what}s, `{first}` and `{second}`"),
                if what == "action" {
                    format!("{expected} (one [[event]] per action)")
                } else {
                    expected.to_string()
                },
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::SourceText;
    use crate::scenario::{
        ClusterEvent, EventAction, EventTrigger, ReadDistribution, Scenario, ScenarioErrors,
        load_source,
    };

    const BASE: &str = "name = \"t\"\n[cluster]\nregionservers = 3\n[workload]\nrows = 1000\n\
                        row = { columns = 2, value = \"1KB\" }\n\
                        [[generator]]\nname = \"s\"\nkind = \"sequential\"\n";

    fn load(extra: &str) -> Result<Scenario, ScenarioErrors> {
        let text = BASE.replace("[[generator]]", &format!("{extra}\n[[generator]]"));
        let text = if extra.contains("[[event]]") {
            format!("{BASE}{extra}")
        } else {
            text
        };
        load_source(SourceText::from_string("s.toml", text))
    }

    fn events(extra: &str) -> Vec<ClusterEvent> {
        load(extra)
            .map(|s| s.events)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn error(extra: &str) -> String {
        match load(extra) {
            Ok(_) => panic!("expected an error for {extra}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn cluster_defaults_and_overrides() {
        let s = load("").unwrap();
        assert_eq!(s.cluster.failure_detection_ms, 90_000);
        assert_eq!(s.cluster.wal_replay_bandwidth, 100 << 20);
        assert!(s.events.is_empty() && s.workload.reads.is_none());
        let text = BASE.replace(
            "regionservers = 3",
            "regionservers = 3\nfailure_detection = \"30s\"\nwal_replay_bandwidth = \"1GB/s\"",
        );
        let s = load_source(SourceText::from_string("s.toml", text)).unwrap();
        assert_eq!(s.cluster.failure_detection_ms, 30_000);
        assert_eq!(s.cluster.wal_replay_bandwidth, 1 << 30);
    }

    #[test]
    fn reads_defaults_and_distributions() {
        let r = load("[workload.reads]\ngets_per_s = 10")
            .unwrap()
            .workload
            .reads
            .unwrap();
        assert_eq!(r.gets_per_s, 10.0);
        assert_eq!(r.scans_per_s, 0.0);
        assert_eq!(r.scan_rows, 100);
        assert_eq!(r.distribution, ReadDistribution::Zipfian { theta: 0.99 });
        let r = load(
            "[workload.reads]\nscans_per_s = 1.5\ndistribution = \"hotspot\"\nhot_fraction = 0.1",
        )
        .unwrap()
        .workload
        .reads
        .unwrap();
        assert_eq!(
            r.distribution,
            ReadDistribution::Hotspot {
                hot_fraction: 0.1,
                hot_op_fraction: 0.8
            }
        );
        let r = load("[workload.reads]\ngets_per_s = 1\ndistribution = \"latest\"\ntheta = 0.5")
            .unwrap()
            .workload
            .reads
            .unwrap();
        assert_eq!(r.distribution, ReadDistribution::Latest { theta: 0.5 });
    }

    #[test]
    fn reads_errors() {
        let e = error("[workload.reads]\ngets_per_s = 1\nhot_fraction = 0.5");
        assert!(
            e.contains("s.toml:9:16") && e.contains("workload.reads.hot_fraction"),
            "{e}"
        );
        assert!(
            error("[workload.reads]\ngets_per_s = 1\ntheta = 1.0").contains("Zipfian constant")
        );
        assert!(error("[workload.reads]\ngets_per_s = -1").contains("not an operation rate"));
        assert!(error("[workload.reads]\nscan_rows = 5").contains("never reads"));
        assert!(
            error(
                "[workload.reads]\ngets_per_s = 1\ndistribution = \"hotspot\"\nhot_op_fraction = 2"
            )
            .contains("not a fraction")
        );
        // Reads switched on later by a phase are fine.
        let s = load(
            "[workload.reads]\ndistribution = \"uniform\"\n[[event]]\nat = \"1m\"\nphase = { gets_per_s = 5 }",
        );
        assert!(s.is_ok());
    }

    #[test]
    fn triggers_convert_to_rows_or_time() {
        let ev = events(
            "[[event]]\nat = \"2h\"\nadd_servers = 1\n\
             [[event]]\nat_data = \"3KB\"\nkill = \"rs01\"\n\
             [[event]]\nat_fraction = 0.25\ndecommission = \"rs04\"\n\
             [[event]]\nat_rows = \"1k\"\nphase = { rate = \"50MB/s\" }\n",
        );
        assert_eq!(ev.len(), 4);
        assert_eq!(ev[0].trigger, EventTrigger::Time(7_200_000_000_000));
        assert_eq!(ev[0].line, 10);
        // 3 KB of 2 × 1 KB rows: 1.5 rows, rounded up.
        assert_eq!(ev[1].trigger, EventTrigger::Rows(2));
        assert!(matches!(ev[1].action, EventAction::Kill(0)));
        assert_eq!(ev[2].trigger, EventTrigger::Rows(250));
        assert!(matches!(ev[2].action, EventAction::Decommission(3)));
        assert_eq!(ev[3].trigger, EventTrigger::Rows(1000));
        assert!(matches!(
            ev[3].action,
            EventAction::Phase {
                rate_bytes_per_s: Some(52_428_800),
                gets_per_s: None,
                scans_per_s: None
            }
        ));
    }

    #[test]
    fn set_layers_over_earlier_settings() {
        let ev = events(
            "[[event]]\nat = \"1m\"\nset = { \"hbase.hregion.max.filesize\" = \"1GB\" }\n\
             [[event]]\nat = \"2m\"\nset = { \"hbase.hregion.memstore.flush.size\" = 67108864 }\n",
        );
        let EventAction::Set { changes, settings } = &ev[1].action else {
            panic!("not a set");
        };
        assert_eq!(changes[0].1, "67108864");
        assert_eq!(settings.max_filesize, 1 << 30);
        assert_eq!(settings.flush_size, 64 << 20);
    }

    #[test]
    fn event_errors_name_place_and_problem() {
        let two = error("[[event]]\nat = \"1h\"\nat_rows = 5\nkill = \"rs01\"");
        assert!(
            two.contains("s.toml:12:11") && two.contains("two triggers"),
            "{two}"
        );
        let none = error("[[event]]\nat = \"1h\"");
        assert!(
            none.contains("s.toml:10:1") && none.contains("no action"),
            "{none}"
        );
        let last = error(
            "[[event]]\nat = \"1h\"\nkill = \"rs01\"\n[[event]]\nat = \"2h\"\nkill = \"rs02\"\n[[event]]\nat = \"3h\"\nkill = \"rs03\"",
        );
        assert!(
            last.contains("s.toml:18:8") && last.contains("no live RegionServer"),
            "{last}"
        );
        let again = error(
            "[[event]]\nat = \"1h\"\nkill = \"rs01\"\n[[event]]\nat = \"2h\"\ndecommission = \"rs01\"",
        );
        assert!(
            again.contains("already killed by the event on line 10"),
            "{again}"
        );
        let added = events(
            "[[event]]\nat = \"1h\"\nadd_servers = 2\n[[event]]\nat = \"2h\"\nkill = \"rs05\"",
        );
        assert!(matches!(added[1].action, EventAction::Kill(4)));
        assert!(error("[[event]]\nat = \"1h\"\nkill = \"rs4\"").contains("no RegionServer `rs4`"));
        assert!(error("[[event]]\nat = \"1h\"\nkill = \"rs3\"").contains("expected `rs03`"));
        assert!(error("[[event]]\nat_rows = 1001\nadd_servers = 1").contains("never fire"));
        assert!(
            error("[[event]]\nat_fraction = 1.0\nadd_servers = 1")
                .contains("strictly between 0 and 1")
        );
        let order = error(
            "[[event]]\nat_rows = 10\nadd_servers = 1\n[[event]]\nat = \"1h\"\nadd_servers = 1\n[[event]]\nat_fraction = 0.001\nadd_servers = 1",
        );
        assert!(order.contains("row trigger on line 10"), "{order}");
        let unknown = error("[[event]]\nat = \"1h\"\nset = { \"hbase.foo\" = 1 }");
        assert!(
            unknown.contains("event.set.\"hbase.foo\"")
                && unknown.contains("not a property hbase-emu models"),
            "{unknown}"
        );
        let bad =
            error("[[event]]\nat = \"1h\"\nset = { \"hbase.hregion.max.filesize\" = \"huge\" }");
        assert!(
            bad.contains("s.toml:12:40") && bad.contains("`huge` is not a byte count"),
            "{bad}"
        );
        assert!(error("[[event]]\nat = \"1h\"\nphase = {}").contains("changes nothing"));
        assert!(
            error("[[event]]\nat = \"1h\"\nphase = { gets_per_s = 3 }")
                .contains("no [workload.reads]")
        );
    }
}
