//! The HBase shell's `list_regions 'TABLE'` output (HBase 2.x `list_regions.rb`).
//!
//! The shell prints a header of column names, a line of dashes, one line per region and a
//! ` N rows` line. Every cell is printed as ` %Ns |` (right-aligned to the column's widest value),
//! so the dashes give each column's width and a row is cut at those positions — a key holding
//! ` | ` is still read right. Columns (any subset, in the shell's order): SERVER_NAME,
//! REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY. SIZE is the region's store file size
//! from `RegionMetrics.getStoreFileSize()`, which the master only knows in whole MB and the shell
//! prints as `Size.toString()` (`12.0MB`); an empty SIZE (a region in transition, whose metrics
//! the shell could not find) reads as 0 with a warning. Keys are `Bytes.toStringBinary`. The
//! output has no store file count: each region with data is taken as one file (a major-compacted
//! region), said in a warning. Lines before the header (the shell's "Can not find all details"
//! notes) and after the count line (`Took 0.1 seconds`) are skipped.

use super::{InitialRegion, InitialTable, line_offset, parse_count};
use crate::diag::{InputError, SourceText};
use crate::keynotation::to_bytes_binary;

const COLUMNS: [&str; 7] = [
    "SERVER_NAME",
    "REGION_NAME",
    "START_KEY",
    "END_KEY",
    "SIZE",
    "REQ",
    "LOCALITY",
];
const REQUIRED: [&str; 4] = ["SERVER_NAME", "START_KEY", "END_KEY", "SIZE"];

/// True for a `list_regions` header line: `|`-terminated cells that are all column names.
pub fn is_header(line: &str) -> bool {
    let cells = cells(line);
    cells.len() >= 2 && cells.iter().all(|c| COLUMNS.contains(c))
}

/// True for a line shaped like a `list_regions` header (`|`-terminated cells, at least two of
/// them column names) even with a cell that is not one: such a file is mis-shaped `list_regions`
/// output, to be named as such, not re-read as CSV.
pub fn looks_like_header(line: &str) -> bool {
    let cells = cells(line);
    cells.len() >= 2 && cells.iter().filter(|c| COLUMNS.contains(c)).count() >= 2
}

fn cells(line: &str) -> Vec<&str> {
    let t = line.trim_end();
    let Some(body) = t.strip_suffix('|') else {
        return Vec::new();
    };
    body.split('|').map(str::trim).collect()
}

