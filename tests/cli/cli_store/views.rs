//! `view:NAME` on the command line: `search` (and `stats`) name the inbox's views, built in and
//! the config file's, as `/` does; the shell completes a query's qualifier and its value.

use std::ffi::OsStr;
use std::path::Path;

use super::search::{filled, ok, search};
use super::shell_completion::complete;
use super::webhook_support::text;
use feedback_api::Tag;
use feedback_store::Store;
use feedback_store::TriageChange;
use jiff::Timestamp;

const CONFIG: &str = r#"
[[views]]
name = "Billing"
query = "tag:billing"

[[views]]
name = "Crash reports"
query = "crash*"
status = "any"
"#;

fn ids(out: &str) -> Vec<String> {
    out.lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap().to_owned())
        .collect()
}

#[test]
fn search_names_the_inbox_views_and_the_config_files() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    let config = home.path().join("views.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let config = config.to_str().unwrap();
    let mut opened = Store::open(&store).unwrap();
    opened
        .set_triage(
            &["fb_1".to_owned()],
            &TriageChange::Done(true),
            Timestamp::now(),
        )
        .unwrap();
    drop(opened);
    let found = |query: &[&str]| {
        let mut args = vec!["--config", config];
        args.extend_from_slice(query);
        let out = search(home.path(), &store, &args);
        ids(&ok(&out))
    };
    assert_eq!(
        found(&["view:billing"]),
        ["fb_2"],
        "done fb_1 is hidden, as in the view"
    );
    assert_eq!(found(&["view:Done"]), ["fb_1"]);
    assert_eq!(found(&["view:inbox"]), ["fb_4", "fb_2"]);
    assert_eq!(
        found(&["view:\"crash reports\" OR view:archived"]),
        ["fb_4", "fb_3"]
    );
    assert_eq!(found(&["--", "refund", "-view:Archived"]), ["fb_2", "fb_1"]);

    let out = search(home.path(), &store, &["--config", config, "view:bugs"]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.starts_with("error: no view named \"bugs\"; known: Inbox, Starred, Snoozed, Done, Archived, Billing, \"Crash reports\""),
        "{said}"
    );
    assert!(
        said.contains("^^^^^^^^^"),
        "a caret under the qualifier: {said}"
    );
}

#[test]
fn the_shell_completes_a_query_words_qualifier_and_its_value() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    // The tags the service lists, as a sync keeps them.
    let tag = |tag: &str, count| Tag {
        tag: tag.to_owned(),
        count,
    };
    Store::open(&store)
        .unwrap()
        .put_server_tags(&[tag("billing", 2), tag("bug", 2)])
        .unwrap();
    let config = home.path().join("views.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let (store, config) = (store.to_str().unwrap(), config.to_str().unwrap());
    let env: [(&str, &OsStr); 1] = [("HOME", home.path().as_os_str())];
    let asked = |word: &str| {
        let words = [
            "feedback-inbox",
            "--store",
            store,
            "--config",
            config,
            "search",
            "--",
            "refund",
            word,
        ];
        complete(&env, &words, 8)
    };
    assert_eq!(asked("ta"), ["tag:"]);
    assert_eq!(asked("tag:bi"), ["tag:billing"]);
    assert_eq!(asked("-tag:b"), ["-tag:billing", "-tag:bug"]);
    assert_eq!(asked("view:bi"), ["view:Billing"]);
    let views = asked("view:");
    assert_eq!(
        views,
        [
            "view:Inbox",
            "view:Starred",
            "view:Snoozed",
            "view:Done",
            "view:Archived",
            "view:Billing"
        ],
        "\"Crash reports\" would be two words of the shell's line"
    );
    assert!(asked("zzz").is_empty());
    // Without the store, values of the store are not offered; views still are.
    let none = Path::new(home.path()).join("none.sqlite3");
    let words = [
        "feedback-inbox",
        "--store",
        none.to_str().unwrap(),
        "--config",
        config,
        "search",
        "tag:b",
    ];
    assert!(complete(&env, &words, 6).is_empty());
    assert!(!none.exists(), "completing creates no store");
}
