//! A memstore's growable buffers, kept in chunks of one size instead of one block: growing
//! never copies what is held, and a flushed memstore's chunks go to a pool (the calling
//! thread's) that the next memstore to grow takes them from, already paged in.
//!
//! One block doubled as it grew: every doubling copied the rows held so far (and paged in the
//! new block), and the freed blocks scattered the heap, so RSS ran well above the rows held.

use std::cell::RefCell;

use crate::kernel;

/// Bytes of free chunks a thread's pool keeps, per element type: more than one flushed
/// memstore's worth on the shipped scenarios (~20 MB at `--scale 1` with 100-byte rows).
const POOL_BYTES: usize = 64 << 20;

/// Elements in chunks of `cap` each: every chunk but the last (`tail`, the one being filled,
/// kept inline: the write path reaches it through no other pointer) is full. The first chunk
/// grows as a plain vector up to `cap` (a memstore that holds a few rows stays small); later
/// ones are taken whole from the pool.
#[derive(Debug, Clone, Default)]
pub struct Chunks<T> {
    full: Vec<Vec<T>>,
    tail: Vec<T>,
    cap: usize,
}

impl<T: Pooled> Chunks<T> {
    /// Sets the chunk size (elements). Only while empty.
    pub fn set_cap(&mut self, cap: usize) {
        debug_assert!(self.is_empty());
        self.cap = cap.max(1);
    }

    /// True when nothing is held.
    pub fn is_empty(&self) -> bool {
        self.full.is_empty() && self.tail.is_empty()
    }

    /// Elements held.
    pub fn len(&self) -> usize {
        self.full.len() * self.cap + self.tail.len()
    }

    /// The chunks, in order.
    pub fn view(&self) -> ChunksRef<'_, T> {
        ChunksRef {
            full: &self.full,
            tail: &self.tail,
        }
    }

    /// The chunk `n` more elements go to, with room for them (`n` ≤ the chunk size, and the
    /// chunk size a multiple of every `n` used).
    #[inline]
    pub fn room(&mut self, n: usize) -> &mut Vec<T> {
        if self.tail.len() + n > self.cap {
            self.open_chunk();
        }
        &mut self.tail
    }

    /// Appends `n` groups of `unit` elements (`unit` ≤ the chunk size, which is a multiple of
    /// it), group `k` being the `unit` elements `group(k)` gives, copied straight into the
    /// chunk's spare room (zeroing it first would be a second pass over lines not yet in the
    /// caches) by [`kernel::buf::extend_groups`] (whose `N` this passes on). Each chunk's room
    /// is checked once, not once per group.
    #[inline]
    pub fn extend_groups<S: AsRef<[T]>, const N: usize>(
        &mut self,
        n: usize,
        unit: usize,
        mut group: impl FnMut(usize) -> S,
    ) where
        T: Copy,
    {
        let mut k = 0;
        while k < n {
            let cap = self.cap;
            let tail = self.room(unit);
            let fit = ((cap - tail.len()) / unit).min(n - k);
            kernel::buf::extend_groups::<T, S, N>(tail, fit, unit, |j| group(k + j));
            k += fit;
        }
    }

    /// Appends one element.
    #[inline]
    pub fn push(&mut self, v: T) {
        self.room(1).push(v);
    }

    /// The chunk being filled, as held so far (for a prefetch of where the next element goes).
    #[inline]
    pub fn tail(&self) -> &[T] {
        &self.tail
    }

    /// A new chunk to fill, whole from the pool.
    #[cold]
    #[inline(never)]
    fn open_chunk(&mut self) {
        let fresh = T::with_pool(|p| p.take(self.cap));
        self.full.push(std::mem::replace(&mut self.tail, fresh));
    }

    /// Empties the buffers: the chunk being filled stays (cleared), the others go to the pool.
    pub fn clear(&mut self) {
        if !self.full.is_empty() {
            T::with_pool(|p| {
                for c in self.full.drain(..) {
                    p.give(c);
                }
            });
        }
        self.tail.clear();
    }

    /// Bytes of memory the chunks hold.
    pub fn footprint(&self) -> usize {
        (self.full.iter().map(Vec::capacity).sum::<usize>() + self.tail.capacity()) * size_of::<T>()
            + self.full.capacity() * size_of::<Vec<T>>()
    }
}

/// A [`Chunks`]' elements: full chunks, then a partly filled one.
#[derive(Debug)]
pub struct ChunksRef<'a, T> {
    pub full: &'a [Vec<T>],
    pub tail: &'a [T],
}

impl<T> Clone for ChunksRef<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ChunksRef<'_, T> {}

impl<'a, T> ChunksRef<'a, T> {
    /// Elements laid end to end in one buffer.
    #[cfg(test)]
    pub fn flat(tail: &'a [T]) -> ChunksRef<'a, T> {
        ChunksRef { full: &[], tail }
    }

    /// The chunks in order (the last one possibly empty).
    pub fn iter(&self) -> impl Iterator<Item = &'a [T]> + use<'a, T> {
        self.full
            .iter()
            .map(Vec::as_slice)
            .chain(std::iter::once(self.tail))
    }

    /// Elements held.
    pub fn len(&self) -> usize {
        self.full.iter().map(Vec::len).sum::<usize>() + self.tail.len()
    }

    /// Chunk `c` (the last one past the full ones).
    #[inline]
    pub fn chunk(&self, c: usize) -> &'a [T] {
        self.full.get(c).map_or(self.tail, Vec::as_slice)
    }
}

