//! HBase configuration: hbase-site.xml files layered over HBase 2.6's defaults, `${var}`
//! substitution, `final` properties, typed access and table attributes.
//!
//! Layers, lowest first: the built-in defaults ([`SiteConfig::with_defaults`], see [`keys`]), each
//! site file in load order, then scenario `[hbase]` overrides and command-line flags
//! ([`SiteConfig::set`]). A later layer wins, except over a property an earlier layer marked
//! `final`: the override is ignored and a warning recorded (Hadoop's rule; we apply it to `set` too,
//! where Hadoop's programmatic `set` would not check).
//!
//! Empty values: Hadoop does not set a property whose `<value>` is empty, so the caller's default
//! applies. We store the built-in defaults with the *code* default for such keys (e.g.
//! `hbase.regionserver.global.memstore.size` = 0.4), so an empty value in hbase-default.xml or a
//! site file leaves that default in place. An empty value given to `set` removes the key.

pub mod keys;
pub mod settings;
pub mod site_xml;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::diag::{InputError, SourceText};
use crate::units;

pub use keys::{InXml, KEYS, KeySpec, Kind};
pub use settings::{
    BalancerClass, ClientSettings, Settings, SplitPolicy, SplitRestriction, StochasticParams,
    ThroughputControllerClass,
};

/// Hadoop's `MAX_SUBST`: at most this many `${var}` replacements per value.
pub const MAX_SUBST: usize = 20;

/// Where a value came from (printed by `hbase-emu config`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// HBase 2.6's default (hbase-default.xml, or the code default where the XML is empty).
    Default,
    /// A property in an hbase-site.xml file.
    File {
        /// The file.
        path: PathBuf,
        /// 1-based line of the `<value>` (or `<property>`).
        line: usize,
    },
    /// The scenario's `[hbase]` table.
    Scenario {
        /// The scenario file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
    },
    /// A table attribute from the scenario's `[table]` (e.g. MAX_FILESIZE).
    TableAttribute {
        /// HBase's attribute name.
        attribute: String,
        /// The scenario file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
    },
    /// A command-line flag.
    CommandLine,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => write!(f, "default"),
            Origin::File { path, line } => write!(f, "{}:{line}", path.display()),
            Origin::Scenario { path, line } => write!(f, "scenario {}:{line}", path.display()),
            Origin::TableAttribute {
                attribute,
                path,
                line,
            } => {
                write!(f, "table attribute {attribute} ({}:{line})", path.display())
            }
            Origin::CommandLine => write!(f, "command line"),
        }
    }
}

/// One stored property.
#[derive(Debug, Clone)]
struct Prop {
    /// Raw value (trimmed, not substituted).
    value: String,
    origin: Origin,
    /// Index into `SiteConfig::sources` and the byte span of the value, for error snippets.
    place: Option<(usize, Range<usize>)>,
}

/// Layered Hadoop-style configuration.
#[derive(Debug, Clone, Default)]
pub struct SiteConfig {
    props: BTreeMap<String, Prop>,
    /// Keys marked final, with where that happened.
    finals: BTreeMap<String, Origin>,
    warnings: Vec<String>,
    /// Texts of the files values came from, so errors can quote the offending line.
    sources: Vec<SourceText>,
}

impl SiteConfig {
    /// HBase 2.6 defaults for every modelled key.
    pub fn with_defaults() -> SiteConfig {
        let mut c = SiteConfig::default();
        for k in KEYS {
            if let Some(d) = k.default {
                c.props.insert(
                    k.name.to_string(),
                    Prop {
                        value: d.to_string(),
                        origin: Origin::Default,
                        place: None,
                    },
                );
            }
        }
        c
    }

    /// Layers one hbase-site.xml file over what is loaded.
    pub fn load_file(&mut self, path: &Path) -> Result<(), InputError> {
        let src = SourceText::read(path, "configuration file")?;
        self.load_source(&src)
    }

