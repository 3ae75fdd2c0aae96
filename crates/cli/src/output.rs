//! Shared output pieces: output formats, CSV cells guarded against formulas, and time
//! formatting. Tables are laid out by `super::export::table_fit`.

use clap::ValueEnum;
use jiff::Timestamp;

use feedback_core::text::Clean;
pub use feedback_core::text::output::{first_line, terminal_safe_json};

/// Output format of `list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Table,
    Json,
    Jsonl,
    Csv,
}

/// Output format of `show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    Text,
    Json,
}

/// Output format of the discovery commands.
/// The team commands' output: `text` for people, `json` for scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TeamFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    Table,
    Json,
    Csv,
}

/// Where a command that may write many lines writes (`list`, `search`, `stats`, `store
/// export`): stdout, through a 256 KiB buffer when stdout is a pipe or a file (a write per line
/// would be a system call per item), line by line on a terminal. The command flushes where
/// output must show (each page); [`Bulk::finish`] writes the rest, and its failure is the
/// command's. It is `Send`: a bulk export writes from the thread that makes its lines.
pub(crate) enum Bulk {
    Terminal(std::io::Stdout),
    Piped(std::io::BufWriter<std::io::Stdout>),
}

/// The buffer of [`Bulk`] output to a pipe or file.
const BULK_BUFFER: usize = 256 * 1024;

/// What a pipe on stdout is asked to hold: Linux's default (64 KiB) fills and wakes the reader
/// every quarter of a bulk export's batch; 1 MiB is the most an unprivileged process may ask.
#[cfg(target_os = "linux")]
const PIPE_CAPACITY: i32 = 1 << 20;

impl Bulk {
    #[must_use]
    pub(crate) fn stdout() -> Self {
        use std::io::IsTerminal as _;
        let stdout = std::io::stdout();
        if stdout.is_terminal() {
            Self::Terminal(stdout)
        } else {
            widen_pipe(&stdout);
            Self::Piped(std::io::BufWriter::with_capacity(BULK_BUFFER, stdout))
        }
    }

    /// Writes what is still buffered.
    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        std::io::Write::flush(&mut self)
    }
}

/// Asks a pipe (stdout's) to hold [`PIPE_CAPACITY`], so that a bulk writer and its reader
/// take turns a sixteenth as often. Nothing changes when it is not a pipe or the system says
/// no (a user's pipe quota): the output is the same, only the turns are more.
#[cfg(unix)]
fn widen_pipe(out: impl std::os::fd::AsFd) {
    #[cfg(target_os = "linux")]
    {
        use nix::fcntl::{FcntlArg, fcntl};
        // A file or a terminal has no pipe size: asking fails, and nothing is changed.
        let fd = out.as_fd();
        if fcntl(fd, FcntlArg::F_GETPIPE_SZ).is_ok_and(|size| size < PIPE_CAPACITY) {
            let _ = fcntl(fd, FcntlArg::F_SETPIPE_SZ(PIPE_CAPACITY));
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = out;
}

#[cfg(not(unix))]
fn widen_pipe<T>(_: T) {}

impl std::io::Write for Bulk {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Self::Terminal(out) => out.write(buf),
            Self::Piped(out) => out.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Self::Terminal(out) => out.write_all(buf),
            Self::Piped(out) => out.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Self::Terminal(out) => out.flush(),
            Self::Piped(out) => out.flush(),
        }
    }
}

/// First characters that make a spreadsheet read a cell as a formula (or split it).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether a spreadsheet would run a cell starting so as a formula (or split it), unless `raw`
/// (`--raw-csv`).
fn runs_as_formula(text: &str, raw: bool) -> bool {
    !raw && text.starts_with(FORMULA_STARTS)
}

/// A CSV cell as written: a cell that a spreadsheet would run as a formula (starting with `=`,
/// `+`, `-`, `@`, tab or carriage return) gets a leading `'`, unless `raw` (`--raw-csv`). The
/// cell is clean text and stays so (a leading `'` changes nothing of that).
#[must_use]
pub(crate) fn csv_cell(text: Clean, raw: bool) -> Clean {
    if runs_as_formula(&text, raw) {
        Clean::join(&[Clean::fixed("'"), text], "")
    } else {
        text
    }
}

