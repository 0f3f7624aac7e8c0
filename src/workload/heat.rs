//! The key heatmap's buckets: start keys of about [`HEAT_BUCKETS`] key ranges holding equal
//! numbers of the workload's rows, so a heatmap row is as much of the table whatever the layout.

use crate::keygen::Generator;

/// Buckets of the key heatmap.
pub const HEAT_BUCKETS: u64 = 64;

/// Start keys of about [`HEAT_BUCKETS`] buckets holding equal numbers of the workload's rows:
/// quantiles of keys at stratified ids (the first bucket starts at the empty key).
pub fn heat_buckets(generator: &Generator, first_id: u64, rows: u64) -> Vec<Vec<u8>> {
    let samples = (HEAT_BUCKETS * 64).min(rows.max(1));
    let mut keys: Vec<Vec<u8>> = Vec::with_capacity(samples as usize);
    let mut buf = Vec::new();
    for i in 0..samples {
        // The middle id of each of `samples` equal blocks.
        let id = first_id + ((2 * i + 1) as u128 * rows as u128 / (2 * samples) as u128) as u64;
        if generator.key_checked(id, &mut buf).is_ok() {
            keys.push(buf.clone());
        }
    }
    keys.sort_unstable();
    let mut out = vec![Vec::new()];
    let step = (keys.len() as u64).div_ceil(HEAT_BUCKETS).max(1) as usize;
    for k in keys.into_iter().step_by(step).skip(1) {
        if out.last().is_some_and(|l| *l < k) {
            out.push(k);
        }
    }
    out
}