    /// Layers an already-read file. The file is parsed completely before anything is applied, so a
    /// malformed file changes nothing.
    pub fn load_source(&mut self, src: &SourceText) -> Result<(), InputError> {
        let props = site_xml::parse(src)?;
        let idx = self.sources.len();
        self.sources.push(src.clone());
        for p in props {
            let (line, _) = src.line_col(p.value_span.start);
            let origin = Origin::File {
                path: src.path.clone(),
                line,
            };
            self.apply(
                &p.name,
                p.value,
                p.is_final,
                origin,
                Some((idx, p.value_span)),
            );
        }
        Ok(())
    }

    /// Sets one property (scenario `[hbase]`, command line). `final` properties are kept and a
    /// warning is recorded. An empty value unsets the key (the code default applies).
    pub fn set(&mut self, key: &str, value: &str, origin: Origin) -> Result<(), InputError> {
        self.set_at(key, value, origin, None);
        Ok(())
    }

    /// Like [`set`](Self::set), with the source text and byte span of the value so that a later
    /// type error can quote it (the scenario loader has these from `toml::Spanned`).
    pub fn set_at(
        &mut self,
        key: &str,
        value: &str,
        origin: Origin,
        place: Option<(&SourceText, Range<usize>)>,
    ) {
        let place = place.map(|(src, span)| {
            let idx = match self
                .sources
                .iter()
                .position(|s| s.path == src.path && s.text == src.text)
            {
                Some(i) => i,
                None => {
                    self.sources.push(src.clone());
                    self.sources.len() - 1
                }
            };
            (idx, span)
        });
        let v = value.trim();
        let key = key.trim();
        self.apply(
            key,
            (!v.is_empty()).then(|| v.to_string()),
            false,
            origin,
            place,
        );
    }

    /// Hadoop's `loadProperty`: set unless final, then remember finality.
    fn apply(
        &mut self,
        key: &str,
        value: Option<String>,
        is_final: bool,
        origin: Origin,
        place: Option<(usize, Range<usize>)>,
    ) {
        if let Some(final_at) = self.finals.get(key) {
            let current = self.props.get(key).map(|p| p.value.as_str());
            if value.as_deref() != current {
                self.warnings.push(format!(
                    "{key}: ignoring the value {} from {origin}: the property was marked final at {final_at}",
                    value.as_deref().map_or("(unset)".to_string(), |v| format!("`{v}`")),
                ));
            }
        } else {
            match value {
                Some(value) => {
                    self.props.insert(
                        key.to_string(),
                        Prop {
                            value,
                            origin: origin.clone(),
                            place,
                        },
                    );
                }
                None if matches!(origin, Origin::File { .. }) => {
                    // Hadoop: an empty <value> in a file sets nothing.
                }
                None => {
                    self.props.remove(key);
                }
            }
        }
        if is_final {
            self.finals.entry(key.to_string()).or_insert(origin);
        }
    }

    /// The raw value of `key` (no substitution), trimmed.
    pub fn get_raw(&self, key: &str) -> Option<&str> {
        self.props.get(key).map(|p| p.value.as_str())
    }

    /// The value of `key` after `${}` substitution, trimmed. Variables are resolved from other
    /// properties only (Hadoop also looks at Java system properties and `env.*`; we do not), with
    /// Hadoop's rules: unbound `${x}` is kept as written, more than 20 substitutions (a cycle such
    /// as a -> b -> a) is an error naming the chain.
    pub fn get(&self, key: &str) -> Result<Option<String>, InputError> {
        let Some(p) = self.props.get(key) else {
            return Ok(None);
        };
        self.substitute(key, &p.value)
            .map(|v| Some(v.trim().to_string()))
    }

