//! `sequential`: the monotonically increasing key (every write lands in the last region).

use super::batch::per_key;
use super::spec::KindEntry;
use toml::Spanned;

use super::enc::push_decimal;
use super::spec::{self, GeneratorSpec, opt_err};
use super::{RowKeyGenerator, check_fixed_len};
use crate::diag::InputError;

/// The `sequential` kind.
pub(crate) static KIND: KindEntry = KindEntry::new(
    "sequential",
    &["format", "width", "prefix"],
    |spec, _, _| Ok(per_key(Sequential::from_spec(spec)?)),
);

/// `prefix ‖ id`, the id as 8 big-endian bytes (`Bytes.toBytes(long)`) or as a zero-padded decimal.
#[derive(Debug, Clone)]
pub struct Sequential {
    prefix: Vec<u8>,
    decimal: bool,
    width: usize,
}

impl Sequential {
    /// From a spec: `format` = `binary` (default) | `decimal`, `width` (decimal only, default
    /// 10, ≤ 20), `prefix` (default "").
    pub fn from_spec(spec: &GeneratorSpec) -> Result<Sequential, InputError> {
        let decimal = spec::choice(&spec.format, "format", &["binary", "decimal"])? == "decimal";
        if let (false, Some(w)) = (decimal, &spec.width) {
            return Err(opt_err(
                "width",
                w.span(),
                "`width` applies only to `format = \"decimal\"`",
                "`format = \"decimal\"` with `width`, or no `width`",
            ));
        }
        let width = spec::int(&spec.width, "width", 10, 1..=20)? as usize;
        let prefix = spec::text(&spec.prefix, "").as_bytes().to_vec();
        let len = prefix.len() + if decimal { width } else { 8 };
        check_fixed_len(
            len,
            "prefix",
            spec.prefix.as_ref().map_or(0..0, Spanned::span),
        )?;
        Ok(Sequential {
            prefix,
            decimal,
            width,
        })
    }
}

impl RowKeyGenerator for Sequential {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.prefix);
        if self.decimal {
            push_decimal(out, id, self.width, b'0');
        } else {
            out.extend_from_slice(&id.to_be_bytes());
        }
    }
    fn describe(&self) -> String {
        let id = if self.decimal {
            format!("id zero-padded to {} digits", self.width)
        } else {
            "[id:8 BE]".to_string()
        };
        format!(
            "sequential: {:?} + {id}",
            String::from_utf8_lossy(&self.prefix)
        )
    }
    fn scan_locality(&self) -> super::ScanLocality {
        super::ScanLocality::Ordered
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use crate::keynotation::to_string_binary;

    #[test]
    fn binary_is_bytes_to_bytes_long() {
        // Mirrors Bytes.toBytes(long): big-endian.
        let g = build_toml("[[generator]]\nname='s'\nkind='sequential'\n").unwrap();
        assert_eq!(
            to_string_binary(&key(&g, 258)),
            "\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x02"
        );
    }

    #[test]
    fn decimal_with_prefix_and_width() {
        let g = build_toml(
            "[[generator]]\nname='s'\nkind='sequential'\nformat='decimal'\nprefix='row'\n",
        )
        .unwrap();
        assert_eq!(key(&g, 42), b"row0000000042");
        let g =
            build_toml("[[generator]]\nname='s'\nkind='sequential'\nformat='decimal'\nwidth=3\n")
                .unwrap();
        assert_eq!(key(&g, 12345), b"12345");
    }

    #[test]
    fn bad_format_and_width_point_at_value() {
        let text = "[[generator]]\nname='s'\nkind='sequential'\nformat='hex'\n";
        let e = build_toml(text).err().unwrap();
        assert_eq!(&text[e.span.clone().unwrap()], "'hex'");
        let e = build_toml("[[generator]]\nname='s'\nkind='sequential'\nwidth=4\n")
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.width"));
    }

    #[test]
    fn over_long_prefix_is_rejected_at_build() {
        let text = format!(
            "[[generator]]\nname='s'\nkind='sequential'\nprefix='{}'\n",
            "p".repeat(32760)
        );
        let e = build_toml(&text).err().unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.prefix"));
    }
}
