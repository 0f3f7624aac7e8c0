//! Rowkey generators: how a table's rowkeys are laid out.
//!
//! A generator maps `(seed, row id)` to key bytes as a pure function, so the keys never depend on
//! thread count or on the order ids are visited in. Randomness comes from counter-based streams
//! ([`rng`]); clocks that advance by a random step per row are rebuilt per chunk of 1024 ids
//! ([`timeseries::Clock`]). The built-in kinds and the template language are documented in
//! `docs/GENERATORS.md`; one file per family:
//!
//! | file | kinds |
//! |---|---|
//! | `sequential.rs` | `sequential` |
//! | `timeseries.rs` | `timestamp-first`, `reverse-timestamp` (and the shared clock) |
//! | `hashed.rs` | `hashed` (HashRowKeyGenerator), `md5-prefix`, `md5-legacy` |
//! | `partition.rs` | `partition`, `modulo` |
//! | `salted.rs` | `salted` |
//! | `reversed.rs` | `reversed` |
//! | `uniform.rs` | `uniform` |
//! | `ycsb.rs` | `ycsb` |
//! | `keyfile.rs` | `file` |
//! | `template.rs` + `distribution.rs` | `template` (alias `composite`) |
//!
//! **Adding a built-in kind** takes two files: its own, which implements [`RowKeyGenerator`] and
//! declares its registry entry, a `static` `spec::KindEntry` (name, aliases, the options it
//! accepts, its build function and, when its keys group by a prefix, the key group `advise
//! --align` keeps whole); and this one, for its `mod` line and its line in `KINDS`. A kind that
//! needs an option no kind has yet adds the field to `spec.rs`'s [`GeneratorSpec`] as well (the
//! struct stays flat so toml reports exact spans and unknown keys). For example:
//!
//! ```ignore
//! pub(crate) static KIND: KindEntry = KindEntry {
//!     aliases: &["composite"],                      // optional
//!     key_group: Some(template_group),              // optional
//!     ..KindEntry::new("template", &["template", "fields"], |spec, ctx, seed| {
//!         Ok(Box::new(Template::from_spec(spec, ctx, seed)?))  // `per_key(..)` without batch paths
//!     })
//! };
//! ```
//!
//! A generator author outside the crate implements [`RowKeyGenerator`] alone. `batch.rs` holds the internal batch
//! paths (`KeyBatch`) the key feed and the samplers take: per-key defaults for every kind, and
//! the kinds that make keys cheaper together override them; `md5x.rs` hashes short messages in
//! SIMD batches for the MD5-based kinds'.

use std::ops::Range;
use std::path::Path;

use crate::diag::InputError;
use batch::{KeyBatch, PerKey};

pub(crate) mod batch;
pub mod distribution;
pub(crate) mod enc;
pub mod hashed;
pub mod keyfile;
pub mod md5x;
pub mod partition;
pub mod reversed;
pub mod rng;
pub mod salted;
pub mod sequential;
pub mod spec;
pub mod template;
pub mod timeseries;
pub mod uniform;
pub mod ycsb;

use spec::KindEntry;
pub use spec::{FieldDist, FieldSpec, GeneratorKind, GeneratorSpec};

/// The built-in kinds, one line each. Their order is the order the unknown-kind error lists them.
pub(crate) static KINDS: &[&KindEntry] = &[
    &sequential::KIND,
    &timeseries::TIMESTAMP_FIRST,
    &hashed::HASHED,
    &hashed::MD5_PREFIX,
    &hashed::MD5_LEGACY,
    &partition::PARTITION,
    &partition::MODULO,
    &salted::KIND,
    &reversed::KIND,
    &timeseries::REVERSE_TIMESTAMP,
    &template::KIND,
    &uniform::KIND,
    &ycsb::KIND,
    &keyfile::KIND,
];

/// HBase's limit on a row key (`HConstants.MAX_ROW_LENGTH = Short.MAX_VALUE`).
pub const MAX_ROW_LENGTH: usize = 32767;

/// Default clock start: 2026-01-01T00:00:00Z in ms since the epoch (fixed, for determinism).
pub const DEFAULT_START_MS: u64 = 1_767_225_600_000;

/// A rowkey design. Implement it to plug your own layout into hbase-emu (see `examples/`).
pub trait RowKeyGenerator: Send + Sync {
    /// Writes the key of row `id` into `out` (which the caller has cleared). Must be a pure
    /// function of the generator's construction parameters (including the seed) and `id`.
    fn key_into(&self, id: u64, out: &mut Vec<u8>);

    /// One line saying what the keys look like.
    fn describe(&self) -> String;

