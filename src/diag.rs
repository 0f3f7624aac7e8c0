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
            Ok(bytes) => Self::from_bytes(path, bytes, what),
            Err(e) => Err(InputError::new(format!("cannot read {what}: {e}"))
                .in_file(path)
                .expected(format!(
                    "a readable regular file of at most {}",
                    crate::units::format_bytes(limit)
                ))),
        }
    }

    /// The text of bytes read from `path`; invalid UTF-8 is an error placed at the first bad
    /// byte (shown lossily). Every file reader goes through here, and so do the fuzz targets.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>, what: &str) -> Result<SourceText, InputError> {
        match String::from_utf8(bytes) {
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

/// `span` clamped to `text` and widened to whole characters: the start moves back and the end
/// forward to the nearest character boundary, and the end is never before the start.
pub fn char_span(text: &str, span: Range<usize>) -> Range<usize> {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
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
        // Callers count bytes (a parser's position, a field's length); the snippet slices the
        // text at this span, so it is widened to whole characters here, once for all of them.
        let span = char_span(&src.text, span);
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

    /// Whether the error is placed in `src`'s text (the very text, not a copy of equal bytes
    /// elsewhere).
    pub fn placed_in(&self, src: &SourceText) -> bool {
        self.source
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(t, &src.text))
    }

    /// The error without its line, column and snippet (the file stays named): for a text the
    /// user never saw, such as a scenario rewritten with `--set` overrides.
    pub fn unplaced(mut self) -> InputError {
        self.0.line = None;
        self.0.column = None;
        self.0.span = None;
        self.0.source = None;
        self
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

    /// Renders the error with a source snippet when the source is known (for the terminal). A
    /// long value is named once, shortened (see [`shorten_values`]), and a long source line is
    /// shown as a window around the error's column.
    pub fn render(&self) -> String {
        let (Some(src), Some(span), Some(file)) = (&self.source, &self.span, &self.file) else {
            return format!("error: {self}\n");
        };
        let problem = shorten_values(&self.problem);
        let mut message = String::new();
        if let Some(field) = &self.field {
            message.push_str(&format!("`{}`: ", shorten_values(field)));
        }
        message.push_str(&problem);
        // The label repeats the problem only when that repeats no shortened value.
        let label = if matches!(problem, std::borrow::Cow::Borrowed(_)) {
            self.problem.clone()
        } else {
            String::new()
        };
        let file = Snippet::new(file.display().to_string(), src, span.clone());
        let mut diagnostic = Diagnostic::error().with_message(message).with_labels(vec![
            Label::primary((), file.span.clone()).with_message(label),
        ]);
        if let Some(exp) = &self.expected {
            diagnostic = diagnostic.with_notes(vec![format!("expected {}", shorten_values(exp))]);
        }
        let config = term::Config::default();
        match term::emit_into_string(&config, &file, &diagnostic) {
            Ok(s) => s,
            Err(_) => format!("error: {self}\n"),
        }
    }
}

/// Runs of this many characters or more without a space are shortened in error messages.
const LONG_VALUE_CHARS: usize = 64;
/// How many characters of a shortened value are kept.
const SHORT_VALUE_KEEP: usize = 40;

/// `text` with every run of [`LONG_VALUE_CHARS`] or more characters without a space, quote or
/// backtick (a pasted 100,000-digit number, a 20,000-part dotted key) cut to its first
/// [`SHORT_VALUE_KEEP`] characters, `…` and its length, so an error stays readable. Borrowed when
/// nothing is long.
pub fn shorten_values(text: &str) -> std::borrow::Cow<'_, str> {
    let sep = |c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | ',' | ';');
    let long = text
        .split(sep)
        .any(|run| run.len() >= LONG_VALUE_CHARS && run.chars().count() >= LONG_VALUE_CHARS);
    if !long {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(256);
    let mut run_start = 0;
    let flush = |out: &mut String, run: &str| {
        let n = run.chars().count();
        if n >= LONG_VALUE_CHARS {
            out.extend(run.chars().take(SHORT_VALUE_KEEP));
            out.push_str(&format!("…({} chars)", crate::units::thousands(n as u128)));
        } else {
            out.push_str(run);
        }
    };
    for (i, c) in text.char_indices() {
        if sep(c) {
            flush(&mut out, &text[run_start..i]);
            out.push(c);
            run_start = i + c.len_utf8();
        }
    }
    flush(&mut out, &text[run_start..]);
    std::borrow::Cow::Owned(out)
}

/// Lines longer than this are shown as a window around the error's column.
const SNIPPET_LINE_CHARS: usize = 160;
/// Characters of a long line kept before the error's column.
const SNIPPET_BEFORE: usize = 40;
/// Characters of a long line kept from the error's column on.
const SNIPPET_AFTER: usize = 80;

/// The source as codespan sees it: the whole file, or, when the error's line is long, only a
/// window of that line (with `…` where it was cut) that still reports the real line and column.
struct Snippet<'a> {
    name: String,
    text: std::borrow::Cow<'a, str>,
    /// Span of the error inside `text`.
    span: Range<usize>,
    /// For a window: the real 0-based line index and the characters cut before the window
    /// (less the one `…` put in their place).
    window: Option<(usize, usize)>,
}

