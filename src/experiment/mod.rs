//! Experiments over runs: named figures of a saved run and bounds on them (the building blocks
//! of scenario expectations, sweeps' `--subject-to` and report diffs).

pub mod assumptions;
pub mod bound;
pub mod diff;
pub mod expect;
pub mod figures;
pub mod overrides;
pub mod profiles;
pub mod suite;
pub mod sweep;
pub mod sweep_cmd;
pub mod vary;
