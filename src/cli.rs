//! Command-line interface: the clap argument types. `commands` (and `advise`, which owns its
//! arguments) run them, and `experiment::suite` runs `test`; nothing else imports this module.

use std::path::PathBuf;
use std::sync::OnceLock;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use crate::argval::EmulationArgs;
use crate::argval::{count_arg, sample_keys_arg, seed_arg};

/// `--version`: the package's version and the kernels this host runs (`kernel::describe`).
fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        format!(
            "{} (kernels: {})",
            env!("CARGO_PKG_VERSION"),
            crate::kernel::describe()
        )
    })
}

/// hbase-emu: see how an HBase table's regions grow, split and spread before you load it.
#[derive(Debug, Parser)]
#[command(
    name = "hbase-emu",
    version = version(),
    about = "Emulate how HBase 2.x regions grow, split and spread over RegionServers",
    long_about = "hbase-emu emulates what HBase 2.x does with a table's writes: rowkey layout, pre-split keys, \
                  region size and RegionServer count.\n\nWith no command it runs the built-in headline \
                  scenario (4 TB, 10 RegionServers, 2 GB regions; sequential vs hashed vs salted keys) and \
                  prints the comparison.",
    after_help = "Exit status: 0 ok, 1 an expectation of the scenario failed (`run`, `test`), 2 usage or \
                  input error (the message names file, line, column and field)."
)]
pub struct Cli {
    /// What to do (default: `run` the built-in headline scenario).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scenario: emulate every generator's load and report regions, splits and load.
    Run(RunArgs),
    /// Run every scenario (*.toml) of a folder as a test suite: each `[expect]` entry is a test
    /// case; prints one line per case and writes JUnit XML with --junit.
    Test(TestArgs),
    /// Validate a scenario and its config files and print the resolved plan.
    Check(CheckArgs),
    /// Print the first keys of each generator of a scenario.
    Keys(KeysArgs),
    /// Print pre-split keys (SPLITS_FILE format, or a ready HBase shell `create`).
    SplitKeys(SplitKeysArgs),
    /// Print the effective value of every modelled HBase key and where it came from.
    Config(ConfigArgs),
    /// Recommend a pre-split for a generator: region count, split keys, SPLITS_FILE and shell
    /// `create`, emulated against the scenario's own pre-split.
    Advise(crate::advise::AdviseArgs),
    /// Render a saved JSON run report (`run --format json`) as HTML, CSV, text or JSON.
    Report(ReportArgs),
    /// What changed between two saved JSON run reports: figures, regions, splits, write
    /// shares, scenario and configuration.
    Diff(DiffArgs),
    /// Run a scenario over a grid of values (`--vary KEY=V1,V2` or its `[sweep]`) and tabulate
    /// each point's figures; writes sweep.json, sweep.csv and sweep.html with --out.
    Sweep(crate::experiment::sweep_cmd::SweepArgs),
    /// Join the slices of a sharded sweep (`sweep --shard I/N --out DIR`) into the whole sweep.
    Merge(crate::experiment::sweep_cmd::MergeArgs),
    /// Read an existing table's regions (`list_regions` output, /jmx JSON, or CSV), validate
    /// them and print regions, servers and sizes, or write them as CSV with --out.
    Import(crate::import::cmd::ImportArgs),
}

/// `diff`
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier report (`run --format json`, or DIR/report.json of `run --out DIR`).
    pub old: PathBuf,
    /// The later report.
    pub new: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Output format of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tables for people.
    Text,
    /// One JSON document.
    Json,
}

/// Output format of `run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    /// Tables for people.
    Text,
    /// One JSON document (docs/REPORT.md).
    Json,
    /// Regions as CSV, one row per region and generator (with --out: regions, servers, splits
    /// and timeline CSV files).
    Csv,
    /// One self-contained HTML page with charts (with --out: DIR/report.html).
    Html,
}

