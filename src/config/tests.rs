//! Tests of layering, `final`, substitution, typed access, table attributes and `effective`.

use super::*;

fn xml(props: &[(&str, &str)]) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (k, v) in props {
        s.push_str(&format!(
            "  <property>\n    <name>{k}</name>\n    <value>{v}</value>\n  </property>\n"
        ));
    }
    s.push_str("</configuration>\n");
    s
}

fn load(c: &mut SiteConfig, path: &str, text: &str) {
    c.load_source(&SourceText::from_string(path, text.to_string()))
        .expect("valid site file");
}

fn site(props: &[(&str, &str)]) -> SiteConfig {
    let mut c = SiteConfig::with_defaults();
    load(&mut c, "site.xml", &xml(props));
    c
}

fn table_attr(attribute: &str) -> Origin {
    Origin::TableAttribute {
        attribute: attribute.to_string(),
        path: "s.toml".into(),
        line: 7,
    }
}

#[test]
fn defaults_cover_every_key_with_a_default() {
    let c = SiteConfig::with_defaults();
    for k in KEYS {
        assert_eq!(
            c.get(k.name).expect("no substitution").as_deref(),
            k.default,
            "{}",
            k.name
        );
        if k.default.is_some() {
            assert_eq!(c.origin(k.name), Some(&Origin::Default));
        }
    }
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("defaults resolve");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(s.max_filesize, 10 << 30);
    assert_eq!(s.flush_size, 128 << 20);
    assert_eq!(s.blocking_memstore_size, 512 << 20);
    assert_eq!(s.split_policy, SplitPolicy::Stepping);
    assert_eq!(s.increasing_initial_size, 256 << 20);
    assert_eq!(s.global_memstore_fraction, 0.4);
    assert_eq!(s.global_memstore_lower_limit, 0.95);
    assert_eq!(s.compaction_min_files, 3);
    assert_eq!(s.compaction_min_size, 128 << 20);
    assert_eq!(s.compaction_max_size, i64::MAX as u64);
    assert_eq!(s.compaction_ratio, 1.2);
    assert_eq!(s.offpeak_hours, None);
    assert_eq!(s.flush_interval_ms, Some(3_600_000));
    assert_eq!(s.blocking_store_files, 16);
    assert_eq!(s.slop, 0.2);
    assert_eq!(s.balancer, BalancerClass::Stochastic);
    assert_eq!(s.stochastic.max_steps, 1_000_000);
    assert_eq!(s.stochastic.move_cost, 7.0);
    assert_eq!(s.busy_blocked_requests, 0.2);
    assert_eq!(s.default_block_size, 65_536);
    assert_eq!(s.max_logs, None);
    assert!(!s.normalization_enabled);
    assert_eq!(s.flush_check_period_ms, 10_000, "= wake frequency");
    assert_eq!(s.compaction_check_period_ms, 10_000, "= wake frequency");
    assert_eq!(s.compaction_max_size_offpeak, i64::MAX as u64);
    assert_eq!(s.balancer_max_balancing_ms, 300_000, "= balancer period");
    assert_eq!(s.global_memstore_bytes, None);
    assert_eq!(s.normalizer_plans_size_limit_mb, None);
    assert_eq!(
        s.compaction_throughput_controller,
        ThroughputControllerClass::PressureAware
    );
    assert_eq!(s.compaction_throughput_lower_bound, 50 << 20);
    assert_eq!(s.compaction_throughput_higher_bound, 100 << 20);
    assert_eq!(s.compaction_throughput_tune_period_ms, Some(60_000));
    assert_eq!(
        s.compaction_throughput_check_interval,
        50 << 20,
        "= lower bound"
    );
}

