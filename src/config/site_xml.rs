//! Reader for Hadoop-style configuration files (`hbase-site.xml`, `hbase-default.xml`).
//!
//! The grammar is Hadoop's: a `<configuration>` root holding `<property>` elements, each with
//! `<name>`, `<value>`, optional `<final>`, and the ignored `<description>`, `<source>` and `<tag>`.
//! Like Hadoop 3's parser, `name`, `value` and `final` may also be given as attributes of
//! `<property>`. We are stricter than Hadoop in one way: an element we do not know inside
//! `<configuration>` or `<property>` is an error (Hadoop skips it silently), because in a site file it
//! is almost always a typo such as `<vaule>` that would otherwise drop a setting without a word.
//!
//! quick-xml delivers entity and character references as separate events; they are resolved here
//! (`&amp;`, `&#x41;` ...) so a value such as `a&amp;b` is read whole.

use std::ops::Range;

use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::reader::Reader;

use crate::diag::{InputError, SourceText};

/// One `<property>` as written in a file, before layering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlProperty {
    /// The property name, surrounding whitespace removed (Hadoop trims names).
    pub name: String,
    /// The value with surrounding whitespace removed; `None` when `<value>` is missing or empty.
    /// Hadoop does not set a property whose value is empty, so the code default applies.
    pub value: Option<String>,
    /// `<final>true</final>`: later layers may not override it.
    pub is_final: bool,
    /// Byte span of the trimmed value text (or of the `<property>` tag when there is no value).
    pub value_span: Range<usize>,
    /// Byte span of the `<property>` start tag.
    pub property_span: Range<usize>,
}

/// Which field of a `<property>` text is being collected for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Name,
    Value,
    Final,
    /// `<description>`, `<source>`, `<tag>`: read and dropped.
    Ignored,
}

const PROPERTY_CHILDREN: &str = "one of <name>, <value>, <final>, <description>, <source>, <tag>";

/// A property being read.
#[derive(Debug, Default)]
struct Pending {
    tag_span: Range<usize>,
    name: Option<String>,
    value: Option<(String, Range<usize>)>,
    is_final: bool,
}

