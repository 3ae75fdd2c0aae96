//! `stats` outputs: JSON with each group's last 30 days, the plain table and its stderr
//! summary, CSV (a column per day, no formula run), days and weeks, completions and man page.

use feedback_api::FeedbackDetail;
use jiff::Timestamp;

use super::{Fixture, counts, ok, run, tags, tally, text};

#[tokio::test(flavor = "multi_thread")]
async fn json_counts_every_group_and_its_last_thirty_days() {
    let f = Fixture::new().await;
    let items = f.items();
    let json = f.json(&["--by", "tag"]);
    assert_eq!(json["by"], "tag");
    assert_eq!(json["total"].as_u64().unwrap(), items.len() as u64);
    assert!(json["covered"].is_null());
    assert_eq!(counts(&json), tally(&items, tags));
    // Largest first; the daily series add up to the items of the 30 days from `first_day`.
    let groups = json["groups"].as_array().unwrap();
    let sizes: Vec<u64> = groups
        .iter()
        .map(|g| g["count"].as_u64().unwrap())
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    let first: jiff::civil::Date = json["first_day"].as_str().unwrap().parse().unwrap();
    let start = first.to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp();
    let in_window = |d: &&FeedbackDetail| d.feedback.received_at >= start;
    let want = tally(items.iter().filter(in_window), tags);
    for g in groups {
        let daily: Vec<u64> = g["daily"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(daily.len(), 30);
        let key = g["key"].as_str().unwrap_or("(none)");
        assert_eq!(
            daily.iter().sum::<u64>(),
            want.get(key).copied().unwrap_or(0),
            "{key}"
        );
    }
    assert!(want.values().sum::<u64>() > 0, "the window holds items");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_table_is_tab_separated_when_piped_and_the_summary_goes_to_stderr() {
    let f = Fixture::new().await;
    let items = f.items();
    let out = f.run(&["stats", "--by", "app"]);
    let table = ok(&out);
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[0].starts_with("app\t") && lines[0].ends_with("\tlast_30_days"),
        "{table}"
    );
    // One line per app (names shown, not ids), counts as the simulator has them.
    let by_app = tally(&items, |d| {
        vec![
            d.feedback
                .app
                .as_ref()
                .map_or("(none)".into(), |a| a.name.clone()),
        ]
    });
    assert_eq!(lines.len(), 1 + by_app.len(), "{table}");
    for (name, count) in &by_app {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("{name}\t")))
            .unwrap();
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells[1], count.to_string(), "{line}");
        assert!(cells[2].ends_with('%'), "{line}");
        assert!(
            line.chars()
                .rev()
                .take(30)
                .all(|c| ('▁'..='█').contains(&c)),
            "{line}"
        );
    }
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{} items in {} groups", items.len(), by_app.len())),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn csv_has_a_column_per_day_and_no_cell_runs_as_a_formula() {
    let f = Fixture::new().await;
    // The binary reads the wall clock: its "today" is the day before or after the run (the
    // run may cross UTC midnight).
    let today = || {
        Timestamp::now()
            .to_zoned(jiff::tz::TimeZone::UTC)
            .date()
            .to_string()
    };
    let before = today();
    let csv = ok(&f.run(&["stats", "--by", "tag", "--format", "csv"]));
    let after = today();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[..4], ["key", "label", "count", "share"]);
    assert_eq!(header.len(), 34);
    assert!(
        header[33] == before || header[33] == after,
        "{} not {before} or {after}",
        header[33]
    );
    assert!(csv.contains("\"'=HYPERLINK"), "{csv}");
    assert!(
        !csv.contains("\n\"=HYPERLINK") && !csv.contains("\n=HYPERLINK"),
        "{csv}"
    );
    let raw = ok(&f.run(&["stats", "--by", "tag", "--format", "csv", "--raw-csv"]));
    assert!(raw.contains("\n\"=HYPERLINK"), "{raw}");
}

#[tokio::test(flavor = "multi_thread")]
async fn days_and_weeks_are_newest_first_and_add_up() {
    let f = Fixture::new().await;
    let total = f.items().len() as u64;
    for by in ["day", "week"] {
        let json = f.json(&["--by", by]);
        let keys: Vec<&str> = json["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["key"].as_str().unwrap())
            .collect();
        assert!(keys.windows(2).all(|w| w[0] > w[1]), "{by}: {keys:?}");
        assert_eq!(counts(&json).values().sum::<u64>(), total);
    }
}

#[test]
fn completions_and_the_man_page_know_stats() {
    let out = run("http://127.0.0.1:9", None, &["completions", "bash"]);
    assert!(ok(&out).contains("COMPLETE"), "the script asks the program");
    // Asked as the script asks: the words so far, the index of the one to complete.
    let asked = |words: &[&str], index: usize| {
        super::shell_completion::complete(&[], words, index).join("\n")
    };
    assert!(
        asked(&["feedback-inbox", "st"], 1)
            .lines()
            .any(|l| l == "stats"),
        "the command"
    );
    let flags = asked(&["feedback-inbox", "stats", "--b"], 2);
    assert!(flags.lines().any(|l| l == "--by"), "{flags}");
    let values = asked(&["feedback-inbox", "stats", "--by", ""], 3);
    assert!(values.lines().any(|l| l == "version"), "{values}");
    let dir = tempfile::tempdir().unwrap();
    ok(&run(
        "http://127.0.0.1:9",
        None,
        &["man", "--dir", dir.path().to_str().unwrap()],
    ));
    let page = std::fs::read_to_string(dir.path().join("feedback-inbox-stats.1")).unwrap();
    assert!(page.contains("meta.KEY"), "{page}");
}
