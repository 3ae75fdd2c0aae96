//! The `stats` output pieces: bars, sparklines, the fitted table, CSV cells and the summary.
#![allow(clippy::unwrap_used)]

use jiff::civil::date;

use super::render::{csv_for_tests, table_for_tests};
use super::*;
use crate::export::table_fit::TableMode;
use feedback_core::width::width;
use feedback_store::pivot::{Group, SERIES_DAYS};

fn group(key: Option<&str>, label: Option<&str>, count: u64, today: u32) -> Group {
    let mut daily = vec![0; SERIES_DAYS];
    daily[SERIES_DAYS - 1] = today;
    daily[0] = 1;
    Group {
        key: key.map(str::to_owned),
        label: label.map(str::to_owned),
        count,
        daily,
        app: None,
        app_word: None,
        first_seen: None,
        text: feedback_store::pivot::Shown::default(),
    }
    .labelled()
}

fn pivot(by: By, covered: Option<u64>) -> Pivot {
    Pivot {
        by,
        total: 200,
        covered,
        groups: vec![
            group(
                Some("app-1"),
                Some("Trailhead iOS \u{1b}[2J\u{202e}"),
                150,
                8,
            ),
            group(Some("=HYPERLINK(\"x\")"), None, 49, 0),
            group(None, None, 1, 0),
        ],
        first_day: date(2026, 10, 22),
        held_from: 0,
    }
}

#[test]
fn bars_are_cut_in_eighths_and_a_share_above_zero_shows() {
    assert_eq!(share_bar(1.0, 10), "██████████");
    assert_eq!(share_bar(0.5, 10), "█████");
    assert_eq!(share_bar(0.55, 10), "█████▌");
    assert_eq!(share_bar(0.001, 10), "▏");
    assert_eq!(share_bar(0.0, 10), "");
    assert_eq!(share_bar(1.7, 4), "████");
}

#[test]
fn sparklines_scale_to_the_busiest_day_and_tell_empty_from_few() {
    assert_eq!(sparkline(&[0, 1, 7, 14, 0], 0), "▁▂▅█▁");
    assert_eq!(sparkline(&[0, 0], 0), "▁▁");
    assert_eq!(sparkline(&[3], 0), "█");
    // One item against a thousand still shows above an empty day.
    assert_eq!(sparkline(&[0, 1, 1000], 0), "▁▂█");
}

#[test]
fn the_table_fits_the_terminal_sanitized_and_is_tab_separated_when_piped() {
    let p = pivot(By::App, None);
    let tsv = table_for_tests(&p, TableMode::Tsv);
    let lines: Vec<&str> = tsv.lines().collect();
    assert!(lines[0].starts_with("app\tcount\tshare"), "{tsv}");
    assert!(lines[0].ends_with("last_30_days"), "{tsv}");
    let cells: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(cells[1..3], ["150", "75.0%"], "{tsv}");
    assert!(cells[3].starts_with("███████▌"), "{tsv}");
    assert!(
        lines[1].ends_with("▂▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█"),
        "{tsv}"
    );
    assert!(lines[3].starts_with("(none)\t"), "{tsv}");
    for line in &lines {
        let line = line.replace('\t', " ");
        assert!(!line.chars().any(char::is_control) && !line.contains('\u{202e}'));
    }
    // Narrow terminals lose the sparkline, then the bar; the group and count stay.
    for columns in [100, 60, 40, 24] {
        let fitted = table_for_tests(&p, TableMode::Fit(columns));
        for line in fitted.lines() {
            assert!(width(line) <= columns, "{columns}: {line:?}\n{fitted}");
        }
        let header = fitted.lines().next().unwrap();
        assert!(
            header.starts_with("APP") && header.contains("COUNT"),
            "{header}"
        );
    }
    assert!(table_for_tests(&p, TableMode::Fit(100)).contains("LAST 30 DAYS"));
    assert!(!table_for_tests(&p, TableMode::Fit(40)).contains("LAST 30 DAYS"));
}

#[test]
fn csv_has_a_column_per_day_and_no_formula_runs() {
    let csv = csv_for_tests(&pivot(By::Tag, None), false);
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("key,label,count,share,2026-10-22,2026-10-23,"),
        "{header}"
    );
    assert!(header.ends_with(",2026-11-20"), "{header}");
    assert_eq!(header.split(',').count(), 4 + SERIES_DAYS);
    let first = lines.next().unwrap();
    assert!(first.starts_with("app-1,Trailhead iOS"), "{first}");
    assert!(first.contains(",150,0.7500,1,0,"), "{first}");
    assert!(!first.contains('\u{1b}'));
    assert!(lines.next().unwrap().starts_with("\"'=HYPERLINK"), "{csv}");
    assert!(
        lines.next().unwrap().starts_with("(none),,1,0.0050,"),
        "{csv}"
    );
    let raw = csv_for_tests(&pivot(By::Tag, None), true);
    assert!(raw.contains("\n\"=HYPERLINK"), "{raw}");
}

#[test]
fn the_summary_says_what_a_metadata_pivot_is_based_on() {
    assert_eq!(summary(&pivot(By::App, None)), "200 items in 3 groups");
    let line = summary(&pivot(By::Version, Some(1_812)));
    assert!(
        line.starts_with("200 items in 3 groups; version based on 1,812 of 200 items"),
        "{line}"
    );
}
