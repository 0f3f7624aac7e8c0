//! Multi-buffer MD5 (RFC 1321) for short messages: up to 16 one-block messages (≤ 55 bytes)
//! hashed side by side in SIMD lanes — AVX-512 (16 lanes) or AVX2 (8 lanes), as the active
//! kernel set ([`crate::kernel`]) allows; the lane kernels are `kernel::md5`. Without them,
//! each message goes through the `md-5` crate, which also serves as the reference the tests
//! compare against bit for bit.
//!
//! Key generators hash one short message per row (8 bytes for `hashed` and `md5-prefix`). The
//! scalar crate runs one message's 64 dependent steps at a time; lanes run many messages' steps
//! side by side (per-key costs: docs/PERFORMANCE.md).

use crate::kernel::{self, Avx2, Avx512, Kernels};

/// Messages per batch (the widest lane count).
pub const LANES: usize = 16;

/// Longest message that fits one MD5 block (64 bytes minus the 0x80 byte and the 8-byte length).
pub const MAX_LEN: usize = 55;

/// The lane kernels a batch runs: the widest of its kernel set.
#[derive(Debug, Clone, Copy)]
enum Lanes {
    /// 16 lanes of 32 bits.
    Avx512(Avx512),
    /// 8 lanes of 32 bits, two passes per batch.
    Avx2(Avx2),
    /// The `md-5` crate, one message at a time.
    Scalar,
}

impl Lanes {
    /// The widest lanes of `kernels` (narrower where the CPU does not run them).
    fn of(kernels: Kernels) -> Lanes {
        if let Some(t) = kernels.avx512() {
            Lanes::Avx512(t)
        } else if let Some(t) = kernels.avx2() {
            Lanes::Avx2(t)
        } else {
            Lanes::Scalar
        }
    }

    /// The kernel set these lanes belong to.
    fn kernels(self) -> Kernels {
        match self {
            Lanes::Avx512(_) => Kernels::Avx512,
            Lanes::Avx2(_) => Kernels::Avx2,
            Lanes::Scalar => Kernels::Scalar,
        }
    }
}

/// Up to [`LANES`] short messages, each already padded into its own 64-byte block.
#[derive(Clone)]
pub struct Batch {
    lanes: Lanes,
    /// Padded blocks, lane `i` at `blocks[i]` (unused lanes hash garbage that nobody reads).
    blocks: [[u8; 64]; LANES],
    lens: [u8; LANES],
    n: usize,
    /// Digests of the last [`Batch::run`].
    digests: [[u8; 16]; LANES],
}

impl Batch {
    /// An empty batch on the active kernel set.
    pub fn new() -> Batch {
        Batch::with_kernels(kernel::active())
    }

    /// An empty batch on `kernels` (tests force each set; where the CPU does not run it, the
    /// widest narrower set it runs).
    pub fn with_kernels(kernels: Kernels) -> Batch {
        Batch {
            lanes: Lanes::of(kernels),
            blocks: [[0; 64]; LANES],
            lens: [0; LANES],
            n: 0,
            digests: [[0; 16]; LANES],
        }
    }

    /// The kernel set in use.
    pub fn kernels(&self) -> Kernels {
        self.lanes.kernels()
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
        match self.lanes {
            #[cfg(target_arch = "x86_64")]
            Lanes::Avx512(t) => t.md5_blocks(&self.blocks, &mut self.digests),
            #[cfg(target_arch = "x86_64")]
            Lanes::Avx2(t) => {
                let (lo, hi) = self.blocks.split_at(8);
                let (dlo, dhi) = self.digests.split_at_mut(8);
                t.md5_blocks(lo.try_into().expect("8"), dlo.try_into().expect("8"));
                if self.n > 8 {
                    t.md5_blocks(hi.try_into().expect("8"), dhi.try_into().expect("8"));
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
            .field("kernels", &self.lanes.kernels())
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
    lanes: Lanes,
    /// Message words 0 and 1 (little-endian) of each lane.
    w0: [u32; LANES8],
    w1: [u32; LANES8],
    n: usize,
    /// Digest words of the last run: word `j` of message `i` at `words[j][i]`.
    words: [[u32; LANES8]; 4],
}

impl Batch8 {
    /// An empty batch on the active kernel set.
    pub fn new() -> Batch8 {
        Batch8::with_kernels(kernel::active())
    }

    /// An empty batch on `kernels` (narrowed as [`Batch::with_kernels`] does).
    pub fn with_kernels(kernels: Kernels) -> Batch8 {
        Batch8 {
            lanes: Lanes::of(kernels),
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
        match self.lanes {
            #[cfg(target_arch = "x86_64")]
            Lanes::Avx512(t) => t.md5_words::<HEAD>(&self.w0, &self.w1, &mut self.words),
            _ => {
                // Other kernels hash the padded blocks, `Batch`'s way.
                let mut batch = Batch::with_kernels(self.lanes.kernels());
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
            .field("kernels", &self.lanes.kernels())
            .field("queued", &self.n)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::enc::md5;
    use proptest::prelude::*;

    fn backends() -> Vec<Kernels> {
        Kernels::runnable()
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
            let mut batch = Batch::with_kernels(backend);
            assert_eq!(batch.kernels(), backend);
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
            let mut batch = Batch::with_kernels(backend);
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
            let mut batch = Batch8::with_kernels(backend);
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
                let mut batch = Batch::with_kernels(backend);
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