    /// Hadoop's `substituteVars`: replaces the first `${name}` by the raw value of property `name`,
    /// up to [`MAX_SUBST`] times. Unlike Hadoop we do not consult Java system properties or the
    /// environment (`${user.name}`, `${env.HOME}`): only other properties. An unbound variable
    /// stops substitution and the text is returned as it stands (Hadoop); a value that refers to
    /// itself directly (`a = x${a}`) is returned unexpanded (Hadoop 3); a longer cycle, or more than
    /// 20 replacements, is an error naming the chain.
    fn substitute(&self, key: &str, expr: &str) -> Result<String, InputError> {
        let mut eval = expr.to_string();
        let mut chain: Vec<String> = vec![key.to_string()];
        for _ in 0..MAX_SUBST {
            let Some((dollar, name_range, after)) = find_variable(&eval) else {
                return Ok(eval);
            };
            let var = eval[name_range].to_string();
            let Some(val) = self.props.get(&var).map(|p| p.value.as_str()) else {
                return Ok(eval);
            };
            if val.contains(&format!("${{{var}}}")) {
                return Ok(expr.to_string());
            }
            eval = format!("{}{}{}", &eval[..dollar], val, &eval[after..]);
            chain.push(var);
        }
        // Like Hadoop, give up after MAX_SUBST replacements. Show the chain up to the first
        // repetition (the cycle), or all of it.
        let mut shown: Vec<&str> = Vec::new();
        let mut seen = BTreeSet::new();
        let mut cyclic = false;
        for v in &chain {
            shown.push(v);
            if !seen.insert(v.as_str()) {
                cyclic = true;
                break;
            }
        }
        let what = if cyclic {
            "variable substitution never ends (a cycle)"
        } else {
            "variable substitution is nested too deeply"
        };
        Err(self
            .locate(
                key,
                InputError::new(format!(
                    "{what}: {} (Hadoop stops after {MAX_SUBST} substitutions)",
                    shown.join(" -> ")
                )),
            )
            .expected("`${name}` references that end in plain values, without a cycle"))
    }

    /// Places an error about `key` at its value (file:line:col) or names its origin.
    fn locate(&self, key: &str, err: InputError) -> InputError {
        let err = err.field(key);
        let Some(p) = self.props.get(key) else {
            return err;
        };
        if let Some((idx, span)) = &p.place
            && let Some(src) = self.sources.get(*idx)
        {
            return err.at(src, span.clone());
        }
        match &p.origin {
            Origin::File { path, .. }
            | Origin::Scenario { path, .. }
            | Origin::TableAttribute { path, .. } => {
                let problem = format!("{} (value from {})", err.problem, p.origin);
                let mut e = InputError::new(problem).field(key).in_file(path);
                if let Some(x) = &err.expected {
                    e = e.expected(x.clone());
                }
                e
            }
            Origin::Default | Origin::CommandLine => {
                let problem = format!("{} (value from the {})", err.problem, p.origin);
                let mut e = InputError::new(problem).field(key);
                if let Some(x) = &err.expected {
                    e = e.expected(x.clone());
                }
                e
            }
        }
    }

    /// The error for a value that does not parse as `expected`.
    fn bad_value(&self, key: &str, value: &str, what: &str, expected: &str) -> InputError {
        self.locate(key, InputError::new(format!("`{value}` is not {what}")))
            .expected(expected.to_string())
    }

    /// Where `key`'s value came from.
    pub fn origin(&self, key: &str) -> Option<&Origin> {
        self.props.get(key).map(|p| &p.origin)
    }

    /// Whether `key` was marked final by some layer.
    pub fn is_final(&self, key: &str) -> bool {
        self.finals.contains_key(key)
    }

    /// Every property currently set, sorted by name: (name, raw value, origin).
    pub fn properties(&self) -> impl Iterator<Item = (&str, &str, &Origin)> {
        self.props
            .iter()
            .map(|(k, p)| (k.as_str(), p.value.as_str(), &p.origin))
    }

    /// Warnings collected while loading (e.g. an override of a final property ignored).
    pub fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// Hadoop `getLong`: trimmed, decimal or `0x` hex (optionally negative). Absent ⇒ `default`.
    pub fn get_long(&self, key: &str, default: i64) -> Result<i64, InputError> {
        match self.get(key)? {
            None => Ok(default),
            Some(v) => parse_java_long(&v).ok_or_else(|| {
                self.bad_value(
                    key,
                    &v,
                    "a whole number",
                    "a 64-bit integer such as 1000 or 0x3e8",
                )
            }),
        }
    }

