//! MD5-prefixed keys: `hashed` (the classic HashRowKeyGenerator), `md5-prefix`, `md5-legacy`.
//!
//! HBase's `MD5Hash.getMD5AsHex` prints the digest as lowercase hex; all three kinds do the same.

use super::spec::KindEntry;
use std::ops::Range;

use toml::Spanned;

use super::RowKeyGenerator;
use super::batch::{KeyArena, KeyBatch};
use super::enc::{self, push_decimal, push_hex_prefix, push_hex_u64};
use super::md5x::{self, Batch, Batch8};
use super::spec::{self, GeneratorSpec, opt_err};
use super::timeseries::Clock;
use crate::diag::InputError;

/// The `hashed` kind (HashRowKeyGenerator): its clock's options.
pub(crate) static HASHED: KindEntry = KindEntry::new(
    "hashed",
    &["start_ms", "step_ms", "fixed_step"],
    |spec, _, seed| Ok(Box::new(HashRowKey::from_spec(spec, seed)?)),
);

/// The `md5-prefix` kind.
pub(crate) static MD5_PREFIX: KindEntry = KindEntry::new(
    "md5-prefix",
    &["hex_chars", "separator", "id_format", "width"],
    |spec, _, _| Ok(Box::new(Md5Prefix::from_spec(spec)?)),
);

/// The `md5-legacy` kind: no options.
pub(crate) static MD5_LEGACY: KindEntry =
    KindEntry::new("md5-legacy", &[], |_, _, _| Ok(Box::new(Md5Legacy)));

/// `hashed`: the widely copied HBase `HashRowKeyGenerator`: `currentTime += nextInt(1000)`, then
/// `key = MD5Hash.getMD5AsHex(low4(id) ‖ low4(time)).substring(0, 8) ‖ Bytes.toBytes(id)`.
/// Low 4 bytes = bytes 4..8 of the big-endian long. 16 bytes per key.
#[derive(Debug, Clone)]
pub struct HashRowKey {
    clock: Clock,
}

impl HashRowKey {
    /// From a spec (clock options; default step `nextInt(1000)`).
    pub fn from_spec(spec: &GeneratorSpec, seed: u64) -> Result<HashRowKey, InputError> {
        Ok(HashRowKey {
            clock: Clock::from_spec(spec, seed)?,
        })
    }

    /// The MD5 input of `id` at clock time `ts`: low 4 bytes of each.
    #[inline]
    fn input(id: u64, ts: u64) -> [u8; 8] {
        let mut input = [0u8; 8];
        input[..4].copy_from_slice(&id.to_be_bytes()[4..]);
        input[4..].copy_from_slice(&ts.to_be_bytes()[4..]);
        input
    }

    /// Calls `f(first, n, batch)` for blocks of consecutive `ids`, `batch` holding the digest
    /// heads of the `n` ids from `first` ([`Batch8::heads`]): the clock's times a block at a
    /// time, each block's MD5 inputs loaded as words (the low halves of id and time,
    /// big-endian) into one batch.
    #[inline]
    fn heads_by_block(&self, ids: Range<u64>, mut f: impl FnMut(u64, usize, &Batch8)) {
        let mut batch = Batch8::new();
        self.clock.for_each_block(ids, |first, times| {
            let n = times.len();
            batch.load(n, |j| {
                let id = first + j as u64;
                ((id as u32).swap_bytes(), (times[j] as u32).swap_bytes())
            });
            batch.run_heads();
            f(first, n, &batch);
        });
    }

    /// The key of `id` at clock time `ts`.
    #[inline]
    pub fn write(id: u64, ts: u64, out: &mut Vec<u8>) {
        push_hex_prefix(out, &enc::md5(&Self::input(id, ts)), 8);
        out.extend_from_slice(&id.to_be_bytes());
    }
}

