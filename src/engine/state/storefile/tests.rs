//! Tests of the store-file model. Each names the HBase class whose behaviour it mirrors.

use super::fake_key::index_row;
use super::hfile::*;
use super::*;
use proptest::prelude::*;

const SHAPE_1K: CellShape = CellShape {
    family_len: 1,
    qualifier_len: 1,
    value_len: 995, // L = 7 + 1 + 1 + 995 + 20 = 1024 for 7-byte rows
    columns: 1,
};

fn fmt() -> FileFormat {
    test_format()
}

fn build(rows: &[Vec<u8>], shape: CellShape, format: FileFormat, scale: u64, seq: u64) -> HFile {
    let mut b = HFileBuilder::new(shape, format, scale).with_max_sequence_id(seq);
    for r in rows {
        b.append(r);
    }
    b.finish().expect("non-empty")
}

fn numbered(n: usize, width: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| format!("row{i:0width$}").into_bytes())
        .collect()
}

/// A literal per-cell replay of `HFileWriterImpl.append/checkBlockBoundary/finishBlock` and
/// `BlockIndexWriter` (no arithmetic shortcuts), used to check the O(1)-per-row model at scale 1.
struct Reference {
    keys: Vec<(Vec<u8>, u64)>,
    data_disk: u64,
    levels: u32,
    index_disk: u64,
}

fn reference(rows: &[Vec<u8>], shape: CellShape, format: FileFormat, mvcc: u64) -> Reference {
    let (f, q) = (shape.family_len as u64, shape.qualifier_len as u64);
    let mut keys: Vec<(Vec<u8>, u64)> = Vec::new();
    let mut payloads = Vec::new();
    let mut cur = 0u64;
    let mut open = false;
    let mut last: Option<&[u8]> = None;
    for row in rows {
        for col in 0..shape.columns.max(1) {
            let r = row.len() as u64;
            let s = r + f + q + shape.value_len as u64 + 20 + mvcc;
            if open && cur >= format.block_size && cur > 0 {
                payloads.push(cur);
                open = false;
            }
            if !open {
                open = true;
                cur = 0;
                let key = match last {
                    None => (row.clone(), r + f + q + 12),
                    Some(l) if l != row.as_slice() => {
                        let m = index_row(Some(l), row);
                        let len = m.len() as u64 + 12;
                        (m, len)
                    }
                    // same row: family equal, qualifier shortened (assumed full length)
                    Some(_) => (row.clone(), r + f + q + 12),
                };
                keys.push(key);
            }
            let _ = col;
            cur += s;
            last = Some(row);
        }
    }
    payloads.push(cur);
    let data_disk = payloads.iter().map(|&p| block_on_disk(p)).sum();
    // BlockIndexWriter: entry per block, inline check after each but the last.
    let max = format.index_block_max_size;
    let mut leaves: Vec<(u64, u64)> = Vec::new();
    let (mut n, mut bytes, mut first) = (0u64, 0u64, 0u64);
    for (i, (_, k)) in keys.iter().enumerate() {
        if n == 0 {
            first = *k;
        }
        n += 1;
        bytes += 12 + k;
        if i + 1 < keys.len() && 8 + 4 * n + bytes >= max {
            leaves.push((first, 8 + 4 * n + bytes));
            n = 0;
            bytes = 0;
        }
    }
    let root_entry = |k: u64| 12 + vint_size(k as i64) + k;
    if leaves.is_empty() {
        let root: u64 = keys.iter().map(|(_, k)| root_entry(*k)).sum();
        return Reference {
            keys,
            data_disk,
            levels: 1,
            index_disk: block_on_disk(root),
        };
    }
    leaves.push((first, 8 + 4 * n + bytes));
    let leaf_disk: u64 = leaves.iter().map(|&(_, s)| block_on_disk(s)).sum();
    let root: u64 = leaves.iter().map(|&(k, _)| root_entry(k)).sum::<u64>() + 16;
    Reference {
        keys,
        data_disk,
        levels: 2,
        index_disk: leaf_disk + block_on_disk(root),
    }
}

fn reference_midkey(r: &Reference) -> Vec<u8> {
    let n = r.keys.len();
    let b = if r.levels == 1 { n / 2 } else { (n - 1) / 2 };
    r.keys[b].0.clone()
}

#[test]
fn bloom_params_match_bloom_filter_util() {
    // BloomFilterUtil.createBySize(131072, 0.01f, ..., 7): 109306 keys, 7 hashes.
    let p = bloom_chunk_params();
    assert_eq!(p.byte_size, 131072);
    assert_eq!(p.hash_count, 7);
    assert_eq!(p.max_keys, 109_306);
}

#[test]
fn vint_sizes_match_writable_utils() {
    assert_eq!(vint_size(0), 1);
    assert_eq!(vint_size(127), 1);
    assert_eq!(vint_size(128), 2);
    assert_eq!(vint_size(255), 2);
    assert_eq!(vint_size(256), 3);
    assert_eq!(vint_size(-112), 1);
    assert_eq!(vint_size(-113), 2);
    assert_eq!(vint_size(1 << 20), 4);
}