    /// True when distinct ids always give distinct keys (the key carries the id whole): a
    /// flush then looks only for the rows it keeps instead of sorting every row. A wrong
    /// `true` gives wrong store files; the default is `false`.
    fn distinct_keys(&self) -> bool {
        false
    }

    /// How the rows of one stretch of ingest time lie in the key space, for the scan fan-out
    /// report (`engine/scan.rs`). Unknown layouts are [`ScanLocality::Scattered`].
    fn scan_locality(&self) -> ScanLocality {
        ScanLocality::Scattered
    }
}

/// A borrowed generator is one: functions taking a generator by value take `&g` too.
impl<G: RowKeyGenerator + ?Sized> RowKeyGenerator for &G {
    #[inline]
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        (**self).key_into(id, out);
    }
    fn describe(&self) -> String {
        (**self).describe()
    }
    fn distinct_keys(&self) -> bool {
        (**self).distinct_keys()
    }
    fn scan_locality(&self) -> ScanLocality {
        (**self).scan_locality()
    }
}

/// Where the rows written in one stretch of ingest time lie, so a client knows which key ranges
/// to scan for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanLocality {
    /// Keys sort in ingest order: one contiguous range holds a time window.
    Ordered,
    /// Keys of one leading prefix of this many bytes (a salt bucket, an entity) sort in ingest
    /// order: one range per prefix.
    Prefix(usize),
    /// As `Prefix`, the prefix being the bytes before the first occurrence of this byte.
    PrefixUntil(u8),
    /// No key locality (hashed, random): a time window needs a full scan with a time range.
    Scattered,
}

impl ScanLocality {
    /// The group a key belongs to: its prefix (empty for `Ordered`; `None` for `Scattered`).
    pub fn group(self, key: &[u8]) -> Option<&[u8]> {
        match self {
            ScanLocality::Ordered => Some(&key[..0]),
            ScanLocality::Prefix(n) => Some(&key[..n.min(key.len())]),
            ScanLocality::PrefixUntil(b) => {
                Some(&key[..key.iter().position(|&c| c == b).unwrap_or(key.len())])
            }
            ScanLocality::Scattered => None,
        }
    }
}

/// Which part of a key should stay in one region (`advise --align`).
#[derive(Debug, Clone, PartialEq)]
pub enum Grouping {
    /// The first `n` bytes.
    Fixed(usize),
    /// The bytes before the first occurrence of the delimiter (the whole key without one).
    Delimited(Vec<u8>),
}

impl Grouping {
    /// The group (prefix) of `key`.
    pub fn group<'k>(&self, key: &'k [u8]) -> &'k [u8] {
        match self {
            Grouping::Fixed(n) => &key[..key.len().min(*n)],
            Grouping::Delimited(d) if !d.is_empty() => {
                match key.windows(d.len()).position(|w| w == d.as_slice()) {
                    Some(p) => &key[..p],
                    None => key,
                }
            }
            Grouping::Delimited(_) => key,
        }
    }
}

/// A grouping with what it stands for (`salt bucket`, `KeyPrefixRegionSplitPolicy prefix`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyGroup {
    /// For people.
    pub what: String,
    /// The rule.
    pub grouping: Grouping,
}

/// What a generator needs besides its own spec.
#[derive(Debug, Clone, Copy)]
pub struct BuildContext<'a> {
    /// Scenario seed (after `--seed`).
    pub seed: u64,
    /// Directory of the scenario file (for key files).
    pub base_dir: &'a Path,
    /// Ids the workload will write: `first_id .. first_id + rows`.
    pub ids: (u64, u64),
}

/// A built generator with its scenario name; checks HBase's key limits and gives keys many at
/// a time (through the kind's own batch paths where it has them).
pub struct Generator {
    /// The scenario's name for it.
    pub name: String,
    /// The layout, with its batch paths.
    inner: Box<dyn KeyBatch>,
}

impl Generator {
    /// A generator of your own layout (see `examples/custom_generator.rs`), its keys made one
    /// `key_into` at a time.
    pub fn new(name: impl Into<String>, layout: impl RowKeyGenerator + 'static) -> Generator {
        Generator {
            name: name.into(),
            inner: Box::new(PerKey(layout)),
        }
    }

    /// The layout.
    pub fn layout(&self) -> &dyn RowKeyGenerator {
        self.inner.as_ref()
    }