/// The 16-byte key of `id` from its digest's first 4 bytes: 8 lowercase hex characters, then
/// the id.
#[inline]
fn hashed_key_of_head(head: [u8; 4], id: u64) -> [u8; 16] {
    let mut k = [0u8; 16];
    k[..8].copy_from_slice(&enc::hex4(head));
    k[8..].copy_from_slice(&id.to_be_bytes());
    k
}

/// The 16-byte `hashed` key of `id` whose 8 hex digits print `code` (its digest head read
/// big-endian).
#[inline]
pub fn hashed_key(code: u32, id: u64) -> [u8; 16] {
    hashed_key_of_head(code.to_be_bytes(), id)
}

/// Appends the `hashed` keys of a hashed batch (`ids` in lane order): built on the stack and
/// copied in once, instead of two growing pushes per key.
fn push_hashed(b: &Batch8, ids: &[u64], out: &mut KeyArena) {
    let mut keys = [[0u8; 16]; md5x::LANES8];
    for (i, (&id, k)) in ids.iter().zip(&mut keys).enumerate() {
        *k = hashed_key_of_head(b.head(i), id);
    }
    let base = out.arena.len();
    out.arena
        .extend_from_slice(keys[..ids.len()].as_flattened());
    out.ends
        .extend((1..=ids.len()).map(|j| (base + 16 * j) as u32));
    // The hex digits' value: the head's bytes read big-endian, as they are printed.
    out.codes
        .extend((0..ids.len()).map(|i| u32::from_be_bytes(b.head(i))));
}

/// Appends to a chunk's `arena` and `ends` (not its codes) the `hashed` keys of consecutive ids
/// from `first` whose digest heads have the values `codes` (the keys' `hex_digits`): the
/// feed's workers hand over only the codes, and the engine makes the keys here, into buffers
/// that stay in its own caches (the keys crossing from core to core cost more than making
/// them again).
pub fn expand_hashed(codes: &[u32], first: u64, arena: &mut Vec<u8>, ends: &mut Vec<u32>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(t) = crate::kernel::active().avx512() {
        t.hashed_keys(codes, first, arena, ends);
        return;
    }
    expand_hashed_scalar(codes, first, arena, ends);
}

/// [`expand_hashed`] without SIMD.
fn expand_hashed_scalar(codes: &[u32], first: u64, arena: &mut Vec<u8>, ends: &mut Vec<u32>) {
    arena.reserve(16 * codes.len());
    ends.reserve(codes.len());
    for (j, &c) in codes.iter().enumerate() {
        arena.extend_from_slice(&hashed_key(c, first.wrapping_add(j as u64)));
        ends.push(arena.len() as u32);
    }
}

/// The `hex_digits` values of a hashed batch's first `n` heads (the digest's first 4 bytes
/// read big-endian, as they are printed), appended to `codes`.
#[inline]
fn push_codes(heads: &[u32; md5x::LANES8], n: usize, codes: &mut Vec<u32>) {
    codes.extend(heads[..n].iter().map(|h| h.swap_bytes()));
}

/// A SIMD MD5 batch as [`batched`] drives it: messages of type `Msg` in, digests by lane out.
trait Lanes {
    type Msg;
    fn push_msg(&mut self, m: Self::Msg);
    fn queued(&self) -> usize;
    fn full(&self) -> bool;
    fn hash(&mut self);
}

/// 8-byte messages (`hashed`, `md5-prefix`).
impl Lanes for Batch8 {
    type Msg = [u8; 8];
    fn push_msg(&mut self, m: [u8; 8]) {
        self.push(m);
    }
    fn queued(&self) -> usize {
        self.len()
    }
    fn full(&self) -> bool {
        self.is_full()
    }
    fn hash(&mut self) {
        self.run();
    }
}

/// Decimal ids (`md5-legacy`): up to 20 digits and their count.
impl Lanes for Batch {
    type Msg = ([u8; 20], usize);
    fn push_msg(&mut self, (digits, n): ([u8; 20], usize)) {
        self.push(&digits[..n]);
    }
    fn queued(&self) -> usize {
        self.len()
    }
    fn full(&self) -> bool {
        self.is_full()
    }
    fn hash(&mut self) {
        self.run();
    }
}