#[test]
fn thousand_1k_rows_hand_computed() {
    // HFileWriterImpl.checkBlockBoundary: 1025-byte cells (L 1024 + 1-byte mvcc vlong) in 64 KiB
    // blocks: a block closes after ceil(65536 / 1025) = 64 cells ⇒ 15 full blocks + 40 rows.
    let rows = numbered(1000, 4);
    let f = build(&rows, SHAPE_1K, fmt(), 1, 0);
    assert_eq!(f.data_blocks(), 16);
    assert_eq!(f.data_bytes(), 1000 * 1024);
    assert_eq!(f.rows(), 1000);
    // Index keys: block 0 = its first cell; block j = getMidpoint(row 64j−1, row 64j).
    assert_eq!(f.block_key_row(0).unwrap().as_ref(), b"row0000");
    assert_eq!(f.block_key_row(1).unwrap().as_ref(), b"row0064");
    assert_eq!(f.block_key_row(5).unwrap().as_ref(), b"row032"); // row0319 | row0320
    assert_eq!(f.block_key_row(10).unwrap().as_ref(), b"row064"); // row0639 | row0640
    assert_eq!(f.block_key_row(15).unwrap().as_ref(), b"row096");
    assert_eq!(f.block_key_row(16), None);
    // Single level: blockKeys[16 / 2].
    assert_eq!(f.index_levels(), 1);
    assert_eq!(f.midkey_row().unwrap(), b"row0512");
    assert_eq!(f.split_point().unwrap(), b"row0512");

    let s = f.size_breakdown();
    // Full block: 33 + 65600 = 65633 ⇒ 5 CRCs ⇒ 65653; last: 33 + 41000 ⇒ 3 CRCs ⇒ 41045.
    assert_eq!(s.data, 15 * 65653 + 41045);
    // Root: Σ(8 + 4 + vint + key): first key 7+1+1+12 = 21 → 34; 12 fake keys of 7+12 → 32;
    // 3 fake keys of 6+12 → 31 ⇒ 511 ⇒ 33 + 511 + 4.
    assert_eq!(s.root_index, 548);
    assert_eq!(s.leaf_index + s.intermediate_index, 0);
    assert_eq!(s.meta_index, 37);
    // Bloom: 1000 keys fold 131072 → 2048 bytes (109306 / 64 ≤ 2000 < 109306 / 32).
    assert_eq!(s.bloom_chunks, 33 + 2048 + 4);
    // Meta: 41 fixed + one index entry (12 + 1 + 7) = 61 ⇒ 98.
    assert_eq!(s.bloom_meta, 98);
    assert_eq!(s.trailer, 4096);
    assert_eq!(f.length(), s.total());
    assert!(s.file_info > 300 && s.file_info < 700, "{}", s.file_info);
}

#[test]
fn mvcc_vlong_is_the_only_v3_per_cell_overhead() {
    // NoneEncoder: tags length only if the context includes tags (a flush of tagless puts does
    // not); the mvcc vlong always (includeMVCCReadpoint). seq 2^20 ⇒ 4-byte vlong ⇒ 1028 B/cell.
    let rows = numbered(64, 4);
    let f = build(&rows, SHAPE_1K, fmt(), 1, 1 << 20);
    // ceil(65536 / 1028) = 64 ⇒ exactly one block with 64 rows.
    assert_eq!(f.data_blocks(), 1);
    assert_eq!(f.size_breakdown().data, block_on_disk(64 * 1028));
}

#[test]
fn one_block_file_is_unsplittable() {
    // StoreUtils.getFileSplitPoint: a 1-block file's midkey is its first key.
    let f = build(&numbered(10, 4), SHAPE_1K, fmt(), 1, 0);
    assert_eq!(f.data_blocks(), 1);
    assert_eq!(f.midkey_row().unwrap(), b"row0000");
    assert_eq!(f.split_point(), None);
}

#[test]
fn midkey_equal_to_last_row_is_rejected() {
    // Two rows of 100 cells: 200 cells ⇒ blocks of 64, 64, 64, 8; midkey = block 4/2, which
    // starts at cell 128, inside the last row (same-row key) ⇒ equals the last row ⇒ rejected.
    let shape = CellShape {
        columns: 100,
        ..SHAPE_1K
    };
    let rows = vec![b"a".to_vec(), b"b".to_vec()];
    let mut b = HFileBuilder::new(SHAPE_1K, fmt(), 1);
    b.append(&rows[0]);
    let small = b.finish().unwrap();
    assert_eq!(small.split_point(), None);
    let f = build(&rows, shape, fmt(), 1, 0);
    assert_eq!(f.data_blocks(), 4);
    assert_eq!(f.midkey_row().unwrap(), b"b");
    assert_eq!(f.split_point(), None);
}

#[test]
fn single_vs_multi_level_at_the_leaf_chunk_threshold() {
    // HFileBlockIndex.BlockIndexWriter.shouldWriteBlock: one row per block (cell > BLOCKSIZE);
    // find the first row count whose index gets a leaf chunk before close.
    let shape = CellShape {
        family_len: 1,
        qualifier_len: 1,
        value_len: 70_000,
        columns: 1,
    };
    let rows = numbered(7000, 6);
    let mut threshold = None;
    for n in 3000..7000 {
        let r = reference(&rows[..n], shape, fmt(), 1);
        if r.levels == 2 {
            threshold = Some(n);
            break;
        }
    }
    let n = threshold.expect("threshold in range");
    let below = build(&rows[..n - 1], shape, fmt(), 1, 0);
    let above = build(&rows[..n], shape, fmt(), 1, 0);
    assert_eq!(below.data_blocks(), n as u64 - 1);
    assert_eq!(below.index_levels(), 1);
    assert_eq!(above.index_levels(), 2);
    // N/2 (single level) vs (N − 1)/2 (multi-level).
    let b = below.data_blocks();
    assert_eq!(
        below.midkey_row(),
        below.block_key_row(b / 2).map(|c| c.into_owned())
    );
    let a = above.data_blocks();
    assert_eq!(
        above.midkey_row(),
        above.block_key_row((a - 1) / 2).map(|c| c.into_owned())
    );
    assert_eq!(
        above.index_bytes(),
        reference(&rows[..n], shape, fmt(), 1).index_disk
    );
}

