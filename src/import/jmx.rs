//! A RegionServer's `/jmx` JSON: the per-region metrics of the bean
//! `Hadoop:service=HBase,name=RegionServer,sub=Regions` (`MetricsRegionAggregateSourceImpl`).
//!
//! Each region's attributes are named `Namespace_<ns>_table_<table>_region_<encoded>_metric_<m>`
//! (`MetricsRegionSourceImpl`); read here: `storeFileSize`, `storeFileCount`, `memStoreSize`,
//! `readRequestCount`, `writeRequestCount`. The server's name (`host,port,startcode`) is the
//! `tag.serverName` of the `sub=Server` bean of the same dump, else the `tag.Hostname` of the
//! `sub=Regions` bean (with a warning). The input may be one dump (`{"beans": [...]}`), an array
//! of dumps, or several dumps one after another (one per RegionServer: `curl rs1/jmx rs2/jmx`).
//!
//! JMX carries no start or end keys. They come from a companion file (`list_regions` output or a
//! CSV with a `region` column), joined by encoded region name; a region in one and not the other
//! is an error: no key is ever invented.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{InitialRegion, InitialTable};
use crate::diag::{InputError, SourceText};

/// The bean holding the per-region metrics.
pub const REGIONS_BEAN: &str = "Hadoop:service=HBase,name=RegionServer,sub=Regions";
/// The bean whose `tag.serverName` names the server.
pub const SERVER_BEAN: &str = "Hadoop:service=HBase,name=RegionServer,sub=Server";

/// One region's metrics as read from the dump.
#[derive(Debug, Default, Clone)]
struct Metrics {
    server: String,
    store_bytes: Option<u64>,
    store_files: Option<u64>,
    memstore: Option<u64>,
    reads: Option<u64>,
    writes: Option<u64>,
}

/// Splits a region attribute name into (namespace, table, encoded region, metric).
pub fn split_attribute(name: &str) -> Option<(&str, &str, &str, &str)> {
    let rest = name.strip_prefix("Namespace_")?;
    let (head, metric) = rest.rsplit_once("_metric_")?;
    let (head, encoded) = head.rsplit_once("_region_")?;
    let (ns, table) = head.split_once("_table_")?;
    Some((ns, table, encoded, metric))
}

/// The byte span of attribute `name` (quoted) in the dump, or its start when not found as
/// written (escaped characters).
fn attribute_span(src: &SourceText, name: &str) -> std::ops::Range<usize> {
    let quoted = format!("\"{name}\"");
    src.text
        .find(&quoted)
        .map_or(0..0, |at| at + 1..at + 1 + name.len())
}

