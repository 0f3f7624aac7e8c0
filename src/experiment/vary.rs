//! What a sweep varies and how: a key (`--vary KEY=V1,V2` or a scenario's `[sweep] vary`)
//! resolves to a place in the scenario's TOML document, and a grid point writes its values there
//! before the document is validated as any scenario is. Every scenario field can so be varied
//! and a bad value gets the scenario's own error.

use std::ops::Range;

use toml::{Table, Value};

use crate::config::keys;
use crate::diag::{InputError, SourceText};
use crate::scenario::SweepVary;

/// Scenario tables and fields a key may start with (name, description and events are not
/// experiment parameters; `hbase` keys are hbase-site properties, resolved separately).
const SCENARIO_ROOTS: [&str; 6] = [
    "seed",
    "cluster",
    "table",
    "workload",
    "client",
    "generator",
];

/// Short names for the fields swept most often.
const ALIASES: [(&str, &str); 5] = [
    ("servers", "cluster.regionservers"),
    ("cluster.servers", "cluster.regionservers"),
    // HBase's table attribute names, as `alter` spells them.
    ("MAX_FILESIZE", "table.max_filesize"),
    ("MEMSTORE_FLUSHSIZE", "table.memstore_flushsize"),
    ("SPLIT_POLICY", "table.split_policy"),
];

/// hbase-site keys a `[table]` attribute wins over (as HBase's TableDescriptor values win over
/// the site configuration): sweeping the key under the attribute would change nothing.
const SHADOWED: [(&str, &str); 8] = [
    ("hbase.hregion.max.filesize", "max_filesize"),
    ("hbase.hregion.memstore.flush.size", "memstore_flushsize"),
    ("hbase.regionserver.region.split.policy", "split_policy"),
    ("hbase.table.normalization.enabled", "normalization_enabled"),
    ("hbase.normalizer.split.enabled", "normalizer_split_enabled"),
    ("hbase.normalizer.merge.enabled", "normalizer_merge_enabled"),
    (
        "hbase.normalizer.merge.min.region.count",
        "normalizer_merge_min_region_count",
    ),
    (
        "hbase.normalizer.merge.min_region_age.days",
        "normalizer_merge_min_region_age_days",
    ),
];

/// The hbase-site key a `[table]` attribute (`max_filesize`) wins over, if any.
pub fn shadowed_site_key(attribute: &str) -> Option<&'static str> {
    SHADOWED
        .iter()
        .find(|(_, a)| *a == attribute)
        .map(|(k, _)| *k)
}

/// Where a key's value goes in the scenario document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A path of keys from the document's root (`cluster.regionservers`,
    /// `table.presplit.regions`).
    Field(Vec<String>),
    /// A field of the `[[generator]]` named `name` (`*`: of every generator).
    Generator {
        /// The generator's name, or `*`.
        name: String,
        /// The path inside it (`buckets`).
        field: Vec<String>,
    },
    /// An hbase-site.xml property, set in `[hbase]` (the scenario's last site layer).
    Site(String),
}

/// Where an axis came from, for errors.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// `--vary` on the command line.
    Flag,
    /// The scenario's `[sweep]`: the key's span and each value's.
    File {
        /// The key.
        key: Range<usize>,
        /// The values, in order.
        values: Vec<Range<usize>>,
    },
}

/// One varied key and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The key as written.
    pub key: String,
    /// Where its values go.
    pub target: Target,
    /// The values, in the order given.
    pub values: Vec<Value>,
    /// Where it was written.
    pub origin: Origin,
}

/// A grid: axes in the order given; points are their cartesian product, the first axis
/// varying slowest (point 0 takes every axis's first value, point 1 the last axis's second…).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Grid {
    /// The axes.
    pub axes: Vec<Axis>,
}

impl Grid {
    /// Number of points.
    /// Saturates at `usize::MAX`: 64 keys of two values do not wrap to an empty grid.
    pub fn len(&self) -> usize {
        if self.axes.is_empty() {
            return 0;
        }
        self.axes
            .iter()
            .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
            .unwrap_or(usize::MAX)
    }

