//! Shared output pieces: output formats, CSV cells guarded against formulas, and time
//! formatting. Tables are laid out by `super::export::table_fit`.

use clap::ValueEnum;
use jiff::Timestamp;

pub use crate::text::output::{first_line, terminal_safe_json};

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    Table,
    Json,
    Csv,
}

/// First characters that make a spreadsheet read a cell as a formula (or split it).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A CSV cell as written: a cell that a spreadsheet would run as a formula (starting with `=`,
/// `+`, `-`, `@`, tab or carriage return) gets a leading `'`, unless `raw` (`--raw-csv`).
#[must_use]
pub fn csv_cell(text: String, raw: bool) -> String {
    if !raw && text.starts_with(FORMULA_STARTS) {
        format!("'{text}")
    } else {
        text
    }
}

/// `2026-11-01 12:00Z` (UTC, minutes), for tables.
#[must_use]
pub fn short_time(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%d %H:%MZ").to_string()
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
            assert_eq!(csv_cell(cell.to_owned(), false), format!("'{cell}"));
            assert_eq!(csv_cell(cell.to_owned(), true), cell);
        }
        for cell in ["", "a=1", " =1", "'=1", "1-2"] {
            assert_eq!(csv_cell(cell.to_owned(), false), cell);
        }
    }

    #[test]
    fn first_line_skips_blank_lines() {
        assert_eq!(first_line("\n\n  \nHello\nworld"), "Hello");
        assert_eq!(first_line(""), "");
    }
}
