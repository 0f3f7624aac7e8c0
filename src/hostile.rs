//! Entry points that feed arbitrary bytes to every reader of user input, as the commands read
//! them: scenario TOML, hbase-site.xml, the three import formats, a saved run report (`report`,
//! `diff`), a sweep slice (`merge`) and a key file (`advise --keys`, `generator.path`). Each
//! returns whether the input was accepted; an error is rendered (the snippet is part of what
//! must not panic). The property tests (tests/it/hostile_props.rs) and the fuzz targets
//! (fuzz/) call these, so a crash either finds becomes a test of the other.

use std::path::Path;

use crate::diag::{InputError, SourceText};

/// The readers, by name (one fuzz target each).
pub const READERS: [&str; 9] = [
    "scenario",
    "site_xml",
    "import_csv",
    "import_list_regions",
    "import_jmx",
    "report_json",
    "sweep_json",
    "keys_file",
    "keys_file_hex",
];

/// Feeds `bytes` to reader `name` (one of [`READERS`]): `Ok` when accepted, the error's
/// rendering otherwise. Unknown names are a caller's bug and panic.
pub fn feed(name: &str, bytes: &[u8]) -> Result<(), String> {
    let path = Path::new(match name {
        "scenario" => "fuzz.toml",
        "site_xml" => "fuzz-site.xml",
        "report_json" => "report.json",
        "sweep_json" => "sweep.json",
        _ => "fuzz.txt",
    });
    let src = SourceText::from_bytes(path, bytes.to_vec(), name).map_err(|e| shown(&e))?;
    match name {
        "scenario" => scenario(src),
        "site_xml" => crate::config::SiteConfig::with_defaults()
            .load_source(&src)
            .map_err(|e| shown(&e)),
        "import_csv" => import(&src, crate::import::Format::Csv),
        "import_list_regions" => import(&src, crate::import::Format::ListRegions),
        "import_jmx" => import(&src, crate::import::Format::Jmx),
        "report_json" => crate::commands::parse_report(&src)
            .map(|r| {
                // `diff` of the report with itself and its text rendering read every field.
                let _ = r.to_text();
            })
            .map_err(|e| shown(&e)),
        "sweep_json" => crate::experiment::sweep_cmd::parse(&src)
            .map_err(|e| shown(&e))
            .and_then(|s| {
                let chosen: Vec<String> = crate::experiment::sweep::DEFAULT_FIGURES
                    .iter()
                    .map(|f| f.to_string())
                    .collect();
                let whole = crate::experiment::sweep::merge(vec![s.clone()]);
                let _ = crate::report::sweep_html::render(&s, &chosen);
                let _ = (s.to_csv(), s.to_text(&chosen));
                whole.map(drop).map_err(|e| e.to_string())
            }),
        "keys_file" => crate::keygen::keyfile::KeyFile::parse(src, false)
            .map(drop)
            .map_err(|e| shown(&e)),
        "keys_file_hex" => crate::keygen::keyfile::KeyFile::parse(src, true)
            .map(drop)
            .map_err(|e| shown(&e)),
        other => panic!("no reader `{other}`"),
    }
}

/// A scenario as `check` takes it: loaded, then its estimates (pure and cheap; nothing runs).
fn scenario(src: SourceText) -> Result<(), String> {
    let s = crate::scenario::load_source(src)
        .map_err(|errs| errs.0.iter().map(shown).collect::<Vec<_>>().join(""))?;
    crate::budget::check(&s).map_err(|e| shown(&e))?;
    let specs: Vec<_> = s.generators.iter().collect();
    let e = crate::budget::estimate(&s, &specs, None, 1).map_err(|e| shown(&e))?;
    crate::budget::refuse(&s, &e, 1 << 30).map_err(|e| shown(&e))
}

/// An import of one format; a JMX dump takes its keys from a fixed small CSV.
fn import(src: &SourceText, format: crate::import::Format) -> Result<(), String> {
    use crate::import::{Format, csv, jmx, list_regions};
    let t = match format {
        Format::Csv => csv::parse(src),
        Format::ListRegions => list_regions::parse(src),
        Format::Jmx => {
            let ksrc = SourceText::from_string(
                "keys.csv",
                "start,end,server,store_bytes,store_files,region\n\
                 ,m,rs1,1,1,0123456789abcdef0123456789abcdef\n\
                 m,,rs2,1,1,fedcba9876543210fedcba9876543210\n",
            );
            let keys = csv::parse(&ksrc).map_err(|e| shown(&e))?;
            return jmx::parse(src, None, &keys, &ksrc)
                .and_then(|t| t.validate(&ksrc))
                .map(|t| drop((t.to_csv(), t.server_totals())))
                .map_err(|e| shown(&e));
        }
    };
    t.and_then(|t| t.validate(src))
        .map(|t| drop((t.to_csv(), t.server_totals(), t.total_store_bytes())))
        .map_err(|e| shown(&e))
}

/// Both renderings of an error: the one-line form and the snippet.
fn shown(e: &InputError) -> String {
    format!("{e}\n{}", e.render())
}
