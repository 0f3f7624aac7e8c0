//! Multi-buffer MD5 (RFC 1321) for short messages: up to 16 one-block messages (≤ 55 bytes)
//! hashed side by side in SIMD lanes — AVX-512 (16 lanes) or AVX2 (8 lanes), chosen at run time.
//! Without either, each message goes through the `md-5` crate, which also serves as the
//! reference the tests compare against bit for bit.
//!
//! Key generators hash one short message per row (8 bytes for `hashed` and `md5-prefix`). The
//! scalar crate runs one message's 64 dependent steps at a time; lanes run many messages' steps
//! side by side, and the 8-byte kernel (32 lanes in two vectors) writes every step out so that
//! round function, word and constants are fixed at compile time (per-key costs:
//! docs/PERFORMANCE.md).

/// Messages per batch (the widest lane count).
pub const LANES: usize = 16;

/// Longest message that fits one MD5 block (64 bytes minus the 0x80 byte and the 8-byte length).
pub const MAX_LEN: usize = 55;

/// The per-step additive constants: `floor(|sin(i + 1)| · 2^32)`.
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
const S: [[u32; 4]; 4] = [
    [7, 12, 17, 22],
    [5, 9, 14, 20],
    [4, 11, 16, 23],
    [6, 10, 15, 21],
];

/// The initial state (A, B, C, D).
const INIT: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];

/// Message word used by step `i`.
const fn word(i: usize) -> usize {
    match i / 16 {
        0 => i,
        1 => (5 * i + 1) % 16,
        2 => (3 * i + 5) % 16,
        _ => (7 * i) % 16,
    }
}

/// Which implementation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// 16 lanes of 32 bits.
    Avx512,
    /// 8 lanes of 32 bits, two passes per batch.
    Avx2,
    /// The `md-5` crate, one message at a time.
    Scalar,
}

impl Backend {
    /// The widest backend this CPU runs.
    pub fn detect() -> Backend {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Backend::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Backend::Avx2;
            }
        }
        Backend::Scalar
    }
}

/// Up to [`LANES`] short messages, each already padded into its own 64-byte block.
#[derive(Clone)]
pub struct Batch {
    backend: Backend,
    /// Padded blocks, lane `i` at `blocks[i]` (unused lanes hash garbage that nobody reads).
    blocks: [[u8; 64]; LANES],
    lens: [u8; LANES],
    n: usize,
    /// Digests of the last [`Batch::run`].
    digests: [[u8; 16]; LANES],
}

impl Batch {
    /// An empty batch on the best backend of this CPU.
    pub fn new() -> Batch {
        Batch::with_backend(Backend::detect())
    }

    /// An empty batch on `backend` (tests force each one; an unsupported SIMD backend falls back
    /// to [`Backend::Scalar`]).
    pub fn with_backend(backend: Backend) -> Batch {
        let supported = match backend {
            Backend::Scalar => true,
            Backend::Avx2 => Backend::detect() != Backend::Scalar,
            Backend::Avx512 => Backend::detect() == Backend::Avx512,
        };
        let backend = if supported { backend } else { Backend::Scalar };
        Batch {
            backend,
            blocks: [[0; 64]; LANES],
            lens: [0; LANES],
            n: 0,
            digests: [[0; 16]; LANES],
        }
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Messages queued.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when no message is queued.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// True when the batch holds [`LANES`] messages.
    pub fn is_full(&self) -> bool {
        self.n == LANES
    }

    /// Queues `msg` (at most [`MAX_LEN`] bytes; the batch must not be full).
    #[inline]
    pub fn push(&mut self, msg: &[u8]) {
        assert!(msg.len() <= MAX_LEN && self.n < LANES, "one-block message");
        let b = &mut self.blocks[self.n];
        *b = [0; 64];
        b[..msg.len()].copy_from_slice(msg);
        b[msg.len()] = 0x80;
        b[56..].copy_from_slice(&(msg.len() as u64 * 8).to_le_bytes());
        self.lens[self.n] = msg.len() as u8;
        self.n += 1;
    }

    /// Hashes the queued messages; their digests are then [`Batch::digest`]`(0..len)`. Empties
    /// the queue.
    pub fn run(&mut self) {
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `with_backend` keeps Avx512/Avx2 only where the CPU has the feature.
            Backend::Avx512 => unsafe { x86::avx512(&self.blocks, &mut self.digests) },
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => {
                let (lo, hi) = self.blocks.split_at(8);
                let (dlo, dhi) = self.digests.split_at_mut(8);
                // SAFETY: as above.
                unsafe {
                    x86::avx2(lo.try_into().expect("8"), dlo.try_into().expect("8"));
                    if self.n > 8 {
                        x86::avx2(hi.try_into().expect("8"), dhi.try_into().expect("8"));
                    }
                }
            }
            _ => {
                for i in 0..self.n {
                    let len = self.lens[i] as usize;
                    self.digests[i] = super::enc::md5(&self.blocks[i][..len]);
                }
            }
        }
        self.n = 0;
    }