#[test]
fn model_matches_per_cell_reference_at_scale_one() {
    let shapes = [
        SHAPE_1K,
        CellShape {
            family_len: 2,
            qualifier_len: 6,
            value_len: 100,
            columns: 7,
        },
        CellShape {
            family_len: 1,
            qualifier_len: 3,
            value_len: 20_000,
            columns: 5,
        },
        CellShape {
            family_len: 1,
            qualifier_len: 1,
            value_len: 10,
            columns: 1,
        },
    ];
    let mut small_index = fmt();
    small_index.index_block_max_size = 600;
    for shape in shapes {
        for format in [fmt(), small_index] {
            for n in [1, 2, 63, 64, 65, 500, 3000] {
                let rows: Vec<Vec<u8>> = (0..n)
                    .map(|i: u64| format!("{:x}", i * 7919 + 100).into_bytes())
                    .collect();
                let mut rows = rows;
                rows.sort();
                let f = build(&rows, shape, format, 1, 300);
                let r = reference(&rows, shape, format, vint_size(300));
                assert_eq!(f.data_blocks(), r.keys.len() as u64, "{shape:?} {n}");
                for (b, (k, _)) in r.keys.iter().enumerate() {
                    assert_eq!(f.block_key_row(b as u64).unwrap().as_ref(), k.as_slice());
                }
                // the reference stops at two levels
                assert_eq!(f.index_levels().min(2), r.levels, "{shape:?} {n}");
                assert_eq!(f.size_breakdown().data, r.data_disk, "{shape:?} {n}");
                if f.size_breakdown().intermediate_index == 0 {
                    assert_eq!(f.index_bytes(), r.index_disk, "{shape:?} {n} {format:?}");
                }
                assert_eq!(f.midkey_row().unwrap(), reference_midkey(&r));
            }
        }
    }
}

#[test]
fn intermediate_levels_appear_for_a_tiny_max_chunk() {
    let mut format = fmt();
    format.index_block_max_size = 200;
    let shape = CellShape {
        value_len: 70_000,
        ..SHAPE_1K
    };
    let f = build(&numbered(5000, 5), shape, format, 1, 0);
    assert!(f.index_levels() >= 3, "{}", f.index_levels());
    assert!(f.size_breakdown().intermediate_index > 0);
    let m = f.midkey_row().unwrap();
    assert!(m.as_slice() > f.first_row() && m.as_slice() < f.last_row());
}

#[test]
fn compression_ratio_shrinks_data_blocks() {
    let rows = numbered(1000, 4);
    let mut c = fmt();
    c.compression_ratio = 0.25;
    let f = build(&rows, SHAPE_1K, c, 1, 0);
    // 65600 × 0.25 = 16400 ⇒ 33 + 16400 = 16433 ⇒ 2 CRCs.
    assert_eq!(f.data_blocks(), 16);
    assert_eq!(f.size_breakdown().data, 15 * (16433 + 8) + (33 + 10250 + 4));
}

#[test]
fn scale_k_matches_scale_one_of_the_same_real_rows() {
    // Emulated ids are multiples of K; the real rows are id .. id + K − 1 (same key length).
    let k = 10u64;
    let shape = CellShape {
        family_len: 1,
        qualifier_len: 2,
        value_len: 300,
        columns: 3,
    };
    let emulated: Vec<Vec<u8>> = (0..2000u64)
        .map(|i| format!("user{:08}", i * k).into_bytes())
        .collect();
    let real: Vec<Vec<u8>> = (0..2000 * k)
        .map(|i| format!("user{i:08}").into_bytes())
        .collect();
    let fk = build(&emulated, shape, fmt(), k, 5000);
    let f1 = build(&real, shape, fmt(), 1, 5000);
    assert_eq!(fk.rows(), f1.rows());
    assert_eq!(fk.data_bytes(), f1.data_bytes());
    assert_eq!(fk.data_blocks(), f1.data_blocks());
    assert_eq!(fk.size_breakdown().data, f1.size_breakdown().data);
    assert_eq!(
        fk.size_breakdown().bloom_chunks,
        f1.size_breakdown().bloom_chunks
    );
    let (a, b) = (fk.length() as f64, f1.length() as f64);
    assert!((a - b).abs() / b < 0.001, "{a} vs {b}");
    // Midkey: within one emulated row's span of the real one.
    let mk = fk.midkey_row().unwrap();
    let m1 = f1.midkey_row().unwrap();
    let next = emulated[emulated.partition_point(|r| r.as_slice() <= mk.as_slice())].clone();
    assert!(mk <= m1 && m1 < next, "{mk:?} {m1:?} {next:?}");
}

#[test]
fn memory_per_emulated_row_is_flat() {
    // LIMITS.md: flat arenas; a 16-byte key with 1 KB rows should cost ≤ ~40 B.
    let shape = CellShape {
        value_len: 1024 - 16 - 2 - 20,
        ..SHAPE_1K
    };
    let mut b = HFileBuilder::new(shape, fmt(), 1);
    let n = 200_000u64;
    for i in 0..n {
        let mut key = [0u8; 16];
        key[..8].copy_from_slice(&i.to_be_bytes());
        key[8..].copy_from_slice(&(i * 31).to_be_bytes());
        b.append(&key);
    }
    let f = b.finish().unwrap();
    let per_row = f.heap_bytes() as f64 / n as f64;
    assert!(per_row <= 40.0, "{per_row}");
}

