//! `template` (alias `composite`): keys designed in a small template language, without Rust.
//!
//! ```text
//! template   = { literal | "{{" | "}}" | "{" expr "}" }
//! expr       = value [ ":" format ]
//! value      = name | "md5(" name ")" | "hash(" name ")" "%" integer
//! name       = "id" | "ts" | "revts" | field          (field: a key of `fields`)
//! format     = "0" width                               zero-padded decimal
//!            | ("x" | "X") [ width ]                   hex, lower/upper, zero-padded
//!            | "be" n                                  low n bytes big-endian, n = 1..=8
//!            | width                                   md5 only: first `width` hex chars (1..=32)
//! ```
//! Without a format a value prints in decimal and `md5(..)` as 32 hex chars. `md5(v)` hashes the
//! 8-byte big-endian value; `hash(v)%N` is a seeded 64-bit mix of the value reduced to `0..N`
//! (a salt: equal values get equal salts). The template is compiled once into a list of ops;
//! evaluation appends to the key buffer without allocating.

use super::spec::KindEntry;
use super::{Grouping, KeyGroup};
use std::collections::BTreeMap;
use std::ops::Range;

use super::batch::KeyBatch;
use super::distribution::Draw;
use super::enc::{self, decimal_len, push_decimal, push_hex_prefix, push_hex_u64};
use super::rng::{self, streams};
use super::spec::{FieldDist, GeneratorSpec, opt_err};
use super::timeseries::{Clock, reverse_ts};
use super::{BuildContext, MAX_ROW_LENGTH, RowKeyGenerator};
use crate::diag::InputError;

/// The `template` kind (alias `composite`): keys group by a small-cardinality first field.
pub(crate) static KIND: KindEntry = KindEntry {
    aliases: &["composite"],
    key_group: Some(template_group),
    ..KindEntry::new(
        "template",
        &["template", "fields", "start_ms", "step_ms", "fixed_step"],
        |spec, ctx, seed| Ok(Box::new(Template::from_spec(spec, ctx, seed)?)),
    )
};

/// A template's first field, when it is a small-cardinality prefix (≤ 1024 values).
fn template_group(spec: &GeneratorSpec) -> Option<KeyGroup> {
    const SMALL: u64 = 1024;
    let text = spec.template.as_ref()?.get_ref().as_str();
    let rest = text.strip_prefix('{')?;
    if rest.starts_with('{') {
        return None; // `{{` is a literal brace
    }
    let close = rest.find('}')?;
    let (expr, after) = (&rest[..close], &rest[close + 1..]);
    let (value, format) = match expr.split_once(':') {
        Some((v, f)) => (v.trim(), Some(f.trim())),
        None => (expr.trim(), None),
    };
    let (name, card) = if let Some(h) = value.strip_prefix("hash(") {
        let (inner, n) = h.split_once(")%")?;
        (format!("hash({inner})%{n}"), n.trim().parse::<u64>().ok()?)
    } else {
        let fields = spec.fields.as_ref()?.get_ref();
        let f = fields.get(value)?.get_ref();
        if *f.dist.get_ref() == FieldDist::Latest {
            return None;
        }
        (
            format!("field `{value}`"),
            *f.cardinality.as_ref()?.get_ref(),
        )
    };
    if card == 0 || card > SMALL {
        return None;
    }
    let top = card - 1;
    let fixed = match format {
        Some(f) if f.starts_with("be") => f[2..].parse::<usize>().ok(),
        Some(f) if f.starts_with('x') || f.starts_with('X') => f[1..]
            .parse::<usize>()
            .ok()
            .filter(|&w| format!("{top:x}").len() <= w),
        Some(f) if f.starts_with('0') => f[1..]
            .parse::<usize>()
            .ok()
            .filter(|&w| decimal_len(top) <= w),
        _ => None,
    };
    let grouping = match fixed {
        Some(n) => Grouping::Fixed(n),
        None => {
            // A variable-width field stays whole up to the literal that follows it.
            let d = after.bytes().next()?;
            if d == b'{' || d.is_ascii_hexdigit() {
                return None;
            }
            Grouping::Delimited(vec![d])
        }
    };
    Some(KeyGroup {
        what: format!("template prefix {name} ({card} values)"),
        grouping,
    })
}

