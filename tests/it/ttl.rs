//! Long-lived tables: family TTL, expired store files, and the normalizer merging the regions
//! ageing empties (docs/MODEL.md "TTL").

use hbase_emu::diag::SourceText;
use hbase_emu::report::run;
use hbase_emu::scenario;

/// Time-series keys written for about 5.5 simulated hours at 100 KB/s, TTL 1 hour, majors due
/// every hour and checked every 100 s, normalization on with no age or size floor.
const TS: &str = r#"
schema_version = 1
name = "ttl"
seed = 3

[cluster]
regionservers = 2

[hbase]
"hbase.hregion.majorcompaction" = "3600000"
"hbase.server.compactchecker.interval.multiplier" = "10"
"hbase.normalizer.period" = "300000"
"hbase.normalizer.merge.min_region_age.days" = "0"
"hbase.normalizer.merge.min_region_size.mb" = "0"

[table]
name = "ts"
ttl = "1h"
max_filesize = "256MB"
memstore_flushsize = "16MB"
normalization_enabled = true

[workload]
data = "2GB"
row = { columns = 1, qualifier = "1B", value = "1KB" }
rate = "100KB/s"

[[generator]]
name = "ts"
kind = "timestamp-first"
"#;

fn report(text: &str) -> run::Report {
    crate::common::exact_report("ttl.toml", text)
}

/// `ScanQueryMatcher.isCellTTLExpired` in compactions, `HStore.removeUnneededFiles` and the
/// single-file "keyvalues outdated" major (`RatioBasedCompactionPolicy`): with a 1 h TTL the
/// rows stored at the end are bounded by the rows written in the last TTL plus the time a
/// major takes to come due; rows written − expired = rows stored.
#[test]
fn ttl_bounds_stored_rows_by_the_window_scan_query_matcher() {
    let rep = report(TS);
    let s = &rep.runs[0].summary;
    let a = s.ageing.as_ref().expect("TTL expired something");
    let rows_per_s = s.rows as f64 / s.sim_seconds;
    // TTL 1 h + major period 1 h (jitter up to +50 %) + checker period + flush slack.
    let window_s = 3600.0 + 5400.0 + 100.0 + 600.0;
    assert!(
        (a.rows_stored as f64) <= rows_per_s * window_s,
        "{} stored, {} per s",
        a.rows_stored,
        rows_per_s
    );
    assert!(a.rows_stored > 0);
    assert_eq!(s.rows - a.ttl_expired_rows, a.rows_stored, "figures add up");
    assert!(a.ttl_expired_bytes > 0);
}

/// `HStore.removeUnneededFiles` (`hbase.store.delete.expired.storefile`, default true): old
/// files past the TTL are dropped whole; with the key off none are.
#[test]
fn expired_store_files_are_dropped_whole_hstore() {
    let on = report(TS);
    let a = on.runs[0].summary.ageing.clone().expect("ageing");
    assert!(a.expired_files_dropped > 0, "{a:?}");
    let off_text = TS.replace(
        "[table]",
        "\"hbase.store.delete.expired.storefile\" = \"false\"\n\n[table]",
    );
    let off = report(&off_text);
    let b = off.runs[0].summary.ageing.clone().expect("ageing");
    assert_eq!(b.expired_files_dropped, 0);
    // Compactions still expire the rows.
    assert!(b.ttl_expired_rows > 0);
}

/// `SimpleRegionNormalizer` with `merge.min_region_size.mb` 0: regions emptied by TTL (0 MB)
/// join merge plans; the region count ends below its peak.
#[test]
fn normalizer_merges_regions_emptied_by_ttl_simple_region_normalizer() {
    let rep = report(TS);
    let r = &rep.runs[0];
    assert!(!r.merges.is_empty(), "no merges");
    assert!(
        r.summary.regions_final < r.summary.regions_initial + r.summary.splits,
        "{} regions after {} splits",
        r.summary.regions_final,
        r.summary.splits
    );
}

/// No TTL: nothing expires and the report has no ageing block (shipped scenarios unchanged).
#[test]
fn no_ttl_no_ageing_column_family_descriptor() {
    let text = TS.replace("ttl = \"1h\"\n", "");
    let rep = report(&text);
    assert!(rep.runs[0].summary.ageing.is_none());
}

/// A TTL that is not a duration or whole seconds is an error naming the field.
#[test]
fn bad_ttl_is_an_error_naming_the_field() {
    let text = TS.replace("ttl = \"1h\"", "ttl = \"soon\"");
    let err = scenario::load_source(SourceText::from_string("ttl.toml", text.as_str()))
        .expect_err("bad ttl")
        .to_string();
    assert!(err.contains("table.ttl"), "{err}");
    assert!(err.contains("ttl.toml:"), "{err}");
}

