//! Shared output pieces: output formats, fixed-width tables that can be streamed page by page,
//! and time formatting. Every cell of a table is sanitized here, at the sink.

use std::io::{self, Write};

use clap::ValueEnum;
use jiff::Timestamp;

pub use crate::text::output::{first_line, terminal_safe_json};
use crate::text::sanitize_line;
use crate::width::{fit, truncate};

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

/// A column: its title and its width in cells. Every column but the last is padded to its
/// width; the last is cut at its width but not padded.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub title: &'static str,
    pub cells: usize,
}

/// A table with fixed column widths, so rows can be written as pages arrive.
#[derive(Debug, Clone)]
pub struct Table {
    columns: Vec<Column>,
}

impl Table {
    #[must_use]
    pub fn new(columns: &[Column]) -> Self {
        Self {
            columns: columns.to_vec(),
        }
    }

    /// A table whose columns are as wide as the widest cell (capped at each column's `cells`).
    #[must_use]
    pub fn fitted(columns: &[Column], rows: &[Vec<String>]) -> Self {
        let columns = columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let widest = rows
                    .iter()
                    .map(|r| crate::width::width(&sanitize_line(&r[i])))
                    .chain([c.title.len()])
                    .max()
                    .unwrap_or(0);
                Column {
                    title: c.title,
                    cells: widest.min(c.cells),
                }
            })
            .collect::<Vec<_>>();
        Self { columns }
    }

    pub fn header(&self, out: &mut dyn Write) -> io::Result<()> {
        let titles: Vec<String> = self.columns.iter().map(|c| c.title.to_owned()).collect();
        self.row(out, &titles)
    }

    /// Writes one row; every cell is sanitized to one line and fitted to its column.
    pub fn row(&self, out: &mut dyn Write, cells: &[String]) -> io::Result<()> {
        let last = self.columns.len().saturating_sub(1);
        let mut line = String::new();
        for (i, (column, cell)) in self.columns.iter().zip(cells).enumerate() {
            let clean = sanitize_line(cell);
            if i == last {
                line.push_str(&truncate(&clean, column.cells));
            } else {
                line.push_str(&fit(&clean, column.cells));
                line.push_str("  ");
            }
        }
        writeln!(out, "{}", line.trim_end())
    }
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
    fn rows_are_sanitized_and_aligned() {
        let table = Table::new(&[
            Column {
                title: "A",
                cells: 4,
            },
            Column {
                title: "B",
                cells: 10,
            },
        ]);
        let mut out = Vec::new();
        table.header(&mut out).unwrap();
        table
            .row(&mut out, &["同期が".into(), "\u{1b}[2Jx\ny".into()])
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "A     B\n同…   ␛x y\n");
    }

    #[test]
    fn fitted_table_uses_widest_cell_up_to_the_cap() {
        let rows = vec![vec!["abc".to_owned(), "x".to_owned()]];
        let table = Table::fitted(
            &[
                Column {
                    title: "ID",
                    cells: 2,
                },
                Column {
                    title: "NAME",
                    cells: 9,
                },
            ],
            &rows,
        );
        let mut out = Vec::new();
        table.row(&mut out, &rows[0]).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a…  x\n");
    }

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
