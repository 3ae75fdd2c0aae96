//! Items reach a member's screen through the team's shared mirror as the service sent them:
//! the hostile corpus in every field, with hostile metadata and delivery links beside, written
//! by the syncer, followed into another member's store against a real PostgreSQL, stays inert
//! on the list, the panes, the status bar and the detail.

#![allow(clippy::unwrap_used)]

use crate::hostile;
use crate::team_pg;

use feedback_api::Extras;
use feedback_team::{self as team, MirrorWrite};
use feedback_team_sync as team_sync;
use feedback_tui::action::{Action, Msg};
use feedback_tui::testkit::{self, Harness, now};
use hostile::{assert_screen_inert, hostile_detail, hostile_new_items};
use team_pg as pg;

#[tokio::test]
async fn hostile_items_followed_from_the_mirror_stay_inert_on_screen() {
    let Some(db) = pg::Db::new("mirror_hostile").await else {
        return;
    };
    let mut members = db.connected("support", &["ana", "bo"]).await;
    let bo = members.pop().unwrap();
    let mut ana = members.pop().unwrap();
    ana.set_shared_mirror(true).await.unwrap();
    let lease = ana.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    let items = hostile_new_items();
    let extras: Vec<Option<Extras>> = items
        .iter()
        .map(|item| {
            let detail = hostile_detail(item.clone());
            Some(Extras {
                metadata: detail.metadata,
                delivery: Some(detail.delivery),
            })
        })
        .collect();
    let written = ana
        .mirror_write(&lease, (&items, &extras), &[], None, None)
        .await
        .unwrap();
    assert_eq!(
        written,
        MirrorWrite::Written {
            changed: u64::try_from(items.len()).unwrap()
        }
    );

    let store = testkit::fill(0);
    team_sync::join(&bo, &store).await.unwrap();
    let followed = team_sync::mirror::follow(&bo, &store, now).await.unwrap();
    assert_eq!(followed.added, items.len());
    let mut h = Harness::start(store, 120, 40);
    assert!(h.state.visible_len() > 0);
    for page in 0..6 {
        assert_screen_inert(&format!("list page {page}"), &h.state);
        h.send(Msg::Action(Action::Open));
        assert_screen_inert(&format!("detail on page {page}"), &h.state);
        h.send(Msg::Action(Action::Back));
        h.send(Msg::Action(Action::PageDown));
    }
    drop((ana, bo));
    db.drop().await;
}
