//! `[expect]`: which designs each expectation applies to. The texts themselves are parsed by
//! `experiment::expect` (the figure names come from the report, which depends on this module),
//! with the positions kept here so its errors point into the file.

use std::ops::Range;

use toml::Spanned;

use super::Checker;
use super::raw::RawScenario;

/// The key of `[expect]` that applies to every design.
pub const ALL_DESIGNS: &str = "all";

/// One expectation as written in `[expect]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectationSpec {
    /// The design (generator name) it applies to; `None` for `all`.
    pub design: Option<String>,
    /// The text of the string.
    pub text: String,
    /// `expect.DESIGN[i]`, for error messages.
    pub field: String,
    /// Span of the TOML string literal (quotes included).
    pub span: Range<usize>,
    /// Byte offset in the file where `text` starts, when the literal holds it verbatim (no
    /// escapes); offsets within `text` then map onto the file.
    pub text_at: Option<usize>,
}

/// The `[expect]` entries in file order; an unknown design is an error naming the known ones.
pub(super) fn expectations(
    ck: &mut Checker<'_>,
    raw: &RawScenario,
    designs: &[&str],
) -> Vec<ExpectationSpec> {
    let Some(table) = &raw.expect else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, list) in table.get_ref() {
        let name = key.get_ref();
        let design = if name == ALL_DESIGNS {
            None
        } else if designs.contains(&name.as_str()) {
            Some(name.clone())
        } else {
            ck.err(
                key.span(),
                &format!("expect.{name}"),
                format!("no generator named {}", super::quoted_name(name)),
                format!(
                    "`{ALL_DESIGNS}` or a generator name: {}",
                    designs.join(", ")
                ),
            );
            continue;
        };
        for (i, item) in list.get_ref().iter().enumerate() {
            out.push(spec(ck, design.clone(), name, i, item));
        }
    }
    out.sort_by_key(|e| e.span.start);
    out
}

fn spec(
    ck: &Checker<'_>,
    design: Option<String>,
    key: &str,
    i: usize,
    item: &Spanned<String>,
) -> ExpectationSpec {
    let span = item.span();
    let text = item.get_ref().clone();
    // `"…"`, `'…'`, `"""…"""` or `'''…'''` holding the text as is (no escapes, no line break
    // trimmed): positions inside the text are positions in the file.
    let literal = ck.src.text.get(span.clone()).unwrap_or("");
    let text_at = [3, 1].into_iter().find_map(|q| {
        (literal.len() >= 2 * q && literal.get(q..literal.len() - q) == Some(text.as_str()))
            .then_some(span.start + q)
    });
    ExpectationSpec {
        design,
        text,
        field: format!("expect.{key}[{i}]"),
        span,
        text_at,
    }
}
