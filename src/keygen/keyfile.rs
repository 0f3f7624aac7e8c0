//! `file`: replay keys from a key file, one key per line (`escaped` = HBase `toStringBinary`
//! notation, or `hex`). Row `id` gets line `id % lines`. The file is read once at build.

use super::batch::per_key;
use super::spec::KindEntry;
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::spec::{self, GeneratorSpec, opt_err};
use super::{MAX_ROW_LENGTH, RowKeyGenerator};
use crate::diag::{InputError, SourceText};
use crate::keynotation::decode_binary_line;

/// The `file` kind: keys replayed from a file beside the scenario.
pub(crate) static KIND: KindEntry = KindEntry::new("file", &["path", "format"], |spec, ctx, _| {
    Ok(per_key(KeyFile::from_spec(spec, ctx.base_dir)?))
});

/// Keys of a file in one arena.
#[derive(Debug, Clone)]
pub struct KeyFile {
    path: PathBuf,
    arena: Vec<u8>,
    /// `ends[i]` = end of key i in `arena` (key i starts at `ends[i-1]`, or 0).
    ends: Vec<usize>,
}

fn decode_hex(line: &str, at: usize, src: &SourceText) -> Result<Vec<u8>, InputError> {
    let b = line.as_bytes();
    if let Some(i) = b.iter().position(|c| !c.is_ascii_hexdigit()) {
        let width = line[i..].chars().next().map_or(1, char::len_utf8);
        return Err(
            InputError::new(format!("`{}` is not a hex digit", &line[i..i + width]))
                .at(src, at + i..at + i + width)
                .expected("hex digits 0-9, a-f, A-F (two per key byte)"),
        );
    }
    if b.len() % 2 == 1 {
        return Err(InputError::new("odd number of hex digits")
            .at(src, at + b.len() - 1..at + b.len())
            .expected("two hex digits per key byte"));
    }
    let val = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
    Ok(b.chunks(2).map(|p| (val(p[0]) << 4) | val(p[1])).collect())
}

impl KeyFile {
    /// From a spec: `path` (required, relative to `base_dir`), `format` = `escaped` | `hex`.
    pub fn from_spec(spec: &GeneratorSpec, base_dir: &Path) -> Result<KeyFile, InputError> {
        let Some(path_opt) = &spec.path else {
            return Err(opt_err(
                "path",
                spec.kind.span(),
                "generator kind `file` needs `path`",
                "`path = \"keys.txt\"` (relative to the scenario file)",
            ));
        };
        let hex = spec::choice(&spec.format, "format", &["escaped", "hex"])? == "hex";
        let path = base_dir.join(path_opt.get_ref());
        let bytes =
            crate::diag::read_bounded(&path, crate::diag::MAX_INPUT_BYTES).map_err(|e| {
                opt_err(
                    "path",
                    path_opt.span(),
                    format!("cannot read key file {}: {e}", path.display()),
                    "a readable key file, one key per line",
                )
            })?;
        let src = match String::from_utf8(bytes) {
            Ok(t) => SourceText::from_string(&path, t),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let src = SourceText::from_string(
                    &path,
                    String::from_utf8_lossy(e.as_bytes()).into_owned(),
                );
                return Err(InputError::new("key file is not valid UTF-8")
                    .at(&src, at..at + 1)
                    .expected("UTF-8 text (write binary bytes as \\xHH or use format = \"hex\")"));
            }
        };
        Self::parse(src, hex).map_err(|e| e.field_if_unset("generator.path"))
    }

    /// Parses the text of a key file.
    pub fn parse(src: SourceText, hex: bool) -> Result<KeyFile, InputError> {
        let text = src.text.clone();
        let mut arena = Vec::new();
        let mut ends = Vec::new();
        let mut start = 0usize;
        while start < text.len() {
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            let line = text[start..end]
                .strip_suffix('\r')
                .unwrap_or(&text[start..end]);
            if line.is_empty() {
                return Err(InputError::new("empty line in key file")
                    .at(&src, start..start)
                    .expected("one non-empty key per line (HBase rejects empty row keys)"));
            }
            let key = if hex {
                decode_hex(line, start, &src)?
            } else {
                decode_binary_line(&src, line, start)?
            };
            if key.len() > MAX_ROW_LENGTH {
                return Err(InputError::new(format!("key of {} bytes", key.len()))
                    .at(&src, start..start + line.len())
                    .expected("keys of at most 32767 bytes (HConstants.MAX_ROW_LENGTH)"));
            }
            arena.extend_from_slice(&key);
            ends.push(arena.len());
            start = end + 1;
        }
        if ends.is_empty() {
            return Err(InputError::new("key file has no keys")
                .at(&src, 0..0)
                .expected("one key per line"));
        }
        Ok(KeyFile {
            path: src.path.clone(),
            arena,
            ends,
        })
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the file had no keys (never true for a built generator).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn range(&self, i: usize) -> Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        start..self.ends[i]
    }
}

