//! Finding a row's region fast: the routing table (`state/routing.rs`) with the indexes and
//! caches that answer most rows in a few integer compares, its frozen copies for the feed's
//! workers, and a plain mode (binary search over the table) for the reference engine.

use std::sync::Arc;

use crate::engine::state::routing::RoutingTable;

use crate::engine::ingest::feed::{ChunkRouter, FeedChunk};
use crate::keygen::hashed::hashed_key;

/// The first 8 bytes of `key` as a big-endian integer, zero-padded (orders like the key except
/// among keys sharing those bytes).
#[inline]
pub(crate) fn prefix8(key: &[u8]) -> u64 {
    if let Some(head) = key.first_chunk::<8>() {
        // The common case as one load (a variable-length copy calls libc's memcpy).
        return u64::from_be_bytes(*head);
    }
    // Shorter keys (and the second 8 bytes of 9- to 15-byte keys, such as salted ones): shifts,
    // which the compiler does not turn into a libc `memcpy` call as it did a byte copy.
    let mut v = 0u64;
    for (i, &b) in key.iter().take(8).enumerate() {
        v |= u64::from(b) << (56 - 8 * i);
    }
    v
}

/// The 8-byte prefix `p` (`prefix8`) read as 8 lowercase hex digits: their 32-bit value
/// (which orders as the prefixes do), and whether every byte is such a digit. Branch-free, a
/// byte at a time in one word: a digit's value is its low 4 bits, plus 9 for the letters (bit
/// 6 set); the bytes are digits exactly when re-encoding the values gives them back.
#[inline]
pub(crate) fn hex_digits(p: u64) -> (u64, bool) {
    const LOW4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Per byte 0..=24: no carry crosses a byte below.
    let v = (p & LOW4) + 9 * ((p >> 6) & ONES);
    // Values above 15 came from no digit ('g'..'o' re-encode to themselves).
    let small = (v + 0x7070_7070_7070_7070) & HIGH == 0;
    // Letters for values 10..=15: '0' + v, plus 0x27 to reach 'a'.
    let letters = ((v + 0x7676_7676_7676_7676) & HIGH) >> 7;
    let ok = small & (v + 0x3030_3030_3030_3030 + 0x27 * letters == p);
    // Two digits per byte, then four per 16 bits, then eight per 32 (first digit highest).
    let x = (v | (v >> 4)) & 0x00FF_00FF_00FF_00FF;
    let x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    let x = (x | (x >> 16)) & 0xFFFF_FFFF;
    (x, ok)
}

/// Bytes 8..16 of `key` as a big-endian integer, zero-padded: between keys with equal
/// [`prefix8`], a smaller value means a smaller key, as `prefix8` does for the first 8 bytes.
#[inline]
pub(crate) fn second8(key: &[u8]) -> u64 {
    key.get(8..).map_or(0, prefix8)
}

/// `start <= key` for a start and a key with equal `prefix8`, given their [`second8`]s: an
/// integer compare, and a full compare only when those are equal too (keys sharing 16 bytes).
#[inline]
pub(crate) fn start_le(start: &[u8], start_second: u64, key: &[u8], key_second: u64) -> bool {
    if start_second != key_second {
        start_second < key_second
    } else {
        start <= key
    }
}

/// Entries [`StartIndex`] keeps: 64 per start, within these bounds (64 KiB to 512 KiB of
/// counts). Random keys read entries all over the table, so a small table that stays in the
/// first-level cache beats resolving one more byte for the few keys sharing a code with a start.
const INDEX_ENTRIES: (usize, usize) = (1 << 14, 1 << 17);

/// Marks a byte value no start has at its position in [`StartIndex`]'s per-position tables.
const OFF_ALPHABET: u32 = 1 << 31;

/// An index over sorted start keys' prefixes by the byte values the starts use at each
/// position. Per byte position after the leading bits every start shares, the starts' distinct
/// byte values form that position's alphabet; a key's digit there is how many alphabet values
/// are ≤ its byte, and its code is those digits in mixed radix over as many positions as fit in
/// [`INDEX_ENTRIES`] (64 entries per start). The code never decreases as keys grow, so `starts[c]..starts[c + 1]` are
/// the entries whose code is `c`, and a key with code `c` lies above every start of a smaller
/// code and below every start of a larger one.
///
/// Keys whose bytes are all in the alphabets share a code with few starts (hex keys have 16
/// byte values, so four characters are resolved where a 16-bit slot resolves two). A key with
/// a byte outside its position's alphabet lies above every start sharing its digits so far and
/// below the rest: its later digits are taken as their largest, and its entry is the last start
/// whose code is at most its code, one table load, whatever starts share its slot.
/// Built once per change of the starts.
#[derive(Debug, Clone, Default)]
pub(crate) struct StartIndex {
    /// A first level over the 16 bits after the shared ones: `slots[t]` = starts whose bits
    /// are below `t`. A key whose slot holds no start is settled by one load; the codes take
    /// the rest (keys sharing 16 bits with a start: with 10 hex starts, 4 % of keys).
    slots: Box<[u32]>,
    /// `counts[c]` = starts whose code is below `c` (one more than the largest code). Empty:
    /// not built.
    counts: Box<[u32]>,
    /// Per resolved byte position: each byte value's digit times the position's place value,
    /// plus (for a value off the alphabet) the largest value of the positions after it and
    /// [`OFF_ALPHABET`].
    digits: Vec<[u32; 256]>,
    /// The first resolved byte position (the one holding the first unshared bit).
    first: u32,
    /// Leading bits every start's prefix shares (0..=63), and those bits' value.
    common: u32,
    base: u64,
}

impl StartIndex {
    /// The index over `prefixes` (`prefix8` of each start, ascending).
    pub(crate) fn build(prefixes: &[u64]) -> StartIndex {
        let (first, last) = match prefixes {
            [] => (0, 0),
            [f, .., l] => (*f, *l),
            [f] => (*f, *f),
        };
        // Sorted: the bits the first and last share, all share.
        let common = (first ^ last).leading_zeros().min(63);
        let pos0 = common / 8;
        let byte = |p: u64, j: u32| (p >> (56 - 8 * j)) as u8;
        // Each position's alphabet, as a 256-bit set; positions while the codes fit.
        let mut alphabets: Vec<[bool; 256]> = Vec::new();
        let mut radices: Vec<usize> = Vec::new();
        let mut total = 1usize;
        let cap = (prefixes.len() * 64).clamp(INDEX_ENTRIES.0, INDEX_ENTRIES.1);
        for j in pos0..8 {
            let mut set = [false; 256];
            for &p in prefixes {
                set[byte(p, j) as usize] = true;
            }
            let radix = set.iter().filter(|&&b| b).count() + 1;
            if !alphabets.is_empty() && total * radix > cap {
                break;
            }
            total *= radix;
            alphabets.push(set);
            radices.push(radix);
        }
        let mut digits = Vec::with_capacity(alphabets.len());
        let mut place = total;
        for (set, &radix) in alphabets.iter().zip(&radices) {
            place /= radix;
            let mut table = [0u32; 256];
            let mut rank = 0u32;
            for (v, d) in table.iter_mut().enumerate() {
                if set[v] {
                    rank += 1;
                    *d = rank * place as u32;
                } else if rank == 0 {
                    // Below every start sharing the digits so far: the later digits' smallest.
                    *d = OFF_ALPHABET;
                } else {
                    // Above the starts with this digit: the later digits' largest.
                    *d = (rank * place as u32 + (place as u32 - 1)) | OFF_ALPHABET;
                }
            }
            digits.push(table);
        }
        let mut index = StartIndex {
            slots: Box::default(),
            counts: Box::default(),
            digits,
            first: pos0,
            common,
            base: first & !(u64::MAX >> common),
        };
        // Starts' bytes are in their alphabets: their codes are exact and ascending.
        index.counts = counts_below(total, prefixes.iter().map(|&p| index.code(p).0));
        let slots = counts_below(1 << 16, prefixes.iter().map(|&p| index.slot(p)));
        index.slots = slots;
        index
    }

