//! Cell sizes: the bytes a put occupies in a memstore and in a store file.
//!
//! Mirrors `KeyValue` (serialized layout), `Segment.heapSizeChange` / `ByteBufferKeyValue.heapSize`
//! with MSLAB, and `ClassSize` as evaluated on JDK 17 x64 (HBASE-MODEL.md §5).

/// Fixed bytes of a KeyValue besides row, family, qualifier and value:
/// keyLen:i32 + valueLen:i32 + rowLen:i16 + famLen:i8 + timestamp:i64 + type:u8 = 20.
pub const KEYVALUE_INFRASTRUCTURE: u64 = 20;

/// JVM heap above which HotSpot turns compressed oops off (the usual 32 GB rule).
pub const COMPRESSED_OOPS_LIMIT: u64 = 32 << 30;

/// `MutableSegment.DEEP_OVERHEAD` with compressed oops on JDK 17 (OBJECT 12, REFERENCE 4):
/// added once per store's active segment.
pub const SEGMENT_OVERHEAD: u64 = 256;

/// `MutableSegment.DEEP_OVERHEAD` with 8-byte references (heap ≥ 32 GB; JDK 17 keeps compressed
/// class pointers, so OBJECT stays 12 and a byte[] header 16). From `ClassSize`: Segment's
/// FIXED_OVERHEAD align(12 + 6·8 + 8 + 1) = 72, ATOMIC_REFERENCE 24, CELL_SET 24, two
/// ATOMIC_LONGs 48 and REENTRANT_LOCK 40 make Segment.DEEP_OVERHEAD 208; with
/// CONCURRENT_SKIPLISTMAP align(12 + 9·8) = 88 (JDK 17's map has 7 reference fields, AbstractMap
/// 2), SYNC_TIMERANGE_TRACKER 32, a REFERENCE 8 and ATOMIC_BOOLEAN 16 the total is 352.
pub const SEGMENT_OVERHEAD_8_BYTE_REFS: u64 = 352;

/// How a RegionServer's JVM lays cells out on the heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapLayout {
    /// Heap < 32 GB ⇒ 4-byte references.
    pub compressed_oops: bool,
    /// hbase.hregion.memstore.mslab.enabled (cells ≤ max.allocation are copied into chunks).
    pub mslab: bool,
    /// hbase.hregion.memstore.mslab.max.allocation: larger cells stay plain KeyValues.
    pub mslab_max_allocation: u64,
}

impl HeapLayout {
    /// The layout of a RegionServer with `heap_bytes` of JVM heap.
    pub fn new(heap_bytes: u64, mslab: bool, mslab_max_allocation: u64) -> HeapLayout {
        HeapLayout {
            compressed_oops: heap_bytes < COMPRESSED_OOPS_LIMIT,
            mslab,
            mslab_max_allocation,
        }
    }

    /// `MutableSegment.DEEP_OVERHEAD` for this JVM: what a store's new active segment adds.
    pub fn segment_overhead(self) -> u64 {
        if self.compressed_oops {
            SEGMENT_OVERHEAD
        } else {
            SEGMENT_OVERHEAD_8_BYTE_REFS
        }
    }
}

const fn align8(n: u64) -> u64 {
    (n + 7) & !7
}

/// Serialized KeyValue length (`KeyValue.getLength`, no tags): R + F + Q + V + 20. This is the
/// memstore *data size* of the cell and what it adds to an HFile data block.
pub fn data_size(row: u64, family: u64, qualifier: u64, value: u64) -> u64 {
    row + family + qualifier + value + KEYVALUE_INFRASTRUCTURE
}

/// Bytes a cell of serialized length `len` adds to an uncompressed WAL file: a 4-byte length,
/// then the KeyValue (`WALCellCodec.EnsureKvEncoder.write`). The entry's `WALKey` (~100 bytes)
/// is shared by every cell a client batch sends to the region in one call, so it is left out.
pub fn wal_entry_size(len: u64) -> u64 {
    len + 4
}

