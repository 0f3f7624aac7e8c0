//! The key feed: the emulated rows' keys in id order, generated `CHUNK` rows at a time, on
//! worker threads when the run has threads to spare. Keys are pure functions of (seed, id), so
//! the order and the keys are the same for any thread count; the engine pulls one row at a time.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crossbeam::channel::{Receiver, Sender};

use crate::diag::InputError;
use crate::keygen::Generator;
use crate::keygen::batch::KeyArena;
use crate::keygen::hashed::expand_hashed;
use crate::workload::scale::Sampling;

/// Emulated rows generated per key chunk.
pub const CHUNK: u64 = 16_384;

/// A chunk of the feed's rows: their keys as the generator made them, and what the feed adds.
#[derive(Debug, Default)]
pub(crate) struct FeedChunk {
    /// The keys (with their codes where the generator gave them).
    pub keys: KeyArena,
    /// Set where the chunk holds only codes ([`KeyBatch::codes_into`]): the first row's id,
    /// each row's key being `hashed_key(code, id)` (`keys.arena` and `keys.ends` empty until
    /// `expand_hashed` makes them).
    ///
    /// [`KeyBatch::codes_into`]: crate::keygen::batch::KeyBatch::codes_into
    pub hashed_from: Option<u64>,
    /// Each row's region, where a feed worker routed the chunk (`epoch`'s table): valid only
    /// while as long as `keys.ends`.
    pub regions: Vec<u32>,
    /// The routing table's epoch `regions` were found with.
    pub epoch: u64,
    /// Each row's heat map bucket, where the worker found them: valid only while as long as
    /// `keys.ends`.
    pub heat: Vec<u32>,
}

impl FeedChunk {
    /// Empties it, keeping its buffers.
    fn clear(&mut self) {
        self.keys.clear();
        self.regions.clear();
        self.heat.clear();
        self.hashed_from = None;
    }
}

/// Fills `chunk` with the keys of chunk `c` (its buffers reused: fresh ones would page-fault
/// on every chunk).
/// `codes_only`: a generator that can hands over only its keys' codes (a worker's chunk, made
/// into keys by the engine: [`FeedChunk::hashed_from`]).
fn make(
    generator: &Generator,
    sampling: Sampling,
    c: u64,
    chunk: &mut FeedChunk,
    codes_only: bool,
) -> Result<(), InputError> {
    let n = sampling.emulated();
    let from = c * CHUNK;
    let to = (from + CHUNK).min(n);
    chunk.clear();
    let g = generator.batch();
    let out = &mut chunk.keys;
    if sampling.k == 1 {
        // Exact mode: consecutive ids, so the generator's streaming path applies.
        let ids = sampling.first_id + from..sampling.first_id + to;
        if codes_only && g.codes_into(ids.clone(), &mut out.codes) {
            chunk.hashed_from = Some(ids.start);
        } else {
            out.arena.reserve(((to - from) * 24) as usize);
            out.ends.reserve((to - from) as usize);
            g.keys_into_arena(ids, out);
        }
    } else {
        out.arena.reserve(((to - from) * 24) as usize);
        out.ends.reserve((to - from) as usize);
        // Sampled ids, a few at a time so hashing generators can batch them (`keys_of`).
        let mut ids = [0u64; 64];
        let mut b = from;
        while b < to && out.bad.is_none() {
            let n = ((to - b) as usize).min(ids.len());
            for (i, slot) in ids[..n].iter_mut().enumerate() {
                *slot = sampling.id(b + i as u64);
            }
            g.keys_of(&ids[..n], &mut |id, key| out.push(id, key));
            b += n as u64;
        }
    }
    if let Some(id) = out.bad {
        // Re-derive the key through the checked path for the error message.
        generator.key_checked(id, &mut Vec::new())?;
    }
    Ok(())
}

/// [`make`] for the reference engine: each key of chunk `c` on its own, through the
/// generator's checked path.
fn make_plain(
    generator: &Generator,
    sampling: Sampling,
    c: u64,
    chunk: &mut FeedChunk,
) -> Result<(), InputError> {
    let from = c * CHUNK;
    let to = (from + CHUNK).min(sampling.emulated());
    chunk.clear();
    let out = &mut chunk.keys;
    let mut key = Vec::new();
    for b in from..to {
        let id = sampling.id(b);
        generator.key_checked(id, &mut key)?;
        out.push(id, &key);
    }
    Ok(())
}