    /// The first level's slot of a prefix sharing the common bits: the 16 bits after them.
    #[inline]
    fn slot(&self, p: u64) -> usize {
        ((p << self.common) >> 48) as usize
    }

    /// The code of a prefix sharing the common bits, and whether every resolved byte is in its
    /// position's alphabet. Branch-free: random keys leave the alphabets at unpredictable
    /// positions, and a mispredicted exit cost more than the few table loads.
    #[inline]
    fn code(&self, p: u64) -> (usize, bool) {
        let mut code = 0u32;
        // All ones until a byte leaves its alphabet: later digits are already in `code`.
        let mut live = u32::MAX;
        let rest = p << (8 * self.first);
        for (j, table) in self.digits.iter().enumerate() {
            let d = table[(rest >> (56 - 8 * j)) as u8 as usize];
            code += d & !OFF_ALPHABET & live;
            live &= !((d as i32 >> 31) as u32);
        }
        (code as usize, live != 0)
    }

    /// Leading prefix bits every start shares (0 when not built).
    pub(crate) fn shared_bits(&self) -> u32 {
        self.common
    }

    /// True once built.
    pub(crate) fn is_built(&self) -> bool {
        !self.counts.is_empty()
    }

    /// The entries a key with `prefix8` `p` may fall among: every entry before the range starts
    /// below the key (a smaller zero-padded prefix implies a smaller or prefix key), every entry
    /// from its end on starts above it. The whole table when not built.
    #[inline]
    pub(crate) fn range(&self, p: u64, len: usize) -> (usize, usize) {
        if self.counts.is_empty() {
            return (0, len);
        }
        let top = p & !(u64::MAX >> self.common);
        if top != self.base {
            // Outside the shared bits: below every start or above every start.
            return if top < self.base { (0, 0) } else { (len, len) };
        }
        let (c, exact) = self.code(p);
        let end = self.counts[c + 1] as usize;
        if exact {
            (self.counts[c] as usize, end)
        } else {
            // Every start of this code lies below the key.
            (end, end)
        }
    }

    /// The entry holding every key with `prefix8` `p` when the index settles it: no start
    /// shares the key's code, or the key has a byte off its position's alphabet. One table
    /// load for random keys, which miss the bounds caches. `None` when starts share the code,
    /// the prefix is outside the shared bits, or the index is not built.
    #[inline]
    pub(crate) fn sole(&self, p: u64) -> Option<usize> {
        if p & !(u64::MAX >> self.common) != self.base || self.counts.is_empty() {
            return None;
        }
        let t = self.slot(p);
        let (a, b) = (self.slots[t], self.slots[t + 1]);
        if a == b {
            return (a > 0).then(|| a as usize - 1);
        }
        self.sole_by_code(p)
    }

    /// [`StartIndex::sole`] for a key sharing its first-level slot with a start.
    #[cold]
    #[inline(never)]
    fn sole_by_code(&self, p: u64) -> Option<usize> {
        let (c, exact) = self.code(p);
        let s = self.counts.get(c..c + 2)?;
        // No start has the code (or the key is off the alphabets, above its code's starts):
        // the last start of a smaller or equal code.
        let settled = !exact | (s[0] == s[1]);
        (settled & (s[1] > 0)).then(|| s[1] as usize - 1)
    }

    /// The index of the entry holding a key with `prefix8` `p`: the last start ≤ key, given the
    /// starts' prefixes and a full compare `le(i)` = "start `i` ≤ key" for equal prefixes.
    #[inline]
    pub(crate) fn find(&self, p: u64, prefixes: &[u64], le: impl Fn(usize) -> bool) -> usize {
        let (a, b) = self.range(p, prefixes.len());
        // Integer compares on the 8-byte prefixes, full compares only among equal prefixes.
        let hi = a + prefixes[a..b].partition_point(|&x| x <= p);
        let lo = a + prefixes[a..hi].partition_point(|&x| x < p);
        // Binary search among the equal prefixes (many when starts share 8 leading bytes).
        let (mut l, mut h) = (lo, hi);
        while l < h {
            let mid = l + (h - l) / 2;
            if le(mid) {
                l = mid + 1;
            } else {
                h = mid;
            }
        }
        l.saturating_sub(1)
    }
}

/// `len + 1` counts: entry `c` = how many of `keys` (ascending, each below `len`) are below
/// `c`. One pass over the keys and one fill of the table (a split rebuilds it).
fn counts_below(len: usize, keys: impl Iterator<Item = usize>) -> Box<[u32]> {
    let mut counts = vec![0u32; len + 1].into_boxed_slice();
    let (mut next, mut n) = (0, 0u32);
    for k in keys {
        if next <= k {
            counts[next..=k].fill(n);
            next = k + 1;
        }
        n += 1;
    }
    counts[next..].fill(n);
    counts
}

/// Marks a [`HexSlots`] slot that a start shares (or whose entry does not fit 16 bits): its
/// keys need the full search.
const HEX_SHARED: u16 = u16::MAX;

/// Starts up to which [`HexSlots`] resolve 3 characters (4,096 slots, 8 KiB: the first-level
/// cache keeps them); beyond, 4 (65,536 slots, 128 KiB). 16 starts share 0.4 % of 3-character
/// slots; the 64 heat buckets would share 1.6 % of them, and those keys' slower lookup costs
/// more than the larger table's cache footprint; 2,000 regions share 3 % of 4-character slots.
const HEX_SMALL: usize = 16;

/// The entry holding keys that open with 8 lowercase hex digits (`hashed`, `md5-prefix`,
/// `md5-legacy`), by their first 3 or 4 characters: the high bits of the digits' value
/// ([`hex_digits`]), which the write path has already read for the
/// flush. Where a raw 16-bit slot resolves 2 hex characters (256 of its 65,536 values used),
/// this resolves 3 or 4: with 64 heat buckets or 10 regions, a key shares its slot with a
/// start a few times in a thousand rows, not once in four or in twenty-five. Built in one
/// merge over the starts.
#[derive(Debug, Clone, Default)]
pub(crate) struct HexSlots {
    /// Per slot, the entry holding every key of the slot, or [`HEX_SHARED`]. Empty: not built.
    /// 16-bit entries keep the table in the caches (it is read at random, once per row).
    slots: Box<[u16]>,
    /// Hex characters resolved (3 or 4).
    chars: u32,
    /// Hex keys asked for since the starts changed, while not built: a build costs about as
    /// much as [`HEX_BUILD_AFTER`] rows, so starts that change faster are never built over.
    pending: u32,
}

/// Hex keys [`HexSlots::get_or_build`] takes before it builds the slots.
const HEX_BUILD_AFTER: u32 = 1 << 12;

