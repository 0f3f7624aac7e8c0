//! Property tests of the engine: stepped one row or event at a time, random small scenarios keep
//! the state invariants after every step; after them, regions tile the key space, no row
//! or byte is lost, split keys lie strictly inside their parent, no memstore grows past its
//! blocking limit by more than one write, and the report does not depend on the thread count.

use hbase_emu::diag::SourceText;
use hbase_emu::engine::{self, Engine, RunOptions};
use hbase_emu::plan;
use hbase_emu::report::run as report;
use hbase_emu::scenario;
use proptest::prelude::*;

const POLICIES: &[&str] = &[
    "SteppingSplitPolicy",
    "ConstantSizeRegionSplitPolicy",
    "IncreasingToUpperBoundRegionSplitPolicy",
    "DisabledRegionSplitPolicy",
    "KeyPrefixRegionSplitPolicy",
    "DelimitedKeyPrefixRegionSplitPolicy",
    "BusyRegionSplitPolicy",
];

const GENERATORS: &[&str] = &[
    "kind = \"sequential\"",
    "kind = \"md5-prefix\"\nhex_chars = 4",
    "kind = \"salted\"\nbuckets = 4",
    "kind = \"modulo\"\npartitions = 7",
    "kind = \"template\"\ntemplate = \"{md5(u):2}_{u:06}_{id}\"\nfields = { u = { dist = \"zipfian\", cardinality = 1000 } }",
];

#[derive(Debug, Clone)]
struct Case {
    servers: u32,
    max_mb: u32,
    flush_mb: u32,
    policy: usize,
    generator: usize,
    rows: u32,
    value: u32,
    presplit: bool,
    scale: Option<u64>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        1u32..4,
        4u32..48,
        1u32..6,
        0..POLICIES.len(),
        0..GENERATORS.len(),
        20_000u32..150_000,
        prop_oneof![Just(100u32), Just(1000), Just(3000)],
        any::<bool>(),
        prop_oneof![Just(None), Just(Some(1u64)), Just(Some(3))],
    )
        .prop_map(
            |(servers, max_mb, flush_mb, policy, generator, rows, value, presplit, scale)| Case {
                servers,
                max_mb,
                flush_mb,
                policy,
                generator,
                rows,
                value,
                presplit,
                scale,
            },
        )
}

fn scenario_text(c: &Case) -> String {
    let presplit = if c.presplit {
        "[table.presplit]\nalgorithm = \"sampled\"\nregions = 4\nsamples = 2000\n"
    } else {
        ""
    };
    format!(
        "name = \"prop\"\nseed = 5\n[cluster]\nregionservers = {}\nheap = \"2GB\"\n\
         [table]\nmax_filesize = \"{}MB\"\nmemstore_flushsize = \"{}MB\"\nsplit_policy = \"{}\"\n\
         prefix_length = 2\nprefix_delimiter = \"_\"\n{presplit}\
         [workload]\nrows = {}\nrow = {{ value = \"{}B\" }}\nrate = \"100MB/s\"\n\
         [[generator]]\nname = \"g\"\n{}\n",
        c.servers,
        c.max_mb,
        c.flush_mb,
        POLICIES[c.policy],
        c.rows,
        c.value,
        GENERATORS[c.generator]
    )
}

