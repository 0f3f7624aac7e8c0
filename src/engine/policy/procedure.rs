//! The master's procedure executor (`ProcedureExecutor`, `hbase.master.procedure.threads`
//! workers): split, merge and move procedures share it, so a storm of them queues.

/// Where a procedure that is ready at `ready` runs: the worker and its start time. `free[w]`
/// is when worker `w` is next free. A worker already free by `ready` is taken (the one freed
/// last, so earlier-free workers stay available to others); else the one free soonest. Ties go
/// to the lower index.
pub(crate) fn reserve(free: &[u64], ready: u64) -> Option<(usize, u64)> {
    let idle = free
        .iter()
        .enumerate()
        .filter(|&(_, &f)| f <= ready)
        .max_by_key(|&(w, &f)| (f, std::cmp::Reverse(w)));
    if let Some((w, _)) = idle {
        return Some((w, ready));
    }
    free.iter()
        .enumerate()
        .min_by_key(|&(w, &f)| (f, w))
        .map(|(w, &f)| (w, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mirrors ProcedureExecutor with hbase.master.procedure.threads workers: a procedure runs
    // at once while a worker is idle, else waits for the first worker to free up.
    #[test]
    fn procedures_wait_for_a_free_master_worker() {
        assert_eq!(reserve(&[0, 0], 10), Some((0, 10)));
        assert_eq!(reserve(&[5, 8], 10), Some((1, 10)));
        assert_eq!(reserve(&[20, 15], 10), Some((1, 15)));
        assert_eq!(reserve(&[20, 20], 10), Some((0, 20)));
        assert_eq!(reserve(&[], 10), None);
    }
}
