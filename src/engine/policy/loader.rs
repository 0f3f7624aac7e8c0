//! The loader's clients: which client writes a row, when an open-loop client offers its next
//! row, when a closed-loop thread sends its next request, and when a client's writers wait.
//! Pure (docs/MODEL.md, "Loaders").

use crate::keygen::Grouping;

/// The `clients − 1` bounds of a total-order partition over `sample` (sorted here): client i
/// writes the keys from bound i − 1 up to bound i (`TotalOrderPartitioner` over
/// `InputSampler`'s sample; Spark's `repartitionByRange` samples the same way).
pub fn range_bounds(sample: &mut [Vec<u8>], clients: usize) -> Vec<Vec<u8>> {
    sample.sort_unstable();
    let n = sample.len();
    if n == 0 {
        return Vec::new();
    }
    (1..clients)
        .map(|i| sample[i * n / clients].clone())
        .collect()
}

/// The client of `key` under [`range_bounds`]' bounds: the number of bounds at or below it.
pub fn client_of_range(bounds: &[Vec<u8>], key: &[u8]) -> usize {
    bounds.partition_point(|b| b.as_slice() <= key)
}

/// The layout's key groups seen in `sample`, sorted and distinct.
pub fn key_groups(sample: &[Vec<u8>], grouping: &Grouping) -> Vec<Vec<u8>> {
    let mut g: Vec<Vec<u8>> = sample.iter().map(|k| grouping.group(k).to_vec()).collect();
    g.sort_unstable();
    g.dedup();
    g
}

/// The client of `key` whose group is `group`: groups dealt round-robin to `clients` in key
/// order (a group the sample missed goes where its rank falls).
pub fn client_of_group(groups: &[Vec<u8>], group: &[u8], clients: usize) -> usize {
    let rank = groups.partition_point(|g| g.as_slice() < group);
    rank % clients.max(1)
}

/// The emulated rows `[from, to)` of input split `client` among `clients` over `rows`.
pub fn input_split(rows: u64, clients: u64, client: u64) -> (u64, u64) {
    let at = |i: u64| (u128::from(rows) * u128::from(i) / u128::from(clients.max(1))) as u64;
    (at(client), at(client + 1))
}

/// An open-loop client's clock advance for a row of `bytes` payload bytes, 32.32 fixed point:
/// each of `clients` offers its share of the rate (`rate_fp`: ns per byte at the whole rate).
pub fn open_step_fp(bytes: u64, rate_fp: u128, clients: u64) -> u128 {
    u128::from(bytes)
        .saturating_mul(rate_fp)
        .saturating_mul(u128::from(clients))
}

/// What a closed-loop thread's `weight` real rows cost it beyond the servers' write path, ns in
/// 32.32 fixed point: its share of the requests' time, `rows_per_request` rows to a request
/// (a fraction of a request when a request holds more rows than an emulated row stands for).
pub fn closed_cost_fp(weight: u64, request_ns: u64, rows_per_request: u64) -> u128 {
    ((u128::from(weight) * u128::from(request_ns)) << 32) / u128::from(rows_per_request.max(1))
}

/// When a closed-loop thread that sent rows at `sent` is ready to send again: its rows are
/// through the server's write path (`server_done`, the server's backlog included), then its
/// requests' own time (`cost_fp`, 32.32 fixed point, with the fraction `frac` carried).
/// Returns the time and the fraction carried on.
pub fn closed_ready(sent: u64, server_done: u64, cost_fp: u128, frac: u32) -> (u64, u32) {
    let t = cost_fp + u128::from(frac);
    (
        sent.max(server_done).saturating_add((t >> 32) as u64),
        t as u32,
    )
}

/// Rows a closed-loop request carries: a write buffer's worth of rows of `row_bytes`
/// (`BufferedMutator` with YCSB's `clientbuffering`), or one.
pub fn rows_per_request(buffered: bool, write_buffer: u64, row_bytes: u64) -> u64 {
    if buffered {
        (write_buffer / row_bytes.max(1)).max(1)
    } else {
        1
    }
}