/// `FIFOCompactionPolicy` on the same table: whole expired files go (the newest too), nothing
/// is rewritten but a daughter's References after a split, so the compactions write far less
/// while the TTL still bounds what is stored.
#[test]
fn fifo_drops_expired_files_and_rewrites_only_references_fifo_compaction_policy() {
    let fifo_text = TS.replace(
        "[table]",
        "\"hbase.hstore.defaultengine.compactionpolicy.class\" = \"FIFOCompactionPolicy\"\n\
         \"hbase.hstore.blockingStoreFiles\" = \"1000\"\n\n[table]",
    );
    let exploring = report(TS);
    let fifo = report(&fifo_text);
    let (e, f) = (&exploring.runs[0].summary, &fifo.runs[0].summary);
    let fa = f.ageing.as_ref().expect("TTL expired something");
    assert!(fa.expired_files_dropped > 0, "{fa:?}");
    assert_eq!(
        f.rows - fa.ttl_expired_rows,
        fa.rows_stored,
        "figures add up"
    );
    // Here many splits leave References (256 MB regions, 16 MB flushes): about a third less.
    assert!(
        f.compacted_bytes * 4 < e.compacted_bytes * 3,
        "FIFO rewrote {} bytes, Exploring {}",
        f.compacted_bytes,
        e.compacted_bytes
    );
    // A major is a compaction of every file: under FIFO only a daughter's, after a split.
    assert!(
        f.major_compactions <= f.splits as u64,
        "{} majors after {} splits",
        f.major_compactions,
        f.splits
    );
}

/// `DateTieredCompactionPolicy` (`DateTieredStoreEngine`) on the same table: minors merge
/// files of one time window, majors write a file per window (`DateTieredMultiFileWriter`), so
/// old windows' files expire whole and the compactions rewrite less than Exploring's; the TTL
/// still bounds what is stored. Base windows of 10 minutes: the table's 5.5 hours of writes
/// would sit in one or two of the default 6-hour windows.
#[test]
fn date_tiered_rewrites_less_and_drops_old_windows_whole_date_tiered_compaction_policy() {
    let dt_text = TS.replace(
        "[table]",
        "\"hbase.hstore.engine.class\" = \"DateTieredStoreEngine\"\n\
         \"hbase.hstore.compaction.date.tiered.base.window.millis\" = \"600000\"\n\n[table]",
    );
    let exploring = report(TS);
    let dt = report(&dt_text);
    let (e, d) = (&exploring.runs[0].summary, &dt.runs[0].summary);
    let da = d.ageing.as_ref().expect("TTL expired something");
    let ea = e.ageing.as_ref().expect("TTL expired something");
    assert_eq!(
        d.rows - da.ttl_expired_rows,
        da.rows_stored,
        "figures add up"
    );
    assert!(
        d.compacted_bytes < e.compacted_bytes,
        "DateTiered rewrote {} bytes, Exploring {}",
        d.compacted_bytes,
        e.compacted_bytes
    );
    assert!(
        da.expired_files_dropped > ea.expired_files_dropped,
        "files dropped whole: DateTiered {}, Exploring {}",
        da.expired_files_dropped,
        ea.expired_files_dropped
    );
}

