//! Rowkey generators: how a table's rowkeys are laid out.
//!
//! A generator maps `(seed, row id)` to key bytes as a pure function, so the keys never depend on
//! thread count or on the order ids are visited in. (CONTRACT STUB — the keygen work replaces the
//! body of this module and keeps these public names and signatures.)

use std::ops::Range;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::diag::InputError;

/// HBase's limit on a row key (`HConstants.MAX_ROW_LENGTH = Short.MAX_VALUE`).
pub const MAX_ROW_LENGTH: usize = 32767;

/// A rowkey design. Implement it to plug your own layout into hbase-emu (see `examples/`).
pub trait RowKeyGenerator: Send + Sync {
    /// Writes the key of row `id` into `out` (which the caller has cleared). Must be a pure
    /// function of the generator's construction parameters (including the seed) and `id`.
    fn key_into(&self, id: u64, out: &mut Vec<u8>);

    /// One line saying what the keys look like.
    fn describe(&self) -> String;

    /// Visits the keys of consecutive ids. Generators with per-chunk streams override this to
    /// avoid recomputing the stream prefix for every id.
    fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        let mut buf = Vec::with_capacity(64);
        for id in ids {
            buf.clear();
            self.key_into(id, &mut buf);
            f(id, &buf);
        }
    }
}

/// Which built-in generator a `[[generator]]` entry uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GeneratorKind {
    /// Big-endian u64 of the id.
    Sequential,
    /// N hex chars of MD5(id) + separator + id.
    Md5Prefix,
}

/// A `[[generator]]` entry of a scenario, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratorSpec {
    /// Name of the run (unique in the scenario).
    pub name: Spanned<String>,
    /// Which built-in.
    pub kind: Spanned<GeneratorKind>,
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

/// A built generator with its scenario name; checks HBase's key limits.
pub struct Generator {
    /// The scenario's name for it.
    pub name: String,
    /// The layout.
    pub inner: Box<dyn RowKeyGenerator>,
}

impl Generator {
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

/// Builds a generator from its spec. Errors carry the span of the offending field (no file:
/// the scenario loader adds it).
pub fn build(spec: &GeneratorSpec, ctx: &BuildContext<'_>) -> Result<Generator, InputError> {
    let _ = ctx;
    let _ = spec;
    Err(InputError::new("generators are not built yet"))
}