/// Streams the keys of ids through a SIMD MD5 batch: `ids` gives each id's message, `emit`
/// turns (id, the hashed batch, its lane) into the key handed to `f`.
fn batched<B: Lanes>(
    mut batch: B,
    ids: impl FnOnce(&mut dyn FnMut(u64, B::Msg)),
    mut emit: impl FnMut(u64, &B, usize, &mut dyn FnMut(u64, &[u8])),
    f: &mut dyn FnMut(u64, &[u8]),
) {
    let mut pending = [0u64; md5x::LANES8];
    let mut drain = |batch: &mut B, pending: &[u64], f: &mut dyn FnMut(u64, &[u8])| {
        let n = batch.queued();
        batch.hash();
        for (i, &id) in pending[..n].iter().enumerate() {
            emit(id, batch, i, f);
        }
    };
    ids(&mut |id, msg| {
        pending[batch.queued()] = id;
        batch.push_msg(msg);
        if batch.full() {
            drain(&mut batch, &pending, f);
        }
    });
    if batch.queued() > 0 {
        drain(&mut batch, &pending, f);
    }
}

/// 8-byte messages hashed a SIMD batch at a time, each key written by `emit(batch, lane, id,
/// out)` straight into the feed's arena, in id order.
struct ArenaBatch<E> {
    batch: Batch8,
    /// `emit` reads only [`Batch8::head`]s.
    heads: bool,
    pending: [u64; md5x::LANES8],
    emit: E,
}

impl<E: Fn(&Batch8, &[u64], &mut KeyArena)> ArenaBatch<E> {
    fn new(heads: bool, emit: E) -> ArenaBatch<E> {
        ArenaBatch {
            batch: Batch8::new(),
            heads,
            pending: [0; md5x::LANES8],
            emit,
        }
    }

    #[inline]
    fn push(&mut self, id: u64, msg: [u8; 8], out: &mut KeyArena) {
        self.pending[self.batch.len()] = id;
        self.batch.push(msg);
        if self.batch.is_full() {
            self.drain(out);
        }
    }

    fn drain(&mut self, out: &mut KeyArena) {
        let n = self.batch.len();
        if self.heads {
            self.batch.run_heads();
        } else {
            self.batch.run();
        }
        (self.emit)(&self.batch, &self.pending[..n], out);
    }

    fn finish(mut self, out: &mut KeyArena) {
        if !self.batch.is_empty() {
            self.drain(out);
        }
    }
}

impl RowKeyGenerator for HashRowKey {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        Self::write(id, self.clock.at(id), out);
    }
    fn describe(&self) -> String {
        format!(
            "hashed (HashRowKeyGenerator): 8 hex of MD5(low4(id) ++ low4(time)) + [id:8 BE]; {}",
            self.clock.describe()
        )
    }
    fn distinct_keys(&self) -> bool {
        // The id's 8 bytes follow a fixed 8-character prefix.
        true
    }
}

impl KeyBatch for HashRowKey {
    fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        batched(
            Batch8::new(),
            |push| {
                self.clock
                    .for_each(ids, |id, ts| push(id, Self::input(id, ts)))
            },
            |id, b, i, f| f(id, &hashed_key_of_head(b.head(i), id)),
            f,
        );
    }
    fn keys_into_arena(&self, ids: Range<u64>, out: &mut KeyArena) {
        // The feed's hottest loop (`heads_by_block`), the keys formatted 8 per vector.
        let mut ids_buf = [0u64; md5x::LANES8];
        #[cfg(target_arch = "x86_64")]
        let simd = crate::kernel::active().avx512();
        self.heads_by_block(ids, |first, n, batch| {
            #[cfg(target_arch = "x86_64")]
            if let Some(t) = simd {
                let from = out.codes.len();
                push_codes(batch.heads(), n, &mut out.codes);
                t.hashed_keys(&out.codes[from..], first, &mut out.arena, &mut out.ends);
                return;
            }
            for (j, slot) in ids_buf[..n].iter_mut().enumerate() {
                *slot = first + j as u64;
            }
            push_hashed(batch, &ids_buf[..n], out);
        });
    }
    fn codes_into(&self, ids: Range<u64>, codes: &mut Vec<u32>) -> bool {
        self.heads_by_block(ids, |_, n, batch| push_codes(batch.heads(), n, codes));
        true
    }
    fn keys_of(&self, ids: &[u64], f: &mut dyn FnMut(u64, &[u8])) {
        batched(
            Batch8::new(),
            |push| {
                self.clock
                    .for_ids(ids.iter().copied(), |id, ts| push(id, Self::input(id, ts)))
            },
            |id, b, i, f| f(id, &hashed_key_of_head(b.head(i), id)),
            f,
        );
    }
}

