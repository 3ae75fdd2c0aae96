//! `webhook listen` stores, at start, what its journal holds and the store lacks: deliveries
//! acknowledged (journaled) whose store write never happened, because the previous run ended
//! between the two.
#![allow(clippy::unwrap_used)]

use crate::webhook_support;

use feedback_store::Store;
use webhook_support::{LISTEN, bin, listening, terminate};

fn line(id: &str) -> String {
    format!(
        r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":"app_1","appName":"Acme iOS","projectId":"prj_1","projectName":"Acme","message":"journaled only","email":null,"metadata":{{"custom":{{}}}},"receivedAt":"2026-11-01T11:59:00Z"}}}}"#
    )
}

#[test]
fn items_only_in_the_journal_are_stored_at_start() {
    let home = tempfile::tempdir().unwrap();
    let jsonl = home.path().join("events.jsonl");
    let journal: String = ["fb_a", "fb_b", "fb_c"]
        .iter()
        .map(|id| line(id) + "\n")
        .collect();
    std::fs::write(&jsonl, journal).unwrap();
    let store_path = home
        .path()
        .join("data/feedback-inbox/stores/default.sqlite3");
    {
        let mut store = Store::open(&store_path).unwrap();
        let submission = feedback_api::webhook::Event::parse(line("fb_a").as_bytes()).unwrap();
        let feedback_api::webhook::Event::FeedbackCreated(submission) = submission else {
            panic!("not a submission");
        };
        feedback_webhook::stored::store_submission(&mut store, &submission).unwrap();
    }

    let mut command = bin(home.path());
    command.args(LISTEN).arg("--jsonl").arg(&jsonl);
    let (mut listen, _url) = listening(command);
    let said = listen
        .err
        .recv_timeout(std::time::Duration::from_secs(30))
        .ok();
    terminate(&mut listen.child);
    assert_eq!(
        said.as_deref(),
        Some("stored 2 journaled item(s) the store lacked")
    );

    let store = Store::open(&store_path).unwrap();
    assert_eq!(
        store.contains_ids(&["fb_a", "fb_b", "fb_c"]).unwrap(),
        [true, true, true]
    );
}