    /// Whether the grid has no point.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value index on each axis of point `index` (row-major, last axis fastest).
    pub fn coordinates(&self, index: usize) -> Vec<usize> {
        let mut rest = index;
        let mut out = vec![0; self.axes.len()];
        for (i, a) in self.axes.iter().enumerate().rev() {
            let n = a.values.len().max(1);
            out[i] = rest % n;
            rest /= n;
        }
        out
    }

    /// The values of point `index`, one per axis.
    pub fn point(&self, index: usize) -> Vec<&Value> {
        self.coordinates(index)
            .into_iter()
            .zip(&self.axes)
            .map(|(i, a)| &a.values[i])
            .collect()
    }

    /// `key=value, key=value` for point `index` (messages).
    pub fn describe(&self, index: usize) -> String {
        self.axes
            .iter()
            .zip(self.point(index))
            .map(|(a, v)| format!("{}={}", a.key, display(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A value as a person writes it: strings bare, numbers and booleans as TOML prints them.
pub fn display(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A command-line value: a TOML integer, float or boolean when it reads as one, else the text
/// (`1GB`, `SteppingSplitPolicy`, `08:00` stay strings).
pub fn parse_value(text: &str) -> Value {
    #[derive(serde::Deserialize)]
    struct One {
        v: Value,
    }
    match toml::from_str::<One>(&format!("v = {text}")) {
        Ok(One {
            v: v @ (Value::Integer(_) | Value::Float(_) | Value::Boolean(_)),
        }) => v,
        _ => Value::String(text.to_string()),
    }
}

/// What a key means, or why it means nothing.
pub fn resolve(key: &str) -> Result<Target, InputError> {
    let key = ALIASES
        .iter()
        .find(|(a, _)| *a == key)
        .map_or(key, |(_, to)| *to);
    // hbase-site keys first: `hbase.hregion.max.filesize` also starts with the `hbase` table.
    if keys::spec(key).is_some() {
        return Ok(Target::Site(key.to_string()));
    }
    let parts: Vec<String> = key.split('.').map(str::to_string).collect();
    let unknown = |problem: String| {
        InputError::new(problem).field(key).expected(
            "a modelled hbase-site.xml key (docs/CONFIG.md), a scenario field as a dotted path \
             (`cluster.regionservers`, `table.max_filesize`, `workload.data`, \
             `generator.NAME.buckets`; docs/SCENARIO.md) or one of: servers, MAX_FILESIZE, \
             MEMSTORE_FLUSHSIZE, SPLIT_POLICY",
        )
    };
    if parts.iter().any(String::is_empty) {
        return Err(unknown(format!("`{key}` has an empty part")));
    }
    if parts[0] == "hbase" {
        return Err(unknown(format!(
            "`{key}` is not an hbase-site.xml key hbase-emu models, so varying it would change \
             nothing"
        )));
    }
    if !SCENARIO_ROOTS.contains(&parts[0].as_str()) {
        return Err(unknown(format!("unknown key `{key}`")));
    }
    if parts[0] == "generator" {
        if parts.len() < 3 {
            return Err(unknown(format!(
                "`{key}` names no generator field (write `generator.NAME.FIELD`, NAME `*` for \
                 every generator)"
            )));
        }
        return Ok(Target::Generator {
            name: parts[1].clone(),
            field: parts[2..].to_vec(),
        });
    }
    Ok(Target::Field(parts))
}

/// The `[sweep]` section's axes.
pub fn from_scenario(vary: &[SweepVary], src: &SourceText) -> Result<Grid, InputError> {
    let axes = vary
        .iter()
        .map(|v| {
            let target = resolve(&v.key).map_err(|e| e.at(src, v.key_span.clone()))?;
            Ok(Axis {
                key: v.key.clone(),
                target,
                values: v.values.iter().map(|(x, _)| x.clone()).collect(),
                origin: Origin::File {
                    key: v.key_span.clone(),
                    values: v.values.iter().map(|(_, span)| span.clone()).collect(),
                },
            })
        })
        .collect::<Result<Vec<_>, InputError>>()?;
    Ok(Grid { axes })
}

/// `--vary KEY=V1,V2,…` flags, in order.
pub fn from_flags(flags: &[String]) -> Result<Grid, InputError> {
    from_flags_named(flags, "--vary")
}

/// `--set KEY=VALUE` flags (`run`, `check`), in order: a grid of one point, every key with one
/// value, read as `--vary` reads its keys and values.
pub fn from_set_flags(flags: &[String]) -> Result<Grid, InputError> {
    let grid = from_flags_named(flags, "--set")?;
    for (a, flag) in grid.axes.iter().zip(flags) {
        if a.values.len() != 1 {
            return Err(InputError::new(format!(
                "`{flag}` gives {} values; --set takes one",
                a.values.len()
            ))
            .field(format!("--set {}", a.key))
            .expected("KEY=VALUE (to try several values, `sweep --vary KEY=V1,V2`)"));
        }
    }
    for (i, a) in grid.axes.iter().enumerate() {
        if let Some(b) = grid.axes[..i].iter().find(|b| b.target == a.target) {
            return Err(
                InputError::new(format!("`{}` and `{}` set the same field", b.key, a.key))
                    .field(format!("--set {}", a.key))
                    .expected("each field set once"),
            );
        }
    }
    Ok(grid)
}

/// `FLAG KEY=V1,V2,…` flags, in order; errors name `flag`.
fn from_flags_named(flags: &[String], flag_name: &str) -> Result<Grid, InputError> {
    let mut axes: Vec<Axis> = Vec::with_capacity(flags.len());
    for flag in flags {
        let bad = |problem: String| {
            InputError::new(problem)
                .field(flag_name.to_string())
                .expected(if flag_name == "--set" {
                    "KEY=VALUE"
                } else {
                    "KEY=V1,V2,… (values separated by commas, at least one)"
                })
        };
        let Some((key, list)) = flag.split_once('=') else {
            return Err(bad(format!("`{flag}` has no `=`")));
        };
        let key = key.trim();
        let target = resolve(key).map_err(|e| e.field(format!("{flag_name} {key}")))?;
        let mut values: Vec<Value> = Vec::new();
        for text in list.split(',').map(str::trim) {
            if text.is_empty() {
                return Err(bad(format!("`{flag}` has an empty value")));
            }
            let v = parse_value(text);
            if values.contains(&v) {
                return Err(bad(format!(
                    "`{flag}` lists `{text}` twice (two identical grid points)"
                )));
            }
            values.push(v);
        }
        if axes.iter().any(|a| a.key == key) {
            let how = if flag_name == "--set" {
                "set"
            } else {
                "varied"
            };
            return Err(bad(format!("`{key}` is {how} twice")));
        }
        axes.push(Axis {
            key: key.to_string(),
            target,
            values,
            origin: Origin::Flag,
        });
    }
    Ok(Grid { axes })
}

/// Writes `value` at `target` in the scenario document. Errors are plain sentences; the caller
/// names the point and key.
pub fn apply(doc: &mut Table, target: &Target, value: &Value) -> Result<(), String> {
    match target {
        Target::Field(path) => set_path(doc, path, value, ""),
        Target::Site(key) => {
            let site = child_table(doc, "hbase", "")?;
            site.insert(key.clone(), value.clone());
            if let Some((_, attr)) = SHADOWED.iter().find(|(k, _)| k == key)
                && doc
                    .get("table")
                    .and_then(Value::as_table)
                    .is_some_and(|t| t.contains_key(*attr))
            {
                return Err(format!(
                    "the scenario's table attribute `table.{attr}` wins over `{key}`, so varying \
                     or setting the key would change nothing; vary `table.{attr}` instead (or \
                     --set it)"
                ));
            }
            Ok(())
        }
        Target::Generator { name, field } => {
            let Some(Value::Array(gens)) = doc.get_mut("generator") else {
                return Err("the scenario has no [[generator]]".to_string());
            };
            let mut known = Vec::new();
            let mut hit = false;
            for g in gens.iter_mut() {
                let Value::Table(t) = g else { continue };
                let own = t.get("name").and_then(Value::as_str).unwrap_or("");
                known.push(own.to_string());
                if name == "*" || name == own {
                    let prefix = format!("generator.{own}.");
                    set_path(t, field, value, &prefix)?;
                    hit = true;
                }
            }
            if hit {
                Ok(())
            } else {
                Err(format!(
                    "the scenario has no generator named `{name}` (it has: {})",
                    known.join(", ")
                ))
            }
        }
    }
}

/// The table under `key`, created when missing.
fn child_table<'a>(t: &'a mut Table, key: &str, prefix: &str) -> Result<&'a mut Table, String> {
    match t
        .entry(key.to_string())
        .or_insert_with(|| Value::Table(Table::new()))
    {
        Value::Table(child) => Ok(child),
        _ => Err(format!("`{prefix}{key}` is a value, not a table")),
    }
}

fn set_path(t: &mut Table, path: &[String], value: &Value, prefix: &str) -> Result<(), String> {
    let Some((last, parents)) = path.split_last() else {
        return Err("empty key".to_string());
    };
    let mut here = t;
    let mut walked = prefix.to_string();
    for p in parents {
        here = child_table(here, p, &walked)?;
        walked.push_str(p);
        walked.push('.');
    }
    here.insert(last.clone(), value.clone());
    Ok(())
}

/// Writes grid point `index`'s values into `doc`, axis by axis; on failure, the axis at fault
/// and the problem.
pub fn write_point(doc: &mut Table, grid: &Grid, index: usize) -> Result<(), (usize, String)> {
    for (i, (axis, v)) in grid.axes.iter().zip(grid.point(index)).enumerate() {
        apply(doc, &axis.target, v).map_err(|problem| (i, problem))?;
    }
    Ok(())
}

/// The scenario text of grid point `index`: the document with the point's values written in
/// and `[sweep]` removed (a point is one scenario).
pub fn point_text(base: &Table, grid: &Grid, index: usize) -> Result<String, InputError> {
    let mut doc = base.clone();
    doc.remove("sweep");
    write_point(&mut doc, grid, index).map_err(|(axis, problem)| {
        InputError::new(format!(
            "sweep point {index} ({}): {problem}",
            grid.describe(index)
        ))
        .field(grid.axes[axis].key.clone())
    })?;
    toml::to_string(&doc).map_err(|e| InputError::new(format!("sweep point {index}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(flags: &[&str]) -> Grid {
        from_flags(&flags.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn sixty_four_keys_of_two_values_do_not_wrap_to_an_empty_grid() {
        let axis = Axis {
            key: "k".into(),
            target: resolve("servers").unwrap(),
            values: vec![Value::from(1), Value::from(2)],
            origin: Origin::Flag,
        };
        let g = Grid {
            axes: vec![axis; 64],
        };
        assert_eq!(g.len(), usize::MAX);
        assert!(!g.is_empty());
    }

    #[test]
    fn points_are_the_cartesian_product_first_axis_slowest() {
        let g = grid(&["servers=3,5"]);
        assert_eq!(g.len(), 2);
        let g = grid(&["table.max_filesize=1GB,2GB,10GB", "servers=10,20"]);
        assert_eq!(g.len(), 6);
        let all: Vec<String> = (0..6).map(|i| g.describe(i)).collect();
        assert_eq!(
            all,
            [
                "table.max_filesize=1GB, servers=10",
                "table.max_filesize=1GB, servers=20",
                "table.max_filesize=2GB, servers=10",
                "table.max_filesize=2GB, servers=20",
                "table.max_filesize=10GB, servers=10",
                "table.max_filesize=10GB, servers=20",
            ]
        );
        assert_eq!(g.coordinates(5), [2, 1]);
    }

    #[test]
    fn keys_resolve_to_site_properties_fields_and_generators() {
        assert_eq!(
            resolve("hbase.hregion.max.filesize").unwrap(),
            Target::Site("hbase.hregion.max.filesize".into())
        );
        assert_eq!(
            resolve("servers").unwrap(),
            Target::Field(vec!["cluster".into(), "regionservers".into()])
        );
        assert_eq!(
            resolve("MAX_FILESIZE").unwrap(),
            Target::Field(vec!["table".into(), "max_filesize".into()])
        );
        assert_eq!(
            resolve("generator.salted.buckets").unwrap(),
            Target::Generator {
                name: "salted".into(),
                field: vec!["buckets".into()]
            }
        );
        for bad in [
            "hbase.no.such.key",
            "bogus",
            "generator.x",
            "cluster..x",
            "name",
        ] {
            assert!(resolve(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn flag_values_keep_their_type_and_bad_flags_are_named() {
        assert_eq!(parse_value("10"), Value::Integer(10));
        assert_eq!(parse_value("0.5"), Value::Float(0.5));
        assert_eq!(parse_value("true"), Value::Boolean(true));
        assert_eq!(parse_value("1GB"), Value::String("1GB".into()));
        assert_eq!(parse_value("08:00"), Value::String("08:00".into()));
        for bad in ["servers", "servers=1,,2", "servers=1,1", "nope=1"] {
            let e = from_flags(&[bad.to_string()]).unwrap_err();
            assert!(e.field.as_deref().unwrap().starts_with("--vary"), "{bad}");
        }
        let e = from_flags(&["servers=1".into(), "servers=2".into()]).unwrap_err();
        assert!(e.problem.contains("varied twice"), "{}", e.problem);
    }

    #[test]
    fn set_flags_take_one_value_per_field_and_name_set() {
        let g = from_set_flags(&["servers=7".into(), "table.max_filesize=1GB".into()]).unwrap();
        assert_eq!(g.len(), 1);
        assert_eq!(g.describe(0), "servers=7, table.max_filesize=1GB");
        for bad in ["servers", "servers=1,2", "nope=1", "servers="] {
            let e = from_set_flags(&[bad.to_string()]).unwrap_err();
            assert!(e.field.as_deref().unwrap().starts_with("--set"), "{bad}");
        }
        let e = from_set_flags(&["servers=1,2".into()]).unwrap_err();
        assert!(e.problem.contains("--set takes one"), "{}", e.problem);
        // An alias and the field it stands for are one field.
        let e =
            from_set_flags(&["servers=1".into(), "cluster.regionservers=2".into()]).unwrap_err();
        assert!(e.problem.contains("set the same field"), "{}", e.problem);
        let e = from_set_flags(&["seed=1".into(), "seed=2".into()]).unwrap_err();
        assert!(e.problem.contains("is set twice"), "{}", e.problem);
        assert!(from_set_flags(&[]).unwrap().is_empty());
    }

    #[test]
    fn points_write_their_values_into_the_document() {
        let base: Table = toml::from_str(
            "[cluster]\nregionservers = 3\n[table]\nmax_filesize = \"1GB\"\n\
             [[generator]]\nname = \"a\"\nkind = \"salted\"\nbuckets = 4\n\
             [[generator]]\nname = \"b\"\nkind = \"sequential\"\n[sweep]\nvary = {}\n",
        )
        .unwrap();
        let g = grid(&[
            "servers=7",
            "generator.a.buckets=8",
            "hbase.hstore.blockingStoreFiles=20",
            "table.presplit.regions=5",
        ]);
        let text = point_text(&base, &g, 0).unwrap();
        let doc: Table = toml::from_str(&text).unwrap();
        assert_eq!(doc["cluster"]["regionservers"].as_integer(), Some(7));
        assert_eq!(doc["generator"][0]["buckets"].as_integer(), Some(8));
        assert!(doc["generator"][1].get("buckets").is_none());
        assert_eq!(
            doc["hbase"]["hbase.hstore.blockingStoreFiles"].as_integer(),
            Some(20)
        );
        assert_eq!(doc["table"]["presplit"]["regions"].as_integer(), Some(5));
        assert!(doc.get("sweep").is_none());

        // A site key under a table attribute would change nothing: refused.
        let e = point_text(&base, &grid(&["hbase.hregion.max.filesize=2GB"]), 0).unwrap_err();
        assert!(
            e.problem.contains("vary `table.max_filesize`"),
            "{}",
            e.problem
        );
        assert!(e.problem.starts_with("sweep point 0 ("), "{}", e.problem);
        let e = point_text(&base, &grid(&["generator.zz.buckets=2"]), 0).unwrap_err();
        assert!(e.problem.contains("it has: a, b"), "{}", e.problem);
        let e = point_text(&base, &grid(&["cluster.regionservers.x=2"]), 0).unwrap_err();
        assert!(e.problem.contains("not a table"), "{}", e.problem);
    }
}
