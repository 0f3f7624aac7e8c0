//! Explicit split keys: the client's checks on them (`HBaseAdmin#createTableAsync`,
//! `RawAsyncHBaseAdmin#verifySplitKeys`), the shell's `SPLITS_FILE` (`admin.rb`), and rendering
//! keys back as a splits file or a shell `create` command.

use std::path::Path;

use crate::diag::{InputError, SourceText};
use crate::keygen::MAX_ROW_LENGTH;
use crate::keynotation::{decode_binary_line, from_hex, to_shell_literal, to_string_binary};

/// A key for messages: its `toStringBinary` form, cut short when long.
pub(crate) fn show_key(key: &[u8]) -> String {
    const SHOWN: usize = 64;
    if key.len() <= SHOWN {
        to_string_binary(key)
    } else {
        format!("{}… ({} bytes)", to_string_binary(&key[..SHOWN]), key.len())
    }
}

fn too_long(key: &[u8]) -> InputError {
    InputError::new(format!(
        "split key `{}` is {} bytes long; no row can be longer than {MAX_ROW_LENGTH} bytes",
        show_key(key),
        key.len()
    ))
    .expected(format!("split keys of 1..={MAX_ROW_LENGTH} bytes"))
}

fn empty_key() -> InputError {
    InputError::new(
        "an empty split key is not allowed: the first region already starts at the empty key, \
         and HBase refuses empty split keys",
    )
    .expected("non-empty split keys")
}

fn duplicate_key(key: &[u8]) -> InputError {
    InputError::new(format!(
        "split key `{}` is given more than once; HBase requires split keys to be unique",
        show_key(key)
    ))
    .expected("distinct split keys")
}

/// Validates explicit split keys as the HBase client does before creating a table: sorts them
/// (unsigned lexicographic, as `Bytes.BYTES_COMPARATOR`), then refuses an empty key and any
/// duplicate. Additionally refuses keys longer than HBase's row limit (32767 bytes), which HBase
/// does not check for split keys but no row could ever reach. Returns the sorted keys.
pub fn validate_keys(mut keys: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, InputError> {
    keys.sort_unstable();
    if keys.first().is_some_and(|k| k.is_empty()) {
        return Err(empty_key());
    }
    if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
        return Err(duplicate_key(&w[0]));
    }
    if let Some(k) = keys.iter().find(|k| k.len() > MAX_ROW_LENGTH) {
        return Err(too_long(k));
    }
    Ok(keys)
}

pub(crate) use crate::keynotation::check_binary_escapes;

/// How the lines of a splits file are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SplitsFileFormat {
    /// HBase shell's `SPLITS_FILE`: each line is one key in `toStringBinary` notation, decoded with
    /// `Bytes.toBytesBinary`. Only the line ending is removed (Ruby's `chomp`: `\n`, `\r\n` or
    /// `\r`); spaces are part of the key; an empty line is an empty key and is refused (as HBase
    /// refuses it). Note `\xff` (lower case) is *not* an escape for HBase: it reads as `xff`.
    #[default]
    Binary,
    /// hbase-emu's own variant: each line is one key as hex digits (either case). Surrounding
    /// whitespace is trimmed and blank lines are skipped.
    Hex,
}

/// Reads a shell `SPLITS_FILE` ([`SplitsFileFormat::Binary`]) and validates it: the keys come back
/// sorted; an empty line, a duplicate key (naming both lines), a key over 32767 bytes or a `\x`
/// escape cut short by the end of the line is an error at `file:line:column`.
pub fn read_splits_file(path: &Path) -> Result<Vec<Vec<u8>>, InputError> {
    read_splits_file_as(path, SplitsFileFormat::Binary)
}

/// [`read_splits_file`] for either format.
pub fn read_splits_file_as(
    path: &Path,
    format: SplitsFileFormat,
) -> Result<Vec<Vec<u8>>, InputError> {
    let src = SourceText::read(path, "splits file")?;
    parse_splits_text(&src, format)
}

