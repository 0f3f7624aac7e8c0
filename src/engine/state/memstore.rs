//! A store's memstore: the rows written since the last flush, their data size and heap size.
//!
//! Mirrors `DefaultMemStore` accounting (`Segment.incMemStoreSize`): data size = serialized cell
//! bytes, heap size = per-cell heap (see `cell.rs`) plus the active segment's fixed overhead.
//! Rows are kept as emulated keys in a flat arena (no allocation per row); a flush sorts them.

use super::routing::prefix8;

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
        // LSD radix sort on the 8-byte big-endian prefix (linear, no compares), then a
        // comparison sort only inside runs sharing those 8 bytes; same order as a full sort.
        let mut order: Vec<(u64, u32)> = (0..self.ends.len())
            .map(|i| (prefix8(self.key(i)), i as u32))
            .collect();
        radix_sort(&mut order);
        let mut keys: Vec<&[u8]> = Vec::with_capacity(order.len());
        let mut i = 0;
        while i < order.len() {
            let mut j = i + 1;
            while j < order.len() && order[j].0 == order[i].0 {
                j += 1;
            }
            let run = keys.len();
            keys.extend(order[i..j].iter().map(|&(_, k)| self.key(k as usize)));
            if j - i > 1 {
                // Only keys sharing their 8-byte prefix can be equal: sort and dedup the run.
                let mut tail = keys.split_off(run);
                tail.sort_unstable();
                tail.dedup();
                keys.append(&mut tail);
            }
            i = j;
        }
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

/// Sorts by the `u64` (ties in any order): LSD radix on its 8 bytes, skipping bytes every
/// element shares; small inputs take a comparison sort.
fn radix_sort(v: &mut Vec<(u64, u32)>) {
    if v.len() < 256 {
        v.sort_unstable_by_key(|&(p, _)| p);
        return;
    }
    let mut counts = [[0usize; 256]; 8];
    for &(p, _) in v.iter() {
        for (byte, c) in counts.iter_mut().enumerate() {
            c[((p >> (8 * byte)) & 0xFF) as usize] += 1;
        }
    }
    let mut tmp = vec![(0u64, 0u32); v.len()];
    for (byte, c) in counts.iter().enumerate() {
        if c.contains(&v.len()) {
            continue;
        }
        let mut pos = [0usize; 256];
        let mut sum = 0;
        for (p, &n) in pos.iter_mut().zip(c) {
            *p = sum;
            sum += n;
        }
        for &e in v.iter() {
            let b = ((e.0 >> (8 * byte)) & 0xFF) as usize;
            tmp[pos[b]] = e;
            pos[b] += 1;
        }
        std::mem::swap(v, &mut tmp);
    }
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
        // Above the radix threshold: hashed-like keys with prefix ties, duplicates and short keys.
        let mut big = Memstore::default();
        let mut want: Vec<Vec<u8>> = Vec::new();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for i in 0..5000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut k = format!("{:08x}", x % 300).into_bytes();
            k.extend_from_slice(&(i % 1700).to_be_bytes()[..(i % 9) as usize]);
            big.add(&k, put, 0, 0);
            want.push(k);
        }
        want.sort_unstable();
        want.dedup();
        assert_eq!(big.sorted_keys(), want);
        assert_eq!(snap.rows, 3);
        assert!(m.is_empty());
        assert_eq!(m.heap_bytes, 0);
    }
}
