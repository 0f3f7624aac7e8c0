//! The loader's HBase client: when a mutation that a region refused is tried again, and when it
//! fails (`AsyncProcess`, `ConnectionUtils.getPauseTime`, `HConstants.RETRY_BACKOFF`). Pure.

use crate::config::ClientSettings;

/// `HConstants.RETRY_BACKOFF`: multipliers of `hbase.client.pause` by try; the last repeats.
pub const RETRY_BACKOFF: [u64; 13] = [1, 2, 3, 5, 10, 20, 40, 100, 100, 100, 100, 200, 200];

/// Why a region refused a mutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `NotServingRegionException` / `RegionMovedException`: closed for a split, move or merge,
    /// or its server died.
    Offline,
    /// `RegionTooBusyException`: memstore above flush size × block multiplier
    /// (`HRegion.checkResources`).
    TooBusy,
}

/// What happens to a region's held-back mutations at a retry that the region refuses again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryOutcome {
    /// Try again after this many ns.
    Again(u64),
    /// The operation fails (`RetriesExhaustedWithDetailsException`, or the operation timeout).
    Fail(FailWhy),
}

/// Why an operation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailWhy {
    /// More than `hbase.client.retries.number` retries.
    RetriesExhausted,
    /// Retried for longer than `hbase.client.operation.timeout`.
    OperationTimeout,
}

/// `ConnectionUtils.getPauseTime(pause, tries)` without its random 1 % jitter, ns.
pub fn pause_ns(pause_ms: u64, tries: u32) -> u64 {
    let i = (tries as usize).min(RETRY_BACKOFF.len() - 1);
    pause_ms
        .saturating_mul(RETRY_BACKOFF[i])
        .saturating_mul(1_000_000)
}

/// The mutations of a region were refused for the `tries`-th time (0 = the first send), having
/// waited `waited_ns` since they were first refused.
pub fn after_refusal(c: &ClientSettings, tries: u32, waited_ns: u64) -> RetryOutcome {
    if tries >= c.retries {
        return RetryOutcome::Fail(FailWhy::RetriesExhausted);
    }
    let pause = pause_ns(c.pause_ms, tries);
    if waited_ns.saturating_add(pause) > c.operation_timeout_ms.saturating_mul(1_000_000) {
        return RetryOutcome::Fail(FailWhy::OperationTimeout);
    }
    RetryOutcome::Again(pause)
}

/// The writers' buffers are full of held-back mutations: every writer waits (each has
/// `hbase.client.write.buffer`; `BufferedMutatorImpl.mutate` blocks once its buffer cannot be
/// sent).
pub fn buffers_full(held_bytes: u64, writers: u64, write_buffer: u64) -> bool {
    held_bytes > writers.saturating_mul(write_buffer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> ClientSettings {
        ClientSettings {
            write_buffer: 2 << 20,
            pause_ms: 100,
            retries: 15,
            operation_timeout_ms: 1_200_000,
            max_total_tasks: 100,
            max_perserver_tasks: 2,
            max_perregion_tasks: 1,
            handlers: 30,
            replication: 3,
            scanner_caching: i32::MAX as u32,
            scanner_max_result_size: 2 << 20,
            server_scanner_max_result_size: 100 << 20,
        }
    }

    /// Mirrors `ConnectionUtils.getPauseTime` over `HConstants.RETRY_BACKOFF`.
    #[test]
    fn pauses_follow_hbase_backoff_table() {
        let ms: Vec<u64> = (0..15).map(|t| pause_ns(100, t) / 1_000_000).collect();
        assert_eq!(
            ms,
            vec![
                100, 200, 300, 500, 1000, 2000, 4000, 10_000, 10_000, 10_000, 10_000, 20_000,
                20_000, 20_000, 20_000
            ]
        );
        // All 15 retries: about two minutes (AsyncProcess's documented worst case).
        assert_eq!(ms.iter().sum::<u64>(), 128_100);
    }

    /// Mirrors `AsyncRequestFutureImpl.manageError`: retries until `hbase.client.retries.number`,
    /// bounded by `hbase.client.operation.timeout`.
    #[test]
    fn operations_fail_after_the_retries_or_the_timeout() {
        let c = settings();
        assert_eq!(after_refusal(&c, 0, 0), RetryOutcome::Again(100_000_000));
        assert_eq!(
            after_refusal(&c, 14, 0),
            RetryOutcome::Again(20_000_000_000)
        );
        assert_eq!(
            after_refusal(&c, 15, 0),
            RetryOutcome::Fail(FailWhy::RetriesExhausted)
        );
        let short = ClientSettings {
            operation_timeout_ms: 1_000,
            ..c
        };
        assert_eq!(
            after_refusal(&short, 4, 500_000_000),
            RetryOutcome::Fail(FailWhy::OperationTimeout)
        );
    }

    #[test]
    fn writers_wait_once_their_buffers_are_full() {
        assert!(!buffers_full(64 << 20, 32, 2 << 20));
        assert!(buffers_full((64 << 20) + 1, 32, 2 << 20));
    }
}
