//! Accepted `feedback.created` deliveries into the local store (`webhook listen`, the inbox's
//! `--listen`): the item and its metadata, which a delivery carries for free.
//!
//! `webhook listen` with a store records each delivery's idempotency key and its item in one
//! transaction before the delivery is answered ([`record_delivery`]), so a redelivery is
//! recognised after a restart. The inbox's receiver answers once its journal line is synced and
//! stores the item after ([`store_submission`]), never refusing a delivery for it. The sighting is dated at the item's `receivedAt` (what the
//! payload describes: status `new`, no tags), so it never overwrites what a later list page or
//! detail said about the item, while its metadata is added all the same. The payload has no
//! platform: the app's, when the store knows it, is used. A delivery whose project the store's
//! account does not have is not stored (its key is recorded all the same): one store never
//! mixes two accounts.

use jiff::Timestamp;

use feedback_api::webhook::Submission;
use feedback_api::{Feedback, Metadata};
use feedback_store::{Sighting, Store, StoreError, Written};

/// Stores one delivered submission (idempotent: a repeat changes nothing). `Ok(None)`: not
/// stored, as its project is not among those of the account the store mirrors (a webhook of
/// another account, or a project created since the last sync, which that sync will bring).
pub fn store_submission(
    store: &mut Store,
    submission: &Submission,
) -> Result<Option<Written>, StoreError> {
    let Some((feedback, metadata)) = prepare(store, submission)? else {
        return Ok(None);
    };
    store
        .put_delivered(&[sighting(&feedback, &metadata)], submission.received_at)
        .map(Some)
}

/// What [`record_delivery`] did with a delivery seen for the first time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    /// Its key is recorded and its item (if it brought one) stored.
    Stored,
    /// Its key is recorded; its item is not stored, as its project is not among those of the
    /// store's account.
    OtherAccount,
}

/// Records the delivery with `key`, first seen at `now`, and stores the submission it brought,
/// in one transaction. `Ok(None)`: the key was recorded before, and nothing is written.
pub(crate) fn record_delivery(
    store: &mut Store,
    key: &str,
    submission: Option<&Submission>,
    now: Timestamp,
) -> Result<Option<Kept>, StoreError> {
    let prepared = match submission {
        Some(submission) => Some(prepare(store, submission)?),
        None => None,
    };
    let sightings: Vec<Sighting<'_>> = prepared
        .iter()
        .flatten()
        .map(|(feedback, metadata)| sighting(feedback, metadata))
        .collect();
    let sighted = submission.map_or(now, |s| s.received_at);
    let written = store.put_delivery(key, now, &sightings, sighted)?;
    Ok(written.map(|_| match prepared {
        Some(None) => Kept::OtherAccount,
        _ => Kept::Stored,
    }))
}

/// Forgets the oldest delivery ids the store keeps when it holds more than the seen file keeps
/// ([`super::seen::COMPACT_ABOVE`]), down to half as many; returns how many it forgot.
pub fn prune_seen(store: &mut Store) -> Result<usize, StoreError> {
    let above = super::seen::COMPACT_ABOVE;
    store.prune_deliveries(above, above / 2)
}

/// The item and metadata a submission brings; `None` when its project is another account's.
fn prepare(
    store: &Store,
    submission: &Submission,
) -> Result<Option<(Feedback, Metadata)>, StoreError> {
    let known = store.known_project_ids()?;
    if !known.is_empty() && !known.contains(&submission.project_id) {
        return Ok(None);
    }
    let platform = store.known_platform(&submission.app_id)?;
    Ok(Some((
        submission.to_feedback(platform),
        submission.rest_metadata(),
    )))
}

fn sighting<'a>(feedback: &'a Feedback, metadata: &'a Metadata) -> Sighting<'a> {
    Sighting {
        feedback,
        listed: None,
        metadata: Some(metadata),
        delivery: None,
    }
}

/// How many of a journal's items [`store_journaled`] stored, and how many it left out as
/// another account's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CaughtUp {
    pub stored: usize,
    pub other_account: usize,
}

/// How many of a journal's last `feedback.created` lines are checked against the store.
pub(crate) const CATCH_UP_LINES: usize = 1000;