/// `run`
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Scenario file (TOML). Default: the built-in headline scenario.
    pub scenario: Option<PathBuf>,
    /// Run only these generators (by name; repeatable).
    #[arg(long = "generator", value_name = "NAME")]
    pub generators: Vec<String>,
    /// Output format on standard output.
    #[arg(long, value_enum, default_value_t = RunFormat::Text)]
    pub format: RunFormat,
    /// Also write report.txt, report.json, regions.csv, servers.csv, splits.csv and timeline.csv
    /// into this directory (created if missing), and report.html with regions.html (every region,
    /// sortable) with --format html.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Override the scenario's seed.
    #[arg(long, allow_negative_numbers = true, value_parser = seed_arg)]
    pub seed: Option<u64>,
    /// Override a scenario field or a modelled hbase-site.xml key for this run (KEY=VALUE,
    /// repeatable; keys and values as for `sweep --vary`: `table.max_filesize=10GB`,
    /// `servers=20`, `hbase.hstore.blockingStoreFiles=32`, `generator.NAME.buckets=32`). The
    /// file is validated with the values written in; the report lists them.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Threads, scale and memory limit.
    #[command(flatten)]
    pub emulation: EmulationArgs,
    /// Add wall-clock timings to the report (they make it differ between runs).
    #[arg(long)]
    pub timings: bool,
    /// Print the life of one region: `#N` (the N-th region of the final table) or a row key
    /// (toStringBinary), traced back through the regions that held it.
    #[arg(long, value_name = "REGION_OR_KEY")]
    pub explain: Option<String>,
    /// No progress bars on standard error (they only appear when it is a terminal).
    #[arg(long)]
    pub quiet: bool,
    /// Text: add the long tables (regions, splits, events, moves, merges); report.txt under
    /// --out always has them.
    #[arg(long)]
    pub detail: bool,
    /// Also run under these assumption profiles (comma-separated: low, typical, high; see
    /// docs/CALIBRATION.md) and show each figure that moves as typical [lowest … highest].
    /// Overrides the scenario's `[cluster] assumptions`.
    #[arg(long, value_delimiter = ',', value_name = "PROFILES")]
    pub assumptions: Vec<String>,
}

/// `test`
#[derive(Debug, Args)]
pub struct TestArgs {
    /// Folder whose *.toml scenarios to run, in file-name order.
    pub dir: PathBuf,
    /// Write JUnit XML here (atomically): a testsuite per scenario, a testcase per design and
    /// expectation.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Override every scenario's seed (do its expectations hold at other seeds?).
    #[arg(long, allow_negative_numbers = true, value_parser = seed_arg)]
    pub seed: Option<u64>,
    /// Threads, scale and memory limit (for every scenario).
    #[command(flatten)]
    pub emulation: EmulationArgs,
}

/// `report`
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A JSON report written by `run --format json` or `run --out DIR` (DIR/report.json).
    pub report: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RunFormat::Html)]
    pub format: RunFormat,
    /// Write the format's files into this directory (created if missing) instead of standard
    /// output: report.html and regions.html, report.txt, report.json, or the four CSV files.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Text on standard output: add the long tables (report.txt always has them).
    #[arg(long)]
    pub detail: bool,
}

/// `check`
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Scenario file (TOML). Default: the built-in headline scenario.
    pub scenario: Option<PathBuf>,
    /// Override the scenario's seed.
    #[arg(long, allow_negative_numbers = true, value_parser = seed_arg)]
    pub seed: Option<u64>,
    /// Override a scenario field or a modelled hbase-site.xml key (KEY=VALUE, repeatable; as
    /// for `run --set`): the plan and settings shown are the effective ones.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Plan only these generators (by name; repeatable).
    #[arg(long = "generator", value_name = "NAME")]
    pub generators: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Sample keys to show per generator.
    #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = sample_keys_arg)]
    pub sample_keys: u64,
    /// Refuse before running when the memory estimate exceeds SIZE (default: 80 % of
    /// MemAvailable, or 8 GiB where /proc/meminfo cannot be read).
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = crate::argval::memory_arg)]
    pub max_memory: Option<u64>,
}

/// `keys`
#[derive(Debug, Args)]
pub struct KeysArgs {
    /// Scenario file whose generators to use.
    #[arg(long)]
    pub scenario: PathBuf,
    /// Only these generators (by name; repeatable). Default: all.
    #[arg(long = "generator", value_name = "NAME")]
    pub generators: Vec<String>,
    /// Keys per generator.
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = count_arg)]
    pub count: u64,
    /// First row id (default: the workload's first_id).
    #[arg(long, allow_negative_numbers = true, value_parser = seed_arg)]
    pub start: Option<u64>,
    /// Print keys as lowercase hex instead of toStringBinary.
    #[arg(long)]
    pub hex: bool,
    /// Override the scenario's seed.
    #[arg(long, allow_negative_numbers = true, value_parser = seed_arg)]
    pub seed: Option<u64>,
}

