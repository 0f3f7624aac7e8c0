//! Hints to the caches for the write path: where the CPU has them (x86-64), asks for lines the
//! next rows will touch; elsewhere nothing. A prefetch reads nothing and never faults, whatever
//! the address, so none of these can change a result.

/// Asks for the line after the one `v`'s next element goes to, for writing: past the capacity
/// it is dropped like any unneeded prefetch.
#[inline(always)]
pub(crate) fn next_write<T>(v: &[T]) {
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