#[test]
fn odd_inputs_do_not_panic() {
    let huge = vec![0x7fu8; 32767];
    let shapes = [
        CellShape {
            family_len: 0,
            qualifier_len: 0,
            value_len: 0,
            columns: 0,
        },
        CellShape {
            family_len: 127,
            qualifier_len: 1000,
            value_len: 10 << 20,
            columns: 10_000,
        },
    ];
    let mut zero = fmt();
    zero.block_size = 0;
    zero.index_block_max_size = 0;
    zero.compression_ratio = f64::NAN;
    // Realistic extremes: a huge scale with small cells, huge cells with a moderate scale.
    for (shape, scales) in [(shapes[0], [0u64, 1, 1 << 16]), (shapes[1], [0, 1, 1000])] {
        for format in [fmt(), zero] {
            for scale in scales {
                let mut b = HFileBuilder::new(shape, format, scale);
                assert!(b.is_empty());
                b.append(b"");
                b.append(&huge);
                b.append(b"\x01"); // out of order: ignored
                b.append(&huge); // duplicate: ignored
                let mut big = huge.clone();
                big.push(0);
                b.append(&big);
                assert_eq!(b.len(), 3);
                let f = b.finish().unwrap();
                assert!(f.length() > 0);
                let _ = (f.midkey_row(), f.split_point(), f.rows_in(b"", b"").count());
            }
        }
    }
    assert!(
        HFileBuilder::new(SHAPE_1K, fmt(), 1).finish().is_none(),
        "empty file"
    );
}

fn store(file: HFile) -> StoreFile {
    StoreFile::new(Arc::new(file), 7, 0)
}

#[test]
fn split_gives_none_link_or_reference() {
    // HRegionFileSystem.splitStoreFile (HBASE-26421): links for files wholly on one side.
    let sf = store(build(&numbered(100, 4), SHAPE_1K, fmt(), 3, 0));
    assert_eq!(sf.rows(), 300);
    // Split below the first row: bottom misses, top links.
    let (a, b) = sf.split(b"row");
    assert!(a.is_none());
    assert_eq!(b.unwrap().kind, FileKind::Link);
    // Split exactly at the first row: same.
    let (a, b) = sf.split(b"row0000");
    assert!(a.is_none());
    assert_eq!(b.as_ref().unwrap().kind, FileKind::Link);
    assert_eq!(b.unwrap().rows(), 300);
    // Split after the last row: bottom links, top misses.
    let (a, b) = sf.split(b"row0099\x00");
    assert_eq!(a.unwrap().kind, FileKind::Link);
    assert!(b.is_none());
    // Split at the last row: both halves are references.
    let (a, b) = sf.split(b"row0099");
    assert_eq!(a.unwrap().rows(), 99 * 3);
    assert_eq!(b.unwrap().rows(), 3);
    // In the middle: references restricting the range, full parent length.
    let (a, b) = sf.split(b"row0040");
    let (a, b) = (a.unwrap(), b.unwrap());
    assert!(a.is_reference() && b.is_reference());
    assert_eq!(
        a.kind,
        FileKind::Reference {
            start: vec![],
            end: b"row0040".to_vec()
        }
    );
    assert_eq!(a.rows() + b.rows(), sf.rows());
    assert_eq!(a.length(), sf.length());
    assert_eq!(b.length(), sf.length());
    assert_eq!(b.visible_emulated_rows().next().unwrap(), b"row0040");
}

#[test]
fn references_of_references_and_links_compose() {
    let sf = store(build(&numbered(100, 4), SHAPE_1K, fmt(), 1, 0));
    let (_, top) = sf.split(b"row0040");
    let top = top.unwrap();
    // Split the reference again (what a Reference-of-Link looks like after a second split).
    let (a, b) = top.split(b"row0070");
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(
        a.kind,
        FileKind::Reference {
            start: b"row0040".to_vec(),
            end: b"row0070".to_vec()
        }
    );
    assert_eq!(a.rows(), 30);
    assert_eq!(b.rows(), 30);
    // A reference wholly on one side stays that reference.
    let (x, y) = a.split(b"row0090");
    assert_eq!(x.unwrap().kind, a.kind);
    assert!(y.is_none());
    let (x, y) = a.split(b"row0010");
    assert!(x.is_none());
    assert_eq!(y.unwrap().kind, a.kind);
    // A link splits like the file it links to.
    let (_, link) = sf.split(b"a");
    let link = link.unwrap();
    let (l1, l2) = link.split(b"row0050");
    assert_eq!(l1.unwrap().rows() + l2.unwrap().rows(), 100);
}

