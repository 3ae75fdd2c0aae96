//! Tables of `list` and `search`: on a terminal they fit its width (columns shrink in a fixed
//! order, then go, the message last: it takes what is left); piped to a file or a program they
//! are tab-separated values with a header of the field names (every cell whole, one line, no
//! padding: `cut -f`, `awk -F'\t'` and spreadsheets read them). Widths are display cells
//! (`feedback_core::width`), never bytes, and every cell is sanitized to one line here.
//!
//! Rows are written as pages arrive, so widths come from the columns, not from the data, but for
//! the id: its column is as wide as the first page's widest id, and an id is never cut (a later,
//! longer one is written whole). `projects`, `apps` and `tags`, whose rows are all known first,
//! lay out their own [`Spec`]s with [`FittedTable::from_specs`].

use std::io::{self, Write};

use super::super::output::csv_cell;
use super::fields::Field;
use feedback_core::text::Clean;
use feedback_core::width::{fit, truncate, width};

/// How a table is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableMode {
    /// Fit this many cells (a terminal's width).
    Fit(usize),
    /// Tab-separated values: cells whole (output piped to a file or a program).
    Tsv,
}

impl TableMode {
    /// `Fit` the terminal when stdout is one (`COLUMNS` wins over the measured width, as for
    /// `ls`), `Tsv` otherwise.
    #[must_use]
    pub(crate) fn detect() -> Self {
        if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            return Self::Tsv;
        }
        let columns = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|c| *c > 0);
        let measured = terminal_size::terminal_size().map(|(w, _)| usize::from(w.0));
        columns
            .or(measured)
            .map_or(Self::Fit(80), |w| Self::Fit(w.max(1)))
    }
}

/// A column's title and widths, and when it shrinks (lower ranks shrink and go first).
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    pub title: Clean,
    pub preferred: usize,
    pub min: usize,
    pub rank: u8,
    /// Never cut (an id): the column does not shrink, and a wider cell is written whole.
    pub whole: bool,
}

/// The id column's width when the ids are `ids` cells wide at most.
const ID_CELLS: usize = 10;

/// Usual width, the least width still worth showing (below it the column goes; ids and times
/// never shrink), and the rank.
fn spec(field: &Field, ids: usize) -> Spec {
    let (preferred, min, rank) = match field {
        Field::Extra => (30, 10, 0),
        Field::Metadata | Field::Delivery => (40, 12, 1),
        Field::BuiltIn(_) | Field::Custom(_) => (14, 8, 2),
        Field::Link(_) => (30, 12, 2),
        Field::AppId | Field::ProjectId => (36, 8, 3),
        Field::Project | Field::ProjectName => (20, 10, 4),
        Field::Tags | Field::Links => (20, 8, 5),
        Field::ReporterEmail => (26, 12, 6),
        Field::AppPlatform => (8, 7, 7),
        Field::App | Field::AppName => (24, 12, 8),
        Field::Status => (8, 6, 9),
        Field::ReceivedAt => (17, 17, 10),
        Field::Id => (ids.max(ID_CELLS), ids.max(ID_CELLS), 11),
        Field::Message => (60, 20, 12),
        Field::Note => (30, 10, 5),
        Field::SnoozedUntil => (17, 17, 6),
        Field::Seen | Field::Starred | Field::Done => (7, 4, 9),
    };
    let title = match field {
        Field::Id => Clean::fixed("ID"),
        Field::ReceivedAt => Clean::fixed("RECEIVED"),
        Field::ReporterEmail => Clean::fixed("EMAIL"),
        Field::SnoozedUntil => Clean::fixed("SNOOZED"),
        Field::BuiltIn(_) | Field::Custom(_) | Field::Link(_) => field.label(),
        other => Clean::line(&other.name().to_uppercase()),
    };
    Spec {
        title,
        preferred,
        min,
        rank,
        whole: *field == Field::Id,
    }
}

/// A laid-out table: for each field, its width, or `None` when it did not fit.
#[derive(Debug, Clone)]
pub(crate) struct FittedTable {
    titles: Vec<Clean>,
    widths: Vec<Option<usize>>,
    whole: Vec<bool>,
    tsv: bool,
    /// Tab-separated cells written as they are, even ones a spreadsheet would run.
    raw: bool,
}

impl FittedTable {
    /// The table of `fields`, its id column `ids` cells wide (the first page's widest id).
    /// Tab-separated, its header is the fields' names, as `--fields` takes them.
    #[must_use]
    pub(crate) fn new(fields: &[Field], mode: TableMode, ids: usize) -> Self {
        let mut specs: Vec<Spec> = fields.iter().map(|f| spec(f, ids)).collect();
        if mode == TableMode::Tsv {
            for (spec, field) in specs.iter_mut().zip(fields) {
                spec.title = field.label();
            }
        }
        Self::build(specs, flex_index(fields), mode)
    }