impl HexSlots {
    /// The slots over starts with [`prefix8`]s `prefixes` (ascending), entry `i` reported as
    /// `id(i)`. A slot's keys are ≥ 8 bytes opening with its characters: a start whose first
    /// bytes as many (zero-padded) are below them lies below every such key, one above them
    /// above every such key; a start with those very bytes shares the slot.
    pub(crate) fn build(prefixes: &[u64], id: impl Fn(usize) -> usize) -> HexSlots {
        let chars = if prefixes.len() <= HEX_SMALL { 3 } else { 4 };
        let mut slots = vec![HEX_SHARED; 1 << (4 * chars)].into_boxed_slice();
        let top = |p: u64| head(p, chars);
        let mut below = 0;
        for (v, slot) in slots.iter_mut().enumerate() {
            let text = hex_text(v as u32, chars);
            while below < prefixes.len() && top(prefixes[below]) < text {
                below += 1;
            }
            let shared = prefixes.get(below).is_some_and(|&p| top(p) == text);
            if below > 0 && !shared {
                *slot = u16::try_from(id(below - 1)).unwrap_or(HEX_SHARED);
            }
        }
        HexSlots {
            slots,
            chars,
            pending: 0,
        }
    }

    /// The entry holding a key whose 8 leading hex digits have the value `digits`, unless a
    /// start shares its slot or the slots are not built yet: after [`HEX_BUILD_AFTER`] such
    /// asks they are, by `build`.
    #[inline(always)]
    pub(crate) fn get_or_build(
        &mut self,
        digits: u64,
        build: impl FnOnce() -> HexSlots,
    ) -> Option<usize> {
        let slot = (digits as u32)
            .checked_shr(32 - 4 * self.chars)
            .unwrap_or(0);
        match self.slots.get(slot as usize) {
            Some(&e) => (e != HEX_SHARED).then_some(e as usize),
            None => {
                self.wait(build);
                None
            }
        }
    }

    /// Entry `parent`, whose start's first 4 bytes are `lo` and the next start's `hi`
    /// (`hi_open`: the last entry), split at a start whose first 4 bytes are `at` (`starts`
    /// entries after the split): its slots go to `a` below `at`, to `b` above it, and the slot
    /// of `at` itself is shared. Only the parent's slots are visited (the table stays built
    /// across splits: the write path keeps its one load).
    pub(crate) fn split(
        &mut self,
        parent: usize,
        [lo, at, hi]: [u32; 3],
        [a, b]: [usize; 2],
        hi_open: bool,
        starts: usize,
    ) {
        if self.slots.is_empty() {
            return;
        }
        let (Ok(parent), Ok(a), Ok(b)) =
            (u16::try_from(parent), u16::try_from(a), u16::try_from(b))
        else {
            *self = HexSlots::default();
            return;
        };
        if self.chars == 3 && starts > HEX_SMALL {
            // Rebuilt over 4 characters after the next asks.
            *self = HexSlots::default();
            return;
        }
        let chars = self.chars;
        let at = at & head_mask(chars);
        let end = if hi_open {
            self.slots.len()
        } else {
            (hex_rank(hi & head_mask(chars), chars) + 1).min(self.slots.len())
        };
        for v in hex_rank(lo & head_mask(chars), chars)..end {
            let slot = &mut self.slots[v];
            if *slot == parent {
                *slot = match hex_text(v as u32, chars).cmp(&at) {
                    std::cmp::Ordering::Less => a,
                    std::cmp::Ordering::Equal => HEX_SHARED,
                    std::cmp::Ordering::Greater => b,
                };
            }
        }
    }

    /// The entry holding a key whose 8 leading hex digits have the value `digits`, where the
    /// slots are built and no start shares its slot ([`HexSlots::get_or_build`] without the
    /// build).
    #[inline]
    pub(crate) fn get(&self, digits: u64) -> Option<usize> {
        let slot = (digits as u32)
            .checked_shr(32 - 4 * self.chars)
            .unwrap_or(0);
        let &e = self.slots.get(slot as usize)?;
        (e != HEX_SHARED).then_some(e as usize)
    }