/// Parses and validates the text of a splits file (see [`read_splits_file`]).
pub fn parse_splits_text(
    src: &SourceText,
    format: SplitsFileFormat,
) -> Result<Vec<Vec<u8>>, InputError> {
    let text: &str = &src.text;
    // (key, byte span of the line's content)
    let mut keys: Vec<(Vec<u8>, std::ops::Range<usize>)> = Vec::new();
    let mut line_start = 0;
    while line_start < text.len() {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |i| line_start + i);
        let mut content = &text[line_start..line_end];
        if let Some(c) = content.strip_suffix('\r') {
            content = c;
        }
        let span = line_start..line_start + content.len();
        line_start = line_end + 1;
        match format {
            SplitsFileFormat::Binary => {
                if content.is_empty() {
                    return Err(InputError::new(
                        "empty line: the HBase shell reads it as an empty split key, which \
                         HBase refuses",
                    )
                    .at(src, span)
                    .expected("one split key per line, in toStringBinary notation"));
                }
                keys.push((decode_binary_line(src, content, span.start)?, span));
            }
            SplitsFileFormat::Hex => {
                let trimmed = content.trim();
                if trimmed.is_empty() {
                    continue;
                }
                let lead = content.len() - content.trim_start().len();
                let start = span.start + lead;
                let key = from_hex(trimmed).map_err(|e| {
                    InputError::new(e)
                        .at(src, start..start + trimmed.len())
                        .expected("one split key per line as hex digits")
                })?;
                if key.is_empty() {
                    return Err(empty_key().at(src, span));
                }
                keys.push((key, start..start + trimmed.len()));
            }
        }
    }
    if let Some((key, span)) = keys.iter().find(|(k, _)| k.len() > MAX_ROW_LENGTH) {
        return Err(too_long(key).at(src, span.clone()));
    }
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&x, &y| keys[x].0.cmp(&keys[y].0)); // stable: equal keys in file order
    let repeat = order
        .windows(2)
        .filter(|w| keys[w[0]].0 == keys[w[1]].0)
        .min_by_key(|w| w[1]);
    if let Some(w) = repeat {
        let (line, _) = src.line_col(keys[w[0]].1.start);
        let (key, span) = &keys[w[1]];
        let problem = format!(
            "split key `{}` repeats the key on line {line}; HBase requires split keys to be \
             unique",
            show_key(key)
        );
        return Err(InputError::new(problem)
            .at(src, span.clone())
            .expected("distinct split keys"));
    }
    let mut sorted: Vec<Option<Vec<u8>>> = keys.into_iter().map(|(k, _)| Some(k)).collect();
    Ok(order
        .into_iter()
        .filter_map(|i| sorted.get_mut(i).and_then(Option::take))
        .collect())
}

/// The text of a shell `SPLITS_FILE` holding `keys`: one `toStringBinary` key per line, each
/// ending in `\n`. [`read_splits_file`] (and the shell) read it back to exactly the same bytes.
pub fn render_splits_file(keys: &[Vec<u8>]) -> String {
    let mut s = String::new();
    for k in keys {
        crate::keynotation::push_string_binary(&mut s, k);
        s.push('\n');
    }
    s
}