    /// The table of `specs`; `flex` takes the room left on a terminal. Tab-separated, the
    /// titles are written as names: lower case, words joined by `_`.
    #[must_use]
    pub(crate) fn from_specs(mut specs: Vec<Spec>, flex: Option<usize>, mode: TableMode) -> Self {
        if mode == TableMode::Tsv {
            for spec in &mut specs {
                let name = spec.title.as_str().to_lowercase().replace(' ', "_");
                spec.title = Clean::line(&name);
            }
        }
        Self::build(specs, flex, mode)
    }

    fn build(specs: Vec<Spec>, flex: Option<usize>, mode: TableMode) -> Self {
        let widths = match mode {
            TableMode::Tsv => specs.iter().map(|s| Some(s.preferred)).collect(),
            TableMode::Fit(total) => layout(&specs, flex, total),
        };
        Self {
            whole: specs.iter().map(|s| s.whole).collect(),
            titles: specs.into_iter().map(|s| s.title).collect(),
            widths,
            tsv: mode == TableMode::Tsv,
            raw: false,
        }
    }

    /// Tab-separated cells are guarded against spreadsheet formulas as CSV cells are, unless
    /// `raw` (`--raw-csv`).
    #[must_use]
    pub(crate) fn raw(mut self, raw: bool) -> Self {
        self.raw = raw;
        self
    }

    pub(crate) fn header(&self, out: &mut dyn Write) -> io::Result<()> {
        self.row(out, &self.titles.clone())
    }

    /// Writes one row of cells (one per field, each sanitized where it was made).
    pub(crate) fn row(&self, out: &mut dyn Write, cells: &[Clean]) -> io::Result<()> {
        let shown: Vec<(usize, bool, &Clean)> = self
            .widths
            .iter()
            .zip(&self.whole)
            .zip(cells)
            .filter_map(|((w, whole), c)| w.map(|w| (w, *whole, c)))
            .collect();
        if self.tsv {
            // A clean cell is one line without tabs: the separators are the only ones. The
            // padding a cell may carry for a terminal's columns is not data.
            let cells: Vec<Clean> = shown
                .iter()
                .map(|(_, _, c)| csv_cell(Clean::line(c.as_str().trim()), self.raw))
                .collect();
            let cells: Vec<&str> = cells.iter().map(Clean::as_str).collect();
            return writeln!(out, "{}", cells.join("\t"));
        }
        let last = shown.len().saturating_sub(1);
        let mut line = String::new();
        for (i, (cells_wide, whole, cell)) in shown.into_iter().enumerate() {
            let clean = cell.as_str();
            if whole {
                line.push_str(clean);
                if i != last {
                    let pad = cells_wide.saturating_sub(width(clean));
                    line.push_str(&" ".repeat(pad + 2));
                }
            } else if i == last {
                line.push_str(&truncate(clean, cells_wide));
            } else {
                line.push_str(&fit(clean, cells_wide));
                line.push_str("  ");
            }
        }
        writeln!(out, "{}", line.trim_end())
    }
}

/// The column that takes the room left: the message when shown, else the last column.
fn flex_index(fields: &[Field]) -> Option<usize> {
    fields
        .iter()
        .position(|f| *f == Field::Message)
        .or_else(|| fields.len().checked_sub(1))
}

