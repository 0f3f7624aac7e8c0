//! Input errors that name the place and the problem.
//!
//! Every error a user can cause (a scenario, an hbase-site.xml, a key file, a CLI flag) becomes an
//! [`InputError`]: the file, the line and column where known, the field, what was wrong and what was
//! expected. The CLI renders it with a source snippet (codespan-reporting); `Display` gives a one-line
//! form that tests and logs can grep.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;

/// The text of an input file, kept so errors can show the offending line.
#[derive(Clone, Debug)]
pub struct SourceText {
    /// Path as the user gave it (or as resolved relative to the file that referenced it).
    pub path: PathBuf,
    /// Whole file content.
    pub text: Arc<str>,
}

impl SourceText {
    /// Reads a file, turning an I/O failure into an [`InputError`] naming the file.
    pub fn read(path: &Path, what: &str) -> Result<SourceText, InputError> {
        Self::read_at_most(path, what, MAX_INPUT_BYTES)
    }

    /// [`read`](Self::read) with its own size bound (a saved report may be larger than a
    /// scenario).
    pub fn read_at_most(path: &Path, what: &str, limit: u64) -> Result<SourceText, InputError> {
        match read_bounded(path, limit) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => Ok(SourceText {
                    path: path.to_path_buf(),
                    text: text.into(),
                }),
                Err(e) => {
                    let at = e.utf8_error().valid_up_to();
                    let text: Arc<str> = String::from_utf8_lossy(e.as_bytes()).into();
                    let src = SourceText {
                        path: path.to_path_buf(),
                        text,
                    };
                    Err(InputError::new(format!("{what} is not valid UTF-8"))
                        .at(&src, at..at + 1)
                        .expected("UTF-8 text"))
                }
            },
            Err(e) => Err(InputError::new(format!("cannot read {what}: {e}"))
                .in_file(path)
                .expected(format!(
                    "a readable regular file of at most {}",
                    crate::units::format_bytes(limit)
                ))),
        }
    }

    /// An in-memory source (embedded scenarios, tests).
    pub fn from_string(path: impl Into<PathBuf>, text: impl Into<Arc<str>>) -> SourceText {
        SourceText {
            path: path.into(),
            text: text.into(),
        }
    }

    /// 1-based (line, column) of a byte offset; the column counts characters.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        line_col(&self.text, offset)
    }
}

/// The most an input file (scenario, site XML, SPLITS_FILE, key file) may hold: reading stops
/// there, so `/dev/zero` or a huge file is refused instead of exhausting memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Reads at most `limit` bytes of `path`; a longer file (or endless device) is an error, a
/// directory is one too (named as such).
pub fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(std::io::Error::other("it is a directory"));
    }
    let mut buf = Vec::new();
    file.take(limit + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "it is larger than {} (reading stopped there)",
            crate::units::format_bytes(limit)
        )));
    }
    Ok(buf)
}

/// `text` with every control character but newline and tab written as `\xHH` (`\u{…}` for
/// C1 controls), so a name or key holding an escape sequence cannot drive the terminal it is
/// printed to (clear the screen, retitle the window). Borrowed when there is nothing to escape.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.contains(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        // CRLF line ends (CSV) stay as they are.
        if !bad(c) || (c == '\r' && chars.peek() == Some(&'\n')) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            out.push_str(&format!("\\x{:02X}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:X}}}", c as u32));
        }
    }
    std::borrow::Cow::Owned(out)
}

/// 1-based line and column (in characters) of `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = text[line_start..offset].chars().count() + 1;
    (line, col)
}

/// An error in something the user supplied. Boxed: errors are rare and `Result`s stay small.
#[derive(Clone, Debug)]
pub struct InputError(Box<ErrorDetail>);

/// The parts of an [`InputError`].
#[derive(Clone, Debug, Default)]
pub struct ErrorDetail {
    /// File the error is in, if it came from a file.
    pub file: Option<PathBuf>,
    /// 1-based line, where known.
    pub line: Option<usize>,
    /// 1-based column, where known.
    pub column: Option<usize>,
    /// The field, key, property or flag at fault (e.g. `workload.data`, `hbase.hregion.max.filesize`).
    pub field: Option<String>,
    /// What is wrong.
    pub problem: String,
    /// What would have been accepted.
    pub expected: Option<String>,
    /// Byte span inside `source` (for the snippet).
    pub span: Option<Range<usize>>,
    source: Option<Arc<str>>,
    /// Standard output was closed by the reader (`| head`): not a failure, just the end.
    broken_pipe: bool,
}

impl std::ops::Deref for InputError {
    type Target = ErrorDetail;
    fn deref(&self) -> &ErrorDetail {
        &self.0
    }
}

impl InputError {
    /// A new error with only a problem statement; add the place with the builder methods.
    pub fn new(problem: impl Into<String>) -> InputError {
        InputError(Box::new(ErrorDetail {
            problem: problem.into(),
            ..ErrorDetail::default()
        }))
    }

