//! Clock-driven keys: the shared per-row clock, `timestamp-first` and `reverse-timestamp`.
//!
//! A clock that advances by a random step per row (`currentTime += random.nextInt(step)`) is
//! inherently sequential. To keep keys a pure function of `(seed, id)`, the clock is rebuilt per
//! chunk of [`CHUNK`] ids: chunk `c` starts at `start + c·CHUNK·(step−1)/2` (the expected time
//! there) and inside the chunk the time of id `i` is that base plus the draws of ids
//! `c·CHUNK ..= i`. So `key_into(id)` costs at most `CHUNK` draws and `keys_into` one draw per id.
//! The approximation: at chunk boundaries the clock snaps to its expected value (it can jump back
//! or forward by the accumulated deviation, typically ±√1024·step/√12 ≈ 9·step ms).

use super::spec::KindEntry;
use std::ops::Range;

use toml::Spanned;

use super::batch::KeyBatch;
use super::enc::push_decimal;
use super::rng::{self, streams};
use super::spec::{self, GeneratorSpec, opt_err};
use super::{DEFAULT_START_MS, RowKeyGenerator};
use crate::diag::InputError;

/// The `timestamp-first` kind.
pub(crate) static TIMESTAMP_FIRST: KindEntry = KindEntry::new(
    "timestamp-first",
    &["start_ms", "step_ms", "fixed_step", "cardinality"],
    |spec, _, seed| Ok(Box::new(TimestampFirst::from_spec(spec, seed)?)),
);

/// The `reverse-timestamp` kind.
pub(crate) static REVERSE_TIMESTAMP: KindEntry = KindEntry::new(
    "reverse-timestamp",
    &["start_ms", "step_ms", "fixed_step", "cardinality", "prefix"],
    |spec, _, seed| Ok(Box::new(ReverseTimestamp::from_spec(spec, seed)?)),
);

/// Ids per clock chunk.
pub const CHUNK: u64 = 1024;

/// Clocks never pass `Long.MAX_VALUE` (so `Long.MAX_VALUE − ts` stays ≥ 0).
const MAX_TS: u128 = i64::MAX as u128;

/// Clock draws made at a time ([`Clock::advances`]).
const DRAW_BLOCK: usize = 64;

/// Ids per block of [`Clock::for_each_block`] (one [`super::md5x::Batch8`]).
pub const TIME_BLOCK: usize = 32;

/// A per-row clock in ms: pure function of `(seed, id)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    seed: u64,
    start: u64,
    step: u64,
    fixed: bool,
}

impl Clock {
    /// A clock starting at `start` ms; each row advances it by `nextInt(step)` ms, or by exactly
    /// `step` when `fixed`.
    pub fn new(seed: u64, start: u64, step: u64, fixed: bool) -> Clock {
        Clock {
            seed,
            start,
            step,
            fixed,
        }
    }

    /// The clock options `start_ms`, `step_ms`, `fixed_step` of a spec.
    pub fn from_spec(spec: &GeneratorSpec, seed: u64) -> Result<Clock, InputError> {
        let start = spec::int(
            &spec.start_ms,
            "start_ms",
            DEFAULT_START_MS,
            0..=i64::MAX as u64,
        )?;
        let fixed = spec::flag(&spec.fixed_step, false);
        let min_step = if fixed { 0 } else { 1 };
        let step = spec::int(&spec.step_ms, "step_ms", 1000, min_step..=1_000_000_000_000)?;
        Ok(Clock::new(seed, start, step, fixed))
    }

