//! Counter-based random streams: every draw is a pure function of `(seed, stream, counter)`.
//!
//! No generator keeps a sequential RNG, so a key never depends on which ids were generated
//! before it, on thread count or on visiting order (HBASE-MODEL §0 "Determinism").
//! The mixer is SplitMix64's finaliser applied twice; it passes as a hash here, not as crypto.

/// The golden-ratio increment of SplitMix64.
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's two multipliers.
pub(crate) const MIX1: u64 = 0xBF58_476D_1CE4_E5B9;
pub(crate) const MIX2: u64 = 0x94D0_49BB_1331_11EB;

/// What [`draw_keyed`] multiplies its counter by before mixing.
pub(crate) const COUNTER_MUL: u64 = 0xD1B5_4A32_D192_ED03;

/// SplitMix64's output function (Steele, Lea, Flood 2014): a bijective 64-bit mix.
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(MIX1);
    z = (z ^ (z >> 27)).wrapping_mul(MIX2);
    z ^ (z >> 31)
}

/// The random word number `counter` of stream `stream` under `seed`.
#[inline]
pub fn draw(seed: u64, stream: u64, counter: u64) -> u64 {
    draw_keyed(stream_key(seed, stream), counter)
}

/// The key of stream `stream` under `seed`: [`draw`] is `draw_keyed(stream_key(..), counter)`,
/// for loops drawing many words of one stream.
#[inline]
pub fn stream_key(seed: u64, stream: u64) -> u64 {
    splitmix64(seed ^ splitmix64(stream.wrapping_mul(GOLDEN)))
}

/// The random word number `counter` of the stream whose [`stream_key`] is `key`.
#[inline]
pub fn draw_keyed(key: u64, counter: u64) -> u64 {
    splitmix64(key ^ counter.wrapping_mul(COUNTER_MUL))
}

/// [`below`] for `n` < 2^32 in 64-bit arithmetic only (which SIMD lanes have): the high word
/// of `word · n` from the halves of `word`. Equal to `below(word, n)` there: the low half's
/// product only adds its carry into the high word.
#[inline]
pub fn below32(word: u64, n: u64) -> u64 {
    debug_assert!(n < 1 << 32);
    ((word >> 32) * n + (((word & 0xFFFF_FFFF) * n) >> 32)) >> 32
}

/// Maps a random word to `0..n` (Lemire's multiply-shift; bias below 2^-64·n, ignored).
/// `n = 0` yields 0.
#[inline]
pub fn below(word: u64, n: u64) -> u64 {
    ((u128::from(word) * u128::from(n)) >> 64) as u64
}

/// Maps a random word to a double in `[0, 1)` with 53 random bits.
#[inline]
pub fn unit(word: u64) -> f64 {
    (word >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// 64-bit FNV-1a of a byte string (stable stream ids for names).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// Well-known stream numbers (each generator family draws from its own).
pub mod streams {
    /// Per-row clock steps.
    pub const CLOCK: u64 = 1;
    /// Salt buckets.
    pub const SALT: u64 = 2;
    /// Uniform key bytes (word k uses `UNIFORM + (k << 16)`).
    pub const UNIFORM: u64 = 3;
    /// Entity / host draws.
    pub const ENTITY: u64 = 4;
    /// Template fields (`FIELD ^ fnv1a(name)`).
    pub const FIELD: u64 = 5;
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// `below32` is `below` for every word and every bound below 2^32.
        #[test]
        fn below32_is_below(word in proptest::prelude::any::<u64>(), n in 0u64..1 << 32) {
            proptest::prop_assert_eq!(below32(word, n), below(word, n));
        }
    }

    #[test]
    fn below32_at_the_edges() {
        for word in [0, 1, u64::MAX, u64::MAX - 1, 1 << 32, (1 << 32) - 1] {
            for n in [0, 1, 1000, (1 << 32) - 1] {
                assert_eq!(below32(word, n), below(word, n), "{word} {n}");
            }
        }
    }

    #[test]
    fn draws_are_pure_and_distinct() {
        assert_eq!(draw(1, 2, 3), draw(1, 2, 3));
        assert_ne!(draw(1, 2, 3), draw(1, 2, 4));
        assert_ne!(draw(1, 2, 3), draw(1, 3, 3));
        assert_ne!(draw(1, 2, 3), draw(2, 2, 3));
    }

    #[test]
    fn below_and_unit_stay_in_range() {
        for c in 0..10_000 {
            let w = draw(7, 1, c);
            assert!(below(w, 10) < 10);
            let u = unit(w);
            assert!((0.0..1.0).contains(&u));
        }
        assert_eq!(below(u64::MAX, 0), 0);
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut counts = [0u32; 8];
        for c in 0..80_000 {
            counts[below(draw(3, 9, c), 8) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&n| (9_000..11_000).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn fnv1a_known_value() {
        // FNV-1a 64 of the empty string is the offset basis; of "a" is a published test vector.
        assert_eq!(fnv1a(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xAF63_DC4C_8601_EC8C);
    }
}