/// Widths within `total` cells (two between columns): columns shrink to their minimum in rank
/// order, then go in the same order, until the rest fits with the flex column at its minimum;
/// the flex column then takes what is left (at most its usual width when it is not the last).
fn layout(specs: &[Spec], flex: Option<usize>, total: usize) -> Vec<Option<usize>> {
    let mut widths: Vec<Option<usize>> = specs.iter().map(|s| Some(s.preferred)).collect();
    let mut order: Vec<usize> = (0..specs.len()).filter(|i| Some(*i) != flex).collect();
    order.sort_by_key(|i| specs[*i].rank);
    let need = |widths: &[Option<usize>]| -> usize {
        let shown: Vec<usize> = widths
            .iter()
            .enumerate()
            .filter_map(|(i, w)| w.map(|w| if Some(i) == flex { specs[i].min } else { w }))
            .collect();
        shown.iter().sum::<usize>() + 2 * shown.len().saturating_sub(1)
    };
    for &i in &order {
        let over = need(&widths).saturating_sub(total);
        if let Some(w) = widths[i].as_mut() {
            *w -= over.min(*w - specs[i].min);
        }
    }
    for &i in &order {
        if need(&widths) > total {
            widths[i] = None;
        }
    }
    if let Some(f) = flex {
        let others = need(&widths) - specs[f].min;
        let room = total.saturating_sub(others).max(1);
        let is_last = f + 1 == specs.len();
        widths[f] = Some(if is_last {
            room
        } else {
            room.min(specs[f].preferred)
        });
    }
    widths
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::export::fields::TABLE_DEFAULT;

    fn lines(mode: TableMode, fields: &[Field], cells: &[&str]) -> Vec<String> {
        let table = FittedTable::new(fields, mode, width(cells[0]));
        let mut out = Vec::new();
        table.header(&mut out).unwrap();
        let cells: Vec<Clean> = cells.iter().map(|c| Clean::line(c)).collect();
        table.row(&mut out, &cells).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    const ROW: &[&str] = &[
        "fb_12345678",
        "2026-11-01 12:00Z",
        "new",
        "Trailhead iOS (ios)",
        "bug,crash",
        "ana@example.com",
        "同期 fails on every launch since the update, and then some more text to cut",
    ];

    #[test]
    fn a_wide_terminal_shows_every_column_and_the_message_takes_the_rest() {
        let shown = lines(TableMode::Fit(200), TABLE_DEFAULT, ROW);
        assert!(shown.iter().all(|l| width(l) <= 200), "{shown:#?}");
        assert!(shown[0].starts_with("ID           RECEIVED"), "{shown:#?}");
        assert!(
            shown[1].ends_with("and then some more text to cut"),
            "{shown:#?}"
        );
    }

    #[test]
    fn narrow_terminals_shrink_then_drop_columns_in_order_and_the_message_stays() {
        for total in [120, 100, 80, 60, 40, 30, 20, 12] {
            let shown = lines(TableMode::Fit(total), TABLE_DEFAULT, ROW);
            for line in &shown {
                assert!(width(line) <= total, "{total}: {line:?} is {}", width(line));
            }
            assert!(shown[0].contains("MESSAGE"), "{total}: {shown:#?}");
        }
        // At 80 cells tags and the email go, the app shrinks; ids and times never shrink, and
        // the id column is as wide as the id: never cut.
        let at_80 = lines(TableMode::Fit(80), TABLE_DEFAULT, ROW);
        assert_eq!(
            at_80[0],
            "ID           RECEIVED           STATUS  APP           MESSAGE"
        );
        assert!(at_80[1].starts_with("fb_12345678  2026-11-01 12:00Z  new     Trailhead i…"));
        let at_60 = lines(TableMode::Fit(60), TABLE_DEFAULT, ROW);
        assert_eq!(at_60[0], "ID           RECEIVED           STATUS  MESSAGE");
        let at_33 = lines(TableMode::Fit(33), TABLE_DEFAULT, ROW);
        assert_eq!(at_33[0], "ID           MESSAGE");
        assert!(at_33[1].starts_with("fb_12345678  "), "{at_33:#?}");
        let at_12 = lines(TableMode::Fit(12), TABLE_DEFAULT, ROW);
        assert_eq!(at_12[0], "MESSAGE");
        // The message is cut in display cells: a wide character is never split.
        let at_40 = lines(TableMode::Fit(40), TABLE_DEFAULT, ROW);
        assert!(at_40[1].contains('同'), "{at_40:#?}");
    }

    #[test]
    fn a_longer_id_than_the_first_pages_is_written_whole() {
        let table = FittedTable::new(TABLE_DEFAULT, TableMode::Fit(40), 11);
        let mut cells: Vec<Clean> = ROW.iter().map(|c| Clean::line(c)).collect();
        cells[0] = Clean::line("fb_1234567890123");
        let mut out = Vec::new();
        table.row(&mut out, &cells).unwrap();
        let line = String::from_utf8(out).unwrap();
        assert!(line.starts_with("fb_1234567890123 "), "{line}");
    }

    #[test]
    fn piped_tables_are_tab_separated_with_the_field_names_and_cut_nothing() {
        let shown = lines(TableMode::Tsv, TABLE_DEFAULT, ROW);
        assert_eq!(
            shown[0],
            "id\treceived_at\tstatus\tapp\ttags\treporter_email\tmessage"
        );
        let cells: Vec<&str> = shown[1].split('\t').collect();
        assert_eq!(cells, ROW);
    }

    #[test]
    fn cells_are_sanitized_in_both_modes() {
        for mode in [TableMode::Tsv, TableMode::Fit(50)] {
            let shown = lines(
                mode,
                &[Field::Id, Field::Message],
                &["a\u{1b}[2J\tb", "x\u{202e}y\nz"],
            );
            for line in shown {
                // Two cells: the only tab is the separator's.
                assert!(line.split('\t').count() <= 2, "{line:?}");
                assert!(
                    !line.replace('\t', " ").chars().any(char::is_control),
                    "{line:?}"
                );
                assert!(!line.contains('\u{202e}'), "{line:?}");
            }
        }
    }
}