/// A Ruby single-quoted literal for a plain string (table and family names).
fn ruby_quote(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// The HBase shell command creating `table` with column family `family`, pre-split at `keys`:
/// `create 'TABLE', 'FAMILY', SPLITS => ['k1', 'k2', ...]`.
///
/// The shell's `create` (`admin.rb`) passes every `SPLITS` string through
/// `Bytes.toBytesBinary`, so each key is written in `toStringBinary` notation inside single quotes
/// (where Ruby leaves `\x` alone), with `'` as `\x27`: the shell recovers the exact bytes.
pub fn shell_create_command(table: &str, family: &str, keys: &[Vec<u8>]) -> String {
    let mut s = format!("create {}, {}", ruby_quote(table), ruby_quote(family));
    if !keys.is_empty() {
        s.push_str(", SPLITS => [");
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&to_shell_literal(k));
        }
        s.push(']');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(text: &str) -> Result<Vec<Vec<u8>>, InputError> {
        parse_splits_text(
            &SourceText::from_string("splits.txt", text),
            SplitsFileFormat::Binary,
        )
    }

    // Mirrors HBaseAdmin#createTableAsync / RawAsyncHBaseAdmin#verifySplitKeys.
    #[test]
    fn validate_sorts_and_refuses_empty_and_duplicates() {
        let keys = validate_keys(vec![b"b".to_vec(), vec![0xFF], b"a".to_vec(), vec![0x00]]);
        assert_eq!(
            keys.unwrap(),
            [vec![0x00], b"a".to_vec(), b"b".to_vec(), vec![0xFF]]
        );
        assert!(validate_keys(vec![]).unwrap().is_empty());
        let e = validate_keys(vec![b"a".to_vec(), vec![]]).unwrap_err();
        assert!(e.problem.contains("empty split key"), "{e}");
        let e = validate_keys(vec![vec![0xFF, b'a'], b"b".to_vec(), vec![0xFF, b'a']]).unwrap_err();
        assert!(e.problem.contains("`\\xFFa`"), "{e}");
        let e = validate_keys(vec![vec![b'x'; MAX_ROW_LENGTH + 1]]).unwrap_err();
        assert!(e.problem.contains("32768 bytes"), "{e}");
        assert!(validate_keys(vec![vec![b'x'; MAX_ROW_LENGTH]]).is_ok());
    }

    // Mirrors admin.rb `create` with SPLITS_FILE: File.foreach + chomp + Bytes.toBytesBinary.
    #[test]
    fn splits_file_lines() {
        let keys = parse("b\n\\x00\\x01\r\na b \nA\\x5C\\xff").unwrap();
        assert_eq!(
            keys,
            [
                vec![0, 1],
                // \x5C is a backslash; `\xff` (lower case) is no escape: its backslash is dropped.
                b"A\\xff".to_vec(),
                b"a b ".to_vec(),
                b"b".to_vec(),
            ]
        );
        assert!(parse("").unwrap().is_empty());
        assert_eq!(parse("k\n").unwrap(), [b"k".to_vec()]);
        // "\r" alone is chomped too; a second "\r" stays in the key.
        assert_eq!(parse("k\r\r\n").unwrap(), [b"k\r".to_vec()]);
    }

    #[test]
    fn splits_file_errors_name_the_line() {
        let e = parse("a\n\nb\n").unwrap_err();
        assert_eq!(e.location().unwrap(), "splits.txt:2:1");
        assert!(e.problem.contains("empty line"), "{e}");
        // A trailing empty line (two newlines at the end) is an empty key for the shell too.
        assert!(parse("a\nb\n\n").is_err());
        let e = parse("a\nb\\x0\n").unwrap_err();
        assert_eq!(e.location().unwrap(), "splits.txt:2:2");
        let e = parse("zz\nb\na\nb\n").unwrap_err();
        assert_eq!(e.location().unwrap(), "splits.txt:4:1");
        assert!(e.problem.contains("line 2"), "{e}");
        let long = format!("ok\n{}\n", "x".repeat(MAX_ROW_LENGTH + 1));
        assert_eq!(
            parse(&long).unwrap_err().location().unwrap(),
            "splits.txt:2:1"
        );
    }

    #[test]
    fn splits_file_hex_variant() {
        let src = SourceText::from_string("s.hex", "  ff00 \n\n0A\n");
        let keys = parse_splits_text(&src, SplitsFileFormat::Hex).unwrap();
        assert_eq!(keys, [vec![0x0A], vec![0xFF, 0x00]]);
        let src = SourceText::from_string("s.hex", "0a\n 0g\n");
        let e = parse_splits_text(&src, SplitsFileFormat::Hex).unwrap_err();
        assert_eq!(e.location().unwrap(), "s.hex:2:2");
    }

    #[test]
    fn splits_file_from_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("splits.txt");
        std::fs::write(&path, "b\na\n").unwrap();
        assert_eq!(
            read_splits_file(&path).unwrap(),
            [b"a".to_vec(), b"b".to_vec()]
        );
        let e = read_splits_file(&dir.path().join("missing.txt")).unwrap_err();
        assert!(e.problem.contains("cannot read splits file"), "{e}");
    }

    #[test]
    fn shell_command() {
        let keys = vec![b"a'b".to_vec(), vec![0x00, 0xFF]];
        assert_eq!(
            shell_create_command("t1", "cf", &keys),
            "create 't1', 'cf', SPLITS => ['a\\x27b', '\\x00\\xFF']"
        );
        assert_eq!(shell_create_command("t", "f", &[]), "create 't', 'f'");
        assert_eq!(render_splits_file(&keys), "a'b\n\\x00\\xFF\n");
    }

    proptest! {
        // What render_splits_file writes, the shell (and read_splits_file) reads back exactly.
        #[test]
        fn splits_file_round_trips(keys in proptest::collection::btree_set(
            proptest::collection::vec(any::<u8>(), 1..12), 0..20)) {
            let keys: Vec<Vec<u8>> = keys.into_iter().collect();
            let text = render_splits_file(&keys);
            prop_assert_eq!(parse(&text).unwrap(), keys);
        }
    }
}
