//! Where `list` and `search` write: pages of records as they come, in four formats, holding no
//! more than a page. Every record is written whole and flushed with its page, so output already
//! written stays valid if a later page fails; `json` is one document (`{"data": […],
//! "next_cursor": …}`) whose array is written item by item and closed by [`Sink::finish`]
//! (also after an interruption, with the cursor to resume from).
//!
//! Nothing, not even a header, is written before the first page arrived (or `finish`), so a
//! failed first request leaves stdout empty.

use std::io::Write;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use super::super::CliError;
use super::super::output::{ListFormat, csv_cell, csv_record as write_csv, terminal_safe_json};
use super::api_row;
use super::fields::{CSV_DEFAULT, Field, JSON_ALL, Keys, Record, Selection, TABLE_DEFAULT};
use super::table_fit::{FittedTable, TableMode};
use feedback_api::Cursor;
use feedback_core::text::Clean;
use feedback_store::RowNeeds;

/// How an export is written.
#[derive(Debug, Clone)]
pub struct Options {
    pub format: ListFormat,
    /// `--raw-csv`: no guard against spreadsheet formulas (in CSV and tab-separated tables).
    pub raw_csv: bool,
    pub fields: Selection,
    pub table: TableMode,
    /// For `--fields all` in csv and table: the metadata keys and channels of every exported
    /// item, when known before the first (`search` asks the store). `None` (`list`): the
    /// spec's built-ins and channels and the first page's keys make the columns, and a last
    /// `extra` column holds, as a JSON object, the keys first seen later.
    pub keys: Option<Keys>,
}

impl Options {
    /// A format with the columns asked for, a table fitted to the terminal when there is one.
    #[must_use]
    pub fn new(format: ListFormat, raw_csv: bool, fields: Selection) -> Self {
        Self {
            format,
            raw_csv,
            fields,
            table: TableMode::detect(),
            keys: None,
        }
    }

    /// The usual shape of a format: no `--fields`, tables tab-separated.
    #[must_use]
    pub fn plain(format: ListFormat, raw_csv: bool) -> Self {
        Self {
            format,
            raw_csv,
            fields: Selection::Default,
            table: TableMode::Tsv,
            keys: None,
        }
    }
}

/// Writes pages as they come.
pub struct Sink<'a> {
    out: &'a mut (dyn Write + Send),
    options: Options,
    /// The columns, fixed by the first page; `None` for JSON without `--fields` (the API's
    /// item shape).
    columns: Option<Vec<Field>>,
    table: Option<FittedTable>,
    started: bool,
    /// False for the resumed part of a csv or table export (`--cursor` with `--all`): it is
    /// appended to the first part, which has the header.
    header: bool,
    written: u64,
}

impl<'a> Sink<'a> {
    #[must_use]
    pub fn new(out: &'a mut (dyn Write + Send), options: Options) -> Self {
        Self {
            out,
            options,
            columns: None,
            table: None,
            started: false,
            header: true,
            written: 0,
        }
    }

    /// A sink whose csv or table output continues an earlier one: no header line.
    #[must_use]
    pub(crate) fn without_header(mut self) -> Self {
        self.header = false;
        self
    }

    /// Writes one page of records, and flushes.
    pub fn page(&mut self, records: &[Record]) -> Result<(), CliError> {
        self.start(records)?;
        let columns = self.columns.as_deref().unwrap_or_default();
        match self.options.format {
            ListFormat::Table => {
                if let Some(table) = &self.table {
                    let tsv = self.options.table == TableMode::Tsv;
                    for record in records {
                        let cells: Vec<Clean> = columns
                            .iter()
                            .map(|f| {
                                if tsv {
                                    f.tsv(record, columns)
                                } else {
                                    f.text(record, false, columns)
                                }
                            })
                            .collect();
                        table.row(self.out, &cells)?;
                    }
                }
            }
            ListFormat::Csv => {
                let mut writer = csv::Writer::from_writer(&mut *self.out);
                for record in records {
                    write_csv(
                        &mut writer,
                        &csv_record(record, columns, self.options.raw_csv),
                    )?;
                }
                writer.flush()?;
            }
            ListFormat::Jsonl => {
                for record in records {
                    let json = self.json(record, false)?;
                    self.line(json)?;
                }
            }
            ListFormat::Json => {
                for record in records {
                    let item = terminal_safe_json(self.json(record, true)?);
                    let separator = if self.written == 0 { "\n" } else { ",\n" };
                    self.out.write_all(separator.as_bytes())?;
                    self.out.write_all(indent(&item).as_bytes())?;
                    self.written += 1;
                }
            }
        }
        if self.options.format != ListFormat::Json {
            self.written += u64::try_from(records.len()).unwrap_or(u64::MAX);
        }
        self.out.flush()?;
        Ok(())
    }

    /// What of each stored row these options write, when they write straight from stored
    /// rows ([`Sink::row`]): `jsonl` of the API's item shape (all of it), or of `--fields`
    /// columns that a row holds (those); `None` otherwise.
    #[must_use]
    pub(crate) fn row_needs(options: &Options) -> Option<RowNeeds> {
        if options.format != ListFormat::Jsonl {
            return None;
        }
        match &options.fields {
            Selection::Default => Some(RowNeeds::ALL),
            Selection::Fields(fields) => api_row::needs(fields),
            Selection::All => None,
        }
    }

    /// How the stored rows these options write ([`Sink::row_needs`]) are made into lines, for
    /// [`Sink::lines`]; what comes before the first record is written now.
    pub(crate) fn row_lines(&mut self) -> Result<api_row::RowLines, CliError> {
        debug_assert!(Self::row_needs(&self.options).is_some());
        self.start(&[])?;
        Ok(api_row::RowLines {
            columns: self.columns.clone(),
        })
    }

