//! The plain CSV form: a header line naming the columns, then one region a line.
//!
//! Required columns: `start`, `end` (keys in `toStringBinary` notation, empty = table edge),
//! `server`, `store_bytes` (bytes, or a size with units: `1.5GB`), `store_files`. Optional:
//! `memstore_bytes`, `read_requests`, `write_requests`, `region` (the encoded region name, so a
//! CSV can be the keys file of a JMX import). Columns may come in any order; an unknown column is
//! an error (a typo would otherwise be dropped silently). Fields are trimmed, so a key's own
//! leading or trailing space is written `\x20` (as `InitialTable::to_csv` does).

use super::{InitialRegion, InitialTable, parse_count};
use crate::diag::{InputError, SourceText};
use crate::keynotation::{check_binary_escapes, to_bytes_binary};
use crate::units::{SIZE_EXPECTED, parse_size};

const REQUIRED: [&str; 5] = ["start", "end", "server", "store_bytes", "store_files"];
const OPTIONAL: [&str; 4] = [
    "memstore_bytes",
    "read_requests",
    "write_requests",
    "region",
];

/// Parses the CSV form (not yet validated as a tiling; see `InitialTable::validate`).
pub fn parse(src: &SourceText) -> Result<InitialTable, InputError> {
    let mut rdr = ::csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(::csv::Trim::Headers)
        .from_reader(src.text.as_bytes());
    let header = rdr
        .headers()
        .map_err(|e| csv_error(src, &e, "header"))?
        .clone();
    let mut col = std::collections::BTreeMap::new();
    for (i, h) in header.iter().enumerate() {
        if !(REQUIRED.contains(&h) || OPTIONAL.contains(&h)) {
            return Err(
                InputError::new(format!("unknown column `{h}` in the header"))
                    .at(src, field_span(src, 0, i))
                    .field("header")
                    .expected(format!(
                        "columns {} (required) and {} (optional)",
                        REQUIRED.join(", "),
                        OPTIONAL.join(", ")
                    )),
            );
        }
        if col.insert(h.to_string(), i).is_some() {
            return Err(InputError::new(format!("column `{h}` appears twice"))
                .at(src, field_span(src, 0, i))
                .field("header")
                .expected("each column once"));
        }
    }
    if let Some(m) = REQUIRED.iter().find(|c| !col.contains_key(**c)) {
        return Err(InputError::new(format!("the header has no `{m}` column"))
            .at(src, 0..0)
            .field("header")
            .expected(format!(
                "a header line with at least {}",
                REQUIRED.join(",")
            )));
    }
    let mut regions = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| csv_error(src, &e, "record"))?;
        let pos = rec.position().map_or(0, |p| p.byte() as usize);
        let line = rec.position().map_or(0, |p| p.line() as usize);
        if rec.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        if rec.len() != header.len() {
            return Err(InputError::new(format!(
                "line has {} fields, the header {}",
                rec.len(),
                header.len()
            ))
            .at(src, pos..pos)
            .field("record")
            .expected(format!("{} comma-separated fields", header.len())));
        }
        let get = |name: &str| col.get(name).map(|&i| (i, rec[i].trim()));
        let err = |name: &str, i: usize, problem: String, expected: &str| {
            InputError::new(problem)
                .at(src, field_span(src, pos, i))
                .field(name.to_string())
                .expected(expected.to_string())
        };
        let key = |name: &str| -> Result<Vec<u8>, InputError> {
            let (i, v) = get(name).expect("required");
            check_binary_escapes(v).map_err(|_| {
                err(
                    name,
                    i,
                    format!("`{v}` has a `\\x` escape without two hex digits"),
                    "a key in toStringBinary notation (`\\xHH` with uppercase hex)",
                )
            })?;
            Ok(to_bytes_binary(v))
        };
        let size = |name: &str| -> Result<Option<u64>, InputError> {
            let Some((i, v)) = get(name) else {
                return Ok(None);
            };
            if v.is_empty() && !REQUIRED.contains(&name) {
                return Ok(None);
            }
            parse_size(v)
                .map(Some)
                .map_err(|e| err(name, i, format!("{name}: {}", e.problem), SIZE_EXPECTED))
        };
        let count = |name: &str| -> Result<Option<u64>, InputError> {
            let Some((i, v)) = get(name) else {
                return Ok(None);
            };
            if v.is_empty() && !REQUIRED.contains(&name) {
                return Ok(None);
            }
            parse_count(v).map(Some).ok_or_else(|| {
                err(
                    name,
                    i,
                    format!("{name}: `{v}` is not a whole number"),
                    "a whole non-negative number",
                )
            })
        };
        let (si, server) = get("server").expect("required");
        if server.is_empty() {
            return Err(err(
                "server",
                si,
                "the server is empty".into(),
                "a server name (host,port,startcode or any label)",
            ));
        }
        regions.push(InitialRegion {
            start: key("start")?,
            end: key("end")?,
            server: server.to_string(),
            store_bytes: size("store_bytes")?.unwrap_or(0),
            store_files: count("store_files")?.unwrap_or(0),
            memstore_bytes: size("memstore_bytes")?,
            read_requests: count("read_requests")?,
            write_requests: count("write_requests")?,
            encoded: get("region")
                .map(|(_, v)| v.to_string())
                .filter(|v| !v.is_empty()),
            line,
        });
    }
    Ok(InitialTable {
        table: None,
        regions,
        warnings: Vec::new(),
    })
}

/// The byte span of field `i` of a record starting at `pos`, found in the raw text (quotes
/// included): the parsed fields lose their quotes and doubled quotes, so their lengths do not
/// add up to offsets. Commas and quotes are ASCII, so the span's ends are character boundaries.
fn field_span(src: &SourceText, pos: usize, i: usize) -> std::ops::Range<usize> {
    let text = src.text.as_bytes();
    let mut at = pos.min(text.len());
    let mut field = 0;
    loop {
        let start = at;
        let mut quoted = false;
        while at < text.len() {
            match text[at] {
                b'"' => quoted = !quoted,
                b',' if !quoted => break,
                b'\n' | b'\r' if !quoted => break,
                _ => {}
            }
            at += 1;
        }
        if field == i || at >= text.len() || text[at] != b',' {
            return crate::diag::char_span(&src.text, start..at);
        }
        field += 1;
        at += 1;
    }
}

fn csv_error(src: &SourceText, e: &::csv::Error, field: &str) -> InputError {
    let pos = e
        .position()
        .map_or(0, |p| p.byte() as usize)
        .min(src.text.len());
    let problem = match e.kind() {
        ::csv::ErrorKind::Utf8 { .. } => "the line is not valid UTF-8".to_string(),
        _ => format!("not readable as CSV: {e}"),
    };
    InputError::new(problem)
        .at(src, pos..pos)
        .field(field.to_string())
        .expected("comma-separated fields, quoted with `\"` when they hold a comma")
}