#[test]
fn derived_keys_follow_their_sources_unless_set() {
    let c = site(&[
        ("hbase.server.thread.wakefrequency", "5s"),
        ("hbase.balancer.period", "60000"),
        ("hbase.regionserver.compaction.check.period", "1000"),
        ("hbase.regionserver.global.memstore.memory.size", "10g"),
    ]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("resolves");
    assert_eq!(s.flush_check_period_ms, 5_000);
    assert_eq!(s.compaction_check_period_ms, 1_000);
    assert_eq!(s.balancer_max_balancing_ms, 60_000);
    assert_eq!(s.global_memstore_bytes, Some(10 << 30));
}

#[test]
fn effective_values_have_human_forms() {
    let eff =
        effective(&SiteConfig::with_defaults(), &TableAttributes::default()).expect("effective");
    let human = |k: &str| {
        eff.iter()
            .find(|e| e.key == k)
            .and_then(EffectiveValue::human)
    };
    assert_eq!(
        human("hbase.hregion.max.filesize").as_deref(),
        Some("10.00 GiB")
    );
    assert_eq!(human("hbase.balancer.period").as_deref(), Some("5m 00s"));
    assert_eq!(human("hbase.regions.slop"), None);
    assert_eq!(
        human("hbase.hstore.compaction.max.size"),
        None,
        "Long.MAX is no size"
    );
}

#[test]
fn later_files_win_and_origin_names_file_and_line() {
    let mut c = SiteConfig::with_defaults();
    load(
        &mut c,
        "a.xml",
        &xml(&[("hbase.hstore.blockingStoreFiles", "10")]),
    );
    load(
        &mut c,
        "b.xml",
        &xml(&[("x.other", "1"), ("hbase.hstore.blockingStoreFiles", "20")]),
    );
    assert_eq!(
        c.get_int("hbase.hstore.blockingStoreFiles", 0).ok(),
        Some(20)
    );
    // The second property's <value> is on line 9 of b.xml.
    assert_eq!(
        c.origin("hbase.hstore.blockingStoreFiles"),
        Some(&Origin::File {
            path: "b.xml".into(),
            line: 9
        })
    );
    assert!(c.warnings().is_empty());
    // An empty value in a later file leaves the earlier value (Hadoop sets nothing).
    load(
        &mut c,
        "c.xml",
        &xml(&[("hbase.hstore.blockingStoreFiles", "")]),
    );
    assert_eq!(c.get_raw("hbase.hstore.blockingStoreFiles"), Some("20"));
}

#[test]
fn final_in_an_earlier_file_survives_and_warns() {
    let mut c = SiteConfig::with_defaults();
    let first = "<configuration>\n<property>\n<name>hbase.hregion.max.filesize</name>\n<value>2GB</value>\n<final>true</final>\n</property>\n</configuration>\n";
    load(&mut c, "first.xml", first);
    load(
        &mut c,
        "second.xml",
        &xml(&[("hbase.hregion.max.filesize", "4GB")]),
    );
    c.set("hbase.hregion.max.filesize", "8GB", Origin::CommandLine)
        .expect("set never fails");
    assert_eq!(c.get_raw("hbase.hregion.max.filesize"), Some("2GB"));
    assert!(c.is_final("hbase.hregion.max.filesize"));
    let w = c.warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w[0].contains("second.xml:5") && w[0].contains("`4GB`") && w[0].contains("first.xml:4"),
        "{w:?}"
    );
    assert!(w[1].contains("command line"), "{w:?}");
    // Re-stating the same value is not worth a warning (Hadoop warns only on a different value).
    load(
        &mut c,
        "third.xml",
        &xml(&[("hbase.hregion.max.filesize", "2GB")]),
    );
    assert_eq!(c.warnings().len(), 2);
}

#[test]
fn set_overrides_and_empty_set_unsets() {
    let mut c = SiteConfig::with_defaults();
    let origin = Origin::Scenario {
        path: "s.toml".into(),
        line: 3,
    };
    c.set("hbase.regions.slop", " 0.001 ", origin.clone())
        .expect("set");
    assert_eq!(
        c.get("hbase.regions.slop").ok().flatten().as_deref(),
        Some("0.001")
    );
    assert_eq!(c.origin("hbase.regions.slop"), Some(&origin));
    c.set("hbase.regions.slop", "", Origin::CommandLine)
        .expect("set");
    assert_eq!(c.get_raw("hbase.regions.slop"), None);
    assert_eq!(c.get_float("hbase.regions.slop", 0.2).ok(), Some(0.2));
}

#[test]
fn substitution_follows_chains() {
    let c = site(&[
        ("base", "/data"),
        ("mid", "${base}/hbase"),
        ("top", " ${mid}/x-${base} "),
        ("size.mb", "64"),
        ("hbase.hregion.memstore.flush.size", "${size.mb}MB"),
    ]);
    assert_eq!(
        c.get("top").ok().flatten().as_deref(),
        Some("/data/hbase/x-/data")
    );
    assert_eq!(c.get_raw("top"), Some("${mid}/x-${base}"));
    assert_eq!(
        c.get_bytes("hbase.hregion.memstore.flush.size", 0).ok(),
        Some(64 << 20)
    );
}

