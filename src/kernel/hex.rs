//! `hashed` keys formatted from their digest heads on AVX-512: 8 hex characters of the head,
//! then the id's 8 bytes big-endian (`keygen::hashed`, whose scalar loop these equal bit for
//! bit).

#[cfg(target_arch = "x86_64")]
use super::Avx512;

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// Appends to `arena` the 16-byte `hashed` key of each id `first + j` whose digest head
    /// prints `codes[j]` (8 lowercase hex digits of it, then the id big-endian), and to `ends`
    /// each key's end in the arena.
    #[inline]
    pub fn hashed_keys(self, codes: &[u32], first: u64, arena: &mut Vec<u8>, ends: &mut Vec<u32>) {
        // SAFETY: the token proves the CPU has AVX-512 F, BW and VL, the kernel's features.
        unsafe { hashed_keys(codes, first, arena, ends) }
    }
}

/// [`Avx512::hashed_keys`]: 8 keys per vector, each code spread to one nibble per byte and
/// mapped to its hex character by a byte shuffle, beside its id byte-swapped; written straight
/// into the arena's and ends' spare room (staged on the stack, the copies out were a libc
/// memmove call and a scalar loop per block).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn hashed_keys(codes: &[u32], first: u64, arena: &mut Vec<u8>, ends: &mut Vec<u32>) {
    use std::arch::x86_64::*;
    let n = codes.len();
    let base = arena.len();
    // Whole vectors are stored: room for up to 7 keys past the last.
    arena.reserve(16 * (n + 8));
    ends.reserve(n + 8);
    let (arena_vec, ends_vec) = (arena, ends);
    let keys = arena_vec.spare_capacity_mut().as_mut_ptr().cast::<u8>();
    let ends = ends_vec.spare_capacity_mut().as_mut_ptr().cast::<u32>();
    // Each end is 16 bytes past the one before, from the arena's length.
    let step_ends = _mm256_setr_epi32(16, 32, 48, 64, 80, 96, 112, 128);
    // SAFETY: a 16-byte array.
    let digits =
        _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(b"0123456789abcdef".as_ptr().cast()) });
    // Reverses each 8-byte lane (the spread puts the first character in the top byte).
    let reverse = _mm512_broadcast_i32x4(_mm_setr_epi8(
        7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
    ));
    let mask = |m: u64| _mm512_set1_epi64(m as i64);
    let lanes = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    // Keys 0..4 and 4..8 of a vector: (hex, id) pairs from the hex and id vectors.
    let (lo, hi) = (
        _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11),
        _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15),
    );
    for v in 0..n.div_ceil(8) {
        let take = (n - 8 * v).min(8);
        // SAFETY: `take` codes from 8·v on (the rest of the vector zeroed).
        let code = unsafe {
            _mm256_maskz_loadu_epi32(((1u16 << take) - 1) as u8, codes.as_ptr().add(8 * v).cast())
        };
        let x = _mm512_cvtepu32_epi64(code);
        let x = _mm512_or_si512(
            _mm512_slli_epi64::<16>(_mm512_and_si512(x, mask(0xFFFF_0000))),
            _mm512_and_si512(x, mask(0xFFFF)),
        );
        let x = _mm512_or_si512(
            _mm512_slli_epi64::<8>(_mm512_and_si512(x, mask(0x0000_FF00_0000_FF00))),
            _mm512_and_si512(x, mask(0x0000_00FF_0000_00FF)),
        );
        let x = _mm512_or_si512(
            _mm512_slli_epi64::<4>(_mm512_and_si512(x, mask(0x00F0_00F0_00F0_00F0))),
            _mm512_and_si512(x, mask(0x000F_000F_000F_000F)),
        );
        let hex = _mm512_shuffle_epi8(_mm512_shuffle_epi8(digits, x), reverse);
        let ids = _mm512_add_epi64(
            _mm512_set1_epi64(first.wrapping_add(8 * v as u64) as i64),
            lanes,
        );
        let ids = _mm512_shuffle_epi8(ids, reverse);
        // SAFETY: keys 8·v .. 8·v + 8 and their ends, within the room reserved above.
        unsafe {
            let at = keys.add(128 * v);
            _mm512_storeu_si512(at.cast(), _mm512_permutex2var_epi64(hex, lo, ids));
            _mm512_storeu_si512(at.add(64).cast(), _mm512_permutex2var_epi64(hex, hi, ids));
            let end = _mm256_set1_epi32((base + 128 * v) as i32);
            _mm256_storeu_si256(ends.add(8 * v).cast(), _mm256_add_epi32(end, step_ends));
        }
    }
    // SAFETY: the first n keys and ends were written above.
    unsafe {
        arena_vec.set_len(base + 16 * n);
        ends_vec.set_len(ends_vec.len() + n);
    }
}
