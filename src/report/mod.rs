//! Reports for people and programs. For now: the plan `hbase-emu check` prints (text and JSON).
//! The engine's run report lands here too.

pub mod explain;
pub mod plan;
pub mod run;

use comfy_table::{CellAlignment, Table, presets};

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

/// `1234567` → `1,234,567`.
pub fn thousands(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 row`, `2 rows`, `1,000 rows`: a count with its noun, singular for exactly one.
pub fn count_of(n: u128, singular: &str, plural: &str) -> String {
    if n == 1 {
        format!("1 {singular}")
    } else {
        format!("{} {plural}", thousands(n))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn count_of_uses_the_singular_for_one() {
        assert_eq!(super::count_of(1, "row", "rows"), "1 row");
        assert_eq!(super::count_of(0, "row", "rows"), "0 rows");
        assert_eq!(super::count_of(1000, "region", "regions"), "1,000 regions");
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(4_294_967_296), "4,294,967,296");
    }
}