/// Parses `list_regions` output (not yet validated as a tiling).
pub fn parse(src: &SourceText) -> Result<InitialTable, InputError> {
    let text = &src.text;
    let lines: Vec<&str> = text.lines().collect();
    let err_at = |line: usize, col: usize, len: usize, field: &str, problem: String, exp: &str| {
        let off = line_offset(text, line) + col;
        InputError::new(problem)
            .at(src, off..(off + len).min(text.len()))
            .field(field.to_string())
            .expected(exp.to_string())
    };
    if let Some((h, line)) = lines
        .iter()
        .enumerate()
        .find(|(_, l)| looks_like_header(l) && !is_header(l))
        && !lines.iter().any(|l| is_header(l))
    {
        let bad = cells(line)
            .into_iter()
            .find(|c| !COLUMNS.contains(c))
            .unwrap_or("");
        let col = line.find(bad).unwrap_or(0);
        return Err(err_at(
            h + 1,
            col,
            bad.len(),
            "header",
            format!(
                "`{bad}` is not a `list_regions` column (the file is read as list_regions output)"
            ),
            "the shell's columns only: SERVER_NAME, REGION_NAME, START_KEY, END_KEY, SIZE, REQ, \
             LOCALITY",
        ));
    }
    let Some(h) = lines.iter().position(|l| is_header(l)) else {
        return Err(InputError::new("no `list_regions` header line found")
            .at(src, 0..0)
            .field("header")
            .expected(
                "the shell's header, e.g. ` SERVER_NAME | REGION_NAME | START_KEY | END_KEY | \
                 SIZE | REQ | LOCALITY |`",
            ));
    };
    let names = cells(lines[h]);
    for r in REQUIRED {
        if !names.contains(&r) {
            return Err(err_at(
                h + 1,
                0,
                lines[h].len(),
                "header",
                format!("the header has no {r} column"),
                "the columns SERVER_NAME, START_KEY, END_KEY and SIZE (list_regions' default \
                 columns include them)",
            ));
        }
    }
    // The dashes give each column's width: ` ----- |` per column.
    let dashes = lines.get(h + 1).copied().unwrap_or("");
    let widths: Vec<usize> = cells(dashes)
        .iter()
        .map(|c| {
            if c.bytes().all(|b| b == b'-') {
                c.len()
            } else {
                0
            }
        })
        .collect();
    if widths.len() != names.len() || widths.contains(&0) {
        return Err(err_at(
            h + 2,
            0,
            dashes.len(),
            "separator",
            "the line after the header is not the shell's line of dashes".into(),
            "one run of `-` per column, each followed by ` |`",
        ));
    }
    let mut regions = Vec::new();
    let mut table: Option<String> = None;
    let mut empty_size = 0usize;
    let mut count_line = None;
    for (i, line) in lines.iter().enumerate().skip(h + 2) {
        let ln = i + 1;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(n) = t.strip_suffix(" rows").or_else(|| t.strip_suffix(" row")) {
            let Some(n) = parse_count(n) else {
                return Err(err_at(
                    ln,
                    0,
                    line.len(),
                    "rows",
                    format!("`{t}` is not a row count"),
                    "` N rows`",
                ));
            };
            count_line = Some((ln, n));
            break;
        }
        // Cut the row at the header's positions (chars, as Ruby's printf pads).
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let mut at = 0usize; // char index
        let mut row: Vec<(&str, usize)> = Vec::new(); // (trimmed value, byte column)
        for (c, &w) in widths.iter().enumerate() {
            let (s, e) = (at + 1, at + 1 + w);
            let bar = chars.get(e + 1).map(|&(_, ch)| ch);
            if chars.get(at).map(|&(_, ch)| ch) != Some(' ') || bar != Some('|') {
                let col = chars
                    .get(at.min(chars.len().saturating_sub(1)))
                    .map_or(0, |p| p.0);
                return Err(err_at(
                    ln,
                    col,
                    1,
                    names[c],
                    format!(
                        "the row does not line up with the header at column {}",
                        names[c]
                    ),
                    "a row as the shell prints it: each cell padded to its column's width, then ` |`",
                ));
            }
            let bs = chars[s].0;
            let be = chars.get(e).map_or(line.len(), |p| p.0);
            let raw = &line[bs..be];
            let lead = raw.len() - raw.trim_start().len();
            row.push((raw.trim(), bs + lead));
            at = e + 2;
        }
        if at < chars.len() && !line[chars[at].0..].trim().is_empty() {
            return Err(err_at(
                ln,
                chars[at].0,
                line.len() - chars[at].0,
                "row",
                "text after the last column".into(),
                &format!("{} cells", names.len()),
            ));
        }
        let cell = |name: &str| names.iter().position(|n| *n == name).map(|i| row[i]);
        let (server, scol) = cell("SERVER_NAME").expect("required");
        if server.is_empty() {
            return Err(err_at(
                ln,
                scol,
                0,
                "SERVER_NAME",
                "the server name is empty".into(),
                "host,port,startcode",
            ));
        }
        let (size, zcol) = cell("SIZE").expect("required");
        let store_bytes = if size.is_empty() {
            empty_size += 1;
            0
        } else {
            parse_mb(size).ok_or_else(|| {
                err_at(
                    ln,
                    zcol,
                    size.len(),
                    "SIZE",
                    format!("`{size}` is not a size in MB"),
                    "a store file size as the shell prints it: `12.0MB` (or a plain number of MB)",
                )
            })?
        };
        if let Some((req, rcol)) = cell("REQ")
            && !req.is_empty()
            && parse_count(req).is_none()
        {
            return Err(err_at(
                ln,
                rcol,
                req.len(),
                "REQ",
                format!("`{req}` is not a request count"),
                "a whole number",
            ));
        }
        let encoded = cell("REGION_NAME").and_then(|(n, _)| encoded_name(n));
        // `list_regions` lists one table; its name leads every region name (`table,start,id.`).
        if let Some((name, ncol)) = cell("REGION_NAME")
            && let Some((t, _)) = name.split_once(',')
        {
            match &table {
                None => table = Some(t.to_string()),
                Some(first) if first != t => {
                    return Err(err_at(
                        ln,
                        ncol,
                        name.len(),
                        "REGION_NAME",
                        format!("region of table `{t}` in a listing of table `{first}`"),
                        "the regions of one table, as `list_regions 'TABLE'` prints them",
                    ));
                }
                Some(_) => {}
            }
        }
        regions.push(InitialRegion {
            start: to_bytes_binary(cell("START_KEY").expect("required").0),
            end: to_bytes_binary(cell("END_KEY").expect("required").0),
            server: server.to_string(),
            store_bytes,
            store_files: u64::from(store_bytes > 0),
            memstore_bytes: None,
            read_requests: None,
            write_requests: None,
            encoded,
            line: ln,
        });
    }
    match count_line {
        Some((ln, n)) if n != regions.len() as u64 => {
            return Err(err_at(
                ln,
                0,
                lines[ln - 1].len(),
                "rows",
                format!("the output says {n} rows but lists {}", regions.len()),
                "the whole output, with as many region lines as its ` N rows` line says",
            ));
        }
        None => {
            return Err(
                InputError::new("the output ends without its ` N rows` line (cut short?)")
                    .at(src, text.len()..text.len())
                    .field("rows")
                    .expected("the whole `list_regions` output, ending with ` N rows`"),
            );
        }
        _ => {}
    }
    let mut warnings = vec![
        "list_regions has no store file count: each region with data is taken as one store file"
            .to_string(),
    ];
    if empty_size > 0 {
        warnings.push(format!(
            "{empty_size} region(s) with an empty SIZE (no metrics: in transition?) read as 0 bytes"
        ));
    }
    Ok(InitialTable {
        table,
        regions,
        warnings,
    })
}

/// `Size.toString()` in MB (`12.0MB`) or a plain number of MB, as bytes.
fn parse_mb(s: &str) -> Option<u64> {
    let n = s.strip_suffix("MB").unwrap_or(s).trim();
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let v: f64 = n.parse().ok()?;
    (0.0..1e12)
        .contains(&v)
        .then(|| (v * 1_048_576.0).round() as u64)
}

/// The encoded name in `RegionInfo.getRegionNameAsString()` (`table,start,id.ENCODED.`).
pub fn encoded_name(region_name: &str) -> Option<String> {
    let body = region_name.strip_suffix('.')?;
    let (_, enc) = body.rsplit_once('.')?;
    (!enc.is_empty() && enc.bytes().all(|b| b.is_ascii_hexdigit())).then(|| enc.to_string())
}
