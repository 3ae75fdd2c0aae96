//! The `feedback-inbox` binary: parse arguments, start logging, run the command (the inbox on
//! the terminal, through `launch`), and turn a failure into one line on stderr and an exit code.

use std::process::ExitCode;

use feedback_cli as cli;

mod launch;
mod logging;
mod panic;

fn main() -> ExitCode {
    cli::version::set(cli::version::Build {
        commit: option_env!("FEEDBACK_BUILD_COMMIT"),
        date: option_env!("FEEDBACK_BUILD_DATE"),
        target: env!("FEEDBACK_BUILD_TARGET"),
        profile: env!("FEEDBACK_BUILD_PROFILE"),
        features: env!("FEEDBACK_BUILD_FEATURES"),
    });
    // A shell asking for completions is answered before anything else runs.
    cli::completions::answer_shell();
    let args = cli::parse(std::env::args_os());
    let log = logging::init();
    panic::report_panics(log.clone());
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
    let result = runtime.block_on(launch::run(args));
    // A blocking write that never ends (a stdout nobody reads) must not keep the process
    // alive: whatever has to be durable was awaited by the command.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        // The inbox has restored the terminal and cleaned up: nothing to report.
        Err(error @ cli::CliError::Signal(_)) => error.exit_code(),
        Err(error) => {
            tracing::error!(%error, "command failed");
            eprintln!("error: {error}");
            if error.log_says_more()
                && let Some(log) = &log
            {
                eprintln!(
                    "the log (FEEDBACK_LOG=debug for more): {}",
                    feedback_core::text::Clean::line(&log.display().to_string())
                );
            }
            error.exit_code()
        }
    }
}