/// Routes a chunk's rows to regions as the engine's routing table stood at one epoch: the
/// feed's workers call it on the chunks they make, so that the write path reads each row's
/// region instead of looking it up on the engine's thread.
pub(crate) trait ChunkRouter: Send + Sync {
    /// The table's epoch (its changes so far).
    fn epoch(&self) -> u64;
    /// Each row of `chunk`, its region into `regions`, and its heat map bucket into `heat`
    /// where the router has them (both emptied first).
    fn route(&self, chunk: &FeedChunk, regions: &mut Vec<u32>, heat: &mut Vec<u32>);
}

/// Where the engine leaves the latest [`ChunkRouter`] for the workers.
type RouterCell = Arc<parking_lot::Mutex<Option<Arc<dyn ChunkRouter>>>>;

/// Chunks loaded between two [`KeyFeed::publish`]es at least: a table that changes often
/// (splits at the default scale) is not copied for a few rows each time.
const PUBLISH_EVERY: u64 = 4;

/// Chunks a worker makes ahead of the engine before it waits, and how far the engine reads
/// them down before the worker goes on: one wake-up per `AHEAD_HIGH - AHEAD_LOW` chunks.
/// (With the worker faster than the engine and one chunk of room, every chunk the engine took
/// woke the worker: a wake-up and a context switch per chunk.)
const AHEAD_HIGH: usize = 8;
const AHEAD_LOW: usize = 4;

/// One worker's chunks made and not yet read by the engine, and where the worker waits for
/// them to drop to [`AHEAD_LOW`].
#[derive(Default)]
struct Ahead {
    made: parking_lot::Mutex<usize>,
    drained: parking_lot::Condvar,
}

/// The unread rows of the feed's current chunk ([`KeyFeed::rest`]).
pub struct FeedRest<'a> {
    /// Emulated index of the first row.
    pub first: u64,
    /// Where the first row's key starts in `arena`.
    pub start: usize,
    /// The chunk's keys, back to back.
    pub arena: &'a [u8],
    /// Each row's key end in `arena`.
    pub ends: &'a [u32],
    /// Each row's key's leading hex digits' value ([`KeyArena::codes`]), or empty.
    pub codes: &'a [u32],
    /// Each row's region as a worker routed it with the table of `epoch`, or empty.
    pub regions: &'a [u32],
    /// The routing table's epoch `regions` hold for.
    pub epoch: u64,
    /// Each row's heat map bucket as a worker found it, or empty.
    pub heat: &'a [u32],
}

/// Worker threads generating chunks ahead, and the chunks that arrived out of order.
struct Workers {
    rx: Receiver<(u64, Result<FeedChunk, InputError>)>,
    /// Consumed chunks go back to the workers for reuse.
    back: Sender<FeedChunk>,
    pending: BTreeMap<u64, Result<FeedChunk, InputError>>,
    stop: Arc<AtomicBool>,
    handles: Vec<JoinHandle<()>>,
    /// Per worker, its chunks in flight.
    ahead: Arc<[Ahead]>,
    /// The router the workers route with, the epoch of the last one published, and the chunk
    /// loaded then.
    router: RouterCell,
    published: Option<(u64, u64)>,
}

/// The keys of a run's emulated rows, in id order.
pub struct KeyFeed {
    generator: Arc<Generator>,
    sampling: Sampling,
    chunks: u64,
    /// The chunk being read (`next_chunk - 1`), the row in it, and that row's key start.
    chunk: FeedChunk,
    next_chunk: u64,
    row: usize,
    start: usize,
    workers: Option<Workers>,
    /// Each key made on its own through the generator's checked path, with none of its batch
    /// hooks (the reference engine).
    plain: bool,
    /// A key the generator could not make: the feed stops there.
    error: Option<InputError>,
}