/// `md5-prefix`: first `hex_chars` hex chars of MD5(8-byte BE id) ‖ separator ‖ id.
#[derive(Debug, Clone)]
pub struct Md5Prefix {
    hex_chars: usize,
    separator: Vec<u8>,
    decimal: bool,
    width: usize,
}

/// Reads `id_format`, `separator`, `width` (shared with `salted`): (decimal?, separator, width).
pub(crate) fn id_options(spec: &GeneratorSpec) -> Result<(bool, Vec<u8>, usize), InputError> {
    let decimal = spec::choice(&spec.id_format, "id_format", &["binary", "decimal"])? == "decimal";
    let separator = spec::text(&spec.separator, if decimal { "_" } else { "" });
    if separator.len() > 1024 {
        return Err(opt_err(
            "separator",
            spec.separator.as_ref().map_or(0..0, Spanned::span),
            "separator is longer than 1024 bytes",
            "a short separator such as \"_\" or \"\"",
        ));
    }
    let width = match &spec.width {
        Some(w) if !decimal => {
            return Err(opt_err(
                "width",
                w.span(),
                "`width` applies only to a decimal id",
                "`id_format = \"decimal\"` with `width`, or no `width`",
            ));
        }
        _ => spec::int(&spec.width, "width", 0, 0..=20)? as usize,
    };
    Ok((decimal, separator.as_bytes().to_vec(), width))
}

/// Appends the id as 8 BE bytes or padded decimal.
#[inline]
pub(crate) fn push_id(out: &mut Vec<u8>, id: u64, decimal: bool, width: usize) {
    if decimal {
        push_decimal(out, id, width, b'0');
    } else {
        out.extend_from_slice(&id.to_be_bytes());
    }
}

impl Md5Prefix {
    /// From a spec (`hex_chars` 1..=32 default 8, `id_format`, `separator`, `width`).
    pub fn from_spec(spec: &GeneratorSpec) -> Result<Md5Prefix, InputError> {
        let hex_chars = spec::int(&spec.hex_chars, "hex_chars", 8, 1..=32)? as usize;
        let (decimal, separator, width) = id_options(spec)?;
        Ok(Md5Prefix {
            hex_chars,
            separator,
            decimal,
            width,
        })
    }
}

impl RowKeyGenerator for Md5Prefix {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        push_hex_prefix(out, &enc::md5(&id.to_be_bytes()), self.hex_chars);
        out.extend_from_slice(&self.separator);
        push_id(out, id, self.decimal, self.width);
    }
    fn distinct_keys(&self) -> bool {
        // The id, whole, follows a fixed-length prefix and separator.
        true
    }
    fn describe(&self) -> String {
        format!(
            "md5-prefix: {} hex of MD5([id:8 BE]) + {:?} + id ({})",
            self.hex_chars,
            String::from_utf8_lossy(&self.separator),
            if self.decimal {
                "decimal"
            } else {
                "8 bytes BE"
            }
        )
    }
}

