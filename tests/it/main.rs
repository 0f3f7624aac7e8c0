//! The integration tests, as one binary: each module was once its own test crate, and linking
//! the whole library into each of them cost more than running them.

mod advise;
mod cli;
mod cluster;
mod common;
mod config_fixture;
mod docs;
mod engine;
mod engine_props;
mod engine_step;
mod expect;
mod experiments;
mod hardening;
mod hostile;
mod hostile_props;
mod html_browser;
mod import;
mod input_errors;
mod kernels;
mod keygen_props;
mod limits;
mod policies_props;
mod presplit_api;
mod report_render;
mod rolling_split;
mod scale_guard;
mod scan_fanout;
mod scenario_events;
mod split_restriction;
mod sweep;
mod tables;
mod ttl;
mod versions;
mod wal_variability;
mod what_if;
