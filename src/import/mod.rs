//! Importing an existing table's regions: the HBase shell's `list_regions` output
//! ([`list_regions`]), a RegionServer's `/jmx` JSON ([`jmx`], keys joined from a companion file)
//! and a plain CSV ([`csv`]), all parsed into one [`InitialTable`].
//!
//! The API, reusable for any table of a scenario:
//! - [`load`] reads a file (format given or [`detect`]ed) and [`InitialTable::validate`]s it:
//!   the regions tile the key space (first start and last end empty, each end the next start;
//!   a gap or an overlap is an error, never filled in), no region twice, numbers parse;
//! - [`InitialTable::to_csv`] writes the editable CSV form, which [`csv::parse`] reads back;
//! - [`InitialTable::servers`] / [`InitialTable::server_totals`] summarize the placement;
//! - the engine turns each [`InitialRegion`] into a live region with `store_files` files of equal
//!   size (`plan::RegionPlan::files`, `engine::files::imported_files`).

pub mod cmd;
pub mod csv;
pub mod jmx;
pub mod list_regions;

use std::path::Path;

use serde::Serialize;

use crate::diag::{InputError, SourceText};
use crate::keynotation::to_string_binary;

/// One region of an imported table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InitialRegion {
    /// Start key (inclusive; empty = start of table).
    #[serde(serialize_with = "ser_key")]
    pub start: Vec<u8>,
    /// End key (exclusive; empty = end of table).
    #[serde(serialize_with = "ser_key")]
    pub end: Vec<u8>,
    /// Server name as HBase prints it (`host,port,startcode`), or as the CSV gives it.
    pub server: String,
    /// Store file bytes on disk (all families).
    pub store_bytes: u64,
    /// Store files (all families).
    pub store_files: u64,
    /// Memstore bytes at the time of the dump, when the format has them.
    pub memstore_bytes: Option<u64>,
    /// Read requests since the region opened, when the format has them.
    pub read_requests: Option<u64>,
    /// Write requests since the region opened, when the format has them.
    pub write_requests: Option<u64>,
    /// Encoded region name, when the format has it (the JMX join key).
    pub encoded: Option<String>,
    /// 1-based line of the input it came from (for errors found after parsing).
    #[serde(skip)]
    pub line: usize,
}

fn ser_key<S: serde::Serializer>(k: &[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&to_string_binary(k))
}

/// An imported table: its regions in key order, and what was assumed while reading them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct InitialTable {
    /// `namespace:table` when the input names it.
    pub table: Option<String>,
    /// Regions in key order (after [`InitialTable::validate`]).
    pub regions: Vec<InitialRegion>,
    /// What was assumed or left out while reading, for people.
    pub warnings: Vec<String>,
}

/// The input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// HBase shell `list_regions 'TABLE'` output.
    #[value(name = "list_regions")]
    ListRegions,
    /// RegionServer `/jmx` JSON (keys from a companion file).
    Jmx,
    /// `start,end,server,store_bytes,store_files[,memstore_bytes,read_requests,write_requests]`.
    Csv,
}

impl Format {
    /// The name used on the command line and in scenarios.
    pub fn name(self) -> &'static str {
        match self {
            Format::ListRegions => "list_regions",
            Format::Jmx => "jmx",
            Format::Csv => "csv",
        }
    }

    /// Parses a scenario's `format` value.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "list_regions" => Some(Format::ListRegions),
            "jmx" => Some(Format::Jmx),
            "csv" => Some(Format::Csv),
            _ => None,
        }
    }
}

/// Most regions an import may hold (as a pre-split: `[table.presplit] regions`).
pub const MAX_REGIONS: usize = 1_000_000;
/// Most store files one imported region may start with (as `[[other_table]] store_files`).
pub const MAX_STORE_FILES: u64 = 10_000;

/// Guesses the format from the content: JSON starts with `{` or `[`; the shell's table has a
/// ` SERVER_NAME |`-style header of `|`-separated columns; anything else is read as CSV.
pub fn detect(text: &str) -> Format {
    let t = text.trim_start();
    if t.starts_with('{') || t.starts_with('[') {
        Format::Jmx
    } else if text.lines().any(list_regions::looks_like_header) {
        Format::ListRegions
    } else {
        Format::Csv
    }
}