/// `TableDescriptorChecker.checkCompactionPolicy`: a FIFO table needs a TTL on every family
/// and blockingStoreFiles of at least 1000; each is an error naming the field.
#[test]
fn fifo_without_a_ttl_or_with_few_blocking_files_is_refused() {
    let fifo = TS.replace(
        "[table]",
        "\"hbase.hstore.defaultengine.compactionpolicy.class\" = \"FIFOCompactionPolicy\"\n\n[table]",
    );
    let err = scenario::load_source(SourceText::from_string("ttl.toml", fifo.as_str()))
        .expect_err("blockingStoreFiles 16")
        .to_string();
    assert!(
        err.contains("hbase.hstore.blockingStoreFiles") && err.contains("1000"),
        "{err}"
    );
    let no_ttl = fifo.replace("ttl = \"1h\"\n", "").replace(
        "[table]",
        "\"hbase.hstore.blockingStoreFiles\" = \"1000\"\n[table]",
    );
    let err = scenario::load_source(SourceText::from_string("ttl.toml", no_ttl.as_str()))
        .expect_err("no TTL")
        .to_string();
    assert!(
        err.contains("table.ttl") && err.contains("FOREVER"),
        "{err}"
    );
    let bad = TS.replace(
        "[table]",
        "\"hbase.hstore.defaultengine.compactionpolicy.class\" = \"DateTieredCompactionPolicy\"\n[table]",
    );
    let err = scenario::load_source(SourceText::from_string("ttl.toml", bad.as_str()))
        .expect_err("DateTiered needs its store engine")
        .to_string();
    assert!(
        err.contains("hbase.hstore.engine.class = DateTieredStoreEngine"),
        "{err}"
    );
    // Under DateTieredStoreEngine another policy class fails the store's open in HBase.
    let engine = "\"hbase.hstore.engine.class\" = \"DateTieredStoreEngine\"\n";
    let wrong = TS.replace(
        "[table]",
        &format!(
            "{engine}\"hbase.hstore.defaultengine.compactionpolicy.class\" = \"ExploringCompactionPolicy\"\n[table]"
        ),
    );
    let err = scenario::load_source(SourceText::from_string("ttl.toml", wrong.as_str()))
        .expect_err("Exploring under DateTieredStoreEngine")
        .to_string();
    assert!(err.contains("fails to open the store"), "{err}");
    let stripe = TS.replace(
        "[table]",
        "\"hbase.hstore.engine.class\" = \"StripeStoreEngine\"\n[table]",
    );
    let err = scenario::load_source(SourceText::from_string("ttl.toml", stripe.as_str()))
        .expect_err("Stripe")
        .to_string();
    assert!(err.contains("not modelled"), "{err}");
    for bad in [
        "\"hbase.hstore.compaction.date.tiered.windows.per.tier\" = \"1\"",
        "\"hbase.hstore.compaction.date.tiered.base.window.millis\" = \"0\"",
        "\"hbase.hstore.compaction.date.tiered.window.factory.class\" = \"Other\"",
    ] {
        let src = TS.replace("[table]", &format!("{engine}{bad}\n[table]"));
        let key = bad.split('"').nth(1).expect("key");
        let err = scenario::load_source(SourceText::from_string("ttl.toml", src.as_str()))
            .expect_err(bad)
            .to_string();
        assert!(err.contains(key), "{bad}: {err}");
    }
}

// ---------------------------------------------------------------- runs over months

use hbase_emu::engine::{Engine, RunOptions, RunResult, Step};
use hbase_emu::plan;

const DAY_NS: u64 = 86_400 * 1_000_000_000;
const HOUR_NS: u64 = 3_600 * 1_000_000_000;

/// Time-series writes at 100 KB/s (about 6 minutes of data), then `extra` (phase events,
/// `duration`) appended to the workload.
fn paused(workload_extra: &str, events: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "idle"
seed = 5

[cluster]
regionservers = 3

[table]
name = "ts"
ttl = "30d"
max_filesize = "256MB"
memstore_flushsize = "16MB"

[workload]
data = "40MB"
row = {{ columns = 1, qualifier = "1B", value = "1KB" }}
rate = "100KB/s"
{workload_extra}

[[generator]]
name = "ts"
kind = "timestamp-first"
{events}
"#
    )
}

/// Runs `text` step by step at scale 1: (events handled, the clock at the end, the result).
fn stepped(text: &str) -> (u64, u64, RunResult) {
    let s = scenario::load_source(SourceText::from_string("idle.toml", text.to_string()))
        .unwrap_or_else(|e| panic!("{e}"));
    let p = plan::plan_run(&s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        scale: Some(1),
        threads: 1,
        builder: false,
        reference: false,
    };
    let mut e = Engine::start(&s, p, opts);
    let mut events = 0u64;
    while let Some(step) = e.step().unwrap_or_else(|err| panic!("{err}")) {
        if step == Step::Event {
            events += 1;
        }
    }
    let now = e.now_ns();
    (events, now, e.finish())
}

fn load_err(text: &str) -> String {
    crate::common::load_error("idle.toml", text)
}