/// Stores the items of the last [`CATCH_UP_LINES`] `feedback.created` lines of a journal
/// (`--jsonl` bytes) that the store lacks. The store is written after the journal line that
/// gates the 204, so a process ended between the two (a signal, a full disk that refused the
/// store's write) leaves the newest deliveries in the journal only; the next start stores them.
/// Only the journal's tail is read: an older item the store lacks was dropped from it on
/// purpose (retention, or deleted on the service) and must not come back. Torn lines, records
/// kept raw and other events are skipped.
pub fn store_journaled(store: &mut Store, journal: &[u8]) -> Result<CaughtUp, StoreError> {
    let lines = super::journal::read_lines::<serde_json::Value>(journal);
    let mut submissions: Vec<Submission> = lines
        .records
        .iter()
        .rev()
        .filter_map(|record| {
            let body = serde_json::to_vec(record).ok()?;
            match feedback_api::webhook::Event::parse(&body).ok()? {
                feedback_api::webhook::Event::FeedbackCreated(submission) => Some(submission),
                feedback_api::webhook::Event::Other { .. } => None,
            }
        })
        .take(CATCH_UP_LINES)
        .collect();
    submissions.reverse();
    let ids: Vec<&str> = submissions.iter().map(|s| s.id.as_str()).collect();
    let present = store.contains_ids(&ids)?;
    let mut caught_up = CaughtUp::default();
    for (submission, _) in submissions.iter().zip(present).filter(|(_, have)| !have) {
        match store_submission(store, submission)? {
            Some(_) => caught_up.stored += 1,
            None => caught_up.other_account += 1,
        }
    }
    Ok(caught_up)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use feedback_api::webhook::event::WebhookMetadata;
    use feedback_api::{App, Platform, Status};

    fn submission(id: &str) -> Submission {
        Submission {
            id: feedback_api::FeedbackId(id.to_owned()),
            app_id: "app_1".into(),
            app_name: "Acme iOS".into(),
            project_id: "prj_1".into(),
            project_name: "Acme".into(),
            message: "the export crashes".into(),
            email: Some("a@example.com".into()),
            metadata: WebhookMetadata {
                builtin: [("appVersion".to_owned(), "2.1".to_owned())].into(),
                custom: [("plan".to_owned(), "pro".to_owned())].into(),
            },
            received_at: "2026-11-01T11:59:00Z".parse().unwrap(),
        }
    }

    #[test]
    fn the_journal_items_the_store_lacks_are_stored_and_the_rest_skipped() {
        let mut store = Store::open_memory().unwrap();
        store_submission(&mut store, &submission("fb_1")).unwrap();
        let mut journal = Vec::new();
        for id in ["fb_1", "fb_2", "fb_3"] {
            journal.extend(crate::journal::event_line(&submission_event(id)).unwrap());
        }
        journal.extend(b"{\"event\":\"feedback.crea\n");
        journal.extend(br#"{"unparsed":true,"reason":"x","body":"y"}"#);
        journal.push(b'\n');
        let caught_up = store_journaled(&mut store, &journal).unwrap();
        assert_eq!(
            caught_up,
            CaughtUp {
                stored: 2,
                other_account: 0
            }
        );
        assert_eq!(
            store.contains_ids(&["fb_1", "fb_2", "fb_3"]).unwrap(),
            [true, true, true]
        );
        let again = store_journaled(&mut store, &journal).unwrap();
        assert_eq!(again, CaughtUp::default());
    }

    /// The body of a delivery of `id`.
    fn submission_event(id: &str) -> Vec<u8> {
        submission(id).to_body()
    }

    #[test]
    fn a_delivery_lands_with_its_metadata_and_the_known_platform_once() {
        let mut store = Store::open_memory().unwrap();
        let app = App {
            id: "app_1".into(),
            project_id: Some("prj_1".into()),
            name: "Acme iOS".into(),
            slug: None,
            platform: Some(Platform::Ios),
            app_identifier: None,
            region: None,
        };
        store.put_apps(&[app], None).unwrap();
        let first = store_submission(&mut store, &submission("fb_1"))
            .unwrap()
            .unwrap();
        assert_eq!((first.added, first.known.clone()), (1, vec![false]));
        let again = store_submission(&mut store, &submission("fb_1"))
            .unwrap()
            .unwrap();
        assert_eq!((again.added, again.changed), (0, 0));
        let detail = store.detail("fb_1").unwrap().unwrap();
        let item = &detail.item.feedback;
        assert_eq!(item.status, Status::New);
        assert_eq!(item.app.as_ref().unwrap().platform, Platform::Ios);
        assert_eq!(detail.metadata.built_in["appVersion"], "2.1");
        assert_eq!(detail.metadata.custom["plan"], "pro");
    }

    #[test]
    fn a_delivery_of_a_project_the_store_account_lacks_is_not_stored() {
        let mut store = Store::open_memory().unwrap();
        let project = |id: &str| feedback_api::Project {
            id: id.to_owned(),
            name: id.to_owned(),
            slug: None,
            created_at: None,
        };
        store.check_account(&[project("prj_other")]).unwrap();
        assert_eq!(
            store_submission(&mut store, &submission("fb_x")).unwrap(),
            None
        );
        assert!(store.item("fb_x").unwrap().is_none());
        store
            .check_account(&[project("prj_other"), project("prj_1")])
            .unwrap();
        assert!(
            store_submission(&mut store, &submission("fb_x"))
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn a_late_delivery_does_not_undo_what_a_newer_list_page_said() {
        let mut store = Store::open_memory().unwrap();
        let mut listed = submission("fb_2").to_feedback(Some(Platform::Android));
        listed.status = Status::Archived;
        listed.tags = vec!["bug".into()];
        store
            .put_items(&[listed], "2026-11-02T00:00:00Z".parse().unwrap())
            .unwrap();
        store_submission(&mut store, &submission("fb_2")).unwrap();
        let detail = store.detail("fb_2").unwrap().unwrap();
        let item = &detail.item.feedback;
        assert_eq!(
            (item.status.clone(), item.tags.clone()),
            (Status::Archived, vec!["bug".to_owned()])
        );
        assert_eq!(item.app.as_ref().unwrap().platform, Platform::Android);
        assert_eq!(detail.metadata.custom["plan"], "pro");
    }
}
