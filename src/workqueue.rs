//! Independent jobs on a fixed number of worker threads, results in job order: how runs,
//! assumption profiles and sweep points share the cores. Results never depend on the number of
//! workers or the order jobs finish in.

use std::collections::BTreeMap;

use parking_lot::Mutex;

/// Runs `work(index, job)` for every job on `workers` threads (at least one), taking jobs in
/// order, and returns the results in job order.
pub fn run_in_order<J, R, F>(jobs: Vec<J>, workers: usize, work: F) -> Vec<R>
where
    J: Send,
    R: Send,
    F: Fn(usize, J) -> R + Sync,
{
    let parallel = workers.min(jobs.len()).max(1);
    // Workers pop from the back: reversed, they start the jobs in order.
    let queue = Mutex::new(jobs.into_iter().enumerate().rev().collect::<Vec<_>>());
    let done = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..parallel {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().pop();
                    let Some((i, job)) = next else { break };
                    let r = work(i, job);
                    done.lock().insert(i, r);
                }
            });
        }
    });
    done.into_inner().into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_job_order_whatever_the_workers() {
        let jobs: Vec<u64> = (0..50).collect();
        for workers in [0, 1, 2, 7, 100] {
            let out = run_in_order(jobs.clone(), workers, |i, j| {
                // Later jobs finish first when run side by side.
                std::thread::sleep(std::time::Duration::from_micros(50 - j));
                (i, j * j)
            });
            let want: Vec<(usize, u64)> = (0..50).map(|j| (j as usize, j * j)).collect();
            assert_eq!(out, want, "{workers} workers");
        }
        assert!(run_in_order(Vec::<u8>::new(), 4, |_, j| j).is_empty());
    }
}