    /// Hadoop `getInt`: like [`get_long`](Self::get_long) but 32-bit.
    pub fn get_int(&self, key: &str, default: i32) -> Result<i32, InputError> {
        match self.get(key)? {
            None => Ok(default),
            Some(v) => parse_java_long(&v)
                .and_then(|x| i32::try_from(x).ok())
                .ok_or_else(|| {
                    self.bad_value(
                        key,
                        &v,
                        "a 32-bit whole number",
                        "an integer between -2147483648 and 2147483647, e.g. 16",
                    )
                }),
        }
    }

    /// Hadoop `getFloat` (Java `Float.parseFloat`, so `1.2F` is accepted). Absent ⇒ `default`.
    pub fn get_float(&self, key: &str, default: f32) -> Result<f32, InputError> {
        match self.get(key)? {
            None => Ok(default),
            Some(v) => java_float_body(&v)
                .and_then(|b| b.parse::<f32>().ok())
                .filter(|x| x.is_finite())
                .ok_or_else(|| self.bad_value(key, &v, "a number", "a decimal number such as 0.4")),
        }
    }

    /// Hadoop `getDouble`.
    pub fn get_double(&self, key: &str, default: f64) -> Result<f64, InputError> {
        match self.get(key)? {
            None => Ok(default),
            Some(v) => parse_java_float(&v).ok_or_else(|| {
                self.bad_value(key, &v, "a number", "a decimal number such as 0.25")
            }),
        }
    }

    /// Hadoop `getBoolean`: `true`/`false` in any case; an empty or other value gives `default`
    /// (Hadoop is that lenient; [`Settings::resolve`] records a warning for such values).
    pub fn get_bool(&self, key: &str, default: bool) -> Result<bool, InputError> {
        Ok(match self.get(key)? {
            None => default,
            Some(v) => parse_java_bool(&v).unwrap_or(default),
        })
    }

    /// A byte count: Hadoop `getLong` (decimal or hex), plus our extension of human units with
    /// binary multipliers (`2GB` = 2 GiB, `64KB`, `1.5TiB`; see [`units::parse_size`]).
    pub fn get_bytes(&self, key: &str, default: i64) -> Result<i64, InputError> {
        match self.get(key)? {
            None => Ok(default),
            Some(v) => match parse_java_long(&v) {
                Some(x) => Ok(x),
                None => units::parse_size(&v)
                    .ok()
                    .and_then(|x| i64::try_from(x).ok())
                    .ok_or_else(|| self.bad_value(key, &v, "a byte count", units::SIZE_EXPECTED)),
            },
        }
    }

    /// Milliseconds: Hadoop `getLong`, plus our extension of units (`90s`, `15m`, `7d`; see
    /// [`units::parse_duration_ms`]).
    pub fn get_millis(&self, key: &str, default: i64) -> Result<i64, InputError> {
        match self.get(key)? {
            None => Ok(default),
            Some(v) => match parse_java_long(&v) {
                Some(x) => Ok(x),
                None => units::parse_duration_ms(&v)
                    .ok()
                    .and_then(|x| i64::try_from(x).ok())
                    .ok_or_else(|| {
                        self.bad_value(
                            key,
                            &v,
                            "a duration",
                            "milliseconds such as 300000, or a duration such as 500ms, 90s, 15m, 1h, 7d",
                        )
                    }),
            },
        }
    }

    /// An error about `key` placed at its value, for checks made by callers ([`Settings`]).
    pub fn value_error(&self, key: &str, problem: impl Into<String>, expected: &str) -> InputError {
        self.locate(key, InputError::new(problem))
            .expected(expected.to_string())
    }
}

/// Finds the first `${name}` as Hadoop 3's `findSubVariable` does: a name is non-empty and has no
/// `}`, `$` or space. Returns (offset of `$`, range of the name, offset after `}`).
fn find_variable(s: &str) -> Option<(usize, Range<usize>, usize)> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(rel) = s.get(from..)?.find("${") {
        let dollar = from + rel;
        let start = dollar + 2;
        let mut i = start;
        loop {
            match b.get(i) {
                None => return None,
                Some(b'}') if i > start => return Some((dollar, start..i, i + 1)),
                Some(b'}' | b'$' | b' ') => {
                    from = i;
                    break;
                }
                Some(_) => i += 1,
            }
        }
        if from <= dollar {
            from = dollar + 1;
        }
    }
    None
}

