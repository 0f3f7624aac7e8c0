//! The engine's typed history in words: the steps of a region's life (`--explain`), cluster
//! events, and the reasons of splits, moves and merges (the run reports).

use crate::assignment::server_name;
use crate::engine::policy::normalizer::{Average, AverageBasis, NormMerge, NormSplit};
use crate::engine::policy::split::{
    Basis, BusyCheck, SizeCheck, SplitDecision, SplitWhy, Threshold,
};
use crate::engine::{
    EventDetail, FlushWhy, Happening, MoveReason, OpenedAs, ServerAt, SplitReason, SplitSource,
};
use crate::keynotation::to_string_binary;
use crate::scenario::EventAction;
use crate::units::{format_bytes, format_duration_ms};

const NS_PER_MS: u64 = 1_000_000;
const NS_PER_S: u64 = 1_000_000_000;

/// A server's name as it was then.
fn server(s: ServerAt) -> String {
    server_name(s.index, s.servers)
}

/// One step of a region's life, e.g. `flushed 128.00 MiB of memstore (…) into …`.
pub fn happening(h: &Happening) -> String {
    match h {
        Happening::Opened { server: s, as_ } => {
            let on = server(*s);
            match as_ {
                OpenedAs::PreSplit { index, of } => format!(
                    "opened on {on} as pre-split region {index} of {of} (round-robin assignment)"
                ),
                OpenedAs::LowerDaughter => {
                    format!("opened on {on} as the lower daughter of a split")
                }
                OpenedAs::UpperDaughter => {
                    format!("opened on {on} as the upper daughter of a split")
                }
                OpenedAs::Merge { regions } => {
                    format!("opened on {on} as the merge of {regions} regions")
                }
                OpenedAs::Reopened => format!("opened on {on}"),
            }
        }
        Happening::FlushHeldBack {
            files,
            blocking,
            wait_ms,
        } => format!(
            "flush held back: {files} store files > hbase.hstore.blockingStoreFiles {blocking}: \
             MemStoreFlusher waits up to blockingWaitTime {} for a compaction to bring the count \
             down",
            format_duration_ms(*wait_ms)
        ),
        Happening::Flushed {
            why,
            data,
            written,
            files_now,
        } => format!(
            "flushed {} of memstore ({}) into {} of store files; {files_now} store file(s) now",
            format_bytes(*data),
            flush_why(*why),
            format_bytes(*written)
        ),
        Happening::BulkLoaded {
            files,
            bytes,
            files_now,
        } => format!(
            "bulk-loaded {files} HFile(s), {} (HRegion.bulkLoadHFiles); {files_now} store file(s) now",
            format_bytes(*bytes)
        ),
        Happening::Compacted {
            major,
            files,
            read,
            took_ns,
            files_now,
        } => {
            let mb_s =
                *read as f64 / (1u64 << 20) as f64 / ((*took_ns).max(1) as f64 / NS_PER_S as f64);
            format!(
                "{} compaction (ExploringCompactionPolicy) rewrote {files} file(s), {} read in {} \
                 ({mb_s:.1} MiB/s); {files_now} file(s) in the store now",
                if *major { "major" } else { "minor" },
                format_bytes(*read),
                format_duration_ms(took_ns / NS_PER_MS)
            )
        }
        Happening::CompactionsAborted { count } => {
            format!("{count} running compaction(s) aborted by the close")
        }
        Happening::SplitRequested {
            row,
            reason,
            source,
            queued_ns,
        } => {
            let queued = if *queued_ns > 0 {
                format!(
                    "; the procedure waited {} for a master worker (hbase.master.procedure.threads)",
                    format_duration_ms(queued_ns / 1_000_000)
                )
            } else {
                String::new()
            };
            let from = source.map_or(String::new(), |s: SplitSource| {
                format!(
                    "; the row is the midkey of the largest store file, {} of the store's {}",
                    format_bytes(s.file_bytes),
                    s.store_files
                )
            });
            format!(
                "split requested at {} ({}){from}{queued}",
                to_string_binary(row),
                split_reason(reason)
            )
        }
        Happening::ClosedToMove {
            from,
            flushed,
            to,
            reason,
        } => format!(
            "closed on {} (flushed {}) to move to {}: {}",
            server(*from),
            format_bytes(*flushed),
            server(*to),
            move_reason(reason)
        ),
        Happening::ClosedToMerge { regions, reason } => format!(
            "closed for a merge of {regions} regions: {}",
            norm_merge(reason)
        ),
        Happening::MergedAway => "merged away".to_string(),
        Happening::Offline { server: s, line } => {
            format!("offline: {} died (scenario line {line})", server(*s))
        }
    }
}