    /// The digest of message `i` of the last run.
    #[inline]
    pub fn digest(&self, i: usize) -> &[u8; 16] {
        &self.digests[i]
    }
}

impl Default for Batch {
    fn default() -> Batch {
        Batch::new()
    }
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("backend", &self.backend)
            .field("queued", &self.n)
            .finish()
    }
}

/// Messages per [`Batch8`]: two 16-lane vectors whose rounds interleave, so that one vector's
/// chain of dependent steps runs while the other's waits on its latency.
pub const LANES8: usize = 32;

/// Up to [`LANES8`] messages of exactly 8 bytes (what `hashed` and `md5-prefix` hash per row).
/// A lane needs only its two message words: the rest of the padded block is the same for every
/// lane (0x80, zeros, the bit length 64), so the AVX-512 kernel loads two vectors instead of
/// gathering sixteen, and folds the constant words into the step constants.
#[derive(Clone)]
pub struct Batch8 {
    backend: Backend,
    /// Message words 0 and 1 (little-endian) of each lane.
    w0: [u32; LANES8],
    w1: [u32; LANES8],
    n: usize,
    /// Digest words of the last run: word `j` of message `i` at `words[j][i]`.
    words: [[u32; LANES8]; 4],
}

impl Batch8 {
    /// An empty batch on the best backend of this CPU.
    pub fn new() -> Batch8 {
        Batch8::with_backend(Backend::detect())
    }

    /// An empty batch on `backend` (an unsupported one falls back as [`Batch`]'s does).
    pub fn with_backend(backend: Backend) -> Batch8 {
        Batch8 {
            backend: Batch::with_backend(backend).backend(),
            w0: [0; LANES8],
            w1: [0; LANES8],
            n: 0,
            words: [[0; LANES8]; 4],
        }
    }

    /// Messages queued.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when no message is queued.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// True when the batch holds [`LANES8`] messages.
    pub fn is_full(&self) -> bool {
        self.n == LANES8
    }

    /// Queues `msg` (the batch must not be full).
    #[inline]
    pub fn push(&mut self, msg: [u8; 8]) {
        let [a, b, c, d, e, f, g, h] = msg;
        self.w0[self.n] = u32::from_le_bytes([a, b, c, d]);
        self.w1[self.n] = u32::from_le_bytes([e, f, g, h]);
        self.n += 1;
    }

    /// Replaces the queue with `n` messages (at most [`LANES8`]), message `i`'s two words
    /// (little-endian, as [`Batch8::push`] reads its bytes) being `words(i)`: for callers
    /// that have the words at hand, without a byte array per message.
    #[inline]
    pub fn load(&mut self, n: usize, mut words: impl FnMut(usize) -> (u32, u32)) {
        assert!(n <= LANES8, "at most {LANES8} messages");
        for i in 0..n {
            (self.w0[i], self.w1[i]) = words(i);
        }
        self.n = n;
    }

    /// Hashes the queued messages; their digests are then [`Batch8::digest`]`(0..len)`.
    /// Empties the queue.
    pub fn run(&mut self) {
        self.run_as::<false>();
    }

    /// [`Batch8::run`] for [`Batch8::head`] only (`hashed` keys print 4 digest bytes): the
    /// AVX-512 kernel skips the steps after the first word is final. [`Batch8::digest`] is
    /// then not valid.
    pub fn run_heads(&mut self) {
        self.run_as::<true>();
    }

    fn run_as<const HEAD: bool>(&mut self) {
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `with_backend` keeps Avx512 only where the CPU has the feature.
            Backend::Avx512 => unsafe {
                x86::avx512_8::<HEAD>(&self.w0, &self.w1, &mut self.words)
            },
            _ => {
                // Other backends hash the padded blocks, `Batch`'s way.
                let mut batch = Batch::with_backend(self.backend);
                for from in (0..self.n).step_by(LANES) {
                    let to = (from + LANES).min(self.n);
                    for i in from..to {
                        let mut m = [0u8; 8];
                        m[..4].copy_from_slice(&self.w0[i].to_le_bytes());
                        m[4..].copy_from_slice(&self.w1[i].to_le_bytes());
                        batch.push(&m);
                    }
                    batch.run();
                    for i in from..to {
                        let d = batch.digest(i - from);
                        for (j, w) in self.words.iter_mut().enumerate() {
                            w[i] = u32::from_le_bytes([
                                d[4 * j],
                                d[4 * j + 1],
                                d[4 * j + 2],
                                d[4 * j + 3],
                            ]);
                        }
                    }
                }
            }
        }
        self.n = 0;
    }

    /// The first digest word of every lane (of the last run; lanes past its messages hold
    /// leftovers): [`Batch8::head`]`(i)` is `heads()[i]`'s little-endian bytes.
    #[inline]
    pub fn heads(&self) -> &[u32; LANES8] {
        &self.words[0]
    }

    /// The first 4 bytes of message `i`'s digest (of the last run).
    #[inline]
    pub fn head(&self, i: usize) -> [u8; 4] {
        self.words[0][i].to_le_bytes()
    }

    /// The digest of message `i` of the last run.
    #[inline]
    pub fn digest(&self, i: usize) -> [u8; 16] {
        let mut d = [0u8; 16];
        for (j, w) in self.words.iter().enumerate() {
            d[4 * j..4 * j + 4].copy_from_slice(&w[i].to_le_bytes());
        }
        d
    }
}

