//! A store's memstore: the rows written since the last flush, their data size and heap size.
//!
//! Mirrors `DefaultMemStore` accounting (`Segment.incMemStoreSize`): data size = serialized cell
//! bytes, heap size = per-cell heap (see `cell.rs`) plus the active segment's fixed overhead.
//! Rows are kept as emulated keys in a flat arena (no allocation per row); a flush sorts them.

/// What one emulated row adds to a store, in real units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Put {
    /// Real rows.
    pub rows: u64,
    /// Real cells.
    pub cells: u64,
    /// Serialized cell bytes.
    pub data_bytes: u64,
    /// Memstore heap bytes.
    pub heap_bytes: u64,
}

/// One store's memstore (active segment; a flush takes it whole as the snapshot).
#[derive(Debug, Default, Clone)]
pub struct Memstore {
    arena: Vec<u8>,
    ends: Vec<u32>,
    /// Real rows (emulated rows × their weight).
    pub rows: u64,
    /// Real cells.
    pub cells: u64,
    /// Data size, bytes (serialized cells).
    pub data_bytes: u64,
    /// Heap size, bytes (what flush triggers compare).
    pub heap_bytes: u64,
    /// Simulated time of the oldest edit, ms (for the periodic flush).
    pub oldest_edit_ms: Option<u64>,
}

impl Memstore {
    /// Adds one emulated row with what it stands for. `segment_overhead` is added when the
    /// segment receives its first cell. Inlined: it runs once per row and family.
    #[inline]
    pub fn add(&mut self, key: &[u8], put: Put, segment_overhead: u64, now_ms: u64) {
        if self.ends.is_empty() {
            self.heap_bytes += segment_overhead;
            self.oldest_edit_ms = Some(now_ms);
        }
        crate::keygen::push_key(&mut self.arena, key);
        self.ends.push(self.arena.len() as u32);
        self.rows += put.rows;
        self.cells += put.cells;
        self.data_bytes += put.data_bytes;
        self.heap_bytes += put.heap_bytes;
    }

    /// Emulated rows held.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when nothing was written since the last flush.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Takes the content as a flush snapshot, leaving an empty memstore.
    pub fn take(&mut self) -> Memstore {
        std::mem::take(self)
    }

    /// Empties the memstore but keeps its buffers' capacity (for reuse as a new segment).
    pub fn clear(&mut self) {
        self.arena.clear();
        self.ends.clear();
        self.rows = 0;
        self.cells = 0;
        self.data_bytes = 0;
        self.heap_bytes = 0;
        self.oldest_edit_ms = None;
    }

    /// The emulated keys, sorted (unsigned lexicographic, as HBase's comparator); equal keys are
    /// kept once (VERSIONS = 1: the newest put of a row wins).
    pub fn sorted_keys(&self) -> Vec<&[u8]> {
        // Sort on a 16-byte big-endian prefix first (cheap integer compares), then break prefix
        // ties on the whole key: rowkeys usually differ within their first 16 bytes.
        let mut order: Vec<(u128, u32)> = (0..self.ends.len())
            .map(|i| (prefix(self.key(i)), i as u32))
            .collect();
        order.sort_unstable();
        let mut keys: Vec<&[u8]> = order.iter().map(|&(_, i)| self.key(i as usize)).collect();
        let mut i = 0;
        while i < order.len() {
            let mut j = i + 1;
            while j < order.len() && order[j].0 == order[i].0 {
                j += 1;
            }
            if j - i > 1 {
                keys[i..j].sort_unstable();
            }
            i = j;
        }
        keys.dedup();
        keys
    }

    fn key(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.arena[start..self.ends[i] as usize]
    }

    /// Bytes of process memory the arena holds (for the engine's memory budget).
    pub fn footprint(&self) -> usize {
        self.arena.capacity() + self.ends.capacity() * 4
    }
}

/// The first 16 bytes of `key` as a big-endian integer, zero-padded: orders like the key itself
/// except among keys that share those 16 bytes (or differ only by trailing zero bytes).
fn prefix(key: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    let n = key.len().min(16);
    b[..n].copy_from_slice(&key[..n]);
    u128::from_be_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounting_and_sorted_unique_keys() {
        let mut m = Memstore::default();
        assert!(m.is_empty());
        let put = Put {
            rows: 1,
            cells: 1,
            data_bytes: 100,
            heap_bytes: 172,
        };
        m.add(b"b", put, 256, 5);
        m.add(b"a", put, 256, 6);
        m.add(b"b", put, 256, 7);
        assert_eq!(m.len(), 3);
        assert_eq!(m.heap_bytes, 256 + 3 * 172);
        assert_eq!(m.data_bytes, 300);
        assert_eq!(m.oldest_edit_ms, Some(5));
        assert_eq!(m.sorted_keys(), vec![b"a".as_slice(), b"b".as_slice()]);
        // Prefix ties (shared first 16 bytes, or trailing zeros) still sort by the whole key.
        let mut t = Memstore::default();
        for k in [
            &b"0123456789abcdefZ"[..],
            b"0123456789abcdef",
            b"0123456789abcdefA",
            b"a\0",
            b"a",
        ] {
            t.add(k, put, 0, 0);
        }
        assert_eq!(
            t.sorted_keys(),
            vec![
                &b"0123456789abcdef"[..],
                b"0123456789abcdefA",
                b"0123456789abcdefZ",
                b"a",
                b"a\0"
            ]
        );
        let snap = m.take();
        assert_eq!(snap.rows, 3);
        assert!(m.is_empty());
        assert_eq!(m.heap_bytes, 0);
    }
}