impl<'a> Snippet<'a> {
    fn new(name: String, src: &'a str, span: Range<usize>) -> Snippet<'a> {
        let Range { start, end } = char_span(src, span);
        let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = src[start..].find('\n').map_or(src.len(), |i| start + i);
        let line = &src[line_start..line_end];
        if line.len() <= SNIPPET_LINE_CHARS || line.chars().count() <= SNIPPET_LINE_CHARS {
            return Snippet {
                name,
                text: std::borrow::Cow::Borrowed(src),
                span: start..end,
                window: None,
            };
        }
        let col = src[line_start..start].chars().count();
        let skip = col.saturating_sub(SNIPPET_BEFORE);
        let byte_at = |chars: usize| {
            line.char_indices()
                .nth(chars)
                .map_or(line.len(), |(i, _)| i)
        };
        let (from, to) = (byte_at(skip), byte_at(col + SNIPPET_AFTER));
        let mut text = String::with_capacity(to - from + 8);
        if skip > 0 {
            text.push('…');
        }
        let lead = text.len();
        text.push_str(&line[from..to]);
        let cut_after = to < line.len();
        if cut_after {
            text.push('…');
        }
        let s = lead + (start - line_start - from);
        let e =
            (lead + end.min(line_end).saturating_sub(line_start + from)).clamp(s, lead + to - from);
        // The end was a boundary of the line, not necessarily of the window (an error spanning
        // past the window's cut ends inside a multi-byte character).
        let Range { start: s, end: e } = char_span(&text, s..e);
        let line_index = src[..line_start].bytes().filter(|&b| b == b'\n').count();
        Snippet {
            name,
            text: std::borrow::Cow::Owned(text),
            span: s..e,
            window: Some((line_index, skip.saturating_sub(usize::from(skip > 0)))),
        }
    }
}

impl<'a> codespan_reporting::files::Files<'a> for Snippet<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.text)
    }

    fn line_index(
        &'a self,
        (): (),
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.text[..byte_index.min(self.text.len())]
            .bytes()
            .filter(|&b| b == b'\n')
            .count())
    }

    fn line_number(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.window.map_or(line_index, |(l, _)| l) + 1)
    }

    fn column_number(
        &'a self,
        (): (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let range = self.line_range((), line_index)?;
        let col = codespan_reporting::files::column_index(&self.text, range, byte_index);
        Ok(col + 1 + self.window.map_or(0, |(_, shift)| shift))
    }

    fn line_range(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        let mut start = 0;
        for _ in 0..line_index {
            match self.text[start..].find('\n') {
                Some(i) => start += i + 1,
                None => {
                    return Err(codespan_reporting::files::Error::LineTooLarge {
                        given: line_index,
                        max: 0,
                    });
                }
            }
        }
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i + 1);
        Ok(start..end)
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = self.location() {
            write!(f, "{loc}: ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "`{}`: ", shorten_values(field))?;
        }
        write!(f, "{}", shorten_values(&self.problem))?;
        if let Some(exp) = &self.expected {
            write!(f, "; expected {}", shorten_values(exp))?;
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
mod shorten_tests {
    use super::*;

    #[test]
    fn long_runs_are_cut_to_forty_characters_and_their_length() {
        let digits = "7".repeat(100);
        let message = format!("size `{digits}` is too large");
        let shown = shorten_values(&message);
        assert_eq!(
            shown,
            format!("size `{}…(100 chars)` is too large", "7".repeat(40))
        );
        assert!(matches!(
            shorten_values("short `x` stays"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_with_the_real_line_and_column() {
        let line = format!("k = \"{}\"", "9".repeat(5_000));
        let src = SourceText::from_string("w.toml", format!("a = 1\n{line}\nb = 2\n"));
        let at = 6 + 3000;
        let e = InputError::new("bad").at(&src, at..at + 5);
        let shown = e.render();
        assert!(shown.contains("w.toml:2:3001"), "{shown}");
        assert!(shown.lines().all(|l| l.chars().count() < 200), "{shown}");
        assert!(shown.contains('…'), "{shown}");
        // The caret sits under the 41st character of the window (after the leading `…`).
        let snippet = shown
            .lines()
            .find(|l| l.contains("…9"))
            .expect("window line");
        let caret = shown.lines().find(|l| l.contains('^')).expect("caret line");
        let col = |l: &str, c: char| l.chars().position(|x| x == c).expect("found");
        assert_eq!(col(caret, '^'), col(snippet, '…') + 41, "{shown}");
    }
}

#[cfg(test)]
mod span_tests {
    use super::*;
    use proptest::prelude::*;

    /// Issue 33: an invalid byte on a line over 160 characters (a binary scenario) put the
    /// span inside the 3-byte replacement character, and the window sliced there.
    #[test]
    fn issue_33_an_invalid_byte_on_a_long_line_renders() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("binary.toml");
        let mut bytes = vec![b'a'; 300];
        bytes[200] = 0xff;
        std::fs::write(&path, &bytes).expect("write");
        let e = SourceText::read(&path, "scenario file").unwrap_err();
        let shown = e.render();
        assert!(shown.contains("binary.toml:1:201"), "{shown}");
    }

    #[test]
    fn a_span_ending_inside_a_character_past_the_window_renders() {
        let line = format!("{}{}", "a".repeat(200), "é".repeat(200));
        let src = SourceText::from_string("w.csv", line.as_str());
        // 201 bytes past the window's start: inside an `é`.
        let e = InputError::new("bad").at(&src, 150..351);
        assert!(e.render().contains("w.csv:1:151"));
    }

    proptest! {
        /// Any text, any span: a rendered error, never a panic.
        #[test]
        fn render_never_panics(
            text in "(\\PC|\n|é|\u{fffd}){0,400}",
            long in 0usize..3,
            a in 0usize..2000,
            b in 0usize..2000,
        ) {
            let text = format!("{}{text}", "x".repeat(long * 120));
            let src = SourceText::from_string("p.toml", text.as_str());
            let shown = InputError::new("bad").at(&src, a..b).expected("good").render();
            prop_assert!(shown.contains("p.toml"));
            let unplaced = InputError::new("bad").with_span(b..a).render();
            prop_assert!(unplaced.contains("bad"));
        }
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