impl KeyFeed {
    /// A feed over `sampling`'s emulated rows; with `threads` ≥ 2, `threads − 1` workers
    /// generate chunks ahead while the caller applies rows.
    pub fn new(generator: Arc<Generator>, sampling: Sampling, threads: usize) -> KeyFeed {
        let chunks = sampling.emulated().div_ceil(CHUNK);
        let workers = (threads > 1 && chunks > 1).then(|| {
            let n = threads - 1;
            // Unbounded: each worker keeps at most AHEAD_HIGH chunks in flight itself.
            let (tx, rx) = crossbeam::channel::unbounded();
            let (back, back_rx) = crossbeam::channel::unbounded::<FeedChunk>();
            let stop = Arc::new(AtomicBool::new(false));
            let router: RouterCell = Arc::default();
            let ahead: Arc<[Ahead]> = (0..n).map(|_| Ahead::default()).collect();
            let handles = (0..n)
                .map(|wk| {
                    let (tx, back_rx, stop) = (tx.clone(), back_rx.clone(), stop.clone());
                    let ahead = ahead.clone();
                    let router = router.clone();
                    let generator = generator.clone();
                    std::thread::spawn(move || {
                        let mut c = wk as u64;
                        while c < chunks && !stop.load(Ordering::Relaxed) {
                            {
                                let mine = &ahead[wk];
                                let mut made = mine.made.lock();
                                if *made >= AHEAD_HIGH {
                                    while *made > AHEAD_LOW && !stop.load(Ordering::Relaxed) {
                                        mine.drained.wait(&mut made);
                                    }
                                }
                                *made += 1;
                            }
                            let mut chunk = back_rx.try_recv().unwrap_or_default();
                            let made = make(&generator, sampling, c, &mut chunk, true).map(|()| {
                                let latest = router.lock().clone();
                                if let Some(r) = latest {
                                    let mut regions = std::mem::take(&mut chunk.regions);
                                    let mut heat = std::mem::take(&mut chunk.heat);
                                    r.route(&chunk, &mut regions, &mut heat);
                                    chunk.regions = regions;
                                    chunk.heat = heat;
                                    chunk.epoch = r.epoch();
                                }
                                chunk
                            });
                            let failed = made.is_err();
                            if tx.send((c, made)).is_err() || failed {
                                break;
                            }
                            c += n as u64;
                        }
                    })
                })
                .collect();
            Workers {
                rx,
                back,
                pending: BTreeMap::new(),
                stop,
                handles,
                ahead,
                router,
                published: None,
            }
        });
        KeyFeed {
            generator,
            sampling,
            chunks,
            chunk: FeedChunk::default(),
            next_chunk: 0,
            row: 0,
            start: 0,
            workers,
            plain: false,
            error: None,
        }
    }

    /// A feed for the reference engine: on the caller's thread, each key made on its own
    /// through `Generator::key_checked`.
    pub fn plain(generator: Arc<Generator>, sampling: Sampling) -> KeyFeed {
        let mut feed = KeyFeed::new(generator, sampling, 1);
        feed.plain = true;
        feed
    }

    /// The next row's emulated index and key, without consuming it. `None`: all rows fed, or
    /// a key the generator cannot make (empty or too long), which [`KeyFeed::error`] then
    /// gives.
    #[inline]
    pub fn peek(&mut self) -> Option<(u64, &[u8])> {
        if self.row >= self.chunk.keys.ends.len() && !self.load_next() {
            return None;
        }
        let end = self.chunk.keys.ends[self.row] as usize;
        let b = (self.next_chunk - 1) * CHUNK + self.row as u64;
        Some((b, &self.chunk.keys.arena[self.start..end]))
    }

    /// Why the feed stopped early, if it did (taken once).
    pub fn error(&mut self) -> Option<InputError> {
        self.error.take()
    }

    /// Consumes the row [`peek`](KeyFeed::peek) returned.
    #[inline]
    pub fn advance(&mut self) {
        if let Some(&end) = self.chunk.keys.ends.get(self.row) {
            self.start = end as usize;
            self.row += 1;
        }
    }