/// What requested a flush.
pub fn flush_why(why: FlushWhy) -> &'static str {
    match why {
        FlushWhy::Size => "memstore above hbase.hregion.memstore.flush.size",
        FlushWhy::Blocking => "memstore above flush.size x block.multiplier (writes blocked)",
        FlushWhy::Global => {
            "RegionServer above the global memstore low mark (largest memstore first)"
        }
        FlushWhy::Periodic => "edits older than hbase.regionserver.optionalcacheflushinterval",
        FlushWhy::Wal => {
            "more WAL files than hbase.regionserver.maxlogs, with edits in the oldest (forced)"
        }
        FlushWhy::GlobalOverFileLimit => {
            "RegionServer above the global memstore low mark; too many store files, but over twice the largest flushable memstore"
        }
        FlushWhy::PreClose => {
            "closing (split or move) with more than hbase.hregion.preclose.flush.size in the memstore: flushed while writes still land"
        }
    }
}

/// A cluster event's detail.
pub fn event(e: &EventDetail) -> String {
    match e {
        EventDetail::Balancer { reason, moves } => format!(
            "{reason} (plans {moves} move{})",
            if *moves == 1 { "" } else { "s" }
        ),
        EventDetail::Normalizer { splits, merges } => format!(
            "SimpleRegionNormalizer: {splits} split plan(s), {merges} merge plan(s) executed"
        ),
        EventDetail::Set { line, changes } => {
            let list: Vec<String> = changes.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!(
                "scenario line {line}: set {} (split policies of open regions reconfigured, as a \
                 table alter reopens them)",
                list.join(", ")
            )
        }
        EventDetail::Phase {
            line,
            rate_bytes_per_s,
            gets_per_s,
            scans_per_s,
        } => format!(
            "scenario line {line}: new workload phase: {}",
            EventAction::phase_parts(*rate_bytes_per_s, *gets_per_s, *scans_per_s)
        ),
        EventDetail::AddServers {
            line,
            first,
            servers,
        } => {
            let names: Vec<String> = (*first..*servers)
                .map(|i| server_name(i, *servers))
                .collect();
            format!(
                "scenario line {line}: {} joined ({servers} servers now)",
                names.join(", ")
            )
        }
        EventDetail::Decommission {
            line,
            server: s,
            moved,
            hosted,
        } => format!(
            "scenario line {line}: {} draining; {moved} of {hosted} regions moved off at once, \
             the rest as their flushes or splits finish",
            server(*s)
        ),
        EventDetail::Kill {
            line,
            server: s,
            regions,
            unflushed,
            detection_ns,
            replay_ns,
        } => format!(
            "scenario line {line}: {} died with {regions} regions and {} of unflushed edits; \
             reassignment after detection {} + WAL split/replay {}",
            server(*s),
            format_bytes(*unflushed),
            format_duration_ms(detection_ns / NS_PER_MS),
            format_duration_ms(replay_ns / NS_PER_MS)
        ),
        EventDetail::Recovered {
            server: s,
            regions,
            live,
        } => format!(
            "{}'s {regions} regions reassigned over {live} live servers",
            server(*s)
        ),
    }
}