    /// Visits the keys of consecutive ids (not checked against HBase's limits).
    pub fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        self.inner.keys_into(ids, f);
    }

    /// Visits the keys of `ids`, in the given order (not checked against HBase's limits).
    pub fn keys_of(&self, ids: &[u64], f: &mut dyn FnMut(u64, &[u8])) {
        self.inner.keys_of(ids, f);
    }

    /// The layout with its batch paths.
    pub(crate) fn batch(&self) -> &dyn KeyBatch {
        self.inner.as_ref()
    }

    /// The key of row `id`, checked against HBase's limits (non-empty, ≤ 32767 bytes).
    pub fn key_checked(&self, id: u64, out: &mut Vec<u8>) -> Result<(), InputError> {
        out.clear();
        self.inner.key_into(id, out);
        if out.is_empty() || out.len() > MAX_ROW_LENGTH {
            return Err(InputError::new(format!(
                "generator `{}` produced a {}-byte key for row id {id}",
                self.name,
                out.len()
            ))
            .expected("a row key of 1..=32767 bytes (HConstants.MAX_ROW_LENGTH)"));
        }
        Ok(())
    }
}

/// The seed a generator's streams use: the scenario seed mixed with the generator's name, so two
/// generators of one scenario draw independent streams.
pub fn generator_seed(seed: u64, name: &str) -> u64 {
    rng::splitmix64(seed ^ rng::fnv1a(name.as_bytes()))
}

/// Builds a generator from its spec. Errors carry the span of the offending field (no file:
/// the scenario loader adds it), except key-file errors, which name the key file and line.
pub fn build(spec: &GeneratorSpec, ctx: &BuildContext<'_>) -> Result<Generator, InputError> {
    spec::check_applicable(spec)?;
    let seed = generator_seed(ctx.seed, spec.name.get_ref());
    let inner = (spec.kind.get_ref().entry().build)(spec, ctx, seed)?;
    Ok(Generator {
        name: spec.name.get_ref().clone(),
        inner,
    })
}

