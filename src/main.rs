//! The `hbase-emu` binary: parse flags, run a command, render errors, set the exit code.

use std::process::ExitCode;

use clap::Parser;

use hbase_emu::cli::{Cli, Command};
use hbase_emu::commands;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => commands::run_default(),
        Some(Command::Run(a)) => commands::run(&a),
        Some(Command::Check(a)) => commands::check(&a),
        Some(Command::Keys(a)) => commands::keys(&a),
        Some(Command::SplitKeys(a)) => commands::split_keys(&a),
        Some(Command::Config(a)) => commands::config(&a),
        Some(Command::Advise(a)) => hbase_emu::advise::advise(&a),
        Some(Command::Report(a)) => commands::report(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // Standard output closed by its reader (`| head`): a normal end, not an error.
        Err(errors) if errors.0.iter().any(|e| e.is_broken_pipe()) => ExitCode::SUCCESS,
        Err(errors) => {
            for e in &errors.0 {
                eprint!("{}", hbase_emu::diag::escape_controls(&e.render()));
            }
            if errors.0.len() > 1 {
                eprintln!("error: {} problems found", errors.0.len());
            }
            ExitCode::from(2)
        }
    }
}