/// Memstore *heap size* of one cell of serialized length `len` (`Segment.heapSizeChange`):
/// the ConcurrentSkipListMap entry plus the cell object (and its bytes).
pub fn heap_size(len: u64, layout: HeapLayout) -> u64 {
    let in_mslab = layout.mslab && len <= layout.mslab_max_allocation;
    match (layout.compressed_oops, in_mslab) {
        // CSLM entry 40 + ByteBufferKeyValue align(12 + 4 + 2·4 + 8) = 32 + the bytes in the chunk.
        (true, true) => 72 + align8(len),
        // CSLM entry 40 + KeyValue object align(32) + byte[] align(16 + L).
        (true, false) => 40 + 32 + align8(16 + len),
        // 8-byte references: CSLM entry align(align(12 + 24) + align(36 / 2)) = 64, then
        // ByteBufferKeyValue align(12 + 8 + 2·4 + 8 + L) in a chunk ...
        (false, true) => 64 + align8(36 + len),
        // ... or a KeyValue align(36) = 40 plus its byte[] align(16 + L).
        (false, false) => 64 + 40 + align8(16 + len),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WALCellCodec.EnsureKvEncoder writes an int length before each KeyValue.
    #[test]
    fn wal_entry_size_adds_the_length_prefix_wal_cell_codec() {
        assert_eq!(wal_entry_size(data_size(8, 1, 1, 100)), 134);
    }

    // Mirrors KeyValue.getKeyValueDataStructureSize: 8 + keyLen(R+F+Q+12) + V.
    #[test]
    fn data_size_is_keyvalue_length() {
        assert_eq!(data_size(16, 1, 1, 1024), 16 + 1 + 1 + 1024 + 20);
        assert_eq!(data_size(8, 1, 1, 100), 130);
    }

    // Mirrors Segment.heapSizeChange with ByteBufferKeyValue (MSLAB) on JDK 17, compressed oops:
    // 72 + align8(L) per cell (HBASE-MODEL.md §5).
    #[test]
    fn heap_size_with_mslab_and_compressed_oops() {
        let layout = HeapLayout::new(16 << 30, true, 262_144);
        assert!(layout.compressed_oops);
        assert_eq!(heap_size(1062, layout), 72 + 1064);
        assert_eq!(heap_size(1064, layout), 72 + 1064);
        // A cell over max.allocation is not copied into a chunk: plain KeyValue.
        assert_eq!(heap_size(300_000, layout), 88 + 300_000);
    }

    #[test]
    fn heap_size_without_mslab_or_compressed_oops() {
        let no_mslab = HeapLayout::new(16 << 30, false, 262_144);
        assert_eq!(heap_size(130, no_mslab), 88 + 136);
        let big_heap = HeapLayout::new(64 << 30, true, 262_144);
        assert!(!big_heap.compressed_oops);
        assert_eq!(heap_size(130, big_heap), 64 + align8(166));
    }

    // Mirrors KeyValue.heapSize (offset 0: align(FIXED_OVERHEAD) + sizeOfByteArray(L)) and
    // ClassSize.CONCURRENT_SKIPLISTMAP_ENTRY with 8-byte references: a cell that is not copied
    // into an MSLAB chunk costs 64 + 40 + align8(16 + L), not the chunk cell's 64 + align8(36 + L).
    #[test]
    fn keyvalue_heap_size_with_8_byte_references() {
        let big_no_mslab = HeapLayout::new(64 << 30, false, 262_144);
        assert_eq!(heap_size(130, big_no_mslab), 64 + 40 + 152);
        assert_eq!(heap_size(130, big_no_mslab), 120 + align8(130));
        // A cell above mslab.max.allocation stays a KeyValue even with MSLAB on.
        let big = HeapLayout::new(64 << 30, true, 262_144);
        assert_eq!(heap_size(300_000, big), 120 + 300_000);
        assert_eq!(heap_size(1062, big), 64 + 1104);
    }

    // Mirrors MutableSegment.DEEP_OVERHEAD from ClassSize: 256 with 4-byte references, 352 with
    // 8-byte ones (heap ≥ 32 GB).
    #[test]
    fn segment_overhead_follows_the_reference_size() {
        assert_eq!(
            HeapLayout::new(16 << 30, true, 262_144).segment_overhead(),
            256
        );
        assert_eq!(
            HeapLayout::new(32 << 30, true, 262_144).segment_overhead(),
            352
        );
        // The same sum from ClassSize's parts, so a changed part shows here.
        let (obj, reference) = (12u64, 8u64);
        let segment_fixed = align8(obj + 6 * reference + 8 + 1);
        let segment_deep = segment_fixed
            + align8(obj + reference)
            + align8(obj + reference + 4)
            + 2 * align8(obj + 8)
            + align8(obj + 3 * reference);
        let cslm = align8(obj + 9 * reference);
        let mutable =
            align8(segment_deep + cslm + align8(obj + 2 * reference) + reference + align8(obj + 1));
        assert_eq!(mutable, SEGMENT_OVERHEAD_8_BYTE_REFS);
        let (obj, reference) = (12u64, 4u64);
        let segment_deep = align8(obj + 6 * reference + 8 + 1)
            + align8(obj + reference)
            + align8(obj + reference + 4)
            + 2 * align8(obj + 8)
            + align8(obj + 3 * reference);
        let mutable = align8(
            segment_deep
                + align8(obj + 9 * reference)
                + align8(obj + 2 * reference)
                + reference
                + align8(obj + 1),
        );
        assert_eq!(mutable, SEGMENT_OVERHEAD);
    }
}