    /// `out[i] = advance(from + i)`. Each draw is a pure function of its id, so they are drawn
    /// side by side in SIMD lanes where the AVX-512 kernels run (`kernel::clock`, 8 per
    /// instruction); the scalar loop elsewhere.
    fn advances(&self, from: u64, out: &mut [u64]) {
        let key = self.draw_key();
        #[cfg(target_arch = "x86_64")]
        if !self.fixed
            && self.step < 1 << 32
            && let Some(t) = crate::kernel::active().avx512()
        {
            t.clock_draws(key, self.step, from, out);
            return;
        }
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.advance(key, from.wrapping_add(i as u64));
        }
    }

    /// The key of the clock's draws ([`rng::stream_key`]), taken once per loop.
    #[inline]
    fn draw_key(&self) -> u64 {
        rng::stream_key(self.seed, streams::CLOCK)
    }

    /// Row `id`'s advance, `key` being [`Clock::draw_key`].
    #[inline]
    fn advance(&self, key: u64, id: u64) -> u64 {
        if self.fixed {
            self.step
        } else {
            rng::below(rng::draw_keyed(key, id), self.step)
        }
    }

    /// The sum of `advance(j)` for `j` in `from..=to` (at most a chunk of ids).
    fn advance_sum(&self, from: u64, to: u64) -> u128 {
        #[cfg(target_arch = "x86_64")]
        if !self.fixed
            && self.step < 1 << 32
            && to >= from
            && to - from < 1 << 31
            && let Some(t) = crate::kernel::active().avx512()
        {
            // Below 2^31 draws of under 2^32 each: the sum fits the lanes' 64 bits.
            return u128::from(t.clock_sum(self.draw_key(), self.step, from, to - from + 1));
        }
        let mut buf = [0u64; DRAW_BLOCK];
        let mut sum = 0u128;
        // Counted by what is left, not by id: `to` may be the last id there is.
        let (mut j, mut left) = (from, to.checked_sub(from).map_or(0, |d| u128::from(d) + 1));
        while left > 0 {
            let n = left.min(DRAW_BLOCK as u128) as usize;
            self.advances(j, &mut buf[..n]);
            sum += buf[..n].iter().map(|&d| u128::from(d)).sum::<u128>();
            j = j.wrapping_add(n as u64);
            left -= n as u128;
        }
        sum
    }

    /// The time of row `id` (after its own advance, as HashRowKeyGenerator adds before use).
    pub fn at(&self, id: u64) -> u64 {
        if self.fixed {
            let t = u128::from(self.start)
                + u128::from(id) * u128::from(self.step)
                + u128::from(self.step);
            return t.min(MAX_TS) as u64;
        }
        let chunk = id / CHUNK;
        let t = u128::from(self.start)
            + u128::from(chunk) * u128::from(CHUNK) * u128::from(self.step - 1) / 2
            + self.advance_sum(chunk * CHUNK, id);
        t.min(MAX_TS) as u64
    }

    /// The time of `id` after `prev`, the time of `id - 1` (if taken): `prev` plus `id`'s
    /// advance (`draw()`), except where the clock is rebased (a chunk's first id, or no `prev`).
    #[inline(always)]
    fn next_time(&self, prev: Option<u64>, id: u64, draw: impl FnOnce() -> u64) -> u64 {
        match prev {
            Some(p) if !id.is_multiple_of(CHUNK) || self.fixed => {
                (u128::from(p) + u128::from(draw())).min(MAX_TS) as u64
            }
            _ => self.at(id),
        }
    }

    /// Calls `f(id, time)` for each id, one draw per id.
    pub fn for_each(&self, ids: Range<u64>, mut f: impl FnMut(u64, u64)) {
        // One draw per row, in the row's loop: here the scalar draw overlaps the hashing that
        // follows it, where draws made in blocks ahead (`advances`) are a pass of their own
        // whose results must be stored and read back.
        let key = self.draw_key();
        let mut prev: Option<u64> = None;
        for id in ids {
            let t = self.next_time(prev, id, || self.advance(key, id));
            prev = Some(t);
            f(id, t);
        }
    }

    /// [`Clock::for_each`] a block at a time: `f(first, times)` for blocks of up to
    /// [`TIME_BLOCK`] consecutive ids from `first`, `times` being theirs. The draws are made
    /// a block at a time ([`Clock::advances`], in SIMD lanes where the CPU has them) and
    /// summed in order, for callers that work on blocks of rows (`hashed`'s MD5 lanes).
    pub fn for_each_block(&self, ids: Range<u64>, mut f: impl FnMut(u64, &[u64])) {
        let mut draws = [0u64; TIME_BLOCK];
        let mut times = [0u64; TIME_BLOCK];
        let mut prev: Option<u64> = None;
        let mut first = ids.start;
        while first < ids.end {
            let n = (ids.end - first).min(TIME_BLOCK as u64) as usize;
            self.advances(first, &mut draws[..n]);
            // `next_time` id by id, its running sum kept unclamped in a segment (the ids up to
            // the next rebase) and clamped as it is stored: draws are ≥ 0, so clamping once
            // equals clamping on the way, and a segment adds at most TIME_BLOCK draws below
            // 2^58 to a time at most MAX_TS, inside u64. One add per id in the chain, where
            // a u128 add and a clamp per id made each id wait on a longer dependent chain.
            if self.step >= 1 << 58 {
                // (No spec makes such steps: `step_ms` stops at 10^12.)
                for (j, (t, &d)) in times[..n].iter_mut().zip(&draws).enumerate() {
                    *t = self.next_time(prev, first + j as u64, || d);
                    prev = Some(*t);
                }
                f(first, &times[..n]);
                first += n as u64;
                continue;
            }
            let mut j = 0;
            while j < n {
                let id = first + j as u64;
                let mut sum = match prev {
                    Some(p) if self.fixed || !id.is_multiple_of(CHUNK) => p,
                    _ => {
                        let t = self.at(id);
                        times[j] = t;
                        prev = Some(t);
                        j += 1;
                        continue;
                    }
                };
                let end = if self.fixed {
                    n
                } else {
                    n.min(j + (CHUNK - id % CHUNK) as usize)
                };
                for (t, &d) in times[j..end].iter_mut().zip(&draws[j..end]) {
                    sum += d;
                    *t = sum.min(MAX_TS as u64);
                }
                prev = Some(times[end - 1]);
                j = end;
            }
            debug_assert!(times[..n].iter().enumerate().all(|(j, &t)| {
                t == self.at(first + j as u64)
                    || self.fixed
                    || !(first + j as u64).is_multiple_of(CHUNK)
            }));
            f(first, &times[..n]);
            first += n as u64;
        }
    }

    /// Calls `f(id, time)` for each of `ids`, in the given order. An id at or after the
    /// previous one in the same clock chunk continues from that one's time, so ascending sampled
    /// ids (pre-split samples, scaled runs) cost the draws in between instead of up to [`CHUNK`]
    /// each, which [`Clock::at`] takes.
    pub fn for_ids(&self, ids: impl Iterator<Item = u64>, mut f: impl FnMut(u64, u64)) {
        let mut prev: Option<(u64, u64)> = None;
        for id in ids {
            let t = match prev {
                Some((p, pt)) if !self.fixed && p <= id && p / CHUNK == id / CHUNK => {
                    // Draws are ≥ 0: saturating once at the end equals saturating on the way.
                    let t = u128::from(pt) + self.advance_sum(p + 1, id);
                    t.min(MAX_TS) as u64
                }
                _ => self.at(id),
            };
            prev = Some((id, t));
            f(id, t);
        }
    }

    /// `keys_of` for a generator whose key is a function of `(id, time)`.
    pub fn keys_of(
        &self,
        ids: &[u64],
        f: &mut dyn FnMut(u64, &[u8]),
        mut write: impl FnMut(u64, u64, &mut Vec<u8>),
    ) {
        let mut buf = Vec::with_capacity(64);
        self.for_ids(ids.iter().copied(), |id, t| {
            buf.clear();
            write(id, t, &mut buf);
            f(id, &buf);
        });
    }

    /// `keys_into` for a generator whose key is a function of `(id, time)`.
    pub fn keys_into(
        &self,
        ids: Range<u64>,
        f: &mut dyn FnMut(u64, &[u8]),
        mut write: impl FnMut(u64, u64, &mut Vec<u8>),
    ) {
        let mut buf = Vec::with_capacity(64);
        self.for_each(ids, |id, t| {
            buf.clear();
            write(id, t, &mut buf);
            f(id, &buf);
        });
    }

    /// Short description for `describe()`.
    pub fn describe(&self) -> String {
        if self.fixed {
            format!("clock from {} ms, +{} ms per row", self.start, self.step)
        } else {
            format!(
                "clock from {} ms, +nextInt({}) ms per row (re-based every {CHUNK} ids)",
                self.start, self.step
            )
        }
    }
}

