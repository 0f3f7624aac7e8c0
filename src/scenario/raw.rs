//! The scenario file as written (serde structs with spans). Validation into typed values is in
//! `scenario/mod.rs`; nothing past the loader sees these.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::keygen::GeneratorSpec;

/// A size, a count or a rate may be written as a TOML integer or a string with units.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Quantity {
    /// `134217728`
    Int(i64),
    /// `0.5` (only meaningful for counts/sizes that allow fractions; rejected elsewhere)
    Float(f64),
    /// `"2GB"`, `"1GB/s"`, `"100M"`
    Text(String),
}

/// Top level of a scenario file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub schema_version: Option<Spanned<i64>>,
    pub name: Spanned<String>,
    pub description: Option<Spanned<String>>,
    pub seed: Option<Spanned<i64>>,
    pub cluster: Spanned<RawCluster>,
    pub hbase: Option<Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>>,
    pub table: Option<Spanned<RawTable>>,
    pub workload: Spanned<RawWorkload>,
    pub client: Option<Spanned<RawClient>>,
    #[serde(default)]
    pub generator: Vec<Spanned<GeneratorSpec>>,
    #[serde(default)]
    pub event: Vec<Spanned<RawEvent>>,
    /// `[expect]`: `all = [...]` and `DESIGN = [...]`, lists of expectation texts.
    pub expect: Option<Spanned<RawExpect>>,
    pub sweep: Option<Spanned<RawSweep>>,
    pub initial: Option<Spanned<RawInitial>>,
    /// `[[other_table]]`: tables already on the cluster beside the one being designed.
    #[serde(default)]
    pub other_table: Vec<Spanned<RawOtherTable>>,
    /// `[bulk_load]`: the job that writes the HFiles of the designs loaded in bulk.
    pub bulk_load: Option<Spanned<RawBulkLoad>>,
}

/// `[bulk_load]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBulkLoad {
    pub slots_per_node: Option<Spanned<i64>>,
    pub task_rate: Option<Spanned<Quantity>>,
    pub startup: Option<Spanned<Quantity>>,
}

/// `[[other_table]]`: another table on the same cluster, with its size and load.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOtherTable {
    pub name: Spanned<String>,
    pub regions: Option<Spanned<i64>>,
    pub region_size: Option<Spanned<Quantity>>,
    pub size: Option<Spanned<Quantity>>,
    pub store_files: Option<Spanned<i64>>,
    pub write_rate: Option<Spanned<Quantity>>,
    pub initial: Option<Spanned<RawInitial>>,
    pub gets_per_s: Option<Spanned<f64>>,
    pub scans_per_s: Option<Spanned<f64>>,
    pub scan_rows: Option<Spanned<i64>>,
}

/// `[initial]`: start from an existing table's regions.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInitial {
    pub file: Spanned<String>,
    pub format: Option<Spanned<String>>,
    pub table: Option<Spanned<String>>,
    pub keys: Option<Spanned<String>>,
    pub servers: Option<Spanned<String>>,
}

/// `[expect]`: a list of expectation texts per design (`all` or a generator name).
pub type RawExpect = BTreeMap<Spanned<String>, Spanned<Vec<Spanned<String>>>>;

/// `[sweep]`: the grid `hbase-emu sweep` runs (other commands ignore it).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSweep {
    pub vary: Spanned<BTreeMap<Spanned<String>, Spanned<SweepValues>>>,
}

/// One `[sweep] vary` key's values.
pub type SweepValues = Vec<Spanned<toml::Value>>;

/// `[cluster]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCluster {
    pub regionservers: Spanned<i64>,
    pub heap: Option<Spanned<Quantity>>,
    #[serde(default)]
    pub hbase_site: Vec<Spanned<String>>,
    pub write_bandwidth: Option<Spanned<Quantity>>,
    pub flush_bandwidth: Option<Spanned<Quantity>>,
    pub compaction_bandwidth: Option<Spanned<Quantity>>,
    pub region_transition: Option<Spanned<Quantity>>,
    pub failure_detection: Option<Spanned<Quantity>>,
    pub wal_replay_bandwidth: Option<Spanned<Quantity>>,
    pub hardware: Option<Spanned<String>>,
    pub disks: Option<Spanned<i64>>,
    pub disk_bandwidth: Option<Spanned<Quantity>>,
    pub network: Option<Spanned<Quantity>>,
    pub cores: Option<Spanned<i64>>,
    pub variability: Option<Spanned<String>>,
    pub assumptions: Option<Spanned<Vec<Spanned<String>>>>,
}

/// `[client]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClient {
    pub writers: Option<Spanned<i64>>,
    pub scan_windows: Option<Spanned<Vec<Spanned<Quantity>>>>,
    pub clients: Option<Spanned<i64>>,
    pub partition: Option<Spanned<String>>,
    #[serde(rename = "loop")]
    pub r#loop: Option<Spanned<String>>,
    pub buffering: Option<Spanned<bool>>,
    pub request_time: Option<Spanned<Quantity>>,
}