/// Parses a whole configuration file. Errors carry file, line and column.
pub fn parse(src: &SourceText) -> Result<Vec<XmlProperty>, InputError> {
    let text: &str = &src.text;
    let mut reader = Reader::from_str(text);
    {
        let cfg = reader.config_mut();
        cfg.check_end_names = true;
        cfg.check_comments = true;
    }
    let mut out = Vec::new();
    // Open elements: (name, start offset).
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut pending: Option<Pending> = None;
    let mut field: Option<Field> = None;
    let mut buf = String::new();
    let mut field_content_start = 0usize;
    let mut seen_root = false;

    loop {
        let before = pos(reader.buffer_position());
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                let at = pos(reader.error_position()).min(text.len());
                return Err(InputError::new(format!("malformed XML: {e}"))
                    .at(src, at..(at + 1).min(text.len()))
                    .expected("a well-formed Hadoop configuration file"));
            }
        };
        let after = pos(reader.buffer_position());
        let span = before..after;
        match event {
            Event::Start(e) if stack.is_empty() => {
                let name = check_root(src, &e, seen_root, span)?;
                seen_root = true;
                stack.push((name, before));
            }
            Event::Empty(e) if stack.is_empty() => {
                check_root(src, &e, seen_root, span)?;
                seen_root = true;
            }
            Event::Start(e) => {
                let name = e.name().as_ref().to_string();
                match stack.len() {
                    1 => {
                        if name != "property" {
                            return Err(unknown_in_configuration(src, &name, span));
                        }
                        pending = Some(start_property(src, &e, span.clone())?);
                    }
                    2 => {
                        field = Some(field_of(src, &name, span.clone())?);
                        buf.clear();
                        field_content_start = after;
                    }
                    _ => {
                        if field != Some(Field::Ignored) {
                            return Err(InputError::new(format!(
                                "element <{name}> inside <{}>",
                                stack.last().map_or("", |s| s.0.as_str())
                            ))
                            .at(src, span)
                            .expected("plain text (use &lt; to write a literal `<`)"));
                        }
                    }
                }
                stack.push((name, before));
            }
            Event::Empty(e) => {
                let name = e.name().as_ref().to_string();
                match stack.len() {
                    1 => {
                        if name != "property" {
                            return Err(unknown_in_configuration(src, &name, span));
                        }
                        let p = start_property(src, &e, span.clone())?;
                        out.push(finish_property(src, p)?);
                    }
                    2 => {
                        // `<value/>` and friends: an empty field.
                        let f = field_of(src, &name, span.clone())?;
                        if let Some(p) = pending.as_mut() {
                            apply_field(p, f, String::new(), after..after);
                        }
                    }
                    _ => {
                        if field != Some(Field::Ignored) {
                            return Err(InputError::new(format!(
                                "element <{name}/> inside a field"
                            ))
                            .at(src, span)
                            .expected("plain text"));
                        }
                    }
                }
            }
            Event::End(_) => {
                let depth = stack.len();
                stack.pop();
                match depth {
                    3 => {
                        if let (Some(f), Some(p)) = (field.take(), pending.as_mut()) {
                            let raw = text.get(field_content_start..before).unwrap_or("");
                            let lead = raw.len() - raw.trim_start().len();
                            let trail = raw.len() - raw.trim_end().len();
                            let vspan = if raw.trim().is_empty() {
                                field_content_start..field_content_start
                            } else {
                                field_content_start + lead..before - trail
                            };
                            apply_field(p, f, std::mem::take(&mut buf), vspan);
                        }
                    }
                    2 => {
                        if let Some(p) = pending.take() {
                            out.push(finish_property(src, p)?);
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) => {
                let content = t.xml10_content();
                if field.is_some() && stack.len() >= 3 {
                    buf.push_str(&content);
                } else if stack.is_empty() && !content.trim().is_empty() {
                    return Err(InputError::new("text outside the <configuration> element")
                        .at(src, span)
                        .expected("only comments and whitespace outside <configuration>"));
                }
            }
            Event::CData(c) => {
                if field.is_some() && stack.len() >= 3 {
                    buf.push_str(&c.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                let resolved = resolve_ref(src, &r, span)?;
                if field.is_some() && stack.len() >= 3 {
                    buf.push_str(&resolved);
                }
            }
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
            Event::Eof => break,
        }
    }
    if let Some((name, start)) = stack.last() {
        let end = (start + name.len() + 2).min(text.len());
        return Err(
            InputError::new(format!("<{name}> is never closed (file ends first)"))
                .at(src, *start..end)
                .expected(format!("</{name}>")),
        );
    }
    if !seen_root {
        let end = text.len();
        return Err(InputError::new("no <configuration> element")
            .at(src, end..end)
            .expected("<configuration> as the root element of a Hadoop configuration file"));
    }
    Ok(out)
}

/// Checks the root element; returns its name.
fn check_root(
    src: &SourceText,
    e: &BytesStart<'_>,
    seen_root: bool,
    span: Range<usize>,
) -> Result<String, InputError> {
    let name = e.name().as_ref().to_string();
    if seen_root {
        return Err(InputError::new(format!(
            "a second root element <{name}> after </configuration>"
        ))
        .at(src, span)
        .expected("nothing after </configuration>"));
    }
    if name != "configuration" {
        return Err(InputError::new(format!("root element is <{name}>"))
            .at(src, span)
            .expected("<configuration> as the root element of a Hadoop configuration file"));
    }
    Ok(name)
}

fn pos(p: u64) -> usize {
    usize::try_from(p).unwrap_or(usize::MAX)
}

fn unknown_in_configuration(src: &SourceText, name: &str, span: Range<usize>) -> InputError {
    let problem = if name == "include" {
        "XInclude (<include>) is not supported".to_string()
    } else {
        format!("unknown element <{name}> inside <configuration>")
    };
    InputError::new(problem)
        .at(src, span)
        .expected("<property> elements")
}

fn field_of(src: &SourceText, name: &str, span: Range<usize>) -> Result<Field, InputError> {
    Ok(match name {
        "name" => Field::Name,
        "value" => Field::Value,
        "final" => Field::Final,
        "description" | "source" | "tag" => Field::Ignored,
        other => {
            return Err(
                InputError::new(format!("unknown element <{other}> inside <property>"))
                    .at(src, span)
                    .expected(PROPERTY_CHILDREN),
            );
        }
    })
}

/// Opens a property, reading Hadoop 3's attribute form (`<property name=".." value=".."/>`).
fn start_property(
    src: &SourceText,
    e: &BytesStart<'_>,
    span: Range<usize>,
) -> Result<Pending, InputError> {
    let mut p = Pending {
        tag_span: span.clone(),
        ..Pending::default()
    };
    for attr in e.attributes() {
        let attr = attr.map_err(|err| {
            InputError::new(format!("malformed attribute: {err}"))
                .at(src, span.clone())
                .expected("attributes like name=\"...\"")
        })?;
        let value = attr
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map_err(|err| {
                InputError::new(format!("malformed attribute value: {err}"))
                    .at(src, span.clone())
                    .expected("a valid attribute value")
            })?
            .into_owned();
        match attr.key.as_ref() {
            "name" => apply_field(&mut p, Field::Name, value, span.clone()),
            "value" => apply_field(&mut p, Field::Value, value, span.clone()),
            "final" => apply_field(&mut p, Field::Final, value, span.clone()),
            // Hadoop's own attributes (e.g. hbase-default.xml's skipInDoc) carry no setting.
            _ => {}
        }
    }
    Ok(p)
}

fn apply_field(p: &mut Pending, f: Field, text: String, span: Range<usize>) {
    match f {
        Field::Name => {
            let t = text.trim();
            p.name = (!t.is_empty()).then(|| t.to_string());
        }
        Field::Value => {
            let t = text.trim();
            p.value = (!t.is_empty()).then(|| (t.to_string(), span));
        }
        // Hadoop compares with "true" exactly; we also forgive surrounding whitespace.
        Field::Final => p.is_final = text.trim() == "true",
        Field::Ignored => {}
    }
}

fn finish_property(src: &SourceText, p: Pending) -> Result<XmlProperty, InputError> {
    let Some(name) = p.name else {
        return Err(InputError::new("property without a <name>")
            .at(src, p.tag_span)
            .expected("<name>some.property</name> inside every <property>"));
    };
    let (value, value_span) = match p.value {
        Some((v, s)) => (Some(v), s),
        None => (None, p.tag_span.clone()),
    };
    Ok(XmlProperty {
        name,
        value,
        is_final: p.is_final,
        value_span,
        property_span: p.tag_span,
    })
}

fn resolve_ref(
    src: &SourceText,
    r: &BytesRef<'_>,
    span: Range<usize>,
) -> Result<String, InputError> {
    if r.is_char_ref() {
        return match r.resolve_char_ref() {
            Ok(Some(c)) => Ok(c.to_string()),
            Ok(None) | Err(_) => Err(InputError::new(format!(
                "invalid character reference `&{};`",
                r.as_ref()
            ))
            .at(src, span)
            .expected("a reference to a valid character, such as &#65; or &#x41;")),
        };
    }
    match resolve_predefined_entity(r.as_ref()) {
        Some(s) => Ok(s.to_string()),
        None => Err(
            InputError::new(format!("unknown entity `&{};`", r.as_ref()))
                .at(src, span)
                .expected("one of &amp; &lt; &gt; &quot; &apos; or a character reference"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> SourceText {
        SourceText::from_string("site.xml", text.to_string())
    }

    fn one(text: &str) -> XmlProperty {
        let props = parse(&src(text)).expect("parses");
        assert_eq!(props.len(), 1, "{props:?}");
        props.into_iter().next().expect("one property")
    }

    #[test]
    fn reads_name_value_final_and_value_line() {
        let text = "<?xml version=\"1.0\"?>\n<configuration>\n  <property>\n    <name>a.b</name>\n    <value>42</value>\n    <final>true</final>\n    <description>x</description>\n    <source>code</source>\n  </property>\n</configuration>\n";
        let s = src(text);
        let p = parse(&s).expect("parses").remove(0);
        assert_eq!(p.name, "a.b");
        assert_eq!(p.value.as_deref(), Some("42"));
        assert!(p.is_final);
        assert_eq!(&text[p.value_span.clone()], "42");
        assert_eq!(s.line_col(p.value_span.start), (5, 12));
    }

    #[test]
    fn trims_name_and_value_and_resolves_references() {
        let p = one(
            "<configuration><property><name>\n  k\n  </name><value>  a&amp;b&#x41;&#66;&lt;c<![CDATA[<raw>&amp;]]>  </value></property></configuration>",
        );
        assert_eq!(p.name, "k");
        assert_eq!(p.value.as_deref(), Some("a&bAB<c<raw>&amp;"));
    }

    #[test]
    fn empty_value_is_unset_and_comments_are_ignored() {
        let p = one(
            "<!-- c --><configuration><!-- c --><property skipInDoc=\"true\"><name>k</name><value></value><!-- c --></property></configuration>",
        );
        assert_eq!(p.value, None);
        let p = one("<configuration><property><name>k</name><value/></property></configuration>");
        assert_eq!(p.value, None);
        let p = one("<configuration><property><name>k</name></property></configuration>");
        assert_eq!(p.value, None);
    }

    #[test]
    fn attribute_form_is_accepted() {
        let p = one(
            "<configuration><property name=\"k\" value=\"v&amp;w\" final=\"true\"/></configuration>",
        );
        assert_eq!(
            (p.name.as_str(), p.value.as_deref(), p.is_final),
            ("k", Some("v&w"), true)
        );
    }

    #[test]
    fn final_must_say_true() {
        let p = one(
            "<configuration><property><name>k</name><value>1</value><final>yes</final></property></configuration>",
        );
        assert!(!p.is_final);
    }

    #[test]
    fn malformed_xml_reports_line_and_column() {
        let e = parse(&src(
            "<configuration>\n  <property>\n    <name>k</value>\n  </property>\n</configuration>\n",
        ))
        .expect_err("mismatched tags");
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().starts_with("site.xml:3:"), "{e}");
        assert!(e.problem.contains("malformed XML"), "{e}");
        assert!(e.expected.is_some());
    }

    #[test]
    fn unclosed_root_is_an_error() {
        let e = parse(&src(
            "<configuration>\n<property><name>k</name></property>\n",
        ))
        .expect_err("unclosed");
        assert!(e.to_string().contains("site.xml:1:1"), "{e}");
        assert!(e.problem.contains("never closed"), "{e}");
    }

    #[test]
    fn wrong_root_is_an_error() {
        let e =
            parse(&src("<?xml version=\"1.0\"?>\n<config>\n</config>\n")).expect_err("wrong root");
        assert_eq!(
            e.to_string(),
            "site.xml:2:1: root element is <config>; expected <configuration> as the root element of a Hadoop configuration file"
        );
    }

    #[test]
    fn property_without_name_is_an_error() {
        let e = parse(&src(
            "<configuration>\n  <property><value>1</value></property>\n</configuration>",
        ))
        .expect_err("no name");
        assert!(
            e.to_string()
                .starts_with("site.xml:2:3: property without a <name>"),
            "{e}"
        );
    }

    #[test]
    fn unknown_element_in_property_is_an_error() {
        let e = parse(&src("<configuration>\n<property>\n<name>k</name>\n<vaule>1</vaule>\n</property>\n</configuration>"))
            .expect_err("typo");
        assert!(
            e.to_string()
                .starts_with("site.xml:4:1: unknown element <vaule>"),
            "{e}"
        );
        assert!(e.expected.as_deref().is_some_and(|x| x.contains("<value>")));
    }

    #[test]
    fn unknown_entity_is_an_error() {
        let e = parse(&src("<configuration><property><name>k</name><value>&nbsp;</value></property></configuration>"))
            .expect_err("entity");
        assert!(e.problem.contains("&nbsp;"), "{e}");
    }

    #[test]
    fn missing_file_content_is_an_error() {
        assert!(parse(&src("")).is_err());
        assert!(parse(&src("<!-- only a comment -->")).is_err());
        assert!(
            parse(&src("<configuration/>"))
                .expect("empty config")
                .is_empty()
        );
    }
}
