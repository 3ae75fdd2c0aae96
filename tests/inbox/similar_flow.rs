//! `S` from the inbox against the simulator's store: the whole loop over a TestBackend, keys
//! over a channel. The list's first item that has near-duplicates (the simulator's story has
//! families of them) is chosen with `j`, `S` shows them under a heading with the store's count,
//! `Esc` brings the list back as it was. Waits are on conditions with a deadline.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::inbox::launch;
use feedback_store::{Shared, Store, ViewQuery};
use feedback_tui::similar::MAX_SHOWN;
use ratatui::crossterm::event::KeyCode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s_shows_the_similar_items_with_the_stores_count_and_esc_goes_back() {
    let r = common::rig(300, 10_000).await;
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let app = launch(r.client.clone(), store.clone());
    let new =
        common::expected_ids(&r.sim, |it| it.feedback.status == feedback_api::Status::New).len();
    let listed = format!(
        "Feedback · new · {} ",
        feedback_core::text::output::counted(new, "item")
    );
    app.wait_frame("the head synced", |f| {
        f.contains(&listed) && f.contains("as of")
    });
    // The first of the first screen's items that has near-duplicates, and their count.
    let keys = store
        .read(|s| s.view_keys(&ViewQuery::listed(Some("new")), Some(25)))
        .unwrap();
    let (position, total) = keys
        .iter()
        .enumerate()
        .find_map(|(n, &key)| {
            let found = store.read(|s| s.similar(key, MAX_SHOWN)).unwrap().unwrap();
            (found.total > 1).then_some((n, found.total))
        })
        .expect("the simulator's families reach the first screen");
    for _ in 0..position {
        app.press(KeyCode::Char('j'));
    }
    app.press(KeyCode::Char('S'));
    let count = format!("\" · {total} items");
    let frame = app.wait_frame("the similar items", |f| {
        f.contains("Similar to \"") && f.contains(&count)
    });
    assert!(!frame.contains(&listed), "{frame}");
    app.press(KeyCode::Esc);
    app.wait_frame("the list as it was", |f| {
        f.contains(&listed) && !f.contains("Similar to")
    });
    app.press(KeyCode::Char('q'));
    tokio::time::timeout(Duration::from_secs(10), app.task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}
