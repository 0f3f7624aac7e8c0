//! `hbase-emu import FILE`: read, validate and show an existing table's regions, and write them as
//! the editable CSV form.

use std::path::PathBuf;

use clap::Args;

use super::Format;
use crate::diag::InputError;
use crate::output::write_output;

/// `import`
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The dump: `list_regions` output, a RegionServer's /jmx JSON, or the CSV form.
    pub file: PathBuf,
    /// Its format (default: detected from the content).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// The table to take from a dump holding several (`ns:table`, or `table` in `default`).
    #[arg(long, value_name = "NAME")]
    pub table: Option<String>,
    /// The start/end keys of a /jmx dump: the table's `list_regions` output, or a CSV with a
    /// `region` column (encoded region names).
    #[arg(long, value_name = "FILE")]
    pub keys: Option<PathBuf>,
    /// Write the imported regions as CSV to FILE (`-` = standard output, instead of the
    /// summary).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `import`.
pub fn import(args: &ImportArgs) -> Result<(), InputError> {
    let t = super::load(
        &args.file,
        args.format,
        args.table.as_deref(),
        args.keys.as_deref(),
    )?;
    let to_stdout = args.out.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if let Some(out) = args.out.as_deref().filter(|_| !to_stdout) {
        write_output(Some(out), t.to_csv().as_bytes()).map_err(|e| e.field_if_unset("--out"))?;
    }
    let text = if to_stdout {
        t.to_csv()
    } else if args.json {
        let v = serde_json::json!({
            "table": t.table,
            "regions": t.regions,
            "servers": t.server_totals(),
            "store_bytes": t.total_store_bytes(),
            "warnings": t.warnings,
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else {
        t.to_text()
    };
    write_output(None, text.as_bytes())
}