/// Longest padding width accepted in a format.
const MAX_WIDTH: u64 = 4096;

/// Stream salt of `hash(..)`.
const HASH_STREAM: u64 = 0x5A17;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Operand {
    Id,
    Ts,
    RevTs,
    Field(usize),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Func {
    Plain,
    Md5,
    Hash(u64),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Format {
    Decimal { width: usize },
    Hex { width: usize, upper: bool },
    BigEndian(usize),
    Md5Hex(usize),
}

#[derive(Debug, Clone, PartialEq)]
enum Op {
    Literal(Range<usize>),
    Value(Operand, Func, Format),
}

/// A compiled field.
#[derive(Debug, Clone)]
struct Field {
    name: String,
    stream: u64,
    draw: Draw,
}

/// A template error: byte range inside the template text.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateError {
    /// Byte range inside the template.
    pub at: Range<usize>,
    /// What is wrong.
    pub problem: String,
    /// What would be accepted.
    pub expected: String,
}

fn terr(
    at: Range<usize>,
    problem: impl Into<String>,
    expected: impl Into<String>,
) -> TemplateError {
    TemplateError {
        at,
        problem: problem.into(),
        expected: expected.into(),
    }
}

/// The parsed template, before fields are resolved to draws.
#[derive(Debug, Clone, PartialEq)]
struct Compiled {
    literals: Vec<u8>,
    ops: Vec<Op>,
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

fn parse_number(
    s: &str,
    at: Range<usize>,
    what: &str,
    range: Range<u64>,
) -> Result<u64, TemplateError> {
    let expected = format!("{what} in {}..={}", range.start, range.end - 1);
    match s.parse::<u64>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(terr(at, format!("bad {what} `{s}`"), expected)),
    }
}

/// Parses `text`; `lookup` resolves field names to indexes.
fn compile(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<usize>,
    field_names: &str,
) -> Result<Compiled, TemplateError> {
    let b = text.as_bytes();
    let mut literals = Vec::new();
    let mut ops = Vec::new();
    let mut lit_start = 0usize; // start in `literals` of the pending literal
    let mut i = 0;
    let flush = |literals: &Vec<u8>, ops: &mut Vec<Op>, lit_start: &mut usize| {
        if literals.len() > *lit_start {
            ops.push(Op::Literal(*lit_start..literals.len()));
            *lit_start = literals.len();
        }
    };
    while i < b.len() {
        match b[i] {
            b'{' if b.get(i + 1) == Some(&b'{') => {
                literals.push(b'{');
                i += 2;
            }
            b'}' if b.get(i + 1) == Some(&b'}') => {
                literals.push(b'}');
                i += 2;
            }
            b'}' => {
                return Err(terr(i..i + 1, "unmatched `}`", "`}}` for a literal `}`"));
            }
            b'{' => {
                let Some(len) = text[i + 1..].find('}') else {
                    return Err(terr(
                        i..i + 1,
                        "unclosed `{`",
                        "`{expr}`, or `{{` for a literal `{`",
                    ));
                };
                let inner = &text[i + 1..i + 1 + len];
                if let Some(j) = inner.find('{') {
                    return Err(terr(
                        i + 1 + j..i + 2 + j,
                        "`{` inside an expression",
                        "`}` closing the expression first",
                    ));
                }
                flush(&literals, &mut ops, &mut lit_start);
                ops.push(parse_expr(inner, i + 1, lookup, field_names)?);
                i += len + 2;
            }
            _ => {
                literals.push(b[i]);
                i += 1;
            }
        }
    }
    flush(&literals, &mut ops, &mut lit_start);
    Ok(Compiled { literals, ops })
}

fn parse_expr(
    s: &str,
    at: usize,
    lookup: &dyn Fn(&str) -> Option<usize>,
    field_names: &str,
) -> Result<Op, TemplateError> {
    let (value, fmt) = match s.find(':') {
        Some(c) => (&s[..c], Some((&s[c + 1..], at + c + 1))),
        None => (s, None),
    };
    let whole = at..at + s.len().max(1);
    if value.is_empty() {
        return Err(terr(
            whole,
            "empty expression",
            "`{id}`, `{ts}`, `{revts}`, `{field}`, `{md5(x)}` or `{hash(x)%N}`",
        ));
    }
    let name = |n: &str, off: usize| -> Result<Operand, TemplateError> {
        let r = off..off + n.len().max(1);
        match n {
            "id" => Ok(Operand::Id),
            "ts" => Ok(Operand::Ts),
            "revts" => Ok(Operand::RevTs),
            _ => lookup(n).map(Operand::Field).ok_or_else(|| {
                terr(
                    r,
                    format!("unknown field `{n}`"),
                    format!("id, ts, revts or a field defined in `fields`{field_names}"),
                )
            }),
        }
    };
    let (operand, func) = if let Some(open) = value.find('(') {
        let fname = &value[..open];
        let Some(close) = value.rfind(')') else {
            return Err(terr(
                at + open..at + open + 1,
                "unclosed `(`",
                "`md5(name)` or `hash(name)%N`",
            ));
        };
        let arg = &value[open + 1..close];
        let operand = name(arg, at + open + 1)?;
        let rest = &value[close + 1..];
        let func = match fname {
            "md5" if rest.is_empty() => Func::Md5,
            "hash" => {
                let Some(n) = rest.strip_prefix('%') else {
                    return Err(terr(
                        at..at + value.len(),
                        "`hash(..)` needs `%N`",
                        "`hash(name)%N`, e.g. `hash(user)%16`",
                    ));
                };
                Func::Hash(parse_number(
                    n,
                    at + close + 2..at + value.len().max(close + 3),
                    "modulus",
                    1..u64::MAX,
                )?)
            }
            "md5" => {
                return Err(terr(
                    at + close + 1..at + value.len(),
                    format!("unexpected `{rest}` after `md5(..)`"),
                    "`md5(name)` or `md5(name):N`",
                ));
            }
            _ => {
                return Err(terr(
                    at..at + open.max(1),
                    format!("unknown function `{fname}`"),
                    "`md5` or `hash`",
                ));
            }
        };
        (operand, func)
    } else {
        if !is_ident(value) {
            return Err(terr(
                at..at + value.len(),
                format!("`{value}` is not a name"),
                "a name of letters, digits and `_`",
            ));
        }
        (name(value, at)?, Func::Plain)
    };
    let format = match fmt {
        None => {
            if func == Func::Md5 {
                Format::Md5Hex(32)
            } else {
                Format::Decimal { width: 0 }
            }
        }
        Some((f, off)) => parse_format(f, off, func)?,
    };
    Ok(Op::Value(operand, func, format))
}

fn parse_format(f: &str, off: usize, func: Func) -> Result<Format, TemplateError> {
    let r = off..off + f.len().max(1);
    let expected = if func == Func::Md5 {
        "`N` (hex chars, 1..=32), `xN`, or `beN` (digest bytes, 1..=16)"
    } else {
        "`0N` (zero-padded decimal), `x`/`xN`/`XN` (hex), or `beN` (N = 1..=8 big-endian bytes)"
    };
    if f.is_empty() {
        return Err(terr(r, "empty format after `:`", expected));
    }
    if let Some(n) = f.strip_prefix("be") {
        let max = if func == Func::Md5 { 17 } else { 9 };
        return Ok(Format::BigEndian(
            parse_number(n, r, "byte count", 1..max)? as usize
        ));
    }
    if let Some(n) = f
        .strip_prefix('x')
        .map(|n| (n, false))
        .or(f.strip_prefix('X').map(|n| (n, true)))
    {
        let (n, upper) = n;
        if func == Func::Md5 {
            if upper {
                return Err(terr(r, "md5 prints lowercase hex", expected));
            }
            return Ok(Format::Md5Hex(
                parse_number(n, r, "hex width", 1..33)? as usize
            ));
        }
        let width = if n.is_empty() {
            0
        } else {
            parse_number(n, r, "hex width", 1..MAX_WIDTH + 1)? as usize
        };
        return Ok(Format::Hex { width, upper });
    }
    if func == Func::Md5 {
        return Ok(Format::Md5Hex(
            parse_number(f, r, "hex width", 1..33)? as usize
        ));
    }
    match f.strip_prefix('0') {
        Some(n) if !n.is_empty() => Ok(Format::Decimal {
            width: parse_number(n, r, "width", 1..MAX_WIDTH + 1)? as usize,
        }),
        _ => Err(terr(r, format!("bad format `{f}`"), expected)),
    }
}

/// A compiled template generator.
#[derive(Debug, Clone)]
pub struct Template {
    text: String,
    seed: u64,
    literals: Vec<u8>,
    ops: Vec<Op>,
    fields: Vec<Field>,
    clock: Option<Clock>,
}

/// The byte span inside the TOML file of offset range `r` of a string value whose TOML span is
/// `value`: exact for single-line strings without escapes, else the whole value.
fn span_in_value(value: Range<usize>, text: &str, r: Range<usize>) -> Range<usize> {
    let raw = value.end - value.start;
    let quote = if raw == text.len() + 2 {
        1
    } else if raw == text.len() + 6 {
        3
    } else {
        return value;
    };
    value.start + quote + r.start..value.start + quote + r.end
}

impl Template {
    /// From a spec: `template` (required), `fields`, clock options.
    pub fn from_spec(
        spec: &GeneratorSpec,
        ctx: &BuildContext<'_>,
        seed: u64,
    ) -> Result<Template, InputError> {
        let Some(tpl) = &spec.template else {
            return Err(opt_err(
                "template",
                spec.kind.span(),
                "generator kind `template` needs `template`",
                "`template = \"{md5(id):4}_{id:010}\"`",
            ));
        };
        let mut fields = Vec::new();
        if let Some(map) = &spec.fields {
            for (name, fs) in map.get_ref() {
                fields.push(build_field(name, fs, ctx, map.span())?);
            }
        }
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        let list = if names.is_empty() {
            String::new()
        } else {
            format!(" ({})", names.join(", "))
        };
        let lookup = |n: &str| names.iter().position(|x| *x == n);
        let text = tpl.get_ref().as_str();
        let compiled = compile(text, &lookup, &list).map_err(|e| {
            opt_err(
                "template",
                span_in_value(tpl.span(), text, e.at.clone()),
                format!("{} at column {} of the template", e.problem, e.at.start + 1),
                e.expected,
            )
        })?;
        let uses_clock = compiled
            .ops
            .iter()
            .any(|op| matches!(op, Op::Value(Operand::Ts | Operand::RevTs, ..)));
        let clock = if uses_clock {
            Some(Clock::from_spec(spec, seed)?)
        } else {
            None
        };
        let t = Template {
            text: text.to_string(),
            seed,
            literals: compiled.literals,
            ops: compiled.ops,
            fields,
            clock,
        };
        let (min, max) = t.length_bounds();
        if max == 0 || min > MAX_ROW_LENGTH {
            return Err(opt_err(
                "template",
                tpl.span(),
                if max == 0 {
                    "the template gives empty keys".to_string()
                } else {
                    format!("every key would be at least {min} bytes")
                },
                "a template giving keys of 1..=32767 bytes (HConstants.MAX_ROW_LENGTH)",
            ));
        }
        Ok(t)
    }

    /// Shortest and longest possible key.
    pub fn length_bounds(&self) -> (usize, usize) {
        let (mut min, mut max) = (0usize, 0usize);
        for op in &self.ops {
            let (lo, hi) = match *op {
                Op::Literal(ref r) => (r.len(), r.len()),
                Op::Value(operand, func, format) => {
                    let top = match func {
                        Func::Hash(n) => n - 1,
                        Func::Md5 => u64::MAX,
                        Func::Plain => match operand {
                            Operand::Field(i) => self.fields[i].draw.max_value(),
                            _ => u64::MAX,
                        },
                    };
                    match format {
                        Format::Decimal { width } => (width.max(1), width.max(decimal_len(top))),
                        Format::Hex { width, .. } => (
                            width.max(1),
                            width.max((64 - top.leading_zeros() as usize).div_ceil(4).max(1)),
                        ),
                        Format::BigEndian(n) | Format::Md5Hex(n) => (n, n),
                    }
                }
            };
            min += lo;
            max += hi;
        }
        (min, max)
    }

    #[inline]
    fn write(&self, id: u64, ts: u64, out: &mut Vec<u8>) {
        for op in &self.ops {
            match *op {
                Op::Literal(ref r) => out.extend_from_slice(&self.literals[r.clone()]),
                Op::Value(operand, func, format) => {
                    let v = match operand {
                        Operand::Id => id,
                        Operand::Ts => ts,
                        Operand::RevTs => reverse_ts(ts),
                        Operand::Field(i) => {
                            let f = &self.fields[i];
                            f.draw.value(self.seed, f.stream, id)
                        }
                    };
                    match func {
                        Func::Md5 => {
                            let d = enc::md5(&v.to_be_bytes());
                            match format {
                                Format::BigEndian(n) => out.extend_from_slice(&d[..n]),
                                Format::Md5Hex(n) => push_hex_prefix(out, &d, n),
                                _ => push_hex_prefix(out, &d, 32),
                            }
                        }
                        Func::Plain | Func::Hash(_) => {
                            let v = match func {
                                Func::Hash(n) => {
                                    rng::below(rng::draw(self.seed, HASH_STREAM, v), n)
                                }
                                _ => v,
                            };
                            match format {
                                Format::Decimal { width } => push_decimal(out, v, width, b'0'),
                                Format::Hex { width, upper } => push_hex_u64(out, v, width, upper),
                                Format::BigEndian(n) => {
                                    out.extend_from_slice(&v.to_be_bytes()[8 - n..])
                                }
                                Format::Md5Hex(_) => push_decimal(out, v, 0, b'0'),
                            }
                        }
                    }
                }
            }
        }
    }
}

fn build_field(
    name: &str,
    fs: &toml::Spanned<super::spec::FieldSpec>,
    ctx: &BuildContext<'_>,
    map_span: Range<usize>,
) -> Result<Field, InputError> {
    let field = format!("fields.{name}");
    if !is_ident(name) || matches!(name, "id" | "ts" | "revts" | "md5" | "hash") {
        return Err(opt_err(
            &field,
            map_span,
            format!("`{name}` cannot be a field name"),
            "a name of letters, digits and `_`, other than id, ts, revts, md5, hash",
        ));
    }
    let spec = fs.get_ref();
    let dist = *spec.dist.get_ref();
    let card = match &spec.cardinality {
        Some(c) if *c.get_ref() == 0 => {
            return Err(opt_err(
                &format!("{field}.cardinality"),
                c.span(),
                "cardinality 0",
                "a cardinality ≥ 1",
            ));
        }
        Some(c) => Some(*c.get_ref()),
        None => None,
    };
    let need = |what: &str| {
        card.ok_or_else(|| {
            opt_err(
                &format!("{field}.cardinality"),
                fs.span(),
                format!("field `{name}` with dist `{what}` needs `cardinality`"),
                "`cardinality = <number of distinct values>`",
            )
        })
    };
    let draw = match dist {
        FieldDist::Sequential => Draw::Sequential { cardinality: card },
        FieldDist::Uniform => Draw::Uniform {
            n: need("uniform")?,
        },
        FieldDist::Zipfian => Draw::zipfian(need("zipfian")?),
        FieldDist::ZipfianOrdered => Draw::zipfian_ordered(need("zipfian-ordered")?),
        FieldDist::Latest => Draw::latest(card.unwrap_or(ctx.ids.1.max(1)), ctx.ids.0),
    };
    Ok(Field {
        name: name.to_string(),
        stream: streams::FIELD ^ (rng::fnv1a(name.as_bytes()) << 8),
        draw,
    })
}

impl RowKeyGenerator for Template {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        let ts = self.clock.map_or(0, |c| c.at(id));
        self.write(id, ts, out);
    }
    /// From the template's structure: the first plain `id`, `ts` or `revts` orders the keys in
    /// ingest time (backwards for `revts`, still one contiguous range per window); the ops before
    /// it are the group prefix. Only literals before it: one range ([`ScanLocality::Ordered`]);
    /// fields and `hash(..)%N` salts of a fixed width: one range per prefix of that width; of a
    /// variable width (decimal or hex without padding) ended by a delimiter that their digits
    /// cannot hold: one range per prefix up to it. Anything carrying the row's own identity
    /// before it (`md5(id)`, a plain `id` after a field) scatters a window.
    fn scan_locality(&self) -> super::ScanLocality {
        use super::ScanLocality;
        let (mut width, mut fixed, mut grouped, mut binary) = (0usize, true, false, false);
        for (i, op) in self.ops.iter().enumerate() {
            let (operand, func, format) = match *op {
                Op::Literal(ref r) => {
                    if !fixed {
                        // The delimiter ending a variable-width prefix, if the next op orders.
                        let b = self.literals.get(r.start).copied();
                        let orders = matches!(
                            self.ops.get(i + 1),
                            Some(Op::Value(
                                Operand::Id | Operand::Ts | Operand::RevTs,
                                Func::Plain,
                                _
                            ))
                        );
                        return match b {
                            Some(b) if orders && !binary && !b.is_ascii_alphanumeric() => {
                                ScanLocality::PrefixUntil(b)
                            }
                            _ => ScanLocality::Scattered,
                        };
                    }
                    width += r.len();
                    continue;
                }
                Op::Value(operand, func, format) => (operand, func, format),
            };
            if func == Func::Plain && matches!(operand, Operand::Id | Operand::Ts | Operand::RevTs)
            {
                return match (grouped, fixed) {
                    (false, _) => ScanLocality::Ordered,
                    (true, true) => ScanLocality::Prefix(width),
                    (true, false) => ScanLocality::Scattered,
                };
            }
            // A group value: a field, or a salt of anything; never the row's own id or time.
            let group = matches!(operand, Operand::Field(_)) || matches!(func, Func::Hash(_));
            if !group {
                return ScanLocality::Scattered;
            }
            grouped = true;
            let w = match (func, format) {
                (Func::Md5, Format::BigEndian(n) | Format::Md5Hex(n)) => Some(n),
                (Func::Md5, _) => Some(32),
                (_, Format::BigEndian(n)) => Some(n),
                (_, Format::Decimal { width } | Format::Hex { width, .. }) if width > 0 => {
                    Some(width)
                }
                // Unpadded: only a delimiter after it marks where the prefix ends.
                (_, Format::Decimal { .. } | Format::Hex { .. } | Format::Md5Hex(_)) => None,
            };
            match w {
                Some(w) if fixed => width += w,
                _ => fixed = false,
            }
            binary |= matches!(format, Format::BigEndian(_));
        }
        ScanLocality::Scattered
    }
    fn describe(&self) -> String {
        let fields: BTreeMap<&str, String> = self
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.draw.describe()))
            .collect();
        let mut s = format!("template {:?}", self.text);
        for (n, d) in fields {
            s.push_str(&format!("; {n}: {d}"));
        }
        if let Some(c) = self.clock {
            s.push_str("; ");
            s.push_str(&c.describe());
        }
        s
    }
}