/// `[table]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    pub name: Option<Spanned<String>>,
    pub families: Option<Spanned<Vec<Spanned<RawFamily>>>>,
    pub max_filesize: Option<Spanned<Quantity>>,
    pub ttl: Option<Spanned<Quantity>>,
    pub versions: Option<Spanned<i64>>,
    pub compression: Option<Spanned<String>>,
    pub memstore_flushsize: Option<Spanned<Quantity>>,
    pub split_policy: Option<Spanned<String>>,
    pub prefix_length: Option<Spanned<i64>>,
    pub prefix_delimiter: Option<Spanned<String>>,
    pub split_restriction: Option<Spanned<String>>,
    pub split_restriction_prefix_length: Option<Spanned<i64>>,
    pub split_restriction_delimiter: Option<Spanned<String>>,
    pub normalization_enabled: Option<Spanned<bool>>,
    pub normalizer_target_region_size_mb: Option<Spanned<i64>>,
    pub normalizer_target_region_count: Option<Spanned<i64>>,
    pub normalizer_split_enabled: Option<Spanned<bool>>,
    pub normalizer_merge_enabled: Option<Spanned<bool>>,
    pub normalizer_merge_min_region_count: Option<Spanned<i64>>,
    pub normalizer_merge_min_region_age_days: Option<Spanned<i64>>,
    pub normalizer_merge_min_region_size_mb: Option<Spanned<i64>>,
    pub presplit: Option<Spanned<RawPresplit>>,
}

/// One entry of `table.families`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFamily {
    pub name: Spanned<String>,
    pub block_size: Option<Spanned<Quantity>>,
    pub compression: Option<Spanned<String>>,
    pub compression_ratio: Option<Spanned<f64>>,
    pub ttl: Option<Spanned<Quantity>>,
    pub versions: Option<Spanned<i64>>,
}

/// Which pre-split a table gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PresplitAlgorithm {
    None,
    Hex,
    Decimal,
    Uniform,
    Md5Legacy,
    Partition,
    Sampled,
    Keys,
    File,
}

/// `[table.presplit]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPresplit {
    pub algorithm: Spanned<PresplitAlgorithm>,
    pub regions: Option<Spanned<i64>>,
    pub samples: Option<Spanned<Quantity>>,
    pub keys: Option<Spanned<Vec<Spanned<String>>>>,
    pub file: Option<Spanned<String>>,
    pub first_row: Option<Spanned<String>>,
    pub last_row: Option<Spanned<String>>,
}

/// `[workload]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWorkload {
    pub data: Option<Spanned<Quantity>>,
    pub rows: Option<Spanned<Quantity>>,
    pub first_id: Option<Spanned<i64>>,
    pub row: Option<Spanned<RawRow>>,
    pub rate: Option<Spanned<Quantity>>,
    pub scale: Option<Spanned<i64>>,
    pub start_time: Option<Spanned<String>>,
    pub duration: Option<Spanned<Quantity>>,
    pub reads: Option<Spanned<RawReads>>,
    pub update_fraction: Option<Spanned<f64>>,
    pub delete_fraction: Option<Spanned<f64>>,
    pub compressibility: Option<Spanned<f64>>,
}

/// `workload.row`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    pub columns: Option<Spanned<i64>>,
    pub qualifier: Option<Spanned<Quantity>>,
    pub value: Option<Spanned<Quantity>>,
}

/// How reads pick rows (YCSB `requestdistribution`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawDistribution {
    Uniform,
    Zipfian,
    Latest,
    Hotspot,
}

/// `[workload.reads]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReads {
    pub gets_per_s: Option<Spanned<f64>>,
    pub scans_per_s: Option<Spanned<f64>>,
    pub scan_rows: Option<Spanned<i64>>,
    pub distribution: Option<Spanned<RawDistribution>>,
    pub theta: Option<Spanned<f64>>,
    pub hot_fraction: Option<Spanned<f64>>,
    pub hot_op_fraction: Option<Spanned<f64>>,
}

/// One `[[event]]`: exactly one trigger (`at*`) and exactly one action.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    pub at: Option<Spanned<Quantity>>,
    pub at_data: Option<Spanned<Quantity>>,
    pub at_fraction: Option<Spanned<f64>>,
    pub at_rows: Option<Spanned<Quantity>>,
    pub add_servers: Option<Spanned<i64>>,
    pub decommission: Option<Spanned<String>>,
    pub kill: Option<Spanned<String>>,
    pub set: Option<Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>>,
    pub phase: Option<Spanned<RawPhase>>,
}

/// `phase = { … }` of an event.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPhase {
    pub rate: Option<Spanned<Quantity>>,
    pub gets_per_s: Option<Spanned<f64>>,
    pub scans_per_s: Option<Spanned<f64>>,
}