#[test]
fn compaction_merges_visible_rows_and_drops_extra_versions() {
    // StoreScanner + MinorCompactionScanQueryMatcher with VERSIONS=1: one version per row.
    // 1 KB blocks hold one 1 KB row each, so nothing is thinned here.
    let small = FileFormat {
        block_size: 1024,
        ..fmt()
    };
    let even: Vec<Vec<u8>> = (0..500)
        .map(|i| format!("k{:05}", 2 * i).into_bytes())
        .collect();
    let odd: Vec<Vec<u8>> = (0..500)
        .map(|i| format!("k{:05}", 2 * i + 1).into_bytes())
        .collect();
    let a = store(build(&even, SHAPE_1K, small, 2, 0));
    let b = store(build(&odd, SHAPE_1K, small, 2, 0));
    let c = compact(
        &[&a, &b],
        None,
        VersionRules::keep_deletes(0),
        SHAPE_1K,
        small,
    )
    .unwrap();
    assert_eq!(c.rows(), a.rows() + b.rows());
    assert_eq!(c.emulated_rows(), 1000);
    let sorted: Vec<&[u8]> = c.rows_in(b"", b"").collect();
    assert!(sorted.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(sorted[0], b"k00000");
    // References: only the visible halves are rewritten.
    let (ra, _) = a.split(b"k00500");
    let (_, rb) = b.split(b"k00500");
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    let c2 = compact(
        &[&ra, &rb],
        None,
        VersionRules::keep_deletes(0),
        SHAPE_1K,
        small,
    )
    .unwrap();
    assert_eq!(c2.emulated_rows(), ra.emulated_rows() + rb.emulated_rows());
    assert_eq!(c2.rows(), ra.rows() + rb.rows());
    // Same emulated rows in two files: each key written once, standing for the inputs' real
    // rows (at scale > 1 an emulated key stands for different real rows in each input).
    let dup = compact(
        &[&a, &a],
        None,
        VersionRules::keep_deletes(0),
        SHAPE_1K,
        small,
    )
    .unwrap();
    assert_eq!(dup.emulated_rows(), a.emulated_rows());
    assert_eq!(dup.rows(), 2 * a.rows());
    assert!(compact(&[], None, VersionRules::keep_deletes(0), SHAPE_1K, small).is_none());
}

#[test]
fn compaction_thins_to_about_one_row_per_block() {
    // 2,000 real 1 KB rows in 64 KB blocks: ~31 blocks, so ~31 emulated rows of ~64 real rows.
    let rows = numbered(1000, 4);
    let (even, odd): (Vec<_>, Vec<_>) = rows
        .iter()
        .cloned()
        .enumerate()
        .partition(|(i, _)| i % 2 == 0);
    let strip = |v: Vec<(usize, Vec<u8>)>| v.into_iter().map(|(_, r)| r).collect::<Vec<_>>();
    let a = store(build(&strip(even), SHAPE_1K, fmt(), 2, 0));
    let b = store(build(&strip(odd), SHAPE_1K, fmt(), 2, 0));
    let real = a.rows() + b.rows();
    let c = compact(
        &[&a, &b],
        None,
        VersionRules::keep_deletes(0),
        SHAPE_1K,
        fmt(),
    )
    .unwrap();
    let kept = c.emulated_rows() as u64;
    assert!((25..=40).contains(&kept), "kept {kept}");
    // The kept rows stand for the inputs' real rows, the equal share rounded to the nearest
    // row: off by at most half a row per kept key, either way.
    assert!(
        c.rows().abs_diff(real) <= kept / 2,
        "{} of {real}",
        c.rows()
    );
    // Every kept row is an input row, in order, starting with the first.
    let out: Vec<&[u8]> = c.rows_in(b"", b"").collect();
    assert_eq!(out[0], rows[0].as_slice());
    assert!(out.windows(2).all(|w| w[0] < w[1]));
    assert!(out.iter().all(|r| rows.iter().any(|x| x.as_slice() == *r)));
    // Its size is that of the unthinned merge, up to the rows lost to rounding.
    let full = build(&rows, SHAPE_1K, fmt(), 2, 0);
    let err = (c.length() as f64 / full.length() as f64 - 1.0).abs();
    assert!(err < 0.03, "size off by {err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The builder's one-scan order check and fake-row length agree with a plain comparison
    /// and `fake_row_len` (`HFileWriterImpl.getMinimumMidpointArray`), across the 8-byte
    /// chunks the scan compares at once.
    #[test]
    fn append_order_and_fake_row_length_match_the_plain_ones(
        common in proptest::collection::vec(any::<u8>(), 0..20),
        a in proptest::collection::vec(0u8..3, 0..6),
        b in proptest::collection::vec(0u8..3, 0..6),
    ) {
        let (prev, row) = ([&common[..], &a].concat(), [&common[..], &b].concat());
        let want = (row > prev).then(|| super::fake_key::fake_row_len(&prev, &row));
        prop_assert_eq!(after(&prev, &row), want);
    }

    #[test]
    fn midkey_in_range_and_split_partitions(
        keys in proptest::collection::btree_set(proptest::collection::vec(any::<u8>(), 1..12), 1..400),
        value_len in 1u32..30_000,
        columns in 1u32..6,
        scale in 1u64..50,
        split_key in proptest::collection::vec(any::<u8>(), 0..12),
    ) {
        let rows: Vec<Vec<u8>> = keys.into_iter().collect();
        let shape = CellShape { family_len: 1, qualifier_len: 2, value_len, columns };
        let f = build(&rows, shape, fmt(), scale, 1000);
        let m = f.midkey_row().unwrap();
        prop_assert!(m.as_slice() >= f.first_row() && m.as_slice() <= f.last_row());
        let sf = store(f);
        let at = sf.file.split_point().unwrap_or(split_key);
        let (a, b) = sf.split(&at);
        let ra = a.as_ref().map_or(0, |s| s.rows());
        let rb = b.as_ref().map_or(0, |s| s.rows());
        prop_assert_eq!(ra + rb, sf.rows());
        if let Some(a) = &a {
            prop_assert!(a.visible_emulated_rows().all(|r| r < at.as_slice()));
        }
        if let Some(b) = &b {
            prop_assert!(b.visible_emulated_rows().all(|r| r >= at.as_slice()));
        }
    }
}

/// `HFileBlockIndex.BlockIndexReader.midkey` and a Reference's row count
/// (`HalfStoreFileReader`) on a sampled file stay within the stated bound of the full index's:
/// a compaction of a file with 64× more rows than [`MAX_FILE_KEYS`] keeps at most that many
/// rows, its midkey within `rows / MAX_FILE_KEYS` rows of the full file's, and the rows a
/// Reference sees within `2 × rows / MAX_FILE_KEYS` of the exact count.
#[test]
fn sampled_index_bounds_midkey_and_range_errors() {
    let n = 64 * MAX_FILE_KEYS as u64;
    let rows: Vec<Vec<u8>> = (0..n).map(|i| (i * 7).to_be_bytes().to_vec()).collect();
    // Index keys may be shortened separators (`getMidpoint`): pad them to rank them.
    let rank = |key: &[u8]| {
        let mut b = [0u8; 8];
        b[..key.len().min(8)].copy_from_slice(&key[..key.len().min(8)]);
        u64::from_be_bytes(b).div_ceil(7)
    };
    let full = store(build(&rows, SHAPE_1K, fmt(), 1, 0));
    let sampled = compact(
        &[&full],
        None,
        VersionRules::keep_deletes(0),
        SHAPE_1K,
        fmt(),
    )
    .unwrap();
    assert!(sampled.emulated_rows() <= MAX_FILE_KEYS);
    assert!(sampled.rows().abs_diff(n) <= sampled.emulated_rows() as u64 / 2);
    let bound = n / MAX_FILE_KEYS as u64;
    let exact_mid = rank(&full.file.midkey_row().unwrap());
    let sampled_mid = rank(&sampled.midkey_row().unwrap());
    assert!(
        exact_mid.abs_diff(sampled_mid) <= bound,
        "midkey rank {sampled_mid} vs {exact_mid}"
    );
    let sampled = store(sampled);
    for (lo, hi) in [
        (0, n / 3),
        (n / 7, n / 2),
        (n / 2, n),
        (n / 5, n / 5 + n / 100),
    ] {
        let (start, end) = ((lo * 7).to_be_bytes(), (hi * 7).to_be_bytes());
        let half = |f: &StoreFile| StoreFile {
            kind: FileKind::Reference {
                start: start.to_vec(),
                end: end.to_vec(),
            },
            ..f.clone()
        };
        assert_eq!(half(&full).rows(), hi - lo);
        let got = half(&sampled).rows();
        assert!(
            got.abs_diff(hi - lo) <= 2 * bound,
            "[{lo}, {hi}): {got} rows"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The compaction's k-way merge (`StoreScanner` over the inputs' scanners, VERSIONS = 1)
    /// gives the sorted distinct rows, by its prefix-keyed heap or by concatenating inputs
    /// that do not overlap.
    #[test]
    fn merge_is_the_sorted_distinct_union(
        files in proptest::collection::vec(
            proptest::collection::btree_set(proptest::collection::vec(any::<u8>(), 1..12), 1..60),
            1..6,
        ),
        disjoint in any::<bool>(),
    ) {
        let files: Vec<Vec<Vec<u8>>> = if disjoint {
            // Prefix each file's rows with its index: ranges that do not overlap.
            files.iter().enumerate().map(|(i, f)| {
                f.iter().map(|r| { let mut k = vec![i as u8]; k.extend(r); k }).collect()
            }).collect()
        } else {
            files.into_iter().map(|f| f.into_iter().collect()).collect()
        };
        let stores: Vec<StoreFile> = files
            .iter()
            .map(|rows| store(build(rows, SHAPE_1K, fmt(), 1, 0)))
            .collect();
        let refs: Vec<&StoreFile> = stores.iter().rev().collect();
        let got: Vec<Vec<u8>> = merge_rows(&refs).into_iter().map(<[u8]>::to_vec).collect();
        let mut want: Vec<Vec<u8>> = files.into_iter().flatten().collect();
        want.sort();
        want.dedup();
        prop_assert_eq!(got, want);
    }
}

#[test]
fn a_block_run_takes_twelve_bytes() {
    // One per kept row of every store file: the headline holds millions.
    assert_eq!(super::hfile::run_size(), 12);
}

/// `ScanQueryMatcher` TTL in a compaction: cells spread evenly over a file's time range; the
/// part older than the cutoff is dropped (minor or major), a wholly expired input gives none.
#[test]
fn ttl_cutoff_keeps_the_live_share_scan_query_matcher() {
    let t = CellTimes::span(0, 999);
    assert_eq!(t.live_rows(1000, None), 1000);
    assert_eq!(t.live_rows(1000, Some(0)), 1000);
    assert_eq!(t.live_rows(1000, Some(250)), 750);
    assert_eq!(t.live_rows(1000, Some(1000)), 0);
    assert_eq!(t.after(Some(250)).oldest_ms(), 250);
    let mut b = HFileBuilder::new(SHAPE_1K, fmt(), 1);
    for i in 0..100u64 {
        b.append(&i.to_be_bytes());
    }
    let f = StoreFile {
        cells: t,
        ..store(b.finish().expect("rows"))
    };
    let half = compact(
        &[&f],
        Some(500),
        VersionRules::keep_deletes(0),
        SHAPE_1K,
        fmt(),
    )
    .expect("half live");
    assert_eq!(half.rows(), 50);
    assert!(
        compact(
            &[&f],
            Some(1000),
            VersionRules::keep_deletes(0),
            SHAPE_1K,
            fmt()
        )
        .is_none()
    );
}

/// A file of `rows` real rows (one key each, keys `from..from + rows`) with `extra` cells.
fn with_extra(from: u64, rows: u64, extra: Extra) -> StoreFile {
    let mut b = HFileBuilder::new(SHAPE_1K, fmt(), 1);
    for i in from..from + rows {
        b.append(&i.to_be_bytes());
    }
    let mut f = b.finish().expect("rows");
    f.set_counts(rows, extra);
    store(f)
}

fn versions(n: u64) -> Extra {
    Extra {
        versions: n,
        version_bytes: n * 1000,
        ..Extra::default()
    }
}

fn markers(n: u64) -> Extra {
    Extra {
        tombstones: n,
        tombstone_bytes: n * 30,
        ..Extra::default()
    }
}

/// `ColumnTracker.checkVersions` in a compaction of every file (`MajorCompactionScanQueryMatcher`):
/// a row keeps at most VERSIONS versions, so VERSIONS − 1 further ones per row.
#[test]
fn versions_kept_at_most_versions_after_a_major_scan_query_matcher() {
    let a = with_extra(0, 100, Extra::default());
    let b = with_extra(100, 100, versions(500));
    let all = |v| VersionRules {
        max_versions: v,
        drop_deletes: true,
        store_rows: 200,
    };
    let one = merge_counts(&[&a, &b], None, all(1));
    assert_eq!(one.extra_out.versions, 0);
    assert_eq!(one.excess_versions, 500);
    assert_eq!(one.excess_version_bytes, 500_000);
    assert_eq!(one.rows_out, 200);
    let three = merge_counts(&[&a, &b], None, all(3));
    assert_eq!(
        three.extra_out.versions, 400,
        "2 further versions × 200 rows"
    );
    assert_eq!(three.excess_versions, 100);
    let many = merge_counts(&[&a, &b], None, all(10));
    assert_eq!(many.extra_out.versions, 500);
    // The output file carries what is kept, and is smaller than its inputs.
    let out = compact(&[&a, &b], None, all(1), SHAPE_1K, fmt()).expect("rows");
    assert_eq!(out.rows(), 200);
    assert!(out.extra().is_empty());
    assert!(out.length() < a.length() + b.length());
    let kept = compact(&[&a, &b], None, all(3), SHAPE_1K, fmt()).expect("rows");
    assert_eq!(kept.extra().versions, 400);
    assert!(
        kept.length() > out.length() + 350_000,
        "the kept versions' bytes"
    );
}

/// `MinorCompactionScanQueryMatcher` (`COMPACT_RETAIN_DELETES`): a compaction of some of the
/// files keeps the markers and the rows they mask; versions go only where the row's older
/// version is among the inputs (rows_in / store_rows of the updates).
#[test]
fn tombstones_survive_minor_compactions_minor_compaction_scan_query_matcher() {
    let a = with_extra(0, 100, markers(10).plus(versions(40)));
    let b = with_extra(100, 100, Extra::default());
    let minor = VersionRules {
        max_versions: 1,
        drop_deletes: false,
        store_rows: 800,
    };
    let c = merge_counts(&[&a, &b], None, minor);
    assert_eq!(c.masked_rows, 0);
    assert_eq!(c.markers_dropped, 0);
    assert_eq!(c.extra_out.tombstones, 10);
    assert_eq!(c.extra_out.tombstone_bytes, 300);
    assert_eq!(c.rows_out, 200);
    assert_eq!(c.excess_versions, 10, "40 updates × 200 / 800 rows");
    assert_eq!(c.extra_out.versions, 30);
    let out = compact(&[&a, &b], None, minor, SHAPE_1K, fmt()).expect("rows");
    assert_eq!(out.extra().tombstones, 10);
    assert_eq!(out.rows(), 200);
}

/// `MajorCompactionScanQueryMatcher` / `DropDeletesCompactionScanQueryMatcher` with
/// `hbase.hstore.time.to.purge.deletes` = 0: a compaction of every file drops the markers and
/// the rows (with their versions) they mask; all rows deleted leaves no file.
#[test]
fn majors_drop_markers_and_masked_rows_major_compaction_scan_query_matcher() {
    let a = with_extra(0, 100, versions(50));
    let b = with_extra(100, 100, markers(20));
    let all = VersionRules {
        max_versions: 5,
        drop_deletes: true,
        store_rows: 200,
    };
    let c = merge_counts(&[&a, &b], None, all);
    assert_eq!(c.masked_rows, 20);
    assert_eq!(c.masked_versions, 5, "50 versions × 20 / 200 rows");
    assert_eq!(c.markers_dropped, 20);
    assert_eq!(c.rows_out, 180);
    assert_eq!(c.extra_out.tombstones, 0);
    assert_eq!(c.extra_out.versions, 45);
    // Rows in − dropped = rows out; versions likewise.
    assert_eq!(c.rows_in - c.masked_rows, c.rows_out);
    assert_eq!(
        c.extra_in.versions - c.masked_versions - c.excess_versions,
        c.extra_out.versions
    );
    let gone = with_extra(0, 10, markers(10));
    assert!(compact(&[&gone], None, all, SHAPE_1K, fmt()).is_none());
}

/// A Reference sees its half's share of the extra cells (`HalfStoreFileReader`).
#[test]
fn a_reference_carries_its_share_of_versions_half_store_file_reader() {
    let f = with_extra(0, 100, versions(60).plus(markers(20)));
    let (bottom, top) = f.split(&50u64.to_be_bytes());
    let (bottom, top) = (bottom.expect("bottom"), top.expect("top"));
    assert_eq!(bottom.extra().versions + top.extra().versions, 60);
    assert_eq!(bottom.extra().tombstones, 10);
    assert_eq!(bottom.rows() + top.rows(), 100);
}

/// `ScanQueryMatcher` TTL across a compaction of a daughter's old parent half with its new
/// flushes: the compacted file keeps each input's time segment with its rows, so the old half
/// expires at its own time and the new rows stay (one merged range would spread the new rows
/// back over the parent's years and expire some of them early).
#[test]
fn ttl_segments_keep_old_and_new_cells_apart_scan_query_matcher() {
    // 1,000 rows written in [0, 999] and 1,000 in [10_000, 10_999].
    let old = CellTimes::span(0, 999);
    let new = CellTimes::span(10_000, 10_999);
    let both = old.merge(1_000, new, 1_000);
    assert_eq!((both.oldest_ms(), both.newest_ms()), (0, 10_999));
    // Past the old segment: exactly the new rows live.
    assert_eq!(both.live_rows(2_000, Some(1_000)), 1_000);
    assert_eq!(both.live_rows(2_000, Some(500)), 1_500);
    assert_eq!(both.live_rows(2_000, Some(10_500)), 500);
    // After the cutoff the old segment is gone; the weights stay proportional.
    let kept = both.after(Some(1_000));
    assert_eq!(kept.oldest_ms(), 10_000);
    assert_eq!(kept.live_rows(1_000, Some(10_500)), 500);
    // Never more than CELL_TIME_SEGMENTS: the closest neighbours merge.
    let mut acc = CellTimes::span(0, 9);
    let mut rows = 10;
    for k in 1..40u64 {
        acc = acc.merge(rows, CellTimes::span(k * 100, k * 100 + 9), 10);
        rows += 10;
    }
    assert_eq!((acc.oldest_ms(), acc.newest_ms()), (0, 3_909));
    let live = acc.live_rows(rows, Some(2_000));
    assert!((190..=210).contains(&live), "{live} of {rows}");
}

/// `DateTieredMultiFileWriter`: a compaction's output cut at window starts gives one file per
/// window holding cells, real rows by the cells' time shares (summing to the whole), each
/// window's cell times inside it, and keys contiguous when keys follow time.
#[test]
fn split_by_windows_shares_rows_by_cell_times_date_tiered_multi_file_writer() {
    let rows = numbered(100, 3);
    let file = Arc::new(build(&rows, SHAPE_1K, fmt(), 10, 1));
    // Cells spread evenly over [0, 999] ms; windows start at 0, 250 and 500 (the first
    // boundary i64::MIN holds nothing here).
    let cells = CellTimes::span(0, 999);
    let bounds = [i64::MIN, 0, 250, 500];
    let out = split_by_windows(&file, 1000, &cells, &bounds, true, SHAPE_1K, fmt());
    let real: Vec<u64> = out.iter().map(|w| w.1).collect();
    assert_eq!(real, vec![250, 250, 500]);
    let spans: Vec<(u64, u64)> = out
        .iter()
        .map(|w| (w.2.oldest_ms(), w.2.newest_ms()))
        .collect();
    assert_eq!(spans, vec![(0, 249), (250, 499), (500, 999)]);
    // Keys follow time: the oldest window holds the lowest quarter of the keys.
    assert_eq!(out[0].0.first_row(), rows[0].as_slice());
    assert_eq!(out[0].0.last_row(), rows[24].as_slice());
    assert_eq!(out[2].0.first_row(), rows[50].as_slice());
    // Keys unrelated to time: every window spans the key range.
    let mixed = split_by_windows(&file, 1000, &cells, &bounds, false, SHAPE_1K, fmt());
    assert_eq!(mixed.len(), 3);
    for w in &mixed {
        assert!(
            w.0.first_row() <= rows[2].as_slice(),
            "{:?}",
            w.0.first_row()
        );
        assert!(
            w.0.last_row() >= rows[97].as_slice(),
            "{:?}",
            w.0.last_row()
        );
    }
    let kept: usize = mixed.iter().map(|w| w.0.emulated_rows()).sum();
    assert_eq!(kept, 100, "each key in exactly one file");
    // Cells in one window: the file is kept as it is.
    let one = split_by_windows(
        &file,
        1000,
        &CellTimes::span(600, 700),
        &bounds,
        true,
        SHAPE_1K,
        fmt(),
    );
    assert_eq!(one.len(), 1);
    assert!(Arc::ptr_eq(&one[0].0, &file));
}

/// Time-ordered keys are recognised from the inputs: disjoint key ranges rising with their
/// cells' times; overlapping ranges, or one file, are not.
#[test]
fn keys_follow_time_needs_disjoint_ranges_rising_with_time() {
    let rows = numbered(100, 3);
    let part = |a: usize, b: usize, t: u64| StoreFile {
        cells: CellTimes::span(t, t + 9),
        ..store(build(&rows[a..b], SHAPE_1K, fmt(), 1, 1))
    };
    let (old, new) = (part(0, 50, 0), part(50, 100, 100));
    assert!(keys_follow_time(&[&old, &new]));
    assert!(
        keys_follow_time(&[&new, &old]),
        "input order does not matter"
    );
    let backwards = part(0, 50, 200);
    assert!(!keys_follow_time(&[&backwards, &new]));
    let overlapping = part(25, 75, 100);
    assert!(!keys_follow_time(&[&old, &overlapping]));
    assert!(!keys_follow_time(&[&old]));
}