proptest! {
    #![proptest_config(crate::common::proptest_config(16))]

    #[test]
    fn engine_invariants_hold(c in case()) {
        let text = scenario_text(&c);
        let src = SourceText::from_string("prop.toml", text.clone());
        let s = scenario::load_source(src).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let spec = &s.generators[0];
        let p = plan::plan_run(&s, spec).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let r = engine::run(&s, p, RunOptions { scale: c.scale, threads: 1, builder: false, reference: false }).map_err(|e| TestCaseError::fail(format!("{e}")))?;

        // Regions tile the key space.
        prop_assert!(r.regions[0].start.is_empty());
        prop_assert!(r.regions.last().unwrap().end.is_empty());
        for w in r.regions.windows(2) {
            prop_assert_eq!(&w[0].end, &w[1].start);
            prop_assert!(w[0].start.is_empty() || w[0].start < w[0].end);
        }
        // No row lost: regions hold every row written; servers received every write.
        let held: u64 = r.regions.iter().map(|x| x.rows).sum();
        prop_assert_eq!(held, r.rows);
        let written: u64 = r.servers.iter().map(|x| x.write_requests).sum();
        prop_assert_eq!(written, r.rows);
        // No byte lost: data written = flushed + still in memstores.
        let data: u128 = r.data_bytes;
        let memstore: u64 = r.regions.iter().map(|x| x.memstore_data()).sum();
        prop_assert_eq!(data, r.stats.flushed_bytes as u128 + memstore as u128);
        // Store files account for the flushed rows (all generators here write unique keys):
        // per region, the rows visible in its files match the rows it holds minus its memstore,
        // to within a few data blocks per file (files keep about one key per block) and 10 %:
        // this catches rows lost or multiplied by a compaction or a split, not block rounding.
        for reg in &r.regions {
            let in_files: u64 = reg.stores.iter().flat_map(|st| st.files.iter()).map(|f| f.visible_rows).sum();
            let in_memstore: u64 = reg.stores.iter().map(|st| st.memstore_rows).sum();
            let expected = reg.rows - in_memstore;
            let per_block = (65_536 / (c.value as u64 + 40)).max(1) * r.scale;
            let files = reg.store_files() as u64;
            let tolerance = expected / 10 + per_block * (files + 1) * 4;
            prop_assert!(in_files.abs_diff(expected) <= tolerance,
                "region {:?}: files hold {} rows, expected {} (tolerance {})", reg.start, in_files, expected, tolerance);
        }
        // Split keys strictly inside their parent.
        for sp in &r.splits {
            prop_assert!(sp.split_key.as_slice() > sp.parent_start.as_slice());
            prop_assert!(sp.parent_end.is_empty() || sp.split_key < sp.parent_end);
        }
        if c.policy == 3 {
            prop_assert!(r.splits.is_empty(), "DisabledRegionSplitPolicy never splits");
        }
        // No memstore past the blocking limit by more than one write (checkResources runs first).
        let blocking = s.settings.blocking_memstore_size;
        let max_row_heap = (c.scale.unwrap_or(1).max(r.scale) * (c.value as u64 + 200) * 2) + 1024;
        for reg in &r.regions {
            prop_assert!(reg.memstore_peak <= blocking + max_row_heap,
                "memstore peak {} over blocking {}", reg.memstore_peak, blocking);
        }
    }

    #[test]
    fn stepping_keeps_the_state_invariants(c in case()) {
        let text = scenario_text(&c);
        let src = SourceText::from_string("prop.toml", text.clone());
        let s = scenario::load_source(src).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let p = plan::plan_run(&s, &s.generators[0]).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let mut e = Engine::start(&s, p, RunOptions { scale: c.scale, threads: 1, builder: false, reference: false });
        // The engine checks after every event (also those handled while a write waits); the
        // loop checks after every row.
        e.check_invariants_each_event(true);
        let mut steps = 0u64;
        while e.step().map_err(|err| TestCaseError::fail(format!("{err}")))?.is_some() {
            steps += 1;
            if let Err(broken) = e.invariants() {
                return Err(TestCaseError::fail(format!("after step {steps}: {broken}\n{text}")));
            }
        }
        prop_assert!(steps > 0);
    }

    #[test]
    fn report_does_not_depend_on_threads(c in case()) {
        let text = scenario_text(&c);
        let src = SourceText::from_string("prop.toml", text);
        let s = scenario::load_source(src).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let json = |threads| {
            let p = plan::plan_run(&s, &s.generators[0]).expect("plan");
            let r = engine::run(&s, p, RunOptions { scale: c.scale, threads, builder: threads > 2, reference: false }).expect("run");
            report::build(&s, &[r]).to_json()
        };
        prop_assert_eq!(json(1), json(3));
    }

    /// The reference engine (no runs of rows, keys made one by one, routing by binary search,
    /// flushes by the standard sort) reports what the fast engine reports, byte for byte.
    #[test]
    fn the_reference_engine_reports_what_the_fast_one_does(c in case()) {
        let text = scenario_text(&c);
        let src = SourceText::from_string("prop.toml", text.clone());
        let s = scenario::load_source(src).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let json = |reference| {
            let p = plan::plan_run(&s, &s.generators[0]).expect("plan");
            let r = engine::run(&s, p, RunOptions { scale: c.scale, threads: 2, builder: false, reference }).expect("run");
            report::build(&s, &[r]).to_json()
        };
        prop_assert_eq!(json(false), json(true), "{}", text);
    }
}