impl Default for Batch8 {
    fn default() -> Batch8 {
        Batch8::new()
    }
}

impl std::fmt::Debug for Batch8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch8")
            .field("backend", &self.backend)
            .field("queued", &self.n)
            .finish()
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
    pub(super) unsafe fn avx512(blocks: &[[u8; 64]; 16], out: &mut [[u8; 16]; 16]) {
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
    pub(super) unsafe fn avx512_8<const HEAD: bool>(
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
    pub(super) unsafe fn avx2(blocks: &[[u8; 64]; 8], out: &mut [[u8; 16]; 8]) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::enc::md5;
    use proptest::prelude::*;

    fn backends() -> Vec<Backend> {
        let mut v = vec![Backend::Scalar];
        match Backend::detect() {
            Backend::Avx512 => v.extend([Backend::Avx2, Backend::Avx512]),
            Backend::Avx2 => v.push(Backend::Avx2),
            Backend::Scalar => {}
        }
        v
    }

    /// Every backend equals `md-5` bit for bit on pseudo-random messages of every one-block
    /// length (0..=55: `hashed`/`md5-prefix` hash 8 bytes, `md5-legacy` 1..=20 decimal digits),
    /// in full and partial batches.
    #[test]
    fn every_backend_matches_md5_crate_for_every_length() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        };
        for backend in backends() {
            let mut batch = Batch::with_backend(backend);
            assert_eq!(batch.backend(), backend);
            for round in 0..200 {
                let mut msgs = Vec::new();
                let count = 1 + round % LANES;
                for j in 0..count {
                    let len = (round * 7 + j * 13) % (MAX_LEN + 1);
                    let m: Vec<u8> = (0..len).map(|_| next()).collect();
                    batch.push(&m);
                    msgs.push(m);
                }
                batch.run();
                for (j, m) in msgs.iter().enumerate() {
                    assert_eq!(batch.digest(j), &md5(m), "{backend:?} len {}", m.len());
                }
            }
        }
    }

    #[test]
    fn rfc1321_vectors() {
        for backend in backends() {
            let mut batch = Batch::with_backend(backend);
            batch.push(b"");
            batch.push(b"abc");
            batch.run();
            assert_eq!(
                batch.digest(0),
                &[
                    0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04, 0xe9, 0x80, 0x09, 0x98, 0xec,
                    0xf8, 0x42, 0x7e
                ]
            );
            assert_eq!(batch.digest(1), &md5(b"abc"));
        }
    }

    /// `Batch8` equals `md-5` on every backend, in full and partial batches.
    #[test]
    fn batch8_matches_md5_crate() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for backend in backends() {
            let mut batch = Batch8::with_backend(backend);
            for count in [1, 7, 16, 17, LANES8] {
                let msgs: Vec<[u8; 8]> = (0..count)
                    .map(|_| {
                        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        x.to_le_bytes()
                    })
                    .collect();
                for m in &msgs {
                    batch.push(*m);
                }
                assert_eq!(batch.len(), count);
                batch.run();
                assert!(batch.is_empty());
                for (j, m) in msgs.iter().enumerate() {
                    assert_eq!(
                        batch.digest(j),
                        md5(m),
                        "{backend:?} {count} lanes, lane {j}"
                    );
                    assert_eq!(batch.head(j), md5(m)[..4], "{backend:?}");
                }
                for m in &msgs {
                    batch.push(*m);
                }
                batch.run_heads();
                for (j, m) in msgs.iter().enumerate() {
                    assert_eq!(batch.head(j), md5(m)[..4], "heads, {backend:?}, lane {j}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn prop_batch_equals_md5_crate(msgs in proptest::collection::vec(
            proptest::collection::vec(any::<u8>(), 0..=MAX_LEN), 1..=LANES)) {
            for backend in backends() {
                let mut batch = Batch::with_backend(backend);
                for m in &msgs {
                    batch.push(m);
                }
                batch.run();
                for (j, m) in msgs.iter().enumerate() {
                    prop_assert_eq!(batch.digest(j), &md5(m));
                }
            }
        }
    }
}