/// A client's writers wait: a closed-loop thread while any of its rows is held back (its
/// request has not completed), an open-loop client once its writers' buffers are full of
/// held-back rows (`policy::client::buffers_full`).
pub fn client_waits(closed: bool, held_bytes: u64, writers: u64, write_buffer: u64) -> bool {
    if closed {
        held_bytes > 0
    } else {
        super::client::buffers_full(held_bytes, writers, write_buffer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_split_the_sample_evenly() {
        let mut s: Vec<Vec<u8>> = (0u8..100).rev().map(|i| vec![i]).collect();
        let b = range_bounds(&mut s, 4);
        assert_eq!(b, vec![vec![25], vec![50], vec![75]]);
        assert_eq!(client_of_range(&b, &[0]), 0);
        assert_eq!(client_of_range(&b, &[24]), 0);
        assert_eq!(client_of_range(&b, &[25]), 1);
        assert_eq!(client_of_range(&b, &[99]), 3);
        assert!(range_bounds(&mut [], 4).is_empty());
    }

    #[test]
    fn groups_are_dealt_round_robin() {
        let sample: Vec<Vec<u8>> = [b"b|1", b"a|2", b"c|3", b"a|9"]
            .iter()
            .map(|k| k.to_vec())
            .collect();
        let g = key_groups(&sample, &Grouping::Fixed(1));
        assert_eq!(g, vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
        assert_eq!(client_of_group(&g, b"a", 2), 0);
        assert_eq!(client_of_group(&g, b"b", 2), 1);
        assert_eq!(client_of_group(&g, b"c", 2), 0);
        // One client per group when there are as many clients as groups.
        assert_eq!(client_of_group(&g, b"c", 3), 2);
    }

    #[test]
    fn input_splits_tile_the_rows() {
        let mut next = 0;
        for c in 0..7 {
            let (a, b) = input_split(100, 7, c);
            assert_eq!(a, next);
            next = b;
        }
        assert_eq!(next, 100);
    }

    #[test]
    fn closed_loop_waits_for_the_server_and_the_request() {
        let one = closed_cost_fp(1, 500, 1);
        // Server idle: the request time alone.
        assert_eq!(closed_ready(1_000, 1_010, one, 0), (1_510, 0));
        // Server backlog: done when the server is, then the request.
        assert_eq!(closed_ready(1_000, 9_000, one, 0), (9_500, 0));
        // Ten rows, four to a request: two and a half requests.
        assert_eq!(closed_ready(0, 0, closed_cost_fp(10, 100, 4), 0), (250, 0));
        // A third of a request per row: the fraction is carried, not lost.
        let third = closed_cost_fp(1, 100, 3);
        let (t1, f1) = closed_ready(0, 0, third, 0);
        let (t2, f2) = closed_ready(t1, 0, third, f1);
        let (t3, _) = closed_ready(t2, 0, third, f2);
        assert_eq!((t1, t2, t3), (33, 66, 99));
        assert_eq!(rows_per_request(true, 2 << 20, 1024), 2048);
        assert_eq!(rows_per_request(false, 2 << 20, 1024), 1);
    }

    #[test]
    fn closed_threads_wait_on_any_held_row_open_clients_on_full_buffers() {
        assert!(client_waits(true, 1, 1, 2 << 20));
        assert!(!client_waits(false, 1, 1, 2 << 20));
        assert!(client_waits(false, (2 << 20) + 1, 1, 2 << 20));
        assert!(!client_waits(true, 0, 1, 2 << 20));
    }

    #[test]
    fn open_clients_offer_their_share() {
        // 24 clients each at 1/24 of the rate: 24x the step of the whole stream.
        assert_eq!(open_step_fp(1000, 7, 24), 1000 * 7 * 24);
    }
}