/// Writes one CSV record; the writers take only clean cells.
pub(crate) fn csv_record<W: std::io::Write>(
    writer: &mut csv::Writer<W>,
    cells: &[Clean],
) -> csv::Result<()> {
    writer.write_record(cells.iter().map(Clean::as_str))
}

/// `2026-11-01 12:00Z` (UTC, minutes), for tables.
#[must_use]
pub(crate) fn short_time(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%d %H:%MZ").to_string()
}

/// "budget 812/1000, resets in 42s".
#[must_use]
pub(crate) fn budget_text(rate: feedback_api::RateLimit, now: Timestamp) -> Option<String> {
    let (remaining, limit) = (rate.remaining?, rate.limit?);
    let reset = rate
        .seconds_to_reset(now)
        .map(|s| format!(", resets in {s}s"))
        .unwrap_or_default();
    Some(format!("budget {remaining}/{limit}{reset}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_for_terminals_escapes_c1_bidi_and_invisible_chars_losslessly() {
        let value = serde_json::json!({"m": "a\u{9b}31m\u{202e}b\u{200b}\u{e0001}é😀\u{1b}"});
        let safe = terminal_safe_json(serde_json::to_string_pretty(&value).unwrap());
        assert!(safe.is_ascii() || safe.chars().all(|c| !c.is_control() || c == '\n'));
        assert!(
            safe.contains("\\u009b") && safe.contains("\\u202e") && safe.contains("\\udb40\\udc01")
        );
        assert!(safe.contains("é😀"));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn csv_cells_that_would_run_as_formulas_are_neutralised_unless_raw() {
        for cell in ["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "\rx"] {
            assert!(runs_as_formula(cell, false) && !runs_as_formula(cell, true));
        }
        for cell in ["=1+1", "+1", "-2", "@SUM(A1)"] {
            assert_eq!(
                csv_cell(Clean::line(cell), false),
                format!("'{cell}").as_str()
            );
            assert_eq!(csv_cell(Clean::line(cell), true), cell);
        }
        for cell in ["", "a=1", " =1", "'=1", "1-2"] {
            assert!(!runs_as_formula(cell, false));
            assert_eq!(csv_cell(Clean::line(cell), false), cell);
        }
    }

    /// A pipe is asked to hold 1 MiB (unless the system's limit is lower); a file is left as
    /// it is, with no error.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_pipe_is_widened_and_a_file_is_left_alone() {
        use nix::fcntl::{FcntlArg, fcntl};
        let limit: i32 = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(super::PIPE_CAPACITY);
        let (read, write) = nix::unistd::pipe().unwrap();
        assert!(fcntl(&read, FcntlArg::F_GETPIPE_SZ).unwrap() < super::PIPE_CAPACITY);
        super::widen_pipe(&write);
        // Root may pass the limit; others get it at most.
        assert!(fcntl(&read, FcntlArg::F_GETPIPE_SZ).unwrap() >= super::PIPE_CAPACITY.min(limit));
        let file = tempfile::tempfile().unwrap();
        super::widen_pipe(&file);
        assert!(fcntl(&file, FcntlArg::F_GETPIPE_SZ).is_err());
    }

    #[test]
    fn first_line_skips_blank_lines() {
        assert_eq!(first_line("\n\n  \nHello\nworld"), "Hello");
        assert_eq!(first_line(""), "");
    }

    #[test]
    fn the_budget_says_what_is_left_and_when_it_resets() {
        let rate = feedback_api::RateLimit {
            limit: Some(60),
            remaining: Some(10),
            reset: Some(Timestamp::from_second(130).unwrap()),
        };
        assert_eq!(
            budget_text(rate, Timestamp::from_second(100).unwrap()).unwrap(),
            "budget 10/60, resets in 30s"
        );
    }
}