/// `Long.MAX_VALUE − ts` (the reversed-timestamp idiom from the HBase book).
#[inline]
pub fn reverse_ts(ts: u64) -> u64 {
    (i64::MAX as u64).saturating_sub(ts)
}

fn cardinality(v: &Option<Spanned<u64>>, max: u64) -> Result<u64, InputError> {
    spec::int(v, "cardinality", 1000, 1..=max)
}

/// `timestamp-first`: `[timestamp ms: 8 BE][host: 4 BE]`, host uniform in `0..cardinality`.
/// The OpenTSDB-without-salt anti-pattern: every write goes to the last region.
#[derive(Debug, Clone)]
pub struct TimestampFirst {
    clock: Clock,
    seed: u64,
    hosts: u64,
}

impl TimestampFirst {
    /// From a spec (clock options, `cardinality` = hosts, default 1000, ≤ 2^32).
    pub fn from_spec(spec: &GeneratorSpec, seed: u64) -> Result<TimestampFirst, InputError> {
        Ok(TimestampFirst {
            clock: Clock::from_spec(spec, seed)?,
            seed,
            hosts: cardinality(&spec.cardinality, 1 << 32)?,
        })
    }

    #[inline]
    fn write(&self, id: u64, ts: u64, out: &mut Vec<u8>) {
        let host = rng::below(rng::draw(self.seed, streams::ENTITY, id), self.hosts) as u32;
        out.extend_from_slice(&ts.to_be_bytes());
        out.extend_from_slice(&host.to_be_bytes());
    }
}

