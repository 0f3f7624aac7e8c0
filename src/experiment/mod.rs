//! Experiments over runs: named figures of a saved run and bounds on them (the building blocks
//! of scenario expectations, sweeps' `--subject-to` and report diffs).

pub mod bound;
pub mod figures;
pub mod sweep;
pub mod sweep_cmd;
pub mod vary;