/// Reads, parses and validates an import. `keys` is the companion file a JMX dump needs for
/// its start/end keys (a `list_regions` output or a CSV with a `region` column).
pub fn load(
    path: &Path,
    format: Option<Format>,
    table: Option<&str>,
    keys: Option<&Path>,
) -> Result<InitialTable, InputError> {
    let src = SourceText::read(path, "import file")?;
    let format = format.unwrap_or_else(|| detect(&src.text));
    let t = match format {
        Format::ListRegions => {
            let t = list_regions::parse(&src)?;
            if let (Some(want), Some(got)) = (table, t.table.as_deref())
                && want != got
            {
                return Err(InputError::new(format!(
                    "the listing is of table `{got}`, not `{want}`"
                ))
                .in_file(path)
                .field("table")
                .expected(format!(
                    "the `list_regions '{want}'` output, or `table = \"{got}\"`"
                )));
            }
            t
        }
        Format::Csv => {
            // A CSV has no table name: the one asked for names it.
            let mut t = csv::parse(&src)?;
            t.table = table.map(str::to_string);
            t
        }
        Format::Jmx => {
            let Some(kp) = keys else {
                return Err(InputError::new(
                    "a /jmx dump has no start or end keys; they come from a companion file",
                )
                .in_file(path)
                .field("keys")
                .expected(
                    "a keys file (`--keys FILE` or `keys = \"...\"` in [initial]): the table's \
                     `list_regions` output or a CSV with a `region` column (encoded names)",
                ));
            };
            let ksrc = SourceText::read(kp, "keys file")?;
            let companion = match detect(&ksrc.text) {
                Format::ListRegions => list_regions::parse(&ksrc)?,
                Format::Csv => csv::parse(&ksrc)?,
                Format::Jmx => {
                    return Err(InputError::new("the keys file is JSON, which has no keys")
                        .in_file(kp)
                        .field("keys")
                        .expected("`list_regions` output or a CSV with a `region` column"));
                }
            };
            // The keys (and so any tiling error) are in the keys file.
            return jmx::parse(&src, table, &companion, &ksrc)?.validate(&ksrc);
        }
    };
    t.validate(&src)
}