    /// The rows left in the chunk being read, for a caller that takes many at once: the first
    /// one's emulated index, the chunk's key bytes, and the rows' key ends in them (the first
    /// key starts at the returned offset). `None` as for [`KeyFeed::peek`].
    #[inline]
    pub fn rest(&mut self) -> Option<FeedRest<'_>> {
        if self.row >= self.chunk.keys.ends.len() && !self.load_next() {
            return None;
        }
        Some(FeedRest {
            first: (self.next_chunk - 1) * CHUNK + self.row as u64,
            start: self.start,
            arena: &self.chunk.keys.arena,
            ends: &self.chunk.keys.ends[self.row..],
            codes: if self.chunk.keys.codes.len() == self.chunk.keys.ends.len() {
                &self.chunk.keys.codes[self.row..]
            } else {
                &[]
            },
            regions: if self.chunk.regions.len() == self.chunk.keys.ends.len() {
                &self.chunk.regions[self.row..]
            } else {
                &[]
            },
            epoch: self.chunk.epoch,
            heat: if self.chunk.heat.len() == self.chunk.keys.ends.len() {
                &self.chunk.heat[self.row..]
            } else {
                &[]
            },
        })
    }

    /// True when the workers could route the next chunks with a table of `epoch`: they run,
    /// their router is of another epoch, and [`PUBLISH_EVERY`] chunks were loaded since the
    /// last one went to them.
    pub fn wants_router(&self, epoch: u64) -> bool {
        self.workers.as_ref().is_some_and(|w| match w.published {
            None => true,
            Some((e, at)) => e != epoch && self.next_chunk >= at + PUBLISH_EVERY,
        })
    }

    /// Hands `router` to the workers for the chunks they make from now on.
    pub fn publish(&mut self, router: Arc<dyn ChunkRouter>) {
        if let Some(w) = &mut self.workers {
            w.published = Some((router.epoch(), self.next_chunk));
            *w.router.lock() = Some(router);
        }
    }

    /// Consumes the first `n` rows [`KeyFeed::rest`] returned.
    #[inline]
    pub fn skip(&mut self, n: usize) {
        if n > 0 {
            let row = (self.row + n).min(self.chunk.keys.ends.len());
            self.start = self.chunk.keys.ends[row - 1] as usize;
            self.row = row;
        }
    }

    /// Loads the next chunk; false when there is none.
    #[cold]
    #[inline(never)]
    fn load_next(&mut self) -> bool {
        match self.try_load_next() {
            Ok(more) => more,
            Err(e) => {
                // Nothing after a bad key is fed.
                self.error = Some(e);
                self.next_chunk = self.chunks;
                self.chunk.keys.ends.clear();
                false
            }
        }
    }

    fn try_load_next(&mut self) -> Result<bool, InputError> {
        if self.next_chunk >= self.chunks {
            return Ok(false);
        }
        let c = self.next_chunk;
        match &mut self.workers {
            None if self.plain => make_plain(&self.generator, self.sampling, c, &mut self.chunk)?,
            None => make(&self.generator, self.sampling, c, &mut self.chunk, false)?,
            Some(w) => {
                let made = loop {
                    if let Some(made) = w.pending.remove(&c) {
                        break made;
                    }
                    match w.rx.recv() {
                        Ok((i, made)) => {
                            w.pending.insert(i, made);
                        }
                        // Every worker stopped before chunk c: they stop early only after
                        // sending an error, which comes first in id order.
                        Err(_) => return Ok(false),
                    }
                };
                let mine = &w.ahead[(c % w.ahead.len() as u64) as usize];
                let mut left = mine.made.lock();
                *left -= 1;
                if *left == AHEAD_LOW {
                    mine.drained.notify_one();
                }
                drop(left);
                let mut fresh = made?;
                let used = match fresh.hashed_from {
                    // Codes only: the keys are made here, into the chunk this thread read
                    // last (its buffers in this core's caches), and the worker's chunk goes
                    // back with that one's codes, regions and heat buffers.
                    Some(first) => {
                        let own = &mut self.chunk;
                        own.clear();
                        std::mem::swap(&mut own.keys.codes, &mut fresh.keys.codes);
                        std::mem::swap(&mut own.regions, &mut fresh.regions);
                        std::mem::swap(&mut own.heat, &mut fresh.heat);
                        own.epoch = fresh.epoch;
                        let keys = &mut own.keys;
                        expand_hashed(&keys.codes, first, &mut keys.arena, &mut keys.ends);
                        fresh
                    }
                    None => std::mem::replace(&mut self.chunk, fresh),
                };
                let _ = w.back.send(used);
            }
        }
        self.next_chunk += 1;
        self.row = 0;
        self.start = 0;
        Ok(!self.chunk.keys.ends.is_empty())
    }
}

