//! Vectors filled straight in their spare capacity, without zeroing it first: each helper
//! writes every element it then commits, and checks what its safety rests on.

use std::mem::MaybeUninit;

/// Appends `n` groups of `unit` elements to `v`, group `k` being the elements `group(k)` gives
/// (exactly `unit` of them: any other count panics), copied into `v`'s spare capacity. `N`,
/// when not 0, is the group size the copy is compiled for (a fixed-size move instead of a
/// call to copy a slice); other sizes still copy as slices.
#[inline(always)]
pub fn extend_groups<T: Copy, S: AsRef<[T]>, const N: usize>(
    v: &mut Vec<T>,
    n: usize,
    unit: usize,
    mut group: impl FnMut(usize) -> S,
) {
    let old = v.len();
    let len = n * unit;
    v.reserve(len);
    for (k, dst) in v.spare_capacity_mut()[..len]
        .chunks_exact_mut(unit)
        .enumerate()
    {
        let src = group(k);
        let src = src.as_ref();
        if N > 0
            && let Ok(fixed) = <&mut [MaybeUninit<T>; N]>::try_from(&mut *dst)
            && let Ok(src) = <&[T; N]>::try_from(src)
        {
            *fixed = src.map(MaybeUninit::new);
        } else {
            // Panics unless `src` is exactly as long as `dst`.
            dst.write_copy_of_slice(src);
        }
    }
    // SAFETY: the loop wrote all `len` elements after `old`: each group whole, by the
    // fixed-size move (`dst` and `src` both `N` long) or by `write_copy_of_slice`, which
    // panics unless it writes all of `dst`.
    unsafe { v.set_len(old + len) };
}

/// The placement pass of a counting sort (positions of items grouped by bucket), with its
/// cursors kept from call to call. Between calls every cursor is `u32::MAX`: an item of a
/// bucket not listed indexes past any output and panics.
#[derive(Debug, Clone, Default)]
pub struct Placement {
    /// Per bucket, the position its next item goes to.
    cursors: Vec<u32>,
    /// Per listed bucket, in order, the end of its range.
    ends: Vec<u32>,
}

impl Placement {
    /// Makes `out` the indices `i` of `keys` bucket by bucket, in `buckets`' order, each
    /// bucket's in index order; `keys[i] == skip` is left out. `count(b)` is the number of
    /// keys equal to bucket `b` (the caller counted them). Panics where a bucket is listed
    /// twice, a key's bucket is not listed, or a count is wrong (`out` is then left empty).
    pub fn place(
        &mut self,
        out: &mut Vec<u32>,
        keys: &[u32],
        skip: u32,
        buckets: &[u32],
        mut count: impl FnMut(u32) -> u64,
    ) {
        out.clear();
        self.ends.clear();
        let mut len = 0u32;
        for &b in buckets {
            let b = b as usize;
            if b >= self.cursors.len() {
                self.cursors.resize(b + 1, u32::MAX);
            }
            let c = &mut self.cursors[b];
            assert!(*c == u32::MAX, "bucket {b} listed twice");
            *c = len;
            len = u64::from(len)
                .checked_add(count(b as u32))
                .and_then(|end| u32::try_from(end).ok())
                .filter(|&end| end < u32::MAX)
                .expect("fewer than 2^32 - 1 items");
            self.ends.push(len);
        }
        let len = len as usize;
        out.reserve(len);
        let spare = &mut out.spare_capacity_mut()[..len];
        for (i, &k) in keys.iter().enumerate() {
            if k != skip {
                let c = &mut self.cursors[k as usize];
                spare[*c as usize].write(i as u32);
                *c += 1;
            }
        }
        let mut tiled = true;
        for (&b, &end) in buckets.iter().zip(&self.ends) {
            let c = &mut self.cursors[b as usize];
            tiled &= *c == end;
            *c = u32::MAX;
        }
        assert!(tiled, "the items by bucket do not match their counts");
        // SAFETY: the listed buckets are distinct (asserted as their cursors were set) and
        // their ranges, from each one's start to its end in `ends`, tile `0..len`. Each
        // bucket's cursor ran from its start to its end (asserted above), one step per item,
        // writing the position it stood at: every position of `0..len` was written.
        unsafe { out.set_len(len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_copied_whole_at_any_size() {
        let mut v = vec![9u8];
        extend_groups::<u8, &[u8], 4>(&mut v, 2, 4, |k| [&[1, 2, 3, 4][..], &[5, 6, 7, 8]][k]);
        extend_groups::<u8, [u8; 3], 0>(&mut v, 2, 3, |k| [k as u8; 3]);
        extend_groups::<u8, [u8; 1], 4>(&mut v, 0, 1, |_| unreachable!());
        assert_eq!(v, [9, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 1, 1, 1]);
    }

    #[test]
    #[should_panic]
    fn a_short_group_panics() {
        let mut v: Vec<u32> = Vec::new();
        extend_groups::<u32, [u32; 1], 2>(&mut v, 1, 2, |_| [7]);
    }

    #[test]
    fn placement_groups_by_bucket_in_index_order() {
        let mut p = Placement::default();
        let mut out = vec![77];
        let keys = [2, 0, 2, 9, 5, 0, 2];
        let counts = |b: u32| keys.iter().filter(|&&k| k == b).count() as u64;
        p.place(&mut out, &keys, 9, &[5, 2, 0], counts);
        assert_eq!(out, [4, 0, 2, 6, 1, 5]);
        // The cursors are reset: the next call starts afresh, with other buckets.
        p.place(
            &mut out,
            &[1, 1, 3],
            9,
            &[3, 1],
            |b| if b == 1 { 2 } else { 1 },
        );
        assert_eq!(out, [2, 0, 1]);
        p.place(&mut out, &[], 9, &[], |_| 0);
        assert!(out.is_empty());
    }

    #[test]
    #[should_panic(expected = "do not match")]
    fn a_wrong_count_panics() {
        Placement::default().place(&mut Vec::new(), &[0, 1], 9, &[0, 1], |b| u64::from(b) + 1);
    }

    #[test]
    #[should_panic]
    fn an_unlisted_bucket_panics() {
        let mut p = Placement::default();
        p.place(&mut Vec::new(), &[0, 1, 2], 9, &[0, 1, 2], |_| 1);
        // Bucket 2 has a cursor from the call before, reset to the sentinel.
        p.place(&mut Vec::new(), &[0, 2], 9, &[0], |_| 1);
    }

    #[test]
    #[should_panic(expected = "listed twice")]
    fn a_bucket_listed_twice_panics() {
        Placement::default().place(&mut Vec::new(), &[0], 9, &[0, 0], |b| u64::from(b == 0));
    }
}