/// A `phase` with rate 0 writes nothing: the clock goes from event to event, and the ingest
/// takes the writing time plus the pause (one row's time of rounding).
#[test]
fn zero_rate_phase_writes_nothing_and_advances_the_clock() {
    let events = "[[event]]\nat = \"2m\"\nphase = { rate = 0 }\n\n[[event]]\nat = \"2h\"\nphase = { rate = \"100KB/s\" }\n";
    let (_, now, r) = stepped(&paused("duration = \"1d\"", events));
    let write_ns = 40.0 * 1024.0 * 1024.0 / (100.0 * 1024.0) * 1e9;
    let pause_ns = (2 * HOUR_NS - 2 * 60 * 1_000_000_000) as f64;
    let ingest = r.ingest_ns as f64;
    // The client's waits on the servers (throttling, retries) add a little.
    assert!(
        ingest >= write_ns + pause_ns - 1e9 && ingest < write_ns + pause_ns + 1e10,
        "ingest {ingest} ns, expected about {} ns",
        write_ns + pause_ns
    );
    // Every row was written; the run ends at its duration.
    assert_eq!(r.rows, 40 * 1024);
    assert_eq!(now, DAY_NS);
    // No timeline sample inside the pause saw a write.
    let writes_at = |at: u64| -> u64 {
        r.samples
            .iter()
            .take_while(|s| s.at_ns <= at)
            .last()
            .map_or(0, |s| s.servers.iter().map(|x| x.writes).sum())
    };
    assert_eq!(
        writes_at(3 * 60 * 1_000_000_000),
        writes_at(HOUR_NS + HOUR_NS / 2)
    );
}

/// `workload.duration` ends the run at that time, with the data written long before: the
/// chores (flush check, majors, balancer, timeline) go on, but the resource tick sleeps while
/// nothing runs and GC pauses wait for writes, so 60 idle days take far fewer events than
/// seconds (a per-second tick alone would be 5.2 M; `HRegionServer` chores run every 10 s).
#[test]
fn sixty_idle_days_take_a_bounded_number_of_events() {
    let (events, now, r) = stepped(&paused("duration = \"60d\"", ""));
    assert_eq!(now, 60 * DAY_NS, "the run ends at its duration");
    assert!(r.ingest_ns < HOUR_NS);
    let seconds = 60 * 86_400;
    // The flush-check chore (10 s) is the densest event left: one per 10 s, plus the
    // compaction tune (60 s), samples, the balancer and what the data itself caused.
    assert!(events < seconds / 6, "{events} events in {seconds} s");
    // The timeline covers the whole duration, at about 10,000 samples at most.
    let last = r.samples.last().expect("samples").at_ns;
    assert!(last > 59 * DAY_NS, "{last}");
    assert!(r.samples.len() <= 10_100, "{}", r.samples.len());
}

/// Without a duration the run ends when the work the data caused is done (the drain), as
/// before: `duration` is what keeps a run going past it.
#[test]
fn without_duration_the_run_drains() {
    let (_, now, r) = stepped(&paused("", ""));
    assert!(now < HOUR_NS, "{now}");
    assert!(r.ingest_ns <= now);
}

/// Bad `duration` and phase input: errors name the field and the place.
#[test]
fn bad_duration_and_zero_rate_errors_name_the_field() {
    let e = load_err(&paused("duration = \"soon\"", ""));
    assert!(
        e.contains("workload.duration") && e.contains("idle.toml:"),
        "{e}"
    );
    let e = load_err(&paused("duration = \"0s\"", ""));
    assert!(e.contains("workload.duration"), "{e}");
    // 40 MB at 100 KB/s takes about 7 minutes: a 1-minute duration cannot hold it.
    let e = load_err(&paused("duration = \"1m\"", ""));
    assert!(
        e.contains("workload.duration") && e.contains("longer than"),
        "{e}"
    );
    // A pause needs a duration to end the run.
    let e = load_err(&paused(
        "",
        "[[event]]\nat = \"1m\"\nphase = { rate = 0 }\n",
    ));
    assert!(
        e.contains("event.phase.rate") && e.contains("duration"),
        "{e}"
    );
    assert!(e.contains("idle.toml:"), "{e}");
}

/// A pause whose data is not all written by the duration is an error at run time naming
/// `workload.duration` (the static check cannot see through phases).
#[test]
fn duration_reached_with_rows_unwritten_is_an_error() {
    let events = "[[event]]\nat = \"1m\"\nphase = { rate = 0 }\n";
    let text = paused("duration = \"1h\"", events);
    let s = scenario::load_source(SourceText::from_string("idle.toml", text))
        .unwrap_or_else(|e| panic!("{e}"));
    let p = plan::plan_run(&s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        scale: Some(1),
        threads: 1,
        builder: false,
        reference: false,
    };
    let err = hbase_emu::engine::run(&s, p, opts).expect_err("rows left at the end");
    assert!(err.to_string().contains("workload.duration"), "{err}");
}