/// Free chunks of one element type.
#[derive(Debug)]
pub struct Pool<T> {
    free: Vec<Vec<T>>,
    bytes: usize,
}

impl<T> Pool<T> {
    const fn new() -> Pool<T> {
        Pool {
            free: Vec::new(),
            bytes: 0,
        }
    }

    /// An empty chunk with room for `cap` elements: a free one if it is large enough.
    fn take(&mut self, cap: usize) -> Vec<T> {
        while let Some(c) = self.free.pop() {
            self.bytes -= c.capacity() * size_of::<T>();
            if c.capacity() >= cap {
                return c;
            }
        }
        Vec::with_capacity(cap)
    }

    /// Keeps an emptied chunk while the pool is below its bound; frees it otherwise.
    fn give(&mut self, mut c: Vec<T>) {
        let bytes = c.capacity() * size_of::<T>();
        if self.bytes + bytes <= POOL_BYTES {
            c.clear();
            self.bytes += bytes;
            self.free.push(c);
        }
    }
}

/// Element types with a per-thread pool of chunks.
pub trait Pooled: Copy + 'static {
    /// Calls `f` with the calling thread's pool for this type.
    fn with_pool<R>(f: impl FnOnce(&mut Pool<Self>) -> R) -> R;
}

thread_local! {
    static BYTES: RefCell<Pool<u8>> = const { RefCell::new(Pool::new()) };
    static WORDS: RefCell<Pool<u32>> = const { RefCell::new(Pool::new()) };
}

impl Pooled for u8 {
    fn with_pool<R>(f: impl FnOnce(&mut Pool<u8>) -> R) -> R {
        BYTES.with(|p| f(&mut p.borrow_mut()))
    }
}

impl Pooled for u32 {
    fn with_pool<R>(f: impl FnOnce(&mut Pool<u32>) -> R) -> R {
        WORDS.with(|p| f(&mut p.borrow_mut()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_stay_in_order_across_chunks_and_clearing_recycles_them() {
        let mut c: Chunks<u32> = Chunks::default();
        c.set_cap(4);
        assert!(c.is_empty() && c.tail().is_empty());
        for v in 0..10 {
            c.push(v);
        }
        assert_eq!(c.len(), 10);
        let flat: Vec<u32> = c.view().iter().flatten().copied().collect();
        assert_eq!(flat, (0..10).collect::<Vec<_>>());
        assert_eq!(c.view().len(), 10);
        assert!(c.view().full.iter().all(|k| k.len() == 4));
        assert_eq!(c.tail(), &[8, 9]);
        assert_eq!(c.view().chunk(1), &[4, 5, 6, 7]);
        assert_eq!(c.view().chunk(2), &[8, 9]);
        c.clear();
        assert!(c.is_empty());
        assert_eq!(c.len(), 0);
        assert!(c.view().full.is_empty(), "the chunk being filled stays");
        // The freed chunks serve the next growth.
        let pooled = u32::with_pool(|p| p.free.len());
        assert!(pooled >= 2);
        for v in 0..9 {
            c.push(v);
        }
        assert_eq!(u32::with_pool(|p| p.free.len()), pooled - 2);
        let flat: Vec<u32> = c.view().iter().flatten().copied().collect();
        assert_eq!(flat, (0..9).collect::<Vec<_>>());
    }

    #[test]
    fn groups_extend_across_chunks_in_order() {
        let mut c: Chunks<u32> = Chunks::default();
        c.set_cap(12);
        let mut next = 0u32;
        for n in [0, 1, 5, 2, 7, 13] {
            let mut groups = 0;
            c.extend_groups::<_, 0>(n, 3, |k| {
                assert_eq!(k, groups, "groups in order");
                let g = [next, next + 1, next + 2];
                next += 3;
                groups += 1;
                g
            });
            assert_eq!(groups, n);
        }
        let held: Vec<u32> = c.view().iter().flatten().copied().collect();
        assert_eq!(held, (0..next).collect::<Vec<_>>());
        assert_eq!(c.len(), 3 * 28);
        assert!(c.view().full.iter().all(|chunk| chunk.len() == 12));
    }

    #[test]
    fn room_fits_whole_slices_and_the_pool_is_bounded() {
        let mut c: Chunks<u8> = Chunks::default();
        c.set_cap(16);
        for k in 0u8..5 {
            c.room(8).extend_from_slice(&[k; 8]);
        }
        assert_eq!(c.view().full.len(), 2);
        assert!(c.view().iter().all(|k| k.len() % 8 == 0));
        // A chunk too small for the asked size is not handed out.
        let mut p: Pool<u8> = Pool::new();
        p.give(Vec::with_capacity(4));
        assert!(p.take(8).capacity() >= 8);
        assert_eq!(p.bytes, 0);
        p.give(Vec::with_capacity(POOL_BYTES));
        p.give(Vec::with_capacity(1));
        assert_eq!((p.free.len(), p.bytes), (1, POOL_BYTES));
    }
}
