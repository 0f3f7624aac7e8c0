//! The `[[generator]]` entry as written in a scenario, and the option checks `build` shares.
//!
//! The struct is flat (a unit `kind` enum plus optional, spanned options) so toml reports exact
//! spans and unknown keys at their own line (RUST-NOTES §3). Which options apply to which kind is
//! decided in one table, [`GeneratorKind::options`]; anything else is an error naming the option
//! and the kind.

use std::collections::BTreeMap;
use std::ops::{Range, RangeInclusive};

use serde::Deserialize;
use toml::Spanned;

use crate::diag::InputError;

/// Which built-in generator a `[[generator]]` entry uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GeneratorKind {
    /// Big-endian u64 of the id, or a zero-padded decimal.
    Sequential,
    /// Time series: `[timestamp ms: 8 BE][host: 4 BE]`.
    TimestampFirst,
    /// The classic HashRowKeyGenerator: 8 hex chars of MD5(low id ‖ low time) + 8-byte id.
    Hashed,
    /// N hex chars of MD5(8-byte BE id) + separator + id.
    Md5Prefix,
    /// `MD5StringSplit`-style: 8 hex chars of (MD5(decimal id) & 0x7FFFFFFF) + `_` + decimal id.
    Md5Legacy,
    /// `[id % N: 8 BE][id: 8 BE]`.
    Partition,
    /// Decimal `id % N` + `_` + decimal id.
    Modulo,
    /// Salt bucket (seeded hash of the id mod N) + id.
    Salted,
    /// Fixed-width decimal digits of `base + id`, reversed (phone-number style).
    Reversed,
    /// Entity prefix + 8-byte BE `Long.MAX_VALUE - timestamp`.
    ReverseTimestamp,
    /// A user template such as `{md5(user):4}_{user:08}_{revts}`.
    #[serde(alias = "composite")]
    Template,
    /// Uniformly random bytes.
    Uniform,
    /// YCSB `CoreWorkload` keys: `user` + FNV hash (or counter) of the id.
    Ycsb,
    /// Keys replayed from a file.
    File,
}

impl GeneratorKind {
    /// The kind as written in a scenario (kebab-case).
    pub fn as_str(self) -> &'static str {
        match self {
            GeneratorKind::Sequential => "sequential",
            GeneratorKind::TimestampFirst => "timestamp-first",
            GeneratorKind::Hashed => "hashed",
            GeneratorKind::Md5Prefix => "md5-prefix",
            GeneratorKind::Md5Legacy => "md5-legacy",
            GeneratorKind::Partition => "partition",
            GeneratorKind::Modulo => "modulo",
            GeneratorKind::Salted => "salted",
            GeneratorKind::Reversed => "reversed",
            GeneratorKind::ReverseTimestamp => "reverse-timestamp",
            GeneratorKind::Template => "template",
            GeneratorKind::Uniform => "uniform",
            GeneratorKind::Ycsb => "ycsb",
            GeneratorKind::File => "file",
        }
    }

    /// The options (besides `name` and `kind`) this kind accepts.
    pub fn options(self) -> &'static [&'static str] {
        const CLOCK: [&str; 3] = ["start_ms", "step_ms", "fixed_step"];
        match self {
            GeneratorKind::Sequential => &["format", "width", "prefix"],
            GeneratorKind::TimestampFirst => &["start_ms", "step_ms", "fixed_step", "cardinality"],
            GeneratorKind::Hashed => &CLOCK,
            GeneratorKind::Md5Prefix => &["hex_chars", "separator", "id_format", "width"],
            GeneratorKind::Md5Legacy => &[],
            GeneratorKind::Partition | GeneratorKind::Modulo => &["partitions"],
            GeneratorKind::Salted => &[
                "buckets",
                "bucket_format",
                "separator",
                "id_format",
                "width",
            ],
            GeneratorKind::Reversed => &["digits", "base"],
            GeneratorKind::ReverseTimestamp => {
                &["start_ms", "step_ms", "fixed_step", "cardinality", "prefix"]
            }
            GeneratorKind::Template => &["template", "fields", "start_ms", "step_ms", "fixed_step"],
            GeneratorKind::Uniform => &["length"],
            GeneratorKind::Ycsb => &["ordered", "zero_padding", "prefix"],
            GeneratorKind::File => &["path", "format"],
        }
    }
}

/// How a template field draws its value per row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldDist {
    /// The row id itself (`id % cardinality` when a cardinality is given).
    Sequential,
    /// Uniform over `0..cardinality`.
    Uniform,
    /// YCSB's ScrambledZipfianGenerator over `0..cardinality` (hot items spread over the range).
    Zipfian,
    /// YCSB's ZipfianGenerator over `0..cardinality`: item 0 hottest, then 1, 2, …
    ZipfianOrdered,
    /// YCSB's SkewedLatestGenerator: an id at or below the current one, skewed to recent ids.
    Latest,
}