impl RowKeyGenerator for TimestampFirst {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        self.write(id, self.clock.at(id), out);
    }
    fn describe(&self) -> String {
        format!(
            "timestamp-first: [ts ms:8 BE][host:4 BE], {} hosts; {}",
            self.hosts,
            self.clock.describe()
        )
    }
    fn scan_locality(&self) -> super::ScanLocality {
        super::ScanLocality::Ordered
    }
}

impl KeyBatch for TimestampFirst {
    fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        self.clock
            .keys_into(ids, f, |id, ts, out| self.write(id, ts, out));
    }
    fn keys_of(&self, ids: &[u64], f: &mut dyn FnMut(u64, &[u8])) {
        self.clock
            .keys_of(ids, f, |id, ts, out| self.write(id, ts, out));
    }
}

/// `reverse-timestamp`: `prefix ‖ entity (zero-padded decimal) ‖ [Long.MAX_VALUE − ts: 8 BE]`;
/// entity uniform in `0..cardinality`. Newest rows of an entity sort first.
#[derive(Debug, Clone)]
pub struct ReverseTimestamp {
    clock: Clock,
    seed: u64,
    entities: u64,
    width: usize,
    prefix: Vec<u8>,
}

impl ReverseTimestamp {
    /// From a spec (clock options, `cardinality` = entities, default 1000, `prefix`).
    pub fn from_spec(spec: &GeneratorSpec, seed: u64) -> Result<ReverseTimestamp, InputError> {
        let entities = cardinality(&spec.cardinality, u64::MAX)?;
        let prefix = spec::text(&spec.prefix, "").as_bytes().to_vec();
        let width = super::enc::decimal_len(entities - 1);
        if prefix.len() + width + 8 > super::MAX_ROW_LENGTH {
            let span = spec.prefix.as_ref().map_or(0..0, Spanned::span);
            return Err(opt_err(
                "prefix",
                span,
                format!("prefix of {} bytes makes every key too long", prefix.len()),
                "keys of at most 32767 bytes",
            ));
        }
        Ok(ReverseTimestamp {
            clock: Clock::from_spec(spec, seed)?,
            seed,
            entities,
            width,
            prefix,
        })
    }

    #[inline]
    fn write(&self, id: u64, ts: u64, out: &mut Vec<u8>) {
        let entity = rng::below(rng::draw(self.seed, streams::ENTITY, id), self.entities);
        out.extend_from_slice(&self.prefix);
        push_decimal(out, entity, self.width, b'0');
        out.extend_from_slice(&reverse_ts(ts).to_be_bytes());
    }
}

