//! Errors on hostile scenario input say where (file:line:column of the offending value) and what
//! (the limit, the expectation), echo a long value once and shortened, and never panic.

use assert_cmd::Command;
use hbase_emu::diag::{InputError, SourceText};
use hbase_emu::scenario::{self, ScenarioErrors};

const SMALL: &str = include_str!("../data/small.toml");

/// `SMALL` with `extra` inserted after its `seed = 7` line (line 4), so it lands on line 5.
fn with_top_level(extra: &str) -> String {
    SMALL.replacen("seed = 7\n", &format!("seed = 7\n{extra}\n"), 1)
}

fn load(text: &str) -> Result<scenario::Scenario, ScenarioErrors> {
    scenario::load_source(SourceText::from_string("tests/data/x.toml", text))
}

fn only_error(text: &str) -> InputError {
    let errors = load(text).expect_err("the scenario is refused");
    assert_eq!(errors.0.len(), 1, "{errors}");
    errors.0[0].clone()
}

#[test]
fn a_dotted_key_of_20000_parts_is_placed_at_its_own_line_with_the_limit() {
    let key = vec!["a"; 20_000].join(".");
    let e = only_error(&with_top_level(&format!("{key} = 1")));
    assert_eq!((e.line, e.column), (Some(5), Some(1)), "{e}");
    assert!(e.problem.contains("20,000 parts"), "{e}");
    assert!(e.problem.contains("too deeply"), "{e}");
    assert!(
        e.expected.as_deref().is_some_and(|x| x.contains("80")),
        "{e}"
    );
    // The key itself is echoed shortened, not 40,000 characters long.
    assert!(e.render().len() < 2_000, "{}", e.render());
}

#[test]
fn a_dotted_table_header_of_too_many_parts_is_placed_too() {
    let header = vec!["t"; 100].join(".");
    let e = only_error(&format!("{SMALL}\n[{header}]\nx = 1\n"));
    let line = SMALL.lines().count() + 2;
    assert_eq!((e.line, e.column), (Some(line), Some(2)), "{e}");
    assert!(e.problem.contains("100 parts"), "{e}");
}

#[test]
fn arrays_nested_10000_deep_say_too_deeply_where_and_the_limit() {
    let value = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let e = only_error(&with_top_level(&format!("x = {value}")));
    // The 81st bracket (after `x = `) is the first one too deep.
    assert_eq!((e.line, e.column), (Some(5), Some(85)), "{e}");
    assert_eq!(e.field.as_deref(), Some("x"));
    assert!(e.problem.contains("nested too deeply"), "{e}");
    assert!(
        e.expected
            .as_deref()
            .is_some_and(|x| x.contains("at most 80 levels")),
        "{e}"
    );
    let shown = e.render();
    assert!(shown.contains("x.toml:5:85"), "{shown}");
    assert!(shown.len() < 2_000, "{shown}");
}

#[test]
fn inline_tables_nested_10000_deep_say_too_deeply_where_and_the_limit() {
    let value = format!("{}1{}", "{a=".repeat(10_000), "}".repeat(10_000));
    let e = only_error(&with_top_level(&format!("x = {value}")));
    assert_eq!(e.line, Some(5), "{e}");
    assert!(e.problem.contains("nested too deeply"), "{e}");
    assert!(
        e.expected.as_deref().is_some_and(|x| x.contains("80")),
        "{e}"
    );
}

