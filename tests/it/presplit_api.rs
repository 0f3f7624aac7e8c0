//! The presplit module through its public API.

use std::time::Instant;

use hbase_emu::keygen::RowKeyGenerator;
use hbase_emu::presplit::{
    Algorithm, create_table_split_keys, read_splits_file, regions_from_split_keys,
    render_splits_file, sampled, shell_create_command, split_keys, split_keys_in,
};

/// Keys like an MD5-prefixed design: 4 hash-ish hex chars, `-`, the id (a cheap mixer stands in
/// for MD5 here).
struct Salted;

impl RowKeyGenerator for Salted {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        let mut x = id.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 29;
        out.extend_from_slice(format!("{:04x}-{id}", x >> 48).as_bytes());
    }
    fn describe(&self) -> String {
        "salted".into()
    }
}

#[test]
fn a_million_samples() {
    let t = Instant::now();
    let keys = sampled(&Salted, (0, 50_000_000), 1_000_000, 64, Some(7)).unwrap();
    eprintln!("1e6 samples, 64 regions: {:?}", t.elapsed());
    assert_eq!(keys.len(), 63);
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    // Hash-prefixed keys: quantiles close to the even hex split of the prefix.
    let even = split_keys_in(Algorithm::Hex, 64, None, Some("ffff")).unwrap();
    for (k, e) in keys.iter().zip(&even) {
        let got = u32::from_str_radix(std::str::from_utf8(&k[..4]).unwrap(), 16).unwrap();
        let want = u32::from_str_radix(std::str::from_utf8(e).unwrap(), 16).unwrap();
        assert!(got.abs_diff(want) < 200, "{got:x} vs {want:x}");
    }
}

#[test]
fn keys_round_trip_through_a_splits_file() {
    let keys = split_keys(Algorithm::Uniform, 16).unwrap();
    // 0x20 is a space: printable, so toStringBinary leaves it as is.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("splits.txt");
    std::fs::write(&path, render_splits_file(&keys)).unwrap();
    assert_eq!(read_splits_file(&path).unwrap(), keys);
    let cmd = shell_create_command("t", "f", &keys[..2]);
    assert_eq!(
        cmd,
        "create 't', 'f', SPLITS => ['\\x10\\x00\\x00\\x00\\x00\\x00\\x00\\x00', \
         ' \\x00\\x00\\x00\\x00\\x00\\x00\\x00']"
    );
    let regions = regions_from_split_keys(&keys);
    assert_eq!(regions.len(), 16);
}

#[test]
fn bad_splits_file_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("splits.txt");
    std::fs::write(&path, "row-1\nrow-2\n\nrow-3\n").unwrap();
    let e = read_splits_file(&path).unwrap_err();
    assert_eq!(e.location().unwrap(), format!("{}:3:1", path.display()));
    assert!(e.render().contains("empty line"));
}

#[test]
fn create_table_with_range() {
    let keys = create_table_split_keys(b"row-000", b"row-999", 10).unwrap();
    assert_eq!(keys.len(), 9);
    assert_eq!(keys[0], b"row-000");
    assert_eq!(keys[8], b"row-999");
}
