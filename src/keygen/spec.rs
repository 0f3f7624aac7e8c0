//! The `[[generator]]` entry as written in a scenario, and the option checks `build` shares.
//!
//! The struct is flat (a `kind` plus optional, spanned options) so toml reports exact spans and
//! unknown keys at their own line (RUST-NOTES §3). Each kind's `KindEntry`, in the kind's own
//! file, says which options it accepts; anything else is an error naming the option and the kind.
//! This file changes only for a brand-new option field.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Range, RangeInclusive};
use std::sync::LazyLock;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, VariantAccess, Visitor};
use toml::Spanned;

use super::batch::KeyBatch;
use super::{BuildContext, KINDS, KeyGroup};
use crate::diag::InputError;

/// How a kind is built: from its checked spec, the context and the generator's own seed.
pub(crate) type BuildFn =
    fn(&GeneratorSpec, &BuildContext<'_>, u64) -> Result<Box<dyn KeyBatch>, InputError>;

/// What `build`, the option check and `advise` need to know about one generator kind. Each
/// kind's file declares its entry as a `static`; `keygen/mod.rs` lists them in `KINDS`.
pub(crate) struct KindEntry {
    /// The kind as written in a scenario (kebab-case).
    pub name: &'static str,
    /// Other names a scenario may write for it.
    pub aliases: &'static [&'static str],
    /// The options (besides `name` and `kind`) it accepts, in the order its errors list them.
    pub options: &'static [&'static str],
    /// Builds it (its spec's options already checked against `options`).
    pub build: BuildFn,
    /// The key prefix `advise --align` should keep whole, when its keys group by one.
    pub key_group: Option<fn(&GeneratorSpec) -> Option<KeyGroup>>,
}

impl KindEntry {
    /// An entry without aliases or key grouping (set those with `..KindEntry::new(..)`).
    pub const fn new(
        name: &'static str,
        options: &'static [&'static str],
        build: BuildFn,
    ) -> KindEntry {
        KindEntry {
            name,
            aliases: &[],
            options,
            build,
            key_group: None,
        }
    }
}

/// Which built-in generator a `[[generator]]` entry uses: a handle to its `KindEntry` in the
/// registry (`KINDS` in `keygen/mod.rs`), read from its name (or an alias) in a scenario.
#[derive(Clone, Copy)]
pub struct GeneratorKind(&'static KindEntry);

impl GeneratorKind {
    /// The kind a scenario names `name` (or an alias of it), if there is one.
    pub fn named(name: &str) -> Option<GeneratorKind> {
        KINDS
            .iter()
            .find(|k| k.name == name || k.aliases.contains(&name))
            .map(|k| GeneratorKind(k))
    }

    /// Every built-in kind, in registry order.
    pub fn all() -> impl Iterator<Item = GeneratorKind> {
        KINDS.iter().map(|k| GeneratorKind(k))
    }

    /// The kind as written in a scenario (kebab-case).
    pub fn as_str(self) -> &'static str {
        self.0.name
    }

    /// The options (besides `name` and `kind`) this kind accepts.
    pub fn options(self) -> &'static [&'static str] {
        self.0.options
    }

    /// The kind's registry entry.
    pub(crate) fn entry(self) -> &'static KindEntry {
        self.0
    }

    /// The key prefix that should stay in one region for these keys, if they group by one.
    pub fn key_group(self, spec: &GeneratorSpec) -> Option<KeyGroup> {
        self.0.key_group.and_then(|f| f(spec))
    }
}

/// Names are unique in the registry, so the name is the identity.
impl PartialEq for GeneratorKind {
    fn eq(&self, other: &GeneratorKind) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for GeneratorKind {}

impl fmt::Debug for GeneratorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GeneratorKind({:?})", self.0.name)
    }
}

/// Every name a scenario may write, for the unknown-kind error: each kind's aliases, then its
/// name (the order serde's derive gave, so the message stays as it was).
fn accepted_names() -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        KINDS
            .iter()
            .flat_map(|k| k.aliases.iter().copied().chain([k.name]))
            .collect()
    });
    &NAMES
}

/// Read as an enum (as the derive did), so toml's spans and its messages for a value of the
/// wrong type stay; the variant's name is looked up in the registry.
impl<'de> Deserialize<'de> for GeneratorKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GeneratorKind, D::Error> {
        struct Name;
        impl<'de> DeserializeSeed<'de> for Name {
            type Value = GeneratorKind;
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<GeneratorKind, D::Error> {
                d.deserialize_identifier(self)
            }
        }
        impl Visitor<'_> for Name {
            type Value = GeneratorKind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a generator kind")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<GeneratorKind, E> {
                GeneratorKind::named(v).ok_or_else(|| E::unknown_variant(v, accepted_names()))
            }
        }
        struct Kind;
        impl<'de> Visitor<'de> for Kind {
            type Value = GeneratorKind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("enum GeneratorKind")
            }
            fn visit_enum<A: EnumAccess<'de>>(self, a: A) -> Result<GeneratorKind, A::Error> {
                let (kind, rest) = a.variant_seed(Name)?;
                rest.unit_variant()?;
                Ok(kind)
            }
        }
        d.deserialize_enum("GeneratorKind", accepted_names(), Kind)
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
    /// The design's load path, `puts` (default) or `bulk`: a design field the scenario reads
    /// (`scenario::LoadPath`); no key generator looks at it.
    pub load: Option<Spanned<String>>,
    /// The design's own pre-split region count, in place of `[table.presplit] regions` (a design
    /// field the scenario reads; no key generator looks at it).
    pub presplit_regions: Option<Spanned<u64>>,
    /// The design's own loader (`scenario::Loader`), in place of `[client]`'s: clients,
    /// which rows each writes, open or closed loop (design fields; no key generator looks at
    /// them).
    pub clients: Option<Spanned<u64>>,
    /// Which rows each of the design's clients writes.
    pub partition: Option<Spanned<String>>,
    /// `open` or `closed`.
    #[serde(rename = "loop")]
    pub r#loop: Option<Spanned<String>>,
    /// A closed-loop request carries a write buffer of rows.
    pub buffering: Option<Spanned<bool>>,
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
            load: None,
            presplit_regions: None,
            clients: None,
            partition: None,
            r#loop: None,
            buffering: None,
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
