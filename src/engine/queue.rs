//! The simulated clock's agenda: scheduled events in (time, sequence) order, the count of live
//! work among them (flushes, compactions, splits, moves: what a drained run waits for), and the
//! clock units.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::decision::SplitReason;

/// A split between its request and its daughters' opening.
pub(crate) struct PendingSplit {
    /// The split row.
    pub(crate) row: Vec<u8>,
    /// Requested at, ns.
    pub(crate) requested: u64,
    /// `hbase.hregion.max.filesize` (or the table's MAX_FILESIZE) in force at the request.
    pub(crate) split_size: u64,
    /// Why.
    pub(crate) reason: SplitReason,
}
use super::files::FlushFile;

/// Nanoseconds per millisecond.
pub(crate) const NS_PER_MS: u64 = 1_000_000;
/// Nanoseconds per second.
pub(crate) const NS_PER_S: u64 = 1_000_000_000;

/// Scheduled work, ordered by (time, sequence).
pub(crate) struct Scheduled {
    pub(crate) at: u64,
    seq: u64,
    pub(crate) event: Event,
}

impl PartialEq for Scheduled {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}

impl Eq for Scheduled {}

impl PartialOrd for Scheduled {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Scheduled {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(o.at, o.seq))
    }
}

/// What can happen on the simulated clock.
pub(crate) enum Event {
    FlushDone {
        region: usize,
        server: usize,
        /// Per store: the flush file being written (by the builder) and the real rows behind it.
        files: Vec<Option<(FlushFile, u64)>>,
        heap: u64,
        data: u64,
    },
    FlushRetry {
        region: usize,
        queued: u64,
    },
    /// A running compaction completes, unless `generation` is stale (rescheduled or aborted).
    CompactionDone {
        token: u64,
        generation: u64,
    },
    /// The compaction throughput controllers re-tune their limits (their chore).
    CompactionTune,
    /// Server `server`'s `CompactedHFilesDischarger` chore archives its compacted files.
    Discharge {
        /// Server index.
        server: usize,
    },
    /// The nodes' resource shares are measured and recomputed.
    ResourceTick,
    /// A region's held-back mutations are retried, unless `generation` is stale.
    ClientRetry {
        /// The loader's client holding them (0 for the one shared client).
        client: u32,
        region: usize,
        generation: u64,
    },
    SplitDone {
        region: usize,
        /// Boxed: the typed reason makes it larger than the other events.
        split: Box<PendingSplit>,
    },
    /// A moved (or recovered) region opens on `to`; `record` indexes the move list.
    MoveDone {
        region: usize,
        to: usize,
        record: usize,
    },
    /// Merged regions' replacement opens; `record` indexes the merge list.
    MergeDone {
        regions: Vec<usize>,
        record: usize,
    },
    /// The master's balancer chore.
    Balance,
    /// The next move of a balancer run may start (HMaster.balanceThrottling's interval).
    BalanceNext {
        run: u64,
    },
    /// The normalizer chore.
    Normalize,
    /// A time-triggered scenario `[[event]]` (index into the scenario's events).
    Cluster(usize),
    /// A dead server's regions are reassigned (ServerCrashProcedure after WAL splitting).
    Recover {
        server: usize,
    },
    Chore {
        n: u64,
    },
    /// Timeline sample, every `sample_ns`.
    Sample,
    /// The next row of other table `table` (`[[other_table]]`) arrives.
    TableWrite {
        table: u16,
    },
    /// The `n`-th stop-the-world JVM pause of `server`.
    GcPause {
        server: usize,
        n: u64,
    },
    /// The bulk-load job's last task finished: the loader groups its files.
    BulkJobDone,
    /// A region load of the bulk loader completes (`load` indexes `BulkLoader::loads`).
    BulkRegionLoaded {
        load: usize,
    },
}

impl Event {
    /// Chores that reschedule themselves.
    pub(crate) fn is_periodic(&self) -> bool {
        matches!(
            self,
            Event::Chore { .. }
                | Event::Sample
                | Event::Balance
                | Event::Normalize
                | Event::CompactionTune
                | Event::Discharge { .. }
                | Event::ResourceTick
                | Event::GcPause { .. }
                | Event::TableWrite { .. }
        )
    }
}