#[test]
fn unresolved_variables_are_left_as_is() {
    let c = site(&[
        ("a", "${user.name}/x"),
        ("b", "${nope}-${a}"),
        ("c", "$notvar ${} ${with space} ${a}"),
    ]);
    assert_eq!(c.get("a").ok().flatten().as_deref(), Some("${user.name}/x"));
    // Hadoop stops at the first unbound variable, so later ones stay too.
    assert_eq!(c.get("b").ok().flatten().as_deref(), Some("${nope}-${a}"));
    assert_eq!(
        c.get("c").ok().flatten().as_deref(),
        Some("$notvar ${} ${with space} ${user.name}/x")
    );
}

#[test]
fn self_reference_is_returned_unexpanded() {
    let c = site(&[("a", "x${a}"), ("b", "${a}")]);
    assert_eq!(c.get("a").ok().flatten().as_deref(), Some("x${a}"));
    assert_eq!(c.get("b").ok().flatten().as_deref(), Some("${a}"));
}

#[test]
fn cycles_are_errors_naming_the_chain() {
    let c = site(&[("k.a", "${k.b}"), ("k.b", "${k.c}"), ("k.c", "${k.a}")]);
    let e = c.get("k.a").expect_err("cycle");
    let msg = e.to_string();
    assert!(msg.contains("k.a -> k.b -> k.c -> k.a"), "{msg}");
    assert!(msg.contains("cycle"), "{msg}");
    assert_eq!(e.field.as_deref(), Some("k.a"));
    assert_eq!(e.line, Some(5), "placed at k.a's value: {msg}");
}

#[test]
fn too_deep_substitution_is_an_error() {
    let mut props: Vec<(String, String)> = (0..25)
        .map(|i| (format!("v{i}"), format!("${{v{}}}", i + 1)))
        .collect();
    props.push(("v25".into(), "end".into()));
    let refs: Vec<(&str, &str)> = props
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let c = site(&refs);
    let e = c.get("v0").expect_err("21 levels");
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    // 19 levels are fine.
    assert_eq!(c.get("v6").ok().flatten().as_deref(), Some("end"));
}

#[test]
fn typed_parsing_follows_hadoop() {
    let c = site(&[
        ("l.hex", "0x10"),
        ("l.neghex", "-0X1f"),
        ("l.plus", " +42 "),
        ("l.bad", "12abc"),
        ("i.big", "3000000000"),
        ("f.suffix", "1.2F"),
        ("f.exp", "5e-1"),
        ("b.upper", "TRUE"),
        ("b.junk", "yes"),
        ("d.dur", "15m"),
    ]);
    assert_eq!(c.get_long("l.hex", 0).ok(), Some(16));
    assert_eq!(c.get_long("l.neghex", 0).ok(), Some(-31));
    assert_eq!(c.get_long("l.plus", 0).ok(), Some(42));
    assert_eq!(c.get_int("l.hex", 0).ok(), Some(16));
    assert!(c.get_long("l.bad", 0).is_err());
    assert!(c.get_int("i.big", 0).is_err());
    assert_eq!(c.get_long("i.big", 0).ok(), Some(3_000_000_000));
    assert_eq!(c.get_long("absent", 7).ok(), Some(7));
    assert_eq!(c.get_float("f.suffix", 0.0).ok(), Some(1.2));
    assert_eq!(c.get_double("f.exp", 0.0).ok(), Some(0.5));
    assert_eq!(c.get_bool("b.upper", false).ok(), Some(true));
    assert_eq!(c.get_bool("b.junk", true).ok(), Some(true));
    assert_eq!(c.get_bool("b.junk", false).ok(), Some(false));
    assert_eq!(c.get_millis("d.dur", 0).ok(), Some(900_000));
    assert!(
        c.get_long("d.dur", 0).is_err(),
        "plain getLong has no units"
    );
}

#[test]
fn size_keys_accept_human_units() {
    let c = site(&[("hbase.hregion.max.filesize", "2GB")]);
    assert_eq!(
        c.get_bytes("hbase.hregion.max.filesize", 0).ok(),
        Some(2 << 30)
    );
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("resolves");
    assert_eq!(s.max_filesize, 2 << 30);
}

#[test]
fn bad_long_names_key_value_and_file_line() {
    let c = site(&[("x", "1"), ("hbase.hstore.blockingStoreFiles", "lots")]);
    let e = Settings::resolve(&c, &TableAttributes::default()).expect_err("not a number");
    let msg = e.to_string();
    assert!(
        msg.starts_with("site.xml:9:12: `hbase.hstore.blockingStoreFiles`: `lots` is not"),
        "{msg}"
    );
    assert!(e.expected.is_some());
    assert!(e.render().contains("lots"));
}