    /// The "error" for standard output closed by its reader (EPIPE): the binary ends quietly
    /// with exit status 0 when it sees one (see [`is_broken_pipe`](Self::is_broken_pipe)).
    pub fn broken_pipe() -> InputError {
        let mut e = InputError::new("standard output was closed by the reader");
        e.0.broken_pipe = true;
        e
    }

    /// Whether this is [`broken_pipe`](Self::broken_pipe): output ended early, nothing went wrong.
    pub fn is_broken_pipe(&self) -> bool {
        self.0.broken_pipe
    }

    /// Replaces the problem statement, keeping place, field and expectation (outer layers that
    /// know a name the inner layer did not).
    pub fn reword(mut self, problem: impl Into<String>) -> InputError {
        self.0.problem = problem.into();
        self
    }

    /// Names the file (no position).
    pub fn in_file(mut self, path: &Path) -> InputError {
        self.0.file = Some(path.to_path_buf());
        self
    }

    /// Places the error at a byte span of a source file (sets file, line and column).
    pub fn at(mut self, src: &SourceText, span: Range<usize>) -> InputError {
        let (line, col) = src.line_col(span.start);
        self.0.file = Some(src.path.clone());
        self.0.line = Some(line);
        self.0.column = Some(col);
        self.0.span = Some(span);
        self.0.source = Some(src.text.clone());
        self
    }

    /// Places the error at a byte span, unless it already has a position. Used when an inner layer
    /// (a generator, a split algorithm) reported a span relative to the same file, or none.
    pub fn locate(self, src: &SourceText, fallback: Range<usize>) -> InputError {
        if self.file.is_some() {
            return self;
        }
        let span = self.span.clone().unwrap_or(fallback);
        self.at(src, span)
    }

    /// Attaches a span without a file yet (inner layers that see spans but not the file).
    pub fn with_span(mut self, span: Range<usize>) -> InputError {
        self.0.span = Some(span);
        self
    }

    /// Names the field at fault.
    pub fn field(mut self, field: impl Into<String>) -> InputError {
        self.0.field = Some(field.into());
        self
    }

    /// Names the field unless one is already set (outer layers add context without overwriting).
    pub fn field_if_unset(mut self, field: impl Into<String>) -> InputError {
        if self.field.is_none() {
            self.0.field = Some(field.into());
        }
        self
    }

    /// Says what would have been accepted.
    pub fn expected(mut self, expected: impl Into<String>) -> InputError {
        self.0.expected = Some(expected.into());
        self
    }

    /// `file:line:col` (as much of it as is known).
    pub fn location(&self) -> Option<String> {
        let file = self.file.as_ref()?.display().to_string();
        Some(match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{file}:{l}:{c}"),
            (Some(l), None) => format!("{file}:{l}"),
            _ => file,
        })
    }

    /// Renders the error with a source snippet when the source is known (for the terminal).
    pub fn render(&self) -> String {
        let (Some(src), Some(span), Some(file)) = (&self.source, &self.span, &self.file) else {
            return format!("error: {self}\n");
        };
        let file = SimpleFile::new(file.display().to_string(), src.as_ref());
        let mut span = span.clone();
        span.end = span.end.min(src.len()).max(span.start);
        let mut message = String::new();
        if let Some(field) = &self.field {
            message.push_str(&format!("`{field}`: "));
        }
        message.push_str(&self.problem);
        let mut diagnostic = Diagnostic::error().with_message(message).with_labels(vec![
            Label::primary((), span).with_message(self.problem.clone()),
        ]);
        if let Some(exp) = &self.expected {
            diagnostic = diagnostic.with_notes(vec![format!("expected {exp}")]);
        }
        let config = term::Config::default();
        match term::emit_into_string(&config, &file, &diagnostic) {
            Ok(s) => s,
            Err(_) => format!("error: {self}\n"),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = self.location() {
            write!(f, "{loc}: ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "`{field}`: ")?;
        }
        write!(f, "{}", self.problem)?;
        if let Some(exp) = &self.expected {
            write!(f, "; expected {exp}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_chars() {
        let t = "ab\ncdé\nx";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 7), (2, 4)); // after the 2-byte 'é'
        assert_eq!(line_col(t, 8), (3, 1));
    }

    #[test]
    fn display_names_place_field_problem_and_expectation() {
        let src = SourceText::from_string("s.toml", "a = 1\nb = \"x\"\n");
        let e = InputError::new("not a size")
            .at(&src, 10..13)
            .field("b")
            .expected("a size like 2GB");
        assert_eq!(
            e.to_string(),
            "s.toml:2:5: `b`: not a size; expected a size like 2GB"
        );
        assert!(e.render().contains("s.toml:2:5"));
    }
}

#[cfg(test)]
mod escape_tests {
    use super::escape_controls;

    #[test]
    fn control_characters_are_escaped_but_newlines_and_tabs_kept() {
        assert_eq!(escape_controls("a\tb\nc\r\n"), "a\tb\nc\r\n");
        assert_eq!(escape_controls("x\u{1b}[2Jy\u{7f}"), "x\\x1B[2Jy\\x7F");
        assert_eq!(escape_controls("\u{9b}31m\r"), "\\u{9B}31m\\x0D");
    }
}