/// Java `Long.parseLong` after Hadoop's hex handling: `[+-]digits` or `[-]0x hex`.
pub fn parse_java_long(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if hex.is_empty() || hex.starts_with(['+', '-']) {
            return None;
        }
        let text = if neg {
            format!("-{hex}")
        } else {
            hex.to_string()
        };
        return i64::from_str_radix(&text, 16).ok();
    }
    let digits = body.strip_prefix('+').filter(|_| !neg).unwrap_or(body);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.strip_prefix('+').unwrap_or(s).parse().ok()
}

/// Java `Double.parseDouble` for the forms configs use: decimal or exponent notation with an
/// optional `f`/`F`/`d`/`D` suffix. NaN and infinities are refused (no HBase key means them).
pub fn parse_java_float(s: &str) -> Option<f64> {
    java_float_body(s)?
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
}

/// The number part of a Java float literal (trimmed, suffix removed), if it looks like one.
fn java_float_body(s: &str) -> Option<&str> {
    let s = s.trim();
    let body = s.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(s);
    if body.is_empty()
        || !body
            .bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    Some(body)
}

/// Hadoop `getBoolean`'s reading: `Some` only for `true`/`false` in any case.
pub fn parse_java_bool(s: &str) -> Option<bool> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("true") {
        Some(true)
    } else if s.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// One table attribute value with its origin.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr<T> {
    /// The value.
    pub value: T,
    /// Where it was set.
    pub origin: Origin,
}

/// Table attributes that override site keys, as HBase's TableDescriptor does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableAttributes {
    /// MAX_FILESIZE (bytes); wins over hbase.hregion.max.filesize when > 0.
    pub max_filesize: Option<Attr<u64>>,
    /// MEMSTORE_FLUSHSIZE (bytes); wins over hbase.hregion.memstore.flush.size when > 0.
    pub memstore_flushsize: Option<Attr<u64>>,
    /// SPLIT_POLICY (class name, full or simple).
    pub split_policy: Option<Attr<String>>,
    /// KeyPrefixRegionSplitPolicy.prefix_length.
    pub key_prefix_length: Option<Attr<u64>>,
    /// DelimitedKeyPrefixRegionSplitPolicy.delimiter.
    pub prefix_delimiter: Option<Attr<String>>,
    /// hbase.regionserver.region.split_restriction.type (None, KeyPrefix, DelimitedKeyPrefix).
    pub split_restriction_type: Option<Attr<String>>,
    /// hbase.regionserver.region.split_restriction.prefix_length.
    pub split_restriction_prefix_length: Option<Attr<u64>>,
    /// hbase.regionserver.region.split_restriction.delimiter.
    pub split_restriction_delimiter: Option<Attr<String>>,
    /// NORMALIZATION_ENABLED.
    pub normalization_enabled: Option<Attr<bool>>,
    /// NORMALIZER_TARGET_REGION_SIZE_MB; the normalizer's average when > 0.
    pub normalizer_target_region_size_mb: Option<Attr<u64>>,
    /// NORMALIZER_TARGET_REGION_COUNT; average = total / this when > 0 and no target size.
    pub normalizer_target_region_count: Option<Attr<u64>>,
    /// Table value `hbase.normalizer.split.enabled` (wins over the site key).
    pub normalizer_split_enabled: Option<Attr<bool>>,
    /// Table value `hbase.normalizer.merge.enabled` (wins over the site key).
    pub normalizer_merge_enabled: Option<Attr<bool>>,
    /// Table value `hbase.normalizer.merge.min.region.count` (applies when > 0).
    pub normalizer_merge_min_region_count: Option<Attr<i64>>,
    /// Table value `hbase.normalizer.merge.min_region_age.days` (applies when ≥ 0).
    pub normalizer_merge_min_region_age_days: Option<Attr<i64>>,
    /// Table value `hbase.normalizer.merge.min_region_size.mb` (applies when ≥ 0).
    pub normalizer_merge_min_region_size_mb: Option<Attr<i64>>,
}