/// RegionSplitter's `HexStringSplit`/`DecimalStringSplit` (`NumberStringSplit.setFirstRow` /
/// `setLastRow`) need first < last: a reversed range points at the `last_row` value, and the
/// same problem found for every generator is one error, not one per generator.
#[test]
fn reversed_first_and_last_row_point_at_the_last_row_value_region_splitter() {
    let text = SMALL.replacen(
        "memstore_flushsize = \"8MB\"\n",
        "memstore_flushsize = \"8MB\"\n\n[table.presplit]\nalgorithm = \"hex\"\nregions = 4\nfirst_row = \"ff\"\nlast_row   = \"10\"\n",
        1,
    );
    let s = load(&text).expect("loads: the range is checked when planning");
    let e = hbase_emu::plan::plan_run(&s, &s.generators[0])
        .err()
        .expect("refused");
    let line = text
        .lines()
        .position(|l| l.starts_with("last_row"))
        .unwrap()
        + 1;
    assert_eq!((e.line, e.column), (Some(line), Some(14)), "{e}");
    assert_eq!(e.field.as_deref(), Some("table.presplit.last_row"));
    assert!(e.problem.contains("HexStringSplit"), "{e}");

    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rev.toml");
    std::fs::write(&path, &text).expect("write");
    let out = Command::new(assert_cmd::cargo::cargo_bin!("hbase-emu"))
        .args(["check", path.to_str().expect("UTF-8")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("is not greater than").count(), 2, "{stderr}"); // header + label
    assert!(stderr.contains(&format!("rev.toml:{line}:14")), "{stderr}");
    assert!(!stderr.contains("problems found"), "{stderr}");
}

#[test]
fn a_100000_digit_value_is_echoed_once_and_shortened() {
    let digits = format!("4{}", "0".repeat(100_000));
    let text = SMALL.replacen("rows = 300_000", &format!("rows = \"{digits}\""), 1);
    let e = only_error(&text);
    let shown = e.render();
    let one_line = e.to_string();
    for s in [&shown, &one_line] {
        assert!(s.len() < 2_000, "{s}");
        assert!(s.contains("…(100,001 chars)"), "{s}");
    }
    // The message names the value once; the source line is shown cut to a window.
    assert_eq!(shown.matches("…(100,001 chars)").count(), 1, "{shown}");
    assert!(
        shown.contains(&format!("x.toml:{}:8", e.line.unwrap())),
        "{shown}"
    );

    let big_int = only_error(&SMALL.replacen("seed = 7", &format!("seed = {digits}"), 1));
    assert!(big_int.render().len() < 2_000);
    assert!(
        big_int
            .expected
            .as_deref()
            .is_some_and(|x| x.contains("9223372036854775807"))
    );
}

#[test]
fn an_empty_scenario_says_it_is_empty() {
    for text in ["", "\n\n  \n", "\u{feff}"] {
        let e = only_error(text);
        assert_eq!(e.problem, "the scenario file is empty", "{e}");
    }
}

#[test]
fn a_byte_order_mark_and_crlf_line_ends_are_read_as_usual() {
    let plain = load(SMALL).expect("loads");
    let bom = load(&format!("\u{feff}{SMALL}")).expect("a BOM is accepted");
    let crlf = load(&SMALL.replace('\n', "\r\n")).expect("CRLF is accepted");
    for s in [&bom, &crlf] {
        assert_eq!(s.name, plain.name);
        assert_eq!(s.workload.rows, plain.workload.rows);
        assert_eq!(s.generators.len(), plain.generators.len());
    }
}

#[test]
fn a_nul_byte_is_named_as_a_control_character_at_its_place() {
    let e = only_error(&SMALL.replacen("seed = 7", "seed = 7\u{0}", 1));
    assert_eq!((e.line, e.column), (Some(4), Some(9)), "{e}");
    assert!(e.problem.contains("U+0000"), "{e}");
}

#[test]
fn a_duplicate_key_is_placed_at_the_second_one() {
    let e = only_error(&with_top_level("seed = 8"));
    assert_eq!((e.line, e.column), (Some(5), Some(1)), "{e}");
    assert!(e.problem.contains("duplicate key"), "{e}");
}

/// HBase `Admin.createTable(desc, splitKeys)` takes any number of split keys; checking 100,000
/// of them for duplicates must not compare each with all before it.
#[test]
fn a_hundred_thousand_split_keys_load_and_a_duplicate_among_them_is_named() {
    let keys: Vec<String> = (0..100_000).map(|i| format!("\"k{i:07}\"")).collect();
    let presplit = |keys: &str| {
        SMALL.replacen(
            "memstore_flushsize = \"8MB\"\n",
            &format!("memstore_flushsize = \"8MB\"\n[table.presplit]\nalgorithm = \"keys\"\nkeys = [{keys}]\n"),
            1,
        )
    };
    let s = load(&presplit(&keys.join(","))).expect("loads");
    match &s.table.presplit {
        scenario::Presplit::Keys(k) => assert_eq!(k.len(), 100_000),
        other => panic!("{other:?}"),
    }
    let mut dup = keys.clone();
    dup.push("\"k0000042\"".into());
    let e = only_error(&presplit(&dup.join(",")));
    assert!(e.problem.contains("same as key #43"), "{e}");
}

#[test]
fn an_unknown_generator_kind_lists_the_known_ones() {
    let e = only_error(&SMALL.replacen("kind = \"md5-prefix\"", "kind = \"md6-prefix\"", 1));
    assert_eq!(e.field.as_deref(), Some("generator.kind"));
    assert!(e.problem.contains("md6-prefix"), "{e}");
    assert!(
        e.expected
            .as_deref()
            .is_some_and(|x| x.contains("md5-prefix")),
        "{e}"
    );
}

#[test]
fn negative_and_fractional_sizes_are_refused_at_the_value() {
    for (heap, says) in [
        ("\"-4GB\"", "negative"),
        ("-4", "negative"),
        ("0.5", "not a whole number"),
    ] {
        let e = only_error(&SMALL.replacen("heap = \"4GB\"", &format!("heap = {heap}"), 1));
        assert_eq!(e.field.as_deref(), Some("cluster.heap"), "{e}");
        assert_eq!((e.line, e.column), (Some(8), Some(8)), "{e}");
        assert!(e.problem.contains(says), "{heap}: {e}");
    }
}

#[test]
fn a_float_beyond_f64_says_so_and_what_fits() {
    let e = only_error(&SMALL.replacen("heap = \"4GB\"", "heap = 1e400", 1));
    assert_eq!(e.field.as_deref(), Some("cluster.heap"));
    assert!(e.problem.contains("overflowed"), "{e}");
    assert!(
        e.expected.as_deref().is_some_and(|x| x.contains("1.8e308")),
        "{e}"
    );
}