/// The shipped 180-day scenario (`scenarios/ttl-timeseries.toml`, 30-day TTL):
/// `ScanQueryMatcher`/`HStore.removeUnneededFiles` keep the stored rows within about one TTL
/// of writes, and the timeline's region count rises for about a month, then levels off while
/// `SimpleRegionNormalizer` merges the emptied regions.
#[test]
fn ttl_scenario_region_count_rises_levels_off_and_merges_simple_region_normalizer() {
    let text = include_str!("../../scenarios/ttl-timeseries.toml");
    let rep = {
        let s = scenario::load_source(SourceText::from_string("ttl-timeseries.toml", text))
            .unwrap_or_else(|e| panic!("{e}"));
        let p = plan::plan_run(&s, &s.generators[0]).unwrap_or_else(|e| panic!("{e}"));
        let r = hbase_emu::engine::run(
            &s,
            p,
            RunOptions {
                scale: None,
                threads: 1,
                builder: false,
                reference: false,
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        run::build(&s, &[r])
    };
    let r = &rep.runs[0];
    let a = r.summary.ageing.as_ref().expect("ageing");
    // Rows written in one TTL (30 days) at the offered rate, plus a weekly major's slack.
    let rows_per_s = r.summary.rows as f64 / r.summary.sim_seconds;
    assert!(
        (a.rows_stored as f64) <= rows_per_s * (30.0 + 11.0) * 86_400.0,
        "{} rows stored",
        a.rows_stored
    );
    assert!(!r.merges.is_empty());
    // Regions per sample: rising over the first month, then level: the last 60 days stay
    // within a band around their mean, well above the start.
    let mut by_time = std::collections::BTreeMap::<u64, f64>::new();
    for t in &r.timeline {
        *by_time.entry(t.at_seconds as u64).or_default() += t.regions as f64;
    }
    let total: Vec<(f64, f64)> = by_time.into_iter().map(|(s, n)| (s as f64, n)).collect();
    let at = |day: f64| {
        total
            .iter()
            .take_while(|(s, _)| *s <= day * 86_400.0)
            .last()
            .map_or(0.0, |x| x.1)
    };
    assert!(at(2.0) < at(30.0), "{} then {}", at(2.0), at(30.0));
    let tail: Vec<f64> = total
        .iter()
        .filter(|(s, _)| *s >= 110.0 * 86_400.0)
        .map(|x| x.1)
        .collect();
    let mean = tail.iter().sum::<f64>() / tail.len() as f64;
    assert!(mean > at(2.0) * 3.0, "level {mean}");
    assert!(
        tail.iter().all(|v| (v - mean).abs() <= mean * 0.5),
        "not level: {tail:?}"
    );
}

/// The HTML report shows the ageing figures under the generator's summary; without a TTL it
/// has no such paragraph.
#[test]
fn html_report_shows_the_ageing_figures() {
    let rep = report(TS);
    let a = rep.runs[0].summary.ageing.clone().expect("ageing");
    let page = hbase_emu::report::html::render(&rep);
    let expired = a.ttl_expired_rows.to_string();
    let grouped: String = {
        // `thousands` groups digits with commas.
        let mut out = String::new();
        for (i, c) in expired.chars().enumerate() {
            if i > 0 && (expired.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(page.contains("id=\"gen-0-ageing\""), "no ageing paragraph");
    assert!(page.contains(&format!("{grouped} rows")), "{grouped}");
    let none = report(&TS.replace("ttl = \"1h\"\n", ""));
    assert!(!hbase_emu::report::html::render(&none).contains("gen-0-ageing"));
}

/// `DateTieredStoreEngine` reads `hbase.hstore.defaultengine.compactionpolicy.class` with
/// `DateTieredCompactionPolicy` as its default: `config` and `check` show that one, not the
/// default engine's Exploring.
#[test]
fn config_and_check_show_date_tiered_as_the_engines_default_policy() {
    let path = crate::common::root().join("scenarios/ttl-timeseries-dtcp.toml");
    let path = path.to_str().expect("UTF-8 path");
    let config = crate::common::run_ok(&["config", "--scenario", path]);
    let line = config
        .split("hbase.hstore.defaultengine.compactionpolicy.class")
        .nth(1)
        .expect("the key is listed");
    assert!(
        line.trim_start().contains("DateTieredCompactionPolicy")
            && !line.split('\n').take(3).any(|l| l.contains("Exploring")),
        "{line}"
    );
    let check = crate::common::run_ok(&["check", path]);
    assert!(check.contains("DateTieredCompactionPolicy"), "{check}");
}