impl RowKeyGenerator for ReverseTimestamp {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        self.write(id, self.clock.at(id), out);
    }
    fn describe(&self) -> String {
        format!(
            "reverse-timestamp: {:?} + entity 0..{} ({} digits) + [Long.MAX_VALUE-ts:8 BE]; {}",
            String::from_utf8_lossy(&self.prefix),
            self.entities,
            self.width,
            self.clock.describe()
        )
    }
    fn scan_locality(&self) -> super::ScanLocality {
        // Newest first within an entity: one range per entity holds a time window.
        super::ScanLocality::Prefix(self.prefix.len() + self.width)
    }
}

impl KeyBatch for ReverseTimestamp {
    fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        self.clock
            .keys_into(ids, f, |id, ts, out| self.write(id, ts, out));
    }
    fn keys_of(&self, ids: &[u64], f: &mut dyn FnMut(u64, &[u8])) {
        self.clock
            .keys_of(ids, f, |id, ts, out| self.write(id, ts, out));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    /// The block draws (on every kernel set the CPU runs) equal one draw at a time
    /// (`nextInt(step)` of the row's counter), for steps below and above 2^32, fixed steps,
    /// any start and block length.
    #[test]
    fn draw_sums_equal_the_single_draws_summed() {
        crate::kernel::for_each_runnable(|_| draw_sums_equal_the_single_draws_summed_on());
    }

    fn draw_sums_equal_the_single_draws_summed_on() {
        for (seed, step) in [(9, 1000), (u64::MAX, (1 << 32) - 1), (3, 1_000_000_000_000)] {
            let c = Clock::new(seed, 0, step, false);
            for from in [0, 5, CHUNK - 3, u64::MAX - 1030] {
                for n in [1u64, 7, 8, 9, 100, 1024] {
                    let want: u128 = (0..n)
                        .map(|i| {
                            u128::from(rng::below(rng::draw(seed, streams::CLOCK, from + i), step))
                        })
                        .sum();
                    assert_eq!(c.advance_sum(from, from + n - 1), want, "{seed} {from} {n}");
                }
            }
        }
    }

    /// The block walk's times are the id-by-id walk's: across chunk rebases at any offset,
    /// for fixed and huge steps, and clamped alike near the largest time.
    #[test]
    fn block_times_equal_the_id_by_id_times() {
        crate::kernel::for_each_runnable(|_| block_times_equal_the_id_by_id_times_on());
    }

    fn block_times_equal_the_id_by_id_times_on() {
        let near_max = i64::MAX as u64 - 5_000;
        for (start, step, fixed) in [
            (0, 1000, false),
            (1_600_000_000_000, 1, false),
            (0, 1_000_000_000_000, false),
            (near_max, 1000, false),
            (near_max, 17, true),
            (0, 1 << 60, false),
        ] {
            let c = Clock::new(11, start, step, fixed);
            for ids in [
                1..3000,
                CHUNK - 40..CHUNK + 70,
                0..32,
                5..6,
                2 * CHUNK..2 * CHUNK + 33,
            ] {
                let mut want = Vec::new();
                c.for_each(ids.clone(), |_, t| want.push(t));
                let mut got = Vec::new();
                c.for_each_block(ids.clone(), |first, times| {
                    assert_eq!(first, ids.start + got.len() as u64);
                    got.extend_from_slice(times);
                });
                assert_eq!(
                    got, want,
                    "start {start} step {step} fixed {fixed} ids {ids:?}"
                );
            }
        }
    }

    #[test]
    fn block_draws_equal_single_draws() {
        crate::kernel::for_each_runnable(|_| block_draws_equal_single_draws_on());
    }

    fn block_draws_equal_single_draws_on() {
        for (seed, step, fixed) in [
            (9, 1000, false),
            (1, 1, false),
            (u64::MAX, (1 << 32) - 1, false),
            (7, 1 << 32, false),
            (3, 1_000_000_000_000, false),
            (5, 17, true),
        ] {
            let c = Clock::new(seed, 0, step, fixed);
            for from in [0, 5, CHUNK - 3, u64::MAX / 3, u64::MAX - 6] {
                let mut out = [0u64; 70];
                for n in [0, 1, 7, 8, 9, 64, 70] {
                    c.advances(from, &mut out[..n]);
                    for (i, &d) in out[..n].iter().enumerate() {
                        let id = from.wrapping_add(i as u64);
                        let want = if fixed {
                            step
                        } else {
                            rng::below(rng::draw(seed, streams::CLOCK, id), step)
                        };
                        assert_eq!(d, want, "seed {seed} step {step} id {id}");
                    }
                }
            }
        }
    }

    #[test]
    fn random_clock_is_prefix_sum_inside_a_chunk_and_rebased_at_chunks() {
        let c = Clock::new(9, 1000, 1000, false);
        // Inside chunk 0 the difference between consecutive ids is one draw in 0..1000.
        for id in 1..CHUNK {
            let d = c.at(id) - c.at(id - 1);
            assert!(d < 1000);
        }
        // Chunk 3 starts at its expected base plus the first id's draw.
        let base = 1000 + 3 * CHUNK * 999 / 2;
        let t = c.at(3 * CHUNK);
        assert!((base..base + 1000).contains(&t), "{t}");
    }

    #[test]
    fn fixed_clock_is_linear() {
        let c = Clock::new(9, 1000, 10, true);
        assert_eq!(c.at(0), 1010);
        assert_eq!(c.at(5), 1060);
    }

    #[test]
    fn for_each_matches_at_across_chunk_boundaries() {
        for c in [Clock::new(1, 0, 1000, false), Clock::new(1, 5, 3, true)] {
            c.for_each(CHUNK - 5..3 * CHUNK + 5, |id, t| {
                assert_eq!(t, c.at(id), "{id}")
            });
        }
    }

    /// `for_ids` gives `at`'s time for ids in any order: ascending within a chunk (continued),
    /// across chunks, repeated, and descending (recomputed).
    #[test]
    fn for_ids_matches_at_in_any_order() {
        for c in [
            Clock::new(3, 0, 1000, false),
            Clock::new(3, 5, 3, true),
            Clock::new(3, i64::MAX as u64 - 2000, 1000, false),
        ] {
            let ids = [
                0,
                5,
                5,
                700,
                CHUNK - 1,
                CHUNK,
                CHUNK + 3,
                3,
                2 * CHUNK + 9,
                2 * CHUNK + 8,
            ];
            let mut seen = 0;
            c.for_ids(ids.iter().copied(), |id, t| {
                assert_eq!(id, ids[seen]);
                assert_eq!(t, c.at(id), "{id}");
                seen += 1;
            });
            assert_eq!(seen, ids.len());
        }
    }

    #[test]
    fn clock_saturates_at_long_max() {
        let c = Clock::new(1, i64::MAX as u64 - 10, 1000, true);
        assert_eq!(c.at(5), i64::MAX as u64);
        assert_eq!(reverse_ts(c.at(5)), 0);
    }

    #[test]
    fn timestamp_first_shape() {
        let g = build_toml(
            "[[generator]]\nname='ts'\nkind='timestamp-first'\nstart_ms=1000\nstep_ms=10\nfixed_step=true\ncardinality=16\n",
        )
        .unwrap();
        let k = key(&g, 2);
        assert_eq!(k.len(), 12);
        assert_eq!(&k[..8], &1030u64.to_be_bytes());
        assert!(u32::from_be_bytes(k[8..].try_into().unwrap()) < 16);
        assert_keys_into_consistent(g.batch(), 1000..3100);
    }

    #[test]
    fn reverse_timestamp_shape() {
        let g = build_toml(
            "[[generator]]\nname='r'\nkind='reverse-timestamp'\nprefix='dev'\ncardinality=100\nstart_ms=0\nstep_ms=1\nfixed_step=true\n",
        )
        .unwrap();
        let k = key(&g, 9);
        assert_eq!(k.len(), 3 + 2 + 8);
        assert_eq!(&k[..3], b"dev");
        assert!(k[3].is_ascii_digit() && k[4].is_ascii_digit());
        assert_eq!(&k[5..], &(i64::MAX as u64 - 10).to_be_bytes());
        assert_keys_into_consistent(g.batch(), 0..2100);
    }

    #[test]
    fn zero_random_step_is_rejected() {
        let e = build_toml("[[generator]]\nname='r'\nkind='hashed'\nstep_ms=0\n")
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.step_ms"));
    }
}