/// Nanoseconds to move `bytes` at `per_second` bytes/s (128-bit intermediate: terabytes × 1e9
/// overflows 64 bits).
pub(crate) fn transfer_ns(bytes: u64, per_second: u64) -> u64 {
    let per_second = per_second.max(1);
    // Fast path (the per-row case): bytes × 1e9 fits in 64 bits below 16 GiB.
    if bytes < 1 << 34 {
        return bytes * NS_PER_S / per_second;
    }
    (bytes as u128 * NS_PER_S as u128 / per_second as u128).min(u64::MAX as u128) as u64
}

/// Heap entry: the order key and where the event waits. Kept small (24 bytes, against 80 for a
/// whole `Scheduled`) so the heap's sift moves and compares stay in few cache lines; `seq` is
/// unique, so `slot` never decides an order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    at: u64,
    seq: u64,
    slot: u32,
}

/// The event queue. One sequence counter orders events scheduled for the same time and also
/// numbers compaction tokens and queued compactions, so every tie is broken the same way in
/// every run.
pub(crate) struct EventQueue {
    heap: BinaryHeap<Reverse<Key>>,
    /// The scheduled events, by `Key::slot`; `None` slots are listed in `free`.
    slots: Vec<Option<Scheduled>>,
    free: Vec<u32>,
    /// Time of the earliest scheduled event (`u64::MAX`: none), so a write checks one field
    /// instead of peeking the heap.
    pub(crate) next_at: u64,
    seq: u64,
    /// Scheduled events that are not chores and are still live (a stale compaction completion
    /// stops counting when it goes stale).
    pub(crate) work: u64,
}

impl EventQueue {
    pub(crate) fn new() -> EventQueue {
        EventQueue {
            heap: BinaryHeap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            next_at: u64::MAX,
            seq: 0,
            work: 0,
        }
    }

    /// The next number of the shared sequence.
    pub(crate) fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Schedules `event` at `at`.
    pub(crate) fn push(&mut self, at: u64, event: Event) {
        if !event.is_periodic() {
            self.work += 1;
        }
        let seq = self.next_seq();
        self.next_at = self.next_at.min(at);
        let entry = Some(Scheduled { at, seq, event });
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot as usize] = entry;
                slot
            }
            None => {
                self.slots.push(entry);
                u32::try_from(self.slots.len() - 1).expect("fewer than 2^32 scheduled events")
            }
        };
        self.heap.push(Reverse(Key { at, seq, slot }));
    }

    /// Pops the earliest event, keeping `next_at` current.
    pub(crate) fn pop(&mut self) -> Option<Scheduled> {
        let Reverse(top) = self.heap.pop()?;
        self.next_at = self.heap.peek().map_or(u64::MAX, |Reverse(k)| k.at);
        self.free.push(top.slot);
        self.slots[top.slot as usize].take()
    }

    /// The events scheduled, live or stale, in no particular order.
    pub(crate) fn scheduled(&self) -> impl Iterator<Item = &Scheduled> {
        self.slots.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Events come out in (time, scheduling order), whatever the order they went in, and slots
    // freed by a pop are reused without disturbing that order.
    #[test]
    fn events_pop_by_time_then_sequence_and_slots_are_reused() {
        let mut q = EventQueue::new();
        let times = [50, 10, 30, 10, 70, 30, 20, 10];
        for (n, &at) in times.iter().enumerate() {
            q.push(at, Event::Chore { n: n as u64 });
        }
        assert_eq!(q.next_at, 10);
        let order = |q: &mut EventQueue, k: usize| -> Vec<(u64, u64)> {
            (0..k)
                .map(|_| {
                    let s = q.pop().expect("an event");
                    let Event::Chore { n } = s.event else {
                        panic!("a chore")
                    };
                    (s.at, n)
                })
                .collect()
        };
        assert_eq!(order(&mut q, 3), vec![(10, 1), (10, 3), (10, 7)]);
        assert_eq!(q.next_at, 20);
        // Re-fill the freed slots with events that sort between and after the rest.
        q.push(25, Event::Chore { n: 8 });
        q.push(30, Event::Chore { n: 9 });
        q.push(10, Event::Chore { n: 10 });
        assert_eq!(q.slots.len(), times.len());
        assert_eq!(q.scheduled().count(), 8);
        assert_eq!(
            order(&mut q, 8),
            vec![
                (10, 10),
                (20, 6),
                (25, 8),
                (30, 2),
                (30, 5),
                (30, 9),
                (50, 0),
                (70, 4)
            ]
        );
        assert!(q.pop().is_none());
        assert_eq!(q.next_at, u64::MAX);
        assert_eq!(q.scheduled().count(), 0);
    }
}