impl RowKeyGenerator for KeyFile {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        let i = (id % self.ends.len() as u64) as usize;
        out.extend_from_slice(&self.arena[self.range(i)]);
    }
    fn describe(&self) -> String {
        format!(
            "file: {} keys from {}, row id → line id % {}",
            self.len(),
            self.path.display(),
            self.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    fn parse(text: &str, hex: bool) -> Result<KeyFile, InputError> {
        KeyFile::parse(SourceText::from_string("keys.txt", text.to_string()), hex)
    }

    #[test]
    fn escaped_and_hex_keys_cycle() {
        let k = parse("a\\x00b\r\nzz\n", false).unwrap();
        assert_eq!(k.len(), 2);
        let mut v = Vec::new();
        k.key_into(2, &mut v);
        assert_eq!(v, b"a\x00b");
        v.clear();
        k.key_into(3, &mut v);
        assert_eq!(v, b"zz");
        let k = parse("00ff\nAB", true).unwrap();
        v.clear();
        k.key_into(0, &mut v);
        assert_eq!(v, [0, 0xFF]);
    }

    #[test]
    fn errors_name_file_line_column() {
        let e = parse("abcd\n0g\n", true).err().unwrap();
        assert_eq!(e.location().unwrap(), "keys.txt:2:2");
        let e = parse("a\n\nb\n", false).err().unwrap();
        assert_eq!(e.location().unwrap(), "keys.txt:2:1");
        let e = parse("abc\n", true).err().unwrap();
        assert_eq!(e.location().unwrap(), "keys.txt:1:3");
        assert!(parse("", false).is_err());
    }

    #[test]
    fn cut_short_escape_is_rejected_like_a_splits_file() {
        let e = parse("row1\nab\\x4\n", false).err().unwrap();
        assert_eq!(e.location().unwrap(), "keys.txt:2:3");
        assert!(e.problem.contains("cut short"), "{e}");
        // A complete escape and a lower-case `\xff` (no escape for HBase) still decode.
        let k = parse("\\x41\\xff\n", false).unwrap();
        let mut out = Vec::new();
        k.key_into(0, &mut out);
        assert_eq!(out, b"Axff");
    }

    #[test]
    fn built_from_scenario_dir() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("k.txt"), "row1\nrow2\n").unwrap();
        let s = spec("[[generator]]\nname='f'\nkind='file'\npath='k.txt'\n");
        let ctx = super::super::BuildContext {
            seed: 1,
            base_dir: dir.path(),
            ids: (0, 10),
        };
        let g = super::super::build(&s, &ctx).unwrap();
        assert_eq!(key(&g, 1), b"row2");
        let s = spec("[[generator]]\nname='f'\nkind='file'\npath='missing.txt'\n");
        let e = super::super::build(&s, &ctx).err().unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.path"));
        assert!(
            e.file.is_none(),
            "the scenario loader adds the scenario file"
        );
    }
}