impl InitialTable {
    /// Sorts the regions by start key and checks that they tile the key space: no region twice,
    /// the first starting and the last ending at the empty key, each ending where the next
    /// starts. A gap is an error (a region missing from a partial dump: its rows would have no
    /// region, and inventing one would invent its size); so is an overlap.
    pub fn validate(mut self, src: &SourceText) -> Result<InitialTable, InputError> {
        let at_line = |line: usize, field: &'static str| {
            let off = line_offset(&src.text, line);
            move |e: InputError| e.at(src, off..off).field(field)
        };
        if self.regions.is_empty() {
            return Err(InputError::new("the import holds no regions")
                .in_file(&src.path)
                .expected("at least one region"));
        }
        if self.regions.len() > MAX_REGIONS {
            return Err(InputError::new(format!(
                "the import holds {} regions",
                self.regions.len()
            ))
            .in_file(&src.path)
            .expected(format!(
                "at most {MAX_REGIONS} regions (a pre-split's limit: each costs memory)"
            )));
        }
        for r in &self.regions {
            if r.store_files > MAX_STORE_FILES {
                return Err(at_line(r.line, "store_files")(
                    InputError::new(format!("{} store files in one region", r.store_files))
                        .expected(format!(
                            "at most {MAX_STORE_FILES} per region (HBase blocks writes at 16 by \
                             default; each file is emulated)"
                        )),
                ));
            }
            if !r.end.is_empty() && r.end <= r.start {
                return Err(at_line(r.line, "end")(
                    InputError::new(format!(
                        "region `{}`..`{}` ends before it starts",
                        show_key(&r.start),
                        show_key(&r.end)
                    ))
                    .expected("an end key after the start key, or empty for the last region"),
                ));
            }
        }
        self.regions.sort_by(|a, b| a.start.cmp(&b.start));
        for w in self.regions.windows(2) {
            if w[0].start == w[1].start {
                return Err(at_line(w[1].line, "start")(
                    InputError::new(format!(
                        "a region starting at `{}` is listed twice (lines {} and {})",
                        show_key(&w[1].start),
                        w[0].line.min(w[1].line),
                        w[0].line.max(w[1].line)
                    ))
                    .expected("each region once"),
                ));
            }
        }
        let first = &self.regions[0];
        if !first.start.is_empty() {
            return Err(at_line(first.line, "start")(
                InputError::new(format!(
                    "no region starts at the empty key: the first region starts at `{}` (rows \
                 before it would have no region)",
                    show_key(&first.start)
                ))
                .expected("the whole table: a first region with an empty start key"),
            ));
        }
        for w in self.regions.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            if a.end.is_empty() {
                return Err(at_line(a.line, "end")(
                    InputError::new(format!(
                        "region `{}`..(end of table) overlaps the region starting at `{}`",
                        show_key(&a.start),
                        show_key(&b.start)
                    ))
                    .expected("only the last region ends at the empty key"),
                ));
            }
            if a.end != b.start {
                let what = if a.end < b.start { "gap" } else { "overlap" };
                return Err(at_line(b.line, "start")(InputError::new(format!(
                    "{what} between regions: one ends at `{}` (line {}), the next starts at `{}`",
                    show_key(&a.end),
                    a.line,
                    show_key(&b.start)
                ))
                .expected(
                    "regions that tile the key space: each end key is the next region's start \
                     key (a partial dump is refused, not filled in)",
                )));
            }
        }
        // Totals are summed over regions and servers as u64: a sum past 16 EiB would wrap (three
        // regions of 8,000 PB printed "7.44 EiB"); refused at the region that passes it.
        let mut total: u64 = 0;
        let mut dropped = 0usize;
        for r in &self.regions {
            total = match total.checked_add(r.store_bytes) {
                Some(t) => t,
                None => {
                    return Err(at_line(r.line, "store_bytes")(
                        InputError::new(
                            "the regions' store bytes add up to more than 16 EiB from this \
                             region on",
                        )
                        .expected("a table of at most 16 EiB of store files in all"),
                    ));
                }
            };
            if r.store_bytes > 0 && r.store_files == 0 {
                dropped += 1;
            }
        }
        if dropped > 0 {
            // The engine opens a region's bytes as its files; with none there is nothing to
            // hold them, so they are left out, said here rather than silently.
            self.warnings.push(format!(
                "{dropped} region(s) have store bytes but no store files: their bytes are left \
                 out (a region starts empty); give them `store_files` to load them"
            ));
        }
        let last = self.regions.last().expect("non-empty");
        if !last.end.is_empty() {
            return Err(at_line(last.line, "end")(
                InputError::new(format!(
                    "no region ends at the empty key: the last region ends at `{}`",
                    show_key(&last.end)
                ))
                .expected("the whole table: a last region with an empty end key"),
            ));
        }
        Ok(self)
    }

    /// The distinct server names, sorted.
    pub fn servers(&self) -> Vec<String> {
        let mut s: Vec<String> = self.regions.iter().map(|r| r.server.clone()).collect();
        s.sort();
        s.dedup();
        s
    }

    /// Index into [`servers`](Self::servers) of each region's server.
    pub fn server_indices(&self) -> Vec<usize> {
        let servers = self.servers();
        self.regions
            .iter()
            .map(|r| servers.binary_search(&r.server).expect("listed"))
            .collect()
    }

    /// Per server (sorted by name): regions, store bytes, store files.
    pub fn server_totals(&self) -> Vec<ServerTotal> {
        let mut out: Vec<ServerTotal> = self
            .servers()
            .into_iter()
            .map(|server| ServerTotal {
                server,
                regions: 0,
                store_bytes: 0,
                store_files: 0,
            })
            .collect();
        for (r, i) in self.regions.iter().zip(self.server_indices()) {
            out[i].regions += 1;
            // `validate` bounds the total store bytes; files are bounded per region.
            out[i].store_bytes = out[i].store_bytes.saturating_add(r.store_bytes);
            out[i].store_files = out[i].store_files.saturating_add(r.store_files);
        }
        out
    }

    /// Store bytes of all regions.
    pub fn total_store_bytes(&self) -> u64 {
        self.regions
            .iter()
            .fold(0u64, |a, r| a.saturating_add(r.store_bytes))
    }

    /// The CSV form (`csv::parse` reads it back): keys in toStringBinary, sizes in bytes, the
    /// optional columns only when some region has them.
    pub fn to_csv(&self) -> String {
        let has = |f: fn(&InitialRegion) -> bool| self.regions.iter().any(f);
        let mem = has(|r| r.memstore_bytes.is_some());
        let rd = has(|r| r.read_requests.is_some());
        let wr = has(|r| r.write_requests.is_some());
        let enc = has(|r| r.encoded.is_some());
        let mut w = ::csv::WriterBuilder::new().from_writer(Vec::new());
        let mut header = vec!["start", "end", "server", "store_bytes", "store_files"];
        for (on, name) in [
            (mem, "memstore_bytes"),
            (rd, "read_requests"),
            (wr, "write_requests"),
            (enc, "region"),
        ] {
            if on {
                header.push(name);
            }
        }
        let _ = w.write_record(&header);
        let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
        for r in &self.regions {
            let mut rec = vec![
                csv_key(&r.start),
                csv_key(&r.end),
                r.server.clone(),
                r.store_bytes.to_string(),
                r.store_files.to_string(),
            ];
            if mem {
                rec.push(opt(r.memstore_bytes));
            }
            if rd {
                rec.push(opt(r.read_requests));
            }
            if wr {
                rec.push(opt(r.write_requests));
            }
            if enc {
                rec.push(r.encoded.clone().unwrap_or_default());
            }
            let _ = w.write_record(&rec);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// A human summary: regions, servers, sizes, per-server totals, warnings.
    pub fn to_text(&self) -> String {
        use crate::units::format_bytes;
        let mut s = String::new();
        let table = self.table.as_deref().unwrap_or("(unnamed)");
        s.push_str(&format!(
            "Imported table {table}: {} regions on {} servers, {} in {} store files\n",
            self.regions.len(),
            self.servers().len(),
            format_bytes(self.total_store_bytes()),
            self.regions.iter().map(|r| r.store_files).sum::<u64>()
        ));
        s.push_str("  Regions (start .. end, server, store bytes, files)\n");
        for r in &self.regions {
            s.push_str(&format!(
                "    `{}` .. `{}`  {}  {}  {}\n",
                show_key(&r.start),
                show_key(&r.end),
                r.server,
                format_bytes(r.store_bytes),
                r.store_files
            ));
        }
        s.push_str("  Per server (regions, store bytes, files)\n");
        for t in self.server_totals() {
            s.push_str(&format!(
                "    {}  {}  {}  {}\n",
                t.server,
                t.regions,
                format_bytes(t.store_bytes),
                t.store_files
            ));
        }
        for w in &self.warnings {
            s.push_str(&format!("  warning: {w}\n"));
        }
        s
    }
}

/// A key for the CSV: toStringBinary with a leading or trailing space as `\x20` (fields are
/// trimmed when read).
fn csv_key(k: &[u8]) -> String {
    let s = to_string_binary(k);
    let lead = s.len() - s.trim_start_matches(' ').len();
    if lead == s.len() {
        return "\\x20".repeat(lead);
    }
    let trail = s.len() - s.trim_end_matches(' ').len();
    format!(
        "{}{}{}",
        "\\x20".repeat(lead),
        &s[lead..s.len() - trail],
        "\\x20".repeat(trail)
    )
}

/// One server's share of an imported table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerTotal {
    /// Server name.
    pub server: String,
    /// Regions it hosts.
    pub regions: usize,
    /// Their store bytes.
    pub store_bytes: u64,
    /// Their store files.
    pub store_files: u64,
}

/// A key for messages: toStringBinary, cut short when long.
pub(crate) fn show_key(key: &[u8]) -> String {
    const SHOWN: usize = 64;
    if key.len() <= SHOWN {
        to_string_binary(key)
    } else {
        format!("{}… ({} bytes)", to_string_binary(&key[..SHOWN]), key.len())
    }
}

/// Byte offset of the start of 1-based `line` (the end of the text past the last line).
pub(crate) fn line_offset(text: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n')
        .nth(line - 2)
        .map_or(text.len(), |(i, _)| i + 1)
}

/// Parses a whole non-negative number (`_` separators allowed), for counts in the inputs.
pub(crate) fn parse_count(s: &str) -> Option<u64> {
    let t = s.trim().replace('_', "");
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

#[cfg(test)]
mod tests;
