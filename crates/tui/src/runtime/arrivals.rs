//! Items from outside (a webhook receiver): each is stored as `webhook listen` stores it (dated
//! at its `receivedAt`, only for a project of the store's account), then the loop is told the
//! outcome, and queries the view again when the item is new (so it shows where the view's
//! order puts it, or not at all under filters it does not match).

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::Arrival;
use crate::action::Msg;
use crate::failure::Failure;
use feedback_store::Shared;
use feedback_webhook::stored::store_submission;

/// Stores each item from outside, then tells the loop whether it is new, not stored, or
/// could not be stored (and why: the loop says so).
pub(super) fn store_arrivals(
    source: Option<UnboundedReceiver<Arrival>>,
    store: Shared,
    tx: UnboundedSender<Msg>,
) {
    let Some(mut source) = source else { return };
    tokio::spawn(async move {
        while let Some(arrival) = source.recv().await {
            let store = store.clone();
            let outcome = tokio::task::spawn_blocking(move || store_one(&store, &arrival))
                .await
                .unwrap_or_else(|error| Err(Failure::Stopped(std::sync::Arc::new(error))));
            if let Err(error) = &outcome {
                tracing::warn!(%error, "cannot store an arrival");
            }
            if tx.send(Msg::Arrived(outcome)).is_err() {
                break;
            }
        }
    });
}

/// `Ok(true)`: stored, and new to the store (the receiver's store took it when it recorded
/// the delivery, or this write did).
fn store_one(store: &Shared, arrival: &Arrival) -> Result<bool, Failure> {
    if arrival.stored {
        return Ok(true);
    }
    let written = store
        .write(|s| store_submission(s, &arrival.submission))
        .map_err(Failure::from)?;
    Ok(written.is_some_and(|w| w.added > 0))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use feedback_api::webhook::event::{Submission, WebhookMetadata};
    use feedback_api::{Feedback, Project, Status};

    fn submission(id: &str, project: &str) -> Submission {
        Submission {
            id: feedback_api::FeedbackId(id.to_owned()),
            app_id: "app_1".into(),
            app_name: "Acme iOS".into(),
            project_id: project.into(),
            project_name: "Acme".into(),
            message: "the export crashes".into(),
            email: None,
            metadata: WebhookMetadata::default(),
            received_at: "2026-11-01T11:59:00Z".parse().unwrap(),
        }
    }

    fn project(id: &str) -> Project {
        Project {
            id: id.to_owned(),
            name: id.to_owned(),
            slug: None,
            created_at: None,
        }
    }

    async fn deliver(store: &Shared, submissions: Vec<Submission>) -> Vec<Msg> {
        let (arrival_tx, source) = tokio::sync::mpsc::unbounded_channel();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        store_arrivals(Some(source), store.clone(), tx);
        let count = submissions.len();
        for submission in submissions {
            arrival_tx
                .send(Arrival {
                    submission,
                    stored: false,
                })
                .unwrap();
        }
        let mut msgs = Vec::new();
        for _ in 0..count {
            let wait = tokio::time::timeout(std::time::Duration::from_secs(10), rx.recv());
            msgs.push(wait.await.unwrap().unwrap());
        }
        msgs
    }

    fn outcome(msg: &Msg) -> Result<bool, String> {
        match msg {
            Msg::Arrived(outcome) => outcome.clone().map_err(|e| e.to_string()),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn only_the_accounts_new_items_are_stored_and_counted_dated_at_their_receipt() {
        let store = Shared::new(feedback_store::Store::open_memory().unwrap()).unwrap();
        store
            .write(|s| s.check_account(&[project("prj_1")]))
            .unwrap();
        // Since the delivery was sent, a newer list page said fb_2 is archived and tagged.
        let mut listed: Feedback = submission("fb_2", "prj_1").to_feedback(None);
        listed.status = Status::Archived;
        listed.tags = vec!["bug".into()];
        let later = "2026-11-02T00:00:00Z".parse().unwrap();
        store.write(|s| s.put_items(&[listed], later)).unwrap();
        let msgs = deliver(
            &store,
            vec![
                submission("fb_1", "prj_1"),
                submission("fb_1", "prj_1"),
                submission("fb_x", "prj_other"),
                submission("fb_2", "prj_1"),
            ],
        )
        .await;
        let outcomes: Vec<_> = msgs.iter().map(outcome).collect();
        assert_eq!(outcomes, [Ok(true), Ok(false), Ok(false), Ok(false)]);
        store
            .read(|s| {
                assert!(s.item("fb_1")?.is_some());
                assert!(s.item("fb_x")?.is_none(), "another account's project");
                let kept = s.detail("fb_2")?.unwrap().item.feedback;
                assert_eq!(kept.status, Status::Archived);
                assert_eq!(kept.tags, ["bug"]);
                Ok::<_, feedback_store::StoreError>(())
            })
            .unwrap();
    }

    #[tokio::test]
    async fn an_item_the_store_cannot_take_is_reported_as_such() {
        let store = Shared::new(feedback_store::Store::open_memory().unwrap()).unwrap();
        store
            .write(|s| {
                let refuse = "CREATE TRIGGER no_items BEFORE INSERT ON items
                              BEGIN SELECT RAISE(ABORT, 'disk full'); END;";
                s.tamper(refuse)
            })
            .unwrap();
        let msgs = deliver(&store, vec![submission("fb_1", "prj_1")]).await;
        let failed = outcome(&msgs[0]).unwrap_err();
        assert!(failed.contains("disk full"), "{failed}");
    }
}
