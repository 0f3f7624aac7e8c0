//! What-ifs from the command line: `run` and `check` take `--set KEY=VALUE` (repeatable). Keys
//! and values are read as `sweep --vary` reads them ([`vary::from_set_flags`]), written into the
//! scenario's TOML document the way a sweep point is ([`vary::write_point`]), and the document is
//! validated again as any scenario file is: a value of the wrong type or an unknown key gets
//! the scenario's own error, naming the override.

use crate::diag::{InputError, SourceText};
use crate::experiment::vary::{self, Grid};
use crate::scenario::{self, Scenario, ScenarioErrors};

/// `KEY=VALUE` as a person writes it.
fn describe(key: &str, value: &toml::Value) -> String {
    format!("{key}={}", vary::display(value))
}

/// `--set KEY=VALUE, --set KEY=VALUE` of every override (messages).
pub fn describe_all(overrides: &[(String, toml::Value)]) -> String {
    overrides
        .iter()
        .map(|(k, v)| format!("--set {}", describe(k, v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `--set KEY=VALUE` of the overrides that set hbase-site key `site_key` (directly, or through
/// the `[table]` attribute that wins over it); of all overrides when none does (a value one of
/// them changed indirectly).
pub fn describe_for(overrides: &[(String, toml::Value)], site_key: &str) -> String {
    let direct: Vec<(String, toml::Value)> = overrides
        .iter()
        .filter(|(k, _)| match vary::resolve(k) {
            Ok(vary::Target::Site(key)) => key == site_key,
            Ok(vary::Target::Field(path)) => {
                path.len() == 2
                    && path[0] == "table"
                    && vary::shadowed_site_key(&path[1]) == Some(site_key)
            }
            _ => false,
        })
        .cloned()
        .collect();
    describe_all(if direct.is_empty() {
        overrides
    } else {
        &direct
    })
}

/// The scenario `base` (as loaded from its file) with the `--set` flags applied: the overrides
/// are checked (key, one value, each field once), written into the file's document and the
/// document validated again. `base` itself when there are none.
pub fn apply(base: Scenario, flags: &[String]) -> Result<Scenario, ScenarioErrors> {
    if flags.is_empty() {
        return Ok(base);
    }
    let path = base.source.path.clone();
    let grid = vary::from_set_flags(flags).map_err(|e| e.in_file(&path))?;
    let overrides: Vec<(String, toml::Value)> = grid
        .axes
        .iter()
        .map(|a| (a.key.clone(), a.values[0].clone()))
        .collect();
    let mut doc: toml::Table = toml::from_str(&base.source.text)
        .map_err(|e| InputError::new(e.message().to_string()).in_file(&path))?;
    vary::write_point(&mut doc, &grid, 0).map_err(|(axis, problem)| {
        let (k, v) = &overrides[axis];
        InputError::new(format!("--set {}: {problem}", describe(k, v)))
            .in_file(&path)
            .field(format!("--set {k}"))
    })?;
    let text =
        toml::to_string(&doc).map_err(|e| InputError::new(format!("--set: {e}")).in_file(&path))?;
    let src = SourceText::from_string(path, text);
    let mut s = scenario::load_source(src.clone()).map_err(|errs| blame(errs, &grid, &src))?;
    crate::experiment::expect::compile(&s).map_err(|errs| blame(errs, &grid, &src))?;
    s.overrides = overrides;
    Ok(s)
}

/// Errors of the rewritten scenario (`s`, with overrides) name the overrides instead of a line
/// of a text the user never saw: the override whose key the error names, else all of them.
/// Errors placed elsewhere (a site file, a SPLITS_FILE) are left as they are.
pub fn blame_in(errs: ScenarioErrors, s: &Scenario) -> ScenarioErrors {
    if s.overrides.is_empty() {
        return errs;
    }
    let grid = Grid {
        axes: s
            .overrides
            .iter()
            .map(|(k, v)| vary::Axis {
                key: k.clone(),
                target: vary::resolve(k).unwrap_or(vary::Target::Site(k.clone())),
                values: vec![v.clone()],
                origin: vary::Origin::Flag,
            })
            .collect(),
    };
    blame(errs, &grid, &s.source)
}

fn blame(errs: ScenarioErrors, grid: &Grid, src: &SourceText) -> ScenarioErrors {
    ScenarioErrors(
        errs.0
            .into_iter()
            .map(|e| blame_one(e, grid, src))
            .collect(),
    )
}

fn blame_one(e: InputError, grid: &Grid, src: &SourceText) -> InputError {
    let in_rewritten =
        e.placed_in(src) || (e.file.as_deref() == Some(&*src.path) && e.line.is_none());
    if !in_rewritten {
        return e;
    }
    let field = e.field.clone().unwrap_or_default();
    let mine = grid.axes.iter().find(|a| {
        let canonical = match &a.target {
            vary::Target::Field(path) => path.join("."),
            vary::Target::Site(k) => k.clone(),
            vary::Target::Generator { field, .. } => field.join("."),
        };
        !field.is_empty()
            && (field == a.key
                || field == canonical
                || field.ends_with(&format!(".{canonical}"))
                || field.ends_with(&format!("[{canonical}]")))
    });
    let named = match mine {
        Some(a) => format!("--set {}", describe(&a.key, &a.values[0])),
        None => grid
            .axes
            .iter()
            .map(|a| format!("--set {}", describe(&a.key, &a.values[0])))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let problem = format!("with {named}: {}", e.problem);
    let mut out = e.unplaced().reword(problem);
    if out.field.is_none()
        && let Some(a) = mine.or_else(|| grid.axes.first())
    {
        out = out.field(a.key.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::overrides::{text_line, to_json};

    const TEXT: &str = "name = \"t\"\nseed = 3\n[cluster]\nregionservers = 3\n[table]\n\
                        max_filesize = \"1GB\"\n[workload]\nrows = 1000\n\
                        [[generator]]\nname = \"s\"\nkind = \"salted\"\nbuckets = 4\n";

    fn base() -> Scenario {
        scenario::load_source(SourceText::from_string("t.toml", TEXT)).unwrap()
    }

    fn flags(f: &[&str]) -> Vec<String> {
        f.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn no_flags_leave_the_scenario_as_loaded() {
        let b = base();
        let s = apply(b.clone(), &[]).unwrap();
        assert!(s.overrides.is_empty());
        assert!(std::sync::Arc::ptr_eq(&s.source.text, &b.source.text));
        assert!(to_json(&s.overrides).is_empty());
    }

    #[test]
    fn overrides_reach_every_kind_of_key_and_are_recorded() {
        let s = apply(
            base(),
            &flags(&[
                "servers=5",
                "MAX_FILESIZE=2GB",
                "generator.s.buckets=8",
                "hbase.hstore.blockingStoreFiles=40",
            ]),
        )
        .unwrap();
        assert_eq!(s.cluster.regionservers, 5);
        assert_eq!(s.settings.max_filesize, 2 << 30);
        assert_eq!(
            s.site.get_raw("hbase.hstore.blockingStoreFiles"),
            Some("40")
        );
        assert_eq!(s.seed, 3);
        assert_eq!(s.overrides.len(), 4);
        assert_eq!(
            s.overrides[0],
            ("servers".to_string(), toml::Value::Integer(5))
        );
        let json = to_json(&s.overrides);
        assert_eq!(json["MAX_FILESIZE"], serde_json::json!("2GB"));
        assert_eq!(json["servers"], serde_json::json!(5));
        let line = text_line(&json);
        assert!(
            line.starts_with("Overrides --set MAX_FILESIZE=2GB, "),
            "{line}"
        );
        assert!(line.contains("--set servers=5"), "{line}");
    }

    #[test]
    fn a_bad_value_names_the_override_field_and_expectation_without_a_line() {
        let errs = apply(base(), &flags(&["cluster.regionservers=many"])).unwrap_err();
        let e = &errs.0[0];
        assert!(
            e.problem
                .starts_with("with --set cluster.regionservers=many: "),
            "{}",
            e.problem
        );
        assert_eq!(e.field.as_deref(), Some("cluster.regionservers"));
        assert!(e.expected.is_some());
        // The rewritten text is not the user's: no line, column or snippet of it.
        assert_eq!(e.line, None);
        assert_eq!(e.file.as_deref(), Some(std::path::Path::new("t.toml")));
        let errs = apply(base(), &flags(&["generator.zz.buckets=2"])).unwrap_err();
        assert!(
            errs.0[0].problem.contains("it has: s"),
            "{}",
            errs.0[0].problem
        );
    }

    #[test]
    fn later_errors_in_the_rewritten_scenario_name_the_overrides() {
        let s = apply(base(), &flags(&["servers=4", "seed=9"])).unwrap();
        let placed = InputError::new("bad split key")
            .at(&s.source, 0..4)
            .field("table.presplit");
        let elsewhere =
            InputError::new("bad line").at(&SourceText::from_string("k.txt", "x"), 0..1);
        let out = blame_in(ScenarioErrors(vec![placed, elsewhere.clone()]), &s);
        assert_eq!(
            out.0[0].problem,
            "with --set servers=4, --set seed=9: bad split key"
        );
        assert_eq!(out.0[0].line, None);
        assert_eq!(out.0[1].problem, elsewhere.problem);
        assert_eq!(out.0[1].line, Some(1));
        // Without overrides nothing is touched.
        let b = base();
        let e = InputError::new("p").at(&b.source, 0..1);
        assert_eq!(blame_in(ScenarioErrors(vec![e]), &b).0[0].line, Some(1));
    }

    #[test]
    fn describe_for_names_the_override_behind_a_setting() {
        let o = vec![
            ("MAX_FILESIZE".to_string(), toml::Value::from("2GB")),
            (
                "hbase.hstore.blockingStoreFiles".to_string(),
                toml::Value::from(40),
            ),
        ];
        assert_eq!(
            describe_for(&o, "hbase.hregion.max.filesize"),
            "--set MAX_FILESIZE=2GB"
        );
        assert_eq!(
            describe_for(&o, "hbase.hstore.blockingStoreFiles"),
            "--set hbase.hstore.blockingStoreFiles=40"
        );
        assert_eq!(
            describe_for(&o, "hbase.hstore.compactionThreshold"),
            "--set MAX_FILESIZE=2GB, --set hbase.hstore.blockingStoreFiles=40"
        );
    }
}