impl KeyBatch for Md5Prefix {
    fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        self.batch_keys(ids, f);
    }
    fn keys_into_arena(&self, ids: Range<u64>, out: &mut KeyArena) {
        // Written in place: no call through `dyn` per key, no key buffer. Keys are at least
        // one hex character and at most 32 + 1,024 + 20 bytes: HBase takes them all.
        let short = self.hex_chars == 8 && self.separator.is_empty() && !self.decimal;
        let mut a = ArenaBatch::new(short, |b: &Batch8, ids: &[u64], out: &mut KeyArena| {
            if short {
                // 8 hex characters and the 8-byte id, as `hashed` writes them.
                push_hashed(b, ids, out);
                return;
            }
            for (i, &id) in ids.iter().enumerate() {
                push_hex_prefix(&mut out.arena, &b.digest(i), self.hex_chars);
                out.arena.extend_from_slice(&self.separator);
                push_id(&mut out.arena, id, self.decimal, self.width);
                out.ends.push(out.arena.len() as u32);
            }
        });
        for id in ids {
            a.push(id, id.to_be_bytes(), out);
        }
        a.finish(out);
    }
    fn keys_of(&self, ids: &[u64], f: &mut dyn FnMut(u64, &[u8])) {
        self.batch_keys(ids.iter().copied(), f);
    }
}

impl Md5Prefix {
    /// The keys of `ids`, hashed a batch of ids at a time.
    fn batch_keys(&self, ids: impl Iterator<Item = u64>, f: &mut dyn FnMut(u64, &[u8])) {
        let mut buf = Vec::with_capacity(64);
        batched(
            Batch8::new(),
            |push| ids.for_each(|id| push(id, id.to_be_bytes())),
            |id, b, i, f| {
                buf.clear();
                push_hex_prefix(&mut buf, &b.digest(i), self.hex_chars);
                buf.extend_from_slice(&self.separator);
                push_id(&mut buf, id, self.decimal, self.width);
                f(id, &buf);
            },
            f,
        );
    }
}

/// `md5-legacy`: `String.format("%08x", toInt(MD5(decimal id)[0..4]) & 0x7FFFFFFF) + "_" + id`:
/// prefixes span `00000000`..`7fffffff`, the key space of the old `MD5StringSplit`
/// (RegionSplitter's pre-HexStringSplit name).
#[derive(Debug, Clone, Copy)]
pub struct Md5Legacy;

impl RowKeyGenerator for Md5Legacy {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        let (digits, n) = enc::decimal_bytes(id);
        let d = enc::md5(&digits[..n]);
        let h = u32::from_be_bytes([d[0], d[1], d[2], d[3]]) & 0x7FFF_FFFF;
        push_hex_u64(out, u64::from(h), 8, false);
        out.push(b'_');
        out.extend_from_slice(&digits[..n]);
    }
    fn describe(&self) -> String {
        "md5-legacy: %08x of (MD5(decimal id)[0..4] & 0x7FFFFFFF) + \"_\" + decimal id".into()
    }
}

impl KeyBatch for Md5Legacy {
    fn keys_into(&self, ids: Range<u64>, f: &mut dyn FnMut(u64, &[u8])) {
        legacy_batch_keys(ids, f);
    }
    fn keys_of(&self, ids: &[u64], f: &mut dyn FnMut(u64, &[u8])) {
        legacy_batch_keys(ids.iter().copied(), f);
    }
}

