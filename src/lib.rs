//! hbase-emu: a high-fidelity emulator of how HBase 2.x regions grow, split and spread over
//! RegionServers, for designing rowkeys, pre-splits and region sizes before loading a table.
#![deny(missing_docs)]
// Every `unsafe` lives in `kernel`, documented: a `// SAFETY:` comment on each block, a
// `# Safety` section on each unsafe function.
#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![deny(clippy::missing_safety_doc)]

pub mod advise;
pub mod argval;
pub mod assignment;
pub mod budget;
pub mod cli;
pub mod codec;
pub mod commands;
pub mod config;
pub mod diag;
pub mod engine;
pub mod experiment;
pub mod hardware;
pub mod hostile;
pub mod import;
#[allow(unsafe_code)]
pub mod kernel;
pub mod keygen;
pub mod keynotation;
pub mod output;
pub mod plan;
pub mod presplit;
pub mod report;
pub mod scenario;
pub mod units;
pub mod workload;
pub mod workqueue;