impl KeyBatch for Template {
    fn keys_of(&self, ids: &[u64], f: &mut dyn FnMut(u64, &[u8])) {
        match self.clock {
            Some(c) => c.keys_of(ids, f, |id, ts, out| self.write(id, ts, out)),
            None => self.clockless_keys(ids.iter().copied(), f),
        }
    }
    fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        match self.clock {
            Some(c) => c.keys_into(ids, f, |id, ts, out| self.write(id, ts, out)),
            None => self.clockless_keys(ids, f),
        }
    }
}

impl Template {
    /// The keys of `ids` of a template without a clock field (time 0).
    fn clockless_keys(&self, ids: impl Iterator<Item = u64>, f: &mut dyn FnMut(u64, &[u8])) {
        let mut buf = Vec::with_capacity(64);
        for id in ids {
            buf.clear();
            self.write(id, 0, &mut buf);
            f(id, &buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    use crate::keynotation::to_hex;

    #[test]
    fn template_prefix_detection() {
        let s = spec(
            "[[generator]]\nname='t'\nkind='template'\ntemplate='{region:02}_{id}'\n\
             fields.region = { dist = 'uniform', cardinality = 12 }\n",
        );
        let g = template_group(&s).unwrap();
        assert_eq!(g.grouping, Grouping::Fixed(2));
        let s = spec("[[generator]]\nname='t'\nkind='template'\ntemplate='{hash(id)%16}-{id}'\n");
        assert_eq!(
            template_group(&s).unwrap().grouping,
            Grouping::Delimited(b"-".to_vec())
        );
        let s = spec("[[generator]]\nname='t'\nkind='template'\ntemplate='{md5(id):4}{id}'\n");
        assert!(template_group(&s).is_none());
    }

    fn gen_toml(template: &str, extra: &str) -> String {
        format!("[[generator]]\nname='t'\nkind='template'\ntemplate = \"{template}\"\n{extra}")
    }

    #[test]
    fn builtins_and_formats() {
        let g = build_toml(&gen_toml(
            "k{{{id}}}-{id:06}-{id:x}-{id:X4}-{id:be2}-{md5(id):4}-{hash(id)%10}",
            "",
        ))
        .unwrap();
        let k = key(&g, 300);
        let md5 = to_hex(&enc::md5(&300u64.to_be_bytes()));
        let mut expect = b"k{300}-000300-12c-012C-\x01\x2c-".to_vec();
        expect.extend_from_slice(&md5.as_bytes()[..4]);
        expect.push(b'-');
        assert_eq!(&k[..expect.len()], &expect[..]);
        assert_eq!(k.len(), expect.len() + 1);
        assert!(k.last().unwrap().is_ascii_digit());
    }

    #[test]
    fn fields_and_revts() {
        let text = gen_toml(
            "{md5(user):4}_{user:08}_{revts:be8}",
            "start_ms = 0\nstep_ms = 5\nfixed_step = true\n[generator.fields]\nuser = { dist = 'zipfian', cardinality = 1000000 }\n",
        );
        let g = build_toml(&text).unwrap();
        let k = key(&g, 3);
        assert_eq!(k.len(), 4 + 1 + 8 + 1 + 8);
        let user: u64 = std::str::from_utf8(&k[5..13]).unwrap().parse().unwrap();
        assert!(user < 1_000_000);
        assert_eq!(
            &k[..4],
            &to_hex(&enc::md5(&user.to_be_bytes())).as_bytes()[..4]
        );
        assert_eq!(&k[14..], &(i64::MAX as u64 - 20).to_be_bytes());
        assert_keys_into_consistent(g.batch(), 0..3000);
    }

    #[test]
    fn same_field_twice_has_the_same_value() {
        let g = build_toml(&gen_toml(
            "{u}/{u}",
            "fields = { u = { dist = 'uniform', cardinality = 1000 } }\n",
        ))
        .unwrap();
        for id in 0..100 {
            let k = key(&g, id);
            let s = std::str::from_utf8(&k).unwrap();
            let (a, b) = s.split_once('/').unwrap();
            assert_eq!(a, b);
        }
    }

    fn err_at(template: &str, extra: &str) -> (String, String) {
        let text = gen_toml(template, extra);
        let e = build_toml(&text).err().expect("template error");
        let span = e.span.clone().unwrap();
        (text[span].to_string(), e.to_string())
    }

    #[test]
    fn errors_point_into_the_template() {
        let (at, msg) = err_at("ab{id", "");
        assert_eq!(at, "{");
        assert!(msg.contains("unclosed `{` at column 3"), "{msg}");
        let (at, msg) = err_at("a}b", "");
        assert_eq!(at, "}");
        assert!(msg.contains("column 2"), "{msg}");
        let (at, msg) = err_at("x{nope}", "");
        assert_eq!(at, "nope");
        assert!(msg.contains("unknown field `nope`"), "{msg}");
        let (at, _) = err_at("{sha1(id)}", "");
        assert_eq!(at, "sha1");
        let (at, msg) = err_at("{id:0x}", "");
        assert_eq!(at, "0x");
        assert!(msg.contains("generator.template"), "{msg}");
        let (at, _) = err_at("{id:be9}", "");
        assert_eq!(at, "be9");
        let (at, _) = err_at("{md5(id):33}", "");
        assert_eq!(at, "33");
        let (at, _) = err_at("{hash(id)}", "");
        assert_eq!(at, "hash(id)");
        let (at, _) = err_at("{hash(id)%0}", "");
        assert_eq!(at, "0");
        let (_, msg) = err_at("{u}", "");
        assert!(msg.contains("unknown field `u`"), "{msg}");
    }

    #[test]
    fn escaped_toml_string_falls_back_to_value_span() {
        let text = "[[generator]]\nname='t'\nkind='template'\ntemplate = \"\\u0041{x\"\n";
        let e = build_toml(text).err().unwrap();
        assert_eq!(&text[e.span.clone().unwrap()], "\"\\u0041{x\"");
        assert!(e.problem.contains("column 2"));
    }

    #[test]
    fn empty_and_huge_templates_rejected_at_build() {
        let e = build_toml(&gen_toml("", "")).err().unwrap();
        assert!(e.problem.contains("empty"), "{e}");
        let e = build_toml(&gen_toml("{id:04096}{id:04096}{id:04096}{id:04096}{id:04096}{id:04096}{id:04096}{id:04096}{id:04096}", "")).err().unwrap();
        assert!(e.problem.contains("at least"), "{e}");
    }

    #[test]
    fn field_needs_cardinality() {
        let e = build_toml(&gen_toml("{u}", "fields = { u = { dist = 'zipfian' } }\n"))
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.fields.u.cardinality"));
        #[derive(serde::Deserialize)]
        #[allow(dead_code)]
        struct Doc {
            generator: Vec<GeneratorSpec>,
        }
        let text = gen_toml(
            "{u}",
            "fields = { u = { dist = 'gauss', cardinality = 3 } }\n",
        );
        let e = toml::from_str::<Doc>(&text).err().unwrap();
        assert_eq!(&text[e.span().unwrap()], "'gauss'");
    }

    #[test]
    fn latest_field_defaults_to_workload_window() {
        let g = build_toml(&gen_toml(
            "{r:be8}",
            "fields = { r = { dist = 'latest' } }\n",
        ))
        .unwrap();
        for id in [0u64, 1, 500, 999_999] {
            let v = u64::from_be_bytes(key(&g, id).try_into().unwrap());
            assert!(v <= id);
        }
    }
}

#[cfg(test)]
mod table_syntax_tests {
    use super::super::testutil::*;

    #[test]
    fn fields_as_sub_tables() {
        let text = "[[generator]]\nname='t'\nkind='template'\ntemplate='{user:04}'\n\n[generator.fields.user]\ndist = 'uniform'\ncardinality = 10\n";
        let g = build_toml(text).unwrap();
        let k = key(&g, 5);
        assert_eq!(k.len(), 4);
        assert!(k.starts_with(b"000"));
    }

    /// Issue 32: every template was priced as a full-table scan for a time window. The key's
    /// structure decides: what comes before the first plain `id`/`ts`/`revts` is the prefix a
    /// window's rows share a range under (engine/scan.rs prices one range per prefix).
    #[test]
    fn scan_locality_follows_the_template_structure() {
        use crate::keygen::ScanLocality as L;
        let loc = |t: &str, extra: &str| {
            let text =
                format!("[[generator]]\nname='t'\nkind='template'\ntemplate = \"{t}\"\n{extra}");
            build_toml(&text).unwrap().layout().scan_locality()
        };
        let clock = "start_ms = 0\nstep_ms = 5\n";
        let field = "[generator.fields]\nhost = { dist = 'uniform', cardinality = 500 }\n";
        // Time first, or a constant literal before it: one range.
        assert_eq!(loc("{ts:be8}{id:be4}", clock), L::Ordered);
        assert_eq!(loc("evt#{ts:013}#{id}", clock), L::Ordered);
        assert_eq!(loc("{revts:be8}", clock), L::Ordered);
        assert_eq!(loc("{id:012}", ""), L::Ordered);
        // A salt or a field of fixed width first: one range per prefix.
        assert_eq!(loc("{hash(id)%16:x2}{ts:be8}", clock), L::Prefix(2));
        assert_eq!(
            loc("{host:x4}|{ts:be8}", &format!("{clock}{field}")),
            L::Prefix(5)
        );
        assert_eq!(
            loc(
                "{md5(host):4}{host:04}{revts:be8}",
                &format!("{clock}{field}")
            ),
            L::Prefix(8)
        );
        // An unpadded field ended by a delimiter its digits cannot hold.
        assert_eq!(
            loc("{host}|{ts:013}", &format!("{clock}{field}")),
            L::PrefixUntil(b'|')
        );
        // The row's own identity first, no ordered value, or binary bytes before a delimiter:
        // a window's rows are anywhere.
        assert_eq!(loc("{md5(id):8}{ts:be8}", clock), L::Scattered);
        assert_eq!(loc("{host:04}-{md5(id)}", field), L::Scattered);
        assert_eq!(
            loc("{host:be2}{host}|{ts:013}", &format!("{clock}{field}")),
            L::Scattered
        );
        assert_eq!(
            loc("{host}{ts:013}", &format!("{clock}{field}")),
            L::Scattered
        );
    }
}