/// One `fields.<name>` entry of a template generator.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    /// The distribution.
    pub dist: Spanned<FieldDist>,
    /// Number of distinct values (required for `uniform`, `zipfian`, `zipfian-ordered`; for
    /// `latest` the window of recent ids, default the workload's row count).
    pub cardinality: Option<Spanned<u64>>,
}

/// A `[[generator]]` entry of a scenario, as written. Every option is optional at the serde level;
/// [`crate::keygen::build`] checks which ones the kind accepts and requires.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratorSpec {
    /// Name of the run (unique in the scenario).
    pub name: Spanned<String>,
    /// Which built-in.
    pub kind: Spanned<GeneratorKind>,
    /// sequential: `binary` (default) | `decimal`; file: `escaped` (default) | `hex`.
    pub format: Option<Spanned<String>>,
    /// Zero-padded width of a decimal id (sequential decimal: default 10; md5-prefix / salted
    /// with `id_format = "decimal"`: default 0 = no padding).
    pub width: Option<Spanned<u64>>,
    /// Literal key prefix (sequential: default ""; ycsb: default "user"; reverse-timestamp: "").
    pub prefix: Option<Spanned<String>>,
    /// md5-prefix: hex chars of MD5 kept, 1..=32 (default 8).
    pub hex_chars: Option<Spanned<u64>>,
    /// md5-prefix / salted: text between prefix and id (default "" for a binary id, "_" for decimal).
    pub separator: Option<Spanned<String>>,
    /// md5-prefix / salted: `binary` (8-byte BE, default) | `decimal`.
    pub id_format: Option<Spanned<String>>,
    /// partition / modulo: N (required, ≥ 1).
    pub partitions: Option<Spanned<u64>>,
    /// salted: number of salt buckets N (required; ≤ 256 with `bucket_format = "byte"`).
    pub buckets: Option<Spanned<u64>>,
    /// salted: `byte` (one byte, Phoenix style, default) | `decimal` (zero-padded to the digits of N−1).
    pub bucket_format: Option<Spanned<String>>,
    /// reversed: number of decimal digits, 1..=20 (default 11).
    pub digits: Option<Spanned<u64>>,
    /// reversed: number added to the id before formatting (default 0).
    pub base: Option<Spanned<u64>>,
    /// timestamp-first: number of hosts (default 1000, ≤ 2^32); reverse-timestamp: number of
    /// entities (default 1000).
    pub cardinality: Option<Spanned<u64>>,
    /// Clock start, ms since the epoch (default 1767225600000 = 2026-01-01T00:00:00Z).
    pub start_ms: Option<Spanned<u64>>,
    /// Clock step per row in ms: uniform in `0..step_ms` (default 1000, HashRowKeyGenerator's
    /// `nextInt(1000)`), or exactly `step_ms` with `fixed_step`.
    pub step_ms: Option<Spanned<u64>>,
    /// Advance the clock by exactly `step_ms` per row (default false).
    pub fixed_step: Option<Spanned<bool>>,
    /// uniform: key length in bytes, 1..=32767 (default 16).
    pub length: Option<Spanned<u64>>,
    /// ycsb: keys from the ordered counter instead of the FNV hash (YCSB `insertorder=ordered`).
    pub ordered: Option<Spanned<bool>>,
    /// ycsb: YCSB `zeropadding` (default 1).
    pub zero_padding: Option<Spanned<u64>>,
    /// file: key file, relative to the scenario's directory (required).
    pub path: Option<Spanned<String>>,
    /// template: the template text (required).
    pub template: Option<Spanned<String>>,
    /// template: the fields the template names, by name.
    pub fields: Option<Spanned<BTreeMap<String, Spanned<FieldSpec>>>>,
}

impl GeneratorSpec {
    /// The options that are set, with the span of each value, in declaration order.
    pub fn options_set(&self) -> Vec<(&'static str, Range<usize>)> {
        fn s<T>(v: &Option<Spanned<T>>) -> Option<Range<usize>> {
            v.as_ref().map(Spanned::span)
        }
        let all = [
            ("format", s(&self.format)),
            ("width", s(&self.width)),
            ("prefix", s(&self.prefix)),
            ("hex_chars", s(&self.hex_chars)),
            ("separator", s(&self.separator)),
            ("id_format", s(&self.id_format)),
            ("partitions", s(&self.partitions)),
            ("buckets", s(&self.buckets)),
            ("bucket_format", s(&self.bucket_format)),
            ("digits", s(&self.digits)),
            ("base", s(&self.base)),
            ("cardinality", s(&self.cardinality)),
            ("start_ms", s(&self.start_ms)),
            ("step_ms", s(&self.step_ms)),
            ("fixed_step", s(&self.fixed_step)),
            ("length", s(&self.length)),
            ("ordered", s(&self.ordered)),
            ("zero_padding", s(&self.zero_padding)),
            ("path", s(&self.path)),
            ("template", s(&self.template)),
            ("fields", s(&self.fields)),
        ];
        all.into_iter()
            .filter_map(|(n, sp)| sp.map(|sp| (n, sp)))
            .collect()
    }