/// One modelled key's effective value (for `hbase-emu config`).
#[derive(Debug, Clone)]
pub struct EffectiveValue {
    /// HBase property name (or table attribute name for the prefix-policy attributes).
    pub key: String,
    /// Value after substitution and table-attribute overrides; empty when unset.
    pub value: String,
    /// Where it came from.
    pub origin: Origin,
    /// Extra context: how an unset key is derived, or a table attribute that did not apply.
    pub note: Option<String>,
}

impl EffectiveValue {
    /// The value in human units for byte and millisecond keys (`10.00 GiB`, `5m 00s`), if it
    /// is one and parses; for `hbase-emu config` listings.
    pub fn human(&self) -> Option<String> {
        let spec = keys::spec(&self.key)?;
        let v = u64::try_from(parse_java_long(&self.normalised()?)?).ok()?;
        match spec.kind {
            Kind::Bytes if v < i64::MAX as u64 => Some(units::format_bytes(v)),
            Kind::Millis => Some(units::format_duration_ms(v)),
            _ => None,
        }
    }
}

impl EffectiveValue {
    /// The value as HBase reads it, when it parses: byte and millisecond keys given with units
    /// (`2g`, `15m`) or in hex become a decimal count, integers lose hex and padding, booleans
    /// are lower case (`getBoolean` ignores case). `None` when unset, unparsable, or free text.
    pub fn normalised(&self) -> Option<String> {
        let v = self.value.trim();
        if v.is_empty() {
            return None;
        }
        let spec = keys::spec(&self.key)?;
        match spec.kind {
            Kind::Bytes => parse_java_long(v)
                .or_else(|| {
                    units::parse_size(v)
                        .ok()
                        .and_then(|x| i64::try_from(x).ok())
                })
                .map(|x| x.to_string()),
            Kind::Millis => parse_java_long(v)
                .or_else(|| {
                    units::parse_duration_ms(v)
                        .ok()
                        .and_then(|x| i64::try_from(x).ok())
                })
                .map(|x| x.to_string()),
            Kind::Long | Kind::Int => parse_java_long(v).map(|x| x.to_string()),
            Kind::Bool => Some(v.to_ascii_lowercase()),
            Kind::Float | Kind::Double | Kind::Class | Kind::Text => Some(v.to_string()),
        }
    }

    /// The value for people: normalised, with its human form, and the text as given when that
    /// differs (`2147483648 (2.00 GiB); given as 2g`).
    pub fn display(&self) -> String {
        let norm = self.normalised().unwrap_or_else(|| self.value.clone());
        let mut out = match self.human() {
            Some(h) => format!("{norm} ({h})"),
            None => norm.clone(),
        };
        if norm != self.value.trim() && !self.value.is_empty() {
            out.push_str(&format!("; given as {}", self.value.trim()));
        }
        out
    }
}