impl Drop for KeyFeed {
    fn drop(&mut self) {
        if let Some(w) = self.workers.take() {
            w.stop.store(true, Ordering::Relaxed);
            for mine in w.ahead.iter() {
                // Under the lock: a worker between its check of `stop` and its wait is not
                // missed.
                let _made = mine.made.lock();
                mine.drained.notify_one();
            }
            // Dropping the receiver makes the workers' next send fail, which ends them.
            drop(w.rx);
            for h in w.handles {
                let _ = h.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::testutil::build_toml;

    const SEQUENTIAL: &str = "[[generator]]\nname = \"g\"\nkind = \"sequential\"\n";
    const HASHED: &str = "[[generator]]\nname = \"h\"\nkind = \"hashed\"\n";

    fn feed_keys(threads: usize, rows: u64, k: u64) -> Vec<(u64, Vec<u8>)> {
        let generator = Arc::new(build_toml(SEQUENTIAL).expect("generator"));
        let sampling = Sampling {
            first_id: 0,
            rows,
            k,
            seed: 7,
        };
        let mut feed = KeyFeed::new(generator, sampling, threads);
        let mut out = Vec::new();
        while let Some((b, key)) = feed.peek() {
            out.push((b, key.to_vec()));
            feed.advance();
        }
        out
    }

    #[test]
    fn every_row_in_id_order_for_any_thread_count() {
        let rows = 3 * CHUNK + 17;
        let one = feed_keys(1, rows, 1);
        assert_eq!(one.len() as u64, rows);
        assert!(one.iter().enumerate().all(|(i, (b, _))| *b == i as u64));
        assert_eq!(feed_keys(3, rows, 1), one);
        let sampled = feed_keys(1, rows * 5, 5);
        assert_eq!(sampled.len() as u64, rows);
        assert_eq!(feed_keys(2, rows * 5, 5), sampled);
    }

    /// `hashed` chunks cross from the workers as codes only and are made into keys on the
    /// reading thread: the same rows as made in place, for any thread count.
    #[test]
    fn hashed_rows_from_codes_equal_the_keys_made_in_place() {
        let generator = Arc::new(build_toml(HASHED).expect("generator"));
        let keys = |threads: usize| {
            let sampling = exact(2 * CHUNK + 100, 5);
            let mut feed = KeyFeed::new(generator.clone(), sampling, threads);
            let mut out = Vec::new();
            while let Some((b, key)) = feed.peek() {
                out.push((b, key.to_vec()));
                feed.advance();
            }
            out
        };
        let one = keys(1);
        assert_eq!(one.len() as u64, 2 * CHUNK + 100);
        assert_eq!(keys(2), one);
        assert_eq!(keys(3), one);
    }

    #[test]
    fn workers_wait_for_the_engine_and_every_row_comes_in_order() {
        // More chunks than the workers keep in flight: they wait for the reader and go on.
        let rows = (3 * AHEAD_HIGH as u64 + 5) * CHUNK + 3;
        let one = feed_keys(1, rows, 1);
        for threads in [2, 3] {
            assert_eq!(feed_keys(threads, rows, 1), one, "threads {threads}");
        }
    }

    #[test]
    fn a_feed_dropped_early_stops_its_waiting_workers() {
        let generator = Arc::new(build_toml(SEQUENTIAL).expect("generator"));
        let sampling = Sampling {
            first_id: 0,
            rows: 4 * AHEAD_HIGH as u64 * CHUNK,
            k: 1,
            seed: 7,
        };
        let mut feed = KeyFeed::new(generator, sampling, 3);
        assert!(feed.peek().is_some());
        // Let the workers fill their chunks in flight and wait; the drop must end them.
        std::thread::sleep(std::time::Duration::from_millis(50));
        drop(feed);
    }

    #[test]
    fn rest_and_skip_give_the_rows_peek_gives() {
        let rows = 2 * CHUNK + 5;
        let one = feed_keys(1, rows, 1);
        let generator = Arc::new(build_toml(SEQUENTIAL).expect("generator"));
        let sampling = Sampling {
            first_id: 0,
            rows,
            k: 1,
            seed: 7,
        };
        let mut feed = KeyFeed::new(generator, sampling, 2);
        let mut out = Vec::new();
        // Alternate: a few rows through `rest`, one through `peek`.
        while let Some(r) = feed.rest() {
            let take = r.ends.len().min(1000);
            let mut start = r.start;
            for (i, &end) in r.ends[..take].iter().enumerate() {
                out.push((r.first + i as u64, r.arena[start..end as usize].to_vec()));
                start = end as usize;
            }
            feed.skip(take);
            if let Some((b, key)) = feed.peek() {
                out.push((b, key.to_vec()));
                feed.advance();
            }
        }
        assert_eq!(out, one);
    }

    /// Every one of `rows` rows from id 0 emulated.
    fn exact(rows: u64, seed: u64) -> Sampling {
        Sampling {
            first_id: 0,
            rows,
            k: 1,
            seed,
        }
    }

    #[test]
    fn a_dropped_feed_stops_its_workers() {
        let generator = Arc::new(build_toml(SEQUENTIAL).expect("generator"));
        let sampling = exact(100 * CHUNK, 1);
        let mut feed = KeyFeed::new(generator, sampling, 3);
        assert!(feed.peek().is_some());
        drop(feed);
    }

    /// A plugged-in generator whose key for id 70,000 is empty (HBase rejects empty rows).
    struct EmptyAt70k;

    impl crate::keygen::RowKeyGenerator for EmptyAt70k {
        fn key_into(&self, id: u64, out: &mut Vec<u8>) {
            if id != 70_000 {
                out.extend_from_slice(&id.to_be_bytes());
            }
        }

        fn describe(&self) -> String {
            "empty at 70000".into()
        }
    }

    #[test]
    fn a_bad_key_stops_the_feed_with_an_error_for_any_thread_count() {
        for threads in [1, 3] {
            let generator = Arc::new(Generator::new("g", EmptyAt70k));
            let sampling = Sampling {
                first_id: 0,
                rows: 10 * CHUNK,
                k: 1,
                seed: 1,
            };
            let mut feed = KeyFeed::new(generator, sampling, threads);
            let mut rows = 0u64;
            while feed.peek().is_some() {
                feed.advance();
                rows += 1;
            }
            // The rows of the chunks before the bad key's chunk are fed; then the error.
            assert_eq!(rows, 70_000 / CHUNK * CHUNK, "{threads} threads");
            let e = feed.error().expect("the bad key's error").to_string();
            assert!(e.contains("70000") || e.contains("empty"), "{e}");
            assert!(feed.error().is_none());
            assert!(feed.peek().is_none());
        }
    }

    /// Routes row `i` of a chunk to `epoch * 1000 + the key's last byte`.
    struct ByLastByte(u64);

    impl ChunkRouter for ByLastByte {
        fn epoch(&self) -> u64 {
            self.0
        }

        fn route(&self, chunk: &FeedChunk, out: &mut Vec<u32>, heat: &mut Vec<u32>) {
            out.clear();
            heat.clear();
            let keys = &chunk.keys;
            out.extend(
                keys.ends
                    .iter()
                    .map(|&end| (self.0 * 1000) as u32 + u32::from(keys.arena[end as usize - 1])),
            );
        }
    }

    #[test]
    fn workers_route_the_chunks_they_make_after_a_router_is_published() {
        let generator = Arc::new(build_toml(SEQUENTIAL).expect("generator"));
        let sampling = exact(40 * CHUNK, 7);
        // No workers: nothing to publish to.
        let alone = KeyFeed::new(generator.clone(), sampling, 1);
        assert!(!alone.wants_router(0));
        let mut feed = KeyFeed::new(generator, sampling, 2);
        assert!(feed.wants_router(0));
        feed.publish(Arc::new(ByLastByte(0)));
        assert!(!feed.wants_router(0), "already has epoch 0");
        // The next chunks (made before or after the router arrived) carry regions of epoch 0
        // or none; each one's regions are the router's for its rows.
        let mut routed = 0;
        let check = |rest: &FeedRest<'_>, routed: &mut usize| {
            if rest.regions.is_empty() {
                return;
            }
            assert_eq!(rest.regions.len(), rest.ends.len());
            let mut from = rest.start;
            for (&end, &r) in rest.ends.iter().zip(rest.regions) {
                let last = rest.arena[end as usize - 1];
                assert!(end as usize > from);
                assert_eq!(r, rest.epoch as u32 * 1000 + u32::from(last));
                from = end as usize;
            }
            *routed += 1;
        };
        // Workers may have queued chunks made before the router arrived (more of them on a
        // loaded host): read at least 8, then on until a routed one comes, within half the rows.
        for i in 0..20 {
            let rest = feed.rest().expect("rows");
            check(&rest, &mut routed);
            let n = rest.ends.len();
            feed.skip(n);
            if i >= 7 && routed > 0 {
                break;
            }
        }
        assert!(routed > 0, "some chunks were routed");
        // A new epoch goes to the workers only after a few chunks more.
        assert!(feed.wants_router(1));
        feed.publish(Arc::new(ByLastByte(1)));
        assert!(
            !feed.wants_router(2),
            "published {PUBLISH_EVERY} chunks ago at most"
        );
        let mut epochs = Vec::new();
        while let Some(rest) = feed.rest() {
            check(&rest, &mut routed);
            epochs.push((rest.epoch, rest.regions.is_empty()));
            let n = rest.ends.len();
            feed.skip(n);
        }
        assert!(
            epochs.contains(&(1, false)),
            "later chunks routed at epoch 1"
        );
        let first_new = epochs.iter().position(|e| e.0 == 1).expect("epoch 1");
        assert!(epochs[first_new..].iter().all(|e| e.0 == 1), "{epochs:?}");
    }
}