/// Split algorithm for `split-keys`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SplitAlgorithm {
    /// HexStringSplit: 8 lowercase hex digits, 00000000..ffffffff.
    Hex,
    /// DecimalStringSplit: 8 decimal digits, 00000000..99999999.
    Decimal,
    /// UniformSplit: evenly spaced 8-byte keys.
    Uniform,
    /// The 0.90/0.92 MD5StringSplit: 00000000..7fffffff.
    Md5Legacy,
    /// 8-byte big-endian longs 1..N−1 (partition keys).
    Partition,
    /// Quantiles of a scenario generator's keys (needs --scenario and --generator).
    Sampled,
}

/// `split-keys`
#[derive(Debug, Args)]
pub struct SplitKeysArgs {
    /// Split algorithm.
    #[arg(long, value_enum)]
    pub algorithm: SplitAlgorithm,
    /// Number of regions (N−1 keys are printed). Required unless --between or --rolling.
    #[arg(long, required_unless_present_any = ["between", "rolling"], allow_negative_numbers = true, value_parser = seed_arg)]
    pub regions: Option<u64>,
    /// Print the row that splits the range [START, END) as the algorithm's two-key
    /// `split(start, end)` does (hex, decimal or uniform; keys in toStringBinary notation). An
    /// empty START or END stands for the algorithm's first or last row, as in a rolling split.
    #[arg(long, num_args = 2, value_names = ["START", "END"], conflicts_with_all = ["regions", "rolling"])]
    pub between: Option<Vec<String>>,
    /// Print the plan of a rolling split (`RegionSplitter -r`) of this scenario's table as it is
    /// created (pre-split regions, round-robin placement): every region split once at the
    /// algorithm's point of its range, in the order RegionSplitter issues the splits.
    #[arg(long, value_name = "SCENARIO", conflicts_with_all = ["regions", "scenario"])]
    pub rolling: Option<PathBuf>,
    /// With --rolling: RegionSplitter's `split.outstanding` (splits in flight at once are
    /// max(RegionServers / 2, this)).
    #[arg(long, default_value_t = crate::presplit::DEFAULT_MIN_OUTSTANDING, requires = "rolling")]
    pub outstanding: usize,
    /// Custom first row: hex or decimal digits for hex/decimal, toStringBinary notation (e.g.
    /// `\x10`) for uniform.
    #[arg(long)]
    pub first_row: Option<String>,
    /// Custom last row: hex or decimal digits for hex/decimal, toStringBinary notation for uniform.
    #[arg(long)]
    pub last_row: Option<String>,
    /// Scenario (with --algorithm sampled).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// Generator to sample (with --algorithm sampled), or whose pre-split table to plan (with
    /// --rolling; default the first).
    #[arg(long)]
    pub generator: Option<String>,
    /// Keys to sample (with --algorithm sampled).
    #[arg(long, default_value_t = crate::scenario::DEFAULT_SAMPLES, allow_negative_numbers = true, value_parser = seed_arg)]
    pub samples: u64,
    /// Print an HBase shell `create 'TABLE', 'FAMILY', SPLITS => [...]` instead of one key per line.
    #[arg(long, num_args = 2, value_names = ["TABLE", "FAMILY"])]
    pub shell: Option<Vec<String>>,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Override the scenario's seed (with --algorithm sampled or --rolling).
    #[arg(long, allow_negative_numbers = true, value_parser = seed_arg)]
    pub seed: Option<u64>,
}

/// `config`
#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// hbase-site.xml files, layered in order over the defaults (repeatable).
    #[arg(long = "config", value_name = "FILE")]
    pub configs: Vec<PathBuf>,
    /// A scenario whose site files, [hbase] overrides and table attributes apply (before --config files).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// Set a property (KEY=VALUE, repeatable), applied after the scenario and --config files. A
    /// property marked final in an earlier layer keeps its value (the --set is ignored with a
    /// warning), and the scenario's table attributes (MAX_FILESIZE, MEMSTORE_FLUSHSIZE,
    /// SPLIT_POLICY, NORMALIZATION_ENABLED) still win over the keys they shadow.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}
