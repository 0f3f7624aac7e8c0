//! Reports for people and programs: the plan `hbase-emu check` prints (text and JSON) and the run
//! report (text, JSON, CSV and a self-contained HTML page with SVG charts).

pub mod bulkload;
pub mod compare;
pub mod csv;
pub mod explain;
pub mod history;
pub mod html;
pub mod loader;
pub mod overrides;
pub mod plan;
pub mod ranges;
pub mod run;
pub mod scan;
pub mod sparkline;
pub mod summary;
pub mod svg;
pub mod sweep_html;
pub mod tables;
pub mod text;

use comfy_table::{CellAlignment, ContentArrangement, Table, presets};

/// Columns the text report is laid out for.
pub const TEXT_WIDTH: usize = 100;

/// A plain table in a stable style (no terminal probing, so output is byte-identical in tests).
pub fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_style(presets::UTF8_BORDERS_ONLY)
        .set_header(header.to_vec());
    t
}

/// Right-aligns the given columns (numbers).
pub fn align_right(t: &mut Table, columns: &[usize]) {
    for &c in columns {
        if let Some(col) = t.column_mut(c) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
}

/// Lays a table out in [`TEXT_WIDTH`] columns, wrapping long cells (keys) inside their column.
pub fn fit(t: &mut Table) {
    t.set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(TEXT_WIDTH as u16);
}

/// `text` as lines of at most `width` characters for a table cell, broken at spaces or after a
/// `/`, `.`, `=` or `,` (a path or a `--set` breaks between its parts); a run with none of those
/// longer than a line is broken at the width.
pub fn break_lines(text: &str, width: usize) -> String {
    let width = width.max(1);
    // Pieces that end just after a break point (a space stays at the end of its piece).
    let mut pieces: Vec<&str> = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if matches!(c, ' ' | '/' | '.' | '=' | ',') {
            let end = i + c.len_utf8();
            pieces.push(&text[start..end]);
            start = end;
        }
    }
    if start < text.len() {
        pieces.push(&text[start..]);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for piece in pieces {
        let len = line.chars().count() + piece.trim_end().chars().count();
        if !line.is_empty() && len > width {
            lines.push(line.trim_end().to_string());
            line.clear();
        }
        let mut rest = piece;
        while rest.trim_end().chars().count() > width {
            let cut = rest
                .char_indices()
                .nth(width)
                .map_or(rest.len(), |(i, _)| i);
            lines.push(rest[..cut].to_string());
            rest = &rest[cut..];
        }
        line.push_str(rest);
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines.join("\n")
}

/// Wraps prose lines longer than [`TEXT_WIDTH`] after `; ` or `, ` (continuations indented four
/// spaces deeper), and a clause too long for a line of its own between words (never inside one:
/// a number or an escaped key stays whole). Table lines (box drawing) are left alone: [`fit`]
/// lays those out.
pub fn wrap_prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let boxed = body.starts_with(['│', '┌', '└', '╞', '├']);
        if body.chars().count() <= TEXT_WIDTH || boxed {
            out.push_str(line);
            continue;
        }
        let indent = body.len() - body.trim_start().len();
        let cont = " ".repeat(indent + 4);
        let mut current = String::new();
        let room = TEXT_WIDTH.saturating_sub(cont.len());
        let pieces = clauses(body).into_iter().flat_map(|c| {
            if c.trim_end().chars().count() > room {
                c.split_inclusive(' ').collect()
            } else {
                vec![c]
            }
        });
        for piece in pieces {
            let fits = current.chars().count() + piece.trim_end().chars().count() <= TEXT_WIDTH;
            if !current.trim().is_empty() && !fits {
                out.push_str(current.trim_end());
                out.push('\n');
                current = cont.clone();
            }
            current.push_str(piece);
        }
        out.push_str(current.trim_end());
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// `text` cut after each `; ` and `, ` (the separators stay with the clause before them).
fn clauses(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = text.as_bytes();
    for i in 1..b.len() {
        if b[i] == b' ' && (b[i - 1] == b';' || b[i - 1] == b',') {
            out.push(&text[start..=i]);
            start = i + 1;
        }
    }
    out.push(&text[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::break_lines;

    #[test]
    fn break_lines_breaks_paths_at_their_parts_never_mid_word() {
        let t = "table attribute MAX_FILESIZE (scenarios/4tb-10-nodes-2gb.toml:21)";
        let b = break_lines(t, 28);
        for l in b.lines() {
            assert!(l.chars().count() <= 28, "{b}");
        }
        assert_eq!(
            b.replace('\n', "")
                .replace("MAX_FILESIZE(", "MAX_FILESIZE ("),
            t
        );
        assert_eq!(
            break_lines("command line (--set a.b.c=256MB)", 16),
            "command line\n(--set a.b.c=\n256MB)"
        );
        // A run with no break point longer than a line is cut at the width.
        assert_eq!(break_lines("abcdefgh", 3), "abc\ndef\ngh");
        assert_eq!(break_lines("", 5), "");
    }

    #[test]
    fn long_prose_wraps_at_clause_boundaries() {
        let line = format!("  {}; {}\n", "a".repeat(60), "b".repeat(60));
        assert_eq!(
            super::wrap_prose(&line),
            format!("  {};\n      {}\n", "a".repeat(60), "b".repeat(60))
        );
        assert_eq!(super::wrap_prose("short\n"), "short\n");
        // A clause longer than a line breaks between words, never inside one.
        let words = vec!["word1234"; 30].join(" ");
        let wrapped = super::wrap_prose(&format!("  {words}\n"));
        assert!(wrapped.lines().count() > 2, "{wrapped}");
        for l in wrapped.lines() {
            assert!(l.chars().count() <= super::TEXT_WIDTH, "{l}");
            assert!(l.trim().split(' ').all(|w| w == "word1234"), "{l}");
        }
    }
}
