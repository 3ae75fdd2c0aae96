//! The `feedback-inbox` binary: parse arguments, start logging, run the command, and turn a
//! failure into one line on stderr and an exit code.

use std::process::ExitCode;

use clap::Parser;
use feedback_inbox::cli::{self, Args};

/// Panics go to the log file too (the default hook then prints them to stderr, after the
/// inbox's hook restored the terminal).
fn log_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        tracing::error!(%info, "panic");
        previous(info);
    }));
}

fn main() -> ExitCode {
    let args = Args::parse();
    let _log_path = feedback_inbox::logging::init();
    log_panics();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(cli::run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        // The inbox has restored the terminal and cleaned up: nothing to report.
        Err(error @ cli::CliError::Signal(_)) => error.exit_code(),
        Err(error) => {
            tracing::error!(%error, "command failed");
            eprintln!("error: {error}");
            error.exit_code()
        }
    }
}