    /// A spec with only a name and a kind (spans empty); handy for tests and programmatic use.
    pub fn new(name: &str, kind: GeneratorKind) -> GeneratorSpec {
        GeneratorSpec {
            name: Spanned::new(0..0, name.to_string()),
            kind: Spanned::new(0..0, kind),
            format: None,
            width: None,
            prefix: None,
            hex_chars: None,
            separator: None,
            id_format: None,
            partitions: None,
            buckets: None,
            bucket_format: None,
            digits: None,
            base: None,
            cardinality: None,
            start_ms: None,
            step_ms: None,
            fixed_step: None,
            length: None,
            ordered: None,
            zero_padding: None,
            path: None,
            template: None,
            fields: None,
        }
    }
}

/// An error at an option's value: span, `generator.<option>`, expectation.
pub(crate) fn opt_err(
    option: &str,
    span: Range<usize>,
    problem: impl Into<String>,
    expected: impl Into<String>,
) -> InputError {
    InputError::new(problem)
        .with_span(span)
        .field(format!("generator.{option}"))
        .expected(expected)
}

/// Rejects options the kind does not use.
pub(crate) fn check_applicable(spec: &GeneratorSpec) -> Result<(), InputError> {
    let kind = *spec.kind.get_ref();
    let allowed = kind.options();
    for (name, span) in spec.options_set() {
        if !allowed.contains(&name) {
            let expected = if allowed.is_empty() {
                format!(
                    "no options besides `name` and `kind` for kind `{}`",
                    kind.as_str()
                )
            } else {
                format!(
                    "one of the options of kind `{}`: {}",
                    kind.as_str(),
                    allowed.join(", ")
                )
            };
            return Err(opt_err(
                name,
                span,
                format!(
                    "option `{name}` does not apply to generator kind `{}`",
                    kind.as_str()
                ),
                expected,
            ));
        }
    }
    Ok(())
}

/// An integer option with a default and an allowed range.
pub(crate) fn int(
    v: &Option<Spanned<u64>>,
    name: &str,
    default: u64,
    range: RangeInclusive<u64>,
) -> Result<u64, InputError> {
    match v {
        None => Ok(default),
        Some(s) => {
            let x = *s.get_ref();
            if range.contains(&x) {
                Ok(x)
            } else {
                Err(opt_err(
                    name,
                    s.span(),
                    format!("{name} = {x} is out of range"),
                    format!("an integer in {}..={}", range.start(), range.end()),
                ))
            }
        }
    }
}

/// A required integer option in a range; `whole` is the span of the generator (for "missing").
pub(crate) fn required_int(
    v: &Option<Spanned<u64>>,
    name: &str,
    kind: GeneratorKind,
    whole: Range<usize>,
    range: RangeInclusive<u64>,
) -> Result<u64, InputError> {
    match v {
        None => Err(opt_err(
            name,
            whole,
            format!("generator kind `{}` needs `{name}`", kind.as_str()),
            format!(
                "`{name} = <integer in {}..={}>`",
                range.start(),
                range.end()
            ),
        )),
        Some(_) => int(v, name, 0, range),
    }
}

/// A string option restricted to `choices` (first = default).
pub(crate) fn choice<'a>(
    v: &Option<Spanned<String>>,
    name: &str,
    choices: &[&'a str],
) -> Result<&'a str, InputError> {
    let Some(s) = v else {
        return Ok(choices[0]);
    };
    choices
        .iter()
        .find(|c| **c == s.get_ref().as_str())
        .copied()
        .ok_or_else(|| {
            opt_err(
                name,
                s.span(),
                format!("unknown {name} `{}`", s.get_ref()),
                format!("one of: {}", choices.join(", ")),
            )
        })
}

/// A boolean option with a default.
pub(crate) fn flag(v: &Option<Spanned<bool>>, default: bool) -> bool {
    v.as_ref().map_or(default, |s| *s.get_ref())
}

/// A string option with a default.
pub(crate) fn text<'a>(v: &'a Option<Spanned<String>>, default: &'a str) -> &'a str {
    v.as_ref().map_or(default, |s| s.get_ref().as_str())
}