    /// True once built.
    pub(crate) fn is_built(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Counts an ask while not built, and builds after [`HEX_BUILD_AFTER`] of them.
    #[cold]
    #[inline(never)]
    fn wait(&mut self, build: impl FnOnce() -> HexSlots) {
        self.pending += 1;
        if self.pending >= HEX_BUILD_AFTER {
            *self = build();
        }
    }
}

/// Keeps the first `chars` bytes of 4 (big-endian).
fn head_mask(chars: u32) -> u32 {
    !u32::MAX.checked_shr(8 * chars).unwrap_or(0)
}

/// The first `chars` bytes of a [`prefix8`], left-aligned in 4 bytes.
fn head(p: u64, chars: u32) -> u32 {
    (p >> 32) as u32 & head_mask(chars)
}

/// How many slots' characters are below `t` (first `chars` bytes, left-aligned).
fn hex_rank(t: u32, chars: u32) -> usize {
    // `hex_text` ascends with the slot: a binary search.
    let (mut lo, mut hi) = (0usize, 1usize << (4 * chars));
    while lo < hi {
        let mid = (lo + hi) / 2;
        if hex_text(mid as u32, chars) < t {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// `chars` lowercase hex characters of the low `4 · chars` bits of `v`, left-aligned in a
/// big-endian `u32` (the first bytes of a key opening with them).
fn hex_text(v: u32, chars: u32) -> u32 {
    // The keys' own formatting, of `v`'s digits moved to the top (then '0's, masked off).
    let text = crate::keygen::enc::hex4((v << (32 - 4 * chars)).to_be_bytes());
    u32::from_be_bytes([text[0], text[1], text[2], text[3]]) & head_mask(chars)
}

/// Slots of [`BoundsCache`]'s second level.
const SLOTS: usize = 64;

/// A key's first 16 bytes as one integer, zero-padded ([`prefix8`] then [`second8`]): a value
/// strictly between two starts' implies the key lies strictly between them.
#[inline]
pub(crate) fn prefix16(p: u64, key: &[u8]) -> u128 {
    (u128::from(p) << 64) | u128::from(second8(key))
}

/// The bounds [`BoundsCache::put`] takes for entry `i` of a table whose starts have the
/// [`prefix8`]s `prefixes` and [`second8`]s `seconds`: its start's first 16 bytes and the next
/// start's (the table's end for the last entry).
pub(crate) fn entry_bounds(prefixes: &[u64], seconds: &[u64], i: usize) -> (u128, u128) {
    let at = |i: usize| (u128::from(prefixes[i]) << 64) | u128::from(seconds[i]);
    let hi = if i + 1 < prefixes.len() {
        at(i + 1)
    } else {
        u128::MAX
    };
    (at(i), hi)
}

/// Keys whose [`prefix16`] lies strictly inside `(lo, hi)` are in entry `id`.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    lo: u128,
    hi: u128,
    id: usize,
}

const NO_BOUNDS: Bounds = Bounds {
    lo: u128::MAX,
    hi: 0,
    id: usize::MAX,
};

/// The last entry found in a table of sorted starts (region starts, heat buckets), and one per
/// slot of 16 bits of the key's prefix: a key whose first 16 bytes lie strictly between an
/// entry's start's and the next start's is in that entry (zero padding keeps this true; ties
/// take the table's search). Ordered keys hit the first level; keys interleaving a few ordered
/// streams (salt buckets, entities, partitions) hit the second, each stream in its own slot.
#[derive(Debug, Clone)]
pub(crate) struct BoundsCache {
    last: Bounds,
    slots: Box<[Bounds; SLOTS]>,
    /// Leading prefix bits every start shares: the slot takes the 16 bits after them
    /// (partition keys share 59).
    shift: u32,
}

impl Default for BoundsCache {
    fn default() -> Self {
        BoundsCache {
            last: NO_BOUNDS,
            slots: Box::new([NO_BOUNDS; SLOTS]),
            shift: 0,
        }
    }
}

impl BoundsCache {
    /// The slot of prefix `p`: 16 bits after the shared ones, mixed so that neighbouring
    /// values spread.
    #[inline]
    fn slot(&self, p: u64) -> usize {
        (((p << self.shift) >> 48).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
    }

    /// The entry certainly holding `key` (whose `prefix8` is `p`), if cached, asking `sole` (a
    /// table lookup) after the last entry and before the slots: random keys, which rarely hit
    /// either level, pay one table load and no mispredicted slot compare; ordered keys still
    /// stop at the first level.
    #[inline]
    pub(crate) fn get_or(
        &mut self,
        p: u64,
        key: &[u8],
        sole: impl FnOnce(u64) -> Option<usize>,
    ) -> Option<usize> {
        let k = prefix16(p, key);
        if k > self.last.lo && k < self.last.hi {
            return Some(self.last.id);
        }
        if let Some(id) = sole(p) {
            return Some(id);
        }
        let b = self.slots[self.slot(p)];
        if k > b.lo && k < b.hi {
            self.last = b;
            return Some(b.id);
        }
        None
    }

    /// Entry `id`, found for a key with prefix `p`, holds every key whose first 16 bytes lie
    /// strictly inside `(lo, hi)`.
    pub(crate) fn put(&mut self, p: u64, lo: u128, hi: u128, id: usize) {
        if hi <= lo.saturating_add(1) {
            // No key prefix lies strictly inside (starts sharing 16 bytes): caching it would
            // only evict useful bounds.
            return;
        }
        self.last = Bounds { lo, hi, id };
        let slot = self.slot(p);
        self.slots[slot] = self.last;
    }

    /// Forgets everything (the table changed); slots follow the bits after `shared` leading
    /// bits from now on.
    pub(crate) fn clear(&mut self, shared: u32) {
        self.last = NO_BOUNDS;
        self.slots.fill(NO_BOUNDS);
        self.shift = shared.min(63);
    }
}

/// A [`Router`] frozen at one epoch: routes the key feed's chunks on its workers
/// (`KeyFeed::publish`), which hand each row's region to the write path's runs with the
/// epoch; the runs use them only while the table still has that epoch.
/// With it, the heat map's buckets as a table of their own (entry `i` the bucket `i`; they never
/// change), so that each row's bucket comes with its region.
#[derive(Debug)]
pub(crate) struct RouteSnapshot {
    table: Router,
    heat: Option<Arc<Router>>,
}

impl RouteSnapshot {
    /// True when the table routes by hex slots (its keys open with 8 hex digits).
    pub(crate) fn is_hex(&self) -> bool {
        self.table.hex.is_built()
    }

    /// Routes the heat buckets too, `heat` being their table ([`Router::frozen`]).
    pub(crate) fn with_heat(mut self, heat: Option<Arc<Router>>) -> RouteSnapshot {
        self.heat = heat;
        self
    }
}

impl ChunkRouter for RouteSnapshot {
    fn epoch(&self) -> u64 {
        self.table.epoch()
    }

    fn route(&self, chunk: &FeedChunk, regions: &mut Vec<u32>, heat: &mut Vec<u32>) {
        regions.clear();
        heat.clear();
        let keys = &chunk.keys;
        if let Some(first) = chunk.hashed_from {
            // Codes only: a key is made (on the stack) only where a start shares its slot.
            regions.reserve(keys.codes.len());
            for (j, &c) in keys.codes.iter().enumerate() {
                let code = (u64::from(c), true);
                let key = || hashed_key(c, first.wrapping_add(j as u64));
                regions.push(self.table.route_built_lazy(code, key) as u32);
                if let Some(h) = &self.heat {
                    heat.push(h.route_built_lazy(code, key) as u32);
                }
            }
            return;
        }
        regions.reserve(keys.ends.len());
        let coded = keys.codes.len() == keys.ends.len();
        let mut start = 0;
        for (i, &end) in keys.ends.iter().enumerate() {
            let key = &keys.arena[start..end as usize];
            start = end as usize;
            let p = prefix8(key);
            let code = if coded {
                (u64::from(keys.codes[i]), true)
            } else {
                hex_digits(p)
            };
            regions.push(self.table.route_built(key, p, code) as u32);
            if let Some(h) = &self.heat {
                heat.push(h.route_built(key, p, code) as u32);
            }
        }
    }
}

/// The routing table with the write path's indexes and caches. Every answer is the table's own
/// (`RoutingTable::locate`); the indexes only get there sooner. In plain mode (the reference
/// engine) it keeps none and searches the table.
#[derive(Debug, Clone)]
pub struct Router {
    table: RoutingTable,
    /// `prefix8` of each start key: integer compares first.
    prefixes: Vec<u64>,
    /// `second8` of each start key: integer compares among equal prefixes.
    seconds: Vec<u64>,
    /// Regions found lately, by the prefixes certainly inside them: one integer compare per
    /// bound instead of key compares per row (ordered or interleaved-ordered keys).
    cache: BoundsCache,
    /// The byte-alphabet index over `prefixes`, rebuilt on the first search after a change.
    index: StartIndex,
    /// Entries by 4 hex characters, for keys opening with 8 hex digits.
    hex: HexSlots,
    /// Search the table itself, with no index or cache (the reference engine).
    plain: bool,
}

impl std::ops::Deref for Router {
    type Target = RoutingTable;

    fn deref(&self) -> &RoutingTable {
        &self.table
    }
}

impl Router {
    pub(crate) fn new() -> Router {
        Router {
            table: RoutingTable::new(),
            prefixes: Vec::new(),
            seconds: Vec::new(),
            cache: BoundsCache::default(),
            index: StartIndex::default(),
            hex: HexSlots::default(),
            plain: false,
        }
    }

    /// A router over regions `0..starts.len()` starting at `starts` (ascending; the first is
    /// the empty key), for benches and tools that route outside an engine run.
    pub fn over(starts: &[Vec<u8>]) -> Router {
        let mut t = Router::new();
        for (i, s) in starts.iter().enumerate() {
            t.push(s.clone(), i);
        }
        t
    }

    /// Routes by searching the table only, with no index or cache (the reference engine).
    pub(crate) fn set_plain(&mut self, plain: bool) {
        self.plain = plain;
        self.forget();
    }

    /// The table's epoch: its changes so far (equal epochs mean the same entries), which
    /// tell copies built over it when they are stale.
    pub(crate) fn epoch(&self) -> u64 {
        self.table.changes()
    }

    /// Appends a region starting at `start` (the table is built in key order).
    pub(crate) fn push(&mut self, start: Vec<u8>, id: usize) {
        self.prefixes.push(prefix8(&start));
        self.seconds.push(second8(&start));
        self.table.push(start, id);
        self.forget();
    }

    /// A split: `parent`'s entry becomes daughter `a`, and `b` starts at `row` after it.
    pub(crate) fn split(&mut self, parent: usize, a: usize, row: Vec<u8>, b: usize) {
        let (p, q) = (prefix8(&row), second8(&row));
        let pos = self.table.split(parent, a, row, b);
        self.prefixes.insert(pos + 1, p);
        self.seconds.insert(pos + 1, q);
        let hex = std::mem::take(&mut self.hex);
        self.forget();
        // The hex slots follow the split in place (one region's slots), not rebuilt.
        self.hex = hex;
        let top = |i: usize| (self.prefixes[i] >> 32) as u32;
        let next = self.prefixes.get(pos + 2).map(|&p| (p >> 32) as u32);
        self.hex.split(
            parent,
            [top(pos), top(pos + 1), next.unwrap_or(u32::MAX)],
            [a, b],
            next.is_none(),
            self.prefixes.len(),
        );
    }

    /// A merge: the `count` regions from `first`'s entry on become `merged`.
    pub(crate) fn merge(&mut self, first: usize, count: usize, merged: usize) {
        let pos = self.table.merge(first, count, merged);
        self.prefixes.drain(pos + 1..pos + count);
        self.seconds.drain(pos + 1..pos + count);
        self.forget();
    }

    /// Drops the caches (entries moved).
    fn forget(&mut self) {
        self.cache.clear(0);
        self.index = StartIndex::default();
        self.hex = HexSlots::default();
    }

    /// The live region holding `key`, whose `prefix8` is `p`, through the caches.
    #[inline]
    pub(crate) fn route(&mut self, key: &[u8], p: u64) -> usize {
        if self.plain {
            return self.table.locate(key);
        }
        let (index, entries) = (&self.index, self.table.entries());
        if let Some(id) = self
            .cache
            .get_or(p, key, |p| index.sole(p).map(|i| entries[i].1))
        {
            return id;
        }
        self.route_slow(key, p)
    }

    /// [`Router::route_coded`] with the key's [`hex_digits`] read from `p` here: for a caller
    /// that has no codes at hand (the row-at-a-time write path).
    #[inline(always)]
    pub(crate) fn route_by_prefix(&mut self, key: &[u8], p: u64) -> usize {
        self.route_coded(key, p, hex_digits(p))
    }

    /// [`Router::route`] for a key whose [`hex_digits`] are
    /// `code`: a key opening with 8 hex digits is looked up by its first 4 characters.
    #[inline(always)]
    pub(crate) fn route_coded(&mut self, key: &[u8], p: u64, code: (u64, bool)) -> usize {
        if code.1 && !self.plain {
            let (prefixes, entries) = (&self.prefixes, self.table.entries());
            if let Some(id) = self
                .hex
                .get_or_build(code.0, || HexSlots::build(prefixes, |i| entries[i].1))
            {
                return id;
            }
        }
        self.route(key, p)
    }

    /// Keys the caches and the index do not settle (keys sharing an index code with a start)
    /// search the index's range of starts.
    #[cold]
    #[inline(never)]
    fn route_slow(&mut self, key: &[u8], p: u64) -> usize {
        if !self.index.is_built() && self.table.len() > 1 {
            self.index = StartIndex::build(&self.prefixes);
            self.cache.clear(self.index.shared_bits());
        }
        let i = self.search(key, p);
        let id = self.table.entries()[i].1;
        let (lo, hi) = entry_bounds(&self.prefixes, &self.seconds, i);
        self.cache.put(p, lo, hi, id);
        id
    }

    /// The table as it stands, with its index built and no caches, for routing on other
    /// threads (the feed's workers, [`RouteSnapshot`]). Its hex slots come along where this
    /// table built them (its keys are hex).
    pub(crate) fn snapshot(&self) -> RouteSnapshot {
        let index = if self.index.is_built() || self.table.len() <= 1 {
            self.index.clone()
        } else {
            StartIndex::build(&self.prefixes)
        };
        let hex = if self.hex.is_built() {
            self.hex.clone()
        } else {
            HexSlots::default()
        };
        RouteSnapshot {
            heat: None,
            table: Router {
                table: self.table.clone(),
                prefixes: self.prefixes.clone(),
                seconds: self.seconds.clone(),
                cache: BoundsCache::default(),
                index,
                hex,
                plain: false,
            },
        }
    }

    /// A table of `starts` (the first one empty, in key order; entry `i` is id `i`) with its
    /// index built, and its hex slots where `hex` (for keys opening with 8 hex digits), to be
    /// read only (the heat map's buckets on the feed's workers).
    pub(crate) fn frozen(starts: &[Vec<u8>], hex: bool) -> Router {
        let mut t = Router::over(starts);
        if t.table.len() > 1 {
            t.index = StartIndex::build(&t.prefixes);
        }
        if hex {
            let entries = t.table.entries();
            t.hex = HexSlots::build(&t.prefixes, |i| entries[i].1);
        }
        t
    }

    /// [`Router::route_coded`] through what is built, changing nothing.
    #[inline]
    fn route_built(&self, key: &[u8], p: u64, code: (u64, bool)) -> usize {
        if code.1
            && let Some(id) = self.hex.get(code.0)
        {
            return id;
        }
        if let Some(i) = self.index.sole(p) {
            return self.table.entries()[i].1;
        }
        self.table.entries()[self.search(key, p)].1
    }

    /// [`Router::route_built`] for a key opening with 8 hex digits of value `code.0`,
    /// made by `key` only where a start shares its hex slot.
    #[inline]
    fn route_built_lazy(&self, code: (u64, bool), key: impl Fn() -> [u8; 16]) -> usize {
        if let Some(id) = self.hex.get(code.0) {
            return id;
        }
        let k = key();
        self.route_built(&k, prefix8(&k), code)
    }

    /// The live region holding `key`, leaving the caches alone (the table's answer, found
    /// through the index).
    pub(crate) fn locate(&self, key: &[u8]) -> usize {
        if self.plain {
            return self.table.locate(key);
        }
        self.table.entries()[self.search(key, prefix8(key))].1
    }

    /// The entry holding `key` (whose `prefix8` is `p`): the byte-alphabet index narrows
    /// the range, then integer compares on the start prefixes, full compares only among equal ones.
    fn search(&self, key: &[u8], p: u64) -> usize {
        let q = second8(key);
        self.index.find(p, &self.prefixes, |i| {
            start_le(&self.table.entries()[i].0, self.seconds[i], key, q)
        })
    }
}

impl Router {
    /// The region holding `key`, as the write path finds it.
    #[inline]
    pub fn route_key(&mut self, key: &[u8]) -> usize {
        self.route_by_prefix(key, prefix8(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every position: a prefix is read as hex exactly when its 8 bytes are
    /// lowercase hex digits, and then as their value, which orders as the prefixes do.
    #[test]
    fn hex_digits_reads_exactly_lowercase_hex() {
        let base = *b"0123abcd";
        for j in 0..8 {
            for b in 0..=255u8 {
                let mut k = base;
                k[j] = b;
                let p = u64::from_be_bytes(k);
                let (v, ok) = hex_digits(p);
                let text = std::str::from_utf8(&k).ok();
                let want = text
                    .filter(|t| {
                        t.bytes()
                            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
                    })
                    .and_then(|t| u32::from_str_radix(t, 16).ok());
                assert_eq!(ok, want.is_some(), "{k:?}");
                if let Some(w) = want {
                    assert_eq!(v, u64::from(w), "{k:?}");
                }
            }
        }
        assert_eq!(
            hex_digits(u64::from_be_bytes(*b"ffffffff")),
            (0xFFFF_FFFF, true)
        );
        assert_eq!(hex_digits(u64::from_be_bytes(*b"00000000")), (0, true));
        assert!(!hex_digits(u64::from_be_bytes(*b"0000000A")).1);
    }

    fn table(starts: &[&[u8]]) -> Router {
        let mut t = Router::new();
        for (i, s) in starts.iter().enumerate() {
            t.push(s.to_vec(), i);
        }
        t
    }

    #[test]
    fn routes_by_start_key_with_and_without_caches() {
        let mut t = table(&[b"", b"b", b"bbbbbbbbz", b"m"]);
        for (key, want) in [
            (&b"a"[..], 0),
            (b"b", 1),
            (b"bbbbbbbb", 1),
            (b"bbbbbbbbz", 2),
            (b"bbbbbbbbzz", 2),
            (b"l", 2),
            (b"m", 3),
            (b"zzz", 3),
            (b"a", 0),
        ] {
            assert_eq!(t.route(key, prefix8(key)), want, "{key:?}");
            assert_eq!(t.locate(key), want, "{key:?}");
        }
    }

    /// The byte-alphabet index gives the same region as a plain search over the starts (the
    /// `hbase:meta` lookup of `ConnectionImplementation.locateRegionInMeta`: the last start ≤ row),
    /// for starts sharing top bits, shorter than 2 bytes, or ending in zero bytes.
    #[test]
    fn start_index_matches_a_plain_search() {
        let starts: Vec<&[u8]> = vec![
            b"",
            b"\0",
            b"\0\0\x01",
            b"a",
            b"a\0",
            b"ab",
            b"ab\0",
            b"abc",
            b"abcdefgh",
            b"abcdefgh\0",
            b"abcdefghz",
            b"ac",
            b"b",
            b"\xff\xff",
            b"\xff\xff\xff",
        ];
        let mut t = table(&starts);
        let mut keys: Vec<Vec<u8>> = Vec::new();
        for s in &starts {
            for tail in [
                &b""[..],
                b"\0",
                b"\x01",
                b"\xff\xff\xff\xff\xff\xff\xff\xff\xff",
            ] {
                let mut k = s.to_vec();
                k.extend_from_slice(tail);
                keys.push(k.clone());
                if let Some(l) = k.last_mut() {
                    *l = l.wrapping_sub(1);
                    keys.push(k);
                }
            }
        }
        for k in &keys {
            let want = starts
                .partition_point(|s| *s <= k.as_slice())
                .saturating_sub(1);
            assert_eq!(t.route(k, prefix8(k)), want, "{k:?}");
            assert_eq!(t.locate(k), want, "{k:?}");
        }
    }

    /// Starts sharing most leading bits (partition keys `[id % N:8][id:8]`) and a first start
    /// that is not empty: the table uses the bits after the shared ones, and keys outside the
    /// shared bits fall below or above every start.
    #[test]
    fn start_index_on_shared_leading_bits() {
        let mut starts: Vec<Vec<u8>> = (3u64..23).map(|p| p.to_be_bytes().to_vec()).collect();
        starts.insert(1, [3u64.to_be_bytes(), 7u64.to_be_bytes()].concat());
        let refs: Vec<&[u8]> = starts.iter().map(Vec::as_slice).collect();
        let mut t = table(&refs);
        for part in 0u64..30 {
            for id in [0u64, 6, 7, 8, u64::MAX] {
                let k = [part.to_be_bytes(), id.to_be_bytes()].concat();
                let want = refs
                    .partition_point(|s| *s <= k.as_slice())
                    .saturating_sub(1);
                assert_eq!(t.route(&k, prefix8(&k)), want, "{part} {id}");
                assert_eq!(t.locate(&k), want, "{part} {id}");
            }
        }
        for k in [&b"\xff"[..], b"\x01", b""] {
            let want = refs.partition_point(|s| *s <= k).saturating_sub(1);
            assert_eq!(t.route(k, prefix8(k)), want, "{k:?}");
        }
    }

    /// Interleaved ordered streams (salt buckets: `[bucket][id:8]`, written round-robin) hit the
    /// per-slot cache; every route still equals a plain search, through splits that move the
    /// bounds the cache holds.
    #[test]
    fn interleaved_streams_route_as_a_plain_search_through_splits() {
        let mut starts: Vec<Vec<u8>> = (0u8..16).map(|b| vec![b]).collect();
        starts[0].clear();
        let mut t = table(&starts.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let mut next_id = starts.len();
        for id in 0u64..20_000 {
            let k = [&[(id % 16) as u8][..], &(id / 16).to_be_bytes()].concat();
            let pos = starts.partition_point(|s| *s <= k).saturating_sub(1);
            let want = t.id_at(pos).expect("routed");
            assert_eq!(t.route(&k, prefix8(&k)), want, "{k:?}");
            if id % 997 == 0 {
                // Split the key's region at the key: later keys of its stream go right.
                let at = k.clone();
                if starts[pos] != at {
                    t.split(want, next_id, at.clone(), next_id + 1);
                    starts.insert(pos + 1, at);
                    next_id += 2;
                }
            }
        }
    }

    /// The plain mode (the reference engine) answers as the indexed one: both are the table's
    /// answer, through splits and merges, for hex and byte keys.
    #[test]
    fn plain_mode_routes_as_the_indexes_do() {
        let mut starts = vec![Vec::new()];
        starts.extend((1..40u32).map(|i| hex_key(i.wrapping_mul(0x0690_0000), 0)));
        let slices: Vec<&[u8]> = starts.iter().map(Vec::as_slice).collect();
        let (mut fast, mut plain) = (table(&slices), table(&slices));
        plain.set_plain(true);
        let mut next = starts.len();
        for id in 0u64..30_000 {
            let k = if id % 3 == 0 {
                id.to_be_bytes().to_vec()
            } else {
                hex_key((id as u32).wrapping_mul(0x9E37_79B9), id)
            };
            let p = prefix8(&k);
            let want = fast.route_coded(&k, p, hex_digits(p));
            assert_eq!(plain.route_coded(&k, p, hex_digits(p)), want, "{k:?}");
            assert_eq!(plain.locate(&k), fast.locate(&k), "{k:?}");
            if id % 1_009 == 0 && fast.entries().iter().all(|(s, _)| *s != k) {
                fast.split(want, next, k.clone(), next + 1);
                plain.split(want, next, k.clone(), next + 1);
                next += 2;
            }
            if id % 7_919 == 0 && fast.len() > 2 {
                let first = fast.id_at(1).expect("entry");
                fast.merge(first, 2, next);
                plain.merge(first, 2, next);
                next += 1;
            }
        }
        assert_eq!(plain.epoch(), fast.epoch());
    }

    proptest::proptest! {
        /// Between keys with equal 8-byte prefixes, the second-word compare orders them as
        /// a full compare does (zero padding, shorter keys, keys sharing 16 bytes).
        #[test]
        fn start_le_orders_equal_prefixes_as_a_full_compare(
            head in proptest::collection::vec(0u8..2, 0..=8),
            a in proptest::collection::vec(0u8..2, 0..12),
            b in proptest::collection::vec(0u8..2, 0..12),
        ) {
            let (start, key) = ([&head[..], &a].concat(), [&head[..], &b].concat());
            proptest::prop_assume!(prefix8(&start) == prefix8(&key));
            proptest::prop_assert_eq!(
                start_le(&start, second8(&start), &key, second8(&key)),
                start.as_slice() <= key.as_slice()
            );
        }
    }

    proptest::proptest! {
        /// Where the table names a prefix's sole entry, it is the entry a plain search over the
        /// starts finds (the last start ≤ key), for short, zero-ended and shared-bit starts.
        #[test]
        fn sole_entry_is_the_plain_search(
            shared in 0usize..9,
            tails in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4), 1..40),
            keys in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 0..12), 1..60),
        ) {
            let head = vec![0x5Au8; shared];
            let mut starts: Vec<Vec<u8>> = tails.iter().map(|t| [&head[..], t].concat()).collect();
            starts.push(Vec::new());
            starts.sort();
            starts.dedup();
            let prefixes: Vec<u64> = starts.iter().map(|s| prefix8(s)).collect();
            let index = StartIndex::build(&prefixes);
            for k in &keys {
                for k in [k.clone(), [&head[..], k].concat()] {
                    if let Some(i) = index.sole(prefix8(&k)) {
                        let want = starts.partition_point(|s| *s <= k).saturating_sub(1);
                        proptest::prop_assert_eq!(i, want, "{:?}", k);
                    }
                }
            }
        }
    }

    #[test]
    fn sole_entry_answers_slots_without_a_start() {
        let prefixes: Vec<u64> = [&b""[..], b"m", b"mz"].iter().map(|s| prefix8(s)).collect();
        let index = StartIndex::build(&prefixes);
        assert_eq!(index.sole(prefix8(b"a")), Some(0));
        assert_eq!(index.sole(prefix8(b"q")), Some(2));
        assert_eq!(index.sole(prefix8(b"ma")), Some(1));
        // A key whose bytes are all in the alphabets and whose code a start shares: a search.
        assert_eq!(index.sole(prefix8(b"mz")), None);
        assert_eq!(index.sole(prefix8(b"m")), None);
        // A byte off its position's alphabet ('z' at the third byte, where starts have only
        // zero padding) settles the key: above "mz", the last start of a code ≤ its own.
        assert_eq!(index.sole(prefix8(b"mzz")), Some(2));
        assert_eq!(index.sole(prefix8(b"m\0a")), Some(1));
        assert_eq!(StartIndex::default().sole(prefix8(b"q")), None);
    }

    /// Hex-prefixed keys (`hashed`, `md5-prefix`) against 64 two-character hex starts (a key
    /// heatmap's buckets) and 40 region-like starts of 8 hex characters: the index settles
    /// nearly every key without a search, and always as a plain search does.
    #[test]
    fn start_index_settles_hex_keys() {
        use rand::{RngExt, SeedableRng};
        let hex = |v: u64, n: usize| format!("{v:016x}").as_bytes()[16 - n..].to_vec();
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
        let heat: Vec<Vec<u8>> = (0..64u64).map(|i| hex(i * 4, 2)).collect();
        let mut regions: Vec<Vec<u8>> = (0..40)
            .map(|_| hex(rng.random::<u32>().into(), 8))
            .collect();
        regions.push(Vec::new());
        regions.sort();
        for starts in [heat, regions] {
            let prefixes: Vec<u64> = starts.iter().map(|s| prefix8(s)).collect();
            let index = StartIndex::build(&prefixes);
            let mut settled = 0;
            for _ in 0..20_000 {
                let mut k = hex(rng.random::<u32>().into(), 8);
                k.extend_from_slice(&rng.random::<u64>().to_be_bytes());
                let want = starts.partition_point(|s| *s <= k).saturating_sub(1);
                let found = index.find(prefix8(&k), &prefixes, |i| starts[i] <= k);
                assert_eq!(found, want, "{k:?}");
                if let Some(i) = index.sole(prefix8(&k)) {
                    assert_eq!(i, want, "{k:?}");
                    settled += 1;
                }
            }
            assert!(settled > 19_000, "{settled} of 20000 settled by the index");
        }
    }

    #[test]
    fn bounds_cache_answers_strictly_inside_and_forgets_on_clear() {
        let key = |part: u64, id: u64| [part.to_be_bytes(), id.to_be_bytes()].concat();
        let bound = |part: u64, id: u64| (u128::from(part) << 64) | u128::from(id);
        // Partition keys: starts share 59 bits, so slots follow the partition bits.
        let mut c = BoundsCache::default();
        c.clear(59);
        let get = |c: &mut BoundsCache, k: &[u8]| c.get_or(prefix8(k), k, |_| None);
        assert_eq!(get(&mut c, &key(3, 5)), None);
        c.put(3, bound(3, 0), bound(4, 0), 1);
        c.put(17, bound(17, 0), bound(18, 0), 2);
        // The last entry answers first; the other partition's bounds are still in their slot.
        assert_eq!(get(&mut c, &key(17, 9)), Some(2));
        assert_eq!(get(&mut c, &key(3, 9)), Some(1));
        assert_eq!(get(&mut c, &key(17, 1)), Some(2));
        // Bounds are exclusive: a key equal to a start needs the table's search.
        assert_eq!(get(&mut c, &key(3, 0)), None);
        assert_eq!(get(&mut c, &key(4, 0)), None);
        // An empty interval is not kept.
        c.put(5, bound(5, 0), bound(5, 1), 3);
        assert_eq!(get(&mut c, &key(17, 9)), Some(2));
        c.clear(59);
        assert_eq!(get(&mut c, &key(3, 9)), None);
    }

    #[test]
    fn split_and_merge_update_the_table_and_its_caches() {
        let mut t = table(&[b"", b"m"]);
        assert_eq!(t.route(b"q", prefix8(b"q")), 1);
        t.split(1, 2, b"p".to_vec(), 3);
        assert_eq!(t.route(b"q", prefix8(b"q")), 3);
        assert_eq!(t.route(b"n", prefix8(b"n")), 2);
        t.merge(0, 2, 4);
        assert_eq!(t.ids().collect::<Vec<_>>(), vec![4, 3]);
        assert_eq!(t.route(b"n", prefix8(b"n")), 4);
        assert_eq!(t.route(b"p", prefix8(b"p")), 3);
    }

    /// 8 hex digits from `x`, then the 8-byte id `id`: a `hashed` key.
    /// A frozen table (the heat map's buckets on the feed's workers) routes as the live one
    /// searches, with or without hex slots, and through a snapshot with the heat attached.
    #[test]
    fn frozen_tables_route_as_the_search() {
        let mut starts = vec![Vec::new()];
        starts.extend((1..64u32).map(|i| hex_key(i.wrapping_mul(0x0400_0000), 0)));
        starts.push(b"zz".to_vec());
        let live = table(&starts.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let mut chunk = FeedChunk::default();
        let mut x = 0x9E37_79B9u32;
        for i in 0..5000u64 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            chunk.keys.push(i, &hex_key(x, i));
        }
        chunk.keys.push(5000, b"not hex at all");
        for hex in [false, true] {
            let frozen = Router::frozen(&starts, hex);
            assert_eq!(frozen.hex.is_built(), hex);
            let snap = live.snapshot().with_heat(Some(Arc::new(frozen)));
            let (mut regions, mut heat) = (Vec::new(), Vec::new());
            snap.route(&chunk, &mut regions, &mut heat);
            assert_eq!(heat.len(), chunk.keys.ends.len());
            let mut from = 0;
            for ((&end, &r), &h) in chunk.keys.ends.iter().zip(&regions).zip(&heat) {
                let key = &chunk.keys.arena[from..end as usize];
                from = end as usize;
                assert_eq!(r as usize, live.locate(key));
                assert_eq!(
                    h as usize,
                    live.locate(key),
                    "bucket ids are entry positions"
                );
            }
        }
    }

    fn hex_key(x: u32, id: u64) -> Vec<u8> {
        [format!("{x:08x}").into_bytes(), id.to_be_bytes().to_vec()].concat()
    }

    #[test]
    fn hex_slots_settle_the_slots_no_start_shares() {
        // Hex starts, short and non-hex starts (below, inside and above the hex range): few
        // (3 characters resolved), then many (4).
        let few: Vec<Vec<u8>> = [
            &b""[..],
            b"0",
            b"00ff",
            b"12",
            b"1234abcd",
            b"9",
            b"9zz",
            b"a",
            b"b000",
            b"f",
            b"g",
        ]
        .iter()
        .map(|s| s.to_vec())
        .collect();
        let mut many = few.clone();
        many.extend(
            (0..100u32).map(|i| format!("{:08x}", i.wrapping_mul(0x9E37_79B9)).into_bytes()),
        );
        many.sort();
        for (starts, chars) in [(few, 3), (many, 4)] {
            let prefixes: Vec<u64> = starts.iter().map(|s| prefix8(s)).collect();
            let h = HexSlots::build(&prefixes, |i| i);
            assert_eq!((h.chars, h.slots.len()), (chars, 1 << (4 * chars)));
            let mut shared_slots = 0;
            for v in 0..h.slots.len() as u32 {
                let text = &hex_text(v, chars).to_be_bytes()[..chars as usize];
                assert_eq!(text, format!("{v:0w$x}", w = chars as usize).as_bytes());
                let got = h.slots[v as usize];
                if starts
                    .iter()
                    .any(|s| s.len() >= text.len() && s[..text.len()] == *text)
                {
                    assert_eq!(got, HEX_SHARED, "{text:?}");
                    shared_slots += 1;
                    continue;
                }
                // Every key of the slot (lowest and highest 16-byte key) is in its entry.
                for fill in [b'0', b'f'] {
                    let mut key = text.to_vec();
                    key.resize(8, fill);
                    key.extend_from_slice(&[fill.wrapping_mul(4); 8]);
                    let want = starts.iter().rposition(|s| s.as_slice() <= key.as_slice());
                    assert_eq!(got as usize, want.unwrap(), "{key:?}");
                }
            }
            assert!(
                shared_slots >= 3 && shared_slots <= starts.len(),
                "{shared_slots}"
            );
        }
    }

    /// Entries beyond 16 bits leave their slots to the full search: built with such ids, every
    /// slot is shared; a split naming one drops the table (rebuilt after more asks).
    #[test]
    fn hex_slots_leave_ids_beyond_16_bits_to_the_search() {
        let prefixes = [prefix8(b""), prefix8(b"8")];
        let wide = HexSlots::build(&prefixes, |i| 70_000 + i);
        assert!(wide.slots.iter().all(|&e| e == HEX_SHARED));
        let mut h = HexSlots::build(&prefixes, |i| i);
        assert_eq!(h.get_or_build(0x9000_0000, || unreachable!()), Some(1));
        let t = |k: &[u8]| (prefix8(k) >> 32) as u32;
        h.split(1, [t(b"8"), t(b"c"), u32::MAX], [2, 70_000], true, 3);
        assert!(h.slots.is_empty(), "dropped, not left half-updated");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// The write path's hex lookup finds the region a plain search finds, from the table's
        /// build through splits (the slots follow each split in place, and grow from 3 to 4
        /// characters past 16 starts) and a merge.
        #[test]
        fn coded_routes_equal_the_search_through_splits(
            cuts in proptest::collection::vec((proptest::prelude::any::<u32>(), 0u8..4), 1..100),
            keys in proptest::collection::vec((0u32..0x1_0000, proptest::prelude::any::<u16>()), 200),
        ) {
            let mut t = table(&[b""]);
            let mut next_id = 1;
            let check = |t: &mut Router| {
                // Enough keys to build the slots, then the keys sharing slots with starts.
                for (i, &(hi, lo)) in keys.iter().cycle().take(HEX_BUILD_AFTER as usize + 400).enumerate() {
                    let x = (hi << 16) | u32::from(lo);
                    let key = hex_key(x, i as u64);
                    let p = prefix8(&key);
                    let want = t.locate(&key);
                    proptest::prop_assert_eq!(t.route_coded(&key, p, super::hex_digits(p)), want);
                }
                // A copy for the feed's workers routes a chunk alike, its digits handed over
                // or read from the keys, and the table's own starts (hex or not) too.
                let snap = t.snapshot();
                proptest::prop_assert_eq!(snap.epoch(), t.epoch());
                let mut chunk = FeedChunk::default();
                let mut codes = Vec::new();
                for (i, &(hi, lo)) in keys.iter().enumerate() {
                    let x = (hi << 16) | u32::from(lo);
                    chunk.keys.push(i as u64, &hex_key(x, i as u64));
                    codes.push(x);
                }
                let mut out = Vec::new();
                for coded in [false, true] {
                    chunk.keys.codes = if coded { codes.clone() } else { Vec::new() };
                    snap.route(&chunk, &mut out, &mut Vec::new());
                    proptest::prop_assert_eq!(out.len(), keys.len());
                    for (i, &r) in out.iter().enumerate() {
                        let key = &chunk.keys.arena[i * 16..(i + 1) * 16];
                        proptest::prop_assert_eq!(r as usize, t.locate(key));
                    }
                }
                // Codes only (`hashed` chunks from the workers): keys made where slots are
                // shared.
                let mut compact = FeedChunk {
                    hashed_from: Some(0),
                    ..FeedChunk::default()
                };
                compact.keys.codes = codes.clone();
                snap.route(&compact, &mut out, &mut Vec::new());
                proptest::prop_assert_eq!(out.len(), keys.len());
                for (i, &r) in out.iter().enumerate() {
                    let key = &chunk.keys.arena[i * 16..(i + 1) * 16];
                    proptest::prop_assert_eq!(r as usize, t.locate(key));
                }
                let mut starts = FeedChunk::default();
                for (i, (start, _)) in t.entries().iter().enumerate() {
                    if !start.is_empty() {
                        starts.keys.push(i as u64, start);
                    }
                }
                snap.route(&starts, &mut out, &mut Vec::new());
                let mut from = 0;
                for (&end, &r) in starts.keys.ends.iter().zip(&out) {
                    proptest::prop_assert_eq!(r as usize, t.locate(&starts.keys.arena[from..end as usize]));
                    from = end as usize;
                }
                Ok(())
            };
            check(&mut t)?;
            for &(x, kind) in &cuts {
                // A hex split key, one sharing a slot with the keys' starts, or a non-hex one.
                let row = match kind {
                    0 => hex_key(x, 7),
                    1 => hex_key(x & 0xFFFF_0000, 0),
                    2 => format!("{:04x}", x >> 16).into_bytes(),
                    _ => vec![b'0' + (x % 80) as u8; 1 + (x as usize >> 30)],
                };
                if t.entries().iter().any(|(s, _)| *s == row) || row.is_empty() {
                    continue;
                }
                let parent = t.locate(&row);
                t.split(parent, next_id, row, next_id + 1);
                next_id += 2;
                check(&mut t)?;
            }
            if t.len() > 2 {
                let first = t.id_at(0).unwrap();
                t.merge(first, 2, next_id);
                check(&mut t)?;
            }
        }
    }
}
