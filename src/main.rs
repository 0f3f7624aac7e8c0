//! The `hbase-emu` binary: parse flags, run a command, render errors, set the exit code.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;

use hbase_emu::cli::{Cli, Command};
use hbase_emu::commands;

fn main() -> ExitCode {
    // Before anything runs (`--version` included): a mistyped kernel choice is a usage error,
    // not the default.
    if let Err(e) = hbase_emu::kernel::from_env() {
        let e = hbase_emu::diag::InputError::new(e.to_string());
        eprint!("{}", hbase_emu::diag::escape_controls(&e.render()));
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    // Ok(false): the work was done but an expectation failed (exit 1).
    let result = match cli.command {
        None => commands::run_default(),
        Some(Command::Run(a)) => commands::run(&a),
        Some(Command::Test(a)) => hbase_emu::experiment::suite::test(&a),
        Some(Command::Check(a)) => commands::check(&a).map(|()| true),
        Some(Command::Keys(a)) => commands::keys(&a).map(|()| true),
        Some(Command::SplitKeys(a)) => commands::split_keys(&a).map(|()| true),
        Some(Command::Config(a)) => commands::config(&a).map(|()| true),
        Some(Command::Advise(a)) => hbase_emu::advise::advise(&a).map(|()| true),
        Some(Command::Report(a)) => commands::report(&a).map(|()| true),
        Some(Command::Diff(a)) => commands::diff(&a).map(|()| true),
        Some(Command::Sweep(a)) => hbase_emu::experiment::sweep_cmd::sweep(&a).map(|()| true),
        Some(Command::Merge(a)) => hbase_emu::experiment::sweep_cmd::merge(&a).map(|()| true),
        Some(Command::Import(a)) => hbase_emu::import::cmd::import(&a)
            .map(|()| true)
            .map_err(Into::into),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // Standard output closed by its reader (`| head`): a normal end, not an error.
        Err(errors) if errors.0.iter().any(|e| e.is_broken_pipe()) => ExitCode::SUCCESS,
        Err(errors) => {
            // The same problem found once per generator (a shared pre-split) is shown once.
            let mut shown: Vec<String> = Vec::new();
            for e in &errors.0 {
                let one_line = e.to_string();
                if shown.contains(&one_line) {
                    continue;
                }
                shown.push(one_line);
                eprint!("{}", hbase_emu::diag::escape_controls(&e.render()));
            }
            if shown.len() > 1 {
                eprintln!("error: {} problems found", shown.len());
            }
            ExitCode::from(2)
        }
    }
}