#[test]
fn bad_value_from_the_scenario_names_its_origin() {
    let mut c = SiteConfig::with_defaults();
    c.set(
        "hbase.hregion.memstore.block.multiplier",
        "four",
        Origin::Scenario {
            path: "s.toml".into(),
            line: 12,
        },
    )
    .expect("set");
    let e = Settings::resolve(&c, &TableAttributes::default()).expect_err("bad");
    let msg = e.to_string();
    assert!(
        msg.contains("scenario s.toml:12") && msg.contains("`four`"),
        "{msg}"
    );
    assert!(
        msg.contains("hbase.hregion.memstore.block.multiplier"),
        "{msg}"
    );

    // With the source text, the error points into it.
    let src = SourceText::from_string("s.toml", "[hbase]\n\"hbase.regions.slop\" = \"lots\"\n");
    c.set_at(
        "hbase.regions.slop",
        "lots",
        Origin::CommandLine,
        Some((&src, 24..30)),
    );
    let e = c.get_float("hbase.regions.slop", 0.2).expect_err("bad");
    assert!(e.to_string().starts_with("s.toml:2:17:"), "{e}");
}

#[test]
fn zero_or_negative_flush_size_is_an_error() {
    for v in ["0", "-1"] {
        let c = site(&[("hbase.hregion.memstore.flush.size", v)]);
        let e = Settings::resolve(&c, &TableAttributes::default()).expect_err(v);
        assert_eq!(
            e.field.as_deref(),
            Some("hbase.hregion.memstore.flush.size")
        );
        assert!(e.problem.contains("must be greater than 0"), "{e}");
        assert!(e.to_string().starts_with("site.xml:5:"), "{e}");
    }
    // Below HBase's 1 MiB sanity limit: refused unless sanity checks are off.
    let c = site(&[("hbase.hregion.memstore.flush.size", "512KB")]);
    let e = Settings::resolve(&c, &TableAttributes::default()).expect_err("too small");
    assert!(e.problem.contains("too small"), "{e}");
    let c = site(&[
        ("hbase.hregion.memstore.flush.size", "512KB"),
        ("hbase.table.sanity.checks", "false"),
    ]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("sanity off");
    assert_eq!(s.flush_size, 512 << 10);
    assert!(s.warnings.iter().any(|w| w.contains("too small")));
}

#[test]
fn block_multiplier_must_be_positive() {
    let c = site(&[("hbase.hregion.memstore.block.multiplier", "0")]);
    let e = Settings::resolve(&c, &TableAttributes::default()).expect_err("zero");
    assert!(e.problem.contains("RegionTooBusyException"), "{e}");
    let c = site(&[("hbase.regionserver.thread.compaction.small", "0")]);
    let e = Settings::resolve(&c, &TableAttributes::default()).expect_err("zero threads");
    assert_eq!(
        e.field.as_deref(),
        Some("hbase.regionserver.thread.compaction.small")
    );
}

#[test]
fn unknown_split_policy_lists_valid_ones() {
    let c = site(&[(
        "hbase.regionserver.region.split.policy",
        "org.apache.hadoop.hbase.regionserver.SizeSplitPolicy",
    )]);
    let e = Settings::resolve(&c, &TableAttributes::default()).expect_err("unknown");
    assert!(e.problem.contains("SizeSplitPolicy"), "{e}");
    let exp = e.expected.clone().unwrap_or_default();
    for p in SplitPolicy::ALL {
        assert!(exp.contains(p.simple_name()), "{exp}");
    }
    assert!(e.to_string().starts_with("site.xml:5:"), "{e}");

    let table = TableAttributes {
        split_policy: Some(Attr {
            value: "Nope".into(),
            origin: table_attr("SPLIT_POLICY"),
        }),
        ..TableAttributes::default()
    };
    let e = Settings::resolve(&SiteConfig::with_defaults(), &table).expect_err("unknown");
    assert_eq!(e.field.as_deref(), Some("SPLIT_POLICY"));
    assert!(e.to_string().contains("s.toml:7"), "{e}");
}

/// `ConstantSizeRegionSplitPolicy.configureForRegion`: the table's MAX_FILESIZE wins when > 0,
/// else hbase.hregion.max.filesize. `HRegion.setHTableSpecificConf`: MEMSTORE_FLUSHSIZE wins when
/// > 0. `RegionSplitPolicy.getSplitPolicyClass`: SPLIT_POLICY wins over the site key.
#[test]
fn table_attributes_take_precedence_as_in_hbase() {
    let c = site(&[
        ("hbase.hregion.max.filesize", "4GB"),
        ("hbase.hregion.memstore.flush.size", "64MB"),
        (
            "hbase.regionserver.region.split.policy",
            "ConstantSizeRegionSplitPolicy",
        ),
    ]);
    let table = TableAttributes {
        max_filesize: Some(Attr {
            value: 1 << 30,
            origin: table_attr("MAX_FILESIZE"),
        }),
        memstore_flushsize: Some(Attr {
            value: 32 << 20,
            origin: table_attr("MEMSTORE_FLUSHSIZE"),
        }),
        split_policy: Some(Attr {
            value: "org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy".into(),
            origin: table_attr("SPLIT_POLICY"),
        }),
        normalization_enabled: Some(Attr {
            value: true,
            origin: table_attr("NORMALIZATION_ENABLED"),
        }),
        ..TableAttributes::default()
    };
    let s = Settings::resolve(&c, &table).expect("resolves");
    assert_eq!(s.max_filesize, 1 << 30);
    assert_eq!(s.flush_size, 32 << 20);
    assert_eq!(s.blocking_memstore_size, 128 << 20);
    assert_eq!(
        s.increasing_initial_size,
        64 << 20,
        "2 x the table's flush size"
    );
    assert_eq!(s.split_policy, SplitPolicy::Disabled);
    assert!(s.normalization_enabled);

    let eff = effective(&c, &table).expect("effective");
    let get = |k: &str| eff.iter().find(|e| e.key == k).expect(k);
    assert_eq!(get("hbase.hregion.max.filesize").value, "1073741824");
    assert_eq!(
        get("hbase.hregion.max.filesize").origin,
        table_attr("MAX_FILESIZE")
    );
    assert_eq!(
        get("hbase.hregion.memstore.flush.size").origin,
        table_attr("MEMSTORE_FLUSHSIZE")
    );
    assert_eq!(get("hbase.table.normalization.enabled").value, "true");
}

#[test]
fn table_sizes_of_zero_fall_back_to_the_site_keys() {
    let c = site(&[("hbase.hregion.memstore.flush.size", "64MB")]);
    let table = TableAttributes {
        memstore_flushsize: Some(Attr {
            value: 0,
            origin: table_attr("MEMSTORE_FLUSHSIZE"),
        }),
        ..TableAttributes::default()
    };
    // HBase's sanity check refuses a 0 flush size at table creation...
    assert!(Settings::resolve(&c, &table).is_err());
    // ...and with the checks off, HRegion falls back to the site key.
    let mut c = c;
    c.set("hbase.table.sanity.checks", "false", Origin::CommandLine)
        .expect("set");
    let s = Settings::resolve(&c, &table).expect("resolves");
    assert_eq!(s.flush_size, 64 << 20);
    let eff = effective(&c, &table).expect("effective");
    let flush = eff
        .iter()
        .find(|e| e.key == "hbase.hregion.memstore.flush.size")
        .expect("listed");
    assert_eq!(flush.value, "64MB");
    assert!(matches!(flush.origin, Origin::File { .. }));
    assert!(flush.note.as_deref().is_some_and(|n| n.contains("ignored")));
}

#[test]
fn key_prefix_policy_without_prefix_length_splits_like_increasing() {
    let with_policy = |len: Option<u64>| TableAttributes {
        split_policy: Some(Attr {
            value: "KeyPrefixRegionSplitPolicy".into(),
            origin: table_attr("SPLIT_POLICY"),
        }),
        key_prefix_length: len.map(|value| Attr {
            value,
            origin: table_attr(settings::PREFIX_LENGTH_ATTR),
        }),
        ..TableAttributes::default()
    };
    let c = SiteConfig::with_defaults();
    let s = Settings::resolve(&c, &with_policy(Some(4))).expect("resolves");
    assert_eq!(
        (s.split_policy, s.key_prefix_length),
        (SplitPolicy::KeyPrefix, Some(4))
    );
    assert!(s.warnings.is_empty());
    for bad in [None, Some(0)] {
        let s = Settings::resolve(&c, &with_policy(bad)).expect("HBase only logs");
        assert_eq!(
            (s.split_policy, s.key_prefix_length),
            (SplitPolicy::KeyPrefix, None)
        );
        assert!(
            s.warnings.iter().any(|w| w.contains("not truncated")),
            "{:?}",
            s.warnings
        );
    }
}

#[test]
fn hbase_corrections_become_warnings() {
    let c = site(&[
        ("hbase.regionserver.global.memstore.size", "0.9"),
        ("hbase.regionserver.global.memstore.size.lower.limit", "1.5"),
        ("hbase.busy.policy.blockedRequests", "1.0"),
        ("hbase.hstore.flusher.count", "0"),
        ("hbase.offpeak.start.hour", "25"),
        ("hbase.offpeak.end.hour", "3"),
        ("hbase.hregion.split.overallfiles", "yes"),
        ("hbase.normalizer.merge.min.region.count", "0"),
        ("hbase.normalizer.merge.min_region_age.days", "-2"),
    ]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("resolves");
    assert_eq!(s.global_memstore_fraction, 0.4);
    assert_eq!(s.global_memstore_lower_limit, 1.0);
    assert_eq!(s.busy_blocked_requests, 0.2);
    assert_eq!(s.flusher_count, 1);
    assert_eq!(s.offpeak_hours, None);
    assert!(!s.split_overallfiles);
    assert_eq!(s.merge_min_region_count, 1);
    assert_eq!(s.merge_min_region_age_days, 0);
    assert_eq!(s.warnings.len(), 8, "{:#?}", s.warnings);
}

#[test]
fn compaction_min_falls_back_to_threshold_and_offpeak_parses() {
    let c = site(&[
        ("hbase.hstore.compactionThreshold", "5"),
        ("hbase.offpeak.start.hour", "22"),
        ("hbase.offpeak.end.hour", "6"),
        ("hbase.regionserver.optionalcacheflushinterval", "0"),
    ]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("resolves");
    assert_eq!(s.compaction_min_files, 5);
    assert_eq!(s.offpeak_hours, Some((22, 6)));
    assert!(
        !s.warnings.iter().any(|w| w.contains("off-peak")),
        "off-peak hours are modelled: {:?}",
        s.warnings
    );
    assert_eq!(s.flush_interval_ms, None);
    let c = site(&[("hbase.hstore.compaction.min", "1")]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("resolves");
    assert_eq!(s.compaction_min_files, 2, "max(2, min)");
}

// CompactionThroughputControllerFactory (class names, the pre-2.0 package still accepted) and
// PressureAwareCompactionThroughputController.setConf (check interval defaults to the lower bound;
// a tune period <= 0 leaves the chore unscheduled).
#[test]
fn compaction_throughput_controller_keys() {
    let c = site(&[
        (
            "hbase.regionserver.throughput.controller",
            "org.apache.hadoop.hbase.regionserver.compactions.NoLimitThroughputController",
        ),
        ("hbase.hstore.compaction.throughput.lower.bound", "0"),
    ]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("unused bounds are free");
    assert_eq!(
        s.compaction_throughput_controller,
        ThroughputControllerClass::NoLimit
    );
    let c = site(&[
        (
            "hbase.regionserver.throughput.controller",
            "PressureAwareCompactionThroughputController",
        ),
        ("hbase.hstore.compaction.throughput.lower.bound", "20MB"),
        ("hbase.hstore.compaction.throughput.tune.period", "0"),
    ]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("resolves");
    assert_eq!(s.compaction_throughput_lower_bound, 20 << 20);
    assert_eq!(s.compaction_throughput_check_interval, 20 << 20);
    assert_eq!(s.compaction_throughput_tune_period_ms, None);
    assert_eq!(
        derived_value(
            &s,
            "hbase.hstore.compaction.throughput.control.check.interval"
        ),
        Some(20 << 20)
    );
    let c = site(&[
        (
            "hbase.hstore.compaction.throughput.control.check.interval",
            "-1",
        ),
        ("hbase.hstore.compaction.throughput.tune.period", "1s"),
    ]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("resolves");
    assert_eq!(s.compaction_throughput_check_interval, 0);
    assert_eq!(s.compaction_throughput_tune_period_ms, Some(1_000));
    for (key, value) in [
        (
            "hbase.regionserver.throughput.controller",
            "org.apache.hadoop.hbase.regionserver.throttle.Mystery",
        ),
        ("hbase.hstore.compaction.throughput.higher.bound", "0"),
    ] {
        let err = Settings::resolve(&site(&[(key, value)]), &TableAttributes::default())
            .expect_err(key)
            .to_string();
        assert!(err.contains(key), "{err}");
    }
}

#[test]
fn effective_lists_every_key_in_table_order() {
    let c = site(&[("hbase.regions.slop", "0.001")]);
    let eff = effective(&c, &TableAttributes::default()).expect("effective");
    let names: Vec<&str> = eff.iter().map(|e| e.key.as_str()).collect();
    let expected: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
    assert_eq!(names, expected);
    let slop = eff
        .iter()
        .find(|e| e.key == "hbase.regions.slop")
        .expect("slop");
    assert_eq!(slop.value, "0.001");
    assert!(matches!(&slop.origin, Origin::File { line: 5, .. }));
    let initial = eff
        .iter()
        .find(|e| e.key == "hbase.increasing.policy.initial.size")
        .expect("listed");
    assert_eq!(initial.value, "");
    assert!(
        initial
            .note
            .as_deref()
            .is_some_and(|n| n.contains("flush size"))
    );
}

#[test]
fn find_variable_matches_hadoop_rules() {
    assert_eq!(find_variable("a${b}c"), Some((1, 3..4, 5)));
    assert_eq!(find_variable("${}${x}"), Some((3, 5..6, 7)));
    assert_eq!(find_variable("${a b}${c}"), Some((6, 8..9, 10)));
    assert_eq!(find_variable("${a$b}"), None);
    assert_eq!(find_variable("${a${b}"), Some((3, 5..6, 7)));
    assert_eq!(find_variable("${open"), None);
    assert_eq!(find_variable("plain"), None);
}

/// `RegionSplitRestriction.create` + `KeyPrefixRegionSplitRestriction.initialize` /
/// `DelimitedKeyPrefixRegionSplitRestriction.initialize`: the table attribute wins, else the
/// site key; the restriction's own value is read the same way, independently of where the type
/// came from; a bad type, length or delimiter is logged and leaves no restriction.
#[test]
fn split_restriction_reads_the_table_then_the_site() {
    use settings::{
        SPLIT_RESTRICTION_DELIMITER_KEY as DELIM, SPLIT_RESTRICTION_PREFIX_LENGTH_KEY as LEN,
        SPLIT_RESTRICTION_TYPE_KEY as TYPE,
    };
    let none = TableAttributes::default();
    let resolve = |c: &SiteConfig, t: &TableAttributes| Settings::resolve(c, t).expect("resolves");

    // Default: None, without a warning.
    let s = resolve(&SiteConfig::with_defaults(), &none);
    assert_eq!(s.split_restriction, SplitRestriction::None);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);

    // Site keys alone.
    let c = site(&[(TYPE, "KeyPrefix"), (LEN, "4")]);
    assert_eq!(
        resolve(&c, &none).split_restriction,
        SplitRestriction::KeyPrefix { prefix_length: 4 }
    );
    let c = site(&[(TYPE, "DelimitedKeyPrefix"), (DELIM, "|")]);
    assert_eq!(
        resolve(&c, &none).split_restriction,
        SplitRestriction::DelimitedKeyPrefix {
            delimiter: b"|".to_vec()
        }
    );

    // The table's type with the site's length; the table's length wins over the site's.
    let c = site(&[(LEN, "3")]);
    let mut t = TableAttributes {
        split_restriction_type: Some(Attr {
            value: "KeyPrefix".into(),
            origin: table_attr(TYPE),
        }),
        ..TableAttributes::default()
    };
    assert_eq!(
        resolve(&c, &t).split_restriction,
        SplitRestriction::KeyPrefix { prefix_length: 3 }
    );
    t.split_restriction_prefix_length = Some(Attr {
        value: 6,
        origin: table_attr(LEN),
    });
    let s = resolve(&c, &t);
    assert_eq!(
        s.split_restriction,
        SplitRestriction::KeyPrefix { prefix_length: 6 }
    );
    let eff = effective(&c, &t).unwrap();
    let len = eff.iter().find(|e| e.key == LEN).unwrap();
    assert_eq!((len.value.as_str(), &len.origin), ("6", &table_attr(LEN)));

    // A table type of None beats a site type.
    let c = site(&[(TYPE, "KeyPrefix"), (LEN, "2")]);
    let t = TableAttributes {
        split_restriction_type: Some(Attr {
            value: "None".into(),
            origin: table_attr(TYPE),
        }),
        ..TableAttributes::default()
    };
    assert_eq!(resolve(&c, &t).split_restriction, SplitRestriction::None);

    // Logged by HBase, then no restriction: case matters in the type; the length must parse
    // as an int > 0; the delimiter must be set.
    for props in [
        vec![(TYPE, "keyprefix"), (LEN, "4")],
        vec![(TYPE, "KeyPrefix")],
        vec![(TYPE, "KeyPrefix"), (LEN, "0")],
        vec![(TYPE, "KeyPrefix"), (LEN, "four")],
        vec![(TYPE, "DelimitedKeyPrefix")],
    ] {
        let s = resolve(&site(&props), &none);
        assert_eq!(s.split_restriction, SplitRestriction::None, "{props:?}");
        assert!(
            s.warnings.iter().any(|w| w.contains("split_restriction")),
            "{props:?}: {:?}",
            s.warnings
        );
    }
}

/// `KeyPrefixRegionSplitRestriction.getRestrictedSplitPoint` /
/// `DelimitedKeyPrefixRegionSplitRestriction.getRestrictedSplitPoint`.
#[test]
fn split_restriction_cuts_rows() {
    let kp = SplitRestriction::KeyPrefix { prefix_length: 3 };
    assert_eq!(kp.restrict(b"abcdef".to_vec()), b"abc");
    assert_eq!(kp.restrict(b"ab".to_vec()), b"ab");
    let dk = SplitRestriction::DelimitedKeyPrefix {
        delimiter: b"::".to_vec(),
    };
    assert_eq!(dk.restrict(b"a:b::c::d".to_vec()), b"a:b");
    // No delimiter: unchanged (HBase logs a warning).
    assert_eq!(dk.restrict(b"abc".to_vec()), b"abc");
    assert_eq!(dk.restrict(b"::x".to_vec()), b"");
    assert_eq!(SplitRestriction::None.restrict(b"x".to_vec()), b"x");
}

// HRegionServer.PeriodicMemStoreFlusher (rangeofdelayseconds, default 300 s; `nextLong(range)`
// fails unless positive) and HMaster.createProcedureExecutor (procedure.threads, default
// max(16, cores / 4); ≤ 0 falls back to the default with a warning).
#[test]
fn periodic_flush_delay_range_and_master_procedure_threads() {
    let s = Settings::resolve(&site(&[]), &TableAttributes::default()).expect("resolves");
    assert_eq!(s.periodic_flush_delay_range_ms, 300_000);
    assert_eq!(s.master_procedure_threads, 16);
    let c = site(&[
        (
            "hbase.regionserver.periodicmemstoreflusher.rangeofdelayseconds",
            "5",
        ),
        ("hbase.master.procedure.threads", "0"),
    ]);
    let s = Settings::resolve(&c, &TableAttributes::default()).expect("resolves");
    assert_eq!(s.periodic_flush_delay_range_ms, 5_000);
    assert_eq!(s.master_procedure_threads, 16);
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("hbase.master.procedure.threads")),
        "{:?}",
        s.warnings
    );
    let c = site(&[(
        "hbase.regionserver.periodicmemstoreflusher.rangeofdelayseconds",
        "0",
    )]);
    let e = Settings::resolve(&c, &TableAttributes::default())
        .expect_err("a zero range is refused")
        .to_string();
    assert!(
        e.contains("rangeofdelayseconds") && e.contains("1 or more"),
        "{e}"
    );
}

/// `hbase-emu config` shows a value as HBase reads it (`Configuration.getLong` of a size given
/// with units, hex, `getBoolean` ignoring case), and the text as given when it differs.
#[test]
fn effective_values_are_shown_normalised() {
    let ev = |key: &str, value: &str| EffectiveValue {
        key: key.to_string(),
        value: value.to_string(),
        origin: Origin::CommandLine,
        note: None,
    };
    let v = ev("hbase.hregion.max.filesize", "2g");
    assert_eq!(v.normalised().as_deref(), Some("2147483648"));
    assert_eq!(v.display(), "2147483648 (2.00 GiB); given as 2g");
    assert_eq!(
        ev("hbase.hstore.blockingStoreFiles", "0x10")
            .normalised()
            .as_deref(),
        Some("16")
    );
    assert_eq!(
        ev("hbase.hregion.split.overallfiles", "TRUE")
            .normalised()
            .as_deref(),
        Some("true")
    );
    let plain = ev("hbase.hregion.max.filesize", "1073741824");
    assert_eq!(plain.display(), "1073741824 (1.00 GiB)");
    assert_eq!(ev("hbase.hregion.max.filesize", "").normalised(), None);
}
