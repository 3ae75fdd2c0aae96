//! Enrichment from the inbox against the simulator: the whole loop over a TestBackend, keys
//! over a channel. `=` groups the view by version ("based on 0 of N items"), `e` queues the
//! view's missing details, the background fetches them, and the coverage line follows until
//! every item is covered. Waits are on conditions with a deadline.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::inbox::{launch, launch_with};
use feedback_store::{Shared, Store, ViewQuery};
use feedback_sync::SyncSettings;
use ratatui::crossterm::event::KeyCode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e_fetches_the_views_details_in_the_background_and_the_coverage_follows() {
    let r = common::rig(40, 10_000).await;
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let app = launch(r.client.clone(), store.clone());
    let new =
        common::expected_ids(&r.sim, |it| it.feedback.status == feedback_api::Status::New).len();
    app.wait_frame("the head synced", |f| {
        f.contains(&format!(
            "Feedback · new · {} ",
            feedback_core::text::output::counted(new, "item")
        )) && f.contains("as of")
    });
    app.press(KeyCode::Char('='));
    app.typed("version");
    app.press(KeyCode::Enter);
    let total = format!("of {new} items");
    app.wait_frame("the version groups, uncovered", |f| {
        f.contains("Grouped by version") && f.contains(&format!("based on 0 {total}"))
    });
    app.press(KeyCode::Char('e'));
    app.wait_frame("the enrichment's progress", |f| {
        f.contains("details ") && f.contains(&format!("/{new}"))
    });
    let frame = app.wait_frame("every detail fetched", |f| {
        f.contains(&format!("Details fetched: {new}"))
    });
    assert!(!frame.contains("based on 0 "), "{frame}");
    let coverage = store
        .read(|s| s.detail_coverage(&ViewQuery::listed(Some("new"))))
        .unwrap();
    assert_eq!(coverage.with_detail, coverage.total);
    // The groups follow the details that came (throttled): every item with metadata counts.
    let with_metadata = common::expected_ids(&r.sim, |it| {
        it.feedback.status == feedback_api::Status::New
            && !(it.metadata.built_in.is_empty() && it.metadata.custom.is_empty())
    })
    .len();
    assert!(with_metadata > 0);
    app.wait_frame("the coverage line updated", |f| {
        f.contains(&format!("based on {with_metadata} {total}"))
    });
    app.press(KeyCode::Char('q'));
    app.press(KeyCode::Char('q'));
    tokio::time::timeout(Duration::from_secs(10), app.task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e_with_background_sync_off_says_so_instead_of_queueing() {
    let r = common::rig(20, 10_000).await;
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let sync = SyncSettings {
        background: false,
        ..SyncSettings::default()
    };
    let app = launch_with(r.client.clone(), store.clone(), sync);
    app.wait_frame("the head synced", |f| f.contains("as of"));
    app.press(KeyCode::Char('e'));
    app.wait_frame("why e does nothing", |f| {
        f.contains("Background sync is off ([sync] background = false)")
    });
    assert_eq!(store.read(Store::queued_details).unwrap(), 0);
    app.press(KeyCode::Char('q'));
    tokio::time::timeout(Duration::from_secs(10), app.task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}