/// Rejects a fixed key length outside HBase's limits at build time.
pub(crate) fn check_fixed_len(
    len: usize,
    option: &str,
    span: Range<usize>,
) -> Result<(), InputError> {
    if len == 0 || len > MAX_ROW_LENGTH {
        return Err(spec::opt_err(
            option,
            span,
            format!("every key would be {len} bytes long"),
            "options giving keys of 1..=32767 bytes (HConstants.MAX_ROW_LENGTH)",
        ));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Helpers shared by the generator unit tests.
    use super::batch::KeyArena;
    use super::*;

    /// A context with seed 42 and ids 0..1_000_000.
    pub fn ctx() -> BuildContext<'static> {
        BuildContext {
            seed: 42,
            base_dir: Path::new("."),
            ids: (0, 1_000_000),
        }
    }

    /// Parses one `[[generator]]` table from TOML text.
    pub fn spec(toml_text: &str) -> GeneratorSpec {
        #[derive(serde::Deserialize)]
        struct Doc {
            generator: Vec<GeneratorSpec>,
        }
        let doc: Doc = toml::from_str(toml_text).expect("test TOML parses");
        doc.generator.into_iter().next().expect("one generator")
    }

    /// Builds from TOML text with [`ctx`].
    pub fn build_toml(toml_text: &str) -> Result<Generator, InputError> {
        build(&spec(toml_text), &ctx())
    }

    /// The key of `id`.
    pub fn key(g: &Generator, id: u64) -> Vec<u8> {
        let mut v = Vec::new();
        g.key_checked(id, &mut v).expect("valid key");
        v
    }

    /// Asserts the batch paths give the keys `key_into` gives over `ids`.
    pub fn assert_keys_into_consistent(g: &dyn KeyBatch, ids: Range<u64>) {
        let mut n = 0;
        let mut buf = Vec::new();
        g.keys_into(ids.clone(), &mut |id, k| {
            buf.clear();
            g.key_into(id, &mut buf);
            assert_eq!(k, &buf[..], "id {id}");
            assert_eq!(id, ids.start + n);
            n += 1;
        });
        assert_eq!(n, ids.end - ids.start);
        // `keys_of` over sampled ids: ascending with gaps, a repeat, then going back.
        let span = ids.end - ids.start;
        let mut some: Vec<u64> = (0..span).step_by(97).map(|o| ids.start + o).collect();
        some.extend([ids.start, ids.end - 1, ids.end - 1, ids.start + span / 2]);
        let mut seen = 0;
        g.keys_of(&some, &mut |id, k| {
            buf.clear();
            g.key_into(id, &mut buf);
            assert_eq!(k, &buf[..], "keys_of, id {id}");
            assert_eq!(id, some[seen]);
            seen += 1;
        });
        assert_eq!(seen, some.len());
        // `keys_into_arena`: the same keys, back to back, none rejected.
        let mut arena = KeyArena::default();
        g.keys_into_arena(ids.clone(), &mut arena);
        if g.distinct_keys() {
            let mut keys: Vec<&[u8]> = Vec::new();
            let mut start = 0;
            for &end in &arena.ends {
                keys.push(&arena.arena[start..end as usize]);
                start = end as usize;
            }
            keys.sort_unstable();
            let n = keys.len();
            keys.dedup();
            assert_eq!(keys.len(), n, "distinct_keys: distinct ids, distinct keys");
        }
        assert_eq!(arena.ends.len() as u64, span);
        assert_eq!(arena.bad, None);
        // Codes, where given, are every key's leading hex digits' value.
        assert!(arena.codes.is_empty() || arena.codes.len() == arena.ends.len());
        let mut start = 0;
        for (i, (id, &end)) in ids.zip(&arena.ends).enumerate() {
            buf.clear();
            g.key_into(id, &mut buf);
            assert_eq!(
                &arena.arena[start..end as usize],
                &buf[..],
                "arena, id {id}"
            );
            if let Some(&code) = arena.codes.get(i) {
                let digits = std::str::from_utf8(&buf[..8]).expect("hex digits");
                assert!(
                    digits
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                );
                assert_eq!(u32::from_str_radix(digits, 16), Ok(code), "code, id {id}");
            }
            start = end as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

    /// Issue 32: every kind says where a window's rows lie, so that the scans table prices a
    /// time-range scan from the key's structure (engine/scan.rs); a kind added without a line
    /// here fails.
    #[test]
    fn every_kind_states_its_scan_locality() {
        use ScanLocality as L;
        let cases: &[(&str, &str, ScanLocality)] = &[
            ("sequential", "", L::Ordered),
            ("timestamp-first", "", L::Ordered),
            ("hashed", "", L::Scattered),
            ("md5-prefix", "", L::Scattered),
            ("md5-legacy", "", L::Scattered),
            ("partition", "partitions=20\n", L::Prefix(8)),
            ("modulo", "partitions=20\n", L::PrefixUntil(b'_')),
            ("salted", "buckets=16\n", L::Prefix(1)),
            ("reversed", "", L::Scattered),
            ("reverse-timestamp", "", L::Prefix(3)),
            ("template", "template='{ts:be8}{id:be4}'\n", L::Ordered),
            ("uniform", "length=5\n", L::Scattered),
            ("ycsb", "", L::Scattered),
        ];
        for (kind, extra, want) in cases {
            let g = build_toml(&format!("[[generator]]\nname='g'\nkind='{kind}'\n{extra}"))
                .unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(g.layout().scan_locality(), *want, "{kind}");
        }
        // Keys read from a file carry no structure to derive a locality from.
        for k in KINDS {
            assert!(
                k.name == "file" || cases.iter().any(|(n, ..)| *n == k.name),
                "{} has no scan locality case",
                k.name
            );
        }
    }

    #[test]
    fn option_of_another_kind_is_an_error_naming_option_and_kind() {
        let text = "[[generator]]\nname = \"a\"\nkind = \"sequential\"\npartitions = 4\n";
        let e = build_toml(text).err().expect("error");
        assert_eq!(e.field.as_deref(), Some("generator.partitions"));
        assert!(e.problem.contains("`partitions`") && e.problem.contains("`sequential`"));
        let span = e.span.clone().expect("span");
        assert_eq!(&text[span], "4");
    }

    #[test]
    fn unknown_option_is_rejected_by_serde_with_position() {
        let text = "[[generator]]\nname = \"a\"\nkind = \"sequential\"\nwidht = 4\n";
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Doc {
            generator: Vec<GeneratorSpec>,
        }
        let e = toml::from_str::<Doc>(text).expect_err("unknown key");
        assert!(e.message().contains("widht"), "{e}");
    }

    #[test]
    fn composite_is_an_alias_of_template() {
        let g =
            build_toml("[[generator]]\nname='t'\nkind='composite'\ntemplate='k{id}'\n").unwrap();
        assert_eq!(key(&g, 7), b"k7");
    }

    #[test]
    fn registry_names_and_aliases_are_unique_and_found() {
        let mut names: Vec<&str> = KINDS
            .iter()
            .flat_map(|k| k.aliases.iter().copied().chain([k.name]))
            .collect();
        for &n in &names {
            let k = GeneratorKind::named(n).expect("registered");
            assert!(k.as_str() == n || k.entry().aliases.contains(&n));
        }
        assert_eq!(
            GeneratorKind::named("composite").map(GeneratorKind::as_str),
            Some("template")
        );
        assert!(GeneratorKind::named("Salted").is_none());
        assert_eq!(GeneratorKind::all().count(), KINDS.len());
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a name or alias used twice");
    }

    #[test]
    fn generator_name_changes_the_streams() {
        assert_ne!(generator_seed(1, "a"), generator_seed(1, "b"));
        assert_eq!(generator_seed(1, "a"), generator_seed(1, "a"));
    }
}
