//! Multi-buffer MD5 (RFC 1321) kernels: one-block messages hashed side by side in the lanes of
//! AVX-512 (16 lanes) or AVX2 (8) vectors. `keygen::md5x` batches the messages, and hashes them
//! with the `md-5` crate where these do not run; its tests compare every kernel with that crate
//! bit for bit.

#[cfg(target_arch = "x86_64")]
use super::{Avx2, Avx512};

/// The per-step additive constants: `floor(|sin(i + 1)| · 2^32)`.
#[cfg(target_arch = "x86_64")]
const K: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// Left-rotation amounts per round (each round repeats its four amounts four times).
#[cfg(target_arch = "x86_64")]
const S: [[u32; 4]; 4] = [
    [7, 12, 17, 22],
    [5, 9, 14, 20],
    [4, 11, 16, 23],
    [6, 10, 15, 21],
];

/// The initial state (A, B, C, D).
#[cfg(target_arch = "x86_64")]
const INIT: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];

/// Message word used by step `i`.
#[cfg(target_arch = "x86_64")]
const fn word(i: usize) -> usize {
    match i / 16 {
        0 => i,
        1 => (5 * i + 1) % 16,
        2 => (3 * i + 5) % 16,
        _ => (7 * i) % 16,
    }
}

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The digests of 16 one-block messages, `blocks[i]` being message `i` padded into its
    /// block.
    #[inline]
    pub fn md5_blocks(self, blocks: &[[u8; 64]; 16], out: &mut [[u8; 16]; 16]) {
        // SAFETY: the token proves the CPU has AVX-512F, the kernel's only feature.
        unsafe { x86::avx512(blocks, out) }
    }

    /// The digests of 32 messages of 8 bytes, message `i` being the little-endian words
    /// `w0[i]`, `w1[i]`: digest word `j` of message `i` goes to `out[j][i]`. `HEAD`: only
    /// `out[0]`, the first word (the others are left alone).
    #[inline]
    pub fn md5_words<const HEAD: bool>(
        self,
        w0: &[u32; 32],
        w1: &[u32; 32],
        out: &mut [[u32; 32]; 4],
    ) {
        // SAFETY: the token proves the CPU has AVX-512F, the kernel's only feature.
        unsafe { x86::avx512_8::<HEAD>(w0, w1, out) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The digests of 8 one-block messages, `blocks[i]` being message `i` padded into its block.
    #[inline]
    pub fn md5_blocks(self, blocks: &[[u8; 64]; 8], out: &mut [[u8; 16]; 8]) {
        // SAFETY: the token proves the CPU has AVX2, the kernel's only feature.
        unsafe { x86::avx2(blocks, out) }
    }
}

/// Invokes `$step!(i)` for the 64 MD5 steps in order, each `i` a literal: every step's round
/// function, word, additive constant and rotation are then constants, and the state's rotation
/// needs no register moves (as a loop, the compiler kept both, twice the step's own work).
#[cfg(target_arch = "x86_64")]
macro_rules! md5_steps {
    ($step:ident) => {
        $step!(0);
        $step!(1);
        $step!(2);
        $step!(3);
        $step!(4);
        $step!(5);
        $step!(6);
        $step!(7);
        $step!(8);
        $step!(9);
        $step!(10);
        $step!(11);
        $step!(12);
        $step!(13);
        $step!(14);
        $step!(15);
        $step!(16);
        $step!(17);
        $step!(18);
        $step!(19);
        $step!(20);
        $step!(21);
        $step!(22);
        $step!(23);
        $step!(24);
        $step!(25);
        $step!(26);
        $step!(27);
        $step!(28);
        $step!(29);
        $step!(30);
        $step!(31);
        $step!(32);
        $step!(33);
        $step!(34);
        $step!(35);
        $step!(36);
        $step!(37);
        $step!(38);
        $step!(39);
        $step!(40);
        $step!(41);
        $step!(42);
        $step!(43);
        $step!(44);
        $step!(45);
        $step!(46);
        $step!(47);
        $step!(48);
        $step!(49);
        $step!(50);
        $step!(51);
        $step!(52);
        $step!(53);
        $step!(54);
        $step!(55);
        $step!(56);
        $step!(57);
        $step!(58);
        $step!(59);
        $step!(60);
        $step!(61);
        $step!(62);
        $step!(63);
    };
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{INIT, K, S, word};
    use std::arch::x86_64::*;

    /// One MD5 step `$i` (a literal, as [`md5_steps`] gives it) on the 16-lane states `$st`
    /// (`[a, b, c, d]` each); `$mk(i, state)` gives the word plus the constant for one state.
    macro_rules! step512 {
        ($i:literal, [$($st:ident),+], $mk:expr) => {{
            const I: usize = $i;
            $(
                let [a, b, c, d] = $st;
                let f = match I / 16 {
                    // F = (b & c) | (!b & d), G = (b & d) | (c & !d), H = b ^ c ^ d,
                    // I = c ^ (b | !d): each one ternary-logic instruction (truth tables
                    // over (b, c, d)).
                    0 => _mm512_ternarylogic_epi32::<0xCA>(b, c, d),
                    1 => _mm512_ternarylogic_epi32::<0xE4>(b, c, d),
                    2 => _mm512_ternarylogic_epi32::<0x96>(b, c, d),
                    _ => _mm512_ternarylogic_epi32::<0x39>(b, c, d),
                };
                // `a + (word + K)` does not wait for `f`: one add less on the step's chain.
                let t = _mm512_add_epi32(_mm512_add_epi32(a, $mk(I, &$st)), f);
                let t = _mm512_rol_epi32::<{ S[I / 16][I % 4] as i32 }>(t);
                $st = [d, _mm512_add_epi32(b, t), b, c];
            )+
        }};
    }

    /// 16 one-block digests in the lanes of 512-bit vectors.
    #[target_feature(enable = "avx512f")]
    pub(super) fn avx512(blocks: &[[u8; 64]; 16], out: &mut [[u8; 16]; 16]) {
        // Lane i reads word w of block i at byte offset 64·i + 4·w.
        let base = _mm512_setr_epi32(
            0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240,
        );
        let p = blocks.as_ptr().cast::<i32>();
        let mut m = [_mm512_setzero_si512(); 16];
        for (w, mw) in m.iter_mut().enumerate() {
            let idx = _mm512_add_epi32(base, _mm512_set1_epi32(w as i32));
            // SAFETY: every index is inside the 1024-byte `blocks` array.
            *mw = unsafe { _mm512_i32gather_epi32::<4>(idx, p) };
        }
        let [a0, b0, c0, d0] = INIT.map(|x| _mm512_set1_epi32(x as i32));
        let mut st = [a0, b0, c0, d0];
        let mk = |i: usize, _: &[__m512i; 4]| {
            _mm512_add_epi32(m[word(i)], _mm512_set1_epi32(K[i] as i32))
        };
        macro_rules! step {
            ($i:literal) => {
                step512!($i, [st], mk)
            };
        }
        md5_steps!(step);
        let [a, b, c, d] = st;
        let mut words = [[0u32; 16]; 4];
        for (dst, (v, v0)) in words.iter_mut().zip([(a, a0), (b, b0), (c, c0), (d, d0)]) {
            // SAFETY: `dst` is 64 bytes.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), _mm512_add_epi32(v, v0)) };
        }
        for (lane, o) in out.iter_mut().enumerate() {
            for (j, w) in words.iter().enumerate() {
                o[4 * j..4 * j + 4].copy_from_slice(&w[lane].to_le_bytes());
            }
        }
    }

    /// 32 digests of 8-byte messages, in the lanes of two 512-bit vectors stepped in turn.
    /// Block words 2..16 are the padding every 8-byte message shares.
    /// `HEAD`: only the first digest word (`out[0]`; the others are left alone). That word
    /// is final after step 60 (each step's new value moves from `b` to `c`, `d`, then `a`), so
    /// the last three steps are skipped.
    #[target_feature(enable = "avx512f")]
    pub(super) fn avx512_8<const HEAD: bool>(
        w0: &[u32; 32],
        w1: &[u32; 32],
        out: &mut [[u32; 32]; 4],
    ) {
        // SAFETY: each load reads 16 words inside a 32-word array.
        let load =
            |w: &[u32; 32], h: usize| unsafe { _mm512_loadu_si512(w.as_ptr().add(16 * h).cast()) };
        let (m00, m01, m10, m11) = (load(w0, 0), load(w0, 1), load(w1, 0), load(w1, 1));
        let init = INIT.map(|x| _mm512_set1_epi32(x as i32));
        let (mut s0, mut s1) = (init, init);
        // Word plus constant of step `i` for the state `st` (`s0` or `s1`): the padding's
        // words are constants (0x80 after the message, the length in bits in word 14).
        macro_rules! mk {
            ($m0:ident, $m1:ident) => {
                |i: usize, _: &[__m512i; 4]| {
                    let pad = match word(i) {
                        2 => 0x80u32,
                        14 => 64,
                        _ => 0,
                    };
                    let k = _mm512_set1_epi32(K[i].wrapping_add(pad) as i32);
                    match word(i) {
                        0 => _mm512_add_epi32($m0, k),
                        1 => _mm512_add_epi32($m1, k),
                        _ => k,
                    }
                }
            };
        }
        let mk0 = mk!(m00, m10);
        let mk1 = mk!(m01, m11);
        macro_rules! step {
            ($i:literal) => {
                // The head is final after step 60 (a constant test: folded away).
                if !HEAD || $i <= 60 {
                    step512!($i, [s0], mk0);
                    step512!($i, [s1], mk1);
                }
            };
        }
        md5_steps!(step);
        for (h, s) in [s0, s1].iter().enumerate() {
            if HEAD {
                // Step 60's value, in `b` after 61 steps.
                // SAFETY: 16 words from word 16·h of a 32-word array.
                unsafe {
                    _mm512_storeu_si512(
                        out[0].as_mut_ptr().add(16 * h).cast(),
                        _mm512_add_epi32(s[1], init[0]),
                    )
                };
                continue;
            }
            for (j, (v, v0)) in s.iter().zip(init).enumerate() {
                // SAFETY: 16 words from word 16·h of a 32-word array.
                unsafe {
                    _mm512_storeu_si512(
                        out[j].as_mut_ptr().add(16 * h).cast(),
                        _mm512_add_epi32(*v, v0),
                    )
                };
            }
        }
    }

    /// 8 one-block digests in the lanes of 256-bit vectors.
    #[target_feature(enable = "avx2")]
    pub(super) fn avx2(blocks: &[[u8; 64]; 8], out: &mut [[u8; 16]; 8]) {
        let base = _mm256_setr_epi32(0, 16, 32, 48, 64, 80, 96, 112);
        let p = blocks.as_ptr().cast::<i32>();
        let mut m = [_mm256_setzero_si256(); 16];
        for (w, mw) in m.iter_mut().enumerate() {
            let idx = _mm256_add_epi32(base, _mm256_set1_epi32(w as i32));
            // SAFETY: every index is inside the 512-byte `blocks` array.
            *mw = unsafe { _mm256_i32gather_epi32::<4>(p, idx) };
        }
        let ones = _mm256_set1_epi32(-1);
        let [a0, b0, c0, d0] = INIT.map(|x| _mm256_set1_epi32(x as i32));
        let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
        macro_rules! step {
            ($i:literal) => {{
                const I: usize = $i;
                let f = match I / 16 {
                    0 => _mm256_xor_si256(d, _mm256_and_si256(b, _mm256_xor_si256(c, d))),
                    1 => _mm256_xor_si256(c, _mm256_and_si256(d, _mm256_xor_si256(b, c))),
                    2 => _mm256_xor_si256(_mm256_xor_si256(b, c), d),
                    _ => _mm256_xor_si256(c, _mm256_or_si256(b, _mm256_xor_si256(d, ones))),
                };
                // `a + (word + K)` does not wait for `f`.
                let t = _mm256_add_epi32(
                    _mm256_add_epi32(
                        a,
                        _mm256_add_epi32(m[word(I)], _mm256_set1_epi32(K[I] as i32)),
                    ),
                    f,
                );
                let t = _mm256_or_si256(
                    _mm256_slli_epi32::<{ S[I / 16][I % 4] as i32 }>(t),
                    _mm256_srli_epi32::<{ 32 - S[I / 16][I % 4] as i32 }>(t),
                );
                (a, b, c, d) = (d, _mm256_add_epi32(b, t), b, c);
            }};
        }
        md5_steps!(step);
        let mut words = [[0u32; 8]; 4];
        for (dst, (v, v0)) in words.iter_mut().zip([(a, a0), (b, b0), (c, c0), (d, d0)]) {
            // SAFETY: `dst` is 32 bytes.
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), _mm256_add_epi32(v, v0)) };
        }
        for (lane, o) in out.iter_mut().enumerate() {
            for (j, w) in words.iter().enumerate() {
                o[4 * j..4 * j + 4].copy_from_slice(&w[lane].to_le_bytes());
            }
        }
    }
}
