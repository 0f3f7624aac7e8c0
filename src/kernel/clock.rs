//! The per-row clock's draws on AVX-512 (`keygen::timeseries::Clock`, whose scalar draws these
//! equal bit for bit): `rng::below32(rng::draw_keyed(key, id), step)` for consecutive ids, 8
//! per vector.

#[cfg(target_arch = "x86_64")]
use super::Avx512;

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// `out[i]` = the draw of id `from + i` under `key`, below `step` (< 2^32).
    #[inline]
    pub fn clock_draws(self, key: u64, step: u64, from: u64, out: &mut [u64]) {
        // SAFETY: the token proves the CPU has AVX-512 F and DQ, the kernel's features.
        unsafe { x86::draws(key, step, from, out) }
    }

    /// The sum of the draws of ids `from .. from + n` (as [`Avx512::clock_draws`]; the caller
    /// keeps it inside 64 bits: fewer than 2^32 draws below 2^32).
    #[inline]
    pub fn clock_sum(self, key: u64, step: u64, from: u64, n: u64) -> u64 {
        // SAFETY: as above.
        unsafe { x86::sum(key, step, from, n) }
    }
}

/// Draws on AVX-512, 8 per vector: [`rng::draw_keyed`] then [`rng::below32`], written out so
/// that only splitmix's two multiplies take the slow 64-bit `vpmullq`. The counter's product
/// steps by `8·C` per vector instead of a multiply, and `below32`'s products of two 32-bit
/// halves are `vpmuludq` (the compiler made all five `vpmullq` from the scalar loop).
#[cfg(target_arch = "x86_64")]
mod x86 {
    use crate::keygen::rng;
    use std::arch::x86_64::*;

    /// Draws of ids `from + 8·v + 0..8`, vector `v` of a walk from `from`.
    #[derive(Clone, Copy)]
    struct Draws {
        counter: __m512i,
        stride: __m512i,
        key: __m512i,
        step: __m512i,
    }

    impl Draws {
        #[inline]
        #[target_feature(enable = "avx512f,avx512dq")]
        fn new(key: u64, step: u64, from: u64) -> Draws {
            let lanes: [u64; 8] =
                std::array::from_fn(|j| from.wrapping_add(j as u64).wrapping_mul(rng::COUNTER_MUL));
            Draws {
                // SAFETY: an 8-word array.
                counter: unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) },
                stride: _mm512_set1_epi64(rng::COUNTER_MUL.wrapping_mul(8) as i64),
                key: _mm512_set1_epi64(key as i64),
                step: _mm512_set1_epi64(step as i64),
            }
        }

        /// The next 8 draws.
        #[inline]
        #[target_feature(enable = "avx512f,avx512dq")]
        fn next(&mut self) -> __m512i {
            let z = _mm512_add_epi64(
                _mm512_xor_si512(self.counter, self.key),
                _mm512_set1_epi64(rng::GOLDEN as i64),
            );
            let z = _mm512_mullo_epi64(
                _mm512_xor_si512(z, _mm512_srli_epi64::<30>(z)),
                _mm512_set1_epi64(rng::MIX1 as i64),
            );
            let z = _mm512_mullo_epi64(
                _mm512_xor_si512(z, _mm512_srli_epi64::<27>(z)),
                _mm512_set1_epi64(rng::MIX2 as i64),
            );
            let w = _mm512_xor_si512(z, _mm512_srli_epi64::<31>(z));
            // below32: ((w >> 32)·n + ((w mod 2^32)·n >> 32)) >> 32, each product 32 × 32 bits.
            let hi = _mm512_mul_epu32(_mm512_srli_epi64::<32>(w), self.step);
            let lo = _mm512_srli_epi64::<32>(_mm512_mul_epu32(w, self.step));
            self.counter = _mm512_add_epi64(self.counter, self.stride);
            _mm512_srli_epi64::<32>(_mm512_add_epi64(hi, lo))
        }
    }

    /// `out[i]` = the draw of id `from + i`.
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn draws(key: u64, step: u64, from: u64, out: &mut [u64]) {
        let mut draws = Draws::new(key, step, from);
        let mut chunks = out.chunks_exact_mut(8);
        for c in &mut chunks {
            // SAFETY: 8 words.
            unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), draws.next()) };
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let mut last = [0u64; 8];
            // SAFETY: an 8-word array.
            unsafe { _mm512_storeu_si512(last.as_mut_ptr().cast(), draws.next()) };
            rest.copy_from_slice(&last[..rest.len()]);
        }
    }

    /// The sum of the draws of ids `from .. from + n` (the last vector masked to its ids).
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn sum(key: u64, step: u64, from: u64, n: u64) -> u64 {
        let mut draws = Draws::new(key, step, from);
        let mut acc = _mm512_setzero_si512();
        for _ in 0..n / 8 {
            acc = _mm512_add_epi64(acc, draws.next());
        }
        let rest = (n % 8) as u32;
        if rest > 0 {
            acc = _mm512_mask_add_epi64(acc, ((1u32 << rest) - 1) as u8, acc, draws.next());
        }
        _mm512_reduce_add_epi64(acc) as u64
    }
}