/// Every modelled key with its effective value and origin, table attributes applied, in the
/// order of [`KEYS`] (grouped by subsystem), then the prefix-policy table attributes if set.
pub fn effective(
    site: &SiteConfig,
    table: &TableAttributes,
) -> Result<Vec<EffectiveValue>, InputError> {
    let mut out = Vec::with_capacity(KEYS.len() + 2);
    for spec in KEYS {
        let mut ev = EffectiveValue {
            key: spec.name.to_string(),
            value: site.get(spec.name)?.unwrap_or_default(),
            origin: site.origin(spec.name).cloned().unwrap_or(Origin::Default),
            note: None,
        };
        if ev.value.is_empty()
            && let Some(how) = spec.derived
        {
            ev.note = Some(format!("unset: {how}"));
        }
        match spec.name {
            "hbase.hregion.max.filesize" => {
                override_positive(&mut ev, &table.max_filesize, "MAX_FILESIZE")
            }
            "hbase.hregion.memstore.flush.size" => {
                override_positive(&mut ev, &table.memstore_flushsize, "MEMSTORE_FLUSHSIZE")
            }
            "hbase.regionserver.region.split.policy" => {
                if let Some(a) = &table.split_policy {
                    ev.value = a.value.clone();
                    ev.origin = a.origin.clone();
                }
            }
            settings::SPLIT_RESTRICTION_TYPE_KEY => {
                override_attr(&mut ev, &table.split_restriction_type, |v| v.clone())
            }
            settings::SPLIT_RESTRICTION_PREFIX_LENGTH_KEY => {
                override_attr(&mut ev, &table.split_restriction_prefix_length, |v| {
                    v.to_string()
                })
            }
            settings::SPLIT_RESTRICTION_DELIMITER_KEY => {
                override_attr(&mut ev, &table.split_restriction_delimiter, |v| v.clone())
            }
            "hbase.table.normalization.enabled" => {
                if let Some(a) = &table.normalization_enabled {
                    ev.value = a.value.to_string();
                    ev.origin = a.origin.clone();
                }
            }
            _ => {}
        }
        out.push(ev);
    }
    if let Some(a) = &table.key_prefix_length {
        out.push(EffectiveValue {
            key: settings::PREFIX_LENGTH_ATTR.to_string(),
            value: a.value.to_string(),
            origin: a.origin.clone(),
            note: None,
        });
    }
    if let Some(a) = &table.prefix_delimiter {
        out.push(EffectiveValue {
            key: settings::DELIMITER_ATTR.to_string(),
            value: a.value.clone(),
            origin: a.origin.clone(),
            note: None,
        });
    }
    for (name, attr) in [
        (
            settings::NORMALIZER_TARGET_REGION_SIZE_MB_ATTR,
            &table.normalizer_target_region_size_mb,
        ),
        (
            settings::NORMALIZER_TARGET_REGION_COUNT_ATTR,
            &table.normalizer_target_region_count,
        ),
    ] {
        if let Some(a) = attr {
            out.push(EffectiveValue {
                key: name.to_string(),
                value: a.value.to_string(),
                origin: a.origin.clone(),
                note: (a.value == 0).then(|| format!("{name}=0 ignored: only a value > 0 applies")),
            });
        }
    }
    Ok(out)
}

/// The value HBase derives for a key left unset (a `derived` key of [`KEYS`]), when the typed
/// settings determine it: e.g. `hbase.increasing.policy.initial.size` = 2 × flush size. `None`
/// for keys that need more than the configuration (the heap: `…global.memstore.memory.size`,
/// `hbase.regionserver.maxlogs`) or mean "unlimited".
pub fn derived_value(settings: &Settings, key: &str) -> Option<u64> {
    Some(match key {
        "hbase.increasing.policy.initial.size" => settings.increasing_initial_size,
        "hbase.regionserver.flush.check.period" => settings.flush_check_period_ms,
        "hbase.regionserver.compaction.check.period" => settings.compaction_check_period_ms,
        "hbase.hstore.compaction.min" => u64::from(settings.compaction_min_files),
        "hbase.hstore.compaction.max.size.offpeak" => settings.compaction_max_size_offpeak,
        "hbase.balancer.max.balancing" => settings.balancer_max_balancing_ms,
        "hbase.hstore.compaction.throughput.control.check.interval" => {
            settings.compaction_throughput_check_interval
        }
        _ => return None,
    })
}

/// A table attribute that wins over the site key of the same name whenever it is set.
fn override_attr<T>(ev: &mut EffectiveValue, attr: &Option<Attr<T>>, text: impl Fn(&T) -> String) {
    if let Some(a) = attr {
        ev.value = text(&a.value);
        ev.origin = a.origin.clone();
        ev.note = None;
    }
}

fn override_positive(ev: &mut EffectiveValue, attr: &Option<Attr<u64>>, name: &str) {
    if let Some(a) = attr {
        if a.value > 0 {
            ev.value = a.value.to_string();
            ev.origin = a.origin.clone();
        } else {
            ev.note = Some(format!(
                "table {name}={} ignored: only a value > 0 overrides",
                a.value
            ));
        }
    }
}

#[cfg(test)]
mod tests;