/// `md5-legacy` keys of `ids`, hashed a batch of ids at a time.
fn legacy_batch_keys(ids: impl Iterator<Item = u64>, f: &mut dyn FnMut(u64, &[u8])) {
    let mut buf = Vec::with_capacity(32);
    batched(
        Batch::new(),
        |push| ids.for_each(|id| push(id, enc::decimal_bytes(id))),
        |id, b, i, f| {
            let d = b.digest(i);
            buf.clear();
            let h = u32::from_be_bytes([d[0], d[1], d[2], d[3]]) & 0x7FFF_FFFF;
            push_hex_u64(&mut buf, u64::from(h), 8, false);
            buf.push(b'_');
            push_decimal(&mut buf, id, 0, b'0');
            f(id, &buf);
        },
        f,
    );
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;
    use crate::keynotation::{to_hex, to_string_binary};

    /// A chunk of codes only, made into keys (on every kernel set the CPU runs, and the
    /// scalar path), holds the keys and codes `keys_into_arena` writes; over ranges that do
    /// not fill whole vectors, and at the last ids there are.
    #[test]
    fn codes_made_into_keys_equal_the_keys() {
        crate::kernel::for_each_runnable(|_| codes_made_into_keys_equal_the_keys_on());
    }

    fn codes_made_into_keys_equal_the_keys_on() {
        let g = build_toml("[[generator]]\nname='h'\nkind='hashed'\n").unwrap();
        for ids in [1..1000, 0..1, 5..13, u64::MAX - 40..u64::MAX] {
            let mut want = KeyArena::default();
            g.batch().keys_into_arena(ids.clone(), &mut want);
            let mut codes = Vec::new();
            assert!(g.batch().codes_into(ids.clone(), &mut codes));
            assert_eq!(codes, want.codes);
            assert_eq!(codes.len(), want.ends.len());
            let (mut arena, mut ends) = (b"xy".to_vec(), vec![2]);
            expand_hashed(&codes, ids.start, &mut arena, &mut ends);
            let (mut arena2, mut ends2) = (b"xy".to_vec(), vec![2]);
            expand_hashed_scalar(&codes, ids.start, &mut arena2, &mut ends2);
            for (a, e) in [(&arena, &ends), (&arena2, &ends2)] {
                assert_eq!(&a[2..], &want.arena[..], "{ids:?}");
                let shifted: Vec<u32> = want.ends.iter().map(|&x| x + 2).collect();
                assert_eq!(&e[1..], &shifted[..], "{ids:?}");
            }
        }
        // Other generators hand over keys.
        let seq = build_toml("[[generator]]\nname='s'\nkind='sequential'\n").unwrap();
        assert!(!seq.batch().codes_into(0..10, &mut Vec::new()));
    }

    // Mirrors HashRowKeyGenerator.nextId(): MD5Hash.getMD5AsHex(Bytes.add(lowU, lowT))
    // .substring(0, 8) followed by Bytes.toBytes(currentId).
    #[test]
    fn hashed_prefix_is_md5_of_the_exact_eight_input_bytes() {
        let g = build_toml("[[generator]]\nname='h'\nkind='hashed'\n").unwrap();
        let clock = Clock::from_spec(
            &spec("[[generator]]\nname='h'\nkind='hashed'\n"),
            super::super::generator_seed(42, "h"),
        )
        .unwrap();
        for id in [0u64, 1, 1023, 1024, 0x1_2345_6789] {
            let k = key(&g, id);
            assert_eq!(k.len(), 16);
            assert_eq!(&k[8..], &id.to_be_bytes());
            let ts = clock.at(id);
            let mut input = Vec::new();
            input.extend_from_slice(&(id as u32).to_be_bytes());
            input.extend_from_slice(&(ts as u32).to_be_bytes());
            assert_eq!(&k[..8], &to_hex(&enc::md5(&input)).as_bytes()[..8]);
            assert!(
                k[..8]
                    .iter()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
            );
        }
        assert_keys_into_consistent(g.batch(), 1000..3100);
    }

    #[test]
    fn hashed_hand_computed_with_fixed_clock() {
        // start 0, fixed step 0: time 0, id 1 → MD5(00 00 00 01 00 00 00 00).
        let g = build_toml(
            "[[generator]]\nname='h'\nkind='hashed'\nstart_ms=0\nstep_ms=0\nfixed_step=true\n",
        )
        .unwrap();
        let expected_prefix = &to_hex(&enc::md5(&[0, 0, 0, 1, 0, 0, 0, 0]))[..8];
        let k = key(&g, 1);
        assert_eq!(
            to_string_binary(&k),
            format!("{expected_prefix}\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01")
        );
    }

    #[test]
    fn md5_prefix_defaults_and_decimal() {
        let g = build_toml("[[generator]]\nname='m'\nkind='md5-prefix'\n").unwrap();
        let k = key(&g, 1);
        let full = to_hex(&enc::md5(&1u64.to_be_bytes()));
        assert_eq!(&k[..8], &full.as_bytes()[..8]);
        assert_eq!(&k[8..], &1u64.to_be_bytes());
        let g = build_toml(
            "[[generator]]\nname='m'\nkind='md5-prefix'\nhex_chars=4\nid_format='decimal'\nwidth=5\n",
        )
        .unwrap();
        assert_eq!(
            key(&g, 42),
            format!("{}_00042", &to_hex(&enc::md5(&42u64.to_be_bytes()))[..4]).as_bytes()
        );
        let g = build_toml(
            "[[generator]]\nname='m'\nkind='md5-prefix'\nhex_chars=32\nseparator=''\nid_format='decimal'\n",
        )
        .unwrap();
        assert_eq!(key(&g, 7).len(), 33);
    }

    #[test]
    fn md5_prefix_bad_options() {
        let e = build_toml("[[generator]]\nname='m'\nkind='md5-prefix'\nhex_chars=33\n")
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.hex_chars"));
        let e = build_toml("[[generator]]\nname='m'\nkind='md5-prefix'\nwidth=3\n")
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.width"));
        let e = build_toml("[[generator]]\nname='m'\nkind='md5-prefix'\nid_format='hex'\n")
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("generator.id_format"));
    }

    /// The batched (SIMD MD5) `keys_into` of every MD5 kind equals the per-key path that mirrors
    /// HBase's `MD5Hash.getMD5AsHex`, over ranges that end mid-batch.
    #[test]
    fn batched_keys_into_equals_key_into_for_every_md5_kind() {
        for text in [
            "[[generator]]\nname='h'\nkind='hashed'\n",
            "[[generator]]\nname='m'\nkind='md5-prefix'\n",
            "[[generator]]\nname='m'\nkind='md5-prefix'\nhex_chars=32\nid_format='decimal'\nwidth=4\n",
            "[[generator]]\nname='l'\nkind='md5-legacy'\n",
        ] {
            let g = build_toml(text).unwrap();
            // The last range ends a few ids below the largest: a partial batch there must not
            // step past it.
            for ids in [
                0..1,
                5..21,
                1020..1049,
                99_999_990..100_000_007,
                u64::MAX - 40..u64::MAX - 1,
            ] {
                assert_keys_into_consistent(g.batch(), ids);
            }
            // Scattered ids (a scaled run's samples), in a batch longer than the SIMD lanes.
            let ids: Vec<u64> = (0..37u64).map(|i| i * 1_074 + (i * i) % 7).collect();
            let mut got = Vec::new();
            g.keys_of(&ids, &mut |id, k| got.push((id, k.to_vec())));
            let want: Vec<(u64, Vec<u8>)> = ids
                .iter()
                .map(|&id| {
                    let mut b = Vec::new();
                    g.batch().key_into(id, &mut b);
                    (id, b)
                })
                .collect();
            assert_eq!(got, want, "{text}");
        }
    }

    // MD5("1") = c4ca4238a0b923820dcc509a6f75849b; 0xc4ca4238 & 0x7fffffff = 0x44ca4238.
    #[test]
    fn md5_legacy_id_1() {
        let g = build_toml("[[generator]]\nname='l'\nkind='md5-legacy'\n").unwrap();
        assert_eq!(key(&g, 1), b"44ca4238_1");
        // MD5("0") = cfcd208495d565ef66e7dff9f98764da → 0x4fcd2084
        assert_eq!(key(&g, 0), b"4fcd2084_0");
        for id in 0..1000 {
            let k = key(&g, id);
            assert!(k[0] <= b'7', "prefix must stay in 00000000..7fffffff");
        }
    }
}
