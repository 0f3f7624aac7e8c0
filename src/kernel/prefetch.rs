//! Hints to the caches for the write path: where the CPU has them (x86-64, whose baseline
//! includes them: no kernel set switches them off), asks for lines the next rows will touch;
//! elsewhere nothing. A prefetch reads nothing and never faults, whatever the address, so none
//! of these can change a result.

/// Asks for the first `lines` cache lines from `v`'s address, for reading.
#[inline(always)]
pub fn read<T>(v: &T, lines: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let at = std::ptr::from_ref(v).cast::<i8>();
        for line in 0..lines {
            // SAFETY: a prefetch only hints at the caches (see the module comment).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(64 * line)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (v, lines);
}

/// Asks for the line after the one `v`'s next element goes to, for writing: past the capacity
/// it is dropped like any unneeded prefetch.
#[inline(always)]
pub fn next_write<T>(v: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_ET0, _mm_prefetch};
        let ahead = v
            .as_ptr()
            .wrapping_add(v.len())
            .cast::<i8>()
            .wrapping_add(64);
        // SAFETY: a prefetch only hints at the caches (see the module comment).
        unsafe { _mm_prefetch::<_MM_HINT_ET0>(ahead) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = v;
}