/// Why a region split: `<policy>: <its numbers>` or `normalizer: <plan>`.
pub fn split_reason(r: &SplitReason) -> String {
    match r {
        SplitReason::Policy { policy, decision } => {
            format!("{}: {}", policy.simple_name(), split_decision(decision))
        }
        SplitReason::Normalizer(n) => format!("normalizer: {}", norm_split(n)),
    }
}

/// Why a region moved.
pub fn move_reason(r: &MoveReason) -> String {
    match r {
        MoveReason::Balancer(reason) => reason.clone(),
        MoveReason::Decommission { server: s, line } => format!(
            "{} decommissioned (scenario line {line}): offloaded round-robin",
            server(*s)
        ),
        MoveReason::Crash {
            server: s,
            replayed,
        } => format!(
            "{} died: ServerCrashProcedure reassigned round-robin; {} of edits replayed from the \
             WAL",
            server(*s),
            format_bytes(*replayed)
        ),
    }
}

/// How the normalizer's average was derived.
fn average_basis(a: &Average) -> String {
    match a.basis {
        AverageBasis::TargetSize(t) => format!("NORMALIZER_TARGET_REGION_SIZE_MB {t}"),
        AverageBasis::Total {
            total_mb,
            count,
            target_count,
        } => {
            let what = if target_count {
                "NORMALIZER_TARGET_REGION_COUNT"
            } else {
                "regions"
            };
            format!("{total_mb} MB / {count} {what}")
        }
    }
}

/// A normalizer split plan's reason.
pub fn norm_split(n: &NormSplit) -> String {
    format!(
        "size {} MB > 2 × avg {:.3} MB ({})",
        n.size_mb,
        n.avg.mb,
        average_basis(&n.avg)
    )
}

/// A normalizer merge plan's reason.
pub fn norm_merge(m: &NormMerge) -> String {
    let sizes: Vec<String> = m.sizes_mb.iter().map(u64::to_string).collect();
    format!(
        "sizes {} MB = {} MB ≤ avg {} MB ({}), {} regions",
        sizes.join("+"),
        m.sum_mb,
        m.avg_mb,
        average_basis(&m.avg),
        m.sizes_mb.len()
    )
}

/// A split policy's decision, e.g. `store 0 size 2.10 GiB > 2.00 GiB (SteppingSplitPolicy, …)`.
pub fn split_decision(d: &SplitDecision) -> String {
    match &d.why {
        SplitWhy::Never(policy) => format!("{} never splits", policy.simple_name()),
        SplitWhy::Size {
            size,
            threshold,
            busy,
        } => {
            let size_reason = format!("{} ({})", size_check(size), threshold_context(threshold));
            match busy {
                Some(b) => format!("{}; {size_reason}", busy_check(b)),
                None => size_reason,
            }
        }
    }
}

fn size_check(s: &SizeCheck) -> String {
    match *s {
        SizeCheck::Unavailable => "region not available".to_string(),
        SizeCheck::References => {
            "references from a split remain (compaction needed first)".to_string()
        }
        SizeCheck::Sum {
            stores,
            bytes,
            limit,
            over,
        } => format!(
            "sum of {stores} stores {} {} {}",
            format_bytes(bytes),
            if over { ">" } else { "≤" },
            format_bytes(limit)
        ),
        SizeCheck::Store {
            index,
            bytes,
            limit,
            over: true,
        } => format!(
            "store {index} size {} > {}",
            format_bytes(bytes),
            format_bytes(limit)
        ),
        SizeCheck::Store {
            index,
            bytes,
            limit,
            over: false,
        } => format!(
            "largest store {index} size {} ≤ {}",
            format_bytes(bytes),
            format_bytes(limit)
        ),
        SizeCheck::NoStores { limit } => format!("no stores (limit {})", format_bytes(limit)),
    }
}