/// Parses a JMX dump and joins it with `keys` (the companion's regions, from `ksrc`).
pub fn parse(
    src: &SourceText,
    table: Option<&str>,
    keys: &InitialTable,
    ksrc: &SourceText,
) -> Result<InitialTable, InputError> {
    let mut docs = Vec::new();
    let stream = serde_json::Deserializer::from_str(&src.text).into_iter::<Value>();
    for v in stream {
        match v {
            Ok(Value::Array(a)) => docs.extend(a),
            Ok(v) => docs.push(v),
            Err(e) => {
                let off = super::line_offset(&src.text, e.line()) + e.column().saturating_sub(1);
                return Err(InputError::new(format!("not valid JSON: {e}"))
                    .at(src, off.min(src.text.len())..off.min(src.text.len()))
                    .field("json")
                    .expected("a /jmx dump: {\"beans\": [...]}, an array of them, or several"));
            }
        }
    }
    let mut by_table: BTreeMap<String, BTreeMap<String, Metrics>> = BTreeMap::new();
    let mut warnings = Vec::new();
    for (d, doc) in docs.iter().enumerate() {
        let Some(beans) = doc.get("beans").and_then(Value::as_array) else {
            return Err(
                InputError::new(format!("dump {} has no `beans` array", d + 1))
                    .in_file(&src.path)
                    .field("beans")
                    .expected("a /jmx dump: {\"beans\": [...]}"),
            );
        };
        fn name_of(b: &Value) -> &str {
            b.get("name").and_then(Value::as_str).unwrap_or("")
        }
        let server_tag = beans
            .iter()
            .find(|b| name_of(b) == SERVER_BEAN)
            .and_then(|b| b.get("tag.serverName"))
            .and_then(Value::as_str);
        for (b, bean) in beans
            .iter()
            .enumerate()
            .filter(|(_, b)| name_of(b) == REGIONS_BEAN)
        {
            let server = match server_tag {
                Some(s) => s.to_string(),
                None => {
                    let host = bean.get("tag.Hostname").and_then(Value::as_str);
                    let Some(h) = host else {
                        return Err(InputError::new(format!(
                            "dump {} names no server: no `tag.serverName` in its {SERVER_BEAN} \
                             bean and no `tag.Hostname` in its Regions bean",
                            d + 1
                        ))
                        .in_file(&src.path)
                        .field("tag.serverName")
                        .expected("the whole /jmx output of a RegionServer"));
                    };
                    warnings.push(format!(
                        "dump {}: no {SERVER_BEAN} bean; the server is named by its host `{h}`",
                        d + 1
                    ));
                    h.to_string()
                }
            };
            let Some(attrs) = bean.as_object() else {
                continue;
            };
            for (k, v) in attrs {
                let Some((ns, t, enc, metric)) = split_attribute(k) else {
                    continue;
                };
                let slot = match metric {
                    "storeFileSize" => 0,
                    "storeFileCount" => 1,
                    "memStoreSize" => 2,
                    "readRequestCount" => 3,
                    "writeRequestCount" => 4,
                    _ => continue,
                };
                let Some(n) = v.as_u64().or_else(|| {
                    v.as_f64()
                        .filter(|f| *f >= 0.0 && f.is_finite())
                        .map(|f| f as u64)
                }) else {
                    // The attribute name is too long to show whole: name its region and
                    // metric, and place the error at the attribute in the file.
                    return Err(InputError::new(format!(
                        "{metric} of region {enc} (table {ns}:{t}) is `{v}`, not a \
                         non-negative number"
                    ))
                    .at(src, attribute_span(src, k))
                    .field(format!("beans[{b}].{metric}"))
                    .expected("a number"));
                };
                let m = by_table
                    .entry(format!("{ns}:{t}"))
                    .or_default()
                    .entry(enc.to_string())
                    .or_default();
                if !m.server.is_empty() && m.server != server {
                    return Err(InputError::new(format!(
                        "region {enc} (table {ns}:{t}) is reported by two servers ({} and \
                         {server})",
                        m.server
                    ))
                    .at(src, attribute_span(src, k))
                    .field(format!("beans[{b}].{metric}"))
                    .expected("each region in one RegionServer's dump"));
                }
                m.server.clone_from(&server);
                let f = match slot {
                    0 => &mut m.store_bytes,
                    1 => &mut m.store_files,
                    2 => &mut m.memstore,
                    3 => &mut m.reads,
                    _ => &mut m.writes,
                };
                *f = Some(n);
            }
        }
    }
    if by_table.is_empty() {
        return Err(InputError::new(format!(
            "no per-region metrics found (no `Namespace_..._metric_...` attribute in a \
             {REGIONS_BEAN} bean)"
        ))
        .in_file(&src.path)
        .field("beans")
        .expected("a RegionServer's /jmx dump (or `/jmx?qry=...sub=Regions`)"));
    }
    let tables: Vec<String> = by_table.keys().cloned().collect();
    let want = match table {
        Some(t) if t.contains(':') => t.to_string(),
        Some(t) => format!("default:{t}"),
        None if tables.len() == 1 => tables[0].clone(),
        None => {
            return Err(InputError::new(format!(
                "the dump holds several tables ({}); say which",
                tables.join(", ")
            ))
            .in_file(&src.path)
            .field("table")
            .expected("--table NAME (or `table` in [initial])"));
        }
    };
    let Some(metrics) = by_table.remove(&want) else {
        return Err(InputError::new(format!(
            "table `{want}` is not in the dump (it has {})",
            tables.join(", ")
        ))
        .in_file(&src.path)
        .field("table")
        .expected(format!("one of {}", tables.join(", "))));
    };
    let mut regions = Vec::with_capacity(metrics.len());
    let mut joined = std::collections::BTreeSet::new();
    for k in &keys.regions {
        let Some(enc) = &k.encoded else {
            let off = super::line_offset(&ksrc.text, k.line);
            return Err(
                InputError::new("the keys file's region has no encoded name")
                    .at(ksrc, off..off)
                    .field("region")
                    .expected("list_regions output with REGION_NAME, or a CSV `region` column"),
            );
        };
        let Some(m) = metrics.get(enc) else {
            let off = super::line_offset(&ksrc.text, k.line);
            return Err(InputError::new(format!(
                "region {enc} of the keys file has no metrics in the JMX dump (a \
                 RegionServer's dump missing?)"
            ))
            .at(ksrc, off..off)
            .field("region")
            .expected("the /jmx of every RegionServer hosting the table"));
        };
        let need = |v: Option<u64>, what: &str| {
            v.ok_or_else(|| {
                InputError::new(format!("region {enc} has no `{what}` metric"))
                    .in_file(&src.path)
                    .field(what.to_string())
                    .expected("storeFileSize and storeFileCount for every region")
            })
        };
        joined.insert(enc.clone());
        regions.push(InitialRegion {
            start: k.start.clone(),
            end: k.end.clone(),
            server: m.server.clone(),
            store_bytes: need(m.store_bytes, "storeFileSize")?,
            store_files: need(m.store_files, "storeFileCount")?,
            memstore_bytes: m.memstore,
            read_requests: m.reads,
            write_requests: m.writes,
            encoded: Some(enc.clone()),
            line: k.line,
        });
    }
    if let Some(extra) = metrics.keys().find(|e| !joined.contains(*e)) {
        return Err(InputError::new(format!(
            "region {extra} of table {want} is in the JMX dump but not in the keys file"
        ))
        .in_file(&src.path)
        .field("keys")
        .expected("a keys file listing every region of the table"));
    }
    Ok(InitialTable {
        table: Some(want),
        regions,
        warnings,
    })
}