    /// Writes `rows` lines made by [`Sink::row_lines`] (whole lines), and flushes: a page.
    pub fn lines(&mut self, lines: &[u8], rows: usize) -> Result<(), CliError> {
        self.out.write_all(lines)?;
        self.out.flush()?;
        self.written += u64::try_from(rows).unwrap_or(u64::MAX);
        Ok(())
    }

    /// A line of JSON text, made safe for a terminal.
    fn line(&mut self, json: String) -> Result<(), CliError> {
        let mut line = terminal_safe_json(json);
        line.push('\n');
        self.out.write_all(line.as_bytes())?;
        Ok(())
    }

    /// Ends the output: the header of an empty table or CSV, and the end of the `json`
    /// document with `next_cursor` (the next page's, or the one to resume from).
    pub fn finish(mut self, next_cursor: Option<&Cursor>) -> Result<(), CliError> {
        self.start(&[])?;
        if self.options.format == ListFormat::Json {
            let cursor = serde_json::to_string(&next_cursor)?;
            let close = if self.written == 0 { "" } else { "\n  " };
            write!(
                self.out,
                "{close}],\n  \"next_cursor\": {}\n}}\n",
                terminal_safe_json(cursor)
            )?;
        }
        self.out.flush()?;
        Ok(())
    }

    /// Ends output cut short (an error, a signal): as [`Sink::finish`] with the cursor to
    /// resume from, but nothing at all when nothing was written yet.
    pub fn interrupt(self, resume: Option<&Cursor>) -> Result<(), CliError> {
        if self.started {
            self.finish(resume)
        } else {
            Ok(())
        }
    }

    /// Fixes the columns on the first page and writes what comes before the first record.
    fn start(&mut self, first: &[Record]) -> Result<(), CliError> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        // `--fields all` without the keys known up front takes columns from the first page,
        // which differs between the parts: such a resumed part keeps its own header.
        let from_data = self.options.fields == Selection::All && self.options.keys.is_none();
        self.header |= from_data;
        let columns = self.resolve(first);
        match self.options.format {
            ListFormat::Table => {
                // As wide as the id cells the page will show.
                let ids = first
                    .iter()
                    .map(|r| feedback_core::width::width(&Field::Id.text(r, false, &[])))
                    .max()
                    .unwrap_or(0);
                let table = FittedTable::new(
                    columns.as_deref().unwrap_or_default(),
                    self.options.table,
                    ids,
                )
                .raw(self.options.raw_csv);
                if self.header {
                    table.header(self.out)?;
                }
                self.table = Some(table);
            }
            ListFormat::Csv if !self.header => {}
            ListFormat::Csv => {
                // Names of metadata keys and channels are server text, as cells are.
                let names: Vec<Clean> = columns
                    .iter()
                    .flatten()
                    .map(|f| csv_cell(f.label(), self.options.raw_csv))
                    .collect();
                let mut writer = csv::Writer::from_writer(&mut *self.out);
                write_csv(&mut writer, &names)?;
                writer.flush()?;
            }
            ListFormat::Json => self.out.write_all(b"{\n  \"data\": [")?,
            ListFormat::Jsonl => {}
        }
        self.columns = columns;
        Ok(())
    }

    fn resolve(&self, first: &[Record]) -> Option<Vec<Field>> {
        let json = matches!(self.options.format, ListFormat::Json | ListFormat::Jsonl);
        match (&self.options.fields, json) {
            (Selection::Default, true) => None,
            (Selection::Default, false) if self.options.format == ListFormat::Table => {
                Some(TABLE_DEFAULT.to_vec())
            }
            (Selection::Default, false) => Some(CSV_DEFAULT.to_vec()),
            (Selection::Fields(fields), _) => Some(fields.clone()),
            (Selection::All, true) => Some(JSON_ALL.to_vec()),
            (Selection::All, false) => {
                let mut columns = CSV_DEFAULT.to_vec();
                match &self.options.keys {
                    Some(keys) => columns.extend(keys.columns()),
                    None => {
                        let mut keys = Keys::known();
                        keys.add(first);
                        columns.extend(keys.columns());
                        columns.push(Field::Extra);
                    }
                }
                Some(columns)
            }
        }
    }

    /// A record as JSON text: the API's item without `--fields`, else an object of the
    /// columns in order.
    fn json(&self, record: &Record, pretty: bool) -> Result<String, CliError> {
        let Some(columns) = &self.columns else {
            return Ok(to_json(&record.feedback, pretty)?);
        };
        let pairs: Vec<(String, Value)> = columns
            .iter()
            .map(|f| (f.name(), f.json(record, columns)))
            .collect();
        Ok(to_json(&Ordered(&pairs), pretty)?)
    }
}

fn to_json(value: &impl Serialize, pretty: bool) -> serde_json::Result<String> {
    if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
}

/// An object whose keys keep the columns' order.
struct Ordered<'a>(&'a [(String, Value)]);

impl Serialize for Ordered<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// An item of the `json` array, indented under `"data"` (JSON text has no raw newline inside
/// strings, so lines are safe to indent).
fn indent(item: &str) -> String {
    let mut out = String::with_capacity(item.len() + 64);
    for (i, line) in item.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("    ");
        out.push_str(line);
    }
    out
}

/// A CSV record: the columns' clean cells (the message multi-line: CSV quoting keeps its
/// newlines), every cell neutralised against formulas unless `raw`.
fn csv_record(record: &Record, columns: &[Field], raw: bool) -> Vec<Clean> {
    columns
        .iter()
        .map(|field| csv_cell(field.text(record, true, columns), raw))
        .collect()
}

#[cfg(test)]
mod tests;