/// How the policy's threshold came about (its [`Basis`], worded).
fn threshold_context(t: &Threshold) -> String {
    let name = t.policy.simple_name();
    let desired = format!(
        "max file size {} with jitter {:+.2} %",
        format_bytes(t.desired),
        t.jitter_rate * 100.0
    );
    let on_server = || {
        let count = t.regions;
        if count == 1 {
            "1 region of the table on the server".to_string()
        } else {
            format!("{count} regions of the table on the server")
        }
    };
    match t.basis {
        Basis::Never => name.to_string(),
        Basis::Desired { by_count: false } => format!("{name}, {desired}"),
        Basis::Desired { by_count: true } => format!("{name}, {}: {desired}", on_server()),
        Basis::Initial => format!(
            "{name}, {}: initial size {}",
            on_server(),
            format_bytes(t.initial_size)
        ),
        Basis::InitialCubed { count } => format!(
            "{name}, {}: min({}, {} × {count}³)",
            on_server(),
            format_bytes(t.desired),
            format_bytes(t.initial_size)
        ),
    }
}

fn busy_check(b: &BusyCheck) -> String {
    match *b {
        BusyCheck::TooYoung { age_ms, min_age_ms } => format!(
            "too young for the busy rule (age {} < minAge {})",
            format_duration_ms(age_ms),
            format_duration_ms(min_age_ms)
        ),
        BusyCheck::References => "busy rule blocked by references".to_string(),
        BusyCheck::Rate {
            rate,
            max,
            busy: true,
        } => format!("too busy: blocked-write rate {rate:.4} ≥ {max:.4}"),
        BusyCheck::Rate {
            rate,
            max,
            busy: false,
        } => format!("blocked-write rate {rate:.4} < {max:.4}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SplitPolicy;
    use crate::config::{SiteConfig, TableAttributes};
    use crate::engine::policy::split::SplitPolicyInstance;

    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;

    use crate::engine::policy::split::test_view as view;

    fn policy(p: Option<SplitPolicy>) -> SplitPolicyInstance {
        let mut s = crate::config::Settings::resolve(
            &SiteConfig::with_defaults(),
            &TableAttributes::default(),
        )
        .expect("defaults resolve");
        s.max_filesize_jitter = 0.0;
        if let Some(p) = p {
            s.split_policy = p;
        }
        SplitPolicyInstance::new(&s, 0, 0.5)
    }

    #[test]
    fn split_decisions_name_store_threshold_and_policy() {
        let p = policy(None);
        let sizes = [2 * GIB + 100 * MIB];
        assert_eq!(
            split_decision(&p.explain(&view(&sizes, 2))),
            "largest store 0 size 2.10 GiB ≤ 10.00 GiB (SteppingSplitPolicy, 2 regions of the \
             table on the server: max file size 10.00 GiB with jitter +0.00 %)"
        );
        assert_eq!(
            split_decision(&p.explain(&view(&sizes, 1))),
            "store 0 size 2.10 GiB > 256.00 MiB (SteppingSplitPolicy, 1 region of the table on \
             the server: initial size 256.00 MiB)"
        );
        let q = policy(Some(SplitPolicy::IncreasingToUpperBound));
        assert!(
            split_decision(&q.explain(&view(&sizes, 2)))
                .contains("min(10.00 GiB, 256.00 MiB × 2³)")
        );
        let d = policy(Some(SplitPolicy::Disabled));
        assert_eq!(
            split_decision(&d.explain(&view(&sizes, 2))),
            "DisabledRegionSplitPolicy never splits"
        );
    }

    #[test]
    fn server_names_keep_the_width_of_their_time() {
        let s = ServerAt {
            index: 3,
            servers: 100,
        };
        assert_eq!(
            happening(&Happening::Offline { server: s, line: 7 }),
            "offline: rs004 died (scenario line 7)"
        );
    }
}
