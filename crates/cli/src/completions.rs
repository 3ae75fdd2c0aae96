//! `feedback-inbox completions SHELL` and `feedback-inbox man`: shell completion (clap_complete)
//! and roff man pages (clap_mangen), generated from the same clap definitions as the parser, so
//! they never drift from the real flags. The script a shell loads calls the program back to
//! complete (`COMPLETE=SHELL feedback-inbox -- WORDS…`, answered in `main` before anything
//! else runs), so the values of `--app`, `--project` and `--tag` come from the local store
//! ([`names`]).

pub mod names;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::CommandFactory;

use super::{Args, CliError};

#[derive(Debug, clap::Args)]
#[command(after_help = "Load it for this shell session:\n  \
    bash: source <(feedback-inbox completions bash)\n  \
    zsh:  source <(feedback-inbox completions zsh)\n  \
    fish: feedback-inbox completions fish | source\n\
    or write it where the shell looks for completions (e.g. \
    ~/.local/share/bash-completion/completions/feedback-inbox).")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write one page per command into this folder (feedback-inbox.1, feedback-inbox-list.1,
    /// ...) instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The program's name as the shell sees it.
const BIN: &str = "feedback-inbox";

/// The variable that asks the program to complete instead of run.
pub(crate) const COMPLETE_VAR: &str = "COMPLETE";

/// Answers a shell's completion request (the program was run with [`COMPLETE_VAR`] set) and
/// exits; returns at once otherwise. Called first in `main`: nothing may be written before.
pub fn answer_shell() {
    clap_complete::CompleteEnv::with_factory(super::command)
        .var(COMPLETE_VAR)
        .bin(BIN)
        .complete();
}

/// Writes the script that makes `args.shell` complete the program's words by asking it.
pub fn completions(args: &CompletionsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let name = args.shell.to_string();
    let shells = clap_complete::env::Shells::builtins();
    let shell = shells.completer(&name).ok_or_else(|| {
        CliError::Usage(format!(
            "no completion for {}",
            feedback_core::text::sanitize_line(&name)
        ))
    })?;
    // The program as it was run (an absolute path when the system says), so the script works
    // whether or not it is on PATH.
    let program = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_owned))
        .unwrap_or_else(|| BIN.to_owned());
    shell.write_registration(COMPLETE_VAR, BIN, BIN, &program, out)?;
    out.flush()?;
    Ok(())
}

/// Prints the main man page, or with `--dir` writes a page per command and lists them.
pub fn man(args: &ManArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match &args.dir {
        None => {
            clap_mangen::Man::new(super::command()).render(out)?;
        }
        Some(dir) => {
            for path in man_pages(dir)? {
                writeln!(
                    out,
                    "{}",
                    feedback_core::text::Clean::line(&path.display().to_string())
                )?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// Writes `feedback-inbox.1` and one page per (nested) subcommand into `dir`, creating it.
pub(crate) fn man_pages(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    std::fs::create_dir_all(dir)?;
    let mut command = super::adjusted(Args::command().disable_help_subcommand(true));
    command.build();
    let mut written = Vec::new();
    write_pages(&command, dir, &mut written)?;
    Ok(written)
}

fn write_pages(
    command: &clap::Command,
    dir: &Path,
    written: &mut Vec<PathBuf>,
) -> Result<(), CliError> {
    written.push(clap_mangen::Man::new(command.clone()).generate_to(dir)?);
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir, written)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shell_gets_a_script_naming_the_program() {
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
            clap_complete::Shell::Elvish,
            clap_complete::Shell::PowerShell,
        ] {
            let mut out = Vec::new();
            completions(&CompletionsArgs { shell }, &mut out).unwrap();
            let script = String::from_utf8(out).unwrap();
            assert!(script.contains(BIN), "{shell}");
            assert!(
                script.contains(COMPLETE_VAR),
                "{shell}: the program is asked to complete"
            );
        }
    }

    #[test]
    fn the_dir_form_writes_a_page_per_command() {
        let dir = tempfile::tempdir().unwrap();
        let pages = man_pages(&dir.path().join("man1")).unwrap();
        let names: Vec<String> = pages
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        for name in [
            "feedback-inbox.1",
            "feedback-inbox-list.1",
            "feedback-inbox-doctor.1",
            "feedback-inbox-store-info.1",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        for page in &pages {
            let text = std::fs::read_to_string(page).unwrap();
            assert!(
                text.starts_with(".ie \\n(.g .ds Aq") || text.contains(".TH"),
                "{}",
                page.display()
            );
        }
    }
}
