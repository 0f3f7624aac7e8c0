//! The flush's key selection on AVX-512: the copy pass of `SortScratch::select_coded`
//! (`engine/state/keysort.rs`, whose scalar loop this equals bit for bit).

#[cfg(target_arch = "x86_64")]
use super::Avx512;

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The copy pass over `codes` (whole vectors of 16; the first one row `i0`): each row whose
    /// bucket `((c - base) >> down) << up` is marked in `marks` (bit `b % 64` of `marks[b / 64]`)
    /// goes to `out[run[b]]` as `c << 32 | row`, and `run[b]` steps on. 16 rows' buckets at
    /// once, their bits gathered, and only the rows of marked buckets (about one in six)
    /// copied one by one. Panics, as the scalar loop does, where a bucket is past `marks`,
    /// `run` or its room in `out`.
    #[inline]
    pub fn copy_marked(
        self,
        codes: &[u32],
        i0: u64,
        shifts: (u32, u32, u32),
        marks: &[u64],
        run: &mut [u32],
        out: &mut [u64],
    ) {
        // SAFETY: the token proves the CPU has AVX-512F, the kernel's only feature.
        unsafe { copy_marked(codes, i0, shifts, marks, run, out) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn copy_marked(
    codes: &[u32],
    i0: u64,
    (base, down, up): (u32, u32, u32),
    marks: &[u64],
    run: &mut [u32],
    out: &mut [u64],
) {
    use std::arch::x86_64::*;
    let (vbase, vdown, vup) = (
        _mm512_set1_epi32(base as i32),
        _mm_cvtsi32_si128(down as i32),
        _mm_cvtsi32_si128(up as i32),
    );
    let (five, low5, one) = (
        _mm_cvtsi32_si128(5),
        _mm512_set1_epi32(31),
        _mm512_set1_epi32(1),
    );
    // The marks as 32-bit words (little-endian: bit b is bit b % 32 of word b / 32).
    let words = marks.as_ptr().cast::<i32>();
    // The last word: a bucket's word past it stops the pass, as `marks[b / 64]` would.
    let Some(last) = (2 * marks.len()).checked_sub(1) else {
        assert!(codes.len() < 16, "a bucket past the marks");
        return;
    };
    let last = _mm512_set1_epi32(last.min(i32::MAX as usize) as i32);
    let (mut cs, mut bs) = ([0u32; 16], [0u32; 16]);
    for (k, chunk) in codes.chunks_exact(16).enumerate() {
        // SAFETY: 16 words.
        let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
        let b = _mm512_sll_epi32(_mm512_srl_epi32(_mm512_sub_epi32(v, vbase), vdown), vup);
        let at = _mm512_srl_epi32(b, five);
        assert!(
            _mm512_cmpgt_epu32_mask(at, last) == 0,
            "a bucket past the marks"
        );
        // SAFETY: every word index is at most `last`, inside `marks` (asserted above).
        let w = unsafe { _mm512_i32gather_epi32::<4>(at, words) };
        let bit = _mm512_srlv_epi32(w, _mm512_and_si512(b, low5));
        let mut m = _mm512_test_epi32_mask(bit, one);
        if m == 0 {
            continue;
        }
        // SAFETY: 16-word arrays.
        unsafe {
            _mm512_storeu_si512(cs.as_mut_ptr().cast(), v);
            _mm512_storeu_si512(bs.as_mut_ptr().cast(), b);
        }
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            m &= m - 1;
            let at = &mut run[bs[j] as usize];
            out[*at as usize] = (u64::from(cs[j]) << 32) | (i0 + (16 * k + j) as u64);
            *at += 1;
        }
    }
}
