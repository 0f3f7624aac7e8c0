//! The real hbase-default.xml of HBase branch-2.6 must give exactly the built-in defaults.

use std::collections::BTreeMap;
use std::path::Path;

use hbase_emu::config::{
    InXml, KEYS, Kind, Origin, Settings, SiteConfig, TableAttributes, effective, parse_java_bool,
    parse_java_float, parse_java_long, site_xml,
};
use hbase_emu::diag::SourceText;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/fixtures/hbase-default.xml"
);

fn fixture(test: &str) -> Option<SourceText> {
    let path = Path::new(FIXTURE);
    if !path.exists() {
        crate::common::skipped(
            &format!("config_fixture::{test}"),
            &format!("{FIXTURE} is absent"),
        );
        return None;
    }
    Some(SourceText::read(path, "hbase-default.xml").expect("fixture is readable"))
}

/// The typed reading of a value, so `1.2F` equals `1.2` and `0.50` equals `0.5`.
#[derive(Debug, PartialEq)]
enum Typed {
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(String),
}

fn typed(kind: Kind, v: &str) -> Typed {
    match kind {
        Kind::Bytes | Kind::Long | Kind::Int | Kind::Millis => {
            Typed::Int(parse_java_long(v).unwrap_or_else(|| panic!("`{v}` is not a long")))
        }
        Kind::Float | Kind::Double => {
            Typed::Real(parse_java_float(v).unwrap_or_else(|| panic!("`{v}` is not a number")))
        }
        Kind::Bool => Typed::Bool(parse_java_bool(v).unwrap_or_else(|| panic!("`{v}` is no bool"))),
        Kind::Class | Kind::Text => Typed::Text(v.trim().to_string()),
    }
}

#[test]
fn every_modelled_key_is_classified_as_in_hbase_default_xml() {
    let Some(src) = fixture("every_modelled_key_is_classified_as_in_hbase_default_xml") else {
        return;
    };
    let props = site_xml::parse(&src).expect("hbase-default.xml parses");
    assert!(props.len() > 150, "only {} properties read", props.len());
    let by_name: BTreeMap<&str, Option<&str>> = props
        .iter()
        .map(|p| (p.name.as_str(), p.value.as_deref()))
        .collect();
    for k in KEYS {
        match (k.xml, by_name.get(k.name)) {
            (InXml::Same, Some(Some(v))) => {
                let default = k
                    .default
                    .unwrap_or_else(|| panic!("{} has no default", k.name));
                assert_eq!(typed(k.kind, v), typed(k.kind, default), "{}", k.name);
            }
            (InXml::Empty, Some(None)) | (InXml::Absent, None) => {}
            (want, got) => panic!(
                "{}: expected {want:?} in hbase-default.xml, found {got:?}",
                k.name
            ),
        }
    }
}

#[test]
fn hbase_default_xml_resolves_to_the_built_in_defaults() {
    let Some(src) = fixture("hbase_default_xml_resolves_to_the_built_in_defaults") else {
        return;
    };
    let builtin = SiteConfig::with_defaults();

    // Built-in defaults with the file layered on top (what `hbase-emu` does when given it).
    let mut layered = SiteConfig::with_defaults();
    layered.load_source(&src).expect("hbase-default.xml loads");
    assert!(layered.warnings().is_empty(), "{:?}", layered.warnings());

    // The file alone, as a RegionServer sees it: code defaults apply to empty and absent keys.
    let mut alone = SiteConfig::default();
    alone.load_source(&src).expect("hbase-default.xml loads");

    for k in KEYS {
        let want = builtin.get(k.name).expect("built-in value");
        let got = layered.get(k.name).expect("layered value");
        match (&want, &got) {
            (Some(w), Some(g)) => assert_eq!(typed(k.kind, g), typed(k.kind, w), "{}", k.name),
            (None, None) => {}
            _ => panic!(
                "{}: built-in {want:?}, with hbase-default.xml {got:?}",
                k.name
            ),
        }
        // Keys with an XML value now come from the file, at the line of their <value>.
        if k.xml == InXml::Same {
            match layered.origin(k.name) {
                Some(Origin::File { line, .. }) => {
                    let text = src.text.lines().nth(line - 1).unwrap_or("");
                    assert!(
                        text.contains("<value>"),
                        "{}: line {line} is `{text}`",
                        k.name
                    );
                }
                other => panic!("{}: origin {other:?}", k.name),
            }
        } else {
            assert_eq!(
                layered.origin(k.name).cloned(),
                builtin.origin(k.name).cloned()
            );
        }
    }

    let table = TableAttributes::default();
    let want = Settings::resolve(&builtin, &table).expect("built-in defaults resolve");
    assert_eq!(
        Settings::resolve(&layered, &table).expect("layered resolves"),
        want
    );
    assert_eq!(
        Settings::resolve(&alone, &table).expect("file alone resolves"),
        want
    );
    assert_eq!(
        want.global_memstore_fraction, 0.4,
        "empty in XML: code default"
    );
    assert_eq!(
        want.compaction_min_files, 3,
        "empty in XML: max(2, compactionThreshold)"
    );
    assert_eq!(want.compaction_ratio, 1.2, "`1.2F` in XML");

    let eff = effective(&layered, &table).expect("effective");
    assert_eq!(eff.len(), KEYS.len());
}

#[test]
fn shipped_configs_load_and_resolve() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/configs"));
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("configs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    for path in names {
        let mut c = SiteConfig::with_defaults();
        c.load_file(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let s = Settings::resolve(&c, &TableAttributes::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            s.warnings.is_empty(),
            "{}: {:?}",
            path.display(),
            s.warnings
        );
        let n = c
            .properties()
            .filter(|(_, _, o)| matches!(o, Origin::File { .. }))
            .count();
        assert!(n >= 1, "{} sets nothing", path.display());
    }
}
